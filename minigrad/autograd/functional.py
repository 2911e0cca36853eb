"""``torch.autograd.functional``: Jacobians, Hessians and their products with vectors.

All six are built on ``autograd.grad``, the reverse walk:

- ``vjp(f, x, v)``: vᵀJ, one backward seeded with v.
- ``jvp(f, x, v)``: Jv, by the "double backward trick": g(u) = uᵀJ is linear in u,
  so the gradient of g(u)·v with respect to u is Jv.
- ``jacobian(f, x)``: J, one backward per output element (row by row).
- ``hessian(f, x)``: the Jacobian of the gradient (``create_graph=True`` inside).
- ``vhp(f, x, v)``: vᵀH, the gradient of (∇f)·v; ``hvp``: Hv, the double backward
  trick once more (equal to vᵀH when H is symmetric).

Shapes are PyTorch's: a tuple of inputs gives a tuple of results, one per input; a
Jacobian of an output of shape (m, n) with respect to an input of shape (p,) has shape
(m, n, p). ``strict=True`` refuses an input that an output does not depend on (instead of
returning zeros), with PyTorch's texts.

This module is the top floor, written on minigrad's public API as ``nn`` is (it sits in
``autograd/`` because that is where PyTorch has it); ``minigrad/__init__.py`` imports it
after the face.

>>> import minigrad as torch
>>> from minigrad.autograd.functional import jacobian
>>> jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
tensor([[2., 0.],
        [0., 4.]])
"""

from __future__ import annotations

import minigrad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


# ---- the helpers PyTorch's functions share (their error texts are PyTorch's) -----

def _as_tuple(value, what: str, fn: str) -> tuple[bool, tuple]:
    """(was it a tuple, the tensors as a tuple); a non-tensor is a TypeError."""
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for index, item in enumerate(values):
        if not isinstance(item, minigrad.Tensor):
            which = f"value at index {index}" if is_tuple else f"given {what}"
            raise TypeError(f"The {what} given to {fn} must be either a Tensor or a tuple of "
                            f"Tensors but the {which} has type {type(item)}.")
    return is_tuple, values


def _untuple(values, was_tuple):
    """Undo ``_as_tuple``: ``was_tuple`` is a bool, or (outputs', inputs') for a
    tuple of tuples (a Jacobian: one row per output, one entry per input)."""
    if isinstance(was_tuple, tuple):
        outputs_tuple, inputs_tuple = was_tuple
        if not inputs_tuple:
            values = tuple(row[0] for row in values)
        return values if outputs_tuple else values[0]
    return values if was_tuple else values[0]


def _prepare(inputs, create_graph: bool, need_graph: bool) -> tuple:
    """New tensor objects for the function to run on: a view that keeps the graph
    (``create_graph`` and the input requires grad), else a detached copy of the
    reference that requires grad if ``need_graph``. (New objects tell the inputs given
    apart from the same tensors captured by the function.)"""
    return tuple(x.view_as(x) if create_graph and x.requires_grad
                 else x.detach().requires_grad_(need_graph) for x in inputs)


def _finish(values, create_graph: bool) -> tuple:
    """Results without history unless the caller asked for a graph."""
    if isinstance(values[0], minigrad.Tensor):
        return values if create_graph else tuple(v.detach() for v in values)
    return tuple(_finish(v, create_graph) for v in values)


def _check_v(v, like, like_is_tuple: bool) -> None:
    if len(v) != len(like):
        if like_is_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for index, (given, wanted) in enumerate(zip(v, like)):
        if given.size() != wanted.size():
            entry = f"Entry {index} in " if like_is_tuple else ""
            raise RuntimeError(f"{entry}v has invalid size: should be {wanted.size()} but got "
                               f"{given.size()}.")


_STRICT_TEXTS = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when running "
               "in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of "
                   "the user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
               "independent of the input. This is not allowed in strict mode. You should "
               "ensure that your function is thrice differentiable and that the hessian "
               "depends on the inputs.",
}


