"""The engine: iterative, deterministic, observable, and the same walk for
``backward()`` as for ``backward_steps``."""

import gc
import weakref

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad.autograd import backward_steps


def tutorial_graph(lib):
    x = lib.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    return x, z.mean()


def torch_execution_order(output, gradient=None):
    """The names of torch's nodes in the order its engine runs them (pre-hooks)."""
    order, seen, stack = [], set(), [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_prehook(lambda grads, node=node: order.append(node.name()))
        stack.extend(next_node for next_node, _ in node.next_functions)
    output.backward(gradient)
    return order


def graph_cases():
    def tutorial(lib):
        return tutorial_graph(lib)[1], None

    def diamond(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([0.5, -1.0], requires_grad=True)
        h = x * w
        return (h.exp() + h.sin() * x).sum(), None

    def vjp(lib):
        lib.manual_seed(0)
        x = lib.tensor([0.3, -1.2, 2.0], requires_grad=True)
        y = x * 2
        while y.data.norm() < 1000:
            y = y * 2
        return y, lib.tensor([0.1, 1.0, 0.0001])

    def mlp(lib):
        x = lib.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
        w1 = lib.tensor(np.linspace(-0.5, 0.5, 20, dtype=np.float32).reshape(4, 5),
                        requires_grad=True)
        w2 = lib.tensor(np.linspace(0.2, -0.3, 10, dtype=np.float32).reshape(5, 2),
                        requires_grad=True)
        return ((x @ w1).tanh() @ w2).log_softmax(1).sum(), None

    return {"tutorial": tutorial, "diamond": diamond, "vjp": vjp, "mlp": mlp}


@pytest.mark.parametrize("case", graph_cases())
def test_steps_run_in_torch_order(case):
    build = graph_cases()[case]
    ours_out, ours_grad = build(mg)
    theirs_out, theirs_grad = build(torch)
    ours = [s.node.name() for s in backward_steps(ours_out, ours_grad)]
    assert ours == torch_execution_order(theirs_out, theirs_grad)


@pytest.mark.parametrize("case", graph_cases())
def test_steps_change_nothing_and_backward_applies_them(case):
    out, grad = graph_cases()[case](mg)
    leaves = {}
    steps = list(backward_steps(out, grad))
    for step in steps:
        if step.is_leaf:
            leaves[step.node.variable] = step.leaf_grad
            assert step.node.variable.grad is None  # observing changed nothing
    # and the graph is intact: the real backward still runs
    out.backward(grad)
    assert leaves
    for leaf, grad in leaves.items():
        np.testing.assert_array_equal(leaf.grad.numpy(), grad.numpy())


def test_steps_are_deterministic():
    def describe():
        _, out = tutorial_graph(mg)
        return [(s.index, s.node.name(),
                 [(None if f is None else f.name(), nr, g.tolist()) for f, nr, g in s.received],
                 [(None if n is None else n.name(), nr, None if g is None else g.tolist())
                  for n, nr, g in s.sent])
                for s in backward_steps(out)]
    assert describe() == describe()


def test_step_contents_for_the_tutorial():
    x, out = tutorial_graph(mg)
    steps = list(backward_steps(out))
    names = [s.node.name() for s in steps]
    assert names == ["MeanBackward0", "MulBackward0", "MulBackward0", "AddBackward0",
                     "torch::autograd::AccumulateGrad"]
    mean, outer, inner, add, leaf = steps
    assert mean.received[0][0] is None  # the seed gradient
    np.testing.assert_allclose(mean.sent[0][2].numpy(), np.full((2, 2), 0.25))
    # outer: z = (y*y) * 3 -> 0.75 to y*y, nothing to the constant 3
    np.testing.assert_allclose(outer.sent[0][2].numpy(), np.full((2, 2), 0.75))
    assert outer.sent[1] == (None, 0, None)
    # inner: y * y sends 0.75 * 3 = 2.25 along both edges to the same AddBackward0
    assert inner.sent[0][0] is inner.sent[1][0] is add.node
    assert len(add.received) == 2  # ... and they are summed before it runs
    np.testing.assert_allclose(add.grad_outputs[0].numpy(), np.full((2, 2), 4.5))
    assert leaf.node.variable is x
    np.testing.assert_allclose(leaf.leaf_grad.numpy(), np.full((2, 2), 4.5))


def test_steps_show_accumulation_onto_existing_grad():
    x, out = tutorial_graph(mg)
    out.backward(retain_graph=True)
    last = list(backward_steps(out))[-1]
    np.testing.assert_allclose(last.leaf_grad.numpy(), np.full((2, 2), 9.0))
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 2), 4.5))


