"""The losses of ``minigrad/ops/loss.py`` against PyTorch 2.13.

cross_entropy / nll_loss, program by program (the transcript of
``transcripts.py``: reprs, grad_fn chains with next_functions, error texts): every
reduction x label_smoothing x weight x target kind (class indices, some ignored, class
probabilities) x input shape, forward graph, gradients and a second-order gradient; and
the checks on the target's dtype, the weight's size and the input's dtype, in torch's
order.

nll_loss and cross_entropy on more than two dims, (N, C, d1, ...), compared with
PyTorch 2.13 at test time. torch computes them with nll_loss2d: 4 dims as they are,
3 dims and 5 or more made contiguous and viewed as (N, C, 1, d) first, so every case
records ``NllLoss2DBackward0`` (after a ``ViewBackward0``, and before one for
reduction='none'), and a second backward ``NllLoss2DBackwardBackward0``. Values,
signed zeros, graphs, saved values and gradients up to the third order, with class
weights, ignore_index and every reduction.

The tensors a loss keeps besides its input (nll_loss's and cross_entropy's target and
``weight``, binary_cross_entropy_with_logits' ``weight`` and ``pos_weight``) are saved
as PyTorch saves them, with their versions: compared with PyTorch 2.13 at test time,
what the node shows (``_saved_weight``, ...), the error when one was changed in place
before backward (and which one it names when several were), the same through a
backward with create_graph=True, and the refusal of a weight that requires grad."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minigrad
import minigrad as mg

from programs import assert_same_run
from transcripts import assert_same


SHAPES = {  # input of shape (C,), (N, C), (N, C, d): its values, class targets, probabilities
    "(C,)": ("[0.5, -1.25, 1.0]", "torch.tensor(2)", "torch.tensor([0.25, 0.25, 0.5])"),
    "(N, C)": ("[[0.5, -1.25, 1.0], [0.0, 2.0, -0.5]]", "torch.tensor([1, 2])",
               "torch.tensor([[0.25, 0.25, 0.5], [0.0, 1.0, 0.0]])"),
    "(N, C, d)": ("[[[0.5, 1.0], [-1.25, 0.0], [1.0, 2.0]], [[0.0, -3.0], [2.0, 1.5], [-0.5, 0.25]]]",
                  "torch.tensor([[1, 2], [0, 1]])",
                  "torch.tensor([[[0.25, 1.0], [0.25, 0.0], [0.5, 0.0]], "
                  "[[0.0, 0.5], [1.0, 0.25], [0.0, 0.25]]])"),
}


def _program(shape, target_kind, reduction, smoothing, weight, dtype):
    values, classes, probabilities = SHAPES[shape]
    target = {"classes": classes, "probabilities": probabilities + f".to(torch.{dtype})",
              "ignored": classes}[target_kind]
    ignore = ", ignore_index=1" if target_kind == "ignored" else ""
    weight_arg = {"none": "", "plain": ", weight=w", "requires grad": ", weight=w"}[weight]
    # float32 over a class dimension that is not the last: torch's log_softmax kernel
    # takes exp from SLEEF, so the gradients' last bits differ (a known difference, see
    # test_generated_regressions.KNOWN): their values are compared closely below.
    exact = dtype == "float64" or shape != "(N, C, d)"
    show_g, show_grad = ("show(g)", "show(z.grad)") if exact else \
        ("show(tuple(g.shape), g.dtype)", "show(tuple(z.grad.shape), z.grad.dtype)")
    return (
        f"z = torch.tensor({values}, dtype=torch.{dtype}, requires_grad=True)\n"
        f"w = torch.tensor([0.5, 2.0, 1.5], dtype=torch.{dtype}, "
        f"requires_grad={weight == 'requires grad'})\n"
        f"loss = F.cross_entropy(z, {target}{weight_arg}, reduction='{reduction}', "
        f"label_smoothing={smoothing}{ignore})\n"
        "show(loss)\ngfn(loss)\n"
        f"g, = torch.autograd.grad(loss.sum(), [z], create_graph=True)\n{show_g}\ngfn(g)\n"
        f"(g * g).sum().backward()\n{show_grad}\nshow(w.grad)")


CASES = {
    f"{shape}, {target}, {reduction}, smoothing {smoothing}, weight {weight}, {dtype}":
        _program(shape, target, reduction, smoothing, weight, dtype)
    for shape in SHAPES for target in ("classes", "ignored", "probabilities")
    for reduction in ("mean", "sum", "none") for smoothing in (0.0, 0.2)
    for weight in ("none", "plain", "requires grad") for dtype in ("float32", "float64")
    if not (target == "ignored" and shape == "(C,)")
}


@pytest.mark.parametrize("name", list(CASES))
def test_cross_entropy_graph(name):
    assert_same(CASES[name])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("target", ["classes", "probabilities"])
def test_cross_entropy_float32_images_close(reduction, smoothing, target):
    """The gradients left out of the transcripts above, close to torch's (last bits:
    the second order cancels, so a few ulp of exp become ~16 ulp of a small element)."""
    values, classes, probabilities = SHAPES["(N, C, d)"]
    grads = []
    for lib in (torch, minigrad):
        z = lib.tensor(eval(values), requires_grad=True)
        t = lib.tensor(eval(classes[len("torch.tensor("):-1] if target == "classes"
                            else probabilities[len("torch.tensor("):-1]))
        loss = lib.nn.functional.cross_entropy(z, t, reduction=reduction,
                                               label_smoothing=smoothing)
        g, = lib.autograd.grad(loss.sum(), [z], create_graph=True)
        (g * g).sum().backward()
        grads.append((np.array(g.tolist(), np.float32), np.array(z.grad.tolist(), np.float32)))
    for expected, got in zip(*grads):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_cross_entropy_of_empty_probabilities():
    for reduction in ("mean", "sum", "none"):
        assert_same("z = torch.zeros(0, 3, requires_grad=True)\n"
                    f"loss = F.cross_entropy(z, torch.zeros(0, 3), reduction='{reduction}')\n"
                    "show(loss)\ngfn(loss)")


TARGET_DTYPES = ("int64", "uint8", "int32", "int16", "int8", "bool", "float32", "float64")
CHECKS = {
    **{f"{loss} {shape}, target {dt}": (
        f"x = torch.zeros({shape}, requires_grad=True)\n"
        f"t = torch.zeros({target}, dtype=torch.{dt})\n"
        f"show(F.{loss}(x, t))\nshow(F.{loss}(x, t, reduction='none'))")
       for loss in ("nll_loss", "cross_entropy")
       for shape, target in (("3", "()"), ("2, 3", "2"), ("2, 3, 2", "2, 2"), ("0, 3", "0"))
       for dt in TARGET_DTYPES},
    "cross_entropy smoothed, target int32":
        "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1], dtype=torch.int32), "
        "label_smoothing=0.1, ignore_index=1)",
    "target size checked before its dtype":
        "F.nll_loss(torch.zeros(2, 3, 2), torch.tensor([[0, 1, 1], [1, 1, 1]], dtype=torch.int32))",
    "multi-target checked before the dtype":
        "F.nll_loss(torch.zeros(2, 3), torch.tensor([[0, 1], [0, 1]], dtype=torch.int32))",
    "dtype checked before the classes": "F.nll_loss(torch.zeros(2, 3), "
                                        "torch.tensor([0, 5], dtype=torch.int32))",
    **{f"weight of shape {w}, {shape}, target {dt}": (
        f"F.nll_loss(torch.zeros({shape}), torch.zeros({target}, dtype=torch.{dt}), "
        f"weight=torch.ones({w}))")
       for w in ("4", "3, 1", "1, 3", "3")
       for shape, target in (("2, 3", "2"), ("2, 3, 2", "2, 2"))
       for dt in ("int64", "int32", "uint8")},
    "weight checked before the classes":
        "F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 7]), weight=torch.ones(4))",
    **{f"nll_loss of {dt} scores, {shape}": (
        f"F.nll_loss(torch.zeros({shape}, dtype=torch.{dt}), torch.tensor({target}))")
       for dt in ("int64", "int32", "bool", "float16")
       for shape, target in (("2, 3", "[0, 7]"), ("2, 3, 2", "[[0, 1], [1, 7]]"))},
    "cross_entropy of int64 scores": "F.cross_entropy(torch.zeros(2, 3, dtype=torch.int64), "
                                     "torch.tensor([0, 1]))",
    "images, uint8 target out of bounds":
        "F.nll_loss(torch.zeros(2, 3, 2), torch.tensor([[0, 1], [1, 7]], dtype=torch.uint8))",
    "uint8 target saved": "x = torch.zeros(2, 3, requires_grad=True)\n"
                          "l = F.nll_loss(x, torch.tensor([0, 1], dtype=torch.uint8))\n"
                          "show(l, l.grad_fn._saved_target)\nl.backward()\nshow(x.grad)",
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_class_target_checks(name):
    assert_same(CHECKS[name])



# ---- nll_loss and cross_entropy on (N, C, d1, ...) ---------------------------------

IMAGE_SHAPES = [(2, 3, 4), (2, 3, 2, 2), (2, 3, 2, 1, 2), (1, 4, 3, 1), (3, 2, 0)]


def _image_program(shape, reduction, weighted, ignore_index, loss="nll_loss", permuted=False):
    def program(lib, rec):
        rng = np.random.default_rng(len(shape) * 7 + shape[1])
        x = rec.leaf(rng.standard_normal(shape), dtype="float64")
        classes = rng.integers(0, shape[1], size=(shape[0], *shape[2:]))
        if ignore_index is not None and classes.size:
            classes.reshape(-1)[::3] = ignore_index
        target = lib.tensor(classes)
        kwargs = {"reduction": reduction}
        if weighted:
            kwargs["weight"] = rec.leaf(np.linspace(0.5, 2.0, shape[1]), requires_grad=False,
                                        dtype="float64")
        if ignore_index is not None:
            kwargs["ignore_index"] = ignore_index
        scores = x  # (any scores will do for nll_loss; cross_entropy takes log_softmax)
        if permuted:  # (not contiguous: torch copies it first)
            scores = scores.transpose(0, 1).contiguous().transpose(0, 1)
        y = getattr(lib.nn.functional, loss)(scores, target, **kwargs)
        rec.show("loss", y)
        node = y.grad_fn if reduction != "none" or len(shape) == 4 else \
            y.grad_fn.next_functions[0][0]
        rec.show("saved", sorted((k, getattr(node, k)) for k in dir(node)
                                 if k.startswith("_saved_") and k not in ("_saved_self",
                                                                           "_saved_target",
                                                                           "_saved_total_weight")))
        rec.show("saved tensors", (node._saved_self, node._saved_target, node._saved_total_weight))
        upstream = rec.leaf(np.linspace(-1.0, 2.0, int(np.prod(tuple(y.shape), dtype=int)))
                            .reshape(tuple(y.shape)), dtype="float64")
        g, = lib.autograd.grad(y, x, upstream, create_graph=True)
        rec.show("first order", g)
        rec.show("its strides", g.stride())
        h, = lib.autograd.grad((g * g).sum(), [x], create_graph=True)
        rec.show("second order", h)
        (h * h.detach().sin()).sum().backward()
        rec.show("third order", (x.grad, upstream.grad))
    return program


@pytest.mark.parametrize("ignore_index", [None, 1], ids=["all", "ignore 1"])
@pytest.mark.parametrize("weighted", [False, True], ids=["", "weighted"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", IMAGE_SHAPES, ids=str)
def test_nll_loss_on_images_is_torchs(shape, reduction, weighted, ignore_index):
    assert_same_run(_image_program(shape, reduction, weighted, ignore_index))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", IMAGE_SHAPES[:3], ids=str)
def test_cross_entropy_on_images_is_torchs(shape, reduction):
    assert_same_run(_image_program(shape, reduction, True, 2, loss="cross_entropy"))


@pytest.mark.parametrize("shape", IMAGE_SHAPES[:3], ids=str)
def test_a_non_contiguous_input_is_copied_as_torch_copies_it(shape):
    assert_same_run(_image_program(shape, "mean", False, None, permuted=True))


def test_everything_ignored_is_torchs():
    def program(lib, rec):
        x = rec.leaf(np.zeros((2, 3, 2, 2)))
        target = lib.full((2, 2, 2), -100, dtype=lib.int64)
        for reduction in ("mean", "sum", "none"):
            rec.show(reduction, lib.nn.functional.nll_loss(x, target, reduction=reduction))
    assert_same_run(program)


@pytest.mark.parametrize("call", [
    "F.nll_loss(torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=torch.int64))",
    "F.nll_loss(torch.zeros(2, 3, 4), torch.full((2, 4), 3))",
    "F.nll_loss(torch.zeros(2, 3, 4, 1, 1), torch.zeros(2, 4, 1, dtype=torch.int64))",
])
def test_errors_are_torchs(call):
    from torch_compare import outcome

    def run(lib):
        return eval(call, {"torch": lib, "F": lib.nn.functional})  # noqa: S307
    assert outcome(run, mg) == outcome(run, torch)



# ---- what a loss saves besides its input -------------------------------------------

SCORES = np.array([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0], [-2.0, 0.75, 0.5, -1.5]],
                  np.float32)
CLASSES = [2, 0, 3]
WEIGHT = [0.5, 2.0, 1.5, 0.25]


def _nll(lib, x, t, w, **kw):
    return lib.nn.functional.nll_loss(x.log_softmax(1), t, weight=w, **kw)


def _cross_entropy(lib, x, t, w, **kw):
    return lib.nn.functional.cross_entropy(x, t, weight=w, **kw)


def _nll_images(lib, x, t, w, **kw):  # (N, C, H, W): NllLoss2DBackward0
    return lib.nn.functional.nll_loss(x.t().reshape(1, 4, 3, 1), t.reshape(1, 3, 1),
                                      weight=w, **kw)


def _nll_3d(lib, x, t, w, **kw):  # (N, C, d): viewed as (N, C, 1, d)
    return lib.nn.functional.nll_loss(x.t().reshape(1, 4, 3), t.reshape(1, 3), weight=w, **kw)


def _nll_one_sample(lib, x, t, w, **kw):  # (C,) scores, a 0-dim target
    return lib.nn.functional.nll_loss(x[0], t[0], weight=w, **kw)


CLASS_LOSSES = {"nll_loss": _nll, "cross_entropy": _cross_entropy, "nll_loss 4-d": _nll_images,
                "nll_loss 3-d": _nll_3d, "nll_loss (C,)": _nll_one_sample}

CHANGES = {
    "weight.mul_(2)": lambda lib, t, w: w.mul_(2),
    "weight[1] = 3": lambda lib, t, w: w.__setitem__(1, 3.0),
    "target.add_(0)": lambda lib, t, w: t.add_(0),
    "target[0] = 1": lambda lib, t, w: t.__setitem__(0, 1),
    "both": lambda lib, t, w: (t.add_(0), w.add_(1), w.add_(1)),
    "nothing": lambda lib, t, w: None,
}


def _saved(node) -> list:
    return [(name, getattr(node, name)) for name in dir(node) if name.startswith("_saved_")]


@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("loss", list(CLASS_LOSSES))
def test_changing_a_class_losss_target_or_weight_before_backward_is_torchs(
        loss, change, reduction):
    def program(lib, rec):
        x = rec.leaf(SCORES)
        t, w = lib.tensor(CLASSES), lib.tensor(WEIGHT)
        out = CLASS_LOSSES[loss](lib, x * 1, t, w, ignore_index=0, reduction=reduction)
        node = out.grad_fn
        while not node.name().startswith("NllLoss"):  # (through the view of 'none')
            node = node.next_functions[0][0]
        rec.show("saved", _saved(node))
        CHANGES[change](lib, t, w)
        out.sum().backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


@pytest.mark.parametrize("change", ["weight.mul_(2)", "target.add_(0)", "nothing"])
@pytest.mark.parametrize("loss", ["nll_loss", "nll_loss 4-d"])
def test_a_change_after_a_backward_with_create_graph_is_torchs(loss, change):
    def program(lib, rec):
        x = rec.leaf(SCORES)
        t, w = lib.tensor(CLASSES), lib.tensor(WEIGHT)
        out = CLASS_LOSSES[loss](lib, x * x, t, w)
        g, = lib.autograd.grad(out, x, create_graph=True)
        node = g.grad_fn
        while not node.name().startswith("NllLoss"):
            node = node.next_functions[0][0]
        rec.show("second-order node", (node.name(), _saved(node)))
        CHANGES[change](lib, t, w)
        (g * g).sum().backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


BCE_CHANGES = {
    "weight.add_(1)": lambda w, p, t: w.add_(1),
    "pos_weight.mul_(2)": lambda w, p, t: p.mul_(2),
    "target.add_(1)": lambda w, p, t: t.add_(1),
    "weight and pos_weight": lambda w, p, t: (w.add_(1), w.add_(1), p.add_(1)),
    "pos_weight and target": lambda w, p, t: (t.add_(1), t.add_(1), p.add_(1)),
    "nothing": lambda w, p, t: None,
}


@pytest.mark.parametrize("given", ["weight", "pos_weight", "both"])
@pytest.mark.parametrize("change", list(BCE_CHANGES))
def test_changing_bce_weights_before_backward_is_torchs(change, given):
    def program(lib, rec):
        x = rec.leaf(SCORES[0])
        t = lib.tensor([0.0, 1.0, 0.25, 1.0])
        w, p = lib.tensor([0.5, 2.0, 1.0, 1.5]), lib.tensor([3.0, 0.5, 1.0, 2.0])
        out = lib.nn.functional.binary_cross_entropy_with_logits(
            x * 1, t, weight=w if given != "pos_weight" else None,
            pos_weight=p if given != "weight" else None)
        rec.show("saved", _saved(out.grad_fn))
        BCE_CHANGES[change](w, p, t)
        out.backward()
        rec.show("x.grad", x.grad)
    assert_same_run(program)


REQUIRES_GRAD = {
    "nll_loss": lambda lib, x, t, w, p: _nll(lib, x, t, w),
    "cross_entropy": lambda lib, x, t, w, p: _cross_entropy(lib, x, t, w),
    "nll_loss 4-d": lambda lib, x, t, w, p: _nll_images(lib, x, t, w),
    "nll_loss 3-d": lambda lib, x, t, w, p: _nll_3d(lib, x, t, w),
    "bce weight": lambda lib, x, t, w, p: lib.nn.functional.binary_cross_entropy_with_logits(
        x[0], t[:4].float(), weight=w),
    "bce pos_weight": lambda lib, x, t, w, p: lib.nn.functional.binary_cross_entropy_with_logits(
        x[0], t[:4].float(), pos_weight=w),
    "bce both": lambda lib, x, t, w, p: lib.nn.functional.binary_cross_entropy_with_logits(
        x[0], t[:4].float(), weight=p, pos_weight=w),
}


@pytest.mark.parametrize("grad_mode", [True, False])
@pytest.mark.parametrize("call", list(REQUIRES_GRAD))
def test_a_weight_that_requires_grad_is_torchs(call, grad_mode):
    def program(lib, rec):
        x = rec.leaf(SCORES, requires_grad=False)
        t = lib.tensor(CLASSES + [1])
        w = rec.leaf(WEIGHT)
        p = rec.leaf(WEIGHT[::-1])
        with lib.set_grad_enabled(grad_mode):
            rec.show("loss", REQUIRES_GRAD[call](lib, x, t, w, p))
    assert_same_run(program)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("target", ["tensor(2)", "tensor([2])", "tensor([2, 1])", "tensor(0)",
                                    "tensor(1)"])
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
def test_one_sample_of_c_scores_is_torchs(loss, target, reduction):
    def program(lib, rec):
        # (a 0 at class 1; float64: float32's log_softmax differs from torch's in its
        # last bits, which this test is not about)
        x = rec.leaf(SCORES[1], dtype=np.float64)
        t = eval("lib." + target)  # noqa: S307 - our own strings
        w = lib.tensor(WEIGHT, dtype=lib.float64)
        out = getattr(lib.nn.functional, loss)(x * 2, t, weight=w,
                                              ignore_index=0, reduction=reduction)
        rec.show("loss", out)
        node = out.grad_fn
        rec.show("node", (node.name(), _saved(node)))
        g, = lib.autograd.grad(out.sum(), x, create_graph=True)
        rec.show("gradient", g)
        (g * g).sum().backward()
        rec.show("second order", x.grad)
    assert_same_run(program)


# ---- binary_cross_entropy_with_logits: PyTorch's formula, element by element --------

@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("count", [1000, 300_001])  # (300,001: split across threads)
@pytest.mark.parametrize("targets", ["0 or 1", "probabilities"])
@pytest.mark.parametrize("weights", ["none", "pos_weight", "weight and pos_weight"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bce_with_logits_values_are_torchs_element_by_element(dtype, weights, targets, count,
                                                              threads):
    """Computed as torch computes it, (1 - t) x - (1 + (p - 1) t) log sigmoid(x), times w:
    a loss of 2e-9 (x = 20, t = 1) is 2e-9, not 0 (log(1 + e^x) - x would cancel), and
    90 % of float32 results or more have torch's bits (the others differ where the
    exponential's and logarithm's last bits do: NumPy's kernels are not SLEEF's)."""
    rng = np.random.default_rng(count)
    x = np.concatenate([[20.0, -20.0, 30.0, -30.0, 100.0, -100.0, 0.0, -0.0],
                        rng.standard_normal(count - 8) * 10]).astype(dtype)
    t = (rng.random(count) > 0.5) if targets == "0 or 1" else rng.random(count)
    t = t.astype(dtype)
    t[:6] = [1, 0, 1, 0, 1, 0]  # (x and t agree: tiny losses; for x < 0 torch's formula
    # gives x - (x - tiny), 0 in float32 as in torch)
    options = {}
    if weights != "none":
        options["pos_weight"] = rng.uniform(0.5, 3, count).astype(dtype)
    if weights == "weight and pos_weight":
        options["weight"] = rng.uniform(0, 2, count).astype(dtype)
    results = []
    before = mg.get_num_threads()
    mg.set_num_threads(threads)
    try:
        for lib in (mg, torch):
            results.append(lib.nn.functional.binary_cross_entropy_with_logits(
                lib.tensor(x), lib.tensor(t), reduction="none",
                **{name: lib.tensor(value) for name, value in options.items()}).numpy())
    finally:
        mg.set_num_threads(before)
    ours, theirs = results
    assert ours.dtype == theirs.dtype
    assert (ours[[0, 2, 4]] > 0).all() and np.array_equal(ours[:6] > 0, theirs[:6] > 0)
    # (where x < 0 and t = 0 the loss is x - (x - l): one ulp of x - l, as NumPy's and
    # SLEEF's exp and log1p round l differently, is an ulp of x; below tiny, denormals)
    info = np.finfo(dtype)
    allowed = 4 * info.eps * (np.abs(theirs) + np.abs(x)) + info.tiny
    assert (np.abs(ours - theirs) <= allowed).all()
    assert (ours == theirs).mean() > (0.85 if dtype == "float32" else 0.95)


@pytest.mark.parametrize("loss", ["huber_loss", "smooth_l1_loss", "mse_loss", "l1_loss"])
def test_integer_and_bool_operands_fail_as_in_torch(loss):
    """huber_loss writes into the input's dtype: a result type that cannot be cast to it
    (bool input, int64 target) fails so first, before the kernel's dtype check."""
    from torch_compare import outcome
    for a, b in [("bool", "int64"), ("bool", "bool"), ("int64", "int64"), ("int64", "float32"),
                 ("float32", "bool"), ("bool", "float32"), ("float32", "float64")]:
        def call(lib, a=a, b=b):
            return getattr(lib.nn.functional, loss)(lib.ones(3, dtype=getattr(lib, a)),
                                                    lib.zeros(3, dtype=getattr(lib, b)))
        assert outcome(call, mg) == outcome(call, torch)


