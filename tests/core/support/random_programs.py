"""Random programs for ``programs/test_random_programs.py``: three leaves of random shapes
(empty, 0-dim and broadcastable ones among them) and dtypes (float32, float64, int64, bool),
then one to five steps, each a random op (of about 200: elementwise functions, reductions
along dims, shape ops, indexing, losses, linear algebra, in-place ops, printing) on tensors
made so far; finally a backward over every float result. Each program runs under PyTorch
and minigrad; ``one_program`` returns where they part: an error (type and text), a value
(dtype, shape, values to 1e-4, grad_fn name, printed text) or the leaves' gradients.

Written after the op-by-op suites, to find bugs where ops meet edge inputs: it found
trace's backward of a tall matrix, losses of empty inputs, 0-dim tensors in erf/gelu/...,
nonzero's strides, and some thirty error texts (see the commits of 2026-12-06)."""

import random
import re
import warnings

import numpy as np
import torch

import minigrad
from broad_programs import broad_ops, run_broad_binary, run_broad_unary
from deep_programs import deep_ops, run_deep_binary, run_deep_unary
from nnf_programs import nnf_ops, run_nnf_binary, run_nnf_unary

LIBS = (torch, minigrad)
KINDS = ["f32", "f32", "f32", "f64", "i64", "bool", "f32ng"]
FLOAT_KINDS = ["f32", "f32", "f64", "f32ng"]
# ``wide`` programs (``one_program(seed, WIDE_KINDS, wide=True)``): more dtypes, leaves that
# are views (transposed, every other element, expanded, an offset slice), and more ops
WIDE_KINDS = ["f32", "f32", "f64", "i64", "bool", "f16", "i32", "u8", "f32t", "f32s", "f32e",
              "f32o", "i64t"]
# ``deep`` programs (``one_program(seed, DEEP_KINDS, deep=True)``): nn.functional, autograd
# mid-program, writes, indexing, promotion and printing (deep_programs.py), over these
DEEP_KINDS = ["f32", "f32", "f32", "f64", "i64", "bool", "f16", "f32t", "f32s", "f32ng"]
# ``broad`` programs (``one_program(seed, BROAD_KINDS, broad=True)``, session 12): training
# steps, recurrent layers, attention, torch.func, higher orders, view chains, small int
# dtypes, ties and NaN, printing (broad_programs.py)
BROAD_KINDS = DEEP_KINDS + ["i8", "u8", "f32e"]
# ``nnf`` programs (``one_program(seed, NNF_KINDS, nnf=True)``, session 13): nn.functional's
# breadth (convolutions, pooling, padding, interpolation, the losses' options), indexing
# meeting autograd, the engine (hooks, custom Functions, checkpoint), printing options
NNF_KINDS = DEEP_KINDS
SHAPES = [(), (3,), (2, 3), (3, 1), (1, 3), (2, 3, 4), (2, 1, 4), (4,), (1,), (0,), (2, 0)]

def leaf(lib, r, shape, kind):
    rs = np.random.default_rng(r)
    if kind == "f32":
        a = rs.standard_normal(shape).astype(np.float32); return lib.tensor(a, requires_grad=True)
    if kind == "f64":
        a = rs.standard_normal(shape); return lib.tensor(a, requires_grad=True)
    if kind == "i64":
        return lib.tensor(rs.integers(-3, 4, shape))
    if kind == "bool":
        return lib.tensor(rs.integers(0, 2, shape).astype(bool))
    if kind == "f32ng":
        return lib.tensor(rs.standard_normal(shape).astype(np.float32))
    if kind == "f16":
        return lib.tensor(rs.standard_normal(shape).astype(np.float16), requires_grad=True)
    if kind == "i8":
        return lib.tensor(rs.integers(-100, 100, shape), dtype=lib.int8)
    if kind in ("i32", "u8"):
        return lib.tensor(rs.integers(0 if kind == "u8" else -3, 4, shape),
                          dtype=lib.int32 if kind == "i32" else lib.uint8)
    # views of a bigger leaf (require grad: their ops see a view's strides)
    base = lib.tensor(rs.standard_normal(tuple(reversed(shape)) if kind in ("f32t", "i64t")
                                         else shape + (2,) if kind == "f32s" else (3,) + shape)
                      .astype(np.float32), requires_grad=kind != "i64t")
    if kind == "i64t":
        return (base * 3).long().permute(tuple(reversed(range(base.dim()))))
    if kind == "f32t":
        return base.permute(tuple(reversed(range(base.dim()))))
    if kind == "f32s":
        return base[..., ::2].squeeze(-1)
    if kind == "f32e":
        return base[0][..., :1].expand(shape) if shape else base[0]
    return base[1] if shape else base[2]  # f32o: an offset into its base

