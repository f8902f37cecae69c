"""Array kernels of the decompositions that NumPy does not offer (LU, triangular and LU
solves, Cholesky with LAPACK's ``info``, the matrix exponential) and torch's batched
column-major layout: pure functions of arrays over a device's ``xp``.

Note [LAPACK results]
torch's CPU kernels call MKL's LAPACK; NumPy's ``linalg`` calls the LAPACK it was built
with (OpenBLAS); the kernels here follow LAPACK's unblocked algorithms (``getf2``: the first
largest pivot, the column scaled by the pivot's reciprocal; ``potf2``; ``trsm``'s column
updates), vectorized over the batch.  Same algorithms, other blockings and orders of
summation: results agree to a few ulps times the matrix's condition number, not bit for bit,
and the op table states its tolerances so.  What LAPACK decides from exact zeros (``info``,
pivot choices among distinct values) is the same.
"""

import numpy as np

__all__ = ["column_major", "lu_factor", "lu_unpack", "tri_solve", "lu_solve", "cholesky",
           "matrix_exp", "batch_strides"]


def batch_strides(shape, f_contig=True):
    """torch's strides for a batch of matrices: C-contiguous batches of column-major
    matrices (``f_contig``) or plain C-contiguous; sizes count at least 1."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(shape[i + 1], 1)
    if f_contig and len(shape) >= 2:
        strides[-1] = max(shape[-2], 1)
        strides[-2] = 1
    return tuple(strides)


def column_major(xp, a, f_contig=True):
    """``a``'s values laid out as ``batch_strides`` says (a fresh array)."""
    strides = batch_strides(a.shape, f_contig)
    item = a.dtype.itemsize
    span = 0 if 0 in a.shape else 1 + sum((n - 1) * s for n, s in zip(a.shape, strides))
    out = xp.lib.stride_tricks.as_strided(xp.empty(max(span, 1), a.dtype), a.shape,
                                          tuple(s * item for s in strides))
    out[...] = a
    return out


def _flat(xp, a):
    """``a`` as a (batch, m, n) array (a copy) and its batch shape."""
    count = int(np.prod(a.shape[:-2]))
    return xp.array(a.reshape((count,) + a.shape[-2:]), copy=True), a.shape[:-2]


def lu_factor(xp, a):
    """LAPACK's ``getf2`` on a batch: (LU, 1-based int32 pivots, int32 info)."""
    lu, batch = _flat(xp, a)
    count, m, n = lu.shape
    k = min(m, n)
    pivots = xp.zeros((count, k), np.int32)
    info = xp.zeros(count, np.int32)
    every = xp.arange(count)
    for j in range(k):
        column = lu[:, j:, j]
        size = xp.abs(column.real) + xp.abs(column.imag) if column.dtype.kind == "c" else \
            xp.abs(column)
        p = j + xp.argmax(size, axis=-1)  # the first largest: i?amax (|re| + |im|)
        pivots[:, j] = p + 1
        row = lu[:, j, :].copy()
        lu[:, j, :] = lu[every, p, :]
        lu[every, p, :] = row
        pivot = lu[:, j, j]
        zero = pivot == 0
        info[(info == 0) & zero] = j + 1
        scale = xp.where(zero, 1, 1 / xp.where(zero, 1, pivot))
        lu[:, j + 1:, j] *= scale[:, None]
        lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j:j + 1] * lu[:, j:j + 1, j + 1:]
    return (lu.reshape(a.shape), pivots.reshape(batch + (k,)), info.reshape(batch))


def permutation(xp, pivots, m):
    """The row order (batch, m) that LAPACK's row swaps ``pivots`` (1-based) make."""
    count = int(np.prod(pivots.shape[:-1]))
    piv = pivots.reshape(count, pivots.shape[-1]) - 1
    order = xp.tile(xp.arange(m), (count, 1))
    every = xp.arange(count)
    for j in range(piv.shape[1]):
        p = piv[:, j]
        swapped = order[every, p].copy()
        order[every, p] = order[:, j]
        order[:, j] = swapped
    return order.reshape(pivots.shape[:-1] + (m,))


def lu_unpack(xp, lu, pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) from LAPACK's packed LU and pivots: ``A = P @ L @ U``."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    if unpack_pivots:
        order = permutation(xp, pivots, m)
        p = (order[..., None, :] == xp.arange(m)[:, None]).astype(lu.dtype)
    else:
        p = xp.zeros((0,), lu.dtype)
    if unpack_data:
        low = xp.tril(lu[..., :, :k], -1) + xp.eye(m, k, dtype=lu.dtype)
        up = xp.triu(lu[..., :k, :])
    else:
        low = up = xp.zeros((0,), lu.dtype)
    return p, low, up


