"""The minimal programs of issue 11 ("First, exact"), where a differential fuzzer found
minigrad and PyTorch 2.13 apart, and their near variants. Each runs on both libraries;
everything shown, printed or raised must be the same (see programs.py)."""

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
