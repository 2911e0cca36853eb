"""Matrix products (``minigrad/ops/linalg.py``) against PyTorch 2.13: values, dtype, shape,
the graph (node names and ``next_functions``), the gradient of every input, and the errors
for bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries (see
``torch_compare.py``; the shared arrays are in ``op_cases.py``)."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from op_cases import case, run
from torch_compare import chain, check, check_error, check_numerical, outcome, rand


MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)), ((5, 2, 3), (3,)), ((3,), (5, 3, 4)), ((2, 3), (5, 3, 4)),
    ((5, 2, 3), (5, 3, 4)), ((1, 2, 3), (5, 3, 4)), ((5, 2, 3), (1, 3, 4)),
    ((2, 1, 2, 3), (5, 3, 4)), ((2, 5, 2, 3), (3, 4)), ((2, 5, 2, 3), (3,)),
    ((3,), (2, 1, 3, 4)), ((2, 1, 2, 3), (1, 5, 3, 4)),
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=lambda s: f"{s[0]}@{s[1]}")
@pytest.mark.parametrize("grads", [(True, True), (True, False), (False, True)],
                         ids=["both", "lhs", "rhs"])
def test_matmul_graph_values_grads(shapes, grads):
    a, b = rand(shapes[0], seed=20), rand(shapes[1], seed=21)
    check(lambda lib, x, y: x @ y, a, b, requires_grad=list(grads))
    check(lambda lib, x, y: lib.matmul(x, y), a, b, requires_grad=list(grads))


@pytest.mark.parametrize("shapes", [((5, 3, 2), (3, 4)), ((5, 3, 2), (3,)),
                                    ((4, 5, 2, 3), (3, 4))], ids=str)
@pytest.mark.parametrize("grads", [(True, True), (True, False)], ids=["both", "lhs"])
def test_matmul_of_transposed_batches(shapes, grads):
    """A non-contiguous batch cannot be folded into one mm without a copy."""
    a, b = rand(shapes[0], seed=22), rand(shapes[1], seed=23)
    check(lambda lib, x, y: x.transpose(-1, -2) @ y if x.ndim == 3 else x.transpose(0, 1) @ y,
          a, b, requires_grad=list(grads))


def test_one_d_times_two_d_chain():
    a, b = rand((3,), seed=24), rand((3, 4), seed=25)
    ours, theirs = check(lambda lib, x, y: x @ y, a, b)
    assert chain(ours) == chain(theirs) == [
        "SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0",
        "torch::autograd::AccumulateGrad"]


MATRIX_FUNCTIONS = [
    case(lambda lib, x, y: x.mm(y), rand((2, 3)), rand((3, 4), seed=1), id="mm"),
    case(lambda lib, x, y: lib.mm(x, y), rand((2, 3)), rand((3, 4), seed=1), id="torch.mm"),
    case(lambda lib, x, y: x.mv(y), rand((2, 3)), rand((3,), seed=1), id="mv"),
    case(lambda lib, x, y: lib.mv(x, y), rand((2, 3)), rand((3,), seed=1), id="torch.mv"),
    case(lambda lib, x, y: x.dot(y), rand((3,)), rand((3,), seed=1), id="dot"),
    case(lambda lib, x, y: lib.dot(x, y), rand((3,)), rand((3,), seed=1), id="torch.dot"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((2, 3, 4), seed=1), id="bmm"),
    case(lambda lib, x, y: lib.bmm(x, y), rand((2, 2, 3)), rand((2, 3, 4), seed=1),
         id="torch.bmm"),
    case(lambda lib, x, y: x.mm(y.t()), rand((2, 3)), rand((4, 3), seed=1), id="mm-t"),
    case(lambda lib, x, y: x.t().mm(y), rand((3, 2)), rand((3, 4), seed=1), id="t-mm"),
    case(lambda lib, x, y: x @ y, rand((2, 3)).astype(np.float64),
         rand((3, 2), seed=1).astype(np.float64), id="matmul-float64"),
]


@pytest.mark.parametrize("fn, arrays, options", MATRIX_FUNCTIONS)
def test_matrix_functions(fn, arrays, options):
    run(fn, arrays, options)


MATMUL_ERRORS = [
    case(lambda lib, x, y: x @ y, rand((2, 3)), rand((4, 2)), id="mm-shapes"),
    case(lambda lib, x, y: x @ y, rand((3,)), rand((4,)), id="dot-shapes"),
    case(lambda lib, x, y: x @ y, rand((2, 3)), rand((4,)), id="mv-shapes"),
    case(lambda lib, x, y: x @ y, rand((3,)), rand((4, 2)), id="vm-shapes"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((4, 2)), id="folded-shapes"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((4, 2)),
         requires_grad=False, id="folded-shapes-no-grad"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((5, 4, 2)), id="bmm-shapes"),
    case(lambda lib, x, y: x @ y, rand((5, 2, 3)), rand((4, 3, 2)), id="batch-broadcast"),
    case(lambda lib, x, y: x @ y, rand(()), rand((3,)), id="0-dim"),
    case(lambda lib, x, y: x @ y, rand((2, 3)), rand((3, 2)).astype(np.float64),
         id="dtypes"),
    case(lambda lib, x, y: x.mm(y), rand((3,)), rand((3, 2)), id="mm-vector"),
    case(lambda lib, x, y: x.mm(y), rand((2, 3)), rand((3,)), id="mm-vector-rhs"),
    case(lambda lib, x, y: x.mm(y), rand((2, 3)), rand((2, 3)), id="mm-mismatch"),
    case(lambda lib, x, y: x.mv(y), rand((2, 3)), rand((2,)), id="mv-mismatch"),
    case(lambda lib, x, y: x.mv(y), rand((3,)), rand((3,)), id="mv-vector"),
    case(lambda lib, x, y: x.dot(y), rand((2, 3)), rand((3,)), id="dot-matrix"),
    case(lambda lib, x, y: x.dot(y), rand((3,)), rand((2,)), id="dot-mismatch"),
    case(lambda lib, x, y: x.dot(y.double()), rand((3,)), rand((2,)), id="dot-dtype-before-size"),
    case(lambda lib, x, y: lib.mv(x, y), rand(()), rand(()), id="mv-0-dim"),
    # (baddbmm reads the result's sizes, then expands the bias, then checks the dims)
    case(lambda lib, x, y: lib.baddbmm(x, x, y), rand((2, 3)), rand((2, 3)), id="baddbmm-2-dim"),
    case(lambda lib, x, y: lib.baddbmm(x, x, y), rand((4,)), rand((4,)), id="baddbmm-1-dim"),
    case(lambda lib, x, y: lib.baddbmm(x, x, y), rand(()), rand(()), id="baddbmm-0-dim"),
    case(lambda lib, x, y: lib.baddbmm(x, y[:, :, :4], y), rand((2, 3, 5)), rand((2, 3, 4)),
         id="baddbmm-bias-expands-first"),
    case(lambda lib, x, y: lib.baddbmm(x, y, y[0]), rand((2, 3, 5)), rand((2, 3, 4)),
         id="baddbmm-batch2-2-dim"),
    case(lambda lib, x, y: x.dot(y), rand((3,)), rand((3,)).astype(np.float64),
         id="dot-dtypes"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 3)), rand((2, 3, 4)), id="bmm-2d"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((3, 4)), id="bmm-2d-rhs"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((3, 3, 4)), id="bmm-batch"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((2, 2, 4)), id="bmm-inner"),
    # (addbmm: the bias expanded to (batch1.size(1), batch2.size(2)) first, then its own
    # texts for dims, batches and sizes; the dtypes as addmm_ of each batch checks them)
    case(lambda lib, x, y: lib.addbmm(x[0, :, :1], x, y), rand((2, 2, 3)), rand((3, 3, 1)),
         id="addbmm-batches"),
    case(lambda lib, x, y: lib.addbmm(x[0, :, :1], x, y), rand((2, 2, 3)), rand((2, 4, 1)),
         id="addbmm-inner"),
    case(lambda lib, x, y: lib.addbmm(x[0, :, :1], x[0], y), rand((2, 2, 3)), rand((2, 4, 1)),
         id="addbmm-2d-expands-first"),
    case(lambda lib, x, y: lib.addbmm(x[0, :, :1], x, y[0]), rand((2, 2, 3)), rand((2, 3, 1)),
         id="addbmm-batch2-2d"),
    case(lambda lib, x, y: lib.addbmm(x[0, :, :1], x, y.double()), rand((2, 2, 3)),
         rand((2, 3, 1)), id="addbmm-dtypes"),
    case(lambda lib, x, y: lib.addbmm(x[0, :, :1].double(), x.long(), y.long()), rand((2, 2, 3)),
         rand((2, 3, 1)), requires_grad=False, id="addbmm-bias-dtype"),
    case(lambda lib, x, y: lib.addbmm(x[0, :, :1], x.bool(), y), rand((2, 2, 3)),
         rand((2, 3, 1)), requires_grad=False, id="addbmm-mat1-dtype"),
]


@pytest.mark.parametrize("source", [
    "lib.bmm(z(lib.float32, (1, 2, 0)), z(lib.bool, (1, 0, 1)))",
    "lib.bmm(z(lib.bool, (1, 2, 0)), z(lib.float32, (1, 0, 1)))",
    "lib.bmm(z(lib.float32, (0, 2, 3)), z(lib.int64, (0, 3, 1)))",
    "lib.bmm(z(lib.float32, (1, 2, 3)), z(lib.int64, (1, 3, 0)))",
    "lib.einsum('ij,j->i', z(lib.float32, (2, 0)), z(lib.bool, (0,)))",
    "lib.einsum('i,i,j->j', z(lib.bool, (0,)), z(lib.float64, (0,)), z(lib.int64, (2,)))",
    "lib.addbmm(z(lib.float32, (2, 1)), z(lib.int64, (0, 2, 3)), z(lib.int64, (0, 3, 1)))",
    "lib.addbmm(z(lib.float32, (2, 1)), z(lib.int64, (1, 2, 0)), z(lib.int64, (1, 0, 1)))",
    "lib.addbmm(z(lib.bool, (2, 1)), z(lib.bool, (0, 2, 3)), z(lib.bool, (0, 3, 1)))",
])
def test_empty_products_of_two_dtypes_are_torchs(source):
    """bmm compares its operands' dtypes only where it has products to sum (an empty
    result or inner dim: zeros of batch2's dtype; einsum of a summed empty dim meets
    it, wide seed 40860); addbmm with no batch: its bias's dtype."""
    def call(lib):
        y = eval(source, {"lib": lib, "z": lambda dtype, shape: lib.zeros(shape, dtype=dtype)})
        return y, y.dtype
    assert outcome(call, mg) == outcome(call, torch)


