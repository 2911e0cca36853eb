"""Random programs where ops meet edge inputs (session 15's ``meet`` tier), for
``programs/test_meet_programs.py``.

The other tiers draw one op per step over a pool of leaves (random_programs.py), the
autograd machinery (semantic_programs.py) or whole layers (broad, nnf). These draw short
chains that hand one op's edge result to the next: integer and bool tensors through
promotion with Python numbers and 0-dim tensors of every dtype (and the in-place ops that
cannot cast back), int8/uint8/int16/int32 wrapping, float16 chains, empty tensors and
zero sizes through every reduction (with dims, keepdim, and out-of-range dims' errors),
inputs that are not contiguous (transposed, expanded, stepped, permuted, offset) into
elementwise ops, reductions and views (the result's strides compared), repeated indices
in index_put_/index_add_/scatter_add_/put_/gather then backward, where/masked ops with
broadcasting and NaN, comparisons and sorting with NaN, and printing of every result
(repr, str, tolist, item, format) at extremes.

A program is text (lines of Python), drawn from ``random.Random(seed)``, run line by line
with ``torch`` bound to PyTorch 2.13 and to minigrad. Every line runs, also after one
failed (bad input must leave the state as it was): its error (type and whole text),
its warnings and what it shows are recorded. ``one_meet_program(seed)`` returns where the
two transcripts part (an empty list: nowhere); ``program_text(seed)`` the program."""

from __future__ import annotations

import math
import random
import re
import warnings

import torch

import minigrad

# ---- what a program shows, and how two runs are compared ---------------------------------

ADDR = re.compile(r"0x[0-9a-f]+")
TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)\.?")
TOLERANCE = {"float16": 1e-3, "float32": 2e-6, "float64": 1e-12}


def text(s) -> str:
    return TRIGGERED.sub("", ADDR.sub("0x", str(s))).replace("minigrad", "torch")


def _safe(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 (compared with torch's)
        return ("raised", type(e).__name__, text(e))


def describe(lib, v):
    """What a learner sees of ``v``: a tensor's printed text, dtype, shape, strides,
    values (tolist), requires_grad, is_leaf and grad_fn name."""
    if isinstance(v, lib.Tensor):
        values = _safe(lambda: v.detach().tolist())
        return ("T", text(repr(v)), str(v.dtype), tuple(v.shape), _safe(lambda: _strides(v)),
                v.requires_grad, v.is_leaf, None if v.grad_fn is None else v.grad_fn.name(),
                values)
    if isinstance(v, lib.Size):
        return ("Size", tuple(v))
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, tuple(describe(lib, x) for x in v))
    if isinstance(v, lib.dtype):
        return ("dtype", str(v))
    if isinstance(v, float):
        return ("float", v)
    if v is None or isinstance(v, (bool, int, str)):
        return (type(v).__name__, text(v) if isinstance(v, str) else v)
    return ("py", type(v).__name__, text(repr(v)))


def _strides(t) -> tuple:
    """The strides of the dims of more than one element (the others' are PyTorch's choice
    of layout, which no value depends on)."""
    return tuple(s if n > 1 else None for n, s in zip(t.shape, t.stride()))


def transcript(src: str, lib) -> list:
    out: list = []

    def show(*values):
        out.append(("show",) + tuple(describe(lib, v) for v in values))

    def chain(t):
        """grad_fn's graph from ``t``, names and input numbers, a few levels deep."""
        def walk(f, depth):
            if f is None or depth > 5:
                return None
            return (f.name(), tuple((walk(n, depth + 1), i) for n, i in f.next_functions))
        out.append(("graph", walk(t.grad_fn, 0)))

    env = {"torch": lib, "F": lib.nn.functional, "show": show, "gfn": chain, "math": math}
    lib.set_grad_enabled(True)
    lib.set_printoptions(profile="default")
    warned_always = lib.is_warn_always_enabled()
    lib.set_warn_always(True)  # (PyTorch's warnings given once a process: every time here)
    try:
        for line in src.strip().split("\n"):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    exec(line, env)
                except Exception as e:  # noqa: BLE001 (the error is what is compared)
                    out.append(("raised", type(e).__name__, text(e)))
            given = sorted({(w.category.__name__, text(w.message)) for w in caught})
            if given:
                out.append(("warned", tuple(given)))
    finally:
        lib.set_warn_always(warned_always)
        lib.set_printoptions(profile="default")
        lib.set_grad_enabled(True)
    return out


def same(a, b) -> bool:
    """Equal, but for float values: within the dtype's tolerance (NaNs equal, zeros' signs
    compared)."""
    if isinstance(a, tuple) and len(a) == 9 and a and a[0] == "T":
        if not isinstance(b, tuple) or len(b) != 9 or a[:8] != b[:8]:
            return False
        tol = TOLERANCE.get(a[2].split(".")[-1])
        return _close(a[8], b[8], tol) if tol else a[8] == b[8]
    if isinstance(a, tuple) and len(a) == 2 and a[0] == "float":
        return isinstance(b, tuple) and len(b) == 2 and b[0] == "float" and _close(a[1], b[1], 1e-6)
    if isinstance(a, (tuple, list)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same(x, y) for x, y in zip(a, b)))
    return a == b


