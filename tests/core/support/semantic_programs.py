"""Random programs over the autograd machinery, for ``programs/test_semantic_programs.py``.

``random_programs.py`` draws ops over leaves of every dtype and shape; these programs draw
what happens where ops meet autograd itself: views (slices, view/reshape/transpose/expand/
select/narrow/diagonal/as_strided/unfold/split/chunk/unbind, detach, ``.data``) and in-place
writes into them (CopySlices, AsStridedBackward0, version-counter and leaf errors, writes in
no_grad, multi-output views), hooks (tensor hooks returning None or a new gradient,
retain_grad, node hooks and pre-hooks, saved_tensors_hooks), grad modes (no_grad,
enable_grad, set_grad_enabled, inference_mode, nested and as decorators, requires_grad_),
the backward/grad API (retain_graph, gradient=, inputs=, allow_unused, materialize_grads,
create_graph and second order, accumulation, .grad of non-leaves) and custom Functions
(save_for_backward, mark_dirty, mark_non_differentiable, set_materialize_grads,
needs_input_grad, once_differentiable, wrong gradient counts, setup_context).

Each program runs under PyTorch and under minigrad with the same random choices. After
every step both runs record the step's result or error (type and text), its warnings,
what the hooks logged, and a snapshot of every tensor made so far (values, dtype, shape,
requires_grad, is_leaf, grad_fn name, version, .grad of leaves and retaining tensors);
``one_program`` returns the first step where they part."""

from __future__ import annotations

import random
import re
import warnings

import numpy as np
import torch

import minigrad

from warn_always import warn_always

LIBS = (torch, minigrad)
SHAPES = [(3,), (2, 3), (4,), (2, 2), (3, 2), (2, 1, 3)]


class Run:
    """One library's state: the tensors made so far and what the hooks logged."""

    def __init__(self, lib):
        self.lib = lib
        self.pool: list = []
        self.log: list = []
        self.fns = functions(lib)
        self.notes: list = []  # what each step chose (for reading a difference)
        self.unversioned: set = set()  # ids of gradients (their versions: the engine's business)


# ---- helpers the steps share ------------------------------------------------------------

def pick(run, r, want=lambda t: True):
    """A random tensor of the pool that ``want`` accepts (None when there is none)."""
    c = [t for t in run.pool if want(t)]
    return r.choice(c) if c else None


def floats(t):
    return t.dtype.is_floating_point


def needs(t):
    return safe(lambda: t.requires_grad) is True


def arr(lib, t):
    return None if t is None else t.detach().numpy().copy()


def logger(run, tag, value=None):
    """A tensor hook: logs the gradient it saw, returns None or ``value(grad)``."""
    def hook(grad):
        run.log.append((tag, tuple(grad.shape), arr(run.lib, grad)))
        return None if value is None else value(grad)
    return hook


def note(run, *what):
    """Remember a step's choices (tensors by their place in the pool), for the report."""
    run.notes.append(tuple(_place(run, w) for w in what))


def _place(run, w):
    if isinstance(w, list):
        return [_place(run, x) for x in w]
    if isinstance(w, run.lib.Tensor):
        return next((f"pool[{i}]" for i, t in enumerate(run.pool) if t is w), "tensor")
    return w


def _like(run, a, view):
    """A view of a gradient shares its version counter: unversioned too."""
    if id(a) in run.unversioned:
        run.unversioned.add(id(view))
    return view


def _add(run, *ts):
    for t in ts:
        if isinstance(t, run.lib.Tensor) and len(run.pool) < 14:
            run.pool.append(t)
    return ts[0] if len(ts) == 1 else ts


# ---- steps: each takes (run, r) and returns what it made (compared, then pooled) ---------

