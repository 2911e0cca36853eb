"""Your gradient against autograd's: exact, close or wrong, and what is likely wrong.

``judge(name, yours, autograd, clues)`` compares one hand-derived gradient
with autograd's, as the ``cmp`` of Karpathy's lecture "Becoming a backprop
ninja" does (exact: every bit equal; close: ``torch.allclose``'s test,
|yours - autograd's| <= atol + rtol * |autograd's|), and says where the
largest difference is. For a wrong gradient it says what is most likely
wrong, where the numbers tell: the shape of what the tensor was broadcast to
(a missing sum), the right numbers in another shape, a flipped sign, a
constant factor (the batch size), a transposed matrix, the gradient from only
some of the places the tensor is used, the gradient that arrived before the
local derivative was applied.

Nothing here displays anything or knows about graphs: ``Clues`` carries what
the graph tells (``BackwardCheck`` reads it from backward's own steps).

>>> import numpy as np
>>> judge("b", np.ones((4, 3)), np.full(3, 4.0), Clues(shape=(3,))).hint
'b is [3], yours is [4, 3], the shape b was broadcast to: the gradient of a broadcast is a sum. Summed over dim 0, yours is right.'
"""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass, field

import numpy as np

from .i18n import _, ngettext
from .text import number, numbers_apart

__all__ = ["Verdict", "Clues", "judge", "not_yet", "MARK", "status_word"]

MARK = {"exact": "✓", "close": "≈", "wrong": "✗", "missing": "?"}
HINT_WIDTH = 88  # a printed verdict's hint, in characters a line (107 fit in JupyterLab at 1280 px)


def status_word(status: str) -> str:
    """``exact``, ``close``, ``wrong``, ``not yet`` in the learner's language."""
    return {"exact": _("exact"), "close": _("close"), "wrong": _("wrong"),
            "missing": _("not yet")}[status]


@dataclass
class Clues:
    """What the graph says about a tensor, for the hints."""

    shape: tuple  # the tensor's shape
    uses: list = field(default_factory=list)  # [(who used it, the gradient from that use)]
    # (the node that used it, your name for that node's result or None, the node's local
    # derivative in words, the gradient the node received)
    arriving: tuple | None = None
    sizes: list = field(default_factory=list)  # [(size, "dim 0 of logits")] to name factors


@dataclass
class Verdict:
    """One tensor's gradient, judged. ``status``: exact, close, wrong or missing."""

    name: str
    status: str
    shape: tuple
    atol: float = 1e-8
    rtol: float = 1e-5
    max_diff: float | None = None  # None: not compared (not yet, or another shape)
    where: tuple | None = None  # the index of the largest difference
    yours: float | None = None  # the two values there
    autograd: float | None = None
    given_shape: tuple | None = None
    hint: str | None = None  # what is likely wrong, in words

    @property
    def right(self) -> bool:
        return self.status in ("exact", "close")

    @property
    def mark(self) -> str:
        return MARK[self.status]

    @property
    def word(self) -> str:
        return status_word(self.status)

    def difference(self) -> str:
        """``max diff 5.8e-09 at [3, 7] (yours 0.0231, autograd's 0.0231)``, or ``""``."""
        if self.max_diff is None:
            return ""
        if self.max_diff == 0:
            return _("max diff 0")
        yours, autograd = numbers_apart(self.yours, self.autograd)
        said = {"diff": f"{self.max_diff:.2g}", "yours": yours, "autograd": autograd}
        if not self.where:  # a 0-dim tensor: one number, no place to name
            return _("max diff {diff} (yours {yours}, autograd's {autograd})").format(**said)
        return _("max diff {diff} at {where} (yours {yours}, autograd's {autograd})").format(
            where=index_text(self.where), **said)

    def sentence(self) -> str:
        """The verdict in one sentence (the narration of the check)."""
        said = {"name": self.name, "mark": self.mark, "word": self.word}
        if self.status == "missing":
            return _("{name}: {mark} not derived yet.").format(**said)
        if self.status == "exact":
            return _("{name}: {mark} exact, every bit equal to autograd's.").format(**said)
        if self.status == "close":
            return _("{name}: {mark} close, {difference}, within atol + rtol · |autograd's| "
                     "(atol={atol}, rtol={rtol}).").format(
                **said, difference=self.difference(), atol=f"{self.atol:g}",
                rtol=f"{self.rtol:g}")
        text = _("{name}: {mark} wrong").format(**said)
        if self.difference():
            text += ", " + self.difference()
        return text + (". " + self.hint if self.hint else ".")

    def __str__(self) -> str:
        """One line, like the lecture's cmp: ``logits | ≈ close | max diff 5.8e-09 ...``."""
        parts = [f"{self.name:15s}", f"{self.mark} {self.word:8s}"]
        if self.difference():
            parts.append(self.difference())
        line = " | ".join(parts)
        # (the hint wrapped between words: JupyterLab breaks a long printed line anywhere,
        # mid-word, at the output's edge)
        return line + ("\n" + _fill(self.hint, HINT_WIDTH, "    ") if self.hint else "")

    __repr__ = __str__


