"""Run a code question's cells in a fresh sandboxed process, and read back what it handed.

``run_code(plan)`` starts ``runner.py`` under bubblewrap (``sandbox.runner_argv``) with a
view of the system's libraries, the Python standard library, NumPy and the kit's own
packages, nothing else: no other package of the machine (neither PyTorch nor JupyterLab),
no instructor notebook, no other submission. In a run without autograd, minigrad is not
there either. It sends the plan (``Plan``: cells, the question module, where the extract
steps come) and reads the result pipe, frame by frame:

* every frame must carry the HMAC of its JSON with the key drawn for this run (sent in
  the plan; ``runner.py``): student code that writes on the pipe without it is
  **tampering**, whatever it writes; the hidden tests' inputs travel sealed with it,
  opened at their extract step only;
* each step must report exactly "started", then "done" (with an extract step's data: an
  object of its parts, "public" and "hidden"), in order; any other frame, an unreadable
  one (not JSON, or nested past what the parser reads), or more than ``LIMIT`` characters, is
  **tampering**: the run stops there and every question it serves is held for review;
* a step that runs longer than ``timeout`` is interrupted; if the process does not answer
  within ``PROBE_SECONDS`` it is killed and the remaining steps are "skipped";
* when the submission's time budget (``Budget``) is spent, the process is killed: the step
  is "budget" and the rest "skipped";
* a process that dies leaves its step "dead" and the rest "skipped".

Time is counted by ``clock.Clock``: the seconds on the wall less those the run's processes
waited for a CPU, so that a busy machine does not stop honest work, while a loop or a sleep
is stopped as on an idle one (and every limit after ``clock.BACKSTOP`` times as many
seconds on the wall at the latest).

What the cells print is thrown away inside the sandbox; only the pipe counts.
"""

from __future__ import annotations

import hmac
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .clock import BACKSTOP, Clock
from .confine import landlock_abi
from .runner import HEADER, MAC, sealed, sealing, signature
from .sandbox import (NUMBA, Sandbox, encloses, hand_over, runner_argv, runner_files,
                      runner_packages, sandbox_environment, sandbox_user, sweep,
                      unsandboxed_user)

__all__ = ["Plan", "StepRun", "CodeRun", "Budget", "run_code", "confinement", "PROBE_SECONDS",
           "LIMIT"]

PROBE_SECONDS = 5  # after an interrupt, how long the process has to answer
POLL = 0.2  # seconds between two readings of the run's clock
LIMIT = 20_000_000  # characters the grader reads from one run's pipe
BOOTSTRAP = ("import sys; sys.path.extend(sys.argv[3:]); from grader.runner import main; "
             "main(int(sys.argv[1]), sys.argv[2])")


@dataclass
class Plan:
    """What one sandboxed run does: ``steps`` are ``{"kind": "cell", "source", "filename"}``
    or ``{"kind": "extract", "question"}``, in order."""

    steps: list
    module: str  # the question module's text
    module_name: str  # its file name, e.g. "broadcasting_and_reductions.py"
    inputs: dict  # question -> {"public": ..., "hidden": ...}
    autograd: bool = True
    memory_mb: int = 4096


@dataclass
class StepRun:
    status: str  # "ok", "error", "timeout", "budget", "dead", "skipped"
    error: str = ""
    data: dict | None = None  # an extract step's data: {"public": ..., "hidden": ...}
    killed: bool = False  # interrupted, did not answer, and was killed


@dataclass
class CodeRun:
    steps: list = field(default_factory=list)  # one StepRun per plan step
    tampering: list = field(default_factory=list)  # why the pipe cannot be trusted
    startup: str = ""  # why the process could not start its plan, if it could not


class Budget:
    """A submission's time for its code runs: ``seconds`` (of ``clock.Clock``), which its
    runs spend in turn, and ``BACKSTOP`` times as many seconds on the wall for all of them
    (or until ``deadline``, a ``time.monotonic()``)."""

    def __init__(self, seconds: float, deadline: float | None = None):
        self.seconds = seconds  # left, of the runs' clocks
        self.deadline = time.monotonic() + BACKSTOP * seconds if deadline is None else deadline

    def spent(self) -> bool:
        return self.seconds <= 0 or time.monotonic() >= self.deadline