def _check_requires_grad(values, kind: str, strict: bool) -> None:
    """strict: each value must be there and require grad."""
    if not strict:
        return
    for i, value in enumerate(values):
        if value is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not value.requires_grad:
            raise RuntimeError(_STRICT_TEXTS[kind].format(i=i))


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None) -> tuple:
    """``autograd.grad`` over the outputs that require grad (None for the inputs when
    none does), unused inputs as None."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    used, seeds = zip(*pairs)
    return minigrad.autograd.grad(used, inputs, seeds, allow_unused=True,
                                  create_graph=create_graph, retain_graph=retain_graph)


_MISSING_TEXTS = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


def _zeros_for_missing(grads, like, strict: bool, create_graph: bool, stage: str) -> tuple:
    """Zeros (of ``like``'s shapes) where an input got no gradient; strict refuses."""
    result = ()
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_MISSING_TEXTS[stage].format(i=i))
            g = minigrad.zeros_like(like[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        result += (g,)
    return result


def _last_backward(outputs, outputs_tuple, backward, like, like_tuple, strict: bool,
                   create_graph: bool, stage: str):
    """The shared end of vjp, jvp, vhp and hvp: one more backward (``backward``: what to
    differentiate, with respect to what, seeded with v), zeros (or strict's error) for
    what got no gradient, and the results without history unless asked."""
    of, wrt, v = backward
    with minigrad.set_grad_enabled(create_graph or minigrad.is_grad_enabled()):
        grads = _grad(of, wrt, v, create_graph=create_graph)
        result = _zeros_for_missing(grads, like, strict, create_graph, stage)
    return (_untuple(_finish(outputs, create_graph), outputs_tuple),
            _untuple(_finish(result, create_graph), like_tuple))


# ---- the public functions -----------------------------------------------------------

def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), vᵀJ): the vector-Jacobian product, one backward seeded with ``v``
    (v has the output's shape; optional for a one-element output).

    >>> import minigrad as torch
    >>> out, g = torch.autograd.functional.vjp(lambda x: x.exp().sum(dim=1),
    ...                                        torch.zeros(2, 2), torch.ones(2))
    >>> out, g
    (tensor([2., 2.]), tensor([[1., 1.],
            [1., 1.]]))
    """
    with minigrad.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided "
                                           "function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _vector(v, "vjp", outputs, outputs_tuple, create_graph,
                    "The vector v can only be None if the user-provided function returns a "
                    "single Tensor with a single element.")
    return _last_backward(outputs, outputs_tuple, (outputs, inputs, v), inputs, inputs_tuple,
                          strict, create_graph, "back")


def _vector(v, fn, like, like_tuple, create_graph, about):
    """``v`` checked against ``like`` (a tuple), or None when ``like`` is one element."""
    if v is None:
        if len(like) != 1 or like[0].nelement() != 1:
            raise RuntimeError(about)
        return None
    v = _prepare(_as_tuple(v, "v", fn)[1], create_graph, need_graph=False)
    _check_v(v, like, like_tuple)
    return v


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), Jv): the Jacobian-vector product (v has the input's shape),
    computed with two backward passes (the double backward trick, as PyTorch does).

    >>> import minigrad as torch
    >>> torch.autograd.functional.jvp(lambda x: x ** 2, torch.tensor([1., 2.]),
    ...                               torch.tensor([1., 0.]))
    (tensor([1., 4.]), tensor([2., 0.]))
    """
    with minigrad.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        v = _vector(v, "jvp", inputs, inputs_tuple, create_graph,
                    "The vector v can only be None if the input to the user-provided function "
                    "is a single Tensor with a single element.")
        outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided "
                                           "function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # u -> uᵀJ is linear: u's value never enters its own gradient (zeros will do)
        u = tuple(minigrad.zeros_like(out, requires_grad=True) for out in outputs)
        u_times_j = _grad(outputs, inputs, u, create_graph=True)
        _check_requires_grad(u_times_j, "grad_inputs", strict)
    return _last_backward(outputs, outputs_tuple, (u_times_j, u, v), outputs, outputs_tuple,
                          strict, create_graph, "back_trick")


_STRATEGY_TEXT = ('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If '
                  'your function has more outputs than inputs, "forward-mode" tends to be more '
                  'performant. Otherwise, prefer to use "reverse-mode".')


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: for an output of shape S and an input of
    shape T, a tensor of shape S + T. A tuple of outputs or inputs gives tuples (a
    tuple of tuples when both are tuples: ``J[i][j]`` is output i by input j).

    Computed one backward per output element. ``vectorize=True`` (PyTorch batches
    those backward passes with vmap) and ``strategy="forward-mode"`` (forward-mode AD,
    which PyTorch runs only with ``vectorize=True``) give the same values here, by the
    same row-by-row walk: minigrad has neither vmap nor forward-mode AD.

    >>> import minigrad as torch
    >>> x, y = torch.tensor([1., 2.]), torch.tensor([3., 4.])
    >>> torch.autograd.functional.jacobian(lambda x, y: x * y, (x, y))
    (tensor([[3., 0.],
            [0., 4.]]), tensor([[1., 0.],
            [0., 2.]]))
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(_STRATEGY_TEXT)
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either '
                'set `create_graph=False` or `strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError(
                'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-'
                'mode"` are not supported together (yet). Please either set `strict=False` '
                'or `strategy="reverse-mode"`.')
        _as_tuple(inputs, "inputs", "jacobian")
        if not vectorize:
            raise NotImplementedError(  # (PyTorch's text, its missing space included)
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`.")
    with minigrad.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided "
                                           "function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`.")
        rows = tuple(_jacobian_of(i, out, inputs, create_graph, strict)
                     for i, out in enumerate(outputs))
        return _untuple(_finish(rows, create_graph), (outputs_tuple, inputs_tuple))


def _jacobian_of(i: int, out, inputs, create_graph: bool, strict: bool) -> tuple:
    """Output ``i``'s Jacobian with respect to each input: the gradient of each of its
    elements, stacked, then shaped out.shape + input.shape."""
    per_input = tuple([] for _ in inputs)
    flat = out.reshape(-1)
    for j in range(out.nelement()):
        grads = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for k, (rows, g, x) in enumerate(zip(per_input, grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {i} of the user-provided function is "
                                       f"independent of input {k}. This is not allowed in "
                                       "strict mode.")
                g = minigrad.zeros_like(x)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(f"The jacobian of the user-provided function is "
                                   f"independent of input {i}. This is not allowed in strict "
                                   "mode when create_graph=True.")
            rows.append(g)
    return tuple(minigrad.stack(rows, dim=0).view(out.size() + x.size())
                 for rows, x in zip(per_input, inputs))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a function with one output element: the Jacobian of its gradient.
    For an input of shape T, shape T + T; for a tuple of inputs, ``H[i][j]`` (the
    second derivatives with respect to inputs i and j).

    >>> import minigrad as torch
    >>> torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def one_output(*values):
        out = func(*values)
        out_tuple, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_tuple or not isinstance(out, minigrad.Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def gradient(*values):
        if outer_jacobian_strategy == "forward-mode":
            values = tuple(x.requires_grad_(True) for x in values)
        jac = jacobian(one_output, values, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict,
                      vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _untuple(result, (inputs_tuple, inputs_tuple))


def _scalar_function_gradient(fn: str, func, inputs, v, create_graph: bool, strict: bool):
    """The shared start of vhp and hvp: inputs, v, the one output and its gradient
    (with a graph, to differentiate again)."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn)
    inputs = _prepare(inputs, create_graph, need_graph=True)
    v = _vector(v, fn, inputs, inputs_tuple, create_graph,
                "The vector v can only be None if the input to the user-provided function is "
                "a single Tensor with a single element.")
    outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                       fn)
    _check_requires_grad(outputs, "outputs", strict)
    if outputs_tuple or not isinstance(outputs[0], minigrad.Tensor):
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn} should contain "
                           "a single element")
    gradient = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(gradient, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs_tuple, outputs, gradient


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), vᵀH) for a function with one output element: the gradient of
    (∇func)·v.

    >>> import minigrad as torch
    >>> torch.autograd.functional.vhp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]),
    ...                               torch.tensor([1., 1.]))
    (tensor(9.), tensor([ 6., 12.]))
    """
    with minigrad.enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, gradient = _scalar_function_gradient(
            "vhp", func, inputs, v, create_graph, strict)
    return _last_backward(outputs, outputs_tuple, (gradient, inputs, v), inputs, inputs_tuple,
                          strict, create_graph, "double_back")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), Hv) for a function with one output element, by the double
    backward trick on its gradient (for a twice continuously differentiable function
    H is symmetric and Hv equals vᵀH; ``vhp`` is the cheaper of the two).

    >>> import minigrad as torch
    >>> torch.autograd.functional.hvp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]),
    ...                               torch.tensor([1., 0.]))
    (tensor(9.), tensor([6., 0.]))
    """
    with minigrad.enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, gradient = _scalar_function_gradient(
            "hvp", func, inputs, v, create_graph, strict)
        u = tuple(minigrad.zeros_like(x, requires_grad=True) for x in inputs)
        u_times_h = _grad(gradient, inputs, u, create_graph=True)
        _check_requires_grad(gradient, "hessian", strict)
    return _last_backward(outputs, outputs_tuple, (u_times_h, u, v), inputs, inputs_tuple,
                          strict, create_graph, "double_back_trick")
