"""Graph nodes: what ``tensor.grad_fn`` points to.

Every differentiable operation is a subclass of ``Node`` named as PyTorch
names it (``MulBackward0``) with two methods side by side:

* ``forward(*arrays, **params)`` computes the result with NumPy and says
  what backward will need: ``self.save_inputs(self=0, other=1)`` (input
  tensors, by position), ``self.save_result()`` (the output) and
  ``self.save(dim=dim, mask=mask)`` (constants: numbers, shapes, arrays made
  in forward);
* ``backward(grad)`` receives the gradient of the loss with respect to the
  result (a Tensor) and returns one gradient per input, written with tensor
  operations so that backward can itself be differentiated
  (``create_graph=True``).

``Node.apply`` runs the forward and, when any input requires grad and grad
mode is on, links the node into the graph: ``next_functions`` holds one
``(node, input_nr)`` edge per input, ``(None, 0)`` for inputs that need no
gradient, and an ``AccumulateGrad`` node for leaves.

Saved values are kept by name (``_saved_self``, ``_saved_other``,
``_saved_result``, ...), as PyTorch shows them. Which saved value is which
input is said by position, never guessed from the arrays: ``x * x.detach()``
passes one array twice, and only input 0 is in the graph. Saved tensors remember the
version of the tensor when saved, so a later in-place change is caught at
backward, and they are freed after backward unless ``retain_graph=True``.
"""

from __future__ import annotations

import itertools
import operator
import re
import weakref

import numpy as np

from .. import errors
from ..dtypes import DTYPE_OF, LEGACY_NAMES
from . import grad_mode
from .broadcast import is_expandable_to, sum_to
from .formula import FORMULAS
from . import tensor_base
from .tensor_base import TensorBase, Version, make
from ..kernels.float_errors import restore as restore_float_errors, silence as silence_float_errors

__all__ = ["Node", "AccumulateGrad", "SavedTensor", "Input"]

