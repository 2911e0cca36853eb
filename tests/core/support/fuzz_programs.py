"""A small random-program generator over the API the README claims (the fuzz helper's, session 25):
each family returns program lines run by transcripts.transcript with torch and with
minigrad bound to ``torch``."""
import random
import sys

DT = ["torch.float32", "torch.float64", "torch.float16", "torch.int64", "torch.int32", "torch.bool", "torch.uint8"]
FDT = ["torch.float32", "torch.float64"]

def shape(r, nd=None):
    nd = r.choice([0, 1, 2, 2, 3]) if nd is None else nd
    return tuple(r.choice([0, 1, 1, 2, 3]) if r.random() < 0.15 else r.choice([1, 2, 3]) for _ in range(nd))

def vals(r, sh, kind="f"):
    import numpy as np
    n = 1
    for s in sh:
        n *= s
    if kind == "f":
        pool = [0.5, -1.25, 2.0, 3.0, -0.0, 0.0, 1e-3, 123.5, -7.75, 1.5]
    else:
        pool = [0, 1, 2, -3, 5]
    a = [r.choice(pool) for _ in range(n)]
    arr = np.array(a).reshape(sh)
    return repr(arr.tolist()) if sh else repr(a[0])

def leaf(r, name, sh=None, dt="torch.float32", rg=True):
    sh = shape(r) if sh is None else sh
    return "%s = torch.tensor(%s, dtype=%s%s)" % (name, vals(r, sh), dt, ", requires_grad=True" if rg else "")

UNARY = ["exp()", "tanh()", "sigmoid()", "relu()", "abs()", "sin()", "cos()", "neg()", "sign()",
         "clamp(-1, 1)", "clamp(min=0.25)", "sqrt()", "log()", "pow(2)", "reciprocal()", "mul(2)", "add(1)",
         "sub(0.5)", "div(3)", "t()", "T", "clone()", "contiguous()", "flatten()", "unsqueeze(0)",
         "squeeze()", "flip(0)", "sum()", "mean()", "sum(0)", "sum(-1, keepdim=True)", "prod()",
         "max()", "min()", "softmax(0)", "log_softmax(-1)", "cumsum(0)", "cumprod(0)", "norm()",
         "var()", "std()", "logsumexp(0)", "detach()", "view(-1)", "reshape(-1)", "exp_()", "mul_(2)",
         "add_(1)", "neg_()", "t_()", "squeeze_()", "unsqueeze_(0)", "transpose(0, -1)", "permute(*reversed(range(%s.dim())))",
         "expand(2, *%s.shape)", "narrow(0, 0, 1)", "select(0, 0)", "[0]", "[..., :1]", "[1:]", "[::2]",
         "[None]", "masked_fill(%s > 0, 0.5)", "clamp_(max=1.0)", "relu_()", "abs_()", "requires_grad_()",
         "detach_()", "retain_grad()", "float()", "double()", "half()", "long()", "int()", "bool()",
         "to(torch.float64)", "type(torch.float32)", "max(0).values", "min(-1)[0]", "argmax()", "all()", "any()",
         "maximum(%s)", "minimum(%s.flip(0))", "where(%s > 0, 1.0)", "masked_select(%s > 0)",
         "floor()", "ceil()", "round()", "round(decimals=1)", "trunc()", "frac()", "square()", "rsqrt()",
         "remainder(0.75)", "fmod(-1.5)", "floor_()", "square_()", "sum(axis=0, keepdims=True)",
         "mean(axis=-1)", "[range(1)]", "[[0, -1]]"]

BIN = ["+", "-", "*", "/", "**"]
SCAL = ["2", "-1", "0.5", "True", "0", "3.0", "float('inf')", "float('nan')", "-0.0", "10**3"]


