"""Shared test settings: hypothesis profiles (CI runs the same examples every time), and
PyTorch (the oracle) on one thread.

One thread: the tests run PyTorch on small tensors, and `make test` runs two workers on a
2-core machine often shared with other jobs. With torch's default (a thread per core) each
tiny op waits for a busy core: lesson 9's training under torch took 27 s instead of 2.
Kernels the tests start (nbval, nbclient, the grader) inherit OMP_NUM_THREADS. Set here,
for every test directory alike, so a file gives the same numbers alone or in the full suite.
"""

import contextlib
import os
import signal

os.environ["OMP_NUM_THREADS"] = "1"

try:
    import torch  # noqa: E402  (after the variable, so this process reads it too)
except ImportError:  # the oracle is missing: the tests that need it say so themselves
    pass
else:
    torch.set_num_threads(1)

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(params=["ignored", "blocked"])
def inherited_sigint(request):
    """A context manager under which this process has SIGINT as a child would inherit it
    from a job started in the background by a script (ignored) or from a library's thread
    (blocked). Both are put back after."""

    @contextlib.contextmanager
    def inherited():
        if request.param == "ignored":
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                yield
            finally:
                signal.signal(signal.SIGINT, previous)
        else:
            previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                yield
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    return inherited
