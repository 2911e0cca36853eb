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

LIBS = (torch, minigrad)
KINDS = ["f32", "f32", "f32", "f64", "i64", "bool", "f32ng"]
FLOAT_KINDS = ["f32", "f32", "f64", "f32ng"]
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

def same(a, b, tol):
    if type(a) != type(b): return False
    if isinstance(a, np.ndarray):
        if a.shape != b.shape or a.dtype != b.dtype: return False
        if a.dtype.kind == "f":
            return np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
        return (a == b).all()
    if isinstance(a, float):
        return a == b or (a != a and b != b) or abs(a - b) <= tol * (1 + abs(a))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    return a == b

NUM = re.compile(r"-?\d+\.\d*(?:e[-+]\d+)?")
def one_program(seed: int, kinds=KINDS) -> list:
    """Where PyTorch and minigrad part on program ``seed`` (an empty list: nowhere)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _one_program(seed, kinds)


def _one_program(seed, kind_choices):
    U, B = ops()
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
                    v = run_unary(lib, name, a, r); err = None
                except Exception as e:
                    v, err = None, (type(e).__name__, str(e).split("\n")[0])
            else:
                name = r.choice(B); a = pool[r.randrange(len(pool))]; b = pool[r.randrange(len(pool))]
                desc = (name, a.dtype, tuple(a.shape), b.dtype, tuple(b.shape))
                try:
                    v = run_binary(lib, name, a, b, r); err = None
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
        if et is None and not same(vt, vm, 1e-4):
            problems.append(("value", dt, _short(vt), _short(vm))); break
    if not problems:
        if bt != bm: problems.append(("backward error", bt, bm))
        elif gt is not None and not same(gt, gm, 1e-3): problems.append(("grads", [d for d, _, _ in lt]))
    return problems

def _short(v):
    s = repr(v)
    return s if len(s) < 400 else s[:400] + "..."
