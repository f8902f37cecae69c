"""torch's randn arithmetic: the float32 ``log`` and ``sincos`` of its ``avx_mathfun.h``.

``log_f32`` / ``sincos_f32`` follow the cephes-style routines operation by operation, with
GCC's fusions; ``box_muller_f32`` does the same work for ``randn`` three times faster, and on
several threads (Note [fast float32 Box-Muller]).  ``libm_log`` / ``libm_log1p`` /
``libm_sin`` / ``libm_cos`` are glibc's double functions applied element-wise (NumPy's own
``np.log`` and ``np.log1p`` differ from glibc in the last bit).
"""

import math

import numpy as np

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
# * fma(a, b, c) is one float64 multiply (exact: a and b have 24 bits), one float64 add (one
#   rounding, to 53 bits) and one rounding to float32 -- *without* fma32's halfway check;
# * a value that the next fused step reads stays in a float64 array;
# * steps with a known outcome are left out (u1 >= 2**-24 needs no clamp, theta >= 0 no sign,
#   sin and cos are never -0. so need no "+ 0"), and the reduction of theta is rearranged;
# * np.where (tens of times slower than an add) becomes integer bit operations, and strided
#   (k, 8) halves of windows are moved as single 32-byte items.
#
# Leaving out the halfway check is safe only because the inputs are so few: the radius depends on
# one 24-bit uniform (u1 = 1 - d, d = k 2**-24), sin and cos on another (u2 = d), so each has 2**24
# possible inputs, and tests/test_random.py::test_box_muller_f32_on_every_input compares all of
# them with log_f32 and sincos_f32: 0 differences.  Use these routines for nothing else.
#
# Work goes block by block through one set of scratch buffers (fresh temporaries would be fresh
# pages, whose faults cost more than the arithmetic); larger blocks gain nothing.

_BM_LANES = 1 << 15  # radius (or angle) lanes per block: 4096 windows of 16
_SQRT2_MANTISSA = int((_SQRTHF * _f32(2)).view(np.uint32)) & 0x7FFFFF
_ANGLE_STEP = _f32(2 * np.pi) * _f32(2.0**-24)  # f32(2 pi_f * k 2**-24) == f32(k * _ANGLE_STEP)
_LOG_P64 = tuple(map(np.float64, _LOG_P))
_COS_C64 = tuple(map(np.float64, _COS_C))
_SIN_S64 = tuple(map(np.float64, _SIN_S))
_DP_SUM = sum(map(np.float64, _DP))  # exact: the parts span 48 bits


