"""Convolutions (1-d, 2-d, 3-d, and their transposed forms) and pooling, through windows of
the input.

Note [windows]: a strided view lays every window of the (padded) input side by side,
``(N, C, *kernel, *out)`` (``(N, C, kH, kW, oH, oW)`` in 2-d), without copying.  A
convolution copies them into a matrix with a row per channel and kernel offset (Note
[columns]) and multiplies it by the weight; max pooling scans them as torch does (Note [max
scan]), average pooling sums over the window axes (adaptive average pooling takes a window
per output position).  The backwards add the gradient of each window position back into a
zero input, one kernel offset at a time (max pools: at each maximum, in torch's order).  A
transposed convolution is such a backward (Note [transposed convolution]); torch records
every convolution as its one ``convolution`` op.

Convolution and average values agree with torch to float32 rounding (its kernels sum in
another order), max pooling exactly; grad_fn names, shapes, strides and errors are torch's.
Under create_graph the gradients come from torch's nodes (``ConvolutionBackwardBackward0``,
``MaxPool2DWithIndicesBackwardBackward0`` ...), whose backwards are written with these ops:
the gradients are linear in the output gradient, so differentiating them again convolves or
pools once more.
"""

import itertools

import numpy as np

from .._dtypes import bool_, int64
from .._tensor_base import warn_once
from ..autograd.grad_mode import is_grad_enabled
from ._dispatch import apply, check_same_device
from ._registry import declare
from .creation import from_array, zeros_like
from .joining import constant_pad

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "max_pool2d", "max_pool2d_with_indices", "max_pool3d_with_indices",
           "max_unpool2d", "max_unpool3d", "avg_pool2d", "avg_pool3d", "adaptive_avg_pool2d",
           "adaptive_avg_pool3d", "adaptive_max_pool2d", "adaptive_max_pool3d",
           "im2col", "col2im", "pair"]


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _out_size(n, k, stride, pad, dil, ceil=False):
    span = n + 2 * pad - dil * (k - 1) - 1
    out = (span + (stride - 1 if ceil else 0)) // stride + 1
    if ceil and (out - 1) * stride >= n + pad:  # the last window must start inside the input
        out -= 1
    return out


def _windows(x, k, stride, dil, out):
    """Note [windows]: the ``(N, C, *k, *out)`` view of the padded input ``x`` (any number of
    spatial dims: (N, C, kH, kW, oH, oW) in 2-d)."""
    s = x.strides[2:]
    return np.lib.stride_tricks.as_strided(
        x, x.shape[:2] + tuple(k) + tuple(out),
        x.strides[:2] + tuple(a * d for a, d in zip(s, dil))
        + tuple(a * t for a, t in zip(s, stride)), writeable=False)


def _pad(x, padding, value=0.0):
    """``x`` (N, C, *spatial) with ``padding`` elements of ``value`` on both sides of each
    spatial dim."""
    if not any(padding):
        return x
    sizes = [n + 2 * p for n, p in zip(x.shape[2:], padding)]
    out = np.full((*x.shape[:2], *sizes), value, x.dtype)
    out[(..., *(slice(p, p + n) for p, n in zip(padding, x.shape[2:])))] = x
    return out


def _span(out, k, stride, dil):
    """How far ``out`` windows of ``k`` (dilated) elements, ``stride`` apart, reach."""
    return (out - 1) * stride + dil * (k - 1) + 1


def _window_gradient(shape, dcols, stride, dil, padding):
    """The adjoint of ``_windows``: window gradients (N, C, kH, kW, oH, oW) summed back into
    a zero input of ``shape`` (padded, with room for ceil_mode's last windows), the padding
    then cut off."""
    d = len(stride)
    k, out = dcols.shape[2:2 + d], dcols.shape[2 + d:]
    size = [max(shape[2 + i] + 2 * padding[i], _span(out[i], k[i], stride[i], dil[i]))
            for i in range(d)]
    dx = np.zeros(tuple(shape[:2]) + tuple(size), dcols.dtype)
    for offset in itertools.product(*map(range, k)):
        at = tuple(slice(o * di, o * di + s * n, s)
                   for o, di, s, n in zip(offset, dil, stride, out))
        dx[(slice(None), slice(None), *at)] += dcols[(slice(None), slice(None), *offset)]
    return dx[(slice(None), slice(None),
               *(slice(p, p + n) for p, n in zip(padding, shape[2:])))]


def _check_cpu(x):
    if x._backend.is_real_gpu:
        raise NotImplementedError("doctensor's convolution and pooling run on NumPy arrays "
                                  "only (the CPU and the emulated CUDA device)")


def _pool_args(x, kernel_size, stride, padding):
    """A pool's kernel, stride (the kernel's when not given) and padding, as pairs."""
    _check_cpu(x)
    kernel = pair(kernel_size)
    return kernel, kernel if stride is None or stride == [] else pair(stride), pair(padding)


def _batched(forward, dims=2):
    """A pool's forward (or its gradient's) for (N, C, H, W) arrays (``dims`` spatial dims),
    also taking unbatched (C, H, W) ones as a batch of one: torch pools those itself, with no
    squeeze in the graph.  Every array argument gets the batch dim, and every array result
    loses it."""
    def run(xp, *arrays, **attrs):
        if arrays[0].ndim != dims + 1:
            return forward(xp, *arrays, **attrs)
        out = forward(xp, *(a[None] for a in arrays), **attrs)
        return tuple(o[0] for o in out) if isinstance(out, tuple) else out[0]
    return run


# -- conv2d ---------------------------------------------------------------------------------


def _columns(x, k, stride, dilation, out, flat):
    """Note [columns]: the windows of ``x`` (padded) as one ``(C * prod(k), N * positions)``
    matrix, a row per channel and kernel offset, a column per window, copied in that order
    so that each row is read from the input in long runs.  A convolution and its gradients
    are products with this matrix, built for a bounded number of images at a time
    (``_batch_parts``: its size stays bounded whatever the batch).  With every stride 1
    (``flat``), a window starts at each position of the flattened planes from the first
    window's origin to the last one's (``_flat_span``): a row is then one run per image
    instead of one per output row, and the columns between the windows are left over
    (``_at_windows`` skips them)."""
    if flat:
        places, span = _flat_span(x.shape, out)
        planes = x.reshape(*x.shape[:2], int(np.prod(x.shape[2:])))
        s = planes.strides
        lay = np.lib.stride_tricks.as_strided(
            planes, (x.shape[1], *k, x.shape[0], span),
            (s[1], *(s[2] * dl * p for dl, p in zip(dilation, places)), s[0], s[2]),
            writeable=False)
    else:
        d = len(k)
        lay = _windows(x, k, stride, dilation, out).transpose(
            1, *range(2, 2 + d), 0, *range(2 + d, 2 + 2 * d))
    return np.ascontiguousarray(lay).reshape(x.shape[1] * int(np.prod(k)),
                                             x.shape[0] * _positions(x.shape, out, flat))


def _flat_span(shape, out):
    """For windows of a (padded) input of ``shape`` along its flattened planes (Note
    [columns]): each spatial dim's step there, and how many positions the windows' origins
    take, the first to the last."""
    places = [int(np.prod(shape[3 + i:])) for i in range(len(out))]
    return places, sum((n - 1) * p for n, p in zip(out, places)) + 1


