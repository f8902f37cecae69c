"""Resampling ``(N, C, *spatial)`` arrays: ``F.interpolate``'s nearest, linear and cubic resizes,
``F.pad``'s reflection, replication and circular padding, pixel and channel shuffles.

Note [resampling arithmetic]: torch's CPU kernels pick, for each output row (and column), the
source rows and weights in float32 for the nearest modes (``compute_scales_value``: 1 /
scale_factor when one was given, else in / out) and in the input's "opmath" type (float32, or
float64 for double inputs) for the others (``area_pixel_compute_source_index``), so the same
steps here pick the same rows (``scale * (i + 0.5) - 0.5`` fused, its ``floorf`` taken in
float32 even for double inputs).  The interpolating modes mix the last dim first, then each
earlier one, in the input's dtype; two taps as the generic kernel's ``t0 * w0 + t1 * w1``,
fused by the compiler: torch's generic kernel, which runs linear and trilinear, and bilinear
but for an output whose height and width add up to 128 or less, a channels-last input of
more than 3 channels or 3 channels on one thread: those take its channels-last kernel
(``_bilinear_channels_last``).  Bicubic's weights and the gradients sum in other orders (the
op rows' tolerances).
A resize is linear in its input: its backward adds each output's gradient back with the same
weights, and that backward's own backward resizes again, so second derivatives follow.
"""

import itertools

import numpy as np

from .._exact.cascade_sum import num_threads
from .._exact.fma import fma32, fma64
from .._strides import is_channels_last
from ._dispatch import apply
from ._registry import declare
from .creation import _linspace, from_array, zeros_like

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
    not clamped at 0: ``scale * (i + 0.5) - 0.5`` fused), in the float type ``ft``."""
    if align_corners:
        s = ft(in_size - 1) / ft(out_size - 1) if out_size > 1 else ft(0)
        return s * np.arange(out_size, dtype=ft)
    fma = fma32 if ft is np.float32 else fma64
    return fma(np.full(out_size, _scale(in_size, out_size, scale, ft), ft),
               np.arange(out_size, dtype=ft) + ft(0.5), np.full(out_size, ft(-0.5), ft))


def _floorf(src):
    """torch's ``floorf`` of a source position: of its float32 rounding, even in float64
    (31.999999999999996 is position 32)."""
    return np.floor(src.astype(np.float32)).astype(np.int64)


def _linear(in_size, out_size, scale, align_corners, ft=_F):
    """For each output position: two source positions and their weights (bilinear); the same
    size is a copy (the second position the first, weighted 0)."""
    if out_size == in_size:
        i = np.arange(out_size)
        return i, i, np.ones(out_size, ft), np.zeros(out_size, ft)
    src = _source(in_size, out_size, scale, align_corners, ft)
    if not align_corners:
        src = np.maximum(src, ft(0))
    i0 = np.minimum(_floorf(src), in_size - 1)
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
    i0 = _floorf(src)
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
    the last dim is mixed first, as torch's kernels do.  Two taps combine as the CPU kernel's
    ``t0 * w0 + t1 * w1``, which the compiler fuses: ``fma(t0, w0, t1 * w1)``."""
    axis = x.ndim - len(taps)
    terms = []
    for positions, weights in taps[0]:
        term = xp.take(x, xp.asarray(positions), axis=axis)
        if len(taps) > 1:
            term = _resize(xp, term, taps[1:])
        terms.append((term, None if weights is None else xp.asarray(
            weights, x.dtype).reshape(-1, *(1,) * (len(taps) - 1))))
    if len(terms) == 2 and terms[0][1] is not None and xp is np and x.dtype in _FUSED:
        (t0, w0), (t1, w1) = terms
        return _FUSED[x.dtype](t0, np.broadcast_to(w0, t0.shape), t1 * w1)
    out = None
    for term, weights in terms:
        term = term if weights is None else term * weights
        out = term if out is None else out + term
    return out


_FUSED = {np.dtype(np.float32): fma32, np.dtype(np.float64): fma64}


