"""``minigrad.optim``: optimisers that update parameters from their gradients.

    optimizer.py   Optimizer: param_groups, state, zero_grad, state_dict
    sgd.py         SGD (momentum, Nesterov, weight decay)
    adam.py        Adam (bias-corrected running averages, optional AMSGrad)

A training step reads the same as in PyTorch::

    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
"""

from .adam import Adam  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
