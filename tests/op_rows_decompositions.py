"""The op table's rows for the decompositions and solvers (``ops/decompositions.py``).

Tolerances (Note [LAPACK results] in ``ops/_lapack.py``): torch's CPU kernels are MKL's
LAPACK; doctensor runs the same algorithms (LAPACK's unblocked ones, or NumPy's LAPACK), with
other blockings and orders of summation, so values agree to a few ulps times the condition
number, not bit for bit.  Every row comes twice (``_pair``): float32 within ``rtol = atol =
1e-4`` and float64 within ``1e-9`` (the inputs are well conditioned: diagonally dominant or
``x x^T + I``; gradients multiply the condition numbers of a few solves).  Printed reprs are
not compared (the 4th decimal may round the other way).

Sign and phase freedom: QR has LAPACK's Householder signs in both libraries (compared as they
are); singular and eigenvectors are compared after making each vector's first entry
non-negative (``_signs``; complex ones: real, ``_phase_free``), which keeps every loss of them
well defined, so gradients compare.

Complex matrices (``_complex``: the table draws real inputs) are taken by det, slogdet,
logdet, inv, solve, the triangular and Cholesky solves, LU, QR, SVD, eigh, eig, pinv and
matrix_exp; the other ops refuse them (doctensor has no complex version of them yet).
"""

from op_table import OpInfo

__all__ = ["ROWS"]

SQUARE = [(3, 3), (2, 3, 3), ((4, 4), "T"), (0, 3, 3), (1, 1)]
# (a pointwise op on an empty tensor, as the sign fixes multiply, gives contiguous strides in
# doctensor where torch keeps the operand's: those rows leave the empty batch out)
NONEMPTY = [s for s in SQUARE if s != (0, 3, 3)]
TALL_WIDE = [(4, 3), (3, 5), (2, 4, 3), ((3, 4), "T")]
SOLVE = [((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 2)), ((3, 3), (2, 3, 4)), ((2, 3, 3), (3,)),
         ((2, 3, 3), (2, 3)), (((3, 3), "T"), ((3, 2), "T")), ((0, 3, 3), (0, 3, 1))]
F32, F64 = ("float32",), ("float64",)


def _pair(record, name, fn, samples=None, **kw):
    """The float32 and float64 rows of one case (tolerances: the module docstring)."""
    samples = SQUARE if samples is None else samples
    return [OpInfo(record, name, fn, samples, dtypes=F32, rtol=1e-4, atol=1e-4, reprs=False,
                   domain=(-1.0, 1.0), **kw),
            OpInfo(record, name, fn, samples, dtypes=F64, rtol=1e-9, atol=1e-9, reprs=False,
                   domain=(-1.0, 1.0), **kw)]


def _error(record, name, fn, samples=((3, 3),), dtypes=("float32",), **kw):
    """A row of bad input: torch's error, word for word."""
    return OpInfo(record, name, fn, list(samples), dtypes=dtypes, grad=False, **kw)


def _eye(T, x):
    return T.eye(x.shape[-1], dtype=x.dtype, device=x.device)


def _dominant(T, x):
    """A well-conditioned matrix made from ``x`` (entries in [-1, 1]): diagonally dominant."""
    m, n = x.shape[-2:]
    return x + T.eye(m, n, dtype=x.dtype, device=x.device) * max(m, n)


def _spd(T, x):
    """A symmetric positive-definite matrix made from ``x``."""
    return x @ x.mT + _eye(T, x)


def _signs(T, v):
    """Singular or eigenvectors (columns) with a non-negative first entry each."""
    return v * T.where(v[..., :1, :] < 0, -1.0, 1.0).to(v.dtype)


def _svd(T, x, full):
    U, S, Vh = T.linalg.svd(x, full_matrices=full)
    k = S.shape[-1]
    s = T.where(U[..., :1, :k] < 0, -1.0, 1.0).to(x.dtype)
    return U[..., :k] * s, S, Vh[..., :k, :] * s.mT


def _self(T, x):
    return (x,), {}


DETERMINANTS = [
    *_pair("LinalgDetBackward0", "linalg_det", lambda T, x: T.linalg.det(_dominant(T, x))),
    *_pair("LinalgDetBackward0", "det", lambda T, x: T.det(x), [(3, 3), (2, 2, 2)],
           variants=_self),
    *_pair("LinalgDetBackward0", "det_method", lambda T, x: (x.mT * 2).det()),
    _error("LinalgDetBackward0", "det_vector", lambda T, x: T.linalg.det(x[0])),
    _error("LinalgDetBackward0", "det_rect", lambda T, x: T.det(x), [(3, 4)]),
    _error("LinalgDetBackward0", "det_int", lambda T, x: T.det(x), dtypes=("int64",)),
    _error("LinalgDetBackward0", "det_half", lambda T, x: T.det(x), dtypes=("float16",)),
    # torch's gradient at a singular matrix is zeros (LU solves of zeros skip the zero
    # pivots, as BLAS's trsm does), signs of zeros included
    OpInfo("LinalgDetBackward0", "det_singular",
           lambda T, x: (T.linalg.det(T.stack([x[0], x[0] * 2, x[1]])),
                         T.det(T.stack([x[0] * 0, x[1], x[2]])),
                         T.det(T.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=x.dtype,
                                        requires_grad=True))),
           [(3, 3)], dtypes=("float64",)),
    *_pair("LinalgSlogdetBackward0", "slogdet",
           lambda T, x: T.linalg.slogdet(_dominant(T, x) - _eye(T, x) * 6)),
    *_pair("LinalgSlogdetBackward0", "slogdet_legacy", lambda T, x: T.slogdet(x.mT),
           [(3, 3), (2, 3, 3)], variants=_self),
    *_pair("LinalgSlogdetBackward0", "slogdet_method", lambda T, x: _dominant(T, x).slogdet()),
    _error("LinalgSlogdetBackward0", "slogdet_rect", lambda T, x: T.linalg.slogdet(x), [(2, 3)]),
    _error("LinalgSlogdetBackward0", "slogdet_half", lambda T, x: T.linalg.slogdet(x),
           dtypes=("float16",)),
    *_pair("WhereBackward0", "logdet", lambda T, x: (T.logdet(_dominant(T, x)),
                                                      T.logdet(-_dominant(T, x)))),
    *_pair("WhereBackward0", "logdet_method", lambda T, x: _spd(T, x).logdet()),
    _error("WhereBackward0", "logdet_int", lambda T, x: T.logdet(x), dtypes=("int64",)),
]