def _at_windows(a, n, shape, out, flat):
    """The ``(rows, n, *out)`` view of the windows in a ``(rows, n * positions)`` matrix
    laid out as Note [columns] (for a padded input of ``shape``)."""
    if not flat:
        return a.reshape(a.shape[0], n, *out)
    places, span = _flat_span(shape, out)
    rows = a.reshape(a.shape[0], n, span)
    return np.lib.stride_tricks.as_strided(
        rows, rows.shape[:2] + tuple(out), rows.strides[:2] + tuple(p * a.itemsize for p in places))


def _add_flat_windows(dcols, shape, k, dilation, out):
    """The adjoint of ``_columns(..., flat=True)``: each row of ``dcols`` added back along
    the flattened planes of a zero input of (padded) ``shape``, one kernel offset at a time
    (the order of ``_window_gradient``)."""
    places, span = _flat_span(shape, out)
    dx = np.zeros((shape[1], shape[0], int(np.prod(shape[2:]))), dcols.dtype)
    dcols = dcols.reshape(shape[1], int(np.prod(k)), shape[0], span)
    for at, offset in enumerate(itertools.product(*map(range, k))):
        start = sum(o * dl * p for o, dl, p in zip(offset, dilation, places))
        dx[:, :, start:start + span] += dcols[:, at]
    return dx.reshape(shape[1], shape[0], *shape[2:]).swapaxes(0, 1)


_PART_SIZE = 1 << 21  # about how many elements a column matrix holds (Note [columns])


