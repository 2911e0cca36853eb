"""``torch.device``: where a tensor lives. In minigrad, always the CPU.

Code written to "use the GPU if there is one" runs unchanged::

    device = "cuda" if torch.cuda.is_available() else "cpu"   # -> "cpu"
    x = torch.randn(3, device=device)

Asking for a device minigrad does not have fails as it does in PyTorch on a
CPU-only build, with its error: ``torch.zeros(2, device="cuda")`` raises
``AssertionError: Torch not compiled with CUDA enabled``.

``set_default_device`` changes the device that factories use when given none;
as in PyTorch, setting ``"cuda"`` succeeds and the next factory call fails.
"""

from __future__ import annotations

import builtins

from . import dtypes, errors, layouts
from .rules import arguments

__all__ = ["device", "set_default_device", "get_default_device"]

# PyTorch's device types, in the order its "Expected one of ..." error lists them.
DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")

# How PyTorch's dispatcher spells each backend in "Could not run ... from the 'MPS' backend".
_BACKEND_NAMES = {"ipu": "IPU", "hip": "HIP", "ve": "VE", "fpga": "FPGA", "maia": "MAIA",
                  "xla": "XLA", "lazy": "Lazy", "vulkan": "Vulkan", "mps": "MPS", "meta": "Meta"}


class device:
    """A device: its ``type`` ("cpu", "cuda", ...) and ``index`` (None, 0, 1, ...).

    ``device("cpu")``, ``device("cpu:0")`` and ``device("cpu", 0)`` are the forms
    PyTorch accepts. As in PyTorch, ``device("cpu") != device("cpu:0")`` (the
    index differs) and a device never equals a string.

    >>> device("cpu:0")
    device(type='cpu', index=0)
    >>> str(device("cpu:0")), device("cpu") == device("cpu:0")
    ('cpu:0', False)
    """

    __slots__ = ("_type", "_index", "_previous_default")

    def __init__(self, type, index=None) -> None:  # noqa: A002 - PyTorch's names
        if isinstance(type, device) and index is None:
            type, index = type.type, type.index
        elif isinstance(type, builtins.int) and not isinstance(type, builtins.bool) \
                and index is None:
            raise RuntimeError(errors.NO_ACCELERATOR)  # device(0): the current accelerator
        elif not isinstance(type, str):
            raise TypeError(errors.device_arguments(type))
        elif index is not None:
            if isinstance(index, builtins.bool) or not isinstance(index, builtins.int):
                raise TypeError(f"device(): argument 'index' (position 2) must be int, "
                                f"not {builtins.type(index).__name__}")
            if ":" in type:
                raise RuntimeError(f"type (string) must not include an index because index "
                                   f"was passed explicitly: {type}")
            if index < 0:
                raise RuntimeError("Device index must not be negative")
        else:
            type, index = _parse(type)
        self._type, self._index = type, index
        self._previous_default = None

    @property
    def type(self) -> str:
        return self._type

    @property
    def index(self):
        return self._index

    def __eq__(self, other) -> bool:
        if not isinstance(other, device):
            return NotImplemented  # so device("cpu") == "cpu" is False, as in PyTorch
        return self._type == other._type and self._index == other._index

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __reduce__(self):
        return device, (str(self),)

    # ``with torch.device("cpu"):`` makes it the default device inside the block.
    def __enter__(self) -> "device":
        self._previous_default = _default_device
        set_default_device(self)
        return self

    def __exit__(self, *exc_info) -> None:
        set_default_device(self._previous_default)


def _parse(text: str) -> tuple[str, int | None]:
    """"cpu" -> ("cpu", None); "cpu:0" -> ("cpu", 0), with PyTorch's errors."""
    kind, colon, number = text.partition(":")
    if kind not in DEVICE_TYPES:
        if not kind.isalpha():
            raise RuntimeError(f"Invalid device string: '{text}'")
        raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start "
                           f"of device string: {text}")
    if not colon:
        return kind, None
    if not number.isdigit() or not number.isascii() or (len(number) > 1 and number[0] == "0"):
        raise RuntimeError(f"Invalid device string: '{text}'")
    return kind, builtins.int(number)


CPU = device("cpu")
META = device("meta")


def as_device(value) -> device:
    """A ``device`` from what a ``device=`` argument may hold (a device, a string, an int)."""
    return value if isinstance(value, device) else device(value)


def _missing(kind: str, creating: bool) -> BaseException:
    """PyTorch's error (on a CPU-only build) for a device of type ``kind``.

    ``creating`` is True for factories (``zeros``, ``randn``, ...) and False for
    copies (``tensor(data, device=)``, ``x.to()``), which fail differently in
    PyTorch for most device types. For a backend that PyTorch's dispatcher
    rejects, the text is the first two sentences of its message (the rest lists
    the backends of the PyTorch build at hand)."""
    if kind in ("cuda", "xpu"):
        return AssertionError(errors.not_compiled(kind))
    if kind == "mtia":
        return AssertionError(errors.MTIA_NOT_COMPILED)
    if kind in ("hpu", "privateuseone"):
        return ModuleNotFoundError(f"No module named 'torch.{kind}'")
    if kind == "meta":
        return NotImplementedError("minigrad makes meta tensors with empty, zeros, ones, full, "
                                   "rand, randn, randint, tensor, their _like forms and .to(); "
                                   "not this function")
    if kind in _BACKEND_NAMES and (creating or kind == "lazy"):
        return NotImplementedError(errors.dispatcher_missing(_BACKEND_NAMES[kind]))
    return RuntimeError(errors.not_linked(kind))


