"""A convolution differentiated with create_graph=True records PyTorch's
ConvolutionBackwardBackward0 (one node, the three gradients), whose backward is made of
convolutions again (PyTorch's _convolution_double_backward): for conv1d/2d/3d and the
transposed convolutions, with stride, padding, dilation, groups, a bias or none, the
printed values, graphs and nodes in creation order of the first and second derivatives,
and the third derivative's values, against torch at test time; the second and third
derivatives against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

from programs import assert_same_run

# name: (call(F, x, w, b), shapes of x, w and b (None: no bias))
CONVOLUTIONS = {
    "conv1d": (lambda F, x, w, b: F.conv1d(x, w, b), [(2, 3, 6), (4, 3, 3), (4,)]),
    "conv1d, stride 2, padding 1, no bias": (
        lambda F, x, w, b: F.conv1d(x, w, None, stride=2, padding=1), [(2, 3, 7), (4, 3, 3), None]),
    "conv1d, dilation 2, groups 2": (
        lambda F, x, w, b: F.conv1d(x, w, b, dilation=2, groups=2), [(2, 4, 9), (6, 2, 3), (6,)]),
    "conv1d, padding 'same', even kernel": (
        lambda F, x, w, b: F.conv1d(x, w, b, padding="same"), [(1, 3, 6), (2, 3, 4), (2,)]),
    "conv2d, padding 1": (
        lambda F, x, w, b: F.conv2d(x, w, b, padding=1), [(2, 2, 4, 5), (3, 2, 3, 2), (3,)]),
    "conv2d, stride (2, 1), dilation (1, 2)": (
        lambda F, x, w, b: F.conv2d(x, w, None, stride=(2, 1), dilation=(1, 2)),
        [(1, 2, 6, 7), (3, 2, 2, 3), None]),
    "conv2d, groups 3, stride 2": (
        lambda F, x, w, b: F.conv2d(x, w, b, stride=2, groups=3, padding=(1, 0)),
        [(2, 3, 5, 5), (6, 1, 2, 2), (6,)]),
    "conv2d, unbatched": (lambda F, x, w, b: F.conv2d(x, w, b), [(2, 4, 5), (3, 2, 3, 2), (3,)]),
    "conv3d, padding 1": (
        lambda F, x, w, b: F.conv3d(x, w, b, padding=1), [(1, 2, 3, 3, 4), (2, 2, 2, 2, 2), (2,)]),
    "conv3d, stride 2, groups 2": (
        lambda F, x, w, b: F.conv3d(x, w, None, stride=2, groups=2),
        [(1, 4, 5, 4, 5), (2, 2, 2, 1, 2), None]),
    "conv_transpose1d": (
        lambda F, x, w, b: F.conv_transpose1d(x, w, b), [(2, 3, 4), (3, 2, 3), (2,)]),
    "conv_transpose2d, stride 2, groups 2, dilation 2": (
        lambda F, x, w, b: F.conv_transpose2d(x, w, b, stride=2, groups=2, dilation=2),
        [(1, 4, 3, 3), (4, 1, 2, 2), (2,)]),
    "conv_transpose3d, stride (1, 2, 1)": (
        lambda F, x, w, b: F.conv_transpose3d(x, w, None, stride=(1, 2, 1)),
        [(1, 2, 2, 3, 2), (2, 1, 2, 2, 2), None]),
}


def derivatives_program(call, shapes):
    """``call(F, *leaves)`` of seeded float64 leaves of ``shapes`` (None: passed as None),
    squared so that the second derivative has terms in every input, then three
    derivatives, the first two with create_graph=True."""
    def program(lib, rec):
        rng = np.random.default_rng(0)
        leaves = [None if s is None else rec.leaf(rng.normal(size=s), dtype="float64")
                  for s in shapes]
        y = call(lib.nn.functional, *leaves) ** 2
        rec.show("y", y)
        inputs = [t for t in leaves if t is not None]
        upstream = rec.leaf((np.arange(y.numel()) * 0.7 - 1.1).reshape(tuple(y.shape))
                            / y.numel(), dtype="float64")
        first = lib.autograd.grad(y, inputs, upstream, create_graph=True)
        rec.show("first", first)
        rec.show("first, nodes in creation order", _creation_order(first))
        total = sum((g * g.detach().cos()).sum() for g in first)
        second = lib.autograd.grad(total, inputs + [upstream], create_graph=True)
        rec.show("second", second)
        rec.show("second, nodes in creation order", _creation_order(second))
        rec.show("third", lib.autograd.grad(sum((g * g.detach().sin()).sum() for g in second),
                                            inputs + [upstream]))
    return program


def _creation_order(tensors) -> tuple:
    """The names of the nodes reachable from ``tensors`` (leaves aside), in the order
    they were made."""
    seen, stack, nodes = set(), [t.grad_fn for t in tensors], []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if "AccumulateGrad" not in node.name():
            number = node._sequence_nr() if callable(node._sequence_nr) else node._sequence_nr
            nodes.append((number, node.name()))
        stack.extend(n for n, _ in node.next_functions)
    return tuple(name for _, name in sorted(nodes))


@pytest.mark.parametrize("name", sorted(CONVOLUTIONS))
def test_derivatives_are_torchs(name):
    theirs = assert_same_run(derivatives_program(*CONVOLUTIONS[name]))
    first_nodes = dict(theirs)["first, nodes in creation order"]
    assert "ConvolutionBackwardBackward0" in first_nodes  # (PyTorch's node, in both)


def test_a_transposed_convolutions_third_derivative_is_refused_as_in_torch():
    """With output_padding, the weight term of conv_transpose's second derivative is a
    convolution given that output_padding, which PyTorch's convolution_backward refuses."""
    def program(lib, rec):
        x, w = rec.leaf(np.ones((2, 3, 4)), dtype="float64"), rec.leaf(np.ones((3, 2, 3)),
                                                                        dtype="float64")
        y = lib.nn.functional.conv_transpose1d(x, w, stride=2, padding=1, output_padding=1)
        gx, gw = lib.autograd.grad((y * y).sum(), (x, w), create_graph=True)
        second = lib.autograd.grad((gx * gx).sum() + (gw * gw).sum(), (x, w),
                                   create_graph=True)
        rec.show("second", second)
        lib.autograd.grad(sum((g * g).sum() for g in second), (x, w))
    assert assert_same_run(program)[-2][0] == "raised"


def _inputs(name):
    rng = np.random.default_rng(1)
    return tuple(mg.tensor(rng.normal(size=s), requires_grad=True)
                 for s in CONVOLUTIONS[name][1] if s is not None)


def _function(name):
    call, shapes = CONVOLUTIONS[name]

    def f(x, w, b=None):
        return call(mg.nn.functional, x, w, b) ** 2
    return f


@pytest.mark.parametrize("name", sorted(CONVOLUTIONS))
def test_second_derivatives_against_finite_differences(name):
    assert mg.autograd.gradgradcheck(_function(name), _inputs(name))


@pytest.mark.parametrize("name", ["conv1d", "conv2d, groups 3, stride 2",
                                  "conv_transpose2d, stride 2, groups 2, dilation 2"])
def test_third_derivatives_against_finite_differences(name):
    """The backward of ConvolutionBackwardBackward0 (convolutions), differentiated again."""
    def first(*inputs):
        y = _function(name)(*inputs)
        weights = mg.tensor(np.linspace(-1.0, 1.5, y.numel()).reshape(tuple(y.shape)))
        return mg.autograd.grad(y, inputs, weights, create_graph=True)
    assert mg.autograd.gradgradcheck(first, _inputs(name))
