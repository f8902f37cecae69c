"""View ops: new sizes, strides and offset over the same storage and version counter.

Each view op is a ``geometry(shape, strides, offset, **attrs)`` declared with its grad_fn name
(``view_op``); the dispatch turns the geometry into a tensor that shares storage, version
counter and ``_base`` with its input, and autograd tracks it (``autograd/views.py``).
Backward formulas are themselves views or reshapes, or the ``*_backward`` ops below, which
write a view's gradient into zeros of the input's shape.
"""

import gc
import math
import numbers
import operator
import warnings

from .. import _strides as S
from .._dtypes import int64
from .._tensor_base import TensorBase
from ..autograd.graph import type_string
from ._dispatch import apply, apply_
from ._registry import declare, view_op

__all__ = ["view", "reshape", "expand", "expand_to", "squeeze", "unsqueeze", "narrow", "flatten",
           "unflatten", "movedim", "transpose", "permute", "reverse_dims", "matrix_transpose",
           "select", "slice_", "diagonal", "as_strided", "check_as_strided", "as_strided_attrs",
           "alias_view",
           "unsafe_view", "resize_", "narrow_start"]


def _size_args(size):
    """``f(2, 3)`` or ``f((2, 3))``: the sizes as one tuple."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _reshaped_back(ctx, grad):
    return (grad.reshape(ctx.input_meta[0][0]),)


@view_op("view", "ViewBackward0", method="view")
def view(shape, strides, offset, size):
    new = S.infer_size(size, math.prod(shape))
    st = S.view_strides(shape, strides, new)
    if st is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")
    return new, st, offset


@view_op("_reshape_alias", "ReshapeAliasBackward0", method="reshape", function="reshape")
def reshape_alias(shape, strides, offset, size):
    new = S.infer_size(size, math.prod(shape))
    return new, S.view_strides(shape, strides, new), offset


@view_op("_unsafe_view", "UnsafeViewBackward0", tracks_base=False, method="reshape",
         function="reshape")
def unsafe_view(shape, strides, offset, size):
    return S.infer_size(size, math.prod(shape)), S.contiguous_strides(size), offset


for _op in (view, reshape_alias, unsafe_view):
    _op.def_backward(_reshaped_back)


def reshape(t, *shape):
    """A view when strides allow (Note [view strides]), else a contiguous copy."""
    shape = S.infer_size(_size_args(shape), t._data.size)
    if t.is_contiguous():
        return apply(view, t, size=shape)
    if S.view_strides(t._data.shape, t.stride(), shape) is not None:
        return apply(reshape_alias, t, size=shape)
    return apply(unsafe_view, t.clone(memory_format="contiguous"), size=shape)


def flatten(t, start_dim=0, end_dim=-1):
    """The dims ``start_dim`` to ``end_dim`` as one (a ``reshape``)."""
    n = t._data.ndim
    if n == 0:
        return reshape(t, 1)
    s, e = S.wrap_dim(start_dim, n), S.wrap_dim(end_dim, n)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return t
    shape = t._data.shape
    return reshape(t, *shape[:s], math.prod(shape[s:e + 1]), *shape[e + 1:])


def unflatten(t, dim, sizes):
    """Dim ``dim`` as several of ``sizes`` (a ``view``)."""
    d = S.wrap_dim(dim, t._data.ndim)
    shape = list(t._data.shape)
    if -1 not in sizes and math.prod(sizes) != shape[d]:
        raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't "
                           f"multiply up to the size of dim {dim} ({shape[d]}) in the input "
                           "tensor")
    sizes = list(S.infer_size(sizes, shape[d]))
    return apply(view, t, size=tuple(shape[:d] + sizes + shape[d + 1:]))


def _transposed(shape, strides, offset, dim0, dim1):
    n = len(shape)
    d0, d1 = S.wrap_dim(dim0, n), S.wrap_dim(dim1, n)
    shape, strides = list(shape), list(strides)
    if n:
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
    return shape, strides, offset


def _transposed_back(ctx, grad):
    return (grad.transpose(ctx.dim0, ctx.dim1),)


transpose = view_op("transpose", "TransposeBackward0", method=("transpose", "swapaxes",
                                                               "swapdims"),
                    function=("transpose", "swapaxes", "swapdims"))(_transposed)
# transpose_ changes a tensor's own geometry in place (a metadata-only in-place op)
transpose_inplace = view_op("transpose_", "TransposeBackward1",
                            inplace=("transpose_", "swapaxes_", "swapdims_"))(_transposed)
transpose.def_backward(_transposed_back)
transpose_inplace.def_backward(_transposed_back)


def _reversed(name):
    """t / t_: the dims of a matrix (or less) reversed."""
    def geometry(shape, strides, offset):
        if len(shape) > 2:
            raise RuntimeError(f"{name}() expects a tensor with <= 2 dimensions, but self is "
                               f"{len(shape)}D")
        return shape[::-1], strides[::-1], offset
    return geometry


def _t_back(ctx, grad):
    return (grad.t(),)


t = view_op("t", "TBackward0", method="t", function="t")(_reversed("t"))
t_inplace = view_op("t_", "TBackward1", inplace="t_")(_reversed("t_"))
t.def_backward(_t_back)
t_inplace.def_backward(_t_back)


@view_op("permute", "PermuteBackward0", method="permute", function="permute")
def permute(shape, strides, offset, dims):
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {n} is not equal to len(dims) = {len(dims)}")
    dims = [S.wrap_dim(d, n) for d in dims]
    if len(set(dims)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return [shape[d] for d in dims], [strides[d] for d in dims], offset


@permute.def_backward
def permute_backward(ctx, grad):
    dims = [S.wrap_dim(d, grad.dim()) for d in ctx.dims]
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return (grad.permute(*inverse),)


def movedim(t, source, destination):
    """The dims ``source`` moved to the places ``destination`` (the others keep their order):
    a permute, as in torch."""
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({source} "
                           f"dims) should contain the same number of dims as destination "
                           f"({destination} dims)")
    ndim = t._data.ndim
    n = max(ndim, 1)
    src = [S.wrap_dim(d, n) for d in source]
    dst = [S.wrap_dim(d, n) for d in destination]
    for name, dims, given in (("source", src, source), ("destination", dst, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
    if ndim == 0:  # dims 0 and -1 of a 0-d tensor: an alias of it
        return apply(alias_view, t)
    order, rest = [None] * ndim, iter(d for d in range(ndim) if d not in src)
    for s, d in zip(src, dst):
        order[d] = s
    return apply(permute, t, dims=tuple(d if d is not None else next(rest) for d in order))


def reverse_dims(t):
    """``x.T``: all dims reversed (torch warns for other than 2 or 0 dims)."""
    n = t._data.ndim
    if n != 2 and n != 0:
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` "
            "to reverse the dimensions of a tensor. (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)",
            UserWarning, stacklevel=3)
    return apply(permute, t, dims=tuple(range(n - 1, -1, -1)))


_WARNED_MT_0D = []


def matrix_transpose(t):
    """``x.mT``: the last two dims swapped (a 0-d tensor: itself, with torch's warning, once
    per process as torch's TORCH_WARN_ONCE)."""
    if t._data.ndim == 0:
        if not _WARNED_MT_0D:
            _WARNED_MT_0D.append(True)
            warnings.warn("Tensor.mT is deprecated on 0-D tensors. This function is the "
                          "identity in these cases. (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4373.)",
                          UserWarning, stacklevel=3)
        return t
    if t._data.ndim < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {t._data.ndim}-D tensor.")
    return apply(transpose, t, dim0=-2, dim1=-1)


def _check_expand(self, size):
    if len(size) < self._data.ndim:
        raise RuntimeError(
            f"expand({type_string(self)}{{[{', '.join(map(str, self._data.shape))}]}}, "
            f"size=[{', '.join(map(str, size))}]): the number of sizes provided "
            f"({len(size)}) must be greater or equal to the number of dimensions in the "
            f"tensor ({self._data.ndim})")


@view_op("expand", "ExpandBackward0", method="expand")
def expand(shape, strides, offset, size):
    if not shape:  # a 0-d tensor (sum's backward, every time): all strides 0
        return size, (0,) * len(size), offset
    new, new_strides = S.expand_strides(shape, strides, size)
    new_strides = list(new_strides)
    for i in range(len(new) - len(shape) - 1, -1, -1):
        if new[i] == 1:  # a new size-1 dim: torch strides it as if it were contiguous there
            new_strides[i] = new[i + 1] * new_strides[i + 1]
    return new, new_strides, offset


def expand_to(t, size):
    """``expand``, with torch's check of the number of sizes first."""
    _check_expand(t, size)
    return apply(expand, t, size=size)


@expand.def_backward
def expand_backward(ctx, grad):
    return (grad.sum_to_size(ctx.input_meta[0][0]),)


def _squeezed(dims):
    """The geometry of squeezing the size-1 dims among ``dims(ndim)``; its ``dropped(shape,
    **attrs)`` lists them."""
    def dropped(shape, **attrs):
        drop = dims(len(shape), **attrs)
        return [i for i in range(len(shape)) if i in drop and shape[i] == 1]

    def geometry(shape, strides, offset, **attrs):
        gone = dropped(shape, **attrs)
        keep = [i for i in range(len(shape)) if i not in gone]
        return [shape[i] for i in keep], [strides[i] for i in keep], offset
    geometry.dropped = dropped
    return geometry


def _unsqueezed_back(dropped):
    """torch's squeeze backward (``unsqueeze_to``): the gradient unsqueezed at each squeezed
    dim in turn, so its strides there are unsqueeze's (an expanded gradient keeps them)."""
    def backward(ctx, grad):
        for d in dropped(ctx.input_meta[0][0], **ctx.attrs):
            grad = grad.unsqueeze(d)
        return (grad,)
    return backward


_ALL = _squeezed(lambda n: range(n))
_ONE = _squeezed(lambda n, dim: (S.wrap_dim(dim, n),))
_SOME = _squeezed(lambda n, dims: {S.wrap_dim(d, n) for d in dims})
# out of place, and in place (squeeze_, a change of the tensor's own geometry), with torch's
# node names; matmul uses squeeze_(0) on a 1-D @ 2-D product
squeeze_all = view_op("squeeze", "SqueezeBackward0", method="squeeze", function="squeeze")(_ALL)
squeeze_dim = view_op("squeeze", "SqueezeBackward1", method="squeeze", function="squeeze")(_ONE)
squeeze_dims = view_op("squeeze", "SqueezeBackward2", method="squeeze",
                       function="squeeze")(_SOME)
squeeze_inplace_all = view_op("squeeze_", "SqueezeBackward3", inplace="squeeze_")(_ALL)
squeeze_inplace_dim = view_op("squeeze_", "SqueezeBackward4", inplace="squeeze_")(_ONE)
squeeze_inplace_dims = view_op("squeeze_", "SqueezeBackward5", inplace="squeeze_")(_SOME)
for _op in (squeeze_all, squeeze_dim, squeeze_dims, squeeze_inplace_all, squeeze_inplace_dim,
            squeeze_inplace_dims):
    _op.def_backward(_unsqueezed_back(_op.forward.dropped))


def squeeze(t, dim=None, in_place=False):
    """``squeeze`` / ``squeeze_``: all size-1 dims, one, or several (torch's overloads)."""
    if dim is None:
        return apply_(squeeze_inplace_all, t) if in_place else apply(squeeze_all, t)
    if isinstance(dim, (tuple, list)):
        op = squeeze_inplace_dims if in_place else squeeze_dims
        return (apply_ if in_place else apply)(op, t, dims=tuple(dim))
    op = squeeze_inplace_dim if in_place else squeeze_dim
    return (apply_ if in_place else apply)(op, t, dim=dim)


def _unsqueezed(shape, strides, offset, dim):
    n = len(shape)
    d = S.wrap_dim(dim, n + 1)
    new_stride = shape[d] * strides[d] if d < n else 1
    return (list(shape[:d]) + [1] + list(shape[d:]),
            list(strides[:d]) + [new_stride] + list(strides[d:]), offset)


def _unsqueezed_back(ctx, grad):
    return (grad.squeeze(ctx.dim),)


unsqueeze = view_op("unsqueeze", "UnsqueezeBackward0", method="unsqueeze",
                    function="unsqueeze")(_unsqueezed)
unsqueeze_inplace = view_op("unsqueeze_", "UnsqueezeBackward1",
                            inplace="unsqueeze_")(_unsqueezed)
unsqueeze.def_backward(_unsqueezed_back)
unsqueeze_inplace.def_backward(_unsqueezed_back)


@view_op("select", "SelectBackward0", method="select", function="select")
def select(shape, strides, offset, dim, index):
    n = len(shape)
    if n == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = S.wrap_dim(dim, n)
    size = shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{', '.join(map(str, shape))}] at dimension {d}")
    index %= size
    return (list(shape[:d]) + list(shape[d + 1:]), list(strides[:d]) + list(strides[d + 1:]),
            offset + index * strides[d])


