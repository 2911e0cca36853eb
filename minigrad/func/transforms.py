"""``torch.func``'s derivative transforms: ``grad``, ``grad_and_value``, ``vjp``, ``jvp``,
``jacrev``, ``jacfwd``, ``hessian``.

A transform takes a function and returns a function. Each one here runs the function on
*tracked* copies of the inputs (tensors that require grad, new objects so the inputs told
apart from the same tensors captured by the function), then asks the reverse walk
(``torch.autograd.grad``) for what it needs:

- ``grad(f)(x)``: the gradient of a scalar f, one backward;
- ``vjp(f, x)``: vᵀJ for any v, one backward per call of the returned function;
- ``jvp(f, (x,), (t,))``: J t, forward mode, by the double backward trick (as
  ``autograd/forward_ad.py`` does per op, here for the whole function): Jᵀv is linear in
  v, so the gradient of <Jᵀv, t> with respect to v is J t;
- ``jacrev``: J row by row (one vjp per output element); ``jacfwd``: J column by column
  (one jvp per input element, all from one Jᵀv); ``hessian(f) = jacfwd(jacrev(f))``.

A backward is taken with ``create_graph=True`` when its result depends on a tensor that
requires grad outside the transform (an outer transform's input, a tensor the function
captured), so transforms nest (``grad(grad(f))``, ``jacfwd(jacrev(f))``); otherwise it is
a plain one and the result is returned detached, as PyTorch returns it. (``jvp``'s first
backward, whose result is differentiated once more, is always recorded.)

Written on minigrad's public API, as ``nn`` is.
"""

from __future__ import annotations

import functools

import minigrad

from ._tree import flatten, unflatten

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd", "hessian"]


# ---- what the transforms share --------------------------------------------------------

def _check_argnums(argnums, count: int) -> tuple:
    """``argnums`` as a tuple of positions (PyTorch's errors for bad ones)."""
    many = isinstance(argnums, tuple)
    numbers = argnums if many else (argnums,)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if many and len(set(numbers)) != len(numbers):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    for n in numbers:
        if not -count <= n < count:
            raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    return tuple(n % count for n in numbers)


