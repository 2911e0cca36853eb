"""The ops of ``deep`` random programs (``random_programs.one_program(seed, DEEP_KINDS,
deep=True)``), drawn besides the ordinary and wide ones: what those never drew.
``torch.nn.functional`` (convolutions with stride, padding, dilation and groups, pooling
with ceil_mode and count_include_pad, layer_norm, batch_norm in training and eval with
its running statistics, group_norm, embedding with padding_idx, dropout in eval and at
p 0 and 1, cross_entropy with ignore_index, label_smoothing, weights and probabilities,
nll_loss, pad, normalize, one_hot, glu, activations with their options), an optimiser's
step on a leaf read through a view, grad modes nested (no_grad, enable_grad,
set_grad_enabled, inference_mode), retain_grad and hooks, requires_grad_ and detach_
(of a view: torch's error) mid-program, ``out=`` of a wrong dtype or shape,
index_put_/index_add_/scatter_ with repeated indices, advanced indexing mixing bool
masks, negative indices and slices (read and written), ``torch.where`` with numbers,
type promotion of 0-dim tensors with Python numbers of every kind, and printing under
``set_printoptions`` (precision, sci_mode, linewidth, threshold, edgeitems) of huge,
tiny, nan and inf values.

Each op takes the step's ``random.Random`` (the same draws under both libraries) and
makes what it needs from the pool's tensors (reshaped, cast) and from arrays drawn
with it, so most programs reach values, not only shape errors."""

from __future__ import annotations

import numpy as np

PRINT_VALUES = [1e10, 1e-10, float("nan"), float("inf"), -float("inf"), 123456.789, 1e-5,
                0.0, -0.0, 3.0, 2**40]


def deep_ops():
    """The ops only ``deep`` programs draw (after ``ops()``'s and ``wide_ops()``'s)."""
    U = ["conv1d", "conv1d_groups", "conv2d", "conv_transpose1d", "max_pool1d", "avg_pool1d",
         "max_pool2d", "avg_pool2d", "adaptive_avg", "adaptive_max", "layer_norm",
         "batch_norm_train", "batch_norm_eval", "group_norm", "instance_norm", "embedding",
         "dropout_eval", "dropout_edges", "cross_entropy", "cross_entropy_probs", "nll_loss",
         "pad", "normalize", "one_hot", "glu", "activations", "softmin", "log_sigmoid",
         "sgd_view", "adam_view", "grad_modes", "retain_grad", "hook", "requires_grad_",
         "detach_view", "out_wrong", "index_put_dup", "index_add_dup", "scatter_dup",
         "mask_neg_index", "setitem_mixed", "where_scalars", "promote_0dim", "printopts",
         "print_values", "unfold_fold", "interpolate", "pixel_shuffle", "rms_norm"]
    B = ["linear", "bilinear", "mse_none", "smooth_l1", "bce", "kl_log_target",
         "pairwise", "promote_pair", "where_pair", "index_put_tensor", "masked_fill_",
         "margin_ranking", "triplet", "cosine_embedding", "conv_pair", "grad_of_pair"]
    return U, B


def _array(r, shape, kind="normal"):
    rs = np.random.default_rng(r.randrange(2**31))
    if kind == "index":
        return rs.integers(0, shape[1], shape[0])
    return rs.standard_normal(shape).astype(np.float32)


def _signal(lib, t, channels, dims=1):
    """``t`` as a batch of one ``channels``-channel signal (1-d) or image (2-d)."""
    flat = t.reshape(-1)
    if dims == 1:
        return lib.stack([flat * (c + 1) for c in range(channels)]).unsqueeze(0)
    n = flat.shape[0]
    height = 2 if n % 2 == 0 and n > 2 else 1
    image = flat.reshape(height, -1) if n else flat.reshape(0, 0)
    return lib.stack([image - c for c in range(channels)]).unsqueeze(0)


def _leaf(lib, t):
    """A float leaf made of ``t``'s values (its own graph: the step may backward)."""
    x = t.detach().clone()
    return (x if x.dtype.is_floating_point else x.float()).requires_grad_()


