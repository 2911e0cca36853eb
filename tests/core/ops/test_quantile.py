"""quantile, nanquantile (``minigrad/ops/quantile.py``, written with sort, gather and
lerp as ATen writes them) and nanmedian (``ops/sorting.py``) against PyTorch 2.13:
values and gradients bit for bit, the graph PyTorch's decomposition records (node names
in order), gradients against finite differences, printed results, ``out=`` and the
errors for bad arguments."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import D2, D3
from torch_compare import check, check_bits, check_double_backward, check_numerical, outcome

MODES = ["linear", "lower", "higher", "midpoint", "nearest"]
NAN_ROWS = np.array([[1.0, np.nan, 3.0, -2.0, 0.5], [np.nan] * 5, [4.0, 4.0, 1.0, 2.0, 2.0]],
                    np.float32)
Q_LIST = [0.0, 0.1, 0.25, 1 / 3, 0.5, 0.7, 0.9, 1.0]


def _q(lib, q, like):
    return lib.tensor(np.asarray(q, like.detach().numpy().dtype)) if isinstance(q, list) else q


CALLS = {  # (lib, x, q, mode) -> result
    "all": lambda lib, x, q, mode: lib.quantile(x, _q(lib, q, x), interpolation=mode),
    "dim0": lambda lib, x, q, mode: x.quantile(_q(lib, q, x), 0, interpolation=mode),
    "dim-last-keepdim": lambda lib, x, q, mode: lib.quantile(x, _q(lib, q, x), dim=-1,
                                                             keepdim=True, interpolation=mode),
    "all-keepdim": lambda lib, x, q, mode: x.quantile(_q(lib, q, x), keepdim=True,
                                                      interpolation=mode),
    "nan-dim1": lambda lib, x, q, mode: lib.nanquantile(x, _q(lib, q, x), 1, interpolation=mode),
    "nan-all": lambda lib, x, q, mode: x.nanquantile(_q(lib, q, x), interpolation=mode),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("q", [0.3, 0.5, 1.0, Q_LIST], ids=["0.3", "0.5", "1", "tensor"])
@pytest.mark.parametrize("name", CALLS)
def test_values_and_gradients_have_torchs_bits(name, q, mode, dtype):
    """Every interpolation, q as a number and as a tensor, along a dim, all, keepdim:
    the values and the gradient (through lerp, the gathers and the sort) bit for bit."""
    check_bits(lambda lib, x: CALLS[name](lib, x, q, mode), D3.astype(dtype))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("call", [
    lambda lib, x, mode: x.quantile(lib.tensor([0.2, 0.5, 0.8]), dim=1, interpolation=mode),
    lambda lib, x, mode: x.nanquantile(lib.tensor([0.2, 0.5, 0.8]), dim=1, interpolation=mode),
    lambda lib, x, mode: x.nanquantile(0.4, interpolation=mode),
    lambda lib, x, mode: x.quantile(0.4, dim=0, interpolation=mode),
    lambda lib, x, mode: lib.nanmedian(x, 1), lambda lib, x, mode: x.nanmedian(),
    lambda lib, x, mode: x[2].nanmedian(), lambda lib, x, mode: x.nanmedian(0, keepdim=True),
], ids=["quantile-dim", "nanquantile-dim", "nanquantile-all", "quantile-dim0", "nanmedian-dim",
        "nanmedian", "nanmedian-ties", "nanmedian-dim0"])
def test_nan_and_ties_have_torchs_bits(call, mode):
    """Rows with NaN (quantile: NaN; nanquantile and nanmedian: of the other values), a
    row of NaN only, ties: values, indices and gradients bit for bit."""
    check_bits(lambda lib, x: call(lib, x, mode), NAN_ROWS)


@pytest.mark.parametrize("mode", MODES)
def test_graph_is_torchs_decomposition(mode):
    """The graph's nodes are those of ATen's quantile_compute (sort, view, gather, lerp_,
    then squeeze_/unsqueeze_/transpose_), with the same gradients."""
    for call in (lambda lib, x: x.quantile(0.3, interpolation=mode),
                 lambda lib, x: x.quantile(lib.tensor([0.1, 0.6]), dim=1, keepdim=True,
                                           interpolation=mode),
                 lambda lib, x: x.nanquantile(lib.tensor([0.1, 0.6]), dim=0,
                                              interpolation=mode),
                 lambda lib, x: x.quantile(0.75, dim=-1, interpolation=mode),
                 lambda lib, x: x[0, 0].quantile(0.75, dim=0, interpolation=mode)):
        check(call, D3)


@pytest.mark.parametrize("call", [
    lambda x: x.quantile(0.3), lambda x: x.quantile(mg.tensor([0.2, 0.7], dtype=mg.float64), 1),
    lambda x: x.quantile(0.4, 0, True, interpolation="midpoint"),
    lambda x: x.nanquantile(0.6, 1), lambda x: x.nanmedian(), lambda x: x.nanmedian(1)[0],
    lambda x: x.quantile(0.5, 1, interpolation="nearest")],
    ids=["quantile", "quantile-tensor-q", "midpoint", "nanquantile", "nanmedian", "nanmedian-dim",
         "nearest"])
def test_gradients_against_finite_differences(call):
    check_numerical(call, D2)


def test_second_derivatives_are_torchs():
    check_double_backward(lambda lib, x: x.quantile(0.3, 1) ** 2 + x.nanmedian() ** 3,
                          D2.astype(np.float64))


def test_many_random_rows_have_torchs_bits():
    """Random rows (ties, NaN in some) and random q: quantile and nanquantile's values bit
    for bit over 200 cases, float32 and float64."""
    rng = np.random.default_rng(4)
    for trial in range(200):
        dtype = (np.float32, np.float64)[trial % 2]
        x = rng.integers(-5, 6, size=(3, int(rng.integers(1, 30)))).astype(dtype) / 3
        if trial % 3 == 0:
            x[rng.random(x.shape) < 0.2] = np.nan
        q = rng.random(int(rng.integers(1, 5))).astype(dtype)
        mode = MODES[trial % 5]
        for name in ("quantile", "nanquantile"):
            ours = getattr(mg, name)(mg.tensor(x), mg.tensor(q), 1, interpolation=mode)
            theirs = getattr(torch, name)(torch.tensor(x), torch.tensor(q), 1,
                                          interpolation=mode)
            np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


ERRORS = {
    "q-too-large": lambda lib: lib.quantile(lib.ones(3), 1.5),
    "q-negative": lambda lib: lib.ones(3).quantile(-0.1),
    "q-nan": lambda lib: lib.ones(3).quantile(float("nan")),
    "q-tensor-out-of-range": lambda lib: lib.quantile(lib.ones(3), lib.tensor([0.5, 1.2])),
    "q-2d": lambda lib: lib.quantile(lib.ones(3), lib.tensor([[0.5]])),
    "int-input": lambda lib: lib.quantile(lib.tensor([1, 2]), 0.5),
    "half-input": lambda lib: lib.quantile(lib.ones(2, dtype=lib.float16), 0.5),
    "q-dtype": lambda lib: lib.quantile(lib.ones(2), lib.tensor([0.5], dtype=lib.float64)),
    "empty": lambda lib: lib.quantile(lib.ones(0), 0.5),
    "empty-dim": lambda lib: lib.nanquantile(lib.ones(2, 0), 0.5, dim=0),
    "interpolation": lambda lib: lib.quantile(lib.ones(2), 0.5, interpolation="foo"),
    "nan-interpolation": lambda lib: lib.nanquantile(lib.ones(2), 2.0),
    "dim-out-of-range": lambda lib: lib.quantile(lib.ones(2, 3), 0.5, dim=2),
    "q-list": lambda lib: lib.quantile(lib.ones(2), [0.5]),
    "dim-tuple": lambda lib: lib.quantile(lib.ones(2), 0.5, dim=(0,)),
    "method-q-list": lambda lib: lib.ones(2).quantile([0.5]),
    "method-keepdim-int": lambda lib: lib.ones(2).nanquantile(0.5, 0, 1),
    "interpolation-none": lambda lib: lib.ones(2).quantile(0.5, interpolation=None),
    "out-dtype": lambda lib: lib.quantile(lib.ones(2), 0.5, out=lib.empty((), dtype=lib.float64)),
    "nanmedian-empty-dim": lambda lib: lib.ones(2, 0).nanmedian(1),
    "nanmedian-bool": lambda lib: lib.tensor([True]).nanmedian(),
    "nanmedian-dim-none": lambda lib: lib.ones(2).nanmedian(None),
    "nanmedian-dim-none-keyword": lambda lib: lib.ones(2).nanmedian(dim=None),
    "torch.nanmedian-dim-none": lambda lib: lib.nanmedian(lib.ones(2), None),
    "torch.nanmedian-dim-none-keyword": lambda lib: lib.nanmedian(input=lib.ones(2), dim=None),
    "nanmedian-dim-out-of-range": lambda lib: lib.ones(2).nanmedian(1),
}
PRINTED = {
    "q-int": lambda lib: lib.quantile(lib.tensor([[1., 3.], [2., 5.]]), 1),
    "q-bool": lambda lib: lib.quantile(lib.tensor([[1., 3.], [2., 5.]]), True),
    "q-0dim-tensor": lambda lib: lib.tensor([[1., 3.], [2., 5.]]).quantile(lib.tensor(0.5), dim=0),
    "scalar-input": lambda lib: lib.quantile(lib.tensor(3.), 0.2),
    "scalar-input-dim": lambda lib: lib.quantile(lib.tensor(3.), 0.2, dim=0, keepdim=True),
    "q-empty": lambda lib: lib.quantile(lib.ones(2, 3), lib.tensor([]), dim=1),
    "positional": lambda lib: lib.quantile(lib.tensor([[3., 1.], [2., 4.]]), 0.5, 1, True,
                                           interpolation="nearest"),
    "double": lambda lib: lib.quantile(lib.tensor([1., 2., 4.], dtype=lib.float64), 0.3),
    "requires-grad": lambda lib: lib.tensor([1., 2., 4.], requires_grad=True).quantile(
        lib.tensor([0.3, 0.9])),
    "out": lambda lib: lib.quantile(lib.tensor([1., 2., 4.]), 0.5, out=lib.empty(())),
    "nanquantile-out": lambda lib: lib.nanquantile(lib.tensor([1., float("nan")]), 0.5,
                                                   out=lib.empty(3)),
    "nanmedian-int": lambda lib: lib.nanmedian(lib.tensor([1, 2, 3, 4])),
    "nanmedian-int-dim": lambda lib: lib.nanmedian(lib.tensor([[1, 5, 3]]), 1),
    "nanmedian-empty-rows": lambda lib: lib.nanmedian(lib.ones(3, 0), 0),
    "nanmedian-0dim-nan": lambda lib: lib.nanmedian(lib.tensor(float("nan"))),
    "keepdim-shapes": lambda lib: [tuple(lib.quantile(lib.arange(24.).reshape(2, 3, 4),
                                                      lib.tensor([0.25, 0.75]), **kw).shape)
                                   for kw in ({"dim": 1, "keepdim": True}, {"keepdim": True},
                                              {"dim": -1})],
    "transposed": lambda lib: lib.quantile(lib.tensor([[1., 2.]]).t(), 0.5, dim=0),
    "infinities": lambda lib: (lib.quantile(lib.tensor([1., float("inf")]), 0.5),
                               lib.quantile(lib.tensor([-float("inf"), float("inf")]), 0.5)),
    "nanmedian-empty": lambda lib: lib.ones(0).nanmedian(),
    "nanmedian-all-nan": lambda lib: lib.tensor([[float("nan")] * 3]).nanmedian(1),
    "nanmedian-grad": lambda lib: lib.tensor([[1., float("nan"), 2.]],
                                             requires_grad=True).nanmedian(1, True),
    "nanmedian-0dim": lambda lib: lib.tensor(2.).nanmedian(0),
    "nanmedian-out": lambda lib: lib.nanmedian(lib.tensor([[1., 2.]]), 1, out=(
        lib.empty(1), lib.empty(1, dtype=lib.long))),
}


@pytest.mark.parametrize("name", list(ERRORS) + list(PRINTED))
def test_calls_print_and_fail_as_torch(name):
    call = ERRORS.get(name) or PRINTED[name]
    ours, theirs = outcome(call, mg), outcome(call, torch)
    assert ours == theirs
    assert theirs[0] == ("error" if name in ERRORS else "result")


def test_saved_values_are_torchs():
    ours, theirs = (lib.tensor(D2, requires_grad=True).nanmedian(-1)[0] for lib in (mg, torch))
    for name in ("_saved_dim", "_saved_keepdim", "_saved_self_sym_sizes"):
        assert getattr(ours.grad_fn, name) == getattr(theirs.grad_fn, name), name
    ours, theirs = (lib.tensor(D2, requires_grad=True).nanmedian() for lib in (mg, torch))
    assert ours.grad_fn._saved_result.item() == theirs.grad_fn._saved_result.item()


def test_program_robust_scaling_and_a_quantile_loss():
    """A small program: features scaled by their median and interquartile range (as
    scikit-learn's RobustScaler), a linear model, then the pinball loss at the 0.9
    quantile and a nanquantile of the residuals: every gradient as PyTorch's."""
    rng = np.random.default_rng(9)
    data = rng.standard_normal((8, 3)).astype(np.float32)
    weight = rng.standard_normal((3, 1)).astype(np.float32)
    target = rng.standard_normal((8, 1)).astype(np.float32)

    def program(lib, data, weight, target):
        quartiles = data.quantile(lib.tensor([0.25, 0.75], dtype=data.dtype), dim=0)
        scaled = (data - data.nanmedian(0).values) / (quartiles[1] - quartiles[0])
        residual = target - scaled @ weight
        pinball = lib.maximum(0.9 * residual, (0.9 - 1) * residual).mean()
        return pinball + residual.nanquantile(0.5, interpolation="midpoint")

    check(program, data, weight, target)
    check_numerical(lambda d, w, t: program(mg, d, w, t), data, weight, target)


def test_nanmedian_indices_are_torchs_on_rows_of_ties_and_nan():
    """Which index nanmedian returns: among equal numbers the one PyTorch's nth_element
    (ordering by value, then index) picks; in a row of NaN only, where libstdc++'s steps
    leave place 0 (it depends on the row's length): 300 random rows, lengths 1 to 60."""
    rng = np.random.default_rng(1)
    for trial in range(300):
        x = rng.integers(0, 4, (3, int(rng.integers(1, 60)))).astype(np.float32)
        x[rng.random(x.shape) < rng.random()] = np.nan
        if trial % 4 == 0:
            x[1] = np.nan
        ours, theirs = mg.nanmedian(mg.tensor(x), 1), torch.nanmedian(torch.tensor(x), 1)
        np.testing.assert_array_equal(ours.indices.numpy(), theirs.indices.numpy())
        np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())


