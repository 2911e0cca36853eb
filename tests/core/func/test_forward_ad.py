"""``torch.autograd.forward_ad`` (minigrad/autograd/forward_ad.py): dual tensors, their
tangents through the ops a learner uses, against PyTorch (live) and against central finite
differences in float64; the levels and their errors; printing; in-place ops on duals;
custom Functions' ``jvp``.

minigrad finds each op's tangent from its backward formula (the double backward trick),
PyTorch from a JVP formula per op, so tangents agree to float rounding; ``test_bit_agreement``
measures how often they are equal bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

mgAD = mg.autograd.forward_ad


def _pos(lib, x):
    return x.abs() + 0.5


def _F(lib):
    return lib.nn.functional


# (name, fn(lib, *tensors), input shapes)
CASES = [
    ("add", lambda L, x, y: x + y, [(3, 4), (4,)]),
    ("sub_alpha", lambda L, x, y: L.sub(x, y, alpha=2), [(3, 4), (3, 4)]),
    ("mul", lambda L, x, y: x * y, [(3, 4), (3, 4)]),
    ("div", lambda L, x, y: x / _pos(L, y), [(3, 4), (3, 4)]),
    ("pow_number", lambda L, x: x ** 3, [(5,)]),
    ("pow_tensor", lambda L, x, y: _pos(L, x) ** y, [(5,), (5,)]),
    ("sin_cos", lambda L, x: x.sin() * x.cos(), [(6,)]),
    ("exp_log", lambda L, x: x.exp() + _pos(L, x).log(), [(6,)]),
    ("sqrt", lambda L, x: _pos(L, x).sqrt(), [(6,)]),
    ("tanh", lambda L, x: x.tanh(), [(2, 3)]),
    ("sigmoid", lambda L, x: L.sigmoid(x), [(2, 3)]),
    ("relu", lambda L, x: L.relu(x), [(2, 3)]),
    ("abs_neg", lambda L, x: -x.abs(), [(2, 3)]),
    ("clamp", lambda L, x: x.clamp(-0.5, 0.7), [(2, 5)]),
    ("where_maximum", lambda L, x, y: L.where(x > 0, x, y) + L.maximum(x, y), [(4,), (4,)]),
    ("matmul", lambda L, x, y: x @ y, [(3, 4), (4, 2)]),
    ("matmul_vector", lambda L, x, y: x @ y, [(4,), (4, 3)]),
    ("bmm", lambda L, x, y: L.bmm(x, y), [(2, 3, 4), (2, 4, 2)]),
    ("sum_mean", lambda L, x: x.sum(0) + x.mean(1).sum(), [(3, 4)]),
    ("max_dim", lambda L, x: x.max(dim=1).values, [(3, 4)]),
    ("amax_min", lambda L, x: x.amax(0) - x.min(), [(3, 4)]),
    ("logsumexp", lambda L, x: x.logsumexp(1), [(3, 4)]),
    ("var_std", lambda L, x: x.var(1) + x.std(0).sum(), [(3, 4)]),
    ("norm", lambda L, x: x.norm(), [(3, 4)]),
    ("prod_cumsum", lambda L, x: x.prod(1) + x.cumsum(1)[:, -1], [(3, 4)]),
    ("view_reshape", lambda L, x: x.view(4, 3).t().reshape(-1) * 2, [(3, 4)]),
    ("permute_transpose", lambda L, x: x.permute(2, 0, 1).transpose(0, 1), [(2, 3, 4)]),
    ("index", lambda L, x: x[1:, ::2] + x[0, 1], [(3, 4)]),
    ("index_tensor", lambda L, x: x[L.tensor([2, 0, 2])], [(3, 4)]),
    ("mask", lambda L, x: x[x > 0], [(3, 4)]),
    ("unsqueeze_expand", lambda L, x: x.unsqueeze(0).expand(2, 3, 4).squeeze(), [(3, 4)]),
    ("cat_stack", lambda L, x, y: L.cat([x, y]) + L.stack([x, y]).sum(0).repeat(2, 1), [(2, 3), (2, 3)]),
    ("split_chunk_unbind", lambda L, x: x.split(2)[1] * x.chunk(2)[0] + x.unbind(0)[0], [(4, 3)]),
    ("gather", lambda L, x: x.gather(1, L.tensor([[0, 2], [1, 1], [3, 0]])), [(3, 4)]),
    ("softmax", lambda L, x: x.softmax(-1), [(3, 5)]),
    ("log_softmax", lambda L, x: _F(L).log_softmax(x, dim=0), [(3, 5)]),
    ("linear", lambda L, x, w, b: _F(L).linear(x, w, b), [(5, 3), (4, 3), (4,)]),
    ("conv1d", lambda L, x, w: _F(L).conv1d(x, w, padding=1), [(2, 3, 7), (4, 3, 3)]),
    ("conv2d", lambda L, x, w, b: _F(L).conv2d(x, w, b, stride=2), [(1, 2, 6, 6), (3, 2, 3, 3), (3,)]),
    ("max_pool2d", lambda L, x: _F(L).max_pool2d(x, 2), [(1, 2, 4, 4)]),
    ("silu_elu", lambda L, x: _F(L).silu(x) + _F(L).elu(x), [(2, 5)]),
    ("gelu", lambda L, x: _F(L).gelu(x) * _F(L).gelu(x, approximate="tanh"), [(2, 5)]),
    ("layer_norm", lambda L, x, w: _F(L).layer_norm(x, (4,), w), [(3, 4), (4,)]),
    ("cross_entropy", lambda L, x: _F(L).cross_entropy(x, L.tensor([1, 0, 3])), [(3, 4)]),
    ("mse_loss", lambda L, x, y: _F(L).mse_loss(x, y), [(3, 4), (3, 4)]),
    ("smooth_l1_loss", lambda L, x, y: _F(L).smooth_l1_loss(x, y, beta=0.5), [(3, 4), (3, 4)]),
    ("bce_with_logits", lambda L, x, y: _F(L).binary_cross_entropy_with_logits(x, y.sigmoid()),
     [(3, 4), (3, 4)]),
    ("batch_norm", lambda L, x: _F(L).batch_norm(x, None, None, training=True), [(4, 3)]),
    ("embedding", lambda L, w: _F(L).embedding(L.tensor([[0, 2], [1, 1]]), w), [(3, 4)]),
    ("sort_median", lambda L, x: x.sort(1).values + x.median(1, keepdim=True).values, [(3, 4)]),
    ("det_inv", lambda L, x: L.linalg.inv(x + 3 * L.eye(3, dtype=x.dtype)) * L.linalg.det(x),
     [(3, 3)]),
    ("nll_loss", lambda L, x: _F(L).nll_loss(x.log_softmax(1), L.tensor([2, 2, 0])), [(3, 4)]),
    ("einsum", lambda L, x, y: L.einsum("ij,jk->ik", x, y), [(2, 3), (3, 2)]),
    ("svd_values", lambda L, x: L.linalg.svdvals(x), [(3, 3)]),
]


def _inputs(shapes, dtype, seed=0):
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-2, 2, shape).astype(dtype) for shape in shapes]
    tangents = [rng.uniform(-1, 1, shape).astype(dtype) for shape in shapes]
    return arrays, tangents


def _forward(lib, fn, arrays, tangents):
    """(primal, tangent) of ``fn``'s output as arrays, with every input a dual tensor."""
    AD = lib.autograd.forward_ad
    with AD.dual_level():
        duals = [AD.make_dual(lib.tensor(a), lib.tensor(t)) for a, t in zip(arrays, tangents)]
        primal, tangent = AD.unpack_dual(fn(lib, *duals))
        return primal.detach().numpy().copy(), tangent.detach().numpy().copy()


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_tangent_as_pytorch(name, fn, shapes, dtype):
    arrays, tangents = _inputs(shapes, dtype)
    mine, theirs = _forward(mg, fn, arrays, tangents), _forward(torch, fn, arrays, tangents)
    plain = fn(mg, *[mg.tensor(a) for a in arrays]).numpy()
    if name != "svd_values":  # (with a tangent to find, the values come from the full svd)
        np.testing.assert_array_equal(mine[0], plain)  # the primal: the op's own value
    tol = dict(rtol=2e-5, atol=2e-6) if dtype == "float32" else dict(rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(mine[0], theirs[0], **tol)
    assert mine[1].dtype == theirs[1].dtype and mine[1].shape == theirs[1].shape
    np.testing.assert_allclose(mine[1], theirs[1], **tol)


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_tangent_against_finite_differences(name, fn, shapes):
    """J t against (f(x + h t) - f(x - h t)) / 2h, in float64, without PyTorch."""
    arrays, tangents = _inputs(shapes, "float64", seed=1)
    _, tangent = _forward(mg, fn, arrays, tangents)
    h = 1e-6

    def at(step):
        return fn(mg, *[mg.tensor(a + step * t) for a, t in zip(arrays, tangents)]).numpy()
    np.testing.assert_allclose(tangent, (at(h) - at(-h)) / (2 * h), rtol=1e-5, atol=1e-6)


def test_an_op_without_forward_ad_says_so():
    """unique has no derivative, PyTorch's CPU attention kernel no second one: PyTorch's
    text (the op's name is minigrad's node's, without a leading underscore)."""
    for op in (lambda L, x: L.unique(x),
               lambda L, x: L.nn.functional.scaled_dot_product_attention(x, x, x)):
        said = []
        for lib in (mg, torch):
            AD = lib.autograd.forward_ad
            with AD.dual_level():
                x = AD.make_dual(lib.ones(1, 2, 3, 4), lib.ones(1, 2, 3, 4))
                with pytest.raises(NotImplementedError) as error:
                    op(lib, x)
                said.append(str(error.value).replace("_unique2", "unique2").replace(
                    "_scaled", "scaled"))
        assert said[0] == said[1]


def test_bit_agreement():
    """How often minigrad's tangents equal PyTorch's bit for bit (float32): most do where
    the two formulas are the same products (mul, views, indexing, sums), not all."""
    equal = 0
    for name, fn, shapes in CASES:
        arrays, tangents = _inputs(shapes, "float32")
        mine, theirs = _forward(mg, fn, arrays, tangents)[1], _forward(torch, fn, arrays, tangents)[1]
        equal += np.array_equal(mine, theirs)
    assert equal >= len(CASES) // 2, equal
