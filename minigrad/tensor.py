"""``Tensor``: a NumPy array that can remember how it was computed.

This file is the public face: attributes, dunder methods and methods, each a
line or two that calls an operation in ``minigrad.ops`` (where the math and
its derivative live). Printing is in ``minigrad._printing``.
"""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict

import numpy as np

from . import creation, devices, dtypes, errors, layouts, removed, tracing
from . import storage as storages
from . import ops
from . import random as _random
from .kernels import layout as memory
from .kernels import meta
from .kernels.meta import MetaArray
from .ops import random as random_ops
from .rules import arguments, math_dtypes, parser
from ._printing import builtin_method, tensor_repr
from .rules.conversion import array_from
from .rules.indexing import check_put_arguments
from .rules.layout import dim_order
from .size import Size
from .autograd import fast, inference, replaced
from .autograd.grad_mode import is_grad_enabled
from .autograd.hooks import UnattachedHooks, add_hook, add_post_accumulate_hook
from .autograd.node import AccumulateGrad
from .autograd.tensor_base import TensorBase, Version, make, set_tensor_class

__all__ = ["Tensor", "Size"]  # (Size: see size.py)

# ---- helpers of a few methods below: PyTorch's behaviour for in-place comparisons,
# ``uniform_``'s bounds, inference mode and the meta device. ``class Tensor`` follows.

# (x.lt_(y) and the like: what they write into x, recorded as torch records it)
_COMPARED_IN_PLACE = {name: ops.compared_in_place(name)
                      for name in ("eq", "ne", "lt", "le", "gt", "ge")}


def _random_bounds(function: str, low, high, by_name: dict):
    """``uniform_``'s and ``random_``'s ``from`` and ``to``, given by position or by name."""
    for name in by_name:
        if name not in ("from", "to"):
            raise TypeError(f"{function}() got an unexpected keyword argument '{name}'")
    return by_name.get("from", low), by_name.get("to", high)


def _inference_alias(alias, tensor) -> None:
    """``detach()`` or ``.data`` of an inference tensor is one too; made outside the
    mode, it counts its own versions (torch lets it be changed in place)."""
    inference.mark_inference(alias, tensor)
    if not inference.enabled and inference.is_inference(alias):
        inference.keep_version(alias)
        alias._version_cell = Version()


def _laid_out(result, strides):
    """A fresh result (no one else holds its array) with its elements moved to lie in
    memory with ``strides``: a copy made in a memory format."""
    result._data = memory.with_strides(result._data, strides)
    return result


def _to_or_from_meta(x, dtype):
    """``x.to("meta")``: a copy (``ToCopyBackward0``) that keeps only a shape and a dtype;
    from the meta device nothing can be copied, as in PyTorch."""
    if x.is_meta:
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    result = ops.to_dtype(x, dtype, True)
    result._data = meta.like(result._data)
    return result


def _copied_across_meta(x, src):
    """``x.copy_(src)`` where one of them is on the meta device: into a meta tensor
    nothing is written (no memory); out of one nothing can be read (PyTorch's error)."""
    if src.is_meta:
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    return x