@pytest.mark.parametrize("count", [2, 7, 9, 17, 33, 100, 1000, 4099])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mse_loss_reduces_in_torchs_order(count, reduction, dtype):
    """mse_loss's mean and sum are the tensor's mean and sum (PyTorch's
    apply_loss_reduction): the same bits as ((x - t) ** 2).mean() in torch, not NumPy's
    pairwise order (Deep Learning with PyTorch's nn.MSELoss on 9 samples was an ulp off,
    and 5000 epochs of SGD made that a different model)."""
    rng = np.random.default_rng(count)
    x, t = (rng.standard_normal((count, 1)) * 10).astype(dtype), rng.standard_normal((count, 1)).astype(dtype)
    ours = mg.nn.functional.mse_loss(mg.tensor(x), mg.tensor(t), reduction=reduction)
    theirs = torch.nn.functional.mse_loss(torch.tensor(x), torch.tensor(t), reduction=reduction)
    by_hand = getattr((torch.tensor(x) - torch.tensor(t)) ** 2, reduction)()
    assert ours.numpy().tobytes() == theirs.numpy().tobytes() == by_hand.numpy().tobytes()
    ours = mg.nn.functional.binary_cross_entropy_with_logits(
        mg.tensor(x), mg.tensor((t > 0).astype(dtype)), reduction="none")
    reduced = mg.nn.functional.binary_cross_entropy_with_logits(
        mg.tensor(x), mg.tensor((t > 0).astype(dtype)), reduction=reduction)
    assert reduced.numpy().tobytes() == getattr(torch.tensor(ours.numpy()), reduction)().numpy().tobytes()

