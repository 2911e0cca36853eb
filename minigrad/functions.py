"""The ``torch.*`` functions, with PyTorch's signatures.

Each function is written with the parameter names PyTorch uses
(``torch.matmul(input, other)``, ``torch.sum(input, dim, keepdim=False, *, dtype=None)``),
so calls by keyword work as in PyTorch, and a keyword PyTorch does not have raises its
error: ``add() got an unexpected keyword argument 'foo'``. Each is one line that calls
the operation in ``minigrad.ops``, where the math and its derivative live; the methods
(``x.add(y)``) are in ``tensor.py``. ``tests/core/fidelity/test_signatures.py`` compares
every signature here with PyTorch's.
"""

from __future__ import annotations

import builtins as _builtins
import collections
import functools
import inspect as _inspect
import warnings

import numpy as _np

from . import creation as _creation, errors, ops
from . import random as _random
from .rules.arguments import checks_arguments as _checks_arguments
from .rules.arguments import takes_numpy_names as _numpy_names
from .rules.arguments import check_operand_function as _check_operand_function
from .rules.arguments import refused_operands as _refused_operands
from .rules.arguments import is_operand as _is_operand
from .rules.arguments import check_tensor_function as _check_tensor_function
from .rules.arguments import check_input_function as _check_input_function
from .rules.arguments import check_lerp_arguments as _check_lerp_arguments
from .rules.arguments import check_addc_arguments as _check_addc_arguments
from .rules.arguments import check_dim_function as _check_dim_function
from .rules.counting import check_nonzero_static_out as _check_nonzero_static_out
from .rules.arguments import einsum_equation as _einsum_equation
from .rules.indexing import check_put_arguments as _check_put_arguments
from .rules.arguments import check_where_arguments as _check_where_arguments
from .rules.arguments import check_sort_function as _check_sort_function
from .rules.arguments import check_polygamma_arguments as _check_polygamma_arguments
from .rules.arguments import check_scatter_reduce_arguments as _check_scatter_reduce_arguments
from .rules.arguments import check_index_put_arguments as _check_index_put_arguments
from .rules.arguments import check_masked_scatter_arguments as _check_masked_scatter_arguments
from .rules.arguments import check_float_argument as _check_float_argument
from .rules.arguments import check_clamp_function as _check_clamp_function
from .rules.arguments import check_split_function as _check_split_function
from .rules.arguments import check_movedim_arguments as _check_movedim_arguments
from .rules.arguments import check_isin_arguments as _check_isin_arguments
from .rules.arguments import check_aminmax_dim as _check_aminmax_dim
from .rules.arguments import check_quantile_arguments as _check_quantile_arguments
from .rules.arguments import check_nanmedian_dim as _check_nanmedian_dim
from .rules.arguments import check_typed_arguments as _check_typed_arguments
from .rules.arguments import check_split_sections as _check_split_sections
from .rules.arguments import tensor_split_arguments as _parse_tensor_split
from .rules.arguments import described as _described
from .rules.arguments import int_list as _int_list
from .rules.arguments import invalid_combination as _invalid_combination
from .rules.arguments import is_int as _is_int
from .rules.arguments import is_index as _is_index
from .rules.arguments import rounding_mode as _rounding_mode
from .rules.parser import invalid_combination as _parser_invalid
from .rules.parser import missing_arguments as _missing_arguments
from . import layouts as _layouts
from . import dtypes as _dtypes
from . import linalg as _linalg
from .size import Size as _Size
from .autograd import grad_mode as _grad_mode
from .dtypes import C_TYPE_NAMES as _C_TYPE_NAMES
from .rules.promotion import is_number as _is_number
from .kernels.layout import check_no_partial_overlap as _check_no_partial_overlap
from .tensor import Tensor as _Tensor
from .autograd.tensor_base import is_tensor as _is_tensor
from .rules.out import check_bool_out as _check_bool_out, write as _out
from .rules.out import check_kept_dtype_out as _check_kept_dtype_out
from .rules.out import check_signbit_out as _check_signbit_out
from .rules.out import check_histc_out as _check_histc_out
from .rules.out import check_matmul_out as _check_matmul_out
from .rules.out import check_differentiable_out as _check_differentiable_out

# ---- out=: the result written into a given tensor -------------------------------------------


# ---- PyTorch's argument errors (minigrad/arguments.py) ----------------------------------------


def _check_reduction_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """sum()/mean(): ``dim`` None, an int or a tuple/list of ints; ``dtype`` a dtype."""
    given = dict(zip(("input", "dim", "keepdim"), args), **kwargs)
    dim, dtype = given.get("dim"), given.get("dtype")
    if isinstance(dim, (tuple, list)):
        for position, d in enumerate(dim, start=1):
            if not _is_index(d):
                raise TypeError(f"{function}(): argument 'dim' failed to unpack the object at "
                                f"pos {position} with error \"type must be tuple of ints,but got "
                                f"{_described(d)}\"")
    elif dim is not None and not _is_index(dim):
        if len(args) >= 3 and isinstance(dim, str):  # (PyTorch: a name, its named overload)
            raise TypeError(f"{function}(): argument 'dim' (position 2) must be tuple of ints, "
                            f"not {_described(dim)}")
        raise _invalid_combination(function, args, kwargs)
    if dtype is not None and not isinstance(dtype, _dtypes.dtype):
        if "dim" in given:  # only the overload with dim is left: its own error
            raise TypeError(f"{function}(): argument 'dtype' must be torch.dtype, "
                            f"not {_described(dtype)}")
        raise _invalid_combination(function, args, kwargs)
    if "keepdim" in given and "dim" not in given:
        raise _invalid_combination(function, args, kwargs)  # keepdim is taken with dim only
    if function == "sum" and "dim" not in given and given.get("out") is not None:
        raise _invalid_combination(function, args, kwargs)  # sum() takes out= with dim only


def _check_max_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """max()/min(): ``dim`` an int (or ``other`` a tensor), ``out`` a pair with ``dim``."""
    given = dict(zip(("input", "dim", "keepdim"), args), **kwargs)
    dim, out = given.get("dim"), given.get("out")
    if "other" in kwargs:  # (the (input, other) overload by keyword: nothing else with it)
        extra = [name for name in kwargs if name not in ("input", "other", "out")]
        if not isinstance(kwargs["other"], _Tensor) or extra or len(args) > 1:
            raise _invalid_combination(function, args, kwargs, {0: (
                "some of the keywords were incorrect: " + ", ".join(reversed(
                    [name for name in kwargs if name not in ("input", "out")])))}
                if extra or len(args) > 1 else None)
    if dim is not None and not _is_int(dim) and not isinstance(dim, _Tensor):
        raise _invalid_combination(function, args, kwargs)
    if _is_int(dim) and isinstance(out, _Tensor):
        raise _invalid_combination(function, args, kwargs,
                                   {0: "some of the keywords were incorrect: out"})


def _check_binary_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """add()/sub()/mul()/div(): ``input`` and ``other`` a tensor or a number (the parser
    names a wrong one by its position when given by position), ``alpha`` a number."""
    for position, name in enumerate(("input", "other"), start=1):
        by_position = len(args) >= position
        value = args[position - 1] if by_position else kwargs.get(name)
        if value is not None and (isinstance(value, _Tensor) or _is_number(value)):
            continue
        if not by_position and name not in kwargs:
            continue  # missing: Python's own error follows
        where = f" (position {position})" if by_position else ""
        raise TypeError(f"{function}(): argument '{name}'{where} must be Tensor, "
                        f"not {type(value).__name__}")
    if "alpha" in kwargs and not _is_number(kwargs["alpha"]):
        raise TypeError(f"{function}(): argument 'alpha' must be Number, "
                        f"not {type(kwargs['alpha']).__name__}")
    if isinstance(kwargs.get("out"), _Tensor):  # (before the op: see check_differentiable_out)
        _check_differentiable_out("div" if function == "true_divide" else function,
                                  (kwargs["out"],), (*args, kwargs.get("input"), kwargs.get("other")))


# ---- arithmetic --------------------------------------------------------------------------


@_checks_arguments(_check_binary_arguments)
def add(input, other, *, alpha=1, out=None):
    """input + alpha * other, elementwise (with broadcasting)."""
    if not isinstance(input, _Tensor) and not isinstance(other, _Tensor):
        input = _number_tensor(input)
    return _out("add", ops.add(input, other, alpha), out, input, other)


@_checks_arguments(_check_binary_arguments)
def sub(input, other, *, alpha=1, out=None):
    """input - alpha * other, elementwise."""
    if not isinstance(input, _Tensor) and not isinstance(other, _Tensor):
        input = _number_tensor(input)
    return _out("sub", ops.sub(input, other, alpha), out, input, other)


@_checks_arguments(_check_binary_arguments)
def rsub(input, other, alpha=1):
    """other - alpha * input: sub with its operands swapped."""
    return ops.rsub(input, other, alpha)


@_checks_arguments(_check_binary_arguments)
def mul(input, other, *, out=None):
    """input * other, elementwise."""
    if not isinstance(input, _Tensor) and not isinstance(other, _Tensor):
        input = _number_tensor(input)
    return _out("mul", ops.mul(input, other), out, input, other)


@_checks_arguments(_check_binary_arguments)
def div(input, other, *, rounding_mode=None, out=None):
    """input / other, elementwise (true division: integers give floats); with
    ``rounding_mode`` 'floor' or 'trunc', the quotient rounded down or toward zero."""
    if not isinstance(input, _Tensor) and not isinstance(other, _Tensor):
        input = _number_tensor(input)
    if rounding_mode is not None:
        mode = _rounding_mode(rounding_mode)
        return _out("div", ops.div_rounding(input, other, mode), out, input, other)
    return _out("div", ops.div(input, other), out, input, other)


def remainder(input, other, *, out=None):
    """The remainder of input / other with the sign of other (Python's ``%``)."""
    result = _taken("remainder", ops.remainder(input, other), input, other)
    return _out("remainder", result, out, input, other)


def fmod(input, other, *, out=None):
    """The remainder of input / other with the sign of input (C's ``fmod``)."""
    return _out("fmod", _taken("fmod", ops.fmod(input, other), input, other), out, input, other)


