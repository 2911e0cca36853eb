"""PyTorch's argument parser's answer to a call that does not bind: one rule for every
``torch.*`` function, ``Tensor`` method and ``nn.functional`` function.

PyTorch reads the arguments of most of its functions in C++ (``python_arg_parser.cpp``),
so ``torch.ones(2).add()`` does not raise Python's "missing 1 required positional
argument: 'other'" but the parser's own text. Its rule:

- a function of one signature raises that signature's error, in the order it checks:
  too many positional arguments ("transpose() takes 3 positional arguments but 4 were
  given"), then the first parameter not given ("gather() missing 1 required positional
  arguments: "index"", naming every required parameter from there on; PyTorch's plural
  is the other way round, "missing 2 required positional argument"), then a keyword it
  does not take;
- a function of several signatures (the hidden, deprecated ones counted) looks for the
  ones that take as many arguments as were given: exactly one, and that one's error;
  none or several, "received an invalid combination of arguments - got (Tensor), but
  expected one of: ..." listing the signatures it shows, each that takes that many
  arguments with the reason it did not fit.

``parsed_as_pytorch`` wraps a function so that a call Python cannot bind raises that
text instead; a function PyTorch writes in Python keeps Python's own error.
``rules/parser_overloads.py`` says which functions those are and which have several
signatures (read from PyTorch); a function's own parameters are minigrad's (their names
are PyTorch's: ``tests/core/fidelity/test_signatures.py``).
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from .. import dtypes, errors
from ..autograd.tensor_base import is_tensor
from .parser_overloads import ONE_ARGUMENT, RENAMED, SEVERAL_SIGNATURES, WRITTEN_IN_PYTHON
from .promotion import is_number

__all__ = ["parsed_as_pytorch", "check_max_other", "parsed_namespace", "binding_errors", "ANSWERING", "parser_error", "missing_arguments",
           "type_name", "described", "got"]


def type_name(value) -> str:
    """A value's type as the parser names it: ``str``, ``Tensor``, ``torch.dtype``,
    ``numpy.float64`` (Python's ``tp_name``: the module too, outside the builtins)."""
    if is_tensor(value):
        return "Tensor"
    if isinstance(value, dtypes.dtype):
        return "torch.dtype"
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


def described(value) -> str:
    """A value as the parser's "got (...)" describes it: ``tuple of (int, float)``."""
    if isinstance(value, tuple):  # (one element: "(int,)", as Python writes the tuple)
        return "tuple of (" + ", ".join(described(v) for v in value) + \
            ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "list of [" + ", ".join(described(v) for v in value) + "]"
    return type_name(value) if is_tensor(value) or isinstance(value, dtypes.dtype) \
        else type(value).__name__


def got(args: tuple, kwargs: dict, marked: bool = False) -> str:
    """The parser's "(tuple, int, dim=float)": keywords last, in the reverse of the
    order given; with no positional argument, each keyword ends with ", "; ``marked``:
    "(!tuple of (float, int)!)", the arguments of an overload that did not fit them."""
    if marked:  # (the arguments that did not fit, described in full)
        name, mark = described, "!{}!".format
    else:
        name, mark = type_name, "{}".format
    parts = [mark(name(a)) for a in args]
    keywords = [mark(f"{k}={name(v)}") for k, v in reversed(kwargs.items())]
    if args:
        return "(" + ", ".join(parts + keywords) + ")"
    return "(" + "".join(f"{k}, " for k in keywords) + ")"


class Parameter:
    """One parameter as the parser holds it: its name, its type ("Tensor", "int", ...,
    or "" when read from a Python signature), whether it has a default, and whether it
    comes after the ``*``."""

    def __init__(self, name: str, kind: str, required: bool, keyword_only: bool):
        self.name, self.kind, self.required, self.keyword_only = \
            name, kind, required, keyword_only


@functools.lru_cache(maxsize=None)
def listed_params(signature: str) -> tuple:
    """``Tensor input, *, Number alpha = 1`` (as the parser lists it) as Parameters."""
    params, keyword_only = [], False
    for part in signature.split(", "):
        if part == "*":
            keyword_only = True
            continue
        declared, _, default = part.partition(" = ")
        kind, _, name = declared.rpartition(" ")
        params.append(Parameter(name, kind, not default, keyword_only))
    return tuple(params)


def python_params(function, method: bool) -> tuple:
    """A Python function's parameters as Parameters (``self`` or a method's tensor left out)."""
    found = []
    for index, p in enumerate(inspect.signature(function).parameters.values()):
        if (method and index == 0) or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        found.append(Parameter(p.name, "", p.default is p.empty, p.kind == p.KEYWORD_ONLY))
    return tuple(found)


def missing_arguments(name: str, names: list) -> TypeError:
    """The parser's error for required parameters not given: every one from the first
    missing on, given by keyword or not; its plural the other way round, as PyTorch's."""
    quoted = ", ".join(f'"{n}"' for n in names)
    return TypeError(f"{name}() missing {len(names)} required positional argument"
                     f"{'s' if len(names) == 1 else ''}: {quoted}")


def _one_signature_error(name: str, params: tuple, args: tuple, kwargs: dict):
    """The error the parser raises for one signature, or None if the call fits it."""
    positional = sum(not p.keyword_only for p in params)
    required = sum(p.required for p in params)
    if len(args) > positional:
        if required != positional:
            return TypeError(f"{name}() takes from {required} to {positional} positional "
                             f"arguments but {len(args)} were given")
        return TypeError(f"{name}() takes {positional} positional argument"
                         f"{'' if positional == 1 else 's'} but {len(args)} "
                         f"{'was' if len(args) == 1 else 'were'} given")
    for index, param in enumerate(params):
        if index < len(args) or param.name in kwargs or not param.required:
            continue
        return missing_arguments(name, [p.name for p in params[index:] if p.required])
    names = [p.name for p in params]
    for key in kwargs:
        if key not in names:
            return TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        if names.index(key) < len(args):
            return TypeError(f"{name}() got multiple values for argument '{key}'")
    return None


_FITS = {
    "Tensor": is_tensor,
    "Number": lambda v: False,  # (PyTorch's parser marks whatever meets a Number, numbers too)
    "int": lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)),
    "bool": lambda v: isinstance(v, (bool, np.bool_)),
    "float": is_number,
    "str": lambda v: isinstance(v, str),
    "torch.dtype": lambda v: isinstance(v, dtypes.dtype),
}


