"""Each distribution test starts with argument validation on in both libraries, as a fresh
process has it: PyTorch turns it off for good once torch._dynamo has patched itself in
(torch.compile, used by tests elsewhere in the same process), which would otherwise make
these tests depend on the order they run in."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg


@pytest.fixture(autouse=True)
def validation_on():
    saved = (torch.distributions.Distribution._validate_args,
             mg.distributions.Distribution._validate_args)
    torch.distributions.Distribution.set_default_validate_args(True)
    mg.distributions.Distribution.set_default_validate_args(True)
    yield
    torch.distributions.Distribution.set_default_validate_args(saved[0])
    mg.distributions.Distribution.set_default_validate_args(saved[1])
