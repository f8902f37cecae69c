"""What LU factorizations give: determinants (``det``, ``slogdet``, ``logdet``), inverses and
solves (``linalg.inv(_ex)``, ``linalg.solve(_ex)``), and the factorization itself
(``linalg.lu_factor(_ex)``, ``linalg.lu``, ``lu_unpack``, ``linalg.lu_solve`` and the legacy
forms), on the kernels of ``_lapack.py`` (Note [LAPACK results])."""

import numpy as np

from .._strides import broadcast_shapes
from .._tensor_base import warn_once
from . import _lapack as K
from ._dispatch import apply
from ._linalg_common import (
    _INV_EX,
    _LU,
    _LU_FACTOR,
    _LU_FACTOR_EX,
    _LU_UNPACK,
    _LU_WITH_INFO,
    _SLOGDET,
    _SLOGDET_LEGACY,
    _SOLVE_EX,
    _SOLVER_DTYPES,
    LinAlgError,
    _c_order,
    _check_dims,
    _check_floating,
    _check_kernel,
    _check_square,
    _conj,
    _constant,
    _diag_embed,
    _first_failure,
    _fortran,
    _mH,
    _scalar_name,
    _square_float,
)
from ._registry import declare
from ._triangular import solve_triangular
from .creation import zeros_like
from .joining import cat
from .linalg import matmul
from .pointwise import where as where_op

# -- determinants ---------------------------------------------------------------------------------

def _lu_det(xp, a):
    """(the product of U's diagonal, the permutation's sign, U's diagonal) of ``a``'s LU.

    As torch does, a C-contiguous ``a`` is factored transposed (``det(A^T) = det(A)``, and
    LAPACK reads a C-contiguous matrix as its transpose without a copy), which decides the
    pivots and so the rounding."""
    if a.flags.c_contiguous and a.dtype.kind == "f":  # (torch: real matrices only)
        a = xp.swapaxes(a, -1, -2)
    lu, pivots, _ = K.lu_factor(xp, a)
    diag = xp.diagonal(lu, 0, -2, -1)
    swaps = (pivots != xp.arange(1, pivots.shape[-1] + 1, dtype=np.int32)).sum(axis=-1)
    sign = xp.where(swaps % 2 == 1, -1, 1).astype(a.dtype)
    return xp.prod(diag, axis=-1), sign, diag


@declare("linalg_det", "LinalgDetBackward0", ("A",), saves={"A": "A", "result": "A"},
         check=_square_float("linalg.det", "lu_cpu", complex_ok=True), layout="strided",
         method="det",
         function="det")
def det_op(xp, a):
    prod, sign, _ = _lu_det(xp, a)
    return _c_order(xp, xp.asarray(prod * sign))


@det_op.def_backward
def det_backward(ctx, grad):
    """``grad * conj(det(A)) * A^{-H}``: zeros where ``A`` is singular, as torch's LU solve
    of a zero right-hand side gives."""
    return (_inverse_h_scaled(ctx.A, grad * _conj(ctx.result)),)


def _inverse_h_scaled(A, scale):
    """``scale * A^{-H}`` (``scale``: one number per matrix), as a solve against ``A^H``."""
    return apply(solve_ex_op, _mH(A), _diag_embed(scale.unsqueeze(-1).expand(
        *scale.shape, A.shape[-1])))[0]


def det(A):
    """torch.linalg.det (and torch.det, Tensor.det): the determinant, from an LU factorization."""
    return apply(det_op, A)


@declare("linalg_slogdet", "LinalgSlogdetBackward0", ("A",), saves={"A": "A", "sign": "A"},
         outputs=("sign", "logabsdet"), check=_square_float("linalg.slogdet"),
         layout="strided", function="slogdet", method="slogdet")
