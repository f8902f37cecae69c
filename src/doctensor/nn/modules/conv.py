"""The convolutions (``Conv1d/2d/3d``, ``ConvTranspose1d/2d/3d``) and the pooling layers."""

import doctensor as torch

from .. import functional as F
from ..functional import _ntuple
from ..parameter import Parameter
from .linear import draw_weight_and_bias
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d", "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d", "MaxPool2d",
           "AvgPool2d", "AdaptiveAvgPool2d", "Upsample", "UpsamplingNearest2d",
           "UpsamplingBilinear2d"]


# sets printed in torch's messages: two strings print in this process's order, as torch's;
# torch's four modes come from a frozenset constant of its compiled file (their order there)
_PADDING_STRINGS = {"same", "valid"}
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


class _ConvNd(Module):
    """A convolution of ``dims`` spatial dims with zero padding (``transposed``: its
    adjoint).  The weight, ``(out, in / groups, *kernel_size)`` (transposed:
    ``(in, out / groups, *kernel_size)``), and the bias are drawn as ``Linear``'s are, with
    fan_in = weight.size(1) * (kernel elements): a seeded doctensor layer equals torch's bit
    for bit."""

    dims = None
    function = None

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 transposed, output_padding, groups, bias, padding_mode, device=None,
                 dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in (
                    (stride,) if isinstance(stride, int) else stride)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got "
                             f"padding_mode='{padding_mode}'")
        n = self.dims
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _ntuple(kernel_size, n), _ntuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed, self.output_padding = transposed, _ntuple(output_padding, n)
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = _padding_pairs(self.padding, self.kernel_size,
                                                               self.dilation)
        shape = (in_channels, out_channels // groups) if transposed else \
            (out_channels, in_channels // groups)
        self.weight = Parameter(torch.empty((*shape, *self.kernel_size), device=device,
                                            dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        draw_weight_and_bias(self)

    def extra_repr(self):
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * self.dims:
            s += f", padding={self.padding}"  # a mode prints bare: padding=same
        if self.dilation != (1,) * self.dims:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self.dims:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


def _padding_pairs(padding, kernel_size, dilation):
    """The (before, after) amounts per dim, the last dim's first, as ``F.pad`` takes them:
    what a padding mode other than zeros pads by ('same': half the dilated kernel, the odd
    one after)."""
    if padding == "valid":
        return [0, 0] * len(kernel_size)
    if padding == "same":
        totals = [d * (k - 1) for d, k in zip(dilation, kernel_size)]
        return [p for t in reversed(totals) for p in (t // 2, t - t // 2)]
    return tuple(p for p in reversed(padding) for _ in range(2))


class _Conv(_ConvNd):
    """A convolution (the arguments of Conv1d/2d/3d)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, 0, groups, bias, padding_mode, device, dtype)

    def forward(self, input):
        if self.padding_mode != "zeros":  # padded by the mode, then convolved without padding
            input = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return type(self).function(input, self.weight, self.bias, self.stride, 0,
                                       self.dilation, self.groups)
        return type(self).function(input, self.weight, self.bias, self.stride, self.padding,
                                   self.dilation, self.groups)


class Conv1d(_Conv):
    """A 1-d convolution of (N, C, L) inputs."""

    dims = 1
    function = F.conv1d


class Conv2d(_Conv):
    """A 2-d convolution of (N, C, H, W) inputs."""

    dims = 2
    function = F.conv2d


class Conv3d(_Conv):
    """A 3-d convolution of (N, C, D, H, W) inputs."""

    dims = 3
    function = F.conv3d


class _ConvTransposeNd(_ConvNd):
    """A transposed convolution (conv's gradient in its input, a "deconvolution")."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         True, output_padding, groups, bias, padding_mode, device, dtype)

    def forward(self, input, output_size=None):
        """``output_size`` (the spatial sizes, or the whole shape) picks the output
        padding, among the sizes the stride allows."""
        output_padding = self._output_padding(input, output_size)
        return type(self).function(input, self.weight, self.bias, self.stride, self.padding,
                                   output_padding, self.groups, self.dilation)

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        dims = self.dims
        batch = 2 if input.dim() == dims + 2 else 1
        if len(output_size) == batch + dims:
            output_size = output_size[batch:]
        if len(output_size) != dims:
            raise ValueError(f"ConvTranspose{dims}D: for {input.dim()}D input, output_size must "
                             f"have {dims} or {batch + dims} elements (got {len(output_size)})")
        low = [(input.size(d + batch) - 1) * self.stride[d] - 2 * self.padding[d]
               + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(dims)]
        high = [n + s - 1 for n, s in zip(low, self.stride)]
        if any(not lo <= n <= hi for n, lo, hi in zip(output_size, low, high)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes range "
                             f"from {low} to {high} (for an input of {input.size()[2:]})")
        return [n - lo for n, lo in zip(output_size, low)]


class ConvTranspose1d(_ConvTransposeNd):
    """A transposed 1-d convolution of (N, C, L) inputs."""

    dims = 1
    function = F.conv_transpose1d


class ConvTranspose2d(_ConvTransposeNd):
    """A transposed 2-d convolution of (N, C, H, W) inputs."""

    dims = 2
    function = F.conv_transpose2d


class ConvTranspose3d(_ConvTransposeNd):
    """A transposed 3-d convolution of (N, C, D, H, W) inputs."""

    dims = 3
    function = F.conv_transpose3d


class MaxPool2d(Module):
    """The largest value of each window (``stride`` defaults to the kernel size)."""

    function = F.max_pool2d

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return type(self).function(input, self.kernel_size, self.stride, self.padding,
                                   self.dilation, self.ceil_mode, self.return_indices)

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
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding, self.ceil_mode = _ntuple(padding, 1), ceil_mode
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


class UpsamplingNearest2d(Upsample):
    """``Upsample`` by 'nearest' (an older spelling)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample`` by 'bilinear' with ``align_corners=True`` (an older spelling)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
