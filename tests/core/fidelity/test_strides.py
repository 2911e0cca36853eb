"""``stride()`` of new tensors, compared with PyTorch 2.13: empty tensors (NumPy gives
them zero strides and forgets their layout on a copy; torch keeps row-major strides,
a size-0 dim counting as 1) made by factories, permuted and sliced, then cloned,
made contiguous, or copied by a ``*_like`` factory (torch's preserve_format)."""

from __future__ import annotations

import itertools

import pytest
import torch

import minigrad

EMPTY_SHAPES = [(0,), (0, 3), (3, 0), (0, 1), (1, 0), (2, 0, 3), (2, 3, 0), (0, 2, 3), (1, 0, 1)]


def _layouts(lib, shape):
    """A tensor of ``shape`` in every dim order, and a few slices of it."""
    base = lib.zeros(shape)
    for perm in itertools.permutations(range(len(shape))):
        yield f"permute{perm}", base.permute(perm)
    if len(shape) >= 2:
        yield "[::2]", lib.zeros((4, *shape[1:]))[::2]
        yield "[:, 1:1]", lib.zeros((shape[0], 3, *shape[2:]))[:, 1:1]
        yield "t of [::2]", lib.zeros((4, *shape[1:]))[::2].transpose(0, 1)


COPIES = {
    "itself": lambda lib, t: t,
    "clone": lambda lib, t: t.clone(),
    "clone contiguous_format": lambda lib, t: t.clone(memory_format=lib.contiguous_format),
    "contiguous": lambda lib, t: t.contiguous(),
    "zeros_like": lambda lib, t: lib.zeros_like(t),
    "ones_like": lambda lib, t: lib.ones_like(t),
    "full_like": lambda lib, t: lib.full_like(t, 2.0),
    "zeros_like contiguous_format": lambda lib, t: lib.zeros_like(
        t, memory_format=lib.contiguous_format),
}

# tensor op number on 2 or more dims: TensorIterator's layout from t's strides, where a
# size-0 dim makes the slower dims' strides 0 (unless the dims keep their natural order)
NUMBER_OPS = {"t + 1": lambda lib, t: t + 1, "t * 2": lambda lib, t: t * 2,
              "t / 2": lambda lib, t: t / 2, "t - 0.5": lambda lib, t: t - 0.5}


def _strides(lib, shape, copy):
    return [(name, COPIES[copy](lib, t).stride(), COPIES[copy](lib, t).shape)
            for name, t in _layouts(lib, shape)]


@pytest.mark.parametrize("copy", list(COPIES))
@pytest.mark.parametrize("shape", EMPTY_SHAPES, ids=str)
def test_strides_of_empty_tensors_are_torchs(shape, copy):
    assert _strides(minigrad, shape, copy) == _strides(torch, shape, copy)


@pytest.mark.parametrize("copy", list(COPIES))
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (1, 3), (3, 1, 2)], ids=str)
def test_strides_of_copies_of_laid_out_tensors_are_torchs(shape, copy):
    assert _strides(minigrad, shape, copy) == _strides(torch, shape, copy)


@pytest.mark.parametrize("make", [
    lambda lib: lib.tensor([]), lambda lib: lib.tensor([[], []]), lambda lib: lib.empty(0, 2),
    lambda lib: lib.ones(2, 0), lambda lib: lib.full((0, 2, 2), 1.0),
    lambda lib: lib.zeros(3, 0, requires_grad=True).clone(),
], ids=["tensor([])", "tensor([[], []])", "empty(0, 2)", "ones(2, 0)", "full", "clone rg"])
def test_strides_of_empty_factories_are_torchs(make):
    assert make(minigrad).stride() == make(torch).stride()


# ---- addmm's gradients: torch's column-major rule ---------------------------------
# torch computes the gradient of a matrix laid out column by column (a transposed
# one, as weight.t() in a linear layer) transposed, (mat2 @ G^T)^T, so that it comes
# out laid out alike, then scales it by alpha; a second backward shows those nodes.
# (Not matched: a 1 x k column-major mat1 with alpha != 1. torch's G @ mat2^T scaled
# by a number keeps the strides (1, 1) of that 1 x k result, NumPy's product by a
# number gives (k, 1): a layout difference of elementwise ops with a number.)