def pick(r, pool, float_only=False):
    c = [i for i, t in enumerate(pool[0]) if (not float_only or t.dtype.is_floating_point)]
    return r.choice(c) if c else None

def dim_of(r, t):
    n = t.dim()
    if n == 0: return r.choice([0, -1])
    return r.randrange(-n, n)

# each op: (name, fn(lib, r, pool) -> (args for the lambda), lambda lib, *ts, **kw)
def ops():
    U = ["exp", "log", "sqrt", "abs", "sin", "cos", "tanh", "sigmoid", "relu", "neg", "reciprocal",
         "floor", "ceil", "round", "sign", "rsqrt", "log1p", "expm1", "square", "erf", "atan",
         "sinh", "asin", "trunc", "frac", "log2", "exp2", "logit", "isnan", "isfinite", "nan_to_num",
         "float", "double", "long", "int", "bool", "half", "t", "clone", "detach", "contiguous",
         "flatten", "ravel", "argmax", "argmin", "numel", "dim", "nonzero", "count_nonzero",
         "any", "all", "unique", "sort", "argsort", "cumsum", "softmax", "log_softmax", "norm", "std",
         "var", "mean", "sum", "prod", "max", "min", "amax", "amin", "logsumexp", "median", "mode",
         "msort", "relu6", "tolist", "item", "diag", "tril", "triu", "trace", "fliplr", "flipud",
         "sgn", "exp_", "abs_", "clamp_", "zero_", "fill_", "add_", "mul_", "sigmoid_", "relu_",
         "squeeze", "unsqueeze", "std_unbiased", "var_mean", "topk", "kthvalue", "cummax", "logcumsumexp",
         "repr", "str", "shape", "size", "stride", "is_contiguous", "T", "mT", "H", "real", "numpy"]
    B = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2", "eq", "lt", "ge", "ne",
         "floor_divide", "remainder", "fmod", "where", "matmul", "dot", "outer", "cat", "stack",
         "hypot", "copysign", "logaddexp", "xlogy", "lerp", "dist", "cross_", "masked_fill",
         "bitwise_and", "logical_and", "clamp_t", "true_divide", "rsub", "add_alpha", "div_floor",
         "div_trunc", "iadd", "imul", "isub", "itruediv", "expand_as", "broadcast_to", "mse",
         "l1", "huber", "bce_logits", "kl", "cos_sim", "allclose", "equal", "isclose", "radd", "rpow",
         "rtruediv", "gt_scalar", "mul_scalar_int", "pow_scalar", "heaviside", "fmax", "index_select",
         "gather", "take_along", "masked_select", "bool_index", "long_index", "setitem", "addcmul",
         "einsum_ij", "tensordot", "kron", "cdist", "mv", "bmm", "baddbmm"]
    return U, B

def wide_ops():
    """The ops only ``wide`` programs draw (after ``ops()``'s, so that other programs stay
    as they were)."""
    U = ["angle", "layout", "sum_dtype", "cumsum_dtype", "mean_dtype", "softmax_dtype",
         "amax_dims", "sum_dims_keep", "std_correction", "nansum", "nanmean", "aminmax",
         "cumprod", "cummin", "diff", "roll", "flip", "rot90", "repeat", "tile",
         "repeat_interleave", "view_flat", "t_sum", "permute_sum", "step_slice", "view_write",
         "t_inplace", "expand_write", "half", "half_ops", "int32_ops", "uint8_ops", "bool_sum",
         "print_sci", "print_precision", "print_big", "print_small", "print_inf", "print_long",
         "print_threshold", "out_sum", "out_exp", "out_add", "squeeze_dims", "movedim",
         "flatten_range", "unflatten", "narrow", "select", "where_number", "nonzero_tuple",
         "argsort_descending", "topk_smallest", "kthvalue_keep", "quantile", "count_nonzero_dims",
         "clone_preserve", "contiguous_stride", "storage_offset", "mT_stride", "exp_stride",
         "sum_stride", "sort_stride", "neg_", "sqrt_", "floor_", "clamp_min_", "pow_", "div_",
         "float_", "max_keep", "min_all", "logsumexp_dims", "norm_p", "var_unbiased",
         "renorm", "index_neg", "list_index", "ellipsis_none", "item_int", "bool_of"]
    B = ["add_out", "mul_half", "div_int", "pow_int", "iadd_view", "iadd_t", "copy_",
         "index_add", "scatter_add", "index_put", "masked_scatter", "maximum_int", "cat_dtypes",
         "stack_last", "where_mixed", "lerp_tensor", "addcdiv", "floor_divide", "remainder_int",
         "bitwise_or", "logical_xor", "eq_mixed", "clamp_both", "mm_t", "einsum_sum", "dot",
         "addmm", "setitem_mask", "setitem_step", "isub_number", "le_", "fmod_", "atan2_",
         "hypot_", "sub_alpha", "mul_bool", "div_mode_", "ne_number", "minimum_nan",
         "masked_fill_tensor", "where_", "cross_dim", "matmul_int", "outer_t"]
    return U, B