def run_code(plan: Plan, *, sandbox: Sandbox, timeout: float, budget: Budget | None = None,
             deadline: float | None = None) -> CodeRun:
    """Run ``plan`` (see the module docstring): each step for at most ``timeout`` seconds
    (of ``clock.Clock``), all of them within ``budget`` (whose seconds the run spends) or,
    without one, until ``deadline`` (a ``time.monotonic()``) on the wall."""
    if budget is None:
        budget = Budget(float("inf"), deadline)
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-run-",
                                     ignore_cleanup_errors=True) as folder:
        scratch = Path(folder)
        (scratch / plan.module_name).write_text(plan.module, encoding="utf-8")
        read_end, write_end = os.pipe()
        packages = runner_packages(autograd=plan.autograd)
        # Run by root, the student's code is a user of its own, with or without the sandbox
        # (``confine``: no process or thread can start). Without it, as root, a cell forked
        # a process of a session of its own, which outlived the run and rewrote Gradescope's
        # results.json once the grader had written it: 4 of 4 over wrong answers, and the
        # teacher's notes (the held code, "no sandbox") gone (red team 14).
        files, enclose = confinement(sandbox, scratch, packages)
        if sandbox.on:
            paths = ["/kit"]
            command = runner_argv(scratch, packages)
            environment, user = sandbox_environment(scratch), sandbox_user()
        else:
            user = unsandboxed_user()
            paths = sorted({str(p.parent) for p in packages.values()})
            command, environment = [], {"PATH": os.environ.get("PATH", ""), "HOME": folder,
                                        "LANG": "C.UTF-8", "OMP_NUM_THREADS": "1",
                                        "OPENBLAS_NUM_THREADS": "1", "MINIGRAD_NUMBA": NUMBA}
            hand_over(user, scratch)  # (its working folder; the tmpfs of a sandbox is 01777)
        command += [str(Path(sys.executable).resolve()), "-I", "-S", "-B", "-c", BOOTSTRAP,
                    str(write_end), "-" if user is None else str(user), *paths]
        try:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, pass_fds=(write_end,),
                                       cwd=folder, env=environment, start_new_session=True)
        finally:
            os.close(write_end)
        try:
            return _Reader(process, read_end, plan, timeout, budget, files,
                           enclose).read()
        finally:
            os.close(read_end)
            _kill(process)
            process.wait()
            process.stderr.close()
            process.stdin.close()
            if user is not None and not sandbox.on:
                sweep(user, scratch)  # (what it left where every user may write)


def confinement(sandbox: Sandbox, scratch: Path, packages: dict) -> tuple:
    """(files, enclose) of a code run (``runner._no_new_tasks``): with the sandbox, neither
    (bubblewrap's view is the sandbox's own); without it, the files the sandbox would show
    (``sandbox.runner_files``: Landlock, red team 16), or where the kernel has no Landlock,
    a root grader's run enclosed in its working folder (``confine.enclose``)."""
    if sandbox.on:
        return None, False
    if landlock_abi():
        return runner_files(scratch.resolve(), packages), False
    return None, encloses()


