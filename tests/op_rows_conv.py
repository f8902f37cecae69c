"""The op table's rows for the convolution family beyond op_rows_nn.py's: conv3d and the
transposed convolutions (torch records them all as its one ``convolution`` op,
``ConvolutionBackward0``; under create_graph ``ConvolutionBackwardBackward0``), ``F.pad``'s
reflect/replicate/circular modes, pixel and channel shuffles, max pooling's indices and the
max unpools, the adaptive max pools, unfold/fold (im2col/col2im), the 3-d pools, and
``F.interpolate``'s 1-d, 3-d, nearest-exact, linear, bicubic, trilinear and area modes.

Tolerances: copies and selections (pads, shuffles, max pools, unpools, nearest resizes,
im2col/col2im, whose sums run in torch's order) are exact (rtol = atol = 0).  Sums of
products (convolutions, averages, interpolating resizes) run in another order than torch's
kernels: float32 within a stated tolerance, the repr left out where its 4th decimal may
round the other way; each helper below says which.
"""

from _oracle import FLOATS
from op_table import OpInfo

__all__ = ["ROWS"]


def F(T):
    return T.nn.functional


def _double(T, conv, x, w, bias, g):
    """The gradients of ``conv`` for the output gradient ``g``, with their graph."""
    inputs = tuple(t for t in (x, w, bias) if t is not None)
    return T.autograd.grad(conv(x, w, bias), inputs, g, create_graph=True)


def row(record, name, fn, samples, rtol=2e-5):
    """Two rows: float32 within ``rtol`` (its sums run in another order than torch's: a
    gradient summing a few hundred products is ~6e-6 off relatively), float64 with the
    default tolerance."""
    return [OpInfo(record, name, fn, samples, dtypes=("float32",), rtol=rtol, atol=rtol,
                   reprs=False),
            OpInfo(record, name + "_f64", fn, samples, dtypes=("float64",), reprs=False)]


CONV3D = [
    row("ConvolutionBackward0", "conv3d", lambda T, x, w, b: F(T).conv3d(x, w, b),
        [((2, 3, 4, 4, 3), (2, 3, 2, 3, 2), (2,)), ((2, 3, 4, 3), (2, 2, 2, 2, 2), (2,))]),
    row("ConvolutionBackward0", "conv3d_stride_padding_dilation_groups",
        lambda T, x, w: F(T).conv3d(x, w, stride=(2, 1, 1), padding=(1, 0, 1),
                                    dilation=(1, 2, 1), groups=2),
        [((1, 4, 5, 5, 4), (4, 2, 2, 2, 3))]),
    row("ConvolutionBackward0", "conv3d_padding_same",
        lambda T, x, w: F(T).conv3d(x, w, padding="same"), [((1, 2, 3, 4, 4), (2, 2, 3, 3, 3))]),
    row("ConvolutionBackward0", "conv3d_bad_dims",
        lambda T, x, w: F(T).conv3d(x, w), [((2, 3, 4, 4), (2, 3, 2, 2, 2))]),
    row("ConvolutionBackwardBackward0", "conv3d_double",
        lambda T, x, w, b, g: _double(T, lambda x, w, b: F(T).conv3d(x, w, b, padding=1),
                                      x, w, b, g),
        [((1, 2, 3, 3, 2), (2, 2, 2, 2, 2), (2,), (1, 2, 4, 4, 3))]),
]

