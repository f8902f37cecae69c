"""Reductions: sum, mean, prod, max/min, argmax/argmin, var/std, norms, scans, and
``sum_to_size``.

torch allocates a reduction's result contiguously (the dispatch's default layout);
integers sum in int64.  On the CPU, floating sums, means, products, var/std and p-norms add
and multiply in torch's own order (Note [torch's CPU sum], Note [torch's CPU prod], Note
[variance of a whole tensor], Note [Welford's variance], Note [vector norms] in ``_exact``).
"""

import collections
import itertools
import math
import warnings

import numpy as np
from ml_dtypes import bfloat16 as _BF16

from .. import _strides as S
from .._argparser import called_error, type_name
from .._dtypes import _BY_NP, bool_, get_default_dtype, int64
from .._dtypes import dtype as DType
from .._exact.cascade_sum import same_layout as _same_layout
from .._exact.cascade_sum import torch_prod, torch_sum, torch_sum_all
from .._exact.moments import var_all, welford_reproduced, welford_var
from .._exact.norms import vector_norm as exact_norm
from .._tensor_base import TensorBase
from ..autograd.grad_mode import GradMode
from ._dispatch import apply
from ._registry import declare
from .creation import eye
from .pointwise import exp, log, maximum, minimum, over_number, times_number, where_tensor
from .views import expand

__all__ = ["sum", "mean", "cpu_sum", "cpu_mean", "sum_to_size", "prod", "var_std", "max_min",
           "argmax_min", "all_any", "median", "amax_amin", "logsumexp", "trace_op", "norm",
           "cumsum", "cumprod", "return_type", "normalize_dims", "count_nonzero"]


