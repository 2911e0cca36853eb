"""The comparison helper (``torch_compare.py``), on which every differential test
rests, can fail: a difference in values, dtype, shape, graph or gradients is caught."""

import pytest

import minigrad as mg

from op_cases import X
from torch_compare import assert_same_tensor, check, mirror


def test_assert_same_tensor_catches_differences():
    """The comparison helper itself must be able to fail."""
    ours, theirs = mirror([X], requires_grad=False)
    with pytest.raises(AssertionError):
        assert_same_tensor(ours[0] * 2, theirs[0])
    with pytest.raises(AssertionError):
        assert_same_tensor(ours[0].double(), theirs[0])
    with pytest.raises(AssertionError):
        assert_same_tensor(ours[0].reshape(3, 2), theirs[0].reshape(6))
    with pytest.raises(AssertionError):
        check(lambda lib, x: x.exp() if lib is mg else x.exp() + 1e-3, X)
    with pytest.raises(AssertionError):
        check(lambda lib, x: x.exp() if lib is mg else x.exp().clone(), X)
    with pytest.raises(AssertionError):  # same values, different gradients
        check(lambda lib, x: x * 2 if lib is mg else (x * 2).detach() + x * 0, X)
