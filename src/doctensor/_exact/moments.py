"""torch's CPU ``var`` and ``std`` of a whole tensor (Note [variance of a whole tensor])."""

import numpy as np

from .cascade_sum import GRAIN_SIZE, calls, iteration_view, num_threads, torch_sum

__all__ = ["var_all"]

# Note [variance of a whole tensor]
# When the result is one number, torch 2.13's CPU var/std of a float32 or float64 tensor
# (std_var_all_cpu in ReduceOps.cpp) is two passes in double:
#
#   mean = x.mean()                          the float mean (Note [torch's CPU sum]), as double
#   s    = sum of (double(x) - mean) ** 2    in the order a TensorIterator walks x
#   var  = s / max(0, N - correction)        std = sqrt(var); then rounded to x's dtype
#
# The sum of squares runs left to right, in at::parallel_reduce's chunks when N > 32768 (the
# flat range cut into get_num_threads() equal parts): each 2-d block of the walk is summed
# from 0, the blocks' sums added into their chunk's sum, the chunks' sums added in order:
#
#   chunk 0: 0 + (0 + d0 + d1 + ...) + (0 + block 2) ...    chunk 1: ...
#   s = 0 + chunk 0 + chunk 1 + ...


def var_all(a, correction, take_sqrt):
    """var (``take_sqrt``: std) of every element of the float32/float64 array ``a``."""
    view = iteration_view(a)
    flat = view.T.ravel().astype(np.float64)
    squares = (flat - _mean_as_torch(a)) ** 2
    n = flat.size
    parts = min(num_threads(), -(-n // GRAIN_SIZE)) if n > GRAIN_SIZE else 1
    chunk = -(-n // parts) if n else 0
    total = 0.0
    for t in range(parts):
        part = 0.0
        for start, length in calls(view.shape, t * chunk, min(n, (t + 1) * chunk)):
            part += float(np.add.accumulate(squares[start:start + length])[-1])
        total += part
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.float64(total) / np.float64(max(0.0, n - correction))
        return (np.sqrt(var) if take_sqrt else var).astype(a.dtype)


def _mean_as_torch(a):
    """``x.mean().item()`` as a double: the float mean of torch's order."""
    total = torch_sum(a, tuple(range(a.ndim))).reshape(())
    return float(total / a.dtype.type(a.size))
