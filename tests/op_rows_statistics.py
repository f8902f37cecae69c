"""The op table's rows for statistics, scans and searching (``ops/statistics.py``): the
NaN-ignoring reductions, var_mean / std_mean, aminmax, nanmedian, mode, kthvalue, the running
extrema, logcumsumexp, in-place scans, quantiles, searchsorted / bucketize, isin,
unique_consecutive, diff and histograms.

Ties: integer samples hold many equal values, and rows of more than 16 elements take
``std::sort``'s quicksort path (Note [the order of ties]).  ``_nans`` puts NaN into a
floating sample (where it is above 1), ``_special`` NaN and infinities.
"""

from _oracle import FLOATS
from op_table import ALL, REDUCE, REDUCE_DIM, UNARY, OpInfo, u

__all__ = ["ROWS"]

NO_BOOL = tuple(d for d in ALL if d != "bool")
INTS = ("int64", "int32", "uint8")
NONEMPTY_DIM = REDUCE_DIM[:-1]  # without the (0, 3) sample
WIDE = [(3, 40), (2, 17), (33,)]  # rows past std::sort's insertion-sort threshold


def _with(*rest, **kwargs):
    """The variants spec of an op called on its first input and ``rest`` / ``kwargs``."""
    return lambda T, x, *_: ((x, *rest), kwargs)


def _nans(x):
    """A floating ``x`` with NaN where it is above 1 (other dtypes: unchanged)."""
    return x.masked_fill(x > 1, float("nan")) if x.is_floating_point() else x


def _special(x):
    """``x`` with inf, -inf and NaN: ``x / 0`` where ``x <= 0.5``."""
    return x / (x > 0.5)


def _all_nan(x):
    return x.masked_fill(x == x, float("nan"))


