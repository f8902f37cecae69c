"""Sorting: ``sort``, ``argsort`` and ``topk``.

torch's CPU sort is stable whatever ``stable`` says (equal elements keep their order) and puts
NaN above every number: last ascending, first descending.  NumPy's stable argsort does the
same ascending; descending sorts the reversed array and reverses back (``_order``).
"""

import numpy as np

from .._strides import wrap_dim
from ._registry import declare, needs_grad, record, wrap_result
from .indexing import index_put
from .pointwise import torch_layout
from .reduction import return_type

__all__ = ["sort", "argsort", "topk", "SORT_TYPE", "TOPK_TYPE"]

SORT_TYPE, TOPK_TYPE = return_type("sort"), return_type("topk")


def _order(xp, a, dim, descending):
    """Indices that sort ``a`` along ``dim``, equal elements in their original order."""
    if not descending:
        return xp.argsort(a, axis=dim, kind="stable")
    # reversed, a stable ascending sort keeps equal elements last-first; reversing the result
    # gives descending order with equal elements first-first
    rev = xp.argsort(xp.flip(a, dim), axis=dim, kind="stable")
    return (a.shape[dim] - 1) - xp.flip(rev, dim)


def _along(xp, indices, dim):
    """The NumPy index that reads ``indices`` along ``dim`` (torch's gather/scatter index)."""
    n = indices.ndim
    idx = [xp.arange(size).reshape([-1 if k == d else 1 for k in range(n)])
           for d, size in enumerate(indices.shape)]
    idx[dim] = indices
    return tuple(idx)


def _scatter_back(ctx, grad):
    """zeros(input shape).scatter(dim, indices, grad): torch's value-selecting backward."""
    shape = ctx.input_meta[0][0]
    if not shape:
        return (grad,)
    xp = grad._backend.xp
    zeros = wrap_result(xp.zeros(shape, dtype=grad._data.dtype), grad)
    return (index_put(zeros, _along(xp, ctx.indices._data, ctx.dim), grad),)


@declare("sort", "SortBackward0")
def _sort(xp, a, dim, descending):
    order = _order(xp, a, dim, descending)
    return xp.take_along_axis(a, order, axis=dim), order


# sort(stable=...) is torch's other overload, with its own node name
_sort_stable = declare("sort", "SortBackward1")(_sort.forward)
_sort.def_backward(_scatter_back)
_sort_stable.def_backward(_scatter_back)


def sort(t, dim=-1, descending=False, stable=None):
    """(values, indices) sorted along ``dim``, laid out like ``t`` (torch's ``empty_like``)."""
    d = wrap_dim(dim, t._data.ndim)
    xp = t._backend.xp
    a = t._data.reshape(1) if t._data.ndim == 0 else t._data
    values, indices = _sort.forward(xp, a, d, descending)
    values, indices = values.reshape(t._data.shape), indices.reshape(t._data.shape)
    if values.ndim > 1 and values.size:
        values, indices = torch_layout(values, [t]), torch_layout(indices, [t])
    values_t = wrap_result(values, t)
    indices_t = wrap_result(indices.astype(np.int64, copy=False), t)
    if not values.size:  # empty_like keeps even an empty tensor's strides
        for out in (values_t, indices_t):
            strides = [s * out._data.itemsize for s in t.stride()]
            out._data = np.lib.stride_tricks.as_strided(out._data, strides=strides)
    if needs_grad((t,)):
        op = _sort if stable is None else _sort_stable
        record(op, (t,), (values_t,), {"dim": d, "indices": indices_t})
    return SORT_TYPE(values_t, indices_t)


def argsort(t, dim=-1, descending=False, stable=False):
    """The indices of ``sort``."""
    return sort(t, dim, descending, stable).indices


@declare("topk", "TopkBackward0")
def _topk(xp, a, k, dim, largest):
    order = xp.take(_order(xp, a, dim, largest), xp.arange(k), axis=dim)
    return xp.take_along_axis(a, order, axis=dim), order


_topk.def_backward(_scatter_back)


def topk(t, k, dim=-1, largest=True, sorted=True):
    """The ``k`` largest (or smallest) elements along ``dim`` and their indices, sorted.

    Equal elements come in their original order; torch's partial sort may order ties
    differently (its indices for tied values are not reproduced).
    """
    d = wrap_dim(dim, t._data.ndim)
    n = t._data.shape[d] if t._data.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    xp = t._backend.xp
    a = t._data.reshape(1) if t._data.ndim == 0 else t._data
    values, indices = _topk.forward(xp, a, k, d, largest)
    if t._data.ndim == 0 and k:
        values, indices = values.reshape(()), indices.reshape(())
    values_t = wrap_result(xp.ascontiguousarray(values), t)
    indices_t = wrap_result(xp.ascontiguousarray(indices.astype(np.int64, copy=False)), t)
    if needs_grad((t,)):
        record(_topk, (t,), (values_t,), {"dim": d, "indices": indices_t})
    return TOPK_TYPE(values_t, indices_t)
