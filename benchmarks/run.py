"""The benchmark suite: ``make bench`` (or ``python benchmarks/run.py``;
``python benchmarks/run.py "MLP step" "1000x1000 reduce"`` runs only those).

Runs the same workloads with minigrad and with PyTorch (and with MyGrad, HIPS
autograd and micrograd when they are installed) and prints, for each, the
best time of several runs (the figure least disturbed by whatever else the
machine is doing, as ``timeit`` advises) and the ratio minigrad / PyTorch,
with the machine it ran on. Timings live here, never in unit tests.

How it keeps the comparison fair (in both directions):

* Each library runs in a process of its own (``run.py --worker NAME``), with
  its default threads: PyTorch ``torch.get_num_threads()`` (one per core) for
  its kernels; NumPy's elementwise loops single-threaded and its BLAS
  (OpenBLAS) one thread per core. Nothing of one library (its thread pools,
  its allocator's free lists, its caches) lives in the process of another.
* The libraries still take turns round after round, so a burst of load
  elsewhere on a shared machine hits them alike; each workload's best round
  is kept.
* Between turns the harness waits until the process that ran last is idle
  (its CPU time stops growing; at most 1 s). Thread pools keep their threads
  spinning for a while after a parallel region, to answer the next one
  quickly: OpenBLAS's about 2^28 cycles (~0.1 s), PyTorch's OpenMP threads a
  little. When the libraries shared one process and ran back to back, those
  spinning threads took a core from whichever library ran next (on this
  2-core machine minigrad's MLP step measured 1.7 / 2.9 ms in the bench and
  0.74 / 1.5 ms alone). A spinning pool is each library's own choice, and it
  still counts inside that library's own turn; it no longer counts against
  the other.
* Thread settings are the libraries' defaults, not tuned for either (no
  ``OMP_WAIT_POLICY``, no thread counts forced), so each figure is what a
  user of that library gets. Where PyTorch is ahead because it runs an
  elementwise kernel on every core while NumPy's runs on one (the big-tensor
  workloads), that is a real difference and stays in the figure; minigrad
  splits its big exp, log, sin, cos, tanh, sigmoid, powers, softmax family
  and losses the same way (``minigrad.get_num_threads()``; its ``*``, ``+``
  and the products of the backwards are bound by memory and stay on one
  thread, where they measured faster).
* On a machine with more runnable threads than cores (load average above
  the core count) no best-of-N is fair: a thread that waits for a core holds
  up the others, PyTorch's most (its threads wait for each other at every
  kernel). The run then says so at the end.

Workloads (forward + backward unless said otherwise):
  small ops       50 layers of (h * w + 1).tanh() on 4x4 tensors: µs per op,
                  forward and backward apart
  deep chain      20,000 multiplications in a row, then backward: µs per op
  MLP step        784-256-10 MLP, batch 64: forward, cross entropy, backward, SGD step
  1000x1000       tanh(x * w) + x, summed, then backward (memory-bound)
  big: ...        big-tensor workloads of other ops, written independently of the
                  kernels (issue 34): exp, log and sin, sigmoid, log_softmax, softmax
                  and cross-entropy on 1000x1000, cross-entropy and exp on 4096x4096;
                  and two written after the kernels were tuned: cos, sqrt, a power
                  and softmax along dim 0; BCE with logits
                  (1000x1000)
  op ...          one op on a 1000x1000 float32 (and float64) tensor, summed, then
                  backward: exp, log, sin, cos, sqrt, ** 2.5, tanh, sigmoid, softmax,
                  softmax along dim 0, log_softmax, logsumexp, cross_entropy,
                  BCE with logits
  double backward 20 layers of (h * w + 1).tanh() on 4x4: d/dx with create_graph=True,
                  then the backward of (g * g).sum()
  x ** 3          2,000 float32 values, forward only
  render          draw_graph + render_svg of graphs with about 50 and 500 boxes
  stepper         one frame change of BackwardStepper (no re-layout); building it on
                  a backward of 15,000 steps (issue 17), and its widget state in bytes
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
import types

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

TARGETS = {  # minigrad time / PyTorch time (issues 11 and 18; big tensors: issue 34)
    "small ops": 1.3, "deep chain": 1.3, "MLP step": 1.2, "1000x1000 reduce": 1.1,
    "double backward": 2.0, "x ** 3 (2,000)": 1.5,
}
BIG_TARGET = 1.0  # (every "big: ..." and "op ..." workload)
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))


class Timer:
    """Collects the best time of each labelled phase over several rounds."""

    def __init__(self) -> None:
        self.best: dict = {}

    def phase(self, label: str, seconds: float) -> None:
        self.best[label] = min(seconds, self.best.get(label, float("inf")))


def run_rounds(workload: str, libraries, rounds: int = ROUNDS) -> dict:
    """Run ``workload`` with each library once per round, in turn, each in its
    own worker process (after a warm-up run: imports, caches); returns
    library name -> its best phases."""
    best = {name: {} for name in libraries}
    for name in libraries:
        _turn(name, workload)
    for _ in range(rounds):
        for name in libraries:
            for label, seconds in _turn(name, workload).items():
                best[name][label] = min(seconds, best[name].get(label, float("inf")))
    return best


# On a machine shared with other work, BENCH_THREADS=1 BENCH_CLOCK=cpu compares what
# one core's work costs: both libraries on one thread, each phase timed by the CPU
# time of that thread (time spent waiting for a core is not counted). It says nothing
# of how the libraries use several cores: that needs an idle machine and the wall clock.
THREADS = int(os.environ.get("BENCH_THREADS", "0"))  # (0: each library's default)
CPU_CLOCK = os.environ.get("BENCH_CLOCK", "wall") == "cpu"
if CPU_CLOCK and THREADS != 1:
    raise SystemExit("BENCH_CLOCK=cpu times one thread: use it with BENCH_THREADS=1")


def clock() -> float:
    return time.thread_time() if CPU_CLOCK else time.perf_counter()


# ---- the workloads, written once for any torch-like library -------------------

SMALL_LAYERS = 50
SMALL_OPS_PER_RUN = SMALL_LAYERS * 3 + 1  # mul, add, tanh per layer, and the sum


def small_ops(lib, timer, repeat=30):
    """Each run takes about 2 ms, so a round makes ``repeat`` of them and keeps
    the best (a run that a scheduler tick or another process hit is dropped,
    as timeit advises for short statements); freeing the previous run's graph
    falls in the next run's forward, for every library alike."""
    x = lib.tensor(np.full((4, 4), 0.5, np.float32), requires_grad=True)
    w = lib.tensor(np.full((4, 4), 0.9, np.float32), requires_grad=True)
    for _ in range(repeat):
        start = clock()
        h = x
        for _ in range(SMALL_LAYERS):
            h = (h * w + 1).tanh()
        out = h.sum()
        middle = clock()
        out.backward()
        end = clock()
        timer.phase("forward", (middle - start) / SMALL_OPS_PER_RUN)
        timer.phase("backward", (end - middle) / SMALL_OPS_PER_RUN)


