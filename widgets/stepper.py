"""``BackwardStepper``: watch backward run one node at a time.

It shows the steps the engine itself produces
(``minigrad.autograd.backward_steps``, kept as ``.steps``; for a PyTorch
tensor, torch's own nodes called in the same order) over one fixed
layout of the graph: the box that runs (in frame 0, before backward starts,
the output) is gold with a thick border, boxes that ran are lilac with a
dashed one, every arrow shows the gradient it carried once it has carried
one, every leaf shows the grad it has so far (a legend under the picture says
so), and a sentence says what happened in words and numbers. It never
changes any ``.grad``: call ``backward()`` yourself when done.

Frames follow the drawing: a box drawn once for many nodes (a collapsed
run ``MulBackward0 × 1,000``, or "… more") is one frame, whose sentence says
how many engine steps it stands for; ``.steps`` still holds every step. So a
big backward builds quickly and stays small on the page.

The picture goes to the browser once; each frame is its sentence and a few
style changes over it (``flipbook``). The first ``max_frames`` frames are
kept in the widget state and switched in the browser (the Play button, the
slider and the frames are linked there; the reset, back and step buttons
move the slider, as its Home and arrow keys do), so a click shows its frame
at once, and the frames also play and step in a notebook saved with its
widget state, with no kernel running. Later frames are made by the kernel
when the learner gets there; a saved notebook says so. Every frame's
sentence is on the page and announced to screen readers. (In quiz mode the
buttons call the kernel, which judges the answer and asks the next question.)

>>> import minigrad as torch
>>> x = torch.ones(2, 2, requires_grad=True)
>>> y = x + 2
>>> stepper = BackwardStepper((y * y * 3).mean())
>>> print(stepper.step().step().text)  # doctest: +NORMALIZE_WHITESPACE
Step 2 of 5: MulBackward0 got 0.25 each from MeanBackward0; d(result)/d(self) = other = 3,
so it sends 0.75 each to MulBackward0; other needs no gradient.

A formula's symbols are PyTorch's words (``result`` for what the operation
made, ``self`` and ``other`` for its inputs), never one of your names for
another tensor. With ``names=``, the sentences use your names for the
tensors you named, and each says what the formula's symbols are:

>>> z = y * y * 3
>>> out = z.mean()
>>> named = BackwardStepper(out, names={"x": x, "y": y, "z": z, "out": out})
>>> print(named.step().step().text)  # doctest: +NORMALIZE_WHITESPACE
Step 2 of 5: MulBackward0 (z = self * other) got d(out)/d(z) = 0.25 each from MeanBackward0;
d(z)/d(self) = other = 3, so it sends 0.75 each to MulBackward0; other needs no gradient.
"""

from __future__ import annotations

import contextlib
import gc
import html

import ipywidgets as w
import traitlets
from .adapter import is_leaf_node, steps
from .errors import GraphFreed
from .flipbook import FlipBook
from .frames import frame_html, plan_frames, sentence_lines
from .graph import GraphModel, named_tensors
from .i18n import _
from .legend import legend_html
from .narrate import later_frames
from .quiz import judge, parse_answer, question_for, unreadable
from .render import inline_svg
from .static import StaticFallback

__all__ = ["BackwardStepper"]


