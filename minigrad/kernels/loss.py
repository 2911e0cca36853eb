"""Losses on arrays whose elements cost a few ns each (a logarithm and an
exponential per element): a big one computed part after part, on threads
(``threads.py``), each part by the same NumPy steps as the whole array in one
go, so with the same bits."""

from __future__ import annotations

import numpy as np

from . import pointwise, rounding as kernels_rounding, threads
from .pointwise import log_sigmoid, log_sigmoid_into, one_of
from .special import half_in_float32

__all__ = ["huber_losses", "multilabel_margin_loss", "multilabel_margin_loss_backward", "binary_cross_entropy_with_logits", "binary_cross_entropy", "soft_margin_loss",
           "multi_margin_loss", "multi_margin_loss_backward"]


def binary_cross_entropy_with_logits(x, target, weight=None, pos_weight=None):
    """-w [p t log sigmoid(x) + (1 - t) log(1 - sigmoid(x))] for each element, in
    x's dtype, as PyTorch's CPU kernel computes it, step for step:
    (1 - t) x - (1 + (p - 1) t) log sigmoid(x), times w, where log sigmoid(x) is
    min(x, 0) - log(1 + exp(-|x|)) (no exp overflows). ``weight`` (w) and
    ``pos_weight`` (p) are arrays that broadcast to x's shape, or None (1)."""
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
    log_sig = log_sigmoid(x)[0]
    if pos_weight is not None:  # (torch: log_sigmoid_input.mul_(log_weight), in x's dtype)
        log_sig = np.asarray(log_sig * ((pos_weight - 1) * target + 1), dtype=x.dtype)
    losses = (1 - target) * x - log_sig
    if weight is not None:
        losses = losses * weight
    return np.asarray(losses, dtype=x.dtype)


def _broadcasts_to(shape, target) -> bool:
    return len(shape) <= len(target) and all(
        size in (1, other) for size, other in zip(reversed(shape), reversed(target)))


def _unweighted(out, x, target):
    _Weighted(False, False)(out, x, target)


class _Weighted:
    """A part of the losses with a weight, a pos_weight, both or neither (in that
    order among the operands, each of x's shape and dtype)."""

    def __init__(self, weighted: bool, pos_weighted: bool) -> None:
        self.weighted, self.pos_weighted = weighted, pos_weighted

    def __call__(self, out, x, target, *given):
        one, buffer = one_of(x.dtype), np.empty_like(x)
        log_sigmoid_into(out, x, buffer)              # out = log sigmoid(x)
        if self.pos_weighted:                         # out *= (p - 1) t + 1
            np.subtract(given[-1], one, out=buffer)
            np.multiply(buffer, target, out=buffer)
            np.add(buffer, one, out=buffer)
            np.multiply(out, buffer, out=out)
        np.subtract(one, target, out=buffer)          # out = (1 - t) x - out
        np.multiply(buffer, x, out=buffer)
        np.subtract(buffer, out, out=out)
        if self.weighted:
            np.multiply(out, given[0], out=out)


# binary_cross_entropy's backward divides by max(x (1 - x), EPSILON), PyTorch's float
# literal 1e-12f in every dtype: in float64 too it is float32's 1e-12 (9.99999996e-13).
EPSILON = float(np.float32(1e-12))


def binary_cross_entropy(x, target):
    """(t - 1) max(log(1 - x), -100) - t max(log(x), -100) for each element, as
    PyTorch's CPU kernel computes it (log(1 - x) as log1p(-x)); every x and t must lie
    in [0, 1] (checked element after element, x before t, as PyTorch's loop checks)."""
    bad_x = ~((x >= 0) & (x <= 1))
    bad_t = ~((target >= 0) & (target <= 1))
    if bad_x.any() or bad_t.any():
        bad_x, bad_t = (np.broadcast_to(b, np.broadcast_shapes(bad_x.shape, bad_t.shape)).reshape(-1)
                        for b in (bad_x, bad_t))
        first = np.argmax(bad_x | bad_t)
        what = "input" if bad_x[first] else "target"
        raise RuntimeError(f"all elements of {what} should be between 0 and 1")
    floor = x.dtype.type(-100)
    one = x.dtype.type(1)
    wide = x.astype(np.float64)  # (float32's logs rounded once, as the C library's)
    log_x = np.log(wide).astype(x.dtype, copy=False)
    log_1mx = np.log1p(-wide).astype(x.dtype, copy=False)
    return (target - one) * np.maximum(log_1mx, floor) - target * np.maximum(log_x, floor)


def soft_margin_loss(x, target):
    """log(1 + exp(-x y)) for each element, by PyTorch's steps: -x, times y (in x's
    dtype, or in y's wider float one and rounded back), exp, log1p."""
    if target.dtype.kind != "f":
        target = target.astype(x.dtype)
    return kernels_rounding.log1p(pointwise.exp(np.asarray(-x * target, dtype=x.dtype)))


def _margins(x, target, margin):
    """margin - x[t] + x[c] for each row and class c, 0 at the true class t."""
    rows = np.arange(x.shape[0])
    z = (x.dtype.type(margin) - x[rows, target])[:, None] + x
    z[rows, target] = 0  # (the true class is left out)
    return z