def run_wide_unary(lib, name, t, r):
    d = dim_of(r, t)
    kd = r.random() < 0.5
    n = t.dim()
    def printed(**options):
        lib.set_printoptions(**options)
        try:
            return repr(t)
        finally:
            lib.set_printoptions(profile="default")
    table = {
        "angle": lambda: t.angle(), "layout": lambda: str(t.layout),
        "sum_dtype": lambda: t.sum(d, dtype=lib.float64), "cumsum_dtype": lambda: t.cumsum(d, dtype=lib.float32),
        "mean_dtype": lambda: t.mean(dtype=lib.float64), "softmax_dtype": lambda: t.softmax(d, dtype=lib.float64),
        "amax_dims": lambda: t.amax((0, -1), keepdim=kd), "sum_dims_keep": lambda: t.sum((-1, 0), keepdim=kd),
        "std_correction": lambda: t.std(d, correction=0, keepdim=kd), "nansum": lambda: t.nansum(d),
        "nanmean": lambda: t.nanmean(d, keepdim=kd), "aminmax": lambda: lib.aminmax(t, dim=d, keepdim=kd),
        "cumprod": lambda: t.cumprod(d), "cummin": lambda: t.cummin(d), "diff": lambda: t.diff(dim=d),
        "roll": lambda: t.roll(1, d), "flip": lambda: t.flip(d), "rot90": lambda: t.rot90(1, (0, -1)),
        "repeat": lambda: t.repeat(*([2] + [1] * n)), "tile": lambda: t.tile((2,)),
        "repeat_interleave": lambda: t.repeat_interleave(2, dim=d),
        "view_flat": lambda: t.view(-1), "t_sum": lambda: t.mT.sum(-1, keepdim=kd),
        "permute_sum": lambda: t.permute(*reversed(range(n))).sum(0).view(-1),
        "step_slice": lambda: t[..., ::2], "view_write": lambda: _view_write(t),
        "t_inplace": lambda: _t_inplace(t), "expand_write": lambda: t.expand(2, *t.shape).add_(1),
        "half": lambda: t.half(), "half_ops": lambda: (t.half() * 3 + 1).sum(),
        "int32_ops": lambda: t.int() * 3 // 2, "uint8_ops": lambda: t.to(lib.uint8) - 1,
        "bool_sum": lambda: (t > 0).sum(d), "print_sci": lambda: printed(sci_mode=True),
        "print_precision": lambda: printed(precision=2), "print_big": lambda: repr(t * 1e6),
        "print_small": lambda: repr(t * 1e-6), "print_inf": lambda: repr(t / 0),
        "print_long": lambda: repr(t.long() * 10**10), "print_threshold": lambda: printed(threshold=3, edgeitems=1),
        "out_sum": lambda: lib.sum(t, d, keepdim=kd, out=lib.empty(0, dtype=t.sum(d).dtype)),
        "out_exp": lambda: lib.exp(t, out=lib.empty(0)), "out_add": lambda: lib.add(t, 1, out=lib.empty(t.shape, dtype=t.dtype)),
        "squeeze_dims": lambda: t.squeeze((0, -1)), "movedim": lambda: t.movedim(0, -1),
        "flatten_range": lambda: t.flatten(-2 if n > 1 else 0), "unflatten": lambda: t.unflatten(d, (1, -1)),
        "narrow": lambda: t.narrow(d, 0, 1), "select": lambda: t.select(d, -1),
        "where_number": lambda: lib.where(t > 0, t, 0.5), "nonzero_tuple": lambda: t.nonzero(as_tuple=True),
        "argsort_descending": lambda: t.argsort(d, descending=True), "topk_smallest": lambda: t.topk(1, d, largest=False),
        "kthvalue_keep": lambda: t.kthvalue(1, d, keepdim=True), "quantile": lambda: t.quantile(0.5, dim=d, keepdim=kd),
        "count_nonzero_dims": lambda: t.count_nonzero((0, -1)), "clone_preserve": lambda: t.clone().stride(),
        "contiguous_stride": lambda: t.contiguous().stride(), "storage_offset": lambda: t.storage_offset(),
        "mT_stride": lambda: t.mT.stride(), "exp_stride": lambda: t.exp().stride(),
        "sum_stride": lambda: t.sum(d, keepdim=kd).stride(), "sort_stride": lambda: t.sort(d).values.stride(),
        "neg_": lambda: t.clone().neg_(), "sqrt_": lambda: t.clone().sqrt_(), "floor_": lambda: t.clone().floor_(),
        "clamp_min_": lambda: t.clone().clamp_min_(0), "pow_": lambda: t.clone().pow_(2), "div_": lambda: t.clone().div_(2),
        "float_": lambda: t.float(), "max_keep": lambda: t.max(d, keepdim=True), "min_all": lambda: t.min(),
        "logsumexp_dims": lambda: t.logsumexp((0, -1)), "norm_p": lambda: t.norm(p=1, dim=d),
        "var_unbiased": lambda: t.var(unbiased=False), "renorm": lambda: t.renorm(2, 0, 1.0),
        "index_neg": lambda: t[-1], "list_index": lambda: t[[0, -1]], "ellipsis_none": lambda: t[..., None, :1],
        "item_int": lambda: int(t.sum()), "bool_of": lambda: bool(t.any()),
    }
    return table[name]()