def floor_divide(input, other, *, out=None):
    """input // other: the quotient rounded down (no derivative, as in PyTorch)."""
    result = _taken("floor_divide", ops.floor_divide(input, other), input, other)
    return ops.write_refused_out("floor_divide", result, out, input, other)


def neg(input, *, out=None):
    return _out("neg", ops.neg(input), out, input, same_dtype=True)


def reciprocal(input, *, out=None):
    """1 / input, elementwise (integers give floats)."""
    return _out("reciprocal", ops.reciprocal(input), out, input)


def isnan(input):
    return ops.isnan(input)


def isinf(input):
    return ops.isinf(input)


def isfinite(input):
    return ops.isfinite(input)


def pow(input, exponent, *, out=None):  # noqa: A001 - PyTorch's name
    """input ** exponent, elementwise."""
    _check_operand_function("pow", (input, exponent), {})
    return _out("pow", ops.pow(input, exponent), out, input, exponent)


# ---- pointwise functions -------------------------------------------------------------------


def exp(input, *, out=None):
    return _out("exp", ops.exp(input), out, input)


def log(input, *, out=None):
    return _out("log", ops.log(input), out, input)


def log10(input, *, out=None):
    return _out("log10", ops.log10(input), out, input)


def log2(input, *, out=None):
    return _out("log2", ops.log2(input), out, input)


def log1p(input, *, out=None):
    """log(1 + input), accurate when input is near 0."""
    return _out("log1p", ops.log1p(input), out, input)


def expm1(input, *, out=None):
    """exp(input) - 1, accurate when input is near 0."""
    return _out("expm1", ops.expm1(input), out, input)


def rsqrt(input, *, out=None):
    return _out("rsqrt", ops.rsqrt(input), out, input)


def square(input, *, out=None):
    return _out("square", ops.square(input), out, input)


def floor(input, *, out=None):
    _check_kept_dtype_out("floor", out, input)
    return _out("floor", ops.floor(input), out, input, same_dtype=True)


def ceil(input, *, out=None):
    _check_kept_dtype_out("ceil", out, input)
    return _out("ceil", ops.ceil(input), out, input, same_dtype=True)


def trunc(input, *, out=None):
    _check_kept_dtype_out("trunc", out, input)
    return _out("trunc", ops.trunc(input), out, input, same_dtype=True)


def fix(input, *, out=None):
    _check_kept_dtype_out("trunc", out, input)  # (torch names fix by trunc, its kernel)
    return _out("trunc", ops.trunc(input), out, input, same_dtype=True)


def round(input, *, decimals=None, out=None):  # noqa: A001 - PyTorch's name
    """Round to the nearest integer, halves to even, or to ``decimals`` digits."""
    _check_kept_dtype_out("round", out, input)
    return _out("round", ops.round(input, decimals), out, input, same_dtype=True)


def frac(input, *, out=None):
    """input - trunc(input): the fractional part, with input's sign."""
    _check_kept_dtype_out("frac", out, input)
    return _out("frac", ops.frac(input), out, input, same_dtype=True)


def sqrt(input, *, out=None):
    return _out("sqrt", ops.sqrt(input), out, input)


def tanh(input, *, out=None):
    return _out("tanh", ops.tanh(input), out, input)


def sigmoid(input, *, out=None):
    return _out("sigmoid", ops.sigmoid(input), out, input)


def relu(input):
    return ops.relu(input)


def abs(input, *, out=None):  # noqa: A001 - PyTorch's name
    _check_kept_dtype_out("abs", out, input)
    return _out("abs", ops.abs(input), out, input, same_dtype=True)


def sign(input, *, out=None):
    return _out("sign", ops.sign(input), out, input, same_dtype=True)


def sgn(input, *, out=None):
    """sign(input) (for complex numbers input / |input|, which minigrad does not have)."""
    return _out("sgn", ops.sgn(input), out, input, same_dtype=True)


def sin(input, *, out=None):
    return _out("sin", ops.sin(input), out, input)


def cos(input, *, out=None):
    return _out("cos", ops.cos(input), out, input)


# ---- trigonometry and special functions (ops/trig.py, ops/special.py) -------------------------


@_checks_arguments(_check_input_function)
def tan(input, *, out=None):
    return _out("tan", ops.tan(input), out, input)


@_checks_arguments(_check_input_function)
def asin(input, *, out=None):
    return _out("asin", ops.asin(input), out, input)


@_checks_arguments(_check_input_function)
def acos(input, *, out=None):
    return _out("acos", ops.acos(input), out, input)


@_checks_arguments(_check_input_function)
def atan(input, *, out=None):
    return _out("atan", ops.atan(input), out, input)


@_checks_arguments(_check_tensor_function)
def atan2(input, other, *, out=None):
    """The angle of the point (other, input), in (-pi, pi]."""
    return _out("atan2", ops.atan2(input, other), out, input, other)


@_checks_arguments(_check_input_function)
def sinh(input, *, out=None):
    return _out("sinh", ops.sinh(input), out, input)


@_checks_arguments(_check_input_function)
def cosh(input, *, out=None):
    return _out("cosh", ops.cosh(input), out, input)


@_checks_arguments(_check_input_function)
def asinh(input, *, out=None):
    return _out("asinh", ops.asinh(input), out, input)


@_checks_arguments(_check_input_function)
def acosh(input, *, out=None):
    return _out("acosh", ops.acosh(input), out, input)


@_checks_arguments(_check_input_function)
def atanh(input, *, out=None):
    return _out("atanh", ops.atanh(input), out, input)


@_checks_arguments(_check_tensor_function)
def hypot(input, other, *, out=None):
    """sqrt(input**2 + other**2), without overflow."""
    return _out("hypot", ops.hypot(input, other), out, input, other)


@_checks_arguments(_check_input_function)
def sinc(input, *, out=None):
    """sin(pi x) / (pi x), and 1 at 0."""
    return _out("sinc", ops.sinc(input), out, input)


@_checks_arguments(_check_input_function)
def deg2rad(input, *, out=None):
    return _out("deg2rad", ops.deg2rad(input), out, input)


@_checks_arguments(_check_input_function)
def rad2deg(input, *, out=None):
    return _out("rad2deg", ops.rad2deg(input), out, input)


def angle(input, *, out=None):
    """The angle of each element in the complex plane: pi for negative numbers, else 0."""
    return _out("angle", ops.angle(input), out, input)


@_checks_arguments(_check_input_function)
def erf(input, *, out=None):
    return _out("erf", ops.erf(input), out, input)


@_checks_arguments(_check_input_function)
def erfc(input, *, out=None):
    return _out("erfc", ops.erfc(input), out, input)


@_checks_arguments(_check_input_function)
def erfinv(input, *, out=None):
    return _out("erfinv", ops.erfinv(input), out, input)


@_checks_arguments(_check_input_function)
def i0(input, *, out=None):
    """I0, the modified Bessel function of the first kind of order 0, elementwise."""
    return _out("i0", ops.i0(input), out, input)



@_checks_arguments(_check_tensor_function)
def igamma(input, other, *, out=None):
    """P(input, other), the regularized lower incomplete gamma function."""
    return _out("igamma", ops.special_functions.igamma(input, other), out, input, other)


@_checks_arguments(_check_tensor_function)
def igammac(input, other, *, out=None):
    """Q(input, other) = 1 - P, the regularized upper incomplete gamma function."""
    return _out("igammac", ops.special_functions.igammac(input, other), out, input, other)


