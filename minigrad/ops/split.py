"""Several views at once: unbind, split, chunk; and tensor_split, unsafe_split.

Each of these returns a tuple of views of its input, made by one node:
``x.unbind(1)[2].grad_fn`` is the same ``UnbindBackward0`` as for the other
outputs, and ``output_nr`` says which output a view is (2). The views share
memory and the version counter with their input, as any view does. As in
PyTorch, an output may not be changed in place while autograd is recording
(the one node could not say which output the change belongs to): "Output 0
of Split is a view and is being modified inplace. This view is the output of
a function that returns multiple views. ...".

Backward puts each output's gradient back where that output came from:
a stack (unbind) or a cat (split) of the gradients, with zeros for the
outputs that took no part in the loss.

``tensor_split`` is another kind: PyTorch makes each of its outputs by a slice of
its own (``SliceBackward0`` each, ordinary views that may be changed in place).
``unsafe_split``/``unsafe_split_with_sizes``/``unsafe_chunk`` record one
``UnsafeSplitBackward0`` (``UnsafeSplitWithSizesBackward0``) whose outputs share
memory with the input but are not views for autograd: each has its own version
counter, and may be changed in place (PyTorch's warning: changing both the input
and an output in place then gives silently wrong gradients).
"""

from __future__ import annotations

import numpy as np

from ..autograd import forward_ad, grad_mode
from ..autograd.formula import Formula
from ..autograd.node import Node
from . import fn
from .. import dtypes
from ..autograd.tensor_base import is_tensor, make
from ..rules.arguments import normalize_dim
from ..kernels import layout
from . import indexing

__all__ = ["unbind", "split", "split_with_sizes", "chunk", "tensor_split", "unsafe_split",
           "unsafe_split_with_sizes", "unsafe_chunk"]


class _SeveralViews(Node):
    """A node whose outputs are several views of its one input. ``forward``
    returns the list of views (NumPy views of ``x``)."""

    is_view = True

    @classmethod
    def apply(cls, x, **params):
        """Run ``forward`` and make its views output 0, 1, ... of one node (recorded
        when ``x`` requires grad and grad mode is on)."""
        return several_outputs(cls, x, params)

    def _present(self, grads) -> list:
        """One gradient per output; None for those that received none."""
        return list(grads) + [None] * (self.outputs - len(grads))


def several_outputs(cls, x, params) -> tuple:
    """``cls.apply(x, **params)``: the node's outputs, as views of ``x`` (or, for
    ``unsafe_split``, plain tensors sharing its memory), linked to one node."""
    record = grad_mode.is_grad_enabled() and x.requires_grad
    node = object.__new__(cls)
    if record:
        node._saved, node._forward_args = {}, (x,)
    else:
        node._forward_args = False  # save() keeps nothing
    arrays = node.forward(x._data, **params)
    if not cls.is_view:  # (unsafe_split: the same memory, but not views for autograd)
        outputs = [make(array, grad_fn=node if record else None,
                        output_nr=number if record else 0)
                   for number, array in enumerate(arrays)]
    else:
        outputs = _views(x, arrays, node if record else None)
    if record:
        node._forward_args = None
        node.outputs = node._output_count = len(outputs)
        node._link((x,), None)
    if forward_ad.active:
        forward_ad.run_several(cls, (x,), params, outputs)
    return tuple(outputs)


def _views(x, arrays, node) -> list:
    """The arrays as views of ``x``: its version counter, its base, output 0, 1, ..."""
    version = x._version_counter
    base = x if x._base is None else x._base
    # (torch's creation_meta MULTI_OUTPUT_NODE, or NO_GRAD_MODE under no_grad)
    made = "multi-output" if grad_mode.is_grad_enabled() else \
        "inference" if grad_mode._inference else "no_grad"
    if x._view_version is not None and x._view_made == "inference":
        made = "inference"  # (torch's propagate_creation_meta: a view of such a view)
    outputs = []
    for number, array in enumerate(arrays):
        view = make(array, grad_fn=node, output_nr=number if node else 0,
                    version=version, base=base)
        view._view_version = version.value
        view._view_made = made
        outputs.append(view)
    return outputs


