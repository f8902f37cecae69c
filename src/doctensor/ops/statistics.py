"""Statistics, scans and searching: NaN-ignoring reductions, medians, modes, k-th values,
running extrema, ``logcumsumexp``, quantiles, ``searchsorted`` and ``bucketize``, ``isin``,
``unique_consecutive``, differences and histograms.

Sums go through ``reduction``'s sum (one summation path for every op that adds). Where
torch's CPU kernel picks among equal elements in an order of its own (``mode``'s
``std::sort``, ``kthvalue``'s quickselect), the pick is emulated step by step in
``_exact/ties.py`` (Note [the order of ties]).
"""

import math
import warnings

import numpy as np

from .. import _strides as S
from .._argparser import check_keywords
from .._dtypes import _BY_NP, bfloat16, bool_, float64, int64
from .._exact.cascade_sum import same_layout, torch_sum
from .._exact.moments import welford_reproduced, welford_var
from .._exact.ties import introsort, quickselect
from .._tensor_base import TensorBase
from ._dispatch import apply, apply_
from ._registry import declare
from .creation import full_like, linspace, tensor
from .joining import cat
from .pointwise import over_number, times_number, where_tensor
from .reduction import (
    _evenly_distribute,
    _expand_back,
    _keep_dims,
    _reduced_numel,
    _select_backward,
    check_keepdim,
    cumprod_op,
    cumsum_op,
    mean_dim,
    normalize_dims,
    return_type,
    std,
    std_backward,
    sum,
    sum_dim,
    var,
    var_backward,
)

__all__ = ["nansum", "nanmean", "var_mean", "std_mean", "aminmax", "nanmedian",
           "mode", "kthvalue", "cummax", "cummin", "logcumsumexp", "scan_", "quantile",
           "searchsorted", "bucketize", "isin", "unique_consecutive", "diff", "histc",
           "histogram", "histogramdd", "trapezoid", "cumulative_trapezoid", "cov", "corrcoef",
           "gradient"]


AMINMAX_TYPE = return_type("aminmax", ("min", "max"))
NANMEDIAN_TYPE, MODE_TYPE, KTHVALUE_TYPE, CUMMAX_TYPE, CUMMIN_TYPE = (
    return_type(n) for n in ("nanmedian", "mode", "kthvalue", "cummax", "cummin"))
HISTOGRAM_TYPE = return_type("histogram", ("hist", "bin_edges"))
HISTOGRAMDD_TYPE = return_type("histogramdd", ("hist", "bin_edges"))


def _refuse(kernel, *, bools=False):
    """A record's check: torch's kernel ``kernel`` has no complex (nor, with ``bools``,
    bool) loop."""
    def check(self, *args, **attrs):
        if self.is_complex() or (bools and self.dtype is bool_):
            raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                      f"'{self.dtype.scalar_name}'")
    return check


def _has_nan(a):
    """Whether the array's dtype has NaN: NumPy's floats and ml_dtypes' bfloat16 ("V")."""
    return a.dtype.kind in "fV"


def _sort_key(a):
    """``a`` as NumPy sorts it with NaN last: bfloat16 through float32 (exact)."""
    return a.astype(np.float32) if a.dtype.kind == "V" else a


def _dim(t, dim):
    """``dim`` wrapped for ``t`` (a 0-d tensor takes 0 and -1)."""
    return S.wrap_dim(dim, t._data.ndim)


def _check_nonempty_dim(t, dim, name):
    """torch's zero_numel_check_dims: a reduction along an empty dim has no identity."""
    if t._data.ndim and t._data.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


def _along_rows(xp, a, dim, row_fn, *, keepdim):
    """(values, int64 indices) of ``row_fn(row) -> (value, index)`` for every 1-d row of
    ``a`` along ``dim`` (a 0-d array is one row of one element)."""
    b = a.reshape(1) if a.ndim == 0 else a
    rows = np.moveaxis(b if isinstance(b, np.ndarray) else b.get(), dim, -1)  # CuPy: to host
    flat = rows.reshape(-1, rows.shape[-1])
    values = np.empty(len(flat), a.dtype)
    indices = np.empty(len(flat), np.int64)
    for r, row in enumerate(flat):
        values[r], indices[r] = row_fn(row)
    shape = rows.shape[:-1]
    values, indices = values.reshape(shape), indices.reshape(shape)
    if a.ndim == 0:
        return xp.asarray(values.reshape(())), xp.asarray(indices.reshape(()))
    if keepdim:
        values, indices = np.expand_dims(values, dim), np.expand_dims(indices, dim)
    return xp.asarray(values), xp.asarray(indices)


# -- nansum and nanmean ---------------------------------------------------------------------------

def _zero_nans(xp, a):
    return xp.where(xp.isnan(a), a.dtype.type(0), a) if _has_nan(a) else a


@declare("nansum", "NansumBackward0", saves={"self": "self"}, method="nansum", function="nansum")
def nansum_op(xp, a, dims, keepdim, dtype):
    """The sum with NaN read as zero, through the sum's own kernel."""
    return sum_dim.forward(xp, _zero_nans(xp, a), dims=dims, keepdim=keepdim, dtype=dtype)


@nansum_op.on_cpu
def _nansum_cpu(xp, a, dims, keepdim, dtype):
    if a.dtype.kind in "biu":
        return sum_dim.cpu_forward(xp, a, dims=dims, keepdim=keepdim, dtype=dtype)
    # torch's sum kernel, reading NaN as 0 as it loads (Note [torch's CPU sum])
    a = a if a.dtype == dtype else same_layout(a, lambda v: v.astype(dtype))
    dims = dims if a.ndim else ()
    out = torch_sum(a, dims, keepdim, nan=True)
    return out if keepdim else out.reshape([n for d, n in enumerate(out.shape) if d not in dims])


@nansum_op.def_backward
def nansum_backward(ctx, grad):
    x = ctx.self
    grad = grad.to(x.dtype) if grad.dtype is not x.dtype else grad
    return (_expand_back(grad, x.shape, ctx.dims, ctx.keepdim) * x.isnan().logical_not(),)


def _all_dims(dim, ndim):
    """torch's optional dim list: None or an empty list reduces every dim."""
    return normalize_dims(None if dim is None or dim == () or dim == [] else dim, ndim)


def nansum(t, dim=None, keepdim=False, dtype=None):
    """The sum of the elements that are not NaN (integers and bools sum in int64)."""
    if t.is_complex():
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if keepdim.__class__ is not bool:
        check_keepdim("nansum", keepdim)
    src = _BY_NP[t._data.dtype]
    out = (dtype or (int64 if src.category < 2 else src)).np
    return apply(nansum_op, t, dims=_all_dims(dim, t._data.ndim), keepdim=keepdim, dtype=out)


