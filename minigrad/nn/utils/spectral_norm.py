"""``nn.utils.spectral_norm`` (the older form; PyTorch suggests
``parametrizations.spectral_norm``): the weight divided by its largest singular value,
estimated by power iteration. The weight becomes the parameter ``weight_orig``, the
iteration's vectors the buffers ``weight_u`` and ``weight_v``, and a forward pre-hook
sets ``module.weight`` before every call (one more iteration first in training mode).
Written as PyTorch's, so the same random start after a seed and the same numbers."""

from __future__ import annotations

import minigrad

from .. import functional as F
from ..module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["SpectralNorm", "spectral_norm", "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook: ``module.<name> = <name>_orig / sigma``."""

    _version: int = 1  # (saved in the state dict's metadata, as PyTorch's)

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        self.name, self.dim, self.eps = name, dim, eps
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations

    def reshape_weight_to_matrix(self, weight):
        """The weight as a matrix: ``dim`` first, the other dims flattened."""
        if self.dim != 0:
            weight = weight.permute(self.dim, *[d for d in range(weight.dim()) if d != self.dim])
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module: Module, do_power_iteration: bool):
        """weight / sigma, sigma = u . (W v); with ``do_power_iteration`` u and v are first
        moved on (in place, without a graph): v = W^T u / |.|, u = W v / |.|."""
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with minigrad.no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(minigrad.mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(minigrad.mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                u = u.clone(memory_format=minigrad.contiguous_format)
                v = v.clone(memory_format=minigrad.contiguous_format)
        sigma = minigrad.dot(u, minigrad.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        with minigrad.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module, module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        """The v for which u . (W v) is ``target_sigma`` (loading an old state dict)."""
        v = minigrad.linalg.multi_dot([weight_mat.t().mm(weight_mat).pinverse(),
                                       weight_mat.t(), u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / minigrad.dot(u, minigrad.mv(weight_mat, v)))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int,
              eps: float) -> "SpectralNorm":
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `SpectralNorm` can't have uninitialized "
                             "parameters. Make sure to run the dummy forward before applying "
                             "spectral normalization")
        with minigrad.no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).size()
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Loads a state dict saved before version 1 (which had ``weight`` and no
    ``weight_v``): v solved from the saved weight, so that it gives the same sigma."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs) -> None:
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is not None and version >= 1:
            return
        key = prefix + fn.name
        if version is None and all(key + s in state_dict for s in ("_orig", "_u", "_v")) \
                and key not in state_dict:
            return
        absent = [key + suffix for suffix in ("_orig", "", "_u") if key + suffix not in state_dict]
        if absent:
            if strict:
                missing_keys.extend(absent)
            return
        with minigrad.no_grad():
            weight_orig = state_dict[key + "_orig"]
            sigma = (weight_orig / state_dict.pop(key)).mean()
            weight_mat = fn.reshape_weight_to_matrix(weight_orig)
            state_dict[key + "_v"] = fn._solve_v_and_rescale(weight_mat, state_dict[key + "_u"],
                                                             sigma)


class SpectralNormStateDictHook:
    """Notes the version (``spectral_norm: {"weight.version": 1}``) in the state dict's
    metadata for this module."""

    def __init__(self, fn: SpectralNorm) -> None:
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata) -> None:
        notes = local_metadata.setdefault("spectral_norm", {})
        key = self.fn.name + ".version"
        if key in notes:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        notes[key] = self.fn._version


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its spectral norm before every call (see the module
    docstring); ``dim`` is the output dim: 0, or 1 for a ConvTranspose. Returns the module."""
    if dim is None:
        transposed = (minigrad.nn.ConvTranspose1d, minigrad.nn.ConvTranspose2d,
                      minigrad.nn.ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    """Take the spectral norm away: ``module.<name>`` becomes an ordinary parameter again,
    holding the normalised weight."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    # (as PyTorch's: the load pre-hook is kept wrapped, so this finds only the other, and
    # the wrapped one stays: loading a state dict then asks for weight_orig, as PyTorch)
    for table, kind in ((module._state_dict_hooks, SpectralNormStateDictHook),
                        (module._load_state_dict_pre_hooks, SpectralNormLoadStateDictPreHook)):
        for key, hook in table.items():
            if isinstance(hook, kind) and hook.fn.name == name:
                del table[key]
                break
    return module
