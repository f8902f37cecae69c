"""Special functions: the gamma family, erfinv, sinc, logit, the Bessel functions, torch.special's
orthogonal polynomials, xlogy / xlog1py, the incomplete gamma and Hurwitz zeta functions,
declared like ``pointwise``'s records.

They follow torch's own algorithms, compiled with fused multiply-adds (Note [special functions]
in ``_exact/cephes.py``); those torch takes from the C library compute wide (``wide``).
"""

import math

import numpy as np

from .._exact import bessel, cephes, polynomials
from .._exact import erfcx as erfcx_module
from .._exact import igamma as incomplete_gamma
from .._tensor_base import TensorBase
from ._dispatch import apply, apply_
from ._registry import declare
from .elementwise import binary_function, no_half
from .pointwise import where_tensor, wide

__all__ = ["lgamma", "digamma", "polygamma", "erfinv", "i0", "special_i0e", "special_i1",
           "special_i1e", "sinc", "logit", "mvlgamma", "xlogy_any", "xlog1py_any",
           "polygamma_any", "special_entr", "entr", "i0e", "i1", "i1e", "polygamma_",
           "in_float", "polynomial", "POLYNOMIALS", "BESSEL", "bessel_function", "zeta_any",
           "ndtri", "igamma", "igammac", "erfcx", "log_ndtr"]


# -- the gamma family, erfinv, Bessel functions ------------------------------------------------

def in_float(fn, a):
    """``fn(a)`` in a's float, float16 in float32 (torch's half kernels compute in float and
    round): the special functions that follow torch's steps (Note [special functions])."""
    if a.dtype == np.float16:
        return fn(a.astype(np.float32)).astype(np.float16)
    return fn(a)


def _special(name, grad_fn, saves, fn, method=True, function=None, compute=in_float):
    """A float unary special function ``fn`` of ``_exact/cephes.py``, computed in the input's
    float (``compute=wide``: in float64, rounded once)."""
    names = dict(method=name, inplace=name + "_") if method else {}
    return declare(name, grad_fn, kind="pointwise", promote="float", saves=saves,
                   function=name if function is None else function, **names)(
        lambda xp, a: xp.asarray(compute(fn, a)))


# lgamma: Python's math.lgamma in float64, rounded once; torch's values differ from it (and
# from glibc's) in the last ulp or two in about half of the elements
lgamma = _special("lgamma", "LgammaBackward0", {"self": "self"}, cephes.lgamma, compute=wide)
digamma = _special("digamma", "DigammaBackward0", {"self": "self"}, cephes.digamma,
                   function="digamma")
erfinv = _special("erfinv", "ErfinvBackward0", {"self": "self"}, cephes.erfinv)
i0 = _special("i0", "I0Backward0", {"self": "self"}, cephes.i0, function=("i0", "i0_"))
special_i0e = _special("special_i0e", "SpecialI0EBackward0", {"self": "self", "result": "self"},
                       cephes.i0e, method=False, function=())
special_i1 = _special("special_i1", "SpecialI1Backward0", {"self": "self", "result": "self"},
                      cephes.i1, method=False, function=())
special_i1e = _special("special_i1e", "SpecialI1EBackward0", {"self": "self", "result": "self"},
                       cephes.i1e, method=False, function=())


@lgamma.def_backward
def lgamma_backward(ctx, grad):
    return (grad * apply(digamma, ctx.self),)


@digamma.def_backward
def digamma_backward(ctx, grad):
    return (grad * apply(polygamma, ctx.self, n=1),)


@erfinv.def_backward
def erfinv_backward(ctx, grad):
    return (0.5 * math.sqrt(math.pi) * (apply(erfinv, ctx.self) ** 2).exp() * grad,)


@i0.def_backward
def i0_backward(ctx, grad):
    return (grad * apply(special_i1, ctx.self),)


@special_i0e.def_backward
def i0e_backward(ctx, grad):
    return (grad * (apply(special_i1e, ctx.self) - ctx.self.sgn() * ctx.result),)


