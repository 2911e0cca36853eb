"""``torch.random``: the generators that every random tensor draws from.

A ``Generator`` holds PyTorch's CPU generator state (``kernels/random.py``: a Mersenne
Twister and PyTorch's ways of turning its words into numbers), so after the same seed
minigrad draws the numbers PyTorch draws::

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(3)
    tensor([0.4963, 0.7682, 0.0885])

``manual_seed``, ``seed`` and ``initial_seed`` act on ``default_generator``, which every
random function uses unless given ``generator=``. ``get_rng_state()`` is PyTorch's own
5,056-byte state, so a state saved by PyTorch can be given to minigrad and back.
"""

from __future__ import annotations

import contextlib
import operator

import numpy as np

from . import errors
from .devices import CPU, as_device, check_device
from .kernels import random as kernels
from .ops import random as random_ops

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed",
           "get_rng_state", "set_rng_state", "fork_rng", "cpu_generator"]


def _seed_value(seed) -> int:
    """A seed as PyTorch's C++ reads it: an int in [-2**63, 2**64), negative ones wrapping."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    seed = operator.index(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64


class Generator(kernels.CPUGenerator):
    """``torch.Generator``: a random number generator of its own, for ``generator=``.

    >>> g = Generator().manual_seed(42)
    >>> g.initial_seed()
    42

    A new one starts from PyTorch's seed for new generators (67280421310721), so two
    new generators give the same numbers until seeded.
    """

    __slots__ = ("device",)

    def __init__(self, device="cpu") -> None:
        kind = as_device(device).type
        if kind == "cuda":
            raise RuntimeError(errors.CUDA_GENERATOR)
        if kind == "mps":
            raise RuntimeError("Cannot execute getNewGenerator() without MPS backend.")
        if kind == "meta":
            raise RuntimeError("META device type not an accelerator.")
        check_device(device)
        super().__init__(kernels.DEFAULT_SEED)
        self.device = CPU

    def manual_seed(self, seed) -> "Generator":
        """Start again from ``seed``; returns the generator."""
        super().manual_seed(_seed_value(seed))
        return self

    def seed(self) -> int:
        """Start from a seed chosen by the operating system; returns it."""
        value = kernels.nondeterministic_seed()
        super().manual_seed(value)
        return value

    def get_state(self):
        """The state as a uint8 tensor of 5,056 bytes (PyTorch's layout)."""
        return random_ops.state_tensor(self.state_bytes())

    def set_state(self, new_state) -> "Generator":
        """Go back to a state from ``get_state`` (this one's, another's, or PyTorch's)."""
        data = random_ops.state_bytes(new_state)
        if data.size != kernels.STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {kernels.STATE_SIZE} "
                               f"but found the input RNG state size to be {data.size}")
        try:
            self.load_state_bytes(data)
        except ValueError:
            raise RuntimeError("Invalid mt19937 state") from None
        return self

    def __reduce__(self):  # (a Generator pickles, as PyTorch's does)
        return Generator, ("cpu",), self.get_state()

    def __setstate__(self, state) -> None:
        self.set_state(state)

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {hex(id(self))}>"

    def _repr_pretty_(self, printer, cycle) -> None:  # how Jupyter shows PyTorch's
        printer.text(f"<torch._C.Generator at {hex(id(self))}>")


# PyTorch's default CPU generator: seeded from the operating system in every new process
default_generator = Generator()
default_generator.seed()


def cpu_generator(generator, function: str) -> kernels.CPUGenerator:
    """The generator a random function draws from: ``generator=`` (checked as PyTorch
    checks it) or the default one."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"{function}(): argument 'generator' must be torch.Generator, "
                        f"not {type(generator).__name__}")
    return generator


def manual_seed(seed) -> Generator:
    """Seed the default generator (returns it), so random tensors repeat from here on.
    ``seed`` may be anything ``int()`` reads, in [-2**63, 2**64)."""
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    """Seed the default generator from the operating system; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator last started from."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state, a uint8 tensor (``set_rng_state`` takes it back)."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Put the default generator back into a state from ``get_rng_state``."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices", device_type=None):
    """Inside the ``with`` block random numbers may be drawn freely; after it, the
    default generator is back where it was. (There are no GPU generators to fork.)"""
    if not enabled or device_type == "meta":
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
