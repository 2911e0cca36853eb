"""Run one program under minigrad and PyTorch and compare what it prints: its result as
text (object addresses blanked) or the error it raises (type and message). Used by the
tests of torch.func and forward-mode AD."""

from __future__ import annotations

import re

import torch

import minigrad as mg

ADDRESS = re.compile(r"0x[0-9a-f]+")


def outcome(program, lib):
    """What ``program(lib)`` returns (as text) or raises (type and message)."""
    try:
        return ADDRESS.sub("0x", str(program(lib)))
    except Exception as error:  # noqa: BLE001 (the error is what is compared)
        return f"{type(error).__name__}: {error}"


def same(program):
    """``program`` prints (or fails) the same under both libraries; minigrad's text."""
    mine, theirs = outcome(program, mg), outcome(program, torch)
    assert mine == theirs
    return mine
