"""nn.init against torch.nn.init.

Which distribution each initialiser samples from: torch's end in
``tensor.uniform_(a, b)`` or ``tensor.normal_(mean, std)``, and we record those
calls; ours end in ``init.uniform_`` / ``init.normal_``, which we record the
same way. The samples are checked statistically here; that they are PyTorch's
very numbers after the same seed is ``tests/core/fidelity/test_random_numbers.py``'s."""

import math
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, raised


@pytest.fixture
def recorded(monkeypatch):
    """Replace the samplers of both libraries by recorders of (kind, shape, a, b)."""
    calls = {"mg": [], "torch": []}

    def record(lib, kind):
        def sampler(tensor, a, b, generator=None):
            calls[lib].append((kind, tuple(tensor.shape), a, b))
            return tensor
        return sampler

    monkeypatch.setattr(torch.Tensor, "uniform_", record("torch", "uniform"))
    monkeypatch.setattr(torch.Tensor, "normal_", record("torch", "normal"))
    monkeypatch.setattr(mg.nn.init, "uniform_", record("mg", "uniform"))
    monkeypatch.setattr(mg.nn.init, "normal_", record("mg", "normal"))
    return calls


def same_calls(calls):
    assert calls["mg"] and len(calls["mg"]) == len(calls["torch"])
    for mine, theirs in zip(calls["mg"], calls["torch"]):
        assert mine[:2] == theirs[:2]
        assert mine[2:] == pytest.approx(theirs[2:], rel=1e-12)


INITIALISERS = [
    pytest.param("kaiming_uniform_", {}, id="kaiming_uniform"),
    pytest.param("kaiming_uniform_", {"a": math.sqrt(5)}, id="kaiming_uniform-a"),
    pytest.param("kaiming_uniform_", {"mode": "fan_out", "nonlinearity": "relu"},
                 id="kaiming_uniform-fan_out-relu"),
    pytest.param("kaiming_normal_", {}, id="kaiming_normal"),
    pytest.param("kaiming_normal_", {"mode": "fan_out", "nonlinearity": "tanh"},
                 id="kaiming_normal-fan_out"),
    pytest.param("xavier_uniform_", {}, id="xavier_uniform"),
    pytest.param("xavier_uniform_", {"gain": 5 / 3}, id="xavier_uniform-gain"),
    pytest.param("xavier_normal_", {"gain": 2.0}, id="xavier_normal-gain"),
]


@pytest.mark.parametrize("shape", [(30, 20), (8, 3, 2, 2)], ids=str)
@pytest.mark.parametrize("name, kwargs", INITIALISERS)
def test_initialisers_sample_torchs_distribution(recorded, name, kwargs, shape):
    getattr(mg.nn.init, name)(mg.empty(*shape), **kwargs)
    getattr(torch.nn.init, name)(torch.empty(*shape), **kwargs)
    same_calls(recorded)


def test_linear_initialises_like_torch(recorded):
    mg.nn.Linear(7, 5)
    mg.nn.Linear(7, 5, bias=False)
    torch.nn.Linear(7, 5)
    torch.nn.Linear(7, 5, bias=False)
    same_calls(recorded)


@pytest.mark.parametrize("nonlinearity, param", [
    ("linear", None), ("conv2d", None), ("conv_transpose3d", None), ("sigmoid", None),
    ("tanh", None), ("relu", None), ("leaky_relu", None), ("leaky_relu", 0.2),
    ("leaky_relu", 1), ("selu", None),
])
def test_calculate_gain_is_torchs(nonlinearity, param):
    assert mg.nn.init.calculate_gain(nonlinearity, param) == \
        torch.nn.init.calculate_gain(nonlinearity, param)