def slogdet_op(xp, a):
    _, sign, diag = _lu_det(xp, a)
    sign = sign * xp.prod(xp.sign(diag), axis=-1)
    logabsdet = xp.sum(xp.log(xp.abs(diag)), axis=-1)
    return _c_order(xp, xp.asarray(sign)), _c_order(xp, xp.asarray(logabsdet))


@slogdet_op.def_backward
def slogdet_backward(ctx, grads):
    """``(g_logabsdet - i Im(conj(g_sign) sign)) A^{-H}`` (the sign of a real determinant is
    constant: no gradient)."""
    g_sign, g_log = grads
    A = ctx.A
    if A.is_complex() and g_sign is not None:
        turn = (g_sign.conj() * ctx.sign).imag * -1j
        g_log = turn if g_log is None else g_log + turn
    if g_log is None:
        return (None,)
    return (_inverse_h_scaled(A, g_log),)


def slogdet(A, legacy=False):
    """torch.linalg.slogdet (``legacy``: torch.slogdet's named tuple): (the determinant's
    sign, the log of its absolute value)."""
    return (_SLOGDET_LEGACY if legacy else _SLOGDET)(*apply(slogdet_op, A))


def logdet(A):
    """torch.logdet: the log of the determinant; NaN where it is negative."""
    _square_float("logdet")(A)
    sign, logabsdet = apply(slogdet_op, A)
    if A.is_complex():
        return sign.log() + logabsdet
    nan = A.new_full((), float("nan"))
    return apply(where_op, sign == -1, nan, logabsdet)


# -- inverse and solve ----------------------------------------------------------------------------

def _lu_solve_left(xp, a, b):
    """(``a^{-1} b``, info) by LAPACK's ``gesv``: an LU factorization and two triangular
    solves."""
    lu, pivots, info = K.lu_factor(xp, a)
    return K.lu_solve(xp, lu, pivots, b), info


@declare("linalg_inv_ex", "LinalgInvExBackward0", ("A",), saves={"inverse": "A"},
         outputs=("inverse", "info"), check=_square_float("linalg.inv"), layout="strided")
def inv_ex_op(xp, a):
    eye_ = xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype), a.shape)
    x, info = _lu_solve_left(xp, a, eye_)
    return _fortran(xp, x), _c_order(xp, info)


@inv_ex_op.def_backward
def inv_ex_backward(ctx, grads):
    """``-A^{-T} grad A^{-T}``."""
    grad = grads[0]
    if grad is None:
        return (None,)
    inverse_h = _mH(ctx.inverse)
    return (-matmul(inverse_h, matmul(grad, inverse_h)),)


def inv_ex(A, check_errors=False):
    """torch.linalg.inv_ex: (the inverse, LAPACK's info: 0, or the index of a zero pivot)."""
    inverse, info = apply(inv_ex_op, A)
    if check_errors:
        _raise_inv(info, "linalg.inv_ex")
    return _INV_EX(inverse, info)


def _raise_inv(info, fn="linalg.inv"):
    failed = _first_failure(info)
    if failed:
        prefix, index = failed
        raise LinAlgError(f"{fn}: {prefix}The diagonal element {index} is zero, the "
                          f"inversion could not be completed because the input matrix is "
                          f"singular.")


def inv(A):
    """torch.linalg.inv (torch.inverse, Tensor.inverse); LinAlgError for a singular matrix."""
    inverse, info = apply(inv_ex_op, A)
    _raise_inv(info)
    return inverse


def _is_vector_rhs(A, B):
    a, b = A._data.shape, B._data.shape
    return len(b) == 1 or (len(b) == len(a) - 1 and b == a[:-1])


