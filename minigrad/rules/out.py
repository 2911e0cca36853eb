"""``out=``: a result written into a tensor the caller gives, as PyTorch does it.

``out`` takes the result's values, cast to its own dtype where PyTorch casts (never a
float into an integer tensor), is resized (with PyTorch's warning when it had
elements) if its shape differs, and its version goes up, as after an in-place op. A
result that would need a gradient cannot go into ``out``: ``out=`` is not
differentiable, in PyTorch as here.
"""

from __future__ import annotations

import builtins

import numpy as np

from .. import dtypes, errors
from ..autograd import grad_mode
from ..autograd.tensor_base import TensorBase
from ..kernels.layout import (check_no_partial_overlap, contiguous_strides, empty_strided,
                             preserved_strides)
from ..dtypes import C_TYPE_NAMES
from .return_types import return_type

__all__ = ["write", "check_bool_out", "check_kept_dtype_out", "check_signbit_out",
           "check_histc_out", "check_matmul_out"]


def _can_cast(source: dtypes.dtype, target: dtypes.dtype) -> bool:
    """PyTorch's canCast: never a float into an integer, nor a number into a bool."""
    if source.is_floating_point and not target.is_floating_point:
        return False
    return source is dtypes.bool or target is not dtypes.bool


def _size_text(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


# The functions PyTorch computes with its TensorIterator: an out= it resizes takes the
# strides the iterator gives the result (a transposed input's order of dims).
ELEMENTWISE = frozenset("""abs acos acosh add addcdiv addcmul angle asin asinh atan atan2 atanh
    bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor ceil
    clamp clamp_max clamp_min copysign cos cosh deg2rad digamma div eq erf erfc erfinv exp exp2
    expm1 float_power floor floor_divide fmax fmin fmod frac gcd ge gt hardshrink heaviside hypot
    i0 igamma igammac isneginf isposinf lcm ldexp le lerp lgamma log log10 log1p log2 logaddexp
    logaddexp2 logical_and logical_not logical_or logical_xor logit lt maximum minimum mul
    nan_to_num ne neg nextafter polygamma pow rad2deg reciprocal remainder round rsqrt sgn
    sigmoid sign signbit sin sinc sinh special_entr special_erfcx special_i0e special_i1
    special_i1e special_log_ndtr special_modified_bessel_i0 special_ndtri
    special_xlog1py special_zeta sqrt square sub tan tanh trunc where xlogy""".split())


def _write_into(function: str, result: TensorBase, out, inputs, exact_dtype: bool,
                resize_warning: str | None = errors.OUT_RESIZED, same_dtype: bool = False) -> None:
    if not isinstance(out, TensorBase):
        raise TypeError(f"{function}(): argument 'out' must be Tensor, "
                        f"not {type(out).__name__}")
    if same_dtype and out.dtype is not result.dtype:  # (ops that keep their input's dtype)
        if function == "nan_to_num":
            raise RuntimeError(f"nan_to_num: dtype of out: {dtypes.SCALAR_NAMES[out.dtype]} should "
                               f"be same as input: {dtypes.SCALAR_NAMES[result.dtype]}")
        raise RuntimeError(f"Found dtype {dtypes.SCALAR_NAMES[out.dtype]} but expected "
                           f"{dtypes.SCALAR_NAMES[result.dtype]}")
    if exact_dtype and out.dtype is not result.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {C_TYPE_NAMES[result.dtype]}, "
                           f"but got {C_TYPE_NAMES[out.dtype]} instead")
    if not _can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {dtypes.SCALAR_NAMES[result.dtype]} can't be cast "
                           f"to the desired output type {dtypes.SCALAR_NAMES[out.dtype]}")
    for tensor in inputs:
        if isinstance(tensor, TensorBase):
            check_no_partial_overlap(out._data, tensor._data)
    if out.shape != result.shape:
        if out.numel() and resize_warning:
            errors.warn_at_caller(
                resize_warning.format(
                    old=_size_text(out.shape), new=_size_text(result.shape),
                    numel=out.numel(), count=result.numel(), shape=tuple(result.shape)))
        # (torch's resize_: row-major; an elementwise op's iterator then gives the out it
        # resized its own strides, those of the result)
        strides = preserved_strides(result._data) if result.numel() and \
            function in ELEMENTWISE else contiguous_strides(result.shape)
        out._replace_data(empty_strided(result.shape, strides, out.dtype.numpy))
    np.copyto(out._data, result._data, casting="unsafe")
    out._bump_version()


def write(function: str, result, out, *inputs, differentiable: bool = True,
         exact_dtype: bool = False, resize_warning: str | None = errors.OUT_RESIZED,
         same_dtype: bool = False):
    """``result``, or with ``out=`` given, ``out`` holding it (see the module docstring;
    ``same_dtype``: an op that keeps its input's dtype wants an ``out`` of that dtype)."""
    if out is None:
        return result
    if differentiable:
        check_differentiable_out(function, out if isinstance(result, tuple) else (out,), inputs)
    if not isinstance(result, tuple):
        _write_into(function, result, out, inputs, exact_dtype, resize_warning, same_dtype)
        return out
    if not isinstance(out, (tuple, list)) or len(out) != len(result):
        raise TypeError(f"{function}(): argument 'out' must be tuple of Tensors, "
                        f"not {type(out).__name__}")
    for part, target in zip(result, out):  # (values, indices): the indices' dtype is exact
        _write_into(function, part, target, inputs,
                    exact_dtype=exact_dtype or part.dtype is dtypes.int64)
    return _return_types_out(function, getattr(result, "_fields", ("values", "indices")))(*out)


