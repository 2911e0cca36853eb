"""``BackwardCheck``: your backward pass, checked tensor by tensor against autograd's.

Give it the output (a loss), the tensors of the forward pass by name, and your
gradients as you derive them, one at a time (``add``) or several at once (a
dict). For each tensor it shows, as the ``cmp`` of Karpathy's lecture
"Becoming a backprop ninja" prints it: exact (every bit equal to autograd's),
close (within ``torch.allclose``'s tolerance, shown), or wrong, with the
largest difference, where it is, and what is most likely wrong (a missing sum,
a flipped sign, the batch size, a transposed matrix, a use forgotten, ...).
The graph is drawn once (the output's box called "loss", unless ``names`` or
``tensors`` name it) and each named tensor's box is marked: ✓ exact, ≈ close,
✗ wrong, ? not yet, by colour and by mark; every change is also said in a
sentence for screen readers.

Autograd's gradients come from the library's own engine (``autograd.grad`` on
the named tensors, leaves or not), so nobody calls ``retain_grad()`` and no
``.grad`` changes; the graph is kept, so ``loss.backward()`` still works
after. It works on minigrad and on real torch graphs alike.

>>> import minigrad as torch
>>> x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
>>> y = x * x
>>> loss = y.sum()
>>> check = BackwardCheck(loss, {"y": y, "x": x})
>>> check.add("y", torch.ones(3))
y               | ✓ exact    | max diff 0
>>> check.add("x", x.detach())  # forgot the 2 of d(x²)/dx
x               | ✗ wrong    | max diff 3 at [2] (yours 3, autograd's 6)
    Yours is 0.5 × autograd's: a factor of 2 missing or extra (as in d(x²)/dx = 2x)?
>>> check
BackwardCheck(2 tensors: 1 exact, 0 close, 1 wrong, 0 not yet)
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

import ipywidgets as w
import numpy as np
import traitlets
from minigrad.autograd import formula_for

from .adapter import autograd_gradients, is_leaf_node, is_tensor, steps, to_numpy
from .compare import MARK, Clues, Verdict, judge, not_yet, status_word
from .draw import FILL, box_lines, digraph
from .errors import GraphvizNotFound, RenderError
from .graph import GraphModel, named_tensors
from .i18n import _, in_words, ngettext
from .render import inline_svg, render_svg
from .static import StaticFallback
from .text import shape_text, unbroken_numbers
from .tolerance import CHECK_CLASS, ToleranceBoxes

__all__ = ["BackwardCheck"]

SVG = "{http://www.w3.org/2000/svg}"
# status -> (fill, border colour, border width, dashes): the colour is never the only sign
# (each box also says ✓ exact, ≈ close, ✗ wrong or ? not yet)
LOOK = {"exact": ("#b6d7a8", "#38761d", "2", None),
        "close": ("#e2f0d9", "#6aa84f", "2", None),
        "wrong": ("#f4cccc", "#b00020", "3", None),
        "missing": ("#ffffff", "#888888", "1.5", "5,3")}
PICTURE_HEIGHT = 560  # px; a taller graph scrolls
TEXT_COLOUR = {"exact": "#1e5c14", "close": "#38761d", "wrong": "#b00020", "missing": "#555555"}


class BackwardCheck(StaticFallback, w.VBox):
    """Check hand-derived gradients against autograd's; see the module docstring."""

    atol = traitlets.Float(1e-8, help="Absolute tolerance: yours is close when |yours - "
                                      "autograd's| <= atol + rtol * |autograd's| everywhere.")
    rtol = traitlets.Float(1e-5, help="Relative tolerance (see atol).")

    def __init__(self, output, tensors, grads: dict | None = None, *, atol: float = 1e-8,
                 rtol: float = 1e-5, engine: str | None = None, names: dict | None = None,
                 **kwargs) -> None:
        """``names``: more tensors to name in the drawing, not checked (as ``draw_graph``'s
        ``names``: ``{"W2": W2, ...}``, a module, or another check's ``tensors``)."""
        self.tensors = _named(output, tensors)
        self.output = output
        self._expected, self._clues = _reference(output, self.tensors)
        self._given: dict = {}
        self.verdicts: dict[str, Verdict] = {
            name: not_yet(name, tuple(t.shape), atol, rtol) for name, t in self.tensors.items()}
        self.last: Verdict | None = None
        self._summary = w.HTML()
        self._table = w.HTML()
        self._live = w.HTML()
        self._tolerance = ToleranceBoxes(self, atol, rtol)
        self._picture = w.HTML()
        self._drawing = _Drawing(output, self.tensors, engine, named_tensors(names))
        super().__init__(children=[self._summary, self._live,
                                   self._tolerance,
                                   self._table, self._picture], atol=atol, rtol=rtol, **kwargs)
        self.add_class("minigrad-backward-check")
        self.add_class(CHECK_CLASS)
        for name, grad in (grads or {}).items():
            self._judge(name, grad)
        self._show()

    # ---- driving it from Python ---------------------------------------------------

    def add(self, name: str, grad) -> Verdict:
        """Check ``grad`` as your gradient of the loss with respect to the tensor named
        ``name`` (None: take it back, not derived yet). Returns the verdict."""
        verdict = self._judge(name, grad)
        self._show()
        return verdict

    def update(self, grads: dict) -> "Verdicts":
        """``add`` each of ``{name: gradient}``; returns their verdicts."""
        found = Verdicts(self._judge(name, grad) for name, grad in grads.items())
        self._show()
        return found

    def verdict(self, name: str) -> Verdict:
        return self.verdicts[self._known(name)]

    @property
    def passed(self) -> bool:
        """Every named tensor derived, and each exact or close."""
        return all(v.right for v in self.verdicts.values())

    @property
    def counts(self) -> dict:
        found = {status: 0 for status in MARK}
        for verdict in self.verdicts.values():
            found[verdict.status] += 1
        return found

    @property
    def summary(self) -> str:
        """One line: how many are exact, close, wrong, not yet."""
        counts, total = self.counts, len(self.verdicts)
        if counts["exact"] + counts["close"] == total:
            return ngettext("The gradient matches autograd's: ✓ {exact} exact, ≈ {close} close.",
                            "All {count} gradients match autograd's: ✓ {exact} exact, "
                            "≈ {close} close.", total).format(count=total, **counts)
        return ngettext("{count} tensor: ✓ {exact} exact, ≈ {close} close, ✗ {wrong} wrong, "
                        "? {missing} not yet.",
                        "{count} tensors: ✓ {exact} exact, ≈ {close} close, ✗ {wrong} wrong, "
                        "? {missing} not yet.", total).format(count=total, **counts)

    @property
    def text(self) -> str:
        """Everything the check shows, in words: the summary, then a sentence per tensor."""
        return "\n".join([self.summary] + [v.sentence() for v in self.verdicts.values()])

    @property
    def svg(self) -> str:
        """The graph as drawn now (empty when no Graphviz program could draw it)."""
        return self._drawing.svg(self.verdicts)

    def static_html(self) -> str:
        """What the check shows, as plain HTML (for previews without widgets)."""
        return self._summary.value + self._table.value + self._picture.value

    def __repr__(self) -> str:
        counts = self.counts
        count = len(self.verdicts)
        return (f"BackwardCheck({count} tensor{'s' * (count != 1)}: {counts['exact']} exact, "
                f"{counts['close']} close, {counts['wrong']} wrong, {counts['missing']} not yet)")

    # ---- inside ---------------------------------------------------------------------

    def _known(self, name) -> str:
        if name in self.tensors:
            return name
        names = ", ".join(self.tensors)
        hint = ""
        if isinstance(name, str) and name.startswith("d") and name[1:] in self.tensors:
            hint = _(" (give the tensor's own name: {name!r} for its gradient {given})").format(
                name=name[1:], given=name)
        raise KeyError(_("BackwardCheck has no tensor named {name!r}{hint}; its tensors are: "
                         "{names}").format(name=name, hint=hint, names=names))

    def _judge(self, name, grad) -> Verdict:
        name = self._known(name)
        tensor = self.tensors[name]
        if grad is None:
            self._given.pop(name, None)
            verdict = not_yet(name, tuple(tensor.shape), self.atol, self.rtol)
        else:
            self._given[name] = _array(name, grad)
            verdict = judge(name, self._given[name], self._expected[name], self._clues[name],
                            atol=self.atol, rtol=self.rtol)
        self.verdicts[name] = self.last = verdict
        return verdict

    @traitlets.observe("atol", "rtol")
    def _rejudge(self, change) -> None:
        if not hasattr(self, "_drawing"):  # (not while being built)
            return
        self._tolerance.show(change["name"], change["new"])
        for name in self.verdicts:
            self._judge(name, self._given.get(name))
        self.last = None
        self._show(_("The tolerance is now atol={atol}, rtol={rtol}.").format(
            atol=f"{self.atol:g}", rtol=f"{self.rtol:g}") + " " + self.summary)

    def _show(self, said: str | None = None) -> None:
        """Everything on the page, as the verdicts are now; ``said``: what the live region
        announces (else the last verdict, or the summary)."""
        self._summary.value = f"<p style='margin:0 0 2px 0'><b>{html.escape(self.summary)}</b></p>"
        if said is None:
            said = self.last.sentence() if self.last is not None else self.summary
        self._live.value = (f'<div role="status" aria-live="polite" style="margin:0 0 4px 0">'
                            f'{_text(said)}</div>')
        self._table.value = _table(self.verdicts.values(), self.atol, self.rtol)
        self._picture.value = self._drawing.html(self.verdicts, self.summary)


