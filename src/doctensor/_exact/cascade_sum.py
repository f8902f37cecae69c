"""torch's CPU ``sum``: the order in which ``cascade_sum`` (ATen's SumKernel.cpp) adds, driven
by a TensorIterator reduction, reproduced with NumPy passes (Note [torch's CPU sum]).

``torch_sum(a, dims)`` is the entry point; ``mean``, ``nansum``, the norms and the losses go
through it.  Everything here is NumPy only.
"""

import functools

import numpy as np

from .workers import in_parallel, torch_num_threads

__all__ = ["torch_sum", "torch_sum_all", "torch_prod", "reduced_runs", "same_layout",
           "iteration_view", "calls", "vector_bytes", "set_num_threads", "num_threads",
           "GRAIN_SIZE"]

# Note [torch's CPU sum]
# torch 2.13 sums floating tensors on the CPU with ``cascade_sum``, run by a TensorIterator:
#
# 1. The iteration.  The input's dims are sorted, reduced dims first, then by stride (the
#    output's strides decide among kept dims: the output is allocated contiguous); adjacent
#    dims that are one run of memory are merged.  Dim 0 of the result is the fastest.
# 2. Threads.  With at least GRAIN_SIZE (32768) elements and more than one thread:
#    a full reduction cuts the flat range into get_num_threads() equal chunks (each summed
#    into its own slot of a buffer, in the output's dtype, then the buffer is summed); a
#    reduction with several outputs splits its outermost kept dim of at least that many
#    columns into equal column ranges (rounded to 128 bytes when that dim is contiguous).
# 3. The 2-d loop.  Each piece is walked as (size0 x size1) blocks, dim 0 inner.  If dim 0 is
#    reduced, every column j is summed down dim 0 by one of four kernels and *added* to its
#    output (``out += value``; the output starts at 0):
#
#       contiguous rows        A: vectors of L lanes, row_sum over vectors, then
#                                 0 + tail elements + lane 0 + lane 1 + ... + lane L-1
#       contiguous columns     B: columns in groups of 4 vectors: cascade down the column;
#                                 the other columns: row_sum down the column
#       other, rows tighter    C: row_sum down each column
#       other                  D: columns in groups of 4: cascade; the rest: row_sum
#
#    row_sum splits a column four ways (element i goes to partial i % 4), cascades each,
#    adds the leftover elements to partial 0, then partial 0 + 1 + 2 + 3.
#    cascade sums blocks of 2**p elements (p = max(4, ceil(log2 n) / 4)) left to right and
#    carries them up three levels of accumulators, each flushed after 2**p of its inputs:
#
#       x0 .. x15 | x16 .. x31 | ...   -> block sums b0, b1, ...      (level 0)
#       b0 + ... + b15 | b16 + ...     -> run sums   c0, c1, ...      (level 1)
#       c0 + ... + c15 | ...           -> run sums   d0, d1, ...      (level 2)
#       d0 + d1 + ...                  ->            e                (level 3)
#       result = leftover elements + open level 1 + open level 2 + e
#
# L is the vector width: 16 float32 (8 float64) with AVX512, 8 (4) with AVX2.  float16 and
# bfloat16 add in float32: a contiguous row is read 2L at a time and folded to L lanes
# (lane i = x[i] + x[i + L]); ``out += value`` into a float16/bfloat16 output rounds the
# value to that dtype first, then the sum (c10's Half has only ``Half += Half``).  sum_out
# avoids that when dims 0 and 1 are both reduced (a float32 buffer); nansum does not.
#
# In NumPy.  Every sequential sum above is one ``np.add.reduce`` along an axis that is not
# NumPy's inner loop (see _in_order: NumPy adds pairwise only along its inner loop), so the
# additions happen in torch's order, a whole column of lanes or outputs per NumPy step.
# Column ranges cut for threads are summed at once where the cut moves no group of columns
# (_sum_split_free); the pieces of a full reduction are summed on worker threads when large.
#
# What that costs.  Down columns (kernel B) NumPy's inner loop runs along whole rows: a
# sum(dim=0) costs about a NumPy column sum.  Along contiguous rows (kernel A, and the blocks
# of a full sum) the order leaves NumPy no longer run of memory than 4 vectors (32 float32)
# with one output each, so the inner loop is that short: about 5 ns per 4 vectors in einsum
# (every other formulation tried is slower): 1.65 ms of a 10M float32 sum and 165 us of a
# 1000x1000 sum(dim=1), where torch's whole sums take 1 ms and 50 us.

