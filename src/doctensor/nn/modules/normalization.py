"""``GroupNorm``, ``LayerNorm``, ``RMSNorm``, ``LocalResponseNorm`` and
``BatchNorm1d``/``2d``/``3d``."""

import numbers

import doctensor as torch

from .. import functional as F
from .. import init
from ..parameter import Parameter
from ._functions import CrossMapLRN2d as _cross_map_lrn2d
from .module import Module

__all__ = ["GroupNorm", "LayerNorm", "RMSNorm", "LocalResponseNorm", "BatchNorm1d", "BatchNorm2d",
           "BatchNorm3d", "SyncBatchNorm", "CrossMapLRN2d"]


def _scale_and_shift(module, shape, affine, bias, device, dtype):
    """A norm layer's learnable ``weight`` and ``bias`` of ``shape`` (set by
    ``reset_parameters``), each registered as None where ``affine`` (or, for the bias,
    ``bias``) says no."""
    if affine:
        module.weight = Parameter(torch.empty(shape, device=device, dtype=dtype))
    else:
        module.register_parameter("weight", None)
    if affine and bias:
        module.bias = Parameter(torch.empty(shape, device=device, dtype=dtype))
    else:
        module.register_parameter("bias", None)


class _Affine(Module):
    """A norm layer's ``reset_parameters``: weight ones and bias zeros, in place (as torch's
    ``init.ones_``/``init.zeros_``, one version bump each)."""

    def reset_parameters(self):
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)


class GroupNorm(_Affine):
    """Normalise each sample over groups of ``num_channels / num_groups`` channels, then
    scale and shift per channel."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, bias=True, device=None,
                 dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = (num_groups, num_channels,
                                                                    eps, affine)
        _scale_and_shift(self, num_channels, affine, bias, device, dtype)
        self.reset_parameters()

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class LayerNorm(_Affine):
    """Normalise over the last ``len(normalized_shape)`` dims, then scale and shift."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _scale_and_shift(self, self.normalized_shape, elementwise_affine, bias, device, dtype)
        self.reset_parameters()

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class _NormBase(_Affine):
    """What batch and instance norm share: per-feature weight and bias, and (where
    ``track_running_stats``) the buffers running_mean, running_var, num_batches_tracked."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _scale_and_shift(self, num_features, affine, bias, device, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, device=device,
                                                             dtype=dtype))
            self.register_buffer("running_var", torch.ones(num_features, device=device,
                                                           dtype=dtype))
            self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long,
                                                                     device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        """Running mean 0, variance 1, no batches seen: in place, as torch resets them."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        super().reset_parameters()

    _dims, _dims_text = (), ""  # the input dims a subclass takes, as its error names them

    def _check_input_dim(self, input):
        if input.dim() not in self._dims:
            raise ValueError(f"expected {self._dims_text} input (got {input.dim()}D input)")

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """Normalise each feature (channel, dim 1) over every other dim of the input.

    In training, batch statistics are used and the running ones updated:
    ``running = (1 - momentum) * running + momentum * batch`` (the unbiased variance);
    in eval mode the running statistics are used.
    """

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked)
        # batch statistics in training, or in eval mode when there are no running ones
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None,
                            self.running_var if track else None, self.weight, self.bias,
                            bn_training, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs."""

    _dims, _dims_text = (2, 3), "2D or 3D"


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) inputs (per channel, over N, H and W)."""

    _dims, _dims_text = (4,), "4D"


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W) inputs."""

    _dims, _dims_text = (5,), "5D"


class RMSNorm(Module):
    """Divide by the root mean square over the last ``len(normalized_shape)`` dims, then
    scale."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None,
                 dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, device=device,
                                                dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LocalResponseNorm(Module):
    """Normalise each channel by its neighbours' mean square (AlexNet's LRN)."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class SyncBatchNorm(_BatchNorm):
    """Batch norm whose statistics are synchronised across processes; in a single process
    (doctensor's only case), ``BatchNorm`` of any input of at least 2 dims."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, device=None, dtype=None, *,
                 bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")


class CrossMapLRN2d(Module):
    """The legacy cross-channel local response norm of 4-d inputs."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
