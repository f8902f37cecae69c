"""The op table's rows for complex numbers (``ops/complex_numbers.py``): conjugation, the real
views, angle, complex/polar, and complex operands of the arithmetic records.

The table's samples are real; a complex input is made from two of them with
``torch.complex(x, y)`` (``_z``), so gradients reach both real leaves through
ComplexBackward0 (torch's conjugate Wirtinger convention, Note [conjugate Wirtinger]).

Tolerances: complex results are compared with rtol = atol = 1e-6 (``EXACTISH``) where torch's
complex kernels (multiplication, division, exp, the polar form) round the last bit of some
elements differently from NumPy's; the default ones (``_oracle.tol``) elsewhere.
"""

from _oracle import FLOATS
from op_table import OpInfo, b, u

__all__ = ["ROWS"]

NUMERIC = ("float32", "float64", "int64", "uint8", "bool")
EXACTISH = {"rtol": 1e-6, "atol": 1e-6}
LAST_TWO = [(3, 2), (2, 3, 2), (1, 2), ((2, 5, 2), "step")]


def _z(T, x, y):
    """A complex tensor with real part ``x`` and imaginary part ``y``."""
    return T.complex(x, y)


def _zz(T, x):
    """A complex tensor made of one real input (its imaginary part ``0.5 * x - 1``)."""
    return T.complex(x, x * 0.5 - 1)


def o(record, name, fn, samples, **kw):
    """A row on its own samples."""
    return OpInfo(record, name, fn, samples, **kw)


def _pair_z(T, x, y):
    return (_z(T, x, y),), {}


CONJUGATION = [
    b("ConjBackward0", "conj", lambda T, x, y: _z(T, x, y).conj(), dtypes=FLOATS,
      variants=_pair_z),
    b("ConjBackward0", "conj_bits",
      lambda T, x, y: (T.conj(_z(T, x, y)).is_conj(), _z(T, x, y).conj().conj().is_conj(),
                       _z(T, x, y).is_conj()), dtypes=FLOATS, grad=False),
    b("ConjBackward0", "conj_then_mul", lambda T, x, y: _z(T, x, y).conj() * _z(T, y, x),
      dtypes=FLOATS, **EXACTISH),
    b("CloneBackward0", "resolve_conj",
      lambda T, x, y: (_z(T, x, y).conj().resolve_conj(),
                       _z(T, x, y).conj().resolve_conj().is_conj()), dtypes=FLOATS),
    u(None, "conj_real_is_self",
      lambda T, x: (x.conj() is x, T.conj(x) is x, x.is_conj(), x.conj_physical() is x,
                    T.resolve_conj(x) is x, x.is_neg(), x.resolve_neg() is x, x.is_complex()),
      dtypes=NUMERIC, grad=False),
    b("ConjPhysicalBackward0", "conj_physical",
      lambda T, x, y: (T.conj_physical(_z(T, x, y)), _z(T, x, y).conj_physical().is_conj()),
      dtypes=FLOATS, variants=_pair_z),
    b("ConjPhysicalBackward1", "conj_physical_",
      lambda T, x, y: _z(T, x, y).conj_physical_(), dtypes=FLOATS, variants=_pair_z),
    b("ConjPhysicalBackward1", "torch_conj_physical_",
      lambda T, x, y: T.conj_physical_(_z(T, x, y) * 2), dtypes=FLOATS),
    OpInfo("TransposeBackward0", "adjoint",
           lambda T, x, y: (_z(T, x, y).adjoint(), _z(T, x, y).mH, T.adjoint(_z(T, x, y)),
                            _z(T, x, y).mH.is_conj()),
           [((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4))], dtypes=FLOATS),
    OpInfo("ConjBackward0", "H", lambda T, x, y: (_z(T, x, y).H, x.H, x.mH, x.adjoint()),
           [((3, 4), (3, 4)), ((1, 2), (1, 2))], dtypes=FLOATS),
    o("ConjBackward0", "H_not_a_matrix", lambda T, x: _zz(T, x).H, dtypes=FLOATS,
      samples=[(5,), (2, 3, 4)]),
    o("ConjBackward0", "mH_not_a_matrix", lambda T, x: x.mH, dtypes=FLOATS, samples=[(5,)]),
]