class UnbindBackward0(_SeveralViews):
    formula = Formula("y_k", "x[k] along dim, for every k (a tuple of views)",
                      grad={"x": "the G_k stacked along dim (zeros for unused outputs)"})

    def forward(self, x, dim, given):
        self.save(dim=given % 2**64, _dim=dim)
        index = (slice(None),) * dim
        return [x[index + (k, Ellipsis)] for k in range(x.shape[dim])]  # (views, 0-dim too)

    def backward(self, saved, *grads):
        # (torch's unbind_backward: zeros of the others' shape where no gradient came)
        grads = self._present(grads)
        like = next(g for g in grads if g is not None)
        return fn.stack([fn.zeros(like.shape, like) if g is None else g for g in grads],
                        saved._dim)


def _sliced(x, dim, sizes) -> list:
    """Views of ``x``, consecutive along ``dim``, of the given ``sizes`` (an empty one
    where torch has it in memory)."""
    index, start, views = (slice(None),) * dim, 0, []
    offset, step = layout.geometry(x)[2], x.strides[dim] // x.itemsize
    for size in sizes:
        view = x[index + (slice(start, start + size),)]
        views.append(layout.empty_view_at(view, x, offset + start * step) if view.size == 0
                     else view)
        start += size
    return views


def _cat_back(grads, sizes, dim, shape):
    """The outputs' gradients joined along ``dim``, zeros where none came (torch's
    split_with_sizes_backward)."""
    like = next(g for g in grads if g is not None)
    parts = [fn.zeros(shape[:dim] + (size,) + shape[dim + 1:], like) if g is None else g
             for g, size in zip(grads, sizes)]
    return fn.cat(parts, dim)


