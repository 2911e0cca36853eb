"""The ops of ``nnf`` random programs (``random_programs.one_program(seed, NNF_KINDS,
nnf=True)``, session 13), drawn besides the ordinary, wide and deep ones: what none of the
other tiers drew. nn.functional's breadth: conv1d/2d/3d with groups, dilation, stride and
'same'/'valid' padding, Conv modules with padding_mode reflect/replicate/circular,
conv_transpose2d with groups, dilation and output_padding, pooling in 1-3 dims with
ceil_mode, count_include_pad, divisor_override and return_indices meeting max_unpool,
adaptive pooling to odd sizes, lp_pool, F.pad in every mode and 1-3 dims, F.interpolate in
every mode with align_corners and scale factors, unfold/fold with dilation and padding,
pixel_unshuffle, channel_shuffle, one_hot, embedding with max_norm and
scale_grad_by_freq, embedding_bag's modes, and the losses with every reduction, weight,
ignore_index, label_smoothing and pos_weight (nll/cross_entropy of K dims, poisson and
gaussian nll, the margin losses, bce with weights, kl_div's batchmean). Indexing meeting
autograd: setitem with repeated index tensors then backward, index_put_ with accumulate,
writes into views of leaves (PyTorch's errors). Grad modes and the engine: backward twice,
retain_graph, module hooks that change inputs, outputs and gradients, custom
autograd.Functions (save_for_backward, mark_dirty, mark_non_differentiable,
needs_input_grad, once_differentiable), torch.utils.checkpoint. Printing options:
profiles, sci_mode, precision, linewidth with int, bool and summarised tensors.

Each op takes the step's ``random.Random`` (the same draws under both libraries)."""

from __future__ import annotations

import numpy as np


def nnf_ops():
    """The ops only ``nnf`` programs draw."""
    U = ["conv2d_more", "conv3d", "conv_padding_mode", "conv_transpose2d", "pool_unpool",
         "pool3d", "avg_pool_more", "adaptive_odd", "lp_pool", "pad_modes", "interpolate_modes",
         "fold_more", "pixel_unshuffle", "channel_shuffle", "embedding_more", "embedding_bag",
         "nll_kdim", "cross_entropy_kdim", "poisson_nll", "gaussian_nll", "margin_losses",
         "bce_weights", "kl_batchmean", "setitem_repeats", "index_put_accumulate",
         "leaf_view_write", "backward_twice", "module_hooks", "custom_function",
         "custom_dirty", "checkpoint", "print_profiles", "print_ints"]
    B = ["loss_pair", "index_pair", "hook_pair"]
    return U, B


def _array(r, shape, scale=1.0):
    rs = np.random.default_rng(r.randrange(2**31))
    return (rs.standard_normal(shape) * scale).astype(np.float32)


def _float(lib, t, grad=True):
    """A float leaf made of ``t``'s values (its own graph: the step may backward)."""
    x = t.detach().clone()
    x = x if x.dtype.is_floating_point else x.float()
    return x.requires_grad_() if grad else x


