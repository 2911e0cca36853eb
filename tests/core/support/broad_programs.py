"""The ops of ``broad`` random programs (``random_programs.one_program(seed, BROAD_KINDS,
broad=True)``, session 12), drawn besides the ordinary, wide and deep ones: what those
never drew. Whole training steps (a ``Module`` subclass of several layers, SGD with
momentum, dampening, nesterov and weight_decay, Adam/AdamW with amsgrad, RMSprop centred,
Adagrad, lr schedulers, ``zero_grad(set_to_none=...)``, ``clip_grad_norm_`` and
``clip_grad_value_``, ``state_dict`` round trips through ``torch.save``/``torch.load``),
recurrent layers (RNN, LSTM, GRU with batch_first, bidirectional, num_layers, their cells,
packed sequences), attention (``F.scaled_dot_product_attention`` with bool and float masks
and ``is_causal``, ``nn.MultiheadAttention`` with padding and attention masks,
``TransformerEncoderLayer`` with ``norm_first`` and its activations), ``torch.func``
(``grad``, ``vmap``, ``jacrev``, ``jacfwd``, ``hessian`` of random compositions),
``autograd.grad`` with ``create_graph`` to the third order, chains of views (``unfold``,
``as_strided``, ``diagonal``, ``movedim``, ``narrow``, expand then in-place), dtype mixes of
int8/int16/uint8/float16/bool, sorting and its kin on ties and NaN, and printing of every
dtype and shape.

Each op takes the step's ``random.Random`` (the same draws under both libraries); layers
are made after ``manual_seed`` (minigrad draws PyTorch's initial weights)."""

from __future__ import annotations

import io

import numpy as np


def broad_ops():
    """The ops only ``broad`` programs draw."""
    U = ["train_mlp", "state_round_trip", "rnn", "rnn_cell", "packed", "sdpa", "mha",
         "encoder_layer", "func_grad", "func_vmap", "func_jac", "func_hessian", "grad_orders",
         "view_chain", "expand_inplace", "as_strided", "small_ints", "sort_ties", "cum_ties",
         "unique_ties", "print_dtypes", "print_shapes", "inplace_view_grad", "lr_schedule"]
    B = ["mix_pair", "func_pair", "grad_pair", "attention_pair", "cmp_ties"]
    return U, B


def _array(r, shape, scale=1.0):
    rs = np.random.default_rng(r.randrange(2**31))
    return (rs.standard_normal(shape) * scale).astype(np.float32)


def _float(lib, t):
    x = t.detach().clone()
    return x if x.dtype.is_floating_point else x.float()


def run_broad_unary(lib, name, t, r):
    table = {
        "train_mlp": lambda: _train(lib, t, r), "state_round_trip": lambda: _round_trip(lib, t, r),
        "rnn": lambda: _rnn(lib, t, r), "rnn_cell": lambda: _rnn_cell(lib, t, r),
        "packed": lambda: _packed(lib, t, r), "sdpa": lambda: _sdpa(lib, t, r),
        "mha": lambda: _mha(lib, t, r), "encoder_layer": lambda: _encoder(lib, t, r),
        "func_grad": lambda: _func_grad(lib, t, r), "func_vmap": lambda: _func_vmap(lib, t, r),
        "func_jac": lambda: _func_jac(lib, t, r), "func_hessian": lambda: _func_hessian(lib, t, r),
        "grad_orders": lambda: _grad_orders(lib, t, r), "view_chain": lambda: _view_chain(lib, t, r),
        "expand_inplace": lambda: _expand_inplace(lib, t, r), "as_strided": lambda: _as_strided(lib, t, r),
        "small_ints": lambda: _small_ints(lib, t, r), "sort_ties": lambda: _sort_ties(lib, t, r),
        "cum_ties": lambda: _cum_ties(lib, t, r), "unique_ties": lambda: _unique_ties(lib, t, r),
        "print_dtypes": lambda: _print_dtypes(lib, t, r), "print_shapes": lambda: _print_shapes(lib, t, r),
        "inplace_view_grad": lambda: _inplace_view_grad(lib, t, r),
        "lr_schedule": lambda: _lr_schedule(lib, t, r),
    }
    return table[name]()


