"""What ``minigrad-kit grade`` writes: results, gradebook, feedback, flags, written answers.

    OUT/results/<assignment>/<student>.json   everything about one submission
    OUT/manifest.json                         the result files the grader wrote, with hashes
    OUT/gradebook.csv                         student, assignment, question, points, max,
                                              needs_review
    OUT/flags.csv                             student, assignment, holds_back, flag
    OUT/feedback/<assignment>/<student>.md    the student's report (or .html)
    OUT/answers/<assignment>.md               every written answer, question by question
    OUT/reviews.json                          the teacher's decisions (minigrad-kit review)

Each file is written to a temporary file and moved into place (``os.replace``),
so a reader never sees half a file. The aggregates are rebuilt on every run
from this run's results and the result files the manifest lists (see
``manifest.py``): grading the same submissions again gives the same files,
grading a late submission adds it to the others, and a file that the grader
did not write is reported in flags.csv and never read. A question held back
for review has empty points and ``needs_review`` "yes" until the teacher
accepts it (its points count) or rejects it (0 points).
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import html
import io
import json
import os
import re
import tempfile
from pathlib import Path

from kit_i18n import speaking

from .collection import hold_collected_elsewhere
from .grade import Result
from .intake import UNPRINTABLE
from .i18n import _
from .manifest import MANIFEST, foreign_files, load_manifest, read_listed

__all__ = ["write_atomic", "write_report", "rebuild", "merge", "MergeConflict",
           "feedback_markdown", "feedback_html", "load_reviews", "save_reviews", "review_key",
           "held_questions", "decide", "decision_of", "decided", "summary", "question_lines",
           "REVIEWS"]

UNKNOWN = "unknown"  # results folder of submissions whose assignment could not be told
REVIEWS = "reviews.json"


def write_atomic(path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder and os.replace,
    with the permissions an ordinary ``open()`` gives (0666 less the umask: 0644 usually),
    so that the other members of a course folder can read it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(handle, 0o666 & ~_umask())  # (mkstemp makes it 0600)
        # (errors="replace": text that is not valid Unicode, which batch.readable already
        # replaces, can cost a character here, never the whole report)
        with os.fdopen(handle, "w", encoding="utf-8", errors="replace", newline="") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _folder(result: Result) -> str:
    return result.assignment or UNKNOWN


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it; put it straight back
    os.umask(mask)
    return mask


def write_report(results: list[Result], out, fmt: str = "md") -> list[Result]:
    """Store ``results`` in ``out`` and rebuild the aggregates; returns every result kept.
    Before they are stored, the results already in ``out`` and these say where each
    assignment was handed in, and a notebook of another assignment than its folder's is
    held (``collection.py``)."""
    out = Path(out)
    manifest, problems = load_manifest(out)
    stored = read_listed(out, manifest, Result.from_json, lambda r: (_folder(r), r.student))[0]
    results = _graded_kept(results, stored, problems)
    hold_collected_elsewhere(results, stored)
    for result in results:
        relative = f"results/{_folder(result)}/{result.student}.json"
        text = result.to_json() + "\n"
        try:
            _write_inside(out, relative, text)
            manifest.add(relative, text, _folder(result), result.student)
        except OSError as error:
            manifest.entries.pop(relative, None)
            problems.append(f"could not write {relative} ({error}); this run's result is in "
                            "the gradebook, but the next run into this folder will not see it")
    _write_inside(out, MANIFEST, manifest.to_text())
    return rebuild(out, fmt, current=results, problems=problems)


def _graded_kept(results: list[Result], stored: list[Result], problems: list[str]
                 ) -> list[Result]:
    """This run's results but those that could not be graded where the same student has a
    graded result of the same assignment (stored, or of this run), each said in
    ``problems`` instead. A result replaces the one of its student and assignment (the
    last by path): a file that is not a notebook, put beside one's own notebook under the
    instructor notebook's name (``submitted/bob/ps1/zz/01_derive_it_by_hand.ipynb``),
    replaced bob's 0 of 9 with an empty cell, which an LMS reads as no grade."""
    graded = {(_folder(r), r.student) for r in [*stored, *results] if not r.error}
    # (and a notebook named after a student in another student's own folder, flagged, never
    # replaces one that was not: graded from zed's folder alone, zed's ``bob.ipynb`` of wrong
    # answers replaced bob's stored 9 of 9 with 0, flagged with nothing to hold)
    own = {(_folder(r), r.student) for r in [*stored, *results] if not r.error and not r.beside}
    # (and a notebook whose name becomes the student of one graded before under another
    # name, ``bob~smith.ipynb`` graded after ``bob_smith.ipynb`` into the same folder, never
    # replaces it: ``cli._clash`` refuses both in one run, this across runs)
    named = {(_folder(r), r.student): r.named for r in stored if not r.error and r.named}
    kept = []
    for result in results:
        key = (_folder(result), result.student)
        if not result.error and result.named and named.get(key, result.named) != result.named:
            problems.append(f"{result.student}: {result.file} was not kept: its name "
                            f"{result.named!r} and {named[key]!r}, graded before, both become "
                            f"{result.student}; the earlier result is kept (rename one, and "
                            "grade it again)")
        elif result.error and result.assignment and key in graded:
            problems.append(f"{result.student}: {result.file} could not be graded "
                            f"({result.error}); the graded notebook of {result.assignment} "
                            "is kept")
        elif result.beside and not result.error and key in own:
            problems.append(f"{result.student}: {result.file}, named after them in the folder "
                            f"of {result.beside}, was not kept; {result.student}'s own "
                            f"notebook of {result.assignment} is")
        else:
            kept.append(result)
    return kept