@_checks_arguments(_check_input_function)
def mvlgamma(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p (special.multigammaln)."""
    return _out("mvlgamma", ops.special_functions.mvlgamma(input, p), out, input)


@_checks_arguments(_check_input_function)
def lgamma(input, *, out=None):
    """log |gamma(input)| elementwise."""
    return _out("lgamma", ops.lgamma(input), out, input)


@_checks_arguments(_check_input_function)
def digamma(input, *, out=None):
    """d/dx log gamma(x) elementwise."""
    return _out("digamma", ops.digamma(input), out, input)


@_checks_arguments(_check_polygamma_arguments)
def polygamma(n, input, *, out=None):
    """The n-th derivative of digamma elementwise."""
    return _out("polygamma", ops.polygamma(n, input), out, input)


@_checks_arguments(_check_input_function)
def exp2(input, *, out=None):
    return _out("exp2", ops.exp2(input), out, input)


@_checks_arguments(_check_input_function)
def logit(input, eps=None, *, out=None):
    """log(input / (1 - input)), the inverse of the sigmoid."""
    _check_float_argument("logit", "eps", 2, eps)
    return _out("logit", ops.logit(input, eps), out, input)


@_checks_arguments(_check_operand_function)
def xlogy(input, other, *, out=None):
    """input * log(other), and 0 where input is 0."""
    return _out("xlogy", ops.xlogy(input, other), out, input, other)


@_checks_arguments(_check_lerp_arguments)
def lerp(input, end, weight, *, out=None):
    """input + weight * (end - input)."""
    return _out("lerp", ops.lerp(input, end, weight), out, input, end, weight)


@_checks_arguments(_check_addc_arguments)
def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 * tensor2 (an optimiser's running average of squares)."""
    return _out("addcmul", ops.addcmul(input, tensor1, tensor2, value), out,
                input, tensor1, tensor2)


@_checks_arguments(_check_addc_arguments)
def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 / tensor2 (Adam's step: p + (-lr) * m / (sqrt(v) + eps))."""
    return _out("addcdiv", ops.addcdiv(input, tensor1, tensor2, value), out,
                input, tensor1, tensor2)


@_checks_arguments(_check_tensor_function)
def logaddexp(input, other, *, out=None):
    """log(exp(input) + exp(other)), without overflow."""
    return _out("logaddexp", ops.logaddexp(input, other), out, input, other)


@_checks_arguments(_check_tensor_function)
def logaddexp2(input, other, *, out=None):
    """log2(2**input + 2**other), without overflow."""
    return _out("logaddexp2", ops.logaddexp2(input, other), out, input, other)


@_checks_arguments(_check_operand_function)
def float_power(input, exponent, *, out=None):
    """input ** exponent computed in float64."""
    return _out("float_power", ops.float_power(input, exponent), out, input, exponent)


@_checks_arguments(_check_operand_function)
def copysign(input, other, *, out=None):
    """|input| with the sign of other."""
    return _out("copysign", ops.copysign(input, other), out, input, other)


@_checks_arguments(_check_tensor_function)
def nextafter(input, other, *, out=None):
    """The float next to ``input`` in the direction of ``other``."""
    return _out("nextafter", ops.nextafter(input, other), out, input, other)


@_checks_arguments(_check_tensor_function)
def heaviside(input, values, *, out=None):
    """0 where input < 0, 1 where input > 0, values where input is 0."""
    return ops.write_refused_out("heaviside", ops.heaviside(input, values), out, input, values)


# NumPy's names, which PyTorch has too (its errors name the function as called, out='s
# the op as recorded: "asin(): functions with out=...").


@_checks_arguments(_check_input_function)
def arcsin(input, *, out=None):
    return _out("asin", ops.asin(input), out, input)


@_checks_arguments(_check_input_function)
def arccos(input, *, out=None):
    return _out("acos", ops.acos(input), out, input)


@_checks_arguments(_check_input_function)
def arctan(input, *, out=None):
    return _out("atan", ops.atan(input), out, input)


@_checks_arguments(_check_tensor_function)
def arctan2(input, other, *, out=None):
    return _out("atan2", ops.atan2(input, other), out, input, other)


@_checks_arguments(_check_input_function)
def arcsinh(input, *, out=None):
    return _out("asinh", ops.asinh(input), out, input)


@_checks_arguments(_check_input_function)
def arccosh(input, *, out=None):
    return _out("acosh", ops.acosh(input), out, input)


@_checks_arguments(_check_input_function)
def arctanh(input, *, out=None):
    return _out("atanh", ops.atanh(input), out, input)


@_checks_arguments(_check_clamp_function)
def clamp(input, min=None, max=None, *, out=None):  # noqa: A002 - PyTorch's names
    """Each element limited to [min, max] (either bound may be None)."""
    return _out("clamp", ops.clamp(input, min, max), out, input, same_dtype=True)


@_checks_arguments(_check_clamp_function)
def clip(input, min=None, max=None, *, out=None):  # noqa: A002 - PyTorch's names
    """``clamp``, by its other name (which the argument errors give)."""
    return _out("clamp", ops.clamp(input, min, max), out, input, same_dtype=True)


@_checks_arguments(_check_tensor_function)
def maximum(input, other, *, out=None):
    return _out("maximum", ops.maximum(input, other), out, input, other)


@_checks_arguments(_check_tensor_function)
def minimum(input, other, *, out=None):
    return _out("minimum", ops.minimum(input, other), out, input, other)


@_checks_arguments(_check_where_arguments)
def where(condition, input=None, other=None, *, out=None):
    """``input`` where ``condition`` is True, ``other`` elsewhere; ``where(condition)``
    alone is ``nonzero(condition, as_tuple=True)``."""
    if input is None and other is None:
        return ops.nonzero(condition, True)
    return _out("where", ops.where(condition, input, other), out, condition, input, other)


def masked_fill(input, mask, value):
    return ops.masked_fill(input, mask, value)


def tril(input, diagonal=0, *, out=None):
    """The lower triangle of the last two dims, the rest zeroed: element [i][j] is kept
    where j - i <= ``diagonal``.

    >>> torch.tril(torch.ones(3, 3))
    tensor([[1., 0., 0.],
            [1., 1., 0.],
            [1., 1., 1.]])"""
    return _out("tril", ops.tril(input, diagonal, position=2), out, input)


def triu(input, diagonal=0, *, out=None):
    """The upper triangle of the last two dims, the rest zeroed: element [i][j] is kept
    where j - i >= ``diagonal``."""
    return _out("triu", ops.triu(input, diagonal, position=2), out, input)


def masked_select(input, mask, *, out=None):
    """The elements of ``input`` where ``mask`` (a bool tensor, broadcast with it) is
    True, as a 1-D tensor.

    >>> torch.masked_select(torch.tensor([[1., -2.], [3., -4.]]), torch.tensor([True, False]))
    tensor([1., 3.])"""
    return _out("masked_select", ops.masked_select(input, mask), out, input)


# ---- comparisons -----------------------------------------------------------------------------


def eq(input, other, *, out=None):
    _check_operand_function("eq", (input, other), {})
    return _out("eq", ops.eq(input, other), out, input, other, differentiable=False)


def ne(input, other, *, out=None):
    _check_operand_function("ne", (input, other), {})
    return _out("ne", ops.ne(input, other), out, input, other, differentiable=False)


def lt(input, other, *, out=None):
    _check_operand_function("lt", (input, other), {})
    return _out("lt", ops.lt(input, other), out, input, other, differentiable=False)


def le(input, other, *, out=None):
    _check_operand_function("le", (input, other), {})
    return _out("le", ops.le(input, other), out, input, other, differentiable=False)


def gt(input, other, *, out=None):
    _check_operand_function("gt", (input, other), {})
    return _out("gt", ops.gt(input, other), out, input, other, differentiable=False)


def ge(input, other, *, out=None):
    _check_operand_function("ge", (input, other), {})
    return _out("ge", ops.ge(input, other), out, input, other, differentiable=False)


# (PyTorch's other names for the comparisons and the arithmetic: the same ops, the same nodes)
def greater(input, other, *, out=None):
    return gt(input, other, out=out)


def greater_equal(input, other, *, out=None):
    return ge(input, other, out=out)


def less(input, other, *, out=None):
    return lt(input, other, out=out)


def less_equal(input, other, *, out=None):
    return le(input, other, out=out)


def not_equal(input, other, *, out=None):
    return ne(input, other, out=out)


def multiply(input, other, *, out=None):
    return mul(input, other, out=out)


def subtract(input, other, *, alpha=1, out=None):
    return sub(input, other, alpha=alpha, out=out)


def divide(input, other, *, rounding_mode=None, out=None):
    return div(input, other, rounding_mode=rounding_mode, out=out)


def isposinf(input, *, out=None):
    """Where ``input`` is +inf."""
    return _out("isposinf", ops.aliases.isposinf(input), out, input, differentiable=False)


def isneginf(input, *, out=None):
    """Where ``input`` is -inf."""
    return _out("isneginf", ops.aliases.isneginf(input), out, input, differentiable=False)


def isreal(input):
    """True everywhere (minigrad has no complex numbers)."""
    return ops.aliases.isreal(input)


def inner(input, other, *, out=None):
    """The sums of products over the last dims: ``a[..., k] * b[..., k]``."""
    return _out("inner", ops.aliases.inner(input, other), out, input, other)


def diagflat(input, offset=0):
    """A matrix with the flattened ``input`` on its diagonal (``offset`` above it)."""
    return ops.aliases.diagflat(input, offset)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Each run of equal consecutive values kept once.

    >>> torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1]))
    tensor([1, 2, 3, 1])"""
    return ops.unique_consecutive(input, return_inverse, return_counts, dim)


@_checks_arguments(_check_tensor_function)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.isclose(input, other, rtol, atol, equal_nan)


@_checks_arguments(_check_tensor_function)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.allclose(input, other, rtol, atol, equal_nan)


def equal(input, other):
    return ops.equal(input, other)


# ---- reductions -------------------------------------------------------------------------------


@_numpy_names
@_checks_arguments(_check_reduction_arguments)
def sum(input, dim=ops.NOT_GIVEN, keepdim=False, *, dtype=None, out=None):  # noqa: A001
    """The sum of all elements, or along ``dim`` (an int or a tuple of ints)."""
    dtype = _out_accumulates("sum", input, out, dtype)
    return _out("sum", ops.sum(input, dim, keepdim, dtype=dtype), out, input)


@_numpy_names
@_checks_arguments(_check_reduction_arguments)
def mean(input, dim=ops.NOT_GIVEN, keepdim=False, *, dtype=None, out=None):
    return _out("mean", ops.mean(input, dim, keepdim, dtype=dtype), out, input)


@_numpy_names
def prod(input, dim=None, keepdim=False, *, dtype=None, out=None):
    dtype = _out_accumulates("prod", input, out, dtype)
    return _out("prod", ops.prod(input, dim, keepdim, dtype=dtype), out, input)


@_numpy_names
def cumsum(input, dim, *, dtype=None, out=None):
    """Cumulative sums along ``dim``: ``y_i = x_1 + ... + x_i``."""
    dtype = _out_accumulates("cumsum", input, out, dtype)
    return _out("cumsum", ops.cumsum(input, dim, dtype=dtype), out, input)


@_numpy_names
def cumprod(input, dim, *, dtype=None, out=None):
    """Cumulative products along ``dim``: ``y_i = x_1 * ... * x_i``."""
    dtype = _out_accumulates("cumprod", input, out, dtype)
    return _out("cumprod", ops.cumprod(input, dim, dtype=dtype), out, input)


def _out_accumulates(function: str, input, out, dtype):
    """sum, prod, cumsum and cumprod given ``out=`` and no dtype compute in out's dtype,
    as PyTorch (a float sum into an int64 out is summed as int64; autograd's refusal of
    out= first)."""
    if dtype is not None or not isinstance(out, _Tensor):
        return dtype
    _check_differentiable_out(function, (out,), (input,))
    return out.dtype


def _check_out_dtype_matches(function: str, input, out) -> None:
    """amax and amin write only into an out of the input's dtype (after autograd's refusal
    of out=)."""
    if isinstance(out, _Tensor) and isinstance(input, _Tensor) and out.dtype is not input.dtype:
        _check_differentiable_out(function, (out,), (input,))
        names = [_dtypes.SCALAR_NAMES[t.dtype] for t in (input, out)]
        raise RuntimeError(f"Expected the dtype for input and out to match, but got {names[0]} "
                           f"for input's dtype and {names[1]} for out's dtype.")


def tensordot(a, b, dims=2, out=None):
    """The sum of ``a * b`` over the dims paired by ``dims``: an int n (a's last n with
    b's first n), or two lists of dims."""
    return _out("tensordot", ops.tensordot(a, b, dims), out, a, b)


def cartesian_prod(*tensors):
    """Every tuple of one element of each 1-D tensor, as rows."""
    return ops.cartesian_prod(*tensors)


def combinations(input, r=2, with_replacement=False):
    """The ``r``-element combinations of the 1-D ``input``'s elements, as rows."""
    return ops.combinations(input, r, with_replacement)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the rows (variables) of ``input`` over its columns."""
    return ops.cov(input, correction, fweights, aweights)


def corrcoef(input):
    """Pearson's correlation coefficients of the rows of ``input``."""
    return ops.corrcoef(input)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoid rule (sample points ``x``, or
    a spacing ``dx``, 1 by default)."""
    return ops.trapezoid(y, x, dx=dx, dim=dim)


def trapz(y, x=None, *, dx=None, dim=-1):
    """``trapezoid`` by its older name."""
    return ops.trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running integral of ``y`` along ``dim`` by the trapezoid rule."""
    return ops.cumulative_trapezoid(y, x, dx=dx, dim=dim)


@_checks_arguments(_check_scatter_reduce_arguments)
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True, out=None):
    """``input`` with ``src`` reduced into it at ``index`` along ``dim`` ("sum", "prod",
    "mean", "amax" or "amin")."""
    return _out("scatter_reduce", ops.scatter_reduce(input, dim, index, src, reduce,
                                                     include_self=include_self), out, input)


