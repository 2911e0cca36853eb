"""What ``minigrad-kit grade`` wrote into ``OUT``, read back for the exports and the report.

Only the result files that ``OUT/manifest.json`` lists and that check out are read
(see ``manifest.py``), and the teacher's review decisions are applied, so a result
here says what the gradebook says: a question held back for review has no points
until it is accepted or rejected.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .grade import Result
from .manifest import MANIFEST, load_manifest, read_listed
from .report import UNKNOWN, decided, load_reviews
from .timing import read_timing

__all__ = ["Grades", "read_grades", "NotGraded"]


class NotGraded(FileNotFoundError):
    """The folder is not one that ``minigrad-kit grade`` wrote."""


@dataclass
class Grades:
    results: list = field(default_factory=list)  # Result, decisions applied, sorted
    problems: list = field(default_factory=list)  # result files that did not check out
    timing: dict = field(default_factory=dict)  # (assignment, student) -> seconds

    def assignments(self) -> list[str]:
        return sorted({r.assignment for r in self.results if r.assignment})

    def of(self, assignment: str) -> list[Result]:
        return [r for r in self.results if r.assignment == assignment]


def read_grades(out) -> Grades:
    """The results in ``out`` as the gradebook shows them."""
    out = Path(out)
    if not (out / MANIFEST).is_file():
        raise NotGraded(f"{out} has no {MANIFEST}: give the folder that `minigrad-kit grade "
                        "--out` wrote")
    manifest, problems = load_manifest(out)
    listed, bad = read_listed(out, manifest, Result.from_json,
                              lambda r: (r.assignment or UNKNOWN, r.student))
    decisions = load_reviews(out)
    results = sorted((decided(r, decisions) for r in listed),
                     key=lambda r: (r.assignment, r.student))
    return Grades(results, problems + bad, read_timing(out))
