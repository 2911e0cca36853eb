"""Assignment 2 · Broadcasting and reductions: predict gradient shapes and values, then
write the adjoint of broadcasting by hand.

The locked cells ``example_ab`` and ``example_x`` define tensors and losses with the
student's own numbers (the variant: the shapes m, p, r and the scale c). The student
predicts the gradients' shapes (q1, tuples) and values (q2, q3) before running backward,
then writes ``unbroadcast(grad, shape)`` (q4). Predictions are data, read from the
notebook's text: the values as **formulas** in the tensors (``formula.py``), evaluated by
the grader at the notebook's tensors (public) and at tensors drawn for each student
(hidden), so no answer is public and fixed. ``unbroadcast`` is code, run in a sandbox
where autograd does not exist (``kind=CODE, autograd=False``): its tensors are
``forward_only``'s, so an answer that leans on ``backward()``, ``.grad`` or minigrad's
own ``sum_to`` cannot run there, however it is spelled. The grader computes every
expected value itself (autograd in its own process); nothing here stores an answer.
"""

from __future__ import annotations

import numpy as np

from grader import forward_only
from grader.data import Raised, TensorData, attempt, read
from grader.formula import REDUCTIONS, parse
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import as_array, compare, judge_formula, problem, shape_text
from grader.questions import CODE, DATA, Answer, Assignment, Finding, Question, Variant

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)

# The losses of the cells example_ab and example_x, as formulas.
LOSSES = {"loss_ab": ("c * sum(a * b)", ("a", "b")), "loss_x": ("sum(mean(x, 0) * w)",
                                                                ("x", "w"))}


def draw_numbers(rng: np.random.Generator) -> dict:
    """The student's shapes and scale (never the notebook's m = 3, p = 4, c = 1, r = 2)."""
    return {"m": int(rng.choice([2, 4, 5])), "p": int(rng.choice([3, 5, 6])),
            "c": int(rng.choice([2, 3, 4])), "r": int(rng.choice([3, 4]))}


def _gradients(loss: str, names: tuple, values: dict, numbers: dict) -> list[np.ndarray]:
    """d loss / d each name at ``values`` (name -> array), by minigrad's autograd."""
    import minigrad

    text, variables = LOSSES[loss]
    tensors = {name: minigrad.tensor(np.array(value, dtype=np.float64),
                                     requires_grad=name in names)
               for name, value in values.items()}
    formula = parse(text, variables + ("c",), REDUCTIONS)
    formula.on_tensors(minigrad, **tensors, c=numbers.get("c", 1)).backward()
    return [tensors[name].grad.numpy().astype(np.float64) for name in names]


def _read_names(*names):
    def extract(namespace, inputs):
        return {name: read(namespace, name) for name in names}
    return extract


def _shape(value):
    if isinstance(value, TensorData):
        return None
    if isinstance(value, list) and all(isinstance(n, int) and not isinstance(n, bool)
                                       for n in value):
        return tuple(value)
    return None


def judge_q1(data, inputs, env) -> list[Finding]:
    findings = []
    shapes = {"a": (env["m"], 1), "b": (env["p"],)}
    for name, expected in shapes.items():
        answer = f"{name}_grad_shape"
        why = problem(data[answer], answer)
        shape = _shape(data[answer])
        if why or shape is None:
            findings.append(Finding(False, why or _("{answer} should be a tuple of sizes, like "
                                                    "(2, 3)").format(answer=answer)))
        elif shape == expected:
            findings.append(Finding(True, _("{answer} is right").format(answer=answer)))
        else:
            broadcast = np.broadcast_shapes(*shapes.values())
            hint = (_(" — that is the shape of a * b, not of {name}").format(name=name)
                    if shape == broadcast else "")
            findings.append(Finding(False, _("{answer} is {shape}{hint}. A gradient has the "
                                             "shape of its tensor: broadcasting is undone by "
                                             "summing").format(
                answer=answer, shape=shape_text(shape), hint=hint)))
    return findings


def _judge_values(loss: str, names: tuple, answers: tuple, hint: str):
    """Each ``<name>_grad`` formula, at the notebook's tensors (public) or drawn ones."""
    variables = LOSSES[loss][1]

    def judge(data, inputs, env) -> list[Finding]:
        values = inputs or {v: np.asarray(env[v].detach().numpy(), dtype=np.float64)
                            for v in variables}
        values = {v: np.array(values[v], dtype=np.float64) for v in variables}
        findings = []
        for answer, expected in zip(answers, _gradients(loss, names, values, env)):
            if isinstance(data[answer.name], list):
                findings.append(Finding(False, _("{answer} is a list of numbers: write it as a "
                                                 "formula in {variables}, like {answer} = "
                                                 "\"2 * {first}\", so that it holds for any "
                                                 "values").format(
                    answer=answer.name, variables=_(" and ").join(variables),
                    first=variables[0])))
                continue
            # a prediction's feedback says where it is wrong, not what the answer is
            findings += judge_formula(answer, data[answer.name], values, expected,
                                      reveal=False, hint=_(hint))
        return findings
    return judge


