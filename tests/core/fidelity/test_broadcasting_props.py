"""Property-based checks (hypothesis) over shapes, broadcasting, dims and dtypes:
every generated case runs on minigrad and torch and must agree on values, dtype,
shape, graph and gradients (see ``torch_compare.check``)."""

import numpy as np
import torch
from hypothesis import assume, given, strategies as st

import minigrad as mg

from torch_compare import FLOAT32, check, check_error, check_numerical, distinct, rand

shapes = st.lists(st.integers(1, 5), min_size=0, max_size=4).map(tuple)


@st.composite
def broadcastable_pair(draw):
    """A shape, and a second one made from it by dropping leading dims and setting
    some dims to 1 (in either order)."""
    full = draw(shapes)
    drop = draw(st.integers(0, len(full)))
    other = [1 if draw(st.booleans()) else size for size in full[drop:]]
    pair = (full, tuple(other))
    return pair if draw(st.booleans()) else pair[::-1]


@st.composite
def incompatible_pair(draw):
    full = draw(st.lists(st.integers(2, 5), min_size=1, max_size=4).map(tuple))
    axis = draw(st.integers(0, len(full) - 1))
    bad = list(full)
    bad[axis] = full[axis] + draw(st.integers(1, 3))
    drop = draw(st.integers(0, axis))
    pair = (full, tuple(bad[drop:]))
    return pair if draw(st.booleans()) else pair[::-1]


BINARY = {
    "+": lambda lib, x, y: x + y, "-": lambda lib, x, y: x - y, "*": lambda lib, x, y: x * y,
    "/": lambda lib, x, y: x / y, "**": lambda lib, x, y: x.abs() ** y,
    "maximum": lambda lib, x, y: lib.maximum(x, y), "minimum": lambda lib, x, y: lib.minimum(x, y),
    "where": lambda lib, x, y: lib.where(x > y, x, y * 2),
    "atan-like": lambda lib, x, y: (x * y) / (1 + x * x + y * y),
    "add alpha": lambda lib, x, y: x.add(y, alpha=-1.5),
}


@given(pair=broadcastable_pair(), op=st.sampled_from(sorted(BINARY)),
       grads=st.sampled_from([(True, True), (True, False), (False, True)]),
       seed=st.integers(0, 2 ** 16))
def test_binary_ops_broadcast_like_torch(pair, op, grads, seed):
    a = rand(pair[0], seed=seed)
    b = rand(pair[1], seed=seed + 1, low=0.5, high=2.0) * np.where(
        rand(pair[1], seed=seed + 2) > 0, 1, -1).astype(np.float32)
    check(BINARY[op], a, b, requires_grad=list(grads))


@given(pair=broadcastable_pair(), seed=st.integers(0, 2 ** 16))
def test_broadcast_gradient_is_a_sum_in_float64(pair, seed):
    """The adjoint of broadcasting: finite differences agree in float64."""
    a, b = rand(pair[0], seed=seed, dtype="float64"), rand(pair[1], seed=seed + 1, dtype="float64")
    check_numerical(lambda x, y: x * y + x.exp() / (1 + y * y), a, b)


@given(pair=incompatible_pair(), op=st.sampled_from(["+", "*", "maximum", "where"]))
def test_incompatible_shapes_fail_with_torchs_message(pair, op):
    check_error(BINARY[op], rand(pair[0]), rand(pair[1], seed=1))


@given(pair=broadcastable_pair(), op=st.sampled_from(["eq", "lt", "ge", "ne"]))
def test_comparisons_broadcast(pair, op):
    a = np.round(rand(pair[0]) * 2) / 2
    b = np.round(rand(pair[1], seed=1) * 2) / 2
    check(lambda lib, x, y: getattr(x, op)(y), a, b)


DTYPES = ["float32", "float64", "int64", "int32", "bool"]


def typed(dtype, shape, seed):
    if dtype == "bool":
        return rand(shape, seed=seed, dtype="bool")
    if dtype.startswith("int"):
        return rand(shape, seed=seed, dtype=dtype, low=1, high=4)
    return rand(shape, seed=seed, dtype=dtype, low=0.5, high=2.0)


