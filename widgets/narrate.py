"""One sentence per backward step, in words and numbers.

"MulBackward0 got 0.25 each from MeanBackward0; dz/dself = other = 3, so it
sends 0.75 each to MulBackward0; other needs no gradient."

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

__all__ = ["narrate_start", "narrate"]


def narrate_start(model: GraphModel, steps: list, gradient=None) -> str:
    out = model.boxes[model.output_ids[0]]
    name = out.name or "out"
    seed = ("the gradient you passed, " + short(gradient) if gradient is not None
            else f"d({name})/d({name}) = 1")
    return (f"Before backward: {name} = {short(out.tensor)}. Backward will run {len(steps)} "
            f"steps, starting from {seed} at the output.")


def narrate(step, model: GraphModel, total: int) -> str:
    """The sentence for ``step`` (a ``BackwardStep``) of ``total``."""
    head = f"Step {step.index + 1} of {total}: {_who(step.node, model)} got {_got(step, model)}"
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
