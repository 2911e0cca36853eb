"""torch.jit (script, trace, save, load, freeze and the markers) against PyTorch 2.13, live:
what a program prints (the modules' reprs, outputs, gradients, a training loop's losses),
which tensors are shared, the training flags, the errors and the deprecation warnings.
minigrad compiles nothing (minigrad/jit/__init__.py says what differs because of it)."""

from __future__ import annotations

import io
import warnings

import pytest
import torch

import minigrad

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def both(program):
    """The program's printed lines under PyTorch and under minigrad."""
    return program(torch), program(minigrad)


class _Nets:
    """The same model classes written once per library."""

    def __init__(self, lib):
        nn = lib.nn

        class Net(nn.Module):
            __constants__ = ["scale"]
            scale = 3.0  # (a class constant)

            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(4, 3)
                self.drop = nn.Dropout(0.5)
                self.seq = nn.Sequential(nn.ReLU(), nn.Linear(3, 2))
                self.k = 2.0
                self.register_buffer("offset", lib.ones(2))

            @property
            def width(self):
                return self.fc1.out_features

            def helper(self, x):
                return x.sum() / self.width

            def forward(self, x):
                h = self.seq(self.drop(self.fc1(x))) * self.k + self.offset
                return h + self.helper(x) / self.scale

        class Doubled(nn.Linear):  # (super() inside forward)
            def forward(self, x):
                return super().forward(x) * 2

        self.Net, self.Doubled = Net, Doubled


def test_a_scripted_module_prints_computes_and_shares_as_pytorchs():
    def program(lib):
        lib.manual_seed(0)
        model = _Nets(lib).Net()
        scripted = lib.jit.script(model)
        x = lib.linspace(-1, 1, 8).reshape(2, 4)
        lines = [repr(scripted), repr(scripted.fc1), type(scripted).__name__,
                 str(scripted.original_name), str(scripted.k),
                 str(scripted.fc1.weight is model.fc1.weight),
                 str(isinstance(scripted, lib.jit.ScriptModule)),
                 str(isinstance(scripted, lib.nn.Module)),
                 str(list(dict(scripted.named_parameters()))),
                 str(list(scripted.state_dict())), str(scripted.helper(x))]
        scripted.eval()
        lines += [str((model.training, scripted.training, scripted.drop.training,
                       model.drop.training)), repr(scripted(x))]
        doubled = lib.jit.trace(_Nets(lib).Doubled(4, 2), x)  # (TorchScript refuses super())
        # (values only: PyTorch's replayed trace records ``* 2`` as MulBackward1)
        lines += [repr(doubled), repr(doubled(x).detach())]
        return lines
    assert both(program)[0] == both(program)[1]


def test_training_through_a_scripted_module_trains_the_module():
    def program(lib):
        lib.manual_seed(1)
        model = _Nets(lib).Net()
        scripted = lib.jit.script(model)
        optimizer = lib.optim.SGD(scripted.parameters(), lr=0.1, momentum=0.9)
        x, y = lib.randn(16, 4), lib.randn(16, 2)
        lines = []
        for _ in range(5):
            optimizer.zero_grad()
            loss = lib.nn.functional.mse_loss(scripted(x), y)
            loss.backward()
            optimizer.step()
            lines.append(f"{loss.item():.6f} {loss.grad_fn.name()}")
        lines.append(repr(model.fc1.weight.grad))
        lines.append(repr(model.fc1.weight))
        return lines
    theirs, ours = both(program)
    assert ours == theirs


def test_a_traced_module_and_function():
    def program(lib):
        lib.manual_seed(2)
        model = lib.nn.Sequential(lib.nn.Linear(3, 3), lib.nn.Tanh(),
                                  lib.nn.Sequential(lib.nn.Linear(3, 1)))
        x = lib.randn(2, 3)
        traced = lib.jit.trace(model, x)
        lines = [repr(traced), type(traced).__name__,
                 type(getattr(traced, "0")).__name__,
                 str(getattr(traced, "0").weight is model[0].weight), repr(traced(x)),
                 str(traced.training)]
        try:
            traced[0]
        except TypeError as error:
            lines.append(str(error))

        def f(a, b):
            return a * 2 + b
        traced_f = lib.jit.trace(f, (x, x))
        scripted_f = lib.jit.script(f)
        lines += [repr(traced_f(x, x)), repr(scripted_f(x, x)),
                  str(lib.jit.script(traced) is traced), str(lib.jit.trace(traced, x) is traced),
                  str(lib.jit.script(scripted_f) is scripted_f)]
        return lines
    theirs, ours = both(program)
    assert ours == theirs


