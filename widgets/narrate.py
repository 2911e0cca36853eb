"""One sentence per backward step, in words and numbers.

"MulBackward0 got 0.25 each from MeanBackward0; dz/dself = other = 3, so it
sends 0.75 each to MulBackward0; other needs no gradient."

A box drawn once for many nodes (a collapsed run, "… more") is stepped
through as one frame, and its sentence says how many engine steps that is:
"MulBackward0 × 1,000: steps 12–1,011 of 1,013; each multiplies the gradient
by 2 (dz/dself = other = 2); the last sends 2 each to AccumulateGrad."

All the stepper's sentences are made here (and only here), so they can be
translated in one place.

The formula is looked up by the node's name in minigrad's table of
formulas (``minigrad.autograd.formula_for``), so PyTorch's ``MulBackward0``
is explained like minigrad's; a node with no formula on file gets a plain
sentence that says so. The derivative's value is read off the step itself:
for an elementwise op the gradient sent is the gradient received times the
local derivative, so sent / received is that derivative, number by number.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
from minigrad.autograd import formula_for

from .graph import GraphModel
from .i18n import _, in_words, tidied
from .symbols import pytorch_words, rewrite
from .symbols import term as _symbol_term
from .text import array_of, has_values, number, short

__all__ = ["narrate_start", "narrate", "narrate_group", "frame_label", "later_frames"]


@tidied
def narrate_start(model: GraphModel, steps: list, gradient=None, frames: int | None = None) -> str:
    """The sentence before backward; ``frames``: how many frames show the steps
    (said only when boxes drawn once for many nodes make it fewer than the steps)."""
    out = model.boxes[model.output_ids[0]]
    name = out.name or "out"
    seed = (_("the gradient you passed, {gradient}").format(gradient=short(gradient))
            if gradient is not None else f"d({name})/d({name}) = 1")
    said = {"name": name, "value": short(out.tensor), "count": f"{len(steps):,}", "seed": seed}
    if frames is not None and frames < len(steps):
        return _("Before backward: {name} = {value}. Backward will run {count} steps, "
                 "starting from {seed} at the output. A box drawn once for many nodes runs "
                 "as one frame, so they show in {frames} frames.").format(
            **said, frames=f"{frames:,}")
    return _("Before backward: {name} = {value}. Backward will run {count} steps, starting "
             "from {seed} at the output.").format(**said)


def frame_label(index: int | None, total: int) -> str:
    """The frame's accessible name (the browser tests look frames up by it);
    ``index`` None: a frame the kernel has not made."""
    if index is None:
        return _("a frame past the ones kept, of {total}").format(total=total)
    return _("frame {index} of {total}").format(index=index, total=total)


def later_frames(kept: int) -> str:
    """What a saved notebook shows past the frames it keeps."""
    return _("This notebook keeps the first {kept} frames; the later ones are made by the "
             "kernel when you get there: run the cell to see them.").format(kept=kept)


@tidied
def narrate(step, model: GraphModel, total: int, *, seeded: bool = False) -> str:
    """The sentence for ``step`` (a ``BackwardStep``) of ``total``. ``seeded``: backward
    started from a gradient the learner passed, so what arrives at a node is the gradient
    of ``(gradient * out).sum()``, not ``d(out)/d(...)``, and is not named so."""
    said = {"number": f"{step.index + 1:,}", "total": f"{total:,}",
            "who": _who(step.node, model), "gradient": _got(step, model, seeded)}
    if step.is_leaf:
        return _("Step {number} of {total}: {who} got {gradient}. {accumulates}").format(
            **said, accumulates=_accumulates(step, model))
    formula = in_words(formula_for(step.node.name()))
    # TRANSLATORS: joins the clauses of one step's sentence ("...; it sends ...; ...")
    join = _("; ").join
    if formula is None:
        clauses = [_sends(step, e, None, None, model, None) for e in range(len(step.sent))]
        return _("Step {number} of {total}: {who} got {gradient}; there is no formula on file "
                 "for {node}, so here is only what it computed: {clauses}.").format(
            **said, node=step.node.name(), clauses=join(clauses))
    inputs = formula.inputs if len(formula.inputs) == len(step.sent) else None
    symbols = _symbols(step, formula, inputs, model)
    clauses = join(_sends(step, e, inputs[e] if inputs else None, formula, model, symbols)
                   for e in range(len(step.sent)))
    if inputs is None:  # the edges do not match the formula's inputs one to one
        terms = ",  ".join(_term(formula, name, symbols) for name in formula.inputs)
        math = _formula(formula, symbols) + ("; " + terms if terms else "")
        return _("Step {number} of {total}: {who} got {gradient} ({math}); {clauses}.").format(
            **said, math=math, clauses=clauses)
    if model.learner_names:  # with the learner's names in play, say what the symbols are
        said["who"] += f" ({_formula(formula, symbols)})"
    return _("Step {number} of {total}: {who} got {gradient}; {clauses}.").format(
        **said, clauses=clauses)


@tidied
def narrate_group(steps: list, model: GraphModel, total: int) -> str:
    """The sentence for a frame that shows several ``steps`` lighting one box
    (a collapsed run, or the nodes not drawn), of ``total`` steps."""
    box = model.boxes[model.box_of[steps[0].node]]
    span = _span(steps, total)
    if box.kind == "more":
        counts = Counter(step.node.name() if not step.is_leaf else "AccumulateGrad"
                         for step in steps)
        kinds = ", ".join(f"{name} × {n:,}" for name, n in counts.most_common(3))
        if len(counts) > 3:
            kinds = _("{kinds} and {count} other kinds").format(kinds=kinds,
                                                                  count=len(counts) - 3)
        return _("The {count} nodes not drawn (… more): {span}; they are {kinds} (draw more "
                 "with max_nodes=N).").format(count=f"{len(steps):,}", span=span, kinds=kinds)
    if steps[0].is_leaf:
        last = steps[-1].leaf_grad
        return _("AccumulateGrad × {count}: {span}; each adds the gradient it got into the "
                 ".grad of its own leaf (the last one's becomes {value}).").format(
            count=f"{len(steps):,}", span=span,
            value=short(last) if last is not None else "None")
    name = steps[0].node.name()
    head = _("{name} × {count}: {span}").format(name=name, count=f"{len(steps):,}", span=span)
    formula = in_words(formula_for(name))
    if formula is None:
        return _("{head}; there is no formula on file for {name}{last}.").format(
            head=head, name=name, last=_last_sent(steps, model))
    edges = len(steps[0].sent)
    inputs = formula.inputs if len(formula.inputs) == edges else None
    carrying = [e for e in range(edges)
                if any(step.sent[e][2] is not None for step in steps if len(step.sent) > e)]
    factors = {e: _common_factor(steps, e) for e in carrying}
    # the learner's names are for single tensors, not for a run: the symbols are
    # PyTorch's words ("result", "self"), never one of the learner's names
    symbols = pytorch_words(formula, model.learner_names)
    terms = []
    for e in carrying:
        if inputs is None:
            continue
        term = _term(formula, inputs[e], symbols)
        if factors[e] is not None and not term.endswith(f"= {factors[e]}"):
            term += f" = {factors[e]}"
        terms.append(term)
    if inputs is None:
        terms = [_term(formula, n, symbols) for n in formula.inputs]
    shared = set(factors.values())
    if carrying and len(shared) == 1 and None not in shared:
        factor = shared.pop()
        law = (_("each passes the gradient on unchanged") if factor == "1"
               else _("each multiplies the gradient by {factor}").format(factor=factor))
    elif any(n in formula.grad for n in formula.inputs):
        law = _("each applies its rule")
    else:
        law = _("each multiplies the gradient by its own local derivative")
    if terms:
        return _("{head}; {law} ({terms}){last}.").format(
            head=head, law=law, terms=", ".join(terms), last=_last_sent(steps, model))
    return _("{head}; {law}{last}.").format(head=head, law=law, last=_last_sent(steps, model))


def _span(steps: list, total: int) -> str:
    """``steps 12–1,011 of 1,013``, and ``every 5th step`` when they are evenly spaced."""
    first, last = steps[0].index + 1, steps[-1].index + 1
    text = _("steps {first}–{last} of {total}").format(first=f"{first:,}", last=f"{last:,}",
                                                        total=f"{total:,}")
    gaps = {b.index - a.index for a, b in zip(steps, steps[1:])}
    if len(gaps) == 1 and (gap := gaps.pop()) > 1:
        # TRANSLATORS: {ordinal} is "5th" in English; {n} is the bare number, 5
        text += _(", every {ordinal} step").format(ordinal=_ordinal(gap), n=f"{gap:,}")
    return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


def _last_sent(steps: list, model: GraphModel) -> str:
    """``; the last sends 2 each to AccumulateGrad``."""
    for next_node, _nr, grad in steps[-1].sent:
        if next_node is not None and grad is not None:
            return _("; the last sends {gradient} to {node}").format(
                gradient=short(grad), node=model.name_of(next_node))
    return ""


def _common_factor(steps: list, e: int) -> str | None:
    """The one number every step's edge ``e`` multiplied the gradient by, if
    there is one (sent / received, for all the steps at once)."""
    if len(steps) > 2 and _common_factor(steps[:2], e) is None:
        return None  # the first two differ already: no need to read them all
    received, sent = [], []
    for step in steps:
        if len(step.sent) <= e or step.sent[e][2] is None or step.grad_outputs[0] is None \
                or not has_values(step.grad_outputs[0]):
            return None
        received.append(array_of(step.grad_outputs[0]))
        sent.append(array_of(step.sent[e][2]))
    try:
        a = np.stack(received).astype(np.float64)
        b = np.stack(sent).astype(np.float64)
    except ValueError:  # shapes differ from step to step
        return None
    if a.ndim < b.ndim and a[0].size == 1:
        a = a.reshape(a.shape[:1] + (1,) * (b.ndim - 1))
    if np.any(a == 0):
        return None
    with np.errstate(all="ignore"):
        try:
            ratio = b / a
        except ValueError:
            return None
    flat = ratio.reshape(-1)
    if flat.size and np.all(np.isfinite(flat)) and np.allclose(flat, flat[0], rtol=1e-4, atol=0):
        return number(flat[0])
    return None


def _symbols(step, formula, inputs, model: GraphModel) -> dict:
    """Formula symbol -> what to write instead: the learner's name for that
    tensor where they gave one (``z``), else PyTorch's word (``result``, ``self``),
    never one of their names for another tensor (the formula's ``y`` is not their y)."""
    words = pytorch_words(formula, model.learner_names)
    out = model.tensor_name(step.node, 0)
    if out:
        words[_base(formula.output)] = out
    for e, name in enumerate(inputs or ()):
        next_node, nr = step.node.next_functions[e]
        given = model.tensor_name(next_node, nr) if next_node is not None else None
        if given:
            words[_base(name)] = given
    return words


def _base(symbol: str) -> str:
    """``y_i`` -> ``y``."""
    return re.match(r"[A-Za-z0-9]*", symbol).group(0) or symbol


def _formula(formula, symbols: dict) -> str:
    return f"{rewrite(formula.output, symbols)} = {rewrite(formula.expression, symbols)}"


def _term(formula, name: str, symbols: dict) -> str:
    """``d(result)/d(self) = other``; with the learner's names ``d(out)/d(z_i) = 1/n``."""
    return _symbol_term(formula, name, symbols)


def _who(node, model: GraphModel) -> str:
    box = model.boxes[model.box_of[node]]
    name = model.name_of(node)
    if box.kind == "accumulate":
        name = _("AccumulateGrad for {name}").format(name=box.name) if box.name \
            else "AccumulateGrad"
    if box.count > 1 and node in box.nodes:
        return _("{name} ({number} of {count} in a repeated run)").format(
            name=name, number=box.nodes.index(node) + 1, count=box.count)
    return name


def _got(step, model: GraphModel, seeded: bool = False) -> str:
    sources = [_("the start (the seed)") if source is None else model.name_of(source)
               for source, _node, _nr in step.received]
    if not sources:
        return _("no gradient")
    if len(sources) > 3:  # a shared weight in a loop: say how many, not each one
        counts = Counter(sources)
        parts = [_("{count} gradients (from {sources})").format(
            count=len(sources), sources=", ".join(
                f"{name} ×{n}" if n > 1 else name for name, n in counts.items()))]
    else:
        parts = [_("{gradient} from {source}").format(gradient=short(grad), source=source)
                 for source, (_node, _nr, grad) in zip(sources, step.received)]
    what = None if seeded else _gradient_name(step, model)
    if len(parts) == 1 and len(sources) == 1:
        return f"{what} = {parts[0]}" if what else parts[0]
    total = step.grad_outputs[0] if len(step.grad_outputs) == 1 else None
    # TRANSLATORS: joins the gradients a node got ("0.5 from A and 0.5 from B")
    parts = _(" and ").join(parts)
    if total is None:
        return parts
    return _("{gradients}, which add up to {total}").format(
        gradients=parts, total=(what + " = " if what else "") + short(total))


def _gradient_name(step, model: GraphModel) -> str | None:
    """``d(out)/d(z)``: what the gradient arriving at the node is, when the
    learner named both the output and the tensor this node made."""
    root = model.boxes[model.output_ids[0]].name
    made = model.tensor_name(step.node, 0) if len(step.grad_outputs) == 1 else None
    return f"d({root})/d({made})" if root and made else None


def _accumulates(step, model: GraphModel) -> str:
    leaf = step.node.variable
    name = model.name_of(step.node)
    target = f"{name}.grad" if name != "AccumulateGrad" else _("The leaf's .grad")
    old = leaf.grad
    if old is None:
        return _("{target} was None, so it becomes {value}.").format(
            target=target, value=short(step.leaf_grad))
    return _("{target} was {old} (gradients add up across backward calls), so it becomes "
             "{value}.").format(target=target, old=short(old), value=short(step.leaf_grad))


def _sends(step, e: int, name: str | None, formula, model: GraphModel,
           symbols: dict | None) -> str:
    """What edge ``e`` carried; ``name`` is the formula's name for that input."""
    next_node, _nr, grad = step.sent[e]
    what = rewrite(name, symbols) if name else _("input {number}").format(number=e + 1)
    if next_node is None:
        return _("{input} needs no gradient").format(input=what)
    if grad is None:
        return _("nothing goes to {node}").format(node=model.name_of(next_node))
    said = {"gradient": short(grad), "node": model.name_of(next_node)}
    if name is None:
        return _("it sends {gradient} to {node}").format(**said)
    term = _term(formula, name, symbols)
    if name in formula.grad:  # not elementwise: the rule says how the gradient is made
        return _("{term}: it sends {gradient} to {node}").format(term=term, **said)
    factor = _factor(step.grad_outputs[0], grad)
    if factor and not term.endswith(f"= {factor}"):
        term = f"{term} = {factor}"
    return _("{term}, so it sends {gradient} to {node}").format(term=term, **said)


def _factor(received, sent) -> str | None:
    """sent / received, when that is the local derivative (same shape or a scalar)."""
    if received is None or not (has_values(received) and has_values(sent)):
        return None
    a, b = array_of(received).astype(np.float64), array_of(sent).astype(np.float64)
    if a.shape != b.shape and a.size != 1:
        return None
    if np.any(a == 0):
        return None
    with np.errstate(all="ignore"):
        ratio = np.broadcast_to(b / a, b.shape) if a.size == 1 else b / a
    if not np.all(np.isfinite(ratio)):
        return None
    flat = ratio.reshape(-1)
    if flat.size and np.allclose(flat, flat[0], rtol=1e-4, atol=0):
        return number(flat[0])
    return short(ratio) if ratio.size <= 6 else None
