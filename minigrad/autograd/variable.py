"""``Variable``: the wrapper of PyTorch 0.3 and earlier, kept for old tutorials.

Since PyTorch 0.4 a tensor does everything a Variable did, and
``Variable(t, requires_grad=True)`` just returns a tensor: a new leaf sharing
``t``'s data (cut from any graph ``t`` was in), with ``requires_grad`` set.
``isinstance(x, Variable)`` is True for every tensor, as in PyTorch.
"""

from __future__ import annotations


import numpy as np

from .. import errors
from .tensor_base import TensorBase, make

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, TensorBase)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False, volatile=False)`` -> a Tensor.

    >>> import minigrad as torch
    >>> torch.autograd.Variable(torch.ones(2), requires_grad=True)
    tensor([1., 1.], requires_grad=True)
    """

    def __new__(cls, data=None, requires_grad: bool = False, volatile: bool = False):
        if volatile:
            errors.warn(errors.VARIABLE_VOLATILE, UserWarning, stacklevel=2)
        if data is None:
            data = make(np.empty(0, np.float32))  # (torch.Tensor(): empty, float32)
        if not isinstance(data, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        leaf = data.detach()
        if requires_grad and not leaf.dtype.is_floating_point:
            raise RuntimeError(errors.ONLY_FLOAT_REQUIRES_GRAD_FACTORY)
        leaf._requires_grad = bool(requires_grad)
        return leaf

