"""The widgets on real PyTorch graphs: the same drawing, torch's own order and gradients.

Every expectation is read from torch itself: node names from ``grad_fn``,
the order from ``register_prehook`` during a real ``backward()``, the
gradients each node received from the same hooks.
"""

import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import widgets
from minigrad.autograd import formula_for
from widgets import BackwardStepper, DerivativeCheck, GraphView, draw_graph, render_svg
from widget_svg import groups, parse, texts


# ---- graphs to try ------------------------------------------------------------


def tutorial():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return {"x": x, "y": y, "z": z, "out": out}, out, None


def mlp_with_branch():
    """An MLP with a residual branch, cross-entropy and weight decay."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4))
    head = torch.nn.Linear(4, 3)
    x, target = torch.randn(5, 3), torch.tensor([0, 2, 1, 1, 0])
    hidden = model(x)
    hidden = hidden + torch.relu(hidden)  # a branch: hidden is used twice
    logits = head(hidden)
    decay = sum((p ** 2).sum() for p in [*model.parameters(), *head.parameters()])
    loss = F.cross_entropy(logits, target) + 1e-2 * decay
    names = dict(model.named_parameters(), loss=loss)
    return names, loss, None


def vector_jacobian_product():
    """y.backward(v): a chain with a non-scalar output and a given gradient."""
    x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    y = (x.exp() * x).tanh() * 2 - x
    v = torch.tensor([0.3, 1.0, -2.0])
    return {"x": x, "y": y}, y, v


def stack_of_leaves():
    """Four leaves ready at once: ties, where torch's heap has its own order."""
    leaves = [torch.randn(3, requires_grad=True) for _ in range(4)]
    out = (torch.stack(leaves) * 2).sum()
    return dict(zip("abcd", leaves)), out, None


GRAPHS = [tutorial, mlp_with_branch, vector_jacobian_product, stack_of_leaves]


def torch_backward(out, gradient):
    """The nodes in the order torch's engine runs them, and what each received."""
    seen, stack, handles, order = set(), [out.grad_fn], [], []
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        handles.append(node.register_prehook(
            lambda grads, node=node: order.append((node, grads))))
        stack += [child for child, _ in node.next_functions]
    out.backward(gradient, retain_graph=True)
    for handle in handles:
        handle.remove()
    return order


# ---- the stepper replays torch's backward ----------------------------------------


@pytest.mark.parametrize("make", GRAPHS, ids=lambda f: f.__name__)
def test_stepper_runs_torchs_nodes_in_torchs_order_with_torchs_gradients(make):
    names, out, v = make()
    stepper = BackwardStepper(out, v, names=names)
    leaves = {name: t for name, t in names.items() if t.is_leaf}
    assert all(t.grad is None for t in leaves.values())  # the stepper changed no .grad
    ran = torch_backward(out, v)
    assert [step.node for step in stepper.steps] == [node for node, _ in ran]
    for step, (node, grads) in zip(stepper.steps, ran):
        for mine, theirs in zip(step.grad_outputs, grads):
            torch.testing.assert_close(mine, theirs)
    # the graph was not freed: a second real backward adds the same again
    final = {step.node.variable: step.leaf_grad for step in stepper.steps if step.is_leaf}
    for leaf, grad in final.items():
        torch.testing.assert_close(leaf.grad, grad)
    out.backward(v)
    for leaf, grad in final.items():
        torch.testing.assert_close(leaf.grad, 2 * grad)


def test_sent_gradients_are_what_the_next_node_receives():
    names, out, v = mlp_with_branch()
    stepper = BackwardStepper(out, names=names)
    arrived = {}
    for step in stepper.steps:
        for node, nr, grad in step.sent:
            if node is not None and grad is not None:
                arrived.setdefault(node, []).append(grad)
    for step in stepper.steps[1:]:
        got = [grad for _, _, grad in step.received]
        assert len(got) == len(arrived[step.node])
        for a, b in zip(got, arrived[step.node]):
            assert a is b


def test_stepper_on_torch_shows_accumulation_into_an_existing_grad():
    names, out, _ = tutorial()
    out.backward(retain_graph=True)
    stepper = BackwardStepper(out, names=names).to_end()
    assert stepper.text.endswith("x.grad was 4.5 each (gradients add up across backward "
                                 "calls), so it becomes 9 each.")
    torch.testing.assert_close(names["x"].grad, torch.full((2, 2), 4.5))


def test_stepper_sentences_on_torch_match_minigrads():
    import minigrad

    torch_names, torch_out, _ = tutorial()
    x = minigrad.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    mine = BackwardStepper(out, names={"x": x, "y": y, "z": z, "out": out})
    theirs = BackwardStepper(torch_out, names=torch_names)
    assert theirs.texts == mine.texts
    assert len(theirs.frames) == 6