CHAIN = 20_000


def deep_chain(lib, timer):
    x = lib.tensor(np.ones(4, np.float32), requires_grad=True)
    start = clock()
    y = x
    for _ in range(CHAIN):
        y = y * 1.0001
    out = y.sum()
    middle = clock()
    out.backward()
    end = clock()
    timer.phase("forward", (middle - start) / CHAIN)
    timer.phase("backward", (end - middle) / CHAIN)


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

    def step(timer, repeat=5):
        for _ in range(repeat):  # (best of repeat, as small_ops)
            start = clock()
            hidden = F.relu(F.linear(data["x"], data["w1"], data["b1"]))
            loss = F.cross_entropy(F.linear(hidden, data["w2"], data["b2"]), data["y"])
            middle = clock()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            end = clock()
            timer.phase("forward", middle - start)
            timer.phase("backward", end - middle)
    return step


def big_setup(lib):
    rng = np.random.default_rng(1)
    x = lib.tensor(rng.standard_normal((1000, 1000)).astype(np.float32), requires_grad=True)
    w = lib.tensor(rng.standard_normal((1000, 1000)).astype(np.float32), requires_grad=True)

    def run(timer):
        x.grad = w.grad = None
        forward_backward(timer, lambda: ((x * w).tanh() + x).sum())
    return run


