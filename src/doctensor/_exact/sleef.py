"""Sleef's vectorised float32 ``expf`` and ``logf`` (torch's AVX512 and AVX2 builds give the
same bits: the AVX2 ``logf`` splits exponent and mantissa without AVX512's getexp/getmant, to
the same values), and glibc's scalar ``expf``, step by step: what torch's CPU softmax
computes its exponentials and logarithms with (Note [softmax kernel])."""

import numpy as np

from .fma import fma32, halfway, halfway_exact, subnormal, two_sum

__all__ = ["sleef_expf", "sleef_logf", "glibc_expf"]

_F = np.float32


def _fma(a, b, c):
    """float32 ``a*b + c`` rounded once, by ``fma32``."""
    return fma32(*np.broadcast_arrays(a, b, c))


# Note [deferred fma check]
# Through double, a float32 fma is one exact product p, one rounding of p + c to 53 bits (s)
# and one to 24; the pair is the fma's rounding unless s is inexact and lies halfway between
# two floats, or lies below float32's normal range.  On small arrays that check costs more
# NumPy calls than the fma, so a whole function (Sleef's expf or logf) runs with unchecked fmas
# that keep p, c and s, then checks them: when no rounding was off, every fma was exact, and
# so is the result; otherwise (rarely) the function runs again with ``fma32``.  Halfway
# doubles are common (an exact result of 25 bits is one), so TwoSum tells, for those alone,
# whether p + c == s.  Small arrays are checked all steps at once (few NumPy calls), large
# ones step by step: a copy of them all would be fresh pages (a third of a cross_entropy
# over 1024 rows went into such a check).

class _UncheckedFma:
    """``fma(a, b, c)`` through double, keeping what ``exact()`` needs."""

    def __init__(self):
        self.steps = []

    def __call__(self, a, b, c):
        p = np.multiply(a, b, dtype=np.float64)
        s = p + c
        self.steps.append((p, c, s))
        return s.astype(np.float32)

    def exact(self):
        """Whether every fma so far was rounded right (Note [deferred fma check]): on small
        arrays all steps at once (few NumPy calls), on large ones step by step (no copies)."""
        steps = self.steps
        if sum(step[2].size for step in steps) > _JOIN:
            return not any(subnormal(s) or not halfway_exact(p, c, s, halfway(s))
                           for p, c, s in steps)
        s = np.concatenate([step[2].reshape(-1) for step in steps])
        if subnormal(s):
            return False
        index = halfway(s)
        if not index.size:
            return True
        ends = np.cumsum([step[2].size for step in steps])
        which = np.searchsorted(ends, index, side="right")
        for k in np.unique(which):  # the steps with halfway doubles, usually one
            p, c, s = steps[k]
            if not halfway_exact(p, c, s, index[which == k] - (ends[k] - s.size)):
                return False
        return True


_JOIN = 1 << 16  # elements in all steps: up to this, ``exact`` checks them joined


def _checked(steps, x):
    """``steps(x, fma)`` run with unchecked fmas, again with exact ones when needed."""
    fma = _UncheckedFma()
    out = steps(x, fma)
    return out if fma.exact() else steps(x, _fma)


def _bits(u):
    return np.array(u, np.uint32).view(np.float32)[()]


# -- Sleef_expf16_u10 (sleefsimdsp.c, xexpf) -------------------------------------------------

