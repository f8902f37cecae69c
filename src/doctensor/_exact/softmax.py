"""softmax and log_softmax as torch's CPU kernel computes them: float32 bit for bit.

See Note [softmax kernel].  The emulation is NumPy throughout, with exact float32 fused
multiply-adds (``fma32``).
"""

import numpy as np

from .capability import vector_bytes
from .fma import fma32, fma64
from .sleef import glibc_expf, sleef_expf, sleef_logf
from .summation import reduce_all, sum_left_to_right
from .workers import torch_num_threads

__all__ = ["softmax_cpu", "softmax_backward_cpu"]

# Note [softmax kernel]
# torch's CPU softmax (aten/src/ATen/native/cpu/SoftMaxKernel.cpp) makes the same three passes
# as the textbook formula, but its exp and its sums are its own, and F.softmax(x, 1).sum(1)
# prints 1. or 1.0000 depending on the last bit.  L is the number of floats in a vector: 16
# in torch's AVX512 build, 8 in its AVX2 one (Note [CPU capability]):
#
#   dim is the last one (rows of n contiguous floats, `_vec_softmax_lastdim`):
#     m = max(row);  e = exp(x - m) with Sleef's expf;  s = sum(e) by vec::reduce_all;
#     softmax     = e * (1 / s)
#     log_softmax = (x - m) - log(s), log by Sleef's logf
#   vec::reduce_all(+) sums a row of n >= L in L lanes and then folds the lanes in a tree,
#   and a shorter row left to right (L = 16):
#
#       lane j: x[j] + x[j+16] + x[j+32] + ...     (left to right, one column of 16)
#       fold:   lanes j + j^8, then + j^4, + j^2, + j^1  ->  lane 0
#
#   dim is not the last one (columns of `inner` independent sums, `_vec_softmax`):
#     sums go down the dim, left to right; softmax divides, e / s, and log_softmax is as
#     above.  Blocks of L adjacent columns take Sleef's exp, and leftover columns glibc's
#     scalar expf (std::exp).  Which columns are leftovers: for softmax, those past the last
#     whole L of each row of `inner` and of each thread's share of outer * inner (at::
#     parallel_for with grain 0 splits it evenly over all of torch's threads); for
#     log_softmax, past the last whole L of each chunk of min(inner, 32768 // dim_size
#     rounded down to L) columns.
#
# Sleef's expf rounds q = rint(x / ln 2), then reduces s = x - q ln 2 (ln 2 in two parts) and
# evaluates 1 + s + s^2 P(s) with fused multiply-adds; it is within one ulp but differs from
# the correctly rounded exp in about 9% of results, so nothing short of its own steps
# matches.  glibc's expf works in double and is correctly rounded but for about one result
# in 1500; doing its steps in double is exact too (fused or not, its double result moves by
# far less than the final rounding to float32 can see, but in ~1e-8 of cases).  (The
# polynomial exp_u20 of vec512_float.h is not used by torch 2.13's float32 softmax.)
#
# float64 takes the same passes with L / 2 lanes, folded left to right (no shuffle tree for
# double); NumPy's exp and log stand in for Sleef's double ones, so a few results in a
# hundred differ in the last bit.


