"""torch.special's orthogonal polynomials (aten/src/ATen/native/Math.h) on whole arrays.

Note [orthogonal polynomials]
torch evaluates ``P_n(x)`` by its three-term recurrence from ``P_0`` and ``P_1``, in x's float,
with the step's multiply-add fused (Note [special functions]); the Chebyshev polynomials of
large degree inside (-1, 1) come from their trigonometric forms (``T_n(x) = cos(n acos x)``)
and ``x = +-1`` from their closed values.  A degree given as a float is truncated to an
integer, and a negative one gives 0.  Here every element runs the recurrence up to the
largest degree, and keeps the value of its own.
"""

import math

import numpy as np

from .cephes import _fma, _libm

__all__ = ["chebyshev_t", "chebyshev_u", "chebyshev_v", "chebyshev_w", "shifted_chebyshev_t",
           "shifted_chebyshev_u", "shifted_chebyshev_v", "shifted_chebyshev_w", "hermite_h",
           "hermite_he", "laguerre_l", "legendre_p"]


def _degree(n):
    """The degree as int64: a float one truncated (NaN and inf: -1, so the result is 0)."""
    if n.dtype.kind == "f":
        finite = np.isfinite(n)
        return np.where(finite, np.trunc(np.where(finite, n, -1)), -1).astype(np.int64)
    return n.astype(np.int64)


_acos, _cos, _sin = _libm(math.acos), _libm(math.cos), _libm(math.sin)


def _recurrence(x, n, q1, step):
    """P_n(x) for each element's degree n >= 0, from P_0 = 1 and P_1 = ``q1``: with p =
    P_(k-2) and q = P_(k-1), ``step(k, p, q)`` is P_k, for k from 2 while k <= n."""
    p, q = np.ones_like(x), q1
    for k in range(2, int(n.max(initial=0)) + 1):
        r = step(k, p, q)
        live = k <= n
        p, q = np.where(live, q, p), np.where(live, r, q)
    return np.where(n == 0, x.dtype.type(1), q)


def _chebyshev(x, n, q1, trig, limit, ends):
    """A Chebyshev polynomial (T, U, V, W) at x: ``q1`` its degree-1 value, ``trig(x, n)``
    its trigonometric form used for n > ``limit`` inside (-1, 1), ``ends(x, n)`` its values
    at the ends."""
    t = x.dtype.type
    x, n = np.broadcast_arrays(x, n)
    two_x = x + x
    out = _recurrence(x, n, q1, lambda k, p, q: _fma(two_x, q, -p))
    inside = (n > limit) & (np.abs(x) < 1)
    with np.errstate(all="ignore"):
        out = np.where(inside, trig(np.where(inside, x, t(0)), n), out)
        out = np.where(np.abs(x) == 1, ends(x, n), out)
    return np.where(n < 0, t(0), out).astype(x.dtype)


def _signed(positive, n, value, x):
    """value at x = 1, +-value at x = -1 by n's parity (``positive``: the value at -1 for even
    n)."""
    return np.where((x > 0) | (n % 2 == 0), positive, -value)


def chebyshev_t(x, n, limit=6):
    n = _degree(n)
    t = x.dtype.type
    return _chebyshev(x, n, x.copy(), lambda x, n: _cos(t_(n, x) * _acos(x)), limit,
                      lambda x, n: _signed(t(1), n, t(1), x))


def chebyshev_u(x, n, limit=8):
    n = _degree(n)

    def trig(x, n):
        a = _acos(x)
        s = _sin(a)
        m = t_(n + 1, x)
        return np.where(s != 0, _sin(m * a) / s, m * _cos(m * a) / x)
    return _chebyshev(x, n, x + x, trig, limit,
                      lambda x, n: _signed(t_(n + 1, x), n, t_(n + 1, x), x))


