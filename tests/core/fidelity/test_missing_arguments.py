"""Calls with arguments missing, against PyTorch 2.13 at test time: every ``torch.*``
function, ``Tensor`` method and ``nn.functional`` function minigrad has, called with no
argument and with all its required arguments but the last. PyTorch's argument parser
answers "add() received an invalid combination of arguments - got (), ..." or
"gather() missing 1 required positional arguments: "index"" (its rule:
``minigrad/rules/parser.py``), or, for a function written in Python, Python's own text."""

from __future__ import annotations

import inspect
import warnings

import pytest
import torch

import minigrad
from minigrad.rules import parser, parser_overloads
from parser_overloads import NAMESPACES, labels, read_from_torch

# Argument values by parameter name, for the arguments given before the one left out.
VALUES = {"dim": 0, "dim0": 0, "dim1": 1, "dims": (0,), "source": 0, "destination": 1,
          "size": (2, 2), "shape": (4,), "chunks": 2, "sections": 2, "split_size": 1,
          "split_sizes": (1, 1), "n": 1, "k": 1, "q": 0.5, "repeats": 2, "p": 0.5,
          "dtype": "float32", "value": 1.0, "fill_value": 1.0, "to": 2,
          "mask": "mask", "index": "index", "tensors": "tensors", "start": 0, "end": 3,
          "row": 2, "col": 2, "low": 0, "high": 2, "stride": (2, 1), "kernel_size": 2,
          "offset": 0, "diagonal": 0, "exponent": 2.0, "correction": 1, "axis0": 0,
          "axis1": 1, "dimension": 0, "step": 1, "training": True, "use_input_stats": True,
          "momentum": 0.1, "eps": 1e-5, "log_input": True, "full": False, "reverse": False,
          "interpolation_mode": 0, "padding_mode": 0, "threshold": 1.0, "from_": "float32",
          "type1": "float32", "indices": "indices", "hidden_size": 2, "num_layers": 1,
          "batch_first": False, "bidirectional": False, "batch_sizes": None,
          "has_biases": True}
# The same name, another kind: {label: {name: value}}.
OVERRIDES = {"Tensor.unfold": {"size": 2}, "index_reduce": {"source": "tensor"},
             "Tensor.index_reduce": {"source": "tensor"}, "Tensor.index_reduce_": {"source": "tensor"}}

# Where minigrad's answer is not yet PyTorch's: {call: the reason}.
KNOWN = {
    "lu()": "minigrad's torch.lu is one Python function, PyTorch's two behind boolean_dispatch "
            "(its error names _lu_no_infos)",
    "mkldnn_rnn_layer(one short)": "PyTorch checks the types of the arguments given before "
                                   "naming the missing one; minigrad knows no types for a "
                                   "function of one signature (here batch_sizes=None)",
    "randint()": "minigrad's randint(low=0, ...) takes no argument as randint(0): its own error",
    "set_anomaly_enabled()": "minigrad's parameter is enabled_ (the module's flag is enabled)",
}


def _value(lib, label, name):
    value = OVERRIDES.get(label, {}).get(name, VALUES.get(name, "tensor"))
    if value == "float32":
        return lib.float32
    if value == "mask":
        return lib.ones(2, 2) > 0
    if value == "index":
        return lib.zeros(2, 2, dtype=lib.long)
    if value == "indices":
        return (lib.zeros(2, dtype=lib.long),)
    if value == "tensors":
        return [lib.ones(2, 2), lib.ones(2, 2)]
    return lib.ones(2, 2) if value == "tensor" else value


def _required(prefix: str, name: str) -> list:
    """The names of the required parameters of minigrad's function (a method's tensor
    left out)."""
    function = getattr(NAMESPACES[prefix][0], name)
    return [p.name for p in parser.python_params(function, prefix == "Tensor.") if p.required]