def check_device(value, creating: bool = True) -> None:
    """Raise PyTorch's error unless ``value`` (a ``device=`` argument) is the CPU.
    None means the default device (the CPU unless ``set_default_device`` changed it)."""
    if value is None:
        if _default_device is None:
            return
        value = _default_device
    elif value == "cpu" or value is CPU:  # the common cases, decided at once
        return
    kind = as_device(value).type
    if kind != "cpu":
        raise _missing(kind, creating)


def meta_requested(value, creating: bool = True) -> bool:
    """Whether a factory's ``device=`` (None: the default device) asks for a meta tensor,
    a shape and a dtype without numbers (``kernels/meta.py``); any other device than the
    CPU raises, as ``check_device``."""
    if value is None:
        value = _default_device
        if value is None:
            return False
    elif value == "cpu" or value is CPU:
        return False
    if as_device(value).type == "meta":
        return True
    check_device(value, creating)
    return False


def check_cuda_device(value) -> None:
    """``x.cuda(device)``: PyTorch's error, for the device is a GPU or is not one."""
    if value is not None and as_device(value).type != "cuda":
        raise RuntimeError(errors.NOT_CUDA)
    check_device("cuda" if value is None else value, creating=False)


# ---- the default device --------------------------------------------------------------------

_default_device: device | None = None  # None: the CPU


def set_default_device(device) -> None:  # noqa: F811 - PyTorch's parameter name
    """The device factories use when given none; ``None`` restores the CPU.

    Any device PyTorch knows is accepted here; a factory then fails for one
    minigrad does not have, as PyTorch does on a CPU-only build."""
    global _default_device
    _default_device = None if device is None else as_device(device)


def get_default_device() -> device:
    """The device factories use when given none: ``device(type='cpu')``."""
    if _default_device is None:
        return CPU
    check_device(_default_device)
    return _default_device


# ---- x.to(...) and module.to(...) ------------------------------------------------------------


def _is_dtype(value) -> bool:
    return isinstance(value, dtypes.dtype) or value in (builtins.float, builtins.int,
                                                         builtins.bool)


def to_arguments(args: tuple, kwargs: dict) -> tuple:
    """``(device, dtype, copy)`` from PyTorch's three ways of calling ``to``
    (``device`` is None when none was given):

        to(device=None, dtype=None, non_blocking=False, copy=False, *, memory_format=None)
        to(dtype, non_blocking=False, copy=False, *, memory_format=None)
        to(other_tensor, non_blocking=False, copy=False, *, memory_format=None)

    read as PyTorch's parser reads them: the first that takes the arguments, by their
    types, else its "invalid combination" error. The device is checked here (PyTorch's
    error if it is not the CPU or meta)."""
    if not kwargs and len(args) == 1 and isinstance(args[0], dtypes.dtype):
        return None, args[0], False  # (x.to(torch.float64), x.float(): the usual, kept quick)
    for names, kinds in _TO_SIGNATURES:
        bound = _bound(names, kinds, args, kwargs)
        if bound is not None:
            break
    else:
        raise arguments.invalid_combination("Tensor.to", args, kwargs)
    target, dtype = bound.get("device"), bound.get("dtype")
    if "tensor" in bound:
        target, dtype = bound["tensor"].device, bound["tensor"].dtype
    if target is not None:
        target = as_device(target)
        if target.type != "meta":
            check_device(target, creating=False)
    return target, dtypes.parse_dtype(dtype, "to"), builtins.bool(bound.get("copy", False))


def _bound(names: tuple, kinds: tuple, args: tuple, kwargs: dict):
    """{name: value} of one of ``to``'s signatures for the call, or None if it does not
    take it (too many arguments, a name given twice or unknown, a required one missing,
    a value of another type; None stands for an optional one)."""
    positional = names[:-1]  # (memory_format: keyword only)
    if len(args) > len(positional):
        return None
    bound = dict(zip(positional, args))
    for name, value in kwargs.items():
        if name not in names or name in bound:
            return None
        bound[name] = value
    for name, kind in zip(names, kinds):
        value = bound.get(name)
        if value is None:
            if name in ("dtype", "tensor") and names[0] == name:  # (required)
                return None
        elif not _TO_KINDS[kind](value):
            return None
    return bound


_TO_SIGNATURES = (
    (("device", "dtype", "non_blocking", "copy", "memory_format"),
     ("device", "dtype", "bool", "bool", "memory_format")),
    (("dtype", "non_blocking", "copy", "memory_format"),
     ("dtype", "bool", "bool", "memory_format")),
    (("tensor", "non_blocking", "copy", "memory_format"),
     ("tensor", "bool", "bool", "memory_format")),
)
_TO_KINDS = {
    "device": lambda v: isinstance(v, (device, builtins.str)) or (
        isinstance(v, builtins.int) and not isinstance(v, builtins.bool)),
    "dtype": lambda v: _is_dtype(v),
    "bool": lambda v: isinstance(v, builtins.bool),
    "tensor": lambda v: hasattr(v, "dtype") and hasattr(v, "grad_fn"),
    "memory_format": lambda v: isinstance(v, layouts.memory_format),
}
