"""Reductions: sum, mean, prod, max/min, argmax/argmin, var/std, and ``sum_to_size``."""

import collections
import math

import numpy as np

from .. import _strides as S
from .._dtypes import _BY_NP, get_default_dtype, int64
from ..autograd.grad_mode import GradMode
from ._registry import declare, needs_grad, record, recorded, wrap_result
from .pointwise import where_tensor
from .views import expand_gradient

__all__ = ["reduce", "sum_to_size", "max_min", "return_type"]


def normalize_dims(dim, ndim):
    """``dim`` (None, int or sequence) as a sorted tuple of non-negative dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    dims = tuple(sorted(S.wrap_dim(d, ndim) for d in dim))
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
    return dims


def _keep_dims(dims, keepdim, ndim, *tensors):
    """``tensors`` (results of a reduction over the sorted ``dims`` of an ``ndim``-d input)
    with the reduced dims back as size 1, as ``keepdim=True`` would have left them."""
    if keepdim or not ndim:
        return tensors
    out = []
    for t in tensors:
        for d in dims:
            t = t.unsqueeze(d)
        out.append(t)
    return tuple(out)


def _expand_back(grad, shape, dims, keepdim):
    """Broadcast a reduced gradient back to the input shape."""
    grad, = _keep_dims(dims, keepdim, len(shape), grad)
    return grad.expand(shape)


def _reduced_axis(ndim, dims):
    return None if len(dims) == ndim else dims


# -- sum and mean --------------------------------------------------------------------------------


# torch accumulates float16 reductions in float32 and rounds once at the end
_F16 = np.dtype(np.float16)


def _acc(dtype):
    return np.float32 if dtype == _F16 else dtype


def _done(out, dtype):
    return out.astype(dtype) if dtype == _F16 else out


@declare("sum", "SumBackward0")
def sum_all(xp, a, dtype=None):
    return _done(a.sum(dtype=_acc(dtype)), dtype)  # the method: np.sum's wrapper costs 1 us


@declare("sum", "SumBackward1")
def sum_dim(xp, a, dims=(), keepdim=False, dtype=None):
    return _done(a.sum(axis=dims, dtype=_acc(dtype), keepdims=keepdim), dtype)


@sum_all.def_backward
def _(ctx, grad):
    return (expand_gradient(grad, ctx.input_meta[0][0]),)


@sum_dim.def_backward
def _(ctx, grad):
    return (_expand_back(grad, ctx.input_meta[0][0], ctx.dims, ctx.keepdim),)


@declare("mean", "MeanBackward0")
def mean_all(xp, a):
    return _done(a.mean(dtype=_acc(a.dtype)), a.dtype)


@declare("mean", "MeanBackward1")
def mean_dim(xp, a, dims=(), keepdim=False):
    return _done(a.mean(axis=dims, dtype=_acc(a.dtype), keepdims=keepdim), a.dtype)


@mean_all.def_backward
def _(ctx, grad):
    shape = ctx.input_meta[0][0]
    return (expand_gradient(grad, shape) / max(math.prod(shape), 1),)


@mean_dim.def_backward
def _(ctx, grad):
    shape = ctx.input_meta[0][0]
    n = math.prod([shape[d] for d in ctx.dims])
    return (_expand_back(grad, shape, ctx.dims, ctx.keepdim) / max(n, 1),)


def reduce(name, t, dim=None, keepdim=False, dtype=None):
    """sum/mean over ``dim`` (all dims when None) with torch's dtype rules."""
    ndim = t._data.ndim
    src = _BY_NP[t._data.dtype]
    if name == "mean":
        want = dtype or src
        if not want.is_floating_point:
            which = "Input" if dtype is None else "Optional"
            raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be "
                               "either a floating point or complex dtype. Got: "
                               + want.scalar_name)
        if dtype is not None and dtype is not src:
            t = t.to(dtype)
    if dim is None and not keepdim:
        op = sum_all if name == "sum" else mean_all
        attrs = {}
    else:
        op = sum_dim if name == "sum" else mean_dim
        attrs = {"dims": normalize_dims(dim, ndim), "keepdim": keepdim}
    if name == "sum":
        out_dt = dtype or (int64 if src.category < 2 else src)
        attrs["dtype"] = out_dt.np
    return _run(op, t, attrs)