def normalize_dims(dim, ndim):
    """``dim`` (None, int or sequence) as a sorted tuple of non-negative dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        if dim.__class__ is bool:  # (torch's parser takes no bool for a dim: it words this)
            raise TypeError("argument 'dim' must be tuple of ints, not bool")
        dim = (dim,)
    elif not isinstance(dim, (tuple, list)):
        dim = (S.as_int(dim),)  # (an integer tensor of one element; no other tensor)
    dims = tuple(sorted(S.wrap_dim(d, ndim) for d in dim))
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
    return dims


def check_keepdim(fname, keepdim, name="keepdim"):
    """torch's parser takes nothing but a bool for ``keepdim`` (``sum(0, 'a')``) and other
    flags (``name``)."""
    if keepdim.__class__ is not bool:
        raise TypeError(f"{fname}(): argument '{name}' must be bool, not {type_name(keepdim)}")


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


def _axes(a, dims):
    """NumPy's axes for torch's ``dims`` of the array ``a``: a 0-d tensor's dim 0 (or -1) is
    the tensor itself."""
    return dims if a.ndim else None


def _reduced_numel(shape, dims):
    """How many elements of an input of ``shape`` each output reduces over ``dims`` (None:
    all)."""
    return math.prod(shape if dims is None or not shape else [shape[d] for d in dims])


def _expand_back(grad, shape, dims, keepdim):
    """Broadcast a reduced gradient back to the input shape."""
    grad, = _keep_dims(dims, keepdim, len(shape), grad)
    return grad.expand(shape)


def return_type(name, fields=("values", "indices")):
    """A ``torch.return_types.<name>`` named tuple class (values, indices, or ``fields``),
    printed as torch prints it (one field a line)."""
    cls = collections.namedtuple(name, fields)
    cls.__module__ = "torch.return_types"

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"
    cls.__repr__ = __repr__
    return cls


# -- sum and mean --------------------------------------------------------------------------------

_F16 = np.dtype(np.float16)
_REDUCED = (_F16, np.dtype(_BF16))


def _acc(dtype):
    return np.float32 if dtype in _REDUCED else dtype  # (bfloat16 too, as torch's CPU sums)


def _done(out, dtype):
    return out.astype(dtype) if dtype in _REDUCED else out


@declare("sum", "SumBackward0", method="sum", function="sum")
def sum_all(xp, a, dtype=None):
    return _done(a.sum(dtype=_acc(dtype)), dtype)  # the method: np.sum's wrapper costs 1 us


@declare("sum", "SumBackward1", method=("sum", "sum_to_size"), function="sum")
def sum_dim(xp, a, dims=(), keepdim=False, dtype=None):
    return _done(a.sum(axis=_axes(a, dims), dtype=_acc(dtype), keepdims=keepdim), dtype)


_FLOATS = (_F16, np.dtype(_BF16), np.dtype(np.float32), np.dtype(np.float64))


def cpu_sum(a, dims, keepdim, dtype):
    """torch's CPU sum of ``a`` (cast to the float ``dtype`` first, as torch's ``.to()``)
    over ``dims`` (Note [torch's CPU sum])."""
    dims = dims if a.ndim else ()
    a = a if a.dtype == dtype else _cast(a, dtype)
    out = torch_sum(a, dims, keepdim)
    return out if keepdim else out.reshape([n for d, n in enumerate(out.shape) if d not in dims])


def _cast(a, dtype):
    """``a`` in ``dtype`` with ``a``'s strides where it is dense (torch's ``.to()``)."""
    return _same_layout(a, lambda v: v.astype(dtype))


@sum_all.on_cpu
def _sum_all_cpu(xp, a, dtype=None):
    if dtype not in _FLOATS:
        return sum_all.forward(xp, a, dtype=dtype)
    if a.dtype == dtype:
        return torch_sum_all(a)
    return cpu_sum(a, tuple(range(a.ndim)), False, dtype)


@sum_dim.on_cpu
def _sum_dim_cpu(xp, a, dims=(), keepdim=False, dtype=None):
    if np.dtype(dtype) not in _FLOATS:
        return sum_dim.forward(xp, a, dims=dims, keepdim=keepdim, dtype=dtype)
    return cpu_sum(a, dims, keepdim, dtype)


@sum_all.def_backward
def sum_all_backward(ctx, grad):
    return (apply(expand, grad, size=ctx.input_meta[0][0]),)


@sum_dim.def_backward
def sum_dim_backward(ctx, grad):
    return (_expand_back(grad, ctx.input_meta[0][0], ctx.dims, ctx.keepdim),)


@declare("mean", "MeanBackward0", method="mean", function="mean")
def mean_all(xp, a):
    return _done(a.mean(dtype=_acc(a.dtype)), a.dtype)


@declare("mean", "MeanBackward1", method="mean", function="mean")
def mean_dim(xp, a, dims=(), keepdim=False):
    return _done(a.mean(axis=_axes(a, dims), dtype=_acc(a.dtype), keepdims=keepdim), a.dtype)


def cpu_mean(a, dims, keepdim):
    """torch's CPU mean: the sum (float16 and bfloat16: of the values in float32), divided by
    the count in the sum's dtype, then rounded to ``a``'s dtype."""
    wide = np.dtype(_acc(a.dtype))
    total = cpu_sum(a, dims if a.ndim else (), keepdim, wide)
    count = math.prod(a.shape[d] for d in dims) if a.ndim else 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return (total / wide.type(count)).astype(a.dtype, copy=False)


@mean_all.on_cpu
def _mean_all_cpu(xp, a):
    if a.dtype not in _FLOATS:
        return mean_all.forward(xp, a)
    return cpu_mean(a, tuple(range(a.ndim)), False)


@mean_dim.on_cpu
def _mean_dim_cpu(xp, a, dims=(), keepdim=False):
    if a.dtype not in _FLOATS:
        return mean_dim.forward(xp, a, dims=dims, keepdim=keepdim)
    return cpu_mean(a, dims, keepdim)


@mean_all.def_backward
def mean_all_backward(ctx, grad):
    shape = ctx.input_meta[0][0]
    return (over_number(apply(expand, grad, size=shape), max(math.prod(shape), 1)),)


@mean_dim.def_backward
def mean_dim_backward(ctx, grad):
    shape = ctx.input_meta[0][0]
    n = _reduced_numel(shape, ctx.dims)
    return (over_number(_expand_back(grad, shape, ctx.dims, ctx.keepdim), max(n, 1)),)


def sum(t, dim=None, keepdim=False, dtype=None):  # noqa: A001  (torch.sum)
    """Sum over ``dim`` (all dims when None); integers and bools sum in int64."""
    src = _BY_NP[t._data.dtype]
    out = (dtype or (int64 if src.category < 2 else src)).np
    if dim is None and not keepdim:
        return apply(sum_all, t, dtype=out)
    check_keepdim("sum", keepdim)
    return apply(sum_dim, t, dims=normalize_dims(dim, t._data.ndim), keepdim=keepdim, dtype=out)


def mean(t, dim=None, keepdim=False, dtype=None):
    """Mean over ``dim`` (all dims when None), of a floating tensor (or in ``dtype``)."""
    src = _BY_NP[t._data.dtype]
    want = dtype or src
    if want.category < 2:  # (floating and complex dtypes have a mean)
        which = "Input" if dtype is None else "Optional"
        raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be "
                           "either a floating point or complex dtype. Got: " + want.scalar_name)
    if dtype is not None and dtype is not src:
        t = t.to(dtype)
    if dim is None and not keepdim:
        return apply(mean_all, t)
    check_keepdim("mean", keepdim)
    return apply(mean_dim, t, dims=normalize_dims(dim, t._data.ndim), keepdim=keepdim)


def sum_to_size(t, shape):
    """Sum ``t`` down to ``shape`` (leading dims dropped, size-1 dims kept), as torch does: the
    gradient's un-broadcasting (SumBackward1, then a view for dropped dims)."""
    shape, have = tuple(shape), t._data.shape
    if not shape:
        return sum(t)  # (a full sum, 0-d too: SumBackward0, as torch's sum_to)
    if have == shape:
        return t
    lead = len(have) - len(shape)
    if lead < 0 or any(s not in (1, n) for s, n in zip(shape, have[lead:])):
        raise RuntimeError(f"size {{[{', '.join(map(str, shape))}]}} is not expandable to size "
                           f"{{[{', '.join(map(str, have))}]}}.")
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and have[lead + i] != 1)
    out = sum(t, dims, keepdim=True) if dims else t  # integers sum in int64, as torch.sum
    return out.view(shape) if lead else out


# -- prod ---------------------------------------------------------------------------------------

@declare("prod", "ProdBackward0", saves={"self": "self", "result": "self"}, method="prod",
         function="prod")
def prod_all(xp, a, dtype=None):
    return _done(xp.prod(a, dtype=_acc(dtype)), dtype)


@prod_all.on_cpu
def _prod_all_cpu(xp, a, dtype=None):
    if np.dtype(dtype) not in _FLOATS:
        return prod_all.forward(xp, a, dtype=dtype)
    a = a if a.dtype == dtype else _cast(a, dtype)
    return torch_prod(a, tuple(range(a.ndim))).reshape(())  # (Note [torch's CPU prod])


@prod_all.def_backward
def prod_all_backward(ctx, grad):
    x, result = ctx.self, ctx.result  # (both unpacked first: their version checks)
    if x.dim() == 0:  # (torch passes a 0-d input's gradient through as it is)
        return (grad,)
    if bool((x == 0).any()):
        return (grad * apply(prod_others, x),)
    return (grad * (result / x),)


@declare("prod", "ProdBackward1", saves={"self": "self", "result": "self"}, method="prod",
         function="prod")
def prod_dim(xp, a, dim, keepdim=False, dtype=None):
    return _done(xp.prod(a, axis=dim, keepdims=keepdim, dtype=_acc(dtype)), dtype)


