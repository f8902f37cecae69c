"""The op table's rows of misc3: fractional max pooling (``F.fractional_max_pool2d`` and
``F.fractional_max_pool3d``: records ``FractionalMaxPool2DBackward0`` and
``FractionalMaxPool3DBackward0``; under create_graph ``...BackwardBackward0``), affine grids
(``F.affine_grid``: ``AffineGridGeneratorBackward0``), grid sampling (``F.grid_sample``:
``GridSampler2DBackward0``, ``GridSampler3DBackward0`` and their backwards' records) and
``torch.segment_reduce`` (``SegmentReduceBackward0``, ``_segment_reduce_backward``).

The fractional rows pass ``_random_samples`` explicitly (fixed values per shape): exact
windows; torch's own draws from the default generator are compared in test_misc3_api.py.
Maxima are selections and their gradients sums in torch's order: exact (rtol = atol = 0).
Affine grids are exact (torch's bmm sums the three or four products in order); their
gradients are sums over the grid in another order than torch's bmm (default tolerance).
"""

import numpy as np
from _oracle import FLOATS
from op_table import OpInfo

__all__ = ["ROWS"]


def F(T):
    return T.nn.functional


def samples(T, x, dims, batch=None, dtype=None):
    """Fixed ``_random_samples`` for ``x`` (batch, channels, ``dims``), in [0, 1)."""
    n = (1 if x.dim() == dims + 1 else x.shape[0]) if batch is None else batch
    c = x.shape[-dims - 1] if x.dim() > dims else 1
    values = np.random.default_rng(n * 100 + c * 10 + dims).random((n, c, dims))
    return T.tensor(values, dtype=dtype or x.dtype, device=x.device)


def pool2d(T, x, kernel=2, **kw):
    return F(T).fractional_max_pool2d(x, kernel, return_indices=True,
                                      _random_samples=samples(T, x, 2), **kw)


def pool3d(T, x, kernel=2, **kw):
    return F(T).fractional_max_pool3d(x, kernel, return_indices=True,
                                      _random_samples=samples(T, x, 3), **kw)


def exact(record, name, fn, shapes, dtypes=FLOATS, **kw):
    return OpInfo(record, name, fn, shapes, dtypes=dtypes, rtol=0.0, atol=0.0, **kw)


def refused(record, name, fn, shapes, dtypes=FLOATS, **kw):
    """A row whose call torch refuses (its error, word for word)."""
    return OpInfo(record, name, fn, shapes, dtypes=dtypes, grad=False, **kw)


P2, P3 = "FractionalMaxPool2DBackward0", "FractionalMaxPool3DBackward0"

