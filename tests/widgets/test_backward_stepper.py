"""BackwardStepper, driven from Python: the engine's own steps over one fixed layout."""

import ipywidgets as w
import minigrad as torch
import numpy as np
import pytest

from minigrad.autograd import backward_steps
from widgets import BackwardStepper

from widget_svg import SVG, groups, parse, texts


def geometry(svg):
    """Every node's and edge's shape coordinates: what must not move between frames."""
    root = parse(svg)
    return {g.get("id"): [(e.get("points"), e.get("d")) for e in g.iter()
                          if e.tag in (f"{SVG}polygon", f"{SVG}path")]
            for g in root.iter(f"{SVG}g") if g.get("id")}


def test_steps_are_the_engines_and_frames_one_more(tutorial):
    x, y, z, out = tutorial
    stepper = BackwardStepper(out, names={"x": x})
    assert [s.node.name() for s in stepper.steps] == [
        "MeanBackward0", "MulBackward0", "MulBackward0", "AddBackward0",
        "torch::autograd::AccumulateGrad"]
    assert len(stepper.frames) == len(stepper.texts) == 6


def test_step_to_the_end_and_back(tutorial):
    *_, out = tutorial
    stepper = BackwardStepper(out)
    seen = [stepper.text]
    for _ in range(10):  # past the end: stays on the last frame
        seen.append(stepper.step().text)
    assert stepper.index == 5 and seen[5] == seen[10]
    assert stepper.current is stepper.steps[-1]
    for k in range(5, 0, -1):
        assert stepper.text == seen[k]
        stepper.back()
    assert stepper.index == 0 and stepper.current is None
    stepper.back()
    assert stepper.index == 0
    stepper.to_end().reset()
    assert stepper.index == 0 and stepper._slider.value == 0


def test_final_leaf_grads_match_a_real_backward():
    a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = torch.tensor([0.5, 0.25, 2.0], requires_grad=True)
    out = ((a * b).exp() + a ** 2).sum() / (b.sum() + 1)
    stepper = BackwardStepper(out, names={"a": a, "b": b}).to_end()
    stepped = {id(leaf): grad for leaf, grad in stepper.leaf_grads()}
    out.backward()
    for leaf in (a, b):
        np.testing.assert_allclose(stepped[id(leaf)].numpy(), leaf.grad.numpy(), rtol=1e-6)


def test_the_users_grad_is_never_changed(tutorial):
    x, y, z, out = tutorial
    stepper = BackwardStepper(out, names={"x": x}).to_end()
    assert x.grad is None
    out.backward(retain_graph=True)  # the graph is still there for the real thing
    before = x.grad.numpy().copy()
    stepper = BackwardStepper(out, names={"x": x}).to_end().back().to_end()
    np.testing.assert_array_equal(x.grad.numpy(), before)
    assert stepper.leaf_grads()[0][1].numpy().tolist() == [[9.0, 9.0], [9.0, 9.0]]  # accumulates
    assert "x.grad was 4.5 each" in stepper.texts[-1]


def test_nodes_do_not_move_only_styles_and_labels_change(tutorial):
    x, y, z, out = tutorial
    stepper = BackwardStepper(out, names={"x": x})
    first = geometry(stepper.frames[0])
    for frame in stepper.frames[1:]:
        assert geometry(frame) == first


def test_current_node_is_highlighted_and_edges_labelled_once_carried(tutorial):
    x, y, z, out = tutorial
    stepper = BackwardStepper(out, names={"x": x})

    def state():
        nodes, edges = groups(stepper.svg, "node"), groups(stepper.svg, "edge")
        current = [i for i, g in nodes.items() if "current" in g.get("class").split()]
        labels = {i: texts(g)[0].strip() for i, g in edges.items() if texts(g)}
        return current, {i: t for i, t in labels.items() if t}

    assert state() == (["out0"], {})
    stepper.step()
    assert state() == (["op0"], {"out0-0": "1", "op0-0": "0.25 each"})
    stepper.step().step()
    assert state()[1] == {"out0-0": "1", "op0-0": "0.25 each", "op1-0": "0.75 each",
                          "op2-0": "2.25 each", "op2-1": "2.25 each"}
    stepper.to_end()
    current, labels = state()
    assert current == ["acc0"] and labels["op3-0"] == "4.5 each"
    assert texts(groups(stepper.svg, "node")["leaf0"])[-2:] == ["[[4.5, 4.5],", " [4.5, 4.5]]"]
    stepper.reset()
    assert texts(groups(stepper.svg, "node")["leaf0"])[3] == "grad: None"


