"""``autograd.grad`` and ``autograd.backward``: the engine's two entry points.

(In PyTorch they live in ``torch/autograd/__init__.py``; ``torch.autograd.functional``
is ``jacobian``, ``hessian``, ... : see ``functional.py`` beside this file.)
"""

from __future__ import annotations

import numpy as np

from ..kernels import layout
from .fast import run_backward
from .graph import GradientEdge
from .tensor_base import TensorBase, make

__all__ = ["grad", "backward"]


def _as_tuple(value) -> tuple:
    """A tensor or a GradientEdge as a tuple of one; a sequence of them as a tuple."""
    if isinstance(value, (TensorBase, GradientEdge)):
        return (value,)
    return tuple(value)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             inputs=None) -> None:
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad`` (see ``Tensor.backward``)."""
    tensors = _as_tuple(tensors)
    if grad_tensors is not None:
        grad_tensors = _as_tuple(grad_tensors)
    run_backward(tensors, grad_tensors, retain_graph, create_graph,
                 None if inputs is None else _as_tuple(inputs))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=None, materialize_grads=False) -> tuple:
    """Return d(outputs)/d(inputs) without touching any ``.grad``.

    With ``create_graph=True`` the result is itself part of a graph, so it can
    be differentiated again (higher-order derivatives).

    >>> import minigrad as torch
    >>> x = torch.tensor(3., requires_grad=True)
    >>> dy, = torch.autograd.grad(x ** 3, x, create_graph=True)
    >>> dy, torch.autograd.grad(dy, x)[0]
    (tensor(27., grad_fn=<MulBackward0>), tensor(18.))
    """
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    if grad_outputs is not None:
        grad_outputs = _as_tuple(grad_outputs)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads"
                         "=True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    captured = run_backward(outputs, grad_outputs, retain_graph, create_graph, inputs,
                            accumulate=False)
    results = []
    for index, tensor in enumerate(inputs):
        edge = (tensor.node, tensor.output_nr) if isinstance(tensor, GradientEdge) \
            else tensor._gradient_edge()
        found = captured.get(edge)
        if found is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been "
                    "used in the graph. Set allow_unused=True if this is the desired "
                    "behavior."
                )
            if materialize_grads:
                zeros = np.zeros(tensor._data.shape, tensor._data.dtype)  # (zeros_like)
                found = make(layout.with_strides(zeros, layout.preserved_strides(tensor._data)),
                             requires_grad=create_graph)
        results.append(found)
    return tuple(results)

