"""Activation layers: each holds its options and calls ``nn.functional``."""

import doctensor as torch

from .. import functional as F
from ..parameter import Parameter
from .module import Module

__all__ = ["ReLU", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax", "ELU",
           "SELU", "CELU", "SiLU", "Mish", "Softplus", "Hardtanh", "ReLU6", "Hardsigmoid",
           "Hardswish", "LogSigmoid", "Softsign", "Tanhshrink", "Softshrink", "Hardshrink",
           "Threshold", "PReLU", "Softmin", "CosineSimilarity"]


class ReLU(Module):
    """``max(x, 0)`` elementwise."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``x`` where positive, ``negative_slope * x`` elsewhere."""

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace
                                                          else "")


class Sigmoid(Module):
    """``1 / (1 + exp(-x))`` elementwise."""

    def forward(self, input):
        return input.sigmoid()


class Tanh(Module):
    """``tanh(x)`` elementwise."""

    def forward(self, input):
        return input.tanh()


class GELU(Module):
    """``x * Phi(x)`` (or its tanh approximation)."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Softmax(Module):
    """``exp(x) / exp(x).sum(dim)``."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log(softmax(x, dim))``, computed stably."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


def _inplace_repr(inplace):
    return "inplace=True" if inplace else ""


class _Elementwise(Module):
    """An activation without options but ``inplace``: ``forward`` is ``function(x)``."""

    function = None
    shows_inplace = True  # whether extra_repr names inplace (Hardswish's and Hardsigmoid's not)

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self).function(input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace) if self.shows_inplace else ""


class ELU(Module):
    """``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class CELU(ELU):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class SELU(_Elementwise):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""

    function = F.selu


class SiLU(_Elementwise):
    """``x * sigmoid(x)``."""

    function = F.silu


class Mish(_Elementwise):
    """``x * tanh(softplus(x))``."""

    function = F.mish


class Hardsigmoid(_Elementwise):
    """``relu6(x + 3) / 6``."""

    function = F.hardsigmoid
    shows_inplace = False


class Hardswish(_Elementwise):
    """``x * relu6(x + 3) / 6``."""

    function = F.hardswish
    shows_inplace = False


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` past ``threshold``."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """``x`` clamped to ``[min_val, max_val]``."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if max_val <= min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (
            ", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """``x`` clamped to ``[0, 6]``."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class LogSigmoid(Module):
    """``log(sigmoid(x))``, computed stably."""

    def forward(self, input):
        return F.logsigmoid(input)


class Softsign(Module):
    """``x / (1 + |x|)``."""

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """``x - tanh(x)``."""

    def forward(self, input):
        return F.tanhshrink(input)


class Softshrink(Module):
    """``x`` moved ``lambd`` towards 0, and 0 within ``lambd`` of it."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Softshrink):
    """``x`` where ``|x| > lambd``, else 0."""

    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class Threshold(Module):
    """``x`` where ``x > threshold``, else ``value``."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (
            ", inplace=True" if self.inplace else "")


class PReLU(Module):
    """``x`` where positive, ``weight * x`` elsewhere; ``weight`` is learned (one slope, or
    one per channel), starting at ``init``."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(torch.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        with torch.no_grad():
            self.weight.fill_(self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Softmin(Module):
    """``softmax(-x, dim)``."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class CosineSimilarity(Module):
    """The cosine of the angle between two inputs along ``dim``."""

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
