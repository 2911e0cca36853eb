"""Ops that PyTorch writes with other ops (so their graphs show those ops' nodes, and
their gradients come from them): ``hstack``, ``vstack``, ``dstack``, ``column_stack``
(``cat`` of views), ``outer`` (a column times a row), ``kron``, ``meshgrid`` (views,
then ``expand``), ``einsum``, and ``trapezoid``/``cumulative_trapezoid`` (the trapezoid
rule: sums and slices), ``tensordot`` (permute, reshape, one matrix product), ``cartesian_prod`` and
``combinations`` (meshgrid's grids, flattened or masked, stacked), ``cov`` and
``corrcoef`` (centred rows, one matrix product, divided).

``einsum`` reads its equation as PyTorch does: each operand's labels are lined up (a
repeated label is a diagonal, a missing one a dim of size 1), a label only one operand
has and the output lacks is summed out first, and two operands meet as a batched matrix
product over the labels they share and the output lacks (``bmm``), or as a product
where they share none. Operands are taken left to right."""

from __future__ import annotations

import string

import numpy as np

from .. import dtypes, errors
from ..autograd.tensor_base import is_tensor, make
from ..rules.arguments import check_cov_weights, cpp_tensor_text, normalize_dim
from . import arithmetic, cumulative, diagonal as diagonal_ops, indexing, linalg, pointwise
from . import reduction, shape

__all__ = ["hstack", "vstack", "dstack", "column_stack", "outer", "kron", "meshgrid",
           "einsum", "trapezoid", "cumulative_trapezoid", "tensordot", "cartesian_prod",
           "combinations", "cov", "corrcoef"]


def _nonempty(name, tensors):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def _at_least(x, ndim):
    """PyTorch's atleast_1d/2d/3d: a 0-dim x reshaped, a 1-D x given dims of size 1."""
    if x.ndim == 0:
        return shape.reshape(x, (1,) * ndim)
    if ndim >= 2 and x.ndim == 1:
        x = shape.unsqueeze(x, 0)
        return shape.unsqueeze(x, -1) if ndim == 3 else x
    if ndim == 3 and x.ndim == 2:
        return shape.unsqueeze(x, -1)
    return x


def hstack(tensors):
    """Join along dim 1 (dim 0 for vectors): side by side."""
    parts = [_at_least(t, 1) for t in _nonempty("hstack", tensors)]
    return shape.cat(parts, 0 if parts[0].ndim == 1 else 1)


def vstack(tensors):
    """Join along dim 0, vectors read as rows: one above the other."""
    return shape.cat([_at_least(t, 2) for t in _nonempty("vstack", tensors)], 0)


def dstack(tensors):
    """Join along dim 2 (depth), after making every tensor at least 3-D."""
    return shape.cat([_at_least(t, 3) for t in _nonempty("dstack", tensors)], 2)


def column_stack(tensors):
    """Vectors as columns (and matrices as they are), joined along dim 1."""
    parts = [shape.reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t
             for t in _nonempty("column_stack", tensors)]
    return shape.cat(parts, 1)