_R_LN2 = _F(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = _F(0.693145751953125), _F(1.428606765330187045e-06)  # L2U * q is exact
_EXP_P = tuple(map(_F, (0.000198527617612853646278381, 0.00139304355252534151077271,
                        0.00833336077630519866943359, 0.0416664853692054748535156,
                        0.166666671633720397949219, 0.5)))


def _pow2i(q):
    return ((q + 127).astype(np.uint32) << 23).view(np.float32)


def sleef_expf(d):
    """Sleef's expf (1.0 ulp), step by step on a float32 array."""
    return _checked(_expf_steps, d)


def _expf_steps(d, fma):
    with np.errstate(all="ignore"):
        q = np.rint(d * _R_LN2).astype(np.int32)  # NaN gives INT_MIN, as cvtps does
        qf = q.astype(np.float32)
        s = fma(qf, -_L2L, d - qf * _L2U)
        u = fma(s, _EXP_P[0], _EXP_P[1])
        for c in _EXP_P[2:]:
            u = fma(u, s, c)
        u = _F(1) + fma(s * s, u, s)
        half = q >> 1
        u = u * _pow2i(half) * _pow2i(q - half)  # ldexp in two steps
        u[d < -104] = 0
        u[d > 100] = np.inf
    return u


# -- Sleef_logf16_u10 (sleefsimdsp.c, xlogf_u1, AVX512 branch; df.h with FMA) ----------------

_LN2_HI, _LN2_LO = _F(0.69314718246459960938), _F(-1.904654323148236017e-09)
_LOG_T = tuple(map(_F, (0.3027294874, 0.3996108174, 0.6666694880)))


def sleef_logf(d):
    """Sleef's logf (1.0 ulp) in double-float arithmetic, on a float32 array."""
    return _checked(_logf_steps, d)


def _logf_steps(d, fma):
    with np.errstate(all="ignore"):
        scaled = d * _F(1 / 0.75)
        e = np.frexp(scaled)[1].astype(np.float32) - 1  # vgetexp
        e[np.isinf(scaled)] = 128
        mant = np.frexp(d)[0]  # vgetmant to [0.75, 1.5)
        m = np.where(mant >= 0.75, mant, mant * 2).astype(np.float32)
        sx = _LN2_HI * e  # dfmul((LN2_HI, LN2_LO), e)
        sy = fma(e, _LN2_LO, fma(e, _LN2_HI, -sx))
        nx, ny = two_sum(_F(-1), m)  # x = dfdiv(m - 1, m + 1)
        dx, dy = two_sum(_F(1), m)
        t = _F(1) / dx
        xx = nx * t
        u = fma(t, nx, -xx)
        v = fma(-dy, t, fma(-dx, t, _F(1)))
        xy = fma(xx, v, fma(ny, t, u))
        x2 = xx * xx
        t = fma(fma(x2, _LOG_T[0], _LOG_T[1]), x2, _LOG_T[2])
        s = sx + xx * 2  # dfadd(s, dfscale(x, 2))
        sy = (((sx - s) + xx * 2) + sy) + xy * 2
        sx, y = s, x2 * xx * t  # dfadd(s, x2 * x * t)
        s = sx + y
        sy = ((sx - s) + y) + sy
        r = s + sy
    if ((d > 0) & (d < np.inf)).all():  # softmax's sums: no special values
        return r
    r = np.where(d == np.inf, np.inf, r)
    r = np.where(d == 0, -np.inf, r)
    return np.where(np.isnan(d) | (d < 0), np.nan, r)


# -- glibc's scalar expf (sysdeps/ieee754/flt-32/e_expf.c) -------------------------------------

_EXP2F_TAB = np.array([
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
], np.uint64)  # 2**(i/32) as bits, less i << 47
_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * 32
_EXPF_C = (float.fromhex("0x1.c6af84b912394p-5") / 32**3,
           float.fromhex("0x1.ebfce50fac4f3p-3") / 32**2,
           float.fromhex("0x1.62e42ff0c52d6p-1") / 32)


def glibc_expf(x):
    """glibc's expf on a float32 array (the result of its double steps, rounded once)."""
    with np.errstate(all="ignore"):
        z = _INV_LN2_N * x.astype(np.float64)
        kd = np.rint(z)
        r = z - kd
        ki = np.nan_to_num(kd).astype(np.int64).view(np.uint64)
        s = (_EXP2F_TAB[ki % np.uint64(32)] + (ki << np.uint64(47))).view(np.float64)
        y = (_EXPF_C[0] * r + _EXPF_C[1]) * (r * r) + (_EXPF_C[2] * r + 1)
        out = (y * s).astype(np.float32)
    out[x > _F(float.fromhex("0x1.62e42ep6"))] = np.inf  # x > log(2**128)
    out[x < _F(float.fromhex("-0x1.9fe368p6"))] = 0  # x < log(2**-150)
    return np.where(np.isnan(x), x, out)