def _close(a, b, tol) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if a == 0 and b == 0:
            return math.copysign(1, a) == math.copysign(1, b)
        return a == b or abs(a - b) <= tol * max(abs(a), abs(b))
    return a == b


def one_meet_program(seed: int) -> list:
    """Where PyTorch and minigrad part on program ``seed``: [] or [(line's output number,
    torch's entry, minigrad's entry)]."""
    src = program_text(seed)
    theirs, ours = transcript(src, torch), transcript(src, minigrad)
    for k, (t, o) in enumerate(zip(theirs, ours)):
        if not same(t, o):
            return [(k, t, o)]
    if len(theirs) != len(ours):
        k = min(len(theirs), len(ours))
        return [(k, theirs[k:k + 1], ours[k:k + 1])]
    return []


# ---- drawing values --------------------------------------------------------------------

INTS = ["torch.int64", "torch.int32", "torch.int16", "torch.int8", "torch.uint8"]
FLOATS = ["torch.float32", "torch.float64", "torch.float16"]
DTYPES = FLOATS + INTS + ["torch.bool"]
SHAPES = [(), (1,), (3,), (2, 3), (3, 1), (1, 3), (2, 1, 3), (0,), (2, 0), (0, 3), (2, 2)]
FLOAT_VALUES = [0.5, -1.25, 2.0, 3.0, -0.0, 0.0, 1.5, -2.5, 0.25, 7.0]
EDGE_FLOATS = ["float('nan')", "float('inf')", "-float('inf')", "1e10", "-3e-7", "65504.0",
               "1e-5", "123456.75"]
INT_VALUES = {"torch.int64": [0, 1, 2, -3, 5, 9223372036854775807, -9223372036854775808, 100],
              "torch.int32": [0, 1, 2, -3, 5, 2147483647, -2147483648, 100],
              "torch.int16": [0, 1, 2, -3, 5, 32767, -32768, 100],
              "torch.int8": [0, 1, 2, -3, 5, 127, -128, 100],
              "torch.uint8": [0, 1, 2, 3, 5, 255, 128, 100]}


