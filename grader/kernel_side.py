"""The grader's one step inside the student's kernel: hand back data, decide nothing.

``minigrad-kit grade`` replaces each test cell with a call to ``emit``: it
runs the question's extract step on the student's names at the inputs the
grader chose, and displays the result as JSON under its own MIME type. The
grader reads that output and judges it in its own process, so nothing a
notebook does to numpy, minigrad, builtins or this module can change a
verdict; at most it can hand back wrong data.
"""

from __future__ import annotations

import contextlib
import json

from .data import Raised, encode
from .questions import Question, questions_from_text

__all__ = ["emit", "collect", "MIME"]

MIME = "application/vnd.minigrad-kit.data+json"


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


def emit(module_text: str, filename: str, question: str, inputs_json: str,
         namespace: dict) -> None:
    """Display the data for ``question`` of the question module ``module_text`` at the public
    and hidden inputs (grader only). The grader sends the module's text, so the kernel needs
    no access to the course folder."""
    from IPython.display import display

    found = questions_from_text(module_text, filename).question(question)
    inputs = json.loads(inputs_json)
    data = {part: collect(found, namespace, inputs[part])
            for part in ("public", "hidden") if part in inputs}
    display({MIME: data}, raw=True)