def _check_solve(A, B, left=True, fn="linalg.solve"):
    _check_square(fn, A)
    _check_floating(fn, A)
    if B._data.dtype != A._data.dtype:
        raise RuntimeError(f"{fn}: Expected A and B to have the same dtype, but found A of type "
                           f"{_scalar_name(A)} and B of type {_scalar_name(B)} instead")
    n = A._data.shape[-1]
    vector = _is_vector_rhs(A, B)
    shape = (B._data.shape[-1], 1) if vector else B._data.shape[-2:]
    if shape[0 if left else 1] != n:
        raise RuntimeError(f"{fn}: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and "
                           f"{shape[0]}x{shape[1]})")
    lead_b = B._data.shape[:-1] if vector else B._data.shape[:-2]
    broadcast_shapes(lead_b, A._data.shape[:-2])
    if A._data.dtype not in _SOLVER_DTYPES:
        _check_kernel("lu_cpu", A)


@declare("linalg_solve_ex", "LinalgSolveExBackward0", ("A", "B"),
         saves={"A": ("A", "B"), "result": "A"}, outputs=("result", "info"),
         check=_check_solve, layout="strided")
def solve_ex_op(xp, a, b, left=True):
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    if vector:
        b = b[..., None]
    if not left:  # X A = B is A^T X^T = B^T
        a, b = xp.swapaxes(a, -1, -2), xp.swapaxes(b, -1, -2)
    x, info = _lu_solve_left(xp, a, b)
    if vector:
        return _fortran(xp, x[..., 0]), _c_order(xp, info)
    if not left:
        return _c_order(xp, xp.swapaxes(x, -1, -2)), _c_order(xp, info)
    return _fortran(xp, x), _c_order(xp, info)


@solve_ex_op.def_backward
def solve_ex_backward(ctx, grads):
    """``gB = A^{-T} grad`` (``grad A^{-T}`` on the right), ``gA = -gB X^T``
    (``-X^T gB``)."""
    grad = grads[0]
    if grad is None:
        return None, None
    A, left = ctx.A, ctx.attrs.get("left", True)
    g_b = apply(solve_ex_op, _mH(A), grad, **({} if left else {"left": False}))[0]
    need_a, need_b = ctx.needs_input_grad
    g_a = None
    if need_a:
        X = ctx.result
        if X.dim() == A.dim() - 1 or X.dim() == 1:  # a vector right-hand side
            g_a = -g_b.unsqueeze(-1) * _mH(X.unsqueeze(-1))
        else:
            g_a = -matmul(g_b, _mH(X)) if left else -matmul(_mH(X), g_b)
    return g_a, g_b if need_b else None


def solve_ex(A, B, *, left=True, check_errors=False):
    """torch.linalg.solve_ex: (the solution of ``A X = B`` (``X A = B``), LAPACK's info)."""
    result, info = apply(solve_ex_op, A, B, **({} if left else {"left": False}))
    if check_errors:
        _raise_solve(info, "torch.linalg.solve_ex")
    return _SOLVE_EX(result, info)


def _raise_solve(info, fn="torch.linalg.solve"):
    failed = _first_failure(info)
    if failed:
        raise LinAlgError(f"{fn}: {failed[0]}The solver failed because the input "
                          f"matrix is singular.")


def solve(A, B, *, left=True):
    """torch.linalg.solve: ``X`` with ``A X = B`` (``X A = B`` for ``left=False``)."""
    result, info = apply(solve_ex_op, A, B, **({} if left else {"left": False}))
    _raise_solve(info)
    return result


# -- LU -------------------------------------------------------------------------------------------

def _check_lu(fn):
    def check(a, pivot=True):
        if a._data.ndim < 2:
            raise RuntimeError(f"{fn}: Expected tensor with 2 or more dimensions. Got size: "
                               f"[{', '.join(map(str, a.shape))}] instead")
        _check_kernel("lu_cpu", a, complex_ok=True)
        if not pivot:
            raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on "
                               "the CPU")
    return check


@declare("linalg_lu_factor_ex", "LinalgLuFactorExBackward0", ("A",),
         saves={"LU": "A", "pivots": "A"}, outputs=("LU", "pivots", "info"),
         check=_check_lu("torch.lu_factor"), layout="strided")