def outer(x, vec2):
    """The outer product of two vectors: y[i][j] = x[i] * vec2[j]."""
    for name, t in (("self", x), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return arithmetic.mul(shape.reshape(x, (x.shape[0], 1)), vec2)


def kron(x, other):
    """The Kronecker product: every element of x times the whole of other, as blocks."""
    ndim = max(x.ndim, other.ndim)
    a_shape = (1,) * (ndim - x.ndim) + tuple(x.shape)
    b_shape = (1,) * (ndim - other.ndim) + tuple(other.shape)
    a = shape.UnsafeViewBackward0.apply(x, shape=tuple(n for s in a_shape for n in (s, 1)))
    b = shape.UnsafeViewBackward0.apply(other, shape=tuple(n for s in b_shape for n in (1, s)))
    product = arithmetic.mul(a, b)
    sizes = tuple(p * q for p, q in zip(a_shape, b_shape))
    try:  # (torch's _unsafe_view of the product, laid out as x: a permuted x cannot)
        np.reshape(product._data, sizes, copy=False)
    except ValueError:
        raise RuntimeError(errors.VIEW_NOT_COMPATIBLE) from None
    return shape.UnsafeViewBackward0.apply(product, shape=sizes)


MESHGRID_WARNING = (
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
    "argument. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "TensorShape.cpp:4215.)")


def meshgrid(*tensors, indexing=None):
    """Coordinate grids: the k-th output holds the k-th vector along dim k, repeated
    along the others (``indexing='xy'``: the first two dims swapped, as for images)."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if indexing is None:
        errors.warn_once(MESHGRID_WARNING, stacklevel=4)  # (TORCH_WARN_ONCE)
        indexing = "ij"
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", '
                           f"but received: {indexing}")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                               + cpp_tensor_text(t._data, shape.tensor_type_name(t)))
    sizes = [t.numel() for t in tensors]
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for k, t in enumerate(tensors):
        place = (1 - k if k < 2 else k) if swap else k
        view = [1] * len(tensors)
        view[place] = -1
        grids.append(shape.expand(shape.view(t, *view), *sizes))
    return tuple(grids)


# ---- einsum -------------------------------------------------------------------------------


def _parse(equation, operands):
    """Each operand's labels (one letter per dim, ``...`` spelled out as fresh symbols)
    and the output's."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    spare = [c for c in "0123456789" + string.punctuation if c not in equation]
    wide = max((x.ndim - len(t.replace("...", "")) for t, x in zip(terms, operands)
                if "..." in t), default=0)
    ellipsis = "".join(spare[:wide])
    labels = []
    for k, (term, x) in enumerate(zip(terms, operands)):
        if "..." in term:
            fill = x.ndim - len(term.replace("...", ""))
            if fill < 0:
                raise RuntimeError(
                    f"einsum(): the number of subscripts in the equation ({len(term) - 3}) is "
                    f"more than the number of dimensions ({x.ndim}) for operand {k}")
            term = term.replace("...", ellipsis[wide - fill:])
        elif len(term) != x.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(term)}) does not "
                f"match the number of dimensions ({x.ndim}) for operand {k} and no ellipsis "
                "was given")
        labels.append(term)
    if not arrow:
        once = sorted(c for c in set("".join(labels)) if c not in ellipsis
                      and "".join(labels).count(c) == 1)
        output = ellipsis + "".join(once)
    output = output.replace("...", ellipsis)
    for c in output:
        if output.count(c) > 1:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in "
                               "the output")
        if not any(c in term for term in labels):
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                               "equation for any input operand")
    return labels, output


def _aligned(x, term, order, k):
    """x with one dim per label of ``order``, in that order (PyTorch's steps: a repeated
    label's diagonal moved to its first place, a missing label unsqueezed at the end,
    then one permute)."""
    places = {}
    for c in term:
        if c not in places:
            places[c] = len(places)
            continue
        first, last = places[c], len(places)
        if x.shape[first] != x.shape[last]:
            raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {k} but the "
                               f"sizes don't match, {x.shape[last]} != {x.shape[first]}")
        x = diagonal_ops.diagonal(x, 0, first, last)  # (the diagonal's dim goes last)
        moved = list(range(x.ndim - 1))
        moved.insert(first, x.ndim - 1)
        x = shape.permute(x, moved)
    permutation = []
    for c in order:
        if c not in places:
            places[c] = x.ndim
            x = shape.unsqueeze(x, x.ndim)
        permutation.append(places[c])
    return shape.permute(x, permutation)


