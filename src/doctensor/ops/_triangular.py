"""Triangular solves (``linalg.solve_triangular``, the legacy ``triangular_solve``) and the
factorizations of symmetric matrices into triangular ones: Cholesky (``linalg.cholesky(_ex)``,
the legacy ``cholesky``, ``cholesky_inverse``, ``cholesky_solve``) and LDL^T
(``linalg.ldl_factor(_ex)``, ``ldl_solve``) (Note [LAPACK results])."""

from .._strides import broadcast_shapes
from .._tensor_base import warn_once
from . import _lapack as K
from ._dispatch import apply
from ._linalg_common import (
    _CHOLESKY_EX,
    _LDL_FACTOR,
    _LDL_FACTOR_EX,
    _TRIANGULAR_SOLVE,
    LinAlgError,
    _c_order,
    _check_dims,
    _check_floating,
    _check_kernel,
    _check_square,
    _first_failure,
    _fortran,
    _mH,
    _mT,
    _scalar_name,
    _square_float,
)
from ._registry import declare
from .linalg import matmul

# -- triangular solves ----------------------------------------------------------------------------

def _check_solve_triangular(A, B, upper=False, left=True, unitriangular=False):
    fn = "linalg.solve_triangular"
    _check_dims(fn, A)
    _check_dims(fn, B, "B")
    _check_square(fn, A)
    n = A._data.shape[-1]
    if B._data.shape[-2 if left else -1] != n:
        raise RuntimeError(f"{fn}: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and "
                           f"{'x'.join(map(str, B._data.shape[-2:]))})")
    broadcast_shapes(B._data.shape[:-2], A._data.shape[:-2])
    _check_kernel("triangular_solve_cpu", A, complex_ok=True)


def _triangular(xp, a, b, upper, left, unit):
    """``a x = b`` (``x a = b``) for triangular ``a``, in ``a``'s dtype."""
    b = b.astype(a.dtype, copy=False)
    if left:
        return K.tri_solve(xp, a, b, upper, unit)
    x = K.tri_solve(xp, xp.swapaxes(a, -1, -2), xp.swapaxes(b, -1, -2), not upper, unit)
    return xp.swapaxes(x, -1, -2)


@declare("linalg_solve_triangular", "LinalgSolveTriangularBackward0", ("self", "B"),
         saves={"self": ("self", "B"), "result": "self"}, check=_check_solve_triangular,
         layout="strided")
def solve_triangular_op(xp, a, b, upper=False, left=True, unitriangular=False):
    return _fortran(xp, _triangular(xp, a, b, upper, left, unitriangular))


def _triangle(g, upper, unit):
    return g.triu(1 if unit else 0) if upper else g.tril(-1 if unit else 0)


@solve_triangular_op.def_backward
def solve_triangular_backward(ctx, grad):
    attrs = ctx.attrs
    upper, left = attrs.get("upper", False), attrs.get("left", True)
    unit = attrs.get("unitriangular", False)
    g_b = solve_triangular(_mH(ctx.self), grad, upper=not upper, left=left, unitriangular=unit)
    need_a, need_b = ctx.needs_input_grad
    g_a = None
    if need_a:
        X = ctx.result
        g_a = _triangle(-matmul(g_b, _mH(X)) if left else -matmul(_mH(X), g_b), upper, unit)
    return g_a, g_b if need_b else None


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """torch.linalg.solve_triangular: ``X`` with ``A X = B`` (``X A = B``), ``A`` triangular."""
    attrs = {"upper": upper}
    if not left:
        attrs["left"] = False
    if unitriangular:
        attrs["unitriangular"] = True
    return apply(solve_triangular_op, A, B, **attrs)


def _check_triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    for t, name in ((b, "b"), (A, "A")):
        if t._data.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 "
                               f"dimensions, but it has {t._data.ndim} dimensions instead")
    _check_linear_solve(b, A, "triangular_solve")
    _check_kernel("triangular_solve_cpu", A)


def _check_linear_solve(b, A, fn):
    """torch's linearSolveCheckInputs: the dtypes, ``A`` square, the sizes, the batches."""
    if b._data.dtype != A._data.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_scalar_name(b)} and A of type {_scalar_name(A)} instead.")
    m, n = A._data.shape[-2:]
    if m != n:
        raise RuntimeError(f"A must be batches of square matrices, but they are {m} by {n} "
                           f"matrices")
    if b._data.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for {fn}: each A matrix is {n} by {n} "
                           f"but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    broadcast_shapes(b._data.shape[:-2], A._data.shape[:-2])