def _split_sizes(split_size: int, dim_size: int) -> list:
    """The sizes of ``split``'s parts: ``split_size`` each, the last one what is left."""
    count = max(-(-dim_size // split_size), 1) if split_size else 1
    return [split_size] * (count - 1) + [split_size - (split_size * count - dim_size)]


class SplitBackward0(_SeveralViews):
    formula = Formula("y_k", "x cut along dim into parts of split_size (the last may be shorter)",
                      grad={"x": "the G_k joined along dim (zeros for unused outputs)"})

    def forward(self, x, split_size, dim, given):
        self.save(dim=given % 2**64, _dim=dim, self_sym_sizes=x.shape, split_size=split_size)
        return _sliced(x, dim, _split_sizes(split_size, x.shape[dim]))

    def backward(self, saved, *grads):
        shape, dim = saved.self_sym_sizes, saved._dim
        return _cat_back(self._present(grads), _split_sizes(saved.split_size, shape[dim]),
                         dim, shape)


class SplitWithSizesBackward0(_SeveralViews):
    formula = Formula("y_k", "x cut along dim into parts of the given split_sizes",
                      grad={"x": "the G_k joined along dim (zeros for unused outputs)"})

    def forward(self, x, split_sizes, dim, given):
        self.save(dim=given % 2**64, _dim=dim, self_sym_sizes=x.shape, split_sizes=split_sizes)
        return _sliced(x, dim, split_sizes)

    def backward(self, saved, *grads):
        shape = saved.self_sym_sizes
        return _cat_back(self._present(grads), saved.split_sizes, saved._dim, shape)


class UnsafeSplitBackward0(SplitBackward0):
    # unsafe_split: split's parts, not views for autograd (see the top)
    is_view = False


class UnsafeSplitWithSizesBackward0(SplitWithSizesBackward0):
    # unsafe_split_with_sizes: split_with_sizes's parts, not views for autograd
    is_view = False


# ---- public functions ----------------------------------------------------------

def unbind(x, dim=0):
    """The slices of ``x`` along ``dim``, as a tuple of views: ``x.unbind(0)`` is
    ``(x[0], x[1], ...)``."""
    if x.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return UnbindBackward0.apply(x, dim=normalize_dim(dim, x.ndim), given=int(dim))


def split(x, split_size, dim=0, node=SplitBackward0):
    """``x`` cut along ``dim`` into views of ``split_size`` (the last one may be
    shorter); with a list of sizes, views of those sizes (``split_with_sizes``).
    (``node``: UnsafeSplitBackward0 for ``unsafe_split``.)"""
    if not isinstance(split_size, int):
        return split_with_sizes(x, split_size, dim)
    if x.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if split_size < 0:
        raise RuntimeError(
            f"split expects split_size be non-negative, but got split_size={split_size}")
    axis = normalize_dim(dim, x.ndim)
    if split_size == 0 and x.shape[axis]:
        raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {x.shape[axis]}")
    return node.apply(x, split_size=split_size, dim=axis, given=int(dim))


def split_with_sizes(x, split_sizes, dim=0, node=SplitWithSizesBackward0):
    """Views of ``x`` along ``dim`` of the given sizes (which must add up to its size)."""
    sizes = tuple(split_sizes)
    if x.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    axis = normalize_dim(dim, x.ndim)
    listed = "[" + ", ".join(map(str, sizes)) + "]"
    if any(size < 0 for size in sizes):
        raise RuntimeError("split_with_sizes expects split_sizes have only non-negative entries, "
                           f"but got split_sizes={listed}")
    if sum(sizes) != x.shape[axis]:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {x.shape[axis]} (input "
            f"tensor's size at dimension {dim}), but got split_sizes={listed}")
    return node.apply(x, split_sizes=sizes, dim=axis, given=int(dim))


def chunk(x, chunks, dim=0, unsafe=False):
    """``x`` cut along ``dim`` into ``chunks`` views of equal size (the last may be
    smaller, and there may be fewer): a ``split`` with size ceil(size / chunks)."""
    if x.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    dim_size = x.shape[normalize_dim(dim, x.ndim)]
    split_size = -(-dim_size // chunks)
    if split_size == 0 and dim_size == 0:  # (as torch: keep the number of chunks)
        return split_with_sizes(x, [0] * chunks, dim, node=UnsafeSplitWithSizesBackward0
                                if unsafe else SplitWithSizesBackward0)
    return split(x, split_size, dim, node=UnsafeSplitBackward0 if unsafe else SplitBackward0)


def unsafe_split(x, split_size, dim=0):
    """``split`` into parts that are not views for autograd (see the top)."""
    return split(x, split_size, dim, node=UnsafeSplitBackward0)


def unsafe_split_with_sizes(x, split_sizes, dim=0):
    """``split_with_sizes`` into parts that are not views for autograd."""
    return split_with_sizes(x, split_sizes, dim, node=UnsafeSplitWithSizesBackward0)


def unsafe_chunk(x, chunks, dim=0):
    """``chunk`` into parts that are not views for autograd."""
    return chunk(x, chunks, dim, unsafe=True)


def tensor_split(x, indices_or_sections, dim=0):
    """``x`` cut along ``dim`` into views, each a slice of its own (``SliceBackward0``):
    ``sections`` parts (an int: sizes differ by at most one, the larger first), or
    cut before each of the ``indices`` (a list; an index may be negative or past the
    end, as in a slice); a tensor of dtype long is its int (0-dim) or its indices."""

    if x.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    if is_tensor(indices_or_sections):
        given = indices_or_sections
        if given.dtype != dtypes.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {dtypes.SCALAR_NAMES[given.dtype]}")
        if given.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {given.ndim} dims")
        indices_or_sections = given._data.tolist()  # (an int when 0-dim)
    axis = normalize_dim(dim, x.ndim)
    size = x.shape[axis]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        smaller, larger = divmod(size, sections)
        ends = np.cumsum([smaller + (k < larger) for k in range(sections)]).tolist()
    else:
        ends = [int(i) for i in indices_or_sections] + [size]
    starts = [0] + ends[:-1]
    return tuple(indexing.slice_dim(x, axis, start, end, 1) for start, end in zip(starts, ends))