def rebuild(out, fmt: str = "md", *, current: list[Result] = (), problems: list[str] = ()
            ) -> list[Result]:
    """Gradebook, flags, feedback and answers from ``current`` and the listed result files,
    with the review decisions applied; returns the results as graded (before decisions)."""
    out = Path(out)
    manifest, problems = load_manifest(out)[0], list(problems)
    listed, bad = read_listed(out, manifest, Result.from_json,
                              lambda r: (_folder(r), r.student))
    problems += bad + [f"{path} was not written by the grader; it was ignored"
                       for path in foreign_files(out, manifest)]
    kept = {(_folder(r), r.student): r for r in listed}
    kept.update({(_folder(r), r.student): r for r in current})
    decisions = load_reviews(out)
    graded = [r for _key, r in sorted(kept.items())]
    stored = [decided(r, decisions) for r in graded]
    for result in stored:
        text = feedback_html(result) if fmt == "html" else feedback_markdown(result)
        try:
            _write_inside(out, f"feedback/{_folder(result)}/{result.student}.{fmt}", text)
        except OSError as error:
            problems.append(f"could not write the feedback of {result.student} ({error})")
    _write_inside(out, "gradebook.csv", _gradebook(stored))
    _write_inside(out, "flags.csv", _flags(stored, problems))
    for assignment in sorted({r.assignment for r in stored if r.answers}):
        _write_inside(out, f"answers/{assignment}.md",
                      _answers([r for r in stored if r.assignment == assignment]))
    return graded


# Text from a submission (an error's message, a written answer) may hold terminal escapes,
# or bidirectional overrides that show a line reordered: in the reports a teacher reads
# (CSV, Markdown, HTML) each becomes U+FFFD. (JSON escapes them itself.)
_UNREADABLE = UNPRINTABLE


def _write_inside(out: Path, relative: str, text: str) -> None:
    """write_atomic, refusing a path that a link would lead out of ``out``."""
    if not relative.endswith(".json"):
        text = _UNREADABLE.sub("\ufffd", text)
    path = out
    for part in Path(relative).parts[:-1]:
        path = path / part
        if path.is_symlink():
            raise OSError(f"{path} is a link; the grader writes only real folders")
    write_atomic(out / relative, text)


# --- review: the teacher's decisions on held-back questions -----------------------------------

def review_key(result: Result, question: str) -> str:
    return f"{result.student}/{result.assignment}/{question}"