@pytest.mark.parametrize("call", [
    pytest.param(lambda lib: lib.nn.init.calculate_gain("swish"), id="unknown"),
    pytest.param(lambda lib: lib.nn.init.calculate_gain("leaky_relu", True), id="bad-slope"),
    pytest.param(lambda lib: lib.nn.init.kaiming_uniform_(lib.empty(3)), id="1-d"),
    pytest.param(lambda lib: lib.nn.init.xavier_normal_(lib.empty(3)), id="1-d-xavier"),
    pytest.param(lambda lib: lib.nn.init.kaiming_normal_(lib.empty(3, 3), mode="fan"),
                 id="bad-mode"),
])
def test_init_errors_are_torchs(call):
    assert raised(lambda: call(mg)) == raised(lambda: call(torch))


def test_zero_element_tensor_warns_like_torch():
    messages = []
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.init.kaiming_uniform_(lib.empty(0, 3))
        messages.append([str(w.message) for w in caught])
    assert messages[0] == messages[1] and messages[0]


# ---- the samples themselves ------------------------------------------------------

def test_uniform_samples_fill_the_interval():
    mg.manual_seed(0)
    values = as_numpy(mg.nn.init.uniform_(mg.empty(100_000), -2.0, 3.0))
    assert -2.0 <= values.min() < -1.99 and 2.99 < values.max() < 3.0
    assert values.mean() == pytest.approx(0.5, abs=0.03)
    assert values.std() == pytest.approx(5 / math.sqrt(12), rel=0.01)


def test_normal_samples_have_the_mean_and_std():
    mg.manual_seed(0)
    values = as_numpy(mg.nn.init.normal_(mg.empty(100_000, dtype=mg.float64), 1.5, 0.25))
    assert values.mean() == pytest.approx(1.5, abs=0.005)
    assert values.std() == pytest.approx(0.25, rel=0.01)


@pytest.mark.parametrize("name, value", [("zeros_", 0.0), ("ones_", 1.0)])
def test_constant_fills(name, value):
    t = mg.empty(2, 3)
    assert getattr(mg.nn.init, name)(t) is t
    assert as_numpy(t).tolist() == torch.nn.init.constant_(torch.empty(2, 3), value).tolist()
    assert as_numpy(mg.nn.init.constant_(t, 0.5)).tolist() == [[0.5] * 3] * 2


def test_init_works_in_place_on_parameters_without_recording():
    mg.manual_seed(0)
    weight = mg.nn.Parameter(mg.empty(4, 4))
    alias = weight.detach()  # shares weight's memory
    same = mg.nn.init.kaiming_uniform_(weight, a=math.sqrt(5))
    assert same is weight and weight.is_leaf and weight.grad_fn is None
    assert as_numpy(alias).any()  # written in place
    np.testing.assert_array_equal(as_numpy(alias), as_numpy(weight))
    (weight * 2).sum().backward()  # still an ordinary leaf
    assert as_numpy(weight.grad).tolist() == [[2.0] * 4] * 4


@pytest.mark.parametrize("name", ["uniform_", "normal_", "xavier_uniform_", "xavier_normal_",
                                  "kaiming_uniform_", "kaiming_normal_"])
def test_a_generator_of_ones_own_repeats_and_leaves_the_default_alone(name):
    fill = getattr(mg.nn.init, name)
    mg.manual_seed(0)
    expected_default = as_numpy(mg.rand(3))
    mg.manual_seed(0)
    first = as_numpy(fill(mg.empty(4, 4), generator=mg.Generator().manual_seed(7))).copy()
    again = as_numpy(fill(mg.empty(4, 4), generator=mg.Generator().manual_seed(7)))
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(as_numpy(mg.rand(3)), expected_default)


def test_init_dtype_is_kept():
    t = mg.nn.init.xavier_uniform_(mg.empty(3, 3, dtype=mg.float64))
    assert t.dtype is mg.float64