class Tensor(TensorBase):
    """An n-dimensional array with autograd, mirroring ``torch.Tensor``.

    Create tensors with ``minigrad.tensor(...)``, ``ones``, ``randn``, ... The
    legacy constructor ``Tensor([1, 2])`` makes a float32 tensor.
    """

    __slots__ = ()  # (the fields: TensorBase's; _view_made is set on views only)
    __array_priority__ = 1000  # numpy_array * tensor -> Tensor.__rmul__

    def __new__(cls, *data, **options):
        # (Tensor(t) of a tensor: an alias of t, in t's dtype, as PyTorch's; subclasses
        # take their own options in __init__)
        if cls is Tensor and len(data) == 1 and isinstance(data[0], TensorBase):
            return ops.shape.AliasBackward0.apply(data[0])
        return super().__new__(cls)

    def __init__(self, *data, requires_grad: bool = False):
        # (the legacy constructor: Tensor([1, 2]) of values, Tensor(2, 3) of a shape,
        # uninitialised in PyTorch, zeros here, in the default dtype)
        if type(self) is Tensor and len(data) == 1 and isinstance(data[0], TensorBase):
            return  # (made by __new__)
        if len(data) == 1 and isinstance(data[0], (TensorBase, list, tuple, np.ndarray)) \
                and not isinstance(data[0], Size):
            array = array_from(data[0], dtypes.get_default_dtype())
        else:  # (torch.Tensor is the default dtype's legacy type: FloatTensor unless changed)
            array = creation.legacy_constructor(dtypes.get_default_dtype())(*data)._data
        self._init(array, requires_grad=requires_grad)

    def _init(self, data: np.ndarray, grad_fn=None, requires_grad: bool = False,
              output_nr: int = 0, version: Version | None = None, base=None) -> None:
        self._data = data
        self.dtype = dtypes.DTYPE_OF[data.dtype]
        self._grad_fn = grad_fn
        self._requires_grad = grad_fn is not None or requires_grad
        self._output_nr = output_nr
        self._grad = None
        self._version_cell = version  # made when first needed (see _version_counter)
        self._base = base
        self._view_version = None  # a view: the version its grad_fn describes (see grad_fn)
        self._accumulator = None
        self._leaf_hooks = None
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError(errors.ONLY_FLOAT_REQUIRES_GRAD_FACTORY)
        if inference.enabled or (base is not None and inference.inference_tensors):
            inference.mark_inference(self, base)
        if base is not None and inference.versionless:  # (a view reads its base's counter)
            inference.check_version(base)

    # ---- autograd attributes ---------------------------------------------

    @property
    def _version(self) -> int:
        """How many times this tensor (or a view of its memory) was changed in place
        (an inference tensor keeps no count: PyTorch's error)."""
        if inference.inference_tensors and inference.has_no_version(self):
            raise RuntimeError(errors.INFERENCE_VERSION)
        if inference.versionless:
            inference.check_version(self)
        return 0 if self._version_cell is None else self._version_cell.value

    @property
    def _version_counter(self) -> Version:
        """The counter shared with views of the same memory. Made on first use:
        most tensors are never saved, viewed or changed in place."""
        cell = self._version_cell
        if cell is None:
            cell = self._version_cell = Version()
        return cell

    def _rebase_history(self, node, output_nr: int) -> None:
        """This tensor, changed in place by a custom Function (``ctx.mark_dirty``),
        becomes output ``output_nr`` of its node."""
        self._bump_version()
        ops.check_inplace(self)  # (a view that may not be changed: torch's texts)
        ops.rebase_history(self, node, output_nr)

    def _bump_version(self) -> None:
        """Count an in-place change (refused, after it, on an inference tensor outside
        inference mode, as PyTorch)."""
        ops.inplace_counted(self)

    @property
    def grad_fn(self):
        """The node that computed this tensor (None for a leaf).

        A view whose memory was changed in place since (through its base or another
        view) gets a new node describing it as elements of its base's memory,
        ``AsStridedBackward0``, as in PyTorch (see ``ops.strided``)."""
        if self._view_version is not None and self._view_version != self._version_cell.value:
            ops.regenerate_grad_fn(self)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node) -> None:
        self._grad_fn = node

    @property
    def requires_grad(self) -> bool:
        """Whether operations on this tensor are recorded for backward."""
        if self._view_version is not None and not self._requires_grad:
            return self._base.requires_grad  # (its base may have joined the graph since)
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        # (PyTorch's setter has texts of its own, and takes True and False only)
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        if self._grad_fn is not None:  # (its node as it is: torch's is_leaf)
            raise RuntimeError(errors.NON_LEAF_REQUIRES_GRAD_TRUE if value
                               else errors.NON_LEAF_REQUIRES_GRAD)
        if value and not self.dtype.is_floating_point:
            raise RuntimeError(errors.ONLY_FLOAT_REQUIRES_GRAD_SETTER)
        if value and not inference.enabled and inference.is_inference(self):
            raise RuntimeError(errors.INFERENCE_REQUIRES_GRAD)
        self._requires_grad = value

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        """Start (or stop) recording operations on this leaf tensor, in place."""
        if not isinstance(requires_grad, bool):
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if self._grad_fn is not None:  # (its node as it is, not rebuilt: torch's is_leaf)
            if not requires_grad:
                raise RuntimeError(errors.NON_LEAF_REQUIRES_GRAD)
            return self
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError(errors.ONLY_FLOAT_REQUIRES_GRAD)
        if requires_grad and not inference.enabled and inference.is_inference(self):
            raise RuntimeError(errors.INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors the user created (and results that need no grad)."""
        return self.grad_fn is None

    @property
    def grad(self):
        """The accumulated gradient of a leaf (None until backward reaches it)."""
        # (the node as it is, not rebuilt for a view whose base changed: as torch, which
        # reads .grad of a view made under no_grad without its error)
        if self._grad_fn is not None and self._grad is None and not self.retains_grad:
            errors.warn(errors.NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value.dtype is not self.dtype:  # (the dtype first, then the size: torch's order)
                raise RuntimeError(errors.GRAD_DTYPE.format(
                    dtypes.C_TYPE_NAMES[value.dtype], dtypes.SCALAR_NAMES[self.dtype]))
            if value.shape != self.shape:
                raise RuntimeError(errors.GRAD_SIZE.format(list(value.shape), list(self.shape)))
        self._grad = value

    @property
    def output_nr(self) -> int:
        """Which output of ``grad_fn`` this tensor is (0 unless the op has several)."""
        return self._output_nr

    @property
    def retains_grad(self) -> bool:
        """True for a non-leaf that called ``retain_grad()``."""
        node = self._grad_fn  # (as it is: see grad)
        return bool(node is not None and node._retains_grad
                    and self._output_nr in node._retains_grad
                    and node._retains_grad[self._output_nr]() is self)

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` during backward."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is not None:
            self.grad_fn._retain_grad_of(self)

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; if it
        returns a tensor, that replaces the gradient. Returns a ``RemovableHandle``
        (``handle.remove()``)."""
        if not self.requires_grad:  # (a view made under no_grad requires grad through its base)
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if type(self._leaf_hooks) is UnattachedHooks:
            return add_hook(self._leaf_hooks, hook)
        try:
            grad_fn = self.grad_fn
        except RuntimeError:  # (a changed multi-output view)
            self._leaf_hooks = UnattachedHooks()
            raise
        if grad_fn is None:  # a leaf keeps its own hooks (its AccumulateGrad may come and go)
            if self._leaf_hooks is None:
                self._leaf_hooks = OrderedDict()
            return add_hook(self._leaf_hooks, hook)
        return grad_fn._add_tensor_pre_hook(self._output_nr, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(self)`` after each backward has added into this leaf's ``.grad``."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        return add_post_accumulate_hook(self, hook)

    def _gradient_edge(self):
        """The (node, input_nr) a gradient for this tensor must be sent to."""
        node = self._grad_fn if self._view_version is None else self.grad_fn
        if node is not None:
            return node, self._output_nr
        accumulator = self._accumulator() if self._accumulator is not None else None
        if accumulator is None:
            accumulator = AccumulateGrad(self)
            self._accumulator = weakref.ref(accumulator)
        return accumulator, 0

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute d(self)/d(leaf) for every leaf and add it into ``leaf.grad``.

        ``gradient`` is d(loss)/d(self); it may be omitted only for a
        one-element tensor (it is then 1). Saved buffers are freed unless
        ``retain_graph=True``. The walk is ``autograd/engine.py``'s ``walk``, in
        its fast copy (``autograd/fast.py``: the same order and bits).
        """
        fast.run_backward((self,), None if gradient is None else (gradient,),
                            retain_graph, create_graph, inputs)

    def detach(self) -> "Tensor":
        """A tensor sharing this one's data, cut from the graph."""
        detached = make(self._data, version=self._version_counter)
        if inference.inference_tensors:  # (a view, in torch: of an inference tensor, one too)
            inference.forget_inference(detached)  # (of a normal one, normal: even in the mode)
            _inference_alias(detached, self)
        return detached

    def detach_(self) -> "Tensor":
        """Cut this tensor from the graph, in place (it becomes a leaf)."""
        if self._base is not None:
            raise RuntimeError(errors.DETACH_VIEW_INPLACE)
        self._grad_fn = self._view_version = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> "Tensor":
        """The same values as a tensor outside the graph (changes are not tracked)."""
        data = make(self._data)
        if inference.enabled and not inference.is_inference(self):  # (torch: a normal one)
            inference.forget_inference(data)
        elif inference.inference_tensors:
            _inference_alias(data, self)
        return data

    @data.setter
    def data(self, value: "Tensor") -> None:
        replaced.note_data_set()  # (a node that saved this tensor reads its new values)
        inference.data_assigned(self, value)  # (an inference tensor's values, or a normal one's)
        self._replace_data(value._data)
        self.dtype = value.dtype

    def _replace_data(self, array: np.ndarray) -> None:
        """Hold another array, maybe of another shape (``.data = ``, a resized ``out=``,
        ``t_()``): the node that made this tensor goes on checking the gradients it
        sends against the inputs it had (see Node.keep_input_meta), and the nodes made
        from this tensor afterwards send it gradients of the shape and dtype it had
        (see autograd/replaced.py)."""
        grad_fn = self._grad_fn
        if grad_fn is not None:
            grad_fn.keep_input_meta(self._data)
            if array.shape != self._data.shape or array.dtype != self._data.dtype:
                replaced.keep_output_meta(grad_fn, self._output_nr, self._data)
        self._data = array

    # ---- shape and type --------------------------------------------------

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        """The shape, or the size of one dimension."""
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[arguments.normalize_dim_strict(dim, self.ndim)]

    def dim(self) -> int:
        return self._data.ndim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def ndimension(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    def nelement(self) -> int:
        return self._data.size

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def element_size(self) -> int:
        return self.dtype.itemsize

    @property
    def itemsize(self) -> int:
        """Bytes per element (``element_size()``)."""
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """``numel() * itemsize``: an expanded tensor counts every element it shows."""
        return self.numel() * self.dtype.itemsize

    def data_ptr(self) -> int:
        """The address of the first element: equal for a tensor and the views that start
        where it does (``x.view(12)``, ``x.t()``), as in PyTorch; 0 for a meta tensor and
        for an empty one (PyTorch gives no address for no elements)."""
        if type(self._data) is MetaArray or self._data.size == 0:
            return 0
        return self._data.__array_interface__["data"][0]

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        return False  # (minigrad has no complex dtypes)

    def is_signed(self) -> bool:
        return self.dtype not in (dtypes.uint8, dtypes.bool)

    def is_inference(self) -> bool:
        """True for a tensor made inside ``torch.inference_mode()``."""
        return inference.is_inference(self)

    @property
    def device(self) -> devices.device:
        """Where the data lives: ``device(type='cpu')``, or ``device(type='meta')`` for a
        tensor of a shape and a dtype without numbers (``kernels/meta.py``)."""
        return devices.META if type(self._data) is MetaArray else devices.CPU

    @property
    def is_cpu(self) -> bool:
        return type(self._data) is not MetaArray

    @property
    def is_meta(self) -> bool:
        return type(self._data) is MetaArray

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def layout(self) -> layouts.layout:
        """How the elements sit in memory: ``torch.strided`` (dense, with strides)."""
        return layouts.strided

    is_sparse = is_quantized = is_mkldnn = is_nested = property(lambda self: False)

    def is_pinned(self, device=None) -> bool:
        """False: minigrad's memory is never pinned (no GPU to copy to)."""
        return False

    def is_shared(self) -> bool:
        return False

    def share_memory_(self) -> "Tensor":
        """For worker processes in PyTorch (its storage moved to shared memory); minigrad's
        tensors live in one process, so the tensor is returned as it is (``is_shared()``
        stays False, where PyTorch's says True)."""
        return self

    def get_device(self) -> int:
        """The index of the GPU holding the data; -1 for the CPU."""
        return -1

    def stride(self, dim: int | None = None):
        """How many elements to step in memory along each dim (or along ``dim``)."""
        return ops.stride(self, None if dim is None
                          else arguments.normalize_dim_strict(dim, self.ndim))

    def resize_(self, *size, memory_format=None) -> "Tensor":
        """In place: this tensor's shape becomes ``size``, filled row after row with its
        memory's elements from where it starts (memory grown for it holds zeros here,
        uninitialised values in PyTorch); refused, as in PyTorch, if it requires grad."""
        if not size:
            raise parser.missing_arguments("resize_", ["size"])
        if len(size) == 1 and isinstance(size[0], (tuple, list)):
            size = tuple(size[0])
        if self.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        if any(int(n) < 0 for n in size):
            raise RuntimeError("numel: integer multiplication overflow")
        array = memory.resized(self._data, tuple(int(n) for n in size))
        if array is not self._data:  # (a resize to its own shape is no change)
            self._replace_data(array)
            self._bump_version()
        return self

    def resize_as_(self, the_template, *, memory_format=None) -> "Tensor":
        return self.resize_(the_template.shape)

    def storage(self):
        """The memory under this tensor, element by element (a TypedStorage, which
        PyTorch 2.13 warns is deprecated): shared with every view of it."""
        storages.warn_typed_storage_removal()
        return storages.TypedStorage(self)

    def untyped_storage(self):
        """The memory under this tensor, byte by byte: shared with every view of it."""
        return storages.UntypedStorage(self)

    def storage_offset(self) -> int:
        """Where the first element sits in the memory, in elements."""
        return ops.storage_offset(self)

    def as_strided(self, size, stride, storage_offset=None):
        """A view of this tensor's memory: element ``i`` at
        ``storage_offset + sum(i_k * stride_k)``."""
        return ops.as_strided(self, size, stride, storage_offset)

    def as_strided_(self, size, stride, storage_offset=None):
        """``as_strided`` in place: this tensor takes the view's shape and strides."""
        return ops.as_strided_(self, size, stride, storage_offset)

    def dim_order(self, *, ambiguity_check=False) -> tuple:
        """The dims from the outermost in memory to the innermost.

        >>> torch.empty((2, 3, 5, 7)).transpose(1, 2).dim_order()
        (0, 2, 1, 3)"""
        return dim_order(tuple(self.shape), self.stride(), ambiguity_check)

    def is_contiguous(self, memory_format=layouts.contiguous_format) -> bool:
        layouts.check_memory_format("is_contiguous", memory_format)
        if memory_format in layouts.CHANNELS_LAST_RANKS:
            return layouts.is_in_format(memory_format, self.shape, self.stride())
        return bool(self._data.flags.c_contiguous) or self.is_meta  # (meta: see geometry)

    def contiguous(self, memory_format=layouts.contiguous_format) -> "Tensor":
        """This tensor if its elements lie in ``memory_format``'s order, else a copy
        (``CloneBackward0``) that lies so: row-major, or channels-last."""
        layouts.check_memory_format("contiguous", memory_format)
        if memory_format in layouts.CHANNELS_LAST_RANKS:
            strides = layouts.format_strides(memory_format, self.shape)
            return self if self.is_contiguous(memory_format) else _laid_out(ops.clone(self), strides)
        if memory_format is layouts.preserve_format and not self.is_contiguous():
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        return ops.contiguous(self)

    def to(self, *args, **kwargs) -> "Tensor":
        """Convert to another dtype or device: ``x.to(torch.float64)``, ``x.to("cpu")``,
        ``x.to(device, torch.float64)``, ``x.to(other_tensor)``; ``copy=True`` always
        copies. The devices are the CPU and meta (a shape and a dtype without numbers,
        which cannot be copied back); another one raises PyTorch's error."""
        device, dtype, copy = devices.to_arguments(args, kwargs)
        if device is not None and (device.type == "meta") != self.is_meta:
            return _to_or_from_meta(self, dtype or self.dtype)
        # "cpu:0" is not "cpu" (this tensor's device), so PyTorch copies to it.
        copy = copy or (device is not None and device.index is not None)
        fmt = kwargs.get("memory_format")
        if fmt in layouts.CHANNELS_LAST_RANKS or fmt is layouts.contiguous_format:
            strides = (memory.contiguous_strides(self.shape) if fmt is layouts.contiguous_format
                       else layouts.format_strides(fmt, self.shape))
            if copy or dtype not in (None, self.dtype) or \
                    layouts.suggested_format(self.shape, self.stride()) is not fmt:
                return _laid_out(ops.to_dtype(self, dtype or self.dtype, True), strides)
        return ops.to_dtype(self, dtype or self.dtype, copy)

    def type(self, dtype=None, non_blocking: bool = False):
        """``x.type()`` is the legacy type name (``"torch.FloatTensor"``);
        ``x.type(torch.float64)`` or ``x.type("torch.DoubleTensor")`` converts."""
        if dtype is None:
            return f"torch.{dtypes.LEGACY_NAMES[self.dtype]}"
        if isinstance(dtype, str):
            by_name = {f"torch.{name}": d for d, name in dtypes.LEGACY_NAMES.items()}
            if dtype not in by_name:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = by_name[dtype]
        elif isinstance(dtype, creation.tensortype):  # torch.LongTensor, ...
            dtype = dtype.dtype
        elif dtype is Tensor:  # (the default dtype's legacy type)
            dtype = dtypes.get_default_dtype()
        arguments.check_type_argument(dtype)
        return self.to(dtype)

    def float(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("float", memory_format)
        return self.to(dtypes.float32)

    def double(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("double", memory_format)
        return self.to(dtypes.float64)

    def half(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("half", memory_format)
        return self.to(dtypes.float16)

    def long(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("long", memory_format)
        return self.to(dtypes.int64)

    def int(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("int", memory_format)
        return self.to(dtypes.int32)

    def byte(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("byte", memory_format)
        return self.to(dtypes.uint8)

    def char(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("char", memory_format)
        return self.to(dtypes.int8)

    def short(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("short", memory_format)
        return self.to(dtypes.int16)

    def bool(self, memory_format=layouts.preserve_format) -> "Tensor":
        layouts.check_memory_format("bool", memory_format)
        return self.to(dtypes.bool)

    def cpu(self) -> "Tensor":
        return _to_or_from_meta(self, self.dtype) if self.is_meta else self

    def cuda(self, device=None, non_blocking: bool = False) -> "Tensor":
        """Fails as on a CPU-only PyTorch: ``Torch not compiled with CUDA enabled``."""
        devices.check_cuda_device(device)

    def clone(self, *, memory_format=layouts.preserve_format) -> "Tensor":
        """A copy with its own memory, still connected to the graph; its elements in
        this tensor's order (``preserve_format``) or row-major (``contiguous_format``)."""
        layouts.check_memory_format("clone", memory_format)
        if memory_format in layouts.CHANNELS_LAST_RANKS:
            return _laid_out(ops.clone(self), layouts.format_strides(memory_format, self.shape))
        result = ops.clone(self)
        if memory_format is layouts.contiguous_format:
            return _laid_out(result, memory.contiguous_strides(result.shape))
        return result

    # ---- conversion to Python and NumPy ----------------------------------

    def numpy(self) -> np.ndarray:
        """The data as a NumPy array (shared, not copied)."""
        if self._requires_grad:
            raise RuntimeError(errors.NUMPY_REQUIRES_GRAD)
        if type(self._data) is MetaArray:
            raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() "
                            "to copy the tensor to host memory first.")
        if tracing.active:
            tracing.warn_conversion("NumPy array")
        return self._data

    def tolist(self):
        if tracing.active:
            tracing.warn_conversion("Python list")
        return self._data.tolist()

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if tracing.active:
            tracing.warn_conversion("Python number")
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return self._data.reshape(()).item()

    def __float__(self) -> float:
        if self._requires_grad and is_grad_enabled():  # (torch: only with grad mode on, and
            errors.warn_once(errors.SCALAR_REQUIRES_GRAD)  # before the size check)
        if self._data.size != 1:
            raise ValueError(errors.ONLY_ONE_ELEMENT_TO_SCALAR)
        if tracing.active:
            tracing.warn_conversion("Python float")
        return float(self._data.reshape(()).item())

    def __int__(self) -> int:
        if self._data.size != 1:
            raise ValueError(errors.ONLY_ONE_ELEMENT_TO_SCALAR)
        if tracing.active:
            tracing.warn_conversion("Python integer")
        return int(self._data.reshape(()).item())

    def __index__(self) -> int:
        if not self.dtype.is_integer or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            how_many = "no values" if self._data.size == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {how_many} is ambiguous")
        if tracing.active:
            tracing.warn_conversion("Python boolean")
        return bool(self._data.reshape(()).item())

    def __array__(self, dtype=None):
        # (PyTorch's signature, without NumPy 2's copy=: NumPy then copies itself, and
        # np.array(tensor) gives its DeprecationWarning under both libraries)
        data = self.numpy()  # (as PyTorch's: refused for a tensor that requires grad)
        return data if dtype is None else data.astype(dtype, copy=False)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        # What NumPy's functions give for tensors (np.sin(x), x + np.ones(2): NumPy's own
        # operator once the tensor's gave NotImplemented) as PyTorch wraps it: a tensor
        # sharing the array, a bool array as uint8.
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return make(np.asarray(array))

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __reversed__(self) -> "Tensor":
        """``reversed(t)``: the tensor flipped along dim 0 (``FlipBackward0``), as PyTorch's
        (a 0-d tensor is returned as it is); d2l's bidirectional RNN reverses its inputs."""
        return self if self._data.ndim == 0 else self.flip(0)

    def __hash__(self) -> int:
        return id(self)

    def __format__(self, spec: str) -> str:
        """``f"{loss:.4f}"`` formats a 0-dim tensor's value; other tensors accept
        only an empty spec (PyTorch's "unsupported format string" TypeError)."""
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __repr__(self) -> str:
        if inference.versionless:  # (torch's printing makes views: see inference.versionless)
            inference.check_version(self)
        return tensor_repr(self)

    __str__ = __repr__

    # ---- arithmetic ------------------------------------------------------

    # (the op functions themselves: one Python frame fewer per operation)
    __add__ = __radd__ = ops.add
    __sub__ = ops.sub

    def __rsub__(self, other):
        return ops.rsub(self, other)

    __mul__ = __rmul__ = ops.mul
    __truediv__ = ops.div

    __mod__ = ops.remainder
    __floordiv__ = ops.floor_divide

    def __rmod__(self, other):
        return ops.remainder(other, self)

    def __rfloordiv__(self, other):
        return ops.floor_divide(other, self)

    def __rtruediv__(self, other):
        # PyTorch computes other / self as reciprocal(self) * other, and a TypeError
        # there is NotImplemented: Python then words the error (`None / x`).
        try:
            return ops.reciprocal(self) * other
        except TypeError:
            return NotImplemented

    def __pow__(self, exponent):
        return ops.pow(self, exponent)

    def __rpow__(self, base):
        return ops.rpow(self, base)

    def __neg__(self):
        return ops.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return ops.abs(self)

    def __matmul__(self, other):
        if not isinstance(other, Tensor):  # (torch.matmul takes tensors only)
            return NotImplemented
        return ops.matmul(self, other)

    def __rmatmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return ops.matmul(other, self)

    @arguments.checks_method_arguments(arguments.check_binary_method)
    def add(self, other, *, alpha=1):
        return ops.add(self, other, alpha)

    @arguments.checks_method_arguments(arguments.check_binary_method)
    def sub(self, other, *, alpha=1):
        return ops.sub(self, other, alpha)

    @arguments.checks_method_arguments(arguments.check_binary_method)
    def mul(self, other):
        return ops.mul(self, other)

    @arguments.checks_method_arguments(arguments.check_binary_method)
    def div(self, other, *, rounding_mode=None):
        if rounding_mode is None:
            return ops.div(self, other)
        return ops.div_rounding(self, other, arguments.rounding_mode(rounding_mode))

    def remainder(self, other):
        return self._with_operand(ops.remainder, other)

    def fmod(self, other):
        return self._with_operand(ops.fmod, other)

    def floor_divide(self, other):
        return self._with_operand(ops.floor_divide, other)

    def pow(self, exponent):
        return self._with_operand(ops.pow, exponent)

    def _with_operand(self, op, other):
        """``x.pow(exponent)``, ``x.eq(other)``...: ``op(self, other)``, and where the op
        steps aside (NotImplemented, which its operator hands to Python) because
        ``other`` is neither a tensor nor a number, PyTorch's error for the method."""
        result = op(self, other)
        if result is NotImplemented:
            arguments.check_operand_method(op.__name__, (other,), {})
        return result

    @staticmethod
    def _operand_taken(method: str, result, operand):
        """``result``, unless the op stepped aside (NotImplemented: ``operand`` is neither
        a tensor nor a number): PyTorch's parser's error for the method."""
        if result is NotImplemented:
            raise arguments.refused_operand(method, (operand,))
        return result

    def neg(self):
        return ops.neg(self)

    def negative(self):
        return ops.neg(self)

    def positive(self):
        return ops.aliases.positive(self)

    def true_divide(self, other):
        return ops.div(self, other)

    def reciprocal(self):
        return ops.reciprocal(self)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def matmul(self, other):
        return ops.matmul(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def mm(self, mat2):
        return ops.mm(self, mat2)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def mv(self, vec):
        return ops.mv(self, vec)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def dot(self, tensor):
        return ops.dot(self, tensor)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def bmm(self, mat2):
        return ops.bmm(self, mat2)

    # ---- comparisons (not differentiable) --------------------------------

    def __eq__(self, other):
        result = ops.eq(self, other)
        if result is NotImplemented and isinstance(other, np.ndarray):
            return ops.eq(self, make(other))  # (torch's == alone reads an array)
        return result

    def __ne__(self, other):
        return ops.ne(self, other)

    def __lt__(self, other):
        return ops.lt(self, other)

    def __le__(self, other):
        return ops.le(self, other)

    def __gt__(self, other):
        return ops.gt(self, other)

    def __ge__(self, other):
        return ops.ge(self, other)

    def eq(self, other):
        return self._with_operand(ops.eq, other)

    def ne(self, other):
        return self._with_operand(ops.ne, other)

    def lt(self, other):
        return self._with_operand(ops.lt, other)

    def le(self, other):
        return self._with_operand(ops.le, other)

    def gt(self, other):
        return self._with_operand(ops.gt, other)

    def ge(self, other):
        return self._with_operand(ops.ge, other)

    # (PyTorch's other names for the comparisons and the arithmetic: the same ops)
    def greater(self, other):
        return self._with_operand(ops.gt, other)

    def greater_equal(self, other):
        return self._with_operand(ops.ge, other)

    def less(self, other):
        return self._with_operand(ops.lt, other)

    def less_equal(self, other):
        return self._with_operand(ops.le, other)

    def not_equal(self, other):
        return self._with_operand(ops.ne, other)

    def multiply(self, other):
        return self.mul(other)

    def subtract(self, other, *, alpha=1):
        return self.sub(other, alpha=alpha)

    def divide(self, other, *, rounding_mode=None):
        return self.div(other, rounding_mode=rounding_mode)

    def isposinf(self):
        return ops.aliases.isposinf(self)

    def isneginf(self):
        return ops.aliases.isneginf(self)

    def isreal(self):
        return ops.aliases.isreal(self)

    def is_nonzero(self) -> bool:
        """The one element's truth (an error for none or several, as ``bool(x)``)."""
        return bool(self)

    def is_same_size(self, other) -> bool:
        return self.shape == other.shape

    # ---- logical / bitwise (bool and integer tensors; not differentiable) --

    def __and__(self, other):
        return ops.bitwise_and(self, other)

    def __rand__(self, other):
        return ops.bitwise_and(self, other)

    def __or__(self, other):
        return ops.bitwise_or(self, other)

    def __ror__(self, other):
        return ops.bitwise_or(self, other)

    def __xor__(self, other):
        return ops.bitwise_xor(self, other)

    def __rxor__(self, other):
        return ops.bitwise_xor(self, other)

    def __invert__(self):
        return ops.bitwise_not(self)

    def __lshift__(self, other):
        return ops.bitwise_left_shift(self, other)

    def __rlshift__(self, other):
        first = ops.compare.number_first(other, self)
        return first if first is NotImplemented else ops.bitwise_left_shift(first, self)

    def __rshift__(self, other):
        return ops.bitwise_right_shift(self, other)

    def __rrshift__(self, other):
        first = ops.compare.number_first(other, self)
        return first if first is NotImplemented else ops.bitwise_right_shift(first, self)

    def __ilshift__(self, other):
        if not arguments.is_operand(other):  # (Python's own error then)
            return NotImplemented
        return ops.inplace(self, ops.bitwise_left_shift, other)

    def __irshift__(self, other):
        if not arguments.is_operand(other):  # (Python's own error then)
            return NotImplemented
        return ops.inplace(self, ops.bitwise_right_shift, other)

    def bitwise_left_shift(self, other):
        return ops.bitwise_left_shift(self, other)

    def bitwise_right_shift(self, other):
        return ops.bitwise_right_shift(self, other)

    def bitwise_left_shift_(self, other):
        return ops.inplace(self, ops.bitwise_left_shift, other)

    def bitwise_right_shift_(self, other):
        return ops.inplace(self, ops.bitwise_right_shift, other)

    def __iand__(self, other):
        if not arguments.is_operand(other):  # (Python's own error then)
            return NotImplemented
        return ops.inplace(self, ops.bitwise_and, other)

    def __ior__(self, other):
        if not arguments.is_operand(other):  # (Python's own error then)
            return NotImplemented
        return ops.inplace(self, ops.bitwise_or, other)

    def __ixor__(self, other):
        if not arguments.is_operand(other):  # (Python's own error then)
            return NotImplemented
        return ops.inplace(self, ops.bitwise_xor, other)

    def bitwise_and(self, other):
        return ops.bitwise_and(self, other)

    def bitwise_or(self, other):
        return ops.bitwise_or(self, other)

    def bitwise_xor(self, other):
        return ops.bitwise_xor(self, other)

    def bitwise_not(self):
        return ops.bitwise_not_function(self)

    def bitwise_and_(self, other):
        return ops.inplace(self, ops.bitwise_and, other)

    def bitwise_or_(self, other):
        return ops.inplace(self, ops.bitwise_or, other)

    def bitwise_xor_(self, other):
        return ops.inplace(self, ops.bitwise_xor, other)

    def bitwise_not_(self):
        return ops.inplace(self, ops.bitwise_not_function)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def gcd(self, other):
        return ops.gcd(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def lcm(self, other):
        return ops.lcm(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def gcd_(self, other):
        return ops.inplace(self, ops.gcd, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def lcm_(self, other):
        return ops.inplace(self, ops.lcm, other)

    def signbit(self):
        return ops.signbit(self)

    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        return ops.nansum(self, dim, keepdim, dtype=dtype)

    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        return ops.nanmean(self, dim, keepdim, dtype=dtype)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def fmax(self, other):
        return ops.fmax(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def fmin(self, other):
        return ops.fmin(self, other)

    def take(self, index):
        return ops.take(self, index)

    def put(self, index, source, accumulate=False):
        check_put_arguments(index, source, "put")
        return ops.put(self, index, source, accumulate)

    def put_(self, index, source, accumulate=False):
        """Write ``source``'s elements at ``index`` of this tensor read as one dim, in
        place (added there with ``accumulate``)."""
        check_put_arguments(index, source, "put_")
        return ops.inplace(self, ops.put, index, source, accumulate)

    def isnan(self):
        return ops.isnan(self)

    def isinf(self):
        return ops.isinf(self)

    def isfinite(self):
        return ops.isfinite(self)

    def type_as(self, other):
        """This tensor in ``other``'s dtype (itself when it has it already)."""
        return self.to(other.dtype)

    def logical_not(self):
        return ops.logical_not(self)

    def logical_and(self, other):
        return ops.logical_and(self, other)

    def logical_or(self, other):
        return ops.logical_or(self, other)

    def logical_xor(self, other):
        return ops.logical_xor(self, other)

    def logical_and_(self, other):
        return self.copy_(ops.logical_and(self, other))

    def logical_or_(self, other):
        return self.copy_(ops.logical_or(self, other))

    def logical_xor_(self, other):
        return self.copy_(ops.logical_xor(self, other))

    def logical_not_(self):
        return self.copy_(ops.logical_not(self))

    def count_nonzero(self, dim=None):
        return ops.count_nonzero(self, dim)

    def nonzero(self, *, as_tuple=False):
        """The indices of the nonzero elements (see ``torch.nonzero``)."""
        return ops.nonzero(self, as_tuple)

    def argwhere(self):
        return ops.argwhere(self)

    def nonzero_static(self, *, size, fill_value=-1):
        return ops.nonzero_static(self, size, fill_value)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return ops.unique_consecutive(self, return_inverse, return_counts, dim)

    def sum_to_size(self, *size):
        """This tensor summed down to ``size``, which must broadcast to its shape."""
        if not size:
            raise parser.missing_arguments("sum_to_size", ["size"])
        return ops.aliases.sum_to_size(self, size[0] if len(size) == 1 and
                                       isinstance(size[0], (tuple, list)) else size)

    def inner(self, other):
        return ops.aliases.inner(self, other)

    def diagflat(self, offset=0):
        return ops.aliases.diagflat(self, offset)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
        return ops.unique(self, sorted, return_inverse, return_counts, dim)

    def bincount(self, weights=None, minlength=0):
        return ops.bincount(self, weights, minlength)

    def histc(self, bins=100, min=0, max=0):  # noqa: A002 - PyTorch's names
        return ops.histc(self, bins, min, max)

    def histogram(self, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
        return ops.histogram(self, bins, range, weight, density)

    def clamp_min(self, min):  # noqa: A002 - PyTorch's name
        return self._operand_taken("clamp_min", ops.clamp_min(self, min), min)

    def clamp_max(self, max):  # noqa: A002 - PyTorch's name
        return self._operand_taken("clamp_max", ops.clamp_max(self, max), max)

    def clamp_min_(self, min):  # noqa: A002 - PyTorch's name
        return ops.inplace(self, ops.clamp_min, min)

    def clamp_max_(self, max):  # noqa: A002 - PyTorch's name
        return ops.inplace(self, ops.clamp_max, max)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return ops.nan_to_num(self, nan, posinf, neginf)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return ops.inplace(self, ops.nan_to_num, nan, posinf, neginf)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
        return ops.allclose(self, other, rtol, atol, equal_nan)

    def equal(self, other) -> bool:
        return ops.equal(self, other, method=True)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return ops.isclose(self, other, rtol, atol, equal_nan)

    @arguments.takes_numpy_names
    def argmax(self, dim=None, keepdim=False):
        return ops.argmax(self, dim, keepdim)

    @arguments.takes_numpy_names
    def argmin(self, dim=None, keepdim=False):
        return ops.argmin(self, dim, keepdim)

    # ---- pointwise functions ---------------------------------------------

    def exp(self):
        return ops.exp(self)

    def log(self):
        return ops.log(self)

    def sqrt(self):
        return ops.sqrt(self)

    def tanh(self):
        return ops.tanh(self)

    def sigmoid(self):
        return ops.sigmoid(self)

    def relu(self):
        return ops.relu(self)

    def abs(self):
        return ops.abs(self)

    def absolute(self):
        return ops.abs(self)

    def sin(self):
        return ops.sin(self)

    def log10(self):
        return ops.log10(self)

    # (trigonometry and special functions: ops/trig.py, ops/special.py)
    def tan(self):
        return ops.tan(self)

    def asin(self):
        return ops.asin(self)

    def acos(self):
        return ops.acos(self)

    def atan(self):
        return ops.atan(self)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def atan2(self, other):
        return ops.atan2(self, other)

    def sinh(self):
        return ops.sinh(self)

    def cosh(self):
        return ops.cosh(self)

    def asinh(self):
        return ops.asinh(self)

    def acosh(self):
        return ops.acosh(self)

    def atanh(self):
        return ops.atanh(self)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def hypot(self, other):
        return ops.hypot(self, other)

    def sinc(self):
        return ops.sinc(self)

    def deg2rad(self):
        return ops.deg2rad(self)

    def rad2deg(self):
        return ops.rad2deg(self)

    def angle(self):
        return ops.angle(self)

    def erf(self):
        return ops.erf(self)

    def erfc(self):
        return ops.erfc(self)

    def erfinv(self):
        return ops.erfinv(self)

    def i0(self):
        return ops.i0(self)

    def lgamma(self):
        return ops.lgamma(self)

    def mvlgamma(self, p):
        return ops.special_functions.mvlgamma(self, p)

    def igamma(self, other):
        return ops.special_functions.igamma(self, other)

    def igammac(self, other):
        return ops.special_functions.igammac(self, other)

    def digamma(self):
        return ops.digamma(self)

    @arguments.checks_method_arguments(arguments.check_polygamma_method)
    def polygamma(self, n):
        return ops.polygamma(n, self)

    def exp2(self):
        return ops.exp2(self)

    def logit(self, eps=None):
        arguments.check_float_argument("logit", "eps", 1, eps)
        return ops.logit(self, eps)

    def xlogy(self, other):
        return self._operand_taken("xlogy", ops.xlogy(self, other), other)

    @arguments.checks_method_arguments(arguments.check_lerp_method)
    def lerp(self, end, weight):
        return ops.lerp(self, end, weight)

    def cov(self, *, correction=1, fweights=None, aweights=None):
        return ops.cov(self, correction, fweights, aweights)

    def corrcoef(self):
        return ops.corrcoef(self)

    @arguments.checks_method_arguments(arguments.check_scatter_reduce_method)
    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        return ops.scatter_reduce(self, dim, index, src, reduce, include_self=include_self)

    @arguments.checks_method_arguments(arguments.check_index_put_method)
    def index_put(self, indices, values, accumulate=False):
        return ops.index_put(self, indices, values, accumulate)

    @arguments.checks_method_arguments(arguments.check_masked_scatter_method)
    def masked_scatter(self, mask, source):
        return ops.masked_scatter(self, mask, source)

    @arguments.checks_method_arguments(arguments.check_addc_method)
    def addcmul(self, tensor1, tensor2, *, value=1):
        return ops.addcmul(self, tensor1, tensor2, value)

    @arguments.checks_method_arguments(arguments.check_addc_method)
    def addcdiv(self, tensor1, tensor2, *, value=1):
        return ops.addcdiv(self, tensor1, tensor2, value)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def logaddexp(self, other):
        return ops.logaddexp(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def logaddexp2(self, other):
        return ops.logaddexp2(self, other)

    def float_power(self, exponent):
        return ops.float_power(self, exponent)

    def copysign(self, other):
        return self._operand_taken("copysign", ops.copysign(self, other), other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def nextafter(self, other):
        return ops.nextafter(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def heaviside(self, values):
        return ops.heaviside(self, values)

    def arcsin(self):
        return ops.asin(self)

    def arccos(self):
        return ops.acos(self)

    def arctan(self):
        return ops.atan(self)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def arctan2(self, other):
        return ops.atan2(self, other)

    def arcsinh(self):
        return ops.asinh(self)

    def arccosh(self):
        return ops.acosh(self)

    def arctanh(self):
        return ops.atanh(self)

    def log2(self):
        return ops.log2(self)

    def log1p(self):
        return ops.log1p(self)

    def expm1(self):
        return ops.expm1(self)

    def rsqrt(self):
        return ops.rsqrt(self)

    def square(self):
        return ops.square(self)

    def floor(self):
        return ops.floor(self)

    def ceil(self):
        return ops.ceil(self)

    def trunc(self):
        return ops.trunc(self)

    def fix(self):
        return ops.trunc(self)

    def round(self, *, decimals=None):
        """Round to the nearest integer, halves to even, or to ``decimals`` digits."""
        return ops.round(self, decimals)

    def frac(self):
        return ops.frac(self)

    def cos(self):
        return ops.cos(self)

    @arguments.checks_method_arguments(arguments.check_clamp_method)
    def clamp(self, min=None, max=None):
        return ops.clamp(self, min, max)

    @arguments.checks_method_arguments(arguments.check_clamp_method)
    def clip(self, min=None, max=None):
        return ops.clamp(self, min, max)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def maximum(self, other):
        return ops.maximum(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def minimum(self, other):
        return ops.minimum(self, other)

    def where(self, condition, other):
        return ops.where(condition, self, other)

    def sign(self):
        return ops.sign(self)

    def sgn(self):
        return ops.sgn(self)

    def masked_fill(self, mask, value):
        return ops.masked_fill(self, mask, value)

    def tril(self, diagonal=0):
        """The lower triangle of the last two dims (see ``torch.tril``)."""
        return ops.tril(self, diagonal, position=1)

    def triu(self, diagonal=0):
        """The upper triangle of the last two dims (see ``torch.triu``)."""
        return ops.triu(self, diagonal, position=1)

    def masked_select(self, mask):
        """The elements where ``mask`` is True, as a 1-D tensor (see ``torch.masked_select``)."""
        return ops.masked_select(self, mask)

    # ---- reductions ------------------------------------------------------

    @arguments.takes_numpy_names
    @arguments.checks_method_arguments(arguments.check_reduction_method)
    def sum(self, dim=ops.NOT_GIVEN, keepdim=False, *, dtype=None):
        return ops.sum(self, dim, keepdim, dtype=dtype)

    @arguments.takes_numpy_names
    @arguments.checks_method_arguments(arguments.check_reduction_method)
    def mean(self, dim=ops.NOT_GIVEN, keepdim=False, *, dtype=None):
        return ops.mean(self, dim, keepdim, dtype=dtype)

    @arguments.takes_numpy_names
    def max(self, dim=None, keepdim=False, *, other=None):
        parser.check_max_other("max", dim, other)
        return ops.max(self, dim if other is None else other, keepdim)

    @arguments.takes_numpy_names
    def min(self, dim=None, keepdim=False, *, other=None):
        parser.check_max_other("min", dim, other)
        return ops.min(self, dim if other is None else other, keepdim)

    def amax(self, dim=(), keepdim=False):
        return ops.amax(self, dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return ops.amin(self, dim, keepdim)

    @arguments.checks_method_arguments(arguments.check_aminmax_method)
    def aminmax(self, *, dim=None, keepdim=False):
        """``(min, max)`` in one pass (see ``torch.aminmax``)."""
        return ops.aminmax(self, dim, keepdim)

    @arguments.checks_method_arguments(arguments.check_sort_method)
    def sort(self, dim=-1, descending=False, *, stable=ops.NOT_GIVEN):
        """``(values, indices)``: sorted along ``dim`` (see ``torch.sort``)."""
        return ops.sort(self, dim, descending, stable)

    @arguments.checks_method_arguments(arguments.check_sort_method)
    def argsort(self, dim=-1, descending=False, *, stable=ops.NOT_GIVEN):
        return ops.argsort(self, dim, descending, stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002
        return ops.topk(self, k, dim, largest, sorted)

    def kthvalue(self, k, dim=-1, keepdim=False):
        return ops.kthvalue(self, k, dim, keepdim)

    def median(self, dim=ops.NOT_GIVEN, keepdim=False):
        return ops.median(self, dim, keepdim)

    @arguments.checks_method_arguments(arguments.check_nanmedian_method)
    def nanmedian(self, dim=ops.NOT_GIVEN, keepdim=False):
        return ops.nanmedian(self, dim, keepdim)

    @arguments.checks_method_arguments(arguments.check_quantile_method)
    def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        """The ``q``-th quantiles (see ``torch.quantile``)."""
        return ops.quantile(self, q, dim, keepdim, interpolation)

    @arguments.checks_method_arguments(arguments.check_quantile_method)
    def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return ops.nanquantile(self, q, dim, keepdim, interpolation)

    def mode(self, dim=-1, keepdim=False):
        return ops.mode(self, dim, keepdim)

    @arguments.takes_numpy_names
    def prod(self, dim=None, keepdim=False, *, dtype=None):
        return ops.prod(self, dim, keepdim, dtype=dtype)

    @arguments.takes_numpy_names
    def cumsum(self, dim, *, dtype=None):
        return ops.cumsum(self, dim, dtype=dtype)

    @arguments.takes_numpy_names
    def cumprod(self, dim, *, dtype=None):
        return ops.cumprod(self, dim, dtype=dtype)

    @arguments.takes_numpy_names
    @arguments.checks_method_arguments(arguments.check_dim_method)
    def cummax(self, dim):
        return ops.cummax(self, dim)

    @arguments.takes_numpy_names
    @arguments.checks_method_arguments(arguments.check_dim_method)
    def cummin(self, dim):
        return ops.cummin(self, dim)

    @arguments.takes_numpy_names
    @arguments.checks_method_arguments(arguments.check_dim_method)
    def logcumsumexp(self, dim):
        return ops.logcumsumexp(self, dim)

    @arguments.takes_numpy_names
    def var(self, dim=ops.NOT_GIVEN, unbiased=None, keepdim=False, *, correction=None):
        return ops.var(self, dim, unbiased, keepdim, correction=correction)

    @arguments.takes_numpy_names
    def std(self, dim=ops.NOT_GIVEN, unbiased=None, keepdim=False, *, correction=None):
        return ops.std(self, dim, unbiased, keepdim, correction=correction)

    def norm(self, p="fro", dim=None, keepdim=False):
        return ops.linalg_module.torch_norm(self, p, dim, keepdim)

    def hardshrink(self, lambd=0.5):
        return ops.activation.hardshrink(self, lambd)

    def inverse(self):
        return ops.linalg_module.inv(self)

    def det(self):
        return ops.linalg_module.det(self)

    def logdet(self):
        return ops.linalg_module.logdet(self)

    def slogdet(self):
        return ops.linalg_module.slogdet(self, result=ops.linalg_module.TorchSlogdetResult)

    def matrix_power(self, n):
        return ops.linalg_module.matrix_power(self, n)

    def matrix_exp(self):
        return ops.linalg_module.matrix_exp(self)

    def svd(self, some=True, compute_uv=True):
        return ops.linalg_module.svd_with_v(self, some, compute_uv)

    def geqrf(self):
        return ops.householder.geqrf(self)

    def orgqr(self, input2):
        return ops.householder.householder_product(self, input2)

    def pinverse(self, rcond=1e-15):
        return ops.linalg_module.pinv(self, None, rcond, False)

    def cholesky(self, upper=False):
        errors.warn_once(errors.CHOLESKY_DEPRECATED)
        return ops.linalg_module.cholesky_old(self, upper)

    def cholesky_solve(self, input2, upper=False):
        return ops.linalg_module.cholesky_solve(self, input2, upper)

    def cholesky_inverse(self, upper=False):
        return ops.linalg_module.cholesky_inverse(self, upper)

    def lu(self, pivot=True, get_infos=False):
        """Deprecated for torch.linalg.lu_factor (PyTorch's warning once): (LU, pivots), or
        (LU, pivots, info)."""
        errors.warn_once(errors.LU_DEPRECATED)
        LU, pivots, info = ops.linalg_lu.lu_with_info(self, pivot)
        return (LU, pivots, info) if get_infos else (LU, pivots)

    def lu_solve(self, LU_data, LU_pivots):
        """Deprecated for torch.linalg.lu_solve(LU_data, LU_pivots, self) (PyTorch's warning)."""
        errors.warn_once(errors.LU_SOLVE_DEPRECATED)
        return ops.linalg_lu.lu_solve(LU_data, LU_pivots, self)

    # (removed in PyTorch 2: each raises PyTorch's error, which names what replaces it)
    def solve(self, other):
        return removed.solve(self, other)

    def eig(self, eigenvectors=False):
        return removed.eig(self, eigenvectors)

    def symeig(self, eigenvectors=False):
        return removed.symeig(self, eigenvectors)

    def lstsq(self, other):
        return removed.lstsq(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def dist(self, other, p=2):
        return ops.dist(self, other, p)

    @arguments.takes_numpy_names
    def logsumexp(self, dim, keepdim=False):
        return ops.logsumexp(self, dim, keepdim)

    @arguments.takes_numpy_names
    def softmax(self, dim, dtype=None):
        return ops.softmax(self, dim, dtype)

    @arguments.takes_numpy_names
    def log_softmax(self, dim, dtype=None):
        return ops.log_softmax(self, dim, dtype)

    # print(x.all) shows "<built-in method all of Tensor object at 0x...>", as in PyTorch
    @builtin_method
    @arguments.takes_numpy_names
    def all(self, dim=None, keepdim=False):
        return ops.all(self, dim, keepdim)

    @builtin_method
    @arguments.takes_numpy_names
    def any(self, dim=None, keepdim=False):
        return ops.any(self, dim, keepdim)

    # ---- shape -----------------------------------------------------------

    @arguments.parsed_by(arguments.view_argument)
    def view(self, *size):
        """The same data seen with another shape: ``x.view(2, 3)``, ``x.view((2, -1))``."""
        if len(size) == 1 and isinstance(size[0], dtypes.dtype):
            return ops.view_dtype(self, size[0])
        return ops.view(self, size)

    def view_as(self, other):
        return ops.view(self, other.shape)

    @arguments.parsed_by(arguments.shape_argument)
    def reshape(self, *shape):
        """The same data with another shape (a view when possible, else a copy)."""
        return ops.reshape(self, shape)

    def reshape_as(self, other):
        return ops.reshape(self, other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        return ops.flatten(self, start_dim, end_dim)

    def transpose(self, dim0, dim1):
        return ops.transpose(self, dim0, dim1)

    def t(self):
        return ops.t(self)

    @property
    def T(self):
        arguments.check_transpose_attribute("T", self.ndim)
        return ops.permute(self, *reversed(range(self.ndim)))

    @property
    def mT(self):
        """The last two dims swapped (a batch of matrices transposed)."""
        arguments.check_transpose_attribute("mT", self.ndim)
        return self if self.ndim == 0 else ops.transpose(self, -2, -1)

    @property
    def H(self):
        """The conjugate transpose of a matrix: its transpose (minigrad's dtypes are real)."""
        arguments.check_transpose_attribute("H", self.ndim)
        return self if self.ndim == 0 else ops.transpose(self, 0, 1)

    @property
    def mH(self):
        arguments.check_transpose_attribute("mH", self.ndim)
        return self if self.ndim == 0 else ops.transpose(self, -2, -1)

    def adjoint(self):
        arguments.check_transpose_attribute("adjoint()", self.ndim)
        return self if self.ndim == 0 else ops.transpose(self, -2, -1)

    # (complex numbers: minigrad's dtypes are all real, so these are the tensor itself)
    @property
    def real(self):
        return self

    @property
    def imag(self):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")

    def conj(self):
        return self

    def conj_physical(self):
        return self

    def resolve_conj(self):
        return self

    def resolve_neg(self):
        return self

    def is_conj(self) -> bool:
        return False

    def is_neg(self) -> bool:
        return False

    def swapaxes(self, axis0, axis1):
        return ops.transpose(self, axis0, axis1)

    def swapdims(self, dim0, dim1):
        return ops.transpose(self, dim0, dim1)

    @arguments.checks_method_arguments(arguments.check_movedim_method)
    def movedim(self, source, destination):
        """Dims ``source`` moved to ``destination`` (a permute)."""
        return ops.aliases.movedim(self, source, destination)

    @arguments.checks_method_arguments(arguments.check_movedim_method)
    def moveaxis(self, source, destination):
        return ops.aliases.movedim(self, source, destination)

    @arguments.checks_method_arguments(arguments.check_typed_arguments)
    def unflatten(self, dim, sizes):
        """Dim ``dim`` split into ``sizes`` (a view): ``x.unflatten(1, (2, -1))``."""
        return ops.aliases.unflatten(self, dim, sizes)

    def ravel(self):
        return ops.aliases.ravel(self)

    @arguments.checks_method_arguments(arguments.check_typed_arguments)
    def broadcast_to(self, size):
        return ops.aliases.broadcast_to(self, size)

    @arguments.checks_method_arguments(arguments.check_split_sections_method)
    def hsplit(self, split_size_or_sections):
        return ops.aliases.hsplit(self, split_size_or_sections)

    @arguments.checks_method_arguments(arguments.check_split_sections_method)
    def vsplit(self, split_size_or_sections):
        return ops.aliases.vsplit(self, split_size_or_sections)

    @arguments.checks_method_arguments(arguments.check_split_sections_method)
    def dsplit(self, split_size_or_sections):
        return ops.aliases.dsplit(self, split_size_or_sections)

    def take_along_dim(self, indices, dim=None):
        return ops.aliases.take_along_dim(self, indices, dim)

    @arguments.checks_method_arguments(arguments.check_typed_arguments)
    def diff(self, n=1, dim=-1, prepend=None, append=None):
        return ops.aliases.diff(self, n, dim, prepend, append)

    def msort(self):
        return ops.aliases.msort(self)

    @arguments.parsed_by(arguments.ints_by_keyword("permute", "dims"))
    def permute(self, *dims):
        return ops.permute(self, *dims)

    @arguments.takes_numpy_names
    def unsqueeze(self, dim):
        return ops.unsqueeze(self, dim)

    @arguments.takes_numpy_names
    def squeeze(self, dim=None):
        return ops.squeeze(self, dim)

    # (the same views made in place: this tensor takes their shape and strides)
    def t_(self):
        return ops.t_(self)

    def swapaxes_(self, axis0, axis1):
        return ops.transpose_(self, axis0, axis1)

    def swapdims_(self, dim0, dim1):
        return ops.transpose_(self, dim0, dim1)

    def transpose_(self, dim0, dim1):
        return ops.transpose_(self, dim0, dim1)

    def unsqueeze_(self, dim):
        return ops.unsqueeze_(self, dim)

    def squeeze_(self, dim=None):
        return ops.squeeze_(self, dim)

    @arguments.parsed_by(arguments.ints_by_keyword("expand", "size", ignored=("implicit",)))
    def expand(self, *size):
        return ops.expand(self, *size)

    def expand_as(self, other):
        return ops.expand(self, other.shape)

    def select(self, dim, index):
        return ops.select(self, dim, index)

    def roll(self, shifts, dims=None):
        return ops.roll(self, shifts, dims)

    def rot90(self, k=1, dims=(0, 1)):
        return ops.rot90(self, k, dims)

    def cross(self, other, dim=None):
        return ops.cross(self, other, dim)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """beta * self + alpha * (mat1 @ mat2)."""
        return ops.addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        return ops.addmv(self, mat, vec, beta=beta, alpha=alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return ops.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def renorm(self, p, dim, maxnorm):
        return ops.renorm(self, p, dim, maxnorm)

    def renorm_(self, p, dim, maxnorm):
        return ops.inplace(self, ops.renorm, p, dim, maxnorm)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def ldexp(self, other):
        return ops.ldexp(self, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def ldexp_(self, other):
        return ops.inplace(self, ops.ldexp, other)

    def frexp(self):
        return ops.frexp(self)

    def vdot(self, other):
        return ops.vdot(self, other)

    def addr(self, vec1, vec2, *, beta=1, alpha=1):
        return ops.addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return ops.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def addr_(self, vec1, vec2, *, beta=1, alpha=1):
        return ops.inplace(self, functools.partial(ops.addr, beta=beta, alpha=alpha), vec1, vec2)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return ops.inplace(self, functools.partial(ops.addbmm, beta=beta, alpha=alpha), batch1,
                           batch2)

    def select_scatter(self, src, dim, index):
        return ops.select_scatter(self, src, dim, index)

    def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
        return ops.slice_scatter(self, src, dim, start, end, step)

    def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
        return ops.diagonal_scatter(self, src, offset, dim1, dim2)

    def as_strided_scatter(self, src, size, stride, storage_offset=None):
        return ops.as_strided_scatter(self, src, size, stride, storage_offset)

    @arguments.parsed_by(arguments.ints_by_keyword("repeat", "repeats"))
    def repeat(self, *repeats):
        """Copies of this tensor side by side, ``repeats[d]`` along each dim d
        (``x.repeat(2, 1)``: two copies one above the other)."""
        return ops.repeat(self, *repeats)

    @arguments.parsed_by(arguments.ints_by_keyword("tile", "dims"))
    def tile(self, *dims):
        return ops.tile(self, dims[0] if len(dims) == 1 and isinstance(dims[0], (tuple, list))
                        else dims)

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        return ops.repeat_interleave(self, repeats, dim, output_size)

    def outer(self, vec2):
        return ops.outer(self, vec2)

    def ger(self, vec2):
        return ops.outer(self, vec2)

    def kron(self, other):
        return ops.kron(self, other)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        """The diagonal in the plane of ``dim1`` and ``dim2``, as a view."""
        return ops.diagonal(self, offset, dim1, dim2)

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        return ops.diag_embed(self, offset, dim1, dim2)

    def diag(self, diagonal=0):
        return ops.diag(self, diagonal)

    def trace(self):
        return ops.trace(self)

    def index_select(self, dim, index):
        """The slices at ``index`` along ``dim`` (see ``torch.index_select``)."""
        return ops.index_select(self, dim, index)

    def index_add(self, dim, index, source, *, alpha=1):
        return ops.index_add(self, dim, index, source, alpha=alpha)

    def index_add_(self, dim, index, source, *, alpha=1):
        """Add ``alpha * source``'s slices at ``index`` along ``dim``, in place."""
        return ops.inplace(self, ops.index_add, dim, index, source, alpha)

    def index_fill(self, dim, index, value):
        return ops.index_fill(self, dim, index, value)

    def index_reduce(self, dim, index, source, reduce, *, include_self=True):
        return ops.index_reduce(self, dim, index, source, reduce, include_self)

    def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
        """Reduce ``source``'s slices into this tensor at ``index`` along ``dim``, in place:
        "prod", "mean", "amax" or "amin" (``include_self=False``: its own slices left out).

        >>> x = torch.full((3, 2), 2.)
        >>> x.index_reduce_(0, torch.tensor([0, 2, 0]), torch.tensor([[1., 2], [3, 4], [5, 6]]), 'prod')
        tensor([[10., 24.],
                [ 2.,  2.],
                [ 6.,  8.]])"""
        return ops.inplace(self, ops.index_reduce, dim, index, source, reduce, include_self)

    def index_fill_(self, dim, index, value):
        return ops.inplace(self, ops.index_fill, dim, index, value)

    def index_copy(self, dim, index, source):
        return ops.index_copy(self, dim, index, source)

    def index_copy_(self, dim, index, source):
        return ops.inplace(self, ops.index_copy, dim, index, source)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        return ops.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        """Write ``src``'s elements (or ``value``) at ``index`` along ``dim``, in place."""
        return ops.inplace(self, ops.scatter, dim, index, src, value, reduce)

    def scatter_add(self, dim, index, src):
        return ops.scatter_add(self, dim, index, src)

    def scatter_add_(self, dim, index, src):
        return ops.inplace(self, ops.scatter_add, dim, index, src)

    def gather(self, dim, index, *, sparse_grad=False):
        """The elements along ``dim`` at ``index``: for dim 1,
        ``y[i][j] = x[i][index[i][j]]`` (see ``torch.gather``)."""
        return ops.gather(self, dim, index, sparse_grad=sparse_grad)

    def narrow(self, dim, start, length):
        return ops.narrow(self, dim, start, length)

    def narrow_copy(self, dim, start, length):
        return ops.narrow_copy(self, dim, start, length)

    @arguments.parsed_by(arguments.unbind_arguments)
    def unbind(self, dim=0):
        return ops.unbind(self, dim)

    def split(self, split_size, dim=0):
        return ops.split(self, *arguments.split_arguments(self, split_size, dim))

    @arguments.parsed_by(arguments.split_with_sizes_arguments)
    def split_with_sizes(self, split_sizes, dim=0):
        return ops.split_with_sizes(self, split_sizes, dim)

    @arguments.parsed_by(arguments.chunk_arguments)
    def chunk(self, chunks, dim=0):
        return ops.chunk(self, chunks, dim)

    @arguments.parsed_by(arguments.unsafe_split_arguments)
    def unsafe_split(self, split_size, dim=0):
        return ops.unsafe_split(self, split_size, dim)

    @arguments.parsed_by(arguments.unsafe_split_with_sizes_arguments)
    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        return ops.unsafe_split_with_sizes(self, split_sizes, dim)

    @arguments.parsed_by(arguments.unsafe_chunk_arguments)
    def unsafe_chunk(self, chunks, dim=0):
        return ops.unsafe_chunk(self, chunks, dim)

    @arguments.parsed_by(lambda args, kwargs: arguments.tensor_split_arguments(
        args, kwargs, method=True)[1:])
    def tensor_split(self, indices_or_sections, dim=0):
        """Views of this tensor along ``dim``, each a slice of its own (see
        ``minigrad.tensor_split``)."""
        return ops.tensor_split(self, indices_or_sections, dim)

    @arguments.parsed_by(arguments.ints_by_keyword("flip", "dims"))
    def flip(self, *dims):
        """Reverse the order along ``dims`` (``x.flip(0)``, ``x.flip(0, 1)`` or ``x.flip((0, 1))``)."""
        return ops.flip(self, dims[0] if len(dims) == 1 else dims)

    def fliplr(self):
        return ops.fliplr(self)

    def flipud(self):
        return ops.flipud(self)

    def unfold(self, dimension, size, step):
        """The windows of ``size`` elements, ``step`` apart, along ``dimension`` (a view):
        ``torch.arange(6.).unfold(0, 2, 2)`` is ``[[0, 1], [2, 3], [4, 5]]``."""
        return ops.unfold_windows(self, dimension, size, step)

    def __getitem__(self, index):
        return ops.getitem(self, index)

    def __setitem__(self, index, value):
        ops.setitem(self, index, value)

    # ---- in place --------------------------------------------------------

    @arguments.checks_method_arguments(arguments.check_inplace_alpha)
    def add_(self, other, *, alpha=1):
        return ops.inplace(self, ops.add, other, alpha)

    @arguments.checks_method_arguments(arguments.check_inplace_alpha)
    def sub_(self, other, *, alpha=1):
        return ops.inplace(self, ops.sub, other, alpha)

    def mul_(self, other):
        return ops.inplace(self, ops.mul, other)

    def div_(self, other, *, rounding_mode=None):
        if rounding_mode is None:
            return ops.inplace(self, ops.div, other)
        return ops.inplace(self, ops.div_rounding, other, arguments.rounding_mode(rounding_mode))

    @arguments.checks_method_arguments(arguments.check_clamp_method)
    def clamp_(self, min=None, max=None):
        return ops.inplace(self, ops.clamp, min, max)

    @arguments.checks_method_arguments(arguments.check_clamp_method)
    def clip_(self, min=None, max=None):
        return ops.inplace(self, ops.clamp, min, max)

    def zero_(self):
        return ops.inplace(self, ops.zeros_like_op)

    def multiply_(self, other):
        return self.mul_(other)

    def subtract_(self, other, *, alpha=1):
        return self.sub_(other, alpha=alpha)

    def divide_(self, other, *, rounding_mode=None):
        return self.div_(other, rounding_mode=rounding_mode)

    # (a comparison in place: 1 or 0 in self's dtype)
    def eq_(self, other):
        return ops.inplace(self, _COMPARED_IN_PLACE["eq"], other)

    def ne_(self, other):
        return ops.inplace(self, _COMPARED_IN_PLACE["ne"], other)

    def lt_(self, other):
        return ops.inplace(self, _COMPARED_IN_PLACE["lt"], other)

    def le_(self, other):
        return ops.inplace(self, _COMPARED_IN_PLACE["le"], other)

    def gt_(self, other):
        return ops.inplace(self, _COMPARED_IN_PLACE["gt"], other)

    def ge_(self, other):
        return ops.inplace(self, _COMPARED_IN_PLACE["ge"], other)

    def greater_(self, other):
        return self.gt_(other)

    def greater_equal_(self, other):
        return self.ge_(other)

    def less_(self, other):
        return self.lt_(other)

    def less_equal_(self, other):
        return self.le_(other)

    def not_equal_(self, other):
        return self.ne_(other)

    def cumsum_(self, dim, *, dtype=None):
        dtype = math_dtypes.inplace_accumulate_dtype(self, dtype)
        return ops.inplace(self, functools.partial(ops.cumsum, dtype=dtype), dim)

    def cumprod_(self, dim, *, dtype=None):
        dtype = math_dtypes.inplace_accumulate_dtype(self, dtype)
        return ops.inplace(self, functools.partial(ops.cumprod, dtype=dtype), dim)

    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        return ops.inplace(self, functools.partial(ops.addmm, beta=beta, alpha=alpha), mat1, mat2)

    def addmv_(self, mat, vec, *, beta=1, alpha=1):
        return ops.inplace(self, functools.partial(ops.addmv, beta=beta, alpha=alpha), mat, vec)

    def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return ops.inplace(self, functools.partial(ops.baddbmm, beta=beta, alpha=alpha), batch1,
                           batch2)

    # (the out-of-place functions, in place: the same node as PyTorch records)
    def neg_(self):
        return ops.inplace(self, ops.neg)

    def negative_(self):
        return ops.inplace(self, ops.neg)

    def true_divide_(self, other):
        return ops.inplace(self, ops.div, other)

    def reciprocal_(self):
        return ops.inplace(self, ops.reciprocal)

    def pow_(self, exponent):
        return ops.inplace(self, ops.pow, exponent)

    def exp_(self):
        return ops.inplace(self, ops.exp)

    def log_(self):
        return ops.inplace(self, ops.log)

    def sqrt_(self):
        return ops.inplace(self, ops.sqrt)

    def tanh_(self):
        return ops.inplace(self, ops.tanh)

    def sigmoid_(self):
        return ops.inplace(self, ops.sigmoid)

    def relu_(self):
        return ops.inplace(self, ops.relu)

    def abs_(self):
        return ops.inplace(self, ops.abs)

    def absolute_(self):
        return ops.inplace(self, ops.abs)

    def sin_(self):
        return ops.inplace(self, ops.sin)

    def cos_(self):
        return ops.inplace(self, ops.cos)

    def sign_(self):
        return ops.inplace(self, ops.sign)

    def sgn_(self):
        return ops.inplace(self, ops.sgn)

    def log10_(self):
        return ops.inplace(self, ops.log10)

    def tan_(self):
        return ops.inplace(self, ops.tan)

    def asin_(self):
        return ops.inplace(self, ops.asin)

    def acos_(self):
        return ops.inplace(self, ops.acos)

    def atan_(self):
        return ops.inplace(self, ops.atan)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def atan2_(self, other):
        return ops.inplace(self, ops.atan2, other)

    def sinh_(self):
        return ops.inplace(self, ops.sinh)

    def cosh_(self):
        return ops.inplace(self, ops.cosh)

    def asinh_(self):
        return ops.inplace(self, ops.asinh_)

    def acosh_(self):
        return ops.inplace(self, ops.acosh_)

    def atanh_(self):
        return ops.inplace(self, ops.atanh_)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def hypot_(self, other):
        return ops.inplace(self, ops.hypot, other)

    def sinc_(self):
        return ops.inplace(self, ops.sinc)

    def deg2rad_(self):
        return ops.inplace(self, ops.deg2rad)

    def rad2deg_(self):
        return ops.inplace(self, ops.rad2deg)

    def erf_(self):
        return ops.inplace(self, ops.erf)

    def erfc_(self):
        return ops.inplace(self, ops.erfc)

    def erfinv_(self):
        return ops.inplace(self, ops.erfinv)

    def i0_(self):
        return ops.inplace(self, ops.i0)

    def lgamma_(self):
        return ops.inplace(self, ops.lgamma)

    def mvlgamma_(self, p):
        return ops.inplace(self, ops.special_functions.mvlgamma, p)

    def igamma_(self, other):
        return ops.inplace(self, ops.special_functions.igamma, other)

    def igammac_(self, other):
        return ops.inplace(self, ops.special_functions.igammac, other)

    def digamma_(self):
        return ops.inplace(self, ops.digamma)

    @arguments.checks_method_arguments(arguments.check_polygamma_method)
    def polygamma_(self, n):
        return ops.inplace(self, ops.polygamma_, n)

    def exp2_(self):
        return ops.inplace(self, ops.exp2)

    def logit_(self, eps=None):
        arguments.check_float_argument("logit_", "eps", 1, eps)
        return ops.inplace(self, ops.logit, eps)

    def xlogy_(self, other):
        return ops.inplace(self, ops.xlogy, other)

    @arguments.checks_method_arguments(arguments.check_lerp_method)
    def lerp_(self, end, weight):
        return ops.inplace(self, ops.lerp, end, weight)

    @arguments.checks_method_arguments(arguments.check_addc_method)
    def addcmul_(self, tensor1, tensor2, *, value=1):
        return ops.inplace(self, ops.addcmul, tensor1, tensor2, value)

    @arguments.checks_method_arguments(arguments.check_addc_method)
    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return ops.inplace(self, ops.addcdiv, tensor1, tensor2, value)

    def float_power_(self, exponent):
        math_dtypes.check_float_power_(self)
        return ops.inplace(self, ops.float_power, exponent)

    def copysign_(self, other):
        return ops.inplace(self, ops.copysign, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def nextafter_(self, other):
        return ops.inplace(self, ops.nextafter, other)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def heaviside_(self, values):
        return ops.inplace(self, ops.heaviside, values)

    def arcsin_(self):
        return ops.inplace(self, ops.asin)

    def arccos_(self):
        return ops.inplace(self, ops.acos)

    def arctan_(self):
        return ops.inplace(self, ops.atan)

    @arguments.checks_method_arguments(arguments.check_tensor_method)
    def arctan2_(self, other):
        return ops.inplace(self, ops.atan2, other)

    def arcsinh_(self):
        return ops.inplace(self, ops.asinh_)

    def arccosh_(self):
        return ops.inplace(self, ops.acosh_)

    def arctanh_(self):
        return ops.inplace(self, ops.atanh_)

    def log2_(self):
        return ops.inplace(self, ops.log2)

    def log1p_(self):
        return ops.inplace(self, ops.log1p)

    def expm1_(self):
        return ops.inplace(self, ops.expm1)

    def rsqrt_(self):
        return ops.inplace(self, ops.rsqrt)

    def square_(self):
        return ops.inplace(self, ops.square)

    def floor_(self):
        return ops.inplace(self, ops.floor)

    def ceil_(self):
        return ops.inplace(self, ops.ceil)

    def trunc_(self):
        return ops.inplace(self, ops.trunc)

    def fix_(self):
        return ops.inplace(self, ops.trunc)

    def round_(self, *, decimals=None):
        return ops.inplace(self, ops.round, decimals)

    def frac_(self):
        return ops.inplace(self, ops.frac)

    def remainder_(self, other):
        return ops.inplace(self, ops.remainder, other)

    def fmod_(self, other):
        return ops.inplace(self, ops.fmod, other)

    def floor_divide_(self, other):
        return ops.inplace(self, ops.floor_divide, other)

    def masked_fill_(self, mask, value):
        return ops.masked_fill_(self, mask, value)

    def tril_(self, diagonal=0):
        return ops.inplace(self, ops.tril, diagonal)

    def triu_(self, diagonal=0):
        return ops.inplace(self, ops.triu, diagonal)

    def fill_(self, value):
        return ops.inplace(self, ops.fill, value)

    @arguments.checks_method_arguments(arguments.check_fill_value_method)
    def fill_diagonal_(self, fill_value, wrap=False):
        """The main diagonal set to ``fill_value``, in place (``wrap``: again every N + 1
        rows of a tall matrix)."""
        value = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
        return ops.fill_diagonal_(self, value, wrap)

    @arguments.checks_method_arguments(arguments.check_scatter_reduce_method)
    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        return ops.inplace(self, ops.scatter_reduce, dim, index, src, reduce, include_self)

    @arguments.checks_method_arguments(arguments.check_index_put_method)
    def index_put_(self, indices, values, accumulate=False):
        """``self[indices] = values`` (or ``+=`` with ``accumulate``), in place."""
        return ops.inplace(self, ops.index_put, indices, values, accumulate)

    @arguments.checks_method_arguments(arguments.check_masked_scatter_method)
    def masked_scatter_(self, mask, source):
        if isinstance(mask, Tensor) and mask.dtype is dtypes.bool:
            mask.expand(self.shape)  # (the mask is expanded to self: PyTorch's error first)
        return ops.inplace(self, ops.masked_scatter, mask, source)

    def copy_(self, src, non_blocking: bool = False):
        layouts.check_bool("copy_", "non_blocking", non_blocking)  # (the CPU never waits)
        if isinstance(src, TensorBase) and src.is_meta != self.is_meta:
            return _copied_across_meta(self, src)
        return ops.inplace(self, ops.copy, src)

    # ---- random numbers, drawn as PyTorch draws them (ops/random.py) ----
    # (``from`` and ``to`` are Python keywords: ``uniform_(from=-1, to=1)`` arrives in
    # ``bounds``; positional calls, the usual ones, need none of that)

    def normal_(self, mean=0, std=1, *, generator=None):
        """Fill with samples of the normal distribution N(mean, std**2)."""
        return random_ops.normal_(self, mean, std, _random.cpu_generator(generator, "normal_"))

    def uniform_(self, from_=0, to=1, *, generator=None, **bounds):
        """Fill with samples of the uniform distribution on [from, to)."""
        from_, to = _random_bounds("uniform_", from_, to, bounds)
        return random_ops.uniform_(self, from_, to, _random.cpu_generator(generator, "uniform_"))

    def random_(self, from_=None, to=ops.NOT_GIVEN, *, generator=None, **bounds):
        """Fill with whole numbers: ``random_(to)`` in [0, to), ``random_(from, to)`` in
        [from, to) (``to=None``: up to the largest the dtype holds), ``random_()`` in
        [0, the largest the dtype holds exactly]."""
        if "to" in bounds and to is not ops.NOT_GIVEN:
            raise TypeError("random_() got multiple values for argument 'to'")
        from_, to = _random_bounds("random_", from_, to, bounds)
        if from_ is None and to is ops.NOT_GIVEN:
            from_, to, overload = None, None, 2  # random_()
        elif to is ops.NOT_GIVEN and "from" not in bounds:
            from_, to, overload = 0, from_, 1  # random_(to)
        elif from_ is None:
            from_, overload = 0, 1  # random_(to=...)
        else:
            to = None if to is ops.NOT_GIVEN else to
            overload = 0  # random_(from, to)
        return random_ops.random_(self, from_, to, _random.cpu_generator(generator, "random_"),
                                  overload)

    def cauchy_(self, median=0, sigma=1, *, generator=None):
        """Fill with samples of the Cauchy distribution around ``median`` (scale ``sigma``)."""
        return random_ops.cauchy_(self, median, sigma, _random.cpu_generator(generator, "cauchy_"))

    def log_normal_(self, mean=1, std=2, *, generator=None):
        """Fill with exp of samples of N(``mean``, ``std``²)."""
        return random_ops.log_normal_(self, mean, std,
                                      _random.cpu_generator(generator, "log_normal_"))

    def geometric_(self, p=ops.NOT_GIVEN, *, generator=None):
        """Fill with the number of trials up to the first success (chance ``p`` each)."""
        if p is ops.NOT_GIVEN:
            raise TypeError('geometric_() missing 1 required positional arguments: "p"')
        return random_ops.geometric_(self, p, _random.cpu_generator(generator, "geometric_"))

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 1 (with probability ``p``, a number or a tensor) or 0."""
        return random_ops.bernoulli_(self, p, _random.cpu_generator(generator, "bernoulli_"))

    def bernoulli(self, p=None, *, generator=None):
        """1 with probability given by this tensor (or by ``p``), elementwise, else 0."""
        generator = _random.cpu_generator(generator, "bernoulli")
        if p is None:
            return random_ops.bernoulli(self, generator)
        return random_ops.bernoulli_(ops.fn.zeros(self.shape, self), p, generator)

    def exponential_(self, lambd=1, *, generator=None):
        """Fill with samples of the exponential distribution of rate ``lambd``."""
        return random_ops.exponential_(self, lambd,
                                       _random.cpu_generator(generator, "exponential_"))

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """Indices drawn from each row of weights (with or without replacement)."""
        indices = random_ops.multinomial(self, num_samples, replacement,
                                         _random.cpu_generator(generator, "multinomial"))
        return make(indices)

    def __iadd__(self, other):
        return self.add_(other) if arguments.is_operand(other) else NotImplemented

    def __isub__(self, other):
        return self.sub_(other) if arguments.is_operand(other) else NotImplemented

    def __imul__(self, other):
        return self.mul_(other) if arguments.is_operand(other) else NotImplemented

    def __itruediv__(self, other):
        return self.div_(other) if arguments.is_operand(other) else NotImplemented

    def __ipow__(self, exponent):
        return self.pow_(exponent) if arguments.is_operand(exponent) else NotImplemented

    def __imod__(self, other):
        return self.remainder_(other) if arguments.is_operand(other) else NotImplemented

    def __ifloordiv__(self, other):
        return self.floor_divide_(other) if arguments.is_operand(other) else NotImplemented

    # ---- creation helpers on an existing tensor --------------------------

    def new(self, *args, device=None):
        """The legacy ``x.new(...)``: ``torch.FloatTensor(...)`` of x's dtype, so
        ``x.new(2, 3)`` a tensor of that shape (uninitialised in PyTorch, zeros here),
        ``x.new([1, 2])`` one of those values, ``x.new(t)`` an alias of ``t``."""
        return creation.legacy_new(self.dtype, args, device)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        return creation.tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)

    @creation.size_keyword
    def new_zeros(self, *size, dtype=None, layout=layouts.strided, device=None,
                  requires_grad=False, pin_memory=False):
        creation._check_options("new_zeros", layout, pin_memory)
        return creation._filled("new_zeros", size, 0, dtype or self.dtype,
                                device or self.device, requires_grad)

    @creation.size_keyword
    def new_empty(self, *size, dtype=None, layout=layouts.strided, device=None,
                  requires_grad=False, pin_memory=False):
        """Uninitialised in PyTorch; here zeros, as ``torch.empty``."""
        creation._check_options("new_empty", layout, pin_memory)
        return creation._filled("new_empty", size, 0, dtype or self.dtype,
                                device or self.device, requires_grad)

    def new_empty_strided(self, size, stride, *, dtype=None, layout=layouts.strided,
                          device=None, requires_grad=False, pin_memory=False):
        """As ``new_empty`` (zeros here); minigrad lays its tensors out itself, so ``stride``
        is not kept."""
        return self.new_empty(size, dtype=dtype, layout=layout, device=device,
                              requires_grad=requires_grad, pin_memory=pin_memory)

    @creation.size_keyword
    def new_ones(self, *size, dtype=None, layout=layouts.strided, device=None,
                  requires_grad=False, pin_memory=False):
        creation._check_options("new_ones", layout, pin_memory)
        if not size:
            raise parser.missing_arguments("new_ones", ["size"])
        return creation.ones(*size, dtype=dtype or self.dtype, layout=layout,
                             device=device or self.device,
                  requires_grad=requires_grad, pin_memory=pin_memory)

    def new_full(self, size, fill_value, *, dtype=None, layout=layouts.strided, device=None,
                 requires_grad=False, pin_memory=False):
        creation._check_options("new_full", layout, pin_memory)
        return creation.full(size, fill_value, dtype=dtype or self.dtype, layout=layout,
                    device=device or self.device, requires_grad=requires_grad,
                    pin_memory=pin_memory)


# A call that does not bind raises PyTorch's argument parser's error ("masked_fill() received
# an invalid combination of arguments ..."), the same rule for every method (rules/parser.py).
for _name, _method in parser.parsed_namespace(vars(Tensor), list(vars(Tensor)), "Tensor.",
                                              method=True).items():
    setattr(Tensor, _name, _method)

# The one hook: the floors below make Tensors of this class (see autograd/tensor_base.py).
set_tensor_class(Tensor)