@view_op("slice", "SliceBackward0", method="narrow", function="narrow")
def slice_(shape, strides, offset, dim, start, end, step):
    d = S.wrap_dim(dim, len(shape))
    size = shape[d]
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start, end, _ = slice(start, end).indices(size)
    length = max(0, (end - start + step - 1) // step)
    shape, strides = list(shape), list(strides)
    shape[d] = length
    new_offset = offset + start * strides[d] if length else offset + min(start, size) * strides[d]
    strides[d] *= step
    return shape, strides, new_offset


def narrow_start(t, dim, start, length, copy=False):
    """``start`` made non-negative after narrow's checks, in torch's order (``copy``:
    narrow_copy's, which reports a negative length as an overrun)."""
    if t._data.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0 and not copy:
        raise RuntimeError("narrow(): length must be non-negative.")
    size = t.size(dim)
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return start


def narrow(t, dim, start, length):
    """The ``length`` elements from ``start`` along ``dim``: a slice view."""
    start = narrow_start(t, dim, start, length)
    return apply(slice_, t, dim=dim, start=start, end=start + length, step=1)


@view_op("diagonal", "DiagonalBackward0", method="diagonal", function="diagonal")
def diagonal(shape, strides, offset, offset_=0, dim1=0, dim2=1):
    if offset_.__class__ is not int:
        offset_ = S.as_int(offset_, "offset")
    n = len(shape)
    d1, d2 = S.wrap_dim(dim1, n), S.wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if offset_ >= 0:
        length = max(0, min(shape[d1], shape[d2] - offset_))
        start = offset + offset_ * strides[d2] if length else offset
    else:
        length = max(0, min(shape[d1] + offset_, shape[d2]))
        start = offset - offset_ * strides[d1] if length else offset
    keep = [i for i in range(n) if i not in (d1, d2)]
    return ([shape[i] for i in keep] + [length], [strides[i] for i in keep] +
            [strides[d1] + strides[d2]], start)


@view_op("as_strided", "AsStridedBackward0", method="as_strided", unsaved=("self_geometry",))
def as_strided(shape, strides, offset, size, stride, storage_offset=None, self_geometry=None):
    """``self_geometry``: the input's (strides, storage offset), which the backward reads
    (given only when the view is recorded)."""
    return list(size), list(stride), offset if storage_offset is None else storage_offset


def as_strided_attrs(t, size, stride, storage_offset):
    """The attrs of an ``as_strided`` view of ``t``: with ``t``'s geometry where autograd may
    record the view."""
    attrs = {"size": tuple(size), "stride": tuple(stride), "storage_offset": storage_offset}
    if t._requires_grad:
        attrs["self_geometry"] = (t.stride(), t.storage_offset())
    return attrs


def _kept_dims(sizes, strides):
    """The (sizes, strides) of the dimensions of size > 1 (None: a dimension of size 0)."""
    if 0 in sizes:
        return None
    kept = [(n, s) for n, s in zip(sizes, strides) if n != 1]
    return [n for n, _ in kept], [s for _, s in kept]


def _maybe_overlapping(sizes, strides):
    """torch's cheap test: False only where no two elements can share memory."""
    reach = 0
    for s, n in sorted(zip(strides, sizes)):
        if s <= reach:
            return True
        reach += s * (n - 1)
    return False


def _storage_size(sizes, strides, offset):
    """The fewest elements a storage needs to hold this geometry."""
    return offset + 1 + sum((n - 1) * s for n, s in zip(sizes, strides))


def _zeros(grad, shape):
    """torch's ``at::zeros`` as the backward calls it: a tensor already written once."""
    out = grad.new_zeros(shape)
    out._bump_version()
    return out


@as_strided.def_backward
def as_strided_backward(ctx, grad):
    """torch's ``as_strided_backward``, step by step: the gradient written (added, where
    the view's elements may share memory) into a zero storage that holds both the input's
    and the view's elements, divided by how often the input sees each element where the
    input's may share memory, read back with the input's geometry."""
    attrs = ctx.attrs
    in_shape = ctx.input_meta[0][0]
    in_strides, in_offset = attrs["self_geometry"]
    offset = in_offset if attrs["storage_offset"] is None else attrs["storage_offset"]
    out_sizes, out_strides = [], []
    for i in reversed(range(grad.dim())):
        n, s = attrs["size"][i], attrs["stride"][i]
        if n == 0:
            return (_zeros(grad, in_shape),)
        if n == 1:
            grad = grad.squeeze(i)
        elif s == 0:
            grad = grad.sum(i)
        else:
            out_sizes.insert(0, n)
            out_strides.insert(0, s)
    kept = _kept_dims(in_shape, in_strides)
    if kept is None:
        return (_zeros(grad, in_shape),)
    in_overlap = _maybe_overlapping(*kept)
    out_overlap = _maybe_overlapping(out_sizes, out_strides)
    shared = min(in_offset, offset)
    in_offset, offset = in_offset - shared, offset - shared
    size = max(_storage_size(*kept, in_offset), _storage_size(out_sizes, out_strides, offset))
    storage = grad.new_zeros(size)
    if in_overlap or out_overlap:
        flat = grad.new_tensor(list(range(size)), dtype=int64)
    if out_overlap:
        index = flat.as_strided(out_sizes, out_strides, offset).reshape(-1)
        storage.index_add_(0, index, grad.reshape(-1))
    else:
        storage.as_strided(out_sizes, out_strides, offset).copy_(grad)
    if in_overlap:
        index = flat.as_strided(*kept, in_offset).reshape(-1)
        count = storage.new_zeros(size).index_add_(0, index, grad.new_ones(1).expand_as(index))
        storage.div_(count)
    return (storage.as_strided(in_shape, in_strides, in_offset),)


def check_as_strided(t, size, stride, storage_offset):
    """torch's checks of an ``as_strided`` geometry over ``t``'s storage, in torch's order."""
    offset = t.storage_offset() if storage_offset is None else storage_offset
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {list(stride)}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    item = t.dtype.itemsize
    need = 0 if 0 in size else item * (offset + 1 + sum((n - 1) * s for n, s in zip(size, stride)))
    have = t.untyped_storage().nbytes()
    if need > have:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {item} requiring a storage size of "
                           f"{need} are out of bounds for storage of size {have}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")


