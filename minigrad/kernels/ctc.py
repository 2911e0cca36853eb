"""``ctc_loss``: the connectionist temporal classification loss (Graves et al., 2006), as
PyTorch's CPU kernel (``LossCTC.cpp``) computes it, step for step.

A target ``l`` of length L is spread over ``S = 2 L + 1`` states ``l'``: a blank, then
each label followed by a blank. ``alpha[t, s]`` is the log of the probability of all
alignments of the first ``t + 1`` frames that end in state ``s``:

    alpha[0, 0] = lp[0, blank],  alpha[0, 1] = lp[0, l'[1]]
    alpha[t, s] = logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2]) + lp[t, l'[s]]

(the third term only where ``l'[s-2] != l'[s]``: a label may skip the blank before it
unless it repeats the label before). The loss is ``-logsumexp`` of the last two states
at the last frame. ``beta`` runs the same recursion backwards in time, and the gradient
with respect to ``lp[t, c]`` is ``exp(lp) - exp(log sum_{s: l'[s] = c} alpha beta + nll
- lp)``, times the loss's gradient (PyTorch's formula: the gradient of the loss as if
``lp`` were followed by a log_softmax, which it always is).

Bits: PyTorch's loop computes every ``logsumexp`` as ``log(exp(a - m) + exp(b - m) +
exp(c - m)) + m`` with the C library's ``exp`` and ``log`` (``expf``/``logf`` for
float32, which are not always the correctly rounded values: they are called here too,
element by element, through ctypes) and sums the per-label terms of the gradient in the
order of descending ``s``. The recursions here run over all frames at once per state
(or all states per frame): the same operations on the same values in the same order.
States past a sequence's end (PyTorch leaves them uninitialised) hold -inf.
"""

from __future__ import annotations

import math

import numpy as np

from .special import _c_library, each

__all__ = ["extended_targets", "ctc_loss", "ctc_loss_backward"]

_NEG_INF = -math.inf
_expf, _logf = _c_library("expf"), _c_library("logf")


def _exp_or_inf(value: float) -> float:
    """C's exp of a double: inf where Python's ``math.exp`` raises OverflowError."""
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


_exp_double = each(_exp_or_inf)
_log_double = each(math.log)  # (called on positive values only)


def _exp(x: np.ndarray) -> np.ndarray:
    """The C library's exp of each element, in x's dtype (exp(-inf) = 0 without a call)."""
    out = np.zeros_like(x)
    called = x != _NEG_INF
    if called.any():
        values = x[called]
        out[called] = _expf(values) if x.dtype == np.float32 and _expf is not None \
            else _exp_double(values.astype(np.float64))
    return out


def _log(x: np.ndarray) -> np.ndarray:
    """The C library's log of each element (of sums of exps: >= 0 or NaN), in x's dtype."""
    out = np.where(x == 0, _NEG_INF, np.nan).astype(x.dtype)
    called = x > 0
    if called.any():
        values = x[called]
        out[called] = _logf(values) if x.dtype == np.float32 and _logf is not None \
            else _log_double(values.astype(np.float64))
    return out


