"""Draw the README's pictures with the kit itself: ``python tools/make_readme_images.py``.

notebooks/img/graph.svg    the tutorial's graph after ``out.backward()``
notebooks/img/stepper.svg  a frame half-way through ``BackwardStepper`` on the same graph
notebooks/img/torch-graph.svg    a real ``torch.nn`` model's graph (needs PyTorch)
notebooks/img/torch-stepper.svg  ``BackwardStepper`` half-way through that model's backward
notebooks/img/backward-check.svg ``BackwardCheck`` on a small network, part of it derived by hand
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


def draw_check(target: Path) -> None:
    """A linear layer, tanh, a second layer and cross-entropy: d loss/d loss exact, the
    next three close, the tanh's derivative forgotten in hpre's, two not derived yet."""
    from widgets import BackwardCheck

    X = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-1.0, 1.0, 0.5], [0.0, 2.0, 1.0]])
    Y = torch.tensor([0, 1, 1, 0])
    W1 = torch.tensor([[0.3, -0.2, 0.5], [0.1, 0.4, -0.3], [-0.5, 0.2, 0.1]], requires_grad=True)
    b1 = torch.tensor([0.1, -0.1, 0.05], requires_grad=True)
    W2 = torch.tensor([[0.4, -0.6], [0.7, 0.2], [-0.3, 0.5]], requires_grad=True)
    hpre = X @ W1 + b1
    h = hpre.tanh()
    logits = h @ W2
    loss = torch.nn.functional.cross_entropy(logits, Y)
    check = BackwardCheck(loss, {"loss": loss, "logits": logits, "W2": W2, "h": h,
                                 "hpre": hpre, "W1": W1, "b1": b1})
    with torch.no_grad():
        dlogits = (logits.softmax(1) - torch.eye(2)[Y]) / 4
        dh = dlogits @ W2.T
        check.update({"loss": torch.tensor(1.0), "logits": dlogits, "W2": h.T @ dlogits,
                      "h": dh, "hpre": dh})
    (target / "backward-check.svg").write_text(check.svg)
    print(f"{target / 'backward-check.svg'}: {check.summary}")


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

    draw_check(target)
    draw_torch(target)


if __name__ == "__main__":
    main(*sys.argv[1:])
