"""Scenario 5: the stepper's quiz mode in JupyterLab.

The learner types the gradient the next node will send, presses "check", and
reads whether it was right; the stepper then shows the step. The expected
verdicts come from the same stepper driven from Python in this process. The
sentence of each new frame is also in the stepper's polite live region.
"""

import nbformat
import pytest

from conftest import open_notebook, run_all, shown_frame, snapshot
from widgets import BackwardStepper

pytestmark = pytest.mark.browser

TUTORIAL = """\
import minigrad as torch
import widgets

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
out = (y * y * 3).mean()
"""
ANSWERS = ["0.25", "0.5"]  # the first is right, the second is not
TYPO = "0.25]"  # typed before the first answer: not read, so the question stays


def expected_verdicts():
    scope = {}
    exec(TUTORIAL, scope)
    stepper = BackwardStepper(scope["out"], names={"x": scope["x"]}, quiz=True)
    questions, verdicts = [], []
    for answer in ANSWERS:
        questions.append(stepper.question)
        right = stepper.answer(answer)
        verdicts.append((right, stepper.feedback, stepper.text))
    return questions, verdicts, len(stepper.steps)


def test_quiz_mode_in_lab(page, lab):
    questions, verdicts, total = expected_verdicts()
    assert [right for right, _, _ in verdicts] == [True, False]
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                       "display_name": "Python 3 (ipykernel)"}
    notebook.cells = [nbformat.v4.new_code_cell(TUTORIAL), nbformat.v4.new_code_cell(
        'widgets.BackwardStepper(out, names={"x": x}, quiz=True)')]
    nbformat.write(notebook, lab[2] / "quiz.ipynb")

    open_notebook(page, lab, "quiz.ipynb")
    run_all(page)
    stepper = page.locator(".minigrad-stepper").first
    stepper.locator("svg").first.wait_for(timeout=60_000)
    shown_frame(stepper, 0, total)
    box = stepper.get_by_role("textbox", name="answer")
    stepper.get_by_text(questions[0]).wait_for(timeout=15_000)
    box.fill(TYPO)
    stepper.get_by_role("button", name="check").click()
    stepper.get_by_text("correct it and press check again").wait_for(timeout=15_000)
    shown_frame(stepper, 0, total)  # the question is not spent
    assert box.input_value() == TYPO  # left in the box to correct
    snapshot(page, "5-quiz-typo", stepper)
    for index, (answer, question, (right, feedback, sentence)) in enumerate(
            zip(ANSWERS, questions, verdicts), start=1):
        stepper.get_by_text(question).wait_for(timeout=15_000)
        box.fill(answer)
        stepper.get_by_role("button", name="check").click()
        frame = shown_frame(stepper, index, total)
        status = stepper.locator('[role="status"][aria-live="polite"]')
        status.filter(has_text=feedback).wait_for(timeout=15_000)
        assert sentence in frame.inner_text()
        status.filter(has_text=sentence).wait_for(state="attached", timeout=15_000)
        snapshot(page, f"5-quiz-answer-{index}-{'right' if right else 'wrong'}", stepper)