@_checks_arguments(_check_index_put_arguments)
def index_put(input, indices, values, accumulate=False):
    """``input`` with ``values`` written (or added) at ``indices``, a tuple of index tensors."""
    return ops.index_put(input, indices, values, accumulate)


@_checks_arguments(_check_masked_scatter_arguments)
def masked_scatter(input, mask, source):
    """``input`` with the elements of ``source`` written, in order, where ``mask`` is True."""
    return ops.masked_scatter(input, mask, source)


@_numpy_names
@_checks_arguments(_check_dim_function)
def cummax(input, dim, *, out=None):
    """``(values, indices)``: the running maximum along ``dim`` and where each came from."""
    return _out("cummax", ops.cummax(input, dim), out, input)


@_numpy_names
@_checks_arguments(_check_dim_function)
def cummin(input, dim, *, out=None):
    """``(values, indices)``: the running minimum along ``dim`` and where each came from."""
    return _out("cummin", ops.cummin(input, dim), out, input)


@_numpy_names
@_checks_arguments(_check_dim_function)
def logcumsumexp(input, dim, *, out=None):
    """``y_i = log(exp(x_1) + ... + exp(x_i))`` along ``dim``, without overflow."""
    return _out("logcumsumexp", ops.logcumsumexp(input, dim), out, input)


@_numpy_names
@_checks_arguments(_check_max_arguments)
def max(input, dim=None, keepdim=False, *, out=None, other=None):  # noqa: A001 - PyTorch's name
    """The largest element; with ``dim``, (values, indices) along it; with a tensor
    ``other`` (by position or keyword), the elementwise maximum."""
    return _out("max", ops.max(input, dim if other is None else other, keepdim), out, input)


@_numpy_names
@_checks_arguments(_check_max_arguments)
def min(input, dim=None, keepdim=False, *, out=None, other=None):  # noqa: A001 - PyTorch's name
    return _out("min", ops.min(input, dim if other is None else other, keepdim), out, input)


@_numpy_names
def argmax(input, dim=None, keepdim=False, *, out=None):
    return _out("argmax", ops.argmax(input, dim, keepdim), out, input, differentiable=False,
                exact_dtype=True)


@_numpy_names
def argmin(input, dim=None, keepdim=False, *, out=None):
    return _out("argmin", ops.argmin(input, dim, keepdim), out, input, differentiable=False,
                exact_dtype=True)


@_numpy_names
def all(input, dim=None, keepdim=False, *, out=None):  # noqa: A001 - PyTorch's name
    _check_bool_out("all", out)
    return _out("all", ops.all(input, dim, keepdim), out, input, differentiable=False)


@_numpy_names
def any(input, dim=None, keepdim=False, *, out=None):  # noqa: A001 - PyTorch's name
    _check_bool_out("any", out)
    return _out("any", ops.any(input, dim, keepdim), out, input, differentiable=False)


@_numpy_names
def var(input, dim=ops.NOT_GIVEN, unbiased=None, keepdim=False, *, correction=None, out=None):
    return _out("var", ops.var(input, dim, unbiased, keepdim, correction=correction), out, input)


@_numpy_names
def std(input, dim=ops.NOT_GIVEN, unbiased=None, keepdim=False, *, correction=None, out=None):
    return _out("std", ops.std(input, dim, unbiased, keepdim, correction=correction), out, input)


def norm(input, p="fro", dim=None, keepdim=False, *, out=None):
    return _out("norm", ops.linalg_module.torch_norm(input, p, dim, keepdim), out, input)


def hardshrink(input, lambd=0.5, *, out=None):
    """x where |x| > lambd, else 0 (torch.hardshrink, as F.hardshrink)."""
    return _out("hardshrink", ops.activation.hardshrink(input, lambd), out, input)


@_checks_arguments(_check_tensor_function)
def dist(input, other, p=2):
    """The p-norm of input - other (broadcast), over all elements (DistBackward0)."""
    return ops.dist(input, other, p)


@_numpy_names
def logsumexp(input, dim, keepdim=False, *, out=None):
    return _out("logsumexp", ops.logsumexp(input, dim, keepdim), out, input)


@_numpy_names
def softmax(input, dim, dtype=None, *, out=None):
    return _out("softmax", ops.softmax(input, dim, dtype), out, input)


@_numpy_names
def log_softmax(input, dim, dtype=None, *, out=None):
    return _out("log_softmax", ops.log_softmax(input, dim, dtype), out, input)


# ---- one-sided clamps, logical ops, counting (ops/limits.py, ops/compare.py, ops/counting.py)


def clamp_min(input, min, *, out=None):  # noqa: A002 - PyTorch's name
    """max(input, min), elementwise."""
    result = _taken("clamp_min", ops.clamp_min(input, min), input, min)
    return _out("clamp_min", result, out, input, same_dtype=True)


def clamp_max(input, max, *, out=None):  # noqa: A002 - PyTorch's name
    """min(input, max), elementwise."""
    result = _taken("clamp_max", ops.clamp_max(input, max), input, max)
    return _out("clamp_max", result, out, input, same_dtype=True)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """NaN, +inf and -inf replaced by ``nan``, ``posinf``, ``neginf`` (by default 0 and
    the dtype's largest and smallest finite numbers)."""
    return _out("nan_to_num", ops.nan_to_num(input, nan, posinf, neginf), out, input, same_dtype=True)


def logical_and(input, other, *, out=None):
    return _out("logical_and", ops.logical_and(input, other), out, input, other,
                differentiable=False)


def logical_or(input, other, *, out=None):
    return _out("logical_or", ops.logical_or(input, other), out, input, other,
                differentiable=False)


def logical_xor(input, other, *, out=None):
    return _out("logical_xor", ops.logical_xor(input, other), out, input, other,
                differentiable=False)


def logical_not(input, *, out=None):
    return _out("logical_not", ops.logical_not(input), out, input, differentiable=False)


def count_nonzero(input, dim=None):
    """How many elements are not zero (along ``dim``)."""
    return ops.count_nonzero(input, dim)


def nonzero(input, *, out=None, as_tuple=False):
    """The indices of the nonzero elements, one row each (``as_tuple``: one tensor per dim).

    >>> torch.nonzero(torch.tensor([0, 3, 0, 5]))
    tensor([[1],
            [3]])"""
    return _out("nonzero", ops.nonzero(input, as_tuple), out, input, differentiable=False,
                exact_dtype=True)


def argwhere(input):
    return ops.argwhere(input)


def gradient(input, *, spacing=None, dim=None, edge_order=1):
    """The derivative of ``input``'s samples along each dim, estimated by central
    differences (one-sided at the ends), as a tuple of tensors.

    >>> torch.gradient(torch.tensor([4., 1., 1., 16.]), spacing=(torch.tensor([-2., -1., 1., 4.]),))
    (tensor([-3., -2.,  2.,  5.]),)"""
    return ops.gradient(input, spacing, dim, edge_order)


def nonzero_static(input, *, size, fill_value=-1, out=None):
    """``nonzero``'s rows, exactly ``size`` of them: cut, or filled with ``fill_value``.

    >>> torch.nonzero_static(torch.tensor([1, 0, 2, 0, 3]), size=4)
    tensor([[ 0],
            [ 2],
            [ 4],
            [-1]])"""
    _check_nonzero_static_out(out)
    return _out("nonzero_static", ops.nonzero_static(input, size, fill_value), out, input,
                differentiable=False, exact_dtype=True)


def histogramdd(input, bins, *, range=None, weight=None, density=False):  # noqa: A002
    """(hist, bin_edges): a D-dimensional histogram of the points in ``input``'s last dim.

    >>> torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[2, 2]).hist
    tensor([[0., 1.],
            [2., 1.]])"""
    return ops.histogramdd(input, bins, range, weight, density)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct values, sorted (with ``return_inverse``, ``return_counts``)."""
    return ops.unique(input, sorted, return_inverse, return_counts, dim)


def bincount(input, weights=None, minlength=0):
    """How often each of 0, 1, 2, ... occurs (or the sums of ``weights``)."""
    return ops.bincount(input, weights, minlength)


def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):  # noqa: A002
    """(hist, bin_edges): a histogram of ``input``'s elements in ``bins`` equal bins (over
    ``range``, or the elements' own) or between the edges of a 1-D tensor ``bins``."""
    result = ops.histogram(input, bins, range, weight, density)
    if out is None:
        return result
    for target, values in zip(out, result):
        target.resize_(values.shape).copy_(values)
    return ops.HistogramOutResult(*out)


def histc(input, bins=100, min=0, max=0, *, out=None):  # noqa: A002 - PyTorch's names
    """A histogram with ``bins`` equal bins between ``min`` and ``max``."""
    _check_histc_out(input, out)
    return _out("histc", ops.histc(input, bins, min, max), out, input, differentiable=False)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 out=None, sorter=None):
    return _out("searchsorted", ops.searchsorted(sorted_sequence, input, out_int32, right, side,
                                                 sorter), out, differentiable=False)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    return _out("bucketize", ops.bucketize(input, boundaries, out_int32, right), out,
                differentiable=False)


# ---- order: amax, amin, sort, topk, kthvalue, median, mode (ops/sorting.py) ------------------


def amax(input, dim=(), keepdim=False, *, out=None):
    """The largest elements along ``dim`` (an int or a tuple; every dim when empty)."""
    _check_out_dtype_matches("amax", input, out)
    return _out("amax", ops.amax(input, dim, keepdim), out, input)