def _numel(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def values(r, shape, dtype, edges=0.0) -> str:
    """A nested list literal of ``shape`` for ``dtype`` (``edges``: the chance of each float
    being NaN, an infinity, a big or a small number)."""
    if dtype == "torch.bool":
        flat = [r.choice(["True", "False"]) for _ in range(_numel(shape))]
    elif dtype in INT_VALUES:
        pool = INT_VALUES[dtype]
        flat = [str(r.choice(pool[:5] if r.random() < 0.7 else pool)) for _ in range(_numel(shape))]
    else:
        flat = [r.choice(EDGE_FLOATS) if r.random() < edges else repr(r.choice(FLOAT_VALUES))
                for _ in range(_numel(shape))]
    return _nest(flat, shape)


def _nest(flat, shape) -> str:
    if not shape:
        return flat[0]
    if shape[0] == 0:
        return "[]"
    step = _numel(shape[1:])
    return "[" + ", ".join(_nest(flat[k * step:(k + 1) * step], shape[1:])
                           for k in range(shape[0])) + "]"


def leaf(r, name, shape=None, dtype=None, grad=None, edges=0.0, expand=True) -> list:
    """Lines making tensor ``name``: a leaf, or (half the time) a view of a bigger one
    that is not contiguous (transposed, expanded, stepped, permuted, at an offset)."""
    shape = r.choice(SHAPES) if shape is None else shape
    dtype = r.choice(DTYPES) if dtype is None else dtype
    floating = dtype in FLOATS
    grad = floating and r.random() < 0.7 if grad is None else grad and floating
    rg = ", requires_grad=True" if grad else ""
    layout = r.choice(["plain", "plain", "t", "expand", "step", "offset", "permute"])
    if layout == "expand" and not expand:
        layout = "plain"
    n = len(shape)
    if 0 in shape[1:] or 0 in shape and layout != "plain":
        return ["%s = torch.zeros(%s, dtype=%s%s)" % (name, shape, dtype, rg)]
    if layout == "t" and n >= 2:
        big = shape[:-2] + (shape[-1], shape[-2])
        return ["%s_ = torch.tensor(%s, dtype=%s%s)" % (name, values(r, big, dtype, edges), dtype, rg),
                "%s = %s_.transpose(-1, -2)" % (name, name)]
    if layout == "permute" and n >= 3:
        big = tuple(reversed(shape))
        return ["%s_ = torch.tensor(%s, dtype=%s%s)" % (name, values(r, big, dtype, edges), dtype, rg),
                "%s = %s_.permute(%s)" % (name, name, ", ".join(str(k) for k in reversed(range(n))))]
    if layout == "expand" and n >= 1 and shape[0] > 0:
        small = (1,) + shape[1:]
        return ["%s_ = torch.tensor(%s, dtype=%s%s)" % (name, values(r, small, dtype, edges), dtype, rg),
                "%s = %s_.expand(%s)" % (name, name, ", ".join(map(str, shape)))]
    if layout == "step" and n >= 1:
        big = shape[:-1] + (shape[-1] * 2,)
        return ["%s_ = torch.tensor(%s, dtype=%s%s)" % (name, values(r, big, dtype, edges), dtype, rg),
                "%s = %s_[..., ::2]" % (name, name)]
    if layout == "offset":
        big = (2,) + shape
        return ["%s_ = torch.tensor(%s, dtype=%s%s)" % (name, values(r, big, dtype, edges), dtype, rg),
                "%s = %s_[1]" % (name, name)]
    return ["%s = torch.tensor(%s, dtype=%s%s)" % (name, values(r, shape, dtype, edges), dtype, rg)]


def scalar(r) -> str:
    """A Python number or a 0-dim tensor of some dtype (promotion's other operand)."""
    return r.choice(["2", "-1", "0", "3", "300", "2**40", "-129", "0.5", "-2.5", "1e10", "True",
                     "False", "float('nan')", "float('inf')", "-0.0",
                     "torch.tensor(2)", "torch.tensor(-3, dtype=torch.int8)",
                     "torch.tensor(200, dtype=torch.uint8)", "torch.tensor(True)",
                     "torch.tensor(0.5)", "torch.tensor(1.5, dtype=torch.float64)",
                     "torch.tensor(2.0, dtype=torch.float16)", "torch.tensor([2])",
                     "torch.tensor(7, dtype=torch.int16)"])


def dim(r, n) -> str:
    """A dim for a tensor of ``n`` dims: mostly valid, now and then out of range."""
    if r.random() < 0.12:
        return str(r.choice([n, -n - 1, n + 1]))
    return str(r.randrange(-max(n, 1), max(n, 1)))


# ---- program families ------------------------------------------------------------------

REDUCTIONS = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "std",
              "var", "norm", "logsumexp", "all", "any", "nansum", "nanmean", "median",
              "nanmedian", "cumsum", "cumprod", "softmax", "log_softmax", "var_mean", "std_mean",
              "aminmax", "count_nonzero", "mode", "logcumsumexp", "cummax", "cummin", "sort",
              "argsort", "topk", "kthvalue", "msort", "unique", "diff"]


def reduction(r, x, n) -> str:
    name = r.choice(REDUCTIONS)
    d, kd = dim(r, n), r.choice(["True", "False"])
    form = r.random()
    if name in ("cumsum", "cumprod", "softmax", "log_softmax", "logcumsumexp", "cummax", "cummin",
                "argsort", "msort"):
        return "torch.%s(%s)" % (name, x) if name == "msort" else "%s.%s(%s)" % (x, name, d)
    if name in ("topk", "kthvalue"):
        return "%s.%s(%s, %s)" % (x, name, r.choice(["1", "2", "0"]), d)
    if name == "unique":
        return "torch.unique(%s, sorted=True, return_inverse=True, return_counts=True%s)" % (
            x, r.choice(["", ", dim=%s" % d]))
    if name == "diff":
        return "%s.diff(dim=%s)" % (x, d)
    if name == "norm":
        p = r.choice(["2", "1", "float('inf')", "0", "3", "-float('inf')"])
        return r.choice(["%s.norm(p=%s)" % (x, p), "%s.norm(p=%s, dim=%s, keepdim=%s)" % (x, p, d, kd),
                         "torch.linalg.vector_norm(%s, %s, dim=%s)" % (x, p, d)])
    if name in ("std", "var", "var_mean", "std_mean"):
        c = r.choice(["", ", correction=0", ", correction=2", ", unbiased=False"])
        call = "torch.%s(%s" % (name, x) if name in ("var_mean", "std_mean") else "%s.%s(" % (x, name)
        sep = "" if call.endswith("(") else ", "
        return r.choice([call + c.lstrip(", ") + ")" if sep == "" else call + c + ")",
                         call + sep + "%s, keepdim=%s%s)" % (d, kd, c)])
    if name == "count_nonzero":
        return "%s.count_nonzero(%s)" % (x, r.choice([d, "(0, -1)", ""]))
    if name == "aminmax":
        return r.choice(["%s.aminmax()" % x, "torch.aminmax(%s, dim=%s, keepdim=%s)" % (x, d, kd)])
    if form < 0.3 and name not in ("median", "nanmedian", "mode"):
        return "%s.%s()" % (x, name)
    if form < 0.4 and name in ("sum", "mean", "amax", "amin", "nansum", "logsumexp", "std", "var"):
        return "%s.%s(%s, keepdim=%s)" % (x, name, r.choice(["(0, -1)", "(0, 0)", "()", "[]", "(-1,)"]), kd)
    if form < 0.5 and name in ("sum", "mean", "prod", "nansum", "nanmean"):
        return "%s.%s(%s, dtype=%s)" % (x, name, d, r.choice(["torch.float64", "torch.int32", "torch.float16", "torch.bool"]))
    return "%s.%s(%s, keepdim=%s)" % (x, name, d, kd)


