"""Resizing (N, C, H, W) arrays: nearest and bilinear upsampling, as ``F.interpolate`` does.

Note [resampling arithmetic]: torch's CPU kernels pick, for each output row (and column), the
source rows and weights in float32 (``compute_scales_value``: 1 / scale_factor when one was
given, else in / out; ``area_pixel_compute_source_index`` for bilinear), so the same float32
steps here pick the same rows.  Bilinear mixes columns first, then rows, in the input's dtype.
A resize is linear in its input: its backward adds each output's gradient back with the same
weights, and that backward's own backward resizes again, so second derivatives follow.
"""

import numpy as np

from ._dispatch import apply
from ._registry import declare

__all__ = ["upsample"]

_F = np.float32


def _scale(in_size, out_size, scale):
    """torch's float scale from output to input coordinates."""
    return _F(1.0 / scale) if scale else _F(in_size) / _F(out_size)


def _nearest(in_size, out_size, scale):
    """For each output position, its source position (torch's nearest_idx)."""
    if out_size == in_size:
        return np.arange(out_size)
    if out_size == 2 * in_size:
        return np.arange(out_size) >> 1
    src = np.floor(np.arange(out_size, dtype=_F) * _scale(in_size, out_size, scale))
    return np.minimum(src.astype(np.int64), in_size - 1)


def _linear(in_size, out_size, scale, align_corners):
    """For each output position: two source positions and their weights (bilinear)."""
    if align_corners:
        s = _F(in_size - 1) / _F(out_size - 1) if out_size > 1 else _F(0)
        src = s * np.arange(out_size, dtype=_F)
    else:
        s = _scale(in_size, out_size, scale)
        src = np.maximum(s * (np.arange(out_size, dtype=_F) + _F(0.5)) - _F(0.5), _F(0))
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    w1 = np.clip(src - i0.astype(_F), _F(0), _F(1)).astype(_F)
    return i0, i0 + (i0 < in_size - 1), _F(1) - w1, w1


def _taps(mode, shape, size, scales, align_corners):
    """Per dim (rows, columns): a list of (source positions, weights) pairs."""
    taps = []
    for i in range(2):
        if mode == "nearest":
            taps.append([(_nearest(shape[2 + i], size[i], scales[i]), None)])
        else:
            a, b, wa, wb = _linear(shape[2 + i], size[i], scales[i], align_corners)
            taps.append([(a, wa), (b, wb)])
    return taps


def _resize(xp, x, taps):
    """Columns first, then rows: sum over taps of picked values times weights."""
    out = None
    for rows, rw in taps[0]:
        mixed = None
        for cols, cw in taps[1]:
            term = x[:, :, xp.asarray(rows)][:, :, :, xp.asarray(cols)]
            term = term if cw is None else term * xp.asarray(cw, x.dtype)
            mixed = term if mixed is None else mixed + term
        mixed = mixed if rw is None else mixed * xp.asarray(rw, x.dtype)[:, None]
        out = mixed if out is None else out + mixed
    return out


def _spread(xp, g, shape, taps):
    """The adjoint of ``_resize``: each output gradient added back to its sources."""
    dx = xp.zeros(tuple(shape), g.dtype)
    for rows, rw in taps[0]:
        for cols, cw in taps[1]:
            weight = xp.ones((len(rows), len(cols)), g.dtype)
            if rw is not None:
                weight = xp.asarray(rw, g.dtype)[:, None] * xp.asarray(cw, g.dtype)[None, :]
            xp.add.at(dx, (slice(None), slice(None), xp.asarray(rows)[:, None],
                           xp.asarray(cols)[None, :]), g * weight)
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


_OPS = {"nearest": _resize_op("UpsampleNearest2D"),
        "bilinear": _resize_op("UpsampleBilinear2D")}


def upsample(x, size, scales, mode, align_corners):
    """``x`` (N, C, H, W) resized to ``size`` (two ints) by ``mode`` ('nearest' or
    'bilinear'); ``scales`` are the scale factors given (or None), which torch's kernels use
    to place the samples (Note [resampling arithmetic])."""
    taps = _taps(mode, x.shape, size, scales, bool(align_corners))
    attrs = {"output_size": tuple(size), "scales_h": scales[0], "scales_w": scales[1],
             "taps": taps}
    if mode == "bilinear":
        attrs["align_corners"] = bool(align_corners)
    return apply(_OPS[mode], x, **attrs)
