"""The fifth red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required). Each attack rides on the wrong answers (keys.WRONG) and may score no more than
they do, unless its questions are held for review; honest work keeps full marks,
unflagged. What succeeded before, and the construction that closed it:

* **an assignment answered again after its deadline, handed in for another one**: the
  assignment a notebook answers is read from its metadata (``minigrad_kit.assignment``),
  which the student writes. Bob, 0 of 9 on assignment 1, put his assignment-1 notebook,
  answered right since, in his folder of assignment 3 (``submitted/bob/ps3/``, under
  assignment 3's file name). Graded with assignment 3 into the same ``--out``, it was
  graded as assignment 1 and replaced his 0 of 9 with 9 of 9, unflagged, exit status 0
  (measured; the same with flat folders ``ps1/bob.ipynb``, ``ps3/bob.ipynb``, and when the
  whole ``submitted/`` is graded at once, where the last notebook by path is kept and only
  the terminal said so). (``collection.hold_collected_elsewhere``: where a notebook was
  handed in is the teacher's, ``batch.collection_of``; a notebook whose folder holds the
  class's notebooks of another assignment, or whose assignment the class handed in
  elsewhere, is flagged and what it scored is held for review.)
* **a code question's hidden inputs said back through a later question's public checks**
  (a course's own assignment with two code questions): ``double`` kept every input it was
  called with (``seen.append(x.tolist())``), and ``triple``, the next question, returned
  ``seen``; its public finding quoted it, "triple(x) is [[0.0, 1.0, -2.5], [-2.223,
  -1.865, 3.445, 0.234, 3.258, -2.831]]": all six hidden inputs of q1, to be hard-coded in
  a resubmission graded on the same salt (measured). (``grade._judge_code``: once the
  student's code has been called with hidden inputs, everything it hands back later in the
  run is judged as a hidden test's, quoting nothing of it; the public checks' full words
  are check()'s, in the notebook.)
* **every hidden input of assignment 2's ``unbroadcast`` said back in one submission, with
  names the --strict allowlist allows** (unflagged): the hidden inputs were opened at the
  start of their extract step, before its public part called the student's code, which
  read them out of the step's frame with a format string (``"{0._" + "_traceback_" +
  "_.tb_frame.f_back...f_locals[inputs][hidden]}".format(error)``) and returned them for a
  public check to quote, "unbroadcast(grad of shape (3, 4), (3, 1)) is '[[[5.0, 5.0,
  -4.0], ...'" (measured). (``runner.main``: the hidden part is opened only once the
  public part has been collected; such a walk finds the run's sealed hex.)
"""

import csv
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right
from shared_fixture import shared
from test_course import _cell, guide_module

from grader import notebook as nbg
from grader.batch import collection_of
from grader.cli import main
from grader.collection import hold_collected_elsewhere
from grader.grade import QuestionResult, Result

D, T, B = "derive_it_by_hand", "tensors_and_gradients", "broadcasting_and_reductions"
SALT = "red team 5"
CLASS = ("ada", "cy")  # honest: ada right, cy wrong, on both assignments
FLAGGED = "handed in late?"


def _honest(assignment: str, student: str):
    answers = right(assignment, student) if student == "ada" else WRONG[assignment]
    return build(assignment, student, answers)


def _grade(items: list, out: Path) -> int:
    return main(["grade", *map(str, items), "--out", str(out), "--timeout", "10", "--jobs",
                 "2", "--salt", SALT, "--sandbox", "required"])


def _class(folder: Path) -> dict:
    """The class in nbgrader's layout (``submitted/<student>/ps1``, ``ps3``) and in flat
    folders (``flat/ps1/<student>.ipynb``); bob's ps3 notebook is his assignment 1,
    answered right, under assignment 3's file name."""
    late = build(D, "bob", right(D, "bob"))
    for student in (*CLASS, "bob"):
        for number, assignment in (("ps1", D), ("ps3", T)):
            notebook = late if (student, number) == ("bob", "ps3") else \
                _honest(assignment, student) if student in CLASS else build(D, "bob", WRONG[D])
            nbgrader = folder / "submitted" / student / number / BY_ASSIGNMENT[T if number ==
                                                                             "ps3" else D].name
            flat = folder / "flat" / number / f"{student}.ipynb"
            for path in (nbgrader, flat):
                path.parent.mkdir(parents=True, exist_ok=True)
                nbformat.write(notebook, path)
    submitted, flat = folder / "submitted", folder / "flat"
    status = {  # ps1 graded first, ps3 later into the same --out; or everything at once
        "later": [_grade(sorted(submitted.glob(f"*/{n}")), folder / "later")
                  for n in ("ps1", "ps3")],
        "flat": [_grade([flat / n], folder / "flat-grades") for n in ("ps1", "ps3")],
        "together": [_grade([submitted], folder / "together")],
    }
    return {"status": status, "folder": str(folder)}


