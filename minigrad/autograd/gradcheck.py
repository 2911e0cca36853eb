"""``gradcheck`` and ``gradgradcheck``: compare backward with central finite differences.

For each input element x_j, the numerical derivative of every output y_i is
(f(x + eps e_j) - f(x - eps e_j)) / (2 eps); backward gives the analytical
row i of the Jacobian when seeded with the unit vector e_i. The two Jacobians
must agree within ``atol + rtol * |numerical|``. Use float64 inputs: in
float32 the rounding error of the differences swamps ``eps``.

``gradgradcheck`` checks the second derivative the same way: it runs
``gradcheck`` on the function that maps (inputs, grad_outputs) to the
gradients ``autograd.grad(func(inputs), inputs, grad_outputs, create_graph=True)``.
The checks, their order and their texts are PyTorch's (``torch/autograd/gradcheck.py``,
the "slow" mode: every column of both Jacobians).
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import dtypes
from . import forward_ad
from .differentiate import grad
from .tensor_base import TensorBase, make

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "numerical_jacobian",
           "analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when backward and finite differences disagree."""


_NONDET_NOTE = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _as_tuple(value) -> tuple:
    if isinstance(value, tuple):
        return value
    return tuple(value) if isinstance(value, list) else (value,)


def _requiring_grad(values) -> list:
    return [x for x in values if isinstance(x, TensorBase) and x.requires_grad]


def _differentiable(outputs) -> tuple:
    return tuple(o for o in _as_tuple(outputs) if o.requires_grad)


def _check_inputs(inputs) -> None:
    """PyTorch's checks of gradcheck's inputs, its warning and errors word for word."""
    any_requires_grad = False
    for index, x in enumerate(inputs):
        if not (isinstance(x, TensorBase) and x.requires_grad):
            continue
        if x.dtype.name != "float64":  # (PyTorch's text names complex: minigrad has none)
            warnings.warn(
                f"Input #{index} requires gradient and is not a double precision floating "
                "point or complex. This check will likely fail if all the inputs are not of "
                "double precision floating point or complex. ", UserWarning, stacklevel=4)
        if not all(step > 0 or size <= 1 for step, size in zip(x.stride(), x.shape)):
            raise RuntimeError(
                f"The {index}th input has a dimension with stride 0. gradcheck only supports "
                "inputs that are non-overlapping to be able to compute the numerical "
                "gradients correctly. You should call .contiguous on the input before "
                "passing it to gradcheck.")
        any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")


def numerical_jacobian(func, inputs, eps: float = 1e-6) -> list:
    """J[output][input]: arrays of shape (input.numel(), output.numel()), one per
    output of ``func`` and input that requires grad, in the output's dtype.

    Each element of an input is nudged in place by -eps and +eps (in the input's
    dtype, as ``entry.copy_(orig - v)`` does in PyTorch), and put back."""
    inputs = list(inputs)
    outputs = _as_tuple(func(*inputs))
    columns = []
    for x in _requiring_grad(inputs):
        jacobians = [np.zeros((x.numel(), out.numel()), out._data.dtype) for out in outputs]
        data = x._data  # (nudged element by element in place, in row-major order: so also
        for j, index in enumerate(np.ndindex(data.shape)):  # a transposed view's own data)
            original = data[index].copy()
            data[index] = original - eps
            below = [o._data.copy() for o in _as_tuple(func(*inputs))]
            data[index] = original + eps
            above = [o._data.copy() for o in _as_tuple(func(*inputs))]
            data[index] = original
            for i, (a, b) in enumerate(zip(below, above)):
                _check_same_dtype_and_shape(a, b, eps, index)
                jacobians[i][j] = ((b - a) / (2 * eps)).reshape(-1)
        columns.append(jacobians)
    return [list(row) for row in zip(*columns)] if columns else [[] for _ in outputs]


def _check_same_dtype_and_shape(a, b, eps, index) -> None:
    where = f"on index {tuple(int(i) for i in index)} "
    if a.shape != b.shape:
        raise AssertionError(
            "Expected `func` to return outputs with the same shape when inputs are perturbed "
            f"{where}by {eps}, but got: shapes {make(a).shape} and {make(b).shape}.")
    if a.dtype != b.dtype:
        raise AssertionError(
            "Expected `func` to return outputs with the same dtype when inputs are perturbed "
            f"{where}by {eps}, but got: dtypes {make(a).dtype} and {make(b).dtype}.")


