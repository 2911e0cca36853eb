"""What a node has beside the graph and the math: how PyTorch's nodes look and fail.

``Node`` (``node.py``) inherits ``NodeFidelity``, as it inherits its hooks
(``hooks.NodeHooks``): how a node shows itself (``repr``, ``dir(node)`` listing its saved
names as PyTorch lists them, ``saved_values()``, ``metadata``) and PyTorch's errors about
what it reads and returns (a freed or in-place-modified saved value, the wrong number of
gradients, a gradient whose shape does not broadcast to its input's). None of it is
needed to follow ``x * y`` to the engine's walk.
"""

from __future__ import annotations

from .. import errors
from .broadcast import is_expandable_to
from .packing import PackedTensor, saved_names
from .saved import FREED, SavedTensor, reads_saved

__all__ = ["NodeFidelity", "counted_gradients"]


class NodeFidelity:
    """The part of ``Node`` that shows a node and words its errors as PyTorch's do."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def __dir__(self):
        # As torch lists them: this node's saved names (not the readers of names other
        # nodes save, see SavedValue; not a part kept for backward, named with "_")
        names = {name for name in super().__dir__()
                 if name != "_saved" and not reads_saved(type(self), name)}
        return sorted(names | saved_names(self))

    def saved_values(self) -> dict:
        """Everything saved for backward, by name (tensors unpacked), as ``dir(node)``
        lists it (``indices`` for ``_saved_indices``)."""
        return {attr[7:]: getattr(self, attr) for attr in dir(self) if attr.startswith("_saved_")}

    @property
    def metadata(self) -> dict:
        """A dict for anyone's notes on this node (anomaly mode keeps the forward
        call's stack in ``metadata["traceback_"]``), as torch's ``Node.metadata``."""
        return self.__dict__.setdefault("_metadata", {})

    def _unpack(self, value):
        """A saved value as ``node._saved_<name>`` shows it (a saved tensor unpacked and
        checked), or PyTorch's error for a graph already freed by a backward."""
        if value is FREED:
            raise RuntimeError(errors.BACKWARD_TWICE)
        if isinstance(value, (SavedTensor, PackedTensor)):
            return value.unpack(self)
        return value

    def _raise_modified(self) -> None:
        """The in-place modification error for the saved tensor torch names when
        several were changed: torch's generated nodes unpack their saved inputs,
        then their saved outputs, each group in the order of the names."""
        changed = [(value.tensor is None, name, value) for name, value in self._saved.items()
                   if type(value) is SavedTensor and value.version.value != value.saved_version]
        self._unpack(min(changed, key=lambda item: item[:2])[2])  # raises

    def _check_expandable(self, index: int, got, expected) -> None:
        """PyTorch's error for a gradient of shape ``got`` that cannot be summed back to
        its input's shape ``expected``, naming the node and the input."""
        if not is_expandable_to(expected, got):
            raise RuntimeError(errors.INVALID_GRADIENT.format(
                name=self.name(), index=index, got=list(got), expected=list(expected)))


def counted_gradients(node, grads, expected: int) -> tuple:
    """A backward's result as a tuple of ``expected`` gradients, else torch's error
    naming ``node`` (built-in nodes and custom Functions alike)."""
    if type(grads) is not tuple:
        grads = (grads,)
    if len(grads) != expected:
        raise RuntimeError(errors.GRADIENT_COUNT.format(name=node.name(), expected=expected,
                                                        got=len(grads)))
    return grads