def _sumproduct_pair(left, right, sum_dims):
    """PyTorch's sumproduct_pair: sum over ``sum_dims`` of left * right (aligned, same
    number of dims), as one bmm, keeping the summed dims as size 1."""
    lro, lo, ro, sizes = [], [], [], {"lro": 1, "lo": 1, "sum": 1, "ro": 1}
    for i in range(left.ndim):
        wide_left, wide_right = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if wide_left and wide_right:
                sizes["sum"] *= left.shape[i]
            elif wide_left:
                left = reduction.sum(left, (i,), True)
            elif wide_right:
                right = reduction.sum(right, (i,), True)
        elif wide_left and wide_right:
            lro.append(i)
            sizes["lro"] *= left.shape[i]
        elif wide_left:
            lo.append(i)
            sizes["lo"] *= left.shape[i]
        else:
            ro.append(i)
            sizes["ro"] *= right.shape[i]
    out_size = ([left.shape[d] for d in lro + lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    left = shape.reshape(shape.permute(left, lro + lo + sum_dims + ro),
                         (sizes["lro"], sizes["lo"], sizes["sum"]))
    right = shape.reshape(shape.permute(right, lro + sum_dims + ro + lo),
                          (sizes["lro"], sizes["sum"], sizes["ro"]))
    result = shape.view(linalg.bmm(left, right), *out_size)
    return shape.permute(result, np.argsort(lro + lo + sum_dims + ro).tolist())


def _check_sizes(aligned, labels, order, equation):
    """PyTorch's check that each label (a dim the ellipsis covers, too) has one size over
    the operands (size 1 broadcasts), operand after operand, dim after dim."""
    sizes = {}
    for k, (x, term) in enumerate(zip(aligned, labels)):
        for dim, c in enumerate(term):
            n = x.shape[order.index(c)]
            if n == 1 or sizes.setdefault(c, n) == n:
                continue
            if c in equation:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {k} which "
                                   f"does not broadcast with previously seen size {sizes[c]}")
            raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {k}"
                               f"has size {n} which does not broadcast with previously seen "
                               f"ellipsis with size {sizes[c]} for the respective dimension")


def einsum(equation, *operands):
    """Sums of products named by subscripts: ``einsum('ij,jk->ik', a, b)`` is ``a @ b``,
    ``'ii'`` the trace, ``'ij->ji'`` the transpose, ``'i,j->ij'`` the outer product."""
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    labels, output = _parse(equation, operands)
    summed = sorted(set("".join(labels)) - set(output))  # (PyTorch's order: by letter)
    order = output + "".join(summed)
    aligned = [_aligned(x, term, order, k) for k, (x, term) in enumerate(zip(operands, labels))]
    _check_sizes(aligned, labels, order, equation)
    if len(aligned) == 1:
        dims = tuple(range(len(output), len(order)))
        return reduction.sum(aligned[0], dims) if dims else aligned[0]
    at = {c: len(output) + n for n, c in enumerate(summed)}  # (a summed label's dim)
    users = {c: [k for k, x in enumerate(aligned) if x.shape[at[c]] != 1] for c in summed}
    for k, x in enumerate(aligned):  # (a label only this operand has: summed out now)
        alone = tuple(len(output) + n for n, c in enumerate(summed) if users[c] == [k])
        aligned[k] = reduction.sum(x, alone, True) if alone else x
    a = aligned[0]
    for i, b in enumerate(aligned[1:], start=1):
        sum_dims = [len(output) + n for n, c in enumerate(summed)
                    if len(users[c]) > 1 and users[c][-1] == i]
        a = _sumproduct_pair(a, b, sum_dims) if sum_dims else arithmetic.mul(a, b)
    return shape.view(a, *a.shape[:len(output)]) if summed else a


def _trapezoid_spacing(y, x, dx, dim):
    """The spacing of the samples along ``dim``: x_(i+1) - x_i (x viewed to broadcast
    against y), or the number dx; PyTorch's checks."""
    if y.dtype is dtypes.bool or (x is not None and x.dtype is dtypes.bool):
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported"
                           if y.dtype is dtypes.bool else "trapezoid: received a bool input "
                           "for `x`, but bool is not supported")
    if x is None:
        return 1 if dx is None else dx
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        x = shape.view(x, tuple(x.shape[0] if d == dim else 1 for d in range(y.ndim)))
    elif x.ndim < y.ndim:
        x = shape.view(x, (1,) * (y.ndim - x.ndim) + tuple(x.shape))
    n = x.shape[dim]
    return arithmetic.sub(indexing.slice_dim(x, dim, 1, n, 1),
                          indexing.slice_dim(x, dim, 0, n - 1, 1))


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The integral of y along ``dim`` by the trapezoid rule: with a spacing dx,
    (sum(y) - (y_first + y_last) / 2) dx; with sample points x, sum((y_(i+1) + y_i) dx_i) / 2."""
    dim = normalize_dim(dim, y.ndim)
    n = y.shape[dim]
    if n == 0:
        return y.new_zeros(tuple(s for d, s in enumerate(y.shape) if d != dim))
    spacing = _trapezoid_spacing(y, x, dx, dim)
    if x is None:
        ends = arithmetic.add(indexing.select(y, dim, 0), indexing.select(y, dim, -1))
        inner = arithmetic.sub(reduction.sum(y, dim), arithmetic.scalar_op(ends, "*", 0.5))
        return arithmetic.scalar_op(inner, "*", float(spacing))
    pairs = arithmetic.add(indexing.slice_dim(y, dim, 1, n, 1),
                           indexing.slice_dim(y, dim, 0, n - 1, 1))
    return arithmetic.scalar_op(reduction.sum(arithmetic.mul(pairs, spacing), dim), "/", 2.0)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running integral of y along ``dim``: cumsum of (y_i + y_(i+1)) dx_i / 2."""
    dim = normalize_dim(dim, y.ndim)
    n = y.shape[dim]
    spacing = _trapezoid_spacing(y, x, dx, dim)
    pairs = arithmetic.add(indexing.slice_dim(y, dim, 0, max(n - 1, 0), 1),
                           indexing.slice_dim(y, dim, 1, n, 1))
    if x is None:
        return cumulative.cumsum(arithmetic.scalar_op(pairs, "*", float(spacing) / 2.0), dim)
    return arithmetic.scalar_op(cumulative.cumsum(arithmetic.mul(pairs, spacing), dim), "/", 2.0)