@prod_dim.on_cpu
def _prod_dim_cpu(xp, a, dim, keepdim=False, dtype=None):
    if np.dtype(dtype) not in _FLOATS:
        return prod_dim.forward(xp, a, dim=dim, keepdim=keepdim, dtype=dtype)
    a = a if a.dtype == dtype else _cast(a, dtype)
    dims = (dim,) if a.ndim else ()
    out = torch_prod(a, dims)
    return out if keepdim or not a.ndim else out.squeeze(dim)


@prod_dim.def_backward
def prod_dim_backward(ctx, grad):
    x, result = ctx.self, ctx.result  # (both unpacked first: their version checks)
    if x.dim() == 0:  # (as prod_all_backward)
        return (grad,)
    grad, result = _keep_dims((ctx.dim,), ctx.keepdim, x.dim(), grad, result)
    if bool((x == 0).any()):
        return (grad * apply(prod_others, x, dim=ctx.dim),)
    return (grad * (result / x),)


@declare("_prod_others", None)
def prod_others(xp, a, dim=None):
    """For each element, the product of the others along ``dim`` (all elements when None),
    from exclusive cumulative products: no division, so zeros are fine (prod's backward)."""
    b = a.reshape(-1) if dim is None else xp.moveaxis(a, dim, -1)
    one = xp.ones(b.shape[:-1] + (1,), dtype=b.dtype)
    left = xp.concatenate([one, xp.cumprod(b, axis=-1)[..., :-1]], axis=-1)
    right = xp.concatenate([xp.cumprod(b[..., ::-1], axis=-1)[..., ::-1][..., 1:], one], axis=-1)
    others = left * right
    return others.reshape(a.shape) if dim is None else xp.moveaxis(others, -1, dim)


def prod(t, dim=None, keepdim=False, dtype=None):
    """prod of all elements, or along one ``dim`` (ints accumulate in int64, as torch)."""
    src = _BY_NP[t._data.dtype]
    out = (dtype or (int64 if src.category < 2 else src)).np
    if dim is None:
        return apply(prod_all, t, dtype=out)
    if keepdim.__class__ is not bool:
        check_keepdim("prod", keepdim)
    return apply(prod_dim, t, dim=S.wrap_dim(dim, t._data.ndim), keepdim=keepdim, dtype=out)


# -- var and std ----------------------------------------------------------------------------------

@declare("var", "VarBackward0", saves={"self": "self"}, method="var", function="var")
def var(xp, a, dims=None, correction=1, keepdim=False):
    return xp.var(a, axis=_axes(a, dims), ddof=correction, keepdims=keepdim,
                  dtype=_acc(a.dtype)).astype(a.dtype, copy=False)


def _var_std_cpu(op, take_sqrt):
    """torch's CPU var/std: a one-number result of float32/float64 in torch's two passes
    (Note [variance of a whole tensor]); otherwise torch accumulates in double (Welford), so
    float32 and half precision results are NumPy's float64 ones, rounded, and float64 ones
    Welford's own (Note [Welford's variance]; past its time budget, NumPy's order: the last
    bits may differ)."""
    def forward(xp, a, dims=None, correction=1, keepdim=False):
        out_shape = [1 if dims is None or d in dims else n for d, n in enumerate(a.shape)]
        if a.dtype not in _FLOATS or not a.size:
            return op.forward(xp, a, dims=dims, correction=correction, keepdim=keepdim)
        if a.dtype == np.float64 and math.prod(out_shape) != 1:
            if not welford_reproduced(a.shape, dims):
                return op.forward(xp, a, dims=dims, correction=correction, keepdim=keepdim)
            out = welford_var(a, dims, correction, take_sqrt)[0]
            return out.reshape(out_shape if keepdim else
                               [n for d, n in enumerate(a.shape) if d not in dims])
        if a.dtype in _REDUCED or math.prod(out_shape) != 1:
            wide = op.forward(xp, a.astype(np.float64), dims=dims, correction=correction,
                              keepdim=keepdim)
            return wide.astype(np.float32).astype(a.dtype, copy=False)
        out = var_all(a, correction, take_sqrt)
        return out.reshape(out_shape if keepdim else
                           [n for d, n in enumerate(out_shape) if dims is not None
                            and d not in dims])
    return forward


@var.def_backward
def var_backward(ctx, grad):
    return (_var_backward(grad, ctx.self, ctx.dims, ctx.correction, ctx.keepdim),)


def _var_backward(grad, x, dims, correction, keepdim):
    """torch's var_backward (FunctionsManual.cpp), step for step: its values (a whole tensor
    with no degree of freedom left: inf, NaN where an element is the mean) and its nodes."""
    if x.dim() == 0 or dims is None:
        dof = x.numel() - correction
        if dof <= 0:
            return grad * where_tensor(x == x.mean(), math.nan, math.inf)
        return times_number(grad, 2.0 / dof) * (x - x.mean())
    if not keepdim and x.dim() > 1:
        grad, = _keep_dims(dims, False, x.dim(), grad)
    dof = _reduced_numel(x.shape, dims) - correction
    return times_number(grad, 2.0 / dof if dof else math.inf) * (  # (C's 2.0 / 0)
        x - x.mean(dims, keepdim=True))


@declare("std", "StdBackward0", saves={"self": "self", "result": "self"}, method="std",
         function="std")
def std(xp, a, dims=None, correction=1, keepdim=False):
    return xp.std(a, axis=_axes(a, dims), ddof=correction, keepdims=keepdim,
                  dtype=_acc(a.dtype)).astype(a.dtype, copy=False)


