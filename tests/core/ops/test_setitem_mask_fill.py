"""x[mask] = value with a one-element value of another dtype, against PyTorch 2.13:
torch's index_put_ writes it with masked_fill_ (value.item()), so the dtypes need not
match, and the backward (create_graph too) writes zeros of the value's dtype the same
way; any other index, or a bigger value, still needs the dtypes to match (checked after
the shapes). Transcripts as test_fuzz_programs."""

from __future__ import annotations

import pytest

from transcripts import assert_same

INDICES = {
    "row mask": "x[:, 0] > 0", "2-D mask": "x > 0", "0-dim mask": "torch.tensor(True)",
    "uint8 mask": "(x > 0).to(torch.uint8)", "uint8 row mask": "(x[:, 0] > 0).to(torch.uint8)",
    "0-dim False mask": "torch.tensor(False)", "Python True": "True", "int, 0-dim mask": "(0, torch.tensor(True))",
    "mask after a slice": "(slice(None), x[0] > 0)", "int then mask": "(1, x[0] > 0)",
    "mask then Ellipsis": "(x[:, 0] > 0, ...)", "two masks": "(x[:, 0] > 0, x[0] > 0)",
    "int tensor": "torch.tensor([0, 1])", "mask and int tensor": "(x[:, 0] > 0, torch.tensor([0, 1]))",
    "list of bools": "[True, False]", "list of ints": "[1, 0]", "mask in a list": "[x[:, 0] > 0]",
}
VALUES = {
    "float64 0-dim": "torch.tensor(2.0, dtype=torch.float64)",
    "float64 one element": "torch.tensor([2.0], dtype=torch.float64)",
    "float64 [[v]]": "torch.tensor([[2.0]], dtype=torch.float64)",
    "float64 two": "torch.tensor([2.0, 5.0], dtype=torch.float64)",
    "int64 0-dim": "torch.tensor(2)", "float16 0-dim": "torch.tensor(2.5, dtype=torch.float16)",
    "bool 0-dim": "torch.tensor(True)",
    "float64 requiring grad": "torch.tensor(2.0, dtype=torch.float64, requires_grad=True)",
    "float32 requiring grad": "torch.tensor(2.0, requires_grad=True)",
}
CASES = {
    f"{index}, {value}": (
        "a = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)\nx = a * 1\n"
        f"v = {VALUES[value]}\nx[{INDICES[index]}] = v\nshow(x)\ngfn(x)\n"
        "(x * x).sum().backward(create_graph=True)\nshow(a.grad, v.grad)\ngfn(a.grad)\n"
        "a.grad.sum().backward()\nshow(a.grad)")
    for index in INDICES for value in VALUES
}


@pytest.mark.parametrize("name", list(CASES))
def test_setitem_one_element_value(name):
    assert_same(CASES[name])


UINT8 = {  # uint8 tensors as indices: deprecated masks (PyTorch warns, then reads them so)
    "getitem": (
        "x = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)\n"
        "show(x[torch.tensor(1, dtype=torch.uint8)], x[torch.tensor(0, dtype=torch.uint8)].shape)\n"
        "show(x[torch.tensor([1, 0], dtype=torch.uint8), 1], x[[torch.tensor([1, 0], dtype=torch.uint8)]])\n"
        "r = x[(x > 0).to(torch.uint8)]\ngfn(r)\nr.sum().backward()\nshow(x.grad)"),
    "setitem of a tensor": (
        "y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])\n"
        "y[torch.tensor([1, 0], dtype=torch.uint8)] = torch.tensor([5.0, 6.0])\nshow(y)\n"
        "y[torch.tensor([1, 0], dtype=torch.uint8), torch.tensor([1])] = torch.tensor(7.0)\nshow(y)"),
    "setitem of a number": (
        "y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])\n"
        "y[torch.tensor([1, 0], dtype=torch.uint8), 0] = 5.0"),
    "setitem of a one-element tensor": (
        "y = torch.tensor([[1.0, -2.0], [3.0, 4.0]])\ny[y > 0] = 1.0\nshow(y)\n"
        "y[(y > 1).to(torch.uint8)] = torch.tensor([2.0])"),
}


@pytest.mark.parametrize("name", list(UINT8))
def test_uint8_index(name):
    assert_same(UINT8[name])