INVERSES = [
    *_pair("LinalgInvExBackward0", "inv", lambda T, x: T.linalg.inv(_dominant(T, x))),
    *_pair("LinalgInvExBackward0", "inverse", lambda T, x: (T.inverse(_dominant(T, x)),
                                                             _dominant(T, x).inverse())),
    *_pair("LinalgInvExBackward0", "inv_ex", lambda T, x: T.linalg.inv_ex(_dominant(T, x))),
    OpInfo("LinalgInvExBackward0", "inv_ex_singular",
           lambda T, x: T.linalg.inv_ex(T.stack([x[0], x[0], x[1]])).info, [(3, 3)], grad=False),
    _error("LinalgInvExBackward0", "inv_singular",
           lambda T, x: T.linalg.inv(T.stack([x[0], x[1], x[1]]))),
    _error("LinalgInvExBackward0", "inv_singular_batch",
           lambda T, x: T.linalg.inv(T.stack([_dominant(T, x), x * 0])), [(2, 2)]),
    _error("LinalgInvExBackward0", "inv_ex_checked",
           lambda T, x: T.linalg.inv_ex(x * 0, check_errors=True)),
    _error("LinalgInvExBackward0", "inv_rect", lambda T, x: T.inverse(x), [(2, 3)]),
    _error("LinalgInvExBackward0", "inv_half", lambda T, x: T.linalg.inv(x),
           dtypes=("float16",)),
    _error("LinalgInvExBackward0", "inv_int", lambda T, x: T.linalg.inv(x), dtypes=("int32",)),
    *_pair("LinalgSolveExBackward0", "solve",
           lambda T, x, b: T.linalg.solve(_dominant(T, x), b), SOLVE),
    *_pair("LinalgSolveExBackward0", "solve_ex",
           lambda T, x, b: T.linalg.solve_ex(_dominant(T, x), b), SOLVE[:3]),
    *_pair("LinalgSolveExBackward0", "solve_right",
           lambda T, x, b: T.linalg.solve(_dominant(T, x), b.mT, left=False), SOLVE[:3]),
    _error("LinalgSolveExBackward0", "solve_singular",
           lambda T, x, b: T.linalg.solve(x * 0, b), [((2, 3, 3), (3, 1))]),
    _error("LinalgSolveExBackward0", "solve_shapes",
           lambda T, x, b: T.linalg.solve(x, b), [((3, 3), (2, 2)), ((3, 3), (2,)),
                                                  ((2, 3, 3), (3, 3, 2))]),
    _error("LinalgSolveExBackward0", "solve_right_vector",
           lambda T, x, b: T.linalg.solve(x, b, left=False), [((3, 3), (3,))]),
    _error("LinalgSolveExBackward0", "solve_dtypes",
           lambda T, x, b: T.linalg.solve(x, b.double()), [((3, 3), (3, 2))]),
]

CHOLESKY = [
    *_pair("LinalgCholeskyExBackward0", "cholesky", lambda T, x: T.linalg.cholesky(_spd(T, x))),
    *_pair("LinalgCholeskyExBackward0", "cholesky_upper",
           lambda T, x: T.linalg.cholesky(_spd(T, x), upper=True)),
    *_pair("LinalgCholeskyExBackward0", "cholesky_ex",
           lambda T, x: T.linalg.cholesky_ex(_spd(T, x))),
    # only the lower triangle is read (the upper one for upper=True)
    *_pair("LinalgCholeskyExBackward0", "cholesky_triangle",
           lambda T, x: (T.linalg.cholesky(_spd(T, x).tril()),
                         T.linalg.cholesky(_spd(T, x).triu(), upper=True)), [(3, 3)]),
    OpInfo("LinalgCholeskyExBackward0", "cholesky_ex_info",
           lambda T, x: T.linalg.cholesky_ex(_spd(T, x) - _eye(T, x) * 50).info,
           [(3, 3), (2, 3, 3)], dtypes=("float64",), grad=False),
    _error("LinalgCholeskyExBackward0", "cholesky_not_pd",
           lambda T, x: T.linalg.cholesky(-_spd(T, x)), [(3, 3), (2, 3, 3)]),
    _error("LinalgCholeskyExBackward0", "cholesky_ex_checked",
           lambda T, x: T.linalg.cholesky_ex(-_spd(T, x), upper=True, check_errors=True)),
    _error("LinalgCholeskyExBackward0", "cholesky_int", lambda T, x: T.linalg.cholesky(x),
           dtypes=("int64",)),
    _error("LinalgCholeskyExBackward0", "cholesky_half", lambda T, x: T.linalg.cholesky(x),
           dtypes=("float16",)),
    *_pair("CholeskyBackward0", "cholesky_legacy",
           lambda T, x: (T.cholesky(_spd(T, x)), _spd(T, x).cholesky(upper=True)), [(3, 3)]),
    _error("CholeskyBackward0", "cholesky_legacy_errors",
           lambda T, x: T.cholesky(-_spd(T, x)), [(3, 3), (2, 3, 3)]),
    _error("CholeskyBackward0", "cholesky_legacy_int", lambda T, x: T.cholesky(x),
           dtypes=("int64",)),
    *_pair("CholeskyInverseBackward0", "cholesky_inverse",
           lambda T, x: (T.cholesky_inverse(_dominant(T, x).tril()),
                         T.cholesky_inverse(_dominant(T, x).triu(), upper=True)),
           variants=_self),
    _error("CholeskyInverseBackward0", "cholesky_inverse_rect",
           lambda T, x: T.cholesky_inverse(x), [(2, 3), (3,)]),
]

