"""The small layers, against torch.nn: the padding modules (ZeroPad1d/2d, ConstantPad1d/
2d/3d, ReflectionPad1d/2d, ReplicationPad1d/2d), AdaptiveMaxPool1d/2d and
F.adaptive_max_pool1d/2d (AdaptiveMaxPool2DBackward0, indices, NaN and ties), GLU / F.glu
(GluBackward0), Softmax2d, CosineSimilarity, ParameterList and ParameterDict: printed
modules, values bit for bit, nodes, gradients (and finite differences in float64),
state_dict, errors, and a program that uses them together."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy
from tests.core.support.torch_compare import (check, check_double_backward, check_error,
                                              check_numerical, outcome, rand)

X4 = rand((2, 3, 5, 6), seed=0)
X3 = rand((2, 4, 7), seed=1)

MODULES = {  # source: input
    "nn.ZeroPad2d(2)": X4, "nn.ZeroPad2d((1, 0, 2, 1))": X4, "nn.ZeroPad1d((2, 1))": X3,
    "nn.ConstantPad1d(2, 3.5)": X3, "nn.ConstantPad2d((1, 2, 0, 1), -1.0)": X4,
    "nn.ConstantPad3d(1, 0.5)": X4, "nn.ConstantPad2d(-1, 2.0)": X4,
    "nn.ReflectionPad1d(2)": X3, "nn.ReflectionPad2d((1, 2, 3, 0))": X4,
    "nn.ReplicationPad1d((3, 1))": X3, "nn.ReplicationPad2d(2)": X4,
    "nn.AdaptiveMaxPool2d((2, 3))": X4, "nn.AdaptiveMaxPool2d((4, None))": X4,
    "nn.AdaptiveMaxPool2d(1)": X4, "nn.AdaptiveMaxPool1d(3)": X3,
    "nn.GLU()": X4, "nn.GLU(dim=1)": X3, "nn.Softmax2d()": X4,
}
# (softmax over a dim that is not the last: minigrad's sums run in another order, 1 ulp)
NOT_BITS = {"nn.Softmax2d()"}


@pytest.mark.parametrize("source", list(MODULES))
def test_module_prints_and_runs_bit_for_bit(source):
    tolerance = dict(rtol=1e-6, atol=1e-7) if source in NOT_BITS else dict(rtol=0, atol=0)
    check(lambda lib, x: eval(source, {"nn": lib.nn})(x), MODULES[source], **tolerance)
    assert repr(eval(source, {"nn": mg.nn})) == repr(eval(source, {"nn": torch.nn}))


@pytest.mark.parametrize("source", list(MODULES))
def test_gradients_against_finite_differences(source):
    check_numerical(lambda x: eval(source, {"nn": mg.nn})(x), MODULES[source])


@pytest.mark.parametrize("source", ["nn.GLU()", "nn.AdaptiveMaxPool2d((2, 3))"])
def test_second_derivatives(source):
    check_double_backward(lambda lib, x: eval(source, {"nn": lib.nn})(x) ** 2,
                          MODULES[source].astype(np.float64))


def test_adaptive_max_pool_indices_ties_and_nan():
    x = np.array([[[1, 5, 5, np.nan, 3, 3], [4, 4, 0, 1, 9, 9]]], np.float32)
    for call in (lambda lib, t: lib.nn.functional.adaptive_max_pool1d(t, 4, return_indices=True),
                 lambda lib, t: lib.nn.AdaptiveMaxPool2d((1, 3), return_indices=True)(
                     t.unsqueeze(0)),
                 lambda lib, t: lib.nn.functional.adaptive_max_pool2d(t, 2, True)):
        check(call, x, rtol=0, atol=0)
    node = [lib.nn.functional.adaptive_max_pool2d(lib.tensor(X4, requires_grad=True), 2).grad_fn
            for lib in (mg, torch)]
    assert np.array_equal(as_numpy(node[0]._saved_result1), as_numpy(node[1]._saved_result1))


def test_cosine_similarity_module():
    check(lambda lib, a, b: lib.nn.CosineSimilarity(dim=2, eps=1e-6)(a, b), X4, X4[::-1].copy())
    check(lambda lib, a, b: lib.nn.CosineSimilarity()(a, b), X3, X3 * 2)
    assert repr(mg.nn.CosineSimilarity()) == repr(torch.nn.CosineSimilarity())


ERRORS = {
    "glu odd": lambda lib, x: lib.nn.functional.glu(x, 1),
    "glu scalar": lambda lib, x: lib.nn.functional.glu(x[0, 0, 0, 0]),
    "glu dim": lambda lib, x: lib.nn.functional.glu(x, 4),
    "glu ints": lambda lib, x: lib.nn.functional.glu(x.long()),
    "softmax2d dims": lambda lib, x: lib.nn.Softmax2d()(x[0, 0]),
    "adaptive_max_pool2d dims": lambda lib, x: lib.nn.functional.adaptive_max_pool2d(x[0, 0], 2),
    "adaptive_max_pool1d dims": lambda lib, x: lib.nn.functional.adaptive_max_pool1d(x, 2),
    "adaptive_max_pool2d ints": lambda lib, x: lib.nn.functional.adaptive_max_pool2d(
        x.long(), 2),
    "reflection too wide": lambda lib, x: lib.nn.ReflectionPad2d(5)(x),
    "ParameterList called": lambda lib, x: lib.nn.ParameterList([x])(x),
    "ParameterList index": lambda lib, x: lib.nn.ParameterList([x])[3],
    "ParameterList extend": lambda lib, x: lib.nn.ParameterList().extend(x),
    "ParameterDict key": lambda lib, x: lib.nn.ParameterDict({"a": x})[0],
    "ParameterDict missing": lambda lib, x: lib.nn.ParameterDict({"a": x})["b"],
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_torch(name):
    check_error(ERRORS[name], X4)


def _containers(lib):
    lib.manual_seed(0)
    nn = lib.nn

    class Mixture(nn.Module):
        def __init__(self):
            super().__init__()
            self.scales = nn.ParameterList([nn.Parameter(lib.ones(3)), lib.randn(3)])
            self.scales.append(lib.zeros(3))
            self.gates = nn.ParameterDict({"z": lib.randn(6, 3), "a": nn.Parameter(lib.ones(3))})
            self.gates["m"] = lib.zeros(2)
            self.pool = nn.Sequential(nn.ReflectionPad2d(1), nn.AdaptiveMaxPool2d((2, 2)),
                                      nn.Flatten(), nn.GLU())

        def forward(self, x):
            h = self.pool(x) @ self.gates["z"] * self.gates["a"]
            for scale in self.scales[:2]:
                h = h * scale.sum()
            return h

    return Mixture()


def test_parameter_containers_print_register_and_train_as_torch():
    runs = []
    for lib in (mg, torch):
        model = _containers(lib)
        optimizer = lib.optim.SGD(model.parameters(), lr=0.1)
        x = lib.tensor(X4)
        losses = []
        for _ in range(3):
            optimizer.zero_grad()
            loss = model(x).pow(2).mean()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        scales = model.scales
        runs.append((repr(model), list(model.state_dict()),
                     [n for n, _ in model.named_parameters()], losses,
                     [as_numpy(p) for p in model.parameters()],
                     (len(scales), type(scales[1:]).__name__, list(model.gates.keys()),
                      "a" in model.gates, model.gates.get("q"), len(model.gates),
                      sorted(k for k, _ in model.gates.items()))))
    ours, theirs = runs
    assert ours[:3] == theirs[:3]
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-5)
    for a, b in zip(ours[4], theirs[4]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert ours[5] == theirs[5]


def test_parameter_dict_pop_setdefault_clear():
    def program(lib):
        d = lib.nn.ParameterDict([("b", lib.ones(1)), ("a", lib.zeros(2))])
        first = list(d)
        popped = d.pop("b")
        d.setdefault("c", lib.ones(3))
        d.update({"e": lib.ones(1), "d": lib.ones(1)})
        keys = list(d.keys())
        d.clear()
        return first, type(popped).__name__, keys, len(d), repr(d)
    assert outcome(program, mg) == outcome(program, torch)


BILINEAR = {
    "rows": lambda lib, a, b, w, c: lib.nn.functional.bilinear(a, b, w, c),
    "no bias": lambda lib, a, b, w, c: lib.nn.functional.bilinear(a, b, w),
    "batched": lambda lib, a, b, w, c: lib.nn.functional.bilinear(a.reshape(2, 2, 3),
                                                                  b.reshape(2, 2, 4), w, c),
    "one row": lambda lib, a, b, w, c: lib.nn.functional.bilinear(a[0], b[0], w, c),
    # (rows of a transposed base: torch's _trilinear still gives a row-major y, so the
    # batched output is a view of it, ViewBackward0, not ReshapeAliasBackward0)
    "column-major rows": lambda lib, a, b, w, c: lib.nn.functional.bilinear(
        a.T.contiguous().T.reshape(2, 2, 3), b.T.contiguous().T.reshape(2, 2, 4), w),
}
BILINEAR_INPUTS = (rand((4, 3), seed=11), rand((4, 4), seed=12), rand((5, 3, 4), seed=13),
                   rand((5,), seed=14))


@pytest.mark.parametrize("name", list(BILINEAR))
def test_bilinear_against_torch(name):
    check(BILINEAR[name], *BILINEAR_INPUTS, rtol=1e-5, atol=1e-5)
    check_numerical(lambda *xs: BILINEAR[name](mg, *xs), *BILINEAR_INPUTS)


def test_bilinear_module_starts_and_runs_as_torch():
    runs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        layer = lib.nn.Bilinear(3, 4, 5)
        x1, x2 = (lib.tensor(a, requires_grad=True) for a in BILINEAR_INPUTS[:2])
        y = layer(x1, x2)
        y.pow(2).sum().backward()
        runs.append((repr(layer), list(layer.state_dict()), type(y.grad_fn).__name__,
                     [as_numpy(t) for t in (layer.weight, layer.bias, y, x1.grad,
                                            layer.weight.grad)]))
    assert runs[0][:3] == runs[1][:3]
    assert np.array_equal(runs[0][3][0], runs[1][3][0])  # (PyTorch's starting weights' bits)
    for a, b in zip(runs[0][3][1:], runs[1][3][1:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("call", ["F.bilinear(a, b[:, :3], w)", "F.bilinear(a, b, w, c[:3])",
                                  "F.bilinear(a[0], b, w)"])
def test_bilinear_errors(call):
    check_error(lambda lib, a, b, w, c: eval(call, {"F": lib.nn.functional, "a": a, "b": b,
                                                    "w": w, "c": c}), *BILINEAR_INPUTS)


MAX_POOL1D = [((1, 2, 0), 1, None, 0), ((1, 2, 0), 1, None, 1), ((1, 2, 1), 3, 1, 0),
              ((1, 2, 1), 3, 1, 2), ((2, 0), 1, None, 0), ((2, 3), 3, 1, 0), ((0, 2, 3), 2, None, 0),
              ((1, 2, 3), 0), ((1, 2, 3), 2, -1), ((1, 2, 3), 2, 0, -1), ((1, 2, 3), 2, 1, 0, 0),
              ((1, 2, 3), 2, 1, -1), ((0, 3), 1), ((1, 2, 1), 3, 1, 1, 1, True), ((3,), 1),
              ((1, 1, 2, 3), 2)]


@pytest.mark.parametrize("args", MAX_POOL1D)
@pytest.mark.parametrize("kind", ["float", "requires grad", "long"])
def test_max_pool1d_checks_as_torchs_own_1d_kernel(args, kind):
    """max_pool1d without indices has its own checks and texts in ATen (minigrad gave
    max_pool2d's: deep random programs 454, 499, 1549)."""
    def call(lib):
        x = lib.ones(args[0], requires_grad=kind == "requires grad")
        return lib.nn.functional.max_pool1d(x.long() if kind == "long" else x, *args[1:])
    assert outcome(call, mg) == outcome(call, torch)


POOLS_OF_EMPTY = {
    "avg_pool1d pad": lambda F, o: F.avg_pool1d(o(1, 2, 0), 1, None, 1),
    "avg_pool2d pad": lambda F, o: F.avg_pool2d(o(1, 2, 0, 0), 1, None, 1),
    "max_pool2d pad": lambda F, o: F.max_pool2d(o(1, 2, 0, 0), 1, None, 1),
    "avg_pool2d": lambda F, o: F.avg_pool2d(o(1, 2, 0, 0), 1),
    "adaptive avg 2d unbatched": lambda F, o: F.adaptive_avg_pool2d(o(2, 0, 3), 2),
    "adaptive avg 2d empty batch": lambda F, o: F.adaptive_avg_pool2d(o(0, 2, 3), 2),
    "adaptive avg 3d": lambda F, o: F.adaptive_avg_pool3d(o(1, 2, 0, 3, 3), 2),
    "adaptive max 3d": lambda F, o: F.adaptive_max_pool3d(o(1, 2, 1, 0, 3), 2),
    "adaptive max 2d unbatched": lambda F, o: F.adaptive_max_pool2d(o(2, 0, 3), 2),
    "adaptive avg 1d": lambda F, o: F.adaptive_avg_pool1d(o(2, 0), 2),
    "adaptive max 1d": lambda F, o: F.adaptive_max_pool1d(o(2, 0), 2),
    "adaptive avg to 1": lambda F, o: F.adaptive_avg_pool2d(o(1, 2, 0, 3), 1),
    "adaptive avg no channels": lambda F, o: F.adaptive_avg_pool2d(o(1, 0, 2, 3), 2),
    "adaptive max no channels": lambda F, o: F.adaptive_max_pool2d(o(1, 0, 2, 3), 2),
    "adaptive avg 3d no channels": lambda F, o: F.adaptive_avg_pool3d(o(1, 0, 2, 2, 2), 2),
    "adaptive max 3d no batch": lambda F, o: F.adaptive_max_pool3d(o(0, 2, 2, 2), 2),
    "adaptive max 2d no batch": lambda F, o: F.adaptive_max_pool2d(o(0, 2, 2, 3), 2),
    "adaptive max 1d no batch": lambda F, o: F.adaptive_max_pool1d(o(0, 1, 3), 2, return_indices=True),
}


@pytest.mark.parametrize("name", list(POOLS_OF_EMPTY))
def test_pooling_empty_inputs_is_torchs(name):
    """The padding check comes before the empty-input one (pooling_output_shape); adaptive
    pooling refuses an empty dim (2-d average: a spatial one; the others any after the
    first) and computes an empty batch (minigrad gave NaN or NumPy's errors)."""
    def call(lib):
        return POOLS_OF_EMPTY[name](lib.nn.functional, lib.ones)
    assert outcome(call, mg) == outcome(call, torch)
