"""``doctensor._nn``: the kernels that ``torch.nn.functional`` calls as ``torch._C._nn.*``.

``nn/functional.py`` is written against ``doctensor``'s public API; what torch itself keeps
in ``torch._C._nn`` (``gelu``, ``mse_loss``, ``nll_loss`` ...) lives here, declared in
``ops/nn_ops.py`` with its grad_fn name.
"""

from .ops.activations import (
    celu,
    elu,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    log_sigmoid,
    mish,
    prelu,
    silu,
    softplus,
    softshrink,
    threshold,
)
from .ops.convolution import adaptive_avg_pool2d, avg_pool2d, conv1d, conv2d, max_pool2d
from .ops.nn_ops import (
    binary_cross_entropy,
    gelu,
    huber_loss,
    leaky_relu,
    mse_loss,
    nll_loss,
    one_hot,
    smooth_l1_loss,
)
from .ops.resampling import upsample

__all__ = ["adaptive_avg_pool2d", "avg_pool2d", "binary_cross_entropy", "celu", "conv1d",
           "conv2d", "elu", "gelu", "hardshrink", "hardsigmoid", "hardswish", "hardtanh",
           "huber_loss", "leaky_relu", "log_sigmoid", "max_pool2d", "mish", "mse_loss",
           "nll_loss", "one_hot", "prelu", "silu", "smooth_l1_loss", "softplus", "softshrink",
           "threshold", "upsample"]