def run_broad_binary(lib, name, a, b, r):
    table = {
        "mix_pair": lambda: _mix_pair(lib, a, b, r), "func_pair": lambda: _func_pair(lib, a, b, r),
        "grad_pair": lambda: _grad_pair(lib, a, b, r),
        "attention_pair": lambda: _attention_pair(lib, a, b, r), "cmp_ties": lambda: _cmp_ties(lib, a, b, r),
    }
    return table[name]()


# ---- training ----------------------------------------------------------------------

def _model(lib, r, d_in, d_out):
    nn = lib.nn
    hidden = r.choice([3, 5])
    act = r.choice(["ReLU", "Tanh", "GELU", "SiLU", "LeakyReLU", "ELU", "Softplus"])
    norm = r.choice(["none", "LayerNorm", "BatchNorm1d", "Dropout"])

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(d_in, hidden, bias=norm == "none")
            self.norm = {"none": nn.Identity(), "LayerNorm": nn.LayerNorm(hidden),
                         "BatchNorm1d": nn.BatchNorm1d(hidden), "Dropout": nn.Dropout(0.0)}[norm]
            self.act = getattr(nn, act)()
            self.fc2 = nn.Linear(hidden, d_out)

        def forward(self, x):
            return self.fc2(self.act(self.norm(self.fc1(x))))

    return Net()


OPTIMISERS = [
    ("SGD", {"lr": 0.1}), ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "maximize": True}),
    ("Adam", {"lr": 0.01, "amsgrad": True}), ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01}), ("Adamax", {"lr": 0.02}),
]


def _train(lib, t, r):
    lib.manual_seed(r.randrange(1000))
    n, d = 4, 3
    x = lib.tensor(_array(r, (n, d)))
    if t.numel() and t.dtype.is_floating_point:
        x = x + t.detach().float().reshape(-1)[:1].sum()
    model = _model(lib, r, d, 2)
    name, options = r.choice(OPTIMISERS)
    opt = getattr(lib.optim, name)(model.parameters(), **options)
    loss_fn = r.choice([lib.nn.MSELoss(), lib.nn.CrossEntropyLoss(), lib.nn.SmoothL1Loss()])
    y = (lib.tensor([0, 1, 1, 0]) if isinstance(loss_fn, lib.nn.CrossEntropyLoss)
         else lib.tensor(_array(r, (n, 2))))
    clip = r.choice(["none", "norm", "value"])
    set_to_none = r.random() < 0.5
    losses, norms = [], []
    for _ in range(3):
        opt.zero_grad(set_to_none=set_to_none)
        loss = loss_fn(model(x), y)
        loss.backward()
        if clip == "norm":
            norms.append(lib.nn.utils.clip_grad_norm_(model.parameters(), 0.5))
        elif clip == "value":
            lib.nn.utils.clip_grad_value_(model.parameters(), 0.05)
        opt.step()
        losses.append(loss.detach())
    grads = [None if p.grad is None else p.grad.clone() for p in model.parameters()]
    opt.zero_grad(set_to_none=set_to_none)
    after = [p.grad for p in model.parameters()]
    return (lib.stack(losses), norms, list(model.parameters()), grads, after,
            sorted(model.state_dict().keys()), _opt_state(lib, opt))


def _opt_state(lib, opt):
    state = opt.state_dict()
    out = []
    for key in sorted(state["state"]):
        for name, value in sorted(state["state"][key].items()):
            out.append((key, name, value))
    group = {k: v for k, v in state["param_groups"][0].items() if k not in ("params",)}
    return out, sorted(group.items(), key=lambda kv: kv[0])