class Verdicts(list):
    """Several verdicts, shown one line each (as the lecture's cmp prints them)."""

    def __repr__(self) -> str:
        return "\n".join(map(str, self))

    __str__ = __repr__


# ---- what autograd says ----------------------------------------------------------------


def _named(output, tensors) -> dict:
    if not is_tensor(output) or output.grad_fn is None:
        raise ValueError(_("BackwardCheck needs the output of a graph (a loss computed from "
                           "tensors with requires_grad=True), got {what}").format(
            what=type(output).__name__ if not is_tensor(output) else _("a tensor with no "
                                                                       "grad_fn")))
    if output.numel() != 1:
        raise ValueError(_("BackwardCheck needs one number to differentiate (a loss); the "
                           "output has shape {shape}: reduce it with .sum() or .mean()").format(
            shape=list(output.shape)))
    found = named_tensors(tensors)
    if not found:
        raise ValueError(_("BackwardCheck needs the tensors to check, by name: "
                           "{{\"logits\": logits, ...}}"))
    for name, tensor in found.items():
        if not tensor.requires_grad:
            raise ValueError(_("{name} does not require grad, so autograd has no gradient for "
                               "it (it is data, not part of what backward differentiates)"
                               ).format(name=name))
    return found


def _reference(output, tensors: dict):
    """Autograd's gradient of each named tensor (NumPy), and the graph's clues for hints."""
    try:
        grads = autograd_gradients(output, list(tensors.values()))
        walked = steps(output, tensors=list(tensors.values()))
    except RuntimeError as error:
        if "second time" in str(error) or "freed" in str(error):
            raise ValueError(_("The graph of this output was freed by an earlier backward(): "
                               "run the forward pass again, then make the check (or call "
                               "backward(retain_graph=True))")) from None
        raise
    expected = {}
    for (name, tensor), grad in zip(tensors.items(), grads):
        if grad is None:
            raise ValueError(_("The output does not depend on {name}: backward never reaches "
                               "it, so it has no gradient to check").format(name=name))
        expected[name] = to_numpy(grad)
    return expected, _clues(tensors, walked, output)


