"""The operations, one small class per op (forward and backward side by side).

| module        | what lives there                                        |
|---------------|---------------------------------------------------------|
| arithmetic    | + - * / ** and negation                                 |
| pointwise     | exp, log, sqrt, tanh, sigmoid, relu, abs, clamp, where  |
|               | masked_fill, tril, triu, fmax, fmin                     |
| rounding      | log10, log1p, expm1, rsqrt, floor, round, // % fmod     |
| trig          | tan, asin, atan2, sinh, acosh, hypot, sinc, deg2rad     |
| special       | erf, erfinv, exp2, logit, xlogy, lerp, addcmul, addcdiv,|
|               | logaddexp, ...                                          |
| reduction     | sum, mean, max, min, prod, var, std, norm, softmax      |
|               | nansum, nanmean, var_mean, std_mean                     |
| sorting       | amax, amin, aminmax, sort, argsort, topk, kthvalue,     |
|               | median, nanmedian, mode                                 |
| quantile      | quantile, nanquantile (sort, gather, lerp)              |
| cumulative    | cumsum, cumprod, cummax, cummin, logcumsumexp           |
| shape         | view, reshape, transpose, permute, expand, cat, stack   |
| indexing      | x[...] reads and writes, index_put, masked_scatter      |
| gather        | gather (and its backward, scatter_add), take            |
| layers        | embedding(_bag), layer_norm, group_norm, gelu, attention |
| norm_backward | the normalisations' derivatives, differentiated again   |
| conv          | convolution, max/avg/adaptive-avg pooling               |
| conv_backward | convolution's derivative as one node, and its own       |
| upsample      | upsample (nearest, linear, bilinear), pixel_shuffle     |
| diagonal      | diagonal, diag_embed, diag, trace, fill_diagonal_       |
| repeat        | repeat, tile, repeat_interleave                         |
| limits        | clamp_min, clamp_max, nan_to_num, renorm                |
| counting      | count_nonzero, nonzero, unique(_consecutive), bincount, |
|               | histc, histogram, histogramdd, nonzero_static           |
| combine       | hstack, vstack, outer, kron, meshgrid, einsum,          |
|               | trapezoid, cumulative_trapezoid, tensordot,             |
|               | cartesian_prod, combinations, cov, corrcoef             |
| rolling       | roll, rot90, Tensor.unfold (windows along a dim)        |
| distance      | cdist, pdist                                            |
| scatter       | index_select, index_add/fill/copy, scatter,             |
|               | scatter_reduce                                          |
| linalg        | matmul, mm, mv, dot, vdot, bmm, addmm, addmv, baddbmm,  |
|               | addbmm, addr, cross                                     |
| differences   | gradient (torch.gradient: central differences)          |
| index_reduce  | index_reduce (scatter_reduce with a 1-D index)          |
| fractional_pool | fractional max pooling (pseudo-random strides)        |
| view_scatter  | select_scatter, slice_scatter, diagonal_scatter,        |
|               | as_strided_scatter, narrow_copy                         |
| linalg_module | torch.linalg: inv, solve, det, slogdet, svd, qr, eigh,  |
|               | cholesky, pinv, lstsq, matrix_power, the matrix norms   |
| linalg_lu     | lu_factor(_ex), lu, lu_unpack, lu_solve                 |
| loss          | nll_loss, mse_loss, binary_cross_entropy(_with_logits), |
|               | smooth_l1_loss, huber_loss, soft_margin_loss,           |
|               | multi_margin_loss, multilabel_margin_loss, ctc_loss     |
| activation    | leaky_relu, elu, softplus, silu, hardtanh               |
| padding       | edge_pad (F.pad's reflect and replicate modes)          |
| batch_norm    | native_batch_norm (NativeBatchNormBackward0)            |
| recurrent     | mkldnn_rnn_layer (a float32 LSTM layer as one node)     |
| packed_sequence | pack_padded_sequence (the steps of a padded batch)    |
| compare       | == != < <= > >= & | ^ ~ logical_* (not differentiable)  |
|               | gcd, lcm, signbit, isin                                 |
| inplace       | add_, mul_, zero_, ... and the rules for them           |
| aliases       | movedim, unflatten, ravel, msort, broadcast_to, diff,   |
|               | atleast_*, hsplit, take_along_dim (composed of others)  |
| special_functions | the rest of torch.special: Bessel, Airy, orthogonal |
|               | polynomials, erfcx, ndtri, log_ndtr, zeta, multigammaln |
| householder   | geqrf, householder_product (orgqr)                      |
| split         | unbind, split, chunk, tensor_split (views, one node)    |
| strided       | strides, as_strided, a view's node after its memory     |
|               | changed in place                                        |
| random        | normal_, uniform_, bernoulli_, ... (PyTorch's nodes)    |
| sampling      | grid_sampler, affine_grid_generator                     |
| fn            | the functions backward formulas call (fn.where, ...):   |
|               | NumPy on arrays, the op on Tensors                      |
| _saved        | how a node shows the ints it saved (_saved_dim)         |
"""

