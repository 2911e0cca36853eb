"""torch.autograd.functional (jacobian, hessian, vjp, jvp, vhp, hvp) against PyTorch:
the same nesting of tuples, shapes, values, grad_fn names with create_graph, printed
text, and error texts (strict mode, bad v, bad outputs), on programs: an MLP's loss, a
function of two tensors, scalar and vector outputs. Each result is also checked against
central finite differences in float64."""

import doctest
import importlib

import numpy as np
import pytest
import torch

import minigrad as mg

RNG = np.random.default_rng(29)
X = RNG.standard_normal((3,))
M = RNG.standard_normal((2, 3))
W1 = RNG.standard_normal((4, 3)) * 0.5
W2 = RNG.standard_normal((1, 4)) * 0.5
BATCH = RNG.standard_normal((5, 3))
TARGET = RNG.standard_normal((5, 1))


def structure(value):
    """The nesting, shapes, dtypes, values and grad_fn names of a result."""
    if isinstance(value, tuple):
        return ("tuple", [structure(v) for v in value])
    if value is None:
        return None
    grad_fn = value.grad_fn.name() if value.grad_fn is not None else None
    return (tuple(value.shape), str(value.dtype).replace("minigrad", "torch"),
            np.asarray(value.detach().tolist()), value.requires_grad, grad_fn)


def assert_same(ours, theirs, rtol=1e-6, atol=1e-9):
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs), (ours, theirs)
        for a, b in zip(ours, theirs):
            assert_same(a, b, rtol, atol)
        return
    a, b = structure(ours), structure(theirs)
    assert a[0] == b[0] and a[1] == b[1] and a[3:] == b[3:], (a, b)
    np.testing.assert_allclose(a[2], b[2], rtol=rtol, atol=atol)


def run_both(call, *arrays, dtype="float64", **options):
    results = []
    for lib in (mg, torch):
        tensors = tuple(lib.tensor(a, dtype=getattr(lib, dtype)) for a in arrays)
        results.append(call(lib, tensors, **options))
    return results


# ---- the functions learners differentiate -----------------------------------------

def mlp_loss(lib):
    data = lib.tensor(BATCH, dtype=lib.float64)
    target = lib.tensor(TARGET, dtype=lib.float64)

    def loss(w1, w2):
        hidden = lib.tanh(data @ w1.t())
        return ((hidden @ w2.t() - target) ** 2).mean()
    return loss


def two_tensors(lib):
    return lambda x, m: (m * x).sigmoid().sum(dim=1) * x[:2]


def vector_out(lib):
    return lambda x: lib.stack([x[0] * x[1], x[1].exp(), (x ** 2).sum()])


def scalar_out(lib):
    return lambda x: (x.sin() * x).sum()


def two_outputs(lib):
    return lambda x, m: (x * 2, (m @ x).tanh())


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("vectorize", [False, True])
@pytest.mark.parametrize("make,arrays,tupled", [
    (mlp_loss, (W1, W2), True),
    (two_tensors, (X, M), True),
    (vector_out, (X,), False),
    (scalar_out, (X,), False),
    (two_outputs, (X, M), True),
], ids=["mlp-loss", "two-tensors", "vector-output", "scalar-output", "two-outputs"])
def test_jacobian_matches_torch(make, arrays, tupled, create_graph, vectorize):
    def call(lib, tensors):
        inputs = tensors if tupled else tensors[0]
        if create_graph:
            inputs = tuple(t.requires_grad_() for t in tensors) if tupled else \
                tensors[0].requires_grad_()
        return lib.autograd.functional.jacobian(make(lib), inputs, create_graph=create_graph,
                                                vectorize=vectorize)
    ours, theirs = run_both(call, *arrays)
    if vectorize and create_graph:  # torch's vmapped graph is another graph: values only
        ours, theirs = _values(ours), _values(theirs)
    assert_same(ours, theirs)


def _values(value):
    if isinstance(value, tuple):
        return tuple(_values(v) for v in value)
    return value.detach()