def prog_reduce(r) -> list:
    """Reductions of tensors that may be empty, of any dtype, with dims and keepdim, then
    backward and the gradient (empty tensors' reductions give identities, NaN or errors)."""
    shape = r.choice(SHAPES + [(0,), (2, 0), (0, 3), (3, 0, 2)])
    dtype = r.choice(FLOATS * 3 + DTYPES)
    # (not expanded: PyTorch 2.13's median of an expanded int32 tensor reads past it)
    L = leaf(r, "x", shape, dtype, edges=0.1, expand=False)
    for k in range(r.randint(1, 3)):
        src = "x" if k == 0 or r.random() < 0.5 else "y%d" % (k - 1)
        L.append("y%d = %s" % (k, reduction(r, src if src == "x" else "(%s[0] if isinstance(%s, tuple) else %s)" % (src, src, src), len(shape))))
        L.append("show(y%d)" % k)
    L += finish(r, ["y%d" % k for k in range(k + 1)])
    return L


BINARY = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "==", "<", ">=", "!="]
INPLACE = ["add_", "sub_", "mul_", "div_", "floor_divide_", "remainder_", "pow_", "bitwise_and_",
           "bitwise_or_", "clamp_", "fmod_", "lerp_", "copy_", "fill_", "masked_fill_"]
FUNCS = ["torch.maximum", "torch.minimum", "torch.fmax", "torch.fmin", "torch.atan2",
         "torch.where(%s > 0, %s, %s)", "torch.true_divide", "torch.floor_divide",
         "torch.remainder", "torch.fmod", "torch.hypot", "torch.copysign", "torch.logaddexp",
         "torch.xlogy", "torch.ldexp", "torch.float_power", "torch.bitwise_xor",
         "torch.logical_and", "torch.lt", "torch.isclose", "torch.eq", "torch.heaviside",
         "torch.lerp(%s, %s, 0.25)", "torch.clamp(%s, min=%s)", "torch.nextafter",
         "torch.result_type", "torch.promote_types(%s.dtype, torch.result_type(%s, %s))"]


def operand(r, names) -> str:
    return r.choice(names) if r.random() < 0.45 else scalar(r)


def prog_promote(r) -> list:
    """Integer, bool and float tensors through chains of operators, functions and in-place
    ops with Python numbers, 0-dim tensors and each other (wrapping, promotion, the
    in-place ops' cast errors)."""
    L = leaf(r, "a", r.choice(SHAPES[:7]), r.choice(DTYPES)) + \
        leaf(r, "b", r.choice([(), (3,), (1, 3), (2, 1, 3)]), r.choice(DTYPES))
    names = ["a", "b"]
    for k in range(r.randint(2, 5)):
        x, y = r.choice(names), operand(r, names)
        kind = r.random()
        if kind < 0.4:
            op = r.choice(BINARY)
            e = "%s %s %s" % (x, op, y) if r.random() < 0.7 else "%s %s %s" % (y, op, x)
        elif kind < 0.7:
            f = r.choice(FUNCS)
            e = f % (x, x, y) if f.count("%s") == 3 else f % (x, y) if "%s" in f else "%s(%s, %s)" % (f, x, y)
        else:
            op = r.choice(INPLACE)
            target = "%s.clone()" % x if r.random() < 0.7 else x
            if op in ("fill_",):
                e = "%s.%s(%s)" % (target, op, y)
            elif op == "masked_fill_":
                e = "%s.%s(%s > 0, %s)" % (target, op, x, y)
            elif op == "lerp_":
                e = "%s.%s(%s, 0.5)" % (target, op, y)
            else:
                e = "%s.%s(%s)" % (target, op, y)
        n = "c%d" % k
        L.append("%s = %s" % (n, e))
        L.append("show(%s)" % n)
        names.append(n)
    L += finish(r, names[2:])
    return L


