"""Values picked by their order: ``amax``/``amin`` (the largest or smallest along dims),
``aminmax`` (both at once), ``sort``, ``argsort``, ``topk``, ``kthvalue``, ``median``,
``nanmedian`` (the median of the values that are not NaN) and ``mode``.

Each picks elements of ``x``, so each element's gradient is the gradient of the place
it went to, and 0 for the elements not picked. Two ways to say "picked":

- ``sort``, ``topk``, ``kthvalue``, ``median(dim)``, ``nanmedian(dim)``, ``mode`` return
  indices; the gradient is written back at them (``value_selecting_backward``, a
  scatter).
- ``amax``, ``amin``, ``aminmax``, ``median()`` and ``nanmedian()`` return values only;
  every element equal to the result shares its gradient evenly (ties split: 2 maxima
  get G/2 each).

Which index wins a tie is PyTorch's (``kernels/sorting.py``)."""

from __future__ import annotations


import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..autograd.packing import keep
from ..autograd.saved import show_saved
from ..autograd.tensor_base import make
from ..kernels import sorting as kernels
from ..kernels import vec as kernels_vec
from ..rules.arguments import normalize_dim, normalize_dims
from ..rules.layout import with_contiguous_layout, with_empty_like_layout, with_reduction_layout
from ._saved import as_shown
from . import fn, reduction
from .reduction import NOT_GIVEN
from .split import several_outputs
from ..rules.return_types import return_type

__all__ = ["amax", "amin", "aminmax", "sort", "argsort", "topk", "kthvalue", "median",
           "nanmedian", "mode"]


def _restored(value, shape, axes, keepdim):
    """``value`` with the reduced ``axes`` back as size 1 (a view), to broadcast against x."""
    if keepdim or not shape:
        return value
    return fn.reshape(value, tuple(1 if d in axes else n for d, n in enumerate(shape)))


def _split_among_ties(grad, x, result, axes, keepdim):
    """G shared evenly by the elements equal to the result: (G / count) * mask. As
    torch's scale_grad_by_count: a NaN result equals no element, so its count is 0 and
    its whole slice's gradient is NaN (G / 0 * 0)."""
    grad = _restored(grad, x.shape, axes, keepdim)
    result = _restored(result, x.shape, axes, keepdim)
    ties = result == x
    return grad / fn.count(ties, axes, keepdim=True, like=grad) * ties