def nanmean(t, dim=None, keepdim=False, dtype=None):
    """The mean of the elements that are not NaN: torch's ``nansum / count`` (DivBackward0)."""
    if t.dtype.category < 2:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {t.dtype.scalar_name}")
    if dtype is not None and dtype.category < 2:
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be "
                           f"either a floating point or complex dtype. Got: {dtype.scalar_name}")
    factor = sum(t.isnan().logical_not(), dim, keepdim)
    return nansum(t, dim, keepdim, dtype).div(factor)


# -- var_mean and std_mean ------------------------------------------------------------------------

def _mean_forward(xp, a, dims, keepdim):
    return mean_dim.forward(xp, a, dims=tuple(range(a.ndim)) if dims is None else dims,
                            keepdim=keepdim)


@declare("var_mean", "VarMeanBackward0", outputs=("result", "mean"), saves={"self": "self"},
         function="var_mean")
def var_mean_op(xp, a, dims, correction, keepdim):
    return var.forward(xp, a, dims, correction, keepdim), _mean_forward(xp, a, dims, keepdim)


@declare("std_mean", "StdMeanBackward0", outputs=("result", "mean"),
         saves={"self": "self", "result": "self"}, function="std_mean")
def std_mean_op(xp, a, dims, correction, keepdim):
    return std.forward(xp, a, dims, correction, keepdim), _mean_forward(xp, a, dims, keepdim)


def _welford_mean(xp, a, dims, keepdim):
    """The mean var_mean / std_mean return on the CPU: Welford's, accumulated in double, so
    NumPy's float64 mean rounded (float64 inputs: NumPy's order; see _welford_pair)."""
    if a.dtype == np.float64 or a.dtype.kind not in "fV":
        return _mean_forward(xp, a, dims, keepdim)
    wide = _mean_forward(xp, a.astype(np.float64), dims, keepdim)
    return wide.astype(np.float32).astype(a.dtype, copy=False)


def _welford_pair(a, dims, correction, keepdim, take_sqrt):
    """float64 var_mean / std_mean as torch computes both, Welford's steps (Note [Welford's
    variance]); None for other dtypes (rounding hides the order) and past Welford's time
    budget."""
    reduced = range(a.ndim) if dims is None else dims
    if a.dtype != np.float64 or not a.size or not welford_reproduced(a.shape, dims):
        return None
    shape = [1 if d in reduced else n for d, n in enumerate(a.shape)] if keepdim else \
        [n for d, n in enumerate(a.shape) if d not in reduced]
    return tuple(r.reshape(shape) for r in welford_var(a, dims, correction, take_sqrt))


@var_mean_op.on_cpu
def _var_mean_cpu(xp, a, dims, correction, keepdim):
    return _welford_pair(a, dims, correction, keepdim, False) or (
        var.cpu_forward(xp, a, dims, correction, keepdim), _welford_mean(xp, a, dims, keepdim))


@std_mean_op.on_cpu
def _std_mean_cpu(xp, a, dims, correction, keepdim):
    return _welford_pair(a, dims, correction, keepdim, True) or (
        std.cpu_forward(xp, a, dims, correction, keepdim), _welford_mean(xp, a, dims, keepdim))


def _mean_part(ctx, grad):
    shape = ctx.input_meta[0][0]
    dims = tuple(range(len(shape))) if ctx.dims is None else ctx.dims
    return _expand_back(grad, shape, dims, ctx.keepdim) / max(_reduced_numel(shape, dims), 1)


def _spread_backward(spread):
    """The backward of var_mean / std_mean: the spread's gradient plus the mean's."""
    def backward(ctx, grads):
        g_spread, g_mean = grads
        out = None if g_spread is None else spread(ctx, g_spread)[0]
        if g_mean is not None:
            part = _mean_part(ctx, g_mean)
            out = part if out is None else out + part
        return (out,)
    return backward


var_mean_op.def_backward(_spread_backward(var_backward))
std_mean_op.def_backward(_spread_backward(std_backward))


def _spread_mean(op, name, t, dim, unbiased, keepdim, correction):
    if not t.is_floating_point():
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    dims = None if dim is None else normalize_dims(dim, t._data.ndim)
    if _reduced_numel(t._data.shape, dims) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel). "
                      "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                      "ReduceOps.cpp:1861.)", UserWarning, stacklevel=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own words for it
        return apply(op, t, dims=dims, correction=correction, keepdim=keepdim)


def var_mean(t, dim=None, unbiased=None, keepdim=False, correction=None):
    """(var, mean) over ``dim`` in one node (VarMeanBackward0)."""
    return _spread_mean(var_mean_op, "var_mean", t, dim, unbiased, keepdim, correction)


def std_mean(t, dim=None, unbiased=None, keepdim=False, correction=None):
    """(std, mean) over ``dim`` in one node (StdMeanBackward0)."""
    return _spread_mean(std_mean_op, "std_mean", t, dim, unbiased, keepdim, correction)


# -- aminmax ---------------------------------------------------------------------------------------

@declare("aminmax", "AminmaxBackward0", outputs=("min", "max"),
         saves={"self": "self", "min": "self", "max": "self"}, check=_refuse("aminmax_cpu"),
         method="aminmax", function="aminmax")
def aminmax_op(xp, a, dim, keepdim):
    axis = dim if a.ndim else None
    return xp.min(a, axis=axis, keepdims=keepdim), xp.max(a, axis=axis, keepdims=keepdim)


@aminmax_op.def_backward
def aminmax_backward(ctx, grads):
    """Each extreme's gradient shared evenly among the elements equal to it."""
    x = ctx.self
    dims = tuple(range(x.dim())) if ctx.dim is None else (ctx.dim,)
    out = None
    for grad, result in zip(grads, (ctx.min, ctx.max)):
        if grad is None:
            continue
        grad, result = _keep_dims(dims, ctx.keepdim, x.dim(), grad, result)
        mask = x == result
        part = (grad / mask.sum(dims, keepdim=True)) * mask
        out = part if out is None else out + part
    return (out,)


def aminmax(t, dim=None, keepdim=False):
    """(min, max) of all elements, or along ``dim``, in one node (AminmaxBackward0)."""
    if dim is None:
        if t._data.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
    else:
        dim = _dim(t, dim)
        if t._data.ndim and t._data.shape[dim] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {dim} to have non-zero size.")
    return AMINMAX_TYPE(*apply(aminmax_op, t, dim=dim, keepdim=keepdim))


# -- nanmedian, mode, kthvalue --------------------------------------------------------------------

@declare("nanmedian", "NanmedianBackward0", saves={"self": "self", "result": "self"},
         check=_refuse("median_cpu", bools=True), method="nanmedian", function="nanmedian")
