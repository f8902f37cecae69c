"""Indexing: ``t[idx]`` (basic indexing makes views, advanced indexing copies) and
``t[idx] = value`` (a view's ``copy_``/``fill_``, or ``index_put_``)."""

import numpy as np

from . import _registry as R
from ._registry import declare, needs_grad, record, wrap_result
from .views import make_view, select, slice_, unsqueeze

__all__ = ["getitem", "setitem"]


def _is_advanced(i):
    return isinstance(i, (R.Tensor, list, np.ndarray, bool)) or (
        isinstance(i, tuple))


def _expand_ellipsis(idx, ndim):
    consumed = sum(1 for i in idx if i is not None and i is not Ellipsis)
    if sum(1 for i in idx if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    out = []
    for i in idx:
        if i is Ellipsis:
            out.extend([slice(None)] * (ndim - consumed))
        else:
            out.append(i)
    return out


def basic_view(t, idx, single=False):
    """Apply ints, slices, None and Ellipsis one by one, as torch's applySlicing does.

    In a tuple index a slice spanning its whole dim is skipped; a lone slice (``t[:]``)
    always makes a ``SliceBackward0`` view.
    """
    idx = _expand_ellipsis(idx, t._data.ndim)
    result = t
    dim = 0
    for i in idx:
        if i is None:
            result = make_view(result, unsqueeze, {"dim": dim})
            dim += 1
        elif isinstance(i, slice):
            size = result._data.shape[dim]
            start, stop, step = i.start, i.stop, 1 if i.step is None else i.step
            if step <= 0:
                raise ValueError("step must be greater than zero")
            if single or not (start in (None, 0) and (stop is None or stop >= size)
                              and step == 1):
                result = make_view(result, slice_, {"dim": dim, "start": start, "end": stop,
                                                    "step": step})
            dim += 1
        else:
            index = int(i)
            size = result._data.shape[dim]
            if not -size <= index < size:
                raise IndexError(f"index {index} is out of bounds for dimension {dim} with size "
                                 f"{size}")
            result = make_view(result, select, {"dim": dim, "index": index})
    if result is t:
        from .views import alias_view
        result = make_view(t, alias_view, {})
    return result


def _to_numpy_index(i, t):
    if isinstance(i, R.Tensor):
        if i._data.dtype == np.bool_ or i._data.dtype == np.uint8:
            return i._data.astype(bool, copy=False)
        if not np.issubdtype(i._data.dtype, np.integer):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return i._data
    if isinstance(i, list):
        return t._backend.xp.asarray(i)
    return i


def _np_index(t, idx):
    return tuple(_to_numpy_index(i, t) for i in idx)


@declare("index", "IndexBackward0", ("self",))
def _index(xp, a, indices):
    return a[indices]


@_index.def_backward
def _(ctx, grad):
    xp = grad._backend.xp
    zeros = wrap_result(xp.zeros(ctx.input_meta[0][0], dtype=grad._data.dtype), grad)
    return (index_put(zeros, ctx.indices, grad, accumulate=True),)


def getitem(t, idx):
    single = isinstance(idx, slice)
    if not isinstance(idx, tuple):
        idx = (idx,)
    if any(_is_advanced(i) for i in idx):
        np_idx = _np_index(t, idx)
        try:
            out = _index.forward(t._backend.xp, t._data, np_idx)
        except IndexError as e:
            raise IndexError(_torch_index_error(e, t)) from None
        result = wrap_result(t._backend.xp.array(out, copy=True), t)
        if needs_grad((t,)):
            record(_index, (t,), (result,), {"indices": np_idx})
        return result
    if t._data.ndim == 0 and any(i is not None and i is not Ellipsis for i in idx):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    return basic_view(t, idx, single)


def _torch_index_error(e, t):
    msg = str(e)
    if "out of bounds" in msg:
        import re
        m = re.search(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", msg)
        if m:
            return f"index {m.group(1)} is out of bounds for dimension {m.group(2)} with size " \
                   f"{m.group(3)}"
    return msg


@declare("index_put", "IndexPutBackward0", ("self", "values"))
def _index_put(xp, a, values, indices, accumulate):
    out = a.copy()
    if accumulate:
        xp.add.at(out, indices, values)
    else:
        out[indices] = values
    return out


@_index_put.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    gs = None
    if n[0]:
        gs = grad if ctx.accumulate else index_put(grad, ctx.indices, 0.0)
    gv = getitem(grad, _wrap_idx(ctx.indices, grad)) if n[1] else None
    return gs, gv


def _wrap_idx(indices, like):
    return tuple(wrap_result(i, like) if hasattr(i, "dtype") and not np.isscalar(i) else i
                 for i in indices)


def index_put(t, indices, values, accumulate=False):
    """Out of place ``index_put`` (the backward of advanced indexing uses it)."""
    values_arr = values._data if isinstance(values, R.Tensor) else values
    out = _index_put.forward(t._backend.xp, t._data, values_arr, indices, accumulate)
    result = wrap_result(out, t)
    if needs_grad((t, values)):
        record(_index_put, (t, values), (result,), {"indices": indices,
                                                    "accumulate": accumulate})
    return result


def setitem(t, idx, value):
    """``t[idx] = value``: bumps ``t``'s version once; history goes through CopySlices."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    if any(_is_advanced(i) for i in idx):
        return _index_put_inplace(t, idx, value)
    view = basic_view(t, idx, len(idx) == 1 and isinstance(idx[0], slice))
    if isinstance(value, R.Tensor):
        view.copy_(value)
    else:
        view.fill_(value)


def _index_put_inplace(t, idx, value):
    from .pointwise import check_inplace
    np_idx = _np_index(t, idx)
    grad = needs_grad((t, value))
    if grad:
        check_inplace(t)
    val = value._data if isinstance(value, R.Tensor) else value
    try:
        t._data[np_idx] = val
    except IndexError as e:
        raise IndexError(_torch_index_error(e, t)) from None
    t._bump_version()
    if grad:
        from .pointwise import rebase_history
        rebase_history(t, _index_put, (t, value), {"indices": np_idx, "accumulate": False})

