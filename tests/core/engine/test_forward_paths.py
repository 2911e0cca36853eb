"""The quick forward paths give what the general path gives, and what PyTorch gives.

``_binary`` takes a short way for two tensors of one dtype (no conversion:
``cast_to=None``) and for a float tensor with a Python int or float (the tensor's
dtype, no promotion walk); ``_unary`` skips the conversion for float inputs; and
``Node.apply`` makes saved inputs into SavedTensors while forward runs. Each case
here is run both ways (the operator, and ``Node.apply`` with the promoted dtype
spelled out, the general path) and compared with torch: values, dtype, node name,
the saved values by name, and gradients.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad import dtypes
from minigrad.ops import arithmetic, pointwise

DTYPES = ["float32", "float64", "float16", "int64", "int32", "bool"]
BINARY = {  # operator, node class, float_only
    "add": (lambda a, b: a + b, arithmetic.AddBackward0, False),
    "sub": (lambda a, b: a - b, arithmetic.SubBackward0, False),
    "mul": (lambda a, b: a * b, arithmetic.MulBackward0, False),
    "div": (lambda a, b: a / b, arithmetic.DivBackward0, True),
}


def _values(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    values = rng.uniform(0.5, 2.0, shape) * rng.choice([-1, 1], shape)
    return values.astype(dtype) if dtype.startswith("float") else \
        rng.integers(1, 5, shape).astype(dtype)


def _pair(array, requires_grad):
    grad = requires_grad and array.dtype.kind == "f"
    return (mg.tensor(array, requires_grad=grad), torch.tensor(array, requires_grad=grad))


def _saved(node) -> dict:
    """The saved values a learner can read, by name (tensors as arrays)."""
    if node is None:
        return {}
    out = {}
    for attr in dir(node):
        if attr.startswith("_saved_") and not attr.endswith("_sym_sizes") \
                and not attr.endswith("_sym_strides"):
            value = getattr(node, attr)
            if isinstance(value, (mg.Tensor, torch.Tensor)):
                value = (str(value.dtype).replace("minigrad.", "torch."),
                         value.detach().numpy().tolist())
            out[attr] = value
    return out


def _same(mine, theirs, also=None) -> None:
    assert mine.dtype == getattr(mg, str(theirs.dtype).split(".")[1])
    np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
    assert (mine.grad_fn is None) == (theirs.grad_fn is None)
    if mine.grad_fn is not None:
        assert mine.grad_fn.name() == theirs.grad_fn.name()
        assert _saved(mine.grad_fn) == _saved(theirs.grad_fn)
    if also is not None:  # the general path: the same result, node and saved values
        assert also.dtype == mine.dtype and also.shape == mine.shape
        np.testing.assert_array_equal(also.detach().numpy(), mine.detach().numpy())
        assert type(also.grad_fn) is type(mine.grad_fn)
        assert _saved(also.grad_fn) == _saved(mine.grad_fn)


PAIRS = [(d, d) for d in DTYPES] + [("float32", "float64"), ("int64", "float32"),
                                      ("float16", "int32"), ("bool", "float32")]
# (- on bools is an error, compared with torch in test_ops_vs_torch)
OPS_AND_PAIRS = [(op, a, b) for op in BINARY for a, b in PAIRS
                 if not (op == "sub" and "bool" in (a, b))]


@pytest.mark.parametrize("op, a_dtype, b_dtype", OPS_AND_PAIRS)
@pytest.mark.parametrize("requires_grad", [(True, True), (True, False), (False, False)])
@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((), (2, 3))])
def test_two_tensors_quick_path_is_the_general_path_and_torch(op, a_dtype, b_dtype,
                                                               requires_grad, shapes):
    fn, node_cls, float_only = BINARY[op]
    (a, ta), (b, tb) = (_pair(_values(a_dtype, shapes[0], 1), requires_grad[0]),
                        _pair(_values(b_dtype, shapes[1], 2), requires_grad[1]))
    mine, theirs = fn(a, b), fn(ta, tb)
    dtype = dtypes.result_type(a, b)
    general = node_cls.apply(a, b, cast_to=pointwise.float_dtype_for(dtype) if float_only
                             else dtype)
    _same(mine, theirs, also=general)
    if mine.grad_fn is not None:
        grad = np.random.default_rng(3).standard_normal(mine.shape).astype(mine.detach().numpy().dtype)
        mine.backward(mg.tensor(grad))
        theirs.backward(torch.tensor(grad))
        for x, tx in ((a, ta), (b, tb)):
            if tx.grad is None:
                assert x.grad is None
            else:
                np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-3, atol=1e-3)


NUMBERS = [2, 0.5, -0.0, True]
# (- on bools is an error; number / tensor is reciprocal(x) * number: test_ops_vs_torch)
NUMBER_CASES = [(op, dtype, number, first) for op in BINARY for dtype in DTYPES
                for number in NUMBERS for first in (False, True)
                if not (op == "sub" and (dtype == "bool" or number is True))
                and not (op == "div" and first)]


@pytest.mark.parametrize("op, dtype, number, number_first", NUMBER_CASES)
def test_tensor_and_number_match_torch(op, dtype, number, number_first):
    """float tensor op int/float: the quick dtype; everything else: the promotion walk."""
    fn, _, _ = BINARY[op]
    x, tx = _pair(_values(dtype, (2, 3), 4), True)
    mine = fn(number, x) if number_first else fn(x, number)
    theirs = fn(number, tx) if number_first else fn(tx, number)
    _same(mine, theirs)


@pytest.mark.parametrize("name", ["exp", "tanh", "sigmoid", "log", "sqrt", "sin", "cos"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "bool"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_unary_quick_path_is_the_general_path_and_torch(name, dtype, requires_grad):
    array = np.abs(_values(dtype, (2, 3), 5)) if dtype != "bool" else _values(dtype, (2, 3), 5)
    x, tx = _pair(array, requires_grad)
    mine, theirs = getattr(x, name)(), getattr(tx, name)()
    node_cls = type(mine.grad_fn) if mine.grad_fn is not None else None
    general = None
    if node_cls is not None:
        general = node_cls.apply(x, cast_to=pointwise.float_dtype_for(x.dtype))
    np.testing.assert_allclose(mine.detach().numpy().astype(float),
                               theirs.detach().numpy().astype(float), rtol=2e-3)
    assert str(mine.dtype) == str(theirs.dtype)
    if general is not None:
        assert type(general.grad_fn) is node_cls
        np.testing.assert_array_equal(general.detach().numpy(), mine.detach().numpy())


def test_saved_inputs_are_named_by_position_not_by_array():
    """x and x.detach() share one array: only input 0 is in the graph, so for
    d/dx only ``other`` (the detached one) is saved, as in torch."""
    b, tb = mg.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0], requires_grad=True)
    x, tx = b * 1, tb * 1
    mine, theirs = x * x.detach(), tx * tx.detach()
    assert mine.grad_fn._saved_self is None and theirs.grad_fn._saved_self is None
    assert mine.grad_fn._saved_other is not None and theirs.grad_fn._saved_other is not None
    assert mine.grad_fn._saved_other.grad_fn is None  # the detached alias, not x
    g, = mg.autograd.grad(mine.sum(), [b], create_graph=True)
    tg, = torch.autograd.grad(theirs.sum(), [tb], create_graph=True)
    assert (g.grad_fn is None) == (tg.grad_fn is None)
    np.testing.assert_array_equal(g.detach().numpy(), tg.detach().numpy())


@pytest.mark.parametrize("mode", ["no_grad", "constants"])
def test_an_unrecorded_op_keeps_nothing(mode):
    """No node, no saved value, no version counter made for the inputs."""
    x = mg.full((2, 2), 0.5, requires_grad=mode == "no_grad")
    w = mg.full((2, 2), 2.0)
    if mode == "no_grad":
        with mg.no_grad():
            out = (x * w + 1).tanh()
    else:
        out = (x * w + 1).tanh()
    assert out.grad_fn is None and not out.requires_grad
    assert x._version_cell is None and w._version_cell is None
    np.testing.assert_array_equal(out.numpy(), np.tanh(np.full((2, 2), 2.0, np.float32)))


def test_a_failing_forward_leaves_the_inputs_unchanged():
    """An error in forward (a shape mismatch) on the quick path is torch's."""
    a, ta = _pair(_values("float32", (2, 3), 1), True)
    b, tb = _pair(_values("float32", (4,), 2), True)
    with pytest.raises(RuntimeError) as theirs:
        ta * tb
    with pytest.raises(RuntimeError) as mine:
        a * b
    assert str(mine.value) == str(theirs.value)
    assert a._version_cell is None and a.grad is None
