"""Copies that rearrange whole tensors: cat, stack, repeat, flip, roll and constant padding;
and their inverses among the views: unbind and split (their backward joins)."""

import numpy as np

from .. import _strides as S
from .._argparser import called_error
from .._strides import wrap_dim
from .._tensor_base import TensorBase
from ._dispatch import apply, read_histories
from ._layout import preserve_layout
from ._registry import declare, view_op
from .views import select, slice_

__all__ = ["cat", "stack", "unbind", "split", "chunk", "repeat", "flip", "roll", "constant_pad"]


def _check_list(tensors, name):
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList") if name == "stack" \
            else ValueError("torch.cat(): expected a non-empty list of Tensors")


@declare("cat", "CatBackward0", (), promote="common", function=("cat", "concat"))
def _cat(xp, *arrays, dim, sizes):
    arrays = [a for a in arrays if not (a.ndim == 1 and a.size == 0)] or arrays
    if all(a.flags.c_contiguous for a in arrays):
        return xp.concatenate(arrays, axis=dim)
    shape = list(arrays[0].shape)
    shape[dim] = sum(a.shape[dim] for a in arrays)
    out = xp.empty(shape, dtype=arrays[0].dtype)  # torch's cat result is contiguous
    return xp.concatenate(arrays, axis=dim, out=out)


@_cat.def_backward
def cat_backward(ctx, grad):
    out = []
    start = 0
    for size, need in zip(ctx.sizes, ctx.needs_input_grad):
        out.append(grad.narrow(ctx.dim, start, size) if need and size else
                   (grad.narrow(ctx.dim, start, 0) if need else None))
        start += size
    return tuple(out)


def cat(tensors, dim=0):
    """Concatenate along an existing dim (1-D empty tensors are skipped, as in torch)."""
    tensors = list(tensors)
    _check_list(tensors, "cat")
    read_histories(tensors)
    for i, t in enumerate(tensors):
        if not t._data.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    keep = [t for t in tensors if not (t.dim() == 1 and t.numel() == 0)]
    ref = keep[0] if keep else tensors[0]
    d = wrap_dim(dim, ref.dim()) if keep else 0  # (every tensor skipped: torch wraps no dim)
    keep = keep or tensors
    for i, t in enumerate(keep):
        a = t._data
        if a.ndim != ref.dim():
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.dim()} "
                               f"and {a.ndim}")
        for k in range(a.ndim):
            if k != d and a.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref.shape[k]} but got size {a.shape[k]} for "
                                   f"tensor number {i} in the list.")
    sizes = [t._data.shape[d] if t._data.ndim > d else 0 for t in tensors]
    return apply(_cat, *tensors, dim=d, sizes=sizes)


@declare("stack", "StackBackward0", (), promote="common", function="stack")
def _stack(xp, *arrays, dim):
    return xp.stack(arrays, axis=dim)


@_stack.def_backward
def stack_backward(ctx, grad):
    return tuple(grad.select(ctx.dim, i) if need else None
                 for i, need in enumerate(ctx.needs_input_grad))


def stack(tensors, dim=0):
    """Stack equally shaped tensors along a new dim."""
    tensors = list(tensors)
    _check_list(tensors, "stack")
    read_histories(tensors)
    d = wrap_dim(dim, tensors[0].dim() + 1)
    first = tensors[0]._data.shape
    for i, t in enumerate(tensors):
        if t._data.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"[{', '.join(map(str, first))}] at entry 0 and "
                               f"[{', '.join(map(str, t._data.shape))}] at entry {i}")
    return apply(_stack, *tensors, dim=d)


# -- several views at once: unbind and split ----------------------------------------------------

def _check_unbind(self, dim):
    if self._data.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")


@view_op("unbind", "UnbindBackward0", outputs=(), check=_check_unbind, method=("unbind",),
         function="unbind")
def unbind_op(shape, strides, offset, dim):
    return [select.forward(shape, strides, offset, dim, i) for i in range(shape[dim])]


def _pieces(shape, strides, offset, dim, sizes):
    pieces, start = [], 0
    for s in sizes:
        pieces.append(slice_.forward(shape, strides, offset, dim, start, start + s, 1))
        start += s
    return pieces