def test_narration_in_words_and_numbers(tutorial):
    x, y, z, out = tutorial
    texts_ = BackwardStepper(out).texts
    assert texts_[0].startswith("Before backward: out = 27.")
    assert texts_[1] == ("Step 1 of 5: MeanBackward0 got 1 from the start (the seed); "
                         "d(result)/d(self_i) = 1/n = 0.25, so it sends 0.25 each to MulBackward0.")
    assert "d(result)/d(self) = other = 3, so it sends 0.75 each to MulBackward0" in texts_[2]
    assert "which add up to 4.5 each" in texts_[4]
    assert texts_[5].endswith("The leaf's .grad was None, so it becomes 4.5 each.")


def test_narration_uses_the_learners_names(tutorial):
    x, y, z, out = tutorial
    texts_ = BackwardStepper(out, names={"x": x, "y": y, "z": z, "out": out}).texts
    assert texts_[1] == ("Step 1 of 5: MeanBackward0 (out = mean of all n elements of z) got "
                         "d(out)/d(out) = 1 from the start (the seed); d(out)/d(z_i) = 1/n = "
                         "0.25, so it sends 0.25 each to MulBackward0.")
    assert "got d(out)/d(z) = 0.25 each from MeanBackward0" in texts_[2]
    # y * y is not named, and "z" is the learner's name for another tensor
    assert texts_[3].startswith("Step 3 of 5: MulBackward0 (result = y * y) got 0.75 each")
    assert "which add up to d(out)/d(y) = 4.5 each; d(y)/d(x) = 1" in texts_[4]
    assert "AccumulateGrad for x got d(out)/d(x) = 4.5 each" in texts_[5]


def test_a_formula_symbol_that_is_a_learners_name_is_never_reused(tutorial):
    x, y, z, out = tutorial
    texts_ = BackwardStepper(out, names={"x": x, "y": y}).texts
    # MeanBackward0's formula says y = mean of x; the learner's x and y are other
    # tensors, so the symbols are said in PyTorch's words, result and self
    assert texts_[1].startswith("Step 1 of 5: MeanBackward0 (result = mean of all n elements "
                                "of self) got 1 from the start (the seed); "
                                "d(result)/d(self_i) = 1/n = 0.25")
    for text in texts_[1:4]:
        assert "dy/" not in text and "/dx" not in text and "d(y)/d(x" not in text


def test_every_frame_has_a_text_alternative(tutorial):
    *_, out = tutorial
    stepper = BackwardStepper(out)
    for frame, text in zip(stepper.frames, stepper.texts):
        root = parse(frame)
        assert root.get("role") == "img" and root.get("aria-label") == text


def test_a_non_scalar_output_with_a_gradient():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    stepper = BackwardStepper(x * x, torch.tensor([1.0, 0.5]), names={"x": x}).to_end()
    assert stepper.leaf_grads()[0][1].tolist() == [2.0, 2.0]
    assert "the gradient you passed, [1, 0.5]" in stepper.texts[0]


