"""Empty tensors against PyTorch 2.13 live: the strides of empty results (NumPy gives a
new empty array strides of 0, torch a new tensor's row-major strides, except where it
follows its input's: a tensor made of an empty NumPy array keeps NumPy's zeros, and so do
``sort``, ``flip``, ``clone`` of it), ``as_strided``
past the end of an empty tensor's memory (torch's setStorage error: a new empty tensor
has no memory at all), and ``unique``/``unique_consecutive`` along a dim of a tensor that
is empty along another one (torch's error). Found by the random programs of session 12."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

OPS = {
    "unique_consecutive": lambda L, a: L.unique_consecutive(a, return_inverse=True, return_counts=True),
    "unique": lambda L, a: L.unique(a, sorted=True, return_inverse=True, return_counts=True),
    "nonzero as_tuple": lambda L, a: a.nonzero(as_tuple=True), "bool index": lambda L, a: a[a > 0],
    "topk": lambda L, a: a.topk(0), "flip": lambda L, a: a.flip(0),
    "index_select": lambda L, a: a.index_select(0, L.tensor([], dtype=L.long)),
    "bincount": lambda L, a: a.long().reshape(-1).bincount(),
    "searchsorted": lambda L, a: L.searchsorted(a.reshape(-1), a.reshape(-1)),
    "triu_indices": lambda L, a: L.triu_indices(0, 0), "arange": lambda L, a: L.arange(0),
    "sort": lambda L, a: a.sort(), "sort 0": lambda L, a: a.sort(0), "exp": lambda L, a: a.exp(),
    "masked_select": lambda L, a: a.masked_select(a > 0), "tril_indices": lambda L, a: L.tril_indices(0, 3),
    "arange float": lambda L, a: L.arange(2.0, 2.0),
    "cumsum": lambda L, a: a.cumsum(0), "clone": lambda L, a: a.clone(),
}


def _layout(v):
    if isinstance(v, (tuple, list)):
        return [_layout(x) for x in v]
    return tuple(v.shape), v.stride(), v.is_contiguous(), str(v.dtype).split(".")[-1]


@pytest.mark.parametrize("made", ["zeros", "numpy"])
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
@pytest.mark.parametrize("name", sorted(OPS))
def test_empty_result_strides_as_torch(name, shape, made):
    seen = [_layout(OPS[name](lib, lib.zeros(shape) if made == "zeros" else
                              lib.tensor(np.zeros(shape, np.float32)))) for lib in (torch, mg)]
    assert seen[0] == seen[1]


def _outcome(call):
    try:
        value = call()
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return type(error).__name__, str(error)
    return [_layout(v) for v in value] if isinstance(value, tuple) else _layout(value)


AS_STRIDED = [((2, 0), (1,), (1,), None), ((0,), (1,), (1,), None), ((0,), (0,), (1,), None),
              ((3,), (1,), (1,), 3), ((2, 0), (0, 2), (1, 1), None), ((4,), (2,), (1,), 1)]


@pytest.mark.parametrize("shape, size, stride, offset", AS_STRIDED)
def test_as_strided_of_empty_memory_as_torch(shape, size, stride, offset):
    seen = []
    for lib in (torch, mg):
        x = lib.zeros(shape) if shape != (3,) else lib.zeros(3)[3:]
        seen.append(_outcome(lambda: x.as_strided(size, stride) if offset is None
                             else x.as_strided(size, stride, offset)))
        seen.append(_outcome(lambda: x.clone().as_strided(size, stride)))
    assert seen[:2] == seen[2:]


@pytest.mark.parametrize("shape, dim", [((2, 0), 0), ((2, 0), 1), ((0, 3), 0), ((0, 3), -1),
                                        ((0,), 0), ((2, 0, 3), 2), ((2, 0, 3), 1)])
@pytest.mark.parametrize("name", ["unique", "unique_consecutive"])
def test_unique_along_a_dim_of_an_empty_tensor_as_torch(name, shape, dim):
    seen = [_outcome(lambda: getattr(lib, name)(lib.zeros(shape), dim=dim, return_inverse=True,
                                                return_counts=True)) for lib in (torch, mg)]
    assert seen[0] == seen[1]


REDUCED = {
    "vector_norm over the last dim": lambda L, a: L.linalg.vector_norm(a, 2, dim=-1),
    "vector_norm p=1 over the first dim": lambda L, a: L.linalg.vector_norm(a, 1, dim=0),
    "norm over a dim": lambda L, a: a.norm(dim=-1), "norm p=3": lambda L, a: a.norm(p=3, dim=0),
    "mode over the first dim": lambda L, a: a.mode(0), "mode over the last dim": lambda L, a: a.mode(-1),
    "mode keepdim": lambda L, a: a.mode(0, keepdim=True),
}


@pytest.mark.parametrize("shape", [(3, 0, 2), (1, 0, 2), (0, 2)])
@pytest.mark.parametrize("name", sorted(REDUCED))
def test_an_empty_reductions_result_is_row_major_as_torch(name, shape):
    """vector_norm's and mode's results over a dim of an empty tensor (PyTorch: a new
    tensor's row-major strides; minigrad had NumPy's strides of 0: meet seeds 40048,
    42184, 41640)."""
    assert _outcome(lambda: REDUCED[name](torch, torch.zeros(shape))) == \
        _outcome(lambda: REDUCED[name](mg, mg.zeros(shape)))