def _draw(shapes):
    """Tensors of the student's shapes with values drawn for each student (never zero)."""
    def draw(rng: np.random.Generator, numbers: dict) -> dict:
        values = {}
        for name, shape in shapes(numbers).items():
            magnitude = rng.integers(1, 10, shape).astype(float)
            values[name] = (magnitude * rng.choice([-1.0, 1.0], shape)).tolist()
        return values
    return draw


PUBLIC_Q4 = [
    [np.arange(12.0).reshape(3, 4).tolist(), [3, 1]],
    [np.arange(12.0).reshape(3, 4).tolist(), [4]],
    [np.ones((2, 3, 4)).tolist(), [3, 1]],
    [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [2, 3]],
    [[1.0, 2.0, 3.0, 4.0], []],
]


def hidden_q4(rng: np.random.Generator, numbers: dict) -> list:
    pairs = []
    for _ in range(6):
        shape = [int(rng.choice([1, 2, 3])) for _ in range(int(rng.integers(0, 4)))]
        big = [int(rng.integers(2, 4)) for _ in range(int(rng.integers(0, 3)))]
        big += [int(rng.integers(2, 5)) if n == 1 and rng.random() < 0.7 else n for n in shape]
        pairs.append([rng.integers(-5, 6, big).astype(float).tolist(), shape])
    return pairs


def extract_q4(namespace, inputs):
    """unbroadcast at each (grad, shape), on tensors without autograd (in check() too)."""
    function = read(namespace, "unbroadcast")
    return {"results": [attempt(function, forward_only.tensor(np.array(grad, dtype=np.float64)),
                                tuple(shape)) for grad, shape in inputs]}


def _adjoint(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """What unbroadcast(grad, shape) must return, by its definition: the gradient autograd
    hands a tensor of ``shape`` that was broadcast (``expand``) to ``grad``'s shape, by
    minigrad's autograd in the judging process. This module is handed out beside the
    notebook (``check()`` reads it): it held the answer written in NumPy (sum the leading
    dimensions, then the stretched ones), three lines a student copied and returned
    through ``grad.numpy()``, with allowed names only, for q4's 2 points."""
    import minigrad

    leaf = minigrad.zeros(shape, dtype=minigrad.float64, requires_grad=True)
    leaf.expand(grad.shape).backward(minigrad.tensor(grad, dtype=minigrad.float64))
    return leaf.grad.numpy().astype(np.float64)


AUTOGRAD_WORDS = ("backward", "grad", "autograd", "sum_to")


def judge_q4(data, inputs, env) -> list[Finding]:
    results = data.get("results") if isinstance(data, dict) else None
    results = list(results) if isinstance(results, list) else []
    # one result per call, whatever arrived (a zip would judge the ones that came)
    results = (results + [Raised("ValueError", "no result for this call")] * len(inputs))[
        :len(inputs)]
    findings = []
    for (grad, shape), result in zip(inputs, results):
        grad, shape = np.array(grad, dtype=np.float64), tuple(shape)
        call = _("unbroadcast(grad of shape {shape}, {target})").format(
            shape=shape_text(grad.shape), target=shape_text(shape))
        array, why = as_array(result, call)
        if why and any(word in why for word in AUTOGRAD_WORDS):
            why += _(" — unbroadcast is graded on tensors without autograd: sum by hand")
        findings += [Finding(False, why)] if why else compare(
            call, array, _adjoint(grad, shape))
    return findings


ASSIGNMENT = Assignment(
    name="broadcasting_and_reductions",
    title=N_("Broadcasting and reductions"),
    questions=(
        Question("q1", N_("Predict the gradients' shapes"),
                 _read_names("a_grad_shape", "b_grad_shape"), judge_q1,
                 answers=("a_grad_shape", "b_grad_shape"), kind=DATA),
        Question("q2", N_("Predict the gradients' values"), _read_names("a_grad", "b_grad"),
                 _judge_values("loss_ab", ("a", "b"),
                               (Answer("a_grad", ("a", "b"), REDUCTIONS),
                                Answer("b_grad", ("a", "b"), REDUCTIONS)),
                               N_(" — an entry that broadcasting used several times collects "
                                  "the sum of their gradients")),
                 hidden=_draw(lambda n: {"a": (n["m"], 1), "b": (n["p"],)}),
                 answers=(Answer("a_grad", ("a", "b"), REDUCTIONS),
                          Answer("b_grad", ("a", "b"), REDUCTIONS)), kind=DATA),
        Question("q3", N_("Through a mean"), _read_names("x_grad"),
                 _judge_values("loss_x", ("x",), (Answer("x_grad", ("x", "w"), REDUCTIONS),),
                               N_(" — x.mean(dim=0) divides by the number of rows")),
                 hidden=_draw(lambda n: {"x": (n["r"], 3), "w": (3,)}),
                 answers=(Answer("x_grad", ("x", "w"), REDUCTIONS),), kind=DATA),
        Question("q4", N_("unbroadcast: the adjoint of broadcasting"), extract_q4, judge_q4,
                 public=PUBLIC_Q4, hidden=hidden_q4, kind=CODE, autograd=False, calls=True),
    ),
    context=("setup", "example_ab", "example_x"),
    variant=Variant(default={"m": 3, "p": 4, "c": 1, "r": 2}, draw=draw_numbers),
)
