"""The questions of the four assignments, one module per notebook in ``notebooks/assignments``.

Each module defines ``ASSIGNMENT``: its questions' extract steps (what the
kernel hands back) and judges (how the grader decides), side by side.
"""

from . import (broadcasting_and_reductions, derive_it_by_hand, implement_a_backward,
               tensors_and_gradients)

ASSIGNMENTS = (
    tensors_and_gradients.ASSIGNMENT,
    derive_it_by_hand.ASSIGNMENT,
    implement_a_backward.ASSIGNMENT,
    broadcasting_and_reductions.ASSIGNMENT,
)
