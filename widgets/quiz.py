"""Quiz mode for the stepper: predict the gradient before each step, then check.

Before a step runs, the learner is asked for the gradient the node will
send (along its first edge that carries one), or, for a leaf, what its
``.grad`` will become. An answer is a number (``0.75``, meaning every
entry), a number with "each", or a nested list (``[[1, 2], [3, 4]]``); it is
right when it agrees with the engine's value within ``rtol`` = 1e-3 and
``atol`` = 1e-4 (as ``numpy.isclose``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from .text import array_of, short

__all__ = ["Question", "question_for", "judge", "parse_answer"]


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
        name = who if who != "AccumulateGrad" else "the leaf"
        return Question(f"What will {name}.grad be after this step?", step.leaf_grad,
                        f"{name}.grad becomes {{value}}")
    for next_node, _, grad in step.sent:
        if next_node is not None and grad is not None:
            target = model.name_of(next_node)
            return Question(f"What gradient will {who} send to {target}?", grad,
                            f"{who} sends {{value}} to {target}")
    return None


def parse_answer(text: str):
    """``"0.75"``, ``"0.75 each"``, ``"[0.75, 0.75]"`` -> a NumPy array; None if unreadable."""
    text = text.strip().removesuffix("each").strip()
    try:
        value = np.asarray(ast.literal_eval(text), dtype=np.float64)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value


def judge(question: Question, text: str) -> tuple[bool, str]:
    """(right?, the sentence that says so and reveals the value)."""
    reveal = question.what.format(value=short(question.answer))
    given = parse_answer(text)
    if given is None:
        return False, (f"Could not read {text.strip()!r} as a number or a list of numbers. "
                       f"The answer: {reveal}.")
    expected = array_of(question.answer).astype(np.float64)
    try:
        right = bool(np.all(np.isclose(np.broadcast_to(given, expected.shape), expected,
                                       rtol=1e-3, atol=1e-4)))
    except ValueError:  # shapes that do not broadcast
        return False, (f"Not quite: {text.strip()} has shape {list(given.shape)}, the "
                       f"gradient has shape {list(expected.shape)}. The answer: {reveal}.")
    if right:
        return True, f"Right: {reveal}."
    return False, f"Not quite: you said {text.strip()}; {reveal}."
