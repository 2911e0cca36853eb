"""How many instructions a round of small ops costs, counted by callgrind: the
check that big-tensor work (threads, kernels in parts) costs small tensors
nothing more than a size check. Counts do not depend on the load of the
machine, so this can be run on a busy one, before and after a change:

    python benchmarks/small_instructions.py            # the minigrad on sys.path
    PYTHONPATH=/other/checkout python benchmarks/small_instructions.py

A round is the forward and backward of exp, log, sin, cos, ** 2.5, sqrt,
sigmoid, tanh, softmax, log_softmax and logsumexp on an 8x10 float32 and
float64 tensor, then cross_entropy, BCE with logits and logsigmoid. It runs
the program twice under valgrind (no rounds, then ``ROUNDS`` rounds, after
three rounds of warm-up each time) and prints the difference per round, so
the cost of starting Python and importing minigrad drops out.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

ROUNDS = 50


def program(rounds: int) -> None:
    import minigrad as torch
    import minigrad.nn.functional as F

    torch.manual_seed(0)
    x = torch.randn(8, 10, requires_grad=True)
    x64 = torch.randn(8, 10, dtype=torch.float64, requires_grad=True)
    targets = torch.rand(8, 10)
    labels = torch.tensor([1, 2, 3, 4, 5, 6, 7, 8])

    def one_round():
        for a in (x, x64):
            p = a.abs() + 0.5
            (a.exp().sum() + p.log().sum() + a.sin().sum() + a.cos().sum()
             + (p ** 2.5).sum() + p.sqrt().sum() + a.sigmoid().sum() + a.tanh().sum()
             + a.softmax(1).sum() + a.log_softmax(1).sum() + a.logsumexp(1).sum()).backward()
        F.cross_entropy(x, labels).backward()
        F.binary_cross_entropy_with_logits(x, targets).backward()
        F.logsigmoid(x).sum().backward()

    for _ in range(3 + rounds):
        one_round()


def count(rounds: int) -> int:
    """The instructions callgrind collects for the whole program with ``rounds``."""
    environment = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as directory:
        run = subprocess.run(
            ["valgrind", "--tool=callgrind",
             f"--callgrind-out-file={os.path.join(directory, 'out')}",
             sys.executable, os.path.abspath(__file__), "--rounds", str(rounds)],
            env=environment, capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--rounds":
        program(int(sys.argv[2]))
        return
    import minigrad
    print(f"minigrad: {os.path.dirname(minigrad.__file__)}")
    per_round = (count(ROUNDS) - count(0)) / ROUNDS
    print(f"{per_round / 1e6:.3f} million instructions per round of small ops")


if __name__ == "__main__":
    main()
