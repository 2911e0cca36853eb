"""The layers of Karpathy's GPT lecture and nanoGPT against torch.nn, live: Embedding
(weights drawn as PyTorch draws them after a seed, padding_idx, EmbeddingBackward0 and
what it saves, the errors), LayerNorm (PyTorch's bits, forward and all gradients, for
rows of up to 128 float32; measured beyond), GELU (both approximations; how often the
last bit differs, measured), ModuleList and ModuleDict (list and dict behaviour, names
such as ``blocks.0.sa.heads.1.key.weight``, PyTorch's compressed printing), and the
pieces the lecture leans on: Dropout's mask after a seed, train()/eval(), buffers that
are not persistent, ``multinomial(probs, num_samples=1)``."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest
import torch

import minigrad as mg
from minigrad.kernels import vec

from nn_twins import as_numpy, raised, rand


def both(build):
    """``build(lib)`` for minigrad and torch, each after manual_seed(1337)."""
    mg.manual_seed(1337)
    ours = build(mg)
    torch.manual_seed(1337)
    return ours, build(torch)


def bits_equal(mine, theirs) -> bool:
    a, b = as_numpy(mine), as_numpy(theirs)
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(
        a.view(np.uint8), b.view(np.uint8))


def same_repr(build):
    ours, theirs = both(build)
    assert repr(ours) == repr(theirs)
    return ours, theirs


def same_error(call):
    mine, theirs = raised(lambda: call(mg)), raised(lambda: call(torch))
    assert mine == theirs


# ---- Embedding -----------------------------------------------------------------------

@pytest.mark.parametrize("args", [(65, 32), (8, 32, 0), (10, 3, -1), (5, 4, 2)], ids=str)
def test_embedding_weights_are_pytorchs_after_a_seed(args):
    ours, theirs = same_repr(lambda lib: lib.nn.Embedding(*args))
    assert bits_equal(ours.weight, theirs.weight)
    assert ours.padding_idx == theirs.padding_idx
    assert list(ours.state_dict()) == list(theirs.state_dict())


@pytest.mark.parametrize("padding_idx", [None, 1, -2])
@pytest.mark.parametrize("index_dtype", ["int64", "int32"])
def test_embedding_forward_backward_as_torch(padding_idx, index_dtype):
    index = np.array([[1, 2, 1, 4], [5, 0, 1, 1]], dtype=index_dtype)
    upstream = rand((2, 4, 3), seed=2)
    results = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        layer = lib.nn.Embedding(6, 3, padding_idx=padding_idx)
        out = layer(lib.tensor(index))
        node = out.grad_fn
        seen = (type(node).__name__, len(node.next_functions), node._saved_padding_idx,
                node._saved_weight_sym_argsize_0, node._saved_scale_grad_by_freq,
                node._saved_sparse, repr(node._saved_indices), repr(out))
        out.backward(lib.tensor(upstream))
        results.append((out, layer.weight.grad, seen, raised(lambda: node._saved_indices)))
    (out, grad, *rest), (out_t, grad_t, *rest_t) = results
    assert bits_equal(out, out_t) and bits_equal(grad, grad_t)
    assert rest == rest_t


def test_embedding_second_derivative_as_torch():
    weight = rand((5, 3), seed=1, dtype="float64")
    index = [[0, 3, 3], [4, 1, 0]]
    results = []
    for lib in (mg, torch):
        w = lib.tensor(weight, requires_grad=True)
        y = (lib.nn.functional.embedding(lib.tensor(index), w, padding_idx=1) ** 3).sum()
        (g,) = lib.autograd.grad(y, w, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), w)
        results.append((as_numpy(g), as_numpy(gg)))
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-12)


def test_embedding_from_pretrained_as_torch():
    table = rand((4, 2), seed=3)
    ours, theirs = same_repr(lambda lib: lib.nn.Embedding.from_pretrained(lib.tensor(table)))
    assert ours.weight.requires_grad == theirs.weight.requires_grad is False
    ours, theirs = same_repr(lambda lib: lib.nn.Embedding.from_pretrained(
        lib.tensor(table), freeze=False, padding_idx=0))
    assert ours.weight.requires_grad == theirs.weight.requires_grad is True


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.Embedding(5, 3)(lib.tensor([5])),
    lambda lib: lib.nn.Embedding(5, 3)(lib.tensor([[0, -1]])),
    lambda lib: lib.nn.Embedding(5, 3)(lib.tensor([1.0])),
    lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(5)),
    lambda lib: lib.nn.functional.embedding([1], lib.ones(5, 3)),
    lambda lib: lib.nn.functional.embedding(lib.tensor([1]), lib.ones(5, 3), padding_idx=5),
    lambda lib: lib.nn.Embedding(5, 3, padding_idx=5),
    lambda lib: lib.nn.Embedding(5, 3, padding_idx=-6),
], ids=["index too large", "negative index", "float indices", "1-D weight", "a list",
        "F padding_idx", "padding_idx", "negative padding_idx"])
def test_embedding_errors_as_torch(call):
    same_error(call)


# ---- LayerNorm -----------------------------------------------------------------------

def _layer_norm_both(shape, kept, affine, dtype, threads, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    normalized = shape[len(shape) - kept:]
    w, b = (rng.standard_normal(normalized).astype(dtype) for _ in range(2))
    upstream = rng.standard_normal(shape).astype(dtype)
    results = []
    previous = mg.get_num_threads(), torch.get_num_threads()
    mg.set_num_threads(threads)
    torch.set_num_threads(threads)
    try:
        for lib in (mg, torch):
            xt = lib.tensor(x, requires_grad=True)
            wt, bt = (lib.tensor(v, requires_grad=True) for v in (w, b))
            y = lib.nn.functional.layer_norm(xt, normalized, wt if affine else None,
                                             bt if affine else None)
            y.backward(lib.tensor(upstream))
            results.append([y, xt.grad] + ([wt.grad, bt.grad] if affine else []))
    finally:
        mg.set_num_threads(previous[0])
        torch.set_num_threads(previous[1])
    return results


@pytest.mark.parametrize("shape,kept", [((16, 8, 32), 1), ((4, 7), 1), ((3, 5, 64), 1),
                                        ((2, 3, 4, 5), 2), ((5, 100), 1), ((1, 128), 1),
                                        ((37, 13), 1), ((3,), 1)], ids=str)
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("threads", [1, 2])
def test_layer_norm_has_pytorchs_bits(shape, kept, affine, dtype, threads):
    """Rows of up to 16 vectors (128 float32, 64 float64): forward and every gradient."""
    if dtype == "float64" and shape[-1] > 64:
        shape = shape[:-1] + (64,)
    ours, theirs = _layer_norm_both(shape, kept, affine, dtype, threads)
    for k, (mine, their) in enumerate(zip(ours, theirs)):
        assert bits_equal(mine, their), f"result {k}"


def test_layer_norm_long_rows_are_close_and_mostly_pytorchs_bits():
    """Rows of more than 16 vectors: the chunks' merge rounds differently now and then
    (README: about one rstd in ten, in the last bit)."""
    ours, theirs = _layer_norm_both((64, 1000), 1, True, "float32", 1)
    y, y_t = as_numpy(ours[0]), as_numpy(theirs[0])
    np.testing.assert_allclose(y, y_t, rtol=1e-5, atol=2e-6)
    differ = np.mean(y != y_t)
    assert differ < 0.5, differ
    for mine, their in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(as_numpy(mine), as_numpy(their), rtol=1e-4, atol=1e-5)


def test_layer_norm_module_as_torch():
    for args, kwargs in [((32,), {}), (((4, 8),), {"elementwise_affine": False}),
                         ((3,), {"bias": False}), ((5,), {"eps": 1e-6})]:
        ours, theirs = same_repr(lambda lib: lib.nn.LayerNorm(*args, **kwargs))
        assert list(ours.state_dict()) == list(theirs.state_dict())
        assert (ours.bias is None) == (theirs.bias is None)
        x = rand((2,) + tuple(ours.normalized_shape), seed=4)
        assert bits_equal(ours(mg.tensor(x)), theirs(torch.tensor(x)))


def test_layer_norm_graph_and_saved_values_as_torch():
    results = []
    for lib in (mg, torch):
        x = lib.tensor(rand((2, 4)), requires_grad=True)
        y = lib.nn.LayerNorm(4)(x)
        node = y.grad_fn
        results.append((type(node).__name__, [type(n).__name__ for n, _ in node.next_functions],
                        sorted(a for a in dir(node) if a.startswith("_saved")),
                        node._saved_normalized_shape, tuple(node._saved_result1.shape),
                        repr(node._saved_result2), repr(y)))
    assert results[0] == results[1]


def test_layer_norm_second_derivative_as_torch():
    x, w, b = rand((3, 5), seed=5, dtype="float64"), rand(5, seed=6, dtype="float64"), \
        rand(5, seed=7, dtype="float64")
    results = []
    for lib in (mg, torch):
        xs = [lib.tensor(v, requires_grad=True) for v in (x, w, b)]
        y = lib.nn.functional.layer_norm(xs[0], (5,), xs[1], xs[2])
        grads = lib.autograd.grad((y * y * y).sum(), xs, create_graph=True)
        second = lib.autograd.grad(sum((g * g).sum() for g in grads), xs)
        results.append([as_numpy(g) for g in (*grads, *second)])
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)
    assert mg.autograd.gradcheck(lambda x, w, b: mg.nn.functional.layer_norm(x, (5,), w, b),
                                 tuple(mg.tensor(v, requires_grad=True) for v in (x, w, b)))



def test_layer_norm_third_derivative_is_torchs_not_the_finite_differences():
    """PyTorch's third derivative of layer_norm fails gradgradcheck of a first derivative:
    its recorded derivative (NativeLayerNormBackwardBackward0) holds the saved mean and
    rstd constant. minigrad records the same node and computes the same third derivative
    (test_formula_node_order compares it), so it fails the check alike."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in [(2, 3), (3,), (3,)]]
    passed = []
    for lib in (mg, torch):
        upstream = lib.tensor(rng.standard_normal((2, 3)))

        def first_derivative(x, w, b):
            y = lib.nn.functional.layer_norm(x, (3,), w, b)
            return lib.autograd.grad((y * upstream).sum(), (x, w), create_graph=True)
        inputs = tuple(lib.tensor(a, requires_grad=True) for a in arrays)
        passed.append(lib.autograd.gradgradcheck(first_derivative, inputs, raise_exception=False))
    assert passed == [False, False]

