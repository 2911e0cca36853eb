"""The losses' dtype rules against PyTorch 2.13: integer or bool inputs refused with
PyTorch's own texts (the kernel named by its dispatch, ``"mse_cpu" not implemented for
'Long'``), integer class labels given to ``BCEWithLogitsLoss`` or ``BCELoss`` (a beginner's
most common slip: PyTorch refuses them, so must minigrad), and the mixes PyTorch accepts."""

from __future__ import annotations

import warnings

import pytest
import torch

import minigrad as mg

LOSSES = [
    "F.mse_loss(i, i)", "F.mse_loss(b, b)", "F.mse_loss(i, a)", "F.mse_loss(a, d)",
    "F.smooth_l1_loss(i, i)", "F.smooth_l1_loss(b, a)", "F.huber_loss(i, i)",
    "F.huber_loss(b, b)", "F.huber_loss(i, a)", "F.huber_loss(a, i)",
    "F.binary_cross_entropy_with_logits(a, i)", "F.binary_cross_entropy_with_logits(a, b)",
    "F.binary_cross_entropy_with_logits(i, a)", "F.binary_cross_entropy_with_logits(b, a)",
    "F.binary_cross_entropy_with_logits(i, i)", "nn.BCEWithLogitsLoss()(a, i)",
    "F.binary_cross_entropy(a, i)", "F.binary_cross_entropy(a, b)", "F.binary_cross_entropy(a, d)",
    "F.binary_cross_entropy(d, a)", "F.binary_cross_entropy(i, i)", "nn.BCELoss()(a, i)",
    "F.kl_div(a, b)", "F.kl_div(i, a)", "F.kl_div(a, d)", "F.cosine_similarity(i, a, dim=0)",
    "F.cosine_similarity(b, b, dim=0)", "F.cosine_similarity(i, i, dim=0)",
    "F.soft_margin_loss(i, i)", "F.soft_margin_loss(a, i)", "F.l1_loss(a, d)",
    "torch.cdist(i[None], a[None])", "torch.cdist(a[None], i[None])",
    "torch.cdist(a[None], d[None])", "torch.cdist(d[None], a[None], p=1)",
    "torch.cdist(torch.ones(30, 2), torch.ones(30, 2, dtype=torch.float64))",
    "torch.cdist(a[None], torch.ones(1, 3))", "torch.cdist(a, a[None])",
    "torch.cdist(a[None], a[None], p=-1)",
    # (session 13: a class weight of another dtype than the input: torch's kernels read it
    # as the input's and refuse it; binary_cross_entropy multiplies it in place, keeping
    # the input's dtype; multi_margin's kernel refuses a half before it reads the weight)
    "F.nll_loss(m.log_softmax(1), c, weight=wd)", "F.nll_loss(m.double(), c, weight=w)",
    "F.cross_entropy(m.half(), c, weight=w)", "F.cross_entropy(m, c, weight=w.half())",
    "F.cross_entropy(m[None].permute(0, 2, 1), c[None], weight=wd)",
    "F.cross_entropy(m, m.softmax(1), weight=wd)", "F.nll_loss(m, c + 9, weight=wd)",
    "F.multi_margin_loss(m.half(), c, weight=wd)", "F.multi_margin_loss(m, c.float(), weight=wd)",
    "F.multi_margin_loss(m, c, weight=wd)", "F.binary_cross_entropy(m.sigmoid(), m.sigmoid(), weight=wd)",
    "F.binary_cross_entropy(m.sigmoid().half(), m.sigmoid().half(), weight=w, reduction='none')",
    "F.binary_cross_entropy_with_logits(m, m, pos_weight=wd)",
    # (float16 losses as torch computes them: huber's in float, rounded once)
    "F.huber_loss(m.half() * 3, m.half().flip(1), delta=0.5, reduction='none')",
    "F.huber_loss(m.half() * 3, m.half().flip(0), reduction='sum')",
    "F.smooth_l1_loss(m.half() * 3, m.half().flip(1), beta=0.5, reduction='none')",
]


def _outcome(expression: str, lib):
    names = {"torch": lib, "F": lib.nn.functional, "nn": lib.nn,
             "a": lib.tensor([0.3, 0.6]), "i": lib.tensor([1, 0]),
             "b": lib.tensor([True, False]), "d": lib.tensor([0.3, 0.6], dtype=lib.float64),
             "m": lib.tensor([[0.3, -1.2, 2.5, 0.7], [1.1, 0.4, -0.9, -2.2], [0.05, 1.7, -0.6, 0.2]]),
             "c": lib.tensor([0, 3, 1]), "w": lib.tensor([0.5, 1.0, 2.0, 0.25]),
             "wd": lib.tensor([0.5, 1.0, 2.0, 0.25], dtype=lib.float64)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = eval(expression, names)  # noqa: S307 - the test's own expressions
        except Exception as error:  # noqa: BLE001 - compared
            return type(error).__name__, str(error)
    return "result", repr(result).replace("minigrad", "torch")


@pytest.mark.parametrize("expression", LOSSES)
def test_loss_dtypes_are_torchs(expression):
    assert _outcome(expression, mg) == _outcome(expression, torch)
