"""Property-based tests over whole programs, not single ops.

Hypothesis draws a program: a short list of steps over a growing pool of tensors
(leaves, results, detached aliases, gradients). Steps mix what the single-op suites
never combine: detach, setitem, in-place ops, views, hooks, retain_grad, backward
twice, backward with create_graph and grads of grads. The same program runs on
minigrad and on PyTorch 2.13 (see programs.py), and everything it shows must agree:
values (with signed zeros and NaNs), grads, printed text, grad_fn names along
next_functions, and the exception type and message if it fails.

One comparison is left out, on purpose and only for tensors that come out of a
``create_graph=True`` backward in a program that used ``prod``: the NAMES of the nodes
prod's backward formula records (torch computes the gradient of a product with zeros
through cumprod, CumprodBackward0; minigrad with a plain product). Their values, grads
and requires_grad are still compared; every other second-order graph is compared by
name too.
"""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from programs import assert_same_run

# Values that float64 represents exactly, zeros of both signs among them.
VALUES = [-2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0]

# The gradient backward starts from (filled with one value): signs, a zero, a NaN.
SEEDS = [1.0, -1.0, 0.5, -0.0, float("nan")]

UNARY = {
    "exp": lambda lib, t: t.exp(),
    "sigmoid": lambda lib, t: t.sigmoid(),
    "tanh": lambda lib, t: t.tanh(),
    "relu": lambda lib, t: t.relu(),
    "neg": lambda lib, t: -t,
    "abs": lambda lib, t: t.abs(),
    "sin": lambda lib, t: t.sin(),
    "square": lambda lib, t: t ** 2,
    "pow0": lambda lib, t: t ** 0,
    "times -1": lambda lib, t: t * -1,
    "clamp": lambda lib, t: t.clamp(-1, 1),
    "clamp min": lambda lib, t: t.clamp(min=0.5),
    "sum": lambda lib, t: t.sum(),
    "sum(0)": lambda lib, t: t.sum(0),
    "mean(-1)": lambda lib, t: t.mean(-1),
    "max": lambda lib, t: t.max(),
    "max(0)": lambda lib, t: t.max(0).values,
    "min(-1)": lambda lib, t: t.min(-1).values,
    "prod": lambda lib, t: t.prod(),
    "softmax(0)": lambda lib, t: t.softmax(0),
    "t": lambda lib, t: t.t() if t.ndim <= 2 else t,
    "transpose(0, -1)": lambda lib, t: t.transpose(0, -1),
    "flip(0)": lambda lib, t: t.flip(0),
    "unsqueeze(0)": lambda lib, t: t.unsqueeze(0),
    "reshape(-1)": lambda lib, t: t.reshape(-1),
    "view(-1)": lambda lib, t: t.view(-1),
    "clone": lambda lib, t: t.clone(),
    "contiguous": lambda lib, t: t.contiguous(),
    "[0]": lambda lib, t: t[0],
    "[1:]": lambda lib, t: t[1:],
    "[[1, 0]]": lambda lib, t: t[[1, 0]],
    "[:, tensor([1, 0])]": lambda lib, t: t[:, lib.tensor([1, 0])],
    "[t > 0]": lambda lib, t: t[t > 0],
    "masked_fill": lambda lib, t: t.masked_fill(t > 0, 0.5),
    "detach": lambda lib, t: t.detach(),
    "where": lambda lib, t: lib.where(t > 0, t, -t),
}

BINARY = {
    "add": lambda lib, a, b: a + b,
    "sub": lambda lib, a, b: a - b,
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / b,
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "where": lambda lib, a, b: lib.where(a > b, a, b),
}

