"""Helpers for testing minigrad.nn / minigrad.optim against torch.nn / torch.optim:
build a module in both libraries with the *same* weights, and compare tensors."""

from __future__ import annotations

import numpy as np
import torch

import minigrad as mg

FLOAT32 = dict(rtol=1e-5, atol=1e-6)
FLOAT64 = dict(rtol=1e-10, atol=1e-12)


def rand(shape, seed=0, dtype="float32", low=-2.0, high=2.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(low, high, size=shape).astype(dtype)


def as_numpy(t) -> np.ndarray:
    return np.array(t.detach().numpy())


def twins(array, requires_grad=False):
    """The same values as a minigrad tensor and a torch tensor."""
    array = np.asarray(array)
    return (mg.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def close(mine, theirs, **tolerance) -> None:
    """Same shape, same values (and both None, or both not)."""
    assert (mine is None) == (theirs is None), (mine, theirs)
    if mine is None:
        return
    assert tuple(mine.shape) == tuple(theirs.shape), (mine.shape, theirs.shape)
    np.testing.assert_allclose(as_numpy(mine), as_numpy(theirs), **(tolerance or FLOAT32))


def copy_weights(mine: mg.nn.Module, theirs: torch.nn.Module) -> None:
    """Give the torch module minigrad's initial weights (by state_dict key; keys must match)."""
    ours = mine.state_dict()
    assert list(ours) == list(theirs.state_dict()), (list(ours), list(theirs.state_dict()))
    theirs.load_state_dict({k: torch.tensor(as_numpy(v)) for k, v in ours.items()})


def same_grads(mine: mg.nn.Module, theirs: torch.nn.Module, **tolerance) -> None:
    for (name, p), (name_t, p_t) in zip(mine.named_parameters(), theirs.named_parameters(),
                                        strict=True):
        assert name == name_t
        close(p.grad, p_t.grad, **tolerance)


def raised(fn) -> tuple[type, str]:
    """(exception type, message) of what ``fn()`` raises."""
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - we compare whatever was raised
        return type(error), str(error)
    raise AssertionError(f"{fn} raised nothing")


def bits_share(mine, theirs) -> float:
    """The share of elements of two tensors (minigrad's, torch's) with the same bits."""
    return float((np.asarray(mine.detach().numpy()) == np.asarray(theirs.detach().numpy())).mean())


def printed_losses(model, optimizer, loss_fn, x, y, steps: int) -> list[str]:
    """``steps`` steps of a training loop; each step's loss as a program prints it (4
    decimals)."""
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(f"{loss.item():.4f}")
    return losses
