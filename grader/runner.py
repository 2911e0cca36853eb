"""The grader's side inside a sandboxed code run: the cells, then the extract steps.

``run.py`` starts this in a fresh sandboxed process (``python -I -S``, with only the
standard library, NumPy, the kit's packages and, unless the run is without autograd,
minigrad) and writes it a plan on standard input: the cells to run, in the instructor
notebook's order, the question module, and where each question's extract step comes, with
its inputs. Then, before any student code runs, this module

* reads the whole plan and loads the question module;
* makes the namespace the cells run in (its own dict; the extract steps are handed the
  same object, never looked up by a name the cells could rebind);
* for a run without autograd, makes ``import minigrad`` and ``import torch`` give
  ``grader.forward_only`` (the real ones are not in the sandbox at all);
* caps its memory and sends what the cells print to ``/dev/null``;
* starts its one thread (interrupts), then becomes the sandbox's own user (when the grader
  is root) and allows no other process or thread (``confine.py``: ``RLIMIT_NPROC``
  at the number of tasks it has, counted in this sandbox only), so a fork or thread bomb
  fails at once; without the sandbox, it opens no file but the plan's ``files`` from then
  on (``confine.only_these_files``: the sandbox's view, none written), or, where the
  kernel has no Landlock, a root grader's run sees its working folder alone
  (``confine.enclose``).

It then runs each step and reports on the result pipe (``RESULTS``, a file descriptor the
grader passes): ``{"step": i, "started": true}``, then ``{"step": i, "status": ...}``, with
an extract step's data. Each frame is a length (10 digits), the HMAC-SHA256 of its JSON
with the run's own key (``MAC`` hex digits: the grader draws the key for each run and
sends it in the plan), and the JSON. Student code shares this process and can write on
the pipe's descriptor, but without the key it writes no frame the grader accepts: a
forged report, even in order, is tampering. (Code that reads the key out of this
process's memory reaches everything else there too: that is the allowlist's to hold.)
The hidden tests' inputs come sealed with the same key (a keystream of SHA-256) and are
opened only at their extract step, once its public part has been collected: the cells
before it, and the student's code called for the public checks, cannot read them in the
plan, not even through a format string that walks the frames.
A byte ``i`` on standard input interrupts the running step (``KeyboardInterrupt``), as a
timeout asks.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import json
import linecache
import os
import resource
import signal
import sys
import threading
import traceback

__all__ = ["main", "frame", "HEADER", "MAC", "signature", "sealing", "sealed", "unsealed"]

HEADER = 10  # digits of a frame's length
MAC = 64  # hex digits of its HMAC-SHA256


def signature(key: bytes, body: bytes) -> bytes:
    """The HMAC-SHA256 of ``body`` with ``key``, as ``MAC`` hex digits."""
    return hmac.new(key, body, hashlib.sha256).hexdigest().encode("ascii")


def sealing(key: bytes):
    """The keystream's seed for ``key`` (a hash object: its state is not readable from
    Python), for ``sealed`` and ``unsealed``."""
    return hashlib.sha256(b"minigrad-kit hidden inputs\0" + key)


def _keystream(seed, label: str, length: int) -> bytes:
    blocks, counter = [], 0
    while 32 * len(blocks) < length:
        block = seed.copy()
        block.update(label.encode() + b"\0" + counter.to_bytes(8, "big"))
        blocks.append(block.digest())
        counter += 1
    return b"".join(blocks)[:length]


def sealed(seed, label: str, value) -> str:
    """``value`` (JSON) enciphered with the keystream of ``seed`` and ``label``, as hex."""
    body = json.dumps(value).encode()
    return bytes(a ^ b for a, b in zip(body, _keystream(seed, label, len(body)))).hex()


def unsealed(seed, label: str, text: str):
    body = bytes.fromhex(text)
    return json.loads(bytes(a ^ b for a, b in zip(body, _keystream(seed, label, len(body)))))


def frame(message: dict, signer) -> bytes:
    """A frame for ``message``, signed with ``signer`` (an HMAC keyed with the run's key: the
    key itself is kept nowhere a name or a format string could read it)."""
    body = json.dumps(message, ensure_ascii=True, allow_nan=False).encode()
    mac = signer.copy()
    mac.update(body)
    signed = mac.hexdigest().encode("ascii") + body
    return f"{len(signed):0{HEADER}d}".encode() + signed


def main(results: int, user: str = "-") -> None:
    """Run the plan read from standard input, reporting to file descriptor ``results``;
    ``user``: the user to become (a root grader's sandbox, ``sandbox.sandbox_user``), or
    "-"."""
    control = sys.stdin.buffer
    size = int(control.read(HEADER))
    plan = json.loads(control.read(size))
    key = bytes.fromhex(plan.pop("key"))
    signer, seed = hmac.new(key, digestmod=hashlib.sha256), sealing(key)
    del key
    with open(os.path.basename(plan["module_name"]), "w", encoding="utf-8") as file:
        file.write(plan["module"])  # for start() in the cells (the sandbox's folder is new)
    _cap_memory(plan["memory_mb"])
    if not plan["autograd"]:
        _without_autograd()
    # (loaded before the run becomes its own user, who may not read the folders Python and
    # the kit are installed in: data.encode reads forward_only, the setup cell's start()
    # grader.student and NumPy's random numbers, which a run without autograd loads nowhere
    # else)
    import numpy.random  # noqa: F401

    from grader import forward_only, student  # noqa: F401
    from grader.kernel_side import collect
    from grader.questions import questions_from_text
    from grader.signals import default_interrupts

    assignment = questions_from_text(plan["module"], plan["module_name"])
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    default_interrupts()  # (whatever the grader's process had: see grader/signals.py)
    threading.Thread(target=_interrupts, args=(control,), daemon=True).start()
    sink = os.open(os.devnull, os.O_WRONLY)  # (before: an enclosed run sees no /dev)
    _no_new_tasks(plan["autograd"], None if user == "-" else int(user), plan.get("files"),
                  plan.get("enclose", False))
    if plan["autograd"]:
        _no_writable_handles()
    _quiet(sink)  # (after: a run that could not be confined says why, on its standard error)
    for index, step in enumerate(plan["steps"]):
        os.write(results, frame({"step": index, "started": True}, signer))
        report = {"step": index, "status": "ok"}
        try:
            if step["kind"] == "cell":
                linecache.cache[step["filename"]] = (len(step["source"]), None,
                                                     step["source"].splitlines(True),
                                                     step["filename"])
                exec(compile(step["source"], step["filename"], "exec", dont_inherit=True),
                     namespace)
            else:
                question = assignment.question(step["question"])
                inputs = plan["inputs"][step["question"]]
                report["data"] = {}
                if "public" in inputs:
                    report["data"]["public"] = collect(question, namespace, inputs["public"])
                if "hidden" in inputs:  # (sealed until now, and while the public part ran:
                    # the student's code, called there, could read this frame's locals
                    # through a format string, ``"{0._" + "_traceback_" + "_.tb_frame..."``,
                    # and returned the hidden inputs for the public checks to quote)
                    hidden = unsealed(seed, step["question"], inputs["hidden"])
                    report["data"]["hidden"] = collect(question, namespace, hidden)
                    del hidden
        except KeyboardInterrupt:
            report.update(status="interrupted")
        except BaseException as error:  # noqa: BLE001 (the student's code: anything at all)
            report.update(status="error", error=_said(error))
        os.write(results, frame(report, signer))


def _said(error: BaseException) -> str:
    """``NameError: name 'x' is not defined (line 3: y = x * 2)``, short."""
    try:
        text = f"{type(error).__name__}: {error}"[:500]
    except BaseException:  # noqa: BLE001 (a student's exception may refuse str())
        text = type(error).__name__
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if f.filename.startswith("<cell")]
    if frames and frames[-1].line:
        text += f" (line {frames[-1].lineno}: {frames[-1].line.strip()[:200]})"
    return text


def _cap_memory(megabytes: int) -> None:
    if megabytes:
        limit = megabytes * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ValueError, OSError):
            pass


def _no_new_tasks(autograd: bool, user: int | None, files: dict | None = None,
                  enclose: bool = False) -> None:
    """From here on, no process or thread can start (``sandbox.confine``, as ``user``);
    minigrad computes on this thread only (its big kernels would start threads); without
    the sandbox, ``files`` (``sandbox.runner_files``) are the only files it may open, and
    where the kernel has no Landlock to say so (``enclose``: a root grader's run), its
    working folder is all it sees (``confine.enclose``)."""
    from grader.confine import confine, enclose as enclosed, no_sockets, only_these_files

    if autograd:
        import minigrad
        minigrad.set_num_threads(1)
    tasks = enclosed() if enclose else None
    confine(user, tasks)
    no_sockets()  # (without the sandbox, no network namespace of its own: red team 15)
    if files is not None:  # (without it, every file a user may read: red team 16)
        only_these_files(files)


def _no_writable_handles() -> None:
    """In a run with autograd, no tensor shares its memory with a NumPy array: NumPy's view of
    a tensor (``np.asarray(t)``, ``np.ravel(t)``, ``np.atleast_1d(t)``, ``np.array(t,
    copy=False)``: ``Tensor.__array__``) is a read-only copy, and a tensor made from an array
    (``torch.as_tensor``, ``torch.asarray``, ``torch.from_numpy``, ``torch.frombuffer``) holds
    a copy of it.

    A shared array is a handle on the tensor's values, written where autograd does not see:
    ``g = np.asarray(x.grad); g[:] = 7`` put a gradient in place by hand, and ``h =
    np.asarray(w)`` before ``w.requires_grad = True`` changed w's values after y was
    computed from it, both unheld under --strict, whose rules (``scan.AUTOGRAD_BYPASS``)
    hold ``.numpy()``, ``.data`` and ``x.grad[...] =`` for that reason (red team 19). The
    read-only view that closed it was a view of the tensor's own memory: ``g.setflags(
    write=True)`` (or ``g.flags["WRITEABLE"] = True``, or its ``.base``) made it writable
    again, and an array handed to ``torch.as_tensor`` before ``x.requires_grad_()`` stayed
    the tensor's memory, all with allowed names (red team 20). So nothing is shared: every
    array is a copy, whatever the spelling, and whatever is done to it."""
    import numpy as np

    import minigrad
    from minigrad import creation

    shared = minigrad.Tensor.__array__

    def __array__(self, dtype=None):
        array = np.array(shared(self, dtype), copy=True)  # (its own memory)
        array.flags.writeable = False  # (a write raises, as it did: not silently lost)
        return array
    minigrad.Tensor.__array__ = __array__
    over_array, over_buffer = creation.from_numpy, creation.buffer_array

    def from_numpy(ndarray):
        return over_array(np.array(ndarray, copy=True) if isinstance(ndarray, np.ndarray)
                          else ndarray)  # (anything else: its own error)

    def buffer_array(*arguments):
        return np.array(over_buffer(*arguments), copy=True)
    # (as_tensor and asarray call creation.from_numpy, frombuffer creation.buffer_array)
    creation.from_numpy = minigrad.from_numpy = from_numpy
    creation.buffer_array = buffer_array


def _without_autograd() -> None:
    from grader import forward_only
    sys.modules["minigrad"] = sys.modules["torch"] = forward_only


def _quiet(sink: int) -> None:
    """What the cells print goes nowhere (``sink``: /dev/null; the grader reads the result
    pipe only)."""
    for descriptor in (1, 2):
        os.dup2(sink, descriptor)
    os.close(sink)


def _interrupts(control) -> None:
    """A byte from the grader interrupts the step that runs (a real SIGINT, so that a
    blocking call such as time.sleep is interrupted too)."""
    while control.read(1):
        os.kill(os.getpid(), signal.SIGINT)