def contiguous_result(out, xp):
    """A reduction's result as torch allocates it: C-contiguous, torch's strides for size-1
    dims too (NumPy keeps the input's layout and odd strides for kept dims)."""
    if isinstance(out, np.generic) or out.ndim == 0:
        return xp.asarray(out)
    if out.flags.c_contiguous and 1 not in out.shape:  # the common case: nothing to do
        return out
    want = tuple(s * out.itemsize for s in S.contiguous_strides(out.shape))
    if out.strides == want or not out.size:
        return out
    if not out.flags.c_contiguous:
        out = xp.ascontiguousarray(out)
        if out.strides == want:
            return out
    return xp.lib.stride_tricks.as_strided(out, strides=want)


def _run(op, t, attrs):
    xp = t._backend.xp
    return recorded(op, (t,), contiguous_result(op.forward(xp, t._data, **attrs), xp), attrs)


# -- sum_to_size: the one place gradients are un-broadcast --------------------------------------

def sum_to_size(t, shape):
    """Sum ``t`` down to ``shape`` (leading dims dropped, size-1 dims kept), as torch does."""
    shape = tuple(shape)
    if t._data.shape == shape:
        return t
    lead = t._data.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and t._data.shape[lead + i] != 1)
    if dims and not needs_grad((t,)):  # no history to record (backward without create_graph)
        xp = t._backend.xp
        out = sum_dim.forward(xp, t._data, dims=dims, keepdim=True, dtype=t._data.dtype)
        out = wrap_result(contiguous_result(out, xp), t)
    else:
        out = reduce("sum", t, dims, keepdim=True, dtype=_BY_NP[t._data.dtype]) if dims else t
    if lead:
        out = out.view(shape)
    return out


# -- prod ---------------------------------------------------------------------------------------

@declare("prod", "ProdBackward0", saves={"self": (0,), "result": (0,)})
def prod_all(xp, a, dtype=None):
    return _done(xp.prod(a, dtype=_acc(dtype)), dtype)


@prod_all.def_backward
def _(ctx, grad):
    x = ctx.self
    if bool((x == 0).any()):
        return (grad * _prod_others(x),)
    return (grad * (ctx.result / x),)


@declare("prod", "ProdBackward1", saves={"self": (0,), "result": (0,)})
def prod_dim(xp, a, dim, keepdim=False, dtype=None):
    return _done(xp.prod(a, axis=dim, keepdims=keepdim, dtype=_acc(dtype)), dtype)


@prod_dim.def_backward
def _(ctx, grad):
    x = ctx.self
    grad, result = _keep_dims((ctx.dim,), ctx.keepdim, x.dim(), grad, ctx.result)
    if bool((x == 0).any()):
        return (grad * _prod_others(x, ctx.dim),)
    return (grad * (result / x),)


def _prod_others(x, dim=None):
    """For each element, the product of the others along ``dim`` (all elements when None),
    from exclusive cumulative products: no division, so zeros are fine."""
    xp = x._backend.xp
    a = x._data.reshape(-1) if dim is None else xp.moveaxis(x._data, dim, -1)
    one = xp.ones(a.shape[:-1] + (1,), dtype=a.dtype)
    left = xp.concatenate([one, xp.cumprod(a, axis=-1)[..., :-1]], axis=-1)
    right = xp.concatenate([xp.cumprod(a[..., ::-1], axis=-1)[..., ::-1][..., 1:], one], axis=-1)
    others = left * right
    others = others.reshape(x._data.shape) if dim is None else xp.moveaxis(others, -1, dim)
    return wrap_result(xp.ascontiguousarray(others), x)