def test_a_scripted_submodule_is_kept_inside_a_scripted_or_traced_module():
    """The TorchScript introduction's MyCell around ``torch.jit.script(MyDecisionGate())``:
    scripting or tracing the cell keeps the scripted gate itself (minigrad's copy used to
    fail on the MRO of a copy of a copy)."""
    def program(lib):
        class MyDecisionGate(lib.nn.Module):
            def forward(self, x):
                return x if x.sum() > 0 else -x

        class MyCell(lib.nn.Module):
            def __init__(self, dg):
                super().__init__()
                self.dg = dg
                self.linear = lib.nn.Linear(4, 4)

            def forward(self, x, h):
                new_h = lib.tanh(self.dg(self.linear(x)) + h)
                return new_h, new_h

        lib.manual_seed(0)
        x, h = lib.rand(3, 4), lib.rand(3, 4)
        scripted_gate = lib.jit.script(MyDecisionGate())
        scripted_cell = lib.jit.script(MyCell(scripted_gate))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (PyTorch's TracerWarning for the gate's bool)
            traced_cell = lib.jit.trace(MyCell(scripted_gate), (x, h))
        return [repr(scripted_cell), repr(traced_cell), scripted_cell.dg is scripted_gate,
                traced_cell.dg is scripted_gate, repr(scripted_cell(x, h)[0]),
                repr(traced_cell(x, h)[0].shape)]
    theirs, mine = both(program)
    assert mine == theirs


@pytest.mark.parametrize("check_trace", [True, False])
def test_tensors_turned_into_python_values_while_tracing_warn_as_pytorch(check_trace):
    """PyTorch's TracerWarning for item(), float(), tolist(), int(), numpy() and bool() in
    traced code (the TorchScript introduction's MyDecisionGate: ``if x.sum() > 0``), from
    the trace's run and its check's trace, not its eager run, nor outside a trace."""
    def program(lib):
        class Gate(lib.nn.Module):
            def forward(self, x):
                x.sum().item(), float(x.sum()), x.tolist(), int(x.sum() > 0), x.numpy()
                return x if x.sum() > 0 else -x

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.jit.trace(Gate(), lib.ones(2), check_trace=check_trace)
            Gate()(lib.ones(2))
        return [(w.category.__name__, str(w.message), w.lineno if w.category.__name__ == "TracerWarning"
                 else None) for w in caught]  # (the deprecations come from each library's own file)
    theirs, mine = both(program)
    assert mine == theirs
    assert sum(name == "TracerWarning" for name, _, _ in mine) == (12 if check_trace else 6)


def test_a_scripted_module_called_while_tracing_does_not_warn():
    """A scripted gate inside a traced cell runs as compiled code in PyTorch: its
    ``if x.sum() > 0`` gives no TracerWarning (the same gate unscripted does)."""
    def program(lib):
        class Gate(lib.nn.Module):
            def forward(self, x):
                return x if x.sum() > 0 else -x

        class Cell(lib.nn.Module):
            def __init__(self, gate):
                super().__init__()
                self.gate = gate

            def forward(self, x):
                return self.gate(x) * 2

        counts = []
        for gate in (lib.jit.script(Gate()), Gate()):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                lib.jit.trace(Cell(gate), lib.ones(2))
            counts.append(sum(w.category.__name__ == "TracerWarning" for w in caught))
        return counts
    theirs, mine = both(program)
    assert mine == theirs == [0, 2]


def test_tracing_without_the_check_runs_the_function_once():
    # (with check_trace=True PyTorch runs the Python three times and its trace once more:
    # minigrad runs the Python three times; the module docstring says so)
    def program(lib):
        lib.manual_seed(3)
        calls = []

        def noisy(x):
            calls.append(1)
            return x + lib.rand(1)
        lib.jit.trace(noisy, lib.ones(2), check_trace=False)
        return [str(len(calls)), repr(lib.rand(2))]
    assert both(program)[0] == both(program)[1]


