"""An item analysis of one assignment, from the results ``minigrad-kit grade`` wrote.

Per question: how the class scored (full marks, part, none, left unanswered, held back
for review), the mean, and a discrimination index; the most frequent findings, so that
a misconception shows as a share of the class ("x does not require grad: 41 %").
Per submission: the time it took, the flags and the questions held back. The page
(``analysis_page.py``) draws these numbers; nothing here is translated.

The discrimination index is D = p_upper - p_lower, Kelley's classical index: the
students are ranked by their points on the *other* questions (so that a question does
not predict itself), and p is the mean share of this question's points in the top and
the bottom 27 % of the ranking. D near 1: the question separates the students who did
well from those who did not; near 0 or below: it does not (too easy, too hard, or it
measures something else). With fewer than ``FEW`` students it is not computed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from .grade import Result

__all__ = ["QuestionStats", "AssignmentStats", "analyse", "discrimination", "finding_key",
           "CATEGORIES", "FEW", "GROUP"]

CATEGORIES = ("full", "part", "none", "unanswered", "held")  # how a question came out
# (a written answer: "written", for the teacher to grade, or "unanswered")
FEW = 5  # fewer students than this: no discrimination index
GROUP = 0.27  # the share of the class in the upper and the lower group
TOP_FINDINGS = 5
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?![\w])")
RUN = re.compile(r"…(?:[\s,;]*…)+")


def finding_key(text: str) -> str:
    """A finding with its numbers taken out, so that the same mistake at other inputs reads
    the same: ``df is wrong at 3 of 6 values; at x = 1.5: ...`` -> ``df is wrong at … of …
    values; at x = …: ...``."""
    return RUN.sub("…", NUMBER.sub("…", text)).strip()


@dataclass
class QuestionStats:
    name: str
    title: str
    max_points: float
    manual: bool = False  # a written answer, graded by the teacher
    counts: Counter = field(default_factory=Counter)  # category -> students
    points: list = field(default_factory=list)  # the judged points (held ones left out)
    discrimination: float | None = None
    findings: list = field(default_factory=list)  # (finding_key, students), most frequent first

    @property
    def students(self) -> int:
        return sum(self.counts.values())

    @property
    def mean(self) -> float | None:
        return sum(self.points) / len(self.points) if self.points else None


@dataclass
class AssignmentStats:
    assignment: str
    title: str
    graded: int  # submissions graded
    not_graded: list  # (student, why)
    max_points: float
    totals: list  # each graded submission's automatic points (held ones not counted)
    questions: list  # QuestionStats, in the notebook's order
    seconds: list  # (seconds, student), slowest first
    flagged: list  # (student, flags)
    held: list  # (student, questions held back)
    unanswered: list  # (question, students), most often first


def discrimination(item: list[float], rest: list[float]) -> float | None:
    """Kelley's D for one question: ``item`` the share of its points each student got,
    ``rest`` their points on the other questions (same order)."""
    if len(item) < FEW:
        return None
    size = max(1, math.floor(GROUP * len(item) + 0.5))
    ranked = sorted(range(len(item)), key=lambda i: rest[i])
    lower, upper = ranked[:size], ranked[-size:]
    return sum(item[i] for i in upper) / size - sum(item[i] for i in lower) / size


def _category(question, result: Result) -> str:
    if question.held:
        return "held"
    if question.name in result.unanswered:
        return "unanswered"
    if question.points is not None and question.points >= question.max_points > 0:
        return "full"
    return "part" if question.points else "none"


def analyse(results: list[Result], timing: dict | None = None) -> AssignmentStats:
    """The statistics of one assignment's ``results`` (and ``timing``: (assignment, student)
    -> seconds)."""
    graded = [r for r in results if not r.error]
    first = next((r for r in graded if r.lang == "en"), graded[0] if graded else results[0])
    questions = {}
    for result in graded:
        for q in result.questions:
            stats = questions.setdefault(q.name, QuestionStats(q.name, q.title, q.max_points,
                                                               q.manual))
            if stats.title != q.title and result.lang == "en":
                stats.title = q.title  # the English title where there is one (the page
                #                        translates it into the teacher's language)
            if q.manual:  # answered (for the teacher to grade) or not
                stats.counts["unanswered" if q.name in result.unanswered else "written"] += 1
                continue
            category = _category(q, result)
            stats.counts[category] += 1
            if category != "held":
                stats.points.append(q.points or 0.0)
    automatic = [s for s in questions.values() if not s.manual]
    _discriminations(graded, automatic)
    for stats in automatic:
        stats.findings = _findings(graded, stats.name)
    timing = timing or {}
    seconds = sorted(((timing[r.assignment, r.student], r.student) for r in graded
                      if (r.assignment, r.student) in timing), reverse=True)
    unanswered = Counter(name for r in graded for name in r.unanswered)
    order = list(questions)
    return AssignmentStats(
        first.assignment, first.title or first.assignment, len(graded),
        [(r.student, r.error) for r in results if r.error],
        sum(s.max_points for s in automatic), [r.points for r in graded],
        list(questions.values()), seconds,
        [(r.student, list(r.flags)) for r in graded if r.flags],
        [(r.student, [q.name for q in r.questions if q.held]) for r in graded
         if any(q.held for q in r.questions)],
        sorted(unanswered.items(), key=lambda pair: (-pair[1], order.index(pair[0])
                                                     if pair[0] in order else 0)))


def _discriminations(graded: list[Result], automatic: list[QuestionStats]) -> None:
    for stats in automatic:
        item, rest = [], []
        for result in graded:
            by_name = {q.name: q for q in result.questions}
            question = by_name.get(stats.name)
            if question is None or question.held or not question.max_points:
                continue
            item.append((question.points or 0.0) / question.max_points)
            rest.append(sum(q.points or 0.0 for q in result.questions
                            if q.name != stats.name and not q.manual and not q.held))
        stats.discrimination = discrimination(item, rest)


def _findings(graded: list[Result], name: str) -> list[tuple[str, int]]:
    """The failed findings of question ``name``, each counted once per submission."""
    seen = Counter()
    for result in graded:
        if name in result.unanswered:
            continue  # not a mistake: no answer (counted as such)
        for q in result.questions:
            if q.name != name or q.held:
                continue
            keys = {finding_key(text) for ok, text, _part in q.findings if not ok}
            if not q.findings and q.note and not q.points:
                keys.add(finding_key(q.note))
            seen.update(keys)
    return sorted(seen.items(), key=lambda pair: (-pair[1], pair[0]))[:TOP_FINDINGS]