from ..rules.arguments import normalize_dim, normalize_dims
from . import aliases  # noqa: F401 (movedim, unflatten, ravel, msort: aliases.movedim)
from .reduction import nanmean, nansum, std_mean, var_mean  # noqa: F401
from .pointwise import fmax, fmin  # noqa: F401
from .gather import put, take  # noqa: F401
from .arithmetic import add, div, mul, neg, pow, reciprocal, rpow, rsub, scalar_op, sub  # noqa: F401
# (max_pool1d in nn.functional asks for the 1-D kernel's dtype check, PyTorch's own text)
from ..rules.conv import (check_dtype as check_pool_dtype, check_adaptive_empty,  # noqa: F401
                          check_max_pool1d, check_pad, fractional_sizes)
from .conv import (  # noqa: F401
    adaptive_avg_pool, adaptive_max_pool, avg_pool, constant_pad, conv_transpose, convolution, fold,
    max_pool, max_unpool, unfold)
from .counting import (  # noqa: F401
    argwhere, bincount, bucketize, count_nonzero, histc, histogram, HistogramOutResult, nonzero,
    histogramdd, nonzero_static, searchsorted, unique,
    unique_consecutive)
from . import activation  # noqa: F401 (leaky_relu, elu, ...: called as activation.elu)
from .batch_norm import native_batch_norm  # noqa: F401
from . import padding  # noqa: F401 (edge_pad: padding.edge_pad)
from .cumulative import cummax, cummin, cumprod, cumsum, logcumsumexp  # noqa: F401
from .compare import (  # noqa: F401
    compared_in_place, allclose, bitwise_and, bitwise_left_shift, bitwise_right_shift, bitwise_not, bitwise_or, bitwise_xor, eq, equal, ge, gt, isclose, le,
    isfinite, isinf, isnan,
    logical_and, logical_not, logical_or, logical_xor, lt, ne, gcd, lcm, signbit, isin,
    bitwise_not_function,
)
from .combine import (  # noqa: F401
    cartesian_prod, column_stack, combinations, corrcoef, cov, cumulative_trapezoid, dstack,
    einsum, hstack, kron, meshgrid, outer, tensordot, trapezoid, vstack)
from .distance import cdist, pdist  # noqa: F401
from .diagonal import block_diag, diag, diag_embed, diagonal, fill_diagonal_, trace  # noqa: F401
from .gather import gather  # noqa: F401
from .indexing import (  # noqa: F401
    getitem, index_put, masked_scatter, masked_select, select, setitem, slice_dim)
from .inplace import copy, fill, inplace, masked_fill_, zeros_like_op  # noqa: F401
from .inplace import check_inplace, counted as inplace_counted, rebase_history  # noqa: F401
from .inplace import write_refused_out  # noqa: F401
from .limits import clamp_max, clamp_min, nan_to_num, renorm  # noqa: F401
from .linalg import (  # noqa: F401
    addbmm, addmm, addmv, addr, baddbmm, bilinear, bmm, cross, dot, matmul, mm, mv, vdot)