VIEWS = [
    b("ViewAsRealBackward0", "view_as_real", lambda T, x, y: T.view_as_real(_z(T, x, y)),
      dtypes=FLOATS, variants=_pair_z),
    o("ViewAsRealBackward0", "view_as_real_transposed",
      lambda T, x, y: T.view_as_real(_z(T, x, y).mT if x.ndim > 1 else _z(T, x, y)[1:]),
      dtypes=FLOATS, samples=[((3, 4), (3, 4)), ((2, 3, 4), ()), ((5,), (5,))]),
    o("ViewAsRealBackward0", "view_as_real_of_real", lambda T, x: T.view_as_real(x),
      dtypes=NUMERIC, samples=[(3,)]),
    b("ViewAsRealBackward0", "view_as_real_of_conj",
      lambda T, x, y: T.view_as_real(_z(T, x, y).conj()), dtypes=FLOATS),
    b("SelectBackward0", "real_imag", lambda T, x, y: (_z(T, x, y).real, T.imag(_z(T, x, y)),
                                                       T.real(_z(T, x, y))), dtypes=FLOATS),
    b("SelectBackward0", "imag_of_conj",
      lambda T, x, y: (_z(T, x, y).conj().imag, _z(T, x, y).conj().imag.is_neg(),
                       _z(T, x, y).conj().imag.resolve_neg(), _z(T, x, y).imag.is_neg()),
      dtypes=FLOATS, grad=False),
    b("SelectBackward0", "imag_of_conj_grad", lambda T, x, y: _z(T, x, y).conj().imag,
      dtypes=FLOATS, devices=("cpu",),
      xfail="Note [conj bit]: torch's imag of a conjugate view is a negated "
            "view of the original, whose backward gives the real part a -0. "
            "gradient; doctensor's is a view of the conjugate copy (+0.)"),
    u(None, "real_of_real", lambda T, x: (x.real is x, T.real(x) is x),
      dtypes=NUMERIC, grad=False),
    o("SelectBackward0", "imag_of_real", lambda T, x: x.imag, dtypes=NUMERIC, samples=[(3,)]),
    b("SelectBackward0", "real_then_square", lambda T, x, y: _z(T, x, y).real ** 2 +
      _z(T, x, y).imag * 3, dtypes=FLOATS, **EXACTISH),
    OpInfo("ViewAsComplexBackward0", "view_as_complex", lambda T, x: T.view_as_complex(x),
           LAST_TWO + [(0, 2)], dtypes=FLOATS,
           variants=lambda T, x: ((x,), {})),
    OpInfo("ViewAsComplexBackward0", "view_as_complex_refused",
           lambda T, x: T.view_as_complex(x),
           [(3,), (3, 4), ((2, 3), "T"), ((3, 2), "T"), ((3, 4), "step"), ()],
           dtypes=FLOATS + ("int64", "float16")),
    OpInfo("ViewAsComplexBackward0", "view_as_complex_offset",
           lambda T, x: T.view_as_complex(x.reshape(-1)[1:7].reshape(3, 2)), [(8,)],
           dtypes=FLOATS),
    OpInfo("ViewAsComplexBackward0", "round_trip",
           lambda T, x: T.view_as_real(T.view_as_complex(x) * 2), LAST_TWO, dtypes=FLOATS,
           **EXACTISH),
]

FUNCTIONS = [
    b("ComplexBackward0", "complex", lambda T, x, y: T.complex(x, y), dtypes=FLOATS,
      variants=lambda T, x, y: ((x, y), {})),
    o("ComplexBackward0", "complex_refused", lambda T, x, y: T.complex(x, y),
      dtypes=("int64", "bool"), samples=[((3,), (3,))]),
    o("ComplexBackward0", "complex_mixed", lambda T, x, y: T.complex(x, y.double()),
      dtypes=("float32",), samples=[((3,), (3,))]),
    b("PolarBackward0", "polar", lambda T, x, y: T.polar(x.abs(), y), dtypes=FLOATS, **EXACTISH,
      variants=lambda T, x, y: ((x.abs(), y), {})),
    o("PolarBackward0", "polar_refused", lambda T, x, y: T.polar(x, y.double()),
      dtypes=("float32",), samples=[((3,), (3,))]),
    b("AngleBackward0", "angle", lambda T, x, y: _z(T, x, y * (x > 0)).angle(),
      dtypes=FLOATS, **EXACTISH, variants=_pair_z),
    u("AngleBackward0", "angle_real", lambda T, x: T.angle(x * (x.abs() > 0.5)),
      dtypes=("float32", "float64", "int64")),
    u("AngleBackward0", "angle_special", lambda T, x: T.angle(x / (x > 0.5)),
      dtypes=("float32", "float64")),
]

