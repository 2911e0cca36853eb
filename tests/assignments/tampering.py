"""A second tampering set, written as a student trying to cheat would: 50 submissions.

Each ``Attack`` writes its file(s) into the submissions folder and names the honest
submission it rides on (``baseline``: by default the wrong answers, ``<short>_wrong``);
no attack may score more than its baseline unless its questions are held for review.
``kind`` groups them (the test file parametrises by it):

* ``notebook``  the notebook's JSON: forged outputs, metadata, roles, cells moved or
  repeated, malformed or huge files;
* ``formula``   answers given as data: parser escapes, objects instead of text,
  work that would stall the grader's own process;
* ``code``      code answers in the sandboxed run: hand-made gradients, forged frames,
  threads, signals, processes left behind, memory, output and disk floods;
* ``identity``  whose submission it is, and what the grader reads: symlinks, another
  student's folder, a classmate's variant.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import nbformat
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right

from grader import notebook as nbg

D, B, T, K = ("derive_it_by_hand", "broadcasting_and_reductions", "tensors_and_gradients",
              "implement_a_backward")
SHORT = {D: "d", B: "b", T: "t", K: "k"}
MARKER = "minigrad-kit-tampering-marker-7f3a"  # in what must not outlive or leak
SECRET = "TOP-SECRET-salt-of-the-teacher-91c4"


@dataclass
class Attack:
    name: str
    kind: str
    doc: str  # what it tries, in one line
    assignment: str
    answers: dict = field(default_factory=dict)  # grade_id -> source (over the wrong ones)
    baseline: str = ""  # the honest submission whose points it may not beat
    extra: dict = field(default_factory=dict)  # cells of one's own after a grade_id
    types: dict = field(default_factory=dict)  # grade_id -> "code"/"markdown"
    edit: Callable | None = None  # notebook -> notebook, after building
    raw: bytes | None = None  # the file's bytes, instead of a notebook
    place: Callable | None = None  # (submitted folder, attack) -> None, instead of one file

    @property
    def short(self) -> str:
        return SHORT[self.assignment]

    def write(self, submitted: Path) -> None:
        if self.place is not None:
            self.place(submitted, self)
            return
        target = submitted / f"{self.name}.ipynb"
        if self.raw is not None:
            target.write_bytes(self.raw)
            return
        nbformat.write(self.notebook(self.name), target)

    def notebook(self, student: str):
        notebook = build(self.assignment, student, {**WRONG[self.assignment], **self.answers},
                         self.extra, self.types)
        return self.edit(notebook) if self.edit else notebook


def _cells(notebook, gid):
    return [c for c in notebook.cells if nbg.grade_id(c) == gid]


def _all_tests_passed_outputs(notebook):
    """Every test cell carries a stored 'public checks passed' and no error."""
    for cell in notebook.cells:
        if nbg.role(cell) == "test":
            cell.execution_count = 7
            cell.outputs = [nbformat.v4.new_output(
                "display_data", data={"text/plain": f"{nbg.grade_id(cell)} · public checks "
                                                    "passed\nhidden tests passed: full marks",
                                      "application/json": {"points": 100, "passed": True}})]
    notebook.metadata["minigrad_kit"]["graded"] = {"points": 100}
    return notebook


def _points_raised(notebook):
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader")
        if meta:
            meta["points"] = 1000
            meta["grade"] = True if nbg.role(cell) == "test" else meta.get("grade", False)
    return notebook


def _numbers_made_an_answer(notebook):
    """The locked cell that sets the student's numbers made an answer cell, with numbers
    of one's choosing in it."""
    for cell in _cells(notebook, "numbers"):
        cell.metadata["nbgrader"].update(solution=True, locked=False, grade=False)
        cell.source = cell.source.split("=")[0] + "= 1, 1, 1"
    return notebook


def _locked_cell_answers(text):
    def edit(notebook):
        for cell in _cells(notebook, "numbers"):
            cell.source += "\n" + text
        return notebook
    return edit


