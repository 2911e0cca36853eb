"""Random numbers into tensors, recorded as PyTorch records them.

``x.normal_()``, ``uniform_``, ``random_``, ``bernoulli_``, ``exponential_``, ``cauchy_``,
``log_normal_`` and ``geometric_`` overwrite
``x`` with fresh numbers. Nothing of the old ``x`` reaches the new one, so the gradient
they pass back is zero; PyTorch still records them (``NormalBackward0``, ...), so that a
graph through them says what happened. ``torch.bernoulli(p)`` and ``torch.normal(mean,
std)`` with tensor arguments make new tensors the same way.

The numbers come from ``kernels/random.py``, which draws them as PyTorch's CPU kernels
do, from ``gen`` (the generator the caller chose: ``generator=`` or the default one).
A tensor is filled in the order of its memory, as PyTorch's TensorIterator walks it.
"""

from __future__ import annotations


import numpy as np

from .. import dtypes
from ..autograd.formula import Formula
from ..autograd.node import Node, Input, RESULT
from ..autograd.broadcast import broadcast_shapes
from ..autograd.tensor_base import is_tensor, make
from ..kernels import gamma as gamma_kernels, meta, random as kernels
from . import fn, rounding
from .inplace import inplace  # (the function: ops/__init__ gives the module's name to it)
from .. import errors

__all__ = ["normal_", "uniform_", "random_", "bernoulli_", "exponential_", "cauchy_",
           "log_normal_", "geometric_", "bernoulli",
           "normal", "multinomial", "standard_gamma", "standard_gamma_grad",
           "sample_dirichlet", "dirichlet_grad", "poisson", "binomial", "state_tensor", "state_bytes", "in_memory_order",
           "read_in_memory_order"]


class _Drawn(Node):
    """A result made of random numbers: nothing of the inputs reaches it, so each input's
    gradient is zero (of its own shape). ``forward`` gets ``draw``, which makes them."""

    def forward(self, *inputs, draw):
        return draw()

    def backward(self, saved, grad):
        grads = tuple(fn.zeros(meta[0], grad) if needed else None
                      for needed, meta in zip(self.needs_input_grad, self._input_meta))
        return grads[0] if len(grads) == 1 else grads


class NormalBackward0(_Drawn):  # x.normal_()
    formula = Formula("y", "x refilled with samples of a normal distribution", d={"x": "0"})


class UniformBackward0(_Drawn):  # x.uniform_()
    formula = Formula("y", "x refilled with samples of a uniform distribution", d={"x": "0"})


class RandomBackward0(_Drawn):  # x.random_(from, to)
    formula = Formula("y", "x refilled with random whole numbers", d={"x": "0"})


class RandomBackward1(_Drawn):  # x.random_(to)
    formula = Formula("y", "x refilled with random whole numbers", d={"x": "0"})


class RandomBackward2(_Drawn):  # x.random_()
    formula = Formula("y", "x refilled with random whole numbers", d={"x": "0"})


class BernoulliBackward1(_Drawn):  # x.bernoulli_(p) with a tensor p
    formula = Formula("y", "x refilled with random 0s and 1s", d={"x": "0", "p": "0"})


class BernoulliBackward2(_Drawn):  # x.bernoulli_(p) with a number p
    formula = Formula("y", "x refilled with random 0s and 1s", d={"x": "0"})


class ExponentialBackward0(_Drawn):  # x.exponential_()
    formula = Formula("y", "x refilled with samples of an exponential distribution",
                      d={"x": "0"})


class CauchyBackward0(_Drawn):  # x.cauchy_()
    formula = Formula("y", "x refilled with samples of a Cauchy distribution", d={"x": "0"})


class LogNormalBackward0(_Drawn):  # x.log_normal_()
    formula = Formula("y", "x refilled with samples of a log-normal distribution",
                      d={"x": "0"})