# (save pickles minigrad's module, so its class must be importable, as for torch.save)
NetTorch, NetMinigrad = _Nets(torch).Net, _Nets(minigrad).Net
NetTorch.__qualname__, NetMinigrad.__qualname__ = "NetTorch", "NetMinigrad"


def test_save_and_load_give_back_the_module(tmp_path):
    # PyTorch's TorchScript archive is not minigrad's file: each library reads its own
    def program(lib, where):
        lib.manual_seed(4)
        model = NetTorch() if lib is torch else NetMinigrad()
        scripted = lib.jit.script(model)
        x = lib.randn(3, 4)
        scripted.save(str(where / f"{lib.__name__}.pt"))
        buffer = io.BytesIO()
        lib.jit.save(lib.jit.trace(model.eval(), x), buffer)
        buffer.seek(0)
        loaded = lib.jit.load(str(where / f"{lib.__name__}.pt"))
        loaded.eval()
        traced = lib.jit.load(buffer)
        return [repr(loaded), type(loaded).__name__, repr(loaded(x)),
                str(loaded.fc1.weight is model.fc1.weight), repr(traced), repr(traced(x))]
    assert program(minigrad, tmp_path) == program(torch, tmp_path)


def test_freeze_and_optimize_for_inference():
    def program(lib):
        lib.manual_seed(5)
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Tanh())
        scripted = lib.jit.script(model)
        lines = []
        for bad in (model, scripted):
            try:
                lib.jit.freeze(bad)
            except RuntimeError as error:
                lines.append(str(error))
        frozen = lib.jit.freeze(scripted.eval())
        x = lib.randn(3, 2)
        out = frozen(x)
        lines += [repr(frozen), type(frozen).__name__, str(list(frozen.parameters())),
                  repr(out), str(out.requires_grad), str(hasattr(frozen, "training")),
                  repr(frozen(x.requires_grad_())),
                  repr(lib.jit.optimize_for_inference(lib.jit.script(model.eval())))]
        return lines
    theirs, ours = both(program)
    assert ours == theirs


def test_markers_helpers_and_errors():
    def program(lib):
        jit = lib.jit

        @jit.ignore
        def ignored(x):
            return x + 1

        @jit.unused
        def unused(x):
            return x - 1

        @jit.ignore(drop=True)
        def dropped(x):
            return x * 3

        @jit.export
        def exported(x):
            return x

        lines = [str(ignored(1)), str(unused(1)), str(dropped(1)), str(exported(4)),
                 str(jit.is_scripting()), str(jit.is_tracing()), str(jit.annotate(int, 3)),
                 repr(jit.wait(jit.fork(lambda a: a * 2, lib.ones(2)))),
                 str(issubclass(jit.TracerWarning, Warning)),
                 str(jit.script_if_tracing(exported) is exported)]
        for bad in ("abc", None, 3, lib.nn.Linear):
            try:
                jit.script(bad)
            except (TypeError, RuntimeError) as error:
                lines.append(f"{type(error).__name__}: {error}".replace("torch.nn.modules.linear",
                                                                        "LIB"))
        return [line.replace("minigrad.nn.linear", "LIB") for line in lines]
    theirs, ours = both(program)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda lib: lib.jit.script(lib.nn.Linear(2, 2)),
    lambda lib: lib.jit.trace(lib.nn.Linear(2, 2), lib.ones(1, 2)),
    lambda lib: lib.jit.freeze(lib.jit.script(lib.nn.Linear(2, 2)).eval()),
])
def test_the_deprecation_warnings_are_pytorchs(call):
    def warned(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(lib)
        return sorted({(w.category.__name__, str(w.message)) for w in caught
                       if "deprecated" in str(w.message)})
    theirs, ours = warned(torch), warned(minigrad)
    assert ours == theirs and theirs


def test_what_cannot_be_shown_says_why():
    scripted = minigrad.jit.script(minigrad.nn.Linear(2, 2))
    for attribute in ("code", "graph"):
        with pytest.raises(RuntimeError, match="compiles nothing"):
            getattr(scripted, attribute)
    buffer = io.BytesIO()
    minigrad.save({"a": minigrad.ones(1)}, buffer)
    buffer.seek(0)
    with pytest.raises(RuntimeError, match="reads what minigrad's torch.jit.save"):
        minigrad.jit.load(buffer)