def _batch_parts(n, rows, positions):
    """Slices of a batch of ``n`` whose column matrices (``rows`` by ``positions`` per image)
    hold about ``_PART_SIZE`` elements (at least one slice: an empty one for no images)."""
    step = max(1, _PART_SIZE // max(1, rows * positions))
    return [slice(i, i + step) for i in range(0, max(n, 1), step)]


def _positions(shape, out, flat):
    """How many columns an image has in Note [columns]."""
    return _flat_span(shape, out)[1] if flat else int(np.prod(out))


def _channel_rows(a):
    """(N, C, *spatial) as a (C, N * prod(spatial)) matrix, the columns of Note [columns]."""
    spatial = int(np.prod(a.shape[2:]))
    return a.reshape(*a.shape[:2], spatial).swapaxes(0, 1).reshape(a.shape[1], a.shape[0] * spatial)


def _per_group(groups, product, left, right):
    """``product(l, r)`` of each group's share of ``left`` and ``right`` (each split along
    its first axis), stacked along the first axis."""
    if groups == 1:
        return product(left, right)
    return np.concatenate([product(a, b) for a, b in zip(np.split(left, groups),
                                                         np.split(right, groups))])


@declare("convolution", "ConvolutionBackward0", ("input", "weight", "bias"),
         saves=dict.fromkeys(("input", "weight"), ("input", "weight", "bias")))
def _conv(xp, x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    """A convolution of any number of spatial dims; transposed, the adjoint of one (Note
    [transposed convolution])."""
    if transposed:
        y = _conv_gradients(xp, x, None, w, (True, False, False),
                            (_transposed_shape(x.shape, w.shape, stride, padding, dilation,
                                               output_padding, groups), None),
                            stride, padding, dilation, groups)[0]
        if b is not None:
            y += b.reshape(-1, *(1,) * len(stride))
        return y
    k, out = w.shape[2:], _conv_out(x.shape, w.shape, stride, padding, dilation)
    weights, flat = w.reshape(w.shape[0], -1), all(s == 1 for s in stride)
    y = np.empty((x.shape[0], w.shape[0], *out), np.result_type(x, w))
    padded = _pad(x, padding)
    for part in _batch_parts(x.shape[0], x.shape[1] * int(np.prod(k)),
                             _positions(padded.shape, out, flat)):
        xs = padded[part]
        z = _per_group(groups, np.matmul, weights, _columns(xs, k, stride, dilation, out, flat))
        if b is not None:
            z += b[:, None]
        y[part] = _at_windows(z, xs.shape[0], xs.shape, out, flat).swapaxes(0, 1)
    return y


def _conv_out(xshape, wshape, stride, padding, dilation):
    return tuple(_out_size(xshape[2 + i], wshape[2 + i], stride[i], padding[i], dilation[i])
                 for i in range(len(stride)))


def _transposed_shape(xshape, wshape, stride, padding, dilation, output_padding, groups):
    """The output shape of a transposed convolution: the input shape of the convolution it
    is the adjoint of."""
    return (xshape[0], wshape[1] * groups, *(
        (n - 1) * s - 2 * p + d * (k - 1) + op + 1 for n, k, s, p, d, op in zip(
            xshape[2:], wshape[2:], stride, padding, dilation, output_padding)))


@_conv.def_backward
def conv_backward(ctx, grad):
    shapes = (ctx.input_meta[0] or (None,))[0], (ctx.input_meta[1] or (None,))[0]
    return convolution_backward(grad, ctx.input, ctx.weight, ctx.needs_input_grad,
                                _conv_attrs(ctx), shapes)


def _conv_attrs(ctx):
    return {"stride": ctx.stride, "padding": ctx.padding, "dilation": ctx.dilation,
            "transposed": ctx.transposed, "output_padding": ctx.output_padding,
            "groups": ctx.groups}


def _conv_gradients(xp, g, x, w, output_mask, shapes, stride, padding, dilation, groups,
                    transposed=False, output_padding=()):
    """The arrays of a convolution's gradients (None where ``output_mask`` says no) for the
    output gradient ``g``: the input's needs the weight ``w``, the weight's the input ``x``;
    ``shapes`` are the input's and the weight's."""
    if transposed:
        return _transposed_gradients(xp, g, x, w, output_mask, shapes, stride, padding,
                                     dilation, groups)
    gx = gw = gb = None
    if output_mask[0] or output_mask[1]:
        gx, gw = _column_gradients(g, x, w, output_mask, shapes, stride, padding, dilation,
                                   groups)
    if output_mask[2]:
        gb = g.sum(axis=(0, *range(2, g.ndim)))
    return gx, gw, gb


def _column_gradients(g, x, w, mask, shapes, stride, padding, dilation, groups):
    """The input's gradient (the weight's share of each window, added back where the window
    lies) and the weight's (the windows' share), None where ``mask`` says no: products
    with the output gradient's columns (Note [columns]).  Along the flattened planes its
    left-over columns are zeros, which add nothing where the weight (for the input's) and
    the input (for the weight's) are finite."""
    xshape = shapes[0] if mask[0] else x.shape
    wshape = w.shape if mask[0] else shapes[1]
    k, out = wshape[2:], g.shape[2:]
    padded = (*xshape[:2], *(n + 2 * p for n, p in zip(xshape[2:], padding)))
    flat = all(s == 1 for s in stride) and all(
        bool(np.isfinite(a).all()) for a, m in zip((w, x), mask) if m)
    positions = _positions(padded, out, flat)
    weights = w.reshape(wshape[0], -1) if mask[0] else None
    inputs = _pad(x, padding) if mask[1] else None
    gx = np.empty(xshape, np.result_type(g, w)) if mask[0] else None
    gw = None
    for part in _batch_parts(xshape[0], xshape[1] * int(np.prod(k)), positions):
        gs = g[part]
        n = gs.shape[0]
        if flat:
            rows = np.zeros((gs.shape[1], n * positions), gs.dtype)
            _at_windows(rows, n, padded, out, True)[...] = gs.swapaxes(0, 1)
        else:
            rows = _channel_rows(gs)
        if mask[0]:
            gx[part] = _add_windows(_per_group(groups, lambda a, b: a.T @ b, weights, rows),
                                    (n, *xshape[1:]), k, stride, padding, dilation, out, flat)
        if mask[1]:
            term = _per_group(groups, lambda a, b: a @ b.T, rows,
                              _columns(inputs[part], k, stride, dilation, out, flat))
            gw = term if gw is None else gw + term
    return gx, None if gw is None else gw.reshape(wshape).astype(np.result_type(g, x),
                                                                 copy=False)


def _add_windows(dcols, shape, k, stride, padding, dilation, out, flat):
    """The adjoint of ``_columns``: each row of ``dcols`` added back where its windows lie
    in a zero input of ``shape`` (unpadded)."""
    if flat:
        padded = (*shape[:2], *(n + 2 * p for n, p in zip(shape[2:], padding)))
        dx = _add_flat_windows(dcols, padded, k, dilation, out)
        return dx[(..., *(slice(p, p + m) for p, m in zip(padding, shape[2:])))]
    dcols = dcols.reshape(shape[1], *k, shape[0], *out)
    return _window_gradient(shape, np.moveaxis(dcols, 1 + len(k), 0), stride, dilation,
                            padding)


def _transposed_gradients(xp, g, x, w, mask, shapes, stride, padding, dilation, groups):
    """Note [transposed convolution]: a transposed convolution is the adjoint (in its input)
    of the convolution with the same weight: its input's gradient is that convolution of
    ``g``, its weight's gradient that convolution's weight gradient with the roles of input
    and output gradient swapped."""
    gx = gw = gb = None
    if mask[0]:
        gx = _conv.forward(xp, g, w, None, stride, padding, dilation, False, (), groups)
        gx = gx[(slice(None), slice(None), *(slice(n) for n in shapes[0][2:]))]
    if mask[1]:
        gw = _conv_gradients(xp, x, g, None, (False, True, False), (g.shape, shapes[1]), stride,
                             padding, dilation, groups)[1]
    if mask[2]:
        gb = g.sum(axis=(0, *range(2, g.ndim)))
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
        terms = (apply(_conv, ggx, ctx.weight, None, **attrs) if ggx is not None else None,
                 apply(_conv, ctx.input, ggw, None, **attrs) if ggw is not None else None,
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
    """``F.conv1d`` for (N, C, L) or unbatched (C, L) inputs."""
    return _convolution(x, weight, bias, stride, padding, dilation, groups, 1)


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv3d`` for (N, C, D, H, W) or unbatched (C, D, H, W) inputs."""
    return _convolution(x, weight, bias, stride, padding, dilation, groups, 3)


def conv_transpose(dims):
    """``F.conv_transpose{dims}d``: the adjoint of conv{dims}d in its input (Note
    [transposed convolution]); the weight is ``(in, out / groups, *kernel)``."""
    def conv_transpose_nd(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                          groups=1, dilation=1):
        return _convolution(input, weight, bias, stride, padding, dilation, groups, dims,
                            True, output_padding)
    conv_transpose_nd.__name__ = f"conv_transpose{dims}d"
    conv_transpose_nd.__doc__ = (f"``F.conv_transpose{dims}d``: the adjoint of conv{dims}d in "
                                 "its input; the weight is ``(in, out / groups, *kernel)``.")
    return conv_transpose_nd


conv_transpose1d, conv_transpose2d, conv_transpose3d = (conv_transpose(d) for d in (1, 2, 3))


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


def _convolution(x, weight, bias, stride, padding, dilation, groups, dims, transposed=False,
                 output_padding=0):
    """conv1d/2d/3d (``dims`` 1, 2, 3) and their transposed forms: torch's checks in its
    order, then the op."""
    _check_cpu(x)
    name = f"conv_transpose{dims}d" if transposed else f"conv{dims}d"
    if transposed and isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    if x.dim() == dims + 1:  # unbatched
        return _convolution(x.unsqueeze(0), weight, bias, stride, padding, dilation, groups,
                            dims, transposed, output_padding).squeeze(0)
    if x.dim() != dims + 2:
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(x.shape)}")
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
    output_padding = _tuple(output_padding, dims, "output_padding", k)
    _check_convolution(x, weight, bias, groups, transposed)
    if transposed:
        _check_transposed(x, weight, stride, padding, dilation, output_padding)
    else:
        padded = [x.shape[2 + i] + 2 * padding[i] for i in range(dims)]
        span = [_span(1, weight.shape[2 + i], 1, dilation[i]) for i in range(dims)]
        if any(p < k for p, k in zip(padded, span)):
            raise RuntimeError(
                f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                f"Kernel size: ({' x '.join(map(str, span))}). Kernel size can't be greater "
                "than actual input size")
    return apply(_conv, x, weight, bias, stride=stride, padding=padding, dilation=dilation,
                 transposed=transposed, output_padding=output_padding, groups=groups)


def _check_convolution(x, weight, bias, groups, transposed):
    """torch's checks of the weight's dims and groups, the channels and the bias."""
    if weight.dim() != x.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {list(weight.shape)}, but got {x.dim()}-"
                           f"dimensional input of size {list(x.shape)} instead")
    if weight.shape[0] < groups and not transposed:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at "
                           f"dimension 0, but got weight of size {list(weight.shape)} instead")
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension "
            f"0, but got weight of size [{list(weight.shape)}] instead")
    given = "transposed=1" if transposed else f"groups={groups}"
    channels = weight.shape[0] if transposed else weight.shape[1] * groups
    if x.shape[1] != channels:
        raise RuntimeError(
            f"Given {given}, weight of size {list(weight.shape)}, expected input"
            f"{list(x.shape)} to have {channels} channels, but got {x.shape[1]} channels "
            "instead")
    outputs = weight.shape[1] * groups if transposed else weight.shape[0]
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != outputs):
        raise RuntimeError(
            f"Given {'transposed=1, ' if transposed else ''}weight of size "
            f"{list(weight.shape)}, expected bias to be 1-dimensional with {outputs} elements, "
            f"but got bias of size {list(bias.shape)} instead")


_DIM_NAMES = {1: ("width",), 2: ("height", "width"), 3: ("depth", "height", "width")}


def _check_transposed(x, weight, stride, padding, dilation, output_padding):
    """A transposed convolution's output padding (smaller than its stride or its dilation)
    and output size (at least one element)."""
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        names = _DIM_NAMES[len(stride)]
        parts = [f"{what}_{n}: {v}" for what, values in (
            ("output_padding", output_padding), ("stride", stride), ("dilation", dilation))
            for n, v in zip(names, values)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           f"got {' '.join(parts)}")
    out = _transposed_shape(x.shape, weight.shape, stride, padding, dilation, output_padding,
                            1)[2:]
    if any(n < 1 for n in out):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, x.shape[2:]))})"
                           f". Calculated output size per channel: "
                           f"({' x '.join(map(str, out))}). Output size is too small")


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
    values, where = _window_max(x4, kernel, stride, padding, dilation, ceil_mode)
    return (values[0] if x.ndim == 3 else values), where


def _window_max(x, kernel, stride, padding, dilation, ceil_mode):
    """Note [max scan]: torch scans each window of ``x`` (N, C, *spatial) in order, from the
    lowest value at the window's first element inside the input: an element greater than
    the maximum so far, or a NaN, takes its place.  So the maximum is the first of its
    ties, or the last NaN, and a window of lowest values keeps its first element inside
    (never the padding).  Here: the windows' maxima, then the first element equal to each
    (those exceptions apart).  Returns the maxima and where in its window each one is, both
    (N, C, *out)."""
    d = len(kernel)
    out = tuple(_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i],
                          ceil_mode) for i in range(d))
    integer = np.issubdtype(x.dtype, np.integer)
    low = np.iinfo(x.dtype).min if integer else -np.inf
    padded = _pad_to(_pad(x, padding, low), kernel, stride, dilation, out, low)
    windows = _windows(padded, kernel, stride, dilation, out)
    stack = windows.transpose(*range(2, 2 + d), 0, 1, *range(2 + d, 2 + 2 * d))
    stack = stack.reshape(int(np.prod(kernel)), int(np.prod(x.shape[:2])) * int(np.prod(out)))
    values = stack.max(axis=0)
    missed = stack[0] != values
    where = missed.astype(np.min_scalar_type(len(stack)))
    for row in stack[1:-1]:  # where: how many elements come before the first maximum
        missed &= row != values
        where += missed
    where = where.astype(np.int64)
    exact = np.empty(0, np.int64)  # where the maximum's bits may differ from the element's
    if not integer:
        nan = np.flatnonzero(np.isnan(values))
        where[nan] = len(stack) - 1 - np.isnan(stack[::-1, nan]).argmax(axis=0)
        exact = np.concatenate([nan, np.flatnonzero(values == 0)])  # NaN bits, -0.0
    if any(padding):
        lowest = np.flatnonzero(values == low)
        first = _first_inside(kernel, stride, padding, dilation, out)
        where[lowest] = np.broadcast_to(first, x.shape[:2] + out).reshape(-1)[lowest]
    values[exact] = stack[where[exact], exact]
    return values.reshape(x.shape[:2] + out), where.reshape(x.shape[:2] + out)


def _first_inside(kernel, stride, padding, dilation, out):
    """Where in its window each window's first element inside the (unpadded) input is:
    (*out) offsets into the flat window."""
    at = np.zeros(out, np.int64)
    for i, (k, s, p, dl, n) in enumerate(zip(kernel, stride, padding, dilation, out)):
        first = np.maximum(0, -(-(p - np.arange(n) * s) // dl))  # ceil((p - start) / dl)
        at = at * k + first.reshape([-1 if j == i else 1 for j in range(len(out))])
    return at


@_max_pool.def_backward
def max_pool_backward(ctx, grads):
    return (apply(_MAX_POOL_GRAD, grads[0], ctx.self, where=ctx.where._data, **ctx.attrs),)


def _max_pool_gradient(xp, g, x, kernel, stride, padding, dilation, ceil_mode, where):
    """Each output's gradient added at its maximum."""
    return _add_at(g, x.shape, _max_positions(where, x.shape, kernel, stride, padding,
                                              dilation), len(kernel))


def _add_at(g, shape, index, dims):
    """A zero array of ``shape`` with each element of ``g`` added at its flat position
    ``index`` in its plane (volume: the last ``dims`` dims), in output order as torch's
    kernels add."""
    planes, size = int(np.prod(g.shape[:-dims])), int(np.prod(shape[-dims:]))
    at = index.reshape(planes, int(np.prod(g.shape[-dims:]))) + \
        np.arange(0, planes * size, size)[:, None]
    dx = np.zeros(planes * size, g.dtype)
    np.add.at(dx, at.reshape(-1), g.reshape(-1))
    return dx.reshape(shape)


def _max_positions(where, shape, kernel, stride, padding, dilation):
    """The flat index in its plane (volume) of each output's maximum (torch's indices), from
    ``where`` in its window it is; ``shape``: the input's."""
    d = len(kernel)
    steps, starts = np.zeros(kernel, np.int64), np.zeros(where.shape[-d:], np.int64)
    for i in range(d):
        place = int(np.prod(shape[len(shape) - d + i + 1:]))
        axis = [-1 if j == i else 1 for j in range(d)]
        steps = steps + (np.arange(kernel[i]) * dilation[i] * place).reshape(axis)
        starts = starts + ((np.arange(where.shape[-d + i]) * stride[i] - padding[i])
                           * place).reshape(axis)
    index = steps.reshape(-1)[where] + starts
    return index[0] if len(shape) == d + 1 else index


def _select_maxima(ctx, gg):
    """gg at each window's maximum: torch's max_pool_double_backward, a gather."""
    index = from_array(_max_positions(ctx.attrs["where"], ctx.self.shape, ctx.kernel,
                                      ctx.stride, ctx.padding, ctx.dilation), gg)
    return _gather_planes(gg, index)


def _gather_planes(t, index):
    """``t`` at ``index`` (flat positions within each of its (H, W) planes)."""
    return t.flatten(-2).gather(-1, index.flatten(-2)).view_as(index)


def _check_max_dtype(name, x):
    """torch's max pools take real numbers only."""
    if x.dtype == bool_ or x.dtype.is_complex:
        raise NotImplementedError(f'"{name}" not implemented for \'{x.dtype.scalar_name}\'')


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """``F.max_pool2d`` for (N, C, H, W) or unbatched (C, H, W) inputs."""
    return max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode,
                                   indices=False)


def max_pool2d_with_indices(x, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, indices=True):
    """``F.max_pool2d(..., return_indices=True)``: the maxima and their flat positions in
    their (H, W) planes (int64, no gradient); ``indices=False``: the maxima alone."""
    kernel, stride, padding = _pool_args(x, kernel_size, stride, padding)
    dilation = pair(dilation)
    _check_pool_output(x, kernel, stride, padding, dilation, ceil_mode)
    _check_max_dtype("max_pool2d", x)
    values, where = apply(_max_pool, x, kernel=kernel, stride=stride, padding=padding,
                          dilation=dilation, ceil_mode=ceil_mode)
    if not indices:
        return values
    return values, from_array(_max_positions(where._data, x.shape, kernel, stride, padding,
                                             dilation), x)


# -- max_unpool2d, max_unpool3d ------------------------------------------------------------


def _unpool(xp, x, indices, output_size, **attrs):
    """Each value put at its index in a zero plane (volume) of ``output_size``."""
    k = len(output_size)
    lead = x.shape[:-k]
    out = np.zeros((*lead, int(np.prod(output_size))), x.dtype)
    np.put_along_axis(out, indices.reshape(*lead, -1), x.reshape(*lead, -1), -1)
    return out.reshape(*lead, *output_size)


def _unpool_op(name, grad_fn):
    """A max unpool (its backward: the gradient at each index, a gather)."""
    op = declare(name, grad_fn, ("self", "indices"), saves={"indices": "self"})(_unpool)

    @op.def_backward
    def max_unpool_backward(ctx, grad):
        k = len(ctx.output_size)
        return grad.flatten(-k).gather(-1, ctx.indices.flatten(-k)).view_as(ctx.indices), None
    return op


_MAX_UNPOOL = {2: _unpool_op("max_unpool2d", "MaxUnpool2DBackward0"),
               3: _unpool_op("max_unpool3d", "MaxUnpool3DBackward0")}
_UNPOOL_DIMS = {2: "two elements (height, width)", 3: "three elements (depth, height, width)"}


def _check_unpool(x, indices, output_size, dims, stride=None):
    """torch's checks of max_unpooling2d/3d, in its order."""
    if indices.dtype is not int64:
        got = f" but got: {indices.dtype.scalar_name}" if dims == 2 else ""
        raise RuntimeError(f"elements in indices should be type int64{got}")
    if len(output_size) != dims:
        raise RuntimeError(f"There should be exactly {_UNPOOL_DIMS[dims]} in output_size, but "
                           f"got {len(output_size)} elements.")
    if stride is not None:
        if len(stride) != dims:
            raise RuntimeError(f"There should be exactly {_UNPOOL_DIMS[dims]} in stride, but "
                               f"got: {len(stride)} elements.")
        if min(stride) <= 0:
            raise RuntimeError(f"strides should be greater than zero, but got stride: "
                               f"{list(stride)}")
    if x.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Input to max_unpooling{dims}d should be a {dims + 1}d or "
                           f"{dims + 2}d Tensor, but got a tensor with {x.dim()} dimensions.")
    if indices.shape != x.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(x.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    size, flat = int(np.prod(output_size)), indices._data
    if flat.size and (flat.min() < 0 or flat.max() >= size):
        bad = flat[(flat < 0) | (flat >= size)].flat[0]
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                           f"{'x'.join(map(str, output_size))})")


def max_unpool2d(x, indices, output_size):
    """``max_unpool2d``: the inverse of a max pool with indices (zeros elsewhere)."""
    _check_cpu(x)
    _check_unpool(x, indices, output_size, 2)
    return apply(_MAX_UNPOOL[2], x, indices, output_size=tuple(output_size))


def max_unpool3d(x, indices, output_size, stride, padding):
    """``max_unpool3d``: the inverse of a 3-d max pool with indices (zeros elsewhere)."""
    _check_cpu(x)
    _check_unpool(x, indices, output_size, 3, stride)
    return apply(_MAX_UNPOOL[3], x, indices, output_size=tuple(output_size),
                 stride=tuple(stride), padding=tuple(padding))


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
             for i in range(len(kernel))]
    if not any(extra):
        return padded
    return np.pad(padded, ((0, 0), (0, 0), *((0, e) for e in extra)), constant_values=value)


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