def make_op(run, r):
    lib, a = run.lib, pick(run, r, floats)
    name = r.choice(["mul2", "exp", "sin", "sigmoid", "tanh", "sq", "mulself", "add1", "relu",
                     "pow3", "sum", "mean", "sumdim", "matmulT", "clone", "div", "addother"])
    note(run, name, a)
    b = pick(run, r, lambda t: floats(t) and t.shape == a.shape)
    out = {"mul2": lambda: a * 2, "exp": lambda: a.exp(), "sin": lambda: a.sin(),
           "sigmoid": lambda: a.sigmoid(), "tanh": lambda: lib.tanh(a), "sq": lambda: a ** 2,
           "mulself": lambda: a * b, "add1": lambda: a + 1, "relu": lambda: a.relu(),
           "pow3": lambda: a.pow(3), "sum": lambda: a.sum(), "mean": lambda: a.mean(),
           "sumdim": lambda: a.sum(-1) if a.dim() else a.sum(), "clone": lambda: a.clone(),
           "matmulT": lambda: a @ a.mT if a.dim() >= 2 else a @ a, "div": lambda: a / (b * b + 1),
           "addother": lambda: a + b}[name]()
    if a.is_inference() and not lib.is_inference_mode_enabled():
        run.unversioned.add(id(out))  # (torch's kernels write such results in place: version 2)
    return _add(run, out)


def make_view(run, r):
    lib, a = run.lib, pick(run, r, lambda t: t.dim() >= 1)
    n = a.shape[0]
    name = r.choice(["slice", "step", "view", "reshape", "transpose", "T", "expand", "unsqueeze",
                     "select", "narrow", "diagonal", "as_strided", "unfold", "split", "chunk",
                     "unbind", "detach", "data", "flatten", "squeeze", "permute", "index_neg",
                     "view_as", "ellipsis"])
    note(run, name, a)
    views = {
        "slice": lambda: a[1:], "step": lambda: a[::2], "view": lambda: a.view(-1),
        "reshape": lambda: a.reshape(-1), "transpose": lambda: a.transpose(0, -1),
        "T": lambda: a.t() if a.dim() <= 2 else a.mT, "expand": lambda: a.unsqueeze(0).expand(2, *a.shape),
        "unsqueeze": lambda: a.unsqueeze(-1), "select": lambda: a.select(0, n - 1),
        "narrow": lambda: a.narrow(0, 0, max(n - 1, 1)), "diagonal": lambda: a.diagonal() if a.dim() >= 2 else a[:1],
        "as_strided": lambda: a.as_strided((2,), (1,)), "unfold": lambda: a.unfold(0, 1, 1),
        "split": lambda: a.split(1)[r.randrange(n)], "chunk": lambda: a.chunk(2)[0],
        "unbind": lambda: a.unbind()[r.randrange(n)], "detach": lambda: a.detach(),
        "data": lambda: a.data, "flatten": lambda: a.flatten(), "squeeze": lambda: a.squeeze(),
        "permute": lambda: a.permute(*reversed(range(a.dim()))), "index_neg": lambda: a[-1],
        "view_as": lambda: a.view_as(a), "ellipsis": lambda: a[..., :1],
    }
    return _add(run, _like(run, a, views[name]()))


def inplace(run, r):
    lib, t = run.lib, pick(run, r)
    name = r.choice(["add_", "mul_", "setitem", "setitem_t", "zero_", "copy_", "fill_", "exp_",
                     "sigmoid_", "clamp_", "iadd", "imul", "data_add", "detach_add", "index_add",
                     "masked_fill_", "requires_grad_", "t_", "data_assign",
                     "set_requires_grad"])
    note(run, name, t)
    other = pick(run, r, lambda u: u.shape == t.shape and floats(u))
    def setitem(v):
        if t.dim() == 0:
            t.fill_(v if not isinstance(v, lib.Tensor) else v.sum())
        else:
            t[0] = v if not isinstance(v, lib.Tensor) else v.sum()
    acts = {
        "add_": lambda: t.add_(1), "mul_": lambda: t.mul_(2), "setitem": lambda: setitem(5.0),
        "setitem_t": lambda: setitem(other), "zero_": lambda: t.zero_(),
        "copy_": lambda: t.copy_(other), "fill_": lambda: t.fill_(0.5), "exp_": lambda: t.exp_(),
        "sigmoid_": lambda: t.sigmoid_(), "clamp_": lambda: t.clamp_(min=0),
        "iadd": lambda: t.__iadd__(other), "imul": lambda: t.__imul__(2),
        "data_add": lambda: t.data.add_(1), "detach_add": lambda: t.detach().add_(1),
        "index_add": lambda: t[..., :1].mul_(3), "masked_fill_": lambda: t.masked_fill_(t > 0, 0.0),
        "requires_grad_": lambda: t.requires_grad_(r.random() < 0.5), "t_": lambda: t.unsqueeze_(0),
        "data_assign": lambda: setattr(t, "data", t.data * 2),
        "set_requires_grad": lambda: setattr(t, "requires_grad", r.random() < 0.5),
    }
    out = acts[name]()
    return ("same", out is t) if out is not None else None


