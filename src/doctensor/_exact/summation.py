"""Sums in the orders torch's CPU kernels add: left to right, ``vec::reduce_all``'s lanes and
shuffle tree (Note [softmax kernel]), and nll_loss's cascade (Note [nll_loss cascade sum])."""

import numpy as np

from .capability import vector_bytes

__all__ = ["sum_left_to_right", "reduce_all", "cascade_sum"]


def reduce_all(e):
    """vec::reduce_all(+) over the last axis (see Note [softmax kernel])."""
    lanes = vector_bytes() // e.itemsize
    n = e.shape[-1]
    if n < lanes:
        return sum_left_to_right(e, -1)
    whole = n - n % lanes
    e = np.moveaxis(e, -1, 0)  # the lanes first: each add one long loop, not one per row
    acc = e[:lanes].copy()
    for d in range(lanes, whole, lanes):
        acc += e[d:d + lanes]
    acc[:n - whole] += e[whole:]
    if e.dtype != np.float32:  # only float has a shuffle tree (VecReduceAllSIMD)
        return sum_left_to_right(acc, 0)
    while lanes > 1:
        lanes //= 2
        acc = acc[:lanes] + acc[lanes:2 * lanes]
    return acc[0]


def sum_left_to_right(e, axis):
    """The sum along ``axis`` in ``e``'s dtype, strictly left to right (add.accumulate's
    order; NumPy's sum is pairwise)."""
    return np.add.accumulate(e, axis=axis).take(-1, axis=axis)


# Note [nll_loss cascade sum]
# torch's CPU nll_loss (LossNLL.cpp, nll_loss_out_frame) sums the picked losses of a batch
# into 8 partial sums: row b goes into level 0, and after row b, while the next 4 bits of b
# are zero (b % 16 == 0, then b % 256 == 0, ...), level j is added into level j+1 and
# cleared.  Ignored rows are skipped, flush included.  The result is
# 0 + level0 + level1 + ... + level7, left to right.  Each level, from level 0 up, receives a
# sequence of (b, value) and hands the next level the sums of its runs.

def cascade_sum(values, rows):
    """Sum of ``values`` (the batch rows ``rows``) as Note [nll_loss cascade sum] does it."""
    levels = []
    for j in range(7):
        if len(values) <= 1:  # a lone value sums to itself wherever it sits among zeros
            break
        flush = rows % (16 ** (j + 1)) == 0
        run = np.cumsum(flush) - flush  # the run each value belongs to
        closed = int(flush.sum())
        width = int(np.bincount(run).max()) if len(run) else 0
        table = np.zeros((closed + 1, width), values.dtype)
        table[run, np.arange(len(run)) - np.searchsorted(run, run)] = values
        sums = _sum_columns(table)
        levels.append(sums[closed])  # the open run stays at this level
        values, rows = sums[:closed], rows[flush]
    levels.append(_sum_columns(values[None])[0])
    return _sum_columns(np.array([levels], values.dtype))[0]


def _sum_columns(table):
    """Row sums of a 2-d array, each ``0 + t[0] + t[1] + ...`` left to right, then ``+ 0``
    (the leading 0 only matters to a row of zeros: it makes -0. +0.)."""
    if not table.shape[1]:
        return np.zeros(len(table), table.dtype)
    return sum_left_to_right(table, 1) + table.dtype.type(0)