class GeometricBackward0(_Drawn):  # x.geometric_(p)
    formula = Formula("y", "x refilled with samples of a geometric distribution",
                      d={"x": "0"})


class BernoulliBackward0(_Drawn):  # torch.bernoulli(p)
    formula = Formula("y", "1 with probability p, else 0", d={"p": "0"})


class PoissonBackward0(_Drawn):  # torch.poisson(rates)
    formula = Formula("y", "a Poisson count for each rate", d={"rates": "0"})


class NormalBackward1(_Drawn):  # torch.normal(mean tensor, std number)
    formula = Formula("y", "samples of N(mean, std²)", d={"mean": "0"})

    def forward(self, mean, draw):
        self.save(mean_sym_sizes=mean.shape)  # (what PyTorch's node keeps: zeros' shape)
        return draw()


class NormalBackward2(_Drawn):  # torch.normal(mean number, std tensor)
    formula = Formula("y", "samples of N(mean, std²)", d={"std": "0"})

    def forward(self, std, draw):
        self.save(std_sym_sizes=std.shape)
        return draw()


class NormalBackward3(_Drawn):  # torch.normal(mean tensor, std tensor)
    formula = Formula("y", "samples of N(mean, std²)", d={"mean": "0", "std": "0"})

    def forward(self, mean, std, draw):
        self.save(mean_sym_sizes=mean.shape, std_sym_sizes=std.shape)
        return draw()


class StandardGammaBackward0(Node):  # torch._standard_gamma(alpha)
    formula = Formula("y", "a sample of Gamma(alpha, 1) (Marsaglia and Tsang's rejection)",
                      d={"alpha": "-(d cdf(y; alpha) / d alpha) / pdf(y; alpha)"})
    saves = {"self": Input(0), "result": RESULT}

    def forward(self, alpha, draw):
        return draw()

    def backward(self, saved, grad):
        return grad * fn.standard_gamma_grad(saved.self, saved.result)


class StandardGammaGradBackward0(Node):  # torch._standard_gamma_grad(alpha, x)
    formula = Formula("g", "d x / d alpha for x drawn from Gamma(alpha, 1)",
                      d={"alpha": "not implemented"},
                      note="PyTorch has no derivative for _standard_gamma_grad.")

    def forward(self, alpha, x):
        return gamma_kernels.standard_gamma_grad(alpha, x)

    def backward(self, saved, grad):
        raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")


# ---- where the numbers go ----------------------------------------------------------------


def _memory_axes(array: np.ndarray) -> list[int]:
    """``array``'s axes from the outermost to the innermost in memory (largest stride first)."""
    return sorted(range(array.ndim), key=lambda axis: -abs(array.strides[axis]))