def _interpolate(xp, x, taps):
    """A resize's forward: torch's channels-last bilinear kernel where torch runs it (an
    output whose height and width add up to 128 or less, a channels-last input of more than
    3 channels, 3 channels on one thread), else ``_resize`` (its generic kernel)."""
    if (xp is np and x.dtype in _FUSED and len(taps) == 2 and x.ndim == 4
            and all(len(t) == 2 and t[0][1] is not None for t in taps)):
        channels = x.shape[1]
        if (len(taps[0][0][0]) + len(taps[1][0][0]) <= 128 or channels == 3 and num_threads() == 1
                or channels > 3 and is_channels_last(x.shape, [s // x.itemsize
                                                               for s in x.strides])):
            return _bilinear_channels_last(x, taps)
    return _resize(xp, x, taps)


def _bilinear_channels_last(x, taps):
    """torch's cpu_upsample_linear_channels_last for 2 spatial dims: each output's corner
    weights ``lambda_h * lambda_w`` rounded, then per channel a chain of fused multiply-adds,
    the vector lanes' and the last ``C % L`` channels' fused in the orders the compiler gave
    them (told apart on random inputs against torch, 40/40 each)."""
    fma = _FUSED[x.dtype]
    (h0, lh0), (h1, lh1) = taps[0]
    (w0, lw0), (w1, lw1) = taps[1]
    w = {(a, b): (la[:, None] * lb[None, :]).astype(x.dtype)
         for a, la in ((0, lh0), (1, lh1)) for b, lb in ((0, lw0), (1, lw1))}
    rows = {0: x[:, :, h0], 1: x[:, :, h1]}
    t = {(a, b): rows[a][:, :, :, cols] for a in (0, 1) for b, cols in ((0, w0), (1, w1))}
    vector = x.shape[1] - x.shape[1] % (32 // x.itemsize)  # (REGISTER_DISPATCH: AVX2 lanes)
    head = {k: v[:, :vector] for k, v in t.items()}
    tail = {k: v[:, vector:] for k, v in t.items()}

    def fused(v, k, c):
        return fma(v[k], np.broadcast_to(w[k], v[k].shape), c)
    out_head = fused(head, (0, 0), fused(head, (0, 1), fused(head, (1, 1),
                                                             head[1, 0] * w[1, 0])))
    out_tail = fused(tail, (1, 1), fused(tail, (1, 0), fused(tail, (0, 0),
                                                             tail[0, 1] * w[0, 1])))
    return np.concatenate([out_head, out_tail], axis=1)


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
        lambda xp, x, taps, **attrs: _interpolate(xp, x, taps))
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


# -- affine_grid_generator (misc3) ----------------------------------------------------------
#
# Note [affine grids]: torch's affine_grid_generator lays a base grid of homogeneous
# coordinates (x, y[, z], 1) over the output, x along the last dim, each axis torch's
# ``linspace(-1, 1, n)`` (times (n - 1) / n without align_corners: the pixel centres; one
# position: 0), and multiplies it by each theta: ``base (N, HW, 3) bmm theta^T``.  Its
# gradient in theta is ``(base^T bmm grad)^T``, composed of doctensor ops (torch's nodes
# TransposeBackward0 <- BmmBackward0 under create_graph).

__all__ += ["affine_grid_generator"]


def _grid_axis(n, align_corners, ft):
    """The positions of one axis of the base grid, in the float type ``ft``."""
    if n <= 1:
        return np.zeros(1, ft)
    steps = _linspace(ft.type, -1, 1, n)
    return steps if align_corners else steps * (n - 1) / n


def _base_grid(size, align_corners, ft):
    """The (*spatial, k + 1) base grid of Note [affine grids] for a ``size`` (N, C, *spatial)."""
    spatial = tuple(size[2:])
    k = len(spatial)
    base = np.ones(spatial + (k + 1,), ft)
    for i, n in enumerate(reversed(spatial)):
        axis = _grid_axis(n, align_corners, ft)
        base[..., i] = axis.reshape([len(axis) if j == k - 1 - i else 1 for j in range(k)])
    return base


@declare("affine_grid_generator", "AffineGridGeneratorBackward0")
def _affine_grid(xp, theta, size, align_corners):
    base = _base_grid(size, align_corners, theta.dtype)
    k = len(size) - 2
    wide = np.float32 if theta.dtype.itemsize < 4 else theta.dtype  # (half types: in float32)
    terms = base.reshape(1, -1, k + 1, 1).astype(wide) * theta.transpose(0, 2, 1)[:, None]
    grid = terms[:, :, 0]
    for j in range(1, k + 1):  # torch's bmm sums the k + 1 products in order (x, y[, z], 1)
        grid = grid + terms[:, :, j]
    return grid.astype(theta.dtype).reshape(size[0], *size[2:], k)