def multi_output_write(run, r):
    """Writes in place into an output of unbind/split/chunk (torch's multi-output views)."""
    a = pick(run, r, lambda t: t.dim() >= 1 and t.shape[0] >= 2)
    kind = r.choice(["unbind", "split", "chunk", "split_with_sizes"])
    note(run, kind, a)
    parts = {"unbind": lambda: a.unbind(0), "split": lambda: a.split(1),
             "chunk": lambda: a.chunk(2), "split_with_sizes": lambda: a.split([1, a.shape[0] - 1])}[kind]()
    p = parts[r.randrange(len(parts))]
    _add(run, _like(run, a, p))
    if r.random() < 0.5:
        with run.lib.no_grad():
            p.mul_(2)
    else:
        p.mul_(2)
    return p


def hook(run, r):
    t = pick(run, r, needs)
    kind = r.choice(["none", "double", "plus", "retain", "retain_after", "node", "prehook",
                     "prehook_change", "remove", "leaf_acc", "bad_shape", "bad_type", "post_acc",
                     "inplace_mod", "any_tensor", "two_hooks"])
    tag = f"h{len(run.log)}-{kind}"
    note(run, kind, t)
    if kind == "none":
        t.register_hook(logger(run, tag))
    elif kind == "double":
        t.register_hook(logger(run, tag, lambda g: g * 2))
    elif kind == "plus":
        t.register_hook(logger(run, tag, lambda g: g + 1))
    elif kind == "retain":
        t.retain_grad()
    elif kind == "retain_after":
        t.retain_grad()
        t.register_hook(logger(run, tag, lambda g: g * 3))
    elif kind == "remove":
        handle = t.register_hook(logger(run, tag))
        handle.remove()
    elif kind == "inplace_mod":
        t.register_hook(logger(run, tag, lambda g: g.mul_(2)))
    elif kind == "any_tensor":
        pick(run, r).register_hook(logger(run, tag))
    elif kind == "two_hooks":
        t.register_hook(logger(run, tag + "a", lambda g: g + 1))
        t.register_hook(logger(run, tag + "b"))
        t.retain_grad()
    elif kind == "bad_shape":
        t.register_hook(logger(run, tag, lambda g: g.sum()))
    elif kind == "bad_type":
        t.register_hook(lambda g: 3.0)
    elif kind == "post_acc":
        t.register_post_accumulate_grad_hook(
            lambda p: run.log.append((tag, arr(run.lib, p.grad))))
    elif kind == "leaf_acc":
        if t.grad_fn is None:
            return None
        t.grad_fn.register_hook(lambda gi, go: run.log.append((tag, _grads(run, gi), _grads(run, go))))
    elif t.grad_fn is not None:
        node = t.grad_fn
        if kind == "node":
            node.register_hook(lambda gi, go: run.log.append((tag, _grads(run, gi), _grads(run, go))))
        elif kind == "prehook":
            node.register_prehook(lambda go: run.log.append((tag, _grads(run, go))))
        else:
            node.register_prehook(lambda go: tuple(None if g is None else g * 10 for g in go))
    return ("requires_grad", t.requires_grad)


