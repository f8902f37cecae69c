"""The reparameterization gradients of torch's gamma and Dirichlet samplers, bit for bit.

torch 2.13 computes ``torch._standard_gamma_grad`` and ``torch._dirichlet_grad`` element by
element (``standard_gamma_grad_one`` and ``dirichlet_grad_one`` in ATen's
``Distributions.h``, a file built without fused multiply-adds), in a mix of the tensor's type
``T`` and double, exactly as C++ promotes.  Each function below takes its scalars as
``T``-typed NumPy scalars (``t`` is ``np.float32`` or ``np.float64``) and keeps every step in
the type C++ computes it in; the libm calls are glibc's own, through ``ctypes``, so that
float ``logf``/``powf`` and the C results at the edges (``log(0) = -inf``, ``pow`` of a
negative base is nan) are the ones torch gets.

Note [gamma gradients]
``standard_gamma_grad_one(alpha, x)`` is ``-(d/dalpha cdf(x; alpha)) / pdf(x; alpha)``: a
Taylor series for ``x < 0.8``, a saddle-point expansion for ``alpha > 8``, otherwise a
rational fit; all in double.  ``dirichlet_grad_one(x, alpha, total)`` is the Beta(alpha,
total - alpha) gradient: series in ``T`` near 0 and 1, a saddle-point expansion in double
when both parameters exceed 6, otherwise a rational correction in double of a digamma
approximation (whose digammas run in ``T``).

Everything here is pure NumPy and imports nothing from doctensor.
"""

import ctypes
import ctypes.util
import math

import numpy as np

__all__ = ["standard_gamma_grad", "dirichlet_grad"]

_LIBM = ctypes.CDLL(ctypes.util.find_library("m"))


def _c_function(name, argtypes, restype):
    fn = getattr(_LIBM, name)
    fn.argtypes, fn.restype = argtypes, restype
    return fn


_D, _F = ctypes.c_double, ctypes.c_float
_LOG = {np.float64: _c_function("log", [_D], _D), np.float32: _c_function("logf", [_F], _F)}
_POW = {np.float64: _c_function("pow", [_D, _D], _D),
        np.float32: _c_function("powf", [_F, _F], _F)}
_TAN = {np.float64: _c_function("tan", [_D], _D), np.float32: _c_function("tanf", [_F], _F)}
_exp = _c_function("exp", [_D], _D)
_log, _pow = _LOG[np.float64], _POW[np.float64]


def _log_t(x, t):
    return t(_LOG[t](float(x)))


def _pow_t(x, y, t):
    return t(_POW[t](float(x), float(y)))


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma(x, t):
    """``digamma_one<T, double>``: the argument and its shifts in ``T``, sums in double."""
    if x == 0:
        return t(math.inf)
    additional = 0.0
    if x < 0:
        if x == np.floor(x):
            return t(math.inf)
        pi = t(math.pi)
        additional = float(-pi / t(_TAN[t](float(pi * x))))
        x = t(1) - x
    result = 0.0
    while x < 10:
        result -= float(t(1) / x)
        x = x + t(1)
    if x == 10:
        return t(result + _PSI_10 + additional)
    y = 0.0
    if x < float(np.float32(1.0e17)):
        z = 1.0 / float(x * x)
        poly = 0.0
        for a in _DIGAMMA_A:
            poly = poly * z + a
        y = z * poly
    return t(result + float(_log_t(x, t)) - float(t(0.5) / x) - y + additional)


def _nan_to_zero(result, t):
    return t(0) if math.isnan(result) else t(result)


