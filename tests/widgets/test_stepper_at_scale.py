"""The stepper on big graphs (issue 17): frames follow the drawing, and what goes to
the page is bounded. Driven from Python; the browser test plays it in JupyterLab.

Expectations come from the engines: minigrad's ``backward_steps`` and torch's own
``backward()``; the sentences of a torch graph must equal those of the same
minigrad graph, since ``widgets/adapter.py`` is the only difference between them.
"""

import json
import re

import minigrad
import numpy as np
import pytest
import torch
from ipywidgets.embed import dependency_state
from minigrad.autograd import backward_steps

from widgets import BackwardStepper
from widgets.narrate import narrate, narrate_start

from widget_svg import groups

LIBRARIES = {"minigrad": minigrad, "torch": torch}


def branches(lib, count):
    """Issue 17's example: ``count`` small tensors, each ``(x.exp() * 2).sum()``, added up."""
    xs = [lib.tensor([0.01 * i, -0.5, 1.0 - 0.001 * i], requires_grad=True)
          for i in range(count)]
    return xs, sum((x.exp() * 2).sum() for x in xs)


def state_of(widget) -> dict:
    """What the page (and a saved notebook) holds for ``widget``: every model's state."""
    return dependency_state([widget])


def state_bytes(widget) -> int:
    return len(json.dumps(state_of(widget)))


# ---- frames follow the drawing --------------------------------------------------


@pytest.mark.parametrize("name", LIBRARIES)
def test_a_repeated_block_is_one_frame_per_drawn_box(name):
    xs, out = branches(LIBRARIES[name], 40)
    stepper = BackwardStepper(out)
    model = stepper.model
    assert len(stepper.steps) == 200  # .steps: every engine step
    if name == "minigrad":
        assert [s.node for s in stepper.steps] == [s.node for s in backward_steps(out)]
    frames = stepper.plan[1:]
    # the frames share the steps out, each frame lighting one box, each box one frame
    assert sorted(s.index for f in frames for s in f.steps) == list(range(200))
    assert all({model.box_of[s.node] for s in f.steps} == {f.box} for f in frames)
    assert len({f.box for f in frames}) == len(frames) == 10
    collapsed = [f for f in frames if len(f.steps) > 1]
    assert [len(f.steps) for f in collapsed] == [39] * 5
    for frame in collapsed:
        first, last = frame.steps[0].index + 1, frame.steps[-1].index + 1
        name = "AccumulateGrad" if frame.steps[0].is_leaf else frame.steps[0].node.name()
        assert frame.text.startswith(f"{name} × 39: steps {first}–{last} of 200, every 5th step; ")
    texts = {f.text.split(" × ")[0]: f.text for f in collapsed}
    assert "each multiplies the gradient by 2 (d(result)/d(self) = other = 2)" in texts["MulBackward0"]
    assert "each passes the gradient on unchanged" in texts["AddBackward0"]
    assert "its own local derivative (d(result)/d(self) = exp(self) = result)" in texts["ExpBackward0"]
    assert "each adds the gradient it got into the .grad of its own leaf" in texts["AccumulateGrad"]
    assert stepper.texts[0].endswith("so they show in 10 frames.")
    assert str(stepper).startswith("BackwardStepper(200 steps in 10 frames, frame 0: ")
    # stepping to the end gives the real backward's gradients
    grads = {id(leaf): grad for leaf, grad in stepper.to_end().leaf_grads()}
    out.backward()
    for x in xs:
        np.testing.assert_allclose(grads[id(x)].numpy(), x.grad.numpy(), rtol=1e-6)


def test_torch_and_minigrad_tell_the_same_story():
    _, theirs = branches(torch, 12)
    _, ours = branches(minigrad, 12)
    assert BackwardStepper(theirs).texts == BackwardStepper(ours).texts


def test_the_tutorial_is_unchanged_five_steps_five_frames(tutorial):
    x, y, z, out = tutorial
    stepper = BackwardStepper(out)
    assert len(stepper.steps) == 5 and len(stepper.frames) == 6
    assert [len(frame.steps) for frame in stepper.plan] == [0, 1, 1, 1, 1, 1]
    engine = list(backward_steps(out))
    assert stepper.texts == [narrate_start(stepper.model, engine)] + [
        narrate(step, stepper.model, 5) for step in engine]
    assert stepper.texts == [
        "Before backward: out = 27. Backward will run 5 steps, starting from d(out)/d(out) = 1 "
        "at the output.",
        "Step 1 of 5: MeanBackward0 got 1 from the start (the seed); d(result)/d(self_i) = 1/n = 0.25, so "
        "it sends 0.25 each to MulBackward0.",
        "Step 2 of 5: MulBackward0 got 0.25 each from MeanBackward0; d(result)/d(self) = other = 3, so "
        "it sends 0.75 each to MulBackward0; other needs no gradient.",
        "Step 3 of 5: MulBackward0 got 0.75 each from MulBackward0; d(result)/d(self) = other = 3, so it "
        "sends 2.25 each to AddBackward0; d(result)/d(other) = self = 3, so it sends 2.25 each to "
        "AddBackward0.",
        "Step 4 of 5: AddBackward0 got 2.25 each from MulBackward0 and 2.25 each from "
        "MulBackward0, which add up to 4.5 each; d(result)/d(self) = 1, so it sends 4.5 each to "
        "AccumulateGrad; other needs no gradient.",
        "Step 5 of 5: AccumulateGrad got 4.5 each from AddBackward0. The leaf's .grad was None, "
        "so it becomes 4.5 each."]
    assert repr(stepper).startswith("BackwardStepper(5 steps, frame 0: Before backward")