def _reasons(result: Result, question) -> str:
    """What a decision is tied to: the reasons the question was held for, and the answers
    that were read and run (``Result.answered``). Tied to the reasons alone, an accepted
    question stayed accepted when a late submission held it for the same words (the same
    names beyond the allowlist) in other code: forging code, unreviewed, counted."""
    return hashlib.sha256(json.dumps([question.review, result.answered]).encode()
                          ).hexdigest()[:16]


def load_reviews(out) -> dict:
    """``key -> {"decision": "accept" | "reject", "reasons": digest}`` (empty if none)."""
    try:
        data = json.loads((Path(out) / REVIEWS).read_text(encoding="utf-8"))
        return {k: v for k, v in data["decisions"].items() if isinstance(v, dict)
                and v.get("decision") in ("accept", "reject")}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def save_reviews(out, decisions: dict) -> None:
    write_atomic(Path(out) / REVIEWS, json.dumps({"decisions": decisions}, indent=1,
                                                 sort_keys=True) + "\n")


def held_questions(result: Result) -> list:
    return [q for q in result.questions if q.held]


def decide(result: Result, question, decision: str) -> tuple[str, dict]:
    """A decision on a held question, tied to the reasons it was held for."""
    return review_key(result, question.name), {"decision": decision,
                                               "reasons": _reasons(result, question)}


def decision_of(result: Result, question, decisions: dict) -> str | None:
    """"accept" or "reject" if the teacher decided on these very reasons, else None."""
    decision = decisions.get(review_key(result, question.name), {})
    return decision["decision"] if decision.get("reasons") == _reasons(result, question) \
        else None


def decided(result: Result, decisions: dict) -> Result:
    """``result`` with the teacher's decisions applied (a decision on other reasons is stale)."""
    questions = []
    for q in result.questions:
        decision = decision_of(result, q, decisions) if q.held else None
        if decision is not None:
            accepted = decision == "accept"
            with speaking(result.lang):
                note = (_("accepted after review") if accepted else
                        _("rejected after review: 0 points"))
            q = dataclasses.replace(q, review=[], points=q.points if accepted else 0.0,
                                    note=note)
            q.findings = list(q.findings) + [[accepted, q.note, "review"]]
        questions.append(q)
    return dataclasses.replace(result, questions=questions)


# --- merging the folders of a sharded grading ----------------------------------------------

class MergeConflict(ValueError):
    """Two folders hold different results for the same student and assignment, or a folder's
    results do not check out against its manifest."""


def merge(parts: list, out, fmt: str = "md") -> list[Result]:
    """Join folders written by ``grade --shard``: the results each part's manifest lists
    (and its review decisions) are stored in ``out`` and everything is rebuilt from them,
    which gives the same files as grading everything in one run."""
    results, origin, decisions = {}, {}, {}
    for part in map(Path, parts):
        if not (part / MANIFEST).is_file():
            raise FileNotFoundError(f"{part} has no {MANIFEST}: it is not a folder that "
                                    "`minigrad-kit grade` wrote")
        manifest, problems = load_manifest(part)
        listed, bad = read_listed(part, manifest, Result.from_json,
                                  lambda r: (_folder(r), r.student))
        if problems or bad:
            raise MergeConflict(f"{part}: " + "; ".join(problems + bad)
                                + "; nothing was written")
        for result in listed:
            key = (_folder(result), result.student)
            if key in results and results[key].to_json() != result.to_json():
                where = f"results/{key[0]}/{key[1]}.json"
                raise MergeConflict(f"{origin[key] / where} and {part / where} differ (the "
                                    "same student graded in two parts); nothing was written")
            results[key], origin[key] = result, part
        decisions.update(load_reviews(part))
    if decisions:
        save_reviews(out, {**load_reviews(out), **decisions})
    return write_report([results[key] for key in sorted(results)], out, fmt)