def nanmedian_all(xp, a):
    """The lower median of the elements that are not NaN (NaN when all are)."""
    flat = a.reshape(-1)
    order = xp.argsort(_sort_key(flat), kind="stable")  # NaN last
    valid = flat.size - int(xp.isnan(flat).sum()) if _has_nan(flat) else flat.size
    if flat.size:
        return flat[order[max(valid - 1, 0) // 2]]
    with np.errstate(invalid="ignore"):  # NaN; an integer dtype gets C's cast of it
        return xp.asarray(xp.nan).astype(a.dtype)


nanmedian_all.def_backward(_evenly_distribute)


@declare("nanmedian", "NanmedianBackward1", outputs=("values", "indices"),
         saves={"indices": "self"}, check=_refuse("median_out", bools=True),
         method="nanmedian", function="nanmedian")
def nanmedian_dim(xp, a, dim, keepdim):
    """Each row's lower median of its values that are not NaN, and its position (ties: the
    first in a stable sort; an all-NaN row gives its first element)."""
    b = a.reshape(1) if a.ndim == 0 else a
    order = xp.argsort(_sort_key(b), axis=dim, kind="stable")  # NaN last
    nan = xp.isnan(b) if _has_nan(b) else xp.zeros(b.shape, bool)
    valid = b.shape[dim] - nan.sum(axis=dim, keepdims=True)
    where = xp.take_along_axis(order, xp.maximum(valid - 1, 0) // 2, dim)
    values = xp.take_along_axis(b, where, dim)
    if a.ndim == 0:
        return values.reshape(()), where.reshape(()).astype(np.int64)
    if not keepdim:
        values, where = values.squeeze(dim), where.squeeze(dim)
    return values, where.astype(np.int64, copy=False)


nanmedian_dim.def_backward(_select_backward)


def nanmedian(t, dim=None, keepdim=False):
    """The lower median ignoring NaN: of all elements, or (values, indices) along ``dim``."""
    if dim is None:
        return apply(nanmedian_all, t)
    if keepdim.__class__ is not bool:
        check_keepdim("nanmedian", keepdim)
    d = _dim(t, dim)
    _check_nonempty_dim(t, d, "median")
    return NANMEDIAN_TYPE(*apply(nanmedian_dim, t, dim=d, keepdim=keepdim))


def _mode_row(row):
    key = row.tolist()
    order = introsort(key)
    best, best_count, count = 0, 0, 0
    for i, pos in enumerate(order):
        count += 1
        if i == len(order) - 1 or key[pos] != key[order[i + 1]]:
            if count > best_count:
                best, best_count = pos, count
            count = 0
    return row[best], best


@declare("mode", "ModeBackward0", outputs=("values", "indices"), saves={"indices": "self"},
         check=_refuse("mode_cpu"), method="mode", function="mode")
def mode_op(xp, a, dim, keepdim):
    """Each row's most frequent value (the smallest of equally frequent ones) and a position
    of it, the one torch's kernel reports (Note [the order of ties])."""
    return _along_rows(xp, a, dim, _mode_row, keepdim=keepdim)


mode_op.def_backward(_select_backward)


def mode(t, dim=-1, keepdim=False):
    if keepdim.__class__ is not bool:
        check_keepdim("mode", keepdim)
    d = _dim(t, dim)
    _check_nonempty_dim(t, d, "mode")
    return MODE_TYPE(*apply(mode_op, t, dim=d, keepdim=keepdim))


def _check_kthvalue(self, k, dim, keepdim):
    n = self._data.shape[dim] if self._data.ndim else 1
    if not 0 < k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    _refuse("kthvalue_cpu", bools=True)(self)


@declare("kthvalue", "KthvalueBackward0", outputs=("values", "indices"),
         saves={"indices": "self"}, check=_check_kthvalue, method="kthvalue",
         function="kthvalue")
def kthvalue_op(xp, a, k, dim, keepdim):
    """Each row's k-th smallest value (NaN above every number) and the position torch's
    quickselect reports (Note [the order of ties])."""
    def row_fn(row):
        at = quickselect(row.tolist(), k - 1)
        return row[at], at
    return _along_rows(xp, a, dim, row_fn, keepdim=keepdim)


kthvalue_op.def_backward(_select_backward)


def kthvalue(t, k, dim=-1, keepdim=False):
    d = _dim(t, dim)
    _check_nonempty_dim(t, d, "kthvalue")
    return KTHVALUE_TYPE(*apply(kthvalue_op, t, k=k, dim=d, keepdim=keepdim))


# -- cummax, cummin, logcumsumexp, in-place cumsum and cumprod ------------------------------------

def _running_extreme(name):
    """cummax / cummin: torch's kernel keeps the running extreme ``out`` and its position,
    moving both to element i when it is NaN or, ``out`` being no NaN, when it is >= (<=)
    ``out``: ties take the later position, and a NaN sticks with the latest NaN's."""
    def forward(xp, a, dim):
        b = a.reshape(1) if a.ndim == 0 else a
        running = getattr(xp, name).accumulate(b, axis=dim)  # NaN propagates, as the kernel's
        moved = running == b
        if _has_nan(b):
            moved |= xp.isnan(b)
        where = [1] * b.ndim
        where[dim] = -1
        positions = xp.arange(b.shape[dim]).reshape(where)
        indices = xp.maximum.accumulate(xp.where(moved, positions, 0), axis=dim)
        values = xp.take_along_axis(b, indices, dim)  # the element itself: signed zeros
        return values.reshape(a.shape), indices.reshape(a.shape).astype(np.int64, copy=False)
    return forward


def _cum_extreme_backward(ctx, grads):
    """at::zeros(input) (an empty tensor zeroed in place), then scatter_add_(dim, indices,
    grad): each output's gradient to its source, at version 2 as torch's."""
    grad, x, indices = grads[0], ctx.self, ctx.indices  # (unpacked first: version checks)
    if x.numel() == 0:  # (torch returns the input itself)
        return (x,)
    return (grad.new_empty(grad.shape).zero_().scatter_add_(ctx.dim, indices, grad),)


cummax_op = declare("cummax", "CummaxBackward0", outputs=("values", "indices"),
                    saves={"indices": "self", "self": "self"}, check=_refuse("cummax_cpu"),
                    method="cummax", function="cummax")(
    _running_extreme("maximum"))
cummin_op = declare("cummin", "CumminBackward0", outputs=("values", "indices"),
                    saves={"indices": "self", "self": "self"}, check=_refuse("cummin_cpu"),
                    method="cummin", function="cummin")(
    _running_extreme("minimum"))
cummax_op.def_backward(_cum_extreme_backward)
cummin_op.def_backward(_cum_extreme_backward)


def _scan_dim(t, dim, name):
    """cummax / cummin's dim, as torch takes it: a 0-d tensor's -1 or 0 (with its own
    message); an empty tensor's is never checked (any dim gives the same empty result)."""
    if t._data.ndim == 0 and dim not in (-1, 0):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    if t._data.size == 0 and not -t._data.ndim <= dim < t._data.ndim:
        return 0
    return _dim(t, dim)


def cummax(t, dim):
    return CUMMAX_TYPE(*apply(cummax_op, t, dim=_scan_dim(t, dim, "cummax")))


def cummin(t, dim):
    return CUMMIN_TYPE(*apply(cummin_op, t, dim=_scan_dim(t, dim, "cummin")))


def _check_floating(kernel):
    def check(self, **attrs):
        if not self.is_floating_point():
            raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                      f"'{self.dtype.scalar_name}'")
    return check


def _log_add_exp(xp, x, y, exp, log1p):
    """torch's _log_add_exp_helper(x, y): log(exp(x) + exp(y)) as log1p(exp(min - max)) +
    max, with x itself where both are the same infinity (NaN in y wins, as std::min's)."""
    nan = xp.isnan(y)
    low = xp.where(nan, y, xp.where(y < x, y, x))
    high = xp.where(nan, y, xp.where(x < y, y, x))
    general = (low != high) | xp.isfinite(low)
    with np.errstate(invalid="ignore"):
        return xp.where(general, log1p(exp(low - high)) + high, x)


def _scan_log_add_exp(xp, a, dim, exp, log1p):
    """From -inf, each step log-adds the next element along ``dim``, in double for float32
    (float for float16), each output rounded to ``a``'s dtype."""
    b = a.reshape(1) if a.ndim == 0 else a
    acc = np.float64 if b.dtype == np.float32 else np.float32 if b.dtype == np.float16 else \
        b.dtype
    rows = xp.moveaxis(b, dim, 0).astype(acc)
    out = xp.empty(rows.shape, b.dtype)
    total = xp.full(rows.shape[1:], -xp.inf, acc)
    for i in range(len(rows)):
        total = _log_add_exp(xp, rows[i], total, exp, log1p)
        out[i] = total
    return xp.moveaxis(out, 0, dim).reshape(a.shape)


@declare("logcumsumexp", "LogcumsumexpBackward0", saves={"self": "self", "result": "self"},
         check=_check_floating("logcumsumexp_out_cpu"), method="logcumsumexp",
         function="logcumsumexp")
def logcumsumexp_op(xp, a, dim):
    return _scan_log_add_exp(xp, a, dim, xp.exp, xp.log1p)


def _libm(fn):
    """``fn`` of the C library on each element of a float64 array (NumPy's own float64 exp
    and log1p may differ from glibc's in the last bit)."""
    each = np.frompyfunc(fn, 1, 1)
    return lambda x: np.asarray(each(x), np.float64)


_LIBM_EXP, _LIBM_LOG1P = _libm(math.exp), _libm(math.log1p)


@logcumsumexp_op.on_cpu
def _logcumsumexp_cpu(xp, a, dim):
    """torch's CPU scan calls the C library's exp and log1p, in double for float32 and
    float64 (float16's float steps, rounded to half, take NumPy's)."""
    if a.dtype == np.float16:
        return _scan_log_add_exp(xp, a, dim, xp.exp, xp.log1p)
    return _scan_log_add_exp(xp, a, dim, _LIBM_EXP, _LIBM_LOG1P)


@logcumsumexp_op.def_backward
def logcumsumexp_backward(ctx, grad):
    """torch's formula: the gradient's positive and negative parts, each through a reversed
    logcumsumexp in log space."""
    if grad.dim() == 0 or grad.numel() == 0:
        return (grad,)
    x, result, dim = ctx.self, ctx.result, ctx.dim
    lowest = float(np.finfo(grad._data.dtype).min)
    log_abs = grad.abs().log()
    log_pos = where_tensor(grad > 0, log_abs, lowest)
    log_neg = where_tensor(grad < 0, log_abs, lowest)

    def reverse_logcumsumexp(t):
        return t.flip(dim).logcumsumexp(dim).flip(dim)
    return ((reverse_logcumsumexp(log_pos - result) + x).exp()
            - (reverse_logcumsumexp(log_neg - result) + x).exp(),)


def logcumsumexp(t, dim):
    return apply(logcumsumexp_op, t, dim=_dim(t, dim))


def scan_(name, t, dim, dtype=None):
    """``cumsum_`` / ``cumprod_``: the scan written into ``t`` (in its own dtype)."""
    if dtype is not None and dtype is not t.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {t.dtype.c_name} and output "
                           f"tensor dtype {dtype.c_name} should match")
    if t.dtype is bool_ and t.dim() and t.numel():  # (torch copies a 0-d or empty tensor)
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")
    op = cumsum_op if name == "cumsum" else cumprod_op
    return apply_(op, t, dim=_dim(t, dim), dtype=t._data.dtype)


# -- searchsorted, bucketize, isin ------------------------------------------------------------

def _check_searchsorted(boundaries, values, right, side, sorter):
    """torch's searchsorted_pre_check, in its order."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got "
                               f"{side}")
        if right and side != "right":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                               f"got side of {side} while right was True")
    bd = boundaries._data
    if sorter is not None:
        if sorter._data.shape != bd.shape:
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, "
                               f"but got boundary tensor {_sizes(bd.shape)}and got sorter tensor "
                               f"{_sizes(sorter._data.shape)}")
        if sorter.dtype is not int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but "
                               f"got dtype {sorter.dtype.scalar_name}")
        s = sorter._data
        if s.size and (int(s.min()) < 0 or int(s.max()) >= bd.shape[-1]):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
    v = values._data
    if v.ndim == 0 and bd.ndim != 1:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({bd.ndim}) and input value's dim(0) numel(1)")
    if bd.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if bd.ndim != 1 and (bd.ndim != v.ndim or bd.shape[:-1] != v.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                           "first N-1 dimensions of boundaries tensor and input value tensor must "
                           f"match, but we got boundaries tensor {_sizes(bd.shape)} and input "
                           f"value tensor {_sizes(v.shape)}")
    if boundaries.dtype is bool_ and values.dtype is bool_:  # (else computed in the other's)
        raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    for t in (boundaries, values):
        _refuse("searchsorted_out_cpu")(t)


def _sizes(shape):
    return f"[{', '.join(map(str, shape))}]"


@declare("searchsorted", None, ("sorted_sequence", "self", "sorter"), function="searchsorted")
def searchsorted_op(xp, bd, v, sorter, out_int32, right):
    """For each value, the number of boundaries below it (``right``: not above it), by torch's
    binary search: ``!(mid >= v)`` (``!(mid > v)``) goes right, so NaN goes right of all."""
    if sorter is not None:
        bd = xp.take_along_axis(bd, sorter, -1)
    n = bd.shape[-1]
    rows = bd.reshape(1, n) if bd.ndim == 1 else bd.reshape(-1, n)
    flat = v.reshape(1, -1) if bd.ndim == 1 else v.reshape(len(rows), -1)
    start = xp.zeros(flat.shape, np.int64)
    end = xp.full(flat.shape, n, np.int64)
    while True:
        active = start < end
        if not active.any():
            break
        mid = start + ((end - start) >> 1)
        mid_val = xp.take_along_axis(rows, xp.minimum(mid, n - 1), -1)
        right_of = ~(mid_val > flat) if right else ~(mid_val >= flat)
        start = xp.where(active & right_of, mid + 1, start)
        end = xp.where(active & ~right_of, mid, end)
    return start.reshape(v.shape).astype(np.int32 if out_int32 else np.int64, copy=False)


def _as_tensor(value, like):
    """A Python number as a 0-d tensor on ``like``'s device (torch's wrapped scalar)."""
    return value if isinstance(value, TensorBase) else tensor(value, device=like.device)


def searchsorted(sorted_sequence, values, out_int32=False, right=False, side=None, sorter=None):
    """Where ``values`` would go in the innermost rows of ``sorted_sequence``."""
    values = _as_tensor(values, sorted_sequence)
    _check_searchsorted(sorted_sequence, values, right, side, sorter)
    return apply(searchsorted_op, sorted_sequence, values, sorter, out_int32=out_int32,
                 right=right or side == "right")


def bucketize(values, boundaries, out_int32=False, right=False):
    """The bucket of each value among the 1-d ``boundaries``: torch's searchsorted."""
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries._data.ndim})")
    return searchsorted(boundaries, values, out_int32, right)