GRAIN_SIZE = 32768
PARALLEL_MIN = 1 << 20  # (elements: smaller pieces of work gain nothing from threads)
_REDUCED = (np.dtype(np.float16), np.dtype("bfloat16"))

_threads = [None]


def set_num_threads(n):
    """Follow ``doctensor.set_num_threads`` (torch's intra-op thread count)."""
    _threads[0] = int(n)


def num_threads():
    return _threads[0] or torch_num_threads()


def vector_bytes():
    """The width of the ``Vectorized`` that ``sum`` runs with: 32 bytes on every x86-64 build.
    SumKernel.cpp registers no AVX512 kernel, so an AVX512 machine runs the AVX2 one (checked:
    torch's sums are the same bits under ATEN_CPU_CAPABILITY=avx2 and avx512), and the
    default build's generic ``Vectorized`` is 32 bytes too: no capability setting changes a
    sum."""
    return 32


def _acc_dtype(dtype):
    return np.dtype(np.float32) if dtype in _REDUCED else dtype


# -- the sums along axis 0 (the batch is the trailing axes) --------------------------------------

def _seq(x, zero=True):
    """0 + x[0] + x[1] + ... along axis 0, left to right.  ``zero=False`` where the sum is
    added to an accumulator that is never -0: there the leading 0 changes nothing (it only
    turns a sum of -0s into +0), and a single term is returned as it is, a view."""
    n, batch = x.shape[0], x.shape[1:]
    if n == 1:
        return x[0] + x.dtype.type(0) if zero else x[0]
    if n == 0:
        return np.zeros(batch, x.dtype)
    out = _in_order(x, 0, zero)
    if out is not None:
        return out
    if n and x.size == n:  # (one output: a running sum is in order)
        return np.add.accumulate(x.reshape(n), axis=0)[-1].reshape(batch) + x.dtype.type(0)
    if n <= 32:
        out = np.zeros(batch, x.dtype)
        for k in range(n):
            out += x[k]
        return out
    return _in_order(np.ascontiguousarray(x.reshape(n, -1)), 0, zero).reshape(batch)


def _in_order(y, axis, zero=False):
    """y[0] + y[1] + ... along ``axis``, left to right, in one NumPy call (``zero``: 0 + y[0]
    + ...); None where NumPy would not add in that order (see _order_plan)."""
    plan = _order_plan(y.shape, y.strides, axis)
    if plan is None:
        return None
    order, back, subscripts = plan
    y = y.transpose(order)
    if subscripts:
        out = np.einsum(subscripts, y)  # (einsum starts from 0)
    else:
        out = np.add.reduce(y, axis=0)  # (from the first term)
        if zero:
            out += y.dtype.type(0)
    return out.transpose(back)


@functools.lru_cache(maxsize=4096)
def _order_plan(shape, strides, axis):
    """How _in_order sums along ``axis`` an array of this shape and strides: the axes' order
    (the reduced one first, the kept ones as they lie in memory, so that the output is laid out
    alike and NumPy merges them into long inner loops), the order that puts the output's axes
    back, and einsum's subscripts (None: ``np.add.reduce``); None where no NumPy call adds in
    order.  NumPy sums pairwise (or with several accumulators) only along its inner loop, which
    runs along the axis of smallest stride: when that is a kept axis whose (positive) stride is
    smaller than every other's, the reduced one's included, each output adds its terms one
    after the other.  ``einsum`` (buffered: long inner loops where the rows are short) is
    quicker where the inner loop is short."""
    inner = -1
    for k, n in enumerate(shape):
        if n > 1 and k != axis and (inner < 0 or strides[k] < strides[inner]):
            inner = k
    if inner < 0 or strides[inner] <= 0:
        return None
    if any(strides[k] <= strides[inner] for k, n in enumerate(shape)
           if k != inner and (n > 1 or k == axis)):
        return None
    kept = sorted((k for k in range(len(shape)) if k != axis and k != inner),
                  key=lambda k: -strides[k]) + [inner]
    back = tuple(sorted(range(len(kept)), key=kept.__getitem__))
    short = shape[inner] < _SHORT_ROW and len(shape) <= len(_AXES)
    return (axis, *kept), back, _EINSUM[len(shape)] if short else None


