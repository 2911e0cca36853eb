"""Values picked by their order (``minigrad/ops/sorting.py``) against PyTorch 2.13: amax,
amin, sort, argsort, topk, kthvalue, median, mode. Values, dtypes, the graph (node names,
``next_functions``), gradients (also against finite differences and second derivatives),
printed results, integer and bool inputs, ``out=`` and the errors for bad arguments.

Which index PyTorch returns among equal values depends on its kernel's steps, which
minigrad follows: checked on random rows full of ties (test_ties_*)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run, D2, D3, SCALAR
from torch_compare import check, check_bits, check_double_backward, check_error, check_numerical, outcome

TIES = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, -1.0, 2.0], [0.0, 0.0, 0.0, 0.0]], np.float32)
NANS = np.array([[1.0, np.nan, 0.0, 2.0, np.nan], [3.0, 1.0, 2.0, 0.0, 5.0]], np.float32)

CASES = [
    case(lambda lib, x: x.amax(), D3, id="amax"),
    case(lambda lib, x: x.amax(1), D3, id="amax-dim"),
    case(lambda lib, x: x.amax((0, 2), keepdim=True), D3, id="amax-dims-keepdim"),
    case(lambda lib, x: lib.amax(x, -1), D3, id="torch.amax"),
    case(lambda lib, x: x.amin(dim=0), D3, id="amin-dim"),
    case(lambda lib, x: lib.amin(x, (1, 2)), D3, id="torch.amin-dims"),
    case(lambda lib, x: x.amax(1), TIES, id="amax-ties-split"),
    case(lambda lib, x: x.amin(), TIES, id="amin-all-ties-split"),
    case(lambda lib, x: x.amax(0), SCALAR, id="amax-0dim"),
    case(lambda lib, x: x.aminmax(), D3, id="aminmax"),
    case(lambda lib, x: lib.aminmax(x, dim=1), D3, id="torch.aminmax-dim"),
    case(lambda lib, x: x.aminmax(dim=-1, keepdim=True), D3, id="aminmax-dim-keepdim"),
    case(lambda lib, x: x.aminmax(keepdim=True), D2, id="aminmax-keepdim-all"),
    case(lambda lib, x: x.aminmax(dim=1), TIES, id="aminmax-ties-split"),
    case(lambda lib, x: x.aminmax(), TIES, id="aminmax-all-ties-split"),
    case(lambda lib, x: x.aminmax().max, TIES, id="aminmax-max-only"),
    case(lambda lib, x: x.aminmax(dim=0)[0], D2, id="aminmax-min-only"),
    case(lambda lib, x: x.aminmax(dim=0), SCALAR, id="aminmax-0dim"),
    case(lambda lib, x: x.aminmax(dim=1), NANS, id="aminmax-nan"),
    case(lambda lib, x: x.sort(), D3, id="sort"),
    case(lambda lib, x: x.sort(0, descending=True), D3, id="sort-descending"),
    case(lambda lib, x: lib.sort(x, dim=1, stable=True), D3, id="torch.sort-stable"),
    case(lambda lib, x: x.sort(descending=True, stable=True), TIES, id="sort-ties-stable"),
    case(lambda lib, x: x.sort(), TIES, id="sort-ties"),
    case(lambda lib, x: x.sort(1, descending=True), NANS, id="sort-nan-first-descending"),
    case(lambda lib, x: x.sort().values, SCALAR, id="sort-0dim"),
    case(lambda lib, x: x.argsort(), D2, id="argsort"),
    case(lambda lib, x: lib.argsort(x, 0, True), D2, id="torch.argsort-descending"),
    case(lambda lib, x: x.topk(2), D3, id="topk"),
    case(lambda lib, x: x.topk(3, dim=0, largest=False), D2, id="topk-smallest"),
    case(lambda lib, x: lib.topk(x, 1, 1), D2, id="torch.topk"),
    case(lambda lib, x: x.topk(2).values, NANS, id="topk-nan-largest"),
    case(lambda lib, x: x.kthvalue(2), D3, id="kthvalue"),
    case(lambda lib, x: x.kthvalue(1, 0, keepdim=True), D2, id="kthvalue-keepdim"),
    case(lambda lib, x: x.kthvalue(2), TIES, id="kthvalue-ties"),
    case(lambda lib, x: x.kthvalue(4), NANS, id="kthvalue-nan"),
    case(lambda lib, x: x.median(), D3, id="median"),
    case(lambda lib, x: x.median(), TIES, id="median-ties-split"),
    case(lambda lib, x: x.median(), NANS, id="median-nan"),
    case(lambda lib, x: x.median(1), D3, id="median-dim"),
    case(lambda lib, x: lib.median(x, 0, True), D2, id="torch.median-keepdim"),
    case(lambda lib, x: x.median(1), NANS, id="median-dim-nan"),
    case(lambda lib, x: x.mode(), TIES, id="mode"),
    case(lambda lib, x: x.mode(0, keepdim=True), TIES, id="mode-keepdim"),
]


@pytest.mark.parametrize("fn, arrays, options", CASES)
def test_order_ops(fn, arrays, options):
    run(fn, arrays, options)


@pytest.mark.parametrize("fn", [
    lambda x: x.amax(1), lambda x: x.amin((0, 1)), lambda x: x.sort(0)[0], lambda x: x.topk(2)[0],
    lambda x: x.kthvalue(2, 0)[0], lambda x: x.median(), lambda x: x.median(1)[0],
    lambda x: x.mode(1)[0], lambda x: x.aminmax(), lambda x: x.aminmax(dim=0, keepdim=True)],
    ids=["amax", "amin", "sort", "topk", "kthvalue", "median", "median-dim", "mode", "aminmax",
         "aminmax-dim"])
def test_order_gradients_against_finite_differences(fn):
    check_numerical(fn, D2)


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.amax(1) ** 2, lambda lib, x: x.sort(1)[0] ** 2,
    lambda lib, x: x.topk(2)[0] ** 2, lambda lib, x: x.median() ** 2,
    lambda lib, x: x.aminmax(dim=1).min ** 2 * x.aminmax(dim=1).max],
    ids=["amax", "sort", "topk", "median", "aminmax"])
def test_order_second_derivatives_are_torchs(fn):
    check_double_backward(fn, D2.astype(np.float64))


def test_saved_values_are_torchs():
    for lib_fn in (lambda lib, x: x.amax(-1), lambda lib, x: x.sort(-1)[0],
                   lambda lib, x: x.topk(2, -1)[0], lambda lib, x: x.kthvalue(1, -1)[0],
                   lambda lib, x: x.aminmax(dim=-1)[1], lambda lib, x: x.aminmax()[0],
                   lambda lib, x: lib.aminmax(x, dim=0, keepdim=True)[0]):
        ours, theirs = (lib_fn(lib, lib.tensor(D2, requires_grad=True)) for lib in (mg, torch))
        for name in ("_saved_dim", "_saved_keepdim"):
            if hasattr(theirs.grad_fn, name):
                assert getattr(ours.grad_fn, name) == getattr(theirs.grad_fn, name), name
        for name in ("_saved_self", "_saved_min", "_saved_max"):
            assert hasattr(ours.grad_fn, name) == hasattr(theirs.grad_fn, name), name
            if hasattr(theirs.grad_fn, name):
                np.testing.assert_array_equal(getattr(ours.grad_fn, name).detach().numpy(),
                                              getattr(theirs.grad_fn, name).detach().numpy())


CALLS = {
    "printed-sort": lambda lib: lib.tensor([[3., 1., 2.], [0., 5., 5.]]).sort(),
    "printed-topk": lambda lib: lib.tensor([3., 1., 2.], requires_grad=True).topk(2),
    "printed-median": lambda lib: lib.tensor([[3., 1.], [0., 5.]]).median(0),
    "printed-kthvalue": lambda lib: lib.tensor([3., 1., 2.]).kthvalue(2),
    "printed-mode": lambda lib: lib.tensor([1, 2, 2, 3]).mode(),
    "int-sort": lambda lib: lib.tensor([3, 1, 2, 1]).sort(descending=True),
    "bool-sort": lambda lib: lib.tensor([True, False, True]).sort(),
    "int-amax": lambda lib: lib.tensor([[3, 1], [2, 7]]).amax(0),
    "bool-amax": lambda lib: lib.tensor([True, False]).amax(),
    "int-median": lambda lib: lib.tensor([1, 2, 2, 3]).median(),
    "int-topk": lambda lib: lib.tensor([1, 5, 2, 3]).topk(2),
    "argsort-out": lambda lib: lib.argsort(lib.tensor([3., 1.]), stable=True,
                                           out=lib.empty(2, dtype=lib.long)),
    "sort-out": lambda lib: lib.sort(lib.tensor([3., 1.]), out=(lib.empty(2),
                                                                lib.empty(2, dtype=lib.long))),
    "amax-out": lambda lib: lib.amax(lib.tensor([[3., 1.]]), 1, out=lib.empty(1)),
    "printed-aminmax": lambda lib: lib.tensor([[3., 1.], [0., 5.]], requires_grad=True).aminmax(),
    "printed-aminmax-dim": lambda lib: lib.aminmax(lib.tensor([[3., 1.], [0., 5.]]), dim=0),
    "int-aminmax": lambda lib: lib.tensor([[3, 1], [2, 7]]).aminmax(dim=1, keepdim=True),
    "bool-aminmax": lambda lib: lib.tensor([True, False]).aminmax(),
    "half-aminmax": lambda lib: lib.tensor([1.5, -2.25], dtype=lib.float16).aminmax(),
    "aminmax-empty-dim-kept": lambda lib: lib.ones(0, 3).aminmax(dim=1),
    "aminmax-empty-rows": lambda lib: lib.aminmax(lib.ones(0, 3), dim=0),
    "aminmax-empty-keepdim": lambda lib: lib.aminmax(lib.ones(2, 0, 3), dim=2, keepdim=True),
    "aminmax-int8": lambda lib: lib.aminmax(lib.tensor([[1, -2], [3, 4]], dtype=lib.int8)),
    "aminmax-infinities": lambda lib: lib.aminmax(lib.tensor([1., float("inf"), -float("inf")])),
    "aminmax-out": lambda lib: lib.aminmax(lib.tensor([[3., 1.]]), dim=1,
                                           out=(lib.empty(1), lib.empty(1))),
    "aminmax-fields": lambda lib: [(type(r).__name__, len(r), r.min is r[0], r.max is r[1])
                                   for r in [lib.aminmax(lib.tensor([2., 1.]))]],
    "median-empty": lambda lib: lib.ones(0, 2).median(),
    "amax-empty-dim": lambda lib: lib.ones(0, 2).amax(1),
    # errors
    "amax-dim-out-of-range": lambda lib: lib.ones(3, 2).amax(2),
    "amax-dim-repeated": lambda lib: lib.ones(3, 2).amax((0, 0)),
    "amax-empty": lambda lib: lib.ones(0, 2).amax(),
    "amax-empty-reduced": lambda lib: lib.ones(0, 2).amax(0),
    "amax-empty-negative-dim": lambda lib: lib.ones(2, 0).amax(-1),
    "amin-empty-dims-as-given": lambda lib: lib.ones(2, 0).amin((-1, 0)),
    "sort-dim-out-of-range": lambda lib: lib.ones(3).sort(1),
    "topk-k-too-large": lambda lib: lib.tensor([1.]).topk(2),
    "topk-k-negative": lambda lib: lib.ones(3).topk(-1),
    "topk-bool": lambda lib: lib.tensor([True]).topk(1),
    "kthvalue-k-out-of-range": lambda lib: lib.tensor([1.]).kthvalue(2),
    "kthvalue-empty": lambda lib: lib.ones(2, 0).kthvalue(1),
    "median-empty-dim": lambda lib: lib.ones(2, 0).median(1),
    "median-bool": lambda lib: lib.tensor([True, False]).median(),
    # bools: the shape checks first, no kernel for an empty median() or a 0-dim kthvalue
    "median-bool-empty": lambda lib: lib.zeros(0, 2, dtype=lib.bool).median(),
    "nanmedian-bool-empty": lambda lib: lib.zeros(0, dtype=lib.bool).nanmedian(),
    "median-bool-empty-dim": lambda lib: lib.zeros(2, 0, dtype=lib.bool).median(1),
    "median-bool-dim-empty-result": lambda lib: lib.zeros(2, 0, dtype=lib.bool).median(0),
    "median-bool-dim-out-of-range": lambda lib: lib.ones(3, dtype=lib.bool).median(5),
    "median-bool-0dim": lambda lib: lib.tensor(True).median(),
    "kthvalue-bool": lambda lib: lib.ones(3, dtype=lib.bool).kthvalue(1),
    "kthvalue-bool-empty": lambda lib: lib.zeros(0, dtype=lib.bool).kthvalue(1),
    "kthvalue-bool-k-out-of-range": lambda lib: lib.ones(3, dtype=lib.bool).kthvalue(5),
    "kthvalue-bool-dim-out-of-range": lambda lib: lib.ones(3, dtype=lib.bool).kthvalue(1, 3),
    "kthvalue-bool-0dim": lambda lib: lib.tensor(True).kthvalue(1),
    "mode-empty": lambda lib: lib.ones(0).mode(),
    "median-dim-none": lambda lib: lib.ones(2, 2).median(None),
    "aminmax-empty": lambda lib: lib.ones(0, 2).aminmax(),
    "aminmax-empty-reduced": lambda lib: lib.ones(2, 0).aminmax(dim=1),
    "aminmax-dim-out-of-range": lambda lib: lib.ones(3, 2).aminmax(dim=-3),
    "aminmax-0dim-dim-out-of-range": lambda lib: lib.tensor(1.).aminmax(dim=1),
    "aminmax-dim-tuple": lambda lib: lib.aminmax(lib.ones(3, 2), dim=(0, 1)),
    "aminmax-dim-float": lambda lib: lib.ones(3, 2).aminmax(dim=1.5),
    "aminmax-dim-positional": lambda lib: lib.aminmax(lib.ones(3, 2), 1),
    "aminmax-method-dim-positional": lambda lib: lib.ones(3, 2).aminmax(1),
    "aminmax-out-dtype": lambda lib: lib.aminmax(lib.ones(3, 2), dim=0, out=(
        lib.empty(2), lib.empty(2, dtype=lib.float64))),
    "aminmax-out-not-tuple": lambda lib: lib.aminmax(lib.ones(3, 2), dim=0, out=lib.empty(2)),
    "aminmax-out-requires-grad": lambda lib: lib.aminmax(lib.ones(2, requires_grad=True), out=(
        lib.empty(()), lib.empty(()))),
    "amax-dim-none": lambda lib: lib.tensor([[1., 3.], [2., 0.]], requires_grad=True).amax(None),
    "sort-out-requires-grad": lambda lib: lib.sort(lib.ones(2, requires_grad=True),
                                                   out=(lib.empty(2), lib.empty(2, dtype=lib.long))),
}


@pytest.mark.parametrize("name", CALLS)
def test_calls_print_and_fail_as_torch(name):
    assert outcome(CALLS[name], mg) == outcome(CALLS[name], torch)


def test_dim_out_of_range_text():
    text = check_error(lambda lib, x: x.amax(2), D2)
    assert text == "Dimension out of range (expected to be in range of [-2, 1], but got 2)"


ORDER_CALLS = {
    "sort": lambda t, k: t.sort(), "sort-descending": lambda t, k: t.sort(descending=True),
    "sort-stable": lambda t, k: t.sort(stable=True),
    "sort-stable-descending": lambda t, k: t.sort(descending=True, stable=True),
    "topk": lambda t, k: t.topk(k), "topk-smallest": lambda t, k: t.topk(k, largest=False),
    "kthvalue": lambda t, k: t.kthvalue(k), "median": lambda t, k: t.median(1),
    "mode": lambda t, k: t.mode(),
}


@pytest.mark.parametrize("name", ORDER_CALLS)
@pytest.mark.parametrize("widths", [(1, 40), (64, 400)], ids=["short-rows", "long-rows"])
def test_ties_get_torchs_indices(name, widths):
    """Among equal values PyTorch's indices come from its kernels' own steps (libstdc++'s
    std::sort, std::partial_sort and std::nth_element, PyTorch's quickselect, a stable
    sort), which kernels/sorting.py follows: checked on 120 random rows of values from a
    few integers (NaN in a third of them; sorted and reversed rows too), short rows and
    rows long enough for topk's partial sort (k * 64 <= n)."""
    rng = np.random.default_rng(5)
    for trial in range(60):
        width = int(rng.integers(*widths))
        x = rng.integers(0, int(rng.integers(2, 20)), size=(2, width)).astype(np.float32)
        if trial % 3 == 0 and name != "mode":  # (mode's plain < treats NaN as PyTorch's
            x[rng.random(x.shape) < 0.2] = np.nan  # std::sort does; left out here)
        if trial % 5 == 0:
            x = np.sort(x, axis=1)
        k = min(width, int(rng.integers(1, max(2, width // 64) + 1))) if trial % 2 else \
            int(rng.integers(1, width + 1))
        ours = ORDER_CALLS[name](mg.tensor(x), k)
        theirs = ORDER_CALLS[name](torch.tensor(x), k)
        assert np.array_equal(ours[1].numpy(), theirs[1].numpy()), (x, k)
        assert np.array_equal(ours[0].numpy(), theirs[0].numpy(), equal_nan=True)


def test_ties_in_integer_rows_get_torchs_indices():
    rng = np.random.default_rng(6)
    for trial in range(40):
        x = rng.integers(-3, 3, size=(3, int(rng.integers(17, 200))))
        for call in (lambda t: t.sort(), lambda t: t.sort(descending=True),
                     lambda t: t.argsort(), lambda t: t.topk(3), lambda t: t.mode()):
            ours, theirs = call(mg.tensor(x)), call(torch.tensor(x))
            ours, theirs = (r if isinstance(r, (mg.Tensor, torch.Tensor)) else r[1]
                            for r in (ours, theirs))
            assert np.array_equal(ours.numpy(), theirs.numpy())


def test_ties_in_long_integer_rows_get_torchs_indices():
    # From 32,768 one-dimensional integers up, PyTorch sorts ascending with fbgemm's
    # radix sort, which keeps equal values in order; below, and descending, bools,
    # floats or 2-d, std::sort's order.
    rng = np.random.default_rng(7)
    for n in (32767, 32768, 40000):
        for dtype in (np.int64, np.int32, np.uint8, np.float32, np.bool_):
            x = rng.integers(-5 if dtype in (np.int64, np.int32) else 0, 50, n).astype(dtype)
            for call in (lambda t: t.sort()[1], lambda t: t.argsort(),
                         lambda t: t.sort(descending=True)[1], lambda t: t.sort(stable=True)[1]):
                assert np.array_equal(call(mg.tensor(x)).numpy(), call(torch.tensor(x)).numpy())
        two_rows = rng.integers(0, 50, (2, n))
        assert np.array_equal(mg.tensor(two_rows).sort()[1].numpy(),
                              torch.tensor(two_rows).sort()[1].numpy())


def test_program_topk_of_softmax_then_index_select_and_backward():
    """A small program: scores -> softmax -> the top 2 classes of each row -> their
    weights gathered with index_select -> a loss; every gradient as PyTorch's."""
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((4, 5)).astype(np.float32)
    table = rng.standard_normal((5, 3)).astype(np.float32)

    def program(lib, logits, table):
        probs = logits.softmax(-1)
        top = probs.topk(2, dim=1)
        rows = table.index_select(0, top.indices.reshape(-1)).reshape(4, 2, 3)
        picked = (rows * top.values.unsqueeze(-1)).sum(1)
        best = picked.amax(1) - lib.sort(picked, 1).values[:, 0]
        return best.median() + picked.abs().amin()

    check(program, logits, table)
    check_numerical(lambda lg, tb: program(mg, lg, tb), logits, table)


TIED = [[1.0, 3.0, 3.0, 0.0, 3.0], [2.0, 2.0, 2.0, 2.0, 2.0], [-0.0, 0.0, -0.0, 0.0, -1.0],
        [np.nan, 1.0, np.nan, 2.0, 0.0], [np.inf, -np.inf, np.inf, 1.0, 0.0]]
SIGNED_ZERO_FREE = [0, 1, 3, 4]  # (rows whose ties are not -0. against 0.: see below)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", [
    lambda lib, x: x.max(), lambda lib, x: x.min(), lambda lib, x: x.max(1),
    lambda lib, x: x.min(1), lambda lib, x: x.max(0), lambda lib, x: x.median(),
    lambda lib, x: x.median(1), lambda lib, x: x.kthvalue(2, 1), lambda lib, x: x.kthvalue(3, 0),
    lambda lib, x: x.sort(1), lambda lib, x: x.sort(dim=1, descending=True, stable=True),
    lambda lib, x: x.topk(3, 1), lambda lib, x: x.topk(2, 1, largest=False),
    lambda lib, x: x[SIGNED_ZERO_FREE].amax(1), lambda lib, x: x[SIGNED_ZERO_FREE].amin(1),
    lambda lib, x: x[SIGNED_ZERO_FREE].amax(), lambda lib, x: x[:3].amax(0),
    lambda lib, x: x[[0, 1]].amax((0, 1)), lambda lib, x: x[[0, 1]].amin(),
    lambda lib, x: x[SIGNED_ZERO_FREE].aminmax(dim=1), lambda lib, x: x[[0, 1]].aminmax(),
    lambda lib, x: x[SIGNED_ZERO_FREE].aminmax(dim=1)[1], lambda lib, x: x[3:].aminmax(dim=0),
], ids=["max", "min", "max-dim", "min-dim", "max-dim0", "median", "median-dim", "kthvalue",
        "kthvalue-dim0", "sort", "sort-descending-stable", "topk", "topk-smallest", "amax-dim",
        "amin-dim", "amax", "amax-dim0", "amax-dims", "amin-ties", "aminmax-dim", "aminmax",
        "aminmax-max", "aminmax-dim0"])
def test_ties_and_nan_gradients_have_torchs_bits(fn, dtype):
    """Ties, -0. against 0., +-inf and NaN, bit for bit with their gradients: max() and
    amax/amin share the gradient evenly among equal elements, max(dim), median, kthvalue,
    sort and topk give it to the one index they return; a NaN result (amax's: torch's
    scale_grad_by_count finds no element equal to it) makes its slice's gradient NaN.
    Not compared: amax's value where -0. ties 0. (PyTorch's vector loop returns either
    one, depending on the row's length and the CPU's vector width)."""
    check_bits(fn, np.array(TIED, dtype=dtype))


def test_program_min_max_scaling_with_aminmax():
    """Min-max scaling of features (as data-loading tutorials write it) inside a small
    linear model's loss: aminmax's two outputs both reach the loss through one node."""
    rng = np.random.default_rng(8)
    data = rng.standard_normal((6, 3)).astype(np.float32)
    weight = rng.standard_normal((3, 2)).astype(np.float32)

    def program(lib, data, weight):
        low, high = lib.aminmax(data, dim=0, keepdim=True)
        scaled = (data - low) / (high - low)
        out = scaled @ weight
        spread = out.aminmax()
        return (out ** 2).mean() + spread.max - spread.min

    check(program, data, weight)
    check_numerical(lambda d, w: program(mg, d, w), data, weight)


def test_amax_and_amin_of_a_0_dim_tensor_check_their_dims_as_torch():
    """A 0-dim tensor's dims 0 and -1 are the same dim: torch refuses it twice (an empty
    dim is refused before a repeated one)."""
    for shape, dims in [((), (0, -1)), ((), (0, 0)), ((), (0,)), ((), ()), ((), -1), ((), (1,)),
                        ((0,), (0, -1)), ((0, 3), (0, -1)), ((2, 0), (5, 1)), ((2, 3), (0, -2))]:
        for name in ("amax", "amin"):
            def call(lib, shape=shape, dims=dims, name=name):
                return getattr(lib.zeros(shape, requires_grad=True), name)(dims)
            assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("layout", ["row-major", "transposed", "every other"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_the_median_of_all_picks_torchs_zero_of_minus_0_and_0(name, layout, dtype):
    """median() and nanmedian() without a dim are PyTorch's std::nth_element over a clone
    of x (in its memory's order): where both -0. and 0. are in x and the median is a zero,
    which zero is libstdc++'s steps' (meet seed 43382: x[..., ::2] of [[0., 2., -0., -3e-7],
    [1.5, 7., 3., inf]] gave -0., PyTorch 0.). 80 random rows of zeros, ones and NaN."""
    rng = np.random.default_rng(7)
    differ = []
    for k in range(80):
        size = int(rng.integers(1, 40)) * 2
        values = rng.choice([0.0, -0.0, 1.0, -1.0, np.nan] if k % 3 == 0 else [0.0, -0.0, 1.0],
                            size)
        results = []
        for lib in (torch, mg):
            x = lib.tensor(values.tolist(), dtype=getattr(lib, dtype))
            x = x.reshape(2, -1).t() if layout == "transposed" else \
                x[::2] if layout == "every other" else x
            results.append(getattr(x, name)().item())
        if str(results[0]) != str(results[1]):
            differ.append((values.tolist(), *results))
    assert differ == []
