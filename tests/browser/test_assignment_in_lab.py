"""Scenario 2: a student types an answer into an assignment in JupyterLab and
runs ``check``: first a wrong answer (a specific hint), then a right one."""

import nbformat
import pytest

from grader.notebook import student_version

from conftest import REPO, open_notebook, snapshot

pytestmark = pytest.mark.browser

SOURCE = REPO / "notebooks" / "assignments" / "03_tensors_and_gradients.ipynb"


@pytest.fixture
def student_notebook(lab):
    """The student version of assignment 1, placed in the Lab's folder."""
    _, _, root = lab
    folder = root / "student"
    folder.mkdir(exist_ok=True)
    nbformat.write(student_version(nbformat.read(str(SOURCE), as_version=4)),
                   str(folder / SOURCE.name))
    return f"student/{SOURCE.name}"


def answer_and_check(page, answer_cell, check_cell, code: str) -> str:
    """Replace the answer cell's code, run it and the check cell below it;
    return what the check cell printed."""
    prompt = check_cell.locator(".jp-InputPrompt")
    before = prompt.inner_text()
    editor = answer_cell.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")  # run the answer, select the check cell
    page.keyboard.press("Shift+Enter")  # run check("q1")
    # done when the check cell shows a new execution count ("[5]:", not "[*]:")
    page.wait_for_function(
        "([cell, before]) => cell.innerText !== before && !cell.innerText.includes('*')",
        arg=[prompt.element_handle(), before], timeout=30_000)
    return check_cell.locator(".jp-OutputArea").inner_text()


def test_student_answers_and_checks(page, lab, student_notebook):
    open_notebook(page, lab, student_notebook)
    cells = page.locator(".jp-Notebook .jp-Cell")
    setup = cells.filter(has_text='start("tensors_and_gradients")').first
    setup.click()
    page.keyboard.press("Shift+Enter")
    code_cells = page.locator(".jp-Notebook .jp-CodeCell")
    texts = code_cells.all_inner_texts()
    # pinned by position: the answer cell stops saying "YOUR CODE HERE" once answered
    answer = code_cells.nth(next(i for i, t in enumerate(texts) if "YOUR CODE HERE" in t))
    check = code_cells.nth(next(i for i, t in enumerate(texts) if 'check("q1")' in t
                                and "import" not in t))

    feedback = answer_and_check(page, answer, check, "x = torch.ones(5, 5)\ntotal = x.sum()\n")
    assert "x does not require grad" in feedback, feedback
    assert "public checks passed" not in feedback
    snapshot(page, "2-assignment-hint")

    feedback = answer_and_check(
        page, answer, check, "x = torch.ones(5, 5, requires_grad=True)\ntotal = x.sum()\n")
    assert "public checks passed" in feedback, feedback
    assert "all tests passed" not in feedback.lower()
    snapshot(page, "2-assignment-passed")