_AXES = "abcdefghijklmnopqrstuvwxyz"
_EINSUM = {n: f"{_AXES[:n]}->{_AXES[1:n]}" for n in range(1, len(_AXES) + 1)}
_SHORT_ROW = 128  # (elements: rows this short cost NumPy's reduce a call each)


def _seq_blocks(x, width):
    """The left-to-right sums of consecutive runs of ``width`` along axis 0 (full runs only)."""
    runs = len(x) // width
    if not runs:
        return np.zeros((0,) + x.shape[1:], x.dtype)
    y = x[:runs * width].reshape((runs, width) + x.shape[1:])
    out = _in_order(y, 1)
    if out is not None:
        return out
    if int(np.prod(x.shape[1:])) > 1:  # (a C-contiguous copy is in order)
        return _in_order(np.ascontiguousarray(y), 1)
    out = np.zeros((runs,) + x.shape[1:], x.dtype)
    for k in range(width):
        out += y[:, k]
    return out


def _cascade(x):
    """multi_row_sum along axis 0: blocks of 2**p, three levels of carried sums."""
    n = x.shape[0]
    power = max(4, ((n - 1).bit_length() if n > 2 else 1) // 4)
    step = 1 << power
    full = n // step
    acc = _seq(x[full * step:])  # (0 + ...: never -0)
    if full:
        sums = _seq_blocks(x, step)  # level 0's
        for _ in (1, 2):  # levels 1 and 2 hand on the sums of runs of ``step``; level 3 keeps all
            if len(sums) < step:
                break
            upper = _seq_blocks(sums, step)
            if len(sums) > len(upper) * step:  # the level's open run
                acc += _seq(sums[len(upper) * step:], zero=False)
            sums = upper
        acc += _seq(sums, zero=False)
    return acc


def _row_sum(x):
    """row_sum along axis 0: four interleaved cascades, leftovers into the first."""
    n = x.shape[0]
    q = n // 4
    parts = _cascade(x[:4 * q].reshape((q, 4) + x.shape[1:]))
    for k in range(4 * q, n):
        parts[0] += x[k]
    return _seq(parts, zero=False)  # (part 0 is never -0)


# -- one 2-d block of the iteration ---------------------------------------------------------------

def _sum_plan(size0, size1, in_strides, dtype):
    """The kernel cascade_sum runs on a (size0 x size1) block (Note [torch's CPU sum]): "A"
    (contiguous rows), "C" (row_sum everywhere), or "B"/"D" with the width of its groups of
    cascaded columns; and the lane count."""
    lanes = vector_bytes() // _acc_dtype(dtype).itemsize
    vec_t = lanes * 2 if dtype in _REDUCED else lanes  # Vectorized<scalar_t>::size()
    if in_strides[0] == dtype.itemsize and size0 >= vec_t:
        return "A", 0, lanes
    if in_strides[1] == dtype.itemsize and size1 >= vec_t:
        return "B", 4 * lanes, lanes
    if in_strides[0] < in_strides[1]:
        return "C", 0, lanes
    return "D", 4, lanes


def _sum_split_free(size0, sizes1, in_strides, dtype):
    """Whether summing consecutive column ranges of ``sizes1`` columns one by one gives what
    summing them at once does: the same kernel everywhere, groups never cut."""
    plans = [_sum_plan(size0, n, in_strides, dtype)[:2] for n in sizes1 + [sum(sizes1)]]
    letter, group = plans[0]
    return all(p == (letter, group) for p in plans) and (
        not group or all(n % group == 0 for n in sizes1[:-1]))


def _columns(r, in_strides):
    """The value each column j of ``r`` (shape (size0, size1, ...): reduced axis first) adds to
    its output, by the kernel cascade_sum picks for these strides."""
    size0, size1 = r.shape[:2]
    letter, group, lanes = _sum_plan(size0, size1, in_strides, r.dtype)
    acc = _acc_dtype(r.dtype)
    if letter == "A":
        return _inner_vectorized(r, lanes, lanes * 2 if r.dtype in _REDUCED else lanes, acc)
    grouped = size1 // group * group if group else 0
    x = r.astype(acc, copy=False)
    if grouped == size1:
        return _cascade(x)
    if not grouped:
        return _row_sum(x)
    return np.concatenate([_cascade(x[:, :grouped]), _row_sum(x[:, grouped:])], axis=0)


def _inner_vectorized(r, lanes, vec_t, acc):
    n = r.shape[0] // vec_t
    vecs = r[:n * vec_t].reshape((n, vec_t) + r.shape[1:])
    if vec_t != lanes:  # float16 / bfloat16: 2L values folded into L float lanes
        vecs = vecs[:, :lanes].astype(acc) + vecs[:, lanes:].astype(acc)
    partials = _row_sum(vecs)
    return _seq(_stacked([r[n * vec_t:], partials], acc))  # 0 + tail + lane 0 + lane 1 + ...


def _stacked(arrays, dtype):
    """The arrays joined along axis 0 into a new C-contiguous array of ``dtype`` (where
    ``np.concatenate`` would keep its inputs' layout)."""
    out = np.empty((sum(len(a) for a in arrays),) + arrays[0].shape[1:], dtype)
    return np.concatenate(arrays, out=out)


def _into_output(values, out_dtype):
    """``out += value`` for each of ``values`` (axis 0) in turn, the output starting at 0.
    A float16/bfloat16 output adds the float value rounded to its own dtype (Half has only
    ``Half += Half``), the sum then rounded again."""
    if out_dtype not in _REDUCED:
        return _seq(values).astype(out_dtype, copy=False)
    out = np.zeros(values.shape[1:], out_dtype)
    for v in values.astype(out_dtype):
        out = out + v
    return out


class _Kind:
    """A reduction the iteration drives: its identity, the factors each column of a 2-d block
    applies to its output (axis 0, in order), how an output folds its factors in, and whether
    cutting a block's columns into ranges (``split_free(size0, sizes1, in_strides, dtype)``)
    leaves every column's factors as they were."""

    def __init__(self, identity, factors, fold, split_free):
        self.identity, self.factors, self.fold = identity, factors, fold
        self.split_free = split_free


def _sum_factors(r, in_strides, out_stride1):
    return _columns(r, in_strides)[None]


_SUM = _Kind(0, _sum_factors, _into_output, _sum_split_free)


# Note [torch's CPU prod]
# prod runs binary_kernel_reduce_vec through the same iteration and threads as sum (identity
# 1), with simpler kernels, all in the tensor's dtype (L lanes of 32 bytes):
#
#   contiguous rows      rows of 4 vectors multiplied lane-wise, from the first row on; then
#                        (v0 * v1) * (v2 * v3), lane 0 * lane 1 * ... ; then out *= that, and
#                        out *= each leftover element
#   contiguous columns   (output contiguous too) columns in groups of 4 vectors: the column's
#                        product, then out *= it; the other columns: out *= each element
#   other                out *= each element, in order

def _seq_prod(x):
    """1 * x[0] * x[1] * ... along axis 0, left to right."""
    if len(x) <= 32:
        out = np.ones(x.shape[1:], x.dtype)
        for v in x:
            out *= v
        return out
    return np.multiply.accumulate(x, axis=0)[-1]


def _prod_factors(r, in_strides, out_stride1):
    size0, size1 = r.shape[:2]
    item, lanes = r.itemsize, vector_bytes() // r.itemsize
    if in_strides[0] == item:
        rows = size0 // (4 * lanes)
        tail = r[rows * 4 * lanes:]
        if not rows:
            return tail
        acc = _seq_prod(r[:rows * 4 * lanes].reshape((rows, 4, lanes) + r.shape[1:]))
        acc = (acc[0] * acc[1]) * (acc[2] * acc[3])
        return np.concatenate([_seq_prod(acc)[None], tail])
    if out_stride1 == item and in_strides[1] == item:
        grouped = size1 // (4 * lanes) * (4 * lanes)
        out = np.ones_like(r)  # (times 1 changes nothing)
        out[0, :grouped] = _seq_prod(r[:, :grouped])
        out[:, grouped:] = r[:, grouped:]
        return out
    return r


# (the column ranges of a cut are whole groups of 4 vectors but the last: prod's kernels never
# see a cut)
_PROD = _Kind(1, _prod_factors, lambda values, dtype: _seq_prod(values.astype(dtype)),
              lambda size0, sizes1, in_strides, dtype: True)


# -- the iteration -------------------------------------------------------------------------------

def _output_strides(shape, dims, keepdim):
    """The strides (elements) torch's reduction output has inside the iteration."""
    kept = [1 if d in dims else n for d, n in enumerate(shape)]
    sizes = kept if keepdim else [n for d, n in enumerate(shape) if d not in dims]
    strides, step = [], 1
    for n in reversed(sizes):
        strides.insert(0, step)
        step *= max(n, 1)
    if not keepdim:
        for d in dims:  # unsqueeze
            strides.insert(d, sizes[d] * strides[d] if d < len(sizes) else 1)
            sizes.insert(d, 1)
    return [0 if kept[d] == 1 and shape[d] != 1 else s for d, s in enumerate(strides)]


def _reorder(shape, ostr, istr):
    """TensorIterator's reorder_dimensions for a reduction (``ostr``: the output's strides,
    None for an iteration over the input alone): the permutation, fastest first."""
    operands = (istr,) if ostr is None else (ostr, istr)

    def should_swap(d0, d1):
        for k, strides in enumerate(operands):
            s0, s1 = strides[d0], strides[d1]
            if k == 0 and ostr is not None and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(len(shape) - 1, -1, -1))
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def _coalesce(shape, strides):
    """TensorIterator's coalesce_dimensions over several operands' strides."""
    shape, strides = list(shape), [list(s) for s in strides]
    prev = 0
    for d in range(1, len(shape)):
        if shape[prev] == 1 or shape[d] == 1 or all(
                shape[prev] * s[prev] == s[d] for s in strides):
            if shape[prev] == 1:
                for s in strides:
                    s[prev] = s[d]
            shape[prev] *= shape[d]
        else:
            prev += 1
            if prev != d:
                for s in strides:
                    s[prev] = s[d]
                shape[prev] = shape[d]
    n = prev + 1 if shape else 0
    return shape[:n], [s[:n] for s in strides]