@pytest.mark.parametrize("call", [
    lambda lib, x, q: x.quantile(q, dim=1), lambda lib, x, q: lib.quantile(x, q),
    lambda lib, x, q: x.quantile(q[1], dim=0, keepdim=True),
    lambda lib, x, q: x.nanquantile(q, dim=1), lambda lib, x, q: lib.nanquantile(x, q[0]),
    lambda lib, x, q: x.quantile(q, dim=1, interpolation="midpoint"),
    lambda lib, x, q: x.quantile(q, dim=1, interpolation="nearest") * q.sum(),
], ids=["dim", "all", "0-dim-q", "nan-dim", "nan-all", "midpoint", "nearest"])
def test_a_q_that_requires_grad_gets_torchs_gradient(call):
    """With interpolation='linear' the weight r - floor r = q (n - 1) - floor(...) is
    differentiable in q: the graph (MulBackward1 or MulBackward0, ExpandBackward0,
    MaskedFillBackward0, SubBackward0 into LerpBackward1) and q's gradient as PyTorch's;
    other interpolations send q nothing."""
    x = NAN_ROWS.copy()
    x[1] = np.arange(5, dtype=np.float32)  # (a row of NaN would make q's gradient NaN)
    q = np.array([0.3, 0.65], np.float32)
    check(call, x, q)
    check_bits(call, x, q)
