"""Counting into bins as PyTorch's CPU histogram kernel counts."""

from __future__ import annotations

import numpy as np

from . import threads

__all__ = ["histogram"]

GRAIN = 200  # (elements: PyTorch's histogram kernel's grain size, measured: 200 one run, 201 two)


def histogram(data: np.ndarray, edges: np.ndarray, weights) -> np.ndarray:
    """Each element of ``data`` (or its weight) added to the bin between the edges it lies
    in (its left edge reached; the last bin takes its right edge too; outside: not counted),
    as PyTorch's kernel adds them: the elements split into one run per thread, but no more
    runs than started blocks of ``GRAIN`` elements (at::parallel_for's grain size: 200
    elements or fewer are one run), each run counted in a histogram of its own in order,
    then the runs' histograms added up."""
    bins = max(len(edges) - 1, 0)
    runs = max(min(threads.get_num_threads(), -(-len(data) // GRAIN)), 1)
    step = -(-len(data) // runs) or 1
    total = np.zeros(bins, data.dtype)
    for start in range(0, max(len(data), 1), step):
        run = data[start:start + step]
        inside = (run >= edges[0]) & (run <= edges[-1]) if bins else np.zeros(len(run), bool)
        places = np.minimum(np.searchsorted(edges, run[inside], side="right") - 1, bins - 1)
        counted = np.zeros(bins, data.dtype)
        np.add.at(counted, places, 1 if weights is None else weights[start:start + step][inside])
        total = total + counted
    return total