def _laid_out(lib, shape, layout):
    if layout == "rows":
        return lib.arange(float(shape[0] * shape[1])).reshape(shape) / 4
    if layout == "columns":
        return (lib.arange(float(shape[0] * shape[1])).reshape(shape[::-1]) / 4).t()
    return (lib.arange(float(shape[0] * shape[1] * 2)).reshape(shape[0], -1) / 4)[:, ::2]


def _addmm_gradients(lib, sizes, bias_shape, layouts, beta, alpha):
    from torch_compare import graph_of

    m, k, n = sizes
    bias = lib.ones(bias_shape) / 2 if len(bias_shape) < 2 else _laid_out(lib, bias_shape, layouts[0])
    inputs = [t.requires_grad_() for t in
              (bias, _laid_out(lib, (m, k), layouts[1]), _laid_out(lib, (k, n), layouts[2]))]
    addmm = torch.addmm if lib is torch else minigrad.ops.addmm
    out = addmm(*inputs, beta=beta, alpha=alpha)
    upstream = (lib.arange(float(m * n)).reshape(m, n) - 2).requires_grad_()
    grads = lib.autograd.grad(out, inputs, upstream, create_graph=True)
    return ([(g.stride(), g.tolist()) for g in grads], graph_of(list(grads), inputs))


@pytest.mark.parametrize("beta,alpha", [(1, 1), (2, 0.5), (1, 0), (0, 1)])
@pytest.mark.parametrize("layouts", list(itertools.product(["rows", "columns", "sliced"],
                                                           repeat=3)), ids=str)
@pytest.mark.parametrize("sizes,bias_shape", [((2, 3, 4), (2, 4)), ((2, 3, 4), (4,)),
                                              ((3, 2, 2), (1, 2)), ((2, 3, 1), (2, 1))],
                         ids=str)
def test_addmm_gradients_are_laid_out_as_torchs(sizes, bias_shape, layouts, beta, alpha):
    assert (_addmm_gradients(minigrad, sizes, bias_shape, layouts, beta, alpha)
            == _addmm_gradients(torch, sizes, bias_shape, layouts, beta, alpha))


@pytest.mark.parametrize("layouts", list(itertools.product(["rows", "columns", "sliced"],
                                                           repeat=3)), ids=str)
def test_addmm_gradients_of_one_row_are_laid_out_as_torchs(layouts):
    assert (_addmm_gradients(minigrad, (1, 3, 2), (2,), layouts, 1, 1)
            == _addmm_gradients(torch, (1, 3, 2), (2,), layouts, 1, 1))


@pytest.mark.parametrize("batch", [1, 3])
def test_linear_layer_gradients_are_laid_out_as_torchs(batch):
    """F.linear(x, w, b) is addmm(b, x, w.t()): w.t() is column-major, so w.grad is
    computed transposed and comes out row-major, as w is."""
    def run(lib):
        w = (lib.arange(6.0).reshape(2, 3) / 4).requires_grad_()
        b = lib.ones(2, requires_grad=True)
        x = (lib.arange(3.0 * batch).reshape(batch, 3) - 1).requires_grad_()
        loss = (lib.nn.functional.linear(x, w, b) ** 2).sum()
        gw, gx = lib.autograd.grad(loss, [w, x], create_graph=True)
        (gw.sum() + gx.sum()).backward()
        return [(t.stride(), t.tolist()) for t in (gw, gx, w.grad, x.grad, b.grad)]
    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("op", list(NUMBER_OPS))
@pytest.mark.parametrize("shape", EMPTY_SHAPES, ids=str)
def test_strides_of_empty_results_of_tensor_op_number_are_torchs(shape, op):
    def strides(lib):
        return [(name, NUMBER_OPS[op](lib, t).stride()) for name, t in _layouts(lib, shape)]
    assert strides(minigrad) == strides(torch)


