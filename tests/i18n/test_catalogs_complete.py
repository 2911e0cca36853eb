"""The kit's catalogs are complete, and a Chinese or Korean session speaks no English.

Every catalog (widgets, grader, the assignments' texts and notebooks, every lesson) has a
finished translation for every message: none empty, none fuzzy, every {placeholder} of the
English kept. Then the stepper, the drawings' text listing, DerivativeCheck, the quiz,
check() and a feedback report run in each language, and what they say must hold no English
sentence: what is left once the PyTorch names, the formulas (minigrad's table, written as
the code writes them) and the numbers are taken out has no English words."""

import importlib.util
import re
import sys
from pathlib import Path

import minigrad as torch
import pytest

import widgets
from grader import student
from grader.grade import QuestionResult, Result
from grader.report import feedback_markdown
from kit_i18n import set_language
from minigrad.autograd import formula_for
from translation_tool import load_tool
from widgets import plots
from widgets.legend import legend_items
from widgets.quiz import judge, question_for, unreadable

ROOT = Path(__file__).resolve().parents[2]
LANGS = ["zh", "ko"]


TOOL = load_tool()
CATALOGS = [(lang, path) for lang in LANGS for path in TOOL.catalogs(lang)]


@pytest.mark.parametrize("lang, path", CATALOGS,
                         ids=[f"{lang}:{p.relative_to(ROOT)}" for lang, p in CATALOGS])
def test_every_message_is_translated(lang, path):
    assert path.is_file(), f"{path} is missing: make translations"
    assert TOOL.problems(path, TOOL.LANGS[lang]) == [], \
        f"{path.relative_to(ROOT)}: make translations-status LANG_ONLY={lang}"


# ---- no English in a zh or ko session --------------------------------------------------

# Words of English prose; none is a PyTorch name or a formula's symbol once those are removed
ENGLISH = re.compile(r"\b(the|to|of|and|is|was|so|it|its|from|got|sends|each|becomes|which|"
                     r"add|up|there|here|only|what|needs|nothing|goes|will|starting|at|with|"
                     r"your|you|are|be|this|that|not|but|for|into|by|when|than|step|steps|"
                     r"right|wrong|yours|expected|passed|failed|checks|teacher|gradient|"
                     r"gradients|before|after|agrees|disagrees|differences|entry|entries|where|else|"
                     r"elements|over|all|frame|frames)\b",
                     re.IGNORECASE)
CODE = re.compile(r"`[^`]*`|\b\w+Backward\d\b|\bAccumulateGrad\b|\b\w+\([^()]*\)|"
                  r"\b[\w.]+\.(grad|grad_fn|backward|apply|sum|mean|retain_grad)\b|"
                  r"\b\w+=\w+|\btorch\.\w+|\bNone\b|\bfloat\d+\b|\bmax_nodes=N\b")


def formulas(node_names) -> list[str]:
    """The formula texts of these nodes, as the widgets write them (longest first)."""
    found = set()
    for name in node_names:
        formula = formula_for(name)
        if formula is not None:
            found |= {formula.expression, f"{formula.output} = {formula.expression}"}
            found |= {formula.term(n) for n in formula.inputs}
            found |= set(formula.d.values()) | set(formula.grad.values())
    return sorted(found, key=len, reverse=True)


def english_left(text: str, node_names=()) -> list[str]:
    text = CODE.sub(" ", re.sub(r"<[^>]+>", " ", text))
    return ENGLISH.findall(text)


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language(None)


def tutorial():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    return x, y, out


