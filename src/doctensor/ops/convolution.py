"""2-d convolution and pooling on (N, C, H, W) arrays, through windows of the input.

Note [windows]: a strided view lays every kH x kW window of the (padded) input side by side,
``(N, C, kH, kW, oH, oW)``, without copying; a convolution is then one ``tensordot`` of the
windows with the weight, and max or average pooling one reduction over the window axes
(adaptive average pooling takes a window per output position).  The backwards add
the gradient of each window position back into a zero input, one kernel offset at a time.

Convolution and average values agree with torch to float32 rounding (its kernels sum in
another order), max pooling exactly; grad_fn names, shapes, strides and errors are torch's.
Under create_graph the gradients come from torch's nodes (``ConvolutionBackwardBackward0``,
``MaxPool2DWithIndicesBackwardBackward0`` ...), whose backwards are written with these ops:
the gradients are linear in the output gradient, so differentiating them again convolves or
pools once more.
"""

import numpy as np

from .._tensor_base import warn_once
from ._dispatch import apply, check_same_device
from ._registry import declare
from .creation import from_array, zeros_like
from .joining import constant_pad

__all__ = ["conv1d", "conv2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "pair"]


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


def _span(out, k, stride, dil):
    """How far ``out`` windows of ``k`` (dilated) elements, ``stride`` apart, reach."""
    return (out - 1) * stride + dil * (k - 1) + 1


def _window_gradient(shape, dcols, stride, dil, padding):
    """The adjoint of ``_windows``: window gradients (N, C, kH, kW, oH, oW) summed back into
    a zero input of ``shape`` (padded, with room for ceil_mode's last windows), the padding
    then cut off."""
    k, out = dcols.shape[2:4], dcols.shape[4:]
    size = [max(shape[2 + i] + 2 * padding[i], _span(out[i], k[i], stride[i], dil[i]))
            for i in range(2)]
    dx = np.zeros(tuple(shape[:2]) + tuple(size), dcols.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            h, w = i * dil[0], j * dil[1]
            dx[:, :, h:h + stride[0] * out[0]:stride[0],
               w:w + stride[1] * out[1]:stride[1]] += dcols[:, :, i, j]
    ph, pw = padding
    return dx[:, :, ph:ph + shape[2], pw:pw + shape[3]]


def _check_cpu(x):
    if x._backend.is_real_gpu:
        raise NotImplementedError("doctensor's convolution and pooling run on NumPy arrays "
                                  "only (the CPU and the emulated CUDA device)")


def _pool_args(x, kernel_size, stride, padding):
    """A pool's kernel, stride (the kernel's when not given) and padding, as pairs."""
    _check_cpu(x)
    kernel = pair(kernel_size)
    return kernel, kernel if stride is None or stride == [] else pair(stride), pair(padding)


def _batched(forward):
    """A pool's forward (or its gradient's) for (N, C, H, W) arrays, also taking unbatched
    (C, H, W) ones as a batch of one: torch pools those itself, with no squeeze in the graph.
    Every array argument gets the batch dim, and every array result loses it."""
    def run(xp, *arrays, **attrs):
        if arrays[0].ndim != 3:
            return forward(xp, *arrays, **attrs)
        out = forward(xp, *(a[None] for a in arrays), **attrs)
        return tuple(o[0] for o in out) if isinstance(out, tuple) else out[0]
    return run


# -- conv2d ---------------------------------------------------------------------------------


def _by_group(groups, channels, fn):
    """``fn(c, o)`` for each group's slices of input channels ``c`` and of output channels
    ``o`` (``channels``: the input's and the output's), joined along the last axis."""
    cg, og = channels[0] // groups, channels[1] // groups
    parts = [fn(slice(g * cg, (g + 1) * cg), slice(g * og, (g + 1) * og)) for g in range(groups)]
    return parts[0] if groups == 1 else np.concatenate(parts, axis=-1)


@declare("convolution", "ConvolutionBackward0", ("input", "weight", "bias"),
         saves=dict.fromkeys(("input", "weight"), ("input", "weight", "bias")))
def _conv(xp, x, w, b, stride, padding, dilation, groups=1):
    if len(stride) == 1:  # conv1d: a height of 1
        return _conv.forward(xp, _with_height(x), _with_height(w), b, (1, *stride),
                             (0, *padding), (1, *dilation), groups)[:, :, 0]
    k, out = w.shape[2:], _conv_out(x.shape, w.shape, stride, padding, dilation)
    cols = _windows(_pad(x, padding), k, stride, dilation, out)
    y = _by_group(groups, (x.shape[1], w.shape[0]), lambda c, o: np.tensordot(
        cols[:, c], w[o], axes=([1, 2, 3], [1, 2, 3])))  # (N, oH, oW, O)
    if b is not None:
        y += b
    return y.transpose(0, 3, 1, 2).copy(order="C")  # a copy: torch's strides for a size-1 dim


def _conv_out(xshape, wshape, stride, padding, dilation):
    return tuple(_out_size(xshape[2 + i], wshape[2 + i], stride[i], padding[i], dilation[i])
                 for i in range(2))


@_conv.def_backward
def conv_backward(ctx, grad):
    shapes = (ctx.input_meta[0] or (None,))[0], (ctx.input_meta[1] or (None,))[0]
    return convolution_backward(grad, ctx.input, ctx.weight, ctx.needs_input_grad,
                                _conv_attrs(ctx), shapes)


def _conv_attrs(ctx):
    return {"stride": ctx.stride, "padding": ctx.padding, "dilation": ctx.dilation,
            "groups": ctx.groups}


def _with_height(a):
    """A 1-d convolution's (N, C, L) array as (N, C, 1, L) (None stays None)."""
    return None if a is None else a[:, :, None]


def _conv_gradients(xp, g, x, w, output_mask, shapes, stride, padding, dilation, groups):
    """The arrays of conv2d's gradients (None where ``output_mask`` says no) for the output
    gradient ``g``: the input's needs the weight ``w``, the weight's the input ``x``;
    ``shapes`` are the input's and the weight's."""
    if len(stride) == 1:  # conv1d: a height of 1
        grads = _conv_gradients(xp, _with_height(g), _with_height(x), _with_height(w),
                                output_mask,
                                tuple(s and (*s[:2], 1, *s[2:]) for s in shapes),
                                (1, *stride), (0, *padding), (1, *dilation), groups)
        return tuple(a if a is None or a.ndim == 1 else a[:, :, 0] for a in grads)
    out, mask = g.shape[2:], output_mask
    gx = gw = gb = None
    if mask[0]:
        channels = (shapes[0][1], g.shape[1])
        dcols = _by_group(groups, channels, lambda c, o: np.moveaxis(  # (N, oH, oW, kH, kW, Cg)
            np.tensordot(g[:, o], w[o], axes=([1], [0])), 3, -1))
        dcols = np.moveaxis(dcols, -1, 3).transpose(0, 3, 4, 5, 1, 2)
        gx = _window_gradient(shapes[0], dcols, stride, dilation, padding)
    if mask[1]:
        cols = _windows(_pad(x, padding), shapes[1][2:], stride, dilation, out)
        gw = _by_group(groups, (x.shape[1], g.shape[1]), lambda c, o: np.moveaxis(np.tensordot(
            g[:, o], cols[:, c], axes=([0, 2, 3], [0, 4, 5])), 0, -1))  # (Cg, kH, kW, O)
        gw = np.moveaxis(gw, -1, 0)
    if mask[2]:
        gb = g.sum(axis=(0, 2, 3))
    return gx, gw, gb


_conv_backward = declare("convolution_backward", "ConvolutionBackwardBackward0",
                         ("grad_output", "input", "weight"),
                         outputs=("grad_input", "grad_weight", "grad_bias"),
                         saves={"grad_output": ("input", "weight"), "input": "grad_output",
                                "weight": "grad_output"},
                         unsaved=("output_mask", "shapes"))(_conv_gradients)


def convolution_backward(grad, x, w, mask, attrs, shapes):
    """conv2d's gradients for the output gradient ``grad`` (tensors, None where ``mask``
    says no), as torch's convolution_backward: under create_graph one
    ConvolutionBackwardBackward0 node makes all three, and differentiates again."""
    return apply(_conv_backward, grad, x, w, output_mask=tuple(mask), shapes=shapes, **attrs)


@_conv_backward.def_backward
def conv_backward_backward(ctx, grads):
    """Each of the three gradients is linear in two of the inputs; each term reads only what
    the node saved for the input it differentiates."""
    ggx, ggw, ggb = grads
    n, attrs, shapes = ctx.needs_input_grad, _conv_attrs(ctx), ctx.shapes
    dims = len(attrs["stride"])
    dg = dx = dw = None
    if n[0]:  # the gradients are linear in the output gradient
        terms = (_convolution(ggx, ctx.weight, None, **attrs, dims=dims) if ggx is not None
                 else None,
                 _convolution(ctx.input, ggw, None, **attrs, dims=dims) if ggw is not None
                 else None,
                 ggb.reshape(1, -1, *(1,) * dims).expand(ctx.input_meta[0][0])
                 if ggb is not None else None)
        for term in terms:
            if term is not None:
                dg = term if dg is None else dg + term
    if n[1] and ggw is not None:  # the weight's gradient is linear in the input
        dx = convolution_backward(ctx.grad_output, None, ggw, (True, False, False), attrs,
                                  shapes)[0]
    if n[2] and ggx is not None:  # the input's gradient is linear in the weight
        dw = convolution_backward(ctx.grad_output, ggx, None, (False, True, False), attrs,
                                  shapes)[1]
    return dg, dx, dw


def _pool_gradient_op(name, gradient, pool_again, unsaved=()):
    """A pool's backward as the op torch records under create_graph (inputs: the output
    gradient and the pool's input; forward: ``gradient``): the gradient is linear in the
    output gradient, so its own backward is ``pool_again(ctx, gg)`` (the pool, or its
    selection, applied to gg), and the pool's input gets zeros, as in torch."""
    op = declare(name, name + "Backward0", ("grad_output", "self"), saves={"self": "self"},
                 unsaved=unsaved)(_batched(gradient))

    @op.def_backward
    def pool_gradient_backward(ctx, gg):
        n = ctx.needs_input_grad
        return (pool_again(ctx, gg) if n[0] else None, zeros_like(ctx.self) if n[1] else None)
    return op


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv2d`` for (N, C, H, W) or unbatched (C, H, W) inputs; with ``groups``, each
    group of input channels meets its own share of the weight's output channels."""
    return _convolution(x, weight, bias, stride, padding, dilation, groups, 2)


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv1d`` for (N, C, L) or unbatched (C, L) inputs: conv2d's arithmetic on a
    height of 1, recorded as torch records it (one ConvolutionBackward0, 1-d attributes)."""
    return _convolution(x, weight, bias, stride, padding, dilation, groups, 1)


def _tuple(value, dims, name, k):
    """A convolution argument for a weight of ``k`` spatial dims: an int means one per dim
    of the function (conv``dims``d), and one value is repeated (torch's expansion)."""
    values = (value,) * dims if isinstance(value, int) else tuple(value)
    if len(values) == 1:
        return values * k
    if len(values) != k:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {k} "
                           f"values to match the convolution dimensions, but got "
                           f"{name}={list(values)}")
    return values


def _padding_mode(x, weight, stride, dilation, mode):
    """padding='valid' (none) or 'same' (the output as long as the input: half the dilated
    kernel on each side, and when that is odd one more at the end, as a copy of the input
    padded with zeros, as torch does): the input and the padding to convolve with."""
    if mode == "valid":
        return x, 0
    if mode != "same":
        raise RuntimeError(f"Invalid padding string: '{mode}'")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    if any(t % 2 for t in total):
        warn_once("Using padding='same' with even kernel lengths and odd dilation may require a "
                  "zero-padded copy of the input be created", stacklevel=5)
        x = constant_pad(x, [p for t in reversed(total) for p in (0, t % 2)])
    return x, tuple(t // 2 for t in total)


def _convolution(x, weight, bias, stride, padding, dilation, groups, dims):
    """conv1d (``dims`` 1) and conv2d: torch's checks in its order, then the op."""
    _check_cpu(x)
    if x.dim() == dims + 1:  # unbatched
        return _convolution(x.unsqueeze(0), weight, bias, stride, padding, dilation, groups,
                            dims).squeeze(0)
    if x.dim() != dims + 2:
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                           f"conv{dims}d, but got input of size: {list(x.shape)}")
    check_same_device([t for t in (x, weight, bias) if t is not None])
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    k = weight.dim() - 2
    stride = _tuple(stride, dims, "stride", k)
    if isinstance(padding, str):
        dilation = _tuple(dilation, dims, "dilation", k)
        x, padding = _padding_mode(x, weight, stride, dilation, padding)
    padding = _tuple(padding, dims, "padding", k)
    dilation = _tuple(dilation, dims, "dilation", k)
    if weight.dim() != x.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {list(weight.shape)}, but got {x.dim()}-"
                           f"dimensional input of size {list(x.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension "
            f"0, but got weight of size [{list(weight.shape)}] instead")
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
            f"{list(x.shape)} to have {weight.shape[1] * groups} channels, but got "
            f"{x.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional "
            f"with {weight.shape[0]} elements, but got bias of size {list(bias.shape)} instead")
    padded = [x.shape[2 + i] + 2 * padding[i] for i in range(dims)]
    span = [_span(1, weight.shape[2 + i], 1, dilation[i]) for i in range(dims)]
    if any(p < k for p, k in zip(padded, span)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, span))}). Kernel size can't be greater than "
            "actual input size")
    return apply(_conv, x, weight, bias, stride=stride, padding=padding, dilation=dilation,
                 groups=groups)