INPLACE = {
    "add_(1)": lambda lib, t, other: t.add_(1),
    "mul_(2)": lambda lib, t, other: t.mul_(2),
    "mul_(other)": lambda lib, t, other: t.mul_(other),
    "zero_()": lambda lib, t, other: t.zero_(),
    "clamp_(0, 1)": lambda lib, t, other: t.clamp_(0, 1),
    "[0] = 0.5": lambda lib, t, other: t.__setitem__(0, 0.5),
    "[0] = other": lambda lib, t, other: t.__setitem__(0, other.sum()),
    "[1:] = -1": lambda lib, t, other: t.__setitem__(slice(1, None), -1.0),
    "[[0]] = 2": lambda lib, t, other: t.__setitem__([0], 2.0),
    "[t > 0] = 0": lambda lib, t, other: t.__setitem__(t > 0, 0.0),
    "fill_(other)": lambda lib, t, other: t.fill_(other.sum()),
    "exp_()": lambda lib, t, other: t.exp_(),
    "sigmoid_()": lambda lib, t, other: t.sigmoid_(),
    "tanh_()": lambda lib, t, other: t.tanh_(),
    "relu_()": lambda lib, t, other: t.relu_(),
    "abs_()": lambda lib, t, other: t.abs_(),
    "neg_()": lambda lib, t, other: t.neg_(),
    "pow_(2)": lambda lib, t, other: t.pow_(2),
    "sqrt_()": lambda lib, t, other: t.sqrt_(),
    "masked_fill_(t > 0, 0.5)": lambda lib, t, other: t.masked_fill_(t > 0, 0.5),
}

# Views a write can go through (or around): each shares memory with its input.
VIEWS = {
    "[0]": lambda lib, t: t[0],
    "[1:]": lambda lib, t: t[1:],
    "[:, 1]": lambda lib, t: t[:, 1] if t.ndim >= 2 else t[1:],
    "t": lambda lib, t: t.t() if t.ndim <= 2 else t,
    "transpose(0, -1)": lambda lib, t: t.transpose(0, -1),
    "unsqueeze(0)": lambda lib, t: t.unsqueeze(0),
    "view(-1)": lambda lib, t: t.view(-1) if t.is_contiguous() else t.reshape(-1),
    "[None, ...]": lambda lib, t: t[None, ...],
}

steps = st.one_of(
    st.tuples(st.just("write through a view"), st.sampled_from(sorted(VIEWS)),
              st.sampled_from(sorted(INPLACE)), st.integers(0, 99), st.integers(0, 99)),
    st.tuples(st.just("write around a view"), st.sampled_from(sorted(VIEWS)),
              st.sampled_from(sorted(INPLACE)), st.integers(0, 99), st.integers(0, 99)),
    st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), st.integers(0, 99)),
    st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), st.integers(0, 99),
              st.integers(0, 99)),
    st.tuples(st.just("clone and write"), st.sampled_from(sorted(INPLACE)), st.integers(0, 99),
              st.integers(0, 99)),
    st.tuples(st.just("in place"), st.sampled_from(sorted(INPLACE)), st.integers(0, 99),
              st.integers(0, 99)),
    st.tuples(st.just("hook"), st.sampled_from(["double", "negate", "observe"]),
              st.integers(0, 99)),
    st.tuples(st.just("retain_grad"), st.integers(0, 99)),
    st.tuples(st.just("backward"), st.integers(0, 99), st.sampled_from(SEEDS), st.booleans(),
              st.booleans()),
    st.tuples(st.just("grad"), st.integers(0, 99), st.sampled_from(SEEDS), st.booleans()),
    st.tuples(st.just("take grad"), st.integers(0, 99)),
    st.tuples(st.just("zero grads")),
)

SHAPES = [(2, 3), (2, 3), (2, 3), (3,), (3, 1), ()]


@st.composite
def leaves(draw):
    """One or two leaves, of one shape (most ops then apply to both)."""
    shape = draw(st.sampled_from(SHAPES))
    size = int(np.prod(shape, dtype=np.int64))
    count = draw(st.integers(1, 2))
    return [np.array(draw(st.lists(st.sampled_from(VALUES), min_size=size, max_size=size)))
            .reshape(shape) for _ in range(count)]