def _clues(tensors: dict, walked: list, output) -> dict:
    """Per name: its uses (who sent it which gradient, from backward's own steps), the
    gradient that arrived at its one user, and the sizes that may explain a factor."""
    model = GraphModel.build([output], tensors, collapse=None, max_nodes=10**9)
    sent_to: dict = {}  # (node, input number) -> [(step, edge)]
    for step in walked:
        for e, (next_node, nr, grad) in enumerate(step.sent):
            if next_node is not None and grad is not None:
                sent_to.setdefault((next_node, nr), []).append((step, e))
    accumulators = {id(next_node.variable): next_node for key in sent_to
                    for next_node in [key[0]] if is_leaf_node(next_node)}
    batches = [(tensor.shape[0], _("dim {dim} of {name}").format(dim=0, name=name))
               for name, tensor in tensors.items() if tensor.dim()]
    found = {}
    for name, tensor in tensors.items():
        key = ((accumulators.get(id(tensor)), 0) if tensor.is_leaf
               else (tensor.grad_fn, tensor.output_nr))
        uses = [(step, e) for step, e in sent_to.get(key, [])]
        clues = Clues(tuple(tensor.shape),
                      uses=[(_who(step.node, model), to_numpy(step.sent[e][2]))
                            for step, e in uses],
                      # a factor may be a size of the tensor's own, or a batch size
                      sizes=[(size, _("dim {dim} of {name}").format(dim=d, name=name))
                             for d, size in enumerate(tensor.shape)] + batches)
        if len(uses) == 1 and len(uses[0][0].grad_outputs) == 1 \
                and uses[0][0].grad_outputs[0] is not None:
            step, e = uses[0]
            clues.arriving = (step.node.name(), model.tensor_name(step.node, 0),
                              _local(step.node, e), to_numpy(step.grad_outputs[0]))
        found[name] = clues
    return found


