"""``F.ctc_loss``, ``nn.CTCLoss`` and ``torch.ctc_loss`` (kernels/ctc.py, ops/loss.py,
rules/ctc.py) against PyTorch 2.13, live: the losses, their gradients and the saved
``log_alpha`` bit for bit in float32 and float64 (padded and concatenated targets,
lengths as tensors or tuples, empty inputs and targets, impossible alignments with and
without ``zero_infinity``, a blank other than 0, repeated labels); every reduction's graph
and printed form; unbatched input; a create_graph backward's NotImplemented node; every
argument error; finite differences; and a small speech-recognition model (an LSTM, a
log_softmax and CTC) trained both ways."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
from minigrad.autograd import gradcheck
from tests.core.support.torch_compare import graph_of, outcome

SAVED = ("blank", "input_lengths", "target_lengths", "zero_infinity", "targets", "result0")


def _case(seed, time=12, batch=4, classes=6, longest=4, dtype="float32", repeats=False):
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal((time, batch, classes)) * 2
    log_probs = (logits - np.log(np.exp(logits).sum(-1, keepdims=True))).astype(dtype)
    targets = rng.integers(1, classes, (batch, longest))
    if repeats:  # (a label repeated: the alignment must put a blank between them)
        targets[:, 1] = targets[:, 0]
    input_lengths = rng.integers(time // 2, time + 1, batch)
    target_lengths = rng.integers(0, longest + 1, batch)
    return log_probs, targets, input_lengths, target_lengths


def _run(lib, log_probs, targets, input_lengths, target_lengths, as_tuples=False,
         concatenated=False, **options):
    x = lib.tensor(log_probs, requires_grad=True)
    if concatenated:
        targets = np.concatenate([row[:n] for row, n in zip(targets, target_lengths)])
    lengths = (tuple(int(n) for n in input_lengths), tuple(int(n) for n in target_lengths)) \
        if as_tuples else (lib.tensor(input_lengths), lib.tensor(target_lengths))
    y = lib.nn.functional.ctc_loss(x, lib.tensor(targets), *lengths, **options)
    node = y.grad_fn
    while type(node).__name__ != "CtcLossBackward0":  # (under a mean, a where, ...)
        node = next(n for n, _ in node.next_functions if n is not None)
    saved = {name: getattr(node, "_saved_" + name) for name in SAVED}
    alpha = node._saved_result1.detach().numpy()
    seed = lib.linspace(-1, 2, y.numel(), dtype=y.dtype).reshape(y.shape)
    (y * seed).sum().backward()
    return y, x.grad, saved, alpha


def _same(ours, theirs):
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def _same_alpha(ours, theirs, input_lengths, target_lengths):
    """log_alpha where PyTorch writes it (its other entries are uninitialised memory)."""
    assert ours.shape == theirs.shape
    for b, (t, n) in enumerate(zip(input_lengths, target_lengths)):
        np.testing.assert_array_equal(ours[b, :t, :2 * n + 1], theirs[b, :t, :2 * n + 1])


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_losses_gradients_and_saved_values_are_pytorchs_bits(dtype, reduction):
    for seed in range(4):
        case = _case(seed, dtype=dtype, repeats=seed % 2 == 1)
        options = dict(reduction=reduction, as_tuples=seed == 2, concatenated=seed == 3,
                       blank=0)
        ours, theirs = _run(minigrad, *case, **options), _run(torch, *case, **options)
        _same(ours[0], theirs[0])
        _same(ours[1], theirs[1])
        for name in SAVED:
            a, b = ours[2][name], theirs[2][name]
            if isinstance(b, torch.Tensor):
                _same(a, b)
            else:
                assert a == b, name
        _same_alpha(ours[3], theirs[3], case[2], case[3])
        assert repr(ours[0]) == repr(theirs[0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_longer_sequences_agree_bit_for_bit(dtype):
    """Speech-sized: 60 frames, 29 classes (an alphabet), targets of up to 15 labels."""
    case = _case(10, time=60, batch=5, classes=29, longest=15, dtype=dtype)
    ours, theirs = _run(minigrad, *case, reduction="none"), _run(torch, *case, reduction="none")
    _same(ours[0], theirs[0])
    _same(ours[1], theirs[1])


@pytest.mark.parametrize("zero_infinity", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_empty_inputs_empty_targets_and_impossible_alignments(dtype, zero_infinity):
    """An input of 0 frames (loss 0 for an empty target, else inf), an empty target, and
    targets longer than their input (inf; 0 with zero_infinity, with zero gradients;
    without it the gradient is NaN, as PyTorch's)."""
    log_probs, targets, _, _ = _case(4, time=6, batch=5, longest=3, dtype=dtype)
    targets[4] = [2, 2, 2]  # (repeats need 5 frames: 3 is too few)
    for lengths in ((np.array([0, 0, 6, 2, 3]), np.array([0, 2, 0, 3, 3])),
                    (np.array([6, 3, 0, 2, 1]), np.zeros(5, np.int64))):  # (no target at all)
        for reduction in ("none", "mean", "sum"):
            options = dict(reduction=reduction, zero_infinity=zero_infinity)
            ours = _run(minigrad, log_probs, targets, *lengths, **options)
            theirs = _run(torch, log_probs, targets, *lengths, **options)
            _same(ours[0], theirs[0])
            _same(ours[1], theirs[1])
            assert repr(ours[0]) == repr(theirs[0])


def test_another_blank_and_float_targets():
    """blank=3 (labels on both sides of it), and targets given as floats (PyTorch casts
    them to int64, truncating)."""
    log_probs, targets, input_lengths, target_lengths = _case(5, dtype="float64")
    targets[targets == 3] = 0
    for lib_targets in (targets, targets.astype(np.float32) + 0.25):
        ours = _run(minigrad, log_probs, lib_targets, input_lengths, target_lengths, blank=3)
        theirs = _run(torch, log_probs, lib_targets, input_lengths, target_lengths, blank=3)
        _same(ours[0], theirs[0])
        _same(ours[1], theirs[1])


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_graphs_as_pytorchs(reduction, zero_infinity):
    log_probs, targets, input_lengths, target_lengths = _case(6)
    graphs = []
    for lib in (minigrad, torch):
        logits = lib.tensor(log_probs, requires_grad=True)
        y = lib.nn.functional.ctc_loss(logits.log_softmax(2), lib.tensor(targets),
                                       lib.tensor(input_lengths), lib.tensor(target_lengths),
                                       reduction=reduction, zero_infinity=zero_infinity)
        graphs.append(graph_of([y], [logits]))
    assert graphs[0] == graphs[1]


@pytest.mark.parametrize("lengths", ["tensors", "tuples", "zero-dim"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_one_unbatched_sequence(reduction, lengths):
    """log_probs (time, classes) and a 1-D target: PyTorch's unsqueeze and squeeze."""
    log_probs, targets, _, _ = _case(7, dtype="float64")
    found = []
    for lib in (minigrad, torch):
        x = lib.tensor(log_probs[:, 0], requires_grad=True)
        given = {"tensors": (lib.tensor([12]), lib.tensor([3])), "tuples": ((12,), (3,)),
                 "zero-dim": (lib.tensor(12), lib.tensor(3))}[lengths]
        y = lib.nn.functional.ctc_loss(x, lib.tensor(targets[0, :3]), *given,
                                       reduction=reduction)
        y.backward()
        found.append((repr(y), graph_of([y], [x]), x.grad.numpy()))
    assert found[0][:2] == found[1][:2]
    np.testing.assert_array_equal(found[0][2], found[1][2])


def test_module_and_top_level_function():
    log_probs, targets, input_lengths, target_lengths = _case(8)
    found = []
    for lib in (minigrad, torch):
        loss_fn = lib.nn.CTCLoss(blank=0, zero_infinity=True)
        args = (lib.tensor(log_probs), lib.tensor(targets), lib.tensor(input_lengths),
                lib.tensor(target_lengths))
        found.append((repr(lib.nn.CTCLoss()), repr(loss_fn), loss_fn.blank, loss_fn.reduction,
                      loss_fn.zero_infinity, repr(loss_fn(*args)), repr(lib.ctc_loss(*args)),
                      repr(lib.ctc_loss(*args, 0, 2, False))))
    assert found[0] == found[1]


def test_create_graph_records_pytorchs_not_implemented_node():
    log_probs, targets, input_lengths, target_lengths = _case(9, dtype="float64")
    found = []
    for lib in (minigrad, torch):
        x = lib.tensor(log_probs, requires_grad=True)
        y = lib.nn.functional.ctc_loss(x, lib.tensor(targets), lib.tensor(input_lengths),
                                       lib.tensor(target_lengths))
        grad, = lib.autograd.grad(y, x, create_graph=True)
        with pytest.raises(RuntimeError) as error:
            grad.sum().backward()
        found.append((graph_of([grad], [x]), str(error.value), grad.detach().numpy()))
    assert found[0][:2] == found[1][:2]
    np.testing.assert_array_equal(found[0][2], found[1][2])


def test_gradients_against_finite_differences():
    """Through a log_softmax (PyTorch's gradient assumes one before it)."""
    log_probs, targets, input_lengths, target_lengths = _case(11, time=8, batch=3, longest=3,
                                                              dtype="float64")
    for reduction in ("none", "mean", "sum"):
        def loss(logits):
            return minigrad.nn.functional.ctc_loss(
                logits.log_softmax(2), minigrad.tensor(targets), minigrad.tensor(input_lengths),
                minigrad.tensor(target_lengths), reduction=reduction)
        assert gradcheck(loss, (minigrad.tensor(log_probs, requires_grad=True),))


def _bad_calls():
    log_probs, targets, _, _ = _case(12, time=6, batch=3, classes=5, longest=3)
    il, tl = [6, 6, 6], [3, 2, 1]

    def call(lp=log_probs, tg=targets, inputs=il, target=tl, lengths="tensor", **options):
        def run(lib):
            lp_, tg_ = lib.tensor(lp), lib.tensor(tg)
            given = (lib.tensor(inputs), lib.tensor(target)) if lengths == "tensor" \
                else (inputs, target)
            return lib.nn.functional.ctc_loss(lp_, tg_, *given, **options)
        return run
    wide = np.zeros((6, 3, 5), np.float64)
    return {
        "reduction": call(reduction="avg"),
        "float input_lengths": call(inputs=[6.0, 6.0, 6.0]),
        "float target_lengths": call(target=[3.0, 2.0, 1.0]),
        "bool input_lengths": call(inputs=[True, True, True]),
        "half log_probs": call(lp=log_probs.astype(np.float16)),
        "integer log_probs": call(lp=wide.astype(np.int64)),
        "4-d log_probs": call(lp=log_probs[None]),
        "1-d log_probs": call(lp=log_probs[0, 0]),
        "3-d targets": call(tg=targets[None]),
        "0-d targets": call(tg=targets[0, 0]),
        "blank too big": call(blank=5),
        "blank negative": call(blank=-1),
        "input_lengths count": call(inputs=[6, 6]),
        "target_lengths count": call(target=[3, 2]),
        "input_length too big": call(inputs=[7, 6, 6]),
        "input_length negative": call(inputs=[6, -1, 6]),
        "target_length negative": call(target=[3, -1, 1]),
        "target_length beyond the padding": call(target=[4, 2, 1]),
        "concatenated size": call(tg=targets.reshape(-1)),
        "padded rows": call(tg=targets[:2]),
        "tl first": call(inputs=[-1, 6, 6], target=[3, -1, 1]),
        "size before input lengths": call(tg=targets[:2], inputs=[-1, 6, 6]),
        "an int length": call(inputs=6, lengths="python"),
        "tuple and tensor": lambda lib: call(lengths="python", inputs=(6, 6, 6),
                                             target=lib.tensor([3, 2, 1]))(lib),
        "a float in a tuple": call(lengths="python", inputs=(6.0, 6, 6), target=(3, 2, 1)),
        "lists": call(lengths="python", inputs=[6, 6, 6], target=[3, 2, 1]),
        "unbatched 2-d target": call(lp=log_probs[:, 0], inputs=[6], target=[3]),
    }


@pytest.mark.parametrize("name", sorted(_bad_calls()))
def test_errors_as_pytorchs(name):
    call = _bad_calls()[name]
    assert outcome(call, minigrad) == outcome(call, torch)


def test_speech_recognition_model_trains_as_pytorch():
    """A tiny speech recogniser in the shape of the CTC tutorials (e.g. PyTorch's
    "Speech Recognition with Wav2Vec2"-style heads, AssemblyAI's DeepSpeech2 walkthrough):
    features -> LSTM -> Linear -> log_softmax over (blank + letters) -> CTCLoss, trained
    with Adam on the same seeded weights both ways. float64: the LSTM's matrix products
    round otherwise in float32; here the losses agree to 1e-12 over the steps."""
    rng = np.random.default_rng(13)
    time, batch, features, hidden, letters = 20, 4, 8, 16, 6
    x = rng.standard_normal((time, batch, features))
    targets = rng.integers(1, letters + 1, (batch, 5))
    input_lengths, target_lengths = [20, 18, 15, 20], [5, 3, 4, 1]
    losses = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        lstm = lib.nn.LSTM(features, hidden, dtype=lib.float64)
        head = lib.nn.Linear(hidden, letters + 1, dtype=lib.float64)
        loss_fn = lib.nn.CTCLoss(blank=0, zero_infinity=True)
        opt = lib.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=0.02)
        found = []
        for _ in range(15):
            out, _ = lstm(lib.tensor(x))
            log_probs = head(out).log_softmax(2)
            loss = loss_fn(log_probs, lib.tensor(targets), lib.tensor(input_lengths),
                           lib.tensor(target_lengths))
            opt.zero_grad()
            loss.backward()
            opt.step()
            found.append(loss.item())
        losses.append(found)
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-12)
    assert losses[0][-1] < 0.7 * losses[0][0]


@pytest.mark.parametrize("seed", range(0, 60, 6))
def test_random_cases_bit_for_bit(seed):
    """Random sizes (1 to 11 frames, 2 to 5 classes), any blank, padded or concatenated
    targets, every reduction, zero_infinity or not, empty and impossible sequences: the
    losses, the printed result and the gradients are PyTorch's bits (or its error)."""
    for case in range(seed, seed + 6):
        rng = np.random.default_rng(case)
        time, batch = int(rng.integers(1, 12)), int(rng.integers(1, 5))
        classes, longest = int(rng.integers(2, 6)), int(rng.integers(0, 6))
        blank = int(rng.integers(0, classes))
        dtype = str(rng.choice(["float32", "float64"]))
        x = rng.standard_normal((time, batch, classes)) * rng.choice([0.5, 3, 10])
        log_probs = (x - np.log(np.exp(x).sum(-1, keepdims=True))).astype(dtype)
        labels = [c for c in range(classes) if c != blank]
        targets = rng.choice(labels, (batch, max(longest, 1)))
        input_lengths = rng.integers(0, time + 1, batch)
        target_lengths = rng.integers(0, longest + 1, batch)
        options = dict(blank=blank, reduction=str(rng.choice(["none", "mean", "sum"])),
                       zero_infinity=bool(rng.integers(0, 2)),
                       concatenated=bool(rng.integers(0, 2)))
        found = []
        for lib in (minigrad, torch):
            try:
                y, grad, _, _ = _run(lib, log_probs, targets, input_lengths, target_lengths,
                                     **options)
                found.append((repr(y), y.detach().numpy(), grad.numpy()))
            except Exception as error:  # noqa: BLE001 (the error is compared)
                found.append((type(error).__name__, str(error)))
        ours, theirs = found
        assert ours[0] == theirs[0], case
        if len(ours) == 3:
            np.testing.assert_array_equal(ours[1], theirs[1])
            np.testing.assert_array_equal(ours[2], theirs[2])
        else:
            assert ours == theirs
