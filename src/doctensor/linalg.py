"""``torch.linalg``: linear algebra functions, each naming an op declared in ``ops/``."""

# -- products and norms (D1) --
from .ops import linalg as _products


def matmul(input, other):
    return _products.matmul(input, other)


def multi_dot(tensors):
    return _products.multi_dot(list(tensors))


def cross(input, other, *, dim=-1):
    return _products.linalg_cross(input, other, dim)


def vecdot(x, y, *, dim=-1):
    return _products.vecdot(x, y, dim)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return A.diagonal(offset, dim1, dim2)


def vander(x, *, N=None):
    return _products.linalg_vander(x, N)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    return _products.linalg_vector_norm(x, ord, dim, keepdim, dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    return _products.matrix_norm(A, ord, dim, keepdim, dtype, svdvals)  # (svdvals: below)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    return _products.linalg_norm(A, ord, dim, keepdim, dtype, svdvals)


# -- decompositions (D2) --
from .ops import decompositions as _dec  # noqa: E402

LinAlgError = _dec.LinAlgError


def det(A):
    return _dec.det(A)


def slogdet(A):
    return _dec.slogdet(A)


def inv(A):
    return _dec.inv(A)


def inv_ex(A, *, check_errors=False):
    return _dec.inv_ex(A, check_errors)


def solve(A, B, *, left=True):
    return _dec.solve(A, B, left=left)


def solve_ex(A, B, *, left=True, check_errors=False):
    return _dec.solve_ex(A, B, left=left, check_errors=check_errors)


def cholesky(A, *, upper=False):
    return _dec.cholesky(A, upper=upper)


def cholesky_ex(A, *, upper=False, check_errors=False):
    return _dec.cholesky_ex(A, upper=upper, check_errors=check_errors)


def qr(A, mode="reduced"):
    return _dec.qr(A, mode)


def svd(A, full_matrices=True, *, driver=None):
    return _dec.svd(A, full_matrices, driver=driver)


def svdvals(A, *, driver=None):
    return _dec.svdvals(A, driver=driver)


def eigh(A, UPLO="L"):  # noqa: N803 - torch's argument name
    return _dec.eigh(A, UPLO)


def eigvalsh(A, UPLO="L"):  # noqa: N803 - torch's argument name
    return _dec.eigvalsh(A, UPLO)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    return _dec.pinv(A, rcond, hermitian, atol=atol, rtol=rtol)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    return _dec.matrix_rank(A, tol, hermitian, atol=atol, rtol=rtol)


def matrix_power(A, n):
    return _dec.matrix_power(A, n)


def matrix_exp(A):
    return _dec.matrix_exp(A)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    return _dec.solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)


def lu_factor(A, *, pivot=True):
    return _dec.lu_factor(A, pivot=pivot)


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    return _dec.lu_factor_ex(A, pivot=pivot, check_errors=check_errors)


def lu(A, *, pivot=True):
    return _dec.lu(A, pivot=pivot)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):  # noqa: N803 - torch's names
    return _dec.lu_solve(LU, pivots, B, left=left, adjoint=adjoint)


def cond(A, p=None):
    return _dec.cond(A, p)


def lstsq(A, B, rcond=None, *, driver=None):
    return _dec.lstsq(A, B, rcond, driver=driver)


def tensorinv(A, ind=2):
    return _dec.tensorinv(A, ind)


def tensorsolve(A, B, dims=None):
    return _dec.tensorsolve(A, B, dims)


def eig(A):
    return _dec.eig(A)


def eigvals(A):
    return _dec.eigvals(A)


def householder_product(A, tau):
    return _dec.householder_product(A, tau)


def ldl_factor(A, *, hermitian=False):
    return _dec.ldl_factor(A, hermitian=hermitian)


def ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    return _dec.ldl_factor_ex(A, hermitian=hermitian, check_errors=check_errors)


def ldl_solve(LD, pivots, B, *, hermitian=False):  # noqa: N803 - torch's names
    return _dec.ldl_solve(LD, pivots, B, hermitian=hermitian)
