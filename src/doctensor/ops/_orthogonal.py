"""The orthogonal decompositions and what is built on them: QR (``linalg.qr``, the legacy
``qr``; in Householder form ``geqrf``, ``householder_product``/``orgqr``, ``ormqr``), the
SVD (``linalg.svd``, ``svdvals``, the legacy ``svd``), eigen-decompositions (``linalg.eigh``,
``eigvalsh``, ``eig``, ``eigvals``), the pseudo-inverse and least squares (Note [LAPACK
results]).  Singular and eigenvectors have LAPACK's signs (NumPy calls the same routines)."""

import numpy as np

from .._strides import broadcast_shapes
from .._tensor_base import warn_once
from . import _lapack as K
from ._dispatch import apply, needs_grad
from ._linalg_common import (
    _EIG,
    _EIGH,
    _GEQRF,
    _LSTSQ,
    _QR,
    _QR_LEGACY,
    _SOLVER_DTYPES,
    _SVD,
    _SVD_LEGACY,
    _c_order,
    _check_dims,
    _check_floating,
    _check_kernel,
    _check_square,
    _constant,
    _diag_embed,
    _eye_like,
    _fortran,
    _mH,
    _mT,
    _scalar_name,
)
from ._lu import _is_vector_rhs, solve_ex_op
from ._registry import declare
from ._triangular import solve_triangular
from .creation import arange, zeros_like
from .joining import cat, stack
from .linalg import matmul

# -- QR -------------------------------------------------------------------------------------------

_QR_MODES = ("reduced", "complete", "r")


def _check_qr(a, mode="reduced"):
    _check_dims("linalg.qr", a)
    _check_floating("linalg.qr", a)
    if mode not in _QR_MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    _check_kernel("geqrf_cpu", a, complex_ok=True)


@declare("linalg_qr", "LinalgQrBackward0", ("A",), saves={"Q": "A", "R": "A"},
         outputs=("Q", "R"), check=_check_qr, layout="strided")
def qr_op(xp, a, mode="reduced"):
    if mode == "r":
        return _c_order(xp, xp.zeros((0,), a.dtype)), _fortran(xp, xp.linalg.qr(a, mode="r"))
    q, r = xp.linalg.qr(a, mode=mode)
    return _fortran(xp, q), _fortran(xp, r)


def _copyltu(m):
    """The symmetric (Hermitian) matrix with ``m``'s lower triangle (the real part of its
    diagonal)."""
    low = m.tril(-1)
    diag = m.diagonal(0, -2, -1)
    return low + _mH(low) + _diag_embed(diag.real if diag.is_complex() else diag)


def _qr_grad(g_q, g_r, Q, R):
    """``(gQ + Q copyltu(M)) R^{-T}``, ``M = R gR^T - gQ^T Q``, for ``m >= n``."""
    m = -matmul(_mH(g_q), Q) if g_q is not None else None
    if g_r is not None:
        m = matmul(R, _mH(g_r)) if m is None else m + matmul(R, _mH(g_r))
    b = matmul(Q, _copyltu(m))
    if g_q is not None:
        b = b + g_q
    return solve_triangular(_mH(R), b, upper=False, left=False)


@qr_op.def_backward
def qr_backward(ctx, grads):
    g_q, g_r = grads
    mode = ctx.attrs.get("mode", "reduced")
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                           "differentiate through linalg.qr.")
    Q, R = ctx.Q, ctx.R
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    if m >= n:
        return (_qr_grad(g_q, g_r, Q, R),)
    # A = Q [U | V] with a square U: the gradient of the square part sees V's through Q
    U, V = R.narrow(-1, 0, m), R.narrow(-1, m, n - m)
    g_u = g_r.narrow(-1, 0, m) if g_r is not None else None
    g_v = g_r.narrow(-1, m, n - m) if g_r is not None else zeros_like(V)
    g_q = matmul(matmul(Q, V), _mH(g_v)) + (g_q if g_q is not None else 0)
    return (cat([_qr_grad(g_q, g_u, Q, U), matmul(Q, g_v)], -1),)


def qr(A, mode="reduced"):
    """torch.linalg.qr: ``A = Q R`` with orthonormal columns of ``Q``, upper triangular ``R``
    (LAPACK's Householder signs)."""
    return _QR(*apply(qr_op, A, **({} if mode == "reduced" else {"mode": mode})))


