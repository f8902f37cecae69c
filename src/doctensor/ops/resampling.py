"""Resampling ``(N, C, *spatial)`` arrays: ``F.interpolate``'s nearest, linear and cubic resizes,
``F.pad``'s reflection, replication and circular padding, pixel and channel shuffles.

Note [resampling arithmetic]: torch's CPU kernels pick, for each output row (and column), the
source rows and weights in float32 for the nearest modes (``compute_scales_value``: 1 /
scale_factor when one was given, else in / out) and in the input's "opmath" type (float32, or
float64 for double inputs) for the others (``area_pixel_compute_source_index``), so the same
steps here pick the same rows.  The interpolating modes mix the last dim first, then each
earlier one, in the input's dtype.
A resize is linear in its input: its backward adds each output's gradient back with the same
weights, and that backward's own backward resizes again, so second derivatives follow.
"""

import itertools

import numpy as np

from ._dispatch import apply
from ._registry import declare
from .creation import zeros_like

__all__ = ["upsample", "pad", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]

_F = np.float32


def _scale(in_size, out_size, scale, ft=_F):
    """torch's scale from output to input coordinates, in the float type ``ft``."""
    return ft(1.0 / scale) if scale else ft(in_size) / ft(out_size)


def _nearest(in_size, out_size, scale):
    """For each output position, its source position (torch's nearest_idx)."""
    if out_size == in_size:
        return np.arange(out_size)
    if out_size == 2 * in_size:
        return np.arange(out_size) >> 1
    src = np.floor(np.arange(out_size, dtype=_F) * _scale(in_size, out_size, scale))
    return np.minimum(src.astype(np.int64), in_size - 1)


def _source(in_size, out_size, scale, align_corners, ft):
    """Each output position's position in the input (torch's area_pixel_compute_source_index,
    not clamped at 0), in the float type ``ft``."""
    if align_corners:
        s = ft(in_size - 1) / ft(out_size - 1) if out_size > 1 else ft(0)
        return s * np.arange(out_size, dtype=ft)
    return _scale(in_size, out_size, scale, ft) * (np.arange(out_size, dtype=ft) + ft(0.5)) \
        - ft(0.5)


def _linear(in_size, out_size, scale, align_corners, ft=_F):
    """For each output position: two source positions and their weights (bilinear)."""
    src = _source(in_size, out_size, scale, align_corners, ft)
    if not align_corners:
        src = np.maximum(src, ft(0))
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    w1 = np.clip(src - i0.astype(ft), ft(0), ft(1)).astype(ft)
    return i0, i0 + (i0 < in_size - 1), ft(1) - w1, w1


def _nearest_exact(in_size, out_size, scale):
    """For each output position, the source position nearest its centre (torch's
    nearest_exact_idx)."""
    if out_size == in_size:
        return np.arange(out_size)
    src = np.floor((np.arange(out_size, dtype=_F) + _F(0.5)) * _scale(in_size, out_size, scale))
    return np.minimum(src.astype(np.int64), in_size - 1)


def _cubic(in_size, out_size, scale, align_corners, ft=_F):
    """For each output position: four source positions (clamped to the input) and their
    weights, torch's cubic convolution (A = -0.75) in the float type ``ft``."""
    src = _source(in_size, out_size, scale, align_corners, ft)
    i0 = np.floor(src).astype(np.int64)
    t = src - i0.astype(ft)
    a = ft(-0.75)

    def near(x):  # |x| <= 1
        return ((a + ft(2)) * x - (a + ft(3))) * x * x + ft(1)

    def far(x):  # 1 < |x| < 2
        return ((a * x - ft(5) * a) * x + ft(8) * a) * x - ft(4) * a
    weights = (far(t + ft(1)), near(t), near(ft(1) - t), far(ft(2) - t))
    return [(np.clip(i0 - 1 + j, 0, in_size - 1), w) for j, w in enumerate(weights)]


def _taps(mode, shape, size, scales, align_corners, ft=_F):
    """Per spatial dim: a list of (source positions, weights) pairs (weights None: nearest
    modes, whose positions torch computes in float32; the others in ``ft``)."""
    taps = []
    for i, out in enumerate(size):
        n = shape[len(shape) - len(size) + i]
        if mode == "nearest":
            taps.append([(_nearest(n, out, scales[i]), None)])
        elif mode == "nearest-exact":
            taps.append([(_nearest_exact(n, out, scales[i]), None)])
        elif mode == "bicubic":
            taps.append(_cubic(n, out, scales[i], align_corners, ft))
        else:
            a, b, wa, wb = _linear(n, out, scales[i], align_corners, ft)
            taps.append([(a, wa), (b, wb)])
    return taps


