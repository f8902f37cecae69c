"""The layers of ``torch.nn``."""

from .activation import (
    CELU,
    ELU,
    GELU,
    SELU,
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
    Softplus,
    Softshrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from .container import ModuleDict, ModuleList, Sequential
from .conv import AdaptiveAvgPool2d, AvgPool2d, Conv1d, Conv2d, MaxPool2d
from .linear import Bilinear, Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .misc import Dropout, Embedding, Flatten, Unflatten
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "Identity", "Linear", "Bilinear",
           "Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
           "ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax", "ELU", "SELU",
           "CELU", "SiLU", "Mish", "Softplus", "Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish",
           "LogSigmoid", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink", "Threshold",
           "PReLU", "Flatten",
           "Unflatten", "Dropout", "Embedding", "LayerNorm", "BatchNorm1d", "BatchNorm2d",
           "MSELoss", "L1Loss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"]