def _jacobian_rows(output, wrt) -> tuple[list, bool, bool]:
    """The analytical Jacobian of one output: backward seeded with each unit vector.
    Returns one array (wrt.numel(), output.numel()) per input, and whether every
    gradient had its input's dtype and shape."""
    jacobians = [np.zeros((x.numel(), output.numel()), x._data.dtype) for x in wrt]
    dtypes_ok = sizes_ok = True
    seed = make(np.zeros(tuple(output.shape), output._data.dtype))
    for m in range(output.numel()):
        seed._data.reshape(-1)[:] = 0
        seed._data.reshape(-1)[m] = 1
        grads = grad(output, wrt, seed, retain_graph=True, allow_unused=True)
        for k, (x, g) in enumerate(zip(wrt, grads)):
            if g is None:
                continue
            if tuple(g.shape) != tuple(x.shape):
                sizes_ok = False
            elif g.dtype != x.dtype:
                dtypes_ok = False
            else:
                jacobians[k][:, m] = g._data.reshape(-1)
    return jacobians, dtypes_ok, sizes_ok


def analytical_jacobian(func, inputs) -> list:
    """J[output][input] from backward, for the outputs and inputs that require grad."""
    wrt = _requiring_grad(inputs)
    return [_jacobian_rows(out, wrt)[0] for out in _differentiable(func(*inputs))]


def _checked_analytical(output, wrt, nondet_tol: float, check_grad_dtypes: bool) -> list:
    """Backward's Jacobian of ``output``, computed twice: the same both times (within
    ``nondet_tol``), of the right size and (when asked) dtype."""
    first, dtypes_ok, sizes_ok = _jacobian_rows(output, wrt)
    second = _jacobian_rows(output, wrt)[0]
    if not dtypes_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not all(a.size == 0 or np.abs(a - b).max() <= nondet_tol for a, b in zip(first, second)):
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and grad_output "
            "multiple times gives different values, although analytical gradient matches "
            f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
            + _NONDET_NOTE)
    return first


def _mismatch(analytical, numerical, output: int, input: int, mode: str = "") -> str:
    return (f"Jacobian {mode}mismatch for output {output:d} with respect to input {input:d},\n"
            f"numerical:{make(numerical)}\nanalytical:{make(analytical)}\n")


def forward_jacobian(func, inputs) -> list:
    """J[output][input] as ``numerical_jacobian`` lays it out, column by column with
    forward-mode AD: input ``x``'s element j made a dual tensor with a one-hot tangent,
    the outputs' tangents are column j."""
    inputs, columns = list(inputs), []
    for position, x in enumerate(inputs):
        if not (isinstance(x, TensorBase) and x.requires_grad):
            continue
        outputs = _as_tuple(func(*inputs))
        jacobians = [np.zeros((x.numel(), out.numel()), out._data.dtype) for out in outputs]
        for j in range(x.numel()):
            tangent = np.zeros(x.shape, x._data.dtype)
            tangent.reshape(-1)[j] = 1
            with forward_ad.dual_level():
                args = inputs[:position] + [forward_ad.make_dual(x, make(tangent))] + \
                    inputs[position + 1:]
                for i, out in enumerate(_as_tuple(func(*args))):
                    found = forward_ad.tangent_of(out)
                    if found is not None:
                        jacobians[i][j] = found._data.reshape(-1)
        columns.append(jacobians)
    return [list(row) for row in zip(*columns)] if columns else []


def _check_forward_ad(func, inputs, eps, atol, rtol) -> None:
    """check_forward_ad=True: forward mode's Jacobian against finite differences."""
    numerical = numerical_jacobian(func, inputs, eps)
    for i, row in enumerate(forward_jacobian(func, inputs)):
        for j, (a, n) in enumerate(zip(row, numerical[i])):
            kind = np.promote_types(a.dtype, n.dtype)
            if not np.allclose(a.astype(kind), n.astype(kind), rtol=rtol, atol=atol):
                raise GradcheckError(_mismatch(a, n, i, j, "computed with forward mode "))


def _check_multiplied_by_grad_output(outputs, wrt) -> None:
    """With zero gradients for the outputs, every input's gradient must be zero, of
    the input's dtype and size (a backward that ignores its ``grad`` fails here)."""
    zeros = [make(np.zeros(tuple(o.shape), o._data.dtype)) for o in outputs]
    for g, x in zip(grad(outputs, wrt, zeros, allow_unused=True), wrt):
        if g is None:
            continue
        if (g._data != 0).any():
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype != x.dtype:
            raise GradcheckError("grad is incorrect type")
        if tuple(g.shape) != tuple(x.shape):
            raise GradcheckError("grad is incorrect size")


