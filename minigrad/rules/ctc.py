"""PyTorch's checks of ``ctc_loss``'s arguments, in its order: the lengths (two integer
tensors, or two tuples of ints: else the parser's TypeError naming both overloads), the
log-probabilities' dtype, then ``ctc_loss_allocate_outputs``'s checks of the dimensions,
``blank``, the lengths' counts, each target length, the targets' size, each input length.
"""

from __future__ import annotations

import numpy as np

from ..autograd.tensor_base import is_tensor
from ..dtypes import SCALAR_NAMES, float32, float64
from .arguments import described, type_name

__all__ = ["ctc_lengths", "check_ctc_loss"]

_OVERLOADS = ("Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
              "target_lengths, int blank = 0, int reduction = at::Reduction::Mean, bool "
              "zero_infinity = False",
              "Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, "
              "int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False")
_CHECKING = " (while checking arguments for ctc_loss_allocate_outputs)"


def _is_int(value) -> bool:
    if is_tensor(value):
        return value.dim() == 0 and value.dtype.is_integer
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _ints(value) -> bool:
    return isinstance(value, (tuple, list)) and all(_is_int(v) for v in value)


def _invalid(args: tuple) -> TypeError:
    """The parser's error: each overload with the arguments marked as PyTorch's parser
    marks them: all but the tensors given where it takes a tensor."""
    def marked(tensors: int) -> str:
        return "(" + ", ".join(type_name(a) if is_tensor(a) and i < tensors
                               else f"!{described(a)}!" for i, a in enumerate(args)) + ")"
    lines = [f"ctc_loss() received an invalid combination of arguments - got "
             f"({', '.join(type_name(a) for a in args)}), but expected one of:"]
    for overload, tensors in zip(_OVERLOADS, (2, 4)):
        lines += [f" * ({overload})", f"      didn't match because some of the arguments have "
                                       f"invalid types: {marked(tensors)}"]
    return TypeError("\n".join(lines) + "\n")


def ctc_lengths(args: tuple) -> tuple:
    """(input_lengths, target_lengths) as two tuples of ints, from the call's arguments
    (log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)."""
    inputs, targets = args[2], args[3]
    if is_tensor(inputs) and is_tensor(targets):
        for name, lengths in (("input_lengths", inputs), ("target_lengths", targets)):
            if not lengths.dtype.is_integer:  # (bool is not, for PyTorch)
                raise RuntimeError(f"{name} must be integral")
        return tuple(int(v) for v in inputs.reshape(-1).tolist()), \
            tuple(int(v) for v in targets.reshape(-1).tolist())
    if _ints(inputs) and _ints(targets):
        return tuple(int(v) for v in inputs), tuple(int(v) for v in targets)
    raise _invalid(args)


def check_ctc_loss(log_probs, targets, input_lengths: tuple, target_lengths: tuple,
                   blank: int) -> None:
    """``log_probs`` (time, batch, classes) as the kernel takes it (unbatched input
    already unsqueezed)."""
    if log_probs.dtype not in (float32, float64):
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for "
                                  f"'{SCALAR_NAMES[log_probs.dtype]}'")
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional "
                           f"tensor for argument #1 'log_probs'{_CHECKING}")
    if not 1 <= targets.dim() <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional "
                           f"tensor for argument #2 'targets'{_CHECKING}")
    time, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got "
                               f"value {length}{_CHECKING}")
    _check_targets_size(targets, target_lengths, batch)
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got "
                               f"value {length}{_CHECKING}")
        if length > time:
            raise RuntimeError(f"Expected input_lengths to have value at most {time}, but got "
                               f"value {length}{_CHECKING}")
    _check_labels(targets, target_lengths, classes)


def _check_targets_size(targets, target_lengths: tuple, batch: int) -> None:
    """Concatenated targets: as many as the lengths add up to; padded ones: a row per
    sequence, each as long as the longest target."""
    expected = sum(target_lengths) if targets.dim() == 1 else batch
    if targets.shape[0] != expected:
        raise RuntimeError(f"Expected tensor to have size {expected} at dimension 0, but got "
                           f"size {targets.shape[0]} for argument #2 'targets'{_CHECKING}")
    longest = max(target_lengths, default=0)
    if targets.dim() == 2 and targets.shape[1] < longest:
        raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but "
                           f"got size {targets.shape[1]} for argument #2 'targets'{_CHECKING}")


def _check_labels(targets, target_lengths: tuple, classes: int) -> None:
    """minigrad's own check: PyTorch reads a label outside [0, classes) from memory past
    the row of log_probs (a meaningless loss, no error), which NumPy cannot mimic."""
    labels = targets._data.astype(np.int64)
    used = np.concatenate([labels[b, :n] for b, n in enumerate(target_lengths)]) \
        if targets.dim() == 2 else labels
    bad = used[(used < 0) | (used >= classes)]
    if len(bad):
        raise IndexError(f"ctc_loss: target label {bad[0]} is out of range for {classes} "
                         f"classes (PyTorch reads memory past the row of log_probs and gives a "
                         f"meaningless loss; labels must be in [0, {classes}))")
