"""``minigrad.nn``: layers, losses and the ``Module`` class, as in ``torch.nn``.

    module.py      Module: parameters, sub-modules, train/eval, state_dict, repr
    parameter.py   Parameter: a tensor that a module learns
    linear.py      Linear, Identity, Flatten
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
from .dropout import Dropout  # noqa: F401
from .linear import Flatten, Identity, Linear  # noqa: F401
from .loss import BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss  # noqa: F401
from .module import Module  # noqa: F401
from .normalization import LayerNorm  # noqa: F401
from .sparse import Embedding  # noqa: F401
from .parameter import Parameter  # noqa: F401
