"""What the decompositions share (``decompositions.py`` names the family's modules): torch's
``LinAlgError`` and named tuples, the checks that give torch's messages, torch's layouts of
LAPACK results, and small tensor helpers of the backward formulas."""

import collections

import numpy as np

from .._dtypes import _BY_NP
from . import _lapack as K
from .creation import eye
from .gathering import diag_embed


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a LAPACK routine reported failure (a singular matrix, one
    that is not positive-definite)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"  # as torch._C names it


def result_type(name, fields):
    """A ``torch.return_types.<name>`` named tuple class, printed as torch prints it."""
    cls = collections.namedtuple(name, fields)
    cls.__module__ = "torch.return_types"

    def __repr__(self):
        body = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"torch.return_types.{name}(\n{body})"
    cls.__repr__ = __repr__
    return cls


_SLOGDET = result_type("linalg_slogdet", ["sign", "logabsdet"])
_SLOGDET_LEGACY = result_type("slogdet", ["sign", "logabsdet"])
_INV_EX = result_type("linalg_inv_ex", ["inverse", "info"])
_SOLVE_EX = result_type("linalg_solve_ex", ["result", "info"])
_CHOLESKY_EX = result_type("linalg_cholesky_ex", ["L", "info"])
_QR = result_type("linalg_qr", ["Q", "R"])
_QR_LEGACY = result_type("qr", ["Q", "R"])
_SVD = result_type("linalg_svd", ["U", "S", "Vh"])
_SVD_LEGACY = result_type("svd", ["U", "S", "V"])
_EIGH = result_type("linalg_eigh", ["eigenvalues", "eigenvectors"])
_LU_FACTOR = result_type("linalg_lu_factor", ["LU", "pivots"])
_LU_FACTOR_EX = result_type("linalg_lu_factor_ex", ["LU", "pivots", "info"])
_LU = result_type("linalg_lu", ["P", "L", "U"])
_LU_UNPACK = result_type("lu_unpack", ["P", "L", "U"])
_LU_WITH_INFO = result_type("_lu_with_info", ["LU", "pivots", "info"])
_TRIANGULAR_SOLVE = result_type("triangular_solve", ["solution", "cloned_coefficient"])
_EIG = result_type("linalg_eig", ["eigenvalues", "eigenvectors"])
_GEQRF = result_type("geqrf", ["a", "tau"])
_LDL_FACTOR = result_type("linalg_ldl_factor", ["LD", "pivots"])
_LDL_FACTOR_EX = result_type("linalg_ldl_factor_ex", ["LD", "pivots", "info"])
_LSTSQ = result_type("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])


# -- checks: torch's messages ---------------------------------------------------------------------

def _scalar_name(t):
    return _BY_NP[t._data.dtype].scalar_name


def _check_dims(fn, t, name="A"):
    if t._data.ndim < 2:
        raise RuntimeError(f"{fn}: The input tensor {name} must have at least 2 dimensions.")


def _check_square(fn, t, name="A"):
    _check_dims(fn, t, name)
    m, n = t._data.shape[-2:]
    if m != n:
        raise RuntimeError(f"{fn}: {name} must be batches of square matrices, but they are "
                           f"{m} by {n} matrices")


def _check_floating(fn, t):
    if t._data.dtype.kind not in "fc":
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got "
                           f"{_scalar_name(t)}")


_SOLVER_DTYPES = (np.float32, np.float64, np.complex64, np.complex128)


def _check_kernel(kernel, t, complex_ok=False):
    """The refusal of a LAPACK kernel that has no half-precision (or integer) version; and
    doctensor's own for complex inputs, which torch takes but this op does not yet."""
    if t._data.dtype not in (_SOLVER_DTYPES if complex_ok else (np.float32, np.float64)):
        doctensor = " (doctensor: no complex version yet)" if t._data.dtype.kind == "c" else ""
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(t)}\''
                                  f"{doctensor}")


def _check_low_precision(fn, t):
    if t._data.dtype not in _SOLVER_DTYPES:
        raise RuntimeError(f"{fn}: Low precision dtypes not supported. Got {_scalar_name(t)}")


def _square_float(fn, kernel=None, complex_ok=False):
    """The check of an op on batches of square floating matrices: shape, dtype, then the
    kernel's refusal of low precision (``kernel``: its name, else torch's own message;
    ``complex_ok``: whether doctensor's op takes complex matrices too)."""
    def check(a, *rest, **attrs):
        _check_square(fn, a)
        _check_floating(fn, a)
        if kernel is None:
            _check_low_precision(fn, a)
        else:
            _check_kernel(kernel, a, complex_ok)
    return check


def _batch_prefix(info, index):
    return f"(Batch element {index}): " if info.ndim else ""


def _first_failure(info):
    """(batch prefix, info value) of the first failed matrix (``info``: a tensor or an
    array), or None."""
    arr = np.asarray(info._backend.to_host(info._data) if hasattr(info, "_data") else info)
    bad = np.flatnonzero(arr.reshape(-1))
    if not bad.size:
        return None
    return _batch_prefix(arr, bad[0]), int(arr.reshape(-1)[bad[0]])


# -- layouts --------------------------------------------------------------------------------------

def _fortran(xp, a):
    """A LAPACK result as torch holds it: C-contiguous batches of column-major matrices."""
    return K.column_major(xp, a)


def _c_order(xp, a):
    return K.column_major(xp, a, f_contig=False)


def _eye_like(t, n):
    return eye(n, dtype=t.dtype, device=t.device)


def _diag_embed(v):
    """The matrices with ``v`` on their diagonals (zeros elsewhere, +0. as torch's)."""
    return diag_embed(v)


def _constant(t):
    """An output torch does not differentiate (a permutation): no history, no tangent."""
    t._grad_fn = None
    t._requires_grad = False
    t.__dict__.pop("_fw_tangent", None)  # (Note [forward AD])
    return t


def _mT(t):
    return t.transpose(-2, -1)


def _conj(t):
    """The conjugate of a complex tensor (a real one itself, as torch's conj)."""
    return t.conj() if t.is_complex() else t


def _mH(t):
    """The conjugate transpose (the transpose of a real matrix)."""
    return t.mH if t.is_complex() else t.transpose(-2, -1)
