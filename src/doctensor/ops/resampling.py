"""Resizing (N, C, H, W) arrays: nearest and bilinear upsampling, as ``F.interpolate`` does.

Note [resampling arithmetic]: torch's CPU kernels pick, for each output row (and column), the
source rows and weights in float32 (``compute_scales_value``: 1 / scale_factor when one was
given, else in / out; ``area_pixel_compute_source_index`` for bilinear), so the same float32
steps here pick the same rows.  Bilinear mixes columns first, then rows, in the input's dtype.
A resize is linear in its input: its backward adds each output's gradient back with the same
weights, and that backward's own backward resizes again, so second derivatives follow.
"""

import numpy as np

from ._registry import declare, needs_grad, record, wrap_result

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


def _resize(x, taps):
    """Columns first, then rows: sum over taps of picked values times weights."""
    out = None
    for rows, rw in taps[0]:
        mixed = None
        for cols, cw in taps[1]:
            term = x[:, :, rows][:, :, :, cols]
            term = term if cw is None else term * cw.astype(x.dtype)
            mixed = term if mixed is None else mixed + term
        mixed = mixed if rw is None else mixed * rw.astype(x.dtype)[:, None]
        out = mixed if out is None else out + mixed
    return np.ascontiguousarray(out)


def _spread(g, shape, taps):
    """The adjoint of ``_resize``: each output gradient added back to its sources."""
    dx = np.zeros(tuple(shape), g.dtype)
    for rows, rw in taps[0]:
        for cols, cw in taps[1]:
            weight = np.ones((len(rows), len(cols)), g.dtype)
            if rw is not None:
                weight = rw.astype(g.dtype)[:, None] * cw.astype(g.dtype)[None, :]
            np.add.at(dx, (slice(None), slice(None), rows[:, None], cols[None, :]),
                      g * weight)
    return dx


_NAMES = {"nearest": "UpsampleNearest2D", "bilinear": "UpsampleBilinear2D"}
_OPS = {}


def _ops(mode):
    """The resize op of ``mode`` and the op of its backward (torch's ...Backward0 and
    ...BackwardBackward0 nodes), made once."""
    if mode not in _OPS:
        name = _NAMES[mode]
        forward = declare(name, name + "Backward0")(None)
        backward = declare(name + "Backward", name + "BackwardBackward0",
                           ("grad_output",))(None)

        @forward.def_backward
        def _(ctx, grad):
            return (_apply(backward, grad, _spread(_host(grad), ctx.input_meta[0][0],
                                                   ctx.taps), ctx.attrs),)

        @backward.def_backward
        def _(ctx, grad):
            return (_apply(forward, grad, _resize(_host(grad), ctx.taps), ctx.attrs),)
        forward.unsaved = backward.unsaved = frozenset({"taps"})
        _OPS[mode] = forward, backward
    return _OPS[mode]


def _host(t):
    return t._backend.to_host(t._data)


def _apply(op, x, out, attrs):
    """``out`` (a NumPy array made from ``x``) as a tensor on ``x``'s device, with ``op``'s
    node when ``x`` requires grad."""
    result = wrap_result(x._backend.xp.asarray(out), x)
    if needs_grad((x,)):
        record(op, (x,), (result,), attrs)
    return result


def upsample(x, size, scales, mode, align_corners):
    """``x`` (N, C, H, W) resized to ``size`` (two ints) by ``mode`` ('nearest' or
    'bilinear'); ``scales`` are the scale factors given (or None), which torch's kernels use
    to place the samples (Note [resampling arithmetic])."""
    taps = _taps(mode, x.shape, size, scales, bool(align_corners))
    attrs = {"output_size": tuple(size), "scales_h": scales[0], "scales_w": scales[1],
             "taps": taps}
    if mode == "bilinear":
        attrs["align_corners"] = bool(align_corners)
    return _apply(_ops(mode)[0], x, _resize(_host(x), taps), attrs)