def test_a_passed_gradient_is_not_called_a_derivative_of_the_output():
    """What arrives from a gradient v is the gradient of (v * b).sum(): b = a * a + a
    at a = (1, 2) with v = (1, 0.5) gives a.grad = (3, 2.5), while db_i/da_i is (3, 5).
    The sentences once said 'd(b)/d(b) = [1, 0.5]' and 'd(b)/d(a) = [3, 2.5]'."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * a + a
    v = torch.tensor([1.0, 0.5])
    stepper = BackwardStepper(b, v, names={"a": a, "b": b})
    b.backward(v)
    assert a.grad.tolist() == [3.0, 2.5]
    text = " ".join(stepper.texts)
    assert "d(b)/d(b)" not in text and "d(b)/d(a) = [3, 2.5]" not in text
    assert "which add up to [3, 2.5]" in stepper.texts[-1]
    a2 = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (a2 * a2 + a2).sum()  # backward's own seed: the derivatives are named
    named = BackwardStepper(out, names={"a": a2, "out": out}).texts
    assert "d(out)/d(out) = 1" in " ".join(named) and "d(out)/d(a) = [3, 5]" in named[-1]


def test_a_collapsed_chain_steps_through_its_run_in_one_frame():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(30):
        y = y * 2
    out = y.sum()
    stepper = BackwardStepper(out, names={"x": x})
    engine = list(backward_steps(out))
    assert [s.node for s in stepper.steps] == [s.node for s in engine]  # every engine step
    assert len(stepper.frames) == 4 and len(groups(stepper.svg, "node")) == 5  # and x
    stepper.step().step()
    assert stepper.current_steps == stepper.steps[1:31]
    assert stepper.text == ("MulBackward0 × 30: steps 2–31 of 32; each multiplies the gradient "
                            "by 2 (d(result)/d(self) = other = 2); the last sends 1.074e+09 each to x.")
    assert "current" in groups(stepper.svg, "node")[stepper.model.box_of[engine[1].node]].get(
        "class").split()
    out.backward()
    assert stepper.to_end().leaf_grads()[0][1].tolist() == x.grad.tolist()


def test_play_slider_and_frames_are_linked_in_the_browser(tutorial):
    *_, out = tutorial
    stepper = BackwardStepper(out)
    pairs = {(m.source[0], m.source[1], m.target[0], m.target[1]) for m in stepper.links}
    assert all(isinstance(m, w.widgets.widget_link.Link) for m in stepper.links)
    assert (stepper._play, "value", stepper._slider, "value") in pairs
    assert (stepper._slider, "value", stepper._frames, "selected_index") in pairs
    assert stepper._play.max == stepper._slider.max == len(stepper.steps)
    stepper._slider.value = 3  # as if the learner dragged it
    assert stepper.index == 3 and stepper._frames.selected_index == 3


def test_bad_gradient_is_the_engines_error():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        BackwardStepper(x * 2)


def test_retained_grads_appear_when_their_node_runs():
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    y.retain_grad()
    stepper = BackwardStepper((y * y).sum(), names={"x": x, "y": y})
    box = [i for i in groups(stepper.svg, "node") if i.endswith("-tensor0")][0]
    grads = [texts(groups(frame, "node")[box])[-1] for frame in stepper.frames]
    assert grads == ["grad: None"] * 3 + ["grad: [6., 6.]"] * 2
    assert y.grad is None


def test_a_windowed_graph_steps_through_its_hidden_part_in_one_frame():
    x = torch.ones(2, requires_grad=True)
    y = x
    for i in range(40):
        y = (y * 0.5).sin() if i % 3 else y + 1
    out = y.sum()
    stepper = BackwardStepper(out, collapse=None, max_nodes=10)
    assert "more" in groups(stepper.svg, "node") and len(stepper.steps) == 68
    hidden = [s for s in stepper.steps if stepper.model.box_of[s.node] == "more"]
    assert len(stepper.frames) == 1 + len(stepper.steps) - len(hidden) + 1
    stepper.to_end()
    assert stepper.current_steps == hidden  # the first ten steps are drawn, the rest is "more"
    assert "current" in groups(stepper.svg, "node")["more"].get("class").split()
    assert stepper.text.startswith(f"The {len(hidden)} nodes not drawn (… more): steps "
                                   f"{hidden[0].index + 1}–{hidden[-1].index + 1} of 68; ")
    out.backward()
    np.testing.assert_allclose(stepper.to_end().leaf_grads()[0][1].numpy(), x.grad.numpy())


def test_a_leaf_has_nothing_to_step_through():
    with pytest.raises(ValueError, match="needs a tensor with a grad_fn"):
        BackwardStepper(torch.ones(2, requires_grad=True))