_QR_DEPRECATED = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
    "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
    "Q, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if "
    "some else 'complete') (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2505.)")


def qr_legacy(A, some=True):
    """torch.qr (deprecated): ``linalg.qr(A, 'reduced' if some else 'complete')``."""
    warn_once(_QR_DEPRECATED, stacklevel=4)
    return _QR_LEGACY(*apply(qr_op, A, **({} if some else {"mode": "complete"})))


# -- SVD ------------------------------------------------------------------------------------------

def _check_svd(a, full_matrices=True, compute_uv=True):
    _check_dims("linalg.svd", a)
    _check_floating("linalg.svd", a)
    _check_kernel("linalg_svd_cpu", a, complex_ok=True)


@declare("linalg_svd", "LinalgSvdBackward0", ("A",), saves={"U": "A", "S": "A", "Vh": "A"},
         outputs=("U", "S", "Vh"), check=_check_svd, layout="strided")
def svd_op(xp, a, full_matrices=True, compute_uv=True):
    if not compute_uv:
        empty = _c_order(xp, xp.zeros((0,), a.dtype))
        return empty, _c_order(xp, xp.linalg.svd(a, compute_uv=False)), empty
    u, s, vh = xp.linalg.svd(a, full_matrices=full_matrices)
    return _fortran(xp, u), _c_order(xp, s), _fortran(xp, vh)


@svd_op.def_backward
def svd_backward(ctx, grads):
    """torch's svd_backward for real matrices (full matrices: their first k vectors)."""
    g_u, g_s, g_vh = grads
    U, S, Vh = ctx.U, ctx.S, ctx.Vh
    k = S.shape[-1]
    if ctx.attrs.get("full_matrices", True):
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        g_u = g_u.narrow(-1, 0, k) if g_u is not None else None
        g_vh = g_vh.narrow(-2, 0, k) if g_vh is not None else None
    m, n = U.shape[-2], Vh.shape[-1]
    if g_u is None and g_vh is None:
        return (matmul(U * g_s.unsqueeze(-2), Vh),)
    s2 = S * S
    e = s2.unsqueeze(-2) - s2.unsqueeze(-1) + _eye_like(S, k)  # (the diagonal: any nonzero)
    inner = imag = 0
    if g_u is not None:
        uhgu = matmul(_mH(U), g_u)
        uhgu = uhgu - _mH(uhgu)
        inner = uhgu * S.unsqueeze(-2)
        imag = uhgu.diagonal(0, -2, -1).imag if U.is_complex() else 0
    if g_vh is not None:
        vhgv = matmul(Vh, _mH(g_vh))
        vhgv = vhgv - _mH(vhgv)
        inner = inner + S.unsqueeze(-1) * vhgv
        imag = imag + vhgv.diagonal(0, -2, -1).imag if U.is_complex() else 0
    if U.is_complex():
        _check_phase(imag * 0.5, "svd_backward: The singular vectors",
                     "this phase term, making it ill-defined")
    g_a = inner / e
    if g_s is not None:
        g_a = g_a + _diag_embed(g_s)
    if m > n and g_u is not None:
        g_a = matmul(U, g_a)
        g_u_s = g_u / S.unsqueeze(-2)
        g_a = g_a + g_u_s - matmul(U, matmul(_mH(U), g_u_s))
        return (matmul(g_a, Vh),)
    if m < n and g_vh is not None:
        g_a = matmul(g_a, Vh)
        s_g_vh = g_vh / S.unsqueeze(-1)
        g_a = g_a + s_g_vh - matmul(matmul(s_g_vh, _mH(Vh)), Vh)
        return (matmul(U, g_a),)
    return (matmul(matmul(U, g_a), Vh),)


def svd(A, full_matrices=True, *, driver=None):
    """torch.linalg.svd: ``A = U diag(S) Vh``, singular values in descending order."""
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    return _SVD(*apply(svd_op, A, **({} if full_matrices else {"full_matrices": False})))


def svdvals(A, *, driver=None):
    """torch.linalg.svdvals: the singular values (the vectors too when a gradient needs them)."""
    if needs_grad((A,)):
        return apply(svd_op, A, full_matrices=False)[1]
    return apply(svd_op, A, full_matrices=False, compute_uv=False)[1]


