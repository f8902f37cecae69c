"""2-d convolution and max pooling on (N, C, H, W) arrays, through windows of the input.

Note [windows]: a strided view lays every kH x kW window of the (padded) input side by side,
``(N, C, kH, kW, oH, oW)``, without copying; a convolution is then one ``tensordot`` of the
windows with the weight, and max pooling one ``max`` over the window axes.  The backwards add
the gradient of each window position back into a zero input, one kernel offset at a time.

Values agree with torch to float32 rounding (its kernels sum in another order); grad_fn
names, shapes, strides and errors are torch's.  The gradients of a convolution's backward
(double backward) are not implemented: asking for them raises.
"""

import numpy as np

from ._registry import declare, needs_grad, record, wrap_result
from .pointwise import check_same_device

__all__ = ["conv2d", "max_pool2d", "pair"]


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _out_size(n, k, stride, pad, dil, ceil=False):
    span = n + 2 * pad - dil * (k - 1) - 1
    out = (span + (stride - 1 if ceil else 0)) // stride + 1
    if ceil and (out - 1) * stride >= n + pad:  # the last window must start inside the input
        out -= 1
    return out


def _windows(x, k, stride, dil, out):
    """Note [windows]: the (N, C, kH, kW, oH, oW) view of the padded input ``x``."""
    n, c, _, _ = x.shape
    s = x.strides
    return np.lib.stride_tricks.as_strided(
        x, (n, c, k[0], k[1], out[0], out[1]),
        (s[0], s[1], s[2] * dil[0], s[3] * dil[1], s[2] * stride[0], s[3] * stride[1]),
        writeable=False)


def _pad(x, padding, value=0.0):
    ph, pw = padding
    if not ph and not pw:
        return x
    return np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=value)


def _add_windows(dx, dcols, stride, dil, out):
    """The adjoint of ``_windows``: window gradients (N, C, kH, kW, oH, oW) summed into dx."""
    for i in range(dcols.shape[2]):
        for j in range(dcols.shape[3]):
            h, w = i * dil[0], j * dil[1]
            dx[:, :, h:h + stride[0] * out[0]:stride[0],
               w:w + stride[1] * out[1]:stride[1]] += dcols[:, :, i, j]


def _check_cpu(x):
    if x._backend.xp is not np:
        raise NotImplementedError("doctensor's conv2d and max_pool2d run on NumPy arrays only "
                                  "(the CPU and the emulated CUDA device)")


# -- conv2d ---------------------------------------------------------------------------------


@declare("convolution", "ConvolutionBackward0", ("input", "weight", "bias"),
         saves={"input": (1,), "weight": (0,)})
def _conv(xp, x, w, b, stride, padding, dilation):
    k, out = w.shape[2:], _conv_out(x.shape, w.shape, stride, padding, dilation)
    cols = _windows(_pad(x, padding), k, stride, dilation, out)
    y = np.tensordot(cols, w, axes=([1, 2, 3], [1, 2, 3]))  # (N, oH, oW, O)
    if b is not None:
        y += b
    return y.transpose(0, 3, 1, 2).copy(order="C")  # a copy: torch's strides for a size-1 dim


def _conv_out(xshape, wshape, stride, padding, dilation):
    return tuple(_out_size(xshape[2 + i], wshape[2 + i], stride[i], padding[i], dilation[i])
                 for i in range(2))


@_conv.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    g = grad._data
    stride, padding, dilation = ctx.stride, ctx.padding, ctx.dilation
    out = g.shape[2:]
    gx = gw = gb = None
    if n[0]:
        shape, (ph, pw) = ctx.input_meta[0][0], padding
        dcols = np.tensordot(g, ctx.weight._data, axes=([1], [0])).transpose(0, 3, 4, 5, 1, 2)
        dx = np.zeros(shape[:2] + (shape[2] + 2 * ph, shape[3] + 2 * pw), g.dtype)
        _add_windows(dx, dcols, stride, dilation, out)
        gx = dx[:, :, ph:ph + shape[2], pw:pw + shape[3]]
    if n[1]:
        k = ctx.input_meta[1][0][2:]
        cols = _windows(_pad(ctx.input._data, padding), k, stride, dilation, out)
        gw = np.tensordot(g, cols, axes=([0, 2, 3], [0, 4, 5]))
    if n[2]:
        gb = g.sum(axis=(0, 2, 3))
    deps = ((grad, ctx.weight if n[0] else None), (grad, ctx.input if n[1] else None), (grad,))
    return tuple(None if a is None else _no_double_backward(np.ascontiguousarray(a), *d)
                 for a, d in zip((gx, gw, gb), deps))


@declare("convolution_backward", "ConvolutionBackwardBackward0", ("grad_output",))
def _conv_grad(xp, g):
    return g


@_conv_grad.def_backward
def _(ctx, grad):
    raise NotImplementedError("doctensor: the double backward of conv2d is not implemented")


