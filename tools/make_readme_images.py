"""Draw the README's pictures with the kit itself: ``python tools/make_readme_images.py``.

notebooks/img/graph.svg    the tutorial's graph after ``out.backward()``
notebooks/img/stepper.svg  a frame half-way through ``BackwardStepper`` on the same graph
notebooks/img/torch-graph.svg    a real ``torch.nn`` model's graph (needs PyTorch)
notebooks/img/torch-stepper.svg  ``BackwardStepper`` half-way through that model's backward
"""

from __future__ import annotations

import sys
from pathlib import Path

import minigrad as torch

from widgets.draw import draw_graph
from widgets.flipbook import FlipBook
from widgets.frames import plan_frames
from widgets.graph import GraphModel
from widgets.render import render_svg


def tutorial():
    """The PyTorch autograd tutorial: out = mean(3 (x + 2)^2), d out/dx = 4.5."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return {"x": x, "y": y, "out": out}


def torch_model():
    """A small torch.nn classifier and its cross-entropy loss on four points."""
    import torch as real_torch
    import torch.nn.functional as F

    real_torch.manual_seed(0)
    model = real_torch.nn.Sequential(real_torch.nn.Linear(2, 3), real_torch.nn.Tanh(),
                                     real_torch.nn.Linear(3, 2))
    points = real_torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    loss = F.cross_entropy(model(points), real_torch.tensor([0, 1, 1, 0]))
    return model, {**dict(model.named_parameters()), "loss": loss}


def draw_torch(target: Path) -> None:
    from widgets import BackwardStepper

    model, names = torch_model()
    stepper = BackwardStepper(names["loss"], names=names, max_values=6)
    stepper.index = 6
    (target / "torch-stepper.svg").write_text(stepper.svg)
    print(f"{target / 'torch-stepper.svg'}: {stepper.text}")
    names["loss"].backward()
    graph = draw_graph(names["loss"], names, max_values=6)
    (target / "torch-graph.svg").write_text(render_svg(graph))
    print(f"{target / 'torch-graph.svg'}: {graph.summary}, after loss.backward()")


def main(folder: str = "notebooks/img") -> None:
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)

    names = tutorial()
    steps = list(torch.autograd.backward_steps(names["out"]))
    model = GraphModel.build([names["out"]], names)
    frames = FlipBook(model, plan_frames(model, steps))
    middle = len(steps) // 2 + 1  # after step 3 of 5: both edges into AddBackward0 carry 2.25
    (target / "stepper.svg").write_text(frames[middle])
    print(f"{target / 'stepper.svg'}: {frames.plan[middle].text}")

    names["out"].backward()
    (target / "graph.svg").write_text(render_svg(draw_graph(names["out"], names)))
    print(f"{target / 'graph.svg'}: the graph after out.backward()")

    draw_torch(target)


if __name__ == "__main__":
    main(*sys.argv[1:])