def _reason(params: tuple, args: tuple, kwargs: dict) -> str:
    """Why a signature taking as many arguments as given did not fit them."""
    names = [p.name for p in params]
    wrong = [key for key in kwargs if key not in names]
    if wrong:
        return "some of the keywords were incorrect: " + ", ".join(wrong)
    kinds = {p.name: p.kind for p in params}
    parts = []
    for index, value in enumerate(args):
        fits = _FITS.get(params[index].kind, lambda v: True)(value)
        parts.append(type_name(value) if fits else f"!{described(value)}!")
    for key, value in reversed(kwargs.items()):
        fits = _FITS.get(kinds[key], lambda v: True)(value)
        parts.append(f"{key}={type_name(value)}" if fits else f"!{key}={described(value)}!")
    if not args:  # (keywords only: each ends with ", ", as in "got (other=int, )")
        return f"some of the arguments have invalid types: ({''.join(p + ', ' for p in parts)})"
    return f"some of the arguments have invalid types: ({', '.join(parts)})"


def invalid_combination(name: str, listed: tuple, args: tuple, kwargs: dict) -> TypeError:
    """The parser's "received an invalid combination of arguments" for ``listed``."""
    head = f"{name}() received an invalid combination of arguments - got {got(args, kwargs)}"
    if len(listed) == 1:
        return TypeError(f"{head}, but expected ({listed[0]})")
    lines = [f"{head}, but expected one of:"]
    for signature in listed:
        lines.append(f" * ({signature})")
        params = listed_params(signature)
        if len(params) == len(args) + len(kwargs):
            lines.append(f"      didn't match because {_reason(params, args, kwargs)}")
    return TypeError("\n".join(lines) + "\n")


def parser_error(label: str, name: str, params: tuple, args: tuple, kwargs: dict):
    """PyTorch's error for a call of ``label`` (``add``, ``Tensor.add``, ``F.linear``)
    with ``args`` and ``kwargs`` (a method's tensor left out), or None if its parser
    would take the call."""
    if label in ONE_ARGUMENT:  # (a C function of one argument, not read by the parser)
        return TypeError(f"{name}() takes exactly one argument ({len(args) + len(kwargs)} given)")
    listed = SEVERAL_SIGNATURES.get(label)
    if listed is None:
        return _one_signature_error(name, params, args, kwargs)
    count = len(args) + len(kwargs)
    plausible = [s for s in listed if sum(p.required for p in listed_params(s)) <= count
                 <= len(listed_params(s))]
    if len(plausible) == 1:
        error = _one_signature_error(name, listed_params(plausible[0]), args, kwargs)
        if error is not None:
            return error
    return invalid_combination(name, listed, args, kwargs)


