"""nn.FractionalMaxPool2d/3d and F.fractional_max_pool2d/3d (ops/fractional_pool.py,
kernels.conv.fractional_max_pool) against PyTorch 2.13 at test time: the samples drawn
after the same seed (minigrad's generator is PyTorch's), the windows' pseudo-random starts
computed in the input's dtype (float32, float64, float16), values and indices bit for bit,
unbatched input, given samples, NaN and ties, gradients (FractionalMaxPool2DBackward0,
3D) and their recorded backward (FractionalMaxPool2DBackwardBackward0), the modules' repr
and the error texts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from tests.core.support.torch_compare import check, check_numerical, outcome, rand

CASES = {
    "2d size": (lambda lib, x: lib.nn.functional.fractional_max_pool2d(x, 3, output_size=(5, 4)),
                (2, 3, 13, 11)),
    "2d indices": (lambda lib, x: lib.nn.functional.fractional_max_pool2d(
        x, 3, output_size=(5, 4), return_indices=True), (2, 3, 13, 11)),
    "2d with_indices": (lambda lib, x: lib.nn.functional.fractional_max_pool2d_with_indices(
        x, 2, output_size=(3, 4)), (3, 7, 9)),
    "2d ratio": (lambda lib, x: lib.nn.functional.fractional_max_pool2d(x, (2, 3),
                                                                        output_ratio=(0.6, 0.5)),
                 (2, 3, 13, 11)),
    "2d unbatched": (lambda lib, x: lib.nn.FractionalMaxPool2d(2, output_size=3)(x), (4, 7, 6)),
    "2d size 1": (lambda lib, x: lib.nn.functional.fractional_max_pool2d(x, 2, output_size=(1, 2)),
                  (1, 2, 5, 5)),
    "2d whole": (lambda lib, x: lib.nn.functional.fractional_max_pool2d(x, 2, output_size=(4, 4)),
                 (1, 2, 5, 5)),
    "3d size": (lambda lib, x: lib.nn.functional.fractional_max_pool3d(x, 2, output_size=(3, 4, 2)),
                (2, 2, 7, 8, 5)),
    "3d ratio": (lambda lib, x: lib.nn.FractionalMaxPool3d((2, 1, 3), output_ratio=(0.5, 0.7, 0.4))(x),
                 (1, 3, 8, 6, 9)),
    "3d unbatched": (lambda lib, x: lib.nn.functional.fractional_max_pool3d(x, 2, output_size=3),
                     (2, 6, 5, 7)),
    "3d indices": (lambda lib, x: lib.nn.FractionalMaxPool3d(2, output_ratio=0.5,
                                                             return_indices=True)(x),
                   (2, 2, 7, 8, 6)),
    "3d with_indices": (lambda lib, x: lib.nn.functional.fractional_max_pool3d_with_indices(
        x, (1, 2, 2), output_ratio=0.6), (2, 2, 7, 8, 6)),
}


def _seeded(fn):
    def run(lib, x):
        lib.manual_seed(7)
        return fn(lib, x)
    return run


@pytest.mark.parametrize("name", list(CASES))
def test_against_torch_bit_for_bit(name):
    fn, shape = CASES[name]
    check(_seeded(fn), rand(shape, seed=1), rtol=0, atol=0)


@pytest.mark.parametrize("name", ["2d size", "3d size"])
def test_gradients_against_finite_differences(name):
    fn, shape = CASES[name]
    check_numerical(lambda x: _seeded(fn)(mg, x), rand(shape, seed=4).astype(np.float64))


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16])
def test_other_dtypes_as_torch(dtype):
    """The starts computed in the input's dtype (float16's rounding at each step)."""
    x = rand((2, 5, 31, 29), seed=5)
    said = []
    for lib in (mg, torch):
        lib.manual_seed(11)
        kind = getattr(lib, str(dtype).split(".")[1])
        values, indices = lib.nn.functional.fractional_max_pool2d(
            lib.tensor(x, dtype=kind), 3, output_ratio=(0.7, 0.55), return_indices=True)
        said.append((values.numpy(), indices.numpy()))
    for a, b in zip(*said):
        np.testing.assert_array_equal(a, b)


def test_given_samples_nan_and_ties_as_torch():
    x = np.ones((1, 2, 6, 6), np.float32)
    x[0, 0, 1, 1] = np.nan
    x[0, 0, 2, 3] = np.nan
    x[0, 1, ::2, ::2] = 5.0
    samples = np.array([[[0.25, 0.75], [0.9, 0.1]]], np.float32)
    check(lambda lib, x, s: lib.nn.functional.fractional_max_pool2d(
        x, 2, output_size=(3, 4), _random_samples=s), x, samples, requires_grad=[True, False],
        rtol=0, atol=0)


def test_recorded_backward_as_torch():
    x = rand((1, 2, 9, 8), seed=6).astype(np.float64)
    said = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.fractional_max_pool2d(t, 3, output_size=(4, 3))
        node = y.grad_fn
        saved = [(a, repr(getattr(node, a))) for a in dir(node) if a.startswith("_saved_")
                 and a != "_saved_self"]
        (g,) = lib.autograd.grad((y * y).sum(), t, create_graph=True)
        (h,) = lib.autograd.grad(g.sum(), t)
        said.append((g.grad_fn.name(), saved, g.detach().numpy().tolist(),
                     h.numpy().tolist()))
    assert said[0] == said[1]


CALLS = {
    "repr": lambda lib: (repr(lib.nn.FractionalMaxPool2d(3, output_ratio=0.5)),
                         repr(lib.nn.FractionalMaxPool3d(2, output_size=3))),
    "buffers": lambda lib: list(lib.nn.FractionalMaxPool2d(
        2, output_size=2, _random_samples=lib.full((1, 1, 2), 0.5)).state_dict()),
    "no size": lambda lib: lib.nn.functional.fractional_max_pool2d(lib.ones(1, 2, 5, 5), 2),
    "too large height": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 7, 6), 2, output_size=(7, 6)),
    "too large width": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 7, 6), 2, output_size=(6, 6)),
    "samples dtype": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 7, 6), 2, output_size=(3, 3),
        _random_samples=lib.ones(1, 2, 2, dtype=lib.float64) / 2),
    "samples channels": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 7, 6), 2, output_size=(3, 3), _random_samples=lib.ones(1, 3, 2) / 2),
    "samples per dim": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 7, 6), 2, output_size=(3, 3), _random_samples=lib.ones(1, 2, 3) / 2),
    "samples dims": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 7, 6), 2, output_size=(3, 3), _random_samples=lib.ones(2, 3) / 2),
    "samples batch": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(2, 2, 5, 5), 2, output_size=(3, 3), _random_samples=lib.ones(1, 2, 2) / 2),
    "2-D input": lambda lib: lib.nn.functional.fractional_max_pool2d(lib.ones(5, 5), 2,
                                                                     output_size=(3, 3)),
    "long": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 5, 5, dtype=lib.long), 2, output_size=(3, 3),
        _random_samples=lib.zeros(1, 2, 2, dtype=lib.long)),
    "long drawn": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 5, 5, dtype=lib.long), 2, output_size=(3, 3)),
    "kernel of 3": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 5, 5), (2, 2, 2), output_size=(3, 3)),
    "output of 3": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 5, 5), 2, output_size=(3, 3, 1)),
    "float ratio": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 5, 5), 2, output_ratio=0.5),
    "float ratio 3d": lambda lib: lib.nn.functional.fractional_max_pool3d(
        lib.ones(1, 2, 5, 5, 5), 2, output_ratio=0.5).shape,
    "ratio of 3": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(1, 2, 5, 5), 2, output_ratio=(0.5, 0.5, 0.5)),
    "module without size": lambda lib: lib.nn.FractionalMaxPool2d(2),
    "module both": lambda lib: lib.nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5),
    "module ratio": lambda lib: lib.nn.FractionalMaxPool2d(2, output_ratio=1.5),
    "module 3d kernel": lambda lib: lib.nn.FractionalMaxPool3d(0, output_ratio=0.5),
    "3d time": lambda lib: lib.nn.functional.fractional_max_pool3d(
        lib.ones(1, 2, 5, 5, 5), 2, output_size=(4, 3, 3)),
    "3d width": lambda lib: lib.nn.functional.fractional_max_pool3d(
        lib.ones(1, 2, 5, 5, 5), 2, output_size=(3, 4, 4)),
    "3d unbatched too few": lambda lib: lib.nn.functional.fractional_max_pool3d(
        lib.ones(2, 5, 5), 2, output_size=3),
    "empty batch": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(0, 2, 5, 5), 2, output_size=(3, 3)),
    "empty channels": lambda lib: lib.nn.functional.fractional_max_pool2d(
        lib.ones(2, 0, 5, 5), 2, output_size=(3, 3)),
}


@pytest.mark.parametrize("name", CALLS)
def test_calls_give_what_torch_gives(name):
    assert outcome(CALLS[name], mg) == outcome(CALLS[name], torch)