ROWS = [
    # -- nansum and nanmean (torch's nansum / count: DivBackward0) ---------------------------
    OpInfo("NansumBackward0", "nansum", lambda T, x: _nans(x).nansum(), REDUCE,
           variants=_with()),
    OpInfo("NansumBackward0", "nansum_dim", lambda T, x: T.nansum(_nans(x), 0), REDUCE_DIM),
    OpInfo("NansumBackward0", "nansum_dims_keep",
           lambda T, x: _nans(x).nansum((0, -1), keepdim=True), REDUCE_DIM),
    OpInfo("NansumBackward0", "nansum_dtype",
           lambda T, x: T.nansum(_nans(x), -1, dtype=T.float64), REDUCE_DIM),
    OpInfo("DivBackward0", "nanmean", lambda T, x: _nans(x).nanmean(), REDUCE),
    OpInfo("DivBackward0", "nanmean_dim_keep",
           lambda T, x: T.nanmean(_nans(x), -1, keepdim=True), REDUCE_DIM),
    OpInfo("DivBackward0", "nanmean_dtype",
           lambda T, x: T.nanmean(_nans(x), (0,), dtype=T.float64), REDUCE_DIM,
           dtypes=FLOATS),
    OpInfo("DivBackward0", "nanmean_int_dtype",
           lambda T, x: T.nanmean(x, dtype=T.int64), [(5,)], dtypes=FLOATS),
    # -- var_mean and std_mean ---------------------------------------------------------------
    OpInfo("VarMeanBackward0", "var_mean", lambda T, x: T.var_mean(x), REDUCE,
           variants=_with()),
    OpInfo("VarMeanBackward0", "var_mean_dim", lambda T, x: T.var_mean(x, 0), REDUCE_DIM),
    OpInfo("VarMeanBackward0", "var_mean_dims_keep",
           lambda T, x: T.var_mean(x, (0, -1), keepdim=True, correction=0), REDUCE_DIM),
    OpInfo("VarMeanBackward0", "var_mean_only_mean",
           lambda T, x: T.var_mean(x, -1, unbiased=False)[1], REDUCE_DIM, dtypes=FLOATS),
    OpInfo("StdMeanBackward0", "std_mean", lambda T, x: T.std_mean(x), REDUCE,
           variants=_with()),
    OpInfo("StdMeanBackward0", "std_mean_dim_keep",
           lambda T, x: T.std_mean(x, -1, keepdim=True), REDUCE_DIM),
    OpInfo("StdMeanBackward0", "std_mean_only_std",
           lambda T, x: T.std_mean(x, 0, correction=0)[0], REDUCE_DIM, dtypes=FLOATS),
    # -- aminmax -------------------------------------------------------------------------------
    OpInfo("AminmaxBackward0", "aminmax", lambda T, x: T.aminmax(x), REDUCE + [(0,)],
           variants=_with()),
    OpInfo("AminmaxBackward0", "aminmax_dim", lambda T, x: x.aminmax(dim=0), REDUCE_DIM),
    OpInfo("AminmaxBackward0", "aminmax_dim_keep",
           lambda T, x: T.aminmax(x, dim=-1, keepdim=True), REDUCE_DIM + [(3, 0)]),
    OpInfo("AminmaxBackward0", "aminmax_all_keep",
           lambda T, x: T.aminmax(x, keepdim=True), REDUCE),
    OpInfo("AminmaxBackward0", "aminmax_ties",
           lambda T, x: T.cat([x, x.flip(0)]).aminmax(dim=0), [(5,), (3, 4), ((3, 4), "T")]),
    OpInfo("AminmaxBackward0", "aminmax_only_max", lambda T, x: T.aminmax(x).max, REDUCE,
           dtypes=FLOATS),
    OpInfo("AminmaxBackward0", "aminmax_nan", lambda T, x: _special(x).aminmax(dim=-1),
           [(5,), (3, 4)], dtypes=FLOATS),
    # -- nanmedian -----------------------------------------------------------------------------
    OpInfo("NanmedianBackward0", "nanmedian", lambda T, x: _nans(x).nanmedian(), UNARY,
           dtypes=NO_BOOL, variants=_with()),
    OpInfo("NanmedianBackward0", "nanmedian_all_nan", lambda T, x: _all_nan(x).nanmedian(),
           [(5,), (3, 4)], dtypes=FLOATS),
    OpInfo("NanmedianBackward0", "nanmedian_bool", lambda T, x: x.nanmedian(), [(5,)],
           dtypes=("bool",)),
    OpInfo("NanmedianBackward1", "nanmedian_dim", lambda T, x: _nans(x).nanmedian(0),
           NONEMPTY_DIM + [()], dtypes=NO_BOOL, variants=_with(0)),
    OpInfo("NanmedianBackward1", "nanmedian_dim_keep",
           lambda T, x: T.nanmedian(T.cat([_nans(x), x], -1), -1, keepdim=True), NONEMPTY_DIM,
           dtypes=NO_BOOL),
    OpInfo("NanmedianBackward1", "nanmedian_dim_all_nan",
           lambda T, x: T.cat([_all_nan(x), x]).nanmedian(-1), [(2, 3)], dtypes=FLOATS),
    OpInfo("NanmedianBackward1", "nanmedian_dim_errors",
           lambda T, x: x.nanmedian(0), [(0, 3), (3, 4)], dtypes=("float32", "bool")),
    # -- mode ------------------------------------------------------------------------------------
    OpInfo("ModeBackward0", "mode", lambda T, x: x.mode(), UNARY, variants=_with()),
    OpInfo("ModeBackward0", "mode_dim_keep", lambda T, x: T.mode(x, 0, keepdim=True),
           REDUCE_DIM + [(3, 0)]),
    OpInfo("ModeBackward0", "mode_ties", lambda T, x: T.cat([x, x.flip(-1)], -1).mode(-1),
           [(5,), (3, 4), ((3, 4), "T")]),
    OpInfo("ModeBackward0", "mode_wide", lambda T, x: x.mode(-1), WIDE, dtypes=INTS + FLOATS),
    OpInfo("ModeBackward0", "mode_nan", lambda T, x: _special(x).mode(0), [(7,), (5, 3)],
           dtypes=FLOATS),
    OpInfo("ModeBackward0", "mode_wide_nan", lambda T, x: _special(x.round()).mode(), WIDE,
           dtypes=FLOATS),
    # -- kthvalue --------------------------------------------------------------------------------
    OpInfo("KthvalueBackward0", "kthvalue", lambda T, x: x.kthvalue(1), UNARY[:1] + REDUCE_DIM,
           dtypes=NO_BOOL, variants=_with(1)),
    OpInfo("KthvalueBackward0", "kthvalue_dim_keep",
           lambda T, x: T.kthvalue(x, 2, 0, keepdim=True), [(3, 4), (2, 3, 4), ((3, 4), "T")],
           dtypes=NO_BOOL),
    OpInfo("KthvalueBackward0", "kthvalue_ties", lambda T, x: x.kthvalue(9), WIDE,
           dtypes=INTS + FLOATS),
    OpInfo("KthvalueBackward0", "kthvalue_ties_last",
           lambda T, x: T.kthvalue(T.cat([x, x, x], -1).round(), 3 * x.shape[-1] - 1),
           [(5,), (3, 4), (2, 9)], dtypes=FLOATS),
    OpInfo("KthvalueBackward0", "kthvalue_nan", lambda T, x: _special(x).kthvalue(4),
           [(7,), (5, 6)], dtypes=FLOATS),
    OpInfo("KthvalueBackward0", "kthvalue_errors",
           lambda T, x: (x.kthvalue(0), x.kthvalue(99)), [(5,), (0,), (3, 4)],
           dtypes=("float32", "bool")),
    # -- cummax and cummin ----------------------------------------------------------------------
    OpInfo("CummaxBackward0", "cummax", lambda T, x: x.cummax(0), UNARY, variants=_with(0)),
    OpInfo("CummaxBackward0", "cummax_last_ties",
           lambda T, x: T.cummax(T.cat([x, x.flip(-1)], -1), -1), REDUCE_DIM),
    OpInfo("CummaxBackward0", "cummax_nan", lambda T, x: _special(x).cummax(-1),
           [(7,), (5, 6)], dtypes=FLOATS),
    OpInfo("CumminBackward0", "cummin", lambda T, x: T.cummin(x, -1), UNARY, variants=_with(0)),
    OpInfo("CumminBackward0", "cummin_ties",
           lambda T, x: T.cat([x, x.flip(0)]).cummin(0), REDUCE_DIM),
    OpInfo("CumminBackward0", "cummin_nan", lambda T, x: _special(x).cummin(0),
           [(7,), (5, 6)], dtypes=FLOATS),
    # -- logcumsumexp ---------------------------------------------------------------------------
    OpInfo("LogcumsumexpBackward0", "logcumsumexp", lambda T, x: x.logcumsumexp(0), UNARY,
           variants=_with(0)),
    OpInfo("LogcumsumexpBackward0", "logcumsumexp_last", lambda T, x: T.logcumsumexp(x, -1),
           REDUCE_DIM, dtypes=FLOATS + ("float16",)),
    OpInfo("LogcumsumexpBackward0", "logcumsumexp_special",
           lambda T, x: _special(x).logcumsumexp(-1), [(7,), (5, 6)], dtypes=FLOATS),
    # -- cumsum_ and cumprod_ ---------------------------------------------------------------------
    u("CumsumBackward0", "cumsum_", lambda T, x: x.clone().cumsum_(0)),
    OpInfo("CumsumBackward0", "cumsum_dtype_",
           lambda T, x: x.clone().cumsum_(-1, dtype=x.dtype), REDUCE_DIM, dtypes=FLOATS),
    OpInfo("CumsumBackward0", "cumsum_wrong_dtype_",
           lambda T, x: x.clone().cumsum_(0, dtype=T.float64), [(5,)],
           dtypes=("float32", "int64", "int32")),
    u("CumprodBackward0", "cumprod_", lambda T, x: x.clone().cumprod_(-1), domain=(0.5, 1.5)),
    OpInfo("CumprodBackward0", "cumprod_view_",
           lambda T, x: x.clone()[1:].cumprod_(0), [(3, 4), (5,)], domain=(0.5, 1.5),
           dtypes=FLOATS),
]