_sequence = itertools.count()  # creation order; the engine runs newest first
_LEAF_SEQUENCE = float("inf")  # AccumulateGrad runs as soon as it is ready
_BACKWARD_SUFFIX = re.compile(r"Backward(\d*)$")


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An output of the node itself is kept as its data only (not the Tensor),
    so that node -> output -> node is not a reference cycle; unpacking
    rebuilds a Tensor whose ``grad_fn`` is the node, as PyTorch does.
    """

    __slots__ = ("tensor", "data", "version", "saved_version", "output_nr", "view_grad_fn")

    def __new__(cls, tensor, *, is_output: bool = False, array=None):
        # ``data``: the array backward formulas read on arrays: the one forward
        # computed with (an input converted to the result dtype, as torch computes).
        return _saved_tensor(tensor, tensor._data if array is None else array, is_output)

    def unpack(self, node: "Node"):
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
                output_nr, self.version.value, self.saved_version,
            )
        if self.tensor is not None:
            return self.tensor
        if self.view_grad_fn is not None and self.view_grad_fn() is not None:
            node = self.view_grad_fn()
        return make(self.data, grad_fn=node, output_nr=self.output_nr, version=self.version)


def _saved_tensor(tensor, data, is_output: bool = False) -> SavedTensor:
    """A new ``SavedTensor`` of ``tensor`` (the one place one is made; a plain
    function, no ``__init__``, as this runs for each tensor a recorded op saves).

    An output of the node itself is kept as its data only (``is_output``);
    ``data`` is the array formulas on arrays read."""
    saved = _new_object(SavedTensor)
    version = tensor._version_cell
    if version is None:  # (made on first use, as Tensor._version_counter makes it)
        version = tensor._version_cell = _new_object(Version)
        version.value = 0
    saved.version, saved.saved_version = version, version.value
    saved.tensor = None if is_output else tensor
    saved.data, saved.output_nr = data, tensor._output_nr
    # (the output of an in-place op on a view: a weak reference to the view's
    # node, which names the output while something else keeps it alive, as in torch)
    saved.view_grad_fn = None
    return saved


_FREED = object()  # marks a saved tensor released after backward


class _SavedValue:
    """``node._saved_<name>``: the value a node saved as ``name``, unpacked (a
    saved tensor comes back as a Tensor, checked against in-place changes), as
    the properties of torch's generated node classes.

    One per name, on ``Node``, made when a node first saves that name (see
    ``_expose``); reading it on a node that saved no such value is an
    AttributeError. It is a non-data descriptor, so that while a formula runs
    (``Node._run``, ``_run_on_arrays``) the node's own attributes, holding the
    values in the form the formula reads, come first."""

    __slots__ = ("name", "attr")

    def __init__(self, name: str) -> None:
        self.name, self.attr = name, "_saved_" + name

    def __get__(self, node, cls=None):
        if node is None:
            return self
        try:
            value = node._saved[self.name]
        except KeyError:
            raise AttributeError(
                f"{type(node).__name__!r} object has no attribute {self.attr!r}") from None
        return node._unpack(value)


def _expose(name: str) -> None:
    """Make ``_saved_<name>`` readable on nodes (once per name)."""
    attr = _EXPOSED[name] = "_saved_" + name
    if attr not in Node.__dict__:
        setattr(Node, attr, _SavedValue(name))


_EXPOSED: dict = {}  # the saved names nodes can be asked for -> "_saved_<name>"


def forward_name(node: "Node") -> str:
    """The forward op, as 2.13's errors name it: ``ExpBackward0`` -> ``Exp``,
    ``MaxBackward1`` -> ``Max1``, ``FillBackward2`` -> ``Fill2``;
    ``torch::autograd::CopySlices`` as it is."""
    name = node.name()
    match = _BACKWARD_SUFFIX.search(name)
    if match is None:
        return name
    overload = match.group(1)
    return name[:match.start()] + ("" if overload == "0" else overload)


class Input:
    """In ``Node.saved_inputs``: forward's input at ``position``, kept only when
    the input at ``for_grad_of`` needs a gradient (``MulBackward0`` keeps
    ``other`` for ``self``'s gradient only)."""

    __slots__ = ("position", "for_grad_of")

    def __init__(self, position: int, *, for_grad_of: int) -> None:
        self.position, self.for_grad_of = position, for_grad_of


class Node:
    """Base class of every backward node (``grad_fn``)."""

    is_view = False  # True for ops whose result shares memory with input 0
    # True: ``backward`` is written with operators and ``ops.fn`` functions, so it
    # runs on NumPy arrays as well as on Tensors (see ``_run_on_arrays``).
    formula_on_arrays = True

    formula = None  # a Formula: what the op computes and its local derivatives

    # True: on arrays, ``backward`` may write its result into the gradient it
    # received when ``self._grad_is_free`` says so (a new array that only the walk
    # holds: see engine._walk), instead of into a new full-size buffer.
    writes_into_grad = False
    _grad_is_free = False  # (True only for such a call)

    # True: when every input that needs a gradient has the output's shape and
    # dtype, with at least one dimension, each gradient ``backward`` returns has
    # them too (on arrays an ndarray, not a NumPy scalar), so it needs no check
    # (see ``apply_to_arrays``'s ``same``; the gradient it received has them).
    elementwise = False

    # False: ``forward``'s NumPy calls raise no floating-point error for any input
    # (``np.tanh``), so it runs without silencing them (see float_errors.py).
    float_errors = True

    # What backward reads, said next to the formula (kept by ``apply_to_arrays``
    # when the node is recorded; ``forward`` calls nothing for it):
    # ``saved_inputs``: ``_saved_<name>`` is forward's input at a position,
    # ``{"self": 0}``, or ``Input(1, for_grad_of=0)`` to keep it only when that
    # other input needs a gradient (else None, as in torch);
    # ``saves_result``: ``_saved_result`` is the output;
    # ``saved_params``: ``_saved_<name>`` is forward's keyword argument ``name``,
    # ``{"alpha": 1}`` (its default: the value kept when the call gives none).
    saved_inputs: dict = {}
    saves_result = False
    saved_params: dict = {}
    _input_saves: tuple = ()  # saved_inputs as (name, position, for_grad_of) triples

    def __init_subclass__(cls, **kwargs) -> None:
        """A class with a ``formula`` gets its docstring from it and is listed
        in ``FORMULAS`` under its name (so is a subclass that inherits one)."""
        super().__init_subclass__(**kwargs)
        if cls.formula is not None:
            FORMULAS[cls.__name__] = cls.formula
            if "formula" in cls.__dict__:
                cls.__doc__ = cls.formula.docstring()
        if "saved_inputs" in cls.__dict__:
            cls._input_saves = tuple(
                (name, spec, None) if type(spec) is int else (name, spec.position, spec.for_grad_of)
                for name, spec in cls.saved_inputs.items())
            for name in cls.saved_inputs:
                _expose(name)
        for name in cls.__dict__.get("saved_params", ()):
            _expose(name)

    __slots__ = (
        "next_functions", "needs_input_grad", "_sequence_nr", "_saved", "_forward_args",
        "_input_meta", "_tensor_pre_hooks", "_retains_grad", "__weakref__", "__dict__",
    )

    def __init__(self) -> None:
        self.next_functions: tuple = ()
        self._saved: dict = {}
        self._forward_args = None  # (see apply)
        self._tensor_pre_hooks: dict | None = None  # output_nr -> [hook]
        self._retains_grad: dict | None = None  # output_nr -> weakref(tensor)

    # ---- building the graph -------------------------------------------------

    @classmethod
    def apply(cls, *inputs, cast_to=None, **params):
        """Run ``forward`` on ``inputs`` (Tensors or Python numbers) and, when
        needed, record this node as the result's ``grad_fn``.

        ``cast_to`` is the result dtype (from the promotion rules); tensor
        inputs of another dtype are converted before the NumPy call (None: no
        conversion, the inputs have the result dtype).
        """
        # The NumPy values forward receives (see _as_arrays; the usual case inline)
        if cast_to is None:
            try:
                arrays = list(map(_DATA_OF, inputs))  # (no Python frame per op)
            except AttributeError:  # a Python number among the inputs
                arrays = _as_arrays(inputs, None)
        else:
            arrays = _as_arrays(inputs, cast_to)
        return apply_to_arrays(cls, inputs, arrays, params)

    def _link(self, inputs, output, same: bool = False) -> None:
        """Connect this node to its inputs' nodes (and keep ``output`` if
        forward saved it). ``same``: the node is ``elementwise`` and every input
        that needs a gradient has the output's shape and dtype: its gradients need
        no check, and ``_input_meta`` is None (see ``keep_input_meta``)."""
        self._sequence_nr = next(_sequence)
        self._tensor_pre_hooks = self._retains_grad = None
        edges = needs = meta = ()
        for x in inputs:
            if isinstance(x, TensorBase) and x._requires_grad:
                producer = x._grad_fn if x._view_version is None else x.grad_fn
                if producer is None:  # a leaf: its AccumulateGrad
                    accumulator = x._accumulator
                    accumulator = None if accumulator is None else accumulator()
                    edges += (x._gradient_edge() if accumulator is None else (accumulator, 0)),
                else:
                    edges += (producer, x._output_nr),
                needs += True,
                if not same:
                    data = x._data
                    meta += (data.shape, data.dtype),
            else:
                if isinstance(x, TensorBase) and x._view_version is not None:
                    x.grad_fn  # noqa: B018 (as torch: a changed view's node is rebuilt, or refused)
                edges += _NO_EDGE,
                needs += False,
                meta += None,
        self.next_functions = edges
        # (one shared tuple per pattern: most nodes have one or two inputs)
        self.needs_input_grad = _NEEDS.get(needs, needs)
        self._input_meta = None if same else meta
        saved = self._saved
        if self.saves_result or saved.get("result") is _RESULT:
            saved["result"] = _saved_tensor(output, output._data, is_output=True)

    def keep_input_meta(self, like) -> tuple:
        """``_input_meta``, made now for a node that ``_link`` gave none (``same``),
        from ``like``, an array of its output's shape and dtype (its inputs'), before
        that output changes shape (``Tensor._replace_data``: ``y.data = ...``, a
        resized ``out=``, ``y.t_()`` under no_grad) or another node takes over the
        meta (``CopySlices.of``)."""
        if self._input_meta is None:
            meta = (like.shape, like.dtype)
            self._input_meta = tuple([meta if needs else None for needs in self.needs_input_grad])
        return self._input_meta

    # (The first argument is ``node``, not ``self``: ``self`` is a saved name.)
    def save(node, **values) -> None:  # noqa: N805
        """Keep constants for backward, by the names PyTorch uses
        (``self.save(dim=dim)``; readable later as ``_saved_dim``). A NumPy
        array made in forward (a mask, indices) is kept as a constant tensor."""
        if node._forward_args is False:  # nothing is being recorded
            return
        saved = node._saved
        for name, value in values.items():
            if name not in _EXPOSED:
                _expose(name)
            saved[name] = SavedTensor(make(value)) \
                if isinstance(value, np.ndarray) else value

    def input_requires_grad(node, position: int) -> bool:  # noqa: N805
        """Whether ``forward``'s input at ``position`` requires grad, so that its
        gradient will be asked for (False when nothing is being recorded): for a
        constant that only that gradient needs (``_saved_self_sym_strides`` of
        ``MmBackward0``)."""
        args = node._forward_args
        return args is not False and getattr(args[0][position], "_requires_grad", False)

    def save_inputs(node, for_grad_of=None, **positions: int) -> None:  # noqa: N805
        """Keep input tensors for backward, each named by its position in
        ``forward``'s arguments: ``self.save_inputs(self=0, other=1)``. They
        stay connected to the graph (for double backward). The position says
        which input it is, never the array: ``x * x.detach()`` passes one
        array twice, and only input 0 is in the graph.

        ``for_grad_of``: the input position(s) whose gradient needs them; when
        none of those requires grad, nothing is kept and the saved value reads
        None, as in PyTorch (``(x * c).grad_fn._saved_self`` is None for a
        constant ``c``)."""
        args = node._forward_args
        if args is False:  # nothing is being recorded
            return
        inputs, arrays = args
        saved = node._saved
        if for_grad_of is not None:
            if type(for_grad_of) is int:
                needed = getattr(inputs[for_grad_of], "_requires_grad", False)
            else:
                needed = any(getattr(inputs[k], "_requires_grad", False) for k in for_grad_of)
            if not needed:
                for name in positions:
                    if name not in _EXPOSED:
                        _expose(name)
                    saved[name] = None
                return
        for name, position in positions.items():
            if name not in _EXPOSED:
                _expose(name)
            x = inputs[position]
            if not isinstance(x, TensorBase):
                saved[name] = x
                continue
            # formulas on arrays read the array forward computed with (the input
            # converted to the result dtype, as torch computes)
            saved[name] = _saved_tensor(x, arrays[position])

    def save_result(self) -> None:
        """Keep the output for backward, as ``_saved_result``."""
        if self._forward_args is not False:
            self._saved["result"] = _RESULT

    # ---- reading the graph --------------------------------------------------

    def name(self) -> str:
        """The node's name, e.g. ``"MulBackward0"``."""
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def __dir__(self):
        # As torch lists them: the saved names of this node, not the dict that
        # holds them nor the readers of names other nodes save; a name starting
        # with "_" is a part kept for backward (an index array that
        # ``_saved_indices`` shows), not listed.
        cls = type(self)
        names = {name for name in super().__dir__()
                 if name != "_saved" and not isinstance(getattr(cls, name, None), _SavedValue)}
        return sorted(names | {f"_saved_{k}" for k in self._saved if not k.startswith("_")})

    def _unpack(self, value):
        if value is _FREED:
            raise RuntimeError(errors.BACKWARD_TWICE)
        if isinstance(value, SavedTensor):
            return value.unpack(self)
        return value

    def saved_values(self) -> dict:
        """Everything saved for backward, by name (tensors unpacked), as
        ``dir(node)`` lists it (``indices`` for ``_saved_indices``)."""
        return {attr[7:]: getattr(self, attr) for attr in dir(self) if attr.startswith("_saved_")}

    @property
    def metadata(self) -> dict:
        if "_metadata" not in self.__dict__:
            self.__dict__["_metadata"] = {}
        return self.__dict__["_metadata"]

    # ---- running backward ---------------------------------------------------

    def __call__(self, *grad_outputs):
        """Apply this node's backward to ``grad_outputs``: one gradient per input,
        as a tuple, or the gradient itself for a node with one input (as torch)."""
        grads = self._run(grad_outputs)
        return grads[0] if len(grads) == 1 else grads

    def _run(self, grad_outputs: tuple) -> tuple:
        if self.formula_on_arrays:  # a built-in formula: numbers in it are C++ Scalars
            # As in torch, every saved value is unpacked before the formula runs,
            # so a freed graph or an in-place change fails even where this call
            # would not read the value; the formula reads them as attributes
            # set for the call (as ``_run_on_arrays`` does with arrays).
            own = self.__dict__
            attributes = own.copy() if own else {}
            for name, value in self._saved.items():
                if type(value) is SavedTensor and value.version.value != value.saved_version:
                    self._raise_modified()
                attributes[_EXPOSED[name]] = self._unpack(value)
            previous = grad_mode._in_formula
            grad_mode._in_formula = True
            self.__dict__ = attributes
            try:
                grads = self.backward(*grad_outputs)
            finally:
                self.__dict__ = own
                grad_mode._in_formula = previous
        else:
            self._check_saved()
            grads = self.backward(*grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        if len(grads) != len(self.next_functions):
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {len(self.next_functions)}, got {len(grads)})"
            )
        return tuple([self._validate(index, grad) for index, grad in enumerate(grads)])

    def _check_saved(self) -> None:
        """As in torch, every saved value is unpacked before the formula runs, so
        a freed graph or an in-place change fails even where this call would
        not read the value."""
        for value in self._saved.values():
            if value is _FREED:
                self._unpack(value)  # raises
            if type(value) is SavedTensor and value.version.value != value.saved_version:
                self._raise_modified()

    def _raise_modified(self) -> None:
        """The in-place modification error for the saved tensor torch names when
        several were changed: torch's generated nodes unpack their saved inputs,
        then their saved outputs, each group in the order of the names."""
        changed = [(value.tensor is None, name, value) for name, value in self._saved.items()
                   if type(value) is SavedTensor and value.version.value != value.saved_version]
        self._unpack(min(changed, key=lambda item: item[:2])[2])  # raises

    def _run_on_arrays(self, grad_outputs: tuple, release: bool = False,
                       grad_is_free: bool = False) -> tuple:
        """``backward`` on NumPy arrays (backward without ``create_graph``): the
        gradients and the saved values (``self._saved_...``) are arrays, so the
        formula records nothing. Nodes whose formula needs Tensors (custom
        Functions) get Tensors, with grad mode off, and hand back arrays.
        ``release``: free the saved tensors once the formula has run (as
        ``release_saved``; backward without ``retain_graph``). ``grad_is_free``:
        the one gradient received is a new array that only the walk holds, which
        the formula may write into (``self._grad_is_free``; see ``writes_into_grad``).

        Returns one gradient per edge, each of its input's shape and dtype; a
        gradient along an edge to no node (an input that needs none) is left
        unchecked, as nothing is sent along it."""
        if not self.formula_on_arrays:
            previous = grad_mode._enabled
            grad_mode._set_enabled(False)
            try:
                grads = self._run(tuple(None if g is None else make(g)
                                        for g in grad_outputs))
            finally:
                grad_mode._set_enabled(previous)
            if release:
                self.release_saved()
            return tuple(None if g is None else g._data for g in grads)
        # The formula reads ``self._saved_x`` as the array forward used: for the
        # call, the node's own attributes hold them (they come before the
        # ``_SavedValue`` readers on Node), and are emptied afterwards; a node
        # with attributes of its own gets a copy of them for the call instead.
        # As in torch, every saved value is checked before the formula runs.
        saved = self._saved
        own = self.__dict__
        attributes = own.copy() if own else own
        try:
            for name, value in saved.items():
                if type(value) is SavedTensor:
                    if value.version.value != value.saved_version:
                        self._raise_modified()
                    value = value.data
                elif value is _FREED:
                    raise RuntimeError(errors.BACKWARD_TWICE)
                attributes[_EXPOSED[name]] = value
            if grad_is_free:
                attributes["_grad_is_free"] = True
            if attributes is own:
                grads = self.backward(*grad_outputs)
            else:
                self.__dict__ = attributes
                try:
                    grads = self.backward(*grad_outputs)
                finally:
                    self.__dict__ = own
        finally:
            if attributes is own:
                own.clear()
        if type(grads) is not tuple:
            grads = (grads,)
        if len(grads) != len(self.next_functions):
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {len(self.next_functions)}, got {len(grads)})"
            )
        if self._input_meta is not None:  # (None: already as the inputs, see _link)
            for grad, meta in zip(grads, self._input_meta):
                if grad is not None and meta is not None and not (
                        type(grad) is np.ndarray and grad.dtype is meta[1] and grad.shape == meta[0]):
                    # (broadcast, another dtype or a NumPy scalar: undone one by one)
                    grads = tuple([None if grad is None or meta is None
                                   else self._validate_array(index, grad, meta)
                                   for index, (grad, meta) in enumerate(zip(grads, self._input_meta))])
                    break
        if release:
            if type(self).release_saved is _release_saved:
                for name, value in saved.items():  # (release_saved, inline)
                    if type(value) is SavedTensor:
                        saved[name] = _FREED
            else:
                self.release_saved()
        return grads  # (usually every gradient as the formula made it: already as its input)

    def _validate_array(self, index: int, grad, meta):
        """``_validate`` for arrays."""
        shape, np_dtype = meta
        if type(grad) is not np.ndarray:
            grad = np.asarray(grad)  # (NumPy gives 0-dim results as scalars)
        if grad.shape != shape:
            if not is_expandable_to(shape, grad.shape):
                raise RuntimeError(
                    f"Function {self.name()} returned an invalid gradient at index "
                    f"{index} - got {list(grad.shape)} but expected shape compatible "
                    f"with {list(shape)}"
                )
            grad = sum_to(grad, shape)
        if grad.dtype != np_dtype:
            grad = grad.astype(np_dtype)
        return grad

    def _validate(self, index: int, grad):
        """Bring a returned gradient to its input's shape (undoing broadcasting)
        and dtype, or fail naming the node."""
        if self._input_meta is None:  # (already as the inputs: see _link)
            return grad if self.needs_input_grad[index] else None
        meta = self._input_meta[index]
        if grad is None or meta is None:
            return None
        shape, np_dtype = meta
        if grad._data.shape != shape:
            if not is_expandable_to(shape, grad.shape):
                raise RuntimeError(
                    f"Function {self.name()} returned an invalid gradient at index "
                    f"{index} - got {list(grad.shape)} but expected shape compatible "
                    f"with {list(shape)}"
                )
            grad = sum_to(grad, shape)
        if grad._data.dtype != np_dtype:
            grad = grad.to(DTYPE_OF[np_dtype])
        return grad

    def backward(self, *grad_outputs):
        raise NotImplementedError(f"{self.name()} does not implement backward")

    def release_saved(self) -> None:
        """Free saved tensors (after a backward without ``retain_graph``)."""
        saved = self._saved
        for name, value in saved.items():
            if type(value) is SavedTensor:
                saved[name] = _FREED

    # ---- hooks --------------------------------------------------------------

    def _add_tensor_pre_hook(self, output_nr: int, hook) -> None:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        self._tensor_pre_hooks.setdefault(output_nr, []).append(hook)

    def _retain_grad_of(self, tensor) -> None:
        if self._retains_grad is None:
            self._retains_grad = {}
        self._retains_grad[tensor._output_nr] = weakref.ref(tensor)