def _grads(run, gs):
    return tuple(None if g is None else arr(run.lib, g) for g in gs)


def grad_mode(run, r):
    lib = run.lib
    mode = r.choice(["no_grad", "enable_in_no", "set_false", "set_true_in_no", "inference",
                     "decorated_no_grad", "decorated_enable", "inference_false", "nested_inf",
                     "bare_no_grad", "bare_inference", "call_set", "decorated_set"])
    body = r.choice([make_op, make_view, inplace, make_op])
    note(run, mode, body.__name__)
    if mode == "no_grad":
        with lib.no_grad():
            return body(run, r), lib.is_grad_enabled()
    if mode == "enable_in_no":
        with lib.no_grad():
            with lib.enable_grad():
                return body(run, r), lib.is_grad_enabled()
    if mode == "set_false":
        with lib.set_grad_enabled(False):
            return body(run, r), lib.is_grad_enabled()
    if mode == "set_true_in_no":
        with lib.no_grad(), lib.set_grad_enabled(True):
            return body(run, r), lib.is_grad_enabled()
    if mode == "inference":
        with lib.inference_mode():
            return body(run, r), lib.is_inference_mode_enabled()
    if mode == "inference_false":
        with lib.inference_mode(False):
            return body(run, r), lib.is_inference_mode_enabled()
    if mode == "nested_inf":
        with lib.inference_mode():
            with lib.enable_grad():
                return body(run, r), lib.is_grad_enabled()
    if mode == "call_set":  # (set_grad_enabled called, not entered: it acts at once)
        lib.set_grad_enabled(False)
        try:
            return body(run, r), lib.is_grad_enabled()
        finally:
            lib.set_grad_enabled(True)
    deco = {"decorated_no_grad": lib.no_grad, "decorated_enable": lib.enable_grad,
            "bare_no_grad": lambda: lib.no_grad, "bare_inference": lambda: lib.inference_mode,
            "decorated_set": lambda: lib.set_grad_enabled(False)}[mode]()

    @deco
    def f():
        return body(run, r), lib.is_grad_enabled()
    if mode == "decorated_enable":
        with lib.no_grad():
            return f()
    return f()


def backward(run, r):
    lib = run.lib
    t = pick(run, r, lambda u: floats(u) and needs(u))
    kind = r.choice(["sum", "sum", "sum_retain", "gradient", "bad_shape", "bad_dtype", "nonscalar",
                     "inputs", "twice", "sq_retain", "grad_none_then", "no_grad_tensor",
                     "functional", "optimizer", "detach_", "empty_inputs", "create_graph"])
    note(run, kind, t)
    leaves = list({id(u): u for u in run.pool if u.is_leaf and needs(u)}.values())
    if kind == "sum":
        (t * 1).sum().backward()
    elif kind == "sum_retain":
        t.sum().backward(retain_graph=True)
    elif kind == "sq_retain":
        (t * t).sum().backward(retain_graph=r.random() < 0.5)
    elif kind == "gradient":
        t.backward(lib.ones_like(t) * 0.5)
    elif kind == "inplace_mod":
        t.register_hook(logger(run, tag, lambda g: g.mul_(2)))
    elif kind == "any_tensor":
        pick(run, r).register_hook(logger(run, tag))
    elif kind == "two_hooks":
        t.register_hook(logger(run, tag + "a", lambda g: g + 1))
        t.register_hook(logger(run, tag + "b"))
        t.retain_grad()
    elif kind == "bad_shape":
        t.backward(gradient=lib.ones(5))
    elif kind == "bad_dtype":
        t.backward(gradient=lib.ones(t.shape, dtype=lib.int64))
    elif kind == "nonscalar":
        t.backward()
    elif kind == "inputs":
        picked = [u for u in run.pool if needs(u) and r.random() < 0.5]
        t.sum().backward(inputs=picked)
    elif kind == "twice":
        s = (t.exp() * 2).sum()
        s.backward()
        s.backward()
    elif kind == "no_grad_tensor":
        pick(run, r, lambda u: not needs(u)).sum().backward()
    elif kind == "functional":
        lib.autograd.backward([t.sum(), (t * 2).sum()], [lib.tensor(1.0), lib.tensor(0.5)])
    elif kind == "optimizer":
        opt = lib.optim.SGD(leaves, lr=0.1, momentum=0.5)
        (t * t).sum().backward()
        opt.step()
        opt.zero_grad(set_to_none=r.random() < 0.5)
    elif kind == "detach_":
        t.detach_()
    elif kind == "create_graph":
        (t * t * t).sum().backward(create_graph=True)
        grads = [u.grad for u in leaves if u.grad is not None and u.grad.requires_grad]
        if grads and r.random() < 0.7:
            grads[0].sum().backward()
    elif kind == "empty_inputs":
        t.sum().backward(inputs=[])
    elif kind == "grad_none_then":
        for u in leaves:
            u.grad = None
        t.sum().backward()
    return None


