"""The positions torch's CPU selection kernels pick among equal elements: libstdc++'s
``std::sort`` (``mode``) and TH's quickselect (``kthvalue``), step by step (Note [the order
of ties])."""

__all__ = ["introsort", "quickselect"]

# Note [the order of ties]
# Among equal elements, torch's CPU kernels do not pick the first or the last: ``mode`` sorts
# (value, position) pairs by value alone with libstdc++'s ``std::sort`` (an introsort: median-
# of-three quicksort partitions down to runs of 16, a heapsort past a depth limit, then an
# insertion sort) and reports the position of the last pair of the longest run; ``kthvalue``
# partitions with the quickselect of TH (Sedgewick's median-of-three, NaN above everything).
# Both are emulated here, pair by pair, on each row (``introsort``, ``quickselect``):
# their comparisons, swaps and NaN handling are the kernels'.

def _insertion_sort(v, lo, hi, key):
    for i in range(lo + 1, hi):
        item = v[i]
        if key[item] < key[v[lo]]:
            v[lo + 1:i + 1] = v[lo:i]
            v[lo] = item
        else:
            _linear_insert(v, i, key)


def _linear_insert(v, i, key):
    """libstdc++'s __unguarded_linear_insert (the guard only stops a NaN-confused walk)."""
    item = v[i]
    while i > 0 and key[item] < key[v[i - 1]]:
        v[i] = v[i - 1]
        i -= 1
    v[i] = item


def _sift_down(v, lo, hole, n, item, key):
    """libstdc++'s __adjust_heap then __push_heap, on the heap v[lo:lo + n]."""
    top, child = hole, hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if key[v[lo + child]] < key[v[lo + child - 1]]:
            child -= 1
        v[lo + hole] = v[lo + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        v[lo + hole] = v[lo + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and key[v[lo + parent]] < key[item]:
        v[lo + hole] = v[lo + parent]
        hole = parent
        parent = (hole - 1) // 2
    v[lo + hole] = item


def _heap_sort(v, lo, hi, key):
    n = hi - lo
    for parent in range((n - 2) // 2, -1, -1):
        _sift_down(v, lo, parent, n, v[lo + parent], key)
    for end in range(n - 1, 0, -1):
        item = v[lo + end]
        v[lo + end] = v[lo]
        _sift_down(v, lo, 0, end, item, key)


def _median_to_first(v, result, a, b, c, key):
    ka, kb, kc = key[v[a]], key[v[b]], key[v[c]]
    if ka < kb:
        pick = b if kb < kc else c if ka < kc else a
    else:
        pick = a if ka < kc else c if kb < kc else b
    v[result], v[pick] = v[pick], v[result]


def _partition(v, lo, hi, key):
    mid = lo + (hi - lo) // 2
    _median_to_first(v, lo, lo + 1, mid, hi - 1, key)
    pivot = key[v[lo]]
    first, last = lo + 1, hi
    while True:
        while key[v[first]] < pivot:
            first += 1
        last -= 1
        while pivot < key[v[last]]:
            last -= 1
        if not first < last:
            return first
        v[first], v[last] = v[last], v[first]
        first += 1


def introsort(key):
    """The positions 0..n-1 ordered as libstdc++'s ``std::sort`` orders them by ``key``
    (Note [the order of ties])."""
    n = len(key)
    v = list(range(n))
    if n < 2:
        return v
    stack = [(0, n, 2 * (n.bit_length() - 1))]
    while stack:
        lo, hi, depth = stack.pop()
        while hi - lo > 16:
            if depth == 0:
                _heap_sort(v, lo, hi, key)
                break
            depth -= 1
            cut = _partition(v, lo, hi, key)
            stack.append((cut, hi, depth))
            hi = cut
    if n > 16:
        _insertion_sort(v, 0, 16, key)
        for i in range(16, n):
            _linear_insert(v, i, key)
    else:
        _insertion_sort(v, 0, n, key)
    return v


def _greater_or_nan(x, y):
    return (x != x and y == y) or x > y


def quickselect(key, k):
    """The position TH's quickselect leaves at ``k`` (Note [the order of ties])."""
    vals, pos = list(key), list(range(len(key)))

    def swap(i, j):
        vals[i], vals[j] = vals[j], vals[i]
        pos[i], pos[j] = pos[j], pos[i]

    lo, hi = 0, len(vals) - 1
    while hi > lo:
        if hi == lo + 1:
            if _greater_or_nan(vals[lo], vals[hi]):
                swap(lo, hi)
            break
        swap((lo + hi) >> 1, lo + 1)
        if _greater_or_nan(vals[lo + 1], vals[hi]):
            swap(lo + 1, hi)
        if _greater_or_nan(vals[lo], vals[hi]):
            swap(lo, hi)
        if _greater_or_nan(vals[lo + 1], vals[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, vals[lo]
        while True:
            i += 1
            while _greater_or_nan(pivot, vals[i]):
                i += 1
            j -= 1
            while _greater_or_nan(vals[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return pos[k]