TRUNCATED = {
    "default": lambda lib: lib.nn.init.trunc_normal_(lib.empty(1000)),
    "timm's std=.02": lambda lib: lib.nn.init.trunc_normal_(lib.empty(64, 64), std=0.02),
    "narrow: rejection sampling": lambda lib: lib.nn.init.trunc_normal_(
        lib.empty(400), a=1.5, b=2.5),
    "float64, rejection": lambda lib: lib.nn.init.trunc_normal_(
        lib.empty(7, 9, dtype=lib.float64), mean=1.0, std=2.0, a=-0.2, b=0.3),
    "float64, redrawn": lambda lib: lib.nn.init.trunc_normal_(
        lib.empty(300, dtype=lib.float64), std=3.0),
    "a parameter": lambda lib: lib.nn.init.trunc_normal_(lib.nn.Parameter(lib.empty(3, 3))),
    "eye_": lambda lib: lib.nn.init.eye_(lib.empty(3, 5)),
    "eye_ of a parameter": lambda lib: lib.nn.init.eye_(lib.nn.Parameter(lib.empty(4, 2))),
    "dirac_ 4-d": lambda lib: lib.nn.init.dirac_(lib.empty(3, 16, 5, 5)),
    "dirac_ groups": lambda lib: lib.nn.init.dirac_(lib.empty(3, 24, 5, 5), 3),
    "dirac_ 3-d": lambda lib: lib.nn.init.dirac_(lib.empty(4, 2, 3)),
    "dirac_ 5-d": lambda lib: lib.nn.init.dirac_(lib.empty(2, 2, 3, 4, 3)),
    "dirac_ more out than in, groups": lambda lib: lib.nn.init.dirac_(lib.empty(6, 2, 2, 2), 2),
    "dirac_ of a conv's weight": lambda lib: lib.nn.init.dirac_(lib.nn.Conv2d(3, 5, 3).weight),
    "sparse_": lambda lib: lib.nn.init.sparse_(lib.empty(5, 7), 0.3),
    "sparse_ std, generator": lambda lib: lib.nn.init.sparse_(
        lib.empty(4, 3), 0.5, std=2.0, generator=lib.Generator().manual_seed(3)),
    "sparse_ none zero, float64": lambda lib: lib.nn.init.sparse_(
        lib.empty(6, 2, dtype=lib.float64), 0.0),
    "sparse_ all zero": lambda lib: lib.nn.init.sparse_(lib.empty(3, 2), 1.0),
    "sparse_ of a linear's weight": lambda lib: lib.nn.init.sparse_(lib.nn.Linear(4, 6).weight,
                                                                    0.5),
}


@pytest.mark.parametrize("name", list(TRUNCATED))
def test_trunc_normal_and_eye_give_torchs_values(name):
    """trunc_normal_ draws as PyTorch 2.13 (normal samples redrawn outside [a, b] when
    it holds more than 30 % of the distribution, else uniform samples kept by their
    density); sparse_ draws normals, then a randperm per column from the default
    generator; eye_ and dirac_ draw nothing: after one seed, the same bits, dtype and
    requires_grad (and the default generator's state)."""
    results = []
    for lib in (mg, torch):
        lib.manual_seed(7)
        made = TRUNCATED[name](lib)
        results.append((made.detach().numpy().copy(), made.dtype is not None and
                        str(made.dtype), made.requires_grad, made.grad_fn is None,
                        lib.get_rng_state().numpy().tobytes()))
    (ours, *rest), (theirs, *also) = results
    assert rest == also and ours.dtype == theirs.dtype
    assert np.array_equal(ours.view(np.uint8), theirs.view(np.uint8))