def tri_solve(xp, a, b, upper, unit=False):
    """``a @ x = b`` for triangular ``a`` (batches broadcast), by BLAS ``trsm``'s column
    updates: each unknown divided by its diagonal, then taken out of the rows it reaches;
    as ``trsm``, an unknown that is zero is skipped (so a zero right-hand side gives zeros,
    not NaN, even when ``a`` is singular: what torch's det backward relies on)."""
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = xp.broadcast_to(a, shape + a.shape[-2:])
    x = xp.array(xp.broadcast_to(b, shape + b.shape[-2:]), copy=True)
    n = a.shape[-1]
    for k in (range(n - 1, -1, -1) if upper else range(n)):
        live = x[..., k:k + 1, :] != 0
        if not unit:
            x[..., k, :] = xp.where(live[..., 0, :], x[..., k, :] / a[..., k, k, None],
                                    x[..., k, :])
        reach = slice(0, k) if upper else slice(k + 1, n)
        update = a[..., reach, k, None] * x[..., k:k + 1, :]
        x[..., reach, :] -= xp.where(live, update, 0)
    return x


def lu_solve(xp, lu, pivots, b, adjoint=False):
    """``A @ x = b`` (``A^H @ x = b`` with ``adjoint``) from ``A``'s packed LU factors."""
    m = lu.shape[-1]
    shape = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    order = xp.broadcast_to(permutation(xp, pivots, m), shape + (m,))
    b = xp.broadcast_to(b, shape + b.shape[-2:])
    if not adjoint:
        y = xp.take_along_axis(b, order[..., :, None], axis=-2)
        y = tri_solve(xp, lu, y, upper=False, unit=True)
        return tri_solve(xp, lu, y, upper=True)
    lu_h = xp.conj(xp.swapaxes(lu, -1, -2))
    y = tri_solve(xp, lu_h, b, upper=False)
    y = tri_solve(xp, lu_h, y, upper=True, unit=True)
    x = xp.empty_like(y)
    xp.put_along_axis(x, order[..., :, None], y, axis=-2)
    return x


def cholesky(xp, a):
    """LAPACK's ``potf2`` (lower) on a batch, reading ``a``'s lower triangle: (L, int32
    info); ``info`` is the order of the first leading minor that is not positive-definite
    (its column and the ones after it are left NaN).  Complex: ``A = L L^H``, from the real
    part of the diagonal."""
    flat, batch = _flat(xp, a)
    n = flat.shape[-1]
    low = xp.zeros_like(flat)
    info = xp.zeros(flat.shape[0], np.int32)
    for j in range(n):
        row = xp.conj(low[:, j, :j])
        d = (flat[:, j, j] - xp.sum(row * low[:, j, :j], axis=-1)).real
        bad = ~(d > 0)
        info[(info == 0) & bad] = j + 1
        root = xp.sqrt(xp.where(bad, np.nan, d))
        low[:, j, j] = root
        below = flat[:, j + 1:, j] - xp.matmul(low[:, j + 1:, :j], row[:, :, None])[..., 0]
        low[:, j + 1:, j] = below * (1 / root)[:, None]
    return low.reshape(a.shape), info.reshape(batch)


def matrix_exp(xp, a):
    """``exp(a)`` by scaling and squaring: ``a / 2**s`` with a 1-norm at most 1/2, its Taylor
    series to degree 18 (a remainder under 1e-20), squared ``s`` times; in double precision."""
    x = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    if not x.size:
        return x
    norm = xp.abs(x).sum(axis=-2).max()
    s = max(0, int(np.ceil(np.log2(norm / 0.5)))) if norm > 0.5 else 0
    x = x / 2.0 ** s
    eye = xp.broadcast_to(xp.eye(x.shape[-1], dtype=x.dtype), x.shape)
    term = eye
    total = eye.copy()
    for k in range(1, 19):
        term = xp.matmul(term, x) / k
        total = total + term
    for _ in range(s):
        total = xp.matmul(total, total)
    return total


# Note [Bunch-Kaufman]
# LAPACK's sytf2 (lower) factors a symmetric A as P L D L^T P^T, with D of 1x1 and 2x2 blocks,
# choosing at each step k (alpha = (1 + sqrt(17)) / 8, colmax the largest |A[i, k]| below the
# diagonal, at row imax; rowmax the largest off-diagonal |A[imax, j]|):
#   |A[k, k]| >= alpha * colmax                       a 1x1 block, no interchange
#   |A[k, k]| * rowmax >= alpha * colmax**2           a 1x1 block, no interchange
#   |A[imax, imax]| >= alpha * rowmax                 a 1x1 block, k and imax interchanged
#   else                                              a 2x2 block, k + 1 and imax interchanged
# pivots record the interchange (1-based; negative on both rows of a 2x2 block).  One matrix
# at a time: the choices depend on the values.

_ALPHA = (1 + 17 ** 0.5) / 8


def ldl_factor(xp, a):
    """LAPACK's sytf2 (lower) on a batch: (LD, 1-based int32 pivots, int32 info)."""
    flat, batch = _flat(xp, a)
    n = flat.shape[-1]
    pivots = xp.zeros((flat.shape[0], n), np.int32)
    info = xp.zeros(flat.shape[0], np.int32)
    for b in range(flat.shape[0]):
        info[b] = _sytf2(xp, flat[b], pivots[b])
    return xp.tril(flat).reshape(a.shape), pivots.reshape(batch + (n,)), info.reshape(batch)


