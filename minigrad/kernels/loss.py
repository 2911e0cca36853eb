"""Losses on arrays whose elements cost a few ns each (a logarithm and an
exponential per element): a big one computed part after part, on threads
(``threads.py``), each part by the same NumPy steps as the whole array in one
go, so with the same bits."""

from __future__ import annotations

import numpy as np

from . import threads

__all__ = ["binary_cross_entropy_with_logits"]


def binary_cross_entropy_with_logits(x, target, weight=None, pos_weight=None):
    """-w [p t log sigmoid(x) + (1 - t) log(1 - sigmoid(x))] for each element, in
    x's dtype, without overflow: log(1 + e^x) is NumPy's logaddexp(0, x), and
    -log sigmoid(x) = log(1 + e^x) - x. ``weight`` (w) and ``pos_weight`` (p)
    are arrays that broadcast to x's shape, or None (1)."""
    given = [a for a in (weight, pos_weight) if a is not None]
    if x.size >= threads.BIG and x.shape == target.shape and all(
            type(a) is np.ndarray and _broadcasts_to(a.shape, x.shape) for a in given):
        if not given:
            losses = threads.parts(_unweighted, None, x, target)
        else:  # (weights of one per class, say: rows of x, weights broadcast along them)
            part = _Weighted(weight is not None, pos_weight is not None)
            losses = threads.rows(part, None, x, target,
                                  *[np.broadcast_to(a, x.shape) for a in given])
        if losses is not None:
            return losses
    log_sig_neg, log_sig = _logs(x)
    p = 1 if pos_weight is None else pos_weight
    losses = p * target * log_sig + (1 - target) * log_sig_neg
    if weight is not None:
        losses = losses * weight
    return np.asarray(losses, dtype=x.dtype)


def _broadcasts_to(shape, target) -> bool:
    return len(shape) <= len(target) and all(
        size in (1, other) for size, other in zip(reversed(shape), reversed(target)))


def _logs(x):
    log_sig_neg = np.logaddexp(0, x)          # -log sigmoid(-x) = log(1 + e^x), stably
    return log_sig_neg, log_sig_neg - x       # -log sigmoid(x)  = log(1 + e^-x)


def _unweighted(out, x, target):
    log_sig_neg, log_sig = _logs(x)
    np.add(1 * target * log_sig, (1 - target) * log_sig_neg, out=out)


class _Weighted:
    """A part of the losses with a weight, a pos_weight or both (in that order
    among the operands, each of x's shape and dtype)."""

    def __init__(self, weighted: bool, pos_weighted: bool) -> None:
        self.weighted, self.pos_weighted = weighted, pos_weighted

    def __call__(self, out, x, target, *given):
        weight = given[0] if self.weighted else None
        p = given[-1] if self.pos_weighted else 1
        log_sig_neg, log_sig = _logs(x)
        np.add(p * target * log_sig, (1 - target) * log_sig_neg, out=out)
        if weight is not None:
            np.multiply(out, weight, out=out)