class _Iteration:
    """The coalesced iteration: shape (dim 0 fastest), input view ``x`` with those axes, and
    the output's strides (elements; 0 on reduced dims)."""

    def __init__(self, x, ostr):
        self.x, self.ostr = x, ostr
        self.shape = list(x.shape)
        self.istr = list(x.strides)
        self.reduced = [s == 0 and n > 1 for s, n in zip(ostr, self.shape)]

    def narrow(self, dim, begin, end):
        index = [slice(None)] * len(self.shape)
        index[dim] = slice(begin, end)
        return _Iteration(self.x[tuple(index)], self.ostr)


def torch_sum(a, dims, keepdim=False, nan=False):
    """The sum of the float array ``a`` over ``dims`` (sorted, non-negative) as torch's CPU
    computes it, in ``a``'s dtype (float16/bfloat16 accumulate in float32), with the reduced
    dims kept as size 1.  ``nan``: nansum (NaN read as 0)."""
    if nan and a.size:
        a = _without_nan(a)
    return _reduce(a, dims, keepdim, _SUM, acc_buffer=not nan)


def torch_sum_all(a):
    """``torch_sum`` of the float array ``a`` over all its dims, as a 0-d result."""
    if _is_short(a):
        return _short_total(a.reshape(-1))
    return _reduce(a, tuple(range(a.ndim)), False, _SUM, acc_buffer=True).reshape(())


