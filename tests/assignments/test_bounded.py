"""Judging an answer given as data cannot stall or crash the grader's own process: each
question is judged in a bounded child process (bounded.py)."""

import time

from grader import bounded
from grader.questions import Finding


class _Question:
    name = "q1"

    def __init__(self, judging):
        self.judge = judging


def _forever(data, inputs, env):
    while True:
        pass


def _gigabytes(data, inputs, env):
    return [Finding(True, str(len(bytearray(8 * 1024 ** 3))))]


def _honest(data, inputs, env):
    return [Finding(data["df"] == "3*x**2", f"df is {data['df']}")]


def test_a_judging_that_never_ends_is_stopped_with_a_reason(monkeypatch):
    monkeypatch.setattr(bounded, "SECONDS", 1.0)
    start = time.monotonic()
    found = bounded.judge_bounded(_Question(_forever), {"public": ({}, None, {})})
    assert time.monotonic() - start < 5
    [finding] = found["public"]
    assert not finding.ok and "q1" in finding.text and "longer than 1 s" in finding.text


def test_a_judging_that_wants_gigabytes_is_refused_and_the_grader_lives_on():
    found = bounded.judge_bounded(_Question(_gigabytes), {"public": ({}, None, {}),
                                                          "hidden": ({}, None, {})})
    assert [f.ok for f in found["public"] + found["hidden"]] == [False, False]
    assert "MemoryError" in found["public"][0].text  # (judge() says so; the limit held)


def test_an_ordinary_judging_gives_its_findings_unchanged():
    found = bounded.judge_bounded(_Question(_honest), {"public": ({"df": "3*x**2"}, None, {}),
                                                       "hidden": ({"df": "x"}, None, {})})
    assert found == {"public": [Finding(True, "df is 3*x**2")],
                     "hidden": [Finding(False, "df is x")]}