@special_i1.def_backward
def i1_backward(ctx, grad):
    # torch's i1_backward: i0(x) - i1(x) / x, and 1/2 at x == 0
    x, r = ctx.self, ctx.result
    return (grad * where_tensor(x == 0, 0.5, apply(i0, x) - r / x),)


@special_i1e.def_backward
def i1e_backward(ctx, grad):
    # torch's i1e_backward: i0e(x) - i1e(x) * (sgn(x) + 1 / x), and 1/2 at x == 0
    x, r = ctx.self, ctx.result
    return (grad * where_tensor(x == 0, 0.5, apply(special_i0e, x) - r * (x.sgn() + 1 / x)),)


def _check_polygamma(a, n):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")


@declare("polygamma", "PolygammaBackward0", kind="pointwise", promote="float",
         check=_check_polygamma, saves={"self": "self"})
def polygamma(xp, a, n):
    """digamma, trigamma, or (-1)^(n+1) n! zeta(n + 1, a), in a's float (Note [special
    functions])."""
    return xp.asarray(in_float(lambda x: cephes.polygamma(n, x), a))


@polygamma.def_backward
def polygamma_backward(ctx, grad):
    return (grad * apply(polygamma, ctx.self, n=ctx.attrs["n"] + 1),)


# in place, torch's node is PolygammaBackward1 (the same formula)
polygamma_ = declare("polygamma", "PolygammaBackward1", kind="pointwise", promote="float",
                     check=_check_polygamma, saves={"self": "self"})(polygamma.forward)
polygamma_.def_backward(polygamma_backward)


def polygamma_any(n, t, in_place=False):
    """``polygamma(n, x)`` / ``x.polygamma_(n)``."""
    return apply_(polygamma_, t, n=n) if in_place else apply(polygamma, t, n=n)


def _check_mvlgamma(a, p):
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")


@declare("mvlgamma", "MvlgammaBackward0", kind="pointwise", promote="float",
         check=_check_mvlgamma, saves={"self": "self"}, layout="contiguous")
def mvlgamma(xp, a, p):
    """sum over j < p of lgamma(a - j / 2), plus p (p - 1) / 4 log(pi) (torch's order: the
    arguments from a - (p - 1) / 2 up to a)."""
    shifts = np.arange(-p * 0.5 + 0.5, 0.5, 0.5).astype(a.dtype)
    terms = wide(cephes.lgamma, (a[..., None] + shifts).astype(a.dtype))
    total = terms[..., 0]
    for j in range(1, p):
        total = total + terms[..., j]
    return xp.asarray(total + a.dtype.type(p * (p - 1) * math.log(math.pi) * 0.25))


@mvlgamma.def_backward
def mvlgamma_backward(ctx, grad):
    p = ctx.attrs["p"]
    x = ctx.self
    total = None
    for j in range(p):
        term = apply(digamma, x + (-p / 2 + 0.5 + 0.5 * j))
        total = term if total is None else total + term
    return (grad * total,)


@declare("sinc", "SincBackward0", kind="pointwise", promote="float", saves={"self": "self"},
         method="sinc", inplace="sinc_", function=("sinc", "sinc_"))
def sinc(xp, a):
    """sin(pi a) / (pi a), 1 at 0: pi a rounded in a's float (float32 for float16), then the
    sine (wide) and the quotient."""
    x = a.astype(np.float32) if a.dtype == np.float16 else a
    product = x.dtype.type(math.pi) * x
    out = wide(xp.sin, product) / product
    return xp.where(a == 0, 1, out).astype(a.dtype)


@sinc.def_backward
def sinc_backward(ctx, grad):
    x = ctx.self
    x_pi = x * math.pi
    x_squared_pi = x * x * math.pi
    out = grad * ((x_pi * x_pi.cos()) - x_pi.sin()) / x_squared_pi
    return (where_tensor(x_squared_pi == 0.0, 0.0, out),)


