"""The extract step, where the student's code runs: hand back data, decide nothing.

``collect`` runs a question's extract step on the student's names at the given inputs and
turns the result into JSON-ready data (``data.encode``). It runs in a code question's
sandboxed run (``runner.py``), and in the notebook's kernel for ``check()``. The grader
judges that data in its own process, so nothing a notebook does to numpy, minigrad,
builtins or this module can change a verdict; at most it can hand back wrong data.
"""

from __future__ import annotations

import contextlib

from .data import Raised, encode
from .questions import Question

__all__ = ["collect"]


class _Discard:
    """A stream that drops what the student's code prints while it is being examined."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def collect(question: Question, namespace: dict, inputs) -> dict:
    """``question.extract(namespace, inputs)`` as JSON-ready data (errors included)."""
    try:
        with contextlib.redirect_stdout(_Discard()), contextlib.redirect_stderr(_Discard()):
            return encode(question.extract(namespace, inputs))
    except BaseException as error:  # noqa: BLE001 (whatever happens, hand back data)
        return encode(Raised(type(error).__name__, str(error)[:500]))