def _check_pool_output(x, kernel, stride, padding, dilation, ceil_mode):
    """torch's checks of a pool: its padding, then an output of at least one element."""
    _check_pool_padding(kernel, padding, dilation)
    c, h, w = x.shape[-3:]
    out = tuple(_out_size(n, kernel[i], stride[i], padding[i], dilation[i], ceil_mode)
                for i, n in enumerate((h, w)))
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: "
                           f"({c}x{out[0]}x{out[1]}). Output size is too small")


def _check_pool_padding(kernel, padding, dilation):
    """torch's two checks of a pool's padding, in its order: at most half the effective
    kernel in each dim, then at most half the kernel."""
    for k, p, d in zip(kernel, padding, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    if padding[0] > kernel[0] // 2 or padding[1] > kernel[1] // 2:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, "
                           f"kH = {kernel[0]}")


# -- max_pool2d -----------------------------------------------------------------------------


@declare("max_pool2d_with_indices", "MaxPool2DWithIndicesBackward0", outputs=("result", "where"),
         saves={"self": "self", "where": "self"}, unsaved=("where",))
def _max_pool(xp, x, kernel, stride, padding, dilation, ceil_mode):
    """The maxima of the windows, and where in its window each one is (kept batched)."""
    x4 = x[None] if x.ndim == 3 else x
    out = tuple(_out_size(x4.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i],
                          ceil_mode) for i in range(2))
    padded = _pad_to(_pad(x4, padding, -np.inf), kernel, stride, dilation, out, -np.inf)
    cols = _windows(padded, kernel, stride, dilation, out)
    n, c = x4.shape[:2]
    flat = cols.transpose(0, 1, 4, 5, 2, 3).reshape(n, c, out[0], out[1], -1)
    where = flat.argmax(axis=-1)
    nan = np.isnan(flat).any(axis=-1)  # torch's max: NaN wins
    if nan.any():
        where = np.where(nan, np.isnan(flat).argmax(axis=-1), where)
    values = np.take_along_axis(flat, where[..., None], -1)[..., 0]
    return (values[0] if x.ndim == 3 else values), where