def run_deep_unary(lib, name, t, r):
    F = lib.nn.functional
    table = {
        "conv1d": lambda: _conv1d(lib, t, r), "conv1d_groups": lambda: _conv1d(lib, t, r, 2),
        "conv2d": lambda: _conv2d(lib, t, r), "conv_transpose1d": lambda: _conv_t(lib, t, r),
        "max_pool1d": lambda: _pool(lib, t, r, "max_pool1d"),
        "avg_pool1d": lambda: _pool(lib, t, r, "avg_pool1d"),
        "max_pool2d": lambda: _pool(lib, t, r, "max_pool2d"),
        "avg_pool2d": lambda: _pool(lib, t, r, "avg_pool2d"),
        "adaptive_avg": lambda: F.adaptive_avg_pool1d(_signal(lib, t, 2), r.choice([1, 2, 3])),
        "adaptive_max": lambda: F.adaptive_max_pool1d(_signal(lib, t, 1), r.choice([1, 2]),
                                                      return_indices=r.random() < 0.5),
        "layer_norm": lambda: _layer_norm(lib, t, r), "batch_norm_train": lambda: _batch_norm(lib, t, r, True),
        "batch_norm_eval": lambda: _batch_norm(lib, t, r, False), "group_norm": lambda: _group_norm(lib, t, r),
        "instance_norm": lambda: F.instance_norm(_signal(lib, t, 2)),
        "embedding": lambda: _embedding(lib, t, r),
        "dropout_eval": lambda: F.dropout(t, r.choice([0.2, 0.5]), training=False),
        "dropout_edges": lambda: F.dropout(t, r.choice([0.0, 1.0]), training=True),
        "cross_entropy": lambda: _cross_entropy(lib, t, r), "cross_entropy_probs": lambda: _ce_probs(lib, t, r),
        "nll_loss": lambda: _nll(lib, t, r), "pad": lambda: _pad(lib, t, r),
        "normalize": lambda: F.normalize(t, p=r.choice([1, 2, 3.0]), dim=r.choice([0, -1])),
        "one_hot": lambda: F.one_hot(t.long().abs() if t.dtype.is_floating_point else t.long(),
                                     r.choice([-1, 4])),
        "glu": lambda: F.glu(t, r.choice([0, -1])), "activations": lambda: _activation(lib, t, r),
        "softmin": lambda: F.softmin(t, dim=-1), "log_sigmoid": lambda: F.logsigmoid(t),
        "sgd_view": lambda: _step(lib, t, r, "SGD"), "adam_view": lambda: _step(lib, t, r, "Adam"),
        "grad_modes": lambda: _grad_modes(lib, t, r), "retain_grad": lambda: _retain(lib, t, r),
        "hook": lambda: _hook(lib, t, r), "requires_grad_": lambda: _requires(lib, t, r),
        "detach_view": lambda: _detach_view(lib, t, r), "out_wrong": lambda: _out_wrong(lib, t, r),
        "index_put_dup": lambda: _index_put(lib, t, r), "index_add_dup": lambda: _index_add(lib, t, r),
        "scatter_dup": lambda: _scatter(lib, t, r), "mask_neg_index": lambda: _mask_index(lib, t, r),
        "setitem_mixed": lambda: _setitem(lib, t, r), "where_scalars": lambda: _where(lib, t, r),
        "promote_0dim": lambda: _promote(lib, t, r), "printopts": lambda: _printed(lib, t, r),
        "print_values": lambda: _print_values(lib, t, r),
        "unfold_fold": lambda: _unfold(lib, t, r), "interpolate": lambda: _interpolate(lib, t, r),
        "pixel_shuffle": lambda: F.pixel_shuffle(t.reshape(1, 4, 1, -1) if t.numel() % 4 == 0
                                                 else t.reshape(1, 1, 1, -1), 2),
        "rms_norm": lambda: F.rms_norm(t, t.shape[-1:], eps=r.choice([None, 1e-3])),
    }
    return table[name]()


