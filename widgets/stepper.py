"""``BackwardStepper``: watch backward run one node at a time.

It shows the steps the engine itself produces
(``minigrad.autograd.backward_steps``, kept as ``.steps``; for a PyTorch
tensor, torch's own nodes called in the same order) over one fixed
layout of the graph: the node that runs is gold, every arrow shows the
gradient it carried once it has carried one, every leaf shows the grad it
has so far, and a sentence says what happened in words and numbers. It
never changes any ``.grad``: call ``backward()`` yourself when done.

All frames are made up front and switched in the browser (the Play button,
the slider and the frames are linked there), so the stepper also works in a
notebook saved as HTML with no kernel running. The slider takes the arrow
keys; every frame has its sentence as a text alternative.

>>> import minigrad as torch
>>> x = torch.ones(2, 2, requires_grad=True)
>>> y = x + 2
>>> stepper = BackwardStepper((y * y * 3).mean())
>>> print(stepper.step().step().text)  # doctest: +NORMALIZE_WHITESPACE
Step 2 of 5: MulBackward0 got 0.25 each from MeanBackward0; dz/dself = other = 3,
so it sends 0.75 each to MulBackward0; other needs no gradient.

With ``names=``, the sentences use your names, and each says what the
formula's symbols are (a symbol that is one of your names for another
tensor becomes "result" or "input"):

>>> z = y * y * 3
>>> out = z.mean()
>>> named = BackwardStepper(out, names={"x": x, "y": y, "z": z, "out": out})
>>> print(named.step().step().text)  # doctest: +NORMALIZE_WHITESPACE
Step 2 of 5: MulBackward0 (z = self * other) got d(out)/d(z) = 0.25 each from MeanBackward0;
d(z)/d(self) = other = 3, so it sends 0.75 each to MulBackward0; other needs no gradient.
"""

from __future__ import annotations

import html

import ipywidgets as w
import traitlets
from .adapter import is_leaf_node, steps
from .frames import flip_book, frame_html, sentence_lines
from .graph import GraphModel, named_tensors
from .quiz import judge, question_for
from .render import inline_svg
from .static import StaticFallback

__all__ = ["BackwardStepper"]


