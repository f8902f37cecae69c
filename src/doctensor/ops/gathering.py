"""Picking elements by an index tensor (``index_select``, ``gather``) or a mask
(``masked_select``), finding and counting them (``nonzero``, ``unique``, ``bincount``), and the
matrix masks ``diag``, ``tril`` / ``triu``.

Results are new contiguous tensors, as torch allocates them.  The backward of a pick is the
matching scatter-add (``index_add``, ``scatter_add``), itself an op whose backward picks
again, so gradients of gradients work as torch's do.
"""

import numpy as np

from .. import _strides as S
from .._argparser import check_keywords
from .._dtypes import _BY_NP
from .._tensor_base import TensorBase, warn_at_user, warn_once
from ._dispatch import (
    apply,
    apply_,
    autograd_check_,
    check_overlap,
    check_partial_overlap,
    check_same_device,
)
from ._registry import declare
from .creation import full
from .pointwise import where_tensor
from .views import diagonal_backward

__all__ = ["index_select", "index_add", "index_fill", "index_copy", "gather", "scatter",
           "scatter_add", "masked_select_op", "nonzero", "nonzero_op", "diag", "diag_embed",
           "triangle", "tril_op", "triu_op", "unique", "bincount_op", "scatter_reduce",
           "index_reduce"]

_INDEX_KINDS = (np.dtype(np.int32), np.dtype(np.int64))


def _along(dim, index):
    """The NumPy index that puts ``index`` at axis ``dim`` (every other axis whole)."""
    return (slice(None),) * dim + (index,)


def _run(op, in_place, t, *args, **attrs):
    """``op`` out of place, or in place on ``t`` (its forward's result written into ``t``)."""
    return (apply_ if in_place else apply)(op, t, *args, **attrs)


# -- index_select and its backward, index_add -------------------------------------------------

@declare("index_select", "IndexSelectBackward0", ("self", "index"), saves={"index": "self"},
         method="index_select", function="index_select")
def _index_select(xp, a, index, dim):
    return xp.take(a, index.reshape(-1), axis=dim) if a.ndim else a.copy()


@declare("index_add", "IndexAddBackward0", ("self", "index", "source"),
         saves={"index": "source"}, method="index_add", inplace="index_add_",
         function="index_add")
def _index_add(xp, a, index, source, dim, alpha=1):
    out = a.copy()
    xp.add.at(out, _along(dim, index.reshape(-1)) if a.ndim else (),
              source if alpha == 1 else source * xp.asarray(alpha, a.dtype))
    return out


def index_select(t, dim, index):
    """The slices of ``t`` at positions ``index`` (a vector) along ``dim``."""
    check_same_device((t, index))
    d = S.wrap_dim(dim, max(t._data.ndim, 1))
    if index._data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index._data.dtype not in _INDEX_KINDS:
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    idx = index._data.reshape(-1)
    if not t._data.ndim and idx.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{idx.size} value(s)")
    size = t._data.shape[d] if t._data.ndim else 1
    if idx.size and not size and t._data.ndim > 1:  # a vector's falls to the range check
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= size):
        raise IndexError("index out of range in self")
    return apply(_index_select, t, index, dim=d)


def _check_index_vector(name, t, dim, index, source=None, negative=False):
    """torch's checks of index_add / index_copy / index_fill's index (a vector of int64, or
    int32 for index_add) and source, in torch's order; returns (wrapped dim, index array)."""
    check_same_device([x for x in (t, index, source) if x is not None])
    d = S.wrap_dim(dim, max(t._data.ndim, 1))
    idx = index._data
    if name == "index_add_":
        _check_index_add(t, d, idx, source)
    elif name == "index_copy_":
        _check_index_copy(t, d, idx, source)
    else:  # index_fill_
        if idx.dtype != np.int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if idx.ndim > 1:
            raise RuntimeError("Index has to be a vector/scalar")
    size = t._data.shape[d] if t._data.ndim else 1
    flat = idx.reshape(-1)
    low = -size if negative else 0
    bad = (flat < low) | (flat >= size)
    if bad.any():
        value = int(flat[bad.argmax()])
        prefix = "index_copy_(): " if name == "index_copy_" else ""
        raise (RuntimeError if name == "index_add_" else IndexError)(
            f"{prefix}index {value} is out of bounds for dimension {d} with size {size}")
    return d, flat % size if negative and size else flat


