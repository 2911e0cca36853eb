"""torch.amp against PyTorch 2.13 on a machine without a GPU: GradScaler on "cpu" (the
scaled loss and its node, unscaled gradients, a step skipped after an inf, the scale
halved after an overflow and doubled after growth_interval clean steps, state_dict,
PyTorch's errors for each misuse) and on "cuda" (and the deprecated torch.cuda.amp
spelling: PyTorch's warnings, then disabled, a pass-through); autocast where PyTorch's
turns itself off (CUDA, an unsupported CPU dtype, enabled=False), as a decorator too; and
the nanoGPT train.py loop that uses them, with the switches it sets
(torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, the
{'bfloat16': torch.bfloat16, ...} table)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad as mg


def outcome(call, lib):
    """``("result", repr)`` or ``("error", type name, message)`` of ``call(lib)``, and the
    warnings it raised (category and text)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("result", repr(call(lib)))
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            result = ("error", type(error).__name__, str(error))
    return result, [(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
                    for w in caught]


def same(call):
    assert outcome(call, mg) == outcome(call, torch)


def _scaler_steps(lib, device="cpu", growth_interval=2):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    opt = lib.optim.SGD([x], lr=0.1)
    scaler = lib.amp.GradScaler(device, init_scale=8.0, growth_interval=growth_interval)
    seen = [scaler.is_enabled(), scaler.get_scale(), scaler.state_dict()]
    for step, bad in enumerate([False, False, True, False, False]):
        loss = scaler.scale((x * x).sum())
        seen.append(repr(loss))
        loss.backward()
        if bad:
            x.grad[0] = float("inf")
        scaler.unscale_(opt)
        seen.append(repr(x.grad))
        seen.append(scaler.step(opt))
        scaler.update()
        opt.zero_grad()
        seen += [repr(x), scaler.get_scale(), scaler.state_dict()]
    return seen


def test_grad_scaler_on_cpu_as_torch():
    same(_scaler_steps)


def test_grad_scaler_step_unscales_itself_as_torch():
    def program(lib):
        x = lib.tensor([3.0], requires_grad=True)
        opt = lib.optim.SGD([x], lr=0.5)
        scaler = lib.amp.GradScaler("cpu")
        scaler.scale(x * 2).sum().backward()
        scaler.step(opt)
        scaler.update()
        return repr(x), scaler.get_scale(), repr(scaler.scale([x, (x * 3,)]))
    same(program)


@pytest.mark.parametrize("misuse", ["unscale twice", "unscale after step", "step twice",
                                    "closure", "no gradients", "update first"])
def test_grad_scaler_errors_as_torch(misuse):
    def program(lib):
        x = lib.tensor([1.0], requires_grad=True)
        opt = lib.optim.SGD([x], lr=0.1)
        scaler = lib.amp.GradScaler("cpu")
        if misuse == "update first":
            return scaler.update()
        if misuse == "no gradients":
            return scaler.step(opt)
        scaler.scale(x.sum()).backward()
        if misuse == "closure":
            return scaler.step(opt, closure=lambda: None)
        if misuse == "unscale twice":
            scaler.unscale_(opt)
            return scaler.unscale_(opt)
        scaler.step(opt)
        return scaler.unscale_(opt) if misuse == "unscale after step" else scaler.step(opt)
    same(program)


@pytest.mark.parametrize("make", [
    lambda lib: lib.amp.GradScaler(),
    lambda lib: lib.amp.GradScaler("cuda", enabled=False),
    lambda lib: lib.cuda.amp.GradScaler(),
    lambda lib: lib.cuda.amp.GradScaler(enabled=False),
    lambda lib: lib.amp.GradScaler("cpu", enabled=False),
], ids=["amp default", "amp cuda off", "cuda.amp", "cuda.amp off", "cpu off"])
def test_disabled_grad_scaler_passes_through_as_torch(make):
    def program(lib):
        scaler = make(lib)
        x = lib.tensor([1.0, -2.0], requires_grad=True)
        opt = lib.optim.SGD([x], lr=0.1)
        loss = scaler.scale((x ** 2).sum())
        loss.backward()
        scaler.unscale_(opt)
        scaler.step(opt)
        scaler.update()
        return [scaler.is_enabled(), scaler.get_scale(), scaler.state_dict(), repr(loss),
                repr(x)]
    same(program)


def test_grad_scaler_state_dict_round_trip_as_torch():
    def program(lib):
        a = lib.amp.GradScaler("cpu", init_scale=4.0, growth_factor=3.0, growth_interval=7)
        b = lib.amp.GradScaler("cpu")
        b.load_state_dict(a.state_dict())
        return b.state_dict(), b.get_growth_factor(), b.get_growth_interval(), \
            b.get_backoff_factor()
    same(program)


@pytest.mark.parametrize("context", [
    lambda lib: lib.autocast("cuda"),
    lambda lib: lib.amp.autocast(device_type="cuda", dtype=lib.float16),
    lambda lib: lib.autocast("cpu", dtype=lib.float64),
    lambda lib: lib.autocast("cpu", enabled=False),
    lambda lib: lib.autocast(device_type="cpu", dtype=lib.bfloat16, enabled=False),
    lambda lib: lib.cuda.amp.autocast(),
    lambda lib: lib.cuda.amp.autocast(enabled=False),
], ids=["cuda", "amp cuda float16", "cpu float64", "cpu off", "cpu bfloat16 off",
        "cuda.amp", "cuda.amp off"])
def test_autocast_turned_off_as_torch(context):
    def program(lib):
        a = lib.ones(2, 2)
        with context(lib):
            inside = (a @ a).dtype
        @context(lib)
        def decorated(x):
            return (x @ x).dtype
        return inside, decorated(a), lib.is_autocast_enabled()
    same(program)


def test_cpu_autocast_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="minigrad does not autocast"):
        mg.autocast("cpu")