def svd_legacy(A, some=True, compute_uv=True):
    """torch.svd: ``(U, S, V)`` with ``V = Vh^T``; without ``compute_uv``, zero ``U``, ``V``."""
    if not compute_uv:
        S = svdvals(A)
        m, n = A.shape[-2:]
        zeros = A.new_zeros
        return _SVD_LEGACY(zeros(A.shape[:-2] + (m, m)), S, _mT(zeros(A.shape[:-2] + (n, n))))
    U, S, Vh = apply(svd_op, A, full_matrices=not some)
    return _SVD_LEGACY(U, S, _mH(Vh))


# -- symmetric eigen-decomposition ----------------------------------------------------------------

def _check_eigh(a, UPLO="L", compute_v=True):
    _check_square("linalg.eigh", a)
    _check_kernel("linalg_eigh_cpu", a, complex_ok=True)
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


@declare("linalg_eigh", "LinalgEighBackward0", ("A",),
         saves={"eigenvalues": "A", "eigenvectors": "A"},
         outputs=("eigenvalues", "eigenvectors"), check=_check_eigh, layout="strided")
def eigh_op(xp, a, UPLO="L", compute_v=True):  # noqa: N803 - torch's argument name
    if not compute_v:
        return _c_order(xp, xp.linalg.eigvalsh(a, UPLO)), _c_order(xp, xp.zeros((0,), a.dtype))
    w, v = xp.linalg.eigh(a, UPLO)
    return _c_order(xp, w), _fortran(xp, v)


@eigh_op.def_backward
def eigh_backward(ctx, grads):
    """``V (diag(gL) + skew(V^T gV) / 2E) V^T``, ``E_ij = L_j - L_i``."""
    g_l, g_v = grads
    L, V = ctx.eigenvalues, ctx.eigenvectors
    if g_v is None:
        return (matmul(V * g_l.unsqueeze(-2), _mH(V)),)
    vhgv = matmul(_mH(V), g_v)
    if V.is_complex():
        _check_phase(vhgv.diagonal(0, -2, -1).imag, "linalg_eigh_backward: The eigenvectors")
    e = L.unsqueeze(-2) - L.unsqueeze(-1) + _eye_like(L, L.shape[-1])
    inner = (vhgv - _mH(vhgv)) * 0.5 / e
    if g_l is not None:
        inner = inner + _diag_embed(g_l)
    return (matmul(V, matmul(inner, _mH(V))),)


def _check_phase(imag, what, phrase="this quantity, so it is ill-defined"):
    """torch's refusal of a loss that depends on the phases of complex singular or
    eigenvectors (``imag``: the imaginary parts that must vanish, within 1e-2)."""
    if not bool((imag.abs() <= 1e-2).all()):
        raise RuntimeError(f"{what} in the complex case are specified up to multiplication by "
                           f"e^{{i phi}}. The specified loss function depends on {phrase}.")


def eigh(A, UPLO="L"):  # noqa: N803 - torch's argument name
    """torch.linalg.eigh: ascending eigenvalues and orthonormal eigenvectors of a symmetric
    matrix given by its lower (``UPLO='L'``) or upper triangle."""
    return _EIGH(*apply(eigh_op, A, **({} if UPLO == "L" else {"UPLO": UPLO})))


def eigvalsh(A, UPLO="L"):  # noqa: N803 - torch's argument name
    """torch.linalg.eigvalsh: the eigenvalues (the vectors too when a gradient needs them)."""
    attrs = {} if UPLO == "L" else {"UPLO": UPLO}
    if needs_grad((A,)):
        return apply(eigh_op, A, **attrs)[0]
    return apply(eigh_op, A, compute_v=False, **attrs)[0]


# -- general eigen-decomposition ------------------------------------------------------------------

def _check_eig(fn):
    def check(a, compute_v=True):
        if a._data.dtype.kind not in "fc":
            raise RuntimeError(f"Unknown Complex ScalarType for {_scalar_name(a)}")
        _check_square(fn, a)
        if a._data.dtype not in _SOLVER_DTYPES:
            _check_kernel("linalg_eig_out_cpu", a)
    return check


