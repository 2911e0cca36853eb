"""Devices against PyTorch 2.13 on this CPU-only machine: ``torch.device``, ``device=`` on
every factory and on ``.to()``, the errors for a device minigrad does not have, the
"is there a GPU?" questions, and the default device."""

import pickle

import numpy as np
import pytest
import torch

import minigrad as mg


def outcome(fn):
    """What ``fn()`` gives: ('ok', repr) or (exception type name, message)."""
    try:
        return "ok", repr(fn())
    except BaseException as error:  # noqa: BLE001 - AssertionError included, as torch raises it
        return type(error).__name__, str(error)


@pytest.fixture(autouse=True)
def default_device_restored():
    yield
    torch.set_default_device(None)
    mg.set_default_device(None)


# ---- torch.device ----------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ("cpu",), ("cpu:0",), ("cpu:1",), ("cpu", 0), ("cpu", 3), ("cpu", None), ("cuda",),
    ("cuda:1",), ("mps",), ("meta",), ("xla:2",),
    ("foo",), ("CPU",), (" cpu",), ("cpu:x",), ("cpu:-1",), ("cpu:00",), ("cpu:01",),
    ("cuda:0:1",), ("cpu:0", 1), ("cpu", -1), ("cpu", "a"), ("cpu", True), (0,), (1,),
    (3.5,), (None,), (True,), ([1],),
])
def test_device_construction_matches_torch(args):
    mine, theirs = outcome(lambda: mg.device(*args)), outcome(lambda: torch.device(*args))
    if theirs[0] == "TypeError" and "invalid combination" in theirs[1] and "list" in theirs[1]:
        assert mine[0] == "TypeError"  # torch names the list's items: "(!list of [int]!)"
    else:
        assert mine == theirs


@pytest.mark.parametrize("text", ["cpu", "cpu:0", "cuda:1", "mps"])
def test_device_attributes_str_hash_and_pickle(text):
    mine, theirs = mg.device(text), torch.device(text)
    assert (mine.type, mine.index, str(mine), repr(mine)) == \
           (theirs.type, theirs.index, str(theirs), repr(theirs))
    assert mg.device(mine) == mine and hash(mg.device(text)) == hash(mine)
    assert pickle.loads(pickle.dumps(mine)) == mine
    assert mg.device(type=text) == mine


@pytest.mark.parametrize("a, b", [("cpu", "cpu"), ("cpu", "cpu:0"), ("cpu:0", "cpu:0"),
                                  ("cpu:0", "cpu:1"), ("cpu", "cuda")])
def test_device_equality_is_torchs(a, b):
    assert (mg.device(a) == mg.device(b)) == (torch.device(a) == torch.device(b))
    assert (mg.device(a) != mg.device(b)) == (torch.device(a) != torch.device(b))
    assert (mg.device(a) == a) == (torch.device(a) == a)  # never equal to a string


def test_tensor_device_and_cpu_questions():
    for lib in (mg, torch):
        x = lib.ones(2)
        assert x.device == lib.device("cpu") and x.device != lib.device("cpu:0")
    x, y = mg.ones(2), torch.ones(2)
    assert (repr(x.device), str(x.device)) == (repr(y.device), str(y.device))
    assert (x.is_cpu, x.is_cuda, x.get_device()) == (y.is_cpu, y.is_cuda, y.get_device())
    assert x.cpu() is x


# ---- device= on every factory --------------------------------------------------------------