# -- im2col, col2im (F.unfold, F.fold) ------------------------------------------------------


def _blocks(size, kernel, dilation, padding, stride):
    """How many sliding blocks fit along each of the two dims of ``size``."""
    return tuple((size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
                 for i in range(2))


@declare("im2col", "Im2ColBackward0")
@_batched
def _im2col(xp, x, kernel_size, dilation, padding, stride):
    """Each sliding block of the (padded) input as a column: (N, C kH kW, blocks)."""
    out = _blocks(x.shape[2:], kernel_size, dilation, padding, stride)
    cols = _windows(_pad(x, padding), kernel_size, stride, dilation, out)
    return cols.reshape(x.shape[0], -1, out[0] * out[1])


@declare("col2im", "Col2ImBackward0")
def _col2im(xp, x, output_size, kernel_size, dilation, padding, stride):
    """The adjoint of im2col: each column added back where its block was, in torch's order
    (Note [windows])."""
    if x.ndim == 2:
        return _col2im.forward(xp, x[None], output_size, kernel_size, dilation, padding,
                               stride)[0]
    n, planes = x.shape[:2]
    blocks = _blocks(output_size, kernel_size, dilation, padding, stride)
    dcols = x.reshape(n, planes // (kernel_size[0] * kernel_size[1]), *kernel_size, *blocks)
    return _window_gradient((n, dcols.shape[1], *output_size), dcols, stride, dilation,
                            padding).copy()


@_im2col.def_backward
def im2col_backward(ctx, grad):
    return (apply(_col2im, grad, output_size=tuple(ctx.input_meta[0][0][-2:]),
                  kernel_size=ctx.kernel_size, dilation=ctx.dilation, padding=ctx.padding,
                  stride=ctx.stride),)


@_col2im.def_backward
def col2im_backward(ctx, grad):
    return (apply(_im2col, grad, kernel_size=ctx.kernel_size, dilation=ctx.dilation,
                  padding=ctx.padding, stride=ctx.stride),)


def _check_blocks(name, kernel_size, dilation, padding, stride, x):
    """im2col's and col2im's checks of their arguments, in their orders."""
    checks = {"kernel": ("kernel size should be greater than zero, but got kernel_height: {} "
                         "kernel_width: {}", kernel_size, 1),
              "dilation": ("dilation should be greater than zero, but got dilation_height: {} "
                           "dilation_width: {}", dilation, 1),
              "padding": ("padding should be non-negative, but got pad_height: {} pad_width: "
                          "{}", padding, 0),
              "stride": ("stride should be greater than zero, but got stride_height: {} "
                         "stride_width: {}", stride, 1)}
    order = ("kernel", "dilation", "padding", "stride") if name == "im2col" else \
        ("kernel", "stride", "dilation", "padding")
    for key in order:
        message, values, least = checks[key]
        if min(values) < least:
            raise RuntimeError(message.format(*values))
    if not (x.dtype.is_floating_point or x.dtype.is_complex or x.dtype == bool_):
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for '
                                  f"'{x.dtype.scalar_name}'")


def im2col(x, kernel_size, dilation, padding, stride):
    """``F.unfold`` of (N, C, H, W) or (C, H, W) inputs: (N, C kH kW, blocks)."""
    _check_cpu(x)
    kernel_size, dilation, padding, stride = map(pair, (kernel_size, dilation, padding, stride))
    _check_blocks("im2col", kernel_size, dilation, padding, stride, x)
    shape = list(x.shape)
    for d in (1, 2):  # torch reads sizes 1 and 2 first
        if d >= len(shape):
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[-{len(shape)}, {len(shape) - 1}], but got {d})")
    if len(shape) not in (3, 4) or 0 in shape[len(shape) - 3:]:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: {shape}")
    size = shape[-2:]
    blocks = _blocks(size, kernel_size, dilation, padding, stride)
    if min(blocks) < 1:
        raise RuntimeError(
            f"Given input with spatial size ({size[0]}, {size[1]}), kernel_size="
            f"{kernel_size}, dilation={dilation}, padding={padding}, calculated shape of "
            f"the array of sliding blocks as {blocks}, but its components must be at least "
            "one.")
    return apply(_im2col, x, kernel_size=kernel_size, dilation=dilation, padding=padding,
                 stride=stride)