def prog_chain(r):
    L = []
    sh = shape(r)
    dt = r.choice(FDT + ["torch.float32"] * 2)
    L.append(leaf(r, "a", sh, dt))
    L.append("x = a * 1")
    names = ["x"]
    for i in range(r.randint(1, 5)):
        src = r.choice(names)
        op = r.choice(UNARY)
        if "%s" in op:
            op = op.replace("%s", src)
        if op.startswith("["):
            e = src + op
        else:
            e = src + "." + op
        k = r.random()
        if k < 0.2:
            e = "%s %s %s" % (e, r.choice(BIN), r.choice(SCAL))
        elif k < 0.3:
            e = "%s %s %s" % (r.choice(SCAL), r.choice(BIN), e)
        elif k < 0.45:
            e = "%s %s %s" % (e, r.choice(BIN), r.choice(names))
        n = "y%d" % i
        L.append("%s = %s" % (n, e))
        L.append("show(%s)" % n)
        L.append("gfn(%s)" % n)
        names.append(n)
    last = names[-1]
    L.append("s = %s.float().sum() if %s.is_floating_point() else None" % (last, last))
    fin = r.choice(["s.backward()", "s.backward(retain_graph=True); s.backward()",
                    "g = torch.autograd.grad(s, [a], allow_unused=True); show(g)",
                    "g = torch.autograd.grad(s, [a], create_graph=True); show(g); gfn(g[0]); g[0].sum().backward()",
                    "s.backward(create_graph=True); show(a.grad); gfn(a.grad)",
                    "s.backward(); s.backward()",
                    "%s.backward(torch.ones_like(%s))" % (last, last)])
    L.append(fin)
    L.append("show(a.grad)")
    for n in names[1:]:
        L.append("show(%s.grad if %s.is_leaf or %s.retains_grad else None)" % (n, n, n))
    return L


def prog_setitem(r):
    L = [leaf(r, "a", (3, 2))]
    L.append("x = a * 1")
    idx = r.choice(["0", "1:", "[0, 2]", "torch.tensor([2, 0])", "x[:, 0] > 0", "(slice(None), 1)",
                    "torch.tensor([True, False, True])", "(torch.tensor([0, 1]), torch.tensor([1, 0]))",
                    "(..., 0)", "(0, 1)", "-1", "(torch.tensor(1), 0)", "torch.tensor([[0, 1]])", "None",
                    "(torch.tensor([0]), slice(None))", "torch.tensor([False, False, False])", "torch.tensor(True)"])
    val = r.choice(["0.5", "torch.tensor(2.0)", "b", "b[0]", "float('nan')", "torch.tensor([1.0, 2.0])", "7", "b.sum()",
                    "torch.tensor(3)", "torch.tensor(2.0, dtype=torch.float64)"])
    L.append(leaf(r, "b", (2,)))
    L.append("x[%s] = %s" % (idx, val))
    L.append("show(x)")
    L.append("gfn(x)")
    op = r.choice(["(x * x).sum()", "x.sum()", "(x * -1).sum()", "x.exp().mean()", "(x[%s] * 2).sum()" % idx])
    L.append("s = " + op)
    L.append(r.choice(["s.backward()", "s.backward(); s.backward()", "s.backward(create_graph=True); show(a.grad); gfn(a.grad); (a.grad*a.grad).sum().backward()"]))
    L.append("show(a.grad, b.grad)")
    return L


def prog_hooks(r):
    L = [leaf(r, "a", shape(r, r.choice([1, 2])))]
    L.append("x = a.exp()")
    L.append("y = x * 2")
    c = r.choice(["y.retain_grad()", "h = y.register_hook(lambda g: g * 3)", "h = y.register_hook(lambda g: None)",
                  "x.register_hook(lambda g: show(g))", "a.register_hook(lambda g: g + 1)",
                  "h = y.register_hook(lambda g: g * 3); h.remove()", "y.retain_grad(); y.register_hook(lambda g: g * 2)",
                  "y.register_hook(lambda g: g * 2); y.retain_grad()", "x.register_hook(lambda g: g.sum())",
                  "x.register_hook(lambda g: g.double())", "x.detach().register_hook(lambda g: g)",
                  "y.register_hook(1)", "x.retain_grad(); x.mul_(2)"])
    L.append(c)
    L.append("z = (y * x).sum()")
    L.append(r.choice(["z.backward()", "z.backward(retain_graph=True); z.backward()",
                       "show(torch.autograd.grad(z, [x, a]))", "show(torch.autograd.grad(z, [y], retain_graph=True))"]))
    L.append("show(a.grad)")
    L.append("show(y.grad if y.retains_grad else 'no')")
    L.append("show(x.grad if x.retains_grad else 'no')")
    return L


