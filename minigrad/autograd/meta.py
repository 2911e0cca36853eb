"""Ops on ``device="meta"`` tensors (their arrays: ``kernels/meta.py``).

An op with a meta input gives meta outputs: whatever array its kernel returned (a
meta array from NumPy's ufuncs, or numbers computed on zeros, or a view that NumPy
made plain), the output keeps only its shape and dtype. As in PyTorch, a meta tensor
meets a CPU tensor only when that one is 0-dim (a number, as a wrapped scalar is);
else the op fails with PyTorch's device error, before anything is computed. An op whose
kernel needs memory for the numbers (a copy of a meta array too big to hold) says so.
"""

from __future__ import annotations

from ..kernels import meta as meta_arrays
from .tensor_base import TensorBase

__all__ = ["run_op"]


def run_op(apply, cls, inputs, arrays, params, *flags):
    """``apply(cls, inputs, arrays, params, *flags)`` (``record.apply_to_arrays``), and
    for an op with a meta input its outputs' arrays made meta."""
    tensors = [x for x in inputs if isinstance(x, TensorBase)]
    metas = [meta_arrays.is_meta(x._data) for x in tensors]
    if not any(metas):
        return apply(cls, inputs, arrays, params, *flags, True)
    # (the device expected: the first operand's that is not a 0-dim CPU tensor)
    devices = ["meta" if is_meta else "cpu" for x, is_meta in zip(tensors, metas)
               if is_meta or x.ndim]
    for device in devices:
        if device != devices[0]:
            raise RuntimeError(f"Tensor on device {device} is not on the expected device "
                               f"{devices[0]}!")
    try:
        outputs = apply(cls, inputs, arrays, params, *flags, True)
    except MemoryError as error:  # (a kernel that needs the numbers' memory: kernels/meta.py)
        raise NotImplementedError(
            f"{cls.__name__} on meta tensors: minigrad works the result's shape out by "
            f"computing on zeros, which needs memory here ({error})") from None
    for output in outputs if isinstance(outputs, tuple) else (outputs,):
        if isinstance(output, TensorBase):
            output._data = meta_arrays.like(output._data)
    return outputs