def run_wide_binary(lib, name, a, b, r):
    table = {
        "add_out": lambda: lib.add(a, b, out=lib.empty(0, dtype=lib.result_type(a, b))),
        "mul_half": lambda: a.half() * b, "div_int": lambda: a.int() / b, "pow_int": lambda: a.long() ** b.long().abs(),
        "iadd_view": lambda: _iadd_view(a, b), "iadd_t": lambda: _iadd_t(a, b), "copy_": lambda: (a * 1).copy_(b),
        "index_add": lambda: (a * 1).index_add_(0, lib.tensor([0]), b[:1] if b.dim() else b),
        "scatter_add": lambda: (a * 1).scatter_add(-1, lib.zeros_like(b, dtype=lib.long), b),
        "index_put": lambda: (a * 1).index_put_((lib.tensor([0]),), b, accumulate=True),
        "masked_scatter": lambda: (a * 1).masked_scatter(a > 0, b),
        "maximum_int": lambda: lib.maximum(a, b.long()), "cat_dtypes": lambda: lib.cat([a, b.int()]),
        "stack_last": lambda: lib.stack([a, b], -1), "where_mixed": lambda: lib.where(a > 0, a, b.long()),
        "lerp_tensor": lambda: lib.lerp(a, b, a.sigmoid()), "addcdiv": lambda: lib.addcdiv(a, a, b, value=2),
        "floor_divide": lambda: lib.floor_divide(a, b), "remainder_int": lambda: a.long() % b.long(),
        "bitwise_or": lambda: a | b, "logical_xor": lambda: lib.logical_xor(a, b), "eq_mixed": lambda: a.long() == b,
        "clamp_both": lambda: a.clamp(b, b + 1), "mm_t": lambda: a.t() @ b, "einsum_sum": lambda: lib.einsum("...i,...i->...", a, b),
        "dot": lambda: lib.dot(a.flatten(), b.flatten()), "addmm": lambda: lib.addmm(a, a, b),
        "setitem_mask": lambda: _setitem_mask(a, b), "setitem_step": lambda: _setitem_step(a, b),
        "isub_number": lambda: _inplace(a, 2, "__isub__"), "le_": lambda: (a * 1).le_(b),
        "fmod_": lambda: (a * 1).fmod_(b), "atan2_": lambda: (a * 1).atan2_(b), "hypot_": lambda: (a * 1).hypot_(b),
        "sub_alpha": lambda: lib.sub(a, b, alpha=0.5), "mul_bool": lambda: a * (b > 0),
        "div_mode_": lambda: (a * 1).div_(b, rounding_mode="floor"), "ne_number": lambda: a != 0.5,
        "minimum_nan": lambda: lib.minimum(a / 0, b), "masked_fill_tensor": lambda: a.masked_fill(b > 0, lib.tensor(2.0)),
        "where_": lambda: a.where(b > 0, b), "cross_dim": lambda: lib.cross(a, b, dim=-1),
        "matmul_int": lambda: a.long() @ b.long(), "outer_t": lambda: lib.outer(a.flatten(), b.flatten()),
    }
    return table[name]()


