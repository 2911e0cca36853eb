"""How fast are the drawings? ``python benchmarks/drawing.py`` prints the figures
(``make bench`` prints the main ones).

Timings belong here, not in unit tests (machines differ). Measured: drawing
plus layout of graphs of 50 and 500 boxes (with graphviz-pure, and with the
system ``dot`` when there is one), the collapsed 300- and 5000-op chains,
a 5000-node graph that cannot be collapsed (windowed by ``max_nodes``), and
the stepper: building all frames, changing frame from Python, and issue 17's
big backward (``branches``: 15,000 steps) with minigrad and PyTorch, its build
time and the bytes of widget state it sends to the page (and saves).
"""

from __future__ import annotations

import json
import shutil
import time

import minigrad as torch
from ipywidgets.embed import dependency_state
from widgets import BackwardStepper, draw_graph, render, render_svg


def layers(count: int):
    """``count`` layers h = tanh(h @ W + b), each with its own W and b: 5 boxes a layer."""
    torch.manual_seed(0)
    h = torch.randn(1, 4)
    for _ in range(count):
        w = torch.randn(4, 4, requires_grad=True)
        b = torch.zeros(4, requires_grad=True)
        h = (h @ w + b).tanh()
    return h.sum()


def chain(count: int):
    x = torch.ones(3, requires_grad=True)
    y = x
    for _ in range(count):
        y = y * 1.001
    return y.sum()


def branches(lib=torch, count: int = 3000):
    """Issue 17's example: ``count`` small tensors, each ``(x.exp() * 2).sum()``,
    added up: a backward of 5 * ``count`` steps."""
    lib.manual_seed(0)
    xs = [lib.randn(3, requires_grad=True) for _ in range(count)]
    return sum((x.exp() * 2).sum() for x in xs)


def big_stepper(lib=torch, repeat: int = 3) -> tuple[float, float, int, "BackwardStepper"]:
    """(best build time in s, its CPU time in s, widget state in bytes, the stepper)
    on ``branches``. The CPU time is the figure a busy machine disturbs least."""
    out = branches(lib)
    made, cpu = [], []

    def build():
        start = time.process_time()
        made.append(BackwardStepper(out))
        cpu.append(time.process_time() - start)
    seconds = timed(build, repeat=repeat)
    state = len(json.dumps(dependency_state([made[-1]])))
    return seconds, min(cpu), state, made[-1]


def timed(action, repeat: int = 3) -> float:
    """The best of ``repeat`` runs, in seconds (the layout cache is emptied each time)."""
    best = float("inf")
    for _ in range(repeat):
        render._run.cache_clear()
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def row(what: str, seconds: float, extra: str = "") -> None:
    print(f"  {what:<60} {seconds * 1000:8.2f} ms  {extra}")


def main() -> None:
    engines = ["graphviz-pure"] + (["dot"] if shutil.which("dot") else [])
    print("draw_graph + render_svg (no collapsing), best of 3:")
    for engine in engines:
        for count in (10, 100):
            out = layers(count)
            graph = draw_graph(out, collapse=None, max_nodes=10_000)
            boxes = graph.source.count(" [label=")
            row(f"{boxes} boxes, {engine}", timed(lambda: render_svg(
                draw_graph(out, collapse=None, max_nodes=10_000), engine)))

    print("big graphs, collapsed or windowed first (graphviz-pure):")
    out = chain(300)
    row("300-op chain, not collapsed (collapse=None, max_nodes=1000)",
        timed(lambda: render_svg(draw_graph(out, collapse=None, max_nodes=1000))))
    for count in (300, 5000):
        out = chain(count)
        row(f"{count}-op chain, collapsed", timed(lambda: render_svg(draw_graph(out))),
            f"({draw_graph(out).summary})")
    out = layers(1000)
    row("5000-node graph of distinct layers, collapsed",
        timed(lambda: render_svg(draw_graph(out)), repeat=1), f"({draw_graph(out).summary})")
    row("the same, collapse=None: windowed at max_nodes=200",
        timed(lambda: render_svg(draw_graph(out, collapse=None)), repeat=1))

    print("BackwardStepper (the picture goes to the page once, frames are style changes "
          "switched in the browser; step() only moves the index):")
    x = torch.ones(2, 2, requires_grad=True)
    cases = (("the tutorial", (3 * (x + 2) ** 2).mean(), 4), ("10 layers", layers(10), None),
             ("300-op chain, collapsed", chain(300), 4))
    for what, out, collapse in cases:
        made = []
        seconds = timed(lambda: made.append(BackwardStepper(out, collapse=collapse)), repeat=1)
        stepper = made[-1]
        state = len(json.dumps(dependency_state([stepper])))
        row(f"build all frames: {what}", seconds,
            f"({len(stepper.frames)} frames, {state / 1e3:.1f} kB of widget state)")
        start = time.perf_counter()
        for _ in range(len(stepper.steps)):
            stepper.step()
        per_step = (time.perf_counter() - start) / len(stepper.steps)
        row(f"step() from Python: {what}", per_step)
    libraries = [("minigrad", torch)]
    try:
        import torch as pytorch
        libraries.append(("PyTorch", pytorch))
    except ImportError:
        pass
    for name, lib in libraries:
        seconds, cpu, state, stepper = big_stepper(lib)
        row(f"build, 15,000 steps ({name}): issue 17's example", seconds,
            f"({cpu:.2f} s CPU, {len(stepper.frames)} frames, {state / 1e6:.2f} MB of widget "
            f"state; targets < 1 s, < 5 MB)")


if __name__ == "__main__":
    main()
