"""``minigrad.optim``: optimisers that update parameters from their gradients.

    optimizer.py   Optimizer: param_groups, state, zero_grad, state_dict
    sgd.py         SGD (momentum, Nesterov, weight decay)
    adam.py        Adam (bias-corrected running averages, optional AMSGrad)
    adamw.py       AdamW (Adam with decoupled weight decay)
    rmsprop.py     RMSprop (steps divided by a running RMS of the gradient)
    adagrad.py     Adagrad (steps shrink with the sum of squared gradients)
    adadelta.py    Adadelta (steps scaled by running RMS of past steps and gradients)
    adamax.py      Adamax (Adam with a running maximum of |g|)
    nadam.py       NAdam (Adam with Nesterov momentum)
    _adafactor.py  Adafactor (factored second moments: a row and a column per matrix)
    sparse_adam.py SparseAdam (its arguments and errors: minigrad has no sparse gradients)
    _stateless.py  swap_in_optimizer_params_and_state (step other tensors, with another state)
    radam.py       RAdam (Adam with the early steps' variance rectified)
    rprop.py       Rprop (a step size per weight, grown or shrunk by the gradient's sign)
    asgd.py        ASGD (SGD with a decaying step and an average of the parameters)
    lbfgs.py       LBFGS (quasi-Newton steps from a short history; strong-Wolfe line search)
    lr_scheduler.py  StepLR, MultiStepLR, ExponentialLR, LambdaLR, LinearLR,
                   CosineAnnealingLR, ReduceLROnPlateau, OneCycleLR, SequentialLR, ...
                   (the learning rate over time)
    swa_utils.py   AveragedModel, SWALR, update_bn (weight averaging: SWA, EMA)

A training step reads the same as in PyTorch::

    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
"""

from . import lr_scheduler  # noqa: F401
from . import swa_utils  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from ._adafactor import Adafactor  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .asgd import ASGD  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .radam import RAdam  # noqa: F401
from .adam import Adam  # noqa: F401
from .adamw import AdamW  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .sgd import SGD  # noqa: F401
from .sparse_adam import SparseAdam  # noqa: F401
from ._stateless import swap_in_optimizer_params_and_state  # noqa: F401

__all__ = ["Adafactor", "Adadelta", "Adagrad", "Adam", "Adamax", "AdamW", "ASGD", "LBFGS",
           "lr_scheduler", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam",
           "swa_utils", "swap_in_optimizer_params_and_state"]

# (the modules' names leave the package's namespace, as in torch.optim: dir() lists the
# optimisers; ``import minigrad.optim.adam`` still works)
del adadelta, adagrad, adam, adamax, adamw, asgd, lbfgs, nadam, optimizer  # noqa: F821
del radam, rmsprop, rprop, sgd, sparse_adam  # noqa: F821