def _test_cells_replaced(notebook):
    """Test cells emptied (``pass``) and their nbgrader checksums recomputed to match."""
    for cell in notebook.cells:
        if nbg.role(cell) == "test":
            cell.source = "pass"
            cell.metadata["nbgrader"]["checksum"] = nbg.checksum(cell)
    return notebook


def _kernel_and_assignment(notebook):
    notebook.metadata["kernelspec"] = {"name": "bash", "display_name": "Bash",
                                       "language": "bash"}
    notebook.metadata["language_info"] = {"name": "bash"}
    notebook.metadata["lang"] = "../../../../etc/passwd"
    return notebook


def _renamed_to(assignment):
    def edit(notebook):
        notebook.metadata["minigrad_kit"]["assignment"] = assignment
        return notebook
    return edit


def _tests_moved_first(notebook):
    """The test cells moved to the top, the answers after them, and each answer twice."""
    tests = [c for c in notebook.cells if nbg.role(c) == "test"]
    answers = [c for c in notebook.cells if nbg.role(c) == "answer"]
    rest = [c for c in notebook.cells if c not in tests]
    notebook.cells = tests + rest + [copy.deepcopy(c) for c in answers]
    return notebook


def _malformed_metadata(notebook):
    cells = notebook.cells
    cells[0].metadata["nbgrader"] = "grade everything"
    cells[1].metadata["nbgrader"] = {"grade_id": ["q1"], "grade": True, "points": "∞"}
    notebook.cells.append(nbformat.v4.new_code_cell("x = 1"))
    notebook.cells[-1].metadata["nbgrader"] = {"solution": True, "grade_id": {"q1": 1}}
    return notebook


def _many_cells(notebook):
    notebook.cells += [nbformat.v4.new_code_cell(f"v{i} = {i}") for i in range(20_000)]
    return notebook


def _huge_cell(notebook):
    notebook.cells.append(nbformat.v4.new_code_cell("s = '" + "A" * 15_000_000 + "'"))
    return notebook


def _deep_metadata_bytes(assignment):
    notebook = build(assignment, "n_deep_json", WRONG[assignment])
    text = nbformat.writes(notebook)
    deep = '{"a": ' * 200_000 + "1" + "}" * 200_000
    return text.replace('"metadata": {', '"metadata": {"deep": ' + deep + ", ", 1).encode()


# --- formulas: the right answer of the student's own numbers, with something more -------

def _right_plus(assignment, gid, name, more):
    """The right formula of ``name`` (in the answer cell ``gid``) with ``more`` added."""
    def answers(student):
        text = right(assignment, student)[gid]
        line = next(line for line in text.splitlines() if line.startswith(name))
        formula = line.split("=", 1)[1].strip().strip('"')
        return {gid: text.replace(line, f'{name} = "{formula} {more}"')}
    return answers


# --- the code runs ------------------------------------------------------------------------

GRADS_BY_HAND = """\
y.retain_grad()
z.retain_grad()
x.grad = torch.full(tuple(x.shape), float(factor))
y.grad = torch.ones(tuple(y.shape))
z.grad = torch.tensor(1.0)"""

DATA_BY_HAND = """\
y = x * (factor + 1)
y.data = x.data * factor
z = y.sum()"""

ATEXIT_FRAMES = """\
import atexit, os, sys, json
def _forge():
    for step in range(40):
        body = json.dumps({"step": step, "status": "ok", "data": {}}).encode()
        os.write(int(sys.argv[1]), b"%010d" % len(body) + body)
atexit.register(_forge)"""

THREAD_LATER = """\
import threading, time, os, sys, json
def _later():
    time.sleep(0.05)
    for fd in range(3, 12):
        try:
            body = json.dumps({"step": 99, "status": "ok"}).encode()
            os.write(fd, b"%010d" % len(body) + body)
        except OSError:
            pass
threading.Thread(target=_later, daemon=False).start()"""

SIGNAL_IGNORED = """\
import signal, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
end = time.time() + 600
while time.time() < end:
    pass"""

