"""Sorting: ``sort``, ``argsort`` and ``topk``.

torch's CPU sort is stable whatever ``stable`` says (equal elements keep their order) and puts
NaN above every number: last ascending, first descending.  NumPy's stable argsort does the
same ascending; descending sorts the reversed array and reverses back (``_order``).
"""

import numpy as np

from .._strides import as_int, preserve_strides, wrap_dim
from ._dispatch import apply
from ._layout import element_strides, layout_as
from ._registry import declare
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


def _scatter_back(ctx, grads):
    """zeros(input shape).scatter(dim, indices, grad): torch's value-selecting backward."""
    grad = grads[0]
    shape = ctx.input_meta[0][0]
    # torch's steps, a 0-d input's too: at::zeros (an empty tensor zeroed in place), then
    # scatter_: version 2
    return (grad.new_empty(shape).zero_().scatter_(ctx.dim, ctx.indices, grad),)


def _sorted(xp, a, dim, descending):
    """(values, int64 indices) sorted along ``dim``, laid out like ``a`` (torch's
    ``empty_like``)."""
    b = a.reshape(1) if a.ndim == 0 else a
    order = _order(xp, b, dim, descending)
    values = xp.take_along_axis(b, order, axis=dim).reshape(a.shape)
    indices = order.reshape(a.shape).astype(np.int64, copy=False)
    if not a.size:  # empty_like keeps even an empty tensor's strides
        window = xp.lib.stride_tricks.as_strided
        strides = element_strides(a)
        return tuple(window(x, strides=[s * x.itemsize for s in strides])
                     for x in (values, indices))
    strides = preserve_strides(a.shape, element_strides(a))  # (torch's sort meta)
    return layout_as(xp, values, strides), layout_as(xp, indices, strides)


# sort(stable=...) is torch's other overload, with its own node name
_sort = declare("sort", "SortBackward0", outputs=("values", "indices"), layout="strided",
                saves={"indices": "self"}, method="sort", function="sort")(_sorted)
_sort_stable = declare("sort", "SortBackward1", outputs=("values", "indices"),
                       layout="strided", saves={"indices": "self"}, method=("sort", "argsort"),
                       function=("sort", "argsort"))(_sorted)
_sort.def_backward(_scatter_back)
_sort_stable.def_backward(_scatter_back)


def sort(t, dim=-1, descending=False, stable=None):
    """(values, indices) sorted along ``dim``."""
    op = _sort if stable is None else _sort_stable
    if descending.__class__ is not bool:  # (the wrapper of _argparser.checked words it)
        raise TypeError(f"argument 'descending' must be bool, not {type(descending).__name__}")
    return SORT_TYPE(*apply(op, t, dim=wrap_dim(dim, t._data.ndim), descending=descending))


def argsort(t, dim=-1, descending=False, stable=False):
    """The indices of ``sort``."""
    return sort(t, dim, descending, stable).indices


def _check_topk(self, k, dim, largest):
    n = self._data.shape[dim] if self._data.ndim else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")


@declare("topk", "TopkBackward0", outputs=("values", "indices"), check=_check_topk,
         saves={"indices": "self"}, method="topk", function="topk")
def _topk(xp, a, k, dim, largest):
    if a.ndim == 0:  # (the element itself, k = 0 too: torch's 0-d result holds it)
        return a.copy(), xp.zeros((), np.int64)
    order = xp.take(_order(xp, a, dim, largest), xp.arange(k), axis=dim)
    return xp.take_along_axis(a, order, axis=dim), order.astype(np.int64, copy=False)


_topk.def_backward(_scatter_back)


def topk(t, k, dim=-1, largest=True, sorted=True):
    """The ``k`` largest (or smallest) elements along ``dim`` and their indices, sorted.

    Equal elements come in their original order; torch's partial sort may order ties
    differently (its indices for tied values are not reproduced).
    """
    if k.__class__ is not int:
        k = as_int(k, "k")
    return TOPK_TYPE(*apply(_topk, t, k=k, dim=wrap_dim(dim, t._data.ndim), largest=largest))