@declare("triangular_solve", "TriangularSolveBackward0", ("self", "A"),
         saves={"self": "A", "A": ("self", "A"), "solution": "A"},
         outputs=("solution", "cloned_coefficient"), check=_check_triangular_solve,
         layout="strided")
def triangular_solve_op(xp, b, a, upper=True, transpose=False, unitriangular=False):
    if transpose:
        x = K.tri_solve(xp, xp.swapaxes(a, -1, -2), b, not upper, unitriangular)
    else:
        x = K.tri_solve(xp, a, b, upper, unitriangular)
    return _fortran(xp, x), _fortran(xp, xp.broadcast_to(a, x.shape[:-2] + a.shape[-2:]))


@triangular_solve_op.def_backward
def triangular_solve_backward(ctx, grads):
    g_x, g_m = grads
    attrs = ctx.attrs
    upper, transpose = attrs.get("upper", True), attrs.get("transpose", False)
    unit = attrs.get("unitriangular", False)
    need_b, need_a = ctx.needs_input_grad
    g_b = g_a = None
    if g_x is not None:
        g_b = apply(triangular_solve_op, g_x, ctx.A, upper=upper, transpose=not transpose,
                    unitriangular=unit)[0]
        if need_a:
            X = ctx.solution
            g_a = _triangle(-matmul(X, _mT(g_b)) if transpose else -matmul(g_b, _mT(X)),
                            upper, unit)
    if need_a and g_m is not None:
        g_a = g_m if g_a is None else g_a + g_m
    return g_b if need_b else None, g_a


_TRIANGULAR_SOLVE_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B). (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2273.)")


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """torch.triangular_solve (deprecated): (the solution of ``A X = b``, a copy of ``A``)."""
    warn_once(_TRIANGULAR_SOLVE_DEPRECATED, stacklevel=4)
    attrs = {k: v for k, v in (("transpose", transpose), ("unitriangular", unitriangular)) if v}
    if not upper:
        attrs["upper"] = False
    return _TRIANGULAR_SOLVE(*apply(triangular_solve_op, b, A, **attrs))


# -- Cholesky -------------------------------------------------------------------------------------

def _cholesky_forward(xp, a, upper):
    """(L or U = L^H, info); ``upper`` reads ``a``'s upper triangle, as LAPACK's 'U'."""
    low, info = K.cholesky(xp, xp.conj(xp.swapaxes(a, -1, -2)) if upper else a)
    return _fortran(xp, xp.conj(xp.swapaxes(low, -1, -2)) if upper else low), info


@declare("linalg_cholesky_ex", "LinalgCholeskyExBackward0", ("self",), saves={"L": "self"},
         outputs=("L", "info"),
         check=_square_float("linalg.cholesky", "cholesky_cpu", complex_ok=True),
         layout="strided")
def cholesky_ex_op(xp, a, upper=False):
    factor, info = _cholesky_forward(xp, a, upper)
    return factor, _c_order(xp, info)


def _cholesky_grad(grad, L, upper):
    """``L^{-T} Phi(L^T grad) L^{-1}``, Phi: the lower triangle, its diagonal halved,
    made symmetric (Iain Murray, arXiv 1602.07527)."""
    if upper:
        L, grad = _mH(L), _mH(grad)
    phi = matmul(_mH(L), grad).tril()
    phi = (phi + _mH(phi.tril(-1))) * 0.5
    g = solve_triangular(_mH(L), phi, upper=True)
    return solve_triangular(L, g, upper=False, left=False)


@cholesky_ex_op.def_backward
def cholesky_ex_backward(ctx, grads):
    if grads[0] is None:
        return (None,)
    return (_cholesky_grad(grads[0], ctx.L, ctx.attrs.get("upper", False)),)


def _raise_cholesky(info, fn="linalg.cholesky"):
    failed = _first_failure(info)
    if failed:
        prefix, order = failed
        raise LinAlgError(f"{fn}: {prefix}The factorization could not be completed because the "
                          f"input is not positive-definite (the leading minor of order {order} "
                          f"is not positive-definite).")


def _upper_attr(upper):
    return {"upper": True} if upper else {}