@_affine_grid.def_backward
def affine_grid_backward(ctx, grad):
    size, k = ctx.size, len(ctx.size) - 2
    base = from_array(_base_grid(size, ctx.align_corners, grad._data.dtype), grad)
    base = base.reshape(1, -1, k + 1).expand(size[0], -1, -1)
    return (base.transpose(1, 2).bmm(grad.reshape(size[0], -1, k)).transpose(1, 2),)


def affine_grid_generator(theta, size, align_corners):
    """``torch.affine_grid_generator``: the sampling grid ``(N, *spatial, k)`` of the affine
    maps ``theta`` (N, k, k + 1) over an output of ``size`` ``(N, C, *spatial)``, k = 2 or 3
    (Note [affine grids])."""
    size = tuple(size)
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    k = len(size) - 2
    if theta.shape[0] != size[0] or theta.shape[2] != k + 1:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, {k + 1}] but got: [{theta.shape[0]}, "
                           f"{theta.shape[2]}].")
    return apply(_affine_grid, theta, size=size, align_corners=bool(align_corners))


# -- grid_sampler_2d, grid_sampler_3d (misc3) -----------------------------------------------
#
# Note [grid sampling]: grid_sample reads the input at the positions a grid names, (x, y[, z])
# in [-1, 1] from the left-top(-front) corner (align_corners: the corner pixels' centres;
# else their outer edges).  'border' clips positions to [0, size - 1], 'reflection' folds
# them back into the input first; the derivative of a position in its coordinate (its
# "slope") is 0 where clipped.  Bilinear (trilinear) weighs the 4 (8) neighbours, in the
# order nw, ne, sw, se (then the back ones), by products of the distances to the far sides;
# neighbours outside the input read 0.  Nearest rounds half to even.  Bicubic (2-d) weighs
# 4 x 4 taps around the unpadded position by torch's cubic convolution weights (A = -0.75),
# the padding applied to each tap's position, and sums each row of taps, then the rows.
#   2-d: torch's vectorized CPU kernel maps a coordinate as ``(c + 1) * (size - 1) / 2``
#   (align_corners) or ``fma(c + 1, size / 2, -0.5)``, folds as
#   ``min(extra, 2span - extra)`` with ``extra = fma(-trunc(|p - low| / 2span), 2span,
#   |p - low|)``, and adds the weighted neighbours with fused multiply-adds.
#   3-d: torch's scalar kernel maps ``((c + 1) / 2) * (size - 1)`` or
#   ``((c + 1) * size - 1) / 2``, folds with fmod, and adds plainly.
# The gradient in the grid sums over channels in the kernels' order (exact); the gradient in
# the input adds each output's weighted gradient at its neighbours (3-d: in torch's order;
# 2-d: torch's vector lanes order them otherwise, within rounding).  The second derivatives
# come from the weights' derivatives (``_grid_double_backward``), computed on arrays.

__all__ += ["grid_sampler_2d", "grid_sampler_3d"]


def _fma(a, b, c):
    """``a * b + c`` rounded once (torch's 2-d kernel is compiled with fused multiply-adds)."""
    a, b, c = np.broadcast_arrays(a, b, c)
    return (fma32 if a.dtype == np.float32 else fma64)(a, b, c)


def _clip_positions(pos, slope, size, masked):
    """'border': positions clipped to [0, size - 1] (NaN: 0), their slope 0 where clipped:
    ``masked`` (the 2-d kernel's bit mask) a +0, else (the 3-d kernel's product) a signed 0."""
    ft = pos.dtype.type
    inside = (pos > 0) & (pos < size - 1)
    slope = np.where(inside, slope, ft(0)) if masked else slope * inside.astype(pos.dtype)
    return np.clip(np.where(np.isnan(pos), ft(0), pos), ft(0), ft(size - 1)), slope


