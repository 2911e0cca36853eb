"""In-place operations: ``add_``, ``mul_``, ``zero_``, ``x += 1``, ...

Inside ``no_grad`` they simply change the data (that is how a manual SGD
step updates weights). Outside it:

* on a leaf that requires grad they are refused (PyTorch's error): its
  ``.grad`` would no longer be the gradient of anything;
* on other tensors the op is recorded: the tensor's ``grad_fn`` becomes the
  op's node (``AddBackward0`` for ``add_``).

Every in-place change increments the tensor's version counter, so a
backward that needs the old value fails loudly instead of silently using
the new one.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes, errors
from ..autograd import grad_mode
from ..autograd.broadcast import has_internal_overlap
from ..autograd.formula import Formula
from ..autograd.node import Node
from . import fn
from ._common import is_tensor

__all__ = ["inplace", "check_inplace", "rebase", "zeros_like_op", "fill", "copy"]


class ZeroBackward0(Node):
    formula = Formula("y", "zeros like x", d={"x": "0"})

    def forward(self, x):
        return np.zeros_like(x)

    def backward(self, grad):
        return _zeros_like(grad)


class FillBackward2(Node):
    formula = Formula("y", "x with every element set to value", d={"x": "0"})

    def forward(self, x, value):
        return np.full_like(x, value)

    def backward(self, grad):
        return _zeros_like(grad)


class FillBackward3(Node):
    formula = Formula("y",
                      "x with every element set to a 0-dim tensor's value",
                      d={"x": "0"},
                      grad={"value": "the sum of G"})

    def forward(self, x, value):
        return np.full_like(x, value)

    def backward(self, grad):
        grad_x = _zeros_like(grad) if self.needs_input_grad[0] else None
        grad_value = fn.sum(grad) if self.needs_input_grad[1] else None
        return grad_x, grad_value


class CopyBackwards(Node):
    formula = Formula("y", "src copied into self's memory", d={"self": "0", "src": "1"})

    def forward(self, x, src):
        return np.broadcast_to(src, x.shape).astype(x.dtype, copy=True)

    def backward(self, grad):
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
    return FillBackward2.apply(x, value=value)


def copy(x, src):
    from ._common import as_tensor
    from ..autograd.broadcast import broadcast_shapes

    src = as_tensor(src)
    if broadcast_shapes(x.shape, src.shape) != x.shape:
        raise RuntimeError(
            f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the "
            f"broadcast shape [{', '.join(map(str, broadcast_shapes(x.shape, src.shape)))}]"
        )
    return CopyBackwards.apply(x, src)


def check_inplace(x) -> None:
    """Refuse in-place changes that would corrupt gradients (PyTorch's rules)."""
    if not grad_mode.is_grad_enabled() or not x.requires_grad:
        return
    if x.grad_fn is None:
        raise RuntimeError(errors.LEAF_INPLACE)
    base = x._base
    if base is not None and base.requires_grad:
        if base.grad_fn is None:
            raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
        raise RuntimeError(
            "minigrad does not record in-place changes to a view of a tensor that requires "
            "grad (PyTorch would rewrite the base's history with CopySlices). Use an "
            "out-of-place operation instead, e.g. y = y.add(1) rather than y.add_(1)."
        )


def rebase(x, result, overlap_ok: bool = False, where=True) -> None:
    """Write ``result`` into ``x``'s memory and make ``x`` the op's output.

    An ``x`` whose elements share memory (an expanded tensor) is refused, as torch
    refuses it, unless the op only fills (``overlap_ok``: ``zero_``, ``fill_(number)``),
    which writes one value everywhere. ``where``: a mask of the elements to write
    (for an index_put_ into an expanded tensor, whose other elements alias them)."""
    if not overlap_ok and has_internal_overlap(x._data):
        raise RuntimeError(errors.INTERNAL_OVERLAP)
    try:
        np.copyto(x._data, result._data, casting="unsafe", where=where)
    except ValueError:  # read-only memory (a wrapped Python number, shared by graphs)
        raise RuntimeError(errors.INTERNAL_OVERLAP) from None
    x._version_counter.value += 1
    if result.grad_fn is not None:
        x.grad_fn = result.grad_fn
        x._output_nr = result._output_nr
        x._requires_grad = True


def _snapshot(x):
    from ..tensor import Tensor

    return Tensor._make(x._data.copy(), grad_fn=x.grad_fn, requires_grad=x.requires_grad,
                        output_nr=x._output_nr)


def inplace(x, op, *args):
    """Apply ``op(x, *args)`` and store the result in ``x`` itself."""
    check_inplace(x)
    # The op reads a snapshot of x (same place in the graph, its own memory), so
    # what it saves for backward (x * w saves x) is the value x had before the
    # change, as torch's "original self"; x itself moves on to a new version.
    recording = grad_mode.is_grad_enabled() and any(
        getattr(value, "requires_grad", False) for value in (x, *args))
    source = _snapshot(x) if recording else x
    result = op(source, *args)
    if result.dtype.category > x.dtype.category:  # torch's canCast: float -> int is refused
        raise RuntimeError(
            f"result type {dtypes.SCALAR_NAMES[result.dtype]} can't be cast to the desired "
            f"output type {dtypes.SCALAR_NAMES[x.dtype]}"
        )
    if result.shape != x.shape:
        raise RuntimeError(
            f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the "
            f"broadcast shape [{', '.join(map(str, result.shape))}]"
        )
    rebase(x, result, overlap_ok=op is zeros_like_op or (op is fill and not is_tensor(args[0])))
    return x
