"""The discrete Fourier transforms of ``torch.fft`` and the short-time Fourier transform, on
complex tensors (``complex_numbers``; their gradients: Note [conjugate Wirtinger] there).
"""

import math

import numpy as np

from .._dtypes import get_default_dtype
from .._strides import wrap_dim
from .._tensor_base import warn_once
from ._dispatch import apply
from ._registry import declare
from .complex_numbers import (
    as_real,
    complex_of,
    conj,
    conj_physical,
    real,
    resolve_conj,
    view_as_complex,
    view_as_real,
)
from .creation import arange, full
from .joining import constant_pad, roll
from .resampling import pad as resampling_pad
from .shaping import _unfold_backward

__all__ = ["fft_r2c", "fft_c2c", "fft_c2r", "fft", "rfft", "irfft", "fftn", "rfftn", "irfftn",
           "hfftn", "ihfftn", "fftfreq", "fftshift", "stft", "istft"]


# -- discrete Fourier transforms --------------------------------------------------------------

# Note [fft primitives]
# torch.fft's functions are compositions of three primitives, as in ATen, and their grad_fns
# show it (``ifft`` of a real tensor is ``conj(_fft_r2c(x))``: ConjBackward0 over
# FftR2CBackward0):
#
#     _fft_r2c(x, dim, normalization, onesided)   real -> complex, forward transform
#     _fft_c2c(x, dim, normalization, forward)    complex -> complex
#     _fft_c2r(x, dim, normalization, last_dim_size)  complex (one half) -> real, inverse
#
# ``normalization`` is 0 (none), 1 (1/sqrt(n)) or 2 (1/n), n the signal's size: the ``norm``
# string read for a forward or an inverse transform (``norm_mode``).  The values are
# computed in float64 by NumPy's pocketfft and rounded once; torch's MKL kernels round
# differently in the last bits of float32 (the rows' tolerance says so).
# The result is laid out as torch's kernel lays it out: the dims not transformed outermost,
# then the transformed ones, each group ordered by the input's strides (r2c and c2r keep
# their onesided dim innermost).

def norm_mode(norm, forward):
    """torch's normalization enum for a ``norm`` string, for a forward or inverse transform."""
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _scaled(out, signal, normalization):
    n = math.prod(signal)
    if normalization == 0 or n == 0:
        return out
    return out / (math.sqrt(n) if normalization == 1 else n)


def _fft_layout(xp, out, strides, dims, keep_last=False):
    """``out`` copied into torch's FFT output layout (Note [fft primitives]); the transformed
    dims are sorted by the input's strides too, but for the last (``keep_last``: r2c and c2r,
    whose last dim is the onesided one)."""
    batch = sorted((d for d in range(out.ndim) if d not in dims), key=lambda d: -strides[d])
    last = list(dims[-1:]) if keep_last else []
    order = batch + sorted(dims[:len(dims) - len(last)], key=lambda d: -strides[d]) + last
    inverse = [order.index(d) for d in range(out.ndim)]
    return xp.ascontiguousarray(out.transpose(order)).transpose(inverse)