@_max_pool.def_backward
def max_pool_backward(ctx, grads):
    return (apply(_MAX_POOL_GRAD, grads[0], ctx.self, where=ctx.where._data, **ctx.attrs),)


def _max_pool_gradient(xp, g, x, kernel, stride, padding, dilation, ceil_mode, where):
    """Each window's gradient to where its maximum was."""
    dcols = np.zeros(g.shape + (kernel[0] * kernel[1],), g.dtype)
    np.put_along_axis(dcols, where[..., None], g[..., None], -1)
    dcols = dcols.reshape(g.shape + tuple(kernel)).transpose(0, 1, 4, 5, 2, 3)
    return _window_gradient(x.shape, dcols, stride, dilation, padding)


def _max_positions(ctx, shape):
    """The flat index in its (H, W) plane of each output's maximum (torch's indices)."""
    where, kw = ctx.attrs["where"], ctx.kernel[1]
    oh, ow = where.shape[-2:]
    (sh, sw), (ph, pw), (dh, dw) = ctx.stride, ctx.padding, ctx.dilation
    rows = np.arange(oh)[:, None] * sh - ph + where // kw * dh
    cols = np.arange(ow)[None, :] * sw - pw + where % kw * dw
    index = rows * shape[-1] + cols
    return index[0] if len(shape) == 3 else index


