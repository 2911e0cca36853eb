"""The lessons' pictures: gradient descent, a loss curve, two moons and a decision boundary.

The plotting is kept out of the lessons, so a lesson's cells show the
autograd and the training, not forty lines of matplotlib. Every picture is
shown as an image with a text alternative (its ``alt``) that says what the
picture shows, with its numbers; classes are told apart by shape as well as
colour; every word in a picture or its alternative goes through the widgets'
message catalog, so a Chinese or Korean lesson draws Chinese or Korean.

The functions take NumPy arrays, Python numbers and a model that maps a
tensor of points to scores, from minigrad or PyTorch alike (``model(points)``
with points made by ``library.tensor``), so a lesson run with ``import torch``
draws the same pictures.
"""

from __future__ import annotations

import base64
import functools
import html
import io

import matplotlib
import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from .adapter import to_numpy
from .i18n import _

__all__ = ["two_moons", "show", "descent_picture", "paths_picture", "loss_picture",
           "moons_picture", "boundary_picture"]

COLOURS = ("tab:blue", "tab:orange")
MARKERS = ("o", "^")


def two_moons(n: int = 100, noise: float = 0.1, seed: int = 0):
    """``(points, labels)``: n points on each of two interleaved half circles
    (float32 coordinates, int64 labels 0 and 1), the same for a seed."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, np.pi, n)
    upper = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    lower = np.stack([1 - np.cos(angle), 0.5 - np.sin(angle)], axis=1)
    points = np.concatenate([upper, lower]) + rng.normal(0, noise, (2 * n, 2))
    labels = np.concatenate([np.zeros(n), np.ones(n)])
    return points.astype(np.float32), labels.astype(np.int64)


class Picture:
    """A figure shown as an image with a text alternative (``alt``)."""

    def __init__(self, figure: Figure, alt: str) -> None:
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight",
                       metadata={"Software": None})
        self.png = buffer.getvalue()
        self.alt = alt

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.png).decode()
        return f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt)}">'

    def __repr__(self) -> str:
        return self.alt


def show(figure: Figure, alt: str) -> Picture:
    """``figure`` as an image whose text alternative is ``alt``."""
    return Picture(figure, alt)


def _figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height))


# Fonts that draw Chinese and Korean too, where the machine has them (make test installs
# Noto CJK); DejaVu Sans, matplotlib's own, for the rest.
FONTS = {"font.sans-serif": ["Noto Sans CJK SC", "Noto Sans CJK KR", "WenQuanYi Zen Hei",
                             "DejaVu Sans"]}


def _in_fonts(function):
    """Draw with ``FONTS`` (for this picture only)."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(FONTS):
            return function(*args, **kwargs)
    return wrapper


@_in_fonts
def descent_picture(ws, loss=lambda w: w ** 2, formula: str = "w²") -> Picture:
    """Gradient descent in one dimension: the curve ``loss(w)`` and the points
    ``ws`` the steps visited, joined by arrows."""
    ws = [float(w) for w in ws]
    span = max(abs(w) for w in ws) * 1.15 or 1.0
    grid = np.linspace(-span, span, 200)
    figure = _figure(5, 3)
    axes = figure.subplots()
    axes.plot(grid, [loss(w) for w in grid], color="0.5")
    # points closer to each other than a marker's width near the minimum are drawn again,
    # numbered, in a magnified inset (w = 0.19 and 0.094 were one red blot)
    crowded = [k for k in range(1, len(ws)) if abs(ws[k] - ws[k - 1]) < span / 12]
    first = crowded[0] - 1 if crowded else len(ws)
    views = [(axes, range(len(ws)), range(first))]
    if crowded:
        near = ws[first:]
        low, high = min(near + [0.0]), max(near + [0.0])
        pad = (high - low) * 0.15
        inset = axes.inset_axes([0.33, 0.45, 0.34, 0.5])
        inset.set_xlim(low - pad, high + pad)
        inset.set_ylim(-0.08 * max(loss(w) for w in near),
                       1.3 * max(max(loss(w) for w in near), loss(low - pad), loss(high + pad)))
        local = np.linspace(low - pad, high + pad, 100)
        inset.plot(local, [loss(w) for w in local], color="0.5")
        inset.tick_params(labelsize=7)
        axes.indicate_inset_zoom(inset, edgecolor="0.4")
        views.append((inset, range(first, len(ws)), range(first, len(ws))))
    for view, shown, numbered in views:
        view.plot([ws[k] for k in shown], [loss(ws[k]) for k in shown], "o", color="tab:red",
                  markersize=6 if view is axes else 5)
        for k in shown[1:]:
            view.annotate("", xy=(ws[k], loss(ws[k])), xytext=(ws[k - 1], loss(ws[k - 1])),
                          arrowprops=dict(arrowstyle="->", color="tab:red"))
        for k in numbered:
            view.annotate(str(k), (ws[k], loss(ws[k])), textcoords="offset points",
                          xytext=(0, 6), ha="center", fontsize=8)
    axes.set_xlabel("w")
    axes.set_ylabel(_("loss = {formula}").format(formula=formula))
    alt = _("The curve loss = {formula} and the {count} values of w that gradient descent "
            "visited, from w = {first} down the slope to w = {last}, near the minimum at "
            "w = 0.").format(formula=formula, count=len(ws), first=f"{ws[0]:g}",
                              last=f"{ws[-1]:.3g}")
    return show(figure, alt)