# complex operands of the arithmetic and other existing records
ARITHMETIC = [
    b("AddBackward0", "add_complex", lambda T, x, y: _zz(T, x) + _zz(T, y), dtypes=FLOATS),
    b("SubBackward0", "sub_complex_real", lambda T, x, y: _zz(T, x) - y, dtypes=FLOATS),
    b("MulBackward0", "mul_complex", lambda T, x, y: _zz(T, x) * _zz(T, y), dtypes=FLOATS,
      **EXACTISH),
    b("MulBackward0", "mul_complex_real", lambda T, x, y: _zz(T, x) * y, dtypes=FLOATS, **EXACTISH),
    b("MulBackward0", "mul_complex_scalar", lambda T, x, y: (x * (2 - 1j), _zz(T, y) * 1j),
      dtypes=FLOATS, **EXACTISH),
    b("DivBackward0", "div_complex", lambda T, x, y: _zz(T, x) / _zz(T, y),
      dtypes=FLOATS, nonzero=(1,), rtol=1e-5, atol=1e-5),
    u("AbsBackward0", "abs_complex", lambda T, x: _zz(T, x).abs(), dtypes=FLOATS),
    u("NegBackward0", "neg_complex", lambda T, x: -_zz(T, x), dtypes=FLOATS),
    u("ExpBackward0", "exp_complex", lambda T, x: _zz(T, x).exp(), dtypes=FLOATS,
      rtol=1e-5, atol=1e-5),
    u("SumBackward0", "sum_complex", lambda T, x: _zz(T, x).sum(), dtypes=FLOATS,
      rtol=1e-5, atol=1e-5),
    u("MeanBackward0", "mean_complex", lambda T, x: _zz(T, x).mean(), dtypes=FLOATS,
      rtol=1e-5, atol=1e-5),
    u("SgnBackward0", "sign_complex", lambda T, x: _zz(T, x).sign(), dtypes=FLOATS),
    OpInfo("MmBackward0", "matmul_complex", lambda T, x, y: _zz(T, x) @ _zz(T, y),
           [((3, 4), (4, 2)), ((2, 3), (3, 3))], dtypes=FLOATS, rtol=1e-5, atol=1e-5),
]

# torch.fft: NumPy's pocketfft (in float64, rounded once) and torch's MKL kernels differ in the
# last bits, of float32 above all: rtol = atol = 1e-5; reprs are not compared (a -0. and a
# +0. part print differently, and a 4th decimal may round the other way)
FFT = {"rtol": 1e-5, "atol": 1e-5, "reprs": False}
SIGNALS = [(5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 6), "step"), (), (0,)]
GRIDS = [(3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 6), "step"), (5,), (2, 0, 3)]


def _c(T, x):
    """A complex signal made of one real input."""
    return T.complex(x, x.flip(-1) - 0.5) if x.ndim else T.complex(x, x)


def f(record, name, fn, samples=SIGNALS, dtypes=FLOATS, **kw):
    return OpInfo(record, name, fn, samples, dtypes=dtypes, **{**FFT, **kw})