@std.def_backward
def std_backward(ctx, grad):
    """torch's: var's backward of ``grad / (2 * std)``, zero where the std is zero."""
    x, r = ctx.self, ctx.result  # (unpacked in torch's order: their version checks)
    grad_var = (grad / times_number(r, 2)).masked_fill_(r == 0, 0)
    return (_var_backward(grad_var, x, ctx.dims, ctx.correction, ctx.keepdim),)


var.on_cpu(_var_std_cpu(var, False))
std.on_cpu(_var_std_cpu(std, True))


def var_std(op, t, dim=None, unbiased=None, keepdim=False, correction=None):
    """``var`` or ``std`` (``op``) over ``dim`` with torch's ``unbiased``/``correction``."""
    if not _BY_NP[t._data.dtype].is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    if keepdim.__class__ is not bool or unbiased is not None and unbiased.__class__ is not bool:
        check_keepdim(op.name, keepdim)
        check_keepdim(op.name, unbiased, "unbiased")
    dims = None if dim is None else normalize_dims(dim, t._data.ndim)
    if _reduced_numel(t._data.shape, dims) - correction > 0:
        return apply(op, t, dims=dims, correction=correction, keepdim=keepdim)
    warnings.warn(f"{op.name}(): degrees of freedom is <= 0. Correction should be strictly less "
                  f"than the reduction factor (input numel divided by output numel). (Triggered "
                  f"internally at /__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)",
                  UserWarning, stacklevel=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own words for it
        return apply(op, t, dims=dims, correction=correction, keepdim=keepdim)


def _no_bool(kernel):
    """A record's check: torch's kernel ``kernel`` refuses bool tensors."""
    def check(self, *args, **attrs):
        if self.dtype is bool_:
            raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    return check


# -- max / min, argmax / argmin, median -------------------------------------------------------

MAX_TYPE, MIN_TYPE, MEDIAN_TYPE = (return_type(n) for n in ("max", "min", "median"))


def _evenly_distribute(ctx, grad):
    x, result = ctx.self, ctx.result
    mask = x.isnan() if result._data.dtype.kind == "f" and bool(result.isnan()) else x == result
    # torch on the CPU: new_zeros().masked_fill_(mask, grad / count), so unmasked entries are
    # +0. and the gradient is at version 1; a NaN result takes its gradient to the NaN inputs
    return (grad.new_zeros(x.shape).masked_fill_(mask, grad / mask.sum()),)


def _check_not_empty(name):
    def check(self):
        if self._data.size == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input."
                               "numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
    return check


max_all = declare("max", "MaxBackward1", saves={"self": "self", "result": "self"},
                  check=_check_not_empty("max"), method="max", function="max")(
    lambda xp, a: xp.max(a))
min_all = declare("min", "MinBackward1", saves={"self": "self", "result": "self"},
                  check=_check_not_empty("min"), method="min", function="min")(
    lambda xp, a: xp.min(a))
max_all.def_backward(_evenly_distribute)
min_all.def_backward(_evenly_distribute)


@declare("median", "MedianBackward0", saves={"self": "self", "result": "self"},
         check=_no_bool("median_cpu"), method="median", function="median")
def median_all(xp, a):
    """The lower median of all elements (NaN when there is one, as torch)."""
    flat = a.reshape(-1)
    if flat.size and not (flat.dtype.kind == "f" and xp.isnan(flat).any()):
        return xp.sort(flat)[(flat.size - 1) // 2]
    with np.errstate(invalid="ignore"):  # NaN; an integer dtype gets C's cast of it
        return xp.asarray(xp.nan).astype(a.dtype)


median_all.def_backward(_evenly_distribute)


def _select_backward(ctx, grads):
    """The gradient of the selected values (max, min, median along a dim) to their places."""
    grad = grads[0]
    shape = ctx.input_meta[0][0]
    grad, idx = _keep_dims((ctx.dim,), ctx.keepdim, len(shape), grad, ctx.indices)
    # torch's steps: at::zeros (an empty tensor zeroed in place), then scatter_: version 2
    return (grad.new_empty(shape).zero_().scatter_(ctx.dim if shape else 0, idx, grad),)


def _check_dim_not_empty(name):
    """torch's refusal to reduce an empty ``dim`` (one with no identity: max, argmax...)."""
    def check(self, dim=None, **attrs):
        if dim is not None and self._data.ndim and self._data.shape[dim] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    return check


def _extreme_dim(name, grad_fn, pick, arg):
    """max(dim) / min(dim): (values, int64 indices) along ``dim``."""
    @declare(name, grad_fn, outputs=("values", "indices"), saves={"indices": "self"},
             check=_check_dim_not_empty(name), method=name, function=name)
    def op(xp, a, dim, keepdim):
        if a.ndim == 0:
            return a.copy(), xp.asarray(0, dtype=np.int64)
        return (pick(xp)(a, axis=dim, keepdims=keepdim),
                arg(xp)(a, axis=dim, keepdims=keepdim).astype(np.int64, copy=False))
    op.def_backward(_select_backward)
    return op


max_dim = _extreme_dim("max", "MaxBackward0", lambda xp: xp.max, lambda xp: xp.argmax)
min_dim = _extreme_dim("min", "MinBackward0", lambda xp: xp.min, lambda xp: xp.argmin)


def max_min(name, t, dim=None, keepdim=False):
    """``max()``/``min()``: a 0-d tensor, or (values, indices) along ``dim``."""
    if dim is None:
        return apply(max_all if name == "max" else min_all, t)
    if dim.__class__ is not int and isinstance(dim, TensorBase) and keepdim is False:
        return apply(maximum if name == "max" else minimum, t, dim)  # max(other): elementwise
    if keepdim.__class__ is not bool:
        check_keepdim(name, keepdim)
    d = S.wrap_dim(dim, t._data.ndim)
    values, indices = apply(max_dim if name == "max" else min_dim, t, dim=d, keepdim=keepdim)
    return (MAX_TYPE if name == "max" else MIN_TYPE)(values, indices)


@declare("median", "MedianBackward1", outputs=("values", "indices"), saves={"indices": "self"},
         check=_no_bool("median_out"), method="median", function="median")
def median_dim(xp, a, dim, keepdim):
    """Each row's lower median along ``dim`` and its position: the middle of a stable sort,
    or the row's first NaN (the row's median is then NaN, as torch's)."""
    b = a.reshape(1) if a.ndim == 0 else a
    order = xp.argsort(b, axis=dim, kind="stable")
    where = xp.take(order, [(b.shape[dim] - 1) // 2], axis=dim)
    if b.dtype.kind == "f":
        nan = xp.isnan(b)
        where = xp.where(nan.any(axis=dim, keepdims=True),
                         xp.argmax(nan, axis=dim, keepdims=True), where)
    values = xp.take_along_axis(b, where, dim)
    if a.ndim == 0:
        return values.reshape(()), where.reshape(())
    if not keepdim:
        values, where = values.squeeze(dim), where.squeeze(dim)
    return values, where.astype(np.int64, copy=False)


median_dim.def_backward(_select_backward)


def median(t, dim=None, keepdim=False):
    """The lower median: of all elements (a 0-d tensor), or (values, indices) along ``dim``
    (among equal middle values doctensor picks the first in a stable sort)."""
    if dim is None:
        return apply(median_all, t)
    if keepdim.__class__ is not bool:
        check_keepdim("median", keepdim)
    d = S.wrap_dim(dim, max(t._data.ndim, 1))
    if (t._data.shape or (1,))[d] == 0:
        raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
    return MEDIAN_TYPE(*apply(median_dim, t, dim=d, keepdim=keepdim))


def _check_arg(name):
    def check(self, dim=None, **attrs):
        if self._data.dtype == np.bool_:
            raise RuntimeError(f"{name}(): does not support bool input")
        if dim is None and self._data.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        _check_dim_not_empty(name)(self, dim)
    return check


def _arg_extreme(name, fn):
    """argmax / argmin: int64 positions of the first extreme, no gradient."""
    @declare(name, None, check=_check_arg(name), method=name, function=name)
    def op(xp, a, dim=None, keepdim=False):
        f = getattr(xp, fn)
        if dim is None:
            out = xp.asarray(f(a.reshape(-1)))
            out = out.reshape((1,) * a.ndim) if keepdim else out
        else:
            out = xp.asarray(f(a, axis=dim if a.ndim else None, keepdims=keepdim and a.ndim > 0))
        return out.astype(np.int64, copy=False)
    return op


argmax, argmin = _arg_extreme("argmax", "argmax"), _arg_extreme("argmin", "argmin")


def count_nonzero(t, dim=None):
    """How many elements are not zero (over ``dim``): a sum of ``t != 0``."""
    return sum(t != 0, dim)


def argmax_min(name, t, dim=None, keepdim=False):
    op = argmax if name == "argmax" else argmin
    if keepdim.__class__ is not bool:
        check_keepdim(name, keepdim)
    if dim is None:
        return apply(op, t, keepdim=keepdim)
    return apply(op, t, dim=S.wrap_dim(dim, t._data.ndim), keepdim=keepdim)


def _truth(name):
    """all / any: bool (uint8 stays uint8), no gradient."""
    @declare(name, None, method=name, function=name)
    def op(xp, a, dims=None, keepdim=False):
        out = xp.asarray(getattr(xp, name)(a, axis=_axes(a, dims), keepdims=keepdim))
        return out.astype(np.uint8 if a.dtype == np.uint8 else np.bool_, copy=False)
    return op


all_op, any_op = _truth("all"), _truth("any")


def all_any(name, t, dim=None, keepdim=False):
    if keepdim.__class__ is not bool:
        check_keepdim(name, keepdim)
    dims = None if dim is None else normalize_dims(dim, t._data.ndim)
    return apply(all_op if name == "all" else any_op, t, dims=dims, keepdim=keepdim)


def _amax_amin(name):
    @declare(name, name.capitalize() + "Backward0", saves={"self": "self", "result": "self"},
             method=name, function=name)
    def op(xp, a, dim, keepdim):
        return (xp.max if name == "amax" else xp.min)(a, axis=dim, keepdims=keepdim)

    @op.def_backward
    def amax_amin_backward(ctx, grad):  # the gradient shared evenly among the extremes
        shape = ctx.input_meta[0][0]
        dims = tuple(range(len(shape))) if ctx.dim is None else ctx.dim
        grad, result = _keep_dims(dims, ctx.keepdim, len(shape), grad, ctx.result)
        mask = ctx.self == result
        return ((grad / mask.sum(dims, keepdim=True)) * mask,)
    return op


amax_op, amin_op = _amax_amin("amax"), _amax_amin("amin")


def amax_amin(name, t, dim=(), keepdim=False):
    """``amax``/``amin`` over ``dim`` (all dims when empty): values only, no indices."""
    if keepdim.__class__ is not bool:
        check_keepdim(name, keepdim)
    dims = normalize_dims(dim, t._data.ndim) if dim != () else ()
    if t._data.size == 0:
        if not dims:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input."
                               "numel() == 0. Specify the reduction dim with the 'dim' argument.")
        for d in (dim,) if isinstance(dim, int) else dim:  # in the order given, as torch
            if t._data.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    axis = dims if dims and t._data.ndim else None
    return apply(amax_op if name == "amax" else amin_op, t, dim=axis, keepdim=keepdim)


@declare("logsumexp", "LogsumexpBackward0", saves={"self": "self", "result": "self"},
         method="logsumexp", function="logsumexp")
def logsumexp_op(xp, a, dim, keepdim):
    """torch's CPU steps: the max (0 where it is infinite) plus log(sum(exp(a - max)))."""
    m = xp.max(a, axis=dim, keepdims=True, initial=-xp.inf)  # an empty dim sums to log(0)
    m = xp.where(xp.isinf(m), m.dtype.type(0), m)
    e = exp.forward(xp, a - m)
    out = log.forward(xp, e.sum(axis=dim, keepdims=True, dtype=e.dtype)) + m
    return out if keepdim else out.reshape([n for i, n in enumerate(out.shape) if i not in dim])


@logsumexp_op.on_cpu
def _logsumexp_cpu(xp, a, dim, keepdim):
    """The same steps with torch's CPU sum (Note [torch's CPU sum]); the float32 exp and log
    are doctensor's own (not yet torch's bits, so neither is the result always)."""
    if a.dtype not in _FLOATS:
        return logsumexp_op.forward(xp, a, dim=dim, keepdim=keepdim)
    m = xp.max(a, axis=dim, keepdims=True, initial=-xp.inf)
    m = xp.where(xp.isinf(m), m.dtype.type(0), m)
    e = exp.cpu_forward(xp, a - m).astype(a.dtype, copy=False)
    out = log.cpu_forward(xp, torch_sum(e, dim, True)).astype(a.dtype, copy=False) + m
    return out if keepdim else out.reshape([n for i, n in enumerate(out.shape) if i not in dim])


@logsumexp_op.def_backward
def logsumexp_backward(ctx, grad):
    shape = ctx.input_meta[0][0]
    grad, result = _keep_dims(ctx.dim, ctx.keepdim, len(shape), grad, ctx.result)
    return (grad * (ctx.self - result).exp(),)


def logsumexp(t, dim, keepdim=False):
    if dim is None:  # (no default for all dims: torch's parser takes no None)
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    if keepdim.__class__ is not bool:
        check_keepdim("logsumexp", keepdim)
    if not _BY_NP[t._data.dtype].is_floating_point:
        t = t.to(get_default_dtype())  # torch computes integers in the default float dtype
    dims = normalize_dims(dim, max(t._data.ndim, 1))
    if not t._data.ndim:  # as torch: a view of one element, reduced to 0-d
        return apply(logsumexp_op, t.reshape(1), dim=dims, keepdim=False)
    return apply(logsumexp_op, t, dim=dims, keepdim=keepdim)


def _check_trace(self):
    if self.dtype is bool_:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if self._data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self._data.ndim}")


@declare("trace", "TraceBackward0", check=_check_trace, method="trace", function="trace")
def trace_op(xp, a):
    return xp.trace(a, dtype=np.int64 if a.dtype.kind in "biu" else a.dtype)


@trace_op.def_backward
def trace_backward(ctx, grad):
    diagonal = eye(*ctx.input_meta[0][0], dtype=bool_, device=grad.device)
    return (where_tensor(diagonal, grad, 0),)  # torch fills zeros' diagonal: +0. elsewhere


# -- norm -------------------------------------------------------------------------------------

@declare("linalg_vector_norm", "LinalgVectorNormBackward0",
         saves={"self": "self", "result": "self"}, method="norm", function="norm")
def vector_norm(xp, a, ord, dims, keepdim):
    # float16 in float32, as torch accumulates (its order of summation is not reproduced)
    x = xp.abs(a.astype(_acc(a.dtype), copy=False))
    dims = _axes(a, dims)
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


@vector_norm.on_cpu
def _vector_norm_cpu(xp, a, ord, dims, keepdim):
    """Finite p other than 0 in torch's order (Note [vector norms])."""
    out = None
    if math.isfinite(ord) and ord != 0 and a.dtype in _FLOATS and a.ndim and a.size:
        out = exact_norm(a, ord, dims)
    if out is None:
        return vector_norm.forward(xp, a, ord=ord, dims=dims, keepdim=keepdim)
    if keepdim:
        out = out.reshape([1 if dims is None or d in dims else n for d, n in enumerate(a.shape)])
    return out


@vector_norm.def_backward
def vector_norm_backward(ctx, grad):
    # torch's norm_backward (FunctionsManual.cpp), formula for formula
    x, norm, p, dims = ctx.self, ctx.result, ctx.ord, ctx.dims
    if dims is not None:
        grad, norm = _keep_dims(dims, ctx.keepdim, x.dim(), grad, norm)
    if p == 0:
        return (None,)
    if p == 1:
        return (x.sign() * grad,)
    if p == 2:
        return (grad * (x / norm).masked_fill_(norm == 0, 0),)  # (in place: x's layout)
    if p in (float("inf"), float("-inf")):
        ax = x.abs()
        mask = (ax == norm) | (ax != ax)  # the elements that are the norm, or NaN
        count = mask.sum(dims if dims is not None else tuple(range(x.dim())), keepdim=True)
        return (x.sign() * ((grad / count) * mask),)
    if p < 1:
        scaled = x.sign() * (x.abs() ** (p - 1)).masked_fill_(x == 0, 0)
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
    if p.__class__ not in (int, float) or keepdim.__class__ is not bool or dim is not None and \
            dim.__class__ is not int and not isinstance(dim, (tuple, list)) or \
            dtype is not None and not isinstance(dtype, DType):
        p = 2 if p is None else p
        error = called_error("linalg_vector_norm", t, p, [dim] if isinstance(dim, int) else dim,
                             keepdim, dtype=dtype)  # (torch.norm's call)
        if error is not None:
            raise error
    src = _BY_NP[t._data.dtype]
    if not src.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {src.scalar_name}")
    if dtype is not None:
        t = t.to(dtype)
    dims = None if dim is None else normalize_dims(dim, t._data.ndim)  # (checks a 0-d's too)
    dims = dims if t._data.ndim else None
    p = float(p)
    empty = [d for d in dims or () if t._data.shape[d] == 0]
    if (p < 0 or p == float("inf")) and (empty if dims else t._data.size == 0):
        where = f"the dimension {empty[0]}" if dims else "an empty tensor "  # sic: no space
        raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on {where}because "
                           f"{'this dimension is empty and ' if dims else ''}the operation does "
                           "not have an identity")
    return apply(vector_norm, t, ord=p, dims=dims, keepdim=keepdim)


# -- cumsum and cumprod --------------------------------------------------------------------------

def _along(fn):
    """A scan of ``fn`` along ``dim`` (a 0-d array as 1-d), accumulating float32 in float64
    and float16 in float32 as torch's CPU scan does (acc_type), then rounded to ``dtype``."""
    def forward(xp, a, dim, dtype):
        acc = np.float64 if dtype == np.float32 else _acc(dtype)
        b = a if a.ndim else a.reshape(1)
        return getattr(xp, fn)(b, axis=dim, dtype=acc).astype(dtype, copy=False).reshape(a.shape)
    return forward


cumsum_op = declare("cumsum", "CumsumBackward0", method="cumsum", inplace="cumsum_",
                    function="cumsum")(_along("cumsum"))
cumprod_op = declare("cumprod", "CumprodBackward0", saves={"self": "self", "result": "self"},
                     method="cumprod", inplace="cumprod_", function="cumprod")(_along("cumprod"))


@cumsum_op.def_backward
def cumsum_backward(ctx, grad):
    # each input element feeds every later output: the reversed cumulative sum of grad (as
    # torch's, the gradient itself where that is the identity), in the input's dtype first
    grad = grad.to(_BY_NP[np.dtype(ctx.input_meta[0][1])])
    if grad.numel() <= 1 or grad.shape[ctx.dim] == 1:
        return (grad,)
    return (grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim),)