@view_op("alias", "AliasBackward0")
def alias_view(shape, strides, offset):
    return shape, strides, offset


@alias_view.def_backward
def alias_backward(ctx, grad):
    return (grad,)


# -- a view's gradient written into zeros of its input's shape ----------------------------------

def _embed(view_op_, grad_fn):
    """``<view>_backward``: zeros of ``input_shape`` with ``view_op_``'s view of them set to
    the gradient; differentiable, its backward takes the same view of the incoming
    gradient."""
    @declare(view_op_.name + "_backward", grad_fn, ("grad_output",),
             unsaved=("input_shape",))
    def op(xp, g, input_shape, **view_attrs):
        zeros = xp.zeros(input_shape, dtype=g.dtype)
        shape, strides, offset = view_op_.forward(
            input_shape, S.contiguous_strides(input_shape), 0, **view_attrs)
        item = g.itemsize
        window = xp.lib.stride_tricks.as_strided(zeros.reshape(-1)[offset:], tuple(shape),
                                                 tuple(s * item for s in strides))
        window[...] = g
        return zeros

    @op.def_backward
    def embed_backward(ctx, grad):
        attrs = {k: v for k, v in ctx.attrs.items() if k != "input_shape"}
        return (apply(view_op_, grad, **attrs),)

    @view_op_.def_backward
    def view_backward(ctx, grad):
        return (apply(op, grad, input_shape=ctx.input_meta[0][0], **ctx.attrs),)
    return op