class Interpreter:
    """Runs a drawn program on one library, showing each new tensor.

    Tensors that come out of a create_graph backward, and everything computed from
    them, are "second order": after a prod, their node names are not compared (see the
    module docstring).
    """

    def __init__(self, lib, rec) -> None:
        self.lib, self.rec = lib, rec
        self.pool: list = []  # [(tensor, second_order)]
        self.leaves: list = []
        self.second_order_grads: set = set()  # leaf positions whose .grad is second order
        self.grads: list = []  # gradients put in the pool
        self.prod_used = False

    def pick(self, k):
        return self.pool[k % len(self.pool)]

    def pick_in_graph(self, k, leaves_too=False):
        """Position k among the pooled tensors that require grad (and are not leaves,
        unless ``leaves_too``): where in-place ops, hooks and backward make sense.
        None when there is none (the step is then skipped)."""
        found = [(t, second) for t, second in self.pool if t.requires_grad
                 and (leaves_too or t.grad_fn is not None)]
        return found[k % len(found)] if found else (None, False)

    def partner(self, k, shape):
        """The first pooled tensor from position k on whose shape broadcasts with ``shape``."""
        for offset in range(len(self.pool)):
            tensor, second = self.pool[(k + offset) % len(self.pool)]
            try:
                np.broadcast_shapes(tuple(shape), tuple(tensor.shape))
            except ValueError:
                continue
            return tensor, second
        return self.lib.tensor(0.5, dtype=self.lib.float64), False

    def add(self, label, tensor, second) -> None:
        self.pool.append((tensor, second))
        self.show(label, tensor, second)

    def show(self, label, tensor, second, zero_sign=True) -> None:
        unnamed = second and self.prod_used
        self.rec.show(label, tensor, graph=not unnamed, zero_sign=zero_sign)
        if unnamed and tensor is not None:
            self.rec.entries[-1] = (label, self._without_node_names(self.rec.entries[-1][1]))

    def _without_node_names(self, entry):
        """A second-order tensor as shown, without the names of its nodes (whether it
        has a node at all is still compared)."""
        if isinstance(entry, tuple):
            return tuple(self._without_node_names(e) for e in entry)
        if isinstance(entry, dict):
            text = _NODE_NAME.sub(", grad_fn=<...>", entry["repr"])
            return {**entry, "repr": text, "graph": None}
        return entry

    def show_grads(self, label) -> None:
        for k, leaf in enumerate(self.leaves):
            self.show(f"{label}: leaf {k} grad", leaf.grad, k in self.second_order_grads)

    def run(self, arrays, program) -> None:
        for array in arrays:
            leaf = self.rec.leaf(array, dtype=np.float64)
            self.leaves.append(leaf)
            self.pool.append((leaf, False))
        for leaf in list(self.leaves):
            self.add("leaf * 1", leaf * 1, False)
        for step in program:
            getattr(self, "step_" + step[0].replace(" ", "_"))(*step[1:])

    def step_unary(self, name, k):
        tensor, second = self.pick(k)
        result = UNARY[name](self.lib, tensor)
        self.prod_used |= name == "prod"
        if name in ("max", "min"):
            # Which of -0. and 0. a full max() returns on a tie depends on the order
            # torch's vectorised loop visits them: not compared (its value is).
            self.pool.append((result, second))
            self.show(name, result, second, zero_sign=False)
            return
        self.add(name, result, second)

    def step_binary(self, name, k, j):
        a, second_a = self.pick(k)
        b, second_b = self.partner(j, a.shape)
        self.add(name, BINARY[name](self.lib, a, b), second_a or second_b)

    def step_clone_and_write(self, name, k, j):
        tensor, second = self.pick(k)
        target = tensor.clone()
        other, second_other = self.pick(j)
        INPLACE[name](self.lib, target, other)
        self.add(f"clone, then {name}", target, second or second_other)

    def step_in_place(self, name, k, j):
        # (a leaf now and then: torch refuses that, and so must minigrad; and now
        # and then any tensor: a gradient, which may be an expanded tensor)
        tensor, second = self.pick(k) if k % 8 == 1 else \
            self.pick_in_graph(k, leaves_too=k % 8 == 0)
        if tensor is None:
            return
        other, second_other = self.pick(j)
        INPLACE[name](self.lib, tensor, other)
        self.show(f"in place {name}", tensor, second or second_other)
        if second_other:
            self.pool = [(t, s or t is tensor) for t, s in self.pool]

    def view_of(self, view_name, k):
        """A view of a pooled tensor that is in the graph (or None), put in the pool."""
        tensor, second = self.pick_in_graph(k)
        if tensor is None or tensor.ndim == 0 and view_name not in ("unsqueeze(0)", "[None, ...]",
                                                                     "view(-1)", "t",
                                                                     "transpose(0, -1)"):
            return None, None, False
        view = VIEWS[view_name](self.lib, tensor)
        self.add(view_name, view, second)
        return tensor, view, second

    def step_write_through_a_view(self, view_name, name, k, j):
        """An in-place op on a view of a non-leaf: torch records CopySlices on the
        base, and the view's node becomes AsStridedBackward0."""
        base, view, second = self.view_of(view_name, k)
        if view is None:
            return
        other, second_other = self.pick(j)
        INPLACE[name](self.lib, view, other)
        self.show(f"{name} through {view_name}: view", view, second or second_other)
        self.show(f"{name} through {view_name}: base", base, second or second_other)
        if second_other:
            self.pool = [(t, s or t is view or t is base) for t, s in self.pool]

    def step_write_around_a_view(self, view_name, name, k, j):
        """An in-place op on a non-leaf that has a view: the view's node is rebuilt
        (AsStridedBackward0) from the base's new one."""
        base, view, second = self.view_of(view_name, k)
        if view is None:
            return
        other, second_other = self.pick(j)
        INPLACE[name](self.lib, base, other)
        self.show(f"{name} around {view_name}: base", base, second or second_other)
        self.show(f"{name} around {view_name}: view", view, second or second_other)
        if second_other:
            self.pool = [(t, s or t is view or t is base) for t, s in self.pool]

    def step_hook(self, kind, k):
        tensor, _ = self.pick_in_graph(k, leaves_too=True)
        if tensor is None:
            return
        hook = {"double": lambda g: g * 2, "negate": lambda g: -g,
                "observe": lambda g: None}[kind]
        # PyTorch 2.13 crashes (segfault) in register_hook on a view whose base was
        # changed in place since its grad_fn was last read; reading it first avoids that.
        tensor.grad_fn  # noqa: B018
        tensor.register_hook(hook)

    def step_retain_grad(self, k):
        tensor, _ = self.pick_in_graph(k)
        if tensor is not None:
            tensor.retain_grad()

    def seed(self, tensor, value):
        return self.lib.full(tuple(tensor.shape), value, dtype=tensor.dtype)

    def step_backward(self, k, seed, retain_graph, create_graph):
        tensor, second = self.pick_in_graph(k, leaves_too=True)
        if tensor is None:
            return
        tensor.backward(self.seed(tensor, seed), retain_graph=retain_graph,
                        create_graph=create_graph)
        if create_graph or second:
            self.second_order_grads.update(range(len(self.leaves)))
        self.show_grads("backward")

    def step_grad(self, k, seed, create_graph):
        tensor, second = self.pick_in_graph(k, leaves_too=True)
        if tensor is None:
            return
        grads = self.lib.autograd.grad(tensor, self.leaves, self.seed(tensor, seed),
                                       create_graph=create_graph, allow_unused=True,
                                       retain_graph=True)
        for n, grad in enumerate(grads):
            self.show(f"grad {n}", grad, True)
            if grad is not None:
                self.pool.append((grad, True))
                self.grads.append(grad)

    def step_take_grad(self, k):
        leaf = self.leaves[k % len(self.leaves)]
        if leaf.grad is not None:
            self.add("a leaf's grad", leaf.grad, True)
            self.grads.append(leaf.grad)

    def step_zero_grads(self):
        for leaf in self.leaves:
            leaf.grad = None
        self.second_order_grads.clear()


_NODE_NAME = re.compile(r",?\s*grad_fn=<[^>]*>")


# 300 programs, the same ones on every run (derandomize): a finding must not depend on
# the day. For a wider search run it with more examples and derandomize=False.
@settings(max_examples=300, deadline=None, derandomize=True)
@given(arrays=leaves(), program=st.lists(steps, min_size=1, max_size=10))
def test_generated_programs_run_as_in_torch(arrays, program):
    def run(lib, rec):
        Interpreter(lib, rec).run(arrays, program)
    assert_same_run(run)
