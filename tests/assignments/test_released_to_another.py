"""A notebook released to one student and handed in by another (issue 32, per-student
variants): graded on the owner's own numbers, flagged and held for review."""

import nbformat
from assignment_files import BY_ASSIGNMENT
from keys import build, right

from grader.batch import grade_file

D = "derive_it_by_hand"


def _grade(tmp_path, owner: str, notebook):
    folder = tmp_path / "submitted" / owner / D
    folder.mkdir(parents=True)
    path = folder / BY_ASSIGNMENT[D].name
    nbformat.write(notebook, path)
    return grade_file(str(path), [str(BY_ASSIGNMENT[D])], owner=owner)


def _points(result):
    return sum(q.points or 0 for q in result.questions if not q.manual and not q.held)


def test_bobs_notebook_handed_in_by_alice_is_graded_on_alices_numbers_and_held(tmp_path):
    # bob's released notebook, with alice's right answers typed in: everything right for
    # alice, yet the notebook shows bob's numbers
    handed_on = build(D, "bob", right(D, "alice"))
    result = _grade(tmp_path, "alice", handed_on)
    assert result.student == "alice"
    scored = [q for q in result.questions if not q.manual]
    assert all(q.points == q.max_points for q in scored)  # alice's numbers: right
    assert all(q.held for q in scored) and _points(result) == 0
    assert any("'bob'" in f and "'alice'" in f and "held for review" in f for f in result.flags)


def test_bobs_answers_in_bobs_notebook_earn_alice_nothing(tmp_path):
    copied = build(D, "bob", right(D, "bob"))
    result = _grade(tmp_path, "alice", copied)
    assert _points(result) == 0 and any("'bob'" in f for f in result.flags)
    # held, as the flag says ("... and is held for review"), though it scored nothing on
    # alice's numbers: the teacher looks at it before a 0 goes into the gradebook (a class
    # released without --students and graded per student scored 0 everywhere, unheld)
    assert all(q.held for q in result.questions if not q.manual)


def test_the_numbers_cell_with_another_variant_is_held_without_the_metadata(tmp_path):
    handed_on = build(D, "bob", right(D, "alice"))
    handed_on.metadata["minigrad_kit"].pop("student", None)  # the name removed by hand
    result = _grade(tmp_path, "alice", handed_on)
    assert _points(result) == 0
    assert any("another student" in f for f in result.flags)


def test_ones_own_notebook_is_not_held(tmp_path):
    result = _grade(tmp_path, "alice", build(D, "alice", right(D, "alice")))
    assert _points(result) == sum(q.max_points for q in result.questions if not q.manual)
    assert not result.flags
