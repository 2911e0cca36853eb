"""nn.RNN, nn.LSTM, nn.GRU and their cells against PyTorch 2.13, live: parameter names,
shapes and seeded initial values (bit for bit), printed modules, outputs, final states and
gradients (float64 to 1e-12, float32 to float32 precision), grad_fn names and the whole
graph (float64: PyTorch's native CPU path), dropout between layers after a seed, PyTorch's
errors and warning; finite differences in float64; a character model trained both ways.

PyTorch runs a float32 ``LSTM`` through oneDNN's fused kernel (its output's grad_fn is
``MkldnnRnnLayerBackward0``); minigrad computes it as PyTorch's native path (float64, or
with projections) does, so its output's grad_fn is ``StackBackward0``: the values agree to
float32 precision. The last bits of float32 values differ where ``linear``'s matrix
product (OpenBLAS against MKL) and NumPy's ``tanh`` round otherwise than PyTorch's
kernels: measured in ``test_float32_bits``.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import as_numpy, raised

CONFIGS = [
    ("RNN", dict(input_size=3, hidden_size=4)),
    ("RNN", dict(input_size=3, hidden_size=4, num_layers=2, nonlinearity="relu",
                 bidirectional=True, batch_first=True)),
    ("RNN", dict(input_size=3, hidden_size=5, bias=False)),
    ("GRU", dict(input_size=3, hidden_size=4)),
    ("GRU", dict(input_size=3, hidden_size=4, num_layers=3, bidirectional=True)),
    ("GRU", dict(input_size=2, hidden_size=3, batch_first=True, bias=False)),
    ("LSTM", dict(input_size=3, hidden_size=4)),
    ("LSTM", dict(input_size=3, hidden_size=4, num_layers=2, bidirectional=True,
                  batch_first=True)),
    ("LSTM", dict(input_size=3, hidden_size=4, proj_size=2, num_layers=2)),
    ("LSTM", dict(input_size=3, hidden_size=5, proj_size=3, bidirectional=True, bias=False)),
]
CELLS = [
    ("RNNCell", dict(input_size=3, hidden_size=4)),
    ("RNNCell", dict(input_size=3, hidden_size=4, nonlinearity="relu", bias=False)),
    ("LSTMCell", dict(input_size=3, hidden_size=4)),
    ("GRUCell", dict(input_size=3, hidden_size=4)),
    ("GRUCell", dict(input_size=2, hidden_size=3, bias=False)),
]
TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-12, atol=1e-13)}


def built(name, kwargs, dtype="float32", seed=0):
    """The same module in both libraries, each from its own seeded generator."""
    torch.manual_seed(seed)
    theirs = getattr(torch.nn, name)(**kwargs, dtype=getattr(torch, dtype))
    mg.manual_seed(seed)
    ours = getattr(mg.nn, name)(**kwargs, dtype=getattr(mg, dtype))
    return ours, theirs


def flat(result) -> list:
    """The tensors of (output, h_n) or (output, (h_n, c_n)), in order."""
    if isinstance(result, tuple):
        return [t for part in result for t in flat(part)]
    return [result]


def state_shape(name, kwargs, batch, cell=False):
    directions = 2 if kwargs.get("bidirectional") else 1
    layers = kwargs.get("num_layers", 1) * directions
    size = kwargs.get("proj_size") or kwargs["hidden_size"]
    h = (batch, size) if cell else (layers, batch, size)
    c = (batch, kwargs["hidden_size"]) if cell else (layers, batch, kwargs["hidden_size"])
    return (h, c) if name.startswith("LSTM") else h


def run_both(ours, theirs, x, hx=None, seed=5):
    """Forward both modules (each with the same array, seeded alike) and backward a
    weighted sum of every output; returns (ours, theirs) outputs and input tensors."""
    xs = (mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True))
    states = [None, None]
    if hx is not None:
        arrays = hx if isinstance(hx, tuple) else (hx,)
        states = [tuple(lib.tensor(a, requires_grad=True) for a in arrays) for lib in (mg, torch)]
    results = []
    for module, lib, xin, state in zip((ours, theirs), (mg, torch), xs, states, strict=True):
        lib.manual_seed(seed)
        if state is None:
            results.append(module(xin))
        else:
            results.append(module(xin, state if len(state) == 2 else state[0]))
    rng = np.random.default_rng(1)
    weights = [rng.standard_normal(tuple(t.shape)).astype(x.dtype) for t in flat(results[1])]
    for result, lib in zip(results, (mg, torch), strict=True):
        sum((t * lib.tensor(w)).sum() for t, w in zip(flat(result), weights, strict=True)).backward()
    return results, xs, states


def assert_close(mine, theirs, dtype):
    assert tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(as_numpy(mine), theirs.detach().numpy(), **TOL[dtype])


def graph(tensor) -> list:
    """Node names reachable from ``tensor``, breadth first along next_functions."""
    names, frontier, seen = [], [tensor.grad_fn], set()
    while frontier:
        node = frontier.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(type(node).__name__)
        frontier.extend(n for n, _ in node.next_functions)
    return names


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,kwargs", CONFIGS + CELLS)
def test_parameters_as_pytorch_draws_them(name, kwargs, dtype):
    ours, theirs = built(name, kwargs, dtype)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for (key, mine), theirs_value in zip(ours.state_dict().items(),
                                         theirs.state_dict().values(), strict=True):
        assert mine.dtype == getattr(mg, dtype)
        assert np.array_equal(as_numpy(mine), theirs_value.numpy()), key
    assert mg.rand(3).tolist() == torch.rand(3).tolist()  # the generators left alike


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("given_state", [False, True])
@pytest.mark.parametrize("name,kwargs", CONFIGS)
def test_sequence_layers(name, kwargs, given_state, dtype):
    ours, theirs = built(name, kwargs, dtype)
    rng = np.random.default_rng(0)
    shape = (2, 5, kwargs["input_size"]) if kwargs.get("batch_first") else (5, 2, kwargs["input_size"])
    x = rng.standard_normal(shape).astype(dtype)
    hx = None
    if given_state:
        sizes = state_shape(name, kwargs, 2)
        hx = (tuple(rng.standard_normal(s).astype(dtype) for s in sizes)
              if name == "LSTM" else rng.standard_normal(sizes).astype(dtype))
    (mine, theirs_out), xs, states = run_both(ours, theirs, x, hx)
    for a, b in zip(flat(mine), flat(theirs_out), strict=True):
        assert_close(a, b, dtype)
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__
    assert_close(xs[0].grad, xs[1].grad, dtype)
    for (key, p), q in zip(ours.named_parameters(), theirs.parameters(), strict=True):
        assert_close(p.grad, q.grad, dtype)
    if given_state:
        for s, t in zip(states[0], states[1], strict=True):
            assert_close(s.grad, t.grad, dtype)
    for a, b in zip(flat(mine), flat(theirs_out), strict=True):  # the same graph
        assert graph(a) == graph(b)


@pytest.mark.parametrize("name,kwargs", CONFIGS)
def test_float32_graph_is_pytorchs(name, kwargs):
    """minigrad's float32 graph is PyTorch's: its native one (its float64 graph), except
    for an LSTM with biases and without projections, which PyTorch runs as one oneDNN node
    per layer and direction (``MkldnnRnnLayerBackward0``, ops/recurrent.py), as minigrad
    does now."""
    ours, theirs = built(name, kwargs)
    x = np.random.default_rng(0).standard_normal((5, 2, kwargs["input_size"]))
    mine = flat(ours(mg.tensor(x, dtype=mg.float32)))
    fast = flat(theirs(torch.tensor(x, dtype=torch.float32)))
    assert [graph(t) for t in mine] == [graph(t) for t in fast]
    onednn = name == "LSTM" and not kwargs.get("proj_size") and kwargs.get("bias", True)
    assert ("MkldnnRnnLayerBackward0" in graph(mine[0])) is onednn


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_unbatched_input(name, batch_first):
    kwargs = dict(input_size=3, hidden_size=4, num_layers=2, batch_first=batch_first)
    ours, theirs = built(name, kwargs, "float64")
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 3))
    h = rng.standard_normal((2, 4))
    hx = (h, rng.standard_normal((2, 4))) if name == "LSTM" else h
    (mine, theirs_out), xs, _ = run_both(ours, theirs, x, hx)
    for a, b in zip(flat(mine), flat(theirs_out), strict=True):
        assert_close(a, b, "float64")
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__ == "SqueezeBackward1"
    assert_close(xs[0].grad, xs[1].grad, "float64")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("given_state", [False, True])
@pytest.mark.parametrize("name,kwargs", CELLS)
def test_cells(name, kwargs, given_state, batched, dtype):
    ours, theirs = built(name, kwargs, dtype)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3) if batched else (3,)).astype(dtype)[..., :kwargs["input_size"]]
    hx = None
    if given_state:
        sizes = state_shape(name, kwargs, 2, cell=True)
        if not batched:
            sizes = (tuple(s[1:] for s in sizes) if name == "LSTMCell" else sizes[1:])
        hx = (tuple(rng.standard_normal(s).astype(dtype) for s in sizes)
              if name == "LSTMCell" else rng.standard_normal(sizes).astype(dtype))
    (mine, theirs_out), xs, _ = run_both(ours, theirs, x, hx)
    for a, b in zip(flat(mine), flat(theirs_out), strict=True):
        assert_close(a, b, dtype)
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__
        assert graph(a) == graph(b)
    assert_close(xs[0].grad, xs[1].grad, dtype)
    for p, q in zip(ours.parameters(), theirs.parameters(), strict=True):
        assert_close(p.grad, q.grad, dtype)


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_dropout_between_layers_draws_pytorchs_masks(name, bidirectional):
    """In training, dropout after every layer but the last, from PyTorch's random stream
    (float64: PyTorch's native path); in eval mode none."""
    kwargs = dict(input_size=3, hidden_size=4, num_layers=3, dropout=0.4,
                  bidirectional=bidirectional)
    ours, theirs = built(name, kwargs, "float64")
    x = np.random.default_rng(4).standard_normal((7, 3, 3))
    (mine, theirs_out), xs, _ = run_both(ours, theirs, x)
    for a, b in zip(flat(mine), flat(theirs_out), strict=True):
        assert_close(a, b, "float64")
    assert_close(xs[0].grad, xs[1].grad, "float64")
    assert mg.rand(2).tolist() == torch.rand(2).tolist()
    ours.eval(), theirs.eval()
    assert_close(ours(mg.tensor(x))[0], theirs(torch.tensor(x))[0], "float64")


@pytest.mark.parametrize("name,kwargs", CONFIGS + CELLS)
def test_finite_differences(name, kwargs):
    ours = getattr(mg.nn, name)(**kwargs, dtype=mg.float64)
    rng = np.random.default_rng(5)
    cell = name.endswith("Cell")
    x = mg.tensor(rng.standard_normal((2, 3) if cell else (2, 1, 3))[..., :kwargs["input_size"]],
                  requires_grad=True)
    names = [name for name, _ in ours.named_parameters()]

    def fn(x, *weights):  # the weights put in place of the parameters, as tensors in the graph
        for key, w in zip(names, weights, strict=True):
            ours._parameters[key] = w
        return tuple(flat(ours(x)))

    weights = [p.detach().clone().requires_grad_() for p in ours.parameters()]
    assert mg.autograd.gradcheck(fn, (x, *weights))


def test_errors_and_warning_as_pytorchs():
    cases = [
        lambda nn: nn.RNN(3, 4, dropout=1.5),
        lambda nn: nn.RNN(3, 4, dropout=True),
        lambda nn: nn.GRU(3, 4, bias=1),
        lambda nn: nn.LSTM(3, 4, batch_first=None),
        lambda nn: nn.LSTM(3.0, 4),
        lambda nn: nn.LSTM(0, 4),
        lambda nn: nn.GRU(3, "4"),
        lambda nn: nn.GRU(3, 0),
        lambda nn: nn.RNN(3, 4, 0),
        lambda nn: nn.LSTM(3, 4, proj_size=-1),
        lambda nn: nn.LSTM(3, 4, proj_size=4),
        lambda nn: nn.RNN(3, 4, proj_size=2),
        lambda nn: nn.GRU(3, 4, proj_size=2),
        lambda nn: nn.RNN(3, 4, nonlinearity="sigmoid"),
        lambda nn: nn.RNN(3, 4, 1, "sigmoid"),
    ]
    for case in cases:
        assert raised(lambda: case(mg.nn)) == raised(lambda: case(torch.nn))
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        mg.nn.GRU(3, 4, dropout=0.2)
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        torch.nn.GRU(3, 4, dropout=0.2)
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
    assert [w.category for w in ours] == [w.category for w in theirs]
    assert ours[0].filename.endswith("/minigrad/nn/rnn.py")  # (as PyTorch's: its rnn.py)
    assert theirs[0].filename.endswith("/torch/nn/modules/rnn.py")


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_forward_errors_as_pytorchs(name):
    ours, theirs = built(name, dict(input_size=3, hidden_size=4, num_layers=2))
    is_lstm = name == "LSTM"

    def state(lib, *shape):
        return (lib.zeros(*shape), lib.zeros(*shape)) if is_lstm else lib.zeros(*shape)

    cases = [
        lambda lib, m: m(lib.zeros(5)),
        lambda lib, m: m(lib.zeros(2, 5, 3, 1)),
        lambda lib, m: m(lib.zeros(5, 2, 4)),
        lambda lib, m: m(lib.zeros(5, 2, 3, dtype=lib.float64)),
        lambda lib, m: m(lib.zeros(5, 2, 3), state(lib, 2, 4)),
        lambda lib, m: m(lib.zeros(5, 3), state(lib, 2, 1, 4)),
        lambda lib, m: m(lib.zeros(5, 2, 3), state(lib, 1, 2, 4)),
        lambda lib, m: m(lib.zeros(5, 2, 3), state(lib, 2, 3, 4)),
    ]
    if is_lstm:
        cases.append(lambda lib, m: m(lib.zeros(5, 2, 3), (lib.zeros(2, 2, 4), lib.zeros(2, 2, 5))))
    for case in cases:
        assert raised(lambda: case(mg, ours)) == raised(lambda: case(torch, theirs))


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cell_errors_as_pytorchs(name):
    ours, theirs = built(name, dict(input_size=3, hidden_size=4))
    cases = [lambda lib, m: m(lib.zeros(1, 2, 3)), lambda lib, m: m(lib.zeros(()))]
    if name == "LSTMCell":
        cases.append(lambda lib, m: m(lib.zeros(2, 3), (lib.zeros(2, 4), lib.zeros(1, 2, 4))))
    else:
        cases.append(lambda lib, m: m(lib.zeros(2, 3), lib.zeros(1, 2, 4)))
    for case in cases:
        assert raised(lambda: case(mg, ours)) == raised(lambda: case(torch, theirs))


def test_all_weights_and_flatten_parameters():
    ours, theirs = built("LSTM", dict(input_size=3, hidden_size=4, num_layers=2,
                                      bidirectional=True, proj_size=2))
    assert [[tuple(p.shape) for p in ws] for ws in ours.all_weights] == \
        [[tuple(p.shape) for p in ws] for ws in theirs.all_weights]
    assert ours._flat_weights_names == theirs._flat_weights_names
    ours.flatten_parameters()
    assert isinstance(mg.nn.GRU(2, 3), mg.nn.RNNBase) and not isinstance(mg.nn.GRU(2, 3), mg.nn.RNN)


def test_float32_bits():
    """How often float32 values carry PyTorch's bits (GRU: NumPy's tanh and matrix products
    against PyTorch's); they always agree to float32 precision."""
    ours, theirs = built("GRU", dict(input_size=8, hidden_size=16, num_layers=2))
    x = np.random.default_rng(6).standard_normal((20, 4, 8)).astype("float32")
    mine, theirs_out = ours(mg.tensor(x))[0], theirs(torch.tensor(x))[0]
    a, b = as_numpy(mine), theirs_out.detach().numpy()
    equal = np.mean(a == b)
    assert 0.2 < equal < 1 and np.abs(a - b).max() < 1e-6, (equal, np.abs(a - b).max())


# ---- a training loop: a character model, as in "NLP From Scratch" and d2l's RNN chapters ----

TEXT = "the time machine by h g wells the time traveller for so it will be convenient to speak"


def train_char_model(lib, kind, steps=6):
    """A character-level language model: embedding one-hot, a recurrent layer, a linear
    head; SGD with gradient clipping, as d2l's ``train_ch8``. Returns losses and weights."""
    lib.manual_seed(0)
    vocab = sorted(set(TEXT))
    ids = lib.tensor([vocab.index(c) for c in TEXT])
    layer = getattr(lib.nn, kind)(len(vocab), 16, num_layers=2, dropout=0.1 if kind != "LSTM" else 0.0)
    head = lib.nn.Linear(16, len(vocab))
    params = list(layer.parameters()) + list(head.parameters())
    optimizer = lib.optim.SGD(params, lr=0.5)
    losses, state = [], None
    for step in range(steps):
        start = (step * 7) % (len(TEXT) - 21)
        x = lib.nn.functional.one_hot(ids[start:start + 20].reshape(20, 1), len(vocab)).float()
        y = ids[start + 1:start + 21]
        if state is not None:  # detach the carried state (truncated backpropagation)
            state = tuple(s.detach() for s in state) if isinstance(state, tuple) else state.detach()
        output, state = layer(x, state)
        loss = lib.nn.functional.cross_entropy(head(output.reshape(-1, 16)), y)
        optimizer.zero_grad()
        loss.backward()
        lib.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        losses.append(loss.item())
    return losses, [p.detach().numpy().copy() for p in params]


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_character_model_trains_as_in_pytorch(kind):
    ours, theirs = train_char_model(mg, kind), train_char_model(torch, kind)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    assert ours[0][-1] < ours[0][0]
    for mine, their in zip(ours[1], theirs[1], strict=True):
        np.testing.assert_allclose(mine, their, rtol=1e-4, atol=5e-5 * np.abs(their).max())


def test_names_classifier_with_a_cell_loop():
    """"NLP From Scratch: classifying names": a cell stepped by hand over one-hot letters,
    its last hidden state classified; NLLLoss on LogSoftmax."""
    def run(lib):
        lib.manual_seed(1)
        cell, head = lib.nn.RNNCell(26, 12), lib.nn.Linear(12, 3)
        opt = lib.optim.SGD(list(cell.parameters()) + list(head.parameters()), lr=0.05)
        losses = []
        for word, label in [("albert", 0), ("sato", 1), ("nguyen", 2), ("dupont", 0)] * 2:
            hidden = lib.zeros(1, 12)
            for ch in word:
                hidden = cell(lib.nn.functional.one_hot(lib.tensor([ord(ch) - 97]), 26).float(), hidden)
            loss = lib.nn.NLLLoss()(lib.nn.LogSoftmax(dim=1)(head(hidden)), lib.tensor([label]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses
    np.testing.assert_allclose(run(mg), run(torch), rtol=1e-5)


def test_projection_warning_once_as_pytorchs():
    """PyTorch's float32 LSTM with projections warns (once per process) that oneDNN cannot
    run it; float64 does not. Both libraries' first warning is compared in a fresh process."""
    program = ("import warnings, {lib} as torch\n"
               "warnings.simplefilter('always')\n"
               "with warnings.catch_warnings(record=True) as seen:\n"
               "    warnings.simplefilter('always')\n"
               "    torch.nn.LSTM(3, 4, proj_size=2, dtype=torch.float64)(torch.zeros(2, 1, 3, dtype=torch.float64))\n"
               "    m = torch.nn.LSTM(3, 4, proj_size=2)\n"
               "    m(torch.zeros(2, 1, 3)); m(torch.zeros(2, 1, 3))\n"
               "print([(str(w.message), w.category.__name__, w.filename.rsplit('/', 1)[1]) for w in seen])\n")
    outputs = [subprocess.run([sys.executable, "-c", program.format(lib=lib)], capture_output=True,
                              text=True, check=True).stdout for lib in ("minigrad", "torch")]
    assert outputs[0] == outputs[1]
    assert "oneDNN" in outputs[0]


# ---- nn.utils.rnn: padding a batch of sequences of different lengths --------------------

@pytest.mark.parametrize("kwargs", [{}, dict(batch_first=True),
                                    dict(padding_value=-1.0, padding_side="left"),
                                    dict(batch_first=True, padding_side="left")])
def test_pad_sequence(kwargs):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((n, 2)).astype("float32") for n in (3, 1, 4)]
    results = []
    for lib in (mg, torch):
        tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
        padded = lib.nn.utils.rnn.pad_sequence(tensors, **kwargs)
        ramp = lib.tensor(np.arange(padded.numel(), dtype="float32").reshape(tuple(padded.shape)))
        (padded * ramp).sum().backward()
        results.append((repr(padded), graph(padded), [as_numpy(t.grad) for t in tensors]))
    assert results[0][:2] == results[1][:2]
    for a, b in zip(results[0][2], results[1][2], strict=True):
        assert np.array_equal(a, b)


def test_pad_sequence_errors_and_unpad():
    cases = [lambda lib: lib.nn.utils.rnn.pad_sequence([]),
             lambda lib: lib.nn.utils.rnn.pad_sequence(3),
             lambda lib: lib.nn.utils.rnn.pad_sequence([lib.ones(2)], padding_side="up")]
    for case in cases:
        assert raised(lambda: case(mg)) == raised(lambda: case(torch))
    results = []
    for lib in (mg, torch):
        padded = lib.tensor(np.arange(12.0).reshape(3, 2, 2))
        parts = lib.nn.utils.rnn.unpad_sequence(padded, lib.tensor([3, 1]))
        results.append(([repr(p) for p in parts], tuple(padded.shape)))
    assert results[0] == results[1]


def test_unpack_sequence_as_torch():
    """unpack_sequence's docstring: pack_sequence(enforce_sorted=False) undone, in the
    sequences' own order, gradients back through the packing."""
    results = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        seqs = [lib.randn(n, 2, requires_grad=True) for n in (2, 3, 1)]
        packed = lib.nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False)
        parts = lib.nn.utils.rnn.unpack_sequence(packed)
        sum(p.pow(2).sum() * (k + 1) for k, p in enumerate(parts)).backward()
        results.append(([repr(p) for p in parts], [repr(s.grad) for s in seqs], repr(packed)))
    assert results[0] == results[1]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("lengths", [[3, 1], [3, 3], [2, 3]])
def test_packing_records_torchs_nodes(batch_first, lengths):
    """PyTorch's _pack_padded_sequence is one node, PackPaddedSequenceBackward0 (the
    batch_first transpose inside it), and its _pad_packed_sequence copies each run of
    steps of one batch size through a view: the same graphs, values and gradients."""
    said = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        x = lib.randn(2, 3, 2, requires_grad=True) if batch_first else \
            lib.randn(3, 2, 2, requires_grad=True)
        packed = lib.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=batch_first,
                                                       enforce_sorted=False)
        padded, found = lib.nn.utils.rnn.pad_packed_sequence(packed, batch_first=batch_first,
                                                            total_length=4)
        (padded * lib.arange(4.0).view(4, 1, 1) if not batch_first else
         padded * lib.arange(2.0).view(2, 1, 1)).pow(2).sum().backward()
        nodes, stack = [], [padded.grad_fn]
        while stack:
            node = stack.pop()
            if node is not None:
                nodes.append(type(node).__name__)
                stack.extend(f for f, _ in node.next_functions)
        said.append((repr(packed), repr(padded), repr(found), nodes, repr(x.grad)))
    assert said[0] == said[1]