select_backward = _embed(select, "SelectBackwardBackward0")
slice_backward = _embed(slice_, "SliceBackwardBackward0")
diagonal_backward = _embed(diagonal, "DiagonalBackwardBackward0")


# -- in place: a tensor's own geometry ----------------------------------------------------------

# Note [resize_ grows the storage]
# A resize_ that needs more elements than the storage holds grows the *storage*, as torch's
# resize_bytes does: a larger buffer holding the old bytes replaces the old one, and every
# tensor over that storage (the tensor, its views, its detach() and .data) reads and writes
# the new buffer from now on, each at its old offset and strides:
#
#     a = zeros(2); v = a.view(2)       a, v ──> storage [0 0]                 (8 bytes)
#     a.resize_(4)                      a (4), v (2) ──> storage [0 0 . .]   (16 bytes)
#
# A tensor keeps its window as an array over the buffer, so each alias's window is rebuilt.
# The storage keeps no list of its tensors (every view and detach() would pay to register
# one); growing is rare, so resize_ asks the garbage collector which tensors refer to it.
# Shrinking never frees memory, and a storage whose memory NumPy shares (from_numpy(),
# numpy()) cannot grow.

def _check_resize(self, size):
    if self._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if any(n < 0 for n in size):
        raise RuntimeError("numel: integer multiplication overflow")


