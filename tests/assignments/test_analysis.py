"""`minigrad-kit report GRADES/`: the item analysis, its numbers and its pages.

The numbers are checked by hand on small cases (Kelley's discrimination index, findings with
their numbers taken out) and on a real grading run of a small class (course_grades.py), whose
every student's outcome is known; the pages are checked for what they say, in English,
Chinese and Korean, and for standing alone offline (their look: tests/browser/)."""

import re

import pytest
from course_grades import A1, A2, course_grades

from grader.analysis import analyse, discrimination, finding_key
from grader.analysis_page import write_pages
from grader.cli import main
from grader.stored import read_grades

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return course_grades(tmp_path_factory)


def test_discrimination_is_upper_minus_lower_27_percent():
    # ten students, ranked by their other points; the top 3 all got it, the bottom 3 none
    item = [0, 0, 0, 1, 0, 1, 0.5, 1, 1, 1]
    rest = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert discrimination(item, rest) == pytest.approx(1.0)
    # the top 3 (rest 9, 8, 7): 1, 1, 1; the bottom 3 (0, 1, 2): 1, 0, 0 -> 1 - 1/3
    assert discrimination([1, 0, 0, 1, 0, 1, 0.5, 1, 1, 1], rest) == pytest.approx(2 / 3)
    # a question the weaker students get and the stronger do not: negative
    assert discrimination([1, 1, 1, 0, 0, 0, 0, 0, 0, 0], rest) == pytest.approx(-1.0)
    # the groups are 27 % of the class, rounded, at least one each
    assert discrimination([0, 0, 1, 1, 1], [0, 1, 2, 3, 4]) == pytest.approx(1.0)
    assert discrimination([0, 1, 1, 1], [0, 1, 2, 3]) is None  # too few to say


def test_findings_lose_their_numbers_not_their_names():
    assert finding_key("df is wrong at 3 of 6 values; at x = -1.25: yours is 4.5, autograd "
                       "gives 2e-05") == ("df is wrong at … of … values; at x = …: yours is …, "
                                          "autograd gives …")
    assert finding_key("x has shape (5, 4) but expected (5, 5)") == (
        "x has shape (…) but expected (…)")
    assert finding_key("y.grad is None — call y.retain_grad() before z.backward()") == (
        "y.grad is None — call y.retain_grad() before z.backward()")
    assert finding_key("x holds float64; q1 and dk_dx2 stay") == (
        "x holds float64; q1 and dk_dx2 stay")


def test_a_class_analysed(graded):
    grades = read_grades(graded["out"])
    two = analyse(grades.of(A2), grades.timing)
    assert (two.graded, two.max_points) == (7, 9)
    assert sorted(two.totals) == [0, 0, 4, 7, 9, 9, 9]
    by_name = {q.name: q for q in two.questions}
    # q1: ada, bob, fay, zed right; cy wrong, eve right only where check() looks; dee blank
    assert dict(by_name["q1"].counts) == {"full": 4, "none": 2, "unanswered": 1}
    assert dict(by_name["q3"].counts) == {"full": 5, "none": 1, "unanswered": 1}
    assert by_name["q1"].mean == pytest.approx(8 / 7)  # the unanswered one counts as 0
    # q1's D: ranked by the other questions: cy 0, dee 0, bob 2 | ada, eve, fay, zed 7 -> the
    # bottom two (cy, dee) got none of it, the top two (fay, zed) all of it
    assert by_name["q1"].discrimination == pytest.approx(1.0)
    wrong = "df is wrong at … of … values; at x = …: yours is …, autograd gives …"
    assert by_name["q1"].findings == [(wrong, 2)]  # dee left it blank: not a mistake
    assert two.unanswered == [("q1", 1), ("q2", 1), ("q3", 1), ("q4", 1)]
    assert {student for _, student in two.seconds} == {"ada", "bob", "cy", "dee", "eve",
                                                         "fay", "zed"}
    assert two.flagged == [] and two.held == [] and two.not_graded == []

    one = analyse(grades.of(A1), grades.timing)
    assert one.graded == 3 and [s for s, _ in one.not_graded] == ["cy"]
    assert one.held == [("bob", ["q1", "q2", "q3"])]
    assert [s for s, _ in one.flagged] == ["bob"]
    by_name = {q.name: q for q in one.questions}
    assert dict(by_name["q1"].counts) == {"full": 1, "none": 1, "held": 1}
    assert by_name["q4"].manual and dict(by_name["q4"].counts) == {"written": 1,
                                                                   "unanswered": 2}
    assert by_name["q1"].discrimination is None  # three students: too few
    assert ("x does not require grad — create it with requires_grad=True", 1) in by_name[
        "q1"].findings