def _check_isin(elements, test_elements, invert):
    for t in (elements, test_elements):
        if t.dtype is bool_ or t.is_complex():
            raise RuntimeError("Unsupported input type encountered for isin(): "
                               f"{t.dtype.scalar_name}")


@declare("isin", None, ("elements", "test_elements"), check=_check_isin, function="isin")
def isin_op(xp, a, b, invert):
    """Whether each element equals some test element (NaN equals nothing)."""
    return xp.isin(a, b.reshape(-1), invert=invert)


def isin(elements, test_elements, assume_unique=False, invert=False):
    like = elements if isinstance(elements, TensorBase) else test_elements
    return apply(isin_op, _as_tensor(elements, like), _as_tensor(test_elements, like),
                 invert=invert)


# -- unique_consecutive ------------------------------------------------------------------------

@declare("unique_consecutive", "UniqueConsecutiveBackward0",
         outputs=("values", "inverse", "counts"), layout="forward", check=_refuse("unique"),
         method="unique_consecutive", function="unique_consecutive")
def unique_consecutive_op(xp, a, dim):
    """The first of each run of equal elements (slices along ``dim``), the run each element
    is in, and the runs' lengths (NaN equals nothing: each NaN is a run).  Along ``dim``,
    torch works on the dim moved to the front and moves the result back (a strided result)."""
    moved = a.reshape(-1) if dim is None else xp.moveaxis(a, dim, 0)
    rows = moved.reshape(len(moved), math.prod(moved.shape[1:]))
    starts = xp.ones(len(rows), bool)
    starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    first = xp.flatnonzero(starts)
    values = xp.ascontiguousarray(moved[first])
    inverse = xp.cumsum(starts) - 1
    counts = xp.diff(xp.append(first, len(rows)))
    if dim is None:
        inverse = inverse.reshape(a.shape)
    else:
        values = xp.moveaxis(values, 0, dim)
    return values, inverse.astype(np.int64), counts.astype(np.int64)


