"""Draw the README's pictures with the kit itself: ``python tools/make_readme_images.py``.

notebooks/img/graph.svg    the tutorial's graph after ``out.backward()``
notebooks/img/stepper.svg  a frame half-way through ``BackwardStepper`` on the same graph
"""

from __future__ import annotations

import sys
from pathlib import Path

import minigrad as torch

from widgets.draw import draw_graph
from widgets.frames import flip_book
from widgets.graph import GraphModel
from widgets.render import render_svg


def tutorial():
    """The PyTorch autograd tutorial: out = mean(3 (x + 2)^2), d out/dx = 4.5."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return {"x": x, "y": y, "out": out}


def main(folder: str = "notebooks/img") -> None:
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)

    names = tutorial()
    steps = list(torch.autograd.backward_steps(names["out"]))
    frames, texts = flip_book(GraphModel.build([names["out"]], names), steps)
    middle = len(steps) // 2 + 1  # after step 3 of 5: both edges into AddBackward0 carry 2.25
    (target / "stepper.svg").write_text(frames[middle])
    print(f"{target / 'stepper.svg'}: {texts[middle]}")

    names["out"].backward()
    (target / "graph.svg").write_text(render_svg(draw_graph(names["out"], names)))
    print(f"{target / 'graph.svg'}: the graph after out.backward()")


if __name__ == "__main__":
    main(*sys.argv[1:])
