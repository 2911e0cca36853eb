"""The minimal programs of issue 11 ("First, exact"), where a differential fuzzer found
minigrad and PyTorch 2.13 apart, and their near variants. Each runs on both libraries;
everything shown, printed or raised must be the same (see programs.py)."""

import pytest

from programs import assert_same_run


# ---- kind 1: a detached alias is not the input -------------------------------

def test_detached_alias_on_the_right_is_a_constant_in_double_backward():
    def program(lib, rec):
        b = rec.leaf([1.0, 2.0])
        x = b * 1
        g, = lib.autograd.grad((x * x.detach()).sum(), [b], create_graph=True)
        rec.show("g", g)
        g.sum().backward()  # g needs no grad: torch refuses
        rec.show("b.grad", b.grad)
    assert_same_run(program)


def test_detached_alias_on_the_left_is_a_constant_in_double_backward():
    def program(lib, rec):
        b = rec.leaf([1.0, 2.0])
        x = b * 1
        g, = lib.autograd.grad((x.detach() * x).sum(), [b], create_graph=True)
        rec.show("g", g)
    assert_same_run(program)


def test_detached_alias_is_saved_as_a_constant_by_every_binary_op():
    def program(lib, rec):
        b = rec.leaf([1.0, 2.0, 3.0])
        x = b * 1
        for name, op in [("mul", lambda u, v: u * v), ("div", lambda u, v: u / v),
                         ("pow", lambda u, v: u ** v), ("maximum", lib.maximum),
                         ("dot", lib.dot)]:
            y = op(x, x.detach())
            rec.show(f"{name} saved", [getattr(y.grad_fn, n) for n in dir(y.grad_fn)
                                       if n.startswith("_saved_") and "result" not in n])
            g, = lib.autograd.grad(y.sum(), [b], create_graph=True)
            rec.show(f"{name} grad", g)
            if g.requires_grad:
                rec.show(f"{name} second", lib.autograd.grad(g.sum(), [b])[0])
    assert_same_run(program)


def test_an_input_used_twice_is_saved_twice_as_the_input():
    def program(lib, rec):
        b = rec.leaf([1.0, 2.0])
        y = b * b
        rec.show("saved", (y.grad_fn._saved_self, y.grad_fn._saved_other))
        g, = lib.autograd.grad(y.sum(), [b], create_graph=True)
        rec.show("g", g)
        rec.show("second", lib.autograd.grad(g.sum(), [b])[0])
    assert_same_run(program)


# ---- kind 2: a second backward through setitem fails before anything is added twice

WRITES = {
    "int": lambda lib, x: x.__setitem__(0, 0.5),
    "slice": lambda lib, x: x.__setitem__(slice(1, None), 0.5),
    "list": lambda lib, x: x.__setitem__([0, 2], 0.5),
    "mask": lambda lib, x: x.__setitem__(x > 1.5, 0.5),
    "ellipsis": lambda lib, x: x.__setitem__(Ellipsis, 0.5),
    "tensor value": lambda lib, x: x.__setitem__(0, lib.tensor(0.5)),
    "vector value": lambda lib, x: x.__setitem__(slice(0, 2), lib.tensor([0.5, 0.25])),
    "full slice": lambda lib, x: x.__setitem__(slice(None), lib.tensor([0.5, 0.25, 1.0])),
}


def backward_twice(rec, out, *leaves):
    out.backward()
    try:
        out.backward()
    finally:
        for k, leaf in enumerate(leaves):
            rec.show(f"grad {k}", leaf.grad)


@pytest.mark.parametrize("write", WRITES)
def test_second_backward_through_a_write_fails_like_torch(write):
    def program(lib, rec):
        a = rec.leaf([1.0, 2.0, 3.0])
        x = a.clone()
        WRITES[write](lib, x)
        backward_twice(rec, x.sum(), a)
    assert_same_run(program)


@pytest.mark.parametrize("write", WRITES)
def test_second_backward_through_a_write_in_a_longer_graph_adds_what_torch_adds(write):
    def program(lib, rec):
        a, b, c = rec.leaf([1.0, 2.0, 3.0]), rec.leaf([1.0, 2.0, 3.0]), rec.leaf([1.0, 2.0, 3.0])
        x = a.clone()
        WRITES[write](lib, x)
        backward_twice(rec, (x * b).sum() + c.sum() + a.sum(), a, b, c)
    assert_same_run(program)


def test_second_backward_through_a_written_tensor_value_fails_like_torch():
    def program(lib, rec):
        a, v = rec.leaf([1.0, 2.0, 3.0]), rec.leaf(0.5)
        x = a.clone()
        x[1] = v
        backward_twice(rec, x.sum(), a, v)
    assert_same_run(program)


def test_saved_indices_of_a_write_show_and_free_like_torch():
    def program(lib, rec):
        a = rec.leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        x = a.clone()
        x[:, [0, 1]] = 0.5
        rec.show("names", [n for n in dir(x.grad_fn) if n.startswith("_saved")])
        rec.show("indices", x.grad_fn._saved_indices)
        x.sum().backward()
        rec.show("grad", a.grad)
        x.grad_fn._saved_indices
    assert_same_run(program)


# ---- kinds 3 and 11: gradients that select, not multiply (signed zeros, NaN) ---

@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("upstream", [-1.0, float("nan"), float("inf")])
def test_a_write_selects_its_gradient_like_torch(write, upstream):
    def program(lib, rec):
        a = rec.leaf([1.0, 2.0, 3.0])
        x = a.clone()
        WRITES[write](lib, x)
        (x * upstream).sum().backward()
        rec.show("grad", a.grad)
    assert_same_run(program)


def test_the_minimal_program_of_kind_3():
    def program(lib, rec):
        a = rec.leaf([1.0, 2.0, 3.0])
        x = a.clone()
        x[0] = 0.5
        (x * -1).sum().backward()
        rec.show("grad", a.grad)
    assert_same_run(program)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("upstream", [-1.0, float("nan")])
def test_max_along_a_dim_selects_its_gradient_like_torch(op, keepdim, upstream):
    def program(lib, rec):
        x = rec.leaf([[1.0, 5.0], [7.0, 2.0]])
        values = getattr(x, op)(dim=1, keepdim=keepdim).values
        (values * upstream).sum().backward()
        rec.show("grad", x.grad)
    assert_same_run(program)


@pytest.mark.parametrize("write", ["zero_", "fill_", "fill_ tensor", "copy_"])
def test_an_overwritten_value_gets_plain_zeros_like_torch(write):
    def program(lib, rec):
        a = rec.leaf([1.0, 2.0])
        x = a * 1
        {"zero_": lambda: x.zero_(), "fill_": lambda: x.fill_(2.0),
         "fill_ tensor": lambda: x.fill_(lib.tensor(2.0)),
         "copy_": lambda: x.copy_(lib.tensor([3.0, 4.0]))}[write]()
        x.backward(lib.tensor([-1.0, float("nan")]))
        rec.show("grad", a.grad)
    assert_same_run(program)


def test_power_zero_gives_plain_zeros_like_torch():
    def program(lib, rec):
        a = rec.leaf([1.0, 2.0])
        (a ** 0).backward(lib.tensor([-1.0, float("nan")]))
        rec.show("grad", a.grad)
    assert_same_run(program)
