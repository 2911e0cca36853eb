"""``torch.special``: the special functions under the names PyTorch gives them there.
Most are the ``torch.*`` functions by another name (``special.expit`` is ``sigmoid``,
recorded as SigmoidBackward0; ``special.erf`` is ``erf``); ``entr``, ``ndtr`` and the
rest live only here: the Bessel and Airy functions and the orthogonal polynomials
(PyTorch records no graph for them), ``erfcx``, ``ndtri``, ``log_ndtr``, ``zeta`` and
``multigammaln`` (ops/special_functions.py; their steps: kernels/cephes.py)."""

from __future__ import annotations

from . import functions, ops
from .rules.arguments import check_operand_function as _check_operand_function
from .rules.arguments import check_float_argument as _check_float_argument
from .rules.arguments import check_input_function as _check_input_function
from .rules.arguments import check_x_function as _check_x_function
from .rules.arguments import check_tensor_function as _check_tensor_function
from .rules.out import write as _out

__all__ = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
           "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
           "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2",
           "expit", "expm1", "gammainc", "gammaincc", "gammaln", "hermite_polynomial_h", "hermite_polynomial_he", "i0",
           "i0e", "i1", "i1e", "laguerre_polynomial_l", "legendre_polynomial_p", "log1p",
           "log_ndtr", "log_softmax", "logit", "logsumexp", "modified_bessel_i0",
           "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "multigammaln",
           "ndtr", "ndtri", "polygamma", "psi", "round", "scaled_modified_bessel_k0",
           "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t",
           "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "sinc", "softmax", "spherical_bessel_j0", "xlog1py",
           "xlogy", "zeta"]


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



# ---- Bessel and Airy functions (no grad_fn: PyTorch does not differentiate them) ----------

def _unrecorded(name: str, input, out, check=_check_input_function):
    check("special_" + name, (input,), {})
    return _out("special_" + name, ops.special_functions.unrecorded(name, input), out, input,
                differentiable=False)


def airy_ai(x, *, out=None):
    """Ai(x), the Airy function of the first kind."""
    return _unrecorded("airy_ai", x, out, _check_x_function)


def bessel_j0(input, *, out=None):
    """J0, the Bessel function of the first kind of order 0."""
    return _unrecorded("bessel_j0", input, out)


def bessel_j1(input, *, out=None):
    """J1, the Bessel function of the first kind of order 1."""
    return _unrecorded("bessel_j1", input, out)


def bessel_y0(input, *, out=None):
    """Y0, the Bessel function of the second kind of order 0."""
    return _unrecorded("bessel_y0", input, out)


def bessel_y1(input, *, out=None):
    """Y1, the Bessel function of the second kind of order 1."""
    return _unrecorded("bessel_y1", input, out)


def modified_bessel_i0(input, *, out=None):
    """I0, the modified Bessel function of the first kind of order 0 (``i0``'s values,
    without its graph)."""
    _check_input_function("special_modified_bessel_i0", (input,), {})
    return _out("special_modified_bessel_i0", functions.i0(input.detach()), out, input,
                differentiable=False)


def modified_bessel_i1(input, *, out=None):
    """I1, the modified Bessel function of the first kind of order 1."""
    return _unrecorded("modified_bessel_i1", input, out)


def modified_bessel_k0(input, *, out=None):
    """K0, the modified Bessel function of the second kind of order 0."""
    return _unrecorded("modified_bessel_k0", input, out)


def modified_bessel_k1(input, *, out=None):
    """K1, the modified Bessel function of the second kind of order 1."""
    return _unrecorded("modified_bessel_k1", input, out)


def scaled_modified_bessel_k0(x, *, out=None):
    """exp(x) K0(x)."""
    return _unrecorded("scaled_modified_bessel_k0", x, out, _check_x_function)


def scaled_modified_bessel_k1(x, *, out=None):
    """exp(x) K1(x)."""
    return _unrecorded("scaled_modified_bessel_k1", x, out, _check_x_function)


def spherical_bessel_j0(x, *, out=None):
    """j0(x) = sin(x) / x, the spherical Bessel function of the first kind of order 0."""
    return _unrecorded("spherical_bessel_j0", x, out, _check_x_function)


