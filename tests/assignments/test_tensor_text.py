"""Tensors without autograd (``grader.forward_only``) print as PyTorch prints.

A student who prints a gradient inside ``unbroadcast`` during ``check("q4")`` saw NumPy's
digits, ``tensor([0.33333334])``, where the lessons (and PyTorch) print ``tensor([0.3333])``
(audit 18). Each case is printed by PyTorch at test time and by ``forward_only``.
"""

import numpy as np
import pytest

from grader import forward_only

torch = pytest.importorskip("torch")


def _arrays():
    rng = np.random.default_rng(19)
    yield "a third", np.array([1 / 3], np.float32)
    yield "0-dim", np.array(1 / 3, np.float32)
    yield "whole", np.array([[1.0, -27.0], [3.0, 0.0]], np.float32)
    yield "tiny", np.array([1e-5, 1.0], np.float32)
    yield "wide range", np.array([1.0, 2000.0], np.float64)
    yield "huge whole", np.array([1e10, 3.0], np.float32)
    yield "inf nan", np.array([1.0, np.inf, -np.inf, np.nan], np.float32)
    yield "whole with inf", np.array([2.0, np.inf, np.nan, 0.0], np.float64)
    yield "zeros", np.zeros((2, 3), np.float32)
    yield "signed zero", np.array([-0.0, 0.5], np.float32)
    yield "int64", np.array([[1, -200], [3, 40000]], np.int64)
    yield "bool", np.array([True, False, True])
    yield "empty", np.zeros(0, np.float32)
    yield "empty 2-d", np.zeros((2, 0), np.float64)
    yield "empty int", np.zeros((0, 3), np.int64)
    yield "long row wraps", rng.normal(size=40).astype(np.float32)
    yield "long float64 row wraps", rng.normal(size=(3, 30)) * 1e-6
    yield "summarised", rng.normal(size=(40, 30)).astype(np.float32)
    yield "summarised 3-d", np.arange(2000, dtype=np.float32).reshape(4, 5, 100) / 7
    yield "summarised 1-d", np.arange(1001, dtype=np.int64)
    for shape in ((), (4,), (3, 5), (2, 3, 4), (1, 1, 7)):
        for scale in (1e-6, 1e-3, 1.0, 1e4, 1e9):
            for dtype in (np.float32, np.float64):
                yield f"{shape} x{scale:g} {np.dtype(dtype).name}", \
                    np.asarray(rng.normal(size=shape) * scale, dtype)


CASES = list(_arrays())


@pytest.mark.parametrize("array", [a for _, a in CASES], ids=[n for n, _ in CASES])
def test_a_tensor_without_autograd_prints_what_pytorch_prints(array):
    ours, theirs = forward_only.tensor(array), torch.from_numpy(array.copy())
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)


@pytest.mark.parametrize("expression", [
    "tensor([1.0, 2.0]) / 3", "tensor([[1.0, 2.0], [3.0, 4.0]]).sum(dim=0, keepdim=True) / 7",
    "arange(6.0).reshape(2, 3).mean(dim=1)", "arange(5)", "arange(2000.0)",
    "arange(1, 4) / 2", "tensor([1, 2]) * 2.5", "ones(2, 3).sum()", "tensor([1.0, 2.0]) > 1",
    "tensor([1.0, 2.0], dtype=float64) / 3",
    "tensor(__import__('numpy').float64(1) / 3)"])  # (a NumPy float64 stays one, as in torch)
def test_what_unbroadcast_might_print_reads_as_in_pytorch(expression):
    ours = eval(expression, {name: getattr(forward_only, name) for name in forward_only.__all__})
    theirs = eval(expression, {name: getattr(torch, name) for name in forward_only.__all__
                               if hasattr(torch, name)})
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("data", [
    "[np.float64(1.5)]", "[1.0, np.float64(2)]", "[[np.float64(1)], [2.0]]", "(np.float64(1),)",
    "[np.float32(1.5), np.float64(2)]", "[np.int32(3)]", "[np.int32(3), 1]",
    "[np.int32(1), np.float32(2)]", "[True, np.int32(2)]", "[np.uint8(1), np.int8(2)]",
    "[np.int64(1), np.float16(2)]", "[np.float16(1)]", "np.arange(3, dtype=np.int32)",
    "np.arange(3, dtype=np.int16)", "np.arange(3, dtype=np.uint8)", "[]", "[[1, 2], [3, 4]]",
    "2.5", "[1, 2.5]", "[True, False]"])
def test_a_tensor_made_from_numpy_values_has_pytorchs_dtype(data):
    """``torch.tensor`` takes a list's dtype from its items, NumPy's scalars included: a list
    holding ``np.float64`` is float64 (it was float32 here), an int32 array int32 (it was
    called float64: the module knew four dtypes). Printed as PyTorch prints it, dtype too."""
    ours, theirs = forward_only.tensor(eval(data)), torch.tensor(eval(data))
    assert repr(ours.dtype) == repr(theirs.dtype)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "uint8", "int8", "int16",
                                  "int32", "int64", "bool", "half", "float", "double",
                                  "short", "int", "long"])
def test_every_dtype_name_is_pytorchs(name):
    ours = forward_only.ones(2, dtype=getattr(forward_only, name))
    assert repr(ours) == repr(torch.ones(2, dtype=getattr(torch, name)))


@pytest.mark.parametrize("method", ["float", "double", "long", "int", "half"])
def test_a_conversion_method_gives_pytorchs_dtype(method):
    ours = getattr(forward_only.tensor([1.5, -2.0]), method)()
    assert repr(ours) == repr(getattr(torch.tensor([1.5, -2.0]), method)())
