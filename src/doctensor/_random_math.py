"""Exact float arithmetic that torch's CPU random kernels depend on, vectorised in NumPy.

Three kinds of helpers live here, all pure NumPy (layer 3, beside ``random.py``):

* ``fma32`` / ``fma64``: a fused multiply-add ``a*b + c`` with one rounding, which GCC forms
  inside torch's AVX2/AVX512 kernels (see Note [fused multiply-add]).
* ``log_f32`` / ``sincos_f32``: the cephes-style float32 ``log`` and ``sincos`` of PyTorch's
  ``avx_mathfun.h``, operation by operation, with GCC's fusions; ``box_muller_f32`` does the same
  work for ``randn`` three times faster, and on several threads (Note [fast float32 Box-Muller]).
* ``libm_log`` / ``libm_log1p`` / ``libm_sin`` / ``libm_cos``: glibc's double functions applied
  element-wise (NumPy's own ``np.log`` and ``np.log1p`` differ from glibc in the last bit).
"""

import concurrent.futures
import math
import os
import threading
from fractions import Fraction

import numpy as np

__all__ = ["box_muller_f32", "fma32", "fma64", "log_f32", "sincos_f32", "libm_cos", "libm_log",
           "libm_log1p", "libm_sin"]

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


def fma32(a, b, c, out=None):
    """float32 ``a*b + c`` with one rounding; arguments (float32 values) broadcast like NumPy's
    (1-d or more).  A large array times one number goes mostly in float32 (see Note
    [bracketed fma32]); the rest through float64 (see Note [fused multiply-add]).

    ``out``, a float32 array of the result's shape, receives the result (and is returned); it
    may be ``c`` itself (an in-place ``c += a * b``), but must not overlap ``a``.
    """
    shape, sb, sc = np.shape(a), np.shape(b), np.shape(c)
    if sb not in ((), shape) or sc not in ((), shape):
        shape = np.broadcast_shapes(shape, sb, sc)
    if _bracketable(a, b, c, shape) and (out is None or _writable_into(out, a, c)):
        return _fma32_bracketed(a, b, c, out)
    result = _fma32_exact(a, b, c, shape)
    if out is None:
        return result
    out[...] = result
    return out


def _writable_into(out, a, c):
    """``out`` can take the bracketed fma32 directly: C-contiguous, clear of ``a``, and
    either clear of ``c`` or ``c`` itself (read block by block just before it is written)."""
    if not out.flags.c_contiguous or np.may_share_memory(out, a):
        return False
    return not (np.ndim(c) and np.may_share_memory(out, c)) or (
        c.ctypes.data == out.ctypes.data and c.strides == out.strides)


def _fma32_exact(a, b, c, shape):
    """fma32 through float64 (see Note [fused multiply-add]).

    Large arrays go by blocks of rows through one set of scratch buffers: fresh temporaries
    the size of the whole array are fresh pages each call, and their page faults cost more
    than the arithmetic (5x on the 512x784 weight of an SGD step).
    """
    if math.prod(shape) <= _SMALL:  # the common case, in as few NumPy calls as may be
        s = np.add(np.multiply(a, b, dtype=np.float64), c)
        out = s.astype(np.float32)
        if ((s.view(np.uint64) & _F32_TAIL) != _F32_HALFWAY).all() and (
                np.abs(out) > _F32_MIN_NORMAL).all():
            return out
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
_SMALL = 1 << 12  # elements: below this, temporaries cost less than scratch buffers

