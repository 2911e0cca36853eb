"""Karpathy's "Let's build GPT" (``gpt_lecture.py``) run unchanged under PyTorch 2.13 and
under ``import minigrad as torch``: the same printed text, character for character.

That is the honest claim, measured: with ``manual_seed(1337)`` both libraries draw the
same batches (``randint``), the same weights (``Embedding``'s normal, ``Linear``'s
uniform, ``_init_weights``' normal_), the same dropout masks and the same samples
(``multinomial``), and every op on the way (``LayerNorm``, attention's ``bmm`` and
``softmax``, ``cross_entropy``, AdamW) has PyTorch's bits at these sizes, so the losses
agree to every printed decimal and the 200 generated characters are the same ones. A
last-bit difference anywhere would make the sampled text part ways after a few
characters; the test would then show where (the first differing line).

The nanoGPT-style model adds GELU, whose float32 last bits differ from PyTorch's in about
a third of the values (README): at its size the losses and the 60 sampled characters
still come out the same, measured on this kit's machine."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
import torch

import minigrad

import gpt_lecture


def printed(program, library) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        program(library)
    return out.getvalue()


def first_difference(mine: str, theirs: str) -> str:
    for number, (a, b) in enumerate(zip(mine.splitlines(), theirs.splitlines()), 1):
        if a != b:
            return f"line {number}:\n  minigrad: {a!r}\n  torch:    {b!r}"
    return f"lengths {len(mine)} and {len(theirs)}"


@pytest.mark.parametrize("program", [gpt_lecture.attention_trick, gpt_lecture.bigram,
                                     gpt_lecture.gpt, gpt_lecture.nanogpt_style],
                         ids=lambda p: p.__name__)
def test_lecture_prints_what_pytorch_prints(program):
    mine, theirs = printed(program, minigrad), printed(program, torch)
    assert mine == theirs, first_difference(mine, theirs)


def test_gpt_reports_what_the_lecture_reports():
    """What a learner reads off the run: the parameter count, four loss reports with
    falling losses, the model printed with its ModuleList, and 200 new characters."""
    text = printed(gpt_lecture.gpt, minigrad)
    assert text.startswith("0.028396 M parameters\n")
    losses = [float(v) for v in re.findall(r"train loss (\d+\.\d{4})", text)]
    assert len(losses) == 4 and losses[-1] < losses[0]
    assert "(0-3): 4 x Head(" in text and "'blocks.0.sa.heads.1.key.weight'" in text
    after_training = text.split("step 29: ", 1)[1].split("\n", 1)[1]
    assert len(after_training) == 1 + 200 + 1  # (the context's "\n", 200 new, print's "\n")
