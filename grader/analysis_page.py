"""``minigrad-kit report GRADES/``: one HTML page per assignment, the item analysis, for the
teacher (``analysis.py`` computes it).

Each page stands alone and reads offline: its plots are SVG drawn by matplotlib into the
page (their text stays text, so any language shows in the browser's fonts), its style is
in the page, and nothing is fetched. Every plot has its numbers in a table beside it, and
the categories of the score plot differ by hatching as well as by colour (Okabe and Ito's
palette, which colour-blind readers tell apart). The page is written in the teacher's
language (``--lang``, else the locale); findings are quoted as the students read them.
"""

from __future__ import annotations

import html
import io
import re
import statistics
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from kit_i18n import language, speaking

from .analysis import FEW, GROUP, AssignmentStats, analyse
from .i18n import ASSIGNMENTS, _, ngettext
from .report import write_atomic
from .stored import read_grades

__all__ = ["write_pages", "page"]

# The plots' text stays text (the browser's fonts draw any language), and their bytes are
# the same on every run (no random ids, no date)
PLOTS = {"svg.fonttype": "none", "svg.hashsalt": "minigrad-kit", "font.family": "sans-serif"}
METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)  # (Dublin Core: the maker, a type)
# Okabe & Ito's colours, and a hatching each, so that colour is never the only signal
STYLE = {"full": ("#009E73", ""), "part": ("#F0E442", "//"), "none": ("#D55E00", "xx"),
         "unanswered": ("#BBBBBB", ".."), "held": ("#56B4E9", "\\\\"),
         "written": ("#CC79A7", "--")}
CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC",
       "Noto Sans CJK KR", "PingFang SC", "Malgun Gothic", sans-serif; margin: 2rem auto;
       max-width: 62rem; padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; font-size: 1.25rem;
  border-bottom: 1px solid #ddd; padding-bottom: .2rem; } h3 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
