"""``torch.fft``: discrete Fourier transforms, each naming an op declared in ``ops/``.

Every transform is composed of ``ops/spectral.py``'s three primitives as ATen composes it
(Note [fft primitives]), so its grad_fn is torch's (``FftR2CBackward0``, ``FftC2CBackward0``,
``FftC2RBackward0``, or ``ConjBackward0`` above one of them).  ``norm`` is ``"backward"``
(the default: the inverse transforms divide by n), ``"ortho"`` (both by sqrt(n)) or
``"forward"`` (the forward transforms divide by n).

Example:
    >>> import doctensor as torch
    >>> torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
"""

from .ops import spectral as S

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift", "common_args",
           "factory_common_args"]

# the argument descriptions the docstrings below share (torch.fft keeps such tables too)
common_args = {
    "input": "input (Tensor): the signal, real or complex.",
    "n": "n (int, optional): the signal's length along ``dim``: cut, or padded with zeros, to "
         "it (default: as it is).",
    "s": "s (tuple of int, optional): the signal's lengths along ``dim`` (default: as they "
         "are).",
    "dim": "dim (int or tuple of int, optional): the dimension(s) transformed.",
    "norm": 'norm (str, optional): "backward" (default: the inverse divides by n), "ortho" '
            '(both by sqrt(n)) or "forward" (the forward transform divides by n).',
}
factory_common_args = {
    "n": "n (int): the transform's length.",
    "d": "d (float, optional): the sample spacing (default 1.0).",
    "dtype": "dtype (torch.dtype, optional): the result's dtype (default: the default float "
             "dtype).",
    "device": "device (torch.device, optional): the result's device.",
    "requires_grad": "requires_grad (bool, optional): whether the result requires grad.",
}


def _documented(summary, *args, table=common_args):
    """Decorator: the docstring ``summary`` and the descriptions of ``args`` from ``table``."""
    def attach(fn):
        fn.__doc__ = summary + "\n\nArgs:\n" + "\n".join("    " + table[a] for a in args)
        return fn
    return attach


@_documented("The one-dimensional discrete Fourier transform.", "input", "n", "dim", "norm")
def fft(input, n=None, dim=-1, norm=None):
    return S.fft(input, n, dim, norm)


@_documented("The one-dimensional inverse discrete Fourier transform.", "input", "n", "dim", "norm")
def ifft(input, n=None, dim=-1, norm=None):
    return S.fft(input, n, dim, norm, inverse=True)


@_documented("The two-dimensional discrete Fourier transform.", "input", "s", "dim", "norm")
def fft2(input, s=None, dim=(-2, -1), norm=None):
    return S.fftn(input, s, dim, norm)


@_documented("The two-dimensional inverse discrete Fourier transform.", "input", "s", "dim", "norm")
def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return S.fftn(input, s, dim, norm, inverse=True)


@_documented("The N-dimensional discrete Fourier transform.", "input", "s", "dim", "norm")
def fftn(input, s=None, dim=None, norm=None):
    return S.fftn(input, s, dim, norm)


@_documented("The N-dimensional inverse discrete Fourier transform.", "input", "s", "dim", "norm")
def ifftn(input, s=None, dim=None, norm=None):
    return S.fftn(input, s, dim, norm, inverse=True)


@_documented("The transform of a real signal: its n // 2 + 1 non-negative frequencies.",
             "input", "n", "dim", "norm")
def rfft(input, n=None, dim=-1, norm=None):
    return S.rfft(input, n, dim, norm)


@_documented("The inverse of ``rfft``: a real signal of length n (default 2 * (m - 1)).",
             "input", "n", "dim", "norm")
def irfft(input, n=None, dim=-1, norm=None):
    return S.irfft(input, n, dim, norm)


@_documented("The two-dimensional ``rfft`` (the last dim halved).", "input", "s", "dim", "norm")
def rfft2(input, s=None, dim=(-2, -1), norm=None):
    return S.rfftn(input, s, dim, norm)


@_documented("The inverse of ``rfft2``.", "input", "s", "dim", "norm")
def irfft2(input, s=None, dim=(-2, -1), norm=None):
    return S.irfftn(input, s, dim, norm)


@_documented("The N-dimensional ``rfft`` (the last dim halved).", "input", "s", "dim", "norm")
def rfftn(input, s=None, dim=None, norm=None):
    return S.rfftn(input, s, dim, norm)


@_documented("The inverse of ``rfftn``.", "input", "s", "dim", "norm")
def irfftn(input, s=None, dim=None, norm=None):
    return S.irfftn(input, s, dim, norm)


@_documented("The real transform of a Hermitian-symmetric signal given by its first half.",
             "input", "n", "dim", "norm")
def hfft(input, n=None, dim=-1, norm=None):
    return S.irfft(input, n, dim, norm, hermitian=True)


@_documented("The inverse of ``hfft``: the first half of a Hermitian spectrum.",
             "input", "n", "dim", "norm")
def ihfft(input, n=None, dim=-1, norm=None):
    return S.rfft(input, n, dim, norm, inverse=True)


@_documented("The two-dimensional ``hfft``.", "input", "s", "dim", "norm")
def hfft2(input, s=None, dim=(-2, -1), norm=None):
    return S.hfftn(input, s, dim, norm)


@_documented("The two-dimensional ``ihfft``.", "input", "s", "dim", "norm")
def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    return S.ihfftn(input, s, dim, norm)


@_documented("The N-dimensional ``hfft``.", "input", "s", "dim", "norm")
def hfftn(input, s=None, dim=None, norm=None):
    return S.hfftn(input, s, dim, norm)


@_documented("The N-dimensional ``ihfft``.", "input", "s", "dim", "norm")
def ihfftn(input, s=None, dim=None, norm=None):
    return S.ihfftn(input, s, dim, norm)


@_documented("The sample frequencies of a length-n transform (the negative ones last), over n * d.",
             "n", "d", "dtype", "device", "requires_grad", table=factory_common_args)
def fftfreq(n, d=1.0, *, dtype=None, device=None, requires_grad=False):
    return S.fftfreq(n, d, dtype, device, requires_grad)


@_documented("The non-negative sample frequencies of ``rfft``, over n * d.",
             "n", "d", "dtype", "device", "requires_grad", table=factory_common_args)
def rfftfreq(n, d=1.0, *, dtype=None, device=None, requires_grad=False):
    return S.fftfreq(n, d, dtype, device, requires_grad, half=True)


@_documented("The spectrum with frequency zero moved to the middle (a roll by n // 2).",
             "input", "dim")
def fftshift(input, dim=None):
    return S.fftshift(input, dim)


@_documented("The inverse of ``fftshift``.", "input", "dim")
def ifftshift(input, dim=None):
    return S.fftshift(input, dim, inverse=True)