def _positions_2d(coord, size, padding, align_corners):
    """Each coordinate's position and slope along a dim of ``size`` (the 2-d kernel's
    arithmetic, Note [grid sampling])."""
    ft = coord.dtype.type
    if align_corners:
        scale = ft(size - 1) / ft(2)
        pos = (coord + ft(1)) * scale
    else:
        scale = ft(size) / ft(2)
        pos = _fma(coord + ft(1), scale, ft(-0.5))
    slope = np.full(pos.shape, scale, pos.dtype)
    if padding == 2:
        if align_corners and size <= 1:
            pos, slope = np.zeros_like(pos), np.zeros_like(pos)
        else:
            low, twice = (ft(0), ft(size - 1) * ft(2)) if align_corners else \
                (ft(-0.5), ft(size) * ft(2))
            shifted = pos - low
            far = np.abs(shifted)
            extra = _fma(-np.trunc(far / twice), twice, far)
            other = twice - extra
            flip = extra > other
            pos = np.where(flip, other, extra) + low
            slope = np.where(flip ^ (shifted < 0), ft(-1), ft(1)) * slope
    return _clip_positions(pos, slope, size, True) if padding else (pos, slope)


def _positions_3d(coord, size, padding, align_corners):
    """Each coordinate's position and slope along a dim of ``size`` (the 3-d kernel's
    arithmetic, Note [grid sampling])."""
    ft = coord.dtype.type
    if align_corners:
        slope = np.full(coord.shape, ft(size - 1) / ft(2), coord.dtype)
        pos = ((coord + ft(1)) / ft(2)) * ft(size - 1)
    else:
        slope = np.full(coord.shape, ft(size) / ft(2), coord.dtype)
        pos = ((coord + ft(1)) * ft(size) - ft(1)) / ft(2)
    if padding == 2:
        if align_corners and size <= 1:
            pos, sign = np.zeros_like(pos), np.zeros_like(pos)
        else:
            low, span = (ft(0), ft(size - 1)) if align_corners else (ft(-0.5), ft(size))
            shifted = pos - low
            far = np.abs(shifted)
            extra = np.fmod(far, span)
            odd = np.floor(far / span) % 2 == 1
            pos = np.where(odd, (span - extra) + low, extra + low)
            sign = np.where(odd ^ (shifted < 0), ft(-1), ft(1))
        slope = slope * sign
    return _clip_positions(pos, slope, size, False) if padding else (pos, slope)


def _index(pos):
    """Positions (whole numbers) as indices; NaN, infinite and huge ones as an index no input
    has."""
    ok = np.isfinite(pos) & (np.abs(pos) < 2.0 ** 31)
    return np.where(ok, pos, -(2 ** 31)).astype(np.int64)


def _gather(inp, index, inside):
    """``inp`` (N, C, *spatial) at the per-dim indices ``index`` (each (N, *out)), 0 where not
    ``inside``: (N, C, *out)."""
    n, c, spatial = inp.shape[0], inp.shape[1], inp.shape[2:]
    flat = np.where(inside, np.ravel_multi_index(
        tuple(np.where(inside, i, 0) for i in index), spatial), 0).reshape(n, 1, -1)
    values = np.take_along_axis(inp.reshape(n, c, -1), flat, -1)
    return np.where(inside.reshape(n, 1, -1), values, 0).reshape(n, c, *inside.shape[1:])


def _scatter(shape, index, inside, grads):
    """The adjoint of ``_gather`` for several corners at once: ``grads[k]`` (N, C, *out) added
    at corner k's indices, position by position and corner by corner (torch's 3-d order)."""
    n, c, spatial = shape[0], shape[1], shape[2:]
    flat = np.stack([np.where(ins, np.ravel_multi_index(
        tuple(np.where(ins, i, 0) for i in idx), spatial), 0).reshape(n, -1)
        for idx, ins in zip(index, inside)], -1)  # (N, P, corners)
    keep = np.stack([ins.reshape(n, -1) for ins in inside], -1)
    vals = np.stack([g.reshape(n, c, -1) for g in grads], -1)  # (N, C, P, corners)
    out = np.zeros((n, c, int(np.prod(spatial))), vals.dtype)
    for b, ch in itertools.product(range(n), range(c)):
        np.add.at(out[b, ch], flat[b][keep[b]], vals[b, ch][keep[b]])
    return out.reshape(shape)