def forward_backward(timer, forward) -> None:
    """Time ``forward()``, which returns a scalar loss, then its backward, as the
    phases "forward" and "backward"."""
    start = clock()
    out = forward()
    middle = clock()
    out.backward()
    end = clock()
    timer.phase("forward", middle - start)
    timer.phase("backward", end - middle)


def big_tensors(program, shape=(1000, 1000), dtype="float32"):
    """A workload on big tensors: ``program(lib, v)`` returns a scalar loss of the
    leaves ``v.a`` and ``v.b`` (normal values; ``v.p``: positive values), with
    ``v.t`` (a class index per row) and ``v.y`` (targets 0 or 1), then backward.
    Each run starts with no ``.grad``."""
    def make(lib):
        rng = np.random.default_rng(2)
        normal = [rng.standard_normal(shape).astype(dtype) for _ in range(2)]
        v = types.SimpleNamespace(
            a=lib.tensor(normal[0], requires_grad=True),
            b=lib.tensor(normal[1], requires_grad=True),
            p=lib.tensor((np.abs(rng.standard_normal(shape)) + 0.5).astype(dtype),
                         requires_grad=True),
            t=lib.tensor(rng.integers(0, shape[-1], shape[0])),
            y=lib.tensor((rng.random(shape) > 0.5).astype(dtype)))

        def run(timer):
            v.a.grad = v.b.grad = v.p.grad = None
            forward_backward(timer, lambda: program(lib, v))
        return run
    return make


# The independent workloads (each mixes ops), and a big vocabulary's loss.
BIG_MIXES = {
    "big: exp(A)*A, sum(1), mean": lambda lib, v: (v.a.exp() * v.a).sum(dim=1).mean(),
    "big: sigmoid(A*B).sum()": lambda lib, v: lib.sigmoid(v.a * v.b).sum(),
    "big: log_softmax(A).mean()": lambda lib, v: lib.log_softmax(v.a, dim=1).mean(),
    "big: log(A*A+1)*sin(A)": lambda lib, v: ((v.a * v.a + 1).log() * v.a.sin()).sum(),
    "big: softmax(A)*B + CE(A)": lambda lib, v: (
        (lib.softmax(v.a, dim=1) * v.b).sum() + lib.nn.functional.cross_entropy(v.a, v.t)),
    # (from ops the workloads above do not use, written after the kernels were tuned)
    "big: cos(A)*sqrt(P) + P**1.5, dim 0": lambda lib, v: (
        (v.a.cos() * v.p.sqrt() + v.p ** 1.5).softmax(0) * v.b).sum(),
    "big: BCE-with-logits(A*B, Y)": lambda lib, v: (
        lib.nn.functional.binary_cross_entropy_with_logits(v.a * v.b, v.y)),
}
BIG_4096 = {
    "big: 4096x4096 CE + exp": lambda lib, v: (
        lib.nn.functional.cross_entropy(v.a, v.t) + (v.a.exp() * v.b).mean()),
}
# One op each: f(A) summed, then backward.
BIG_OPS = {
    "exp": lambda lib, v: v.a.exp().sum(),
    "log": lambda lib, v: v.p.log().sum(),
    "sin": lambda lib, v: v.a.sin().sum(),
    "cos": lambda lib, v: v.a.cos().sum(),
    "sqrt": lambda lib, v: v.p.sqrt().sum(),
    "** 2.5": lambda lib, v: (v.p ** 2.5).sum(),
    "tanh": lambda lib, v: v.a.tanh().sum(),
    "sigmoid": lambda lib, v: v.a.sigmoid().sum(),
    "softmax": lambda lib, v: (lib.softmax(v.a, dim=1) * v.b).sum(),
    "log_softmax": lambda lib, v: lib.log_softmax(v.a, dim=1).sum(),
    "softmax, dim 0": lambda lib, v: (lib.softmax(v.a, dim=0) * v.b).sum(),
    "logsumexp": lambda lib, v: v.a.logsumexp(1).sum(),
    "cross_entropy": lambda lib, v: lib.nn.functional.cross_entropy(v.a, v.t),
    "BCE with logits": lambda lib, v: lib.nn.functional.binary_cross_entropy_with_logits(
        v.a, v.y),
}


DOUBLE_LAYERS = 20