def test_padded_batch_through_a_gru_classifier():
    """A collate-style batch: pad_sequence, a GRU with batch_first, the state at each
    sequence's last real step picked with gather, as tutorials do without packing."""
    def run(lib):
        lib.manual_seed(0)
        embed, gru, head = lib.nn.Embedding(6, 4), lib.nn.GRU(4, 5, batch_first=True), lib.nn.Linear(5, 2)
        seqs = [lib.tensor(s) for s in ([1, 2, 3], [4, 5], [2, 2, 2, 1])]
        lengths = lib.tensor([3, 2, 4])
        x = embed(lib.nn.utils.rnn.pad_sequence(seqs, batch_first=True))
        out, _ = gru(x)
        last = out.gather(1, (lengths - 1).view(-1, 1, 1).expand(-1, 1, 5)).squeeze(1)
        loss = lib.nn.functional.cross_entropy(head(last), lib.tensor([0, 1, 0]))
        loss.backward()
        return loss.item(), as_numpy(gru.weight_hh_l0.grad)
    (loss, grad), (loss_t, grad_t) = run(mg), run(torch)
    assert abs(loss - loss_t) < 1e-6
    np.testing.assert_allclose(grad, grad_t, rtol=1e-4, atol=1e-6)


# ---- packed sequences ---------------------------------------------------------------------