def torch_prod(a, dims, keepdim=False):
    """The product of the float array ``a`` over ``dims`` as torch's CPU computes it (Note
    [torch's CPU prod]), with the reduced dims kept as size 1."""
    return _reduce(a, dims, keepdim, _PROD)


@functools.lru_cache(maxsize=1024)
def _iteration(shape, strides, itemsize, dims, keepdim):
    """The coalesced iteration of a reduction over ``dims`` of an array of this layout: its
    shape and the output's and input's strides (dim 0 fastest), and its kept dims."""
    ostr = _output_strides(shape, dims, keepdim)
    perm = _reorder(shape, [s * itemsize for s in ostr], list(strides))
    shape, (ostr, istr) = _coalesce([shape[p] for p in perm],
                                    [[ostr[p] for p in perm], [strides[p] for p in perm]])
    kept = tuple(d for d, (s, n) in enumerate(zip(ostr, shape)) if s or n == 1)
    return tuple(shape), tuple(ostr), tuple(istr), kept


def _strided(a, shape, strides):
    """A view of ``a``'s memory with this shape and these strides (``as_strided``, quicker
    where ``a`` is C-contiguous)."""
    if a.flags.c_contiguous:
        return np.ndarray(shape, a.dtype, a, strides=strides)
    return np.lib.stride_tricks.as_strided(a, shape, strides)