from .differences import gradient  # noqa: F401
from .fractional_pool import fractional_max_pool  # noqa: F401
from .index_reduce import index_reduce  # noqa: F401
from .view_scatter import (  # noqa: F401
    as_strided_scatter, diagonal_scatter, narrow_copy, select_scatter, slice_scatter)
from . import linalg_module  # noqa: F401 (torch.linalg: linalg_module.inv, ...)
from . import linalg_lu  # noqa: F401 (torch.linalg.lu_factor, lu, lu_solve; torch.lu_unpack)
from . import sampling  # noqa: F401 (grid_sampler, affine_grid_generator: sampling.grid_sampler)
from . import recurrent  # noqa: F401 (a float32 LSTM layer as one node: recurrent.mkldnn_rnn_layer)
from .packed_sequence import pack_padded_sequence  # noqa: F401
from .loss import (  # noqa: F401
    binary_cross_entropy, binary_cross_entropy_with_logits, ctc_loss, huber_loss, mse_loss,
    multi_margin_loss, multilabel_margin_loss, nll_loss_images, nll_loss_rows, smooth_l1_loss,
    soft_margin_loss,
)
from .pointwise import (  # noqa: F401
    abs, clamp, cos, exp, log, masked_fill, maximum, minimum, relu, sgn, sigmoid, sign, sin,
    sqrt, tanh, tril, triu, where,
)
from .upsample import channel_shuffle, pixel_shuffle, pixel_unshuffle, upsample  # noqa: F401
from .layers import (  # noqa: F401
    embedding, embedding_bag, flash_attention, gelu, group_norm, layer_norm, weight_norm)
from .rounding import (  # noqa: F401
    ceil, div_rounding, expm1, floor, floor_divide, fmod, frac, frexp, ldexp, log1p, log2, log10,
    remainder,
    round, rsqrt, square, trunc,
)
from .special import (  # noqa: F401
    copysign, entr, erf, erfc, erfinv, exp2, expit, float_power, heaviside, lerp, addcmul, addcdiv,
    lgamma, nextafter, digamma, polygamma, polygamma_, logaddexp,
    logaddexp2, logit, ndtr, xlogy, i0, special_i1, special_i0e, special_i1e, xlog1py,
)
from . import special_functions  # noqa: F401
from . import householder  # noqa: F401
from .trig import (  # noqa: F401
    acos, acosh, acosh_, angle, asin, asinh, asinh_, atan, atan2, atanh, atanh_, cosh, deg2rad,
    hypot, rad2deg, sinc, sinh, tan,
)
from .reduction import (  # noqa: F401
    aten_norm,
    all, any, argmax, argmin, dist, log_softmax, logsumexp, max, mean, min, norm, prod,
    safe_softmax, softmax, std, sum, var,
)
from .reduction import NOT_GIVEN  # noqa: F401 (sum's and mean's dim when none is given)
from .repeat import repeat, repeat_interleave, tile  # noqa: F401
from .rolling import roll, rot90, unfold as unfold_windows  # noqa: F401
from .scatter import (  # noqa: F401
    index_add, index_copy, index_fill, index_select, scatter, scatter_add, scatter_reduce)
from .sorting import (  # noqa: F401
    amax, amin, aminmax, argsort, kthvalue, median, mode, nanmedian, sort, topk)
from .quantile import nanquantile, quantile  # noqa: F401
from .split import (  # noqa: F401
    chunk, split, split_with_sizes, tensor_split, unbind, unsafe_chunk, unsafe_split,
    unsafe_split_with_sizes)
from .strided import (as_strided, as_strided_, regenerate_grad_fn, storage_offset,  # noqa: F401
                      stride)
from .shape import (  # noqa: F401
    cat, clone, contiguous, expand, flatten, flip, fliplr, flipud, narrow, permute, reshape, squeeze, squeeze_,
    stack, t, t_, to_dtype, transpose, transpose_, unsqueeze, unsqueeze_, view, view_dtype,
)
