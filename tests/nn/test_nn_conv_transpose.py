"""nn.ConvTranspose1d/2d and F.conv_transpose1d/2d against torch: printed form, starting
weights after manual_seed (PyTorch's bits), forward and backward values, the node
(ConvolutionBackward0 with transposed=True and PyTorch's saved output_padding), gradients
against finite differences in float64, second derivatives, the errors, output_size; and a
small DCGAN-style generator trained a few steps on both libraries."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, close
from tests.core.support.torch_compare import (check, check_double_backward, check_error,
                                              check_numerical, rand)

LAYERS = [
    "nn.ConvTranspose2d(4, 2, 3)",
    "nn.ConvTranspose2d(8, 3, 4, stride=2, padding=1, bias=False)",
    "nn.ConvTranspose2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), output_padding=(1, 0))",
    "nn.ConvTranspose2d(4, 6, 3, stride=2, groups=2, dilation=2)",
    "nn.ConvTranspose2d(4, 2, 3, dtype=torch.float64)",
    "nn.ConvTranspose1d(4, 2, 3, stride=2)",
    "nn.ConvTranspose1d(4, 6, 5, stride=3, padding=2, output_padding=1, groups=2)",
]


@pytest.mark.parametrize("source", LAYERS)
def test_layer_prints_starts_and_runs_as_torch(source):
    layers = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        layers.append(eval(source, {"nn": lib.nn, "torch": lib}))
    ours, theirs = layers
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        assert np.array_equal(as_numpy(p), as_numpy(q)), name  # (PyTorch's bits)
    channels = ours.in_channels
    shape = (2, channels, 7) if "1d" in source else (2, channels, 5, 6)
    x = np.random.default_rng(1).standard_normal(shape)
    results = []
    for lib, layer in ((mg, ours), (torch, theirs)):
        t = lib.tensor(x, dtype=layer.weight.dtype, requires_grad=True)
        out = layer(t)
        out.pow(2).sum().backward()
        node = out.grad_fn
        results.append((out, t.grad, type(node).__name__, node._saved_transposed,
                        node._saved_output_padding, node._saved_stride, node._saved_groups,
                        [p.grad for p in layer.parameters()]))
    (o1, g1, *rest1, p1), (o2, g2, *rest2, p2) = results
    assert rest1 == rest2
    close(o1, o2, rtol=1e-5, atol=1e-5)
    close(g1, g2, rtol=1e-4, atol=1e-4)
    for a, b in zip(p1, p2):
        close(a, b, rtol=1e-4, atol=1e-3)


X = rand((2, 4, 3, 4), seed=0)
W = rand((4, 3, 3, 2), seed=1)
B = rand((3,), seed=2)
CASES = {
    "plain": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x, w, b),
    "stride output_padding": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(
        x, w, b, stride=2, padding=1, output_padding=1),
    "groups dilation": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(
        x, w[:, :1].repeat(1, 1, 1, 1), None, stride=(1, 2), groups=2, dilation=(2, 1)),
    "unbatched": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x[0], w, b, padding=1),
    "1-D": lambda lib, x, w, b: lib.nn.functional.conv_transpose1d(
        x[:, :, 0], w[:, :, 0], b, stride=3, output_padding=2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_functional_against_torch(name):
    check(CASES[name], X, W, B, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients_against_finite_differences(name):
    check_numerical(lambda *xs: CASES[name](mg, *xs), X, W, B)


@pytest.mark.parametrize("name", ["plain", "stride output_padding"])
def test_second_derivatives(name):
    # (no bias: torch's first derivative of a bias requires grad, minigrad's a plain sum)
    check_double_backward(lambda lib, x, w: CASES[name](lib, x, w, None),
                          X.astype(np.float64), W.astype(np.float64))


ERRORS = {
    "channels": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x[:, :3], w),
    "bias size": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x, w, b[:2]),
    "output_padding": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(
        x, w, output_padding=1),
    "input dims": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x[0, 0], w),
    "dtypes": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x.double(), w),
    "groups": lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x, w, groups=3),
    "padding_mode": lambda lib, x, w, b: lib.nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect"),
    "output_size": lambda lib, x, w, b: lib.nn.ConvTranspose2d(4, 2, 3, stride=2)(
        x, output_size=(20, 20)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    check_error(ERRORS[name], X, W, B)


def test_output_size_picks_output_padding():
    shapes = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        up = lib.nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1)
        x = lib.ones(1, 4, 5, 5)
        shapes.append([tuple(up(x, output_size=size).shape)
                       for size in ((9, 9), (10, 10), [1, 2, 10, 9])])
    assert shapes[0] == shapes[1] == [(1, 2, 9, 9), (1, 2, 10, 10), (1, 2, 10, 9)]


def generator(lib):
    """A DCGAN generator in small: a noise vector grown to a 1 x 16 x 16 image."""
    nn = lib.nn
    return nn.Sequential(
        nn.ConvTranspose2d(8, 16, 4, 1, 0, bias=False), nn.BatchNorm2d(16), nn.ReLU(True),
        nn.ConvTranspose2d(16, 8, 4, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(True),
        nn.ConvTranspose2d(8, 1, 4, 2, 1, bias=False), nn.Tanh())


def test_dcgan_generator_trains_as_torch():
    runs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        net = generator(lib)
        print(net)
        optimizer = lib.optim.Adam(net.parameters(), lr=2e-3, betas=(0.5, 0.999))
        noise = lib.randn(4, 8, 1, 1)
        target = lib.zeros(4, 1, 16, 16)
        losses = []
        for _ in range(4):
            optimizer.zero_grad()
            loss = lib.nn.functional.mse_loss(net(noise), target)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        runs.append((repr(net), losses, [as_numpy(p) for p in net.parameters()]))
    (r1, l1, p1), (r2, l2, p2) = runs
    assert r1 == r2
    np.testing.assert_allclose(l1, l2, rtol=1e-5)
    for a, b in zip(p1, p2):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
