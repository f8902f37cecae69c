"""torch's CPU ``linalg.vector_norm`` for finite p other than 0 (Note [vector norms])."""

import numpy as np

from .cascade_sum import GRAIN_SIZE, num_threads, reduced_runs, vector_bytes
from .fma import fma32, fma64

__all__ = ["vector_norm"]

# Note [vector norms]
# norm_kernel_tensor_iterator_impl reduces with binary_kernel_reduce: each output adds its
# terms (|x| for p = 1, x * x rounded for p = 2, pow(|x|, p) rounded otherwise) one by one,
# left to right, in the order the reduction walks its reduced elements, in float (half
# precision: float, rounded at the end), then takes the root (pow(total, 1/p) with 1/p a
# float).  A whole-tensor reduction of 32768 or more elements is cut into get_num_threads()
# equal chunks whose sums are added in order (0 + chunk 0 + chunk 1 ...).
#
# p = 2 over one contiguous reduced dim of float32, float64 or bfloat16 has a kernel of its
# own (binary_kernel_reduce_lastdim, one row per output, no threads): 32-byte vectors of
# squares, L lanes (8 floats, 4 doubles; bfloat16 reads 16 and squares them as two float
# vectors, low half first), then the lanes, then the tail, as GCC compiled it:
#
#     acc[0..L) += x[k..k+L) * x[k..k+L)     (product rounded, then the add)  k = 0, L, 2L ...
#     b = acc[0] + acc[1] + ... + acc[L-1]
#     tail of float32: the first 4 of 5-7 (or of 4) as b += x * x (the loop vectorised by
#     4), the others as b = fma(x, x, b); float64, bfloat16: all fma
#     result = sqrt(b)
#
# The root of p other than 1 and 2 is the float64 power rounded, as are the terms: glibc's
# powf, which torch calls, rounds a few in a thousand of them the other way (1 ulp).


def vector_norm(a, ord, dims):
    """The p-norm (``ord`` finite, not 0) of the float array ``a`` over ``dims`` (all when
    None) in torch's order, with the reduced dims dropped."""
    dims = tuple(range(a.ndim)) if dims is None else dims
    runs, last_dim = reduced_runs(a, dims)
    shape = [n for d, n in enumerate(a.shape) if d not in dims]
    if ord == 2 and last_dim and a.dtype != np.float16:
        rows = runs.reshape(-1, runs.shape[-1])
        return _two_norm_rows(rows).astype(a.dtype).reshape(shape)
    wide = np.dtype(np.float32) if a.dtype.itemsize < 4 else a.dtype
    x = runs.astype(wide)
    with np.errstate(over="ignore"):
        terms = np.abs(x) if ord == 1 else x * x if ord == 2 else _pow(np.abs(x), ord)
    n = terms.shape[-1]
    if runs.ndim == 1 and n >= GRAIN_SIZE and num_threads() > 1:
        parts = min(num_threads(), -(-n // GRAIN_SIZE))
        chunk = -(-n // parts)
        total = wide.type(0)
        for t in range(parts):
            total = total + _sequential(terms[t * chunk:(t + 1) * chunk])
    else:
        total = _sequential(terms)
    out = np.sqrt(total) if ord == 2 else total if ord == 1 else \
        _pow(total, wide.type(1) / wide.type(ord))
    return np.asarray(out).astype(a.dtype).reshape(shape)


def _pow(x, p):
    """``pow(x, p)`` in ``x``'s dtype: float32 through float64, rounded once."""
    if x.dtype == np.float64:
        return np.power(x, np.float64(p))
    return np.power(np.asarray(x, np.float64), np.float64(np.float32(p))).astype(x.dtype)


def _sequential(terms):
    """0 + t[0] + t[1] + ... along the last axis."""
    if not terms.shape[-1]:
        return np.zeros(terms.shape[:-1], terms.dtype)
    return np.add.accumulate(terms, axis=-1)[..., -1] + terms.dtype.type(0)


def _two_norm_rows(rows):
    """The lastdim 2-norm kernel (Note [vector norms]) of each row of ``rows`` (m, n)."""
    acc_t = np.dtype(np.float32) if rows.dtype.itemsize < 4 else rows.dtype
    lanes = vector_bytes() // acc_t.itemsize
    step = 2 * lanes if acc_t != rows.dtype else lanes
    m, n = rows.shape
    full = n - n % step
    vecs = rows[:, :full].astype(acc_t).reshape(m, full // lanes, lanes)
    squares = np.ascontiguousarray((vecs * vecs).transpose(1, 0, 2))
    # a reduce along axis 0 of a C-contiguous array adds row after row, from the first
    acc = np.add.reduce(squares, axis=0) if full else np.zeros((m, lanes), acc_t)
    b = acc[:, 0].copy()
    for j in range(1, lanes):
        b += acc[:, j]
    tail = rows[:, full:].astype(acc_t)
    plain = 4 if acc_t == np.float32 and rows.dtype == acc_t and tail.shape[1] >= 4 else 0
    for k in range(plain):
        b += tail[:, k] * tail[:, k]
    fma = fma32 if acc_t == np.float32 else fma64
    for k in range(plain, tail.shape[1]):
        b = fma(tail[:, k], tail[:, k], b)
    return np.sqrt(b)
