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
from .ops.convolution import (
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    avg_pool2d,
    avg_pool3d,
    col2im,
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    im2col,
    max_pool2d,
    max_pool2d_with_indices,
    max_pool3d_with_indices,
    max_unpool2d,
    max_unpool3d,
)
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
from .ops.resampling import channel_shuffle, pad, pixel_shuffle, pixel_unshuffle, upsample

__all__ = ["adaptive_avg_pool2d", "avg_pool2d", "binary_cross_entropy", "celu", "conv1d",
           "conv2d", "elu", "gelu", "hardshrink", "hardsigmoid", "hardswish", "hardtanh",
           "huber_loss", "leaky_relu", "log_sigmoid", "max_pool2d", "mish", "mse_loss",
           "nll_loss", "one_hot", "prelu", "silu", "smooth_l1_loss", "softplus", "softshrink",
           "threshold", "upsample"]
__all__ += ["conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "pad",  # (J)
            "pixel_shuffle", "pixel_unshuffle", "max_pool2d_with_indices", "max_unpool2d",
            "im2col", "col2im", "adaptive_max_pool2d", "max_pool3d_with_indices", "avg_pool3d",
            "adaptive_avg_pool3d", "channel_shuffle", "max_unpool3d", "adaptive_max_pool3d"]

from .ops._dispatch import apply  # noqa: E402  (L)
from .ops.linalg import frobenius_op  # noqa: E402  (L)
from .ops.nn_ops import (  # noqa: E402  (L)
    ctc_loss,
    embedding_bag,
    glu,
    multi_margin_loss,
    multilabel_margin_loss,
    pdist,
    rrelu_with_noise,
    soft_margin_loss,
    weight_norm_interface,
)
from .ops.pointwise import add_number  # noqa: E402  (L: torch's C++ add.Scalar, AddBackward1)

__all__ += ["add_number", "embedding_bag", "norm", "soft_margin_loss",  # (L)
            "multi_margin_loss", "multilabel_margin_loss", "glu", "rrelu_with_noise",
            "weight_norm_interface", "pdist", "ctc_loss"]


def norm(input, p, dim, keepdim=False):
    """``at::norm(input, p, dim, keepdim)`` as torch's C++ composites call it: the vector
    ``p``-norm over one dim, under torch's NormBackward1 node."""
    dims = (dim % input.dim(),) if input.dim() else None
    return apply(frobenius_op, input, ord=float(p), dims=dims, keepdim=keepdim)

from .ops.convolution import fractional_max_pool2d, fractional_max_pool3d  # noqa: E402 (misc3)

__all__ += ["fractional_max_pool2d", "fractional_max_pool3d"]  # (misc3)

# torch's fused CPU kernels, recorded over doctensor's compositions (Note [fused nodes])
from .ops.fused import lstm_layer_by_hand, lstm_layer_op, pack_padded_op, run_fused, sdpa_flash_op  # noqa: E402 (fused)

__all__ += ["run_fused", "lstm_layer_op", "lstm_layer_by_hand", "sdpa_flash_op",  # (fused)
            "pack_padded_op"]