ROWS = [
    exact(P2, "fractional_max_pool2d", lambda T, x: pool2d(T, x, output_size=(4, 5)),
          [(2, 3, 7, 8), (3, 6, 7), ((2, 2, 7, 6), "T")]),
    exact(P2, "fractional_max_pool2d_ratio_kernel",
          lambda T, x: pool2d(T, x, (2, 3), output_ratio=(0.5, 0.7)),
          [(2, 3, 9, 10), (3, 8, 7)]),
    exact(P2, "fractional_max_pool2d_one_window", lambda T, x: pool2d(T, x, 3, output_size=1),
          [(2, 3, 4, 5)]),
    exact(P2, "fractional_max_pool2d_no_draws",
          lambda T, x: F(T).fractional_max_pool2d(x, 2, output_size=(3, 3),
                                                  _random_samples=samples(T, x, 2, batch=4)),
          [(2, 3, 6, 6), (0, 3, 5, 5)]),
    OpInfo(P2, "fractional_max_pool2d_half", lambda T, x: pool2d(T, x, output_size=(5, 4)),
           [(2, 3, 11, 9)], dtypes=("float16",), grad=False),
    refused(P2, "fractional_max_pool2d_too_large", lambda T, x: pool2d(T, x, 3, output_size=6),
            [(1, 2, 7, 9), (1, 2, 9, 7)]),
    refused(P2, "fractional_max_pool2d_bad_samples",
            lambda T, x: F(T).fractional_max_pool2d(x, 2, output_size=3,
                                                    _random_samples=samples(T, x, 3)),
            [(2, 3, 6, 6)]),
    refused(P2, "fractional_max_pool2d_few_samples",
            lambda T, x: F(T).fractional_max_pool2d(x, 2, output_size=3,
                                                    _random_samples=samples(T, x, 2, batch=1)),
            [(2, 3, 6, 6)]),
    refused(P2, "fractional_max_pool2d_samples_dtype",
            lambda T, x: F(T).fractional_max_pool2d(
                x, 2, output_size=3, _random_samples=samples(T, x, 2, dtype=T.float16)),
            [(2, 3, 6, 6)]),
    refused(P2, "fractional_max_pool2d_int",
            lambda T, x: F(T).fractional_max_pool2d(x, 2, output_size=3,
                                                    _random_samples=samples(T, x, 2)),
            [(1, 2, 6, 6)], dtypes=("int64",)),
    refused(P2, "fractional_max_pool2d_bad_dims",
            lambda T, x: F(T).fractional_max_pool2d(
                x, 2, output_size=2, _random_samples=T.full((1, 1, 2), 0.5, dtype=x.dtype)),
            [(5, 6), (2, 0, 5, 5)]),
    refused(P2, "fractional_max_pool2d_negative_size",
            lambda T, x: pool2d(T, x, output_size=(2, -1)), [(2, 3, 5, 5)]),
    refused(P2, "fractional_max_pool2d_bad_kernel", lambda T, x: pool2d(T, x, (2, 2, 2),
                                                                        output_size=2),
            [(2, 3, 5, 5)]),
    refused(P2, "fractional_max_pool2d_samples_grad",
            lambda T, x: F(T).fractional_max_pool2d(
                x, 2, output_size=2, _random_samples=samples(T, x, 2).requires_grad_()),
            [(2, 3, 5, 5)]),
    exact(P3, "fractional_max_pool3d", lambda T, x: pool3d(T, x, output_size=(2, 3, 2)),
          [(2, 3, 4, 5, 4), (3, 4, 5, 4), ((2, 2, 4, 5, 3), "T")]),
    exact(P3, "fractional_max_pool3d_ratio_kernel",
          lambda T, x: pool3d(T, x, (1, 2, 3), output_ratio=0.5), [(2, 2, 6, 7, 8)]),
    refused(P3, "fractional_max_pool3d_too_large", lambda T, x: pool3d(T, x, output_size=3),
            [(1, 2, 4, 5, 5), (1, 2, 5, 5, 4), (1, 2, 5, 4, 5)]),
    refused(P3, "fractional_max_pool3d_bad_samples",
            lambda T, x: F(T).fractional_max_pool3d(x, 2, output_size=2,
                                                    _random_samples=samples(T, x, 2)),
            [(2, 3, 5, 5, 5)]),
    refused(P3, "fractional_max_pool3d_int",
            lambda T, x: F(T).fractional_max_pool3d(x, 2, output_size=2,
                                                    _random_samples=samples(T, x, 3)),
            [(1, 2, 5, 5, 5)], dtypes=("int64",)),
    refused(P3, "fractional_max_pool3d_bad_dims",
            lambda T, x: F(T).fractional_max_pool3d(
                x, 2, output_size=2, _random_samples=T.full((1, 1, 3), 0.5, dtype=x.dtype)),
            [(5, 6, 5), (2, 3, 4, 0, 5)]),
    exact("FractionalMaxPool2DBackwardBackward0", "fractional_max_pool2d_double",
          lambda T, x, g: T.autograd.grad(pool2d(T, x, output_size=(3, 4))[0], x, g,
                                          create_graph=True),
          [((2, 3, 6, 7), (2, 3, 3, 4)), ((3, 5, 6), (3, 3, 4))]),
    exact("FractionalMaxPool3DBackwardBackward0", "fractional_max_pool3d_double",
          lambda T, x, g: T.autograd.grad(pool3d(T, x, output_size=(2, 2, 3))[0], x, g,
                                          create_graph=True),
          [((1, 2, 4, 5, 5), (1, 2, 2, 2, 3))]),
]


