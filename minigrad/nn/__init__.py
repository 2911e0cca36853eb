"""``minigrad.nn``: layers, losses and the ``Module`` class, as in ``torch.nn``.

    module.py      Module: parameters, sub-modules, train/eval, state_dict, repr
    parameter.py   Parameter: a tensor that a module learns
    linear.py      Linear, Bilinear, Identity, Flatten, Unflatten
    lazy.py        LazyLinear, LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d,
                   LazyBatchNorm1d/2d/3d (sizes from the first input)
    conv.py        Conv1d/2d/3d, ConvTranspose1d/2d/3d, Unfold, Fold
    pooling.py     MaxPool1d/2d/3d, MaxUnpool1d/2d/3d, AvgPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d,
                   AdaptiveMaxPool1d/2d/3d
    padding.py     ZeroPad1d/2d/3d, ConstantPad1d/2d/3d, ReflectionPad1d/2d/3d,
                   ReplicationPad1d/2d/3d, CircularPad1d/2d/3d
    upsampling.py  Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, PixelShuffle,
                   PixelUnshuffle, ChannelShuffle
    activation.py  ReLU, Tanh, Sigmoid, Softmax, LogSoftmax, GELU, LeakyReLU, RReLU, ELU, Softplus,
                   SiLU, Hardtanh, ReLU6, SELU, CELU, Mish, Hardswish, Hardsigmoid, Hardshrink, Softshrink,
                   Threshold, PReLU, LogSigmoid, Softsign, Tanhshrink, Softmin, Softmax2d, GLU;
                   MultiheadAttention (F.multi_head_attention_forward)
    dropout.py     Dropout, Dropout1d, Dropout2d
    batchnorm.py   BatchNorm1d, BatchNorm2d, BatchNorm3d
    sparse.py      Embedding (a table of vectors looked up by index), EmbeddingBag
    transformer.py Transformer, TransformerEncoder(Layer), TransformerDecoder(Layer)
    rnn.py         RNN, LSTM, GRU (whole sequences) and RNNCell, LSTMCell, GRUCell (one step)
    normalization.py  LayerNorm, GroupNorm, InstanceNorm1d/2d/3d, RMSNorm, LocalResponseNorm,
                   CrossMapLRN2d (its autograd Function in _functions.py)
    container.py   Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
    loss.py        MSELoss, NLLLoss, CrossEntropyLoss, BCEWithLogitsLoss, BCELoss, L1Loss,
                   SmoothL1Loss, HuberLoss, KLDivLoss, the margin losses (MarginRankingLoss,
                   ..., MultiMarginLoss), PoissonNLLLoss, GaussianNLLLoss, CTCLoss
    distance.py    PairwiseDistance, CosineSimilarity
    adaptive.py    AdaptiveLogSoftmaxWithLoss (the adaptive softmax: a head and clusters)
    functional.py  the math of all of the above, as functions (``F.relu``, ...)
    init.py        filling weights with starting values
    parallel.py    DataParallel (on a machine without a GPU: the module, called as it is)
    utils/         clip_grad_norm_, clip_grad_value_, parameters_to_vector, prune, ...
    modules/       PyTorch's paths to the files above (``torch.nn.modules.loss._Loss``)

Everything is written with public tensor operations; autograd does the rest.
"""

from . import functional, init, modules, utils  # noqa: F401
from .activation import (  # noqa: F401
    CELU, ELU, GELU, GLU, SELU, Softmax2d, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, Softshrink, LeakyReLU, LogSigmoid, LogSoftmax,
    Mish, PReLU, ReLU, ReLU6, RReLU, Sigmoid, SiLU, Softmax, Softmin, Softplus, Softsign, Tanh,
    Tanhshrink, Threshold, MultiheadAttention)
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d  # noqa: F401
from .container import (  # noqa: F401
    ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential)
from .conv import (  # noqa: F401
    Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, Fold, Unfold)
from .dropout import (  # noqa: F401
    AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout)
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyConv1d,  # noqa: F401
                   LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d,
                   LazyConvTranspose3d, LazyLinear)
from .linear import (  # noqa: F401
    Bilinear, Flatten, Identity, Linear, NonDynamicallyQuantizableLinear, Unflatten)
from .adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: F401
from .distance import CosineSimilarity, PairwiseDistance  # noqa: F401
from .loss import (  # noqa: F401
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CTCLoss, CrossEntropyLoss, GaussianNLLLoss,
    HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss,
    MultiLabelMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, PoissonNLLLoss,
    SmoothL1Loss, SoftMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss)
from .linear_cross_entropy import LinearCrossEntropyLoss, LinearCrossEntropyOptions  # noqa: F401
from .module import Module  # noqa: F401
from .normalization import (  # noqa: F401
    CrossMapLRN2d, GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LayerNorm,
    LocalResponseNorm,
    RMSNorm)
from .sparse import Embedding, EmbeddingBag  # noqa: F401
from .transformer import (  # noqa: F401
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
    TransformerEncoderLayer)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase  # noqa: F401
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter  # noqa: F401
from . import parallel  # noqa: F401  (torch.nn.parallel)
from .parallel import DataParallel  # noqa: F401
from .padding import (  # noqa: F401
    CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
    ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
    ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .upsampling import (  # noqa: F401
    ChannelShuffle, PixelShuffle, PixelUnshuffle, Upsample, UpsamplingBilinear2d,
    UpsamplingNearest2d)
from .pooling import (  # noqa: F401
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
    AdaptiveMaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, LPPool1d, LPPool2d, LPPool3d, MaxPool1d,
    MaxPool2d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d, FractionalMaxPool2d,
    FractionalMaxPool3d)