def test_backend_switches_as_torch():
    def program(lib):
        b = lib.backends
        seen = [b.cuda.is_built(), b.cudnn.is_available(), b.cudnn.version(),
                b.cudnn.allow_tf32, b.cuda.matmul.allow_tf32,
                b.cuda.matmul.allow_fp16_reduced_precision_reduction,
                lib.get_float32_matmul_precision(), lib.cuda.is_bf16_supported()]
        b.cuda.matmul.allow_tf32 = True
        b.cudnn.allow_tf32 = True
        b.cudnn.deterministic = True
        seen += [b.cuda.matmul.allow_tf32, lib.get_float32_matmul_precision()]
        b.cuda.matmul.allow_tf32 = False
        seen.append(b.cuda.matmul.allow_tf32)
        lib.set_float32_matmul_precision("nonsense")
        try:
            b.cuda.matmul.allow_tf64 = True
        except AttributeError as error:
            seen.append(str(error))
        return seen
    try:
        same(program)
    finally:
        torch.backends.cudnn.deterministic = False
        mg.backends.cudnn.deterministic = False


def test_bfloat16_is_a_name_only():
    """torch.bfloat16 exists (nanoGPT's dtype table, comparisons) as in PyTorch; a tensor
    of it is refused with a clear error (NumPy has no bfloat16)."""
    table = {"float32": mg.float32, "bfloat16": mg.bfloat16, "float16": mg.float16}
    assert repr(table["bfloat16"]) == repr(torch.bfloat16) == "torch.bfloat16"
    assert mg.bfloat16.is_floating_point and mg.bfloat16.itemsize == torch.bfloat16.itemsize
    assert mg.bfloat16 != mg.float16 and mg.bfloat16 == mg.bfloat16
    for make in (lambda: mg.zeros(2, dtype=mg.bfloat16), lambda: mg.ones(2).to(mg.bfloat16)):
        with pytest.raises(TypeError, match="minigrad has no bfloat16 tensors"):
            make()


def test_nanogpt_training_loop_with_a_scaler_as_torch():
    """train.py's inner loop: gradient accumulation, scaler.scale(loss).backward(),
    unscale_, clip_grad_norm_, scaler.step, scaler.update, zero_grad(set_to_none=True);
    with a GradScaler enabled on the CPU (a scale of 2**16) and one disabled (train.py's
    float32 case): the losses, norms and weights agree with PyTorch's."""
    def program(lib, device):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.GELU(), lib.nn.Linear(8, 1))
        opt = lib.optim.AdamW(model.parameters(), lr=1e-2, betas=(0.9, 0.95))
        scaler = lib.amp.GradScaler(device, enabled=device == "cpu")
        x, y = lib.randn(16, 4), lib.randn(16, 1)
        seen = []
        for _ in range(5):
            for micro in range(2):
                loss = lib.nn.functional.mse_loss(model(x[micro::2]), y[micro::2]) / 2
                scaler.scale(loss).backward()
            scaler.unscale_(opt)
            norm = lib.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
            opt.zero_grad(set_to_none=True)
            seen += [loss.item(), norm.item(), scaler.get_scale()]
        return np.array(seen), model[0].weight.detach().numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for device in ("cpu", "cuda"):
            (ours, our_w), (theirs, their_w) = program(mg, device), program(torch, device)
            np.testing.assert_allclose(ours, theirs, rtol=1e-5)
            np.testing.assert_allclose(our_w, their_w, rtol=1e-5, atol=1e-7)


def test_deterministic_switches_as_torch():
    """torch.use_deterministic_algorithms (the DCGAN tutorial turns it on) and its debug
    mode: the same readings and errors (minigrad's kernels are deterministic anyway)."""
    def program(lib):
        seen = [lib.are_deterministic_algorithms_enabled(),
                lib.is_deterministic_algorithms_warn_only_enabled()]
        lib.use_deterministic_algorithms(True)
        seen.append(lib.are_deterministic_algorithms_enabled())
        lib.use_deterministic_algorithms(True, warn_only=True)
        seen.append(lib.is_deterministic_algorithms_warn_only_enabled())
        for mode in ["default", "warn", "error", 0, 1, 2, "x", 3]:
            try:
                lib.set_deterministic_debug_mode(mode)
                seen.append((lib.get_deterministic_debug_mode(),
                             lib.are_deterministic_algorithms_enabled()))
            except RuntimeError as error:
                seen.append(str(error))
        try:
            lib.use_deterministic_algorithms(1)
        except TypeError as error:
            seen.append(str(error))
        return seen
    try:
        same(program)
    finally:
        torch.use_deterministic_algorithms(False)
        mg.use_deterministic_algorithms(False)
