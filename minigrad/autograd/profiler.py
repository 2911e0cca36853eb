"""``torch.autograd.profiler``: where the time goes, op by op and node by node.

Inside ``with profile() as prof:`` every operation minigrad runs is timed, under the
name PyTorch's CPU profile gives it: ``x * y`` is ``aten::mul``, ``x @ w`` ``aten::mm``;
in backward, each node's step is ``autograd::engine::evaluate_function: MulBackward0``
around ``MulBackward0`` (a leaf's ``torch::autograd::AccumulateGrad``). Your own
blocks are named with ``record_function("name")``. The times are measured
(``time.perf_counter_ns``), each event's self time is its time minus its children's,
and ``prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10)``
prints them in PyTorch's columns:

    Name | Self CPU % | Self CPU | CPU total % | CPU total | CPU time avg | # of Calls

(with ``record_shapes=True`` and ``key_averages(group_by_input_shape=True)``, one row
per name and input shapes, and an "Input Shapes" column).

What differs from PyTorch's table: minigrad records the op it runs, once. PyTorch also
lists the composite ops around it (``aten::matmul`` around ``aten::mm``,
``aten::linear``) and the internal ones it calls (``aten::empty``, ``aten::to``,
``aten::fill_``, ``aten::ones_like`` for the seed gradient); tensor factories
are not recorded (a random one under the op that fills it: ``randn`` as
``aten::normal``); the timings are minigrad's own (NumPy and
Python), so its percentages tell where minigrad spends its time, not PyTorch.

The walks and ``Node.apply`` call in here only while a profile is running: with none,
each reads one flag (``enabled``).
"""

from __future__ import annotations

import json
import re
import time
from contextlib import ContextDecorator

from .. import errors

__all__ = ["profile", "record_function", "emit_nvtx", "EventList", "FunctionEvent",
           "FunctionEventAvg"]

enabled = False  # a profile is running (read by record.py and both walks)
_current = None  # the running profile


# ---- what the walks and Node.apply call while a profile runs ----------------------

def aten_name(node_class) -> str:
    """``MulBackward0`` -> ``aten::mul``, ``LinalgVectorNormBackward0`` ->
    ``aten::linalg_vector_norm``: the forward op a node class records."""
    op = re.sub(r"Backward\d*$", "", node_class.__name__)
    return "aten::" + re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower()


def node_name(node) -> str:
    name = node.name()
    return "torch::autograd::AccumulateGrad" if name == "AccumulateGrad" else name


def run_op(apply, node_class, inputs, *args):
    """``apply(node_class, inputs, *args, profiled=True)`` (an op's forward and its
    recording into the graph) as one event."""
    shapes = _shapes(inputs) if _current.record_shapes else None
    with _Event(_current, aten_name(node_class), shapes):
        return apply(node_class, inputs, *args, profiled=True)


class node_step:  # noqa: N801 (used as ``with profiler.node_step(node, received):``)
    """Around one node's step of a walk: PyTorch's two events for it, the inner one with
    the shapes of the gradients the node received (``received``: the gradients, or the
    reference walk's (from, output_nr, gradient) arrivals)."""

    __slots__ = ("outer", "inner")

    def __init__(self, node, received=()) -> None:
        self.outer = self.inner = None
        if enabled:
            name = node_name(node)
            shapes = None
            if _current.record_shapes:
                grads = [r[2] if isinstance(r, tuple) else r for r in received]
                shapes = [list(g.shape) for g in grads if g is not None]
            self.outer = _Event(_current, f"autograd::engine::evaluate_function: {name}",
                                _no_shapes())
            self.inner = _Event(_current, name, shapes)

    def __enter__(self) -> None:
        if self.outer is not None:
            self.outer.__enter__()
            self.inner.__enter__()

    def __exit__(self, *exc) -> None:
        if self.outer is not None:
            self.inner.__exit__(*exc)
            self.outer.__exit__(*exc)


def _no_shapes():
    """An event that is not an op: [] with ``record_shapes``, as PyTorch lists it."""
    return [] if _current.record_shapes else None


def _shapes(inputs) -> list:
    return [list(x.shape) if hasattr(x, "shape") and hasattr(x, "_data") else []
            for x in inputs]


# ---- events ------------------------------------------------------------------------

class FunctionEvent:
    """One timed call: its name, start and end (µs since the profile began), input
    shapes, and the events that ran inside it."""

    def __init__(self, name: str, start: float, input_shapes=None) -> None:
        self.name = self.key = name
        self.start_us = start
        self.end_us = start
        self.input_shapes = input_shapes
        self.cpu_children: list = []
        self.cpu_parent = None
        self.count = 1

    @property
    def cpu_time_total(self) -> float:
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)

    def __repr__(self) -> str:
        return (f"<FunctionEvent name={self.name} cpu_time={self.cpu_time_total:.3f}us "
                f"self_cpu_time={self.self_cpu_time_total:.3f}us>")


