"""``torch.return_types``: the named tuples torch's ops return, (values, indices) and others.

The classes are the ones the ops themselves build (one class per op, declared beside it), so
``isinstance(torch.max(x, 0), torch.return_types.max)`` holds.
"""

from .ops import _linalg_common as L
from .ops import elementwise, reduction, sorting, statistics

__all__ = ["aminmax", "cummax", "cummin", "frexp", "geqrf", "histogram", "histogramdd",
           "kthvalue", "linalg_cholesky_ex", "linalg_eig", "linalg_eigh", "linalg_inv_ex",
           "linalg_ldl_factor", "linalg_ldl_factor_ex", "linalg_lstsq", "linalg_lu",
           "linalg_lu_factor", "linalg_lu_factor_ex", "linalg_qr", "linalg_slogdet",
           "linalg_solve_ex", "linalg_svd", "lu_unpack", "max", "median", "min", "mode",
           "nanmedian", "qr", "slogdet", "sort", "svd", "topk", "triangular_solve"]

max, min, median = reduction.MAX_TYPE, reduction.MIN_TYPE, reduction.MEDIAN_TYPE  # noqa: A001
sort, topk = sorting.SORT_TYPE, sorting.TOPK_TYPE
aminmax, cummax, cummin = statistics.AMINMAX_TYPE, statistics.CUMMAX_TYPE, statistics.CUMMIN_TYPE
histogram, histogramdd = statistics.HISTOGRAM_TYPE, statistics.HISTOGRAMDD_TYPE
kthvalue, mode, nanmedian = statistics.KTHVALUE_TYPE, statistics.MODE_TYPE, \
    statistics.NANMEDIAN_TYPE
frexp = elementwise.FrexpResult
geqrf, lu_unpack, triangular_solve = L._GEQRF, L._LU_UNPACK, L._TRIANGULAR_SOLVE
qr, slogdet, svd = L._QR_LEGACY, L._SLOGDET_LEGACY, L._SVD_LEGACY
linalg_cholesky_ex, linalg_eig, linalg_eigh = L._CHOLESKY_EX, L._EIG, L._EIGH
linalg_inv_ex, linalg_lstsq, linalg_qr, linalg_svd = L._INV_EX, L._LSTSQ, L._QR, L._SVD
linalg_ldl_factor, linalg_ldl_factor_ex = L._LDL_FACTOR, L._LDL_FACTOR_EX
linalg_lu, linalg_lu_factor, linalg_lu_factor_ex = L._LU, L._LU_FACTOR, L._LU_FACTOR_EX
linalg_slogdet, linalg_solve_ex = L._SLOGDET, L._SOLVE_EX

# every class above, in __all__'s order
all_return_types = [globals()[name] for name in __all__]