def _round_trip(lib, t, r):
    lib.manual_seed(r.randrange(1000))
    model = _model(lib, r, 3, 2)
    opt = lib.optim.Adam(model.parameters(), lr=0.01) if r.random() < 0.5 else \
        lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = lib.tensor(_array(r, (4, 3)))
    model(x).pow(2).mean().backward()
    opt.step()
    buffer = io.BytesIO()
    lib.save({"model": model.state_dict(), "opt": opt.state_dict()}, buffer)
    buffer.seek(0)
    loaded = lib.load(buffer, weights_only=r.random() < 0.5)
    lib.manual_seed(r.randrange(1000))
    twin = type(model)()
    keys = twin.load_state_dict(loaded["model"], strict=r.random() < 0.5)
    opt2 = type(opt)(twin.parameters(), lr=0.5)
    opt2.load_state_dict(loaded["opt"])
    model.eval(); twin.eval()
    with lib.no_grad():
        same = lib.equal(model(x), twin(x))
    return same, str(keys), _opt_state(lib, opt2), twin(x)


def _lr_schedule(lib, t, r):
    w = lib.nn.Parameter(lib.tensor(_array(r, (2,))))
    opt = lib.optim.SGD([w], lr=0.1, momentum=0.9)
    S = lib.optim.lr_scheduler
    kind = r.randrange(6)
    sched = [lambda: S.StepLR(opt, 2, gamma=0.5), lambda: S.MultiStepLR(opt, [1, 3], 0.1),
             lambda: S.CosineAnnealingLR(opt, 4, eta_min=0.01), lambda: S.OneCycleLR(opt, 1.0, total_steps=6),
             lambda: S.LinearLR(opt, 0.25, total_iters=3),
             lambda: S.LambdaLR(opt, lambda epoch: 0.9 ** epoch)][kind]()
    rates = []
    for _ in range(5):
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
        sched.step()
        rates.append(sched.get_last_lr())
    return rates, w.detach(), sorted(sched.state_dict().keys())


# ---- recurrent layers ---------------------------------------------------------------

def _rnn(lib, t, r):
    lib.manual_seed(r.randrange(1000))
    cell = r.choice(["RNN", "LSTM", "GRU"])
    batch_first = r.random() < 0.5
    bi = r.random() < 0.5
    layers = r.choice([1, 2])
    options = {"nonlinearity": r.choice(["tanh", "relu"])} if cell == "RNN" else {}
    if cell == "LSTM" and r.random() < 0.3:
        options["proj_size"] = 2
    net = getattr(lib.nn, cell)(3, 4, num_layers=layers, batch_first=batch_first, bidirectional=bi,
                                 bias=r.random() < 0.8, **options)
    shape = r.choice([(2, 5, 3), (5, 3), (1, 1, 3)])
    x = lib.tensor(_array(r, shape), requires_grad=True)
    out, h = net(x)
    parts = h if isinstance(h, tuple) else (h,)
    (out.sin().sum() + sum(p.sum() for p in parts)).backward()
    return out, h, x.grad, [p.grad for p in net.parameters()], str(net)


def _rnn_cell(lib, t, r):
    lib.manual_seed(r.randrange(1000))
    cell = r.choice(["RNNCell", "LSTMCell", "GRUCell"])
    net = getattr(lib.nn, cell)(3, 2)
    x = lib.tensor(_array(r, (4, 2, 3)), requires_grad=True)
    h = None
    outs = []
    for step in x.unbind(0) if r.random() < 0.5 else [x[0, 0], x[1, 0]]:
        h = net(step, h)
        outs.append(h[0] if isinstance(h, tuple) else h)
    lib.stack(outs).sum().backward()
    return outs, x.grad, [p.grad for p in net.parameters()]


def _packed(lib, t, r):
    lib.manual_seed(r.randrange(1000))
    utils = lib.nn.utils.rnn
    net = getattr(lib.nn, r.choice(["LSTM", "GRU", "RNN"]))(2, 3, batch_first=True,
                                                            bidirectional=r.random() < 0.5)
    lengths = r.choice([[3, 2, 1], [3, 3, 1], [1, 3, 2]])
    x = lib.tensor(_array(r, (3, 3, 2)), requires_grad=True)
    enforce = lengths == sorted(lengths, reverse=True) or r.random() < 0.3
    packed = utils.pack_padded_sequence(x, lib.tensor(lengths), batch_first=True, enforce_sorted=enforce)
    out, h = net(packed)
    padded, lens = utils.pad_packed_sequence(out, batch_first=True, padding_value=r.choice([0.0, -1.0]))
    padded.sum().backward()
    return packed.batch_sizes, padded, lens, x.grad, h