@cumprod_op.def_backward
def cumprod_backward(ctx, grad):
    x, dim = ctx.self, ctx.dim
    if grad.numel() <= 1 or grad.shape[dim] == 1:  # the identity: torch passes grad on
        return (grad,)
    if bool((x != 0).all()):  # torch's formula without zeros: sum_{j>=k} g_j y_j / x_k
        return ((grad * ctx.result).flip(dim).cumsum(dim).flip(dim) / x,)
    if GradMode.enabled:
        raise NotImplementedError("doctensor: the double backward of cumprod through zeros "
                                  "is not implemented")
    return (apply(cumprod_grad_with_zeros, x, grad, dim=dim),)


@declare("_cumprod_grad_with_zeros", None, ("self", "grad"))
def cumprod_grad_with_zeros(xp, x, g, dim):
    """d/dx_k of sum_j g_j prod_{i<=j} x_i = prod_{i<k} x_i * S_k, S_k = g_k + x_{k+1} S_{k+1}:
    no division, so zeros are fine (cumprod's backward)."""
    x, g = xp.moveaxis(x, dim, 0), xp.moveaxis(g, dim, 0)
    before = xp.cumprod(xp.concatenate([xp.ones_like(x[:1]), x[:-1]]), axis=0, dtype=x.dtype)
    s = xp.empty_like(g)
    s[-1] = g[-1]
    for k in range(len(g) - 2, -1, -1):
        s[k] = g[k] + x[k + 1] * s[k + 1]
    return xp.moveaxis(before * s, 0, dim)