def _gamma_grad_one(alpha, x, t):
    """``standard_gamma_grad_one(alpha, x)`` (Note [gamma gradients])."""
    x, alpha = float(x), float(alpha)
    if x < 0.8:
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = _pow(x, alpha)
        gamma_pdf = _pow(x, alpha - 1) * _exp(-x)
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = ((_log(x) - float(_digamma(alpha, np.float64))) * gamma_cdf
                           - pow_x_alpha * series2)
        return _nan_to_zero(-gamma_cdf_alpha / gamma_pdf, t)
    if alpha > 8.0:
        if float(np.float32(0.9)) * alpha <= x <= float(np.float32(1.1)) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
                       + alpha * (107 + 3600 * x))
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return t(numer_1 * numer_2 / denom)
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = _pow(x - alpha - alpha * _log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = (_log(x / alpha) * term23
                 - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x)))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        numer = x * term1
        return t(-stirling * numer / denom)
    u, v = _log(x / alpha), _log(alpha)
    coef = [c0 + u * (c1 + u * c2) for c0, c1, c2 in zip(*_GAMMA_COEF)]
    p = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]))
    q = coef[4] + v * (coef[5] + v * (coef[6] + v * coef[7]))
    return t(_exp(p / q))


_GAMMA_COEF = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089,
     0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113,
     -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326,
     0.00085092367, -1.5247877e-07),
)


def _beta_grad_alpha_small(x, alpha, beta, t):
    """Beta's gradient in alpha near x = 0: a Taylor series in ``T``."""
    factor = _digamma(alpha, t) - _digamma(alpha + beta, t) - _log_t(x, t)
    numer = t(1)
    series = numer / alpha * (factor + t(1) / alpha)
    for i in range(1, 11):
        i = t(i)
        numer *= (i - beta) * x / i
        denom = alpha + i
        series += numer / denom * (factor + t(1) / denom)
    return _nan_to_zero(x * _pow_t(t(1) - x, -beta, t) * series, t)


def _beta_grad_beta_small(x, alpha, beta, t):
    """Beta's gradient in beta near x = 0: a Taylor series in ``T``."""
    factor = _digamma(alpha + beta, t) - _digamma(beta, t)
    numer, betas, dbetas, series = t(1), t(1), t(0), factor / alpha
    for i in range(1, 9):
        i = t(i)
        numer *= -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series += numer / (alpha + i) * (dbetas + factor * betas)
    return _nan_to_zero(-_pow_t(t(1) - x, t(1) - beta, t) * series, t)


def _beta_grad_alpha_mid(x, alpha, beta, t):
    """Beta's gradient in alpha when both parameters are large: a saddle point, in double."""
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # avoid the singularity at x = mean
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return t(prefactor_num / (1 - x) * poly / prefactor_den)
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * _pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * _log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * _log(beta / (total * (1 - x))) + alpha * _log(alpha / (total * x))
    term4 = _pow(term4_base, -1.5)
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return t(stirling * prefactor * term1234)


def _dirichlet_grad_one(x, alpha, total, t):
    """``dirichlet_grad_one(x, alpha, total)`` (Note [gamma gradients])."""
    beta = total - alpha
    boundary = total * x * (t(1) - x)
    if x <= 0.5 and boundary < 2.5:
        return _beta_grad_alpha_small(x, alpha, beta, t)
    if x >= 0.5 and boundary < 0.75:
        return -_beta_grad_beta_small(t(1) - x, beta, alpha, t)
    x_, alpha_, total_ = float(x), float(alpha), float(total)
    if alpha > 6 and beta > 6:
        return _beta_grad_alpha_mid(x_, alpha_, total_ - alpha_, t)
    u = _log(x_)
    a = _log(alpha_) - u
    b = _log(total_) - a
    pow_u, pow_a = (1, u, u * u), (1, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _DIRICHLET_COEF[0][i][j], _DIRICHLET_COEF[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x_ * float(_digamma(total, t) - _digamma(alpha, t)) / (total_ - alpha_)
    return t(p / q * approx)


_DIRICHLET_COEF = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))),
)


def standard_gamma_grad(alpha, x):
    """``torch._standard_gamma_grad`` on flat arrays of one float dtype, element by element."""
    t = alpha.dtype.type
    return np.array([_gamma_grad_one(a, v, t) for a, v in zip(alpha, x)], alpha.dtype)


def dirichlet_grad(x, alpha, total):
    """``torch._dirichlet_grad`` on flat arrays of one float dtype, element by element."""
    t = x.dtype.type
    return np.array([_dirichlet_grad_one(v, a, s, t) for v, a, s in zip(x, alpha, total)],
                    x.dtype)
