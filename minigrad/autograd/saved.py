"""What a node keeps for its backward, and how its formula reads it.

A node class says what its backward needs in one place, its ``saves``:

    saves = {"self": Input(0), "other": Input(1), "result": RESULT, "alpha": Param(1)}

``Input(k)`` is forward's input at position ``k`` (``Input(1, for_grad_of=0)``: kept
only when input 0 needs a gradient, else None, as in PyTorch); ``RESULT`` is the
output; ``Param(default)`` is forward's keyword argument of that name. Anything
forward computes (a mask, a shape) is kept with ``self.save(mask=mask)``. Every saved
value is readable as ``node._saved_<name>``, as PyTorch shows it.

A formula reads them from its second argument, ``saved``: ``backward(self, saved,
grad)`` returns ``grad * saved.other``. ``Node`` makes that ``Saved`` object for the
call (``Node._values_for_formula``), holding arrays (a plain ``backward()``) or Tensors
(``create_graph=True``), after checking that no saved tensor was changed in place since
(its version counter). The values are kept when the op is recorded: ``saves``'s by
``record.apply_to_arrays``, ``RESULT`` by ``Node._link``, ``save()``'s by ``Node.save``.
"""

from __future__ import annotations

import re

from .. import errors
from . import anomaly, inference
from ..dtypes import DTYPE_OF, LEGACY_NAMES
from .tensor_base import Version, make

__all__ = ["Input", "Param", "RESULT", "SavedTensor", "Saved", "FREED", "saved_tensor",
           "forward_name", "SavedValue", "show_saved", "reads_saved", "COMPANIONS"]


class Input:
    """In ``saves``: forward's input at ``position``; with ``for_grad_of``, kept only
    when the input at that position needs a gradient (``MulBackward0`` keeps
    ``other`` for ``self``'s gradient only)."""

    __slots__ = ("position", "for_grad_of")

    def __init__(self, position: int, *, for_grad_of: int | None = None) -> None:
        self.position, self.for_grad_of = position, for_grad_of


class Param:
    """In ``saves``: forward's keyword argument of that name (``default``: the value
    kept when the call gives none)."""

    __slots__ = ("default",)

    def __init__(self, default=None) -> None:
        self.default = default


RESULT = "the output"  # in ``saves``: the node's output


class Saved:
    """The values a node saved, as its formula reads them: ``saved.other``."""

    def __init__(self, values: dict) -> None:
        self.__dict__ = values

    def __repr__(self) -> str:
        return f"Saved({', '.join(sorted(vars(self)))})"


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An output of the node itself is kept as its data only (not the Tensor),
    so that node -> output -> node is not a reference cycle; unpacking
    rebuilds a Tensor whose ``grad_fn`` is the node, as PyTorch does.
    """

    __slots__ = ("tensor", "data", "version", "saved_version", "output_nr", "view_grad_fn",
                 "had_grad_fn")

    def __new__(cls, tensor, *, is_output: bool = False, array=None):
        # ``data``: the array backward formulas read on arrays: the one forward
        # computed with (an input converted to the result dtype, as torch computes).
        # Made in a forward, it is checked by Node.save, which keeps it only when the
        # op is recorded (an inference tensor is fine in an op nothing records).
        return saved_tensor(tensor, tensor._data if array is None else array, is_output,
                            checked=False)

    def unpack(self, node):
        if self.had_grad_fn and self.tensor._grad_fn is None:  # (a saved input, detach_()ed)
            raise RuntimeError(errors.SAVED_DETACHED_IN_PLACE)
        if self.version.value != self.saved_version:
            tensor = self.tensor
            data = self.data if tensor is None else tensor._data
            # Like PyTorch: a saved output names the node that saved it; a saved
            # input names the op that produced its present value.
            producer = node if tensor is None else tensor.grad_fn
            if self.view_grad_fn is not None and self.view_grad_fn() is not None:
                producer = self.view_grad_fn()
            output_nr = self.output_nr if tensor is None else tensor._output_nr
            raise errors.modified_by_inplace(
                LEGACY_NAMES[DTYPE_OF[data.dtype]], data.shape,
                forward_name(producer) if producer is not None else None,
                output_nr, self.version.value, self.saved_version, anomaly.enabled,
            )
        if self.tensor is not None:
            return self.tensor
        if self.view_grad_fn is not None and self.view_grad_fn() is not None:
            node = self.view_grad_fn()
        return make(self.data, grad_fn=node, output_nr=self.output_nr, version=self.version)


def check_savable(tensor) -> None:
    """PyTorch's error for saving a tensor made in inference mode for backward."""
    if inference.inference_tensors and inference.is_inference(tensor):
        raise RuntimeError(errors.INFERENCE_SAVED)