def _view_write(t):
    c = t * 1 if t.dtype.is_floating_point else t.clone()
    c[..., :1].mul_(2)
    return c


def _t_inplace(t):
    c = t * 1 if t.dtype.is_floating_point else t.clone()
    c.mT.add_(1)
    return c


def _iadd_view(a, b):
    c = a * 1 if a.dtype.is_floating_point else a.clone()
    view = c[..., :1]
    view += b[..., :1] if b.dim() else b
    return c


def _iadd_t(a, b):
    c = a * 1 if a.dtype.is_floating_point else a.clone()
    c.mT.add_(b.mT)
    return c


def _setitem_mask(a, b):
    c = a.clone()
    c[c > 0] = b.sum() if b.numel() else 0.0
    return c


def _setitem_step(a, b):
    c = a.clone()
    c[..., ::2] = b[..., :1] if b.dim() else b
    return c


def run_unary(lib, name, t, r):
    d = dim_of(r, t)
    kd = r.random() < 0.5
    F = lib.nn.functional
    table = {
        "std_unbiased": lambda: t.std(d, unbiased=False) if t.dim() else t.std(unbiased=False),
        "squeeze": lambda: t.squeeze(d) if t.dim() else t.squeeze(),
        "unsqueeze": lambda: t.unsqueeze(d),
        "softmax": lambda: t.softmax(d), "log_softmax": lambda: F.log_softmax(t, dim=d),
        "cumsum": lambda: t.cumsum(d), "cummax": lambda: t.cummax(d).values,
        "logcumsumexp": lambda: t.logcumsumexp(d),
        "norm": lambda: t.norm(dim=d, keepdim=kd) if t.dim() else t.norm(),
        "std": lambda: t.std(d, keepdim=kd), "var": lambda: t.var(dim=d, keepdim=kd),
        "mean": lambda: t.mean(d, keepdim=kd), "sum": lambda: t.sum(d, keepdim=kd),
        "prod": lambda: t.prod(d, keepdim=kd), "max": lambda: t.max(d, keepdim=kd),
        "min": lambda: t.min(d), "amax": lambda: t.amax(d, keepdim=kd), "amin": lambda: t.amin(d),
        "logsumexp": lambda: t.logsumexp(d, keepdim=kd), "median": lambda: t.median(d),
        "mode": lambda: t.mode(d), "argmax": lambda: t.argmax(d, keepdim=kd),
        "argmin": lambda: t.argmin(), "sort": lambda: t.sort(d, descending=kd),
        "argsort": lambda: t.argsort(d), "topk": lambda: t.topk(1, d), "kthvalue": lambda: t.kthvalue(1, d),
        "var_mean": lambda: lib.var_mean(t, d),
        "any": lambda: t.any(d) if kd else t.any(), "all": lambda: t.all(),
        "unique": lambda: lib.unique(t, sorted=True, return_counts=True),
        "count_nonzero": lambda: lib.count_nonzero(t, d),
        "numel": lambda: t.numel(), "dim": lambda: t.dim(), "nonzero": lambda: t.nonzero(),
        "round": lambda: t.round(decimals=1) if kd else t.round(),
        "logit": lambda: t.sigmoid().logit(), "nan_to_num": lambda: (t / 0).nan_to_num(),
        "tolist": lambda: t.tolist(), "item": lambda: t.item(), "repr": lambda: repr(t), "str": lambda: str(t),
        "shape": lambda: t.shape, "size": lambda: t.size(d), "stride": lambda: t.stride(),
        "is_contiguous": lambda: t.is_contiguous(), "T": lambda: t.T, "mT": lambda: t.mT,
        "H": lambda: t.H, "real": lambda: t.real, "numpy": lambda: t.detach().numpy().tolist(),
        "relu6": lambda: F.relu6(t), "diag": lambda: t.diag(), "tril": lambda: t.tril(), "triu": lambda: t.triu(1),
        "trace": lambda: t.trace(), "fliplr": lambda: t.fliplr(), "flipud": lambda: t.flipud(),
        "exp_": lambda: (t * 1).exp_(), "abs_": lambda: (t * 1).abs_(), "clamp_": lambda: (t * 1).clamp_(-0.5, 0.5),
        "zero_": lambda: (t * 1).zero_(), "fill_": lambda: (t * 1).fill_(2),
        "add_": lambda: (t * 1).add_(1, alpha=2), "mul_": lambda: (t * 1).mul_(3),
        "sigmoid_": lambda: (t * 1).sigmoid_(), "relu_": lambda: (t * 1).relu_(),
        "sqrt": lambda: t.abs().sqrt() if kd else t.sqrt(), "log": lambda: t.abs().log() if kd else t.log(),
    }
    if name in table: return table[name]()
    return getattr(t, name)()

