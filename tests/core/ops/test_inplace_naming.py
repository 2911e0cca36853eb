"""Which saved tensor the in-place modification error names when several saved
tensors of one node were changed: torch's generated nodes unpack their saved
inputs, then their saved outputs, each group in the order of the names, and
fail at the first changed one. Each program saves tensors of different shapes
(views of one base), changes them all in place, and compares the error with
torch's."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from torch_compare import outcome

F = {mg: mg.nn.functional, torch: torch.nn.functional}


def views(lib, a):
    """x = a * 1 and its views of shapes (2, 3), (3,), (3, 4), (2, 3, 4), (4,)."""
    x = a * 1
    return x, x[:6].view(2, 3), x[6:9], x[:12].view(3, 4), x[:24].view(2, 3, 4), x[8:12]


def changed(op, *order):
    """``op(lib, views...)``, then its saved values changed in place in ``order``:
    "inputs" (through their base) and "result"; then backward."""
    def program(lib, a):
        x, *rest = views(lib, a)
        out = op(lib, *rest)
        for what in order:
            if what == "inputs":
                x.add_(1)
            else:
                out.mul_(2)
        out.sum().backward()
    return program


def changed_inputs(op):
    """Its saved inputs all changed."""
    return changed(op, "inputs")


def changed_inputs_and_result(op):
    """Saved inputs and the saved result all changed."""
    return changed(op, "inputs", "result")


def changed_result_then_inputs(op):
    """As above, the result changed first (the order of changes does not matter)."""
    return changed(op, "result", "inputs")


PROGRAMS = {
    "mul": changed_inputs(lambda lib, m, v, *_: m * v),
    "mul, other first": changed_inputs(lambda lib, m, v, *_: v * m),
    "div": changed_inputs(lambda lib, m, v, *_: m / v),
    "div by a 0-dim view": changed_inputs(lambda lib, m, v, *_: v / v[0]),
    "pow(tensor, tensor)": changed_inputs(lambda lib, m, v, *_: m ** v),
    "pow(tensor, tensor), result too": changed_inputs_and_result(lambda lib, m, v, *_: m ** v),
    "pow(number, tensor), result too": changed_inputs_and_result(lambda lib, m, v, *_: 2 ** v),
    "cumprod, result too": changed_inputs_and_result(lambda lib, m, *_: m.cumprod(1)),
    "prod, result too": changed_result_then_inputs(lambda lib, m, *_: m.prod()),
    "prod(dim), result too": changed_inputs_and_result(lambda lib, m, *_: m.prod(1)),
    "max(), result too": changed_inputs_and_result(lambda lib, m, *_: m.max()),
    "min(), result too": changed_inputs_and_result(lambda lib, m, *_: m.min()),
    "std(dim), result too": changed_inputs_and_result(lambda lib, m, *_: m.std(1)),
    "norm(), result too": changed_inputs_and_result(lambda lib, m, *_: m.norm()),
    "logsumexp, result too": changed_inputs_and_result(lambda lib, m, *_: m.logsumexp(1)),
    "mm": changed_inputs(lambda lib, m, v, w, *_: m.mm(w)),
    "matmul 2-D": changed_inputs(lambda lib, m, v, w, *_: m @ w),
    "linear": changed_inputs(lambda lib, m, v, w, c, r: F[lib].linear(m, w.t(), r)),
    "mv": changed_inputs(lambda lib, m, v, *_: m.mv(v)),
    "dot": changed_inputs(lambda lib, m, v, w, c, r: v.dot(r[:3])),
    "bmm": changed_inputs(lambda lib, m, v, w, c, r: c.transpose(1, 2).bmm(c)),
    "maximum": changed_inputs(lambda lib, m, v, *_: lib.maximum(m, v)),
    "minimum": changed_inputs(lambda lib, m, v, *_: lib.minimum(v, m)),
    "clamp(min=, max=)": changed_inputs(lambda lib, m, v, *_: lib.clamp(m, v[:1], v)),
    "nll_loss with weight": changed_inputs(
        lambda lib, m, v, *_: F[lib].nll_loss(m, lib.tensor([0, 2]), weight=v.detach())),
    "mse_loss": changed_inputs(lambda lib, m, v, *_: F[lib].mse_loss(m, v.expand(2, 3))),
    "binary_cross_entropy_with_logits": changed_inputs(
        lambda lib, m, v, *_: F[lib].binary_cross_entropy_with_logits(m, v.expand(2, 3))),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_first_changed_saved_tensor_in_torchs_unpack_order_is_named(name):
    program = PROGRAMS[name]
    base = np.linspace(0.1, 0.9, 24, dtype=np.float32)

    def run(lib):
        return program(lib, lib.tensor(base.copy(), requires_grad=True))

    theirs = outcome(run, torch)
    assert theirs[0] == "error", theirs
    assert outcome(run, mg) == theirs