def saved_tensor(tensor, data, is_output: bool = False, checked: bool = True) -> SavedTensor:
    """A new ``SavedTensor`` of ``tensor`` (the one place one is made; a plain
    function, no ``__init__``, as this runs for each tensor a recorded op saves).

    An output of the node itself is kept as its data only (``is_output``);
    ``data`` is the array formulas on arrays read. ``checked=False`` leaves the
    inference-tensor check to the caller (Node.save)."""
    if checked and inference.inference_tensors:  # (check_savable, inline: it runs per save)
        check_savable(tensor)
    saved = _new_object(SavedTensor)
    version = tensor._version_cell
    if version is None:  # (made on first use, as Tensor._version_counter makes it)
        version = tensor._version_cell = _new_object(Version)
        version.value = 0
    saved.version, saved.saved_version = version, version.value
    saved.tensor = None if is_output else tensor
    saved.had_grad_fn = not is_output and tensor._grad_fn is not None  # (not a leaf then)
    saved.data, saved.output_nr = data, tensor._output_nr
    # (the output of an in-place op on a view: a weak reference to the view's
    # node, which names the output while something else keeps it alive, as in torch)
    saved.view_grad_fn = None
    return saved


FREED = object()  # what a saved tensor becomes once backward released it


_BACKWARD_SUFFIX = re.compile(r"Backward(\d*)$")


def forward_name(node) -> str:
    """The forward op, as 2.13's errors name it: ``ExpBackward0`` -> ``Exp``,
    ``MaxBackward1`` -> ``Max1``, ``FillBackward2`` -> ``Fill2``;
    ``torch::autograd::CopySlices`` as it is."""
    name = node.name()
    match = _BACKWARD_SUFFIX.search(name)
    if match is None:
        return name
    overload = match.group(1)
    return name[:match.start()] + ("" if overload == "0" else overload)


_new_object = object.__new__


class SavedValue:
    """``node._saved_<name>``: the value a node saved as ``name``, unpacked (a saved
    tensor as a Tensor, checked against in-place changes), as PyTorch's nodes show them.
    Formulas never read these (they read ``saved.name``, see ``Saved``): they are what a
    learner or a PyTorch program inspects. One per name, on ``Node`` (``show_saved``);
    on a node that saved no such value, an AttributeError, as in PyTorch.

    (A property per name rather than ``Node.__getattr__``: a class with ``__getattr__``
    makes CPython take its slow path for every attribute read on every node: about 5 %
    of a small op's backward and 3 % of its forward, counted with callgrind.)"""

    __slots__ = ("name", "attr")

    def __init__(self, name: str) -> None:
        self.name, self.attr = name, "_saved_" + name

    def __get__(self, node, cls=None):
        if node is None:
            return self
        saved = node._saved
        if self.name not in saved:
            raise AttributeError(f"{type(node).__name__!r} object has no attribute {self.attr!r}")
        return node._unpack(saved[self.name])


# Readers shown beside ``_saved_<name>``, as (prefix, class): packing.py adds
# ``_raw_saved_<name>``, a saved tensor's own hooks (it knows the packed tensors).
COMPANIONS: list = []


def show_saved(root: type, name: str) -> None:
    """Make ``node._saved_<name>`` (and its ``COMPANIONS``) readable on every node
    (properties on ``root``, ``Node``; once per name): for each name a class's ``saves``
    declares, and each name ``forward`` keeps with ``save()``."""
    if name not in _SHOWN:
        _SHOWN.add(name)
        setattr(root, "_saved_" + name, SavedValue(name))
        for prefix, reader in COMPANIONS:
            setattr(root, prefix + name, reader(name))


_SHOWN: set = set()


def reads_saved(cls, name: str) -> bool:
    """Whether ``cls.<name>`` is a ``SavedValue`` (or a companion of one: all are
    subclasses) and not a class's own attribute."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return isinstance(klass.__dict__[name], SavedValue)
    return False
