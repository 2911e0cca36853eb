"""minigrad: PyTorch's tensor autograd, in short readable NumPy.

``import minigrad as torch`` runs the PyTorch autograd tutorial unchanged:
same printed tensors, same ``grad_fn`` names, same gradients, same errors.

Where things live (README.md beside this file is the reading map: which files to
read, in which order). Imports go down this list only:
    kernels/        NumPy computed as PyTorch's CPU kernels compute it (bits, threads)
    autograd/       the graph and the engine: Node, saving, the walk, Function, grad
    rules/          PyTorch's rules around any op: promotion, layouts, argument errors
    ops/            one small class per operation (formula, forward, backward), then
                    one short entry function per op
    tensor.py       the Tensor class (its methods call the ops)
    functions.py    torch.add, torch.sum, ...: PyTorch's signatures, calling the ops
    creation.py     tensor(), ones(), randn(), ...
    random.py       torch.Generator, manual_seed, get_rng_state (PyTorch's own generator)
    _printing.py    how tensors print
    dtypes.py, errors.py, size.py, devices.py, layouts.py, cuda.py, backends/
    nn/, optim/     torch.nn and torch.optim, written on the public API
    utils/data/     Dataset, DataLoader, random_split (torch.utils.data)
    serialization/  save, load in PyTorch's file format
"""

import math as _math

from .kernels.memory import freeze_imported_objects as _freeze_imported_objects
from .kernels.memory import keep_freed_memory as _keep_freed_memory

_keep_freed_memory()  # (once, before any array: big arrays reuse freed memory; see there)

