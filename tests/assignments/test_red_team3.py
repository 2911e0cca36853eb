"""The third red team's submissions, graded as a teacher grades them (each notebook the one
``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required). Each attack rides on the wrong answers (keys.WRONG) and may score no more than
they do; honest work keeps full marks, unflagged. What succeeded before, and the
construction that closed it:

* **memory beyond ``--memory`` and the scratch folder's 64 MB**: a code run's ``/dev``
  (``/dev/shm``) and the empty tmpfs laid over the system's Python packages were writable
  file systems of half the machine's memory each, which the run's address-space limit
  never counts. A grader run by an ordinary user (the sandbox then owns its mounts) let a
  submission write gigabytes there for as long as it ran, starving the submissions graded
  beside it (measured: 300 MB in 0.7 s into ``/dev/shm``, 12 GB free). Run by root, the
  sandbox's own user could not write there, by permissions only (``sandbox._read_only_but``:
  every file system the sandbox mounts writable but its scratch folder is remounted
  read-only, whoever runs it);
* **honest work scored 0 while ``check()`` said the public checks passed**: an answer cell
  that Python reads one way and the grader another. ``dk_dx, dk_dy = "...", "..."`` (both
  missing: 0 of 3) and a formula written with the student's own numbers,
  ``df = f"{3*a}*x**2 + ..."`` ("a value computed by code": 0 of 2), are the same strings
  in the kernel, which ``check()`` judges (``answers._computed``: what Python computes
  from literals and the variant's numbers, read from the text with the grader's own
  numbers, bounded; nothing of a kernel).

* **q3's gradient made right over a wrong y** (assignment 3), with plain autograd:
  ``x.register_hook(lambda g: g * factor / (factor + 1))``, a second ``backward()`` of
  another sum (``(x * -1).sum()``: factor + 1 - 1), or ``x.grad = None`` and a fresh
  graph ``(x * factor).sum().backward()``; each scored q3's 2 points, unflagged, unheld
  (``judge_q3``: q3 is checked on q2's y and z, so over a wrong y nothing is to be gained;
  and ``scan._bypasses_autograd``: a hook, any name with "hook", is beyond --strict, for
  a teacher's own code questions).

Tried and found closed (they guard the construction): a formula that names what the
grader must not run (``f"{open(...).read()}"``), or costs without bound to read
(``f"{x:999999999}"``, ``9**9**9``, text multiplied), in an answer cell.
"""

import sysconfig
import time
from pathlib import Path

import nbformat
import pytest
from keys import WRONG, build, numbers, right
from shared_fixture import (book_rows, check_class_graded, check_full_marks_unflagged,
                            grade_notebooks, read_graded, shared)

from grader.answers import written_answers
from grader.cli import main

D, B, T, P = ("derive_it_by_hand", "broadcasting_and_reductions", "tensors_and_gradients",
              "backprop_by_hand")

# Every file system the code run could write into (a tmpfs: /dev, the one over the system's
# Python packages, ...), written to; the errors said back in the question's feedback.
FILL = """
tried = {}
for line in open("/proc/self/mounts"):
    where, kind = line.split()[1], line.split()[2]
    if kind == "tmpfs" and where != __import__("os").getcwd():
        tried[where] = None
for where in list(tried) + ["/dev/shm", SITE]:
    try:
        with open(where + "/fill", "wb") as file:
            file.write(bytes(1 << 20))
        tried[where] = "WROTE"
    except OSError as error:
        tried[where] = __import__("errno").errorcode[error.errno]
raise ValueError("tried " + repr(sorted(tried.items())))
"""


def _honest_variants(student: str) -> dict:
    """Right answers written as an honest student might: names unpacked from a tuple, the
    formulas built with the student's own numbers in f-strings."""
    n = numbers(D, student)
    return {
        "q1_answer": 'df = f"{3*a}*x**2 + {b} + {c}*cos({c}*x)"',
        "q2_answer": 'dg = f"{c}*cos({c}*x)*exp({b}*x) + {b}*sin({c}*x)*exp({b}*x)"',
        "q3_answer": right(D, student)["q3_answer"],
        "q4_answer": f'dk_dx, dk_dy = "{n["a"]}*y**2 + {n["b"]}*(1 - tanh({n["b"]}*x + '
                     f'{n["c"]}*y)**2)", "{2 * n["a"]}*x*y + {n["c"]}*(1 - tanh({n["b"]}*x + '
                     f'{n["c"]}*y)**2)"'}


def _honest_shapes(student: str) -> dict:
    return {**right(B, student),
            "q1_answer": "a_grad_shape = (m, 1)\nb_grad_shape = (p,)",
            "q2_answer": 'a_grad = f"{c} * sum(b)"\nb_grad = f"{c} * sum(a)"',
            "q3_answer": 'x_grad = f"w / {r}"'}


def _honest_backprop(student: str) -> dict:
    answers = right(P, student)
    answers["q4_answer"] = ('dh = f"dlogits @ W2.T / {T}"\ndW2 = f"h.T @ dlogits / {T}"\n'
                            'db2 = f"dlogits.sum(0) / {T}"')
    answers["q5_answer"] = 'dhpre = f"{s} * (1 - h**2) * dh"'
    return answers