def double_backward(lib, timer, repeat=10):
    x = lib.tensor(np.full((4, 4), 0.5, np.float32), requires_grad=True)
    w = lib.tensor(np.full((4, 4), 0.9, np.float32), requires_grad=True)
    for _ in range(repeat):  # (best of repeat, as small_ops)
        start = clock()
        h = x
        for _ in range(DOUBLE_LAYERS):
            h = (h * w + 1).tanh()
        g, = lib.autograd.grad(h.sum(), x, create_graph=True)
        out = (g * g).sum()
        middle = clock()
        out.backward()
        end = clock()
        timer.phase("forward", middle - start)
        timer.phase("backward", end - middle)


def cube(lib, timer, repeat=200):
    x = lib.tensor(np.linspace(-2, 2, 2000, dtype=np.float32))
    start = clock()
    for _ in range(repeat):
        x ** 3
    timer.phase("forward", (clock() - start) / repeat)


# ---- peers that are not torch-like -------------------------------------------

def micrograd_small_ops(timer, repeat=30):
    """The same layer on one scalar (micrograd has scalars only, and no tanh on
    all versions: relu instead). Best of ``repeat`` runs, as ``small_ops``."""
    from micrograd.engine import Value

    for _ in range(repeat):
        start = clock()
        x, w = Value(0.5), Value(0.9)
        h = x
        for _ in range(SMALL_LAYERS):
            h = (h * w + 1).relu()
        middle = clock()
        h.backward()
        end = clock()
        timer.phase("forward", (middle - start) / SMALL_OPS_PER_RUN)
        timer.phase("backward", (end - middle) / SMALL_OPS_PER_RUN)


def mygrad_small_ops(timer, repeat=30):
    import mygrad

    x = mygrad.tensor(np.full((4, 4), 0.5, np.float32))
    w = mygrad.tensor(np.full((4, 4), 0.9, np.float32))
    for _ in range(repeat):  # (best of repeat, as small_ops)
        start = clock()
        h = x
        for _ in range(SMALL_LAYERS):
            h = mygrad.tanh(h * w + 1)
        out = mygrad.sum(h)
        middle = clock()
        out.backward()
        end = clock()
        timer.phase("forward", (middle - start) / SMALL_OPS_PER_RUN)
        timer.phase("backward", (end - middle) / SMALL_OPS_PER_RUN)


def mygrad_deep_chain(timer):
    import mygrad

    x = mygrad.tensor(np.ones(4, np.float32))
    start = clock()
    y = x
    for _ in range(CHAIN):
        y = y * 1.0001
    out = mygrad.sum(y)
    middle = clock()
    out.backward()
    end = clock()
    timer.phase("forward", (middle - start) / CHAIN)
    timer.phase("backward", (end - middle) / CHAIN)


def mygrad_big_setup():
    import mygrad

    rng = np.random.default_rng(1)
    x = mygrad.tensor(rng.standard_normal((1000, 1000)).astype(np.float32))
    w = mygrad.tensor(rng.standard_normal((1000, 1000)).astype(np.float32))

    def run(timer):
        start = clock()
        out = mygrad.sum(mygrad.tanh(x * w) + x)
        middle = clock()
        out.backward()
        end = clock()
        timer.phase("forward", middle - start)
        timer.phase("backward", end - middle)
    return run


# HIPS autograd differentiates a Python function: forward and backward run
# inside one call, so it reports the total only.

def hips_small_ops(timer, repeat=30):
    import autograd
    import autograd.numpy as anp

    def f(params):
        x, w = params
        h = x
        for _ in range(SMALL_LAYERS):
            h = anp.tanh(h * w + 1)
        return anp.sum(h)
    params = (np.full((4, 4), 0.5, np.float32), np.full((4, 4), 0.9, np.float32))
    for _ in range(repeat):  # (best of repeat, as small_ops)
        start = clock()
        autograd.grad(f)(params)
        timer.phase("total", (clock() - start) / SMALL_OPS_PER_RUN)


def hips_deep_chain(timer):
    import autograd
    import autograd.numpy as anp

    def f(x):
        y = x
        for _ in range(CHAIN):
            y = y * 1.0001
        return anp.sum(y)
    start = clock()
    autograd.grad(f)(np.ones(4, np.float32))
    timer.phase("total", (clock() - start) / CHAIN)