PACKED_CASES = [
    ({}, [5, 3, 3, 1], True, False, False),
    (dict(bidirectional=True, num_layers=2), [2, 5, 1, 3], False, True, False),
    (dict(num_layers=3, dropout=0.3), [4, 5, 2], False, True, True),
    (dict(batch_first=True, bidirectional=True), [3, 1, 3], False, False, False),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(PACKED_CASES)))
@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
def test_packed_sequences_through_recurrent_layers(name, case, dtype):
    """pack_padded_sequence, the layer, pad_packed_sequence: outputs, lengths, last states
    and every gradient as PyTorch's (dropout in training from its random stream)."""
    kwargs, lengths, enforce_sorted, given_state, train = PACKED_CASES[case]
    first = kwargs.get("batch_first", False)
    rng = np.random.default_rng(0)
    batch, steps = len(lengths), max(lengths)
    x = rng.standard_normal((batch, steps, 3) if first else (steps, batch, 3)).astype(dtype)
    layers = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    h, c = (rng.standard_normal((layers, batch, 4)).astype(dtype) for _ in range(2))
    results = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        module = getattr(lib.nn, name)(3, 4, **kwargs, dtype=getattr(lib, dtype)).train(train)
        xt = lib.tensor(x, requires_grad=True)
        packed = lib.nn.utils.rnn.pack_padded_sequence(xt, lengths, batch_first=first,
                                                       enforce_sorted=enforce_sorted)
        hx = None
        if given_state:
            hx = (lib.tensor(h), lib.tensor(c)) if name == "LSTM" else lib.tensor(h)
        lib.manual_seed(4)
        output, hn = module(packed, hx)
        assert type(output).__name__ == "PackedSequence"
        padded, lens = lib.nn.utils.rnn.pad_packed_sequence(output, batch_first=first,
                                                            padding_value=0.5)
        states = list(hn) if isinstance(hn, tuple) else [hn]
        ramp = lib.tensor(np.linspace(-1, 1, padded.numel()).reshape(tuple(padded.shape)).astype(dtype))
        ((padded * ramp).sum() + sum((s * s).sum() for s in states)).backward()
        results.append([as_numpy(padded), as_numpy(lens), as_numpy(output.batch_sizes)]
                       + [as_numpy(s) for s in states] + [as_numpy(xt.grad)]
                       + [as_numpy(p.grad) for p in module.parameters()])
    for a, b in zip(*results, strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, **TOL[dtype])