def autograd_grad(run, r):
    lib = run.lib
    t = pick(run, r, lambda u: floats(u) and needs(u))
    ins = [u for u in run.pool if needs(u) and r.random() < 0.6] or [t]
    kw = dict(allow_unused=r.random() < 0.5, create_graph=r.random() < 0.4,
              retain_graph=r.random() < 0.5 or None)
    if r.random() < 0.3:
        kw["materialize_grads"] = True
    out = (t * t).sum() if r.random() < 0.5 else t.sum()
    if r.random() < 0.2:
        out = t * 3
        kw["grad_outputs"] = lib.ones_like(t) * 0.5 if r.random() < 0.7 else lib.ones(1)
    note(run, kw, t, ins)
    grads = lib.autograd.grad(out, ins, **kw)
    if kw["create_graph"] and r.random() < 0.7:
        g = next((g for g in grads if g is not None and g.requires_grad), None)
        if g is not None:
            second = lib.autograd.grad(g.sum(), [u for u in ins if needs(u)], allow_unused=True)
            return grads, second
    for g in grads:
        if g is not None and len(run.pool) < 14:
            run.unversioned.add(id(g))
            run.pool.append(g)
    return grads


def read_grad(run, r):
    t = pick(run, r)
    kind = r.choice(["read", "read", "set_none", "zero_", "set", "retains", "is_leaf",
                     "data_zero", "set_wrong"])
    note(run, kind, t)
    if kind == "read":
        return t.grad
    if kind == "set_none":
        t.grad = None
    elif kind == "zero_":
        if t.grad is not None:
            t.grad.zero_()
    elif kind == "set":
        t.grad = run.lib.ones_like(t)
    elif kind == "data_zero":
        if t.grad is not None:
            t.grad.data.zero_()
    elif kind == "set_wrong":
        t.grad = run.lib.ones(7) if r.random() < 0.5 else run.lib.ones_like(t).double()
    elif kind == "retains":
        return t.retains_grad
    return (t.is_leaf, t.requires_grad, t.grad_fn is None)


def saved_hooks(run, r):
    lib = run.lib

    def pack(x):
        run.log.append(("pack", tuple(x.shape)))
        return x

    def unpack(x):
        run.log.append(("unpack", tuple(x.shape)))
        return x
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        return make_op(run, r)


def custom(run, r):
    lib, fns = run.lib, run.fns
    name = r.choice(sorted(fns))
    t = pick(run, r, floats)
    u = pick(run, r, lambda v: floats(v) and v.shape == t.shape)
    note(run, name, t, u)
    if name in ("Two", "TooFew", "NeedsInput"):
        out = fns[name].apply(t, u)
    elif name in ("Scale", "GradForNumber"):
        out = fns[name].apply(t, 3.0, r.random() < 0.5)
    else:
        out = fns[name].apply(t)
    outs = out if isinstance(out, tuple) else (out,)
    if t.is_inference() and not lib.is_inference_mode_enabled() or id(t) in run.unversioned:
        run.unversioned.update(id(o) for o in outs)  # (as in make_op; views of gradients)
    if name != "AsIs":  # (an input returned as it is: torch returns a new view of it)
        _add(run, *outs)
    if r.random() < 0.5 and any(isinstance(o, lib.Tensor) and o.requires_grad for o in outs):
        total = sum(o.sum() for o in outs if isinstance(o, lib.Tensor) and o.requires_grad)
        twice = r.random() < 0.3
        total.backward(retain_graph=twice and r.random() < 0.5)
        if twice:
            total.backward()
    return out


