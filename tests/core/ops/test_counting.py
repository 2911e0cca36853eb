"""Counting and locating (``minigrad/ops/counting.py``) and the logical ops (beside the
comparisons in ``minigrad/ops/compare.py``) against PyTorch 2.13: count_nonzero, nonzero
(as_tuple), argwhere, unique (return_inverse, return_counts, dim; its node stops backward
with PyTorch's error), bincount, histc, histogram, searchsorted, bucketize, logical_and/or/xor/not.
Each call is run on both libraries and what it prints (or the error it raises) compared."""

from __future__ import annotations

import warnings

import numpy as np

import pytest
import torch

import minigrad as mg

from torch_compare import outcome
from transcripts import assert_same

NAN = float("nan")

CALLS = {
    "logical_and": lambda lib: lib.logical_and(lib.tensor([1., 0., 2.]), lib.tensor([0, 3, 0])),
    "logical_or": lambda lib: lib.logical_or(lib.tensor([1., 0., 2.]), lib.tensor([0, 3, 0])),
    "logical_xor": lambda lib: lib.logical_xor(lib.tensor([True, False]), lib.tensor([True, True])),
    "logical_not": lambda lib: lib.logical_not(lib.tensor([1., 0.])),
    "logical_and_": lambda lib: lib.tensor([1., 0., 2.]).logical_and_(lib.tensor([0, 3, 1])),
    "logical_or-method": lambda lib: lib.tensor([[0, 1]]).logical_or(lib.tensor([[0], [1]])),
    "logical_and-out": lambda lib: lib.logical_and(lib.tensor([1., 0.]), lib.tensor([2, 0]),
                                                   out=lib.empty(2)),
    "logical_and-shapes": lambda lib: lib.logical_and(lib.tensor([1., 0.]), lib.ones(3)),
    "logical_or-number": lambda lib: lib.logical_or(lib.tensor([1.]), 2),
    "count_nonzero-dim": lambda lib: lib.count_nonzero(lib.tensor([[0, 1], [2, 0]]), dim=0),
    "count_nonzero-dims": lambda lib: lib.tensor([[0, 1.], [2, 0]]).count_nonzero((0, 1)),
    "count_nonzero": lambda lib: lib.tensor([[0, 1.], [2, 0]]).count_nonzero(),
    "count_nonzero-dim-out-of-range": lambda lib: lib.ones(3, 2).count_nonzero(2),
    "nonzero": lambda lib: lib.tensor([[0, 2.], [3, 0], [2, 2]]).nonzero(),
    "nonzero-as_tuple": lambda lib: lib.nonzero(lib.tensor([[0, 2.], [3, 0]]), as_tuple=True),
    "nonzero-0dim": lambda lib: lib.tensor(2.).nonzero(),
    "nonzero-0dim-zero": lambda lib: lib.tensor(0.).nonzero(),
    "nonzero-0dim-tuple": lambda lib: lib.nonzero(lib.tensor(0.), as_tuple=True),
    "nonzero-bool": lambda lib: lib.nonzero(lib.tensor([True, False, True])),
    "argwhere": lambda lib: lib.argwhere(lib.tensor([0, 1, 1])),
    "nonzero_static": lambda lib: lib.nonzero_static(lib.tensor([[1., 0], [2, 3]]), size=5),
    "nonzero_static-cut": lambda lib: lib.tensor([[1., 0], [2, 3]]).nonzero_static(size=2,
                                                                                   fill_value=9),
    "nonzero_static-zero": lambda lib: lib.nonzero_static(lib.tensor([1, 0, 2]), size=0),
    "nonzero_static-0dim": lambda lib: lib.nonzero_static(lib.tensor(3.), size=2),
    "nonzero_static-bool": lambda lib: lib.nonzero_static(lib.tensor([True, False, True]), size=3),
    "nonzero_static-nan": lambda lib: lib.nonzero_static(lib.tensor([NAN, 0.]), size=2),
    "nonzero_static-empty": lambda lib: lib.nonzero_static(lib.zeros(0, 3), size=2),
    "nonzero_static-big-fill": lambda lib: lib.nonzero_static(lib.tensor([0, 1]), size=2,
                                                              fill_value=2**40),
    "nonzero_static-strides": lambda lib: lib.nonzero_static(lib.ones(2, 3), size=4).stride(),
    "nonzero_static-out": lambda lib: lib.nonzero_static(lib.tensor([0, 1, 1]), size=3,
                                                          out=lib.empty(0, dtype=lib.long)),
    "nonzero_static-out-float": lambda lib: lib.nonzero_static(lib.tensor([1]), size=1,
                                                               out=lib.empty(0)),
    "nonzero_static-negative": lambda lib: lib.nonzero_static(lib.tensor([1]), size=-1),
    "nonzero_static-float-size": lambda lib: lib.nonzero_static(lib.tensor([1]), size=2.0),
    "nonzero_static-float-fill": lambda lib: lib.nonzero_static(lib.tensor([1]), size=2,
                                                                fill_value=1.5),
    "unique": lambda lib: lib.unique(lib.tensor([[0, 2.], [3, 0], [2, 2]])),
    "unique-inverse-counts": lambda lib: lib.unique(lib.tensor([[0, 2.], [3, 0], [2, 2]]),
                                                    return_inverse=True, return_counts=True),
    "unique-dim": lambda lib: lib.tensor([[0, 2.], [3, 0], [0, 2]]).unique(dim=0),
    "unique-dim-inverse": lambda lib: lib.unique(lib.tensor([[0, 2.], [2, 2]]), dim=1,
                                                 return_inverse=True),
    "unique-nan": lambda lib: lib.unique(lib.tensor([3, 1, 3, NAN, NAN])),
    "unique-int-counts": lambda lib: lib.tensor([3, 1, 3]).unique(return_counts=True),
    "unique-requires-grad": lambda lib: lib.tensor([0., 1, 0], requires_grad=True).unique(),
    "unique-backward": lambda lib: lib.tensor([0., 1], requires_grad=True).unique().sum()
    .backward(),
    "unique-dim-backward": lambda lib: lib.tensor([[0., 1]], requires_grad=True).unique(dim=0)
    .sum().backward(),
    "bincount": lambda lib: lib.bincount(lib.tensor([1, 1, 3])),
    "bincount-weights": lambda lib: lib.bincount(lib.tensor([1, 1, 3]),
                                                 weights=lib.tensor([.5, 1., 2.]), minlength=6),
    "bincount-double": lambda lib: lib.tensor([1, 1, 3]).bincount(
        lib.tensor([.5, 1., 2.], dtype=lib.float64)),
    "bincount-int-weights": lambda lib: lib.bincount(lib.tensor([1, 2]), lib.tensor([1, 2])),
    "bincount-negative": lambda lib: lib.bincount(lib.tensor([-1])),
    "bincount-2d": lambda lib: lib.bincount(lib.tensor([[1]])),
    "bincount-float": lambda lib: lib.bincount(lib.tensor([1.])),
    "histc": lambda lib: lib.histc(lib.tensor([1., 2, 1]), bins=4, min=0, max=3),
    "histc-default-range": lambda lib: lib.histc(lib.tensor([1., 2, 1, 5])),
    "histc-method": lambda lib: lib.tensor([1., 2, 1, 5]).histc(bins=3),
    "histc-edges": lambda lib: lib.histc(lib.tensor([0.1, 0.2, 0.3, 0.7, 1.0, 0.0]), bins=10,
                                         min=0, max=1),
    "histc-one-value": lambda lib: lib.histc(lib.tensor([2.]), bins=4),
    "histc-int": lambda lib: lib.histc(lib.tensor([1, 2])),
    "histc-min-max": lambda lib: lib.histc(lib.tensor([1.]), min=2, max=1),
    "histc-no-bins": lambda lib: lib.histc(lib.tensor([1, 2]), bins=-1, min=2, max=1),
    "histc-zero-bins": lambda lib: lib.histc(lib.tensor([1.]), bins=0),
    "histc-out-long": lambda lib: lib.histc(lib.tensor([1.]), bins=-1, out=lib.zeros(0, dtype=lib.long)),
    "histc-out-float": lambda lib: lib.histc(lib.tensor([1, 2]), out=lib.zeros(0)),
    "histc-out-grad": lambda lib: lib.histc(lib.tensor([1., 2], requires_grad=True), 3, out=lib.zeros(0)),
    "searchsorted": lambda lib: lib.searchsorted(lib.tensor([1, 3, 5, 7]), lib.tensor([3, 6, 9])),
    "searchsorted-right": lambda lib: lib.searchsorted(lib.tensor([1, 3, 5, 7]),
                                                       lib.tensor([3, 6, 9]), right=True),
    "searchsorted-rows": lambda lib: lib.searchsorted(lib.tensor([[1, 3, 5, 7], [2, 4, 6, 8]]),
                                                      lib.tensor([[3, 6], [1, 9]])),
    "bucketize": lambda lib: lib.bucketize(lib.tensor([3, 6, 9]), lib.tensor([1, 3, 5, 7])),
    "bucketize-right": lambda lib: lib.bucketize(lib.tensor([[3., 6, 9]]),
                                                 lib.tensor([1., 3, 5, 7]), right=True),
}


