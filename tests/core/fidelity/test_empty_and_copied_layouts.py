"""Strides PyTorch 2.13 gives where NumPy gives others, compared at test time: empty matrix
products and pads (NumPy: strides of 0), the gradient of an empty leaf, ``index_fill`` and
``index_put`` on a transposed tensor (torch's clone keeps the layout, NumPy's copy is
row-major), and ``torch.tensor`` of a NumPy array (its own strides, a size-1 dim's too;
a negative stride refused, a read-only array warned about)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad

from warn_always import warn_always

EMPTY_RESULTS = {
    "(0, 3) @ (3, 2)": lambda L: L.zeros(0, 3) @ L.zeros(3, 2),
    "(0, 3) @ (3, 0)": lambda L: L.zeros(0, 3) @ L.zeros(3, 0),
    "(2, 0, 3) @ (2, 3, 0)": lambda L: L.zeros(2, 0, 3) @ L.zeros(2, 3, 0),
    "bmm": lambda L: L.bmm(L.zeros(2, 0, 3), L.zeros(2, 3, 4)),
    "mv": lambda L: L.mv(L.zeros(0, 3), L.zeros(3)),
    "addmm": lambda L: L.addmm(L.zeros(4), L.zeros(0, 3), L.zeros(3, 4)),
    "linear": lambda L: L.nn.functional.linear(L.zeros(0, 3), L.ones(4, 3)),
    "pad": lambda L: L.nn.functional.pad(L.zeros(2, 0, 3), (1, 1)),
}


@pytest.mark.parametrize("name", list(EMPTY_RESULTS))
def test_empty_products_are_laid_out_row_major(name):
    mine, theirs = EMPTY_RESULTS[name](minigrad), EMPTY_RESULTS[name](torch)
    assert (tuple(mine.shape), mine.stride()) == (tuple(theirs.shape), theirs.stride())


THROUGH = {
    "cumsum": lambda x: x.cumsum(0), "cummax": lambda x: x.cummax(0)[0],
    "cummin": lambda x: x.cummin(-1)[0], "logcumsumexp": lambda x: x.logcumsumexp(0),
    "softmax": lambda x: x.softmax(0), "clone": lambda x: x.clone(),
    "mm": lambda x: x @ x.new_ones(x.shape[-1], 2), "exp": lambda x: x.exp(),
}


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0)])
@pytest.mark.parametrize("op", list(THROUGH))
def test_the_gradient_of_an_empty_leaf_has_its_strides(shape, op):
    def grad(lib):
        x = lib.zeros(shape, requires_grad=True)
        y = THROUGH[op](x)
        y.backward(lib.ones(y.shape))
        return tuple(x.grad.shape), x.grad.stride()
    assert grad(minigrad) == grad(torch)


COPIED = {
    "index_fill": lambda L, x: x.index_fill(0, L.tensor([1]), 5.0),
    "index_fill dim 1": lambda L, x: x.index_fill(1, L.tensor([0, 1]), -1.0),
    "index_fill_ of a clone": lambda L, x: x.clone().index_fill_(0, L.tensor([1]), 5.0),
    "index_put": lambda L, x: x.index_put((L.tensor([1]),), L.tensor(2.0)),
    "index_put accumulate": lambda L, x: x.index_put((L.tensor([1, 1]),), L.tensor(2.0),
                                                      accumulate=True),
}


@pytest.mark.parametrize("layout", ["transposed", "permuted", "sliced"])
@pytest.mark.parametrize("name", list(COPIED))
def test_index_fill_and_index_put_keep_the_layout_as_torchs_clone(name, layout):
    def run(lib):
        base = lib.arange(24.0).reshape(2, 3, 4)
        x = {"transposed": base[0].t(), "permuted": base.permute(2, 0, 1)[:, 1],
             "sliced": base[:, :, ::2].reshape(6, 2)[::2]}[layout]
        x = x.detach().requires_grad_()
        y = COPIED[name](lib, x)
        y.backward(lib.ones(y.shape) * 2)
        return y.tolist(), y.stride(), x.grad.tolist(), x.grad.stride()
    assert run(minigrad) == run(torch)


ARRAYS = {
    "a row sliced from 4": lambda: np.ones((4, 3))[::4],
    "a transposed row": lambda: np.ones((1, 3)).T,
    "Fortran order": lambda: np.asfortranarray(np.ones((2, 1, 3))),
    "every other column": lambda: np.ones((2, 1, 3))[:, :, ::2],
    "broadcast": lambda: np.broadcast_to(np.ones(3), (2, 3)),
    "int32 transposed": lambda: np.ones((1, 3), dtype=np.int32).T,
    "empty": lambda: np.ones((0, 3)),
    "0-dim": lambda: np.array(2.0),
}


@pytest.mark.parametrize("dtype", [None, "float32"])
@pytest.mark.parametrize("name", list(ARRAYS))
def test_a_tensor_of_a_numpy_array_has_torchs_strides(name, dtype):
    def made(lib):
        kind = None if dtype is None else getattr(lib, dtype)
        t = lib.tensor(ARRAYS[name](), dtype=kind)
        return tuple(t.shape), t.stride(), t.tolist()
    assert made(minigrad) == made(torch)


@pytest.mark.parametrize("make", ["tensor", "as_tensor", "from_numpy"])
@pytest.mark.parametrize("array", [np.arange(6.0).reshape(2, 3)[::-1],
                                   np.arange(6.0).reshape(2, 3)[:, ::-1],
                                   np.ones((1, 3))[::-1]])
def test_a_negative_stride_is_refused_as_torch_refuses_it(make, array):
    def error(lib):
        with pytest.raises(ValueError) as caught:
            getattr(lib, make)(array)
        return str(caught.value)
    assert error(minigrad) == error(torch)


def test_a_read_only_array_shared_warns_once_at_the_callers_line():
    def seen(lib):
        array = np.broadcast_to(np.ones(3), (2, 3))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.from_numpy(array)
            lib.as_tensor(array)
        return [(str(w.message), w.filename) for w in caught]
    with warn_always():
        assert seen(minigrad) == seen(torch)
