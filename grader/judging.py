"""Judging helpers that question modules share, with autograd-specific feedback.

Each helper returns ``Finding``s whose text tells the student what is wrong
and what to try: "x.grad is None — did you call backward()?", "x.grad has
shape (5,) but expected (5, 5)".
"""

from __future__ import annotations

import contextlib
import contextvars

import numpy as np

from .data import TOO_MANY, Missing, Other, Raised, TensorData
from .formula import FormulaError, parse
from .i18n import _
from .questions import Finding

__all__ = ["autograd_gradient", "shape_text", "problem", "as_array", "compare", "check_grad",
           "is_tensor", "judge_formula", "parse_answer", "described", "exact_elementwise",
           "exact_projection", "not_exact", "withholding", "withheld", "ATOL", "RTOL",
           "WITHHELD"]

ATOL, RTOL = 1e-6, 1e-4  # float64 answers; float32 ones get ATOL_32
ATOL_32 = 1e-4

# What the student's code made, in a hidden test of a code question, as the findings show it.
# That code was called with the hidden inputs, so anything of its result the feedback
# quotes is a channel it chose to carry them out, to be hard-coded in a next submission
# graded on the same ones: a returned value's shape (``np.zeros([0] + grad.tolist())``:
# "has shape (0, 3, 7, 1, ...)"), the repr of a ragged list ("is [[3.0, -1.0, ...], [0]]"),
# "yours is", which values were wrong and how many, a gradient's ratio, the line that
# raised. The kit's findings then say only what failed and what the grader itself gave
# (the call, the shape expected); the verdict is the same. (``grade._as_shown`` already
# withheld the words: text, messages, reprs; a question module's own wording is its own.)
# A formula answer's hidden tests (``withholding(everything=False)``) keep the grader's
# own words (the point, the expected value), but not the formula's value there, nor its
# shape: ``b[0] + 100*b[1] + 10000*b[2]`` said three hidden numbers a finding, for a
# formula of comparisons that looks them up.
WITHHELD = "…"
_WITHHOLDING = contextvars.ContextVar("minigrad_kit_withholding", default="")


@contextlib.contextmanager
def withholding(everything: bool = True):
    """Within it, the helpers below quote nothing of the student's result (see WITHHELD);
    ``everything`` False: only the values and shapes a formula gave."""
    token = _WITHHOLDING.set("everything" if everything else "values")
    try:
        yield
    finally:
        _WITHHOLDING.reset(token)


def withheld() -> bool:
    """Whether the findings being written are a hidden test's of code (``withholding``)."""
    return _WITHHOLDING.get() == "everything"


def _yours_withheld() -> bool:
    return bool(_WITHHOLDING.get())


def autograd_gradient(fn, points: list) -> list:
    """d fn / d point for each float64 array in ``points``, by minigrad's autograd
    (``fn`` returns a scalar tensor), as float64 arrays."""
    import minigrad

    leaves = [minigrad.tensor(np.asarray(p, dtype=np.float64), requires_grad=True)
              for p in points]
    grads = minigrad.autograd.grad(fn(*leaves), leaves, allow_unused=True,
                                   materialize_grads=True)
    return [g.detach().numpy().astype(np.float64) for g in grads]


def shape_text(shape) -> str:
    """``(5, 5)``, ``(5,)``, ``()``: the way ``tuple(t.shape)`` prints."""
    return str(tuple(int(n) for n in shape))


def problem(value, name: str) -> str | None:
    """Why ``value`` cannot be judged at all (not defined, raised, wrong type), or None."""
    if isinstance(value, Missing):
        # (also what a student who ran the unanswered cell sees: it raised before defining it)
        return _("{name} is not defined — write it in its answer cell (in place of `raise "
                 "NotImplementedError()`) and run that cell (and the cells above it)").format(
            name=value.name)
    if isinstance(value, Raised):
        if value.kind == "NotImplementedError":
            return _("{name} raised NotImplementedError — replace `raise "
                     "NotImplementedError()` with your code").format(name=name)
        where = f" ({value.where})" if value.where and not withheld() else ""
        return _("{name} raised {error}: {message}{where}").format(
            name=name, error=value.kind, message=value.message, where=where)
    if isinstance(value, Other):
        return _("{name} is {what} ({text}), expected a tensor").format(
            name=name, what=described(value), text=value.text)
    return None


def is_tensor(value) -> bool:
    return isinstance(value, TensorData)


def as_array(value, name: str):
    """``(array, None)`` for a tensor, array, number or list of numbers; else ``(None, why)``."""
    why = problem(value, name)
    if why:
        return None, why
    if isinstance(value, TensorData):
        return value.values, None
    if isinstance(value, np.ndarray):
        return value.astype(np.float64), None
    try:
        array = np.array(_floats(value), dtype=np.float64)
    except (TypeError, ValueError):
        return None, _("{name} is {value}, expected a tensor or numbers").format(
            name=name, value=WITHHELD if withheld() else repr(value))
    return array, None