def prod(t, dim=None, keepdim=False, dtype=None):
    """prod of all elements, or along one ``dim`` (ints accumulate in int64, as torch)."""
    src = _BY_NP[t._data.dtype]
    out_dt = dtype or (int64 if src.category < 2 else src)
    if dim is None:
        return _run(prod_all, t, {"dtype": out_dt.np})
    dim = S.wrap_dim(dim, t._data.ndim)
    return _run(prod_dim, t, {"dim": dim, "keepdim": keepdim, "dtype": out_dt.np})


# -- var and std ----------------------------------------------------------------------------------

@declare("var", "VarBackward0", saves={"self": (0,)})
def var(xp, a, dims=None, correction=1, keepdim=False):
    return xp.var(a, axis=dims, ddof=correction, keepdims=keepdim,
                  dtype=_acc(a.dtype)).astype(a.dtype, copy=False)


@var.def_backward
def _(ctx, grad):
    x = ctx.self
    dims, keepdim = ctx.dims, ctx.keepdim
    n = math.prod([x.shape[d] for d in (dims if dims is not None else range(x.dim()))])
    centered = x - x.mean(dims if dims is not None else None, keepdim=True) \
        if dims is not None else x - x.mean()
    g = _expand_back(grad, x.shape, dims or (), keepdim) if dims is not None else grad
    dof = n - ctx.correction
    return (g * centered * (2.0 / dof if dof else float("inf")),)  # C's 2.0 / 0


@declare("std", "StdBackward0", saves={"self": (0,), "result": (0,)})
def std(xp, a, dims=None, correction=1, keepdim=False):
    return xp.std(a, axis=dims, ddof=correction, keepdims=keepdim,
                  dtype=_acc(a.dtype)).astype(a.dtype, copy=False)


@std.def_backward
def _(ctx, grad):
    x, r = ctx.self, ctx.result
    dims, keepdim = ctx.dims, ctx.keepdim
    n = math.prod([x.shape[d] for d in (dims if dims is not None else range(x.dim()))])
    centered = x - x.mean(dims, keepdim=True) if dims is not None else x - x.mean()
    if dims is not None:
        grad = _expand_back(grad, x.shape, dims, keepdim)
        r = _expand_back(r, x.shape, dims, keepdim)
    return (grad * centered / (r * (n - ctx.correction)),)


def var_std(op, t, dim=None, unbiased=None, keepdim=False, correction=None):
    src = _BY_NP[t._data.dtype]
    if not src.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    dims = None if dim is None else normalize_dims(dim, t._data.ndim)
    return _run(op, t, {"dims": dims, "correction": correction, "keepdim": keepdim})


# -- max / min, argmax / argmin ---------------------------------------------------------------

def return_type(name):
    """A ``torch.return_types.<name>`` named tuple class (values, indices)."""
    cls = collections.namedtuple(name, ["values", "indices"])
    cls.__module__ = "torch.return_types"

    def __repr__(self):
        return (f"torch.return_types.{name}(\nvalues={self.values!r},\n"
                f"indices={self.indices!r})")
    cls.__repr__ = __repr__
    return cls


MAX_TYPE, MIN_TYPE = return_type("max"), return_type("min")


@declare("max", "MaxBackward1", saves={"self": (0,), "result": (0,)})
def max_all(xp, a):
    return xp.max(a)


@declare("min", "MinBackward1", saves={"self": (0,), "result": (0,)})
def min_all(xp, a):
    return xp.min(a)


def _evenly_distribute(ctx, grad):
    x, result = ctx.self, ctx.result
    mask = x.isnan() if result._data.dtype.kind == "f" and bool(result.isnan()) else x == result
    # torch on the CPU: zeros().masked_fill_(mask, grad / count), so unmasked entries are +0.;
    # a NaN result takes its gradient to the NaN inputs
    return (where_tensor(mask, grad / mask.sum(), 0),)


max_all.def_backward(_evenly_distribute)
min_all.def_backward(_evenly_distribute)


