"""Notebooks in other languages: the prose and the code comments are messages, the code is not.

``messages(nb)`` lists what a translator translates in a notebook (as JSON-like
dicts, the way ``nbformat`` reads them):

* each block of a markdown cell (blocks are separated by blank lines; a fenced
  code block is one block, and only its comments are messages; a block with
  no letters, or only display math ``$$ ... $$``, is left as it is);
* the comments of code cells (and of fenced Python blocks in markdown): a run
  of whole-line comments at one indentation is one message, an end-of-line
  comment another.

``translate(nb, gettext)`` returns a copy with every message replaced by
``gettext(message)`` and every code token unchanged, so the code cells of two
languages differ only in their comments (``code_without_comments`` is what
the drift test compares).
"""

from __future__ import annotations

import copy
import io
import re
import tokenize

__all__ = ["messages", "translate", "markdown_blocks", "comments", "code_without_comments"]

FENCE = re.compile(r"^(\s*)(```|~~~)")
# Comments that are markers for tools, never messages (nbgrader's solution and test regions)
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS",
           "YOUR CODE HERE")
LETTER = re.compile(r"[^\W\d_]")


def markdown_blocks(text: str) -> list[tuple[str, str]]:
    """``[(kind, text), ...]`` with kind ``"prose"``, ``"code"`` (a fenced block, fences
    included), ``"keep"`` (no words) or ``"gap"`` (the blank lines between blocks)."""
    blocks: list[tuple[str, str]] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            j = i
            while j < len(lines) and not lines[j].strip():
                j += 1
            blocks.append(("gap", "\n".join(lines[i:j])))
            i = j
            continue
        fence = FENCE.match(line)
        if fence:
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence.group(2)):
                j += 1
            blocks.append(("code", "\n".join(lines[i:j + 1])))
            i = j + 1
            continue
        j = i
        while j < len(lines) and lines[j].strip() and not FENCE.match(lines[j]):
            j += 1
        block = "\n".join(lines[i:j])
        math_only = block.strip().startswith("$$") and block.strip().endswith("$$")
        blocks.append(("prose" if LETTER.search(block) and not math_only else "keep", block))
        i = j
    return blocks


def comments(source: str, every: bool = False) -> list[dict]:
    """The comments of Python ``source``: ``{"text", "first", "last", "column", "inline"}``
    per message (lines counted from 0; ``text`` without the ``#``, lines joined by newlines).
    Source that does not tokenize (IPython magics, say) has none. Comments with no
    letters (``# ---``) are not messages, unless ``every``."""
    found = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    lines = source.split("\n")
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        row, column = token.start[0] - 1, token.start[1]
        text = token.string[1:].strip()
        if not every and (not LETTER.search(text) or any(m in text for m in MARKERS)):
            continue
        inline = bool(lines[row][:column].strip())
        last = found[-1] if found else None
        if (not inline and last and not last["inline"] and last["last"] == row - 1
                and last["column"] == column):
            last["text"] += "\n" + text
            last["last"] = row
        else:
            found.append({"text": text, "first": row, "last": row, "column": column,
                          "inline": inline})
    return found


def _translate_code(source: str, gettext) -> str:
    lines = source.split("\n")
    found = comments(source)
    translations = [gettext(comment["text"]).split("\n") for comment in found]
    # From the last comment up, so the line numbers of the earlier ones stay right
    for comment, translated in reversed(list(zip(found, translations))):
        first, last, column = comment["first"], comment["last"], comment["column"]
        if comment["inline"]:
            lines[first] = lines[first][:column] + "# " + " ".join(translated)
        else:
            indent = lines[first][:column]
            lines[first:last + 1] = [f"{indent}# {text}".rstrip() for text in translated]
    return "\n".join(lines)


def _translate_markdown(text: str, gettext) -> str:
    out = []
    for kind, block in markdown_blocks(text):
        if kind == "prose":
            out.append(gettext(block))
        elif kind == "code" and _is_python(block):
            first, _, rest = block.partition("\n")
            body, _, closing = rest.rpartition("\n")
            out.append(first + "\n" + _translate_code(body, gettext) + "\n" + closing)
        else:
            out.append(block)
    return "\n".join(out)


def _is_python(block: str) -> bool:
    return block.split("\n", 1)[0].strip().lstrip("`~").strip() in ("python", "py", "")


def messages(nb: dict) -> list[tuple[str, str]]:
    """``[(message, cell number), ...]`` in the order they appear (cells counted from 1)."""
    found = []

    def take(text, where):
        found.append((text, where))
        return text

    for n, cell in enumerate(nb["cells"]):
        where = n + 1
        if cell["cell_type"] == "markdown":
            _translate_markdown(_source(cell), lambda text: take(text, where))
        elif cell["cell_type"] == "code":
            _translate_code(_source(cell), lambda text: take(text, where))
    return found


def translate(nb: dict, gettext) -> dict:
    """A copy of ``nb`` with its prose and comments put through ``gettext``."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = _translate_markdown(_source(cell), gettext)
        elif cell["cell_type"] == "code":
            cell["source"] = _translate_code(_source(cell), gettext)
    return nb


def code_without_comments(source: str) -> str:
    """The code with its comments (and the blank space they leave) removed."""
    spans = {(c["first"], c["last"], c["column"], c["inline"])
             for c in comments(source, every=True)}
    lines = source.split("\n")
    for first, last, column, inline in sorted(spans, reverse=True):
        if inline:
            lines[first] = lines[first][:column].rstrip()
        else:
            del lines[first:last + 1]
    return "\n".join(line.rstrip() for line in lines).strip("\n")


def _source(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source
