"""Matrix products (``minigrad/ops/linalg.py``) against PyTorch 2.13: values, dtype, shape,
the graph (node names and ``next_functions``), the gradient of every input, and the errors
for bad input.

Each case is written once as ``fn(lib, *tensors)`` and runs on both libraries (see
``torch_compare.py``; the shared arrays are in ``op_cases.py``)."""

import numpy as np
import pytest

from op_cases import case, run
from torch_compare import chain, check, check_error, rand


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
    case(lambda lib, x, y: x.dot(y), rand((3,)), rand((3,)).astype(np.float64),
         id="dot-dtypes"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 3)), rand((2, 3, 4)), id="bmm-2d"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((3, 4)), id="bmm-2d-rhs"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((3, 3, 4)), id="bmm-batch"),
    case(lambda lib, x, y: x.bmm(y), rand((2, 2, 3)), rand((2, 2, 4)), id="bmm-inner"),
]


@pytest.mark.parametrize("fn, arrays, options", MATMUL_ERRORS)
def test_matmul_errors(fn, arrays, options):
    check_error(fn, *arrays, **options)
