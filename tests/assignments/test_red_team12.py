"""The twelfth red team's submissions, graded as a teacher grades them (the real commands:
``minigrad-kit gradescope`` and the autograder as Gradescope runs it, ``minigrad-kit
grade``, the sandbox required). What succeeded before, and the construction that closed it:

* **the points of another assignment, in Gradescope**: an autograder could be made from a
  course folder (``minigrad-kit gradescope course/*.ipynb``, the command's own example) and
  uploaded to each of the course's Gradescope assignments. It graded whatever assignment
  an upload's notebook answered, so the notebook of assignment 2 (done, right), uploaded
  alone to the Gradescope assignment of assignment 1, scored its 8 points there, for an
  assignment the student never did (measured; red team 7 had closed only the upload that
  holds both notebooks). Gradescope knows which assignment a zip was uploaded to; the
  autograder knew only by holding that assignment's notebook alone. (``upload.
  ONE_ASSIGNMENT``: ``gradescope`` writes a zip of one instructor notebook, and an
  autograder whose course folder holds several grades nothing, saying why; a notebook of
  another assignment answers none of the autograder's questions and scores 0, said.)

* **honest work scored 0**: a formula may hold ``pi`` and ``e``, but at 200 digits they were
  math.pi and math.e, 16 digits each, so ``dg = "3*cos(3*x)*e**(2*x) + ..."``, the
  derivative written with ``e**`` for ``exp``, agreed with the true derivative to 16
  digits and was judged "an approximation (a finite difference?)": 0 of q2's 2 points
  (measured). (``exact._MpMath.constant``: each backend gives a constant at its own
  precision, mpmath's pi and e at 200 digits.)
* **a grading worker held for a minute by answers given as data**: what Python computes from
  literals is read too (``answers._computed``: f-strings, ``+`` of texts), each text
  refused past 20,000 characters, but only once made. An answer cell that binds a literal
  of 19,000 characters, ``s``, then four lines ``d0 = f"{s}{s}...{s}"`` of 6,500 ``{s}``
  each (97,000 characters, under the 100,000 a cell may have) made 120 million characters
  a line before refusing them, and the cells are read once per question: the wrong
  answers so written in assignment 1's four answer cells took 64 s of the grader's own
  process, outside every time limit (0.5 s for a submission; measured). (``answers.
  _Budget``: every text is counted before it is made, each at most 20,000 characters and
  all of them 200,000 in one reading; 18 s now, nearly all of it Python's own parser on
  those cells.)
* **honest work scored 0 while check() said its public checks passed**: a formula written
  with the student's own numbers by ``"{}*x**2".format(3*a)``, ``"%d*x**2" % (3*a)`` or
  ``str(3*a) + "*x**2"`` is the same text in the kernel, which ``check()`` reads, but the
  grader, which reads answers from the text (red team 3 taught it f-strings), read each as
  "a value computed by code": 0 points (measured). (``answers._called``: Python's own
  formatting of numbers and texts, its fields plain and counted before the text is made;
  a name the cells bind to anything else, ``def str(x): ...``, is read as no value.)
"""

import json
import tracemalloc
from pathlib import Path

import nbformat
from assignment_files import BY_ASSIGNMENT
from keys import build, published, right
from shared_fixture import points_and_review

from grader import gradescope
from grader.answers import written_answers
from grader.cli import main
from grader.upload import pack_course

D, B = "derive_it_by_hand", "broadcasting_and_reductions"


# --- (1) the notebook of another assignment scored in Gradescope ----------------------------

def _uploaded(root: Path, sources: list, notebook) -> dict:
    """Gradescope's /autograder with the course folder of ``sources`` (sandbox required),
    ``notebook`` uploaded; results.json."""
    course = root / "source" / "course"
    course.mkdir(parents=True)
    pack_course([str(BY_ASSIGNMENT[s]) for s in sources], course,
                {"sandbox": "required", "timeout": 10})
    (root / "submission").mkdir()
    nbformat.write(notebook, root / "submission" / "hw1.ipynb")
    assert gradescope.run(root) == 0
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def test_the_notebook_of_another_assignment_scores_nothing(tmp_path):
    """Assignment 2's notebook, right, uploaded to the autograder of assignment 1 alone: 0
    points, and why; assignment 1's own notebook scores its 9 there."""
    other = build(B, None, published(B))
    results = _uploaded(tmp_path / "other", [D], other)
    assert results["score"] == 0 and results["tests"] == []
    assert f"answers the assignment '{B}', but the instructor notebooks given are for {D}" \
        in results["output"]
    own = _uploaded(tmp_path / "own", [D], build(D, None, published(D)))
    assert own["score"] == 9


def test_an_autograder_of_several_assignments_grades_none(tmp_path):
    """The attack: a course folder of assignments 1 and 2 (a zip written before), the right
    notebook of assignment 2 uploaded (to the Gradescope assignment of 1): it scored 8. No
    upload is graded by such an autograder now; the teacher is told why, the student that
    the autograder failed."""
    results = _uploaded(tmp_path / "both", [D, B], build(B, None, published(B)))
    assert results["score"] == 0 and all("score" not in t for t in results["tests"])
    assert results["output"].startswith("The autograder failed on this submission")
    note = next(t for t in results["tests"] if t["visibility"] == "hidden")
    assert "an autograder of 2 instructor notebooks" in note["output"]