def amin(input, dim=(), keepdim=False, *, out=None):
    """The smallest elements along ``dim`` (an int or a tuple; every dim when empty)."""
    _check_out_dtype_matches("amin", input, out)
    return _out("amin", ops.amin(input, dim, keepdim), out, input)


def aminmax(input, *, dim=None, keepdim=False, out=None):
    """``(min, max)`` of ``input`` (all elements, or along the int ``dim``), in one pass.

    >>> torch.aminmax(torch.tensor([[1., 3.], [0., 2.]]), dim=1)
    torch.return_types.aminmax(
    min=tensor([1., 0.]),
    max=tensor([3., 2.]))"""
    _check_aminmax_dim(dim)
    return _out("aminmax", ops.aminmax(input, dim, keepdim), out, input, exact_dtype=True)


@_checks_arguments(_check_sort_function)
def sort(input, dim=-1, descending=False, *, stable=ops.NOT_GIVEN, out=None):
    """``(values, indices)``: ``input`` sorted along ``dim``.

    >>> torch.sort(torch.tensor([3., 1., 2.]))
    torch.return_types.sort(
    values=tensor([1., 2., 3.]),
    indices=tensor([1, 2, 0]))"""
    return _out("sort", ops.sort(input, dim, descending, stable), out, input)


@_checks_arguments(_check_sort_function)
def argsort(input, dim=-1, descending=False, *, stable=ops.NOT_GIVEN, out=None):
    """The indices that sort ``input`` along ``dim``."""
    return _out("argsort", ops.argsort(input, dim, descending, stable), out, input,
                differentiable=False, exact_dtype=True)


def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):  # noqa: A002
    """``(values, indices)`` of the ``k`` largest elements along ``dim``."""
    return _out("topk", ops.topk(input, k, dim, largest, sorted), out, input)


def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """``(values, indices)`` of the ``k``-th smallest element along ``dim``."""
    return _out("kthvalue", ops.kthvalue(input, k, dim, keepdim), out, input)


def median(input, dim=ops.NOT_GIVEN, keepdim=False, *, out=None):
    """The median (the lower middle value); with ``dim``, ``(values, indices)``."""
    return _out("median", ops.median(input, dim, keepdim), out, input)


@_checks_arguments(_check_nanmedian_dim)
def nanmedian(input, dim=ops.NOT_GIVEN, keepdim=False, *, out=None):
    """The median of the values that are not NaN; with ``dim``, ``(values, indices)``."""
    return _out("nanmedian", ops.nanmedian(input, dim, keepdim), out, input)


def _check_quantile_out(out, input):
    if isinstance(out, _Tensor) and out.dtype is not input.dtype:
        raise RuntimeError("quantile() out tensor must be same dtype as the input tensor")


@_checks_arguments(_check_quantile_arguments)
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The ``q``-th quantiles of ``input`` (a number or a 1-D tensor of them in [0, 1]),
    of all its elements or along ``dim``, read between sorted values by ``interpolation``
    ('linear', 'lower', 'higher', 'midpoint' or 'nearest').

    >>> torch.quantile(torch.tensor([1., 2., 4., 8.]), torch.tensor([0.25, 0.5]))
    tensor([1.7500, 3.0000])"""
    result = ops.quantile(input, q, dim, keepdim, interpolation)
    _check_quantile_out(out, input)
    return _out("quantile", result, out, input)


@_checks_arguments(_check_quantile_arguments)
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """``quantile`` of the values that are not NaN."""
    result = ops.nanquantile(input, q, dim, keepdim, interpolation)
    _check_quantile_out(out, input)
    return _out("nanquantile", result, out, input)


def mode(input, dim=-1, keepdim=False, *, out=None):
    """``(values, indices)``: the most frequent value along ``dim``."""
    return _out("mode", ops.mode(input, dim, keepdim), out, input)


# ---- matrix products ---------------------------------------------------------------------------


@_checks_arguments(_check_tensor_function)
def matmul(input, other, *, out=None):
    """The matrix product, with NumPy's rules for 1-D and batched operands."""
    _check_matmul_out("matmul", out, input, other)
    return _out("matmul", ops.matmul(input, other), out, input, other, exact_dtype=True)


@_checks_arguments(_check_tensor_function)
def mm(input, mat2, *, out=None):
    _check_matmul_out("mm", out, input, mat2)
    return _out("mm", ops.mm(input, mat2), out, input, mat2, exact_dtype=True)


@_checks_arguments(_check_tensor_function)
def mv(input, vec, *, out=None):
    return _out("mv", ops.mv(input, vec), out, input, vec, exact_dtype=True)


@_checks_arguments(_check_tensor_function)
def dot(input, tensor, *, out=None):
    return _out("dot", ops.dot(input, tensor), out, input, tensor, exact_dtype=True)


@_checks_arguments(_check_tensor_function)
def bmm(input, mat2, *, out=None):
    return _out("bmm", ops.bmm(input, mat2), out, input, mat2, exact_dtype=True)


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2): a linear layer's bias plus product."""
    return _out("addmm", ops.addmm(input, mat1, mat2, beta=beta, alpha=alpha), out, input,
                mat1, mat2, exact_dtype=True)


def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat @ vec)."""
    return _out("addmv", ops.addmv(input, mat, vec, beta=beta, alpha=alpha), out, input, mat,
                vec, exact_dtype=True)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (batch1 @ batch2), batch by batch."""
    return _out("baddbmm", ops.baddbmm(input, batch1, batch2, beta=beta, alpha=alpha), out,
                input, batch1, batch2, exact_dtype=True)


@_checks_arguments(_check_tensor_function)
def ldexp(input, other, *, out=None):
    """input * 2 ** other (a float result)."""
    return _out("ldexp", ops.ldexp(input, other), out, input, other)


def frexp(input, *, out=None):
    """(mantissa, exponent) with input = mantissa * 2 ** exponent, |mantissa| in [0.5, 1).

    >>> torch.frexp(torch.tensor([8., 0.75]))
    torch.return_types.frexp(
    mantissa=tensor([0.5000, 0.7500]),
    exponent=tensor([4, 0], dtype=torch.int32))"""
    if out is not None:
        raise NotImplementedError("minigrad: frexp(out=) is not implemented")
    return ops.frexp(input)


def renorm(input, p, dim, maxnorm, *, out=None):
    """Each slice of ``input`` along ``dim`` whose p-norm exceeds ``maxnorm`` scaled down to
    it (by maxnorm / (norm + 1e-7))."""
    return _out("renorm", ops.renorm(input, p, dim, maxnorm), out, input)


def norm_except_dim(v, pow: float = 2, dim: int = 0):
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (kept as size-1 dims; dim=-1:
    of all of v), as ATen composes it (the view, norm and view a graph shows)."""
    if dim == -1:
        return ops.reduction.aten_norm(v, pow)
    if dim == 0:
        return ops.reduction.aten_norm(v.contiguous().view(v.shape[0], -1), pow, 1).view(
            (v.shape[0],) + (1,) * (v.dim() - 1))
    if dim == v.dim() - 1:
        return ops.reduction.aten_norm(v.contiguous().view(-1, v.shape[-1]), pow, 0).view(
            (1,) * (v.dim() - 1) + (v.shape[-1],))
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v, g, dim: int = 0):
    """v * (g / ||v||), the norm over every dim but ``dim``: weight normalisation (Salimans
    and Kingma, 2016). For the first or the last dim one fused node,
    WeightNormInterfaceBackward0, as PyTorch; otherwise its composition."""
    v, g = v.contiguous(), g.contiguous()
    if dim == 0 or dim == v.dim() - 1:
        return ops.weight_norm(v, g, dim)
    return v * (g / norm_except_dim(v, 2, dim))


def vdot(input, other, *, out=None):
    """sum(conj(input) * other) for vectors (real numbers: torch.dot)."""
    return _out("vdot", ops.vdot(input, other), out, input, other, exact_dtype=True)


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * outer(vec1, vec2)."""
    return _out("addr", ops.addr(input, vec1, vec2, beta=beta, alpha=alpha), out, input, vec1,
                vec2)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (the sum over the batch of batch1[i] @ batch2[i])."""
    return _out("addbmm", ops.addbmm(input, batch1, batch2, beta=beta, alpha=alpha), out, input,
                batch1, batch2, exact_dtype=True)


def select_scatter(input, src, dim, index, *, out=None):
    """A copy of ``input`` with ``input.select(dim, index)`` replaced by ``src``."""
    return _out("select_scatter", ops.select_scatter(input, src, dim, index), out, input, src)


def slice_scatter(input, src, dim=0, start=None, end=None, step=1, *, out=None):
    """A copy of ``input`` with ``input[start:end:step]`` along ``dim`` replaced by ``src``."""
    return _out("slice_scatter", ops.slice_scatter(input, src, dim, start, end, step), out, input, src)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1, *, out=None):
    """A copy of ``input`` with its diagonal replaced by ``src``."""
    return _out("diagonal_scatter", ops.diagonal_scatter(input, src, offset, dim1, dim2), out, input, src)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A copy of ``input`` with the elements ``input.as_strided(size, stride,
    storage_offset)`` would view replaced by ``src``.

    >>> torch.as_strided_scatter(torch.zeros(2, 3), torch.ones(2, 2), (2, 2), (1, 2))
    tensor([[1., 1., 1.],
            [1., 0., 0.]])"""
    return ops.as_strided_scatter(input, src, size, stride, storage_offset)


def narrow_copy(input, dim, start, length, *, out=None):
    """A new tensor holding ``input.narrow(dim, start, length)``'s elements (no view)."""
    return _out("narrow_copy", ops.narrow_copy(input, dim, start, length), out, input)


def cross(input, other, dim=None, *, out=None):
    """The cross product of 3-vectors along ``dim``."""
    return _out("cross", ops.cross(input, other, dim), out, input, other)


# ---- torch.linalg's functions under their older torch.* names (ops/linalg_module.py) ---------


def inverse(input, *, out=None):
    """A^{-1} (torch.linalg.inv): LinalgInvExBackward0."""
    return _out("inverse", ops.linalg_module.inv(input), out, input)


def det(input):
    return ops.linalg_module.det(input)


