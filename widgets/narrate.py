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
from .text import array_of, number, short

__all__ = ["narrate_start", "narrate", "narrate_group", "frame_label", "later_frames"]


def narrate_start(model: GraphModel, steps: list, gradient=None, frames: int | None = None) -> str:
    """The sentence before backward; ``frames``: how many frames show the steps
    (said only when boxes drawn once for many nodes make it fewer than the steps)."""
    out = model.boxes[model.output_ids[0]]
    name = out.name or "out"
    seed = ("the gradient you passed, " + short(gradient) if gradient is not None
            else f"d({name})/d({name}) = 1")
    text = (f"Before backward: {name} = {short(out.tensor)}. Backward will run {len(steps):,} "
            f"steps, starting from {seed} at the output.")
    if frames is not None and frames < len(steps):
        text += (f" A box drawn once for many nodes runs as one frame, so they show in "
                 f"{frames:,} frames.")
    return text


def frame_label(index: int | None, total: int) -> str:
    """The frame's accessible name (the browser tests look frames up by it);
    ``index`` None: a frame the kernel has not made."""
    if index is None:
        return f"a frame past the ones kept, of {total}"
    return f"frame {index} of {total}"


def later_frames(kept: int) -> str:
    """What a saved notebook shows past the frames it keeps."""
    return (f"This notebook keeps the first {kept} frames; the later ones are made by the "
            f"kernel when you get there: run the cell to see them.")


def narrate(step, model: GraphModel, total: int) -> str:
    """The sentence for ``step`` (a ``BackwardStep``) of ``total``."""
    head = f"Step {step.index + 1:,} of {total:,}: {_who(step.node, model)} got {_got(step, model)}"
    if step.is_leaf:
        return f"{head}. {_accumulates(step, model)}"
    formula = formula_for(step.node.name())
    if formula is None:
        clauses = [_sends(step, e, None, None, model, None) for e in range(len(step.sent))]
        return (f"{head}; there is no formula on file for {step.node.name()}, so here is "
                f"only what it computed: " + "; ".join(clauses) + ".")
    inputs = formula.inputs if len(formula.inputs) == len(step.sent) else None
    # With the learner's names in play, every step says what its symbols are.
    symbols = _symbols(step, formula, inputs, model) if model.learner_names else None
    if inputs is None:  # the edges do not match the formula's inputs one to one
        terms = ",  ".join(_term(formula, name, symbols) for name in formula.inputs)
        head += f" ({_formula(formula, symbols)}{'; ' + terms if terms else ''})"
    elif symbols is not None:
        head = head.replace(" got ", f" ({_formula(formula, symbols)}) got ", 1)
    clauses = [_sends(step, e, inputs[e] if inputs else None, formula, model, symbols)
               for e in range(len(step.sent))]
    return f"{head}; " + "; ".join(clauses) + "."


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
            kinds += f" and {len(counts) - 3} other kinds"
        return (f"The {len(steps):,} nodes not drawn (… more): {span}; they are {kinds} "
                f"(draw more with max_nodes=N).")
    if steps[0].is_leaf:
        last = steps[-1].leaf_grad
        return (f"AccumulateGrad × {len(steps):,}: {span}; each adds the gradient it got "
                f"into the .grad of its own leaf (the last one's becomes "
                f"{short(last) if last is not None else 'None'}).")
    name = steps[0].node.name()
    head = f"{name} × {len(steps):,}: {span}"
    formula = formula_for(name)
    if formula is None:
        return f"{head}; there is no formula on file for {name}{_last_sent(steps, model)}."
    edges = len(steps[0].sent)
    inputs = formula.inputs if len(formula.inputs) == edges else None
    carrying = [e for e in range(edges)
                if any(step.sent[e][2] is not None for step in steps if len(step.sent) > e)]
    factors = {e: _common_factor(steps, e) for e in carrying}
    terms = []
    for e in carrying:
        if inputs is None:
            continue
        term = formula.term(inputs[e])
        if factors[e] is not None and not term.endswith(f"= {factors[e]}"):
            term += f" = {factors[e]}"
        terms.append(term)
    if inputs is None:
        terms = [formula.term(n) for n in formula.inputs]
    shared = set(factors.values())
    if carrying and len(shared) == 1 and None not in shared:
        factor = shared.pop()
        law = ("each passes the gradient on unchanged" if factor == "1"
               else f"each multiplies the gradient by {factor}")
    elif any(n in formula.grad for n in formula.inputs):
        law = "each applies its rule"
    else:
        law = "each multiplies the gradient by its own local derivative"
    rule = f" ({', '.join(terms)})" if terms else ""
    return f"{head}; {law}{rule}{_last_sent(steps, model)}."


def _span(steps: list, total: int) -> str:
    """``steps 12–1,011 of 1,013``, and ``every 5th step`` when they are evenly spaced."""
    first, last = steps[0].index + 1, steps[-1].index + 1
    text = f"steps {first:,}–{last:,} of {total:,}"
    gaps = {b.index - a.index for a, b in zip(steps, steps[1:])}
    if len(gaps) == 1 and (gap := gaps.pop()) > 1:
        text += f", every {_ordinal(gap)} step"
    return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


def _last_sent(steps: list, model: GraphModel) -> str:
    """``; the last sends 2 each to AccumulateGrad``."""
    for next_node, _, grad in steps[-1].sent:
        if next_node is not None and grad is not None:
            return f"; the last sends {short(grad)} to {model.name_of(next_node)}"
    return ""


