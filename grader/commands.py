"""The ``minigrad-kit`` subcommands that take the kit to where courses run it.

    minigrad-kit lab my-lessons                                  # the lessons in JupyterLab

``cli.py`` holds the grading commands and calls ``add_commands`` for these;
each is one function ``_<name>(args) -> exit status`` in ``HANDLERS``.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_commands", "HANDLERS", "NAMES", "SUMMARY"]

NAMES = ("lab",)

SUMMARY = """\
  lab          copies the lessons into a folder (once) and opens them in JupyterLab,
               printing its address.
"""

LAB_EPILOG = """\
The lessons are copied into FOLDER the first time (as `minigrad-kit lessons FOLDER` does) and
kept from then on: it is your own copy. JupyterLab starts on the first lesson, in the language
of your locale (LANG=zh_CN.UTF-8: the Chinese lessons in FOLDER/zh/), and its address is
printed once it answers; its own log goes to --log. Ctrl-C stops it, as usual.

example:
  minigrad-kit lab my-lessons
  LANG=ko_KR.UTF-8 minigrad-kit lab my-lessons
"""


def add_commands(commands) -> None:
    """Add the subcommands of this module to ``cli``'s subparsers."""
    lab = commands.add_parser(
        "lab", help="copy the lessons into a folder (once) and open them in JupyterLab",
        description="Open the lessons in JupyterLab, copying them into FOLDER first if they "
                    "are not there yet.",
        epilog=LAB_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    lab.add_argument("folder", metavar="FOLDER", nargs="?", default="my-lessons",
                     help="your copy of the lessons (default: my-lessons)")
    lab.add_argument("--log", default="jupyter-lab.log", metavar="FILE",
                     help="where JupyterLab's own log goes (default: jupyter-lab.log)")
    lab.add_argument("--port", type=int, metavar="N",
                     help="the port to serve on (default: the first free one from 8888)")


def _lab(args) -> int:
    from .kit import Exists
    from .lab import LabError, run_lab

    try:
        return run_lab(args.folder, args.log, port=args.port)
    except (LabError, Exists, OSError) as error:
        print(f"minigrad-kit: error: {error}", file=sys.stderr)
        return 1


HANDLERS = {"lab": _lab}