def run_binary(lib, name, a, b, r):
    F = lib.nn.functional
    s = r.choice([2, 0.5, -1, 3, True, 0])
    table = {
        "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "div": lambda: a / b,
        "pow": lambda: a.abs() ** b if a.dtype.is_floating_point else a ** b, "maximum": lambda: lib.maximum(a, b),
        "minimum": lambda: lib.minimum(a, b), "atan2": lambda: lib.atan2(a, b), "eq": lambda: a == b,
        "lt": lambda: a < b, "ge": lambda: a >= b, "ne": lambda: a != b, "floor_divide": lambda: a // b,
        "remainder": lambda: a % b, "fmod": lambda: lib.fmod(a, b), "where": lambda: lib.where(a > 0, a, b),
        "matmul": lambda: a @ b, "dot": lambda: lib.dot(a, b), "outer": lambda: lib.outer(a, b),
        "cat": lambda: lib.cat([a, b], dim=0), "stack": lambda: lib.stack([a, b]),
        "hypot": lambda: lib.hypot(a, b), "copysign": lambda: lib.copysign(a, b),
        "logaddexp": lambda: lib.logaddexp(a, b), "xlogy": lambda: lib.xlogy(a, b), "lerp": lambda: lib.lerp(a, b, 0.3),
        "dist": lambda: lib.dist(a, b), "cross_": lambda: lib.linalg.cross(a, b) ,
        "masked_fill": lambda: a.masked_fill(b > 0, 1.5), "bitwise_and": lambda: a & b,
        "logical_and": lambda: lib.logical_and(a, b), "clamp_t": lambda: a.clamp(min=b),
        "true_divide": lambda: lib.true_divide(a, b), "rsub": lambda: lib.rsub(a, b),
        "add_alpha": lambda: lib.add(a, b, alpha=2), "div_floor": lambda: lib.div(a, b, rounding_mode="floor"),
        "div_trunc": lambda: lib.div(a, b, rounding_mode="trunc"),
        "iadd": lambda: _inplace(a, b, "__iadd__"), "imul": lambda: _inplace(a, b, "__imul__"),
        "isub": lambda: _inplace(a, b, "__isub__"), "itruediv": lambda: _inplace(a, b, "__itruediv__"),
        "expand_as": lambda: a.expand_as(b), "broadcast_to": lambda: lib.broadcast_to(a, b.shape),
        "mse": lambda: F.mse_loss(a, b), "l1": lambda: F.l1_loss(a, b, reduction="sum"),
        "huber": lambda: F.huber_loss(a, b), "bce_logits": lambda: F.binary_cross_entropy_with_logits(a, b.sigmoid()),
        "kl": lambda: F.kl_div(a, b, reduction="batchmean"), "cos_sim": lambda: F.cosine_similarity(a, b, dim=-1),
        "allclose": lambda: lib.allclose(a, b), "equal": lambda: lib.equal(a, b), "isclose": lambda: lib.isclose(a, b),
        "radd": lambda: s + a, "rpow": lambda: s ** a, "rtruediv": lambda: s / a, "gt_scalar": lambda: a > s,
        "mul_scalar_int": lambda: a * 3, "pow_scalar": lambda: a ** s, "heaviside": lambda: lib.heaviside(a, b),
        "fmax": lambda: lib.fmax(a, b), "index_select": lambda: a.index_select(0, lib.tensor([0, 0, 1])),
        "gather": lambda: a.gather(-1, lib.zeros_like(b, dtype=lib.long)),
        "take_along": lambda: lib.take_along_dim(a, lib.zeros_like(b, dtype=lib.long), dim=-1),
        "masked_select": lambda: a.masked_select(b > 0), "bool_index": lambda: a[b > 0],
        "long_index": lambda: a[lib.tensor([0, -1])], "setitem": lambda: _setitem(a, b),
        "addcmul": lambda: lib.addcmul(a, a, b, value=0.5), "einsum_ij": lambda: lib.einsum("ij,jk->ik", a, b),
        "tensordot": lambda: lib.tensordot(a, b, dims=1), "kron": lambda: lib.kron(a, b),
        "cdist": lambda: lib.cdist(a, b), "mv": lambda: lib.mv(a, b), "bmm": lambda: lib.bmm(a, b),
        "baddbmm": lambda: lib.baddbmm(a, a, b),
    }
    return table[name]()

