"""layer_norm, batch_norm (and instance_norm, made of it) and group_norm differentiated
with create_graph=True record PyTorch's nodes (NativeLayerNormBackwardBackward0,
NativeBatchNormBackwardBackward0; group_norm's NativeGroupNormBackward0 read through its
mean and rstd outputs) and their backward records PyTorch's ops in its order: weighted or
not, with a bias or not, 2 to 4 dims, training or eval, against torch at test time (the
printed values, graphs and nodes of the first and second derivatives, the third
derivative's values; a configuration where PyTorch's formula raises, the same error).
Finite differences: test_recorded_derivative_nodes.py."""

from __future__ import annotations

import pytest

from programs import assert_same_run
from test_convolution_double_backward import derivatives_program


NORMALIZATIONS = {
    "layer_norm": (lambda F, x, w, b: F.layer_norm(x, (4,), w, b), [(3, 4), (4,), (4,)]),
    "layer_norm, no weight, no bias": (lambda F, x: F.layer_norm(x, (4,)), [(3, 4)]),
    "layer_norm, weight only, 2 dims": (lambda F, x, w: F.layer_norm(x, (3, 4), w),
                                        [(2, 3, 4), (3, 4)]),
    "layer_norm, bias only (PyTorch's formula raises)": (
        lambda F, x, b: F.layer_norm(x, (4,), None, b), [(3, 4), (4,)]),
    "batch_norm": (lambda F, x, w, b: F.batch_norm(x, None, None, w, b, True),
                   [(4, 3, 2), (3,), (3,)]),
    "batch_norm, 2 dims": (lambda F, x, w, b: F.batch_norm(x, None, None, w, b, True),
                           [(4, 3), (3,), (3,)]),
    "batch_norm, 4 dims, no weight": (lambda F, x: F.batch_norm(x, None, None, training=True),
                                      [(2, 3, 2, 2)]),
    "batch_norm, eval": (
        lambda F, x, w, b: F.batch_norm(x, x.new_tensor([0.3, -0.2, 0.1]).detach(),
                                        x.new_tensor([1.7, 0.6, 1.1]).detach(), w, b, False),
        [(4, 3, 2), (3,), (3,)]),
    "instance_norm": (lambda F, x, w, b: F.instance_norm(x, weight=w, bias=b),
                      [(2, 3, 5), (3,), (3,)]),
    "group_norm": (lambda F, x, w, b: F.group_norm(x, 2, w, b), [(2, 4, 3), (4,), (4,)]),
    "group_norm, 4 dims, no weight": (lambda F, x: F.group_norm(x, 3), [(2, 6, 2, 2)]),
    "group_norm, a group per channel": (lambda F, x, w: F.group_norm(x, 4, w),
                                        [(3, 4), (4,)]),
    "group_norm, bias only (PyTorch's formula raises)": (
        lambda F, x, b: F.group_norm(x, 2, None, b), [(2, 4, 3), (4,)]),
}


@pytest.mark.parametrize("name", sorted(NORMALIZATIONS))
def test_derivatives_are_torchs(name):
    theirs = assert_same_run(derivatives_program(*NORMALIZATIONS[name]))
    assert (theirs[-2][0] == "raised") == ("raises" in name)