def box_muller_f32(words):
    """A.4.1 with mean 0 and std 1 for float32: ``words`` (uint32, shape (k, 16)) are the raw MT
    words of k windows; returns the (k, 16) float32 normals torch makes from them.

    In a window, lanes j = 0..7 take u1 = 1 - d[j] and j + 8 take u2 = d[j + 8], with
    d = (word AND FFFFFF) * 2**-24; out[j] = radius * cos, out[j + 8] = radius * sin.
    Windows are independent, so large inputs are shared out among threads (NumPy releases the
    GIL inside its loops); the words were all drawn before, so the result does not depend on it.
    """
    words = np.ascontiguousarray(words, np.uint32)
    out = np.empty(words.shape, np.float32)
    parts = max(1, min(THREADS, len(words) // _BM_ROWS))
    cuts = [len(words) * i // parts for i in range(parts + 1)]
    in_parallel(lambda k: _box_muller_rows(words[cuts[k]:cuts[k + 1]],
                                           out[cuts[k]:cuts[k + 1]]), parts)
    return out


_BM_ROWS = _BM_LANES // 8  # windows per block


def _box_muller_rows(words, out):
    """box_muller_f32 of ``words`` into ``out`` (both (k, 16)) in the calling thread."""
    scratch = _BoxMullerScratch(min(len(words), _BM_ROWS) * 8)
    for i in range(0, len(words), _BM_ROWS):
        _box_muller_block(words[i:i + _BM_ROWS], out[i:i + _BM_ROWS], scratch)


class _BoxMullerScratch:
    """Reused buffers for ``n`` lanes: float64, float32 and uint32 arrays."""

    def __init__(self, n):
        self.f64 = [np.empty(n) for _ in range(4)]
        self.f32 = [np.empty(n, np.float32) for _ in range(6)]
        self.u32 = [np.empty(n, np.uint32) for _ in range(3)]

    def take(self, rows):
        """The buffers cut to ``rows`` windows of 8 lanes each, as (rows, 8) arrays."""
        n = rows * 8
        return ([v[:n].reshape(rows, 8) for v in self.f64],
                [v[:n].reshape(rows, 8) for v in self.f32],
                [v[:n].reshape(rows, 8) for v in self.u32])


def _box_muller_block(words, out, scratch):
    f64, f32, u32 = scratch.take(len(words))
    lanes, radius = u32[0], f32[5]
    # A window's radius lanes and its angle lanes are two runs of 32 bytes: copying them as
    # single items ("V32") is about twice as fast as a strided (rows, 8) copy.
    halves, runs = words.view("V32"), lanes.view("V32")[:, 0]
    np.copyto(runs, halves[:, 0])
    _radius(lanes, radius, f64, f32[:5], u32[1:])
    np.copyto(runs, halves[:, 1])
    sin, cos = _sincos(lanes, f64, f32[:5], u32[1:])
    out = out.view("V32")
    np.multiply(radius, cos, out=cos)
    np.copyto(out[:, 0], cos.view("V32")[:, 0])
    np.multiply(radius, sin, out=sin)
    np.copyto(out[:, 1], sin.view("V32")[:, 0])


def _to_f32(s, y32, y64=None):
    """y32 = f32(s), a float64 array; also into the float64 array y64 when given."""
    np.copyto(y32, s, casting="same_kind")
    if y64 is not None:
        np.copyto(y64, y32)


def _poly_times_z(c64, z, z64, out, s, y64):
    """out = fma(fma(c0, z, c1), z, c2) * z in float32, each fma rounded once (s and y64 are
    float64 scratch; y64 is left holding the inner fma)."""
    np.multiply(z64, c64[0], out=s)
    np.add(s, c64[1], out=s)
    _to_f32(s, out, y64)
    np.multiply(y64, z64, out=s)
    np.add(s, c64[2], out=s)
    _to_f32(s, out)
    np.multiply(out, z, out=out)


def _radius(k, radius, f64, f32, u32):
    """radius = sqrt(-2 L(u1)) with u1 = 1 - (k AND FFFFFF) 2**-24 (log_f32, steps 1-7); the
    words ``k`` are overwritten."""
    m64, y64, s, t64 = f64
    x, m, e, z, y = f32
    lo, big = u32
    np.bitwise_and(k, 0xFFFFFF, out=k)
    np.subtract(1 << 24, k, out=k)
    np.copyto(x, k.view(np.int32), casting="unsafe")  # x = 2**24 u1, an integer: exact
    # Steps 2-4, with f = x's significand in [1, 2) and E = x's exponent field (x = 2**24 u1):
    #     f <  sqrt 2:  m = f - 1,      e = E - 151
    #     f >= sqrt 2:  m = f / 2 - 1,  e = E - 150
    bits = x.view(np.uint32)
    np.bitwise_and(bits, 0x7FFFFF, out=lo)
    np.add(lo, 0x800000 - _SQRT2_MANTISSA, out=big)
    np.bitwise_and(big, 0x800000, out=big)  # 2**23 where f >= sqrt 2, else 0
    np.bitwise_or(lo, 0x3F800000, out=lo)
    np.subtract(lo, big, out=lo)  # f or f / 2
    np.subtract(lo.view(np.float32), _ONE, out=m)
    np.add(bits, big, out=lo)
    np.right_shift(lo, 23, out=lo)
    np.copyto(e, lo.view(np.int32), casting="unsafe")
    np.subtract(e, _f32(151), out=e)
    np.multiply(m, m, out=z)
    # Steps 6-7: y = P0; y = fma(y, m, Pi) for P1..P8; y = y * m; y = fma(y, z, e * Q1)
    np.copyto(m64, m)
    np.multiply(m64, _LOG_P64[0], out=s)
    for p in _LOG_P64[1:]:
        np.add(s, p, out=s)
        _to_f32(s, y, y64)
        np.multiply(y64, m64, out=s)
    _to_f32(s, y, y64)
    np.multiply(e, _LOG_Q1, out=x)
    np.copyto(t64, x)
    np.copyto(m64, z)
    np.multiply(y64, m64, out=s)
    np.add(s, t64, out=s)
    _to_f32(s, y)
    # y = y - z * 0.5; L = fma(e, Q2, m + y) (= e * Q2 + (m + y), see log_f32)
    np.multiply(z, _HALF, out=z)
    np.subtract(y, z, out=y)
    np.add(m, y, out=y)
    np.multiply(e, _LOG_Q2, out=e)
    np.add(e, y, out=e)
    np.multiply(e, _f32(-2.0), out=e)
    np.sqrt(e, out=radius)


def _sincos(k, f64, f32, u32):
    """(sin, cos) of theta = f32(2 pi_f u2), u2 = (k AND FFFFFF) 2**-24 (sincos_f32), as two of
    the f32 buffers; the words ``k`` are overwritten."""
    s, r64, z64, y64 = f64
    a, t, r, z, p = f32
    d, j = u32
    j = j.view(np.int32)
    np.bitwise_and(k, 0xFFFFFF, out=k)
    np.copyto(a, k.view(np.int32), casting="unsafe")
    np.multiply(a, _ANGLE_STEP, out=a)  # theta >= 0: no sign to strip
    # j = (int(a * 4/pi) + 1) AND NOT 1; r = a - j pi/4 with pi/4 in three parts DP1-DP3.  The
    # first two steps are exact in float32 (Sterbenz; j * DP2 has 14 bits), so r is the fma's
    # rounding of a + j (DP1 + DP2 + DP3): exact in float64, rounded once.
    np.multiply(a, _FOPI, out=t)
    np.copyto(j, t, casting="unsafe")
    np.add(j, 1, out=j)
    np.bitwise_and(j, ~1, out=j)
    np.copyto(y64, j)
    np.multiply(y64, _DP_SUM, out=s)
    np.copyto(r64, a)
    np.add(s, r64, out=s)
    _to_f32(s, r, r64)
    np.multiply(r, r, out=z)
    np.copyto(z64, z)
    # cosine: p = fma(fma(C0, z, C1), z, C2) * z; p = fma(p, z, -(z * 0.5)) + 1
    _poly_times_z(_COS_C64, z, z64, p, s, y64)
    np.copyto(y64, p)
    np.multiply(y64, z64, out=s)
    np.multiply(z64, -0.5, out=y64)
    np.add(s, y64, out=s)
    _to_f32(s, p)
    np.add(p, _ONE, out=p)
    # sine: q = fma(fma(S0, z, S1), z, S2) * z; q = fma(q, r, r)
    q = a
    _poly_times_z(_SIN_S64, z, z64, q, s, y64)
    np.copyto(y64, q)
    np.multiply(y64, r64, out=s)
    np.add(s, r64, out=s)
    _to_f32(s, q)
    # Step 8 in bits: swap where bit 1 of j is set (mask = all ones there), then flip the sign
    # of sin where bit 2 of j is set and of cos where bit 2 of j + 2 is set (j is even, <= 8).
    pb, qb, mask = p.view(np.uint32), q.view(np.uint32), k.view(np.int32)
    np.left_shift(j, 30, out=mask)
    np.right_shift(mask, 31, out=mask)  # arithmetic shift: 0 or -1
    np.bitwise_xor(pb, qb, out=d)
    np.bitwise_and(d, k, out=d)
    np.bitwise_xor(qb, d, out=qb)  # sin, before its sign
    np.bitwise_xor(pb, d, out=pb)  # cos, before its sign
    np.bitwise_and(j, 4, out=mask)
    np.left_shift(k, 29, out=k)
    np.bitwise_xor(qb, k, out=qb)
    np.add(j, 2, out=j)
    np.bitwise_and(j, 4, out=j)
    np.left_shift(j, 29, out=j)
    np.bitwise_xor(pb, j.view(np.uint32), out=pb)
    return q, p


def _elementwise(fn):
    ufunc = np.frompyfunc(fn, 1, 1)

    def apply(x):
        return ufunc(np.asarray(x, np.float64)).astype(np.float64)

    apply.__doc__ = f"glibc's ``{fn.__name__}`` (through Python's math) on each element."
    return apply


libm_log = _elementwise(math.log)
libm_log1p = _elementwise(math.log1p)
libm_sin = _elementwise(math.sin)
libm_cos = _elementwise(math.cos)