def _larger(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``if (b > a) a = b`` (a NaN in b is passed over, as C's comparison does)."""
    return np.where(b > a, b, a)


def _logsumexp(*terms: np.ndarray) -> np.ndarray:
    """log(sum exp(term - m)) + m, m the largest term (0 when all are -inf), as PyTorch's
    loop writes it: the terms' exps added in the order given."""
    top = terms[0]
    for term in terms[1:]:
        top = _larger(top, term)
    top = np.where(top == _NEG_INF, np.zeros((), top.dtype), top)
    total = _exp(terms[0] - top)
    for term in terms[1:]:
        total = total + _exp(term - top)
    return _log(total) + top


def extended_targets(targets: np.ndarray, target_lengths, blank: int) -> np.ndarray:
    """l' of each sequence (batch, 2 * max target length + 1): blank, label, blank, ...;
    ``targets`` padded (batch, max length) or concatenated (sum of the lengths,)."""
    lengths = [int(n) for n in target_lengths]
    extended = np.full((len(lengths), 2 * max(lengths, default=0) + 1), blank, np.int64)
    start = 0
    for b, n in enumerate(lengths):
        labels = targets[b, :n] if targets.ndim == 2 else targets[start:start + n]
        extended[b, 1:2 * n:2] = labels
        start += n
    return extended


class _Lattice:
    """What both recursions read: l', which states exist, where a label may skip a blank,
    and lp[t, b, l'[s]] for every state (time, batch, state)."""

    def __init__(self, log_probs, targets, input_lengths, target_lengths, blank: int):
        self.ext = extended_targets(targets, target_lengths, blank)
        self.input_lengths = np.asarray(input_lengths, np.int64).reshape(-1)
        self.target_lengths = np.asarray(target_lengths, np.int64).reshape(-1)
        batch, states = self.ext.shape
        self.last = 2 * self.target_lengths  # (the last state of each sequence)
        self.exists = np.arange(states) <= self.last[:, None]
        self.skips = np.zeros((batch, states), bool)
        self.skips[:, 2:] = self.ext[:, 2:] != self.ext[:, :-2]
        self.picked = log_probs[:, np.arange(batch)[:, None], self.ext]


def _shifted(rows: np.ndarray, by: int) -> np.ndarray:
    """rows[:, s - by] (by > 0) or rows[:, s + |by|] (by < 0), -inf where there is none."""
    out = np.full_like(rows, _NEG_INF)
    if by > 0:
        out[:, by:] = rows[:, :-by]
    else:
        out[:, :by] = rows[:, -by:]
    return out


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank: int):
    """(neg_log_likelihood (batch,), log_alpha (batch, time, states)) of log_probs
    (time, batch, classes), as PyTorch's ``_ctc_loss``."""
    lattice = _Lattice(log_probs, targets, input_lengths, target_lengths, blank)
    picked, lengths, neg_inf = lattice.picked, lattice.input_lengths, log_probs.dtype.type(_NEG_INF)
    time, batch, states = picked.shape
    alpha = np.full((batch, time, states), neg_inf, log_probs.dtype)
    started = lengths > 0
    alpha[started, 0, 0] = picked[0, started, 0]
    second = started & (lattice.target_lengths > 0)
    if second.any():
        alpha[second, 0, 1] = picked[0, second, 1]
    with np.errstate(invalid="ignore"):
        for t in range(1, time):
            previous = alpha[:, t - 1]
            skipped = np.where(lattice.skips, _shifted(previous, 2), neg_inf)
            row = _logsumexp(previous, _shifted(previous, 1), skipped) + picked[t]
            alpha[:, t] = np.where((t < lengths)[:, None] & lattice.exists, row, neg_inf)
        return _likelihood(alpha, lattice), alpha


def _likelihood(alpha, lattice):
    """-log of the sum of the last two states' alphas at each sequence's last frame (the
    last state alone for an empty target; 0 or inf for an empty input)."""
    rows = np.arange(alpha.shape[0])
    frame = np.maximum(lattice.input_lengths - 1, 0)
    last = alpha[rows, frame, lattice.last]
    before = alpha[rows, frame, np.maximum(lattice.last - 1, 0)]
    log_likelihood = np.where(lattice.target_lengths == 0, last, _logsumexp(last, before))
    empty = np.where(lattice.target_lengths == 0, 0.0, _NEG_INF).astype(alpha.dtype)
    return -np.where(lattice.input_lengths == 0, empty, log_likelihood)


def ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths,
                      neg_log_likelihood, log_alpha, blank: int, zero_infinity: bool):
    """The gradient with respect to log_probs (time, batch, classes), as PyTorch's
    ``_ctc_loss_backward``: beta, then the per-label sums of alpha beta, then the formula."""
    lattice = _Lattice(log_probs, targets, input_lengths, target_lengths, blank)
    with np.errstate(invalid="ignore", over="ignore"):
        beta = _beta(lattice, log_probs.dtype)
        sums = _label_sums(lattice, log_alpha, beta, log_probs.shape)
        nll = neg_log_likelihood[None, :, None]
        out = (_exp(log_probs) - _exp(sums + nll - log_probs)) * grad.reshape(1, -1, 1)
    frames = np.arange(log_probs.shape[0])[:, None] < lattice.input_lengths
    if zero_infinity:
        frames = frames & (neg_log_likelihood != np.inf)
    return np.where(frames[:, :, None], out, np.zeros((), out.dtype))


def _beta(lattice, dtype):
    """log beta (batch, time, states): from each sequence's last frame back to the first."""
    picked, lengths = lattice.picked, lattice.input_lengths
    time, batch, states = picked.shape
    neg_inf = dtype.type(_NEG_INF)
    beta = np.full((batch, time, states), neg_inf, dtype)
    state = np.arange(states)
    ends = (state == lattice.last[:, None]) | (
        (state == lattice.last[:, None] - 1) & (lattice.target_lengths[:, None] > 0))
    may_skip = np.zeros_like(lattice.skips)  # (l'[s + 2] != l'[s], within the sequence)
    may_skip[:, :-2] = lattice.skips[:, 2:] & (state[:-2] + 2 <= lattice.last[:, None])
    for t in reversed(range(time)):
        start = np.where(ends, picked[t], neg_inf)
        if t + 1 < time:
            after = beta[:, t + 1]
            row = _logsumexp(after, _shifted(after, -1), np.where(may_skip, _shifted(after, -2),
                                                                  neg_inf)) + picked[t]
        else:
            row = start
        inside = (t < lengths - 1)[:, None] & lattice.exists
        beta[:, t] = np.where((t == lengths - 1)[:, None], start, np.where(inside, row, neg_inf))
    return beta


def _label_sums(lattice, log_alpha, beta, shape):
    """log sum over the states s of label c of alpha[t, s] beta[t, s], for every (t, b, c):
    at the last frame the two end states set, before it each state "log-added" in the order
    of descending s (PyTorch's loop), -inf where no state has the label."""
    time, batch, _ = shape
    sums = np.full(shape, _NEG_INF, log_alpha.dtype)
    rows = np.arange(batch)
    ends = lattice.input_lengths > 0
    for offset in (0, 1):  # (the blank's end state, then the label's, which may overwrite it)
        chosen = ends & (lattice.target_lengths > 0) if offset else ends
        frame = lattice.input_lengths[chosen] - 1
        state = lattice.last[chosen] - offset
        labels = lattice.ext[rows[chosen], state]
        sums[frame, rows[chosen], labels] = log_alpha[rows[chosen], frame, state] + \
            beta[rows[chosen], frame, state]
    frames, batches = np.nonzero(np.arange(time)[:, None] < lattice.input_lengths - 1)
    for s in reversed(range(lattice.ext.shape[1])):
        kept = s <= lattice.last[batches]
        t, b = frames[kept], batches[kept]
        labels = lattice.ext[b, s]
        both = log_alpha[b, t, s] + beta[b, t, s]
        current = sums[t, b, labels]
        old = current != _NEG_INF  # (the first term is set, the others log-added)
        if old.any():
            a, c = both[old], current[old]
            top = np.where(c < a, a, c)
            both[old] = _log(_exp(c - top) + _exp(a - top)) + top
        sums[t, b, labels] = both
    return sums
