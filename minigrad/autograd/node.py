"""Graph nodes: what ``tensor.grad_fn`` points to.

Every differentiable operation is a subclass of ``Node`` named as PyTorch names it,
with its math side by side (in short: ``ops/arithmetic.py`` holds the real one)::

    class MulBackward0(Node):
        formula = Formula("z", "self * other", d={"self": "other", "other": "self"})
        saves = {"self": Input(0, for_grad_of=1), "other": Input(1, for_grad_of=0)}

        def forward(self, a, b):           # NumPy arrays in, the result out
            return multiply(a, b)          # (a kernel: kernels/arithmetic.py)

        def backward(self, saved, grad):   # the chain rule: one gradient per input
            return grad * saved.other, grad * saved.self

- ``formula``: what the op computes and its local derivatives, as data (it writes the
  class's docstring and the stepper's sentences);
- ``saves``: what backward needs (see ``saved.py``); ``forward`` may add values it
  computes with ``self.save(mask=mask)``;
- ``backward(saved, grad)``: receives the gradient of the loss with respect to the
  result and returns one gradient per input. It is written with operators and the
  functions of ``ops/fn.py``, so it runs on NumPy arrays (a plain ``backward()``,
  ``run_formula``) and on Tensors (``create_graph=True``, ``__call__``), where it is
  itself recorded and can be differentiated again.

``Node.apply`` runs forward and, when an input requires grad and grad mode is on,
links the node into the graph (``record.py``): ``next_functions`` holds one
``(node, input_nr)`` edge per input, ``(None, 0)`` for an input that needs no
gradient, and an ``AccumulateGrad`` node for a leaf.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np

from .. import errors
from ..dtypes import DTYPE_OF
from ..kernels.layout import GRADIENT_FIRST, cast_preserved, laid_as_received
from . import anomaly, grad_mode, replaced
from .broadcast import sum_to
from .formula import FORMULAS
from .hooks import NodeHooks
from .node_fidelity import NodeFidelity, counted_gradients
from .record import apply_to_arrays, as_arrays
from .packing import SAVED_TENSORS_HOOKS, PackedTensor, keep
from .saved import (FREED, RESULT, Input, Param, Saved, SavedTensor, check_savable, saved_tensor,
                    show_saved)
from .tensor_base import TensorBase, make

__all__ = ["Node", "AccumulateGrad", "Input", "Param", "RESULT"]

_sequence = itertools.count()  # creation order; the engine runs newest first
_LEAF_SEQUENCE = float("inf")  # AccumulateGrad runs as soon as it is ready


class Node(NodeHooks, NodeFidelity):
    """Base class of every backward node (``grad_fn``). Its hooks (``NodeHooks``) and how it
    shows itself and words its errors as PyTorch's (``NodeFidelity``) are in modules beside
    this one, ``hooks.py`` and ``node_fidelity.py``."""

    formula = None  # a Formula: what the op computes and its local derivatives
    saves: dict = {}  # what backward reads: name -> Input(k) | RESULT | Param(default)
    is_view = False  # True for ops whose result shares memory with input 0

    # True: ``backward`` is written with operators and ``ops.fn`` functions, so it
    # runs on arrays as well as on Tensors (False: a custom Function's, for Tensors).
    formula_on_arrays = True

    # Speed, beside the math. False: ``forward``'s NumPy calls raise no floating-point error
    # for any input (``np.tanh``), so it runs without silencing them (kernels/float_errors.py).
    float_errors = True

    # Speed, beside the math: a kernel that computes ``backward``'s gradients of big
    # arrays in fewer passes, with the same bits (``fused(saved, grad, needs,
    # grad_is_free)``; None where it does not apply, a small array: the formula runs).
    fused_backward = None

    # Layout, beside the math: True for an elementwise formula PyTorch begins with the
    # gradient received (``grad * ...``: kernels.layout.GRADIENT_FIRST), whose gradients
    # its iterator lays out as that gradient (kernels.layout.laid_as_received).
    laid_as_grad = False

    # A node of several differentiable outputs (split, a custom Function): how many, so
    # that its hooks see one gradient per output (None where none came), as in torch.
    _output_count = 0

    _input_saves: tuple = ()  # (name, position, for_grad_of), from ``saves``
    _param_saves: tuple = ()  # (name, default), from ``saves``
    _result_saved = None  # the name the output is saved under (``result``, or PyTorch's own)

    def __init_subclass__(cls, **kwargs) -> None:
        """A class with a ``formula`` gets its docstring from it and is listed in
        ``FORMULAS`` under its name; its ``saves`` is sorted by kind for ``record.py``."""
        super().__init_subclass__(**kwargs)
        if cls.formula is not None:
            FORMULAS[cls.__name__] = cls.formula
            cls.laid_as_grad = cls.__name__ in GRADIENT_FIRST
            if "formula" in cls.__dict__:
                cls.__doc__ = cls.formula.docstring()
        if "saves" in cls.__dict__:
            saves = cls.saves.items()
            cls._input_saves = tuple((name, kind.position, kind.for_grad_of)
                                      for name, kind in saves if type(kind) is Input)
            cls._param_saves = tuple((name, kind.default)
                                      for name, kind in saves if type(kind) is Param)
            cls._result_saved = next((name for name, kind in saves if kind is RESULT), None)
            for name in cls.saves:
                show_saved(Node, name)

    __slots__ = (
        "next_functions", "needs_input_grad", "_sequence_nr", "_saved", "_forward_args",
        "_input_meta", "_tensor_pre_hooks", "_retains_grad", "_node_hooks", "__weakref__",
        "__dict__",
    )

    def __init__(self) -> None:
        self.next_functions: tuple = ()
        self._saved: dict = {}
        self._forward_args = None  # forward's inputs while it runs (see save)
        self._tensor_pre_hooks: dict | None = None  # output_nr -> {handle id: hook}
        self._retains_grad: dict | None = None  # output_nr -> weakref(tensor)
        self._node_hooks: tuple | None = None  # ({id: pre-hook}, {id: post-hook}), hooks.py

    # ---- building the graph -------------------------------------------------

    @classmethod
    def apply(cls, *inputs, cast_to=None, **params):
        """Run ``forward`` on ``inputs`` (Tensors or Python numbers) and, when
        needed, record this node as the result's ``grad_fn``.

        ``cast_to`` is the result dtype (from the promotion rules); tensor inputs of
        another dtype are converted before the NumPy call (None: no conversion)."""
        if cast_to is None:
            try:
                arrays = list(map(_DATA_OF, inputs))  # (the usual case, no Python frame)
            except AttributeError:  # a Python number among the inputs
                arrays = as_arrays(inputs, None)
        else:
            arrays = as_arrays(inputs, cast_to)
        return apply_to_arrays(cls, inputs, arrays, params)

    def _link(self, inputs, output, inputs_match_output: bool = False) -> None:
        """Connect this node to its inputs' nodes (and keep ``output`` if the class
        saves it). ``inputs_match_output``: the op is elementwise (each gradient has its
        input's shape: a diagonal Jacobian) and every input that needs a gradient has the
        output's shape and dtype, with at least one dimension, so its gradients need no
        check, and ``_input_meta`` is None (see ``keep_input_meta``)."""
        self._sequence_nr = next(_sequence)
        self._tensor_pre_hooks = self._retains_grad = self._node_hooks = None
        if anomaly.enabled:  # (keep the forward line, for an error in backward)
            anomaly.record(self)
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
                if not inputs_match_output:
                    data = x._data
                    meta += (data.shape, data.dtype),
            else:
                if isinstance(x, TensorBase) and x._view_version is not None:
                    x.grad_fn  # noqa: B018 (as torch: a changed view's node is rebuilt, or refused)
                edges += _NO_EDGE,
                needs += False,
                meta += None,
        self.next_functions = edges
        self.needs_input_grad = _NEEDS.get(needs, needs)  # (one shared tuple per pattern)
        if inputs_match_output:  # (no gradient to check)
            meta = None
        self._input_meta = replaced.recorded_meta(self, inputs, edges, meta) \
            if replaced.seen else meta  # (seen: a non-leaf's array replaced)
        if self._result_saved:
            self._saved[self._result_saved] = keep(output, output._data, True) \
                if SAVED_TENSORS_HOOKS else saved_tensor(output, output._data, True)  # (is_output)

    def keep_input_meta(self, like) -> tuple:
        """``_input_meta``, made now for a node that ``_link`` gave none
        (``inputs_match_output``), from ``like`` (an array of its output's shape and dtype,
        its inputs'), before that output changes shape (``y.data = ...``, ``out=``,
        ``y.t_()``) or ``ops.inplace.copy_slices`` takes it."""
        if self._input_meta is None:
            meta = (like.shape, like.dtype)
            self._input_meta = tuple([meta if needs else None for needs in self.needs_input_grad])
        return self._input_meta

    # (The first argument is ``node``, not ``self``: ``self`` is a saved name.)
    def save(node, **values) -> None:  # noqa: N805
        """Keep values ``forward`` computed, by the names PyTorch uses
        (``self.save(dim=dim)``; read as ``saved.dim``, shown as ``_saved_dim``). A
        NumPy array made in forward (a mask, indices) is kept as a constant tensor."""
        if node._forward_args is False:  # nothing is being recorded
            return
        for name, value in values.items():
            if isinstance(value, np.ndarray):
                value = make(value)
                value = keep(value, value._data)
            elif type(value) is SavedTensor and value.tensor is not None:
                check_savable(value.tensor)  # (made in forward: checked only when kept)
            show_saved(Node, name)
            node._saved[name] = value

    def input_requires_grad(node, position: int) -> bool:  # noqa: N805
        """Whether ``forward``'s input at ``position`` requires grad (False when
        nothing is recorded): for a value only that input's gradient needs."""
        inputs = node._forward_args
        return inputs is not False and getattr(inputs[position], "_requires_grad", False)

    # ---- reading the graph (how a node shows itself: node_fidelity.py) -------

    def name(self) -> str:
        """The node's name, e.g. ``"MulBackward0"``."""
        return type(self).__name__

    # ---- running backward ---------------------------------------------------

    def __call__(self, *grad_outputs):
        """Apply this node's backward to ``grad_outputs`` (Tensors): one gradient per
        input, as a tuple, or the gradient itself for a node with one input (as torch)."""
        grads = self._run(grad_outputs)
        return grads[0] if len(grads) == 1 else grads

    def _run(self, grad_outputs: tuple) -> tuple:
        """``backward`` on Tensors (``create_graph=True``): the formula is recorded."""
        saved = self._values_for_formula(unpack=True)
        if not self.formula_on_arrays:  # (a custom Function's: the learner's own code)
            grads = self.backward(saved, *grad_outputs)
        else:  # a built-in formula: the numbers in it are C++ Scalars
            previous = grad_mode._in_formula
            grad_mode._in_formula = True
            try:
                grads = self.backward(saved, *grad_outputs)
            finally:
                grad_mode._in_formula = previous
        grads = counted_gradients(self, grads, len(self.next_functions))
        return tuple([self._validate(index, grad) for index, grad in enumerate(grads)])

    def run_formula(self, grad_outputs: tuple, release: bool = False,
                    grad_is_free: bool = False) -> tuple:
        """``backward`` on NumPy arrays (a plain ``backward()``): the gradients and the
        saved values are arrays, so nothing is recorded. A custom Function's formula
        gets Tensors, with grad mode off, and hands back arrays. ``release``: free the
        saved tensors afterwards (backward without ``retain_graph``). ``grad_is_free``:
        the one gradient received is a new array only the walk holds, which a
        ``fused_backward`` may write into.

        Returns one gradient per edge, each of its input's shape and dtype."""
        if not self.formula_on_arrays:
            with grad_mode.no_grad():
                grads = self._run(tuple(None if g is None else make(g) for g in grad_outputs))
            grads = tuple(None if g is None else g._data for g in grads)
        else:
            saved = self._values_for_formula(unpack=False)
            grads = None
            if self.fused_backward is not None:
                grads = self.fused_backward(saved, *grad_outputs, self.needs_input_grad,
                                            grad_is_free)
            if grads is None:
                grads = self.backward(saved, *grad_outputs)
            grads = counted_gradients(self, grads, len(self.next_functions))
            if self.laid_as_grad and len(grad_outputs) == 1:
                grads = laid_as_received(grads, grad_outputs[0])
            if self._input_meta is not None:  # (None: already as the inputs, see _link)
                grads = self.checked_arrays(grads)
        if release:
            self.release_saved()
        return grads

    def _values_for_formula(self, unpack: bool) -> Saved:
        """What the formula reads (``saved.other``): each saved value, as the array forward
        computed with (see replaced.formula_array), or (``unpack``) as a Tensor. As in torch,
        each is checked first: a freed graph or an in-place change fails even unread."""
        values = {}
        for name, value in self._saved.items():
            if type(value) is SavedTensor:
                if value.had_grad_fn and value.tensor._grad_fn is None:  # (detach_()ed)
                    raise RuntimeError(errors.SAVED_DETACHED_IN_PLACE)
                if value.version.value != value.saved_version:
                    self._raise_modified()
                value = value.unpack(self) if unpack else \
                    value.data if not replaced.data_set else replaced.formula_array(value)
            elif value is FREED:
                raise RuntimeError(errors.BACKWARD_TWICE)
            elif type(value) is PackedTensor:  # (saved_tensors_hooks)
                value = value.unpack(self) if unpack else value.array(self)
            values[name] = value
        return Saved(values)

    def checked_arrays(self, grads: tuple) -> tuple:
        """Each gradient (an array) brought to its input's shape and dtype, or an
        error naming the node."""
        return tuple([None if grad is None or meta is None
                      else self._validate_array(index, grad, meta)
                      for index, (grad, meta) in enumerate(zip(grads, self._input_meta))])

    def _validate_array(self, index: int, grad, meta):
        """``_validate`` for arrays."""
        shape, np_dtype = meta
        if type(grad) is not np.ndarray:
            grad = np.asanyarray(grad)  # (NumPy gives 0-dim results as scalars; a meta array stays)
        if grad.shape != shape:
            self._check_expandable(index, grad.shape, shape)
            grad = sum_to(grad, shape)
        return grad if grad.dtype == np_dtype else cast_preserved(grad, np_dtype)

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
            self._check_expandable(index, grad.shape, shape)
            grad = sum_to(grad, shape)
        return grad if grad._data.dtype == np_dtype else grad.to(DTYPE_OF[np_dtype])

    def backward(self, saved, *grad_outputs):
        raise NotImplementedError(f"{self.name()} does not implement backward")

    def release_saved(self) -> None:
        """Free saved tensors (after a backward without ``retain_graph``)."""
        saved = self._saved
        for name, value in saved.items():
            if type(value) is SavedTensor or type(value) is PackedTensor:
                saved[name] = FREED


class AccumulateGrad(Node):
    """The end of every path, one per leaf that requires grad (``variable``): the walk adds
    the gradient arriving here into ``variable.grad`` (``fast._store_array``; the steps
    show what it becomes, ``engine._accumulated``); its own backward sends nothing on.
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

    def backward(self, saved, grad):
        return ()


_DATA_OF = operator.attrgetter("_data")  # a Tensor's array
_NO_EDGE = (None, 0)  # the edge of an input that needs no gradient
_NEEDS = {needs: needs for needs in [(True,), (True, True), (True, False), (False, True)]}
