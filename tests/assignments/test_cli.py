"""`minigrad-kit` help and errors: every option explained, every error names the file and fix."""

import subprocess
import sys

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT, FOLDER
from keys import build, right

from grader.cli import main
from grader.confine import landlock_abi


def _help(capsys, *args):
    with pytest.raises(SystemExit) as exit:
        main([*args, "--help"])
    assert exit.value.code == 0
    return capsys.readouterr().out


def test_main_help(capsys):
    text = _help(capsys)
    assert text.startswith("usage: minigrad-kit [-h]\n                    "
                           "{lessons,assignments,release,grade,review,merge,")
    for words in ("lessons      copies the lessons", "assignments  copies the kit's instructor",
                  "release      writes the student version", "grade        grades submissions",
                  "review       lists the questions held back for tampering",
                  "merge        merges the folders", "computed outside the student's kernel",
                  "lab          copies the lessons into a folder (once) and opens them",
                  "report       writes an item analysis per assignment for the teacher",
                  "export       writes the CSV file that a Canvas, Moodle or Blackboard gradebook",
                  "gradescope   writes a Gradescope autograder (a zip)",
                  "prairielearn writes PrairieLearn questions graded by the kit",
                  "kernelspec   installs a Jupyter kernel that runs inside the kit's bubblewrap"):
        assert words in text


def test_release_help(capsys):
    text = _help(capsys, "release")
    for words in ("SOURCE", "--out DIR", "--no-verify", "--timeout SECONDS", "--jobs N",
                  "hidden tests removed", "checksums recorded", "Exit status 1",
                  "OUT/<assignment>.py", "A student version (already released)\nis refused",
                  "--students NAME", "OUT/<student>/",
                  "minigrad-kit release course/*.ipynb --out release/"):
        assert words in text, words


def test_grade_help(capsys):
    text = _help(capsys, "grade")
    for words in ("SUBMISSION", "--source NOTEBOOK", "--format {md,html}", "--budget SECONDS",
                  "--memory MB", "--salt SALT", "--timeout SECONDS", "--jobs N", "--strict",
                  "--lenient", "--variants {per-student,none}",
                  "OUT/gradebook.csv", "student, assignment, question, points, max",
                  "OUT/flags.csv", "OUT/answers/<assignment>.md", "no hidden test code",
                  "submitted/<student>/<assignment>/<notebook>.ipynb",
                  "--sandbox {auto,required,off}", "needs_review", "OUT/manifest.json",
                  "minigrad-kit review"):
        assert words in text, words


def test_review_help_and_errors(capsys, tmp_path):
    text = _help(capsys, "review")
    for words in ("OUT", "--accept KEY", "--reject KEY", "student/assignment/question",
                  "minigrad-kit review grades/ --accept alice/derive_it_by_hand/q1"):
        assert words in text, words
    with pytest.raises(SystemExit, match=r"has no gradebook.csv; give the folder that "
                                         r"minigrad-kit grade --out wrote"):
        main(["review", str(tmp_path)])


def test_grading_without_the_sandbox_is_said_loudly(capsys, tmp_path, monkeypatch):
    # (a grader that may not become another user: the code runs with its rights; see
    # test_red_team14 for a root that may)
    monkeypatch.setattr("grader.sandbox._may_change_user", lambda: False)
    nbformat.write(build("derive_it_by_hand", "al", right("derive_it_by_hand", "al")),
                   tmp_path / "al.ipynb")
    out = tmp_path / "out"
    assert main(["grade", str(tmp_path / "al.ipynb"), "--out", str(out), "--sandbox", "off"]) == 0
    printed = capsys.readouterr()
    assert printed.err.startswith("WARNING: grading without a sandbox. --sandbox off was "
                                  "chosen: students' code ran with the grader's rights")
    assert ("but opening no file but the system's libraries, Python and the kit's packages "
            "(Landlock)" in printed.err) == bool(landlock_abi())  # (red team 16)
    assert printed.out.rstrip().endswith("code ran WITHOUT a sandbox")
    flags = (out / "flags.csv").read_text().splitlines()
    assert flags[1].replace('"', "").startswith(
        "al,derive_it_by_hand,,graded without a sandbox: OFF: --sandbox off was chosen: "
        "students' code ran with the grader's rights")
    assert main(["grade", str(tmp_path / "al.ipynb"), "--out", str(out)]) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        "code ran in a sandbox: bubblewrap (no network, read-only system, only NumPy and the "
        "kit's packages, private scratch folder, limited processes)")
    assert "without a sandbox" not in (out / "flags.csv").read_text()


