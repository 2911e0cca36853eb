"""``minigrad.nn.utils``: helpers around a model's parameters and gradients.

    clip_grad.py           clip_grad_norm_, clip_grad_value_, get_total_norm,
                           clip_grads_with_norm_ (keep gradient steps bounded)
    convert_parameters.py  parameters_to_vector, vector_to_parameters
    rnn.py                 pad_sequence, unpad_sequence (batches of sequences of unequal length)
    parametrize.py         register_parametrization, remove_parametrizations, cached
    parametrizations.py    weight_norm, spectral_norm (as parametrizations)
    weight_norm.py         weight_norm, remove_weight_norm (the older, hook-based form)
    spectral_norm.py       spectral_norm, remove_spectral_norm (the older, hook-based form)
    init.py                skip_init (a module built on the meta device, then given memory)
    prune.py               pruning: masks on parameters (random, L1, Ln-structured, global)
    fusion.py              fuse_conv_bn_eval, fuse_linear_bn_eval (a batch norm folded in)
    stateless.py           functional_call (the older name of torch.func.functional_call)
"""

from .clip_grad import (clip_grad_norm, clip_grad_norm_, clip_grad_value_,  # noqa: F401
                        clip_grads_with_norm_, get_total_norm)
from . import rnn  # noqa: F401
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from . import parametrize, parametrizations  # noqa: F401
from .weight_norm import remove_weight_norm, weight_norm  # noqa: F401
from .spectral_norm import remove_spectral_norm, spectral_norm  # noqa: F401
from .init import skip_init  # noqa: F401
from . import prune  # noqa: F401
from . import fusion, stateless  # noqa: F401