def run_deep_binary(lib, name, a, b, r):
    F = lib.nn.functional
    reduction = r.choice(["mean", "sum", "none"])
    table = {
        "linear": lambda: _linear(lib, a, b, r),
        "bilinear": lambda: F.bilinear(a, a, lib.tensor(_array(r, (2,) + tuple(a.shape[-1:]) * 2)).to(a.dtype)),
        "mse_none": lambda: F.mse_loss(a, b, reduction=reduction),
        "smooth_l1": lambda: F.smooth_l1_loss(a, b, reduction=reduction, beta=r.choice([0.0, 0.5, 1.0])),
        "bce": lambda: F.binary_cross_entropy(a.sigmoid(), _partner(lib, a, b).sigmoid().detach(),
                                              reduction=reduction),
        "kl_log_target": lambda: F.kl_div(a.log_softmax(-1), b.log_softmax(-1), reduction=reduction,
                                          log_target=True),
        "pairwise": lambda: F.pairwise_distance(a, b, p=r.choice([1.0, 2.0]), keepdim=r.random() < 0.5),
        "promote_pair": lambda: _promote_pair(lib, a, b, r), "where_pair": lambda: lib.where(a > 0, b, 0),
        "index_put_tensor": lambda: (a.detach().clone()).index_put_(
            (lib.tensor([0, 0, -1]),), b.to(a.dtype) if r.random() < 0.8 else b, accumulate=True),
        "masked_fill_": lambda: (a * 1).masked_fill_(b > 0, r.choice([2, -1.5, True])),
        "margin_ranking": lambda: F.margin_ranking_loss(a, _partner(lib, a, b), (a > 0).to(a.dtype) * 2 - 1,
                                                         margin=0.5, reduction=reduction),
        "triplet": lambda: F.triplet_margin_loss(a, _partner(lib, a, b), a.flip(-1), reduction=reduction,
                                                 swap=r.random() < 0.5),
        "cosine_embedding": lambda: F.cosine_embedding_loss(
            a, _partner(lib, a, b), lib.tensor([1.0, -1.0, 1.0])[:a.shape[0] if a.dim() == 2 else 1].reshape(
                -1 if a.dim() == 2 else ()), reduction=reduction),
        "conv_pair": lambda: F.conv1d(_signal(lib, a, 1), b.reshape(1, 1, -1)),
        "grad_of_pair": lambda: _grad_of(lib, a, b, r),
    }
    return table[name]()


# ---- nn.functional ------------------------------------------------------------------

def _partner(lib, a, b):
    """``b`` where it has ``a``'s shape and dtype, else one made of ``a`` (flipped)."""
    if tuple(b.shape) == tuple(a.shape) and b.dtype == a.dtype:
        return b
    return a.flip(-1) * 0.5 if a.dim() else a * 0.5


def _linear(lib, a, b, r):
    features = a.shape[-1] if a.dim() else 1
    weight = b if b.dim() and b.shape[-1] == features and b.dim() <= 2 else \
        lib.tensor(_array(r, (2, features))).to(a.dtype)
    bias = weight[..., 0] if r.random() < 0.5 else None
    return lib.nn.functional.linear(a, weight, bias)