def _reduce(a, dims, keepdim, kind, acc_buffer=False):
    out_dtype = a.dtype
    if kind is _SUM and len(dims) == a.ndim and _is_short(a):
        return _short_total(a.reshape(-1)).reshape((1,) * a.ndim)
    oshape = tuple(1 if d in dims else n for d, n in enumerate(a.shape))
    if a.size == 0:
        return np.full(oshape, kind.identity, out_dtype)
    if a.size == 1:
        return kind.fold(a.reshape((1,) + oshape), out_dtype)
    shape, ostr, istr, kept = _iteration(a.shape, a.strides, a.itemsize, tuple(dims), keepdim)
    it = _Iteration(_strided(a, shape, istr), ostr)
    if acc_buffer and out_dtype in _REDUCED and len(shape) >= 2 and it.reduced[0] \
            and it.reduced[1]:
        # sum_out's "acc buffer": two reduced dims in a row are summed in float32
        wide = same_layout(a, lambda v: v.astype(np.float32))
        return torch_sum(wide, dims, keepdim).astype(out_dtype)
    out = np.full(oshape, kind.identity, out_dtype)
    view = np.ndarray([shape[d] for d in kept], out_dtype, out,
                      strides=[ostr[d] * out.itemsize for d in kept])
    threads = num_threads()
    if a.size < GRAIN_SIZE or threads == 1:
        view[...] = _run_full(it, kind)
    elif out.size == 1:
        view[...] = _two_pass(it, threads, kind)
    else:
        _by_columns(it, threads, view, kept, kind)
    return out


# the flat contiguous sums short enough that kernel A's cascades hold one level (each of the
# four interleaved parts has fewer than 16 vectors): a few NumPy calls instead of the iteration
_SHORT = 4 * 16 * 4


def _is_short(a):
    """Whether all of ``a`` sums by ``_short_total``."""
    return (vector_bytes() // a.itemsize <= a.size < _SHORT and a.flags.c_contiguous
            and a.dtype not in _REDUCED)


def _short_total(x):
    """Kernel A (Note [torch's CPU sum]) on one contiguous float32/float64 run of at least one
    vector and shorter than ``_SHORT`` elements: four interleaved sequential vector sums, the
    leftover vectors into the first, the parts added, then 0 + the tail elements + each lane,
    left to right.  (The sign of a lane that sums to zero cannot show in that last sum, which
    starts at +0: so the lanes may start from their first term, not from 0; and that sum may
    start from its first term too if a final + 0 turns a -0 into 0.)"""
    lanes = vector_bytes() // x.itemsize
    n = len(x) // lanes  # (at least one vector: a shorter run is kernel C's row_sum)
    vecs = x[:n * lanes].reshape(n, lanes)
    q = n // 4
    if q:
        acc = np.add.reduce(vecs[:4 * q].reshape(q, 4, lanes), axis=0)
        total = acc[0]
        for v in vecs[4 * q:]:
            total += v
        total += acc[1]
        total += acc[2]
        total += acc[3]
    elif n == 1:  # (the parts are 0: the leftover vectors are the sum)
        total = vecs[0]
    else:
        total = np.add.reduce(vecs, axis=0)
    tail = x[n * lanes:]
    terms = np.concatenate((tail, total)) if len(tail) else total
    return np.add.accumulate(terms)[-1] + x.dtype.type(0)