NODES = ["MeanBackward0", "MulBackward0", "AddBackward0", "PowBackward0", "SumBackward0",
         "ExpBackward0"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_widgets_speak_no_english(lang):
    set_language(lang)
    x, y, out = tutorial()
    said = []
    for names in (None, {"x": x, "y": y, "out": out}):
        stepper = widgets.BackwardStepper(out, names=names, quiz=True)
        said += stepper.texts + [stepper.question]
        asked = question_for(stepper.steps[0], stepper.model)
        said += [asked.text, judge(asked, "0.25")[1], judge(asked, "7")[1],
                 judge(asked, "[1, 2, 3]")[1], judge(asked, "seven")[1]]
    chain = x
    for _ in range(6):
        chain = chain.exp() * 2
    big = widgets.BackwardStepper(chain.sum(), names={"x": x})
    said += big.texts + [repr(big), repr(widgets.BackwardStepper(out))]
    said.append(widgets.draw_graph(out, names={"x": x, "out": out}, show_saved=True).text)
    said.append(widgets.draw_graph(chain.sum(), max_nodes=4).text)
    check = widgets.DerivativeCheck(lambda x: (3 * (x + 2) ** 2).mean(), torch.ones(2, 2),
                                    by_hand=lambda x: 6 * (x + 2))
    said += [str(check.result), check.result._repr_html_()]
    # what lessons v3 added: the legend, a typo in the quiz, a freed graph, DerivativeCheck's
    # wrong arguments, the lessons' pictures (their text alternatives)
    said += [text for _, text in legend_items()] + [unreadable("0.25]")]
    used = (x * x).sum()
    used.backward()
    with pytest.raises(RuntimeError) as freed:
        widgets.BackwardStepper(used)
    said.append(str(freed.value))
    for bad in ((lambda x, w: (x * w).sum(), [1.0, 2.0, 3.0]), (lambda x: x.sum(), "1, 2"),
                ("x ** 2", [1.0])):
        with pytest.raises(TypeError) as wrong:
            widgets.DerivativeCheck(*bad)
        said.append(str(wrong.value))
    points, labels = plots.two_moons(20)
    said += [plots.descent_picture([3, 1.5, 0.75]).alt,
             plots.paths_picture({"a": [1, 0.5], "b": [1, -1]}).alt,
             plots.loss_picture([0.7, 0.1]).alt, plots.moons_picture(points, labels).alt,
             plots.boundary_picture(lambda p: torch.zeros(p.shape[0], 2), points, labels,
                                    torch).alt]
    leaks = {text: english_left(text, NODES) for text in said}
    assert {t: words for t, words in leaks.items() if words} == {}
    assert all(re.search(r"[\u3040-\u9fff\uac00-\ud7af]", t) for t in said if t)


def load(name: str):
    spec = importlib.util.spec_from_file_location(
        name, ROOT / "notebooks" / "assignments" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("lang", LANGS)
def test_check_and_the_feedback_speak_no_english(lang, tmp_path, monkeypatch, capsys):
    set_language(lang)
    monkeypatch.chdir(ROOT / "notebooks" / "assignments")
    student.start("derive_it_by_hand")
    said = [capsys.readouterr().out]
    namespace = {"f": lambda x: x ** 3 - 2 * x, "df": "3*x**2"}
    with pytest.raises(AssertionError) as wrong:
        student.check("q1", namespace=namespace)
    said.append(str(wrong.value))
    namespace["df"] = "3*x**2 + 1 + cos(x)"
    student.check("q1", namespace=namespace)
    with pytest.raises(AssertionError) as undefined:
        student.check("q4", namespace={})  # not defined
    said += [str(undefined.value), capsys.readouterr().out]
    student.start("tensors_and_gradients")
    x = torch.ones(5, 5)
    with pytest.raises(AssertionError):
        student.check("q1", namespace={"x": x, "total": x.sum()})
    student.check_all(namespace={"x": x})
    said.append(capsys.readouterr().out)
    result = Result("ada", "tensors_and_gradients", "ada.ipynb", title="T", lang=lang,
                    questions=[QuestionResult("q1", "T1", 0.0, 2.0, findings=[
                        [False, said[1], "public"], [True, said[1], "hidden"]]),
                               QuestionResult("q4", "T4", None, 1.0, manual=True, note="")])
    said.append(feedback_markdown(result))
    leaks = {text: english_left(text) for text in said}
    assert {t: words for t, words in leaks.items() if words} == {}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_a_graded_report_speaks_no_english(lang):
    """A submission in zh or ko, graded: its feedback, problems, flags and held-back reasons
    (a missing cell, an error, a timeout, code beyond --strict, a finite difference, a
    formula that cannot be read, a free cell that forges) are all in its language."""
    sys.path.insert(0, str(ROOT / "tests" / "assignments"))
    from attacks import HIDDEN_ENCODER, stencils
    from keys import WRONG, build, numbers

    from grader.grade import Options, grade_notebook
    from grader.source import load_source

    said = []
    for name, answers, extra, delete in (
            ("tensors_and_gradients", {**WRONG["tensors_and_gradients"],
                                       "q2_answer": "y = x * 2\nimport time\ntime.sleep(30)",
                                       "q3_answer": HIDDEN_ENCODER},
             {"setup": "import sys\nsys.modules.clear()"}, "print_before"),
            ("derive_it_by_hand", {**stencils(numbers("derive_it_by_hand", "ada")),
                                   "q4_answer": 'dk_dx = "3x"\ndk_dy = torch.ones(2)'}, {},
             "q2")):
        source = load_source(ROOT / "notebooks" / "assignments" / {
            "tensors_and_gradients": "03_tensors_and_gradients.ipynb",
            "derive_it_by_hand": "01_derive_it_by_hand.ipynb"}[name])
        notebook = build(name, "ada", answers, extra)
        notebook.cells = [c for c in notebook.cells
                          if (c.metadata.get("nbgrader") or {}).get("grade_id") != delete]
        notebook.metadata["lang"] = lang
        result = grade_notebook(source, notebook, "ada", "ada.ipynb", Options(timeout=3))
        assert result.lang == lang and result.problems
        said += [feedback_markdown(result), *result.flags, *result.problems]
        said += [text for q in result.questions for text in q.review]
    leaks = {text[:300]: english_left(text) for text in said}
    assert {t: words for t, words in leaks.items() if words} == {}


def test_chinese_punctuation_in_a_run_the_repr_and_check(monkeypatch, capsys):
    """The sentence of a collapsed run, BackwardStepper's repr and check()'s headline
    are templates in the catalogs, so Chinese gets its own punctuation (；：（）。)."""
    set_language("zh")
    x = torch.ones(2, 2, requires_grad=True)
    chain = x
    for _ in range(6):
        chain = chain.exp() * 2
    big = widgets.BackwardStepper(chain.sum(), names={"x": x})
    runs = [text for text in big.texts if " × " in text]
    assert runs and all("; " not in t and "：" in t and "；" in t and t.endswith("。")
                        for t in runs), runs
    assert any("（" in t and "）" in t for t in runs), runs  # a run's rule, in brackets
    shown = repr(big)
    assert shown.startswith("BackwardStepper（") and shown.endswith("）"), shown
    monkeypatch.chdir(ROOT / "notebooks" / "assignments")
    student.start("derive_it_by_hand")
    capsys.readouterr()
    student.check("q1", namespace={"df": "3*x**2 + 1 + cos(x)"})
    with pytest.raises(AssertionError) as wrong:
        student.check("q1", namespace={"f": lambda x: x ** 3 - 2 * x, "df": "3*x**2"})
    headline = capsys.readouterr().out.splitlines()[0]
    assert headline.startswith("q1 · ") and "：" in headline and ": " not in headline, headline
    assert str(wrong.value).startswith("q1："), wrong.value