@declare("median", "MedianBackward0", saves={"self": (0,), "result": (0,)})
def median_all(xp, a):
    """The lower median of all elements (NaN when there is one, as torch)."""
    flat = a.reshape(-1)
    if flat.size and not (flat.dtype.kind == "f" and xp.isnan(flat).any()):
        return xp.sort(flat)[(flat.size - 1) // 2]
    with np.errstate(invalid="ignore"):  # NaN; an integer dtype gets C's cast of it
        return xp.asarray(xp.nan).astype(a.dtype)


median_all.def_backward(_evenly_distribute)




@declare("max", "MaxBackward0")
def max_dim(xp, a, dim, keepdim):
    return xp.max(a, axis=dim, keepdims=keepdim)


@declare("min", "MinBackward0")
def min_dim(xp, a, dim, keepdim):
    return xp.min(a, axis=dim, keepdims=keepdim)


def _select_backward(ctx, grad):
    shape = ctx.input_meta[0][0]
    grad, idx = _keep_dims((ctx.dim,), ctx.keepdim, len(shape), grad, ctx.indices)
    xp = grad._backend.xp
    arange_shape = [1] * len(shape)
    if len(shape):
        arange_shape[ctx.dim] = shape[ctx.dim]
    positions = wrap_result(xp.arange(shape[ctx.dim] if len(shape) else 1).reshape(arange_shape),
                            grad)
    return (where_tensor(positions == idx, grad, 0),)  # torch scatters into +0. zeros


max_dim.def_backward(_select_backward)
min_dim.def_backward(_select_backward)


@declare("median", "MedianBackward1")
def median_dim(xp, a, dim):
    """Each row's lower median along ``dim`` and its position (keepdim shapes): the middle of
    a stable sort, or the row's first NaN (the row's median is then NaN, as torch's)."""
    order = xp.argsort(a, axis=dim, kind="stable")
    where = xp.take(order, [(a.shape[dim] - 1) // 2], axis=dim)
    if a.dtype.kind == "f":
        nan = xp.isnan(a)
        where = xp.where(nan.any(axis=dim, keepdims=True),
                         xp.argmax(nan, axis=dim, keepdims=True), where)
    return xp.take_along_axis(a, where, dim), where


median_dim.def_backward(_select_backward)
MEDIAN_TYPE = return_type("median")


def median(t, dim=None, keepdim=False):
    """The lower median: of all elements (a 0-d tensor), or (values, indices) along ``dim``
    (among equal middle values doctensor picks the first in a stable sort)."""
    if dim is None:
        return _run(median_all, t, {})
    a = t._data.reshape(1) if t._data.ndim == 0 else t._data
    d = S.wrap_dim(dim, max(t._data.ndim, 1))
    if a.shape[d] == 0:
        raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
    values, where = median_dim.forward(t._backend.xp, a, d)
    if not keepdim or t._data.ndim == 0:
        values, where = values.squeeze(d), where.squeeze(d)
    if t._data.ndim == 0:
        values, where = values.reshape(()), where.reshape(())
    return _with_indices(median_dim, MEDIAN_TYPE, t, d, keepdim, values, where)


def _with_indices(op, kind, t, d, keepdim, values, indices):
    """The named tuple ``kind`` (values, int64 indices) of a selecting reduction along ``d``,
    laid out as torch's; ``op``'s node on the values when ``t`` requires grad."""
    xp = t._backend.xp
    values_t = wrap_result(contiguous_result(values, xp), t)
    indices_t = wrap_result(contiguous_result(indices, xp).astype(np.int64, copy=False), t)
    if needs_grad((t,)):
        record(op, (t,), (values_t,), {"dim": d, "keepdim": keepdim, "indices": indices_t})
    return kind(values_t, indices_t)


def _amax_amin(name):
    @declare(name, name.capitalize() + "Backward0", saves={"self": (0,), "result": (0,)})
    def op(xp, a, dim, keepdim):
        return (xp.max if name == "amax" else xp.min)(a, axis=dim, keepdims=keepdim)

    @op.def_backward
    def _(ctx, grad):  # the gradient shared evenly among the extremes (torch's formula)
        shape = ctx.input_meta[0][0]
        dims = tuple(range(len(shape))) if ctx.dim is None else ctx.dim
        grad, result = _keep_dims(dims, ctx.keepdim, len(shape), grad, ctx.result)
        mask = ctx.self == result
        return ((grad / mask.sum(dims, keepdim=True)) * mask,)
    return op


amax_op, amin_op = _amax_amin("amax"), _amax_amin("amin")


def amax_amin(name, t, dim=(), keepdim=False):
    """``amax``/``amin`` over ``dim`` (all dims when empty): values only, no indices."""
    dims = normalize_dims(dim, t._data.ndim) if dim != () else ()
    if t._data.size == 0:
        if not dims:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input."
                               "numel() == 0. Specify the reduction dim with the 'dim' argument.")
        for d in (dim,) if isinstance(dim, int) else dim:  # in the order given, as torch
            if t._data.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    axis = dims if dims and t._data.ndim else None
    return _run(amax_op if name == "amax" else amin_op, t, {"dim": axis, "keepdim": keepdim})


@declare("logsumexp", "LogsumexpBackward0", saves={"self": (0,), "result": (0,)})
def logsumexp_op(xp, a, dim, keepdim):
    """torch's CPU steps: the max (0 where it is infinite) plus log(sum(exp(a - max)))."""
    from .pointwise import exp, log
    m = xp.max(a, axis=dim, keepdims=True, initial=-xp.inf)  # an empty dim sums to log(0)
    m = xp.where(xp.isinf(m), m.dtype.type(0), m)
    e = exp.forward(xp, a - m)
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) is -inf, silently
        out = log.forward(xp, e.sum(axis=dim, keepdims=True, dtype=e.dtype)) + m
    return out if keepdim else out.reshape([n for i, n in enumerate(out.shape) if i not in dim])


@logsumexp_op.def_backward
def _(ctx, grad):
    shape = ctx.input_meta[0][0]
    grad, result = _keep_dims(ctx.dim, ctx.keepdim, len(shape), grad, ctx.result)
    return (grad * (ctx.self - result).exp(),)


def logsumexp(t, dim, keepdim=False):
    if not t._data.dtype.kind == "f":
        t = t.to(get_default_dtype())  # torch computes integers in the default float dtype
    dims = normalize_dims(dim, max(t._data.ndim, 1))
    if not t._data.ndim:
        return _run(logsumexp_op, t.reshape(1), {"dim": dims, "keepdim": False})
    return _run(logsumexp_op, t, {"dim": dims, "keepdim": keepdim})


@declare("trace", "TraceBackward0")
def trace_op(xp, a):
    return xp.trace(a, dtype=np.int64 if a.dtype.kind in "biu" else a.dtype)


@trace_op.def_backward
def _(ctx, grad):
    xp = grad._backend.xp
    diagonal = wrap_result(xp.eye(*ctx.input_meta[0][0], dtype=bool), grad)
    return (where_tensor(diagonal, grad, 0),)  # torch fills zeros' diagonal: +0. elsewhere


def trace(t):
    if t._data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {t._data.ndim}")
    return _run(trace_op, t, {})


def max_min(name, t, dim=None, keepdim=False):
    """``max()``/``min()``: a 0-d tensor, or (values, indices) along ``dim``."""
    xp = t._backend.xp
    if t._data.size == 0 and dim is None:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() "
                           "== 0. Specify the reduction dim with the 'dim' argument.")
    if dim is None:
        return _run(max_all if name == "max" else min_all, t, {})
    d = S.wrap_dim(dim, t._data.ndim)
    axis = d if t._data.ndim else None
    arg = xp.argmax if name == "max" else xp.argmin
    indices = xp.asarray(arg(t._data, axis=axis, keepdims=keepdim if axis is not None else False))
    if t._data.ndim == 0:
        indices = xp.asarray(0)
    op = max_dim if name == "max" else min_dim
    return _with_indices(op, MAX_TYPE if name == "max" else MIN_TYPE, t, d, keepdim,
                         op.forward(xp, t._data, axis, keepdim), indices)