def in_memory_order(array: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` (flat, in the order PyTorch fills ``array``: its memory order, the
    smallest stride innermost) laid out in ``array``'s shape."""
    if array.flags.c_contiguous:
        return values.reshape(array.shape)
    axes = _memory_axes(array)
    return values.reshape([array.shape[axis] for axis in axes]).transpose(np.argsort(axes))


def read_in_memory_order(array: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The elements of ``values`` (``array``'s shape) in ``array``'s memory order, flat."""
    if array.flags.c_contiguous:
        return values.ravel()
    return values.transpose(_memory_axes(array)).ravel()


def _refill(x, node_class, sample, *operands):
    """Overwrite ``x`` with ``sample(count, contiguous)`` (flat, in draw order), recorded
    as ``node_class``. The numbers are drawn inside the op, after PyTorch's checks on
    ``x``: a refused call leaves the generator as it was, and so does one on a meta
    tensor (no numbers), as PyTorch's."""
    layout = x._data

    def draw():
        if meta.is_meta(layout):
            return layout
        values = sample(layout.size, bool(layout.flags.c_contiguous))
        return in_memory_order(layout, np.asarray(values, dtype=layout.dtype))

    def op(source, *others):
        return node_class.apply(source, *others, draw=draw)

    return inplace(x, op, *operands)


def _number(value: float) -> str:
    """A double as C++'s ostream prints it in PyTorch's messages: 0.5, -1, 1e-10."""
    return format(float(value), "g")


def _check_floating(x, kernel: str) -> None:
    if not x.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{dtypes.SCALAR_NAMES[x.dtype]}'")


def _check_float_or_double(x, kernel: str) -> None:
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{dtypes.SCALAR_NAMES[x.dtype]}'")


# ---- in place ----------------------------------------------------------------------------------


def normal_(x, mean: float, std: float, gen: kernels.CPUGenerator):
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
    _check_floating(x, "normal_kernel_cpu")
    dtype = x.dtype.numpy
    return _refill(x, NormalBackward0, lambda count, contiguous: kernels.normal(
        gen, count, dtype, mean, std, contiguous))


def uniform_(x, low: float, high: float, gen: kernels.CPUGenerator):
    _check_floating(x, "check_uniform_bounds")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={_number(low)} > to={_number(high)}")
    dtype = x.dtype.numpy
    return _refill(x, UniformBackward0, lambda count, contiguous: kernels.uniform(
        gen, count, dtype, low, high))


_C_NAMES = {dtypes.bool: "bool", dtypes.uint8: "unsigned char", dtypes.int8: "signed char",
            dtypes.int16: "short int", dtypes.int32: "int", dtypes.int64: "long int",
            dtypes.float16: "c10::Half", dtypes.float32: "float", dtypes.float64: "double"}
_DIGITS = {dtypes.float16: 11, dtypes.float32: 24, dtypes.float64: 53}


def _representable(value: int, dtype) -> int:
    """``value`` through ``dtype`` and back (PyTorch's static_casts)."""
    return int(dtype.numpy.type(value))


def _nearest_below(to: int, dtype) -> int:
    """PyTorch's update_to: a float ``to`` whose ``to - 1`` rounds up to ``to`` or beyond
    moves down, so that every value drawn rounds into [from, to)."""
    to_minus_1 = _representable(to - 1, dtype)
    if to_minus_1 >= to:
        to = to_minus_1 - (1 << (abs(to - 1).bit_length() - 1 - _DIGITS[dtype] + 1))
    return to


def _nearest_above(low: int, dtype) -> int:
    """PyTorch's update_from, the same for ``from`` (moving up)."""
    from_plus_1 = _representable(low + 1, dtype)
    if from_plus_1 < low:
        low = from_plus_1 + (1 << (abs(low + 1).bit_length() - 1 - _DIGITS[dtype] + 1))
    return low


def _check_in_range(low: int, high_inclusive: int, dtype) -> None:
    """PyTorch's check_from_to_in_range: an error outside the dtype's values, and for a
    float a warning outside the integers it holds exactly."""
    name = _C_NAMES[dtype]
    if dtype.is_floating_point:
        largest = float(np.finfo(dtype.numpy).max)
        smallest = -largest
    elif dtype is dtypes.bool:
        smallest, largest = 0, 1
    else:
        smallest, largest = int(np.iinfo(dtype.numpy).min), int(np.iinfo(dtype.numpy).max)
    for value, what in ((low, "from"), (high_inclusive, "to - 1")):
        if not smallest <= value <= largest:
            raise RuntimeError(f"{what} is out of bounds for {name}")
    if dtype.is_floating_point:
        digits = _DIGITS[dtype]
        for value, what in ((low, "from"), (high_inclusive, "to - 1")):
            if not -(1 << digits) <= value <= 1 << digits:
                errors.warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to "
                            f"precision limitations {name} can support discrete uniform "
                            "distribution only within this range. This warning will become "
                            "an error in version 1.7 release, please fix the code in advance",
                            UserWarning, stacklevel=4)


def random_(x, low, high, gen: kernels.CPUGenerator, overload: int):
    """``random_()`` (``low`` None), ``random_(high)``, ``random_(low, high)``; ``high``
    None with a ``low``: up to the dtype's largest integer (PyTorch's random_from_to_impl,
    its checks in its order)."""
    node_class = (RandomBackward0, RandomBackward1, RandomBackward2)[overload]
    dtype = x.dtype.numpy
    if low is None:
        return _refill(x, node_class, lambda count, contiguous: kernels.random_bits(
            gen, count, dtype))
    floating = x.dtype.is_floating_point
    if high is not None:  # [low, high)
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={low} >= to={high}")
        if floating:
            low, high = _nearest_above(low, x.dtype), _nearest_below(high, x.dtype)
            if low >= high:
                raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than "
                                   f"'to' casted to dtype, but got from={low} >= to={high}")
        _check_in_range(low, high - 1, x.dtype)
        span = high - low
    elif x.dtype is dtypes.int64 and low == -2**63:  # every int64
        return _refill(x, node_class, lambda count, contiguous: kernels.random_full_range(
            gen, count, dtype))
    else:  # [low, the dtype's largest]
        if floating:
            high_inclusive = min(1 << _DIGITS[x.dtype], 2**63 - 1)
            low = _nearest_above(low, x.dtype)
            if not low < high_inclusive:
                raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or "
                                   f"equal to 'to_inc' casted to dtype, but got from={low} > "
                                   f"to_inc={high_inclusive}")
        else:
            high_inclusive = 1 if x.dtype is dtypes.bool else int(np.iinfo(dtype).max)
        _check_in_range(low, high_inclusive, x.dtype)
        span = high_inclusive - low + 1
    return _refill(x, node_class, lambda count, contiguous: kernels.random_from_to(
        gen, count, dtype, span, low))


def bernoulli_(x, p, gen: kernels.CPUGenerator):
    """``p`` a number (BernoulliBackward2) or a tensor of probabilities broadcast to
    ``x``'s shape (BernoulliBackward1)."""
    dtype = x.dtype.numpy
    if not is_tensor(p):
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_number(p)}")
        return _refill(x, BernoulliBackward2, lambda count, contiguous: kernels.bernoulli(
            gen, float(p), count).astype(dtype))
    layout = x._data
    chances = read_in_memory_order(layout, np.broadcast_to(p._data, layout.shape))

    def sample(count, contiguous):
        _check_probabilities(chances)
        return kernels.bernoulli(gen, chances, count).astype(dtype)

    return _refill(x, BernoulliBackward1, sample, p)


def _check_probabilities(p: np.ndarray) -> None:
    if not ((p >= 0) & (p <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report "
                           "an enhancement request to PyTorch.)")


def exponential_(x, rate: float, gen: kernels.CPUGenerator):
    if not x.dtype.is_floating_point:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified "
                           f"{dtypes.SCALAR_NAMES[x.dtype]}")
    if not rate > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_number(rate)}")
    dtype = x.dtype.numpy
    return _refill(x, ExponentialBackward0, lambda count, contiguous: kernels.exponential(
        gen, count, dtype, rate))


def cauchy_(x, median: float, sigma: float, gen: kernels.CPUGenerator):
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_number(sigma)}")
    if not x.dtype.is_floating_point:
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {_C_NAMES[x.dtype]}")
    dtype = x.dtype.numpy
    return _refill(x, CauchyBackward0, lambda count, contiguous: kernels.cauchy(
        gen, count, dtype, median, sigma))


def log_normal_(x, mean: float, std: float, gen: kernels.CPUGenerator):
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_number(std)}")
    _check_floating(x, "log_normal_cpu")
    dtype = x.dtype.numpy
    return _refill(x, LogNormalBackward0, lambda count, contiguous: kernels.log_normal(
        gen, count, dtype, mean, std))


def geometric_(x, p: float, gen: kernels.CPUGenerator):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_number(p)}")
    if x.dtype is dtypes.bool:
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    dtype = x.dtype.numpy
    return _refill(x, GeometricBackward0, lambda count, contiguous: kernels.geometric(
        gen, count, dtype, p))


# ---- new tensors -------------------------------------------------------------------------------


def bernoulli(p, gen: kernels.CPUGenerator):
    """``torch.bernoulli(p)``: 1 with probability p, elementwise, in p's dtype (drawn in
    the order of a new contiguous tensor, as PyTorch's)."""
    _check_floating(p, "bernoulli_tensor_cpu_p_")
    values = p._data

    def draw():
        chances = np.ascontiguousarray(values).ravel()
        _check_probabilities(chances)
        return kernels.bernoulli(gen, chances, values.size).astype(values.dtype).reshape(
            values.shape)

    return BernoulliBackward0.apply(p, draw=draw)


def standard_gamma(alpha, gen: kernels.CPUGenerator):
    """``torch._standard_gamma(alpha)``: a Gamma(alpha, 1) draw per element, in alpha's
    dtype, drawn in the order of a new contiguous tensor (PyTorch's gamma_cpu)."""
    _check_float_or_double(alpha, "gamma_cpu")
    return StandardGammaBackward0.apply(
        alpha, draw=_drawn_contiguous(gamma_kernels.standard_gamma, gen, alpha._data))


def standard_gamma_grad(alpha, x):
    """``torch._standard_gamma_grad(alpha, x)``: d x / d alpha (no gradient through x)."""
    if x.dtype != alpha.dtype:
        raise RuntimeError(f"Found dtype {dtypes.SCALAR_NAMES[x.dtype]} but expected "
                           f"{dtypes.SCALAR_NAMES[alpha.dtype]}")
    _check_float_or_double(alpha, "_standard_gamma_grad_cpu")
    return StandardGammaGradBackward0.apply(alpha, x=x._data)


def poisson(rates, gen: kernels.CPUGenerator):
    """``torch.poisson(rates)``: a count per rate, in the rates' dtype, drawn in the order
    of a new contiguous tensor (PyTorch's poisson_cpu)."""
    _check_floating(rates, "poisson_cpu")
    return PoissonBackward0.apply(
        rates, draw=_drawn_contiguous(gamma_kernels.poisson, gen, rates._data))


def _drawn_contiguous(sampler, gen: kernels.CPUGenerator, values):
    """A ``draw()`` that samples one value per element of ``values`` in the order of a new
    contiguous tensor (as PyTorch's samplers read their parameters), in their shape."""
    def draw():
        return sampler(gen, np.ascontiguousarray(values).ravel()).reshape(values.shape)
    return draw


def binomial(count, prob, gen: kernels.CPUGenerator):
    """``torch.binomial(count, prob)``: successes in ``count`` trials of chance ``prob``
    (PyTorch's samplers: inversion, or BTRS from count * prob = 10 on); PyTorch has no
    derivative for it."""
    if not count.dtype.is_floating_point:
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{dtypes.SCALAR_NAMES[count.dtype]}")
    if prob.dtype != count.dtype:
        raise RuntimeError(f"Found dtype {dtypes.SCALAR_NAMES[prob.dtype]} but expected "
                           f"{dtypes.SCALAR_NAMES[count.dtype]}")
    _check_float_or_double(count, "binomial_cpu")
    value = gamma_kernels.binomial(gen, count._data, prob._data)
    return rounding.NotImplemented.apply(count, prob, operation="binomial", value=value)


def sample_dirichlet(alpha, gen: kernels.CPUGenerator):
    """``torch._sample_dirichlet(alpha)``: a Dirichlet draw per row of alpha (PyTorch's:
    Gamma draws in double, normalised); PyTorch has no derivative for it."""
    _check_float_or_double(alpha, "dirichlet")
    value = gamma_kernels.sample_dirichlet(gen, alpha._data)
    return rounding.NotImplemented.apply(alpha, operation="_sample_dirichlet", value=value)


def dirichlet_grad(x, alpha, total):
    """``torch._dirichlet_grad(x, alpha, total)``: the reparameterised gradient of a
    Dirichlet draw (no derivative of its own)."""
    _check_float_or_double(x, "_dirichlet_grad_cpu")
    value = gamma_kernels.dirichlet_grad(x._data, alpha._data, total._data)
    return rounding.NotImplemented.apply(x, alpha, total, operation="_dirichlet_grad",
                                         value=value)


def normal(mean, std, gen: kernels.CPUGenerator):
    """``torch.normal(mean, std)`` with a tensor among them: samples of N(0, 1) in the
    broadcast shape, times std plus mean (mean's dtype, or std's)."""
    mean_is_tensor, std_is_tensor = is_tensor(mean), is_tensor(std)
    shape = broadcast_shapes(mean.shape if mean_is_tensor else (),
                             std.shape if std_is_tensor else ())
    dtype = (mean if mean_is_tensor else std).dtype
    if not std_is_tensor and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
    if std_is_tensor and (std._data < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")

    def draw():
        count = int(np.prod(shape, dtype=np.int64))
        if std_is_tensor:  # N(0, 1) samples, then * std + mean, each op rounded in dtype
            z = kernels.normal(gen, count, dtype.numpy, 0.0, 1.0).reshape(shape)
            z = z * std._data.astype(dtype.numpy, copy=False)
        else:  # N(0, std) samples, then + mean
            z = kernels.normal(gen, count, dtype.numpy, 0.0, std).reshape(shape)
        offset = mean._data.astype(dtype.numpy, copy=False) if mean_is_tensor else mean
        return np.asarray(z + offset, dtype=dtype.numpy)

    if mean_is_tensor and std_is_tensor:
        return NormalBackward3.apply(mean, std, draw=draw)
    if mean_is_tensor:
        return NormalBackward1.apply(mean, draw=draw)
    return NormalBackward2.apply(std, draw=draw)


def multinomial(probabilities, samples: int, replacement: bool, gen: kernels.CPUGenerator):
    """``torch.multinomial``: int64 indices drawn from each row (an array, 1 or 2-D)."""
    if probabilities.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not probabilities.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{dtypes.SCALAR_NAMES[probabilities.dtype]}")
    if samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = probabilities.shape[-1]
    if not replacement and samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if categories > 1 << 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    rows = np.ascontiguousarray(probabilities._data).reshape(-1, categories)
    if rows.size == 0:
        return np.zeros(probabilities.shape[:-1] + (samples,), dtype=np.int64)
    if probabilities.dtype is dtypes.float16:
        raise RuntimeError("multinomial is not implemented for half on CPU")
    if not replacement or samples == 1:
        if not (np.isfinite(rows).all() and (rows >= 0).all()):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (rows.sum(axis=1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    else:
        if (rows < 0).any():
            raise RuntimeError("invalid multinomial distribution (encountering probability "
                               "entry < 0)")
        if not np.isfinite(rows).all():
            raise RuntimeError("invalid multinomial distribution (encountering probability "
                               "entry = infinity or NaN)")
        if (rows.sum(axis=1) <= 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    drawn = kernels.multinomial(gen, rows, samples, replacement)
    return drawn.reshape(probabilities.shape[:-1] + (samples,))


# ---- a generator's state as a tensor -------------------------------------------------------


def state_tensor(state: np.ndarray):
    """``Generator.get_state()``'s uint8 tensor."""
    return make(state)


def state_bytes(new_state) -> np.ndarray:
    """The bytes of a state given to ``set_state`` (PyTorch's checks and errors)."""
    if not is_tensor(new_state):
        raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
    if new_state.dtype is not dtypes.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    return np.ascontiguousarray(new_state._data).ravel()

