"""Sums added up in PyTorch's order (minigrad/kernels/summation.py), compared bit for bit
with PyTorch 2.13 at test time: ``x.sum()`` and ``x.mean()`` of contiguous float32
and float64 tensors of up to 32,767 elements, ``x.sum(dim)`` and ``x.mean(dim)`` over
any dims of tensors of any layout (transposed, sliced),
the gradients that undo broadcasting (a bias's), the gradient of a 0-dim operand
(a sum of the broadcast gradient), and the higher derivatives of reductions whose
formulas sum (prod, std, norm, cumprod, logsumexp) to the fifth order. NumPy's
pairwise sums differ from these in the last bits for most sizes of 5 and more."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from torch_compare import check_bits

SIZES = [1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 127, 255, 256, 257, 511, 527, 528,
         1055, 1056, 4095, 4096, 4097, 8193, 20000, 32767]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", SIZES)
def test_sum_and_mean_have_torchs_bits(size, dtype):
    rng = np.random.default_rng(size)
    for scale in (1e-3, 1.0, 1e4):
        data = (rng.standard_normal(size) * scale).astype(dtype)
        for shape in [(size,), (1, size)] + ([(size // 3, 3)] if size % 3 == 0 else []):
            ours, theirs = mg.tensor(data.reshape(shape)), torch.tensor(data.reshape(shape))
            assert ours.sum().numpy().tobytes() == theirs.sum().numpy().tobytes(), (shape, scale)
            assert ours.mean().numpy().tobytes() == theirs.mean().numpy().tobytes(), (shape, scale)


@pytest.mark.parametrize("size", [5, 17, 100, 1000])
def test_the_gradient_of_a_0_dim_operand_has_torchs_bits(size):
    def run(lib):
        rng = np.random.default_rng(size)
        x = lib.tensor(rng.standard_normal(size))
        w = lib.tensor(0.75, dtype=lib.float64, requires_grad=True)
        (x * w).backward(lib.tensor(rng.standard_normal(size)))
        return w.grad.numpy().tobytes()
    assert run(mg) == run(torch)


PROGRAMS = {
    "prod": lambda lib, x: x.prod(), "prod(0)": lambda lib, x: x.prod(0),
    "prod(1)": lambda lib, x: x.prod(1), "std": lambda lib, x: x.std(),
    "norm": lambda lib, x: x.norm(), "cumprod(1)": lambda lib, x: x.cumprod(1),
    "logsumexp(1)": lambda lib, x: x.logsumexp(1),
}
DATA = {"plain": [[0.7, -1.3, 2.1], [0.4, 1.1, -0.6]], "a zero": [[0.7, 0.0, 2.1], [0.4, 1.1, -0.6]],
        "two zeros": [[0.0, 0.0, 2.1], [0.4, 0.0, -0.6]]}


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("seed", ["sum", "weighted"])
def test_higher_derivatives_of_reductions_have_torchs_bits(name, data, seed):
    def run(lib):
        x = lib.tensor(DATA[data], dtype=lib.float64, requires_grad=True)
        g = PROGRAMS[name](lib, x)
        out = []
        for _ in range(5):
            if seed == "sum" or g.numel() == 1:
                total = g.sum()
            else:
                total = (g * lib.tensor(np.linspace(0.3, 1.7, g.numel()).reshape(tuple(g.shape)))).sum()
            if not total.requires_grad:
                break
            g, = lib.autograd.grad(total, x, create_graph=True)
            out.append(g.detach().numpy())
        return out
    ours, theirs = run(mg), run(torch)
    assert len(ours) == len(theirs)
    for order, (mine, torchs) in enumerate(zip(ours, theirs), 1):
        if name == "logsumexp(1)":
            # (its exp's last bit depends on the SLEEF kernel torch picks for the CPU,
            # AVX2 or AVX512: one ulp per exp, carried through five orders)
            np.testing.assert_allclose(mine, torchs, rtol=1e-13, atol=1e-15, err_msg=order)
        else:
            assert mine.tobytes() == torchs.tobytes(), order


def _random_case(rng, dtype):
    """A tensor's data of 1 to 4 dims (some of size 1), maybe transposed or sliced
    with a step, and some of its dims to sum over (sorted, or all of them)."""
    ndim = int(rng.integers(1, 5))
    shape = [int(size) for size in rng.integers(1, 9 if ndim > 2 else 200, ndim)]
    data = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4)).astype(dtype)
    if ndim > 1 and rng.random() < 0.3:
        data = data.transpose(rng.permutation(ndim))
    if rng.random() < 0.2:
        step = [slice(None)] * ndim
        step[int(rng.integers(ndim))] = slice(None, None, 2)
        data = data[tuple(step)]
    count = int(rng.integers(1, ndim + 1))
    return data, tuple(sorted(rng.choice(ndim, count, replace=False).tolist()))


def _layout(lib, data):
    """``data`` as a tensor with the same strides (a view of a contiguous base)."""
    base = lib.tensor(np.ascontiguousarray(data.base if data.base is not None else data))
    return base.as_strided(data.shape, [s // data.itemsize for s in data.strides])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(6))
def test_sums_and_means_over_dims_have_torchs_bits(seed, dtype):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        data, dims = _random_case(rng, dtype)
        keepdim = bool(rng.integers(2))
        ours, theirs = mg.tensor(data), torch.tensor(data)
        for name, call in [("sum", lambda t: t.sum(dims, keepdim=keepdim)),
                           ("mean", lambda t: t.mean(dims, keepdim=keepdim))]:
            mine, torchs = call(ours).numpy(), call(theirs).numpy()
            assert mine.shape == torchs.shape, (name, data.shape, dims)
            assert mine.tobytes() == torchs.tobytes(), (name, data.shape, data.strides, dims)


@pytest.mark.parametrize("shape, dims", [((37, 3), (0,)), ((3, 37), (1,)), ((5000, 3), (0,)),
                                         ((3, 5000), (1,)), ((4100, 2), (0,)), ((2, 9, 40), (0, 2)),
                                         ((1, 7, 1), (1,)), ((3, 1, 4), (1,)), ((6, 70), (0, 1))])
def test_long_and_odd_sums_over_dims_have_torchs_bits(shape, dims):
    """The cascade's third level (4,096 rows and more), summed dims apart, size-1 dims."""
    for dtype in ("float32", "float64"):
        data = np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype)
        data[(0,) * len(shape)] = -0.0
        mine = mg.tensor(data).sum(dims).numpy()
        assert mine.tobytes() == torch.tensor(data).sum(dims).numpy().tobytes(), dtype


