"""Lesson 6's gradient-descent picture: every point w visited is seen and numbered.

On the curve of w², the steps that halve w crowd near the minimum: w = 0.19 and 0.094 were
drawn as one red blot, and only the first four points had numbers. Here every point must be
numbered in some view (the whole curve, or the magnified inset) where its marker overlaps no
other numbered marker.
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import minigrad as torch
from widgets import plots


@pytest.fixture
def figures(monkeypatch):
    """The functions of ``plots`` return their matplotlib figure instead of the image."""
    monkeypatch.setattr(plots, "show", lambda figure, alt: figure)


def lesson_6_visited(steps: int = 5) -> list:
    """The values of w that lesson 6's loop visits (L = w², lr 0.25, from w = 3)."""
    w = torch.tensor(3.0, requires_grad=True)
    visited = [w.item()]
    for _ in range(steps):
        (w ** 2).backward()
        with torch.no_grad():
            w -= 0.25 * w.grad
        w.grad.zero_()
        visited.append(w.item())
    return visited


def numbered_markers(figure) -> list:
    """Per axes: {number: (x, y) in pixels, marker diameter in pixels} for each point whose
    number is written beside it."""
    FigureCanvasAgg(figure).draw()
    found = []
    for axes in [a for main in figure.axes for a in (main, *main.child_axes)]:
        numbers = {text.get_text(): text.xy for text in axes.texts if text.get_text()}
        lines = [line for line in axes.get_lines() if line.get_marker() == "o"]
        size = max((line.get_markersize() * figure.dpi / 72 for line in lines), default=0)
        marked = {tuple(p) for line in lines for p in line.get_xydata()}
        points = {int(n): tuple(axes.transData.transform(xy)) for n, xy in numbers.items()
                  if tuple(xy) in marked}
        found.append((points, size))
    return found


def test_every_visited_point_is_numbered_where_it_overlaps_no_other(figures):
    # (the lesson's five steps; with eight, the inset crowds in its turn)
    visited = lesson_6_visited()
    seen = set()
    for points, size in numbered_markers(plots.descent_picture(visited)):
        for k, (x, y) in points.items():
            apart = all(np.hypot(x - x2, y - y2) >= size for j, (x2, y2) in points.items()
                        if j != k)
            if apart:
                seen.add(k)
    assert seen == set(range(len(visited))), (
        f"points not told apart: {sorted(set(range(len(visited))) - seen)} of {visited}")


def test_a_picture_without_crowded_points_has_no_inset(figures):
    assert len(plots.descent_picture([3, 1.5, 0.75]).axes) == 1
