"""Run the same code on minigrad and on PyTorch and compare everything a learner can see.

Tests write an operation once, as ``fn(lib, *tensors)`` where ``lib`` is either the
``minigrad`` or the ``torch`` module, and hand it NumPy arrays; the helpers build the
twin tensors and compare:

* forward values, dtype, shape, ``requires_grad`` and ``grad_fn.name()`` of every output;
* the whole graph, walked iteratively: every node's name and its ``next_functions``
  as ``(name, input_nr)`` (leaves are named by their position among the inputs);
* the gradient of every input after ``backward`` with a random upstream gradient;
* the exception type and its exact message for bad input.

``check_numerical`` compares backward with central finite differences in float64
(a random vector-Jacobian product, so it does not rely on minigrad's own
``gradcheck``), and ``check_double_backward`` compares second derivatives with torch.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

FLOAT32 = dict(rtol=1e-5, atol=1e-6)


# ---- inputs -----------------------------------------------------------------

def rand(shape, seed=0, dtype="float32", low=-2.0, high=2.0, away_from=None, gap=0.1):
    """Random values in [low, high) as a NumPy array of ``dtype``.

    ``away_from``: points where the op's derivative is undefined (0 for abs, the
    bounds for clamp); values within ``gap`` of them are pushed away.
    """
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if np.issubdtype(np.dtype(dtype), np.integer):
        return rng.integers(int(low), int(high) + 1, size=shape).astype(dtype)
    values = rng.uniform(low, high, size=shape)
    for point in np.atleast_1d(away_from if away_from is not None else []):
        near = np.abs(values - point) < gap
        values = np.where(near, point + np.where(values >= point, gap, -gap) * 2, values)
    return np.asarray(values, dtype=dtype)


def distinct(shape, seed=0, dtype="float32", scale=1.0):
    """Values that are pairwise at least ``scale / 4`` apart (no ties for max, sort, ...)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    values = (rng.permutation(n) - n / 2) * scale / 2 + rng.uniform(0, scale / 4, n)
    return values.reshape(shape).astype(dtype)


def mirror(arrays, requires_grad=None):
    """The minigrad and torch twins of ``arrays`` (floats require grad unless told)."""
    if requires_grad is None:
        requires_grad = [np.issubdtype(np.asarray(a).dtype, np.floating) for a in arrays]
    elif isinstance(requires_grad, bool):
        requires_grad = [requires_grad] * len(arrays)
    ours, theirs = [], []
    for array, grad in zip(arrays, requires_grad):
        array = np.asarray(array)
        ours.append(mg.tensor(array.copy(), requires_grad=grad))
        theirs.append(torch.tensor(array.copy(), requires_grad=grad))
    return ours, theirs


# ---- comparing tensors and graphs -------------------------------------------

def outputs_of(result) -> list:
    """An op's result as a list of tensors (max(dim) returns (values, indices))."""
    if isinstance(result, (tuple, list)):
        return list(result)
    return [result]


def dtype_name(dtype) -> str:
    return repr(dtype) if isinstance(dtype, mg.dtype) else str(dtype)


def assert_same_tensor(ours, theirs, rtol=FLOAT32["rtol"], atol=FLOAT32["atol"], what="value"):
    """Same type of object, dtype, shape, values, requires_grad and grad_fn name."""
    if theirs is None or not isinstance(theirs, torch.Tensor):
        assert ours == theirs, f"{what}: {ours!r} != {theirs!r}"
        return
    assert isinstance(ours, mg.Tensor), f"{what}: expected a Tensor, got {type(ours).__name__}"
    assert dtype_name(ours.dtype) == dtype_name(theirs.dtype), \
        f"{what}: dtype {ours.dtype} != {theirs.dtype}"
    assert tuple(ours.shape) == tuple(theirs.shape), \
        f"{what}: shape {tuple(ours.shape)} != {tuple(theirs.shape)}"
    expected = theirs.detach().numpy()
    actual = np.asarray(ours._data)
    if theirs.dtype.is_floating_point:
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=what)
    assert ours.requires_grad == theirs.requires_grad, \
        f"{what}: requires_grad {ours.requires_grad} != {theirs.requires_grad}"
    assert ours.is_leaf == theirs.is_leaf, f"{what}: is_leaf {ours.is_leaf} != {theirs.is_leaf}"
    assert node_name(ours.grad_fn, []) == node_name(theirs.grad_fn, []), \
        f"{what}: grad_fn {node_name(ours.grad_fn, [])} != {node_name(theirs.grad_fn, [])}"