def cholesky_ex(A, *, upper=False, check_errors=False):
    """torch.linalg.cholesky_ex: (the Cholesky factor, LAPACK's info)."""
    factor, info = apply(cholesky_ex_op, A, **_upper_attr(upper))
    if check_errors:
        _raise_cholesky(info, "linalg.cholesky_ex")
    return _CHOLESKY_EX(factor, info)


def cholesky(A, *, upper=False):
    """torch.linalg.cholesky: ``L`` with ``A = L L^T`` (``U = L^T`` for ``upper``)."""
    factor, info = apply(cholesky_ex_op, A, **_upper_attr(upper))
    _raise_cholesky(info)
    return factor


def _check_cholesky_legacy(a, upper=False):
    _check_square("cholesky", a)
    _check_kernel("cholesky_cpu", a, complex_ok=True)


@declare("cholesky", "CholeskyBackward0", ("self",), saves={"result": "self"},
         check=_check_cholesky_legacy, layout="strided")
def cholesky_legacy_op(xp, a, upper=False):
    factor, info = _cholesky_forward(xp, a, upper)
    _raise_cholesky(info, "cholesky")
    return factor


@cholesky_legacy_op.def_backward
def cholesky_legacy_backward(ctx, grad):
    return (_cholesky_grad(grad, ctx.result, ctx.attrs.get("upper", False)),)


_CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
    "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
    "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for "
    "all valid (symmetric positive definite) inputs. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:1765.)")


def cholesky_legacy(A, upper=False):
    """torch.cholesky (deprecated): the Cholesky factor, lower or ``upper``."""
    warn_once(_CHOLESKY_DEPRECATED, stacklevel=4)
    return apply(cholesky_legacy_op, A, **_upper_attr(upper))


# -- Cholesky's inverse and solve -----------------------------------------------------------------

def _check_cholesky_inverse(a, upper=False):
    _check_square("cholesky_inverse", a)
    _check_kernel("cholesky_inverse_out_cpu", a, complex_ok=True)


@declare("cholesky_inverse", "CholeskyInverseBackward0", ("self",),
         saves={"self": "self", "result": "self"}, check=_check_cholesky_inverse,
         layout="strided", method="cholesky_inverse", function="cholesky_inverse")
def cholesky_inverse_op(xp, a, upper=False):
    factor = xp.conj(xp.swapaxes(a, -1, -2)) if upper else a  # the lower factor L
    eye_ = xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype), a.shape)
    y = K.tri_solve(xp, factor, eye_, upper=False)
    return _fortran(xp, K.tri_solve(xp, xp.conj(xp.swapaxes(factor, -1, -2)), y, upper=True))


@cholesky_inverse_op.def_backward
def cholesky_inverse_backward(ctx, grad):
    inverse = ctx.result
    common = matmul(inverse, matmul(grad + _mH(grad), inverse))
    upper = ctx.attrs.get("upper", False)
    return (-matmul(ctx.self, common) if upper else -matmul(common, ctx.self),)


def cholesky_inverse(L, upper=False):  # noqa: N803 - torch's name
    """torch.cholesky_inverse: ``(L L^T)^{-1}`` from a Cholesky factor (``U^T U``)."""
    return apply(cholesky_inverse_op, L, **_upper_attr(upper))


@declare("cholesky_solve", "CholeskySolveBackward0", ("self", "input2"),
         saves={"input2": ("self", "input2"), "result": "input2"},
         check=lambda b, u, upper=False: _check_cholesky_solve(b, u), layout="strided",
         method="cholesky_solve", function="cholesky_solve")
def cholesky_solve_op(xp, b, u, upper=False):
    factor = xp.conj(xp.swapaxes(u, -1, -2)) if upper else u  # the lower factor L
    y = K.tri_solve(xp, factor, b, upper=False)
    return _fortran(xp, K.tri_solve(xp, xp.conj(xp.swapaxes(factor, -1, -2)), y, upper=True))


def _check_cholesky_solve(b, u):
    for t, name in ((b, "b"), (u, "u")):
        if t._data.ndim < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has "
                               f"{t._data.ndim} dimensions instead")
    _check_linear_solve(b, u, "cholesky_solve")
    _check_kernel("cholesky_solve_cpu", u, complex_ok=True)


