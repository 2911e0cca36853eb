"""PyTorch's argument parser, for the errors a learner sees on a wrong call.

PyTorch checks the arguments of ``torch.sum``, ``x.view`` and friends in C++,
so a wrong call does not raise Python's own ``TypeError`` but one of the
parser's: "view(): argument 'size' failed to unpack the object at pos 2 with
error ...", "reshape(): argument 'shape' (position 1) must be tuple of ints,
not NoneType", "view() received an invalid combination of arguments - got
(str), but expected one of: ...". Learners search for these texts, so this
module makes the same ones (``tests/core/fidelity/test_argument_errors.py`` compares
them with PyTorch's). A parameter ``tuple of ints`` (a shape) takes a tuple or
a list of ints, or, when it is a method's only positional parameter, the ints
themselves: ``x.view(2, 3)`` is ``x.view((2, 3))``.
"""

from __future__ import annotations

import functools
import inspect
import math
import re

import numpy as np

from .. import dtypes, errors
from ..autograd.broadcast import broadcast_shapes
from ..autograd.tensor_base import is_tensor
from .conversion import C_INTEGER_NAMES, checked_fill_value
from .parser import (ANSWERING, binding_errors, described, listed_params, missing_arguments,
                     type_name)
from .parser_overloads import SEVERAL_SIGNATURES
from .parser import got as _got
from .promotion import NO_PARAMS, check_python_int, is_number, python_number

__all__ = ["checks_arguments", "takes_numpy_names", "described", "int_list", "invalid_combination", "is_int",
           "shape_argument", "view_argument", "ints_by_keyword", "check_where_arguments",
           "check_triangle", "OVERLOADS"]

# The overloads PyTorch's parser lists when a call matches none of them.
OVERLOADS = {
    "sum": ("Tensor input, *, torch.dtype dtype = None",
            "Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None"),
    "mean": ("Tensor input, *, torch.dtype dtype = None, Tensor out = None",
             "Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, "
             "Tensor out = None"),
    **{name: ("Tensor input, *, Tensor out = None",
              "Tensor input, Tensor other, *, Tensor out = None",
              "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None")
       for name in ("max", "min")},
    "Tensor.view": ("torch.dtype dtype", "tuple of ints size"),
    "pow": ("Tensor input, Tensor exponent, *, Tensor out = None",
            "Number self, Tensor exponent, *, Tensor out = None",
            "Tensor input, Number exponent, *, Tensor out = None"),
    "Tensor.pow": ("Tensor exponent", "Number exponent"),
    **{name: ("Tensor input, Tensor other, *, Tensor out = None",
              "Tensor input, Number other, *, Tensor out = None")
       for name in ("eq", "ne", "lt", "le", "gt", "ge")},
    **{f"Tensor.{name}": ("Tensor other", "Number other")
       for name in ("eq", "ne", "lt", "le", "gt", "ge", "remainder", "fmod", "floor_divide")},
}


def invalid_combination(function: str, args: tuple, kwargs: dict, notes=None) -> TypeError:
    """PyTorch's TypeError for a call that none of ``function``'s overloads takes;
    ``notes`` {overload index: reason} say why an overload of the right size failed."""
    name = function.rpartition(".")[2]
    lines = [f"{name}() received an invalid combination of arguments - got "
             f"{_got(args, kwargs)}, but expected one of:"]
    for index, overload in enumerate(OVERLOADS[function]):
        lines.append(f" * ({overload})")
        if notes and index in notes:
            lines.append(f"      didn't match because {notes[index]}")
    return TypeError("\n".join(lines) + "\n")


def _marked_against(kinds: tuple, args: tuple, keywords: tuple = ()) -> str:
    """The parser's note for an overload of ``kinds`` ("Tensor" or "Number" per argument):
    "some of the arguments have invalid types: (Tensor, !int!, !str!)", each argument that
    does not fit marked (PyTorch's parser marks whatever meets a Number, numbers too)."""
    labels = [""] * (len(args) - len(keywords)) + [f"{k}=" for k in keywords]
    parts = [label + type_name(a) if k == "Tensor" and is_tensor(a) else f"!{label}{described(a)}!"
             for k, a, label in zip(kinds, args, labels)]
    return f"some of the arguments have invalid types: ({', '.join(parts)})"


WHERE_KINDS = {2: ("Tensor", "Number", "Tensor"), 3: ("Tensor", "Tensor", "Number"),
               4: ("Tensor", "Number", "Number")}


OVERLOADS["where"] = ("Tensor condition",
                      "Tensor condition, Tensor input, Tensor other, *, Tensor out = None",
                      "Tensor condition, Number self, Tensor other",
                      "Tensor condition, Tensor input, Number other",
                      "Tensor condition, Number self, Number other")


def check_cov_weights(name: str, weights, observations: int) -> None:
    """torch.cov's checks of its ``fweights`` (integers) or ``aweights`` (floats): one
    dim at most, one per observation, none negative (Correlation.cpp's texts)."""
    if weights is None:
        return
    if weights.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {weights.ndim} dimensions")
    dtype = weights.dtype
    if not (dtype.is_integer if name == "fweights" else dtype.is_floating_point):
        kind = "integral" if name == "fweights" else "floating point"
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{dtypes.SCALAR_NAMES[weights.dtype]} dtype")
    if weights.numel() != observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {weights.numel()} != {observations}")
    if observations and not (weights._data >= 0).all():
        raise RuntimeError(f"cov(): {name} cannot be negative")


def einsum_equation(args: tuple) -> tuple:
    """``torch.einsum``'s arguments as (equation, operands): the equation first, or the
    sublist format, each operand followed by its subscripts as ints (0-25 are 'A'-'Z',
    26-51 'a'-'z', ``...`` an ellipsis) and the output's last (torch/functional.py)."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if not is_tensor(args[0]):
        return args[0], args[1:]

    def letters(sublist) -> str:
        return "".join([_einsum_subscript(n) for n in sublist])
    equation = ",".join([letters(sublist) for sublist in args[1::2]])
    if len(args) % 2 == 1:
        return equation + "->" + letters(args[-1]), args[:-1:2]
    return equation, args[::2]


def _einsum_subscript(n) -> str:
    if n is Ellipsis:
        return "..."
    if 0 <= n < 26:
        return chr(ord("A") + n)
    if 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def check_where_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.where(condition)`` alone (``nonzero(condition, as_tuple=True)``) or with
    both ``input`` and ``other``: any other count is PyTorch's invalid combination."""
    given = len(args) + sum(key in kwargs for key in ("condition", "input", "other"))
    if not (given == 3 or (given == 1 and set(kwargs) <= {"condition"})):
        raise invalid_combination("where", args, kwargs)
    if given == 3 and not kwargs and not all(is_tensor(a) or is_number(a) for a in args[1:]):
        # (three by position, one not a tensor or number: why each overload of three failed)
        notes = {k: _marked_against(kinds, args) for k, kinds in WHERE_KINDS.items()}
        raise invalid_combination("where", args, kwargs, notes)
    if "out" in kwargs:  # (the overload with out=, even None, takes tensors only)
        named = dict(zip(("condition", "input", "other"), args), **kwargs)
        for position, name in ((2, "input"), (3, "other")):
            where = f" (position {position})" if position <= len(args) else ""
            if not is_tensor(named[name]):
                raise TypeError(f"where(): argument '{name}'{where} must be Tensor, "
                                f"not {type_name(named[name])}")


for _name in ("sort", "argsort"):
    OVERLOADS[f"Tensor.{_name}"] = ("*, bool stable, int dim = -1, bool descending = False",
                                   "int dim = -1, bool descending = False")
OVERLOADS["sort"] = (
    "Tensor input, *, bool stable, int dim = -1, bool descending = False, "
    "tuple of Tensors out = None",
    "Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None")
OVERLOADS["argsort"] = (
    "Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = None",
    "Tensor input, int dim = -1, bool descending = False")


def check_sort_method(function: str, args: tuple, kwargs: dict) -> None:
    """``x.sort(...)``, ``x.argsort(...)``: PyTorch's two overloads, one with ``stable``
    (its dim and descending then keyword-only), one without; a keyword neither takes, or
    ``stable`` after a positional dim, fails both."""
    given = len(args) + len(kwargs)
    wrong = [k for k in kwargs if k not in ("dim", "descending", "stable")]
    if (not wrong and "stable" not in kwargs or not args and not wrong) and len(args) <= 2:
        return
    if given >= 3:  # (only the overload with stable takes three: PyTorch's text)
        raise TypeError(f"{function}() takes from 1 to 0 positional arguments but {len(args)} "
                        "were given")
    wrong = wrong or ["stable"]
    raise invalid_combination(f"Tensor.{function}", args, kwargs,
                              {1: "some of the keywords were incorrect: " + ", ".join(wrong)})