@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.layer_norm(lib.ones(4, 8, 16), (32,)),
    lambda lib: lib.nn.functional.layer_norm(lib.ones(4, 8), 8),
    lambda lib: lib.nn.functional.layer_norm(lib.ones(4, 4), (4,), lib.ones(3)),
    lambda lib: lib.nn.functional.layer_norm(lib.ones(4, 4), (4,), None, lib.ones(3)),
    lambda lib: lib.nn.functional.layer_norm(lib.ones(4, dtype=lib.long), (4,)),
    lambda lib: lib.nn.LayerNorm(8)(lib.ones(2, 7)),
], ids=["shape", "an int", "weight", "bias", "long", "module"])
def test_layer_norm_errors_as_torch(call):
    same_error(call)


# ---- GELU ----------------------------------------------------------------------------

@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gelu_is_close_to_torch_and_mostly_its_bits(approximate, dtype):
    x = (np.random.default_rng(0).standard_normal(5000) * 3).astype(dtype)
    upstream = np.random.default_rng(1).standard_normal(5000).astype(dtype)
    results = []
    for lib in (mg, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.GELU(approximate)(t)
        y.backward(lib.tensor(upstream))
        results.append((as_numpy(y), as_numpy(t.grad), type(y.grad_fn).__name__,
                        y.grad_fn._saved_approximate))
    (y, g, *rest), (y_t, g_t, *rest_t) = results
    assert rest == rest_t
    # (float32 atol: where 1 + erf(x / sqrt 2) cancels (x < -2) PyTorch's vector erf is
    # off by up to 9.4e-7 from the exact gelu, minigrad's by up to 4.3e-7)
    tolerance = dict(rtol=1e-6, atol=1e-6) if dtype == "float32" else dict(rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(y, y_t, **tolerance)
    # (gradients: near x = -5 PyTorch's float32 vector kernel gives 0 where the
    # derivative is about -3e-6)
    np.testing.assert_allclose(g, g_t, rtol=tolerance["rtol"] * 10,
                               atol=1e-5 if dtype == "float32" else 1e-14)
    assert np.mean(y != y_t) < _GELU_DIFFERING[vec.CAPABILITY == "avx512", dtype, approximate]


# Share of gelu results allowed to differ in the last bit, per PyTorch's CPU capability.
# minigrad's erf is correctly rounded; PyTorch's float32 kernel runs its vector erf (a
# polynomial times its vector exp, ATen's Vectorized<float>::erf) on the machine's widest
# vectors. Measured: AVX-512 (Zen4) float32 'none' 35 %, 'tanh' 19 %; AVX2 (Zen3,
# session 21) float32 'none' 61.8 %; the other three cases pass their AVX-512 bound here.
# Why AVX2's vector erf rounds differently more often than AVX-512's was not measured.
_GELU_DIFFERING = {(avx512, dtype, approximate): 0.5 if dtype == "float32" else 0.2
                   for avx512 in (True, False) for dtype in ("float32", "float64")
                   for approximate in ("none", "tanh")}
_GELU_DIFFERING[False, "float32", "none"] = 0.65


def test_gelu_matches_finite_differences_and_prints_as_torch():
    x = mg.tensor(rand((3, 4), seed=2, dtype="float64"), requires_grad=True)
    for approximate in ("none", "tanh"):
        assert mg.autograd.gradcheck(
            lambda v: mg.nn.functional.gelu(v, approximate=approximate), (x,))
    same_repr(lambda lib: lib.nn.GELU())
    same_repr(lambda lib: lib.nn.GELU(approximate="tanh"))


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.gelu(lib.ones(2), approximate="x"),
    lambda lib: lib.nn.GELU("sigmoid")(lib.ones(2)),
    lambda lib: lib.nn.functional.gelu(lib.ones(2, dtype=lib.long)),
], ids=["approximate", "module", "long"])
def test_gelu_errors_as_torch(call):
    same_error(call)