STEPS = [make_op] * 4 + [make_view] * 4 + [inplace] * 4 + [multi_output_write, hook, hook,
         grad_mode, grad_mode, backward, backward, autograd_grad, read_grad, saved_hooks,
         custom, custom]


# ---- custom Functions, made once per library -------------------------------------------

_FNS: dict = {}


def functions(lib):
    if lib.__name__ in _FNS:
        return _FNS[lib.__name__]
    F = lib.autograd.Function
    once = lib.autograd.function.once_differentiable

    class Square(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    class Scale(F):
        @staticmethod
        def forward(ctx, x, k, flag):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None, None

    class WrongCount(F):
        @staticmethod
        def forward(ctx, x):
            return x + 1

        @staticmethod
        def backward(ctx, g):
            return g, g

    class TooFew(F):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    class BadShape(F):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return g.expand(7)

    class Dirty(F):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Two(F):
        @staticmethod
        def forward(ctx, x, y):
            a, b = x + y, x * 2
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            return ga, ga

    class Lazy(F):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            if ga is None and gb is None:
                return None
            return (ga * 2 if ga is not None else 0) + (gb * 3 if gb is not None else 0)

    class Eager(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            return ga * 2 + gb * 3

    class NeedsInput(F):
        @staticmethod
        def forward(ctx, x, y):
            ctx.flags = ctx.needs_input_grad
            return x - y

        @staticmethod
        def backward(ctx, g):
            return (g if ctx.needs_input_grad[0] else None), (-g if ctx.needs_input_grad[1] else None)

    class Once(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        @once
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x.exp()

    class Setup(F):
        @staticmethod
        def forward(x):
            return x.sin()

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x.cos()

    class AsIs(F):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class SaveNumber(F):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 2.0)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class GradForNumber(F):
        @staticmethod
        def forward(ctx, x, k, flag):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 3, g.sum(), None

    class Double(F):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return (g * 2).double()  # (torch casts a gradient to its input's dtype)

    class ViewOut(F):
        @staticmethod
        def forward(ctx, x):
            ctx.shape = x.shape
            return x.view(-1)

        @staticmethod
        def backward(ctx, g):
            return g.view(ctx.shape)

    _FNS[lib.__name__] = {c.__name__: c for c in (Square, Scale, WrongCount, TooFew, BadShape,
                          Dirty, Two, Lazy, Eager, NeedsInput, Once, Setup, AsIs, ViewOut,
                          SaveNumber, GradForNumber, Double)}
    return _FNS[lib.__name__]


# ---- running and comparing --------------------------------------------------------------

ADDR = re.compile(r"0x[0-9a-f]+")
TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)\.?")


def text(s):
    return TRIGGERED.sub("", ADDR.sub("0x", str(s))).replace("minigrad", "torch")


def describe(lib, v):
    if isinstance(v, (tuple, list)) and not isinstance(v, lib.Size):
        return ("seq", [describe(lib, x) for x in v])
    if isinstance(v, lib.Tensor):
        return ("T",) + snap(lib, v, grads=False)
    if isinstance(v, lib.Size):
        return ("Size", tuple(v))
    if isinstance(v, np.ndarray) or v is None or isinstance(v, (bool, int, float, str)):
        return ("py", v)
    return ("py", type(v).__name__)


def safe(f):
    """``f()``, or the error it raises (torch raises for the grad_fn of a view whose
    base a multi-output view's write invalidated, and for an inference tensor's version)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 (compared with torch's)
        return ("raised", type(e).__name__, text(e))


def _node(node):
    """A node's class name and the names of the nodes its edges lead to."""
    if node is None:
        return None
    return (type(node).__name__,
            tuple((None if n is None else n.name(), nr) for n, nr in node.next_functions))


def snap(lib, t, grads=True, versioned=True):
    gname = safe(lambda: _node(t.grad_fn))
    out = (str(t.dtype).split(".")[-1], tuple(t.shape), safe(lambda: t.requires_grad),
           safe(lambda: t.is_leaf), gname,
           safe(lambda: arr(lib, t)), safe(lambda: text(repr(t)) if t.numel() < 7 else None))
    if grads and safe(lambda: t.is_leaf or t.retains_grad) is True:
        out += (safe(lambda: arr(lib, t.grad)), safe(lambda: t._version) if versioned else None)
    return out


def one_run(lib, seed, steps, run=None):
    """Program ``seed``'s leaves, then ``steps``, under ``lib``: the trace of what each
    step did (``run``: a ``Run`` to keep, to look at its tensors afterwards)."""
    run = Run(lib) if run is None else run
    lib.set_grad_enabled(True)  # (a program that failed half-way may have left it off)
    rs = np.random.default_rng(seed)
    r0 = random.Random(seed)
    for i in range(r0.randint(2, 3)):
        shape = r0.choice(SHAPES)
        dtype = lib.float64 if r0.random() < 0.2 else lib.float32
        t = lib.tensor(rs.standard_normal(shape), dtype=dtype, requires_grad=r0.random() < 0.85)
        run.pool.append(t)
    trace = []
    for step, s in steps:
        r = random.Random(s)
        before = len(run.log)
        run.notes = []
        # (warn_always: both libraries give their once-a-process warnings, create_graph's
        # reference cycle among them, at every step, whatever ran before in the process)
        with warn_always(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result, err = describe(lib, step(run, r)), None
            except Exception as e:  # noqa: BLE001 (compared with torch's)
                result, err = None, (type(e).__name__, text(e))
            pool = [snap(lib, t, versioned=id(t) not in run.unversioned) for t in run.pool]
        warned = [(w.category.__name__, text(w.message)) for w in caught]
        trace.append((f"{step.__name__}", err, result, warned, run.log[before:], pool, run.notes))
    return trace


def same(a, b, tol=1e-5):
    if type(a) != type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
    if isinstance(a, float):
        return (a != a and b != b) or abs(a - b) <= tol * (1 + abs(a))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    return a == b


FIELDS = ("step", "error", "result", "warnings", "hooks", "pool")


def steps_of(seed: int) -> list:
    """What program ``seed`` does, step by step, under PyTorch (for reading a difference)."""
    r0 = random.Random(seed * 7919 + 1)
    steps = [(r0.choice(STEPS), r0.randrange(10**9)) for _ in range(r0.randint(3, 9))]
    return [(t[0], t[6], t[1]) for t in one_run(torch, seed, steps)]


def one_program(seed: int) -> list:
    """Where PyTorch and minigrad part on program ``seed`` (an empty list: nowhere): the
    step's number and kind, the field, and PyTorch's and minigrad's record of it."""
    r0 = random.Random(seed * 7919 + 1)
    steps = [(r0.choice(STEPS), r0.randrange(10**9)) for _ in range(r0.randint(3, 9))]
    traces = [one_run(lib, seed, steps) for lib in LIBS]
    for n, (t, m) in enumerate(zip(*traces)):
        for k, field in enumerate(FIELDS):
            if not same(t[k], m[k]):
                return [(n, t[0], field) + _where(t[k], m[k])]
    return []


def _where(a, b):
    """The first item of two pool snapshots that differs (or both records, shortened)."""
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if not same(x, y):
                return (f"tensor {i}", _short(x), _short(y))
    return (_short(a), _short(b))


def _short(v):
    s = repr(v)
    return s if len(s) < 700 else s[:700] + "..."
