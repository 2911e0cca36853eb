"""``torch.profiler``: the profiler the PyTorch recipes use, on minigrad's CPU events.

    from torch.profiler import profile, record_function, ProfilerActivity

    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("model_inference"):
            model(inputs)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

The events, names, timings and table are ``torch.autograd.profiler``'s (see
``minigrad/autograd/profiler.py``: what it records and how it differs from PyTorch's).
Only the CPU is profiled; memory, FLOPs, stacks, schedules and trace handlers are not
in minigrad and raise a clear error.
"""

from __future__ import annotations

import enum

from .autograd import profiler as _autograd_profiler
from .autograd.profiler import record_function

__all__ = ["profile", "record_function", "ProfilerActivity"]


class ProfilerActivity(enum.Enum):
    """What to profile: minigrad runs on the CPU only (``CUDA`` records nothing more)."""

    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


class profile(_autograd_profiler.profile):  # noqa: N801 (PyTorch's name)
    """``torch.profiler.profile``: ``torch.autograd.profiler.profile`` with the newer
    keyword arguments, and ``start()``/``stop()``/``step()``."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_flops: bool = False, with_modules: bool = False,
                 experimental_config=None, execution_trace_observer=None,
                 acc_events: bool = False, use_cuda=None, custom_trace_id_callback=None) -> None:
        for option, value in (("schedule", schedule), ("on_trace_ready", on_trace_ready),
                              ("execution_trace_observer", execution_trace_observer)):
            if value is not None:
                raise NotImplementedError(
                    f"minigrad's profiler records one run from start to stop: {option}= is "
                    "not supported (leave it out, then print prof.key_averages().table())")
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory,
                         with_stack=with_stack, with_flops=with_flops,
                         with_modules=with_modules)
        self.activities = set(activities) if activities is not None else {ProfilerActivity.CPU}

    def start(self) -> None:
        self.__enter__()

    def stop(self) -> None:
        self.__exit__(None, None, None)

    def step(self) -> None:
        """(A step of a schedule; with none, the whole run is one recording.)"""