@declare("linalg_eig", "LinalgEigBackward0", ("self",),
         saves={"eigenvalues": "self", "eigenvectors": "self"},
         outputs=("eigenvalues", "eigenvectors"), check=_check_eig("linalg.eig"),
         layout="strided")
def eig_op(xp, a, compute_v=True):
    """LAPACK's geev (as NumPy calls it): complex eigenvalues, and eigenvectors of unit norm
    whose largest entry is real."""
    complex_ = np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128
    if not compute_v:
        return (_c_order(xp, xp.linalg.eigvals(a).astype(complex_)),
                _c_order(xp, xp.zeros((0,), complex_)))
    w, v = xp.linalg.eig(a)
    return _c_order(xp, w.astype(complex_)), _fortran(xp, v.astype(complex_))


@eig_op.def_backward
def eig_backward(ctx, grads):
    """``V^{-H} (diag(gL) + P(V^H gV) / conj(E)) V^H``, ``E_ij = L_j - L_i``, ``P``: the
    projection that keeps the eigenvectors' norms; the real part for a real input."""
    g_l, g_v = grads
    L, V = ctx.eigenvalues, ctx.eigenvectors
    v_h = V.mH
    if g_v is None:
        g = _diag_embed(g_l)
    else:
        vhgv = matmul(v_h, g_v)
        _check_phase(vhgv.diagonal(0, -2, -1).imag, "linalg_eig_backward: The eigenvectors")
        vhgv = vhgv - matmul(v_h, V * vhgv.diagonal(0, -2, -1).real.unsqueeze(-2))
        conj = L.conj()
        e = conj.unsqueeze(-2) - conj.unsqueeze(-1) + _eye_like(L, L.shape[-1])
        g = vhgv / e
        if g_l is not None:
            g = g + _diag_embed(g_l)
    g_a = apply(solve_ex_op, v_h, matmul(g, v_h))[0]
    return (g_a if ctx.input_meta[0][1] in "FD" else g_a.real,)


def eig(A):
    """torch.linalg.eig: the complex eigenvalues and eigenvectors of a square matrix."""
    return _EIG(*apply(eig_op, A))


def eigvals(A):
    """torch.linalg.eigvals: the complex eigenvalues (the vectors too when a gradient needs
    them)."""
    _check_eig("linalg.eigvals")(A)
    if needs_grad((A,)):
        return apply(eig_op, A)[0]
    return apply(eig_op, A, compute_v=False)[0]


# -- pseudo-inverse -------------------------------------------------------------------------------

def _check_pinv(a, atol=None, rtol=None, hermitian=False):
    if a._data.ndim < 2 or a._data.dtype not in _SOLVER_DTYPES:
        raise RuntimeError(f"linalg.pinv({_scalar_name(a)}{{[{', '.join(map(str, a.shape))}]}}): "
                           f"expected a tensor with 2 or more dimensions of float, double, cfloat "
                           f"or cdouble types")


def _tolerances(a, atol, rtol):
    """torch's (atol, rtol) for pinv and matrix_rank: rtol defaults to eps * max(m, n), or to
    0 when a positive atol is given."""
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else \
            float(np.finfo(a.dtype).eps) * max(a.shape[-2:])
    return (0.0 if atol is None else atol), rtol


@declare("linalg_pinv", "LinalgPinvBackward0", ("self",), saves={"self": "self", "result": "self"},
         check=_check_pinv, layout="strided")
def pinv_op(xp, a, atol=None, rtol=None, hermitian=False):
    atol, rtol = _tolerances(a, atol, rtol)
    if hermitian:
        s, u = xp.linalg.eigh(a)
        big = xp.abs(s)
        tol = xp.maximum(atol, rtol * big.max(axis=-1, keepdims=True, initial=0))
        s_inv = xp.where(big > tol, 1 / xp.where(big > tol, s, 1), 0).astype(a.dtype)
        return _c_order(xp, xp.matmul(u * s_inv[..., None, :], _h(xp, u)))
    u, s, vh = xp.linalg.svd(a, full_matrices=False)
    tol = xp.maximum(atol, rtol * s[..., :1])
    s_inv = xp.where(s > tol, 1 / xp.where(s > tol, s, 1), 0).astype(a.dtype)
    return _c_order(xp, xp.matmul(_h(xp, vh) * s_inv[..., None, :], _h(xp, u)))