def numerical_jacobian(fn, arrays, eps=1e-6):
    """d fn / d arrays[k], by central differences, shaped out.shape + input.shape."""
    result = []
    for k, a in enumerate(arrays):
        columns = []
        for j in range(a.size):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k].reshape(-1)[j] += eps
            minus[k].reshape(-1)[j] -= eps
            high = np.asarray(fn(*plus))
            low = np.asarray(fn(*minus))
            columns.append((high - low) / (2 * eps))
        stacked = np.stack(columns, axis=-1)
        result.append(stacked.reshape(np.shape(columns[0]) + a.shape))
    return result


def test_jacobian_and_hessian_of_the_mlp_loss_against_finite_differences():
    loss = mlp_loss(mg)

    def value(w1, w2):
        return loss(mg.tensor(w1), mg.tensor(w2)).item()

    def gradient(w1, w2):
        a, b = mg.tensor(w1, requires_grad=True), mg.tensor(w2, requires_grad=True)
        return np.concatenate([g.numpy().ravel() for g in mg.autograd.grad(loss(a, b), (a, b))])

    jac = mg.autograd.functional.jacobian(loss, (mg.tensor(W1), mg.tensor(W2)))
    expected = numerical_jacobian(value, [W1.copy(), W2.copy()])
    for ours, numerical in zip(jac, expected):
        np.testing.assert_allclose(ours.numpy(), numerical, rtol=1e-5, atol=1e-8)
    hess = mg.autograd.functional.hessian(loss, (mg.tensor(W1), mg.tensor(W2)))
    numerical = numerical_jacobian(gradient, [W1.copy(), W2.copy()])  # rows: all of w1, w2
    for j, column in enumerate(numerical):
        rows = np.split(column.reshape(16, -1), [12])
        for i, row in enumerate(rows):
            np.testing.assert_allclose(hess[i][j].numpy().reshape(row.shape), row,
                                       rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("make,arrays,tupled", [
    (mlp_loss, (W1, W2), True),
    (scalar_out, (X,), False),
], ids=["mlp-loss", "scalar-output"])
def test_hessian_matches_torch(make, arrays, tupled, create_graph):
    def call(lib, tensors):
        inputs = tensors if tupled else tensors[0]
        return lib.autograd.functional.hessian(make(lib), inputs, create_graph=create_graph)
    ours, theirs = run_both(call, *arrays)
    assert_same(ours, theirs)


V_OUT = RNG.standard_normal((3,))
V_PAIR = (RNG.standard_normal((3,)), RNG.standard_normal((2, 3)))


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name,make,arrays,v,tupled", [
    ("vjp", vector_out, (X,), (V_OUT,), False),
    ("vjp", mlp_loss, (W1, W2), None, True),
    ("vjp", two_outputs, (X, M), (X, M[:, 0]), "v-tuple"),
    ("jvp", vector_out, (X,), (V_OUT,), False),
    ("jvp", two_tensors, (X, M), V_PAIR, True),
    ("jvp", two_outputs, (X, M), V_PAIR, True),
    ("vhp", scalar_out, (X,), (V_OUT,), False),
    ("vhp", mlp_loss, (W1, W2), (W1 * 0.3, W2 - 1), True),
    ("hvp", scalar_out, (X,), (V_OUT,), False),
    ("hvp", mlp_loss, (W1, W2), (W1 * 0.3, W2 - 1), True),
], ids=lambda v: v if isinstance(v, str) else None)
def test_products_with_a_vector_match_torch(name, make, arrays, v, tupled, create_graph):
    def call(lib, tensors):
        inputs = tensors if tupled else tensors[0]
        if create_graph:
            for t in tensors:
                t.requires_grad_()
        vector = None
        if v is not None:
            vs = tuple(lib.tensor(a, dtype=lib.float64) for a in v)
            vector = vs if tupled else vs[0]
        return getattr(lib.autograd.functional, name)(make(lib), inputs, vector,
                                                       create_graph=create_graph)
    ours, theirs = run_both(call, *arrays)
    assert_same(ours, theirs)
    assert repr(ours).replace("minigrad", "torch").split("tensor")[0] == \
        repr(theirs).split("tensor")[0]


