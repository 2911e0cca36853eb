"""nn.Module and nn.Parameter against torch.nn: the same model built in both
libraries must print the same, list the same parameters, children and
state_dict keys in the same order, raise the same errors, and behave the same
under zero_grad, train/eval and load_state_dict."""

import copy

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, close, copy_weights, raised, rand, same_grads, twins


# ---- the same architectures, written once for both libraries -------------------

def mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(256, 10), nn.Softmax(dim=1))


def every_layer(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Flatten(), nn.Identity(), nn.Linear(12, 8, bias=False), nn.ReLU(inplace=True),
        nn.Tanh(), nn.Sigmoid(), nn.Softmax(), nn.LogSoftmax(dim=-1), nn.Dropout(),
        nn.Dropout(p=0.1, inplace=True), nn.MSELoss(), nn.NLLLoss(), nn.CrossEntropyLoss(),
        nn.BCEWithLogitsLoss(), nn.Flatten(0, 2),
    )


def nested(lib):
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.fc = nn.Linear(width, width)
            self.act = nn.Tanh()

        def forward(self, x):
            return self.act(self.fc(x))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = nn.Parameter(lib.ones(3))
            self.body = nn.Sequential(Block(3), Block(3))
            self.register_buffer("running", lib.zeros(3))
            self.register_buffer("scratch", lib.zeros(1), persistent=False)
            self.head = nn.Linear(3, 2)
            self.loss = nn.CrossEntropyLoss(weight=lib.ones(2))

        def forward(self, x):
            return self.head(self.body(x * self.scale))

    return Net()


def shared(lib):
    nn = lib.nn
    layer = nn.Linear(2, 2)
    return nn.Sequential(layer, nn.ReLU(), layer)


def ordered(lib):
    from collections import OrderedDict

    nn = lib.nn
    return nn.Sequential(OrderedDict([("hidden", nn.Linear(4, 3)), ("act", nn.ReLU()),
                                      ("out", nn.Linear(3, 1))]))


MODELS = [mlp, every_layer, nested, shared, ordered]


def build(model):
    mg.manual_seed(0)
    return model(mg), model(torch)


@pytest.mark.parametrize("model", MODELS)
def test_repr_is_torchs(model):
    mine, theirs = build(model)
    assert repr(mine) == repr(theirs)