def _common_factor(steps: list, e: int) -> str | None:
    """The one number every step's edge ``e`` multiplied the gradient by, if
    there is one (sent / received, for all the steps at once)."""
    received, sent = [], []
    for step in steps:
        if len(step.sent) <= e or step.sent[e][2] is None or step.grad_outputs[0] is None:
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
    tensor where they gave one (``z``), and a neutral word for a symbol that is
    one of their names for another tensor (the formula's ``y`` is not their y)."""
    taken = model.learner_names
    found = {}
    out = model.tensor_name(step.node, 0)
    if out:
        found[formula.output] = out
    for e, name in enumerate(inputs or ()):
        next_node, nr = step.node.next_functions[e]
        given = model.tensor_name(next_node, nr) if next_node is not None else None
        if given:
            found[name] = _indexed(name, given)
    if formula.output not in found and formula.output.split("_")[0] in taken:
        found[formula.output] = "result"
    for name in formula.inputs:
        if name not in found and name.split("_")[0] in taken:
            found[name] = _indexed(name, "input")
    for name, shown in list(found.items()):  # "x" too, where the formula says "x_i"
        found.setdefault(name.split("_")[0], shown.split("_")[0])
    return found


def _indexed(symbol: str, name: str) -> str:
    """``x_i`` for a tensor named z reads ``z_i``."""
    return f"{name}_{symbol.split('_', 1)[1]}" if "_" in symbol else name


def _write(text: str, symbols: dict | None) -> str:
    """``text`` with each symbol replaced (whole words only)."""
    if not symbols:
        return text
    return re.sub(r"[A-Za-z]\w*", lambda m: symbols.get(m.group(0), m.group(0)), text)


def _formula(formula, symbols: dict | None) -> str:
    return f"{_write(formula.output, symbols)} = {_write(formula.expression, symbols)}"


def _term(formula, name: str, symbols: dict | None) -> str:
    """``dz/dself = other``; with the learner's names ``d(out)/d(z_i) = 1/n``."""
    if symbols is None:
        return formula.term(name)
    out, shown = _write(formula.output, symbols), _write(name, symbols)
    if name in formula.d:
        return f"d({out})/d({shown}) = {_write(formula.d[name], symbols)}"
    return f"grad {shown} = {_write(formula.grad[name], symbols)}"


def _who(node, model: GraphModel) -> str:
    box = model.boxes[model.box_of[node]]
    name = model.name_of(node)
    if box.kind == "leaf":
        name = "AccumulateGrad" + (f" for {box.name}" if box.name else "")
    if box.count > 1 and node in box.nodes:
        return f"{name} ({box.nodes.index(node) + 1} of {box.count} in a repeated run)"
    return name


def _got(step, model: GraphModel) -> str:
    sources = ["the start (the seed)" if source is None else model.name_of(source)
               for source, _, _ in step.received]
    if not sources:
        return "no gradient"
    if len(sources) > 3:  # a shared weight in a loop: say how many, not each one
        counts = Counter(sources)
        parts = [f"{len(sources)} gradients (from " + ", ".join(
            f"{name} ×{n}" if n > 1 else name for name, n in counts.items()) + ")"]
    else:
        parts = [f"{short(grad)} from {source}"
                 for source, (_, _, grad) in zip(sources, step.received)]
    what = _gradient_name(step, model)
    if len(parts) == 1 and len(sources) == 1:
        return f"{what} = {parts[0]}" if what else parts[0]
    total = step.grad_outputs[0] if len(step.grad_outputs) == 1 else None
    summed = (f", which add up to {what + ' = ' if what else ''}{short(total)}"
              if total is not None else "")
    return " and ".join(parts) + summed


def _gradient_name(step, model: GraphModel) -> str | None:
    """``d(out)/d(z)``: what the gradient arriving at the node is, when the
    learner named both the output and the tensor this node made."""
    root = model.boxes[model.output_ids[0]].name
    made = model.tensor_name(step.node, 0) if len(step.grad_outputs) == 1 else None
    return f"d({root})/d({made})" if root and made else None


def _accumulates(step, model: GraphModel) -> str:
    leaf = step.node.variable
    name = model.name_of(step.node)
    target = f"{name}.grad" if name != "AccumulateGrad" else "The leaf's .grad"
    old = leaf.grad
    if old is None:
        return f"{target} was None, so it becomes {short(step.leaf_grad)}."
    return (f"{target} was {short(old)} (gradients add up across backward calls), "
            f"so it becomes {short(step.leaf_grad)}.")


def _sends(step, e: int, name: str | None, formula, model: GraphModel,
           symbols: dict | None) -> str:
    """What edge ``e`` carried; ``name`` is the formula's name for that input."""
    next_node, _, grad = step.sent[e]
    what = _write(name, symbols) if name else f"input {e + 1}"
    if next_node is None:
        return f"{what} needs no gradient"
    if grad is None:
        return f"nothing goes to {model.name_of(next_node)}"
    sends = f"sends {short(grad)} to {model.name_of(next_node)}"
    if name is None:
        return f"it {sends}"
    term = _term(formula, name, symbols)
    if name in formula.grad:  # not elementwise: the rule says how the gradient is made
        return f"{term}: it {sends}"
    factor = _factor(step.grad_outputs[0], grad)
    if factor and not term.endswith(f"= {factor}"):
        return f"{term} = {factor}, so it {sends}"
    return f"{term}, so it {sends}"


def _factor(received, sent) -> str | None:
    """sent / received, when that is the local derivative (same shape or a scalar)."""
    if received is None:
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
