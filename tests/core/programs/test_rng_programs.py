"""Random programs of session 14's three tiers (``rng_programs.py``), run under PyTorch 2.13
and minigrad and compared step by step:

- ``draws``: seeded random numbers (manual_seed and Generators; rand, randn, randint,
  randperm, the ``*_like`` draws, normal's overloads, the in-place distributions,
  bernoulli, multinomial, poisson, dropout in training, nn.init, distributions' samples,
  gumbel_softmax, rrelu; sizes on both sides of PyTorch's vectorised paths; rng state
  round trips, fork_rng, a shuffling DataLoader, random_split, the samplers): bit for bit,
  and the global generator's next draw after each program too;
- ``optim``: every optimiser with its options, param groups added mid-run, state_dict round
  trips, the lr schedulers with get_last_lr after each step, clipping: everything but float
  values exactly, float values to 1e-5 (PyTorch's float32 ``sqrt`` is MKL's, which rounds
  about 16 % of values otherwise than the correctly rounded one minigrad computes);
- ``late``: histogram, pdist, CTCLoss, the linalg.lu family, register_multi_grad_hook,
  jit.script/trace, Tensor.storage() (LAPACK's results, pdist's other p and jit's
  compositions to 1e-6: the README's known differences).

Of the seeds run by hand in session 14 (draws 0-2,400, optim 0-100, late 0-600), the first
scans parted on: multinomial's order of tied keys, randperm's checks on small dtypes,
gumbel_softmax (missing), Adagrad's state for a group added mid-run, centered RMSprop's
fused denominator, TypedStorage's data_ptr/nbytes/element_size, histogram's grain size,
float64 softmax's lanes and softmax's gradients (all fixed); what is left is in the README.
"""

from __future__ import annotations

import pytest

from rng_programs import one_rng_program

BLOCKS = [("draws", 0, 250), ("optim", 0, 50), ("late", 0, 100)]


@pytest.mark.parametrize("tier, start, stop", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_rng_programs_agree_with_torch(tier, start, stop):
    parted = {seed: problems for seed in range(start, stop)
              if (problems := one_rng_program(seed, tier))}
    assert parted == {}


def test_most_optimiser_programs_agree_bit_for_bit():
    """Without the tolerance: the programs whose optimisers take no float32 sqrt (SGD,
    Adamax, Rprop, ASGD, schedulers on SGD, clipping) agree bit for bit: 31 of these 50."""
    exact = [seed for seed in range(50) if not one_rng_program(seed, "optim", exact=True)]
    assert len(exact) >= 25, exact  # (31 of 50 on the AVX-512 machine of session 14)
