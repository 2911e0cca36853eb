"""What ``minigrad-kit grade`` writes: results, gradebook, feedback, flags, written answers.

    OUT/results/<assignment>/<student>.json   everything about one submission
    OUT/gradebook.csv                         student, assignment, question, points, max
    OUT/flags.csv                             student, assignment, flag (for the teacher)
    OUT/feedback/<assignment>/<student>.md    the student's report (or .html)
    OUT/answers/<assignment>.md               every written answer, question by question

Each file is written to a temporary file and moved into place (``os.replace``),
so a reader never sees half a file. The aggregates are rebuilt from all the
result files on every run: grading the same submissions again gives the same
files, and grading a late submission adds it to the others.
"""

from __future__ import annotations

import csv
import html
import io
import os
import tempfile
from pathlib import Path

from .grade import Result

__all__ = ["write_atomic", "write_report", "feedback_markdown", "feedback_html"]

UNKNOWN = "unknown"  # results folder of submissions whose assignment could not be told


def write_atomic(path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder and os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_report(results: list[Result], out, fmt: str = "md") -> list[Result]:
    """Store ``results`` in ``out`` and rebuild the aggregates; returns every stored result."""
    out = Path(out)
    for result in results:
        folder = result.assignment or UNKNOWN
        write_atomic(out / "results" / folder / f"{result.student}.json", result.to_json() + "\n")
        text = feedback_html(result) if fmt == "html" else feedback_markdown(result)
        write_atomic(out / "feedback" / folder / f"{result.student}.{fmt}", text)
    stored = [Result.from_json(p.read_text(encoding="utf-8"))
              for p in sorted((out / "results").glob("*/*.json"))]
    write_atomic(out / "gradebook.csv", _gradebook(stored))
    write_atomic(out / "flags.csv", _flags(stored))
    for assignment in sorted({r.assignment for r in stored if r.answers}):
        write_atomic(out / "answers" / f"{assignment}.md",
                     _answers([r for r in stored if r.assignment == assignment]))
    return stored


def _csv(rows: list[list]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def _number(x) -> str:
    return "" if x is None else f"{x:g}"


def _gradebook(results: list[Result]) -> str:
    rows = [["student", "assignment", "question", "points", "max"]]
    for r in sorted(results, key=lambda r: (r.assignment, r.student)):
        if r.error:
            continue
        rows += [[r.student, r.assignment, q.name, _number(q.points), _number(q.max_points)]
                 for q in r.questions]
    return _csv(rows)


def _flags(results: list[Result]) -> str:
    rows = [["student", "assignment", "flag"]]
    for r in sorted(results, key=lambda r: (r.assignment, r.student)):
        rows += [[r.student, r.assignment or UNKNOWN, f"could not be graded: {r.error}"]] \
            if r.error else [[r.student, r.assignment, flag] for flag in r.flags]
    return _csv(rows)


def _answers(results: list[Result]) -> str:
    questions = {q.name: q.title for r in results for q in r.questions if q.name in r.answers}
    lines = [f"# Written answers · {_title(results[0].assignment)}", ""]
    for name, title in questions.items():
        lines += [f"## {name} · {title}", ""]
        for r in sorted(results, key=lambda r: r.student):
            answer = r.answers.get(name, "").strip()
            lines += [f"### {r.student}", "", answer or "(no answer)", ""]
    return "\n".join(lines)


# --- one student's feedback -----------------------------------------------------------------

def _document(r: Result) -> list[tuple]:
    """The report as blocks: ("h1"|"h2"|"p", text), ("ul", items), ("table", head, rows)."""
    title = f"{_title(r.assignment)} · {r.student}"
    if r.error:
        return [("h1", title), ("p", f"This submission ({r.file}) could not be graded: "
                                     f"{r.error}")]
    summary = f"{r.points:g} / {r.max_points:g} points graded automatically"
    pending = sum(q.max_points for q in r.questions if q.manual and q.points is None)
    blank = [q.name for q in r.questions if q.manual and q.points == 0]
    if pending:
        summary += f"; written answers ({pending:g} points) are graded by your teacher"
    if blank:
        summary += f"; no written answer to {', '.join(blank)}"
    blocks = [("h1", title), ("p", summary + f". File: {r.file}."),
              ("table", ["Question", "Points"],
               [[f"{q.name} · {q.title}", "to be graded" if q.points is None
                 else f"{q.points:g} / {q.max_points:g}"] for q in r.questions])]
    for q in r.questions:
        points = "to be graded" if q.points is None else f"{q.points:g} / {q.max_points:g}"
        items = [f"{'✓' if ok else '✗'} {part}: {text}" for ok, text, part in q.findings]
        blocks += [("h2", f"{q.name} · {q.title} — {points}")]
        blocks += [("ul", items)] if items else [("p", q.note)]
    if r.problems:
        blocks += [("h2", "Problems while running your notebook"), ("ul", r.problems)]
    if r.flags:
        blocks += [("h2", "Flagged for your teacher"), ("ul", r.flags)]
    blocks.append(("p", "Hidden tests were run; their code is not shown. Public checks are "
                        "the ones check() runs in your notebook."))
    return blocks


def _title(assignment: str) -> str:
    from .questions import find_assignment
    try:
        return find_assignment(assignment).title
    except KeyError:
        return assignment or "Submission"


def feedback_markdown(r: Result) -> str:
    lines = []
    for block in _document(r):
        kind = block[0]
        if kind in ("h1", "h2"):
            lines += [("# " if kind == "h1" else "## ") + block[1], ""]
        elif kind == "p":
            lines += [block[1], ""]
        elif kind == "ul":
            lines += [f"- {item}" for item in block[1]] + [""]
        elif kind == "table":
            head, rows = block[1], block[2]
            lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
                      for row in rows] + [""]
    return "\n".join(lines)


def feedback_html(r: Result) -> str:
    parts = []
    for block in _document(r):
        kind = block[0]
        if kind in ("h1", "h2", "p"):
            parts.append(f"<{kind}>{html.escape(block[1])}</{kind}>")
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in block[1])
                         + "</ul>")
        elif kind == "table":
            head = "".join(f"<th>{html.escape(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row)
                           + "</tr>" for row in block[2])
            parts.append(f"<table><tr>{head}</tr>{rows}</table>")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
            f"{html.escape(r.assignment)} · {html.escape(r.student)}</title></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")
