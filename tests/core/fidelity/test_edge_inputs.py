"""Keyword arguments, empty tensors, integer and bool inputs, against PyTorch 2.13: torch
decides; where it raises, minigrad must raise the same; elsewhere results must agree
(values, dtype, shape, graph and gradients, see ``torch_compare.py``)."""

import pytest
import torch

from op_cases import case, X
from torch_compare import check, check_error, rand


B = rand((3,), seed=3)
MISC = {
    "clamp mixed": lambda lib, x, b: x.clamp(min=b, max=0.5),
    "clamp mixed2": lambda lib, x, b: x.clamp(min=-0.5, max=b),
    "where scalars": lambda lib, x, b: lib.where(x > 0, 1.0, 0.0),
    "where int scalars": lambda lib, x, b: lib.where(x > 0, 1, 0),
    "where tensor int": lambda lib, x, b: lib.where(x > 0, x, 2),
    "maximum number": lambda lib, x, b: lib.maximum(x, b.double()),
    "masked_fill inf": lambda lib, x, b: x.masked_fill(x > 0, float('inf')),
    "sum keepdim positional": lambda lib, x, b: x.sum(0, True),
    "mean neg dims": lambda lib, x, b: x.mean((-1, -2)),
    "std unbiased kw": lambda lib, x, b: x.std(dim=1, unbiased=False),
    "var keepdim kw": lambda lib, x, b: x.var(dim=0, keepdim=True),
    "softmax neg": lambda lib, x, b: lib.softmax(x, dim=-1),
    "max dim kw": lambda lib, x, b: lib.max(x, dim=1, keepdim=True),
    "argmax keepdim": lambda lib, x, b: x.argmax(dim=1, keepdim=True),
    "norm p kw": lambda lib, x, b: x.norm(p=1, dim=1),
    "norm p None": lambda lib, x, b: lib.norm(x, p=2),
    "flatten kw": lambda lib, x, b: x.flatten(start_dim=0, end_dim=-1),
    "transpose kw": lambda lib, x, b: x.transpose(dim0=0, dim1=1),
    "unsqueeze kw": lambda lib, x, b: x.unsqueeze(dim=1),
    "cat kw": lambda lib, x, b: lib.cat(tensors=[x, x], dim=1),
    "stack tuple": lambda lib, x, b: lib.stack((x, x), dim=0),
    "sum dim kw": lambda lib, x, b: x.sum(dim=1, keepdim=True),
    "logsumexp kw": lambda lib, x, b: x.logsumexp(dim=1, keepdim=True),
    "pow method tensor": lambda lib, x, b: x.abs().pow(b),
    "torch.pow tensor": lambda lib, x, b: lib.pow(x.abs(), b),
    "neg torch": lambda lib, x, b: lib.neg(x),
    "abs torch": lambda lib, x, b: lib.abs(x),
    "sub torch alpha": lambda lib, x, b: lib.sub(x, b, alpha=2),
    "add torch alpha": lambda lib, x, b: lib.add(x, b, alpha=2),
    "rsub tensor": lambda lib, x, b: b.__rsub__(x),
    "squeeze dim kw": lambda lib, x, b: x[None].squeeze(dim=0),
    "expand tuple": lambda lib, x, b: x.expand((2, 2, 3)),
    "view dtype-less": lambda lib, x, b: x.view(-1),
    "narrow kw": lambda lib, x, b: x.narrow(dim=1, start=0, length=2),
    "select kw": lambda lib, x, b: x.select(dim=1, index=0),
    "mm 0 size": lambda lib, x, b: x[:, :0] @ b[:0, None],
    "sum empty": lambda lib, x, b: x[:0].sum(),
    "mean empty": lambda lib, x, b: x[:0].mean(),
    "max dim empty": lambda lib, x, b: x[:, :0].max(0),
    "softmax empty": lambda lib, x, b: x[:0].softmax(0),
    "prod empty": lambda lib, x, b: x[:0].prod(),
    "norm empty": lambda lib, x, b: x[:0].norm(),
    "var empty": lambda lib, x, b: x[:0].var(),
    "logsumexp empty": lambda lib, x, b: x[:0].logsumexp(0),
    "matmul empty batch": lambda lib, x, b: x[None, :0] @ b,
    "median empty": lambda lib, x, b: x[:0].median(),
    "nanmedian empty": lambda lib, x, b: x[:0].nanmedian(),
    "median empty int": lambda lib, x, b: x[:0].long().median(),  # (NaN cast: -2**63)
    "nanmedian empty int32": lambda lib, x, b: x[:0].int().nanmedian(),
    "median bool": lambda lib, x, b: (x > 0).median(),
    "kthvalue bool": lambda lib, x, b: (x > 0).kthvalue(1),
    "median bool dim": lambda lib, x, b: (x > 0).median(0),
    "nanmedian bool dim": lambda lib, x, b: (x > 0).nanmedian(dim=1),
    # ('mean' losses of nothing: NaN, and an empty gradient; the norm 1 / n is infinite)
    "mse_loss empty": lambda lib, x, b: lib.nn.functional.mse_loss(x[:0], x[:0].detach()),
    "smooth_l1_loss empty": lambda lib, x, b: lib.nn.functional.smooth_l1_loss(x[:0], x[:0]),
    "huber_loss empty": lambda lib, x, b: lib.nn.functional.huber_loss(x[:0], x[:0].detach()),
    "soft_margin_loss empty": lambda lib, x, b: lib.nn.functional.soft_margin_loss(
        x[:0], x[:0].detach().sign()),
    "cat empty 2d": lambda lib, x, b: lib.cat([x[:0], x]),
    "exp int": lambda lib, x, b: (x > 0).long().exp(),
    "neg int": lambda lib, x, b: -(x > 0).long(),
    "abs bool": lambda lib, x, b: (x > 0).abs(),
    "relu bool": lambda lib, x, b: (x > 0).relu(),
    "sigmoid bool": lambda lib, x, b: (x > 0).sigmoid(),
    "sum bool dim": lambda lib, x, b: (x > 0).sum(1, keepdim=True),
    "max int dim": lambda lib, x, b: (x * 10).long().max(1),
    "min bool": lambda lib, x, b: (x > 0).min(),
    "clamp int float": lambda lib, x, b: (x * 10).long().clamp(min=0.5),
    "clamp int tensor": lambda lib, x, b: (x * 10).long().clamp(min=b),
    "maximum int float": lambda lib, x, b: lib.maximum((x * 10).long(), b),
    "where int float": lambda lib, x, b: lib.where(x > 0, (x * 10).long(), b),
    "matmul int": lambda lib, x, b: (x * 10).long() @ (b * 10).long(),
    "pow int tensor": lambda lib, x, b: (x * 10).long() ** (b > 0).long(),
    "div int int": lambda lib, x, b: (x * 10).long() / (b * 10 + 30).long(),
    "mul bool bool": lambda lib, x, b: (x > 0) * (b > 0),
    "add bool bool": lambda lib, x, b: (x > 0) + (b > 0),
    "add bool int": lambda lib, x, b: (x > 0) + 1,
    "t 0dim": lambda lib, x, b: x[0, 0].t(),
    "flatten 0dim": lambda lib, x, b: x[0, 0].flatten(0, 0),
}


@pytest.mark.parametrize("fn", list(MISC.values()), ids=list(MISC))
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_arguments_empty_tensors_and_dtypes(fn):
    try:
        fn(torch, torch.tensor(X), torch.tensor(B))
    except Exception:
        check_error(fn, X, B)
    else:
        check(fn, X, B)


OP_ERRORS = [
    case(lambda lib, x: x.long().requires_grad_(), X, id="requires-grad-int"),
]


@pytest.mark.parametrize("fn, arrays, options", OP_ERRORS)
def test_op_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)
