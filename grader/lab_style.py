"""JupyterLab as ``minigrad-kit lab`` (and so ``make lab``) starts it: printed lines break
between words.

JupyterLab draws what a cell prints (stdout, stderr, a traceback) in a ``pre`` with
``word-break: break-all``, so a line wider than the output area is cut at its edge inside a
word ("MulBac" over "kward0", audit 21). The rule below breaks such a line at a space, and
inside a word only when the word alone is wider than the line.

JupyterLab loads one style sheet of the user's, ``custom/custom.css``, when its option
``LabApp.custom_css`` is on, from the folders in the server's ``static_custom_path``: only
the user's Jupyter configuration folder, and that list is not an option. So this module is a
Jupyter server extension, switched on (with ``custom_css``) by the configuration folder
``grader.lab.lab_defaults`` writes for ``minigrad-kit lab``: it writes the rule, followed by
the user's own ``custom.css`` if there is one (which still applies), into a folder of the
server's runtime folder, and puts that folder first in ``static_custom_path``. A plain
``jupyter lab`` is left as it is.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["CSS", "EXTENSION"]

EXTENSION = "grader.lab_style"
# (``body``: JupyterLab's own rule comes later in the page, and would win at equal weight)
CSS = """/* minigrad-kit: printed lines break between words, not inside one */
body .jp-OutputArea-output pre {
  word-break: normal;
  overflow-wrap: anywhere;
}
"""


def _jupyter_server_extension_points():
    return [{"module": EXTENSION}]


def _load_jupyter_server_extension(serverapp) -> None:
    mine = Path(serverapp.runtime_dir) / "minigrad-kit-custom"
    mine.mkdir(parents=True, exist_ok=True)
    theirs = Path(serverapp.config_dir) / "custom" / "custom.css"
    text = CSS
    if theirs.is_file():
        text += "\n" + theirs.read_text(encoding="utf-8", errors="replace")
    # (written whole, then renamed: a second lab starting at once reads one or the other)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=mine, suffix=".css",
                                     delete=False) as stream:
        stream.write(text)
    os.replace(stream.name, mine / "custom.css")
    # LabApp's handler for /custom/ reads this same list at each request
    paths = serverapp.web_app.settings["static_custom_path"]
    paths.insert(0, str(mine))
    serverapp.log.info("minigrad-kit: printed lines break between words (%s)",
                       mine / "custom.css")
