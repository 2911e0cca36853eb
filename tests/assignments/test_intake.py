"""Submissions whose JSON would cost the grader's own process seconds and gigabytes are
refused before they are parsed, each with an error naming its limit; the rest of the class
is graded (intake.py)."""

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build

from grader import intake
from grader.batch import grade_file

D = "derive_it_by_hand"


def _notebook_text(extra: str = "", cells: str = "") -> str:
    notebook = json.loads(nbformat.writes(build(D, "x", WRONG[D])))
    text = json.dumps(notebook)
    if cells:
        text = text.replace('"cells": [', '"cells": [' + cells, 1)
    return text.replace('"metadata": {', '"metadata": {' + extra, 1)


FLOODS = {
    "cells": (lambda: _notebook_text(cells='{"cell_type": "raw", "metadata": {}, "source": ""},'
                                     * 300_000), "cells"),
    "deep": (lambda: _notebook_text('"deep": ' + "[" * 90_000 + "]" * 90_000 + ", "), "deep"),
    "values": (lambda: _notebook_text('"n": [' + ",".join(["0"] * 3_000_000) + "], "), "values"),
    "objects": (lambda: _notebook_text('"n": [' + ",".join(["{}"] * 2_000_000) + "], "), "arrays"),
    "lines": (lambda: _notebook_text(cells=json.dumps(nbformat.v4.new_code_cell(
        ["x = 1\n"] * 1_500_000)) + ","), "values"),
}


def _baseline_kilobytes() -> int:
    """The memory of a process that imported the grader and read nothing."""
    code = ("import resource; from grader.intake import read_submission\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    return int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120).stdout.split()[-1])


@pytest.mark.parametrize("kind", FLOODS)
def test_a_flood_is_refused_before_parsing_in_bounded_time_and_memory(tmp_path, kind):
    make, named = FLOODS[kind]
    path = tmp_path / f"{kind}.ipynb"
    path.write_text(make())
    assert path.stat().st_size < intake.MAX_BYTES
    # in a process of its own, to measure its memory
    code = ("import sys, time, resource; from grader.intake import read_submission\n"
            "start = time.process_time()\n"
            "try:\n    read_submission(sys.argv[1]); print('read')\n"
            "except ValueError as error:\n    print(error)\n"
            "print(time.process_time() - start)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, timeout=120)
    said, seconds, kilobytes = done.stdout.strip().splitlines()[-3:]
    assert "it was not graded" in said and path.name in said and named in said, said
    assert float(seconds) < 3.0  # (json.loads alone: 5-30 s and 1-4 GB for some of these)
    assert int(kilobytes) < _baseline_kilobytes() + 150_000  # (the text itself: 20 MB)


def test_a_real_notebook_reads_as_nbformat_reads_it_without_its_outputs(tmp_path):
    notebook = build(D, "x", WRONG[D])
    notebook.cells[0].outputs = [nbformat.v4.new_output("stream", text="big " * 1000)] \
        if notebook.cells[0].cell_type == "code" else []
    path = tmp_path / "x.ipynb"
    nbformat.write(notebook, path)
    read = intake.read_submission(path)
    expected = nbformat.read(path, as_version=4)
    for cell in expected.cells:
        if "outputs" in cell:
            cell.outputs = []
    assert read == expected


def test_the_rest_of_the_class_is_graded(tmp_path):
    from assignment_files import BY_ASSIGNMENT
    (tmp_path / "deep.ipynb").write_text(FLOODS["deep"][0]())
    nbformat.write(build(D, "fine", WRONG[D]), tmp_path / "fine.ipynb")
    source = [str(BY_ASSIGNMENT[D])]
    bad = grade_file(str(tmp_path / "deep.ipynb"), source)
    good = grade_file(str(tmp_path / "fine.ipynb"), source)
    assert "nests its JSON 90,0" in bad.error and "64" in bad.error
    assert good.error == "" and good.questions