def test_a_torch_node_with_no_formula_on_file_gets_an_honest_sentence():
    # (torch.segment_reduce: minigrad has no segment_reduce, so no formula for
    # SegmentReduceBackward0 is on file; the test says so, and fails once one is written.
    # Its first node was SpecialErfcxBackward0, until minigrad got special.erfcx)
    assert formula_for("SegmentReduceBackward0") is None
    x = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
    summed = torch.segment_reduce(x, "sum", lengths=torch.tensor([1, 2]))
    stepper = BackwardStepper((summed * torch.tensor([2.0, 3.0])).sum(), names={"x": x})
    texts = [text for step, text in zip(stepper.steps, stepper.texts[1:])
             if step.node.name() == "SegmentReduceBackward0"]
    assert texts == ["Step 3 of 4: SegmentReduceBackward0 got [2, 3] from MulBackward0; there "
                     "is no formula on file for SegmentReduceBackward0, so here is only what it "
                     "computed: it sends [2, 3, 3] to x."]


def test_retained_torch_tensor_shows_its_grad_when_its_node_runs():
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    y.retain_grad()
    stepper = BackwardStepper((y * y).sum(), names={"x": x, "y": y})
    box = [i for i in groups(stepper.svg, "node") if i.endswith("-tensor0")][0]
    grads = [texts(groups(frame, "node")[box])[-1] for frame in stepper.frames]
    assert grads == ["grad: None"] * 3 + ["grad: [6., 6.]"] * 2
    assert y.grad is None


def test_a_node_with_several_outputs_is_called_with_one_gradient_each():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    first, second, third = x.unbind()
    out = first * 2 + third
    stepper = BackwardStepper(out, names={"x": x})
    out.backward()
    torch.testing.assert_close(stepper.leaf_grads()[0][1], x.grad)


# ---- drawings --------------------------------------------------------------------