@pytest.mark.parametrize("shape, dims", [((64, 8, 14, 14), (1, 2, 3)), ((64, 16, 7, 7), (1, 2, 3)),
                                         ((64, 8, 14, 14), (2, 3)), ((300, 200), (0, 1)),
                                         ((3, 4, 5), (1, 2))])
@pytest.mark.parametrize("keepdim", [False, True])
def test_sums_and_means_over_the_last_dims_have_torchs_bits(shape, dims, keepdim):
    """The last dims of a contiguous float32 tensor summed together (a per-sample mean, as
    course22p2's initializing notebook normalises): PyTorch's iterator merges them into one
    row, of any length (above 32,768 elements minigrad took NumPy's sum: 23 % of
    PyTorch's bits over (1, 2, 3) of 64 x 8 x 14 x 14, found by op_bisect.py)."""
    data = np.random.default_rng(len(dims)).standard_normal(shape).astype("float32")
    ours, theirs = mg.tensor(data), torch.tensor(data)
    assert ours.sum(dims, keepdim=keepdim).numpy().tobytes() == \
        theirs.sum(dims, keepdim=keepdim).numpy().tobytes()
    assert ours.mean(dims, keepdim=keepdim).numpy().tobytes() == \
        theirs.mean(dims, keepdim=keepdim).numpy().tobytes()
    assert ours.sum(dims, keepdim=keepdim).shape == theirs.sum(dims, keepdim=keepdim).shape


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced"])
def test_strided_tensors_are_summed_in_memory_order(layout):
    """torch's iterator walks a view in the order of its memory, not of its dims."""
    data = np.random.default_rng(7).standard_normal((40, 24)).astype("float32")
    view = {"contiguous": data, "transposed": data.T, "sliced": data[:, ::2]}[layout]
    for dims in [(0,), (1,), (0, 1)]:
        mine = _layout(mg, view).sum(dims).numpy()
        assert mine.tobytes() == _layout(torch, view).sum(dims).numpy().tobytes(), dims
    assert _layout(mg, view).sum().numpy().tobytes() == _layout(torch, view).sum().numpy().tobytes()


