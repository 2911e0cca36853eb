"""``nn.utils.rnn.pack_padded_sequence``'s op, as PyTorch's ``_pack_padded_sequence``: the
steps of a padded (T, B, *) batch ((B, T, *) with ``batch_first``) one after another, each
with only the sequences still running (the first ``batch_sizes[t]`` of the batch), as one
node, ``PackPaddedSequenceBackward0``, whose backward puts each step's rows of the
gradient back where they came from, zeros in the padding (PyTorch's
``_pack_padded_sequence_backward``: a copy into zeros per step, then the transpose)."""

from __future__ import annotations

import numpy as np

from ..autograd.formula import Formula
from ..autograd.node import Node
from . import fn


class PackPaddedSequenceBackward0(Node):
    formula = Formula("packed", "the rows of each step still running, step after step",
                      grad={"input": "each step's rows of G put back in place, 0 in the padding"})

    def forward(self, input, batch_sizes, batch_first):
        self.save(batch_first=batch_first, input_sym_sizes=input.shape,
                  result1=np.asarray(batch_sizes, np.int64), _batch_sizes=tuple(batch_sizes))
        steps = input.swapaxes(0, 1) if batch_first else input
        return np.concatenate([steps[t, :size] for t, size in enumerate(batch_sizes)])

    def backward(self, saved, grad):
        return fn.unpacked_steps(grad, saved.input_sym_sizes, saved._batch_sizes,
                                 saved.batch_first)


def pack_padded_sequence(input, batch_sizes: list, batch_first: bool):
    """The packed data of ``input`` whose steps run ``batch_sizes`` sequences each."""
    return PackPaddedSequenceBackward0.apply(input, batch_sizes=batch_sizes,
                                             batch_first=batch_first)