def check_differentiable_out(function: str, outs, inputs) -> None:
    """torch's autograd refuses ``out=`` when a tensor involved requires grad (before the
    op runs: ``add(x, y, out=o)`` says so before it sees that x and y do not broadcast)."""
    if grad_mode.is_grad_enabled() and builtins.any(
            isinstance(t, TensorBase) and t.requires_grad for t in (*inputs, *outs)):
        raise RuntimeError(errors.OUT_REQUIRES_GRAD.format(function=function))


def check_kept_dtype_out(function: str, out, input, differentiable: bool = True) -> None:
    """floor, ceil, trunc, round, frac, abs, bitwise_not: ops that keep their input's dtype
    refuse an ``out`` of another one before their kernel sees the input's dtype (floor of a
    bool into a float out: "Found dtype Float but expected Bool", not floor's "not
    implemented for 'Bool'"); autograd's refusal of out= comes first, where the op has a
    derivative."""
    if isinstance(out, TensorBase) and isinstance(input, TensorBase) and out.dtype is not input.dtype:
        if differentiable:
            check_differentiable_out(function, (out,), (input,))
        raise RuntimeError(f"Found dtype {dtypes.SCALAR_NAMES[out.dtype]} but expected "
                           f"{dtypes.SCALAR_NAMES[input.dtype]}")


def check_signbit_out(out) -> None:
    """signbit writes only into a bool ``out``."""
    if isinstance(out, TensorBase) and out.dtype is not dtypes.bool:
        raise RuntimeError("signbit does not support non-boolean outputs.")


def check_histc_out(input, out) -> None:
    """histc writes only into an ``out`` of its input's dtype (checked before its bins)."""
    if isinstance(out, TensorBase) and isinstance(input, TensorBase) and out.dtype is not input.dtype:
        raise RuntimeError("torch.histogram: input tensor and hist tensor should have the same "
                           f"dtype, but got input {C_TYPE_NAMES[input.dtype]} and hist "
                           f"{C_TYPE_NAMES[out.dtype]}")


def check_matmul_out(function: str, out, a, b) -> None:
    """mm and matmul with ``out=``, as torch checks them: autograd's refusal first, then
    (once the shapes fit) the out's dtype as the path matmul takes wants it, before the
    kernel reads the operands' dtypes (a bool product into a half out: torch's text, not
    the kernel's "not implemented")."""
    if not (isinstance(out, TensorBase) and isinstance(a, TensorBase) and isinstance(b, TensorBase)):
        return
    check_differentiable_out(function, (out,), (a, b))
    if function == "mm" and (a.ndim != 2 or b.ndim != 2):
        return
    names = dtypes.SCALAR_NAMES
    if a.ndim == 1 and b.ndim == 1:  # (dot)
        if a.shape == b.shape and out.dtype is not a.dtype:
            raise RuntimeError(f"result dtype {names[out.dtype]} does not match input dtype "
                               f"{names[a.dtype]}")
    elif a.ndim == 2 and b.ndim == 1:  # (addmv, out as its self)
        if a.shape[1] == b.shape[0] and not out.dtype is a.dtype is b.dtype:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                               f"{names[out.dtype]}, {names[a.dtype]}, and {names[b.dtype]}")
    elif a.ndim >= 2 and (b.ndim == 2 or b.ndim >= 3 and a.shape[:-2] == b.shape[:-2]) \
            and a.shape[-1] == b.shape[-2]:
        wanted = a.dtype if b.ndim == 2 else b.dtype  # (mm's out: the first's; bmm's: the second's)
        if out.dtype is not wanted:
            raise RuntimeError(f"Expected out tensor to have dtype {C_TYPE_NAMES[wanted]}, but got "
                               f"{C_TYPE_NAMES[out.dtype]} instead")


def check_bool_out(function: str, out) -> None:
    """all() and any() write only into bool (or uint8) tensors."""
    if isinstance(out, TensorBase) and out.dtype not in (dtypes.bool, dtypes.uint8):
        raise RuntimeError(f"{function} only supports bool tensor for result, "
                           f"got: {dtypes.SCALAR_NAMES[out.dtype]}")


def _return_types_out(function: str, fields=("values", "indices")):
    """torch.return_types.max_out: the (values, indices) pair of a call with out= (or the
    result's own fields: slogdet_out's sign and logabsdet)."""
    if function not in _RETURN_TYPES_OUT:
        _RETURN_TYPES_OUT[function] = return_type(f"{function}_out", fields)
    return _RETURN_TYPES_OUT[function]


_RETURN_TYPES_OUT: dict = {}