def test_packing_prints_and_fails_as_pytorch():
    for kwargs in ({}, {"enforce_sorted": False}):
        texts = []
        for lib in (mg, torch):
            sequences = [lib.tensor([1.0, 2.0, 3.0]), lib.tensor([4.0, 5.0]), lib.tensor([6.0])]
            if kwargs:
                sequences = sequences[::-1]
            packed = lib.nn.utils.rnn.pack_sequence(sequences, **kwargs)
            texts.append((repr(packed), repr(lib.nn.utils.rnn.pad_packed_sequence(packed)),
                          repr(lib.nn.utils.rnn.pad_packed_sequence(packed, batch_first=True,
                                                                    total_length=4))))
        assert texts[0] == texts[1]
    cases = [
        lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2, 2), [1, 3]),
        lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2, 2), [3, 0]),
        lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2, 2), [3, 2, 1]),
        lambda lib: lib.nn.utils.rnn.pad_packed_sequence(
            lib.nn.utils.rnn.pack_sequence([lib.ones(3)]), total_length=2),
        lambda lib: lib.nn.GRU(2, 3)(lib.nn.utils.rnn.pack_sequence([lib.ones(3, 2)]),
                                     lib.zeros(1, 2, 3)),
    ]
    for case in cases:
        assert raised(lambda: case(mg)) == raised(lambda: case(torch))