QR_SVD_EIGH = [
    *_pair("LinalgQrBackward0", "qr", lambda T, x: T.linalg.qr(x), SQUARE + TALL_WIDE),
    *_pair("LinalgQrBackward0", "qr_complete", lambda T, x: T.linalg.qr(x, mode="complete"),
           [(3, 3), (3, 5), (2, 3, 4)]),
    *_pair("LinalgQrBackward0", "qr_r", lambda T, x: T.linalg.qr(x, mode="r"), [(4, 3)],
           grad=False),
    *_pair("LinalgQrBackward0", "qr_legacy",
           lambda T, x: (T.qr(x), x.qr(some=False)), [(3, 3), (3, 4)]),
    _error("LinalgQrBackward0", "qr_mode", lambda T, x: T.linalg.qr(x, mode="full")),
    _error("LinalgQrBackward0", "qr_r_backward",
           lambda T, x: T.linalg.qr(x.requires_grad_(), mode="r")[1].sum().backward()),
    _error("LinalgQrBackward0", "qr_complete_backward",
           lambda T, x: T.linalg.qr(x.requires_grad_(), mode="complete")[0].sum().backward(),
           [(4, 3)]),
    _error("LinalgQrBackward0", "qr_int", lambda T, x: T.linalg.qr(x), dtypes=("int64",)),
    *_pair("LinalgSvdBackward0", "svd", lambda T, x: _svd(T, x, False), NONEMPTY + TALL_WIDE),
    *_pair("LinalgSvdBackward0", "svd_full", lambda T, x: _svd(T, x, True), TALL_WIDE),
    *_pair("LinalgSvdBackward0", "svdvals", lambda T, x: T.linalg.svdvals(x),
           SQUARE + TALL_WIDE),
    *_pair("LinalgSvdBackward0", "svd_legacy",
           lambda T, x: T.svd(x).S, [(3, 4), (2, 4, 3)]),
    _error("LinalgSvdBackward0", "svd_errors", lambda T, x: T.linalg.svd(x), [(3,)]),
    _error("LinalgSvdBackward0", "svd_int", lambda T, x: T.linalg.svdvals(x),
           dtypes=("int64",)),
    _error("LinalgSvdBackward0", "svd_driver", lambda T, x: T.linalg.svd(x, driver="gesvd")),
    *_pair("LinalgEighBackward0", "eigh",
           lambda T, x: (lambda r: (r[0], _signs(T, r[1])))(T.linalg.eigh(x + x.mT)), NONEMPTY),
    *_pair("LinalgEighBackward0", "eigh_upper",
           lambda T, x: (lambda r: (r[0], _signs(T, r[1])))(T.linalg.eigh(x, UPLO="U")),
           [(3, 3)]),
    *_pair("LinalgEighBackward0", "eigvalsh", lambda T, x: T.linalg.eigvalsh(x + x.mT)),
    _error("LinalgEighBackward0", "eigh_errors", lambda T, x: T.linalg.eigh(x), [(3, 2), (3,)]),
    _error("LinalgEighBackward0", "eigh_uplo", lambda T, x: T.linalg.eigvalsh(x, UPLO="X")),
    _error("LinalgEighBackward0", "eigh_int", lambda T, x: T.linalg.eigh(x), dtypes=("int64",)),
]

