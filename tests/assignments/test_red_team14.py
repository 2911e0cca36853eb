"""The fourteenth red team's submissions, graded as a teacher grades them (the real commands:
``minigrad-kit gradescope`` and the autograder as Gradescope runs it, ``minigrad-kit
grade``). What succeeded before, and the construction that closed it:

* **Gradescope's score forged where bubblewrap cannot run** (Docker's default seccomp
  profile refuses its namespaces, which the kit's own test of setup.sh takes as the usual
  container): the student's code then ran unsandboxed, as root, the grader's own user. An
  answer cell of assignment 3 forked a process of a session of its own (``os.setsid``),
  which the run's end (a kill of the run's process group) did not reach; it found
  ``/autograder`` in ``/proc/*/cmdline`` and, once the grader had written
  ``results/results.json``, wrote its own: 4 of 4 over the wrong answers, and neither the
  held code nor "the student's code ran WITHOUT the sandbox", the notes the teacher was to
  read, were left in it (measured). (``run.run_code``: a grader run by root runs the code
  as a user of its own with the sandbox or without it, ``sandbox.sandbox_user`` and
  ``confine``: no process or thread can start, and the grader's files are not its to
  write.)

* **honest work scored 0 while check() judged it right**: a formula built in two steps,
  ``dk_dx = "..."`` then ``dk_dx += " + ..."``, is the whole formula in the kernel, which
  ``check()`` judges, but the grader read the first part alone (an augmented assignment
  bound nothing it read): 0 of 3 for q4 of assignment 1, right in the notebook
  (measured). (``answers._bindings``: ``name += ...`` is read as ``name = name + ...``,
  computed from the text as the other answers given as data are; ``del name`` leaves it
  undefined, as in the kernel.)
"""

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right
from platform_tree import environment, failing_bwrap, gradescope_tree, run, submit
from shared_fixture import points_and_review

import grader.run
from grader.answers import written_answers
from grader.cli import main
from grader.run import Plan, run_code
from grader.sandbox import Sandbox, runner_packages
from grader.notebook import grade_id
from grader.source import load_source
from grader.variants import render

T = "tensors_and_gradients"
AS_ROOT = pytest.mark.skipif(
    os.geteuid() != 0, reason="the code runs as a user of its own where the grader is root "
    "(Gradescope's container); an ordinary user's grader has no other user to become")

# Forks a process of its own session that outlives the run and rewrites results.json once
# the grader has written it (for 30 s at most: a test that fails leaves nothing for long).
FORGER = r'''
import os, json, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in range(3, 256):
            try:
                os.close(fd)
            except OSError:
                pass
        root = None
        for pid in os.listdir("/proc"):
            try:
                args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            except OSError:
                continue
            if b"grader.gradescope" in args:
                root = args[args.index(b"grader.gradescope") + 1].decode()
        target = os.path.join(root, "results", "results.json")
        forged = json.dumps({"score": 4.0, "output": "All tests passed", "tests": []})
        end = time.time() + 30
        while time.time() < end:
            try:
                if "All tests passed" not in open(target).read():
                    open(target, "w").write(forged)
            except OSError:
                pass
            time.sleep(0.001)
    os._exit(0)
'''


@AS_ROOT
def test_code_run_without_the_sandbox_cannot_rewrite_gradescopes_results(tmp_path):
    """The autograder of assignment 3 in a container where bwrap cannot make namespaces
    (a stub that fails as it fails there): the forger's wrong answers score 0, and
    results.json keeps the teacher's notes (the held code, "no sandbox"), also a while
    after the autograder ended."""
    zipped = tmp_path / "autograder.zip"
    assert main(["gradescope", str(BY_ASSIGNMENT[T]), "--out", str(zipped), "--salt", "s",
                 "--timeout", "20", "--numbers-of", "ada"]) == 0
    root = gradescope_tree(tmp_path, zipped)
    (root / "minigrad-kit").symlink_to(Path(sys.prefix))
    path = failing_bwrap(tmp_path / "stubs")
    forged = {**WRONG[T], "q1_answer": FORGER + "\n" + WRONG[T]["q1_answer"]}
    submit(root, {"hw.ipynb": build(T, "ada", forged)})
    done = run([root / "run_autograder"], cwd=root,
               env=environment(PATH=path))
    assert done.returncode == 0, done.stdout + done.stderr
    time.sleep(1)  # (what the forger would have needed to write its own)
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0
    notes = {t["name"]: t["output"] for t in results["tests"] if t.get("visibility") == "hidden"}
    assert "For the teacher · no sandbox" in notes
    assert "but not write the grader's files nor start a process" in notes[
        "For the teacher · no sandbox"]
    assert "runs other programs (os.fork)" in notes["For the teacher · flagged code"]
    # (the fork itself failed: refused by the seccomp filter since red team 16, by the
    # limit on processes before)
    assert "PermissionError" in results["output"] or "BlockingIOError" in results["output"]


