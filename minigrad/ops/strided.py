"""Memory layout: strides, storage offsets, ``as_strided``, and what a view becomes
when the memory it looks into is changed in place.

A view (``x[0]``, ``x.t()``, ``x.view(6)``, ...) shares memory with its base. When
the base, or another view of it, is changed in place, the view's values change too,
so its old ``grad_fn`` (``SelectBackward0`` -> the base's old node) no longer says
how it was computed. PyTorch then rebuilds it, the first time it is asked for, as
``AsStridedBackward0``: "these elements of the base's memory", pointing to the
base's current node. ``regenerate_grad_fn`` does the same (``Tensor.grad_fn`` calls
it), and an in-place op on a view records ``CopySlices`` on the base
(``inplace.rebase``), whose backward uses the same geometry.

Strides and offsets are counted in elements, as torch counts them.
"""

from __future__ import annotations

import numpy as np

from .. import errors
from ..autograd.formula import Formula
from ..autograd.tensor_base import TensorBase, make
from ..autograd.node import Node
from ..autograd.saved import SavedTensor, forward_name
from ..kernels.layout import (
    as_strided_backward_of, as_strided_backward_plan, check_no_partial_overlap, contiguous_strides,
    empty_strided, geometry, in_iterator_layout, is_non_overlapping_and_dense, preserved_strides,
    strided_view, with_strides)
from ..rules.layout import check_as_strided
from . import fn
from . import indexing, inplace, reduction
from . import shape as shape_ops


def stride(x, dim=None):
    """``x.stride()``: how many elements to step in memory along each dim."""
    strides = geometry(x._data)[1]
    return strides if dim is None else strides[dim]


def storage_offset(x) -> int:
    return geometry(x._data)[2]


# ---- the layout of a new tensor ---------------------------------------------------
# NumPy gives every empty array zero strides, and a copy of an empty array forgets its
# layout; torch keeps strides on empty tensors too (a size-0 dim counts as 1).


def as_strided_backward_tensor(grad, base_geometry, size, strides, offset):
    """``as_strided_backward_of`` recorded as torch records it (create_graph=True):
    size-1 dims squeezed (SqueezeBackward1), stride-0 dims summed, zeros, the
    gradient copied into the viewed elements (CopySlices), the base's elements
    viewed (AsStridedBackward0)."""
    plan = as_strided_backward_plan(grad.ndim, base_geometry, size, strides, offset)
    if plan is None:
        return make(np.zeros(base_geometry[0], grad._data.dtype))
    reduce, length, out, out_overlaps, inp, inp_overlaps, base = plan
    for how, dim in reduce:
        grad = shape_ops.squeeze(grad, dim) if how == "squeeze" else reduction.sum(grad, dim)
    memory = make(np.zeros(length, grad._data.dtype))
    if out_overlaps:  # (torch: index_add_, IndexAddBackward0)
        positions = strided_view(np.arange(length), *out)
        memory = indexing.index_put_into(grad, (length,), (positions,))
    else:
        inplace.inplace(as_strided(memory, *out), inplace.copy, grad)
    if inp_overlaps:
        count = np.zeros(length, grad._data.dtype)
        np.add.at(count, strided_view(np.arange(length), *inp), 1)
        memory = memory / make(count)
    return as_strided(memory, *base)


class AsStridedBackward0(Node):
    formula = Formula("y",
                      "the elements of x's memory at storage_offset + sum(i_k * stride_k)",
                      grad={"x": "G added back at those elements"},
                      note=("What a view's grad_fn becomes once its base (or another view "
                            "of it) was changed in place: the view is then described by "
                            "where it sits in the base's memory."))

    is_view = True

    def forward(self, x, size, stride, storage_offset, given_offset=True):
        # (storage_offset shown None when not given, as torch keeps it)
        self.save(size=tuple(size), stride=tuple(stride),
                  storage_offset=storage_offset if given_offset else None,
                  _storage_offset=storage_offset, _self_geometry=geometry(x))
        return strided_view(x, size, stride, storage_offset)

    def backward(self, saved, grad):
        return fn.as_strided_backward(grad, saved._self_geometry, saved.size,
                                      saved.stride, saved._storage_offset)


def as_strided(x, size, stride, storage_offset=None):
    """``x.as_strided(size, stride, storage_offset)``: a view of ``x``'s memory."""
    given = storage_offset is not None
    if not given:
        storage_offset = geometry(x._data)[2]
    check_as_strided(x._data, tuple(size), tuple(stride), int(storage_offset))
    return AsStridedBackward0.apply(x, size=tuple(size), stride=tuple(stride),
                                    storage_offset=int(storage_offset), given_offset=given)


class AsStridedBackward1(AsStridedBackward0):
    formula = Formula("y", "x.as_strided_(size, stride, storage_offset): x's memory seen "
                      "anew, in place", grad={"x": "G added back at those elements"})


def as_strided_(x, size, stride, storage_offset=None):
    """``x.as_strided_(...)``: x itself takes the view's shape and strides."""
    inplace.check_inplace(x)
    given = storage_offset is not None
    if not given:
        storage_offset = geometry(x._data)[2]
    check_as_strided(x._data, tuple(size), tuple(stride), int(storage_offset))
    return shape_ops._change_layout(x, AsStridedBackward1, size=tuple(size), stride=tuple(stride),
                                    storage_offset=int(storage_offset), given_offset=given)


def as_strided_node(base, view_array: np.ndarray) -> AsStridedBackward0:
    """A recorded ``AsStridedBackward0`` from ``base`` to the view ``view_array``."""
    size, strides, offset = geometry(view_array)
    node = object.__new__(AsStridedBackward0)
    node._saved, node._forward_args = {}, None
    node.save(size=size, stride=strides, storage_offset=offset, _storage_offset=offset,
              _self_geometry=geometry(base._data))
    node._link((base,), None)
    return node


def regenerate_grad_fn(view) -> None:
    """``view``'s node after its memory was changed in place (see the module
    docstring): as PyTorch, an ``AsStridedBackward0`` from the base's current node,
    made once per change; the view's ``retain_grad`` moves to it."""
    base = view._base
    old = view._grad_fn
    if old is None and not base._requires_grad:
        return  # (the change is still to be seen if the base comes to require grad: torch)
    if view._view_made != "grad mode":  # (torch refuses, at every reading)
        raise RuntimeError(errors.view_changed_in_place(
            view._view_made, forward_name(old) if old is not None else None, view._output_nr,
            indirect=True))
    view._view_version = view._version_cell.value
    node = as_strided_node(base, view._data)
    move_retain_grad(view, old, view._output_nr, node)
    view._grad_fn = node
    view._output_nr = 0
    view._requires_grad = True


def move_retain_grad(tensor, old, old_nr: int, new) -> None:
    """A tensor's ``retain_grad()`` follows it from its node ``old`` (where it was
    output ``old_nr``) to its new node, output 0, as torch's
    update_tensor_hooks_on_new_gradfn does; hooks stay with the old node."""
    if old is None or not old._retains_grad:
        return
    ref = old._retains_grad.get(old_nr)
    if ref is not None and ref() is tensor:
        del old._retains_grad[old_nr]
        if new._retains_grad is None:
            new._retains_grad = {}
        new._retains_grad[0] = ref


# ---- the layout of an elementwise result ----------------------------------------