split_op = view_op("split", "SplitBackward0", outputs=(), method=("split", "chunk"),
                   function=("split", "chunk"))(_pieces)
split_sizes_op = view_op("split_with_sizes", "SplitWithSizesBackward0", outputs=(),
                         method="split", function="split")(_pieces)


def _joined_back(ctx, grads):
    """The views' gradients joined back (zeros for the views that got none)."""
    pieces = [g if g is not None else next(x for x in grads if x is not None).new_zeros(shape)
              for g, shape in zip(grads, ctx.shapes)]
    return (stack(pieces, ctx.dim) if ctx.op is unbind_op else cat(pieces, ctx.dim),)


for _op in (unbind_op, split_op, split_sizes_op):
    _op.def_backward(_joined_back)
    _op.unsaved = frozenset({"shapes", "sizes"})


def unbind(t, dim=0):
    """The views ``t.select(dim, i)`` for every i, sharing one UnbindBackward0."""
    return apply(unbind_op, t, dim=S.wrap_dim(dim, max(t._data.ndim, 1)))


def split(t, split_size, dim=0):
    """Views of ``split_size`` elements along ``dim`` (the last may be shorter), or of the
    sizes in the list ``split_size``."""
    if split_size.__class__ is not int and not isinstance(split_size, (tuple, list)) or \
            dim.__class__ is not int:  # (torch's Tensor.split calls _VF.split or its _with_sizes)
        if isinstance(split_size, TensorBase) and split_size.numel() == 1:
            split_size = int(split_size)  # (as torch's Tensor.split reads a tensor)
        error = called_error("split" if isinstance(split_size, int) else "split_with_sizes", t,
                             split_size, dim)
        if error is not None:
            raise error
    if t._data.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = S.wrap_dim(dim, t._data.ndim)
    size = t._data.shape[d]
    if isinstance(split_size, int):
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size="
                               f"{split_size}")
        if split_size == 0 and size:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {size}")
        sizes = [split_size] * (size // split_size) if split_size else [0]
        if split_size and size % split_size:
            sizes.append(size % split_size)
        if size == 0:
            sizes = [0]
        return apply(split_op, t, dim=d, sizes=tuple(sizes))
    sizes = list(split_size)
    if sum(sizes) != size:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                           f"(input tensor's size at dimension {dim}), but got split_sizes="
                           f"[{', '.join(map(str, sizes))}]")
    return apply(split_sizes_op, t, dim=d, sizes=tuple(sizes))


