"""The dtype errors of the two- and three-operand math functions (ops/special.py,
ops/trig.py), with PyTorch's texts beside their conditions: kernels that exist for
floats only, and functions that take no mixed dtypes (``lerp``, ``heaviside``)."""

from __future__ import annotations

from .. import dtypes
from ..autograd import grad_mode
from ..autograd.broadcast import broadcast_shapes
from ..autograd.tensor_base import is_tensor

__all__ = ["check_floating", "check_lerp", "check_heaviside", "check_float_power_",
           "check_addc", "check_addc_kernel", "check_polygamma", "inplace_accumulate_dtype",
           "check_batch_norm_dtypes", "check_differentiable_dtype"]


def check_floating(kernel: str, a, b) -> None:
    """``hypot``, ``logaddexp``...: PyTorch's kernels exist for floats only (checked
    after the shapes, as torch's TensorIterator does)."""
    if is_tensor(a) and is_tensor(b):
        broadcast_shapes(a.shape, b.shape)
    dtype = dtypes.result_type(a, b)
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[dtype]}'")


def check_lerp(start, end, weight):
    """end (and a weight tensor of more than 0 dimensions) in start's dtype; a 0-dim
    weight tensor of any dtype takes part in the promotion (uint8 start and end with
    tensor(0.5) give float32); floats only. The dtype lerp computes in."""
    for name, value in (("end", end), ("weight", weight)):
        if is_tensor(value) and value.dtype is not start.dtype and \
                not (name == "weight" and value.ndim == 0):
            raise RuntimeError(f"expected dtype {dtypes.C_TYPE_NAMES[start.dtype]} for "
                               f"`{name}` but got dtype {dtypes.C_TYPE_NAMES[value.dtype]}")
    dtype = dtypes.result_type(start, end, weight) if is_tensor(weight) else start.dtype
    if not dtype.is_floating_point:
        broadcast_shapes(start.shape, end.shape, *([weight.shape] if is_tensor(weight) else []))
        kernel = "lerp_kernel_tensor" if is_tensor(weight) else "lerp_kernel_scalar"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.SCALAR_NAMES[dtype]}'")
    return dtype


def check_heaviside(x, values) -> None:
    if x.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def check_float_power_(base) -> None:
    """``x.float_power_(e)`` writes a float64 result into x: x must be float64."""
    if base.dtype is not dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype "
                           f"{dtypes.SCALAR_NAMES[base.dtype]} but the operation's result "
                           f"requires dtype Double")


def check_addc(name: str, dtype, tensor1, tensor2) -> None:
    """``addcdiv``: no integer (or bool) tensor1 and tensor2 together, whatever self is
    (PyTorch's text, before the shapes are checked); then (``check_addc_kernel``) no
    kernel for bool, after the shapes."""
    if name == "addcdiv" and not (tensor1.dtype.is_floating_point
                                  or tensor2.dtype.is_floating_point):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
            ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")


def check_addc_kernel(name: str, dtype) -> None:
    if dtype is dtypes.bool:
        raise NotImplementedError(f'"{name}_cpu_out" not implemented for \'Bool\'')


def check_polygamma(n) -> None:
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")


def inplace_accumulate_dtype(x, dtype):
    """``cumsum_``/``cumprod_``: PyTorch writes ``cumsum(x, dtype=...)`` into x itself, so
    it computes in x's own dtype (an int32 sum wraps as int32); another dtype given is
    refused."""
    if dtype is not None and dtype is not x.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {dtypes.C_TYPE_NAMES[x.dtype]} "
                           f"and output tensor dtype {dtypes.C_TYPE_NAMES[dtype]} should match")
    return x.dtype


def check_batch_norm_dtypes(x, weight, bias, running_mean, running_var, training: bool) -> None:
    """batch_norm's parameters on the CPU: of the input's dtype, or (PyTorch's mixed
    type: the first one given differs) all float32 with a half input. Otherwise its
    texts: the mixed checks, or the first parameter of another dtype as its kernel reads
    them (training: the running statistics first)."""
    given = [t for t in (weight, bias, running_mean, running_var) if t is not None]
    if given and given[0].dtype is not x.dtype:
        if any(t.dtype is not dtypes.float32 for t in given):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if x.dtype is not dtypes.float16:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    order = (running_mean, running_var, weight, bias) if training else \
        (weight, bias, running_mean, running_var)
    for t in order:
        if t is not None and t.dtype is not x.dtype:
            raise RuntimeError(f"expected scalar type {dtypes.SCALAR_NAMES[x.dtype]} but found "
                               f"{dtypes.SCALAR_NAMES[t.dtype]}")


def check_differentiable_dtype(x, dtype) -> None:
    """PyTorch records no gradient into an integer or bool result: a reduction asked for
    one (``x.sum(dtype=torch.int32)``) of a tensor that requires grad is refused."""
    if dtype is not None and not dtype.is_floating_point and x.requires_grad \
            and grad_mode.is_grad_enabled():
        raise RuntimeError(f"Autograd not support dtype: {dtypes.SCALAR_NAMES[dtype]}")