# ---- attention ----------------------------------------------------------------------

def _sdpa(lib, t, r):
    F = lib.nn.functional
    L, S, E = r.choice([1, 3]), r.choice([2, 3]), r.choice([2, 4])
    q = lib.tensor(_array(r, (2, L, E)), requires_grad=True)
    k = lib.tensor(_array(r, (2, S, E)), requires_grad=True)
    v = lib.tensor(_array(r, (2, S, 3)), requires_grad=True)
    kind = r.randrange(5)
    kwargs = {}
    if kind == 1:
        kwargs["attn_mask"] = lib.tensor(np.arange(L * S).reshape(L, S) % 3 != 1)
    elif kind == 2:
        kwargs["attn_mask"] = lib.tensor(_array(r, (L, S)))
    elif kind == 3:
        kwargs["is_causal"] = True
    elif kind == 4:
        kwargs["attn_mask"] = lib.zeros(L, S, dtype=lib.bool)  # (rows with nothing to attend to)
    if r.random() < 0.4:
        kwargs["scale"] = r.choice([0.5, 2.0])
    out = F.scaled_dot_product_attention(q, k, v, **kwargs)
    out.sum().backward()
    return out, q.grad, k.grad, v.grad


def _mha(lib, t, r):
    lib.manual_seed(r.randrange(1000))
    batch_first = r.random() < 0.5
    mha = lib.nn.MultiheadAttention(4, r.choice([1, 2]), batch_first=batch_first, bias=r.random() < 0.7,
                                    add_bias_kv=r.random() < 0.2)
    x = lib.tensor(_array(r, (2, 3, 4)), requires_grad=True)
    kwargs = {"need_weights": r.random() < 0.7, "average_attn_weights": r.random() < 0.5}
    if r.random() < 0.4:  # (batch 2, length 3 with batch_first; else length 2, batch 3)
        kwargs["key_padding_mask"] = lib.tensor([[False, False, True], [False, True, True]]) \
            if batch_first else lib.tensor([[False, True], [False, False], [False, True]])
    if r.random() < 0.4:
        kwargs["attn_mask"] = lib.nn.Transformer.generate_square_subsequent_mask(3 if batch_first else 2)
    out, weights = mha(x, x, x, **kwargs)
    out.sin().sum().backward()
    return out, weights, x.grad, mha.in_proj_weight.grad


def _encoder(lib, t, r):
    lib.manual_seed(r.randrange(1000))
    layer = lib.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, batch_first=True,
                                           norm_first=r.random() < 0.5,
                                           activation=r.choice(["relu", "gelu"]))
    x = lib.tensor(_array(r, (2, 3, 4)), requires_grad=True)
    mask = r.choice([None, "causal", "padding"])
    kwargs = {}
    if mask == "causal":
        kwargs["src_mask"] = lib.nn.Transformer.generate_square_subsequent_mask(3)
        kwargs["is_causal"] = True
    elif mask == "padding":
        kwargs["src_key_padding_mask"] = lib.tensor([[False, False, True], [False, False, False]])
    out = layer(x, **kwargs)
    out.sin().sum().backward()
    return out, x.grad, layer.linear1.weight.grad


def _attention_pair(lib, a, b, r):
    F = lib.nn.functional
    q, k = _float(lib, a).reshape(1, -1, 1), _float(lib, b).reshape(1, -1, 1)
    q.requires_grad_()
    out = F.scaled_dot_product_attention(q, k, k, is_causal=r.random() < 0.3 and q.shape[1] == k.shape[1])
    return out


# ---- torch.func and higher orders --------------------------------------------------------

FUNCS = ["sin_sum", "sq_sum", "exp_mean", "tanh_dot", "softmax_max", "norm", "logsumexp", "cube"]


def _f(lib, name):
    return {"sin_sum": lambda x: x.sin().sum(), "sq_sum": lambda x: (x * x).sum(),
            "exp_mean": lambda x: x.exp().mean(), "tanh_dot": lambda x: (x.tanh() * x).sum(),
            "softmax_max": lambda x: x.softmax(-1).amax(), "norm": lambda x: x.norm(),
            "logsumexp": lambda x: x.logsumexp(-1), "cube": lambda x: (x ** 3).sum() / 3}[name]


