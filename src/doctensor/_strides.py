"""Pure shape / stride / broadcast arithmetic, with torch's error messages."""

import math
import operator

__all__ = ["contiguous_strides", "broadcast_shapes", "view_strides", "infer_size", "wrap_dim",
           "as_int", "expand_strides", "is_contiguous", "is_non_overlapping_and_dense",
           "infer_dense_strides", "preserve_strides", "memory_format", "contiguous_format",
           "preserve_format", "channels_last", "channels_last_3d", "is_channels_last"]


def contiguous_strides(shape):
    """Row-major strides (in elements) for ``shape``; size-0/1 dims keep the running product."""
    strides = []
    acc = 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


def is_contiguous(shape, strides):
    """torch's rule: strides of dims of size 1 do not matter; empty tensors are contiguous."""
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size == 0:
            return True
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def broadcast_shapes(a, b):
    """The broadcast of two shapes, or torch's RuntimeError naming the first mismatch."""
    if a == b:
        return a
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = [0] * n
    for i in range(n - 1, -1, -1):  # torch's infer_size reports the last mismatch first
        x, y = a[i], b[i]
        if x == y or y == 1:
            out[i] = x
        elif x == 1:
            out[i] = y
        else:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                               f"at non-singleton dimension {i}")
    return tuple(out)


def infer_size(shape, numel):
    """Resolve one ``-1`` in a requested view/reshape shape."""
    shape = list(shape)
    infer = None
    known = 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                               f"[{', '.join(map(str, shape))}]")
        else:
            known *= s
    if infer is not None and known != 0 and numel % known == 0:
        shape[infer] = numel // known
    elif known != numel or infer is not None:
        raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size "
                           f"{numel}")
    return tuple(shape)


# Note [view strides]
# A view keeps the storage, so the new shape must be expressible with strides over the old
# layout.  Walk the old dims from the right in "chunks" of dims that are laid out
# contiguously with each other (stride[i] == stride[i+1] * size[i+1]); each chunk can be
# split or merged freely, but new dims may not straddle two chunks.  This is ATen's
# computeStride; reshape() copies exactly when it returns None.

def view_strides(old_shape, old_strides, new_shape):
    """Strides for viewing ``old_shape``/``old_strides`` as ``new_shape``, or None."""
    numel = math.prod(old_shape)
    if numel == 0:
        if tuple(old_shape) == tuple(new_shape):
            return tuple(old_strides)
        return contiguous_strides(new_shape)
    if not old_shape:
        return (1,) * len(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1] if old_strides else 1
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and
                             old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_strides[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)


# Note [output layout]
# torch's TensorIterator gives a pointwise result the memory layout of its inputs: dims are
# sorted fastest-first by the inputs' strides (the first input that tells two dims apart
# decides; broadcast dims, stride 0, say nothing; equal strides put the smaller dim first),
# and the output is dense in that order.  Before that, its fast setup: when every operand
# has the same shape (a Python number is a 0-d operand, so never with one), the result is
# contiguous if all inputs are, channels-last if all are (4-d), and has the inputs' very
# strides, size-1 dims included, if they are dense and share them.  Size-1 dims make the
# difference from NumPy's C order even for contiguous inputs: a dim of size 1 keeps the
# input's stride in the sort.  So ops call this only when some input is not C-contiguous or
# the result has a dim of size 1 (the rare, slow path).

def iter_output_strides(shape, operand_strides):
    """Element strides torch gives the result of a pointwise op over ``shape``.

    ``operand_strides`` holds each operand's strides, as ``(shape, strides)`` pairs in operand
    order, a Python number as ``((), ())``; 0-d operands say nothing about layout.
    """
    if all(s == shape for s, _ in operand_strides):  # TensorIterator's fast setup
        strides = [st for _, st in operand_strides]
        if all(is_contiguous(shape, st) for st in strides):
            return contiguous_strides(shape)
        if len(shape) == 4 and all(is_channels_last(shape, st) for st in strides):
            return _channels_last_strides(shape)
        if (all(st == strides[-1] for st in strides)
                and is_non_overlapping_and_dense(shape, strides[-1])):
            return tuple(strides[-1])
    n = len(shape)
    aligned = []
    for oshape, ostrides in operand_strides:
        if not oshape:
            continue
        lead = n - len(oshape)
        st = [0] * lead + [0 if (sz == 1 and shape[lead + i] != 1) else s
                           for i, (sz, s) in enumerate(zip(oshape, ostrides))]
        aligned.append(st)

    def should_swap(d0, d1):
        for st in aligned:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    return _dense_strides_in_order(shape, should_swap, raw_sizes=True)


def is_channels_last(shape, strides):
    """torch's channels-last contiguity of a 4-d tensor (dims of size 1 do not matter)."""
    expected = 1
    for d in (1, 3, 2, 0):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _channels_last_strides(shape):
    """The strides of a fresh channels-last 4-d tensor (N, C, H, W)."""
    c, h, w = (max(n, 1) for n in shape[1:])
    return (h * w * c, 1, w * c, c)