@unique_consecutive_op.def_backward
def unique_consecutive_backward(ctx, grad):
    raise NotImplementedError("the derivative for 'unique_consecutive' is not implemented.")


def unique_consecutive(t, return_inverse=False, return_counts=False, dim=None):
    """The first element (or slice along ``dim``) of each run of equal ones, with the inverse
    indices and the runs' lengths when asked."""
    bool(return_inverse), bool(return_counts)  # (torch's boolean_dispatch reads them first)
    check_keywords("unique_consecutive", ("bool return_inverse", return_inverse),
                   ("bool return_counts", return_counts), ("int64_t? dim", dim))
    if dim is not None and not t.dim():
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = None if dim is None else _dim(t, dim)
    shape = t._data.shape
    if d is not None and 0 in shape and shape[d] != 0:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    values, inverse, counts = apply(unique_consecutive_op, t, dim=d)
    extra = [x for x, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return tuple([values, *extra]) if extra else values


# -- diff -------------------------------------------------------------------------------------

def _check_diff_part(t, other, dim):
    """torch's diff_check_compatible_shape for ``prepend`` / ``append``."""
    if other is None:
        return
    d = _dim(t, dim)
    if other.dim() != t.dim():
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (mine, theirs) in enumerate(zip(t.shape, other.shape)):
        if i != d and mine != theirs:
            raise RuntimeError("diff expects the shape of tensor to prepend or append to match "
                               "that of input except along the differencing dimension; "
                               f"input.size({i}) = {mine}, but got tensor.size({i}) = {theirs}")


def diff(t, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (``prepend`` / ``append`` joined first),
    composed as torch composes it: narrow and subtract ``n`` times (bools: not-equal)."""
    if t.dim() < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    _check_diff_part(t, prepend, dim)
    _check_diff_part(t, append, dim)
    if n == 0:
        return full_like(t, 0).copy_(t)
    if prepend is not None or append is not None:
        t = cat([p for p in (prepend, t, append) if p is not None], dim)
    size = t.shape[_dim(t, dim)]
    for length in range(size - 1, size - 1 - min(n, size), -1):
        later, earlier = t.narrow(dim, 1, length), t.narrow(dim, 0, length)
        t = later != earlier if t.dtype is bool_ else later - earlier
    return t


# -- histc and histogram -------------------------------------------------------------------------

def _c_double(value, computed=False):
    """A double as C++'s ostream prints it (a ``computed`` NaN has its sign bit: -nan)."""
    if math.isnan(value):
        return "-nan" if computed else "nan"
    return f"{value:g}"


def _check_bins(bins):
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")


def _edges(t, left, right, bins):
    """torch's bin edges: linspace(left, right, bins + 1) in ``t``'s dtype."""
    dtype = t.dtype if t.is_floating_point() else float64
    return linspace(left, right, bins + 1, dtype=dtype, device=t.device)


def _bin_positions(xp, x, edges, search):
    """Each element's bin (-1: outside the edges or NaN), as torch's histogram kernel finds
    it: ``linear`` by division, ``local`` by division then a look at the neighbouring edges,
    ``binary`` by a binary search (the last bin holds its right edge)."""
    bins = len(edges) - 1
    left, right = edges[0], edges[-1]
    inside = (x >= left) & (x <= right)
    if search == "binary":
        pos = xp.searchsorted(edges, x, side="right") - 1
    else:
        with np.errstate(invalid="ignore"):
            scaled = (x - left) * x.dtype.type(bins) / (right - left)
        pos = xp.where(inside, scaled, 0).astype(np.int64)
        if search == "local":
            low, high = xp.maximum(pos - 1, 0), xp.minimum(pos + 2, bins + 1)
            below = xp.zeros(x.shape, np.int64)
            for k in range(3):
                at = low + k
                below += (at < high) & (edges[xp.minimum(at, bins)] <= x)
            pos = low + below - 1
    pos = xp.where(pos == bins, bins - 1, pos)
    return xp.where(inside, pos, -1)


def _counts(xp, x, edges, weight, search):
    pos = _bin_positions(xp, x.reshape(-1), edges, search)
    keep = pos >= 0
    hist = xp.zeros(len(edges) - 1, x.dtype)
    if weight is None:
        hist += xp.bincount(pos[keep], minlength=len(hist)).astype(x.dtype)
    else:
        xp.add.at(hist, pos[keep], weight.reshape(-1)[keep])  # in order, in the dtype
    return hist


@declare("histc", None, ("self", "bin_edges"))
def histc_op(xp, a, edges):
    return _counts(xp, a, edges, None, "linear")


def histc(t, bins=100, min=0, max=0):  # noqa: A002  (torch's names)
    """Counts of ``t``'s elements in ``bins`` equal bins over [min, max] (the elements' own
    range when min == max); elements outside, and NaN, are not counted."""
    _check_bins(bins)
    left, right, computed = float(min), float(max), False
    if left == right and t.numel():
        _refuse("aminmax_cpu")(t)
        # a NaN that torch's min/max kernels made (of two or more elements) prints as -nan,
        # except bfloat16's
        left, right = float(t.min()), float(t.max())
        computed = t.numel() > 1 and t.dtype is not bfloat16
    if left == right:
        left, right = left - 1, right + 1
    if not (math.isfinite(left) and math.isfinite(right)):
        raise RuntimeError(f"torch.histc: range of [{_c_double(left, computed)}, "
                           f"{_c_double(right, computed)}] is not finite")
    if not left < right:
        raise RuntimeError("torch.histc: max must be larger than min")
    if not t.is_floating_point():
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for "
                                  f"'{t.dtype.scalar_name}'")
    return apply(histc_op, t, _edges(t, left, right, bins))


def _check_histogram(t, edges, weight):
    """torch's histogramdd_check_inputs: ``t`` is (..., N) points, ``edges`` N 1-d tensors,
    ``weight`` one per point."""
    n = t.shape[-1]
    if len(edges) != n:
        raise RuntimeError(f"torch.histogramdd: expected {n} sequences of bin edges for a "
                           f"{n}-dimensional histogram but got {len(edges)}")
    for d, e in enumerate(edges):
        if e.dtype is not t.dtype:
            raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have "
                               f"the same dtype, but got input with dtype {t.dtype.c_name} and "
                               f"bins for dimension {d} with dtype {e.dtype.c_name}")
        if e.dim() != 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {e.dim()} dimensions in the bins tensor for dimension {d}")
        if not e.numel():
            raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, "
                               f"but got 0 elements in the bins tensor for dimension {d}")
    if weight is not None:
        if weight.dtype is not t.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and "
                               "weight tensor should have the same dtype, but got "
                               f"input({t.dtype.c_name}), and weight({weight.dtype.c_name})")
        if tuple(weight.shape) != tuple(t.shape[:-1]):
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have "
                               "the same shape as the input tensor excluding its innermost "
                               f"dimension, but got input with shape {_sizes(t.shape)} and "
                               f"weight with shape {_sizes(weight.shape)}")