def _resize(xp, x, taps):
    """The sum over the first dim's taps of (the later dims resized) times their weights:
    the last dim is mixed first, as torch's kernels do."""
    axis = x.ndim - len(taps)
    out = None
    for positions, weights in taps[0]:
        term = xp.take(x, xp.asarray(positions), axis=axis)
        if len(taps) > 1:
            term = _resize(xp, term, taps[1:])
        if weights is not None:
            term = term * xp.asarray(weights, x.dtype).reshape(-1, *(1,) * (len(taps) - 1))
        out = term if out is None else out + term
    return out


def _spread(xp, g, shape, taps):
    """The adjoint of ``_resize``: each output gradient added back to its sources."""
    dx = xp.zeros(tuple(shape), g.dtype)
    lead = (slice(None),) * (len(shape) - len(taps))
    for combination in itertools.product(*taps):
        weight = None
        for i, (_, w) in enumerate(combination):
            if w is not None:
                w = xp.asarray(w, g.dtype).reshape([-1 if j == i else 1
                                                    for j in range(len(taps))])
                weight = w if weight is None else weight * w
        index = np.ix_(*(positions for positions, _ in combination))
        xp.add.at(dx, lead + tuple(xp.asarray(i) for i in index),
                  g if weight is None else g * weight)
    return dx


def _resize_op(name):
    """A resize (``mode``'s torch node) and the op of its backward: the gradient's spread,
    ``...BackwardBackward0``, whose own backward resizes again."""
    forward = declare(name, name + "Backward0", unsaved=("taps",))(
        lambda xp, x, taps, **attrs: _resize(xp, x, taps))
    backward = declare(name + "Backward", name + "BackwardBackward0", ("grad_output",),
                       unsaved=("taps", "input_shape"))(
        lambda xp, g, taps, input_shape, **attrs: _spread(xp, g, input_shape, taps))

    @forward.def_backward
    def resize_backward(ctx, grad):
        return (apply(backward, grad, input_shape=ctx.input_meta[0][0], **ctx.attrs),)

    @backward.def_backward
    def spread_backward(ctx, grad):
        attrs = {k: v for k, v in ctx.attrs.items() if k != "input_shape"}
        return (apply(forward, grad, **attrs),)
    return forward


_OPS = {(mode, dims): _resize_op(name) for mode, dims, name in (
    ("nearest", 1, "UpsampleNearest1D"), ("nearest", 2, "UpsampleNearest2D"),
    ("nearest", 3, "UpsampleNearest3D"), ("nearest-exact", 1, "UpsampleNearestExact1D"),
    ("nearest-exact", 2, "UpsampleNearestExact2D"), ("nearest-exact", 3, "UpsampleNearestExact3D"),
    ("linear", 1, "UpsampleLinear1D"), ("bilinear", 2, "UpsampleBilinear2D"),
    ("bicubic", 2, "UpsampleBicubic2D"), ("trilinear", 3, "UpsampleTrilinear3D"))}
_SCALE_NAMES = {1: ("scales",), 2: ("scales_h", "scales_w"),
                3: ("scales_d", "scales_h", "scales_w")}


def upsample(x, size, scales, mode, align_corners):
    """``x`` ``(N, C, *spatial)`` resized to ``size`` (an int per spatial dim) by ``mode``
    ('nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic', 'trilinear' for the
    matching dims); ``scales`` are the scale factors given (or None), which torch's kernels
    use to place the samples (Note [resampling arithmetic])."""
    ft = np.float64 if x.dtype.itemsize == 8 else _F  # torch's opmath type
    taps = _taps(mode, x.shape, size, scales, bool(align_corners), ft)
    attrs = {"output_size": tuple(size), **dict(zip(_SCALE_NAMES[len(size)], scales)),
             "taps": taps}
    if not mode.startswith("nearest"):
        attrs["align_corners"] = bool(align_corners)
    return apply(_OPS[(mode, len(size))], x, **attrs)


# -- reflection and replication padding ------------------------------------------------------


def _pad_positions(mode, n, left, right):
    """For each output position along a dim of ``n``, the input position it copies:
    mirrored at the edges (reflect) or the edge repeated (replicate)."""
    positions = np.arange(-left, n + right)
    if mode == "reflect":
        positions = np.abs(positions)
        return np.where(positions > n - 1, 2 * (n - 1) - positions, positions)
    return np.clip(positions, 0, n - 1)


