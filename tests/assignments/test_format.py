"""nbgrader's format (no kernels): markers, stubs, checksums, problems; the JSON data; files."""

import copy
import doctest
import importlib
import json
import math
import os

import minigrad
import nbformat
import numpy as np
import pytest
from assignment_files import SOURCES

from grader import notebook as nbg
from grader.data import MAX_VALUES, Missing, Other, Raised, decode, encode, roundtrip
from grader.report import write_atomic


def _cell(source, cell_type="code", **meta):
    defaults = {"grade": False, "solution": False, "locked": False, "schema_version": 3,
                "grade_id": "c"}
    cell = (nbformat.v4.new_code_cell if cell_type == "code" else nbformat.v4.new_markdown_cell)(
        source)
    cell.metadata["nbgrader"] = {**defaults, **meta}
    return cell


def test_solution_regions_become_an_indented_stub():
    cell = _cell("def f(x):\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n"
                 "print(f(1))", solution=True)
    assert nbg.clear_solutions(cell) == ("def f(x):\n    # YOUR CODE HERE\n"
                                         "    raise NotImplementedError()\nprint(f(1))")
    assert nbg.clear_solutions(_cell("x = 1", solution=True)) == nbg.CODE_STUB
    assert nbg.clear_solutions(_cell("Because.", "markdown", solution=True, grade=True,
                                     points=1)) == "YOUR ANSWER HERE"


def test_hidden_tests_are_removed():
    source = 'check("q1")\n### BEGIN HIDDEN TESTS\nassert x == 1\n### END HIDDEN TESTS\nprint(1)'
    assert nbg.clear_hidden_tests(source) == 'check("q1")\nprint(1)'


def test_roles():
    assert [nbg.role(c) for c in (
        _cell("", solution=True), _cell("", grade=True, points=1),
        _cell("", "markdown", grade=True, solution=True, points=1), _cell("", locked=True),
        nbformat.v4.new_code_cell(""))] == ["answer", "test", "manual", "locked", "free"]


def test_problems_name_the_cell_and_the_fix():
    notebook = nbformat.v4.new_notebook(cells=[
        _cell("### BEGIN SOLUTION\nx = 1", solution=True, grade_id="a"),
        _cell("x", grade=True, grade_id="a"),
        _cell("### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS", locked=True, grade_id="b"),
        nbformat.v4.new_code_cell("### BEGIN SOLUTION\n### END SOLUTION"),
        _cell("", solution=True, grade_id=""),
    ])
    assert nbg.problems(notebook, "nb.ipynb") == [
        "nb.ipynb: cell 1 ('a'): '### BEGIN SOLUTION' without '### END SOLUTION'; close each "
        "region on its own line",
        "nb.ipynb: cell 2 ('a'): grade_id 'a' is also used by cell 1; grade_ids must be unique",
        "nb.ipynb: cell 2 ('a'): a graded cell needs points (a number), e.g. 'points': 2",
        "nb.ipynb: cell 3 ('b'): has '### BEGIN HIDDEN TESTS' but is not a test cell; mark it "
        "as one in nbgrader's toolbar, or remove the markers",
        "nb.ipynb: cell 4: has nbgrader markers but no nbgrader metadata; mark it as an answer "
        "or test cell in nbgrader's toolbar",
        "nb.ipynb: cell 5: nbgrader cell without a grade_id; give it a unique grade_id (e.g. "
        "'q1')"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_the_kit_notebooks_are_valid(path):
    notebook = nbformat.read(path, as_version=4)
    assert nbg.problems(notebook, str(path)) == []
    assert nbg.assignment_name(notebook)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_student_version_matches_nbgraders_preprocessors(path):
    pre = pytest.importorskip("nbgrader.preprocessors")
    notebook = nbformat.read(path, as_version=4)
    theirs, resources = copy.deepcopy(notebook), {}
    for step in (pre.LockCells(), pre.ClearSolutions(), pre.ClearOutput(),
                 pre.ClearHiddenTests(), pre.ComputeChecksums()):
        theirs, resources = step.preprocess(theirs, resources)
    ours = nbg.student_version(notebook)
    assert [(c.source, c.metadata) for c in ours.cells] == [
        (c.source, c.metadata) for c in theirs.cells]


def test_data_round_trip():
    t = minigrad.tensor([[1.0, float("nan")], [float("inf"), 2.0]], requires_grad=True)
    (t * 2).sum().backward()
    back = roundtrip({"t": t, "n": [1, 2.5, "s", None, True], "shape": t.shape,
                      "missing": Missing("df"), "error": Raised("TypeError", "no", "line 1"),
                      "thing": object(), "array": np.arange(3)})
    assert back["t"].shape == (2, 2) and back["t"].requires_grad and back["t"].is_leaf
    assert math.isnan(back["t"].values[0, 1]) and back["t"].values[1, 0] == math.inf
    assert back["t"].grad.values.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert back["n"] == [1, 2.5, "s", None, True] and back["shape"] == [2, 2]
    assert back["missing"] == Missing("df") and back["error"] == Raised("TypeError", "no",
                                                                         "line 1")
    assert isinstance(back["thing"], Other) and back["thing"].kind == "object"
    assert back["array"].tolist() == [0.0, 1.0, 2.0]
    json.dumps(encode(minigrad.zeros(MAX_VALUES + 1)))  # too many values: cut, still JSON
    # ... and read as what it is, a tensor with too many values to check (red team 4: read as
    # a tensor whose values were an empty array, it was "right" against anything)
    assert decode(encode(minigrad.zeros(MAX_VALUES + 1))).kind == "too many values"


def test_write_atomic_replaces_or_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "gradebook.csv"
    write_atomic(target, "old\n")
    monkeypatch.setattr(os, "replace", lambda *args: (_ for _ in ()).throw(OSError("disk")))
    with pytest.raises(OSError):
        write_atomic(target, "new\n")
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == [
        "gradebook.csv"]


@pytest.mark.parametrize("name", ["grader.data", "grader.scan", "grader.answered"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