def test_printed_results_are_torchs():
    def call(lib, tensors):
        x, m = tensors
        return (lib.autograd.functional.jacobian(lambda x, m: (m * x).sum(dim=1), (x, m)),
                lib.autograd.functional.vjp(lambda x: x.exp().sum(dim=1), m, x[:2]),
                lib.autograd.functional.hvp(lambda x: (x ** 3).sum(), x, x))
    ours, theirs = run_both(call, np.array([1.0, 2.0, 0.5]),
                            np.array([[1.0, -1.0, 2.0], [0.5, 0.0, 3.0]]), dtype="float32")
    assert repr(ours) == repr(theirs)


def test_float32_in_float32_out():
    ours, theirs = run_both(lambda lib, t: lib.autograd.functional.jacobian(
        lambda x: x.tanh() * 3, t[0]), X, dtype="float32")
    assert_same(ours, theirs, rtol=1e-6, atol=1e-7)


# ---- strict mode and bad arguments: PyTorch's texts -------------------------------

def outcome(call, lib):
    try:
        call(lib)
    except Exception as error:  # noqa: BLE001
        return type(error).__name__, str(error).replace("minigrad", "torch")
    return None


F = "functional"


def both(call):
    ours, theirs = outcome(call, mg), outcome(call, torch)
    assert theirs is not None
    assert ours == theirs


def x_of(lib, requires_grad=False):
    return lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=requires_grad)


ERRORS = {
    "jacobian-strict-independent": lambda lib: lib.autograd.functional.jacobian(
        lambda x, y: x * 2, (x_of(lib), x_of(lib)), strict=True),
    "jacobian-strict-constant-output": lambda lib: lib.autograd.functional.jacobian(
        lambda x: lib.ones(2), x_of(lib), strict=True),
    "jacobian-strict-linear-create-graph": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * 2, x_of(lib, True), strict=True, create_graph=True),
    "jacobian-strict-vectorize": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * x, x_of(lib), strict=True, vectorize=True),
    "jacobian-bad-strategy": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * x, x_of(lib), strategy="sideways"),
    "jacobian-forward-mode-not-vectorized": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * x, x_of(lib), strategy="forward-mode"),
    "jacobian-forward-mode-create-graph": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * x, x_of(lib), strategy="forward-mode", create_graph=True,
        vectorize=True),
    "jacobian-forward-mode-strict": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * x, x_of(lib), strategy="forward-mode", strict=True, vectorize=True),
    "jacobian-input-list": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * x, [x_of(lib)]),
    "jacobian-input-number": lambda lib: lib.autograd.functional.jacobian(
        lambda x: x * x, 3.0),
    "jacobian-output-number": lambda lib: lib.autograd.functional.jacobian(
        lambda x: 3.0, x_of(lib)),
    "jacobian-output-tuple-with-number": lambda lib: lib.autograd.functional.jacobian(
        lambda x: (x, 3.0), x_of(lib)),
    "vjp-no-v-for-a-vector": lambda lib: lib.autograd.functional.vjp(
        lambda x: x * x, x_of(lib)),
    "vjp-v-wrong-size": lambda lib: lib.autograd.functional.vjp(
        lambda x: x * x, x_of(lib), lib.ones(2, dtype=lib.float64)),
    "vjp-v-wrong-count": lambda lib: lib.autograd.functional.vjp(
        lambda x: (x, x), x_of(lib), (lib.ones(3, dtype=lib.float64),)),
    "vjp-v-tuple-for-one": lambda lib: lib.autograd.functional.vjp(
        lambda x: x * x, x_of(lib), (x_of(lib), x_of(lib))),
    "vjp-v-entry-wrong-size": lambda lib: lib.autograd.functional.vjp(
        lambda x: (x, x), x_of(lib), (x_of(lib), lib.ones(1, dtype=lib.float64))),
    "vjp-strict-independent": lambda lib: lib.autograd.functional.vjp(
        lambda x, y: x.sum(), (x_of(lib), x_of(lib)), strict=True),
    "vjp-strict-output-without-grad": lambda lib: lib.autograd.functional.vjp(
        lambda x: lib.ones(()), x_of(lib), strict=True),
    "jvp-no-v-for-a-vector": lambda lib: lib.autograd.functional.jvp(
        lambda x: x * x, x_of(lib)),
    "jvp-strict-linear": lambda lib: lib.autograd.functional.jvp(
        lambda x, y: x * 2, (x_of(lib), x_of(lib)), (x_of(lib), x_of(lib)), strict=True),
    "hessian-vector-output": lambda lib: lib.autograd.functional.hessian(
        lambda x: x * x, x_of(lib)),
    "hessian-tuple-output": lambda lib: lib.autograd.functional.hessian(
        lambda x: (x.sum(),), x_of(lib)),
    "hessian-strict-linear": lambda lib: lib.autograd.functional.hessian(
        lambda x: x.sum() * 2, x_of(lib), strict=True),
    "hessian-strict-quadratic": lambda lib: lib.autograd.functional.hessian(
        lambda x: (x * x).sum(), x_of(lib), strict=True, create_graph=True),
    "hessian-bad-strategy": lambda lib: lib.autograd.functional.hessian(
        lambda x: (x * x).sum(), x_of(lib), outer_jacobian_strategy="up"),
    "vhp-vector-output": lambda lib: lib.autograd.functional.vhp(
        lambda x: x * x, x_of(lib), x_of(lib)),
    "vhp-strict-linear": lambda lib: lib.autograd.functional.vhp(
        lambda x: x.sum() * 2, x_of(lib), x_of(lib), strict=True),
    "vhp-no-v": lambda lib: lib.autograd.functional.vhp(lambda x: (x * x).sum(), x_of(lib)),
    "hvp-two-element-output": lambda lib: lib.autograd.functional.hvp(
        lambda x: x[:2] * 2, x_of(lib), x_of(lib)),
    "hvp-strict-quadratic": lambda lib: lib.autograd.functional.hvp(
        lambda x, y: (x * x).sum() + y.sum(), (x_of(lib), x_of(lib)), (x_of(lib), x_of(lib)),
        strict=True),
    "hvp-strict-linear": lambda lib: lib.autograd.functional.hvp(
        lambda x: x.sum() * 2, x_of(lib), x_of(lib), strict=True),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_torchs(name):
    both(ERRORS[name])


