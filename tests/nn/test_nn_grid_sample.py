"""``F.affine_grid`` and ``F.grid_sample`` (kernels/grid_sample.py, ops/sampling.py) against
PyTorch 2.13: values, gradients for the input, the grid and theta, graph nodes and saved
names, warnings and errors, in every mode, padding and ``align_corners``; and a small
spatial transformer trained both ways."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad

MODES = ["bilinear", "nearest"]
PADDINGS = ["zeros", "border", "reflection"]


def _inputs(dtype, seed=0, spread=1.4):
    rng = np.random.default_rng(seed)
    image = rng.standard_normal((2, 3, 5, 6)).astype(dtype)
    grid = (rng.uniform(-spread, spread, (2, 4, 7, 2))).astype(dtype)
    return image, grid


def _run(lib, image, grid, mode, padding, align):
    x = lib.tensor(image, requires_grad=True)
    g = lib.tensor(grid, requires_grad=True)
    y = lib.nn.functional.grid_sample(x, g, mode=mode, padding_mode=padding,
                                      align_corners=align)
    (y * lib.linspace(-1, 2, y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
    return y, x.grad, g.grad


@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_grid_sample_as_pytorch(dtype, mode, padding, align):
    image, grid = _inputs(dtype)
    mine = _run(minigrad, image, grid, mode, padding, align)
    theirs = _run(torch, image, grid, mode, padding, align)
    tolerance = dict(rtol=1e-5, atol=2e-6) if dtype == "float32" else dict(rtol=1e-12,
                                                                          atol=1e-12)
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), **tolerance)
    assert type(mine[0].grad_fn).__name__ == type(theirs[0].grad_fn).__name__
    assert repr(mine[0].grad_fn).split()[0] == repr(theirs[0].grad_fn).split()[0]


def test_values_are_pytorchs_bits():
    """The weights and sums are written as PyTorch's vectorised kernel writes them, its
    fused multiply-adds included: float32 bilinear values bit for bit, at random points."""
    image, grid = _inputs("float32", seed=3, spread=1.0)
    for padding in PADDINGS:
        mine = minigrad.nn.functional.grid_sample(minigrad.tensor(image), minigrad.tensor(grid),
                                                  padding_mode=padding, align_corners=False)
        theirs = torch.nn.functional.grid_sample(torch.tensor(image), torch.tensor(grid),
                                                 padding_mode=padding, align_corners=False)
        assert (mine.numpy() == theirs.numpy()).all(), padding


def test_gradients_against_finite_differences():
    image, grid = _inputs("float64", seed=1, spread=0.9)
    for padding in PADDINGS:
        assert minigrad.autograd.gradcheck(
            lambda x, g: minigrad.nn.functional.grid_sample(x, g, padding_mode=padding,
                                                            align_corners=True),
            (minigrad.tensor(image, requires_grad=True), minigrad.tensor(grid, requires_grad=True)))


def _affine(lib, align, size=(2, 3, 4, 5)):
    theta = lib.tensor([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]],
                        [[1.2, 0.4, -0.3], [-0.1, 0.8, 0.25]]], requires_grad=True)
    grid = lib.nn.functional.affine_grid(theta, size, align_corners=align)
    (grid * lib.linspace(-1, 1, grid.numel()).reshape(grid.shape)).sum().backward()
    return grid, theta.grad, grid.grad_fn.name(), sorted(
        k for k in dir(grid.grad_fn) if k.startswith("_saved"))


@pytest.mark.parametrize("align", [False, True])
def test_affine_grid_as_pytorch(align):
    mine, theirs = _affine(minigrad, align), _affine(torch, align)
    for a, b in zip(mine[:2], theirs[:2]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-7)
    assert mine[2:] == theirs[2:]


def _said(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            call()
            outcome = "no error"
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            outcome = f"{type(error).__name__}: {error}"
    return outcome, [f"{w.category.__name__}: {w.message}" for w in caught]


CALLS = {
    "no align_corners": lambda t: t.nn.functional.grid_sample(t.ones(1, 1, 2, 2),
                                                              t.zeros(1, 2, 2, 2)),
    "affine without align_corners": lambda t: t.nn.functional.affine_grid(
        t.ones(1, 2, 3), (1, 1, 2, 2)),
    "unit-size affine grid": lambda t: t.nn.functional.affine_grid(t.ones(1, 2, 3), (1, 1, 1, 2),
                                                                   align_corners=True),
    "grid of 3 dims": lambda t: t.nn.functional.grid_sample(t.ones(1, 2, 3, 4),
                                                            t.ones(1, 3, 2), align_corners=False),
    "last dim 3": lambda t: t.nn.functional.grid_sample(t.ones(1, 2, 3, 4), t.ones(1, 3, 4, 3),
                                                        align_corners=False),
    "batch": lambda t: t.nn.functional.grid_sample(t.ones(1, 2, 3, 4), t.ones(2, 3, 4, 2),
                                                   align_corners=False),
    "dtypes": lambda t: t.nn.functional.grid_sample(t.ones(1, 2, 3, 4),
                                                    t.ones(1, 3, 4, 2, dtype=t.float64),
                                                    align_corners=False),
    "integers": lambda t: t.nn.functional.grid_sample(t.ones(1, 2, 3, 4, dtype=t.long),
                                                      t.ones(1, 3, 4, 2, dtype=t.long),
                                                      align_corners=False),
    "empty image": lambda t: t.nn.functional.grid_sample(t.ones(1, 2, 0, 4), t.ones(1, 3, 4, 2),
                                                         align_corners=False),
    "mode": lambda t: t.nn.functional.grid_sample(t.ones(1, 1, 2, 2), t.zeros(1, 2, 2, 2),
                                                  mode="cubic"),
    "padding": lambda t: t.nn.functional.grid_sample(t.ones(1, 1, 2, 2), t.zeros(1, 2, 2, 2),
                                                     padding_mode="wrap"),
    "integer theta": lambda t: t.nn.functional.affine_grid(t.ones(1, 2, 3, dtype=t.long),
                                                           (1, 1, 2, 2), align_corners=False),
    "theta shape": lambda t: t.nn.functional.affine_grid(t.ones(1, 3, 3), (1, 1, 2, 2),
                                                         align_corners=False),
    "size of 3": lambda t: t.nn.functional.affine_grid(t.ones(1, 2, 3), (1, 2, 2),
                                                       align_corners=False),
    "size 0": lambda t: t.nn.functional.affine_grid(t.ones(1, 2, 3), (1, 1, 0, 2),
                                                    align_corners=False),
    "theta batch": lambda t: t.nn.functional.affine_grid(t.ones(2, 2, 3), (1, 1, 2, 2),
                                                         align_corners=False),
    "torch.grid_sampler": lambda t: t.grid_sampler(t.ones(1, 1, 2, 2), t.zeros(1, 1, 1, 2), 1,
                                                   2, True),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_warnings_and_errors_as_pytorch(name):
    assert _said(lambda: CALLS[name](minigrad)) == _said(lambda: CALLS[name](torch))


def test_what_is_not_built_says_so():
    F = minigrad.nn.functional
    for call in (lambda: F.grid_sample(minigrad.ones(1, 1, 2, 2), minigrad.zeros(1, 2, 2, 2),
                                       mode="bicubic", align_corners=False),
                 lambda: F.grid_sample(minigrad.ones(1, 1, 2, 2, 2), minigrad.zeros(1, 2, 2, 2, 3),
                                       align_corners=False),
                 lambda: F.affine_grid(minigrad.ones(1, 3, 4), (1, 1, 2, 2, 2),
                                       align_corners=False)):
        with pytest.raises(NotImplementedError, match="not built"):
            call()
    x = minigrad.ones(1, 1, 2, 2, requires_grad=True)
    y = F.grid_sample(x, minigrad.zeros(1, 2, 2, 2, requires_grad=True), align_corners=False)
    with pytest.raises(NotImplementedError, match="second derivative of grid_sample"):
        minigrad.autograd.grad(y.sum(), x, create_graph=True)


def _spatial_transformer(t):
    """PyTorch's spatial transformer tutorial's localisation network, small: theta starts
    as the identity, the image is resampled, a linear classifier follows; three steps."""
    nn, F = t.nn, t.nn.functional
    t.manual_seed(0)
    localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2),
                                 nn.ReLU(True))
    fc_loc = nn.Sequential(nn.Linear(4 * 3 * 3, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
    fc_loc[2].weight.data.zero_()
    fc_loc[2].bias.data.copy_(t.tensor([1, 0, 0, 0, 1, 0], dtype=t.float))
    head = nn.Linear(8 * 8, 3)
    params = [*localization.parameters(), *fc_loc.parameters(), *head.parameters()]
    opt = t.optim.SGD(params, lr=0.1)
    x = t.rand(4, 1, 8, 8)
    target = t.tensor([0, 1, 2, 1])
    losses = []
    for _ in range(3):
        theta = fc_loc(localization(x).view(-1, 4 * 3 * 3)).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        moved = F.grid_sample(x, grid, align_corners=False)
        loss = F.cross_entropy(head(moved.flatten(1)), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, fc_loc[2].weight.detach().numpy(), theta.detach().numpy()


def test_a_spatial_transformer_trains_as_pytorchs():
    mine, theirs = _spatial_transformer(minigrad), _spatial_transformer(torch)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-5)
    for a, b in zip(mine[1:], theirs[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def _affine_second_derivative(t):
    theta = t.tensor([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]],
                      [[1.2, 0.4, -0.3], [-0.1, 0.8, 0.25]]], dtype=t.float64,
                     requires_grad=True)
    grid = t.nn.functional.affine_grid(theta, (2, 1, 3, 4), align_corners=False)
    first, = t.autograd.grad((grid ** 3).sum(), theta, create_graph=True)
    second, = t.autograd.grad(first.sum(), theta)
    return first, second


def test_affine_grid_second_derivative_as_pytorchs():
    """A recorded backward (create_graph=True) of affine_grid is a batched product with the
    constant base grid: its gradient and the gradient of that gradient are PyTorch's."""
    (first, second), (first_t, second_t) = (_affine_second_derivative(minigrad),
                                            _affine_second_derivative(torch))
    np.testing.assert_allclose(first.detach().numpy(), first_t.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(second.numpy(), second_t.numpy(), rtol=1e-12)
    assert first.grad_fn.name() == first_t.grad_fn.name()


@pytest.mark.parametrize("size", [(3, 1, 28, 28), (2, 3, 5, 7), (1, 1, 1, 4), (2, 1, 2, 1),
                                  (1, 2, 33, 17)])
@pytest.mark.parametrize("align", [False, True])
def test_affine_grid_values_are_pytorchs_bits(size, align):
    """affine_grid's float32 grid bit for bit: PyTorch's linspace_from_neg_one (its
    linspace, then * (n - 1) / n in two roundings) and its bmm's three products added in
    order (an ulp of the grid moved grid_sample's output in the 5th digit, the spatial
    transformer tutorial's second batch)."""
    rng = np.random.default_rng(sum(size) + align)
    theta = (np.tile(np.eye(2, 3), (size[0], 1, 1))
             + rng.normal(0, 0.3, (size[0], 2, 3))).astype(np.float32)
    mine = minigrad.nn.functional.affine_grid(minigrad.tensor(theta), size, align_corners=align)
    theirs = torch.nn.functional.affine_grid(torch.tensor(theta), size, align_corners=align)
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
    image = rng.normal(size=size).astype(np.float32)
    sampled = [lib.nn.functional.grid_sample(lib.tensor(image), grid, align_corners=align)
               for lib, grid in ((minigrad, mine), (torch, theirs))]
    np.testing.assert_array_equal(sampled[0].numpy(), sampled[1].numpy())