def multi_margin_loss(x, target, p, margin, weight, reduction):
    """Each row's sum_{c != t} max(0, margin - x[t] + x[c])**p (times weight[t]) / C
    for rows x (N, C) and class indices t (N,), the classes added one after the
    other as PyTorch's loop adds them; 'sum' and 'mean' add the rows likewise."""
    z = _margins(x, target, margin)
    h = np.where(z > 0, z if p == 1 else z * z, 0).astype(x.dtype)
    if weight is not None:
        h = h * weight[target][:, None]
    losses = np.zeros(x.shape[0], dtype=x.dtype)
    for c in range(x.shape[1]):
        losses += h[:, c]
    losses = losses / x.dtype.type(x.shape[1])
    if reduction == "none":
        return losses
    wide = np.float32 if x.dtype == np.float16 else np.float64  # (torch's accumulate type)
    total = np.cumsum(losses, dtype=wide)[-1] if losses.size else wide(0)
    total = total / wide(losses.size) if reduction == "mean" else total
    return np.asarray(total, dtype=x.dtype)


def multi_margin_loss_backward(x, target, p, margin, weight, norm):
    """d loss_n / d x[n, c] times ``norm`` (1/C, or 1/(N C) for 'mean'), as PyTorch's
    loop rounds it: h = norm or 2 norm z where z > 0 (times weight[t]) for c != t,
    and minus their running sum at the true class t."""
    rows, g = np.arange(x.shape[0]), x.dtype.type(norm)
    z = _margins(x, target, margin)
    h = np.where(z > 0, g if p == 1 else 2 * g * z, 0).astype(x.dtype)
    if weight is not None:
        h = h * weight[target][:, None]
    h[rows, target] = 0
    at_target = np.zeros(x.shape[0], dtype=x.dtype)
    for c in range(x.shape[1]):
        at_target -= h[:, c]
    h[rows, target] = at_target
    return h


@half_in_float32  # (torch's huber kernel computes a half's in float, rounded once)
def huber_losses(x, target, delta: float):
    """0.5 z**2 where z = |x - target| < delta, else delta (z - 0.5 delta)."""
    z = np.abs(x - target)
    delta = x.dtype.type(delta)
    half = x.dtype.type(0.5)
    return np.where(z < delta, half * z * z, delta * (z - half * delta))


def _label_sets(target: np.ndarray, classes: int) -> tuple:
    """Each row's classes (its target up to its first -1) as a mask ``is_target`` (N, C) of
    the input's dtype and the list of (position, class) columns in order."""
    rows = target.shape[0]
    ends = np.where((target < 0).any(axis=1), np.argmax(target < 0, axis=1), target.shape[1])
    valid = np.arange(target.shape[1])[None, :] < ends[:, None]
    is_target = np.zeros((rows, classes), bool)
    for k in range(target.shape[1]):
        picked = valid[:, k]
        is_target[np.flatnonzero(picked), target[picked, k]] = True
    return is_target, valid


def multilabel_margin_loss(x, target, reduction: str):
    """Each row's sum over its classes j (target up to the first -1) and the other classes
    i of max(0, 1 - x[j] + x[i]), added in PyTorch's loop order in float64 (float32 rows)
    and rounded per row, then / C (and / N for 'mean', the rows added in float64); with the
    mask of each row's classes (torch's ``is_target``, saved for backward)."""
    rows, classes = x.shape
    is_target, valid = _label_sets(target, classes)
    wide = np.float64  # (torch's accumulate type for float32 and float64)
    sums = np.zeros(rows, wide)
    row_index = np.arange(rows)
    for k in range(target.shape[1]):
        at = valid[:, k]
        x_target = x[row_index, np.where(at, target[:, k], 0)]
        for d in range(classes):
            z = (x.dtype.type(1) - x_target) + x[:, d]
            sums += np.where(at & ~is_target[:, d] & (z > 0), z, 0).astype(wide)
    per_row = sums.astype(x.dtype)
    mask = is_target.astype(x.dtype)
    if reduction == "none":
        return per_row / x.dtype.type(classes), mask
    total = np.cumsum(per_row.astype(wide))[-1] if rows else wide(0)
    total = total / classes
    if reduction == "mean":
        total = total / rows
    return np.asarray(total, x.dtype), mask


def multilabel_margin_loss_backward(x, target, is_target, norm):
    """d loss / d x times ``norm`` (1/C, or 1/(N C) for 'mean'), as PyTorch's loop
    writes it: for each class j of a row and each other class i with a positive margin,
    g taken from x[j] and added to x[i], one step after the other."""
    rows, classes = x.shape
    g = x.dtype.type(norm)
    grad = np.zeros_like(x)
    _, valid = _label_sets(target, classes)
    row_index = np.arange(rows)
    others = is_target == 0
    for k in range(target.shape[1]):
        at = valid[:, k]
        column = np.where(at, target[:, k], 0)
        x_target = x[row_index, column]
        for d in range(classes):
            hit = at & others[:, d] & ((x.dtype.type(1) - x_target) + x[:, d] > 0)
            grad[row_index[hit], column[hit]] -= g
            grad[hit, d] += g
    return grad