def logdet(input):
    """log det(input): nan for a negative determinant, -inf for a singular matrix."""
    return ops.linalg_module.logdet(input)


def slogdet(input, *, out=None):
    """(sign, logabsdet), as torch.return_types.slogdet."""
    return _out("slogdet", ops.linalg_module.slogdet(
        input, result=ops.linalg_module.TorchSlogdetResult), out, input)


def matrix_exp(input):
    return ops.linalg_module.matrix_exp(input)


def lu(*args, **kwargs):
    """Deprecated for torch.linalg.lu_factor (PyTorch's warning once): lu(A, pivot=True,
    get_infos=False) gives (LU, pivots), with ``get_infos`` (LU, pivots, info); a singular A
    raises nothing. (PyTorch's signature is (*args, **kwargs), as here.)"""
    return _lu(*args, **kwargs)


def _lu(A, pivot=True, get_infos=False):
    errors.warn_once(errors.LU_DEPRECATED)
    result = ops.linalg_lu.lu_with_info(A, pivot)
    return result if get_infos else (result.LU, result.pivots)


def lu_solve(input, LU_data, LU_pivots, *, out=None):
    """Deprecated for torch.linalg.lu_solve, whose arguments come in the other order
    (PyTorch's warning once): X with A X = input, from A's LU factors."""
    errors.warn_once(errors.LU_SOLVE_DEPRECATED)
    return _out("lu_solve", ops.linalg_lu.lu_solve(LU_data, LU_pivots, input), out, LU_data,
                input)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """(P, L, U) from ``torch.linalg.lu_factor``'s (LU, pivots): A = P L U."""
    return _out("lu_unpack", ops.linalg_lu.lu_unpack(LU_data, LU_pivots, unpack_data,
                                                     unpack_pivots), out, LU_data)


def matrix_power(input, n, *, out=None):
    return _out("matrix_power", ops.linalg_module.matrix_power(input, n), out, input)


def svd(input, some=True, compute_uv=True, *, out=None):
    """(U, S, V) with input = U diag(S) V^T (torch.linalg.svd gives Vh = V^T)."""
    return _out("svd", ops.linalg_module.svd_with_v(input, some, compute_uv), out, input)


@_checks_arguments(_check_input_function)
def geqrf(input, *, out=None):
    """LAPACK's geqrf: (a, tau), R on and above the diagonal of a, the Householder vectors
    below it (torch.linalg.householder_product makes Q of them)."""
    return _out("geqrf", ops.householder.geqrf(input), out, input)


def orgqr(input, input2, *, out=None):
    """torch.linalg.householder_product by LAPACK's name (``input2`` is tau)."""
    return _out("orgqr", ops.householder.householder_product(input, input2), out, input, input2)


def pinverse(input, rcond=1e-15):
    """The pseudo-inverse (torch.linalg.pinv with rtol=rcond)."""
    return ops.linalg_module.pinv(input, None, rcond, False)


def cholesky(input, upper=False, *, out=None):
    """The Cholesky factor L of A = L L^T (``upper``: U with A = U^T U); deprecated for
    torch.linalg.cholesky, with PyTorch's warning once. CholeskyBackward0."""
    errors.warn_once(errors.CHOLESKY_DEPRECATED)
    return _out("cholesky", ops.linalg_module.cholesky_old(input, upper), out, input)


def cholesky_solve(input, input2, upper=False, *, out=None):
    """X with A X = B, given B (``input``) and the Cholesky factor of A (``input2``)."""
    return _out("cholesky_solve", ops.linalg_module.cholesky_solve(input, input2, upper), out,
                input, input2)


def cholesky_inverse(input, upper=False, *, out=None):
    """A^{-1} from A's Cholesky factor."""
    return _out("cholesky_inverse", ops.linalg_module.cholesky_inverse(input, upper), out,
                input)


# ---- shape ----------------------------------------------------------------------------------


def _check_reshape_arguments(function: str, args: tuple, kwargs: dict) -> None:
    """torch.reshape(input, shape): ``shape`` a tuple of ints (never the ints themselves)."""
    if len(args) > 2:
        return  # Python's own error is PyTorch's: reshape() takes 2 positional arguments ...
    if len(args) < 2 and "shape" not in kwargs:
        raise _missing_arguments("reshape", ["input", "shape"][len(args):])
    shape = args[1] if len(args) == 2 else kwargs["shape"]
    _int_list(function, "shape", shape, position=2 if len(args) == 2 else None)


@_checks_arguments(_check_reshape_arguments)
def reshape(input, shape):
    return ops.reshape(input, shape)


def flatten(input, start_dim=0, end_dim=-1):
    return ops.flatten(input, start_dim, end_dim)


def transpose(input, dim0, dim1):
    return ops.transpose(input, dim0, dim1)


def t(input):
    return ops.t(input)


def permute(input, dims):
    return ops.permute(input, dims)


@_numpy_names
def unsqueeze(input, dim):
    return ops.unsqueeze(input, dim)


@_numpy_names
def squeeze(input, dim=None):
    return ops.squeeze(input, dim)


def flip(input, dims):
    return ops.flip(input, dims)


def fliplr(input):
    return ops.fliplr(input)


def flipud(input):
    return ops.flipud(input)


def adjoint(input):
    return input.adjoint()


# (complex numbers: minigrad's dtypes are all real; these are what torch gives for real ones)
def real(input):
    return input.real


def imag(input):
    return input.imag


def conj(input):
    return input.conj()


def conj_physical(input, *, out=None):
    return input.conj_physical() if out is None else _out("conj_physical", input, out, input)


def resolve_conj(input):
    return input.resolve_conj()


def resolve_neg(input):
    return input.resolve_neg()


def is_conj(input) -> bool:
    return input.is_conj()


def narrow(input, dim, start, length):
    return ops.narrow(input, dim, start, length)


@_checks_arguments(_check_split_function)
def unbind(input, dim=0):
    """The slices of ``input`` along ``dim``, as a tuple of views."""
    return ops.unbind(input, dim)


def split(tensor, split_size_or_sections, dim=0):
    """``tensor`` cut along ``dim`` into views: of ``split_size_or_sections`` each (an
    int; the last may be shorter) or of the sizes listed."""
    return tensor.split(split_size_or_sections, dim)


@_checks_arguments(_check_split_function)
def split_with_sizes(input, split_sizes, dim=0):
    return ops.split_with_sizes(input, split_sizes, dim)


@_checks_arguments(_check_split_function)
def unsafe_split(input, split_size, dim=0):
    """``split`` (an int size) into parts that share memory with ``input`` but are
    not views for autograd: they may be changed in place (UnsafeSplitBackward0)."""
    return ops.unsafe_split(input, split_size if _is_int(split_size) else int(split_size), dim)


@_checks_arguments(_check_split_function)
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """``split_with_sizes`` into parts that are not views for autograd."""
    return ops.unsafe_split_with_sizes(input, split_sizes, dim)


@_checks_arguments(_check_split_function)
def unsafe_chunk(input, chunks, dim=0):
    """``chunk`` into parts that are not views for autograd."""
    return ops.unsafe_chunk(input, chunks, dim)


def tensor_split(*args, **kwargs):
    # (PyTorch's three overloads take sections=, indices= or tensor_indices_or_sections=)
    input, value, dim = _parse_tensor_split(args, kwargs, method=False)
    return ops.tensor_split(input, value, dim)


def _documented_tensor_split(input, indices_or_sections, dim=0):
    """``input`` cut along ``dim`` into views, each a slice of its own
    (``SliceBackward0``): ``indices_or_sections`` is a number of parts (an int; their
    sizes differ by one at most, the larger first) or the indices to cut before (a
    list), or a tensor of dtype long holding either."""


tensor_split.__doc__ = _documented_tensor_split.__doc__
tensor_split.__wrapped__ = _documented_tensor_split  # (the signature help() shows)


@_checks_arguments(_check_split_function)
def chunk(input, chunks, dim=0):
    """``input`` cut along ``dim`` into ``chunks`` views of equal size (the last may
    be smaller)."""
    return ops.chunk(input, chunks, dim)


def select(input, dim, index):
    return ops.select(input, dim, index)


def gather(input, dim, index, *, sparse_grad=False, out=None):
    """``input`` read along ``dim`` at ``index``: for dim 1,
    ``out[i][j] = input[i][index[i][j]]``.

    >>> torch.gather(torch.tensor([[1., 2.], [3., 4.]]), 1, torch.tensor([[0, 0], [1, 0]]))
    tensor([[1., 1.],
            [4., 3.]])"""
    return _out("gather", ops.gather(input, dim, index, sparse_grad=sparse_grad), out, input)


def pdist(input, p=2):  # noqa: A002 - PyTorch's name
    """The p-norm distance between each pair of rows i < j of a 2-D ``input``."""
    return ops.pdist(input, p)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of ``x1`` and each row of ``x2``."""
    return ops.cdist(x1, x2, p, compute_mode)


def roll(input, shifts, dims=None):
    """``input`` shifted along ``dims``, wrapping around (no ``dims``: flattened)."""
    return ops.roll(input, shifts, dims)


def rot90(input, k=1, dims=(0, 1)):
    """``input`` turned ``k`` quarter turns in the plane of ``dims``."""
    return ops.rot90(input, k, dims)


def tile(input, dims):
    """``input`` repeated ``dims[d]`` times along each dim (fewer dims: ones in front)."""
    return ops.tile(input, dims)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along ``dim``) repeated ``repeats`` times in place.

    >>> torch.repeat_interleave(torch.tensor([1, 2]), 2)
    tensor([1, 1, 2, 2])"""
    if repeats is None:  # (torch.repeat_interleave(counts): the indices, each counts[i] times)
        return ops.repeat_interleave(_creation.arange(input.numel()), input, 0)
    return ops.repeat_interleave(input, repeats, dim, output_size)


def hstack(tensors, *, out=None):
    """Join side by side: along dim 1, or dim 0 for vectors."""
    return _out("hstack", ops.hstack(tensors), out, *tensors)


def vstack(tensors, *, out=None):
    """Join one above the other: along dim 0, vectors read as rows."""
    return _out("vstack", ops.vstack(tensors), out, *tensors)


def row_stack(tensors, *, out=None):
    return _out("row_stack", ops.vstack(tensors), out, *tensors)