# ---- a bounded page -----------------------------------------------------------


def long_chain(length=30):
    x = minigrad.ones(2, requires_grad=True)
    y = x
    for _ in range(length):
        y = y * 1.5
    return y.sum()


def test_the_picture_goes_to_the_page_once_and_frames_are_small():
    out = long_chain()
    stepper = BackwardStepper(out, collapse=None, max_nodes=100)
    values = [model["state"].get("value", "") for model in state_of(stepper).values()]
    pictures = [value for value in values if "minigrad-legend" not in value]  # (its samples)
    assert sum(value.count("<svg") for value in pictures) == 1
    pages = [page.value for page in stepper._frames.children]
    assert len(pages) == len(stepper.frames) == 33 and all("<svg" not in p for p in pages)
    assert max(len(page) for page in pages) < 1000  # a sentence and a marker
    # the picture holds the graph once; each frame's plain SVG is about as big
    assert len(stepper._picture.value) < 3 * len(stepper.frames[0])


def test_the_state_bound_holds_and_later_frames_are_made_on_demand():
    out = long_chain()
    stepper = BackwardStepper(out, collapse=None, max_nodes=100, max_frames=10)
    pages = stepper._frames.children
    assert len(pages) == 33 and len({id(page) for page in pages}) == 11  # 10 kept + "later"
    later = pages[-1]
    assert "keeps the first 10 frames; the later ones are made by the kernel" in later.value
    assert all(page is later for page in pages[10:])
    assert stepper._frames.children[20] is later
    stepper.index = 20  # as the slider would, with a kernel alive
    made = stepper._frames.children[20]
    assert made is not later and stepper.text in made.value and "frame 20 of 32" in made.value
    stepper.step()
    assert stepper._frames.children[20] is later and made.comm is None  # closed: out of the state
    assert len({id(page) for page in stepper._frames.children}) == 12
    assert stepper.text in stepper._frames.children[21].value
    # the state grows by a few hundred bytes a frame kept, never by a copy of the graph
    more = BackwardStepper(out, collapse=None, max_nodes=100, max_frames=20)
    per_frame = (state_bytes(more) - state_bytes(stepper)) / 10
    assert 0 < per_frame < 1000, per_frame
    with pytest.raises(ValueError, match="max_frames must be at least 1"):
        BackwardStepper(out, max_frames=0)


def test_issue_17s_example_builds_a_small_stepper():
    xs, out = branches(minigrad, 3000)
    stepper = BackwardStepper(out)
    assert len(stepper.steps) == 15_000 and len(stepper.frames) == 11
    assert state_bytes(stepper) < 5_000_000
    assert len(groups(stepper.svg, "node")) == 13  # and the two leaves beside AccumulateGrad


def test_a_runs_sentence_never_reuses_a_learners_name_for_a_formula_symbol():
    x = minigrad.ones(3, requires_grad=True)
    h = x
    for _ in range(6):
        h = (h * 0.1).exp()
    named = BackwardStepper(h.sum(), names={"x": x}).texts
    plain = BackwardStepper(h.sum()).texts
    assert "(d(result)/d(self) = other = 0.1)" in named[3]
    assert "(d(result)/d(self) = other = 0.1)" in plain[3]
    # ExpBackward0's formula says y = exp(x): the learner's x is another tensor, so the
    # symbols are PyTorch's words, with or without names
    assert named[2].startswith("ExpBackward0 × 6: steps 2–12 of 14, every 2nd step; ")
    assert "(d(result)/d(self) = exp(self) = result)" in named[2]
    assert "(d(result)/d(self) = exp(self) = result)" in plain[2]
    assert not any(re.search(r"\bx\b", text.replace("x.grad", "")) for text in plain)


def test_quiz_mode_on_a_collapsed_run_asks_about_its_first_step_then_shows_the_run():
    x = minigrad.ones(3, requires_grad=True)
    h = x
    for _ in range(10):
        h = h * 0.5
    stepper = BackwardStepper(h.sum(), names={"x": x}, quiz=True)
    engine = list(backward_steps(h.sum()))
    assert stepper.answer("1") is True and stepper.index == 1
    first = stepper.plan[2].steps[0]
    assert stepper.question == "What gradient will MulBackward0 send to MulBackward0?"
    assert stepper.answer(str(first.sent[0][2].tolist())) is True
    assert stepper.index == 2 and len(stepper.current_steps) == 10
    assert stepper.question == "What will x.grad be after this step?"
    assert stepper.answer(str(engine[-1].leaf_grad.tolist())) is True
    assert stepper.question is None and stepper.index == len(stepper.frames) - 1