# ---- ModuleList and ModuleDict -------------------------------------------------------

def _gpt_like(lib):
    nn = lib.nn

    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.key = nn.Linear(8, 2, bias=False)
            self.register_buffer("tril", lib.tril(lib.ones(4, 4)))
            self.register_buffer("scratch", lib.zeros(2), persistent=False)
            self.dropout = nn.Dropout(0.1)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.heads = nn.ModuleList([Head() for _ in range(3)])
            self.heads.append(nn.Linear(8, 8))
            self.extra = nn.ModuleDict({"ln": nn.LayerNorm(8), "act": nn.GELU()})

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 8)
            self.blocks = nn.Sequential(*[Block() for _ in range(2)])
            self.lst = nn.ModuleList()

    return Model()


def test_nested_containers_print_and_name_as_torch():
    ours, theirs = same_repr(_gpt_like)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert "blocks.0.heads.1.key.weight" in ours.state_dict()
    assert "blocks.0.heads.1.scratch" not in ours.state_dict()
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert bits_equal(ours.emb.weight, theirs.emb.weight)


def _module_list_story(lib):
    nn = lib.nn
    layers = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])
    story = [len(layers), repr(layers[-1]), repr(layers[0:1])]
    layers.extend([nn.Tanh(), nn.Tanh()])
    layers.insert(1, nn.Sigmoid())
    layers += [nn.ReLU()]
    story += [repr(layers), len(layers), [type(m).__name__ for m in layers]]
    popped = layers.pop(1)
    del layers[0]
    layers[0] = nn.GELU()
    story += [repr(popped), repr(layers), list(dict(layers.named_children()))]
    story += [repr(layers + nn.ModuleList([nn.ReLU()]))]
    return story


