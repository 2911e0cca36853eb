"""Diagonals: ``diagonal`` (a view of one), ``diag_embed`` (a vector laid on one),
``diag`` (either, by the input's dims), ``trace`` (the sum of one) and ``block_diag``
(matrices laid along the diagonal of a bigger one: each input's gradient is its block
of G).

The two are each other's adjoint: reading a diagonal sends its gradient back onto the
diagonal of zeros (``diagonal_backward``), and laying a vector on a diagonal takes the
gradient's diagonal back. ``trace`` is the sum of the diagonal, so its gradient is G
on the diagonal, 0 elsewhere (the identity times G for a square matrix)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node
from ..autograd.tensor_base import make
from ..kernels.layout import contiguous_strides, empty_strided
from ..rules.arguments import normalize_dim
from ._saved import as_shown
from . import fn, inplace, strided

__all__ = ["diagonal", "diag_embed", "diag", "trace", "fill_diagonal_", "block_diag"]


def diagonal_view(x: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """The diagonal of ``x`` as a writable view (NumPy's is marked read-only)."""
    view = np.diagonal(x, offset, dim1, dim2)
    if x.flags.writeable:
        view.flags.writeable = True
    return view


def diagonal_backward_of(grad: np.ndarray, shape, offset: int, dim1: int, dim2: int):
    """Zeros of ``shape`` with ``grad`` on the diagonal (arrays)."""
    out = np.zeros(shape, grad.dtype)
    diagonal_view(out, offset, dim1, dim2)[...] = grad
    return out


def diag_embed_of(x: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """``x``'s last dim laid on the diagonal of two new dims ``dim1``, ``dim2`` (arrays)."""
    n = x.shape[-1] + abs(offset)
    shape = list(x.shape[:-1])
    for d in sorted((dim1, dim2)):
        shape.insert(d, n)
    out = np.zeros(shape, x.dtype)
    diagonal_view(out, offset, dim1, dim2)[...] = x
    return out


class DiagonalBackward0(Node):
    formula = Formula("y", "x's diagonal (offset, dim1, dim2): y[i] = x[i, i + offset]",
                      grad={"x": "zeros with G on the diagonal"})

    is_view = True

    def forward(self, x, offset, dim1, dim2, given):
        self.save(offset=as_shown(offset), _offset=offset, dim1=as_shown(given[0]),
                  dim2=as_shown(given[1]), _given=tuple(given), self_sym_sizes=x.shape)
        return diagonal_view(x, offset, dim1, dim2)

    def backward(self, saved, grad):  # (the dims as given: PyTorch's formula passes them on)
        return fn.diagonal_backward(grad, saved.self_sym_sizes, saved._offset, *saved._given)


class DiagonalBackward0_copy(DiagonalBackward0):  # noqa: N801 - PyTorch's name
    is_view = False  # (torch.diag of a matrix: the diagonal copied out)

    def forward(self, x, offset, dim1, dim2, given):
        view = super().forward(x, offset, dim1, dim2, given)  # (empty: a new tensor's strides)
        return view.copy() if view.size else empty_strided(view.shape,
                                                           contiguous_strides(view.shape), view.dtype)


class DiagonalBackwardBackward0(Node):
    formula = Formula("x", "zeros with y on the diagonal", grad={"y": "G's diagonal"},
                      note="How diagonal's backward is recorded by create_graph=True.")

    def forward(self, grad, shape, offset, dim1, dim2):
        self.save(offset=as_shown(offset), dim1=as_shown(dim1), dim2=as_shown(dim2),
                  _given=(offset, dim1, dim2))
        return diagonal_backward_of(grad, shape, offset, dim1, dim2)

    def backward(self, saved, grad):
        return fn.diagonal(grad, *saved._given)


class DiagEmbedBackward0(Node):
    formula = Formula("y", "zeros with x on the diagonal of two new dims",
                      grad={"x": "G's diagonal"})

    def forward(self, x, offset, dim1, dim2, given):
        self.save(offset=as_shown(offset), _offset=offset, dim1=as_shown(given[0]),
                  dim2=as_shown(given[1]), _given=tuple(given))
        return diag_embed_of(x, offset, dim1, dim2)

    def backward(self, saved, grad):  # (the dims as given: PyTorch's formula passes them on)
        return fn.diagonal(grad, saved._offset, *saved._given)


class TraceBackward0(Node):
    formula = Formula("y", "sum of the diagonal x[i, i]", grad={"x": "G on the diagonal, 0 elsewhere"})

    def forward(self, x):
        self.save(self_sym_sizes=x.shape)
        return np.asarray(np.trace(x), x.dtype)

    def backward(self, saved, grad):  # (as PyTorch: G written at every (cols + 1)-th place)
        rows, cols = saved.self_sym_sizes
        places = np.arange(0, min(rows, cols) * (cols + 1), cols + 1, dtype=np.int64)
        flat = fn.index_fill_tensor(fn.zeros((rows * cols,), grad), 0, places, grad)
        return fn.reshape(flat, (rows, cols))


# ---- entry functions ----------------------------------------------------------------------


def _as_block(shape) -> tuple:
    """A block's (rows, columns): a number is 1 x 1, a vector one row."""
    return (1,) * (2 - len(shape)) + tuple(shape)


def block_diag_of(arrays) -> np.ndarray:
    """The arrays (as blocks: a number 1 x 1, a vector one row) on the diagonal of zeros."""
    blocks = [a.reshape(_as_block(a.shape)) for a in arrays]
    out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)),
                   arrays[0].dtype)
    row = col = 0
    for block in blocks:
        out[row:row + block.shape[0], col:col + block.shape[1]] = block
        row, col = row + block.shape[0], col + block.shape[1]
    return out