PINV_POWERS = [
    *_pair("LinalgPinvBackward0", "pinv", lambda T, x: T.linalg.pinv(_dominant(T, x)),
           SQUARE + TALL_WIDE),
    *_pair("LinalgPinvBackward0", "pinv_hermitian",
           lambda T, x: T.linalg.pinv(_spd(T, x), hermitian=True)),
    *_pair("LinalgPinvBackward0", "pinverse",
           lambda T, x: (T.pinverse(_dominant(T, x)), _dominant(T, x).pinverse()),
           TALL_WIDE),
    # a rank-deficient matrix: its smallest singular value is dropped
    *_pair("LinalgPinvBackward0", "pinv_rank",
           lambda T, x: T.linalg.pinv(T.stack([x[0], x[1], x[0] + x[1]]), atol=1e-3),
           [(3, 3)], grad=False),
    _error("LinalgPinvBackward0", "pinv_errors", lambda T, x: T.linalg.pinv(x),
           [(3,), ()], dtypes=("float32", "int64")),
    OpInfo(None, "matrix_rank",
           lambda T, x: (T.linalg.matrix_rank(x), T.linalg.matrix_rank(x[..., :1, :] * x),
                         T.linalg.matrix_rank(x, hermitian=True), T.linalg.matrix_rank(x, 0.5),
                         T.linalg.matrix_rank(x, atol=1.0, rtol=0.1)),
           [(3, 3), (2, 4, 4)], dtypes=("float32", "float64")),
    _error(None, "matrix_rank_errors", lambda T, x: T.linalg.matrix_rank(x), [(3,), (3, 3)],
           dtypes=("int64",)),
    *_pair("MmBackward0", "matrix_power",
           lambda T, x: [T.linalg.matrix_power(x, n) for n in (2, 3, 4, 5, 6, 7)],
           [(3, 3), ((3, 3), "T")]),
    *_pair("LinalgInvExBackward0", "matrix_power_negative",
           lambda T, x: [T.linalg.matrix_power(_dominant(T, x), n) for n in (-1, -2, -5)]),
    *_pair("CopyBackwards", "matrix_power_0",
           lambda T, x: (T.linalg.matrix_power(x, 0), x.matrix_power(1)), SQUARE),
    _error(None, "matrix_power_errors", lambda T, x: T.linalg.matrix_power(x, 2),
           [(3, 2), (3,)]),
    OpInfo("MmBackward0", "matrix_power_int", lambda T, x: T.matrix_power(x, 3), [(3, 3)],
           dtypes=("int64",)),
    *_pair("LinalgMatrixExpBackward0", "matrix_exp",
           lambda T, x: (T.linalg.matrix_exp(x), T.matrix_exp(x * 3), (x.mT * 0.1).matrix_exp()),
           SQUARE, variants=_self),
    _error("LinalgMatrixExpBackward0", "matrix_exp_errors", lambda T, x: T.matrix_exp(x),
           [(3, 2), (2,)]),
    _error("LinalgMatrixExpBackward0", "matrix_exp_int", lambda T, x: T.matrix_exp(x),
           dtypes=("int64",)),
    *_pair("SqueezeBackward1", "cond",
           lambda T, x: (T.linalg.cond(_dominant(T, x)), T.linalg.cond(x, 2),
                         T.linalg.cond(_dominant(T, x), -2)), [(3, 3), (2, 3, 3), (3, 4)]),
    _error(None, "cond_vector", lambda T, x: T.linalg.cond(x), [(3,)]),
    *_pair("NanToNumBackward0", "cond_norms",
           lambda T, x: [T.linalg.cond(_dominant(T, x), p)
                         for p in (1, -1, float("inf"), -float("inf"), "fro")],
           [(3, 3), (2, 3, 3)], grad=False),
    # torch's own backward fails here (masked_fill_ writes the saved inverse): so does ours
    # (on the CPU: the message names the tensor type, torch.cuda.FloatTensor on CUDA)
    _error("NanToNumBackward0", "cond_norms_backward",
           lambda T, x: T.linalg.cond(x.requires_grad_(), "fro").backward(), devices=("cpu",)),
    OpInfo("NanToNumBackward0", "cond_singular",
           lambda T, x: [T.linalg.cond(x * 0, p) for p in (None, 1, "fro", "nuc")], [(3, 3)],
           dtypes=("float32",), grad=False),
    *_pair("MulBackward0", "cond_nuc", lambda T, x: T.linalg.cond(_dominant(T, x), "nuc")),
    OpInfo(None, "cond_empty", lambda T, x: [T.linalg.cond(x, p) for p in (None, 1, "fro")],
           [(0, 0), (2, 0, 0)], dtypes=("float32",)),
    _error(None, "cond_errors", lambda T, x: T.linalg.cond(x, "foo"), [(3, 3)]),
    _error(None, "cond_errors_ord", lambda T, x: T.linalg.cond(x, 3), [(3, 3)]),
    _error(None, "cond_errors_square",
           lambda T, x: (T.linalg.cond(x, -1), T.linalg.cond(x, float("inf"))), [(3, 4)]),
    _error(None, "cond_errors_fro", lambda T, x: T.linalg.cond(x, "nuc"), [(3, 4), (3, 0)]),
]

