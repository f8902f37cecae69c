"""``Identity``, ``Linear``, ``Bilinear``."""

import math

import doctensor as torch

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear"]


def weight_and_bias(module, weight_shape, bias, device, dtype):
    """Give ``module`` a ``weight`` of ``weight_shape`` and a ``bias`` (or None) and draw
    them (``draw_weight_and_bias``)."""
    module.weight = Parameter(torch.empty(weight_shape, device=device, dtype=dtype))
    if bias:
        module.bias = Parameter(torch.empty(weight_shape[0], device=device, dtype=dtype))
    else:
        module.register_parameter("bias", None)
    draw_weight_and_bias(module)


def draw_weight_and_bias(module):
    """torch's reset_parameters of Linear and Conv layers: the weight by
    ``kaiming_uniform_(a=sqrt(5))``, then the bias from ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``."""
    init.kaiming_uniform_(module.weight, a=math.sqrt(5))
    if module.bias is not None:
        fan_in, _ = init._calculate_fan_in_and_fan_out(module.weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(module.bias, -bound, bound)


class Identity(Module):
    """Returns its input (arguments are accepted and ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """``y = x @ weight.T + bias``.

    The weight (``out_features x in_features``) is drawn first, with
    ``kaiming_uniform_(a=sqrt(5))``, then the bias from ``U(-1/sqrt(in), 1/sqrt(in))``, so
    a seeded doctensor ``Linear`` equals torch's bit for bit:

        >>> torch.manual_seed(0); torch.nn.Linear(3, 1).weight
        Parameter containing:
        tensor([[-0.0043,  0.3097, -0.4752]], requires_grad=True)
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        weight_and_bias(self, (out_features, in_features), bias, device, dtype)

    def reset_parameters(self):
        draw_weight_and_bias(self)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """``y[n, k] = x1[n] @ weight[k] @ x2[n] + bias[k]``."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None,
                 dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in1_features, in2_features),
                                            device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
