"""The reference walk and backward()'s fast walk are one walk.

``engine.walk`` (behind ``backward_steps``) is the walk learners read and the stepper
shows; ``backward()`` takes ``fast._walk``, which reuses buffers, skips step objects
and inlines the order. Here every program runs twice on minigrad: once as it is, once
with ``fast._walk`` replaced by the reference walk (applying what its steps show, as
``run_backward`` applies the fast walk's). The two runs must show the same thing: the
nodes run in the same order, the hooks called with the same values, every tensor
shown with the same bits (``.grad`` included), and the same errors.

The programs are the fuzz generator's (``support/fuzz_programs.py``, every family, 30
seeds each) and the hypothesis-generated programs of ``programs/test_program_props.py``
(150, drawn by ``support/program_generator.py``).
Programs with ``create_graph=True`` keep the fast walk for those calls (the
reference walk computes on arrays); the rest of them is compared as above.
"""

from __future__ import annotations

import random
import re
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import fuzz_programs
import minigrad
from minigrad.autograd import engine, fast
from minigrad.autograd.node import AccumulateGrad, Node
from program_generator import Interpreter, leaves, steps

FAST_WALK = fast._walk


def reference_walk(roots, targets, keep_graph: bool, create_graph: bool,
                   accumulate: bool = True):
    """``fast._walk``'s contract (the steps ``run_backward`` applies: leaves, retained
    gradients, ``inputs=``), met by the reference walk."""
    if create_graph:
        yield from FAST_WALK(roots, targets, keep_graph, create_graph, accumulate)
        return
    root_nodes = [node for node, _, _ in roots]
    needed = None if targets is None else \
        engine.needed_nodes(engine.count_dependencies(root_nodes), targets)
    for step in engine.walk(roots, targets, accumulate):
        node, leaf = step.node, type(step.node) is AccumulateGrad
        ran = not leaf and any(grad is not None for grad in step.grad_outputs) and (
            needed is None or accumulate or engine.leads_further(node, needed))
        if ran and not keep_graph:
            node.release_saved()  # (as the fast walk frees a node's saved tensors)
        if leaf or step.retained or (targets is not None and node in targets):
            step._owned = False
            yield step


def _described(value):
    """What a run shows of a value: its text, and for a tensor its bits and its grad's."""
    if isinstance(value, minigrad.Tensor):
        grad = value._grad
        return (repr(value), value._data.dtype.str, value._data.shape, value._data.tobytes(),
                None if grad is None else grad._data.tobytes())
    if isinstance(value, (tuple, list)):
        return tuple(_described(v) for v in value)
    return _ADDRESS.sub("0x?", repr(value))


_ADDRESS = re.compile(r"0x[0-9a-f]+")


def _chain(node, depth: int = 0) -> str:
    """A node and those behind it, by name."""
    if node is None or depth > 6:
        return "None"
    return node.name() + "(" + ",".join(
        f"{_chain(n, depth + 1)}:{nr}" for n, nr in node.next_functions) + ")"


def _run_source(src: str) -> list:
    """A fuzz program, line by line, with ``torch`` bound to minigrad."""
    out: list = []
    lib = minigrad
    env = {"torch": lib, "F": lib.nn.functional, "nn": lib.nn, "optim": lib.optim,
           "show": lambda *values: out.extend(_described(v) for v in values),
           "gfn": lambda t: out.append(_chain(t.grad_fn))}
    for line in src.strip().split("\n"):
        try:
            exec(line, env)
        except Exception as error:  # noqa: BLE001 (the error is what is compared)
            out.append(("raised", type(error).__name__, str(error)))
            break
    for name, value in sorted(env.items()):  # (what the program left behind, grads too)
        if isinstance(value, minigrad.Tensor):
            out.append((name, _described(value)))
    return out


