"""``F.lp_pool1d/2d/3d`` and ``nn.LPPool1d/2d/3d``, ``nn.utils.fusion`` (a batch norm
folded into the convolution or linear layer before it) and ``nn.utils.stateless.
functional_call``, against PyTorch 2.13: values, gradients, graphs, reprs and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad

POOLS = {
    "1d": (lambda lib: lib.nn.LPPool1d(2, 3, stride=2), (2, 3, 9)),
    "1d-p1.5-ceil": (lambda lib: lib.nn.LPPool1d(1.5, 2, ceil_mode=True), (1, 2, 7)),
    "2d": (lambda lib: lib.nn.LPPool2d(2, 3), (2, 2, 7, 7)),
    "2d-rect-stride": (lambda lib: lib.nn.LPPool2d(3, (2, 3), stride=(1, 2)), (1, 2, 6, 7)),
    "2d-inf": (lambda lib: lib.nn.LPPool2d(float("inf"), 2), (1, 2, 4, 4)),
    "3d": (lambda lib: lib.nn.LPPool3d(2, 2), (1, 2, 4, 4, 4)),
}


@pytest.mark.parametrize("name", POOLS)
def test_lp_pool_as_pytorch(name):
    make, shape = POOLS[name]
    data = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    found = {}
    for lib in (minigrad, torch):
        x = lib.tensor(data, requires_grad=True)
        layer = make(lib)
        y = layer(x)
        (y * lib.linspace(-1, 1, y.numel()).reshape(y.shape)).sum().backward()
        found[lib] = (y, x.grad, repr(layer), type(y.grad_fn).__name__)
    ours, theirs = found[minigrad], found[torch]
    assert ours[2:] == theirs[2:]
    for a, b in zip(ours[:2], theirs[:2]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", ["conv2d", "conv_transpose2d", "linear", "conv1d-no-bias"])
def test_fusion_gives_pytorchs_layer(kind):
    found = {}
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        layer, norm, shape, transpose = {
            "conv2d": (lambda: lib.nn.Conv2d(3, 4, 3), lambda: lib.nn.BatchNorm2d(4),
                       (2, 3, 6, 6), False),
            "conv_transpose2d": (lambda: lib.nn.ConvTranspose2d(3, 4, 3),
                                 lambda: lib.nn.BatchNorm2d(4), (2, 3, 5, 5), True),
            "linear": (lambda: lib.nn.Linear(5, 4), lambda: lib.nn.BatchNorm1d(4), (6, 5), None),
            "conv1d-no-bias": (lambda: lib.nn.Conv1d(2, 3, 3, bias=False),
                               lambda: lib.nn.BatchNorm1d(3), (2, 2, 8), False),
        }[kind]
        layer, norm = layer(), norm()
        x = lib.randn(*shape)
        norm(layer(x))  # (running statistics from one training batch)
        layer.eval(), norm.eval()
        if transpose is None:
            fused = lib.nn.utils.fusion.fuse_linear_bn_eval(layer, norm)
        else:
            fused = lib.nn.utils.fusion.fuse_conv_bn_eval(layer, norm, transpose=transpose)
        found[lib] = (fused(x), norm(layer(x)), fused.weight, fused.bias, repr(fused),
                      type(fused.weight).__name__, fused.weight.requires_grad)
        with pytest.raises(AssertionError, match="Fusion only for eval!"):
            lib.nn.utils.fusion.fuse_conv_bn_eval(layer.train(), norm)
    ours, theirs = found[minigrad], found[torch]
    assert ours[4:] == theirs[4:]
    for a, b in zip(ours[:4], theirs[:4]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[0].detach().numpy(), ours[1].detach().numpy(), rtol=1e-4,
                               atol=1e-5)  # (the fused layer computes what the two did)


def test_stateless_functional_call_as_pytorch():
    found = {}
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 2)
        x = lib.randn(4, 3)
        weight = lib.ones(2, 3, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = lib.nn.utils.stateless.functional_call(layer, {"weight": weight}, (x,))
        y.sum().backward()
        found[lib] = (y.detach().numpy(), weight.grad.numpy(),
                      [(w.category.__name__, str(w.message)) for w in caught])
    ours, theirs = found[minigrad], found[torch]
    assert ours[2] == theirs[2]
    for a, b in zip(ours[:2], theirs[:2]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