def _submissions() -> dict:
    """student (the file's name) -> the notebook released to them, answered."""
    site = sysconfig.get_paths()["purelib"]
    found = {f"{s}_wrong": build(a, f"{s}_wrong", WRONG[a]) for s, a in
             (("d", D), ("t", T), ("b", B))}
    found["d_right"] = build(D, "d_right", right(D, "d_right"))
    found["d_honest"] = build(D, "d_honest", _honest_variants("d_honest"))
    found["b_honest"] = build(B, "b_honest", _honest_shapes("b_honest"))
    found["p_honest"] = build(P, "p_honest", _honest_backprop("p_honest"))
    found["t_fill"] = build(T, "t_fill", {**WRONG[T], "q1_answer": WRONG[T]["q1_answer"]
                                          + "\nSITE = " + repr(site) + FILL})
    # q2's y made with a wrong factor, and x.grad put right by a hook: q3's points
    found["t_q1_right"] = build(T, "t_q1_right", {**WRONG[T], "q1_answer": right(
        T, "t_q1_right")["q1_answer"]})
    found["t_hook"] = build(T, "t_hook", {
        **WRONG[T], "q1_answer": right(T, "t_hook")["q1_answer"],
        "q3_answer": "x.register_hook(lambda g: g * factor / (factor + 1))\n"
                     "y.retain_grad()\nz.retain_grad()\nz.backward()"})
    for name, q3 in (("t_twice", "(x * -1).sum().backward()"),
                     ("t_fresh", "x.grad = None\n(x * factor).sum().backward()")):
        found[name] = build(T, name, {
            **WRONG[T], "q1_answer": right(T, name)["q1_answer"],
            "q3_answer": "y.retain_grad()\nz.retain_grad()\nz.backward()\n" + q3})
    found["d_reach"] = build(D, "d_reach", {
        "q1_answer": 'df = f"{open(\'/etc/hostname\').read()}"',
        "q2_answer": 'dg = f"{a:999999999}"',
        "q3_answer": "dh = f\"{9**9**9}\" + \"x\" * 10**9",
        "q4_answer": 'dk_dx = f"{(a, b)}"\ndk_dy = "2*y" * 99999'})
    return found


ATTACKS = ["t_fill", "d_reach", "t_hook", "t_twice", "t_fresh"]
BASELINE = {"t_hook": "t_q1_right", "t_twice": "t_q1_right", "t_fresh": "t_q1_right"}
HONEST = ["d_right", "d_honest", "b_honest", "p_honest"]


def _grade(folder: Path) -> dict:
    return grade_notebooks(folder, _submissions(), "red team 3")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return read_graded(shared(tmp_path_factory, "graded_red_team3", _grade))


def test_the_class_is_graded(graded):
    check_class_graded(graded, {"d_wrong", "t_wrong", "b_wrong", "t_q1_right", *HONEST,
                                *ATTACKS})  # (about 12 s on a free core)


@pytest.mark.parametrize("name", HONEST)
def test_honest_work_keeps_full_marks_unflagged(graded, name):
    """Before: d_honest scored 2 of 9 (its unpacked q4 and f-string q1, q2 read as not
    answered or as code), b_honest 3 of 8 (its shapes and scale by name), p_honest 15 of
    20, each with check() content; b_honest's feedback also said its data cell "raised
    NameError" in the code run."""
    result = graded["results"][name]
    check_full_marks_unflagged(result)


@pytest.mark.parametrize("name", ATTACKS)
def test_no_attack_scores_more_than_the_wrong_answers(graded, name):
    wrong, rows = book_rows(graded, BASELINE.get(name, name[0] + "_wrong")), book_rows(graded, name)
    assert rows.keys() == wrong.keys()
    for question, row in rows.items():
        if row["points"] == "":
            assert row["needs_review"] in ("", "yes"), row  # written, or held
            continue
        assert float(row["points"]) <= float(wrong[question]["points"] or 0), (name, row)


def test_a_hook_that_rewrites_a_gradient_gains_nothing_and_is_flagged(graded):
    """The hook made x.grad right over a wrong y: q3 scored 2 of 2, unflagged, unheld. Now
    q3 is judged on q2's y (0 here), and a hook is beyond --strict (held where it scores:
    a teacher's own code question)."""
    result = graded["results"]["t_hook"]
    q3 = next(q for q in result["questions"] if q["name"] == "q3")
    assert q3["points"] == 0
    assert any(".register_hook" in flag for flag in result["flags"]), result["flags"]


@pytest.mark.parametrize("name", ["t_twice", "t_fresh"])
def test_x_grad_counts_only_through_the_right_y(graded, name):
    """A second backward() of another sum over a wrong y ((x * -1).sum(): factor + 1 - 1),
    or a fresh graph after x.grad = None, both plain autograd, scored q3 (2 of 2)
    unflagged. q3 is now checked on q2's y and z: nothing to gain over a wrong y."""
    q3 = next(q for q in graded["results"][name]["questions"] if q["name"] == "q3")
    assert q3["points"] == 0 and "fix q2 first" in " ".join(f[1] for f in q3["findings"])


