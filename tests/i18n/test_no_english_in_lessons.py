"""No English sentence reaches a Chinese or Korean learner in a lesson's outputs.

Every stored output of the zh and ko lessons is read: what cells print, what
they display (HTML, an image's text alternative, a drawing's description) and
the saved state of their widgets (the stepper's sentences, buttons, legend and
labels). A sentence of English prose there fails the test.

PyTorch's own messages stay English on purpose: learners search for them, and
the lessons print them as PyTorch does. They are listed below, by their first
words; a new English sentence must be translated, or added here only if it is
PyTorch's.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest

from test_catalogs_complete import english_left

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(p for lang in ("zh", "ko")
                 for p in (ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))
# PyTorch's messages (errors and warnings) as the lessons print them
PYTORCH = ("element 0 of tensors does not require grad", "grad can be implicitly created only",
           "Trying to backward through the graph a second time",
           "one of the variables needed for gradient computation has been modified",
           "a leaf Variable that requires grad is being used in an in-place operation",
           "Mismatch in shape: grad_output[0]", "The .grad attribute of a Tensor that is not a leaf",
           "Jacobian mismatch for output", "Input #0 requires gradient")
ATTRIBUTES = re.compile(r'\b(?:aria-label|alt|title|placeholder)="([^"]*)"')


def texts_of_output(output) -> list[str]:
    if output.get("output_type") == "stream":
        return ["".join(output.get("text", ""))]
    found = []
    for mime, value in output.get("data", {}).items():
        value = "".join(value) if isinstance(value, list) else value
        if mime in ("text/plain", "text/markdown"):
            found.append(value)
        elif mime in ("text/html", "image/svg+xml"):
            found.append(re.sub(r"<[^>]+>", " ", value))
            found += ATTRIBUTES.findall(value)
    return found


def widget_texts(notebook) -> list[str]:
    state = notebook.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    found = []
    for model in state.values():
        for key in ("value", "description", "tooltip", "placeholder"):
            value = model.get("state", {}).get(key)
            if isinstance(value, str) and value:
                found.append(re.sub(r"<(style|svg)\b.*?</\1>", " ", value, flags=re.S))
                found += ATTRIBUTES.findall(value)
    return found


def without_pytorch(text: str) -> str:
    """The text with PyTorch's messages cut: from their first words (which a lesson's
    ``textwrap.fill`` may have broken across lines) to the end of their paragraph (the next
    empty line, or the end: a message printed in lines of 80 characters goes on below)."""
    text = html.unescape(text)
    for start in PYTORCH:
        words = re.compile(r"\s+".join(map(re.escape, start.split())))
        while (found := words.search(text)) is not None:
            end = text.find("\n\n", found.end())
            text = text[:found.start()] + ("" if end < 0 else text[end:])
    return text


@pytest.mark.parametrize("path", LESSONS, ids=[f"{p.parent.name}/{p.stem}" for p in LESSONS])
def test_no_english_sentence_in_a_translated_lessons_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    said = [text for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.get("outputs", []) for text in texts_of_output(output)]
    said += widget_texts(notebook)
    assert said, f"{path.name} stores no outputs: run make notebooks"
    leaks = {text[:300]: english_left(without_pytorch(text)) for text in said}
    assert {text: words for text, words in leaks.items() if words} == {}


def test_the_test_finds_english():
    assert english_left("the loss falls from 0.72 at step 0")
    assert not english_left(without_pytorch(
        "Trying to backward through the graph a second time (or directly access saved tensors "
        "after they have already been freed)."))
    wrapped = ("through .detach(): one of the variables needed for gradient computation has "
               "been\nmodified by an inplace operation: [torch.FloatTensor [3]], which is output"
               " 0 of\nSigmoid, is at version 1.\n\nthe loss falls from 0.72 at step 0")
    assert without_pytorch(wrapped) == "through .detach(): \n\nthe loss falls from 0.72 at step 0"
    assert texts_of_output({"output_type": "display_data", "data": {
        "text/html": '<img src="x" alt="Loss curve on a log scale">'}})[-1] == \
        "Loss curve on a log scale"
