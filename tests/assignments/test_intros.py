"""The code an assignment's text suggests runs as written in that notebook: every call of a
dotted name in a markdown cell (`widgets.DerivativeCheck(...)`, `z.backward()`) starts from a
name a cell of the notebook defines (an import, an assignment, a function). (Issue 13: assignment 2's intro recommended
`widgets.DerivativeCheck(...)` but its setup cell never imported widgets: a NameError.)"""

import ast
import re

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT

from grader.scan import defined_names


def _suggested_calls(notebook) -> list[str]:
    """Inline code spans of the markdown cells that parse as a call of a dotted name."""
    found = []
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for span in re.findall(r"`([^`\n]+)`", cell.source):
            try:
                tree = ast.parse(span, mode="eval").body
            except SyntaxError:
                continue
            if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Attribute):
                found.append(span)
    return found


def _root(span: str) -> str:
    node = ast.parse(span, mode="eval").body.func
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


@pytest.mark.parametrize("name", BY_ASSIGNMENT)
def test_suggested_code_names_what_the_notebook_defines(name):
    path = BY_ASSIGNMENT[name]
    notebook = nbformat.read(path, as_version=4)
    defined = set().union(*(defined_names(c.source) for c in notebook.cells
                            if c.cell_type == "code"))
    suggested = _suggested_calls(notebook)
    for span in suggested:
        assert _root(span) in defined, (
            f"{path.name} suggests `{span}`, but no cell of the notebook defines "
            f"{_root(span)!r}: a student who types it gets a NameError")


def test_the_check_finds_the_old_defect():
    """The intro of issue 13, with a setup cell that imports no widgets, is caught."""
    intro = nbformat.v4.new_markdown_cell(
        "Check it with `widgets.DerivativeCheck(lambda x: f(x).sum(), torch.randn(4), "
        "by_hand=df)`.")
    notebook = nbformat.v4.new_notebook(cells=[intro])
    assert _suggested_calls(notebook) == [
        "widgets.DerivativeCheck(lambda x: f(x).sum(), torch.randn(4), by_hand=df)"]
    assert _root(_suggested_calls(notebook)[0]) == "widgets"