def _pad_index(mode, shape, padding):
    """The flat input position (within its plane of the last ``len(padding) / 2`` dims) of
    each output element; ``padding`` in torch's order, the last dim's pair first."""
    k = len(padding) // 2
    spatial = shape[-k:]
    axes = [_pad_positions(mode, n, padding[2 * (k - 1 - i)], padding[2 * (k - 1 - i) + 1])
            for i, n in enumerate(spatial)]
    return np.ravel_multi_index(np.ix_(*axes), spatial)


def _pad_forward(xp, x, padding, mode):
    k = len(padding) // 2
    index = _pad_index(mode, x.shape, padding)
    planes = x.reshape(*x.shape[:-k], -1)
    return planes[..., xp.asarray(index)]


def _pad_backward(xp, g, padding, mode, input_shape):
    """Each output's gradient added to the input element it copies, in the order of the
    outputs (torch's kernel: the same sums, bit for bit)."""
    k = len(padding) // 2
    index = _pad_index(mode, input_shape, padding).ravel()
    lead = tuple(input_shape[:-k])
    dx = xp.zeros((int(np.prod(lead, dtype=np.int64)), int(np.prod(input_shape[-k:]))),
                  g.dtype)
    xp.add.at(dx, (slice(None), xp.asarray(index)), g.reshape(dx.shape[0], -1))
    return dx.reshape(input_shape)


def _pad_op(name, mode):
    """A padding (``name``: torch's node, e.g. ReflectionPad2D) and the op of its backward,
    ``...BackwardBackward0``, whose own backward pads again."""
    forward = declare(name, name + "Backward0", saves={"self": "self"})(
        lambda xp, x, padding: _pad_forward(xp, x, padding, mode))
    backward = declare(name + "Backward", name + "BackwardBackward0", ("grad_output", "self"),
                       saves={"self": "self"})(
        lambda xp, g, x, padding: _pad_backward(xp, g, padding, mode, x.shape))

    @forward.def_backward
    def pad_backward(ctx, grad):
        return (apply(backward, grad, ctx.self, padding=ctx.padding),)

    @backward.def_backward
    def pad_backward_backward(ctx, grad):
        n = ctx.needs_input_grad
        return (apply(forward, grad, padding=ctx.padding) if n[0] else None,
                zeros_like(ctx.self) if n[1] else None)
    return forward


_PADS = {(mode, k): _pad_op(f"{kind}Pad{k}D", mode)
         for mode, kind in (("reflect", "Reflection"), ("replicate", "Replication"))
         for k in (1, 2, 3)}


def pad(x, padding, mode, value=None):
    """``F.pad`` in the modes 'reflect', 'replicate' and 'circular' of the last 1, 2 or 3
    dims (``padding``: a (before, after) pair per dim, the last dim's first), with torch's
    checks in its order."""
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    padding = tuple(padding)
    if len(padding) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(padding) > 2 * x.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(padding)} and input of "
                           f"dimension {x.dim()}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(padding) // 2
    if k not in (1, 2, 3) or x.dim() not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(padding)} is not supported for {x.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return _pad_circular(x, padding)
    _check_pad(x, padding, mode)
    return apply(_PADS[(mode, k)], x, padding=padding)


def _check_pad(x, padding, mode):
    """Reflection and replication padding's refusals: an empty plane, a reflection as wide
    as the input, an empty 1-d result."""
    k = len(padding) // 2
    shape = list(x.shape)
    if any(n == 0 for n in shape[int(x.dim() == k + 2):]):
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 "
                           f"batch size and other non-zero dimensions for input, but got: "
                           f"{shape}")
    for i in range(k):
        dim, (left, right) = x.dim() - 1 - i, padding[2 * i:2 * i + 2]
        if mode == "reflect" and (left >= shape[dim] or right >= shape[dim]):
            raise RuntimeError(
                f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                f"input dimension, but got: padding ({left}, {right}) at dimension {dim} of "
                f"input {shape}")
    if k == 1 and shape[-1] + padding[0] + padding[1] < 1:
        raise RuntimeError(f"input (W: {shape[-1]}) is too small. Calculated output W: "
                           f"{shape[-1] + padding[0] + padding[1]}")


