"""A picture's legend hides none of its data: no plotted point lies under the legend's box.

Lesson 8 drew `w` with and without `zero_grad` over 30 steps, and its legend (matplotlib's
"best" place, inside the axes) covered the swinging path's trough around step 20: the
curve the lesson talks about vanished behind the labels. Each picture of ``widgets.plots``
that has a legend is drawn here with a lesson's own data, and every point of every line
and scatter is looked up in display coordinates against the legend's box.
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection
from matplotlib.transforms import Bbox

import minigrad as torch
from widgets import plots


@pytest.fixture
def figures(monkeypatch):
    """The functions of ``plots`` return their matplotlib figure instead of the image."""
    monkeypatch.setattr(plots, "show", lambda figure, alt: figure)


def lesson_8_paths():
    """Lesson 8's two runs of SGD on w**2 (lr 0.1, 30 steps), with and without zero_grad."""
    def train(zero_grad):
        w = torch.tensor(1.0, requires_grad=True)
        optimizer = torch.optim.SGD([w], lr=0.1)
        values = []
        for _ in range(30):
            if zero_grad:
                optimizer.zero_grad()
            (w ** 2).backward()
            optimizer.step()
            values.append(round(w.item(), 3))
        return values
    return {"optimizer.zero_grad()": train(True), "# optimizer.zero_grad()": train(False)}


def covered_points(figure) -> list:
    """The data points (display coordinates) that lie inside a legend's box."""
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    covered = []
    for axes in figure.axes:
        legend = axes.get_legend()
        if legend is None:
            continue
        box = Bbox(legend.get_window_extent(renderer))
        points = [line.get_xydata() for line in axes.get_lines() if line.get_label()[:1] != "_"]
        points += [c.get_offsets() for c in axes.collections if isinstance(c, PathCollection)]
        for data in points:
            for x, y in axes.transData.transform(np.asarray(data, dtype=float)):
                if box.contains(x, y):
                    covered.append((x, y))
    return covered


def test_lesson_8_paths_show_every_step(figures):
    figure = plots.paths_picture(lesson_8_paths())
    assert figure.axes[0].get_legend() is not None
    assert covered_points(figure) == []


def test_the_moons_and_the_boundary_show_every_point(figures):
    points, labels = plots.two_moons(100, noise=0.1, seed=0)
    assert covered_points(plots.moons_picture(points, labels)) == []
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 2))
    assert covered_points(plots.boundary_picture(model, points, labels, torch)) == []
