"""The core example of the tutorial: o = mean(3 (x + 2)^2) gives do/dx = 4.5."""

import minigrad as torch


def test_tutorial_gradient_is_four_and_a_half():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    assert repr(out) == "tensor(27., grad_fn=<MeanBackward0>)"
    out.backward()
    assert repr(x.grad) == "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])"
    assert [type(f).__name__ for f, _ in z.grad_fn.next_functions] == ["MulBackward0", "NoneType"]
