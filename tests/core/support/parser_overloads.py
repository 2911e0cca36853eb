"""What PyTorch's argument parser knows of minigrad's names, read from PyTorch itself.

For each ``torch.*`` function, ``Tensor`` method and ``nn.functional`` function that
minigrad has: whether PyTorch writes it in Python (then Python's own binding errors are
PyTorch's), and, for those its C++ argument parser reads, whether it has several
signatures (counting the hidden, deprecated ones) and which ones it lists. A call of
twenty objects fits no signature: a function of one signature then raises that
signature's own error, one of several "received an invalid combination of arguments",
listing the signatures it shows. ``minigrad/rules/parser_overloads.py`` holds the
answer (``tools/write_parser_overloads.py`` writes it); ``test_missing_arguments.py``
checks it against PyTorch.
"""

from __future__ import annotations

import inspect
import re
import types
import warnings

import minigrad
import torch

NAMESPACES = {"": (minigrad, torch), "Tensor.": (minigrad.Tensor, torch.Tensor),
              "F.": (minigrad.nn.functional, torch.nn.functional)}


def labels():
    """("", name), ("Tensor.", name), ("F.", name) for each of minigrad's public callables
    that PyTorch has too."""
    for name in sorted(dir(minigrad)):
        value = getattr(minigrad, name)
        if (not name.startswith("_") and callable(value) and hasattr(torch, name)
                and not isinstance(value, (type, types.ModuleType))):
            yield "", name
    for name, value in sorted(vars(minigrad.Tensor).items()):
        if (not name.startswith("_") and callable(value) and not isinstance(value, property)
                and hasattr(torch.Tensor, name)):
            yield "Tensor.", name
    for name in sorted(minigrad.nn.functional.__all__):
        if hasattr(torch.nn.functional, name):
            yield "F.", name


def _written_in_python(value) -> bool:
    return not isinstance(value, (types.BuiltinFunctionType, types.MethodDescriptorType,
                                  types.WrapperDescriptorType))


def _answer(prefix: str, name: str, count: int = 20) -> str:
    """PyTorch's error for a call of ``count`` objects."""
    target = getattr(torch.ones(2), name) if prefix == "Tensor." \
        else getattr(NAMESPACES[prefix][1], name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target(*(object(),) * count)
    except Exception as error:  # noqa: BLE001 - only the parser's text matters
        return str(error)
    return ""


def read_from_torch() -> tuple[frozenset, dict, frozenset, dict]:
    """(the labels PyTorch writes in Python, {label: the signatures listed} for those its
    parser reads with several signatures, the labels of C functions of exactly one
    argument that the parser does not read, {label: the name in their errors} where it is
    not the label's own)."""
    python, several, one_argument, renamed = set(), {}, set(), {}
    for prefix, name in labels():
        theirs = getattr(NAMESPACES[prefix][1], name)
        text = _answer(prefix, name)
        if inspect.isclass(theirs) or _written_in_python(theirs):
            python.add(prefix + name)
            text = _answer(prefix, name, 0)  # (no argument: boolean_dispatch's _max_pool2d)
            said = text.partition("(")[0]
            if "positional argument" in text and said not in (name, f"Tensor.{name}"):
                renamed[prefix + name] = said
            continue
        said = text.partition("(")[0]
        if said not in ("", name) and re.match(r"^[\w.]+$", said) \
                and "takes no arguments" not in text:  # (a method of none: Python's own)
            renamed[prefix + name] = said
        if text.endswith("() takes exactly one argument (20 given)"):
            one_argument.add(prefix + name)
        elif "received an invalid combination of arguments" in text:
            tail = text.split(", but expected ", 1)[1]
            several[prefix + name] = tuple(re.findall(r"^ \* \((.*)\)$", tail, re.M)) \
                or (tail.strip()[1:-1],)
    return frozenset(python), several, frozenset(one_argument), renamed
