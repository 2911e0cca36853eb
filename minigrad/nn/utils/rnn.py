"""Batches of sequences of different lengths: ``pad_sequence`` and ``unpad_sequence`` (one
padded tensor, and back), and packed sequences (``pack_padded_sequence``, ``pack_sequence``,
``pad_packed_sequence``, ``unpack_sequence``, ``PackedSequence``): the time steps one after another, each with
only the sequences still running, sorted longest first, as the recurrent layers take them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import minigrad

from ... import ops
from ...tensor import Tensor

__all__ = ["PackedSequence", "pack_padded_sequence", "pack_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "unpack_sequence"]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(PackedSequence_):
    """``data``: the steps of every sequence, step by step ((sum of lengths, *));
    ``batch_sizes``: how many sequences run at each step; ``sorted_indices`` (and its inverse
    ``unsorted_indices``): the order of the batch, longest first, when it was not given so."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> "PackedSequence":
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, self.batch_sizes,
                                                           self.sorted_indices,
                                                           self.unsorted_indices)

    def double(self) -> "PackedSequence":
        return self.to(dtype=minigrad.float64)

    def float(self) -> "PackedSequence":
        return self.to(dtype=minigrad.float32)

    @property
    def is_cuda(self) -> bool:
        return False


def _invert_permutation(permutation: Tensor) -> Tensor:
    output = minigrad.empty_like(permutation)
    output.scatter_(0, permutation, minigrad.arange(0, permutation.numel()))
    return output


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded (T, B, *) batch (``batch_first``: (B, T, *)) whose sequences have the
    given ``lengths``: step t keeps the sequences longer than t. Unless ``enforce_sorted``,
    the batch is first sorted by length, longest first (``sorted_indices``)."""
    if not isinstance(lengths, Tensor):
        lengths = minigrad.as_tensor(lengths, dtype=minigrad.int64)
    else:
        lengths = lengths.to(dtype=minigrad.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = minigrad.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    sizes = [int(n) for n in lengths.tolist()]
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    batch_size = input.size(0 if batch_first else 1)
    if len(sizes) != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(sizes)} (batch_size={batch_size})")
    if sizes[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if any(a < b for a, b in zip(sizes, sizes[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    batch_sizes = [sum(1 for n in sizes if n > t) for t in range(sizes[0])]
    data = ops.pack_padded_sequence(input, batch_sizes, batch_first)
    return PackedSequence(data, minigrad.tensor(batch_sizes), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """The padded batch (T, B, *) (``batch_first``: (B, T, *)) and the lengths of a packed
    one, in the batch's original order."""
    batch_sizes = [int(n) for n in sequence.batch_sizes.tolist()]
    max_seq_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and "
                             f"max sequence length being {max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    shape = (max_seq_length, batch_sizes[0]) + tuple(data.shape[1:])
    padded = minigrad.full(shape, padding_value, dtype=data.dtype)
    offset, start = 0, 0
    for t in range(1, len(batch_sizes) + 1):  # (each run of steps of one batch size, as torch)
        if t == len(batch_sizes) or batch_sizes[t] != batch_sizes[start]:
            size, steps = batch_sizes[start], t - start
            block = data.narrow(0, offset, size * steps).view((steps, size) + tuple(data.shape[1:]))
            padded.narrow(0, start, steps).narrow(1, 0, size).copy_(block)
            offset, start = offset + size * steps, t
    if batch_first:
        padded = padded.transpose(0, 1)
    lengths = minigrad.tensor([sum(1 for b in batch_sizes if b > i)
                               for i in range(batch_sizes[0])])
    if sequence.unsorted_indices is not None:
        return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices])
    return padded, lengths


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of (L_i, *) tensors (longest first, unless not ``enforce_sorted``)."""
    lengths = minigrad.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


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


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """The sequences of a packed batch, in their own order and lengths (``pack_sequence``
    undone): padded, then each cut to its length, as PyTorch writes it."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