def _tensordot_dims(a, b, dims):
    """torch.tensordot's ``dims``: an int n (a's last n dims with b's first n) or two lists."""
    if is_tensor(dims):
        dims = int(dims.item()) if dims.numel() == 1 else dims.tolist()
    if isinstance(dims, int) and not isinstance(dims, bool):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(-dims, 0)), list(range(dims))  # (as PyTorch counts a's)
    if isinstance(dims, (list, tuple)) and len(dims) == 2:
        first, second = ([d] if isinstance(d, int) else list(d) for d in dims)
        return first, second
    raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                       f"list[list[int]] containing two lists, but got dims={dims}")


def tensordot(a, b, dims=2):
    """Sum of a * b over the paired dims (``dims``): as PyTorch computes it, a's free dims
    and the paired ones permuted into a matrix, b's likewise, one matrix product, reshaped."""
    dims_a, dims_b = _tensordot_dims(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    given = list(zip(dims_a, dims_b))  # (errors name the dims as given)
    dims_a = [normalize_dim(d, a.ndim) for d in dims_a]
    dims_b = [normalize_dim(d, b.ndim) for d in dims_b]
    contracted = 1
    for (da, db), (shown_a, shown_b) in zip(zip(dims_a, dims_b), given):
        size_a, size_b = a.shape[da], b.shape[db]
        if size_b == 1:  # (a broadcast dim is summed right away, in the tensor's dtype)
            a = reduction.sum(a, da, keepdim=True, dtype=a.dtype)
        elif size_a == 1:
            b = reduction.sum(b, db, keepdim=True, dtype=b.dtype)
        elif size_a != size_b:
            raise RuntimeError(f"contracted dimensions need to match, but first has size "
                               f"{size_a} in dim {shown_a} and second has size {size_b} in dim "
                               f"{shown_b}")
        else:
            contracted *= size_a
    free_a = [d for d in range(a.ndim) if d not in dims_a]
    free_b = [d for d in range(b.ndim) if d not in dims_b]
    if not free_a and not free_b:  # (all dims paired: a dot product of two vectors, as torch)
        return shape.reshape(linalg.dot(_flat(shape.permute(a, *dims_a)),
                                        _flat(shape.permute(b, *dims_b))))
    rows = int(np.prod([a.shape[d] for d in free_a], dtype=np.int64))
    cols = int(np.prod([b.shape[d] for d in free_b], dtype=np.int64))
    left = shape.reshape(shape.permute(a, *free_a, *dims_a), rows, contracted)
    right = shape.reshape(shape.permute(b, *dims_b, *free_b), contracted, cols)
    sizes = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]
    return shape.reshape(linalg.mm(left, right), *sizes)


def _flat(x):
    """``x`` as a vector (itself if it is one: torch's reshape to the same shape adds no node)."""
    return x if x.ndim == 1 else shape.reshape(x, -1)


