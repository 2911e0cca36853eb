"""PyTorch's random numbers in minigrad, against NumPy's own generators and PyTorch:
``python benchmarks/random_numbers.py`` prints the best of several timings of

* ``randn`` of a million float32 (and float64) values,
* an ``nn.Linear(784, 256)`` initialisation (its weights and bias),
* a ``DataLoader`` epoch's shuffle of 60,000 indices (``randperm``),

with NumPy's Mersenne Twister and PCG64 doing the nearest thing (``standard_normal``,
``uniform``, ``permutation``) and PyTorch doing the same thing. Timings live here, never in
unit tests; on a shared machine, run it when the machine is idle (the load is printed).
"""

from __future__ import annotations

import os
import time

import numpy as np

import minigrad

try:
    import torch
except ImportError:  # (PyTorch is the test environment's; the figures without it still print)
    torch = None

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "15"))


def best(work) -> float:
    """The best of ``ROUNDS`` timings of ``work()``, in milliseconds."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    mersenne = np.random.Generator(np.random.MT19937(0))
    pcg = np.random.default_rng(0)
    minigrad.manual_seed(0)
    rows = [
        ("randn, 1,000,000 float32",
         lambda: minigrad.randn(1_000_000),
         lambda: mersenne.standard_normal(1_000_000, dtype=np.float32),
         lambda: pcg.standard_normal(1_000_000, dtype=np.float32),
         torch and (lambda: torch.randn(1_000_000))),
        ("randn, 1,000,000 float64",
         lambda: minigrad.randn(1_000_000, dtype=minigrad.float64),
         lambda: mersenne.standard_normal(1_000_000),
         lambda: pcg.standard_normal(1_000_000),
         torch and (lambda: torch.randn(1_000_000, dtype=torch.float64))),
        ("nn.Linear(784, 256) initialised",
         lambda: minigrad.nn.Linear(784, 256),
         lambda: mersenne.uniform(-0.0357, 0.0357, (256, 785)).astype(np.float32),
         lambda: pcg.uniform(-0.0357, 0.0357, (256, 785)).astype(np.float32),
         torch and (lambda: torch.nn.Linear(784, 256))),
        ("shuffle of 60,000 (randperm)",
         lambda: minigrad.randperm(60_000),
         lambda: mersenne.permutation(60_000),
         lambda: pcg.permutation(60_000),
         torch and (lambda: torch.randperm(60_000))),
    ]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; best of {ROUNDS}, ms")
    print(f"{'':36} {'minigrad':>9} {'NumPy MT':>9} {'NumPy PCG':>9} {'PyTorch':>9}")
    for name, *works in rows:
        cells = [f"{best(work):9.2f}" if work else f"{'-':>9}" for work in works]
        print(f"{name:36} {' '.join(cells)}")


if __name__ == "__main__":
    main()
