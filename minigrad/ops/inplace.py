"""In-place operations: ``add_``, ``mul_``, ``zero_``, ``x += 1``, ...

Inside ``no_grad`` they simply change the data (that is how a manual SGD
step updates weights). Outside it:

* on a leaf that requires grad they are refused (PyTorch's error): its
  ``.grad`` would no longer be the gradient of anything;
* on other tensors the op is recorded: the tensor's ``grad_fn`` becomes the
  op's node (``AddBackward0`` for ``add_``);
* on a view (``y[0].mul_(2)``) the op is recorded on the view's base, whose
  ``grad_fn`` becomes ``CopySlices`` (the op's node, applied to the viewed part
  of the gradient); the view's becomes ``AsStridedBackward0``, as do those of the
  base's other views when next asked (see ``strided``).

Every in-place change increments the tensor's version counter, so a
backward that needs the old value fails loudly instead of silently using
the new one.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import dtypes, errors
from ..autograd import forward_ad, grad_mode, inference, mutation
from ..autograd.broadcast import broadcast_shapes, has_internal_overlap
from ..autograd.engine import RefusingNode
from ..autograd.formula import Formula
from ..autograd.node import Node, _sequence
from ..autograd.saved import SavedTensor, forward_name
from ..rules.conversion import as_tensor, checked_fill_value, checked_scalar
from ..rules import out as out_rules
from ..rules.arguments import refused_operand
from ..rules.promotion import NUMBER_TYPES
from . import fn, limits, pointwise
from . import shape as shape_ops
from ..kernels.layout import check_no_partial_overlap, element_by_element, geometry
from . import strided
from ..autograd.tensor_base import is_tensor, make

__all__ = ["counted", "inplace", "check_inplace", "rebase", "rebase_history", "zeros_like_op",
           "fill", "copy", "copied", "CopySlices", "masked_fill_"]


class ZeroBackward0(Node):
    formula = Formula("y", "zeros like x", d={"x": "0"})

    def forward(self, x):
        return np.zeros_like(x)

    def backward(self, saved, grad):
        return _zeros_like(grad)


class FillBackward2(Node):
    formula = Formula("y", "x with every element set to value", d={"x": "0"})

    def forward(self, x, value):
        return np.full_like(x, value)

    def backward(self, saved, grad):
        return _zeros_like(grad)


class FillBackward3(Node):
    formula = Formula("y",
                      "x with every element set to a 0-dim tensor's value",
                      d={"x": "0"},
                      grad={"value": "the sum of G"})

    def forward(self, x, value):
        return np.full_like(x, value)

    def backward(self, saved, grad):
        grad_x = _zeros_like(grad) if self.needs_input_grad[0] else None
        grad_value = fn.sum(grad) if self.needs_input_grad[1] else None
        return grad_x, grad_value


class CopyBackwards(Node):
    formula = Formula("y", "src copied into self's memory", d={"self": "0", "src": "1"})

    def forward(self, x, src):
        return np.broadcast_to(src, x.shape).astype(x.dtype, copy=True)

    def backward(self, saved, grad):
        return _zeros_like(grad) if self.needs_input_grad[0] else None, grad

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"


def _zeros_like(grad):
    """The gradient of an overwritten value: zeros (+0, even where grad is -1 or NaN)."""
    return fn.zeros(grad.shape, grad)


def zeros_like_op(x):
    return ZeroBackward0.apply(x)


def fill(x, value):
    if is_tensor(value):
        if value.ndim:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value.ndim} dimensions."
            )
        return FillBackward3.apply(x, value, cast_to=x.dtype)
    if not isinstance(value, (*NUMBER_TYPES, complex)):  # (a dtype, a str, None, a list)
        return NotImplemented  # (inplace raises its parser's error)
    return FillBackward2.apply(x, value=checked_fill_value(value, x.dtype, x._data.size))


def copy(x, src):
    src = as_tensor(src)
    if broadcast_shapes(x.shape, src.shape) != x.shape:
        raise RuntimeError(
            f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the "
            f"broadcast shape [{', '.join(map(str, broadcast_shapes(x.shape, src.shape)))}]"
        )
    return copied(x, src)


def copied(x, src, cast_to=None):
    """``src`` copied into x's shape and dtype: ``CopyBackwards``, recorded only when
    ``x`` has gradients of its type. PyTorch's copy_ into an integer or bool tensor
    records nothing (``requires_grad &= isDifferentiableType(self)``; ``fill_`` has no
    such rule, and records)."""
    if x.dtype.is_floating_point:
        return CopyBackwards.apply(x, src, cast_to=cast_to)
    with grad_mode.no_grad():
        return CopyBackwards.apply(x, src, cast_to=cast_to)


def check_inplace(x, *others) -> None:
    """Refuse in-place changes that would corrupt gradients (PyTorch's rules), in
    torch's order: a view made under no_grad (or from one) or by a custom Function,
    when the change would be recorded (``others``: the op's other operands); a leaf
    that requires grad; a view of one. (An inference tensor changed outside inference
    mode is refused after the change, when its version moves on: ``counted``.)"""
    if not grad_mode.is_grad_enabled():
        return
    if inference.inference_tensors and inference.is_inference(x):
        return  # (torch keeps no autograd record of an inference tensor: nothing to refuse)
    if x._view_version is not None and x._view_made != "grad mode" and (
            x.requires_grad or any(getattr(value, "requires_grad", False) for value in others)):
        node = x._grad_fn
        raise RuntimeError(errors.view_changed_in_place(
            x._view_made, forward_name(node) if node is not None else None, x._output_nr,
            indirect=False))
    if not x.requires_grad:
        return
    # (torch asks about the view's base first: a view of a leaf, even of one that does
    # not require grad, made to require grad itself by requires_grad_())
    if x._view_version is not None and x._base.grad_fn is None:
        raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
    if x.grad_fn is None:
        raise RuntimeError(errors.LEAF_INPLACE)


def counted(x) -> None:
    """One more in-place change of ``x``: its version moves on. An inference tensor
    outside inference mode has none to move, and PyTorch raises here, after the change
    was written (so the tensor has changed all the same)."""
    if not inference.enabled and inference.inference_tensors and inference.has_no_version(x):
        raise RuntimeError(errors.INFERENCE_INPLACE)
    if not inference.enabled and inference.versionless and inference.is_versionless(x):
        raise RuntimeError(errors.INFERENCE_INPLACE)  # (t.data = ... of an inference tensor)
    x._version_counter.value += 1


def rebase(x, result, overlap_ok: bool = False, where=True) -> None:
    """Write ``result`` into ``x``'s memory and make ``x`` the op's output.

    An ``x`` whose elements share memory (an expanded tensor) is refused, as torch
    refuses it, unless the op only fills (``overlap_ok``: ``zero_``, ``fill_(number)``),
    which writes one value everywhere. ``where``: a mask of the elements to write
    (for an index_put_ into an expanded tensor, whose other elements alias them).

    When ``x`` is a view, the change is recorded on its base, as PyTorch records it:
    the base's node becomes ``CopySlices`` (the op's node applied to the viewed
    elements), and ``x`` gets ``AsStridedBackward0`` from there."""
    if not overlap_ok and has_internal_overlap(x._data):
        raise RuntimeError(errors.INTERNAL_OVERLAP)
    mutation.before_write(x)
    try:
        np.copyto(x._data, result._data, casting="unsafe", where=where)
    except ValueError:  # read-only memory (a wrapped Python number, shared by graphs)
        raise RuntimeError(errors.INTERNAL_OVERLAP) from None
    counted(x)
    if forward_ad.active:  # (a dual tensor's tangent changes with it)
        forward_ad.move_tangent(result, x)
    if result._grad_fn is not None:
        rebase_history(x, result._grad_fn, result._output_nr)
        _save_result_as(result._grad_fn, result, x)


def write_refused_out(function: str, result, out, *inputs):
    """``out=`` of an op PyTorch has no derivative for (``floor_divide``, ``heaviside``: a
    ``NotImplemented`` node): PyTorch's autograd takes it, and ``out`` becomes the node's
    output, as after an in-place op; only an ``out`` that requires grad is refused."""
    if out is None:
        return result
    if grad_mode.is_grad_enabled() and is_tensor(out) and out.requires_grad:
        raise RuntimeError(errors.OUT_REQUIRES_GRAD.format(function="aten::" + function))
    out_rules.write(function, result, out, *inputs, differentiable=False)
    if result._grad_fn is not None:
        rebase_history(out, result._grad_fn, result._output_nr)
    return out


def rebase_history(x, node, output_nr: int) -> None:
    """Make ``x``, just changed in place, output ``output_nr`` of ``node``; a view's
    change is recorded on its base (CopySlices), the view's node made again from it."""
    if x._view_version is not None:
        base = x._base
        through_view = copy_slices(base, x._data, node)
        strided.move_retain_grad(base, base._grad_fn, base._output_nr, through_view)
        base._grad_fn, base._output_nr, base._requires_grad = through_view, 0, True
        strided.regenerate_grad_fn(x)
    else:
        strided.move_retain_grad(x, x._grad_fn, x._output_nr, node)
        x._grad_fn, x._output_nr, x._requires_grad = node, output_nr, True


def _save_result_as(node, result, x) -> None:
    """A node that saved its result (``exp_`` saves it) saved the temporary ``result``:
    it is ``x`` from now on, so that changing ``x`` again is caught at backward. (For
    a view, torch's error then names the view's node while it is alive.)"""
    for saved in node._saved.values():
        if type(saved) is SavedTensor and saved.tensor is None and saved.data is result._data:
            saved.data, saved.version = x._data, x._version_counter
            saved.saved_version = x._version_counter.value
            if x._view_version is not None:
                saved.output_nr = 0
                saved.view_grad_fn = weakref.ref(x._grad_fn)


class CopySlices(Node):
    formula = Formula("base",
                      "base with an in-place op fn applied to a view of it",
                      grad={"base": "G, where the view is: fn's gradient for the view",
                            "others": "fn's gradients for its other inputs"},
                      note=("``y[0] = v``, ``y[0].mul_(2)``, ``y.t().add_(1)``: an in-place "
                            "change through a view. The view's elements are found by "
                            "their place in the base's memory."))

    formula_on_arrays = False  # (it runs fn, another node, on the view's part of G)

    def release_saved(self) -> None:
        if self.fn is not None:
            self.fn.release_saved()
        self.fn = None  # (as torch lets go of it: a second backward fails)

    def backward(self, saved, grad):
        if self.fn is None:
            raise RuntimeError(errors.BACKWARD_TWICE)
        result, grad_slice = _view_of_grad(grad, self.base_geometry, self.view_geometry)
        grads = self.fn(shape_ops.CloneBackward0.apply(grad_slice, contiguous=True))
        if not isinstance(grads, tuple):
            grads = (grads,)
        if grads[0] is None:
            return (None,) + grads[1:]
        inplace(grad_slice, copy, grads[0])  # (the view's part of G replaced by fn's)
        return (result,) + grads[1:]

    def name(self) -> str:
        return "torch::autograd::CopySlices"


def copy_slices(base, view_array, fn: Node) -> CopySlices:
    """The node for ``fn`` (the in-place op's node, input 0 the view) applied
    through a view (``view_array``) of ``base``: its edges are the base's, then
    ``fn``'s other inputs'."""
    node = CopySlices()
    node._sequence_nr = next(_sequence)
    node.base_geometry, node.view_geometry = geometry(base._data), geometry(view_array)
    node.fn = fn
    if base._requires_grad:
        first, meta = base._gradient_edge(), (base._data.shape, base._data.dtype)
    else:
        first, meta = (None, 0), None
    node.next_functions = (first,) + fn.next_functions[1:]
    node.needs_input_grad = (meta is not None,) + fn.needs_input_grad[1:]
    node._input_meta = (meta,) + fn.keep_input_meta(view_array)[1:]
    return node


def _view_of_grad(grad, base_geometry, view_geometry):
    """G copied into a tensor laid out as the base, and the view's elements of it (as
    torch does it)."""
    sizes, strides, base_offset = base_geometry
    view_sizes, view_strides, view_offset = view_geometry
    result = inplace(empty_strided(sizes, strides, grad), copy, grad)
    return result, strided.as_strided(result, view_sizes, view_strides, view_offset - base_offset)


def empty_strided(sizes, strides, like):
    """An uninitialised tensor with these sizes and strides (``like``'s dtype)."""
    itemsize = like._data.itemsize
    memory = np.empty(max(1, sum((n - 1) * s for n, s in zip(sizes, strides)) + 1)
                      if 0 not in sizes else 0, like._data.dtype)
    return make(np.lib.stride_tricks.as_strided(
        memory, tuple(sizes), tuple(s * itemsize for s in strides)))


def _snapshot(x):
    snapshot = make(x._data.copy())
    if forward_ad.active:
        forward_ad.share_tangent(x, snapshot)
    return snapshot


def clone(x):
    return shape_ops.clone(x)


_CPP_NAMES = {dtypes.bool: "bool", dtypes.uint8: "unsigned char", dtypes.int8: "signed char",
              dtypes.int16: "short int", dtypes.int32: "int", dtypes.int64: "long int"}


def masked_fill_(x, mask, value):
    """``x.masked_fill_(mask, value)``. Into an expanded ``x`` (elements sharing memory)
    torch still writes, with a warning: each element where ``mask`` is True. In PyTorch's
    order: autograd's refusals, the value's and the mask's, the warning, the shapes."""
    overlapping = has_internal_overlap(x._data)
    if is_tensor(mask):
        check_inplace(x, value)
        pointwise.check_masked_fill(mask, value)
        if not overlapping:  # (x and the mask in this order: torch's text names x as a)
            broadcast_shapes(x.shape, mask.shape)
    if not overlapping:
        return inplace(x, pointwise.masked_fill, mask, value)
    check_inplace(x, value)  # (autograd's refusals first, then the kernel's warning)
    errors.warn(errors.EXPANDED_WRITE_WARNING.format(op="masked_fill_", index="mask",
                                                     value="scalar"), UserWarning, stacklevel=3)
    if is_tensor(mask):
        broadcast_shapes(x.shape, mask.shape)
    written = np.broadcast_to(as_tensor(mask)._data, x.shape)
    return inplace(x, pointwise.masked_fill, mask, value, where=written)


_CLAMPS = (pointwise.clamp, limits.clamp_min, limits.clamp_max)
_ELEMENTWISE = {f"minigrad.ops.{name}" for name in
                ("arithmetic", "pointwise", "rounding", "compare", "trig", "special", "aliases")}


def _operands(args) -> tuple:
    """The tensors and numbers among an op's arguments (not a rounding mode's name)."""
    return tuple(a for a in args if is_tensor(a) or isinstance(a, (bool, int, float)))


def _check_result_casts(x, result_dtype, by_number: bool = False) -> None:
    """torch's canCast: a result of a higher kind (float into int, int into bool) is
    refused, with the C++ type's name where a clamp's number bounds decided it."""
    if result_dtype.category > x.dtype.category:
        names = _CPP_NAMES if by_number else dtypes.SCALAR_NAMES
        raise RuntimeError(
            f"result type {dtypes.SCALAR_NAMES[result_dtype]} can't be cast to the desired "
            f"output type {names[x.dtype]}")


def _check_broadcast_fits(x, args) -> None:
    """torch's error for an in-place op whose tensor operands broadcast past ``x``'s shape."""
    try:
        shape = np.broadcast_shapes(x.shape, *(a.shape for a in args if is_tensor(a)))
    except ValueError:
        return
    if shape != tuple(x.shape):
        raise RuntimeError(f"output with shape [{', '.join(map(str, x.shape))}] doesn't match "
                           f"the broadcast shape [{', '.join(map(str, shape))}]")


def _same_data(x, src) -> bool:
    """ATen's copy_ returns at once when src is x or a view of the same memory with the
    same offset, sizes, strides and dtype (before its check of x's memory)."""
    if src is x:
        return True
    if not is_tensor(src):
        return False
    a, b = x._data, src._data
    return a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides \
        and a.ctypes.data == b.ctypes.data


def inplace(x, op, *args, where=None):
    """Apply ``op(x, *args)`` and store the result in ``x`` itself (``where``: only
    there, into an expanded ``x``: see masked_fill_)."""
    check_inplace(x, *args)
    if op is not fill:
        for value in args:
            if is_tensor(value):
                check_no_partial_overlap(x._data, value._data)
    # The op reads a copy of x, so what it saves for backward (x * w saves x) is
    # the value x had before the change, and x itself moves on to a new version.
    # As torch's "original self", the copy is a recorded clone (CloneBackward0,
    # seen by a second backward), while the op's node takes the gradient edge of
    # x itself.
    in_turn = None if op is fill or where is not None else \
        element_by_element(x._data, [value._data for value in args if is_tensor(value)])
    before = None if in_turn is None else x._data.copy()
    recording = grad_mode.is_grad_enabled() and any(
        getattr(value, "requires_grad", False) for value in (x, *args))
    if recording and x.requires_grad:
        source = clone(x)
    else:
        source = _snapshot(x) if recording else x
    # (a fill writes one value everywhere; copying a tensor into itself, or a view of the
    # same data laid out the same (another expand of it, its .data), torch skips)
    overlap_ok = op is zeros_like_op or (op is fill and not is_tensor(args[0])) \
        or (op is copy and _same_data(x, args[0])) or where is not None
    try:
        result = op(source, *args)
        if result is NotImplemented:  # (an operand neither a tensor nor a number)
            raise refused_operand(op.__name__ + "_", args)
    except NotImplementedError:  # (a kernel refusing the dtype: after the broadcast shape
        module = getattr(op, "__module__", None)  # and, for the bitwise ops, which promote,
        if module in _ELEMENTWISE:  # the cast back into x; x's memory before all)
            if not overlap_ok and has_internal_overlap(x._data):
                raise RuntimeError(errors.INTERNAL_OVERLAP) from None
            _check_broadcast_fits(x, args)
        if module == "minigrad.ops.compare":
            _check_result_casts(x, dtypes.result_type(x, *_operands(args)))
        raise
    except RuntimeError as error:  # (torch's iterator checks x's memory, then the broadcast
        # shape, then runs the kernel (an integer division by zero); the ops' own argument
        # checks come before it)
        if str(error) == "ZeroDivisionError" or str(error).startswith("The size of tensor"):
            if not overlap_ok and has_internal_overlap(x._data):
                raise RuntimeError(errors.INTERNAL_OVERLAP) from None
        if str(error) == "ZeroDivisionError" and getattr(op, "__module__", None) in _ELEMENTWISE:
            _check_broadcast_fits(x, args)
            _check_result_casts(x, dtypes.result_type(x, *_operands(args)))
        raise
    number_clamp = op in _CLAMPS and not any(map(is_tensor, args))
    if number_clamp:  # (clamp's own checks come first: the cast of its result into x)
        _check_result_casts(x, result.dtype, True)
    if not overlap_ok and has_internal_overlap(x._data):  # (before the shape and the dtype)
        raise RuntimeError(errors.INTERNAL_OVERLAP)
    if source is not x and source._grad_fn is not None and result._grad_fn is not None:
        node, original = result._grad_fn, source._grad_fn
        node.next_functions = tuple(x._gradient_edge() if next_node is original else
                                    (next_node, nr) for next_node, nr in node.next_functions)
        # (torch makes the op's node first, then the clone: so are they numbered; its
        # NotImplemented keeps UINT64_MAX, the leaves', see engine.RefusingNode)
        if not isinstance(node, RefusingNode):
            node._sequence_nr, original._sequence_nr = original._sequence_nr, node._sequence_nr
    if isinstance(result._grad_fn, RefusingNode):  # (its error names the in-place op:
        result._grad_fn.operation += "_"  # "derivative for aten::floor_divide_ ...")
    if result.shape != x.shape:
        raise RuntimeError(
            f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the "
            f"broadcast shape [{', '.join(map(str, result.shape))}]"
        )
    # (clamp_ with number bounds names the output's C++ type: 'long int')
    _check_result_casts(x, result.dtype, number_clamp)
    rebase(x, result, overlap_ok=True, where=True if where is None else where)  # (checked)
    if in_turn is not None:
        _in_turn(x, op, args, before, in_turn)
    return x


def _in_turn(x, op, args, before, order) -> None:
    """``x``'s values written again element by element in ``order``, from ``before`` (its
    values before the op), each reading its operands' memory as it is then: torch's loop
    over a tensor whose fastest dim is not contiguous, where an operand is another part of
    the same memory (see kernels.layout.element_by_element)."""
    x._data[...] = before
    operands = [np.broadcast_to(value._data, x.shape) if is_tensor(value) else value
                for value in args]
    with grad_mode.no_grad():
        for index in order:
            element = op(make(x._data[index].copy()), *[
                make(value[index].copy()) if isinstance(value, np.ndarray) else value
                for value in operands])
            x._data[index] = element._data
