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


@pytest.mark.parametrize("program", [
    lambda L: L.ones(1).std(), lambda L: L.ones(3, 1).var(1), lambda L: L.ones(1, 2).std(0),
    lambda L: L.std_mean(L.ones(1)), lambda L: L.var_mean(L.ones(1), 0),
    lambda L: L.ones(1, requires_grad=True).var(), lambda L: L.cov(L.ones(2, 1)),
    lambda L: L.add(L.ones(2), 1, out=L.empty(1)), lambda L: L.sum(L.ones(2), 0, out=L.empty(3))])
def test_warnings_name_the_calling_line_as_torchs(program):
    """PyTorch's C++ warnings name the Python line that called in (its text and this
    file), however deep the kit's own calls are and whatever wraps its functions."""
    def seen(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            program(lib)
        return [(str(w.message).split(" (Triggered internally")[0], w.filename)
                for w in caught]
    assert seen(minigrad) == seen(torch)
