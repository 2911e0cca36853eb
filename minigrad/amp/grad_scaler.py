"""``GradScaler``: multiply the loss by a large scale so that small float16 gradients do
not flush to zero; divide the gradients back before the optimiser's step, skip the step
when one of them is inf or NaN, and adapt the scale (halve it after an overflow, double
it after ``growth_interval`` clean steps). PyTorch's ``torch/amp/grad_scaler.py``, on
the public API."""

from __future__ import annotations

import warnings

from .. import cuda
from ..autograd.grad_mode import no_grad
from ..creation import full
from ..dtypes import float16, float32, int32

__all__ = ["GradScaler"]

READY, UNSCALED, STEPPED = 0, 1, 2


class GradScaler:
    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled and not cuda.is_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", UserWarning, stacklevel=2)
            self._enabled = False
        if self._enabled:
            assert growth_factor > 1.0, "The growth factor must be > 1.0."
            assert backoff_factor < 1.0, "The backoff factor must be < 1.0."
            self._init_scale, self._init_growth_tracker = init_scale, 0
            self._growth_factor, self._backoff_factor = growth_factor, backoff_factor
            self._growth_interval = growth_interval
            self._scale = self._growth_tracker = None  # (made by the first scale())
            self._per_optimizer_states: dict = {}

    def _check_scale(self, funcname: str) -> None:
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  This may indicate "
                                 f"your script did not use scaler.scale(loss or outputs) "
                                 f"earlier in the iteration.")

    def _state(self, optimizer) -> dict:
        return self._per_optimizer_states.setdefault(id(optimizer),
                                                     {"stage": READY, "found_inf": None})

    def scale(self, outputs):
        """``outputs`` (a tensor, or tensors in lists and tuples) times the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(output) for output in outputs)
        if self._scale is None:
            self._scale = full((), self._init_scale, dtype=float32)
            self._growth_tracker = full((), self._init_growth_tracker, dtype=int32)
        return outputs * self._scale.to(device=outputs.device)

    def unscale_(self, optimizer) -> None:
        """Divide the gradients of ``optimizer``'s parameters by the scale, in place, and
        note whether one of them is inf or NaN."""
        if not self._enabled:
            return
        self._check_scale("unscale_")
        state = self._state(optimizer)
        if state["stage"] is UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since "
                               "the last update().")
        if state["stage"] is STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        found_inf = None
        with no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if param.grad.dtype == float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    found_inf = 0.0 if found_inf is None else found_inf
                    if not bool(param.grad.isfinite().all()):
                        found_inf = 1.0
                    param.grad.mul_(inv_scale)
        state["found_inf"] = found_inf
        state["stage"] = UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step()`` unless a gradient was inf or NaN (unscaling first if
        ``unscale_`` was not called)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        self._check_scale("step")
        state = self._state(optimizer)
        if state["stage"] is STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is READY:
            self.unscale_(optimizer)
        assert state["found_inf"] is not None, "No inf checks were recorded for this optimizer."
        result = optimizer.step(*args, **kwargs) if state["found_inf"] == 0.0 else None
        state["stage"] = STEPPED
        return result

    def update(self, new_scale=None) -> None:
        """Halve the scale if a step was skipped, double it after ``growth_interval``
        good steps in a row; or set it to ``new_scale``."""
        if not self._enabled:
            return
        self._check_scale("update")
        if new_scale is not None:
            value = new_scale if isinstance(new_scale, float) else float(new_scale)
            self._scale.fill_(value)
        else:
            found = [s["found_inf"] for s in self._per_optimizer_states.values()
                     if s["found_inf"] is not None]
            assert len(found) > 0, "No inf checks were recorded prior to update."
            if sum(found) > 0:
                self._scale.mul_(self._backoff_factor)
                self._growth_tracker.fill_(0)
            elif int(self._growth_tracker) + 1 == self._growth_interval:
                if bool((self._scale * self._growth_factor).isfinite()):
                    self._scale.mul_(self._growth_factor)
                self._growth_tracker.fill_(0)
            else:
                self._growth_tracker.add_(1)
        self._per_optimizer_states = {}

    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> dict:
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._init_growth_tracker if self._growth_tracker is None
                else int(self._growth_tracker)}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])


