"""Judging an answer given as data cannot stall or crash the grader's own process: each
question is judged in a bounded child process (bounded.py)."""

import time

from busy_core import busy_core

from grader import bounded
from grader.questions import Finding


class _Question:
    name = "q1"

    def __init__(self, judging):
        self.judge = judging


def _forever(data, inputs, env):
    while True:
        pass


def _computes(data, inputs, env):
    start = time.process_time()
    while time.process_time() - start < 0.5:
        pass
    return [Finding(True, "done")]


def _gigabytes(data, inputs, env):
    return [Finding(True, str(len(bytearray(8 * 1024 ** 3))))]


def _honest(data, inputs, env):
    return [Finding(data["df"] == "3*x**2", f"df is {data['df']}")]


def test_a_judging_that_never_ends_is_stopped_with_a_reason(monkeypatch):
    monkeypatch.setattr(bounded, "SECONDS", 1.0)
    bounded._prepare()  # (importing minigrad: seconds on a busy machine)
    start = time.monotonic()
    found = bounded.judge_bounded(_Question(_forever), {"public": ({}, None, {})})
    # (a second of its own, or on a loaded machine the wall's backstop: clock.py)
    assert time.monotonic() - start < bounded.BACKSTOP * 1.0 + 5
    [finding] = found["public"]
    assert not finding.ok and "q1" in finding.text and "longer than 1 s" in finding.text


def test_a_busy_machine_does_not_stop_honest_judging(monkeypatch):
    """0.5 s of CPU time with a limit of 1 s, on a core that three other processes share:
    about 2 s on the wall, which stopped it; the clock counts what it computed (on a
    machine loaded beyond that, 5 times over, the wall's backstop stops it: clock.py)."""
    monkeypatch.setattr(bounded, "SECONDS", 1.0)
    monkeypatch.setattr(bounded, "BACKSTOP", 10_000)  # (the clock alone, however loaded)
    bounded._prepare()
    with busy_core(hogs=3):
        start = time.monotonic()
        found = bounded.judge_bounded(_Question(_computes), {"public": ({}, None, {})})
        took = time.monotonic() - start
    assert found == {"public": [Finding(True, "done")]} and took > 1, took


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
