"""How torch lays a result out in memory: pure array functions over a device's ``xp``.

A fresh result is contiguous (``contiguous``), except where torch follows its inputs:
pointwise results (``pointwise_layout``: Note [output layout] in _strides.py) and copies
that preserve the input's layout (``preserve_layout``: Note [preserve_format]).
"""

import numpy as np

from .._strides import contiguous_strides, iter_output_strides, preserve_strides

__all__ = ["pointwise_layout", "layout_as", "copy_as", "strided_zeros", "preserve_layout",
           "contiguous", "element_strides"]


def element_strides(a):
    """An array's strides in elements, as torch counts them."""
    item = a.itemsize
    return tuple(s // item for s in a.strides)


def pointwise_layout(xp, out, operands, number=False):
    """``out`` laid out as torch lays out a pointwise result of the arrays ``operands`` (and
    of a Python ``number``: a 0-d operand to torch)."""
    shapes = [(a.shape, element_strides(a)) for a in operands]
    strides = iter_output_strides(out.shape, shapes + [((), ())] if number else shapes)
    return layout_as(xp, out, strides)


def layout_as(xp, out, strides, copy=False):
    """``out``'s values in an array with element ``strides`` (``out`` itself when it has them
    and no ``copy`` is asked for)."""
    item = out.itemsize
    if out.strides == tuple(s * item for s in strides):
        return xp.array(out, copy=True) if copy else out
    return copy_as(xp, out, strides)


def strided_zeros(xp, shape, strides, dtype):
    """A zero array of ``shape`` with element ``strides``, over a fresh buffer of exactly the
    elements those strides reach (torch's storage size for empty_strided)."""
    span = 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    buf = xp.zeros(span, dtype=dtype)
    item = buf.itemsize
    return xp.lib.stride_tricks.as_strided(buf, tuple(shape), tuple(s * item for s in strides))


def copy_as(xp, data, strides):
    """A copy of the array ``data`` with element ``strides``."""
    out = strided_zeros(xp, data.shape, strides, data.dtype)
    out[...] = data
    return out


def preserve_layout(xp, data, like):
    """``data``, a fresh order-'K' copy of the array ``like``'s values, laid out as torch lays
    out a copy of ``like`` (Note [preserve_format]); NumPy's copy already is, except for
    expanded, stepped or odd size-0/1 layouts."""
    strides = element_strides(like)
    if element_strides(data) == strides:
        return data
    return copy_as(xp, data, preserve_strides(data.shape, strides))


def contiguous(xp, out):
    """A result as torch allocates it: C-contiguous, with torch's strides for size-1 dims too
    (NumPy keeps an input's layout, and odd strides for kept dims)."""
    if isinstance(out, np.generic):
        return xp.asarray(out)
    if out.flags.c_contiguous and 1 not in out.shape:  # the common case: nothing to do
        return out
    want = tuple(s * out.itemsize for s in contiguous_strides(out.shape))
    if out.strides == want or not out.size:
        return out
    if not out.flags.c_contiguous:
        out = xp.ascontiguousarray(out)
        if out.strides == want:
            return out
    return xp.lib.stride_tricks.as_strided(out, strides=want)
