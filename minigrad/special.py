"""``torch.special``: the special functions under the names PyTorch gives them there.
Most are the ``torch.*`` functions by another name (``special.expit`` is ``sigmoid``,
recorded as SigmoidBackward0; ``special.erf`` is ``erf``); ``entr`` and ``ndtr`` live
only here."""

from __future__ import annotations

from . import functions, ops
from .rules.arguments import check_operand_function as _check_operand_function
from .rules.arguments import check_float_argument as _check_float_argument
from .rules.arguments import check_input_function as _check_input_function
from .rules.out import write as _out

__all__ = ["digamma", "psi", "gammaln", "polygamma", "entr", "erf", "erfc", "erfinv", "exp2",
           "expit", "expm1", "i0", "i0e", "i1", "i1e", "log1p", "log_softmax", "logit", "logsumexp", "ndtr", "round",
           "sinc", "softmax", "xlogy", "xlog1py"]


def entr(input, *, out=None):
    """-input * log(input) elementwise (0 at 0, -inf below): the entropy's terms."""
    return _out("special_entr", ops.entr(input), out, input)


def digamma(input, *, out=None):
    return functions.digamma(input, out=out)


def psi(input, *, out=None):
    """digamma by its other name."""
    return functions.digamma(input, out=out)


def polygamma(n, input, *, out=None):
    return functions.polygamma(n, input, out=out)


def gammaln(input, *, out=None):
    """lgamma by scipy's name."""
    return functions.lgamma(input, out=out)


def erf(input, *, out=None):
    return functions.erf(input, out=out)


def erfc(input, *, out=None):
    return functions.erfc(input, out=out)


def erfinv(input, *, out=None):
    return functions.erfinv(input, out=out)


def exp2(input, *, out=None):
    return functions.exp2(input, out=out)


def i0(input, *, out=None):
    """I0, the modified Bessel function of the first kind of order 0 (``torch.i0``)."""
    return functions.i0(input, out=out)


def i1(input, *, out=None):
    """I1, the modified Bessel function of the first kind of order 1."""
    return _out("special_i1", ops.special_i1(input), out, input)


def i0e(input, *, out=None):
    """exp(-|x|) I0(x), I0 scaled so that it stays finite for large x."""
    _check_input_function("special_i0e", (input,), {})
    return _out("special_i0e", ops.special_i0e(input), out, input)


def i1e(input, *, out=None):
    """exp(-|x|) I1(x), I1 scaled so that it stays finite for large x."""
    _check_input_function("special_i1e", (input,), {})
    return _out("special_i1e", ops.special_i1e(input), out, input)


def expit(input, *, out=None):
    """The logistic sigmoid 1 / (1 + exp(-input))."""
    return _out("sigmoid", ops.expit(input), out, input)


def expm1(input, *, out=None):
    return functions.expm1(input, out=out)


def log1p(input, *, out=None):
    return functions.log1p(input, out=out)


def logit(input, eps=None, *, out=None):
    _check_float_argument("special_logit", "eps", 2, eps)
    return functions.logit(input, eps, out=out)


def xlogy(input, other, *, out=None):
    _check_operand_function("special_xlogy", (input, other), {})
    return functions.xlogy(input, other, out=out)


def xlog1py(input, other, *, out=None):
    """input * log1p(other), and 0 where input is 0 (unless other is NaN); either may be
    a number."""
    _check_operand_function("special_xlog1py", (input, other), {})
    return _out("special_xlog1py", ops.xlog1py(input, other), out, input, other)


def sinc(input, *, out=None):
    return functions.sinc(input, out=out)


def round(input, *, decimals=0, out=None):  # noqa: A001 (PyTorch's name)
    return functions.round(input, decimals=decimals, out=out)


def ndtr(input, *, out=None):
    """The standard normal distribution's CDF: (1 + erf(input / sqrt(2))) / 2."""
    return _out("special_ndtr", ops.ndtr(input), out, input)


def softmax(input, dim, dtype=None):
    return functions.softmax(input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    return functions.log_softmax(input, dim, dtype)


def logsumexp(input, dim, keepdim=False, *, out=None):
    return functions.logsumexp(input, dim, keepdim, out=out)