def test_chatbot_tutorial_encoder():
    """The encoder of PyTorch's chatbot tutorial: embedding, pack_padded_sequence, a
    bidirectional GRU, pad_packed_sequence, the two directions summed; trained a few steps."""
    def run(lib):
        nn = lib.nn

        class EncoderRNN(nn.Module):
            def __init__(self, hidden_size, embedding, n_layers=2, dropout=0.1):
                super().__init__()
                self.n_layers, self.hidden_size, self.embedding = n_layers, hidden_size, embedding
                self.gru = nn.GRU(hidden_size, hidden_size, n_layers,
                                  dropout=(0 if n_layers == 1 else dropout), bidirectional=True)

            def forward(self, input_seq, input_lengths, hidden=None):
                embedded = self.embedding(input_seq)
                packed = nn.utils.rnn.pack_padded_sequence(embedded, input_lengths)
                outputs, hidden = self.gru(packed, hidden)
                outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs)
                outputs = outputs[:, :, :self.hidden_size] + outputs[:, :, self.hidden_size:]
                return outputs, hidden

        lib.manual_seed(0)
        encoder = EncoderRNN(6, nn.Embedding(10, 6))
        head = nn.Linear(6, 10)
        opt = lib.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=0.01)
        batch = lib.tensor([[1, 4, 7], [2, 5, 8], [3, 6, 0], [9, 0, 0]])
        lengths = lib.tensor([4, 3, 2])
        losses = []
        for _ in range(4):
            outputs, hidden = encoder(batch, lengths)
            loss = nn.functional.cross_entropy(head(outputs.reshape(-1, 6)), batch.reshape(-1),
                                               ignore_index=0) + hidden.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses
    np.testing.assert_allclose(run(mg), run(torch), rtol=1e-5)


