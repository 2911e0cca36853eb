"""Every backward formula records its nodes in PyTorch's order, compared with PyTorch
2.13 at test time for each node class in ``FORMULAS``: a program makes that node, then
differentiates it twice more (create_graph=True). The nodes a formula records are
listed in the order they were made (``_sequence_nr``), which decides the order in
which a later backward adds gradients up, and so the last bits of third derivatives;
the graphs and values of every order are compared too.

``PROGRAMS`` must name every node class of ``FORMULAS`` (or say which public program
makes it as a second-order node), so a new op cannot be added without this check."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from minigrad.autograd import FORMULAS

from programs import assert_same_run

def _f(lib):
    return lib.nn.functional


PROGRAMS = {
    "AbsBackward0": lambda lib, a, b: a.abs() * b,
    "AddBackward0": lambda lib, a, b: (a + b) * a,
    "AddBackward1": lambda lib, a, b: (a + 2) * a,
    "AddmmBackward0": lambda lib, a, b: _f(lib).linear(a, b, a[:, 0] * b[:, 1]),
    "AliasBackward0": lambda lib, a, b: a[...] * b,
    "AsStridedBackward0": lambda lib, a, b: a.as_strided((2, 2), (1, 2)) * b[:, :2],
    "BinaryCrossEntropyWithLogitsBackward0":
        lambda lib, a, b: _f(lib).binary_cross_entropy_with_logits(
            a, b.sigmoid(), pos_weight=lib.tensor([2.0, 0.5, 1.0], dtype=lib.float64)),
    "BmmBackward0": lambda lib, a, b: lib.bmm(a.unsqueeze(0), b.t().unsqueeze(0)),
    "CatBackward0": lambda lib, a, b: lib.cat([a * b, b]) * lib.cat([b, a]),
    "ClampBackward0": lambda lib, a, b: a.clamp(b * 0 - 0.5, b * 0 + 0.5) * b,
    "ClampBackward1": lambda lib, a, b: a.clamp(-0.5, 0.5) * b,
    "CloneBackward0": lambda lib, a, b: a.clone() * b,
    "CopyBackwards": lambda lib, a, b: (a * 1).copy_(b * a),
    "CopySlices": lambda lib, a, b: _set_row(a * 1, b * a),
    "CosBackward0": lambda lib, a, b: a.cos(),
    "CeilBackward0": lambda lib, a, b: a.ceil() * b,
    "DivBackward2": lambda lib, a, b: lib.div(a * b, b + 2, rounding_mode="floor") * a,
    "Expm1Backward0": lambda lib, a, b: a.expm1() * b,
    "FloorBackward0": lambda lib, a, b: (a * 3).floor() * b,
    "FmodBackward0": lambda lib, a, b: lib.fmod(a * b, 0.3) * a,
    "FmodBackward1": lambda lib, a, b: lib.fmod(a * 3, b) * b,
    "FracBackward0": lambda lib, a, b: (a * 3).frac() * b,
    "Log10Backward0": lambda lib, a, b: a.abs().log10() * b,
    "Log1PBackward0": lambda lib, a, b: (a * a).log1p() * b,
    "Log2Backward0": lambda lib, a, b: a.abs().log2(),
    "PackPaddedSequenceBackward0": lambda lib, a, b: lib.nn.utils.rnn.pack_padded_sequence(
        (a * b).t(), [2, 2, 1], batch_first=True).data * b.flatten()[:5],
    "NotImplemented": lambda lib, a, b: a + (a // b).detach() * 0 + (b // 0.5).sum() * 0,
    "RemainderBackward0": lambda lib, a, b: (a * b % 0.5) * a,
    "RemainderBackward1": lambda lib, a, b: (a * 3 % b) * b,
    "RoundBackward0": lambda lib, a, b: (a * 3).round() * b,
    "RoundBackward1": lambda lib, a, b: (a * 3).round(decimals=1) * b,
    "RsqrtBackward0": lambda lib, a, b: (a * a).rsqrt() * b,
    "TruncBackward0": lambda lib, a, b: (a * 3).trunc() * b,
    # trigonometry and special functions (ops/trig.py, ops/special.py)
    "TanBackward0": lambda lib, a, b: (a * 0.5).tan() * b,
    "AsinBackward0": lambda lib, a, b: (a * 0.4).asin() * b,
    "AcosBackward0": lambda lib, a, b: (a * 0.4).acos() * b,
    "AtanBackward0": lambda lib, a, b: a.atan() * b,
    "Atan2Backward0": lambda lib, a, b: lib.atan2(a, b) * a,
    "SinhBackward0": lambda lib, a, b: a.sinh() * b,
    "CoshBackward0": lambda lib, a, b: a.cosh() * b,
    "AsinhBackward0": lambda lib, a, b: a.asinh() * b,
    "AcoshBackward0": lambda lib, a, b: (a * a + 1.5).acosh() * b,
    "AtanhBackward0": lambda lib, a, b: (a * 0.4).atanh() * b,
    "AsinhBackward1": lambda lib, a, b: a * b + (b * 1).asinh_().sum() * 0,
    "AcoshBackward1": lambda lib, a, b: a * b + (b * b + 2).acosh_().sum() * 0,
    "AtanhBackward1": lambda lib, a, b: a * b + (b * 0.3).atanh_().sum() * 0,
    "HypotBackward0": lambda lib, a, b: lib.hypot(a, b) * a,
    "SincBackward0": lambda lib, a, b: a.sinc() * b,
    "Deg2RadBackward0": lambda lib, a, b: (a * b).deg2rad() * a,
    "Rad2DegBackward0": lambda lib, a, b: (a * b).rad2deg() * a,
    "AngleBackward0": lambda lib, a, b: (a * b).angle() * a + a * b,
    # a comparison written in place into a tensor needing a gradient (ops/compare.py)
    "EqBackward0": lambda lib, a, b: (a * b).eq_(0.5) * a + a * b,
    "EqBackward1": lambda lib, a, b: (a * b).eq_(b) * a + a * b,
    "NeBackward0": lambda lib, a, b: (a * b).ne_(0.5) * a + a * b,
    "NeBackward1": lambda lib, a, b: (a * 1).ne_(b) * a + a * b,
    "LtBackward0": lambda lib, a, b: (a * b).lt_(0.5) * a + a * b,
    "LtBackward1": lambda lib, a, b: (a * 1).lt_(b) * a + a * b,
    "LeBackward0": lambda lib, a, b: (a * b).le_(0.5) * a + a * b,
    "LeBackward1": lambda lib, a, b: (a * 1).le_(b) * a + a * b,
    "GtBackward0": lambda lib, a, b: (a * b).gt_(0.5) * a + a * b,
    "GtBackward1": lambda lib, a, b: (a * 1).gt_(b) * a + a * b,
    "GeBackward0": lambda lib, a, b: (a * b).ge_(0.5) * a + a * b,
    "GeBackward1": lambda lib, a, b: (a * 1).ge_(b) * a + a * b,
    "ErfBackward0": lambda lib, a, b: a.erf() * b,
    "ErfcBackward0": lambda lib, a, b: a.erfc() * b,
    "ErfinvBackward0": lambda lib, a, b: (a * 0.4).erfinv() * b,
    "Exp2Backward0": lambda lib, a, b: (a * b).exp2(),
    "LogitBackward0": lambda lib, a, b: a.sigmoid().logit() * b,
    "SpecialEntrBackward0": lambda lib, a, b: lib.special.entr(a.abs()) * b,
    "SpecialErfcxBackward0": lambda lib, a, b: lib.special.erfcx(a * b) * a,
    "SpecialNdtriBackward0": lambda lib, a, b: lib.special.ndtri(a.sigmoid()) * b,
    "SpecialLogNdtrBackward0": lambda lib, a, b: lib.special.log_ndtr(a * b) * a,
    "SpecialZetaBackward0": lambda lib, a, b: lib.special.zeta(b.detach().abs() + 2,
                                                               a.abs() + 0.5) * a,
    "SpecialZetaBackward1": lambda lib, a, b: lib.special.zeta(3.0, a.abs() + 0.5) * b,
    "MvlgammaBackward0": lambda lib, a, b: lib.mvlgamma(a.abs() + 2, 3) * b,
    "IgammaBackward0": lambda lib, a, b: lib.igamma(b.detach().abs() + 1, a.abs() + 0.5) * a,
    "IgammacBackward0": lambda lib, a, b: lib.igammac(b.detach().abs() + 1, a.abs() + 0.5) * b,
    "XlogyBackward0": lambda lib, a, b: lib.xlogy(a, b.abs()) * a,
    "XlogyBackward1": lambda lib, a, b: lib.xlogy(2, b.abs()) * a,
    "XlogyBackward2": lambda lib, a, b: lib.xlogy(a, 3.0) * b,
    "SpecialXlog1PyBackward0": lambda lib, a, b: lib.special.xlog1py(a, b.abs()) * a,
    "SpecialXlog1PyBackward1": lambda lib, a, b: lib.special.xlog1py(2, b.abs()) * a,
    "SpecialXlog1PyBackward2": lambda lib, a, b: lib.special.xlog1py(a, 3.0) * b,
    "CopysignBackward0": lambda lib, a, b: lib.copysign(a, b) * b,
    "NextafterBackward0": lambda lib, a, b: lib.nextafter(a, b) * b,
    "CopysignBackward1": lambda lib, a, b: lib.copysign(a, -1.0) * b,
    "LerpBackward0": lambda lib, a, b: lib.lerp(a, b, 0.3) * a,
    "LerpBackward1": lambda lib, a, b: lib.lerp(a, b, b.sigmoid()) * a,
    "AddcmulBackward0": lambda lib, a, b: lib.addcmul(a, b, a * b, value=0.3) * a,
    "LgammaBackward0": lambda lib, a, b: lib.lgamma(a * b + 3) * a,
    "DigammaBackward0": lambda lib, a, b: (a.abs() + 0.5).digamma() * b,
    "PolygammaBackward0": lambda lib, a, b: lib.polygamma(1, a.abs() + 0.5) * b,
    "PolygammaBackward1": lambda lib, a, b: (a * a + 1).polygamma_(2) * b,
    "AddcdivBackward0": lambda lib, a, b: lib.addcdiv(a, b, a * a + 1, value=-0.7) * b,
    "LogaddexpBackward0": lambda lib, a, b: lib.logaddexp(a, b) * a,
    "Logaddexp2Backward0": lambda lib, a, b: lib.logaddexp2(a, b) * a,
    "TrilBackward0": lambda lib, a, b: (a * b).tril(-1) * a,
    "TriuBackward0": lambda lib, a, b: lib.triu(a * b, 1) * a,
    "CumprodBackward0": lambda lib, a, b: a.cumprod(1),
    "CumsumBackward0": lambda lib, a, b: a.cumsum(1) * b,
    "CummaxBackward0": lambda lib, a, b: lib.cummax(a * b, 1).values * a,
    "CumminBackward0": lambda lib, a, b: a.cummin(0).values * b,
    "LogcumsumexpBackward0": lambda lib, a, b: lib.logcumsumexp(a * b, 1) * a,
    "DivBackward0": lambda lib, a, b: a / b,
    "DivBackward1": lambda lib, a, b: a * a / 2,
    "DotBackward0": lambda lib, a, b: a[0].dot(b[0]) * a,
    "ExpBackward0": lambda lib, a, b: a.exp(),
    "ExpandBackward0": lambda lib, a, b: a[:, :1].expand(2, 3) * b,
    "FillBackward2": lambda lib, a, b: (a * b).fill_(2.0) * a,
    "FillBackward3": lambda lib, a, b: (a * b).fill_(b[0, 0] * a[0, 0]),
    "FlipBackward0": lambda lib, a, b: a.flip(0) * b,
    "GatherBackward0": lambda lib, a, b: a.gather(-1, lib.tensor([[0, 2, 2], [1, 0, 0]])) * b,
    "ScatterReduceBackward0": lambda lib, a, b: a.scatter_reduce(
        1, lib.tensor([[0, 2, 2], [1, 0, 0]]), b * b, "mean", include_self=False) * b,
    "IndexBackward0": lambda lib, a, b: a[[0, 1, 1]] * a[[1, 0, 0]],
    "IndexPutBackward0": lambda lib, a, b: _put_rows(lib, a * 1, b * a),
    "IndexPutImplBackward0": lambda lib, a, b: _put_mask(lib, a * 1, b * a),
    "LinalgVectorNormBackward0": lambda lib, a, b: a.norm(dim=1),
    "LogBackward0": lambda lib, a, b: a.abs().log(),
    "LogSoftmaxBackward0": lambda lib, a, b: a.log_softmax(1),
    "LogsumexpBackward0": lambda lib, a, b: a.logsumexp(1),
    "MaskedFillBackward0": lambda lib, a, b: a.masked_fill(a > b, 0.5) * b,
    "MaskedFillBackward1": lambda lib, a, b: (a * b).masked_fill(a > b, a[0, 0] * b[0, 0]),
    "MaxBackward0": lambda lib, a, b: (a * b).max(1).values,
    "MaxBackward1": lambda lib, a, b: (a * b).max(),
    "MaximumBackward0": lambda lib, a, b: lib.maximum(a * b, b),
    "MeanBackward0": lambda lib, a, b: (a * b).mean(),
    "MeanBackward1": lambda lib, a, b: (a * b).mean(1),
    "MinBackward0": lambda lib, a, b: (a * b).min(0).values,
    "MinBackward1": lambda lib, a, b: (a * b).min(),
    "MinimumBackward0": lambda lib, a, b: lib.minimum(a * b, b),
    "MmBackward0": lambda lib, a, b: (a @ b.t()) * a[:, :2],
    "MseLossBackward0": lambda lib, a, b: _f(lib).mse_loss(a, b, reduction="none"),
    "MseLossBackward0, averaged": lambda lib, a, b: _f(lib).mse_loss(a * b, a),
    "SoftMarginLossBackward0": lambda lib, a, b: _f(lib).soft_margin_loss(
        a * b, lib.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]], dtype=lib.float64),
        reduction="none"),
    "SoftMarginLossBackward0, summed": lambda lib, a, b: _f(lib).soft_margin_loss(
        a * b, lib.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]], dtype=lib.float64),
        reduction="sum"),
    "NormBackward1": lambda lib, a, b: _f(lib).pairwise_distance(a, b) * a[:, 0],
    "MulBackward0": lambda lib, a, b: a * b * a,
    "MulBackward1": lambda lib, a, b: a * a * 2,
    "MvBackward0": lambda lib, a, b: lib.mv(a, b[0]) * a[:, 0],
    "NegBackward0": lambda lib, a, b: -(a * b),
    "NllLossBackward0": lambda lib, a, b: _f(lib).nll_loss(a.log_softmax(1), lib.tensor([2, 0])),
    "NllLoss2DBackward0": lambda lib, a, b: _f(lib).nll_loss(
        a.log_softmax(1).reshape(1, 2, 3, 1), lib.tensor([[[1], [0], [1]]])),
    "PermuteBackward0": lambda lib, a, b: a.permute(1, 0) * b.t(),
    "PowBackward0": lambda lib, a, b: a ** 3,
    "PowBackward1": lambda lib, a, b: a.abs() ** b,
    "PowBackward2": lambda lib, a, b: 2 ** (a * b),
    "ProdBackward0": lambda lib, a, b: (a * b).prod(),
    "ProdBackward1": lambda lib, a, b: (a * b).prod(1),
    "ReciprocalBackward0": lambda lib, a, b: (a * b).reciprocal(),
    "ReluBackward0": lambda lib, a, b: (a * b).relu() * a,
    "ReshapeAliasBackward0": lambda lib, a, b: a.t()[::2].reshape(4) * b[0, :1],
    "RsubBackward0": lambda lib, a, b: (2 - a * b) * a,
    "RsubBackward1": lambda lib, a, b: (1 - a * b) * a,
    "SelectBackward0": lambda lib, a, b: a[0] * b[1] * a[0],
    "SgnBackward0": lambda lib, a, b: a.norm(p=1, dim=1),
    "SigmoidBackward0": lambda lib, a, b: (a * b).sigmoid(),
    "SignBackward0": lambda lib, a, b: a.sign() * a * b,
    "SinBackward0": lambda lib, a, b: (a * b).sin(),
    "SliceBackward0": lambda lib, a, b: a[:, 1:] * b[:, :2] * a[:, 1:],
    "SoftmaxBackward0": lambda lib, a, b: (a * b).softmax(1),
    # (2-D inputs take scaled_dot_product_attention's math path: its _safe_softmax)
    "SafeSoftmaxBackward0": lambda lib, a, b: _f(lib).scaled_dot_product_attention(a * b, a, b),
    "SplitBackward0": lambda lib, a, b: _joined(lib, (a * b).split(2, 1)),
    "SplitWithSizesBackward0": lambda lib, a, b: _joined(lib, (a * b).split([1, 2], 1)),
    "UnsafeSplitBackward0": lambda lib, a, b: _joined(lib, (a * b).unsafe_split(2, 1)),
    "UnsafeSplitWithSizesBackward0":
        lambda lib, a, b: _joined(lib, (a * b).unsafe_split_with_sizes([1, 2], 1)),
    "SqrtBackward0": lambda lib, a, b: (a * b).abs().sqrt(),
    "SqueezeBackward0": lambda lib, a, b: a[:1].squeeze() * b[0] * a[0],
    "SqueezeBackward1": lambda lib, a, b: a[:1].squeeze(0) * b[0] * a[0],
    "SqueezeBackward2": lambda lib, a, b: a[:1].squeeze((0,)) * b[0] * a[0],
    "SqueezeBackward3": lambda lib, a, b: (a[:1] * b[:1]).squeeze_() * a[0],
    "SqueezeBackward4": lambda lib, a, b: (a[:1] * b[:1]).squeeze_(0) * a[0],
    "SqueezeBackward5": lambda lib, a, b: (a[:1] * b[:1]).squeeze_((0,)) * a[0],
    "StackBackward0": lambda lib, a, b: lib.stack([a * b, a]) * lib.stack([b, a]),
    "StdBackward0": lambda lib, a, b: (a * b).std(1),
    "SubBackward0": lambda lib, a, b: (a - b) * a,
    "SubBackward1": lambda lib, a, b: (a - 2) * a * b,
    "SumBackward0": lambda lib, a, b: (a * b).sum() * a,
    "SumBackward1": lambda lib, a, b: (a * b).sum(1) * a[:, 0],
    "TBackward0": lambda lib, a, b: a.t() * b.t() * a.t(),
    "TBackward1": lambda lib, a, b: (a * b).t_() * a.t(),
    "AsStridedBackward1": lambda lib, a, b: (a * b).as_strided_((2, 2), (1, 2), 1) * b[:2, :2],
    "TanhBackward0": lambda lib, a, b: (a * b).tanh(),
    "ToCopyBackward0": lambda lib, a, b: (a * b).to(lib.float32) * a.to(lib.float32),
    "TransposeBackward0": lambda lib, a, b: (a * b).transpose(0, 1) * a.t(),
    "TransposeBackward1": lambda lib, a, b: (a * b).transpose_(0, 1) * a.t(),
    "UnbindBackward0": lambda lib, a, b: _joined(lib, (a * b).unbind(1)),
    "UnsafeViewBackward0": lambda lib, a, b: (a * b).t().reshape(6) * a.reshape(6),
    "UnsqueezeBackward0": lambda lib, a, b: (a * b).unsqueeze(0) * a,
    "UnsqueezeBackward1": lambda lib, a, b: (a * b).unsqueeze_(0) * a,
    "VarBackward0": lambda lib, a, b: (a * b).var(0),
    # (tests/core/ops/test_nan_reductions_fmax_take.py)
    "NansumBackward0": lambda lib, a, b: (a * b).nansum(1) * a[:, 0],
    "FmaxBackward0": lambda lib, a, b: lib.fmax(a * b, b),
    "FminBackward0": lambda lib, a, b: lib.fmin(a, b * a),
    "VarMeanBackward0": lambda lib, a, b: _joined(lib, lib.var_mean(a * b, 0, keepdim=True)),
    "StdMeanBackward0": lambda lib, a, b: _joined(lib, lib.std_mean(a * b, 1, keepdim=True)),
    "ViewBackward0": lambda lib, a, b: (a * b).view(6) * a.view(6),
    "WhereBackward0": lambda lib, a, b: lib.where(a > b, a * b, b) * a,
    "ZeroBackward0": lambda lib, a, b: (a * b).zero_() + a * b,
    # convolution and pooling (ops/conv.py), on 2x3 matrices seen as images
    "ConvolutionBackward0": lambda lib, a, b: _f(lib).conv1d(
        a.reshape(1, 2, 3), b[:, :2].reshape(1, 2, 2), b[0, 2:], padding=1) * a[0, 0],
    "MaxPool2DWithIndicesBackward0": lambda lib, a, b: _f(lib).max_pool2d(
        (a * b).reshape(1, 1, 2, 3), (1, 2), 1) * a[:, :2],
    "AvgPool2DBackward0": lambda lib, a, b: _f(lib).avg_pool2d(
        (a * b).reshape(1, 1, 2, 3), (1, 2), 1) * a[:, :2],
    "AdaptiveAvgPool2DBackward0": lambda lib, a, b: _f(lib).adaptive_avg_pool2d(
        (a * b).reshape(1, 1, 2, 3), (1, 2)) * a[:, :2],
    "ConstantPadNdBackward0": lambda lib, a, b: _f(lib).pad(a * b, (1, 1)) * _f(lib).pad(
        a, (1, 1)),
    "Im2ColBackward0": lambda lib, a, b: _f(lib).unfold(
        (a * b).reshape(1, 1, 2, 3), (1, 2)) * a[0, 0],
    "Col2ImBackward0": lambda lib, a, b: _f(lib).fold(
        (a * b).reshape(1, 2, 3), (1, 4), (1, 2)) * a[0, 0],
    # the tutorials' functions (ops/sorting, scatter, diagonal, repeat, rolling, limits,
    # distance, counting; cross, addmv, baddbmm in linalg)
    "AmaxBackward0": lambda lib, a, b: (a * b).amax(1) * a[:, 0],
    "AminBackward0": lambda lib, a, b: (a * b).amin((0, 1), keepdim=True) * a,
    "SortBackward0": lambda lib, a, b: (a * b).sort(1).values * a,
    "SortBackward1": lambda lib, a, b: (a * b).sort(dim=0, stable=True).values * a,
    "TopkBackward0": lambda lib, a, b: (a * b).topk(2).values * a[:, :2],
    "KthvalueBackward0": lambda lib, a, b: (a * b).kthvalue(2).values * a[:, 0],
    "MedianBackward0": lambda lib, a, b: (a * b).median() * a,
    "MedianBackward1": lambda lib, a, b: (a * b).median(1).values * a[:, 0],
    "ModeBackward0": lambda lib, a, b: (a * b).mode(1).values * a[:, 0],
    "IndexSelectBackward0": lambda lib, a, b: (a * b).index_select(1, lib.tensor([2, 0, 2])) * a,
    "IndexAddBackward0": lambda lib, a, b: (a * a).index_add(1, lib.tensor([2, 0]), b[:, :2] * a[:, 1:]),
    "IndexFillBackward0": lambda lib, a, b: (a * b).index_fill(1, lib.tensor([1]), 0.5) * a,
    "TakeBackward0": lambda lib, a, b: (a * b).take(lib.tensor([[0, 5], [0, 2]])) * b[:, :2],
    "PutBackward0": lambda lib, a, b: (a * a).put(lib.tensor([1, 1, 5]), (b * a)[0], accumulate=True)
    * (a * b).put(lib.tensor([0, 4, 0]), b[1] * b[1]),
    "IndexCopyBackward0": lambda lib, a, b: (a * a).index_copy(1, lib.tensor([2, 0]), b[:, :2] * a[:, 1:]),
    "ScatterBackward1": lambda lib, a, b: (a * b).scatter(1, lib.tensor([[2], [0]]), 0.5) * a,
    "DiagonalBackward0": lambda lib, a, b: (a * b).diagonal(1) * a[0, :2],
    "DiagonalBackward0_copy": lambda lib, a, b: lib.diag(a * b) * a[0, :2],
    "DiagEmbedBackward0": lambda lib, a, b: lib.diag_embed(a * b) * a[0],
    "TraceBackward0": lambda lib, a, b: (a * b).trace() * a,
    "RepeatBackward0": lambda lib, a, b: (a * b).repeat(2, 1) * a.repeat(2, 1),
    "RollBackward0": lambda lib, a, b: (a * b).roll(1, 1) * a,
    "UnfoldBackward0": lambda lib, a, b: (a * b).unfold(1, 2, 1) * a[:, 1:, None],
    "Rot90Backward0": lambda lib, a, b: (a * b).rot90() * a.t(),
    "ClampMinBackward0": lambda lib, a, b: (a * b).clamp_min(0.1) * a,
    "ClampMaxBackward0": lambda lib, a, b: (a * b).clamp_max(0.1) * a,
    "ClampMinBackward1": lambda lib, a, b: (a * b).clamp_min(b * 0.5) * a,
    "ClampMaxBackward1": lambda lib, a, b: (a * b).clamp_max(b * 0.5) * a,
    "NanToNumBackward0": lambda lib, a, b: (a * b).nan_to_num() * a,
    "LinalgCrossBackward0": lambda lib, a, b: lib.cross(a * b, a, dim=1) * b,
    "AddmvBackward0": lambda lib, a, b: lib.addmv(a[:, 0] * b[:, 1], a * b, b[0]) * a[:, 1],
    "BaddbmmBackward0": lambda lib, a, b: lib.baddbmm((a * b)[None, :, :2], a[None], b.t()[None, :, :2]) * a[:, :2],
    "Unique2Backward0": lambda lib, a, b: a * b + (a.unique().sum() * 0).detach(),
    "UniqueDimBackward0": lambda lib, a, b: a * b + (a.unique(dim=0).sum() * 0).detach(),
    # random fills, after the same seed in both libraries (the same numbers)
    "NormalBackward0": lambda lib, a, b: _seeded(lib, lambda: (a * b).normal_() * a),
    "NormalBackward1": lambda lib, a, b: _seeded(lib, lambda: lib.normal(a * b, 2.0) * a),
    "NormalBackward2": lambda lib, a, b: _seeded(lib, lambda: lib.normal(1.0, b * b) * a),
    "NormalBackward3": lambda lib, a, b: _seeded(lib, lambda: lib.normal(a, b * b) * a),
    "UniformBackward0": lambda lib, a, b: _seeded(lib, lambda: (a * b).uniform_(-1, 1) * a),
    "RandomBackward0": lambda lib, a, b: _seeded(lib, lambda: (a * b).random_(2, 9) * a),
    "RandomBackward1": lambda lib, a, b: _seeded(lib, lambda: (a * b).random_(9) * a),
    "RandomBackward2": lambda lib, a, b: _seeded(lib, lambda: (a * b).random_() * a),
    "BernoulliBackward0": lambda lib, a, b: _seeded(lib, lambda: lib.bernoulli(a.sigmoid()) * a),
    "BernoulliBackward1": lambda lib, a, b: _seeded(lib, lambda: (a * b).bernoulli_(
        b.sigmoid()) * a),
    "BernoulliBackward2": lambda lib, a, b: _seeded(lib, lambda: (a * b).bernoulli_(0.4) * a),
    "ExponentialBackward0": lambda lib, a, b: _seeded(lib, lambda: (a * b).exponential_() * a),
    "CauchyBackward0": lambda lib, a, b: _seeded(lib, lambda: (a * b).cauchy_(0.5, 2.0) * a),
    "LogNormalBackward0": lambda lib, a, b: _seeded(lib, lambda: (a * b).log_normal_() * a),
    "GeometricBackward0": lambda lib, a, b: _seeded(lib, lambda: (a * b).geometric_(0.3) * a),
    "AminmaxBackward0": lambda lib, a, b: (lambda r: r.min * r.max * b)((a * b).aminmax(dim=0)),
    "NanmedianBackward0": lambda lib, a, b: (a * b).nanmedian() * a,
    "NanmedianBackward1": lambda lib, a, b: (a * b).nanmedian(1, keepdim=True).values * a,
    # (training only: in eval PyTorch's node saves its noise uninitialised, never read)
    "RreluWithNoiseBackward0": lambda lib, a, b: _seeded(
        lib, lambda: _f(lib).rrelu(a * b, training=True) * a),
    "RreluWithNoiseBackward1": lambda lib, a, b: _seeded(
        lib, lambda: _f(lib).rrelu(a * b, training=True, inplace=True) * a),
    "I0Backward0": lambda lib, a, b: lib.i0(a * b) * a,
    "SpecialI1Backward0": lambda lib, a, b: lib.special.i1(a * b) * a,
    "SpecialI0EBackward0": lambda lib, a, b: lib.special.i0e(a * b) * a,
    "SpecialI1EBackward0": lambda lib, a, b: lib.special.i1e(a * b) * a,
    "BlockDiagBackward0": lambda lib, a, b: lib.block_diag(a * b, b[0]) ** 2,
    # torch.nn's activations, losses, normalisation and padding
    "BinaryCrossEntropyBackward0": lambda lib, a, b: _f(lib).binary_cross_entropy(
        a.sigmoid(), b.sigmoid(), reduction="none"),
    "CeluBackward0": lambda lib, a, b: _f(lib).celu(a, 0.5) * b,
    "CeluBackward1": lambda lib, a, b: _f(lib).celu(a * b, inplace=True),
    # (a second program for a node named above: its key says which)
    "DistBackward0": lambda lib, a, b: lib.dist(a * b, b[0]) * a,
    "ClampMinBackward0, in normalize": lambda lib, a, b: _f(lib).normalize(a * b, dim=1),
    "ConstantPadNdBackward0, two pads": lambda lib, a, b: _f(lib).pad(a, (1, 2)) * _f(lib).pad(
        b, (2, 1)),
    "SmoothL1LossBackward0, summed": lambda lib, a, b: _f(lib).smooth_l1_loss(
        a * b, b, reduction="sum", beta=0.5),
    "HuberLossBackward0, averaged": lambda lib, a, b: _f(lib).huber_loss(a * b, a, "mean", 0.5),
    "BinaryCrossEntropyBackward0, weighted mean": lambda lib, a, b: _f(lib).binary_cross_entropy(
        a.sigmoid(), b.sigmoid(), b.detach().abs()),
    "EluBackward0": lambda lib, a, b: _f(lib).elu(a) * b,
    "EluBackward1": lambda lib, a, b: _f(lib).elu(a * b, inplace=True),
    "HardsigmoidBackward0": lambda lib, a, b: _f(lib).hardsigmoid(a * 4) * b,
    "HardshrinkBackward0": lambda lib, a, b: _f(lib).hardshrink(a * b, 0.6) * a,
    "SoftshrinkBackward0": lambda lib, a, b: _f(lib).softshrink(a * b, 0.6) * a,
    "HardswishBackward0": lambda lib, a, b: _f(lib).hardswish(a * 4) * b,
    "HardtanhBackward0": lambda lib, a, b: _f(lib).hardtanh(a * 2) * b,
    "HuberLossBackward0": lambda lib, a, b: _f(lib).huber_loss(a, b, "none", 0.5),
    "LeakyReluBackward0": lambda lib, a, b: _f(lib).leaky_relu(a, 0.2) * b,
    "LeakyReluBackward1": lambda lib, a, b: _f(lib).leaky_relu(a * b, 0.2, inplace=True),
    "MishBackward0": lambda lib, a, b: _f(lib).mish(a) * b,
    "NativeBatchNormBackward0": lambda lib, a, b: _f(lib).batch_norm(
        a, None, None, b[0], b[1], True),
    "PreluKernelBackward0": lambda lib, a, b: _f(lib).prelu(a, b[0, :1]) * b,
    "PreluKernelBackward0, per channel": lambda lib, a, b: _f(lib).prelu(a.t(), b[0, :2]) * b.t(),
    "ReflectionPad1DBackward0": lambda lib, a, b: _f(lib).pad(a * b, (2, 1), mode="reflect"),
    "ReflectionPad2DBackward0": lambda lib, a, b: _f(lib).pad(
        (a * b).unsqueeze(0), (1, 1, 1, 0), mode="reflect"),
    "ReflectionPad3DBackward0": lambda lib, a, b: _f(lib).pad(
        (a * b).reshape(1, 1, 1, 2, 3), (1, 1, 1, 0, 0, 0), mode="reflect"),
    "ReplicationPad1DBackward0": lambda lib, a, b: _f(lib).pad(a * b, (2, 1), mode="replicate"),
    "ReplicationPad2DBackward0": lambda lib, a, b: _f(lib).pad(
        (a * b).unsqueeze(0), (1, 1, 1, 0), mode="replicate"),
    "ReplicationPad3DBackward0": lambda lib, a, b: _f(lib).pad(
        (a * b).reshape(1, 1, 1, 2, 3), (1, 1, 1, 0, 2, 0), mode="replicate"),
    "SiluBackward0": lambda lib, a, b: _f(lib).silu(a) * b,
    "SmoothL1LossBackward0": lambda lib, a, b: _f(lib).smooth_l1_loss(a, b, reduction="none",
                                                                       beta=0.5),
    "SoftplusBackward0": lambda lib, a, b: _f(lib).softplus(a) * b,
    "ThresholdBackward0": lambda lib, a, b: _f(lib).threshold(a, 0.1, 2.0) * b,
    "ThresholdBackward1": lambda lib, a, b: _f(lib).threshold(a * b, 0.1, 2.0, inplace=True),
    "EmbeddingBackward0": lambda lib, a, b: _f(lib).embedding(
        lib.tensor([[1, 0], [1, 1]]), a * b, padding_idx=0) * a[0],
    "EmbeddingBackward0, scaled by frequency": lambda lib, a, b: _f(lib).embedding(
        lib.tensor([[1, 0], [1, 1]]), a * b, scale_grad_by_freq=True) * a[0],
    "NativeLayerNormBackward0": lambda lib, a, b: _f(lib).layer_norm(a * b, (3,), a[0], b[1]),
    "GeluBackward0": lambda lib, a, b: _f(lib).gelu(a * b) * a,
    # (the layers and functions of tests/nn/test_nn_{conv_transpose,normalization,
    # upsampling,small_layers}.py and tests/core/ops/test_{more_names,view_scatter,
    # products_ldexp}.py)
    "UniqueConsecutiveBackward0": lambda lib, a, b: a * b + (
        a.unique_consecutive().sum() * 0).detach(),
    "AddrBackward0": lambda lib, a, b: lib.addr(a, a[:, 0] * b[:, 0], b[1]) * a,
    "TrilinearBackward0": lambda lib, a, b: _f(lib).bilinear(a, b, (a.t() @ b).unsqueeze(0)),
    "FrexpBackward0": lambda lib, a, b: lib.frexp(a * b)[0] * a,
    "SelectScatterBackward0": lambda lib, a, b: lib.select_scatter(a * b, b[0] * a[1], 0, 1) * a,
    "SliceScatterBackward0": lambda lib, a, b: lib.slice_scatter(a * b, b[:, :2] * a[:, 1:], 1,
                                                                 0, 2) * a,
    "DiagonalScatterBackward0": lambda lib, a, b: lib.diagonal_scatter(
        a * b, b[0, :2] * a[1, :2]) * a,
    "GluBackward0": lambda lib, a, b: _f(lib).glu(a * b, 0) * a[0],
    "GluBackward0, last dim": lambda lib, a, b: _f(lib).glu(lib.cat([a, a * b], 1), -1) * b,
    "NativeGroupNormBackward0": lambda lib, a, b: _f(lib).group_norm(
        (a * b).unsqueeze(0), 1, a[0, :2], b[1, :2]),
    "AdaptiveMaxPool2DBackward0": lambda lib, a, b: _f(lib).adaptive_max_pool2d(
        (a * b).unsqueeze(0), (1, 2)) * a[:, :2].unsqueeze(0)[:, :1],
    "PixelShuffleBackward0": lambda lib, a, b: _f(lib).pixel_shuffle(
        lib.cat([a * b, b]).reshape(4, 1, 3), 2) * a[0, 0],
    "PixelUnshuffleBackward0": lambda lib, a, b: _f(lib).pixel_unshuffle(
        lib.cat([a * b, b], 1).reshape(1, 2, 6), 2) * a[0, 0],
    "UpsampleNearest1DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b).unsqueeze(0), scale_factor=2) * a[0, 0],
    "UpsampleNearestExact1DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b).unsqueeze(0), size=5, mode="nearest-exact") * a[0, 0],
    "UpsampleLinear1DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b).unsqueeze(0), size=5, mode="linear") * a[0, 0],
    "UpsampleNearest2DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b)[None, None], size=(3, 5)) * a[0, 0],
    "UpsampleNearestExact2DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b)[None, None], size=(3, 5), mode="nearest-exact") * a[0, 0],
    "UpsampleBilinear2DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b)[None, None], size=(3, 5), mode="bilinear") * a[0, 0],
    # the 3-D twins (the 2x3 matrices seen as volumes of one frame), bicubic, channel_shuffle
    "MaxPool3DWithIndicesBackward0": lambda lib, a, b: _f(lib).max_pool3d(
        (a * b).reshape(1, 1, 1, 2, 3), (1, 1, 2), 1) * a[:, :2],
    "AvgPool3DBackward0": lambda lib, a, b: _f(lib).avg_pool3d(
        (a * b).reshape(1, 1, 1, 2, 3), (1, 1, 2), 1) * a[:, :2],
    "AdaptiveAvgPool3DBackward0": lambda lib, a, b: _f(lib).adaptive_avg_pool3d(
        (a * b).reshape(1, 1, 1, 2, 3), (1, 1, 2)) * a[:, :2],
    "AdaptiveMaxPool3DBackward0": lambda lib, a, b: _f(lib).adaptive_max_pool3d(
        (a * b).reshape(1, 1, 1, 2, 3), (1, 1, 2)) * a[:, :2],
    "FractionalMaxPool2DBackward0": lambda lib, a, b: _f(lib).fractional_max_pool2d(
        (a * b).unsqueeze(0), (1, 2), output_size=(2, 2),
        _random_samples=lib.tensor([[[0.3, 0.6]]], dtype=lib.float64)) * a[:, :2],
    "FractionalMaxPool3DBackward0": lambda lib, a, b: _f(lib).fractional_max_pool3d(
        lib.cat([a * b, b]).reshape(1, 1, 2, 2, 3), 1, output_size=(1, 1, 2),
        _random_samples=lib.tensor([[[0.3, 0.6, 0.8]]], dtype=lib.float64)) * a[0, :2],
    "UpsampleNearest3DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b)[None, None, None], size=(2, 3, 5)) * a[0, 0],
    "UpsampleNearestExact3DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b)[None, None, None], size=(2, 3, 5), mode="nearest-exact") * a[0, 0],
    "UpsampleTrilinear3DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b)[None, None, None], size=(2, 3, 5), mode="trilinear") * a[0, 0],
    "UpsampleBicubic2DBackward0": lambda lib, a, b: _f(lib).interpolate(
        (a * b)[None, None], size=(3, 5), mode="bicubic") * a[0, 0],
    "ChannelShuffleBackward0": lambda lib, a, b: _f(lib).channel_shuffle(
        (a * b).reshape(1, 2, 3), 2) * a,
    "NormBackward0": lambda lib, a, b: lib.norm_except_dim(a * b, 2, -1) * a,
    "WeightNormInterfaceBackward0": lambda lib, a, b: lib._weight_norm(a * b, b[:, :1], 0) * a,
    "MaxUnpool2DBackward0": lambda lib, a, b: _f(lib).max_unpool2d(
        (a * b).reshape(1, 1, 2, 3)[..., :2], lib.tensor([[[[0, 4], [2, 3]]]]), (1, 2),
        stride=1) * a,
    "MaxUnpool3DBackward0": lambda lib, a, b: _f(lib).max_unpool3d(
        (a * b).reshape(1, 1, 1, 2, 3)[..., :2], lib.tensor([[[[[0, 4], [2, 3]]]]]),
        (1, 1, 2), stride=1) * a,
}

# Nodes that only a backward records (create_graph=True), and a program above whose
# second or third order makes them.
RECORDED_BY_A_BACKWARD = {
    "ScatterAddBackward0": "GatherBackward0", "ScatterBackward0": "MaxBackward0",
    "LogSigmoidBackward0": "BinaryCrossEntropyWithLogitsBackward0",
    "MaskedSelectBackward0": "MaskedFillBackward1",
    "MaskedScatterBackward0": "MaskedFillBackward1 (fourth order, below)",
    "MaskedScatterBackwardBackward0": "MaskedFillBackward1 (fourth order, below)",
    "LogSigmoidBackwardBackward0": "BinaryCrossEntropyWithLogitsBackward0",
    "LogSoftmaxBackwardDataBackward0": "LogSoftmaxBackward0",
    "MseLossBackwardBackward0": "MseLossBackward0",
    "SoftMarginLossBackwardBackward0": "SoftMarginLossBackward0",
    "NllLossBackwardBackward0": "NllLossBackward0",
    "NllLoss2DBackwardBackward0": "NllLoss2DBackward0",
    "SelectBackwardBackward0": "SelectBackward0",
    "SigmoidBackwardBackward0": "SigmoidBackward0",
    "SliceBackwardBackward0": "SliceBackward0",
    "SoftmaxBackwardDataBackward0": "SoftmaxBackward0",
    "TanhBackwardBackward0": "TanhBackward0",
    "NativeLayerNormBackwardBackward0": "NativeLayerNormBackward0",
    "NativeBatchNormBackwardBackward0": "NativeBatchNormBackward0",
    "ConvolutionBackwardBackward0": "ConvolutionBackward0",
    "GeluBackwardBackward0": "GeluBackward0",
    "ThresholdBackwardBackward0": "ReluBackward0",
    "LeakyReluBackwardBackward0": "LeakyReluBackward0",
    "HardtanhBackwardBackward0": "HardtanhBackward0",
    "MaxPool2DWithIndicesBackwardBackward0": "MaxPool2DWithIndicesBackward0",
    "AvgPool2DBackwardBackward0": "AvgPool2DBackward0",
    "AdaptiveAvgPool2DBackwardBackward0": "AdaptiveAvgPool2DBackward0",
    "MaxPool3DWithIndicesBackwardBackward0": "MaxPool3DWithIndicesBackward0",
    "AvgPool3DBackwardBackward0": "AvgPool3DBackward0",
    "AdaptiveAvgPool3DBackwardBackward0": "AdaptiveAvgPool3DBackward0",
    "DiagonalBackwardBackward0": "DiagonalBackward0",
    "UnfoldBackwardBackward0": "UnfoldBackward0",
    "EuclideanDistBackward0": "MulBackward0 (a first order only: test_distance.py)",
    "IndexFillBackward1": "TraceBackward0",
    "EluBackwardBackward0": "EluBackward0 (and, from elu_'s result, EluBackward1)",
    "SoftplusBackwardBackward0": "SoftplusBackward0",
    "HardswishBackwardBackward0": "HardswishBackward0",
    "HardshrinkBackwardBackward0": "HardshrinkBackward0",
    "SoftshrinkBackwardBackward0": "SoftshrinkBackward0",
    "RreluWithNoiseBackwardBackward0": "RreluWithNoiseBackward0",
    "SmoothL1LossBackwardBackward0": "SmoothL1LossBackward0",
    "HuberLossBackwardBackward0": "HuberLossBackward0",
    "BinaryCrossEntropyBackwardBackward0": "BinaryCrossEntropyBackward0",
    "GluBackwardBackward0": "GluBackward0",
    "EmbeddingDenseBackwardBackward0": "EmbeddingBackward0",
    "AdaptiveMaxPool2DBackwardBackward0": "AdaptiveMaxPool2DBackward0",
    "PreluKernelBackwardBackward0": "PreluKernelBackward0",
    **{f"Upsample{kind}BackwardBackward0": f"Upsample{kind}Backward0"
       for kind in ("Nearest1D", "Nearest2D", "NearestExact1D", "NearestExact2D", "Linear1D",
                    "Bilinear2D", "Nearest3D", "NearestExact3D", "Trilinear3D", "Bicubic2D")},
    "AdaptiveMaxPool3DBackwardBackward0": "AdaptiveMaxPool3DBackward0",
    "FractionalMaxPool2DBackwardBackward0": "FractionalMaxPool2DBackward0",
    "FractionalMaxPool3DBackwardBackward0": "FractionalMaxPool3DBackward0",
    **{f"{kind}Pad{d}DBackwardBackward0": f"{kind}Pad{d}DBackward0"
       for kind in ("Reflection", "Replication") for d in (1, 2, 3)},
}


# Formulas whose derivative is 0: torch keeps it as a ZeroTensor, which cannot be shown,
# so only the first order is compared.
FIRST_ORDER_ONLY = {"SgnBackward0"}
# Formulas whose recorded backward is not PyTorch's: PyTorch differentiates cdist's
# backward with a node of its own (CdistBackwardBackward0), minigrad's is written with
# ordinary ops (its values are compared in tests/core/ops/test_distance.py).
NOT_COMPARED = {"CdistBackward0": "its backward records CdistBackwardBackward0 in PyTorch",
                "PdistBackward0": "its recorded backward is PyTorch's PdistBackwardBackward0, "
                                  "whose derivative PyTorch refuses (test_distance.py)",
                "PdistBackwardBackward0": "PyTorch refuses its derivative (test_distance.py)",
                "_ComparedInPlace": "the comparisons' shared base class (EqBackward0, ...)",
                **{name: "PyTorch's nodes, made in another order (not yet PyTorch's)"
                   for name in ("AddbmmBackward0", "LdexpBackward0", "RenormBackward0",
                                "VdotBackward0")},
                "ScaledDotProductFlashAttentionForCpuBackward0": "PyTorch has no second "
                "derivative of it (its backward records NotImplemented: "
                "tests/nn/test_nn_attention.py)",
                "MultiMarginLossBackward0": "PyTorch has no second derivative of it (its "
                                            "backward records NotImplemented)",
                "MultilabelMarginLossBackward0": "PyTorch has no second derivative of it (its "
                                                 "backward records NotImplemented)",
}
# torch.linalg's formulas (ops/linalg_module.py) are written with minigrad's ops, the
# derivative as it reads, not PyTorch's FunctionsManual.cpp step by step: a recorded
# backward (create_graph=True) gives PyTorch's second derivatives
# (tests/core/ops/test_linalg_module.py, test_second_derivatives) through other nodes, in
# another order (inv's first order is PyTorch's; its second differs inside mm's formula).
NOT_COMPARED.update({name: "written with minigrad's ops, not in PyTorch's node order"
                     for name in ("LinalgInvExBackward0", "LinalgSolveExBackward0",
                                  "LinalgSolveTriangularBackward0", "LinalgDetBackward0",
                                  "LinalgSlogdetBackward0", "LinalgSvdBackward0",
                                  "LinalgQrBackward0", "LinalgEighBackward0",
                                  "LinalgCholeskyExBackward0", "CholeskyBackward0",
                                  "LinalgPinvBackward0",
                                  "LinalgLstsqBackward0")})
NOT_COMPARED.update({name: "written with minigrad's ops, not in PyTorch's node order (second "
                           "derivatives' values compared in tests/core/ops/test_linalg_lu.py)"
                     for name in ("LinalgLuFactorExBackward0", "LinalgLuBackward0",
                                  "LuUnpackBackward0", "LinalgLuSolveBackward0")})
NOT_COMPARED["MkldnnRnnLayerBackward0"] = (
    "a float32 LSTM layer's node (ops/recurrent.py): its backward goes back through the steps "
    "with minigrad's ops, not in the node order of PyTorch's differentiable backward of it "
    "(values to the second order compared in tests/nn/test_nn_rnn.py)")
NOT_COMPARED["GridSampler2DBackward0"] = (
    "its second derivative is not built: a recorded backward is refused with an error saying "
    "so (tests/nn/test_nn_grid_sample.py)")
NOT_COMPARED.update({name: "PyTorch has no second derivative of embedding_bag (its backward "
                           "records EmbeddingBagBackwardBackward0 and NotImplemented, whose "
                           "backward raises: tests/nn/test_nn_embedding_bag.py)"
                     for name in ("EmbeddingBagBackward0", "EmbeddingBagBackwardBackward0")})
NOT_COMPARED.update({name: "its recorded backward makes PyTorch's nodes but not in its order "
                           "(values equal at the second order: tests/core/ops/"
                           "test_cholesky_solve.py)"
                     for name in ("CholeskySolveBackward0", "CholeskyInverseBackward0")})
NOT_COMPARED.update({name: "a random draw's node (poisson, _standard_gamma) and the gamma "
                           "draw's derivative: compared with PyTorch's after the same seed in "
                           "tests/core/ops/test_standard_gamma.py, not in these deterministic "
                           "programs"
                     for name in ("PoissonBackward0", "StandardGammaBackward0",
                                  "StandardGammaGradBackward0")})
NOT_COMPARED["GeqrfBackward0"] = "PyTorch has no derivative for geqrf (its backward raises, as minigrad's)"
NOT_COMPARED["LinalgHouseholderProductBackward0"] = (
    "written with minigrad's ops (the chain rule through the reflectors), not PyTorch's "
    "householder_product_backward: the values agree (tests/core/ops/test_householder.py)")
NOT_COMPARED["SpecialZetaBackward2"] = (
    "zeta(x, number): PyTorch has no derivative for x (its backward raises, as minigrad's)")
NOT_COMPARED["AffineGridGeneratorBackward0"] = (
    "its recorded backward is one matrix product with the constant base grid, where PyTorch's "
    "views the base grid and calls bmm: the same values")
NOT_COMPARED["CtcLossBackward0"] = (
    "PyTorch has no second derivative of ctc_loss (its recorded backward is a NotImplemented "
    "node whose backward raises: tests/nn/test_nn_ctc_loss.py)")
NOT_COMPARED["LinalgMatrixExpBackward0"] = (
    "its recorded backward builds the block matrix [[A^T, G], [0, A^T]] with cat, where "
    "PyTorch copies into slices of zeros (CopySlices): the same values "
    "(tests/core/ops/test_linalg_module.py, test_second_derivatives)")

NOT_COMPARED["NarrowCopyBackward0"] = (
    "its recorded backward is a slice_scatter into zeros (SliceScatterBackward0), where "
    "PyTorch records SliceBackwardBackward0: the same values (tests/core/ops/"
    "test_view_scatter.py, test_second_derivatives)")
NOT_COMPARED["AsStridedScatterBackward0"] = (
    "PyTorch 2.13's gradient for self is not the derivative (its gradcheck fails; the strict "
    "xfail in tests/core/ops/test_view_scatter.py): minigrad's is checked by finite differences")

NOT_COMPARED["IndexReduceBackward0"] = (
    "its recorded backward is scatter_reduce's (gather, scatter_reduce with the index spread "
    "over each slice), where PyTorch's index_reduce_backward records index_select and "
    "index_reduce: the same values (tests/core/ops/test_index_reduce.py)")


def _seeded(lib, program):
    lib.manual_seed(0)
    return program()


def _set_row(y, value):
    y[0] = value[1]
    return y * value


def _put_rows(lib, y, value):
    y[[0]] = value[[1]]
    return y * value


def _put_mask(lib, y, value):
    y[lib.tensor([True, False])] = value[1:]
    return y * value


def _joined(lib, parts):
    return lib.cat([p * p for p in parts[::-1]], 1)


def _creation_order(tensors) -> tuple:
    """The names of the nodes reachable from ``tensors`` (leaves aside), in the
    order they were made."""
    seen, stack, nodes = set(), [t.grad_fn for t in tensors if t is not None and
                                 t.grad_fn is not None], []
    while stack:
        node = stack.pop()
        if id(node) in seen or node is None:
            continue
        seen.add(id(node))
        if "AccumulateGrad" not in node.name():
            number = node._sequence_nr() if callable(node._sequence_nr) else node._sequence_nr
            nodes.append((number, node.name()))
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return tuple(name for _, name in sorted(nodes))


def _program(name, graphs: bool = True, orders: int = 3):
    """The program of ``PROGRAMS[name]`` differentiated ``orders`` times (3), each time
    with create_graph=True. ``graphs=False``: the derivatives are shown as values only
    (detached), without the nodes they were recorded through."""
    def shown(grads):
        return grads if graphs else tuple(g if g is None else g.detach() for g in grads)

    def program(lib, rec):
        a = rec.leaf([[0.7, -1.3, 2.1], [0.4, 1.1, -0.6]], dtype="float64")
        b = rec.leaf([[0.9, 0.5, -1.2], [1.6, -0.8, 0.3]], dtype="float64")
        y = PROGRAMS[name](lib, a, b)
        rec.show("y", y)
        if orders == 0:
            return
        size = int(np.prod(tuple(y.shape), dtype=np.int64))
        upstream = rec.leaf((np.arange(size) * 0.7 - 1.1).reshape(tuple(y.shape)),
                            dtype=str(y.dtype).split(".")[-1])
        first = lib.autograd.grad(y, [a, b], upstream, create_graph=True, allow_unused=True)
        rec.show("first order", shown(first))
        if graphs:
            rec.show("first order, nodes in creation order", _creation_order(first))
        wanted = [g for g in first if g is not None and g.requires_grad]
        if not wanted or name in FIRST_ORDER_ONLY or orders == 1:
            return
        total = sum(((g * g.detach().cos()).sum() for g in wanted), lib.zeros((), dtype=lib.float64))
        second = lib.autograd.grad(total, [a, b, upstream], create_graph=True, allow_unused=True)
        rec.show("second order", shown(second))
        if graphs:
            rec.show("second order, nodes in creation order", _creation_order(second))
        wanted = [g for g in second if g is not None and g.requires_grad]
        if wanted and orders == 3:
            sum(((g * g.detach().sin()).sum() for g in wanted)).backward()
            rec.show("third order", (a.grad, b.grad, upstream.grad))
    return program


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_formula_records_its_nodes_in_torchs_order(name):
    """Where PyTorch computes a derivative with an op of its own (an XBackwardBackward0
    node, ConvolutionBackwardBackward0, NativeLayerNormBackwardBackward0, ...), a backward
    with create_graph=True records that node in minigrad too."""
    assert_same_run(_program(name))


def test_every_formula_is_checked():
    listed = set(PROGRAMS) | set(RECORDED_BY_A_BACKWARD) | set(NOT_COMPARED)
    missing = sorted(set(FORMULAS) - listed)
    assert not missing, f"no program makes {missing}"
    assert {v.split()[0] for v in RECORDED_BY_A_BACKWARD.values()} <= set(PROGRAMS)


@pytest.mark.parametrize("name", ["MaskedFillBackward1", "MaxBackward1"])
def test_fourth_order_through_masked_select_is_torchs(name):
    """The value of masked_fill gets the sum of G where mask is True (MaskedSelectBackward0),
    whose own backward writes into zeros (MaskedScatterBackward0)."""
    def program(lib, rec):
        a = rec.leaf([[0.7, -1.3, 2.1], [0.4, 1.1, -0.6]], dtype="float64")
        b = rec.leaf([[0.9, 0.5, -1.2], [1.6, -0.8, 0.3]], dtype="float64")
        g = PROGRAMS[name](lib, a, b)
        for order in range(1, 5):
            g, = lib.autograd.grad((g * g.detach().cos()).sum() + (g * b.sum()).sum(), [b],
                                   create_graph=True)
            rec.show(f"order {order}", g)
            rec.show(f"order {order}, nodes in creation order", _creation_order([g]))
    assert_same_run(program)


def test_no_program_is_written_over():
    """A dict literal keeps the last of two equal keys: a program written twice under one
    name would silently never run. Read from the source, every key of PROGRAMS is new."""
    tree = ast.parse(Path(__file__).read_text())
    literal = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                   and getattr(node.targets[0], "id", None) == "PROGRAMS")
    keys = [key.value for key in literal.keys]
    assert len(keys) == len(PROGRAMS) and len(set(keys)) == len(keys)
