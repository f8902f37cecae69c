"""The layers of ``torch.nn``."""

from .activation import (
    CELU,
    ELU,
    GELU,
    SELU,
    CosineSimilarity,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softshrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from .adaptive import AdaptiveLogSoftmaxWithLoss
from .attention import MultiheadAttention
from .channelshuffle import ChannelShuffle
from .container import ModuleDict, ModuleList, Sequential
from .conv import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AvgPool1d,
    AvgPool2d,
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
    MaxPool1d,
    MaxPool2d,
    Upsample,
    UpsamplingBilinear2d,
    UpsamplingNearest2d,
)
from .distance import PairwiseDistance
from .fold import Fold, Unfold
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .lazy import (
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    LazyConv1d,
    LazyConv2d,
    LazyConv3d,
    LazyConvTranspose1d,
    LazyConvTranspose2d,
    LazyConvTranspose3d,
    LazyInstanceNorm1d,
    LazyInstanceNorm2d,
    LazyInstanceNorm3d,
    LazyLinear,
    LazyModuleMixin,
)
from .linear import Bilinear, Identity, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    CTCLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    NLLLoss2d,
    PoissonNLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from .misc import (
    GLU,
    AlphaDropout,
    Container,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    Embedding,
    FeatureAlphaDropout,
    Flatten,
    RReLU,
    Softmax2d,
    Unflatten,
)
from .module import Module
from .normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    CrossMapLRN2d,
    GroupNorm,
    LayerNorm,
    LocalResponseNorm,
    RMSNorm,
    SyncBatchNorm,
)
from .padding import (
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from .parameter_containers import ParameterDict, ParameterList
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .pooling import (
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AdaptiveMaxPool3d,
    AvgPool3d,
    FractionalMaxPool2d,
    FractionalMaxPool3d,
    LPPool1d,
    LPPool2d,
    LPPool3d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import EmbeddingBag
from .transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "Identity", "Linear", "Bilinear",
           "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AdaptiveAvgPool1d",
           "AvgPool2d", "AdaptiveAvgPool2d", "Upsample",
           "ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax", "ELU", "SELU",
           "CELU", "SiLU", "Mish", "Softplus", "Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish",
           "LogSigmoid", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold",
           "PReLU", "Softmin", "CosineSimilarity", "Flatten",
           "Unflatten", "Dropout", "Dropout1d", "Dropout2d", "Embedding", "LayerNorm",
           "GroupNorm", "BatchNorm1d", "BatchNorm2d",
           "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss",
           "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]
__all__ += ["MultiheadAttention", "Transformer", "TransformerEncoder",  # (attention, K)
            "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer"]
__all__ += ["Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",  # (J)
            "LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d",
            "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d",
            "LazyBatchNorm1d", "LazyBatchNorm2d", "ConstantPad1d", "ConstantPad2d",
            "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ReflectionPad1d",
            "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
            "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d",
            "PixelShuffle", "PixelUnshuffle", "Fold", "Unfold", "MaxUnpool1d", "MaxUnpool2d",
            "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
            "LazyInstanceNorm2d", "LazyInstanceNorm3d", "MaxPool3d", "AvgPool3d",
            "AdaptiveAvgPool3d", "LPPool1d", "LPPool2d", "LPPool3d", "ChannelShuffle",
            "MaxUnpool3d", "AdaptiveMaxPool3d", "UpsamplingNearest2d", "UpsamplingBilinear2d"]
__all__ += ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "BatchNorm3d",  # (L)
            "RMSNorm", "LocalResponseNorm", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
            "Softmax2d", "EmbeddingBag", "PairwiseDistance", "MarginRankingLoss",
            "HingeEmbeddingLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
            "TripletMarginWithDistanceLoss", "PoissonNLLLoss", "GaussianNLLLoss",
            "MultiLabelSoftMarginLoss", "SoftMarginLoss", "MultiLabelMarginLoss",
            "MultiMarginLoss", "GLU", "RReLU", "ParameterList", "ParameterDict",
            "SyncBatchNorm", "NLLLoss2d", "Container", "AdaptiveLogSoftmaxWithLoss",
            "CTCLoss", "CrossMapLRN2d"]
__all__ += ["FractionalMaxPool2d", "FractionalMaxPool3d"]  # (misc3)