class AmaxBackward0(Node):
    formula = Formula("y", "max of x over dim",
                      grad={"x": "G at the maximal elements (split evenly on ties), 0 elsewhere"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, dim, keepdim, given):
        self.save(dim=as_shown(given), _axes=dim, keepdim=keepdim)
        return np.asarray(np.amax(x, axis=dim, keepdims=keepdim))

    def backward(self, saved, grad):
        return _split_among_ties(grad, saved.self, saved.result, saved._axes, saved.keepdim)


class AminBackward0(Node):
    formula = Formula("y", "min of x over dim",
                      grad={"x": "G at the minimal elements (split evenly on ties), 0 elsewhere"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x, dim, keepdim, given):
        self.save(dim=as_shown(given), _axes=dim, keepdim=keepdim)
        return np.asarray(np.amin(x, axis=dim, keepdims=keepdim))

    def backward(self, saved, grad):
        return _split_among_ties(grad, saved.self, saved.result, saved._axes, saved.keepdim)


class AminmaxBackward0(Node):
    formula = Formula("(min, max)", "(amin(x), amax(x)) over dim, one node with two outputs",
                      grad={"x": "G_min at the minimal elements + G_max at the maximal ones "
                                 "(each split evenly on ties)"})

    @classmethod
    def apply(cls, x, **params):
        return _keeping_self_min_max(several_outputs(cls, x, params), x)

    def forward(self, x, dim, keepdim, given):
        self.save(dim=as_shown(given), _axes=dim, keepdim=keepdim)
        return kernels_vec.min_and_max(x, dim, keepdim, whole=given is None)

    def backward(self, saved, grad_min=None, grad_max=None):
        x, axes, keepdim = saved.self, saved._axes, saved.keepdim
        parts = [_split_among_ties(grad, x, value, axes, keepdim)
                 for grad, value in ((grad_min, saved.min), (grad_max, saved.max))
                 if grad is not None]
        return parts[0] if len(parts) == 1 else parts[0] + parts[1]


def _keeping_self_min_max(outputs, x):
    """aminmax's outputs, its node (when recorded) keeping what backward reads, shown as
    PyTorch shows it: ``_saved_self``, ``_saved_min``, ``_saved_max``."""
    node = outputs[0].grad_fn
    if node is not None:
        node._saved["self"] = keep(x, x._data)
        for name, output in zip(("min", "max"), outputs):
            node._saved[name] = keep(output, output._data, is_output=True)
    return outputs


show_saved(Node, "min")
show_saved(Node, "max")


class _Picked(Node):
    """values = x read at ``indices`` along ``dim`` (found by the entry function); the
    gradient goes back to those indices."""

    shows_keepdim = True  # (PyTorch's SortBackward0 and TopkBackward0 keep no keepdim)

    def forward(self, x, dim, indices, given, keepdim=True):
        self.save(dim=as_shown(given), _given=int(given), indices=indices, _keepdim=keepdim,
                  self_sym_sizes=x.shape)
        if self.shows_keepdim:
            self.save(keepdim=keepdim)
        if x.ndim == 0:
            return x.copy()
        if not keepdim:
            return np.take_along_axis(x, np.expand_dims(indices, dim), axis=dim).squeeze(dim)
        return np.take_along_axis(x, indices, axis=dim)

    def backward(self, saved, grad):  # (the dim as given: PyTorch's formula passes it on)
        return fn.value_selecting_backward(grad, saved._given, saved.indices,
                                           saved.self_sym_sizes, saved._keepdim)


class SortBackward0(_Picked):
    formula = Formula("values", "x sorted along dim",
                      grad={"x": "G written back at the indices each value came from"})
    shows_keepdim = False


class SortBackward1(SortBackward0):  # (sort(stable=...): PyTorch's other overload)
    pass


class TopkBackward0(_Picked):
    formula = Formula("values", "the k largest (or smallest) x along dim",
                      grad={"x": "G at the indices of the k values, 0 elsewhere"})
    shows_keepdim = False


class KthvalueBackward0(_Picked):
    formula = Formula("values", "the k-th smallest x along dim",
                      grad={"x": "G at the index of the value, 0 elsewhere"})


class MedianBackward1(_Picked):
    formula = Formula("values", "the median of x along dim (the lower of the two middle values)",
                      grad={"x": "G at the index of the median, 0 elsewhere"})


class NanmedianBackward1(_Picked):
    formula = Formula("values", "the median of the x that are not NaN, along dim",
                      grad={"x": "G at the index of the median, 0 elsewhere"})


class ModeBackward0(_Picked):
    formula = Formula("values", "the most frequent x along dim",
                      grad={"x": "G at the index of the value, 0 elsewhere"})


class MedianBackward0(Node):
    formula = Formula("y", "the median of all x (the lower of the two middle values)",
                      grad={"x": "G at the elements equal to it (split evenly on ties)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return kernels.median_of_all(x)

    def backward(self, saved, grad):  # (PyTorch's evenly_distribute_backward, as max()'s)
        return reduction.evenly_distribute(grad, saved.self, saved.result)


class NanmedianBackward0(Node):
    formula = Formula("y", "the median of the x that are not NaN (the lower middle one)",
                      grad={"x": "G at the elements equal to it (split evenly on ties)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        return kernels.nanmedian_of_all(x)

    def backward(self, saved, grad):  # (PyTorch's evenly_distribute_backward, as median()'s)
        return reduction.evenly_distribute(grad, saved.self, saved.result)


# ---- entry functions ----------------------------------------------------------------------


def _named_pair(name):
    return return_type(name, ["values", "indices"])


SortResult, TopkResult, KthvalueResult = _named_pair("sort"), _named_pair("topk"), \
    _named_pair("kthvalue")
MedianResult, ModeResult = _named_pair("median"), _named_pair("mode")
NanmedianResult = _named_pair("nanmedian")
AminmaxResult = return_type("aminmax", ["min", "max"])


def _reduced_dims(x, dim, name):
    """amax/amin's dims as sorted axes (every axis for ``()``), with PyTorch's checks
    that none of them is empty."""
    if x.numel() == 0 and dim in ((), [], None):
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                           "input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
    for given in _given_dims(dim) if x.ndim else ():  # (named as given, in the given order)
        if x.shape[normalize_dim(given, x.ndim)] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {given} to have non-zero size.")
    return normalize_dims(dim, x.ndim)  # (then repeated dims; a 0-dim x: () once checked)


def _given_dims(dim) -> tuple:
    """amax/amin's dim as its node shows it: a tuple (``None``: every dim, ``()``)."""
    if dim is None:
        return ()
    return tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)


def _check_dim_nonempty(x, axis, name):
    if x.ndim and x.shape[axis] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")


def amax(x, dim=(), keepdim=False):
    """The largest elements along ``dim`` (every dim when empty); ties share the gradient."""
    axes = _reduced_dims(x, dim, "amax")
    given = _given_dims(dim)
    return with_reduction_layout(AmaxBackward0.apply(x, dim=axes, keepdim=keepdim, given=given))


def amin(x, dim=(), keepdim=False):
    """The smallest elements along ``dim`` (every dim when empty); ties share the gradient."""
    axes = _reduced_dims(x, dim, "amin")
    given = _given_dims(dim)
    return with_reduction_layout(AminBackward0.apply(x, dim=axes, keepdim=keepdim, given=given))


def aminmax(x, dim=None, keepdim=False):
    """``(min, max)``: the smallest and the largest elements (along ``dim``, an int, when
    given), from one node; each output's gradient is shared by its ties."""
    if dim is None:
        if x.numel() == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        axes = tuple(range(x.ndim))
    else:
        axis = normalize_dim(dim, x.ndim)
        if x.ndim and x.shape[axis] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {axis} to have non-zero size.")
        axes = (axis,) if x.ndim else ()
    minimum, maximum = AminmaxBackward0.apply(x, dim=axes, keepdim=keepdim, given=dim)
    return with_reduction_layout(AminmaxResult(minimum, maximum))


def _picked(node_cls, result_cls, x, dim, given, indices, keepdim=True):
    values = node_cls.apply(x, dim=dim, indices=indices, given=given, keepdim=keepdim)
    return result_cls(values, make(np.asarray(indices, np.int64)))


def _stable(stable) -> bool:
    return stable is not NOT_GIVEN and bool(stable)


def sort(x, dim=-1, descending=False, stable=NOT_GIVEN):
    """``(values, indices)``: ``x`` sorted along ``dim`` (ascending unless ``descending``);
    NaN sorts as the largest, equal values come in PyTorch's order (in their own with
    ``stable=True``). ``stable`` given, even False or None: PyTorch's other overload,
    SortBackward1."""
    axis = normalize_dim(dim, x.ndim)
    indices = kernels.sort_indices(x._data, axis, descending, stable=_stable(stable))
    node = SortBackward0 if stable is NOT_GIVEN else SortBackward1
    values, indices = _picked(node, SortResult, x, axis, dim, indices)
    return with_empty_like_layout(SortResult(values, indices), x)  # (x's order)


def argsort(x, dim=-1, descending=False, stable=NOT_GIVEN):
    """The indices that sort ``x`` along ``dim`` (``sort(...).indices``)."""
    axis = normalize_dim(dim, x.ndim)
    indices = make(kernels.sort_indices(x._data, axis, descending, stable=_stable(stable)))
    return with_empty_like_layout(indices, x)


def topk(x, k, dim=-1, largest=True, sorted=True):
    """``(values, indices)`` of the ``k`` largest (``largest=False``: smallest) elements
    along ``dim``, largest first."""
    axis = normalize_dim(dim, x.ndim)
    size = x.shape[axis] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if x.dtype is dtypes.bool:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    indices = kernels.topk_indices(x._data, k, axis, largest)
    result = _picked(TopkBackward0, TopkResult, x, axis, dim, indices)
    return result if indices.size else TopkResult(*map(with_contiguous_layout, result))


def kthvalue(x, k, dim=-1, keepdim=False):
    """``(values, indices)`` of the ``k``-th smallest element along ``dim`` (k from 1)."""
    axis = normalize_dim(dim, x.ndim)
    size = x.shape[axis] if x.ndim else 1
    _check_dim_nonempty(x, axis, "kthvalue")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    if x.ndim:  # (a 0-dim x is its own answer: torch runs no kernel)
        _check_not_bool(x, "kthvalue_cpu")
    indices = kernels.kth_indices(x._data, k, axis)
    kept = np.expand_dims(indices, axis) if keepdim and x.ndim else indices
    return with_reduction_layout(  # (an empty result too: NumPy's strides of 0)
        _picked(KthvalueBackward0, KthvalueResult, x, axis, dim, kept, keepdim))


def _check_not_bool(x, kernel: str) -> None:
    """torch's kthvalue and median kernels (all of x: median_cpu; along a dim: median_out)
    have no bool version; their shape checks come first."""
    if x.dtype is dtypes.bool:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def median(x, dim=NOT_GIVEN, keepdim=False):
    """The median (the lower of the two middle values for an even count); with ``dim``,
    ``(values, indices)`` along it."""
    if dim is None:  # (PyTorch's parser: median() or median(int dim), not None)
        raise TypeError("median(): argument 'dim' (position 1) must be int, not NoneType")
    if dim is NOT_GIVEN:
        if x.numel():  # (of no element: NaN, cast to x's dtype, without a kernel)
            _check_not_bool(x, "median_cpu")
        return MedianBackward0.apply(x)
    axis = normalize_dim(dim, x.ndim)
    _check_dim_nonempty(x, axis, "median")
    _check_not_bool(x, "median_out")
    indices = kernels.median_indices(x._data, axis)
    kept = np.expand_dims(indices, axis) if keepdim and x.ndim else indices
    return with_reduction_layout(_picked(MedianBackward1, MedianResult, x, axis, dim, kept,
                                         keepdim))


def nanmedian(x, dim=NOT_GIVEN, keepdim=False):
    """``median`` of the values that are not NaN (NaN where all are); with ``dim``,
    ``(values, indices)`` along it."""
    if dim is None:
        raise TypeError("nanmedian(): argument 'dim' (position 1) must be int, not NoneType")
    if dim is NOT_GIVEN:
        if x.numel():  # (of no element: NaN, cast to x's dtype, without a kernel)
            _check_not_bool(x, "median_cpu")
        return NanmedianBackward0.apply(x)
    axis = normalize_dim(dim, x.ndim)
    _check_dim_nonempty(x, axis, "median")
    _check_not_bool(x, "median_out")
    indices = kernels.nanmedian_indices(x._data, axis)
    kept = np.expand_dims(indices, axis) if keepdim and x.ndim else indices
    return with_reduction_layout(_picked(NanmedianBackward1, NanmedianResult, x, axis, dim,
                                         kept, keepdim))


def mode(x, dim=-1, keepdim=False):
    """``(values, indices)``: the most frequent value along ``dim`` (the smallest one on
    a tie of counts) and an index where it occurs."""
    axis = normalize_dim(dim, x.ndim)
    _check_dim_nonempty(x, axis, "mode")
    indices = kernels.mode_of(x._data, axis)
    kept = np.expand_dims(indices, axis) if keepdim and x.ndim else indices
    return with_reduction_layout(  # (an empty result too: NumPy's strides of 0)
        _picked(ModeBackward0, ModeResult, x, axis, dim, kept, keepdim))