class _Corners:
    """The neighbours of each grid point (Note [grid sampling]): per corner (bits from the
    first spatial dim to the last: 0 near, 1 far) its indices, whether it is inside, its
    distance factors per coordinate (x first) and their signs, its weight and its values."""

    def __init__(self, inp, grid, padding, align_corners):
        k = grid.shape[-1]
        spatial = inp.shape[2:]
        locate = _positions_2d if k == 2 else _positions_3d
        found = [locate(grid[..., d], spatial[k - 1 - d], padding, align_corners)
                 for d in range(k)]  # per coordinate (x, y[, z])
        self.slopes = [slope for _, slope in found]
        near = [np.floor(pos) for pos, _ in found]
        if k == 2:  # the 2-d kernel's distances: w = x - x0, e = 1 - w
            far_side = [pos - n for (pos, _), n in zip(found, near)]
            factors = [(1 - f, f) for f in far_side]
        else:  # the 3-d kernel's: (x1 - x), (x - x0)
            factors = [((n + 1) - pos, pos - n) for (pos, _), n in zip(found, near)]
        first = [_index(n) for n in near]
        self.index, self.inside, self.factors, self.signs, self.weights = [], [], [], [], []
        for bits in itertools.product((0, 1), repeat=k):  # (z,) y, x: nw, ne, sw, se, ...
            per_coord = bits[::-1]
            idx = tuple(first[k - 1 - j] + bits[j] for j in range(k))
            inside = np.logical_and.reduce([(i >= 0) & (i < n) for i, n in zip(idx, spatial)])
            fs = [factors[d][per_coord[d]] for d in range(k)]
            self.index.append(idx)
            self.inside.append(inside)
            self.factors.append(fs)
            self.signs.append([1 if b else -1 for b in per_coord])
            weight = fs[0] * fs[1]
            self.weights.append(weight if k == 2 else weight * fs[2])
        self.values = [_gather(inp, i, ins) for i, ins in zip(self.index, self.inside)]

    def others(self, corner, skip):
        """The product of corner's distance factors but those of the coordinates ``skip``."""
        kept = [f for d, f in enumerate(self.factors[corner]) if d not in skip]
        out = kept[0] if kept else np.ones_like(self.factors[corner][0])
        for f in kept[1:]:
            out = out * f
        return out

    def dweight(self, corner, d):
        """d(weight)/d(position along coordinate d)."""
        return self.signs[corner][d] * self.others(corner, {d})

    def d2weight(self, corner, d, e):
        """The second derivative of a weight in coordinates d and e (0 for d == e)."""
        if d == e:
            return np.zeros_like(self.weights[corner])
        return self.signs[corner][d] * self.signs[corner][e] * self.others(corner, {d, e})


_A = -0.75  # the cubic convolution's constant (torch's, as in its bicubic upsampling)


def _cubic_weights(t):
    """The four cubic convolution weights at the distance ``t`` in [0, 1) past the second
    tap, as torch's 2-d kernel computes them (fused multiply-adds where its compiler forms
    them)."""
    ft = t.dtype.type
    a, one = ft(_A), ft(1)

    def outer(x):
        return ((a * x - ft(5) * a) * x + ft(8) * a) * x - ft(4) * a

    def inner(x):
        return _fma(_fma(a + ft(2), x, -(a + ft(3))) * x, x, one)
    return [outer(t + one), inner(t), inner(one - t), outer(ft(2) - t)]


def _cubic_slopes(t):
    """Minus the derivatives of the four weights in ``t`` (torch's
    get_cubic_coefficients_grad)."""
    ft = t.dtype.type
    a = ft(_A)
    inner = (ft(-3) * (a + ft(2)), ft(3) * (a + ft(2)))
    return [(ft(-3) * a * (ft(-1) - t) - ft(10) * a) * (ft(-1) - t) - ft(8) * a,
            (inner[0] * (ft(0) - t) - ft(2) * (a + ft(3))) * (ft(0) - t),
            (inner[1] * (ft(1) - t) - ft(2) * (a + ft(3))) * (ft(1) - t),
            (ft(3) * a * (ft(2) - t) - ft(10) * a) * (ft(2) - t) + ft(8) * a]


def _cubic_curvatures(t):
    """The second derivatives of the four weights in ``t``."""
    a = _A
    return [6 * a * (t + 1) - 10 * a, 6 * (a + 2) * t - 2 * (a + 3),
            6 * (a + 2) * (1 - t) - 2 * (a + 3), 6 * a * (2 - t) - 10 * a]


