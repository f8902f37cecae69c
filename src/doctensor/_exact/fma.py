"""The fused multiply-add ``a*b + c`` rounded once, as GCC forms it in torch's CPU kernels.

``fma32`` / ``fma64`` (see Note [fused multiply-add]); a large float32 array times one number
goes through Note [bracketed fma32].
"""

import math
import threading
from fractions import Fraction

import numpy as np

from .workers import THREADS, in_parallel

__all__ = ["fma32", "fma64", "two_sum", "subnormal", "halfway", "halfway_exact", "F32_TAIL",
           "F32_HALFWAY", "F32_MIN_NORMAL"]

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
#          float32 halfway point can lie strictly between the exact value and s) and is not
#          exact.  Only those elements (and float32-subnormal ones) are redone: TwoSum gives
#          s + err == a*b + c exactly (err == 0: s was exact), and RN32(RO53(s + err)) is
#          correct since 53 >= 24 + 2.
#   fma64: TwoProduct (Dekker) gives ph + pl == a*b and TwoSum gives sh + sl == c + ph;
#          then fma = RN(sh + RO(sl + pl)).  This needs no overflow or underflow in the
#          products, so extreme elements fall back to exact Fractions.

F32_TAIL = np.uint64(2**29 - 1)  # the double mantissa bits below float32's 23
F32_HALFWAY = np.uint64(2**28)  # those bits for a value halfway between two normal floats
F32_MIN_NORMAL = np.float32(2.0**-126)
_SPLITTER = 134217729.0  # 2**27 + 1, splits a double into two 26-bit halves (Veltkamp)


def two_sum(a, b):
    """s, err with s = RN(a + b) and s + err == a + b exactly (Knuth's TwoSum)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


_TWICE_MIN_NORMAL_LESS_1 = (np.array(F32_MIN_NORMAL, np.float64).view(np.uint64)
                            << np.uint64(1)) - np.uint64(1)


def subnormal(s):
    """Whether a double of ``s`` lies in float32's subnormal range (not 0)."""
    if not s.size:
        return False
    magnitude = s.view(np.uint64) << np.uint64(1)  # |s|'s bits, times 2 (no sign bit) ...
    magnitude -= np.uint64(1)  # ... less 1: 0 wraps around to the largest
    return magnitude.min() < _TWICE_MIN_NORMAL_LESS_1


def halfway(s):
    """Flat indices of the doubles of ``s`` that lie halfway between two floats."""
    return np.flatnonzero((s.view(np.uint64) & F32_TAIL) == F32_HALFWAY)


def halfway_exact(p, c, s, at):
    """Whether ``s == p + c`` exactly at the flat indices ``at`` (TwoSum's error is 0)."""
    if not at.size:
        return True
    p, c = (np.broadcast_to(v, s.shape).reshape(-1)[at] for v in (p, c))
    return not two_sum(p, c)[1].any()


def _round_to_odd(s, err):
    """The double s + err rounded to odd, given s = RN(s + err) (see Note [fused multiply-add])."""
    even = (s.view(np.int64) & 1) == 0
    fix = (err != 0) & even & np.isfinite(s)
    return np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def fma32(a, b, c, out=None, bracket=True):
    """float32 ``a*b + c`` with one rounding; arguments (float32 values) broadcast like NumPy's
    (1-d or more).  A large array times one number goes mostly in float32 (see Note
    [bracketed fma32]); the rest through float64 (see Note [fused multiply-add]).

    ``out``, a float32 array of the result's shape, receives the result (and is returned); it
    may be ``c`` itself (an in-place ``c += a * b``), but must not overlap ``a``.
    ``bracket=False`` skips the bracket: where c does not outweigh a * b (random fills such as
    ``uniform_(-1, 1)``) it decides few elements, and the float64 way alone is several times
    faster (the bracket tries its first elements and gives way by itself, but that costs a
    little).  The result is the same.
    """
    shape, sb, sc = np.shape(a), np.shape(b), np.shape(c)
    if sb not in ((), shape) or sc not in ((), shape):
        shape = np.broadcast_shapes(shape, sb, sc)
    if bracket and _bracketable(a, b, c, shape) and (
            out is None or _writable_into(out, a, c)) and _bracket_decides(a, b, c):
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
        p = np.multiply(a, b, dtype=np.float64)
        s = np.add(p, c)
        if not subnormal(s) and halfway_exact(p, c, s, halfway(s)):
            return s.astype(np.float32)
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
# too).  Four float32 passes and a compare instead of three float64 passes and a test.  That
# pays only where c outweighs a*b, as in an SGD step; elsewhere most elements are undecided
# (uniform_(-1, 1), an add_ with alpha into zeros) and the exact way alone is 8 to 15 times
# faster, so the bracket is first tried on a sample (``_bracket_decides``).

_BRACKET_MIN = 1 << 15  # elements: below this, the exact algorithm is faster
_SAMPLE = 2048  # elements the bracket is tried on first (``_bracket_decides``)
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
    hi, lo = _neighbours(b)
    c = c if np.ndim(c) else np.float32(c)
    if out is None:
        out = np.empty(a.shape, np.float32)  # C order: redone elements go in by flat index
    rows = len(out)
    parts = max(1, min(THREADS, out.size // _PARALLEL_MIN, rows))
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


def _neighbours(b):
    """hi and lo of Note [bracketed fma32] for the float32 number ``b``."""
    up = np.float32(np.inf)
    hi, lo = np.nextafter(abs(b), up), np.nextafter(abs(b), np.float32(0))
    if np.array(b).view(np.uint32) & 0x7FFFFF == 0x7FFFFF:  # m = 2 - 2**-23
        hi = np.nextafter(hi, up)
    return (-hi, -lo) if b < 0 else (hi, lo)


def _bracket_decides(a, b, c):
    """Whether the bracket decides all but 1 in 64 of the first ``_SAMPLE`` elements: where c
    does not outweigh a * b it decides few (a product and its bracket differ in their last
    bits), and redoing an element costs some ten times what the float64 way does."""
    hi, lo = _neighbours(np.float32(b))
    rows = max(1, _SAMPLE * len(a) // a.size)  # (views: c is a number or shaped like a)
    head, c = a[:rows], c[:rows] if np.ndim(c) else np.float32(c)
    return np.count_nonzero(head * hi + c != head * lo + c) * 64 <= head.size


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
        if redo.any():  # (rarely: a scan for them costs as much as four passes)
            index = np.flatnonzero(redo)
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
    np.bitwise_and(bits, F32_TAIL, out=bits)
    np.equal(bits, F32_HALFWAY, out=redo)  # s halfway between two floats ...
    np.less_equal(np.abs(out, out=f), F32_MIN_NORMAL, out=tiny)  # ... or a float32
    redo |= tiny  # subnormal (or zero: harmless)
    if redo.any():  # rare: a handful of elements per million
        redo = np.unravel_index(np.flatnonzero(redo), out.shape)
        a, b, c = (np.broadcast_to(np.asarray(v, np.float64), out.shape)[redo]
                   for v in (a, b, c))
        s, err = two_sum(a * b, c)
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
        sh, sl = two_sum(c, ph)
        v = _round_to_odd(*two_sum(sl, pl))
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
    except OverflowError:  # beyond float64: the infinity of the exact result's sign
        return math.inf if exact > 0 else -math.inf
