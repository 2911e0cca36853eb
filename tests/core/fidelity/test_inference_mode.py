"""torch.inference_mode against PyTorch 2.13: the mode as a context manager and a
decorator (with and without parentheses, ``mode=False``), grad mode inside it, which
tensors are inference tensors (made inside; views of them, even outside; not views of
normal tensors), and PyTorch's three errors when one is used later: saved for backward,
changed in place, made to require grad."""

from __future__ import annotations

import pytest
import torch

import minigrad as mg

from torch_compare import outcome


def _modes(lib):
    seen = [lib.is_grad_enabled(), lib.is_inference_mode_enabled()]
    with lib.inference_mode():
        seen += [lib.is_grad_enabled(), lib.is_inference_mode_enabled()]
        with lib.inference_mode(mode=False):
            seen += [lib.is_grad_enabled(), lib.is_inference_mode_enabled()]
        seen += [lib.is_grad_enabled(), lib.is_inference_mode_enabled()]
    with lib.no_grad(), lib.inference_mode(False):
        seen += [lib.is_grad_enabled()]
    return seen + [lib.is_grad_enabled(), lib.is_inference_mode_enabled()]


def _which_are_inference(lib):
    normal = lib.ones(3, 2)
    with lib.inference_mode():
        made = lib.ones(3, 2)
        leaf = lib.ones(3, requires_grad=True)
        inside = [made, normal.view(6), normal[1:], normal * 2, leaf, leaf * 2, made.t()]
    outside = [made.detach(), made[0], made.view(6), made * 2, made.clone()]
    return ([t.is_inference() for t in inside + outside] + [lib.is_inference(made)]
            + [t.requires_grad for t in inside], repr(leaf * 2), repr(made + 1))


def _decorated(lib):
    @lib.inference_mode()
    def called(x):
        return x * 2, lib.is_grad_enabled()

    @lib.inference_mode
    def bare(x):
        return x * 3

    @lib.inference_mode(False)
    def off(x):
        return x * 4

    x = lib.ones(2, requires_grad=True)
    y, enabled = called(x)
    return repr(y), enabled, y.is_inference(), repr(bare(x)), repr(off(x)), bare.__name__


@pytest.mark.parametrize("program", [_modes, _which_are_inference, _decorated])
def test_inference_mode_as_torch(program):
    assert outcome(program, mg) == outcome(program, torch)


def _made_inside(lib):
    with lib.inference_mode():
        return lib.tensor([1.0, 2.0, 3.0])


USES = {
    # x * w saves x for w's gradient: PyTorch's error
    "saved by mul": lambda lib, x, w: x * w,
    "saved by matmul": lambda lib, x, w: lib.matmul(x, w),
    "saved by exp(x * w)": lambda lib, x, w: (x.exp() * w).sum(),
    # x + w saves nothing: allowed, and backward runs
    "added (nothing saved)": lambda lib, x, w: (x + w).sin(),
    "used without grad": lambda lib, x, w: x.exp() * w.detach(),
    "clone is normal": lambda lib, x, w: x.clone() * w,
    "add_ outside": lambda lib, x, w: x.add_(1),
    "mul_ under no_grad": lambda lib, x, w: _under_no_grad(lib, lambda: x.mul_(2)),
    "requires_grad_": lambda lib, x, w: x.requires_grad_(),
    "requires_grad_(False)": lambda lib, x, w: x.requires_grad_(False),
    "clone().requires_grad_()": lambda lib, x, w: x.clone().requires_grad_(),
    "add_ inside the mode": lambda lib, x, w: _inside(lib, lambda: x.add_(1)),
}


def _under_no_grad(lib, call):
    with lib.no_grad():
        return call()


def _inside(lib, call):
    with lib.inference_mode():
        return call()


@pytest.mark.parametrize("name", list(USES))
def test_inference_tensor_used_later(name):
    def program(lib):
        x, w = _made_inside(lib), lib.ones(3, requires_grad=True)
        result = USES[name](lib, x, w)
        if result.requires_grad and result.grad_fn is not None:
            result.sum().backward()
            return repr(result), repr(w.grad)
        return repr(result)
    ours, theirs = outcome(program, mg), outcome(program, torch)
    assert ours == theirs


def test_eval_loop_program():
    """A model trained, then evaluated under inference_mode; its outputs later fed to a
    loss raise PyTorch's error; a clone of them trains."""
    def program(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Tanh(), lib.nn.Linear(3, 1))
        opt = lib.optim.SGD(model.parameters(), lr=0.1)
        x = lib.linspace(-1, 1, 20).reshape(5, 4)
        for _ in range(3):
            opt.zero_grad()
            loss = ((model(x) - 1) ** 2).mean()
            loss.backward()
            opt.step()
        with lib.inference_mode():
            pred = model(x)
        steps = [repr(pred), pred.is_inference(), pred.requires_grad, repr(loss)]
        try:
            model(pred.repeat(1, 4)).sum()
        except RuntimeError as error:
            steps.append(str(error))
        out = model(pred.clone().repeat(1, 4)).sum()
        out.backward()
        return steps + [repr(out), repr(model[0].weight.grad)]
    assert outcome(program, mg) == outcome(program, torch)