def reduced_runs(a, dims):
    """``a`` as torch's reduction walks it: an array (outputs..., reduced) whose last axis
    lists each output's reduced elements in the iteration's order (its reduced dims, the
    fastest first), and whether that walk is one contiguous run of a single dim."""
    ostr = _output_strides(a.shape, dims, False)
    perm = _reorder(a.shape, [s * a.itemsize for s in ostr], list(a.strides))
    shape, (ostr, istr) = _coalesce([a.shape[p] for p in perm],
                                    [[ostr[p] for p in perm], [a.strides[p] for p in perm]])
    x = np.lib.stride_tricks.as_strided(a, shape, istr)
    reduced = [d for d in range(len(shape)) if ostr[d] == 0 and shape[d] > 1]
    last_dim = reduced == [0] and istr[0] == a.itemsize
    kept = [d for d in range(len(shape)) if d not in reduced]
    x = x.transpose(kept[::-1] + reduced[::-1])
    return x.reshape(x.shape[:len(kept)] + (-1,)), last_dim


def iteration_view(a):
    """``a`` as a TensorIterator over it alone walks it: a view whose axes are the coalesced
    iteration dims, the fastest first (its flat order is ``view.T.ravel()``)."""
    perm = _reorder(a.shape, None, list(a.strides))
    shape, (strides,) = _coalesce([a.shape[p] for p in perm], [[a.strides[p] for p in perm]])
    return np.lib.stride_tricks.as_strided(a, shape, strides)