class BackwardStepper(StaticFallback, w.VBox):
    """Step through ``tensor.backward(gradient)``; see the module docstring."""

    index = traitlets.Int(0, help="The frame shown: 0 is before backward, k is after step k.")
    interval = traitlets.Int(1000, help="Milliseconds per step when playing.")
    feedback = traitlets.Unicode("", help="Quiz mode: what was said about the last answer.")

    def __init__(self, tensor, gradient=None, *, names: dict | None = None,
                 collapse: int | None = 4, max_nodes: int = 200, max_values: int = 8,
                 engine: str | None = None, quiz: bool = False, **kwargs) -> None:
        if tensor.grad_fn is None:
            raise ValueError("BackwardStepper needs a tensor with a grad_fn (computed from "
                             "tensors with requires_grad=True); backward on a leaf only sets "
                             "its .grad")
        self.steps = steps(tensor, gradient, tensors=named_tensors(names).values())
        self.model = GraphModel.build([tensor], names, collapse=collapse, max_nodes=max_nodes)
        self.frames, self.texts = flip_book(self.model, self.steps, gradient,
                                            max_values=max_values, engine=engine)
        last = len(self.steps)
        lines = sentence_lines(self.texts)
        pages = [w.HTML(frame_html(inline_svg(svg), text, i, last, lines))
                 for i, (svg, text) in enumerate(zip(self.frames, self.texts))]
        self._frames = w.Stack(pages, selected_index=0)
        self._play = w.Play(min=0, max=last, interval=self.interval, description="play",
                            tooltip="play backward step by step")
        self._slider = w.IntSlider(min=0, max=last, description="frame",
                                   layout=w.Layout(width="320px"))
        self._live = w.HTML(_live_region(self.texts[0]))
        buttons = [self._button("reset", "fast-backward", self.reset),
                   self._button("back", "step-backward", self.back),
                   self._button("step", "step-forward", self.step)]
        self.links = [w.jslink((self._play, "value"), (self._slider, "value")),
                      w.jslink((self._slider, "value"), (self._frames, "selected_index"))]
        traitlets.link((self, "index"), (self._slider, "value"))
        traitlets.dlink((self, "interval"), (self._play, "interval"))
        children = [w.HBox([self._play, self._slider, *buttons]), self._live, self._frames]
        if quiz:
            children[1:1] = [self._quiz_row()]
        super().__init__(children=children, **kwargs)
        self.add_class("minigrad-stepper")
        if quiz:
            self._ask()

    def _quiz_row(self) -> w.VBox:
        """The question, an answer box, a check button and the verdict."""
        self._question = w.HTML()
        self._answer_box = w.Text(description="answer", placeholder="e.g. 0.75 or [[1, 2], [3, 4]]",
                                  layout=w.Layout(width="420px"))
        self._check = self._button("check", "check", lambda: self.answer(self._answer_box.value))
        self._feedback = w.HTML(_live_region("", visible=True))
        self.observe(lambda change: setattr(self._feedback, "value",
                                            _live_region(change["new"], visible=True)),
                     "feedback")
        return w.VBox([self._question, w.HBox([self._answer_box, self._check]), self._feedback])

    @staticmethod
    def _button(name: str, icon: str, action) -> w.Button:
        button = w.Button(description=name, icon=icon, tooltip=f"{name} (Tab to it, then Enter)",
                          layout=w.Layout(width="auto"))
        button.on_click(lambda _: action())
        return button

    @traitlets.validate("index")
    def _in_range(self, proposal):
        return max(0, min(proposal["value"], len(self.steps)))

    @traitlets.observe("index")
    def _show(self, change) -> None:
        self._frames.selected_index = change["new"]  # the browser does this too, via jslink
        self._live.value = _live_region(self.texts[change["new"]])
        if hasattr(self, "_question"):
            self._ask()

    # ---- quiz mode -------------------------------------------------------------

    def _next_question(self):
        if self.index >= len(self.steps):
            return None
        return question_for(self.steps[self.index], self.model)

    @property
    def question(self) -> str | None:
        """The question before the next step (None at the end)."""
        if self.index >= len(self.steps):
            return None
        asked = self._next_question()
        return asked.text if asked else "Nothing flows in the next step: press step."

    def answer(self, text: str) -> bool:
        """Judge ``text`` as the gradient the next node sends, say so in
        ``feedback``, and run the step. Returns whether it was right."""
        asked = self._next_question()
        if asked is None:
            self.feedback = "Nothing to predict here." if self.index < len(self.steps) \
                else "Backward is done: press reset to start again."
            self.step()
            return False
        right, self.feedback = judge(asked, str(text))
        self.step()
        return right

    def _ask(self) -> None:
        question = self.question
        self._question.value = (f"<b>{html.escape(question)}</b>" if question
                                else "<b>Backward is done.</b>")
        self._answer_box.value = ""

    # ---- driving it from Python -------------------------------------------

    def step(self) -> "BackwardStepper":
        """Run the next node (stays on the last frame at the end)."""
        self.index += 1
        return self

    def back(self) -> "BackwardStepper":
        """Undo the last step."""
        self.index -= 1
        return self

    def reset(self) -> "BackwardStepper":
        """Back to before backward."""
        self.index = 0
        return self

    def to_end(self) -> "BackwardStepper":
        """Jump to after the last step."""
        self.index = len(self.steps)
        return self

    @property
    def current(self):
        """The ``BackwardStep`` just shown (None before the first)."""
        return self.steps[self.index - 1] if self.index else None

    @property
    def svg(self) -> str:
        """The SVG of the frame shown."""
        return self.frames[self.index]

    @property
    def text(self) -> str:
        """The sentence of the frame shown."""
        return self.texts[self.index]

    def static_html(self) -> str:
        """The frame shown, as plain HTML (for previews without widgets)."""
        return frame_html(inline_svg(self.svg), self.text, self.index, len(self.steps),
                          sentence_lines(self.texts))

    def __repr__(self) -> str:
        return f"BackwardStepper({len(self.steps)} steps, frame {self.index}: {self.text})"

    def leaf_grads(self) -> list:
        """``[(leaf, grad), ...]``: what each leaf's ``.grad`` would be after the
        steps shown so far (its present ``.grad`` where no step reached it yet)."""
        grads = {}
        for step in self.steps[:self.index]:
            if step.is_leaf:
                grads[step.node] = (step.node.variable, step.leaf_grad)
        leaves = [node for node in self.model.box_of if is_leaf_node(node)]
        return [grads.get(node, (node.variable, node.variable.grad)) for node in leaves]


def _live_region(text: str, visible: bool = False) -> str:
    """Screen readers announce changes here (politely: after what they are saying).
    The frame shows the sentence already, so this copy is hidden from the eye."""
    hidden = "" if visible else (' style="position:absolute;width:1px;height:1px;'
                                 'overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap"')
    return f'<div role="status" aria-live="polite"{hidden}>{html.escape(text)}</div>'
