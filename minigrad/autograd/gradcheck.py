"""``gradcheck``: compare backward with central finite differences.

For each input element x_j, the numerical derivative of every output y_i is
(f(x + eps e_j) - f(x - eps e_j)) / (2 eps); backward gives the analytical
row i of the Jacobian when seeded with the unit vector e_i. The two Jacobians
must agree within ``atol + rtol * |numerical|``. Use float64 inputs: in
float32 the rounding error of the differences swamps ``eps``.
"""

from __future__ import annotations

import warnings

import numpy as np

from . import grad_mode
from .functional import grad
from .tensor_base import TensorBase, make

__all__ = ["gradcheck", "GradcheckError", "numerical_jacobian", "analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when backward and finite differences disagree."""


def _outputs(func, inputs):
    result = func(*inputs)
    return (result,) if isinstance(result, TensorBase) else tuple(result)


def numerical_jacobian(func, inputs, eps: float = 1e-6) -> list:
    """J[output][input]: arrays of shape (input.numel(), output.numel())."""
    inputs = list(inputs)
    with grad_mode.no_grad():
        outputs = _outputs(func, inputs)
        jacobians = [[np.zeros((x.numel(), out.numel())) for x in inputs] for out in outputs]
        for k, x in enumerate(inputs):
            if not getattr(x, "requires_grad", False):
                continue
            flat = x._data.reshape(-1)  # a view: nudging it nudges x
            for j in range(flat.size):
                original = flat[j].item()
                flat[j] = original + eps
                plus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
                flat[j] = original - eps
                minus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
                flat[j] = original
                for i in range(len(outputs)):
                    jacobians[i][k][j] = (plus[i] - minus[i]) / (2 * eps)
    return jacobians


def analytical_jacobian(func, inputs) -> list:
    """The same Jacobians from backward, one unit vector per output element."""
    inputs = list(inputs)
    outputs = _outputs(func, inputs)
    differentiable = [x for x in inputs if getattr(x, "requires_grad", False)]
    jacobians = [[np.zeros((x.numel(), out.numel())) for x in inputs] for out in outputs]
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for m in range(out.numel()):
            seed = make(np.zeros(tuple(out.shape), out._data.dtype))
            seed._data.reshape(-1)[m] = 1
            grads = grad(out, differentiable, seed, retain_graph=True, allow_unused=True)
            grads = iter(grads)
            for k, x in enumerate(inputs):
                if getattr(x, "requires_grad", False):
                    g = next(grads)
                    if g is not None:
                        jacobians[i][k][:, m] = g._data.astype(np.float64).reshape(-1)
    return jacobians


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, **unused) -> bool:
    """Check ``func``'s backward against finite differences at ``inputs``.

    Returns True, or raises ``GradcheckError`` with PyTorch's text: the output,
    the input and both Jacobians (or returns False with ``raise_exception=False``).
    """
    inputs = (inputs,) if isinstance(inputs, TensorBase) else tuple(inputs)
    for index, x in enumerate(inputs):  # PyTorch's text (it names complex, minigrad has none)
        if isinstance(x, TensorBase) and x.requires_grad and x.dtype.name != "float64":
            warnings.warn(
                f"Input #{index} requires gradient and is not a double precision floating "
                "point or complex. This check will likely fail if all the inputs are not of "
                "double precision floating point or complex. ", UserWarning, stacklevel=2)
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
    for i, (num_row, ana_row) in enumerate(zip(numerical, analytical)):
        for k, (num, ana) in enumerate(zip(num_row, ana_row)):
            if not np.allclose(ana, num, rtol=rtol, atol=atol):
                message = (
                    f"Jacobian mismatch for output {i} with respect to input {k},\n"
                    f"numerical:{make(num)}\nanalytical:{make(ana)}\n"
                )
                if raise_exception:
                    raise GradcheckError(message)
                return False
    return True
