"""``Conv2d`` and the 2-d pooling layers."""

from .. import functional as F
from .linear import draw_weight_and_bias, weight_and_bias
from .module import Module

__all__ = ["Conv1d", "Conv2d", "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d", "MaxPool2d",
           "AvgPool2d", "AdaptiveAvgPool2d", "Upsample"]


_PADDING_MODES = {"same", "valid"}  # a set, printed in this process's order, as torch's


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


class _ConvNd(Module):
    """A convolution of ``dims`` spatial dims with zero padding.  The weight,
    ``(out, in / groups, *kernel_size)``, and the bias are drawn as ``Linear``'s are, with
    fan_in = in / groups * (kernel elements): a seeded doctensor layer equals torch's bit for
    bit."""

    dims = None
    function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise NotImplementedError("doctensor's convolutions pad with zeros only")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{_PADDING_MODES}")
            if padding == "same" and any(s != 1 for s in (
                    (stride,) if isinstance(stride, int) else stride)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        def dims(v):
            return (v,) * self.dims if isinstance(v, int) else tuple(v)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = dims(kernel_size), dims(stride)
        self.padding = padding if isinstance(padding, str) else dims(padding)
        self.dilation = dims(dilation)
        self.groups, self.padding_mode = groups, padding_mode
        weight_and_bias(self, (out_channels, in_channels // groups, *self.kernel_size), bias,
                        device, dtype)

    def reset_parameters(self):
        draw_weight_and_bias(self)

    def forward(self, input):
        return type(self).function(input, self.weight, self.bias, self.stride, self.padding,
                                   self.dilation, self.groups)

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * self.dims:
            s += f", padding={self.padding}"  # a mode prints bare: padding=same
        if self.dilation != (1,) * self.dims:
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    """A 1-d convolution of (N, C, L) inputs."""

    dims = 1
    function = F.conv1d


class Conv2d(_ConvNd):
    """A 2-d convolution of (N, C, H, W) inputs."""

    dims = 2
    function = F.conv2d


class MaxPool2d(Module):
    """The largest value of each window (``stride`` defaults to the kernel size)."""

    function = F.max_pool2d

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        if return_indices:
            raise NotImplementedError("doctensor's MaxPool2d does not return indices")
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return type(self).function(input, self.kernel_size, self.stride, self.padding,
                                   self.dilation, self.ceil_mode)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """The mean of each window (``stride`` defaults to the kernel size)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Means over windows that cut the input's last two dims into ``output_size``."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxPool1d(MaxPool2d):
    """The largest value of each window along the last dim."""

    function = F.max_pool1d


class AvgPool1d(Module):
    """The mean of each window along the last dim (``stride`` defaults to the kernel size)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding, self.ceil_mode = _single(padding), ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size[0], self.stride[0], self.padding[0],
                            self.ceil_mode, self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """Means over windows that cut the input's last dim into ``output_size``."""

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


def _single(v):
    return (v,) if isinstance(v, int) else tuple(v)


class Upsample(Module):
    """Resize by ``scale_factor`` or to ``size`` with ``F.interpolate``."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.mode = size, mode
        self.scale_factor = scale_factor if scale_factor is None or not isinstance(
            scale_factor, (int, float)) else float(scale_factor)
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(map(float, scale_factor))
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        info = (f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None
                else f"size={self.size!r}")
        return f"{info}, mode={self.mode!r}"
