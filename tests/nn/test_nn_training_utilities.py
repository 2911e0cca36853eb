"""Training utilities against torch: nn.utils.parametrize (PyTorch's parametrizations
tutorial, its printouts), parametrizations.weight_norm / spectral_norm and the older
nn.utils.weight_norm (state_dict keys, printed modules, node names, values and
gradients; torch._weight_norm against finite differences), torch.utils.checkpoint both
ways (the forward run again in backward, gradients and dropout masks as without it),
Tensor.register_post_accumulate_grad_hook; and a weight-normed MLP trained by both
libraries, its printed losses compared."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, printed_losses
from tests.core.support.torch_compare import (check, check_double_backward, check_error,
                                              check_numerical, rand)

# ---- the parametrizations tutorial (pytorch/tutorials intermediate_source/parametrizations.py)

TUTORIAL = '''
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize
torch.manual_seed(0)

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
assert torch.allclose(A, A.T)
print(A)

class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)

cnn = nn.Conv2d(in_channels=5, out_channels=8, kernel_size=3)
parametrize.register_parametrization(cnn, "weight", Skew())
print(cnn.weight[0, 1])
print(cnn.weight[2, 2])

layer = nn.Linear(3, 3)
print(f"Unparametrized:\\n{layer}")
parametrize.register_parametrization(layer, "weight", Symmetric())
print(f"\\nParametrized:\\n{layer}")
print(layer.parametrizations)
print(layer.parametrizations.weight)
print(layer.parametrizations.weight[0])
print(dict(layer.named_parameters()))
print(layer.parametrizations.weight.original)
symmetric = Symmetric()
weight_orig = layer.parametrizations.weight.original
print(torch.dist(layer.weight, symmetric(weight_orig)))

class NoisyParametrization(nn.Module):
    def forward(self, X):
        print("Computing the Parametrization")
        return X

layer = nn.Linear(4, 4)
parametrize.register_parametrization(layer, "weight", NoisyParametrization())
print("Here, layer.weight is recomputed every time we call it")
foo = layer.weight + layer.weight.T
bar = layer.weight.sum()
with parametrize.cached():
    print("Here, it is computed just the first time layer.weight is called")
    foo = layer.weight + layer.weight.T
    bar = layer.weight.sum()

class CayleyMap(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("Id", torch.eye(n))

    def forward(self, X):
        return torch.linalg.solve(self.Id - X, self.Id + X)

layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Skew())
parametrize.register_parametrization(layer, "weight", CayleyMap(3))
X = layer.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)

class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu(1)

layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Skew())
X = torch.rand(3, 3)
X = X - X.T
layer.weight = X
print(torch.dist(layer.weight, X))

class PruningParametrization(nn.Module):
    def __init__(self, X, p_drop=0.2):
        super().__init__()
        mask = torch.full_like(X, 1.0 - p_drop)
        self.mask = torch.bernoulli(mask)

    def forward(self, X):
        return X * self.mask

    def right_inverse(self, A):
        return A

layer = nn.Linear(3, 4)
X = torch.rand_like(layer.weight)
print(f"Initialization matrix:\\n{X}")
parametrize.register_parametrization(layer, "weight", PruningParametrization(layer.weight))
layer.weight = X
print(f"\\nInitialized weight:\\n{layer.weight}")

for leave_parametrized in (True, False):  # (the tutorial's last two cells, one loop)
    layer = nn.Linear(3, 3)
    print("Before:")
    print(layer)
    print(layer.weight)
    parametrize.register_parametrization(layer, "weight", Skew())
    print("\\nParametrized:")
    print(layer)
    print(layer.weight)
    parametrize.remove_parametrizations(layer, "weight", leave_parametrized=leave_parametrized)
    print("\\nAfter:")
    print(layer)
    print(layer.weight)
'''


def _run(source: str, library: str) -> str:
    """``source`` run in a fresh interpreter, ``torch`` being ``library``."""
    prelude = "" if library == "torch" else (
        "import sys, minigrad\nsys.modules['torch'] = minigrad\n"
        "sys.modules['torch.nn'] = minigrad.nn\n"
        "sys.modules['torch.nn.utils'] = minigrad.nn.utils\n"
        "sys.modules['torch.nn.utils.parametrize'] = minigrad.nn.utils.parametrize\n")
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(source)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_parametrizations_tutorial_prints_as_torch():
    assert _run(TUTORIAL, "minigrad") == _run(TUTORIAL, "torch")


# ---- weight_norm, spectral_norm -----------------------------------------------------

WEIGHT_NORM = {  # name: (function, inputs)
    "dim 0": (lambda lib, v, g: lib._weight_norm(v, g, 0), (rand((4, 3)), rand((4, 1), seed=1))),
    "last dim": (lambda lib, v, g: lib._weight_norm(v, g, 1),
                 (rand((4, 3)), rand((1, 3), seed=1))),
    "conv dim 0": (lambda lib, v, g: lib._weight_norm(v, g, 0),
                   (rand((3, 2, 3, 3)), rand((3, 1, 1, 1), seed=1))),
    "middle dim": (lambda lib, v, g: lib._weight_norm(v, g, 1),
                   (rand((3, 2, 3, 3)), rand((1, 2, 1, 1), seed=1))),
    "whole": (lambda lib, v, g: lib._weight_norm(v, g, -1), (rand((3, 4)), rand((), seed=1))),
    "norm_except_dim": (lambda lib, v, g: lib.norm_except_dim(v, 2, 1) * g.sum(),
                        (rand((3, 2, 3)), rand((2,), seed=1))),
}


@pytest.mark.parametrize("name", list(WEIGHT_NORM))
def test_weight_norm_op_as_torch(name):
    fn, arrays = WEIGHT_NORM[name]
    check(fn, *arrays, rtol=1e-5, atol=1e-6)
    check_numerical(lambda v, g: fn(mg, v, g), *arrays)


@pytest.mark.parametrize("name", ["dim 0", "last dim", "middle dim"])
def test_weight_norm_second_derivatives_as_torch(name):
    """PyTorch's fused node (first or last dim) does not differentiate its saved norms
    (result1), so its second derivatives are not those of the formula: its own
    gradgradcheck fails, and minigrad's values are PyTorch's. The composition (a middle
    dim) is exact."""
    fn, arrays = WEIGHT_NORM[name]
    arrays = [a.astype(np.float64) for a in arrays]
    check_double_backward(fn, *arrays, numerical=name == "middle dim")
    if name != "middle dim":
        inputs = [torch.tensor(a, requires_grad=True) for a in arrays]
        assert not torch.autograd.gradgradcheck(lambda v, g: fn(torch, v, g), inputs,
                                                raise_exception=False)


def test_weight_norm_node_saves_as_torch():
    saved = []
    for lib in (mg, torch):
        v = lib.tensor(rand((4, 3)), requires_grad=True)
        node = lib._weight_norm(v, lib.tensor(rand((4, 1))), 0).grad_fn
        saved.append((type(node).__name__, node._saved_dim, tuple(node._saved_result1.shape)))
    assert saved[0] == saved[1]


MODULES = [
    "P.weight_norm(nn.Linear(3, 4))",
    "P.weight_norm(nn.Conv2d(2, 3, 3), dim=1)",
    "P.weight_norm(nn.Linear(3, 4), dim=None)",
    "P.spectral_norm(nn.Linear(3, 4))",
    "P.spectral_norm(nn.Conv2d(2, 3, 3), n_power_iterations=3)",
    "P.spectral_norm(nn.ConvTranspose2d(2, 3, 3))",
    "nn.utils.weight_norm(nn.Linear(3, 4))",
    "nn.utils.weight_norm(nn.Conv1d(2, 3, 3), name='weight', dim=2)",
]


@pytest.mark.parametrize("source", MODULES)
def test_normed_modules_as_torch(source):
    """Printed form, state_dict keys and values after manual_seed, the weight's node, and
    a forward and backward."""
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            module = eval(source, {"nn": lib.nn, "P": lib.nn.utils.parametrizations})
        shape = (2, 3) if "Linear" in source else (2, 2, 5) if "1d" in source else (2, 2, 5, 5)
        x = lib.tensor(rand(shape, seed=3), requires_grad=True)
        y = module(x)
        (y * y).sum().backward()
        state = module.state_dict()
        outs.append((repr(module), list(state), type(module.weight.grad_fn).__name__,
                     [as_numpy(v) for v in state.values()], as_numpy(y), as_numpy(x.grad),
                     [as_numpy(p.grad) for p in module.parameters()]))
    ours, theirs = outs
    assert ours[:3] == theirs[:3]
    for a, b in zip(ours[3] + list(ours[4:6]) + ours[6], theirs[3] + list(theirs[4:6]) + theirs[6]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_remove_weight_norm_as_torch():
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = lib.nn.utils.weight_norm(lib.nn.Linear(3, 2))
        lib.nn.utils.remove_weight_norm(module)
        with pytest.raises(ValueError) as error:
            lib.nn.utils.remove_weight_norm(module)
        outs.append((repr(module), list(module.state_dict()), as_numpy(module.weight),
                     [str(w.message) for w in caught], str(error.value)))
    assert outs[0][:2] == outs[1][:2] and outs[0][3:] == outs[1][3:]
    np.testing.assert_allclose(outs[0][2], outs[1][2], rtol=1e-6)


def test_parametrize_errors_as_torch():
    def no_such_tensor(lib):
        lib.nn.utils.parametrize.register_parametrization(lib.nn.Linear(2, 2), "weights",
                                                          lib.nn.Identity())

    def changes_the_shape(lib):
        lib.nn.utils.parametrize.register_parametrization(lib.nn.Linear(2, 3), "weight",
                                                          lib.nn.Flatten(0))

    def not_parametrized(lib):
        lib.nn.utils.parametrize.remove_parametrizations(lib.nn.Linear(2, 2), "weight")

    for call in (no_such_tensor, changes_the_shape, not_parametrized):
        texts = []
        for lib in (mg, torch):
            with pytest.raises(ValueError) as error:
                call(lib)
            texts.append(str(error.value).replace("torch.", "").replace("minigrad.", ""))
        assert texts[0] == texts[1]


# ---- checkpoint ----------------------------------------------------------------------

def _checkpointed(lib, use_reentrant):
    """A block with dropout run through checkpoint: (output's node, the block's calls
    after forward and after backward, gradients)."""
    lib.manual_seed(0)
    block = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Dropout(0.3),
                              lib.nn.Linear(8, 4))
    calls = []

    def run(x):
        calls.append(1)
        return block(x)

    x = lib.tensor(rand((3, 4)), requires_grad=True)
    lib.manual_seed(1)
    y = lib.utils.checkpoint.checkpoint(run, x, use_reentrant=use_reentrant)
    after_forward = len(calls)
    (y * y).sum().backward()
    return (type(y.grad_fn).__name__, after_forward, len(calls), as_numpy(y), as_numpy(x.grad),
            [as_numpy(p.grad) for p in block.parameters()])


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_recomputes_and_gives_torchs_gradients(use_reentrant):
    ours, theirs = _checkpointed(mg, use_reentrant), _checkpointed(torch, use_reentrant)
    assert ours[:3] == theirs[:3]
    assert ours[1:3] == (1, 2)  # (run once in forward, once more in backward)
    for a, b in zip(ours[3:5] + tuple(ours[5]), theirs[3:5] + tuple(theirs[5])):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_checkpoint_warnings_and_errors_as_torch():
    outs = []
    for lib in (mg, torch):
        x = lib.ones(2, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = lib.utils.checkpoint.checkpoint(lambda a: a * 2, x)
            lib.utils.checkpoint.checkpoint(lambda a: a * 2, lib.ones(2), use_reentrant=True)
        with pytest.raises(ValueError) as error:
            lib.utils.checkpoint.checkpoint(lambda a, b=1: a * b, x, use_reentrant=True, b=2)
        z = lib.utils.checkpoint.checkpoint(lambda a, b=1: a * b, x, use_reentrant=False, b=3)
        outs.append((type(y.grad_fn).__name__, [str(w.message) for w in caught],
                     str(error.value), type(z.grad_fn).__name__, as_numpy(z)))
    assert outs[0][:4] == outs[1][:4]
    np.testing.assert_array_equal(outs[0][4], outs[1][4])


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_sequential_as_torch(use_reentrant):
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        nn = lib.nn
        model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(),
                              nn.Linear(4, 2))
        x = lib.tensor(rand((3, 4)), requires_grad=True)
        y = lib.utils.checkpoint.checkpoint_sequential(model, 2, x, use_reentrant=use_reentrant)
        y.sum().backward()
        outs.append((type(y.grad_fn).__name__, as_numpy(y), as_numpy(model[0].weight.grad)))
    assert outs[0][0] == outs[1][0]
    for a, b in zip(outs[0][1:], outs[1][1:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# ---- post-accumulate-grad hooks -------------------------------------------------------

def _hooked(lib):
    seen = []
    x = lib.ones(2, requires_grad=True)
    handle = x.register_post_accumulate_grad_hook(
        lambda t: seen.append((as_numpy(t.grad).tolist(), lib.is_grad_enabled())))
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    lib.autograd.grad((x * 2).sum(), x)  # (not called by autograd.grad)
    handle.remove()
    (x * 3).sum().backward()
    x.register_post_accumulate_grad_hook(lambda t: 1)
    with pytest.raises(TypeError) as bad_return:
        (x * 3).sum().backward()
    errors = [str(bad_return.value)]
    for tensor in (x * 2, lib.ones(2)):
        with pytest.raises(RuntimeError) as error:
            tensor.register_post_accumulate_grad_hook(lambda t: None)
        errors.append(str(error.value))
    return seen, errors


def test_post_accumulate_grad_hooks_as_torch():
    assert _hooked(mg) == _hooked(torch)


def _returning(lib):
    """What a post-accumulate hook may return: its tensor itself (the docstring's SGD step,
    ``p.add_(p.grad, alpha=-lr)``), None; another tensor is handed to the next hook and
    then refused, one of another shape at once."""
    said = []
    for returns in (lambda p: p.add_(p.grad, alpha=-0.01), lambda p: p * 2,
                    lambda p: lib.ones(3), lambda p: p.double()):
        v = lib.tensor([0.0, 0.0], requires_grad=True)
        seen = []
        v.register_post_accumulate_grad_hook(returns)
        v.register_post_accumulate_grad_hook(lambda p: seen.append(repr(p)))
        try:
            v.backward(lib.tensor([1.0, 2.0]))
            said.append(repr(v))
        except (RuntimeError, TypeError) as error:
            said.append(f"{type(error).__name__}: {error}")
        said.append(seen)
    return said


def test_post_accumulate_grad_hooks_return_as_torch():
    assert _returning(mg) == _returning(torch)


def test_an_optimizer_stepped_in_the_hooks_trains_as_torch():
    """PyTorch's "fuse the optimizer step into backward" recipe: one SGD per parameter,
    stepped by its post-accumulate hook."""
    results = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        model = lib.nn.Linear(3, 2)
        optimizers = {p: lib.optim.SGD([p], lr=0.1) for p in model.parameters()}

        def step(p, optimizers=optimizers):
            optimizers[p].step()
            optimizers[p].zero_grad()

        for p in model.parameters():
            p.register_post_accumulate_grad_hook(step)
        x = lib.tensor(rand((5, 3)))
        for _ in range(3):
            model(x).pow(2).mean().backward()
        results.append([as_numpy(p) for p in model.parameters()])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-6)


# ---- a weight-normed MLP trained by both ------------------------------------------------

def _train_weight_normed(lib, steps: int = 12) -> list[str]:
    lib.manual_seed(0)
    nn, P = lib.nn, lib.nn.utils.parametrizations
    model = nn.Sequential(P.weight_norm(nn.Linear(4, 16)), nn.ReLU(),
                          P.weight_norm(nn.Linear(16, 16)), nn.ReLU(),
                          P.spectral_norm(nn.Linear(16, 3)))
    rng = np.random.default_rng(2)
    x = lib.tensor(rng.standard_normal((32, 4)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 3, 32))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
    return printed_losses(model, optimizer, nn.functional.cross_entropy, x, y, steps)


def test_a_weight_normed_mlp_trains_as_torch():
    ours, theirs = _train_weight_normed(mg), _train_weight_normed(torch)
    assert ours == theirs
    assert float(ours[-1]) < float(ours[0])


def test_weight_norm_errors_as_torch():
    check_error(lambda lib, v: lib.nn.utils.parametrizations.spectral_norm(
        lib.nn.Linear(2, 2), n_power_iterations=0), rand((1,)))
    check_error(lambda lib, v: lib.nn.utils.parametrizations.spectral_norm(
        lib.nn.Linear(2, 2), dim=3), rand((1,)))
