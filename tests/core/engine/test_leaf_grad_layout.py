"""The layout of a gradient, against PyTorch 2.13 live: a leaf's ``.grad`` takes the leaf's
own strides when the leaf is dense (torch's AccumulateGrad layout contract), else
row-major, and a retained gradient is row-major, whatever layout the backward formula
produced (a transposed view out of ``bmm``'s backward, say). Found by the broad random
programs (session 12): ``k.grad`` of ``q @ k.mT`` on 3-d tensors was transposed, so
``k.grad.view(-1)`` and ``as_strided`` on it differed from PyTorch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg


def _leaves(lib, arrays, layouts):
    out = []
    for array, layout in zip(arrays, layouts):
        if layout == "t":  # a dense leaf with transposed strides
            out.append(lib.tensor(np.ascontiguousarray(array.swapaxes(-1, -2))).mT.requires_grad_())
        else:
            out.append(lib.tensor(array, requires_grad=True))
    return out


PROGRAMS = {
    "bmm with mT": lambda lib, a, b: (a @ b.mT).sin().sum(),
    "mm with t": lambda lib, a, b: (a[0] @ b[0].t()).sum(),
    "transpose product": lambda lib, a, b: (a.transpose(0, 2) * b.transpose(0, 2)).sum(),
    "permute exp": lambda lib, a, b: (a.permute(2, 0, 1).exp() @ b.permute(2, 1, 0)).sum(),
    "sdpa": lambda lib, a, b: lib.nn.functional.scaled_dot_product_attention(a, b, b).sum(),
    "expand": lambda lib, a, b: (a[:, :1].expand(2, 3, 4) * b).sum(),
}


@pytest.mark.parametrize("layouts", [("c", "c"), ("t", "c"), ("c", "t"), ("t", "t")])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_leaf_grad_strides_as_torch(name, layouts):
    rs = np.random.default_rng(0)
    arrays = [rs.standard_normal((2, 3, 4)).astype(np.float32) for _ in range(2)]
    seen = []
    for lib in (torch, mg):
        a, b = _leaves(lib, arrays, layouts)
        PROGRAMS[name](lib, a, b).backward()
        seen.append([(x.stride(), x.grad.stride(), x.grad.is_contiguous(), x.grad.numpy().tolist())
                     for x in (a, b)])
        if lib is mg:  # a second backward adds into the same layout
            PROGRAMS[name](lib, a, b).backward()
            assert [x.grad.stride() for x in (a, b)] == [s[1] for s in seen[0]]
    assert seen[0][0][:3] == seen[1][0][:3] and seen[0][1][:3] == seen[1][1][:3]
    np.testing.assert_allclose(seen[1][0][3], seen[0][0][3], rtol=1e-5, atol=1e-6)


def test_retained_grad_is_row_major_as_torch():
    a = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    seen = []
    for lib in (torch, mg):
        x = lib.tensor(a, requires_grad=True)
        y = x.t() * 1
        y.retain_grad()
        (y.t() * lib.tensor(a)).sum().backward()
        seen.append((y.stride(), y.grad.stride(), x.grad.stride(), y.grad.view(-1).tolist()))
    assert seen[0] == seen[1]


def test_grad_view_after_bmm_backward_as_torch():
    """(``p.grad.view(-1)``, as ``parameters_to_vector`` does, must not fail)"""
    rs = np.random.default_rng(1)
    q, k = rs.standard_normal((2, 3, 4)).astype(np.float32), rs.standard_normal((2, 5, 4)).astype(np.float32)
    seen = []
    for lib in (torch, mg):
        x, w = lib.tensor(q, requires_grad=True), lib.tensor(k, requires_grad=True)
        (x @ w.mT).relu().sum().backward()
        seen.append((w.grad.view(-1).tolist(), lib.nn.utils.parameters_to_vector([x, w]).shape))
    np.testing.assert_allclose(seen[1][0], seen[0][0], rtol=1e-5, atol=1e-6)
    assert tuple(seen[0][1]) == tuple(seen[1][1])


@pytest.mark.parametrize("made", ["zeros", "numpy", "transposed"])
@pytest.mark.parametrize("program", ["mul", "sin", "sum"])
def test_empty_leaf_grad_takes_the_leafs_strides_as_torch(made, program):
    """An empty leaf counts as dense: its .grad takes its strides (torch's zeros (1, 1), a
    NumPy array's (0, 0), a transposed one's); a retained empty gradient is row-major."""
    seen = []
    for lib in (torch, mg):
        def leaf():
            if made == "zeros":
                return lib.zeros(2, 0, requires_grad=True)
            if made == "numpy":
                return lib.tensor(np.zeros((2, 0), np.float32), requires_grad=True)
            return lib.zeros(0, 2).t().requires_grad_()
        f = {"mul": lambda x: (x * 2).sum(), "sin": lambda x: x.sin().sum(), "sum": lambda x: x.sum()}[program]
        x = leaf()
        f(x).backward()
        y = leaf() * 1
        y.retain_grad()
        f(y).backward()
        seen.append((x.grad.stride(), y.grad.stride()))
    assert seen[0] == seen[1]


CASTS = {
    "sum with dtype": lambda x: x.sum(0, dtype=torch_or(x).float32).cumprod(0),
    "float of a sum": lambda x: x.sum(0).float().exp(),
    "float then expand": lambda x: x.float().sum(1, keepdim=True).expand(2, 3) * 2,
    "double of a column": lambda x: (x[:, :1].double() * 3).expand(2, 2),
    "remainder then sum with dtype": lambda x: x.remainder(0.3).sum(0, dtype=torch_or(x).float64),
}


def torch_or(x):
    return torch if isinstance(x, torch.Tensor) else mg


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("name", sorted(CASTS))
def test_a_gradient_cast_to_its_inputs_dtype_is_laid_out_as_torch(name, transposed):
    """The engine casts a gradient to the dtype its input had (validate_outputs:
    ``grad.to(dtype)``, preserve_format): an expanded gradient (a sum's) becomes dense in
    its dims' order, not in NumPy's ``astype`` layout. Meet seeds 30147 and 31083: a
    float16 leaf's gradient through ``sum(dtype=torch.float32)`` was transposed."""
    seen = []
    for lib in (torch, mg):
        log = []
        x_ = lib.tensor([[0.25, -2.5, 1.0], [3.0, 0.5, -1.0]], dtype=lib.float16,
                        requires_grad=True)
        x = x_.mT.mT if not transposed else x_.mT[:2, :2].mT
        y = x * 1
        y.register_hook(lambda g: log.append((g.stride(), str(g.dtype))))
        out = CASTS[name](y)
        grad, = lib.autograd.grad(out.float().sum(), [x_])
        seen.append((log, grad.stride(), grad.tolist()))
    assert seen[1] == seen[0]


EMPTY_EXPANSIONS = {
    "sum": lambda x: x.sum(),
    "sum then float": lambda x: x.sum().float(),
    "double then sum": lambda x: x.double().sum(),
    "half then sum": lambda x: x.half().sum().float(),
    "cumprod": lambda x: x.cumprod(-1).sum(),
    "cumsum": lambda x: x.cumsum(0).sum(),
    "sum over a dim": lambda x: x.sum(0).sum(),
    "sum over the last dim": lambda x: x.sum(-1).sum(),
    "mean": lambda x: x.mean(),
    "exp then sum": lambda x: x.exp().sum(),
}


@pytest.mark.parametrize("shape", [(0, 3), (3, 0, 2)])
@pytest.mark.parametrize("name", sorted(EMPTY_EXPANSIONS))
def test_an_empty_inputs_expanded_gradient_keeps_strides_of_0_as_torch(name, shape):
    """A sum's gradient is ``grad.expand(shape)``: for an empty input, strides of 0, which
    torch's autograd.grad and hooks hand out as they are (through the formulas that pass a
    gradient on: a cast, cumprod/cumsum of an empty input, an unsqueeze); a new empty
    gradient (exp's) is row-major. NumPy gives every empty array strides of 0, so minigrad
    made both row-major (meet seeds 32888, 36000)."""
    seen = []
    for lib in (torch, mg):
        log = []
        x = lib.zeros(shape, requires_grad=True)
        y = x * 1
        y.register_hook(lambda g: log.append(g.stride()))
        grads = lib.autograd.grad(EMPTY_EXPANSIONS[name](y), [x, y])
        seen.append((log, [g.stride() for g in grads]))
    assert seen[1] == seen[0]


WHERE_FORMULAS = {
    "relu": lambda lib, x, y: x.relu(),
    "threshold": lambda lib, x, y: lib.nn.functional.threshold(x, 0.1, 20.0),
    "clamp": lambda lib, x, y: x.clamp(-1, 1),
    "clamp_min": lambda lib, x, y: x.clamp_min(0.0),
    "clamp_max": lambda lib, x, y: x.clamp(max=0.6),
    "where": lambda lib, x, y: lib.where(x > 0, x, y),
    "minimum": lambda lib, x, y: lib.minimum(x, y),
}


def _laid(lib, layout, rows):
    if layout == "row-major":
        return lib.tensor(rows, requires_grad=True)
    if layout == "transposed":
        return lib.tensor([list(column) for column in zip(*rows)]).t().detach().requires_grad_()
    return lib.tensor(rows[:1]).expand(2, 3).detach().requires_grad_()


_NUMPYS_COMPARISON = pytest.mark.xfail(strict=True, reason=(
    "minimum's formula compares x == y with NumPy, which lays out a transposed x beside a "
    "row-major y row-major, where torch's iterator follows x"))
LAYOUTS = ["row-major", "transposed", "expanded"]


@pytest.mark.parametrize("name, x_layout, grad_layout", [
    pytest.param(name, x_layout, grad_layout, marks=[_NUMPYS_COMPARISON] if (
        name == "minimum" and x_layout == "transposed") else [])
    for name in sorted(WHERE_FORMULAS) for x_layout in LAYOUTS for grad_layout in LAYOUTS])
def test_where_formulas_lay_out_gradients_as_torchs_iterator(name, x_layout, grad_layout):
    """Formulas written with where (clamp's, where's) or threshold_backward (relu's) give
    a gradient laid out as torch's iterator orders their operands (the condition, then the
    values; x, then grad), where NumPy lays out a result of operands of different layouts
    row-major (meet seed 37875: a float16 clamp's gradient)."""
    seen = []
    for lib in (torch, mg):
        x = _laid(lib, x_layout, [[0.5, -1.25, 2.0], [3.0, 0.5, -0.75]])
        y = _laid(lib, "row-major", [[1.5, -1.25, 0.25], [3.0, 2.0, -0.5]])
        grad = _laid(lib, grad_layout, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).detach()
        out = WHERE_FORMULAS[name](lib, x, y)
        grads = lib.autograd.grad(out, [x, y], grad, allow_unused=True)
        seen.append([None if g is None else (g.stride(), g.tolist()) for g in grads])
    assert seen[1] == seen[0]


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -2, -3])
def test_an_empty_sums_gradient_over_a_negative_dim_as_torch(dim):
    """SumBackward1 unsqueezes the gradient at the dim as given (negative too): for an
    empty input with torch's strides (random float programs, seed 100211: -1 failed)."""
    seen = []
    for lib in (torch, mg):
        x = lib.zeros(3, 0, 2, requires_grad=True)
        grad, = lib.autograd.grad(x.sum(dim).sum(), [x])
        seen.append((grad.shape, grad.stride()))
    assert seen[1] == seen[0]
