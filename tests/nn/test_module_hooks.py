"""Module hooks (forward, forward pre-, full backward, the old register_backward_hook,
with prepend/with_kwargs and removable handles), module walks and dotted paths, against
torch."""

from __future__ import annotations

import warnings

import numpy as np
import torch

import minigrad as mg


def _hooked(lib):
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU(), lib.nn.Linear(3, 2))
    seen = []
    first = net[0].register_forward_hook(lambda m, args, out: seen.append(tuple(out.shape)))
    doubled = net[2].register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    replaced = net.register_forward_hook(lambda m, args, out: out + 1)
    x = lib.ones(5, 4)
    outputs = [net(x)]
    first.remove()
    doubled.remove()
    with replaced:
        outputs.append(net(x))
    outputs.append(net(x))
    return seen, [repr(o) for o in outputs]


def test_forward_hooks_and_handles_match_torch():
    assert _hooked(mg) == _hooked(torch)


def test_module_walks_match_torch():
    def walk(lib):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3), lib.nn.Tanh())
        names = [name for name, _ in net.named_modules()]
        kinds = [type(m).__name__ for m in net.children()]
        applied = []
        net.apply(lambda m: applied.append(type(m).__name__))
        net(lib.ones(4, 2)).sum().backward()
        net.zero_grad(set_to_none=True)
        grads = [p.grad for p in net.parameters()]
        net.requires_grad_(False)
        return names, kinds, applied, grads, [p.requires_grad for p in net.parameters()], \
            list(net.state_dict())
    assert walk(mg) == walk(torch)


def _backward_hooked(lib):
    nn = lib.nn
    lib.manual_seed(0)
    layer = nn.Linear(3, 2)
    seen = []
    handle = layer.register_full_backward_hook(lambda mod, gi, go: seen.append(
        (type(mod).__name__, [None if g is None else tuple(g.shape) for g in gi],
         [tuple(g.shape) for g in go])))
    x = lib.randn(4, 3, requires_grad=True)
    y = layer(x)
    out = [type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__]
    y.sum().backward()
    out += [list(seen), x.grad]
    seen.clear()
    y = layer(lib.randn(4, 3))  # (no input requires grad: the hook fires at the outputs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y.sum().backward()
    out += [list(seen), [str(w.message) for w in caught]]
    doubled = layer.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 2,))
    x.grad = None
    layer(x).sum().backward()
    out.append(x.grad)
    handle.remove()
    doubled.remove()
    out.append(type(layer(x).grad_fn).__name__)
    net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    net.register_full_backward_hook(lambda mod, gi, go: out.append(("seq", gi[0].shape)))
    net[1].register_full_backward_hook(lambda mod, gi, go: out.append(("relu", go[0][0])))
    net[1].register_full_backward_pre_hook(lambda mod, go: (go[0] * 3,))
    x.grad = None
    net(x).sum().backward()
    out.append(x.grad)
    return [repr(o) for o in out]


def test_full_backward_hooks_match_torch():
    assert _backward_hooked(mg) == _backward_hooked(torch)


def _hooks_with_options(lib):
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    layer = nn.Linear(3, 2)
    layer.register_forward_hook(lambda m, a, o: out.append("first"))
    layer.register_forward_hook(lambda m, a, o: out.append("prepended"), prepend=True)
    layer.register_forward_pre_hook(lambda m, a, k: ((a[0] * 0,), k), with_kwargs=True)
    layer.register_forward_hook(lambda m, a, k, o: o + 1, with_kwargs=True)
    out.append(repr(layer(lib.ones(2, 3))))
    other = nn.Linear(3, 2)
    other.register_forward_pre_hook(lambda m, a, k: a, with_kwargs=True)
    try:
        other(lib.ones(1, 3))
    except RuntimeError as error:
        out.append(str(error))
    return out


def test_forward_hooks_prepend_and_with_kwargs_match_torch():
    assert _hooks_with_options(mg) == _hooks_with_options(torch)


def _paths(lib):
    nn = lib.nn
    lib.manual_seed(0)
    net = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.BatchNorm1d(3), nn.ReLU()))
    out = [repr(net.get_submodule("1.0")), repr(net.get_parameter("0.bias")),
           repr(net.get_buffer("1.0.running_var")), net.get_submodule("") is net]
    net.set_submodule("1.1", nn.LeakyReLU(0.2))
    out.append(repr(net))
    for call in [lambda: net.get_submodule("1.5"), lambda: net.get_submodule("0.weight"),
                 lambda: net.get_parameter("1.0.running_mean"), lambda: net.get_buffer("0.weight"),
                 lambda: net.get_parameter("0.nothing"), lambda: net.set_submodule("", nn.ReLU()),
                 lambda: net.set_submodule("0", 3), lambda: net.set_submodule("1.7", nn.ReLU(), True)]:
        try:
            call()
            out.append("no error")
        except (AttributeError, ValueError) as error:
            out.append((type(error).__name__, str(error)))
    return out


def test_module_paths_match_torch():
    assert _paths(mg) == _paths(torch)


def _old_backward_hooked(lib, make, inputs):
    """register_backward_hook (pytorch/tutorials former_torchies/nnft_tutorial.py): the
    gradients the hook sees, a replacement it returns, and the warnings, as PyTorch's."""
    lib.manual_seed(0)
    module = make(lib)
    seen = []

    def hook(mod, grad_input, grad_output):
        seen.append((type(mod).__name__, type(grad_input).__name__,
                     [None if g is None else (tuple(g.shape), round(g.sum().item(), 4))
                      for g in grad_input],
                     [(tuple(g.shape), round(g.sum().item(), 4)) for g in grad_output]))
        if len(seen) == 2:  # (the second time, a replacement of the first gradient)
            return (grad_input[0] * 0,) + tuple(grad_input[1:])

    handle = module.register_backward_hook(hook)
    xs = [lib.tensor(x, requires_grad=True) for x in inputs(lib)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            out = module(*[x * 1 for x in xs])
            out = out[0] if isinstance(out, tuple) else out
            out.sum().backward()
    grads = [x.grad.tolist() for x in xs]
    handle.remove()
    module(*xs)  # (no hook now)
    try:
        module.register_full_backward_hook(hook)
        mixed = None
    except RuntimeError as e:
        mixed = str(e)
    return seen, grads, [(w.category.__name__, str(w.message)) for w in caught], mixed


def test_old_backward_hooks_match_torch():
    rows = lambda lib: [np.linspace(-1, 1, 12).reshape(1, 3, 2, 2).tolist()]  # noqa: E731
    cases = [
        (lambda lib: lib.nn.Conv2d(3, 2, 2), rows),
        (lambda lib: lib.nn.Linear(4, 2), lambda lib: [[[1., -2., 3., .5]]]),
        (lambda lib: lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU()),
         lambda lib: [[[1., -2., 3., .5], [0., 1., 1., -1.]]]),
        (lambda lib: lib.nn.Bilinear(2, 2, 1), lambda lib: [[[1., 2.]], [[-1., .5]]]),
    ]
    for make, inputs in cases:
        ours, theirs = _old_backward_hooked(mg, make, inputs), _old_backward_hooked(
            torch, make, inputs)
        assert ours == theirs


def test_a_module_takes_one_kind_of_backward_hook_as_in_torch():
    for lib in (mg, torch):
        layer = lib.nn.Linear(2, 2)
        layer.register_full_backward_hook(lambda *a: None)
        try:
            layer.register_backward_hook(lambda *a: None)
        except RuntimeError as e:
            message = str(e)
        assert message == ("Cannot use both regular backward hooks and full backward hooks "
                           "on a single Module. Please use only one of them.")