@_in_fonts
def paths_picture(paths: dict, ylabel: str = "w") -> Picture:
    """Values step by step, one line per ``paths`` entry (label -> values), with
    a marker of its own each (they differ by shape, not only colour)."""
    figure = _figure(5, 3)
    axes = figure.subplots()
    for (label, values), marker, dash in zip(paths.items(), ("o", "^", "s"), ("-", "--", ":")):
        axes.plot(range(1, len(values) + 1), values, dash, marker=marker, markersize=4,
                  label=label)
    axes.axhline(0, color="0.6", linewidth=0.8)
    axes.set_xlabel(_("step number"))
    axes.set_ylabel(ylabel)
    # beside the axes, as the moons' legend: inside them it covers some of the points
    # whatever its corner (lesson 8's path without zero_grad swings through all four)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    said = _("; ").join(
        _("{label}: from {first} to {last}, between {low} and {high}").format(
            label=label, first=f"{values[0]:.3g}", last=f"{values[-1]:.3g}",
            low=f"{min(values):.3g}", high=f"{max(values):.3g}")
        for label, values in paths.items())
    alt = _("{name} over {count} steps. {paths}.").format(
        name=ylabel, count=max(len(v) for v in paths.values()), paths=said)
    return show(figure, alt)


@_in_fonts
def loss_picture(losses) -> Picture:
    """The loss step by step, on a log scale."""
    losses = [float(loss) for loss in losses]
    figure = _figure(5, 3)
    axes = figure.subplots()
    axes.plot(losses)
    axes.set_xlabel(_("step number"))
    axes.set_ylabel(_("cross-entropy loss"))
    axes.set_yscale("log")
    alt = _("Loss curve on a log scale: the loss falls from {first} at step 0 to {last} at "
            "step {step}.").format(first=f"{losses[0]:.2f}", last=f"{losses[-1]:.4f}",
                                   step=len(losses) - 1)
    return show(figure, alt)


def _classes() -> list[tuple[str, str]]:
    """Per label: its name in the legend, and how the text alternative says it is drawn."""
    return [(_("class 0 (upper moon)"), _("blue circles")),
            (_("class 1 (lower moon)"), _("orange triangles"))]


def _scatter(axes, points, labels, **style) -> str:
    labels = np.asarray(labels)
    for label, ((name, _seen), colour, marker) in enumerate(zip(_classes(), COLOURS, MARKERS)):
        chosen = labels == label
        axes.scatter(points[chosen, 0], points[chosen, 1], s=16, marker=marker, color=colour,
                     label=name, **style)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    return _("; ").join(_("{name}: {seen}").format(name=name, seen=seen)
                        for name, seen in _classes())


@_in_fonts
def moons_picture(points, labels) -> Picture:
    """The two moons, the classes told apart by shape and colour."""
    points = np.asarray(points)
    figure = _figure(5, 3.5)
    axes = figure.subplots()
    seen = _scatter(axes, points, labels)
    axes.set_title(_("two moons"))
    alt = _("Scatter plot of {count} points on two interleaved half circles. {seen}.").format(
        count=len(points), seen=seen)
    return show(figure, alt)


@_in_fonts
def boundary_picture(model, points, labels, library) -> Picture:
    """The points over the model's probability of class 1 (blue: surely class
    0, orange: surely class 1), with its boundary, probability 0.5, in black.
    ``library``: ``torch`` or ``minigrad``, whose tensors ``model`` takes."""
    points, labels = np.asarray(points), np.asarray(labels)
    xs = np.linspace(-1.5, 2.5, 200, dtype=np.float32)
    ys = np.linspace(-1.0, 1.5, 150, dtype=np.float32)
    grid_x, grid_y = np.meshgrid(xs, ys)
    grid = library.tensor(np.stack([grid_x.ravel(), grid_y.ravel()], axis=1))
    with library.no_grad():
        probability = to_numpy(model(grid).softmax(dim=1)[:, 1]).reshape(grid_x.shape)
        predicted = to_numpy(model(library.tensor(points)).argmax(dim=1))
    accuracy = float((predicted == labels).mean())
    figure = _figure(5, 3.5)
    axes = figure.subplots()
    shades = LinearSegmentedColormap.from_list("classes", list(COLOURS))
    axes.contourf(grid_x, grid_y, probability, levels=20, cmap=shades, alpha=0.4)
    axes.contour(grid_x, grid_y, probability, levels=[0.5], colors="black")
    seen = _scatter(axes, points, labels, edgecolors="white", linewidths=0.3)
    axes.set_title(_("decision boundary (black: probability 0.5)"))
    alt = _("The training points over the model's prediction: the black boundary line curves "
            "between the two moons, with {accuracy} of the points on their own class's side. "
            "{seen}.").format(accuracy=f"{accuracy:.0%}", seen=seen)
    return show(figure, alt)