def _h(xp, a):
    """The conjugate transpose of (a batch of) matrices, arrays."""
    return xp.conj(xp.swapaxes(a, -1, -2))


@pinv_op.def_backward
def pinv_backward(ctx, grad):
    return (_pinv_grad(grad, ctx.result, ctx.self),)


def _pinv_grad(grad, P, A):
    """torch's pinv_backward (products ordered to keep the matrices small)."""
    m, n = A.shape[-2:]
    p_t, g_t = _mH(P), _mH(grad)
    if m <= n:
        k = matmul(g_t, P)
        k_p_t = matmul(k, p_t)
        out = -_mH(matmul(P, k)) + k_p_t - matmul(matmul(A, P), k_p_t) + \
            matmul(matmul(p_t, P), g_t - matmul(k, A))
    else:
        k = matmul(P, g_t)
        p_t_k = matmul(p_t, k)
        out = -_mH(matmul(k, P)) + matmul(matmul(g_t - matmul(A, k), P), p_t) + p_t_k - \
            matmul(matmul(p_t_k, P), A)
    return out


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """torch.linalg.pinv: the Moore-Penrose pseudo-inverse, singular values at most
    ``max(atol, rtol * largest)`` dropped (``rcond``: the old name of ``rtol``)."""
    if rcond is not None:
        atol, rtol = 0.0, rcond
    attrs = {k: v for k, v in (("atol", atol), ("rtol", rtol)) if v is not None}
    if hermitian:
        attrs["hermitian"] = True
    return apply(pinv_op, A, **attrs)


def pinverse(A, rcond=1e-15):
    """torch.pinverse: ``linalg.pinv(A, rcond)``."""
    return pinv(A, rcond)


