"""Assignment 3 · Implement a backward: Sigmoid, Tanh and Softmax as Functions.

The kernel hands back, for each input the grader chose: the student's
forward output, the Jacobian their backward gives (one backward pass per
output element) and their forward at x ± eps along each input element. The
grader then does gradcheck's arithmetic itself: finite differences of the
student's forward against the student's backward, and the forward against
minigrad's own sigmoid / tanh / softmax.
"""

from __future__ import annotations

import numpy as np

from ..data import Missing, Other, TensorData, attempt, read
from ..questions import Assignment, Finding, Question
from .common import compare, problem, shape_text

EPS = 1e-6
GRADCHECK_ATOL, GRADCHECK_RTOL = 1e-5, 1e-3  # gradcheck's defaults

PUBLIC = [[-2.0, -0.5, 0.0, 0.5, 3.0], [[0.1, -1.2, 2.0], [0.7, 1.5, -0.3]]]


def _hidden(rng: np.random.Generator) -> list:
    return [rng.normal(0, 2, (3, 4)).round(4).tolist(), rng.normal(0, 2, 6).round(4).tolist()]


def _extract(class_name: str):
    def extract(namespace, inputs):
        from minigrad.autograd import Function

        cls = read(namespace, class_name)
        if isinstance(cls, Missing):
            return {"function": cls}
        if not (isinstance(cls, type) and issubclass(cls, Function)):
            return {"function": Other(type(cls).__name__, "not a subclass of Function")}
        return {"function": cls.__name__, "runs": [_run(cls, np.array(x)) for x in inputs]}
    return extract


def _run(cls, array: np.ndarray) -> dict:
    """Forward, the backward Jacobian (row m = backward of unit vector m), forward at x ± eps."""
    import minigrad

    x = minigrad.tensor(array, dtype=minigrad.float64, requires_grad=True)
    out = attempt(cls.apply, x)
    if not isinstance(out, minigrad.Tensor):
        return {"forward": out}
    rows = []
    for m in range(out.numel()):
        seed = np.zeros(out.numel())
        seed[m] = 1.0
        seed = minigrad.tensor(seed.reshape(tuple(out.shape)), dtype=out.dtype)
        row = attempt(lambda: minigrad.autograd.grad(out, x, seed, retain_graph=True,
                                                     allow_unused=True)[0])
        if not isinstance(row, minigrad.Tensor):
            return {"forward": out, "backward": row}
        rows.append(row)
    plus, minus = [], []
    with minigrad.no_grad():
        for j in range(array.size):
            for sign, results in ((1, plus), (-1, minus)):
                nudged = array.astype(np.float64).copy().reshape(-1)
                nudged[j] += sign * EPS
                results.append(attempt(cls.apply, minigrad.tensor(nudged.reshape(array.shape))))
    return {"forward": out, "backward": rows, "plus": plus, "minus": minus}


def _judge(class_name: str, reference):
    def judge(data, inputs, env) -> list[Finding]:
        function = data["function"]
        if not isinstance(function, str):
            return [Finding(False, problem(function, class_name) if isinstance(function, Missing)
                            else f"{class_name} should be a Function: class "
                                 f"{class_name}(Function) with a forward and a backward")]
        findings = []
        for array, run in zip(inputs, data["runs"]):
            findings += _judge_run(class_name, np.array(array, dtype=np.float64), run, reference)
        return findings
    return judge


def _judge_run(name: str, x: np.ndarray, run: dict, reference) -> list[Finding]:
    on = f"on an input of shape {shape_text(x.shape)}"
    out = run["forward"]
    why = problem(out, f"{name}.apply(x) {on}")
    if why or not isinstance(out, TensorData):
        return [Finding(False, why or f"{name}.apply(x) should return a tensor")]
    findings = compare(f"{name}.apply(x) {on}", out.values, reference(x), atol=1e-6, rtol=1e-5)
    expected_node = f"{name}Backward"
    findings.append(Finding(out.grad_fn == expected_node,
                            f"the output's grad_fn is {out.grad_fn}"
                            + ("" if out.grad_fn == expected_node else
                               f", expected {expected_node}: return the result of forward "
                               f"unchanged, and call the Function as {name}.apply(x)")))
    why = problem(run.get("backward"), f"{name}.backward")
    if why:
        return findings + [Finding(False, why)]
    rows = run["backward"]
    analytical = np.stack([row.values.reshape(-1) if isinstance(row, TensorData)
                           else np.zeros(x.size) for row in rows])
    forwards = run["plus"] + run["minus"]
    bad = next((v for v in forwards if not isinstance(v, TensorData)), None)
    if bad is not None:
        return findings + [Finding(False, problem(bad, f"{name}.apply(x + eps)")
                                   or f"{name}.apply did not return a tensor")]
    plus = np.stack([v.values.reshape(-1) for v in run["plus"]], axis=1)
    minus = np.stack([v.values.reshape(-1) for v in run["minus"]], axis=1)
    numerical = (plus - minus) / (2 * EPS)  # row m: d out[m] / d x[j] for every j
    return findings + [_gradcheck(analytical, numerical, x.shape, out, on)]


def _gradcheck(analytical, numerical, in_shape, out: TensorData, on: str) -> Finding:
    if analytical.shape != numerical.shape:
        return Finding(False, f"gradcheck {on}: backward gave gradients for "
                              f"{analytical.shape[1]} input values, expected {numerical.shape[1]}")
    if np.allclose(analytical, numerical, atol=GRADCHECK_ATOL, rtol=GRADCHECK_RTOL):
        return Finding(True, f"gradcheck passed {on}")
    difference = np.abs(analytical - numerical)
    m, j = np.unravel_index(int(np.argmax(difference)), difference.shape)
    at_in = tuple(int(i) for i in np.unravel_index(j, in_shape))
    at_out = tuple(int(i) for i in np.unravel_index(m, out.shape))
    hint = "" if out.dtype == "float64" else (
        f" (forward returned {out.dtype}; keep the input's float64 so the finite "
        "differences are accurate)")
    return Finding(False, f"gradcheck {on}: largest difference {difference.max():.0e} at "
                          f"index {at_in} (d out{list(at_out)} / d x{list(at_in)}: your "
                          f"backward gives {analytical[m, j]:.4g}, finite differences "
                          f"{numerical[m, j]:.4g}){hint}")


def _minigrad(function: str, **kwargs):
    def reference(x: np.ndarray) -> np.ndarray:
        import minigrad
        return getattr(minigrad, function)(minigrad.tensor(x), **kwargs).numpy()
    return reference


def _question(name, title, class_name, reference):
    return Question(name, title, _extract(class_name), _judge(class_name, reference),
                    public=PUBLIC, hidden=_hidden)


AUTOGRAD_INSIDE = "calls autograd inside a Function whose backward should be written by hand"

ASSIGNMENT = Assignment(
    name="implement_a_backward",
    title="Implement a backward",
    questions=(
        _question("q1", "Sigmoid", "Sigmoid", _minigrad("sigmoid")),
        _question("q2", "Tanh", "Tanh", _minigrad("tanh")),
        _question("q3", "Softmax over the last dimension", "Softmax",
                  _minigrad("softmax", dim=-1)),
    ),
    suspicious=(
        (r"\.backward\s*\(|autograd\s*\.\s*grad\b|\benable_grad\b|\bset_grad_enabled\b",
         AUTOGRAD_INSIDE),
    ),
)
