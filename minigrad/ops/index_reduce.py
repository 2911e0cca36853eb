"""``index_reduce``: the slices of ``source`` reduced into ``x`` at the places a 1-D index
names along ``dim`` (their product, mean, maximum or minimum; without x's own slice with
``include_self=False``). It is ``scatter_reduce`` with the index repeated across each
slice, so its gradient is scatter_reduce's (ops/scatter.py), the index read the same way:
each input's gradient is the derivative of that reduction."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..rules.arguments import normalize_dim
from ..rules.indexing import check_index_reduce
from ._saved import as_shown
from .scatter import scatter_reduce_backward, scatter_reduce_of

__all__ = ["index_reduce"]


class IndexReduceBackward0(Node):
    formula = Formula("z", "x with source's slices reduced into it at index along dim (prod, "
                           "mean, amax or amin)",
                      grad={"x": "G times the reduction's derivative for x (0 at index "
                                 "without include_self)",
                            "source": "G times the reduction's derivative, read at index"})
    saves = {"self": Input(0), "source": Input(1), "result": RESULT}

    def forward(self, x, source, dim, index, reduce, include_self, given_dim):
        places = spread(index, dim, source.shape)
        self.save(dim=as_shown(given_dim), _dim=dim, index=index, reduce=reduce,
                  include_self=include_self, _places=places)
        return scatter_reduce_of(x, dim, places, source, reduce, include_self)

    def backward(self, saved, grad):
        return scatter_reduce_backward(grad, saved.self, saved._dim, saved._places,
                                       saved.source, saved.reduce, saved.include_self,
                                       saved.result)


def spread(index: np.ndarray, dim: int, shape: tuple) -> np.ndarray:
    """The 1-D ``index`` repeated across source's ``shape``: scatter's index of each element."""
    along = [-1 if d == dim else 1 for d in range(len(shape))]
    return np.broadcast_to(index.reshape(along), shape) if shape else index.reshape(())


def index_reduce(x, dim, index, source, reduce, include_self=True):
    """``x`` with ``source``'s slices reduced into it at ``index`` along ``dim``: ``reduce``
    one of "prod", "mean", "amax", "amin"."""
    given, dim = dim, normalize_dim(dim, x.ndim)
    check_index_reduce(x, dim, index, source, reduce)
    return IndexReduceBackward0.apply(x, source, dim=dim, index=index._data.astype(np.int64),
                                      reduce=reduce, include_self=bool(include_self),
                                      given_dim=given)
