"""The legacy API the 2017 tutorials use, against PyTorch 2.13:
``torch.autograd.Variable`` and the losses' ``size_average=`` / ``reduce=``."""

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import close, raised, rand


def caught_warnings(fn):
    """(result, [(category, message, file name)]) of ``fn()``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [(w.category, str(w.message), w.filename) for w in caught]


# ---- Variable -------------------------------------------------------------------------------

@pytest.mark.parametrize("make, kwargs", [
    pytest.param(lambda lib: lib.ones(2, 3), {}, id="plain"),
    pytest.param(lambda lib: lib.ones(2, 3), {"requires_grad": True}, id="requires-grad"),
    pytest.param(lambda lib: lib.ones(2, requires_grad=True), {}, id="from-a-leaf"),
    pytest.param(lambda lib: lib.ones(2, requires_grad=True) * 2, {"requires_grad": True},
                 id="from-a-non-leaf"),
    pytest.param(lambda lib: lib.arange(3), {}, id="integers"),
    pytest.param(lambda lib: lib.ones(2), {"volatile": True}, id="volatile"),
])
def test_variable_returns_a_tensor_like_torchs(make, kwargs):
    seen = []
    for lib in (mg, torch):
        data = make(lib)
        v, warned = caught_warnings(lambda: lib.autograd.Variable(data, **kwargs))
        assert type(v) is lib.Tensor and isinstance(v, lib.autograd.Variable)
        seen.append((repr(v), v.requires_grad, v.is_leaf, v is data, v.grad_fn,
                     [(c, m) for c, m, _ in warned]))
        v.detach().view(-1)[0] = 7  # shares its data with the tensor it was made from
        assert data.view(-1)[0].item() == 7
        for _, _, filename in warned:
            assert filename == __file__
    assert seen[0] == seen[1]


def test_variable_trains_as_in_the_old_tutorials():
    results = []
    for lib in (mg, torch):
        Variable = lib.autograd.Variable
        x = Variable(lib.tensor(rand((5, 3), seed=1)), requires_grad=False)
        w = Variable(lib.tensor(rand((3, 1), seed=2)), requires_grad=True)
        for _ in range(3):
            loss = (x.mm(w) - 1).pow(2).sum()
            loss.backward()
            w.data -= 0.01 * w.grad.data
            w.grad.data.zero_()
        results.append((loss.item(), w.detach().numpy().copy()))
    assert results[0][0] == pytest.approx(results[1][0], rel=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6)


@pytest.mark.parametrize("call", [
    pytest.param(lambda lib: lib.autograd.Variable([1.0, 2.0]), id="a-list"),
    pytest.param(lambda lib: lib.autograd.Variable(lib.arange(3), requires_grad=True),
                 id="integer-requires-grad"),
])
def test_variable_errors_are_torchs(call):
    assert raised(lambda: call(mg)) == raised(lambda: call(torch))


def test_empty_variable_and_isinstance():
    assert repr(mg.autograd.Variable()) == repr(torch.autograd.Variable())
    assert not isinstance([1.0], mg.autograd.Variable)
    assert isinstance(mg.ones(1), mg.autograd.Variable)


# ---- size_average= / reduce= ---------------------------------------------------------------

LEGACY = [
    pytest.param({"size_average": False}, id="size_average=False"),
    pytest.param({"size_average": True}, id="size_average=True"),
    pytest.param({"reduce": False}, id="reduce=False"),
    pytest.param({"reduce": True}, id="reduce=True"),
    pytest.param({"size_average": False, "reduce": False}, id="both-False"),
    pytest.param({"size_average": True, "reduce": False, "reduction": "sum"}, id="overrides"),
]

SCORES = rand((4, 3), seed=3)
CLASSES = np.array([0, 2, 1, 2])
PROBS = rand((4, 3), seed=4, low=0, high=1)

LOSSES = {
    "MSELoss": (lambda lib: lib.tensor(SCORES), lambda lib: lib.tensor(PROBS), {}),
    "NLLLoss": (lambda lib: lib.tensor(SCORES).log_softmax(1), lambda lib: lib.tensor(CLASSES),
                {"weight": lambda lib: lib.tensor([1.0, 2.0, 0.5])}),
    "CrossEntropyLoss": (lambda lib: lib.tensor(SCORES), lambda lib: lib.tensor(CLASSES),
                         {"ignore_index": 1}),
    "BCEWithLogitsLoss": (lambda lib: lib.tensor(SCORES), lambda lib: lib.tensor(PROBS),
                          {"pos_weight": lambda lib: lib.tensor([1.0, 3.0, 0.5])}),
}
FUNCTIONAL = {"MSELoss": "mse_loss", "NLLLoss": "nll_loss", "CrossEntropyLoss": "cross_entropy",
              "BCEWithLogitsLoss": "binary_cross_entropy_with_logits"}


def _options(lib, extra):
    return {key: value(lib) if callable(value) else value for key, value in extra.items()}


@pytest.mark.parametrize("legacy", LEGACY)
@pytest.mark.parametrize("name", list(LOSSES))
def test_loss_modules_map_legacy_arguments_like_torch(name, legacy):
    make_input, make_target, extra = LOSSES[name]
    seen = []
    for lib in (mg, torch):
        module, warned = caught_warnings(
            lambda: getattr(lib.nn, name)(**_options(lib, extra), **legacy))
        x = make_input(lib).requires_grad_()
        loss = module(x, make_target(lib))
        loss.sum().backward()
        seen.append((module.reduction, [(c, m) for c, m, _ in warned], loss, x.grad))
    assert seen[0][:2] == seen[1][:2]
    close(seen[0][2], seen[1][2])
    close(seen[0][3], seen[1][3])


@pytest.mark.parametrize("legacy", LEGACY)
@pytest.mark.parametrize("name", list(LOSSES))
def test_loss_functions_map_legacy_arguments_like_torch(name, legacy):
    make_input, make_target, extra = LOSSES[name]
    seen = []
    for lib in (mg, torch):
        function = getattr(lib.nn.functional, FUNCTIONAL[name])
        loss, warned = caught_warnings(
            lambda: function(make_input(lib), make_target(lib), **_options(lib, extra), **legacy))
        seen.append(([(c, m) for c, m, _ in warned], loss))
    assert seen[0][0] == seen[1][0]
    close(seen[0][1], seen[1][1])


def test_positional_arguments_follow_torchs_order():
    """``NLLLoss(weight, size_average, ignore_index, reduce, reduction)``, as in PyTorch."""
    seen = []
    for lib in (mg, torch):
        module, warned = caught_warnings(
            lambda: lib.nn.CrossEntropyLoss(None, False, 2, None))
        loss = module(lib.tensor(SCORES), lib.tensor(CLASSES))
        seen.append((module.reduction, module.ignore_index, [(c, m) for c, m, _ in warned],
                     loss.item()))
    assert seen[0][:3] == seen[1][:3] and seen[0][3] == pytest.approx(seen[1][3], rel=1e-6)


# ---- torch.nn.modules: PyTorch's paths to the layer files ----------------------------------

@pytest.mark.parametrize("path, name", [
    ("nn.modules.loss", "_Loss"), ("nn.modules.loss", "_WeightedLoss"),
    ("nn.modules.module", "Module"), ("nn.modules.conv", "Conv2d"),
    ("nn.modules.linear", "Linear"), ("nn.modules.activation", "ReLU"),
    ("nn.modules.batchnorm", "BatchNorm1d"), ("nn.modules.container", "Sequential"),
    ("nn.modules.rnn", "LSTM"), ("nn.modules", "Linear"), ("nn.modules", "CrossEntropyLoss"),
])
def test_torch_nn_modules_paths_name_the_same_classes(path, name):
    """``from torch.nn.modules.loss import _Loss`` finds the class ``torch.nn`` has."""
    for lib, package in ((mg, "minigrad"), (torch, "torch")):
        found = getattr(__import__(f"{package}.{path}", fromlist=[name]), name)
        assert found.__name__ == name and issubclass(found, lib.nn.Module)
        assert found is getattr(lib.nn, name, found)


def test_a_loss_written_on_nn_modules_loss_runs_as_torchs():
    def program(lib):
        class Squared(lib.nn.modules.loss._Loss):
            def forward(self, a, b):
                return ((a - b) ** 2).sum() if self.reduction == "sum" else ((a - b) ** 2).mean()
        x = lib.arange(4.0, requires_grad=True)
        loss = Squared(reduction="sum")(x, lib.ones(4))
        loss.backward()
        return repr(loss), x.grad.tolist(), repr(Squared())
    assert program(mg) == program(torch)