FACTORIES = {
    "tensor": lambda lib, d: lib.tensor([1.0, 2.0], device=d),
    "as_tensor": lambda lib, d: lib.as_tensor([1.0, 2.0], device=d),
    "zeros": lambda lib, d: lib.zeros(2, 3, device=d),
    "ones": lambda lib, d: lib.ones((2,), device=d),
    "empty": lambda lib, d: lib.empty(2, device=d).shape,
    "full": lambda lib, d: lib.full((2,), 7.0, device=d),
    "arange": lambda lib, d: lib.arange(0, 5, 2, device=d),
    "linspace": lambda lib, d: lib.linspace(0, 1, 5, device=d),
    "eye": lambda lib, d: lib.eye(3, device=d),
    "randn": lambda lib, d: lib.randn(2, 2, device=d).shape,
    "rand": lambda lib, d: lib.rand(3, device=d).shape,
    "randint": lambda lib, d: lib.randint(0, 5, (4,), device=d).shape,
    "zeros_like": lambda lib, d: lib.zeros_like(lib.ones(2), device=d),
    "ones_like": lambda lib, d: lib.ones_like(lib.ones(2), device=d),
    "full_like": lambda lib, d: lib.full_like(lib.ones(2), 3.0, device=d),
    "rand_like": lambda lib, d: lib.rand_like(lib.ones(2), device=d).shape,
    "randn_like": lambda lib, d: lib.randn_like(lib.ones(2), device=d).shape,
}
CPU_DEVICES = ["cpu", "cpu:0", "cpu:1", None, "device-object"]
# What PyTorch (CPU-only) says differs by device type and, for most types, by whether a
# factory makes the tensor or data is copied to the device.
MISSING_DEVICES = ["cuda", "cuda:0", "xpu", "mps", "xla", "vulkan", "hip", "lazy", "mtia",
                   "hpu", "foo", "cuda-object", 0, 2, 3.5]


def _device_argument(lib, name):
    return {"device-object": lib.device("cpu"), "cuda-object": lib.device("cuda")}.get(name, name)


@pytest.mark.parametrize("device", CPU_DEVICES)
@pytest.mark.parametrize("factory", list(FACTORIES))
def test_factories_accept_the_cpu(factory, device):
    make = FACTORIES[factory]
    mine = make(mg, _device_argument(mg, device))
    theirs = make(torch, _device_argument(torch, device))
    assert repr(mine) == repr(theirs)
    if hasattr(mine, "device"):
        assert mine.device == mg.device("cpu")


@pytest.mark.parametrize("device", MISSING_DEVICES)
@pytest.mark.parametrize("factory", list(FACTORIES))
def test_factories_raise_torchs_error_for_a_missing_device(factory, device):
    make = FACTORIES[factory]
    mine = outcome(lambda: make(mg, _device_argument(mg, device)))
    theirs = outcome(lambda: make(torch, _device_argument(torch, device)))
    assert mine[0] == theirs[0]
    if mine[0] == "NotImplementedError":
        # The dispatcher's message goes on to list this PyTorch build's backends; minigrad
        # gives its first two sentences (and *_like names aten::empty_strided, not empty).
        assert theirs[1].startswith(mine[1].replace("aten::empty.memory_format",
                                                    "aten::empty_strided")) \
            or theirs[1].startswith(mine[1])
    elif mine[0] == "TypeError":  # torch's argument parser: "zeros(): argument 'device' ..."
        assert "device" in mine[1] or "device" in theirs[1]
    else:
        assert mine == theirs


# ---- .to() -------------------------------------------------------------------------------

