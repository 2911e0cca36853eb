"""``torch.strided`` and the memory formats: how a tensor's elements sit in memory.

A minigrad tensor is a NumPy array: dense and strided, so ``layout=torch.strided`` is
the only layout. The memory formats are ``torch.contiguous_format`` (row-major),
``torch.preserve_format`` (as the input lies) and ``torch.channels_last`` /
``torch.channels_last_3d`` (an (N, C, H, W) or (N, C, D, H, W) tensor with its channels
next to each other in memory: strides such as (60, 1, 15, 3)), which ``contiguous``,
``clone``, ``to``, ``is_contiguous``, ``empty`` and the ``*_like`` factories honour.
Elementwise ops keep a channels-last layout (NumPy's results follow their operands'
order), and a convolution, the pooling layers, upsampling, ``group_norm``, ``F.pad``,
the shuffles, ``cat`` and ``stack`` lay their outputs out channels-last as PyTorch's do
(``kernels/conv.in_suggested_format``, ``kernels/layout.in_input_format``,
``rules/layout.with_cat_layout``, ``with_stack_layout``). ``suggested_format`` is
PyTorch's suggest_memory_format. Sparse layouts are not in minigrad. The factories
accept these as PyTorch's do, with PyTorch's errors for the rest.
"""

from __future__ import annotations

from .kernels.layout import channels_last_strides, is_channels_last, strides_like_channels_last


class layout:
    """A memory layout; ``torch.strided`` (dense, with strides) is the one minigrad has."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class memory_format:
    """The order of a dense tensor's elements in memory."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
CHANNELS_LAST_RANKS = {channels_last: 4, channels_last_3d: 5}


def format_strides(fmt: memory_format, shape) -> tuple:
    """The strides of a tensor of ``shape`` laid out in the channels-last format ``fmt``,
    with PyTorch's error for a tensor of another rank."""
    rank = CHANNELS_LAST_RANKS[fmt]
    if len(shape) != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt.name} format")
    return channels_last_strides(tuple(shape))


def is_in_format(fmt: memory_format, shape, strides) -> bool:
    """Whether a tensor of ``shape`` and ``strides`` is contiguous in the channels-last
    format ``fmt`` (False for a tensor of another rank, as PyTorch's is_contiguous)."""
    return len(shape) == CHANNELS_LAST_RANKS[fmt] and is_channels_last(tuple(shape), tuple(strides))


def suggested_format(shape, strides) -> memory_format:
    """PyTorch's suggest_memory_format: channels-last (3d for a 5-d tensor) where the
    strides grow in that order, else contiguous_format, contiguous or not. ``x.to(
    memory_format=fmt)`` returns x itself when this is fmt (a transposed matrix stays
    transposed; a C == 1 image, contiguous both ways, is still copied to channels-last)."""
    if strides_like_channels_last(tuple(shape), tuple(strides)):
        return channels_last if len(shape) == 4 else channels_last_3d
    return contiguous_format


def _type_name(value) -> str:
    return "None" if value is None else type(value).__name__


def check_memory_format(function: str, value) -> None:
    """PyTorch's TypeError for a ``memory_format=`` that is not one."""
    if value is not None and not isinstance(value, memory_format):
        raise TypeError(f"{function}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {_type_name(value)}")


def check_bool(function: str, name: str, value) -> None:
    """PyTorch's TypeError for a flag (``non_blocking=``, ``pin_memory=``) that is not a bool."""
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{function}(): argument '{name}' must be bool, not {_type_name(value)}")