def chunk(t, chunks, dim=0):
    """``chunks`` views of (nearly) equal size along ``dim``: a split (of an empty dim:
    ``chunks`` empty views, as torch's split_with_sizes gives)."""
    if t._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = t.size(dim)
    if size == 0:
        return split(t, [0] * chunks, dim)
    return split(t, max(-(-size // chunks), 1), dim)


# -- repeat ----------------------------------------------------------------------------------

def _check_repeat(self, repeats):
    shape = self._data.shape
    if len(repeats) < len(shape):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    padded = (1,) * (len(repeats) - len(shape)) + shape
    target = [s * r for s, r in zip(padded, repeats)]
    for n in target:
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                               f"[{', '.join(map(str, target))}]")


@declare("repeat", "RepeatBackward0", check=_check_repeat, method=("repeat", "tile"),
         function="tile")
def _repeat(xp, a, repeats):
    a = a.reshape((1,) * (len(repeats) - a.ndim) + a.shape)
    return xp.tile(a, repeats)


@_repeat.def_backward
def repeat_backward(ctx, grad):
    # torch's repeat_backward: sum the leading new dims away, then view each repeated dim as
    # (repeat, size) and sum the repeats
    shape, repeats = ctx.input_meta[0][0], ctx.repeats
    if 0 in repeats:
        return (grad.new_zeros(shape),)
    for _ in range(grad.dim() - len(shape)):
        grad = grad.sum(0)
    lead = len(repeats) - len(shape)
    grad_size, sum_dims = [], []
    for size, r in zip(shape, repeats[lead:]):
        if r != 1:
            grad_size.append(r)
            sum_dims.append(len(grad_size) - 1)
        grad_size.append(size)
    if sum_dims:
        grad = grad.reshape(grad_size).sum(sum_dims)
    return (grad,)


def repeat(t, repeats):
    """``t`` tiled ``repeats[i]`` times along dim i (new leading dims where ``repeats`` is
    longer); always a copy."""
    return apply(_repeat, t, repeats=tuple(r if r.__class__ is int else S.as_int(r, "repeats")
                                           for r in repeats))


def tile(t, dims):
    """``repeat`` with ``dims`` padded with leading 1s to the tensor's dims."""
    return repeat(t, (1,) * (t._data.ndim - len(dims)) + tuple(dims))


# -- flip ------------------------------------------------------------------------------------

def _check_flip(self, dims):
    for d in set(dims):
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")


@declare("flip", "FlipBackward0", check=_check_flip, layout="forward", method="flip",
         function="flip")
def _flip(xp, a, dims):
    """A copy with the order of elements reversed along ``dims``, laid out like ``a``."""
    if not a.size:  # nothing to move (and NumPy would give the copy zero strides)
        return a.copy(order="K")
    return preserve_layout(xp, xp.flip(a, axis=dims if a.ndim else ()).copy(order="K"), a)


@_flip.def_backward
def flip_backward(ctx, grad):
    return (grad.flip(ctx.dims),)


def flip(t, dims):
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    ndim = t._data.ndim
    return apply(_flip, t, dims=tuple(wrap_dim(d, max(ndim, 1)) for d in dims))


# -- roll ------------------------------------------------------------------------------------

@declare("roll", "RollBackward0", method="roll", function="roll")
def _roll(xp, a, shifts, dims):
    if not a.size:
        return a.copy()
    if not dims:  # the flattened tensor rolls, then takes its shape back
        return xp.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    return xp.roll(a, shifts, axis=dims)


@_roll.def_backward
def roll_backward(ctx, grad):
    return (grad.roll(tuple(-s for s in ctx.shifts), ctx.dims or None),)


def _int_list(value, name):
    """A list of ints that torch's parser takes as one (``roll(1)``), or a tuple of them; a
    TypeError for no int (the wrapper of ``_argparser.checked`` words it)."""
    if value.__class__ is int:
        return (value,)
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (S.as_int(value, name),)


def roll(t, shifts, dims=None):
    """Elements shifted along ``dims`` (of the flattened tensor when None), wrapping round."""
    shifts = _int_list(shifts, "shifts")
    dims = () if dims is None else _int_list(dims, "dims")
    if not shifts:
        raise RuntimeError("`shifts` required")
    if len(shifts) != len(dims) and (dims or len(shifts) != 1):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")
    if t._data.size:  # torch returns an empty tensor's copy before looking at dims
        if dims and not t._data.ndim:
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        dims = tuple(wrap_dim(d, t._data.ndim) for d in dims)
    return apply(_roll, t, shifts=shifts, dims=dims)


@declare("constant_pad_nd", "ConstantPadNdBackward0", unsaved=("value",),
         function="constant_pad_nd")
def _constant_pad(xp, a, pad, value=0):
    """``a`` grown (or, by negative amounts, cut) at both ends of its last dims: ``pad`` holds
    (before, after) pairs, the last dim's first; new places hold ``value``."""
    shape, source, target = list(a.shape), [slice(None)] * a.ndim, [slice(None)] * a.ndim
    for i in range(len(pad) // 2):
        d, before, after = a.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        shape[d] = a.shape[d] + before + after
        if shape[d] < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        source[d] = slice(max(0, -before), a.shape[d] - max(0, -after))
        target[d] = slice(max(0, before), max(0, before) + max(0, source[d].stop -
                                                                 source[d].start))
    out = xp.full(shape, np.asarray(value).astype(a.dtype), a.dtype)
    if out.size and a.size:
        out[tuple(target)] = a[tuple(source)]
    return out


@_constant_pad.def_backward
def constant_pad_backward(ctx, grad):
    return (constant_pad(grad, [-p for p in ctx.pad]),)


def constant_pad(t, pad, value=0):
    """torch.constant_pad_nd (what ``F.pad`` does in its 'constant' mode): always a new
    tensor."""
    for i, p in enumerate(pad):
        if not isinstance(p, int):
            raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but "
                            f"found element of type {type(p).__name__} at pos {i}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > t.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {t.dim()}")
    return apply(_constant_pad, t, pad=tuple(pad), value=value)
