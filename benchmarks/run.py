"""The benchmark suite: ``make bench`` (or ``python benchmarks/run.py``).

Runs the same workloads with minigrad and with PyTorch (and with micrograd
and MyGrad when they are installed) in one process, one after the other,
and prints a table of the best time of several runs (the figure least
disturbed by whatever else the machine is doing, as ``timeit`` advises) and
the ratio minigrad / PyTorch, with
the machine it ran on. Timings live here, never in unit tests.

Workloads (forward + backward unless said otherwise):
  small ops     50 layers of (h * w + 1).tanh() on 4x4 tensors: time per op
  MLP step      784-256-10 MLP, batch 64: forward, cross entropy, backward, SGD step
  deep chain    20,000 multiplications in a row, then backward
  elementwise   1000x1000: tanh(x * w) + x, summed, then backward
  render        draw_graph + render_svg of graphs with about 50 and 500 boxes
  stepper       one frame change of BackwardStepper (no re-layout)
"""

from __future__ import annotations

import importlib
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

TARGETS = {  # minigrad time / PyTorch time, from issue 7
    "small ops (per op)": 1.5, "MLP step": 1.2, "deep chain": 1.5, "elementwise": 1.2,
}


def timed(fn, repeat: int, warmup: int = 1) -> float:
    """Best seconds per call of ``fn`` over ``repeat`` calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


# ---- the workloads, written once for any torch-like library -------------------

def small_ops(lib, layers=50):
    x = lib.tensor(np.full((4, 4), 0.5, np.float32), requires_grad=True)
    w = lib.tensor(np.full((4, 4), 0.9, np.float32), requires_grad=True)
    h = x
    for _ in range(layers):
        h = (h * w + 1).tanh()
    h.sum().backward()


SMALL_OPS_PER_RUN = 50 * 3 + 1  # mul, add, tanh per layer, and the sum


def mlp_setup(lib):
    rng = np.random.default_rng(0)
    data = {
        "x": lib.tensor(rng.standard_normal((64, 784)).astype(np.float32)),
        "y": lib.tensor(rng.integers(0, 10, 64)),
        "w1": lib.tensor((rng.standard_normal((256, 784)) * 0.03).astype(np.float32),
                         requires_grad=True),
        "b1": lib.tensor(np.zeros(256, np.float32), requires_grad=True),
        "w2": lib.tensor((rng.standard_normal((10, 256)) * 0.06).astype(np.float32),
                         requires_grad=True),
        "b2": lib.tensor(np.zeros(10, np.float32), requires_grad=True),
    }
    optimizer = lib.optim.SGD([data[k] for k in ("w1", "b1", "w2", "b2")], lr=0.01)
    F = lib.nn.functional

    def step():
        hidden = F.relu(F.linear(data["x"], data["w1"], data["b1"]))
        loss = F.cross_entropy(F.linear(hidden, data["w2"], data["b2"]), data["y"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return step


def deep_chain(lib, length=20_000):
    x = lib.tensor(np.ones(4, np.float32), requires_grad=True)
    y = x
    for _ in range(length):
        y = y * 1.0001
    y.sum().backward()


def elementwise_setup(lib):
    rng = np.random.default_rng(1)
    x = lib.tensor(rng.standard_normal((1000, 1000)).astype(np.float32), requires_grad=True)
    w = lib.tensor(rng.standard_normal((1000, 1000)).astype(np.float32), requires_grad=True)

    def run():
        ((x * w).tanh() + x).sum().backward()
    return run


# ---- peers that are not torch-like -------------------------------------------

def micrograd_small_ops(layers=50):
    """The same layer on one scalar (micrograd has scalars only, and no tanh on
    all versions: relu instead)."""
    from micrograd.engine import Value

    x, w = Value(0.5), Value(0.9)
    h = x
    for _ in range(layers):
        h = (h * w + 1).relu()
    h.backward()


def mygrad_small_ops(layers=50):
    import mygrad

    x = mygrad.tensor(np.full((4, 4), 0.5, np.float32))
    w = mygrad.tensor(np.full((4, 4), 0.9, np.float32))
    h = x
    for _ in range(layers):
        h = mygrad.tanh(h * w + 1)
    mygrad.sum(h).backward()


# ---- reporting -----------------------------------------------------------------

def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import torch

    return (f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"NumPy {np.__version__}, PyTorch {torch.__version__}")


def optional(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def main() -> None:
    import torch

    import minigrad

    torch.set_num_threads(os.cpu_count() or 1)
    rows = []  # (workload, minigrad s, torch s, others)

    mg_small = timed(lambda: small_ops(minigrad), 20) / SMALL_OPS_PER_RUN
    th_small = timed(lambda: small_ops(torch), 20) / SMALL_OPS_PER_RUN
    others = {}
    if optional("micrograd"):
        others["micrograd (scalars)"] = timed(micrograd_small_ops, 20) / SMALL_OPS_PER_RUN
    if optional("mygrad"):
        others["MyGrad"] = timed(mygrad_small_ops, 20) / SMALL_OPS_PER_RUN
    rows.append(("small ops (per op)", mg_small, th_small, others))

    rows.append(("MLP step", timed(mlp_setup(minigrad), 20), timed(mlp_setup(torch), 20), {}))
    rows.append(("deep chain", timed(lambda: deep_chain(minigrad), 3),
                 timed(lambda: deep_chain(torch), 3), {}))
    rows.append(("elementwise", timed(elementwise_setup(minigrad), 10),
                 timed(elementwise_setup(torch), 10), {}))

    print(f"machine: {machine()}\n")
    print(f"{'workload':<20} {'minigrad':>12} {'PyTorch':>12} {'ratio':>7} {'target':>7}  others")
    for name, ours, theirs, extra in rows:
        ratio = ours / theirs
        target = TARGETS.get(name)
        verdict = "" if target is None else ("ok" if ratio <= target else "MISSED")
        peers = ", ".join(f"{peer} {_fmt(t)}" for peer, t in extra.items())
        print(f"{name:<20} {_fmt(ours):>12} {_fmt(theirs):>12} {ratio:>7.2f} "
              f"{'<= ' + str(target) if target else '':>7}  {verdict} {peers}")

    print()
    widget_figures()


def widget_figures() -> None:
    """Drawing and stepping (minigrad only; PyTorch has no such thing)."""
    from widgets import BackwardStepper, draw_graph, render_svg
    from drawing import layers
    from widgets.render import _run

    for boxes in (50, 500):
        out = layers(boxes // 5)

        def draw_and_render():
            _run.cache_clear()  # measure the layout, not the cache of repeated drawings
            render_svg(draw_graph(out, collapse=None, max_nodes=10_000))
        seconds = timed(draw_and_render, 3)
        print(f"{f'render {boxes} boxes':<20} {_fmt(seconds):>12}   target < 0.5 s: "
              f"{'ok' if seconds < 0.5 else 'MISSED'}")
    stepper = BackwardStepper(layers(10))

    def flip():
        stepper.step() if stepper.index < len(stepper.steps) else stepper.reset()
    seconds = timed(flip, 200)
    print(f"{'stepper frame':<20} {_fmt(seconds):>12}   target < 100 ms, no re-layout: "
          f"{'ok' if seconds < 0.1 else 'MISSED'}")


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


if __name__ == "__main__":
    main()