def dstack(tensors, *, out=None):
    return _out("dstack", ops.dstack(tensors), out, *tensors)


def column_stack(tensors, *, out=None):
    """Vectors as columns, side by side."""
    return _out("column_stack", ops.column_stack(tensors), out, *tensors)


def outer(input, vec2, *, out=None):
    """The outer product: ``out[i][j] = input[i] * vec2[j]``."""
    return _out("outer", ops.outer(input, vec2), out, input, vec2)


def ger(input, vec2, *, out=None):
    return _out("ger", ops.outer(input, vec2), out, input, vec2)


def kron(input, other, *, out=None):
    return _out("kron", ops.kron(input, other), out, input, other)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from vectors (``indexing='ij'`` or ``'xy'``)."""
    return ops.meshgrid(*tensors, indexing=indexing)


def einsum(*args):
    """Sums of products named by subscripts, e.g. ``einsum('ij,jk->ik', a, b)``, or in
    the sublist format ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    equation, operands = _einsum_equation(args)
    return ops.einsum(equation, *operands)


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal of ``input`` in the plane of ``dim1`` and ``dim2`` (a view)."""
    return ops.diagonal(input, offset, dim1, dim2)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    return ops.diag_embed(input, offset, dim1, dim2)


def diag(input, diagonal=0, *, out=None):
    """A vector laid on a matrix's diagonal, or a matrix's diagonal as a vector.

    >>> torch.diag(torch.tensor([1., 2.]))
    tensor([[1., 0.],
            [0., 2.]])"""
    return _out("diag", ops.diag(input, diagonal), out, input)


def trace(input):
    """The sum of a matrix's main diagonal."""
    return ops.trace(input)


def index_select(input, dim, index, *, out=None):
    """The slices of ``input`` at ``index`` (a 1-D int tensor) along ``dim``.

    >>> torch.index_select(torch.tensor([[1., 2.], [3., 4.]]), 0, torch.tensor([1, 1]))
    tensor([[3., 4.],
            [3., 4.]])"""
    return _out("index_select", ops.index_select(input, dim, index), out, input)


def index_add(input, dim, index, source, *, alpha=1, out=None):
    return _out("index_add", ops.index_add(input, dim, index, source, alpha=alpha), out, input)


def index_fill(input, dim, index, value):
    return ops.index_fill(input, dim, index, value)


def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """``input`` with ``source``'s slices reduced into it at ``index`` along ``dim``
    ("prod", "mean", "amax" or "amin"; ``include_self=False``: input's own slices left out)."""
    return _out("index_reduce", ops.index_reduce(input, dim, index, source, reduce, include_self),
                out, input)


def index_copy(input, dim, index, source, *, out=None):
    return _out("index_copy", ops.index_copy(input, dim, index, source), out, input)


def scatter(input, dim, index, src=None, *, value=None, reduce=None, out=None):
    """``input`` with ``src``'s elements (or ``value``) written at ``index`` along ``dim``."""
    return _out("scatter", ops.scatter(input, dim, index, src, value=value, reduce=reduce),
                out, input)


def scatter_add(input, dim, index, src, *, out=None):
    return _out("scatter_add", ops.scatter_add(input, dim, index, src), out, input)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """Randomized leaky ReLU: x where x > 0, else a * x, with a drawn from U(lower, upper)
    for each element while ``training``, (lower + upper) / 2 otherwise."""
    return ops.activation.rrelu(input, lower, upper, training,
                                _random.cpu_generator(generator, "rrelu"))


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, *, generator=None):
    """``rrelu`` in place (RreluWithNoiseBackward1, which saves the result)."""
    return ops.inplace(input, ops.activation.rrelu, lower, upper, training,
                       _random.cpu_generator(generator, "rrelu_"), True)


def block_diag(*tensors):
    """The tensors as blocks along the diagonal of one matrix, zeros elsewhere.

    >>> torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor([5]))
    tensor([[1, 2, 0],
            [3, 4, 0],
            [0, 0, 5]])"""
    for number, tensor in enumerate(tensors):
        if not isinstance(tensor, _Tensor):
            raise TypeError(f"expected Tensor as element {number} in argument 0, "
                            f"but got {type(tensor).__name__}")
    return ops.block_diag(*tensors)


@_numpy_names
def cat(tensors, dim=0, *, out=None):
    """Join tensors along an existing dimension."""
    return _out("cat", ops.cat(tensors, dim), out, *tensors)


@_numpy_names
def stack(tensors, dim=0, *, out=None):
    """Join tensors along a new dimension."""
    return _out("stack", ops.stack(tensors, dim), out, *tensors)


def clone(input, *, memory_format=None):
    return _Tensor.clone(input, memory_format=memory_format or _layouts.preserve_format)


def numel(input):
    """The number of elements."""
    return input.numel()



# ---- other names (ops/aliases.py: PyTorch composes them from the ops above) -------------------


@_numpy_names
def concat(tensors, dim=0, *, out=None):
    """``torch.cat`` under NumPy's other name."""
    return _out("cat", ops.cat(tensors, dim), out, *tensors)


def concatenate(tensors, axis=0, *, out=None):
    """``torch.cat`` under NumPy's name (``axis`` for ``dim``)."""
    return _out("cat", ops.cat(tensors, axis), out, *tensors)


@_checks_arguments(_check_binary_arguments)
def true_divide(input, other, *, out=None):
    """``torch.div`` without a rounding mode."""
    return div(input, other, out=out)


def negative(input, *, out=None):
    return _out("neg", ops.neg(input), out, input, same_dtype=True)


def absolute(input, *, out=None):
    _check_kept_dtype_out("abs", out, input)
    return _out("abs", ops.abs(input), out, input, same_dtype=True)


def positive(input):
    return ops.aliases.positive(input)


def swapaxes(input, axis0, axis1):
    return ops.transpose(input, axis0, axis1)


def swapdims(input, dim0, dim1):
    return ops.transpose(input, dim0, dim1)


@_checks_arguments(_check_movedim_arguments)
def movedim(input, source, destination):
    """The dims ``source`` moved to ``destination`` (a permute)."""
    return ops.aliases.movedim(input, source, destination)


@_checks_arguments(_check_movedim_arguments)
def moveaxis(input, source, destination):
    return ops.aliases.movedim(input, source, destination)


@_checks_arguments(_check_typed_arguments)
def unflatten(input, dim, sizes):
    """Dim ``dim`` split into ``sizes`` (a view)."""
    return ops.aliases.unflatten(input, dim, sizes)


def ravel(input):
    return ops.aliases.ravel(input)


def msort(input, *, out=None):
    return _out("sort", ops.aliases.msort(input), out, input)


@_checks_arguments(_check_input_function)
def is_floating_point(input):
    return input.is_floating_point()


@_checks_arguments(_check_input_function)
def is_complex(input):
    return input.is_complex()


@_checks_arguments(_check_input_function)
def is_inference(input):
    """True for a tensor made inside ``inference_mode()``."""
    return input.is_inference()