def argmax_min(name, t, dim=None, keepdim=False):
    xp = t._backend.xp
    if t._data.dtype == np.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    fn = xp.argmax if name == "argmax" else xp.argmin
    if dim is None:
        out = xp.asarray(fn(t._data.reshape(-1)))
        if keepdim:
            out = out.reshape((1,) * t._data.ndim)
    else:
        d = S.wrap_dim(dim, t._data.ndim)
        out = xp.asarray(fn(t._data, axis=d if t._data.ndim else None,
                            keepdims=keepdim and t._data.ndim > 0))
    return wrap_result(contiguous_result(out.astype(np.int64, copy=False), xp), t)


def all_any(name, t, dim=None, keepdim=False):
    xp = t._backend.xp
    fn = xp.all if name == "all" else xp.any
    axis = None if dim is None else normalize_dims(dim, t._data.ndim)
    out = xp.asarray(fn(t._data, axis=axis, keepdims=keepdim))
    dt = np.uint8 if t._data.dtype == np.uint8 else np.bool_
    return wrap_result(contiguous_result(out.astype(dt, copy=False), xp), t)



# -- norm -------------------------------------------------------------------------------------

@declare("linalg_vector_norm", "LinalgVectorNormBackward0", saves={"self": (0,), "result": (0,)})
def vector_norm(xp, a, ord, dims, keepdim):
    # float16 in float32, as torch accumulates (its order of summation is not reproduced)
    x = xp.abs(a.astype(_acc(a.dtype), copy=False))
    if ord == 2:
        out = xp.sqrt(xp.sum(x * x, axis=dims, keepdims=keepdim))
    elif ord == 1:
        out = xp.sum(x, axis=dims, keepdims=keepdim)
    elif ord == float("inf"):
        out = xp.max(x, axis=dims, keepdims=keepdim)
    elif ord == float("-inf"):
        out = xp.min(x, axis=dims, keepdims=keepdim)
    elif ord == 0:
        out = xp.sum(x != 0, axis=dims, keepdims=keepdim, dtype=x.dtype)
    else:
        out = xp.sum(x ** ord, axis=dims, keepdims=keepdim) ** (1 / ord)
    return xp.asarray(out).astype(a.dtype)


