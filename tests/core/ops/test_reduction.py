"""Reductions (``minigrad/ops/reduction.py``) against PyTorch 2.13: values, dtype, shape, the
graph (node names and ``next_functions``), the gradient of every input, and the errors for
bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries (see
``torch_compare.py``; the shared arrays are in ``op_cases.py``)."""

import numpy as np
import pytest
import torch

from op_cases import INF, case, run, X, POS, SCALAR, X3, AWAY, D3
from torch_compare import check, check_error


REDUCTIONS = [
    case(lambda lib, x: x.sum(), X3, id="sum"),
    case(lambda lib, x: x.sum(1), X3, id="sum-dim"),
    case(lambda lib, x: x.sum(-1, keepdim=True), X3, id="sum-dim-keepdim"),
    case(lambda lib, x: x.sum((0, 2)), X3, id="sum-dims"),
    case(lambda lib, x: x.sum((0, -1), keepdim=True), X3, id="sum-dims-keepdim"),
    case(lambda lib, x: x.sum(dim=[]), X3, id="sum-empty-dims"),
    case(lambda lib, x: lib.sum(x, 0), X3, id="torch.sum"),
    case(lambda lib, x: x.sum(dtype=lib.float64), X3, id="sum-dtype"),
    case(lambda lib, x: x.mean(), X3, id="mean"),
    case(lambda lib, x: x.mean(0), X3, id="mean-dim"),
    case(lambda lib, x: x.mean(-2, keepdim=True), X3, id="mean-dim-keepdim"),
    case(lambda lib, x: x.mean((1, 2)), X3, id="mean-dims"),
    case(lambda lib, x: lib.mean(x, (0, 1), True), X3, id="torch.mean-keepdim"),
    case(lambda lib, x: x.max(), D3, id="max"),
    case(lambda lib, x: x.min(), D3, id="min"),
    case(lambda lib, x: x.max(1), D3, id="max-dim"),
    case(lambda lib, x: x.max(-1, keepdim=True), D3, id="max-dim-keepdim"),
    case(lambda lib, x: x.min(0), D3, id="min-dim"),
    case(lambda lib, x: x.min(dim=2, keepdim=True), D3, id="min-dim-keepdim"),
    case(lambda lib, x: lib.max(x, 1), D3, id="torch.max-dim"),
    case(lambda lib, x: lib.max(x, 1).values, D3, id="max-dim-values"),
    case(lambda lib, x: lib.min(x, 1)[1], D3, id="min-dim-indices"),
    case(lambda lib, x: x.prod(), POS, id="prod"),
    case(lambda lib, x: x.prod(1), X3, id="prod-dim"),
    case(lambda lib, x: x.prod(-1, keepdim=True), X3, id="prod-dim-keepdim"),
    case(lambda lib, x: x.var(), X3, id="var"),
    case(lambda lib, x: x.var(1), X3, id="var-dim"),
    case(lambda lib, x: x.var(1, keepdim=True), X3, id="var-dim-keepdim"),
    case(lambda lib, x: x.var((0, 2)), X3, id="var-dims"),
    case(lambda lib, x: x.var(unbiased=False), X3, id="var-biased"),
    case(lambda lib, x: x.var(False), X3, id="var-biased-positional"),
    case(lambda lib, x: x.var(1, unbiased=False), X3, id="var-dim-biased"),
    case(lambda lib, x: x.var(correction=0), X3, id="var-correction-0"),
    case(lambda lib, x: x.var(2, correction=2), X3, id="var-correction-2"),
    case(lambda lib, x: x.std(), X3, id="std"),
    case(lambda lib, x: x.std(0), X3, id="std-dim"),
    case(lambda lib, x: x.std(-1, keepdim=True), X3, id="std-dim-keepdim"),
    case(lambda lib, x: x.std(unbiased=False), X3, id="std-biased"),
    case(lambda lib, x: x.std((0, 1), correction=0), X3, id="std-dims-correction"),
    case(lambda lib, x: x.norm(), X3, id="norm"),
    case(lambda lib, x: x.norm("fro"), X3, id="norm-fro"),
    case(lambda lib, x: x.norm(2), X3, id="norm-2"),
    case(lambda lib, x: x.norm(1), AWAY, id="norm-1"),
    case(lambda lib, x: x.norm(INF), D3, id="norm-inf"),
    case(lambda lib, x: x.norm(3), X3, id="norm-3"),
    case(lambda lib, x: x.norm(0.5), AWAY, id="norm-0.5"),
    case(lambda lib, x: x.norm(0), AWAY, id="norm-0"),
    case(lambda lib, x: x.norm(0, dim=1), AWAY, id="norm-0-dim"),
    case(lambda lib, x: x.norm(dim=1), X3, id="norm-dim"),
    case(lambda lib, x: x.norm(2, dim=-1, keepdim=True), X3, id="norm-dim-keepdim"),
    case(lambda lib, x: x.norm(1, dim=0), AWAY, id="norm-1-dim"),
    case(lambda lib, x: x.norm(INF, dim=2), D3, id="norm-inf-dim"),
    case(lambda lib, x: x.norm(3, dim=(0, 2)), X3, id="norm-3-dims"),
    case(lambda lib, x: lib.norm(x, 3, 1, True), X3, id="torch.norm"),
    case(lambda lib, x: x.softmax(0), X3, id="softmax-0"),
    case(lambda lib, x: x.softmax(-1), X3, id="softmax-last"),
    case(lambda lib, x: lib.softmax(x, 1), X3, id="torch.softmax"),
    case(lambda lib, x: (x * 50).softmax(1), X3, id="softmax-large"),
    case(lambda lib, x: x.log_softmax(1), X3, id="log_softmax"),
    case(lambda lib, x: lib.log_softmax(x * 50, -1), X3, id="log_softmax-large"),
    case(lambda lib, x: x.logsumexp(1), X3, id="logsumexp"),
    case(lambda lib, x: x.logsumexp(-1, keepdim=True), X3, id="logsumexp-keepdim"),
    case(lambda lib, x: x.logsumexp((0, 2)), X3, id="logsumexp-dims"),
    case(lambda lib, x: lib.logsumexp(x * 100, 0), X3, id="logsumexp-large"),
    case(lambda lib, x: x.sum(), SCALAR, id="sum-0dim"),
    case(lambda lib, x: x.mean(0), SCALAR, id="mean-0dim-dim"),
    case(lambda lib, x: x.max(0), SCALAR, id="max-0dim-dim"),
    case(lambda lib, x: x.softmax(0), SCALAR, id="softmax-0dim"),
    case(lambda lib, x: x.norm(), SCALAR, id="norm-0dim"),
]


