"""Which error ``x[index] = value`` raises when several apply, compared with PyTorch
2.13 at test time: torch makes the view written into first (an index out of bounds,
a slice of a 0-dim tensor; a view made under no_grad whose base changed is refused
there), then shapes the value to it (expand's errors), and only then checks the
write itself (a leaf that requires grad, a view made under no_grad); index_put_
(integer or boolean arrays) checks the write before the value's shape."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from torch_compare import outcome

TARGETS = {
    "a leaf": lambda lib, x, c, v, u: x,
    "a result": lambda lib, x, c, v, u: c,
    "0-dim view under no_grad": lambda lib, x, c, v, u: v,
    "view under no_grad": lambda lib, x, c, v, u: u,
}

WRITES = {
    "[5] = 1": lambda lib, t: t.__setitem__(5, 1.0),
    "[1:] = 1": lambda lib, t: t.__setitem__(slice(1, None), 1.0),
    "[1:] = ones(5)": lambda lib, t: t.__setitem__(slice(1, None), lib.ones(5)),
    "[0] = ones(3)": lambda lib, t: t.__setitem__(0, lib.ones(3)),
    "[...] = ones(5)": lambda lib, t: t.__setitem__(Ellipsis, lib.ones(5)),
    "[None] = ones(2, 5)": lambda lib, t: t.__setitem__(None, lib.ones(2, 5)),
    "[[0]] = ones(5)": lambda lib, t: t.__setitem__([0], lib.ones(5)),
    "[t > 0] = ones(5)": lambda lib, t: t.__setitem__(t > 0, lib.ones(5)),
    "[0] = 1": lambda lib, t: t.__setitem__(0, 1.0),
    "[...] = 1": lambda lib, t: t.__setitem__(Ellipsis, 1.0),
}


@pytest.mark.parametrize("changed", [False, True], ids=["base as made", "base changed"])
@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("target", list(TARGETS))
def test_the_first_error_is_torchs(target, write, changed):
    def run(lib):
        x = lib.tensor([-2.0, 1.0, 3.0], requires_grad=True)
        c = x * 1
        with lib.no_grad():
            v, u = c[0], c[1:]
        if changed:
            c.mul_(2)
        WRITES[write](lib, TARGETS[target](lib, x, c, v, u))
        return c
    assert outcome(run, mg) == outcome(run, torch)


INDICES = {"0": 0, "-1": -1, "1": 1, "5": 5, "True": True, "False": False, "None": None,
           "...": Ellipsis, "1:": slice(1, None), "tensor(0)": "tensor(0)",
           "tensor(3)": "tensor(3)"}


@pytest.mark.parametrize("kind", ["read", "write"])
@pytest.mark.parametrize("index", list(INDICES))
def test_indexing_a_0_dim_tensor_is_torchs(index, kind):
    def run(lib):
        v = lib.tensor(2.0)
        i = INDICES[index]
        if isinstance(i, str):
            i = lib.tensor(int(i[7:-1]))
        if kind == "read":
            return v[i]
        v[i] = 1.0
        return v
    assert outcome(run, mg) == outcome(run, torch)