# ---- orthogonal polynomials (no grad_fn) -------------------------------------------------

def _polynomial(name: str, input, n, out):
    _check_operand_function("special_" + name, (input, n), {})
    return _out("special_" + name, ops.special_functions.polynomial(name, input, n), out,
                input, n, differentiable=False)


def chebyshev_polynomial_t(input, n, *, out=None):
    """T_n(input), the Chebyshev polynomial of the first kind."""
    return _polynomial("chebyshev_polynomial_t", input, n, out)


def chebyshev_polynomial_u(input, n, *, out=None):
    """U_n(input), the Chebyshev polynomial of the second kind."""
    return _polynomial("chebyshev_polynomial_u", input, n, out)


def chebyshev_polynomial_v(input, n, *, out=None):
    """V_n(input), the Chebyshev polynomial of the third kind."""
    return _polynomial("chebyshev_polynomial_v", input, n, out)


def chebyshev_polynomial_w(input, n, *, out=None):
    """W_n(input), the Chebyshev polynomial of the fourth kind."""
    return _polynomial("chebyshev_polynomial_w", input, n, out)


def shifted_chebyshev_polynomial_t(input, n, *, out=None):
    """T_n(2 input - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_t", input, n, out)


def shifted_chebyshev_polynomial_u(input, n, *, out=None):
    """U_n(2 input - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_u", input, n, out)


def shifted_chebyshev_polynomial_v(input, n, *, out=None):
    """V_n(2 input - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_v", input, n, out)


def shifted_chebyshev_polynomial_w(input, n, *, out=None):
    """W_n(2 input - 1)."""
    return _polynomial("shifted_chebyshev_polynomial_w", input, n, out)


def hermite_polynomial_h(input, n, *, out=None):
    """H_n(input), the physicists' Hermite polynomial."""
    return _polynomial("hermite_polynomial_h", input, n, out)


def hermite_polynomial_he(input, n, *, out=None):
    """He_n(input), the probabilists' Hermite polynomial."""
    return _polynomial("hermite_polynomial_he", input, n, out)


def laguerre_polynomial_l(input, n, *, out=None):
    """L_n(input), the Laguerre polynomial."""
    return _polynomial("laguerre_polynomial_l", input, n, out)


def legendre_polynomial_p(input, n, *, out=None):
    """P_n(input), the Legendre polynomial."""
    return _polynomial("legendre_polynomial_p", input, n, out)


# ---- with PyTorch's derivatives ----------------------------------------------------------

def erfcx(input, *, out=None):
    """exp(input**2) erfc(input), the scaled complementary error function (finite where
    erfc underflows)."""
    _check_input_function("special_erfcx", (input,), {})
    return _out("special_erfcx", ops.special_functions.erfcx(input), out, input)


def ndtri(input, *, out=None):
    """The standard normal quantile function: the x where ndtr(x) = input."""
    _check_input_function("special_ndtri", (input,), {})
    return _out("special_ndtri", ops.special_functions.ndtri(input), out, input)


def log_ndtr(input, *, out=None):
    """log of the standard normal CDF, accurate far in the lower tail."""
    _check_input_function("special_log_ndtr", (input,), {})
    return _out("special_log_ndtr", ops.special_functions.log_ndtr(input), out, input)


def zeta(input, other, *, out=None):
    """Hurwitz's zeta function: the sum over k >= 0 of (k + other)**-input."""
    _check_operand_function("special_zeta", (input, other), {})
    return _out("special_zeta", ops.special_functions.zeta(input, other), out, input, other)


def multigammaln(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p."""
    _check_input_function("special_multigammaln", (input,), {})
    return _out("special_multigammaln", ops.special_functions.mvlgamma(input, p), out, input)


def gammainc(input, other, *, out=None):
    """P(input, other), the regularized lower incomplete gamma function (torch.igamma)."""
    _check_tensor_function("special_gammainc", (input, other), {})
    return functions.igamma(input, other, out=out)


def gammaincc(input, other, *, out=None):
    """Q(input, other) = 1 - P, the regularized upper incomplete gamma function."""
    _check_tensor_function("special_gammaincc", (input, other), {})
    return functions.igammac(input, other, out=out)