def _track(x):
    """A new tensor object standing for input ``x``, which requires grad: a view (so the
    graph reaches ``x``, when something outside differentiates it) or a detached copy."""
    if not isinstance(x, minigrad.Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    return x.view_as(x) if x.requires_grad else x.detach().requires_grad_()


def _tracked_args(args, argnums: tuple) -> tuple:
    """(the arguments with those at ``argnums`` tracked, the tracked leaves, their nest)."""
    args = list(args)
    chosen = tuple(args[n] for n in argnums)
    leaves, spec = flatten(chosen)
    tracked = [_track(x) for x in leaves]
    for n, value in zip(argnums, unflatten(tracked, spec)):
        args[n] = value
    return args, tracked, spec


def _with_argnums(spec, leaves, argnums):
    """Leaves (one per tracked input) back in the nest of the chosen arguments: one
    argument's nest for an int ``argnums``, a tuple of them for a tuple."""
    chosen = unflatten(leaves, spec)
    return chosen if isinstance(argnums, tuple) else chosen[0]


def _released(values: list, own: list) -> list:
    """``values`` without their graph, unless it reaches a tensor requiring grad that is
    not one of the transform's own (``own``): then an outer transform or the caller
    differentiates through them, and the graph stays."""
    if _reaches_outside(values, own):
        return values
    return [v.detach() if isinstance(v, minigrad.Tensor) else v for v in values]


def _reaches_outside(values: list, own: list) -> bool:
    """Whether the graph of ``values`` reaches a leaf requiring grad not in ``own``."""
    mine = {id(x) for x in own}
    tensors = [v for v in values if isinstance(v, minigrad.Tensor) and v.requires_grad]
    if any(v.grad_fn is None and id(v) not in mine for v in tensors):
        return True
    stack, seen = [v.grad_fn for v in tensors if v.grad_fn is not None], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None and id(variable) not in mine:
            return True
        stack.extend(next_node for next_node, _ in node.next_functions)
    return False


def _backward(outputs, inputs, grad_outputs, record: bool = True) -> list:
    """d(outputs)/d(inputs) seeded with ``grad_outputs``, zeros where an input is not
    reached; ``record``: with ``create_graph=True``, so that an outer transform (or
    the caller) can differentiate the result again."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return [minigrad.zeros_like(x) for x in inputs]
    grads = minigrad.autograd.grad([o for o, _ in pairs], inputs, [g for _, g in pairs],
                                   retain_graph=True, create_graph=record, allow_unused=True)
    return [minigrad.zeros_like(x) if g is None else g for g, x in zip(grads, inputs)]


def _split_aux(output, has_aux: bool, api: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    return output


# ---- grad ------------------------------------------------------------------------------

def grad_and_value(func, argnums=0, has_aux: bool = False):
    """``(grad, value)`` of a function returning a scalar tensor, with respect to the
    arguments at ``argnums``.

    >>> import minigrad as torch
    >>> torch.func.grad_and_value(lambda x: (x ** 2).sum())(torch.tensor([1., 2.]))
    (tensor([2., 4.]), tensor(5.))
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        api = "grad_and_value(f)(*args)"
        numbers = _check_argnums(argnums, len(args))
        given = flatten(tuple(args[n] for n in numbers))[0]
        with minigrad.enable_grad():
            args, tracked, spec = _tracked_args(args, numbers)
            output, aux = _split_aux(func(*args, **kwargs), has_aux, api)
            if not isinstance(output, minigrad.Tensor):
                raise RuntimeError(f"{api}: Expected f(*args) to return a Tensor, got "
                                   f"{type(output)}")
            if output.dim() != 0:
                raise RuntimeError(
                    f"{api}: Expected f(*args) to return a scalar Tensor, got tensor with "
                    f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs "
                    "instead?")
            grads = _backward([output], tracked, [minigrad.ones_like(output)],
                              _reaches_outside([output], tracked))
        grads = _released(grads, tracked)
        value = _released([output], tracked)[0]
        result = _with_argnums(spec, grads, argnums)
        if has_aux:
            aux_leaves, aux_spec = flatten(_inputs_given_back(aux, tracked, given))
            return result, (value, unflatten(_released(aux_leaves, tracked), aux_spec))
        return result, value
    return wrapper


def _inputs_given_back(aux, tracked: list, given: list):
    """An input returned as it came in the aux output is the caller's own tensor again
    (PyTorch unwraps it from the transform's level: grad's docstring's ``(y_pred,
    loss_per_sample)`` gives back ``y_preds`` itself, a leaf that requires grad)."""
    leaves, spec = flatten(aux)
    standing_for = {id(t): x for t, x in zip(tracked, given)}
    return unflatten([standing_for.get(id(v), v) for v in leaves], spec)


def grad(func, argnums=0, has_aux: bool = False):
    """The gradient of a function returning a scalar tensor (``grad(f)(x)`` is df/dx at
    x), with respect to the arguments at ``argnums``; ``has_aux``: f returns
    ``(output, aux)`` and ``(grad, aux)`` is returned.

    >>> import minigrad as torch
    >>> torch.func.grad(lambda x: x.sin().sum())(torch.tensor([0., 1.]))
    tensor([1.0000, 0.5403])
    """
    with_value = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gradients, value = with_value(*args, **kwargs)
        return (gradients, value[1]) if has_aux else gradients
    return wrapper


# ---- vjp and jvp -------------------------------------------------------------------------

def vjp(func, *primals, has_aux: bool = False):
    """``(f(*primals), vjp_fn)``: ``vjp_fn(v)`` is vᵀJ, a tuple with one entry per primal
    (v has the nest and shapes of f's output)."""
    with minigrad.enable_grad():
        args, tracked, spec = _tracked_args(primals, tuple(range(len(primals))))
        output, aux = _split_aux(func(*args), has_aux, "vjp(f, *primals)")
    out_leaves, out_spec = flatten(output)
    for leaf in out_leaves:
        if not isinstance(leaf, minigrad.Tensor):
            raise RuntimeError("vjp(f, *primals): expected f(*primals) to return only tensors, "
                               f"got unsupported type {type(leaf)}")

    outside = _reaches_outside(out_leaves, tracked)

    def vjp_fn(cotangents):
        leaves, ct_spec = flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure "
                f"of outputs to the function. cotangents: {ct_spec.pretty()}, primal output: "
                f"{out_spec.pretty()}")
        with minigrad.enable_grad():
            grads = _backward(out_leaves, tracked, leaves,
                              outside or any(ct.requires_grad for ct in leaves))
        return unflatten(_released(grads, tracked), spec)

    result = unflatten(_released(out_leaves, tracked), out_spec)
    if has_aux:
        aux_leaves, aux_spec = flatten(aux)
        for leaf in aux_leaves:
            if not isinstance(leaf, minigrad.Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
        return result, vjp_fn, unflatten(_released(aux_leaves, tracked), aux_spec)
    return result, vjp_fn


def _check_jvp_args(primals, tangents):
    for what, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, (tuple, list)):
            raise RuntimeError(f"jvp(f, primals, tangents): Expected {what} to be a tuple. "
                               "E.g. it should be valid to call f(*primals).")
    p_leaves, p_spec = flatten(tuple(primals))
    t_leaves, t_spec = flatten(tuple(tangents))
    if p_spec != t_spec:
        raise RuntimeError(
            "jvp(f, primals, tangents): Expected primals and tangents to have the same "
            "python structure. For example, if primals is a tuple of 3 tensors, tangents "
            f"also must be. Got primals with structure {p_spec} and tangents with structure "
            f"{t_spec}")
    for p, t in zip(p_leaves, t_leaves):
        for what, leaf in (("primals", p), ("tangents", t)):
            if not isinstance(leaf, minigrad.Tensor):
                raise RuntimeError(f"jvp(f, primals, tangents): Expected {what} to only "
                                   f"contain Tensors, got {type(leaf)}")
        if p.shape != t.shape:
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                f"original Tensor, this is not supported. Tensor is of size {list(p.shape)} "
                f"while the given forward gradient is of size {list(t.shape)}.")
    return t_leaves


