"""The layout of an elementwise result whose operands have different dtypes, against
PyTorch 2.13: on the CPU, TensorIterator first converts each input that is not of the
common dtype (``.to()``: a dense one keeps its strides, an expanded or sliced one gets
dense strides), then orders the dims by what it converted. An expanded float16 beside a
transposed float32 therefore gives a row-major result (meet seed 31966: ``x.clamp(y)``;
minigrad laid it out as the transposed operand: 15 of these 22 ops parted before)."""

from __future__ import annotations

import random

import pytest
import torch

import minigrad

LAYOUTS = {
    "row-major": lambda lib, dt: lib.ones(2, 3).to(dt),
    "transposed": lambda lib, dt: lib.ones(3, 2).to(dt).t(),
    "expanded rows": lambda lib, dt: lib.ones(1, 3).to(dt).expand(2, 3),
    "expanded columns": lambda lib, dt: lib.ones(2, 1).to(dt).expand(2, 3),
    "expanded, transposed": lambda lib, dt: lib.ones(3, 1).to(dt).expand(3, 2).t(),
    "every other column": lambda lib, dt: lib.ones(2, 6).to(dt)[:, ::2],
    "every other row, transposed": lambda lib, dt: lib.ones(6, 2).to(dt)[::2].t(),
    "(1, 3)": lambda lib, dt: lib.ones(1, 3).to(dt),
    "(2, 1)": lambda lib, dt: lib.ones(2, 1).to(dt),
    "0-dim": lambda lib, dt: lib.tensor(1).to(dt),
}
DTYPES = ["float16", "float32", "float64", "int64", "int32", "bool", "uint8"]
OPS = {
    "add": lambda lib, a, b: a + b, "sub": lambda lib, a, b: a - b,
    "mul": lambda lib, a, b: a * b, "div": lambda lib, a, b: a / b,
    "floor_divide": lambda lib, a, b: a // b, "pow": lambda lib, a, b: a ** b,
    "maximum": lambda lib, a, b: lib.maximum(a, b), "fmax": lambda lib, a, b: lib.fmax(a, b),
    "lt": lambda lib, a, b: a < b, "eq": lambda lib, a, b: a == b, "ne": lambda lib, a, b: a != b,
    "bitwise_and": lambda lib, a, b: a & b, "gcd": lambda lib, a, b: lib.gcd(a, b),
    "logical_and": lambda lib, a, b: lib.logical_and(a, b),
    "clamp": lambda lib, a, b: lib.clamp(a, b), "where": lambda lib, a, b: lib.where(a > 0, a, b),
    "atan2": lambda lib, a, b: lib.atan2(a, b), "hypot": lambda lib, a, b: lib.hypot(a, b),
    "copysign": lambda lib, a, b: lib.copysign(a, b), "xlogy": lambda lib, a, b: lib.xlogy(a, b),
    "addcmul": lambda lib, a, b: lib.addcmul(a, b, b), "lerp": lambda lib, a, b: lib.lerp(a, b, 0.5),
}


def _layouts(lib, op: str) -> list:
    """The op on 60 drawn pairs of operands: each result's strides and dtype, or the
    error's type."""
    r = random.Random(op)
    seen = []
    for _ in range(60):
        (da, db), (la, lb) = r.choices(DTYPES, k=2), r.choices(list(LAYOUTS), k=2)
        a = LAYOUTS[la](lib, getattr(lib, da))
        b = LAYOUTS[lb](lib, getattr(lib, db))
        try:
            result = OPS[op](lib, a, b)
            seen.append((da, la, db, lb, result.stride(), str(result.dtype)))
        except Exception as error:  # noqa: BLE001 (compared with torch's)
            seen.append((da, la, db, lb, type(error).__name__))
    return seen


@pytest.mark.parametrize("op", list(OPS))
def test_a_converted_operand_is_laid_out_as_torchs_iterator_sees_it(op):
    assert _layouts(minigrad, op) == _layouts(torch, op)