class BackwardStepper(StaticFallback, w.VBox):
    """Step through ``tensor.backward(gradient)``; see the module docstring."""

    index = traitlets.Int(0, help="The frame shown: 0 is before backward, k is after the steps "
                                  "of frames 1 to k (one step each, unless a box stands for many).")
    interval = traitlets.Int(1000, help="Milliseconds per step when playing.")
    feedback = traitlets.Unicode("", help="Quiz mode: what was said about the last answer.")

    def __init__(self, tensor, gradient=None, *, names: dict | None = None,
                 collapse: int | None = 4, max_nodes: int = 200, max_values: int = 8,
                 engine: str | None = None, quiz: bool = False, max_frames: int = 200,
                 **kwargs) -> None:
        if tensor.grad_fn is None:
            raise ValueError(_("BackwardStepper needs a tensor with a grad_fn (computed from "
                               "tensors with requires_grad=True); backward on a leaf only sets "
                               "its .grad"))
        if max_frames < 1:
            raise ValueError(f"BackwardStepper: max_frames must be at least 1 (the frames kept "
                             f"in the page), got {max_frames!r}")
        with _no_cycle_collection():
            self.steps = _steps(tensor, gradient, names)
            self.model = GraphModel.build([tensor], names, collapse=collapse,
                                          max_nodes=max_nodes)
            self.plan = plan_frames(self.model, self.steps, gradient, max_values=max_values)
        self.frames = FlipBook(self.model, self.plan, max_values=max_values, engine=engine)
        self._kinds = {box.kind for box in self.model.boxes.values()}  # named in the legend
        self.texts = [frame.text for frame in self.plan]
        self.max_frames = max_frames
        last = len(self.plan) - 1
        self._lines = sentence_lines(self.texts)
        kept = min(len(self.plan), max_frames)
        pages = [w.HTML(self._page(k)) for k in range(kept)]
        self._later = w.HTML(frame_html("", later_frames(kept), None, last, self._lines))
        self._made = None  # the frame past max_frames whose page the kernel made
        self._frames = w.Stack(pages + [self._later] * (len(self.plan) - kept),
                               selected_index=0)
        self._picture = w.HTML(self.frames.picture_html(
            _("{summary}; the sentence above says what the frame shows").format(
                summary=self.frames.summary)))
        self._play = w.Play(min=0, max=last, interval=self.interval, description=_("play"),
                            tooltip=_("play backward step by step"))
        self._slider = w.IntSlider(min=0, max=last, description=_("frame"),
                                   layout=w.Layout(width="320px"))
        self._live = w.HTML(_live_region(self.texts[0]))
        if quiz:  # (a step in the quiz waits for the kernel, which asks the next question)
            buttons = [self._button(_("reset"), "fast-backward", self.reset),
                       self._button(_("back"), "step-backward", self.back),
                       self._button(_("step"), "step-forward", self.step)]
        else:
            buttons = [w.HTML(_page_buttons())]
        self.links = [w.jslink((self._play, "value"), (self._slider, "value")),
                      w.jslink((self._slider, "value"), (self._frames, "selected_index"))]
        traitlets.link((self, "index"), (self._slider, "value"))
        traitlets.dlink((self, "interval"), (self._play, "interval"))
        children = [w.HBox([self._play, self._slider, *buttons]), self._live, self._frames,
                    self._picture, w.HTML(legend_html(self._kinds))]
        if quiz:
            children[1:1] = [self._quiz_row()]
        super().__init__(children=children, **kwargs)
        self.add_class("minigrad-stepper")
        if quiz:
            self._ask()

    def _page(self, k: int) -> str:
        """Frame ``k`` on the page: its sentence, marked for the picture's styles."""
        return frame_html("", self.texts[k], k, len(self.plan) - 1, self._lines,
                          classes=self.frames.marker(k))

    def _make_page(self, k: int) -> None:
        """Past ``max_frames``: the kernel makes frame ``k``'s page (and drops the
        last one it made, so the widget state stays bounded)."""
        if k < self.max_frames or k == self._made:
            return
        children = list(self._frames.children)
        old = children[self._made] if self._made is not None else None
        if old is not None:
            children[self._made] = self._later
        children[k], self._made = w.HTML(self._page(k)), k
        self._frames.children = children
        if old is not None:
            old.close()

    def _quiz_row(self) -> w.VBox:
        """The question, an answer box, a check button and the verdict."""
        self._question = w.HTML()
        self._answer_box = w.Text(description=_("answer"),
                                  placeholder=_("e.g. 0.75 or [[1, 2], [3, 4]]"),
                                  layout=w.Layout(width="420px"))
        self._check = self._button(_("check"), "check",
                                   lambda: self.answer(self._answer_box.value))
        self._feedback = w.HTML(_live_region("", visible=True))
        self.observe(lambda change: setattr(self._feedback, "value",
                                            _live_region(change["new"], visible=True)),
                     "feedback")
        return w.VBox([self._question, w.HBox([self._answer_box, self._check]), self._feedback])

    @staticmethod
    def _button(name: str, icon: str, action) -> w.Button:
        button = w.Button(description=name, icon=icon,
                          tooltip=_("{name} (Tab to it, then Enter)").format(name=name),
                          layout=w.Layout(width="auto"))
        button.on_click(lambda _: action())
        return button

    @traitlets.validate("index")
    def _in_range(self, proposal):
        return max(0, min(proposal["value"], len(self.plan) - 1))

    @traitlets.observe("index")
    def _show(self, change) -> None:
        self._make_page(change["new"])
        self._frames.selected_index = change["new"]  # the browser does this too, via jslink
        self._live.value = _live_region(self.texts[change["new"]])
        if hasattr(self, "_question"):
            self._ask()

    # ---- quiz mode -------------------------------------------------------------

    def _next_question(self):
        """The question about the next frame (its first step, when it has several)."""
        if self.index >= len(self.plan) - 1:
            return None
        return question_for(self.plan[self.index + 1].steps[0], self.model)

    @property
    def question(self) -> str | None:
        """The question before the next step (None at the end)."""
        if self.index >= len(self.plan) - 1:
            return None
        asked = self._next_question()
        return asked.text if asked else _("Nothing flows in the next step: press step.")

    def answer(self, text: str) -> bool:
        """Judge ``text`` as the gradient the next node sends, say so in
        ``feedback``, and run the step. Returns whether it was right. An answer
        that cannot be read (a typo) spends nothing: the question stays, with
        the answer in its box to correct."""
        asked = self._next_question()
        if asked is None:
            self.feedback = _("Nothing to predict here.") if self.index < len(self.plan) - 1 \
                else _("Backward is done: press reset to start again.")
            self.step()
            return False
        if parse_answer(str(text)) is None:
            self.feedback = unreadable(str(text))
            return False
        right, self.feedback = judge(asked, str(text))
        self.step()
        return right

    def _ask(self) -> None:
        question = self.question
        self._question.value = (f"<b>{html.escape(question)}</b>" if question
                                else "<b>" + html.escape(_("Backward is done.")) + "</b>")
        self._answer_box.value = ""

    # ---- driving it from Python -------------------------------------------

    def step(self) -> "BackwardStepper":
        """Show the next frame: the next node, or all the nodes of the next box
        that stands for many (stays on the last frame at the end)."""
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
        self.index = len(self.plan) - 1
        return self

    @property
    def current(self):
        """The last ``BackwardStep`` of the frame shown (None before the first)."""
        return self.plan[self.index].steps[-1] if self.index else None

    @property
    def current_steps(self) -> list:
        """Every ``BackwardStep`` the frame shown stands for (one, unless its box
        stands for many nodes)."""
        return list(self.plan[self.index].steps)

    @property
    def svg(self) -> str:
        """The SVG of the frame shown (with its sentence as the text alternative)."""
        return self.frames[self.index]

    @property
    def text(self) -> str:
        """The sentence of the frame shown."""
        return self.texts[self.index]

    def static_html(self) -> str:
        """The frame shown, as plain HTML (for previews without widgets)."""
        return frame_html(inline_svg(self.svg), self.text, self.index, len(self.plan) - 1,
                          self._lines) + legend_html(self._kinds)

    def __repr__(self) -> str:
        frames = len(self.plan) - 1
        if frames == len(self.steps):
            return _("BackwardStepper({steps} steps, frame {index}: {text})").format(
                steps=f"{len(self.steps):,}", index=self.index, text=self.text)
        return _("BackwardStepper({steps} steps in {frames} frames, frame {index}: {text})"
                 ).format(steps=f"{len(self.steps):,}", frames=f"{frames:,}", index=self.index,
                          text=self.text)

    def leaf_grads(self) -> list:
        """``[(leaf, grad), ...]``: what each leaf's ``.grad`` would be after the
        steps shown so far (its present ``.grad`` where no step reached it yet)."""
        grads = {}
        for step in (step for frame in self.plan[1:self.index + 1] for step in frame.steps):
            if step.is_leaf:
                grads[step.node] = (step.node.variable, step.leaf_grad)
        leaves = [node for node in self.model.box_of if is_leaf_node(node)]
        return [grads.get(node, (node.variable, node.variable.grad)) for node in leaves]