def hips_mlp_setup():
    import autograd
    import autograd.numpy as anp

    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 784)).astype(np.float32)
    y = rng.integers(0, 10, 64)
    params = [(rng.standard_normal((256, 784)) * 0.03).astype(np.float32),
              np.zeros(256, np.float32),
              (rng.standard_normal((10, 256)) * 0.06).astype(np.float32),
              np.zeros(10, np.float32)]

    def loss(params):
        w1, b1, w2, b2 = params
        hidden = anp.maximum(anp.dot(x, w1.T) + b1, 0)
        logits = anp.dot(hidden, w2.T) + b2
        shifted = logits - anp.max(logits, axis=1, keepdims=True)
        log_probs = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
        return -anp.mean(log_probs[np.arange(64), y])
    gradient = autograd.grad(loss)

    def step(timer, repeat=5):
        for _ in range(repeat):  # (best of repeat, as mlp_setup's)
            start = clock()
            grads = gradient(params)
            for p, g in zip(params, grads):
                p -= 0.01 * g
            timer.phase("total", clock() - start)
    return step


def hips_big_setup():
    import autograd
    import autograd.numpy as anp

    rng = np.random.default_rng(1)
    x = rng.standard_normal((1000, 1000)).astype(np.float32)
    w = rng.standard_normal((1000, 1000)).astype(np.float32)
    gradient = autograd.grad(lambda params: anp.sum(anp.tanh(params[0] * params[1]) + params[0]))

    def run(timer):
        start = clock()
        gradient((x, w))
        timer.phase("total", clock() - start)
    return run


def hips_double_backward(timer, repeat=10):
    import autograd
    import autograd.numpy as anp

    def f(x, w):
        h = x
        for _ in range(DOUBLE_LAYERS):
            h = anp.tanh(h * w + 1)
        return anp.sum(h)
    first = autograd.grad(f)
    w = np.full((4, 4), 0.9, np.float32)
    for _ in range(repeat):  # (best of repeat, as double_backward)
        start = clock()
        autograd.grad(lambda x: anp.sum(first(x, w) ** 2))(np.full((4, 4), 0.5, np.float32))
        timer.phase("total", clock() - start)


# ---- which function runs which workload, per library --------------------------

def _torch_like(name: str):
    if name == "minigrad":
        minigrad = importlib.import_module("minigrad")
        if THREADS:
            minigrad.set_num_threads(THREADS)
        return minigrad
    torch = importlib.import_module("torch")
    torch.set_num_threads(THREADS or os.cpu_count() or 1)  # (its default is one per core too)
    return torch


def _with(fn):
    """A torch-like workload ``fn(lib, timer)`` for the library named."""
    return lambda name: (lambda timer: fn(_torch_like(name), timer))


def _setup(make):
    """A workload whose inputs are made once: ``make(lib)`` returns ``run(timer)``."""
    return lambda name: make(_torch_like(name))


def _peer(make):
    return lambda name: make()


# workload -> (unit, {library: factory(library name) -> run(timer)}, required module per peer)
WORKLOADS = {
    "small ops": ("per op", {
        "minigrad": _with(small_ops), "PyTorch": _with(small_ops),
        "MyGrad": _peer(lambda: mygrad_small_ops), "HIPS autograd": _peer(lambda: hips_small_ops),
        "micrograd (scalars)": _peer(lambda: micrograd_small_ops)}),
    "deep chain": ("per op", {
        "minigrad": _with(deep_chain), "PyTorch": _with(deep_chain),
        "MyGrad": _peer(lambda: mygrad_deep_chain), "HIPS autograd": _peer(lambda: hips_deep_chain)}),
    "MLP step": ("per step", {
        "minigrad": _setup(mlp_setup), "PyTorch": _setup(mlp_setup),
        "HIPS autograd": _peer(hips_mlp_setup)}),
    "1000x1000 reduce": ("per run", {
        "minigrad": _setup(big_setup), "PyTorch": _setup(big_setup),
        "MyGrad": _peer(mygrad_big_setup), "HIPS autograd": _peer(hips_big_setup)}),
    "double backward": ("per run", {
        "minigrad": _with(double_backward), "PyTorch": _with(double_backward),
        "HIPS autograd": _peer(lambda: hips_double_backward)}),
    "x ** 3 (2,000)": ("per op", {"minigrad": _with(cube), "PyTorch": _with(cube)}),
}
for _name, _program in BIG_MIXES.items():
    WORKLOADS[_name] = ("per run", {lib: _setup(big_tensors(_program))
                                    for lib in ("minigrad", "PyTorch")})