@declare("logit", "LogitBackward0", kind="pointwise", promote="float", saves={"self": "self"},
         method="logit", inplace="logit_", function=("logit", "logit_"))
def logit(xp, a, eps=None):
    """log(x / (1 - x)), x clamped to [eps, 1 - eps] first when eps is given: the quotient in
    a's own dtype (float16 too, rounded at each step as torch's half arithmetic), the
    logarithm wide."""
    x = a
    if eps is not None:
        lo = x.dtype.type(eps)
        hi = 1 - lo
        x = xp.where(x < lo, lo, xp.where(x > hi, hi, x))
    return wide(xp.log, x / (1 - x))


@logit.def_backward
def logit_backward(ctx, grad):
    x, eps = ctx.self, ctx.attrs.get("eps")
    lo, hi, outside = (0, 1, math.nan) if eps is None else (eps, 1 - eps, 0.0)
    return (where_tensor((x >= lo) & (x <= hi), grad / (x * (1 - x)), outside),)


def _entr(xp, a):
    """-x log x: 0 at 0, -inf below 0 (NaN stays NaN)."""
    out = -a * wide(xp.log, xp.where(a > 0, a, 1).astype(a.dtype))
    out = xp.where(a == 0, 0, out)
    return xp.where(a < 0, -xp.inf, out).astype(a.dtype)


special_entr = declare("special_entr", "SpecialEntrBackward0", kind="pointwise",
                       promote="float", saves={"self": "self"})(_entr)


@special_entr.def_backward
def entr_backward(ctx, grad):
    return (grad * (-(1 + ctx.self.log())),)


def entr(t):
    return apply(special_entr, t)


special_ndtri = declare("special_ndtri", "SpecialNdtriBackward0", kind="pointwise",
                        promote="float", check=no_half("ndtri_cpu"), saves={"result": "self"})(
    lambda xp, a: xp.asarray(cephes.ndtri(a)))


@special_ndtri.def_backward
def ndtri_backward(ctx, grad):
    return (grad * math.sqrt(2 * math.pi) * (ctx.result.square() / 2).exp(),)


def ndtri(t):
    return apply(special_ndtri, t)


special_erfcx = declare("special_erfcx", "SpecialErfcxBackward0", kind="pointwise",
                        promote="float", check=no_half("erfcx_cpu"),
                        saves={"self": "self", "result": "self"})(
    lambda xp, a: xp.asarray(erfcx_module.erfcx(a)))
special_log_ndtr = declare("special_log_ndtr", "SpecialLogNdtrBackward0", kind="pointwise",
                           promote="float", check=no_half("log_ndtr_cpu"),
                           saves={"self": "self", "result": "self"})(
    lambda xp, a: xp.asarray(erfcx_module.log_ndtr(a)))


@special_erfcx.def_backward
def erfcx_backward(ctx, grad):
    return ((2.0 * ctx.self * ctx.result - 2.0 / math.sqrt(math.pi)) * grad,)


@special_log_ndtr.def_backward
def log_ndtr_backward(ctx, grad):
    return (grad / math.sqrt(2 * math.pi) * (-(ctx.result + ctx.self ** 2 / 2)).exp(),)


def erfcx(t):
    return apply(special_erfcx, t)


def log_ndtr(t):
    return apply(special_log_ndtr, t)


def i0e(t):
    return apply(special_i0e, t)


def i1(t):
    return apply(special_i1, t)


def i1e(t):
    return apply(special_i1e, t)


# -- torch.special's orthogonal polynomials (no gradient) ----------------------------------------

def _polynomial(name, fn):
    """``torch.special.<name>(input, n)``: Note [orthogonal polynomials]."""
    return declare("special_" + name, None, ("self", "n"), kind="pointwise", promote="float",
                   check=no_half(name + "_cpu"))(
        lambda xp, x, n: xp.asarray(fn(np.asarray(x), np.asarray(n))))


