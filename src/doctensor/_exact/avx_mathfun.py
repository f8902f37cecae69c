"""torch's randn arithmetic: the float32 ``log`` and ``sincos`` of its ``avx_mathfun.h``.

``log_f32`` / ``sincos_f32`` follow the cephes-style routines operation by operation, with
GCC's fusions; ``box_muller_f32`` does the same work for ``randn`` several times faster, and
on several threads (Note [fast float32 Box-Muller]).  ``libm_log`` / ``libm_log1p`` /
``libm_sin`` / ``libm_cos`` are glibc's double functions applied element-wise (NumPy's own
``np.log`` and ``np.log1p`` differ from glibc in the last bit).
"""

import math

import numpy as np

from .cascade_sum import num_threads
from .fma import fma32
from .workers import THREADS, in_parallel

__all__ = ["box_muller_f32", "log_f32", "sincos_f32", "libm_cos", "libm_log", "libm_log1p",
           "libm_sin"]


def _f32(x):
    return np.float32(x)


# Constants of avx_mathfun.h, each rounded to float32.
_MIN_NORM = _f32(2.0**-126)
_SQRTHF = _f32(0.707106781186547524)
_LOG_P = tuple(map(_f32, (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                          1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                          3.3333331174e-1)))
_LOG_Q1, _LOG_Q2 = _f32(-2.12194440e-4), _f32(0.693359375)
_FOPI = _f32(1.27323954473516)
_DP = tuple(map(_f32, (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)))
_COS_C = tuple(map(_f32, (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)))
_SIN_S = tuple(map(_f32, (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)))
_HALF, _ONE, _ZERO = _f32(0.5), _f32(1.0), _f32(0.0)
_SIGN = np.uint32(0x80000000)


