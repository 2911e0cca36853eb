"""torch.autograd.profiler and torch.profiler against PyTorch 2.13: the table's layout
(header, rules, column widths, "Self CPU time total"), the names a program's events have
(aten ops, PyTorch's two events per backward node, AccumulateGrad, record_function),
their call counts, input shapes, sorting and errors; and honest timings: measured
(a sleep shows), each self time is the time minus the children's, the shares add up."""

import json
import re
import time

import numpy as np
import pytest
import torch

import minigrad as mg


DATA = np.random.default_rng(0).standard_normal((8, 3)).astype(np.float32)
W1 = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
W2 = np.random.default_rng(2).standard_normal((4, 1)).astype(np.float32)


def program(lib):
    """An MLP's training step on a small batch, with a block of one's own."""
    x = lib.tensor(DATA)
    w1 = lib.tensor(W1, requires_grad=True)
    w2 = lib.tensor(W2, requires_grad=True)
    with lib.autograd.profiler.record_function("forward"):
        hidden = (x @ w1).tanh()
        loss = ((hidden @ w2 - 1) ** 2).mean()
    loss.backward()
    return loss


def profiled(lib, **options):
    with lib.autograd.profiler.profile(**options) as prof:
        program(lib)
    return prof


def rows(table: str) -> dict:
    """name -> the row's cells, from a printed table."""
    lines = table.splitlines()
    found = {}
    for line in lines[3:-2]:
        cells = re.split(r"\s{2,}", line.strip())
        found[cells[0]] = cells[1:]
    return found


def layout(table: str) -> list:
    """The table with every number replaced: what must be PyTorch's exactly."""
    return [re.sub(r"[\d.]+(%|us|ms|s)\b", lambda m: "#" * len(m[0]), line)
            for line in table.splitlines()]


# the names minigrad's events and PyTorch's have in common for ``program``
SHARED = {"forward", "aten::mm", "aten::tanh", "aten::sub", "aten::pow", "aten::mean",
          "autograd::engine::evaluate_function: MeanBackward0", "MeanBackward0",
          "autograd::engine::evaluate_function: PowBackward0", "PowBackward0",
          "autograd::engine::evaluate_function: SubBackward0", "SubBackward0",
          "autograd::engine::evaluate_function: MmBackward0", "MmBackward0",
          "autograd::engine::evaluate_function: TanhBackward0", "TanhBackward0",
          "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
          "torch::autograd::AccumulateGrad"}


def test_a_programs_events_have_torchs_names_and_counts():
    ours = {e.key: e.count for e in profiled(mg).key_averages()}
    theirs = {e.key: e.count for e in profiled(torch).key_averages()}
    assert SHARED <= set(ours) and SHARED <= set(theirs)
    assert set(ours) <= set(theirs), set(ours) - set(theirs)  # nothing torch would not show
    # (torch's backward formulas run aten ops too, mm and pow among them; minigrad's run
    # on arrays, outside the profile's ops, unless create_graph=True)
    for name in SHARED - {"aten::mm", "aten::pow"}:
        assert ours[name] == theirs[name], name


@pytest.mark.parametrize("sort_by", [None, "cpu_time_total", "self_cpu_time_total", "count",
                                     "cpu_time"])
@pytest.mark.parametrize("row_limit", [100, 5])
def test_the_table_has_torchs_layout(sort_by, row_limit):
    ours = profiled(mg).key_averages().table(sort_by=sort_by, row_limit=row_limit)
    theirs = profiled(torch).key_averages().table(sort_by=sort_by, row_limit=row_limit)
    ours_lines, theirs_lines = layout(ours), layout(theirs)
    assert ours_lines[:3] == theirs_lines[:3]  # rule, header, rule: same columns, same widths
    assert ours_lines[-1] == "Self CPU time total: " + ours_lines[-1].split(": ")[1]
    assert re.fullmatch(r"Self CPU time total: [\d.]+(us|ms|s)", ours.splitlines()[-1])
    assert ours.endswith("\n") and ours_lines[-2] == theirs_lines[-2]
    assert len(ours_lines) == min(row_limit, len(profiled(mg).key_averages())) + 5


def test_sorted_descending_and_limited():
    prof = profiled(mg)
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=4)
    by_name = {e.key: e.self_cpu_time_total for e in prof.key_averages()}
    shown = list(rows(table))
    assert len(shown) == 4
    assert shown == sorted(by_name, key=by_name.get, reverse=True)[:4]


def test_input_shapes_as_torch_lists_them():
    def shapes(lib):
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU],
                                  record_shapes=True) as prof:
            x = lib.ones(3, 4, requires_grad=True)
            (x * 2).sum().backward()
        return {(e.key, str(e.input_shapes))
                for e in prof.key_averages(group_by_input_shape=True)}
    ours, theirs = shapes(mg), shapes(torch)
    for row in [("aten::mul", "[[3, 4], []]"), ("MulBackward0", "[[3, 4]]"),
                ("SumBackward0", "[[]]"), ("torch::autograd::AccumulateGrad", "[[3, 4]]"),
                ("autograd::engine::evaluate_function: MulBackward0", "[]")]:
        assert row in theirs and row in ours, row
    table = mg.profiler.profile  # (the Input Shapes column is torch's)
    with table(record_shapes=True) as prof:
        (mg.ones(2, requires_grad=True) * 3).sum().backward()
    header = prof.key_averages(group_by_input_shape=True).table().splitlines()[1]
    assert re.split(r"\s{2,}", header.strip())[-2:] == ["# of Calls", "Input Shapes"]