# Elementwise ops on empty tensors: operands all of one shape take TensorIterator's
# fast path, where an empty tensor counts as contiguous (row-major strides, whatever
# the operands' layouts); operands of other shapes are laid out in the iterator's
# order (a size-0 dim makes the slower dims' strides 0). NumPy gives strides of 0.
SAME_SHAPE_OPS = {
    "t + t": lambda lib, t: t + t, "t * t.clone()": lambda lib, t: t * t.clone(),
    "t - zeros": lambda lib, t: t - lib.zeros(t.shape), "t / t": lambda lib, t: t / t,
    "t ** t": lambda lib, t: t ** t, "maximum": lambda lib, t: lib.maximum(t, t),
    "minimum": lambda lib, t: lib.minimum(t.clone(), t), "t == t": lambda lib, t: t == t,
    "where": lambda lib, t: lib.where(t > t, t, t.clone()),
    "exp": lambda lib, t: t.exp(), "tanh": lambda lib, t: t.tanh(),
    "sigmoid": lambda lib, t: t.sigmoid(), "log": lambda lib, t: t.log(),
    "sqrt": lambda lib, t: t.sqrt(), "sin": lambda lib, t: t.sin(),
    "exp of int": lambda lib, t: t.long().exp(),
}
BROADCAST_OPS = {
    "t + last dim": lambda lib, t: t + lib.zeros(t.shape[-1:]),
    "last dim * t": lambda lib, t: lib.zeros(t.shape[-1:]) * t,
    "t / 0-dim": lambda lib, t: t / lib.tensor(2.0),
    "t < (1, last dim)": lambda lib, t: t < lib.zeros(1, t.shape[-1]),
    "where, 0-dim": lambda lib, t: lib.where(t > 0, t, lib.tensor(1.0)),
}


@pytest.mark.parametrize("op", list(SAME_SHAPE_OPS) + list(BROADCAST_OPS))
@pytest.mark.parametrize("shape", EMPTY_SHAPES, ids=str)
def test_strides_of_empty_elementwise_results_are_torchs(shape, op):
    make = {**SAME_SHAPE_OPS, **BROADCAST_OPS}[op]

    def strides(lib):
        return [(name, make(lib, t).stride()) for name, t in _layouts(lib, shape) if not t.numel()]
    assert strides(minigrad) == strides(torch)


@pytest.mark.parametrize("op", ["exp", "t ** t", "sigmoid"])
@pytest.mark.parametrize("shape", [(0, 3), (2, 0, 3)], ids=str)
def test_a_saved_empty_result_has_the_results_strides(shape, op):
    def strides(lib):
        out = []
        for name, t in _layouts(lib, shape):
            result = SAME_SHAPE_OPS[op](lib, t.requires_grad_())
            out.append((name, result.stride(), result.grad_fn._saved_result.stride()))
        return out
    assert strides(minigrad) == strides(torch)


def test_a_saved_result_laid_out_by_the_iterator_has_the_results_strides():
    def strides(lib):
        a, b = lib.ones(3, 2, requires_grad=True), lib.ones(2, 3, requires_grad=True)
        result = a.t() ** b
        return result.stride(), result.grad_fn._saved_result.stride()
    assert strides(minigrad) == strides(torch)


# One-operand ops on every layout (views included): TensorIterator's fast path gives
# a contiguous input (an empty one counts as contiguous) a row-major result and a
# dense one its own strides, else the iterator orders the dims; tensor op number and
# comparisons with a number always take the iterator's order; 2 ** t, cumsum and
# masked_fill are row-major; conversions keep the layout as clone does.
ONE_OPERAND_OPS = {
    "-t": lambda lib, t: -t, "abs": lambda lib, t: t.abs(), "relu": lambda lib, t: t.relu(),
    "sign": lambda lib, t: t.sign(), "clamp": lambda lib, t: t.clamp(0, 1),
    "clamp(min=)": lambda lib, t: t.clamp(min=0), "t ** 2": lambda lib, t: t ** 2,
    "t ** 0.5 (no grad)": lambda lib, t: t.detach() ** 0.5, "1 - t": lambda lib, t: 1 - t,
    "1 / t": lambda lib, t: 1 / t, "2 ** t": lambda lib, t: 2 ** t, "t > 0": lambda lib, t: t > 0,
    "t == 0": lambda lib, t: t == 0, "exp": lambda lib, t: t.exp(), "tanh": lambda lib, t: t.tanh(),
    "sigmoid of a long": lambda lib, t: t.long().sigmoid(),
    "masked_fill": lambda lib, t: t.masked_fill(t > 0, 1.0),
    "double": lambda lib, t: t.double(), "long": lambda lib, t: t.long(),
    "to(float64)": lambda lib, t: t.to(lib.float64), "bool": lambda lib, t: t.bool(),
    "isclose": lambda lib, t: lib.isclose(t, t), "cumsum": lambda lib, t: t.cumsum(-1),
    "cumprod": lambda lib, t: t.cumprod(0), "reciprocal": lambda lib, t: t.reciprocal(),
    "~(t > 0) of an empty t": lambda lib, t: ~(t[:0] > 0),
}