POLYNOMIALS = {name: _polynomial(name, fn) for name, fn in (
    ("chebyshev_polynomial_t", polynomials.chebyshev_t),
    ("chebyshev_polynomial_u", polynomials.chebyshev_u),
    ("chebyshev_polynomial_v", polynomials.chebyshev_v),
    ("chebyshev_polynomial_w", polynomials.chebyshev_w),
    ("shifted_chebyshev_polynomial_t", polynomials.shifted_chebyshev_t),
    ("shifted_chebyshev_polynomial_u", polynomials.shifted_chebyshev_u),
    ("shifted_chebyshev_polynomial_v", polynomials.shifted_chebyshev_v),
    ("shifted_chebyshev_polynomial_w", polynomials.shifted_chebyshev_w),
    ("hermite_polynomial_h", polynomials.hermite_h),
    ("hermite_polynomial_he", polynomials.hermite_he),
    ("laguerre_polynomial_l", polynomials.laguerre_l),
    ("legendre_polynomial_p", polynomials.legendre_p))}


def polynomial(name, x, n):
    """``torch.special.<name>(x, n)`` (x or n may be a number)."""
    return apply(POLYNOMIALS[name], x, n)


def _bessel(name, fn):
    """``torch.special.<name>(input)``: Cephes' approximations (``_exact/bessel.py``), no
    gradient."""
    return declare("special_" + name, None, kind="pointwise", promote="float",
                   check=no_half(name + "_cpu"))(lambda xp, a: xp.asarray(fn(a)))


BESSEL = {name: _bessel(name, fn) for name, fn in (
    ("bessel_j0", bessel.j0), ("bessel_j1", bessel.j1), ("bessel_y0", bessel.y0),
    ("bessel_y1", bessel.y1), ("spherical_bessel_j0", bessel.spherical_j0),
    ("modified_bessel_i0", bessel.modified_i0), ("modified_bessel_i1", bessel.modified_i1),
    ("modified_bessel_k0", bessel.k0), ("modified_bessel_k1", bessel.k1),
    ("scaled_modified_bessel_k0", bessel.scaled_k0),
    ("scaled_modified_bessel_k1", bessel.scaled_k1), ("airy_ai", bessel.airy_ai))}


def bessel_function(name, t):
    """``torch.special.<name>(t)``."""
    return apply(BESSEL[name], t)


# -- xlogy and xlog1py: three overloads each ------------------------------------------------------

def _xlogy_forward(log):
    """x * log(y) (``log``: log or log1p), 0 where x == 0, NaN where y is NaN."""
    def forward(xp, a, b):
        x = xp.asarray(a)
        y = xp.asarray(b)
        dt = xp.result_type(x, y)
        out = (x * wide(getattr(xp, log), y.astype(dt))).astype(dt)
        return xp.where(xp.isnan(y), y.astype(dt), xp.where(x == 0, 0, out)).astype(dt)
    return forward


def _xlog_overloads(name, log, grad_fn, shift):
    """(tensor, tensor), (number, tensor), (tensor, number) records of xlogy or xlog1py;
    ``shift``: the ``other`` below which x == 0 gets a zero gradient (0 or -1)."""
    forward = _xlogy_forward(log)
    both = declare(name, grad_fn + "0", ("self", "other"), kind="pointwise", promote="float",
                   saves={"self": ("self", "other"), "other": ("self", "other")})(forward)
    number_self = declare(name, grad_fn + "1", ("self", "other"), kind="pointwise",
                          promote="float", saves={"self": "other", "other": "other"})(forward)
    number_other = declare(name, grad_fn + "2", ("self", "other"), kind="pointwise",
                           promote="float", saves={"self": "self", "other": "self"})(forward)

    def self_grad(grad, x, y):
        g = apply(number_other if not isinstance(y, TensorBase) else both, grad, y)
        if not isinstance(y, TensorBase) and y > shift:
            return g
        mask = (x == 0) if not isinstance(y, TensorBase) else (x == 0) & (y <= shift)
        return where_tensor(mask, 0.0, g)

    def other_grad(grad, x, y):
        return grad * x / (y + 1 if shift else y)

    @both.def_backward
    def both_backward(ctx, grad):
        n = ctx.needs_input_grad
        return (self_grad(grad, ctx.self, ctx.other) if n[0] else None,
                other_grad(grad, ctx.self, ctx.other) if n[1] else None)

    @number_self.def_backward
    def number_self_backward(ctx, grad):
        return None, other_grad(grad, ctx.self, ctx.other)

    @number_other.def_backward
    def number_other_backward(ctx, grad):
        return self_grad(grad, ctx.self, ctx.other), None

    def run(self, other, in_place=False):
        if in_place:
            op = both if isinstance(other, TensorBase) else number_other
            return apply_(op, self, other)
        if not isinstance(self, TensorBase):
            return apply(number_self, self, other)
        return apply(both if isinstance(other, TensorBase) else number_other, self, other)
    return both, number_self, number_other, run


