"""Run a program written as lines of text with PyTorch 2.13 and with minigrad bound to the
name ``torch``, and compare the transcripts: what it shows (reprs, grad_fn chains with
next_functions) and the error it stops at (type and first line of the message) must be
the same text. The fuzz generator's programs (``fuzz_programs.py``) and the hand-written
ones of many test files run through ``assert_same``."""

from __future__ import annotations

import warnings

import torch

import minigrad


def transcript(src: str, lib) -> list[str]:
    out: list[str] = []

    def show(*values):
        out.extend(repr(v) for v in values)

    def chain(f, depth=0):
        if f is None or depth > 6:
            return "None"
        return type(f).__name__ + "(" + ",".join(
            chain(n, depth + 1) + f":{i}" for n, i in f.next_functions) + ")"

    env = {"torch": lib, "F": lib.nn.functional, "nn": lib.nn, "optim": lib.optim,
           "show": show, "gfn": lambda t: out.append(chain(t.grad_fn))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for line in src.strip().split("\n"):
            try:
                exec(line, env)
            except Exception as e:  # noqa: BLE001 (the error is what is compared)
                out.append(f"ERR {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
                break
    return out


def assert_same(src: str) -> None:
    expected, got = transcript(src, torch), transcript(src, minigrad)
    assert got == expected, src