LEAST_SQUARES = [
    *_pair("LinalgLstsqBackward0", "lstsq",
           lambda T, x, b: T.linalg.lstsq(_dominant(T, x), b),
           [((5, 3), (5, 2)), ((3, 5), (3, 2)), ((2, 4, 3), (4, 2)), ((4, 3), (4,)),
            ((2, 4, 3), (2, 4))]),
    *_pair("LinalgLstsqBackward0", "lstsq_drivers",
           lambda T, x, b: [T.linalg.lstsq(_dominant(T, x), b, driver=d)
                            for d in ("gels", "gelsd", "gelss")],
           [((5, 3), (5, 2)), ((2, 5, 3), (5,))], grad=False),
    _error("LinalgLstsqBackward0", "lstsq_errors", lambda T, x, b: T.linalg.lstsq(x, b),
           [((5, 3), (4, 2)), ((5, 3), (4,)), ((5, 3), ()), ((3,), (3,)),
            ((5, 3), (2, 2, 5, 1))]),
    _error("LinalgLstsqBackward0", "lstsq_dtypes", lambda T, x, b: T.linalg.lstsq(x, b.double()),
           [((5, 3), (5, 2))]),
    _error("LinalgLstsqBackward0", "lstsq_driver",
           lambda T, x, b: T.linalg.lstsq(x, b, driver="qr"), [((5, 3), (5, 2))]),
    _error("LinalgLstsqBackward0", "lstsq_int", lambda T, x, b: T.linalg.lstsq(x, b),
           [((5, 3), (5, 2))], dtypes=("int64",)),
    *_pair("ReshapeAliasBackward0", "tensorinv",
           lambda T, x: (T.linalg.tensorinv(_dominant(T, x.reshape(6, 6)).reshape(2, 3, 6), 2),
                         T.linalg.tensorinv(_dominant(T, x.reshape(6, 6)), ind=1)), [(4, 9)]),
    _error(None, "tensorinv_errors",
           lambda T, x: (T.linalg.tensorinv(x, 1)), [(3, 4), (2, 2, 4)]),
    _error(None, "tensorinv_ind", lambda T, x: T.linalg.tensorinv(x, 0)),
    _error(None, "tensorinv_singular", lambda T, x: T.linalg.tensorinv(x * 0, 1)),
    *_pair("ViewBackward0", "tensorsolve",
           lambda T, x, b: (T.linalg.tensorsolve(_dominant(T, x).reshape(2, 3, 3, 2), b),
                            T.linalg.tensorsolve(_dominant(T, x).reshape(6, 2, 3), b.flatten(),
                                                 dims=(0,))),
           [((6, 6), (2, 3))]),
    _error(None, "tensorsolve_errors", lambda T, x, b: T.linalg.tensorsolve(x, b),
           [((6, 4), (6,))]),
    *_pair("CholeskySolveBackward0", "cholesky_solve",
           lambda T, b, x: (T.cholesky_solve(b, _dominant(T, x).tril()),
                            b.cholesky_solve(_dominant(T, x).triu(), upper=True)),
           [((3, 2), (3, 3)), ((2, 3, 4), (3, 3)), (((3, 2), "T"), (2, 3, 3))],
           variants=lambda T, b, x: ((b, x), {})),
    _error("CholeskySolveBackward0", "cholesky_solve_errors",
           lambda T, b, x: T.cholesky_solve(b, x),
           [((3, 2), (3,)), ((3,), (3, 3)), ((2, 2), (3, 3)), ((3, 2), (3, 4))]),
    _error("CholeskySolveBackward0", "cholesky_solve_dtypes",
           lambda T, b, x: T.cholesky_solve(b, x.double()), [((3, 2), (3, 3)), ((2, 2), (3, 4))]),
    _error("CholeskySolveBackward0", "cholesky_solve_int",
           lambda T, b, x: T.cholesky_solve(b, x), [((3, 2), (3, 3))], dtypes=("int64",)),
]

TRIANGULAR = [
    *_pair("LinalgSolveTriangularBackward0", "solve_triangular",
           lambda T, x, b: (T.linalg.solve_triangular(_dominant(T, x).triu(), b, upper=True),
                            T.linalg.solve_triangular(_dominant(T, x).tril(), b, upper=False,
                                                      unitriangular=True)),
           [((3, 3), (3, 2)), ((2, 3, 3), (3, 4)), (((3, 3), "T"), ((3, 2), "T"))]),
    *_pair("LinalgSolveTriangularBackward0", "solve_triangular_right",
           lambda T, x, b: T.linalg.solve_triangular(_dominant(T, x), b, upper=True, left=False),
           [((3, 3), (2, 3)), ((2, 3, 3), (4, 3))]),
    _error("LinalgSolveTriangularBackward0", "solve_triangular_errors",
           lambda T, x, b: T.linalg.solve_triangular(x, b, upper=True),
           [((3, 3), (2, 2)), ((3, 3), (3,)), ((3,), (3, 1)), ((3, 4), (3, 1))]),
    _error("LinalgSolveTriangularBackward0", "solve_triangular_int",
           lambda T, x, b: T.linalg.solve_triangular(x, b, upper=False), [((3, 3), (3, 2))],
           dtypes=("int64",)),
    *_pair("TriangularSolveBackward0", "triangular_solve",
           lambda T, b, x: (T.triangular_solve(b, _dominant(T, x).triu()),
                            b.triangular_solve(_dominant(T, x).tril(), upper=False,
                                               transpose=True),
                            T.triangular_solve(b, _dominant(T, x), unitriangular=True)),
           [((3, 2), (3, 3)), ((2, 3, 4), (2, 3, 3))]),
    _error("TriangularSolveBackward0", "triangular_solve_errors",
           lambda T, b, x: T.triangular_solve(b, x), [((3,), (3, 3)), ((3, 2), (3, 4)),
                                                      ((2, 2), (3, 3)), ((3, 2), (3,))]),
    _error("TriangularSolveBackward0", "triangular_solve_dtypes",
           lambda T, b, x: T.triangular_solve(b, x.double()), [((3, 2), (3, 3)), ((2, 2), (3, 4))]),
    _error("TriangularSolveBackward0", "triangular_solve_int",
           lambda T, b, x: T.triangular_solve(b, x), [((3, 2), (3, 3))], dtypes=("int64",)),
]