def _strides(a):
    return [s // a.itemsize for s in a.strides]


def _wide_complex(a):
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


@declare("_fft_r2c", "FftR2CBackward0", layout="forward")
def fft_r2c(xp, a, dim, normalization, onesided):
    x = _wide_complex(a)
    out = xp.fft.rfftn(x, axes=dim) if onesided else xp.fft.fftn(x, axes=dim)
    out = _scaled(out, [a.shape[d] for d in dim], normalization)
    return _fft_layout(xp, out.astype(complex_of(a.dtype)), _strides(a), dim, onesided)


@fft_r2c.def_backward
def fft_r2c_backward(ctx, grad):
    dim, onesided = ctx.dim, ctx.onesided
    if onesided:  # the other half of the spectrum got no gradient: zeros there
        last = dim[-1]
        full = ctx.input_meta[0][0][last]
        if full > grad.shape[last]:
            grad = constant_pad(grad, [0, 0] * (grad.ndim - 1 - last) +
                                [0, full - grad.shape[last]])
    return (real(apply(fft_c2c, grad, dim=dim, normalization=ctx.normalization,
                       forward=False)),)


@declare("_fft_c2c", "FftC2CBackward0", layout="forward")
def fft_c2c(xp, a, dim, normalization, forward):
    x = a.astype(np.complex128)
    out = xp.fft.fftn(x, axes=dim) if forward else xp.fft.ifftn(x, axes=dim, norm="forward")
    out = _scaled(out, [a.shape[d] for d in dim], normalization)
    return _fft_layout(xp, out.astype(a.dtype), _strides(a), dim)


@fft_c2c.def_backward
def fft_c2c_backward(ctx, grad):
    return (apply(fft_c2c, grad, dim=ctx.dim, normalization=ctx.normalization,
                  forward=not ctx.forward),)


@declare("_fft_c2r", "FftC2RBackward0", layout="forward")
def fft_c2r(xp, a, dim, normalization, last_dim_size):
    sizes = [a.shape[d] for d in dim[:-1]] + [last_dim_size]
    out = xp.fft.irfftn(a.astype(np.complex128), s=sizes, axes=dim, norm="forward")
    out = _scaled(out, sizes, normalization)
    return _fft_layout(xp, out.astype(a.real.dtype), _strides(a), dim, True)


@fft_c2r.def_backward
def fft_c2r_backward(ctx, grad):
    dim = ctx.dim
    g = apply(fft_r2c, grad, dim=dim, normalization=ctx.normalization, onesided=True)
    double = grad.shape[dim[-1]] - g.shape[dim[-1]]
    if double > 0:  # the entries whose mirror images the onesided input left out count twice
        g.narrow(dim[-1], 1, double).mul_(2)
    return (g,)


# -- torch.fft's functions, composed as ATen composes them ---------------------------------------

def _fft_input(t, name, require_complex=False, require_real=False):
    """The input as the transforms take it: integers in the default float dtype, float16
    refused, complex when ``require_complex`` (a ToCopyBackward0 node)."""
    dtype = t.dtype
    if require_real and dtype.is_complex:
        raise RuntimeError(f"{name} expects a real input tensor, but got {dtype.scalar_name}")
    if dtype.category < 2:
        t = t.to(get_default_dtype())
    elif dtype.name not in ("float32", "float64", "complex64", "complex128"):
        raise RuntimeError(f"Unsupported dtype {dtype.scalar_name}")
    if require_complex and not t.dtype.is_complex:
        t = t.to(t.dtype.to_complex())
    return t


def _resized(t, dims, sizes):
    """``t`` cut (a slice) or zero-padded (constant_pad_nd) to ``sizes`` along ``dims``, as
    ATen's resize_fft_input (a size of -1 keeps the dim)."""
    pad = [0] * (2 * t.ndim)
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        have = t.shape[d]
        if have < n:
            pad[2 * (t.ndim - 1 - d) + 1] = n - have
        elif have > n:
            t = t.narrow(d, 0, n)
    return constant_pad(t, pad) if any(pad) else t


def _check_size(n):
    if n is not None and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _dims_and_sizes(t, s, dim):
    """The wrapped dims and signal sizes of an n-dimensional transform (torch's
    canonicalize_fft_shape_and_dim_args)."""
    if isinstance(dim, int):
        dim = (dim,)
    if s is not None and dim is not None and len(s) != len(dim):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    if dim is None:
        dims = list(range(t.ndim - len(s), t.ndim)) if s is not None else list(range(t.ndim))
        if s is not None and len(s) > t.ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has "
                               f"{t.ndim} dimensions.")
    else:
        dims = [_wrapped(d, t) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    sizes = list(s) if s is not None else [t.shape[d] for d in dims]
    sizes = [t.shape[d] if n == -1 else n for d, n in zip(dims, sizes)]
    for n in sizes:
        _check_size(n)
    return dims, sizes


def _wrapped(dim, t):
    if t.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, t.ndim)


def _one_dim(t, n, dim):
    d = _wrapped(dim, t)
    size = t.shape[d] if n is None else n
    _check_size(size)
    return d, size


def fft(t, n=None, dim=-1, norm=None, inverse=False):
    """``torch.fft.fft`` (``inverse``: ``ifft``): a real input goes through r2c (its inverse as
    the conjugate of the forward transform), a complex one through c2c."""
    t = _fft_input(t, "fft")
    d, size = _one_dim(t, n, dim)
    t = _resized(t, [d], [size])
    mode = norm_mode(norm, not inverse)
    if t.dtype.is_complex:
        return apply(fft_c2c, t, dim=(d,), normalization=mode, forward=not inverse)
    out = apply(fft_r2c, t, dim=(d,), normalization=mode, onesided=False)
    return conj(out) if inverse else out