@pytest.mark.parametrize("fn, arrays, options", REDUCTIONS)
def test_reductions(fn, arrays, options):
    run(fn, arrays, options)


def test_max_min_of_everything_split_ties_evenly():
    x = np.array([[1.0, 3.0, 3.0], [3.0, -2.0, -2.0]], np.float32)
    check(lambda lib, t: t.max(), x)
    check(lambda lib, t: t.min(), x)
    check(lambda lib, t: t.norm(INF), x)
    check(lambda lib, t: t.norm(INF, dim=1), x)


def test_max_min_along_dim_with_ties_pick_what_torch_picks():
    x = np.array([[1.0, 3.0, 3.0], [3.0, -2.0, -2.0], [0.0, 0.0, 0.0]], np.float32)
    for dim in (0, 1):
        check(lambda lib, t: t.max(dim), x)
        check(lambda lib, t: t.min(dim, keepdim=True), x)
        check(lambda lib, t: t.argmax(dim), x, requires_grad=False)
        check(lambda lib, t: t.argmin(dim), x, requires_grad=False)
    check(lambda lib, t: t.argmax(), x, requires_grad=False)
    check(lambda lib, t: t.argmin(), x, requires_grad=False)


def test_prod_with_zeros():
    for values in ([2.0, 0.0, 3.0, 4.0], [0.0, 0.0, 3.0, 4.0], [1.5, -2.0, 3.0, 0.5]):
        x = np.array(values, np.float32).reshape(2, 2)
        check(lambda lib, t: t.prod(), x)
        check(lambda lib, t: t.prod(0), x)
        check(lambda lib, t: t.prod(1, keepdim=True), x)


def test_norm_at_zero_follows_torch():
    zeros = np.zeros((2, 3), np.float32)
    for p in (2, 3, 1.5, 1, 0.5, INF):
        check(lambda lib, t: t.norm(p), zeros)
        check(lambda lib, t: t.norm(p, dim=1), zeros)
    some_zeros = np.array([[0.0, 1.0, -2.0], [0.0, 0.0, 0.0]], np.float32)
    for p in (2, 3, 1.5, 1, 0.5, INF):
        check(lambda lib, t: t.norm(p, dim=1), some_zeros)
    check(lambda lib, t: t.norm(0, dim=1), some_zeros)