def _select_maxima(ctx, gg):
    """gg at each window's maximum: torch's max_pool_double_backward, a gather."""
    index = from_array(_max_positions(ctx, ctx.self.shape), gg)
    return gg.flatten(-2).gather(-1, index.flatten(-2)).view_as(index)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """``F.max_pool2d`` for (N, C, H, W) or unbatched (C, H, W) inputs."""
    kernel, stride, padding = _pool_args(x, kernel_size, stride, padding)
    dilation = pair(dilation)
    _check_pool_output(x, kernel, stride, padding, dilation, ceil_mode)
    return apply(_max_pool, x, kernel=kernel, stride=stride, padding=padding, dilation=dilation,
                 ceil_mode=ceil_mode)[0]


# -- avg_pool2d -----------------------------------------------------------------------------


def _avg_divisors(size, kernel, stride, padding, out, count_include_pad):
    """Per output position along one dim: torch's window clipped to the padded input (its
    pool size) and to the input (what count_include_pad=False counts)."""
    start = np.arange(out) * stride - padding
    end = np.minimum(start + kernel, size + padding)
    pool = end - start
    inside = np.minimum(end, size) - np.maximum(start, 0)
    return pool if count_include_pad else inside


@declare("avg_pool2d", "AvgPool2DBackward0", saves={"self": "self"})
@_batched
def _avg_pool(xp, x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    out = tuple(_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], 1, ceil_mode)
                for i in range(2))
    padded = _pad_to(_pad(x, padding), kernel, stride, (1, 1), out)
    sums = _windows(padded, kernel, stride, (1, 1), out).sum(axis=(2, 3), dtype=x.dtype)
    return (sums / _avg_divide(x.shape, kernel, stride, padding, out, count_include_pad,
                               divisor_override)).astype(x.dtype)