@pytest.mark.parametrize("call", [
    pytest.param(lambda lib: lib.nn.init.eye_(lib.empty(2, 2, 2)), id="eye_-3-d"),
    pytest.param(lambda lib: lib.nn.init.dirac_(lib.empty(3, 3)), id="dirac_-2-d"),
    pytest.param(lambda lib: lib.nn.init.dirac_(lib.empty(3, 4, 3), 2), id="dirac_-groups"),
    pytest.param(lambda lib: lib.nn.init.sparse_(lib.empty(3), 0.1), id="sparse_-1-d"),
    pytest.param(lambda lib: lib.nn.init.trunc_normal_(lib.empty(5), mean=10.0), id="far-mean"),
])
def test_trunc_normal_and_eye_errors_and_warnings_are_torchs(call):
    outcomes = []
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                call(lib)
                error = None
            except ValueError as raised_here:
                error = str(raised_here)
            outcomes.append((error, [str(w.message) for w in caught]))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("shape, gain, dtype", [
    ((4, 3), 1.0, "float32"), ((3, 5), 2.0, "float32"), ((6, 6), 1.0, "float64"),
    ((8, 2, 3), 0.5, "float32"), ((5, 1), 1.0, "float64"), ((0, 3), 1.0, "float32")])
def test_orthogonal_draws_torchs_matrix(shape, gain, dtype):
    """orthogonal_ draws PyTorch's normal samples and orthogonalises them by QR with Q's
    columns signed by R's diagonal, as torch: the same matrix after a seed, to the last
    bits NumPy's LAPACK and PyTorch's round otherwise (QR: 1e-7 in float32, 1e-15 in
    float64), written in place, and (semi-)orthogonal times gain."""
    results = []
    for lib in (mg, torch):
        lib.manual_seed(4)
        tensor = lib.empty(*shape, dtype=getattr(lib, dtype))
        assert lib.nn.init.orthogonal_(tensor, gain) is tensor
        results.append(tensor.numpy().copy())
    ours, theirs = results
    tolerance = 1e-6 if dtype == "float32" else 1e-14
    np.testing.assert_allclose(ours, theirs, rtol=tolerance, atol=tolerance)
    if ours.size:
        flat = ours.reshape(shape[0], -1).astype(np.float64) / gain
        small = flat @ flat.T if flat.shape[0] <= flat.shape[1] else flat.T @ flat
        np.testing.assert_allclose(small, np.eye(len(small)), atol=10 * tolerance)


def test_orthogonal_refuses_a_vector_as_torch():
    outcomes = []
    for lib in (mg, torch):
        with pytest.raises(ValueError) as error:
            lib.nn.init.orthogonal_(lib.empty(3))
        outcomes.append(str(error.value))
    assert outcomes[0] == outcomes[1]
    weight = mg.nn.Parameter(mg.empty(3, 3))
    mg.nn.init.orthogonal_(weight)
    assert weight.grad_fn is None and weight.requires_grad


@pytest.mark.parametrize("name, args", [
    ("uniform", (-0.1, 0.1)), ("normal", (0.0, 0.02)), ("constant", (0.5,)), ("eye", ()),
    ("dirac", ()), ("xavier_uniform", ()), ("xavier_normal", ()), ("kaiming_uniform", ()),
    ("kaiming_normal", ()), ("orthogonal", ()), ("sparse", (0.5,))])
def test_old_names_without_underscore_warn_and_fill_as_torchs(name, args):
    """``nn.init.xavier_uniform(m.weight)`` (pytorch/examples siamese_network): PyTorch's
    deprecated aliases, its FutureWarning pointing at the caller, the same numbers."""
    seen, weights = {}, {}
    for lib in (torch, mg):
        lib.manual_seed(0)
        weights[lib] = lib.empty(4, 4, 1) if name == "dirac" else lib.empty(4, 4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            returned = getattr(lib.nn.init, name)(weights[lib], *args)
        seen[lib] = ([(w.category, str(w.message), w.filename) for w in caught],
                     returned is weights[lib], getattr(lib.nn.init, name).__name__)
    assert seen[mg] == seen[torch] and seen[mg][0][0][2] == __file__
    np.testing.assert_allclose(as_numpy(weights[mg]), as_numpy(weights[torch]), rtol=1e-5,
                               atol=1e-6)
