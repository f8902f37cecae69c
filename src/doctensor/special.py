"""``torch.special``: special functions, each naming an op declared in ``ops/``."""

import math

from .ops import pointwise as P
from .ops import special_functions as SF

__all__ = ["digamma", "psi", "entr", "erf", "erfc", "erfinv", "exp2", "expit", "expm1",
           "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_softmax", "logit", "logsumexp",
           "multigammaln", "polygamma", "round", "sinc", "softmax", "xlog1py", "xlogy",
           "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
           "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
           "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
           "laguerre_polynomial_l", "legendre_polynomial_p", "bessel_j0", "bessel_j1",
           "bessel_y0", "bessel_y1", "spherical_bessel_j0", "modified_bessel_i0",
           "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "zeta",
           "ndtri", "gammainc", "gammaincc", "airy_ai", "ndtr", "erfcx", "log_ndtr"]


def digamma(input):
    return input.digamma()


psi = digamma


def entr(input):
    return SF.entr(input)


def erf(input):
    return input.erf()


def erfc(input):
    return input.erfc()


def erfinv(input):
    return input.erfinv()


def exp2(input):
    return input.exp2()


def expit(input):
    return input.sigmoid()


def expm1(input):
    return input.expm1()


def gammaln(input):
    return input.lgamma()


def i0(input):
    return input.i0()


def i0e(input):
    return SF.i0e(input)


def i1(input):
    return SF.i1(input)


def i1e(input):
    return SF.i1e(input)


def log1p(input):
    return input.log1p()


def logit(input, eps=None):
    return input.logit(eps)


def multigammaln(input, p):
    return input.mvlgamma(p)


def polygamma(n, input):
    return SF.polygamma_any(n, input)


def round(input, *, decimals=0):  # noqa: A001  (torch.special.round)
    return input.round(decimals=decimals)


def sinc(input):
    return input.sinc()


def softmax(input, dim, *, dtype=None):
    return input.softmax(dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    return input.log_softmax(dim, dtype)


def logsumexp(input, dim, keepdim=False):
    return input.logsumexp(dim, keepdim)


def xlogy(input, other):
    return SF.xlogy_any(input, other)


def xlog1py(input, other):
    return SF.xlog1py_any(input, other)


def _polynomial(name):
    """``torch.special.<name>(input, n)``: the orthogonal polynomial of degree ``n``."""
    def polynomial(input, n):
        return SF.polynomial(name, input, n)
    polynomial.__name__ = polynomial.__qualname__ = name
    return polynomial


def _bessel(name):
    """``torch.special.<name>(input)``: a Bessel (or Airy) function of one argument."""
    def bessel(input):
        return SF.bessel_function(name, input)
    bessel.__name__ = bessel.__qualname__ = name
    return bessel


chebyshev_polynomial_t = _polynomial("chebyshev_polynomial_t")
chebyshev_polynomial_u = _polynomial("chebyshev_polynomial_u")
chebyshev_polynomial_v = _polynomial("chebyshev_polynomial_v")
chebyshev_polynomial_w = _polynomial("chebyshev_polynomial_w")
shifted_chebyshev_polynomial_t = _polynomial("shifted_chebyshev_polynomial_t")
shifted_chebyshev_polynomial_u = _polynomial("shifted_chebyshev_polynomial_u")
shifted_chebyshev_polynomial_v = _polynomial("shifted_chebyshev_polynomial_v")
shifted_chebyshev_polynomial_w = _polynomial("shifted_chebyshev_polynomial_w")
hermite_polynomial_h = _polynomial("hermite_polynomial_h")
hermite_polynomial_he = _polynomial("hermite_polynomial_he")
laguerre_polynomial_l = _polynomial("laguerre_polynomial_l")
legendre_polynomial_p = _polynomial("legendre_polynomial_p")

bessel_j0 = _bessel("bessel_j0")
bessel_j1 = _bessel("bessel_j1")
bessel_y0 = _bessel("bessel_y0")
bessel_y1 = _bessel("bessel_y1")
spherical_bessel_j0 = _bessel("spherical_bessel_j0")
modified_bessel_i0 = _bessel("modified_bessel_i0")
modified_bessel_i1 = _bessel("modified_bessel_i1")
modified_bessel_k0 = _bessel("modified_bessel_k0")
modified_bessel_k1 = _bessel("modified_bessel_k1")
scaled_modified_bessel_k0 = _bessel("scaled_modified_bessel_k0")
scaled_modified_bessel_k1 = _bessel("scaled_modified_bessel_k1")
airy_ai = _bessel("airy_ai")


def zeta(input, other):
    return SF.zeta_any(input, other)


def ndtri(input):
    return SF.ndtri(input)


def gammainc(input, other):
    return input.igamma(other)


def gammaincc(input, other):
    return input.igammac(other)


def ndtr(input):
    """The standard normal CDF, torch's composite: ``(1 + erf(x / sqrt(2))) * 0.5`` with the
    Scalar overloads of mul and add (nodes MulBackward1, AddBackward1)."""
    scaled = P.times_number(input, math.sqrt(0.5))
    return P.times_number(P.add_number(scaled.erf(), 1), 0.5)


def erfcx(input):
    return SF.erfcx(input)


def log_ndtr(input):
    return SF.log_ndtr(input)