for _name, _program in BIG_4096.items():
    WORKLOADS[_name] = ("per run", {lib: _setup(big_tensors(_program, (4096, 4096)))
                                    for lib in ("minigrad", "PyTorch")})
for _dtype in ("float32", "float64"):
    for _name, _program in BIG_OPS.items():
        WORKLOADS[f"op {_name}, {_dtype}"] = (
            "per run", {lib: _setup(big_tensors(_program, dtype=_dtype))
                        for lib in ("minigrad", "PyTorch")})
del _name, _program, _dtype
MODULES = {"minigrad": "minigrad", "PyTorch": "torch", "MyGrad": "mygrad",
           "HIPS autograd": "autograd", "micrograd (scalars)": "micrograd"}
ROUNDS_OF = {"deep chain": max(3, ROUNDS // 2),
             **{name: max(3, ROUNDS // 2) for name in BIG_4096}}


# ---- one process per library ----------------------------------------------------

def serve(library: str) -> None:
    """The worker: reads workload names on stdin, runs each once with ``library``
    and answers its phases as one JSON line (anything else goes to stderr)."""
    answers, sys.stdout = sys.stdout, sys.stderr
    runs: dict = {}
    for line in sys.stdin:
        workload = line.strip()
        if workload == "threads":
            answer = {"threads": _threads(library)}
        else:
            if workload not in runs:
                runs[workload] = WORKLOADS[workload][1][library](library)
            timer = Timer()
            runs[workload](timer)
            answer = timer.best
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def _threads(library: str) -> str:
    if library == "PyTorch":
        return f"{_torch_like(library).get_num_threads()} threads"
    return (f"{_torch_like(library).get_num_threads()} threads for big exp, log, sin, cos, "
            "tanh, sigmoid, powers, softmaxes and losses, 1 for NumPy's other elementwise "
            "loops, its BLAS " + os.environ.get("OPENBLAS_NUM_THREADS", f"{os.cpu_count()}"))


_workers: dict = {}
_last: list = []  # the worker that ran last


def _worker(library: str) -> subprocess.Popen:
    if library not in _workers:
        environment = dict(os.environ)
        if THREADS:  # (BLAS and OpenMP pools too, read when the worker starts)
            environment.update(OMP_NUM_THREADS=str(THREADS), OPENBLAS_NUM_THREADS=str(THREADS))
        _workers[library] = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", library],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment)
    return _workers[library]


def _ask(library: str, request: str) -> dict:
    worker = _worker(library)
    worker.stdin.write(request + "\n")
    worker.stdin.flush()
    answer = worker.stdout.readline()
    if not answer:
        raise RuntimeError(f"the {library} worker stopped (see its error above)")
    return json.loads(answer)


def _turn(library: str, workload: str) -> dict:
    """One run of ``workload`` by ``library``'s worker, once the worker that
    ran before it has gone idle."""
    if _last and _last[0] is not _worker(library):
        _wait_idle(_last[0].pid)
    _last[:] = [_worker(library)]
    return _ask(library, workload)


def _wait_idle(pid: int, limit: float = 1.0) -> None:
    """Wait until process ``pid`` uses no CPU for 20 ms (its thread pools have
    stopped spinning), at most ``limit`` seconds."""
    def ticks():
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])  # utime + stime
        except (OSError, IndexError, ValueError):
            return None
    deadline = clock() + limit
    before = ticks()
    if before is None:  # (no /proc: a fixed pause longer than OpenBLAS's spin)
        time.sleep(0.2)
        return
    while clock() < deadline:
        time.sleep(0.02)
        now = ticks()
        if now == before:
            return
        before = now


def _close_workers() -> None:
    for worker in _workers.values():
        worker.stdin.close()
        worker.wait()
    _workers.clear()
    _last.clear()


# ---- reporting -----------------------------------------------------------------

def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"NumPy {np.__version__}, PyTorch {importlib.metadata.version('torch')}")


def _busy() -> str:
    """'' on an idle machine, else its load (more runnable threads than cores)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return ""
    cores = os.cpu_count() or 1
    return f"load average {load:.1f} on {cores} cores" if load > cores + 0.5 else ""


def installed(library: str) -> bool:
    return importlib.util.find_spec(MODULES[library]) is not None


def total(phases: dict) -> float:
    return phases["total"] if "total" in phases else sum(phases.values())


def main(only: list) -> None:
    """Every workload and the widget figures, or only the workloads named (a name,
    or the start of names: ``"op "`` runs every one-op workload)."""
    print(f"machine: {machine()}")
    print(f"threads: PyTorch {_ask('PyTorch', 'threads')['threads']}; minigrad "
          f"{_ask('minigrad', 'threads')['threads']}; each library in its own process")
    if THREADS:
        print(f"BENCH_THREADS={THREADS}: both libraries on {THREADS} thread(s)"
              + ("; timed by the CPU time of the thread (BENCH_CLOCK=cpu)" if CPU_CLOCK else ""))
    print(f"load average at the start: {_load()}\n")
    print(f"{'workload':<{NAME}} {'':<9} {'minigrad fwd / bwd = total':>30} "
          f"{'PyTorch fwd / bwd = total':>30} {'ratio':>6} {'target':>7}")
    try:
        for name, (unit, factories) in WORKLOADS.items():
            if only and not any(name.startswith(start) for start in only):
                continue
            libraries = [lib for lib in factories if installed(lib)]
            best = run_rounds(name, libraries, ROUNDS_OF.get(name, ROUNDS))
            ours, theirs = best.pop("minigrad"), best.pop("PyTorch")
            ratio = total(ours) / total(theirs)
            target = TARGETS.get(name, BIG_TARGET if name.startswith(("big:", "op ")) else None)
            verdict = "" if target is None else ("ok" if ratio <= target else "MISSED")
            print(f"{name:<{NAME}} {unit:<9} {_phases(ours):>30} {_phases(theirs):>30} "
                  f"{ratio:>6.2f} {'<= ' + str(target) if target else '':>7} {verdict}")
            for peer, phases in best.items():
                faster = "minigrad faster" if total(ours) < total(phases) else "minigrad SLOWER"
                print(f"{'':<{NAME}} {peer + ':':<20} {_phases(phases):>30} {'':<20}"
                      f"{total(phases) / total(theirs):>6.2f}   ({faster})")
    finally:
        _close_workers()
    print(f"\nload average at the end: {_load()}")
    busy = _busy()
    if busy:
        print(f"machine BUSY ({busy}): threads waited for a core, so these figures (and "
              "PyTorch's most, whose threads wait for each other) are not a fair comparison; "
              "run again on an idle machine")
    if not only:
        print()
        widget_figures()


NAME = 30  # (the width of the workload column)


def _load() -> str:
    try:
        return " / ".join(f"{load:.1f}" for load in os.getloadavg()) + " (1, 5, 15 min)"
    except OSError:
        return "unknown"


def _phases(phases: dict) -> str:
    if "total" in phases:
        return _fmt(phases["total"])
    if len(phases) == 1:
        return _fmt(next(iter(phases.values())))
    return f"{_fmt(phases['forward'])} / {_fmt(phases['backward'])} = {_fmt(total(phases))}"


def widget_figures() -> None:
    """Drawing and stepping (minigrad only; PyTorch has no such thing)."""
    from widgets import BackwardStepper, draw_graph, render_svg
    from drawing import big_stepper, layers
    from widgets.render import _run

    def timed(fn, repeat):
        best = float("inf")
        fn()
        for _ in range(repeat):
            start = clock()
            fn()
            best = min(best, clock() - start)
        return best

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
    import minigrad
    import torch
    for name, lib in (("minigrad", minigrad), ("PyTorch", torch)):
        seconds, cpu, state, stepper = big_stepper(lib)
        ok = seconds < 1 and state < 5e6
        print(f"{'stepper 15k steps':<20} {_fmt(seconds):>12}   {name}: issue 17's 3,000 branches "
              f"({_fmt(cpu)} CPU), {len(stepper.frames)} frames, {state / 1e6:.2f} MB widget "
              f"state; target < 1 s, < 5 MB: {'ok' if ok else 'MISSED'}")


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        serve(sys.argv[2])
    else:
        main(sys.argv[1:])