SMALL = ["x + 200", "x - 100", "x * 3", "x * x", "-x", "x.abs()", "x.neg()", "x.sum()",
         "x.sum(0)", "x.cumsum(0)", "x.prod()", "x.cumprod(0)", "x ** 3", "x // -1", "x % -3",
         "x << 3", "x >> 1", "~x", "x.sign()", "x.square()", "x.mean()", "x.float().mean()",
         "x.max()", "x.argmax()", "x.sort(0)", "x.to(torch.int8)", "x.to(torch.uint8)",
         "x.to(torch.float16)", "x.double() * 2**60", "x.add_(250)", "x.mul_(2)", "x.sub_(1)",
         "x.div_(2, rounding_mode='floor')", "x.clamp(-5, 5)", "x.clamp(min=300)", "x.bitwise_not()",
         "x.abs_()", "x.neg_()", "x.pow_(2)", "x.long().prod()", "x.trace() if x.dim() == 2 else x.sum()",
         "torch.tensor(300, dtype=x.dtype)", "torch.full((2,), 300, dtype=x.dtype)",
         "torch.tensor([-1]).to(x.dtype)", "x.float().to(x.dtype)", "torch.arange(250, 260, dtype=x.dtype)",
         "x.fill_(-1)", "x.bincount() if x.dim() == 1 and x.dtype != torch.int8 else x.numel()",
         "x.view(torch.uint8) if x.dtype == torch.int8 else x.view(torch.int8) if x.dtype == torch.uint8 else x",
         "x.view(-1)", "x.sum(dtype=torch.uint8)", "x.cumsum(0, dtype=torch.int8)", "x * 0.5",
         "x / 0", "x // 0", "x % 0", "x.item()", "x.tolist()", "int(x.sum())", "x.float().std()",
         "torch.iinfo(x.dtype).max + x" , "x.histc(bins=3) if x.is_floating_point() else x.float().histc(bins=3)"]


def prog_small_ints(r) -> list:
    """int8, uint8, int16, int32 and int64 tensors through arithmetic that wraps, in-place
    ops, casts, reductions that widen and the errors of numbers out of range."""
    dtype = r.choice(INTS + INTS[3:])
    L = leaf(r, "x0", r.choice([(3,), (2, 3), (), (4,), (0,)]), dtype, grad=False)
    for k in range(r.randint(2, 4)):
        L.append("x = x0.clone()" if r.random() < 0.6 else "x = x0")
        L.append("s%d = %s" % (k, r.choice(SMALL)))
        L.append("show(s%d)" % k)
        L.append("show(x, x0)")
    return L


HALF = ["y.exp()", "y.sum()", "y.mean()", "y.softmax(-1)", "y.log_softmax(0)", "y.cumsum(0)",
        "y @ y.mT if y.dim() >= 2 else y @ y", "y.var()", "y.std(0)", "y.norm()", "y * 0.1",
        "y / 3", "y + 1e-4", "y * 1000", "y.sigmoid()", "y.tanh()", "y.sqrt()", "y.rsqrt()",
        "y.log()", "y.pow(2)", "y ** 0.5", "y.reciprocal()", "y.logsumexp(0)", "y.prod()",
        "y.cumprod(0)", "y.float()", "y.double()", "y.half()", "y.max()", "y.sort(0)",
        "y.relu()", "F.gelu(y)", "F.silu(y)", "F.softplus(y)", "F.layer_norm(y, y.shape[-1:])",
        "y.clamp(-1, 1)", "torch.where(y > 0, y, 0.5)", "y.masked_fill(y < 0, float('-inf'))",
        "y.sin()", "y.atan2(y + 1)", "torch.lerp(y, y.exp(), 0.3)", "y.addcmul(y, y, value=0.5)",
        "y.mean(0, keepdim=True)", "y.sum(0, dtype=torch.float32)", "y + torch.tensor(1.0)",
        "y * torch.tensor(2.5, dtype=torch.float64)", "y.erf()", "y.expm1()", "y.log1p()",
        "y.round(decimals=2)", "y.frac()", "y.remainder(0.3)", "y // 0.3", "y.fmod(0.7)",
        "y.to(torch.float16) + y.to(torch.float32)", "y.cos().abs().log()", "y.tan()"]


def prog_half(r) -> list:
    """float16 chains (torch computes most of them in float32 and rounds once), then
    backward, the gradients in float16."""
    L = leaf(r, "a", r.choice([(3,), (2, 3), (), (2, 2), (1,)]), "torch.float16", grad=True, edges=0.1)
    L.append("y = a * 1")
    for k in range(r.randint(2, 5)):
        L.append("y = %s" % r.choice(HALF))
        L.append("y = y[0] if isinstance(y, tuple) else y")
        L.append("show(y)")
    L += finish(r, ["y"])
    return L


