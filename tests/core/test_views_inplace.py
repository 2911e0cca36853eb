"""Views and in-place changes together, whole programs compared with PyTorch 2.13
(``programs.assert_same_run``: values, printed text, grad_fn graphs, errors, warnings).

* writing into an expanded tensor (a gradient of a sum is one): ``fill_``/``zero_``
  work, the other in-place ops refuse, ``index_put_`` warns.
"""

import numpy as np
import pytest

from programs import assert_same_run

X = np.array([[1.0, -2.0, 0.5], [3.0, -0.5, 2.0]])


def _leaf(rec):
    return rec.leaf(X, dtype=np.float64)


# ---- writing into an expanded tensor -----------------------------------------

WRITES = {
    "zero_": lambda lib, e: e.zero_(),
    "fill_ number": lambda lib, e: e.fill_(2.5),
    "fill_ 0-dim tensor": lambda lib, e: e.fill_(lib.tensor(3.0, dtype=lib.float64)),
    "add_": lambda lib, e: e.add_(1),
    "mul_": lambda lib, e: e.mul_(2),
    "clamp_": lambda lib, e: e.clamp_(0, 1),
    "copy_": lambda lib, e: e.copy_(lib.ones(2, 3, dtype=lib.float64)),
    "e[0] = 1.": lambda lib, e: e.__setitem__(0, 1.0),
    "e[:, 0] = 1.": lambda lib, e: e.__setitem__((slice(None), 0), 1.0),
    "e[:] = 1.": lambda lib, e: e.__setitem__(slice(None), 1.0),
    "e[[0]] = 4.": lambda lib, e: e.__setitem__([0], 4.0),
}


@pytest.mark.parametrize("write", list(WRITES.values()), ids=list(WRITES))
def test_write_into_the_gradient_of_a_sum(write):
    def program(lib, rec):
        x = _leaf(rec)
        grad, = lib.autograd.grad(x.sum(), x)
        rec.show("grad", grad)
        write(lib, grad)
        rec.show("written", grad)
    assert_same_run(program)


@pytest.mark.parametrize("write", list(WRITES.values()), ids=list(WRITES))
def test_write_into_an_expanded_tensor(write):
    def program(lib, rec):
        row = rec.leaf([[1.0, 2.0, 3.0]], requires_grad=False, dtype=np.float64)
        expanded = row.expand(2, 3)
        write(lib, expanded)
        rec.show("expanded", expanded)
        rec.show("row", row)
    assert_same_run(program)


def test_backward_into_an_expanded_grad_refuses_as_torch():
    def program(lib, rec):
        x = _leaf(rec)
        grad, = lib.autograd.grad(x.sum(), x)
        x.grad = grad
        (x * 2).sum().backward()
    assert_same_run(program)