# --- a course's own assignment with two code questions, the first with hidden inputs ------

TRIPLE = '''
def extract_q2(namespace, inputs):
    import minigrad
    x = minigrad.tensor(inputs, dtype=minigrad.float64)
    return {"result": attempt(read(namespace, "triple"), x)}


def judge_q2(data, inputs, env):
    got, why = as_array(data["result"], "triple(x)")
    if why:
        return [Finding(False, why)]
    return compare("triple(x)", got, 3 * np.array(inputs))


ASSIGNMENT = '''
KEEPER = {"q1_answer": "seen = []\ndef double(x):\n    seen.append(x.tolist())\n    return 2 * x",
          "q2_answer": "def triple(x):\n    return seen"}
HONEST = {"q1_answer": "def double(x):\n    return x + x",
          "q2_answer": "def triple(x):\n    return 3 * x"}


# reads the extract step's locals through a format string (no name beyond --strict): the
# hidden inputs, were they open while the public part runs, for the public checks to quote
WALK = """def {name}(*given):
    try:
        1 / 0
    except Exception as error:
        found = error
    for depth in range(1, 9):
        text = "{{0._" + "_traceback_" + "_.tb_frame" + ".f_back" * depth + ".f_locals[inputs]"
        try:
            return (text + "[hidden]}}").format(found)
        except Exception:
            pass
    return 0"""


def _own_course(folder: Path) -> dict:
    module = guide_module().replace("\n\nASSIGNMENT = ", TRIPLE, 1).replace(
        "kind=CODE),  # code", 'kind=CODE),\n        Question("q2", "triple(x)", extract_q2, '
        "judge_q2, public=[1.0, 2.0], kind=CODE),  # code", 1)
    notebook = nbformat.v4.new_notebook(cells=[
        _cell("code", 'import minigrad as torch\nfrom grader import check, check_all, start\n'
                      'start("double_it")', "setup", locked=True),
        _cell("code", "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n"
                      "    ### END SOLUTION", "q1_answer", solution=True),
        _cell("code", 'check("q1")\n### BEGIN HIDDEN TESTS\nassert double(torch.tensor([4.0]))'
                      '.item() == 8.0\n### END HIDDEN TESTS', "q1", grade=True, locked=True,
              points=1),
        _cell("code", "def triple(x):\n    ### BEGIN SOLUTION\n    return 3 * x\n"
                      "    ### END SOLUTION", "q2_answer", solution=True),
        _cell("code", 'check("q2")', "q2", grade=True, locked=True, points=1),
    ])
    notebook.metadata["minigrad_kit"] = {"assignment": "double_it"}
    course, submitted = folder / "course", folder / "submitted"
    course.mkdir()
    submitted.mkdir()
    nbformat.write(notebook, course / "06_double_it.ipynb")
    (course / "double_it.py").write_text(module, encoding="utf-8")
    walker = {**HONEST, "q1_answer": WALK.format(name="double")}
    for student, answers in (("keeper", KEEPER), ("honest", HONEST), ("walker", walker)):
        handed = nbg.student_version(notebook)
        for cell in handed.cells:
            cell.source = answers.get(nbg.grade_id(cell), cell.source)
        nbformat.write(handed, submitted / f"{student}.ipynb")
    status = main(["grade", str(submitted), "--source", str(course), "--out",
                   str(folder / "grades"), "--timeout", "10", "--salt", SALT, "--sandbox",
                   "required"])
    kit = folder / "kit"  # the same walk in the kit's assignment 2, whose unbroadcast it is
    kit.mkdir()
    nbformat.write(build(B, "walker", {**WRONG[B], "q4_answer": WALK.format(
        name="unbroadcast")}), kit / "walker.ipynb")
    status_kit = _grade([kit], folder / "kit-grades")
    return {"status": [status, status_kit], "folder": str(folder)}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    found = shared(tmp_path_factory, "graded_red_team5", _class)
    return {**found, "folder": Path(found["folder"])}


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    found = shared(tmp_path_factory, "graded_red_team5_own", _own_course)
    return {**found, "folder": Path(found["folder"])}


