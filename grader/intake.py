"""Reading a submission file with bounded time and memory, before nbformat parses it.

A notebook is JSON, and a JSON parser's cost is set by the text: a million empty cells,
arrays nested a million deep, or ten million numbers in 20 MB would cost seconds and
gigabytes in the grader's own process, before any limit on the student's code applies.
So ``read_submission`` checks the bytes first, and refuses with an error that names the
limit:

1. at most ``MAX_BYTES`` bytes are read (whatever the file system says its size is);
2. the text with its strings blanked (a regular expression, in C) gives the JSON's
   containers (``{`` and ``[``: at most ``MAX_CONTAINERS``) and values (commas: at most
   ``MAX_VALUES``) by counting bytes, then its depth (at most ``MAX_DEPTH``) from the
   brackets alone, with NumPy;
   text inside strings (sources, outputs, images) costs one byte each and nothing more;
3. only then is it parsed (``json.loads``: its size is now bounded by the counts; every
   string made valid Unicode, a number too long for Python or NaN read as absent), and
   the cells are counted (at most ``MAX_CELLS``);
4. the notebook is built from that JSON here, in nbformat 4.5's shape, without nbformat's
   version checks and validation (which refused ``"nbformat": 5``, or a notebook without
   ``nbformat``: not graded at all); what the grader never reads is dropped: outputs and
   attachments (grading runs the answers itself; stored outputs count for nothing);
5. what it reads is given the type it reads (``_as_read``), at this boundary: a cell's
   ``source`` is text (a list of lines joined; anything else is an empty cell), its
   ``cell_type`` and nbgrader ``grade_id`` are text or absent, metadata are objects, the
   notebook's ``minigrad_kit`` entries and ``lang`` are text. A field of another type
   is what no notebook editor writes, so it is read as absent: the submission is graded
   as what it holds, never made ungradable by the shape of its JSON (a cell whose source
   was an object stopped the grading of the whole submission, leaving its points empty
   where a zero was due).

The kit's notebooks have about 40 cells, depth 7, 500 containers and 20 kB: every limit
is a hundred times what a real notebook needs, and a thousand times below what hurts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import numpy as np

from .i18n import _

__all__ = ["read_submission", "valid_text", "printable", "one_line", "UNPRINTABLE", "TooLarge", "MAX_BYTES", "MAX_CELLS", "MAX_DEPTH",
           "MAX_CONTAINERS", "MAX_VALUES", "MAX_NAME"]

MAX_BYTES = 20 * 1024 * 1024  # of a submission file (the kit's are about 20 kB)
MAX_CELLS = 2_000
MAX_DEPTH = 64  # a notebook's JSON nests about 7 deep; metadata a little more
MAX_CONTAINERS = 100_000  # objects and arrays, all told (a source line list is one)
MAX_VALUES = 1_000_000  # commas: the elements of every object and array
MAX_NAME = 200  # characters of a name in the notebook's metadata (the kit's: about 30)
# a JSON string: a quote, then anything but a quote or a backslash, or a backslash and any
# character, then a quote (unrolled, so that it runs in one linear pass)
STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
BRACKETS = re.compile(rb"[^\[\]{}]+")
SURROGATE = re.compile("[\ud800-\udfff]")  # a str's code points that UTF-8 cannot hold


class TooLarge(ValueError):
    """A submission beyond one of the limits (the message names it)."""


def read_submission(path) -> "nbformat.NotebookNode":
    """The notebook at ``path``, read within the limits (see the module docstring)."""
    path = Path(path)
    with open(path, "rb") as file:
        text = file.read(MAX_BYTES + 1)
    if len(text) > MAX_BYTES:
        raise TooLarge(_("{file} is larger than the {limit} bytes a submission may have "
                         "(its outputs? clear them); it was not graded").format(
            file=str(path), limit=f"{MAX_BYTES:,}"))
    _check_structure(text, str(path))
    data = _parsed(text)
    if not isinstance(data, dict):
        raise ValueError(_("{file} is not a readable notebook; re-download it or ask for the "
                           ".ipynb file again").format(file=str(path)))
    cells = data.get("cells")
    if not isinstance(cells, list):  # an older format's cells are in its worksheets
        cells = _worksheet_cells(data)
    if len(cells) > MAX_CELLS:
        raise TooLarge(_("{file} has {count} cells, more than the {limit} a submission may "
                         "have; it was not graded").format(
            file=str(path), count=f"{len(cells):,}", limit=f"{MAX_CELLS:,}"))
    # (built here, not by nbformat's reader: its version checks and validation refused
    # notebooks that hold everything the grader reads, "nbformat": 5 or a 5,000-digit
    # number in the metadata, and a refused notebook was not graded at all)
    minor = data.get("nbformat_minor")
    return nbformat.from_dict({"nbformat": 4, "nbformat_minor":
                               minor if type(minor) is int and 0 <= minor <= 5 else 5,
                               "metadata": _notebook_metadata(data.get("metadata")),
                               "cells": [_as_read(cell, index)
                                         for index, cell in enumerate(cells)]})


def _parsed(text: bytes):
    """The JSON of ``text`` (None if it is none) as the grader reads it: every string valid
    Unicode (a lone surrogate, ``"\\ud800"``, is U+FFFD: written into a report, it stopped
    the whole class's report from being written), a number too long for Python's int
    (4,300 digits) or NaN and Infinity read as absent (``None``): they stopped the reading."""
    try:
        data = json.loads(text, parse_int=_whole, parse_constant=lambda _name: None)
    except (ValueError, RecursionError):
        return None
    return valid_text(data)


def _whole(digits: str):
    return int(digits) if len(digits) <= 1000 else None


def valid_text(value):
    """``value`` (JSON: dicts, lists, strings, numbers) with every string valid Unicode:
    what cannot be written as UTF-8 (lone surrogates, from JSON's escapes or from a file
    name's undecodable bytes) replaced by U+FFFD."""
    if isinstance(value, str):
        return SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [valid_text(item) for item in value]
    if isinstance(value, dict):
        return {valid_text(key): valid_text(item) for key, item in value.items()}
    return value


# What a terminal or a page would act on rather than show: control characters (terminal
# escapes: ESC starts them) and bidirectional overrides, which show a line reordered.
UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# Combining marks stacked on one character past what any writing needs (4): a browser draws
# a stack of hundreds ("Zalgo" text) as a tower over the lines above and below it, which
# can cover the points of a page (a student's message is quoted in the class's item
# analysis page). The first four are kept.
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
STACKED = re.compile(f"([{_MARKS}]{{4}})[{_MARKS}]+")


def printable(value):
    """``value`` (JSON: dicts, lists, strings, numbers) with every string as it can be shown:
    line breaks as ``\\n``, and what ``UNPRINTABLE`` matches as U+FFFD. (A result's texts
    quote the submission, a file's name too, and the grader prints them: the escape of a
    notebook named ``"\\x1b]52;c;...\\x07.ipynb"`` in one's own folder reached the
    teacher's terminal through "could not grade ...", where it writes the clipboard if the
    terminal allows it (OSC 52).) Combining marks stacked past four on one character are
    left out (``STACKED``)."""
    if isinstance(value, str):
        text = UNPRINTABLE.sub("\ufffd", value.replace("\r\n", "\n").replace("\r", "\n"))
        return STACKED.sub(r"\1", text)
    if isinstance(value, list):
        return [printable(item) for item in value]
    if isinstance(value, dict):
        return {printable(key): printable(item) for key, item in value.items()}
    return value


def one_line(text) -> str:
    """``text`` as one line of a terminal, shown as written: ``printable``, and each line
    break as the two characters ``\\n``. What the commands print quotes a submission (a
    file's name, an error that names the file): a notebook named ``"x\\n      bob
    derive_it_by_hand  9 / 9\\n.ipynb"`` in one's own folder printed, through "could not
    grade ...", lines of its own that read as the grades of classmates (measured). Each
    line a command prints is the grader's, with the submission's text inside it."""
    return printable(str(text)).replace("\n", "\\n")


def _worksheet_cells(data: dict) -> list:
    """The cells of an nbformat 3 notebook (``worksheets``), in the v4 shape the grader reads
    (a code cell's source was its ``input``; a heading is markdown); [] if there are none."""
    sheets = data.get("worksheets")
    cells = []
    for sheet in sheets if isinstance(sheets, list) else []:
        found = sheet.get("cells") if isinstance(sheet, dict) else None
        for cell in found if isinstance(found, list) else []:
            if not isinstance(cell, dict):
                continue
            if cell.get("cell_type") == "code" and "input" in cell:
                cell = {**cell, "source": cell["input"]}
            elif cell.get("cell_type") == "heading":
                cell = {**cell, "cell_type": "markdown"}
            cells.append(cell)
    return cells


def _check_structure(text: bytes, name: str) -> None:
    """Containers, values and depth of the JSON ``text``, counted with its strings blanked
    (byte counts in C; NumPy only over the brackets, once they are known to be few)."""
    bare = STRING.sub(b'""', text)
    containers = bare.count(b"{") + bare.count(b"[")
    values = bare.count(b",")
    if containers > MAX_CONTAINERS or values > MAX_VALUES:
        raise TooLarge(_("{file} holds {containers} JSON objects and arrays and {values} "
                         "values, more than a notebook may have ({most_containers} and "
                         "{most_values}); it was not graded").format(
            file=name, containers=f"{containers:,}", values=f"{values:,}",
            most_containers=f"{MAX_CONTAINERS:,}", most_values=f"{MAX_VALUES:,}"))
    brackets = np.frombuffer(BRACKETS.sub(b"", bare), dtype=np.uint8)
    steps = np.where((brackets == ord("{")) | (brackets == ord("[")), 1, -1).astype(np.int32)
    depth = int(np.cumsum(steps).max(initial=0))
    if depth > MAX_DEPTH:
        raise TooLarge(_("{file} nests its JSON {depth} levels deep, more than the {limit} a "
                         "notebook may have; it was not graded").format(
            file=name, depth=f"{depth:,}", limit=MAX_DEPTH))


def _text(value) -> str | None:
    """Text as a notebook holds it (a string, or a list of lines), else None."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return None


def _as_read(cell, index: int = 0) -> dict:
    """A cell with the fields the grader reads in the types it reads them (see the module
    docstring), its other fields as they are; outputs and attachments dropped, and the
    fields of nbformat 4.5 that it lacks made up (an id, a code cell's outputs)."""
    cell = dict(cell) if isinstance(cell, dict) else {}
    metadata = dict(cell["metadata"]) if isinstance(cell.get("metadata"), dict) else {}
    nbgrader = metadata.pop("nbgrader", None)
    if isinstance(nbgrader, dict):
        if not isinstance(nbgrader.get("grade_id", ""), str):
            nbgrader = {k: v for k, v in nbgrader.items() if k != "grade_id"}
        metadata["nbgrader"] = nbgrader
    cell.pop("attachments", None)
    if cell.get("cell_type") not in ("code", "markdown", "raw"):
        cell["cell_type"] = "raw"
    if cell["cell_type"] == "code":
        count = cell.get("execution_count")
        cell.update(outputs=[], execution_count=count if type(count) is int else None)
    elif "outputs" in cell:
        cell["outputs"] = []
    if not isinstance(cell.get("id"), str):
        cell["id"] = f"cell-{index}"
    cell.update(metadata=metadata, source=_text(cell.get("source", "")) or "")
    return cell


def _notebook_metadata(metadata) -> dict:
    """The notebook's metadata: an object, its ``lang`` text, its ``minigrad_kit`` an object
    of text (the assignment, the student), each a name of at most ``MAX_NAME`` characters
    (a longer one is cut there, and marked: ``_name``)."""
    metadata = dict(metadata) if isinstance(metadata, dict) else {}
    lang = metadata.get("lang", "")
    if not isinstance(lang, str) or len(lang) > MAX_NAME:
        metadata.pop("lang")
    kit = metadata.get("minigrad_kit")
    if kit is not None:
        kit = {k: _name(v) for k, v in kit.items() if isinstance(v, str)} \
            if isinstance(kit, dict) else {}
        metadata["minigrad_kit"] = kit
    return metadata


def _name(text: str) -> str:
    """A name from the notebook's metadata (an assignment, a student), cut to ``MAX_NAME``
    characters. The grader quotes them: the student named is said in a flag that is held
    with every question that scored, and the assignment named in the error of a notebook
    of another course. Quoted whole, a name of 5 MB (in a 5 MB notebook) was written about
    nine times per question held, into the result, the feedback and flags.csv, and to the
    terminal: 90 MB of ``--out`` from one notebook of assignment 5, 170 MB from three."""
    return text if len(text) <= MAX_NAME else text[:MAX_NAME] + "…"
