"""The layers of ``torch.nn``."""

from .activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import ModuleDict, ModuleList, Sequential
from .conv import AdaptiveAvgPool2d, AvgPool2d, Conv2d, MaxPool2d
from .linear import Bilinear, Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .misc import Dropout, Embedding, Flatten, Unflatten
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "Identity", "Linear", "Bilinear",
           "Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
           "ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax", "Flatten",
           "Unflatten", "Dropout", "Embedding", "LayerNorm", "BatchNorm1d", "BatchNorm2d",
           "MSELoss", "L1Loss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"]
