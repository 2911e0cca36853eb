"""Right and wrong answers for the kit's assignments, for any student's own numbers.

The instructor notebooks hold the answers for the default numbers only (a published
solution); ``right(assignment, student)`` writes the answers for the numbers drawn for
``student``, as a student who did the work would. ``WRONG`` answers are wrong for every
student. ``build`` makes a submission from the student version of an instructor notebook.
"""

from __future__ import annotations

import copy
import re

import nbformat
from assignment_files import BY_ASSIGNMENT

from grader import notebook as nbg
from grader.questions import find_assignment
from grader.variants import render

WRONG = {
    "tensors_and_gradients": {
        "q1_answer": "x = torch.ones(shape)\ntotal = x.sum()\nprint(total)",
        "q2_answer": "y = x * (factor + 1)\nz = y.sum()",
        "print_before": "print(x.grad)",
        "q3_answer": "print(x.grad)",
    },
    "derive_it_by_hand": {
        "q1_answer": 'df = "3*x**2"', "q2_answer": 'dg = "exp(x) * cos(x)"',
        "q3_answer": 'dh = "1 / (1 + x**2)"', "q4_answer": 'dk_dx = "y**2"\ndk_dy = "2*y"',
    },
    "implement_a_backward": {
        "q1_answer": 'sigmoid_backward = "grad_output * y"',
        "q2_answer": 'tanh_backward = "grad_output * y"',
        "q3_answer": 'softmax_backward = "grad_output * y"',
    },
    "broadcasting_and_reductions": {
        "q1_answer": "a_grad_shape = (9, 9)\nb_grad_shape = (9, 9)",
        "q2_answer": 'a_grad = "b"\nb_grad = "a"', "q3_answer": 'x_grad = "w"',
        "q4_answer": "def unbroadcast(grad, shape):\n    return grad.sum()",
    },
}

UNBROADCAST = """\
def unbroadcast(grad, shape):
    while grad.dim() > len(shape):
        grad = grad.sum(dim=0)
    for dim, size in enumerate(shape):
        if size == 1 and grad.shape[dim] != 1:
            grad = grad.sum(dim=dim, keepdim=True)
    return grad"""


def numbers(assignment: str, student: str | None) -> dict:
    return find_assignment(assignment).variant_for(student)


def right(assignment: str, student: str | None) -> dict:
    """The answer cells of a right submission for ``student``'s numbers."""
    n = numbers(assignment, student)
    if assignment == "derive_it_by_hand":
        a, b, c = n["a"], n["b"], n["c"]
        return {"q1_answer": f'df = "{3 * a}*x**2 + {b} + {c}*cos({c}*x)"',
                "q2_answer": f'dg = "{c}*cos({c}*x)*exp({b}*x) + {b}*sin({c}*x)*exp({b}*x)"',
                "q3_answer": f'dh = "{2 * c}*x / ({a} + {c}*x**2)"',
                "q4_answer": f'dk_dx = "{a}*y**2 + {b}*(1 - tanh({b}*x + {c}*y)**2)"\n'
                             f'dk_dy = "{2 * a}*x*y + {c}*(1 - tanh({b}*x + {c}*y)**2)"'}
    if assignment == "broadcasting_and_reductions":
        return {"q1_answer": f"a_grad_shape = ({n['m']}, 1)\nb_grad_shape = ({n['p']},)",
                "q2_answer": f'a_grad = "{n["c"]} * sum(b)"\nb_grad = "{n["c"]} * sum(a)"',
                "q3_answer": f'x_grad = "w / {n["r"]}"', "q4_answer": UNBROADCAST}
    if assignment == "tensors_and_gradients":
        rows, columns = n["shape"]
        return {"q1_answer": f"x = torch.ones({rows}, {columns}, requires_grad=True)\n"
                             "total = x.sum()\nprint(total)",
                "q2_answer": f"y = x * {n['factor']}\nz = y.sum()",
                "print_before": "print(x.grad, y.grad, z.grad)",
                "q3_answer": "y.retain_grad()\nz.retain_grad()\nz.backward()"}
    k, s, t = n["k"], n["s"], n["T"]
    return {"q1_answer": f'sigmoid_backward = "grad_output * {k} * y * (1 - y)"',
            "q2_answer": f'tanh_backward = "grad_output * {s} * (1 - y**2)"',
            "q3_answer": f'softmax_backward = "y * (grad_output - sum(grad_output * y, -1, '
                         f'keepdim=True)) / {t}"'}


def published(assignment: str) -> dict:
    """The instructor notebook's solution (the default numbers), answer cell by answer cell."""
    source = nbformat.read(BY_ASSIGNMENT[assignment], as_version=4)
    return {nbg.grade_id(c): re.sub(r"[ \t]*### (BEGIN|END) SOLUTION\n?", "", c.source)
            for c in source.cells if nbg.role(c) == "answer" and c.cell_type == "code"}


def build(assignment: str, student: str | None, answers: dict, extra: dict | None = None,
          cell_types: dict | None = None):
    """The student version released to ``student`` (their numbers in its locked cells),
    with ``answers`` (by grade_id), cells of the student's own after the cells named in
    ``extra``, and ``cell_types`` (grade_id -> "code"/"markdown") changed as a student
    might."""
    source = nbformat.read(BY_ASSIGNMENT[assignment], as_version=4)
    released = render(source, find_assignment(assignment), student)
    notebook = copy.deepcopy(nbg.student_version(released))
    cells = []
    for cell in notebook.cells:
        gid = nbg.grade_id(cell)
        if gid in answers:
            cell.source = answers[gid]
        if gid in (cell_types or {}):
            changed = (nbformat.v4.new_code_cell if cell_types[gid] == "code"
                       else nbformat.v4.new_markdown_cell)(cell.source)
            changed.metadata = cell.metadata
            cell = changed
        cells.append(cell)
        if gid in (extra or {}):
            cells.append(nbformat.v4.new_code_cell(extra[gid]))
    notebook.cells = cells
    return notebook
