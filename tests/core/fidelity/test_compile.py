"""``torch.compile`` (minigrad/_dynamo/eval_frame.py): minigrad runs a compiled module or
function eagerly and shows what PyTorch's compiled one shows: an ``OptimizedModule``
around a module, one ``CompiledFunctionBackward`` node for the region, the same
gradients, PyTorch's errors. Each case runs under PyTorch and minigrad and must print
the same text. PyTorch's side uses ``backend="aot_eager"`` (its capture and AOTAutograd
without generating C++, which takes seconds per graph); one test runs its default
Inductor backend."""

from __future__ import annotations

import re

import pytest
import torch

import minigrad

BACKEND = "aot_eager"


def _names(edges) -> list:
    return [type(node).__name__ if node is not None else None for node, _ in edges]


def _sequential(t):
    t.manual_seed(0)
    return t.nn.Sequential(t.nn.Linear(3, 4), t.nn.ReLU(), t.nn.Linear(4, 2))


class _Shapes:
    """Module classes written as a user writes them (so PyTorch captures their code)."""

    @staticmethod
    def gptish(t):
        class GPTish(t.nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = t.nn.Embedding(5, 4)
                self.head = t.nn.Linear(4, 5)

            def forward(self, idx, targets=None):
                logits = self.head(self.emb(idx))
                if targets is None:
                    return logits, None
                return logits, t.nn.functional.cross_entropy(logits.view(-1, 5), targets.view(-1))
        t.manual_seed(0)
        return GPTish()

    @staticmethod
    def scaled(t):
        class Scaled(t.nn.Module):
            def __init__(self):
                super().__init__()
                self.w = t.nn.Parameter(t.ones(2))
                self.b = t.nn.Parameter(t.zeros(2))

            def forward(self, x, y):
                return y * self.w + x + self.b
        return Scaled()


def module_and_names(t):
    m = _sequential(t)
    cm = t.compile(m, backend=BACKEND)
    try:
        cm[0]
        indexed = "no error"
    except TypeError as error:
        indexed = str(error)
    return (repr(cm), type(cm).__name__, list(cm.state_dict()), [n for n, _ in cm.named_parameters()],
            cm._orig_mod is m, cm.get_submodule("_orig_mod.0"), indexed)


def outputs_and_gradients(t):
    m = _sequential(t)
    cm = t.compile(m, backend=BACKEND)
    t.manual_seed(1)
    x = t.randn(5, 3, requires_grad=True)
    y = cm(x * 2)
    y.sum().backward()
    return (y, y.grad_fn.name(), _names(y.grad_fn.next_functions), x.grad,
            [p.grad for p in m.parameters()])


def data_input_edges(t):
    """A data tensor (no grad) is an edge with no node."""
    y = t.compile(_sequential(t), backend=BACKEND)(t.ones(2, 3))
    return sorted(map(str, _names(y.grad_fn.next_functions))), len(y.grad_fn.next_functions)


def user_module(t):
    mm = t.compile(_Shapes.scaled(t), backend=BACKEND)
    x, y = t.ones(2, requires_grad=True), t.full((2,), 2., requires_grad=True)
    out = mm(x, y)
    out.sum().backward()
    return out, _names(out.grad_fn.next_functions), x.grad, y.grad, mm.w.grad, mm.b.grad


def function_decorators(t):
    w = t.linspace(-1, 1, 6).reshape(3, 2).requires_grad_()

    @t.compile(backend=BACKEND)
    def f(a, scale=2.0):
        return (a @ w * scale).tanh(), None, 3

    def g(a, b):
        return a.sin() + b
    compiled_g = t.compile(g, backend=BACKEND)
    out, nothing, three = f(t.ones(4, 3), scale=3.0)
    out.sum().backward()
    a, b = t.ones(2, requires_grad=True), t.ones(2, requires_grad=True)
    z = compiled_g(b, a)
    z.sum().backward()
    return (out, nothing, three, w.grad, z, a.grad, b.grad, f.__name__, compiled_g.__name__,
            compiled_g.__wrapped__ is g)


def without_grad(t):
    cm = t.compile(_sequential(t), backend=BACKEND)
    with t.no_grad():
        y = cm(t.ones(1, 3))
    eager = t.compile(_sequential(t), backend="eager")(t.ones(1, 3))
    m = _sequential(t)
    return y, y.grad_fn, eager.grad_fn.name(), t.compile(m, disable=True) is m


def errors(t):
    m = _sequential(t)
    found = []
    for kwargs in (dict(mode="max-autotune", options={"a": 1}), dict(mode="fast"),
                   dict(backend="nope")):
        try:
            t.compile(m, **kwargs)
            found.append("no error")
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            found.append(f"{type(error).__name__}: {error}")
    try:
        t.compile(3)
    except AssertionError as error:
        found.append(str(error))
    return found


def double_backward(t):
    g = t.compile(lambda x: (x * x * 2).sum(), backend=BACKEND)
    x = t.ones(3, requires_grad=True)
    loss = g(x)
    grad, = t.autograd.grad(loss, x, create_graph=True)
    try:
        grad.sum().backward()
        refused = "no error"
    except RuntimeError as error:
        refused = str(error)
    return loss, grad, refused


def backward_twice(t):
    cm = t.compile(_sequential(t), backend=BACKEND)
    loss = cm(t.ones(2, 3)).sum()
    loss.backward()  # (retain_graph=True: PyTorch refuses it for most compiled graphs, see README)
    first = cm._orig_mod[0].bias.grad.clone()
    try:
        loss.backward()
        again = "no error"
    except RuntimeError as error:
        again = str(error)[:80]
    return first, again


def compiled_in_place(t):
    user = _Shapes.scaled(t)
    user.compile(backend=BACKEND)
    built_in = _sequential(t)
    built_in.compile(backend=BACKEND)  # (PyTorch's capture skips torch.nn's own code)
    out = user(t.ones(2), t.ones(2))
    return (type(user).__name__, list(user.state_dict()), out.grad_fn.name(),
            type(built_in).__name__, built_in(t.ones(1, 3)).grad_fn.name())


def is_compiling_inside(t):
    seen = []

    @t.compiler.disable
    def eager_part(x):
        seen.append(("disabled", t.compiler.is_compiling()))
        return x + 1

    def region(x):
        seen.append(("region", t.compiler.is_compiling()))
        return eager_part(x) * 2
    out = t.compile(region, backend=BACKEND)(t.ones(2))
    return out, seen, t.compiler.is_compiling(), t.compiler.is_dynamo_compiling()


def training_loop(t):
    model = t.compile(_Shapes.gptish(t), backend=BACKEND)
    opt = t.optim.AdamW(model.parameters(), lr=0.1)
    idx, targets = t.tensor([[0, 1, 2], [3, 4, 0]]), t.tensor([[1, 2, 3], [4, 0, 1]])
    losses = []
    for _ in range(4):
        logits, loss = model(idx, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(f"{loss.item():.6f}")
    with t.no_grad():
        logits, nothing = model(idx)
    return losses, loss.grad_fn.name(), logits.grad_fn, nothing, model._orig_mod.head.bias


def state_dict_of_a_compiled_model(t):
    cm = t.compile(t.nn.Linear(2, 2), backend=BACKEND)
    cm.eval()
    cm.note = 3
    try:
        t.nn.Linear(2, 2).load_state_dict(cm.state_dict())
        loaded = "no error"
    except RuntimeError as error:
        loaded = str(error)
    return loaded, cm.training, cm._orig_mod.training, cm._orig_mod.note


def dynamo_names(t):
    return (t._dynamo.list_backends(), t.compiler.list_backends(), t._dynamo.reset(),
            t._dynamo.config.cache_size_limit, t._dynamo.config.suppress_errors,
            "aot_eager" in t._dynamo.list_backends(exclude_tags=()))


def custom_function_node(t):
    class Cube(t.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            return grad
    return repr(Cube.apply(t.ones(2, requires_grad=True)).grad_fn)


CASES = [module_and_names, outputs_and_gradients, data_input_edges, user_module,
         function_decorators, without_grad, errors, double_backward, backward_twice,
         compiled_in_place, is_compiling_inside, training_loop, state_dict_of_a_compiled_model,
         dynamo_names, custom_function_node]


def _text(value, library) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    text = re.sub(r" at 0x[0-9a-f]+", " at 0x", text)
    return text.replace(library.__name__ + ".", "torch.").replace("minigrad", "torch")


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_compiled_as_pytorch(case):
    assert _text(case(minigrad), minigrad) == _text(case(torch), torch)


def test_default_backend_as_pytorch():
    """PyTorch's default backend (Inductor, which generates C++) prints what minigrad
    prints for a small model and its gradients."""
    def run(t):
        cm = t.compile(_sequential(t))
        x = t.linspace(-1, 1, 6).reshape(2, 3).requires_grad_()
        y = cm(x)
        y.sum().backward()
        return y, x.grad
    assert _text(run(minigrad), minigrad) == _text(run(torch), torch)


def test_a_function_backend_is_refused_with_a_reason():
    with pytest.raises(NotImplementedError, match="torch.fx"):
        minigrad.compile(lambda x: x, backend=lambda gm, inputs: gm.forward)


def test_compiled_values_are_the_eager_values():
    """The region runs the same steps: the same bits as without compiling."""
    model = _Shapes.gptish(minigrad)
    idx, targets = minigrad.tensor([[0, 1, 2]]), minigrad.tensor([[1, 2, 3]])
    logits, loss = model(idx, targets)
    loss.backward()
    eager = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    logits2, loss2 = minigrad.compile(model)(idx, targets)
    loss2.backward()
    assert loss2.item() == loss.item() and minigrad.equal(logits2, logits)
    assert all(minigrad.equal(p.grad, e) for p, e in zip(model.parameters(), eager))
