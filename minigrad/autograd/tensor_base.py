"""What a tensor is to the graph, and the one hook to the ``Tensor`` class.

The graph's floor (``autograd/``) and the floors above it up to the ops make
tensors: a recorded op wraps its result, a saved tensor is unpacked, the engine
hands gradients to hooks. But the ``Tensor`` class, with its methods, is the top
floor (``minigrad/tensor.py``), which imports all of them. So, as PyTorch's C++
autograd looks its Python ``Tensor`` class up once at start-up, ``tensor.py``
hands its class to ``set_tensor_class`` once, when it is imported, and the floors
below make tensors with ``make``. They never import ``tensor.py``.

``TensorBase`` declares the fields the graph reads and writes (``Tensor``
subclasses it); ``isinstance(x, TensorBase)`` is how the floors below ask
"is this a tensor?".
"""

from __future__ import annotations

import numpy as np

from ..dtypes import DTYPE_OF
from ..kernels import meta as meta_arrays
from ..kernels.meta import MetaArray
from . import inference

__all__ = ["TensorBase", "Version", "make", "set_tensor_class", "is_tensor"]


class Version:
    """A tensor's version counter, shared with its views: every in-place change
    adds one, so backward can tell that a tensor it saved was changed since."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class TensorBase:
    """The fields of a tensor, as the graph sees them (``Tensor`` adds the methods).

    ``_data``: the NumPy array. ``dtype``: its minigrad dtype. ``_requires_grad``,
    ``_grad_fn`` (the node that made it, None for a leaf), ``_output_nr`` (which
    output of that node it is), ``_grad`` (a leaf's accumulated gradient).
    ``_version_cell``: its ``Version``, made when first needed. A view also has
    ``_base`` (the tensor whose memory it shares), ``_view_version`` (the version
    its ``grad_fn`` describes) and ``_view_made`` (how it was made). A leaf keeps
    ``_accumulator`` (a weak reference to its ``AccumulateGrad``) and
    ``_leaf_hooks`` (from ``register_hook``).
    """

    __slots__ = ("_data", "dtype", "_requires_grad", "_grad_fn", "_output_nr", "_grad",
                 "_version_cell", "_base", "_view_version", "_accumulator", "_leaf_hooks",
                 "_view_made", "__weakref__", "__dict__")


# The hook: the Tensor class, set once by minigrad/tensor.py.
Tensor: type = TensorBase


def set_tensor_class(cls: type) -> None:
    """Called once, by ``minigrad/tensor.py``: ``make`` then makes ``cls`` objects."""
    global Tensor
    Tensor = cls


_new_object = object.__new__


def make(data, grad_fn=None, requires_grad: bool = False, output_nr: int = 0,
         version: Version | None = None, base=None):
    """Wrap a NumPy array in a Tensor (no copy, no checks)."""
    if type(data) is not np.ndarray and type(data) is not MetaArray:
        data = np.asarray(data)
    if meta_arrays.seen and data.base is not None and meta_arrays.lost(data):
        data = meta_arrays.like(data)  # (np.asarray of a meta array: see kernels/meta.py)
    tensor = _new_object(Tensor)
    tensor._data = data
    tensor.dtype = DTYPE_OF[data.dtype]
    tensor._grad_fn = grad_fn
    tensor._requires_grad = grad_fn is not None or requires_grad
    tensor._output_nr = output_nr
    tensor._grad = tensor._accumulator = tensor._leaf_hooks = tensor._view_version = None
    tensor._version_cell = version
    tensor._base = base
    if inference.enabled or (base is not None and inference.inference_tensors):
        inference.mark_inference(tensor, base)
    if base is not None and inference.versionless:  # (a view reads its base's counter)
        inference.check_version(base)
    return tensor


def is_tensor(value) -> bool:
    return isinstance(value, TensorBase)