def _not_implemented(op):
    """A backward for ``op`` (a NotImplemented node) refusing with the name of the aten op
    (the ``aten`` attr), as torch's does."""
    @op.def_backward
    def refuse(ctx, grads):
        raise RuntimeError(f"derivative for aten::{ctx.aten} is not implemented")
    return op


@declare("histogramdd", "NotImplemented", ("self", "weight"), unsaved=("edges", "aten"))
def histogramdd_op(xp, points, weight, edges, search, density, aten):
    """The (weighted) counts of the (M, N) ``points`` in the bins the N ``edges`` arrays make
    (NaN and points outside are not counted); ``density`` divides by the total and by each
    bin's lengths."""
    shape = tuple(len(e) - 1 for e in edges)
    flat = xp.zeros(len(points), np.int64)
    keep = xp.ones(len(points), bool)
    for d, e in enumerate(edges):
        pos = _bin_positions(xp, points[:, d], e, search)
        keep &= pos >= 0
        flat = flat * shape[d] + pos
    hist = xp.zeros(math.prod(shape), points.dtype)
    if weight is None:
        hist += xp.bincount(flat[keep], minlength=len(hist)).astype(points.dtype)
    else:
        xp.add.at(hist, flat[keep], weight.reshape(-1)[keep])  # in order, in the dtype
    hist = hist.reshape(shape)
    if density:
        hist = hist / hist.dtype.type(hist.sum())
        for d, e in enumerate(edges):
            hist = hist / xp.diff(e).reshape([-1 if k == d else 1 for k in range(len(shape))])
    return hist


@declare("histogram_bin_edges", "NotImplemented", ("self", "bins"), unsaved=("aten",))
def bin_edges_op(xp, a, edges, aten):
    """The bin edges as a histogram returns them: a copy, a node of its own."""
    return edges.copy()


_not_implemented(histogramdd_op)
_not_implemented(bin_edges_op)


def _outer_edges(points, range_):
    """torch's select_outer_bin_edges for the (M, N) ``points``: (left, right) per dim, from
    ``range`` or the points' own extremes (an empty range widened by 0.5 each way)."""
    n = points.shape[-1]
    if range_ is not None:
        if len(range_) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range "
                               f"should have {2 * n} elements, but got {len(range_)}")
        pairs = [(float(range_[2 * d]), float(range_[2 * d + 1])) for d in range(n)]
    elif points.numel():
        if points.dtype.name not in ("float32", "float64"):
            raise NotImplementedError(f"\"histogramdd\" not implemented for "
                                      f"'{points.dtype.scalar_name}'")
        pairs = list(zip(points.amin(0).tolist(), points.amax(0).tolist()))
    else:
        pairs = [(0.0, 1.0)] * n
    for d, (left, right) in enumerate(pairs):
        if not (math.isfinite(left) and math.isfinite(right)):
            raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{_c_double(left)}, "
                               f"{_c_double(right)}] is not finite")
        if left > right:
            raise RuntimeError("torch.histogramdd: min should not exceed max, but got min "
                               f"{_c_double(left)} max {_c_double(right)} for dimension {d}")
    return [(a - 0.5, b + 0.5) if a == b else (a, b) for a, b in pairs]