def _scan(op, t, dim, dtype):
    """A cumulative op along ``dim``, in ``dtype`` (integers and bools: int64)."""
    src = _BY_NP[t._data.dtype]
    out = (dtype or (int64 if src.category < 2 else src)).np
    return apply(op, t, dim=S.wrap_dim(dim, max(t._data.ndim, 1)), dtype=out)


def cumsum(t, dim, dtype=None):
    """Cumulative sum along ``dim`` (integers and bools accumulate in int64, as torch)."""
    return _scan(cumsum_op, t, dim, dtype)


def cumprod(t, dim, dtype=None):
    """Cumulative product along ``dim`` (integers and bools in int64, as torch)."""
    return _scan(cumprod_op, t, dim, dtype)


# -- segment_reduce (misc3) -----------------------------------------------------------------
#
# Note [segment reduction]: torch's CPU kernel reduces each segment of ``data`` along ``axis``
# (by ``lengths``, or by ``offsets``: segment i is [offsets[i], offsets[i + 1])), one element
# after the other from ``initial`` (else -inf for max, inf for min, 0 for sum and mean, 1 for
# prod), in the data's type; a NaN wins max and min; mean divides by the length (an empty
# segment without ``initial``: NaN).  Its backward: sum and mean spread the gradient (mean
# divided by the length); max and min give it to every element equal to the result (or NaN)
# and divide the positive ones among them; prod gives ``grad * result / x``, or for a zero
# or NaN ``x``, ``grad`` times the product of the others (from ``initial``).