@pytest.mark.parametrize("batch", [1, 5, 17, 64, 300])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_gradients_that_undo_broadcasting_have_torchs_bits(batch, dtype):
    """A bias added to a batch, and a row scaling it: their gradients sum the batch's
    gradient over rows (torch's sum_to), here with only exact arithmetic before."""
    def run(lib):
        rng = np.random.default_rng(batch)
        x = lib.tensor(rng.standard_normal((batch, 33)).astype(dtype))
        weights = lib.tensor(rng.standard_normal((batch, 33)).astype(dtype))
        b = lib.tensor(rng.standard_normal(33).astype(dtype), requires_grad=True)
        c = lib.tensor(rng.standard_normal((1, 33)).astype(dtype), requires_grad=True)
        d = lib.tensor(rng.standard_normal((batch, 1)).astype(dtype), requires_grad=True)
        ((x * c + b + d) * weights).sum().backward()
        return [t.grad.numpy().tobytes() for t in (b, c, d)]
    assert run(mg) == run(torch)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("rows, columns", [  # (below 32,768 elements: see summation.py)
    (rows, columns) for rows in [2, 3, 15, 16, 17, 64, 255, 256, 257, 1000]
    for columns in [4, 7, 8, 10, 31, 32, 33, 256] if rows * columns < 32768])
def test_the_rows_of_a_matrix_summed_as_a_bias_gradient_have_torchs_bits(rows, columns, dtype):
    """x.sum(0) of a contiguous matrix (the gradient of a linear layer's bias, and its
    quick path in summation.sum_over), the values spread over six orders of magnitude."""
    rng = np.random.default_rng(rows * 100 + columns)
    values = (rng.standard_normal((rows, columns))
              * rng.choice([1.0, 1e3, 1e-3], size=(rows, columns))).astype(dtype)
    assert mg.tensor(values).sum(0).numpy().tobytes() == torch.tensor(values).sum(0).numpy().tobytes()

    def bias_grad(lib):
        bias = lib.zeros(columns, dtype=getattr(lib, dtype), requires_grad=True)
        (lib.tensor(values) + bias).backward(lib.tensor(values))
        return bias.grad.numpy().tobytes()
    assert bias_grad(mg) == bias_grad(torch)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape, dim", [((9,), 0), ((20, 100), 1), ((100, 20), 0), ((3, 4000), 1)])
def test_cumulative_sums_and_products_have_torchs_bits(name, shape, dim, dtype):
    """PyTorch carries a cumulative sum or product in its accumulate type (float64 for
    float32, float32 for float16) and rounds each output: minigrad added in float32, and
    only 3-70 % of float32 cumsums' elements had PyTorch's bits. Values and gradients
    (the gradient of cumsum is the reversed cumsum of G)."""
    rng = np.random.default_rng(len(shape) + dim)
    x = (rng.standard_normal(shape) * (0.5 if name == "cumsum" else 1.0) + (
        0.0 if name == "cumsum" else 1.0)).astype(dtype)
    if dtype == "float16":  # (float16's gradients: PyTorch's backward, not compared here)
        x16 = [getattr(lib, name)(lib.tensor(x), dim).numpy() for lib in (mg, torch)]
        assert np.array_equal(x16[0].view(np.uint16), x16[1].view(np.uint16))
        return
    check_bits(lambda lib, t: getattr(lib, name)(t, dim), x)
    check_bits(lambda lib, t: getattr(lib, name)(t, 0), np.array([-0.0, -0.0, 2.0, 0.0, -0.0],
                                                                  dtype))


