"""F.pad (constant, reflect, replicate) and F.normalize against torch: values, nodes,
saved padding, gradients, second derivatives, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg
from tests.core.support.torch_compare import check, check_error, check_numerical, outcome, rand


@pytest.mark.parametrize("pad", [(1, 2), (1, 2, 0, 1), (1, 1, 2, 0, 1, 3), (-1, 2),
                                 (-2, -1, 1, -1), (0, 0)])
@pytest.mark.parametrize("value", [None, 2.5])
def test_pad_matches_torch(pad, value):
    check(lambda lib, x: lib.nn.functional.pad(x, pad, value=value), rand((3, 4, 5)))


def test_pad_float64_against_finite_differences_and_twice():
    check_numerical(lambda x: mg.nn.functional.pad(x, (1, -1, 2, 0)), rand((3, 4)))
    check(lambda lib, x: lib.autograd.grad(lib.nn.functional.pad(x, (1, 2)).pow(2).sum(), x,
                                           create_graph=True)[0], rand((2, 3)))


@pytest.mark.parametrize("pad", [(1, 2, 3), (1, 2, 3, 4, 5, 6)])
def test_pad_errors(pad):
    check_error(lambda lib, x: lib.nn.functional.pad(x, pad), rand((3, 4)))


@pytest.mark.parametrize("options", [{}, {"p": 1, "dim": 0}, {"dim": -1, "eps": 0.5}])
def test_normalize_matches_torch(options):
    check(lambda lib, x: lib.nn.functional.normalize(x, **options), rand((3, 4, 5)))
    check_numerical(lambda x: mg.nn.functional.normalize(x, **options), rand((3, 4), 2))


def _edge_padded(lib):
    """reflect and replicate over 1, 2 and 3 dims: values, nodes, saved padding,
    gradients, errors and a second derivative."""
    F = lib.nn.functional
    out = []
    rng = np.random.default_rng(0)
    cases = [((2, 3, 5), (2, 1)), ((3, 5), (0, 4)), ((1, 2, 4, 5), (1, 2, 3, 0)),
             ((2, 4, 5), (1, 1, 1, 1)), ((1, 1, 3, 4, 5), (1, 1, 2, 1, 0, 2))]
    for shape, pad in cases:
        for mode in ["reflect", "replicate"]:
            if mode == "reflect" and max(pad) >= min(shape[-len(pad) // 2:]):
                continue
            x = lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
            y = F.pad(x, pad, mode=mode)
            y.backward(lib.tensor(rng.standard_normal(tuple(y.shape)).astype(np.float32)))
            out += [repr(y), type(y.grad_fn).__name__, y.grad_fn._saved_padding, repr(x.grad)]
    for call in [lambda: F.pad(lib.ones(1, 2, 3), (3, 3), mode="reflect"),
                 lambda: F.pad(lib.ones(6), (1, 1), mode="reflect"),
                 lambda: F.pad(lib.ones(2, 3), (1, 1), mode="foo"),
                 lambda: F.pad(lib.ones(2, 3), (1, 1), mode="replicate", value=2.0)]:
        try:
            call()
            out.append("no error")
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            out.append((type(error).__name__, str(error)))
    x = lib.tensor(rng.standard_normal((2, 5)), requires_grad=True)
    g, = lib.autograd.grad(F.pad(x, (2, 2), mode="reflect").pow(2).sum(), x, create_graph=True)
    out.append(repr(lib.autograd.grad(g.pow(2).sum(), x)[0]))
    return out


def test_pad_reflect_and_replicate_match_torch():
    assert _edge_padded(mg) == _edge_padded(torch)



@pytest.mark.parametrize("mode", ["reflect", "replicate"])
def test_edge_pad_keeps_its_index_mesh_with_its_saved_values(mode):
    """The index mesh reflection/replication padding reads is kept as every saved value
    is (``save``; backward reads ``saved._indices``; shown as ``_saved__indices``), not as
    an attribute of the node; dir() still lists torch's saved names only."""
    ours, theirs = (lib.nn.functional.pad(lib.arange(10.0).reshape(2, 5).requires_grad_(),
                                          (2, 1), mode=mode) for lib in (mg, torch))
    node = ours.grad_fn
    assert not hasattr(node, "indices")
    x = node._saved_self.detach().numpy()
    np.testing.assert_array_equal(x[node._saved__indices], ours.detach().numpy())
    upstream = np.arange(16.0).reshape(2, 8)
    np.testing.assert_array_equal(
        node(mg.tensor(upstream, dtype=mg.float32)).detach().numpy(),
        theirs.grad_fn(torch.tensor(upstream, dtype=torch.float32)).detach().numpy())
    assert [n for n in dir(node) if n.startswith("_saved_")] == \
        [n for n in dir(theirs.grad_fn) if n.startswith("_saved_")]


@pytest.mark.parametrize("shape, widths", [((0,), (-1, 1)), ((2,), (-3, 1)), ((2,), (-2, 1)),
                                           ((2, 1), (-1, 0)), ((3,), (-1, -2)), ((3,), (-2, -2)),
                                           ((2, 3), (0, 0, -2, -1)), ((2, 3), (-1, 0, 0, -3)),
                                           ((2, 3), (1, -4)), ((3,), (-3, 0))])
def test_cropping_past_the_size_is_narrows_error(shape, widths):
    """Negative amounts crop one after another with narrow (left, then right): a length
    below 0 is narrow's error (minigrad cropped to nothing: deep random program 9555)."""
    def call(lib):
        return lib.nn.functional.pad(lib.ones(shape), widths)
    assert outcome(call, mg) == outcome(call, torch)