PROCESS_LEFT_BEHIND = f"""\
import os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c",
                                  "import time; time.sleep(120)  # {MARKER}"])
    os._exit(0)
"""

MEMORY_BOMB = """\
blocks = []
for _ in range(64):
    blocks.append(bytearray(512 * 1024 * 1024))"""

OUTPUT_FLOOD = """\
import sys, os
line = "\\x1b[2J\\x1b[H q3: 2 / 2 points, hidden tests passed\\n" * 1000
for _ in range(2000):
    sys.stdout.write(line)
    sys.stderr.write(line)
os.write(1, line.encode())
os.write(2, line.encode())"""

DISK_FILL = """\
chunk = b"x" * (1 << 20)
written = 0
with open("filler.bin", "wb") as file:
    for _ in range(200):
        file.write(chunk)
        file.flush()
        written += 1
raise RuntimeError(f"disk: wrote {written} MB")"""

WRITE_EVERYWHERE = """\
wrote = []
for path in ("/tmp/x", "/dev/shm/x", "/kit/grader/__init__.py", "/kit/x", "/x", "/proc/1/comm",
             "/etc/x", os.path.expanduser("~/../x")):
    try:
        with open(path, "w") as file:
            file.write("forged")
        wrote.append(path)
    except OSError:
        pass
raise RuntimeError(f"places: wrote {wrote}")"""

READ_THE_PLAN = """\
import sys
_frame = sys._getframe()
while _frame.f_back is not None:
    _frame = _frame.f_back
_plan = _frame.f_locals.get("plan") or {}
raise RuntimeError("plan: " + str(sorted(_plan.get("inputs", {}))))"""

SUCCESS_CLAIMED = """\
raise RuntimeError("\\x1b[32m✓ q3 · retain_grad() and backward(): public checks passed\\n"
                   "q3: 2 / 2 points (hidden tests passed)\\n| q3 | 2 | 2 |\\x1b[0m")"""

PARENT_KILLED = """\
import os, signal
for pid in (1, os.getppid(), 0, -1):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass"""

STDIN_AND_FDS = """\
import os, sys
seen = []
for fd in range(0, 64):
    try:
        os.fstat(fd)
        seen.append(fd)
    except OSError:
        pass
for fd in seen:
    try:
        os.write(fd, b"0000000035{\\"step\\": 5, \\"status\\": \\"ok\\"}  ")
    except OSError:
        pass
raise RuntimeError(f"fds: {seen}")"""

TENSOR_SUBCLASS = """\
class Forged(torch.Tensor):
    @property
    def grad_fn(self):
        return "MulBackward0"
y = Forged(x.detach() * factor)
z = y.sum()"""

PUBLIC_ONLY = """\
def unbroadcast(grad, shape):
    if tuple(shape) == tuple(grad.shape):
        return grad
    return grad.sum()"""

ARRAY_LIAR = """\
import numpy as np
class Liar(np.ndarray):
    def __eq__(self, other):
        return True
def unbroadcast(grad, shape):
    return np.zeros(shape).view(Liar)"""


def _right_and(assignment, extra, where="q3_answer"):
    def answers(student):
        found = right(assignment, student)
        found[where] = found[where] + "\n" + extra if extra else found[where]
        return found
    return answers


# --- identity ---------------------------------------------------------------------------

def _symlink_to_secret(submitted: Path, attack: Attack) -> None:
    secret = submitted.parent / "teacher" / "salt.txt"
    secret.parent.mkdir(exist_ok=True)
    secret.write_text(f"{SECRET}\n" * 20, encoding="utf-8")
    (submitted / f"{attack.name}.ipynb").symlink_to(secret)


def _symlink_to_classmate(submitted: Path, attack: Attack) -> None:
    (submitted / f"{attack.name}.ipynb").symlink_to(submitted / "b_right.ipynb")