def _steps(tensor, gradient, names) -> list:
    """The engine's steps; a graph that backward() freed is said in one sentence."""
    try:
        return steps(tensor, gradient, tensors=named_tensors(names).values())
    except RuntimeError as error:
        if "backward through the graph a second time" not in str(error):
            raise
    raise GraphFreed(_("backward() has already run through this graph and freed the values "
                       "it saved, so the stepper cannot replay it: run the cells that compute "
                       "it again (that makes fresh tensors and a fresh graph), and make the "
                       "stepper before you call backward()."))


@contextlib.contextmanager
def _no_cycle_collection():
    """Python's cycle collector paused: a big backward makes hundreds of thousands
    of objects (the steps and their gradients) and no reference cycles, and the
    collector would walk the whole heap again and again meanwhile (a third of
    the build time on 15,000 steps)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# A button of the page moves the stepper's slider as its keys do (Home, arrow left,
# arrow right); the slider is linked to the frames in the page and to the kernel.
_PRESS = ("this.closest('.minigrad-stepper').querySelector('.noUi-handle')"
          ".dispatchEvent(new KeyboardEvent('keydown', {key: '%s', bubbles: true}))")


def _page_buttons() -> str:
    """Reset, back and step: buttons that work in the page, with or without a kernel."""
    buttons = []
    for name, icon, key in ((_("reset"), "fast-backward", "Home"),
                            (_("back"), "step-backward", "ArrowLeft"),
                            (_("step"), "step-forward", "ArrowRight")):
        tip = html.escape(_("{name} (Tab to it, then Enter)").format(name=name), quote=True)
        buttons.append(f'<button class="jupyter-button widget-button" type="button" '
                       f'title="{tip}" onclick="{_PRESS % key}" style="width:auto">'
                       f'<i class="fa fa-{icon}" aria-hidden="true"></i> {html.escape(name)}'
                       f'</button>')
    return f'<div class="minigrad-buttons" style="display:flex">{"".join(buttons)}</div>'


def _live_region(text: str, visible: bool = False) -> str:
    """Screen readers announce changes here (politely: after what they are saying).
    The frame shows the sentence already, so this copy is hidden from the eye."""
    hidden = "" if visible else (' style="position:absolute;width:1px;height:1px;'
                                 'overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap"')
    return f'<div role="status" aria-live="polite"{hidden}>{html.escape(text)}</div>'
