"""The decompositions and solvers beyond the op table (tests/op_rows_decompositions.py):
the ``torch.linalg`` namespace and ``LinAlgError``, the named tuples as torch prints them,
the deprecation warnings of the legacy forms, the functions torch 2.13 removed, and second
derivatives (every backward formula is written in doctensor ops) against torch's.
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import torch
from _oracle import same_outcome

import doctensor
from doctensor._tensor_base import WARNED_ONCE

LINALG = ("LinAlgError", "cholesky", "cholesky_ex", "cond", "det", "inv", "inv_ex", "lstsq",
          "lu", "lu_factor", "lu_factor_ex", "lu_solve", "matrix_exp", "matrix_power",
          "matrix_rank", "pinv", "qr", "slogdet", "solve", "solve_ex", "solve_triangular",
          "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals", "householder_product",
          "ldl_factor", "ldl_factor_ex", "ldl_solve",
          "tensorinv", "tensorsolve")
TORCH = ("cholesky", "cholesky_inverse", "cholesky_solve", "det", "inverse", "logdet", "lu",
         "lu_solve", "lu_unpack", "matrix_exp", "matrix_power", "pinverse", "qr", "slogdet",
         "svd", "triangular_solve", "eig", "lstsq", "matrix_rank", "solve", "symeig", "geqrf",
         "orgqr", "ormqr", "svd_lowrank", "pca_lowrank")
METHODS = ("cholesky", "cholesky_inverse", "cholesky_solve", "det", "inverse", "logdet", "lu",
           "lu_solve", "matrix_exp", "matrix_power", "pinverse", "qr", "slogdet", "svd",
           "triangular_solve", "eig", "lstsq", "symeig", "geqrf", "orgqr", "ormqr")


@pytest.mark.parametrize("where,names", [("linalg", LINALG), ("torch", TORCH),
                                         ("Tensor", METHODS)])
def test_names_exist_where_torch_has_them(where, names):
    ours = {"linalg": doctensor.linalg, "torch": doctensor, "Tensor": doctensor.Tensor}[where]
    theirs = {"linalg": torch.linalg, "torch": torch, "Tensor": torch.Tensor}[where]
    for name in names:
        assert hasattr(theirs, name), f"torch has no {where}.{name}: fix the test"
        assert hasattr(ours, name), f"doctensor has no {where}.{name}"


def test_linalg_error_is_a_runtime_error_named_as_torch_names_it():
    assert issubclass(doctensor.linalg.LinAlgError, RuntimeError)
    assert doctensor.linalg.LinAlgError.__name__ == torch.linalg.LinAlgError.__name__

    def scenario(T):
        try:
            T.linalg.inv(T.zeros(2, 2))
        except T.linalg.LinAlgError as e:
            return type(e).__name__, str(e), isinstance(e, RuntimeError)
        return None
    same_outcome(scenario)


def test_named_tuples_print_as_torchs():
    """Exactly representable results (diagonal and triangular matrices): the whole repr."""
    def scenario(T):
        a = T.tensor([[4.0, 0.0], [2.0, 1.0]], dtype=T.float64)
        spd = T.tensor([[4.0, 2.0], [2.0, 5.0]])
        return [repr(r) for r in (
            T.linalg.slogdet(a), T.slogdet(a), T.linalg.inv_ex(a), T.linalg.cholesky_ex(spd),
            T.linalg.lu_factor(a), T.linalg.lu_factor_ex(a), T.linalg.lu(a),
            T.lu_unpack(*T.linalg.lu_factor(a)), T.linalg.solve_ex(a, a),
            T.linalg.eigh(T.diag(T.tensor([3.0, 1.0]))),
            T.linalg.lstsq(T.diag(T.tensor([4.0, 2.0])), T.tensor([[1.0], [3.0]])))]
    same_outcome(scenario)


def test_torch_lu_returns_torchs_tuples():
    def scenario(T):
        a = T.tensor([[1.0, 2.0], [3.0, 4.0]])
        return [type(T.lu(a)).__name__, type(T.lu(a, get_infos=True)).__name__,
                type(a.lu(get_infos=True)).__name__, len(T.lu(a, get_infos=True))]
    same_outcome(scenario)


# -- warnings -------------------------------------------------------------------------------------

_LEGACY = {
    "cholesky": "T.cholesky(a)",
    "qr": "T.qr(a)",
    "lu": "T.lu(a)",
    "lu_solve": "T.lu_solve(a, *T.linalg.lu_factor(a))",
    "triangular_solve": "T.triangular_solve(a, a)",
}


def _torch_warnings():
    """torch's deprecation warnings, from a fresh process (they are given once per process)."""
    code = "\n".join([
        "import warnings, torch as T",
        "a = T.eye(2)",
        "out = []",
        *[f"with warnings.catch_warnings(record=True) as w:\n"
          f"    warnings.simplefilter('always'); {call}\n"
          f"    out.append([str(x.message) for x in w])" for call in _LEGACY.values()],
        "print(repr(out))"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return dict(zip(_LEGACY, eval(done.stdout)))  # noqa: S307 - our own repr of lists


@pytest.fixture(scope="module")
def torch_warnings():
    return _torch_warnings()


@pytest.mark.parametrize("name", list(_LEGACY))
def test_legacy_forms_warn_once_as_torch(name, torch_warnings):
    T = doctensor  # noqa: F841 - read by the call's text
    a = doctensor.eye(2)  # noqa: F841
    expected = torch_warnings[name]
    WARNED_ONCE.difference_update(expected)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eval(_LEGACY[name])  # noqa: S307 - the calls above
        eval(_LEGACY[name])  # noqa: S307 - once per process: no second warning
    assert [str(w.message) for w in caught] == expected


@pytest.mark.parametrize("name", ["eig", "lstsq", "solve", "matrix_rank", "symeig"])
def test_removed_functions_raise_torchs_message(name):
    def scenario(T):
        try:
            getattr(T, name)(T.eye(2), T.eye(2))
        except RuntimeError as e:
            return str(e)
        return None
    same_outcome(scenario)


# -- second derivatives ---------------------------------------------------------------------------

def _spd(T, x):
    return x @ x.mT + T.eye(x.shape[-1], dtype=x.dtype)


def _well(T, x):
    return x + 3 * T.eye(x.shape[-1], dtype=x.dtype)


SECOND = {
    "det": lambda T, x: T.linalg.det(_well(T, x)),
    "slogdet": lambda T, x: T.linalg.slogdet(_well(T, x)).logabsdet,
    "inv": lambda T, x: T.linalg.inv(_well(T, x)),
    "solve": lambda T, x: T.linalg.solve(_well(T, x), x.mT),
    "cholesky": lambda T, x: T.linalg.cholesky(_spd(T, x)),
    "qr": lambda T, x: T.linalg.qr(x[:, :2]).Q + T.linalg.qr(x[:, :2]).R.sum(),
    "svdvals": lambda T, x: T.linalg.svdvals(x),
    "eigvalsh": lambda T, x: T.linalg.eigvalsh(x + x.mT),
    "pinv": lambda T, x: T.linalg.pinv(_well(T, x)[:, :2]),
    "matrix_exp": lambda T, x: T.linalg.matrix_exp(x),
    "solve_triangular": lambda T, x: T.linalg.solve_triangular(_well(T, x).triu(), x,
                                                                upper=True),
    "lu_factor": lambda T, x: T.linalg.lu_factor(_well(T, x)).LU,
    "lu": lambda T, x: T.linalg.lu(_well(T, x)).U,
    "lu_solve": lambda T, x: T.linalg.lu_solve(*T.linalg.lu_factor(_well(T, x)), x),
    "lstsq": lambda T, x: T.linalg.lstsq(_well(T, x)[:, :2], x).solution,
    "cholesky_inverse": lambda T, x: T.cholesky_inverse(_well(T, x).tril()),
    "cholesky_solve": lambda T, x: T.cholesky_solve(x, _well(T, x).tril()),
    "triangular_solve": lambda T, x: T.triangular_solve(x, _well(T, x).triu()).solution,
}


@pytest.mark.parametrize("name", list(SECOND))
def test_second_derivatives_match_torchs(name):
    """The gradient of a gradient taken with ``create_graph=True`` (float64)."""
    rng = np.random.default_rng(7)
    values = rng.uniform(-1, 1, (3, 3))
    w1 = rng.uniform(-1, 1, tuple(SECOND[name](torch, torch.tensor(values)).shape))
    w2 = rng.uniform(-1, 1, (3, 3))

    def scenario(T):
        x = T.tensor(values, requires_grad=True)
        g, = T.autograd.grad((SECOND[name](T, x) * T.tensor(w1)).sum(), x, create_graph=True)
        gg, = T.autograd.grad((g * T.tensor(w2)).sum(), x)
        return g.detach(), gg
    same_outcome(scenario, rtol=1e-8, atol=1e-8, reprs=False)


def test_gradcheck_of_the_formulas():
    """doctensor's own gradcheck (finite differences) of a few formulas in float64."""
    rng = np.random.default_rng(3)
    x = doctensor.tensor(rng.uniform(-1, 1, (3, 3)), requires_grad=True)
    for name in ("det", "inv", "cholesky", "qr", "eigvalsh", "lu_factor", "lstsq"):
        assert doctensor.autograd.gradcheck(lambda t, n=name: SECOND[n](doctensor, t), (x,)), \
            name


# -- randomized low-rank SVD and PCA ------------------------------------------------------------

def _signed(T, r):
    """``(U, S, V)`` with each singular vector's first entry made non-negative."""
    U, S, V = r
    s = T.where(U[..., :1, :] < 0, -1.0, 1.0).to(U.dtype)
    return U * s, S, V * s


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_low_rank_svd_and_pca_draw_torchs_numbers(dtype):
    """The sketch is drawn from the default generator: seeded alike, the results and their
    gradients are torch's (to LAPACK's rounding)."""
    values = np.random.default_rng(5).uniform(-1, 1, (2, 6, 4)).astype(dtype)

    def scenario(T):
        T.manual_seed(11)
        A = T.tensor(values, requires_grad=True)
        outs = [_signed(T, T.svd_lowrank(A, q=3)), _signed(T, T.svd_lowrank(A.mT, q=2, niter=1)),
                _signed(T, T.pca_lowrank(A)), _signed(T, T.pca_lowrank(A[0], 2, center=False)),
                _signed(T, T.svd_lowrank(A, q=2, M=A.mean(-2, keepdim=True)))]
        sum(u.sum() + s.sum() + v.sum() for u, s, v in outs).backward()
        return outs, A.grad
    tol = 1e-4 if dtype == "float32" else 1e-9
    same_outcome(scenario, rtol=tol, atol=tol, reprs=False)


def test_pca_lowrank_refuses_as_torch():
    def scenario(T):
        out = []
        for kw in ({"q": 5}, {"q": -1}, {"niter": -1}):
            try:
                T.pca_lowrank(T.ones(3, 4), **kw)
            except ValueError as e:
                out.append(str(e))
        return out
    same_outcome(scenario)


# -- empty matrices -------------------------------------------------------------------------------

EMPTY = {
    "lu": lambda T: [T.linalg.lu(T.zeros(s)) for s in [(0, 0), (3, 0), (0, 3)]],
    "lu_factor": lambda T: [T.linalg.lu_factor(T.zeros(s)) for s in [(0, 0), (3, 0)]],
    "lu_solve": lambda T: T.linalg.lu_solve(*T.linalg.lu_factor(T.zeros(0, 0)), T.zeros(0, 2)),
    "matrix_power": lambda T: [T.linalg.matrix_power(T.zeros(0, 0), n) for n in (0, 1, 3, -1)],
    "cholesky": lambda T: (T.linalg.cholesky(T.zeros(0, 0)), T.cholesky_inverse(T.zeros(0, 0))),
    "ldl": lambda T: T.linalg.ldl_solve(*T.linalg.ldl_factor(T.zeros(2, 0, 0)),
                                        T.zeros(2, 0, 1)),
    "det": lambda T: (T.linalg.det(T.zeros(0, 0)), T.linalg.slogdet(T.zeros(2, 0, 0)),
                      T.linalg.inv(T.zeros(0, 0))),
    "rank_pinv": lambda T: [(T.linalg.matrix_rank(T.zeros(s)), T.linalg.pinv(T.zeros(s)))
                            for s in [(0, 0), (2, 0, 3), (3, 0)]],
    "svd_qr_eig": lambda T: (T.linalg.svdvals(T.zeros(3, 0)), T.linalg.qr(T.zeros(0, 3)),
                             T.linalg.eigh(T.zeros(0, 0)), T.linalg.eig(T.zeros(0, 0))),
    "lstsq": lambda T: T.linalg.lstsq(T.zeros(3, 0), T.zeros(3, 2)),
    "householder": lambda T: (T.linalg.householder_product(T.zeros(3, 0), T.zeros(0)),
                              T.geqrf(T.zeros(0, 3))),
    "solve_triangular": lambda T: T.linalg.solve_triangular(T.zeros(0, 0), T.zeros(0, 2),
                                                            upper=True),
}


@pytest.mark.parametrize("name", list(EMPTY))
def test_empty_matrices(name):
    same_outcome(EMPTY[name])


def test_svd_without_vectors_gives_zero_matrices():
    same_outcome(lambda T: T.svd(T.ones(3, 2), compute_uv=False))
