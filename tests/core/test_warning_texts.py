"""The warnings a lesson shows have PyTorch 2.13's exact text (learners search for them)."""

import warnings

import minigrad
import pytest
import torch


def caught(lib, program) -> list[str]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        program(lib)
    return [str(w.message) for w in seen]


def non_leaf_grad(lib):
    x = lib.ones(2, requires_grad=True)
    h = x * 2
    h.sum().backward()
    assert h.grad is None


def gradcheck_in_float32(lib):
    x = lib.ones(2, requires_grad=True)
    w = lib.ones(3, dtype=lib.float64)
    v = lib.ones(3, requires_grad=True)
    lib.autograd.gradcheck(lambda a, b, c: (a.sum() + (b * c).sum()), (x, w, v), atol=0.1,
                           rtol=0.1)


@pytest.mark.parametrize("program", [non_leaf_grad, gradcheck_in_float32])
def test_warning_texts_are_pytorchs(program):
    theirs = caught(torch, program)
    assert theirs and caught(minigrad, program) == theirs