def all_nodes(out):
    seen, stack = [], [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.append(node)
            stack += [child for child, _ in node.next_functions]
    return seen


def test_draw_graph_shows_torchs_node_names_leaves_and_grads():
    names, out, _ = tutorial()
    out.backward()
    graph = draw_graph(out, names=names)
    nodes = groups(render_svg(graph), "node")
    titles = sorted(texts(g)[0] for g in nodes.values() if "op" in g.get("class").split())
    assert titles == sorted(n.name() for n in all_nodes(out) if not hasattr(n, "variable"))
    leaf = [g for g in nodes.values() if "leaf" in g.get("class").split()]
    assert len(leaf) == 1
    assert texts(leaf[0]) == ["x  [2, 2]", "[[1., 1.],", " [1., 1.]]", "grad:",
                              "[[4.5, 4.5],", " [4.5, 4.5]]"]
    assert graph.summary == "graph of out: 4 operations, 1 leaf"


def test_accumulate_grad_appears_with_the_leafs_name():
    names, out, _ = tutorial()
    stepper = BackwardStepper(out, names=names)
    assert stepper.steps[-1].node.name() == "torch::autograd::AccumulateGrad"
    assert stepper.texts[-1].startswith("Step 5 of 5: AccumulateGrad for x got")


def test_saved_tensors_are_torchs_own():
    names, out, _ = tutorial()
    graph = draw_graph(out, names=names, show_saved=True)
    nodes = groups(render_svg(graph), "node")
    saved = sorted(texts(g)[0].split()[1] for g in nodes.values()
                   if "saved" in g.get("class").split())
    expected = sorted(attr[len("_saved_"):] for node in all_nodes(out) for attr in dir(node)
                      if attr.startswith("_saved_")
                      and isinstance(getattr(node, attr), torch.Tensor))
    assert saved == expected
    out.backward()
    nodes = groups(render_svg(draw_graph(out, names=names, show_saved=True)), "node")
    freed = [texts(g) for g in nodes.values() if "saved" in g.get("class").split()]
    assert freed and all(lines[1] == "(freed after backward)" for lines in freed)


def test_runs_of_torch_ops_collapse():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(12):
        y = y * 2
    out = y.sum()
    nodes = groups(render_svg(draw_graph(out, names={"x": x})), "node")
    titles = [texts(g)[0] for g in nodes.values()]
    assert "MulBackward0 × 12" in titles
    stepper = BackwardStepper(out, names={"x": x})
    assert len(stepper.steps) == 14
    out.backward()
    torch.testing.assert_close(stepper.leaf_grads()[0][1], x.grad)


def test_graph_view_and_derivative_check_take_torch_tensors():
    names, out, _ = tutorial()
    view = GraphView(out, names=names)
    assert view.svg and "MeanBackward0" in view.svg
    out.backward()
    view.refresh()
    assert "4.5" in view.svg
    check = DerivativeCheck(lambda x: (torch.sin(x) * x).sum(), torch.tensor([0.5, -1.0]),
                            by_hand=lambda x: torch.cos(x) * x + torch.sin(x))
    assert check.passed
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    (torch.sin(x) * x).sum().backward()
    np.testing.assert_allclose(check.autograd[0], x.grad.numpy(), rtol=1e-6)
    wrong = DerivativeCheck(lambda x: (torch.sin(x) * x).sum(), torch.tensor([0.5, -1.0]),
                            by_hand=lambda x: torch.cos(x) * x)
    assert not wrong.passed


def test_widgets_never_import_torch_for_minigrad():
    code = (
        "import sys, minigrad, widgets\n"
        "x = minigrad.ones(2, requires_grad=True)\n"
        "out = (x * 3).sum()\n"
        "widgets.render_svg(widgets.draw_graph(out, show_saved=True))\n"
        "widgets.BackwardStepper(out).to_end()\n"
        "widgets.GraphView(out)\n"
        "widgets.DerivativeCheck(lambda x: (x * x).sum(), minigrad.ones(2))\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ---- the meta device: a graph of shapes, no values -------------------------------------


@pytest.mark.parametrize("library", ["torch", "minigrad"])
def test_a_meta_graph_is_drawn_and_stepped_without_values(library):
    """A model run on the meta device (PyTorch's shapes recipe) has a graph but no numbers:
    each box says so where values would be, and the stepper walks it without reading any."""
    lib = torch if library == "torch" else __import__("minigrad")
    x = lib.ones(2, 3, device="meta", requires_grad=True)
    w = lib.ones(3, 4, device="meta", requires_grad=True)
    out = (x @ w).relu().sum()
    drawn = texts(parse(render_svg(draw_graph(out))))
    assert "leaf  [2, 3]" in drawn and "leaf  [3, 4]" in drawn
    assert drawn.count("a meta tensor (no values)") == 3  # the output and the two leaves
    stepper = BackwardStepper(out)
    assert len(stepper.frames) > 3
    stepper.to_end()  # the last frame: every gradient has arrived
    assert texts(parse(stepper.svg)).count("grad: a meta tensor (no values)") == 2


class _Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2


def custom_function():
    """A user's autograd.Function: its node is a Python class, not callable in torch."""
    x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    return {"x": x}, (_Cube.apply(x * 2) + x).sum()


def compiled_model():
    """torch.compile: one CompiledFunctionBackward node for the model's region."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    x = torch.linspace(-1, 1, 6).reshape(2, 3).requires_grad_()
    out = torch.compile(model, backend="aot_eager")(x).pow(2).sum()
    return dict(model.named_parameters(), x=x), out


# torch.compile's one node: on this AVX2 machine (session 21, and once in session 20's CI)
# a gradient its backward returns met an edge of another shape ("size [2, 4] is not
# expandable to size [2, 3]" in adapter._delivered): which output goes to which edge is not
# yet understood. Expected to fail until it is, not skipped.
COMPILED_EDGES = pytest.mark.xfail(reason="CompiledFunctionBackward's gradients vs its edges",
                                   strict=False)


@pytest.mark.parametrize("make", [custom_function, pytest.param(compiled_model,
                                                                marks=COMPILED_EDGES)],
                         ids=["custom_function", "compiled_model"])
def test_stepper_runs_a_python_functions_node(make):
    """The stepper runs a custom Function's node through its backward (``node.apply``),
    and the gradients it shows are those a real backward of the same graph gives."""
    names, out = make()
    stepper = BackwardStepper(out, names=names)
    shown = {step.node.variable: step.leaf_grad for step in stepper.steps if step.is_leaf}
    fresh_names, fresh_out = make()
    fresh_out.backward()
    assert set(shown) == {t for t in names.values() if t.is_leaf}
    for name, leaf in names.items():
        torch.testing.assert_close(shown[leaf], fresh_names[name].grad)
    assert texts(parse(stepper.svg))  # (and it is drawn)


def test_a_compiled_models_backward_is_run_with_donated_buffers_off():
    # (a fresh-clone CI run met torch.compile's refusal, "compiled with non-empty donated
    # buffers which requires ... retain_graph=False", when the stepper ran the compiled
    # region's node outside a backward call, after other tests had compiled in that process)
    import torch._functorch.config as config

    from widgets.adapter import _no_donated_buffers

    assert config.donated_buffer is True  # (PyTorch's default)
    with _no_donated_buffers(torch):
        assert config.donated_buffer is False
    assert config.donated_buffer is True

    class Bare:  # (a torch without the setting: nothing to switch off)
        pass
    with _no_donated_buffers(Bare()):
        pass