def chebyshev_v(x, n, limit=8):
    n = _degree(n)
    t = x.dtype.type

    def trig(x, n):
        a = _acos(x)
        half = a / t(2)
        odd = np.where(n % 2 == 0, t_(n + n + 1, x), -t_(n + n + 1, x))
        return np.where(_sin(half) != 1, _cos((t_(n, x) + t(0.5)) * a) / _cos(half), odd)

    def ends(x, n):
        return np.where(x > 0, t(1), np.where(n % 2 == 0, t_(n + n + 1, x), -t_(n + n + 1, x)))
    return _chebyshev(x, n, x + x - t(1), trig, limit, ends)


def chebyshev_w(x, n, limit=8):
    n = _degree(n)
    t = x.dtype.type

    def ends(x, n):
        return np.where(x > 0, t_(n + n + 1, x), np.where(n % 2 == 0, t(1), t(-1)))

    def trig(x, n):
        a = _acos(x)
        half = a / t(2)
        return np.where(_cos(half) != 1, _sin((t_(n, x) + t(0.5)) * a) / _sin(half), ends(x, n))
    return _chebyshev(x, n, x + x + t(1), trig, limit, ends)


def t_(n, x):
    """The integer ``n`` in x's float (C's conversion in ``n * acos(x)``)."""
    return n.astype(x.dtype)


# the shifted polynomials: the unshifted ones at y = x + x - 1 (torch's recurrence steps with
# y + y, its checks of x == 1 and x == 0 are those of y = +-1), with their own degree limits
# for the trigonometric forms


def shifted_chebyshev_t(x, n):
    return chebyshev_t(x + x - x.dtype.type(1), n, 6)


def shifted_chebyshev_u(x, n):
    return chebyshev_u(x + x - x.dtype.type(1), n, 6)


def shifted_chebyshev_v(x, n):
    return chebyshev_v(x + x - x.dtype.type(1), n, 6)


def shifted_chebyshev_w(x, n):
    return chebyshev_w(x + x - x.dtype.type(1), n, 4)


def _hermite(x, n, scale):
    """P_k = a P_(k-1) - scale (k-1) P_(k-2) with a = scale * x (exact: scale is 1 or 2);
    NaN past degree 128 (float32) or 512 (float64)."""
    t = x.dtype.type
    x, n = np.broadcast_arrays(x, _degree(n))
    a = t(scale) * x
    out = _recurrence(x, n, a, lambda k, p, q: _fma(a, q, -(t(scale * (k - 1)) * p)))
    limit = 128 if x.dtype == np.float32 else 512
    out = np.where(n > limit, t(np.nan), out)
    return np.where(n < 0, t(0), out).astype(x.dtype)


def hermite_h(x, n):
    """The physicists' Hermite polynomials: H_k = 2x H_(k-1) - 2(k-1) H_(k-2)."""
    return _hermite(x, n, 2)


def hermite_he(x, n):
    """The probabilists' Hermite polynomials: He_k = x He_(k-1) - (k-1) He_(k-2)."""
    return _hermite(x, n, 1)


def laguerre_l(x, n):
    """L_(k+1) = ((2k + 1 - x) L_k - k L_(k-1)) / (k + 1); 1 at x == 0."""
    t = x.dtype.type
    n = _degree(n)
    x, n = np.broadcast_arrays(x, n)
    one_minus_x = t(1) - x
    out = _recurrence(x, n, one_minus_x, lambda k, p, q: _fma(
        t(2 * (k - 1)) + one_minus_x, q, -(t(k - 1) * p)) / t(k))
    out = np.where(x == 0, t(1), out)
    return np.where(n < 0, t(0), out).astype(x.dtype)


def legendre_p(x, n):
    """P_(k+1) = ((2k + 1) x P_k - k P_(k-1)) / (k + 1); +-1 at x = +-1."""
    t = x.dtype.type
    n = _degree(n)
    x, n = np.broadcast_arrays(x, n)
    out = _recurrence(x, n, x, lambda k, p, q: _fma(
        t(2 * (k - 1) + 1) * x, q, -(t(k - 1) * p)) / t(k))
    out = np.where(np.abs(x) == 1, _signed(t(1), n, t(1), x), out)
    return np.where(n < 0, t(0), out).astype(x.dtype)