from . import accelerator, autograd, backends, cuda, dtypes, ops  # noqa: F401
# (PyTorch's constants: torch.inf, torch.nan, torch.pi, torch.e are Python floats, and
# torch.newaxis is None, as NumPy's)
inf, nan, pi, e, newaxis = _math.inf, _math.nan, _math.pi, _math.e, None
# (the module minigrad/tensor.py first: importing it later would bind the name
# ``minigrad.tensor`` to the module, over the function ``tensor`` below)
from .tensor import Size, Tensor  # noqa: F401
from ._printing import set_printoptions  # noqa: F401
from .autograd import (  # noqa: F401
    enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
    set_grad_enabled,
)
from .autograd.anomaly import (  # noqa: F401
    is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled,
)
from .creation import (  # noqa: F401
    BoolTensor, DoubleTensor, FloatTensor, IntTensor, LongTensor, arange, as_tensor, asarray,
    bernoulli, empty, empty_like, eye, from_numpy, tril_indices, triu_indices, full, full_like,
    linspace, logspace, multinomial, normal, ones, ones_like,
    rand, rand_like, randint, randint_like, randn, randn_like, randperm, tensor, zeros,
    zeros_like, _standard_gamma, _standard_gamma_grad, _sample_dirichlet, _dirichlet_grad,
    poisson, binomial,
)
from . import random  # noqa: F401  (torch.random)
from .random import (  # noqa: F401
    Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state,
)
from .layouts import (  # noqa: F401
    channels_last, channels_last_3d, contiguous_format, layout, memory_format, preserve_format,
    strided,
)
from .devices import device, get_default_device, set_default_device  # noqa: F401
from .dtypes import (  # noqa: F401
    bool, dtype, float16, float32, float64, get_default_dtype, int8, int16, int32, int64, uint8,
)
from .dtypes import bfloat16  # noqa: F401  (named only: minigrad has no bfloat16 tensors)
from .dtypes import set_default_dtype  # noqa: F401
from .type_info import finfo, iinfo  # noqa: F401
from .functions import (  # noqa: F401
    abs, add, all, allclose, any, argmax, argmin, bmm, cat, chunk, clamp, clip, clone, cos,
    cummax, cummin, cumprod, cumsum, dist, div, dot, hardshrink, logcumsumexp, rrelu, rrelu_,
    adjoint, conj, conj_physical, fliplr, flipud, imag, is_conj, real, resolve_conj, resolve_neg,
    rsub,
    eq, equal, exp, flatten, flip, gather, ge, gt, isclose, le, log, log_softmax, logsumexp, lt,
    index_put, masked_fill, masked_scatter, masked_select,
    matmul, max, maximum, mean, min, minimum, mm, mul, mv, narrow, ne, neg, norm, numel,
    permute, pow, prod, promote_types, relu, reshape, result_type, select, sigmoid, sign, sin,
    softmax, split, split_with_sizes, sqrt, squeeze, stack, std, sub, sum, t, tanh,
    tensor_split, transpose, tril, triu, unbind, unsafe_chunk, unsafe_split,
    unsafe_split_with_sizes,
    unsqueeze, var, where,
)
from .functions import (  # noqa: F401  (rounding, logarithms, the division family)
    ceil, expm1, fix, floor, floor_divide, fmod, frac, isfinite, isinf, isnan, log1p, log2, log10,
    reciprocal, remainder, round, rsqrt, square, trunc,
)
from .functions import (  # noqa: F401  (trigonometry and special functions)
    acos, acosh, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, asin, asinh, atan,
    atan2, atanh, copysign, cosh, deg2rad, digamma, erf, erfc, erfinv, exp2, geqrf, i0, igamma,
    igammac, orgqr,
    lgamma, mvlgamma,
    polygamma,
    float_power, heaviside, hypot, nextafter,
    addcdiv, addcmul, angle, lerp, logaddexp, logaddexp2, logit, rad2deg, sgn, sinc, sinh, tan,
    xlogy,
)
from . import special  # noqa: F401  (torch.special)
from .functions import (  # noqa: F401  (order: ops/sorting.py)
    amax, amin, aminmax, argsort, kthvalue, median, mode, nanmedian, nanquantile, quantile, sort,
    topk,
)
from .functions import (  # noqa: F401  (ops/scatter.py)
    index_add, index_copy, index_fill, index_reduce, index_select, scatter, scatter_add,
    scatter_reduce,
)
from .functions import block_diag, diag, diag_embed, diagonal, trace  # noqa: F401  (ops/diagonal.py)
from .functions import (  # noqa: F401  (ops/limits.py, ops/compare.py, ops/counting.py)
    argwhere, bincount, bucketize, clamp_max, clamp_min, count_nonzero, histc, histogram,
    histogramdd, nonzero_static, gradient, logical_and, logical_not, logical_or, logical_xor, nan_to_num, nonzero, searchsorted, unique,
)
from .functions import (  # noqa: F401  (ops/repeat.py, ops/combine.py)
    cartesian_prod, column_stack, combinations, corrcoef, cov, cumulative_trapezoid, dstack,
    einsum, ger, hstack, kron, meshgrid, outer, repeat_interleave, tensordot, trapezoid, trapz,
    row_stack, tile, vstack,
)
from .functions import (  # noqa: F401  (ops/linalg.py, ops/rolling.py, ops/distance.py)
    addmm, addmv, baddbmm, cdist, pdist, cross, roll, rot90, vdot, addr, addbmm, select_scatter,
    slice_scatter, diagonal_scatter, as_strided_scatter, narrow_copy, ldexp, frexp, renorm, norm_except_dim, _weight_norm,
)
from .functions import mkldnn_rnn_layer  # noqa: F401  (ops/recurrent.py: nn.LSTM's float32 layers)
from .functions import (  # noqa: F401  (other names: ops/aliases.py)
    absolute, concat, concatenate, is_complex, is_floating_point, is_inference, moveaxis, movedim,
    msort,
    negative, positive, ravel, swapaxes, swapdims, true_divide, unflatten,
    atleast_1d, atleast_2d, atleast_3d, broadcast_tensors, broadcast_to, diff, dsplit, hsplit,
    take_along_dim, vsplit,
    greater, greater_equal, less, less_equal, not_equal, multiply, subtract, divide, isposinf,
    isneginf, isreal, inner, diagflat, unique_consecutive,
)
from .functions import (  # noqa: F401  (ops/compare.py)
    bitwise_and, bitwise_not, bitwise_or, bitwise_xor, gcd, isin, lcm, signbit,
    bitwise_left_shift, bitwise_right_shift,
)
from .functions import fmax, fmin, nanmean, nansum, put, std_mean, take, var_mean  # noqa: F401
from .creation import empty_permuted, empty_strided, frombuffer, scalar_tensor  # noqa: F401
from .creation import deprecated_range as range  # noqa: F401,A004  (torch.range, deprecated)
from .functions import (  # noqa: F401  (shapes, dtypes and indices as data)
    broadcast_shapes, can_cast, chain_matmul, typename, unravel_index, vander)