def prog_grad_mode(r):
    L = [leaf(r, "a", shape(r, 1))]
    ctx = ["torch.no_grad()", "torch.enable_grad()", "torch.set_grad_enabled(False)", "torch.set_grad_enabled(True)",
           "torch.inference_mode()"]
    c1, c2 = r.choice(ctx), r.choice(ctx)
    L.append("with %s:\n    with %s:\n        y = a * 2\n    z = y + a\n    w = a.exp()" % (c1, c2))
    L.append("show(y.requires_grad, z.requires_grad, w.requires_grad, torch.is_grad_enabled())")
    L.append("gfn(z)")
    L.append("show(y, z)")
    L.append("(z.sum() + w.sum()).backward() if (z.requires_grad or w.requires_grad) else None")
    L.append("show(a.grad)")
    return L


def prog_dtype(r):
    L = []
    d1, d2 = r.choice(DT), r.choice(DT)
    s1, s2 = shape(r), shape(r)
    L.append("p = torch.tensor(%s, dtype=%s)" % (vals(r, s1, "i"), d1))
    L.append("q = torch.tensor(%s, dtype=%s)" % (vals(r, s2, "f" if r.random() < 0.5 else "i"), d2))
    op = r.choice(["p + q", "p * q", "p - q", "p / q", "p ** q", "q ** 2", "p + 1.5", "p * True", "2 ** p",
                   "p > q", "p == q", "torch.maximum(p, q)", "torch.where(p > 0, p, q)", "p.sum()", "p.mean()",
                   "p.float() @ q.float()", "p.prod()", "p.cumsum(0)", "-p", "p.abs()", "p.exp()", "p.sqrt()",
                   "p.clamp(0, 1)", "p.max()", "p.argmax()", "torch.cat([p.flatten(), q.flatten()])", "p.sign()",
                   "p + q.sum()", "p.sum(dtype=torch.float64)" , "p.to(q.dtype)", "p.masked_fill(p > 0, 2.5)",
                   "p.softmax(0)", "p / 0", "p // 2", "p.relu()", "p.sigmoid()", "p.log()", "p.var()",
                   "torch.stack([p, q])", "p.norm()", "p.long().sum()", "p.all()", "p.any()", "p.min(0)",
                   "p.mul_(q)", "p.add_(0.5)", "p.div_(2)", "p.clamp_(min=0.5)", "p.copy_(q)", "p.fill_(2.5)",
                   "p[0] if p.dim() else p", "p.expand(3, *p.shape)", "p // q", "p % q", "torch.fmod(p, q)",
                   "p.floor()", "p.round(decimals=1)", "p.square()", "p % 2", "-7 // q", "p.rsqrt()",
                   "torch.div(p, q, rounding_mode='trunc')", "p.frac()", "p.sum(axis=0, keepdims=True)"])
    L.append("r_ = " + op)
    L.append("show(r_)")
    L.append("show(r_.dtype, r_.shape)")
    return L


LOSSES = ["F.mse_loss(x, t)", "F.cross_entropy(z, c)", "F.nll_loss(z.log_softmax(1), c)",
          "F.binary_cross_entropy_with_logits(x, t)", "F.cross_entropy(z, z.softmax(1).detach())",
          "F.cross_entropy(z, c, label_smoothing=0.2)", "F.cross_entropy(z, c, ignore_index=1)",
          "F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor([2.0, 0.5, 1.0]))",
          "F.nll_loss(z, c, weight=torch.tensor([1.0, 2.0, 0.5]))", "F.mse_loss(x, t.double())",
          "F.mse_loss(x, t[0])", "F.cross_entropy(z[0], c[0])", "F.cross_entropy(z, c.float())",
          "F.mse_loss(x, t.expand(2, 2, 3))", "F.cross_entropy(z, c + 5)", "F.nll_loss(z, c.int())"]


def prog_loss(r):
    L = [leaf(r, "x", (2, 3)), "t = torch.tensor(%s)" % vals(r, (2, 3)),
         leaf(r, "z", (2, 3)), "c = torch.tensor(%s)" % repr([r.randint(0, 2) for _ in range(2)])]
    red = r.choice(["'mean'", "'sum'", "'none'", "'foo'"])
    l = r.choice(LOSSES)
    L.append("l = " + l[:-1] + ", reduction=%s)" % red)
    L.append("show(l)")
    L.append("gfn(l)")
    L.append("l.sum().backward(create_graph=%s)" % r.choice(["True", "False"]))
    L.append("show(x.grad, z.grad)")
    return L


