"""Module backward hooks (``register_full_backward_hook``), built as PyTorch builds them:
the module's tensor inputs and outputs pass through an identity ``Function``
(``BackwardHookFunction``, shown as ``BackwardHookFunctionBackward``). A pre-hook on the
outputs' node catches the gradients of the outputs; a hook on the inputs' node receives
the gradients of the inputs and calls the module's hooks with both."""

from __future__ import annotations

import warnings

from ..autograd.function import Function
from ..autograd.grad_mode import is_grad_enabled
from ..tensor import Tensor

__all__ = ["BackwardHook"]

_NO_INPUT_GRADIENTS = (
    "Full backward hook is firing when gradients are computed with respect to module "
    "outputs since no inputs require gradients. See "
    "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
    "#torch.nn.Module.register_full_backward_hook for more details.")


class BackwardHookFunction(Function):
    """The identity, recorded: a node to hang the module's backward hooks on."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return tuple(arg.view_as(arg) for arg in args)

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    """The backward hooks of one call of a module: ``setup_input_hook`` before its
    forward, ``setup_output_hook`` after."""

    def __init__(self, module, user_hooks, user_pre_hooks) -> None:
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_wrapped = False

    @staticmethod
    def _wrap(values, node_hook):
        """Pass the tensors among ``values`` through the identity; hook its node."""
        single = isinstance(values, Tensor)
        values = (values,) if single else tuple(values)
        positions = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
        tensors = [values[i] for i in positions]
        if not (is_grad_enabled() and any(t.requires_grad for t in tensors)):
            return (values[0] if single else values), False
        wrapped = BackwardHookFunction.apply(*tensors)
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        node_hook(next(t for t in wrapped if t.grad_fn is not None).grad_fn)
        values = list(values)
        for i, tensor in zip(positions, wrapped):
            values[i] = tensor
        return (values[0] if single else tuple(values)), True

    def setup_input_hook(self, args):
        self.n_inputs = sum(isinstance(a, Tensor) for a in args)
        args, self.input_wrapped = self._wrap(args, lambda node: node.register_hook(
            self._inputs_hook))
        return args

    def setup_output_hook(self, output):
        if not self.user_hooks and not self.user_pre_hooks:
            return output
        output, _ = self._wrap(output, lambda node: node.register_prehook(self._outputs_hook))
        return output

    def _outputs_hook(self, grad_outputs):
        for hook in self.user_pre_hooks:
            result = hook(self.module, grad_outputs)
            if result is not None:
                grad_outputs = result if isinstance(result, tuple) else (result,)
        self.grad_outputs = grad_outputs
        if not self.input_wrapped:  # (no input requires grad: fire here)
            if self.user_hooks:
                warnings.warn(_NO_INPUT_GRADIENTS, stacklevel=1)
            for hook in self.user_hooks:
                hook(self.module, (None,) * max(self.n_inputs, 1), self.grad_outputs)
        return grad_outputs

    def _inputs_hook(self, grad_inputs, _):
        for hook in self.user_hooks:
            result = hook(self.module, grad_inputs, self.grad_outputs)
            if result is not None:
                if len(result) != len(grad_inputs):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(result)}, but expected {len(grad_inputs)}")
                grad_inputs = tuple(result)
        return grad_inputs