def test_sandbox_required_refuses_without_bubblewrap(capsys, tmp_path, monkeypatch):
    from grader import sandbox
    sandbox._bubblewrap_works.cache_clear()
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    try:
        status = main(["grade", str(BY_ASSIGNMENT["derive_it_by_hand"]), "--out",
                       str(tmp_path / "out"), "--sandbox", "required"])
    finally:
        sandbox._bubblewrap_works.cache_clear()
    assert status == 1
    assert "minigrad-kit: error: --sandbox required, but bwrap is not installed" in (
        capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def test_missing_file(capsys):
    with pytest.raises(SystemExit, match=r"SUBMISSION 'nope.ipynb' does not exist; give the "
                                         r"students' notebooks, or the folder they are in"):
        main(["grade", "nope.ipynb", "--out", "grades"])


@pytest.mark.parametrize("argv", [
    ["release", "notebooks/assignments/*.ipynb", "--out", "release/"],  # outside the repo
    ["grade", "submitted/alice.ipynb", "--out", "grades/"],
    ["grade", "submitted/", "--out", "grades/"],
    ["grade", "x.ipynb", "--source", "notebooks/assignments/01_derive_it_by_hand.ipynb",
     "--out", "grades/"],
])
def test_no_error_suggests_the_command_that_failed(argv, tmp_path, monkeypatch):
    """(Issue 13: the release error used to suggest "e.g. notebooks/assignments/*.ipynb".)"""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.ipynb").write_text("{}")
    with pytest.raises(SystemExit) as exit:
        main(argv)
    message = str(exit.value)
    assert "does not exist" in message
    for word in argv[1:]:
        if word.startswith("--"):
            continue
        assert f"e.g. {word}" not in message and f"`{word}`" not in message, message
    if argv[0] == "release" or "--source" in argv:
        assert "are copied into a folder by `minigrad-kit assignments FOLDER`" in message
    if "*" in argv[1]:
        assert "(the shell found no file matching it)" in message


def test_not_a_notebook(tmp_path):
    (tmp_path / "notes.txt").write_text("hi")
    with pytest.raises(SystemExit, match=r"SOURCE '.*notes.txt' is not a .ipynb notebook"):
        main(["release", str(tmp_path / "notes.txt"), "--out", str(tmp_path / "out")])


def test_out_must_not_hold_submissions(tmp_path):
    submission = tmp_path / "alice.ipynb"
    submission.write_text("{}")
    with pytest.raises(SystemExit, match=r"--out '.*' holds the submission '.*alice.ipynb'; "
                                         r"write the grades to a folder outside the "
                                         r"submissions"):
        main(["grade", str(submission), "--out", str(tmp_path)])


def test_release_never_overwrites_the_instructor_notebook(capsys):
    assert main(["release", str(BY_ASSIGNMENT["derive_it_by_hand"]), "--out", str(FOLDER),
                 "--no-verify"]) == 1
    assert "--out would overwrite the instructor notebook; choose another folder" in (
        capsys.readouterr().err)


def test_python_dash_m_is_the_same_command():
    done = subprocess.run([sys.executable, "-m", "grader", "--help"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("usage: minigrad-kit")


def test_an_invalid_instructor_notebook_stops_grading_before_it_starts(tmp_path, capsys):
    source = tmp_path / "01_derive_it_by_hand.ipynb"
    source.write_text(BY_ASSIGNMENT["derive_it_by_hand"].read_text().replace(
        '"assignment": "derive_it_by_hand"', '"assignment": "derive"'))
    (tmp_path / "submitted").mkdir()
    (tmp_path / "submitted" / "alice.ipynb").write_text("{}")
    assert main(["grade", str(tmp_path / "submitted"), "--out", str(tmp_path / "grades"),
                 "--source", str(source)]) == 1
    assert ("derive.py (the notebook metadata names the assignment 'derive'), which does not "
            "exist; write it" in capsys.readouterr().err)
    assert not (tmp_path / "grades").exists()


def test_two_files_for_one_student_are_reported(capsys):
    from grader.cli import _duplicates
    from grader.grade import Result

    results = [Result("alice", "derive_it_by_hand", "alice.ipynb")] * 2
    assert _duplicates(["a/alice.ipynb", "b/alice.ipynb"], results) == [
        ("alice", "derive_it_by_hand")]
    assert capsys.readouterr().err == (
        "two submissions for alice in derive_it_by_hand: a/alice.ipynb and b/alice.ipynb; only "
        "the last was kept, and held for review (rename one to grade both)\n")
    assert results[1].flags == ["another notebook of this student and assignment was handed "
                                "in too, alice.ipynb; only this one was kept: which is the "
                                "student's? It is held for review"]