def _conv1d(lib, t, r, groups=1):
    stride, padding, dilation = r.choice([1, 2]), r.choice([0, 1, "same", "valid"]), r.choice([1, 2])
    kernel, out = r.choice([1, 2, 3]), r.choice([2, 4])
    bias = r.random() < 0.5
    weight = lib.tensor(_array(r, (out, 2 // groups, kernel)))
    if padding == "same":
        stride = 1
    return lib.nn.functional.conv1d(_signal(lib, t, 2), weight.to(t.dtype),
                                    weight[:, 0, 0].to(t.dtype) if bias else None,
                                    stride=stride, padding=padding, dilation=dilation, groups=groups)


def _conv2d(lib, t, r):
    stride, padding = r.choice([1, 2, (1, 2)]), r.choice([0, 1, (0, 1)])
    groups = r.choice([1, 2])
    weight = lib.tensor(_array(r, (2, 2 // groups, 1, r.choice([1, 2]))))
    return lib.nn.functional.conv2d(_signal(lib, t, 2, dims=2), weight.to(t.dtype), stride=stride,
                                    padding=padding, groups=groups)


def _conv_t(lib, t, r):
    stride, padding, output_padding = r.choice([1, 2]), r.choice([0, 1]), r.choice([0, 1])
    weight = lib.tensor(_array(r, (1, 2, r.choice([2, 3]))))
    return lib.nn.functional.conv_transpose1d(_signal(lib, t, 1), weight.to(t.dtype), stride=stride,
                                              padding=padding,
                                              output_padding=output_padding if stride > 1 else 0)


def _pool(lib, t, r, name):
    kernel, stride, padding = r.choice([1, 2, 3]), r.choice([None, 1, 2]), r.choice([0, 1])
    ceil_mode = r.random() < 0.5
    x = _signal(lib, t, 2, dims=2 if name.endswith("2d") else 1)
    F = lib.nn.functional
    if name.startswith("avg"):
        return getattr(F, name)(x, kernel, stride, padding, ceil_mode=ceil_mode,
                                count_include_pad=r.random() < 0.5)
    return getattr(F, name)(x, kernel, stride, padding, ceil_mode=ceil_mode,
                            return_indices=r.random() < 0.5)


def _layer_norm(lib, t, r):
    shape = tuple(t.shape[-r.choice([1, 2]):]) if t.dim() else ()
    affine = r.random() < 0.5
    weight = lib.tensor(_array(r, shape)).to(t.dtype) if affine else None
    return lib.nn.functional.layer_norm(t, shape, weight, weight, eps=r.choice([1e-5, 0.1]))


def _batch_norm(lib, t, r, training):
    x = _signal(lib, t, 2) if t.dim() < 2 else t
    channels = x.shape[1]
    mean = lib.tensor(_array(r, (channels,))).to(x.dtype)
    var = lib.tensor(np.abs(_array(r, (channels,)))).to(x.dtype)
    affine = r.random() < 0.5
    y = lib.nn.functional.batch_norm(x, mean, var, var * 2 if affine else None,
                                     mean if affine else None, training=training,
                                     momentum=r.choice([0.1, 0.0, 0.5]))
    return y, mean, var


def _group_norm(lib, t, r):
    x = _signal(lib, t, 4)
    groups = r.choice([1, 2, 4])
    weight = lib.tensor(_array(r, (4,))).to(x.dtype)
    return lib.nn.functional.group_norm(x, groups, weight if r.random() < 0.5 else None,
                                        weight.flip(0), eps=1e-5)


def _embedding(lib, t, r):
    weight = lib.tensor(_array(r, (5, 3)), requires_grad=True)
    index = (t.abs() * 2).long() % 5 if t.dtype.is_floating_point else t.long() % 5
    padding_idx = r.choice([None, 0, -1])
    max_norm = r.choice([None, None, 1.0])
    y = lib.nn.functional.embedding(index, weight, padding_idx=padding_idx, max_norm=max_norm)
    return y, weight


def _cross_entropy(lib, t, r):
    logits = t.reshape(-1, t.shape[-1]) if t.dim() else t.reshape(1, 1)
    classes = logits.shape[1]
    target = lib.tensor(_array(r, (logits.shape[0], max(classes, 1)), "index")) if classes else \
        lib.zeros(logits.shape[0], dtype=lib.long)
    ignore = r.choice([-100, 0, 1])
    weight = lib.tensor(np.abs(_array(r, (classes,)))).to(t.dtype) if r.random() < 0.3 else None
    return lib.nn.functional.cross_entropy(logits, target, weight=weight, ignore_index=ignore,
                                           label_smoothing=r.choice([0.0, 0.1, 0.5]),
                                           reduction=r.choice(["mean", "sum", "none"]))


def _ce_probs(lib, t, r):
    logits = t.reshape(-1, t.shape[-1]) if t.dim() else t.reshape(1, 1)
    probs = lib.tensor(_array(r, tuple(logits.shape))).softmax(-1).to(t.dtype)
    return lib.nn.functional.cross_entropy(logits, probs, label_smoothing=r.choice([0.0, 0.2]),
                                           reduction=r.choice(["mean", "sum", "none"]))


def _nll(lib, t, r):
    logits = t.reshape(-1, t.shape[-1]) if t.dim() else t.reshape(1, 1)
    classes = max(logits.shape[1], 1)
    target = lib.tensor(_array(r, (logits.shape[0], classes), "index"))
    return lib.nn.functional.nll_loss(logits.log_softmax(-1), target,
                                      ignore_index=r.choice([-100, 0]),
                                      reduction=r.choice(["mean", "sum", "none"]))


def _pad(lib, t, r):
    mode = r.choice(["constant", "constant", "reflect", "replicate", "circular"])
    widths = r.choice([(1, 1), (0, 2), (1, 0, 0, 1), (-1, 1)])
    x = t if mode == "constant" else _signal(lib, t, 1, dims=len(widths) // 2)
    if mode == "constant":
        return lib.nn.functional.pad(t, widths, value=r.choice([0.0, -1.5]))
    return lib.nn.functional.pad(x, widths, mode=mode)


def _activation(lib, t, r):
    F = lib.nn.functional
    name = r.choice(["softplus", "leaky_relu", "elu", "gelu", "hardtanh", "silu", "mish",
                     "softsign", "celu", "selu", "hardswish", "hardsigmoid", "threshold",
                     "softshrink", "hardshrink", "tanhshrink", "prelu", "rrelu_eval"])
    calls = {
        "softplus": lambda: F.softplus(t, beta=r.choice([1, 2.0]), threshold=r.choice([20, 1])),
        "leaky_relu": lambda: F.leaky_relu(t, r.choice([0.01, 0.2])),
        "elu": lambda: F.elu(t, alpha=r.choice([1.0, 0.5])), "gelu": lambda: F.gelu(t, approximate=r.choice(["none", "tanh"])),
        "hardtanh": lambda: F.hardtanh(t, -0.5, 0.5), "silu": lambda: F.silu(t), "mish": lambda: F.mish(t),
        "softsign": lambda: F.softsign(t), "celu": lambda: F.celu(t, alpha=2.0), "selu": lambda: F.selu(t),
        "hardswish": lambda: F.hardswish(t), "hardsigmoid": lambda: F.hardsigmoid(t),
        "threshold": lambda: F.threshold(t, 0.1, 20.0), "softshrink": lambda: F.softshrink(t, 0.5),
        "hardshrink": lambda: F.hardshrink(t, 0.5), "tanhshrink": lambda: F.tanhshrink(t),
        "prelu": lambda: F.prelu(t, lib.tensor([0.25], dtype=t.dtype)),
        "rrelu_eval": lambda: F.rrelu(t, training=False),
    }
    return calls[name]()


# ---- autograd mid-program -------------------------------------------------------------

def _step(lib, t, r, name):
    w = _leaf(lib, t)
    view = r.choice(["slice", "mT", "flat", "none"])
    seen = {"slice": lambda: w[..., :1], "mT": lambda: w.mT, "flat": lambda: w.reshape(-1),
            "none": lambda: w}[view]()
    options = {"SGD": {"lr": 0.1, "momentum": r.choice([0.0, 0.9]), "weight_decay": r.choice([0.0, 0.01])},
               "Adam": {"lr": 0.01, "amsgrad": r.random() < 0.5}}[name]
    optimizer = getattr(lib.optim, name)([w], **options)
    for _ in range(2):
        optimizer.zero_grad()
        (seen * seen).sum().backward()
        optimizer.step()
    return w.detach(), seen.detach(), w.grad


def _grad_modes(lib, t, r):
    x = _leaf(lib, t)
    outer = r.choice(["no_grad", "enable_grad", "set_false", "set_true", "inference"])
    inner = r.choice(["no_grad", "enable_grad", "set_false", "set_true", "none"])
    modes = {"no_grad": lib.no_grad, "enable_grad": lib.enable_grad, "inference": lib.inference_mode,
             "set_false": lambda: lib.set_grad_enabled(False), "set_true": lambda: lib.set_grad_enabled(True)}
    with modes[outer]():
        y = x * 2
        if inner == "none":
            z = y + 1
        else:
            with modes[inner]():
                z = y + 1
        enabled = lib.is_grad_enabled()
    after = lib.is_grad_enabled()
    return y.requires_grad, z.requires_grad, enabled, after, z


def _retain(lib, t, r):
    x = _leaf(lib, t)
    y = x * 3
    y.retain_grad()
    z = y.exp() if r.random() < 0.5 else y[..., :1]
    if r.random() < 0.5:
        z.retain_grad()
    z.sum().backward(retain_graph=r.random() < 0.5)
    return x.grad, y.grad, z.grad, y.retains_grad, z.retains_grad, y.is_leaf


def _hook(lib, t, r):
    x = _leaf(lib, t)
    seen = []
    y = x * 2
    handle = y.register_hook(lambda g: seen.append(g.clone()) or (g * 10 if r.random() < 0.5 else None))
    if r.random() < 0.3:
        handle.remove()
    x.register_hook(lambda g: g + 1)
    (y * y).sum().backward()
    return x.grad, seen


def _requires(lib, t, r):
    x = t.detach().clone()
    x.requires_grad_(r.random() < 0.7)
    y = (x * 2).sum() if x.dtype.is_floating_point else x.sum()
    x.requires_grad_(False)
    z = x * 2
    return y.requires_grad, z.requires_grad, y


def _detach_view(lib, t, r):
    x = _leaf(lib, t)
    base = x * 1
    view = {0: lambda: base[..., :1], 1: lambda: base.mT, 2: lambda: base.reshape(-1)}[r.randrange(3)]()
    view.detach_()
    return view, base


# ---- writes, indexing, promotion, printing --------------------------------------------

def _out_wrong(lib, t, r):
    t = t.detach() if r.random() < 0.8 else t  # (out= with a tensor that requires grad: an error)
    dtype = r.choice([lib.int64, lib.float64, lib.bool, lib.float16, lib.int32])
    shape = r.choice([(0,), (1,), tuple(t.shape), (7,)])
    out = lib.zeros(shape, dtype=dtype)
    name = r.choice(["add", "exp", "sum", "mul", "neg", "floor", "matmul", "cumsum", "where"])
    calls = {"add": lambda: lib.add(t, 1, out=out), "exp": lambda: lib.exp(t, out=out),
             "sum": lambda: lib.sum(t, -1, out=out), "mul": lambda: lib.mul(t, 2.5, out=out),
             "neg": lambda: lib.neg(t, out=out), "floor": lambda: lib.floor(t, out=out),
             "matmul": lambda: lib.matmul(t, t.mT, out=out), "cumsum": lambda: lib.cumsum(t, 0, out=out),
             "where": lambda: lib.where(t > 0, t, 0.0, out=out)}
    result = calls[name]()
    return result, out, result is out


def _index_put(lib, t, r):
    x = t.detach().clone()
    n = x.shape[0] if x.dim() else 1
    index = lib.tensor([0, n - 1, 0, -n if n else 0])
    value = r.choice([1.5, 2, True])
    values = lib.full((4,) + tuple(x.shape[1:]), value).to(x.dtype)
    return x.index_put_((index,), values, accumulate=r.random() < 0.7)  # (repeats: one value)


def _index_add(lib, t, r):
    x = _leaf(lib, t) * 1
    n = x.shape[0] if x.dim() else 1
    source = lib.ones((3,) + tuple(x.shape[1:]), dtype=x.dtype)
    return x.index_add(0, lib.tensor([0, n - 1, 0]), source, alpha=r.choice([1, 2.5, -1]))


def _scatter(lib, t, r):
    x = t.detach().clone()
    index = lib.zeros_like(x, dtype=lib.long)
    if r.random() < 0.5:
        return x.scatter_add_(-1, index, lib.ones_like(x))
    return x.scatter_(-1, index, r.choice([2.0, 3]))


def _mask_index(lib, t, r):
    if t.dim() < 2:
        return t[t > 0] if r.random() < 0.5 else t[..., [-1, 0]]
    mask = t[:, 0] > 0
    return {0: lambda: t[mask, -1], 1: lambda: t[mask, 1:], 2: lambda: t[[-1, 0], ..., ::2],
            3: lambda: t[:, [-1, 0]], 4: lambda: t[mask][:, -1], 5: lambda: t[-1, [0, -1]],
            6: lambda: t[lib.tensor([-1]), None, 1:]}[r.randrange(7)]()


def _setitem(lib, t, r):
    x = t.detach().clone()
    value = r.choice([2.5, -1, 0, True])
    if x.dim() < 2:
        x[x > 0] = value
        return x
    mask = x[:, 0] > 0
    where = r.randrange(5)
    if where == 0:
        x[mask, -1] = value
    elif where == 1:
        x[[-1, 0], 1:] = value
    elif where == 2:
        x[..., [0, 0]] = lib.tensor(value).to(x.dtype)
    elif where == 3:
        x[mask] = x[mask].flip(0) if x.dtype.is_floating_point else x[mask]
    else:
        x[-1, ::2] = x[0, ::2]
    return x


def _where(lib, t, r):
    scalars = [1, 2.5, True, 0, -1.5]
    a, b = r.choice(scalars), r.choice(scalars)
    cond = t > 0
    kind = r.randrange(4)
    if kind == 0:
        return lib.where(cond, a, b)
    if kind == 1:
        return lib.where(cond, t, a)
    if kind == 2:
        return lib.where(cond, a, t)
    return t.where(cond, a)


NUMBERS = [2, -3, 2.5, True, False, 0, 1e10, -0.0, 2**40]


def _promote(lib, t, r):
    zero_dim = {0: lambda: t.sum(), 1: lambda: lib.tensor(3), 2: lambda: lib.tensor(2.5, dtype=lib.float64),
                3: lambda: lib.tensor(True), 4: lambda: lib.tensor(7, dtype=lib.uint8),
                5: lambda: lib.tensor(1.5, dtype=lib.float16)}[r.randrange(6)]()
    number = r.choice(NUMBERS)
    op = r.choice(["+", "-", "*", "/", "//", "%", "**", "<", "==", "&", "max", "rsub"])
    pair = (zero_dim, t) if r.random() < 0.5 else (zero_dim, number)
    x, y = pair if r.random() < 0.5 else pair[::-1]
    calls = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y, "/": lambda: x / y,
             "//": lambda: x // y, "%": lambda: x % y, "**": lambda: x ** y, "<": lambda: x < y,
             "==": lambda: x == y, "&": lambda: x & y,
             "max": lambda: lib.maximum(zero_dim, t), "rsub": lambda: lib.rsub(zero_dim, number)}
    return calls[op]()


def _promote_pair(lib, a, b, r):
    x, y = a.sum(), b
    if r.random() < 0.5:
        x, y = y, x
    op = r.choice(["add", "mul", "div", "sub", "pow", "atan2", "fmod", "cat"])
    calls = {"add": lambda: x + y, "mul": lambda: x * y, "div": lambda: x / y, "sub": lambda: x - y,
             "pow": lambda: x ** y, "atan2": lambda: lib.atan2(x, y), "fmod": lambda: lib.fmod(x, y),
             "cat": lambda: lib.cat([x.reshape(-1), y.reshape(-1)])}
    return calls[op]()


def _printed(lib, t, r):
    options = {}
    for key, values in (("precision", [0, 2, 6, 10]), ("sci_mode", [None, True, False]),
                        ("linewidth", [20, 80, 200]), ("threshold", [3, 1000]),
                        ("edgeitems", [1, 2, 3])):
        if r.random() < 0.5:
            options[key] = r.choice(values)
    scale = r.choice([1, 1e8, 1e-8, 1e20, 1e-20, 12345.678])
    lib.set_printoptions(**options)
    try:
        return repr(t * scale if t.dtype.is_floating_point else t), str(t), repr(t.mT if t.dim() >= 2 else t)
    finally:
        lib.set_printoptions(profile="default")


def _print_values(lib, t, r):
    values = [r.choice(PRINT_VALUES) for _ in range(r.choice([1, 3, 5, 8]))]
    dtype = r.choice([lib.float32, lib.float64, lib.float16])
    x = lib.tensor(values, dtype=dtype)
    if r.random() < 0.5:
        lib.set_printoptions(precision=r.choice([2, 4, 8]), sci_mode=r.choice([None, False, True]))
    try:
        return repr(x), repr(x.reshape(-1, 1)), str(x.sum())
    finally:
        lib.set_printoptions(profile="default")


def _unfold(lib, t, r):
    x = _signal(lib, t, 2, dims=2)
    kernel = r.choice([1, (1, 2)])
    stride = r.choice([1, 2]) if kernel == 1 else 1
    cols = lib.nn.functional.unfold(x, kernel, stride=stride)
    return cols, lib.nn.functional.fold(cols, tuple(x.shape[-2:]), kernel, stride=stride)


def _interpolate(lib, t, r):
    x = _signal(lib, t, 1)
    mode = r.choice(["nearest", "linear", "nearest-exact"])
    size = r.choice([None, 5])
    return lib.nn.functional.interpolate(x, size=size, scale_factor=None if size else 2.0, mode=mode,
                                         align_corners=(r.random() < 0.5) if mode == "linear" else None)


def _grad_of(lib, a, b, r):
    x, y = _leaf(lib, a), _leaf(lib, b)
    z = (x * y).sum() if r.random() < 0.5 else (x.sin() + y).sum()
    create = r.random() < 0.5
    grads = lib.autograd.grad(z, [x, y], create_graph=create, allow_unused=True)
    if create and grads[0] is not None and grads[0].requires_grad:
        second = lib.autograd.grad(grads[0].sum(), [x, y], allow_unused=True)
        return grads, second
    return grads