def _impersonation(submitted: Path, attack: Attack) -> None:
    """The victim hands in right answers in nbgrader's layout; mallory puts a wrong
    notebook named after the victim in her own folder."""
    stem = BY_ASSIGNMENT[attack.assignment].stem
    victim = submitted / "i_victim" / attack.assignment
    victim.mkdir(parents=True)
    nbformat.write(build(attack.assignment, "i_victim", right(attack.assignment, "i_victim")),
                   victim / f"{stem}.ipynb")
    mine = submitted / "i_zmallory" / attack.assignment
    mine.mkdir(parents=True)
    nbformat.write(build(attack.assignment, "i_zmallory", WRONG[attack.assignment]),
                   mine / f"{stem}.ipynb")
    nbformat.write(build(attack.assignment, "i_victim", WRONG[attack.assignment]),
                   mine / "i_victim.ipynb")


def attacks() -> list[Attack]:
    """Every attack (answers given as functions of the student are resolved here)."""
    found = [
        # --- the notebook's JSON -----------------------------------------------------------
        Attack("n_forged_outputs", "notebook", "stored outputs say every check passed", D,
               edit=_all_tests_passed_outputs),
        Attack("n_points_raised", "notebook", "every cell's nbgrader points set to 1000", D,
               edit=_points_raised),
        Attack("n_numbers_answer", "notebook",
               "the locked numbers cell made an answer cell with easier numbers", D,
               answers={"q1_answer": 'df = "3*x**2 + 1 + cos(x)"'},
               edit=_numbers_made_an_answer),
        Attack("n_locked_answers", "notebook",
               "the right answers written into a locked cell (not an answer cell)", D,
               edit=lambda nb: nb),  # filled in below (needs the student's answers)
        Attack("n_tests_emptied", "notebook",
               "test cells replaced by pass, with nbgrader checksums recomputed", T,
               edit=_test_cells_replaced),
        Attack("n_kernel_lang", "notebook",
               "kernelspec bash, lang metadata a path out of the catalogs", T,
               edit=_kernel_and_assignment),
        Attack("n_other_assignment", "notebook",
               "the notebook claims to be another assignment", D, edit=_renamed_to(K)),
        Attack("n_unknown_assignment", "notebook",
               "the notebook names an assignment that is a path", D,
               edit=_renamed_to("../../../grades/results")),
        Attack("n_moved_and_doubled", "notebook",
               "test cells moved first, every answer cell repeated at the end", T,
               edit=_tests_moved_first),
        Attack("n_malformed_metadata", "notebook",
               "nbgrader metadata of the wrong types (a string, a list, a dict id)", D,
               edit=_malformed_metadata),
        Attack("n_invalid_json", "notebook", "a truncated JSON file", D,
               raw=b'{"cells": [{"cell_type": "code", "source": "df = \\"3*x**2'),
        Attack("n_invalid_utf8", "notebook", "bytes that are not UTF-8", D,
               raw=b'{"cells": [], "metadata": {"x": "\xff\xfe\xc0"}, "nbformat": 4}'),
        Attack("n_deep_json", "notebook", "metadata nested 200,000 levels deep", D,
               raw=b""),  # filled in below
        Attack("n_many_cells", "notebook", "20,000 extra code cells", T, edit=_many_cells),
        Attack("n_huge_cell", "notebook", "a 15 MB cell of one's own", D, edit=_huge_cell),
        Attack("n_markdown_answer_code", "notebook",
               "the written answer made a code cell that forges gradients", T,
               answers={"q4": GRADS_BY_HAND}, types={"q4": "code"}),
        # --- answers given as data -----------------------------------------------------------
        Attack("f_dunder", "formula", "a formula that reaches x.__class__", D,
               answers={"q1_answer": 'df = "x.__class__.__mro__[1]"'}),
        Attack("f_lambda", "formula", "a lambda, a comprehension and a walrus", D,
               answers={"q1_answer": 'df = "(lambda: 3)()"', "q2_answer":
                        'dg = "[t for t in (x,)][0]"', "q3_answer": 'dh = "(t := x)"'}),
        Attack("f_lookalike", "formula", "Cyrillic and full-width letters for sin, exp", D,
               answers={"q1_answer": 'df = "ѕіn(x) + ｅｘｐ(x)"'}),
        Attack("f_object", "formula", "the answer an object with __eq__, __str__, __float__", D,
               answers={"q1_answer": "class Everything(str):\n"
                                     "    def __eq__(self, other):\n        return True\n"
                                     "    __float__ = lambda self: 0.0\n"
                                     "df = Everything('3*x**2')"}),
        Attack("f_not_text", "formula", "bytes, a tuple, a dict, a set, a number", D,
               answers={"q1_answer": 'df = b"3*x**2"', "q2_answer": 'dg = ("exp(x)",)',
                        "q3_answer": 'dh = {"x": 1}', "q4_answer": "dk_dx = {1}\ndk_dy = 2"}),
        Attack("f_nan_inf", "formula", "formulas whose value is nan or inf", D,
               answers={"q1_answer": 'df = "1e999 - 1e999"', "q2_answer": 'dg = "0/0"',
                        "q3_answer": 'dh = "x**-1e999"'}),
        Attack("f_sine_of_huge", "formula",
               "the right answer plus a sine of 10**999999 (which mpmath would reduce "
               "modulo pi for hours)", D, baseline="d_right"),
        Attack("f_power_tower", "formula",
               "the right answer plus a tower of powers (huge exponents)", D,
               baseline="d_right"),
        Attack("f_broadcast_bomb", "formula",
               "the right answer plus a broadcast of 27,000 elements at 200 digits", B,
               baseline="b_right"),
        Attack("f_comparison_trick", "formula",
               "a formula right only near the check's inputs (comparisons)", D,
               answers={"q1_answer": 'df = "(x > 0.99)*(x < 1.01)*3"'}),
        Attack("f_elsewhere", "formula",
               "right answers in a cell of one's own, after the wrong ones", D),
        Attack("f_magics", "formula",
               "the answer behind a line magic and a shell command", D,
               answers={"q1_answer": '%store df\n!cat /etc/passwd\ndf = "3*x**2"'}),
        # --- the code runs ------------------------------------------------------------------
        Attack("c_grads_by_hand", "code",
               "q3's gradients assigned by hand: retain_grad() without backward()", T,
               baseline="t_no_backward"),
        Attack("c_data_by_hand", "code", "q2's y made wrong, then its .data overwritten", T,
               baseline="t_wrong_factor"),
        Attack("c_atexit", "code", "an atexit hook that writes result frames", T),
        Attack("c_thread_later", "code", "a thread that writes frames after its cell", T),
        Attack("c_signal_ignored", "code", "SIGINT and SIGTERM ignored, then a busy loop", T),
        Attack("c_process_left", "code", "a double-forked, setsid process that sleeps on", T),
        Attack("c_memory_bomb", "code", "32 GB of bytearrays", T),
        Attack("c_output_flood", "code", "60 MB of ANSI escapes on stdout and stderr", T),
        Attack("c_disk_fill", "code", "200 MB written into the working folder", T),
        Attack("c_write_everywhere", "code", "writes to /tmp, /dev/shm, /kit, /, /proc, /etc", T),
        Attack("c_read_the_plan", "code", "the runner's plan (hidden inputs) read from a frame",
               T),
        Attack("c_success_claimed", "code", "an exception whose text claims full marks", T),
        Attack("c_parent_killed", "code", "SIGKILL to pid 1, the parent, the group, everyone", T),
        Attack("c_stdin_and_fds", "code", "frames written to every open file descriptor", T),
        Attack("c_tensor_subclass", "code", "a Tensor subclass that claims a grad_fn", T),
        Attack("c_public_only", "code", "unbroadcast right only when nothing is broadcast", B),
        Attack("c_array_liar", "code", "unbroadcast returns an ndarray subclass equal to all", B),
        # --- whose it is, what is read ------------------------------------------------------
        Attack("s_symlink_secret", "identity",
               "the submission a symlink to a teacher's file (is its text echoed?)", D,
               place=_symlink_to_secret),
        Attack("s_symlink_classmate", "identity",
               "the submission a symlink to a classmate's notebook", B, place=_symlink_to_classmate),
        Attack("i_zmallory", "identity",
               "a notebook named after another student in one's own nbgrader folder", T,
               place=_impersonation),
        Attack("s_classmate_variant", "identity",
               "a classmate's right answers (their numbers) handed in as one's own", D),
        Attack("s_published_variant", "identity",
               "the locked numbers edited to the published ones, with the published answers",
               K),
    ]
    return [_resolve(a) for a in found]