xlogy, xlogy_number_self, xlogy_number_other, xlogy_any = _xlog_overloads(
    "xlogy", "log", "XlogyBackward", 0)
xlog1py, xlog1py_number_self, xlog1py_number_other, xlog1py_any = _xlog_overloads(
    "special_xlog1py", "log1p", "SpecialXlog1PyBackward", -1)


# -- the regularized incomplete gamma functions (Note [incomplete gamma]) -------------------------

def _incomplete_gamma(name, grad_fn, fn, sign):
    op = binary_function(name, grad_fn, {"self": "other", "other": "other"})(
        lambda xp, a, x: xp.asarray(fn(a, x)).astype(xp.result_type(a, x)))

    @op.def_backward
    def incomplete_gamma_backward(ctx, grad):
        if ctx.needs_input_grad[0]:
            raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
        a, x = ctx.self, ctx.other
        return None, sign * grad * ((a - 1) * x.log() - x - apply(lgamma, a)).exp()
    return op


igamma = _incomplete_gamma("igamma", "IgammaBackward0", incomplete_gamma.igamma, 1)
igammac = _incomplete_gamma("igammac", "IgammacBackward0", incomplete_gamma.igammac, -1)


# -- the Hurwitz zeta function: three overloads ---------------------------------------------------

def _zeta(xp, x, q):
    x, q = xp.asarray(x), xp.asarray(q)
    dt = xp.result_type(x, q)
    return xp.asarray(cephes.zeta(x.astype(dt), q.astype(dt)))


def _zeta_record(grad_fn, saves):
    return declare("special_zeta", grad_fn, ("self", "other"), kind="pointwise",
                   promote="float", check=no_half("zeta_cpu"), saves=saves)(_zeta)


zeta = _zeta_record("SpecialZetaBackward0", {"self": "other", "other": "other"})
zeta_number_self = _zeta_record("SpecialZetaBackward1", {"self": "other", "other": "other"})
zeta_number_other = _zeta_record("SpecialZetaBackward2", None)


def _zeta_other_grad(ctx, grad):
    """d/dq zeta(x, q) = -x zeta(x + 1, q)."""
    x = ctx.self
    return grad * -x * apply(zeta if isinstance(x, TensorBase) else zeta_number_self, x + 1,
                             ctx.other)


def _zeta_self_grad():
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


@zeta.def_backward
def zeta_backward(ctx, grad):
    n = ctx.needs_input_grad
    if n[0]:
        _zeta_self_grad()
    return None, _zeta_other_grad(ctx, grad) if n[1] else None


@zeta_number_self.def_backward
def zeta_number_self_backward(ctx, grad):
    return None, _zeta_other_grad(ctx, grad)


@zeta_number_other.def_backward
def zeta_number_other_backward(ctx, grad):
    _zeta_self_grad()


def zeta_any(x, q):
    """``torch.special.zeta(x, q)``: either may be a number (not both)."""
    if not isinstance(x, TensorBase):
        return apply(zeta_number_self, x, q)
    return apply(zeta if isinstance(q, TensorBase) else zeta_number_other, x, q)