def lu_factor_ex_op(xp, a, pivot=True):
    lu, pivots, info = K.lu_factor(xp, a)
    return _fortran(xp, lu), _c_order(xp, pivots), _c_order(xp, info)


def _lu_grad(g_l, g_u, P, L, U):
    """torch's linalg_lu_backward: the gradient of ``A = P L U`` for those of ``L`` and
    ``U`` (square, wide and tall)."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        g = matmul(_mH(L), g_l).tril(-1) if g_l is not None else None
        if g_u is not None:
            term = matmul(g_u, _mH(U)).triu()
            g = term if g is None else g + term
        g = solve_triangular(_mH(U), g, upper=False, left=False)
        g = solve_triangular(_mH(L), g, upper=True, unitriangular=True)
    elif m < n:
        u1 = U.narrow(-1, 0, k)
        g = matmul(_mH(L), g_l) if g_l is not None else None
        if g_u is not None:
            term = matmul(g_u.triu(), _mH(U))
            g = -term if g is None else g - term
        g = solve_triangular(_mH(u1), g.tril(-1), upper=False, left=False)
        if g_u is not None:
            g = cat([g + g_u.narrow(-1, 0, k).triu(), g_u.narrow(-1, k, n - k)], -1)
        g = solve_triangular(_mH(L), g, upper=True, unitriangular=True)
        if g_u is None:
            g = cat([g, zeros_like(U.narrow(-1, k, n - k))], -1)
    else:
        l1 = L.narrow(-2, 0, k)
        g = matmul(g_u, _mH(U)) if g_u is not None else None
        if g_l is not None:
            term = matmul(_mH(L), g_l.tril(-1))
            g = -term if g is None else g - term
        g = solve_triangular(_mH(l1), g.triu(), upper=True, unitriangular=True)
        if g_l is not None:
            g = cat([g + g_l.narrow(-2, 0, k).tril(-1), g_l.narrow(-2, k, m - k)], -2)
        g = solve_triangular(_mH(U), g, upper=False, left=False)
        if g_l is None:
            g = cat([g, zeros_like(L.narrow(-2, k, m - k))], -2)
    return matmul(P, g)


@lu_factor_ex_op.def_backward
def lu_factor_ex_backward(ctx, grads):
    g_lu = grads[0]
    if g_lu is None:
        return (None,)
    P, L, U = apply(lu_unpack_op, ctx.LU, ctx.pivots)
    m, n = g_lu.shape[-2:]
    k = min(m, n)
    g_l = g_lu.narrow(-1, 0, k).tril(-1)
    g_u = g_lu.narrow(-2, 0, k).triu()
    return (_lu_grad(g_l, g_u, P, L, U),)


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """torch.linalg.lu_factor_ex: (LAPACK's packed LU, 1-based int32 pivots, info)."""
    lu_, pivots, info = apply(lu_factor_ex_op, A, **({} if pivot else {"pivot": False}))
    if check_errors:
        _raise_lu(info, "torch.linalg.lu_factor_ex")
    return _LU_FACTOR_EX(lu_, pivots, info)


def lu_factor(A, *, pivot=True):
    """torch.linalg.lu_factor: (packed LU, pivots); an error where ``U`` has a zero on its
    diagonal."""
    lu_, pivots, info = apply(lu_factor_ex_op, A, **({} if pivot else {"pivot": False}))
    _raise_lu(info, "torch.linalg.lu_factor")
    return _LU_FACTOR(lu_, pivots)


def _raise_lu(info, fn):
    failed = _first_failure(info)
    if failed:
        prefix, i = failed
        raise RuntimeError(f"{fn}: {prefix}U[{i},{i}] is zero and using it on "
                           f"lu_solve would result in a division by zero. If you still want to "
                           f"perform the factorization, consider calling linalg.lu(A, pivot) or "
                           f"linalg.lu_factor_ex(A, pivot)")


_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, "
    "pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\nLU, "
    "pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2073.)")