def _who(node, model: GraphModel) -> str:
    """``MulBackward0 (probs)``: a node, with your name for the tensor it made."""
    made = model.tensor_name(node, 0)
    return f"{node.name()} ({made})" if made else node.name()


def _local(node, edge: int) -> str:
    """The node's local derivative for the input of ``edge``, in words."""
    formula = in_words(formula_for(node.name()))
    if formula is None:
        return _("no formula on file for {node}").format(node=node.name())
    said = f"{formula.output} = {formula.expression}"
    if len(formula.inputs) == len(node.next_functions):
        return f"{said}; {formula.term(formula.inputs[edge])}"
    return said


def _array(name: str, grad) -> np.ndarray:
    if is_tensor(grad):
        return to_numpy(grad).copy()  # (a copy: the learner may go on with dx += ...)
    try:
        array = np.asarray(grad)
    except (TypeError, ValueError):
        array = None
    if array is not None and array is grad:
        array = array.copy()
    if array is None or array.dtype.kind not in "biuf":
        raise TypeError(_("The gradient for {name} must be a tensor or an array of numbers, "
                          "got {what}").format(name=name, what=type(grad).__name__))
    return array


# ---- the table ---------------------------------------------------------------------


def _text(said: str) -> str:
    """Escaped text with 1e-08 kept on one line (Chromium broke it as "1e-" over "08")."""
    return unbroken_numbers(html.escape(said))


def _table(verdicts, atol: float, rtol: float) -> str:
    rule = _("exact: every bit equal to autograd's gradient. close: |yours − autograd's| ≤ "
             "atol + rtol · |autograd's| everywhere (atol={atol}, rtol={rtol}; "
             "torch.allclose's test).").format(atol=f"{atol:g}", rtol=f"{rtol:g}")
    cell = "padding:1px 10px;text-align:left;vertical-align:top"
    mono = cell + ";font-family:monospace"
    heads = ["", _("tensor"), _("shape"), _("verdict"), _("largest difference"),
             _("what is likely wrong")]
    rows = [f"<p style='margin:0 0 4px 0;font-size:90%'>{_text(rule)}</p>",
            "<table class='minigrad-backward-table'><tr>"
            + "".join(f'<th style="{cell}">{html.escape(h)}</th>' for h in heads) + "</tr>"]
    for v in verdicts:
        colour = TEXT_COLOUR[v.status]
        shape = str(list(v.shape))
        if v.given_shape is not None and v.given_shape != v.shape:
            shape += " " + _("(yours {shape})").format(shape=list(v.given_shape))
        rows.append(
            f'<tr class="minigrad-verdict {v.status}" data-name="{html.escape(v.name)}">'
            f'<td style="{cell};color:{colour};font-weight:bold" aria-hidden="true">{v.mark}</td>'
            f'<td style="{mono}">{html.escape(v.name)}</td>'
            f'<td style="{mono};white-space:nowrap">{html.escape(shape)}</td>'
            f'<td style="{cell};color:{colour};font-weight:bold;white-space:nowrap">'
            f'{html.escape(v.word)}</td>'
            f'<td style="{mono};max-width:24em">{_text(v.difference())}</td>'
            f'<td style="{cell};max-width:30em">{_text(v.hint or "")}</td></tr>')
    return "\n".join(rows) + "</table>"


