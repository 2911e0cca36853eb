"""var and std called every way torch takes their arguments (dim, unbiased, keepdim,
correction; positional, keyword, as methods and functions): the values (to the
bit: float16/32 accumulate in float64 as torch's), the node's name, every saved
value as torch shows it (``_saved_correction`` is None only when neither dim, not
even None, unbiased nor correction is given), the gradients and the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

CALLS = [
    "x.var()", "x.var(None)", "x.var(dim=None)", "x.var(0)", "x.var(1)", "x.var(-1)",
    "x.var((0, 1))", "x.var([1])", "x.var(dim=0)", "x.var(())", "x.var(dim=[])",
    "x.var(True)", "x.var(False)", "x.var(unbiased=True)", "x.var(unbiased=False)",
    "x.var(0, False)", "x.var(0, True)", "x.var(0, True, True)", "x.var(0, keepdim=True)",
    "x.var(keepdim=True)", "x.var(None, keepdim=True)", "x.var(None, False)",
    "x.var(None, True)", "x.var(None, True, True)", "x.var(None, unbiased=False)",
    "x.var(correction=0)", "x.var(correction=2)", "x.var(correction=1.5)",
    "x.var(correction=None)", "x.var(0, correction=0)", "x.var(None, correction=2)",
    "x.var(dim=None, correction=1, keepdim=True)", "x.var(dim=(0,), correction=0)",
    "x.var(dim=1, unbiased=False, keepdim=True)", "x.var(keepdim=True, correction=0)",
    "lib.var(x)", "lib.var(x, 0)", "lib.var(x, None)", "lib.var(x, unbiased=False)",
    "lib.var(x, 1, True, True)", "lib.var(x, dim=1, correction=0)", "lib.var(x, False)",
    "lib.var(x, None, keepdim=True)", "lib.var(x, correction=3)", "lib.var(x, keepdim=True)",
    "lib.var(input=x, dim=None)", "x.var(5)", "x.var(-3, keepdim=True)",
    "x.var((), correction=0)", "x.var([], keepdim=True)",
]
# (Still different: the argument parser's TypeError for calls none of torch's overloads
# takes, e.g. x.var(0, 0) or unbiased= with correction=: minigrad takes them.)


def _saved(node) -> dict:
    return {name: getattr(node, name) for name in dir(node)
            if name.startswith("_saved_") and name not in ("_saved_self", "_saved_result")}


def _run(lib, call: str, dtype: str):
    data = np.array([[1.0, 2.0, 4.5, -3.0], [3.0, 5.0, 9.25, 0.125], [0.5, -1.0, 7.0, 2.0]])
    x = lib.tensor(data.astype(dtype), requires_grad=True)
    try:
        result = eval(call, {"x": x, "lib": lib})  # noqa: S307 - the calls above
    except Exception as error:  # noqa: BLE001 - the error is compared
        return ("error", type(error).__name__, str(error))
    result.sum().backward()
    return (result.detach().numpy().tobytes(), tuple(result.shape), result.grad_fn.name(),
            repr(_saved(result.grad_fn)), x.grad.numpy().tobytes())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", CALLS + [c.replace("var", "std") for c in CALLS])
def test_var_and_std_arguments_as_torch(call, dtype):
    theirs = _run(torch, call, dtype)
    ours = _run(mg, call, dtype)
    if dtype == "float64" and theirs[0] != "error":
        # (float64: torch's Welford sums differ from NumPy's in the last bits)
        np.testing.assert_allclose(np.frombuffer(ours[0]), np.frombuffer(theirs[0]), rtol=1e-14)
        np.testing.assert_allclose(np.frombuffer(ours[4]), np.frombuffer(theirs[4]), rtol=1e-13)
        theirs, ours = theirs[1:4], ours[1:4]
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("dim", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("correction", [0, 1, 2])
def test_var_and_std_values_are_torchs_to_the_bit(dim, correction, dtype):
    rng = np.random.default_rng(abs(hash((dim, correction))) % 1000)
    data = (rng.standard_normal((6, 33, 5)) * rng.uniform(0.1, 50)).astype(dtype)
    for name in ("var", "std"):
        ours = getattr(mg.tensor(data), name)(dim=dim, correction=correction)
        theirs = getattr(torch.tensor(data), name)(dim=dim, correction=correction)
        assert ours.numpy().tobytes() == theirs.numpy().tobytes(), (name, ours, theirs)


@pytest.mark.parametrize("call", [c for c in CALLS if "(5)" not in c and "(-3" not in c][::3]
                         + ["x.std(())", "x.var([], keepdim=True)", "x.std(1, correction=3)"])
def test_var_and_std_second_derivatives_as_torch(call):
    def run(lib):
        data = np.array([[1.0, 2.0, 4.5, -3.0], [3.0, 5.0, 9.25, 0.125], [0.5, -1.0, 7.0, 2.0]])
        x = lib.tensor(data, requires_grad=True)
        out = []
        for name in ("var", "std"):
            result = eval(call.replace("var", name).replace("std", name),  # noqa: S307
                          {"x": x, "lib": lib})
            (g,) = lib.autograd.grad(result.sum(), [x], create_graph=True)
            (gg,) = lib.autograd.grad((g * g).sum(), [x])
            out.append((g.grad_fn.name(), g.detach().numpy(), gg.numpy()))
        return out
    for (name, g, gg), (their_name, their_g, their_gg) in zip(run(mg), run(torch)):
        assert name == their_name
        np.testing.assert_allclose(g, their_g, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(gg, their_gg, rtol=1e-12, atol=1e-15)