def _vectors(name, tensors):
    for t in tensors:
        if t.ndim != 1:
            sizes = ", ".join(map(str, t.shape))
            raise RuntimeError(f"Expect a 1D vector, but got shape [{sizes}]")


def cartesian_prod(*tensors):
    """Every tuple of one element of each vector, in order: meshgrid's grids flattened and
    stacked as columns."""
    _vectors("cartesian_prod", tensors)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return shape.stack([shape.flatten(g) for g in grids], 1)


def combinations(x, r=2, with_replacement=False):
    """The r-element combinations of x's elements (with repeats, ``with_replacement``), in
    order: meshgrid's grids read where i < j < ... (or i <= j <= ...), stacked."""
    _vectors("combinations", (x,))
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return x.new_empty((0,))
    n = x.numel()
    places = np.meshgrid(*([np.arange(n)] * r), indexing="ij")
    mask = np.ones(places[0].shape, bool)
    for low, high in zip(places, places[1:]):
        mask &= (low <= high) if with_replacement else (low < high)
    grids = meshgrid(*([x] * r), indexing="ij")
    return shape.stack([indexing.masked_select(g, make(mask)) for g in grids], 1)


def cov(x, correction=1, fweights=None, aweights=None):
    """The covariance matrix of x's rows (variables) over its columns (observations):
    (x - mean) (x - mean)^T / (n - correction), each observation counted ``fweights``
    times and weighted by ``aweights``, written as PyTorch writes it (Correlation.cpp)."""
    if x.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {x.ndim} dimensions")
    if x.dtype is dtypes.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    rows = shape.view(x, 1, -1) if x.ndim < 2 else x
    observations = rows.shape[1]
    check_cov_weights("fweights", fweights, observations)
    check_cov_weights("aweights", aweights, observations)
    w = fweights if aweights is None else aweights if fweights is None else \
        arithmetic.mul(fweights, aweights)
    total = reduction.sum(w) if w is not None else make(np.asarray(observations, np.int64))
    if w is not None and not total._data != 0:
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    mean = arithmetic.div(reduction.sum(rows if w is None else arithmetic.mul(rows, w), 1), total)
    norm = _cov_norm(w, total, correction, observations, fweights, aweights)
    if (norm._data <= 0).all():
        errors.warn_at_caller("cov(): degrees of freedom is <= 0. Correction should be strictly "
                              "less than the number of observations. (Triggered internally at "
                              "/__w/pytorch/pytorch/aten/src/ATen/native/Correlation.cpp:129.)")
        norm = make(np.zeros((), norm._data.dtype))
    if observations == 1 and (fweights is None) != (aweights is None):
        centred = make(np.zeros(rows.shape, np.float32 if rows.dtype.is_integer else
                                rows._data.dtype))  # (PyTorch zeroes its input's view here)
    else:
        centred = arithmetic.sub(rows, shape.unsqueeze(mean, 1))
    weighted = centred if w is None else arithmetic.mul(centred, w)
    products = linalg.mm(centred, shape.t(weighted))
    return shape.squeeze(arithmetic.div(products, norm))


def _cov_norm(w, total, correction, observations, fweights, aweights):
    """cov's normalization: n - correction, or the weights' sum less the correction
    (with aweights, less correction * sum(w * aweights) / sum(w))."""
    if w is None:
        return make(np.asarray(observations - correction, np.int64))
    if correction == 0:
        return total
    if aweights is None:
        return arithmetic.sub(total, correction)
    if fweights is None and observations == 1 and correction == 1:
        return make(np.asarray(0, np.int64))
    spread = reduction.sum(arithmetic.mul(w, aweights))
    return arithmetic.sub(total, arithmetic.div(arithmetic.mul(spread, correction), total))


def corrcoef(x):
    """Pearson's correlation coefficients of x's rows: cov / (std_i std_j), clipped to
    [-1, 1]."""
    if x.ndim > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {x.ndim} dimensions")
    c = cov(x)
    if c.ndim == 0:
        return arithmetic.div(c, c)
    deviations = pointwise.sqrt(diagonal_ops.diagonal(c))
    c = arithmetic.div(c, shape.view(deviations, -1, 1))
    c = arithmetic.div(c, shape.view(deviations, 1, -1))
    return pointwise.clamp(c, -1, 1)