@given(pair=broadcastable_pair(), left=st.sampled_from(DTYPES), right=st.sampled_from(DTYPES),
       op=st.sampled_from(["+", "*", "/", "maximum", "where"]))
def test_promotion_with_any_shapes(pair, left, right, op):
    a, b = typed(left, pair[0], 0), typed(right, pair[1], 1)
    grads = [left.startswith("float"), right.startswith("float")]
    check(BINARY[op], a, b, requires_grad=grads)


SCALARS = st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False, width=32),
                    st.booleans())


@given(shape=shapes, dtype=st.sampled_from(DTYPES), scalar=SCALARS,
       op=st.sampled_from(["+", "r-", "*", "r/", "==", "<", "clamp"]))
def test_promotion_with_python_scalars(shape, dtype, scalar, op):
    fn = {"+": lambda lib, x: x + scalar, "r-": lambda lib, x: scalar - x,
          "*": lambda lib, x: x * scalar, "r/": lambda lib, x: scalar / x,
          "==": lambda lib, x: x == scalar, "<": lambda lib, x: x < scalar,
          "clamp": lambda lib, x: x.clamp(max=scalar)}[op]
    array = typed(dtype, shape, 2)
    grads = dtype.startswith("float")
    try:
        fn(torch, torch.tensor(array))
    except RuntimeError:
        check_error(fn, array, requires_grad=grads)
        return
    except NotImplementedError:
        check_error(fn, array, requires_grad=grads)
        return
    check(fn, array, requires_grad=grads)


@st.composite
def shape_and_dims(draw, min_dims=1):
    shape = draw(st.lists(st.integers(1, 4), min_size=min_dims, max_size=4).map(tuple))
    dims = draw(st.lists(st.integers(-len(shape), len(shape) - 1), min_size=1,
                         max_size=len(shape), unique_by=lambda d: d % len(shape)))
    return shape, tuple(dims)


REDUCE = {
    "sum": lambda lib, x, dims, keep: x.sum(dims, keepdim=keep),
    "mean": lambda lib, x, dims, keep: x.mean(dims, keepdim=keep),
    "var": lambda lib, x, dims, keep: x.var(dims, keepdim=keep, correction=0),
    "std": lambda lib, x, dims, keep: x.std(dims, keepdim=keep, correction=0),
    "norm": lambda lib, x, dims, keep: x.norm(2, dim=dims, keepdim=keep),
    "norm-fro": lambda lib, x, dims, keep: x.norm(dim=dims[:2], keepdim=keep),
    "norm-3": lambda lib, x, dims, keep: x.norm(3, dim=dims, keepdim=keep),
    "logsumexp": lambda lib, x, dims, keep: x.logsumexp(dims, keepdim=keep),
    "max": lambda lib, x, dims, keep: x.max(dims[0], keepdim=keep),
    "min": lambda lib, x, dims, keep: x.min(dims[0], keepdim=keep),
    "prod": lambda lib, x, dims, keep: x.prod(dims[0], keepdim=keep),
    "softmax": lambda lib, x, dims, keep: x.softmax(dims[0]),
    "log_softmax": lambda lib, x, dims, keep: x.log_softmax(dims[0]),
    "argmax": lambda lib, x, dims, keep: x.argmax(dims[0], keepdim=keep),
    "any": lambda lib, x, dims, keep: (x > 0).any(dims[0], keepdim=keep),
}


@given(case=shape_and_dims(), op=st.sampled_from(sorted(REDUCE)), keep=st.booleans(),
       seed=st.integers(0, 2 ** 16))
def test_reductions_over_random_dims(case, op, keep, seed):
    shape, dims = case
    x = distinct(shape, seed=seed) if op in ("max", "min", "argmax") else rand(shape, seed=seed)
    assume(not (op in ("std",) and np.prod([shape[d] for d in dims]) == 1))
    check(lambda lib, t: REDUCE[op](lib, t, dims, keep), x)