def node_name(node, leaves) -> str | None:
    """A node's name; a leaf's AccumulateGrad also says which input it belongs to."""
    if node is None:
        return None
    name = node.name()
    if name == "torch::autograd::AccumulateGrad":
        index = next((i for i, leaf in enumerate(leaves) if leaf is node.variable), "?")
        return f"{name}[{index}]"
    return name


def graph_of(tensors, leaves=()) -> list:
    """Every node reachable from ``tensors``, depth first (iteratively), as
    ``(name, ((next_name, input_nr), ...))``; each node listed once, in visit order."""
    listing, seen = [], set()
    stack = [t.grad_fn for t in reversed(tensors) if t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        edges = tuple((node_name(n, leaves), nr) for n, nr in node.next_functions)
        listing.append((node_name(node, leaves), edges))
        stack.extend(n for n, _ in reversed(node.next_functions) if n is not None)
    return listing


def chain(tensor) -> list:
    """Names along the first edge from ``tensor.grad_fn`` down to a leaf."""
    names, node = [], tensor.grad_fn
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


# ---- the main check ----------------------------------------------------------

def check(fn, *arrays, requires_grad=None, rtol=FLOAT32["rtol"], atol=FLOAT32["atol"],
          backward=True, graph=True, seed=1):
    """Run ``fn`` on minigrad and torch twins of ``arrays`` and compare the results,
    the graphs and (after backward with a random upstream gradient) the gradients."""
    ours_in, theirs_in = mirror(arrays, requires_grad)
    leaves = [t.requires_grad for t in theirs_in]  # (fn may make an input a non-leaf)
    ours_out, theirs_out = fn(mg, *ours_in), fn(torch, *theirs_in)
    if isinstance(theirs_out, bool):
        assert ours_out is theirs_out or (type(ours_out) is bool and ours_out == theirs_out)
        return ours_out, theirs_out
    ours, theirs = outputs_of(ours_out), outputs_of(theirs_out)
    assert len(ours) == len(theirs), f"{len(ours)} outputs, torch has {len(theirs)}"
    for k, (o, t) in enumerate(zip(ours, theirs)):
        assert_same_tensor(o, t, rtol, atol, what=f"output {k}")
    if graph:
        ours_graph, theirs_graph = graph_of(ours, ours_in), graph_of(theirs, theirs_in)
        assert ours_graph == theirs_graph, \
            f"graph differs:\n  minigrad: {ours_graph}\n  torch:    {theirs_graph}"
    if backward:
        picked = [k for k, t in enumerate(theirs) if t.requires_grad]
        if picked:
            rng = np.random.default_rng(seed)
            grads = [rng.standard_normal(theirs[k].shape).astype(theirs[k].detach().numpy().dtype)
                     for k in picked]
            torch.autograd.backward([theirs[k] for k in picked],
                                    [torch.tensor(g) for g in grads])
            mg.autograd.backward([ours[k] for k in picked], [mg.tensor(g) for g in grads])
            for i, (o, t) in enumerate(zip(ours_in, theirs_in)):
                if leaves[i] and t.is_leaf:
                    assert_same_tensor(o.grad, t.grad, rtol, max(atol, 1e-5),
                                       what=f"grad of input {i}")
    return ours_out, theirs_out


def check_error(fn, *arrays, requires_grad=None, match_type=True):
    """``fn`` fails on torch; minigrad must raise the same type with the same text."""
    ours_in, theirs_in = mirror(arrays, requires_grad)
    with pytest.raises(Exception) as theirs:
        fn(torch, *theirs_in)
    with pytest.raises(Exception) as ours:
        fn(mg, *ours_in)
    if match_type:
        assert type(ours.value) is type(theirs.value), (
            f"{type(ours.value).__name__}: {ours.value} != "
            f"{type(theirs.value).__name__}: {theirs.value}")
    assert str(ours.value) == str(theirs.value), \
        f"message differs:\n  minigrad: {ours.value}\n  torch:    {theirs.value}"
    return str(theirs.value)


def outcome(call, lib):
    """What ``call(lib)`` gives, comparable across libraries: ``("result", repr)`` or
    ``("error", type name, message)``."""
    try:
        return ("result", repr(call(lib)))
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return ("error", type(error).__name__, str(error))


# ---- finite differences and double backward ----------------------------------

def check_numerical(fn, *arrays, requires_grad=None, eps=1e-6, rtol=1e-5, atol=1e-7,
                    seed=2):
    """Backward of ``fn`` on minigrad float64 tensors against central differences.

    For a random upstream ``v`` the gradient of L(x) = sum(v * fn(x)) is compared, element by
    element, with (L(x + eps e_j) - L(x - eps e_j)) / (2 eps). ``fn`` receives minigrad
    tensors (call it with ``mg`` bound) and may return a tensor or a tuple; only float
    outputs count.
    """
    arrays = [np.asarray(a, np.float64) if np.issubdtype(np.asarray(a).dtype, np.floating)
              else np.asarray(a) for a in arrays]
    inputs, _ = mirror(arrays, requires_grad)
    rng = np.random.default_rng(seed)
    outs = [o for o in outputs_of(fn(*inputs)) if o.dtype.is_floating_point]
    weights = [rng.standard_normal(o.shape) for o in outs]

    def loss() -> float:  # (not under no_grad: fn may itself differentiate)
        outs = [o for o in outputs_of(fn(*inputs)) if o.dtype.is_floating_point]
        return float(sum((np.asarray(o._data, np.float64) * w).sum()
                         for o, w in zip(outs, weights)))

    wanted = [x for x in inputs if x.requires_grad]
    differentiable = [(o, w) for o, w in zip(outs, weights) if o.requires_grad]
    assert differentiable, "no output requires grad"
    analytic = mg.autograd.grad([o for o, _ in differentiable],
                                wanted, [mg.tensor(w) for _, w in differentiable],
                                allow_unused=True)
    for index, (x, grad) in enumerate(zip(wanted, analytic)):
        flat = x._data.reshape(-1)  # a view: nudging it nudges x
        numeric = np.empty(flat.size)
        for j in range(flat.size):
            original = flat[j]
            flat[j] = original + eps
            plus = loss()
            flat[j] = original - eps
            minus = loss()
            flat[j] = original
            numeric[j] = (plus - minus) / (2 * eps)
        got = np.zeros(flat.size) if grad is None else np.asarray(grad._data).reshape(-1)
        np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol,
                                   err_msg=f"input {index}: backward vs finite differences")