LU = [
    *_pair("LinalgLuFactorExBackward0", "lu_factor",
           lambda T, x: T.linalg.lu_factor(x), SQUARE + TALL_WIDE),
    *_pair("LinalgLuFactorExBackward0", "lu_factor_ex",
           lambda T, x: T.linalg.lu_factor_ex(x), [(3, 3), (2, 3, 3)]),
    *_pair("LinalgLuFactorExBackward0", "lu_legacy",
           lambda T, x: (T.lu(x), x.lu(get_infos=True)), [(3, 3), (2, 3, 4)]),
    OpInfo("LinalgLuFactorExBackward0", "lu_factor_singular",
           lambda T, x: T.linalg.lu_factor_ex(T.stack([x[0], x[0] * 2, x[1]])), [(3, 3)],
           dtypes=("float64",), grad=False),
    _error("LinalgLuFactorExBackward0", "lu_factor_errors",
           lambda T, x: T.linalg.lu_factor(T.stack([x, x * 0])), [(2, 2), (3,)]),
    _error("LinalgLuFactorExBackward0", "lu_factor_pivot",
           lambda T, x: T.linalg.lu_factor(x, pivot=False)),
    _error("LinalgLuFactorExBackward0", "lu_factor_int", lambda T, x: T.linalg.lu_factor(x),
           dtypes=("int64",)),
    *_pair("LinalgLuBackward0", "lu", lambda T, x: T.linalg.lu(x), SQUARE + TALL_WIDE),
    _error("LinalgLuBackward0", "lu_errors", lambda T, x: T.linalg.lu(x), [(3,)]),
    *_pair("LuUnpackBackward0", "lu_unpack",
           lambda T, x: T.lu_unpack(*T.linalg.lu_factor(x)), SQUARE + TALL_WIDE,
           variants=lambda T, x: (tuple(T.linalg.lu_factor(x)), {})),
    *_pair("LuUnpackBackward0", "lu_unpack_parts",
           lambda T, x: (T.lu_unpack(*T.linalg.lu_factor(x), unpack_data=False),
                         T.lu_unpack(*T.linalg.lu_factor(x), unpack_pivots=False)), [(3, 4)],
           grad=False),
    _error("LuUnpackBackward0", "lu_unpack_errors",
           lambda T, x: T.lu_unpack(x, T.linalg.lu_factor(x).pivots.long())),
    _error("LuUnpackBackward0", "lu_unpack_pivots",
           lambda T, x: T.lu_unpack(x, T.linalg.lu_factor(x).pivots * 5)),
    *_pair("LinalgLuSolveBackward0", "lu_solve",
           lambda T, x, b: (T.linalg.lu_solve(*T.linalg.lu_factor(_dominant(T, x)), b),
                            T.linalg.lu_solve(*T.linalg.lu_factor(_dominant(T, x)), b,
                                              adjoint=True)),
           [((3, 3), (3, 2)), ((2, 3, 3), (3, 4)), (((3, 3), "T"), (2, 3, 2))]),
    *_pair("LinalgLuSolveBackward0", "lu_solve_right",
           lambda T, x, b: (T.linalg.lu_solve(*T.linalg.lu_factor(_dominant(T, x)), b.mT,
                                              left=False),
                            T.linalg.lu_solve(*T.linalg.lu_factor(_dominant(T, x)), b.mT,
                                              left=False, adjoint=True)),
           [((3, 3), (3, 2)), ((2, 3, 3), (3, 4))]),
    *_pair("LinalgLuSolveBackward0", "lu_solve_legacy",
           lambda T, x, b: (T.lu_solve(b, *T.lu(_dominant(T, x))),
                            b.lu_solve(*T.linalg.lu_factor(_dominant(T, x)))),
           [((3, 3), (3, 2))]),
    _error("LinalgLuSolveBackward0", "lu_solve_errors",
           lambda T, x, b: T.linalg.lu_solve(*T.linalg.lu_factor(x), b),
           [((3, 3), (2, 2)), ((3, 3), (3,)), ((3, 3), (2, 3, 2))]),
    _error("LinalgLuSolveBackward0", "lu_solve_dtypes",
           lambda T, x, b: T.linalg.lu_solve(T.linalg.lu_factor(x).LU, b.int(), b),
           [((3, 3), (3, 2)), ((3, 3), (3, 3))]),
    _error("LinalgLuSolveBackward0", "lu_solve_pivots",
           lambda T, x, b: T.linalg.lu_solve(T.linalg.lu_factor(x).LU, b.int().mT, b),
           [((3, 3), (3, 2))]),
]

def _complex(T, x, y):
    """A complex matrix of ``x`` and ``y`` (the op table draws real inputs)."""
    return T.complex(x, y)


def _hermitian_pd(T, x, y):
    """A Hermitian positive-definite matrix: ``x x^T + n I`` plus ``i`` times a small
    antisymmetric one."""
    return _complex(T, _dominant(T, x @ x.mT), (y - y.mT) * 0.5)


def _lu_solves(T, a, b):
    """``a``'s four LU solves of ``b``: on the left and right, with ``a`` or its adjoint."""
    factors = T.linalg.lu_factor(a)
    return [T.linalg.lu_solve(*factors, b if left else b.mT, left=left, adjoint=adjoint)
            for left in (True, False) for adjoint in (False, True)]


def _phase_free(T, v):
    """Singular or eigenvectors with each column's phase taken out (what a loss torch can
    differentiate may depend on)."""
    return v * (v[..., :1, :].conj() / v[..., :1, :].abs())


