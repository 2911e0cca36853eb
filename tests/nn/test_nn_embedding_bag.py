"""``F.embedding_bag`` and ``nn.EmbeddingBag`` (kernels/embedding_bag.py, ops/layers.py,
rules/embedding_bag.py) against PyTorch 2.13: values and gradients bit for bit in every
mode, dtype, with and without ``padding_idx``, per-sample weights,
``include_last_offset`` and ``scale_grad_by_freq`` (``nn.Embedding``'s too); the saved results; the graph of a create_graph backward; every
error; the module (repr, initial table, from_pretrained); finite differences; and
PyTorch's text-classification model (an EmbeddingBag and a Linear) trained both ways."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
from minigrad.autograd import gradcheck

SAVED = ("result1", "result2", "result3", "mode", "padding_idx", "indices", "offsets",
         "weight_sym_argsize_0", "scale_grad_by_freq", "sparse")


def _run(lib, table, indices, offsets, psw, **options):
    weight = lib.tensor(table, requires_grad=True)
    weights = None if psw is None else lib.tensor(psw, requires_grad=True)
    y = lib.nn.functional.embedding_bag(
        lib.tensor(indices), weight, None if offsets is None else lib.tensor(offsets),
        per_sample_weights=weights, **options)
    node = y.grad_fn
    saved = {name: getattr(node, "_saved_" + name) for name in SAVED}
    seed = lib.linspace(-1, 2, y.numel(), dtype=y.dtype).reshape(y.shape)
    (y * seed).sum().backward()
    return y, weight.grad, None if weights is None else weights.grad, saved, node


def _case(dtype, mode, seed, with_weights=False, two_d=False, index_dtype="int64"):
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((40, 16)).astype(dtype)
    if two_d:
        indices, offsets = rng.integers(0, 40, (6, 9)), None
    else:
        indices = rng.integers(0, 40, 120)
        # bags of 0 to 17 indices (so empty bags, one-index bags, long bags)
        offsets = np.r_[0, np.sort(rng.integers(0, 121, 10))]
    indices = indices.astype(index_dtype)
    psw = rng.uniform(-1, 2, indices.shape).astype(dtype) if with_weights else None
    return table, indices, offsets, psw


def _same(ours, theirs):
    assert ours.dtype == getattr(minigrad, str(theirs.dtype).split(".")[1])
    assert ours.shape == theirs.shape
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


@pytest.mark.parametrize("padding_idx", [None, 3, -2])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_values_gradients_and_saved_results_are_pytorchs_bits(dtype, mode, padding_idx):
    for seed, two_d, last in ((0, False, False), (1, True, False), (2, False, True)):
        table, indices, offsets, _ = _case(dtype, mode, seed, two_d=two_d)
        if last:  # (the last offset ends the last bag: CSR's form)
            offsets = np.r_[offsets, len(indices)]
        if padding_idx is not None:
            indices[indices % 5 == 0] = padding_idx % 40  # (whole bags of padding too)
        options = dict(mode=mode, padding_idx=padding_idx, include_last_offset=last)
        ours = _run(minigrad, table, indices, offsets, None, **options)
        theirs = _run(torch, table, indices, offsets, None, **options)
        for a, b in zip(ours[:2], theirs[:2]):
            _same(a, b)
        for name in SAVED:
            a, b = ours[3][name], theirs[3][name]
            if isinstance(b, torch.Tensor):
                _same(a, b)
            else:
                assert a == b, name
        assert repr(ours[0]).split("grad_fn")[1] == repr(theirs[0]).split("grad_fn")[1]


@pytest.mark.parametrize("padding_idx", [None, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_per_sample_weights(dtype, padding_idx):
    """The weighted sums and the table's gradient bit for bit (the fast path's multiply-add
    fused, the slow path's not); the weights' own gradient, a BLAS dot product, within
    its rounding."""
    for seed, two_d in ((3, False), (4, True)):
        table, indices, offsets, psw = _case(dtype, "sum", seed, with_weights=True,
                                             two_d=two_d)
        options = dict(mode="sum", padding_idx=padding_idx)
        ours = _run(minigrad, table, indices, offsets, psw, **options)
        theirs = _run(torch, table, indices, offsets, psw, **options)
        _same(ours[0], theirs[0])
        _same(ours[1], theirs[1])
        tolerance = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-14}[dtype]
        np.testing.assert_allclose(ours[2].numpy().astype(float), theirs[2].numpy().astype(float),
                                   rtol=tolerance * 10, atol=tolerance)
        assert ours[3]["result1"].shape == theirs[3]["result1"].shape


def test_int32_indices_and_offsets_mix_as_pytorch():
    table, indices, offsets, _ = _case("float32", "max", 5)
    for index_dtype, offset_dtype in (("int32", "int32"), ("int32", "int64"), ("int64", "int32")):
        args = (table, indices.astype(index_dtype), offsets.astype(offset_dtype), None)
        ours, theirs = (_run(lib, *args, mode="max") for lib in (minigrad, torch))
        for name in ("result1", "result2", "result3", "indices", "offsets"):
            _same(ours[3][name], theirs[3][name])
        _same(ours[1], theirs[1])


def test_many_repeated_indices_sum_in_pytorchs_order():
    """The table's gradient adds a repeated index's rows in the order PyTorch's unstable
    sort of the indices leaves them (std::sort below 32,768 indices, a radix sort above)."""
    rng = np.random.default_rng(8)
    for n in (200, 40000):
        table = rng.standard_normal((30, 8)).astype(np.float32)
        indices = rng.integers(0, 30, n)
        offsets = np.r_[0, np.sort(rng.integers(0, n, 50))]
        for mode in ("sum", "mean"):
            ours = _run(minigrad, table, indices, offsets, None, mode=mode)
            theirs = _run(torch, table, indices, offsets, None, mode=mode)
            _same(ours[1], theirs[1])


@pytest.mark.parametrize("padding_idx", [None, 5])
@pytest.mark.parametrize("mode", ["sum", "mean"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_scale_grad_by_freq_as_pytorch(dtype, mode, padding_idx):
    """Each index's gradient divided by a count, which PyTorch 2.13 reads at the wrong
    place (the k-th distinct index gets the count of the k-th sorted index): reproduced,
    so the same bits, and ``_saved_scale_grad_by_freq`` True."""
    table, indices, offsets, _ = _case(dtype, mode, 11)
    if padding_idx is not None:
        indices[::7] = padding_idx
    options = dict(mode=mode, padding_idx=padding_idx, scale_grad_by_freq=True)
    ours = _run(minigrad, table, indices, offsets, None, **options)
    theirs = _run(torch, table, indices, offsets, None, **options)
    _same(ours[0], theirs[0])
    _same(ours[1], theirs[1])
    assert ours[3]["scale_grad_by_freq"] is theirs[3]["scale_grad_by_freq"] is True


@pytest.mark.parametrize("padding_idx", [None, 3])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_embedding_scale_grad_by_freq_as_pytorch(dtype, padding_idx):
    """nn.Embedding(scale_grad_by_freq=True): each looked-up row's gradient divided by how
    often its index occurs, added with one rounding (bit for bit); a recorded backward
    (create_graph=True) multiplies, then adds (the same values to an ulp)."""
    rng = np.random.default_rng(12)
    indices = rng.integers(0, 30, (12, 20))
    table = rng.standard_normal((30, 8)).astype(dtype)
    seed = rng.standard_normal((12, 20, 8)).astype(dtype)
    found = []
    for lib in (minigrad, torch):
        layer = lib.nn.Embedding.from_pretrained(lib.tensor(table), freeze=False,
                                                 padding_idx=padding_idx, scale_grad_by_freq=True)
        weight = layer.weight
        y = layer(lib.tensor(indices))
        y.backward(lib.tensor(seed), retain_graph=True)
        again, = lib.autograd.grad((y * lib.tensor(seed)).sum(), weight, create_graph=True)
        found.append((weight.grad, again, y.grad_fn._saved_scale_grad_by_freq))
    _same(found[0][0], found[1][0])
    np.testing.assert_allclose(found[0][1].detach().numpy().astype(float),
                               found[1][1].detach().numpy().astype(float), rtol=1e-3, atol=1e-6)
    assert found[0][2] is found[1][2] is True


def test_module_as_pytorch():
    for lib in (minigrad, torch):
        lib.manual_seed(0)
    made = {lib: lib.nn.EmbeddingBag(10, 3, mode="sum") for lib in (minigrad, torch)}
    assert repr(made[minigrad]) == repr(made[torch]) == "EmbeddingBag(10, 3, mode='sum')"
    _same(made[minigrad].weight, made[torch].weight)
    for kwargs in (dict(max_norm=1.0, padding_idx=0, include_last_offset=True),
                   dict(norm_type=1.5, mode="max", padding_idx=-1), dict()):
        assert repr(minigrad.nn.EmbeddingBag(10, 3, **kwargs)) == \
            repr(torch.nn.EmbeddingBag(10, 3, **kwargs))
    padded = minigrad.nn.EmbeddingBag(10, 3, padding_idx=-1)
    assert padded.padding_idx == 9 and not padded.weight[9].any()
    table = np.arange(6, dtype=np.float32).reshape(2, 3)
    for lib in (minigrad, torch):
        bag = lib.nn.EmbeddingBag.from_pretrained(lib.tensor(table), mode="max")
        assert not bag.weight.requires_grad and bag.mode == "max"
    for lib_error in (AssertionError,):
        with pytest.raises(lib_error, match="padding_idx must be within num_embeddings"):
            minigrad.nn.EmbeddingBag(10, 3, padding_idx=10)


BAD_CALLS = {
    "index past the table": lambda lib: _call(lib, [1, 2, 10], [0]),
    "index past the table, float64": lambda lib: _call(lib, [1, 2, 10], [0], dtype="float64"),
    "negative index, padding": lambda lib: _call(lib, [1, -1], [0], padding_idx=1),
    "index past the table, max": lambda lib: _call(lib, [1, 12], [0], mode="max"),
    "first offset not 0": lambda lib: _call(lib, [1, 2, 4], [1, 2]),
    "last offset past the end": lambda lib: _call(lib, [1, 2, 4], [0, 4]),
    "float indices": lambda lib: _call(lib, [1.0, 2.0], [0]),
    "float offsets": lambda lib: _call(lib, [1, 2], lib.tensor([0.0])),
    "integer table": lambda lib: _call(lib, [1, 2], [0], dtype="int64"),
    "no offsets for 1-d": lambda lib: _call(lib, [1, 2], None),
    "2-d offsets": lambda lib: _call(lib, [1, 2], [[0]]),
    "offsets for 2-d": lambda lib: _call(lib, [[1, 2]], [0]),
    "3-d input": lambda lib: _call(lib, [[[1, 2]]], None),
    "1-d table": lambda lib: lib.nn.functional.embedding_bag(
        lib.tensor([1]), lib.ones(5), lib.tensor([0])),
    "unknown mode": lambda lib: _call(lib, [1, 2], [0], mode="prod"),
    "weights with mean": lambda lib: _call(lib, [1, 2], [0], per_sample_weights=lib.ones(2)),
    "weights of another shape": lambda lib: _call(lib, [1, 2], [0], mode="sum",
                                                  per_sample_weights=lib.ones(3)),
    "weights of another dtype": lambda lib: _call(lib, [1, 2], [0], mode="sum",
                                                  per_sample_weights=lib.ones(2).double()),
    "max and scale_grad_by_freq": lambda lib: _call(lib, [1], [0], mode="max",
                                                    scale_grad_by_freq=True),
    "max and sparse": lambda lib: _call(lib, [1], [0], mode="max", sparse=True),
    "padding_idx past the table": lambda lib: _call(lib, [1], [0], padding_idx=10),
    "padding_idx below the table": lambda lib: _call(lib, [1], [0], padding_idx=-11),
    "no offsets with include_last_offset": lambda lib: _call(lib, [1], [],
                                                             include_last_offset=True),
}


def _call(lib, indices, offsets, dtype="float32", **options):
    table = lib.tensor(np.linspace(-1, 1, 30).reshape(10, 3).astype(dtype))
    if not isinstance(offsets, (lib.Tensor, type(None))):
        offsets = lib.tensor(offsets, dtype=lib.int64)
    return lib.nn.functional.embedding_bag(lib.tensor(indices), table, offsets, **options)


# (Offsets that go down are not compared: PyTorch's fbgemm kernel then reads outside its
# arrays, and whether it reports "Expected i < index_size" depends on what lies there.)
@pytest.mark.parametrize("name", BAD_CALLS)
def test_errors_are_pytorchs(name):
    with pytest.raises(Exception) as theirs:
        BAD_CALLS[name](torch)
    with pytest.raises(Exception) as ours:
        BAD_CALLS[name](minigrad)
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


def test_a_last_offset_short_of_the_end_as_pytorch():
    """With ``include_last_offset`` and a last offset before the end of the indices,
    PyTorch's fast path (a sum or mean of a float32 table) ends the last bag at the last
    offset, its other path at the end of the indices; and a mean divides by the size up to
    the end either way. (Its backward then reads past the gradient: not compared.)"""
    for mode, padding_idx, dtype in (("sum", None, "float32"), ("mean", None, "float32"),
                                     ("max", None, "float32"), ("sum", 0, "float32"),
                                     ("sum", None, "float64"), ("mean", 0, "float64")):
        outs = [_call(lib, [1, 2, 4, 5, 4, 3, 2, 9], [0, 4, 4, 6], mode=mode, dtype=dtype,
                      include_last_offset=True, padding_idx=padding_idx)
                for lib in (minigrad, torch)]
        _same(*outs)


def test_empty_bags_inputs_and_offsets():
    # (not indices without offsets: PyTorch then writes to bag -1, and may crash)
    for indices, offsets in (([1, 2], [0, 0, 0]), ([], [0, 0]), ([1, 2, 3], [0, 3])):
        for mode in ("sum", "mean", "max"):
            outs = [_call(lib, np.array(indices, np.int64), offsets, mode=mode)
                    for lib in (minigrad, torch)]
            _same(*outs)


def test_create_graph_records_pytorchs_nodes_and_errors():
    table, indices, offsets, psw = _case("float64", "sum", 6, with_weights=True)
    found = {}
    for lib in (minigrad, torch):
        weight, weights = lib.tensor(table, requires_grad=True), lib.tensor(psw, requires_grad=True)
        y = lib.nn.functional.embedding_bag(lib.tensor(indices), weight, lib.tensor(offsets),
                                            mode="sum", per_sample_weights=weights)
        grads = lib.autograd.grad((y * y).sum(), (weight, weights), create_graph=True)
        messages = []
        for grad in grads:
            with pytest.raises(Exception) as error:
                grad.sum().backward(retain_graph=True)
            messages.append((type(error.value).__name__, str(error.value)))
        plain = lib.autograd.grad(y.sum(), weight, create_graph=True)[0]
        found[lib] = ([type(g.grad_fn).__name__ for g in grads], messages,
                      plain.requires_grad, [g.detach().numpy() for g in grads])
    assert found[minigrad][:3] == found[torch][:3]
    np.testing.assert_allclose(found[minigrad][3][0], found[torch][3][0], rtol=1e-14)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_gradients_against_finite_differences(mode):
    table, indices, offsets, psw = _case("float64", mode, 9, with_weights=mode == "sum")
    index, starts = minigrad.tensor(indices), minigrad.tensor(offsets)
    weight = minigrad.tensor(table, requires_grad=True)
    inputs = (weight,) if psw is None else (weight, minigrad.tensor(psw, requires_grad=True))

    def bags(weight, weights=None):
        return minigrad.nn.functional.embedding_bag(index, weight, starts, mode=mode,
                                                    per_sample_weights=weights, padding_idx=4)
    assert gradcheck(bags, inputs)


def test_text_classification_trains_as_pytorch():
    """pytorch/tutorials' text classification model (beginner_source/
    text_sentiment_ngrams_tutorial.py: an EmbeddingBag averaging each text's tokens, then a
    Linear layer), on made-up texts: the same losses and weights after a few SGD steps."""
    rng = np.random.default_rng(10)
    texts = [rng.integers(1, 60, rng.integers(3, 12)) for _ in range(32)]
    labels = rng.integers(0, 4, 32)
    results = {}
    for lib in (minigrad, torch):
        lib.manual_seed(0)

        class TextClassificationModel(lib.nn.Module):
            def __init__(self, vocab_size, embed_dim, num_class):
                super().__init__()
                self.embedding = lib.nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
                self.fc = lib.nn.Linear(embed_dim, num_class)
                self.init_weights()

            def init_weights(self):
                initrange = 0.5
                self.embedding.weight.data.uniform_(-initrange, initrange)
                self.fc.weight.data.uniform_(-initrange, initrange)
                self.fc.bias.data.zero_()

            def forward(self, text, offsets):
                embedded = self.embedding(text, offsets)
                return self.fc(embedded)

        model = TextClassificationModel(60, 16, 4)
        optimizer = lib.optim.SGD(model.parameters(), lr=5)
        criterion = lib.nn.CrossEntropyLoss()
        losses = []
        for start in range(0, 32, 8):
            batch = texts[start:start + 8]
            text = lib.cat([lib.tensor(t) for t in batch])
            offsets = lib.tensor([0] + [len(t) for t in batch[:-1]]).cumsum(dim=0)
            optimizer.zero_grad()
            loss = criterion(model(text, offsets), lib.tensor(labels[start:start + 8]))
            loss.backward()
            lib.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
            optimizer.step()
            losses.append(f"{loss.item():.6f}")
        results[lib] = (losses, model.embedding.weight.detach().numpy().copy())
    assert results[minigrad][0] == results[torch][0]
    np.testing.assert_allclose(results[minigrad][1], results[torch][1], rtol=1e-6, atol=1e-7)
