"""PyTorch's signatures, read from PyTorch itself: ``inspect.signature`` where it works
(functions written in Python); otherwise the schemas of the ATen operator behind the
function (``aten::add(Tensor self, Tensor other, *, Scalar alpha=1)``, where ``self`` is
called ``input`` in ``torch.*``), the signature lines of its docstring and, for functions
with several overloads, the list PyTorch's argument parser prints when a call matches
none of them ("received an invalid combination of arguments ... expected one of").

A signature is a list of (name, kind) with kind "positional", "keyword" (keyword-only)
or "varargs" (``*size``).
"""

from __future__ import annotations

import inspect
import re

POSITIONAL, KEYWORD, VARARGS = "positional", "keyword", "varargs"
_KINDS = {"POSITIONAL_ONLY": POSITIONAL, "POSITIONAL_OR_KEYWORD": POSITIONAL,
          "KEYWORD_ONLY": KEYWORD, "VAR_POSITIONAL": VARARGS, "VAR_KEYWORD": "kwargs"}
_IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")


def python_signature(function) -> list[tuple[str, str]]:
    """The parameters of a function written in Python (``self`` left out)."""
    return [(p.name, _KINDS[p.kind.name]) for p in inspect.signature(function).parameters.values()
            if p.name != "self"]


def _split(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [p.strip() for p in parts + [current] if p.strip()]


def _parse(text: str, typed: bool) -> list[tuple[str, str]] | None:
    """``input, other, *, alpha=1`` (a docstring) or ``Tensor input, *, Number alpha = 1``
    (the argument parser, ``typed``) as a signature; None if it is not one."""
    params, keyword_only = [], False
    for part in _split(text.replace("\\*", "*")):
        if part == "*":
            keyword_only = True
            continue
        name = part.split("=")[0].split(":")[0].strip()  # "dtype: Optional[dtype] = None"
        if typed:
            name = name.split()[-1] if name else name
        kind = KEYWORD if keyword_only else POSITIONAL
        if name.startswith("*"):
            name, kind, keyword_only = name.lstrip("*"), VARARGS, True
        if not _IDENTIFIER.match(name):
            return None
        if name != "self":
            params.append((name, kind))
    return params


def _docstring_signatures(function, name: str) -> list:
    pattern = re.compile(rf"^\s*(?:\.\. function:: )?{re.escape(name)}\((.*?)\)\s*(?:->.*)?$")
    found = []
    for line in (getattr(function, "__doc__", None) or "").splitlines():
        match = pattern.match(line)
        if match:
            parsed = _parse(match.group(1), typed=False)
            if parsed is not None:
                found.append(parsed)
    return found


def _parser_signatures(function) -> list:
    """Provoke PyTorch's "invalid combination of arguments" error, which lists every overload."""
    found = []
    for args in ((), (object(),), (object(), object())):
        try:
            function(*args, __probe__=1)
        except TypeError as error:
            message = str(error)
            if "expected one of:" in message:
                for line in message.splitlines():
                    match = re.match(r"^ \* \((.*)\)$", line)
                    if match:
                        parsed = _parse(match.group(1), typed=True)
                        if parsed is not None:
                            found.append(parsed)
                return found
        except Exception:  # noqa: BLE001 - any other failure just means no list
            pass
    return found


# Operators whose first Tensor argument is not called ``self`` (their Python functions
# name it the same way): aten::scaled_dot_product_attention(Tensor query, ...).
_FIRST_TENSOR_NAMES = ("query", "input", "weight", "anchor", "input1", "count")
# Factories whose schema has no tensor argument at all.
_FACTORIES = ("scalar_tensor",)


def _schema_signatures(name: str, method: bool) -> list:
    import torch

    found = []
    for schema in torch._C._jit_get_schemas_for_operator(f"aten::{name}"):
        if not any(str(argument.type) == "Tensor" and (
                argument.name == "self" or (k == 0 and argument.name in _FIRST_TENSOR_NAMES))
                for k, argument in enumerate(schema.arguments)) and name not in _FACTORIES:
            continue  # TorchScript's operators on numbers and lists: add(int a, int b)
        params = []
        for argument in schema.arguments:
            kind = KEYWORD if argument.kwarg_only else POSITIONAL
            if argument.alias_info is not None and argument.alias_info.is_write:
                if argument.name == "self" and not method:
                    params.append(("input", kind))  # an in-place function: torch.exp_(input)
                elif not (method or argument.name == "self"):
                    params.append(("out", KEYWORD))  # what Python calls the output arguments
                continue  # (in-place or out variants: the method has no out=)
            elif argument.name == "self":
                if not method:
                    params.append(("input", kind))
            else:
                params.append((argument.name, kind))
        if params not in found:
            found.append(params)
    return found


def torch_signatures(function, name: str, method: bool = False) -> tuple[list, list]:
    """(accepted, documented): the signatures PyTorch accepts for ``function`` (a
    ``torch.*`` function, or with ``method`` a ``torch.Tensor`` method), and those its
    docstring shows. The operator schemas lack the arguments Python adds
    (``requires_grad=``); a docstring can be stale (``Tensor.div(value)`` for
    ``div(other)``). Where neither schema nor parser answers, the docstring is taken."""
    try:
        return [python_signature(function)], []
    except (ValueError, TypeError):
        pass
    accepted = _schema_signatures(name, method) + _parser_signatures(function)
    documented = _docstring_signatures(function, name)
    return (accepted or documented), documented


def differences(mine: list, accepted: list, documented: list, may_omit: set) -> list[str]:
    """What keeps ``mine`` from being one of PyTorch's signatures (empty if nothing):

    * every parameter name of mine is one of PyTorch's (accepted or documented);
    * mine's positional parameters, in order, begin one of PyTorch's overloads;
    * a parameter PyTorch takes by keyword only is keyword-only in mine too;
    * PyTorch's accepted parameters that mine lacks are all in ``may_omit``.
    """
    problems = []
    overloads = accepted + documented
    names = {name for overload in overloads for name, _ in overload}
    for name, _ in mine:
        if name not in names:
            problems.append(f"parameter {name!r} is not PyTorch's (PyTorch: {sorted(names)})")
    positional = [name for name, kind in mine if kind in (POSITIONAL, VARARGS)]
    starts = [[name for name, kind in overload if kind in (POSITIONAL, VARARGS)][:len(positional)]
              for overload in overloads]
    if positional not in starts:
        problems.append(f"positional parameters {positional} begin none of PyTorch's {starts}")
    keyword_only = {name for overload in overloads for name, kind in overload if kind == KEYWORD}
    positional_somewhere = {name for overload in overloads for name, kind in overload
                            if kind in (POSITIONAL, VARARGS)}
    for name, kind in mine:
        if kind == POSITIONAL and name in keyword_only and name not in positional_somewhere:
            problems.append(f"{name!r} is keyword-only in PyTorch")
    missing = ({name for overload in accepted for name, _ in overload}
               - {name for name, _ in mine} - may_omit)
    if missing:
        problems.append(f"PyTorch's {sorted(missing)} missing")
    return problems
