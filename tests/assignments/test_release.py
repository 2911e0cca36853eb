"""`minigrad-kit release`: the student versions, and the checks that run before writing them."""

import copy
import re
from pathlib import Path

import dying_release
import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT, SOURCES, with_module
from keys import right
from shared_fixture import shared

from grader import notebook as nbg
from grader import release, sandbox
from grader.cli import main
from grader.grade import Options
from grader.questions import find_assignment
from grader.release import verify

FAST = Options(timeout=20)


def _release_all(folder):
    """All five instructor notebooks released, with the four check runs each."""
    return {"status": main(["release", *map(str, SOURCES), "--out", str(folder)]),
            "out": str(folder)}


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    done = shared(tmp_path_factory, "released_kit", _release_all)
    notebooks = {p.name: nbformat.read(p, as_version=4) for p in Path(done["out"]).glob("*.ipynb")}
    return done["status"], notebooks


def test_every_notebook_is_released_after_its_checks(released):
    status, notebooks = released
    assert status == 0
    assert sorted(notebooks) == [p.name for p in SOURCES]


def test_student_versions_hide_solutions_and_hidden_tests(released):
    for name, notebook in released[1].items():
        for cell in notebook.cells:
            for marker in ("BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS"):
                assert marker not in cell.source, (name, cell.source)
            if nbg.role(cell) == "test":  # (assignment 5's locked cell draws its public batch)
                assert "default_rng" not in cell.source, (name, cell.source)
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None
        answers = [c for c in notebook.cells if nbg.role(c) == "answer"]
        assert answers and all("raise NotImplementedError()" in c.source for c in answers)


def test_test_and_locked_cells_are_read_only_with_checksums(released):
    for notebook in released[1].values():
        for cell in notebook.cells:
            kind = nbg.role(cell)
            if kind == "free":
                continue
            assert cell.metadata["deletable"] is False
            assert cell.metadata.get("editable", True) is (kind not in ("test", "locked"))
            assert cell.metadata["nbgrader"]["checksum"] == nbg.checksum(cell)
            assert cell.metadata["nbgrader"]["schema_version"] == 3


def test_answers_keep_the_code_around_the_solution(released):
    cells = {nbg.grade_id(c): c for c in released[1]["01_derive_it_by_hand.ipynb"].cells}
    assert cells["q1_answer"].source == ("# df: a formula in quotes\n# YOUR CODE HERE\n"
                                         "raise NotImplementedError()")
    assert cells["q1"].source == 'check("q1")'
    q4 = {nbg.grade_id(c): c for c in released[1]["03_tensors_and_gradients.ipynb"].cells}["q4"]
    assert q4.source == "YOUR ANSWER HERE"


def _edited(tmp_path, assignment, changes):
    notebook = nbformat.read(BY_ASSIGNMENT[assignment], as_version=4)
    for cell in notebook.cells:
        if nbg.grade_id(cell) in changes:
            cell.source = changes[nbg.grade_id(cell)]
    path = tmp_path / BY_ASSIGNMENT[assignment].name
    nbformat.write(notebook, path)
    with_module(assignment, tmp_path)
    return path


def test_a_wrong_solution_is_caught_and_not_released(tmp_path, capsys):
    path = _edited(tmp_path, "derive_it_by_hand",
                   {"q2_answer": '### BEGIN SOLUTION\ndg = "cos(x)"\n### END SOLUTION'})
    out = tmp_path / "release"
    assert main(["release", str(path), "--out", str(out)]) == 1
    assert not out.exists()
    grader, twin = capsys.readouterr().err.splitlines()  # both runs see it
    assert grader.startswith(f"problem: {path}: q2: the solution fails the grader (dg is "
                             "wrong at 4 of 5 values; at x = -2: yours is -0.416147")
    assert "fix the solution between ### BEGIN SOLUTION and ### END SOLUTION" in grader
    assert twin.startswith(f"problem: {path}: q2: the test cell fails on the solution when run "
                           "in the notebook, as nbgrader runs it (CheckFailed: q2: dg is")


def test_a_test_that_passes_without_an_answer_is_caught(tmp_path):
    path = _edited(tmp_path, "derive_it_by_hand", {"q3": "pass"})
    found = verify(str(path), "twin-stub", FAST)
    assert found == [f"{path}: q3: the test cell passes with the stub when run in the notebook, "
                     "as nbgrader runs it; add an assert that fails without an answer"]