def test_not_strict_gives_zeros_for_an_unused_input():
    def call(lib, tensors):
        x, y = tensors
        return (lib.autograd.functional.jacobian(lambda x, y: x * 2, (x, y)),
                lib.autograd.functional.vjp(lambda x, y: (x * 2).sum(), (x, y)),
                lib.autograd.functional.hessian(lambda x, y: (x ** 3).sum(), (x, y)))
    ours, theirs = run_both(call, X, M)
    assert_same(ours, theirs)


def test_inputs_are_not_changed_and_results_have_no_history():
    x = mg.tensor(X, requires_grad=True)
    jac = mg.autograd.functional.jacobian(lambda t: t.exp(), x)
    assert x.grad is None and not jac.requires_grad and jac.grad_fn is None
    with mg.no_grad():  # the function still sees grad mode on, as in torch
        out, g = mg.autograd.functional.vjp(lambda t: t.exp().sum(), x)
    np.testing.assert_allclose(g.numpy(), np.exp(X))


# ---- the docstrings' examples run, in minigrad and in PyTorch ----------------------

@pytest.mark.parametrize("module", ["minigrad.autograd.functional", "minigrad.autograd.gradcheck"])
@pytest.mark.parametrize("lib", ["minigrad", "torch"])
def test_docstring_examples_print_what_they_say(module, lib):
    found = doctest.DocTestFinder().find(importlib.import_module(module))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in found:
        for example in test.examples:
            if lib == "torch":
                example.source = example.source.replace("import minigrad as torch",
                                                        "import torch")
                example.source = example.source.replace("from minigrad.", "from torch.")
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 6 and result.failed == 0