def _both_walks(run, anomaly: bool = False) -> tuple:
    """``run()`` with the fast walk, then with the reference walk; what each showed,
    with the nodes whose formulas ran, in order. ``anomaly``: in anomaly mode, and the
    warnings shown too (the forward stacks, the nodes named)."""
    results = []
    formula, inline_formula = Node.run_formula, fast._run_formula
    for walk in (FAST_WALK, reference_walk):
        order: list = []
        inside = []  # (the fast walk's inline formula may call run_formula: logged once)

        def logging(function):
            def logged(node, *args, **kwargs):
                if not inside:
                    order.append(type(node).__name__)
                inside.append(node)
                try:
                    return function(node, *args, **kwargs)
                finally:
                    inside.pop()
            return logged

        fast._walk, Node.run_formula = walk, logging(formula)
        fast._run_formula = logging(inline_formula)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always" if anomaly else "ignore")
                with minigrad.autograd.set_detect_anomaly(anomaly):
                    shown = run()
        finally:
            fast._walk, Node.run_formula, fast._run_formula = FAST_WALK, formula, inline_formula
        if anomaly:
            shown = shown + [("warned", w.category.__name__, _ADDRESS.sub("0x?", str(w.message)))
                             for w in caught]
        results.append((shown, order))
    return results


def _assert_same(results) -> None:
    (fast_shown, fast_order), (ref_shown, ref_order) = results
    assert fast_order == ref_order
    assert fast_shown == ref_shown


FUZZ = [(family.__name__, seed) for family in fuzz_programs.FAMS for seed in range(30)]


@pytest.mark.parametrize("family, seed", FUZZ)
def test_fuzz_programs_take_one_walk(family, seed):
    src = "\n".join(getattr(fuzz_programs, family)(random.Random(seed)))
    _assert_same(_both_walks(lambda: _run_source(src)))


@pytest.mark.parametrize("family, seed", [(f, s) for f, s in FUZZ if s < 10])
def test_fuzz_programs_take_one_walk_in_anomaly_mode(family, seed):
    """The same programs in anomaly mode: the same NaN errors, naming the same nodes,
    and the same warnings (each with the forward line of the node that failed)."""
    src = "\n".join(getattr(fuzz_programs, family)(random.Random(seed)))
    _assert_same(_both_walks(lambda: _run_source(src), anomaly=True))


def prog_node_hooks(r) -> list:
    """A fuzz program with ``grad_fn.register_prehook`` / ``register_hook`` on its
    nodes (and on a leaf's AccumulateGrad), hooks that log what they see, scale it, or
    return a wrong count; with tensor hooks and retain_grad beside them; backward, or
    backward with inputs=, or autograd.grad; some programs make a NaN."""
    lines = [
        "log = []",
        f"a = torch.tensor({[round(r.uniform(-2, 2), 2) for _ in range(3)]}, requires_grad=True)",
        f"b = torch.tensor({[round(r.uniform(-2, 2), 2) for _ in range(3)]}, requires_grad=True)",
        "c = a * b",
        f"d = c.{r.choice(['exp', 'tanh', 'sigmoid', 'sqrt', 'log', 'abs'])}()",
        f"e = (d * {r.choice(['c', 'a', '2.0', 'b'])}).sum()",
    ]
    nodes = ["c.grad_fn", "d.grad_fn", "e.grad_fn"]
    if r.random() < 0.5:
        nodes.append("c.grad_fn.next_functions[0][0]")  # a's AccumulateGrad
    for _ in range(r.randint(1, 4)):
        node = r.choice(nodes)
        kind = r.choice(["pre", "post", "pre_scale", "post_scale", "post_count", "pre_none"])
        lines.append({
            "pre": f"h = {node}.register_prehook(lambda go: show(*go))",
            "pre_none": f"h = {node}.register_prehook(lambda go: None)",
            "post": f"h = {node}.register_hook(lambda gi, go: show(*gi, *go))",
            "pre_scale": f"h = {node}.register_prehook(lambda go: tuple(g * 3 for g in go))",
            "post_scale": f"h = {node}.register_hook(lambda gi, go: tuple("
                          "None if g is None else g + 1 for g in gi))",
            "post_count": f"h = {node}.register_hook(lambda gi, go: gi + gi)",
        }[kind])
        if r.random() < 0.2:
            lines.append("h.remove()")
    if r.random() < 0.3:
        lines.append("c.register_hook(lambda g: g * 2)")
    if r.random() < 0.3:
        lines.append("d.retain_grad()")
    lines.append(r.choice(["e.backward()", "e.backward(inputs=[a])", "e.backward(inputs=[c])",
                           "show(*torch.autograd.grad(e, [c]))"]))
    lines.append("show(a.grad, b.grad)")
    return lines


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("anomaly", [False, True])
def test_node_hook_programs_take_one_walk(seed, anomaly):
    src = "\n".join(prog_node_hooks(random.Random(seed)))
    _assert_same(_both_walks(lambda: _run_source(src), anomaly=anomaly))