def prog_optim(r):
    L = ["torch.manual_seed(0)", leaf(r, "w", (2, 2)), leaf(r, "b", (2,))]
    o = r.choice(["optim.SGD([w, b], lr=0.1)", "optim.SGD([w, b], lr=0.1, momentum=0.9)",
                  "optim.SGD([w, b], lr=0.1, momentum=0.9, nesterov=True)",
                  "optim.SGD([w, b], lr=0.1, momentum=0.5, weight_decay=0.01, dampening=0.1)",
                  "optim.SGD([w, b], lr=0.1, nesterov=True)", "optim.Adam([w, b], lr=0.01)",
                  "optim.Adam([w, b], lr=0.01, amsgrad=True, weight_decay=0.1)", "optim.AdamW([w, b])",
                  "optim.Adam([w, b], betas=(0.5, 0.9), maximize=True)", "optim.RMSprop([w, b], lr=0.01, momentum=0.5, centered=True)",
                  "optim.SGD([w, b], lr=-1)", "optim.Adam([w, b], betas=(1.5, 0.9))", "optim.SGD([{'params': [w]}, {'params': [b], 'lr': 0.5}], lr=0.1)",
                  "optim.SGD([w, w])", "optim.Adam([w], eps=-1)"])
    L.append("o = " + o)
    for _ in range(3):
        L.append("o.zero_grad(set_to_none=%s)" % r.choice(["True", "False"]))
        L.append("((w @ torch.tensor([1.0, -2.0]) + b) ** 2).sum().backward()")
        L.append("o.step()")
        L.append("show(w, b)")
    L.append("show(sorted(o.state_dict()['state'][0].keys()))")
    L.append("show(o.state_dict()['param_groups'])")
    return L


PRINTS = ["torch.tensor([1e10, 1.0])", "torch.tensor([1e-10, 1.0])", "torch.tensor([float('inf'), -float('inf'), float('nan'), 1.0])",
          "torch.tensor([1, 2, 3])", "torch.tensor([True, False])", "torch.tensor(3.0, dtype=torch.float64)",
          "torch.tensor([], dtype=torch.float64)", "torch.zeros(0, 3)", "torch.tensor([1.5], dtype=torch.float16)",
          "torch.arange(2000.)", "torch.tensor([[1e-5, 1e5], [3.0, 4.0]])", "torch.tensor([123456789.0])",
          "torch.tensor([0.1, 0.25], requires_grad=True)", "torch.tensor([0.1, 0.25], requires_grad=True) * 2",
          "torch.tensor([1, 2], dtype=torch.int32)", "torch.tensor([1, 2], dtype=torch.uint8)", "torch.tensor(-0.0)",
          "torch.tensor([-0.0, 1.0])", "torch.tensor([1e-320, 1.0], dtype=torch.float64)", "torch.tensor([65504.0, 1e-4], dtype=torch.float16)",
          "torch.tensor([[[1.0]]], dtype=torch.float64, requires_grad=True).sum()", "torch.tensor([2.0**60])", "torch.tensor([1.0, 1e8])",
          "torch.tensor([100, 1000000000000])", "torch.tensor([0.5]).expand(3)", "torch.ones(2, 3).t()", "torch.tensor([1.0]).double().half()",
          "torch.tensor(float('nan'), requires_grad=True).exp()", "torch.tensor([1e-3, 1e3])", "torch.tensor([9.99999, 1.0])",
          "torch.tensor([1.0, 2.5]).requires_grad_().sum()", "torch.tensor([1,2]).float().requires_grad_().mean()",
          "torch.randn(3, 100).shape", "torch.tensor([[1.0, 2.0]], requires_grad=True).t()",
          "torch.tensor([1.0, 2.0], requires_grad=True)[0]", "torch.tensor([3.0], requires_grad=True).detach()",
          "torch.tensor(2.0, requires_grad=True).max(0)", "torch.tensor([[1.0, 2.0]]).max(1)", "torch.tensor([1.0,2.0]).dtype",
          "torch.tensor([1.0, 2.0], requires_grad=True).split(1)"]


def prog_print(r):
    e = r.choice(PRINTS)
    L = ["v = " + e, "show(v)", "print(str(v)) if False else show(str(v))"]
    if r.random() < 0.5:
        L.append("show(v * %s)" % r.choice(SCAL))
    return L