def check_sort_function(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.sort(input, dim, stable=...)``: as the method's, ``stable`` with a dim given
    by position fits neither overload."""
    if "stable" in kwargs and len(args) == 2 and len(kwargs) == 1:
        raise invalid_combination(function, args, kwargs, {
            1: "some of the keywords were incorrect: stable"} if function == "argsort" else None)


def check_operand_method(function: str, args: tuple, kwargs: dict) -> None:
    """``x.pow(exponent)``, ``x.eq(other)``...: one positional tensor or number (else
    PyTorch's error naming both overloads, (Tensor other) and (Number other))."""
    if len(args) == 1 and not kwargs and not (is_tensor(args[0]) or is_number(args[0])):
        notes = {index: _wrong_types(args, kwargs) for index in (0, 1)}
        raise invalid_combination(f"Tensor.{function}", args, kwargs, notes)


def refused_operands(function: str, args: tuple) -> TypeError:
    """PyTorch's error for ``torch.fmod(x, "a")``, ``torch.bitwise_xor(torch.float32, x)``:
    operands neither tensors nor numbers, for a function of several signatures; the
    reason shown under each that takes no ``out`` (each argument of the wrong type
    marked)."""
    lines = [f"{function}() received an invalid combination of arguments - got "
             f"{_got(args, {})}, but expected one of:"]
    for signature in SEVERAL_SIGNATURES[function]:
        lines.append(f" * ({signature})")
        params = listed_params(signature)
        if all(p.name != "out" for p in params) and \
                sum(p.required for p in params) <= len(args) <= len(params):
            marked = [type_name(a) if _operand_fits(a, p.kind) else f"!{type_name(a)}!"
                      for a, p in zip(args, params)]
            lines.append(f"      didn't match because some of the arguments have invalid "
                         f"types: ({', '.join(marked)})")
    return TypeError("\n".join(lines) + "\n")


def _operand_fits(value, kind: str) -> bool:
    return is_tensor(value) if kind == "Tensor" else kind == "Number" and is_number(value)


def check_logsumexp_dims(x, dim, keepdim: bool) -> None:
    """``x.logsumexp(())``: no dims means all of them to PyTorch's amax, whose kept dims
    (size 1) it then adds into a result of none, and refuses. An empty x takes
    PyTorch's other path (the log of a sum of exps: -inf, no refusal)."""
    if isinstance(dim, (tuple, list)) and not dim and x.ndim and not keepdim and x.numel():
        raise RuntimeError("output with shape [] doesn't match the broadcast shape "
                           f"[{', '.join(['1'] * x.ndim)}]")


def warn_degrees_of_freedom(name: str, x, dim, correction) -> None:
    """var's and std's warning (``name``: the function) when the correction leaves no
    degree of freedom, by PyTorch's count: the input's elements over the output's (0 when
    the output is empty, so an empty result always warns). ``x``: the input's array."""
    numel = x.size
    kept = numel if dim is None else int(np.prod([x.shape[d] for d in dim], dtype=np.int64))
    outputs = 1 if dim is None else int(np.prod([n for d, n in enumerate(x.shape)
                                                 if d not in dim], dtype=np.int64))
    if (kept if outputs else 0) - correction <= 0:
        errors.warn_at_caller(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than "
            "the reduction factor (input numel divided by output numel). (Triggered "
            "internally at /__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)")


def refused_operand(method: str, args: tuple) -> TypeError:
    """PyTorch's error for ``x.add_("a")``, ``x.pow_(None)``: an in-place method given what
    is neither a tensor nor a number, as its parser answers (one signature: "must be
    Tensor"; several: each one's reason)."""
    args = args[:1]  # (the operand; add_'s alpha and the like are the method's own)
    listed = SEVERAL_SIGNATURES.get(f"Tensor.{method}", ("Tensor other",))
    plausible = [s for s in listed if _takes_one(listed_params(s))]
    if len(plausible) == 1:
        first = listed_params(plausible[0])[0]
        return TypeError(f"{method}(): argument '{first.name}' (position 1) must be "
                         f"{first.kind}, not {type_name(args[0])}")
    lines = [f"{method}() received an invalid combination of arguments - got "
             f"{_got(args, {})}, but expected one of:"]
    for signature in listed:
        lines.append(f" * ({signature})")
        if signature in plausible:
            lines.append(f"      didn't match because {_wrong_types(args, {})}")
    return TypeError("\n".join(lines) + "\n")


def _takes_one(params) -> bool:
    return sum(p.required for p in params) <= 1 <= len(params)


def check_operand_function(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.pow(input, exponent)``, ``torch.eq(input, other)``...: tensors or numbers
    where the overloads take them (pow's base may be a number, the others' input not)."""
    if len(args) != 2:
        return  # (missing or extra arguments: Python's own error)
    first, second = args
    fits = is_tensor(first) and (is_tensor(second) or is_number(second))
    if function in NUMBER_FIRST:
        fits = fits or (is_number(first) and is_tensor(second))
    if not fits:
        raise invalid_combination(function, args, kwargs)


def check_input_function(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.erf(input)``...: input a tensor, else PyTorch's "erf(): argument 'input'
    (position 1) must be Tensor, not str"."""
    _check_tensors(function, ("input",), args, kwargs)


def check_x_function(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.special.airy_ai(x)``...: the functions whose tensor PyTorch names ``x``."""
    _check_tensors(function, ("x",), args, kwargs)


# The math functions whose first operand may be a number too (xlogy(2, y), float_power(2, x)),
# and those whose second must be a tensor or a number, with PyTorch's overloads.
NUMBER_FIRST = {"pow", "xlogy", "special_xlogy", "special_xlog1py", "float_power"}
for _name, _second in (("xlogy", "other"), ("special_xlogy", "other"), ("special_xlog1py", "other"),
                       ("float_power", "exponent")):
    OVERLOADS[_name] = (f"Tensor input, Tensor {_second}, *, Tensor out = None",
                        f"Number self, Tensor {_second}, *, Tensor out = None",
                        f"Tensor input, Number {_second}, *, Tensor out = None")
OVERLOADS["copysign"] = SEVERAL_SIGNATURES["copysign"]  # (no number first)
# torch.special's orthogonal polynomials (x and n) and zeta: either operand may be a number
SPECIAL_POLYNOMIALS = tuple(f"special_{kind}_polynomial_{letter}" for kind, letters in (
    ("chebyshev", "tuvw"), ("shifted_chebyshev", "tuvw"), ("hermite", ("h", "he")),
    ("laguerre", "l"), ("legendre", "p")) for letter in letters)
for _name in SPECIAL_POLYNOMIALS:
    NUMBER_FIRST.add(_name)
    OVERLOADS[_name] = ("Tensor x, Tensor n, *, Tensor out = None",
                        "Number x, Tensor n, *, Tensor out = None",
                        "Tensor x, Number n, *, Tensor out = None")
NUMBER_FIRST.add("special_zeta")
OVERLOADS["special_zeta"] = ("Tensor input, Tensor other, *, Tensor out = None",
                             "Number self, Tensor other, *, Tensor out = None",
                             "Tensor input, Number other, *, Tensor out = None")
OVERLOADS["Tensor.to"] = tuple(
    first + ", bool non_blocking = False, bool copy = False, *, torch.memory_format "
    "memory_format = None" for first in ("torch.device device = None, torch.dtype dtype = None",
                                         "torch.dtype dtype", "Tensor tensor"))


def check_type_argument(value) -> None:
    """``x.type(value)`` for what is neither a dtype nor a legacy type's name or class:
    PyTorch's errors, a class named as Python names its type (a C type with its module)."""
    if isinstance(value, type):
        name = value.__name__ if value.__module__ == "builtins" or (
            value.__flags__ & _HEAP_TYPE) else f"{value.__module__}.{value.__name__}"
        raise ValueError(f"invalid type: '{name}'")
    if not isinstance(value, dtypes.dtype):
        raise TypeError("dtype must be a type, str, or dtype object")


_HEAP_TYPE = 1 << 9  # (Py_TPFLAGS_HEAPTYPE: a class written in Python)

OVERLOADS["lerp"] = ("Tensor input, Tensor end, Tensor weight, *, Tensor out = None",
                     "Tensor input, Tensor end, Number weight, *, Tensor out = None")
OVERLOADS["Tensor.lerp"] = OVERLOADS["Tensor.lerp_"] = ("Tensor end, Tensor weight",
                                                        "Tensor end, Number weight")


def check_lerp_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``lerp(input, end, weight)`` (or the method's ``(end, weight)``): end a tensor,
    weight a tensor or a number."""
    names = ("end", "weight") if function.startswith("Tensor.") else ("input", "end", "weight")
    given = dict(zip(names, args), **kwargs)
    if len(given) < len(names):
        return  # (missing arguments: Python's own error)
    if not (is_tensor(given["end"]) and (is_tensor(given["weight"]) or is_number(given["weight"]))
            and is_tensor(given.get("input", given["end"]))):
        # (the method's notes: its overloads take as many arguments as given)
        keywords = tuple(name for name in names if name in kwargs)
        notes = {k: _marked_against(kinds, tuple(given[name] for name in names), keywords)
                 for k, kinds in enumerate((("Tensor", "Tensor"), ("Tensor", "Number")))} \
            if len(names) == 2 else None
        raise invalid_combination(function, args, kwargs, notes)


def check_lerp_method(function: str, args: tuple, kwargs: dict) -> None:
    check_lerp_arguments(f"Tensor.{function}", args, kwargs)


def check_addc_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``addcmul(input, tensor1, tensor2, *, value=1)`` (addcdiv too; the methods without
    input): tensors, and a Number (or a 0-dim tensor) for value, with PyTorch's texts."""
    method = function.startswith("Tensor.")
    name = function.removeprefix("Tensor.")
    if len(args) > 2 + (not method):  # (value is keyword-only; the parser counts without self)
        raise TypeError(f"{name}() takes {2 + (not method)} positional arguments but "
                        f"{len(args)} were given")
    _check_tensors(name, ("tensor1", "tensor2") if method else ("input", "tensor1", "tensor2"),
                   args, kwargs)
    value = kwargs.get("value", 1)
    if not (is_number(value) or is_tensor(value) and value.ndim == 0):
        raise TypeError(f"{name}(): argument 'value' must be Number, not {type_name(value)}")


def check_dim_function(function: str, args: tuple, kwargs: dict) -> None:
    """``cummax(input, dim)``, ``logcumsumexp(input, dim)`` (the methods ``(dim)``): input a
    tensor, dim an int, with PyTorch's texts."""
    method = function.startswith("Tensor.")
    name = function.removeprefix("Tensor.")
    names = ("dim",) if method else ("input", "dim")
    _check_tensors(name, names[:-1], args, kwargs)
    if len(args) == len(names) - 1 and not kwargs:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if len(args) >= len(names) or "dim" in kwargs:
        by_position = len(args) >= len(names)
        _typed(name, "dim", "int", args[len(names) - 1] if by_position else kwargs["dim"],
               len(names) if by_position else None)


def check_index_put_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``index_put(input, indices, values, accumulate=False)`` (the methods without input):
    indices a tuple (or list) of tensors, values a tensor, with PyTorch's texts."""
    method = function.startswith("Tensor.")
    name = function.removeprefix("Tensor.")
    names = ("indices", "values") if method else ("input", "indices", "values")
    _check_tensors(name, names[:-2], args, kwargs)
    given = dict(zip(names, args), **kwargs)
    position = len(names) - 1
    if "indices" in given:
        indices = given["indices"]
        where = f" (position {position})" if len(args) >= position else ""
        if not isinstance(indices, (tuple, list)):
            raise TypeError(f"{name}(): argument 'indices'{where} must be tuple of Tensors, "
                            f"not {type_name(indices)}")
        for k, item in enumerate(indices):
            if not is_tensor(item):
                raise TypeError(f"expected Tensor as element {k} in argument {position - 1}, "
                                f"but got {type_name(item)}")
    if "values" in given and not is_tensor(given["values"]):
        where = f" (position {position + 1})" if len(args) > position else ""
        raise TypeError(f"{name}(): argument 'values'{where} must be Tensor, "
                        f"not {type_name(given['values'])}")


def check_index_put_method(function: str, args: tuple, kwargs: dict) -> None:
    check_index_put_arguments(f"Tensor.{function}", args, kwargs)


def check_masked_scatter_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``masked_scatter(input, mask, source)``: tensors, with PyTorch's texts."""
    if function.startswith("Tensor."):
        _check_tensors(function.removeprefix("Tensor."), ("mask", "source"), args, kwargs)
    else:
        _check_tensors(function, ("input", "mask", "source"), args, kwargs)


def check_masked_scatter_method(function: str, args: tuple, kwargs: dict) -> None:
    check_masked_scatter_arguments(f"Tensor.{function}", args, kwargs)


def check_fill_value_method(function: str, args: tuple, kwargs: dict) -> None:
    """``fill_diagonal_(fill_value, wrap=False)``: a Number (or a 0-dim tensor)."""
    given = dict(zip(("fill_value", "wrap"), args), **kwargs)
    value = given.get("fill_value", 0)
    if not (is_number(value) or is_tensor(value) and value.ndim == 0):
        where = " (position 1)" if args else ""
        raise TypeError(f"{function}(): argument 'fill_value'{where} must be Number, "
                        f"not {type_name(value)}")


def check_scatter_reduce_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``scatter_reduce(input, dim, index, src, reduce, *, include_self=True)`` (the methods
    without input): PyTorch's texts for a missing reduce and a positional include_self."""
    method = function.startswith("Tensor.")
    name = function.removeprefix("Tensor.")
    count = 4 if method else 5
    if len(args) > count:
        raise TypeError(f"{name}() takes {count} positional arguments but {len(args)} were given")
    if len(args) == count - 1 and "reduce" not in kwargs:
        raise TypeError(f'{name}() missing 1 required positional arguments: "reduce"')


def check_scatter_reduce_method(function: str, args: tuple, kwargs: dict) -> None:
    check_scatter_reduce_arguments(f"Tensor.{function}", args, kwargs)


def check_polygamma_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``polygamma(n, input)`` (the methods ``(n)``): n an int, input a tensor."""
    method = function.startswith("Tensor.")
    name = function.removeprefix("Tensor.")
    if args or "n" in kwargs:
        _typed(name, "n", "int", args[0] if args else kwargs["n"], 1 if args else None)
    if not method:
        names = ("n", "input")
        given = dict(zip(names, args), **kwargs)
        if "input" in given and not is_tensor(given["input"]):
            where = " (position 2)" if len(args) >= 2 else ""
            raise TypeError(f"{name}(): argument 'input'{where} must be Tensor, "
                            f"not {type_name(given['input'])}")


def check_polygamma_method(function: str, args: tuple, kwargs: dict) -> None:
    check_polygamma_arguments(f"Tensor.{function}", args, kwargs)


def check_dim_method(function: str, args: tuple, kwargs: dict) -> None:
    check_dim_function(f"Tensor.{function}", args, kwargs)


def check_addc_method(function: str, args: tuple, kwargs: dict):
    older = _deprecated_value_first(function, args, kwargs)
    if older is not None:
        return older
    check_addc_arguments(f"Tensor.{function}", args, kwargs)
    return None


def check_float_argument(function: str, name: str, position: int, value) -> None:
    """``logit(x, eps)``: a float (or None), else PyTorch's "logit(): argument 'eps'
    (position 2) must be float, not str"."""
    if value is not None and not is_number(value):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                        f"float, not {type_name(value)}")


TENSOR_PARAMETERS = {"matmul": "other", "mm": "mat2", "mv": "vec", "dot": "tensor",
                     "isclose": "other", "allclose": "other", "ldexp": "other",
                     "ldexp_": "other",
                     "igamma": "other", "igammac": "other", "special_gammainc": "other",
                     "special_gammaincc": "other",
                     "bmm": "mat2", "maximum": "other", "minimum": "other",
                     "atan2": "other", "atan2_": "other", "arctan2": "other",
                     "arctan2_": "other", "hypot": "other", "hypot_": "other",
                     "logaddexp": "other", "logaddexp2": "other", "heaviside": "values",
                     "heaviside_": "values", "dist": "other", "gcd": "other", "lcm": "other",
                     "gcd_": "other", "lcm_": "other", "fmax": "other", "fmin": "other",
                     "nextafter": "other", "nextafter_": "other"}


for _name in ("clamp", "clamp_", "clip", "clip_"):
    OVERLOADS[f"Tensor.{_name}"] = ("Tensor min = None, Tensor max = None",
                                    "Number min = None, Number max = None")
for _name in ("clamp", "clip"):
    OVERLOADS[_name] = ("Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None",
                        "Tensor input, Number min = None, Number max = None, *, Tensor out = None")


def _bounds_fit(bounds) -> bool:
    """clamp's two overloads: bounds that are all tensors, or all numbers (None for either;
    a 0-dim tensor that does not require grad reads as a number)."""
    given = [b for b in bounds if b is not None]
    if not all(is_tensor(b) or is_number(b) for b in given):
        return False
    return all(is_tensor(b) for b in given) or all(
        not is_tensor(b) or (b.ndim == 0 and not b.requires_grad) for b in given)


def check_clamp_method(function: str, args: tuple, kwargs: dict) -> None:
    """``x.clamp(min, max)`` (``clamp_``, ``clip``, ``clip_``): bounds that fit one of the
    two overloads, else PyTorch's error, which (for two arguments given) says why each
    overload failed: the keywords given, or else the arguments' types."""
    if len(args) <= 2 and not set(kwargs) - {"min", "max"} \
            and _bounds_fit((*args, *kwargs.values())):
        return
    notes = None
    if len(args) + len(kwargs) == 2:
        reason = ("some of the keywords were incorrect: " + ", ".join(reversed(kwargs))
                  if kwargs else _wrong_types(args, kwargs))
        notes = {0: reason, 1: reason}
    raise invalid_combination(f"Tensor.{function}", args, kwargs, notes)


def check_clamp_function(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.clamp(input, min, max)`` (``torch.clip``): as ``check_clamp_method``; the
    function's error lists its overloads without reasons."""
    bounds = (*args[1:], *(kwargs[name] for name in ("min", "max") if name in kwargs))
    inputs = args[:1] or [kwargs[name] for name in ("input",) if name in kwargs]
    if len(args) > 3 or set(kwargs) - {"input", "min", "max", "out"} or not _bounds_fit(bounds) \
            or inputs and not is_tensor(inputs[0]):  # (meet seed 46105: a dtype as input)
        raise invalid_combination(function, args, kwargs)


def check_tensor_function(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.matmul(input, other)``, ``torch.mm(input, mat2)``...: both tensors, else
    PyTorch's "matmul(): argument 'other' (position 2) must be Tensor, not list"."""
    _check_tensors(function, ("input", TENSOR_PARAMETERS[function]), args, kwargs)


def check_tensor_method(function: str, args: tuple, kwargs: dict) -> None:
    """``x.matmul(other)``, ``x.mm(mat2)``...: a tensor (positions counted after x)."""
    _check_tensors(function, (TENSOR_PARAMETERS[function],), args, kwargs)


def check_tensor_operands(function: str, a, b) -> None:
    """``torch.logical_and(input, other)``...: two tensors, the first checked first."""
    _check_tensors(function, ("input", "other"), (a, b), {})


def _check_tensors(function: str, names: tuple, args: tuple, kwargs: dict) -> None:
    for position, name in enumerate(names, start=1):
        by_position = len(args) >= position
        if not by_position and name not in kwargs:
            continue  # (missing: Python's own error follows)
        value = args[position - 1] if by_position else kwargs[name]
        if not is_tensor(value):
            where = f" (position {position})" if by_position else ""
            raise TypeError(f"{function}(): argument '{name}'{where} must be Tensor, "
                            f"not {type_name(value)}")


def _wrong_types(args: tuple, kwargs: dict) -> str:
    return f"some of the arguments have invalid types: {_got(args, kwargs, marked=True)}"


def is_int(value) -> bool:
    """An int as the parser takes it as a first element: not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_index(value) -> bool:
    """An int for a shape: an int, a NumPy int, or a one-element integer tensor."""
    if is_tensor(value):
        return value.numel() == 1 and not value.dtype.is_floating_point
    return is_int(value)


def _unpacked(function: str, name: str, values) -> tuple:
    """The ints of a shape; a later element may be a bool (as 0 or 1), as in PyTorch."""
    shape = []
    for position, value in enumerate(values, start=1):
        if not (is_index(value) or isinstance(value, (bool, np.bool_))):
            raise TypeError(f"{function}(): argument '{name}' failed to unpack the object at "
                            f"pos {position} with error \"type must be tuple of ints,but got "
                            f"{type_name(value)}\"")
        shape.append(int(value.item()) if is_tensor(value) else int(value))
    return tuple(shape)


def _starts_as_ints(value) -> bool:
    """The parser's check of a ``tuple of ints``: a tuple or list, empty or with an
    int first (the other elements are checked when unpacked)."""
    return isinstance(value, (tuple, list)) and (not value or is_index(value[0]))


def int_list(function: str, name: str, value, position: int | None) -> tuple:
    """A ``tuple of ints`` parameter given alone (by ``position``, or by keyword when
    None): the shape, or PyTorch's error."""
    where = "" if position is None else f" (position {position})"
    if _starts_as_ints(value):
        return _unpacked(function, name, value)
    if isinstance(value, (tuple, list)) and position is not None:
        raise TypeError(f"{function}(): argument '{name}'{where} must be tuple of ints, but "
                        f"found element of type {type_name(value[0])} at pos 0")
    raise TypeError(f"{function}(): argument '{name}'{where} must be tuple of ints, "
                    f"not {type_name(value)}")


def _unexpected(function: str, kwargs: dict, known: str) -> None:
    for key in kwargs:
        if key != known:
            raise TypeError(f"{function}() got an unexpected keyword argument '{key}'")


def shape_argument(args: tuple, kwargs: dict) -> tuple:
    """``x.reshape(*shape)``'s shape: ``x.reshape(2, 3)``, ``x.reshape((2, 3))`` or
    ``x.reshape(shape=(2, 3))`` (PyTorch's one overload, ``tuple of ints shape``)."""
    if args and "shape" in kwargs:
        raise TypeError("reshape() got multiple values for argument 'shape'")
    if not args:
        if "shape" not in kwargs:
            raise TypeError('reshape() missing 1 required positional arguments: "shape"')
        value = kwargs["shape"]
        if not _starts_as_ints(value):  # (by keyword: never the ints themselves)
            raise TypeError(f"reshape(): argument 'shape' must be tuple of ints, "
                            f"not {type_name(value)}")
    elif len(args) == 1:
        value = (args[0],) if is_index(args[0]) else args[0]
        if not _starts_as_ints(value):
            int_list("reshape", "shape", value, position=1)  # raises
    elif is_index(args[0]):
        value = args
    else:
        raise TypeError(f"reshape() takes 1 positional argument but {len(args)} were given")
    _unexpected("reshape", kwargs, "shape")
    return _unpacked("reshape", "shape", value)


def ints_by_keyword(function: str, name: str, ignored: tuple = ()):
    """A parser for a method written ``def m(self, *ints)`` that PyTorch also lets
    name its one ``tuple of ints`` argument: ``x.permute(dims=(1, 0))``,
    ``x.flip(dims=(1,))``, ``x.repeat(repeats=(2, 1))``, ``x.expand(size=(2, 3))``.
    Positional calls pass through as they came (the method checks them), none at all
    is PyTorch's "missing" error; the ``ignored`` keywords change nothing here
    (``expand``'s ``implicit``)."""
    def parse(args: tuple, kwargs: dict) -> tuple:
        if kwargs and ignored:
            kwargs = {key: value for key, value in kwargs.items() if key not in ignored}
        if not args and name not in kwargs:
            raise TypeError(f'{function}() missing 1 required positional arguments: "{name}"')
        if not kwargs:
            return args
        if args and name in kwargs:
            raise TypeError(f"{function}() got multiple values for argument '{name}'")
        _unexpected(function, kwargs, name)
        return (int_list(function, name, kwargs[name], position=None),)
    return parse


def view_argument(args: tuple, kwargs: dict):
    """``x.view(*size)``'s size (a tuple of ints), or ``(dtype,)`` for ``x.view(dtype)``:
    PyTorch's two overloads, ``(torch.dtype dtype)`` and ``(tuple of ints size)``."""
    def invalid(notes=None):
        return invalid_combination("Tensor.view", args, kwargs, notes)

    if kwargs:
        if args or len(kwargs) > 1:
            raise invalid()
        ((key, value),) = kwargs.items()
        if key == "size" and _starts_as_ints(value):
            return _unpacked("view", "size", value)
        if key == "dtype" and isinstance(value, dtypes.dtype):
            return (value,)
        wrong = f"some of the keywords were incorrect: {key}"
        raise invalid({0: _wrong_types(args, kwargs) if key == "dtype" else wrong,
                       1: _wrong_types(args, kwargs) if key == "size" else wrong})
    if len(args) == 1:
        value = args[0]
        if isinstance(value, dtypes.dtype):
            return (value,)
        if is_index(value):
            return (int(value.item()) if is_tensor(value) else int(value),)
        if _starts_as_ints(value):
            return _unpacked("view", "size", value)
        raise invalid({0: _wrong_types(args, kwargs), 1: _wrong_types(args, kwargs)})
    if args and is_index(args[0]):
        return _unpacked("view", "size", args)
    raise invalid()


# PyTorch's argument parser takes NumPy's names for four parameters, in every function
# and method it parses (not in those written in Python: ``torch.norm``, ``F.softmax``).
NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input",
               "x1": "input", "x2": "other"}


def takes_numpy_names(function):
    """``x.sum(axis=0, keepdims=True)`` is ``x.sum(dim=0, keepdim=True)``, as in PyTorch;
    given both names, PyTorch's parser calls the second one unexpected, and so does this.
    Only the aliases of the function's own parameters are taken."""
    names = inspect.signature(function).parameters
    aliases = {alias: name for alias, name in NUMPY_NAMES.items() if name in names}

    @functools.wraps(function)
    def renamed(*args, **kwargs):
        if not kwargs or aliases.keys().isdisjoint(kwargs):
            return function(*args, **kwargs)
        given = {}
        for alias in [key for key in kwargs if key in aliases]:
            name = aliases[alias]
            if name in kwargs:
                raise TypeError(f"{function.__name__}() got an unexpected keyword "
                                f"argument '{alias}'")
            kwargs[name] = kwargs.pop(alias)
            given[name] = alias
        try:
            return function(*args, **kwargs)
        except TypeError as error:  # (the parser's "got (...)" shows the names as given)
            text = str(error)
            if "invalid combination of arguments - got (" not in text:
                raise
            head, _, rest = text.partition(" - got (")
            got, _, tail = rest.partition("), but expected")
            for name, alias in given.items():
                got = re.sub(rf"\b{name}=", f"{alias}=", got)
            raise TypeError(f"{head} - got ({got}), but expected{tail}") from None
    return renamed


def checks_arguments(check):
    """Run ``check(name, args, kwargs)`` before the function: PyTorch's argument parser
    sees how each argument was given (by position or by keyword), and so must its errors.
    A call that does not bind gets the parser's error (``rules/parser.py``). The signature
    stays the function's own (``inspect.signature`` follows ``__wrapped__``)."""
    def decorate(function):
        answer = binding_errors(function.__name__, function)

        @functools.wraps(function)
        def checked(*args, **kwargs):
            check(function.__name__, args, kwargs)
            try:
                return function(*args, **kwargs)
            except TypeError as error:
                translated = answer and answer(error, checked.__code__, args, kwargs)
                if translated is None:
                    raise
                raise translated from None
        ANSWERING.add(checked.__code__)
        return checked
    return decorate



def parsed_by(parse):
    """A method whose arguments PyTorch's parser reads: ``parse(args, kwargs)`` gives
    the method's positional arguments (or raises PyTorch's error). The signature stays
    the method's own (``inspect.signature`` follows ``__wrapped__``)."""
    def decorate(method):
        @functools.wraps(method)
        def parsed(self, *args, **kwargs):
            return method(self, *parse(args, kwargs))
        ANSWERING.add(parsed.__code__)
        return parsed
    return decorate


def checks_method_arguments(check):
    """``checks_arguments`` for a method: ``check(name, args, kwargs)`` sees the
    arguments after ``self``, and may return them as (args, kwargs) in today's form."""
    def decorate(method):
        answer = binding_errors(f"Tensor.{method.__name__}", method, method=True)

        @functools.wraps(method)
        def checked(self, *args, **kwargs):
            given = check(method.__name__, args, kwargs)
            if given is not None:  # the check's reading of an older form of the call
                args, kwargs = given
            try:
                return method(self, *args, **kwargs)
            except TypeError as error:
                translated = answer and answer(error, checked.__code__, (self, *args), kwargs)
                if translated is None:
                    raise
                raise translated from None
        ANSWERING.add(checked.__code__)
        return checked
    return decorate


_BINARY_METHODS = {  # the keywords each takes, and what the parser lists when none fits
    "add": ("alpha",), "sub": ("alpha",), "mul": (), "div": ("rounding_mode",)}
OVERLOADS["Tensor.div"] = ("Tensor other", "Tensor other, *, str rounding_mode",
                           "Number other, *, str rounding_mode")


_deprecations_warned = []  # PyTorch warns of its deprecated overloads once a process, all told


def _deprecated_overload(function: str, old: str, new: str) -> None:
    """PyTorch's warning for a call in a deprecated overload (once: one flag for all)."""
    if not _deprecations_warned:
        _deprecations_warned.append(function)
        errors.warn(f"This overload of {function} is deprecated:\n\t{function}({old})\n"
                    f"Consider using one of the following signatures instead:\n"
                    f"\t{function}({new})", UserWarning, stacklevel=5)


def _deprecated_alpha_first(function: str, args: tuple, kwargs: dict):
    """``x.add(alpha, other)`` (``add_``, ``sub``, ``sub_``): PyTorch still takes the old
    order (number first), with a warning; returns the call in today's form, or None if it
    is not that call."""
    if function not in ("add", "sub", "add_", "sub_") or not args or not is_number(args[0]):
        return None
    rest = args[1:] + ((kwargs["other"],) if "other" in kwargs else ())
    if len(rest) != 1 or len(args) + len(kwargs) != 2 or not (
            is_tensor(rest[0]) or is_number(rest[0])):
        return None
    _deprecated_overload(function, "Number alpha, Tensor other", "Tensor other, *, Number "
                         "alpha = 1")
    return (rest[0],), {"alpha": args[0]}


def check_inplace_alpha(function: str, args: tuple, kwargs: dict):
    """``x.add_(alpha, other)``, ``x.sub_(alpha, other)`` (old optimizers, old tutorials:
    ``p.data.add_(-lr, p.grad.data)``) in today's form, with PyTorch's warning."""
    older = _deprecated_alpha_first(function, args, kwargs)
    if older is None and len(args) >= 3 and not kwargs:
        _three_for_alpha(function, args)
    if older is None and len(args) > 1:
        raise TypeError(f"{function}() takes 1 positional argument but {len(args)} were given")
    return older


def _three_for_alpha(function: str, args: tuple):
    """``x.add(a, b, c)``: PyTorch marks the arguments from the first that fits no overload
    (a tensor first fits its oldest one, add(Tensor input, Number alpha, Tensor other))."""
    start = 1 if len(args) == 3 and is_tensor(args[0]) else 0
    marked = [type_name(a) if i < start or len(args) > 3 else f"!{type_name(a)}!"
              for i, a in enumerate(args)]
    raise TypeError(f"{function}() received an invalid combination of arguments - got "
                    f"({', '.join(marked)}), but expected (Tensor other, *, Number alpha = 1)")


def _deprecated_value_first(function: str, args: tuple, kwargs: dict):
    """``x.addcmul_(value, tensor1, tensor2)`` (addcdiv too): the old order, in today's."""
    if len(args) != 3 or kwargs or not is_number(args[0]):
        return None
    _deprecated_overload(function, "Number value, Tensor tensor1, Tensor tensor2",
                         "Tensor tensor1, Tensor tensor2, *, Number value = 1")
    return args[1:], {"value": args[0]}


def check_binary_method(function: str, args: tuple, kwargs: dict):
    """``x.add(other, *, alpha=1)``, ``x.sub``, ``x.mul(other)``, ``x.div(other)``:
    PyTorch's errors for a missing, extra, unknown or wrongly typed argument (and
    ``x.add(alpha, other)``, the old order PyTorch still takes, in today's form)."""
    keywords = _BINARY_METHODS[function]
    expected = "(Tensor other, *, Number alpha = 1)"
    older = _deprecated_alpha_first(function, args, kwargs)
    if older is not None:
        return older
    if function in ("add", "sub") and len(args) >= 3 and not kwargs:
        _three_for_alpha(function, args)
    if not args and not kwargs and function != "mul":
        if function == "div":
            raise invalid_combination("Tensor.div", args, kwargs)
        raise TypeError(f"{function}() received an invalid combination of arguments - got (), "
                        f"but expected {expected}")
    if function in ("add", "sub") and args and (
            (len(args) > 1 and kwargs) or (len(kwargs) > 1 and set(kwargs) != {"alpha"})):
        # (add and sub have a second, deprecated overload, add(Number alpha, Tensor other),
        # so the parser reports keywords that fit neither this way)
        raise TypeError(f"{function}() received an invalid combination of arguments - got "
                        f"unrecognized keyword arguments: {', '.join(reversed(kwargs))}")
    if len(args) == 2 and function == "div":
        raise invalid_combination("Tensor.div", args, kwargs)
    if len(args) > 1:
        raise TypeError(f"{function}() takes 1 positional argument but {len(args)} were given")
    if args and "other" in kwargs:
        raise TypeError(f"{function}() got multiple values for argument 'other'")
    if not args and "other" not in kwargs:
        raise TypeError(f'{function}() missing 1 required positional arguments: "other"')
    other = args[0] if args else kwargs["other"]
    if not (is_tensor(other) or is_number(other)):
        where = " (position 1)" if args else ""
        raise TypeError(f"{function}(): argument 'other'{where} must be Tensor, "
                        f"not {type_name(other)}")
    unknown = [key for key in kwargs if key not in ("other", *keywords)]
    if unknown and function == "div":
        raise invalid_combination("Tensor.div", args, kwargs)
    if unknown:
        raise TypeError(f"{function}() got an unexpected keyword argument '{unknown[0]}'")
    if "alpha" in kwargs and not is_number(kwargs["alpha"]):
        raise TypeError(f"{function}(): argument 'alpha' must be Number, "
                        f"not {type_name(kwargs['alpha'])}")


OVERLOADS["Tensor.sum"] = OVERLOADS["Tensor.mean"] = (
    "*, torch.dtype dtype = None",
    "tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None")


def check_reduction_method(function: str, args: tuple, kwargs: dict) -> None:
    """``x.sum(dim=None, keepdim=False, *, dtype=None)`` and ``x.mean``: ``dim`` None, an
    int or a tuple/list of ints, ``keepdim`` a bool (with a ``dim``), ``dtype`` a dtype."""
    if not args and not kwargs:  # x.sum(): nothing to check (and the commonest call)
        return

    def invalid():
        return invalid_combination(f"Tensor.{function}", args, kwargs)

    if len(args) > 2:
        raise TypeError(f"{function}() takes from 1 to 2 positional arguments but {len(args)} "
                        f"were given")
    given = dict(zip(("dim", "keepdim"), args), **kwargs)
    dim, dtype = given.get("dim"), given.get("dtype")
    if isinstance(dim, (tuple, list)):
        if not _starts_as_ints(dim):
            raise invalid()
        _unpacked(function, "dim", dim)
    elif dim is not None and not is_index(dim):
        if "keepdim" in given:  # (only the overload with keepdim is left: its own error)
            where = " (position 1)" if args else ""
            raise TypeError(f"{function}(): argument 'dim'{where} must be tuple of ints, "
                            f"not {type_name(dim)}")
        raise invalid()
    if "keepdim" in given and "dim" not in given:
        raise invalid()
    keepdim = given.get("keepdim", False)
    if not isinstance(keepdim, bool):
        where = " (position 2)" if len(args) == 2 else ""
        raise TypeError(f"{function}(): argument 'keepdim'{where} must be bool, "
                        f"not {type_name(keepdim)}")
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        if "dim" not in given:
            raise invalid()
        raise TypeError(f"{function}(): argument 'dtype' must be torch.dtype, "
                        f"not {type_name(dtype)}")
    for key in kwargs:
        if key not in ("dim", "keepdim", "dtype"):
            raise TypeError(f"{function}() got an unexpected keyword argument '{key}'")


# ---- a C++ signature of plain parameters (unbind, chunk, split_with_sizes) -------------

REQUIRED = object()  # a parameter without a default


def parsed(function: str, params: tuple, args: tuple, kwargs: dict, first: int = 1) -> list:
    """``args``/``kwargs`` bound to ``params`` ((name, kind, default) with kind "int",
    "ints" (a tuple of ints) or "Tensor"), checked in PyTorch's parser's order: too
    many positional arguments; then each parameter in turn (missing, or of a wrong
    type); then keywords left over. ``first``: the position of the first parameter
    (2 for a method's first argument after ``self`` as ``torch.*`` counts it)."""
    required = sum(default is REQUIRED for _, _, default in params)
    if len(args) > len(params):
        raise TypeError(f"{function}() takes from {required} to {len(params)} positional "
                        f"arguments but {len(args)} were given")
    values = []
    for index, (name, kind, default) in enumerate(params):
        position = None
        if index < len(args):
            value, position = args[index], index + first
        elif name in kwargs:
            value = kwargs[name]
        elif default is REQUIRED:
            raise missing_arguments(function, [n for n, _, d in params[index:] if d is REQUIRED])
        else:
            values.append(default)
            continue
        values.append(_typed(function, name, kind, value, position))
    for key in kwargs:
        names = [name for name, _, _ in params]
        if key not in names:
            raise TypeError(f"{function}() got an unexpected keyword argument '{key}'")
        if names.index(key) < len(args):
            raise TypeError(f"{function}() got multiple values for argument '{key}'")
    return values


def _typed(function: str, name: str, kind: str, value, position):
    where = "" if position is None else f" (position {position})"
    if kind == "ints":
        return int_list(function, name, value, position)
    if kind == "Tensor":
        if is_tensor(value):
            return value
        raise TypeError(f"{function}(): argument '{name}'{where} must be Tensor, "
                        f"not {type_name(value)}")
    if is_index(value):
        return int(value.item()) if is_tensor(value) else int(value)
    raise TypeError(f"{function}(): argument '{name}'{where} must be int, not {type_name(value)}")


OVERLOADS["split"] = ("Tensor input, int split_size, int dim = 0",
                      "Tensor input, tuple of ints split_size, int dim = 0")


def split_arguments(tensor, split_size, dim) -> tuple:
    """``Tensor.split(split_size, dim)`` as PyTorch's (written in Python) reads it: a
    one-element tensor is taken as its int; an int goes to ``split``, anything else to
    ``split_with_sizes`` (with their parsers' errors). Returns (size or sizes, dim)."""
    if is_tensor(split_size):
        try:
            split_size = int(split_size)
        except ValueError:
            pass
    if isinstance(split_size, int):  # (Python's int: a bool too, which C++ then refuses)
        if isinstance(split_size, bool) or not is_index(dim):
            size, wrong = type_name(split_size), f"!{type_name(dim)}!"
            first = f"!{size}!" if isinstance(split_size, bool) else size
            raise invalid_combination("split", (tensor, split_size, dim), {}, {
                0: f"some of the arguments have invalid types: (Tensor, {first}, {wrong})",
                1: f"some of the arguments have invalid types: (Tensor, !{size}!, {wrong})"})
        return split_size, int(dim.item()) if is_tensor(dim) else int(dim)
    return tuple(parsed("split_with_sizes", (("split_sizes", "ints", REQUIRED),
                                             ("dim", "int", 0)), (split_size, dim), {}, first=2))


def unbind_arguments(args: tuple, kwargs: dict) -> list:
    """``x.unbind(dim=0)``."""
    return parsed("unbind", (("dim", "int", 0),), args, kwargs)


def chunk_arguments(args: tuple, kwargs: dict) -> list:
    """``x.chunk(chunks, dim=0)``."""
    return parsed("chunk", (("chunks", "int", REQUIRED), ("dim", "int", 0)), args, kwargs)


def unsafe_chunk_arguments(args: tuple, kwargs: dict) -> list:
    """``x.unsafe_chunk(chunks, dim=0)``."""
    return parsed("unsafe_chunk", (("chunks", "int", REQUIRED), ("dim", "int", 0)), args, kwargs)


def unsafe_split_arguments(args: tuple, kwargs: dict) -> list:
    """``x.unsafe_split(split_size, dim=0)`` (an int only, unlike ``split``)."""
    return parsed("unsafe_split", (("split_size", "int", REQUIRED), ("dim", "int", 0)),
                  args, kwargs)


def unsafe_split_with_sizes_arguments(args: tuple, kwargs: dict) -> list:
    """``x.unsafe_split_with_sizes(split_sizes, dim=0)``."""
    return parsed("unsafe_split_with_sizes",
                  (("split_sizes", "ints", REQUIRED), ("dim", "int", 0)), args, kwargs)


def split_with_sizes_arguments(args: tuple, kwargs: dict) -> list:
    """``x.split_with_sizes(split_sizes, dim=0)``."""
    return parsed("split_with_sizes", (("split_sizes", "ints", REQUIRED), ("dim", "int", 0)),
                  args, kwargs)


def check_split_function(function: str, args: tuple, kwargs: dict) -> None:
    """``torch.unbind(input, dim=0)``, ``torch.chunk(input, chunks, dim=0)``,
    ``torch.split_with_sizes(input, split_sizes, dim=0)``, and their ``unsafe_`` kin."""
    rest = {"unbind": (("dim", "int", 0),),
            "chunk": (("chunks", "int", REQUIRED), ("dim", "int", 0)),
            "split_with_sizes": (("split_sizes", "ints", REQUIRED), ("dim", "int", 0)),
            "unsafe_chunk": (("chunks", "int", REQUIRED), ("dim", "int", 0)),
            "unsafe_split": (("split_size", "int", REQUIRED), ("dim", "int", 0)),
            "unsafe_split_with_sizes": (("split_sizes", "ints", REQUIRED), ("dim", "int", 0))}
    parsed(function, (("input", "Tensor", REQUIRED),) + rest[function], args, kwargs)


# ---- tensor_split: three overloads ------------------------------------------------------

_TENSOR_SPLIT = (("indices", "ints"), ("tensor_indices_or_sections", "Tensor"),
                 ("sections", "int"))
OVERLOADS["tensor_split"] = tuple(f"Tensor input, {kind} {name}, int dim = 0" for name, kind in (
    ("indices", "tuple of ints"), ("tensor_indices_or_sections", "Tensor"), ("sections", "int")))
OVERLOADS["Tensor.tensor_split"] = tuple(o[len("Tensor input, "):]
                                         for o in OVERLOADS["tensor_split"])


def _fits(kind: str, value) -> bool:
    """Whether the parser takes ``value`` for a parameter of ``kind``."""
    if kind == "Tensor":
        return is_tensor(value)
    if kind == "ints":
        return _starts_as_ints(value)
    return is_index(value)


def _shown_fit(kind: str, value) -> bool:
    """Whether PyTorch's error text counts ``value`` as of ``kind`` (stricter than the
    parser: a tuple, of ints only; an int, not a tensor)."""
    if kind == "ints":
        return isinstance(value, tuple) and all(is_int(v) for v in value)
    return is_tensor(value) if kind == "Tensor" else is_int(value)


def _bound(params: tuple, args: tuple, kwargs: dict):
    """{name: value} if ``args``/``kwargs`` fit ``params`` ((name, kind) pairs, the last
    one ``dim`` with a default), else None."""
    if len(args) > len(params) or any(key not in dict(params) for key in kwargs):
        return None
    values = {}
    for index, (name, kind) in enumerate(params):
        if index < len(args):
            if name in kwargs:
                return None
            value = args[index]
        elif name in kwargs:
            value = kwargs[name]
        elif name == "dim":
            continue
        else:
            return None
        if not _fits(kind, value):
            return None
        values[name] = value
    return values


def tensor_split_arguments(args: tuple, kwargs: dict, method: bool) -> tuple:
    """``torch.tensor_split(input, indices_or_sections, dim=0)`` (or the method, without
    ``input``) read as PyTorch's parser reads its three overloads (``indices``, a tuple
    of ints; ``tensor_indices_or_sections``, a tensor; ``sections``, an int): returns
    (input or None, indices tuple / tensor / int, dim), or raises PyTorch's error."""
    first = () if method else (("input", "Tensor"),)
    for name, kind in _TENSOR_SPLIT:
        values = _bound(first + ((name, kind), ("dim", "int")), args, kwargs)
        if values is not None:
            value = values[name]
            if kind == "ints":
                value = _unpacked("tensor_split", name, value)
            elif kind == "int":
                value = int(value.item()) if is_tensor(value) else int(value)
            dim = values.get("dim", 0)
            return values.get("input"), value, int(dim.item()) if is_tensor(dim) else int(dim)
    label = "Tensor.tensor_split" if method else "tensor_split"
    notes = {}
    if len(args) + len(kwargs) == len(first) + 2:  # (PyTorch says why only then)
        for index, (name, kind) in enumerate(_TENSOR_SPLIT):
            params = dict(first + ((name, kind), ("dim", "int")))
            wrong = [key for key in kwargs if key not in params
                     or not _shown_fit(params[key], kwargs[key])]
            if wrong:
                notes[index] = "some of the keywords were incorrect: " + ", ".join(wrong)
                continue
            kinds = list(params.values())
            parts = [type_name(a) if _shown_fit(k, a) else f"!{described(a)}!"
                     for a, k in zip(args, kinds)]
            parts += [f"{key}={type_name(value)}" for key, value in reversed(kwargs.items())]
            notes[index] = f"some of the arguments have invalid types: ({', '.join(parts)})"
    raise invalid_combination(label, args, kwargs, notes)


def rounding_mode(mode):
    """``div``'s ``rounding_mode``: None, 'trunc' or 'floor' (PyTorch's error otherwise)."""
    if mode not in ("trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{mode}'")
    return mode


def normalize_dim(dim: int, ndim: int) -> int:
    """A dimension in [0, ndim); negative counts from the end. 0-dim tensors
    accept 0 and -1, as in PyTorch."""
    dim = int(dim)
    limit = max(ndim, 1)
    if not -limit <= dim < limit:
        raise errors.dim_out_of_range(dim, ndim)
    return dim % limit


def gradient_arguments(x, spacing, dim, edge_order) -> tuple[list, list]:
    """``torch.gradient``'s dims (wrapped) and one step (a number, or a 1-D tensor of
    coordinates) for each, after PyTorch's checks (pre_check_gradient's, in its order)."""
    if x.dtype is dtypes.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    dims = list(range(x.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    if spacing is None or is_number(spacing):
        steps = [1.0 if spacing is None else spacing] * len(dims)
    else:
        steps = list(spacing)
        if dim is None and len(steps) != x.ndim:
            raise RuntimeError(
                "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
                f"equal to 'self.dim() = {x.ndim}', since dim argument was not given, but got a "
                f"list of length {len(steps)}")
        if dim is not None and len(steps) != len(dims):
            raise RuntimeError(
                "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
                f"dim arguments to have the same length, but got a spacing argument of length "
                f"{len(steps)} and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dim is not None and not isinstance(dim, int):
        normalize_dims(dims, x.ndim)  # (its errors: out of range, a dim twice)
    dims = [normalize_dim(d, x.ndim) for d in dims]
    if any(x.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError("torch.gradient expected each dimension size to be at least "
                           "edge_order+1")
    for step in steps:
        if is_tensor(step) and step.ndim != 1:
            raise RuntimeError("torch.gradient expected each element of spacing to have one "
                               f"dimension, but got an element with {step.ndim} dimensions!")
    return dims, steps


def narrow_copy_range(shape: tuple, dim: int, start: int, length: int) -> tuple[int, int]:
    """narrow_copy's (dim, start), with PyTorch's checks and texts (narrow's, but for a
    dim past the end and a negative length, which its own kernel words otherwise)."""
    if not shape:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if dim >= len(shape):
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                           "but got false.  (Could this error message be improved?  If so, "
                           "please report an enhancement request to PyTorch.)")
    dim, start = normalize_dim(dim, len(shape)), int(start)
    size = shape[dim]
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start += size if start < 0 else 0
    if start + length > size or length < 0:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return dim, start


def normalize_dim_strict(dim: int, ndim: int) -> int:
    """``normalize_dim`` where PyTorch makes no exception for a 0-dim tensor (``size``,
    ``stride``, ``roll``): it has no dimension to name."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {int(dim)} but tensor has no dimensions")
    return normalize_dim(dim, ndim)


def checked_alpha(alpha, a, b):
    """``alpha`` of ``a + alpha * b`` (add, sub, rsub), checked as torch's alpha_check
    checks it against the result's dtype: a bool alpha only for a bool result (where any
    alpha counts as a bool), a float alpha never for an integer (or bool) result, and one
    that fits the result's dtype."""
    if is_tensor(alpha):  # (a one-element tensor is a number to torch's Scalar: LBFGS's steps)
        alpha = alpha.item()
    result = dtypes.result_type(a, b)
    if isinstance(alpha, (bool, np.bool_)) and result is not dtypes.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if not result.is_floating_point and isinstance(alpha, (float, np.floating)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a "
                           "floating point number.")
    return bool(alpha) if result is dtypes.bool else checked_fill_value(alpha, result)



def alpha_params(alpha, a, b) -> dict:
    """The keyword arguments ``add``, ``sub`` and ``rsub`` give their node for ``alpha``:
    none for 1, else ``{"alpha": alpha}`` checked as torch checks it (the shapes first)."""
    if type(alpha) is int and alpha == 1:
        return NO_PARAMS
    if is_tensor(a) and is_tensor(b):  # (torch checks the shapes before alpha)
        broadcast_shapes(a.shape, b.shape)
    alpha = checked_alpha(alpha, a, b)
    return NO_PARAMS if alpha == 1 else {"alpha": alpha}

# torch's texts for x.T, x.H, x.mT, x.mH and x.adjoint(): {attribute: (the dims it takes,
# the warning on a 0-dim tensor)}; a 1-dim tensor (and, for H, more than 2) is refused.
_TRANSPOSES = {
    "T": ("matrices", "Tensor.T is deprecated on 0-D tensors. This function is the identity "
                      "in these cases.", 4321),
    "H": ("matrices", "Tensor.H is deprecated on 0-D tensors. Consider using x.conj().", 4335),
    "mT": ("batches", "Tensor.mT is deprecated on 0-D tensors. This function is the identity "
                      "in these cases.", 4373),
    "mH": ("batches", "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().", 4382),
    "adjoint()": ("batches", "adjoint() is deprecated on 0-D tensors. Consider using "
                             "x.conj().", 4390),
}
_T_OTHER_DIMS = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
    "batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
    "dimensions of a tensor.")


def _shape_cpp(message: str, line: int) -> str:
    return (f"{message} (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
            f"TensorShape.cpp:{line}.)")


def check_transpose_attribute(attribute: str, ndim: int) -> None:
    """PyTorch's rules for ``x.T``, ``x.H``, ``x.mT``, ``x.mH``, ``x.adjoint()`` on a tensor
    of ``ndim`` dims: a warning (once) where it is deprecated, an error where refused."""
    takes, on_scalar, line = _TRANSPOSES[attribute]
    if ndim == 0:
        errors.warn_once(_shape_cpp(on_scalar, line), stacklevel=4)
    elif attribute == "T" and ndim != 2:
        errors.warn_once(_shape_cpp(_T_OTHER_DIMS, 4314), stacklevel=4)
    elif takes == "matrices" and ndim != 2:
        hint = " For batches of matrices, consider using tensor.mH" if ndim > 2 else ""
        raise RuntimeError(f"tensor.{attribute} is only supported on matrices (2-D tensors). "
                           f"Got {ndim}-D tensor.{hint}")
    elif takes == "batches" and ndim == 1:
        raise RuntimeError(f"tensor.{attribute} is only supported on matrices or batches of "
                           f"matrices. Got 1-D tensor.")


def normalize_dims(dim, ndim: int) -> tuple[int, ...]:
    """``dim`` (None, an int, or a sequence) as a sorted tuple of axes;
    None means every axis."""
    if isinstance(dim, (int, np.integer)) or is_tensor(dim):  # (a tensor: one integer)
        dim = (dim,)
    if dim is None or len(dim) == 0:  # PyTorch: an empty dim list means all of them
        return tuple(range(ndim))
    axes = tuple(sorted(normalize_dim(d, ndim) for d in dim))
    if len(set(axes)) != len(axes):
        raise RuntimeError(f"dim {axes[0]} appears multiple times in the list of dims")
    return tuple(a for a in axes if a < ndim)


def _is_bool(value) -> bool:
    if is_tensor(value):
        return value.dtype is dtypes.bool
    return isinstance(value, bool)  # (np.bool_: torch's parser reads it as a float)


def is_operand(value) -> bool:
    """A tensor or a number (else the operator gives NotImplemented: see _other_operand)."""
    return is_tensor(value) or python_number(value) is not None


def check_sub(a, b) -> None:
    """torch refuses - on bools (it would not be the logical operation people expect)."""
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead."
        )
    if (_is_bool(a) or _is_bool(b)) and is_operand(a) and is_operand(b):
        raise RuntimeError(_SUB_BOOL)


_SUB_BOOL = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def check_pow_base_gradient(exponent) -> None:
    """pow's gradient for its base takes ``exponent - 1`` (PyTorch's pow_backward_self),
    which a bool tensor exponent refuses, with subtraction's text, when backward runs."""
    if getattr(exponent, "dtype", None) in (np.dtype(np.bool_), dtypes.bool):
        raise RuntimeError(_SUB_BOOL)


def check_pow(dtype, exponent=None) -> None:
    check_python_int(exponent)
    if dtype is dtypes.bool:
        raise NotImplementedError('"pow" not implemented for \'Bool\'')
    if (dtype.is_integer and isinstance(exponent, (int, np.integer))
            and not isinstance(exponent, (bool, np.bool_)) and exponent < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if dtype.is_integer and isinstance(exponent, (int, np.integer)) and not isinstance(
            exponent, (bool, np.bool_)) and exponent > np.iinfo(dtype.numpy).max:
        raise RuntimeError(f"value cannot be converted to type {C_INTEGER_NAMES[dtype]} "
                           "without overflow")
    if (dtype is dtypes.float16 and isinstance(exponent, (int, float)) and
            math.isfinite(exponent) and abs(exponent) > 65504):
        raise RuntimeError("value cannot be converted to type c10::Half without overflow")



def check_triangle(function: str, x, diagonal, position: int | None = None) -> None:
    """tril's and triu's checks: an int ``diagonal`` (``position``: where it was given,
    None for a keyword) and at least two dims, with PyTorch's texts."""
    if not is_int(diagonal):
        where = "" if position is None else f" (position {position})"
        raise TypeError(f"{function}(): argument 'diagonal'{where} must be int, "
                        f"not {type(diagonal).__name__}")
    if x.ndim < 2:
        raise RuntimeError(f"{function}: input tensor must have at least 2 dimensions")


OVERLOADS["movedim"] = OVERLOADS["moveaxis"] = (
    "Tensor input, int source, int destination",
    "Tensor input, tuple of ints source, tuple of ints destination")
OVERLOADS["Tensor.movedim"] = OVERLOADS["Tensor.moveaxis"] = (
    "int source, int destination", "tuple of ints source, tuple of ints destination")


def _ints(value) -> bool:
    return isinstance(value, (tuple, list)) and all(is_int(v) for v in value)


def check_movedim_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``movedim(input, source, destination)`` (or the method's two, ``function``
    "Tensor.movedim"): both ints or both sequences of ints, else PyTorch's error marking
    what each overload could not take (a call short of them: the parser's rule)."""
    method = function.startswith("Tensor.")
    given = list(args) + list(kwargs.values())
    if len(given) != (2 if method else 3):
        return
    dims = given[-2:]
    if all(is_int(d) for d in dims) or all(_ints(d) for d in dims):
        return
    shown = [("Tensor" if is_tensor(a) else type_name(a)) for a in given]
    notes = {}
    for index, fits in enumerate((is_int, _ints)):
        marked = [s if k < len(given) - 2 or fits(given[k]) else f"!{s}!"
                  for k, s in enumerate(shown)]
        notes[index] = f"some of the arguments have invalid types: ({', '.join(marked)})"
    raise invalid_combination(function, args, kwargs, notes)


def check_movedim_method(function: str, args: tuple, kwargs: dict) -> None:
    check_movedim_arguments(f"Tensor.{function}", args, kwargs)


_ISIN_TAIL = "*, bool assume_unique = False, bool invert = False, Tensor out = None"
OVERLOADS["isin"] = (f"Tensor elements, Tensor test_elements, {_ISIN_TAIL}",
                     f"Number element, Tensor test_elements, {_ISIN_TAIL}",
                     f"Tensor elements, Number test_element, {_ISIN_TAIL}")


def check_isin_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``isin(elements, test_elements)``: tensors, or one of them a number."""
    given = list(args[:2]) + [kwargs[k] for k in ("elements", "test_elements") if k in kwargs]
    if len(given) == 2 and not (
            (is_tensor(given[0]) or is_number(given[0]))
            and (is_tensor(given[1]) or is_number(given[1]))
            and (is_tensor(given[0]) or is_tensor(given[1]))):
        raise invalid_combination(function, args, kwargs)


# The int and tuple-of-ints parameters of a few functions, in order, as PyTorch's parser
# checks them ("unflatten(): argument 'sizes' (position 3) must be tuple of ints, not int").
TYPED_PARAMETERS = {
    "unflatten": (("input", "Tensor"), ("dim", "int"), ("sizes", "tuple of ints")),
    "Tensor.unflatten": (("dim", "int"), ("sizes", "tuple of ints")),
    "broadcast_to": (("input", "Tensor"), ("size", "tuple of ints")),
    "Tensor.broadcast_to": (("size", "tuple of ints"),),
    "diff": (("input", "Tensor"), ("n", "int"), ("dim", "int")),
    "Tensor.diff": (("n", "int"), ("dim", "int")),
}
for _name in ("hsplit", "vsplit", "dsplit"):
    OVERLOADS[_name] = ("Tensor input, int sections", "Tensor input, tuple of ints indices")
    OVERLOADS[f"Tensor.{_name}"] = ("int sections", "tuple of ints indices")


def _typed_fits(kind: str, value) -> bool:
    if kind == "int":
        return is_int(value)
    if kind == "tuple of ints":
        return isinstance(value, (tuple, list)) and all(is_int(v) for v in value)
    return True


def check_typed_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """PyTorch's TypeError for an int or tuple-of-ints parameter given otherwise."""
    is_function = bool(args) and is_tensor(args[0])  # (a method's args come after self)
    params = TYPED_PARAMETERS[function if is_function else f"Tensor.{function}"]
    for position, (param, kind) in enumerate(params, start=1):
        by_position = position <= len(args)
        value = args[position - 1] if by_position else kwargs.get(param)
        if kind == "tuple of ints" and isinstance(value, (tuple, list)):
            _unpacked(function, param, value)  # ("failed to unpack the object at pos 2")
        elif (by_position or param in kwargs) and not _typed_fits(kind, value):
            where = f" (position {position})" if by_position else ""
            raise TypeError(f"{function}(): argument '{param}'{where} must be {kind}, "
                            f"not {type_name(value)}")


def check_split_sections(function: str, args: tuple, kwargs: dict) -> None:
    """hsplit/vsplit/dsplit (the methods: ``function`` "Tensor.hsplit"): an int or a
    sequence of ints, else PyTorch's error (a call short of them: the parser's rule)."""
    method = function.startswith("Tensor.")
    given = list(args) + list(kwargs.values())
    if len(given) != (1 if method else 2):
        return
    sections = given[-1]
    if not (is_int(sections) or _typed_fits("tuple of ints", sections)):
        marked = ", ".join(("Tensor" if is_tensor(g) and k < len(given) - 1 else
                            f"!{type_name(g)}!") for k, g in enumerate(given))
        reason = f"some of the arguments have invalid types: ({marked})"
        raise invalid_combination(function, args, kwargs, {0: reason, 1: reason})


def check_split_sections_method(function: str, args: tuple, kwargs: dict) -> None:
    check_split_sections(f"Tensor.{function}", args, kwargs)


def check_aminmax_dim(dim) -> None:
    """aminmax's ``dim``: None or one int (not a tuple, as amax takes)."""
    if dim is not None and not is_index(dim):
        raise TypeError(f"aminmax(): argument 'dim' must be int, not {type_name(dim)}")


def check_aminmax_method(function: str, args: tuple, kwargs: dict) -> None:
    """``x.aminmax(*, dim=None, keepdim=False)``: the parser counts no ``self``."""
    if args:
        raise TypeError(f"{function}() takes 0 positional arguments but {len(args)} "
                        f"{'was' if len(args) == 1 else 'were'} given")
    check_aminmax_dim(kwargs.get("dim"))


_QUANTILE_TAIL = 'int dim = None, bool keepdim = False, *, str interpolation = "linear"'
OVERLOADS.update({name: tuple(f"Tensor input, {kind} q, {_QUANTILE_TAIL}, Tensor out = None"
                              for kind in ("Tensor", "float"))
                  for name in ("quantile", "nanquantile")})
OVERLOADS.update({f"Tensor.{name}": tuple(f"{kind} q, {_QUANTILE_TAIL}" for kind in ("Tensor", "float"))
                  for name in ("quantile", "nanquantile")})


def check_quantile_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """``quantile(input, q, dim=None, keepdim=False, *, interpolation="linear")`` (and
    nanquantile; the methods without input): q a tensor or a number, dim None or an int,
    keepdim a bool, interpolation a str; else PyTorch's error naming both overloads."""
    method = function.startswith("Tensor.")
    names = ("q", "dim", "keepdim") if method else ("input", "q", "dim", "keepdim")
    given = dict(zip(names, args), **kwargs)
    q, dim = given.get("q"), given.get("dim")
    fits = (is_tensor(q) or is_number(q)) and (dim is None or is_index(dim)) and \
        isinstance(given.get("keepdim", False), (bool, np.bool_)) and \
        isinstance(given.get("interpolation", ""), str) and len(args) <= len(names)
    if not fits:
        raise invalid_combination(function, args, kwargs)


def check_quantile_method(function: str, args: tuple, kwargs: dict) -> None:
    check_quantile_arguments(f"Tensor.{function}", args, kwargs)


def check_nanmedian_dim(function: str, args: tuple, kwargs: dict) -> None:
    """``nanmedian(input, dim)`` (the method without input): dim an int, not None, with
    its position when it was given by position."""
    position = 0 if function.startswith("Tensor.") else 1
    name = function.removeprefix("Tensor.")
    if len(args) > position and args[position] is None:
        raise TypeError(f"{name}(): argument 'dim' (position {position + 1}) must be int, "
                        "not NoneType")
    if "dim" in kwargs and kwargs["dim"] is None:
        raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")


def check_nanmedian_method(function: str, args: tuple, kwargs: dict) -> None:
    check_nanmedian_dim(f"Tensor.{function}", args, kwargs)


def refuse_meta(op: str, *tensors) -> None:
    """An op whose result's shape depends on the values (``nonzero``, ``unique``,
    ``masked_select``, a boolean mask's indexing) cannot run on meta tensors, which have
    no values: PyTorch's error (its ``aten::`` name, or nonzero's own text)."""
    if any(is_tensor(x) and x.is_meta for x in tensors):
        raise NotImplementedError(errors.META_NONZERO if op == "nonzero"
                                  else errors.META_NO_KERNEL.format(op))


def refuse_empty_slices(x, dim) -> int:
    """``dim`` of ``unique``/``unique_consecutive`` as a NumPy axis; torch's error when
    ``x`` is empty but not along ``dim`` (its slices would have no elements); a 0-dim
    ``x`` has no dim to take."""
    if x.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    axis = normalize_dim(dim, x.ndim)
    if x._data.size == 0 and x.shape[axis] != 0:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    return axis


# ---- a tensor in a C++ message -----------------------------------------------------

def cpp_tensor_text(array: np.ndarray, type_name: str, linesize: int = 80) -> str:
    """A tensor as PyTorch's C++ ``operator<<`` prints it into an error message (ATen's
    Formatting.cpp): the values in double, one width for all (whole numbers as %g, else
    4 decimals, scaled by a power of ten or in scientific notation), a matrix's columns
    split into blocks of the line size, then ``[ torch.FloatTensor{2,2} ]``."""
    values = np.asarray(array, dtype=np.float64)
    sizes = ",".join(str(n) for n in values.shape)
    body = ""
    if values.ndim == 0:
        return f"{float(values):g}\n[ {type_name}{{}} ]"
    if values.size and values.ndim == 1:
        scale, width, shown = _cpp_print_format(values)
        body = (f"{scale:g} *\n" if scale != 1 else "") + \
            "".join(shown(v / scale).rjust(width) + "\n" for v in values)
    elif values.size and values.ndim == 2:
        body = _cpp_matrix(values, linesize, 0)
    elif values.size:
        blocks = []
        for index in np.ndindex(*reversed(values.shape[:-2])):  # (the first dim fastest)
            index = tuple(reversed(index))
            blocks.append("(" + "".join(f"{i + 1}," for i in index) + ".,.) = \n" +
                          _cpp_matrix(values[index], linesize, 1))
        body = "\n".join(blocks)
    return f"{body}[ {type_name}{{{sizes}}} ]"


def _cpp_print_format(values: np.ndarray):
    """(scale, width, how a value shows), as Formatting.cpp's __printFormat decides them."""
    flat = values.reshape(-1)
    finite = flat[np.isfinite(flat)]
    whole = bool(np.all(finite == np.ceil(finite)))
    low = high = 1.0
    if finite.size:
        first = abs(float(finite[0]))
        low = min(first, float(np.min(np.abs(finite))))
        high = first
        for z in finite[1:]:  # (its test compares the signed value, then keeps |z|)
            if z > high:
                high = abs(float(z))
        low = math.floor(math.log10(low)) + 1 if low != 0 else 1
        high = math.floor(math.log10(high)) + 1 if high != 0 else 1
    if whole:
        if high > 9:
            return 1.0, 11, "{:.4e}".format
        return 1.0, int(high) + 1, "{:g}".format
    if high - low > 4:
        return 1.0, 12 if abs(high) > 99 or abs(low) > 99 else 11, "{:.4e}".format
    if high > 5 or high < 0:
        return 10.0 ** (high - 1), 7, "{:.4f}".format
    return 1.0, 7 if high == 0 else int(high) + 6, "{:.4f}".format


def _cpp_matrix(values: np.ndarray, linesize: int, indent: int) -> str:
    """Formatting.cpp's __printMatrix: blocks of columns that fit the line, each row's
    values right-aligned to one width (indented after the first row, as PyTorch prints)."""
    scale, width, shown = _cpp_print_format(values)
    pad = " " * indent
    per_line = (linesize - indent) // (width + 1)
    rows, columns = values.shape
    out, first = [], 0
    while first < columns:
        last = min(first + per_line, columns) - 1
        if per_line < columns:
            out.append(("\n" if first else "") + f"Columns {first + 1} to {last + 1}" + pad)
        if scale != 1:
            out.append(f"{scale:g} *\n" + pad)
        for row in range(rows):
            out.append(" ".join(shown(v / scale).rjust(width) for v in values[row, first:last + 1])
                       + "\n")
            if row != rows - 1:
                out.append(pad + " " if scale != 1 else pad)
        first = last + 1
    return "".join(out)
