"""Which questions a submission left unanswered, for the item analysis.

A question is left unanswered when every answer cell that feeds it came back as it was
released, or was deleted (the grader puts a deleted one back as the stub): a code cell
that still holds the stub's ``raise NotImplementedError()``, a written answer that is
still ``YOUR ANSWER HERE`` or empty. (The stub is the same in every language: the
student versions are translated first and stubbed after.)

    >>> unanswered([("answer", "q1_answer", "# YOUR CODE HERE\\nraise NotImplementedError()"),
    ...             ("manual", "q4", "YOUR ANSWER HERE")], {"q1_answer": "q1"})
    ['q1', 'q4']
"""

from __future__ import annotations

from .notebook import CODE_STUB, TEXT_STUB

__all__ = ["unanswered"]

STUB_LINE = CODE_STUB.splitlines()[-1]  # raise NotImplementedError()


def _left_as_released(kind: str, source: str) -> bool:
    if kind == "manual":
        return source.strip() in ("", TEXT_STUB)
    return any(line.strip() == STUB_LINE for line in source.splitlines())


def unanswered(cells: list[tuple[str, str, str]], owners: dict) -> list[str]:
    """``cells``: (kind "answer" or "manual", grade_id, source) of the submission's answer
    cells; ``owners``: answer cell -> its question (a written answer is its own question).
    The questions all of whose cells were left as released, sorted."""
    left: dict[str, bool] = {}
    for kind, gid, source in cells:
        question = gid if kind == "manual" else owners.get(gid)
        if question:
            left[question] = left.get(question, True) and _left_as_released(kind, source)
    return sorted(question for question, untouched in left.items() if untouched)