ERRS = ["torch.tensor([1.0]).backward()", "torch.tensor([1.0], requires_grad=True).backward()",
        "torch.tensor([1.0, 2.0], requires_grad=True).exp().backward()",
        "torch.ones(2, 3) + torch.ones(3, 2)", "torch.ones(2, 3) @ torch.ones(2, 3)", "torch.ones(2, 3).view(4)",
        "torch.ones(2, 3).t().view(6)", "torch.tensor([1, 2], requires_grad=True)", "torch.ones(3)[3]",
        "torch.ones(3)[torch.tensor([3])]", "torch.ones(2, 2, requires_grad=True).add_(1)",
        "torch.ones(2, requires_grad=True).sum().backward(torch.ones(2))", "torch.ones(2).sum(2)",
        "torch.ones(2).transpose(0, 2)", "torch.ones(2).expand(3)", "torch.ones(2, 3).expand(3, 3)",
        "torch.cat([torch.ones(2), torch.ones(2, 2)])", "torch.stack([torch.ones(2), torch.ones(3)])",
        "torch.ones(2).reshape(3)", "torch.ones(2, requires_grad=True).numpy()", "torch.ones(2).item()",
        "torch.ones(2, 3).squeeze(2)", "torch.ones(2).unsqueeze(3)", "torch.tensor([1.0]) + 'a'",
        "torch.autograd.grad(torch.ones(2, requires_grad=True).sum(), [torch.ones(2, requires_grad=True)])",
        "torch.ones(2).softmax(1)", "torch.ones(2, 2).mm(torch.ones(3, 3))", "torch.ones(2).dot(torch.ones(3))",
        "torch.tensor([[1, 2], [3]])", "torch.ones(2, dtype=torch.int64).mean()", "torch.ones(2).narrow(0, 1, 2)",
        "torch.ones(2).select(0, 5)", "torch.ones(2).flip(1)", "torch.ones(2).permute(1, 0)",
        "torch.ones(2).chunk(0)", "torch.ones(2).split(0)", "torch.ones(2, requires_grad=True).view(2, 1).t_()",
        "torch.ones(2).clamp()", "torch.ones(3).masked_fill(torch.ones(3), 1)", "torch.zeros(2).long().float().requires_grad_().long().requires_grad_()",
        "torch.ones(2).retain_grad()", "torch.ones(2).register_hook(lambda g: g)", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3]))",
        "F.mse_loss(torch.ones(2), torch.ones(3))", "torch.ones(2).norm(p='fro', dim=5)", "torch.ones(2).max(1)",
        "torch.ones(0).max()", "torch.ones(0).prod()", "torch.ones(2,3).var(5)", "torch.ones(2).cumsum(1)",
        "torch.tensor(1.0).item() + torch.ones(2, 2).item()", "torch.ones(2, 2).t_().t_().view(-1, -1)",
        "torch.ones(2)[None, None, None, 0, 0]", "torch.ones(2)[1.5]", "torch.ones(2)[[True]]",
        "torch.ones(2, requires_grad=True)[0].add_(1)", "torch.ones(2).exp_().requires_grad_().exp_()",
        "(lambda a: (a.exp().sum().backward(), a.exp().sum().backward(inputs=[])))(torch.ones(2, requires_grad=True))",
        "torch.ones(2).to('cuda')", "torch.ones(2, dtype=torch.float16).exp()", "torch.ones(2).pow(torch.ones(3))",
        "torch.ones(2, 3).sum(dim=(0, 0))", "torch.ones(2).float().int().mean()", "torch.ones(2, 2)[:, :, 0]",
        "torch.ones(3).where(torch.ones(3) > 0, torch.ones(2))", "torch.full((2,), 1.5).long().sqrt_()",
        "torch.tensor([1, 2]) / torch.tensor([0, 0])", "torch.tensor([1, 2]).div_(2)", "torch.tensor([1, 2]).exp_()",
        "torch.tensor(2).float().pow_(torch.tensor([1., 2.]))", "torch.ones(2, requires_grad=True).detach_()",
        "torch.ones(2).detach_()", "torch.ones(2, requires_grad=True).data.requires_grad", "torch.eye(2).inverse()"]


def prog_err(r):
    return ["v = " + r.choice(ERRS), "show(v)"]