def columns(text: str) -> int:
    """How wide ``text`` is in a monospace font: a Chinese character or a Hangul syllable
    (East Asian wide or full-width) takes two columns, as in JupyterLab's output."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fill(text: str, width: int, indent: str) -> str:
    """``textwrap.fill`` by columns, not characters, between words only (a Chinese hint of 88
    characters was 150 columns wide: JupyterLab cut it mid-word at the output's edge)."""
    lines, line = [], ""
    for word in text.split():
        if line and columns(indent + line + " " + word) > width:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [indent + line])


def index_text(index) -> str:
    return "[" + ", ".join(str(int(i)) for i in index) + "]" if index else "[]"


def shape_words(shape) -> str:
    return str(list(shape))


def not_yet(name: str, shape, atol: float = 1e-8, rtol: float = 1e-5) -> Verdict:
    return Verdict(name, "missing", tuple(shape), atol, rtol)


def judge(name: str, yours, autograd, clues: Clues, *, atol: float = 1e-8,
          rtol: float = 1e-5) -> Verdict:
    """Compare ``yours`` with ``autograd`` (arrays) for the tensor called ``name``."""
    given, expected = np.asarray(yours), np.asarray(autograd)
    shape = tuple(clues.shape)
    verdict = Verdict(name, "wrong", shape, atol, rtol, given_shape=tuple(given.shape))
    close = Tolerance(atol, rtol)
    mine, theirs = given.astype(np.float64), expected.astype(np.float64)
    if tuple(given.shape) != shape:
        verdict.hint = _shape_hint(name, mine, theirs, shape, close)
        return verdict
    difference = np.array(np.abs(mine - theirs))  # (an array also for 0-dim tensors)
    difference[np.isnan(difference)] = np.inf
    if difference.size:
        at = np.unravel_index(int(np.argmax(difference)), difference.shape)
        verdict.max_diff = float(difference[at])
        verdict.where, verdict.yours, verdict.autograd = at, float(mine[at]), float(theirs[at])
    else:
        verdict.max_diff = 0.0
    if np.array_equal(given, expected):
        verdict.status = "exact"
    elif close(mine, theirs):
        verdict.status = "close"
    else:
        verdict.hint = _value_hint(name, mine, theirs, clues, close)
    return verdict


@dataclass
class Tolerance:
    """``close(a, b)``: every entry within atol + rtol * |b| (``torch.allclose``'s test)."""

    atol: float
    rtol: float

    def each(self, a, b) -> np.ndarray:
        return np.abs(a - b) <= self.atol + self.rtol * np.abs(b)

    def __call__(self, a, b) -> bool:
        return a.shape == b.shape and bool(np.all(self.each(a, b)))


# ---- another shape ---------------------------------------------------------------