@pytest.mark.parametrize("model", MODELS)
def test_names_and_order_are_torchs(model):
    mine, theirs = build(model)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    assert [n for n, _ in mine.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert [n for n, _ in mine.named_children()] == [n for n, _ in theirs.named_children()]
    assert [n for n, _ in mine.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [type(m).__name__ for m in mine.modules()] == \
        [type(m).__name__ for m in theirs.modules()]
    assert len(list(mine.parameters())) == len(list(theirs.parameters()))
    assert [n for n, _ in mine.named_parameters(recurse=False)] == \
        [n for n, _ in theirs.named_parameters(recurse=False)]
    assert [n for n, _ in mine.named_parameters(prefix="model")] == \
        [n for n, _ in theirs.named_parameters(prefix="model")]


def test_forward_of_a_custom_module_matches_torch():
    mine, theirs = build(nested)
    copy_weights(mine, theirs)
    x_mg, x_t = twins(rand((5, 3)), requires_grad=True)
    out_mg, out_t = mine(x_mg), theirs(x_t)
    close(out_mg, out_t)
    out_mg.sum().backward()
    out_t.sum().backward()
    same_grads(mine, theirs)
    close(x_mg.grad, x_t.grad)


# ---- zero_grad ---------------------------------------------------------------

def _backward_twice(mine, theirs):
    x_mg, x_t = twins(rand((4, 3)))
    for _ in range(2):  # gradients accumulate across backward calls
        mine(x_mg).pow(2).sum().backward()
        theirs(x_t).pow(2).sum().backward()


def test_gradients_accumulate_and_zero_grad_sets_them_to_none():
    mine, theirs = build(nested)
    copy_weights(mine, theirs)
    _backward_twice(mine, theirs)
    same_grads(mine, theirs)
    assert all(p.grad is not None for p in mine.parameters())
    mine.zero_grad()
    theirs.zero_grad()
    assert [p.grad is None for p in mine.parameters()] == \
        [p.grad is None for p in theirs.parameters()] == [True] * len(list(mine.parameters()))


def test_zero_grad_set_to_none_false_keeps_zero_tensors():
    mine, theirs = build(nested)
    copy_weights(mine, theirs)
    _backward_twice(mine, theirs)
    mine.zero_grad(set_to_none=False)
    theirs.zero_grad(set_to_none=False)
    same_grads(mine, theirs)
    for p in mine.parameters():
        assert not p.grad.requires_grad and not p.grad.numpy().any()
    _backward_twice(mine, theirs)  # and they accumulate again from zero
    same_grads(mine, theirs)


def test_zero_grad_skips_parameters_without_grad():
    layer = mg.nn.Linear(2, 2)
    layer.zero_grad(set_to_none=False)
    assert layer.weight.grad is None


# ---- train / eval ------------------------------------------------------------

@pytest.mark.parametrize("model", [mlp, nested])
def test_train_and_eval_reach_every_submodule(model):
    mine, theirs = build(model)
    assert [m.training for m in mine.modules()] == [m.training for m in theirs.modules()]
    assert mine.eval() is mine
    theirs.eval()
    assert [m.training for m in mine.modules()] == [m.training for m in theirs.modules()]
    assert not any(m.training for m in mine.modules())
    mine.train()
    theirs.train()
    assert all(m.training for m in mine.modules())
    mine[0].eval() if isinstance(mine, mg.nn.Sequential) else mine.body.eval()
    theirs[0].eval() if isinstance(theirs, torch.nn.Sequential) else theirs.body.eval()
    assert [m.training for m in mine.modules()] == [m.training for m in theirs.modules()]


def test_train_wants_a_bool():
    mine, theirs = build(mlp)
    assert raised(lambda: mine.train("no")) == raised(lambda: theirs.train("no"))


def test_requires_grad_freezes_parameters():
    mine, theirs = build(nested)
    mine.body.requires_grad_(False)
    theirs.body.requires_grad_(False)
    assert [p.requires_grad for p in mine.parameters()] == \
        [p.requires_grad for p in theirs.parameters()]


def test_apply_visits_children_first():
    for lib in (mg, torch):
        seen = []
        nested(lib).apply(lambda m: seen.append(type(m).__name__))
        if lib is mg:
            mine = seen
    assert mine == seen


# ---- attributes: registration and its errors --------------------------------------

def test_attribute_assignment_registers_and_reregisters():
    for lib in (mg, torch):
        layer = lib.nn.Linear(2, 2)
        layer.extra = lib.nn.Parameter(lib.zeros(1))   # a new parameter
        layer.child = lib.nn.ReLU()                     # a sub-module
        layer.plain = lib.zeros(1)                      # a plain attribute, not registered
        layer.bias = None                               # removes bias from the state_dict
        layer.child = lib.nn.Parameter(lib.zeros(2))    # a module name re-used for a parameter
        del layer.extra
        keys = (list(layer.state_dict()), [n for n, _ in layer.named_children()])
        if lib is mg:
            mine = keys
    assert mine == keys


@pytest.mark.parametrize("action", [
    pytest.param(lambda lib, m: setattr(m, "weight", lib.ones(2, 2)), id="tensor-as-parameter"),
    pytest.param(lambda lib, m: setattr(m, "weight", 3), id="int-as-parameter"),
    pytest.param(lambda lib, m: m.register_buffer("a.b", lib.ones(1)), id="buffer-dot"),
    pytest.param(lambda lib, m: m.register_buffer("", lib.ones(1)), id="buffer-empty"),
    pytest.param(lambda lib, m: m.register_buffer("weight", lib.ones(1)), id="buffer-exists"),
    pytest.param(lambda lib, m: m.register_buffer("b", 3), id="buffer-not-tensor"),
    pytest.param(lambda lib, m: m.register_buffer(1, lib.ones(1)), id="buffer-name-int"),
    pytest.param(lambda lib, m: m.register_parameter("p", lib.ones(1)), id="param-not-param"),
    pytest.param(lambda lib, m: m.register_parameter("a.b", None), id="param-dot"),
    pytest.param(lambda lib, m: m.add_module("x", 3), id="module-not-module"),
    pytest.param(lambda lib, m: m.add_module("", lib.nn.ReLU()), id="module-empty"),
    pytest.param(lambda lib, m: m.add_module("weight", lib.nn.ReLU()), id="module-exists"),
    pytest.param(lambda lib, m: m.nothing, id="missing-attribute"),
    pytest.param(lambda lib, m: lib.nn.Module()(lib.ones(1)), id="no-forward"),
])
def test_errors_are_torchs(action):
    mine = raised(lambda: action(mg, mg.nn.Linear(2, 2)))
    assert mine == raised(lambda: action(torch, torch.nn.Linear(2, 2)))


def test_assigning_before_init_is_torchs_error():
    def attempt(lib, value):
        class Early(lib.nn.Module):
            def __init__(self):
                self.thing = value(lib)
                super().__init__()
        return raised(Early)

    for value in (lambda lib: lib.nn.Parameter(lib.ones(1)), lambda lib: lib.nn.ReLU()):
        assert attempt(mg, value) == attempt(torch, value)


def test_buffer_assignment_keeps_it_a_buffer():
    for lib in (mg, torch):
        model = nested(lib)
        model.running = lib.ones(3)
        if lib is mg:
            mine = list(model.state_dict())
            assert model.state_dict()["running"].tolist() == [1.0, 1.0, 1.0]
    assert mine == list(model.state_dict())
    assert raised(lambda: setattr(nested(mg), "running", 3)) == \
        raised(lambda: setattr(nested(torch), "running", 3))


# ---- state_dict / load_state_dict ---------------------------------------------

def test_state_dict_shares_memory_and_is_detached():
    mine, theirs = build(nested)
    for model in (mine, theirs):
        state = model.state_dict()
        assert not state["head.weight"].requires_grad
        state["head.weight"].zero_()  # writes through to the model, as in torch
        assert not as_numpy(model.head.weight).any()
        assert model.state_dict(keep_vars=True)["head.weight"] is model.head.weight


def test_load_state_dict_copies_values_in_place():
    mg.manual_seed(1)
    target, source = nested(mg), nested(mg)
    weight = target.head.weight
    result = target.load_state_dict(source.state_dict())
    assert repr(result) == repr(torch.nn.Linear(1, 1).load_state_dict(
        torch.nn.Linear(1, 1).state_dict()))
    assert target.head.weight is weight  # same Parameter, new values
    for (name, a), (_, b) in zip(target.state_dict().items(), source.state_dict().items()):
        np.testing.assert_array_equal(as_numpy(a), as_numpy(b), err_msg=name)


def _damaged(lib, model, change):
    state = model.state_dict()
    change(lib, state)
    return state


DAMAGE = [
    pytest.param(lambda lib, s: s.pop("body.0.fc.weight"), id="missing"),
    pytest.param(lambda lib, s: s.update({"body.5.fc.weight": lib.ones(1)}), id="unexpected-child"),
    pytest.param(lambda lib, s: s.update({"head.other": lib.ones(1)}), id="unexpected-own"),
    pytest.param(lambda lib, s: s.update({"scratch": lib.ones(1)}), id="non-persistent"),
    pytest.param(lambda lib, s: s.update({"head.bias": lib.ones(5)}), id="size-mismatch"),
    pytest.param(lambda lib, s: s.update({"scale": 3}), id="not-a-tensor"),
    pytest.param(lambda lib, s: (s.pop("scale"), s.pop("loss.weight"),
                                 s.update({"extra": lib.ones(1), "head.weight": lib.ones(1)})),
                 id="everything"),
]


@pytest.mark.parametrize("change", DAMAGE)
@pytest.mark.parametrize("strict", [True, False])
def test_load_state_dict_problems_are_torchs(change, strict):
    def load(lib):
        model = nested(lib)
        state = _damaged(lib, nested(lib), change)
        try:
            result = model.load_state_dict(state, strict=strict)
        except Exception as error:  # noqa: BLE001
            return type(error), str(error)
        return list(result.missing_keys), list(result.unexpected_keys), repr(result)

    assert load(mg) == load(torch)


def test_load_state_dict_wants_a_mapping():
    assert raised(lambda: mg.nn.Linear(1, 1).load_state_dict([])) == \
        raised(lambda: torch.nn.Linear(1, 1).load_state_dict([]))


# ---- Parameter -----------------------------------------------------------------

@pytest.mark.parametrize("values, kwargs", [
    ([1.0, 2.0], {}),
    ([[0.5, -1.25], [3.0, 4.0]], {}),
    ([1.0, 2.0], {"requires_grad": False}),
    ([0.1, 0.2], {"dtype": "float64"}),
])
def test_parameter_repr_is_torchs(values, kwargs):
    dtype = kwargs.pop("dtype", "float32")
    data = np.array(values, dtype=dtype)
    mine = mg.nn.Parameter(mg.tensor(data), **kwargs)
    theirs = torch.nn.Parameter(torch.tensor(data), **kwargs)
    assert repr(mine) == repr(theirs)
    assert str(mine) == str(theirs)


def test_empty_parameter_and_integer_parameter_are_torchs():
    assert repr(mg.nn.Parameter()) == repr(torch.nn.Parameter())
    assert raised(lambda: mg.nn.Parameter(mg.arange(3))) == \
        raised(lambda: torch.nn.Parameter(torch.arange(3)))


def test_parameter_is_a_leaf_tensor_sharing_memory():
    for lib in (mg, torch):
        data = lib.ones(2, requires_grad=True) * 2  # not a leaf
        param = lib.nn.Parameter(data)
        assert isinstance(param, lib.Tensor) and param.is_leaf and param.requires_grad
        assert type(param * 2) is lib.Tensor  # results of operations are plain tensors
        with lib.no_grad():
            data.add_(1)
        assert param.tolist() == [3.0, 3.0]


def test_deepcopy_gives_independent_parameters():
    model = nested(mg)
    model(mg.ones(1, 3)).sum().backward()
    clone = copy.deepcopy(model)
    assert type(clone.head.weight) is mg.nn.Parameter and clone.head.weight.grad is None
    np.testing.assert_array_equal(as_numpy(clone.head.weight), as_numpy(model.head.weight))
    old = as_numpy(model.head.weight).copy()
    clone(mg.ones(1, 3)).sum().backward()
    with mg.no_grad():
        clone.head.weight.add_(1)
    np.testing.assert_array_equal(as_numpy(model.head.weight), old)
    assert clone.head.weight.grad is not None


def test_a_module_or_parameter_assigned_again_keeps_its_place_as_in_torch():
    """``resnet.conv1 = nn.Conv2d(1, 64, ...)`` then ``Sequential(*list(resnet.children())
    [:-1])`` (pytorch/examples siamese_network): the new conv1 stays first, as in PyTorch;
    so does a parameter, a buffer, and a name moved from one table to another."""
    seen = {}
    for lib in (torch, mg):
        nn = lib.nn
        net = nn.Module()
        net.conv1, net.bn1, net.fc = nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.Linear(4, 2)
        net.conv1 = nn.Conv2d(1, 4, 3)
        net.fc.weight = nn.Parameter(lib.ones(2, 4))
        net.register_buffer("a", lib.ones(1))
        net.register_buffer("b", lib.ones(1))
        net.a = lib.zeros(1)
        net.bn1 = None
        net.extra = nn.ReLU()
        net.bn1 = nn.Tanh()
        net.w = nn.Parameter(lib.ones(1))
        net.register_buffer("c", lib.ones(1))
        net.c = nn.Parameter(lib.ones(1))  # (a buffer no more: a parameter, at the end)
        seen[lib] = ([n for n, _ in net.named_children()], [n for n, _ in net.named_parameters()],
                     [n for n, _ in net.named_buffers()], list(net.state_dict()),
                     [type(m).__name__ for m in nn.Sequential(*list(net.children())[:-1])])
    assert seen[mg] == seen[torch]


@pytest.mark.parametrize("dst_type", ["DoubleTensor", "float16", "torch.DoubleTensor", "FloatTensor"])
def test_module_type_converts_parameters_buffers_and_grads_as_torch(dst_type):
    """``model.type(dtype)`` (CS231n's GAN notebook: ``discriminator().type(dtype)`` with
    ``dtype = torch.FloatTensor``): every parameter, buffer and gradient converted, the
    integer ``num_batches_tracked`` too, the module itself returned."""
    seen = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
        model(lib.randn(4, 2)).pow(2).mul(lib.arange(3.0)).sum().backward()
        target = dst_type if dst_type.startswith("torch.") else getattr(lib, dst_type)
        returned = model.type(target)
        tensors = list(model.state_dict().items()) + [("grad", model[0].weight.grad)]
        seen.append(([returned is model, type(model[0].weight).__name__, model[0].weight.requires_grad]
                     + [(name, str(t.dtype), t.shape) for name, t in tensors],
                     [t.double().numpy() for _, t in tensors]))
    assert seen[0][0] == seen[1][0]
    for mine, theirs in zip(seen[0][1], seen[1][1]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)
