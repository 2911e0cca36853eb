"""Seconds per submission of ``minigrad-kit grade`` (``make bench`` runs it after run.py).

Grades N copies of an ordinary submission of each of the kit's assignments (the
instructor's solution, as a student who got everything right would hand in, graded on the
instructor's own numbers), in one command per assignment as a teacher runs it, with
--jobs 1, and prints wall-clock seconds per submission: an assignment answered with
formulas runs nothing (reading, judging, the report); one with code answers starts a fresh
sandboxed process per submission. Then all four together with --jobs <cores>.
Usage: python benchmarks/grading.py [N]
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
import time
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

from grader.cli import main
from grader.kit import copy_assignments


def seconds_per_submission(count: int, jobs: int, names: list[str]) -> float:
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-bench-") as folder:
        root = Path(folder)
        copy_assignments(root / "course")
        (root / "submitted").mkdir()
        for name in names:
            for index in range(count):
                shutil.copy(root / "course" / name,
                            root / "submitted" / f"{Path(name).stem}-{index:03}.ipynb")
        start = time.perf_counter()
        with redirect_stdout(StringIO()):
            status = main(["grade", str(root / "submitted"), "--source", str(root / "course"),
                           "--out", str(root / "grades"), "--jobs", str(jobs),
                           "--variants", "none"])
        elapsed = time.perf_counter() - start
        if status != 0:
            raise SystemExit("grading failed; run minigrad-kit grade by hand to see why")
    return elapsed / (count * len(names))


def run(count: int = 8) -> None:
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        copy_assignments(Path(folder))
        names = sorted(p.name for p in Path(folder).glob("*.ipynb"))
    print(f"\nminigrad-kit grade, {count} ordinary submissions per assignment "
          f"({platform.processor() or platform.machine()}, {cores} cores, "
          f"Python {platform.python_version()}):")
    print(f"  (load average {os.getloadavg()[0]:.1f}: on a busy machine the figures count the "
          "other work too)")
    for name in names:
        per = seconds_per_submission(count, 1, [name])
        print(f"  {name}, --jobs 1: {per:.2f} s per submission")
    per = seconds_per_submission(count, cores, names)
    print(f"  all four, --jobs {cores}: {per:.2f} s per submission ({60 / per:.0f} "
          "submissions a minute)")


if __name__ == "__main__":
    run(*(int(a) for a in sys.argv[1:]))
