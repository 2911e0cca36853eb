"""``minigrad.nn``: layers, losses and the ``Module`` class, as in ``torch.nn``.

    module.py      Module: parameters, sub-modules, train/eval, state_dict, repr
    parameter.py   Parameter: a tensor that a module learns
    linear.py      Linear, Identity, Flatten
    conv.py        Conv1d, Conv2d, Unfold, Fold
    pooling.py     MaxPool1d/2d, AvgPool1d/2d, AdaptiveAvgPool1d/2d
    activation.py  ReLU, Tanh, Sigmoid, Softmax, LogSoftmax, GELU
    dropout.py     Dropout
    sparse.py      Embedding (a table of vectors looked up by index)
    normalization.py  LayerNorm
    container.py   Sequential, ModuleList, ModuleDict
    loss.py        MSELoss, NLLLoss, CrossEntropyLoss, BCEWithLogitsLoss
    functional.py  the math of all of the above, as functions (``F.relu``, ...)
    init.py        filling weights with starting values

Everything is written with public tensor operations; autograd does the rest.
"""

from . import functional, init  # noqa: F401
from .activation import GELU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh  # noqa: F401
from .container import ModuleDict, ModuleList, Sequential  # noqa: F401
from .conv import Conv1d, Conv2d, Fold, Unfold  # noqa: F401
from .dropout import Dropout  # noqa: F401
from .linear import Flatten, Identity, Linear  # noqa: F401
from .loss import BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss  # noqa: F401
from .module import Module  # noqa: F401
from .normalization import LayerNorm  # noqa: F401
from .sparse import Embedding  # noqa: F401
from .parameter import Parameter  # noqa: F401
from .pooling import (  # noqa: F401
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d)
