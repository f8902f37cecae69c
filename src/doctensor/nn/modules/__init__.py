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
from .container import ModuleDict, ModuleList, Sequential
from .conv import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AvgPool1d,
    AvgPool2d,
    Conv1d,
    Conv2d,
    MaxPool1d,
    MaxPool2d,
    Upsample,
)
from .linear import Bilinear, Identity, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .misc import Dropout, Dropout1d, Dropout2d, Embedding, Flatten, Unflatten
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm

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
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"]
