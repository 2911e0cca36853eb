"""The ``torch.*`` functions, with PyTorch's signatures.

Each function is written with the parameter names PyTorch uses
(``torch.matmul(input, other)``, ``torch.sum(input, dim, keepdim=False, *, dtype=None)``),
so calls by keyword work as in PyTorch, and a keyword PyTorch does not have raises its
error: ``add() got an unexpected keyword argument 'foo'``. Each is one line that calls
the operation in ``minigrad.ops``, where the math and its derivative live; the methods
(``x.add(y)``) are in ``tensor.py``. ``tests/core/test_signatures.py`` compares every
signature here with PyTorch's.
"""

from __future__ import annotations

from . import ops
from . import dtypes as _dtypes

# ---- arithmetic --------------------------------------------------------------------------


def add(input, other, *, alpha=1):
    """input + alpha * other, elementwise (with broadcasting)."""
    return ops.add(input, other, alpha)


def sub(input, other, *, alpha=1):
    """input - alpha * other, elementwise."""
    return ops.sub(input, other, alpha)


def mul(input, other):
    """input * other, elementwise."""
    return ops.mul(input, other)


def div(input, other):
    """input / other, elementwise (true division: integers give floats)."""
    return ops.div(input, other)


def neg(input):
    return ops.neg(input)


def pow(input, exponent):  # noqa: A001 - PyTorch's name
    """input ** exponent, elementwise."""
    return ops.pow(input, exponent)


# ---- pointwise functions -------------------------------------------------------------------


def exp(input):
    return ops.exp(input)


def log(input):
    return ops.log(input)


def sqrt(input):
    return ops.sqrt(input)


def tanh(input):
    return ops.tanh(input)


def sigmoid(input):
    return ops.sigmoid(input)


def relu(input):
    return ops.relu(input)


def abs(input):  # noqa: A001 - PyTorch's name
    return ops.abs(input)


def sign(input):
    return ops.sign(input)


def sin(input):
    return ops.sin(input)


def cos(input):
    return ops.cos(input)


def clamp(input, min=None, max=None):  # noqa: A002 - PyTorch's names
    """Each element limited to [min, max] (either bound may be None)."""
    return ops.clamp(input, min, max)


clip = clamp


def maximum(input, other):
    return ops.maximum(input, other)


def minimum(input, other):
    return ops.minimum(input, other)


def where(condition, input, other):
    """``input`` where ``condition`` is True, ``other`` elsewhere."""
    return ops.where(condition, input, other)


def masked_fill(input, mask, value):
    return ops.masked_fill(input, mask, value)


# ---- comparisons -----------------------------------------------------------------------------


def eq(input, other):
    return ops.eq(input, other)


def ne(input, other):
    return ops.ne(input, other)


def lt(input, other):
    return ops.lt(input, other)


def le(input, other):
    return ops.le(input, other)


def gt(input, other):
    return ops.gt(input, other)


def ge(input, other):
    return ops.ge(input, other)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.isclose(input, other, rtol, atol, equal_nan)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return ops.allclose(input, other, rtol, atol, equal_nan)


def equal(input, other):
    return ops.equal(input, other)


# ---- reductions -------------------------------------------------------------------------------


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001 - PyTorch's name
    """The sum of all elements, or along ``dim`` (an int or a tuple of ints)."""
    return ops.sum(input, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    return ops.mean(input, dim, keepdim, dtype=dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    return ops.prod(input, dim, keepdim, dtype=dtype)


def max(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    """The largest element; with ``dim``, (values, indices) along it."""
    return ops.max(input, dim, keepdim)


def min(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    return ops.min(input, dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return ops.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return ops.argmin(input, dim, keepdim)


def all(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    return ops.all(input, dim, keepdim)


def any(input, dim=None, keepdim=False):  # noqa: A001 - PyTorch's name
    return ops.any(input, dim, keepdim)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return ops.var(input, dim, unbiased, keepdim, correction=correction)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return ops.std(input, dim, unbiased, keepdim, correction=correction)


def norm(input, p="fro", dim=None, keepdim=False):
    return ops.norm(input, p, dim, keepdim)


def logsumexp(input, dim, keepdim=False):
    return ops.logsumexp(input, dim, keepdim)


def softmax(input, dim, dtype=None):
    return ops.softmax(input, dim, dtype)


def log_softmax(input, dim, dtype=None):
    return ops.log_softmax(input, dim, dtype)


# ---- matrix products ---------------------------------------------------------------------------


def matmul(input, other):
    """The matrix product, with NumPy's rules for 1-D and batched operands."""
    return ops.matmul(input, other)


def mm(input, mat2):
    return ops.mm(input, mat2)


def mv(input, vec):
    return ops.mv(input, vec)


def dot(input, tensor):
    return ops.dot(input, tensor)


def bmm(input, mat2):
    return ops.bmm(input, mat2)


# ---- shape ----------------------------------------------------------------------------------


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


def unsqueeze(input, dim):
    return ops.unsqueeze(input, dim)


def squeeze(input, dim=None):
    return ops.squeeze(input, dim)


def flip(input, dims):
    return ops.flip(input, dims)


def narrow(input, dim, start, length):
    return ops.narrow(input, dim, start, length)


def select(input, dim, index):
    return ops.select(input, dim, index)


def cat(tensors, dim=0):
    """Join tensors along an existing dimension."""
    return ops.cat(tensors, dim)


def stack(tensors, dim=0):
    """Join tensors along a new dimension."""
    return ops.stack(tensors, dim)


def clone(input):
    return ops.clone(input)


def numel(input):
    """The number of elements."""
    return input.numel()


# ---- dtypes ----------------------------------------------------------------------------------


def promote_types(type1, type2):
    """The smallest dtype both can be converted to without losing their kind."""
    return _dtypes.promote_types(type1, type2)


def result_type(tensor, other):
    """The dtype an operation on ``tensor`` and ``other`` (a tensor or a number) gives."""
    return _dtypes.result_type(tensor, other)