def prog_views(r):
    L = [leaf(r, "a", (3, 4), r.choice(FDT))]
    L.append("x = a * 1" if r.random() < 0.7 else "x = a.detach().clone()")
    V = ["x[1:]", "x.t()", "x[:, 1]", "x[0]", "x.view(4, 3)", "x.transpose(0, 1)[1:]", "x[::2, ::2]", "x.unsqueeze(0)[0]",
         "x.split(2, 1)[0]", "x.unbind(0)[1]", "x.chunk(2)[1]", "x.narrow(1, 1, 2)", "x.select(1, 2)", "x.expand(2, 3, 4)[0]",
         "x.flatten()", "x.reshape(2, 6)", "x.permute(1, 0)", "x.T[0]", "x.detach()", "x[..., None]"]
    IP = ["mul_(2)", "add_(1)", "t_()", "zero_()", "fill_(0.5)", "exp_()", "neg_()", "copy_(torch.tensor(2.0))", "clamp_(0, 1)",
          "sigmoid_()", "relu_()", "div_(4)", "pow_(2)", "sub_(x.detach()[0, 0])", "masked_fill_(torch.tensor(True), 3.0)",
          "squeeze_()", "unsqueeze_(1)", "transpose_(0, -1)", "requires_grad_()", "detach_()", "__imul__(3)"]
    n = r.randint(1, 3)
    for i in range(n):
        v = r.choice(V)
        L.append("v%d = %s" % (i, v))
        L.append("v%d.%s" % (i, r.choice(IP)))
        if r.random() < 0.4:
            L.append("v%d.%s" % (i, r.choice(IP)))
        L.append("show(v%d, x)" % i)
        L.append("gfn(x)")
        L.append("gfn(v%d)" % i)
        L.append("show(v%d._base is x, v%d.is_leaf, v%d.requires_grad)" % (i, i, i))
    L.append("s = (x * torch.arange(12.).view(3, 4).to(x.dtype)).sum()")
    L.append(r.choice(["s.backward()", "show(torch.autograd.grad(s, [a]))", "s.backward(create_graph=True); gfn(a.grad); a.grad.sum().backward()"]))
    L.append("show(a.grad)")
    return L


def prog_data_change(r):
    """A non-leaf's array replaced under the graph (``b.data = ...`` of another dtype or
    shape, ``t_()`` under no_grad), then ops on it, retain_grad and hooks that return
    other dtypes, and a backward: PyTorch's nodes cast the gradients they send to what
    the tensor was when made (fuzz12)."""
    d = r.choice(FDT + ["torch.float16"])
    L = [leaf(r, "a", (2, 3), d), "b = a %s" % r.choice(["* 1", "+ 0.5", "[:]", ".exp()", ".t().t()"])]
    if r.random() < 0.3:
        L.append("c = b * 3")  # (a node made before the change)
    L.append(r.choice(["b.data = b.data.half()", "b.data = b.data.float()", "b.data = b.data.double()",
                       "b.data = torch.ones(3, 2, dtype=b.dtype)", "b.data = torch.ones(1, 3, dtype=b.dtype)",
                       "b.data = torch.ones(2, 3, dtype=torch.float64)", "b.data = b.data[:1].half()",
                       "with torch.no_grad():\n    b.t_()"]))
    for _ in range(r.randint(0, 2)):
        L.append(r.choice(["b.retain_grad()", "b.register_hook(lambda g: g.double())",
                           "b.register_hook(lambda g: g.float())", "b.register_hook(lambda g: show(g))",
                           "b.register_hook(lambda g: g * 2)"]))
    e = r.choice(["b.float()", "b * b", "b * 2", "b.sum()", "b.exp()", "b * torch.ones(3, dtype=torch.float32)",
                  "b + torch.ones(2, 3, dtype=torch.float64)", "b.double().tanh()", "b.half() * 2", "b[0]",
                  "b.t()", "b.mean(0)", "torch.cat([b, b])", "b.view(-1)", "b @ torch.ones(3, 2, dtype=b.dtype)"])
    L.append("e = (%s).sum()%s" % (e, " + c.sum()" if "c = b * 3" in L else ""))
    L.append(r.choice(["e.backward()", "show(torch.autograd.grad(e, [b, a]))", "e.backward(inputs=[b])",
                       "e.backward(create_graph=True)"]))
    L.append("show(a.grad, b.grad, b.dtype, b.shape)")
    return L


FAMS = [prog_chain, prog_setitem, prog_hooks, prog_grad_mode, prog_dtype, prog_loss, prog_optim, prog_print, prog_err, prog_views,
        prog_data_change]