# Note [bracketed fma32]
# When b is one float32 number (the alpha of add_, the range of uniform_) and the arrays are
# large, plain float32 arithmetic decides almost every element.  Take lo and hi the float32
# neighbours of |b| = m * 2**e (1 <= m < 2; ulp u = 2**(e-23)), with b's sign.  Rounding a
# product y to a normal float32 moves it by at most |y| * 2**-24, and
#   hi = |b| + u leaves |a| u > |a hi| 2**-24 between a*b and a*hi whenever m < 2 - 2**-23
#        (hi takes a second step for that one significand);
#   lo = |b| - u (u/2 when m = 1) leaves |a| (|b| - lo) >= |a b| 2**-24 > |a lo| 2**-24,
# so, while the products stay in float32's normal range,
#
#     RN(a*lo)  <  a*b  <  RN(a*hi)        (in magnitude, on a*b's side of zero)
#
# and, rounding being monotone, the two float32 results
#
#     RN(c + RN(a*lo))  <=  fma(a, b, c)  <=  RN(c + RN(a*hi))    (in some order)
#
# enclose the fma: where they agree, they are it.  The exact algorithm redoes the rest: the
# elements where c + a*b lies next to a rounding boundary (a few per thousand in an SGD
# step), and every result that is NaN, infinite, zero or below 2**-98 in magnitude (a
# product that underflowed can leave the bracket; it moves a result only when |c| < 2**-99
# too).  Four float32 passes and a compare instead of three float64 passes and a test.

_BRACKET_MIN = 1 << 15  # elements: below this, the exact algorithm is faster
_BRACKET_BLOCK = 1 << 17  # elements
_PARALLEL_MIN = 1 << 19  # elements per thread, at least (Note [worker threads])
_BRACKET_TINY = np.float32(2.0**-98)
_F32_MAX = np.float32(np.finfo(np.float32).max)


def _bracketable(a, b, c, shape):
    """The conditions of Note [bracketed fma32]: a float32 array ``a`` of the result's shape,
    a float32 number ``b`` with a normal-range bracket, and ``c`` a number or like ``a``."""
    if (np.ndim(b) or type(a) is not np.ndarray or a.dtype != np.float32
            or a.shape != shape or a.size < _BRACKET_MIN):
        return False
    if np.ndim(c):
        if type(c) is not np.ndarray or c.dtype != np.float32 or c.shape != shape:
            return False
    elif float(np.float32(c)) != float(c):
        return False
    return float(np.float32(b)) == float(b) and 2.0**-120 <= abs(float(b)) <= 2.0**120