STRIDED = ["x.exp()", "x * 2", "x + x", "x.sum(-1)", "x.mean(0, keepdim=True)", "x.clone()",
           "x.contiguous()", "x.view(-1)", "x.reshape(-1)", "x.flatten()", "x.t() if x.dim() <= 2 else x.mT",
           "x.unsqueeze(1)", "x.squeeze()", "x.cumsum(-1)", "x.softmax(-1)", "x.sort(-1).values",
           "x.argsort(0)", "x.max(-1)", "x.abs()", "x.clamp(0, 1)", "x.where(x > 0, 0)",
           "x.masked_fill(x > 0, 1)", "torch.empty_like(x).fill_(1)", "torch.zeros_like(x)",
           "x.to(torch.float64)", "x.to(torch.float32)", "x.float()", "x.long()", "x.bool()",
           "x.sign()", "x.neg()", "x.flip(-1)", "x.roll(1, -1)", "x.tril() if x.dim() >= 2 else x",
           "x[..., :1]", "x[..., ::-1] if False else x[..., 1:]", "x.narrow(-1, 0, 1)", "x.select(-1, 0)",
           "x.expand(2, *x.shape)", "x.repeat(2, *([1] * x.dim()))", "x.permute(*reversed(range(x.dim())))",
           "x.transpose(0, -1)", "x.movedim(0, -1)", "x.diagonal() if x.dim() >= 2 else x",
           "x @ x.mT if x.dim() >= 2 else x @ x", "torch.cat([x, x], -1)", "torch.stack([x, x], 1)",
           "x.unbind(-1)", "x.split(1, -1)", "x.chunk(2, -1)", "x.gather(-1, torch.zeros_like(x, dtype=torch.long))",
           "x.index_select(-1, torch.tensor([0, 0]))", "x[x > 0]", "x.nonzero()", "x.unique()",
           "x.mul_(2)", "x.add_(1)", "x.zero_()", "x.exp_()", "x.t_() if x.dim() <= 2 else x.transpose_(0, 1)",
           "x.unsqueeze_(0)", "x.data_ptr() == x.clone().data_ptr()",
           "x.is_contiguous()", "x.storage_offset()", "x.stride()",
           "torch.add(x, 1, out=torch.empty(0, dtype=x.dtype))", "x.new_empty(x.shape).shape",
           "x.clone(memory_format=torch.contiguous_format).stride()", "x.untyped_storage().nbytes()"]


def prog_strided(r) -> list:
    """Inputs that are not contiguous into elementwise ops, reductions, views, in-place
    ops and out= (the result's strides, whether a view may be taken, the write through
    an expanded tensor refused)."""
    shape = r.choice([(2, 3), (3, 1), (2, 1, 3), (3,), (2, 2), (0, 3), (1, 3)])
    dtype = r.choice(FLOATS * 2 + ["torch.int64", "torch.bool", "torch.uint8"])
    L = leaf(r, "x0", shape, dtype, grad=r.random() < 0.5)
    for k in range(r.randint(1, 4)):
        L.append("x = x0 * 1 if x0.requires_grad else x0")
        L.append("z%d = %s" % (k, r.choice(STRIDED)))
        L.append("show(z%d)" % k)
        L.append("show(x.is_contiguous(), x._version)")
    L += finish(r, ["z%d" % k for k in range(k + 1)])
    return L


INDEXED = [
    "x.index_put((torch.tensor(%s),), %s, accumulate=True)",
    "x.clone().index_put_((torch.tensor(%s),), %s, accumulate=True)",
    "x.index_add(0, torch.tensor(%s), %s)",
    "x.index_add(0, torch.tensor(%s), %s, alpha=-2)",
    "x.scatter_add(0, torch.tensor(%s).view(-1, *([1] * (x.dim() - 1))).expand(-1, *x.shape[1:]), %s)",
    "x.scatter(0, torch.tensor(%s).view(-1, *([1] * (x.dim() - 1))).expand(-1, *x.shape[1:]), %s, reduce='add')",
    "x.scatter_reduce(0, torch.tensor(%s).view(-1, *([1] * (x.dim() - 1))).expand(-1, *x.shape[1:]), %s, reduce='%s')",
    "x.clone().put_(torch.tensor(%s), %s.flatten(), accumulate=True)",
    "x.gather(0, torch.tensor(%s).view(-1, *([1] * (x.dim() - 1))).expand(-1, *x.shape[1:]))",
    "x[torch.tensor(%s)]",
    "x.index_select(0, torch.tensor(%s))",
    "x.take(torch.tensor(%s))",
    "x.index_fill(0, torch.tensor(%s), -1.5)",
    "x.index_copy(0, torch.tensor(%s), %s)",
    "torch.take_along_dim(x, torch.tensor(%s).view(-1, *([1] * (x.dim() - 1))), 0)",
    "x[torch.tensor(%s), ...] * 2",
    "x[[%s]]",
]