def _sliced(t, d):
    """``t``'s sizes without dim ``d``."""
    return [n for k, n in enumerate(t._data.shape) if k != d]


def _check_index_add(t, d, idx, source, name="index_add_"):
    """torch's index_func_meta_impl, for index_add (and index_reduce: ``name``)."""
    if idx.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector, but got dim: "
                         f"{idx.ndim} with type: {_BY_NP[idx.dtype].scalar_name} and size: "
                         f"{list(idx.shape)}")
    if idx.dtype not in _INDEX_KINDS:
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: "
                           f"{_BY_NP[idx.dtype].scalar_name}")
    mine, theirs = _BY_NP[t._data.dtype], _BY_NP[source._data.dtype]
    if mine is not theirs:
        raise RuntimeError(f"{name}(): self ({mine.scalar_name}) and source "
                           f"({theirs.scalar_name}) must have the same scalar type")
    count = source._data.shape[d] if source._data.ndim else 1
    if idx.size != count:
        raise RuntimeError(f"{name}(): Number of indices ({idx.size}) should be equal "
                           f"to source.size(dim): ({count}), for dim: {d}")
    if source._data.ndim and t._data.ndim and _sliced(t, d) != _sliced(source, d):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding "
                           f"the specified dimension. Got self.shape = {list(t.shape)} "
                           f"source.shape = {list(source.shape)}")


def _check_index_copy(t, d, idx, source):
    """torch's index_copy meta function."""
    if idx.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
    src_ndim, ndim = source._data.ndim, t._data.ndim
    if not src_ndim and idx.size != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one "
                         f"element (got {idx.size})")
    if src_ndim != ndim and src_ndim and ndim:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({src_ndim}), "
                         f"destination dimensionality ({ndim})")
    if idx.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{_BY_NP[idx.dtype].scalar_name}")
    mine, theirs = _BY_NP[t._data.dtype], _BY_NP[source._data.dtype]
    if mine is not theirs:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, "
                           f"but got (self) {mine.scalar_name} and (source) "
                           f"{theirs.scalar_name}")
    mine, theirs = _sliced(t, d), _sliced(source, d)
    if mine != theirs:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {' '.join(map(str, mine))} at "
                           f"dimension {d} and source slice shape: "
                           f"{' '.join(map(str, theirs))} at dimension 0.")
    if src_ndim and idx.size != source._data.shape[d]:
        raise IndexError(f"index_copy_(): Number of indices ({idx.size}) should be equal to "
                         f"source.size(dim) ({source._data.shape[d]})")


def index_add(t, dim, index, source, alpha=1, in_place=False):
    """``t`` with ``alpha * source``'s slices added at positions ``index`` along ``dim``
    (repeated positions add up)."""
    if in_place:
        autograd_check_(t, source)
    d, _ = _check_index_vector("index_add_", t, dim, index, source)
    if alpha == 1:
        return _run(_index_add, in_place, t, index, source, dim=d)
    return _run(_index_add, in_place, t, index, source, dim=d, alpha=alpha)


@declare("index_fill", "IndexFillBackward0", ("self", "index"), saves={"index": "self"},
         unsaved=("value",), method="index_fill", inplace="index_fill_", function="index_fill",
         overlap="deprecated")
def _index_fill(xp, a, index, dim, value):
    out = a.copy()
    size = a.shape[dim] if a.ndim else 1
    flat = index.reshape(-1)
    _fill_slices(out, dim, flat % size if size else flat, value)
    return out


def _fill_slices(a, dim, positions, value):
    """Write ``value`` into the slices of the array ``a`` at ``positions`` along ``dim``."""
    a[_along(dim, positions) if a.ndim else ()] = value


@_index_fill.def_backward
def index_fill_backward(ctx, grad):
    return (index_fill(grad, ctx.dim, ctx.index, 0), None)


def index_fill(t, dim, index, value, in_place=False):
    """``t`` with the slices at positions ``index`` along ``dim`` set to the number
    ``value`` (negative positions count from the end)."""
    if in_place:
        autograd_check_(t, value)
    if isinstance(value, TensorBase):
        if value.dim():
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value.dim()} dimension(s).")
        raise NotImplementedError("doctensor's index_fill takes a number as value")
    d, positions = _check_index_vector("index_fill_", t, dim, index, negative=True)
    if not in_place:
        return apply(_index_fill, t, index, dim=d, value=value)
    # torch's kernel writes the chosen slices only (an expanded tensor shows it)
    return apply_(_index_fill, t, index, dim=d, value=value,
                  write=lambda: _fill_slices(t._data, d, positions, value))