def _linearized(func, args, tracked, api: str):
    """Run ``func`` on ``args`` (it returns ``(output, aux)``); return the output's leaves
    and nest, aux, new zero gradients ``vs`` (one per leaf, requiring grad) and Jᵀv (one
    per tracked input: the backward seeded with ``vs``, recorded)."""
    output, aux = func(*args)
    leaves, spec = flatten(output)
    for leaf in leaves:
        if not isinstance(leaf, minigrad.Tensor):
            raise RuntimeError(f"{api}: expected f(*args) to return only tensors, got "
                               f"unsupported type {type(leaf)}")
    vs = [minigrad.zeros_like(o).requires_grad_() for o in leaves]
    return leaves, spec, aux, vs, _backward(leaves, tracked, vs)


def jvp(func, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(f(*primals), J tangents)``: the directional derivative of f at ``primals``
    along ``tangents`` (forward mode; see the module docstring for how).

    >>> import minigrad as torch
    >>> torch.func.jvp(torch.sin, (torch.tensor(0.),), (torch.tensor(2.),))
    (tensor(0.), tensor(2.))
    """
    t_leaves = _check_jvp_args(primals, tangents)
    with minigrad.enable_grad():
        args, tracked, _ = _tracked_args(primals, tuple(range(len(primals))))
        api = "jvp(f, primals, tangents)"
        leaves, spec, aux, vs, transposed = _linearized(
            lambda *a: _split_aux(func(*a), has_aux, api), args, tracked, api)
        total = None
        for g, t in zip(transposed, t_leaves):
            if g.requires_grad:
                term = (g * t.to(g.dtype)).sum()
                total = term if total is None else total + term
        record = _reaches_outside(leaves, tracked) or any(t.requires_grad for t in t_leaves)
        outs = _backward([total], vs, [minigrad.ones_like(total)], record) \
            if total is not None else [minigrad.zeros_like(v) for v in vs]
    own = tracked + vs
    results = (unflatten(_released(leaves, own), spec), unflatten(_released(outs, own), spec))
    if has_aux:
        aux_leaves, aux_spec = flatten(aux)
        return results + (unflatten(_released(aux_leaves, own), aux_spec),)
    return results


def linearize(func, *primals):
    """``(f(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is J tangents at ``primals`` (here
    ``jvp`` once more for each call)."""
    output = jvp(func, primals, tuple(minigrad.zeros_like(p) for p in primals))[0]

    def jvp_fn(*tangents):
        return jvp(func, primals, tangents)[1]
    return output, jvp_fn


# ---- Jacobians and the Hessian ------------------------------------------------------------

def _jacobian_nest(out_spec, in_spec, argnums, blocks):
    """``blocks[i][j]`` (output leaf i, input leaf j) in the nest PyTorch returns: the
    output's nest, each leaf of it replaced by the inputs' nest."""
    rows = [_with_argnums(in_spec, row, argnums) for row in blocks]
    return unflatten(rows, out_spec)


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None):
    """The Jacobian of ``func`` with respect to the arguments at ``argnums``, row by row
    (reverse mode: one vjp per output element). For an output of shape (m, n) and an
    input of shape (p,) it has shape (m, n, p).

    >>> import minigrad as torch
    >>> torch.func.jacrev(lambda x: x ** 2)(torch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        numbers = _check_argnums(argnums, len(args))
        with minigrad.enable_grad():
            args, tracked, in_spec = _tracked_args(args, numbers)
            output, aux = _split_aux(func(*args, **kwargs), has_aux, "vjp(f, *primals)")
            leaves, out_spec = flatten(output)
            blocks = [_rows(out, tracked) for out in leaves]
        blocks = [_released(row, tracked) for row in blocks]
        result = _jacobian_nest(out_spec, in_spec, argnums, blocks)
        if has_aux:
            aux_leaves, aux_spec = flatten(aux)
            return result, unflatten(_released(aux_leaves, tracked), aux_spec)
        return result
    return wrapper


def _rows(out, tracked) -> list:
    """d out / d x for each tracked x, shape out.shape + x.shape: one backward per element
    of ``out``, seeded with that element's unit vector."""
    if not isinstance(out, minigrad.Tensor):
        raise RuntimeError("vjp(f, *primals): expected f(*primals) to return only tensors, "
                           f"got unsupported type {type(out)}")
    unit = minigrad.eye(out.numel(), dtype=out.dtype)
    record = _reaches_outside([out], tracked)
    rows = [_backward([out], tracked, [unit[k].reshape(out.shape)], record)
            for k in range(out.numel())]
    return [_stacked([row[j] for row in rows], out.shape, x.shape, x.dtype)
            for j, x in enumerate(tracked)]


def _stacked(parts, first, second, dtype):
    """``parts`` (one per element of a tensor of shape ``first``, each of shape ``second``)
    as one tensor of shape first + second (no parts: zeros of ``dtype``)."""
    if not parts:
        return minigrad.zeros(tuple(first) + tuple(second), dtype=dtype)
    return minigrad.stack(parts).reshape(tuple(first) + tuple(second))


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """The Jacobian of ``func`` column by column (forward mode: one jvp per input element).
    Same shape as ``jacrev``'s. The columns come from one backward seeded with new
    gradients v (Jᵀv, recorded): column k is the gradient of (Jᵀv)[k] with respect to v.
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        numbers = _check_argnums(argnums, len(args))
        with minigrad.enable_grad():
            args, tracked, in_spec = _tracked_args(args, numbers)
            api = "jacfwd(f, ...)(*args)"
            leaves, out_spec, aux, vs, transposed = _linearized(
                lambda *a: _split_aux(func(*a, **kwargs), has_aux, api), args, tracked, api)
            record = _reaches_outside(leaves, tracked)
            columns = [_columns(g, x, vs, record) for g, x in zip(transposed, tracked)]
        own = tracked + vs
        blocks = [_released([columns[j][i] for j in range(len(tracked))], own)
                  for i in range(len(leaves))]
        result = _jacobian_nest(out_spec, in_spec, argnums, blocks)
        if has_aux:
            aux_leaves, aux_spec = flatten(aux)
            return result, unflatten(_released(aux_leaves, own), aux_spec)
        return result
    return wrapper


def _columns(transposed, x, vs, record: bool) -> list:
    """d out / d x for each output (with gradient v): column k of J is the gradient of
    (Jᵀv)[k] with respect to v, for every output at once."""
    flat = transposed.reshape(-1)
    per_element = [_backward([flat[k]], vs, [minigrad.ones_like(flat[k])], record)
                   if transposed.requires_grad else [minigrad.zeros_like(v) for v in vs]
                   for k in range(x.numel())]
    return [_stacked([cols[i] for cols in per_element], x.shape, v.shape, v.dtype).movedim(
        tuple(range(x.dim())), tuple(range(v.dim(), v.dim() + x.dim())))
        for i, v in enumerate(vs)]


def hessian(func, argnums=0):
    """The Hessian of a scalar function: ``jacfwd(jacrev(func, argnums), argnums)``."""
    return jacfwd(jacrev(func, argnums), argnums)
