"""Assignment 3 · Implement a backward: Sigmoid, Tanh and Softmax as Functions.

The kernel hands back, for each input the grader chose: the student's
forward output, the Jacobian their backward gives (one backward pass per
output element) and their forward at x ± eps along each input element. The
grader then does gradcheck's arithmetic itself: finite differences of the
student's forward against the student's backward, and the forward against
minigrad's own sigmoid / tanh / softmax. Last, the backward must be exact:
at float64 it must match the exact Jacobian of minigrad's own function
(autograd, in the grader) within ``EXACT_ATOL``, far below what finite
differences reach, so a backward that differentiates the student's forward
numerically fails even though it passes gradcheck by construction.
"""

from __future__ import annotations

import numpy as np

from grader.data import Missing, Other, TensorData, attempt, read
from grader.i18n import ASSIGNMENTS, N_
from grader.judging import compare, problem, shape_text
from grader.questions import Assignment, Finding, Question

_ = ASSIGNMENTS.gettext  # the student's language (question texts: notebooks/assignments/locale)

EPS = 1e-6
GRADCHECK_ATOL, GRADCHECK_RTOL = 1e-5, 1e-3  # gradcheck's defaults
# A backward written by hand agrees with the exact Jacobian to ~3e-16 at float64 (measured on
# several formulations); central differences are off by ~1e-11, 5- and 7-point stencils by
# 1e-13 and 2e-14.
EXACT_ATOL, EXACT_RTOL = 2e-15, 1e-14

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
                            else _("{name} should be a Function: class {name}(Function) with "
                                   "a forward and a backward").format(name=class_name))]
        findings = []
        for array, run in zip(inputs, data["runs"]):
            findings += _judge_run(class_name, np.array(array, dtype=np.float64), run, reference)
        return findings
    return judge


def _judge_run(name: str, x: np.ndarray, run: dict, reference) -> list[Finding]:
    on = _("on an input of shape {shape}").format(shape=shape_text(x.shape))
    out = run["forward"]
    why = problem(out, f"{name}.apply(x) {on}")
    if why or not isinstance(out, TensorData):
        return [Finding(False, why or _("{name}.apply(x) should return a tensor").format(
            name=name))]
    findings = compare(f"{name}.apply(x) {on}", out.values, reference(x), atol=1e-6, rtol=1e-5)
    expected_node = f"{name}Backward"
    findings.append(Finding(out.grad_fn == expected_node,
                            _("the output's grad_fn is {node}").format(node=out.grad_fn)
                            if out.grad_fn == expected_node else
                            _("the output's grad_fn is {node}, expected {expected}: return the "
                              "result of forward unchanged, and call the Function as "
                              "{name}.apply(x)").format(node=out.grad_fn, expected=expected_node,
                                                        name=name)))
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
                                   or _("{name}.apply did not return a tensor").format(
                                       name=name))]
    plus = np.stack([v.values.reshape(-1) for v in run["plus"]], axis=1)
    minus = np.stack([v.values.reshape(-1) for v in run["minus"]], axis=1)
    numerical = (plus - minus) / (2 * EPS)  # row m: d out[m] / d x[j] for every j
    checked = _gradcheck(analytical, numerical, x.shape, out, on)
    if not checked.ok:
        return findings + [checked]
    return findings + [checked, _exact(name, analytical, reference, x, out, on)]


def _exact(name: str, analytical: np.ndarray, reference, x: np.ndarray, out: TensorData,
           on: str) -> Finding:
    """The student's Jacobian against the exact one, at float64 precision."""
    exact = _exact_jacobian(reference, x)
    if analytical.shape == exact.shape and np.allclose(analytical, exact, atol=EXACT_ATOL,
                                                       rtol=EXACT_RTOL):
        return Finding(True, _("{name}'s backward is exact to float64 precision {on}").format(
            name=name, on=on))
    error = float(np.max(np.abs(analytical - exact))) if analytical.shape == exact.shape \
        else float("inf")
    hint = "" if out.dtype == "float64" else (
        _(" (forward returned {dtype}: compute in the input's float64)").format(dtype=out.dtype))
    return Finding(False, _("{name}'s backward is off by {error} {on}: a backward must be the "
                            "exact derivative, written by hand; finite differences (or "
                            "float32) are only approximate{hint}").format(
        name=name, error=f"{error:.0e}", on=on, hint=hint))


