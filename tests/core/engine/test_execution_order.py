"""minigrad's engine runs nodes in the order PyTorch's engine does, ties included.

torch keeps ready nodes in a C++ priority queue keyed by creation number;
leaves (AccumulateGrad) all share the largest number, so when several are
ready at once they come out in the heap's own order (a, c, b, d for four),
not first-in first-out. The order is read from torch with register_prehook.

``backward()`` and ``backward_steps``: the real pass (``fast._walk``) makes no
step object for most nodes and adds gradients into buffers it owns in place, the
shown pass (``engine.walk``) keeps every value. Both must run the nodes in
PyTorch's order and give PyTorch's gradients, on programs where hooks,
``retain_grad``, ``inputs=``, shared subgraphs and several roots meet.

The order is read from the hooks themselves (a hook on every intermediate
tensor records its name), in torch, in ``backward()`` and in the steps."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
import minigrad as mg
from minigrad.autograd import backward_steps


def torch_order(out):
    seen, stack, handles, order = set(), [out.grad_fn], [], []
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        handles.append(node.register_prehook(lambda grads, node=node: order.append(node)))
        stack += [child for child, _ in node.next_functions]
    out.backward(retain_graph=True)
    for handle in handles:
        handle.remove()
    return order


def described(nodes, leaves):
    """Node names, with leaves replaced by their position in ``leaves``."""
    index = {id(leaf): i for i, leaf in enumerate(leaves)}
    return [f"leaf {index[id(n.variable)]}" if hasattr(n, "variable") else n.name()
            for n in nodes]


GRAPHS = {
    "stack of 4": lambda lib, xs: (lib.stack(xs[:4]) * 2).sum(),
    "cat of 7": lambda lib, xs: lib.cat(xs).sum(),
    "stack of 7, twice": lambda lib, xs: (lib.stack(xs) * lib.stack(xs[::-1])).sum(),
    "sum of products": lambda lib, xs: (xs[0] * xs[1] + xs[2] * xs[3] * xs[4]).sum(),
}


@pytest.mark.parametrize("name", GRAPHS)
def test_order_equals_torchs_with_many_leaves_ready_at_once(name):
    data = [np.random.default_rng(i).standard_normal(3).astype(np.float32) for i in range(7)]
    theirs = [torch.tensor(d, requires_grad=True) for d in data]
    mine = [minigrad.tensor(d, requires_grad=True) for d in data]
    expected = described(torch_order(GRAPHS[name](torch, theirs)), theirs)
    steps = minigrad.autograd.backward_steps(GRAPHS[name](minigrad, mine))
    assert described([step.node for step in steps], mine) == expected


def test_execution_order_takes_another_libraries_creation_numbers():
    xs = [torch.ones(2, requires_grad=True) for _ in range(5)]
    out = torch.stack(xs).sum()
    order = minigrad.autograd.execution_order([out.grad_fn],
                                              sequence_nr=lambda n: n._sequence_nr())
    assert list(order) == torch_order(out)



# ---- backward() and backward_steps, on programs with hooks -------------------------

def _data(seed, shape=(3, 4)):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def program(lib, log, hooks=True):
    """Leaves a, b, c; a shared subexpression used four times; a hook that
    replaces a gradient, one that only looks, and a retained non-leaf."""
    a = lib.tensor(_data(1), requires_grad=True)
    b = lib.tensor(_data(2), requires_grad=True)
    c = lib.tensor(_data(3)[0], requires_grad=True)  # broadcast along the rows

    def named(tensor, name):
        if hooks and tensor.requires_grad:
            tensor.register_hook(lambda g, name=name: log.append(name))
        return tensor

    shared = named(a * b, "shared")
    doubled = named(shared * 2.0, "doubled")
    if hooks:
        doubled.register_hook(lambda g: g * 3)  # replaces the gradient
    branch = named((shared + c).tanh(), "branch")
    branch.retain_grad()
    mixed = named(shared * branch - shared.exp() * 0.5, "mixed")
    out = named((doubled + mixed).sum() + (mixed * c).mean(), "out")
    return (a, b, c), {"branch": branch, "shared": shared}, out


def _grads(leaves):
    return [None if leaf.grad is None else leaf.grad.detach().numpy().copy() for leaf in leaves]


@pytest.mark.filterwarnings("ignore:The .grad attribute of a Tensor that is not a leaf")
@pytest.mark.parametrize("inputs", [None, "a", "b,c", "shared"])
def test_backward_and_steps_agree_with_torch_and_each_other(inputs):
    def pick(leaves, kept):
        names = {"a": leaves[0], "b": leaves[1], "c": leaves[2], "shared": kept["shared"]}
        return None if inputs is None else [names[n] for n in inputs.split(",")]

    torch_log, shown_log, real_log = [], [], []
    t_leaves, t_kept, t_out = program(torch, torch_log)
    t_out.backward(inputs=pick(t_leaves, t_kept))

    log = []
    m_leaves, m_kept, m_out = program(mg, log)
    steps = list(backward_steps(m_out, inputs=pick(m_leaves, m_kept)))
    shown_log[:], log[:] = log, []
    assert all(leaf.grad is None for leaf in m_leaves)  # showing changed nothing
    shown = {id(s.node.variable): s.leaf_grad for s in steps if s.is_leaf}
    shown_retained = {id(t): g for s in steps for t, g in s.retained}
    m_out.backward(inputs=pick(m_leaves, m_kept))
    real_log[:] = log

    assert shown_log == real_log == torch_log  # the nodes ran in torch's order
    for ours, theirs in zip(_grads(m_leaves), _grads(t_leaves)):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    for leaf in m_leaves:  # the steps said exactly what .grad became
        if leaf.grad is not None:
            np.testing.assert_array_equal(shown[id(leaf)].numpy(), leaf.grad.numpy())
    for name in ("branch", "shared"):
        ours, theirs = m_kept[name].grad, t_kept[name].grad
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
        if id(m_kept[name]) in shown_retained:  # (inputs= retains only in the real pass)
            np.testing.assert_array_equal(shown_retained[id(m_kept[name])].numpy(),
                                          ours.numpy())
    assert (id(m_kept["branch"]) in shown_retained) == (m_kept["branch"].grad is not None)


def test_autograd_grad_equals_the_steps_and_torch():
    def run(lib):
        leaves, kept, out = program(lib, [])
        return [g.detach().numpy() for g in
                lib.autograd.grad(out, [leaves[2], kept["shared"], leaves[0]])]

    ours, theirs = run(mg), run(torch)
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-6)


def test_gradients_summed_in_place_leave_every_array_they_came_from_intact():
    """A node that receives many new arrays sums them into one of them (the
    real pass only); nothing the program holds may change."""
    x = mg.tensor(_data(4), requires_grad=True)
    y = x * 1.5
    parts = [y * float(k) for k in range(1, 6)] + [y.exp(), y]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    seed = mg.tensor(_data(5))
    before = seed.numpy().copy(), y.detach().numpy().copy()
    steps = list(backward_steps(total, seed))
    total.backward(seed)
    np.testing.assert_array_equal(seed.numpy(), before[0])
    np.testing.assert_array_equal(y.detach().numpy(), before[1])
    np.testing.assert_array_equal(steps[-1].leaf_grad.numpy(), x.grad.numpy())
    xt = torch.tensor(_data(4), requires_grad=True)
    yt = xt * 1.5
    parts = [yt * float(k) for k in range(1, 6)] + [yt.exp(), yt]
    sum(parts[1:], parts[0]).backward(torch.tensor(_data(5)))
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-6)


def test_a_kept_reference_to_grad_stays_current_and_zero_dim_sums_work():
    """(0-d gradients come back from NumPy sums as scalars, not arrays.)"""
    def run(lib):
        x = lib.tensor(2.0, requires_grad=True)
        y = x * 1
        (y * y + y + y * 3 + y.exp()).backward()
        kept = x.grad
        (x * x + x).backward()
        return kept.item(), x.grad.item(), kept is x.grad
    assert run(mg) == pytest.approx(run(torch))


def test_two_roots_on_one_node_and_a_seed_the_caller_keeps():
    def run(lib):
        x = lib.tensor(_data(6), requires_grad=True)
        y = x.tanh()
        seed = lib.ones(3, 4)
        lib.autograd.backward([y, y * 2, y], [seed, seed, seed])
        return x.grad.numpy().copy(), seed.numpy().copy()
    for ours, theirs in zip(run(mg), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_create_graph_walk_records_torchs_nodes_and_second_order_grads():
    def run(lib):
        leaves, kept, out = program(lib, [], hooks=False)
        grads = lib.autograd.grad(out, leaves, create_graph=True)
        names = [g.grad_fn.name() for g in grads]
        sum(g.sum() for g in grads).backward()
        return names, _grads(leaves)
    ours, theirs = run(mg), run(torch)
    assert ours[0] == theirs[0]
    for o, t in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(o, t, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("uses", [1, 2])
def test_a_gradient_a_custom_function_hands_back_is_never_written_into(uses):
    """A custom Function's backward may return a tensor its author keeps (a constant,
    a cache). Torch never adds into it; neither does minigrad, whether the gradient
    meets another one at a node (two uses) or becomes a leaf's .grad and then grows
    (two backward passes)."""
    results = []
    for lib in (mg, torch):
        kept = lib.ones(3)

        class Constant(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return kept

        x = lib.zeros(3, requires_grad=True)
        for _ in range(2):
            outputs = [Constant.apply(x) for _ in range(uses)]
            sum(out.sum() for out in outputs).backward()
        results.append((kept.tolist(), x.grad.tolist(), x.grad is kept))
    assert results[0] == results[1]
    assert results[0][0] == [1.0, 1.0, 1.0]


def _nodes_made_by(lib, call):
    """How many graph nodes ``call`` records: torch numbers every node it makes
    (``_sequence_nr()``), so the numbers of two probe nodes tell it."""
    probe = lib.ones(1, requires_grad=True)

    def number(node):
        return node._sequence_nr() if lib is torch else node._sequence_nr
    before = number((probe * 1).grad_fn)
    result = call()
    return number((probe * 1).grad_fn) - before - 1, result


@pytest.mark.parametrize("wanted", ["x", "w", "x,w", "h"])
def test_grad_computes_only_the_gradients_that_lead_to_its_inputs(wanted):
    """As torch's should_compute_output: for ``autograd.grad(out, x)`` a node whose
    other input (w, used by every layer) leads nowhere wanted computes nothing for
    it; with create_graph that is seen in the nodes recorded (the gradients and
    second-order gradients stay torch's: NumPy's tanh may differ in the last bit)."""
    def run(lib):
        x = lib.tensor(_data(7, (4, 4)), requires_grad=True)
        w = lib.tensor(_data(8, (4, 4)), requires_grad=True)
        h = x * 0.5
        named = {"x": x, "w": w, "h": h}
        for _ in range(4):
            h = (h * w + 1).tanh()
        inputs = [named[n] for n in wanted.split(",")]
        made, grads = _nodes_made_by(
            lib, lambda: lib.autograd.grad(h.sum(), inputs, create_graph=True))
        sum((g * g).sum() for g in grads).backward(retain_graph=True)
        plain = lib.autograd.grad((h * h).sum(), inputs)
        return made, [g.detach().numpy() for g in grads + plain], _grads([x, w])
    ours, theirs = run(mg), run(torch)
    assert ours[0] == theirs[0]
    for o, t in zip(ours[1] + ours[2], theirs[1] + theirs[2]):
        assert (o is None) == (t is None)
        if o is not None:
            np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-7)


def test_a_weights_gradient_seen_through_t_becomes_its_grad_without_a_copy():
    """A linear layer's weight gradient is a new product seen through t() twice
    (AddmmBackward0, then TBackward0): the weight keeps that view as its .grad, as
    torch keeps it, instead of copying it; a second backward adds into it."""
    def run(lib):
        w = lib.tensor(_data(7, (5, 4)), requires_grad=True)
        x, b = lib.tensor(_data(8, (3, 4))), lib.zeros(5, requires_grad=True)
        lib.nn.functional.linear(x, w, b).tanh().sum().backward()
        first = w.grad
        lib.nn.functional.linear(x, w, b).sin().sum().backward()
        return first is w.grad, w.grad.numpy().copy(), b.grad.numpy().copy(), w.grad
    ours, theirs = run(mg), run(torch)
    assert ours[0] and theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-6)
    assert not ours[3]._data.flags.owndata  # (kept, not copied: what this test pins)


def _kept_values_after_a_second_backward(lib, keep):
    """Backward through x @ w.t() twice; ``keep`` takes what the program keeps of the
    first pass (a hook's gradient, a retained one, a seed, autograd.grad's result)."""
    w, x = lib.tensor(_data(9, (2, 3)), requires_grad=True), lib.tensor(_data(10, (4, 3)))
    kept = keep(lib, w, x)
    before = kept.numpy().copy()
    (x @ w.t()).sum().backward()
    return before, kept.numpy().copy(), w.grad.numpy().copy()


def _by_hook(lib, w, x):
    kept = []
    wt = w.t()
    wt.register_hook(kept.append)
    (x @ wt).sum().backward()
    return kept[0]


def _retained(lib, w, x):
    wt = w.t()
    wt.retain_grad()
    (x @ wt).sum().backward()
    return wt.grad


def _seed(lib, w, x):
    seed = lib.ones(3, 2)
    w.t().backward(seed)
    return seed


def _from_autograd_grad(lib, w, x):
    return lib.autograd.grad((x @ w.t()).sum(), w)[0]


@pytest.mark.parametrize("keep", [_by_hook, _retained, _seed, _from_autograd_grad],
                         ids=["hook", "retain_grad", "seed", "autograd.grad"])
def test_what_the_program_kept_of_a_gradient_does_not_change_when_grad_grows(keep):
    """The weight keeps a view as its .grad only when nothing else reaches its memory.
    (torch differs for the hook: the tensor its hook saw is a view of the memory the
    weight's .grad steals, and the second backward changes it.)"""
    before, after, grad = _kept_values_after_a_second_backward(mg, keep)
    np.testing.assert_array_equal(before, after)
    theirs = _kept_values_after_a_second_backward(torch, keep)
    np.testing.assert_allclose(grad, theirs[2], rtol=1e-6)
    if keep is not _by_hook:
        np.testing.assert_array_equal(theirs[0], theirs[1])