def _func_grad(lib, t, r):
    x = _float(lib, t)
    f = _f(lib, r.choice(FUNCS))
    if r.random() < 0.5:
        return lib.func.grad(f)(x)
    return lib.func.grad_and_value(f)(x)


def _func_vmap(lib, t, r):
    x = _float(lib, t)
    if x.dim() == 0:
        x = x.reshape(1)
    f = r.choice([lambda v: v.sin() * 2, lambda v: v.sum(), lambda v: v @ v.transpose(0, -1) if v.dim() else v * v,
                  lambda v: v.softmax(-1),
                  lambda v: lib.func.grad(_f(lib, "sq_sum"))(v), lambda v: v.cumsum(0)])
    in_dims = r.choice([0, -1]) if x.dim() else 0
    return lib.vmap(f, in_dims=in_dims, out_dims=r.choice([0, -1]) if x.dim() > 1 else 0)(x)


def _func_jac(lib, t, r):
    x = _float(lib, t).reshape(-1)[:4]
    f = r.choice([lambda v: v.sin(), lambda v: v.softmax(0), lambda v: v.cumsum(0) * v,
                  lambda v: lib.outer(v, v).sum(0)])
    return (lib.func.jacrev if r.random() < 0.5 else lib.func.jacfwd)(f)(x)


def _func_hessian(lib, t, r):
    x = _float(lib, t).reshape(-1)[:3]
    if not x.numel():  # (the README's known difference: PyTorch's hessian of no elements fails)
        x = lib.ones(2, dtype=x.dtype)
    return lib.func.hessian(_f(lib, r.choice(["sin_sum", "sq_sum", "exp_mean", "tanh_dot", "cube"])))(x)


def _grad_orders(lib, t, r):
    x = _float(lib, t).requires_grad_()
    f = _f(lib, r.choice(FUNCS))
    y = f(x)
    (g1,) = lib.autograd.grad(y, x, create_graph=True)
    (g2,) = lib.autograd.grad(g1.sum(), x, create_graph=True, allow_unused=True)
    if g2 is None or not g2.requires_grad:
        return g1, g2
    (g3,) = lib.autograd.grad(g2.sum(), x, allow_unused=True)
    return g1, g2, g3


def _func_pair(lib, a, b, r):
    x, y = _float(lib, a), _float(lib, b)
    f = r.choice([lambda u, v: (u * v).sum(), lambda u, v: (u.sin() + v.exp()).sum(),
                  lambda u, v: (u - v).pow(2).mean()])
    return lib.func.grad(f, argnums=r.choice([0, 1, (0, 1)]))(x, y)


def _grad_pair(lib, a, b, r):
    x, y = _float(lib, a).requires_grad_(), _float(lib, b).requires_grad_()
    z = (x * y.exp()).sum() + (x * x).sum()
    gx, gy = lib.autograd.grad(z, (x, y), create_graph=True)
    outs = lib.autograd.grad((gx.sum(), gy.sum()), (x, y), allow_unused=True,
                             grad_outputs=(lib.tensor(1.0), lib.tensor(2.0)))
    return gx, gy, outs


# ---- views and in-place ------------------------------------------------------------

def _view_chain(lib, t, r):
    x = _float(lib, t).requires_grad_()
    base = x.reshape(-1)
    n = base.shape[0]
    y = base * 1
    steps = []
    for _ in range(r.randint(1, 3)):
        k = r.randrange(5)
        if k == 0 and y.dim() and y.shape[-1] >= 2:
            y = y.unfold(-1, 2, r.choice([1, 2]))
        elif k == 1 and y.dim() >= 2:
            y = y.diagonal(r.choice([0, 1]), -2, -1)
        elif k == 2 and y.dim() >= 2:
            y = y.movedim(0, -1)
        elif k == 3 and y.dim() and y.shape[0] >= 1:
            y = y.narrow(0, 0, 1)
        else:
            y = y.unsqueeze(0).expand(2, *y.shape)
        steps.append((tuple(y.shape), y.stride(), y.is_contiguous()))
    z = (y * y).sum()
    z.backward()
    return y, steps, x.grad, n