TRANSPOSED = [
    row("ConvolutionBackward0", "conv_transpose2d",
        lambda T, x, w, b: F(T).conv_transpose2d(x, w, b),
        [((2, 3, 4, 5), (3, 2, 3, 2), (2,)), ((3, 4, 4), (3, 4, 2, 2), (4,)),
         (((2, 3, 4, 4), "T"), (3, 2, 2, 3), (2,))]),
    row("ConvolutionBackward0", "conv_transpose2d_stride_padding_output_padding",
        lambda T, x, w, b: F(T).conv_transpose2d(x, w, b, stride=2, padding=1,
                                                 output_padding=1),
        [((2, 3, 4, 4), (3, 2, 3, 3), (2,))]),
    row("ConvolutionBackward0", "conv_transpose2d_groups_dilation",
        lambda T, x, w: F(T).conv_transpose2d(x, w, stride=(1, 2), groups=2, dilation=2,
                                              output_padding=(1, 0)),
        [((2, 4, 3, 4), (4, 3, 2, 3))]),
    row("ConvolutionBackward0", "conv_transpose1d",
        lambda T, x, w, b: F(T).conv_transpose1d(x, w, b, stride=3, output_padding=2),
        [((2, 4, 5), (4, 2, 3), (2,)), ((4, 3), (4, 3, 2), (3,))]),
    row("ConvolutionBackward0", "conv_transpose3d",
        lambda T, x, w, b: F(T).conv_transpose3d(x, w, b, stride=(2, 1, 2), padding=(0, 1, 1),
                                                 output_padding=(1, 0, 0)),
        [((1, 2, 3, 4, 3), (2, 3, 2, 2, 3), (3,))]),
    row("ConvolutionBackward0", "conv_transpose2d_output_padding_too_big",
        lambda T, x, w: F(T).conv_transpose2d(x, w, stride=2, output_padding=2),
        [((1, 3, 4, 4), (3, 2, 3, 3))]),
    row("ConvolutionBackward0", "conv_transpose2d_channel_mismatch",
        lambda T, x, w: F(T).conv_transpose2d(x, w), [((1, 4, 4, 4), (3, 2, 3, 3))]),
    row("ConvolutionBackward0", "conv_transpose2d_bad_bias",
        lambda T, x, w, b: F(T).conv_transpose2d(x, w, b), [((1, 3, 4, 4), (3, 2, 3, 3), (3,))]),
    row("ConvolutionBackward0", "conv_transpose2d_too_small",
        lambda T, x, w: F(T).conv_transpose2d(x, w, padding=4), [((1, 3, 3, 3), (3, 2, 3, 3))]),
    row("ConvolutionBackward0", "conv_transpose1d_bad_dims",
        lambda T, x, w: F(T).conv_transpose1d(x, w), [((5,), (1, 2, 3))]),
    row("ConvolutionBackwardBackward0", "conv_transpose2d_double",
        lambda T, x, w, b, g: _double(
            T, lambda x, w, b: F(T).conv_transpose2d(x, w, b, stride=2, padding=1,
                                                     output_padding=1), x, w, b, g),
        [((2, 3, 3, 3), (3, 2, 3, 3), (2,), (2, 2, 6, 6))]),
    row("ConvolutionBackwardBackward0", "conv_transpose1d_double_groups",
        lambda T, x, w, g: _double(
            T, lambda x, w, b: F(T).conv_transpose1d(x, w, b, groups=2, dilation=2), x, w, None,
            g),
        [((2, 4, 5), (4, 2, 3), (2, 4, 9))]),
]



def grad_of(T, out, x, g):
    """The first gradient of ``out`` for ``g``, with its graph (the double-backward node)."""
    return T.autograd.grad(out, x, g, create_graph=True)


def pad_row(record, name, mode, padding, samples, dtypes=FLOATS, **kw):
    """``F.pad`` in ``mode``: its values are copies (exact), its gradients sums in torch's
    order (exact)."""
    return OpInfo(record, name, lambda T, x: F(T).pad(x, padding, mode), samples, dtypes=dtypes,
                  rtol=0.0, atol=0.0, **kw)