def col2im(x, output_size, kernel_size, dilation, padding, stride):
    """``F.fold`` of (N, C kH kW, blocks) or (C kH kW, blocks) inputs: the blocks summed
    into ``(N, C, *output_size)``."""
    _check_cpu(x)
    output_size, kernel_size, dilation, padding, stride = map(
        pair, (output_size, kernel_size, dilation, padding, stride))
    _check_blocks("col2im", kernel_size, dilation, padding, stride, x)
    shape = list(x.shape)
    if len(shape) not in (2, 3) or 0 in shape[len(shape) - 2:]:
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: {shape}")
    planes, length = shape[-2:]
    if planes % (kernel_size[0] * kernel_size[1]):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={planes} and "
                           f"kernel_size={kernel_size}.")
    blocks = _blocks(output_size, kernel_size, dilation, padding, stride)
    given = (f"Given output_size={output_size}, kernel_size={kernel_size}, dilation="
             f"{dilation}, padding={padding}, stride={stride}, ")
    if length != blocks[0] * blocks[1]:
        raise RuntimeError(f"{given}expected size of input's dimension 2 to match the "
                           f"calculated number of sliding blocks {blocks[0]} * {blocks[1]} = "
                           f"{blocks[0] * blocks[1]}, but got input.size(2)={length}.")
    if min(blocks) < 1:
        raise RuntimeError(f"{given}calculated shape of the array of sliding blocks as "
                           f"{blocks}, which is too small (non-positive)")
    return apply(_col2im, x, output_size=output_size, kernel_size=kernel_size,
                 dilation=dilation, padding=padding, stride=stride)


