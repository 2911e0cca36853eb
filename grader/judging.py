"""Judging helpers that question modules share, with autograd-specific feedback.

Each helper returns ``Finding``s whose text tells the student what is wrong
and what to try: "x.grad is None — did you call backward()?", "x.grad has
shape (5,) but expected (5, 5)".
"""

from __future__ import annotations

import numpy as np

from .data import Missing, Other, Raised, TensorData
from .formula import FormulaError, parse
from .i18n import _
from .questions import Finding

__all__ = ["autograd_gradient", "shape_text", "problem", "as_array", "compare", "check_grad",
           "is_tensor", "judge_formula", "ATOL", "RTOL"]

ATOL, RTOL = 1e-6, 1e-4  # float64 answers; float32 ones get ATOL_32
ATOL_32 = 1e-4


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
        return _("{name} is not defined — run the cell that defines it (and the cells above "
                 "it)").format(name=value.name)
    if isinstance(value, Raised):
        if value.kind == "NotImplementedError":
            return _("{name} raised NotImplementedError — replace `raise "
                     "NotImplementedError()` with your code").format(name=name)
        where = f" ({value.where})" if value.where else ""
        return _("{name} raised {error}: {message}{where}").format(
            name=name, error=value.kind, message=value.message, where=where)
    if isinstance(value, Other):
        return _("{name} is a {kind} ({text}), expected a tensor").format(
            name=name, kind=value.kind, text=value.text)
    return None


def is_tensor(value) -> bool:
    return isinstance(value, TensorData)


def as_array(value, name: str):
    """``(array, None)`` for a tensor, array, number or list of numbers; else ``(None, why)``."""
    why = problem(value, name)
    if why:
        return None, why
    if isinstance(value, TensorData):
        if value.values.shape != value.shape:
            return None, _("{name} has too many values to check").format(name=name)
        return value.values, None
    if isinstance(value, np.ndarray):
        return value.astype(np.float64), None
    try:
        array = np.array(_floats(value), dtype=np.float64)
    except (TypeError, ValueError):
        return None, _("{name} is {value}, expected a tensor or numbers").format(
            name=name, value=repr(value))
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
            name=name, shape=shape_text(got.shape), expected=shape_text(expected.shape)))]
    close = np.isclose(got, expected, atol=atol, rtol=rtol) & np.isfinite(got)
    if close.all():
        return [Finding(True, _("{name} is right ({count} values)").format(
            name=name, count=got.size) if got.size > 1 else
            _("{name} is right").format(name=name))]
    wrong = np.argwhere(~close)
    first = tuple(int(i) for i in wrong[0])
    said = {"name": name, "yours": f"{got[first]:.6g}", "reference": reference,
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
            name=f"{name}.grad", shape=shape_text(got.shape),
            expected=shape_text(expected.shape)))]
    if np.allclose(got, expected, atol=ATOL_32, rtol=RTOL):
        return [Finding(True, _("{name} is right").format(name=f"{name}.grad"))]
    ratio = _common_ratio(got, expected)
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


# --- answers written as formulas (assignments 2 and 4) ---------------------------------------

FORMULA_TOL = 1e-9  # exact formulas agree with autograd to ~1e-15; central differences do not
STEP = 1e-3  # a constant smaller than this, in a derivative, is a finite difference's step
EXAMPLE = '"3*x**2 - 2"'


def judge_formula(name: str, text, variables: tuple, functions: dict, arrays: list,
                  expected: np.ndarray, where, reveal: bool = True,
                  hint: str = "") -> list[Finding]:
    """One formula answer, evaluated at ``arrays`` and compared with ``expected``
    (``reveal``, ``hint``: as ``compare``)."""
    if isinstance(text, Other):
        return [Finding(False, _("{name} is a {kind}, not a formula: write it in quotes, like "
                                 "{name} = {example}").format(name=name, kind=text.kind,
                                                             example=EXAMPLE))]
    why = problem(text, name)
    if why:
        return [Finding(False, why)]
    try:
        formula = parse(text, variables, functions)
    except FormulaError as error:
        return [Finding(False, f"{name}: {error}")]
    tiny = [c for c in formula.constants() if 0 < abs(c) < STEP]
    if tiny:
        return [Finding(False, _("{name} holds the number {number}, a finite difference's "
                                 "step: write the exact derivative, derived by hand").format(
            name=name, number=f"{tiny[0]:g}"))]
    got = formula.evaluate(**dict(zip(variables, arrays)))
    try:
        got = np.broadcast_to(got, expected.shape)
    except ValueError:
        pass
    return compare(name, got, expected, atol=FORMULA_TOL, rtol=FORMULA_TOL, where=where,
                   reference=_("autograd gives"), reveal=reveal, hint=hint)