@AS_ROOT
def test_its_own_user_grades_from_a_kit_only_root_can_read(tmp_path, monkeypatch):
    """Without the sandbox, a root grader's run becomes its own user once the kit is
    loaded, so from a kit in a folder only root may enter (root's home, a pytest folder)
    an answer of assignment 3 is read back at its extract step, and the setup cell of
    assignment 2 runs: nothing is loaded after. (``grader.forward_only``, which
    ``data.encode`` reads, was loaded on first use, which the run's own user could not do:
    every question of assignment 3 scored 0.)"""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    copies = {name: Path(shutil.copytree(folder, private / folder.name))
              for name, folder in runner_packages().items()}
    monkeypatch.setattr(grader.run, "runner_packages", lambda autograd=True: copies)
    source = load_source(BY_ASSIGNMENT[T])
    steps = [{"kind": "cell", "source": "import minigrad as torch\nx = torch.ones(2, 3, "
              "requires_grad=True)\ntotal = x.sum()",
              "filename": "<cell 1>"}, {"kind": "extract", "question": "q1"}]
    plan = Plan(steps, source.module_text, source.module.name, {"q1": {"public": None}})
    run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    assert [step.status for step in run.steps] == ["ok", "ok"], run
    assert run.steps[1].data["public"]["dict"]["total"]["tensor"]["values"] == [6.0]
    # the setup cell of assignment 2 in its run without autograd: start() draws ada's numbers
    # with NumPy's random numbers, which nothing else there loads (it said "No module named
    # 'secrets'" in every submission's feedback)
    source = load_source(BY_ASSIGNMENT["broadcasting_and_reductions"])
    setup = next(c.source for c in render(source.notebook, source.assignment, "ada").cells
                 if grade_id(c) == "setup")
    assert 'student="ada"' in setup
    plan = Plan([{"kind": "cell", "source": setup, "filename": "<cell 2>"}],
                source.module_text, source.module.name, {}, autograd=False)
    run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    assert run.steps[0].status == "ok", run


def test_a_process_that_ends_while_it_is_counted_counts_nothing():
    """``confine`` counts the user's tasks in ``/proc``; without the sandbox's PID namespace
    it lists the machine's processes, which end while they are counted: such a one counts
    nothing (it raised FileNotFoundError, and the run could not start)."""
    from grader.confine import _tasks

    assert _tasks("4194305", os.getuid()) == 0  # (above pid_max: a process that has ended)
    assert _tasks(str(os.getpid()), os.getuid()) >= 1
    assert _tasks(str(os.getpid()), os.getuid() + 1) == 0


def _in_two_steps(cell: str) -> str:
    """Each ``name = "a + b"`` of ``cell`` as ``name = "a"`` then ``name += " + b"``."""
    lines = []
    for line in cell.splitlines():
        name, formula = line.split(" = ", 1)
        first, rest = formula[1:-1].split(" + ", 1)
        lines += [f'{name} = "{first}"', f'{name} += " + {rest}"']
    return "\n".join(lines)


def test_a_formula_built_with_plus_equals_is_read_whole(tmp_path):
    """Assignment 1, right, with every formula written in two steps (``+=``), graded by
    ``minigrad-kit grade``: 9 of 9, unheld, as check() judges it in the notebook."""
    D = "derive_it_by_hand"
    answers = {gid: _in_two_steps(cell) for gid, cell in right(D, "ada").items()}
    assert 'dk_dx += " + ' in answers["q4_answer"]
    folder = tmp_path / "submitted"
    folder.mkdir()
    (folder / "ada.ipynb").write_text(json.dumps(build(D, "ada", answers)))
    assert main(["grade", str(folder), "--out", str(tmp_path / "grades"), "--salt", "s",
                 "--jobs", "1", "--sandbox", "required"]) == 0
    graded = points_and_review(tmp_path / "grades")
    assert {q: points for (_s, q), (points, _r) in graded.items()} == {
        "q1": "2", "q2": "2", "q3": "2", "q4": "3"}
    assert not any(review for _points, review in graded.values())


def test_what_python_binds_is_read():
    """``+=`` of texts and numbers as Python computes it; ``del`` leaves the name undefined;
    what cannot be computed from the text stays "a value computed by code"."""
    read = written_answers(['df = "3*x**2"\ndf += " + 2"', 'n = 2\nn *= 3\ndg = f"{n}*x"',
                            'dh = "x"\ndel dh', 'dk = "x"\ndk += str(len("ab"))'],
                           ("df", "dg", "dh", "dk"))
    assert read["df"] == "3*x**2 + 2" and read["dg"] == "6*x"
    assert type(read["dh"]).__name__ == "Missing"
    assert read["dk"].kind == "value computed by code"


@AS_ROOT
@pytest.mark.parametrize("may", [True, False])
def test_without_the_sandbox_the_run_is_its_own_user_where_root_may_change_user(
        monkeypatch, may):
    """Without the sandbox, a root grader's run becomes a user of its own (the user it
    reports is not root's) where the grader may change user (CAP_SETUID and CAP_SETGID);
    a root without them runs it as itself, as before, rather than grade no code at all."""
    import grader.sandbox

    monkeypatch.setattr(grader.sandbox, "_may_change_user", lambda: may)
    source = load_source(BY_ASSIGNMENT[T])
    plan = Plan([{"kind": "cell", "source": "import os\nraise RuntimeError(f'uid={os.getuid()}')",
                  "filename": "<cell 1>"}], source.module_text, source.module.name, {})
    run = run_code(plan, sandbox=Sandbox("off", "a test"), timeout=20,
                   deadline=time.monotonic() + 60)
    assert run.steps[0].status == "error", run
    assert ("uid=0 " in run.steps[0].error) is not may


def test_a_root_whose_namespace_lacks_the_users_becomes_none_of_them(monkeypatch):
    """A rootless container's user namespace maps a few users (``0 1000 1``, ``1 100000
    65536``): the sandboxes' users, above 2,100,000,000, are not among them, and setuid to
    one would fail before any cell ran; the run then stays the grader's user."""
    import grader.sandbox

    monkeypatch.setattr(grader.sandbox, "_mapped", lambda path: [(0, 1), (1, 65536)])
    grader.sandbox._may_change_user.cache_clear()
    try:
        assert grader.sandbox._may_change_user() is False
    finally:
        grader.sandbox._may_change_user.cache_clear()
