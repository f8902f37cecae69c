"""Matrix functions and what is composed of the decompositions, as torch composes them:
``matrix_exp`` (a record), ``matrix_power``, ``matrix_rank``, ``cond``, ``tensorinv``,
``tensorsolve``, and the randomized ``svd_lowrank`` and ``pca_lowrank``."""

import numpy as np

from .._dtypes import float32
from . import _lapack as K
from . import linalg as _products
from ._dispatch import apply
from ._linalg_common import (
    _SOLVER_DTYPES,
    _c_order,
    _check_square,
    _eye_like,
    _mH,
    _square_float,
)
from ._lu import _raise_inv, inv, inv_ex_op, solve
from ._orthogonal import _tolerances, eigvalsh, qr, svd, svdvals
from ._registry import declare
from .creation import zeros_like
from .joining import cat
from .linalg import matmul
from .random_ops import randn

# -- rank, powers, exponential --------------------------------------------------------------------

def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    """torch.linalg.matrix_rank: how many singular values exceed ``max(atol, rtol * largest)``."""
    if A._data.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 "
                           "dimensions.")
    if A._data.dtype not in _SOLVER_DTYPES:
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    atol, rtol = _tolerances(A._data, atol, rtol)
    A = A.detach()
    s = eigvalsh(A).abs() if hermitian else svdvals(A)
    if not s.shape[-1]:
        return s.sum(-1).long()
    tol = (s.amax(-1, keepdim=True) * rtol).clamp_min(atol)
    return (s > tol).sum(-1)


def matrix_power(A, n):
    """torch.linalg.matrix_power: ``A`` multiplied ``n`` times, by binary powers as torch
    does (``n < 0``: powers of the inverse; ``n == 0``: the identity)."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not "
                        f"{type(n).__name__}")
    _check_square("linalg.matrix_power", A)
    if n == 0:
        identity = _eye_like(A, A.shape[-1]).expand_as(A)
        return A.clone(memory_format="contiguous").copy_(identity)
    if n < 0:
        A, n = inv(A), -n
        if n == 1:
            return A
    if n == 1:
        return A.clone(memory_format="contiguous")
    if n == 2:
        return matmul(A, A)
    if n == 3:
        return matmul(matmul(A, A), A)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


@declare("linalg_matrix_exp", "LinalgMatrixExpBackward0", ("self",), saves={"self": "self"},
         check=_square_float("linalg.matrix_exp", "linalg_matrix_exp", complex_ok=True),
         layout="strided", method="matrix_exp", function="matrix_exp")
def matrix_exp_op(xp, a):
    return _c_order(xp, K.matrix_exp(xp, a).astype(a.dtype))


@matrix_exp_op.def_backward
def matrix_exp_backward(ctx, grad):
    """The upper right block of ``exp([[A^T, grad], [0, A^T]])`` (Mathias, 1996)."""
    a_t = _mH(ctx.self)
    n = a_t.shape[-1]
    big = cat([cat([a_t, grad], -1), cat([zeros_like(a_t), a_t], -1)], -2)
    return (apply(matrix_exp_op, big)[..., :n, n:],)


def matrix_exp(A):
    """torch.linalg.matrix_exp (torch.matrix_exp, Tensor.matrix_exp)."""
    return apply(matrix_exp_op, A)


# -- condition number -----------------------------------------------------------------------------

_COND_ORDS = (None, 2, -2, 1, -1, float("inf"), -float("inf"), "fro", "nuc")


def cond(A, p=None):
    """torch.linalg.cond: ``norm(A) * norm(A^{-1})`` in the norm ``p`` (None, 2, -2: the
    ratio of extreme singular values; 'nuc' from the singular values; 1, -1, inf, -inf, 'fro'
    through the inverse, infinite for a singular matrix); 0 for empty matrices."""
    if A._data.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if isinstance(p, bool) or p not in _COND_ORDS:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if isinstance(p, str):
        _check_square(f"linalg.cond(ord={p})", A)
    if not A._data.size:
        return A.new_zeros(A.shape[:-2])
    if p in (None, 2, -2):
        s = svdvals(A)
        big, small = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        return (small / big if p == -2 else big / small).squeeze(-1)
    if p == "nuc":
        s = svdvals(A)
        return s.sum(-1) * s.reciprocal().sum(-1)
    if not isinstance(p, str):
        _check_square(f"linalg.cond(ord={int(p) if abs(p) == 1 else p})", A)
    inverse, info = apply(inv_ex_op, A)
    inverse.masked_fill_(info.unsqueeze(-1).unsqueeze(-1) > 0, float("inf"))
    result = _products.matrix_norm(A, p) * _products.matrix_norm(inverse, p)
    return result.nan_to_num_(float("inf"), float("inf"), -float("inf"))


# -- tensor inverses and solves -------------------------------------------------------------------

def tensorinv(A, ind=2):
    """torch.linalg.tensorinv: the inverse of ``A`` read as a matrix of its first ``ind``
    dimensions by the others."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    head, tail = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    rows, cols = int(np.prod(tail)), int(np.prod(head))
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {rows} != {cols}")
    inverse, info = apply(inv_ex_op, A.reshape(rows, rows))
    _raise_inv(info, "inv")
    return inverse.reshape(tail + head)


def tensorsolve(A, B, dims=None):
    """torch.linalg.tensorsolve: ``X`` with ``tensordot(A, X, X.ndim) = B``."""
    if dims is not None:
        dims = tuple(dims)
        A = A.movedim(dims, tuple(range(A.dim() - len(dims), A.dim())))
    shape = tuple(A.shape[B.dim():])
    size, other = int(np.prod(shape)), int(np.prod(B.shape))
    if size != other:
        raise RuntimeError(f"Expected self to satisfy the requirement "
                           f"prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), "
                           f"but got {size} != {other}")
    return solve(A.reshape(size, size), B.flatten()).reshape(shape)


# -- randomized low-rank SVD and PCA (Halko, Martinsson and Tropp, 2009) --------------------------

def _floating_dtype(A):
    return A.dtype if A.dtype.is_floating_point else float32


def approximate_basis(A, q, niter=2, M=None):
    """An orthonormal ``(m, q)`` basis of ``A - M``'s range: a Gaussian sketch (drawn from the
    default generator, as torch draws it) refined by ``niter`` power iterations."""
    niter = 2 if niter is None else niter
    R = randn((A.shape[-1], q), dtype=_floating_dtype(A), device=A.device)
    X = matmul(A, R) if M is None else matmul(A, R) - matmul(M, R)
    Q = qr(X).Q
    for _ in range(niter):
        X = matmul(A.mH, Q) if M is None else matmul(A.mH, Q) - matmul(M.mH, Q)
        Q = qr(X).Q
        X = matmul(A, Q) if M is None else matmul(A, Q) - matmul(M, Q)
        Q = qr(X).Q
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """torch.svd_lowrank: ``(U, S, V)`` of rank ``q`` approximating ``A - M``'s SVD."""
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    if m < n:  # work on the tall one
        A = A.mH
        M = None if M is None else M.mH
    Q = approximate_basis(A, q, niter, M)
    B = matmul(Q.mH, A) if M is None else matmul(Q.mH, A) - matmul(Q.mH, M)
    U, S, Vh = svd(B, full_matrices=False)
    V = Vh.mH
    U = Q.matmul(U)
    return (V, S, U) if m < n else (U, S, V)


def pca_lowrank(A, q=None, center=True, niter=2):
    """torch.pca_lowrank: ``svd_lowrank`` of ``A`` with its column means taken out."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter)
    return svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter)