def _resize_sizes(size):
    """``resize_``'s sizes as ints, as torch's argument parser reads them: ints, or integer
    tensors of one element (``__index__``); anything else is its TypeError."""
    out = []
    for i, n in enumerate(size):
        try:
            if isinstance(n, bool) or not isinstance(n, (numbers.Integral, TensorBase)):
                raise TypeError
            out.append(operator.index(n))
        except TypeError:
            kind = type(n).__name__
            if len(size) == 1:
                raise TypeError(f"resize_(): argument 'size' (position 1) must be tuple of "
                                f"ints, not {kind}") from None
            raise TypeError(f"resize_(): argument 'size' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got {kind}\""
                            ) from None
    return tuple(out)


# resize_ writes no values: ``resize_`` hands the dispatch its own write
_resize = declare("resize_", None, check=_check_resize, inplace=("resize_", "resize_as_"),
                  overlap="write")(None)


def resize_(t, size):
    """``resize_``: a contiguous geometry over the same storage, grown if it must be
    (``Note [resize_ grows the storage]``); the same size changes nothing, not even the
    strides or the version."""
    size = _resize_sizes(size)
    if size == t._data.shape:
        _check_resize(t, size)
        return t

    def write():
        offset = t.storage_offset()
        storage = t.untyped_storage()
        if offset + math.prod(size) > storage.buffer.size:
            _grow(storage, offset + math.prod(size))
        t._data = _window(storage.buffer, t, size, S.contiguous_strides(size), offset)
    return apply_(_resize, t, write=write, size=size)