# -- the backward of max pools with indices ------------------------------------------------


def _index_gradient_op(name, dims):
    """The backward of a max pool over the last ``dims`` dims as an op (torch's node under
    create_graph): each output's gradient added at its maximum's flat position, in output
    order (torch's kernel: the same sums); its own backward gathers there."""
    def forward(xp, g, x, indices):
        return _add_at(g, x.shape, indices, dims)
    op = declare(name, name + "Backward0", ("grad_output", "self"), saves={"self": "self"},
                 unsaved=("indices",))(forward)

    @op.def_backward
    def index_gradient_backward(ctx, gg):
        n = ctx.needs_input_grad
        index = from_array(ctx.attrs["indices"], gg)
        picked = gg.flatten(-dims).gather(-1, index.flatten(-dims)).view_as(index)
        return picked if n[0] else None, zeros_like(ctx.self) if n[1] else None
    return op


# -- adaptive_max_pool2d --------------------------------------------------------------------


def _adaptive_max(xp, x, output_size):
    """The maximum of each adaptive window over the last ``len(output_size)`` dims (NaN
    wins, the first of ties), and its flat position in its plane (volume)."""
    k = len(output_size)
    spatial = x.shape[-k:]
    bounds = [_adaptive_bounds(n, out) for n, out in zip(spatial, output_size)]
    values = np.empty(x.shape[:-k] + tuple(output_size), x.dtype)
    index = np.empty(values.shape, np.int64)
    for at_out in itertools.product(*map(range, output_size)):
        box = [bounds[d][i] for d, i in enumerate(at_out)]
        window = x[(..., *(slice(a, b) for a, b in box))]
        flat = window.reshape(*x.shape[:-k], -1)
        at = flat.argmax(axis=-1)
        nan = np.isnan(flat)
        at = np.where(nan.any(axis=-1), nan.argmax(axis=-1), at)
        values[(..., *at_out)] = np.take_along_axis(flat, at[..., None], -1)[..., 0]
        offsets = np.unravel_index(at, window.shape[-k:])
        position = np.zeros(at.shape, np.int64)
        for d in range(k):
            position = position * spatial[d] + box[d][0] + offsets[d]
        index[(..., *at_out)] = position
    return values, index


def _adaptive_max_op(dims):
    """adaptive_max_pool{dims}d's record (its backward: the gradient at the indices)."""
    name = f"AdaptiveMaxPool{dims}D"
    op = declare(f"adaptive_max_pool{dims}d", name + "Backward0", outputs=("result", "result1"),
                 saves={"self": "self", "result1": "self"})(_adaptive_max)
    gradient = _index_gradient_op(name + "Backward", dims)

    @op.def_backward
    def adaptive_max_backward(ctx, grads):
        return (apply(gradient, grads[0], ctx.self, indices=ctx.result1._data),)
    return op


_ADAPTIVE_MAX = {2: _adaptive_max_op(2), 3: _adaptive_max_op(3)}


def adaptive_max_pool2d(x, output_size):
    """``F.adaptive_max_pool2d(..., return_indices=True)``: the maxima of windows that cut
    the last two dims into ``output_size``, and their flat positions."""
    return _adaptive_max_pool(x, output_size, 2)


def adaptive_max_pool3d(x, output_size):
    """``F.adaptive_max_pool3d(..., return_indices=True)``: the maxima of windows that cut
    the last three dims into ``output_size``, and their flat positions."""
    return _adaptive_max_pool(x, output_size, 3)


def _adaptive_max_pool(x, output_size, dims):
    """adaptive_max_pool2d/3d: torch's checks in its order, then the op."""
    _check_cpu(x)
    name = f"adaptive_max_pool{dims}d"
    size = (output_size,) * dims if isinstance(output_size, int) else tuple(output_size)
    if len(size) != dims:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {dims}")
    size = tuple(x.shape[-dims + i] if size[i] is None else size[i] for i in range(dims))
    if x.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: "
                           f"{list(x.shape)}")
    for d in range(x.dim() - dims - 1, x.dim()):
        if x.shape[d] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(x.shape)} with dimension "
                               f"{d} being empty")
    if not x.dtype.is_floating_point:
        kernel = name + "_cpu" * (dims == 3)
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype.scalar_name}\'')
    if min(size) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: "
                           f"{[*x.shape[:-dims], *size]}")
    return apply(_ADAPTIVE_MAX[dims], x, output_size=size)


# -- 3-d pooling ----------------------------------------------------------------------------
#
# (N, C, D, H, W) or unbatched (C, D, H, W) inputs, through the same windows (Note [windows]).


def _batched3d(forward):
    """``_batched`` for 3-d pools: unbatched (C, D, H, W) arrays as a batch of one."""
    return _batched(forward, dims=3)


def _pool_sizes(shape, kernel, stride, padding, dilation, ceil_mode):
    return tuple(_out_size(n, kernel[i], stride[i], padding[i], dilation[i], ceil_mode)
                 for i, n in enumerate(shape[-3:]))


@declare("max_pool3d_with_indices", "MaxPool3DWithIndicesBackward0",
         outputs=("result", "indices"), saves={"self": "self", "indices": "self"})
@_batched3d
def _max_pool3d(xp, x, kernel, stride, padding, dilation, ceil_mode):
    """The maxima of the windows (Note [max scan]) and their flat positions in their
    (D, H, W) volumes."""
    values, where = _window_max(x, kernel, stride, padding, dilation, ceil_mode)
    return values, _max_positions(where, x.shape, kernel, stride, padding, dilation)


@_max_pool3d.def_backward
def max_pool3d_backward(ctx, grads):
    return (apply(_MAX_POOL3D_GRAD, grads[0], ctx.self, indices=ctx.indices._data),)


_MAX_POOL3D_GRAD = _index_gradient_op("MaxPool3DWithIndicesBackward", 3)


_POOL3D_ARGS = {  # how each pool names what an argument may be
    "max_pool3d": {"kernel_size": "must either be", "stride": "must either be omitted,",
                   "padding": "must either be", "dilation": "must be either"},
    "avg_pool3d": {"kernel_size": "must be", "stride": "must be omitted,",
                   "padding": "must be"}}