@_checks_arguments(_check_typed_arguments)
def broadcast_to(input, size):
    """``input`` expanded to ``size`` (a view): ``input.expand(size)``."""
    return ops.aliases.broadcast_to(input, size)


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (none: an empty tuple, as PyTorch's)."""
    return ops.aliases.broadcast_tensors(*tensors) if tensors else ()


def atleast_1d(*tensors):
    return ops.aliases.atleast(1, tensors)


def atleast_2d(*tensors):
    return ops.aliases.atleast(2, tensors)


def atleast_3d(*tensors):
    return ops.aliases.atleast(3, tensors)


@_checks_arguments(_check_split_sections)
def hsplit(input, indices_or_sections):
    return ops.aliases.hsplit(input, indices_or_sections)


@_checks_arguments(_check_split_sections)
def vsplit(input, indices_or_sections):
    return ops.aliases.vsplit(input, indices_or_sections)


@_checks_arguments(_check_split_sections)
def dsplit(input, indices_or_sections):
    return ops.aliases.dsplit(input, indices_or_sections)


def take_along_dim(input, indices, dim=None, *, out=None):
    """``input`` read at ``indices`` along ``dim`` (flattened when None)."""
    return _out("take_along_dim", ops.aliases.take_along_dim(input, indices, dim), out, input)


@_checks_arguments(_check_typed_arguments)
def diff(input, n=1, dim=-1, prepend=None, append=None, *, out=None):
    """Differences of neighbours along ``dim``, ``n`` times."""
    return _out("diff", ops.aliases.diff(input, n, dim, prepend, append), out, input)


# ---- bitwise and integer functions (ops/compare.py) ------------------------------------------


def bitwise_and(input, other, *, out=None):
    """``input & other`` on bool and integer tensors."""
    result = _taken("bitwise_and", _bitwise(ops.bitwise_and, input, other), input, other)
    return _out("bitwise_and", result, out, input)


def bitwise_or(input, other, *, out=None):
    result = _taken("bitwise_or", _bitwise(ops.bitwise_or, input, other), input, other)
    return _out("bitwise_or", result, out, input)


def bitwise_xor(input, other, *, out=None):
    result = _taken("bitwise_xor", _bitwise(ops.bitwise_xor, input, other), input, other)
    return _out("bitwise_xor", result, out, input)


def _taken(function: str, result, input, other):
    """``result``, unless the op stepped aside (NotImplemented: an operand neither a
    tensor nor a number, which its operator hands to Python): PyTorch's parser's error."""
    if result is NotImplemented:
        raise _refused_operands(function, (input, other))
    return result


def _bitwise(op, input, other):
    if not isinstance(input, _Tensor):  # (``torch.bitwise_or(2, x)``: PyTorch's overload)
        input, other = other, input
    return op(input, other)


def bitwise_left_shift(input, other, *, out=None):
    """``input << other`` on integer tensors (``input`` may be a number)."""
    if not (_is_tensor(input) and _is_operand(other) or _is_operand(input) and _is_tensor(other)):
        raise _refused_operands("bitwise_left_shift", (input, other))
    first = ops.compare.number_first(input, other)
    return _out("bitwise_left_shift", ops.bitwise_left_shift(first, other), out, first)


def bitwise_right_shift(input, other, *, out=None):
    """``input >> other`` on integer tensors (``input`` may be a number)."""
    if not (_is_tensor(input) and _is_operand(other) or _is_operand(input) and _is_tensor(other)):
        raise _refused_operands("bitwise_right_shift", (input, other))
    first = ops.compare.number_first(input, other)
    return _out("bitwise_right_shift", ops.bitwise_right_shift(first, other), out, first)


def bitwise_not(input, *, out=None):
    """``~input`` on bool and integer tensors."""
    _check_kept_dtype_out("bitwise_not", out, input, differentiable=False)
    return _out("bitwise_not", ops.bitwise_not_function(input), out, input, differentiable=False)


@_checks_arguments(_check_tensor_function)
def gcd(input, other, *, out=None):
    """The greatest common divisor of integers, elementwise."""
    return _out("gcd", ops.gcd(input, other), out, input, other)


@_checks_arguments(_check_tensor_function)
def lcm(input, other, *, out=None):
    """The least common multiple of integers, elementwise."""
    return _out("lcm", ops.lcm(input, other), out, input, other)


def signbit(input, *, out=None):
    """Whether each element's sign bit is set (-0.0 included)."""
    _check_signbit_out(out)
    return _out("signbit", ops.signbit(input), out, input, differentiable=False)


@_checks_arguments(_check_isin_arguments)
def isin(elements, test_elements, *, assume_unique=False, invert=False, out=None):
    """Whether each of ``elements`` is in ``test_elements``."""
    return _out("isin", ops.isin(elements, test_elements, invert), out)


# ---- nan-ignoring reductions, fmax/fmin, take (ops/reduction.py, pointwise.py, gather.py) -----


def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The sum with NaN counted as zero."""
    return _out("nansum", ops.nansum(input, dim, keepdim, dtype=dtype), out, input)


def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The mean of the elements that are not NaN."""
    return _out("nanmean", ops.nanmean(input, dim, keepdim, dtype=dtype), out, input)


@_checks_arguments(_check_tensor_function)
def fmax(input, other, *, out=None):
    """The larger of two tensors, elementwise, NaN ignored where the other is a number."""
    return _out("fmax", ops.fmax(input, other), out, input, other)


@_checks_arguments(_check_tensor_function)
def fmin(input, other, *, out=None):
    """The smaller of two tensors, elementwise, NaN ignored where the other is a number."""
    return _out("fmin", ops.fmin(input, other), out, input, other)


def put(input, index, source, accumulate=False, *, out=None):
    """``input`` read as one dim with ``source``'s elements written at ``index`` (added
    there with ``accumulate``)."""
    _check_put_arguments(index, source, "put", 2)
    return _out("put", ops.put(input, index, source, accumulate), out, input, source)


def take(input, index, *, out=None):
    """The elements of ``input`` read as one dimension, at ``index``."""
    return _out("take", ops.take(input, index), out, input)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """``(var, mean)`` of ``input`` (all elements, or along ``dim``), computed together."""
    return _out("var_mean", ops.var_mean(input, dim, unbiased, keepdim,
                                         correction=correction), out, input)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """``(std, mean)`` of ``input`` (all elements, or along ``dim``), computed together."""
    return _out("std_mean", ops.std_mean(input, dim, unbiased, keepdim,
                                         correction=correction), out, input)


# ---- dtypes ----------------------------------------------------------------------------------


def promote_types(type1, type2):
    """The smallest dtype both can be converted to without losing their kind."""
    return _dtypes.promote_types(type1, type2)


def result_type(tensor, other):
    """The dtype an operation on ``tensor`` and ``other`` (a tensor or a number) gives."""
    if not _builtins.all(isinstance(v, _Tensor) or _is_number(v) for v in (tensor, other)):
        raise _parser_invalid("result_type", _RESULT_TYPE_OVERLOADS, (tensor, other), {})
    return _dtypes.result_type(tensor, other)


_RESULT_TYPE_OVERLOADS = ("Tensor tensor, Tensor other", "Number scalar, Tensor tensor",
                          "Tensor tensor, Number other", "Number scalar1, Number scalar2")


def _number_tensor(value):
    """``torch.add(2, 3)``: two numbers, the first read as a 0-dim tensor (as torch's parser)."""
    return _creation.tensor(value)


# ---- torch.exp_(x), torch.relu_(x), ...: the in-place methods as functions -------------------

# (PyTorch has these at the top level too; each changes its input, as the method does)
INPLACE_FUNCTION_NAMES = (
    "abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_",
    "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_",
    "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_", "erfc_", "exp2_",
    "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_", "gcd_", "i0_", "index_put_", "lcm_",
    "ldexp_", "log10_", "log1p_", "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_",
    "rad2deg_", "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_",
    "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_", "xlogy_", "zero_",
    # (and a few methods that are not in place, with the same top-level names)
    "detach", "is_neg", "is_nonzero", "is_same_size", "is_signed", "as_strided",
)


def _method_as_function(name: str):
    def function(input, *args, **kwargs):
        _check_input_function(name, (input,), {})
        return getattr(input, name)(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``input.{name}(...)``, as a function."
    method = _inspect.signature(getattr(_Tensor, name))  # (the method's, self named input)
    parameters = list(method.parameters.values())
    function.__signature__ = method.replace(
        parameters=[parameters[0].replace(name="input"), *parameters[1:]])
    return function


METHOD_FUNCTIONS = {name: _method_as_function(name) for name in INPLACE_FUNCTION_NAMES}


# ---- shapes, dtypes and indices as data ------------------------------------------------------


def broadcast_shapes(*shapes):
    """The shape tensors of ``shapes`` broadcast to (an int is a 1-D shape), computed
    without tensors, with PyTorch's errors."""
    sizes = [(shape,) if isinstance(shape, int) else tuple(shape) for shape in shapes]
    for shape in sizes:
        for size in shape:
            if not isinstance(size, int) or isinstance(size, bool):
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item 0 is "
                                f"'{type(size).__name__}')")
            if size < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
    result = [1] * _builtins.max((len(shape) for shape in sizes), default=0)
    for position, shape in enumerate(sizes):
        for back, size in enumerate(reversed(shape), 1):
            if result[-back] == 1:
                result[-back] = size
            elif size != 1 and size != result[-back]:
                given = shapes[position]  # (a torch.Size prints as one)
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {-back}! "
                    f"Mismatching argument at index {position} had "
                    f"{given if isinstance(given, _Size) else shape}; but expected "
                    f"shape should be broadcastable to {list(result)}")
    return _Size(result)


def can_cast(from_, to):
    """Whether PyTorch's type promotion lets a ``from_`` value be written into a ``to``
    tensor: not to a lower kind (float to integer, integer to bool)."""
    for position, (name, value) in enumerate((("from_", from_), ("to", to)), 1):
        if not isinstance(value, _dtypes.dtype):
            raise TypeError(f"can_cast(): argument '{name}' (position {position}) must be "
                            f"torch.dtype, not {type(value).__name__}")
    return from_.category <= to.category


def typename(obj) -> str:
    """``'torch.FloatTensor'`` for a float32 tensor (its legacy type name), else the
    object's module and class (``minigrad.nn.linear.Linear`` where PyTorch says
    ``torch.nn.modules.linear.Linear``)."""
    if isinstance(obj, _Tensor):
        return obj.type()
    module = getattr(obj, "__module__", None)
    kind = obj if isinstance(obj, type) else type(obj)
    return kind.__qualname__ if module in (None, "builtins") else f"{module}.{kind.__qualname__}"


def unravel_index(indices, shape):
    """The coordinates in ``shape`` of flat indices: a tuple of tensors, one per dim,
    computed as PyTorch computes them (``indices // strides % shape``, so an index
    beyond the shape wraps around)."""
    if indices.dtype.is_floating_point or indices.dtype is _dtypes.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = _Size([shape] if isinstance(shape, int) else shape)
    if _builtins.any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    strides = [int(_np.prod(shape[k + 1:], dtype=_np.int64)) for k in range(len(shape))]
    coordinates = indices.unsqueeze(-1).floor_divide(
        _creation.tensor(strides, dtype=_dtypes.int64)) % _creation.tensor(list(shape), dtype=_dtypes.int64)
    return unbind(coordinates, -1)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix: column j holds x ** (N - 1 - j) (``increasing``: x ** j),
    built as PyTorch builds it, a cumulative product of copies of x."""
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    N = x.shape[0] if N is None else N
    if N < 0:
        raise RuntimeError("N must be non-negative.")
    result = _creation.ones((x.shape[0], N), dtype=_dtypes.promote_types(x.dtype, _dtypes.int64))
    if N > 1:
        result[:, 1:] = x.unsqueeze(1)
        result[:, 1:] = cumprod(result[:, 1:], 1)
    return result if increasing else flip(result, (1,))


_CHAIN_MATMUL_DEPRECATED = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters.")


def chain_matmul(*matrices, out=None):
    """Deprecated in PyTorch for ``torch.linalg.multi_dot``, which it calls (and says so
    once, as PyTorch's TORCH_WARN_ONCE)."""
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    errors.warn_once(_CHAIN_MATMUL_DEPRECATED, stacklevel=2)  # (from the library, as PyTorch's)
    if len(matrices) == 1:
        return _out("chain_matmul", clone(matrices[0]), out, matrices[0])
    return _out("chain_matmul", _linalg.multi_dot(list(matrices)), out, matrices[0])


def mkldnn_rnn_layer(input, weight0, weight1, weight2, weight3, hx_, cx_, reverse,
                     batch_sizes, mode, hidden_size, num_layers, has_biases, bidirectional,
                     batch_first, train, *, out=None):
    """One float32 LSTM layer in one direction, as PyTorch's CPU runs it through oneDNN:
    (output, h_T, c_T, workspace) of one node, ``MkldnnRnnLayerBackward0`` (``nn.LSTM``
    calls it; the workspace, oneDNN's scratch memory, is an empty uint8 tensor here)."""
    if mode != 2 or not has_biases or batch_first or batch_sizes or out is not None:
        raise NotImplementedError("minigrad: mkldnn_rnn_layer runs an LSTM (mode 2) with "
                                  "biases over a (seq, batch, features) input, without out=")
    output, hy, cy = ops.recurrent.mkldnn_rnn_layer(input, weight0, weight1, weight2, weight3,
                                                    hx_, cx_, reverse)
    return output, hy, cy, _creation.empty(0, dtype=_dtypes.uint8)