def _image(lib, t, channels, dims):
    """``t``'s values as a batch of one ``channels``-channel image of ``dims`` dims
    (4 or more values long on its last dim, repeated or cut to a fixed size)."""
    flat = _float(lib, t, grad=False).reshape(-1)
    sizes = {1: (7,), 2: (4, 5), 3: (3, 4, 5)}[dims]
    n = int(np.prod(sizes))
    base = flat if flat.numel() else lib.ones(1)
    reps = -(-n // base.numel())
    values = base.repeat(reps)[:n] + lib.arange(n, dtype=base.dtype) / 8
    x = lib.stack([values * (c + 1) - c for c in range(channels)]).reshape(1, channels, *sizes)
    return x.to(t.dtype if t.dtype.is_floating_point else lib.float32).detach().requires_grad_()


def _weight(lib, r, shape, dtype):
    return lib.tensor(_array(r, shape, 0.5)).to(dtype).requires_grad_()


def run_nnf_unary(lib, name, t, r):
    return {
        "conv2d_more": _conv2d, "conv3d": _conv3d, "conv_padding_mode": _conv_padding_mode,
        "conv_transpose2d": _conv_transpose2d, "pool_unpool": _pool_unpool, "pool3d": _pool3d,
        "avg_pool_more": _avg_pool_more, "adaptive_odd": _adaptive_odd, "lp_pool": _lp_pool,
        "pad_modes": _pad_modes, "interpolate_modes": _interpolate_modes, "fold_more": _fold_more,
        "pixel_unshuffle": _pixel_unshuffle, "channel_shuffle": _channel_shuffle,
        "embedding_more": _embedding_more, "embedding_bag": _embedding_bag, "nll_kdim": _nll_kdim,
        "cross_entropy_kdim": _cross_entropy_kdim, "poisson_nll": _poisson_nll,
        "gaussian_nll": _gaussian_nll, "margin_losses": _margin_losses, "bce_weights": _bce_weights,
        "kl_batchmean": _kl_batchmean, "setitem_repeats": _setitem_repeats,
        "index_put_accumulate": _index_put_accumulate, "leaf_view_write": _leaf_view_write,
        "backward_twice": _backward_twice, "module_hooks": _module_hooks,
        "custom_function": _custom_function, "custom_dirty": _custom_dirty,
        "checkpoint": _checkpoint, "print_profiles": _print_profiles, "print_ints": _print_ints,
    }[name](lib, t, r)


def run_nnf_binary(lib, name, a, b, r):
    return {"loss_pair": _loss_pair, "index_pair": _index_pair, "hook_pair": _hook_pair}[name](lib, a, b, r)


def _backward(y, *leaves):
    """y's gradient into the leaves (returned), y reduced by a weighted sum."""
    if y.requires_grad:
        (y * (y.detach() * 0 + 1).cumsum(-1) if y.dim() else y).sum().backward(retain_graph=True)
    return [None if x.grad is None else x.grad.clone() for x in leaves]  # (as they were then)


# ---- convolutions ----------------------------------------------------------------------

def _conv2d(lib, t, r):
    groups = r.choice([1, 2])
    x = _image(lib, t, 2, 2)
    padding = r.choice([0, 1, (1, 2), "same", "valid"])
    stride = 1 if padding == "same" else r.choice([1, 2, (2, 1)])
    dilation = r.choice([1, 2, (1, 2)])
    w = _weight(lib, r, (r.choice([2, 4]), 2 // groups, r.choice([1, 2, 3]), 2), x.dtype)
    b = _weight(lib, r, (w.shape[0],), x.dtype) if r.random() < 0.5 else None
    y = lib.nn.functional.conv2d(x, w, b, stride=stride, padding=padding, dilation=dilation,
                                 groups=groups)
    return y, *_backward(y, x, w)


def _conv3d(lib, t, r):
    x = _image(lib, t, 2, 3)
    w = _weight(lib, r, (2, 2 // r.choice([1, 2]), 2, r.choice([1, 2]), 2), x.dtype)
    groups = 2 // w.shape[1]
    y = lib.nn.functional.conv3d(x, w, stride=r.choice([1, 2]), padding=r.choice([0, 1, "valid"]),
                                 dilation=r.choice([1, (1, 1, 2)]), groups=groups)
    return y, *_backward(y, x, w)


def _conv_padding_mode(lib, t, r):
    dims = r.choice([1, 2])
    mode = r.choice(["zeros", "reflect", "replicate", "circular"])
    lib.manual_seed(r.randrange(100))
    conv = (lib.nn.Conv1d if dims == 1 else lib.nn.Conv2d)(
        2, 2, r.choice([2, 3]), padding=r.choice([1, 2, "same"]), padding_mode=mode,
        bias=r.random() < 0.5, dilation=r.choice([1, 2]))
    x = _image(lib, t, 2, dims).float()
    y = conv(x)
    return y, repr(conv), *_backward(y, x, conv.weight)


def _conv_transpose2d(lib, t, r):
    x = _image(lib, t, 2, 2)
    groups = r.choice([1, 2])
    stride, dilation = r.choice([1, 2, (2, 3)]), r.choice([1, 2])
    output_padding = r.choice([0, 1]) if stride != 1 else 0
    w = _weight(lib, r, (2, r.choice([1, 2]), 2, 3), x.dtype)
    y = lib.nn.functional.conv_transpose2d(x, w, stride=stride, padding=r.choice([0, 1]),
                                           output_padding=output_padding, groups=groups,
                                           dilation=dilation)
    return y, *_backward(y, x, w)


# ---- pooling ----------------------------------------------------------------------------

def _pool_unpool(lib, t, r):
    dims = r.choice([1, 2])
    F = lib.nn.functional
    x = _image(lib, t, 2, dims)
    kernel, stride = r.choice([2, 3]), r.choice([None, 1, 2])
    padding, ceil_mode = r.choice([0, 1]), r.random() < 0.5
    pool = F.max_pool1d if dims == 1 else F.max_pool2d
    y, indices = pool(x, kernel, stride, padding if padding * 2 <= kernel else 0,
                      ceil_mode=ceil_mode, return_indices=True)
    unpool = F.max_unpool1d if dims == 1 else F.max_unpool2d
    back = unpool(y, indices, kernel, stride, output_size=x.shape[-dims:] if r.random() < 0.5 else None)
    return y, indices, back, *_backward(back, x)


def _pool3d(lib, t, r):
    F = lib.nn.functional
    x = _image(lib, t, 1, 3)
    kernel, ceil_mode = r.choice([1, 2, (1, 2, 2)]), r.random() < 0.5
    if r.random() < 0.5:
        y = F.max_pool3d(x, kernel, stride=r.choice([None, 1]), ceil_mode=ceil_mode)
    else:
        y = F.avg_pool3d(x, kernel, ceil_mode=ceil_mode, count_include_pad=r.random() < 0.5,
                         divisor_override=r.choice([None, 3]))
    return y, *_backward(y, x)


def _avg_pool_more(lib, t, r):
    F = lib.nn.functional
    dims = r.choice([1, 2])
    x = _image(lib, t, 2, dims)
    kernel = r.choice([2, 3])
    options = dict(stride=r.choice([None, 1, 2]), padding=r.choice([0, 1]), ceil_mode=r.random() < 0.5,
                   count_include_pad=r.random() < 0.5)
    if dims == 2:
        options["divisor_override"] = r.choice([None, 2, 5])
    y = (F.avg_pool1d if dims == 1 else F.avg_pool2d)(x, kernel, **options)
    return y, *_backward(y, x)


def _adaptive_odd(lib, t, r):
    F = lib.nn.functional
    dims = r.choice([1, 2, 3])
    x = _image(lib, t, 2, dims)
    size = {1: r.choice([3, 5, 6, 9]), 2: r.choice([(3, 2), (5, None), 3, (1, 7)]),
            3: r.choice([(2, 3, 1), 2, (None, 3, 4)])}[dims]
    kind = r.choice(["avg", "max"])
    if kind == "avg":
        y = getattr(F, f"adaptive_avg_pool{dims}d")(x, size)
        return y, *_backward(y, x)
    y, indices = getattr(F, f"adaptive_max_pool{dims}d")(x, size, return_indices=True)
    return y, indices, *_backward(y, x)


def _lp_pool(lib, t, r):
    F = lib.nn.functional
    dims = r.choice([1, 2])
    x = _image(lib, t, 2, dims).abs().detach().requires_grad_()
    y = (F.lp_pool1d if dims == 1 else F.lp_pool2d)(x, r.choice([1, 2, 3.0]), r.choice([2, 3]),
                                                    stride=r.choice([None, 1]),
                                                    ceil_mode=r.random() < 0.5)
    return y, *_backward(y, x)


# ---- shapes: pad, interpolate, fold, shuffles ------------------------------------------------

def _pad_modes(lib, t, r):
    dims = r.choice([1, 2, 3])
    mode = r.choice(["constant", "reflect", "replicate", "circular"])
    x = _image(lib, t, 2, dims)
    if r.random() < 0.3:
        x = x[0].detach().requires_grad_()  # (unbatched)
    widths = tuple(r.choice([0, 1, 2] if mode != "constant" else [-1, 0, 1, 3])
                   for _ in range(2 * r.randint(1, dims)))
    options = {"value": r.choice([0.0, -2.5])} if mode == "constant" else {}
    y = lib.nn.functional.pad(x, widths, mode=mode, **options)
    return y, *_backward(y, x)


def _interpolate_modes(lib, t, r):
    dims = r.choice([1, 2, 3])
    mode = r.choice({1: ["nearest", "nearest-exact", "linear", "area"],
                     2: ["nearest", "nearest-exact", "bilinear", "bicubic", "area"],
                     3: ["nearest", "trilinear", "area", "nearest-exact"]}[dims])
    x = _image(lib, t, 1, dims)
    options = {}
    if mode in ("linear", "bilinear", "bicubic", "trilinear"):
        options["align_corners"] = r.choice([None, True, False])
    if r.random() < 0.5:
        options["size"] = r.choice([3, 6, 8]) if r.random() < 0.5 else tuple(
            r.choice([2, 5, 9]) for _ in range(dims))
    else:
        options["scale_factor"] = r.choice([0.5, 1.5, 2, 2.7])
        if mode not in ("area",) and r.random() < 0.5:
            options["recompute_scale_factor"] = r.choice([True, False])
    y = lib.nn.functional.interpolate(x, mode=mode, **options)
    return y, *_backward(y, x)


def _fold_more(lib, t, r):
    F = lib.nn.functional
    x = _image(lib, t, 2, 2)
    kernel, dilation = r.choice([2, (2, 3), 1]), r.choice([1, (1, 2)])
    padding, stride = r.choice([0, 1]), r.choice([1, 2])
    cols = F.unfold(x, kernel, dilation=dilation, padding=padding, stride=stride)
    back = F.fold(cols, x.shape[-2:], kernel, dilation=dilation, padding=padding, stride=stride)
    return cols, back, *_backward(back, x)


def _pixel_unshuffle(lib, t, r):
    x = _image(lib, t, 1, 2)[..., :4, :4].detach().requires_grad_()
    y = lib.nn.functional.pixel_unshuffle(x, 2)
    z = lib.nn.functional.pixel_shuffle(y, 2)
    return y, z, *_backward(y, x)


def _channel_shuffle(lib, t, r):
    x = _image(lib, t, 4, 1)
    y = lib.nn.ChannelShuffle(r.choice([1, 2, 4]))(x)
    return y, *_backward(y, x)


# ---- embeddings -------------------------------------------------------------------------

def _indices(lib, t, n):
    v = t.detach()
    v = v.abs() * 3 if v.dtype.is_floating_point else v.abs()
    return v.long().reshape(-1)[:6] % n if v.numel() else lib.tensor([0, n - 1])


def _embedding_more(lib, t, r):
    weight = lib.tensor(_array(r, (5, 3), 2.0), requires_grad=True)
    index = _indices(lib, t, 5)
    y = lib.nn.functional.embedding(index, weight, padding_idx=r.choice([None, 1, -2]),
                                    max_norm=r.choice([None, 1.0, 2.5]),
                                    norm_type=r.choice([2.0, 1.0]),
                                    scale_grad_by_freq=r.random() < 0.5)
    return y, weight.detach().clone(), *_backward(y, weight)


def _embedding_bag(lib, t, r):
    weight = lib.tensor(_array(r, (6, 3)), requires_grad=True)
    index = _indices(lib, t, 6)
    n = index.shape[0]
    last = r.random() < 0.3  # (include_last_offset: offsets end at n; short of it, torch's
    offsets = lib.tensor([0, n // 2] + [n] * last) if n > 1 else lib.tensor([0] + [n] * last)
    mode = r.choice(["sum", "mean", "max"])  # own backward reads past its gradient: a crash)
    per = lib.tensor(_array(r, (n,))) if mode == "sum" and r.random() < 0.5 else None
    y = lib.nn.functional.embedding_bag(index, weight, offsets, mode=mode, per_sample_weights=per,
                                        include_last_offset=last, padding_idx=r.choice([None, 0]))
    return y, *_backward(y, weight)


# ---- losses -----------------------------------------------------------------------------

REDUCTIONS = ["mean", "sum", "none"]


def _nll_kdim(lib, t, r):
    x = _image(lib, t, 3, r.choice([1, 2]))
    logp = x.log_softmax(1)
    target = lib.tensor(np.random.default_rng(r.randrange(99)).integers(0, 3, (1,) + tuple(x.shape[2:])))
    weight = lib.tensor([0.5, 2.0, 1.0]) if r.random() < 0.5 else None
    y = lib.nn.functional.nll_loss(logp, target, weight=weight, ignore_index=r.choice([-100, 1, 2]),
                                   reduction=r.choice(REDUCTIONS))
    return y, *_backward(y, x)


def _cross_entropy_kdim(lib, t, r):
    x = _image(lib, t, 3, r.choice([1, 2]))
    if r.random() < 0.5:
        target = lib.tensor(np.random.default_rng(r.randrange(99)).integers(0, 3, (1,) + tuple(x.shape[2:])))
        ignore = r.choice([-100, 0])
    else:
        target, ignore = lib.tensor(_array(r, tuple(x.shape))).softmax(1), -100
    weight = lib.tensor([1.0, 0.25, 2.0]) if r.random() < 0.5 else None
    y = lib.nn.functional.cross_entropy(x, target, weight=weight, ignore_index=ignore,
                                        reduction=r.choice(REDUCTIONS),
                                        label_smoothing=r.choice([0.0, 0.1, 0.6]))
    return y, *_backward(y, x)


def _poisson_nll(lib, t, r):
    x = _float(lib, t)
    target = (x.detach().abs() * 2).floor()
    y = lib.nn.functional.poisson_nll_loss(x, target, log_input=r.random() < 0.5,
                                           full=r.random() < 0.5, eps=r.choice([1e-8, 0.5]),
                                           reduction=r.choice(REDUCTIONS))
    return y, *_backward(y, x)


def _gaussian_nll(lib, t, r):
    x = _float(lib, t)
    var = (x.detach() * 0.5).abs() + r.choice([0.0, 0.1])
    if r.random() < 0.3 and x.dim():
        var = var[..., :1]
    y = lib.nn.functional.gaussian_nll_loss(x, x.detach().flip(-1) if x.dim() else x.detach() * 2,
                                            var, full=r.random() < 0.5, eps=r.choice([1e-6, 0.2]),
                                            reduction=r.choice(REDUCTIONS))
    return y, *_backward(y, x)


def _margin_losses(lib, t, r):
    F = lib.nn.functional
    x = _float(lib, t)
    x2 = x.reshape(-1, x.shape[-1]) if x.dim() > 1 else x.reshape(1, -1)
    reduction = r.choice(REDUCTIONS)
    kind = r.choice(["soft_margin", "hinge", "multi_margin", "multilabel_margin",
                     "multilabel_soft", "huber", "l1"])
    sign = (x.detach() > 0).float() * 2 - 1
    if kind == "soft_margin":
        y = F.soft_margin_loss(x, sign.flip(-1) if x.dim() else sign, reduction=reduction)
    elif kind == "hinge":
        y = F.hinge_embedding_loss(x, sign, margin=r.choice([1.0, 0.3]), reduction=reduction)
    elif kind == "multi_margin":
        classes = x2.shape[1]
        target = lib.arange(x2.shape[0]) % max(classes, 1)
        weight = lib.linspace(0.5, 2, classes) if r.random() < 0.5 else None
        y = F.multi_margin_loss(x2, target, p=r.choice([1, 2]), margin=r.choice([1.0, 0.5]),
                                weight=weight, reduction=reduction)
    elif kind == "multilabel_margin":
        target = lib.full(x2.shape, -1, dtype=lib.long)
        if x2.numel():
            target[:, 0] = x2.shape[1] - 1
        y = F.multilabel_margin_loss(x2, target, reduction=reduction)
    elif kind == "multilabel_soft":
        y = F.multilabel_soft_margin_loss(x2, (x2.detach() > 0).float(),
                                          weight=lib.ones(x2.shape[1]) * 0.5 if r.random() < 0.5 else None,
                                          reduction=reduction)
    elif kind == "huber":
        y = F.huber_loss(x, x.detach() * 0.3, delta=r.choice([0.5, 1.0, 2.0]), reduction=reduction)
    else:
        y = F.l1_loss(x, x.detach().flip(-1) if x.dim() else x.detach(), reduction=reduction)
    return y, *_backward(y, x)


def _bce_weights(lib, t, r):
    F = lib.nn.functional
    x = _float(lib, t)
    target = (x.detach() > 0.3).float()
    reduction = r.choice(REDUCTIONS)
    shape = tuple(x.shape[-1:]) if x.dim() else ()
    weight = lib.tensor(_array(r, shape)).abs() if r.random() < 0.5 else None
    if r.random() < 0.5:
        pos_weight = lib.tensor(_array(r, shape)).abs() + 0.5 if r.random() < 0.6 else None
        y = F.binary_cross_entropy_with_logits(x, target, weight=weight, pos_weight=pos_weight,
                                               reduction=reduction)
    else:
        y = F.binary_cross_entropy(x.sigmoid(), target, weight=weight, reduction=reduction)
    return y, *_backward(y, x)


def _kl_batchmean(lib, t, r):
    x = _float(lib, t)
    if x.dim() == 0:
        x = x.reshape(1).detach().requires_grad_()
    # (a target of its own: x's flip would cancel to rounding noise, float32 exp's ulps)
    target = lib.tensor(_array(r, tuple(x.shape))).softmax(-1)
    log_target = r.random() < 0.5
    y = lib.nn.functional.kl_div(x.log_softmax(-1), target.log() if log_target else target,
                                 reduction=r.choice(["batchmean", "mean", "sum", "none"]),
                                 log_target=log_target)
    return y, *_backward(y, x)


def _loss_pair(lib, a, b, r):
    F = lib.nn.functional
    x = _float(lib, a)
    other = b.detach()
    kind = r.choice(["mse", "smooth_l1", "cosine", "pairwise", "triplet"])
    reduction = r.choice(REDUCTIONS)
    if kind == "mse":  # (shapes that broadcast: torch's warning and result; else its error)
        y = F.mse_loss(x, other.to(x.dtype) if other.dtype.is_floating_point else other,
                       reduction=reduction)
    elif kind == "smooth_l1":
        y = F.smooth_l1_loss(x, other.float(), beta=r.choice([0.0, 0.5]), reduction=reduction)
    elif kind == "cosine":
        y = F.cosine_similarity(x, other.float(), dim=-1, eps=r.choice([1e-8, 0.5]))
    elif kind == "pairwise":
        y = F.pairwise_distance(x, other.float(), p=r.choice([1.0, 2.0, 3.0]), eps=1e-6,
                                keepdim=r.random() < 0.5)
    else:
        y = F.triplet_margin_loss(x, other.float(), x.detach().flip(-1) if x.dim() else x.detach(),
                                  margin=r.choice([1.0, 0.2]), p=r.choice([1, 2]),
                                  swap=r.random() < 0.5, reduction=reduction)
    return y, *_backward(y, x)


# ---- indexing meeting autograd -------------------------------------------------------------

def _setitem_repeats(lib, t, r):
    x = _float(lib, t)
    y = x * 1
    if y.dim() == 0:
        y[...] = 2.0
    else:
        n = y.shape[0]
        index = lib.tensor([0, n - 1, 0, -1]) if n else lib.tensor([], dtype=lib.long)
        value = r.choice([1.5, "tensor"])
        y[index] = (x[index].detach() * 3 if value == "tensor" else value) if n else y[index]
    return y, *_backward(y, x)


def _index_put_accumulate(lib, t, r):
    x = _float(lib, t)
    y = x * 2
    if y.dim() == 0:
        y = y.reshape(1)
    n = y.shape[0]
    index = (lib.tensor([0, 0, -1, n - 1]) if n else lib.tensor([], dtype=lib.long),)
    if y.dim() > 1 and r.random() < 0.5:
        index = index + (lib.tensor([0, -1, 0, 0]) if n else lib.tensor([], dtype=lib.long),)
    values = lib.tensor(_array(r, (len(index[0]),) + tuple(y.shape[len(index):])))
    values.requires_grad_()
    z = y.index_put(index, values, accumulate=r.random() < 0.7)
    return z, *_backward(z, x, values)


def _leaf_view_write(lib, t, r):
    x = _float(lib, t)
    kind = r.randrange(4)
    if kind == 0:
        x[..., :1] = 0.0  # (a leaf that requires grad written in place: torch's error)
    elif kind == 1:
        view = x.detach()[..., :1] if x.dim() else x.detach()
        view.add_(1)  # (allowed: the detached view shares the data)
        return x, view
    elif kind == 2:
        with lib.no_grad():
            x.mul_(2)
        return x, *_backward(x * x, x)
    else:
        y = x.view(-1) if x.dim() else x.reshape(1)
        z = y.exp()
        y.mul_(2)  # (exp saved its result, not y: backward still runs)
        return z, *_backward(z, x)
    return x


def _index_pair(lib, a, b, r):
    x = _float(lib, a)
    y = x * 1
    if y.dim() == 0:
        return y[None, ..., None], *_backward(y[None, ..., None], x)
    mask = b.detach() > 0 if b.shape == y.shape else y.detach() > 0
    kind = r.randrange(4)
    if kind == 0:
        y[mask] = r.choice([0.0, -1.0])
    elif kind == 1:
        y = y[mask]
    elif kind == 2:
        y = y[None, ..., -1:]
    else:
        y[..., lib.tensor([0, 0])] = y[..., lib.tensor([-1, -1])] * 2
    return y, *_backward(y, x)


# ---- the engine: backward twice, hooks, custom Functions, checkpoint ----------------------

def _backward_twice(lib, t, r):
    x = _float(lib, t)
    y = (x.sin() * x).sum() if r.random() < 0.5 else (x.exp() * 2).sum()
    y.backward(retain_graph=r.random() < 0.5)
    first = x.grad.clone()
    y.backward()  # (torch's error after a freed graph; else the sum of the two)
    return first, x.grad


def _module_hooks(lib, t, r):
    lib.manual_seed(r.randrange(50))
    x = _float(lib, t).reshape(-1, t.shape[-1] if t.dim() and t.shape[-1] else 1)
    layer = lib.nn.Linear(x.shape[-1], 2)
    seen = []
    kind = r.randrange(4)
    if kind == 0:
        handle = layer.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    elif kind == 1:
        handle = layer.register_forward_hook(lambda m, args, out: out + 1)
    elif kind == 2:
        handle = layer.register_full_backward_hook(
            lambda m, gin, gout: seen.append([None if g is None else g.clone() for g in gout]) or
            tuple(None if g is None else g * 3 for g in gin))
    else:
        handle = layer.register_forward_hook(lambda m, args, kwargs, out: out * kwargs.get("k", 1),
                                             with_kwargs=True) if False else \
            layer.register_forward_hook(lambda m, args, out: seen.append(out.shape) or None)
    y = layer(x)
    if r.random() < 0.3:
        handle.remove()
        y = layer(x) + y
    grads = _backward(y, x, layer.weight)
    return y, seen, *grads


def _custom_classes(lib):
    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x ** 3 * k

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2 * ctx.k if ctx.needs_input_grad[0] else None, None

    class SortOut(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            values, indices = x.sort(-1)
            ctx.mark_non_differentiable(indices)
            ctx.save_for_backward(indices)
            return values, indices

        @staticmethod
        def backward(ctx, grad, _):
            (indices,) = ctx.saved_tensors
            return lib.zeros_like(grad).scatter(-1, indices, grad)

    return Cube, SortOut


def _custom_function(lib, t, r):
    Cube, SortOut = _custom_classes(lib)
    x = _float(lib, t)
    if r.random() < 0.5:
        y = Cube.apply(x, r.choice([1.0, -2.0]))
        return y, y.requires_grad, *_backward(y, x)
    if x.dim() == 0:
        x = x.reshape(1).detach().requires_grad_()
    values, indices = SortOut.apply(x)
    return values, indices, indices.requires_grad, *_backward(values * values, x)


def _custom_dirty(lib, t, r):
    class AddOneInPlace(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = _float(lib, t)
    y = x * 1
    if r.random() < 0.3:
        z = AddOneInPlace.apply(x)  # (a leaf that requires grad: torch's error)
    else:
        z = AddOneInPlace.apply(y)
    return z, y, *_backward(z, x)


def _checkpoint(lib, t, r):
    x = _float(lib, t)
    lib.manual_seed(3)
    checkpoint = lib.utils.checkpoint.checkpoint

    def block(v):
        return (v.sin() * 2).tanh() + v

    y = checkpoint(block, x, use_reentrant=r.random() < 0.5)
    return y, *_backward(y, x)


def _hook_pair(lib, a, b, r):
    x, w = _float(lib, a), _float(lib, b)
    seen = []
    x.register_hook(lambda g: seen.append(("x", tuple(g.shape))) or g * 2)
    if r.random() < 0.5:
        w.register_post_accumulate_grad_hook(lambda p: seen.append(("w", tuple(p.grad.shape))))
    y = (x * 2).sum() + (w * w).sum()
    y.backward()
    return seen, x.grad, w.grad


# ---- printing -----------------------------------------------------------------------------

def _print_profiles(lib, t, r):
    options = {"profile": r.choice(["default", "short", "full"])}
    for key, values in (("precision", [1, 3, 12]), ("sci_mode", [True, False]),
                        ("linewidth", [30, 120]), ("threshold", [5, 50]), ("edgeitems", [1, 4])):
        if r.random() < 0.3:
            options[key] = r.choice(values)
    big = lib.arange(60, dtype=lib.float32).reshape(3, 20) * r.choice([1, 1e-5, 1e6, -0.5])
    lib.set_printoptions(**options)
    try:
        return repr(t), repr(big), repr(big.long()), repr(big > 10), str(t * 1e7 if t.is_floating_point() else t)
    finally:
        lib.set_printoptions(profile="default")


def _print_ints(lib, t, r):
    n = r.choice([5, 12, 1001, 2000])
    values = lib.arange(n) * r.choice([1, -7, 10**6, 3**30])
    shape = r.choice([(n,), (1, n), (n, 1)])
    x = values.reshape(shape)
    return (repr(x), repr(x.to(r.choice([lib.int8, lib.int16, lib.int32, lib.uint8, lib.bool]))),
            repr(x.float() / 3), repr(x[:0]), repr(lib.tensor(r.choice([0, -5, 2**40]))))