@declare("index_copy", "IndexCopyBackward0", ("self", "index", "source"),
         saves={"index": ("self", "source")}, method="index_copy", inplace="index_copy_",
         function="index_copy")
def _index_copy(xp, a, index, source, dim):
    out = a.copy()
    out[_along(dim, index.reshape(-1)) if a.ndim else ()] = source
    return out


@_index_copy.def_backward
def index_copy_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (index_fill(grad, ctx.dim, ctx.index, 0) if n[0] else None, None,
            index_select(grad, ctx.dim, ctx.index) if n[2] else None)


def index_copy(t, dim, index, source, in_place=False):
    """``t`` with ``source``'s slices copied to positions ``index`` along ``dim``."""
    if in_place:
        autograd_check_(t, source)
    d, _ = _check_index_vector("index_copy_", t, dim, index, source)
    return _run(_index_copy, in_place, t, index, source, dim=d)


# -- gather and its backward, scatter_add -----------------------------------------------------


def _positions(index, dim, ndim):
    """NumPy's index of the elements ``gather`` reads (of an ``ndim``-d array, ndim >= 1):
    ``index`` itself at axis ``dim``, the element's own coordinate at every other axis (a 0-d
    index counts as 1-d)."""
    if not index.ndim:
        return (index.reshape(1),)
    where = list(np.indices(index.shape, sparse=True))
    where[dim] = index
    return tuple(where)


@declare("gather", "GatherBackward0", ("self", "index"), saves={"index": "self"},
         method="gather", function="gather")
def _gather(xp, a, index, dim):
    if not a.ndim:  # every index reads the one element
        return xp.broadcast_to(a, index.shape).copy()
    if not index.size:
        return xp.zeros(index.shape, a.dtype)
    return a[_positions(index, dim, a.ndim)].reshape(index.shape)


@declare("scatter_add", "ScatterAddBackward0", ("self", "index", "src"), saves={"index": "src"},
         method="scatter_add", inplace="scatter_add_", function="scatter_add")
def _scatter_add(xp, a, index, src, dim):
    out = a.copy()
    src = _cut(src, index)
    if not a.ndim:
        out += src.sum(dtype=a.dtype)
    elif index.size:
        xp.add.at(out, _positions(index, dim, a.ndim), src.reshape(index.shape or (1,)))
    return out


def gather(t, dim, index):
    """``out[i][j] = t[i][index[i][j]]`` for ``dim=1`` (and likewise for every dim)."""
    check_same_device((t, index))
    ndim = t._data.ndim
    d = S.wrap_dim(dim, max(ndim, 1))
    if index._data.dtype not in _INDEX_KINDS:
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    idx = index._data
    if idx.size:  # torch checks nothing more for an empty index
        if max(idx.ndim, 1) != max(ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as input "
                               "tensor")
        shape = t._data.shape
        for k in range(ndim):
            if k != d and idx.shape[k] > shape[k]:
                raise RuntimeError(
                    f"Size does not match at dimension {k} expected index {list(idx.shape)} to "
                    f"be no larger than self {list(shape)} apart from dimension {d}")
        _check_bounds(idx, d, shape[d] if ndim else 1)
    return apply(_gather, t, index, dim=d)


def _check_bounds(idx, d, size):
    """torch's error for the first index (in memory order, as its loop meets it) outside
    ``[0, size)`` (gather and the scatters)."""
    outside = (idx < 0) | (idx >= size)
    if outside.any():
        bad = int(idx.reshape(-1)[outside.reshape(-1).argmax()])
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")


@declare("scatter", "ScatterBackward0", ("self", "index", "src"),
         saves={"index": ("self", "src")}, method="scatter", inplace="scatter_",
         function="scatter")
def _scatter(xp, a, index, src, dim):
    out = a.copy()
    if index.size and a.ndim:
        out[_positions(index, dim, a.ndim)] = _cut(src, index)
    elif index.size:  # (every index is 0: the last write wins)
        out[()] = _cut(src, index).reshape(-1)[-1]
    return out