def _shape_hint(name, mine, theirs, shape, close) -> str:
    said = {"name": name, "shape": shape_words(shape), "yours": shape_words(mine.shape)}
    if mine.size == theirs.size:
        if close(mine.reshape(shape), theirs):
            if [n for n in mine.shape if n != 1] == [n for n in shape if n != 1]:
                return _("The right numbers, but {name} is {shape} and yours is {yours}: keep "
                         "the summed dimension (sum(..., keepdim=True)) or reshape yours with "
                         ".view({view}).").format(**said, view=", ".join(map(str, shape)))
            return _("The right numbers in the wrong shape: {name} is {shape}, yours is "
                     "{yours}; a gradient has the shape of its tensor.").format(**said)
        if mine.ndim == 2 and mine.shape == shape[::-1] and close(mine.T, theirs):
            return _("Transposed: yours is the gradient of {name}.T. Transpose it, or swap "
                     "the operands of the matrix product (their shapes tell the order).").format(
                **said)
    summed, dims = _sum_to(mine, shape)
    if summed is not None:
        said["dims"] = ", ".join(map(str, dims))
        if close(summed, theirs):
            return ngettext(
                "{name} is {shape}, yours is {yours}, the shape {name} was broadcast to: the "
                "gradient of a broadcast is a sum. Summed over dim {dims}, yours is right.",
                "{name} is {shape}, yours is {yours}, the shape {name} was broadcast to: the "
                "gradient of a broadcast is a sum. Summed over dims {dims}, yours is right.",
                len(dims)).format(**said)
        return _("{name} is {shape}, yours is {yours}, the shape {name} was broadcast to: the "
                 "gradient of a broadcast is a sum over the broadcast dimensions ({dims}); even "
                 "summed, yours differs from autograd's.").format(**said)
    try:
        spread = np.broadcast_to(mine, shape)
    except ValueError:
        spread = None
    if spread is not None:
        if close(spread, theirs):
            return _("{name} is {shape}, yours is {yours}: broadcast to {shape}, yours is "
                     "right. The gradient of a sum is a broadcast: it has the shape of what "
                     "was summed.").format(**said)
        return _("{name} is {shape}, yours is {yours}: the gradient of a sum is a broadcast, "
                 "back to the shape of what was summed.").format(**said)
    return _("Yours is {yours}, but {name} is {shape}: a gradient always has the shape of "
             "its tensor.").format(**said)


def _sum_to(values: np.ndarray, shape: tuple):
    """``values`` summed down to ``shape`` when ``shape`` broadcasts to its shape (the
    adjoint of broadcasting), with the dims summed; else (None, [])."""
    if values.ndim < len(shape):
        return None, []
    try:
        if np.broadcast_shapes(shape, values.shape) != values.shape:
            return None, []
    except ValueError:
        return None, []
    lead = values.ndim - len(shape)
    dims = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                if n == 1 and values.shape[lead + i] != 1]
    if not dims:
        return None, []
    summed = values.sum(axis=tuple(dims), keepdims=True)
    return summed.reshape(shape), dims


# ---- the same shape, other values ------------------------------------------------


def _value_hint(name, mine, theirs, clues: Clues, close) -> str | None:
    said = {"name": name}
    bad = ~np.isfinite(mine) & np.isfinite(theirs)
    if bad.any():
        at = np.unravel_index(int(np.argmax(bad)), bad.shape)
        return _("Yours has {value} at {where}, where autograd's is a number: a division by "
                 "zero, or the log of 0?").format(value=number(mine[at]), where=index_text(at))
    if not mine.any() and theirs.any():
        return _("Yours is all zeros: did the gradient from every place {name} is used reach "
                 "it?").format(**said)
    if close(-mine, theirs):
        return _("The sign is flipped: yours is -1 × autograd's (a minus sign lost, or one too "
                 "many).")
    factor = _constant_factor(mine, theirs, close)
    if factor is not None:
        return _factor_hint(factor, clues)
    if mine.ndim == 2 and mine.shape[0] == mine.shape[1] and close(mine.T, theirs):
        return _("Transposed: yours is the gradient of {name}.T. Swap the operands of the "
                 "matrix product (their shapes tell the order).").format(**said)
    found = _uses_hint(name, mine, clues, close)
    if found:
        return found
    if clues.arriving is not None:
        node, result, formula, arriving = clues.arriving
        if arriving is not None and arriving.shape == mine.shape and close(mine, arriving):
            if result:
                return _("Yours is the gradient of {result}, the one that arrives at {node}; "
                         "multiply it by {node}'s local derivative ({formula}).").format(
                    result=result, node=node, formula=formula)
            return _("Yours is the gradient that arrives at {node}; multiply it by {node}'s "
                     "local derivative ({formula}).").format(node=node, formula=formula)
    return _partly_hint(mine, theirs, close)