def prog_indexed(r) -> list:
    """Repeated (and negative, and out of range) indices into index_put_ with accumulate,
    index_add, scatter_add, scatter_reduce, put_, gather, take and advanced indexing, then
    backward through them."""
    shape = r.choice([(3,), (3, 2), (4, 2), (3, 1, 2)])
    dtype = r.choice(["torch.float32", "torch.float64", "torch.float32", "torch.int64", "torch.float16"])
    L = leaf(r, "a", shape, dtype, grad=True)
    L.append("x = a * 1 if a.requires_grad else a.clone()")
    for k in range(r.randint(1, 3)):
        idx = [r.choice([0, 0, 1, -1, 2, 3 if r.random() < 0.15 else 1]) for _ in range(r.randint(1, 4))]
        src_shape = (len(idx),) + shape[1:]
        L += leaf(r, "s%d" % k, src_shape, r.choice([dtype, dtype, "torch.float64", "torch.int64"]),
                  grad=r.random() < 0.6)
        form = r.choice(INDEXED)
        args = (repr(idx), "s%d" % k, r.choice(["sum", "prod", "mean", "amax", "amin"]))
        e = form % args[:form.count("%s")]
        L.append("y%d = %s" % (k, e))
        L.append("show(y%d)" % k)
    L += finish(r, ["y%d" % k for k in range(k + 1)], leaves=("a", "s0", "s1", "s2"))
    return L


NANS = ["torch.where(m, x, y)", "torch.where(m, x, 0.5)", "torch.where(m, 2, y)", "torch.where(x > y, x, y)",
        "x.masked_fill(m, float('nan'))", "x.masked_fill(m, torch.tensor(-1.0))", "x.masked_scatter(m, y.expand_as(x) if y.dim() <= x.dim() else y)",
        "x == y", "x < y", "x != x", "x.isnan()", "x.eq(float('nan'))", "torch.maximum(x, y)",
        "torch.minimum(x, y)", "torch.fmax(x, y)", "torch.fmin(x, y)", "x.max()", "x.argmax()",
        "x.max(-1)", "x.min(0)", "x.amax(-1)", "x.sort(-1)", "x.sort(0, descending=True)",
        "x.argsort(-1, stable=True)", "x.topk(1, -1)", "x.unique(return_counts=True)", "x.clamp(y)",
        "x.clamp(max=y)", "x.clamp(float('nan'), 1)", "x.nan_to_num()", "x.nan_to_num(0.0, 1e3, -1e3)",
        "x.median()", "x.nanmedian()", "x.nansum()", "x.nanmean()", "x.cummax(-1)", "x.logcumsumexp(-1)",
        "x.relu()", "x.sign()", "x.sgn()", "x.abs()", "x.floor()", "x.round()", "torch.isclose(x, y, equal_nan=True)",
        "torch.allclose(x, x, equal_nan=True)", "torch.equal(x, x)", "x.isinf()", "x.isfinite()",
        "x.isposinf() | x.isneginf()", "x.signbit()", "x.heaviside(y)", "torch.where(m)",
        "x[m]", "x.masked_select(m)", "m.sum()", "m.any(-1)", "m.all()", "(x > 0).float().mean()",
        "x.clamp_min(0).log()", "x.mul(m)", "x * (x > 0)", "torch.where(x.isnan(), 0., x)"]


def prog_nan(r) -> list:
    """Comparisons, masks and where with broadcasting and NaN, infinities and signed zeros,
    then backward through them."""
    sa, sb = r.choice([((2, 3), (3,)), ((3,), ()), ((2, 3), (2, 1)), ((3, 1), (1, 3)), ((2, 2), (2, 2))])
    L = leaf(r, "x0", sa, r.choice(["torch.float32", "torch.float64", "torch.float16"]), edges=0.3)
    L += leaf(r, "y0", sb, r.choice(["torch.float32", "torch.float64", "torch.int64"]), edges=0.3)
    L.append("x, y = x0 * 1 if x0.requires_grad else x0, y0 * 1 if y0.requires_grad else y0")
    L.append("m = %s" % r.choice(["x > 0", "y >= 0", "x.isnan()", "x != y", "torch.tensor(True)",
                                  "(x > 0) & (y < 1)", "torch.zeros_like(x, dtype=torch.bool)"]))
    for k in range(r.randint(1, 4)):
        L.append("w%d = %s" % (k, r.choice(NANS)))
        L.append("show(w%d)" % k)
    L += finish(r, ["w%d" % k for k in range(k + 1)], leaves=("x0", "y0", "x0_", "y0_"))
    return L


