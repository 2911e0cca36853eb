"""BackwardCheck speaks the learner's language: every verdict, hint, table and sentence.

The network of the widget's tests is derived by hand with each classic mistake;
in Chinese and Korean nothing it says may hold an English sentence (the same
test as the other widgets', ``test_catalogs_complete``)."""

import re
import sys
from pathlib import Path

import minigrad
import pytest

from kit_i18n import set_language
from test_catalogs_complete import english_left

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "widgets"))
from test_backward_check import N, by_hand, network  # noqa: E402

from widgets import BackwardCheck  # noqa: E402


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language(None)


@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_the_check_speaks_no_english(lang):
    set_language(lang)
    loss, t, X, Y = network(minigrad)
    g = by_hand(minigrad, t, X, Y)
    check = BackwardCheck(loss, t)
    said = [check.summary, check._table.value, check.text]
    mistakes = {"b2": g["logits"], "counts_sum": g["counts_sum"].view(-1), "emb": g["embcat"],
                "W2": g["W2"].T, "logprobs": -g["logprobs"], "logits": g["logits"] * N,
                "W1": g["W1"] / N, "h": g["h"] * 3, "hpre": g["h"],
                "counts": t["counts_sum_inv"].detach() * g["probs"],
                "probs": minigrad.zeros_like(g["probs"]), "C": minigrad.zeros(5)}
    for name, grad in mistakes.items():
        verdict = check.add(name, grad)
        assert verdict.status == "wrong" and verdict.hint, (name, verdict)
        said += [str(verdict), verdict.sentence()]
    said += [check.add(name, grad).sentence() for name, grad in g.items()]
    said += [check.summary, check._table.value, check._live.value, check.svg]
    with pytest.raises(KeyError) as error:
        check.add("dh", g["h"])
    said.append(str(error.value))
    leaks = {text: english_left(text) for text in said}
    assert {text: words for text, words in leaks.items() if words} == {}
    assert all(re.search(r"[\u3040-\u9fff\uac00-\ud7af]", text) for text in said)
