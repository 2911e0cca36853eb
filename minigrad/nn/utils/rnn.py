"""``pad_sequence`` and ``unpad_sequence``: batch sequences of different lengths into one
padded tensor, and back. (PyTorch's packed sequences, ``pack_padded_sequence`` and
``PackedSequence``, are not in minigrad.)"""

from __future__ import annotations

from collections.abc import Iterable

import minigrad

from ...tensor import Tensor

__all__ = ["pad_sequence", "unpad_sequence"]


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack tensors of shape (L_i, *) into (max L, batch, *) (``batch_first``: (batch,
    max L, *)), filling the rest with ``padding_value`` (after each sequence, or before it
    with ``padding_side='left'``). Each sequence is copied into its slot, as PyTorch's
    kernel does (so the graph ends in ``CopySlices``).

    >>> pad_sequence([minigrad.ones(3), minigrad.ones(1)]).shape
    torch.Size([3, 2])
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg "
                           f"of type: {type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    max_len = max(seq.size(0) for seq in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = ((len(sequences), max_len) if batch_first else (max_len, len(sequences))) + trailing
    out = minigrad.full(shape, padding_value, dtype=sequences[0].dtype)
    for i, seq in enumerate(sequences):
        start = max_len - seq.size(0) if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, seq.size(0)).copy_(seq)
        else:
            out.narrow(0, start, seq.size(0)).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor,
                   batch_first: bool = False) -> list[Tensor]:
    """The sequences of a padded batch, each cut to its length. (As PyTorch's, it transposes
    ``padded_sequences`` in place when not ``batch_first``.)"""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = minigrad.arange(padded_sequences.shape[1])
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]
