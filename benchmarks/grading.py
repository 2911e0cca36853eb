"""Seconds per submission of ``minigrad-kit grade`` (``make bench`` runs it after run.py).

Grades N copies of an ordinary submission of assignment 2 (the instructor's solution,
as a student who got everything right would hand in), in one command as a teacher runs
it, with --jobs 1 and with --jobs <cores>, and prints wall-clock seconds per submission
(kernel start, the notebook's cells, judging, the report), with the sandbox as the
grader chooses it here. Usage: python benchmarks/grading.py [N]
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

SUBMISSION = "02_derive_it_by_hand.ipynb"


def seconds_per_submission(count: int, jobs: int) -> float:
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-bench-") as folder:
        root = Path(folder)
        copy_assignments(root / "course")
        (root / "submitted").mkdir()
        for index in range(count):
            shutil.copy(root / "course" / SUBMISSION, root / "submitted" / f"s{index:03}.ipynb")
        start = time.perf_counter()
        with redirect_stdout(StringIO()):
            status = main(["grade", str(root / "submitted"), "--source", str(root / "course"),
                           "--out", str(root / "grades"), "--jobs", str(jobs)])
        elapsed = time.perf_counter() - start
        if status != 0:
            raise SystemExit("grading failed; run minigrad-kit grade by hand to see why")
    return elapsed / count


def run(count: int = 8) -> None:
    cores = os.cpu_count() or 1
    print(f"\nminigrad-kit grade, {count} ordinary submissions of assignment 2 "
          f"({platform.processor() or platform.machine()}, {cores} cores, "
          f"Python {platform.python_version()}):")
    print(f"  (load average {os.getloadavg()[0]:.1f}: on a busy machine the figures count the "
          "other work too)")
    for jobs in sorted({1, cores}):
        per = seconds_per_submission(count, jobs)
        print(f"  --jobs {jobs}: {per:.2f} s per submission ({60 / per:.0f} "
              "submissions a minute)")


if __name__ == "__main__":
    run(*(int(a) for a in sys.argv[1:]))