# Products (session 13): torch's prod multiplies a contiguous run with four vectors side by
# side (vectors of 32 bytes: 16 halves, 8 floats, 4 doubles), then the vectors, the lanes
# and the leftover elements; other dims one element after the other. NumPy's np.prod parted
# in the last bit from it for about half of float32 runs of 20 elements and more, and
# float16 products (deep seed 40536) for most of them.
PROD_LAYOUTS = {
    "contiguous": lambda x: x, "transposed": lambda x: x.mT, "every other": lambda x: x[..., ::2],
    "permuted": lambda x: x.permute(2, 0, 1),
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("layout", list(PROD_LAYOUTS))
@pytest.mark.parametrize("shape", [(1, 1, 7), (2, 3, 40), (3, 70, 5), (1, 1, 500), (4, 9, 129)])
def test_products_have_torchs_bits(shape, layout, dtype):
    data = np.random.default_rng(sum(shape)).uniform(0.7, 1.3, shape).astype(dtype)
    for lib_x in [(mg.tensor(data), torch.tensor(data))]:
        ours, theirs = (PROD_LAYOUTS[layout](x) for x in lib_x)
        pairs = [(ours.prod(), theirs.prod())] + \
            [(ours.prod(d, keepdim=k), theirs.prod(d, keepdim=k)) for d in range(3) for k in (False, True)]
        for o, t in pairs:
            assert o.numpy().shape == t.numpy().shape
            assert np.array_equal(o.numpy(), t.numpy(), equal_nan=True)


# var and std (session 13): torch's CPU kernels take two passes for a float32/float64 var
# or std with one output element (its own mean, then the squared deviations summed in
# float64 one after the other) and Welford's update in float64 for every other (more
# outputs, float16, var_mean, std_mean); a half's results are rounded to float, then half.
# NumPy's var parted in the last bit from torch's in about 58 % of float64 calls and 8 %
# of float32 ones (a constant row: torch's float32 mean is an ulp off, its var not 0).
SPREADS = ["var", "std", "var_mean", "std_mean"]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", SPREADS)
@pytest.mark.parametrize("shape, constant", [((7,), True), ((9,), False), ((3, 40), False),
                                             ((4, 5, 6), False), ((2, 8, 3), True)])
def test_var_and_std_have_torchs_bits(shape, constant, name, dtype):
    data = (np.random.default_rng(len(shape)).standard_normal(shape) * 3).astype(dtype)
    if constant:
        data[...] = data.reshape(-1)[0]
    dims = [None] + list(range(len(shape))) + ([(0, -1)] if len(shape) > 1 else [])
    for layout in ("contiguous", "transposed"):
        ours, theirs = mg.tensor(data), torch.tensor(data)
        if layout == "transposed":
            ours, theirs = ours.mT if ours.dim() > 1 else ours, theirs.mT if theirs.dim() > 1 else theirs
        for dim in dims:
            for correction in (0, 1, 2.5):
                call = lambda lib, x: getattr(lib, name)(x, dim, correction=correction) \
                    if dim is not None else getattr(lib, name)(x, correction=correction)
                got, want = call(mg, ours), call(torch, theirs)
                for o, t in zip(got if isinstance(got, tuple) else (got,),
                                want if isinstance(want, tuple) else (want,)):
                    assert np.array_equal(o.numpy(), t.numpy(), equal_nan=True), (layout, dim, correction)