def _expand_inplace(lib, t, r):
    x = _float(lib, t)
    e = x.unsqueeze(0).expand(3, *x.shape)
    op = r.randrange(4)
    if op == 0:
        return e.add_(1)
    if op == 1:
        return e.clone().add_(1), e.contiguous().stride()
    if op == 2:
        view = x.reshape(-1).unsqueeze(1).expand(-1, 2)
        return view.mul_(2)
    return e.copy_(lib.ones_like(e))


def _as_strided(lib, t, r):
    x = _float(lib, t).requires_grad_()
    n = x.numel()
    if n < 2:
        return x.as_strided((1,), (1,))
    size, stride = r.choice([((2,), (1,)), ((n - 1, 2), (1, 1)), ((2, 1), (1, 2)), ((n // 2, 2), (2, 1))])
    y = x.as_strided(size, stride, r.choice([0, 1]) if n > 3 else 0)
    (y * y).sum().backward()
    return y, x.grad


def _inplace_view_grad(lib, t, r):
    x = _float(lib, t).requires_grad_()
    y = x * 2
    if y.dim() == 0:
        y.mul_(3)
    else:
        view = {0: lambda: y[..., :1], 1: lambda: y.transpose(0, -1), 2: lambda: y.reshape(-1)[::2],
                3: lambda: y.unsqueeze(0)}[r.randrange(4)]()
        getattr(view, r.choice(["mul_", "add_", "sub_"]))(r.choice([2, 0.5]))
        if r.random() < 0.5:
            view.exp_()
    y.sum().backward()
    return y, x.grad, type(y.grad_fn).__name__


# ---- dtypes -----------------------------------------------------------------------------

SMALL = ["int8", "int16", "uint8", "int32", "float16", "bool"]


def _small_ints(lib, t, r):
    dtype = getattr(lib, r.choice(SMALL))
    x = (t.detach() * 37).to(dtype) if t.dtype != lib.bool else t.to(dtype)
    op = r.choice(["add", "mul", "neg", "sum", "cumsum", "abs", "div", "floor_divide", "pow", "max",
                   "sort", "mean", "prod", "bitwise_not", "shift", "clamp", "sub"])
    calls = {"add": lambda: x + 100, "mul": lambda: x * x, "neg": lambda: -x, "sum": lambda: x.sum(),
             "cumsum": lambda: x.cumsum(0) if x.dim() else x.cumsum(0), "abs": lambda: x.abs(),
             "div": lambda: x / 3, "floor_divide": lambda: x // 3, "pow": lambda: x ** 2,
             "max": lambda: x.max(), "sort": lambda: x.sort(), "mean": lambda: x.mean(),
             "prod": lambda: x.prod(), "bitwise_not": lambda: ~x, "shift": lambda: x << 2,
             "clamp": lambda: x.clamp(-5, 5), "sub": lambda: x - x.flip(0) if x.dim() else x - 1}
    return calls[op]()


def _mix_pair(lib, a, b, r):
    x = (a.detach() * 5).to(getattr(lib, r.choice(SMALL + ["float32", "float64", "int64"])))
    y = (b.detach() * 5).to(getattr(lib, r.choice(SMALL + ["float32", "float64", "int64"])))
    op = r.choice(["+", "*", "-", "/", "<", "where", "maximum", "cat", "eq", "%", "&", "matmul"])
    calls = {"+": lambda: x + y, "*": lambda: x * y, "-": lambda: x - y, "/": lambda: x / y,
             "<": lambda: x < y, "where": lambda: lib.where(x > 0, x, y), "maximum": lambda: lib.maximum(x, y),
             "cat": lambda: lib.cat([x.reshape(-1), y.reshape(-1)]), "eq": lambda: x == y, "%": lambda: x % y,
             "&": lambda: x & y, "matmul": lambda: x @ y}
    return calls[op]()


# ---- sorting and its kin on ties and NaN ----------------------------------------------------

def _ties(lib, t, r):
    x = _float(lib, t)
    if x.numel() == 0:
        return x
    x = (x * 2).round() / 2 + 0.0  # (ties; no -0., whose ties with 0. the README lists)
    if r.random() < 0.5:
        flat = x.reshape(-1).clone()
        flat[r.randrange(flat.numel())] = float("nan")
        x = flat.reshape(x.shape)
    return x


def _sort_ties(lib, t, r):
    x = _ties(lib, t, r)
    d = r.choice([0, -1])
    op = r.randrange(8)
    if op == 0:
        return x.sort(dim=d, descending=r.random() < 0.5, stable=True)
    if op == 1:
        return x.argsort(dim=d, descending=r.random() < 0.5, stable=True)
    if op == 2:
        return x.topk(min(2, x.shape[d] if x.dim() else 1), d, largest=r.random() < 0.5)
    if op == 3:
        return x.max(d), x.argmax(), x.min(d)
    if op == 4:
        return x.kthvalue(1, d), x.median(), x.nanmedian()
    if op == 5:
        return x.mode(d)
    if op == 6:
        return x.msort(), lib.sort(x.reshape(-1), stable=True)
    return x.amax(d), x.amin(d), x.aminmax()


def _cum_ties(lib, t, r):
    x = _ties(lib, t, r).requires_grad_()
    d = r.choice([0, -1])
    op = r.choice(["cummax", "cummin", "cumsum", "cumprod", "logcumsumexp"])
    y = getattr(x, op)(d)
    v = y.values if op in ("cummax", "cummin") else y
    v.sum().backward()
    return y, x.grad


def _unique_ties(lib, t, r):
    x = _ties(lib, t, r)
    if r.random() < 0.5:
        x = x.long() if not x.isnan().any() else x
    op = r.randrange(4)
    if op == 0:
        return lib.unique(x, sorted=True, return_inverse=True, return_counts=True)
    if op == 1:
        return lib.unique(x, dim=r.choice([0, -1])) if x.dim() else lib.unique(x)
    if op == 2:
        return lib.unique_consecutive(x, return_inverse=True, return_counts=True)
    return x.bincount() if x.dtype == lib.int64 and x.dim() == 1 and (x >= 0).all() else x.histc(4)


def _cmp_ties(lib, a, b, r):
    x, y = _ties(lib, a, r), _ties(lib, b, r)
    op = r.choice(["maximum", "fmax", "fmin", "eq", "isclose", "searchsorted", "sort_cat"])
    calls = {"maximum": lambda: lib.maximum(x, y), "fmax": lambda: lib.fmax(x, y), "fmin": lambda: lib.fmin(x, y),
             "eq": lambda: x == y, "isclose": lambda: lib.isclose(x, y, equal_nan=True),
             "searchsorted": lambda: lib.searchsorted(x.reshape(-1).sort().values, y),
             "sort_cat": lambda: lib.cat([x.reshape(-1), y.reshape(-1)]).sort(stable=True)}
    return calls[op]()


# ---- printing ---------------------------------------------------------------------------

def _print_dtypes(lib, t, r):
    dtype = getattr(lib, r.choice(SMALL + ["float32", "float64", "int64"]))
    x = t.detach()
    scale = r.choice([1, 100, 1e5, 0.001])
    y = (x * scale).to(dtype) if x.dtype.is_floating_point else x.to(dtype)
    return repr(y), str(y), repr(y.reshape(-1)), repr(y.unsqueeze(0)), repr(y.sum()) if dtype != lib.bool else ""


def _print_shapes(lib, t, r):
    dtype = getattr(lib, r.choice(SMALL + ["float32", "float64", "int64"]))
    shape = r.choice([(1001,), (40, 30), (2, 0, 3), (3, 1, 1, 2), (0,), (7, 300), (2, 2, 200)])
    n = int(np.prod(shape))
    values = lib.arange(n).reshape(shape)
    x = (values * r.choice([1, 0.37, -3])).to(dtype)
    if r.random() < 0.3:
        x = x.float().requires_grad_() * 2
    return repr(x)