def grid(size, align_corners=False):
    return lambda T, theta: F(T).affine_grid(theta, size, align_corners=align_corners)


def grid_row(name, fn, shapes):
    """An affine grid row: its gradient's sums may round the other way in the 4th printed
    decimal of a value near zero (no repr)."""
    return OpInfo(AG, name, fn, shapes, dtypes=FLOATS, reprs=False)


AG = "AffineGridGeneratorBackward0"

ROWS += [
    grid_row("affine_grid", grid((2, 3, 4, 5)), [(2, 2, 3), ((2, 2, 3), "T")]),
    grid_row("affine_grid_align_corners", grid((3, 1, 5, 2), True), [(3, 2, 3)]),
    grid_row("affine_grid_unit_size", grid((2, 1, 1, 4), True), [(2, 2, 3)]),
    grid_row("affine_grid_3d", grid((2, 1, 3, 4, 2)), [(2, 3, 4)]),
    grid_row("affine_grid_3d_align_corners", grid((1, 2, 2, 1, 3), True), [(1, 3, 4)]),
    grid_row("affine_grid_generator",
             lambda T, theta: T.affine_grid_generator(theta, [2, 1, 3, 3], True), [(2, 2, 3)]),
    refused(AG, "affine_grid_bad_theta", grid((2, 1, 3, 4)), [(2, 3, 4), (2, 2, 3, 1)]),
    refused(AG, "affine_grid_bad_size", grid((2, 1, 3)), [(2, 2, 3)]),
    refused(AG, "affine_grid_empty_size", grid((2, 1, 0, 3)), [(2, 2, 3)]),
    refused(AG, "affine_grid_batch", grid((3, 1, 2, 3)), [(2, 2, 3)]),
    refused(AG, "affine_grid_int", grid((2, 1, 3, 4)), [(2, 2, 3)], dtypes=("int64",)),
    refused(AG, "affine_grid_generator_bad_size",
            lambda T, theta: T.affine_grid_generator(theta, [2, 1, 3], False), [(2, 2, 3)]),
]


# grid_sample: values and the gradient in the grid are exact (torch's fused operations,
# Note [grid sampling]); the gradient in the input adds at each pixel in another order than
# torch's vector lanes (default tolerance, no repr: a sum near zero may print otherwise)
GS = "GridSampler2DBackward0"
GRIDS = [((2, 3, 5, 6), (2, 4, 7, 2)), ((1, 2, 4, 4), ((1, 3, 5, 2), "T"))]


def sample_row(name, scale, samples=GRIDS, **kw):
    """``F.grid_sample(x, g * scale, **kw)`` (the grid's values reach ``3 * scale``)."""
    return OpInfo(GS, name, lambda T, x, g: F(T).grid_sample(x, g * scale, **kw), samples,
                  dtypes=FLOATS, reprs=False)


def sample_refused(name, fn, samples, dtypes=FLOATS, **kw):
    return refused(GS, name, fn, samples, dtypes=dtypes, **kw)