def rfft(t, n=None, dim=-1, norm=None, inverse=False):
    """``torch.fft.rfft`` (``inverse``: ``ihfft``, the conjugate of its inverse transform)."""
    t = _fft_input(t, "ihfft" if inverse else "rfft", require_real=True)
    d, size = _one_dim(t, n, dim)
    t = _resized(t, [d], [size])
    out = apply(fft_r2c, t, dim=(d,), normalization=norm_mode(norm, not inverse),
                onesided=True)
    return conj(out) if inverse else out


def irfft(t, n=None, dim=-1, norm=None, hermitian=False):
    """``torch.fft.irfft`` (``hermitian``: ``hfft``, the c2r of the conjugate, a forward
    transform)."""
    t = _fft_input(t, "irfft", require_complex=True)
    d, _ = _one_dim(t, n, dim)
    size = 2 * (t.shape[d] - 1) if n is None else n
    _check_size(size)
    t = _resized(t, [d], [size // 2 + 1])
    if hermitian:
        t = conj(t)
    return apply(fft_c2r, t, dim=(d,), normalization=norm_mode(norm, hermitian),
                 last_dim_size=size)


def fftn(t, s=None, dim=None, norm=None, inverse=False):
    """``torch.fft.fftn`` / ``ifftn`` (and their 2-d forms): c2c of the complex input."""
    t = _fft_input(t, "fftn", require_complex=True)
    dims, sizes = _dims_and_sizes(t, s, dim)
    t = _resized(t, dims, sizes)
    return apply(fft_c2c, t, dim=tuple(dims), normalization=norm_mode(norm, not inverse),
                 forward=not inverse)


def rfftn(t, s=None, dim=None, norm=None):
    """``torch.fft.rfftn`` / ``rfft2``: one r2c over all the dims (onesided in the last)."""
    if t.dtype.is_complex:
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got "
                           f"{t.dtype.scalar_name}")
    t = _fft_input(t, "rfftn")
    dims, sizes = _dims_and_sizes(t, s, dim)
    t = _resized(t, dims, sizes)
    return apply(fft_r2c, t, dim=tuple(dims), normalization=norm_mode(norm, True),
                 onesided=True)


def irfftn(t, s=None, dim=None, norm=None):
    """``torch.fft.irfftn`` / ``irfft2``: one c2r over all the dims."""
    t = _fft_input(t, "irfftn", require_complex=True)
    dims, sizes = _dims_and_sizes(t, s, dim)
    last = 2 * (t.shape[dims[-1]] - 1) if s is None or s[-1] == -1 else sizes[-1]
    _check_size(last)
    t = _resized(t, dims, sizes[:-1] + [last // 2 + 1])
    return apply(fft_c2r, t, dim=tuple(dims), normalization=norm_mode(norm, False),
                 last_dim_size=last)


def hfftn(t, s=None, dim=None, norm=None):
    """``torch.fft.hfftn`` / ``hfft2``: c2c over all dims but the last, then the c2r of the
    conjugate over the last."""
    t = _fft_input(t, "hfftn", require_complex=True)
    dims, sizes = _dims_and_sizes(t, s, dim)
    last = 2 * (t.shape[dims[-1]] - 1) if s is None or s[-1] == -1 else sizes[-1]
    _check_size(last)
    t = _resized(t, dims, sizes[:-1] + [last // 2 + 1])
    mode = norm_mode(norm, True)
    if len(dims) > 1:
        t = apply(fft_c2c, t, dim=tuple(dims[:-1]), normalization=mode, forward=True)
    return apply(fft_c2r, conj(t), dim=(dims[-1],), normalization=mode, last_dim_size=last)


def ihfftn(t, s=None, dim=None, norm=None):
    """``torch.fft.ihfftn`` / ``ihfft2``: the onesided r2c over the last dim, conjugated, then
    the inverse c2c over the others."""
    if t.dtype.is_complex:
        raise RuntimeError(f"Only supports floating-point dtypes, but found: "
                           f"{t.dtype.scalar_name}")
    t = _fft_input(t, "ihfftn")
    dims, sizes = _dims_and_sizes(t, s, dim)
    t = _resized(t, dims, sizes)
    mode = norm_mode(norm, False)
    out = apply(fft_r2c, t, dim=(dims[-1],), normalization=mode, onesided=True)
    if len(dims) == 1:
        return conj(out)
    return apply(fft_c2c, conj_physical(out), dim=tuple(dims[:-1]), normalization=mode,
                 forward=False)


def fftfreq(n, d=1.0, dtype=None, device=None, requires_grad=False, half=False):
    """``torch.fft.fftfreq`` (``half``: ``rfftfreq``): ``arange`` times ``1 / (n * d)``."""
    count = n // 2 + 1 if half else n
    out = arange(count, dtype=dtype or get_default_dtype(), device=device)
    if not half:
        out[(n + 1) // 2:] = arange(-(n // 2), 0, dtype=out.dtype, device=device)
    out.mul_(1.0 / (n * d))
    return out.requires_grad_(requires_grad) if requires_grad else out


def fftshift(t, dim=None, inverse=False):
    """``torch.fft.fftshift`` (``inverse``: ``ifftshift``): a roll by half of each dim."""
    dims = list(range(t.ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    shifts = [((t.shape[d] + 1) // 2 if inverse else t.shape[d] // 2) for d in dims]
    return roll(t, shifts, dims)


# -- the short-time Fourier transform -------------------------------------------------------------

def _padded(t, pad, mode):
    """``F.pad(t, [pad, pad], mode)``: stft's centring (``t`` a 3-d view of the signal)."""
    if mode == "constant":
        return constant_pad(t, [pad, pad])
    return resampling_pad(t, (pad, pad), mode)


_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied,which is known to cause "
    "spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
    "recommended to reduce spectral leakage.To suppress this warning and use a rectangular "
    "window, explicitly set `window=torch.ones(n_fft, device=<device>)`. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:835.)")
_REAL_RESULT = (
    "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
    "return complex tensors for all inputs, and return_complex=False will raise an error.\n"
    "Note: you can still call torch.view_as_real on the complex output to recover the old "
    "return format. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "SpectralOps.cpp:874.)")


def stft(t, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None):
    """``torch.stft``: the FFTs of overlapping frames (``n_fft`` long, ``hop_length`` apart)
    of a 1-d or 2-d (batched) signal, windowed; composed as torch composes it (the centring
    pad, an ``as_strided`` view of the frames, ``_fft_r2c``/``_fft_c2c``, ``transpose_``)."""
    if center:
        dims = t.ndim
        x = _padded(t.view([1] * (3 - dims) + list(t.shape)), n_fft // 2, pad_mode)
        t = x.view(x.shape[x.ndim - dims:])
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length

    def refuse(what):
        shown = "None" if window is None else \
            f"{window.type()}{{[{', '.join(map(str, window.shape))}]}}"
        raise RuntimeError(
            f"stft({t.type()}[{', '.join(map(str, t.shape))}], n_fft={n_fft}, hop_length={hop}, "
            f"win_length={win}, window={shown}, normalized={int(normalized)}, onesided="
            f"{'None' if onesided is None else int(onesided)}, return_complex="
            f"{int(bool(return_complex))}, align_to_window=None) : {what}")
    if window is None:
        warn_once(_NO_WINDOW, stacklevel=4)
    if return_complex is None and not (t.is_complex() or window is not None and
                                       window.is_complex()):
        raise RuntimeError("stft requires the return_complex parameter be given for real "
                           "inputs, and will further require that return_complex=True in a "
                           "future PyTorch release.")
    if not return_complex:
        warn_once(_REAL_RESULT, stacklevel=4)
    if t.dtype.category < 2:
        refuse("expected a tensor of floating point or complex values")
    if not 1 <= t.ndim <= 2:
        refuse("expected a 1D or 2D tensor")
    x = t.unsqueeze(0) if t.ndim == 1 else t
    batch, length = x.shape
    if not 0 < n_fft <= length:
        refuse(f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        refuse(f"expected hop_length > 0, but got hop_length={hop}")
    if not 0 < win <= n_fft:
        refuse(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        refuse(f"expected a 1D window tensor of size equal to win_length={win}, but got window "
               f"with size [{', '.join(map(str, window.shape))}]")
    if win < n_fft:  # the window, centred in n_fft zeros
        like = window if window is not None else x
        padded = full((n_fft,), 0, like.dtype, like.device)
        if window is not None:
            padded.narrow(0, (n_fft - win) // 2, win).copy_(window)
        else:
            padded.narrow(0, (n_fft - win) // 2, win).fill_(1)
        window = padded
    s0, s1 = x.stride()
    frames = x.as_strided((batch, 1 + (length - n_fft) // hop, n_fft), (s0, hop * s1, s1))
    if window is not None:
        frames = frames.mul(window)
    two_sided = frames.is_complex()
    if onesided is None:
        onesided = not two_sided
    mode = 1 if normalized else 0
    if two_sided:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = apply(fft_c2c, frames, dim=(2,), normalization=mode, forward=True)
    else:
        out = apply(fft_r2c, frames, dim=(2,), normalization=mode, onesided=onesided)
    out.transpose_(1, 2)
    if t.ndim == 1:
        out.squeeze_(0)
    return out if return_complex else view_as_real(out)


_SHORT_SIGNAL = ("The length of signal is shorter than the length parameter. Result is being "
                 "padded with zeros in the tail. Please check your center and hop_length "
                 "settings.")


def istft(t, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    """``torch.istft``: the inverse of ``stft`` by overlap-add, each sample divided by the
    sum of the squared windows over it; composed as ATen composes it (the inverse FFTs of
    the frames, the window, ``unfold_backward``'s overlap-add, the centring trimmed)."""
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not t.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")

    def refuse(what):
        shown = "None" if window is None else \
            f"{window.type()}{{[{', '.join(map(str, window.shape))}]}}"
        where = "CPU" if t.device.type == "cpu" else "CUDA"
        raise RuntimeError(
            f"istft({where}{t.dtype.scalar_name}Type[{', '.join(map(str, t.shape))}], "
            f"n_fft={n_fft}, hop_length={hop}, win_length={win}, window={shown}, "
            f"center={int(center)}, normalized={int(normalized)}, onesided="
            f"{'None' if onesided is None else int(onesided)}, length="
            f"{'None' if length is None else length}, return_complex={int(return_complex)}) "
            f"{what}")
    x = as_real(resolve_conj(t))
    n_frames, fft_size = x.shape[wrap_dim(-2, x.ndim)], x.shape[wrap_dim(-3, x.ndim)]
    expected = n_fft + hop * (n_frames - 1)
    if x.numel() == 0:
        refuse(": input tensor cannot be empty.")
    if x.ndim not in (3, 4):
        refuse(f": expected a tensor with 3 or 4 dimensions, but got {x.ndim}")
    half = fft_size != n_fft if onesided is None else onesided
    if half and n_fft // 2 + 1 != fft_size:
        refuse(f": expected the frequency dimension (3rd to the last) of the input tensor to "
               f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not half and n_fft != fft_size:
        refuse(f": expected the frequency dimension (3rd to the last) of the input tensor to "
               f"match n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop <= win:
        refuse(": expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        refuse(": expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        refuse(": Invalid window shape. window has to be 1D and length of `win_length`")
    shape_window = window if window is not None else full((win,), 1, x.dtype, x.device)
    if win != n_fft:  # the window, centred in n_fft zeros
        left = (n_fft - win) // 2
        shape_window = constant_pad(shape_window, [left, n_fft - win - left])
    dims = x.ndim
    if dims == 3:
        x = x.unsqueeze(0)
    frames = view_as_complex(x.transpose(1, 2))  # (channel, n_frames, fft_size)
    mode = 1 if normalized else 2
    if return_complex:
        if half:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = apply(fft_c2c, frames, dim=(2,), normalization=mode, forward=False)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not half:
            frames = frames.narrow(-1, 0, n_fft // 2 + 1)
        frames = apply(fft_c2r, frames, dim=(2,), normalization=mode, last_dim_size=n_fft)
    frames = frames * shape_window.view(1, 1, n_fft)
    y = apply(_unfold_backward, frames, input_sizes=(frames.shape[0], expected), dimension=1,
              size=n_fft, step=hop)
    envelope = apply(_unfold_backward, shape_window.pow(2).expand(1, n_frames, n_fft),
                     input_sizes=(1, expected), dimension=1, size=n_fft, step=hop)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else -(n_fft // 2) if center else expected
    y, envelope = y[:, start:end], envelope[:, start:end]
    if bool(envelope.abs().min() < 1e-11):
        refuse("window overlap add min: 1\n[ CPUBoolType{} ]")
    y = y / envelope
    if dims == 3:
        y = y.squeeze(0)
    if end > expected:
        warn_once(_SHORT_SIGNAL, stacklevel=4)
        y = constant_pad(y, [0, end - expected])
    return y
