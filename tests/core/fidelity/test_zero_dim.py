"""Every elementwise function, activation, reduction and loss on a 0-dim tensor against
PyTorch 2.13, float32 and float64: the printed result and the gradient. (Kernels written
for arrays meet NumPy's 0-dim rules here: arithmetic on a 0-dim array gives a scalar, and
``frompyfunc`` a bare Python float; erf, lgamma, asinh, gelu and float64 tanh's backward
each once crashed on a 0-dim tensor.)"""

from __future__ import annotations

import warnings

import pytest
import torch

import minigrad as mg

UNARY = ("abs acos acosh asin asinh atan atanh ceil cos cosh deg2rad digamma erf erfc erfinv "
         "exp exp2 expm1 floor frac lgamma log log10 log1p log2 logit neg rad2deg reciprocal "
         "relu round rsqrt sigmoid sign sgn sin sinc sinh sqrt square tan tanh trunc fix "
         "nan_to_num positive negative absolute arccos arcsin arctan").split()
ACTIVATIONS = ("relu relu6 elu selu celu gelu silu mish softplus softsign tanhshrink hardtanh "
               "hardswish hardsigmoid logsigmoid leaky_relu softshrink hardshrink").split()
REDUCTIONS = ("sum mean prod max min amax amin argmax argmin norm std var median nansum "
              "nanmean all any count_nonzero").split()
ALONG_DIM_0 = "logsumexp softmax log_softmax cumsum cumprod logcumsumexp".split()
OTHERS = [
    "x.pow(2.5)", "x ** x", "2 ** x", "x.clamp(0, 1)", "torch.atan2(x, x + 1)",
    "torch.hypot(x, x)", "torch.xlogy(x, x.abs())", "torch.lerp(x, x * 2, 0.3)",
    "torch.polygamma(2, x)", "torch.special.ndtr(x)", "torch.special.entr(x)",
    "F.gelu(x, approximate='tanh')", "torch.dist(x, x * 2)", "F.mse_loss(x, x * 3)",
    "F.l1_loss(x, x * 3)", "F.smooth_l1_loss(x, x * 3)", "F.huber_loss(x, x * 3)",
    "F.binary_cross_entropy_with_logits(x, x.sigmoid())",
    "F.binary_cross_entropy(x.sigmoid(), x.sigmoid().detach())",
    "F.soft_margin_loss(x, x.sign())", "F.kl_div(x, x.exp().detach(), reduction='sum')",
    "F.poisson_nll_loss(x, x.abs())", "F.gaussian_nll_loss(x, x, x.abs() + 1)",
    "torch.addcmul(x, x, x)", "torch.addcdiv(x, x, x + 3)", "torch.logaddexp(x, x)",
    "torch.fmod(x, 0.7)", "torch.remainder(x, 0.7)", "x // 0.7", "torch.maximum(x, x * 0.5)",
    "x.sort()[0]", "x.topk(1)[0]", "x.kthvalue(1)[0]", "x.mode()[0]", "x.cummax(0)[0]",
    "torch.var_mean(x)[0]", "x.float_power(2)", "torch.copysign(x, -x)", "x.flip(0)",
    "x.roll(1)", "x.expand(3)", "torch.kron(x, x)", "torch.einsum(',->', x, x)",
    "x.clone().tanh_()", "x.clone().erf_()", "x.clone().lgamma_()", "x.clone().asinh_()",
    "x.clone().sqrt_()", "x.clone().sigmoid_()",
]
EXPRESSIONS = ([f"x.{name}()" for name in UNARY] + [f"F.{name}(x)" for name in ACTIVATIONS]
               + [f"x.{name}()" for name in REDUCTIONS] + [f"x.{name}(0)" for name in ALONG_DIM_0]
               + OTHERS)


def _seen(expression: str, lib, dtype: str):
    x = lib.tensor(1.3, dtype=getattr(lib, dtype), requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            y = eval(expression, {"x": x, "torch": lib, "F": lib.nn.functional})  # noqa: S307
        except Exception as error:  # noqa: BLE001 - compared
            return type(error).__name__, str(error)
        seen = [repr(y).replace("minigrad", "torch")]
        if y.requires_grad:
            try:
                y.sum().backward()
            except Exception as error:  # noqa: BLE001 - compared
                return seen + [type(error).__name__, str(error)]
            seen.append(repr(x.grad))
    return seen


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_a_0_dim_tensor_gives_torchs_result_and_gradient(expression, dtype):
    assert _seen(expression, mg, dtype) == _seen(expression, torch, dtype)