def lu_legacy(A, pivot=True, get_infos=False):
    """torch.lu (deprecated): (LU, pivots), with ``info`` for ``get_infos``."""
    warn_once(_LU_DEPRECATED, stacklevel=4)
    lu_, pivots, info = apply(lu_factor_ex_op, A, **({} if pivot else {"pivot": False}))
    return _LU_WITH_INFO(lu_, pivots, info) if get_infos else (lu_, pivots)


@declare("linalg_lu", "LinalgLuBackward0", ("A",), saves={"P": "A", "L": "A", "U": "A"},
         outputs=("P", "L", "U"), check=_check_lu("linalg.lu"), layout="strided")
def lu_op(xp, a, pivot=True):
    lu_, pivots, _ = K.lu_factor(xp, a)
    return tuple(_c_order(xp, x) for x in K.lu_unpack(xp, lu_, pivots))


@lu_op.def_backward
def lu_backward(ctx, grads):
    _, g_l, g_u = grads
    return (_lu_grad(g_l, g_u, ctx.P, ctx.L, ctx.U),)


def lu(A, *, pivot=True):
    """torch.linalg.lu: ``A = P L U``, ``L`` unit lower triangular, ``U`` upper triangular."""
    P, L, U = apply(lu_op, A, **({} if pivot else {"pivot": False}))
    return _LU(_constant(P), L, U)


def _check_lu_unpack(lu_, pivots, unpack_data=True, unpack_pivots=True):
    if lu_._data.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                           f"size: [{', '.join(map(str, lu_.shape))}] instead")
    if unpack_pivots:
        if pivots._data.dtype != np.int32:
            raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor "
                               "of torch.int32 dtype.\nNote: this function is intended to be used "
                               "with the output produced by torch.linalg.lu_factor")
        data = np.asarray(pivots._backend.to_host(pivots._data))
        if data.size and (data.min() < 1 or data.max() > lu_._data.shape[-2]):
            raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                               "inclusive.Did you properly pass the result of lu_factor?")


@declare("lu_unpack", "LuUnpackBackward0", ("LU_data", "LU_pivots"),
         outputs=("P", "L", "U"), check=_check_lu_unpack, layout="strided", function="lu_unpack")
def lu_unpack_op(xp, lu_, pivots, unpack_data=True, unpack_pivots=True):
    return tuple(_c_order(xp, x) for x in K.lu_unpack(xp, lu_, pivots, unpack_data,
                                                      unpack_pivots))


@lu_unpack_op.def_backward
def lu_unpack_backward(ctx, grads):
    _, g_l, g_u = grads
    m, n = ctx.input_meta[0][0][-2:]
    k = min(m, n)
    parts = []
    if g_l is not None:
        g = g_l.tril(-1)
        parts.append(cat([g, zeros_like(g).narrow(-1, 0, 1).expand(
            *g.shape[:-1], n - k)], -1) if n > k else g)
    if g_u is not None:
        g = g_u.triu()
        parts.append(cat([g, zeros_like(g).narrow(-2, 0, 1).expand(
            *g.shape[:-2], m - k, n)], -2) if m > k else g)
    return (parts[0] if len(parts) == 1 else parts[0] + parts[1]), None


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):  # noqa: N803
    """torch.lu_unpack: (P, L, U) from ``lu_factor``'s packed result."""
    attrs = {k: False for k, v in (("unpack_data", unpack_data),
                                   ("unpack_pivots", unpack_pivots)) if not v}
    P, L, U = apply(lu_unpack_op, LU_data, LU_pivots, **attrs)
    return _LU_UNPACK(_constant(P), L, U)