def _triple(name, what, value):
    """A 3-d pool argument as a triple (one value repeated), or torch's refusal."""
    values = (value,) if isinstance(value, int) else tuple(value)
    if len(values) not in (1, 3):
        raise RuntimeError(f"{name}: {what} {_POOL3D_ARGS[name][what]} a single int, or a "
                           f"tuple of three ints")
    return values * (3 // len(values))


def _pool3d_args(name, x, kernel_size, stride, padding, dilation=1):
    """A 3-d pool's kernel, stride (the kernel's when not given), padding and dilation as
    triples, with torch's first checks."""
    _check_cpu(x)
    kernel = _triple(name, "kernel_size", kernel_size)
    omitted = stride is None or (not isinstance(stride, int) and len(stride) == 0)
    stride = kernel if omitted else _triple(name, "stride", stride)
    padding = _triple(name, "padding", padding)
    dilation = _triple(name, "dilation", dilation) if name == "max_pool3d" else (1, 1, 1)
    if x.dim() not in (4, 5) or (x.dim() == 4 and 0 in x.shape):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    for k, p, d in zip(kernel, padding, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    return kernel, stride, padding, dilation


def _check_pool3d_output(x, kernel, stride, padding, dilation, ceil_mode):
    out = _pool_sizes(x.shape, kernel, stride, padding, dilation, ceil_mode)
    if min(out) < 1:
        sizes = "x".join(map(str, x.shape[-4:]))
        raise RuntimeError(f"Given input size: ({sizes}). Calculated output size: "
                           f"({x.shape[-4]}x{'x'.join(map(str, out))}). Output size is too "
                           "small")


def max_pool3d_with_indices(x, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False):
    """``F.max_pool3d(..., return_indices=True)``: the maxima and their flat positions in
    their (D, H, W) volumes."""
    kernel, stride, padding, dilation = _pool3d_args("max_pool3d", x, kernel_size, stride,
                                                     padding, dilation)
    if x.dim() == 5 and 0 in x.shape[1:]:
        d = list(x.shape[1:]).index(0)
        raise RuntimeError(f"max_pool3d_with_indices_out_cpu_template(): Expected input's "
                           f"non-batch dimensions to have positive length, but input has a "
                           f"shape of {list(x.shape)} and non-batch dimension {d} has length "
                           "zero!")
    _check_pool3d_output(x, kernel, stride, padding, dilation, ceil_mode)
    _check_max_dtype("max_pool3d", x)
    return apply(_max_pool3d, x, kernel=kernel, stride=stride, padding=padding,
                 dilation=dilation, ceil_mode=ceil_mode)


@declare("avg_pool3d", "AvgPool3DBackward0", saves={"self": "self"})
@_batched3d
def _avg_pool3d(xp, x, kernel, stride, padding, ceil_mode, count_include_pad,
                divisor_override):
    out = _pool_sizes(x.shape, kernel, stride, padding, (1, 1, 1), ceil_mode)
    padded = _pad_to(_pad(x, padding), kernel, stride, (1, 1, 1), out)
    sums = _windows(padded, kernel, stride, (1, 1, 1), out).sum(axis=(2, 3, 4), dtype=x.dtype)
    divide = _avg3d_divisors(x.shape, kernel, stride, padding, out, count_include_pad,
                             divisor_override)
    if x.dtype.kind != "f":  # torch's integer division: truncated toward zero
        return (np.abs(sums) // divide * np.sign(sums)).astype(x.dtype)
    return (sums / divide).astype(x.dtype)


def _avg3d_divisors(shape, kernel, stride, padding, out, count_include_pad, divisor_override):
    """What each window's sum is divided by (the outer product of the per-dim counts)."""
    if divisor_override:
        return divisor_override
    d, h, w = (_avg_divisors(shape[2 + i], kernel[i], stride[i], padding[i], out[i],
                             count_include_pad) for i in range(3))
    return d[:, None, None] * h[None, :, None] * w[None, None, :]


@_avg_pool3d.def_backward
def avg_pool3d_backward(ctx, grad):
    return (apply(_AVG_POOL3D_GRAD, grad, ctx.self, **ctx.attrs),)


@_batched3d
def _avg_pool3d_gradient(xp, g, x, kernel, stride, padding, ceil_mode, count_include_pad,
                         divisor_override):
    """Each window's gradient shared among the elements it averaged."""
    out = g.shape[2:]
    share = (g / _avg3d_divisors(x.shape, kernel, stride, padding, out, count_include_pad,
                                 divisor_override)).astype(g.dtype)
    dcols = np.broadcast_to(share[:, :, None, None, None], g.shape[:2] + tuple(kernel) + out)
    return _window_gradient(x.shape, dcols, stride, (1, 1, 1), padding)


_AVG_POOL3D_GRAD = declare("AvgPool3DBackward", "AvgPool3DBackwardBackward0",
                           ("grad_output", "self"), saves={"self": "self"})(
    _avg_pool3d_gradient)


@_AVG_POOL3D_GRAD.def_backward
def avg_pool3d_gradient_backward(ctx, gg):
    n = ctx.needs_input_grad
    again = avg_pool3d(gg, ctx.kernel, ctx.stride, ctx.padding, ctx.ceil_mode,
                       ctx.count_include_pad, ctx.divisor_override) if n[0] else None
    return again, zeros_like(ctx.self) if n[1] else None


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """``F.avg_pool3d`` for (N, C, D, H, W) or unbatched (C, D, H, W) inputs."""
    kernel, stride, padding, _ = _pool3d_args("avg_pool3d", x, kernel_size, stride, padding)
    if any(n < k for n, k in zip(x.shape[-3:], kernel)):
        t, h, w = x.shape[-3:]
        raise RuntimeError(f"input image (T: {t} H: {h} W: {w}) smaller than kernel size "
                           f"(kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    _check_pool3d_output(x, kernel, stride, padding, (1, 1, 1), ceil_mode)
    return apply(_avg_pool3d, x, kernel=kernel, stride=stride, padding=padding,
                 ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                 divisor_override=divisor_override)


@declare("adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0", saves={"self": "self"})
def _adaptive_avg3d(xp, x, output_size):
    bounds = [_adaptive_bounds(x.shape[-3 + i], output_size[i]) for i in range(3)]
    out = np.empty(x.shape[:-3] + tuple(output_size), x.dtype)
    for i, (d0, d1) in enumerate(bounds[0]):
        for j, (h0, h1) in enumerate(bounds[1]):
            for k, (w0, w1) in enumerate(bounds[2]):
                out[..., i, j, k] = x[..., d0:d1, h0:h1, w0:w1].mean(axis=(-3, -2, -1),
                                                                     dtype=x.dtype)
    return out


@_adaptive_avg3d.def_backward
def adaptive_avg3d_backward(ctx, grad):
    return (apply(_ADAPTIVE3D_GRAD, grad, ctx.self, **ctx.attrs),)


def _adaptive_avg3d_gradient(xp, g, x, output_size):
    """Each window's gradient shared among the elements it averaged."""
    bounds = [_adaptive_bounds(x.shape[-3 + i], g.shape[-3 + i]) for i in range(3)]
    dx = np.zeros(x.shape, g.dtype)
    for i, (d0, d1) in enumerate(bounds[0]):
        for j, (h0, h1) in enumerate(bounds[1]):
            for k, (w0, w1) in enumerate(bounds[2]):
                count = (d1 - d0) * (h1 - h0) * (w1 - w0)
                dx[..., d0:d1, h0:h1, w0:w1] += (g[..., i, j, k] / count)[..., None, None, None]
    return dx


_ADAPTIVE3D_GRAD = declare("AdaptiveAvgPool3DBackward", "AdaptiveAvgPool3DBackwardBackward0",
                           ("grad_output", "self"), saves={"self": "self"})(
    _adaptive_avg3d_gradient)


@_ADAPTIVE3D_GRAD.def_backward
def adaptive_avg3d_gradient_backward(ctx, gg):
    n = ctx.needs_input_grad
    return (adaptive_avg_pool3d(gg, ctx.output_size) if n[0] else None,
            zeros_like(ctx.self) if n[1] else None)


def adaptive_avg_pool3d(x, output_size):
    """Means over windows that cut the last three dims into ``output_size``; (1, 1, 1) is
    torch's mean over them (MeanBackward1)."""
    _check_cpu(x)
    size = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    if x.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got "
                           f"{list(x.shape)}")
    size = tuple(x.shape[-3 + i] if size[i] is None else size[i] for i in range(3))
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"adaptive_avg_pool3d_cpu\" not implemented for "
                                  f"'{x.dtype.scalar_name}'")
    if size == (1, 1, 1):
        return x.mean((-1, -2, -3), keepdim=True)
    return apply(_adaptive_avg3d, x, output_size=size)


# -- fractional_max_pool2d, fractional_max_pool3d (misc3) -----------------------------------
#
# Note [fractional windows]: torch's fractional max pool (Graham, 2014) gives every (batch,
# channel) plane windows of its own.  Along a dim of ``size`` cut into ``out`` windows of
# ``pool`` elements, with the plane's sample ``u`` (in [0, 1)) and
# ``alpha = (size - pool) / (out - 1)``, window ``i`` starts at
# ``int((i + u) * alpha) - int(u * alpha)`` and the last one at ``size - pool``; each step is
# computed in the input's floating type, as torch's kernel computes it (float16 and bfloat16
# round after every operation).  A 2-d pool reads its plane's samples as (W, H), a 3-d one as
# (T, H, W).  The maximum is torch's scan: a strictly greater value wins (the first of ties)
# and a NaN always wins (the last NaN); an empty window gives -inf at its origin.

__all__ += ["fractional_max_pool2d", "fractional_max_pool3d"]

_SAMPLE_COLUMN = {2: (1, 0), 3: (0, 1, 2)}  # the sample each spatial dim reads, per pool


def _window_starts(u, size, out, pool):
    """The start of each of ``out`` windows along a dim of ``size``, per plane (``u``: the
    planes' samples, in the input's float type): Note [fractional windows]."""
    starts = np.full(u.shape + (out,), size - pool, np.int64)
    if out > 1:
        ft = u.dtype.type
        alpha = ft(size - pool) / ft(out - 1)
        steps = np.arange(out - 1).astype(u.dtype)
        starts[..., :-1] = ((steps + u[..., None]) * alpha).astype(np.int64) - \
            (u * alpha).astype(np.int64)[..., None]
    return starts


def _fractional_max(xp, x, kernel_size, output_size, samples):
    """The maximum of each window of each plane and its flat position in the plane."""
    k = len(output_size)
    planes = x if x.ndim == k + 2 else x[None]
    n, c, spatial = planes.shape[0], planes.shape[1], planes.shape[2:]
    strides = [int(np.prod(spatial[d + 1:], dtype=np.int64)) for d in range(k)]
    origin = np.zeros((n, c, *output_size), np.int64)  # each window's first element
    for d, column in enumerate(_SAMPLE_COLUMN[k]):
        starts = _window_starts(samples[:n, :, column], spatial[d], output_size[d],
                                kernel_size[d])
        origin += (starts * strides[d]).reshape(
            (n, c) + tuple(output_size[d] if j == d else 1 for j in range(k)))
    steps = np.meshgrid(*(np.arange(max(p, 0)) * s for p, s in zip(kernel_size, strides)),
                        indexing="ij")
    where = origin[..., None] + sum(steps).reshape(-1)
    if where.shape[-1] == 0:
        values, index = np.full(origin.shape, -np.inf, x.dtype), origin
    else:
        flat = planes.reshape(n, c, int(np.prod(spatial, dtype=np.int64)))
        window = np.take_along_axis(flat, where.reshape(n, c, int(np.prod(where.shape[2:]))), -1)
        window = window.reshape(where.shape)
        at = window.argmax(axis=-1)
        nan = np.isnan(window)
        at = np.where(nan.any(axis=-1), where.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1),
                      at)
        values = np.take_along_axis(window, at[..., None], -1)[..., 0]
        index = np.take_along_axis(where, at[..., None], -1)[..., 0]
    return (values, index) if x.ndim == k + 2 else (values[0], index[0])


def _fractional_max_op(dims):
    """fractional_max_pool{dims}d's record (its backward: the gradient at the indices)."""
    name = f"FractionalMaxPool{dims}D"
    op = declare(f"fractional_max_pool{dims}d", name + "Backward0",
                 outputs=("result", "result1"), saves={"self": "self", "result1": "self"},
                 unsaved=("samples",))(_fractional_max)
    gradient = _index_gradient_op(name + "Backward", dims)

    @op.def_backward
    def fractional_max_backward(ctx, grads):
        return (apply(gradient, grads[0], ctx.self, indices=ctx.result1._data),)
    return op


_FRACTIONAL_MAX = {2: _fractional_max_op(2), 3: _fractional_max_op(3)}


def fractional_max_pool2d(x, kernel_size, output_size, random_samples):
    """``torch._C._nn.fractional_max_pool2d``: the maxima of windows of ``kernel_size`` at
    random steps that cut the last two dims into ``output_size`` (Note [fractional
    windows]), and their flat positions in their planes."""
    return _fractional_max_pool(x, kernel_size, output_size, random_samples, 2)


def fractional_max_pool3d(x, kernel_size, output_size, random_samples):
    """``torch._C._nn.fractional_max_pool3d``: fractional_max_pool2d over the last three
    dims."""
    return _fractional_max_pool(x, kernel_size, output_size, random_samples, 3)


def _fractional_max_pool(x, kernel_size, output_size, samples, dims):
    """fractional_max_pool2d/3d: torch's checks in its order, then the op."""
    _check_cpu(x)
    name = f"fractional_max_pool{dims}d"
    if samples.requires_grad and is_grad_enabled():
        raise RuntimeError(f"The function '{name}' is not differentiable with respect to "
                           "argument 'random_samples'. This input cannot have requires_grad "
                           "True.")
    kernel, size = ((v,) * dims if isinstance(v, int) else tuple(v)
                    for v in (kernel_size, output_size))
    ints = "Ints" if dims == 2 else "three Ints"
    for what, value in (("kernel_size", kernel), ("output_size", size)):
        if len(value) != dims:
            raise RuntimeError(f"{name}: {what} must either be a single Int or tuple of {ints}")
    _check_fractional_input(x, kernel, size, dims)
    _check_fractional_samples(x, samples, dims)
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f'"{name}_out_frame" not implemented for '
                                  f"'{x.dtype.scalar_name}'")
    return apply(_FRACTIONAL_MAX[dims], x, kernel_size=kernel, output_size=size,
                 samples=samples._data)