@vector_norm.def_backward
def _(ctx, grad):
    # torch's norm_backward (FunctionsManual.cpp), formula for formula
    x, norm, p, dims = ctx.self, ctx.result, ctx.ord, ctx.dims
    if dims is not None:
        grad, norm = _keep_dims(dims, ctx.keepdim, x.dim(), grad, norm)
    if p == 0:
        return (None,)
    if p == 1:
        return (x.sign() * grad,)
    if p == 2:
        return (grad * (x / norm).masked_fill(norm == 0, 0),)
    if p in (float("inf"), float("-inf")):
        ax = x.abs()
        mask = (ax == norm) | (ax != ax)  # the elements that are the norm, or NaN
        count = mask.sum(dims if dims is not None else tuple(range(x.dim())), keepdim=True)
        return (x.sign() * ((grad / count) * mask),)
    if p < 1:
        scaled = x.sign() * (x.abs() ** (p - 1)).masked_fill(x == 0, 0)
        return (scaled * grad * norm ** (1 - p),)
    scaled = x.sign() * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    return (scaled * (grad / norm ** (p - 1)).masked_fill(norm == 0, 0),)


def norm(t, p="fro", dim=None, keepdim=False, dtype=None):
    """``torch.norm``: the vector ``p``-norm over ``dim`` (all elements by default); 'fro' is
    p=2.  torch 2.13 computes it as ``linalg.vector_norm`` (LinalgVectorNormBackward0)."""
    if isinstance(p, str):
        if p == "nuc":
            raise NotImplementedError("doctensor: norm(p='nuc') (the nuclear norm) is not "
                                      "implemented")
        if p != "fro":
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        p = 2
    src = _BY_NP[t._data.dtype]
    if not src.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {src.scalar_name}")
    if dtype is not None:
        t = t.to(dtype)
    dims = None if dim is None or t._data.ndim == 0 else normalize_dims(dim, t._data.ndim)
    p = float(p)
    empty = [d for d in dims or () if t._data.shape[d] == 0]
    if (p < 0 or p == float("inf")) and (empty if dims else t._data.size == 0):
        where = f"the dimension {empty[0]}" if dims else "an empty tensor "  # sic: no space
        raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on {where}because "
                           f"{'this dimension is empty and ' if dims else ''}the operation does "
                           "not have an identity")
    return _run(vector_norm, t, {"ord": p, "dims": dims, "keepdim": keepdim})


