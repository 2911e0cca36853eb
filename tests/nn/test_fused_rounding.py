"""float32 ``a + alpha * b`` rounded once, as PyTorch's CPU kernels compute it with a fused
multiply-add: ``add``/``sub``/``rsub`` with ``alpha``, ``add_`` (an SGD step), and the
optimisers' ``lerp_`` and ``addcmul_`` (their ``addcdiv_`` rounds the quotient first).
After a cancellation the second rounding of NumPy's ``a + (alpha * b)`` shows in the
printed digits. Compared with PyTorch 2.13 bit for bit (ops.arithmetic.plus_times)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad.kernels.arithmetic import FUSED_LIMIT


def _data(size, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(size) * rng.choice([1.0, 1e3, 1e-3], size)).astype(np.float32)


OPS = {  # (a number times alpha: torch's vector loop fuses it, its scalar tail does not)
    "add": lambda lib, a, b, alpha: lib.add(a, b, alpha=alpha),
    "sub": lambda lib, a, b, alpha: a.sub(b, alpha=alpha),
    "add_": lambda lib, a, b, alpha: a.clone().add_(b, alpha=alpha),
    "sub_": lambda lib, a, b, alpha: a.clone().sub_(b, alpha=alpha),
}


@pytest.mark.parametrize("alpha", [-0.1, 0.3, 2.5, -1e-3, 3])
@pytest.mark.parametrize("size", [1, 7, 8, 17, 1000, FUSED_LIMIT - 1])
@pytest.mark.parametrize("op", list(OPS))
def test_float32_with_alpha_is_rounded_once(op, size, alpha):
    a, b = _data(size, 1), _data(size, 2)
    ours = OPS[op](mg, mg.tensor(a), mg.tensor(b), alpha).numpy()
    theirs = OPS[op](torch, torch.tensor(a), torch.tensor(b), alpha).numpy()
    assert ours.tobytes() == theirs.tobytes()


def test_a_cancellation_shows_the_single_rounding():
    """p - lr * g where lr * g is nearly p: the digits a learner prints."""
    p, g = np.float32([0.001, 123.5]), np.float32([0.0099999, 1234.9999])
    ours = mg.tensor(p).add(mg.tensor(g), alpha=-0.1)
    theirs = torch.tensor(p).add(torch.tensor(g), alpha=-0.1)
    assert repr(ours) == repr(theirs)
    assert ours.numpy().tobytes() == theirs.numpy().tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_big_arrays_are_rounded_twice(dtype):
    """(See plus_times: the product's rounding error, at most half an ulp of alpha * b,
    comes on top of the sum's; float64 below FUSED_LIMIT is fused exactly, so torch's
    bits: tests/core/ops/test_arithmetic.py.)"""
    size = FUSED_LIMIT
    a, b = _data(size, 3).astype(dtype), _data(size, 4).astype(dtype)
    ours = mg.tensor(a).add(mg.tensor(b), alpha=-0.1).numpy()
    theirs = torch.tensor(a).add(torch.tensor(b), alpha=-0.1).numpy()
    product = np.abs(b * b.dtype.type(-0.1))
    assert np.all(np.abs(ours - theirs) <= np.spacing(product) + np.spacing(np.abs(theirs)))
    assert (ours != theirs).any()  # (what the fused path is there for)


SGD = {
    "plain": dict(lr=0.1),
    "momentum": dict(lr=0.1, momentum=0.9),
    "nesterov": dict(lr=0.1, momentum=0.9, nesterov=True),
    "weight decay, dampening": dict(lr=0.1, momentum=0.5, weight_decay=0.01, dampening=0.1),
}


@pytest.mark.parametrize("options", list(SGD))
def test_sgd_steps_are_torchs_bit_for_bit(options):
    def run(lib):
        w = lib.tensor([[0.001, 123.5], [-7.75, 2.0]], requires_grad=True)
        b = lib.tensor([3.0, -1.25], requires_grad=True)
        optimizer = lib.optim.SGD([w, b], **SGD[options])
        out = []
        for _ in range(5):
            optimizer.zero_grad()
            ((w @ lib.tensor([1.0, -2.0]) + b) ** 2).sum().backward()
            optimizer.step()
            out += [w.detach().numpy().tobytes(), b.detach().numpy().tobytes(), repr(w)]
        return out
    assert run(mg) == run(torch)


OTHERS = {
    "Adam": ("Adam", {}), "Adam, beta1 0.3": ("Adam", {"betas": (0.3, 0.999)}),
    "AdamW": ("AdamW", {}), "RMSprop": ("RMSprop", {}),
    "RMSprop centered": ("RMSprop", {"centered": True}), "Adagrad": ("Adagrad", {}),
}


@pytest.mark.parametrize("name", list(OTHERS))
def test_the_first_step_of_each_optimiser_keeps_torchs_buffers(name):
    """lerp_ (Adam's first moment, RMSprop's centred average) and addcmul_ (the second
    moments, Adagrad's sum) bit for bit after one step; the parameters within an ulp or
    two (their square roots come from PyTorch's vectorised kernel, SLEEF's on AVX-512)."""
    kind, options = OTHERS[name]
    g = _data(40, 5)

    def run(lib):
        w = lib.tensor(_data(40, 6), requires_grad=True)
        optimizer = getattr(lib.optim, kind)([w], lr=0.01, **options)
        w.grad = lib.tensor(g)
        optimizer.step()
        state = optimizer.state[w]
        buffers = {key: value.numpy().tobytes() for key, value in state.items()
                   if key != "step" and isinstance(value, lib.Tensor)}
        return buffers, w.detach().numpy().copy()
    (ours, our_w), (theirs, their_w) = run(mg), run(torch)
    assert ours == theirs
    np.testing.assert_array_max_ulp(our_w, their_w, maxulp=2)


@pytest.mark.parametrize("shapes", [((3, 1), (1, 40)), ((1, 40), (3, 1)), ((40,), (3, 40))])
def test_broadcast_operands(shapes):
    a, b = _data(shapes[0], 7), _data(shapes[1], 8)
    ours = mg.tensor(a).add(mg.tensor(b), alpha=0.3).numpy()
    theirs = torch.tensor(a).add(torch.tensor(b), alpha=0.3).numpy()
    assert ours.tobytes() == theirs.tobytes()