class _Taps:
    """The 4 x 4 taps of bicubic sampling (2-d), with ``_Corners``' interface: per tap (x
    tap i, y tap j, in that order) its indices (the padding applied to the tap's position),
    whether it is inside, its weight and values; the weights' derivatives."""

    def __init__(self, inp, grid, padding, align_corners):
        h, w = inp.shape[2:]
        ft = grid.dtype.type
        x, y = (_positions_2d(grid[..., d], n, 0, align_corners) for d, n in ((0, w), (1, h)))
        self.slopes = [x[1], y[1]]
        fx, fy = np.floor(x[0]), np.floor(y[0])
        tx, ty = x[0] - fx, y[0] - fy
        self.cx, self.cy = _cubic_weights(tx), _cubic_weights(ty)
        self.gx, self.gy = _cubic_slopes(tx), _cubic_slopes(ty)
        self.kx, self.ky = _cubic_curvatures(tx), _cubic_curvatures(ty)
        self.taps = [(i, j) for i in range(4) for j in range(4)]
        self.index, self.inside, self.weights = [], [], []
        for i, j in self.taps:
            cols = _index(np.trunc(_positions_of_taps(fx + ft(i - 1), w, padding,
                                                      align_corners)))
            rows = _index(np.trunc(_positions_of_taps(fy + ft(j - 1), h, padding,
                                                      align_corners)))
            self.index.append((rows, cols))
            self.inside.append((cols >= 0) & (cols < w) & (rows >= 0) & (rows < h))
            self.weights.append(self.cx[i] * self.cy[j])
        self.values = [_gather(inp, i, ins) for i, ins in zip(self.index, self.inside)]

    def dweight(self, tap, d):
        i, j = self.taps[tap]
        return -(self.gx[i] * self.cy[j]) if d == 0 else -(self.cx[i] * self.gy[j])

    def d2weight(self, tap, d, e):
        i, j = self.taps[tap]
        if d != e:
            return self.gx[i] * self.gy[j]
        return self.kx[i] * self.cy[j] if d == 0 else self.cx[i] * self.ky[j]


def _positions_of_taps(pos, size, padding, align_corners):
    """Tap positions with the padding applied (torch's compute_coordinates)."""
    if not padding:
        return pos
    slope = np.zeros_like(pos)
    if padding == 2:
        ft = pos.dtype.type
        if align_corners and size <= 1:
            return np.zeros_like(pos)
        low, twice = (ft(0), ft(size - 1) * ft(2)) if align_corners else \
            (ft(-0.5), ft(size) * ft(2))
        far = np.abs(pos - low)
        extra = _fma(-np.trunc(far / twice), twice, far)
        pos = np.minimum(extra, twice - extra) + low
    return _clip_positions(pos, slope, size, True)[0]


def _bicubic(inp, at):
    """torch's bicubic sum: each row of 4 x taps, then the 4 rows (Note [grid sampling])."""
    rows = []
    for j in range(4):
        v = [at.values[i * 4 + j] for i in range(4)]
        c = [cx[:, None] for cx in at.cx]
        rows.append((_fma(c[0], v[0], c[1] * v[1]) + c[2] * v[2]) + c[3] * v[3])
    c = [cy[:, None] for cy in at.cy]
    out = rows[0] * c[0]
    for k in range(1, 4):
        out = _fma(c[k], rows[k], out)
    return out


def _nearest_points(inp, grid, padding, align_corners):
    """The nearest input element of each grid point (rounding half to even), and whether it
    is inside the input."""
    k = grid.shape[-1]
    spatial = inp.shape[2:]
    locate = _positions_2d if k == 2 else _positions_3d
    index = tuple(_index(np.rint(locate(grid[..., k - 1 - j], spatial[j], padding,
                                        align_corners)[0])) for j in range(k))
    inside = np.logical_and.reduce([(i >= 0) & (i < n) for i, n in zip(index, spatial)])
    return index, inside


def _neighbours(inp, grid, interpolation_mode, padding_mode, align_corners):
    """The bilinear (trilinear) corners or the bicubic taps of each grid point."""
    taps = _Taps if interpolation_mode == 2 else _Corners
    return taps(inp, grid, padding_mode, align_corners)


def _grid_sample(xp, inp, grid, interpolation_mode, padding_mode, align_corners):
    if interpolation_mode == 1:
        return _gather(inp, *_nearest_points(inp, grid, padding_mode, align_corners))
    if interpolation_mode == 2:
        return _bicubic(inp, _Taps(inp, grid, padding_mode, align_corners))
    at = _Corners(inp, grid, padding_mode, align_corners)
    if grid.shape[-1] == 2:  # fused multiply-adds, neighbours outside read as 0
        out = at.values[0] * at.weights[0][:, None]
        for weight, value in zip(at.weights[1:], at.values[1:]):
            out = _fma(value, weight[:, None], out)
        return out
    out = np.zeros(at.values[0].shape, inp.dtype)
    for weight, value, inside in zip(at.weights, at.values, at.inside):
        out = np.where(inside[:, None], out + value * weight[:, None], out)
    return out


