"""A secret given on the command line (``--salt``), hidden from the process list.

Every process of the machine reads every other's command line (``/proc/<pid>/cmdline``,
``ps``): a teacher's ``grade --salt S`` showed S to every user of a shared machine, and to
a code run without the sandbox, which scanned ``/proc`` and raised the grader's command
line in its feedback (red team 16). ``hide(options)``, the first thing the command does,
overwrites the values of those options in the process's own argument memory (which
``/proc/<pid>/cmdline`` reads) with ``*``, the same length, so that nothing started after
it (the student's code above all) finds them; ``sys.argv``, a copy, keeps them. (A
process that reads the list in the instant before is not stopped, nor are the processes
that started the grader, sudo's and a script's shell, whose command lines hold the value
as they were given it: red team 17.)

So the secret need never be an argument: ``add_salt`` gives a command ``--salt-file FILE``
(the first line of a file of the teacher's) beside ``--salt``, and ``salt(args)`` reads
``--salt-file``, else ``--salt`` (saying on standard error that it showed), else
``$MINIGRAD_KIT_SALT`` (a process's environment is readable by its own user and root
only), else nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys

__all__ = ["hide", "SECRET", "VARIABLE", "add_salt", "salt"]

SECRET = ("--salt",)  # options whose value no other process may read
VARIABLE = "MINIGRAD_KIT_SALT"  # the salt where no other user reads it
SHOWN = ("minigrad-kit: note: --salt on the command line shows in the process list of what "
         "started minigrad-kit (sudo, a script's shell) to every user of this machine; give "
         "it in $MINIGRAD_KIT_SALT or in a file of yours, --salt-file FILE")


def add_salt(parser, default: str) -> None:
    """``--salt`` and ``--salt-file`` on ``parser`` (``default``: what an empty salt
    becomes, for the help)."""
    parser.add_argument("--salt-file", metavar="FILE",
                        help="a file whose first line is a private text mixed into the hidden "
                             "inputs, so no one can predict them (or $MINIGRAD_KIT_SALT; "
                             f"without either: {default}); keep it the same to re-grade "
                             "identically")
    parser.add_argument("--salt", help="the same text on the command line (not advised: "
                                       "what started the command, sudo or a script's shell, "
                                       "shows it to every user)")


def salt(args) -> str:
    """The salt ``args`` give (see the module docstring); ValueError when both options are
    given or the file cannot be read."""
    if args.salt_file is not None and args.salt is not None:
        raise ValueError("give --salt-file or --salt, not both")
    if args.salt_file is not None:
        try:
            with open(args.salt_file, "rb") as file:
                text = file.read(4096).decode("utf-8").splitlines()
                if os.fstat(file.fileno()).st_mode & 0o044:
                    print(f"minigrad-kit: note: --salt-file {args.salt_file!r} may be read by "
                          "other users of this machine (chmod 600 it)", file=sys.stderr)
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"--salt-file {args.salt_file!r} cannot be read ({error})") \
                from error
        if not text or not text[0].strip():
            raise ValueError(f"--salt-file {args.salt_file!r} holds no salt on its first line")
        return text[0].strip()
    if args.salt is not None:
        print(SHOWN, file=sys.stderr)
        return args.salt
    return os.environ.get(VARIABLE, "")


def hide(options=SECRET) -> bool:
    """Overwrite, in this process's command line, the value of each of ``options``
    (``--salt S`` or ``--salt=S``); whether anything was overwritten. Where ``/proc`` is
    not Linux's, nothing changes."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/stat", "rb") as file:
            fields = file.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end (fields 48, 49)
        with open("/proc/self/mem", "r+b", buffering=0) as memory:
            memory.seek(start)
            area = memory.read(end - start)
            hidden = _hidden(area, options)
            if hidden != area:
                memory.seek(start)
                memory.write(hidden)
                return True
    return False


def _hidden(area: bytes, options) -> bytes:
    """``area`` (arguments, each ended by a NUL) with the values of ``options`` starred,
    as argparse reads them: ``--salt S``, ``--salt=S``, and abbreviated (``--sal S``)."""
    arguments = area.split(b"\0")

    def named(argument: bytes) -> bool:
        return len(argument) > 4 and any(option.encode().startswith(argument)
                                         for option in options)
    for index, argument in enumerate(arguments):
        name, equals, value = argument.partition(b"=")
        if equals and named(name):
            arguments[index] = name + equals + b"*" * len(value)
        elif index and named(arguments[index - 1]):
            arguments[index] = b"*" * len(argument)
    return b"\0".join(arguments)
