"""``torch.signal.windows``: window functions, computed as torch computes them.

Each window samples a curve at ``M`` points ``k`` laid out by ``linspace`` and maps them with
tensor ops (``exp``, ``sin``, a sum of cosines, ``i0``) in torch's order, so the values match
torch's bit for bit. ``sym=True`` (the default) gives a symmetric window, for filter design;
``sym=False`` a periodic one, for spectral analysis (the first ``M`` samples of a symmetric
window of ``M + 1``).

    >>> torch.signal.windows.hann(5)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""

import math
from collections.abc import Iterable

from .. import functions as F
from .._dtypes import float32, float64, get_default_dtype
from .._typeinfo import strided

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _checked(name, M, dtype, layout):
    """``dtype`` (the default dtype when None), after torch's checks of the arguments."""
    dtype = dtype or get_default_dtype()
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (float32, float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _trivial(M, dtype, device, requires_grad):
    """The empty window (M == 0) or the one-sample window (M == 1, all ones)."""
    make = F.empty if M == 0 else F.ones
    return make((M,), dtype=dtype, device=device, requires_grad=requires_grad)


def _span(M, sym):
    """What the sample spacing divides: ``M - 1`` for a symmetric window, else ``M``."""
    return M if not sym and M > 1 else M - 1


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=strided, device=None,
                requires_grad=False):
    """The exponential (Poisson) window ``exp(-|n - center| / tau)``."""
    dtype = _checked("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    center = _span(M, sym) / 2.0 if center is None else center
    c = 1 / tau
    k = F.linspace(-center * c, (-center + (M - 1)) * c, M, dtype=dtype, device=device,
                   requires_grad=requires_grad)
    return F.exp(-F.abs(k))


def cosine(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The cosine (sine) window ``sin(pi * (n + 0.5) / M)``."""
    dtype = _checked("cosine", M, dtype, layout)
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    c = math.pi / (M + 1 if not sym and M > 1 else M)
    k = F.linspace(0.5 * c, (0.5 + (M - 1)) * c, M, dtype=dtype, device=device,
                   requires_grad=requires_grad)
    return F.sin(k)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=strided, device=None,
             requires_grad=False):
    """The Gaussian window ``exp(-(n - (M - 1) / 2)**2 / (2 * std**2))``."""
    dtype = _checked("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    start = -_span(M, sym) / 2.0
    c = 1 / (std * math.sqrt(2))
    k = F.linspace(start * c, (start + (M - 1)) * c, M, dtype=dtype, device=device,
                   requires_grad=requires_grad)
    return F.exp(-(k ** 2))


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=strided, device=None,
           requires_grad=False):
    """The Kaiser window ``i0(beta * sqrt(1 - (2n / (M - 1) - 1)**2)) / i0(beta)``, computed
    on a grid scaled by ``beta`` (as torch does)."""
    dtype = _checked("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    beta = F.tensor(beta, dtype=dtype, device=device)
    step = 2.0 * beta / (M if not sym else M - 1)
    end = F.minimum(beta, -beta + (M - 1) * step)
    k = F.linspace(-beta, end, M, dtype=dtype, device=device, requires_grad=requires_grad)
    return F.i0(F.sqrt(beta * beta - F.pow(k, 2))) / F.i0(beta)


def bartlett(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Bartlett (triangular) window ``1 - |2n / (M - 1) - 1|``."""
    dtype = _checked("bartlett", M, dtype, layout)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    step = 2 / (M if not sym else M - 1)
    k = F.linspace(-1, -1 + (M - 1) * step, M, dtype=dtype, device=device,
                   requires_grad=requires_grad)
    return 1 - F.abs(k)


def general_cosine(M, *, a, sym=True, dtype=None, layout=strided, device=None,
                   requires_grad=False):
    """The sum of cosines ``sum_i (-1)**i * a[i] * cos(2 pi i n / (M - 1))``."""
    dtype = _checked("general_cosine", M, dtype, layout)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    c = 2 * math.pi / (M if not sym else M - 1)
    k = F.linspace(0, (M - 1) * c, M, dtype=dtype, device=device, requires_grad=requires_grad)
    coefficients = F.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype,
                            device=device, requires_grad=requires_grad)
    i = F.arange(coefficients.shape[0], dtype=dtype, device=coefficients.device,
                 requires_grad=requires_grad)
    return (coefficients.unsqueeze(-1) * F.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=strided, device=None,
                    requires_grad=False):
    """The generalized Hamming window: ``general_cosine`` with ``a=[alpha, 1 - alpha]``."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Hamming window: ``general_hamming`` with ``alpha=0.54``."""
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Hann window: ``general_hamming`` with ``alpha=0.5``."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Blackman window: ``general_cosine`` with ``a=[0.42, 0.5, 0.08]``."""
    dtype = _checked("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The minimum 4-term Blackman-Harris window of Nuttall."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)
