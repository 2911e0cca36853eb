"""``torch.func``: function transforms (JAX-style, as PyTorch's functorch).

- ``transforms.py``: ``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``linearize``, ``jacrev``,
  ``jacfwd``, ``hessian``: derivatives as functions, all built on the reverse walk
  (``torch.autograd.grad`` with ``create_graph=True``, so that they nest);
- ``vmap.py``: ``vmap``, a function of one example run over a batch (a loop that stacks);
- ``module_state.py``: ``functional_call`` (a module as a function of its parameters),
  ``stack_module_state`` (several models' parameters stacked, for ``vmap``) and
  ``replace_all_batch_norm_modules_``;
- ``_tree.py``: nests of tuples, lists and dicts as lists of tensors.

Written on minigrad's public API, as ``nn`` is; ``minigrad/__init__.py`` imports it last.
"""

from .module_state import functional_call, replace_all_batch_norm_modules_, stack_module_state
from .transforms import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, linearize, vjp
from .vmap import vmap

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd", "hessian",
           "vmap", "functional_call", "stack_module_state", "replace_all_batch_norm_modules_"]