def _pad_to(padded, kernel, stride, dilation, out, value=0.0):
    """``padded`` continued with ``value`` where ceil_mode's last windows reach past it."""
    extra = [max(0, _span(out[i], kernel[i], stride[i], dilation[i]) - padded.shape[2 + i])
             for i in range(2)]
    if not any(extra):
        return padded
    return np.pad(padded, ((0, 0), (0, 0), (0, extra[0]), (0, extra[1])),
                  constant_values=value)


def _avg_divide(shape, kernel, stride, padding, out, count_include_pad, divisor_override):
    if divisor_override:
        return divisor_override
    h, w = (_avg_divisors(shape[2 + i], kernel[i], stride[i], padding[i], out[i],
                          count_include_pad) for i in range(2))
    return h[:, None] * w[None, :]


@_avg_pool.def_backward
def avg_pool_backward(ctx, grad):
    return (apply(_AVG_POOL_GRAD, grad, ctx.self, **ctx.attrs),)


def _avg_pool_gradient(xp, g, x, kernel, stride, padding, ceil_mode, count_include_pad,
                       divisor_override):
    """Each window's gradient shared among the elements it averaged."""
    out = g.shape[2:]
    share = (g / _avg_divide(x.shape, kernel, stride, padding, out, count_include_pad,
                             divisor_override)).astype(g.dtype)
    dcols = np.broadcast_to(share[:, :, None, None], g.shape[:2] + tuple(kernel) + out)
    return _window_gradient(x.shape, dcols, stride, (1, 1), padding)


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """``F.avg_pool2d`` for (N, C, H, W) or unbatched (C, H, W) inputs."""
    kernel, stride, padding = _pool_args(x, kernel_size, stride, padding)
    _check_pool_output(x, kernel, stride, padding, (1, 1), ceil_mode)
    return apply(_avg_pool, x, kernel=kernel, stride=stride, padding=padding,
                 ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                 divisor_override=divisor_override)