def _unwrapped_codes(function) -> set:
    """The code of each wrapper around ``function`` (``functools.wraps``'s chain): a
    call that fails to bind fails in one of them."""
    codes = set()
    while hasattr(function, "__wrapped__"):
        codes.add(function.__code__)
        function = function.__wrapped__
    return codes


def _failed_to_bind(error: TypeError, callers: set) -> bool:
    """Whether ``error`` is Python's own, raised by a call from a wrapper that did not
    bind (not an error from inside the function)."""
    trace = error.__traceback__
    while trace.tb_next is not None:
        trace = trace.tb_next
    return trace.tb_frame.f_code in callers


def _takes_required(function, method: bool) -> bool:
    return any(p.required for p in python_params(function, method))


# The wrappers of rules/arguments.py that answer as the parser themselves (their code
# objects): parsed_as_pytorch leaves the functions they wrap as they are.
ANSWERING = set()


def binding_errors(label: str, function, method: bool = False):
    """For a wrapper around ``function``: ``answer(error, caller, args, kwargs)``, the error
    to raise in place of ``error`` (PyTorch's parser's, when ``error`` is Python's for a
    call from the wrapper's code ``caller`` that did not bind; else None), or None if
    PyTorch writes the function in Python or it requires no argument (``method``: its
    first argument is the tensor)."""
    if label in WRITTEN_IN_PYTHON or not _takes_required(function, method):
        return None
    name = RENAMED.get(label, label.rpartition(".")[2])
    params = python_params(function, method)
    first = 1 if method else 0
    codes = _unwrapped_codes(function)

    def answer(error: TypeError, caller, args: tuple, kwargs: dict):
        if not _failed_to_bind(error, codes | {caller}):
            return None
        return parser_error(label, name, params, args[first:], kwargs)
    return answer


def parsed_as_pytorch(label: str, function, method: bool = False):
    """``function`` raising PyTorch's parser errors when a call does not bind, or
    ``function`` itself if PyTorch writes it in Python, it requires no argument, or a
    wrapper of rules/arguments.py answers for it already (``method``: its first argument
    is the tensor)."""
    if label in WRITTEN_IN_PYTHON and label in RENAMED:
        return _renamed(RENAMED[label], function)
    if not inspect.isfunction(function) or function.__code__ in ANSWERING:
        return function
    answer = binding_errors(label, function, method)
    if answer is None:
        return function

    @functools.wraps(function)
    def parsed(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except TypeError as error:
            translated = answer(error, parsed.__code__, args, kwargs)
            if translated is None:
                raise
            raise translated from None
    errors.TRANSPARENT_FRAMES.add(parsed.__code__)  # (a warning's stacklevel skips it)
    return parsed


def _renamed(name: str, function):
    """``function`` whose binding errors are Python's for a function called ``name`` (PyTorch's
    Python function behind the name: ``F.max_pool2d``'s errors name ``_max_pool2d``)."""
    @functools.wraps(function)
    def renamed(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except TypeError as error:
            if not _failed_to_bind(error, callers):
                raise
            own = f"{function.__qualname__}()"
            raise TypeError(str(error).replace(own, f"{name}()", 1)) from None

    callers = _unwrapped_codes(function) | {renamed.__code__}
    errors.TRANSPARENT_FRAMES.add(renamed.__code__)
    return renamed


def parsed_namespace(namespace: dict, names, prefix: str = "", method: bool = False) -> dict:
    """{name: parsed_as_pytorch(...)} for the public functions among ``names`` of
    ``namespace`` (a module's globals, a class's ``vars``): the one place the rule is
    applied, to each function alike."""
    return {name: parsed_as_pytorch(prefix + name, namespace[name], method)
            for name in names if not name.startswith("_") and inspect.isfunction(namespace[name])}


def check_max_other(name: str, dim, other) -> None:
    """``x.max(other=...)``: the parser takes ``other`` only alone and only a Tensor
    (PyTorch's texts; ``x.max(1, other=y)`` matches no signature's keywords)."""
    if other is None or (dim is None and is_tensor(other)):
        return
    if dim is not None:
        raise TypeError(f"{name}() got an unexpected keyword argument 'other'")
    raise parser_error(f"Tensor.{name}", name, (), (), {"other": other})