def _check_bin_counts(counts):
    for d, bins in enumerate(counts):
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                               f"dimension {d}")


def histogram(t, bins=100, range=None, weight=None, density=False):  # noqa: A002
    """(hist, bin_edges): ``bins`` equal bins over ``range`` (the elements' own range by
    default), or the given edges; ``weight`` per element; ``density`` normalises."""
    points = t.reshape(-1, 1)
    weight = None if weight is None else weight.reshape(-1)
    if isinstance(bins, TensorBase):
        _check_histogram(points, [bins], weight)
        edges, search = bins, "binary"
    else:
        _check_bin_counts([bins])
        edges, search = _edges(t, *_outer_edges(points, range)[0], bins), "local"
        _check_histogram(points, [edges], weight)
    hist = apply(histogramdd_op, points, weight, edges=(edges._data,), search=search,
                 density=density, aten="histogram")
    return HISTOGRAM_TYPE(hist, apply(bin_edges_op, t, edges, aten="histogram"))


def histogramdd(t, bins, range=None, weight=None, density=False):  # noqa: A002
    """(hist, bin_edges) of the points along ``t``'s last dim (N coordinates each): ``bins``
    per dim as counts (one int for all) or edge tensors; ``range``: left, right per dim."""
    if t.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = t.shape[-1]
    points = t.reshape(-1, n)
    if isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], TensorBase):
        _check_histogram(t, list(bins), weight)
        edges, search, aten = tuple(bins), "binary", "_histogramdd_from_bin_tensors"
    else:
        counts = [bins] * n if isinstance(bins, int) else list(bins)
        outer = _outer_edges(points, range)
        if len(counts) != n:
            raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                               "dimension of the input.")
        _check_bin_counts(counts)
        edges = tuple(apply(bin_edges_op, t, _edges(t, left, right, c),
                            aten="_histogramdd_bin_edges")
                      for (left, right), c in zip(outer, counts))
        _check_histogram(t, list(edges), weight)
        search, aten = "local", "_histogramdd_from_bin_cts"
    hist = apply(histogramdd_op, points, None if weight is None else weight.reshape(-1),
                 edges=tuple(e._data for e in edges), search=search, density=density,
                 aten=aten)
    return HISTOGRAMDD_TYPE(hist, edges)


# -- trapezoid, cumulative_trapezoid --------------------------------------------------------------

def _slices(t, dim):
    """(t[..., :-1, ...], t[..., 1:, ...]) along ``dim`` (empty when the dim is)."""
    head = (slice(None),) * dim
    return t[head + (slice(0, -1),)], t[head + (slice(1, None),)]


def _check_trapezoid_dim(y, dim):
    if not y.dim():
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _dim(y, dim)


def _spacing(y, x, dim, name):
    """torch's dx for sample points ``x``: x viewed against ``y``'s dims, differenced."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[dim] = x.shape[0]
        x = x.view(shape)
    elif x.dim() < y.dim():
        x = x.view([1] * (y.dim() - x.dim()) + list(x.shape))
    left, right = _slices(x, dim)
    return right - left


def _check_real_dx(dx, name):
    if isinstance(dx, (bool, complex)):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")


def trapezoid(y, x=None, dx=None, dim=-1):
    """The trapezoidal rule along ``dim``, with sample points ``x`` or spacing ``dx`` (1)."""
    d = _check_trapezoid_dim(y, dim)
    if y.shape[d] == 0:
        return full_like(y.sum(d).detach(), 0, dtype=y.dtype)
    if x is not None:
        if y.dtype is bool_ or x.dtype is bool_:
            raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is "
                               "not supported")
        left, right = _slices(y, d)
        return over_number((_spacing(y, x, d, "trapezoid") * (right + left)).sum(d), 2.0)
    if y.dtype is bool_:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    dx = 1 if dx is None else dx
    _check_real_dx(dx, "trapezoid")
    ends = y.select(d, 0) + y.select(d, -1)
    return times_number(y.sum(d) - times_number(ends, 0.5), float(dx))


def cumulative_trapezoid(y, x=None, dx=None, dim=-1):
    """The running trapezoidal rule along ``dim`` (one element fewer than ``y``)."""
    d = _dim(y, dim)
    if not y.dim():
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    left, right = _slices(y, d)
    if x is not None:
        if y.dtype is bool_ or x.dtype is bool_:
            raise RuntimeError("cumulative_trapezoid: received a bool input for `x` or `y`, but "
                               "bool is not supported")
        dx_t = _spacing(y, x, d, "cumulative_trapezoid")
        return over_number((dx_t * (left + right)).cumsum(d), 2.0)
    if y.dtype is bool_:
        raise RuntimeError("cumulative_trapezoid: received a bool input for `y`, but bool is "
                           "not supported")
    dx = 1 if dx is None else dx
    _check_real_dx(dx, "cumulative_trapezoid")
    return times_number(left + right, float(dx) / 2.0).cumsum(d)


# -- cov and corrcoef ------------------------------------------------------------------------------

def _check_weights(w, kind, n):
    name = "fweights" if kind == "integral" else "aweights"
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {w.dim()} dimensions")
    ok = w.dtype.category == 1 if kind == "integral" else w.is_floating_point()
    if not ok:
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{w.dtype.scalar_name} dtype")
    if w.numel() != n:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w.numel()} != {n}")
    if n and bool(w.min() < 0):
        raise RuntimeError(f"cov(): {name} cannot be negative")


def cov(t, correction=1, fweights=None, aweights=None):
    """The covariance of the rows of ``t`` (variables) over its columns (observations),
    composed as torch composes it (a matrix product, divided, squeezed)."""
    if t.dim() > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {t.dim()} dimensions")
    if t.dtype is bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = t.view(1, -1) if t.dim() < 2 else t
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "integral", n)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "floating point", n)
        w = aweights if w is None else w * aweights
    w_sum = tensor(n, device=t.device) if w is None else w.sum()
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x if w is None else x * w).sum(1) / w_sum
    if w is not None and correction != 0 and aweights is not None:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm = w_sum - correction
    if bool(norm <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the number of observations. (Triggered internally at /__w/pytorch/"
                      "pytorch/aten/src/ATen/native/Correlation.cpp:129.)", UserWarning,
                      stacklevel=3)
        norm.zero_()
    x = x - avg.unsqueeze(1)
    return x.mm((x if w is None else x * w).t().conj()).true_divide(norm).squeeze()


def corrcoef(t):
    """Pearson's correlation coefficients of the rows of ``t``: cov normalised by the
    standard deviations, clipped to [-1, 1]."""
    if t.dim() > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {t.dim()} dimensions")
    c = cov(t)
    if not c.dim():
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


# -- quantile and nanquantile ---------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _check_quantile(t, q):
    if not t.numel():
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if t.dtype.name not in ("float32", "float64"):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype is not t.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if q.device != t.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")
    if not bool(((q >= 0) & (q <= 1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")


def quantile(t, q, dim=None, keepdim=False, interpolation="linear", ignore_nan=False):
    """The ``q``-th quantiles along ``dim`` (of all elements when None), composed as torch
    composes them: sort, ranks from ``q``, gather the neighbours, lerp in place, squeeze in
    place (SqueezeBackward4)."""
    if not isinstance(q, TensorBase):
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")
        q = tensor(q, dtype=t.dtype, device=t.device) if t.is_floating_point() else \
            tensor(float(q), device=t.device)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    d = _dim(t, 0 if dim is None else dim)
    _check_quantile(t, q)
    if dim is None:
        values = t.flatten().sort().values
        shape = [1] * t.dim() if keepdim else []
    else:
        values = t.unsqueeze(-1).transpose(d, -1).sort().values
        shape = list(t.shape) if t.dim() else []
        if shape:
            shape[d:d + 1] = [1] if keepdim else []
    values = values.view(shape + [values.shape[-1]])
    if ignore_nan:
        ranks = q * (values.isnan().logical_not().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        last = values.shape[-1] - 1
        ranks = q * last
        nan = values.isnan().any(-1, True)
        shape = tuple(nan.shape[:-1]) + tuple(ranks.shape[-1:] or (1,))
        ranks = ranks.expand(shape).masked_fill(nan.expand(shape), last)
    if interpolation in ("lower", "higher", "nearest"):
        {"lower": ranks.floor_, "higher": ranks.ceil_, "nearest": ranks.round_}[interpolation]()
    below = ranks.long()
    out = values.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = values.gather(-1, ranks.ceil_().long())
        out.lerp_(above, weights)
    if q.dim() == 0:
        return out.squeeze_(-1)
    return out.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


# -- gradient --------------------------------------------------------------------------------------

def _cut(t, dim, start, stop=None):
    """torch's slice(t, dim, start, stop): Python's clamped slicing along ``dim``."""
    return t[(slice(None),) * dim + (slice(start, stop),)]


def _check_gradient(t, spacing_size, dims, edge_order):
    """torch's pre_check_gradient, in its order (``dims`` None: every dim)."""
    if t.dtype.name == "uint8":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != t.dim():
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a "
                           f"list of length equal to 'self.dim() = {t.dim()}', since dim argument "
                           f"was not given, but got a list of length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's "
                           "spacing and dim arguments to have the same length, but got a spacing "
                           f"argument of length {spacing_size} and a dim argument of length "
                           f"{len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dims is not None:
        normalize_dims(dims, t.dim())
    for d in range(t.dim()) if dims is None else dims:
        if t.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")