def _exact_jacobian(reference, x: np.ndarray) -> np.ndarray:
    """Row m: the gradient of minigrad's own function's output m (autograd, float64)."""
    import minigrad

    leaf = minigrad.tensor(x, dtype=minigrad.float64, requires_grad=True)
    out = reference.function(leaf)
    rows = []
    for m in range(out.numel()):
        seed = np.zeros(out.numel())
        seed[m] = 1.0
        seed = minigrad.tensor(seed.reshape(tuple(out.shape)), dtype=minigrad.float64)
        row, = minigrad.autograd.grad(out, leaf, seed, retain_graph=True)
        rows.append(row.numpy().reshape(-1))
    return np.stack(rows)


def _gradcheck(analytical, numerical, in_shape, out: TensorData, on: str) -> Finding:
    if analytical.shape != numerical.shape:
        return Finding(False, _("gradcheck {on}: backward gave gradients for {count} input "
                                "values, expected {expected}").format(
            on=on, count=analytical.shape[1], expected=numerical.shape[1]))
    if np.allclose(analytical, numerical, atol=GRADCHECK_ATOL, rtol=GRADCHECK_RTOL):
        return Finding(True, _("gradcheck passed {on}").format(on=on))
    difference = np.abs(analytical - numerical)
    m, j = np.unravel_index(int(np.argmax(difference)), difference.shape)
    at_in = tuple(int(i) for i in np.unravel_index(j, in_shape))
    at_out = tuple(int(i) for i in np.unravel_index(m, out.shape))
    hint = "" if out.dtype == "float64" else (
        _(" (forward returned {dtype}; keep the input's float64 so the finite differences are "
          "accurate)").format(dtype=out.dtype))
    return Finding(False, _("gradcheck {on}: largest difference {difference} at index {index} "
                            "({derivative}: your backward gives {yours}, finite differences "
                            "{numerical}){hint}").format(
        on=on, difference=f"{difference.max():.0e}", index=at_in,
        derivative=f"d out{list(at_out)} / d x{list(at_in)}", yours=f"{analytical[m, j]:.4g}",
        numerical=f"{numerical[m, j]:.4g}", hint=hint))


class _Reference:
    """minigrad's own ``function``: its values (``reference(x)``) and its graph (exact)."""

    def __init__(self, function: str, **kwargs) -> None:
        self.name, self.kwargs = function, kwargs

    def function(self, tensor):
        import minigrad
        return getattr(minigrad, self.name)(tensor, **self.kwargs)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        import minigrad
        return self.function(minigrad.tensor(x)).numpy()


def _minigrad(function: str, **kwargs) -> _Reference:
    return _Reference(function, **kwargs)


def _question(name, title, class_name, reference):
    return Question(name, title, _extract(class_name), _judge(class_name, reference),
                    public=PUBLIC, hidden=_hidden)


AUTOGRAD_INSIDE = "calls autograd inside a Function whose backward should be written by hand"

ASSIGNMENT = Assignment(
    name="implement_a_backward",
    title=N_("Implement a backward"),
    questions=(
        _question("q1", N_("Sigmoid"), "Sigmoid", _minigrad("sigmoid")),
        _question("q2", N_("Tanh"), "Tanh", _minigrad("tanh")),
        _question("q3", N_("Softmax over the last dimension"), "Softmax",
                  _minigrad("softmax", dim=-1)),
    ),
    suspicious=(
        (r"\.backward\s*\(|autograd\s*\.\s*grad\b|\benable_grad\b|\bset_grad_enabled\b",
         AUTOGRAD_INSIDE),
    ),
)
