"""``x ** number`` for a float tensor, beside ``ops.arithmetic.pow``: PyTorch's range
checks, quick in the usual case, and the value without a node when nothing is recorded
(issue 18: ``x ** 3`` on data at the speed of two multiplications)."""

from __future__ import annotations

from .. import dtypes
from ..autograd.tensor_base import make
from ..kernels.arithmetic import power
from ..kernels.float_errors import restore as restore_float_errors, silence as silence_float_errors
from .arguments import check_pow
from .layout import with_unary_layout

__all__ = ["check_float_pow", "unrecorded_power"]


def check_float_pow(dtype, exponent) -> None:
    """``check_pow`` for a float tensor and a Python number ``exponent``, quick in the usual
    case: only a float16 tensor (an exponent past half's range) or an exponent past a C++
    Scalar's (2**63) can be refused."""
    if dtype is dtypes.float16 or abs(exponent) >= 2**63:
        check_pow(dtype, exponent)


def unrecorded_power(a, exponent):
    """``a ** exponent`` for a float tensor ``a`` and a Python number when nothing is
    recorded (grad mode off or no input requiring grad, no forward AD): checked as
    ``check_float_pow`` checks it (inline: one call less on the quickest path), then the
    kernel's value straight in a Tensor, with NumPy's floating-point warnings off (as
    ``record.apply_to_arrays`` runs a forward) and laid out as a one-operand result."""
    if a.dtype is dtypes.float16 or abs(exponent) >= 2**63:
        check_pow(a.dtype, exponent)
    token = silence_float_errors()
    try:
        return with_unary_layout(make(power(a._data, exponent)), a)
    finally:
        restore_float_errors(token)