def test_nothing_but_the_scratch_folder_can_be_written(graded):
    """/dev/shm, /dev and the tmpfs over the system's packages refuse as file systems
    (EROFS), not by the permissions of whoever runs the grader: an ordinary user's
    sandbox owns them, and wrote 300 MB in 0.7 s there."""
    problems = " ".join(graded["results"]["t_fill"]["problems"])
    tried = dict(eval(problems.split("tried ", 1)[1].split(" (line")[0]))  # noqa: S307
    assert "/dev" in tried and "/dev/shm" in tried and len(tried) >= 4, tried
    assert set(tried.values()) == {"EROFS"}, tried


def test_what_python_computes_from_literals_and_the_numbers_is_read_bounded():
    known = {"a": 2, "b": -3, "c": 2, "m": 4, "s": 0.5}
    start = time.monotonic()
    read = written_answers([
        'dk_dx, dk_dy = "a*y", f"{2*a}*x"', 'df = f"{3*a}*x**2 + {b}"', "shape = (m, 1)",
        'q = f"{s:.2f}"', 'wide = f"{s:999999999}"', "big = 9**9**9", 'pair = f"{shape}"',
        'text = "x" * 10**9', "reached = open('/etc/hostname').read()", "a = 1",
        'again = f"{a}"', 'odd, = "x", "y"'],
        ("dk_dx", "dk_dy", "df", "shape", "q", "wide", "big", "pair", "text", "reached",
         "again", "odd"), known)
    assert time.monotonic() - start < 1
    assert {k: read[k] for k in ("dk_dx", "dk_dy", "df", "shape", "q", "again")} == {
        "dk_dx": "a*y", "dk_dy": "4*x", "df": "6*x**2 + -3", "shape": [4, 1], "q": "0.50",
        "again": "1"}  # (a rebound in a cell: as Python has it)
    for name in ("wide", "big", "pair", "text", "reached", "odd"):
        assert getattr(read[name], "kind", None) == "value computed by code", (name, read[name])


# --- the nbgrader kernel's notebook folder ---------------------------------------------------

LINKS = """\
import os
os.symlink({secret!r}, "notes.txt")
os.mkfifo("stuck.txt")
open("mine.txt", "w").write("an honest file")
print(sorted(os.listdir(".")))"""


def test_links_made_by_the_kernel_do_not_outlive_it(tmp_path, monkeypatch):
    """nbgrader autograde runs the kit's kernel in ``autograded/<student>/<assignment>/``;
    ``nbgrader generate_feedback`` then copies every file there but the notebooks into the
    student's feedback, following links (``shutil.copy``). A link the kernel made to the
    instructor's source notebook (dangling in the sandbox) handed the student its solutions
    and hidden tests, and a FIFO stopped the copying. The kernel's links, FIFOs, sockets
    are removed when it ends; its regular files stay."""
    nbclient = pytest.importorskip("nbclient")
    utils = pytest.importorskip("nbgrader.utils")
    import shutil

    prefix = tmp_path / "prefix"
    assert main(["kernelspec", "install", "--prefix", str(prefix)]) == 0
    monkeypatch.setenv("JUPYTER_PATH", str(prefix / "share" / "jupyter"))
    secret = tmp_path / "source" / "ps1" / "ps1.ipynb"
    secret.parent.mkdir(parents=True)
    secret.write_text("### BEGIN HIDDEN TESTS")
    graded = tmp_path / "autograded" / "eve" / "ps1"
    graded.mkdir(parents=True)
    (graded / "before.txt").symlink_to(secret.parent)  # the teacher's own: kept
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        LINKS.format(secret=str(secret)))])
    client = nbclient.NotebookClient(notebook, kernel_name="minigrad-kit-sandbox", timeout=20,
                                     resources={"metadata": {"path": str(graded)}})
    client.execute()
    assert "'notes.txt', 'stuck.txt'" in notebook.cells[0].outputs[0]["text"]  # it made them
    assert sorted(p.name for p in graded.iterdir()) == ["before.txt", "mine.txt"]
    feedback = tmp_path / "feedback" / "eve" / "ps1"  # what generate_feedback copies
    feedback.mkdir(parents=True)
    for name in utils.find_all_files(str(graded), ["*.ipynb", "before.txt"]):
        shutil.copy(name, feedback)
    assert [p.read_text() for p in feedback.iterdir()] == ["an honest file"]


def test_a_hook_is_beyond_the_allowlist_where_autograd_runs():
    from grader.scan import strict_findings

    for code in ("x.register_hook(lambda g: g * 2)",
                 "x.register_post_accumulate_grad_hook(print)",
                 "with torch.autograd.graph.saved_tensors_hooks(f, g):\n    pass"):
        assert any("hook" in f for f in strict_findings(code, autograd=True)), code
    assert strict_findings("y.retain_grad()\nz.backward()", autograd=True) == []