__all__ += ["segment_reduce"]

_SEGMENT_KINDS = {"sum": "sum", "mean": "mean", "max": "max", "amax": "max", "min": "min",
                  "amin": "min", "prod": "prod"}
_SEGMENT_START = {"max": -np.inf, "min": np.inf, "sum": 0, "mean": 0, "prod": 1}


def _segments(data, axis, lengths, offsets):
    """``data`` as (outer, axis, inner) and each outer row's segment bounds (starts, ends)."""
    outer = int(np.prod(data.shape[:axis], dtype=np.int64))
    x = data.reshape(outer, data.shape[axis] if data.ndim else 1, -1)
    if offsets is not None:
        bounds = offsets._data.reshape(outer, -1).astype(np.int64)
        starts, ends = bounds[:, :-1], bounds[:, 1:]
    else:
        lens = lengths._data.reshape(outer, -1).astype(np.int64)
        ends = np.cumsum(lens, axis=1)
        starts = ends - lens
    if (ends < starts).any():
        raise RuntimeError("Expected segment_length >= 0 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    return x, starts, ends


def _segment_shape(data, axis, count):
    return data.shape[:axis] + (count,) + data.shape[axis + 1:]


@declare("segment_reduce", "SegmentReduceBackward0", ("data",),
         saves={"data": "data", "result": "data"})
def _segment_reduce(xp, data, reduce, axis, lengths, offsets, initial):
    kind = _SEGMENT_KINDS[reduce]
    x, starts, ends = _segments(data, axis, lengths, offsets)
    start = _SEGMENT_START[kind] if initial is None else initial
    out = np.empty((x.shape[0], starts.shape[1], x.shape[2]), data.dtype)
    for o, s in itertools.product(range(starts.shape[0]), range(starts.shape[1])):
        acc = np.full(x.shape[2], start, data.dtype)
        for v in x[o, starts[o, s]:ends[o, s]]:
            if kind in ("sum", "mean"):
                acc = acc + v
            elif kind == "prod":
                acc = acc * v
            else:
                acc = np.where(np.isnan(v), v, (np.maximum if kind == "max" else np.minimum)(
                    acc, v))
        length = ends[o, s] - starts[o, s]
        if kind == "mean" and length == 0 and initial is None:
            acc = np.full_like(acc, np.nan)
        elif kind == "mean" and length > 0:
            acc = np.where(np.isnan(acc), acc, acc / length)
        out[o, s] = acc
    return out.reshape(_segment_shape(data, axis, starts.shape[1]))


@_segment_reduce.def_backward
def segment_reduce_backward(ctx, grad):
    return (apply(_segment_gradient, grad, ctx.result, ctx.data, **ctx.attrs),)


@declare("_segment_reduce_backward", "NotImplemented", ("grad", "output", "data"))
def _segment_gradient(xp, grad, output, data, reduce, axis, lengths, offsets, initial):
    """torch's _segment_reduce_backward (Note [segment reduction])."""
    kind = _SEGMENT_KINDS[reduce]
    x, starts, ends = _segments(data, axis, lengths, offsets)
    g = grad.reshape(x.shape[0], starts.shape[1], -1)
    r = output.reshape(g.shape)
    dx = np.zeros(x.shape, data.dtype)
    for o, s in itertools.product(range(starts.shape[0]), range(starts.shape[1])):
        a, b = starts[o, s], ends[o, s]
        if a == b:
            continue
        seg = x[o, a:b]
        if kind == "sum":
            dx[o, a:b] = g[o, s]
        elif kind == "mean":
            dx[o, a:b] = g[o, s] / (b - a)
        elif kind == "prod":
            dx[o, a:b] = _prod_gradient(seg, g[o, s], r[o, s], initial)
        else:
            hit = np.isnan(seg) | (seg == r[o, s])
            got = np.where(hit, g[o, s], np.zeros((), data.dtype))
            count = hit.sum(axis=0)
            dx[o, a:b] = np.where((count >= 2) & (got > 0), got / np.maximum(count, 1), got)
    return dx.reshape(data.shape)


def _prod_gradient(seg, g, r, initial):
    """prod's gradient in one segment (L, inner): ``g * r / x``, or ``g`` times the product of
    the others (from ``initial``) where ``x`` is 0 or NaN."""
    out = (g * r) / seg
    for j in range(seg.shape[0]):
        special = np.isnan(seg[j]) | (seg[j] == 0)
        if special.any():
            others = np.full(seg.shape[1], 1 if initial is None else initial, seg.dtype)
            for k in range(seg.shape[0]):
                if k != j:
                    others = others * seg[k]
            out[j] = np.where(special, g * others, out[j])
    return out


@_segment_gradient.def_backward
def segment_gradient_backward(ctx, grad):
    raise RuntimeError("derivative for aten::_segment_reduce_backward is not implemented")


def segment_reduce(data, reduce, lengths=None, indices=None, offsets=None, axis=0,
                   unsafe=False, initial=None):
    """``torch.segment_reduce``: ``reduce`` ('sum', 'mean', 'max', 'min', 'prod') over the
    segments of ``data`` along ``axis`` (Note [segment reduction])."""
    axis = S.wrap_dim(axis, data.dim())
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    if reduce not in _SEGMENT_KINDS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    name, index = ("offsets", offsets) if offsets is not None else ("lengths", lengths)
    if data.dim() < index.dim():
        raise RuntimeError(f"Expected data.dim() >= {name}_value.dim() to be true, but got "
                           "false.  (Could this error message be improved?  If so, please "
                           "report an enhancement request to PyTorch.)")
    if axis != index.dim() - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of {name} "
                           f"but got {axis}.")
    if offsets is None and not unsafe:
        _check_lengths(data, lengths, axis)
    if index.dtype.name not in ("int32", "int64"):
        raise NotImplementedError(f'"_segment_reduce_{name}_cpu_kernel1" not implemented for '
                                  f"'{index.dtype.scalar_name}'")
    if not data.dtype.is_floating_point:
        raise NotImplementedError(f"\"_segment_reduce_cpu\" not implemented for "
                                  f"'{data.dtype.scalar_name}'")
    return apply(_segment_reduce, data, reduce=reduce, axis=axis, lengths=lengths,
                 offsets=offsets, initial=initial)


def _check_lengths(data, lengths, axis):
    """torch's checks of ``lengths`` (skipped when ``unsafe``)."""
    values = lengths._data
    if values.size == 0:
        raise RuntimeError("min(): Expected reduction dim to be specified for input.numel() == "
                           "0. Specify the reduction dim with the 'dim' argument.")
    if values.min() < 0:
        raise RuntimeError("lengths contains negative value!")
    if not (values.sum(axis=-1) == (data.shape[axis] if data.dim() else 1)).all():
        raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum to "
                           "data.size(lengths.dim()-1) when !unsafe.")