def _fma32_bracketed(a, b, c, out=None):
    """fma32 of a float32 array ``a`` by a number ``b`` (see Note [bracketed fma32]) into the
    C-contiguous ``out`` (new when None; it may be ``c``), by blocks of rows through per-thread
    scratch, as ``_fma32_exact`` goes; large arrays are shared out among threads by rows (the
    result does not depend on it: each element is computed alone)."""
    b = np.float32(b)
    up = np.float32(np.inf)
    hi, lo = np.nextafter(abs(b), up), np.nextafter(abs(b), np.float32(0))
    if np.array(b).view(np.uint32) & 0x7FFFFF == 0x7FFFFF:  # m = 2 - 2**-23
        hi = np.nextafter(hi, up)
    if b < 0:
        hi, lo = -hi, -lo
    c = c if np.ndim(c) else np.float32(c)
    if out is None:
        out = np.empty(a.shape, np.float32)  # C order: redone elements go in by flat index
    rows = len(out)
    parts = max(1, min(_THREADS, out.size // _PARALLEL_MIN, rows))
    cuts = [rows * i // parts for i in range(parts + 1)]
    found = [None] * parts

    def work(k):
        found[k] = _bracket_rows(a, hi, lo, c, out, cuts[k], cuts[k + 1])

    in_parallel(work, parts)
    undecided = [f for part in found for f in part]
    if undecided:
        index, a_redo, c_redo = (np.concatenate(v) for v in zip(*undecided))
        out.reshape(-1)[index] = _fma32_exact(a_redo, b, c_redo if np.ndim(c) else c,
                                              index.shape)
    return out


def _bracket_rows(a, hi, lo, c, out, start, stop):
    """Rows ``start:stop`` of ``_fma32_bracketed``: writes the elements the bracket decides
    and returns (flat index, a, c) triples of the rest, taken before ``out`` is written (it
    may be ``c``)."""
    size, rows = out.size, len(out)
    step = max(1, _BRACKET_BLOCK * rows // size)
    in_place = np.ndim(c) and np.may_share_memory(out, c)
    upper, lower, flags = _bracket_scratch(min(size, step * (size // rows)))
    undecided = []
    for i in range(start, stop, step):
        j = min(i + step, stop)
        block_a, block_out = a[i:j], out[i:j]
        block_c = c[i:j] if np.ndim(c) else c
        n, shape = block_out.size, block_out.shape
        high = upper[:n].reshape(shape) if in_place else block_out
        bound = lower[:n].reshape(shape)
        np.multiply(block_a, hi, out=high)
        high += block_c
        np.multiply(block_a, lo, out=bound)
        bound += block_c
        redo = np.not_equal(high, bound, out=flags[:n].reshape(shape))
        magnitude = np.abs(high, out=bound)
        if not (magnitude.min() >= _BRACKET_TINY and magnitude.max() <= _F32_MAX):
            redo |= ~((magnitude >= _BRACKET_TINY) & (magnitude <= _F32_MAX))
        index = np.flatnonzero(redo)
        if index.size:
            undecided.append((index + i * (size // rows), _take(block_a, index),
                              _take(block_c, index) if np.ndim(c) else index[:0]))
        if in_place:
            block_out[...] = high
    return undecided


_SCRATCH = threading.local()


def _bracket_scratch(n):
    """Two float32 and one bool scratch arrays for ``n`` elements, kept by each thread from
    call to call: fresh buffers are fresh pages whenever malloc has given its heap's top back
    to the system, and in a training loop that happens every step (page faults then cost as
    much as the passes)."""
    if n > _BRACKET_BLOCK:
        return np.empty(n, np.float32), np.empty(n, np.float32), np.empty(n, bool)
    kept = getattr(_SCRATCH, "bracket", None)
    if kept is None:
        kept = _SCRATCH.bracket = (np.empty(_BRACKET_BLOCK, np.float32),
                                   np.empty(_BRACKET_BLOCK, np.float32),
                                   np.empty(_BRACKET_BLOCK, bool))
    return kept


def _take(x, flat_index):
    """The elements of ``x`` at C-order flat indices."""
    if x.flags.c_contiguous:
        return x.reshape(-1)[flat_index]
    return x[np.unravel_index(flat_index, x.shape)]


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
    parts = max(1, min(_THREADS, len(words) // _BM_ROWS))
    cuts = [len(words) * i // parts for i in range(parts + 1)]
    in_parallel(lambda k: _box_muller_rows(words[cuts[k]:cuts[k + 1]],
                                           out[cuts[k]:cuts[k + 1]]), parts)
    return out


# Note [worker threads]
# NumPy releases the GIL inside its loops, so work on large arrays that splits into independent
# parts (box_muller_f32's windows, fma32's rows) runs on several cores: part 0 in the calling
# thread, the others on a few persistent worker threads (as many as the CPUs we may use, at
# most 4, like torch's intra-op pool).  Each element is computed the same way whatever part it
# falls in, so results never depend on the threads.  A forked child has none of its parent's
# threads, so the pool belongs to one process id and a child makes its own, lazily.
# Each NumPy call hands the GIL over twice, and on a 2-CPU machine that costs about as much as
# a 10 us call saves: fma32 gains from a second thread only past about a million elements
# (_PARALLEL_MIN), so an SGD step on 512x784 weights stays on one.

_THREADS = min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)
_POOL = (None, None)  # (process id, executor)


def in_parallel(work, parts):
    """``work(k)`` for k in range(parts), concurrently (Note [worker threads]); re-raises the
    first error, after every part has finished."""
    if parts < 2:
        if parts:
            work(0)
        return
    global _POOL
    pid, pool = _POOL
    if pid != os.getpid():
        pool = concurrent.futures.ThreadPoolExecutor(_THREADS - 1, "doctensor-worker")
        _POOL = os.getpid(), pool
    futures = [pool.submit(work, k) for k in range(1, parts)]
    try:
        work(0)
    finally:
        for future in futures:
            future.exception()  # waits
    for future in futures:
        future.result()  # raises


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
