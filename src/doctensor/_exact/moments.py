"""torch's CPU ``var`` and ``std``: of a whole tensor (Note [variance of a whole tensor]) and
along dims (Note [Welford's variance])."""

import math

import numpy as np

from .cascade_sum import GRAIN_SIZE, calls, iteration_view, num_threads, reduced_runs, torch_sum

__all__ = ["var_all", "welford", "welford_var", "welford_reproduced"]

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


# Note [Welford's variance]
# Along dims (and always for var_mean/std_mean), torch 2.13's CPU var and std run WelfordOps
# in double through binary_kernel_reduce: each output takes its elements one by one, in the
# order the reduction walks them, from mean = m2 = 0:
#
#     delta = x - mean;  mean = mean + delta / k;  m2 = m2 + delta * (x - mean)   (k = 1, 2 ...)
#
# (no fused multiply-add), then var = m2 / max(0, k - correction), std = sqrt(var), and mean
# as computed, each rounded to the input's dtype.  A single output of GRAIN_SIZE elements or
# more, with several threads, is cut into get_num_threads() equal chunks (at::parallel_for),
# each chunk's (mean, m2, k) found so, and the chunks combined in order:
#
#     delta = mean_b - mean_a;  k = k_a + k_b;  f = k_b / k
#     mean = mean_a + delta * f;  m2 = m2_a + m2_b + delta * delta * k_a * f
#
# With several outputs the threads share out the outputs instead: each is one sequence.
# Python's floats are IEEE doubles, so a few outputs go through a plain Python loop (about 60
# ns a step); many short ones take each step for all outputs at once in NumPy.

WELFORD_MAX = 4096  # (elements an output: NumPy steps; beyond, only the Python loop's budget)
_PYTHON_STEPS = 1 << 21  # (elements in all: about 0.1 s of Python steps)
_PYTHON_OUTPUTS = 64  # (outputs: with more, NumPy's steps over all of them at once are faster)


def welford_reproduced(shape, dims):
    """Whether ``welford`` reproduces torch's steps for a reduction of an array of ``shape``
    over ``dims`` (all when None) within its time budget."""
    dims = range(len(shape)) if dims is None else dims
    n = math.prod(shape[d] for d in dims)
    return n <= WELFORD_MAX or math.prod(shape) <= _PYTHON_STEPS


def welford(a, dims):
    """(mean, m2, count) of Note [Welford's variance], in double, for each output of a
    reduction of ``a`` over ``dims`` (all when None), the reduced dims dropped."""
    dims = tuple(range(a.ndim)) if dims is None else dims
    runs, _ = reduced_runs(a, dims)
    shape, n = runs.shape[:-1], runs.shape[-1]
    if math.prod(shape) <= _PYTHON_OUTPUTS:
        rows = runs.reshape(-1, n).astype(np.float64)
        found = [_python_steps(row.tolist(), len(rows) == 1) for row in rows]
        return (np.array([f[0] for f in found]).reshape(shape),
                np.array([f[1] for f in found]).reshape(shape), n)
    x = np.ascontiguousarray(np.moveaxis(runs.astype(np.float64), -1, 0))
    mean, m2 = np.zeros(shape), np.zeros(shape)
    delta, step = np.empty(shape), np.empty(shape)
    for k in range(n):
        np.subtract(x[k], mean, out=delta)
        np.divide(delta, k + 1, out=step)
        np.add(mean, step, out=mean)
        np.subtract(x[k], mean, out=step)
        np.multiply(delta, step, out=step)
        np.add(m2, step, out=m2)
    return mean, m2, n


def _python_steps(values, alone):
    """(mean, m2) of one output's ``values`` (Python floats); ``alone``: the only output, cut
    among threads when long enough."""
    n = len(values)
    parts = min(num_threads(), -(-n // GRAIN_SIZE)) if alone and n >= GRAIN_SIZE else 1
    chunk = -(-n // parts)
    mean = m2 = count = 0.0
    for begin in range(0, n, chunk):
        b_mean, b_m2, b_count = _steps(values[begin:begin + chunk])
        if not count:
            mean, m2, count = b_mean, b_m2, b_count
            continue
        delta = b_mean - mean
        total = count + b_count
        f = b_count / total
        mean, m2, count = mean + delta * f, m2 + b_m2 + delta * delta * count * f, total
    return mean, m2


def _steps(values):
    mean = m2 = 0.0
    k = 0
    for x in values:
        k += 1
        delta = x - mean
        mean = mean + delta / k
        m2 = m2 + delta * (x - mean)
    return mean, m2, float(k)


def welford_var(a, dims, correction, take_sqrt):
    """var (``take_sqrt``: std) and mean of Note [Welford's variance], in ``a``'s dtype."""
    mean, m2, n = welford(a, dims)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / np.float64(n - correction if n > correction else 0)
        out = np.sqrt(var) if take_sqrt else var
    return out.astype(a.dtype), mean.astype(a.dtype)
