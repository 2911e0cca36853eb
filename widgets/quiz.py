"""Quiz mode for the stepper: predict the gradient before each step, then check.

Before a step runs, the learner is asked for the gradient the node will
send (along its first edge that carries one), or, for a leaf, what its
``.grad`` will become. An answer is a number (``0.75``, meaning every
entry), a number with "each", or a nested list (``[[1, 2], [3, 4]]``); it is
right when it agrees with the engine's value within ``rtol`` = 1e-3 and
``atol`` = 1e-4 (as ``numpy.isclose``). An answer that cannot be read as a
number (a typo) is not judged: the stepper asks the same question again.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from .i18n import _
from .text import array_of, short

__all__ = ["Question", "question_for", "judge", "parse_answer", "unreadable"]


@dataclass
class Question:
    text: str  # "What gradient will MulBackward0 send to AddBackward0?"
    answer: object  # the engine's value (a tensor)
    what: str  # "MulBackward0 sends {value} to AddBackward0"


def question_for(step, model) -> Question | None:
    """The question before ``step``; None when nothing flows (nothing to predict)."""
    who = model.name_of(step.node)
    if step.is_leaf:
        if step.leaf_grad is None:
            return None
        name = who if who != "AccumulateGrad" else _("the leaf")
        return Question(_("What will {name}.grad be after this step?").format(name=name),
                        step.leaf_grad,
                        _("{name}.grad becomes {value}").format(name=name, value="{value}"))
    for next_node, _nr, grad in step.sent:
        if next_node is not None and grad is not None:
            target = model.name_of(next_node)
            return Question(_("What gradient will {who} send to {target}?").format(
                who=who, target=target), grad, _("{who} sends {value} to {target}").format(
                who=who, target=target, value="{value}"))
    return None


def parse_answer(text: str):
    """``"0.75"``, ``"0.75 each"``, ``"[0.75, 0.75]"`` -> a NumPy array; None if unreadable."""
    each = _("{value} each").replace("{value}", "").strip()  # as short() writes it
    text = text.strip().removesuffix("each").removesuffix(each).strip()
    try:
        value = np.asarray(ast.literal_eval(text), dtype=np.float64)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value


def unreadable(text: str) -> str:
    """What is said to an answer that is not a number: no verdict, and the value
    stays hidden, so the learner can correct a typo and check again."""
    return _("Could not read {answer} as a number or a list of numbers (like 0.75 or "
             "[1, 2]): correct it and press check again.").format(answer=repr(text.strip()))


def judge(question: Question, text: str) -> tuple[bool, str]:
    """(right?, the sentence that says so and reveals the value)."""
    reveal = question.what.format(value=short(question.answer))
    given = parse_answer(text)
    if given is None:
        return False, unreadable(text)
    expected = array_of(question.answer).astype(np.float64)
    try:
        right = bool(np.all(np.isclose(np.broadcast_to(given, expected.shape), expected,
                                       rtol=1e-3, atol=1e-4)))
    except ValueError:  # shapes that do not broadcast
        return False, _("Not quite: {answer} has shape {shape}, the gradient has shape "
                        "{expected}. The answer: {reveal}.").format(
            answer=text.strip(), shape=list(given.shape), expected=list(expected.shape),
            reveal=reveal)
    if right:
        return True, _("Right: {reveal}.").format(reveal=reveal)
    return False, _("Not quite: you said {answer}; {reveal}.").format(answer=text.strip(),
                                                                     reveal=reveal)