PRINT_VALUES = ["[1e-5, 1.0]", "[1e8, 1.0]", "[1e9, 1.0]", "[123456.0, 0.5]", "[1000.5, 0.001]",
                "[0.0001, 1000.0]", "[1e-4, 9999.0]", "[float('nan'), 1.0, float('inf')]",
                "[-float('inf'), 0.0, -0.0]", "[1.0, 2.0, 3.0]", "[0.1, 0.2]", "[1e-300, 1.0]",
                "[5e-324, 1.0]", "[1e308, -1e308]", "[65504.0, 6e-8]", "[2.0**53 + 1, 1.0]",
                "[9.5, 10.5, 11.5]", "[-1e-7, 1e7]", "[3.14159265358979]", "[1e15]", "[100000000.0]",
                "[12345678.9]", "[[1.0, 2e-5], [3e5, 4.0]]", "[0.5] * 7", "list(range(2000))",
                "[[0.001] * 30] * 3", "[1.0] * 1001"]
PRINT_INTS = ["[9223372036854775807, -9223372036854775808]", "[0, -1, 100000]", "[2**40, 3]",
              "[255, 0]", "[-128, 127]", "[1, 2, 3]", "list(range(-5, 1500))", "[True, False]"]


def prog_print(r) -> list:
    """Printing of results at extremes: repr, str, tolist, item, int/float, format, with
    print options (sci_mode, precision, threshold, linewidth), requires_grad and grad_fn
    suffixes, dtype suffixes, empty and 0-dim tensors."""
    L = []
    if r.random() < 0.6:
        v = r.choice(PRINT_VALUES)
        d = r.choice(FLOATS)
        L.append("v = torch.tensor(%s, dtype=%s%s)" % (v, d, r.choice(["", ", requires_grad=True"])))
    else:
        v = r.choice(PRINT_INTS)
        d = r.choice(INTS + ["torch.int64"] * 3)
        L.append("v = torch.tensor(%s).to(%s)" % (v, d))
    if r.random() < 0.4:
        L.append("torch.set_printoptions(%s)" % r.choice(
            ["sci_mode=True", "sci_mode=False", "precision=2", "precision=10", "threshold=5",
             "linewidth=20", "edgeitems=1, threshold=3", "profile='short'", "profile='full'",
             "precision=0", "sci_mode=False, precision=1"]))
    for _ in range(r.randint(1, 4)):
        e = r.choice(["v", "v * 2", "v / 3", "v * 1e6", "v * 1e-6", "v.sum()", "v[0]", "v[:0]",
                      "v.reshape(-1, 1)", "-v", "v.mean()" , "v.exp()", "v.t() if v.dim() == 2 else v[None]",
                      "v.float()", "v.double()", "v.half()", "v.long()", "v.max()", "v.unsqueeze(0)[:, :2]",
                      "v + 0.5", "v.sqrt()", "v.abs().log10()"])
        f = r.choice(["repr(%s)", "str(%s)", "%s.tolist()", "%s.item()", "int(%s)", "float(%s)",
                      "format(%s)", "'{:.3f}'.format(%s)", "'%%s' %% (%s,)", "bool(%s)", "%s.__format__('')",
                      "repr(%s.grad_fn)[:20]", "%s.numpy().tolist()"])
        L.append("show(%s)" % (f % ("(%s)" % e)))
    return L


def finish(r, names, leaves=("a", "b", "x", "x0", "a_", "b_", "x_", "x0_")) -> list:
    """A backward over the float results that need grad, the leaves' gradients shown
    (or an error, compared)."""
    kind = r.choice(["sum", "sum", "grad", "twice", "none"])
    if kind == "none":
        return []
    terms = " + ".join("_f(%s)" % n for n in names)
    L = ["_f = lambda t: (t.float().sum() if t.dtype != torch.float64 else t.sum().float()) "
         "if isinstance(t, torch.Tensor) and t.requires_grad and t.is_floating_point() "
         "else (_f(t[0]) if isinstance(t, tuple) and t else 0)",
         "_s = %s" % terms,
         "_ls = [t for t in [%s] if isinstance(t, torch.Tensor) and t.is_leaf and t.requires_grad]"
         % ", ".join("globals().get(%r)" % n for n in leaves)]
    if kind == "grad":
        L.append("show(torch.autograd.grad(_s, _ls, allow_unused=True)) if isinstance(_s, torch.Tensor) else None")
    else:
        L.append("_s.backward(retain_graph=%s) if isinstance(_s, torch.Tensor) else None" % (kind == "twice"))
        if kind == "twice":
            L.append("_s.backward() if isinstance(_s, torch.Tensor) else None")
        L.append("show([t.grad for t in _ls])")
    return L


FAMILIES = [prog_reduce, prog_promote, prog_small_ints, prog_half, prog_strided, prog_indexed,
            prog_nan, prog_print]


def program_text(seed: int) -> str:
    r = random.Random(seed)
    family = FAMILIES[seed % len(FAMILIES)]
    return "\n".join(family(r))
