"""Exact float arithmetic that torch's CPU random kernels depend on, vectorised in NumPy.

Three kinds of helpers live here, all pure NumPy (layer 3, beside ``random.py``):

* ``fma32`` / ``fma64``: a fused multiply-add ``a*b + c`` with one rounding, which GCC forms
  inside torch's AVX2/AVX512 kernels (see Note [fused multiply-add]).
* ``log_f32`` / ``sincos_f32``: the cephes-style float32 ``log`` and ``sincos`` of PyTorch's
  ``avx_mathfun.h``, operation by operation, with GCC's fusions.
* ``libm_log`` / ``libm_log1p`` / ``libm_sin`` / ``libm_cos``: glibc's double functions applied
  element-wise (NumPy's own ``np.log`` and ``np.log1p`` differ from glibc in the last bit).
"""

import math
from fractions import Fraction

import numpy as np

__all__ = ["fma32", "fma64", "log_f32", "sincos_f32", "libm_cos", "libm_log", "libm_log1p",
           "libm_sin"]

# Note [fused multiply-add]
# torch's CPU distribution kernels are compiled with FMA, and GCC contracts `x * y + z` into
# one fused multiply-add: a single rounding of the exact value.  NumPy has no fma, so both
# versions below round the exact result through "round to odd" (Boldo & Melquiond, 2008):
#
#     exact value --round to odd, 53 bits--> double --round to nearest--> result
#
# Rounding to odd first (truncate, then set the last bit if anything was cut off) keeps the
# information a later round-to-nearest needs, so the two steps give the correctly rounded
# result whenever the first has at least two more bits than the second.
#   fma32: a*b of two floats is exact in double, so s = RN53(a*b + c) has one rounding, and
#          RN32(s) is already right unless s lies exactly halfway between two floats (no
#          float32 halfway point can lie strictly between the exact value and s).  Only those
#          rare elements (and float32-subnormal ones) are redone: TwoSum gives s + err ==
#          a*b + c exactly, and RN32(RO53(s + err)) is correct since 53 >= 24 + 2.
#   fma64: TwoProduct (Dekker) gives ph + pl == a*b and TwoSum gives sh + sl == c + ph;
#          then fma = RN(sh + RO(sl + pl)).  This needs no overflow or underflow in the
#          products, so extreme elements fall back to exact Fractions.

_F32_TAIL = np.uint64(2**29 - 1)  # the double mantissa bits below float32's 23
_F32_HALFWAY = np.uint64(2**28)  # those bits for a value halfway between two normal floats
_F32_MIN_NORMAL = np.float32(2.0**-126)
_SPLITTER = 134217729.0  # 2**27 + 1, splits a double into two 26-bit halves (Veltkamp)


def _two_sum(a, b):
    """s, err with s = RN(a + b) and s + err == a + b exactly (Knuth's TwoSum)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _round_to_odd(s, err):
    """The double s + err rounded to odd, given s = RN(s + err) (see Note [fused multiply-add])."""
    even = (s.view(np.int64) & 1) == 0
    fix = (err != 0) & even & np.isfinite(s)
    return np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def fma32(a, b, c):
    """float32 ``a*b + c`` with one rounding; arguments (float32 values) broadcast like NumPy's
    (1-d or more).

    Large arrays go by blocks of rows through one set of scratch buffers: fresh temporaries
    the size of the whole array are fresh pages each call, and their page faults cost more
    than the arithmetic (5x on the 512x784 weight of an SGD step).
    """
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    out = np.empty(shape, np.float32)
    size = out.size
    if size <= _BLOCK:
        _fma32_into(out, a, b, c, _Scratch(size))
        return out
    a, b, c = (np.broadcast_to(v, shape) for v in (a, b, c))
    rows = max(1, _BLOCK * shape[0] // size)
    scratch = _Scratch(rows * (size // shape[0]))
    for i in range(0, shape[0], rows):
        _fma32_into(out[i:i + rows], a[i:i + rows], b[i:i + rows], c[i:i + rows], scratch)
    return out


_BLOCK = 1 << 17  # elements


class _Scratch:
    """Temporaries for up to ``n`` elements of fma32, reused from block to block."""

    def __init__(self, n):
        self.s = np.empty(n, np.float64)
        self.f = np.empty(n, np.float32)
        self.redo = np.empty(n, bool)
        self.tiny = np.empty(n, bool)

    def take(self, shape):
        n = math.prod(shape)
        return (self.s[:n].reshape(shape), self.f[:n].reshape(shape),
                self.redo[:n].reshape(shape), self.tiny[:n].reshape(shape))


def _fma32_into(out, a, b, c, scratch):
    """fma32 of a block, written into the float32 array ``out`` (three float64 passes)."""
    s, f, redo, tiny = scratch.take(out.shape)
    np.multiply(a, b, out=s, dtype=np.float64)  # exact
    np.add(s, c, out=s)  # one rounding, to 53 bits
    out[...] = s  # rounds to float32
    bits = s.view(np.uint64)  # s is not needed any more: the redo starts again from a, b, c
    np.bitwise_and(bits, _F32_TAIL, out=bits)
    np.equal(bits, _F32_HALFWAY, out=redo)  # s halfway between two floats ...
    np.less_equal(np.abs(out, out=f), _F32_MIN_NORMAL, out=tiny)  # ... or a float32
    redo |= tiny  # subnormal (or zero: harmless)
    if redo.any():  # rare: a handful of elements per million
        redo = np.unravel_index(np.flatnonzero(redo), out.shape)
        a, b, c = (np.broadcast_to(np.asarray(v, np.float64), out.shape)[redo]
                   for v in (a, b, c))
        s, err = _two_sum(a * b, c)
        out[redo] = _round_to_odd(s, err).astype(np.float32)


def _two_product(a, b):
    p = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _split(x):
    t = _SPLITTER * x
    hi = t - (t - x)
    return hi, x - hi


def fma64(a, b, c):
    """float64 ``a*b + c`` with one rounding; arguments broadcast like NumPy's (1-d or more)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    with np.errstate(all="ignore"):
        ph, pl = _two_product(a, b)
        sh, sl = _two_sum(c, ph)
        v = _round_to_odd(*_two_sum(sl, pl))
        out = np.where(v == 0, sh, sh + v)  # sh alone keeps the sign of an exact zero
    tame = _moderate(a, 2.0**-450, 2.0**450) & _moderate(b, 2.0**-450, 2.0**450)
    tame &= _moderate(c, 0.0, 2.0**1000)
    wild = ~tame & np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    for i in map(tuple, np.argwhere(wild)):
        out[i] = _fma64_exact(a[i], b[i], c[i])
    return out


def _moderate(x, low, high):
    """x is 0 or low <= |x| < high: products and sums stay clear of underflow and overflow."""
    return (x == 0) | ((np.abs(x) >= low) & (np.abs(x) < high))


def _fma64_exact(a, b, c):
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if exact == 0:
        return float(a) * float(b) + float(c)  # IEEE's sign for an exact zero
    try:
        return float(exact)
    except OverflowError:
        return math.copysign(math.inf, exact)


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