class BlockDiagBackward0(Node):
    formula = Formula("y", "the inputs as blocks along the diagonal, 0 elsewhere",
                      grad={"x_k": "the block of G that x_k fills"})

    def forward(self, *arrays):
        self.save(_shapes=[a.shape for a in arrays])
        return block_diag_of(arrays)

    def backward(self, saved, grad):  # (a vector's block (1, n) is summed to (n,) on its edge)
        grads, row, col = [], 0, 0
        for shape, needed in zip(saved._shapes, self.needs_input_grad):
            rows, cols = _as_block(shape)
            block = fn.slice_part(fn.slice_part(grad, 0, row, row + rows, 1), 1, col, col + cols, 1)
            for _ in range(2 - len(shape)):
                block = fn.squeeze(block, -1)
            grads.append(None if not needed else fn.zeros((0,), grad) if shape == (0,) else block)
            row, col = row + rows, col + cols
        return tuple(grads)


def _two_dims(x, dim1, dim2, ndim):
    d1, d2 = normalize_dim(dim1, ndim), normalize_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def diagonal(x, offset=0, dim1=0, dim2=1):
    """The diagonal of ``x`` in the plane of ``dim1`` and ``dim2``, as a view."""
    d1, d2 = _two_dims(x, dim1, dim2, x.ndim)
    return DiagonalBackward0.apply(x, offset=offset, dim1=d1, dim2=d2, given=(dim1, dim2))


def diag_embed(x, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonals (in the plane of ``dim1`` and ``dim2``) are ``x``'s last dim."""
    d1, d2 = _two_dims(x, dim1, dim2, x.ndim + 1)
    return DiagEmbedBackward0.apply(x, offset=offset, dim1=d1, dim2=d2, given=(dim1, dim2))


def diag(x, diagonal=0):
    """A vector laid on a matrix's diagonal, or a matrix's diagonal (copied), by ``x``'s dims."""
    if x.ndim == 1:
        return DiagEmbedBackward0.apply(x, offset=diagonal, dim1=0, dim2=1, given=(-2, -1))
    if x.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {x.ndim}D")
    return DiagonalBackward0_copy.apply(x, offset=diagonal, dim1=0, dim2=1, given=(0, 1))


def trace(x):
    """The sum of the main diagonal of a matrix (int64 for integers and bools)."""
    if x.dtype is dtypes.bool:  # (the dtype first, as torch's dispatch)
        raise NotImplementedError('"trace" not implemented for \'Bool\'')
    if x.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
    cast = x.dtype if x.dtype.is_floating_point else dtypes.int64
    return TraceBackward0.apply(x, cast_to=cast)


def fill_diagonal_(x, fill_value, wrap=False):
    """``x``'s main diagonal set to ``fill_value``, in place (a matrix, or a tensor whose dims
    are all equal), as PyTorch writes it: a strided view of the diagonal, filled (so the
    graph shows ``CopySlices``). ``wrap``: a tall matrix's diagonal starts again N + 1 rows
    further down, as NumPy's ``fill_diagonal`` does."""
    if x.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if x.ndim > 2 and any(n != x.shape[0] for n in x.shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    height, width = x.shape[0], x.shape[1]
    step, offset = sum(strided.stride(x)), strided.storage_offset(x)
    size = min(height, width)
    inplace.inplace(strided.as_strided(x, (size,), (step,), offset), inplace.fill, fill_value)
    if wrap and x.ndim == 2 and height > width + 1:
        wrapped = (x.numel() + width) // (width + 1) - size
        start = offset + strided.stride(x, 0) * (width + 1)
        inplace.inplace(strided.as_strided(x, (wrapped,), (step,), start), inplace.fill,
                        fill_value)
    return x


def block_diag(*tensors):
    """The tensors (numbers, vectors as rows, matrices) as blocks along the diagonal of
    one matrix, zeros elsewhere; its dtype the tensors' promoted one."""
    for number, tensor in enumerate(tensors):
        if tensor.ndim > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {number} has {tensor.ndim} dimensions")
    if not tensors:
        return make(np.zeros((1, 0), dtypes.get_default_dtype().numpy))
    return BlockDiagBackward0.apply(*tensors, cast_to=dtypes.result_type(*tensors))