def _outcome(lib, prefix: str, name: str, short: bool) -> str:
    """(type, text) of the call: no argument, or all required ones but the last."""
    given = _required(prefix, name)[:-1] if short else []
    target = getattr(lib.ones(2, 2), name) if prefix == "Tensor." else \
        getattr({"": lib, "F.": lib.nn.functional}[prefix], name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target(*(_value(lib, prefix + name, g) for g in given))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return f"{type(error).__name__}: {error}"
    return "no error"


SKIPPED = {"compile", "vmap", "load", "save", "seed", "get_rng_state", "initial_seed"}
CALLS = [(prefix, name, short) for prefix, name in labels() if name not in SKIPPED
         for short in (False, True)
         if not short or len(_required(prefix, name)) >= 2]


def _id(call):
    prefix, name, short = call
    return f"{prefix}{name}({'one short' if short else ''})"


@pytest.mark.parametrize("call", [pytest.param(c, marks=pytest.mark.xfail(
    strict=True, reason=KNOWN[_id(c)])) if _id(c) in KNOWN else c for c in CALLS], ids=_id)
def test_a_call_missing_arguments_gets_torchs_error(call):
    prefix, name, short = call
    theirs, ours = _outcome(torch, prefix, name, short), _outcome(minigrad, prefix, name, short)
    if theirs.startswith("TypeError"):
        assert ours == theirs
    else:  # (PyTorch takes the call, or refuses it for its values: so must minigrad, never
        # for its arguments; an error of the same class)
        assert not ours.startswith("TypeError"), f"PyTorch: {theirs}"
        assert ours.split(":")[0] == theirs.split(":")[0], f"PyTorch: {theirs}"


def test_the_parser_table_is_torchs():
    """minigrad/rules/parser_overloads.py is what PyTorch says (rerun
    tools/write_parser_overloads.py after adding a function)."""
    python, several, one_argument, renamed = read_from_torch()
    assert parser_overloads.WRITTEN_IN_PYTHON == python
    assert parser_overloads.SEVERAL_SIGNATURES == several
    assert parser_overloads.ONE_ARGUMENT == one_argument
    assert parser_overloads.RENAMED == renamed


@pytest.mark.parametrize("call", [
    "x.masked_fill(x, foo=1)", "torch.masked_fill(x, mask=x, foo=1)", "x.masked_fill(x, 1, 2)",
    "x.index_select(0, dim=1)", "x.index_select(foo=1)", "torch.transpose(x, 0, 1, 2)",
    "torch.softmax(x, 0, None, 4)", "x.gather(0, x, 1, 2)", "torch.chunk(chunks=2)",
    "torch.transpose(x, dim1=0)", "x.masked_fill(mask=x)", "torch.add(x)", "x.add()",
    "x.view()", "torch.randn()", "torch.ones()", "torch.reshape()", "F.linear(x)",
    "torch.index_select(x, index=x)", "x.transpose(0, 1, 2)",
    "torch.result_type(torch.float32, 1)", "torch.result_type(x, 'a')"])
def test_calls_that_do_not_bind(call):
    """Too many positional arguments, keywords unknown or given twice, as PyTorch's parser
    answers them."""
    def run(lib):
        x = lib.ones(2, 2)
        try:
            eval(call, {"torch": lib, "F": lib.nn.functional, "x": x})  # noqa: S307
        except TypeError as error:
            return str(error)
        return "no error"
    assert run(minigrad) == run(torch)


def test_an_error_inside_a_function_is_not_translated():
    """A TypeError from inside the function (not from binding its call) is its own."""
    def inner(a, b):
        return a + b

    def outer(x, y):
        return inner(x)

    wrapped = parser.parsed_as_pytorch("outer", outer)
    with pytest.raises(TypeError, match="inner\\(\\) missing 1 required positional argument: 'b'"):
        wrapped(1, 2)
    with pytest.raises(TypeError, match='outer\\(\\) missing 1 required positional arguments: "y"'):
        wrapped(1)
    assert inspect.signature(wrapped) == inspect.signature(outer)