# ---- the graph, marked -----------------------------------------------------------------


class _Drawing:
    """The graph laid out once; each named tensor's box is marked per verdict."""

    def __init__(self, output, tensors: dict, engine: str | None, others: dict) -> None:
        # (a tensor both checked and in ``others`` keeps its checked name; the output, a
        # loss, is called so unless it has a name: lesson 10's box said "output")
        self.model = GraphModel.build([output], {_("loss"): output, **others, **tensors},
                                      collapse=4, max_nodes=200)
        self.boxes: dict = {}  # name -> box id
        by_tensor = {id(box.tensor): box.id for box in self.model.boxes.values()
                     if box.kind in ("leaf", "tensor", "output") and box.count == 1}
        for name, tensor in tensors.items():
            if id(tensor) in by_tensor:
                self.boxes.setdefault(name, by_tensor[id(tensor)])
        widest = max((f"{MARK[s]} {status_word(s)}" for s in MARK), key=len)
        labels = {}
        for box in self.model.boxes.values():
            if box.id in self.boxes.values():
                labels[box.id] = [_title(box), widest]
            elif box.kind in ("leaf", "tensor"):
                labels[box.id] = [_title(box)]
            else:
                labels[box.id] = box_lines(self.model, box, max_values=1)
        # green is the verdicts' (exact, close): the loss's box, green in draw_graph as the
        # output's, is yellow here, as any tensor named and not checked
        fills = {box_id: FILL["tensor"] for box_id in self.model.output_ids
                 if box_id not in self.boxes.values()}
        self.graph = digraph(self.model, labels, {}, fills)
        self.error = None
        try:
            self.root = ET.fromstring(render_svg(self.graph, engine))
        except (GraphvizNotFound, RenderError) as error:
            self.root, self.error = None, str(error)

    def svg(self, verdicts: dict) -> str:
        if self.root is None:
            return ""
        groups = {g.get("id"): g for g in self.root.iter(f"{SVG}g") if g.get("id")}
        for name, box_id in self.boxes.items():
            verdict = verdicts[name]
            fill, stroke, width, dashes = LOOK[verdict.status]
            group = groups[box_id]
            for shape in group.iter(f"{SVG}polygon"):
                shape.set("fill", fill)
                shape.set("stroke", stroke)
                shape.set("stroke-width", width)
                if dashes:
                    shape.set("stroke-dasharray", dashes)
                else:
                    shape.attrib.pop("stroke-dasharray", None)
            texts = list(group.iter(f"{SVG}text"))
            if len(texts) >= 2:
                texts[-1].text = f"{verdict.mark} {verdict.word}"
                texts[-1].set("fill", TEXT_COLOUR[verdict.status])
                texts[-1].set("font-weight", "bold")
            group.set("class", " ".join(
                [c for c in group.get("class", "").split() if c not in MARK] + [verdict.status]))
            for link in group.iter(f"{SVG}a"):  # the box's tooltip: the verdict in words
                link.set("{http://www.w3.org/1999/xlink}title", verdict.sentence())
        return ET.tostring(self.root, encoding="unicode")

    def html(self, verdicts: dict, summary: str) -> str:
        if self.root is None:
            return f"<pre>{html.escape(self.error or '')}</pre>"
        # a tall graph scrolls in its own box, so the check stays one screen high
        return (f'<div role="img" aria-label="{html.escape(summary, quote=True)}" '
                f'style="overflow:auto;max-height:{PICTURE_HEIGHT}px;border:1px solid #dddddd;'
                f'padding:4px">{inline_svg(self.svg(verdicts))}</div>')


def _title(box) -> str:
    name = box.name or {"leaf": _("leaf"), "tensor": _("retained"), "output": _("output")}[
        box.kind]
    return name if box.tensor.dim() == 0 else f"{name}  {shape_text(box.tensor)}"
