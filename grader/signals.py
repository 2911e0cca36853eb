"""Ctrl-C (SIGINT) as Python's default, whatever this process inherited.

A process inherits its parent's SIGINT disposition and signal mask: ignored in a job a
script started in the background, blocked by some libraries' threads. A child started
then inherits them too, and never stops on Ctrl-C. The grader's runner (a slow cell is
interrupted with a real SIGINT) and ``minigrad-kit lab`` (Ctrl-C stops JupyterLab) both
put SIGINT back to Python's default first, and the lab puts back what it found after.
"""

from __future__ import annotations

import signal

__all__ = ["default_interrupts", "restore_interrupts"]


def default_interrupts() -> tuple:
    """Unblock SIGINT and give it Python's handler (KeyboardInterrupt). Returns what
    was there before, for ``restore_interrupts``."""
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    return blocked, signal.signal(signal.SIGINT, signal.default_int_handler)


def restore_interrupts(previous: tuple) -> None:
    """Put back the SIGINT handler and mask ``default_interrupts`` found."""
    blocked, handler = previous
    if handler is not None:  # (None: a handler not set from Python, which cannot be put back)
        signal.signal(signal.SIGINT, handler)
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