def calls(shape, begin, end):
    """The 2-d blocks ``serial_for_each`` hands its loop for the flat range [begin, end) of an
    iteration of ``shape`` (fastest first): (start, length) ranges of the flat order."""
    shape = list(shape) + [1] * (2 - len(shape))
    offset = begin
    while offset < end:
        first, second = offset % shape[0], offset // shape[0] % shape[1]
        step = min(shape[0] - first, end - offset)
        if step == shape[0]:
            step *= min(shape[1] - second, (end - offset) // shape[0])
        yield offset, step
        offset += step


def _without_nan(a):
    """``a`` with NaN read as 0, in ``a``'s own strides (nansum masks NaN as it loads)."""
    item = a.itemsize
    span = sum((n - 1) * s for n, s in zip(a.shape, a.strides)) // item + 1
    flat = np.lib.stride_tricks.as_strided(a, (span,), (item,))
    clean = np.where(np.isnan(flat), flat.dtype.type(0), flat)
    return np.lib.stride_tricks.as_strided(clean, a.shape, a.strides)


def same_layout(a, fn):
    """``fn`` applied to ``a``, the result laid out with ``a``'s strides when ``a`` is dense
    (as torch's ``.to()`` keeps them), else contiguous."""
    order = np.argsort(a.strides, kind="stable")[::-1]
    t = a.transpose(order)
    dense = all(s == t.itemsize * int(np.prod(t.shape[i + 1:])) for i, s in enumerate(t.strides)
                if t.shape[i] > 1)
    if not dense:
        return fn(np.ascontiguousarray(a))
    out = fn(t)
    return (out if out.flags.c_contiguous else out.copy()).transpose(np.argsort(order))


def _run_full(it, kind):
    """The outputs of a whole (sub-)iteration, over its kept dims (in iteration order)."""
    x = it.x
    if not any(it.reduced):
        return kind.fold(x[None], x.dtype)
    reduced_dims = it.reduced
    if x.ndim == 1:
        x, reduced_dims = x[:, None], reduced_dims + [True]
    out_stride1 = it.ostr[1] * x.itemsize if len(it.ostr) > 1 else 0
    values = kind.factors(x, (x.strides[0], x.strides[1] if it.x.ndim > 1 else 0),
                          out_stride1)  # axes: factor, dim 1, dim 2, ...
    # the blocks run with dim k-1 slowest, each column's factors in turn: fold each output's
    # values in that order
    reduced = [d for d in range(x.ndim - 1, 0, -1) if reduced_dims[d]]
    kept = [d for d in range(1, x.ndim) if not reduced_dims[d]]
    values = values.transpose(reduced + [0] + kept)
    values = values.reshape((-1,) + values.shape[len(reduced) + 1:])
    return kind.fold(values, x.dtype)


def _two_pass(it, threads, kind):
    """A full reduction on several threads: chunks of the flat range into a buffer."""
    n = int(np.prod(it.shape))
    parts = min(threads, -(-n // GRAIN_SIZE))
    chunk = -(-n // parts)
    buffer = np.full((threads,), kind.identity, it.x.dtype)

    def work(t):
        begin, end = t * chunk, min(n, (t + 1) * chunk)
        if begin < end:
            with np.errstate(all="ignore"):  # (inf and NaN are results, in any thread)
                values = np.concatenate([f.T.ravel() for f in _blocks(it, begin, end, kind)])
                buffer[t] = kind.fold(values, it.x.dtype)
    _share(work, parts, n)  # (the chunks are independent: NumPy's threads, torch's order)
    return _run_full(_Iteration(buffer, [0]), kind)


def _blocks(it, begin, end, kind):
    """The factors of each 2-d block of the flat range [begin, end) (DimCounter's steps)."""
    x = it.x if it.x.ndim > 1 else it.x[:, None]
    shape = x.shape
    in_strides = (x.strides[0], x.strides[1] if it.x.ndim > 1 else 0)
    offset = begin
    while offset < end:
        index, rest = [], offset
        for n in shape:
            index.append(rest % n)
            rest //= n
        step0 = min(shape[0] - index[0], end - offset)
        step1 = 1
        if step0 == shape[0]:
            step1 = min(shape[1] - index[1], (end - offset) // shape[0])
        where = (slice(index[0], index[0] + step0), slice(index[1], index[1] + step1))
        yield kind.factors(x[where + tuple(index[2:])], in_strides, 0)
        offset += step0 * step1


def _by_columns(it, threads, view, kept, kind):
    """Several outputs on several threads: a kept dim (find_split_dim's) cut into column ranges.
    Where the cut changes no kernel's grouping, the ranges are summed at once."""
    dim = best = len(it.shape) - 1  # the outermost kept dim with a column per thread
    while dim >= 0 and not it.reduced[dim] and it.shape[dim] < threads:
        best = dim if it.shape[dim] > it.shape[best] else best
        dim -= 1
    dim = best if dim < 0 or it.reduced[dim] else dim
    cols = it.shape[dim]
    parts = min(threads, cols)
    chunk = -(-cols // parts)
    multiple = 128 // it.x.itemsize if it.istr[dim] == it.x.itemsize else 1
    ranges = []
    for t in range(parts):
        begin, end = t * chunk, min(cols, (t + 1) * chunk)
        begin -= begin % multiple
        if end != cols:
            end -= end % multiple
        if begin < end:
            ranges.append((begin, end))
    # (a cut of dim 2 or above leaves every 2-d block whole)
    if dim > 1 or kind.split_free(it.shape[0], [e - b for b, e in ranges], it.istr[:2],
                                  it.x.dtype):
        view[...] = _run_full(it, kind)
        return
    where = kept.index(dim)

    def work(t):
        begin, end = ranges[t]
        index = [slice(None)] * len(kept)
        index[where] = slice(begin, end)
        with np.errstate(all="ignore"):  # (inf and NaN are results, in any thread)
            view[tuple(index)] = _run_full(it.narrow(dim, begin, end), kind)
    _share(work, len(ranges), view.size * it.shape[0])


def _share(work, parts, size):
    """``work(k)`` for each part: on the worker threads when the parts are large enough to
    gain from them, else one after the other (the parts are independent)."""
    if size >= PARALLEL_MIN:
        in_parallel(work, parts)
    else:
        for k in range(parts):
            work(k)
