"""Assignment 4 · Broadcasting and reductions: predict gradient shapes and values, then verify.

The locked cells ``example_ab`` and ``example_x`` define tensors and losses;
the student predicts the gradients' shapes (q1, a tuple) and values (q2,
q3) before running backward, then writes ``unbroadcast(grad, shape)`` (q4),
the adjoint of broadcasting. Predictions are data, read from the notebook's
text: the values as **formulas** in the tensors (``a_grad = "2 * a"``), which
the grader evaluates with the restricted parser of ``formula.py`` at the
notebook's tensors (public) and at tensors drawn for each student (hidden),
so no answer is public and fixed. ``unbroadcast`` is code, checked at shapes
drawn for each student, and must not lean on autograd or minigrad's own
``sum_to``. The grader computes every expected value by running the
teacher's cells and autograd in its own process; nothing here stores an
answer.
"""

from __future__ import annotations

import types

import numpy as np

from grader.data import TensorData, attempt, read
from grader.formula import REDUCTIONS
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import as_array, compare, judge_formula, problem, shape_text
from grader.questions import Assignment, Finding, Question

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)


def _gradients(env, loss: str, names: tuple, values: dict) -> list[np.ndarray]:
    """d loss / d each name at ``values`` (name -> array; the others from ``env``)."""
    import minigrad

    tensors = {name: minigrad.tensor(np.array(value, dtype=np.float64))
               for name, value in values.items()}
    function = env[loss]
    function = types.FunctionType(function.__code__, {**function.__globals__, **tensors})
    leaves = [tensors[name].detach().clone().requires_grad_() for name in names]
    function(*leaves).backward()
    return [leaf.grad.numpy().astype(np.float64) for leaf in leaves]


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
    for name, tensor, other in (("a", env["a"], env["b"]), ("b", env["b"], env["a"])):
        answer, expected = f"{name}_grad_shape", tuple(env[name].shape)
        why = problem(data[answer], answer)
        shape = _shape(data[answer])
        if why or shape is None:
            findings.append(Finding(False, why or _("{answer} should be a tuple of sizes, like "
                                                    "(2, 3)").format(answer=answer)))
        elif shape == expected:
            findings.append(Finding(True, _("{answer} is right").format(answer=answer)))
        else:
            broadcast = np.broadcast_shapes(tuple(tensor.shape), tuple(other.shape))
            hint = (_(" — that is the shape of a * b, not of {name}").format(name=name)
                    if shape == broadcast else "")
            findings.append(Finding(False, _("{answer} is {shape}{hint}. A gradient has the "
                                             "shape of its tensor: broadcasting is undone by "
                                             "summing").format(
                answer=answer, shape=shape_text(shape), hint=hint)))
    return findings


def _judge_values(loss: str, names: tuple, variables: tuple, hint: str):
    """Each ``<name>_grad`` formula, at the notebook's tensors (public) or drawn ones."""
    def judge(data, inputs, env) -> list[Finding]:
        values = inputs or {v: env[v].detach().numpy() for v in variables}
        arrays = [np.array(values[v], dtype=np.float64) for v in variables]
        findings = []
        for name, expected in zip(names, _gradients(env, loss, names, values)):
            answer = f"{name}_grad"
            if isinstance(data[answer], list):
                findings.append(Finding(False, _("{answer} is a list of numbers: write it as a "
                                                 "formula in {variables}, like {answer} = "
                                                 "\"2 * {first}\", so that it holds for any "
                                                 "values").format(
                    answer=answer, variables=_(" and ").join(variables), first=variables[0])))
                continue
            # a prediction's feedback says where it is wrong, not what the answer is
            findings += judge_formula(answer, data[answer], variables, REDUCTIONS, arrays,
                                      expected, None, reveal=False, hint=_(hint))
        return findings
    return judge


def _draw(shapes: dict):
    """Tensors of the notebook's shapes with values drawn for each student (never zero)."""
    def draw(rng: np.random.Generator) -> dict:
        values = {}
        for name, shape in shapes.items():
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


def hidden_q4(rng: np.random.Generator) -> list:
    pairs = []
    for _ in range(6):
        shape = [int(rng.choice([1, 2, 3])) for _ in range(int(rng.integers(0, 4)))]
        big = [int(rng.integers(2, 4)) for _ in range(int(rng.integers(0, 3)))]
        big += [int(rng.integers(2, 5)) if n == 1 and rng.random() < 0.7 else n for n in shape]
        pairs.append([rng.integers(-5, 6, big).astype(float).tolist(), shape])
    return pairs


def extract_q4(namespace, inputs):
    import minigrad

    function = read(namespace, "unbroadcast")
    return {"results": [attempt(function, minigrad.tensor(np.array(grad, dtype=np.float64)),
                                tuple(shape)) for grad, shape in inputs]}


def _unbroadcast_by_autograd(grad: np.ndarray, shape: tuple) -> np.ndarray:
    import minigrad

    leaf = minigrad.tensor(np.zeros(shape), requires_grad=True)
    (leaf + minigrad.tensor(np.zeros(grad.shape))).backward(minigrad.tensor(grad))
    return leaf.grad.numpy()


def judge_q4(data, inputs, env) -> list[Finding]:
    findings = []
    for (grad, shape), result in zip(inputs, data["results"]):
        grad, shape = np.array(grad, dtype=np.float64), tuple(shape)
        call = _("unbroadcast(grad of shape {shape}, {target})").format(
            shape=shape_text(grad.shape), target=shape_text(shape))
        array, why = as_array(result, call)
        findings += [Finding(False, why)] if why else compare(
            call, array, _unbroadcast_by_autograd(grad, shape), reference=_("autograd gives"))
    return findings


UNBROADCAST_BY_AUTOGRAD = ("uses autograd or minigrad's own sum_to in unbroadcast, which "
                           "should sum by hand")

ASSIGNMENT = Assignment(
    name="broadcasting_and_reductions",
    title=N_("Broadcasting and reductions"),
    questions=(
        Question("q1", N_("Predict the gradients' shapes"),
                 _read_names("a_grad_shape", "b_grad_shape"), judge_q1,
                 answers=("a_grad_shape", "b_grad_shape")),
        Question("q2", N_("Predict the gradients' values"), _read_names("a_grad", "b_grad"),
                 _judge_values("loss_ab", ("a", "b"), ("a", "b"),
                               N_(" — an entry that broadcasting used several times collects "
                                  "the sum of their gradients")),
                 hidden=_draw({"a": (3, 1), "b": (4,)}), answers=("a_grad", "b_grad")),
        Question("q3", N_("Through a mean"), _read_names("x_grad"),
                 _judge_values("loss_x", ("x",), ("x", "w"), N_(" — x.mean(dim=0) divides by "
                                                                 "the number of rows")),
                 hidden=_draw({"x": (2, 3), "w": (3,)}), answers=("x_grad",)),
        Question("q4", N_("unbroadcast: the adjoint of broadcasting"), extract_q4, judge_q4,
                 public=PUBLIC_Q4, hidden=hidden_q4),
    ),
    context=("setup", "example_ab", "example_x"),
    suspicious=(
        (r"\bbackward\b|\bautograd\b|\.grad\b|[\"']grad[\"']|\bsum_to\b",
         UNBROADCAST_BY_AUTOGRAD, ("q4",)),
    ),
)