def test_timings_are_measured():
    with mg.autograd.profiler.profile() as prof:
        with mg.autograd.profiler.record_function("nap"):
            time.sleep(0.02)
            mg.ones(3) * 2
    events = {e.key: e for e in prof.key_averages()}
    assert events["nap"].cpu_time_total >= 20_000  # µs
    assert events["nap"].self_cpu_time_total == pytest.approx(
        events["nap"].cpu_time_total - events["aten::mul"].cpu_time_total)
    for event in prof.events():
        assert event.cpu_time_total >= sum(c.cpu_time_total for c in event.cpu_children) >= 0
    total = sum(e.self_cpu_time_total for e in prof.key_averages())
    top = sum(e.cpu_time_total for e in prof.events() if e.cpu_parent is None)
    assert total == pytest.approx(top)
    shares = [float(r[0].rstrip("%")) for r in rows(prof.key_averages().table()).values()]
    assert sum(shares) == pytest.approx(100, abs=0.05)


def test_record_function_as_a_decorator_and_nothing_recorded_outside():
    @mg.autograd.profiler.record_function("step")
    def step():
        return (mg.ones(2) + 1).sum()
    step()  # (no profile: nothing recorded, no error)
    with mg.profiler.profile() as prof:
        step()
        step()
    counts = {e.key: e.count for e in prof.key_averages()}
    assert counts["step"] == 2 and counts["aten::add"] == 2
    assert not mg.autograd.profiler.enabled
    (mg.ones(2, requires_grad=True) * 2).sum().backward()  # after: the usual walk


def test_nested_backward_ops_with_create_graph_are_children_of_the_node():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.autograd.profiler.profile() as prof:
        g, = mg.autograd.grad((x ** 3).sum(), x, create_graph=True)
    node = next(e for e in prof.events() if e.key == "PowBackward0")
    assert {c.key for c in node.cpu_children} >= {"aten::mul"}
    np.testing.assert_allclose(g.detach().numpy(), [3.0, 12.0])


def test_errors_and_options():
    prof = mg.autograd.profiler.profile()
    with pytest.raises(RuntimeError, match="Profiler didn't finish running"):
        prof.key_averages()
    with mg.autograd.profiler.profile() as outer:
        with pytest.raises(RuntimeError, match="already enabled"):
            with mg.autograd.profiler.profile():
                pass
    assert outer.key_averages().table() == ""  # (nothing ran: torch prints "" too)
    with pytest.raises(AttributeError, match="'FunctionEventAvg' object has no attribute "
                                             "'nope'"):
        profiled(mg).key_averages().table(sort_by="nope")
    with pytest.raises(NotImplementedError, match="profile_memory=True"):
        mg.profiler.profile(profile_memory=True)
    with pytest.raises(NotImplementedError, match="schedule="):
        mg.profiler.profile(schedule=lambda step: None)


def test_start_stop_and_chrome_trace(tmp_path):
    prof = mg.profiler.profile()
    prof.start()
    (mg.ones(2, requires_grad=True) * 2).sum().backward()
    prof.step()
    prof.stop()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    names = {e["name"] for e in json.loads(path.read_text())["traceEvents"]}
    assert {"aten::mul", "MulBackward0", "torch::autograd::AccumulateGrad"} <= names


def test_profiling_leaves_values_and_grads_alone():
    plain = program(mg)
    with mg.autograd.profiler.profile():
        timed = program(mg)
    assert plain.item() == timed.item()


def test_docstring_examples_run():
    import doctest

    import minigrad.autograd.profiler as module
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_switched_off_profilers_do_nothing_and_nvtx_needs_cuda_as_in_torch():
    """PyTorch's performance tuning guide keeps the profilers off with
    ``profile(enabled=False)`` and ``emit_nvtx(enabled=False)``: the ``with`` target is
    None and nothing is recorded; NVTX switched on asks CUDA (PyTorch's error on a
    CPU-only build), and entering it twice is refused."""
    seen = {}
    for lib in (torch, mg):
        profiler = lib.autograd.profiler
        with profiler.profile(enabled=False) as prof, \
                profiler.emit_nvtx(enabled=False) as nvtx:
            y = (lib.ones(2, requires_grad=True) * 2).sum()
            y.backward()
        on = profiler.emit_nvtx()
        errors = []
        for _ in range(2):
            try:
                on.__enter__()
            except (AssertionError, RuntimeError) as error:
                errors.append((type(error).__name__, str(error)))
        seen[lib] = (prof, nvtx, y.item(), errors, profiler.emit_nvtx(enabled=False).__exit__(
            None, None, None), profiler.emit_nvtx(record_shapes=True).record_shapes)
    assert seen[mg] == seen[torch]
