"""torch.finfo and torch.iinfo against PyTorch 2.13: every attribute of each float and
integer dtype (bfloat16's too, a dtype minigrad names but does not compute in), the
printing, the default dtype, PyTorch's errors; and their use in a program (the smallest
positive float as a clamp, as torch.distributions' clamp_probs does)."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from torch_compare import outcome

FLOATS = ["float32", "float64", "float16", "bfloat16"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]


@pytest.mark.parametrize("name", FLOATS)
def test_finfo_as_torch(name):
    def program(lib):
        f = lib.finfo(getattr(lib, name))
        return [repr(f), str(f), f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal,
                f.resolution, f.dtype, type(f.eps).__name__]
    assert outcome(program, mg) == outcome(program, torch)


@pytest.mark.parametrize("name", INTS)
def test_iinfo_as_torch(name):
    def program(lib):
        i = lib.iinfo(getattr(lib, name))
        return [repr(i), i.bits, i.max, i.min, i.dtype, type(i.max).__name__]
    assert outcome(program, mg) == outcome(program, torch)


@pytest.mark.parametrize("call", [
    lambda lib: lib.finfo(),
    lambda lib: lib.finfo(lib.float32) == lib.finfo(lib.float32),
    lambda lib: lib.finfo(lib.int32),
    lambda lib: lib.finfo(lib.bool),
    lambda lib: lib.iinfo(lib.float32),
    lambda lib: lib.iinfo(lib.bool),
    lambda lib: lib.tensor([0.0, 0.5, 1.0]).clamp(min=lib.finfo(lib.float32).eps,
                                                  max=1 - lib.finfo(lib.float32).eps),
    lambda lib: lib.full((2,), lib.finfo(lib.float64).min, dtype=lib.float64),
    lambda lib: lib.tensor([1, 2]).clamp(max=lib.iinfo(lib.int8).max),
])
def test_uses_and_errors_as_torch(call):
    assert outcome(call, mg) == outcome(call, torch)