class _Shown:
    """A Recorder for the generated programs: what they show, described as above."""

    def __init__(self, lib) -> None:
        self.lib, self.leaves, self.entries = lib, [], []

    def leaf(self, values, requires_grad: bool = True, dtype=None):
        tensor = self.lib.tensor(np.array(values, dtype=dtype or np.float32),
                                 requires_grad=requires_grad)
        self.leaves.append(tensor)
        return tensor

    def show(self, label: str, value, graph: bool = True, zero_sign: bool = True) -> None:
        self.entries.append((label, _described(value)))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(arrays=leaves(), program=st.lists(steps, min_size=1, max_size=10))
def test_generated_programs_take_one_walk(arrays, program):
    def run():
        rec = _Shown(minigrad)
        try:
            Interpreter(minigrad, rec).run(arrays, program)
        except Exception as error:  # noqa: BLE001 (the error is what is compared)
            rec.entries.append(("raised", type(error).__name__, str(error)))
        return rec.entries + [("leaf", _described(leaf)) for leaf in rec.leaves]
    _assert_same(_both_walks(run))


def test_the_reference_walk_is_the_one_that_ran():
    """The comparison means something: with the reference walk in place, the fast walk
    does not run at all."""
    calls = []

    def counting(*args, **kwargs):
        calls.append(1)
        return FAST_WALK(*args, **kwargs)

    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    fast._walk = reference_walk
    try:
        (x * x).sum().backward()
    finally:
        fast._walk = FAST_WALK
    assert x.grad.tolist() == [2.0, 4.0] and calls == []
    fast._walk = counting
    try:
        (x * x).sum().backward()
    finally:
        fast._walk = FAST_WALK
    assert x.grad.tolist() == [4.0, 8.0] and calls == [1]


@pytest.mark.parametrize("hook", ["node pre-hook", "tensor hook", "both"])
@pytest.mark.parametrize("runs_on", [True, False], ids=["runs on", "runs no further"])
def test_autograd_grad_hands_back_an_input_gradient_as_torch_captures_it(hook, runs_on):
    """``autograd.grad``'s gradient for an input whose node runs on toward another input
    is the one that arrived, before any hook (its node's pre-hooks too); for one whose
    node runs no further, the one after its tensor hooks: PyTorch's engine captures them
    so. Semantic seed 34657 (a node pre-hook's change came back). Both walks, and torch."""
    def run(lib):
        x = lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)
        y = x.tanh()
        if hook != "tensor hook":
            y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
        if hook != "node pre-hook":
            y.register_hook(lambda grad: grad + 1)
        grads = minigrad.autograd.grad if lib is minigrad else torch.autograd.grad
        return [g.tolist() for g in grads(y * 3, [x, y] if runs_on else [y],
                                          lib.full((2,), 0.5, dtype=lib.float64))]
    (fast_shown, _), (reference_shown, _) = _both_walks(lambda: run(minigrad))
    assert fast_shown == reference_shown == run(torch)
