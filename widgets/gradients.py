"""Is this gradient right? Autograd vs finite differences vs a formula by hand.

``check_derivatives(fn, inputs, by_hand)`` computes d fn / d input three ways:

* autograd: ``minigrad.autograd.grad`` (``torch.autograd.grad`` for torch
  tensors) on fresh copies of the inputs (no
  ``.grad`` anywhere is touched);
* central finite differences in float64, the independent referee:
  (fn(x + h) - fn(x - h)) / 2h, one element at a time;
* optionally the learner's formula, ``by_hand(*inputs)``.

Each is compared with the finite differences; an entry agrees when
|value - reference| <= atol + rtol * |reference| (as ``numpy.isclose``; the
defaults are ``gradcheck``'s). Nothing here displays anything, so graders
can import it in a plain Python process; ``DerivativeCheck`` is the widget.

>>> import minigrad as torch
>>> result = check_derivatives(lambda x: (3 * (x + 2) ** 2).mean(), torch.ones(2, 2),
...                            by_hand=lambda x: 1.5 * (x + 2))
>>> result.passed, result.by_hand[0].tolist()
(True, [[4.5, 4.5], [4.5, 4.5]])
"""

from __future__ import annotations

import html
import inspect
from dataclasses import dataclass, field

import minigrad
from minigrad.autograd.gradcheck import numerical_jacobian
import numpy as np

from .adapter import is_tensor, library, to_numpy
from .i18n import _
from .text import number, numbers_apart

__all__ = ["check_derivatives", "numerical_gradient", "DerivativeComparison", "Comparison"]


@dataclass
class Comparison:
    """One method against the finite differences."""

    method: str  # "autograd" or "by hand" (in English: the key; METHOD says it in words)
    max_abs_diff: float
    max_rel_diff: float  # over entries whose reference is larger than atol
    worst: str  # where the largest difference is, e.g. "x[0, 1]"
    passed: bool


@dataclass
class DerivativeComparison:
    """The three gradients (one NumPy array per input) and how they compare."""

    names: list
    autograd: list
    numerical: list
    by_hand: list | None
    atol: float
    rtol: float
    comparisons: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.comparisons)

    @property
    def max_abs_diff(self) -> float:
        return max(c.max_abs_diff for c in self.comparisons)

    @property
    def max_rel_diff(self) -> float:
        return max(c.max_rel_diff for c in self.comparisons)

    def with_tolerance(self, atol: float, rtol: float) -> "DerivativeComparison":
        """The same gradients judged with another tolerance."""
        result = DerivativeComparison(self.names, self.autograd, self.numerical, self.by_hand,
                                      atol, rtol)
        result.comparisons.append(_compare("autograd", self.autograd, self.numerical,
                                           self.names, atol, rtol))
        if self.by_hand is not None:
            result.comparisons.append(_compare("by hand", self.by_hand, self.numerical,
                                               self.names, atol, rtol))
        return result

    def verdict(self) -> str:
        """One line: PASS/FAIL, with the numbers that decided it."""
        parts = [(_("{method} agrees (max abs diff {abs} at {where}, max rel diff {rel})")
                  if c.passed else
                  _("{method} DISAGREES (max abs diff {abs} at {where}, max rel diff {rel})"))
                 .format(method=_method(c.method), abs=f"{c.max_abs_diff:.2g}", where=c.worst,
                         rel=f"{c.max_rel_diff:.2g}") for c in self.comparisons]
        return _("{verdict}: {comparisons} with finite differences, tolerance atol={atol}, "
                 "rtol={rtol}").format(verdict=_("PASS") if self.passed else _("FAIL"),
                                       comparisons=_("; ").join(parts), atol=f"{self.atol:g}",
                                       rtol=f"{self.rtol:g}")

    def __str__(self) -> str:
        rows = [self.verdict()]
        heads = [_method("autograd"), _("finite diff"),
                 *([_method("by hand")] if self.by_hand is not None else [])]
        for name, where, values in self._rows():
            rows.append(f"  {name}{where}: " + ", ".join(
                f"{head} {number(v)}" for head, v in zip(heads, values)))
        return "\n".join(rows)

    def _rows(self, limit: int = 24):
        """(input name, "[i, j]", (autograd, numerical[, by hand])) per entry."""
        count = 0
        for i, name in enumerate(self.names):
            columns = [self.autograd[i], self.numerical[i]]
            if self.by_hand is not None:
                columns.append(self.by_hand[i])
            for index in np.ndindex(columns[0].shape):
                if count == limit:
                    return
                count += 1
                yield name, _where(index), tuple(column[index] for column in columns)

    def _repr_html_(self) -> str:
        """The verdict, one line per comparison, then a table: a row per entry."""
        colour = "#1e7d32" if self.passed else "#b00020"
        lines = [f'<p style="color:{colour};font-weight:bold;margin:0">'
                 + ("✓ " + _("PASS") if self.passed else "✗ " + _("FAIL")) + '</p>'
                 '<ul style="margin:2px 0">']
        for c in self.comparisons:  # (HTML: the values put in are escaped, the text is not)
            said = (_("{method} agrees with finite differences: max abs diff {abs} (at {where}), "
                      "max rel diff {rel}") if c.passed else
                    _("{method} <b>DISAGREES</b> with finite differences: max abs diff {abs} "
                      "(at {where}), max rel diff {rel}"))
            lines.append("<li>" + said.format(
                method=_method(c.method), abs=f"{c.max_abs_diff:.2g}", where=html.escape(c.worst),
                rel=f"{c.max_rel_diff:.2g}") + "</li>")
        rule = _("An entry agrees when |value - finite difference| &le; atol + rtol &middot; "
                 "|finite difference| (atol={atol}, rtol={rtol}).").format(
            atol=f"{self.atol:g}", rtol=f"{self.rtol:g}")
        lines.append(f"</ul><p style='margin:0 0 4px 0'>{rule}</p>")
        heads = ["", _method("autograd"), _("finite differences")] + (
            [_method("by hand")] if self.by_hand is not None else [])
        cell = "padding:1px 12px;text-align:right;font-family:monospace"
        lines.append("<table><tr>" + "".join(f'<th style="{cell}">{h}</th>' for h in heads)
                     + "</tr>")
        for name, where, values in self._rows():
            cells = []
            for k, v in enumerate(values):
                bad = k != 1 and not _close(v, values[1], self.atol, self.rtol)
                style = cell + (";color:#b00020;font-weight:bold" if bad else "")
                # (a value that disagrees is written with the digits that show it differs)
                shown = numbers_apart(v, values[1])[0] if bad else number(v)
                cells.append(f'<td style="{style}">{shown}{" ✗" if bad else ""}</td>')
            lines.append(f'<tr><td style="{cell}">{html.escape(name + where)}</td>'
                         f'{"".join(cells)}</tr>')
        shown = sum(1 for _ in self._rows())
        total = sum(a.size for a in self.autograd)
        if total > shown:
            more = _("… {count} more entries").format(count=total - shown)
            lines.append(f"<tr><td colspan={len(heads)}>{more}</td></tr>")
        return "\n".join(lines) + "</table>"