def _sorted(x):
    return x.sort(-1).values


def _coarse(x):
    """``x`` with runs of equal elements: floats rounded to integers."""
    return x.round() if x.is_floating_point() else x


def _leaf(x):
    """A leaf copy of ``x`` that requires grad where it can (rows without gradients: the
    outputs are compared, grad_fn names included)."""
    return x.detach().requires_grad_(x.is_floating_point())


PAIRS_1D = [((5,), (3, 4)), ((7,), (5,)), ((4,), ()), ((6,), (0,)), ((0,), (3,))]
PAIRS_ND = [((3, 5), (3, 2)), ((2, 3, 4), (2, 3, 6))]

ROWS += [
    # -- searchsorted and bucketize (ties: integer samples; NaN goes right of everything) ----
    OpInfo("searchsorted", "searchsorted", lambda T, s, v: T.searchsorted(_sorted(s), v),
           PAIRS_1D + PAIRS_ND, dtypes=NO_BOOL,
           variants=lambda T, s, v: ((_sorted(s), v), {})),
    OpInfo("searchsorted", "searchsorted_right",
           lambda T, s, v: (T.searchsorted(_sorted(s), v, right=True),
                            T.searchsorted(_sorted(s), v, side="right", out_int32=True),
                            T.searchsorted(_sorted(s), v, side="left")),
           PAIRS_1D + PAIRS_ND, dtypes=INTS + FLOATS),
    OpInfo("searchsorted", "searchsorted_sorter",
           lambda T, s, v: T.searchsorted(s, v, sorter=s.argsort(stable=True), right=True),
           PAIRS_1D + PAIRS_ND, dtypes=("int64", "float32")),
    OpInfo("searchsorted", "searchsorted_nan",
           lambda T, s, v: T.searchsorted(_sorted(_special(s)), _special(v)),
           [((7,), (3, 4)), ((3, 5), (3, 6))], dtypes=FLOATS),
    OpInfo("searchsorted", "searchsorted_scalar",
           lambda T, s: (T.searchsorted(_sorted(s), 1), T.searchsorted(_sorted(s), 0.5)),
           [(5,), (1,)], dtypes=("int64", "float32")),
    OpInfo("searchsorted", "searchsorted_mixed",
           lambda T, s, v: T.searchsorted(_sorted(s), v.double()), [((5,), (3, 4))],
           dtypes=("int32", "float32", "bool")),
    OpInfo(None, "searchsorted_errors",
           lambda T, s, v: T.searchsorted(s, v, side="middle"), [((5,), (3,))]),
    OpInfo(None, "searchsorted_opposites",
           lambda T, s, v: T.searchsorted(s, v, right=True, side="left"), [((5,), (3,))]),
    OpInfo(None, "searchsorted_sorter_errors",
           lambda T, s, v: [_raised(lambda o=order: T.searchsorted(s, v, sorter=o))
                            for order in (s.argsort().int(), s.argsort()[:2], s.argsort() + 1)],
           [((5,), (3,))], dtypes=("float32",)),
    OpInfo(None, "searchsorted_shape_errors", lambda T, s, v: T.searchsorted(s, v),
           [((3, 5), (2, 2)), ((), (3,)), ((2, 3), ()), ((2, 3), (4,))], dtypes=("float32",)),
    OpInfo("searchsorted", "bucketize",
           lambda T, v, s: (T.bucketize(v, _sorted(s)), T.bucketize(v, _sorted(s), right=True,
                                                                  out_int32=True)),
           [((3, 4), (5,)), ((), (4,)), ((6,), (6,))], dtypes=NO_BOOL),
    OpInfo(None, "bucketize_errors", lambda T, v, s: T.bucketize(v, s), [((3,), (2, 2))],
           dtypes=("float32",)),
    # -- isin ------------------------------------------------------------------------------------
    OpInfo("isin", "isin", lambda T, x, y: (T.isin(x, y), T.isin(x, y, invert=True)),
           [((3, 4), (5,)), ((7,), (2, 3)), ((3, 4), ()), ((0,), (3,)), ((((3, 4), "T")), (9,))],
           dtypes=NO_BOOL, variants=lambda T, x, y: ((x, y), {})),
    OpInfo("isin", "isin_scalar", lambda T, x: (T.isin(x, 2), T.isin(1, x)), [(5,), (3, 4)],
           dtypes=NO_BOOL),
    OpInfo("isin", "isin_mixed", lambda T, x, y: T.isin(x, y.double() / 2),
           [((3, 4), (9,))], dtypes=("int64", "uint8", "float32")),
    OpInfo("isin", "isin_nan", lambda T, x: T.isin(_special(x), _special(x)), [(5,), (3, 4)],
           dtypes=FLOATS),
    OpInfo("isin", "isin_bool", lambda T, x: T.isin(x, x), [(5,)], dtypes=("bool",)),
    # -- unique_consecutive -----------------------------------------------------------------------
    OpInfo("UniqueConsecutiveBackward0", "unique_consecutive",
           lambda T, x: T.unique_consecutive(_leaf(_coarse(x))), [(1,), (0,), (9,), (3, 4), ()],
           grad=False, variants=lambda T, x: ((x,), {})),
    OpInfo("UniqueConsecutiveBackward0", "unique_consecutive_inverse_counts",
           lambda T, x: _leaf(_coarse(x)).unique_consecutive(return_inverse=True,
                                                             return_counts=True),
           [(0,), (9,), (3, 4), ((3, 4), "T"), ()], grad=False),
    OpInfo("UniqueConsecutiveBackward0", "unique_consecutive_counts",
           lambda T, x: T.unique_consecutive(_coarse(x), return_counts=True), [(9,), (2, 3, 4)],
           grad=False),
    OpInfo("UniqueConsecutiveBackward0", "unique_consecutive_dim",
           lambda T, x: T.unique_consecutive(T.cat([x, x[:1], x[:1], x[-1:]]), dim=0,
                                             return_inverse=True, return_counts=True),
           [(3, 4), (3,), (2, 3, 2), (0, 3)], dtypes=INTS + ("bool", "float32"), grad=False),
    OpInfo("UniqueConsecutiveBackward0", "unique_consecutive_dim_last",
           lambda T, x: _coarse(x).unique_consecutive(dim=-1, return_inverse=True),
           [(3, 4), ((3, 4), "T"), (3, 0)], dtypes=("int64", "bool", "float64"), grad=False),
    OpInfo("UniqueConsecutiveBackward0", "unique_consecutive_nan",
           lambda T, x: T.unique_consecutive(_special(_coarse(x)), return_counts=True),
           [(9,), (3, 4)], dtypes=FLOATS, grad=False),
    OpInfo(None, "unique_consecutive_errors",
           lambda T, x: T.unique_consecutive(x, dim=0), [(3, 0), ()], dtypes=("float32",)),
    OpInfo("UniqueConsecutiveBackward0", "unique_consecutive_backward",
           lambda T, x: T.autograd.grad(T.unique_consecutive(x).sum(), x), [(5,)],
           dtypes=FLOATS, grad=False),
    # -- msort and diff (torch composes them: SortBackward0, SubBackward0, CopyBackwards) ----
    u("SortBackward0", "msort", lambda T, x: T.msort(x)),
    OpInfo("SortBackward0", "msort_method", lambda T, x: x.msort(), [(3, 4), ((3, 4), "T")]),
    u("SubBackward0", "diff", lambda T, x: T.diff(x), dtypes=NO_BOOL),
    OpInfo("SubBackward0", "diff_n_dim", lambda T, x: (x.diff(2, 0), T.diff(x, n=9, dim=-1)),
           REDUCE_DIM, dtypes=NO_BOOL),
    OpInfo("SubBackward0", "diff_prepend_append",
           lambda T, x, y: (T.diff(x, prepend=y, append=x), x.diff(3, -1, prepend=y),
                            T.diff(x, dim=-1, append=y.double())),
           [((3, 4), (3, 2)), ((5,), (1,)), ((2, 3), (2, 0))], dtypes=NO_BOOL),
    OpInfo("ne", "diff_bool", lambda T, x: (T.diff(x), x.diff(2, 0)), [(5,), (3, 4)],
           dtypes=("bool",)),
    OpInfo("CopyBackwards", "diff_n0", lambda T, x: T.diff(x, 0), [(5,), (3, 4), ((3, 4), "T")],
           dtypes=("float32", "int64")),
    OpInfo(None, "diff_errors",
           lambda T, x, y: [_raised(f) for f in (
               lambda: T.diff(x), lambda: T.diff(y, -1), lambda: T.diff(y, prepend=x),
               lambda: T.diff(y, append=y.t()), lambda: T.diff(y, 1, 0, y[:, :1]))],
           [((), (2, 3))], dtypes=("float32",)),
    # -- histc and histogram -------------------------------------------------------------------
    u("histc", "histc", lambda T, x: (x.histc(4), T.histc(x, 5, min=-1, max=1)),
      dtypes=("float32", "float64", "float16", "int64")),
    OpInfo("histc", "histc_same_bounds", lambda T, x: T.histc(x * 0 + 1, 3, 2, 2),
           [(5,), (3, 4)], dtypes=FLOATS),
    OpInfo("histc", "histc_edges", lambda T, x: T.histc(x.round(), 6), [(20,), (5, 7)],
           dtypes=FLOATS),
    OpInfo(None, "histc_errors",
           lambda T, x: [_raised(f) for f in (
               lambda: T.histc(x, 0), lambda: T.histc(x, 3, 2, 1),
               lambda: T.histc(_special(x), 3), lambda: T.histc(x, 3, float("nan"), 1))],
           [(6,)], dtypes=("float32",)),
    u("histogramdd", "histogram", lambda T, x: T.histogram(x, 4), dtypes=FLOATS),
    u("histogram_bin_edges", "histogram_method", lambda T, x: x.histogram(3), dtypes=FLOATS),
    OpInfo("histogramdd", "histogram_edges_tensor",
           lambda T, x: x.histogram(T.tensor([-2.0, -0.5, 0.0, 0.25, 3.0], dtype=x.dtype,
                                             device=x.device)),
           [(7,), (3, 4), (0,)], dtypes=FLOATS, grad=False),
    OpInfo("histogramdd", "histogram_range_density",
           lambda T, x: (T.histogram(x, 5, range=(-1.0, 2.0), density=True),
                         T.histogram(x.round(), 4, density=True)),
           [(9,), (3, 4)], dtypes=FLOATS, grad=False),
    OpInfo("histogramdd", "histogram_weight",
           lambda T, x, w: T.histogram(x, 3, weight=w.abs()), [((9,), (9,)), ((3, 4), (3, 4))],
           dtypes=FLOATS, grad=False),
    OpInfo("histogramdd", "histogram_linspace_edges",
           lambda T, x: T.histogram(T.tensor([-2.0, 2.0], dtype=x.dtype, device=x.device), 6),
           [(1,)], dtypes=FLOATS, devices=("cpu",), grad=False),
    OpInfo("histogramdd", "histogram_same_bounds", lambda T, x: T.histogram(x * 0 + 1, 3),
           [(5,), (0,)], dtypes=FLOATS, grad=False),
    OpInfo("histogram_bin_edges", "histogramdd",
           lambda T, x: (T.histogramdd(x, 3), T.histogramdd(x, [2, 4], density=True)),
           [(5, 2), (2, 3, 2), (0, 2)], dtypes=FLOATS),
    OpInfo("histogram_bin_edges", "histogramdd_range_weight",
           lambda T, x, w: T.histogramdd(x, (3, 2, 2), range=[-1.0, 1.0, 0.0, 2.0, -3.0, 3.0],
                                         weight=w.abs()),
           [((7, 3), (7,)), ((2, 4, 3), (2, 4))], dtypes=FLOATS, grad=False),
    OpInfo("histogramdd", "histogramdd_edges_tensors",
           lambda T, x: T.histogramdd(x, [_q(T, x, [-2.0, 0.0, 0.5, 3.0]),
                                          _q(T, x, [-1.0, 1.0])]),
           [(6, 2), (0, 2)], dtypes=FLOATS),
    OpInfo(None, "histogramdd_errors",
           lambda T, x: [_raised(f) for f in (
               lambda: T.histogramdd(x[:, 0], 2), lambda: T.histogramdd(x, [2]),
               lambda: T.histogramdd(x, [2, 0]), lambda: T.histogramdd(x, 2, range=[0.0, 1.0]),
               lambda: T.histogramdd(x, 2, range=[0.0, 1.0, 2.0, 1.0]),
               lambda: T.histogramdd(x, 2, weight=x[:, 0][:2]),
               lambda: T.histogramdd(x, [x[:, 0].sort().values, x[:, 1].long()]),
               lambda: T.histogramdd(x, [x[:, 0].sort().values]),
               lambda: T.histogramdd(x.int(), 2), lambda: T.histogramdd(_special(x), 2))],
           [(4, 2)], dtypes=("float32",)),
    OpInfo(None, "histogram_errors",
           lambda T, x: [_raised(f) for f in (
               lambda: T.histogram(x, 0), lambda: T.histogram(x, 3, range=(2.0, 1.0)),
               lambda: T.histogram(_special(x), 3), lambda: T.histogram(x.int(), 3),
               lambda: T.histogram(x.half(), 3), lambda: T.histogram(x, x.long()),
               lambda: T.histogram(x, x.reshape(2, 3)), lambda: T.histogram(x, x[:0]),
               lambda: T.histogram(x, 3, weight=x.double()),
               lambda: T.histogram(x, 3, weight=x[:2]),
               lambda: T.histogram(x, 3, range=(0.0, 1.0, 2.0)))],
           [(6,)], dtypes=("float32",)),
]