class _Event:
    """A context that opens a FunctionEvent, nested in the one open around it."""

    __slots__ = ("profile", "event")

    def __init__(self, profile, name: str, shapes) -> None:
        self.profile = profile
        self.event = FunctionEvent(name, 0.0, shapes)

    def __enter__(self):
        stack = self.profile._open
        event = self.event
        if stack:
            event.cpu_parent = stack[-1]
            stack[-1].cpu_children.append(event)
        stack.append(event)
        self.profile._events.append(event)
        event.start_us = self.profile._now()
        return self

    def __exit__(self, *exc) -> None:
        self.event.end_us = self.profile._now()
        stack = self.profile._open
        if stack and stack[-1] is self.event:
            stack.pop()


class FunctionEventAvg:
    """The events of one name (and input shapes): how many, their total and self time."""

    def __init__(self, key: str, input_shapes=None) -> None:
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_parent = None
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0

    def add(self, event) -> "FunctionEventAvg":
        if not self.count:
            self.cpu_parent = getattr(event, "cpu_parent", None)
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        return self

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={_time(self.self_cpu_time_total)} "
                f"cpu_time={_time(self.cpu_time)} input_shapes={self.input_shapes}>")


class EventList(list):
    """A list of events (or of averages), with PyTorch's ``table``."""

    def table(self, sort_by=None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80,
              header=None, top_level_events_only: bool = False, time_unit=None) -> str:
        return _table(self, sort_by, row_limit, max_name_column_width,
                      max_shapes_column_width, header, top_level_events_only, time_unit)

    def key_averages(self, group_by_input_shape: bool = False) -> "EventList":
        groups: dict = {}
        for event in self:
            shapes = str(event.input_shapes) if group_by_input_shape else None
            key = (event.key, shapes)
            if key not in groups:
                groups[key] = FunctionEventAvg(
                    event.key, event.input_shapes if group_by_input_shape else None)
            groups[key].add(event)
        return EventList(groups.values())

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg("Total")
        for event in self:
            total.add(event)
        return total

    def __str__(self) -> str:
        return self.table()


# ---- the table, in PyTorch's layout --------------------------------------------------