def check_derivatives(fn, inputs, by_hand=None, *, atol: float = 1e-5, rtol: float = 1e-3,
                      eps: float = 1e-6, names=None) -> DerivativeComparison:
    """Compare d fn / d inputs by autograd, by finite differences and ``by_hand``.

    ``fn(*inputs)`` must return one number (a one-element tensor). ``inputs``:
    the point to check at, one value per argument of ``fn``: a tensor (or a
    number, or a list of numbers, read as ``torch.tensor`` would) for a
    function of one argument, else a list or tuple with one per argument.
    ``by_hand(*inputs)`` returns the gradient (one per input, in a tuple when
    there are several).
    """
    if not callable(fn):
        raise TypeError(_("fn must be the function to differentiate (like lambda x: "
                          "(x ** 2).sum()), got {got}").format(got=_kind_of(fn)))
    if by_hand is not None and not callable(by_hand):
        raise TypeError(_("by_hand must be a function that returns your gradient (like "
                          "lambda x: 2 * x), got {got}").format(got=_kind_of(by_hand)))
    inputs = _as_inputs(inputs, fn)
    names = list(names) if names else _parameter_names(fn, len(inputs))
    autograd = autograd_gradient(fn, inputs)
    numerical = numerical_gradient(fn, inputs, eps)
    hand = hand_gradient(by_hand, inputs, names) if by_hand is not None else None
    return DerivativeComparison(names, autograd, numerical, hand, atol, rtol).with_tolerance(
        atol, rtol)


def autograd_gradient(fn, inputs) -> list:
    """By the inputs' own library (minigrad, or torch for torch tensors)."""
    lib = library(inputs)
    leaves = [lib.tensor(_array(x), dtype=_dtype(x), requires_grad=True) for x in inputs]
    out = _scalar(fn(*leaves))
    grads = lib.autograd.grad(out, leaves, allow_unused=True, materialize_grads=True)
    return [to_numpy(g).astype(np.float64) for g in grads]


def numerical_gradient(fn, inputs, eps: float = 1e-6) -> list:
    """Central differences in float64: (fn(x + h e_i) - fn(x - h e_i)) / 2h, by
    the same code ``minigrad.autograd.gradcheck`` uses (for torch inputs, fn
    gets torch copies of the nudged points)."""
    points = [minigrad.tensor(_array(x).astype(np.float64), requires_grad=True)
              for x in inputs]
    lib = library(inputs)
    if lib is minigrad:
        run = fn
    else:
        def run(*xs):
            out = _scalar(fn(*(lib.tensor(to_numpy(x)) for x in xs)))
            return minigrad.tensor(to_numpy(out).astype(np.float64))
    jacobian, = numerical_jacobian(lambda *xs: _scalar(run(*xs)), points, eps)
    return [column.reshape(point.shape) for column, point in zip(jacobian, points)]


