"""ops/index_reduce.py against PyTorch 2.13: index_reduce and index_reduce_ (IndexReduceBackward0)
with each reduction (prod, mean, amax, amin), with and without include_self, along each dim,
repeated indices, ties, zeros in a product; values bit for bit, graphs, saved values,
gradients (and finite differences in float64), integer means, its beta warning and the
error texts."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from torch_compare import check, check_numerical, distinct, outcome, rand

X = distinct((5, 3), seed=0)
SOURCE = distinct((4, 3), seed=1)
SOURCE_COLUMNS = distinct((5, 4), seed=2)
REDUCTIONS = ["prod", "mean", "amax", "amin"]


def _index(lib, values):
    return lib.tensor(values)


CASES = {}
for _reduce in REDUCTIONS:
    for _include in (True, False):
        CASES[f"{_reduce} include_self={_include}"] = (
            lambda lib, x, s, r=_reduce, i=_include: x.index_reduce(
                0, _index(lib, [0, 4, 2, 0]), s, r, include_self=i), (X, SOURCE))
        CASES[f"{_reduce} dim 1 include_self={_include}"] = (
            lambda lib, x, s, r=_reduce, i=_include: lib.index_reduce(
                x, -1, _index(lib, [2, 0, 2, 2]), s, r, include_self=i), (X, SOURCE_COLUMNS))
    CASES[f"{_reduce} in place"] = (
        lambda lib, x, s, r=_reduce: (x * 1).index_reduce_(0, _index(lib, [1, 1, 3, 0]), s, r),
        (X, SOURCE))


@pytest.fixture(autouse=True)
def _beta_warnings_quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch_bit_for_bit(name):
    fn, inputs = CASES[name]
    check(fn, *inputs, rtol=0, atol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    fn, inputs = CASES[name]
    check_numerical(lambda *xs: fn(mg, *xs), *inputs)


@pytest.mark.parametrize("reduce", REDUCTIONS)
def test_ties_and_zeros_as_torch(reduce):
    """Equal values share amax's and amin's gradient; a zero in a product (one, or two
    reaching the same place) gets the product of the others."""
    x = np.array([[1., 0.], [2., 3.], [0., 1.]], np.float32)
    source = np.array([[2., 0.], [1., 3.], [0., 5.], [2., 0.]], np.float32)
    check(lambda lib, x, s: x.index_reduce(0, lib.tensor([1, 1, 2, 0]), s, reduce), x, source,
          rtol=0, atol=0)


def test_saved_values_as_torch():
    saved = []
    for lib in (mg, torch):
        x = lib.tensor(X, requires_grad=True)
        node = lib.index_reduce(x, -2, lib.tensor([0, 4, 2, 0]), x[:4] * 2, "amax",
                                include_self=False).grad_fn
        saved.append([(a, repr(getattr(node, a))) for a in dir(node) if a.startswith("_saved_")])
    assert saved[0] == saved[1]


CALLS = {
    "docstring": lambda lib: lib.full((5, 3), 2.).index_reduce_(
        0, lib.tensor([0, 4, 2, 0]), lib.tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]),
        "prod"),
    "docstring include_self": lambda lib: lib.full((5, 3), 2.).index_reduce_(
        0, lib.tensor([0, 4, 2, 0]), lib.tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]),
        "prod", include_self=False),
    "int mean": lambda lib: lib.arange(6).reshape(3, 2).index_reduce_(
        0, lib.tensor([0, 0]), lib.tensor([[3, 4], [5, 7]]), "mean"),
    "int amin": lambda lib: lib.arange(6).reshape(3, 2).index_reduce(
        1, lib.tensor([1], dtype=lib.int32), lib.tensor([[-3], [5], [7]]), "amin",
        include_self=False),
    "float64 amax empty": lambda lib: lib.zeros(2, 2, dtype=lib.float64).index_reduce(
        0, lib.tensor([], dtype=lib.int64), lib.zeros(0, 2, dtype=lib.float64), "amax"),
    "sum": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([0, 1]), lib.ones(2, 3), "sum"),
    "float index": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([0., 1]), lib.ones(2, 3),
                                                           "mean"),
    "dtypes": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([0, 1]),
                                                      lib.ones(2, 3, dtype=lib.float64), "mean"),
    "index too big": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([0, 5]), lib.ones(2, 3),
                                                             "mean"),
    "negative index": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([0, -1]),
                                                              lib.ones(2, 3), "mean"),
    "count": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([0, 1, 2]), lib.ones(2, 3),
                                                     "mean"),
    "count dim 1": lambda lib: lib.ones(5, 3).index_reduce(1, lib.tensor([0, 1]), lib.ones(5, 3),
                                                           "mean"),
    "2-D index": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([[0, 1], [1, 0]]),
                                                         lib.ones(4, 3), "mean"),
    "shapes": lambda lib: lib.ones(5, 3).index_reduce(0, lib.tensor([0, 1]), lib.ones(2, 2),
                                                      "mean"),
    "leaf in place": lambda lib: lib.ones(5, 3, requires_grad=True).index_reduce_(
        0, lib.tensor([0, 1]), lib.ones(2, 3), "mean"),
    "dim": lambda lib: lib.ones(5, 3).index_reduce(2, lib.tensor([0, 1]), lib.ones(2, 3), "mean"),
}


@pytest.mark.parametrize("name", CALLS)
def test_calls_give_what_torch_gives(name):
    assert outcome(CALLS[name], mg) == outcome(CALLS[name], torch)


def test_the_beta_warning_as_torch():
    said = []
    for lib in (mg, torch):
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                lib.ones(3).index_reduce(0, lib.tensor([1]), lib.ones(1), "amax")
        finally:
            lib.set_warn_always(False)
        said.append([(w.category, str(w.message)) for w in caught])
    assert said[0] == said[1]


def test_amax_and_amin_keep_the_first_of_minus_0_and_0_as_torch():
    """amax and amin keep the zero reached first (std::max/std::min keep what they hold
    when the next is equal; NumPy's maximum/minimum took the next): 1,000 random
    index_reduce calls of zeros, ones and NaN against torch, 3 dtypes."""
    r = random.Random(17)
    values = [0.0, -0.0, 1.0, -1.0, float("nan")]
    differ = []
    for _ in range(1000):
        dtype, reduce = r.choice(["float32", "float64", "float16"]), r.choice(["amin", "amax"])
        include_self, n = r.random() < 0.5, r.randint(1, 6)
        xs = [[r.choice(values) for _ in range(2)] for _ in range(3)]
        source = [[r.choice(values) for _ in range(2)] for _ in range(n)]
        index = [r.randrange(3) for _ in range(n)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (index_reduce's beta warning)
            got = [lib.tensor(xs, dtype=getattr(lib, dtype)).index_reduce(
                0, lib.tensor(index), lib.tensor(source, dtype=getattr(lib, dtype)), reduce,
                include_self=include_self).numpy() for lib in (torch, mg)]
        if not (np.array_equal(*got, equal_nan=True)
                and np.array_equal(*(np.signbit(g) for g in got))):
            differ.append((dtype, reduce, include_self, xs, source, index))
    assert differ == []