@pytest.mark.parametrize("op", list(ONE_OPERAND_OPS))
# (Still different: a size-1 dim's stride, which torch keeps as the input has it and
# NumPy may renumber, after more than one op: (3, 1, 2) permuted, .long().sigmoid().)
@pytest.mark.parametrize("shape", EMPTY_SHAPES + [(2, 3), (3, 1), (2, 3, 4)], ids=str)
def test_strides_of_one_operand_results_are_torchs(shape, op):
    def strides(lib):
        return [(name, ONE_OPERAND_OPS[op](lib, t).stride()) for name, t in _layouts(lib, shape)]
    assert strides(minigrad) == strides(torch)


# softmax and log_softmax lay their results (and their gradients) out row-major, as
# torch's kernels allocate them: an empty one too (NumPy would give it strides of 0).
SOFTMAX_OPS = {
    "softmax(-1)": lambda lib, t: t.softmax(-1),
    "softmax(0)": lambda lib, t: t.softmax(0),
    "log_softmax(-1)": lambda lib, t: t.log_softmax(-1),
    "F.log_softmax(0, dtype=float64)":
        lambda lib, t: lib.nn.functional.log_softmax(t, 0, dtype=lib.float64),
    "F.softmax(-1, dtype=float64)":
        lambda lib, t: lib.nn.functional.softmax(t, -1, dtype=lib.float64),
}


@pytest.mark.parametrize("op", list(SOFTMAX_OPS))
@pytest.mark.parametrize("shape", EMPTY_SHAPES + [(2, 3), (2, 3, 4)], ids=str)
def test_strides_of_softmax_results_and_gradients_are_torchs(shape, op):
    def strides(lib):
        out = []
        for name, t in _layouts(lib, shape):
            t = t.detach().requires_grad_()
            result = SOFTMAX_OPS[op](lib, t)
            node = result.grad_fn
            while not hasattr(node, "_saved_result"):  # (through the dtype conversion)
                node = node.next_functions[0][0]
            saved = node._saved_result.stride()
            g, = lib.autograd.grad(result, t, lib.ones(result.shape), create_graph=True)
            gg, = lib.autograd.grad(g, t, lib.ones(g.shape))
            out.append((name, result.stride(), saved, g.stride(), gg.stride()))
        return out
    assert strides(minigrad) == strides(torch)


def test_nbytes_itemsize_and_data_ptr_as_torch():
    """``x.nbytes`` (an expanded tensor counts every element it shows), ``x.itemsize`` and
    ``x.data_ptr()``: equal for views that start where the tensor does, moved by whole
    elements for the others, the address ``x.numpy()`` shares."""
    def program(lib):
        x = lib.arange(12.).reshape(3, 4)
        n = lib.ones(5)
        return [x.nbytes, x.itemsize, x.double().nbytes, x[1:].nbytes, x.t().nbytes,
                x.expand(2, 3, 4).nbytes, lib.ones(2, 1).expand(2, 5).nbytes,
                lib.tensor(True).itemsize, lib.ones(2, dtype=lib.float16).nbytes,
                x[0].data_ptr() == x.data_ptr(), x[1].data_ptr() - x.data_ptr(),
                x[:, 1].data_ptr() - x.data_ptr(), x.view(12).data_ptr() == x.data_ptr(),
                x.t().data_ptr() == x.data_ptr(), x.clone().data_ptr() == x.data_ptr(),
                n.numpy().__array_interface__["data"][0] == n.data_ptr()]
    assert program(minigrad) == program(torch)