def first_derivative(lib, fn, inputs, seed=3):
    """sum_i w_i * d(sum(v * fn(x)))/dx_i with create_graph=True: a scalar whose
    gradient is a Hessian-vector product (random v and w, same on both libraries)."""
    rng = np.random.default_rng(seed)
    outs = [o for o in outputs_of(fn(lib, *inputs)) if o.requires_grad]
    upstream = [lib.tensor(rng.standard_normal(tuple(o.shape)).astype(
        np.float64 if o.dtype == lib.float64 else np.float32)) for o in outs]
    grads = lib.autograd.grad(outs, inputs, upstream, create_graph=True, allow_unused=True)
    total = None
    for x, g in zip(inputs, grads):
        if g is None:
            continue
        w = lib.tensor(rng.standard_normal(tuple(x.shape)).astype(
            np.float64 if x.dtype == lib.float64 else np.float32))
        term = (g * w).sum()
        total = term if total is None else total + term
    return grads, total


def check_double_backward(fn, *arrays, rtol=1e-4, atol=1e-5, numerical=True):
    """Second derivatives of ``fn(lib, *x)`` against torch, and (float64) against
    central differences of the first derivative."""
    ours_in, theirs_in = mirror(arrays)
    ours_grads, ours_total = first_derivative(mg, fn, ours_in)
    theirs_grads, theirs_total = first_derivative(torch, fn, theirs_in)
    for k, (o, t) in enumerate(zip(ours_grads, theirs_grads)):
        assert (o is None) == (t is None), f"first derivative {k}: {o!r} vs {t!r}"
        if t is not None:
            np.testing.assert_allclose(o._data, t.detach().numpy(), rtol=rtol, atol=atol)
            assert o.requires_grad == t.requires_grad, f"first derivative {k} requires_grad"
    assert (ours_total is not None and ours_total.requires_grad) == \
        (theirs_total is not None and theirs_total.requires_grad)
    if theirs_total is None or not theirs_total.requires_grad:
        return
    ours_second = mg.autograd.grad(ours_total, ours_in, allow_unused=True)
    theirs_second = torch.autograd.grad(theirs_total, theirs_in, allow_unused=True)
    for k, (o, t) in enumerate(zip(ours_second, theirs_second)):
        expected = np.zeros(arrays[k].shape) if t is None else t.numpy()
        actual = np.zeros(arrays[k].shape) if o is None else o._data
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol,
                                   err_msg=f"second derivative wrt input {k}")
    if numerical:
        check_numerical(lambda *xs: first_derivative(mg, fn, list(xs))[1], *arrays)