def _raised(fn):
    """What ``fn()`` raises, as (type name, message) (None if nothing)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return type(e).__name__, str(e)
    return None


def _q(T, x, values):
    """A q tensor of ``values`` in ``x``'s dtype, on its device."""
    return T.tensor(values, dtype=x.dtype, device=x.device)


MATRICES = [(3, 4), (4, 3), ((3, 4), "T"), ((2, 5), "step"), (1, 5), (5,)]
# reprs=False: gradients through cov's matrix product and sums (and gradient's coordinate
# formulas) cancel to near-zero residues (1e-9 against 1e-8) that depend on the order torch's
# kernels add in; the values agree within the dtype's tolerance

ROWS += [
    # -- quantile and nanquantile (torch's composite: sort, gather, lerp_, squeeze_) ---------
    u("SqueezeBackward4", "quantile", lambda T, x: (T.quantile(x, 0.3), x.quantile(1.0)),
      dtypes=FLOATS),
    OpInfo("SqueezeBackward4", "quantile_dim",
           lambda T, x: (x.quantile(0.75, 0), T.quantile(x, 0.2, -1, keepdim=True)),
           REDUCE_DIM[:-1], dtypes=FLOATS),
    OpInfo("SqueezeBackward4", "quantile_q_tensor",
           lambda T, x: (T.quantile(x, _q(T, x, [0.25, 0.5, 1.0]), dim=0, keepdim=True),
                         x.quantile(_q(T, x, [0.1, 0.9])),
                         T.quantile(x, _q(T, x, [0.0, 0.6]), -1)),
           REDUCE_DIM[:-1] + [()], dtypes=FLOATS),
    OpInfo("SqueezeBackward4", "quantile_interpolations",
           lambda T, x: [T.quantile(x, 0.4, -1, interpolation=m)
                         for m in ("lower", "higher", "midpoint", "nearest", "linear")],
           [(5,), (3, 4), (2, 6)], dtypes=FLOATS),
    OpInfo("SqueezeBackward4", "quantile_nan",
           lambda T, x: (T.quantile(_nans(x), 0.5, -1), T.nanquantile(_nans(x), 0.5, -1),
                         _nans(x).nanquantile(_q(T, x, [0.3, 0.7])),
                         T.nanquantile(_all_nan(x), 0.5)),
           [(5,), (3, 4), ((3, 4), "T")], dtypes=FLOATS),
    OpInfo(None, "quantile_errors",
           lambda T, x: [_raised(f) for f in (
               lambda: T.quantile(x, 1.5), lambda: T.quantile(x, 0.5, interpolation="bad"),
               lambda: T.quantile(x[:0], 0.5), lambda: T.quantile(x, _q(T, x, [[0.5]])),
               lambda: T.quantile(x.long(), 0.5), lambda: T.quantile(x, _q(T, x, [0.5]).double()),
               lambda: T.quantile(x, _q(T, x, [1.5])), lambda: T.quantile(x, float("nan")),
               lambda: T.quantile(x, 0.5, dim=3))],
           [(5,)], dtypes=("float32",)),
    # -- trapezoid, trapz, cumulative_trapezoid (mul.Scalar: MulBackward1; div.Scalar:
    #    DivBackward1, as torch's C++ composites) -------------------------------------------
    u("MulBackward1", "trapezoid", lambda T, x: (T.trapezoid(x), T.trapz(x, dx=3)),
      dtypes=NO_BOOL),
    OpInfo("MulBackward1", "trapezoid_dx_dim", lambda T, x: T.trapezoid(x, dx=0.5, dim=0),
           REDUCE_DIM, dtypes=NO_BOOL),
    OpInfo("DivBackward1", "trapezoid_x",
           lambda T, y, x: (T.trapezoid(y, x), T.trapz(y, x, dim=-1)),
           [((3, 4), (4,)), ((3, 4), (3, 4)), ((2, 3, 4), (3, 4)), ((5,), (5,))],
           dtypes=("float32", "float64", "int64")),
    OpInfo("DivBackward1", "trapezoid_x_dim0", lambda T, y, x: T.trapezoid(y, x, dim=0),
           [((3, 4), (3,)), ((3, 4), (3, 1))], dtypes=FLOATS),
    OpInfo(None, "trapezoid_errors",
           lambda T, y, x: [_raised(f) for f in (
               lambda: T.trapezoid(y > 0), lambda: T.trapezoid(y, x > 0),
               lambda: T.trapezoid(y, x[:2]), lambda: T.trapezoid(y[0, 0]),
               lambda: T.trapezoid(y, dx=True), lambda: T.cumulative_trapezoid(y > 0),
               lambda: T.cumulative_trapezoid(y, x[:2]),
               lambda: T.cumulative_trapezoid(y, x > 0))],
           [((3, 4), (4,))], dtypes=("float32",)),
    u("CumsumBackward0", "cumulative_trapezoid",
      lambda T, x: (T.cumulative_trapezoid(x), T.cumulative_trapezoid(x, dx=2)), dtypes=NO_BOOL),
    OpInfo("DivBackward1", "cumulative_trapezoid_x",
           lambda T, y, x: T.cumulative_trapezoid(y, x, dim=-1),
           [((3, 4), (4,)), ((3, 4), (3, 4)), ((2, 3, 4), (3, 4)), ((5,), (5,)), ((2, 0), (0,))],
           dtypes=("float32", "float64", "int64")),
    # -- gradient ---------------------------------------------------------------------------------
    OpInfo("DivBackward1", "gradient",
           lambda T, x: (T.gradient(x), T.gradient(x, spacing=2.0, dim=-1),
                         T.gradient(x, dim=0, edge_order=2)),
           [(5,), (3, 4), ((3, 4), "T"), (3, 3, 4)], dtypes=("float32", "float64", "int64")),
    OpInfo("DivBackward1", "gradient_spacings",
           lambda T, x: (T.gradient(x, spacing=[0.5, 2], dim=[0, 1], edge_order=2),
                         T.gradient(x, spacing=(3, 0.25))),
           [(3, 4), ((3, 4), "T")], dtypes=FLOATS),
    OpInfo("CatBackward0", "gradient_coordinates",
           lambda T, x, c: (T.gradient(x, spacing=(c.cumsum(0),), dim=1),
                            T.gradient(x, spacing=(c.cumsum(0),), dim=-1, edge_order=2)),
           [((3, 4), (4,)), ((2, 5), (5,))], domain=(0.5, 2.0), dtypes=FLOATS, reprs=False),
    OpInfo(None, "gradient_errors",
           lambda T, x: [_raised(f) for f in (
               lambda: T.gradient(x.byte()), lambda: T.gradient(x, spacing=[1.0, 2.0, 3.0]),
               lambda: T.gradient(x, spacing=[2.0], dim=(0, 1)),
               lambda: T.gradient(x, dim=(0, 0)), lambda: T.gradient(x, dim=5),
               lambda: T.gradient(x[:2], edge_order=2), lambda: T.gradient(x, edge_order=3),
               lambda: T.gradient(x, spacing=(x,), dim=1))],
           [(3, 4)], dtypes=("float32",)),
    OpInfo(None, "gradient_0d", lambda T, x: T.gradient(x), [()], dtypes=("float32",)),
    # -- cov and corrcoef (composed: SqueezeBackward0, ClampBackward1) --------------------------
    OpInfo("SqueezeBackward0", "cov", lambda T, x: (T.cov(x), x.cov(correction=0)), MATRICES,
           dtypes=("float32", "float64", "int64")),
    OpInfo("SqueezeBackward0", "cov_weights",
           lambda T, x, w: (T.cov(x, fweights=(w * 3).long().abs()),
                            T.cov(x, aweights=w.abs(), correction=2),
                            x.cov(fweights=(w * 3).long().abs() + 1, aweights=w.abs())),
           [((3, 4), (4,)), ((5,), (5,))], dtypes=FLOATS),
    OpInfo(None, "cov_errors",
           lambda T, x, w: [_raised(f) for f in (
               lambda: T.cov(x.reshape(1, 3, 4)), lambda: T.cov(x > 0),
               lambda: T.cov(x, fweights=w), lambda: T.cov(x, fweights=w.long()[:2]),
               lambda: T.cov(x, fweights=w.long().reshape(2, 2)),
               lambda: T.cov(x, fweights=-w.long().abs() - 1),
               lambda: T.cov(x, aweights=w.long()), lambda: T.cov(x, aweights=-w.abs() - 1),
               lambda: T.cov(x, aweights=w * 0))],
           [((3, 4), (4,))], dtypes=("float32",)),
    OpInfo("ClampBackward1", "corrcoef", lambda T, x: (T.corrcoef(x), x.corrcoef()),
           MATRICES[:-2], dtypes=("float32", "float64", "int64"), reprs=False),
    OpInfo("DivBackward0", "corrcoef_one_row", lambda T, x: T.corrcoef(x), [(1, 5), (5,)],
           dtypes=FLOATS, reprs=False),
]