def _dense_strides_in_order(shape, should_swap, raw_sizes=False):
    """Dense strides with the dims sorted fastest-first by ``should_swap(d0, d1)`` (1: d0 goes
    after d1, -1: it stays, 0: no opinion): ATen's insertion sort, stable as ATen's is.
    Size-0 dims count as 1 (the tensor is empty anyway), except with ``raw_sizes`` in an order
    other than C's (TensorIterator's compatible strides: 0 after a dim of size 0)."""
    n = len(shape)
    perm = list(range(n - 1, -1, -1))  # fastest first
    for i in range(1, n):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    raw = raw_sizes and perm != list(range(n - 1, -1, -1))
    strides = [0] * n
    acc = 1
    for d in perm:
        strides[d] = acc
        acc *= shape[d] if raw else max(shape[d], 1)
    return tuple(strides)


def dense_order(shape, strides):
    """Dims from slowest to fastest when ``strides`` lay ``shape`` out densely without overlap
    (some permutation of a contiguous layout), else None."""
    order = sorted(range(len(shape)), key=lambda d: (-strides[d], -shape[d]))
    expected = 1
    for d in reversed(order):
        if shape[d] == 1:
            continue
        if strides[d] != expected:
            return None
        expected *= shape[d]
    return order


class memory_format:
    """torch.memory_format: how a copy lays out its elements (``torch.contiguous_format``,
    ``torch.preserve_format``, ...)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


# Note [preserve_format]
# clone(), .to(), the *_like factories and empty_like-based copies keep their input's memory
# layout (torch's memory_format=torch.preserve_format, the default):
#
#   * an input that is non-overlapping and dense (some permutation of a contiguous layout,
#     size-0/1 dims ignored) gives its strides *exactly*, odd strides of size-1 dims included;
#   * any other input (expanded, sliced with steps, ...) gives dense strides ordered like its
#     own: ATen's infer_dense_strides, which sorts dims as TensorIterator does (Note [output
#     layout]: stride-0 dims say nothing, equal strides put the smaller dim first).
#
#     arange(3.).view(3, 1).expand(3, 4).t()   size (4, 3) stride (0, 1)  -> clone (3, 1)
#     arange(24.).view(2, 3, 4)[:, ::2]         size (2, 2, 4) stride (12, 8, 1) -> (8, 4, 1)

def is_non_overlapping_and_dense(shape, strides):
    """torch's ``is_non_overlapping_and_dense``: the elements fill ``numel`` slots exactly
    (empty and contiguous tensors count as dense whatever their strides)."""
    if is_contiguous(shape, strides):
        return True
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    expected = 1
    for d in sorted((d for d in range(len(shape)) if shape[d] >= 2), key=lambda d: strides[d]):
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def infer_dense_strides(shape, strides):
    """Dense strides ordered like ``strides`` (ATen's ``infer_dense_strides``)."""
    n = len(shape)
    if n < 2:
        return (1,) * n

    def should_swap(d0, d1):  # 1: d0 goes after d1; 0: no opinion (stride-0 dims never move)
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if shape[d0] > shape[d1] else 0

    return _dense_strides_in_order(shape, should_swap)


def preserve_strides(shape, strides):
    """The strides ``memory_format=torch.preserve_format`` gives a copy (Note
    [preserve_format])."""
    if is_non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    return infer_dense_strides(shape, strides)


def wrap_dim(dim, ndim):
    """Wrap a possibly negative dim; a 0-d tensor accepts dims -1 and 0 as torch does."""
    if dim.__class__ is not int:
        dim = as_int(dim)
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


def as_int(value, name="dim"):
    """An argument ``name`` given as no Python int: what its ``__index__`` gives (a NumPy
    integer, an integer tensor of one element); a TypeError for what torch's parser takes for
    no int (a bool, a float, a tensor of floats), which the wrapper of ``_argparser.checked``
    words as torch does (``triu(True)``).  Called where ``value.__class__ is not int``."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"argument '{name}' must be int, not {type(value).__name__}")


def expand_strides(shape, strides, sizes):
    """Strides of ``expand(sizes)``: new and broadcast dims get stride 0."""
    if len(sizes) < len(shape):
        raise RuntimeError(f"expand(torch.FloatTensor{{[{', '.join(map(str, shape))}]}}, "
                           f"size=[{', '.join(map(str, sizes))}]): the number of sizes provided "
                           f"({len(sizes)}) must be greater or equal to the number of dimensions "
                           f"in the tensor ({len(shape)})")
    lead = len(sizes) - len(shape)
    out_shape, out_strides = [], []
    for i in range(len(sizes) - 1, -1, -1):  # from the last dim, as torch reports mismatches
        size = sizes[i]
        if i < lead:
            if size < 0:
                raise RuntimeError(f"The expanded size of the tensor ({size}) isn't allowed in a "
                                   "leading, non-existing dimension " + str(i))
            out_shape.append(size)
            out_strides.append(0)
            continue
        old, stride = shape[i - lead], strides[i - lead]
        if size == -1:
            size = old
        if old == size:
            out_strides.append(stride)
        elif old == 1:
            out_strides.append(0)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size ({old}) "
                f"at non-singleton dimension {i}.  Target sizes: [{', '.join(map(str, sizes))}]."
                f"  Tensor sizes: [{', '.join(map(str, shape))}]")
        out_shape.append(size)
    return tuple(out_shape[::-1]), tuple(out_strides[::-1])