def _constant_factor(mine, theirs, close) -> float | None:
    """c when yours = c × autograd's everywhere (c not 1 or -1)."""
    large = np.abs(theirs) > 1e-12
    if not large.any():
        return None
    ratios = mine[large] / theirs[large]
    c = float(np.median(ratios))
    if c == 0 or not np.isfinite(c) or abs(abs(c) - 1) < 1e-6:
        return None
    return c if close(mine, c * theirs) and close(mine / c, theirs) else None


def _factor_hint(c: float, clues: Clues) -> str:
    for size, where in clues.sizes:
        if size > 1 and abs(c - size) < 1e-3 * size:
            return _("Yours is {size} × autograd's; {size} is the size of {where}: is a "
                     "division by {size} missing (a mean over the batch divides every "
                     "gradient by it)?").format(size=size, where=where)
        if size > 1 and abs(c * size - 1) < 1e-3:
            return _("Yours is 1/{size} of autograd's; {size} is the size of {where}: is there "
                     "a division by {size} too many?").format(size=size, where=where)
    if abs(c - 2) < 1e-6 or abs(c - 0.5) < 1e-6:
        return _("Yours is {factor} × autograd's: a factor of 2 missing or extra (as in "
                 "d(x²)/dx = 2x)?").format(factor=f"{c:g}")
    return _("Yours is {factor} × autograd's everywhere: a constant factor is off.").format(
        factor=f"{c:.4g}")


def _uses_hint(name, mine, clues: Clues, close) -> str | None:
    """Yours holds the gradient from some of the tensor's uses, not all."""
    uses = [(who, grad) for who, grad in clues.uses if grad is not None]
    if len(uses) < 2 or len(uses) > 6:
        return None
    for size in range(1, len(uses)):
        for chosen in itertools.combinations(range(len(uses)), size):
            total = sum(np.asarray(uses[i][1], dtype=np.float64) for i in chosen)
            if total.shape == mine.shape and close(mine, total):
                missing = [uses[i][0] for i in range(len(uses)) if i not in chosen]
                return _("Yours is only the gradient from {found}; {name} is used {count} "
                         "times, and the gradients from every use add up (+=): add the one "
                         "from {missing}.").format(
                    found=", ".join(uses[i][0] for i in chosen), name=name, count=len(uses),
                    missing=", ".join(missing))
    return None


def _partly_hint(mine, theirs, close) -> str | None:
    wrong = ~close.each(mine, theirs)
    count, total = int(wrong.sum()), wrong.size
    if not 0 < count < total / 2:
        return None
    if mine.ndim == 2 and np.all(wrong.sum(axis=1) == 1):
        return _("Right everywhere but one entry in each row ({count} of {total}): the "
                 "entries of the labels, or of each row's largest value?").format(
            count=count, total=total)
    # (where: the largest difference may be an entry within the tolerance, the table's
    # "max diff" of a small gradient beside one a little off in a tiny entry)
    first = tuple(int(i) for i in np.argwhere(wrong)[0])
    yours, autograd = numbers_apart(mine[first], theirs[first])
    return ngettext("Right in {right} of {total} entries; {count} differs, at {where} (yours "
                    "{yours}, autograd's {autograd}).",
                    "Right in {right} of {total} entries; {count} differ, the first at {where} "
                    "(yours {yours}, autograd's {autograd}).", count).format(
        right=total - count, total=total, count=count, where=index_text(first),
        yours=yours, autograd=autograd)
