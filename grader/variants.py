"""Each student's own numbers, written into the locked cells of their notebook.

An assignment with a ``Variant`` (``questions.py``) draws numbers for each student. The
instructor notebook holds the default ones, as ordinary Python that runs as it is (so
nbgrader takes the notebook unchanged), in a locked cell:

    a, b, c = 1, 1, 1  # your own numbers, drawn for you

``render(notebook, assignment, student)`` writes the student's numbers into every such
line of a locked code cell (a top-level assignment whose targets are all names of the
variant) and the student's name into the setup cell's ``start(...)`` call, which is how
``check()`` in the notebook knows the same numbers:

    a, b, c = 3, -2, 2  # your own numbers, drawn for you
    start("derive_it_by_hand", student="ada")

``minigrad-kit release --students`` writes one notebook per student this way. The
grader renders the same cells for the student it grades and runs and compares its own
rendering, whatever the submission's cells say.
"""

from __future__ import annotations

import ast
import copy
import json
import secrets

from . import notebook as nbg

__all__ = ["render", "render_source", "default_problems", "course_numbers", "STUDENT"]

STUDENT = "student"  # the keyword of start(...) that names the student


def render(notebook, assignment, student: str | None):
    """A copy of ``notebook`` whose locked code cells show ``student``'s variant."""
    rendered = copy.deepcopy(notebook)
    if assignment.variant is None:
        return rendered
    values = assignment.variant_for(student)
    for cell in rendered.cells:
        if cell.cell_type == "code" and nbg.role(cell) == "locked":
            cell.source = render_source(cell.source, values, student)
    if student:
        meta = rendered.metadata.setdefault("minigrad_kit", {})
        meta[STUDENT] = student
    return rendered


def course_numbers() -> str:
    """A new name to draw the course's numbers for (``Variant``), for a class handed one
    notebook (PrairieLearn, which tells the grader no student's name; Gradescope's
    ``--variants none``): drawn at random, and shown in the handout as any student's name
    is. (Not made from the salt: the handout would show a hash of it, and a salt a person
    chose can be found from its hash by trying words.) ``--numbers-of`` gives it again.

    The instructor notebooks' own numbers are the published solutions' (the kit's wheel
    holds them, and ``minigrad-kit assignments`` copies them out): graded on those, the
    handed-out notebook of assignment 1 scored 9 of 9 with the solution cells pasted in
    (red team 9). The handout shows these numbers, and ``grade --numbers-of`` grades on them."""
    return f"course-{secrets.token_hex(8)}"


def render_source(source: str, values: dict, student: str | None = None) -> str:
    """``source`` with the variant's assignments given ``values`` and, for a student,
    ``student=`` in its top-level ``start(...)`` calls (comments and layout kept)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    edits = []
    for node in tree.body:
        names = _variant_targets(node, values)
        if names:
            shown = [_literal(values[name]) for name in names]
            text = ", ".join(shown) if len(names) > 1 else shown[0]
            edits.append((node.value, text))
        call = node.value if isinstance(node, ast.Expr) else None
        if student and isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                and call.func.id == "start":
            edits.append(_student_edit(source, call, student))
    return _apply(source, edits)


def default_problems(notebook, assignment, where: str) -> list[str]:
    """Where the instructor notebook does not hold the variant's default numbers (each
    name of the variant must be set, to its default, in a locked code cell)."""
    if assignment.variant is None:
        return []
    defaults, seen = assignment.variant.default, {}
    for cell in notebook.cells:
        if cell.cell_type != "code" or nbg.role(cell) != "locked":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in tree.body:
            names = _variant_targets(node, defaults)
            if names:
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    value = [None] * len(names) if len(names) > 1 else None
                seen.update(zip(names, value) if len(names) > 1 else [(names[0], value)])
    found = []
    for name, default in defaults.items():
        if name not in seen:
            found.append(f"{where}: no locked cell sets {name!r}, a number of the variant; "
                         f"add `{name} = {_literal(default)}` to one")
        elif _plain(seen[name]) != _plain(default):
            found.append(f"{where}: a locked cell sets {name!r} to {seen[name]!r}, but the "
                         f"variant's default is {default!r}; make them the same")
    return found


def _variant_targets(node, values: dict) -> list[str]:
    """The names an ``a, b = ...`` statement sets, if every one is the variant's."""
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return []
    target = node.targets[0]
    elements = target.elts if isinstance(target, ast.Tuple) else [target]
    names = [e.id for e in elements if isinstance(e, ast.Name)]
    if len(names) != len(elements) or not all(n in values for n in names):
        return []
    if isinstance(target, ast.Tuple) and not (isinstance(node.value, ast.Tuple)
                                              and len(node.value.elts) == len(names)):
        return []
    return names


def _literal(value) -> str:
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value.item() if hasattr(value, "item") else value)


def _plain(value):
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v) for v in value)
    return value.item() if hasattr(value, "item") else value


def _student_edit(source: str, call: ast.Call, student: str) -> tuple:
    """Set ``student=`` in ``start(...)``: replace the keyword's value, or add one."""
    for keyword in call.keywords:
        if keyword.arg == STUDENT:
            return keyword.value, json.dumps(student, ensure_ascii=False)
    return _End(call), f", {STUDENT}={json.dumps(student, ensure_ascii=False)}"


class _End:
    """Where an inserted keyword goes: just before the call's closing parenthesis."""

    def __init__(self, call: ast.Call) -> None:
        self.lineno = self.end_lineno = call.end_lineno
        self.col_offset = self.end_col_offset = call.end_col_offset - 1


def _apply(source: str, edits: list) -> str:
    """Replace each node's source segment (last first, so offsets stay right)."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:  # ast columns count UTF-8 bytes
        text = lines[line - 1].encode("utf-8")[:column].decode("utf-8")
        return starts[line - 1] + len(text)

    spans = sorted(((offset(n.lineno, n.col_offset), offset(n.end_lineno, n.end_col_offset),
                     text) for n, text in edits), reverse=True)
    for begin, end, text in spans:
        source = source[:begin] + text + source[end:]
    return source
