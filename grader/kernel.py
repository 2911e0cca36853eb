"""Run a notebook's code cells in a fresh kernel, as nbgrader does: timeouts, output cap.

``release`` uses it to run each instructor notebook as it is (and with its solutions
stubbed), the way real nbgrader runs it; grading runs code questions with ``run.py``
instead. ``run_cells(sources)`` starts a new ``python3`` kernel (nbclient) in an empty
scratch folder, under bubblewrap unless the sandbox is off (``sandbox.py``),
runs the cells in order and returns one ``CellRun`` per cell. Only a dead or
unresponsive kernel stops the run early:

* a cell that runs longer than ``timeout`` seconds is interrupted; if the
  kernel answers again within ``PROBE_SECONDS`` (or ``timeout``, if shorter)
  the run goes on, otherwise the kernel is shut down and the remaining cells
  are marked "skipped";
* output beyond ``output_limit`` characters per cell is dropped as it
  arrives (before anything is stored) and the cell is marked truncated;
* when the kernel dies, the remaining cells are marked "skipped".
"""

from __future__ import annotations

import asyncio
import os
import site
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from .sandbox import (NUMBA, Sandbox, hand_over, kernel_spec, sandbox_environment,
                      sandbox_user)

__all__ = ["CellRun", "run_cells", "kernel_environment", "PROBE_SECONDS"]

PROBE_SECONDS = 5  # after an interrupt, how long the kernel has to answer again


@dataclass
class CellRun:
    status: str  # "ok", "error", "timeout", "dead" (the kernel died here), "skipped"
    outputs: list = field(default_factory=list)
    truncated: bool = False
    error: str = ""  # "NameError: name 'x' is not defined"


class _CappedClient(NotebookClient):
    """nbclient, with output dropped past a per-cell character budget."""

    def __init__(self, nb, limit: int, **kwargs) -> None:
        super().__init__(nb, **kwargs)
        self.limit = limit
        self.used: dict[int, int] = {}
        self.truncated: set[int] = set()

    def output(self, outs, msg, display_id, cell_index):
        limit = self.limit
        if msg["msg_type"] == "error":  # always kept (it says the cell failed), but short
            content = msg["content"]
            msg = {**msg, "content": {**content, "evalue": str(content.get("evalue"))[:1000],
                                      "traceback": content.get("traceback", [])[-20:]}}
        used, size = self.used.get(cell_index, 0), _size(msg.get("content", {}))
        if used + size > limit and msg["msg_type"] != "error":
            self.truncated.add(cell_index)
            if msg["msg_type"] != "stream" or used >= limit:
                return None
            msg = {**msg, "content": {**msg["content"],
                                      "text": msg["content"]["text"][:limit - used]}}
            size = limit - used
        self.used[cell_index] = used + size
        return super().output(outs, msg, display_id, cell_index)


def _size(content: dict) -> int:
    if "text" in content:
        return len(content["text"])
    if "data" in content:
        return sum(len(str(value)) for value in content["data"].values())
    return sum(len(line) for line in content.get("traceback", [])) + 100


def kernel_environment() -> dict:
    """The grader's environment, one BLAS thread per kernel, and the kit importable (the
    kernel is the grader's own Python; a source checkout's folder is added to its path, an
    installed kit's site-packages is not)."""
    kit = str(Path(__file__).resolve().parents[1])
    if kit in {*site.getsitepackages(), site.getusersitepackages()}:
        kit = ""
    path = os.pathsep.join(p for p in (kit, os.environ.get("PYTHONPATH", "")) if p)
    environment = {name: value for name, value in os.environ.items()
                   if name != "MINIGRAD_KIT_SALT"}  # (the student's code can read it)
    return {**environment, "PYTHONPATH": path, "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1", "MINIGRAD_NUMBA": NUMBA}


def run_cells(sources: list[str], *, cwd, timeout: float = 30, output_limit: int = 100_000,
              startup_timeout: float = 60, sandbox: Sandbox = Sandbox("off", "not asked for")
              ) -> list[CellRun]:
    """Run ``sources`` in order in one fresh kernel (see the module docstring).

    ``cwd``: the kernel's scratch folder (with the sandbox on, the only folder it can
    write).
    """
    cells = [nbformat.v4.new_code_cell(source) for source in sources]
    notebook = nbformat.v4.new_notebook(cells=cells + [nbformat.v4.new_code_cell("pass")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    client = _CappedClient(notebook, output_limit, timeout=timeout,
                           kernel_name="python3", allow_errors=True, record_timing=False,
                           interrupt_on_timeout=False, startup_timeout=startup_timeout,
                           iopub_timeout=4, raise_on_iopub_timeout=False,
                           shutdown_kernel="immediate")
    runs: list[CellRun] = []
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-spec-") as spec:
        environment = kernel_environment()
        if sandbox.on:
            user = sandbox_user()
            client.km = _sandboxed_manager(Path(spec), Path(cwd), user)
            environment = sandbox_environment(Path(cwd))
            hand_over(user, Path(cwd))
        with client.setup_kernel(cwd=str(cwd), env=environment, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL):
            for index, cell in enumerate(cells):
                status = "ok"
                try:
                    client.execute_cell(cell, index)
                except CellTimeoutError:
                    status = "timeout"
                except DeadKernelError:
                    status = "dead"
                run_sync(_cancel_stray_tasks)()
                runs.append(_cell_run(cell, status, index, client))
                if status == "dead" or (status == "timeout" and not _answers_again(client)):
                    break
    runs += [CellRun("skipped") for _ in cells[len(runs):]]
    return runs


class _SandboxedManager(AsyncKernelManager):
    """Writes the connection file for the sandbox's user (``sandbox.sandbox_user``)."""

    sandbox_user = None

    def write_connection_file(self, **kwargs) -> None:
        super().write_connection_file(**kwargs)
        hand_over(self.sandbox_user, Path(self.connection_file))


def _sandboxed_manager(spec: Path, scratch: Path, user: int | None) -> AsyncKernelManager:
    """A kernel manager that starts bwrap (from a kernel spec) and talks over Unix sockets,
    the kernel becoming ``user`` (see ``confine.py``)."""
    name = kernel_spec(spec, scratch, user)
    manager = _SandboxedManager(
        kernel_name=name, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec /
                                                                                 "kernels")]),
        transport="ipc", ip=str(scratch / "ipc"),
        connection_file=str(scratch / "connection.json"))
    manager.sandbox_user = user
    return manager


async def _cancel_stray_tasks() -> None:
    """nbclient leaves a timed-out cell's output reader running; it would swallow the next
    cells' output. Cancel whatever is still pending on the client's event loop."""
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task():
            task.cancel()


def _answers_again(client: _CappedClient) -> bool:
    """Interrupt the kernel; does it run a trivial cell within PROBE_SECONDS?"""
    original = client.timeout
    try:
        run_sync(client.km.interrupt_kernel)()
        client.timeout = PROBE_SECONDS  # (however short the cells' timeout: a loaded machine)
        probe = len(client.nb.cells) - 1
        client.execute_cell(client.nb.cells[probe], probe)
        return True
    except (CellTimeoutError, DeadKernelError, RuntimeError):
        return False
    finally:
        client.timeout = original


def _cell_run(cell, status: str, index: int, client: _CappedClient) -> CellRun:
    error = ""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            value = output.get("evalue")
            error = f"{output.get('ename')}: {value}"[:500] if value else output.get("ename")
    if status == "ok" and error:
        status = "error"
    return CellRun(status, list(cell.get("outputs", [])), index in client.truncated, error)