def _kill(process) -> None:
    """The process and everything it started (its own session)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Reader:
    """Feeds the plan, reads the frames, enforces the time limits."""

    def __init__(self, process, pipe: int, plan: Plan, timeout: float, budget: Budget,
                 files: dict | None = None, enclose: bool = False):
        self.process, self.pipe, self.plan, self.files = process, pipe, plan, files
        self.enclose = enclose
        self.timeout, self.budget, self.clock = timeout, budget, Clock(process.pid)
        self.end = budget.seconds  # (the run's clock when the budget is spent)
        self.buffer, self.read_so_far, self.stderr = b"", 0, b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(pipe, selectors.EVENT_READ, "results")
        self.selector.register(process.stderr, selectors.EVENT_READ, "stderr")
        self.result = CodeRun()
        self.key = os.urandom(32)

    def read(self) -> CodeRun:
        seed = sealing(self.key)
        inputs = {question: {**parts, **({"hidden": sealed(seed, question, parts["hidden"])}
                                          if "hidden" in parts else {})}
                  for question, parts in self.plan.inputs.items()}
        document = json.dumps({"key": self.key.hex(), "steps": self.plan.steps,
                               "module": self.plan.module,
                               "module_name": self.plan.module_name,
                               "inputs": inputs, "autograd": self.plan.autograd,
                               "memory_mb": self.plan.memory_mb,
                               "files": self.files, "enclose": self.enclose}).encode()
        try:
            self.process.stdin.write(frame_bytes(document))
            self.process.stdin.flush()
        except OSError:
            pass  # it died already: the frames will say so
        steps = self.plan.steps
        for index in range(len(steps)):
            run = self.step(index)
            self.result.steps.append(run)
            if run.status in ("dead", "budget") or run.killed or self.result.tampering:
                break
        self.budget.seconds -= self.clock.seconds()
        self.result.steps += [StepRun("skipped") for _ in steps[len(self.result.steps):]]
        if not any(s.status != "skipped" for s in self.result.steps) or \
                (self.result.steps and self.result.steps[0].status == "dead"):
            self.result.startup = self.stderr.decode(errors="replace").strip()[-600:]
        return self.result

    def step(self, index: int) -> StepRun:
        started = self.next_frame(self.limit(max(self.timeout, 30)))
        if self.result.tampering:
            return StepRun("dead")
        if not isinstance(started, dict):
            return StepRun("budget" if started == "timeout" else started)
        if started != {"step": index, "started": True}:
            return self.tampered(index, started)
        done = self.next_frame(self.limit(self.timeout))
        interrupted = False
        if done == "timeout" and not self.spent():
            interrupted = True
            self.interrupt()
            done = self.next_frame(self.limit(PROBE_SECONDS))
            if done == "timeout":
                _kill(self.process)
                return StepRun("timeout", killed=True)
        if self.result.tampering:
            return StepRun("dead")
        if not isinstance(done, dict):
            return StepRun("budget" if done == "timeout" else done)
        expected = {"step", "status", "error", "data"}
        extract = self.plan.steps[index]["kind"] == "extract"
        if done.get("step") != index or not set(done) <= expected or \
                done.get("status") not in ("ok", "error", "interrupted") or \
                (("data" in done) != (extract and done.get("status") == "ok")) or \
                ("data" in done and not (isinstance(done["data"], dict)
                                         and set(done["data"]) <= {"public", "hidden"})):
            return self.tampered(index, done)
        status = "timeout" if interrupted else done["status"]
        return StepRun(status, str(done.get("error", ""))[:700], done.get("data"))

    def tampered(self, index: int, found) -> StepRun:
        self.result.tampering.append(f"step {index}: {str(found)[:120]}")
        _kill(self.process)
        return StepRun("dead")

    def interrupt(self) -> None:
        try:
            self.process.stdin.write(b"i")
            self.process.stdin.flush()
        except OSError:
            pass

    def limit(self, seconds: float) -> tuple:
        """(the run's clock, monotonic time) at which a wait of ``seconds`` ends, within the
        budget."""
        return (min(self.clock.seconds() + seconds, self.end),
                min(time.monotonic() + BACKSTOP * seconds, self.budget.deadline))

    def spent(self) -> bool:
        return self.clock.seconds() >= self.end or time.monotonic() >= self.budget.deadline

    def next_frame(self, until: tuple):
        """The next frame (a dict), or "timeout" (``until``, from ``limit``, has come) or
        "dead" (the pipe ended); what cannot be a frame goes to ``tampering`` (and "dead"
        is returned)."""
        clock_until, wall_until = until
        while True:
            if len(self.buffer) >= HEADER:
                if not self.buffer[:HEADER].isdigit():
                    return self.broken("a frame without a length")
                size = int(self.buffer[:HEADER])
                if len(self.buffer) >= HEADER + size:
                    signed, self.buffer = self.buffer[HEADER:HEADER + size], \
                        self.buffer[HEADER + size:]
                    mac, body = signed[:MAC], signed[MAC:]
                    if not hmac.compare_digest(mac, signature(self.key, body)):
                        return self.broken("a frame not signed with the run's key")
                    try:
                        message = json.loads(body)
                    except (ValueError, RecursionError, MemoryError):  # (nested too deep)
                        return self.broken("a frame that is not JSON")
                    if not isinstance(message, dict):
                        return self.broken("a frame that is not an object")
                    return message
            left = wall_until - time.monotonic()
            if left <= 0 or self.clock.seconds() >= clock_until:
                return "timeout"
            for key, _events in self.selector.select(min(left, POLL)):
                if key.data == "stderr":
                    chunk = os.read(key.fd, 65536)
                    self.stderr = (self.stderr + chunk)[-4000:]
                    if not chunk:
                        self.selector.unregister(key.fd)
                    continue
                chunk = os.read(self.pipe, 1 << 20)
                if not chunk:
                    return "dead"
                self.read_so_far += len(chunk)
                if self.read_so_far > LIMIT:
                    return self.broken(f"more than {LIMIT:,} characters")
                self.buffer += chunk


    def broken(self, why: str) -> str:
        self.result.tampering.append(why)
        _kill(self.process)
        return "dead"


def frame_bytes(body: bytes) -> bytes:
    return f"{len(body):0{HEADER}d}".encode() + body
