"""The operations, one small class per op (forward and backward side by side).

| module        | what lives there                                        |
|---------------|---------------------------------------------------------|
| arithmetic    | + - * / ** and negation                                 |
| pointwise     | exp, log, sqrt, tanh, sigmoid, relu, abs, clamp, where  |
| rounding      | log10, log1p, expm1, rsqrt, floor, round, // % fmod     |
| reduction     | sum, mean, max, min, prod, var, std, norm, softmax      |
| cumulative    | cumsum, cumprod                                         |
| shape         | view, reshape, transpose, permute, expand, cat, stack   |
| indexing      | x[...] reads and writes                                 |
| gather        | gather (and its backward, scatter_add)                  |
| linalg        | matmul, mm, mv, dot, bmm, addmm                         |
| loss          | nll_loss, mse_loss, binary_cross_entropy(_with_logits), |
|               | smooth_l1_loss, huber_loss                              |
| activation    | leaky_relu, elu, softplus, silu, hardtanh               |
| padding       | constant_pad_nd, edge_pad (F.pad's modes)               |
| batch_norm    | native_batch_norm (NativeBatchNormBackward0)            |
| compare       | == != < <= > >= and & | ^ ~ (not differentiable)        |
| inplace       | add_, mul_, zero_, ... and the rules for them           |
"""

from ..rules.arguments import normalize_dim, normalize_dims
from .arithmetic import add, div, mul, neg, pow, reciprocal, rpow, rsub, scalar_op, sub  # noqa: F401
from . import activation  # noqa: F401 (leaky_relu, elu, ...: called as activation.elu)
from .batch_norm import native_batch_norm  # noqa: F401
from . import padding  # noqa: F401 (edge_pad: padding.edge_pad)
from .padding import constant_pad_nd  # noqa: F401
from .cumulative import cumprod, cumsum  # noqa: F401
from .compare import (  # noqa: F401
    allclose, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, eq, equal, ge, gt, isclose, le,
    isfinite, isinf, isnan,
    logical_not, lt, ne,
)
from .gather import gather  # noqa: F401
from .indexing import getitem, masked_select, select, setitem, slice_dim  # noqa: F401
from .inplace import copy, fill, inplace, zeros_like_op  # noqa: F401
from .linalg import addmm, bmm, dot, matmul, mm, mv  # noqa: F401
from .loss import (  # noqa: F401
    binary_cross_entropy, binary_cross_entropy_with_logits, huber_loss, mse_loss, nll_loss_images,
    nll_loss_rows, smooth_l1_loss,
)
from .pointwise import (  # noqa: F401
    abs, clamp, clamp_min, cos, exp, log, masked_fill, maximum, minimum, relu, sigmoid, sign, sin,
    sqrt, tanh, where,
)
from .rounding import (  # noqa: F401
    ceil, div_rounding, expm1, floor, floor_divide, fmod, frac, log1p, log2, log10, remainder,
    round, rsqrt, square, trunc,
)
from .reduction import (  # noqa: F401
    all, any, argmax, argmin, log_softmax, logsumexp, max, mean, min, norm, prod, softmax,
    std, sum, var,
)
from .reduction import NOT_GIVEN  # noqa: F401 (sum's and mean's dim when none is given)
from .split import (  # noqa: F401
    chunk, split, split_with_sizes, tensor_split, unbind, unsafe_chunk, unsafe_split,
    unsafe_split_with_sizes)
from .strided import as_strided, regenerate_grad_fn, storage_offset, stride  # noqa: F401
from .shape import (  # noqa: F401
    cat, clone, contiguous, expand, flatten, flip, narrow, permute, reshape, squeeze, squeeze_,
    stack, t, t_, to_dtype, transpose, transpose_, unsqueeze, unsqueeze_, view,
)
