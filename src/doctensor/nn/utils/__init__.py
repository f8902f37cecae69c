"""``torch.nn.utils``: gradient clipping, flat parameter vectors, weight norm, layer fusion,
parametrizations, ``skip_init``, ``stateless.functional_call`` and ``rnn``."""

from . import (
    clip_grad,
    convert_parameters,
    fusion,
    init,
    parametrizations,
    parametrize,
    rnn,
    stateless,
)
from .clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from .init import skip_init
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm",
           "clip_grads_with_norm_", "parameters_to_vector", "vector_to_parameters",
           "fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights", "skip_init", "weight_norm", "remove_weight_norm",
           "spectral_norm", "remove_spectral_norm",
           "clip_grad", "convert_parameters", "fusion", "init", "parametrizations",
           "parametrize", "rnn", "stateless"]


def reset_grads(parameters, set_to_none=True):
    """What ``Module.zero_grad`` and ``Optimizer.zero_grad`` do to each parameter's ``.grad``:
    drop it (the default), or detach it and zero it in place."""
    for p in parameters:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()