ROWS += [
    sample_row("grid_sample", 0.45, align_corners=False),
    sample_row("grid_sample_align_corners", 0.45, align_corners=True),
    sample_row("grid_sample_border", 0.5, padding_mode="border", align_corners=False),
    sample_row("grid_sample_border_align_corners", 0.5, padding_mode="border",
               align_corners=True),
    sample_row("grid_sample_reflection", 1.0, padding_mode="reflection", align_corners=False),
    sample_row("grid_sample_reflection_align_corners", 1.0, padding_mode="reflection",
               align_corners=True),
    sample_row("grid_sample_reflection_unit_size", 1.0, [((1, 2, 1, 3), (1, 2, 2, 2))],
               padding_mode="reflection", align_corners=True),
    sample_row("grid_sample_nearest", 0.45, mode="nearest", align_corners=False),
    sample_row("grid_sample_nearest_border", 0.5, mode="nearest", padding_mode="border",
               align_corners=True),
    sample_row("grid_sample_nearest_reflection", 1.0, mode="nearest",
               padding_mode="reflection", align_corners=False),
    OpInfo(GS, "grid_sampler", lambda T, x, g: T.grid_sampler(x, g * 0.5, 0, 1, False),
           GRIDS[:1], dtypes=FLOATS, reprs=False),
    sample_refused("grid_sample_batch", lambda T, x, g: F(T).grid_sample(x, g, align_corners=False),
                   [((2, 3, 4, 4), (1, 2, 2, 2)), ((3, 4, 4), (2, 2, 2))]),
    sample_refused("grid_sample_grid_size", lambda T, x, g: F(T).grid_sample(
        x, g, align_corners=False), [((2, 3, 4, 4), (2, 2, 2, 3))]),
    sample_refused("grid_sample_empty", lambda T, x, g: F(T).grid_sample(
        x, g, align_corners=False), [((2, 3, 0, 4), (2, 2, 2, 2))]),
    sample_refused("grid_sample_dtypes", lambda T, x, g: F(T).grid_sample(
        x, g.double(), align_corners=False), [((2, 3, 4, 4), (2, 2, 2, 2))],
        dtypes=("float32",)),
    sample_refused("grid_sample_int", lambda T, x, g: F(T).grid_sample(
        x, g, align_corners=False), [((2, 3, 4, 4), (2, 2, 2, 2))], dtypes=("int64",)),
    sample_refused("grid_sample_bad_mode", lambda T, x, g: F(T).grid_sample(
        x, g, mode="linear", align_corners=False), [((2, 3, 4, 4), (2, 2, 2, 2))]),
    sample_refused("grid_sample_bad_padding", lambda T, x, g: F(T).grid_sample(
        x, g, padding_mode="circular", align_corners=False), [((2, 3, 4, 4), (2, 2, 2, 2))]),
    sample_row("grid_sample_bicubic", 0.45, mode="bicubic", align_corners=False),
    sample_row("grid_sample_bicubic_border", 0.5, mode="bicubic", padding_mode="border",
               align_corners=True),
    sample_row("grid_sample_bicubic_reflection", 1.0, mode="bicubic",
               padding_mode="reflection", align_corners=False),
    sample_refused("grid_sample_bicubic_3d", lambda T, x, g: F(T).grid_sample(
        x, g, mode="bicubic", align_corners=False), [((1, 2, 3, 4, 3), (1, 2, 2, 2, 3))]),
    OpInfo("GridSampler2DBackwardBackward0", "grid_sample_bicubic_double",
           lambda T, x, g, v: T.autograd.grad(F(T).grid_sample(
               x, g * 0.6, mode="bicubic", padding_mode="border", align_corners=False), (x, g),
               v, create_graph=True), [((1, 2, 4, 5), (1, 3, 4, 2), (1, 2, 3, 4))],
           dtypes=("float64",), reprs=False),
    OpInfo("GridSampler2DBackwardBackward0", "grid_sample_double",
           lambda T, x, g, v: T.autograd.grad(F(T).grid_sample(x, g * 0.45, align_corners=False),
                                              (x, g), v, create_graph=True),
           [((2, 3, 4, 5), (2, 3, 4, 2), (2, 3, 3, 4))], dtypes=FLOATS, reprs=False),
    OpInfo("GridSampler2DBackwardBackward0", "grid_sample_double_reflection_nearest",
           lambda T, x, g, v: T.autograd.grad(F(T).grid_sample(
               x, g, mode="nearest", padding_mode="reflection", align_corners=True), (x, g), v,
               create_graph=True), [((1, 2, 4, 5), (1, 3, 4, 2), (1, 2, 3, 4))],
           dtypes=("float64",), reprs=False),
]


# segment_reduce: each segment reduced one element after the other, as torch's kernel
# (exact); tests/test_misc3_api.py holds ties, NaNs, zeros under prod and every initial
SR = "SegmentReduceBackward0"


def segments(reduce, lengths=None, offsets=None, axis=0, **kw):
    def fn(T, x):
        given = {k: T.tensor(v, device=x.device) for k, v in (("lengths", lengths),
                                                              ("offsets", offsets))
                 if v is not None}
        return T.segment_reduce(x, reduce, axis=axis, **given, **kw)
    return fn