@given(shape=st.lists(st.integers(1, 4), min_size=2, max_size=4).map(tuple), data=st.data())
def test_shape_ops_with_random_arguments(shape, data):
    ndim = len(shape)
    x = rand(shape, seed=5)
    order = data.draw(st.permutations(range(ndim)))
    d0, d1 = data.draw(st.integers(-ndim, ndim - 1)), data.draw(st.integers(-ndim, ndim - 1))
    new = data.draw(st.integers(-ndim - 1, ndim))
    start = data.draw(st.integers(0, ndim - 1))
    end = data.draw(st.integers(start, ndim - 1))
    for fn in (lambda lib, t: t.permute(*order), lambda lib, t: t.transpose(d0, d1),
               lambda lib, t: t.unsqueeze(new), lambda lib, t: t.flatten(start, end),
               lambda lib, t: t.permute(*order).reshape(-1),
               lambda lib, t: t.transpose(d0, d1).flatten(start, end),
               lambda lib, t: t.permute(*order).reshape(shape[::-1]),
               lambda lib, t: t.transpose(d0, d1).contiguous().view(-1),
               lambda lib, t: t.unsqueeze(new).squeeze(), lambda lib, t: t.flip(d0),
               lambda lib, t: lib.cat([t, t * 2], d1), lambda lib, t: lib.stack([t, -t], new),
               lambda lib, t: t.unsqueeze(0).expand(2, *shape).sum(0)):
        check(fn, x)


@st.composite
def matmul_case(draw):
    """Two matmul-compatible shapes (1-D, matrices, broadcast batches), whether each
    requires grad, and whether the left operand is a transposed (strided) view."""
    n, m, p = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    batch = draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    left_batch = [1 if draw(st.booleans()) else b for b in batch]
    left_batch = left_batch[draw(st.integers(0, len(batch))):]
    right_batch = [1 if draw(st.booleans()) else b for b in batch]
    right_batch = right_batch[draw(st.integers(0, len(batch))):]
    left = (m,) if draw(st.booleans()) else tuple(left_batch) + (n, m)
    right = (m,) if draw(st.booleans()) else tuple(right_batch) + (m, p)
    grads = draw(st.sampled_from([(True, True), (True, False), (False, True)]))
    return left, right, grads, draw(st.booleans())


@given(case=matmul_case(), seed=st.integers(0, 2 ** 16))
def test_matmul_any_shapes(case, seed):
    left, right, grads, transposed = case
    a, b = rand(left, seed=seed), rand(right, seed=seed + 1)
    if transposed and len(left) >= 2:
        a = np.ascontiguousarray(np.swapaxes(a, -1, -2))

        def fn(lib, x, y):
            return x.transpose(-1, -2) @ y
    else:
        def fn(lib, x, y):
            return x @ y
    check(fn, a, b, requires_grad=list(grads))


@given(shape=shapes, seed=st.integers(0, 2 ** 16))
def test_pointwise_any_shape_including_0_dim(shape, seed):
    x = rand(shape, seed=seed, away_from=[0.0], gap=0.05)
    for fn in (lambda lib, t: t.exp(), lambda lib, t: t.abs().log(), lambda lib, t: t.tanh(),
               lambda lib, t: t.sigmoid(), lambda lib, t: t.relu(), lambda lib, t: t.abs().sqrt(),
               lambda lib, t: t.sin() + t.cos(), lambda lib, t: t ** 2, lambda lib, t: 2 ** t,
               lambda lib, t: 1 / t, lambda lib, t: t.clamp(-0.5, 0.5),
               lambda lib, t: t.masked_fill(t > 0, 1.0), lambda lib, t: t.max(),
               lambda lib, t: t.norm()):
        check(fn, x)
    # A float32 sum depends on the order of its additions (NumPy and torch block them
    # differently): pairwise summation is off by at most about log2(n) * u * sum|x|,
    # which can exceed the elementwise tolerance when the sum nearly cancels.
    bound = max(1, np.ceil(np.log2(max(x.size, 1)))) * 2.0 ** -24 * float(np.abs(x).sum())
    check(lambda lib, t: t.sum(), x, atol=max(FLOAT32["atol"], bound))
    check(lambda lib, t: t.mean(), x, atol=max(FLOAT32["atol"], bound / max(x.size, 1)))