FOURIER = [
    f("FftR2CBackward0", "fft_real", lambda T, x: T.fft.fft(x), SIGNALS + [(1,)]),
    f("FftR2CBackward0", "fft_ints", lambda T, x: T.fft.fft(x), dtypes=("int64", "bool")),
    f("FftR2CBackward0", "fft_n", lambda T, x: (T.fft.fft(x, n=3), T.fft.fft(x, n=7, dim=0))),
    f("FftR2CBackward0", "fft_ortho", lambda T, x: T.fft.fft(x, norm="ortho")),
    f("FftR2CBackward0", "ifft_real",
      lambda T, x: (T.fft.ifft(x), T.fft.ifft(x).is_conj(), T.fft.ifft(x, norm="forward"))),
    f("FftR2CBackward0", "rfft", lambda T, x: (T.fft.rfft(x), T.fft.rfft(x, n=6, dim=0))),
    f("FftR2CBackward0", "ihfft",
      lambda T, x: (T.fft.ihfft(x, norm="ortho"), T.fft.ihfft(x).is_conj())),
    f("FftR2CBackward0", "rfftn", lambda T, x: (T.fft.rfftn(x), T.fft.rfft2(x, s=(2, 5))),
      GRIDS),
    f("FftR2CBackward0", "rfftn_dims", lambda T, x: T.fft.rfftn(x, dim=(-1, 0), norm="forward"),
      GRIDS[:5]),  # (torch's MKL refuses an empty batch here: "Inconsistent configuration")
    f("FftR2CBackward0", "fft_refused",
      lambda T, x: T.fft.rfft(_c(T, x)) if x.ndim else T.fft.fft(x), [(3,), ()]),
    f(None, "fft_bad_args",
      lambda T, x: [_caught(lambda g=g: g(T, x)) for g in _BAD], [(3, 4)]),
    f("FftC2CBackward0", "fft_complex",
      lambda T, x: (T.fft.fft(_c(T, x)), T.fft.ifft(_c(T, x), n=4, dim=0))),
    f("FftC2CBackward0", "fftn", lambda T, x: (T.fft.fftn(x), T.fft.ifftn(_c(T, x), norm="ortho")),
      GRIDS),
    f("FftC2CBackward0", "fft2", lambda T, x: (T.fft.fft2(_c(T, x), s=(3, 5)),
                                               T.fft.ifft2(x, dim=(0, -1))), GRIDS[:4]),
    f("FftC2CBackward0", "ihfftn", lambda T, x: (T.fft.ihfftn(x), T.fft.ihfft2(x, norm="ortho")),
      GRIDS[:4]),
    f("FftC2RBackward0", "irfft",
      lambda T, x: (T.fft.irfft(_c(T, x)), T.fft.irfft(x, n=5, dim=0, norm="ortho")),
      SIGNALS[:5]),
    f("FftC2RBackward0", "hfft", lambda T, x: (T.fft.hfft(_c(T, x)), T.fft.hfft(x, n=4)),
      SIGNALS[:5]),
    f("FftC2RBackward0", "irfftn", lambda T, x: (T.fft.irfftn(_c(T, x)),
                                                 T.fft.irfft2(x, s=(3, 6))), GRIDS[:4]),
    f("FftC2RBackward0", "hfftn", lambda T, x: (T.fft.hfftn(_c(T, x), norm="forward"),
                                                T.fft.hfft2(x, s=(4, 5))), GRIDS[:4]),
    f("RollBackward0", "fftshift", lambda T, x: (T.fft.fftshift(x), T.fft.ifftshift(x, dim=-1)),
      GRIDS[:4], dtypes=FLOATS + ("int64",)),
]


def _stft(T, x, **kw):
    """``torch.stft`` of a signal (1-d, or 2-d: a batch), with a Hann window unless told."""
    if "window" not in kw:
        kw["window"] = T.hann_window(kw.get("win_length", kw["n_fft"]), dtype=x.real.dtype,
                                     device=x.device)
    return T.stft(x, return_complex=kw.pop("return_complex", True), **kw)