from .functions import METHOD_FUNCTIONS as _METHOD_FUNCTIONS  # (torch.exp_(x), torch.relu_(x), ...)
globals().update(_METHOD_FUNCTIONS)

from .functions import (  # noqa: F401  (ops/linalg_module.py)
    cholesky, cholesky_inverse, cholesky_solve, det, inverse, logdet, matrix_exp, matrix_power,
    pinverse, slogdet, svd, lu, lu_solve, lu_unpack,
)
from . import linalg  # noqa: F401  (torch.linalg)
from . import functional  # noqa: F401  (torch.functional: einsum, split, norm, ...)
from .kernels.threads import get_num_threads, set_num_threads  # noqa: F401
from . import nn, optim, utils  # noqa: F401  (the top floor, written on the public API)
from .layer_functions import *  # noqa: F401,F403  (torch.conv2d, torch.dropout, ...: top floor)
from .windows import (  # noqa: F401  (top floor)
    bartlett_window, blackman_window, hamming_window, hann_window, kaiser_window)
from .autograd import functional as _functional  # noqa: F401  (torch.autograd.functional: top floor)
from . import profiler  # noqa: F401  (torch.profiler)
from .serialization import load, save  # noqa: F401  (torch.save, torch.load: PyTorch's files)
from . import amp  # noqa: F401  (torch.amp: GradScaler, autocast; top floor)
from . import distributions  # noqa: F401  (torch.distributions: top floor)
from . import testing  # noqa: F401  (torch.testing.assert_close: top floor)
from . import func  # noqa: F401  (torch.func: grad, vmap, jacrev, ...; top floor)
from .removed import eig, lstsq, matrix_rank, solve, symeig  # noqa: F401  (PyTorch 2's errors)
from . import _dynamo, compiler  # noqa: F401  (torch.compile, run eagerly: top floor)
from . import jit  # noqa: F401  (torch.jit: script, trace, save, load, run as Python; top floor)
from .compiler import compile  # noqa: F401,A004
from .func import vmap  # noqa: F401  (torch.vmap)
from .amp import autocast, is_autocast_enabled  # noqa: F401
from .cuda import amp as _cuda_amp  # noqa: F401  (torch.cuda.amp, the deprecated spellings)
from .backends.precision import (  # noqa: F401
    are_deterministic_algorithms_enabled, get_deterministic_debug_mode,
    get_float32_matmul_precision, is_deterministic_algorithms_warn_only_enabled,
    set_deterministic_debug_mode, set_float32_matmul_precision, use_deterministic_algorithms,
    get_num_interop_threads, set_flush_denormal, set_num_interop_threads)
from .errors import is_warn_always_enabled, set_warn_always  # noqa: F401
from .rules import parser as _parser

__version__ = "0.1.0"

# Named as PyTorch names them (``torch.Tensor``, ``torch.Size``, ...): ``print(type(x))``
# shows <class 'minigrad.Tensor'>, as torch's shows <class 'torch.Tensor'>.
for _cls in (Tensor, Size, dtype, device):
    _cls.__module__ = __name__

# PyTorch's dtype aliases.
float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16


def is_tensor(obj) -> "builtins.bool":  # noqa: F821
    """True if ``obj`` is a minigrad Tensor."""
    return isinstance(obj, Tensor)


# A call that does not bind raises PyTorch's argument parser's error ("add() received an
# invalid combination of arguments ..."), the same rule for every function (rules/parser.py).
globals().update(_parser.parsed_namespace(globals(), list(globals())))
# torch.functional's functions are torch's own (its unique is torch.unique)
vars(functional).update({_name: globals()[_name] for _name in functional.__all__
                         if _name in globals()})

# Last: the objects of the import, out of the garbage collector's walks (see there).
_freeze_imported_objects()