@pytest.mark.parametrize("reverse", [False, True])
def test_mkldnn_rnn_layer_is_pytorchs(reverse):
    """torch.mkldnn_rnn_layer, the node a float32 LSTM layer is in PyTorch (one per layer
    and direction): its outputs, the gradients of its seven inputs, its node, and a second
    derivative through it (PyTorch's backward of it is itself differentiable)."""
    rng = np.random.default_rng(3 + reverse)
    arrays = [rng.standard_normal(s).astype(np.float32)
              for s in ((6, 2, 3), (16, 3), (16, 4), (16,), (16,), (2, 4), (2, 4))]
    weights = [rng.standard_normal(s).astype(np.float32) for s in ((6, 2, 4), (2, 4), (2, 4))]

    def run(lib):
        inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
        outs = lib.mkldnn_rnn_layer(*inputs, reverse, [], 2, 4, 1, True, False, False, True)
        loss = sum((o * lib.tensor(w)).sum() for o, w in zip(outs[:3], weights))
        grads = lib.autograd.grad(loss, inputs, create_graph=True)
        sum((g ** 2).sum() for g in grads).backward()
        return ([o.detach().numpy() for o in outs[:3]], [g.detach().numpy() for g in grads],
                [i.grad.numpy() for i in inputs], type(outs[0].grad_fn).__name__,
                [o.grad_fn is outs[0].grad_fn for o in outs[:3]], outs[3].dtype)

    ours, theirs = run(mg), run(torch)
    for mine, their in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        np.testing.assert_allclose(mine, their, rtol=2e-5, atol=2e-6)
    for mine, their in zip(ours[2], theirs[2]):  # (second derivatives: float32 sums of more)
        np.testing.assert_allclose(mine, their, rtol=1e-4, atol=5e-5 * np.abs(their).max())
    assert ours[3] == theirs[3] == "MkldnnRnnLayerBackward0" and ours[4] == theirs[4]
    assert str(ours[5]).replace("minigrad", "torch") == str(theirs[5])


def test_mkldnn_rnn_layer_gradients_against_finite_differences():
    rng = np.random.default_rng(5)
    shapes = ((4, 2, 2), (12, 2), (12, 3), (12,), (12,), (2, 3), (2, 3))
    inputs = [mg.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes]

    def layer(*xs):
        output, hy, cy = mg.ops.recurrent.mkldnn_rnn_layer(*xs, True)
        return output.sum() + (hy * cy).sum()
    assert mg.autograd.gradcheck(layer, inputs)