def test_empty_bmm_of_two_dtypes_backward_as_torch():
    grads = []
    for lib in (torch, mg):
        a = lib.zeros((2, 0), requires_grad=True)
        b = lib.zeros(0, dtype=lib.float64, requires_grad=True)
        y = lib.einsum("ij,j->i", a, b)
        y.sum().backward()
        grads.append((repr(y), type(y.grad_fn).__name__, repr(a.grad), repr(b.grad)))
    assert grads[0] == tuple(g.replace("minigrad", "torch") for g in grads[1])


@pytest.mark.parametrize("fn, arrays, options", MATMUL_ERRORS)
def test_matmul_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)


# ---- cross and torch.addmm (added with the tutorials' functions) -------------------------

_A = np.random.default_rng(20).standard_normal((5, 3)).astype(np.float32)
_B = np.random.default_rng(21).standard_normal((5, 3)).astype(np.float32)


@pytest.mark.parametrize("fn", [
    lambda lib, a, b: lib.cross(a, b, dim=1),
    lambda lib, a, b: a.cross(b, -1),
    lambda lib, a, b: lib.cross(a.double(), b.double(), dim=1),
    lambda lib, a, b: lib.cross(a.t(), b.t(), 0),
    lambda lib, a, b: lib.addmm(a[:, :2], a, b.t()[:, :2]),
    lambda lib, a, b: a[:, :2].addmm(a, b.t()[:, :2], beta=0.5, alpha=2.0),
], ids=["cross", "cross-method", "cross-float64", "cross-dim0", "addmm", "addmm-method"])
def test_cross_and_addmm_are_torchs(fn):
    check(fn, _A, _B)  # (cross's bits: test_cross_bits_on_many_vectors_and_gradient)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cross_bits_on_many_vectors_and_gradient(dtype):
    """PyTorch's kernel fuses each component's multiply-add in float64 too (a vector
    crossed with a multiple of itself gives the products' rounding error, not 0)."""
    rng = np.random.default_rng(22)
    a, b = (rng.standard_normal((10000, 3)).astype(dtype) for _ in range(2))
    b[:100] = a[:100] * dtype(1.1)
    ours = mg.cross(mg.tensor(a), mg.tensor(b), dim=1).numpy()
    theirs = torch.cross(torch.tensor(a), torch.tensor(b), dim=1).numpy()
    assert np.array_equal(ours, theirs)
    check_numerical(lambda x, y: mg.cross(x, y, dim=1), _A, _B)