def _no_double_backward(array, grad, *tensors):
    """A gradient made from ``grad`` and ``tensors``; under create_graph (when one of them
    requires grad), the output of a node that refuses to go further."""
    result = wrap_result(array, grad)
    if needs_grad((grad, *(t for t in tensors if t is not None))):
        record(_conv_grad, (grad,), (result,))
    return result


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv2d`` for (N, C, H, W) or unbatched (C, H, W) inputs, ``groups=1``."""
    if groups != 1:
        raise NotImplementedError("doctensor's conv2d supports groups=1 only")
    _check_cpu(x)
    if x.dim() == 3:
        return conv2d(x.unsqueeze(0), weight, bias, stride, padding, dilation).squeeze(0)
    if x.dim() != 4:
        raise RuntimeError(f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
                           f"input of size: {list(x.shape)}")
    check_same_device([t for t in (x, weight, bias) if t is not None])
    stride, padding, dilation = pair(stride), pair(padding), pair(dilation)
    if x.shape[1] != weight.shape[1]:
        raise RuntimeError(
            f"Given groups=1, weight of size {list(weight.shape)}, expected input"
            f"{list(x.shape)} to have {weight.shape[1]} channels, but got {x.shape[1]} "
            f"channels instead")
    padded = [x.shape[2 + i] + 2 * padding[i] for i in range(2)]
    span = [dilation[i] * (weight.shape[2 + i] - 1) + 1 for i in range(2)]
    if padded[0] < span[0] or padded[1] < span[1]:
        raise RuntimeError(
            f"Calculated padded input size per channel: ({padded[0]} x {padded[1]}). Kernel "
            f"size: ({span[0]} x {span[1]}). Kernel size can't be greater than actual input "
            "size")
    attrs = {"stride": stride, "padding": padding, "dilation": dilation}
    out = _conv.forward(np, x._data, weight._data, None if bias is None else bias._data,
                        **attrs)
    result = wrap_result(out, x)
    if needs_grad((x, weight, bias)):
        record(_conv, (x, weight, bias), (result,), attrs)
    return result


# -- max_pool2d -----------------------------------------------------------------------------


@declare("max_pool2d_with_indices", "MaxPool2DWithIndicesBackward0")
def _max_pool(xp, x, kernel, stride, padding, dilation, ceil_mode):
    out = tuple(_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i],
                          ceil_mode) for i in range(2))
    padded = _pad(x, padding, -np.inf)
    need = [(out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 for i in range(2)]
    if need[0] > padded.shape[2] or need[1] > padded.shape[3]:  # ceil_mode's partial windows
        extra = ((0, 0), (0, 0), (0, max(0, need[0] - padded.shape[2])),
                 (0, max(0, need[1] - padded.shape[3])))
        padded = np.pad(padded, extra, constant_values=-np.inf)
    cols = _windows(padded, kernel, stride, dilation, out)
    n, c = x.shape[:2]
    flat = cols.transpose(0, 1, 4, 5, 2, 3).reshape(n, c, out[0], out[1], -1)
    where = flat.argmax(axis=-1)
    nan = np.isnan(flat).any(axis=-1)  # torch's max: NaN wins
    if nan.any():
        where = np.where(nan, np.isnan(flat).argmax(axis=-1), where)
    values = np.take_along_axis(flat, where[..., None], -1)[..., 0]
    return np.ascontiguousarray(values), where


@_max_pool.def_backward
def _(ctx, grad):
    x_shape = ctx.input_meta[0][0]
    kernel, stride, dilation, padding = ctx.kernel, ctx.stride, ctx.dilation, ctx.padding
    where = ctx.attrs["where"]
    g = grad._data
    dcols = np.zeros(g.shape + (kernel[0] * kernel[1],), g.dtype)
    np.put_along_axis(dcols, where[..., None], g[..., None], -1)
    dcols = dcols.reshape(g.shape + tuple(kernel)).transpose(0, 1, 4, 5, 2, 3)
    out = g.shape[2:]
    size = [max(x_shape[2 + i] + 2 * padding[i],
                (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1) for i in range(2)]
    dx = np.zeros(x_shape[:2] + tuple(size), g.dtype)
    _add_windows(dx, dcols, stride, dilation, out)
    ph, pw = padding
    return (_no_double_backward(
        np.ascontiguousarray(dx[:, :, ph:ph + x_shape[2], pw:pw + x_shape[3]]), grad),)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """``F.max_pool2d`` for (N, C, H, W) or unbatched (C, H, W) inputs."""
    _check_cpu(x)
    if x.dim() == 3:
        return max_pool2d(x.unsqueeze(0), kernel_size, stride, padding, dilation,
                          ceil_mode).squeeze(0)
    kernel = pair(kernel_size)
    stride = kernel if stride is None or stride == [] else pair(stride)
    padding, dilation = pair(padding), pair(dilation)
    for k, p, d in zip(kernel, padding, dilation):  # torch's two checks, in its order
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    if padding[0] > kernel[0] // 2 or padding[1] > kernel[1] // 2:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, "
                           f"kH = {kernel[0]}")
    out = tuple(_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i],
                          ceil_mode) for i in range(2))
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(f"Given input size: ({x.shape[1]}x{x.shape[2]}x{x.shape[3]}). "
                           f"Calculated output size: ({x.shape[1]}x{out[0]}x{out[1]}). Output "
                           "size is too small")
    attrs = {"kernel": kernel, "stride": stride, "padding": padding, "dilation": dilation,
             "ceil_mode": ceil_mode}
    values, where = _max_pool.forward(np, x._data, **attrs)
    result = wrap_result(values, x)
    if needs_grad((x,)):
        record(_max_pool, (x,), (result,), {**attrs, "where": where})
    return result
