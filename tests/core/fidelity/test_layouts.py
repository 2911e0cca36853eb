"""``layout=``, ``pin_memory=``, ``memory_format=``, ``non_blocking=``: PyTorch's values
that mean "a dense tensor on the CPU" work, the others raise PyTorch's errors; compared
with PyTorch 2.13 call by call (result printed, or error type and text)."""

from __future__ import annotations

import pytest
import torch

import minigrad
from torch_compare import outcome as _outcome


def _a(lib):
    return lib.tensor([[1.0, -2.0, 0.5], [3.0, 0.25, 4.0]])


CALLS = {
    "zeros strided": lambda L: L.zeros(2, layout=L.strided),
    "ones layout None": lambda L: L.ones(2, layout=None),
    "full pin_memory False": lambda L: L.full((2,), 1.5, pin_memory=False),
    "empty contiguous": lambda L: L.empty(2, memory_format=L.contiguous_format).zero_(),
    "arange strided": lambda L: L.arange(3, layout=L.strided, pin_memory=False),
    "linspace": lambda L: L.linspace(0, 1, 3, layout=L.strided),
    "eye": lambda L: L.eye(2, layout=L.strided, pin_memory=False),
    "randint shape": lambda L: L.randint(0, 3, (2,), layout=L.strided).shape,
    "randn shape": lambda L: L.randn(2, pin_memory=False).shape,
    "tensor pin_memory False": lambda L: L.tensor([1.0], pin_memory=False),
    "zeros_like preserve": lambda L: L.zeros_like(_a(L), memory_format=L.preserve_format),
    "ones_like contiguous": lambda L: L.ones_like(_a(L).t(), memory_format=L.contiguous_format),
    "full_like": lambda L: L.full_like(_a(L), 2.0, layout=L.strided, pin_memory=False),
    "clone preserve keeps strides": lambda L: L.clone(_a(L).t()).stride(),
    "clone contiguous": lambda L: _a(L).t().clone(memory_format=L.contiguous_format).stride(),
    "clone contiguous values": lambda L: L.clone(_a(L).t(), memory_format=L.contiguous_format),
    "contiguous": lambda L: _a(L).t().contiguous(memory_format=L.contiguous_format).stride(),
    "is_contiguous": lambda L: _a(L).t().is_contiguous(memory_format=L.contiguous_format),
    "float": lambda L: _a(L).long().float(memory_format=L.preserve_format),
    "new_zeros": lambda L: _a(L).new_zeros(2, layout=L.strided, pin_memory=False),
    "new_full": lambda L: _a(L).new_full((2,), 3.0, layout=L.strided),
    "copy_ non_blocking": lambda L: _a(L).copy_(_a(L) * 2, non_blocking=True),
    "type non_blocking": lambda L: _a(L).type(L.float64, non_blocking=True),
    "printed": lambda L: (repr(L.strided), str(L.contiguous_format), repr(L.preserve_format)),
    # refused
    "pin_memory True": lambda L: L.zeros(2, pin_memory=True),
    "tensor pin_memory True": lambda L: L.tensor([1.0], pin_memory=True),
    "randn pin_memory True": lambda L: L.randn(2, pin_memory=True),
    "zeros_like pin_memory True": lambda L: L.zeros_like(_a(L), pin_memory=True),
    "new_ones pin_memory True": lambda L: _a(L).new_ones(2, pin_memory=True),
    "layout a string": lambda L: L.zeros(2, layout="strided"),
    "new_zeros layout a string": lambda L: _a(L).new_zeros(2, layout="strided"),
    "pin_memory an int": lambda L: L.ones(2, pin_memory=1),
    "memory_format a string": lambda L: L.zeros_like(_a(L), memory_format="x"),
    "clone memory_format an int": lambda L: L.clone(_a(L), memory_format=1),
    "float memory_format a string": lambda L: _a(L).float(memory_format="x"),
    "empty preserve": lambda L: L.empty(2, memory_format=L.preserve_format),
    "copy_ non_blocking an int": lambda L: _a(L).copy_(_a(L), non_blocking=1),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_layout_options_are_torchs(name):
    assert _outcome(CALLS[name], minigrad) == _outcome(CALLS[name], torch)


def test_the_objects_are_torchs_kinds():
    assert type(minigrad.strided).__name__ == type(torch.strided).__name__ == "layout"
    assert (type(minigrad.preserve_format).__name__ == type(torch.preserve_format).__name__
            == "memory_format")