def test_deep_chain_is_iterative():
    x = mg.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0]


def test_graph_and_buffers_are_released_after_backward():
    x = mg.ones(1000, requires_grad=True)
    y = (x * 2).exp()
    node = weakref.ref(y.grad_fn)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.grad_fn._saved_result
    del y
    gc.collect()
    assert node() is None


def test_graph_is_freed_without_the_garbage_collector():
    gc.disable()
    try:
        x = mg.ones(3, requires_grad=True)
        y = (x * x).exp().sum()
        node = weakref.ref(y.grad_fn)
        y.backward()
        del y
        assert node() is None  # no reference cycle kept it alive
    finally:
        gc.enable()


def test_inputs_limit_accumulation_like_torch():
    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        (a * b).sum().backward(inputs=[a])
        return a.grad.tolist(), b.grad
    ours, theirs = run(mg), run(torch)
    assert ours == theirs


def test_saved_values_keep_their_kind():
    """Inputs saved by position come back as those inputs, the result as the output,
    arrays as constant tensors, plain values as they were."""
    from minigrad.autograd.node import RESULT, Input, Node

    class Probe(Node):
        saves = {"self": Input(0), "other": Input(1), "result": RESULT}

        def forward(self, a, b, flag=None, count=1):
            self.save(flag=flag, count=count, mask=a > 1)
            return a + b

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    one = mg.tensor(1.0)
    y = Probe.apply(x, one, flag=None, count=1)
    assert y.grad_fn._saved_self is x and y.grad_fn._saved_other is one
    assert y.grad_fn._saved_result.grad_fn is y.grad_fn
    assert y.grad_fn._saved_result.tolist() == [2.0, 3.0]
    assert y.grad_fn._saved_mask.tolist() == [False, True]
    assert y.grad_fn._saved_mask.grad_fn is None
    assert y.grad_fn._saved_flag is None and y.grad_fn._saved_count == 1


def test_a_detached_alias_is_never_taken_for_the_input():
    """x and x.detach() share one array; only the position says which is which."""
    x = mg.tensor([1.0, 2.0], requires_grad=True) * 1
    y = x * x.detach()
    assert y.grad_fn._saved_other.grad_fn is None
    assert y.grad_fn._saved_self is None  # only other's gradient would need it, as in torch
    z = x.detach() * x
    assert z.grad_fn._saved_self.grad_fn is None and z.grad_fn._saved_other is None


def test_a_factor_is_saved_only_for_a_gradient_that_needs_it_like_torch():
    def saved(lib):
        x, c = lib.ones(2, 2, requires_grad=True), lib.ones(2, 2)
        return [[name for name in dir(y.grad_fn)
                 if name in ("_saved_self", "_saved_other", "_saved_mat2", "_saved_vec",
                             "_saved_tensor", "_saved_mat1")
                 and getattr(y.grad_fn, name) is None]
                for y in (x * c, c * x, x / c, c / x, x.mm(c), c.mm(x), x.mv(c[0]), c.mv(x[0]),
                          x[0].dot(c[0]), c[0].dot(x[0]), lib.nn.functional.linear(x, c, c[0]),
                          lib.nn.functional.linear(c, x, c[0]))]
    assert saved(mg) == saved(torch)


def test_inputs_that_are_not_leaves_get_their_grad_like_torch():
    def run(lib):
        x = lib.ones(2, requires_grad=True)
        y = x * 3
        (y * y).sum().backward(inputs=[y])
        return y.grad.tolist(), x.grad, y.retains_grad
    assert run(mg) == run(torch)
