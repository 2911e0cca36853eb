"""The derivatives PyTorch computes with an operation of its own, recorded by a backward
with create_graph=True as a node (EluBackwardBackward0, SoftplusBackwardBackward0,
ReflectionPad1DBackwardBackward0, ...): their second and third derivatives against
finite differences, in float64, at points away from the functions' kinks.

(Their node order and values against PyTorch's, to the third order, are in
test_formula_node_order.py; here the math is checked where torch is absent.)"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
import minigrad.nn.functional as F

# x: a 2x5 float64 tensor, its values at least 0.05 away from 0, +-0.5, +-1 and +-3.
X = [[0.7, -1.3, 2.1, -0.2, 1.6], [0.4, 1.1, -0.6, -2.4, 0.13]]
T = [[0.9, 0.5, -1.2, 0.35, 1.2], [1.6, -0.8, 0.3, -2.1, 0.9]]  # (|x - t| away from 0.5)

FUNCTIONS = {
    "elu": lambda x: F.elu(x, 0.7),
    "elu_ (from its result)": lambda x: F.elu(x * 1, 0.7, inplace=True),
    "celu": lambda x: F.celu(x, 0.5),
    "celu_ (from its result)": lambda x: F.celu(x * 1, 0.5, inplace=True),
    "selu": lambda x: F.selu(x),
    "softplus": lambda x: F.softplus(x, beta=2, threshold=3),
    "hardswish": lambda x: F.hardswish(x * 2),
    "hardshrink": lambda x: F.hardshrink(x, 0.5) * x,
    "softshrink": lambda x: F.softshrink(x, 0.5) * x,
    "rrelu (eval)": lambda x: F.rrelu(x, training=False) * x,
    "silu": lambda x: F.silu(x),
    "mish": lambda x: F.mish(x),
    "glu": lambda x: F.glu(x.reshape(5, 2), -1),
    "prelu": lambda x: F.prelu(x.reshape(1, 2, 5), mg.tensor([0.3, -0.2], dtype=mg.float64))
    * x.reshape(1, 2, 5),
    "smooth_l1 (none)": lambda x: F.smooth_l1_loss(x, mg.tensor(T, dtype=mg.float64),
                                                   reduction="none", beta=0.5),
    "smooth_l1 (mean)": lambda x: F.smooth_l1_loss(x * x, mg.tensor(T, dtype=mg.float64),
                                                   beta=0.5),
    "huber (sum)": lambda x: F.huber_loss(x * x, mg.tensor(T, dtype=mg.float64),
                                          reduction="sum", delta=0.5),
    "binary_cross_entropy (weighted mean)": lambda x: F.binary_cross_entropy(
        x.sigmoid(), mg.tensor(T, dtype=mg.float64).sigmoid(),
        mg.tensor([0.5, 2.0, 1.0, 1.5, 0.7], dtype=mg.float64)),
    "reflect pad": lambda x: F.pad(x.reshape(1, 2, 5), (2, 1), mode="reflect") ** 2,
    "replicate pad 2d": lambda x: F.pad(x.reshape(1, 2, 5), (1, 2, 1, 0),
                                        mode="replicate") ** 2,
    "embedding": lambda x: F.embedding(mg.tensor([[1, 0], [1, 1]]), x, padding_idx=0) ** 2,
    "adaptive max pool": lambda x: F.adaptive_max_pool2d(x.reshape(1, 2, 5), (1, 2)) ** 2,
    "bilinear": lambda x: F.bilinear(x[:, :3], x[:, 2:], x.reshape(2, 5)[:, :3, None]
                                     * x[:, None, 2:]),
    "linear upsample": lambda x: F.interpolate(x.reshape(1, 2, 5), size=7, mode="linear") ** 2,
    "bicubic upsample": lambda x: F.interpolate(x.reshape(1, 1, 2, 5), size=(3, 4),
                                                mode="bicubic", align_corners=True) ** 2,
    "nearest-exact upsample 3d": lambda x: F.interpolate(
        x.reshape(1, 1, 1, 2, 5), scale_factor=(1, 2, 1.5), mode="nearest-exact") ** 2,
    "group_norm": lambda x: F.group_norm(x.reshape(1, 2, 5), 2, x[0, :2], x[1, 3:]) ** 2,
    "group_norm (no weight, 4d)": lambda x: F.group_norm(x.reshape(1, 2, 5, 1) * x[0, 0], 1)
    * x.reshape(1, 2, 5, 1),
    "layer_norm": lambda x: F.layer_norm(x, (5,), x[0], x[1]) ** 2,
    "layer_norm (no weight, 2 dims)": lambda x: F.layer_norm(x.reshape(1, 2, 5), (2, 5)) * x,
    "batch_norm": lambda x: F.batch_norm(x.reshape(5, 2), None, None, x[0, :2], x[1, :2],
                                         True) ** 2,
    "batch_norm (eval, 3d)": lambda x: F.batch_norm(
        x.reshape(1, 2, 5), mg.tensor([0.3, -0.2], dtype=mg.float64),
        mg.tensor([1.5, 0.7], dtype=mg.float64), x[0, :2]) ** 2,
}
# PyTorch's recorded derivatives of layer_norm and batch_norm hold the saved mean and
# rstd constant (ops/norm_backward.py): their own derivative, a third derivative, is
# PyTorch's, not the true one (test_third_derivatives_hold_the_statistics_constant).
THIRD_ORDER_IS_TORCHS = {"layer_norm", "layer_norm (no weight, 2 dims)", "batch_norm"}


def _x():
    return mg.tensor(X, dtype=mg.float64, requires_grad=True)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_second_derivatives_against_finite_differences(name):
    assert mg.autograd.gradgradcheck(FUNCTIONS[name], (_x(),))


def _first(name, lib=mg):
    """x -> d f / d x (summed against fixed weights), recorded."""
    def first(x):
        y = FUNCTIONS[name](x) if lib is mg else _on_torch(name, x)
        weights = lib.tensor(np.linspace(-1.0, 1.5, y.numel()).reshape(tuple(y.shape)),
                             dtype=lib.float64)
        return lib.autograd.grad(y, x, weights, create_graph=True)[0]
    return first


@pytest.mark.parametrize("name", sorted(set(FUNCTIONS) - THIRD_ORDER_IS_TORCHS))
def test_third_derivatives_against_finite_differences(name):
    """The second derivatives of x -> d f / d x: the backward of each recorded
    derivative node, differentiated once more."""
    assert mg.autograd.gradgradcheck(_first(name), (_x(),))


@pytest.mark.parametrize("name", sorted(THIRD_ORDER_IS_TORCHS))
def test_third_derivatives_hold_the_statistics_constant(name):
    """layer_norm's and batch_norm's third derivatives are PyTorch's (computed here by
    torch at test time), which fail the finite-difference check, in minigrad as in torch;
    their second derivatives pass it (above)."""
    thirds, passed = [], []
    for lib in (mg, torch):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        first = _first(name, lib)
        g = first(x)
        weights = lib.tensor(np.cos(np.arange(g.numel())).reshape(tuple(g.shape)),
                             dtype=lib.float64)
        second, = lib.autograd.grad(g, x, weights, create_graph=True)
        thirds.append(lib.autograd.grad((second * second).sum(), x)[0].detach().numpy())
        passed.append(lib.autograd.gradgradcheck(first, (x,), raise_exception=False))
    np.testing.assert_allclose(thirds[0], thirds[1], rtol=1e-10, atol=1e-12)
    assert passed == [False, False]


@pytest.mark.parametrize("name, node", [
    ("elu", "EluBackwardBackward0"), ("elu_ (from its result)", "EluBackwardBackward0"),
    ("softplus", "SoftplusBackwardBackward0"), ("hardswish", "HardswishBackwardBackward0"),
    ("reflect pad", "ReflectionPad1DBackwardBackward0"),
    ("smooth_l1 (none)", "SmoothL1LossBackwardBackward0"),
    ("binary_cross_entropy (weighted mean)", "BinaryCrossEntropyBackwardBackward0"),
    ("glu", "GluBackwardBackward0"), ("embedding", "EmbeddingDenseBackwardBackward0"),
    ("adaptive max pool", "AdaptiveMaxPool2DBackwardBackward0"),
    ("bicubic upsample", "UpsampleBicubic2DBackwardBackward0"),
    ("bilinear", "TrilinearBackward0"), ("group_norm", "NativeGroupNormBackward0"),
    ("layer_norm", "NativeLayerNormBackwardBackward0"),
    ("batch_norm", "NativeBatchNormBackwardBackward0"),
    ("batch_norm (eval, 3d)", "NativeBatchNormBackwardBackward0")])
def test_a_recorded_derivative_shows_torchs_node(name, node):
    """The first derivative's graph holds the node, in minigrad as in PyTorch (the same
    program run on torch by swapping the library)."""
    names = []
    for lib in (mg, torch):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        y = FUNCTIONS[name](x) if lib is mg else _on_torch(name, x)
        grad, = lib.autograd.grad(y.sum(), x, create_graph=True)
        names.append(_names(grad.grad_fn))
    assert node in names[0] and node in names[1]


def _on_torch(name, x):
    """The same function on torch: FUNCTIONS' lambdas read ``F`` and ``mg``, so run them
    with torch's in their place."""
    code = FUNCTIONS[name]
    scope = dict(code.__globals__, F=torch.nn.functional, mg=torch)
    return type(code)(code.__code__, scope)(x)


def _names(node) -> set:
    """The names of the nodes reachable from ``node``."""
    seen, names, stack = set(), set(), [node]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.add(node.name())
        stack.extend(n for n, _ in node.next_functions)
    return names
