"""Shared fixtures for the widget tests: the tutorial's graph and SVG parsing."""

import minigrad as torch
import pytest


@pytest.fixture
def tutorial():
    """x = ones(2, 2); y = x + 2; out = (y * y * 3).mean()  (d out/dx = 4.5)."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return x, y, z, out