def test_module_list_behaves_as_torchs():
    ours, theirs = both(_module_list_story)
    assert ours == theirs


def _sequential_story(lib):
    """A Sequential edited as a list (the UvA SimCLR tutorial puts a new head in its
    backbone's place): set, delete (renumbered), pop, insert, extend, +, +=, *."""
    nn = lib.nn
    net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    net[-1] = nn.Sequential(net[-1], nn.ReLU(), nn.Linear(1, 4))
    story = [repr(net), list(net.state_dict())]
    del net[1]
    story += [repr(net), repr(net.pop(0)), repr(net)]
    net.insert(0, nn.Tanh()).insert(-1, nn.GELU()).extend([nn.Sigmoid()])
    story += [repr(net), repr(net + nn.Sequential(nn.ReLU())), repr(2 * nn.Sequential(nn.ReLU()))]
    net += nn.Sequential(nn.Tanh())
    net *= 2
    named = nn.Sequential(OrderedDict([("first", nn.ReLU()), ("second", nn.Tanh())]))
    named[1] = nn.GELU()
    story += [repr(net), len(net), repr(named)]
    del named[0:1]
    return story + [repr(named)]


def test_sequential_edits_as_torchs():
    ours, theirs = both(_sequential_story)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.Sequential(lib.nn.ReLU())[3],
    lambda lib: lib.nn.Sequential(lib.nn.ReLU()).__setitem__(-2, lib.nn.ReLU()),
    lambda lib: lib.nn.Sequential(lib.nn.ReLU()).insert(3, lib.nn.ReLU()),
    lambda lib: lib.nn.Sequential(lib.nn.ReLU()).pop(1),
], ids=["index", "set out of range", "insert out of range", "pop out of range"])
def test_sequential_errors_as_torch(call):
    same_error(call)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.Sequential(lib.nn.ReLU()) * 0,
    lambda lib: lib.nn.Sequential(lib.nn.ReLU()) * 1.5,
    lambda lib: lib.nn.Sequential(lib.nn.ReLU()) + [lib.nn.ReLU()],
], ids=["times zero", "times a float", "plus a list"])
def test_sequential_operator_errors_as_torch_but_for_the_class_path(call):
    """The texts name ``type(self)``: minigrad's class lives in ``minigrad.nn.container``."""
    (kind, text), theirs = raised(lambda: call(mg)), raised(lambda: call(torch))
    assert (kind, text.replace("minigrad.nn.container", "torch.nn.modules.container")) == theirs


