"""What a learner reads from the stepper is true in every language, and re-running is safe.

* the formulas' symbols are PyTorch's words (result, self, other), never one of
  the learner's names for another tensor, and found with an ASCII pattern (so
  Korean "x의" is the symbol x);
* every identifier of an English sentence is in its Chinese and Korean
  sentence, as often (names of tensors and nodes, symbols);
* Chinese sentences have no space between two Chinese characters;
* a stepper over a graph that backward() freed says so in one sentence;
* a typo in a quiz answer can be corrected; the legend names colours and marks;
* DerivativeCheck takes lists and says what it wants.
"""

import re

import minigrad as torch
import numpy as np
import pytest
from kit_i18n import set_language
from minigrad.autograd import FORMULAS

import widgets
from widgets import BackwardStepper, DerivativeCheck, draw_graph
from widgets.errors import GraphFreed
from widgets.i18n import DOMAIN
from widgets.legend import legend_items
from widgets.symbols import IDENTIFIER, pytorch_words, rewrite

HAN = "\u4e00-\u9fff\u3000-\u303f\uff00-\uffef"


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language(None)


def graphs():
    """The lessons' graphs, named as the lessons name them."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    yield "lesson 4", out, {"x": x, "y": y, "z": z, "out": out}
    yield "lesson 4, unnamed", out, None
    a, b, c = (torch.tensor(v, requires_grad=True) for v in (-2.0, 5.0, -4.0))
    q = a + b
    f = q * c
    yield "lesson 1", f, {"x": a, "y": b, "z": c, "q": q, "f": f}
    h = x
    for _ in range(6):
        h = (h * 0.5).exp()
    yield "a run", h.sum(), {"x": x}
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    yield "tanh, sum, sigmoid", (w.tanh() * w.sigmoid()).sum() / 3, {"w": w}


def identifiers(text: str, known: set) -> list:
    return sorted(token for token in IDENTIFIER.findall(text) if token in known)


@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_every_identifier_of_an_english_sentence_is_in_its_translation(lang):
    for where, out, names in graphs():
        set_language("en")
        english = BackwardStepper(out, names=names).texts
        set_language(lang)
        translated = BackwardStepper(out, names=names).texts
        nodes = {step.node.name() for step in BackwardStepper(out).steps}
        known = set(names or ()) | nodes | {"result", "self", "other", "input", "exponent",
                                            "alpha", "out", "x", "y", "z", "n"}
        for en, tr in zip(english, translated, strict=True):
            assert identifiers(tr, known) == identifiers(en, known), (where, en, tr)
            assert not re.search("[A-Za-z]{3,} [a-z]{3,} [a-z]{3,}", tr.replace(
                "AccumulateGrad for", "")), (where, tr)  # no English sentence left


def test_korean_particles_do_not_hide_a_symbol():
    x = torch.ones(2, 2, requires_grad=True)
    out = ((x + 2) * 3).mean()
    set_language("ko")
    text = BackwardStepper(out, names={"x": x, "out": out}).texts[1]
    # MeanBackward0 averages an unnamed tensor: the formula's x is PyTorch's self
    assert "self의" in text and "x의" not in text
    assert rewrite("x의 평균, x_i, xs, max(x)", {"x": "self"}) == "self의 평균, self_i, xs, max(self)"


def test_formula_symbols_are_pytorchs_words_and_never_a_learners_name():
    for name, formula in FORMULAS.items():
        for taken in ((), ("result", "self", "input", "other"), ("x", "y", "z")):
            words = pytorch_words(formula, taken)
            shown = rewrite(f"{formula.output} = {formula.expression}", words)
            assert not set(IDENTIFIER.findall(shown)) & set(taken), (name, taken, shown)
    x = torch.ones(2, requires_grad=True)
    result = x * 3
    out = result.exp().sum()
    texts = BackwardStepper(out, names={"x": x, "result": result, "self": out}).texts
    exp_step = next(text for text in texts if "ExpBackward0" in text.split(":")[1][:14])
    # the exp's output is not the learner's "result", nor is its input "self"
    assert "ExpBackward0 (output = exp(result))" in exp_step


def test_the_drawings_text_says_formulas_in_pytorchs_words():
    x = torch.ones(2, requires_grad=True)
    y = x.exp()
    text = draw_graph(y.sum(), names={"x": x, "y": y}).text
    assert "ExpBackward0: result = exp(self). d(result)/d(self) = exp(self) = result" in text


def test_chinese_sentences_have_no_space_between_chinese_characters():
    set_language("zh")
    for where, out, names in graphs():
        for text in BackwardStepper(out, names=names).texts:
            assert not re.search(f"[{HAN}] +[{HAN}]", text), (where, text)
    assert "把全为 0.25 的张量传给" in BackwardStepper(next(graphs())[1]).texts[1]


# ---- re-running ----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_a_freed_graph_is_said_in_one_sentence_in_the_learners_language(lang):
    x = torch.ones(2, requires_grad=True)
    out = (x * x).sum()
    out.backward()
    set_language(lang)
    with pytest.raises(RuntimeError) as caught:
        BackwardStepper(out)
    error = caught.value
    assert isinstance(error, GraphFreed) and error.__cause__ is None
    assert error.__context__ is None  # no "during handling of ..." chain either
    lines = error._render_traceback_()  # what IPython shows instead of a traceback
    assert lines == [str(error)] and "\n" not in lines[0]
    assert "backward()" in lines[0]
    if lang == "en":
        assert "run the cells that compute it again" in lines[0]
    else:
        assert DOMAIN.translations().gettext(lines[0]) == lines[0] and not re.search(
            "[a-z]{4,} [a-z]{4,}", lines[0])


def test_a_freed_torch_graph_is_said_the_same_way():
    real = pytest.importorskip("torch")
    x = real.ones(2, requires_grad=True)
    out = (x * x).sum()
    out.backward()
    with pytest.raises(GraphFreed):
        BackwardStepper(out)


def test_in_an_ipython_shell_the_freed_graph_shows_as_its_sentence(capsys):
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    shell.run_cell("import minigrad as torch\nfrom widgets import BackwardStepper\n"
                   "x = torch.ones(2, requires_grad=True)\nout = (x * x).sum()\n"
                   "out.backward()\nBackwardStepper(out)")
    shown = capsys.readouterr()
    printed = shown.out + shown.err
    assert "freed the values it saved" in printed
    assert "Traceback" not in printed and "stepper.py" not in printed


def test_a_typo_in_a_quiz_answer_can_be_corrected():
    x = torch.ones(2, 2, requires_grad=True)
    out = ((x + 2) * 3).mean()
    stepper = BackwardStepper(out, names={"x": x, "out": out}, quiz=True)
    question = stepper.question
    stepper._answer_box.value = "0.25]"
    stepper._check.click()
    assert stepper.index == 0 and stepper.question == question  # not spent
    assert "correct it and press check again" in stepper.feedback
    assert "0.25 each" not in stepper.feedback  # the answer stays hidden
    assert stepper._answer_box.value == "0.25]"  # left in the box to correct
    assert stepper.answer("0.25") is True and stepper.index == 1


# ---- the legend ------------------------------------------------------------------


def test_the_stepper_shows_a_legend_with_marks_as_well_as_colours():
    x = torch.ones(2, requires_grad=True)
    stepper = BackwardStepper((x * 2).sum(), names={"x": x})
    legend = [child.value for child in stepper.children
              if "minigrad-legend" in getattr(child, "value", "")]
    assert len(legend) == 1 and "minigrad-legend" in stepper.static_html()
    words = [text for _, text in legend_items()]
    for colour, mark in (("gold", "thick border"), ("lilac", "dashed border"),
                         ("red arrow", "number"), ("grey arrow", "no number")):
        assert any(colour in text and mark in text for text in words), (colour, mark)
    # the marks the legend names are the picture's: a thick border on the current box,
    # a dashed one on the boxes that ran
    stepper.step().step()
    svg = stepper.svg
    assert 'stroke-width="3"' in svg and 'stroke-dasharray="5,2"' in svg
    css = stepper._picture.value
    assert "stroke-dasharray:5 2" in css and "stroke-width:3px" in css


@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_the_legend_is_translated(lang):
    set_language(lang)
    # (with the colours of every kind of box: a stepper names those it draws)
    for _, text in legend_items(["output", "op", "accumulate", "leaf", "tensor", "saved",
                                 "more"]):
        assert DOMAIN.translations().gettext(text) == text  # (already the translation)
        assert not re.search("[a-z]{4,} [a-z]{4,}", text), text


# ---- DerivativeCheck's inputs ----------------------------------------------------


def test_derivative_check_takes_a_list_of_numbers_as_one_input():
    check = DerivativeCheck(lambda x: (x.sin() * x).sum(), [0.5, 1.0, 2.0],
                            by_hand=lambda x: x.cos() * x + x.sin())
    assert check.passed and len(check.autograd) == 1 and check.autograd[0].shape == (3,)
    expected = np.cos([0.5, 1, 2]) * [0.5, 1, 2] + np.sin([0.5, 1, 2])
    np.testing.assert_allclose(check.autograd[0], expected, rtol=1e-6)
    scalar = DerivativeCheck(lambda x: x ** 3, 2.0, by_hand=lambda x: 3 * x ** 2)
    assert scalar.passed and scalar.by_hand[0].tolist() == 12.0


def test_derivative_check_takes_one_value_per_argument():
    two = DerivativeCheck(lambda x, w: (x * w).sum(), [1.0, 2.0], by_hand=lambda x, w: (w, x))
    assert two.passed and [g.tolist() for g in two.autograd] == [2.0, 1.0]
    tensors = DerivativeCheck(lambda x, w: (x * w).sum(),
                              (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
    assert tensors.passed and tensors.autograd[0].tolist() == [3.0, 4.0]


@pytest.mark.parametrize("fn, inputs, by_hand, said", [
    (lambda x, w: (x * w).sum(), [1.0, 2.0, 3.0], None,
     "fn takes 2 arguments, but inputs holds 3 values"),
    (lambda x: x.sum(), "1, 2", None, "inputs must be tensors or numbers"),
    (lambda x: x.sum(), [[1.0, 2.0], [3.0]], None, "inputs must be tensors or numbers"),
    ("x ** 2", [1.0], None, "fn must be the function to differentiate"),
    (lambda x: x.sum(), [1.0], "2 * x", "by_hand must be a function"),
])
def test_derivative_check_says_what_it_wants(fn, inputs, by_hand, said):
    with pytest.raises(TypeError, match=re.escape(said)):
        DerivativeCheck(fn, inputs, by_hand=by_hand)


def test_derivative_check_documents_its_parameters():
    doc = DerivativeCheck.__doc__
    for parameter in ("``fn``", "``inputs``", "``by_hand``", "``atol``", "``rtol``", "``eps``",
                      "``names``"):
        assert parameter in doc
    assert widgets.DerivativeCheck is DerivativeCheck