_NOT_IN_MINIGRAD = {  # (minigrad's vmap is a loop over the batch: nothing more to check)
    "check_batched_grad": "batched gradients (vmap runs the function once per example)",
    "check_batched_forward_grad": "batched forward gradients (vmap runs the function once per "
                                  "example)",
}


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Check ``func``'s backward against finite differences at ``inputs``.

    Returns True, or raises ``GradcheckError`` with PyTorch's text: the output,
    the input (counted among those that require grad) and both Jacobians (or returns
    False with ``raise_exception=False``). ``fast_mode=True`` runs the full check
    (PyTorch's fast mode checks one random projection of the Jacobians instead).

    >>> import minigrad as torch
    >>> x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradcheck(torch.tanh, x)
    True
    """
    for option, what in _NOT_IN_MINIGRAD.items():
        if locals()[option]:
            raise NotImplementedError(
                f"gradcheck({option}=True): minigrad has no {what}; leave {option}=False "
                "to check backward against finite differences.")
    try:
        if check_forward_ad:
            _check_inputs(_as_tuple(inputs))
            _check_forward_ad(func, _as_tuple(inputs), eps, atol, rtol)
        return _gradcheck(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol,
                          check_grad_dtypes, check_backward_ad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes,
               check_backward_ad) -> bool:
    _check_inputs(inputs)
    if not check_backward_ad:
        return True
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable(func_out)
    numerical = numerical_jacobian(func, inputs, eps)
    if not outputs:  # then every numerical derivative must be zero
        if any((n != 0).any() for row in numerical for n in row):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    numerical = [row for out, row in zip(func_out, numerical) if out.requires_grad]
    wrt = _requiring_grad(inputs)
    for i, out in enumerate(outputs):
        analytical = _checked_analytical(out, wrt, nondet_tol, check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, numerical[i])):
            kind = np.promote_types(a.dtype, n.dtype)
            if not np.allclose(a.astype(kind), n.astype(kind), rtol=rtol, atol=atol):
                raise GradcheckError(_mismatch(a, n, i, j))
    _check_multiplied_by_grad_output(outputs, wrt)
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False,
                  masked: bool = False) -> bool:
    """Check second derivatives: ``gradcheck`` of the map (inputs, grad_outputs) ->
    ``autograd.grad(func(*inputs), inputs, grad_outputs, create_graph=True)``.

    Without ``grad_outputs``, random ones in [-1, 1) are drawn from the global
    generator, as PyTorch draws them (the same numbers after ``manual_seed``).

    >>> import minigrad as torch
    >>> x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradgradcheck(lambda x: x ** 3, x)
    True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:  # as torch.testing.make_tensor(low=-1, high=1) draws them
        grad_outputs = tuple(_random_like(out, gen_non_contig_grad_outputs)
                             for out in _differentiable(func(*inputs)))
    else:
        grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)
    input_needs = [isinstance(x, TensorBase) and x.requires_grad for x in inputs]
    grad_output_needs = [g.requires_grad for g in grad_outputs]

    def first_derivatives(*args):
        values = [x.requires_grad_() if needs else x
                  for x, needs in zip(args[:-count], input_needs)]
        seeds = [g.requires_grad_() if needs else g
                 for g, needs in zip(args[-count:], grad_output_needs)]
        wrt = [x for x, needs in zip(values, input_needs) if needs]
        grads = grad(_differentiable(func(*values)), wrt, seeds, create_graph=True,
                     allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode, check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, masked=masked)


def _random_like(out, noncontiguous: bool):
    """A gradient for ``out`` drawn uniformly from [-1, 1) (float64 for a non-float
    output), that requires grad; ``noncontiguous``: every other element of a tensor
    twice as long in its last dimension, as PyTorch makes one."""
    dtype = out.dtype if out.dtype.is_floating_point else dtypes.float64
    drawn = out.new_zeros(tuple(out.shape), dtype=dtype).uniform_(-1, 1)
    if noncontiguous and drawn.numel() > 1:
        drawn = make(np.repeat(drawn._data, 2, axis=-1)[..., ::2])
    return drawn.requires_grad_()