EIG_COMPLEX = [
    *_pair("LinalgEigBackward0", "eig",
           lambda T, x: (lambda r: (r.eigenvalues, r.eigenvectors.abs(),
                                     _phase_free(T, r.eigenvectors)))(T.linalg.eig(x)),
           [(3, 3), (2, 4, 4), ((3, 3), "T"), (1, 1)]),
    *_pair("LinalgEigBackward0", "eigvals", lambda T, x: T.linalg.eigvals(x),
           [(3, 3), (2, 4, 4), (0, 3, 3)]),
    *_pair("LinalgEigBackward0", "eig_symmetric",
           lambda T, x: T.linalg.eig(x + x.mT).eigenvalues.real, [(3, 3)]),
    _error("LinalgEigBackward0", "eig_errors", lambda T, x: T.linalg.eig(x), [(3, 2), (3,)],
           dtypes=("float32", "int64", "float16")),
    _error("LinalgEigBackward0", "eigvals_errors", lambda T, x: T.linalg.eigvals(x),
           [(3, 2), (3,)], dtypes=("float32", "int64")),
    # the loss depends on the eigenvectors' phases: torch refuses to differentiate it
    _error("LinalgEigBackward0", "eig_phase",
           lambda T, x: T.linalg.eig(x.requires_grad_()).eigenvectors.real.sum().backward()),
    *_pair("LinalgDetBackward0", "det_complex",
           lambda T, x, y: (T.linalg.det(_complex(T, x, y)),
                            T.linalg.slogdet(_complex(T, x, y)), T.logdet(_complex(T, x, y))),
           [((3, 3), (3, 3)), ((2, 4, 4), (2, 4, 4))]),
    *_pair("LinalgCholeskyExBackward0", "cholesky_complex",
           lambda T, x, y: (lambda a: (T.linalg.cholesky(a), T.linalg.cholesky(a, upper=True)))(
               _hermitian_pd(T, x, y)),
           [((3, 3), (3, 3)), ((2, 4, 4), (2, 4, 4))]),
    *_pair("LinalgSolveTriangularBackward0", "solve_triangular_complex",
           lambda T, x, y, b: T.linalg.solve_triangular(_complex(T, _dominant(T, x), y).triu(),
                                                        _complex(T, b, b), upper=True),
           [((3, 3), (3, 3), (3, 2))]),
    *_pair("LinalgQrBackward0", "qr_complex",
           lambda T, x, y: T.linalg.qr(_complex(T, x, y)), [((4, 3), (4, 3)), ((3, 5), (3, 5))]),
    *_pair("LinalgSvdBackward0", "svd_complex",
           lambda T, x, y: (lambda r: (_phase_free(T, r.U), r.S, _phase_free(T, r.Vh.mH)))(
               T.linalg.svd(_complex(T, x, y), full_matrices=False)),
           [((4, 3), (4, 3)), ((3, 5), (3, 5))]),
    *_pair("LinalgEighBackward0", "eigh_complex",
           lambda T, x, y: (lambda r: (r.eigenvalues, _phase_free(T, r.eigenvectors)))(
               T.linalg.eigh(_complex(T, x, y) + _complex(T, x, y).mH)), [((3, 3), (3, 3))]),
    *_pair("LinalgPinvBackward0", "pinv_complex",
           lambda T, x, y: T.linalg.pinv(_complex(T, _dominant(T, x), y)),
           [((4, 3), (4, 3)), ((3, 5), (3, 5))]),
    *_pair("LinalgLuFactorExBackward0", "lu_factor_complex",
           lambda T, x, y: T.linalg.lu_factor(_complex(T, x, y)),
           [((3, 3), (3, 3)), ((3, 5), (3, 5)), ((2, 4, 3), (2, 4, 3))]),
    *_pair("LinalgLuBackward0", "lu_complex",
           lambda T, x, y: T.linalg.lu(_complex(T, x, y))[1:],
           [((3, 3), (3, 3)), ((4, 3), (4, 3))]),
    *_pair("LinalgLuSolveBackward0", "lu_solve_complex",
           lambda T, x, y, b: _lu_solves(T, _complex(T, _dominant(T, x), y), _complex(T, b, b)),
           [((3, 3), (3, 3), (3, 2))]),
    *_pair("LinalgMatrixExpBackward0", "matrix_exp_complex",
           lambda T, x, y: T.linalg.matrix_exp(_complex(T, x, y)),
           [((3, 3), (3, 3)), ((2, 3, 3), (2, 3, 3))]),
    *_pair("CholeskyInverseBackward0", "cholesky_inverse_complex",
           lambda T, x, y: (lambda L: (T.cholesky_inverse(L),
                                       T.cholesky_inverse(L.mH, upper=True)))(
               T.linalg.cholesky(_hermitian_pd(T, x, y))), [((3, 3), (3, 3))]),
    *_pair("CholeskySolveBackward0", "cholesky_solve_complex",
           lambda T, x, y, b: (lambda L: (T.cholesky_solve(_complex(T, b, b), L),
                                          T.cholesky_solve(_complex(T, b, b), L.mH, upper=True)))(
               T.linalg.cholesky(_hermitian_pd(T, x, y))), [((3, 3), (3, 3), (3, 2))]),
    _error("LinalgSvdBackward0", "svd_complex_phase",
           lambda T, x, y: T.linalg.svd(_complex(T, x, y).requires_grad_()).U.real.sum()
           .backward(), [((3, 3), (3, 3))]),
    *_pair("LinalgInvExBackward0", "inv_complex",
           lambda T, x, y: T.linalg.inv(_complex(T, _dominant(T, x), y)).abs(),
           [((3, 3), (3, 3)), ((2, 3, 3), (2, 3, 3))]),
    *_pair("LinalgSolveExBackward0", "solve_complex",
           lambda T, x, y, b: T.linalg.solve(_complex(T, _dominant(T, x), y),
                                             _complex(T, b, b)).abs(),
           [((3, 3), (3, 3), (3, 2)), ((2, 3, 3), (2, 3, 3), (3,))]),
]