def _results(out: Path) -> dict:
    return {(r["student"], r["assignment"]): r for r in
            (json.loads(p.read_text(encoding="utf-8")) for p in out.glob("results/*/*.json"))}


def _book(out: Path) -> dict:
    with open(out / "gradebook.csv", newline="", encoding="utf-8") as file:
        return {(r["student"], r["assignment"], r["question"]): r for r in csv.DictReader(file)}


OUTS = ("later", "flat-grades", "together")


def test_the_class_is_graded(graded):
    # (graded together, bob's two notebooks of assignment 1 are two for one: status 1, as
    # the command says, and the last by path is kept)
    assert graded["status"] == {"later": [0, 0], "flat": [0, 0], "together": [1]}
    for out in OUTS:
        results = _results(graded["folder"] / out)
        assert set(results) == {(s, a) for s in CLASS for a in (D, T)} | {("bob", D)}, out
        assert all(r["error"] == "" for r in results.values())  # (none timed out either)


@pytest.mark.parametrize("out", OUTS)
def test_honest_work_keeps_full_marks_unflagged(graded, out):
    results = _results(graded["folder"] / out)
    for assignment in (D, T):
        for student in CLASS:
            result = results[(student, assignment)]
            assert result["flags"] == [] and result["problems"] == [], (out, student)
            assert not any(q["review"] for q in result["questions"])
        assert all(q["points"] == q["max_points"] for q in results[("ada", assignment)]
                   ["questions"] if not q["manual"])


@pytest.mark.parametrize("out", OUTS)
def test_an_assignment_handed_in_for_another_scores_nothing_unheld(graded, out):
    out = graded["folder"] / out
    book, result = _book(out), _results(out)[("bob", D)]
    rows = {q: book[("bob", D, q)] for q in ("q1", "q2", "q3", "q4")}
    # judged right (bob did answer it), but held: nothing counts until the teacher accepts
    assert all(row["points"] == "" and row["needs_review"] == "yes" for row in rows.values())
    assert [q["points"] for q in result["questions"]] == [2.0, 2.0, 2.0, 3.0]
    flag, = [f for f in result["flags"] if FLAGGED in f]
    folder = "ps3"
    assert f"handed in in the folder {folder}" in flag and D in flag
    with open(out / "flags.csv", newline="", encoding="utf-8") as file:
        assert any(r["student"] == "bob" and FLAGGED in r["flag"] for r in csv.DictReader(file))


def test_where_a_notebook_was_collected_is_the_teachers_folder(tmp_path):
    nbgrader = tmp_path / "course" / "submitted" / "bob" / "ps3" / "bob" / "ps1" / "x.ipynb"
    assert collection_of(nbgrader) == "ps3"  # (bob's own folders below do not count)
    assert collection_of(nbgrader, tmp_path / "course" / "submitted") == "ps3"
    assert collection_of(nbgrader, tmp_path / "course" / "submitted" / "bob" / "ps3") == "ps3"
    assert collection_of(tmp_path / "ps3" / "bob.ipynb", tmp_path / "ps3") == "ps3"


def _results_in(*where: tuple) -> list:
    """Results graded (9 of 9 on the kit's assignment 1 ``D``, or ``T``) from (student,
    assignment, folder)."""
    return [Result(student, assignment, "x.ipynb", collected=folder, questions=[
        QuestionResult("q1", "q1", 9.0, 9.0)]) for student, assignment, folder in where]


def _held(current: list, stored: list = ()) -> list:
    hold_collected_elsewhere(current, list(stored))
    return sorted(r.student for r in current if r.flags or any(q.held for q in r.questions))


CLASS_PS1 = [(s, D, "ps1") for s in ("ada", "cy", "dee")]
CLASS_PS3 = [(s, T, "ps3") for s in ("ada", "cy", "dee")]