@_scatter.def_backward
def scatter_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (scatter(grad, ctx.dim, ctx.index, value=0) if n[0] else None, None,
            gather(grad, ctx.dim, ctx.index) if n[2] else None)


@declare("scatter", "ScatterBackward1", ("self", "index"), saves={"index": "self"},
         method="scatter", inplace="scatter_", function="scatter")
def _scatter_value(xp, a, index, dim, value):
    return _scatter.forward(xp, a, index, xp.asarray(value, a.dtype), dim)


@_scatter_value.def_backward
def scatter_value_backward(ctx, grad):
    return (scatter(grad, ctx.dim, ctx.index, value=0), None)


def _cut(src, index):
    """The part of ``src`` that a scatter reads: its leading block of ``index``'s shape (a 0-d
    index reads one element)."""
    if not src.ndim:
        return src
    part = src[tuple(slice(0, n) for n in index.shape or (1,))]
    return part if index.ndim else part.reshape(())


def _size(a, k):
    """torch's ensure_nonempty_size: a 0-d array's size is 1 at any dim; another's at a dim
    out of range is torch's IndexError."""
    return a.shape[S.wrap_dim(k, a.ndim)] if a.ndim else 1


def _check_scatter(name, t, dim, index, src, in_place=False, reduce=None):
    """torch's checks of scatter and scatter_add, in its order (in place: autograd's first,
    the overlaps, then scatter's ``reduce``, before the bounds); returns the wrapped dim."""
    check_same_device([x for x in (t, index, src) if x is not None])
    if in_place:
        autograd_check_(t, src)
    d = S.wrap_dim(dim, t._data.ndim)
    if index._data.dtype not in _INDEX_KINDS:
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != t._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    idx = index._data
    if idx.size:  # (torch checks the shapes of a non-empty index only)
        _check_scatter_shapes(t, d, idx, src)
    if in_place:
        check_overlap(_scatter, t)
        check_partial_overlap(t, [x for x in (index, src) if x is not None], full=True)
    if reduce is not None and reduce not in _OLD_REDUCE:
        raise RuntimeError("reduce argument must be either add or multiply.")
    if idx.size:
        _check_bounds(idx, d, _size(t._data, d))
    return d


def _check_scatter_shapes(t, d, idx, src):
    """torch's scatter_shape_check: index as many dims as self (and src), no larger."""
    ndim = max(t._data.ndim, 1)
    if max(idx.ndim, 1) != ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    wrong = any(k != d and _size(idx, k) > _size(t._data, k) for k in range(ndim))
    if not wrong and src is not None:  # (src's sizes read at self's dims: maybe out of range)
        wrong = any(_size(idx, k) > _size(src._data, k) for k in range(ndim))
    if src is not None and max(src._data.ndim, 1) != max(idx.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if wrong:
        raise RuntimeError(
            f"Expected index {list(idx.shape)} to be no larger than self {list(t.shape)} "
            f"apart from dimension {d}" + ("" if src is None else
                                           f" and to be no larger size than src "
                                           f"{list(src.shape)}"))


def scatter(t, dim, index, src=None, value=None, reduce=None, in_place=False):
    """``t`` with ``src[i][j]`` (or ``value``) written at ``[i][index[i][j]]`` for ``dim=1``
    (likewise for every dim); repeated indices: the last write wins, or with ``reduce``
    ("add", "multiply": deprecated for a tensor ``src``) they combine with ``t``'s value."""
    if src is not None and not isinstance(src, TensorBase):
        src, value = None, src
    d = _check_scatter("scatter", t, dim, index, src, in_place, reduce)
    if reduce is not None:
        if src is None:
            src = full(index.shape, value, t.dtype, t._device)
        else:
            warn_at_user(_SCATTER_REDUCE_DEPRECATED, once=True)
        return _run(_scatter_reducing, in_place, t, index, src, dim=d, reduce=reduce)
    if src is None:
        return _run(_scatter_value, in_place, t, index, dim=d, value=value)
    return _run(_scatter, in_place, t, index, src, dim=d)


def scatter_add(t, dim, index, src, in_place=False):
    """``t`` with ``src[i][j]`` added at ``[i][index[i][j]]`` for ``dim=1`` (repeats add up)."""
    d = _check_scatter("scatter_add", t, dim, index, src, in_place)
    return _run(_scatter_add, in_place, t, index, src, dim=d)


def _backwards(pick, scatter, pick_again):
    """A pick's gradient is a scatter-add into zeros; the scatter-add's gradient for its
    source picks again (torch's formulas, so second derivatives flow)."""
    @pick.def_backward
    def pick_backward(ctx, grad):  # (in place, as torch's: the gradient is at version 1)
        zeros = grad.new_zeros(ctx.input_meta[0][0])
        return (apply_(scatter, zeros, ctx.index, grad, dim=ctx.dim), None)

    @scatter.def_backward
    def scatter_add_backward(ctx, grad):
        n = ctx.needs_input_grad
        picked = pick_again(grad, ctx.dim, ctx.index) if n[2] else None
        alpha = ctx.attrs.get("alpha", 1)
        return (grad if n[0] else None, None, picked if alpha == 1 or picked is None
                else picked * alpha)


_backwards(_index_select, _index_add, index_select)
_backwards(_gather, _scatter_add, gather)


# -- scatter's reduce (deprecated), scatter_reduce and index_reduce ------------------------------

_OLD_REDUCE = {"add": "sum", "multiply": "prod"}
_SCATTER_REDUCE_DEPRECATED = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
    "future PyTorch release. Use torch.scatter_reduce instead for more reduction options. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "TensorAdvancedIndexing.cpp:225.)")


