"""Saved tensors packed by ``torch.autograd.graph.saved_tensors_hooks(pack, unpack)``.

Inside such a block, a node keeps ``pack(tensor)`` instead of the tensor it saves
(``keep``, which ``record.py``, ``Node._link``, ``Node.save`` and custom Functions call),
and its backward reads ``unpack(packed)`` back (a ``PackedTensor``), as in PyTorch:
pack runs with grad mode off and may not change its input in place; the version
counter is not checked (the hooks may have copied the tensor anywhere); a Python
number wrapped as a tensor is not handed to the hooks.
"""

from __future__ import annotations

from .. import errors
from . import grad_mode, inference
from .saved import COMPANIONS, FREED, SavedTensor, SavedValue, saved_tensor
from .tensor_base import TensorBase, make

__all__ = ["keep", "PackedTensor", "SAVED_TENSORS_HOOKS", "RawSavedTensor", "saved_names"]


def keep(tensor, data, is_output: bool = False):
    """What a node keeps of a tensor it saves: a ``SavedTensor``, or, inside
    ``torch.autograd.graph.saved_tensors_hooks(pack, unpack)``, what ``pack(tensor)``
    returned (a ``PackedTensor``)."""
    if inference.inference_tensors and inference.is_inference(tensor):
        raise RuntimeError(errors.INFERENCE_SAVED)
    if not SAVED_TENSORS_HOOKS or _wrapped_number(tensor):  # (a number is not the learner's)
        return saved_tensor(tensor, data, is_output)
    return PackedTensor(tensor, data, is_output)


def _wrapped_number(tensor) -> bool:
    """A Python number wrapped as a tensor (``rules.promotion``: 0-dim, read-only)."""
    data = tensor._data
    return data.ndim == 0 and not data.flags.writeable and not tensor._requires_grad \
        and tensor._base is None


# The pairs (pack, unpack) of saved_tensors_hooks blocks, innermost last; a str is
# the error of a disable_saved_tensors_hooks block.
SAVED_TENSORS_HOOKS: list = []


class PackedTensor:
    """A saved tensor that a pack hook replaced: ``unpack`` gives it back when backward
    (or ``node._saved_self``) reads it. As in PyTorch, the version counter is not
    checked (the hooks may have copied the tensor anywhere), and the result is
    attached where the saved tensor was in the graph."""

    __slots__ = ("packed", "unpack_hook", "dtype", "output_nr", "grad_fn", "leaf")

    def __init__(self, tensor, data, is_output: bool, hooks=None) -> None:
        hooks = SAVED_TENSORS_HOOKS[-1] if hooks is None else hooks
        if isinstance(hooks, str):  # (inside disable_saved_tensors_hooks)
            raise RuntimeError(hooks)
        pack, self.unpack_hook = hooks
        version = tensor._version_counter.value
        with grad_mode.no_grad():  # (as PyTorch runs it)
            self.packed = pack(tensor)
        if tensor._version_counter.value != version:
            raise RuntimeError(errors.PACK_HOOK_INPLACE)
        self.dtype, self.output_nr = data.dtype, tensor._output_nr
        # (an output's node is the saving node itself: given to ``unpack``)
        self.grad_fn = None if is_output else tensor.grad_fn
        self.leaf = tensor if tensor.grad_fn is None and tensor.requires_grad else None

    def unpack(self, node):
        """The tensor ``unpack_hook`` returns, as a Tensor in the saved one's place."""
        value = self.unpack_hook(self.packed)
        if not isinstance(value, TensorBase):
            raise TypeError(errors.UNPACK_HOOK_RESULT.format(type(value).__name__))
        if self.leaf is not None:  # (its gradient goes to the leaf's AccumulateGrad)
            if value is self.leaf:
                return value
            tensor = make(value._data)
            tensor._requires_grad, tensor._accumulator = True, self.leaf._accumulator
            return tensor
        grad_fn = node if self.grad_fn is None else self.grad_fn
        return make(value._data, grad_fn=grad_fn, output_nr=self.output_nr)

    def array(self, node):
        """What a formula on arrays reads: the unpacked data, in the dtype forward used."""
        data = self.unpack(node)._data
        return data if data.dtype == self.dtype else data.astype(self.dtype)


class RawSavedTensor:
    """``node._raw_saved_<name>`` (PyTorch's ``torch._C._autograd.SavedTensor``): a saved
    tensor's own hooks. ``register_hooks(pack_hook, unpack_hook)`` packs it at once (a
    detached tensor, grad mode off) and unpacks it each time backward or
    ``node._saved_<name>`` reads it, as a ``saved_tensors_hooks`` block would have; one
    pair only, and not once backward freed it (PyTorch's errors)."""

    __slots__ = ("node", "name")

    def __init__(self, node, name: str) -> None:
        self.node, self.name = node, name

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        value = self.node._saved[self.name]
        if value is FREED:
            raise RuntimeError(errors.SAVED_HOOKS_FREED)
        if isinstance(value, PackedTensor):
            raise RuntimeError(errors.SAVED_HOOKS_SET)
        tensor, is_output = value.unpack(self.node), value.tensor is None
        hooks = (lambda t: pack_hook(t.detach()), unpack_hook)
        self.node._saved[self.name] = PackedTensor(tensor, value.data, is_output, hooks)


def tensor_handle(node, name: str):
    """``node._raw_saved_<name>``: a handle of the saved tensor (None for a value that is
    not a tensor, or not saved)."""
    value = node._saved.get(name)
    if value is FREED or isinstance(value, (SavedTensor, PackedTensor)):
        return RawSavedTensor(node, name)
    return None


def saved_names(node) -> set:
    """What ``dir(node)`` lists of its saved values, as torch: ``_saved_<name>`` for each
    (a name starting with "_" is a part kept for backward, not listed), and
    ``_raw_saved_<name>`` for each saved tensor."""
    names = [name for name in node._saved if not name.startswith("_")]
    return {"_saved_" + name for name in names} | {
        "_raw_saved_" + name for name in names if tensor_handle(node, name) is not None}


class RawSavedValue(SavedValue):
    """``node._raw_saved_<name>``: the handle of a saved tensor (``RawSavedTensor``); a
    value that is not a tensor has none, as in PyTorch."""

    __slots__ = ()

    def __init__(self, name: str) -> None:
        self.name, self.attr = name, "_raw_saved_" + name

    def __get__(self, node, cls=None):
        if node is None:
            return self
        handle = tensor_handle(node, self.name)
        if handle is None:
            raise AttributeError(f"{type(node).__name__!r} object has no attribute {self.attr!r}")
        return handle


COMPANIONS.append(("_raw_saved_", RawSavedValue))
