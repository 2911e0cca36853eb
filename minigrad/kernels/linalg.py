"""Matrix products on arrays, rounded as PyTorch's CPU kernel rounds them."""

from __future__ import annotations

import numpy as np


def matrix_product(a, b):
    """a @ b for two matrices (arrays), as torch's CPU kernel rounds it: with an inner
    size of 1 (and more than one row and column) each element is a single product, so
    -2 * 0 stays -0. (NumPy's kernel adds it to 0: +0.)."""
    if a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1:
        return np.multiply(a, b)
    return np.matmul(a, b)