def _pad_circular(x, padding):
    """Circular padding as torch composes it: the input copied into the middle of a new
    tensor, then each dim's ends copied from its other side (the grad_fn: CopySlices)."""
    k = len(padding) // 2
    dims = [x.dim() - 1 - i for i in range(k)]
    pairs = [padding[2 * i:2 * i + 2] for i in range(k)]
    for dim, (left, right) in zip(dims, pairs):
        if left > x.shape[dim] or right > x.shape[dim]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
    shape = list(x.shape)
    for dim, (left, right) in zip(dims, pairs):
        shape[dim] += left + right
    out = inner = x.new_empty(shape)
    source = x
    for dim, (left, right) in zip(dims, pairs):
        inner = inner.narrow(dim, max(left, 0), shape[dim] - max(left, 0) - max(right, 0))
        source = source.narrow(dim, max(-left, 0),
                               x.shape[dim] - max(-left, 0) - max(-right, 0))
    inner.copy_(source)
    for dim, (left, right) in zip(dims, pairs):
        if left > 0:
            out.narrow(dim, 0, left).copy_(
                out.narrow(dim, shape[dim] - left - max(right, 0), left))
        if right > 0:
            out.narrow(dim, shape[dim] - right, right).copy_(out.narrow(dim, max(left, 0), right))
    return out


# -- pixel shuffle ---------------------------------------------------------------------------


def _shuffle(x, r):
    """(*, C r r, H, W) -> (*, C, H r, W r): channel c r r + i r + j goes to the pixel
    offset (i, j) of each r x r block."""
    *lead, c, h, w = x.shape
    blocks = x.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return blocks.transpose(order).reshape(*lead, c // (r * r), h * r, w * r)


def _unshuffle(x, r):
    """The inverse of ``_shuffle``: (*, C, H r, W r) -> (*, C r r, H, W)."""
    *lead, c, h, w = x.shape
    blocks = x.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return blocks.transpose(order).reshape(*lead, c * r * r, h // r, w // r)


@declare("pixel_shuffle", "PixelShuffleBackward0")
def _pixel_shuffle(xp, x, upscale_factor):
    return xp.ascontiguousarray(_shuffle(x, upscale_factor))


@declare("pixel_unshuffle", "PixelUnshuffleBackward0")
def _pixel_unshuffle(xp, x, downscale_factor):
    return xp.ascontiguousarray(_unshuffle(x, downscale_factor))


@_pixel_shuffle.def_backward
def pixel_shuffle_backward(ctx, grad):
    return (apply(_pixel_unshuffle, grad, downscale_factor=ctx.upscale_factor),)


@_pixel_unshuffle.def_backward
def pixel_unshuffle_backward(ctx, grad):
    return (apply(_pixel_shuffle, grad, upscale_factor=ctx.downscale_factor),)


def _check_shuffle(x, name, factor_name, factor):
    if x.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {x.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {factor_name}, but got {factor}")


def pixel_shuffle(x, upscale_factor):
    """``F.pixel_shuffle``: (*, C r^2, H, W) -> (*, C, H r, W r)."""
    _check_shuffle(x, "pixel_shuffle", "upscale_factor", upscale_factor)
    if x.shape[-3] % (upscale_factor * upscale_factor):
        raise RuntimeError(
            f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
            f"square of upscale_factor, but input.size(-3)={x.shape[-3]} is not divisible by "
            f"{upscale_factor * upscale_factor}")
    return apply(_pixel_shuffle, x, upscale_factor=upscale_factor)


def pixel_unshuffle(x, downscale_factor):
    """``F.pixel_unshuffle``: (*, C, H r, W r) -> (*, C r^2, H, W)."""
    _check_shuffle(x, "pixel_unshuffle", "downscale_factor", downscale_factor)
    for what, dim in (("height", -2), ("width", -1)):
        if x.shape[dim] % downscale_factor:
            raise RuntimeError(
                f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                f"input.size({dim})={x.shape[dim]} is not divisible by {downscale_factor}")
    return apply(_pixel_unshuffle, x, downscale_factor=downscale_factor)


# -- channel shuffle -------------------------------------------------------------------------


@declare("channel_shuffle", "ChannelShuffleBackward0")
def _channel_shuffle(xp, x, groups):
    """Channels (g, C / g) regrouped as (C / g, g): channel i * C / g + j goes to j * g + i."""
    n, c = x.shape[:2]
    return xp.ascontiguousarray(
        x.reshape(n, groups, c // groups, *x.shape[2:]).swapaxes(1, 2).reshape(x.shape))


@_channel_shuffle.def_backward
def channel_shuffle_backward(ctx, grad):
    """The inverse shuffle: by C / g groups."""
    return (apply(_channel_shuffle, grad, groups=grad.shape[1] // ctx.groups),)


def channel_shuffle(x, groups):
    """``F.channel_shuffle``: interleave the channels of ``groups`` groups (ShuffleNet)."""
    if x.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(x.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    if x.shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {x.shape[1]} "
                           f"channels and {groups} groups.")
    return apply(_channel_shuffle, x, groups=groups)