def hand_gradient(by_hand, inputs, names) -> list:
    lib = library(inputs)
    with lib.no_grad():
        copies = [lib.tensor(_array(x), dtype=_dtype(x)) for x in inputs]
        result = by_hand(*copies)
    if len(inputs) == 1 and not isinstance(result, (tuple, list)):
        result = (result,)
    if len(result) != len(inputs):
        raise ValueError(_("by_hand returned {count} gradients for {inputs} inputs; return one "
                           "per input, in a tuple").format(count=len(result), inputs=len(inputs)))
    grads = []
    for name, x, grad in zip(names, copies, result):
        grad = np.asarray(_array(grad), dtype=np.float64)
        try:
            grads.append(np.broadcast_to(grad, x.shape).copy())
        except ValueError:
            raise ValueError(_("by_hand returned a gradient of shape {shape} for {name} of "
                               "shape {input_shape}; a gradient has its input's shape").format(
                shape=list(grad.shape), name=name, input_shape=list(x.shape))) from None
    return grads


def _compare(method, values, reference, names, atol, rtol) -> Comparison:
    worst_abs, worst_rel, worst, passed = 0.0, 0.0, "-", True
    for name, v, r in zip(names, values, reference):
        diff = np.abs(v - r)
        passed &= bool(np.all(_close(v, r, atol, rtol)))
        if diff.size and diff.max() >= worst_abs:
            worst_abs = float(diff.max())
            worst = name + _where(np.unravel_index(int(diff.argmax()), diff.shape))
        large = np.abs(r) > atol  # relative differences of near-zero entries mean nothing
        if np.any(large):
            worst_rel = max(worst_rel, float((diff[large] / np.abs(r[large])).max()))
    return Comparison(method, worst_abs, worst_rel, worst, passed)


def _method(method: str) -> str:
    """``"autograd"``, ``"by hand"`` in words."""
    return {"autograd": _("autograd"), "by hand": _("by hand")}[method]


def _close(value, reference, atol, rtol):
    return np.abs(value - reference) <= atol + rtol * np.abs(reference)


def _parameter_names(fn, count: int) -> list[str]:
    """``lambda x, w: ...`` -> ``["x", "w"]`` (else ``input0``, ``input1``, ...)."""
    try:
        names = [p.name for p in inspect.signature(fn).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return names[:count] if len(names) >= count else [f"input{i}" for i in range(count)]


def _where(index) -> str:
    return "[" + ", ".join(str(int(i)) for i in index) + "]" if len(index) else ""


def _as_inputs(inputs, fn) -> list:
    """One value per argument of ``fn``. A list of numbers is one input for a
    function of one argument (``[0.5, 1.0]``, as ``torch.tensor`` reads it),
    else one number per argument; a list of tensors is one tensor per argument."""
    if not isinstance(inputs, (list, tuple)):
        _numbers(inputs)
        return [inputs]
    count = _argument_count(fn)
    tensors = bool(inputs) and all(is_tensor(x) or isinstance(x, np.ndarray) for x in inputs)
    if not tensors and count == 1:
        return [_numbers(inputs)]
    if count is None or count == len(inputs):
        for x in inputs:
            _numbers(x)
        return list(inputs)
    raise TypeError(_("fn takes {count} arguments, but inputs holds {given} values; give one "
                      "tensor per argument of fn, in a list or tuple (for one argument, a "
                      "tensor such as torch.tensor([0.5, 1.0]))").format(
        count=count, given=len(inputs)))


def _numbers(value):
    """``value`` itself, if it is a tensor, an array or (nested lists of) numbers."""
    if is_tensor(value):
        return value
    try:
        array = np.asarray(value)
    except ValueError:  # ragged lists
        array = np.asarray([], dtype=object)
    if array.dtype.kind not in "biuf" or array.dtype == np.bool_:
        raise TypeError(_("inputs must be tensors or numbers (the point where the gradient is "
                          "checked), got {got}").format(got=_kind_of(value)))
    return value


def _argument_count(fn) -> int | None:
    """How many positional arguments ``fn`` takes (None when it takes any number)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_POSITIONAL for p in parameters):
        return None
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
               for p in parameters)


def _kind_of(value) -> str:
    """``a str ('x')``: what a learner passed, for a message."""
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def _array(x) -> np.ndarray:
    if is_tensor(x):
        return to_numpy(x).copy()
    return np.array(x, dtype=np.float64 if np.asarray(x).dtype.kind in "iub" else None)


def _dtype(x):
    return x.dtype if is_tensor(x) and x.is_floating_point() else None


def _scalar(out):
    if not is_tensor(out) or out.numel() != 1:
        shape = list(out.shape) if hasattr(out, "shape") else type(out).__name__
        raise ValueError(_("fn must return one number (a one-element tensor), got {shape}; "
                           "reduce it with .sum() or .mean()").format(shape=shape))
    return out