def _gradient_uniform(t, d, h, edge_order):
    """Central differences along ``d`` for the spacing ``h`` (a number)."""
    center = over_number(_cut(t, d, 2) - _cut(t, d, 0, -2), h)
    if edge_order == 1:
        first = over_number(_cut(t, d, 1, 2) - _cut(t, d, 0, 1), h)
        last = over_number(_cut(t, d, -1) - _cut(t, d, -2, -1), h)
    else:
        first = over_number(times_number(_cut(t, d, 0, 1), -1.5)
                            + times_number(_cut(t, d, 1, 2), 2)
                            - times_number(_cut(t, d, 2, 3), 0.5), h)
        last = over_number(times_number(_cut(t, d, -3, -2), 0.5)
                           - times_number(_cut(t, d, -2, -1), 2)
                           + times_number(_cut(t, d, -1), 1.5), h)
    return cat([first, over_number(center, 2), last], d)


def _gradient_coordinates(t, d, x, edge_order):
    """Second-order differences along ``d`` for the sample coordinates ``x`` (1-d)."""
    if x.dim() != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one "
                           f"dimension, but got an element with {x.dim()} dimensions!")
    shape = [1] * t.dim()
    shape[d] = -1
    h = x.diff(1, 0)
    h1, h2 = _cut(h, 0, 0, -1), _cut(h, 0, 1)
    a = (-h2 / (h1 * (h1 + h2))).reshape(shape)
    b = ((h2 - h1) / (h1 * h2)).reshape(shape)
    c = (h1 / (h2 * (h1 + h2))).reshape(shape)
    center = a * _cut(t, d, 0, -2) + b * _cut(t, d, 1, -1) + c * _cut(t, d, 2)
    if edge_order == 1:
        first = (_cut(t, d, 1, 2) - _cut(t, d, 0, 1)) / h[0]
        last = (_cut(t, d, -1) - _cut(t, d, -2, -1)) / h[-1]
    else:
        a = -(times_number(h[0], 2.0) + h[1]) / (h[0] * (h[0] + h[1]))
        b = (h[0] + h[1]) / (h[0] * h[1])
        c = (-h[0]) / (h[1] * (h[0] + h[1]))
        first = a * _cut(t, d, 0, 1) + b * _cut(t, d, 1, 2) + c * _cut(t, d, 2, 3)
        a = h[-1] / (h[-2] * (h[-1] + h[-2]))
        b = -(h[-1] + h[-2]) / (h[-1] * h[-2])
        c = (times_number(h[-1], 2) + h[-2]) / (h[-1] * (h[-1] + h[-2]))
        last = a * _cut(t, d, -3, -2) + b * _cut(t, d, -2, -1) + c * _cut(t, d, -1)
    return cat([first, center, last], d)


def gradient(t, spacing=None, dim=None, edge_order=1):
    """The derivative estimated along each of ``dim`` (every dim when None) by central
    differences, one-sided at the edges; ``spacing``: a number, one number per dim, or the
    sample coordinates (1-d tensors) per dim."""
    if isinstance(dim, int):
        dims, given = [dim], None
    else:
        dims = list(range(t.dim())) if dim is None else list(dim)
        given = None if dim is None else dims
    if spacing is None or isinstance(spacing, (int, float)):
        size = None if spacing is None else len(dims)
        spacing = [1.0 if spacing is None else spacing] * len(dims)
    else:
        spacing = list(spacing)
        size = len(spacing)
    _check_gradient(t, size, None if dim is None else dims if given is None else given,
                    edge_order)
    out = []
    for d, h in zip(dims, spacing):
        d = _dim(t, d)
        if isinstance(h, TensorBase):
            out.append(_gradient_coordinates(t, d, h, edge_order))
        else:
            out.append(_gradient_uniform(t, d, h, edge_order))
    return tuple(out)