@pytest.mark.parametrize("call", [
    lambda lib: lib.cross(lib.ones(2, 3), lib.ones(2, 2), dim=1),
    lambda lib: lib.cross(lib.ones(2, 2), lib.ones(2, 2)),
    lambda lib: lib.cross(lib.ones(2, 3), lib.ones(2, 3), dim=2),
    lambda lib: lib.linalg.cross(lib.ones(1, 3), lib.ones(3)),
    lambda lib: lib.linalg.cross(lib.ones(2, 1, 4), lib.ones(2, 0)),
    lambda lib: lib.cross(lib.ones(2, 3), lib.ones(2, 3, dtype=lib.float64), dim=1),
    lambda lib: lib.linalg.cross(lib.ones(2, 3), lib.ones(2, 3).long()),
    lambda lib: lib.linalg.cross(lib.ones(2, 3).long(), lib.ones(1, 3).long()),
    lambda lib: lib.linalg.cross(lib.tensor(1.0), lib.tensor(2.0)),
], ids=["length", "no-dim-of-3", "dim-out-of-range", "dims-differ", "dims-differ-first",
        "dtypes-differ", "float-and-long", "longs-broadcast", "0-dim"])
def test_cross_errors_are_torchs(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(call, mg) == outcome(call, torch)


_M = np.random.default_rng(23).standard_normal((3, 4)).astype(np.float32)
_V = np.random.default_rng(24).standard_normal((4,)).astype(np.float32)
_BIAS = np.random.default_rng(25).standard_normal((3,)).astype(np.float32)
_B1 = np.random.default_rng(26).standard_normal((2, 3, 4)).astype(np.float32)
_B2 = np.random.default_rng(27).standard_normal((2, 4, 5)).astype(np.float32)
_C = np.random.default_rng(28).standard_normal((2, 3, 5)).astype(np.float32)


@pytest.mark.parametrize("fn, arrays", [
    (lambda lib, b, m, v: lib.addmv(b, m, v), (_BIAS, _M, _V)),
    (lambda lib, b, m, v: b.addmv(m, v, beta=0.5, alpha=2.0), (_BIAS, _M, _V)),
    (lambda lib, b, m, v: lib.addmv(b[:1], m, v), (_BIAS, _M, _V)),
    (lambda lib, c, x, y: lib.baddbmm(c, x, y), (_C, _B1, _B2)),
    (lambda lib, c, x, y: c.baddbmm(x, y, beta=2.0, alpha=0.5), (_C, _B1, _B2)),
    (lambda lib, c, x, y: lib.baddbmm(c[0], x, y), (_C, _B1, _B2)),
], ids=["addmv", "addmv-method-scaled", "addmv-broadcast", "baddbmm", "baddbmm-scaled",
        "baddbmm-broadcast"])
def test_addmv_and_baddbmm_are_torchs(fn, arrays):
    check(fn, *arrays)
    check_numerical(lambda *xs: fn(mg, *xs), *arrays)


@pytest.mark.parametrize("call", [
    lambda lib: lib.addmv(lib.ones(3), lib.ones(3, 4), lib.ones(5)),
    lambda lib: lib.addmv(lib.ones(3), lib.ones(3, 4, 1), lib.ones(4)),
    lambda lib: lib.baddbmm(lib.ones(2, 3, 5), lib.ones(2, 3, 4), lib.ones(2, 5, 5)),
    # mixed dtypes: which check comes first, and each one's text
    lambda lib: lib.addmv(lib.ones(2, dtype=lib.float64), lib.ones(2, 3), lib.ones(3)),
    lambda lib: lib.addmv(lib.ones(3), lib.ones(3, 4, dtype=lib.long),
                          lib.ones(4, dtype=lib.float64)),
    lambda lib: lib.addmv(lib.ones(3, dtype=lib.float64), lib.ones(3, 4), lib.ones(5)),
    lambda lib: lib.baddbmm(lib.ones(1, 2, 2), lib.ones(1, 2, 3, dtype=lib.float64),
                            lib.ones(1, 3, 2)),
    lambda lib: lib.baddbmm(lib.ones(2, 3, 5, dtype=lib.float16), lib.ones(2, 3, 4),
                            lib.ones(2, 5, 5)),
    lambda lib: lib.baddbmm(lib.ones(2, 3, 5), lib.ones(2, 3, 4),
                            lib.ones(2, 4, 5, dtype=lib.float64)),
    lambda lib: lib.addmm(lib.ones(2), lib.ones(2, 3, dtype=lib.float64), lib.ones(4, 2)),
    lambda lib: lib.addmm(lib.ones(2), lib.ones(2, 3), lib.ones(3, 2, dtype=lib.float64)),
    lambda lib: lib.addmm(lib.ones(2, dtype=lib.bool), lib.ones(2, 3), lib.ones(3, 2)),
    lambda lib: lib.nn.functional.linear(lib.ones(4, 2, 3, dtype=lib.float64), lib.ones(2, 3),
                                         lib.ones(2)),
    lambda lib: lib.nn.Linear(3, 2)(lib.tensor([[1.0, 2.0, 3.0]], dtype=lib.float64)),
    lambda lib: lib.nn.functional.linear(lib.ones(2, 3), lib.ones(2, 3),
                                         lib.ones(2, dtype=lib.float64)),
], ids=["addmv-sizes", "addmv-dims", "baddbmm-sizes", "addmv-bias-dtype", "addmv-three-dtypes",
        "addmv-sizes-before-dtypes", "baddbmm-batch1-dtype", "baddbmm-half-input",
        "baddbmm-batch2-dtype", "addmm-mat1-dtype-before-sizes", "addmm-mat2-dtype",
        "addmm-bool-bias", "linear-3d-float64-input", "Linear-module-float64-input",
        "linear-float64-bias"])
def test_addmv_and_baddbmm_errors_are_torchs(call):
    assert outcome(call, mg) == outcome(call, torch)


BOOL_PRODUCTS = [
    "torch.mm(B(2, 3), B(3, 2))", "torch.mm(B(2, 0), B(0, 2))", "torch.mm(B(0, 3), B(3, 2))",
    "torch.mv(B(2, 3), B(3))", "torch.mv(B(2, 0), B(0))", "torch.mv(B(0, 2), B(2))",
    "torch.bmm(B(1, 2, 2), B(1, 2, 2))", "torch.bmm(B(0, 2, 2), B(0, 2, 2))",
    "torch.bmm(B(1, 2, 0), B(1, 0, 2))", "torch.bmm(B(1, 0, 2), B(1, 2, 2))",
    "torch.dot(B(2), B(2))", "torch.dot(B(0), B(0))",
    "torch.matmul(B(2, 1, 4), B(4))", "torch.matmul(B(4), B(4, 2))", "torch.matmul(B(4), B(2, 4, 2))",
    "torch.matmul(B(2, 3, 4), B(4, 2))", "torch.matmul(B(2, 3, 4), B(2, 4, 2))",
    "torch.matmul(B(2, 0), B(0))", "B(3, 4) @ B(4, 2)",
    "torch.addmm(B(2, 2), B(2, 2), B(2, 2))", "torch.addmm(B(2, 2), B(2, 0), B(0, 2))",
    "torch.addmm(B(0, 2), B(0, 3), B(3, 2))",
    "torch.addmv(B(2), B(2, 2), B(2))", "torch.addmv(B(2), B(2, 0), B(0))",
    "torch.baddbmm(B(1, 2, 2), B(1, 2, 2), B(1, 2, 2))", "torch.baddbmm(B(1, 2, 2), B(1, 2, 0), B(1, 0, 2))",
    "torch.baddbmm(B(0, 2, 2), B(0, 2, 3), B(0, 3, 2))",
    "torch.addbmm(B(2, 2), B(1, 2, 2), B(1, 2, 2))", "torch.addbmm(B(2, 2), B(0, 2, 3), B(0, 3, 2))",
    "torch.tensordot(B(2, 2), B(2, 2), 1)", "torch.inner(B(2, 2), B(2, 2))",
    "torch.linalg.multi_dot([B(2, 2), B(2, 2)])", "torch.outer(B(2), B(2))",
    "torch.mm(torch.ones(2, 2, dtype=torch.int8), torch.ones(2, 2, dtype=torch.int8))",
    # a bool first operand's missing kernel is named before the dtypes are compared
    "torch.bmm(B(1, 2, 2), torch.ones(1, 2, 2))", "torch.bmm(torch.ones(1, 2, 2), B(1, 2, 2))",
    "torch.einsum('ij,jk->ik', B(3, 3), torch.ones(3, 1))",
    "torch.einsum('ij,jk->ik', torch.ones(3, 3), B(3, 1))", "torch.einsum('i,i->i', B(3), torch.ones(3))",
    # tensordot sums a size-1 contracted dim right away, in the tensor's own dtype
    "torch.tensordot(B(1), B(1), 1)", "torch.tensordot(B(1, 3), B(1, 2), ([0], [0]))",
    "torch.tensordot(torch.full((3, 1), 100, dtype=torch.int8), torch.full((1, 2), 100, dtype=torch.int8), 1)",
]


@pytest.mark.parametrize("call", BOOL_PRODUCTS)
def test_bool_matrix_products_are_refused_where_torch_runs_a_kernel(call):
    """PyTorch's mm/mv/bmm kernels have no bool version (a product with no term to add
    runs none and gives False); integers multiply."""
    def program(lib):
        return repr(eval(call, {"torch": lib, "B": lambda *s: lib.ones(s, dtype=lib.bool)}))
    assert outcome(program, mg) == outcome(program, torch)


def test_cross_without_dim_warns_once_a_process_as_torch():
    """PyTorch's deprecation warning for cross without ``dim`` is a TORCH_WARN_ONCE."""
    program = ("import warnings, {lib} as t\nwarnings.simplefilter('always')\n"
               "with warnings.catch_warnings(record=True) as seen:\n"
               "    t.cross(t.ones(3), t.ones(3)); t.cross(t.ones(2, 3), t.ones(2, 3))\n"
               "print(len(seen), str(seen[0].message).split('.')[0])")
    said = [subprocess.run([sys.executable, "-c", program.format(lib=lib)], capture_output=True,
                           text=True, check=True).stdout for lib in ("minigrad", "torch")]
    assert said[0] == said[1] == "1 Using torch\n"


def test_cross_of_bool_tensors_has_no_kernel_as_in_torch():
    """torch's cross kernel dispatches on the first input's dtype (no bool), after the
    shape checks and before it reads the second one's dtype."""
    for a, b, shapes in [("bool", "float32", ((1, 3), (1, 3))), ("bool", "bool", ((2, 3), (1, 3))),
                         ("bool", "int64", ((1, 3), (1, 3))), ("int64", "bool", ((1, 3), (1, 3))),
                         ("bool", "bool", ((2, 3), (3, 3))), ("int64", "int64", ((2, 3), (2, 3)))]:
        def call(lib, a=a, b=b, shapes=shapes):
            x, y = (lib.ones(s, dtype=getattr(lib, d)) for s, d in zip(shapes, (a, b)))
            return lib.linalg.cross(x, y), lib.cross(x, y, dim=-1)
        assert outcome(call, mg) == outcome(call, torch)


def test_dot_adds_up_from_plus_zero_as_blas():
    """A dot product whose products are all -0 is +0 in torch (BLAS starts from +0); so is a
    tensordot through a broadcast contracted dim of size 1 (random program 509773)."""
    for call in [lambda lib: lib.dot(lib.tensor([-0.5]), lib.tensor([0.0])),
                 lambda lib: lib.tensor([-0.5], dtype=lib.float64) @ lib.tensor([0.0], dtype=lib.float64),
                 lambda lib: lib.vdot(lib.tensor([-0.5]), lib.tensor([0.0])),
                 lambda lib: lib.tensordot(lib.tensor([-0.5], requires_grad=True), lib.ones(0), dims=1),
                 lambda lib: lib.dot(lib.tensor([-0.5, 1.0]), lib.tensor([0.0, -0.0]))]:
        assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("name", ["matmul", "mm"])
@pytest.mark.parametrize("shapes", [((2, 3), (3, 5)), ((2, 3), (4, 5)), ((2, 2, 3), (2, 3, 5)),
                                    ((2, 2, 3), (3, 5)), ((3,), (3,)), ((2, 3), (3,))])
def test_out_of_products_is_checked_as_torch(name, shapes):
    """out= of mm and matmul: autograd's refusal first, then the shapes, then the out's
    dtype as the path wants it (mm's: the first operand's; bmm's: the second's; dot's and
    addmv's own texts), before the kernel reads the operands' dtypes (session 13: a bool
    product into a half out gave the kernel's "not implemented"; 1,286 of 3,000 parted)."""
    import itertools
    for a_dtype, b_dtype, out_dtype in itertools.product(
            ["bool", "float32", "float64", "int64", "float16"], repeat=3):
        for grad in (False, True):
            def call(lib):
                a = lib.ones(shapes[0], dtype=getattr(lib, a_dtype))
                b = lib.ones(shapes[1], dtype=getattr(lib, b_dtype))
                if grad and a.dtype.is_floating_point:
                    a.requires_grad_()
                return getattr(lib, name)(a, b, out=lib.zeros(1, dtype=getattr(lib, out_dtype)))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert outcome(call, mg) == outcome(call, torch), (a_dtype, b_dtype, out_dtype, grad)



# (MKL's small gemm, measured: an inner size of 2 or 3 with at most 3 rows or at most 11
# columns is added up term by term, unfused; the shapes on both sides of those bounds)
SMALL_GEMM_SHAPES = [(m, n, k) for k in (2, 3) for m, n in
                     [(1, 1), (1, 2), (2, 1), (1, 12), (2, 7), (3, 500), (3, 12), (4, 11),
                      (5, 1), (5, 10), (50, 1), (200, 8), (200, 11), (1000, 2)]]
BETA_ALPHA = [(1, 1), (0, 1), (2, 3), (1, 0.5), (0.5, 1), (0, 2), (-1, 1)]


def _operands(lib, arrays, transposed):
    """x (m, k), w (k, n) and a bias (n,): each matrix as it is or as the transpose of
    a contiguous tensor (the same strides in both libraries: built from lists, as
    torch.tensor of an array keeps NumPy's strides of a dim of size 1)."""
    x, w, bias = arrays
    dtype = getattr(lib, str(x.dtype))
    return [lib.tensor(a.T.tolist(), dtype=dtype).T if flip else lib.tensor(a.tolist(), dtype=dtype)
            for a, flip in zip((x, w), transposed)] + [lib.tensor(bias.tolist(), dtype=dtype)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", SMALL_GEMM_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_small_inner_size_products_are_torchs_bits(shape, dtype):
    m, n, k = shape
    generator = np.random.default_rng(m * 100 + n * 10 + k)
    for seed in range(3):
        arrays = [generator.standard_normal(size).astype(dtype) for size in ((m, k), (k, n), n)]
        for transposed in [(False, False), (False, True), (True, False), (True, True)]:
            calls = [lambda lib, x, w, b: x @ w, lambda lib, x, w, b: lib.mm(x, w),
                     lambda lib, x, w, b: lib.nn.functional.linear(x, w.T, b)]
            calls += [lambda lib, x, w, b, beta=beta, alpha=alpha:
                      lib.addmm(b, x, w, beta=beta, alpha=alpha) for beta, alpha in BETA_ALPHA]
            for call in calls:
                expected = call(torch, *_operands(torch, arrays, transposed)).numpy()
                got = call(mg, *_operands(mg, arrays, transposed)).numpy()
                assert got.dtype == expected.dtype
                assert got.tobytes() == expected.tobytes(), (transposed, calls.index(call), seed)


def test_a_linear_layer_of_two_features_sums_as_torch():
    """The tutorials' case: nn.Linear(2, 8) on 200 points, then a softmax's sum."""
    torch.manual_seed(0)
    x, w = torch.randn(200, 2), torch.randn(8, 2)
    ours = mg.tensor(x.numpy()) @ mg.tensor(w.numpy()).T
    np.testing.assert_array_equal(ours.numpy().view(np.uint32), (x @ w.T).numpy().view(np.uint32))
    expected = str(torch.sum(torch.softmax(x @ w.T, 1)[0]))
    assert str(mg.sum(mg.softmax(ours, 1)[0])) == expected


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("rows", [1, 2, 3, 12, 200, 5000])
@pytest.mark.parametrize("inner", [2, 3, 4])
def test_small_inner_size_matrix_vector_products_are_torchs_bits(inner, rows, dtype):
    """mv (MKL's gemv): an inner size of 2 to 4 added up term by term, unfused."""
    generator = np.random.default_rng(rows * 10 + inner)
    matrix, vector = generator.standard_normal((rows, inner)), generator.standard_normal(inner)
    for transposed in (False, True):
        results = []
        for lib in (torch, mg):
            kind = getattr(lib, dtype.__name__)
            a = (lib.tensor(matrix.T.tolist(), dtype=kind).T if transposed
                 else lib.tensor(matrix.tolist(), dtype=kind))
            results.append((a @ lib.tensor(vector.tolist(), dtype=kind)).numpy())
        assert results[1].dtype == results[0].dtype
        assert results[1].tobytes() == results[0].tobytes()


@pytest.mark.parametrize("shape", [(1, 1, 2), (2, 1, 3), (5, 8, 2), (3, 20, 3), (20, 3, 2)],
                         ids=lambda s: "x".join(map(str, s)))
def test_small_products_of_negative_zeros_add_up_from_plus_zero(shape):
    m, n, k = shape
    for lib in (torch, mg):
        a, b = -lib.ones(m, k), lib.zeros(k, n)
        assert str((a @ b)[0, 0].item()) == "0.0", lib
        assert str((a @ lib.zeros(k))[0].item()) == "0.0", lib
