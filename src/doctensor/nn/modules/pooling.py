"""Pooling layers beyond conv.py's: the max unpools, the adaptive max pools, the 3-d pools
and the power-average (LP) pools."""

from .. import functional as F
from ..functional import _ntuple
from .conv import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .module import Module

__all__ = ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d",
           "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "LPPool1d", "LPPool2d", "LPPool3d"]


class _MaxUnpoolNd(Module):
    """The partial inverse of a max pool with indices: each maximum back in its place,
    zeros elsewhere."""

    dims, function = None, None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self.dims)
        self.stride = _ntuple(stride if stride is not None else kernel_size, self.dims)
        self.padding = _ntuple(padding, self.dims)

    def forward(self, input, indices, output_size=None):
        return type(self).function(input, indices, self.kernel_size, self.stride,
                                   self.padding, output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool1d(..., return_indices=True)``."""

    dims, function = 1, F.max_unpool1d


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool2d(..., return_indices=True)``."""

    dims, function = 2, F.max_unpool2d


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool3d(..., return_indices=True)``."""

    dims, function = 3, F.max_unpool3d


class _AdaptiveMaxPoolNd(Module):
    """The maxima of windows that cut the input into ``output_size`` (with their indices
    when ``return_indices``)."""

    function = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        return type(self).function(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Adaptive max pooling of the last dim."""

    function = F.adaptive_max_pool1d


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Adaptive max pooling of the last two dims."""

    function = F.adaptive_max_pool2d


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Adaptive max pooling of the last three dims."""

    function = F.adaptive_max_pool3d


class MaxPool3d(MaxPool2d):
    """The largest value of each (D, H, W) window (``stride`` defaults to the kernel
    size)."""

    function = F.max_pool3d


class AvgPool3d(AvgPool2d):
    """The mean of each (D, H, W) window (``stride`` defaults to the kernel size)."""

    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    """Means over windows that cut the last three dims into ``output_size``."""

    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class _LPPoolNd(Module):
    """The ``norm_type``-norm of each window (``stride`` defaults to the kernel size)."""

    function = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def forward(self, input):
        return type(self).function(input, float(self.norm_type), self.kernel_size, self.stride,
                                   self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """Power-average pooling along the last dim."""

    function = F.lp_pool1d


class LPPool2d(_LPPoolNd):
    """Power-average pooling of the last two dims."""

    function = F.lp_pool2d


class LPPool3d(_LPPoolNd):
    """Power-average pooling of the last three dims."""

    function = F.lp_pool3d


# -- fractional max pooling (misc3) --

__all__ += ["FractionalMaxPool2d", "FractionalMaxPool3d"]


class _FractionalMaxPoolNd(Module):
    """Fractional max pooling (``F.fractional_max_pool2d``): windows of ``kernel_size`` at
    random steps that cut the input into ``output_size`` or ``output_ratio`` of it (exactly
    one of the two); ``_random_samples``, a buffer, fixes the steps."""

    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]
    dims, function = None, None

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        n = self.dims
        self.kernel_size = F._repeat(kernel_size, n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = F._repeat(output_size, n) if output_size is not None else None
        self.output_ratio = F._repeat(output_ratio, n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{type(self).__name__} requires specifying either an output size, "
                             "or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio[:n]):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        return type(self).function(input, self.kernel_size, self.output_size, self.output_ratio,
                                   self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """2-d fractional max pooling (Graham, 2014) of (N, C, H, W) or (C, H, W) inputs."""

    dims, function = 2, F.fractional_max_pool2d


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """3-d fractional max pooling of (N, C, T, H, W) or (C, T, H, W) inputs."""

    dims, function = 3, F.fractional_max_pool3d

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        if (isinstance(kernel_size, int) and kernel_size <= 0) or (
                isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size)):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        super().__init__(kernel_size, output_size, output_ratio, return_indices,
                         _random_samples)