_release_saved = Node.release_saved


class AccumulateGrad(Node):
    """The end of every path: adds the arriving gradient into ``variable.grad``.

    One per leaf tensor that requires grad; ``variable`` is that leaf.
    """

    __slots__ = ("variable",)

    def __init__(self, variable) -> None:
        super().__init__()
        self.variable = variable
        self._sequence_nr = _LEAF_SEQUENCE
        self.needs_input_grad = ()
        self._input_meta = ()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def backward(self, grad):
        return ()


def apply_to_arrays(cls, inputs, arrays, params: dict, same: bool = False):
    """``cls.apply(*inputs, **params)`` once the NumPy values ``forward``
    receives are known (``arrays``, one per input; see ``_as_arrays``). The
    elementwise ops' usual case comes here directly (``ops.arithmetic._binary``,
    ``ops.pointwise._unary``), saying whether the operands that may need a
    gradient have the result's shape and dtype, with at least one dimension
    (``same``; see ``Node.elementwise``)."""
    # Not __init__: most nodes are never recorded (everything computed under
    # no_grad, inside backward too), so only a recorded node gets the state
    # of a graph node (here and in _link).
    node = _new_object(cls)
    record = False
    if grad_mode._enabled:
        for x in inputs:
            # (``requires_grad`` for a view: its base may have joined the graph
            # by an in-place change since the view was made)
            if isinstance(x, TensorBase) and (x._requires_grad or (
                    x._view_version is not None and x.requires_grad)):
                record = True
                break
    if record:
        # What forward saves goes straight into _saved: the inputs and keyword
        # arguments the class names first (saved_inputs, saved_params), then what
        # forward's save*() calls keep (save_inputs reads the inputs from
        # _forward_args); _link adds the output.
        node._saved = saved = {}
        for name, position, for_grad_of in cls._input_saves:
            x = inputs[position]
            if for_grad_of is not None and not (isinstance(inputs[for_grad_of], TensorBase)
                                                and inputs[for_grad_of]._requires_grad):
                saved[name] = None  # (only for a gradient nobody needs: as torch)
            elif isinstance(x, TensorBase):
                # (the array forward computes with: the input in the result dtype)
                saved[name] = _saved_tensor(x, arrays[position])
            else:
                saved[name] = x
        if cls.saved_params:
            for name, default in cls.saved_params.items():
                saved[name] = params.get(name, default)
        node._forward_args = (inputs, arrays)
    else:
        node._forward_args = False  # save*() keep nothing
    # inf and nan come silently, as in torch (see float_errors.py)
    token = silence_float_errors() if cls.float_errors else None
    try:
        if params:
            result = node.forward(*arrays, **params)
        elif len(arrays) == 2:  # (a plain call: the quickest)
            result = node.forward(arrays[0], arrays[1])
        elif len(arrays) == 1:
            result = node.forward(arrays[0])
        else:
            result = node.forward(*arrays)
    finally:
        if token is not None:
            restore_float_errors(token)
    # A view shares memory, and so the version counter, with its base; it
    # remembers the version its grad_fn describes (see Tensor.grad_fn).
    if cls.is_view:
        base = inputs[0]
        version = base._version_counter
        if base._base is not None:
            base = base._base
        output = make(result, grad_fn=node if record else None,
                                      version=version, base=base)
        output._view_version = version.value
        # How it was made, as torch's creation_meta: a view made under no_grad (or
        # from a view made so, or by a custom Function) may not be changed in place
        # with grad mode on (see ops.inplace.check_inplace).
        output._view_made = "no_grad" if not grad_mode._enabled else (
            inputs[0]._view_made if inputs[0]._view_version is not None else "grad mode")
        if not record:
            return output
    elif not record:
        return make(result)
    else:
        # (make(result, node), inline: this runs once per recorded op)
        if type(result) is not np.ndarray:
            result = np.asarray(result)
        output = _new_object(tensor_base.Tensor)
        output._data = result
        output.dtype = DTYPE_OF[result.dtype]
        output._grad_fn = node
        output._requires_grad = True
        output._output_nr = 0
        output._grad = output._accumulator = output._leaf_hooks = output._view_version = None
        output._version_cell = output._base = None
    node._forward_args = None  # (the inputs are not kept past forward)
    node._link(inputs, output, same and cls.elementwise)
    return output