@pytest.mark.parametrize("how, current, stored, held", [
    ("bob's assignment 1, again, in ps3", [("bob", D, "ps3")], [("bob", D, "ps1")], ["bob"]),
    ("bob alone hands assignment 1 in ps3", CLASS_PS3 + [("bob", D, "ps3")], CLASS_PS1,
     ["bob"]),
    ("both in one run, the last by path kept", CLASS_PS1 + [("bob", D, "ps1")] + CLASS_PS3
     + [("bob", D, "ps3")], [], ["bob"]),
    ("bob and two friends hand assignment 1 in ps3", [(s, D, "ps3") for s in
     ("bob", "eve", "fay")] + [(s, T, "ps3") for s in ("ada", "cy", "dee", "gus")],
     [(s, D, "ps1") for s in ("ada", "cy", "dee", "gus", "bob", "eve", "fay")],
     ["bob", "eve", "fay"]),
    ("a late notebook where the class's are", [("bob", D, "ps1")], CLASS_PS1 +
     [("bob", D, "ps1")], []),
    ("a late notebook where the class's are, replacing one held", [("bob", D, "ps1")],
     CLASS_PS1 + [("bob", D, "ps3")], []),
    ("a late notebook from a folder of its own, replacing one", [("bob", D, "late")],
     CLASS_PS1 + [("bob", D, "ps1")], ["bob"]),
    ("sections in folders of their own", [(s, D, "section-b") for s in ("eve", "fay")],
     CLASS_PS1, []),
    ("one section of one student", [("eve", D, "section-b")], CLASS_PS1, []),
    ("a folder of the class's notebooks of two assignments", CLASS_PS1 +
     [("bob", T, "ps1")], [], []),
    ("an nbgrader assignment of two notebooks, one handed in by one student", CLASS_PS3 +
     [("ada", D, "ps3")], [], []),
    ("graded alone into an empty --out", [("bob", D, "ps3")], [], []),
], ids=lambda value: value if isinstance(value, str) else "")
def test_the_class_decides_where_an_assignment_is_handed_in(how, current, stored, held):
    assert _held(_results_in(*current), _results_in(*stored)) == held, how


def test_a_late_notebook_where_the_class_handed_theirs_is_not_held(graded, tmp_path):
    """The majority decides: bob's right assignment 1, late, in the class's folder ps1,
    graded alone into the --out that holds the class's results."""
    out = tmp_path / "grades"
    shutil.copytree(graded["folder"] / "later", out)
    late = tmp_path / "submitted" / "bob" / "ps1" / BY_ASSIGNMENT[D].name
    late.parent.mkdir(parents=True)
    nbformat.write(build(D, "bob", right(D, "bob")), late)
    assert _grade([late.parent], out) == 0
    result = _results(out)[("bob", D)]
    assert result["flags"] == [] and result["collected"] == "ps1"
    assert all(r["points"] == r["max"] for (s, a, _q), r in _book(out).items()
               if (s, a) == ("bob", D))


def test_hidden_inputs_given_earlier_are_not_said_by_a_later_public_check(own):
    assert own["status"] == [0, 0]
    feedback = (own["folder"] / "grades" / "feedback" / "double_it" / "keeper.md").read_text(
        encoding="utf-8")
    triple = feedback[feedback.index("## q2"):]
    assert "✗ public: triple(x)" in triple
    assert "[[" not in triple and "-2.5" not in triple and "1.0" not in triple, triple
    honest = json.loads((own["folder"] / "grades" / "results" / "double_it" /
                         "honest.json").read_text(encoding="utf-8"))
    assert [q["points"] for q in honest["questions"]] == [1.0, 1.0]
    assert honest["flags"] == [] and honest["problems"] == []


def test_a_result_held_in_a_part_is_held_once_when_the_parts_are_joined():
    """``merge`` stores the parts' results as one run's: the rules apply to the whole class
    again, and a result a part held already is not held twice."""
    current = _results_in(*CLASS_PS3, ("bob", D, "ps3"))
    hold_collected_elsewhere(current, _results_in(*CLASS_PS1))
    bob = current[-1]
    assert len(bob.flags) == 1 and bob.questions[0].review == bob.flags
    hold_collected_elsewhere(current, _results_in(*CLASS_PS1))
    assert len(bob.flags) == 1 and len(bob.questions[0].review) == 1


@pytest.mark.parametrize("where, question", [("grades/feedback/double_it", "double(x)"),
                                             (f"kit-grades/feedback/{B}", "unbroadcast(")])
def test_hidden_inputs_are_sealed_while_the_public_part_runs(own, where, question):
    """The public part of an extract step runs the student's code before the hidden part:
    the hidden inputs are opened only after it, so a walk up the frames finds them sealed
    (the run's own keystream: hex that says nothing)."""
    feedback = (own["folder"] / where / "walker.md").read_text(encoding="utf-8")
    said = [line for line in feedback.splitlines()
            if line.startswith("- ✗ public: " + question)]
    assert said, feedback
    for line in said:
        quoted = re.findall(r" is '([^']*)'", line)
        assert quoted and all(re.fullmatch(r"[0-9a-f]*", text) for text in quoted), line
