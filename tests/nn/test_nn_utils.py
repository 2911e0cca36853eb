"""torch.nn.utils' gradient clipping and parameter vectors against torch."""

from __future__ import annotations

import re
import warnings

import numpy as np
import torch

import minigrad as mg


def _clipped(lib):
    nn = lib.nn
    lib.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    out = []
    x = lib.randn(16, 4) * 5
    for norm_type, max_norm in [(2.0, 0.5), (1, 0.1), (float("inf"), 0.05), (2, 100.0)]:
        net.zero_grad()
        net(x).pow(2).sum().backward()
        total = nn.utils.clip_grad_norm_(net.parameters(), max_norm, norm_type=norm_type)
        out += [repr(total), repr(net[0].weight.grad[0]), repr(net[2].bias.grad)]
    net.zero_grad()
    net(x).pow(2).sum().backward()
    nn.utils.clip_grad_value_(net.parameters(), 0.3)
    out.append(repr(net[0].weight.grad[:2]))
    vector = nn.utils.parameters_to_vector(net.parameters())
    out += [repr(vector.shape), repr(vector[:5]), type(vector.grad_fn).__name__]
    nn.utils.vector_to_parameters(vector * 2, net.parameters())
    out.append(repr(net[2].bias))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.utils.clip_grad_norm_((p for p in []), 1.0)
        nn.utils.clip_grad_norm(net.parameters(), 1.0)
    out.append(repr([str(w.message) for w in caught]))
    net[0].weight.grad[0, 0] = float("nan")
    try:
        nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
    except RuntimeError as error:
        out.append(str(error))
    out.append(repr(nn.utils.clip_grad_norm_([], 1.0)))
    return "\n".join(out)


def test_clip_grad_and_parameter_vectors_match_torch():
    """The same text; the numbers to float32 precision (minigrad's ``norm`` adds up in
    another order than torch's ``vector_norm``, so the last digit may differ)."""
    number = re.compile(r"-?\d+\.\d+(?:e[-+]\d+)?")
    ours, theirs = _clipped(mg), _clipped(torch)
    assert number.sub("#", ours) == number.sub("#", theirs)
    np.testing.assert_allclose([float(n) for n in number.findall(ours)],
                               [float(n) for n in number.findall(theirs)], rtol=2e-4, atol=1e-4)
