"""Release's check runs that die as the system's out-of-memory killer ends a process
(SIGKILL): ``verify`` stands for ``grader.release.verify``, which release hands to its
worker processes by name (the pool's, and the process a run is made again alone in), so
each imports this module. The run of ``DYING`` dies for an instructor notebook whose name
ends with ``_oom.ipynb``, every time, and for one ending with ``_oom_once.ipynb`` the first
time only (a file beside it says it died); every other run is ``grader.release``'s own,
as it was when this module was imported (before a test put this one in its place)."""

import os
import signal
from pathlib import Path

from grader import release

VERIFY = release.verify
DYING = "twin-solution"


def verify(path, check, *arguments):
    notebook = Path(path)
    died = notebook.with_name(notebook.name + ".died")
    if check == DYING and (notebook.name.endswith("_oom.ipynb") or (
            notebook.name.endswith("_oom_once.ipynb") and not died.exists())):
        died.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return VERIFY(path, check, *arguments)