.meta { color: #555; } .note { color: #555; font-size: .9rem; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .92rem; }
th, td { border: 1px solid #ccc; padding: .25rem .55rem; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; } td.n { white-space: nowrap; }
.low { background: #fde8e0; } figure { margin: .8rem 0; } figure svg { max-width: 100%; height: auto; }
ul.findings li { margin: .15rem 0; } .share { font-weight: 600; font-variant-numeric: tabular-nums; }
table.flags td:nth-child(-n+2), table.flags th:nth-child(-n+2) { white-space: nowrap; }
.swatch { display: inline-block; width: .9em; height: .9em; border: 1px solid #555;
  vertical-align: -.1em; margin-right: .3em; }
"""


def _category_names() -> dict:
    return {"full": _("full marks"), "part": _("part of the points"), "none": _("no points"),
            "unanswered": _("left unanswered"), "held": _("held back for review"),
            "written": _("written answer, to grade")}


def _number(value, digits: int = 2) -> str:
    """``value`` to ``digits`` decimals, without trailing zeros (1.50 -> 1.5, 50 -> 50)."""
    if value is None:
        return "–"
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "–"


def _svg(figure: Figure) -> str:
    """The figure as SVG text for the page (no XML header, no date: the same bytes each run).
    (A ``Figure`` made directly, not through pyplot: no window, no global state.)"""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buffer.getvalue()
    return METADATA.sub("", text[text.index("<svg"):])


def _plot_questions(stats: AssignmentStats) -> str:
    """A horizontal bar per question, split by how the students came out (numbers and the
    questions' names only: the words are the page's, in its language)."""
    rows = [q for q in stats.questions]
    height = 0.5 * len(rows) + 0.6
    figure = Figure(figsize=(7.5, height))
    axes = figure.subplots()
    for row, question in enumerate(reversed(rows)):
        left = 0
        for category in ("full", "part", "none", "written", "unanswered", "held"):
            count = question.counts.get(category, 0)
            if not count:
                continue
            colour, hatch = STYLE[category]
            axes.barh(row, count, left=left, color=colour, hatch=hatch, edgecolor="#333333",
                      linewidth=0.6)
            axes.text(left + count / 2, row, str(count), ha="center", va="center",
                      fontsize=9, color="#111111",
                      bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                            "alpha": 0.8})
            left += count
    axes.set_yticks(range(len(rows)), [q.name for q in reversed(rows)])
    axes.set_xlim(0, max(1, max((q.students for q in rows), default=1)))
    axes.xaxis.get_major_locator().set_params(integer=True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    return _svg(figure)


def _histogram(values: list, bins) -> str:
    figure = Figure(figsize=(7.5, 2.2))
    axes = figure.subplots()
    axes.hist(values, bins=bins, color="#0072B2", edgecolor="white", linewidth=0.8)
    axes.yaxis.get_major_locator().set_params(integer=True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    return _svg(figure)


def _figure(svg: str, caption: str, escaped: bool = False) -> str:
    caption = caption if escaped else html.escape(caption)
    return f"<figure>{svg}<figcaption class=note>{caption}</figcaption></figure>"


def _h(level: int, text: str) -> str:
    return f"<h{level}>{html.escape(text)}</h{level}>"


def _p(text: str, kind: str = "") -> str:
    return (f"<p class={kind}>" if kind else "<p>") + html.escape(text) + "</p>"


def _table(head: list, rows: list, numeric: set = frozenset(), marked=None,
           css: str = "") -> str:
    cells = "".join(f'<th{" class=n" if i in numeric else ""}>{html.escape(h)}</th>'
                    for i, h in enumerate(head))
    body = ""
    for index, row in enumerate(rows):
        mark = ' class="low"' if marked and marked(index) else ""
        body += f"<tr{mark}>" + "".join(
            f'<td{" class=n" if i in numeric else ""}>{html.escape(str(c))}</td>'
            for i, c in enumerate(row)) + "</tr>"
    kind = f" class={css}" if css else ""
    return f"<table{kind}><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def page(stats: AssignmentStats) -> str:
    """The HTML page of one assignment's analysis, in the language spoken now."""
    names = _category_names()
    title = _("Item analysis") + " · " + ASSIGNMENTS.gettext(stats.title)
    said = [ngettext("{count} submission graded.", "{count} submissions graded.",
                     stats.graded).format(count=stats.graded)]
    if stats.not_graded:
        said.append(ngettext("{count} could not be graded.", "{count} could not be graded.",
                             len(stats.not_graded)).format(count=len(stats.not_graded)))
    said.append(_("For the teacher: this page names students."))
    parts = [_h(1, title), _p(_sentences(said), "meta")]
    with matplotlib.rc_context(PLOTS):
        parts += _scores(stats) + _questions(stats, names)
    parts += _findings(stats)
    parts += _unanswered(stats)
    with matplotlib.rc_context(PLOTS):
        parts += _time(stats)
    parts += _flagged(stats)
    parts += [_h(2, _("About these numbers")),
              _p(_("D, the discrimination index, is the share of a question's points in the "
                   "top {percent} % of the class minus that in the bottom {percent} %, the "
                   "students ranked by their points on the other questions. 0.4 and above "
                   "separates well; 0.2 to 0.4 fairly; below 0.2 (shaded) the question does not "
                   "tell the students who did well from the others: look at it again. It needs "
                   "at least {few} students.").format(percent=round(GROUP * 100), few=FEW),
                 "note"),
              _p(_("Findings are the checks that failed, counted once per submission, with "
                   "their numbers replaced by … so that the same mistake at other inputs "
                   "counts as one; they are quoted in the language each student worked in."),
                 "note")]
    return ("<!DOCTYPE html>\n<html lang=\"" + html.escape(_lang_tag()) + "\"><head>"
            "<meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")


def _sentences(parts: list[str]) -> str:
    """Sentences one after another (Chinese sets none of its spaces between them)."""
    return ("" if language() == "zh" else " ").join(parts)


def _lang_tag() -> str:
    return {"zh": "zh-CN", "ko": "ko"}.get(language(), "en")


def _scores(stats: AssignmentStats) -> list[str]:
    if not stats.totals:
        return []
    mean, median = statistics.fmean(stats.totals), statistics.median(stats.totals)
    top = stats.max_points
    out = [_h(2, _("Points")),
           "<p>" + html.escape(_("Automatic points: mean {mean} of {max}, median {median}; "
                                 "lowest {low}, highest {high}.").format(
               mean=_number(mean), max=_number(top), median=_number(median),
               low=_number(min(stats.totals)), high=_number(max(stats.totals)))) + "</p>"]
    bins = [x - 0.5 for x in range(int(top) + 2)] if top and top == int(top) and top <= 40 \
        else 10
    out.append(_figure(_histogram(stats.totals, bins),
                       _("Students (up) by their automatic points (across).")))
    return out


def _questions(stats: AssignmentStats, names: dict) -> list[str]:
    legend = " ".join(f'<span class=swatch style="background:{STYLE[c][0]}"></span>'
                      f"{html.escape(names[c])}" for c in ("full", "part", "none",
                                                           "unanswered", "held", "written"))
    out = [_h(2, _("Questions")),
           _figure(_plot_questions(stats), html.escape(
               _("Students per question, by how their answer came out:")) + " " + legend,
                   escaped=True)]
    head = [_("question"), _("points"), _("mean"), "D"] + [names[c] for c in (
        "full", "part", "none", "unanswered", "held")]
    rows, low = [], set()
    for index, q in enumerate(stats.questions):
        if q.manual:
            rows.append([q.name + " · " + ASSIGNMENTS.gettext(q.title), _number(q.max_points),
                         _("graded by you"),
                         "–", "–", "–", "–", q.counts.get("unanswered", 0), "–"])
            continue
        mean = q.mean
        share = f" ({round(100 * mean / q.max_points)} %)" if mean is not None and \
            q.max_points else ""
        if q.discrimination is not None and q.discrimination < 0.2:
            low.add(index)
        rows.append([q.name + " · " + ASSIGNMENTS.gettext(q.title), _number(q.max_points),
                     _number(mean) + share,
                     _number(q.discrimination)] + [q.counts.get(c, 0) for c in (
                         "full", "part", "none", "unanswered", "held")])
    out.append(_table(head, rows, numeric={1, 2, 3, 4, 5, 6, 7, 8}, marked=low.__contains__))
    return out


def _findings(stats: AssignmentStats) -> list[str]:
    out = [_h(2, _("Most frequent findings"))]
    any_found = False
    for q in stats.questions:
        if q.manual or not q.findings:
            continue
        any_found = True
        judged = q.students - q.counts.get("held", 0)
        items = ""
        for text, count in q.findings:
            of = _("{count} of {total}").format(count=count, total=judged)
            items += (f"<li><span class=share>{_percent(count, judged)}</span> "
                      f"({html.escape(of)}) {html.escape(text)}</li>")
        out.append(_h(3, q.name + " · " + ASSIGNMENTS.gettext(q.title))
                   + f"<ul class=findings>{items}</ul>")
    if not any_found:
        out.append("<p>" + html.escape(_("No check failed.")) + "</p>")
    return out


def _unanswered(stats: AssignmentStats) -> list[str]:
    out = [_h(2, _("Left unanswered"))]
    if not stats.unanswered:
        return out + ["<p>" + html.escape(_("Every question was answered.")) + "</p>"]
    rows = [[name, count, _percent(count, stats.graded)] for name, count in stats.unanswered]
    return out + [_table([_("question"), _("students"), _("share")], rows, numeric={1, 2})]


def _time(stats: AssignmentStats) -> list[str]:
    out = [_h(2, _("Time per submission"))]
    if not stats.seconds:
        return out + ["<p>" + html.escape(_("No times were recorded (timing.csv).")) + "</p>"]
    times = [seconds for seconds, _student in stats.seconds]
    out.append("<p>" + html.escape(_("Grading took {median} s per submission (median); "
                                     "{total} s in all; the slowest took {slowest} s.").format(
        median=_number(statistics.median(times), 1), total=_number(sum(times), 0),
        slowest=_number(max(times), 1))) + "</p>")
    out.append(_figure(_histogram(times, 12),
                       _("Submissions (up) by the seconds their grading took (across).")))
    rows = [[student, _number(seconds, 1)] for seconds, student in stats.seconds[:5]]
    return out + [_table([_("slowest"), _("seconds")], rows, numeric={1})]


def _flagged(stats: AssignmentStats) -> list[str]:
    out = [_h(2, _("Flagged and held back"))]
    held = dict(stats.held)
    flagged = dict(stats.flagged)
    students = sorted(set(held) | set(flagged))
    if not students and not stats.not_graded:
        return out + ["<p>" + html.escape(_("Nothing was flagged.")) + "</p>"]
    rows = [[student, " ".join(held.get(student, [])) or "–",
             "; ".join(flagged.get(student, [])) or "–"] for student in students]
    rows += [[student, "–", _("could not be graded: {error}").format(error=why)]
             for student, why in stats.not_graded]
    return out + [_table([_("student"), _("held back"), _("flags")], rows, css="flags"),
                  "<p class=note>" + html.escape(_(
                      "Held-back points count only once you accept them: minigrad-kit review."))
                  + "</p>"]


def write_pages(out, lang: str | None = None, target=None) -> list[Path]:
    """``target/<assignment>.html`` (default ``out/report/``) for every assignment graded in
    ``out``, in ``lang``; the paths written."""
    grades = read_grades(out)
    folder = Path(target) if target else Path(out) / "report"
    written = []
    with speaking(lang):
        for assignment in grades.assignments():
            stats = analyse(grades.of(assignment), grades.timing)
            path = folder / f"{assignment}.html"
            write_atomic(path, page(stats))
            written.append(path)
    return written
