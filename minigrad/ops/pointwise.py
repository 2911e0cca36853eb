"""Elementwise functions: exp, log, sqrt, tanh, sigmoid, relu, abs, sin, cos,
clamp, maximum, minimum, where, masked_fill; tril and triu (zero the elements above or
below a diagonal)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..kernels import pointwise as kernels
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from . import fn
from ._saved import as_shown
from ..dtypes import C_TYPE_NAMES
from ..rules import arguments, promotion
from ..rules.conversion import as_tensor, checked_fill_value, checked_scalar
from ..autograd.broadcast import broadcast_shapes
from ..rules.promotion import float_dtype_for, is_number, python_number
from ..autograd.tensor_base import is_tensor
from ..rules.layout import with_contiguous_layout, with_iterator_layout, with_unary_layout

__all__ = ["exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs", "sin", "cos",
           "clamp", "maximum", "minimum", "where", "masked_fill", "tril", "triu", "fmax", "fmin"]


class ExpBackward0(Node):
    formula = Formula("y", "exp(x)", d={"x": "exp(x) = y"})
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.exp(x)

    def backward(self, saved, grad):
        return grad * saved.result


class LogBackward0(Node):
    formula = Formula("y", "log(x)", d={"x": "1 / x"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.log(x)

    def backward(self, saved, grad):
        return grad / saved.self


class SqrtBackward0(Node):
    formula = Formula("y", "sqrt(x)", d={"x": "1 / (2 sqrt(x)) = 1 / (2y)"})
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.sqrt(x)

    def backward(self, saved, grad):
        return grad / (2 * saved.result)


class TanhBackward0(Node):
    formula = Formula("y", "tanh(x)", d={"x": "1 - tanh(x)**2 = 1 - y**2"})
    saves = {"result": RESULT}
    float_errors = False  # (tanh(+-inf) = +-1, tanh(nan) = nan: NumPy reports nothing)

    def forward(self, x):
        return kernels.tanh(x)

    def backward(self, saved, grad):
        return fn.tanh_backward(grad, saved.result)  # grad * (1 - y**2), PyTorch's op


class TanhBackwardBackward0(Node):
    formula = Formula("z", "tanh_backward(grad, y) = grad * (1 - y**2)",
                      d={"grad": "1 - y**2", "y": "-2 y grad"},
                      note="tanh's derivative as an operation, recorded by a backward "
                           "with create_graph=True.")
    saves = {"grad_output": Input(0), "output": Input(1)}

    def forward(self, grad, y):
        return kernels.tanh_backward(grad, y)

    def backward(self, saved, grad):
        grad_output, y = saved.grad_output, saved.output
        grad_grad = fn.tanh_backward(grad, y) if self.needs_input_grad[0] else None
        grad_y = grad * (-2 * y * grad_output) if self.needs_input_grad[1] else None
        return grad_grad, grad_y


class SigmoidBackward0(Node):
    formula = Formula("y", "1 / (1 + exp(-x))", d={"x": "y (1 - y)"})
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.sigmoid(x)

    def backward(self, saved, grad):
        return fn.sigmoid_backward(grad, saved.result)  # grad * (1 - y) * y, PyTorch's op


class SigmoidBackwardBackward0(Node):
    formula = Formula("z", "sigmoid_backward(grad, y) = grad * (1 - y) * y",
                      d={"grad": "(1 - y) y", "y": "grad (1 - 2y)"},
                      note="sigmoid's derivative as an operation, recorded by a backward "
                           "with create_graph=True.")
    saves = {"grad_output": Input(0), "output": Input(1)}

    def forward(self, grad, y):
        return kernels.sigmoid_backward(grad, y)

    def backward(self, saved, grad):
        grad_output, y = saved.grad_output, saved.output
        grad_grad = fn.sigmoid_backward(grad, y) if self.needs_input_grad[0] else None
        grad_y = None
        if self.needs_input_grad[1]:
            factor = -2 * y + 1  # (first: C++ evaluates the right operand first)
            grad_y = grad * grad_output * factor
        return grad_grad, grad_y


class ReluBackward0(Node):
    formula = Formula("y", "max(x, 0)", d={"x": "0 where y <= 0, else 1"})
    saves = {"result": RESULT}

    def forward(self, x):
        return kernels.relu(x)

    def backward(self, saved, grad):
        return fn.threshold_backward(grad, saved.result, 0)  # grad where y > 0, else 0


class ThresholdBackwardBackward0(Node):
    formula = Formula("z", "threshold_backward(grad, x, threshold): grad where x > threshold, "
                           "else 0",
                      d={"grad": "1 where x > threshold, else 0", "x": "0"},
                      note="relu's derivative as an operation, recorded by a backward "
                           "with create_graph=True.")
    saves = {"self": Input(1)}

    def forward(self, grad, x, threshold):
        self.save(threshold=threshold)
        return kernels.threshold_backward(grad, x, threshold)

    def backward(self, saved, grad):
        x, threshold = saved.self, saved.threshold
        grad_grad = fn.threshold_backward(grad, x, threshold) \
            if self.needs_input_grad[0] else None
        grad_x = fn.zeros(grad.shape, grad) if self.needs_input_grad[1] else None
        return grad_grad, grad_x


class AbsBackward0(Node):
    formula = Formula("y", "|x|", d={"x": "sign(x) (0 at x = 0)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return np.abs(x)

    def backward(self, saved, grad):
        return grad * fn.sgn(saved.self)


class SignBackward0(Node):
    formula = Formula("y", "sign(x)", d={"x": "0 everywhere it exists"})

    def forward(self, x):
        return kernels.sign(x)

    def backward(self, saved, grad):
        return fn.zeros(grad.shape, grad)


class SgnBackward0(SignBackward0):
    formula = Formula("y", "sgn(x)", d={"x": "0 everywhere it exists"},
                      note="sign, and x / |x| for complex numbers (minigrad is real).")
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, x):
        # (kept as torch keeps them, for the complex formula: x and the result)
        return kernels.sign(x)


class SinBackward0(Node):
    formula = Formula("y", "sin(x)", d={"x": "cos(x)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.sin(x)

    def backward(self, saved, grad):
        return grad * fn.cos(saved.self)


class CosBackward0(Node):
    formula = Formula("y", "cos(x)", d={"x": "-sin(x)"})
    saves = {"self": Input(0)}

    def forward(self, x):
        return kernels.cos(x)

    def backward(self, saved, grad):
        return grad * -fn.sin(saved.self)


class ClampBackward1(Node):
    formula = Formula("y",
                      "min(max(x, min), max)",
                      d={"x": "1 where min <= x <= max, else 0"},
                      note="The bounds are numbers.")
    saves = {"self": Input(0)}

    def forward(self, x, min=None, max=None):
        self.save(min=min, max=max)
        return kernels.clamp(x, min, max)

    def backward(self, saved, grad):
        x, low, high = saved.self, saved.min, saved.max
        if low is not None and high is not None:
            inside = (x >= low) & (x <= high)
        else:
            inside = x >= low if low is not None else x <= high
        return fn.where(inside, grad, 0)


class ClampBackward0(Node):
    formula = Formula("y",
                      "min(max(x, min), max)",
                      d={"x": "1 where min <= x <= max, else 0",
                         "min": "1 where x < min (and min < max)",
                         "max": "1 where x > max (or max < min, where max is the result)"},
                      note="The bounds are tensors (either may be None).")
    saves = {"self": Input(0), "min": Input(1), "max": Input(2)}  # (a bound None: None)

    def forward(self, x, low, high):
        result = x
        if low is not None:
            result = kernels.maximum(result, low)
        if high is not None:
            result = kernels.minimum(result, high)
        return result if result is not x else x.copy()

    def backward(self, saved, grad):
        x, low, high = saved.self, saved.min, saved.max
        needs_x, needs_low, needs_high = self.needs_input_grad
        # (in torch's order: the bounds' gradients first, then x's)
        grad_low = fn.where(_below_min(x, low, high), grad, 0) if needs_low else None
        grad_high = fn.where(_above_max(x, low, high), grad, 0) if needs_high else None
        grad_x = fn.where(_within(x, low, high), grad, 0) if needs_x else None
        return grad_x, grad_low, grad_high


def _below_min(x, low, high):
    """Where the min bound is the result (and wins over max)."""
    return x < low if high is None else (x < low) & (low < high)


def _above_max(x, low, high):
    """Where the max bound is the result (it wins where max < min)."""
    return x > high if low is None else (x > high) | (high < low)


def _within(x, low, high):
    """Where x itself is the result."""
    if low is None:
        return x <= high
    if high is None:
        return x >= low
    return (x >= low) & (x <= high)


class MaximumBackward0(Node):
    formula = Formula("z",
                      "max(self, other)",
                      d={"self": "1 where self > other, 0 where self < other, 1/2 on ties",
                         "other": "1 where other > self, 0 where other < self, 1/2 on ties"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.maximum(a, b)

    def backward(self, saved, grad):
        # torch's formula: ties split, the smaller input gets 0 (a NaN compares
        # neither way, so both inputs get the gradient there)
        # (each input's gradient made on its own, other's first, as torch makes them)
        a, b = saved.self, saved.other
        grad_a = grad_b = None
        if self.needs_input_grad[1]:
            grad_b = fn.masked_fill_(fn.where(a == b, grad / 2, grad), a > b, 0)
        if self.needs_input_grad[0]:
            grad_a = fn.masked_fill_(fn.where(a == b, grad / 2, grad), a < b, 0)
        return grad_a, grad_b


class MinimumBackward0(Node):
    formula = Formula("z",
                      "min(self, other)",
                      d={"self": "1 where self < other, 0 where self > other, 1/2 on ties",
                         "other": "1 where other < self, 0 where other > self, 1/2 on ties"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.minimum(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        grad_a = grad_b = None
        if self.needs_input_grad[1]:
            grad_b = fn.masked_fill_(fn.where(a == b, grad / 2, grad), a < b, 0)
        if self.needs_input_grad[0]:
            grad_a = fn.masked_fill_(fn.where(a == b, grad / 2, grad), a > b, 0)
        return grad_a, grad_b


class WhereBackward0(Node):
    formula = Formula("z",
                      "self where condition else other",
                      d={"self": "condition", "other": "not condition"})

    def forward(self, a, b, condition):
        self.save(condition=condition)
        return np.where(condition, a, b)

    def backward(self, saved, grad):
        condition = saved.condition
        grad_b = fn.where(condition, 0, grad) if self.needs_input_grad[1] else None
        grad_a = fn.where(condition, grad, 0) if self.needs_input_grad[0] else None
        return grad_a, grad_b


class MaskedFillBackward0(Node):
    formula = Formula("z", "self with a number written where mask is True", d={"self": "not mask"})

    def forward(self, x, mask, value):
        self.save(mask=mask)
        # (a new contiguous tensor, as torch's masked_fill)
        return np.asarray(np.where(mask, np.asarray(value).astype(x.dtype), x), order="C")

    def backward(self, saved, grad):
        return fn.masked_fill(grad, saved.mask, 0)


class MaskedFillBackward1(Node):
    formula = Formula("z",
                      "self with a 0-dim tensor value written where mask is True",
                      d={"self": "not mask"},
                      grad={"value": "the sum of G where mask is True"})

    def forward(self, x, value, mask):
        self.save(mask=mask)
        return np.asarray(np.where(mask, value.astype(x.dtype), x), order="C")

    def backward(self, saved, grad):
        mask = saved.mask
        grad_x = fn.masked_fill(grad, mask, 0) if self.needs_input_grad[0] else None
        # (torch's masked_fill_backward: the elements of G where mask is True, summed)
        grad_value = fn.sum(fn.masked_select(grad, mask)) if self.needs_input_grad[1] else None
        return grad_x, grad_value


class TrilBackward0(Node):
    formula = Formula("y[i][j]", "x[i][j] where j - i <= diagonal, else 0 (the last two dims)",
                      grad={"self": "tril(G, diagonal)"})

    def forward(self, x, diagonal):
        self.save(diagonal=as_shown(diagonal), _diagonal=diagonal)
        return np.tril(x, diagonal)

    def backward(self, saved, grad):
        return fn.tril(grad, saved._diagonal)


class TriuBackward0(Node):
    formula = Formula("y[i][j]", "x[i][j] where j - i >= diagonal, else 0 (the last two dims)",
                      grad={"self": "triu(G, diagonal)"})

    def forward(self, x, diagonal):
        self.save(diagonal=as_shown(diagonal), _diagonal=diagonal)
        return np.triu(x, diagonal)

    def backward(self, saved, grad):
        return fn.triu(grad, saved._diagonal)


def exp(x):
    return promotion.unary(ExpBackward0, x)


def log(x):
    return promotion.unary(LogBackward0, x)


def sqrt(x):
    return promotion.unary(SqrtBackward0, x)


def tanh(x):
    return promotion.unary(TanhBackward0, x)


def sigmoid(x):
    return promotion.unary(SigmoidBackward0, x)


def sin(x):
    return promotion.unary(SinBackward0, x)


def cos(x):
    return promotion.unary(CosBackward0, x)


def relu(x):
    if x.dtype is dtypes.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    return with_unary_layout(ReluBackward0.apply(x), x)


def abs(x):
    if x.dtype is dtypes.bool:
        raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
    return with_unary_layout(AbsBackward0.apply(x), x)


def sign(x):
    return with_unary_layout(SignBackward0.apply(x), x)


def sgn(x):
    return with_unary_layout(SgnBackward0.apply(x), x)


def _reads_as_number(bound) -> bool:
    """None, a number, or a tensor torch's parser takes for a Number: 0-dim, not requiring grad."""
    return not is_tensor(bound) or (bound._data.ndim == 0 and not bound.requires_grad)