def _scalar_columns(outer, n, inner, log):
    """(outer, 1, inner) mask of the columns `_vec_softmax` / `_vec_logsoftmax` leave to
    the scalar loop (see Note [softmax kernel])."""
    lanes = vector_bytes() // 4
    col = np.arange(inner)
    if log:
        chunk = min(max(32768 // n // lanes * lanes, lanes), inner)
        size = np.minimum(chunk, inner - col // chunk * chunk)
        scalar = col % chunk >= size - size % lanes
        return np.broadcast_to(scalar, (outer, 1, inner))
    total = outer * inner
    share = -(-total // torch_num_threads())  # at::parallel_for with grain 0
    idx = np.arange(total)
    end = np.minimum((idx // share + 1) * share, (idx // inner + 1) * inner)
    start = np.maximum(idx // share * share, idx // inner * inner)
    block_end = start + (idx - start) // lanes * lanes + lanes
    return (block_end > end).reshape(outer, 1, inner)


def softmax_cpu(a, dim, log):
    """softmax (or log_softmax) of a float32 or float64 array along ``dim``, as torch's CPU
    kernel computes it (float64 with NumPy's exp and log standing in for Sleef's)."""
    if a.size == 0:
        return a.copy()
    single = a.dtype == np.float32
    exp, ln = (sleef_expf, sleef_logf) if single else (np.exp, np.log)
    shape, n = a.shape, a.shape[dim]
    if dim == a.ndim - 1:
        x = a.reshape(-1, n)
        with np.errstate(all="ignore"):
            shifted = x - x.max(axis=1, keepdims=True)
            e = exp(shifted)
            s = reduce_all(e)[:, None]
            out = shifted - ln(s) if log else e * (a.dtype.type(1) / s)
        return out.reshape(shape)
    x = a.reshape(-1, n, int(np.prod(shape[dim + 1:])))
    with np.errstate(all="ignore"):
        shifted = x - x.max(axis=1, keepdims=True)
        e = exp(shifted)
        if single:
            scalar = _scalar_columns(*x.shape, log)
            if scalar.any():
                e = np.where(scalar, glibc_expf(shifted), e)
        s = sum_left_to_right(e, 1)[:, None]
        out = shifted - ln(s) if log else e / s
    return out.reshape(shape)


# Note [softmax backward]
# torch's CPU backward of softmax and log_softmax, from the output y and its gradient g (the same
# file; L lanes as the forward's, Note [CPU capability]):
#
#   dim is the last one (rows):
#     log_softmax   s = reduce_all(g);       grad = fma(-exp(y), s, g)     (Sleef's exp)
#     softmax       s = reduce_all(g * y);   grad = (g - s) * y            (products rounded)
#   dim is not the last one (columns of `inner`, in chunks of min(inner, 128 KiB / (dim_size
#   * itemsize) rounded down to L) columns; the last `size % L` of a chunk go the scalar way):
#     log_softmax   s = 0 + g[0] + g[1] + ...      grad = fma(-exp(y), s, g)
#                   (Sleef's exp in vectors, glibc's expf for the scalar columns)
#     softmax       s = fma(g[d], y[d], s) from 0, d = 0, 1, ...;   grad = y * (g - s)
#
# Both were told apart from their unfused forms on random rows and maps (the compiler fuses
# `x - e * s` and `s += g * y`; map2_reduce_all's products stay rounded).  float64 takes the
# same passes with NumPy's exp for Sleef's and glibc's.


def softmax_backward_cpu(g, y, dim, log):
    """The gradient of softmax (``log``: log_softmax) along ``dim`` for a float32 or float64
    output ``y`` and gradient ``g`` (same shape, non-empty), as torch's CPU kernels compute it
    (Note [softmax backward])."""
    single = y.dtype == np.float32
    fma = fma32 if single else fma64
    n = y.shape[dim]
    if dim == y.ndim - 1:
        g2, y2 = g.reshape(-1, n), y.reshape(-1, n)
        with np.errstate(all="ignore"):
            if not log:
                return ((g2 - reduce_all(g2 * y2)[:, None]) * y2).reshape(y.shape)
            e = sleef_expf(y2) if single else np.exp(y2)
            s = np.broadcast_to(reduce_all(g2)[:, None], e.shape)
            return fma(-e, s, g2).reshape(y.shape)
    inner = int(np.prod(y.shape[dim + 1:]))
    g3, y3 = g.reshape(-1, n, inner), y.reshape(-1, n, inner)
    with np.errstate(all="ignore"):
        if log:
            s = sum_left_to_right(g3, 1)[:, None] + y.dtype.type(0)
            if single:
                vector = _vector_columns(inner, n, vector_bytes() // 4)
                e = np.where(vector, sleef_expf(y3), glibc_expf(y3))
            else:
                e = np.exp(y3)
            out = fma(-e, np.broadcast_to(s, e.shape), g3)
        else:
            s = np.zeros((len(g3), inner), y.dtype)
            for d in range(n):
                s = fma(g3[:, d], y3[:, d], s)
            out = y3 * (g3 - s[:, None])
    return out.reshape(y.shape)


def _vector_columns(inner, n, lanes):
    """(inner,) mask of the columns the backward's vector loop takes (Note [softmax
    backward]): all but the last ``size % lanes`` of each chunk of ``size`` columns."""
    chunk = min(max(128 * 1024 // n // 4, lanes) // lanes * lanes, inner)
    col = np.arange(inner)
    size = np.minimum(chunk, inner - col // chunk * chunk)
    return col % chunk < size - size % lanes
