"""Counting into bins as PyTorch's CPU histogram kernel counts."""

from __future__ import annotations

import numpy as np

from . import threads

__all__ = ["histogram"]

GRAIN = 200  # (elements: PyTorch's histogram kernel's grain size, measured: 200 one run, 201 two)


def histogram(data: np.ndarray, edges: np.ndarray, weights) -> np.ndarray:
    """``histogramdd`` of one dimension: each element in the bin between the edges it
    lies in."""
    return histogramdd(data.reshape(-1, 1), [edges], weights)


def histogramdd(data: np.ndarray, edges: list, weights) -> np.ndarray:
    """Each row of ``data`` (N points of D coordinates; or its weight) added to the bin
    between the edges its coordinates lie in, dimension by dimension (its left edge reached;
    the last bin takes its right edge too; outside in any dimension: not counted), as
    PyTorch's kernel adds them: the rows split into one run per thread, but no more runs
    than started blocks of ``GRAIN`` rows (at::parallel_for's grain size: 200 rows or fewer
    are one run), each run counted in a histogram of its own in order, then the runs'
    histograms added up."""
    bins = tuple(max(len(e) - 1, 0) for e in edges)
    runs = max(min(threads.get_num_threads(), -(-len(data) // GRAIN)), 1)
    step = -(-len(data) // runs) or 1
    total = np.zeros(bins, data.dtype)
    for start in range(0, max(len(data), 1), step):
        run = data[start:start + step]
        inside = np.ones(len(run), bool)
        for dim, (e, count) in enumerate(zip(edges, bins)):
            inside &= (run[:, dim] >= e[0]) & (run[:, dim] <= e[-1]) if count else False
        places = tuple(np.minimum(np.searchsorted(e, run[inside, dim], side="right") - 1,
                                  count - 1) for dim, (e, count) in enumerate(zip(edges, bins)))
        counted = np.zeros(bins, data.dtype)
        np.add.at(counted, places, 1 if weights is None else weights[start:start + step][inside])
        total = total + counted
    return total