def _grid_sample_gradient(xp, grad, inp, grid, interpolation_mode, padding_mode,
                          align_corners):
    """torch's grid_sampler_{2,3}d_backward: the gradients in the input and in the grid."""
    if interpolation_mode == 1:
        index, inside = _nearest_points(inp, grid, padding_mode, align_corners)
        return _scatter(inp.shape, [index], [inside], [grad]), np.zeros_like(grid)
    at = _neighbours(inp, grid, interpolation_mode, padding_mode, align_corners)
    if interpolation_mode == 2:
        grad_input = _scatter(inp.shape, at.index, at.inside, [
            (grad * at.cx[i][:, None]) * at.cy[j][:, None] for i, j in at.taps])
        return grad_input, _bicubic_grid_gradient(grad, at)
    grad_input = _scatter(inp.shape, at.index, at.inside,
                          [grad * w[:, None] for w in at.weights])
    k = grid.shape[-1]
    sums = [np.zeros(grid.shape[:-1], grad.dtype) for _ in range(k)]
    for c in range(inp.shape[1]):
        g, v = grad[:, c], [value[:, c] for value in at.values]
        if k == 2:  # (ne - nw) * s + (se - sw) * n, and (sw - nw) * e + (se - ne) * w
            (de, ds), (dw, dn) = at.factors[0], at.factors[3]
            sums[0] = _fma(_fma(v[3] - v[2], dn, (v[1] - v[0]) * ds), g, sums[0])
            sums[1] = _fma(_fma(v[3] - v[1], dw, (v[2] - v[0]) * de), g, sums[1])
            continue
        for corner, value in enumerate(v):
            for d in range(k):
                term = value
                for e in range(k):
                    if e != d:
                        term = term * at.factors[corner][e]
                term = np.where(at.inside[corner], term * g, 0)
                sums[d] = sums[d] + term if at.signs[corner][d] > 0 else sums[d] - term
    return grad_input, np.stack([s * slope for s, slope in zip(sums, at.slopes)], -1)


def _bicubic_grid_gradient(grad, at):
    """The bicubic gradient in the grid: channel by channel, tap by tap (x tap, then y tap),
    with torch's fused multiply-adds."""
    gx = np.zeros(grad.shape[:1] + grad.shape[2:], grad.dtype)
    gy = np.zeros_like(gx)
    for c in range(grad.shape[1]):
        g = grad[:, c]
        for t, (i, j) in enumerate(at.taps):
            v = at.values[t][:, c] * g
            gx = _fma(-(v * at.gx[i]), at.cy[j], gx)
            gy = _fma(-(v * at.gy[j]), at.cx[i], gy)
    return np.stack([gx * at.slopes[0], gy * at.slopes[1]], -1)


def _grid_double_backward(ctx, grads):
    """The gradients of grid_sampler's backward (its two results' gradients ``grads``),
    from the derivatives of the weights, computed on arrays (the results carry no graph:
    no third derivatives)."""
    need = ctx.needs_input_grad
    g_in, g_grid = (None if g is None else g._data for g in grads)
    gout, inp, grid = ctx.grad_output._data, ctx.input._data, ctx.grid._data
    g_in = np.zeros_like(inp) if g_in is None else g_in
    g_grid = np.zeros_like(grid) if g_grid is None else g_grid
    attrs = (ctx.padding_mode, ctx.align_corners)
    if ctx.interpolation_mode == 1:
        picked = _gather(g_in, *_nearest_points(inp, grid, *attrs))
        return (from_array(picked, ctx.grad_output) if need[0] else None, None,
                zeros_like(ctx.grid) if need[2] else None)
    at = _neighbours(inp, grid, ctx.interpolation_mode, *attrs)
    k = grid.shape[-1]
    picks = [_gather(g_in, i, ins) for i, ins in zip(at.index, at.inside)]
    pull = [g_grid[..., d] * at.slopes[d] for d in range(k)]
    slope_of = [[at.dweight(j, d) for d in range(k)] for j in range(len(at.weights))]
    along = [sum(pull[d] * slope_of[j][d] for d in range(k)) for j in range(len(at.weights))]
    d_gout = sum(p * w[:, None] + v * a[:, None]
                 for p, v, w, a in zip(picks, at.values, at.weights, along))
    d_inp = _scatter(inp.shape, at.index, at.inside, [gout * a[:, None] for a in along])
    d_grid = []
    for d in range(k):
        first = sum((gout * p).sum(1) * slope_of[j][d] for j, p in enumerate(picks))
        second = sum(pull[e] * sum((gout * v).sum(1) * at.d2weight(j, d, e)
                                   for j, v in enumerate(at.values)) for e in range(k))
        d_grid.append(first * at.slopes[d] + second * at.slopes[d])
    d_grid = np.stack(d_grid, -1)
    return tuple(from_array(a.astype(t._data.dtype), t) if n else None for a, t, n in zip(
        (d_gout, d_inp, d_grid), (ctx.grad_output, ctx.input, ctx.grid), need))


