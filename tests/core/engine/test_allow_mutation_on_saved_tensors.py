"""autograd/mutation.py against PyTorch 2.13: ``torch.autograd.graph.allow_mutation_on_saved_tensors``.
Inside it a tensor saved for backward (an input, an output, a view of either) may be changed
in place, once or several times, and backward reads the value it had when saved; outside it
the same program fails with the in-place error; backward after the block and nested blocks
give PyTorch's errors. Each program prints the same text and ends with the same gradients."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from torch_compare import outcome


def docstring(lib):
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        a = lib.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        shown = repr(b.sin_())
        out.sum().backward()
    return shown, a.grad


def saved_output_changed_twice(lib):
    with lib.autograd.graph.allow_mutation_on_saved_tensors() as context:
        a = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        e = a.exp()
        y = (e * a).sum()
        e.mul_(3)
        e.add_(1)
        y.backward()
        kept = type(context).__name__
    return kept, e, a.grad


def view_changed(lib):
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        a = lib.arange(6.).reshape(2, 3).requires_grad_()
        b = a * 1
        y = (b.tanh() * b).sum()
        b[0].zero_()
        b.t()[1].fill_(7)
        y.backward()
    return b, a.grad


def saved_twice_then_changed(lib):
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        w = lib.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        h = w + 1
        y = (h @ h).sum() + (h * h).sum()
        h.sub_(5)
        z = (h * h).sum()  # (saved again after the change: its new value)
        (y + z).backward()
    return w.grad


def transposed_in_place(lib):
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        a = lib.arange(6.).reshape(2, 3).requires_grad_()
        b = a.clone()
        out = (b ** 3).sum()
        b.t_()
        b.unsqueeze_(0)
        out.backward()
    return b.shape, a.grad


def changed_after_backward(lib):
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        a = lib.tensor([1., 2.], requires_grad=True).clone()
        out = (a**2).sum()
        out.backward()
        a.sin_()
    return a


def outside_the_block(lib):
    a = lib.ones(3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    b.sin_()
    out.backward()


def backward_after_the_block(lib):
    a = lib.ones(3, requires_grad=True)
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        b = a.clone()
        out = (b**2).sum()
        b.sin_()
    out.backward()


def nested(lib):
    with lib.autograd.graph.allow_mutation_on_saved_tensors():
        with lib.autograd.graph.allow_mutation_on_saved_tensors():
            pass


PROGRAMS = [docstring, saved_output_changed_twice, view_changed, saved_twice_then_changed,
            transposed_in_place,
            changed_after_backward, outside_the_block, backward_after_the_block, nested]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_program_as_torch(program):
    assert outcome(program, mg) == outcome(program, torch)


def test_the_block_leaves_saving_as_it_was():
    """After the block (even one that failed) tensors are saved and checked as before."""
    for lib in (mg, torch):
        with pytest.raises(RuntimeError):
            nested(lib)
    assert outcome(outside_the_block, mg) == outcome(outside_the_block, torch)