# -- adaptive_avg_pool2d --------------------------------------------------------------------


def _adaptive_bounds(size, out):
    """torch's windows: [floor(i * size / out), ceil((i + 1) * size / out))."""
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


@declare("adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", saves={"self": "self"})
@_batched
def _adaptive_avg(xp, x, output_size):
    rows, cols = (_adaptive_bounds(x.shape[2 + i], output_size[i]) for i in range(2))
    out = np.empty(x.shape[:2] + tuple(output_size), x.dtype)
    for i, (h0, h1) in enumerate(rows):
        for j, (w0, w1) in enumerate(cols):
            out[:, :, i, j] = x[:, :, h0:h1, w0:w1].mean(axis=(2, 3), dtype=x.dtype)
    return out


@_adaptive_avg.def_backward
def adaptive_avg_backward(ctx, grad):
    return (apply(_ADAPTIVE_GRAD, grad, ctx.self, **ctx.attrs),)


def _adaptive_gradient(xp, g, x, output_size):
    """Each window's gradient shared among the elements it averaged."""
    rows, cols = (_adaptive_bounds(x.shape[2 + i], g.shape[2 + i]) for i in range(2))
    dx = np.zeros(x.shape, g.dtype)
    for i, (h0, h1) in enumerate(rows):
        for j, (w0, w1) in enumerate(cols):
            dx[:, :, h0:h1, w0:w1] += (g[:, :, i, j] / ((h1 - h0) * (w1 - w0)))[:, :, None, None]
    return dx


_MAX_POOL_GRAD = _pool_gradient_op("MaxPool2DWithIndicesBackward", _max_pool_gradient,
                                   _select_maxima, unsaved=("where",))
_AVG_POOL_GRAD = _pool_gradient_op("AvgPool2DBackward", _avg_pool_gradient, lambda ctx, gg:
                                   avg_pool2d(gg, ctx.kernel, ctx.stride, ctx.padding,
                                              ctx.ceil_mode, ctx.count_include_pad,
                                              ctx.divisor_override))
_ADAPTIVE_GRAD = _pool_gradient_op("AdaptiveAvgPool2DBackward", _adaptive_gradient,
                                   lambda ctx, gg: adaptive_avg_pool2d(gg, ctx.output_size))


def adaptive_avg_pool2d(x, output_size):
    """Averages over windows that cut the input into ``output_size``; (1, 1) is torch's mean
    over the last two dims (MeanBackward1)."""
    _check_cpu(x)
    size = pair(output_size)
    size = tuple(x.shape[-2 + i] if size[i] is None else size[i] for i in range(2))
    if size == (1, 1):
        return x.mean((-1, -2), keepdim=True)
    return apply(_adaptive_avg, x, output_size=size)