PADS = [
    pad_row("ReflectionPad1DBackward0", "pad_reflect_1d", "reflect", (2, 1),
            [(2, 3, 4), (3, 5), ((2, 3, 4), "T")]),
    pad_row("ReflectionPad1DBackward0", "pad_reflect_1d_cut", "reflect", (-1, 2), [(2, 4)]),
    pad_row("ReflectionPad2DBackward0", "pad_reflect_2d", "reflect", (1, 2, 2, 0),
            [(2, 3, 4, 5), (3, 3, 4), ((2, 2, 4, 3), "T")], dtypes=FLOATS + ("int64",)),
    pad_row("ReflectionPad2DBackward0", "pad_reflect_2d_cut", "reflect", (-1, 1, 1, -2),
            [(1, 2, 4, 5)]),
    pad_row("ReflectionPad2DBackward0", "pad_reflect_2d_too_wide", "reflect", (1, 1, 3, 0),
            [(1, 2, 3, 3)]),
    pad_row("ReflectionPad2DBackward0", "pad_reflect_2d_empty", "reflect", (1, 1, 1, 1),
            [(1, 0, 3, 3)]),
    pad_row("ReflectionPad3DBackward0", "pad_reflect_3d", "reflect", (1, 1, 0, 2, 1, 0),
            [(1, 2, 2, 3, 4), (2, 3, 3, 2)]),
    pad_row("ReflectionPad3DBackward0", "pad_reflect_3d_too_wide", "reflect", (0, 0, 0, 0, 2, 0),
            [(1, 1, 2, 3, 3)]),
    pad_row("ReplicationPad1DBackward0", "pad_replicate_1d", "replicate", (3, 1),
            [(2, 3, 2), (3, 5)], dtypes=FLOATS + ("int64",)),
    pad_row("ReplicationPad1DBackward0", "pad_replicate_1d_cut", "replicate", (-1, 2),
            [(2, 3, 4)]),
    pad_row("ReplicationPad1DBackward0", "pad_replicate_1d_too_small", "replicate", (-2, -1),
            [(2, 3)]),
    pad_row("ReplicationPad2DBackward0", "pad_replicate_2d", "replicate", (2, 1, 0, 3),
            [(2, 3, 2, 3), (3, 3, 4), ((2, 2, 4, 3), "T")]),
    pad_row("ReplicationPad3DBackward0", "pad_replicate_3d", "replicate", (1, 2, 1, 0, 0, 1),
            [(1, 2, 2, 3, 2)]),
    pad_row(None, "pad_circular_1d", "circular", (2, 1), [(2, 3, 4), (3, 5)]),
    pad_row(None, "pad_circular_2d_cut", "circular", (1, -1, 2, 1), [(2, 2, 3, 4)]),
    pad_row(None, "pad_circular_3d", "circular", (1, 1, 1, 0, 0, 1), [(1, 1, 2, 3, 2)]),
    pad_row(None, "pad_circular_wraps_twice", "circular", (4, 1), [(2, 3)]),
    OpInfo(None, "pad_value_with_mode", lambda T, x: F(T).pad(x, (1, 1), "reflect", 2.0),
           [(2, 3)], dtypes=FLOATS),
    pad_row(None, "pad_unsupported_size", "replicate", (1, 1), [(1, 2, 3, 3)]),
    pad_row(None, "pad_unknown_mode", "wrap", (1, 1), [(2, 3)]),
    pad_row(None, "pad_odd_length", "reflect", (1, 1, 1), [(1, 2, 3, 3)]),
    pad_row(None, "pad_too_long", "replicate", (1,) * 6, [(2, 3)]),
    OpInfo("ReflectionPad2DBackwardBackward0", "pad_reflect_2d_double",
           lambda T, x, g: grad_of(T, F(T).pad(x, (1, 2, 2, 0), mode="reflect"), x, g),
           [((2, 3, 4, 5), (2, 3, 6, 8))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("ReflectionPad3DBackwardBackward0", "pad_reflect_3d_double",
           lambda T, x, g: grad_of(T, F(T).pad(x, (1,) * 6, mode="reflect"), x, g),
           [((1, 1, 2, 3, 2), (1, 1, 4, 5, 4))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("ReplicationPad1DBackwardBackward0", "pad_replicate_1d_double",
           lambda T, x, g: grad_of(T, F(T).pad(x, (2, 1), mode="replicate"), x, g),
           [((2, 3, 4), (2, 3, 7))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("ReplicationPad2DBackwardBackward0", "pad_replicate_2d_double",
           lambda T, x, g: grad_of(T, F(T).pad(x, (1, 0, 0, 2), mode="replicate"), x, g),
           [((3, 3, 4), (3, 5, 5))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("ReplicationPad3DBackwardBackward0", "pad_replicate_3d_double",
           lambda T, x, g: grad_of(T, F(T).pad(x, (0, 1, 1, 0, 2, 0), mode="replicate"), x, g),
           [((1, 2, 2, 2, 3), (1, 2, 4, 3, 4))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("ReflectionPad1DBackwardBackward0", "pad_reflect_1d_double",
           lambda T, x, g: grad_of(T, F(T).pad(x, (2, 1), mode="reflect"), x, g),
           [((2, 3, 4), (2, 3, 7))], dtypes=FLOATS, rtol=0.0, atol=0.0),
]

SHUFFLES = [
    OpInfo("PixelShuffleBackward0", "pixel_shuffle", lambda T, x: F(T).pixel_shuffle(x, 2),
           [(2, 8, 3, 4), (4, 2, 3), (2, 1, 4, 1, 2), ((2, 4, 3, 3), "T")],
           dtypes=FLOATS + ("int64", "bool"), rtol=0.0, atol=0.0),
    OpInfo("PixelShuffleBackward0", "pixel_shuffle_one", lambda T, x: T.pixel_shuffle(x, 1),
           [(2, 3, 4)], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("PixelShuffleBackward0", "pixel_shuffle_indivisible",
           lambda T, x: F(T).pixel_shuffle(x, 3), [(2, 8, 3, 4)], dtypes=FLOATS),
    OpInfo("PixelShuffleBackward0", "pixel_shuffle_2d", lambda T, x: F(T).pixel_shuffle(x, 2),
           [(4, 4)], dtypes=FLOATS),
    OpInfo("PixelShuffleBackward0", "pixel_shuffle_zero_factor",
           lambda T, x: F(T).pixel_shuffle(x, 0), [(4, 4, 4)], dtypes=FLOATS),
    OpInfo("PixelUnshuffleBackward0", "pixel_unshuffle",
           lambda T, x: F(T).pixel_unshuffle(x, 2),
           [(2, 3, 4, 6), (1, 2, 2), (2, 1, 2, 4, 2), ((2, 2, 4, 4), "T")],
           dtypes=FLOATS + ("int64",), rtol=0.0, atol=0.0),
    OpInfo("PixelUnshuffleBackward0", "pixel_unshuffle_height",
           lambda T, x: T.pixel_unshuffle(x, 2), [(2, 8, 3, 4)], dtypes=FLOATS),
    OpInfo("PixelUnshuffleBackward0", "pixel_unshuffle_width",
           lambda T, x: F(T).pixel_unshuffle(x, 3), [(2, 8, 3, 4)], dtypes=FLOATS),
    OpInfo("PixelUnshuffleBackward0", "pixel_unshuffle_negative_factor",
           lambda T, x: F(T).pixel_unshuffle(x, -1), [(2, 8, 3, 4)], dtypes=FLOATS),
    OpInfo("PixelUnshuffleBackward0", "pixel_shuffle_double",
           lambda T, x, g: grad_of(T, F(T).pixel_shuffle(x, 2), x, g),
           [((2, 8, 2, 3), (2, 2, 4, 6))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("PixelShuffleBackward0", "pixel_unshuffle_double",
           lambda T, x, g: grad_of(T, F(T).pixel_unshuffle(x, 2), x, g),
           [((2, 2, 4, 6), (2, 8, 2, 3))], dtypes=FLOATS, rtol=0.0, atol=0.0),
]



def _unpool(T, x, **kw):
    """max_unpool2d of max_pool2d's maxima and indices (with ``kw``: the pool's)."""
    values, indices = F(T).max_pool2d(x, 2, return_indices=True, **kw)
    return F(T).max_unpool2d(values, indices, 2, **kw), indices


POOLS = [
    # max pooling's indices: flat positions in each (H, W) plane, int64, no gradient (the
    # gradient of overlapping windows sums in another order than torch's: default tolerance)
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool2d_return_indices",
           lambda T, x: F(T).max_pool2d(x, (2, 3), stride=(2, 1), padding=1,
                                        return_indices=True),
           [(2, 3, 5, 6), (3, 4, 4), ((2, 2, 4, 6), "T")], dtypes=FLOATS),
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool1d_return_indices",
           lambda T, x: F(T).max_pool1d(x, 3, 2, 1, return_indices=True),
           [(2, 3, 7), (3, 6)], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("MaxUnpool2DBackward0", "max_unpool2d", lambda T, x: _unpool(T, x),
           [(2, 3, 4, 6), (3, 4, 5)], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("MaxUnpool2DBackward0", "max_unpool2d_output_size",
           lambda T, x: F(T).max_unpool2d(*F(T).max_pool2d(x, 2, return_indices=True), 2,
                                          output_size=(5, 7)), [(2, 3, 5, 7)], dtypes=FLOATS,
           rtol=0.0, atol=0.0),
    OpInfo("MaxUnpool2DBackward0", "max_unpool1d",
           lambda T, x: F(T).max_unpool1d(*F(T).max_pool1d(x, 2, return_indices=True), 2),
           [(2, 3, 6), (3, 5)], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("MaxUnpool2DBackward0", "max_unpool2d_bad_output_size",
           lambda T, x: F(T).max_unpool2d(*F(T).max_pool2d(x, 2, return_indices=True), 2,
                                          output_size=(9, 9)), [(2, 3, 4, 4)], dtypes=FLOATS),
    OpInfo("MaxUnpool2DBackward0", "max_unpool2d_bad_index",
           lambda T, x: T._C._nn.max_unpool2d(x, (x.detach() * 0 + 20).long(), (4, 4))
           if hasattr(T, "_C") else T._nn.max_unpool2d(x, (x.detach() * 0 + 20).long(),
                                                      (4, 4)),
           [(1, 2, 2, 2)], dtypes=FLOATS),
    OpInfo("MaxUnpool2DBackward0", "max_unpool2d_float_indices",
           lambda T, x: F(T).max_unpool2d(x, x.detach(), 2), [(1, 2, 2, 2)], dtypes=FLOATS),
    OpInfo("MaxUnpool2DBackward0", "max_unpool2d_indices_shape",
           lambda T, x: F(T).max_unpool2d(x, x.detach().long()[..., :1], 2), [(1, 2, 2, 2)],
           dtypes=FLOATS),
    OpInfo("AdaptiveMaxPool2DBackward0", "adaptive_max_pool2d",
           lambda T, x: F(T).adaptive_max_pool2d(x, (3, 4), return_indices=True),
           [(2, 3, 5, 7), (3, 4, 4), ((2, 2, 6, 5), "T")], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("AdaptiveMaxPool2DBackward0", "adaptive_max_pool2d_larger_none",
           lambda T, x: F(T).adaptive_max_pool2d(x, (None, 9)), [(2, 3, 4, 5)], dtypes=FLOATS,
           rtol=0.0, atol=0.0),
    OpInfo("AdaptiveMaxPool2DBackward0", "adaptive_max_pool1d",
           lambda T, x: F(T).adaptive_max_pool1d(x, 3, return_indices=True),
           [(2, 3, 7), (3, 5)], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("AdaptiveMaxPool2DBackward0", "adaptive_max_pool2d_bad_dims",
           lambda T, x: F(T).adaptive_max_pool2d(x, 2), [(4, 4)], dtypes=FLOATS),
    OpInfo("AdaptiveMaxPool2DBackward0", "adaptive_max_pool2d_empty_channels",
           lambda T, x: F(T).adaptive_max_pool2d(x, 2), [(2, 0, 3, 3)], dtypes=FLOATS),
    OpInfo("AdaptiveMaxPool2DBackward0", "adaptive_max_pool2d_int",
           lambda T, x: F(T).adaptive_max_pool2d(x, 2), [(2, 3, 3, 3)], dtypes=("int64",)),
    OpInfo("AdaptiveMaxPool3DBackward0", "adaptive_max_pool3d",
           lambda T, x: F(T).adaptive_max_pool3d(x, (2, 3, 2), return_indices=True),
           [(2, 3, 4, 5, 3), (3, 3, 4, 5), ((2, 2, 4, 4, 3), "T")], dtypes=FLOATS, rtol=0.0,
           atol=0.0),
    OpInfo("AdaptiveMaxPool3DBackward0", "adaptive_max_pool3d_larger_none",
           lambda T, x: F(T).adaptive_max_pool3d(x, (None, 5, 1)), [(1, 2, 2, 3, 4)],
           dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("AdaptiveMaxPool3DBackward0", "adaptive_max_pool3d_int",
           lambda T, x: F(T).adaptive_max_pool3d(x, 2), [(1, 2, 2, 3, 4)], dtypes=("int64",)),
    OpInfo("AdaptiveMaxPool3DBackward0", "adaptive_max_pool3d_bad_size",
           lambda T, x: F(T).adaptive_max_pool3d(x, (2, 2)), [(1, 2, 2, 3, 4)], dtypes=FLOATS),
    OpInfo("AdaptiveMaxPool3DBackwardBackward0", "adaptive_max_pool3d_double",
           lambda T, x, g: grad_of(T, F(T).adaptive_max_pool3d(x, 2), x, g),
           [((1, 2, 3, 4, 3), (1, 2, 2, 2, 2))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("AdaptiveMaxPool2DBackwardBackward0", "adaptive_max_pool2d_double",
           lambda T, x, g: grad_of(T, F(T).adaptive_max_pool2d(x, (2, 3)), x, g),
           [((2, 3, 5, 7), (2, 3, 2, 3)), ((3, 4, 4), (3, 2, 3))], dtypes=FLOATS, rtol=0.0,
           atol=0.0),
]

FOLDS = [
    OpInfo("Im2ColBackward0", "unfold",
           lambda T, x: F(T).unfold(x, (2, 3), dilation=(2, 1), padding=1, stride=(1, 2)),
           [(2, 3, 5, 6), (3, 4, 4), ((2, 2, 4, 5), "T")], dtypes=FLOATS + ("bool",),
           rtol=0.0, atol=0.0),
    OpInfo("Im2ColBackward0", "unfold_int", lambda T, x: F(T).unfold(x, 2), [(1, 2, 3, 3)],
           dtypes=("int64",)),
    OpInfo("Im2ColBackward0", "unfold_too_small", lambda T, x: F(T).unfold(x, (4, 2)),
           [(1, 2, 3, 5)], dtypes=FLOATS),
    OpInfo("Im2ColBackward0", "unfold_bad_args",
           lambda T, x: F(T).unfold(x, 2, dilation=(0, 1), stride=0), [(1, 2, 3, 3)],
           dtypes=FLOATS),
    OpInfo("Im2ColBackward0", "unfold_2d", lambda T, x: F(T).unfold(x, 2), [(3, 3)],
           dtypes=FLOATS),
    OpInfo("Im2ColBackward0", "unfold_5d", lambda T, x: F(T).unfold(x, 2), [(1, 2, 3, 3, 3)],
           dtypes=FLOATS),
    OpInfo("Col2ImBackward0", "fold",
           lambda T, x: F(T).fold(x, (4, 5), (2, 2), padding=(0, 1)),
           [(3, 12, 18), (8, 18), ((3, 12, 18), "T")], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("Col2ImBackward0", "fold_strided_dilated",
           lambda T, x: F(T).fold(x, (5, 6), 2, dilation=2, stride=(1, 2)), [(2, 8, 6)],
           dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("Col2ImBackward0", "fold_blocks_mismatch", lambda T, x: F(T).fold(x, (3, 5), 2),
           [(2, 12, 6)], dtypes=FLOATS),
    OpInfo("Col2ImBackward0", "fold_indivisible", lambda T, x: F(T).fold(x, (3, 4), 2),
           [(1, 10, 6)], dtypes=FLOATS),
    OpInfo("Col2ImBackward0", "fold_bad_dims", lambda T, x: F(T).fold(x, (3, 4), 2),
           [(6,), (1, 2, 3, 3)], dtypes=FLOATS),
    OpInfo("Col2ImBackward0", "fold_bad_args", lambda T, x: F(T).fold(x, (3, 4), 2, padding=-1),
           [(1, 12, 6)], dtypes=FLOATS),
    OpInfo("Col2ImBackward0", "fold_long", lambda T, x: F(T).fold(x, (3, 4), 2), [(1, 12, 6)],
           dtypes=("int64",)),
    # the double backwards: im2col's gradient is a col2im, col2im's an im2col
    OpInfo("Col2ImBackward0", "unfold_double",
           lambda T, x, g: grad_of(T, F(T).unfold(x, 2, stride=1), x, g),
           [((2, 3, 4, 4), (2, 12, 9))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("Im2ColBackward0", "fold_double",
           lambda T, x, g: grad_of(T, F(T).fold(x, (4, 4), 2), x, g),
           [((2, 12, 9), (2, 3, 4, 4))], dtypes=FLOATS, rtol=0.0, atol=0.0),
]

POOL5 = [(2, 3, 4, 5, 4), (3, 4, 4, 5), ((2, 2, 4, 4, 3), "T")]

# max pooling is exact (its gradient sums in torch's order); average pooling sums each window
# in another order than torch's kernel (default tolerance)
POOLS3D = [
    OpInfo("MaxPool3DWithIndicesBackward0", "max_pool3d",
           lambda T, x: F(T).max_pool3d(x, 2, return_indices=True), POOL5,
           dtypes=FLOATS + ("int64",), rtol=0.0, atol=0.0),
    OpInfo("MaxPool3DWithIndicesBackward0", "max_pool3d_overlapping",
           lambda T, x: F(T).max_pool3d(x, (3, 2, 2), stride=(2, 1, 2), padding=(1, 0, 1),
                                        dilation=(1, 2, 1), ceil_mode=True),
           POOL5[:2], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("MaxPool3DWithIndicesBackward0", "max_pool3d_ties",
           lambda T, x: F(T).max_pool3d(x.clamp(min=0.5), 2, stride=1), POOL5[:1],
           dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("MaxPool3DWithIndicesBackward0", "max_pool3d_too_small",
           lambda T, x: F(T).max_pool3d(x, (4, 1, 1)), [(1, 2, 3, 4, 4)], dtypes=FLOATS),
    OpInfo("MaxPool3DWithIndicesBackward0", "max_pool3d_bad_padding",
           lambda T, x: F(T).max_pool3d(x, 2, padding=2), [(1, 2, 3, 4, 4)], dtypes=FLOATS),
    OpInfo("MaxPool3DWithIndicesBackward0", "max_pool3d_bad_kernel",
           lambda T, x: F(T).max_pool3d(x, (2, 2)), [(1, 2, 3, 4, 4)], dtypes=FLOATS),
    OpInfo("MaxPool3DWithIndicesBackward0", "max_pool3d_bad_dims",
           lambda T, x: F(T).max_pool3d(x, 2), [(3, 4, 4)], dtypes=FLOATS),
    OpInfo("MaxUnpool3DBackward0", "max_unpool3d",
           lambda T, x: F(T).max_unpool3d(*F(T).max_pool3d(x, 2, return_indices=True), 2,
                                          output_size=x.shape[-3:]),
           POOL5[:2], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("MaxUnpool3DBackward0", "max_unpool3d_bad_index",
           lambda T, x: F(T).max_unpool3d(x, (x.detach() * 0 + 70).long(), 2),
           [(1, 2, 2, 2, 2)], dtypes=FLOATS),
    OpInfo("MaxUnpool3DBackward0", "max_unpool3d_int_indices",
           lambda T, x: F(T).max_unpool3d(x, x.detach().int(), 2), [(1, 2, 2, 2, 2)],
           dtypes=FLOATS),
    OpInfo("MaxUnpool3DBackward0", "max_unpool3d_bad_dims",
           lambda T, x: F(T).max_unpool3d(x, x.detach().long(), 2), [(2, 2, 2)],
           dtypes=FLOATS),
    OpInfo("MaxPool3DWithIndicesBackwardBackward0", "max_pool3d_double",
           lambda T, x, g: grad_of(T, F(T).max_pool3d(x, 2, stride=1), x, g),
           [((1, 2, 3, 4, 3), (1, 2, 2, 3, 2))], dtypes=FLOATS, rtol=0.0, atol=0.0),
    OpInfo("AvgPool3DBackward0", "avg_pool3d", lambda T, x: F(T).avg_pool3d(x, 2), POOL5,
           dtypes=FLOATS),
    OpInfo("AvgPool3DBackward0", "avg_pool3d_exclude_pad_ceil",
           lambda T, x: F(T).avg_pool3d(x, (3, 2, 2), stride=2, padding=(1, 0, 1),
                                        ceil_mode=True, count_include_pad=False),
           POOL5[:2], dtypes=FLOATS),
    OpInfo("AvgPool3DBackward0", "avg_pool3d_divisor_override",
           lambda T, x: F(T).avg_pool3d(x, 2, divisor_override=3), POOL5[:1], dtypes=FLOATS),
    OpInfo("AvgPool3DBackward0", "avg_pool3d_int", lambda T, x: F(T).avg_pool3d(x, 2),
           POOL5[:1], dtypes=("int64",)),
    OpInfo("AvgPool3DBackward0", "avg_pool3d_kernel_too_big",
           lambda T, x: F(T).avg_pool3d(x, (4, 2, 2), padding=(1, 0, 0)), [(1, 2, 3, 4, 4)],
           dtypes=FLOATS),
    OpInfo("AvgPool3DBackward0", "avg_pool3d_bad_stride",
           lambda T, x: F(T).avg_pool3d(x, 2, (1, 1)), [(1, 2, 3, 4, 4)], dtypes=FLOATS),
    OpInfo("AvgPool3DBackwardBackward0", "avg_pool3d_double",
           lambda T, x, g: grad_of(T, F(T).avg_pool3d(x, 2, padding=1), x, g),
           [((1, 2, 3, 4, 3), (1, 2, 2, 3, 2))], dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool3DBackward0", "adaptive_avg_pool3d",
           lambda T, x: F(T).adaptive_avg_pool3d(x, (2, 3, 4)), POOL5, dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool3DBackward0", "adaptive_avg_pool3d_none",
           lambda T, x: F(T).adaptive_avg_pool3d(x, (None, 2, 7)), POOL5[:2], dtypes=FLOATS),
    OpInfo(None, "adaptive_avg_pool3d_one", lambda T, x: F(T).adaptive_avg_pool3d(x, 1),
           POOL5[:2], dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool3DBackward0", "adaptive_avg_pool3d_bad_dims",
           lambda T, x: F(T).adaptive_avg_pool3d(x, 2), [(3, 4, 4)], dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool3DBackward0", "adaptive_avg_pool3d_int",
           lambda T, x: F(T).adaptive_avg_pool3d(x, 2), POOL5[:1], dtypes=("int64",)),
    OpInfo("AdaptiveAvgPool3DBackwardBackward0", "adaptive_avg_pool3d_double",
           lambda T, x, g: grad_of(T, F(T).adaptive_avg_pool3d(x, (2, 2, 3)), x, g),
           [((1, 2, 3, 4, 5), (1, 2, 2, 2, 3))], dtypes=FLOATS),
]

CHANNEL_SHUFFLES = [
    OpInfo("ChannelShuffleBackward0", "channel_shuffle",
           lambda T, x: F(T).channel_shuffle(x, 3),
           [(2, 6, 3), (2, 6, 2, 3), (1, 3, 2, 2, 2), ((2, 6, 4), "T")],
           dtypes=FLOATS + ("int64", "bool"), rtol=0.0, atol=0.0),
    OpInfo("ChannelShuffleBackward0", "channel_shuffle_indivisible",
           lambda T, x: F(T).channel_shuffle(x, 4), [(2, 6, 3)], dtypes=FLOATS),
    OpInfo("ChannelShuffleBackward0", "channel_shuffle_zero_groups",
           lambda T, x: F(T).channel_shuffle(x, 0), [(2, 6, 3)], dtypes=FLOATS),
    OpInfo("ChannelShuffleBackward0", "channel_shuffle_2d",
           lambda T, x: F(T).channel_shuffle(x, 2), [(2, 6)], dtypes=FLOATS),
    OpInfo("ChannelShuffleBackward0", "channel_shuffle_double",
           lambda T, x, g: grad_of(T, F(T).channel_shuffle(x, 2), x, g),
           [((2, 6, 3), (2, 6, 3))], dtypes=FLOATS, rtol=0.0, atol=0.0),
]



def interpolate_row(record, name, samples, loose=False, **kw):
    """``F.interpolate(x, **kw)``: the nearest modes copy (exact); the others sum weighted
    taps, float32 in another order than torch's kernels (``loose``: 2e-5, the double
    backward's larger sums; the repr's 4th decimal may round the other way)."""
    tol = {"rtol": 2e-5, "atol": 2e-5, "reprs": False} if loose else {"rtol": 0.0, "atol": 0.0}
    return OpInfo(record, name, lambda T, x: F(T).interpolate(x, **kw), samples, dtypes=FLOATS,
                  **tol)


def interpolate_double(record, name, samples, **kw):
    return OpInfo(record, name,
                  lambda T, x, g: grad_of(T, F(T).interpolate(x, **kw), x, g), samples,
                  dtypes=FLOATS, rtol=2e-5, atol=2e-5, reprs=False)


INTERPOLATIONS = [
    interpolate_row("UpsampleNearest1DBackward0", "interpolate_nearest_1d",
                    [(2, 3, 5), ((2, 3, 4), "T")], scale_factor=1.5),
    interpolate_row("UpsampleNearest1DBackward0", "interpolate_nearest_1d_size", [(2, 3, 5)],
                    size=3),
    interpolate_row("UpsampleNearest3DBackward0", "interpolate_nearest_3d", [(1, 2, 3, 3, 4)],
                    scale_factor=(2, 1.5, 0.7)),
    interpolate_row("UpsampleNearestExact1DBackward0", "interpolate_nearest_exact_1d",
                    [(2, 3, 5)], scale_factor=1.7, mode="nearest-exact"),
    interpolate_row("UpsampleNearestExact2DBackward0", "interpolate_nearest_exact_2d",
                    [(2, 2, 4, 5)], size=(7, 3), mode="nearest-exact"),
    interpolate_row("UpsampleNearestExact3DBackward0", "interpolate_nearest_exact_3d",
                    [(1, 2, 3, 2, 3)], scale_factor=2, mode="nearest-exact"),
    interpolate_row("UpsampleLinear1DBackward0", "interpolate_linear", [(2, 3, 5)], True,
                    scale_factor=1.5, mode="linear"),
    interpolate_row("UpsampleLinear1DBackward0", "interpolate_linear_align_corners",
                    [(2, 3, 5)], True, size=9, mode="linear", align_corners=True),
    interpolate_row("UpsampleBicubic2DBackward0", "interpolate_bicubic",
                    [(1, 2, 4, 5), ((2, 2, 4, 4), "T")], True, scale_factor=1.5, mode="bicubic"),
    interpolate_row("UpsampleBicubic2DBackward0", "interpolate_bicubic_align_corners",
                    [(2, 3, 4, 5)], True, size=(9, 3), mode="bicubic", align_corners=True),
    interpolate_row("UpsampleTrilinear3DBackward0", "interpolate_trilinear", [(1, 2, 3, 3, 4)],
                    True, scale_factor=1.5, mode="trilinear"),
    interpolate_row("UpsampleTrilinear3DBackward0", "interpolate_trilinear_align_corners",
                    [(1, 2, 3, 3, 4)], True, size=(5, 2, 6), mode="trilinear",
                    align_corners=True),
    interpolate_row("AdaptiveAvgPool2DBackward0", "interpolate_area", [(1, 2, 6, 8)], True,
                    scale_factor=0.5, mode="area"),
    interpolate_row(None, "interpolate_area_1d", [(1, 2, 9)], True, size=4, mode="area"),
    interpolate_row(None, "interpolate_linear_4d", [(1, 2, 4, 5)], size=3, mode="linear"),
    interpolate_row(None, "interpolate_trilinear_3d", [(1, 2, 4)], size=3, mode="trilinear"),
    interpolate_row(None, "interpolate_bicubic_3d", [(1, 2, 4)], size=3, mode="bicubic"),
    interpolate_row(None, "interpolate_size_length", [(1, 2, 4, 4)], size=(3, 3, 3),
                    mode="nearest-exact"),
    interpolate_row(None, "interpolate_area_align_corners", [(1, 2, 4)], scale_factor=2,
                    mode="area", align_corners=True),
    interpolate_row(None, "interpolate_recompute_with_size", [(1, 2, 4)], size=3,
                    recompute_scale_factor=True, mode="linear"),
    interpolate_row(None, "interpolate_antialias_nearest", [(1, 2, 4, 4)], size=3,
                    antialias=True),
    interpolate_double("UpsampleNearest1DBackwardBackward0", "interpolate_nearest_1d_double",
                       [((2, 3, 5), (2, 3, 7))], scale_factor=1.5),
    interpolate_double("UpsampleNearest3DBackwardBackward0", "interpolate_nearest_3d_double",
                       [((1, 2, 2, 3, 2), (1, 2, 4, 6, 4))], scale_factor=2),
    interpolate_double("UpsampleNearestExact1DBackwardBackward0",
                       "interpolate_nearest_exact_1d_double", [((2, 3, 5), (2, 3, 8))],
                       mode="nearest-exact", scale_factor=1.7),
    interpolate_double("UpsampleNearestExact2DBackwardBackward0",
                       "interpolate_nearest_exact_2d_double", [((1, 2, 4, 5), (1, 2, 7, 3))],
                       mode="nearest-exact", size=(7, 3)),
    interpolate_double("UpsampleNearestExact3DBackwardBackward0",
                       "interpolate_nearest_exact_3d_double",
                       [((1, 1, 2, 2, 3), (1, 1, 4, 4, 6))], mode="nearest-exact",
                       scale_factor=2),
    interpolate_double("UpsampleLinear1DBackwardBackward0", "interpolate_linear_double",
                       [((2, 3, 5), (2, 3, 7))], mode="linear", scale_factor=1.5),
    interpolate_double("UpsampleBicubic2DBackwardBackward0", "interpolate_bicubic_double",
                       [((1, 2, 4, 5), (1, 2, 6, 7))], mode="bicubic", scale_factor=1.5),
    interpolate_double("UpsampleTrilinear3DBackwardBackward0", "interpolate_trilinear_double",
                       [((1, 2, 2, 3, 2), (1, 2, 3, 4, 3))], mode="trilinear",
                       scale_factor=1.5),
]

ROWS = ([r for pair in CONV3D + TRANSPOSED for r in pair] + PADS + SHUFFLES + POOLS + FOLDS
        + POOLS3D + CHANNEL_SHUFFLES + INTERPOLATIONS)