def log_f32(x):
    """``log256_ps`` of avx_mathfun.h on a float32 array with values in (0, 1]."""
    x = np.maximum(x, _MIN_NORM)
    bits = x.view(np.uint32)
    e = ((bits >> 23).astype(np.int32) - 127).astype(np.float32) + _ONE
    m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(np.float32)
    small = m < _SQRTHF
    e = e - np.where(small, _ONE, _ZERO)
    m = (m - _ONE) + np.where(small, m, _ZERO)
    z = m * m
    y = np.full_like(m, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = fma32(y, m, p)
    y = fma32(y * m, z, e * _LOG_Q1)
    y = y - z * _HALF
    # fma(e, Q2, m + y): e * Q2 is exact in float32 (|e| <= 126 has 7 bits, Q2 = 355/512 has
    # 9), so the fused sum is the float32 sum of two floats, rounded once.
    return e * _LOG_Q2 + (m + y)


def sincos_f32(x):
    """``sincos256_ps`` of avx_mathfun.h on a float32 array with values in [0, 2 pi):
    returns (sin x, cos x)."""
    bits = x.view(np.uint32)
    sign_sin = bits & _SIGN
    a = (bits & ~_SIGN).view(np.float32)
    j = (a * _FOPI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    sign_sin ^= ((j & 4) != 0).astype(np.uint32) << 31
    sign_cos = (((j - 2) & 4) == 0).astype(np.uint32) << 31
    # fma(y, DP1, a) and fma(y, DP2, r): y is 0, 2, 4, 6 or 8 (x < 2 pi) and DP1, DP2 have 8
    # and 11 significant bits, so y * DP is exact in float32 and the fma is one float32 add.
    r = (y * _DP[0]) + a
    r = (y * _DP[1]) + r
    r = fma32(y, _DP[2], r)  # DP3 has 24 bits: 6 * DP3 is not a float32
    z = r * r
    p = fma32(fma32(_COS_C[0], z, _COS_C[1]), z, _COS_C[2]) * z
    p = fma32(p, z, -(z * _HALF)) + _ONE
    q = fma32(fma32(_SIN_S[0], z, _SIN_S[1]), z, _SIN_S[2]) * z
    q = fma32(q, r, r)
    swap = (j & 2) != 0
    sin = (np.where(swap, p, q) + _ZERO).view(np.uint32) ^ sign_sin
    cos = (np.where(swap, q, p) + _ZERO).view(np.uint32) ^ sign_cos
    return sin.view(np.float32), cos.view(np.float32)


# Note [fast float32 Box-Muller]
# log_f32 and sincos_f32 follow avx_mathfun.h operation by operation and make each fused
# multiply-add exact with fma32 (several float64 passes plus a check for halfway cases).  randn
# spends nearly all its time in them, so box_muller_f32 computes the same bits with less work:
#
# * a value that the next fused step reads stays a float64 array (holding a float32 value), and
#   fma(a, b, c) on such arrays is one float64 multiply (exact: a and b have 24 bits), one
#   float64 add (one rounding, to 53 bits) and a rounding to float32 and back (two casts),
#   *without* fma32's halfway check; where all the results of a step lie in one binade, the add
#   and the rounding are two calls that round once (Note [_MAGIC]);
# * a float32 product (y * m, p * z) is a float32 multiply, and the last cosine and sine steps
#   fma(p, z, -(z * 0.5)) and fma(q, r, r) are computed as (p - 0.5) z and (q + 1) r (the same
#   exact values) in float64, then rounded;
# * steps with a known outcome are left out (u1 >= 2**-24 needs no clamp, theta >= 0 no sign,
#   sin and cos are never -0. so need no "+ 0"), the reduction of theta is rearranged, and the
#   cosine and sine polynomials, alike up to their last step, go through one (2, n) array;
# * np.where (tens of times slower than an add) becomes integer bit operations, strided
#   (k, 8) halves of windows are moved as single 32-byte items, and every NumPy call gets its
#   output positionally and its constants as 0-d arrays of its dtype (a call's own cost is
#   that of some 2,000 elements, and a Python number operand doubles it).
#
# Leaving out the halfway checks (and rewriting the last steps) is safe only because the inputs are
# so few: the radius depends on one 24-bit uniform (u1 = 1 - d, d = k 2**-24), sin and cos on
# another (u2 = d), so each has 2**24 possible inputs, and
# tests/test_random.py::test_box_muller_f32_on_every_input compares all of them with log_f32 and
# sincos_f32: 0 differences.  Use these routines for nothing else.
#
# Work goes block by block through one set of scratch buffers (fresh temporaries would be fresh
# pages, whose faults cost more than the arithmetic); larger or smaller blocks are slower.

_BM_LANES = 1 << 15  # radius (or angle) lanes per block: 4096 windows of 16
_BM_ROWS = _BM_LANES // 8  # windows per block


def _c(value, dtype=np.float64):
    """A constant operand: a 0-d (or (2, 1)) array of the dtype it meets."""
    return np.array(value, dtype)


_SQRT2_STEP = _c(0x800000 - (int((_SQRTHF * _f32(2)).view(np.uint32)) & 0x7FFFFF), np.uint32)
_ANGLE_STEP = _c(_f32(2 * np.pi) * _f32(2.0**-24), np.float32)  # f32(2 pi_f k 2**-24) ==
#                                                                  f32(k * _ANGLE_STEP)
_LOG_P64 = tuple(_c(p) for p in _LOG_P)
_DP_SUM = _c(sum(map(np.float64, _DP)))  # exact: the parts span 48 bits
_POLY = tuple(_c([[c], [s]]) for c, s in zip(_COS_C, _SIN_S))  # (cosine, sine) coefficients
_U32 = {v: _c(v, np.uint32) for v in (23, 1 << 24, 0xFFFFFF, 0x7FFFFF, 0x800000, 0x3F800000)}
_SIGN_BIT = -(1 << 31)
_I32 = {v: _c(v, np.int32) for v in (1, ~1, 29, 31, _SIGN_BIT)}
_F32 = {v: _c(v, np.float32) for v in (-2.0, 0.5, 1.0, 151.0)}
_F32.update(FOPI=_c(_FOPI, np.float32), Q1=_c(_LOG_Q1, np.float32),
            Q2=_c(_LOG_Q2, np.float32))
_HALF_ONE = _c([[-0.5], [1.0]])


def _magic(exponent):
    """_MAGIC for results in [2**exponent, 2**(exponent + 1)) (in magnitude)."""
    return 1.5 * 2.0 ** (exponent + 29)


# Note [_MAGIC]
# A fused step whose results all lie in one binade [2**E, 2**(E + 1)) is rounded to float32
# by adding M = 1.5 * 2**(E + 29), whose ulp is the float32 ulp there, and subtracting it
# again: (x + M) - M is x rounded to that grid (to nearest, ties to even), and the second step
# is exact.  Adding c + M (exact: c is a float32 of that binade or above) to the exact product
# a * b gives fma(a, b, c) with a single rounding, in two NumPy calls instead of three.  The
# binades were read off all 2**24 inputs (test_box_muller_f32_on_every_input checks them).
_LOG_MAGIC = _c(_magic(-2))  # y8 in [0.25, 0.43]
_LOG_P8_MAGIC = _c(float(_LOG_P[8]) + _magic(-2))
_MAGIC_COS_SIN = (_c([[_magic(-10)], [_magic(-7)]]),  # fma(c0, z, c1): cos [1.37e-3, 1.39e-3],
                  #                                     sin [8.2e-3, 8.4e-3]
                  _c([[_magic(-5)], [_magic(-3)]]))  # fma(., z, c2): cos [0.0408, 0.0417],
#                                                         sin [0.161, 0.167]
_POLY_MAGIC = tuple(_POLY[i + 1] + _MAGIC_COS_SIN[i] for i in range(2))


def _round24(s, buffer):
    """Round the float64 array ``s`` in place to float32 (through the float32 array
    ``buffer``, of its shape)."""
    buffer[...] = s
    s[...] = buffer


def box_muller_f32(words, mean=None):
    """A.4.1 with std 1 for float32: ``words`` (uint32, shape (k, 16)) are the raw MT words of k
    windows; returns the (k, 16) float32 normals torch makes from them, plus ``mean`` (torch's
    fma(x, 1, mean): one float32 add, which also turns -0. into 0.), or the bare products
    radius * cos and radius * sin when ``mean`` is None.

    In a window, lanes j = 0..7 take u1 = 1 - d[j] and j + 8 take u2 = d[j + 8], with
    d = (word AND FFFFFF) * 2**-24; out[j] = radius * cos, out[j + 8] = radius * sin.
    Windows are independent, so large inputs are shared out among threads (NumPy releases the
    GIL inside its loops), as many as ``set_num_threads`` allows; the words were all drawn
    before, so the result does not depend on it.
    """
    words = np.ascontiguousarray(words, np.uint32)
    out = np.empty(words.shape, np.float32)
    parts = max(1, min(THREADS, num_threads(), len(words) // _BM_ROWS))
    cuts = [len(words) * i // parts for i in range(parts + 1)]
    mean = None if mean is None else _c(mean, np.float32)
    in_parallel(lambda k: _box_muller_rows(words[cuts[k]:cuts[k + 1]],
                                           out[cuts[k]:cuts[k + 1]], mean), parts)
    return out


def _box_muller_rows(words, out, mean=None):
    """box_muller_f32 of ``words`` into ``out`` (both (k, 16)) in the calling thread."""
    lanes = min(len(words), _BM_ROWS) * 8
    scratch = (np.empty((4, lanes)), np.empty((5, lanes), np.float32),
               np.empty((3, lanes), np.uint32))
    for i in range(0, len(words), _BM_ROWS):
        _box_muller_block(words[i:i + _BM_ROWS], out[i:i + _BM_ROWS], scratch, mean)


def _box_muller_block(words, out, scratch, mean):
    n = words.size // 2
    f64, f32, u32 = (v[:, :n] for v in scratch)
    lanes, radius = u32[0], f32[4]
    # A window's radius lanes and its angle lanes are two runs of 32 bytes: copying them as
    # single items ("V32") is about twice as fast as a strided (rows, 8) copy.
    halves, runs = words.view("V32"), lanes.view("V32")
    np.copyto(runs, halves[:, 0])
    _radius(lanes, radius, f64, f32, u32)
    np.copyto(runs, halves[:, 1])
    cos, sin = _sincos(lanes, f64, f32, u32)
    out = out.view("V32")
    for half, value in enumerate((cos, sin)):
        np.multiply(radius, value, value)
        if mean is not None:
            np.add(value, mean, value)
        np.copyto(out[:, half], value.view("V32"))


def _radius(k, radius, f64, f32, u32):
    """radius = sqrt(-2 L(u1)) with u1 = 1 - (k AND FFFFFF) 2**-24 (log_f32, steps 1-7); the
    words ``k`` are overwritten."""
    m64, s, z64, t64 = f64
    x, m, e, t = f32[:4]
    lo, big = u32[1:]
    np.bitwise_and(k, _U32[0xFFFFFF], k)
    np.subtract(_U32[1 << 24], k, k)
    x[...] = k.view(np.int32)  # x = 2**24 u1, an integer: exact
    # Steps 2-4, with f = x's significand in [1, 2) and E = x's exponent field (x = 2**24 u1):
    #     f <  sqrt 2:  m = f - 1,      e = E - 151
    #     f >= sqrt 2:  m = f / 2 - 1,  e = E - 150
    bits = x.view(np.uint32)
    np.bitwise_and(bits, _U32[0x7FFFFF], lo)
    np.add(lo, _SQRT2_STEP, big)
    np.bitwise_and(big, _U32[0x800000], big)  # 2**23 where f >= sqrt 2, else 0
    np.bitwise_or(lo, _U32[0x3F800000], lo)
    np.subtract(lo, big, lo)  # f or f / 2
    np.subtract(lo.view(np.float32), _F32[1.0], m)
    np.add(bits, big, lo)
    np.right_shift(lo, _U32[23], lo)
    e[...] = lo.view(np.int32)
    np.subtract(e, _F32[151.0], e)
    # Steps 5-7 up to the last fma, in float64: y = P0; y = fma(y, m, Pi) for P1..P8;
    # y = y * m; y = fma(y, z, e * Q1) with z = m * m
    m64[...] = m
    np.multiply(m64, _LOG_P64[0], s)
    for p in _LOG_P64[1:-1]:
        np.add(s, p, s)
        _round24(s, x)
        np.multiply(s, m64, s)
    np.add(s, _LOG_P8_MAGIC, s)  # the last fma stays in [1/4, 1/2): see _MAGIC
    np.subtract(s, _LOG_MAGIC, s)
    x[...] = s  # exact
    np.multiply(x, m, x)  # y * m is a float32 product
    s[...] = x
    np.multiply(m, m, t)
    z64[...] = t
    np.multiply(e, _F32["Q1"], x)
    t64[...] = x
    np.multiply(s, z64, s)
    np.add(s, t64, s)
    # y = y - z * 0.5; L = fma(e, Q2, m + y) (= e * Q2 + (m + y), see log_f32)
    x[...] = s
    np.multiply(t, _F32[0.5], t)
    np.subtract(x, t, x)
    np.add(m, x, x)
    np.multiply(e, _F32["Q2"], e)
    np.add(e, x, e)
    np.multiply(e, _F32[-2.0], e)
    np.sqrt(e, radius)


def _sincos(k, f64, f32, u32):
    """(cos, sin) of theta = f32(2 pi_f u2), u2 = (k AND FFFFFF) 2**-24 (sincos_f32), as two of
    the f32 buffers; the words ``k`` are overwritten."""
    zr, pq = f64[:2], f64[2:]
    z64, r64 = zr
    a, t, pq32 = f32[0], f32[1], f32[2:4]
    d, j = u32[1], u32[2].view(np.int32)
    np.bitwise_and(k, _U32[0xFFFFFF], k)
    a[...] = k.view(np.int32)
    np.multiply(a, _ANGLE_STEP, a)  # theta >= 0: no sign to strip
    # j = (int(a * 4/pi) + 1) AND NOT 1; r = a - j pi/4 with pi/4 in three parts DP1-DP3.  The
    # first two steps are exact in float32 (Sterbenz; j * DP2 has 14 bits), so r is the fma's
    # rounding of a + j (DP1 + DP2 + DP3): exact in float64, rounded once.
    np.multiply(a, _F32["FOPI"], t)
    j[...] = t  # truncates
    np.add(j, _I32[1], j)
    np.bitwise_and(j, _I32[~1], j)
    z64[...] = j
    np.multiply(z64, _DP_SUM, z64)
    r64[...] = a
    np.add(r64, z64, r64)
    _round24(r64, t)
    np.multiply(t, t, a)
    z64[...] = a
    # cosine p and sine q alike: fma(fma(c0, z, c1), z, c2) * z, as the rows of pq; both fma
    # stay in one binade, so each is rounded once, by _MAGIC (c + magic is exact)
    np.multiply(z64, _POLY[0], pq)
    np.add(pq, _POLY_MAGIC[0], pq)
    np.subtract(pq, _MAGIC_COS_SIN[0], pq)
    np.multiply(pq, z64, pq)
    np.add(pq, _POLY_MAGIC[1], pq)
    np.subtract(pq, _MAGIC_COS_SIN[1], pq)
    pq32[...] = pq  # exact
    np.multiply(pq32, a, pq32)  # times z: a float32 product
    pq[...] = pq32
    # then p = fma(p, z, -(z * 0.5)) + 1 and q = fma(q, r, r), as (p - 0.5) z and (q + 1) r
    np.add(pq, _HALF_ONE, pq)
    np.multiply(pq, zr, pq)
    pq32[...] = pq
    np.add(pq32[0], _F32[1.0], pq32[0])
    # Step 8 in bits, with b1 and b2 the bits 1 and 2 of j (even, <= 8): sin is q and cos p,
    # swapped where b1 is set; sin's sign is b2 and cos's b2 XOR b1 (bit 2 of j + 2).  So: flip
    # q where b1 is set, swap where b1 is set (mask = all ones there), flip both where b2 is.
    pb, qb, mask = pq32[0].view(np.uint32), pq32[1].view(np.uint32), k.view(np.int32)
    np.left_shift(j, _I32[29], j)  # bit 31: b2, bit 30: b1, the rest 0
    np.left_shift(j, _I32[1], mask)  # bit 31: b1
    np.bitwise_xor(qb, k, qb)
    np.right_shift(mask, _I32[31], mask)  # arithmetic shift: 0 or -1
    np.bitwise_xor(pb, qb, d)
    np.bitwise_and(d, k, d)
    np.bitwise_xor(pb, d, pb)
    np.bitwise_xor(qb, d, qb)
    np.bitwise_and(j, _I32[_SIGN_BIT], j)
    np.bitwise_xor(pq32.view(np.uint32), j.view(np.uint32), pq32.view(np.uint32))
    return pq32[0], pq32[1]


def _elementwise(fn):
    def apply(x):
        x = np.asarray(x, np.float64)
        return np.fromiter(map(fn, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)

    apply.__doc__ = f"glibc's ``{fn.__name__}`` (through Python's math) on each element."
    return apply


libm_log = _elementwise(math.log)
libm_log1p = _elementwise(math.log1p)
libm_sin = _elementwise(math.sin)
libm_cos = _elementwise(math.cos)
