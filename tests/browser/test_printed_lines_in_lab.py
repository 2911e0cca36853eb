"""Printed text in JupyterLab breaks between words, never inside one.

JupyterLab shows what a cell prints in a ``pre`` with ``word-break: break-all``: a line
wider than the output area is cut at its edge, inside a word or a number ("MulBac" over
"kward0"). So what the lessons print keeps every line within the output area of a 1280 px
window with the file browser open (the learner's first view), in English, Chinese and
Korean: lesson 4's step sentences and the PyTorch errors of lessons 6 and 8 are printed with
``textwrap.fill`` (audit 19 saw them cut), lesson 10's verdict hints are wrapped by the check.
Each stored output is read as the browser lays it out: as many lines on screen as in the text.

(Python's warnings go to stderr in one long line, as PyTorch's own do; they are left out.)
"""

from pathlib import Path

import pytest

from conftest import open_notebook, snapshot, wait_for_idle_kernel

pytestmark = pytest.mark.browser

# Per printed block: its lines of text, the lines the browser drew, and how many
# characters fit in a line (the output's width over a monospace character's).
_LAID_OUT = """() => [...document.querySelectorAll(
        '.jp-RenderedText[data-mime-type="application/vnd.jupyter.stdout"] pre,'
        + ' .jp-RenderedText[data-mime-type="text/plain"] pre')].map(pre => {
    const probe = document.createElement('span');
    probe.textContent = 'x'.repeat(100);
    pre.appendChild(probe);
    const character = probe.getBoundingClientRect().width / 100;
    probe.remove();
    const range = document.createRange();
    range.selectNodeContents(pre);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    const text = pre.textContent.replace(/\\n$/, '');
    return {text: text.slice(0, 200), lines: text.split('\\n').length, drawn: tops.size,
            fit: Math.floor(pre.clientWidth / character)};
})"""

LESSONS = ["04_inside_backward.ipynb", "05_build_the_engine_yourself.ipynb",
           "06_controlling_the_tape.ipynb", "08_pitfalls.ipynb", "10_backprop_by_hand.ipynb"]


def _open(page, lab, lesson):
    """Open ``lesson``; a translated one is waited for by its kernel's state on the server
    (open_notebook reads the status bar's English words)."""
    if "/" not in lesson:
        open_notebook(page, lab, lesson)
        return
    url, token, _ = lab
    page.goto(f"{url}/lab/workspaces/{lesson.replace('/', '-')[:8]}/tree/{lesson}"
              f"?reset&token={token}")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    wait_for_idle_kernel(lab, lesson)


@pytest.mark.parametrize("lesson", LESSONS + [f"{lang}/{name}" for lang in ("zh", "ko")
                                              for name in LESSONS])
def test_no_printed_line_is_cut_at_the_outputs_edge(page, lab, lesson):
    _open(page, lab, lesson)
    page.locator(".jp-OutputArea-output pre").first.wait_for(timeout=30_000)
    assert page.locator(".jp-DirListing").first.is_visible()  # the file browser takes its room
    blocks = page.evaluate(_LAID_OUT)
    assert blocks and all(b["fit"] >= 80 for b in blocks), blocks  # PyTorch's own 80 fit
    cut = [b for b in blocks if b["drawn"] > b["lines"]]
    if cut:
        snapshot(page, f"cut-lines-{lesson.replace('/', '-')[:5]}")
    assert not cut, cut



# Where the browser broke each line of a printed block that is wider than the output: per
# break, the characters before and after it (a line of the text starts at a "\n", not here).
_BREAKS = """pre => {
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    const chars = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode())
        for (let i = 0; i < node.length; i++) chars.push([node, i]);
    const range = document.createRange();
    const breaks = [];
    let top = null, previous = '';
    for (const [node, i] of chars) {
        const c = node.data[i];
        if (c === '\\n') { top = null; previous = c; continue; }
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) { previous = c; continue; }
        const y = Math.round(rect.top);
        if (top !== null && y > top + 2)
            breaks.push(previous + '|' + c + ' … ' + node.data.slice(Math.max(0, i - 20), i + 20));
        top = y; previous = c;
    }
    return breaks;
}"""

# (PyTorch's own words, from lesson 6: an error line of 300 characters)
_TRACEBACK_LINE = (
    "RuntimeError: one of the variables needed for gradient computation has been modified "
    "by an inplace operation: [torch.FloatTensor [2, 2]], which is output 0 of MulBackward0, "
    "is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the "
    "operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).")


def test_a_long_traceback_line_breaks_at_spaces_not_inside_a_word(page, lab):
    """JupyterLab's ``word-break: break-all`` cut a traceback's line inside a word
    ("MulBac" over "kward0", audit 21). In the JupyterLab `minigrad-kit lab` starts (and
    so `make lab`), the kit's style sheet (grader.lab_style) breaks it between words: an
    error, and a warning printed to stderr, each wider than the output, are drawn on several
    lines, every one of them broken at a space."""
    import json
    import shutil

    url, token, root = lab
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                       "language": "python"}}, "cells": [
        {"cell_type": "code", "id": "warning", "metadata": {}, "execution_count": 1,
         "source": "import warnings",
         "outputs": [{"output_type": "stream", "name": "stderr",
                      "text": "/tmp/ipykernel_1/1.py:1: UserWarning: " + _TRACEBACK_LINE[14:]
                      + "\n"}]},
        {"cell_type": "code", "id": "error", "metadata": {}, "execution_count": 2,
         "source": "y.backward()",
         "outputs": [{"output_type": "error", "ename": "RuntimeError",
                      "evalue": _TRACEBACK_LINE[14:],
                      "traceback": ["\x1b[0;31mRuntimeError\x1b[0m: " + _TRACEBACK_LINE[14:]]}]},
    ]}
    (root / "long_lines.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    open_notebook(page, lab, "long_lines.ipynb")
    blocks = page.locator('.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"] pre')
    blocks.nth(1).wait_for(timeout=30_000)
    shot = snapshot(page, "long-traceback-lines", page.locator(".jp-Notebook"))
    if Path("/tmp/audit22").is_dir():  # (the audit's copy, to look at)
        shutil.copy(shot, "/tmp/audit22/long-traceback-lines.png")
    assert blocks.count() == 2
    for i in range(2):
        breaks = blocks.nth(i).evaluate(_BREAKS)
        assert len(breaks) >= 2, breaks  # wider than the output: drawn on several lines
        inside = [b for b in breaks if not b.startswith(" |")]
        assert not inside, inside