def _grow(storage, numel):
    if not storage.resizable:
        raise RuntimeError("Trying to resize storage that is not resizable")
    old = storage.buffer
    aliases = [(a, a._data.shape, a.stride(), a.storage_offset()) for a in _tensors_over(storage)]
    grown = storage.backend.xp.zeros(numel, dtype=old.dtype)
    grown[:old.size] = old
    storage._buffer = grown
    for a, shape, strides, offset in aliases:
        a._data = _window(grown, a, shape, strides, offset)


def _window(buf, t, shape, strides, offset):
    """``t``'s array over ``buf`` with this geometry (in ``t``'s dtype)."""
    if buf.dtype != t._data.dtype:
        buf = buf.view(t._data.dtype)  # a dtype view (same element size)
    if 0 in shape and offset > buf.size:
        offset = 0  # an empty window reads nothing; NumPy refuses an offset past the buffer
    return t._backend.as_strided(buf, tuple(shape), tuple(strides), offset)


def _tensors_over(storage):
    """The live tensors whose storage is ``storage``."""
    found = {}
    for ref in gc.get_referrers(storage):
        # a tensor refers to its storage itself, or through its __dict__ once Python made one
        owners = gc.get_referrers(ref) if isinstance(ref, dict) else (ref,)
        for o in owners:
            if isinstance(o, TensorBase) and o._storage is storage:
                found[id(o)] = o
    return list(found.values())