SIGNALS_1D_2D = [(20,), (2, 12), ((2, 12), "step"), ((12, 2), "T")]
SHORT_TIME = [
    f("ReflectionPad1DBackward0", "stft", lambda T, x: _stft(T, x, n_fft=8), SIGNALS_1D_2D),
    f("ReflectionPad1DBackward0", "stft_hop_win",
      lambda T, x: (_stft(T, x, n_fft=8, hop_length=3, win_length=6),
                    x.stft(6, window=None, normalized=True, return_complex=False)),
      SIGNALS_1D_2D),
    f("FftR2CBackward0", "stft_uncentred",
      lambda T, x: (_stft(T, x, n_fft=5, center=False, onesided=False),
                    _stft(T, x, n_fft=4, pad_mode="constant")), SIGNALS_1D_2D[:2]),
    f("FftR2CBackward0", "stft_uncentred_strided",
      lambda T, x: _stft(T, x, n_fft=5, center=False), SIGNALS_1D_2D[2:], devices=("cpu",)),
    # (on cuda without the (12, 2) signal: torch's error names the tensor's device type)
    f("FftR2CBackward0", "stft_uncentred_strided_cuda",
      lambda T, x: _stft(T, x, n_fft=5, center=False), SIGNALS_1D_2D[2:3], devices=("cuda",)),
    f("FftC2CBackward0", "stft_complex", lambda T, x: _stft(T, _c(T, x), n_fft=6),
      SIGNALS_1D_2D),
    f("FftC2RBackward0", "istft",
      lambda T, x: (lambda w: T.istft(_stft(T, x, n_fft=8, window=w), 8, window=w))(
          T.hann_window(8, dtype=x.dtype, device=x.device)), SIGNALS_1D_2D),
    f("FftC2RBackward0", "istft_options",
      lambda T, x: (lambda w: (T.istft(_stft(T, x, n_fft=8, hop_length=3, window=w), 8, 3,
                                       window=w, length=x.shape[-1] + 3),
                               _stft(T, x, n_fft=8, window=w).istft(8, window=w, length=9,
                                                                    normalized=True)))(
          T.hann_window(8, dtype=x.dtype, device=x.device)), SIGNALS_1D_2D[:2]),
    f("FftC2CBackward0", "istft_two_sided",
      lambda T, x: (lambda w: (
          T.istft(_stft(T, x, n_fft=6, window=w, onesided=False), 6, window=w,
                  return_complex=True),
          T.istft(_stft(T, x, n_fft=6, window=w, onesided=False), 6, window=w)))(
          T.hann_window(6, dtype=x.dtype, device=x.device)), SIGNALS_1D_2D[:2]),
    f(None, "istft_refused",
      lambda T, x: [_caught(lambda g=g: g(T, _stft(T, x, n_fft=8))) for g in _BAD_ISTFT],
      [(20,)]),
    f(None, "stft_refused",
      lambda T, x: [_caught(lambda g=g: g(T, x)) for g in _BAD_STFT], [(20,)]),
]

_BAD_STFT = [
    lambda T, x: T.stft(x, 8),
    lambda T, x: T.stft(x, 0, return_complex=True),
    lambda T, x: T.stft(x, 30, return_complex=True),
    lambda T, x: T.stft(x, 30, center=False, return_complex=True),
    lambda T, x: T.stft(x, 8, hop_length=0, return_complex=True),
    lambda T, x: T.stft(x, 8, win_length=9, return_complex=True),
    lambda T, x: T.stft(x, 8, window=T.ones(7), return_complex=True),
    lambda T, x: T.stft(x.reshape(1, 2, 10), 4, return_complex=True),
    lambda T, x: T.stft(x.long(), 4, return_complex=True),
    lambda T, x: T.stft(_c(T, x), 4, onesided=True, return_complex=True),
    lambda T, x: T.stft(x, 4, pad_mode="bad", return_complex=True),
    lambda T, x: T.stft(x[:3], 8, return_complex=True),
]

_BAD_ISTFT = [
    lambda T, s: T.istft(s.real, 8),
    lambda T, s: T.istft(s[0], 8),
    lambda T, s: T.istft(s, 10),
    lambda T, s: T.istft(s, 8, onesided=False),
    lambda T, s: T.istft(s, 8, hop_length=9),
    lambda T, s: T.istft(s, 8, win_length=9),
    lambda T, s: T.istft(s, 8, window=T.ones(7)),
    lambda T, s: T.istft(s, 8, window=T.hann_window(8), center=False),
    lambda T, s: T.istft(s[:, :0], 8),
    lambda T, s: T.istft(s, 8, return_complex=True),
    lambda T, s: T.istft(s[None, None], 8),
]

_BAD = [
    lambda T, x: T.fft.fft(x, norm="bad"),
    lambda T, x: T.fft.fft(x, n=0),
    lambda T, x: T.fft.fft(x, dim=2),
    lambda T, x: T.fft.fftn(x, s=(2,), dim=(0, 1)),
    lambda T, x: T.fft.fftn(x, dim=(0, 0)),
    lambda T, x: T.fft.irfft(x[:, :1]),
    lambda T, x: T.fft.fft(x.half()),
    lambda T, x: T.fft.ihfft2(_c(T, x)),
    lambda T, x: T.fft.rfft2(_c(T, x)),
    lambda T, x: T.fft.fft2(x[0]),
]


def _caught(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return type(e).__name__, str(e)
    return None


ROWS = CONJUGATION + VIEWS + FUNCTIONS + ARITHMETIC + FOURIER + SHORT_TIME