def _check_lu_solve(lu_, pivots, b, left=True, adjoint=False):
    fn = "linalg.lu_solve"
    _check_dims(fn, lu_, "LU")
    _check_square(fn, lu_, "LU")
    _check_dims(fn, b, "B")
    n = lu_._data.shape[-1]
    if b._data.shape[-2 if left else -1] != n:
        raise RuntimeError(f"{fn}: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and "
                           f"{'x'.join(map(str, b._data.shape[-2:]))})")
    if b._data.dtype != lu_._data.dtype:
        raise RuntimeError(f"{fn}: Expected LU and B to have the same dtype, but found LU of type "
                           f"{_scalar_name(lu_)} and B of type {_scalar_name(b)} instead")
    if pivots._data.shape[-1:] != (n,):
        raise RuntimeError(f"{fn}: Number of pivots per batch should be same as the dimension "
                           f"of the matrix")
    if pivots._data.dtype != np.int32:
        raise RuntimeError(f"{fn}: pivots should be a Tensor of scalar type torch.int32")
    if pivots._data.shape != lu_._data.shape[:-1]:
        raise RuntimeError(f"{fn}: Expected LU.shape[:-1] and pivots.shape to be the same, but "
                           f"got pivots with shape [{', '.join(map(str, pivots.shape))}] instead")
    broadcast_shapes(b._data.shape[:-2], lu_._data.shape[:-2])


@declare("linalg_lu_solve", "LinalgLuSolveBackward0", ("LU", "pivots", "B"),
         saves={"LU": ("LU", "B"), "pivots": ("LU", "B"), "result": "LU"},
         check=_check_lu_solve, layout="strided")
def lu_solve_op(xp, lu_, pivots, b, left=True, adjoint=False):
    if left:
        return _fortran(xp, K.lu_solve(xp, lu_, pivots, b, adjoint))
    # X A = B is A^H conj(X)^T = conj(B)^T (X A^H = B: A conj(X)^T = conj(B)^T)
    x = K.lu_solve(xp, lu_, pivots, xp.conj(xp.swapaxes(b, -1, -2)), not adjoint)
    return _c_order(xp, xp.conj(xp.swapaxes(x, -1, -2)))


@lu_solve_op.def_backward
def lu_solve_backward(ctx, grad):
    """``gB`` solves the adjoint system; ``gA`` (of ``A = P L U``, as a solve's) reaches the
    packed factors as ``(P^T gA U^T).tril(-1) + (L^T P^T gA).triu()``."""
    attrs = ctx.attrs
    left, adjoint = attrs.get("left", True), attrs.get("adjoint", False)
    need_lu, _, need_b = ctx.needs_input_grad
    g_b = apply(lu_solve_op, ctx.LU, ctx.pivots, grad, left=left, adjoint=not adjoint)
    g_lu = None
    if need_lu:
        X = ctx.result
        if left:
            g_a = -matmul(X, _mH(g_b)) if adjoint else -matmul(g_b, _mH(X))
        else:
            g_a = -matmul(_mH(g_b), X) if adjoint else -matmul(_mH(X), g_b)
        P, L, U = apply(lu_unpack_op, ctx.LU, ctx.pivots)
        p_g = matmul(_mH(P), g_a)
        g_lu = matmul(p_g, _mH(U)).tril(-1) + matmul(_mH(L), p_g).triu()
    return g_lu, None, g_b if need_b else None


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):  # noqa: N803 - torch's names
    """torch.linalg.lu_solve: ``X`` with ``A X = B`` from ``A``'s ``lu_factor``."""
    attrs = {k: v for k, v in (("left", left), ("adjoint", adjoint)) if v != (k == "left")}
    return apply(lu_solve_op, LU, pivots, B, **attrs)


_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
    "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, "
    "pivots, B) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2230.)")


def lu_solve_legacy(b, LU_data, LU_pivots):  # noqa: N803 - torch's names
    """torch.lu_solve (deprecated): ``linalg.lu_solve(LU_data, LU_pivots, b)``."""
    warn_once(_LU_SOLVE_DEPRECATED, stacklevel=4)
    return apply(lu_solve_op, LU_data, LU_pivots, b)