TO_CALLS = {
    "device": lambda lib, x: x.to("cpu"),
    "device:0": lambda lib, x: x.to("cpu:0"),
    "device-object": lambda lib, x: x.to(lib.device("cpu")),
    "keyword": lambda lib, x: x.to(device="cpu"),
    "device-dtype": lambda lib, x: x.to("cpu", lib.float64),
    "keywords": lambda lib, x: x.to(device=lib.device("cpu"), dtype=lib.float64),
    "dtype": lambda lib, x: x.to(lib.float64),
    "same-dtype": lambda lib, x: x.to(lib.float32),
    "other-tensor": lambda lib, x: x.to(lib.zeros(1, dtype=lib.float64)),
    "nothing": lambda lib, x: x.to(),
    "copy": lambda lib, x: x.to("cpu", copy=True),
    "copy-positional": lambda lib, x: x.to(lib.float32, False, True),
    "non-blocking": lambda lib, x: x.to("cpu", non_blocking=True),
    "cuda": lambda lib, x: x.to("cuda"),
    "cuda-object": lambda lib, x: x.to(lib.device("cuda", 0)),
    "mps": lambda lib, x: x.to("mps"),
    "xla": lambda lib, x: x.to("xla"),
    "lazy": lambda lib, x: x.to("lazy"),
    "accelerator-index": lambda lib, x: x.to(1),
    "unknown": lambda lib, x: x.to("foo"),
    "cuda-method": lambda lib, x: x.cuda(),
    "cuda-method-index": lambda lib, x: x.cuda(0),
    "cuda-method-cpu": lambda lib, x: x.cuda("cpu"),
    "cuda-method-device": lambda lib, x: x.cuda(lib.device("cuda:1")),
    # read as PyTorch's parser reads to()'s three signatures (session 17)
    "dtype keyword not a dtype": lambda lib, x: x.to(dtype=3),
    "dtype then an int": lambda lib, x: x.to(lib.float32, 3),
    "dtype twice": lambda lib, x: x.to(lib.float64, dtype=lib.float32),
    "tensor and dtype": lambda lib, x: x.to(lib.zeros(1), dtype=lib.int64),
    "tensor keyword": lambda lib, x: x.to(tensor=lib.zeros(1, dtype=lib.float64)),
    "non_blocking not a bool": lambda lib, x: x.to(lib.float64, non_blocking=1),
    "memory_format not one": lambda lib, x: x.to(lib.float64, memory_format=lib.float64),
    "a Python type": lambda lib, x: x.to(int),
    "None": lambda lib, x: x.to(None),
    "type of a Python type": lambda lib, x: x.type(float),
    "type of a class": lambda lib, x: x.type(lib.nn.Linear),
    "type of a NumPy type": lambda lib, x: x.type(np.float32),
    "type of an int": lambda lib, x: x.type(3),
}


@pytest.mark.parametrize("call", list(TO_CALLS))
def test_to_matches_torch(call):
    results = []
    for lib in (mg, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        result = outcome(lambda: TO_CALLS[call](lib, x))
        same = TO_CALLS[call](lib, x) is x if result[0] == "ok" else None
        grad_fn = None
        if result[0] == "ok":
            node = TO_CALLS[call](lib, x).grad_fn
            grad_fn = None if node is None else type(node).__name__
        results.append((result, same, grad_fn))
    if results[1][0][0] == "NotImplementedError":
        assert results[0][0][0] == "NotImplementedError"
        assert results[1][0][1].startswith(results[0][0][1])
        return
    assert results[0] == results[1]


def test_to_copy_gives_new_memory():
    x = mg.ones(2)
    y = x.to("cpu", copy=True)
    y.add_(1)
    assert x.tolist() == [1.0, 1.0]


# ---- modules ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    pytest.param(lambda lib, m: m.to("cpu"), id="cpu"),
    pytest.param(lambda lib, m: m.to(lib.device("cpu")), id="cpu-object"),
    pytest.param(lambda lib, m: m.cpu(), id="cpu-method"),
    pytest.param(lambda lib, m: m.to(lib.float64), id="float64"),
    pytest.param(lambda lib, m: m.double(), id="double"),
    pytest.param(lambda lib, m: m.to("cpu", lib.float64).float(), id="and-back"),
    pytest.param(lambda lib, m: m.to(lib.int64), id="integer"),
    pytest.param(lambda lib, m: m.to("cuda"), id="cuda"),
    pytest.param(lambda lib, m: m.cuda(), id="cuda-method"),
    pytest.param(lambda lib, m: m.cuda("cpu"), id="cuda-method-cpu"),
    pytest.param(lambda lib, m: m.to(lib.device("mps")), id="mps"),
    pytest.param(lambda lib, m: m.to(dtype=3), id="dtype-not-a-dtype"),
    pytest.param(lambda lib, m: m.to(lib.float64, dtype=lib.float32), id="dtype-twice"),
])
def test_module_to_matches_torch(call):
    results = []
    for lib in (mg, torch):
        model = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.ReLU())
        result = outcome(lambda: call(lib, model))
        if result[0] != "ok":
            results.append(result)
            continue
        assert call(lib, model) is model
        results.append([(name, p.dtype.__repr__(), p.requires_grad, p.is_leaf)
                        for name, p in model.named_parameters()])
    assert [str(r) for r in results[0]] == [str(r) for r in results[1]]