def _csv(rows: list[list]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([[inert(v) for v in row] for row in rows])
    return buffer.getvalue()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


# A number as a spreadsheet reads one (ASCII digits, a sign, a point, an exponent): what
# ``inert`` leaves as it is. (``float()`` was the test, and it reads much that a spreadsheet
# does not: "-2_3" (digits grouped by underscores), "-inf", "-nan", "-٣" (Arabic-Indic
# digits), "-1\u2003" (trailing Unicode space): a student's file named so reached the
# gradebook starting with a minus, unquoted; red team 19.)
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def inert(value):
    """A CSV field a spreadsheet shows as text, never runs as a formula: text that starts as a
    formula would (``=HYPERLINK(...)``, ``+``, ``-``, ``@``, a tab; their full-width forms)
    gets a leading apostrophe, as OWASP advises. Numbers (``NUMBER``: as a spreadsheet
    reads them) are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START) \
            and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def _number(x) -> str:
    return "" if x is None else f"{x:g}"


def _gradebook(results: list[Result]) -> str:
    rows = [["student", "assignment", "question", "points", "max", "needs_review"]]
    for r in sorted(results, key=lambda r: (r.assignment, r.student)):
        if r.error:
            continue
        rows += [[r.student, r.assignment, q.name, "" if q.held else _number(q.points),
                  _number(q.max_points), "yes" if q.held else ""] for q in r.questions]
    return _csv(rows)


def _flags(results: list[Result], problems: list[str]) -> str:
    """One row per flag; ``holds_back``: the questions it put on review."""
    rows = [["student", "assignment", "holds_back", "flag"]]
    for r in sorted(results, key=lambda r: (r.assignment, r.student)):
        if r.error:
            rows.append([r.student, r.assignment or UNKNOWN, "",
                         _("could not be graded: {error}").format(error=r.error)])
            continue
        if r.sandbox and not r.sandbox.startswith("bubblewrap"):
            rows.append([r.student, r.assignment, "",
                         _("graded without a sandbox: {how}").format(how=r.sandbox)])
        rows += [[r.student, r.assignment,
                  " ".join(q.name for q in r.questions if flag in q.review), flag]
                 for flag in r.flags]
    rows += [["", "", "", problem] for problem in problems]
    return _csv(rows)


def _answers(results: list[Result]) -> str:
    questions = {q.name: q.title for r in results for q in r.questions if q.name in r.answers}
    lines = [_("# Written answers · {title}").format(
        title=results[0].title or results[0].assignment), ""]
    for name, title in questions.items():
        lines += [f"## {name} · {title}", ""]
        for r in sorted(results, key=lambda r: r.student):
            answer = r.answers.get(name, "").strip()
            lines += [f"### {r.student}", "", _fenced(answer) if answer else _("(no answer)"),
                      ""]
    return "\n".join(lines)


def _fenced(text: str) -> str:
    """``text`` as a Markdown code block, with a fence longer than any run of backticks in
    it: shown as written, whatever it holds (a student's "### bob" is no heading of the
    teacher's page, a link, an image or HTML renders nothing)."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


# --- one student's feedback -----------------------------------------------------------------

def _document(r: Result) -> list[tuple]:
    """The report as blocks: ("h1"|"h2"|"p", text), ("ul", items), ("table", head, rows),
    in the submission's language."""
    with speaking(r.lang):
        return _blocks(r)


def summary(r: Result) -> str:
    """The feedback's first sentence: the points, what is held back or left to the teacher
    (in the language spoken now)."""
    summary = _("{points} / {max_points} points graded automatically").format(
        points=f"{r.points:g}", max_points=f"{r.max_points:g}")
    held = sum(q.max_points for q in r.questions if q.held)
    if held:
        summary += _("; {points} points are held back until your teacher reviews flagged "
                     "code").format(points=f"{held:g}")
    pending = sum(q.max_points for q in r.questions if q.manual and q.points is None)
    blank = [q.name for q in r.questions if q.manual and q.points == 0]
    if pending:
        summary += _("; written answers ({points} points) are graded by your teacher").format(
            points=f"{pending:g}")
    if blank:
        summary += _("; no written answer to {questions}").format(questions=", ".join(blank))
    return summary


def question_lines(q) -> list[str]:
    """What the feedback says of one question: each check, passed or failed, public or
    hidden, or why there was nothing to check (in the language spoken now)."""
    items = [f"{'✓' if ok else '✗'} {_part(part)}: {text}" for ok, text, part in q.findings]
    return items or ([q.note] if q.note else [])


def _blocks(r: Result) -> list[tuple]:
    title = (r.title or r.assignment or _("Submission")) + f" · {r.student}"
    if r.error:
        return [("h1", title), ("p", _("This submission ({file}) could not be graded: "
                                       "{error}").format(file=r.file, error=r.error))]
    blocks = [("h1", title), ("p", summary(r) + _(". File: {file}.").format(file=r.file)),
              ("table", [_("Question"), _("Points")],
               [[f"{q.name} · {q.title}", _points(q)] for q in r.questions])]
    for q in r.questions:
        points = _points(q)
        blocks += [("h2", f"{q.name} · {q.title} — {points}")]
        blocks += [("ul", question_lines(q))] if q.findings else [("p", q.note)]
        if q.held:
            blocks += [("p", _("Held back for your teacher's review: {reasons}").format(
                reasons="; ".join(q.review)))]
    if r.problems:
        blocks += [("h2", _("Problems while running your notebook")), ("ul", r.problems)]
    if r.flags:
        blocks += [("h2", _("Flagged for your teacher")), ("ul", r.flags)]
    blocks.append(("p", _("Hidden tests were run; their code is not shown. Public checks are "
                          "the ones check() runs in your notebook.")))
    return blocks


def _part(part: str) -> str:
    """``public`` / ``hidden``, in words."""
    return {"public": _("public"), "hidden": _("hidden")}.get(part, part)


def _points(q) -> str:
    if q.held:
        return _("held back for review")
    return _("to be graded") if q.points is None else f"{q.points:g} / {q.max_points:g}"


# What a text of the feedback must not be read as, in Markdown: the characters that start
# inline markup, each written with a backslash (CommonMark's escape: it shows the character
# itself). A text of the feedback quotes the submission (an exception's message, a formula
# that could not be read, the file's name): as it was, ``raise ValueError("x\\n\\n# All
# tests passed: 8 / 8\\n\\n[verify your grade](http://...) <img src=http://...>")`` in
# unbroadcast made a heading, a link and an image (fetched when the page is opened) of the
# student's feedback page, as a teacher or a course's repository renders it; ``&#x202e;``
# would have rendered the bidirectional override that ``_UNREADABLE`` takes out of the text
# itself, and ``$...$`` is read as LaTeX by JupyterLab. ``]`` alone ends every link and
# image (``[`` stays: ``[[3.0, 1.0]]`` is shown as written); ``<`` starts every tag and
# autolink; ``*``, ``~`` and backticks would turn ``3*x**2 + 2*x`` into emphasis (``_``
# does not inside a word, ``a_grad``, and is left as it is); ``|`` ends a table's cell.
_MARKUP = re.compile(r"([\\`*~\]<&$|])")
_BREAKS = re.compile(r"\s*[\r\n]+\s*")


def _inline(text: str) -> str:
    """``text`` as one line of Markdown that shows it as written: every character that
    could start markup escaped, and its line breaks spaces (as a soft break renders): a
    blank line in a student's text started a block of its own (a heading, a list, a table,
    a quote), since every block of the page starts at the beginning of a line."""
    return _MARKUP.sub(r"\\\1", _BREAKS.sub(" ", str(text)))


def feedback_markdown(r: Result) -> str:
    """The feedback as Markdown: the structure (headings, lists, the table) is the
    grader's, every text in it inline (``_inline``), whatever the submission put in it."""
    lines = []
    for block in _document(r):
        kind = block[0]
        if kind in ("h1", "h2"):
            lines += [("# " if kind == "h1" else "## ") + _inline(block[1]), ""]
        elif kind == "p":
            lines += [_inline(block[1]), ""]
        elif kind == "ul":
            lines += [f"- {_inline(item)}" for item in block[1]] + [""]
        elif kind == "table":
            head, rows = block[1], block[2]
            lines += ["| " + " | ".join(_inline(h) for h in head) + " |",
                      "|" + "---|" * len(head)]
            lines += ["| " + " | ".join(_inline(c) for c in row) + " |"
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