# ---- bit for bit at kinks and ties -------------------------------------------

def same_bits(ours, theirs) -> bool:
    """The same dtype, shape and bits (signs of zeros too; any NaN equals any NaN:
    NumPy's and PyTorch's NaNs differ in a sign bit no program can see)."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    if ours.dtype != theirs.dtype or ours.shape != theirs.shape:
        return False
    if ours.dtype.kind in "fc":
        ours, theirs = ours.copy(), theirs.copy()
        ours[np.isnan(ours)] = np.nan
        theirs[np.isnan(theirs)] = np.nan
    return np.array_equal(np.atleast_1d(ours).view(np.uint8),
                          np.atleast_1d(theirs).view(np.uint8))


def _array_of(grad):
    """A gradient's array (torch's sign and sgn give a ZeroTensor: numpy(force=True))."""
    return (grad.numpy(force=True) if isinstance(grad, torch.Tensor) else grad.numpy()).copy()


def check_bits(fn, *arrays):
    """``fn(lib, *x)``'s outputs, then the gradients of its float inputs after a backward
    of the first output with a non-constant upstream gradient (0.3 to 2.1), bit for bit
    as torch's: for points where an op changes piece (kinks, ties, -0., inf, NaN)."""
    results = []
    for lib in (mg, torch):
        inputs = [lib.tensor(np.array(a), requires_grad=np.asarray(a).dtype.kind == "f")
                  for a in arrays]
        outputs = outputs_of(fn(lib, *inputs))
        values = [out.detach().numpy().copy() for out in outputs]
        grads = []
        if outputs[0].requires_grad:
            count = max(outputs[0].numel(), 1)
            upstream = np.linspace(0.3, 2.1, count).reshape(tuple(outputs[0].shape))
            outputs[0].backward(lib.tensor(upstream.astype(values[0].dtype)))
            grads = [None if x.grad is None else _array_of(x.grad) for x in inputs]
        results.append((values, grads))
    (ours, our_grads), (theirs, their_grads) = results
    for k, (o, t) in enumerate(zip(ours, theirs)):
        assert same_bits(o, t), f"output {k}: {o!r} vs torch's {t!r}"
    assert len(our_grads) == len(their_grads)
    for k, (o, t) in enumerate(zip(our_grads, their_grads)):
        assert (o is None) == (t is None), f"gradient {k}: {o!r} vs torch's {t!r}"
        assert o is None or same_bits(o, t), f"gradient {k}: {o!r} vs torch's {t!r}"