def test_module_to_float64_trains_in_float64():
    model = mg.nn.Linear(3, 1).to(mg.float64)
    loss = model(mg.ones(4, 3, dtype=mg.float64)).pow(2).mean()
    loss.backward()
    assert model.weight.dtype == model.weight.grad.dtype == mg.float64


@pytest.mark.parametrize("device", ["cpu", "cpu:0", "cuda", "mps"])
def test_generator_device_matches_torch(device):
    mine = outcome(lambda: mg.Generator(device=device).device)
    theirs = outcome(lambda: torch.Generator(device=device).device)
    assert mine == theirs


# ---- "is there a GPU?" -------------------------------------------------------------------------

@pytest.mark.parametrize("question", [
    lambda lib: lib.cuda.is_available(),
    lambda lib: lib.cuda.device_count(),
    lambda lib: lib.cuda.is_initialized(),
    lambda lib: lib.cuda.manual_seed(0),
    lambda lib: lib.cuda.manual_seed_all(0),
    lambda lib: lib.cuda.current_device(),
    lambda lib: lib.cuda.get_device_name(0),
    lambda lib: lib.cuda.synchronize(),
    lambda lib: lib.backends.mps.is_available(),
    lambda lib: lib.backends.mps.is_built(),
    lambda lib: lib.backends.cudnn.is_available(),
    lambda lib: (lib.backends.cudnn.enabled, lib.backends.cudnn.deterministic,
                 lib.backends.cudnn.benchmark),
    lambda lib: lib.accelerator.is_available(),
    lambda lib: lib.accelerator.current_accelerator(),
    lambda lib: lib.accelerator.current_accelerator(check_available=True),
    lambda lib: lib.accelerator.device_count(),
])
def test_gpu_questions_answer_as_torch_does_without_one(question):
    assert outcome(lambda: question(mg)) == outcome(lambda: question(torch))


def test_use_the_gpu_if_there_is_one_idiom():
    outputs = []
    for lib in (mg, torch):
        device = lib.device("cuda" if lib.cuda.is_available() else "cpu")
        if lib.accelerator.is_available():
            device = lib.accelerator.current_accelerator()
        x = lib.tensor(np.arange(6.0).reshape(2, 3), dtype=lib.float32, device=device)
        model = lib.nn.Linear(3, 1).to(device)
        outputs.append((repr(device), repr(x.to(device) * 2), model(x).shape))
    assert outputs[0] == outputs[1]


# ---- the default device --------------------------------------------------------------------

@pytest.mark.parametrize("steps", [
    pytest.param([("get",)], id="get"),
    pytest.param([("set", "cpu"), ("get",), ("ones",)], id="cpu"),
    pytest.param([("set", "cpu:0"), ("ones",), ("tensor",)], id="cpu:0"),
    pytest.param([("set", "cuda"), ("get",)], id="cuda-get"),
    pytest.param([("set", "cuda"), ("ones",)], id="cuda-ones"),
    pytest.param([("set", "cuda"), ("tensor",)], id="cuda-tensor"),
    pytest.param([("set", "cuda"), ("like",)], id="cuda-like-follows-input"),
    pytest.param([("set", "cuda"), ("set", None), ("get",), ("ones",)], id="reset"),
    pytest.param([("set", "foo")], id="unknown"),
    pytest.param([("with", "cpu")], id="with-cpu"),
    pytest.param([("with", "cuda")], id="with-cuda"),
])
def test_default_device_matches_torch(steps):
    def run(lib):
        x = lib.ones(2)
        results = []
        for step in steps:
            if step[0] == "set":
                results.append(outcome(lambda: lib.set_default_device(step[1])))
            elif step[0] == "get":
                results.append(outcome(lib.get_default_device))
            elif step[0] == "ones":
                results.append(outcome(lambda: lib.ones(2)))
            elif step[0] == "tensor":
                results.append(outcome(lambda: lib.tensor([1.0])))
            elif step[0] == "like":
                results.append(outcome(lambda: lib.zeros_like(x)))
            else:
                def inside():
                    with lib.device(step[1]):
                        return lib.zeros(1)
                results.append(outcome(inside))
                results.append(outcome(lib.get_default_device))
        return results

    assert run(mg) == run(torch)
