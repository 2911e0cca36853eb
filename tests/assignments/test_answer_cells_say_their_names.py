"""A released answer cell tells the student which names to write.

A data question is graded by reading the names in ``Question.answers`` from the student's
answer cell (``a_grad_shape = (5, 1)``). The student sees the cell as released, with the
solution cut out: its comment line (``# a_grad and b_grad: formulas in a and b, in quotes``)
or the question's text must name each of them. Assignment 2's Q1 said "write them as tuples
of numbers" over an empty cell, so the names were learnt only from check()'s failure
(audit 20).
"""

import re
from pathlib import Path

import nbformat
import pytest

from grader.questions import DATA, find_assignment

ASSIGNMENTS = Path(__file__).resolve().parents[2] / "notebooks" / "assignments"
NOTEBOOKS = sorted(ASSIGNMENTS.glob("0[0-9]_*.ipynb"))
SOLUTION = re.compile(r"### BEGIN SOLUTION.*?### END SOLUTION\n?", re.S)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_each_answer_cell_or_its_question_names_what_to_write(path):
    notebook = nbformat.read(path, as_version=4)
    assignment = find_assignment(notebook.metadata["minigrad_kit"]["assignment"])
    cells = notebook.cells
    answer_cells = {c.metadata["nbgrader"]["grade_id"]: i for i, c in enumerate(cells)
                    if c.metadata.get("nbgrader", {}).get("solution")}
    checked = 0
    for question in assignment.questions:
        if question.kind != DATA:
            continue
        index = answer_cells[f"{question.name}_answer"]
        released = SOLUTION.sub("", cells[index].source)
        asked = cells[index - 1].source if cells[index - 1].cell_type == "markdown" else ""
        for answer in question.answer_specs:
            said = re.search(rf"\b{re.escape(answer.name)}\b", released + "\n" + asked)
            assert said, (path.name, question.name, answer.name, released)
        checked += 1
    assert checked or not any(q.kind == DATA for q in assignment.questions)
