"""DerivativeCheck and check_derivatives: autograd vs finite differences vs by hand."""

import re
import subprocess
import sys

import minigrad as torch
import numpy as np
import pytest

from widgets import DerivativeCheck, check_derivatives


def tutorial(x):
    return (3 * (x + 2) ** 2).mean()


def test_the_tutorials_derivative_passes():
    check = DerivativeCheck(tutorial, torch.ones(2, 2), by_hand=lambda x: 1.5 * (x + 2))
    assert check.passed
    for grads in (check.autograd, check.numerical, check.by_hand):
        np.testing.assert_allclose(grads[0], np.full((2, 2), 4.5), rtol=1e-6)
    assert check.max_abs_diff < 1e-6 and check.max_rel_diff < 1e-6
    assert "PASS" in repr(check) and "✓" in check._table.value


def test_a_wrong_formula_fails_and_says_where():
    check = DerivativeCheck(tutorial, torch.ones(2, 2), by_hand=lambda x: 3 * (x + 2))
    assert not check.passed
    assert check.max_abs_diff == pytest.approx(4.5)
    assert check.max_rel_diff == pytest.approx(1.0)
    assert [c.passed for c in check.result.comparisons] == [True, False]
    verdict = check.result.verdict()
    assert verdict.startswith("FAIL") and "by hand DISAGREES" in verdict and "x[0, 0]" in verdict
    assert "✗" in check._table.value


def test_tolerance_decides_and_can_be_changed():
    almost = lambda x: 1.5 * (x + 2) + 1e-2  # noqa: E731
    check = DerivativeCheck(tutorial, torch.ones(2, 2), by_hand=almost)
    assert not check.passed
    check.rtol = 1e-2  # |diff| 1e-2 <= 1e-5 + 1e-2 * 4.5
    assert check.passed and "PASS" in check._table.value
    check.rtol = 1e-3
    assert not check.passed


def test_several_inputs_are_named_after_the_parameters():
    result = check_derivatives(lambda x, w: (x @ w).tanh().sum(),
                               [torch.randn(2, 3), torch.randn(3, 2)],
                               by_hand=lambda x, w: (
                                   (1 - (x @ w).tanh() ** 2) @ w.t(),
                                   x.t() @ (1 - (x @ w).tanh() ** 2)))
    assert result.passed and result.names == ["x", "w"]
    assert [g.shape for g in result.by_hand] == [(2, 3), (3, 2)]


def test_a_broken_backward_is_caught():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x  # forgot the 2

    result = check_derivatives(lambda x: Square.apply(x).sum(), torch.tensor([1.0, 2.0]))
    assert not result.passed and result.comparisons[0].method == "autograd"


def test_inputs_and_their_grads_are_left_alone():
    x = torch.ones(2, 2, requires_grad=True)
    check_derivatives(tutorial, x, by_hand=lambda x: 1.5 * (x + 2))
    assert x.grad is None and x.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_clear_errors():
    with pytest.raises(ValueError, match="fn must return one number"):
        check_derivatives(lambda x: x * 2, torch.ones(2))
    with pytest.raises(ValueError, match="shape \\[3\\] for x of shape \\[2\\]"):
        check_derivatives(lambda x: x.sum(), torch.ones(2), by_hand=lambda x: torch.ones(3))
    with pytest.raises(ValueError, match="returned 1 gradients for 2 inputs"):
        check_derivatives(lambda a, b: (a * b).sum(), [torch.ones(2), torch.ones(2)],
                          by_hand=lambda a, b: (b,))


def test_the_comparison_displays_nothing_and_needs_no_widget():
    code = ("import minigrad as torch\n"
            "from widgets.gradients import check_derivatives\n"
            "r = check_derivatives(lambda x: (x * x).sum(), torch.ones(3),\n"
            "                      by_hand=lambda x: 2 * x)\n"
            "assert r.passed\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "" and done.stderr == ""


def test_tolerance_boxes_show_numbers_as_python_writes_them():
    check = DerivativeCheck(lambda x: (x * x).sum(), torch.ones(2))
    atol_box, rtol_box = check._tolerance.boxes["atol"], check._tolerance.boxes["rtol"]
    assert (atol_box.value, rtol_box.value) == ("1e-05", "0.001")
    atol_box.value = "0.01"
    assert check.atol == 0.01 and check.result.atol == 0.01
    atol_box.value = "a lot"
    assert check.atol == 0.01
    assert "atol must be a number, like 1e-05; got 'a lot'" in check._tolerance.typo.value
    check.rtol = 2e-7
    assert rtol_box.value == "2e-07"


def test_a_value_marked_wrong_shows_the_digits_where_it_differs():
    """4.5002 marked ✗ beside finite differences' 4.5 was written "4.5 ✗" (4 digits)."""
    check = DerivativeCheck(tutorial, torch.ones(2, 2), by_hand=lambda x: 1.5 * (x + 2) + 2e-4)
    check.rtol = 1e-5
    assert not check.passed
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", check._table.value)
    assert cells[:4] == ["x[0, 0]", "4.5", "4.5", "4.5002 ✗"], cells