def _text(page: str) -> str:
    return re.sub(r"<svg.*?</svg>", " ", page, flags=re.S)


def test_the_pages_say_the_numbers(graded, tmp_path, capsys):
    assert main(["report", str(graded["out"]), "--out", str(tmp_path), "--lang", "en"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"wrote {tmp_path / A2}.html",
                                                    f"wrote {tmp_path / A1}.html"]
    page = (tmp_path / f"{A2}.html").read_text()
    text = _text(page)
    assert "<h1>Item analysis · Derive it by hand</h1>" in page
    assert "7 submissions graded. For the teacher: this page names students." in text
    assert "Automatic points: mean 5.43 of 9, median 7; lowest 0, highest 9." in text
    row = re.search(r"<tr[^>]*><td>q1 · df/dx for f\(x\) = a·x³ \+ b·x \+ sin\(c·x\)</td>(.*?)</tr>",
                    text).group(1)
    assert re.findall(r">([^<]*)</td>", row) == ["2", "1.14 (57 %)", "1", "4", "0", "2", "1",
                                                 "0"]
    assert ("<span class=share>29 %</span> (2 of 7) df is wrong at … of … values; at x = …: "
            "yours is …, autograd gives …") in text
    seconds = sorted(s for (a, _), s in read_grades(graded["out"]).timing.items() if a == A2)
    total, slowest = round(sum(seconds)), max(seconds)
    assert (f" s per submission (median); {total} s in all; the slowest took "
            f"{slowest:.1f}".rstrip("0").rstrip(".") + " s.") in text
    assert "Nothing was flagged." in text
    other = _text((tmp_path / f"{A1}.html").read_text())
    assert "3 submissions graded. 1 could not be graded." in other
    assert ("<td>bob</td><td>q1 q2 q3</td><td>cell 6 (your answer &#x27;q1_answer&#x27;) uses "
            ".allclose =, .isclose =, beyond what a code answer needs (--strict): held for "
            "review; cell 6 (your answer &#x27;q1_answer&#x27;) replaces numpy.allclose") in other
    assert "<td>cy</td><td>–</td><td>could not be graded: ValueError:" in other
    assert "<td>q4 · What changed, and why?</td><td class=n>2</td><td class=n>graded by you" \
        in other


def test_the_pages_stand_alone_and_come_out_the_same(graded, tmp_path):
    first = write_pages(graded["out"], "en", tmp_path / "one")
    again = write_pages(graded["out"], "en", tmp_path / "two")
    for one, two in zip(first, again):
        page = one.read_text()
        assert page == two.read_text()  # no dates, no random ids
        assert page.count("<svg") >= 3 and page.count("<figcaption") >= 3
        for outside in ("<script", "<link", "<img", "src=", "@import"):
            assert outside not in page, outside
        assert set(re.findall(r"url\((.)", page)) <= {"#"}  # only the SVG's own clips, hatches
        assert "http" not in re.sub(r'xmlns(:\w+)?="http[^"]*"', "", page)  # only SVG's names
        assert "<text" in page  # the plots' numbers stay text (any language, any font)


ENGLISH = re.compile(r"\b(the|of|and|is|students?|points?|graded|question|mean|share|"
                     r"seconds|slowest|flags|held|back|review|teacher|findings?|time)\b",
                     re.IGNORECASE)


@pytest.mark.parametrize("lang, heading", [("zh", "题目分析 · 亲手推导"),
                                           ("ko", "문항 분석 · 손으로 유도하기")])
def test_the_pages_in_the_teachers_language(graded, tmp_path, lang, heading):
    written = write_pages(graded["out"], lang, tmp_path)
    page = (tmp_path / f"{A2}.html").read_text()
    assert f"<h1>{heading}</h1>" in page and f'<html lang="{"zh-CN" if lang == "zh" else "ko"}"' \
        in page
    for path in written:
        text = _text(path.read_text())
        # what is the kit's own text; the students' findings and the grader's flags are quoted
        text = re.sub(r"<ul class=findings>.*?</ul>|<table class=flags>.*?</table>|<title>.*?"
                      r"</title>|<style>.*?</style>|<[^>]+>", " ", text, flags=re.S)
        assert not ENGLISH.findall(text.replace("minigrad-kit review", "")
                                   .replace("timing.csv", "")), (lang, ENGLISH.findall(text))