def test_is_inference_refuses_a_list_as_torch():
    def program(lib):
        return lib.is_inference([1.0])
    assert outcome(program, mg) == outcome(program, torch)


def test_inplace_change_is_written_then_refused_as_torch():
    """PyTorch writes the change, then raises when the version would move on: the
    tensor has changed all the same (also for a view op made in place, t_)."""
    def program(lib):
        x = _made_inside(lib)
        seen = []
        for change in (lambda: x.add_(1), lambda: x.mul_(x), lambda: x.zero_(),
                       lambda: x.unsqueeze_(0), lambda: x.copy_(lib.ones(3) * 5)):
            try:
                change()
            except RuntimeError as error:
                seen.append(str(error)[:30])
            seen.append(repr(x))
        return seen
    assert outcome(program, mg) == outcome(program, torch)


# Ops that keep a tensor argument of their own (an index, a target, a weight) besides
# their inputs: inside inference_mode nothing is recorded, so nothing is saved and an
# inference-tensor index is fine (makemore.py's evaluate() runs a model on batches made
# under @torch.inference_mode); outside it, keeping one for backward is PyTorch's error.
KEPT_ARGUMENTS = {
    "embedding": lambda lib, w, i: lib.nn.functional.embedding(i, w),
    "nn.Embedding": lambda lib, w, i: _embedding_layer(lib, w)(i),
    "gather": lambda lib, w, i: lib.gather(w, 1, i[:, None] % 3),
    "take_along_dim": lambda lib, w, i: lib.take_along_dim(w[:4], (i % 3)[:, None], 1),
    "cross_entropy": lambda lib, w, i: lib.nn.functional.cross_entropy(w[:4], i % 3),
    "nll_loss": lambda lib, w, i: lib.nn.functional.nll_loss(w[:4], i % 3),
    "bce weight": lambda lib, w, i: lib.nn.functional.binary_cross_entropy(
        w[:4, 0].sigmoid(), (i > 1).float(), weight=i.float()),
    "soft_margin_loss": lambda lib, w, i: lib.nn.functional.soft_margin_loss(
        w[:4, 0], i.float() * 2 - 3),
    "multi_margin_loss": lambda lib, w, i: lib.nn.functional.multi_margin_loss(w[:4], i % 3),
}
# (not here: ``w[i]`` with an inference-tensor ``i`` outside the mode, which PyTorch refuses
# (IndexBackward0 keeps the index tensors); minigrad's indexing keeps index arrays, so it
# runs: see the README's autograd row)


def _embedding_layer(lib, w):
    layer = lib.nn.Embedding(5, 3)
    with lib.no_grad():
        layer.weight.copy_(w)
    return layer


@pytest.mark.parametrize("where", ["inside", "index made inside, used outside"])
@pytest.mark.parametrize("name", list(KEPT_ARGUMENTS))
def test_kept_argument_of_an_inference_tensor_as_torch(name, where):
    def program(lib):
        w = lib.linspace(-1, 1, 15).reshape(5, 3).requires_grad_()
        with lib.inference_mode():
            i = lib.tensor([0, 1, 2, 3])
            if where == "inside":
                y = KEPT_ARGUMENTS[name](lib, w, i)
                return repr(y), y.requires_grad, y.is_inference()
        y = KEPT_ARGUMENTS[name](lib, w, i)
        y.sum().backward()
        return repr(y), repr(w.grad)
    assert outcome(program, mg) == outcome(program, torch)


AFTER_DATA_SET = {
    "repr": lambda t: repr(t), "index": lambda t: t[0], "view": lambda t: t.view(4),
    "t": lambda t: t.t(), "reshape": lambda t: t.reshape(4), "_version": lambda t: t._version,
    "is_inference": lambda t: t.is_inference(), "detach": lambda t: t.detach().is_inference(),
    "product": lambda t: (t * 2).tolist(), "tolist": lambda t: t.tolist(),
    "add_": lambda t: t.add_(1), "format": lambda t: format(t),
}


@pytest.mark.parametrize("name", sorted(AFTER_DATA_SET))
@pytest.mark.parametrize("given", ["normal", "inference"])
def test_an_inference_tensor_given_other_data_as_torch(given, name):
    """``t.data = ...`` gives ``t`` the kind of what it is given, as torch's set_data: an
    inference tensor given a normal tensor's values is normal, but has no version counter,
    so a view of it, printing it (torch prints through views) or its ``_version`` raise
    'Inference tensors do not track version counter.' (semantic seeds 39280, 39588); a
    normal tensor given an inference tensor's values is one."""
    def seen(lib):
        a = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        with lib.inference_mode():
            t = a + 1
            made_inside = a * 3
        if given == "normal":
            t.data = t.data * 2
        else:
            t = a.clone()
            t.data = made_inside
        return outcome(lambda lib: AFTER_DATA_SET[name](t), lib)
    assert seen(mg) == seen(torch)