def _check_fractional_input(x, kernel, size, dims):
    """torch's checks of the input's shape against the windows (the 3-d pool's kernel wants
    one element more than the 2-d one's, and checks time, width, height in that order)."""
    where = f"fractional_max_pool{dims}d()" if dims == 2 else "fractional_max_pool3d_out()"
    if x.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"{where}: Expected {dims + 1}D or {dims + 2}D tensor, but got: "
                           f"{list(x.shape)}")
    for d in range(1, x.dim()):
        if x.shape[d] == 0:
            raise RuntimeError(f"{where}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{list(x.shape)} with dimension {d} being "
                               "empty.")
    spatial = x.shape[-dims:]
    names, order = (("height", "width"), (0, 1)) if dims == 2 else \
        (("time", "height", "width"), (0, 2, 1))
    for d in order:
        if size[d] + kernel[d] - 1 > spatial[d] - (dims == 3):
            raise RuntimeError(f"{where}: pool {names[d]} {kernel[d]} too large relative to "
                               f"input {names[d]} {spatial[d]}")
    shape = [*x.shape[:-dims], *size]
    if min(size) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{next(s for s in shape if s < 0)}: {shape}")


def _check_fractional_samples(x, samples, dims):
    """torch's checks of ``_random_samples``: (at least the batch, channels, dims)."""
    if samples.dtype != x.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    batch, channels = (1, x.shape[0]) if x.dim() == dims + 1 else x.shape[:2]
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != channels:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != dims:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {dims}; got "
                           f"{samples.shape[2]}.")
