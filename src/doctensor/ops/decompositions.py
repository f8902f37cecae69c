"""Linear-algebra decompositions and solvers, the family of ``torch.linalg`` beyond products
and norms.  Its records live in private modules, by what they are built on:

- ``_lu.py``: determinants, inverses, solves and the LU factorization;
- ``_triangular.py``: triangular solves and the Cholesky factorization;
- ``_orthogonal.py``: QR and Householder reflectors, SVD, eigen-decompositions, pinv, lstsq;
- ``_matrix_functions.py``: matrix_exp, matrix_power, matrix_rank, cond, tensorinv,
  tensorsolve, svd_lowrank, pca_lowrank;
- ``_linalg_common.py``: LinAlgError, the named tuples, torch's checks and layouts;
- ``_lapack.py``: the array kernels NumPy lacks (Note [LAPACK results]).

Each record's forward runs a LAPACK algorithm on arrays and lays its results out as torch
does (C-contiguous batches of column-major matrices where LAPACK wrote them); each backward is
torch's formula written in doctensor ops, so higher derivatives work.  The ``_ex`` forms
return LAPACK's ``info``; the others raise torch's ``LinAlgError`` from it.
"""

from ._linalg_common import LinAlgError
from ._lu import (
    det,
    inv,
    inv_ex,
    logdet,
    lu,
    lu_factor,
    lu_factor_ex,
    lu_legacy,
    lu_solve,
    lu_solve_legacy,
    lu_unpack,
    slogdet,
    solve,
    solve_ex,
)
from ._matrix_functions import (
    cond,
    matrix_exp,
    matrix_power,
    matrix_rank,
    pca_lowrank,
    svd_lowrank,
    tensorinv,
    tensorsolve,
)
from ._orthogonal import (
    eig,
    eigh,
    eigvals,
    eigvalsh,
    geqrf,
    householder_product,
    lstsq,
    ormqr,
    pinv,
    pinverse,
    qr,
    qr_legacy,
    svd,
    svd_legacy,
    svdvals,
)
from ._triangular import (
    cholesky,
    cholesky_ex,
    cholesky_inverse,
    cholesky_legacy,
    cholesky_solve,
    ldl_factor,
    ldl_factor_ex,
    ldl_solve,
    solve_triangular,
    triangular_solve,
)

__all__ = ["LinAlgError", "det", "slogdet", "logdet", "inv_ex", "inv", "solve_ex", "solve",
           "cholesky_ex", "cholesky", "cholesky_legacy", "cholesky_inverse", "cholesky_solve",
           "solve_triangular", "triangular_solve", "lu_factor_ex", "lu_factor", "lu",
           "lu_legacy", "lu_unpack", "lu_solve", "lu_solve_legacy", "qr", "qr_legacy", "svd",
           "svdvals", "svd_legacy", "eigh", "eigvalsh", "eig", "eigvals", "pinv", "pinverse",
           "lstsq", "geqrf", "householder_product", "ormqr", "matrix_rank", "matrix_power",
           "matrix_exp", "cond", "tensorinv", "tensorsolve", "svd_lowrank", "pca_lowrank",
           "ldl_factor", "ldl_factor_ex", "ldl_solve", "removed"]


# -- functions torch 2.13 has removed -------------------------------------------------------------

_REMOVED = {
    "eig": "This function was deprecated since version 1.9 and is now removed. "
           "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than "
           "real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced "
           "with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
           "eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
           "torch.linalg.eig(A)",
    "lstsq": "This function was deprecated since version 1.9 and is now removed. `torch.lstsq` is "
             "deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has reversed "
             "arguments and does not return the QR decomposition in the returned tuple (although "
             "it returns other information about the problem).\n\nTo get the QR decomposition "
             "consider using `torch.linalg.qr`.\n\nThe returned solution in `torch.lstsq` stored "
             "the residuals of the solution in the last m - n columns of the returned value "
             "whenever m > n. In torch.linalg.lstsq, the residuals are in the field 'residuals' "
             "of the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = "
             "torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\nX = "
             "torch.linalg.lstsq(A, B).solution",
    "solve": "This function was deprecated since version 1.9 and is now removed. `torch.solve` "
             "is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its "
             "arguments reversed and does not return the LU factorization.\n\nTo get the LU "
             "factorization see `torch.lu`, which can be used with `torch.lu_solve` or "
             "`torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced with:\nX = "
             "torch.linalg.solve(A, B)",
    "symeig": "This function was deprecated since version 1.9 and is now removed. The default "
              "behavior has changed from using the upper triangular portion of the matrix by "
              "default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, "
              "upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if "
              "upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should be "
              "replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')",
    "matrix_rank": "This function was deprecated since version 1.9 and is now removed.\nPlease "
                   "use the `torch.linalg.matrix_rank` function instead. The parameter "
                   "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.",
}


def removed(name):
    """A function torch 2.13 keeps only to say that it was removed (torch.eig, ...)."""
    def gone(*args, **kwargs):
        raise RuntimeError(_REMOVED[name])
    gone.__name__ = gone.__qualname__ = name
    gone.__doc__ = f"torch.{name}: removed since torch 1.9; raises torch's RuntimeError."
    return gone