def _floats(value):
    """Nested lists of numbers (``"nan"``/``"inf"`` as JSON carries them) -> floats."""
    if isinstance(value, list):
        return [_floats(v) for v in value]
    if isinstance(value, TensorData):
        return value.values.tolist()
    if isinstance(value, str) and value in ("nan", "inf", "-inf"):
        return float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(value)
    return float(value)


def compare(name: str, got: np.ndarray, expected: np.ndarray, *, atol: float = ATOL,
            rtol: float = RTOL, where=None, reference: str | None = None,
            broadcast: bool = False, reveal: bool = True, hint: str = "") -> list[Finding]:
    """Shape, then values. ``where(index)`` names a position (e.g. "at x = 0.5");
    ``reference`` says what the expected value is ("x.sum() is"; default "expected").
    ``reveal`` False: a wrong value's finding says where, not what the answer is;
    ``hint`` is added to it."""
    reference = _("expected") if reference is None else reference
    got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    if broadcast and got.shape != expected.shape:
        try:
            got = np.broadcast_to(got, expected.shape)
        except ValueError:
            pass
    if got.shape != expected.shape:
        return [Finding(False, _("{name} has shape {shape} but expected {expected}").format(
            name=name, shape=WITHHELD if _yours_withheld() else shape_text(got.shape),
            expected=shape_text(expected.shape)))]
    if got.size == 0:  # (no value compared is nothing checked: all() of nothing is True,
        # and an x of shape (0, 5) made y = x * (factor + 1) "right" against factor * x)
        return [Finding(False, _("{name} has no values (shape {shape}): nothing to check")
                        .format(name=name, shape=shape_text(got.shape)))]
    close = np.isclose(got, expected, atol=atol, rtol=rtol) & np.isfinite(got)
    if close.all():
        return [Finding(True, _("{name} is right ({count} values)").format(
            name=name, count=got.size) if got.size > 1 else
            _("{name} is right").format(name=name))]
    if withheld():
        return [Finding(False, _("{name} is wrong (a hidden test: what your code returned is "
                                 "not shown)").format(name=name) + hint)]
    wrong = np.argwhere(~close)
    first = tuple(int(i) for i in wrong[0])
    said = {"name": name, "reference": reference,
            "yours": WITHHELD if _yours_withheld() else f"{got[first]:.6g}",
            "expected": f"{expected[first]:.6g}"}
    if got.size > 1:
        at = where(first) if where else _("at index {index}").format(index=first)
        text = (_("{name} is wrong at {wrong} of {count} values; {at}: yours is {yours}, "
                  "{reference} {expected}") if reveal else
                _("{name} is wrong at {wrong} of {count} values; {at}: yours is {yours}"))
        return [Finding(False, text.format(**said, wrong=len(wrong), count=got.size, at=at)
                        + hint)]
    text = (_("{name} is wrong: yours is {yours}, {reference} {expected}") if reveal else
            _("{name} is wrong: yours is {yours}"))
    return [Finding(False, text.format(**said) + hint)]


def check_grad(name: str, tensor, expected: np.ndarray, *, how: str) -> list[Finding]:
    """``name.grad`` against ``expected``; ``how`` says how the gradient gets there."""
    why = problem(tensor, name)
    if why or not isinstance(tensor, TensorData):
        return [Finding(False, why or _("{name} is not a tensor").format(name=name))]
    if tensor.grad is None:
        return [Finding(False, _("{name}.grad is None — {how}").format(name=name, how=how))]
    got = tensor.grad.values
    if got.shape != expected.shape:
        return [Finding(False, _("{name} has shape {shape} but expected {expected}").format(
            name=f"{name}.grad", shape=WITHHELD if withheld() else shape_text(got.shape),
            expected=shape_text(expected.shape)))]
    if got.size and np.allclose(got, expected, atol=ATOL_32, rtol=RTOL):
        return [Finding(True, _("{name} is right").format(name=f"{name}.grad"))]
    ratio = None if withheld() else _common_ratio(got, expected)
    if ratio is not None and ratio >= 2:
        return [Finding(False, _("{name}.grad is {ratio} times the expected gradient — did "
                                 "you call backward() more than once? Gradients accumulate in "
                                 ".grad; run the notebook again from the top").format(
            name=name, ratio=f"{ratio:g}"))]
    return compare(f"{name}.grad", got, expected, atol=ATOL_32)


def _common_ratio(got: np.ndarray, expected: np.ndarray):
    nonzero = expected != 0
    if not nonzero.any():
        return None
    ratios = got[nonzero] / expected[nonzero]
    if np.allclose(ratios, ratios.flat[0]) and float(ratios.flat[0]).is_integer():
        return float(ratios.flat[0])
    return None