def clamp(x, min=None, max=None):
    """Limit values to [min, max]; either bound may be None (not both)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    # (NumPy scalars: the parser reads them as the numbers they are)
    min, max = (python_number(b) if is_number(b) else b for b in (min, max))
    if (is_tensor(min) or is_tensor(max)) and not all(b is None or is_tensor(b) for b in (min, max)) \
            and all(_reads_as_number(b) for b in (min, max)):
        # A number and a 0-dim tensor: torch's parser reads the tensor as its number
        # (the Scalar overload, ClampBackward1; the tensor gets no gradient)
        min, max = (b.item() if is_tensor(b) else b for b in (min, max))
    if is_tensor(min) or is_tensor(max):
        if not all(b is None or is_tensor(b) for b in (min, max)):
            # torch's two signatures take two tensors or two numbers, not one of each (the
            # callers' argument checks refuse this first; here, as given by keyword)
            arguments.check_clamp_method("clamp", (), {name: b for name, b in (("min", min), ("max", max))
                                             if b is not None})
        low = None if min is None else as_tensor(min)
        high = None if max is None else as_tensor(max)
        bounds = [t for t in (x, low, high) if t is not None]
        dtype = dtypes.result_type(*bounds)
        broadcast_shapes(*(t._data.shape for t in bounds))
        return with_iterator_layout(ClampBackward0.apply(x, low, high, cast_to=dtype),
                                    *(t._data for t in bounds), cast_to=dtype.numpy)
    dtype = dtypes.result_type(x, *(b for b in (min, max) if b is not None))
    if dtype is dtypes.bool:
        kernel = "clamp" if min is not None and max is not None else \
            "clamp_min" if min is not None else "clamp_max"
        raise NotImplementedError(f'"{kernel}_scalar_cpu" not implemented for \'Bool\'')
    max, min = (None if b is None else checked_fill_value(b, dtype) for b in (max, min))
    return with_unary_layout(ClampBackward1.apply(x, cast_to=dtype, min=min, max=max), x)


def maximum(a, b):
    a, b = as_tensor(a), as_tensor(b)
    broadcast_shapes(a._data.shape, b._data.shape)
    result = MaximumBackward0.apply(a, b, cast_to=dtypes.result_type(a, b))
    return with_iterator_layout(result, a._data, b._data, cast_to=result._data.dtype)


def minimum(a, b):
    a, b = as_tensor(a), as_tensor(b)
    broadcast_shapes(a._data.shape, b._data.shape)
    result = MinimumBackward0.apply(a, b, cast_to=dtypes.result_type(a, b))
    return with_iterator_layout(result, a._data, b._data, cast_to=result._data.dtype)


def where(condition, a, b):
    """Pick from ``a`` where ``condition`` is True, else from ``b``."""
    condition = as_tensor(condition)
    if condition.dtype is not dtypes.bool:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{dtypes.SCALAR_NAMES[condition.dtype]}"
        )
    dtype = dtypes.result_type(*(v for v in (a, b)))
    a = a if is_tensor(a) else as_tensor(checked_scalar(a, dtype)).to(dtype)
    b = b if is_tensor(b) else as_tensor(checked_scalar(b, dtype)).to(dtype)
    broadcast_shapes(condition._data.shape, a._data.shape, b._data.shape)
    return with_iterator_layout(WhereBackward0.apply(a, b, cast_to=dtype,
                                                     condition=condition._data),
                                condition._data, a._data, b._data)


def masked_fill(x, mask, value):
    """Write ``value`` (a number or a 0-dim tensor) where ``mask`` is True."""
    mask = as_tensor(mask)
    check_masked_fill(mask, value)
    broadcast_shapes(mask._data.shape, x._data.shape)
    if is_tensor(value):
        checked_fill_value(value.item(), x.dtype)  # (torch writes value.item(): the same check)
        return with_contiguous_layout(MaskedFillBackward1.apply(x, value, mask=mask._data))
    return with_contiguous_layout(MaskedFillBackward0.apply(x, mask=mask._data,
                                                            value=checked_fill_value(value, x.dtype)))


def check_masked_fill(mask, value) -> None:
    """masked_fill's refusals, in PyTorch's order: a value tensor with dimensions (its
    masked_fill_), then a mask that is not bool (its kernel's), before anything else the
    kernel checks or warns of (the shapes, an expanded tensor)."""
    if is_tensor(value) and value.ndim:
        raise RuntimeError(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.ndim} dimension(s)."
        )
    if mask.dtype is not dtypes.bool:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{C_TYPE_NAMES[mask.dtype]}"
        )


def tril(x, diagonal=0, position=None):
    """The lower triangle of the last two dims (``diagonal`` > 0: more diagonals kept)."""
    arguments.check_triangle("tril", x, diagonal, position)
    return with_contiguous_layout(TrilBackward0.apply(x, diagonal=diagonal))


def triu(x, diagonal=0, position=None):
    """The upper triangle of the last two dims (``diagonal`` < 0: more diagonals kept)."""
    arguments.check_triangle("triu", x, diagonal, position)
    return with_contiguous_layout(TriuBackward0.apply(x, diagonal=diagonal))


class FmaxBackward0(Node):
    formula = Formula("z", "fmax(self, other): the larger; a NaN loses to a number",
                      d={"self": "1 where self >= other or other is nan, else 0",
                         "other": "1 where self < other or self is nan alone, else 0"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.fmax(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        to_self = (a >= b) | (b != b)  # (ties go to self, as PyTorch's formula)
        return _picked_grads(self, grad, to_self)


class FminBackward0(Node):
    formula = Formula("z", "fmin(self, other): the smaller; a NaN loses to a number",
                      d={"self": "1 where self <= other or other is nan, else 0",
                         "other": "1 where self > other or self is nan alone, else 0"})
    saves = {"self": Input(0), "other": Input(1)}

    def forward(self, a, b):
        return kernels.fmin(a, b)

    def backward(self, saved, grad):
        a, b = saved.self, saved.other
        to_self = (a <= b) | (b != b)
        return _picked_grads(self, grad, to_self)


def _picked_grads(node, grad, to_self):
    """``grad`` where ``to_self`` holds to self, elsewhere to other (other's first, as
    PyTorch makes them)."""
    grad_a = grad_b = None
    if node.needs_input_grad[1]:
        grad_b = fn.masked_fill(grad, to_self, 0)
    if node.needs_input_grad[0]:
        grad_a = fn.masked_fill(grad, ~to_self, 0)
    return grad_a, grad_b


def _binary_fmax(node_cls, a, b):
    a, b = as_tensor(a), as_tensor(b)
    broadcast_shapes(a._data.shape, b._data.shape)
    result = node_cls.apply(a, b, cast_to=dtypes.result_type(a, b))
    return with_iterator_layout(result, a._data, b._data, cast_to=result._data.dtype)


def fmax(a, b):
    """The larger of ``a`` and ``b``, elementwise; NaN only where both are NaN."""
    return _binary_fmax(FmaxBackward0, a, b)


def fmin(a, b):
    """The smaller of ``a`` and ``b``, elementwise; NaN only where both are NaN."""
    return _binary_fmax(FminBackward0, a, b)