def _module_dict_story(lib):
    nn = lib.nn
    layers = nn.ModuleDict(OrderedDict([("b", nn.ReLU()), ("a", nn.Linear(1, 2))]))
    layers["c"] = nn.Tanh()
    layers.update([("d", nn.Sigmoid())])
    story = [repr(layers), len(layers), list(layers), list(layers.keys()), "a" in layers,
             [type(m).__name__ for m in layers.values()], [k for k, _ in layers.items()]]
    popped = layers.pop("b")
    story += [repr(popped), repr(layers), list(layers.state_dict())]
    layers.clear()
    story += [repr(layers), len(layers)]
    return story


def test_module_dict_behaves_as_torchs():
    ours, theirs = both(_module_dict_story)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])[3],
    lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])[-2],
    lambda lib: lib.nn.ModuleDict()["x"],
], ids=["index", "negative index", "key"])
def test_container_errors_as_torch(call):
    same_error(call)


# ---- what the lecture leans on -------------------------------------------------------

def test_dropout_mask_after_a_seed_is_pytorchs_and_eval_turns_it_off():
    def story(lib):
        layer = lib.nn.Dropout(0.2)
        x = lib.ones(4, 8, 8)
        trained = layer(x)
        layer.eval()
        evaluated = layer(x)
        layer.train()
        return trained, evaluated, layer.training, layer(x)
    ours, theirs = both(story)
    assert bits_equal(ours[0], theirs[0]) and bits_equal(ours[3], theirs[3])
    assert bits_equal(ours[1], theirs[1]) and ours[2] == theirs[2] is True


def test_multinomial_one_sample_after_a_seed_is_pytorchs():
    def story(lib):
        probs = lib.softmax(lib.randn(3, 65), dim=-1)
        return [lib.multinomial(probs, num_samples=1) for _ in range(20)]
    ours, theirs = both(story)
    assert [repr(t) for t in ours] == [repr(t) for t in theirs]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("max_norm, norm_type", [(1.0, 2.0), (0.5, 1.0), (3.0, 2.0),
                                                 (1.0, float("inf"))])
@pytest.mark.parametrize("index", [[[0, 2, 2], [5, 0, 1]], [3], []])
def test_embedding_max_norm_renorms_the_rows_as_torch(dtype, max_norm, norm_type, index):
    """The rows named whose norm exceeds max_norm are scaled in place (torch's
    embedding_renorm_: by max_norm / (norm + 1e-7), bit for bit); found by the deep random
    programs (minigrad refused max_norm)."""
    weights = (np.random.default_rng(0).standard_normal((6, 3)) * 2).astype(np.float32)
    runs = []
    for lib in (torch, mg):
        w = lib.tensor(weights, dtype=getattr(lib, dtype), requires_grad=True)
        module = lib.nn.Embedding.from_pretrained(w.detach().clone(), freeze=False,
                                                  max_norm=max_norm, norm_type=norm_type)
        y = lib.nn.functional.embedding(lib.tensor(index, dtype=lib.long), w, max_norm=max_norm,
                                        norm_type=norm_type)
        (y * y).sum().backward()
        z = module(lib.tensor(index, dtype=lib.long))
        runs.append([t.detach().numpy() for t in (y, w, w.grad, z, module.weight)] +
                    [type(y.grad_fn).__name__, repr(y)])
    for ours, theirs in zip(runs[1], runs[0]):
        if isinstance(theirs, np.ndarray):
            np.testing.assert_array_equal(ours, theirs)
        else:
            assert ours == theirs