def test_a_test_cell_that_writes_to_stderr_is_caught(tmp_path):
    path = _edited(tmp_path, "derive_it_by_hand",
                   {"q1": 'import sys\nprint("careful", file=sys.stderr)\ncheck("q1")'})
    found = verify(str(path), "twin-solution", FAST)
    assert len(found) == 1 and "q1: the test cell fails on the solution" in found[0]
    assert "(careful)" in found[0] and "must not write to stderr" in found[0]


def test_format_problems_name_the_cell_and_the_fix(tmp_path, capsys):
    notebook = nbformat.read(BY_ASSIGNMENT["derive_it_by_hand"], as_version=4)
    broken = copy.deepcopy(notebook)
    cells = {nbg.grade_id(c): c for c in broken.cells if nbg.grade_id(c)}
    cells["q2"].metadata["nbgrader"]["grade_id"] = "q1"  # duplicate
    cells["q3"].metadata["nbgrader"].pop("points")
    cells["expressions"].source += "\n### BEGIN SOLUTION\n### END SOLUTION"
    broken.metadata["minigrad_kit"]["assignment"] = "derive"
    path = tmp_path / "broken.ipynb"
    nbformat.write(broken, path)
    assert main(["release", str(path), "--out", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert f"{path}: cell 10 ('q1'): grade_id 'q1' is also used by cell 7" in error
    assert "('q3'): a graded cell needs points (a number), e.g. 'points': 2" in error
    assert "('expressions'): has '### BEGIN SOLUTION' but is not a solution cell" in error
    assert ("derive.py (the notebook metadata names the assignment 'derive'), which does not "
            "exist; write it (notebooks/assignments/README.md shows how)") in error


def test_release_per_student_writes_each_their_own_numbers(tmp_path):
    """`release --students`: one notebook per student, their numbers in its locked cells and
    their name in its start(...); a right answer for those numbers gets full marks."""
    roster = tmp_path / "roster.txt"
    roster.write_text("ada\nbo b\n")
    source = BY_ASSIGNMENT["derive_it_by_hand"]
    out = tmp_path / "release"
    assert main(["release", str(source), "--out", str(out), "--students", str(roster),
                 "--no-verify"]) == 0
    assignment = find_assignment("derive_it_by_hand")
    for student in ("ada", "bo_b"):
        notebook = nbformat.read(out / student / source.name, as_version=4)
        assert (out / student / "derive_it_by_hand.py").is_file()
        assert notebook.metadata["minigrad_kit"] == {"assignment": "derive_it_by_hand",
                                                     "student": student}
        cells = {nbg.grade_id(c): c.source for c in notebook.cells if nbg.grade_id(c)}
        n = assignment.variant_for(student)
        assert cells["expressions"].startswith(
            f"a, b, c = {n['a']}, {n['b']}, {n['c']}  # your own numbers, drawn for you\n")
        assert f'start("derive_it_by_hand", student="{student}")' in cells["setup"]
    submitted = tmp_path / "submitted"
    submitted.mkdir()
    mine = nbformat.read(out / "ada" / source.name, as_version=4)
    for cell in mine.cells:
        if nbg.grade_id(cell) in right("derive_it_by_hand", "ada"):
            cell.source = right("derive_it_by_hand", "ada")[nbg.grade_id(cell)]
    nbformat.write(mine, submitted / "ada.ipynb")
    assert main(["grade", str(submitted), "--source", str(source), "--out",
                 str(tmp_path / "grades")]) == 0
    result = (tmp_path / "grades" / "gradebook.csv").read_text()
    assert result.splitlines()[1:] == [f"ada,derive_it_by_hand,q{n},{p},{p}," for n, p in
                                       ((1, 2), (2, 2), (3, 2), (4, 3))]


def test_a_released_notebook_links_only_to_what_its_folder_holds(tmp_path):
    """A student's folder holds the notebook and its question module: assignment 5's footer
    linked '../10_backprop_by_hand.ipynb', a lesson the folder does not have. The handout
    keeps the link's text; make lab's copy (the student version beside the lessons) keeps
    the link, which leads to the lesson there."""
    out = tmp_path / "release"
    assert main(["release", *map(str, SOURCES), "--out", str(out), "--no-verify"]) == 0
    links = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
    for path in sorted(out.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            for _, target in links.findall(cell.source if cell.cell_type == "markdown" else ""):
                assert target.startswith(("http://", "https://", "#")) or (
                    out / target).exists(), (path.name, target)
    footer = nbformat.read(out / "05_backprop_by_hand.ipynb", as_version=4).cells[-1].source
    assert footer.endswith("← previous: Lesson 10 · Backprop by hand")
    source = nbformat.read(BY_ASSIGNMENT["backprop_by_hand"], as_version=4)
    assert "](../10_backprop_by_hand.ipynb)" in nbg.student_version(source).cells[-1].source


def _named(tmp_path, name: str) -> Path:
    """The kit's first instructor notebook, copied as ``name`` beside its question module."""
    path = tmp_path / name
    path.write_bytes(BY_ASSIGNMENT["derive_it_by_hand"].read_bytes())
    with_module("derive_it_by_hand", tmp_path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_check_run_that_dies_is_said_and_the_others_released(tmp_path, monkeypatch, capsys,
                                                               jobs):
    """The run of hw_oom.ipynb as nbgrader runs it dies (SIGKILL, as the out-of-memory
    killer ends it), in the pool and again alone: release says which run of which notebook
    died, and why; hw_oom is not released, ok.ipynb (checked in the same pool) is; exit
    status 1. Before: with ``--jobs 1`` the run died in release's own process (and with it
    the release, and here pytest); with 2, a traceback (BrokenProcessPool) and nothing
    written."""
    monkeypatch.setattr(release, "verify", dying_release.verify)
    dying, fine = _named(tmp_path, "hw_oom.ipynb"), _named(tmp_path, "ok.ipynb")
    out = tmp_path / "out"
    assert main(["release", str(dying), str(fine), "--out", str(out), "--jobs", jobs]) == 1
    said = capsys.readouterr()
    assert said.err.splitlines() == [
        f"problem: {dying}: the run of the solution notebook as nbgrader runs it did not "
        "finish: its process was killed (SIGKILL) before it finished: most often the system "
        "ran out of memory and its out-of-memory killer ended the largest process, or someone "
        "ended it; the notebook is not released. Release it again (with --jobs 1, or on a "
        "machine with more memory)"]
    assert sorted(p.name for p in out.iterdir()) == ["derive_it_by_hand.py", "ok.ipynb"]


@pytest.mark.slow
def test_a_check_run_that_dies_once_is_made_again(tmp_path, monkeypatch, capsys):
    """The run dies once (the pool breaks): made again alone, it passes, and the notebook is
    released as if nothing had died."""
    monkeypatch.setattr(release, "verify", dying_release.verify)
    dying = _named(tmp_path, "hw_oom_once.ipynb")
    assert main(["release", str(dying), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
    assert (tmp_path / "hw_oom_once.ipynb.died").exists()  # (it did die)
    assert capsys.readouterr().err == ""
    assert (tmp_path / "out" / "hw_oom_once.ipynb").exists()


@pytest.mark.slow
def test_the_runs_as_nbgrader_runs_them_are_sandboxed(tmp_path, capsys):
    """A cell of the instructor notebook that writes into the teacher's folder, as a
    student's would: in release's runs as nbgrader runs them (a kernel under bubblewrap,
    as grading runs code) it cannot, and the cell's error is the problem. Before, the
    kernel ran unsandboxed, and wrote there."""
    notebook = nbformat.read(BY_ASSIGNMENT["derive_it_by_hand"], as_version=4)
    touched = tmp_path / "touched.txt"
    notebook.cells.insert(1, nbformat.v4.new_code_cell(
        f"import pathlib\npathlib.Path({str(touched)!r}).write_text('the teacher\\'s')"))
    path = tmp_path / "hw.ipynb"
    nbformat.write(notebook, path)
    with_module("derive_it_by_hand", tmp_path)
    assert main(["release", str(path), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 1
    assert not touched.exists()
    said = capsys.readouterr().err
    assert f"problem: {path}: cell (unnamed) raised " in said
    assert "when the solution notebook runs; fix that cell" in said


@pytest.mark.slow
def test_checking_without_a_sandbox_is_said(tmp_path, monkeypatch, capsys):
    """Where bubblewrap does not work, release checks without it, as grading does, and says
    so (before, it said nothing)."""
    monkeypatch.setattr(sandbox, "_bubblewrap_works", lambda: (False, "no bwrap here"))
    path = _named(tmp_path, "hw.ipynb")
    assert main(["release", str(path), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
    assert capsys.readouterr().err.startswith(
        "WARNING: checking without a sandbox. bubblewrap could not be used (no bwrap here)")
