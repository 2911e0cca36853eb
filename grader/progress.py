"""A progress bar for long runs (``grade``, ``release``), on a terminal only.

    grading   ████████▌           41/100 [01:05<01:33, failed: 1]

It shows done/total, the time so far and the time left (tqdm's estimate from the
rate so far) and how many have failed. It is drawn on standard error, and only
when that is a terminal: run from a script, a batch job or with its output sent to
a file, it is silent, and nothing of it reaches any file.

    with progress("grading", len(paths)) as bar:
        ... bar.done(failed=bool(result.error)) as each one finishes ...

(or ``progress("checking")`` and ``bar.start(total)`` once the total is known).
"""

from __future__ import annotations

import contextlib
import sys

from tqdm import tqdm

__all__ = ["progress", "Progress"]

FORMAT = "{desc:<9} {bar} {n_fmt}/{total_fmt} [{elapsed}<{remaining}{postfix}]"


class Progress:
    """Counts finished items (and failed ones) on a tqdm bar drawn on ``stream``, if it is a
    terminal; with no stream, on nothing."""

    def __init__(self, what: str, stream=None) -> None:
        self.what, self.stream = what, stream
        self.bar: tqdm | None = None
        self.failed = 0

    def start(self, total: int) -> None:
        """Draw the bar for ``total`` items, if the stream is a terminal (and there is more
        than one item to wait for)."""
        terminal = hasattr(self.stream, "isatty") and self.stream.isatty()
        if terminal and total > 1 and self.bar is None:
            self.bar = tqdm(total=total, desc=self.what, file=self.stream, bar_format=FORMAT,
                            dynamic_ncols=True, postfix="failed: 0", leave=True)

    def done(self, failed: bool = False) -> None:
        self.failed += bool(failed)
        if self.bar is not None:
            self.bar.set_postfix_str(f"failed: {self.failed}", refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@contextlib.contextmanager
def progress(what: str, total: int = 0, stream=None):
    """A ``Progress`` on ``stream`` (standard error), started now if ``total`` is given."""
    shown = Progress(what, stream or sys.stderr)
    if total:
        shown.start(total)
    try:
        yield shown
    finally:
        shown.close()