@cholesky_solve_op.def_backward
def cholesky_solve_backward(ctx, grad):
    upper = ctx.attrs.get("upper", False)
    need_b, need_u = ctx.needs_input_grad
    g_b = apply(cholesky_solve_op, grad, ctx.input2, **_upper_attr(upper))
    g_u = None
    if need_u:
        common = matmul(g_b, _mH(ctx.result))
        common = common + _mH(common)
        g_u = -matmul(ctx.input2, common) if upper else -matmul(common, ctx.input2)
    return g_b if need_b else None, g_u


def cholesky_solve(B, L, upper=False):  # noqa: N803 - torch's names
    """torch.cholesky_solve: ``X`` with ``L L^T X = B`` (``U^T U X = B``)."""
    return apply(cholesky_solve_op, B, L, **_upper_attr(upper))


# -- LDL^T (Bunch-Kaufman): ldl_factor(_ex), ldl_solve --------------------------------------------

def _check_ldl_factor(a, hermitian=False):
    fn = "torch.linalg.ldl_factor_ex"
    _check_square(fn, a)
    _check_floating(fn, a)
    _check_kernel("ldl_factor_kernel_cpu", a)


@declare("linalg_ldl_factor_ex", "NotImplemented", ("self",), outputs=("LD", "pivots", "info"),
         check=_check_ldl_factor, layout="strided")
def ldl_factor_ex_op(xp, a, hermitian=False):
    """LAPACK's sytf2 (Note [Bunch-Kaufman]): a real symmetric matrix's ``hermitian`` flag
    changes nothing."""
    ld, pivots, info = K.ldl_factor(xp, a)
    return _fortran(xp, ld), _c_order(xp, pivots), _c_order(xp, info)


@ldl_factor_ex_op.def_backward
def ldl_factor_ex_backward(ctx, grads):
    raise RuntimeError("derivative for aten::linalg_ldl_factor_ex is not implemented")


def ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    """torch.linalg.ldl_factor_ex: (LD, pivots, info) of ``A = P L D L^T P^T``, ``D`` of 1x1
    and 2x2 blocks (LAPACK's compact form: ``L`` below ``D``'s diagonals)."""
    return _LDL_FACTOR_EX(*apply(ldl_factor_ex_op, A, **({"hermitian": True} if hermitian
                                                         else {})))


def ldl_factor(A, *, hermitian=False):
    """torch.linalg.ldl_factor: (LD, pivots); a singular ``D`` is an error (torch reports
    it as an internal one)."""
    ld, pivots, info = apply(ldl_factor_ex_op, A, **({"hermitian": True} if hermitian else {}))
    failed = _first_failure(info)
    if failed:
        raise RuntimeError(f'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/'
                           f'native/BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
                           f'torch.linalg.ldl_factor: Unknown error code: {failed[1]}.')
    return _LDL_FACTOR(ld, pivots)


def _check_ldl_solve(ld, pivots, b, hermitian=False):
    fn = "torch.linalg.ldl_solve"
    _check_square(fn, ld)
    if pivots._data.shape != ld._data.shape[:-1]:
        raise RuntimeError(f"{fn}: Expected LD.shape[:-1] and pivots.shape to be the same, but "
                           f"got pivots with shape [{', '.join(map(str, pivots.shape))}] instead")
    if pivots._data.dtype.kind not in "iu":
        raise RuntimeError(f"{fn}: Expected pivots to be integers. Got {_scalar_name(pivots)}")
    if b._data.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(b._data.ndim, 1)}, {max(b._data.ndim, 1) - 1}], but got -2)")
    _check_linear_solve(b, ld, fn)
    _check_kernel("ldl_solve_cpu", ld)


@declare("linalg_ldl_solve", "NotImplemented", ("LD", "pivots", "B"), check=_check_ldl_solve,
         layout="strided")
def ldl_solve_op(xp, ld, pivots, b, hermitian=False):
    return _fortran(xp, K.ldl_solve(xp, ld, pivots, b))


@ldl_solve_op.def_backward
def ldl_solve_backward(ctx, grad):
    raise RuntimeError("derivative for aten::linalg_ldl_solve is not implemented")



def ldl_solve(LD, pivots, B, *, hermitian=False):  # noqa: N803 - torch's names
    """torch.linalg.ldl_solve: ``X`` with ``A X = B`` from ``ldl_factor``'s result."""
    return apply(ldl_solve_op, LD, pivots, B, **({"hermitian": True} if hermitian else {}))