ROWS += [
    exact(SR, f"segment_reduce_{reduce}", segments(reduce, [2, 0, 3, 2]), [(7,), (7, 3)],
          dtypes=FLOATS + ("float16",) * (reduce != "prod"))
    for reduce in ("sum", "mean", "max", "min", "prod")
] + [
    exact(SR, "segment_reduce_initial", segments("max", [1, 0, 4], initial=0.5), [(5, 2)]),
    exact(SR, "segment_reduce_mean_initial", segments("mean", [1, 0, 4], initial=2),
          [(5, 2)]),
    exact(SR, "segment_reduce_offsets", segments("sum", offsets=[0, 2, 2, 6]), [(6, 2)]),
    exact(SR, "segment_reduce_lengths_2d",
          segments("prod", [[2, 3], [5, 0]], axis=1), [(2, 5, 3), ((2, 5), "T")]),
    exact(SR, "segment_reduce_unsafe", segments("amin", [2, 2], unsafe=True), [(6,)]),
    refused(SR, "segment_reduce_negative", segments("sum", [4, -1, 3]), [(6,)]),
    refused(SR, "segment_reduce_lengths_sum", segments("sum", [2, 2]), [(6,)]),
    refused(SR, "segment_reduce_axis", segments("sum", [2, 4], axis=1), [(2, 6)]),
    refused(SR, "segment_reduce_no_lengths", segments("sum"), [(6,)]),
    refused(SR, "segment_reduce_bad_reduce", segments("median", [6]), [(6,)]),
    refused(SR, "segment_reduce_float_lengths", segments("sum", [2.0, 4.0]), [(6,)]),
    refused(SR, "segment_reduce_int", segments("sum", [2, 4]), [(6,)], dtypes=("int64",)),
    refused(SR, "segment_reduce_unsafe_negative", segments("sum", [4, -1, 3], unsafe=True),
            [(6,)]),
    OpInfo("_segment_reduce_backward", "segment_reduce_double",
           lambda T, x, v: T.autograd.grad(segments("sum", [2, 3])(T, x), x, v,
                                           create_graph=True),
           [((5,), (2,))], dtypes=FLOATS),
]


# 3-d: torch's scalar kernel; its gradients in the input add in torch's order too (exact)
GS3 = "GridSampler3DBackward0"
GRIDS3 = [((2, 2, 3, 4, 5), (2, 2, 3, 4, 3)), ((1, 3, 2, 3, 4), ((1, 3, 2, 2, 3), "T"))]


def volume_row(name, scale, **kw):
    return exact(GS3, name, lambda T, x, g: F(T).grid_sample(x, g * scale, **kw), GRIDS3)


ROWS += [
    volume_row("grid_sample_3d", 0.45, align_corners=False),
    volume_row("grid_sample_3d_align_corners", 0.45, align_corners=True),
    volume_row("grid_sample_3d_border", 0.5, padding_mode="border", align_corners=True),
    volume_row("grid_sample_3d_reflection", 1.0, padding_mode="reflection",
               align_corners=False),
    volume_row("grid_sample_3d_reflection_align_corners", 1.0, padding_mode="reflection",
               align_corners=True),
    volume_row("grid_sample_3d_nearest", 0.5, mode="nearest", align_corners=False),
    OpInfo(GS3, "grid_sampler_3d", lambda T, x, g: T.grid_sampler_3d(x, g * 0.5, 1, 2, True),
           GRIDS3[:1], dtypes=FLOATS),
    sample_refused("grid_sample_3d_grid_size", lambda T, x, g: F(T).grid_sample(
        x, g, align_corners=False), [((1, 2, 3, 4, 3), (1, 2, 2, 2, 2))]),
    OpInfo("GridSampler3DBackwardBackward0", "grid_sample_3d_double",
           lambda T, x, g, v: T.autograd.grad(F(T).grid_sample(x, g * 0.45, align_corners=True),
                                              (x, g), v, create_graph=True),
           [((1, 2, 3, 3, 4), (1, 2, 2, 3, 3), (1, 2, 2, 2, 3))], dtypes=FLOATS, reprs=False),
]