@pytest.mark.parametrize("name", CALLS)
def test_calls_print_and_fail_as_torch(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(CALLS[name], mg) == outcome(CALLS[name], torch)


@pytest.mark.parametrize("values", [[[1.0], [0.0], [2.0]], [1, 0, 2], [[1, 0], [0, 3]],
                                    [[0.0, 0.0]], 1.0, 0.0],
                         ids=["column", "vector", "matrix", "none", "0-dim", "0-dim-zero"])
def test_nonzero_is_laid_out_as_torchs(values):
    """torch's kernel writes each dim's indices in a row, then transposes: strides (1, n),
    so the result is not contiguous (``nonzero().view(-1)`` fails there as here)."""
    def seen(lib):
        found = lib.tensor(values).nonzero()
        return (found.tolist(), found.stride(), found.is_contiguous(),
                lib.argwhere(lib.tensor(values)).stride(), (found + 1).stride())
    assert seen(mg) == seen(torch)


# ---- session 12: searchsorted steps as PyTorch's binary search (NaN, unsorted rows) ----

def _search_cases():
    nan = float("nan")
    cases = [([1., nan, 3.], [2., nan, 0., 5.]), ([[1., 2., nan], [nan, 0, 1]], [[2., nan], [0.5, 1.]]),
             ([1, 2, 3], [nan]), ([3., 1., 2., 0., 5.], [0.5, 1., 2.5, 4., 6.]), ([1, 2, 2, 2, 3], [2, 2, 0, 9]),
             ([], [1., 2.]), ([1., 2.], [[1., 3.], [0., 2.]]), ([[1, 3], [2, 4]], [[2, 2, 3], [3, 5, 1]])]
    rs = np.random.default_rng(0)
    for _ in range(40):  # unsorted sequences with ties and NaN
        seq = rs.integers(0, 5, rs.integers(0, 9)).astype(float)
        seq[rs.random(seq.shape) < 0.2] = nan
        values = rs.integers(-1, 6, rs.integers(1, 6)).astype(float)
        values[rs.random(values.shape) < 0.2] = nan
        cases.append((seq.tolist(), values.tolist()))
    return cases


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_with_nan_and_unsorted_rows_as_torch(right):
    for seq, values in _search_cases():
        seen = [lib.searchsorted(lib.tensor(seq), lib.tensor(values), right=right).tolist()
                for lib in (torch, mg)]
        assert seen[0] == seen[1], (seq, values)
    seen = [lib.bucketize(lib.tensor([float("nan"), 1., 3.]), lib.tensor([0., float("nan"), 2.]),
                          right=right).tolist() for lib in (torch, mg)]
    assert seen[0] == seen[1]


HISTC_RANGES = [([1., NAN], {}), ([NAN], {}), ([NAN, -1.], {}), ([1., NAN, 3.], {"min": 0, "max": 4}),
                ([1., float("inf")], {}), ([-float("inf"), 1.], {}), ([1., 2.], {"min": 0, "max": NAN}),
                ([1., 2.], {"min": 3, "max": 1}), ([], {}), ([2., 2.], {}), ([1.5, 1e10], {}),
                ([1., 2.], {"min": NAN, "max": NAN}), ([1., 2.], {"min": -float("inf"), "max": 1}),
                ([0.1, 1e-7], {"min": 0, "max": float("inf")})]


@pytest.mark.parametrize("values, options", HISTC_RANGES)
def test_histc_range_that_is_not_finite_as_torch(values, options):
    """A NaN or an infinity in x (its own range) or in the range given: PyTorch's error,
    its edges printed as C++ prints them (-nan for a NaN its min/max made; session 12's
    random programs: minigrad counted into bins of NaN width)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seen = [outcome(lambda lib=lib: lib.histc(lib.tensor(values), 4, **options), lib)
                for lib in (torch, mg)]
    assert seen[0] == seen[1]


def _unique_dim_cases():
    rs = np.random.default_rng(0)
    cases = [([-1., 1., NAN, 0.], 0), ([[1., NAN], [1., NAN], [0., 2.]], 0), ([[1., NAN], [1., NAN], [0., 2.]], 1)]
    for _ in range(40):
        shape = tuple(rs.integers(1, 5, rs.integers(1, 3)))
        values = rs.integers(-2, 3, shape).astype(float)
        values[rs.random(shape) < 0.25] = NAN
        cases.append((values.tolist(), int(rs.integers(0, len(shape)))))
    for _ in range(5):  # (past 16 slices: std::sort's quicksort steps too)
        values = rs.integers(-3, 4, 40).astype(float)
        values[rs.random(40) < 0.2] = NAN
        cases.append((values.tolist(), 0))
    return cases


def test_unique_dim_with_nan_as_torch():
    """unique(dim=...) sorts the slices with std::sort and < / > element by element, so a
    NaN leaves them in PyTorch's own order (minigrad sorted NaN last, as NumPy)."""
    for values, dim in _unique_dim_cases():
        seen = [[t.tolist() for t in lib.unique(lib.tensor(values), dim=dim, return_inverse=True,
                                                 return_counts=True)] for lib in (torch, mg)]
        assert str(seen[0]) == str(seen[1]), (values, dim)


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("size", [5, 16, 17, 40])
def test_unique_of_nans_and_signed_zeros_as_torch(size, dtype):
    """unique sorts the values with std::sort, unstable past 16 elements: which of 0. and
    -0. stands for both, and which NaN (each a value of its own) goes where in the inverse,
    are its order's (NumPy's sort kept another zero: fuzz12's unique(-0./0.))."""
    rs = np.random.default_rng(size)
    for _ in range(20):
        values = rs.choice([0.0, -0.0, 1.0, -1.0, NAN], size).tolist()
        seen = []
        for lib in (torch, mg):
            x = lib.tensor(values, dtype=getattr(lib, dtype))
            got = [*lib.unique(x, return_inverse=True, return_counts=True), x.unique(sorted=False)]
            seen.append(str([(np.signbit(t.numpy()).tolist(), t.tolist()) for t in got]))
        assert seen[1] == seen[0], values


# ---- torch.histogram: (hist, bin_edges) --------------------------------------------------

HISTOGRAM_LINES = [
    "x = torch.tensor([1., 2, 1, 4, 2.5, 0, 3])\n"
    "show(torch.histogram(x, bins=4), torch.histogram(x, bins=3, range=(0., 3.), density=True))\n"
    "show(torch.histogram(x, bins=torch.tensor([0., 1, 2.5, 3]), weight=torch.arange(7.)))\n"
    "show(torch.histogram(x, torch.tensor([0., 1, 2.5, 3]), weight=torch.arange(7.), density=True))\n"
    "show(x.histogram(2), torch.histogram(x.reshape(7, 1), 2), torch.histogram(torch.ones(3), 2))",
    "show(torch.histogram(torch.tensor([], dtype=torch.float32), 2))\n"
    "show(torch.histogram(torch.tensor([0.1, 0.2, 0.3, 0.7]), 3))\n"
    "show(torch.histogram(torch.tensor([0.5, 1.5, 1.0], dtype=torch.float64), 5, range=(0, 2), density=True))",
    "y = torch.tensor([0.5, 1.5], requires_grad=True)\nr = torch.histogram(y, 2)\n"
    "show(r, r.hist.grad_fn.name())\nr.hist.sum().backward()",
    "x = torch.tensor([1., 2, 1, 4])\no = (torch.empty(0), torch.empty(0))\n"
    "show(torch.histogram(x, 2, out=o), o[0])",
    "torch.histogram(torch.tensor([1, 2]), bins=2)",
    "torch.histogram(torch.tensor([1., 2.]), bins=0)",
    "torch.histogram(torch.tensor([1., 2.]), bins=2, range=(3., 1.))",
    "torch.histogram(torch.tensor([1., 2.]).double(), bins=2, weight=torch.ones(2))",
    "torch.histogram(torch.tensor([1., float('nan')]), 2)",
    "torch.histogram(torch.tensor([1., float('inf')]), 2)",
    # (bins left out: 100, as PyTorch's parser gives it; Karpathy's makemore part 3 plots
    # torch.histogram(t, density=True) of a tensor that requires grad)
    "t = torch.linspace(-3, 2, 1000, requires_grad=True).reshape(50, 20).tanh()\nhy, hx = torch.histogram(t, density=True)\n"
    "show(hy.shape, hx.shape, hy.sum() * (hx[1] - hx[0]), hx[:3], t.histogram().hist.argmax())",
]


HISTOGRAMDD_LINES = [  # (the first two: torch.histogramdd's docstring Examples)
    "show(torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[3, 3],\n"
    "                       weight=torch.tensor([1., 2., 4., 8.])))",
    "show(torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]]), bins=[2, 2],\n"
    "                       range=[0., 1., 0., 1.], density=True))",
    "x = torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]])",
    "show(torch.histogramdd(x, bins=2))",
    "show(torch.histogramdd(x, (2, 3)))",
    "show(torch.histogramdd(x, bins=[torch.tensor([0., 1, 2]), torch.tensor([0., 2.])]))",
    "show(torch.histogramdd(x.double(), bins=(2, 2)).bin_edges[0].dtype)",
    "show(torch.histogramdd(torch.zeros(0, 2), bins=(2, 2)))",
    "show(torch.histogramdd(torch.rand(2, 3, 3), bins=2, density=True).hist.shape)",
    "show(torch.histogramdd(torch.tensor([[1., float('nan')], [0, 0]]), bins=2, range=[0., 1, 0, 1]))",
    "h = torch.histogramdd(x.requires_grad_(), bins=2)\nshow(h.hist.grad_fn.name(), h.bin_edges[0].requires_grad)",
    "torch.histogramdd(torch.tensor([1., 2]), bins=2)",
    "torch.histogramdd(x.long(), bins=[2, 2, 2])",
    "torch.histogramdd(x, bins=[2, 2, 2])",
    "torch.histogramdd(x, bins=[2, 2, 2], range=[0., 1.])",
    "torch.histogramdd(x, bins=[2, 0])",
    "torch.histogramdd(x, bins=[2, 0], range=[1., 0., 0., 1.])",
    "torch.histogramdd(x, bins=[2, 2], range=[0., float('inf'), 0., 1.])",
    "torch.histogramdd(x, bins=[2, 2], weight=torch.ones(3))",
    "torch.histogramdd(x, bins=[2, 2], weight=torch.ones(3, dtype=torch.float64))",
    "torch.histogramdd(x, bins=[2, 2], weight=torch.ones(4, 1))",
    "torch.histogramdd(x, bins=[torch.tensor([0., 1, 2])])",
    "torch.histogramdd(x, bins=[torch.tensor([0., 1, 2]), torch.tensor([[0., 1, 2]])])",
    "torch.histogramdd(x, bins=[torch.tensor([0., 1, 2]), torch.tensor([0, 1, 2])])",
]


@pytest.mark.parametrize("src", HISTOGRAMDD_LINES)
def test_histogramdd_prints_and_fails_as_torch(src):
    assert_same(src)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("size", [7, 201, 1000])
def test_histogramdd_of_random_weighted_points_has_torchs_bits(size, threads, threads_restored):
    """histogramdd is PyTorch's histogram kernel over D coordinates: the same runs of rows."""
    draw = np.random.default_rng(size)
    data, weights = draw.standard_normal((size, 3)), draw.random(size)
    results = []
    for lib in (torch, mg):
        lib.set_num_threads(threads)
        x, w = lib.tensor(data, dtype=lib.float32), lib.tensor(weights, dtype=lib.float32)
        for options in ({}, {"weight": w, "density": True}, {"range": [-1., 2., -2., 1., 0., 1.]}):
            hist, edges = lib.histogramdd(x, [4, 5, 3], **options)
            results.append([hist.numpy(), *(e.numpy() for e in edges)])
    half = len(results) // 2
    for theirs, ours in zip(results[:half], results[half:]):
        for a, b in zip(theirs, ours):
            np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("src", HISTOGRAM_LINES)
def test_histogram_prints_and_fails_as_torch(src):
    assert_same(src)


@pytest.fixture
def threads_restored():
    before = torch.get_num_threads(), mg.get_num_threads()
    yield
    torch.set_num_threads(before[0])
    mg.set_num_threads(before[1])


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("size", [7, 17, 40, 200, 201, 401, 601, 1000, 4099])
def test_histogram_of_random_weighted_data_has_torchs_bits(size, dtype, threads,
                                                           threads_restored):
    """Weights added per thread and the threads' histograms then added up, as PyTorch's
    kernel adds them (so the bits follow set_num_threads, as PyTorch's), in no more runs
    than blocks of 200 elements (its grain size: the session-14 fuzz found 17 weighted
    elements split in two where PyTorch adds them in one run); edges from PyTorch's
    linspace; density's divisions in its order."""
    draw = np.random.default_rng(size)
    data = draw.standard_normal(size)
    weights = draw.random(size)
    results = []
    for lib in (torch, mg):
        lib.set_num_threads(threads)
        kind = getattr(lib, str(dtype).split(".")[1])
        x, w = lib.tensor(data, dtype=kind), lib.tensor(weights, dtype=kind)
        for options in ({}, {"weight": w}, {"density": True}, {"weight": w, "density": True},
                        {"range": (-1.5, 2.0)}):
            hist, edges = lib.histogram(x, 13, **options)
            results.append((hist.numpy(), edges.numpy()))
    half = len(results) // 2
    for (their_hist, their_edges), (hist, edges) in zip(results[:half], results[half:]):
        np.testing.assert_array_equal(edges, their_edges)
        np.testing.assert_array_equal(hist, their_hist)


def test_bincount_of_the_largest_int64_is_refused_as_torch():
    """A count of 2**63 - 1 would need one bin more than an int64 counts: PyTorch's error
    (NumPy's bincount returned an empty tensor: meet seed 27314)."""
    def call(lib):
        return lib.tensor([2, 9223372036854775807, 0]).bincount()
    assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("name", ["unique", "unique_consecutive"])
@pytest.mark.parametrize("layout", ["row-major", "transposed", "permuted"])
def test_unique_along_a_dim_lays_out_its_slices_as_torch(name, layout):
    """torch's unique_dim stacks the distinct slices along a new first dim, then moves it
    to ``dim``: a result of (2, 2) along dim 1 has strides (1, 2), whatever the input's
    layout (minigrad's were row-major: meet seed 41968)."""
    def strides(lib):
        x = lib.tensor([[1.0, 2.0, 1.0], [3.0, 4.0, 3.0], [1.0, 2.0, 1.0], [0.0, 5.0, 0.0]])
        x = {"row-major": x, "transposed": x.t().contiguous().t(),
             "permuted": x.reshape(2, 2, 3).permute(2, 0, 1)}[layout]
        return [getattr(lib, name)(x, dim=dim).stride() for dim in range(-1, x.ndim)]
    assert strides(mg) == strides(torch)