# -- cumsum ---------------------------------------------------------------------------------------

@declare("cumsum", "CumsumBackward0")
def cumsum_op(xp, a, dim, dtype):
    # torch's CPU scan accumulates in acc_type: double for float, float for half
    acc = np.float64 if dtype == np.float32 else _acc(dtype)
    return xp.cumsum(a, axis=dim, dtype=acc).astype(dtype, copy=False)


@cumsum_op.def_backward
def _(ctx, grad):
    # each input element feeds every later output: the reversed cumulative sum of grad
    if grad.dim() == 0:
        return (grad,)
    return (grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim),)


def cumsum(t, dim, dtype=None):
    """Cumulative sum along ``dim`` (integers and bools accumulate in int64, as torch)."""
    return _scan(cumsum_op, t, dim, dtype)


def _scan(op, t, dim, dtype):
    """A cumulative op along ``dim``, in ``dtype`` (integers and bools: int64)."""
    src = _BY_NP[t._data.dtype]
    out_dt = dtype or (int64 if src.category < 2 else src)
    dim = S.wrap_dim(dim, max(t._data.ndim, 1))
    a = t._data if t._data.ndim else t._data.reshape(1)
    out = op.forward(t._backend.xp, a, dim=dim, dtype=out_dt.np).reshape(t._data.shape)
    return recorded(op, (t,), contiguous_result(out, t._backend.xp),
                    {"dim": dim, "dtype": out_dt.np})


@declare("cumprod", "CumprodBackward0", saves={"self": (0,), "result": (0,)})
def cumprod_op(xp, a, dim, dtype):
    acc = np.float64 if dtype == np.float32 else _acc(dtype)  # as cumsum's scan
    return xp.cumprod(a, axis=dim, dtype=acc).astype(dtype, copy=False)


@cumprod_op.def_backward
def _(ctx, grad):
    x, dim = ctx.self, ctx.dim
    if grad.dim() == 0:
        return (grad,)
    if bool((x != 0).all()):  # torch's formula without zeros: sum_{j>=k} g_j y_j / x_k
        return ((grad * ctx.result).flip(dim).cumsum(dim).flip(dim) / x,)
    if GradMode.enabled:
        raise NotImplementedError("doctensor: the double backward of cumprod through zeros "
                                  "is not implemented")
    return (wrap_result(_cumprod_grad(x._data, grad._data, dim), grad),)


def _cumprod_grad(x, g, dim):
    """d/dx_k of sum_j g_j prod_{i<=j} x_i = prod_{i<k} x_i * S_k, S_k = g_k + x_{k+1} S_{k+1}:
    no division, so zeros are fine."""
    x, g = np.moveaxis(x, dim, 0), np.moveaxis(g, dim, 0)
    before = np.cumprod(np.concatenate([np.ones_like(x[:1]), x[:-1]]), axis=0, dtype=x.dtype)
    s = np.empty_like(g)
    s[-1] = g[-1]
    for k in range(len(g) - 2, -1, -1):
        s[k] = g[k] + x[k + 1] * s[k + 1]
    return np.ascontiguousarray(np.moveaxis(before * s, 0, dim))


def cumprod(t, dim, dtype=None):
    """Cumulative product along ``dim`` (integers and bools in int64, as torch)."""
    return _scan(cumprod_op, t, dim, dtype)