def _inplace(a, b, m):
    c = a * 1 if a.dtype.is_floating_point else a.clone()
    return getattr(c, m)(b)

def _setitem(a, b):
    c = a.clone()
    c[..., 0] = b[..., 0] if b.dim() else b
    return c

def describe(lib, v):
    if isinstance(v, (tuple, list)) and not isinstance(v, lib.Size):
        return ("seq", type(v).__name__ if type(v).__name__ not in ("return_types",) else "", [describe(lib, x) for x in v])
    if isinstance(v, lib.Tensor):
        gf = type(v.grad_fn).__name__ if v.grad_fn is not None else None
        arr = v.detach().numpy() if "bfloat16" not in str(v.dtype) else None
        text = re.sub(r"0x[0-9a-f]+", "0x", repr(v).replace("minigrad", "torch"))
        return ("T", str(v.dtype).split(".")[-1], tuple(v.shape), gf, v.requires_grad, arr, text)
    if isinstance(v, lib.Size): return ("Size", tuple(v))
    return ("py", type(v).__name__, v)

def same(a, b, tol, loose=False):
    """``loose`` (broad programs: whole layers and training steps, whose float32 sums
    round otherwise than PyTorch's vectorised kernels in the last bit): printed numbers
    may differ within ``tol``, if written the same way (as long, the same exponent)."""
    if type(a) != type(b): return False
    if loose and isinstance(a, str) and a != b:
        return _same_text(a, b, tol)
    if isinstance(a, np.ndarray):
        if a.shape != b.shape or a.dtype != b.dtype: return False
        if a.dtype.kind == "f":
            return np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
        return (a == b).all()
    if isinstance(a, float):
        return a == b or (a != a and b != b) or abs(a - b) <= tol * (1 + abs(a))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y, tol, loose) for x, y in zip(a, b))
    return a == b


def _same_text(a, b, tol):
    if NUM.sub("#", a) != NUM.sub("#", b):
        return False
    for x, y in zip(NUM.findall(a), NUM.findall(b)):
        mantissa, _, exponent = x.partition("e")
        unit = 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
        close = abs(float(x) - float(y)) <= max(1.5 * unit, 1e-6, 4e-6 * abs(float(x)))  # (by a digit)
        if len(x.lstrip("-")) != len(y.lstrip("-")) or exponent != y.partition("e")[2] or not close:
            return False
    return True