def test_gradescope_writes_an_autograder_of_one_assignment(tmp_path, capsys):
    """``minigrad-kit gradescope`` of two notebooks (or a course folder of them) writes no zip
    and says what to do; of one, it writes the zip."""
    zipped = tmp_path / "autograder.zip"
    for given in ([BY_ASSIGNMENT[D], BY_ASSIGNMENT[B]], [BY_ASSIGNMENT[D].parent]):
        assert main(["gradescope", *map(str, given), "--out", str(zipped), "--salt", "s"]) == 1
        assert "write one autograder per instructor notebook" in capsys.readouterr().err
        assert not zipped.exists()
    assert main(["gradescope", str(BY_ASSIGNMENT[D]), "--out", str(zipped), "--salt", "s"]) == 0
    assert zipped.exists()


# --- (2) e**x, the exponential written with the constant e, was "an approximation" ----------

def _graded(tmp_path: Path, student: str, answers: dict) -> dict:
    """``student``'s notebook of assignment 1 with ``answers``, graded sandboxed as a teacher
    grades a class folder: the gradebook's (points, review) by (student, question)."""
    folder = tmp_path / "submitted" / student / "ps1"
    folder.mkdir(parents=True)
    nbformat.write(build(D, student, answers), folder / BY_ASSIGNMENT[D].name)
    out = tmp_path / "grades"
    assert main(["grade", str(tmp_path / "submitted"), "--out", str(out), "--sandbox",
                 "required", "--salt", "s", "--jobs", "1"]) == 0
    return points_and_review(out)


def test_the_constant_e_is_exact_at_every_precision(tmp_path):
    """The right answers with ``e**(...)`` for every ``exp(...)``: full marks, unflagged (q2
    scored 0 before, "an approximation")."""
    answers = right(D, "erin")
    answers["q2_answer"] = answers["q2_answer"].replace("exp(", "e**(")
    assert "e**(" in answers["q2_answer"]
    book = _graded(tmp_path, "erin", answers)
    assert {q: book[("erin", q)] for q in ("q1", "q2", "q3", "q4")} == {
        "q1": ("2", ""), "q2": ("2", ""), "q3": ("2", ""), "q4": ("3", "")}


# --- (3) a text made before it was refused, for every question ------------------------------

LONG = "x" * 19_000


def _amplifier(name: str) -> str:
    """An answer cell of 97,000 characters: a long literal, then four f-strings of it 6,500
    times over, then a wrong answer."""
    return (f's = "{LONG}"\n' + "".join(f'{name}{i} = f"' + "{s}" * 6_500 + '"\n'
                                          for i in range(4)) + f'{name} = "x"')


def test_a_text_is_counted_before_it_is_made():
    """The reading of one such cell made 120 million characters a line (123 MB at its peak);
    now what it would make is counted first: refused, "a value computed by code", with
    kilobytes. Honest text computed from the numbers is read as before."""
    cell = _amplifier("df")
    written_answers([cell], ("df0",))  # (the cell's parse, cached: not what is measured)
    tracemalloc.start()
    try:
        read = written_answers([cell], ("df0",))["df0"]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert read.kind == "value computed by code" and peak < 2_000_000, peak
    honest = 'k = 3*a\ndf = f"{k}*x**2 + {b}" + " + " + f"{c:d}*cos({c}*x)"'
    assert written_answers([honest], ("df",), {"a": 2, "b": -3, "c": 2})["df"] == \
        "6*x**2 + -3 + 2*cos(2*x)"


def test_a_submission_of_such_cells_is_graded(tmp_path):
    """Assignment 1 with such a cell for every answer, graded by the command: 0 points,
    graded (it held the grader's own process 64 s before, 18 s now)."""
    answers = {"q1_answer": _amplifier("df"), "q2_answer": _amplifier("dg"),
               "q3_answer": _amplifier("dh"), "q4_answer": _amplifier("dk_dx") + '\ndk_dy = "y"'}
    book = _graded(tmp_path, "mallory", answers)
    assert {book[("mallory", q)] for q in ("q1", "q2", "q3", "q4")} == {("0", "")}


# --- (4) text formatted the other ways Python formats it ------------------------------------

def test_a_formula_formatted_with_the_numbers_is_read_as_python_reads_it(tmp_path):
    """Assignment 1's right answers, each formula made from the student's numbers another
    way (``.format``, ``%``, ``str()``, an f-string's ``!r``): full marks, unflagged (each
    scored 0 before, "a value computed by code", f-strings aside)."""
    answers = {
        "q1_answer": 'df = "{}*x**2 + {} + {c}*cos({c}*x)".format(3*a, b, c=c)',
        "q2_answer": 'dg = "%d*cos(%d*x)*exp(%d*x) + %d*sin(%d*x)*exp(%d*x)" % (c, c, b, b, c, b)',
        "q3_answer": 'dh = str(2*c) + "*x / (" + str(a) + " + " + str(c) + "*x**2)"',
        "q4_answer": 'dk_dx = f"{a!r}*y**2 + {b!r}*(1 - tanh({b}*x + {c}*y)**2)"\n'
                     'dk_dy = "{0}*x*y + {1}*(1 - tanh({2}*x + {1}*y)**2)".format(2*a, c, b)'}
    book = _graded(tmp_path, "fay", answers)
    assert {q: book[("fay", q)] for q in ("q1", "q2", "q3", "q4")} == {
        "q1": ("2", ""), "q2": ("2", ""), "q3": ("2", ""), "q4": ("3", "")}