def _time(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


def _in_unit(us: float, unit) -> str:
    return {"s": f"{us / 1e6:.3f}s", "ms": f"{us / 1e3:.3f}ms",
            "us": f"{us:.3f}us"}.get(unit) or _time(us)


def _share(us: float, total: float) -> str:
    return "NaN" if total == 0 else f"{us * 100.0 / total:.2f}%"


def _table(events, sort_by, row_limit, name_width_limit, shapes_width_limit, header,
           top_level_only, time_unit) -> str:
    if not events:
        return ""
    events = list(events)
    if sort_by is not None:
        events.sort(key=lambda e: getattr(e, sort_by), reverse=True)
    with_shapes = any(e.input_shapes for e in events)
    name_width = min(max(len(e.key) for e in events) + 4, name_width_limit)
    shapes_width = min(max(len(str(e.input_shapes)) for e in events) + 4, shapes_width_limit)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
               "# of Calls"]
    widths = [name_width] + [12] * 6
    if with_shapes:
        headers.append("Input Shapes")
        widths.append(shapes_width)
    row = "".join("{:>" + str(w) + "}  " for w in widths)
    rule = "".join("-" * w + "  " for w in widths)
    line_length = sum(w + 2 for w in widths) - 2
    total = sum(e.self_cpu_time_total for e in events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [rule, row.format(*headers), rule]
    shown = 0
    for event in events:
        if shown == row_limit:
            break
        if top_level_only and getattr(event, "cpu_parent", None) is not None:
            continue
        shown += 1
        name = event.key
        if len(name) >= name_width_limit - 3:
            name = name[:name_width_limit - 3] + "..."
        values = [name, _share(event.self_cpu_time_total, total),
                  _in_unit(event.self_cpu_time_total, time_unit),
                  _share(event.cpu_time_total, total),
                  _in_unit(event.cpu_time_total, time_unit),
                  _in_unit(event.cpu_time, time_unit) if hasattr(event, "cpu_time")
                  else _in_unit(event.cpu_time_total, time_unit), event.count]
        if with_shapes:
            values.append(str(event.input_shapes)[:shapes_width])
        lines.append(row.format(*values))
    lines += [rule, f"Self CPU time total: {_in_unit(total, time_unit)}"]
    return "".join(line + "\n" for line in lines)


# ---- the public context managers -----------------------------------------------------

class profile:  # noqa: N801 (PyTorch's name)
    """``with torch.autograd.profiler.profile() as prof:`` times every op and backward
    node run inside; then ``prof.key_averages().table(...)``.

    >>> import minigrad as torch
    >>> x = torch.ones(3, requires_grad=True)
    >>> with torch.autograd.profiler.profile() as prof:
    ...     (x * 2).sum().backward()
    >>> sorted({e.key for e in prof.function_events})  # doctest: +NORMALIZE_WHITESPACE
    ['MulBackward0', 'SumBackward0', 'aten::mul', 'aten::sum',
     'autograd::engine::evaluate_function: MulBackward0',
     'autograd::engine::evaluate_function: SumBackward0',
     'autograd::engine::evaluate_function: torch::autograd::AccumulateGrad',
     'torch::autograd::AccumulateGrad']
    """

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device=None,
                 record_shapes: bool = False, with_flops: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_modules: bool = False, use_kineto: bool = False, use_cpu: bool = True,
                 experimental_config=None, acc_events: bool = False,
                 custom_trace_id_callback=None) -> None:
        for option, value in (("profile_memory", profile_memory), ("with_flops", with_flops),
                              ("with_stack", with_stack), ("with_modules", with_modules)):
            if value:
                raise NotImplementedError(
                    f"minigrad's profiler measures time only: {option}=True is not "
                    f"supported (leave it out to see the time each op takes)")
        self.enabled = enabled
        self.record_shapes = record_shapes
        self._events: list = []
        self._open: list = []
        self._origin = 0
        self.entered = False
        self.function_events = None

    def _now(self) -> float:
        return (time.perf_counter_ns() - self._origin) / 1000.0

    def __enter__(self) -> "profile | None":
        global enabled, _current
        if not self.enabled:  # (``with profile(enabled=False) as prof``: prof is None)
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        if _current is not None:
            raise RuntimeError("Profiler is already enabled on this thread")
        self.entered = True
        self._previous = (enabled, _current)
        self._origin = time.perf_counter_ns()
        enabled, _current = True, self
        return self

    def __exit__(self, *exc) -> None:
        global enabled, _current
        if not self.enabled:
            return
        enabled, _current = self._previous
        self.function_events = EventList(sorted(self._events, key=lambda e: e.start_us))

    def _check_finished(self) -> None:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def events(self) -> EventList:
        self._check_finished()
        return self.function_events

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0,
                     group_by_overload_name: bool = False) -> EventList:
        self._check_finished()
        return self.function_events.key_averages(group_by_input_shape)

    def total_average(self) -> FunctionEventAvg:
        self._check_finished()
        return self.function_events.total_average()

    def table(self, sort_by=None, row_limit: int = 100, **options) -> str:
        self._check_finished()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit, **options)

    @property
    def self_cpu_time_total(self) -> float:
        self._check_finished()
        return sum(e.self_cpu_time_total for e in self.function_events)

    def export_chrome_trace(self, path) -> None:
        """Write the events as a Chrome trace (open it in chrome://tracing or Perfetto)."""
        self._check_finished()
        trace = [{"name": e.name, "ph": "X", "ts": e.start_us, "dur": e.cpu_time_total,
                  "pid": 0, "tid": 0, "cat": "cpu_op",
                  "args": {} if e.input_shapes is None else {"Input Dims": e.input_shapes}}
                 for e in self.function_events]
        with open(path, "w") as file:
            json.dump({"traceEvents": trace}, file)

    def __str__(self) -> str:
        self._check_finished()
        return str(self.function_events)


class record_function(ContextDecorator):  # noqa: N801 (PyTorch's name)
    """A block (or function, as a decorator) of your own, timed as one event
    named ``name``; the ops it runs are its children."""

    def __init__(self, name: str, args=None) -> None:
        self.name = name
        self.args = args
        self._event = None

    def __enter__(self) -> "record_function":
        if enabled:
            self._event = _Event(_current, self.name, _no_shapes())
            self._event.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._event is not None:
            self._event.__exit__(*exc)
            self._event = None


class emit_nvtx:  # noqa: N801 (PyTorch's name)
    """NVTX ranges for NVIDIA's profilers, a CUDA feature: ``emit_nvtx(enabled=False)``
    (as PyTorch's performance tuning guide writes it, to keep it off) does nothing;
    switched on, it waits for CUDA first, which minigrad lacks (PyTorch's error on a
    CPU-only build)."""

    def __init__(self, enabled: bool = True, record_shapes: bool = False) -> None:
        self.enabled, self.record_shapes, self.entered = enabled, record_shapes, False

    def __enter__(self) -> None:
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("NVTX annotation context manager is not reentrant")
        self.entered = True
        raise AssertionError(errors.not_compiled("cuda"))

    def __exit__(self, *exc) -> bool | None:
        return None if not self.enabled else False

