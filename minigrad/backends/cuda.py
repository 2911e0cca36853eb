"""``torch.backends.cuda``: NVIDIA's GPU backend, which minigrad does not have.

Its switches exist so that set-up lines such as nanoGPT's
``torch.backends.cuda.matmul.allow_tf32 = True`` run; they change nothing here (minigrad's
float32 matmuls are float32). ``matmul.allow_tf32`` is tied to
``torch.get_float32_matmul_precision()`` as in PyTorch ("highest" means no TF32).
"""

from __future__ import annotations

from . import precision

__all__ = ["is_built", "matmul", "cuBLASModule", "flash_sdp_enabled", "enable_flash_sdp",
           "mem_efficient_sdp_enabled", "enable_mem_efficient_sdp", "math_sdp_enabled",
           "enable_math_sdp"]


def is_built() -> bool:
    """False: minigrad is built for the CPU only."""
    return False


class cuBLASModule:  # noqa: N801 (PyTorch's name)
    """``torch.backends.cuda.matmul``: a fixed set of flags; any other name is refused."""

    _flags = {"allow_fp16_reduced_precision_reduction": True,
              "allow_bf16_reduced_precision_reduction": True,
              "allow_fp16_accumulation": False}

    def __getattr__(self, name: str):
        if name == "allow_tf32":
            return precision.get_float32_matmul_precision() != "highest"
        if name in self._flags:
            return self._flags[name]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name: str, value) -> None:
        if name == "allow_tf32":
            precision.set_float32_matmul_precision("high" if value else "highest")
        elif name in self._flags:
            self._flags[name] = value
        else:
            raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()

_SDP = {"flash": True, "mem_efficient": True, "math": True}


def flash_sdp_enabled() -> bool:
    return _SDP["flash"]


def enable_flash_sdp(enabled: bool) -> None:
    _SDP["flash"] = enabled


def mem_efficient_sdp_enabled() -> bool:
    return _SDP["mem_efficient"]


def enable_mem_efficient_sdp(enabled: bool) -> None:
    _SDP["mem_efficient"] = enabled


def math_sdp_enabled() -> bool:
    return _SDP["math"]


def enable_math_sdp(enabled: bool) -> None:
    _SDP["math"] = enabled
