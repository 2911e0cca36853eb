"""Memory: a training loop stays flat, and graphs are freed by reference
counting alone (no cycles that only the garbage collector could break)."""

import gc
import tracemalloc
import weakref

import numpy as np

import minigrad as torch
from minigrad import nn


def training_loop(steps):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, 3))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    x = torch.randn(32, 20)
    y = torch.tensor(np.arange(32) % 3)
    nodes = []
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(x), y)
        nodes.append(weakref.ref(loss.grad_fn))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return nodes


def test_training_memory_stays_flat():
    # Warm the caches first: wrapped constants and their converted arrays are kept
    # for at most 128 values, and Adam makes new numbers every step, so its caches
    # fill up during the first steps (bounded: they stop growing there).
    training_loop(150)
    tracemalloc.start()
    try:
        training_loop(20)
        gc.collect()
        after_20 = tracemalloc.get_traced_memory()[0]
        training_loop(200)
        gc.collect()
        after_200 = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # Ten times the steps, (nearly) the same memory: nothing accumulates per step.
    assert after_200 - after_20 < 64 * 1024, (after_20, after_200)


def test_graphs_are_freed_without_the_garbage_collector():
    gc.collect()
    gc.disable()
    try:
        nodes = training_loop(10)
        assert all(node() is None for node in nodes)  # freed as soon as each step ended
    finally:
        gc.enable()


def test_saved_buffers_are_released_by_backward():
    x = torch.randn(1000, requires_grad=True)
    y = (x * 2).exp()
    node = y.grad_fn
    assert node._saved["result"] is not None
    y.sum().backward()
    # the saved output (4 kB here) is gone even though the node is still reachable
    assert all(not hasattr(value, "data") for value in node._saved.values())