HOUSEHOLDER = [
    *_pair("GeqrfBackward0", "geqrf", lambda T, x: (T.geqrf(x), x.geqrf()), SQUARE + TALL_WIDE,
           grad=False, variants=_self),
    _error("GeqrfBackward0", "geqrf_backward",
           lambda T, x: T.geqrf(x.requires_grad_()).a.sum().backward()),
    _error("GeqrfBackward0", "geqrf_errors", lambda T, x: T.geqrf(x), [(3,)],
           dtypes=("float32", "int64")),
    *_pair("LinalgHouseholderProductBackward0", "householder_product",
           lambda T, x, t: (T.linalg.householder_product(x, t), T.orgqr(x, t[..., :1])),
           [((4, 3), (3,)), ((3, 3), (2,)), ((2, 5, 2), (2, 2)), (((4, 3), "T"), (2,))],
           variants=lambda T, x, t: ((x, t), {})),
    *_pair("LinalgHouseholderProductBackward0", "householder_product_of_geqrf",
           lambda T, x: T.linalg.householder_product(*T.geqrf(x.detach())), [(4, 3), (3, 3)],
           grad=False),
    _error("LinalgHouseholderProductBackward0", "householder_product_errors",
           lambda T, x, t: T.linalg.householder_product(x, t),
           [((3, 4), (3,)), ((4, 2), (3,)), ((4, 3), (2, 3)), ((3,), (3,))],
           dtypes=("float32", "int64")),
    _error("LinalgHouseholderProductBackward0", "householder_product_dtypes",
           lambda T, x, t: T.linalg.householder_product(x, t.double()), [((4, 3), (3,))]),
    *_pair("OrmqrBackward0", "ormqr",
           lambda T, x, t, c: (T.ormqr(x, t, c), x.ormqr(t, c, transpose=True),
                               T.ormqr(x, t, c.mT, left=False),
                               T.ormqr(x, t, c.mT, left=False, transpose=True)),
           [((4, 3), (3,), (4, 2)), ((3, 3), (3,), (3, 3)), ((2, 4, 2), (2, 2), (2, 4, 3)),
            ((3, 4), (3,), (3, 2))],
           variants=lambda T, x, t, c: ((x, t, c), {})),
    _error("OrmqrBackward0", "ormqr_errors", lambda T, x, t, c: T.ormqr(x, t, c),
           [((4, 3), (3,), (3, 2)), ((4, 3), (4,), (4, 2)), ((3,), (3,), (3, 2)),
            ((4, 3), (2,), (4, 2)), ((2, 4, 2), (2, 2), (4, 3))]),
    _error("OrmqrBackward0", "ormqr_errors_right",
           lambda T, x, t, c: T.ormqr(x, t, c, left=False), [((4, 3), (3,), (4, 2))]),
    _error("OrmqrBackward0", "ormqr_dtypes",
           lambda T, x, t, c: T.ormqr(x, t, c.double()), [((4, 3), (3,), (4, 2))]),
]

def _indefinite(T, x):
    """A symmetric matrix with a small diagonal: Bunch-Kaufman takes 2x2 pivots."""
    return (x + x.mT) * (1 - _eye(T, x) * 0.99)


LDL = [
    # the factors' values; their backward is torch's error (no derivative)
    *_pair("linalg_ldl_factor_ex", "ldl_factor",
           lambda T, x: (T.linalg.ldl_factor(x + x.mT), T.linalg.ldl_factor_ex(_indefinite(T, x)),
                         T.linalg.ldl_factor(_spd(T, x), hermitian=True)),
           [(3, 3), (2, 4, 4), (5, 5), ((4, 4), "T"), (0, 3, 3)], grad=False),
    _error("linalg_ldl_factor_ex", "ldl_factor_backward",
           lambda T, x: T.linalg.ldl_factor(x.requires_grad_() + x.mT).LD.sum().backward()),
    OpInfo("linalg_ldl_factor_ex", "ldl_factor_singular",
           lambda T, x: T.linalg.ldl_factor_ex(x * 0), [(3, 3), (2, 2, 2)], dtypes=F32,
           grad=False),
    _error("linalg_ldl_factor_ex", "ldl_factor_errors", lambda T, x: T.linalg.ldl_factor(x),
           [(3, 2), (3,)], dtypes=("float32", "int64", "float16")),
    _error("linalg_ldl_factor_ex", "ldl_factor_zero",
           lambda T, x: T.linalg.ldl_factor(x * 0), [(3, 3), (2, 3, 3)]),
    *_pair("linalg_ldl_solve", "ldl_solve",
           lambda T, x, b: T.linalg.ldl_solve(*T.linalg.ldl_factor(_indefinite(T, x)), b),
           [((3, 3), (3, 2)), ((2, 4, 4), (4, 1)), ((4, 4), (2, 4, 3))], grad=False),
    _error("linalg_ldl_solve", "ldl_solve_backward",
           lambda T, x, b: T.linalg.ldl_solve(*T.linalg.ldl_factor(x + x.mT),
                                              b.requires_grad_()).sum().backward(),
           [((3, 3), (3, 2))]),
    _error("linalg_ldl_solve", "ldl_solve_errors",
           lambda T, x, b: T.linalg.ldl_solve(*T.linalg.ldl_factor(x + x.mT), b),
           [((3, 3), (2, 2)), ((3, 3), (3,))]),
    _error("linalg_ldl_solve", "ldl_solve_pivots",
           lambda T, x, b: (T.linalg.ldl_solve(x, T.linalg.ldl_factor(x + x.mT).pivots[:2], b),
                            T.linalg.ldl_solve(x, b[:, 0], b)), [((3, 3), (3, 2))]),
    _error("linalg_ldl_solve", "ldl_solve_dtypes",
           lambda T, x, b: T.linalg.ldl_solve(*T.linalg.ldl_factor(x + x.mT), b.double()),
           [((3, 3), (3, 2))]),
]

REMOVED = [
    _error(None, "removed", lambda T, x: T.eig(x)),
    _error(None, "removed_lstsq", lambda T, x: x.lstsq(x)),
    _error(None, "removed_solve", lambda T, x: T.solve(x, x)),
    _error(None, "removed_matrix_rank", lambda T, x: T.matrix_rank(x)),
]

ROWS = (DETERMINANTS + INVERSES + CHOLESKY + QR_SVD_EIGH + PINV_POWERS + LEAST_SQUARES + TRIANGULAR
        + LU + EIG_COMPLEX + HOUSEHOLDER + LDL + REMOVED)