def test_norm_0_sends_no_gradient():
    check(lambda lib, t: t.norm(0), X)  # torch leaves x.grad None


def test_var_std_of_a_single_element():
    """n - correction <= 0: torch warns and returns nan (or inf); the grad follows."""
    one = np.array([1.5], np.float32)
    with pytest.warns(UserWarning):
        torch.tensor(one).var()
    check(lambda lib, t: t.var(correction=0), one)
    check(lambda lib, t: t.std(correction=0), np.array([1.5, 1.5], np.float32))


def test_reductions_on_integers_and_bools():
    ints = np.array([[1, -2, 3], [4, 5, -6]], np.int64)
    bools = ints > 0
    for fn in (lambda lib, x: x.sum(), lambda lib, x: x.sum(1),
               lambda lib, x: x.prod(), lambda lib, x: x.prod(0),
               lambda lib, x: x.max(), lambda lib, x: x.min(1),
               lambda lib, x: x.argmax(), lambda lib, x: x.argmin(0, keepdim=True),
               lambda lib, x: x.all(), lambda lib, x: x.any(1),
               lambda lib, x: x.sum(dtype=lib.float32)):
        check(fn, ints)
    for fn in (lambda lib, x: x.sum(), lambda lib, x: x.sum(0), lambda lib, x: x.prod(),
               lambda lib, x: x.all(1), lambda lib, x: x.any(),
               lambda lib, x: x.max(), lambda lib, x: x.max(1)):
        check(fn, bools)
    check(lambda lib, x: x.mean(dtype=lib.float64), ints)


ARG_AND_LOGIC = [
    case(lambda lib, x: x.argmax(), D3, id="argmax"),
    case(lambda lib, x: x.argmin(), D3, id="argmin"),
    case(lambda lib, x: x.argmax(1), D3, id="argmax-dim"),
    case(lambda lib, x: x.argmin(-1, keepdim=True), D3, id="argmin-dim-keepdim"),
    case(lambda lib, x: lib.argmax(x, dim=0), D3, id="torch.argmax"),
    case(lambda lib, x: (x > 0).all(), X3, id="all"),
    case(lambda lib, x: (x > -5).all(), X3, id="all-true"),
    case(lambda lib, x: (x > 0).any(2), X3, id="any-dim"),
    case(lambda lib, x: (x > 0).all(1, keepdim=True), X3, id="all-dim-keepdim"),
    case(lambda lib, x: lib.any(x > 1), X3, id="torch.any"),
    case(lambda lib, x: x.all(), X3, id="all-float"),
    case(lambda lib, x: x.any(0), X3, id="any-float-dim"),
]


@pytest.mark.parametrize("fn, arrays, options", ARG_AND_LOGIC)
def test_argmax_all_any(fn, arrays, options):
    run(fn, arrays, options)


OP_ERRORS = [
    case(lambda lib, x: x.sum(3), X, id="sum-dim"),
    case(lambda lib, x: x.sum((0, 0)), X, id="sum-repeated-dim"),
    case(lambda lib, x: x.mean(-3), X, id="mean-dim"),
    case(lambda lib, x: (x > 0).mean(), X, id="mean-bool"),
    case(lambda lib, x: x.long().mean(), X, id="mean-int"),
    case(lambda lib, x: x.max(2), X, id="max-dim"),
    case(lambda lib, x: x[:0].max(), X, id="max-empty"),
    case(lambda lib, x: x[:0].min(), X, id="min-empty"),
    case(lambda lib, x: x.argmax(5), X, id="argmax-dim"),
    case(lambda lib, x: x.softmax(2), X, id="softmax-dim"),
    case(lambda lib, x: x.log_softmax(-3), X, id="log_softmax-dim"),
    case(lambda lib, x: x.logsumexp(2), X, id="logsumexp-dim"),
    case(lambda lib, x: x.var(2), X, id="var-dim"),
    case(lambda lib, x: x.norm(dim=2), X, id="norm-dim"),
    case(lambda lib, x: x.norm(dim=(0, 1, 2)), X3, id="norm-fro-three-dims"),
    case(lambda lib, x: x.long().norm(), X, id="norm-int"),
]


@pytest.mark.parametrize("fn, arrays, options", OP_ERRORS)
def test_op_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)
