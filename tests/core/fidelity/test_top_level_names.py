"""torch.broadcast_shapes, can_cast, typename, unravel_index, vander, chain_matmul, range,
scalar_tensor, empty_strided and the window functions, against PyTorch 2.13: values,
dtypes, graphs, warnings and error texts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

CALLS = [
    "torch.broadcast_shapes((2, 1), (3,))", "torch.broadcast_shapes((2,), (3,))",
    "torch.broadcast_shapes()", "torch.broadcast_shapes(2, (3, 1))", "torch.broadcast_shapes((2, -1))",
    "torch.broadcast_shapes([2], [1, 2])", "torch.broadcast_shapes(torch.Size([2]))",
    "torch.broadcast_shapes((2, 3), (4, 1, 3), (1,))", "torch.broadcast_shapes((2,), 3)",
    "torch.broadcast_shapes((2.0,))", "torch.broadcast_shapes((1, 0), (3, 1))",
    "torch.broadcast_shapes((0,), (2,))", "torch.broadcast_shapes(torch.Size([3]), torch.Size([2]))",
    "torch.broadcast_shapes(torch.zeros(3, 2).shape[:-1], (2,))",
    "torch.can_cast(torch.float, torch.int)", "torch.can_cast(torch.int, torch.float)",
    "torch.can_cast(torch.bool, torch.int8)", "torch.can_cast(torch.int8, torch.bool)",
    "torch.can_cast(torch.float64, torch.float16)", "torch.can_cast(1, torch.int)",
    "torch.can_cast(torch.uint8, torch.int8)",
    "torch.typename(torch.ones(2))", "torch.typename(torch.ones(2).double())",
    "torch.typename(torch.ones(2).long())", "torch.typename(3)", "torch.typename('a')",
    "torch.typename(torch.ones(2, requires_grad=True))",
    "torch.typename(torch.nn.Parameter(torch.ones(2)))",
    "torch.unravel_index(torch.tensor([4, 7]), (3, 3))", "torch.unravel_index(torch.tensor(4), (3, 3))",
    "torch.unravel_index(torch.tensor([9]), (3, 3))", "torch.unravel_index(torch.tensor([1.]), (3, 3))",
    "torch.unravel_index(torch.tensor([-1]), (3, 3))", "torch.unravel_index(torch.tensor([1]), ())",
    "torch.unravel_index(torch.tensor([1]), (3, -1))",
    "torch.unravel_index(torch.tensor([[1, 5]]), torch.Size([2, 3]))",
    "torch.unravel_index(torch.tensor([1], dtype=torch.int32), (3, 3))",
    "torch.unravel_index(torch.tensor([1]), 4)", "torch.unravel_index(torch.tensor([-10]), (3, 3))",
    "torch.unravel_index(torch.tensor([0]), (3, 0))",
    "torch.vander(torch.tensor([1, 2, 3]))", "torch.vander(torch.tensor([1., 2., 3.]), N=2, increasing=True)",
    "torch.vander(torch.tensor([1, 2, 3]), N=0)", "torch.vander(torch.tensor([[1, 2]]))",
    "torch.vander(torch.tensor([1., 2.], requires_grad=True))", "torch.vander(torch.tensor([True, False]))",
    "torch.vander(torch.tensor([1, 2]), N=-1)", "torch.vander(torch.tensor([1, 2], dtype=torch.int8))",
    "torch.vander(torch.tensor([1.5, 2.], dtype=torch.float64), 4)",
    "torch.chain_matmul(torch.ones(2, 3))", "torch.chain_matmul()",
    "torch.chain_matmul(torch.ones(2, 3, requires_grad=True) * 1, torch.ones(3, 2))",
    "torch.chain_matmul(torch.ones(2, 3), torch.ones(3, 2), torch.ones(2, 4))",
    "torch.range(0, 3)", "torch.range(0, 1, 0.25)", "torch.range(0, 3, dtype=torch.long)",
    "torch.range(3, 0, -1)", "torch.range(0, 1, 0)", "torch.range(1, 0)",
    "torch.range(0, 3, requires_grad=True)", "torch.range(0, 2.5)", "torch.range(0, 10, 3)",
    "torch.range(0, 1, 0.1)", "torch.range(-1, 1, 0.3, dtype=torch.float64)",
    "torch.scalar_tensor(3)", "torch.scalar_tensor(3, dtype=torch.long)", "torch.scalar_tensor(True)",
    "torch.scalar_tensor(2.5, requires_grad=True)",
    "torch.scalar_tensor(3, dtype=torch.long, requires_grad=True)",
    "torch.scalar_tensor(torch.tensor(2.))", "torch.scalar_tensor('a')",
    "torch.empty_strided((2,), (1, 2))",
    "torch.hann_window(-1)", "torch.hann_window(3, dtype=torch.long)",
    "torch.kaiser_window(3, dtype=torch.long)", "torch.hann_window(3, requires_grad=True)",
    "torch.hann_window(2.5)", "torch.hann_window(3, dtype=torch.float16)",
    "torch.kaiser_window(4, False, 5.0)", "torch.hamming_window(5, True, 0.5, 0.3)",
    "torch.bartlett_window(1)", "torch.blackman_window(0)",
]


def run(call, lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = eval(call, {"torch": lib})
        except Exception as error:  # noqa: BLE001 - we compare whatever was raised
            return "error", type(error).__name__, str(error), [str(w.message)[:40] for w in caught]
    shown = [repr(result), type(getattr(result, "grad_fn", None)).__name__]
    return "result", shown, [str(w.message)[:40] for w in caught]


@pytest.mark.parametrize("call", CALLS)
def test_as_torch(call):
    ours, theirs = run(call, mg), run(call, torch)
    if "chain_matmul" in call:  # (it warns once per process, in both: which call is first varies)
        ours, theirs = ours[:-1], theirs[:-1]
    assert ours == theirs


@pytest.mark.parametrize("strides", [(1, 2), (3, 1), (1, 1)])
def test_empty_strided_has_the_strides_asked_for(strides):
    for lib in (mg, torch):
        x = lib.empty_strided((2, 3), strides, dtype=lib.float64)
        assert (x.shape, x.stride(), x.dtype) == ((2, 3), strides, lib.float64)


def test_typename_of_a_module_names_its_class():
    """PyTorch says torch.nn.modules.linear.Linear; minigrad its own module's path."""
    assert mg.typename(mg.nn.Linear(2, 2)) == "minigrad.nn.linear.Linear"


WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("periodic", [True, False])
def test_windows_are_torchs(name, periodic):
    """Bit for bit in float64 (kaiser within 2e-15: I0's last bits) and in float32 below 16
    elements; from 16 PyTorch's vectorised SLEEF cosine rounds some values otherwise (1 ulp)."""
    for length in [0, 1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 64, 257]:
        for dtype in ("float32", "float64"):
            ours = getattr(mg, name)(length, periodic, dtype=getattr(mg, dtype)).numpy()
            theirs = getattr(torch, name)(length, periodic, dtype=getattr(torch, dtype)).numpy()
            assert ours.shape == theirs.shape
            if (dtype == "float64" and name != "kaiser_window") or length < 15:
                np.testing.assert_array_equal(ours, theirs)
            else:
                np.testing.assert_allclose(ours, theirs, rtol=0, atol=5e-7 if dtype == "float32"
                                           else 2e-15)


@pytest.mark.parametrize("name", ["inf", "nan", "pi", "e", "newaxis"])
def test_constants_are_pytorchs(name):
    """torch.inf, nan, pi, e are Python floats and newaxis is None (LLMs-from-scratch's
    ``masked_fill(mask, -torch.inf)`` and GELU's ``2.0 / torch.pi``)."""
    theirs, mine = getattr(torch, name), getattr(mg, name)
    assert type(mine) is type(theirs)
    assert repr(mine) == repr(theirs)
    scores = [[0.5, 0.25], [0.125, 1.0]]
    if name in ("inf", "pi", "e"):  # used as the tutorials use them
        mask = [[False, True], [False, False]]
        ours = mg.tensor(scores).masked_fill(mg.tensor(mask), -mine).softmax(-1) * mine
        want = torch.tensor(scores).masked_fill(torch.tensor(mask), -theirs).softmax(-1) * theirs
        assert repr(ours) == repr(want)