# --- answers written as formulas ----------------------------------------------------------

FORMULA_TOL = 1e-9  # float64 agreement; exactness is the next check (exact.py)
EXACT_POINTS = 6  # points (or elements) at which a formula is checked at 200 digits


def described(value) -> str:
    """What a value is, in the student's words: "a tensor", "a number", "a function"."""
    if isinstance(value, TensorData):
        return _("a tensor")
    if isinstance(value, Other):
        return {"function": _("a function"), "class": _("a class"), "import": _("an import"),
                "value computed by code": _("a value computed by code"),
                TOO_MANY: _("a tensor with too many values to check")}.get(
            value.kind, _("a {kind}").format(kind=value.kind))
    if isinstance(value, bool):
        return _("True or False")
    if isinstance(value, (int, float)):
        return _("a number")
    if isinstance(value, list):
        return _("a list")
    return _("a {kind}").format(kind=type(value).__name__)


def parse_answer(answer, text):
    """``(formula, None)``, or ``(None, Finding)`` saying why the answer is not one."""
    name = answer.name
    if isinstance(text, (Missing, Raised)):
        return None, Finding(False, problem(text, name))
    if not isinstance(text, str):
        return None, Finding(False, _("{name} is {what}, not a formula: write the formula as "
                                      "text, in quotes ({name} = \"...\")").format(
            name=name, what=described(text)))
    try:
        return parse(text, answer.variables, answer.functions, answer.labels), None
    except FormulaError as error:
        return None, Finding(False, f"{name}: {error}")


def judge_formula(answer, text, values: dict, expected: np.ndarray, *, where=None,
                  reveal: bool = True, hint: str = "", exact=None) -> list[Finding]:
    """A formula answer (``questions.Answer``), evaluated at ``values`` and compared with
    ``expected`` in float64; then, if it agrees, ``exact(formula)`` (a Finding, or None)
    decides whether it is the derivative itself or an approximation. ``reveal``, ``hint``:
    as ``compare``."""
    formula, refused = parse_answer(answer, text)
    if refused:
        return [refused]
    try:
        got = formula.evaluate(**values)
    except FormulaError as error:
        return [Finding(False, f"{answer.name}: {error}")]
    try:
        got = np.broadcast_to(got, expected.shape)
    except ValueError:
        pass
    found = compare(answer.name, got, expected, atol=FORMULA_TOL, rtol=FORMULA_TOL, where=where,
                    reference=_("autograd gives"), reveal=reveal, hint=hint)
    if exact is not None and all(f.ok for f in found):
        verdict = exact(formula)
        if verdict is not None:
            return [verdict]
    return found


def not_exact(name: str, digits: float) -> Finding:
    from .exact import AGREE
    shown = "0" if digits <= 0 else f"{digits:.0f}"
    return Finding(False, _("{name} agrees with the derivative to only about {digits} digits, "
                            "where the exact derivative agrees to {agree} or more: it is an "
                            "approximation (a finite difference?), not the derivative; work "
                            "out the exact derivative").format(name=name, digits=shown,
                                                               agree=AGREE))


def exact_elementwise(name: str, values: dict, reference, variable: str):
    """``exact`` for ``judge_formula``: the formula's value at each point against the
    derivative of ``reference`` (a function of the values, giving an array at 310 digits:
    e.g. a formula's ``exact``) along ``variable``, elementwise, at the first
    ``EXACT_POINTS`` points."""
    from .exact import AGREE, agreement, directional, evaluate

    few = {k: np.asarray(v).reshape(-1)[:EXACT_POINTS] if np.ndim(v) else v
           for k, v in values.items()}

    def check(formula) -> Finding | None:
        try:
            got = evaluate(formula, few)
        except FormulaError as error:
            return Finding(False, f"{name}: {error}")
        expected = directional(reference, few, variable, np.ones(np.shape(few[variable])))
        digits = agreement(got, expected)
        return None if digits >= AGREE else not_exact(name, digits)
    return check


def exact_projection(name: str, values: dict, loss, variable: str, direction):
    """``exact`` for a gradient formula: the formula's value, projected on ``direction``,
    against the derivative of the scalar ``loss(values)`` along ``direction`` (one
    directional derivative checks every element: an approximation is off in all)."""
    from .exact import AGREE, MPMATH, REFERENCE, agreement, directional, evaluate, inner, \
        precision

    def check(formula) -> Finding | None:
        try:
            got = evaluate(formula, values)
        except FormulaError as error:
            return Finding(False, f"{name}: {error}")
        with precision(REFERENCE):
            along = MPMATH.array(direction)  # (the same numbers on both sides)
        got = np.broadcast_to(np.asarray(got, dtype=object), np.shape(along))
        expected = directional(loss, values, variable, along)
        digits = agreement(inner(got, along), expected)
        return None if digits >= AGREE else not_exact(name, digits)
    return check