NUM = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?")
def one_program(seed: int, kinds=KINDS, wide: bool = False, deep: bool = False,
                broad: bool = False, nnf: bool = False) -> list:
    """Where PyTorch and minigrad part on program ``seed`` (an empty list: nowhere);
    ``wide``: draw from ``wide_ops()`` too (use with WIDE_KINDS); ``deep``: from
    ``wide_ops()`` and ``deep_ops()`` (use with DEEP_KINDS); ``broad``: from all of those
    and ``broad_ops()``, mostly the broad ones (use with BROAD_KINDS); ``nnf``: from
    those and ``nnf_ops()``, mostly the nnf ones (use with NNF_KINDS)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _one_program(seed, kinds, wide, deep, broad, nnf)


def _one_program(seed, kind_choices, wide=False, deep=False, broad=False, nnf=False):
    U, B = ops()
    if wide or deep or broad or nnf:
        more_U, more_B = wide_ops()
        U, B = U + more_U, B + more_B
    if deep:
        more_U, more_B = deep_ops()
        U, B = U + more_U * 4, B + more_B * 4  # (mostly the deep ones)
    if broad:
        deep_U, deep_B = deep_ops()
        more_U, more_B = broad_ops()
        U, B = U + deep_U + more_U * 12, B + deep_B + more_B * 30  # (mostly the broad ones)
    if nnf:
        deep_U, deep_B = deep_ops()
        more_U, more_B = nnf_ops()
        U, B = U + deep_U + more_U * 12, B + deep_B + more_B * 40  # (mostly the nnf ones)
    r0 = random.Random(seed)
    kinds = [r0.choice(kind_choices) for _ in range(3)]
    shapes = [r0.choice(SHAPES) for _ in range(3)]
    steps = [(r0.random() < 0.55, r0.randrange(10**9)) for _ in range(r0.randint(1, 5))]
    results = []
    for lib in LIBS:
        pools = [[leaf(lib, seed * 7 + i, shapes[i], kinds[i]) for i in range(3)]]
        log = []
        for unary, s in steps:
            r = random.Random(s)
            pool = pools[0]
            if unary:
                name = r.choice(U); a = pool[r.randrange(len(pool))]
                desc = (name, a.dtype, tuple(a.shape))
                try:
                    v = (run_unary if name in UNARY_NAMES else run_deep_unary if name in DEEP_UNARY
                         else run_broad_unary if name in BROAD_UNARY else run_nnf_unary
                         if name in NNF_UNARY else run_wide_unary)(lib, name, a, r)
                    err = None
                except Exception as e:
                    v, err = None, (type(e).__name__, str(e).split("\n")[0])
            else:
                name = r.choice(B); a = pool[r.randrange(len(pool))]; b = pool[r.randrange(len(pool))]
                desc = (name, a.dtype, tuple(a.shape), b.dtype, tuple(b.shape))
                try:
                    v = (run_binary if name in BINARY_NAMES else run_deep_binary if name in DEEP_BINARY
                         else run_broad_binary if name in BROAD_BINARY else run_nnf_binary
                         if name in NNF_BINARY else run_wide_binary)(lib, name, a, b, r)
                    err = None
                except Exception as e:
                    v, err = None, (type(e).__name__, str(e).split("\n")[0])
            log.append((str(desc).replace("minigrad.", "torch."), err, describe(lib, v) if err is None else None))
            for x in (v if isinstance(v, (tuple, list)) else [v]):
                if isinstance(x, lib.Tensor): pool.append(x)
        # backward over everything float requiring grad
        outs = [t for t in pools[0][3:] if isinstance(t, lib.Tensor) and t.requires_grad and t.dtype.is_floating_point]
        berr = None; grads = None
        try:
            if outs:
                total = sum((o.float().sum() if o.dtype != lib.float64 else o.sum().float()) for o in outs)
                total.backward()
            grads = [None if p.grad is None else (p.grad + 0).numpy()  # (+ 0: torch's ZeroTensor)
                     for p in pools[0][:3] if p.requires_grad]
        except Exception as e:
            berr = (type(e).__name__, str(e).split("\n")[0])
        results.append((log, berr, grads))
    (lt, bt, gt), (lm, bm, gm) = results
    problems = []
    for (dt, et, vt), (dm, em, vm) in zip(lt, lm):
        if et != em:
            problems.append(("error", dt, et, em)); break
        if et is None and not same(vt, vm, 1e-4, loose=broad or nnf):
            problems.append(("value", dt, _short(vt), _short(vm))); break
    if not problems:
        if bt != bm: problems.append(("backward error", bt, bm))
        elif gt is not None and not same(gt, gm, 1e-3, loose=broad or nnf): problems.append(("grads", [d for d, _, _ in lt]))
    return problems

def _short(v):
    s = repr(v)
    return s if len(s) < 400 else s[:400] + "..."


UNARY_NAMES, BINARY_NAMES = (set(names) for names in ops())
DEEP_UNARY, DEEP_BINARY = (set(names) for names in deep_ops())
BROAD_UNARY, BROAD_BINARY = (set(names) for names in broad_ops())
NNF_UNARY, NNF_BINARY = (set(names) for names in nnf_ops())