@declare("scatter", "NotImplemented", ("self", "index", "src"))
def _scatter_reducing(xp, a, index, src, dim, reduce):
    """scatter with ``reduce``: scatter_reduce's sum or prod, ``a`` included (torch has no
    derivative for it)."""
    return _scatter_reduce.forward(xp, a, index, src, dim, _OLD_REDUCE[reduce])


@_scatter_reducing.def_backward
def scatter_reducing_backward(ctx, grad):
    raise RuntimeError("derivative for aten::scatter is not implemented")


_REDUCE_UFUNCS = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "maximum",
                  "amin": "minimum"}


def _identity(reduce, dtype):
    """What a reduction starts from where ``include_self=False`` leaves ``self`` out."""
    if reduce in ("sum", "mean", "prod"):
        return int(reduce == "prod")
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _reduce_at(xp, a, where, values, reduce, include_self):
    """A copy of the array ``a`` with ``values`` reduced into the positions ``where``
    (repeated positions combine); ``mean`` divides by the number of values (and ``self``)
    each position got, flooring for integers."""
    out = a.copy()
    if not include_self:
        out[where] = _identity(reduce, a.dtype)
    getattr(xp, _REDUCE_UFUNCS[reduce]).at(out, where, values)
    if reduce != "mean":
        return out
    counts = xp.full(a.shape, int(include_self), dtype=a.dtype)
    xp.add.at(counts, where, 1)
    counts[counts == 0] = 1
    return (out / counts if a.dtype.kind == "f" else out // counts).astype(a.dtype)


def _check_reduce(reduce):
    if reduce not in _REDUCE_UFUNCS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")


# torch's forward also takes "max" and "min", which its backward then refuses
_ALIASES = {"max": "amax", "min": "amin"}
_REDUCE_SAVES = {name: ("self", "src") for name in ("self", "index", "src", "result")}


@declare("scatter_reduce", "ScatterReduceBackward0", ("self", "index", "src"),
         saves=_REDUCE_SAVES, method="scatter_reduce", inplace="scatter_reduce_",
         function="scatter_reduce")
def _scatter_reduce(xp, a, index, src, dim, reduce, include_self=True):
    reduce = _ALIASES.get(reduce, reduce)
    if not index.size:
        return a.copy()
    flat = a.reshape(a.shape or (1,))
    index = index.reshape(index.shape or (1,))
    values = _cut(src.reshape(src.shape or (1,)), index)
    return _reduce_at(xp, flat, _positions(index, dim, flat.ndim), values, reduce,
                      include_self).reshape(a.shape)


def scatter_reduce(t, dim, index, src, reduce, include_self=True, in_place=False):
    """``t`` with ``src[i][j]`` reduced (``sum``, ``prod``, ``mean``, ``amax``, ``amin``)
    into ``[i][index[i][j]]`` for ``dim=1`` (likewise for every dim), together with ``t``'s
    own value unless ``include_self`` is False."""
    d = _check_scatter("scatter", t, dim, index, src, in_place)
    _check_reduce(_ALIASES.get(reduce, reduce))
    return _run(_scatter_reduce, in_place, t, index, src, dim=d, reduce=reduce,
                include_self=include_self)


@declare("index_reduce", "IndexReduceBackward0", ("self", "index", "source"),
         saves={"self": ("self", "source"), "index": ("self", "source"),
                "source": ("self", "source"), "result": ("self", "source")},
         method="index_reduce", inplace="index_reduce_", function="index_reduce")
def _index_reduce(xp, a, index, source, dim, reduce, include_self=True):
    flat = a.reshape(a.shape or (1,))
    values = source.reshape(source.shape or (1,))
    return _reduce_at(xp, flat, _along(dim, index.reshape(-1)), values, reduce,
                      include_self).reshape(a.shape)


_INDEX_REDUCE_BETA = ("index_reduce() is in beta and the API may change at any time. "
                      "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                      "TensorAdvancedIndexing.cpp:1523.)")


def index_reduce(t, dim, index, source, reduce, include_self=True, in_place=False):
    """``t`` with ``source``'s slices reduced (``prod``, ``mean``, ``amax``, ``amin``) into
    the slices at positions ``index`` along ``dim``, together with ``t``'s own unless
    ``include_self`` is False."""
    if in_place:
        autograd_check_(t, source)
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    check_same_device((t, index, source))
    d = S.wrap_dim(dim, max(t._data.ndim, 1))
    _check_index_add(t, d, index._data, source, "index_reduce_")
    flat = index._data.reshape(-1)
    size = t._data.shape[d] if t._data.ndim else 1
    if flat.size and (int(flat.min()) < 0 or int(flat.max()) >= size):
        raise IndexError("index out of range in self")
    warn_once(_INDEX_REDUCE_BETA, stacklevel=4)
    return _run(_index_reduce, in_place, t, index, source, dim=d, reduce=reduce,
                include_self=include_self)


def _reduce_backward(source, pick, add, again, zero):
    """The gradients of a reducing scatter (torch's ``scatter_reduce_backward`` and
    ``index_reduce_backward``): ``source`` names the values' input, ``pick`` reads the
    positions written, ``add`` adds into them, ``again`` reruns the op, ``zero`` zeroes the
    written positions."""
    def backward(ctx, grad):
        dim, index, reduce = ctx.dim, ctx.index, ctx.reduce
        if reduce in _ALIASES:
            raise RuntimeError(f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                               f"'amin' but got {reduce}.")
        include_self = ctx.attrs.get("include_self", True)
        self, src, result = ctx.self, getattr(ctx, source), ctx.result
        at = lambda t: pick(t, dim, index)  # noqa: E731 - the formulas read as torch's
        into = lambda t, values: add(t, dim, index, values)  # noqa: E731
        if reduce == "sum":
            grad_self, grad_src = grad, at(grad)
        elif reduce == "mean":
            n = into(grad.new_full(grad.shape, int(include_self)), src.new_ones(src.shape))
            n = n.masked_fill(n == 0, 1)
            grad_self, grad_src = grad / n, at(grad) / at(n)
        elif reduce == "prod":
            masked_self = self.masked_fill(self == 0, 1)
            grad_self = grad * again(masked_self, dim, index, src, reduce, include_self) / \
                masked_self
            src_zero = src == 0
            zeros_there = at(into(self.new_zeros(self.shape), src_zero.to(self.dtype)))
            single = src_zero & (zeros_there == 1)
            masked_result = again(self, dim, index, src.masked_fill(single, 1), reduce,
                                  include_self)
            grad_src = where_tensor(single, at(grad * masked_result),
                                    at(grad * result) / src.masked_fill(src_zero, 1))
        else:  # amax, amin: the gradient shared evenly among the values that tie
            value = at(result)
            self_is = (self == result).to(self.dtype)
            src_is = (src == value).to(self.dtype)
            shared = grad / into(self_is, src_is)
            grad_self, grad_src = self_is * shared, src_is * at(shared)
        if not include_self:
            grad_self = zero(grad_self, dim, index)
        n = ctx.needs_input_grad
        return grad_self if n[0] else None, None, grad_src if n[2] else None
    return backward


_scatter_reduce.def_backward(_reduce_backward(
    "src", gather, scatter_add, scatter_reduce,
    lambda g, dim, index: scatter(g, dim, index, value=0)))
_index_reduce.def_backward(_reduce_backward(
    "source", index_select, index_add, index_reduce,
    lambda g, dim, index: index_fill(g, dim, index, 0)))


# -- masked_select ------------------------------------------------------------------------------


def _check_mask(a, mask):
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")


@declare("masked_select", "MaskedSelectBackward0", ("self", "mask"), saves={"mask": "self"},
         check=_check_mask, method="masked_select", function="masked_select")
def masked_select_op(xp, a, mask):
    a, mask = xp.broadcast_arrays(a, mask)
    return a[mask]


@masked_select_op.def_backward
def masked_select_backward(ctx, grad):
    mask = ctx.mask
    shape = np.broadcast_shapes(ctx.input_meta[0][0], mask._data.shape)
    # (torch's: zeros of the broadcast shape, masked_scatter_ in place; summed back: _fit)
    return (grad.new_zeros(shape).masked_scatter_(mask, grad), None)


# -- nonzero ------------------------------------------------------------------------------------


@declare("nonzero", None, layout="strided", method=("nonzero", "argwhere"),
         function=("nonzero", "argwhere"))
def nonzero_op(xp, a):
    """The coordinates of the nonzero elements: an (n, ndim) int64 array laid out column by
    column, as torch's (strides (1, n))."""
    coords = xp.nonzero(a) if a.ndim else ()
    n = len(coords[0]) if coords else int(bool(a))
    columns = xp.stack(coords).astype(np.int64) if coords else xp.zeros((0, n), np.int64)
    out = columns.T
    if not out.size:
        out = xp.lib.stride_tricks.as_strided(out, strides=(8, 8 * n))
    return out


def nonzero(t, as_tuple=False):
    """The coordinates of the nonzero elements (``nonzero_op``), or with ``as_tuple`` one view
    per dim of them (a 0-d tensor counting as 1-d there), as torch's ``nonzero_numpy``."""
    if as_tuple:
        return apply(nonzero_op, t if t._data.ndim else t.unsqueeze(0)).unbind(1)
    return apply(nonzero_op, t)


# -- diag -------------------------------------------------------------------------------------


@declare("diag_embed", "DiagEmbedBackward0", method=("diag", "diag_embed"),
         function=("diag", "diag_embed"))
def _diag_embed(xp, v, offset, dim1, dim2):
    """Zeros with the last dim of ``v`` on the ``offset`` diagonal of the (wrapped, distinct)
    dims ``dim1`` and ``dim2`` of the result."""
    n = v.shape[-1]
    side = n + abs(offset)
    rest = list(v.shape[:-1])
    shape = rest[:]
    for d in sorted((dim1, dim2)):
        shape.insert(d, side)
    out = xp.zeros(shape, dtype=v.dtype)
    rows = xp.arange(n) + max(-offset, 0)
    xp.moveaxis(out, (dim1, dim2), (-2, -1))[..., rows, rows + offset] = v
    return out


@_diag_embed.def_backward
def diag_embed_backward(ctx, grad):
    return (grad.diagonal(ctx.offset, ctx.dim1, ctx.dim2),)


def diag_embed(t, offset=0, dim1=-2, dim2=-1):
    """A tensor with one more dim, holding ``t``'s last dim on the ``offset`` diagonal of the
    matrices along ``dim1`` and ``dim2``, zeros elsewhere."""
    if offset.__class__ is not int:  # (an integer tensor of one element: its value)
        offset = S.as_int(offset, "offset")
    n = t._data.ndim + 1
    d1, d2 = S.wrap_dim(dim1, n), S.wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return apply(_diag_embed, t, offset=offset, dim1=d1, dim2=d2)


@declare("diagonal_copy", "DiagonalBackward0_copy", method="diag", function="diag")
def _diagonal_copy(xp, a, offset):
    return xp.diagonal(a, offset).copy()


@_diagonal_copy.def_backward
def diagonal_copy_backward(ctx, grad):
    return (apply(diagonal_backward, grad, input_shape=ctx.input_meta[0][0], offset_=ctx.offset,
                  dim1=0, dim2=1),)


def diag(t, diagonal=0):
    """A vector's square matrix with it on the ``diagonal``, or a matrix's diagonal (a copy)."""
    if diagonal.__class__ is not int:
        diagonal = S.as_int(diagonal, "diagonal")
    if t._data.ndim == 1:
        return apply(_diag_embed, t, offset=diagonal, dim1=0, dim2=1)
    if t._data.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {t._data.ndim}D")
    return apply(_diagonal_copy, t, offset=diagonal)


# -- tril and triu ------------------------------------------------------------------------------


def _check_triangle(name):
    def check(self, diagonal):  # (triangle has made the diagonal an int)
        if self._data.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return check


def _triangle_op(name):
    @declare(name, name.capitalize() + "Backward0", check=_check_triangle(name), method=name,
             inplace=name + "_", function=name, overlap="write")
    def op(xp, a, diagonal):
        return getattr(xp, name)(a, diagonal).astype(a.dtype, copy=False)

    @op.def_backward
    def triangle_backward(ctx, grad):
        return (apply(op, grad, diagonal=ctx.diagonal),)
    return op


tril_op, triu_op = _triangle_op("tril"), _triangle_op("triu")


def triangle(name, t, diagonal=0, in_place=False):
    """``tril`` (on and below the ``diagonal``) or ``triu`` (on and above) of the last two
    dims; everything else is zero.  In place, torch's kernel writes only those zeros (which
    shows in an expanded tensor: Note [writing into an expand])."""
    op = tril_op if name == "tril" else triu_op
    if diagonal.__class__ is not int:  # (an integer tensor of one element: its value)
        diagonal = S.as_int(diagonal, "diagonal")
    if not in_place:
        return apply(op, t, diagonal=diagonal)

    def write():
        n, m = t._data.shape[-2:]
        keep = np.tri(n, m, diagonal, dtype=bool) if name == "tril" else \
            ~np.tri(n, m, diagonal - 1, dtype=bool)
        t._backend.xp.copyto(t._data, 0, casting="unsafe", where=t._backend.xp.asarray(~keep))
    return apply_(op, t, write=write, diagonal=diagonal)


# -- unique and bincount --------------------------------------------------------------------------


@declare("unique", "Unique2Backward0", outputs=("values", "inverse", "counts"), method="unique",
         function="unique")
def _unique(xp, a, dim):
    values, inverse, counts = xp.unique(a, axis=dim, return_inverse=True, return_counts=True)
    if dim is None:
        inverse = inverse.reshape(a.shape)
    return values, inverse.astype(np.int64), counts.astype(np.int64)


@_unique.def_backward
def unique_backward(ctx, grad):
    raise NotImplementedError("the derivative for '_unique2' is not implemented.")


def unique(t, return_inverse=False, return_counts=False, dim=None, sorted=True):  # noqa: A002
    """torch.unique: sorted distinct values (or slices along ``dim``), inverse and counts
    (torch's Python ``unique`` passes its flags to ``_unique2`` or ``unique_dim`` by keyword:
    their parser's errors)."""
    bool(return_inverse), bool(return_counts)  # (torch's boolean_dispatch reads them first)
    flags = (("bool sorted", sorted), ("bool return_inverse", return_inverse),
             ("bool return_counts", return_counts))
    if dim is None:
        check_keywords("_unique2", *flags)
    else:
        check_keywords("unique_dim", ("int64_t dim", dim, 2), *flags)
    d = None if dim is None else S.wrap_dim(dim, t._data.ndim)
    values, inverse, counts = apply(_unique, t, dim=d)
    extra = [x for x, wanted in ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return tuple([values, *extra]) if extra else values


def _check_bincount(t, weights=None, minlength=0):
    """torch's checks, in its order (an empty 1-d input skips those of values and weights)."""
    a = t._data
    if a.dtype.kind not in "iu":
        raise NotImplementedError(f'"bincount_cpu" not implemented for '
                                  f"'{_BY_NP[a.dtype].scalar_name}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if a.ndim == 1 and a.size == 0:
        return
    if a.ndim != 1 or int(a.min()) < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and weights._data.shape != a.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")


@declare("bincount", None, ("self", "weights"), check=_check_bincount, method="bincount",
         function="bincount")
def bincount_op(xp, a, w, minlength=0):
    if a.size == 0:  # (int64 zeros, weights or not, as torch's)
        return xp.zeros(minlength, dtype=np.int64)
    counts = xp.bincount(a, w, minlength)
    return counts.astype(np.int64 if w is None else
                         np.float32 if w.dtype == np.float32 else np.float64)