def _as_arrays(inputs, cast_to) -> list:
    """The NumPy values ``forward`` receives: each tensor's array, converted to
    the result dtype ``cast_to`` if needed; anything else (a number) as it is."""
    if cast_to is None:  # (the usual case: the inputs already have the result dtype)
        return [getattr(value, "_data", value) for value in inputs]
    target = cast_to.numpy
    arrays = []
    for value in inputs:
        data = getattr(value, "_data", None)
        if data is None:
            arrays.append(value)
        elif data.dtype != target:
            arrays.append(_cast(data, target))
        else:
            arrays.append(data)
    return arrays


def _cast(data, target):
    """``data`` converted to the NumPy dtype ``target``. A wrapped Python number
    (a read-only 0-dim constant, as in ``x * 0.5``) is converted once, not per op."""
    if data.ndim or data.flags.writeable or data.base is not None:
        return data.astype(target)
    key = (id(data), target)
    cached = _CASTS.get(key)
    if cached is None or cached[0] is not data:
        if len(_CASTS) >= 64:  # numbers that change every step must not pile up
            del _CASTS[next(iter(_CASTS))]
        cast = data.astype(target)
        cast.flags.writeable = False
        cached = _CASTS[key] = (data, cast)  # (holding ``data`` keeps its id unique)
    return cached[1]


_CASTS: dict = {}


_DATA_OF = operator.attrgetter("_data")  # a Tensor's array
_RESULT = object()  # ``save_result``'s note that the output is saved (known after forward)
_NO_EDGE = (None, 0)  # the edge of an input that needs no gradient
_NEEDS = {needs: needs for needs in [(True,), (True, True), (True, False), (False, True)]}
_new_object = object.__new__


_expose("result")  # (save_result's name; the others are made when first saved)