# -- least squares, tensor inverses and solves ----------------------------------------------------

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _check_lstsq(a, b, rcond=None, driver=None):
    fn = "torch.linalg.lstsq"
    if a._data.ndim < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if b._data.ndim < 1:
        raise RuntimeError(f"{fn}: other must have at least 1 dimension.")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"{fn}: Expected input and other to have the same dtype, but got "
                           f"input's dtype {_scalar_name(a)} and other's dtype {_scalar_name(b)}")
    diff = a._data.ndim - b._data.ndim
    if diff not in (0, 1):
        raise RuntimeError(f"{fn}: input.dim() must be greater or equal to other.dim() and "
                           f"(input.dim() - other.dim()) <= 1")
    vector = _is_vector_rhs(a, b)  # decides the check; ``diff`` decides the computation
    if a._data.shape[-2] != b._data.shape[-1 if vector else -2]:
        raise RuntimeError(f"{fn}: input.size(-2) should match other.size({-1 if vector else -2})")
    broadcast_shapes(a._data.shape[:-2], b._data.shape[:b._data.ndim - 2 + diff])
    if a._data.dtype.kind == "c":
        _check_kernel("linalg_lstsq", a)  # (doctensor's refusal: no complex version yet)
    if a._data.dtype not in (np.float32, np.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if driver is not None and driver not in _DRIVERS:
        raise RuntimeError(f"{fn}: parameter `driver` should be one of (gels, gelsy, gelsd, "
                           f"gelss)")


@declare("linalg_lstsq", "LinalgLstsqBackward0", ("self", "b"),
         saves={"self": ("self", "b"), "b": ("self", "b")},
         outputs=("solution", "residuals", "rank", "singular_values"), check=_check_lstsq,
         layout="strided")
def lstsq_op(xp, a, b, rcond=None, driver=None):
    """The minimum-norm least-squares solution (what else each driver reports): for a
    full-rank ``a`` by a QR factorization (of ``a^T`` when it is wide), as LAPACK's gelsy and
    gels solve; else through the SVD, as gelsd and gelss do."""
    driver = driver or "gelsy"
    vector = b.ndim == a.ndim - 1
    if vector:
        b = b[..., None]
    m, n = a.shape[-2:]
    u, s, vh = xp.linalg.svd(a, full_matrices=False)
    if rcond is None or rcond < 0:
        rcond = float(np.finfo(a.dtype).eps) * max(m, n)
    keep = s > rcond * s[..., :1]
    s_inv = xp.where(keep, 1 / xp.where(keep, s, 1), 0).astype(a.dtype)
    rank = keep.sum(axis=-1).astype(np.int64)
    if bool((rank == min(m, n)).all()):
        x = _full_rank_lstsq(xp, a, b)
    else:
        x = xp.matmul(xp.swapaxes(vh, -1, -2),
                      s_inv[..., None] * xp.matmul(xp.swapaxes(u, -1, -2), b))
    # LAPACK solves in a column-major buffer of max(m, n) rows: the solution is its first n
    buffer = K.column_major(xp, xp.zeros(x.shape[:-2] + (max(m, n), x.shape[-1]), a.dtype))
    buffer[..., :n, :] = x
    solution = buffer[..., :n, 0] if vector else buffer[..., :n, :]
    empty = _c_order(xp, xp.zeros((0,), a.dtype))
    residuals = empty
    if driver != "gelsy" and m > n and bool((rank == n).all()):
        r = xp.matmul(a, x) - b
        residuals = _c_order(xp, (r * r).sum(axis=-2)[..., 0] if vector else (r * r).sum(axis=-2))
    rank = _c_order(xp, rank) if driver != "gels" else _c_order(xp, xp.zeros((0,), np.int64))
    values = _c_order(xp, s) if driver in ("gelsd", "gelss") else empty
    return solution, residuals, rank, values


def _full_rank_lstsq(xp, a, b):
    """``min |a x - b|`` for a full-rank ``a``: ``R^{-1} Q^T b`` (tall), or the minimum-norm
    ``Q R^{-T} b`` from ``a^T = Q R`` (wide)."""
    m, n = a.shape[-2:]
    if m >= n:
        q, r = xp.linalg.qr(a)
        return K.tri_solve(xp, r, xp.matmul(xp.swapaxes(q, -1, -2), b), upper=True)
    q, r = xp.linalg.qr(xp.swapaxes(a, -1, -2))
    return xp.matmul(q, K.tri_solve(xp, xp.swapaxes(r, -1, -2), b, upper=False))


@lstsq_op.def_backward
def lstsq_backward(ctx, grads):
    """torch's linalg_lstsq_backward: through the pseudo-inverse (the solution's gradient)."""
    g_x = grads[0]
    if g_x is None:
        return None, None
    A, B = ctx.self, ctx.b
    if B.dim() == A.dim() - 1:
        g_x, B = g_x.unsqueeze(-1), B.unsqueeze(-1)
    pinv_a = apply(pinv_op, A)
    need_a, need_b = ctx.needs_input_grad
    g_a = _pinv_grad(matmul(g_x, _mT(B)), pinv_a, A) if need_a else None
    g_b = None
    if need_b:
        g_b = matmul(_mT(pinv_a), g_x)
        if ctx.b.dim() == A.dim() - 1:
            g_b = g_b.squeeze(-1)
    return g_a, g_b


def lstsq(A, B, rcond=None, *, driver=None):
    """torch.linalg.lstsq: (solution, residuals, rank, singular values) of ``min |A X - B|``."""
    attrs = {k: v for k, v in (("rcond", rcond), ("driver", driver)) if v is not None}
    solution, residuals, rank, values = apply(lstsq_op, A, B, **attrs)
    return _LSTSQ(solution, residuals, rank, _constant(values))


# -- Householder reflectors: geqrf, householder_product (orgqr), ormqr ----------------------------

def _check_geqrf(a):
    if a._data.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _check_kernel("geqrf_cpu", a)


@declare("geqrf", "GeqrfBackward0", ("self",), outputs=("a", "tau"), check=_check_geqrf,
         layout="strided", method="geqrf", function="geqrf")
def geqrf_op(xp, a):
    """LAPACK's geqrf: R on and above the diagonal, the reflectors' vectors below it."""
    h, tau = xp.linalg.qr(a, mode="raw")  # (NumPy gives the column-major matrix transposed)
    return _fortran(xp, xp.swapaxes(h, -1, -2)), _c_order(xp, tau)


@geqrf_op.def_backward
def geqrf_backward(ctx, grads):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def geqrf(A):
    """torch.geqrf: LAPACK's QR factorization in Householder form, ``(a, tau)``."""
    return _GEQRF(*apply(geqrf_op, A))


def _reflector(xp, a, i):
    """The i-th Householder vector of a packed factorization: 1 at ``i``, ``a``'s column ``i``
    below it, zeros above (an array)."""
    v = xp.zeros(a.shape[:-1], a.dtype)
    v[..., i] = 1
    v[..., i + 1:] = a[..., i + 1:, i]
    return v


def _apply_reflectors(xp, a, tau, x, order, left=True):
    """``x`` multiplied by ``H_i = I - tau_i v_i v_i^T`` for ``i`` in ``order``: each on the
    left (``H_i @ x``) or on the right (``x @ H_i``)."""
    for i in order:
        v = _reflector(xp, a, i)
        t = tau[..., i, None, None]
        if left:
            x = x - t * v[..., :, None] * xp.matmul(v[..., None, :], x)
        else:
            x = x - t * xp.matmul(x, v[..., :, None]) * v[..., None, :]
    return x


def _check_householder(a, tau):
    fn = "torch.linalg.householder_product"
    if a._data.ndim < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    m, n = a._data.shape[-2:]
    if m < n:
        raise RuntimeError(f"{fn}: input.shape[-2] must be greater than or equal to "
                           f"input.shape[-1]")
    if n < tau._data.shape[-1]:
        raise RuntimeError(f"{fn}: input.shape[-1] must be greater than or equal to "
                           f"tau.shape[-1]")
    if tau._data.ndim != a._data.ndim - 1:
        raise RuntimeError(f"{fn}: Expected tau to have one dimension less than input, but got "
                           f"tau.ndim equal to {tau._data.ndim} and input.ndim is equal to "
                           f"{a._data.ndim}")
    if tau._data.dtype != a._data.dtype:
        raise RuntimeError(f"{fn}: tau dtype {_scalar_name(tau)} does not match input dtype "
                           f"{_scalar_name(a)}")
    _check_kernel("orgqr_cpu", a)


@declare("linalg_householder_product", "LinalgHouseholderProductBackward0", ("input", "tau"),
         saves={"input": ("input", "tau"), "tau": ("input", "tau")}, check=_check_householder,
         layout="strided", method="orgqr", function="orgqr")
def householder_product_op(xp, a, tau):
    """The first ``n`` columns of ``H_1 H_2 ... H_k`` (LAPACK's orgqr)."""
    m, n = a.shape[-2:]
    start = xp.broadcast_to(xp.eye(m, n, dtype=a.dtype), a.shape)
    return _fortran(xp, _apply_reflectors(xp, a, tau, start, range(tau.shape[-1] - 1, -1, -1)))


def _reflectors_grad(g, a, tau, start):
    """The gradients of ``a`` and ``tau`` for ``Q = H_1 ... H_k @ start`` given ``Q``'s
    ``g``: the product is replayed in doctensor ops, then walked back one reflector at a
    time (``H_i x = x - tau_i v_i (v_i^T x)``)."""
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    rows = _arange_like(a, m)
    vs = [(rows == i).to(a.dtype) + a.narrow(-1, i, 1).squeeze(-1) * (rows > i).to(a.dtype)
          for i in range(k)]
    xs = [start]  # xs[j]: H_{k-j+1} ... H_k @ start
    for i in range(k - 1, 0, -1):
        x = xs[-1]
        xs.append(x - tau[..., i, None, None] * vs[i].unsqueeze(-1) *
                  matmul(vs[i].unsqueeze(-2), x))
    g_tau, g_cols = [], []
    for i in range(k):
        v, t, x = vs[i], tau[..., i, None, None], xs[k - 1 - i]
        w = matmul(v.unsqueeze(-2), x)  # v_i^T X_{i+1}
        vg = matmul(v.unsqueeze(-2), g)  # v_i^T G
        g_tau.append(-(vg * w).sum((-2, -1)))
        g_v = -t * (matmul(g, _mT(w)) + matmul(x, _mT(vg)))
        g_cols.append(g_v.squeeze(-1) * (rows > i).to(a.dtype))
        g = g - t * v.unsqueeze(-1) * vg
    zero = zeros_like(a.narrow(-1, 0, 1)).squeeze(-1)
    g_a = stack(g_cols + [zero] * (n - k), -1)
    return g_a, stack(g_tau, -1)


def _arange_like(t, n):
    return arange(n, device=t.device)


@householder_product_op.def_backward
def householder_product_backward(ctx, grad):
    a, tau = ctx.input, ctx.tau
    m, n = a.shape[-2:]
    start = _eye_like(a, m).narrow(-1, 0, n)
    g_a, g_tau = _reflectors_grad(grad, a, tau, start)
    need_a, need_tau = ctx.needs_input_grad
    return g_a if need_a else None, g_tau if need_tau else None


def householder_product(A, tau):
    """torch.linalg.householder_product (torch.orgqr): ``Q`` from ``geqrf``'s reflectors."""
    return apply(householder_product_op, A, tau)


def _check_ormqr(a, tau, c, left=True, transpose=False):
    fn = "torch.ormqr"
    if a._data.ndim < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if c._data.ndim < 2:
        raise RuntimeError(f"{fn}: other must have at least 2 dimensions.")
    if c._data.ndim != a._data.ndim:
        raise RuntimeError(f"{fn}: Expected other to have the same number of dimensions as "
                           f"input, but got other.ndim equal to {c._data.ndim} and input.ndim is "
                           f"equal to {a._data.ndim}")
    m = a._data.shape[-2]
    if left and c._data.shape[-2] != m:
        raise RuntimeError(f"{fn}: other.shape[-2] must be equal to input.shape[-2]")
    if not left and c._data.shape[-1] != m:
        raise RuntimeError(f"{fn}: other.shape[-1] must be equal to input.shape[-2]")
    side = c._data.shape[-2 if left else -1]
    if tau._data.shape[-1] != min(side, a._data.shape[-1]):
        raise RuntimeError(f"{fn}: tau.shape[-1] must be equal to min(other.shape"
                           f"[{-2 if left else -1}], input.shape[-1])")
    if c._data.dtype != a._data.dtype:
        raise RuntimeError(f"{fn}: Expected input and other to have the same dtype, but input "
                           f"has dtype{_scalar_name(a)} and other has dtype {_scalar_name(c)}")
    _check_kernel("ormqr_cpu", a)


@declare("ormqr", "OrmqrBackward0", ("self", "input2", "input3"),
         saves={"self": ("self", "input2", "input3"), "input2": ("self", "input2", "input3"),
                "input3": ("self", "input2")}, check=_check_ormqr, layout="strided",
         method="ormqr", function="ormqr")
def ormqr_op(xp, a, tau, c, left=True, transpose=False):
    """``op(Q) @ c`` (``c @ op(Q)``) with ``Q = H_1 ... H_k`` never formed (LAPACK's ormqr)."""
    k = tau.shape[-1]
    forward = left != transpose  # Q c applies H_k first; c Q applies H_1 first
    order = range(k - 1, -1, -1) if forward else range(k)
    return _fortran(xp, _apply_reflectors(xp, a, tau, c, order, left))


@ormqr_op.def_backward
def ormqr_backward(ctx, grad):
    """Through the full ``Q``: ``gC = op(Q)^T grad`` (``grad op(Q)^T``), and ``Q``'s gradient
    back to the reflectors."""
    attrs = ctx.attrs
    left, transpose = attrs.get("left", True), attrs.get("transpose", False)
    a, tau = ctx.self, ctx.input2
    m = a.shape[-2]
    need_a, need_tau, need_c = ctx.needs_input_grad
    g_c = apply(ormqr_op, a, tau, grad, left=left, transpose=not transpose) if need_c else None
    g_a = g_tau = None
    if need_a or need_tau:
        c = ctx.input3
        g_q = matmul(grad, _mT(c)) if left else matmul(_mT(c), grad)
        if transpose:
            g_q = _mT(g_q)
        g_a, g_tau = _reflectors_grad(g_q, a, tau, _eye_like(a, m))
    return g_a if need_a else None, g_tau if need_tau else None, g_c


def ormqr(A, tau, other, left=True, transpose=False):
    """torch.ormqr: ``other`` multiplied by ``Q`` of ``geqrf``'s reflectors (on the left or
    right, ``Q`` or ``Q^T``)."""
    attrs = {k: v for k, v in (("left", left), ("transpose", transpose)) if v != (k == "left")}
    return apply(ormqr_op, A, tau, other, **attrs)