def _grid_sampler_ops(dims):
    """grid_sampler_{dims}d's record and its backward's (GridSampler{dims}DBackward...)."""
    name = f"GridSampler{dims}D"
    op = declare(f"grid_sampler_{dims}d", name + "Backward0", ("input", "grid"),
                 saves={"input": ("input", "grid"), "grid": ("input", "grid")})(_grid_sample)
    gradient = declare(name + "Backward", name + "BackwardBackward0",
                       ("grad_output", "input", "grid"), outputs=("grad_input", "grad_grid"),
                       saves={"grad_output": ("input", "grid"),
                              "input": ("grad_output", "grid"),
                              "grid": ("grad_output", "input", "grid")})(_grid_sample_gradient)
    gradient.def_backward(_grid_double_backward)

    @op.def_backward
    def grid_sampler_backward(ctx, grad):
        return apply(gradient, grad, ctx.input, ctx.grid, **ctx.attrs)
    return op


_GRID_SAMPLERS = {2: _grid_sampler_ops(2), 3: _grid_sampler_ops(3)}


def grid_sampler_2d(inp, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler_2d``: ``inp`` (N, C, H, W) read at the (N, H', W', 2) ``grid``'s
    positions (Note [grid sampling]); modes as torch's numbers (interpolation: 0 bilinear,
    1 nearest; padding: 0 zeros, 1 border, 2 reflection)."""
    return _grid_sampler(inp, grid, interpolation_mode, padding_mode, align_corners, 2)


def grid_sampler_3d(inp, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler_3d``: ``grid_sampler_2d`` of (N, C, D, H, W) inputs and
    (N, D', H', W', 3) grids."""
    return _grid_sampler(inp, grid, interpolation_mode, padding_mode, align_corners, 3)


def _grid_sampler(inp, grid, interpolation_mode, padding_mode, align_corners, dims):
    _check_grid_sampler(inp, grid, dims)
    if interpolation_mode == 2 and dims == 3:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    return apply(_GRID_SAMPLERS[dims], inp, grid, interpolation_mode=interpolation_mode,
                 padding_mode=padding_mode, align_corners=bool(align_corners))


def _check_grid_sampler(inp, grid, dims):
    """torch's checks of grid_sampler's input and grid, in its order."""
    shapes = f"input with sizes {list(inp.shape)} and grid with sizes {list(grid.shape)}"
    if inp.dim() != grid.dim() or inp.dim() < 3 or inp.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got {shapes}")
    if grid.shape[-1] != inp.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {inp.dim() - 2} in last "
                           f"dimension, but got grid with sizes {list(grid.shape)}")
    for d in range(2, inp.dim()):
        if inp.shape[d] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(inp.shape)} with "
                               f"dimension {d} being empty")
    if inp.dim() != dims + 2:
        raise RuntimeError(f"grid_sampler(): expected {dims + 2}D input and grid with same "
                           f"number of dimensions, but got {shapes}")
    if not inp.dtype.is_floating_point:
        raise NotImplementedError(f'"grid_sampler_{dims}d_cpu_kernel_impl" not implemented '
                                  f"for '{inp.dtype.scalar_name}'")
    if grid.dtype != inp.dtype:
        raise RuntimeError(f"expected scalar type {inp.dtype.scalar_name} but found "
                           f"{grid.dtype.scalar_name}")