def _resolve(attack: Attack) -> Attack:
    """Answers that depend on the student's own numbers."""
    name, student = attack.name, attack.name
    if name == "n_locked_answers":
        attack.edit = _locked_cell_answers(right(D, student)["q1_answer"])
    elif name == "n_deep_json":
        attack.raw = _deep_metadata_bytes(D)
    elif name == "f_sine_of_huge":
        attack.answers = _right_plus(D, "q1_answer", "df", "+ (sin(10**999999) > 2)")(student)
    elif name == "f_power_tower":
        attack.answers = _right_plus(D, "q1_answer", "df",
                                     "+ (((10**999999)**999999)**999999 < 0)")(student)
    elif name == "f_broadcast_bomb":
        u = "(a*b)[...,None,None,None,None]*(a*b)[...,None,None]*(a*b)"
        attack.answers = _right_plus(B, "q2_answer", "a_grad",
                                     f"+ 0*sum({u}*{u}/{u})")(student)
    elif name == "f_elsewhere":
        attack.extra = {"q4_answer": right(D, student)["q1_answer"]}
    elif name == "c_grads_by_hand":
        attack.answers = _right_and(T, None)(student)
        attack.answers["q3_answer"] = GRADS_BY_HAND
    elif name == "c_data_by_hand":
        attack.answers = {**_right_and(T, None)(student), "q2_answer": DATA_BY_HAND}
    elif name == "s_classmate_variant":
        attack.answers = right(D, "a_classmate")
    elif name == "s_published_variant":
        from keys import published
        attack.answers = published(K)
        attack.edit = _numbers_made_an_answer
    elif attack.kind == "code" and attack.assignment == T:
        code = {"c_atexit": ATEXIT_FRAMES, "c_thread_later": THREAD_LATER,
                "c_signal_ignored": SIGNAL_IGNORED, "c_process_left": PROCESS_LEFT_BEHIND,
                "c_memory_bomb": MEMORY_BOMB, "c_output_flood": OUTPUT_FLOOD,
                "c_disk_fill": DISK_FILL, "c_write_everywhere": WRITE_EVERYWHERE,
                "c_read_the_plan": READ_THE_PLAN, "c_success_claimed": SUCCESS_CLAIMED,
                "c_parent_killed": PARENT_KILLED, "c_stdin_and_fds": STDIN_AND_FDS,
                "c_tensor_subclass": TENSOR_SUBCLASS}[name]
        where = "q2_answer" if name == "c_tensor_subclass" else "q1_answer"
        attack.answers = {where: WRONG[T][where] + "\n" + code}
    elif name == "c_public_only":
        attack.answers = {"q4_answer": PUBLIC_ONLY}
    elif name == "c_array_liar":
        attack.answers = {"q4_answer": ARRAY_LIAR}
    return attack


def baselines() -> dict:
    """The honest submissions the attacks are measured against: name -> (assignment,
    answers)."""
    found = {f"{short}_wrong": (assignment, WRONG[assignment])
             for assignment, short in SHORT.items()}
    t_right = right(T, "t_no_backward")
    found["t_no_backward"] = (T, {**t_right, "q3_answer": "y.retain_grad()\nz.retain_grad()"})
    t_right = right(T, "t_wrong_factor")
    found["t_wrong_factor"] = (T, {**t_right, "q2_answer": "y = x * (factor + 1)\nz = y.sum()"})
    found["b_right"] = (B, right(B, "b_right"))
    found["d_right"] = (D, right(D, "d_right"))
    return found