def _sytf2(xp, m, piv):
    """Factor the lower triangle of ``m`` in place (Note [Bunch-Kaufman]); returns info."""
    n = m.shape[0]
    info = 0
    k = 0
    while k < n:
        step = 1
        absakk = abs(m[k, k])
        imax = k + 1 + int(xp.argmax(xp.abs(m[k + 1:, k]))) if k + 1 < n else k
        colmax = abs(m[imax, k]) if k + 1 < n else 0.0
        if max(absakk, colmax) == 0 or absakk != absakk:
            info = info or k + 1
            kp = k
        elif absakk >= _ALPHA * colmax:
            kp = k
        else:
            rowmax = float(xp.abs(m[imax, k:imax]).max())
            if imax + 1 < n:
                rowmax = max(rowmax, float(xp.abs(m[imax + 1:, imax]).max()))
            if absakk >= _ALPHA * colmax * (colmax / rowmax):
                kp = k
            elif abs(m[imax, imax]) >= _ALPHA * rowmax:
                kp = imax
            else:
                kp, step = imax, 2
        kk = k + step - 1
        if kp != kk:
            _swap_symmetric(m, kk, kp)
            if step == 2:
                m[k + 1, k], m[kp, k] = m[kp, k], m[k + 1, k]
        if step == 1 and k + 1 < n and m[k, k] != 0:
            d11 = 1 / m[k, k]
            col = m[k + 1:, k].copy()
            m[k + 1:, k + 1:] -= xp.tril(xp.outer(col, col) * d11)
            m[k + 1:, k] = col * d11
        elif step == 2 and k + 2 < n:
            d21 = m[k + 1, k]
            d11 = m[k + 1, k + 1] / d21
            d22 = m[k, k] / d21
            d21 = 1 / (d11 * d22 - 1) / d21
            wk = d21 * (d11 * m[k + 2:, k] - m[k + 2:, k + 1])
            wkp1 = d21 * (d22 * m[k + 2:, k + 1] - m[k + 2:, k])
            m[k + 2:, k + 2:] -= xp.tril(xp.outer(m[k + 2:, k], wk) +
                                         xp.outer(m[k + 2:, k + 1], wkp1))
            m[k + 2:, k], m[k + 2:, k + 1] = wk, wkp1
        piv[k:k + step] = kp + 1 if step == 1 else -(kp + 1)
        k += step
    return info


def _swap_symmetric(m, i, j):
    """Interchange rows and columns ``i < j`` of the symmetric matrix whose lower triangle
    ``m`` holds (rows ``i..n`` only: what sytf2 has not factored yet)."""
    m[j + 1:, [i, j]] = m[j + 1:, [j, i]]
    between = m[i + 1:j, i].copy()
    m[i + 1:j, i] = m[j, i + 1:j]
    m[j, i + 1:j] = between
    m[i, i], m[j, j] = m[j, j], m[i, i]


def ldl_solve(xp, ld, pivots, b):
    """LAPACK's sytrs (lower): ``A x = b`` from sytf2's factors, one matrix at a time."""
    shape = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    count = int(np.prod(shape))
    ld = xp.broadcast_to(ld, shape + ld.shape[-2:]).reshape((count,) + ld.shape[-2:])
    piv = xp.broadcast_to(pivots, shape + pivots.shape[-1:]).reshape(count, pivots.shape[-1])
    x = xp.array(xp.broadcast_to(b, shape + b.shape[-2:]).reshape((count,) + b.shape[-2:]))
    for i in range(x.shape[0]):
        _sytrs(ld[i], piv[i], x[i])
    return x.reshape(shape + b.shape[-2:])


def _sytrs(a, piv, x):
    n = a.shape[0]
    k = 0
    while k < n:  # L D y = b
        if piv[k] > 0:
            _swap_rows(x, k, piv[k] - 1)
            x[k + 1:] -= a[k + 1:, k, None] * x[k]
            x[k] /= a[k, k]
            k += 1
        else:
            _swap_rows(x, k + 1, -piv[k] - 1)
            x[k + 2:] -= a[k + 2:, k, None] * x[k] + a[k + 2:, k + 1, None] * x[k + 1]
            akm1k = a[k + 1, k]
            akm1, ak = a[k, k] / akm1k, a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1, bk = x[k] / akm1k, x[k + 1] / akm1k
            x[k], x[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T P^T x = y
        if piv[k] > 0:
            x[k] -= a[k + 1:, k] @ x[k + 1:]
            _swap_rows(x, k, piv[k] - 1)
            k -= 1
        else:
            x[k] -= a[k + 1:, k] @ x[k + 1:]
            x[k - 1] -= a[k + 1:, k - 1] @ x[k + 1:]
            _swap_rows(x, k, -piv[k] - 1)
            k -= 2


def _swap_rows(x, i, j):
    if i != j:
        x[[i, j]] = x[[j, i]]
