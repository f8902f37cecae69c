"""Copies that rearrange whole tensors: cat, stack, repeat, flip and constant padding."""

import numpy as np

from .._dtypes import result_type
from .._strides import wrap_dim
from ._registry import declare, recorded
from .creation import preserve_layout
from .pointwise import check_same_device

__all__ = ["cat", "stack", "repeat", "flip", "constant_pad"]


def _prepare(tensors, name):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList") if name == "stack" \
            else ValueError("torch.cat(): expected a non-empty list of Tensors")
    check_same_device(tensors)
    dt = result_type(tensors) if len(tensors) > 1 else tensors[0].dtype
    arrays = [t._data if t._data.dtype == dt.np else t._data.astype(dt.np) for t in tensors]
    return tensors, arrays


@declare("cat", "CatBackward0", ())
def _cat(xp, *arrays, dim):
    if all(a.flags.c_contiguous for a in arrays):
        return xp.concatenate(arrays, axis=dim)
    shape = list(arrays[0].shape)
    shape[dim] = sum(a.shape[dim] for a in arrays)
    out = xp.empty(shape, dtype=arrays[0].dtype)  # torch's cat result is contiguous
    return xp.concatenate(arrays, axis=dim, out=out)


@_cat.def_backward
def _(ctx, grad):
    out = []
    start = 0
    for size, need in zip(ctx.sizes, ctx.needs_input_grad):
        out.append(grad.narrow(ctx.dim, start, size) if need and size else
                   (grad.narrow(ctx.dim, start, 0) if need else None))
        start += size
    return tuple(out)


def cat(tensors, dim=0):
    """Concatenate along an existing dim (1-D empty tensors are skipped, as in torch)."""
    tensors, arrays = _prepare(tensors, "cat")
    ref = next((t for t in tensors if not (t.dim() == 1 and t.numel() == 0)), tensors[0])
    d = wrap_dim(dim, ref.dim())
    keep = [(t, a) for t, a in zip(tensors, arrays) if not (a.ndim == 1 and a.size == 0)]
    if not keep:
        keep = list(zip(tensors, arrays))
    for i, (_, a) in enumerate(keep):
        if a.ndim != ref.dim():
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.dim()} "
                               f"and {a.ndim}")
        for k in range(a.ndim):
            if k != d and a.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {ref.shape[k]} but got size {a.shape[k]} for "
                                   f"tensor number {i} in the list.")
    xp = tensors[0]._backend.xp
    out = _cat.forward(xp, *[a for _, a in keep], dim=d)
    sizes = [a.shape[d] if a.ndim > d else 0 for a in arrays]
    return recorded(_cat, tensors, out, {"dim": d, "sizes": sizes})


@declare("stack", "StackBackward0", ())
def _stack(xp, *arrays, dim):
    return xp.ascontiguousarray(xp.stack(arrays, axis=dim))


@_stack.def_backward
def _(ctx, grad):
    return tuple(grad.select(ctx.dim, i) if need else None
                 for i, need in enumerate(ctx.needs_input_grad))


def stack(tensors, dim=0):
    """Stack equally shaped tensors along a new dim."""
    tensors, arrays = _prepare(tensors, "stack")
    d = wrap_dim(dim, tensors[0].dim() + 1)
    for i, a in enumerate(arrays):
        if a.shape != arrays[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"[{', '.join(map(str, arrays[0].shape))}] at entry 0 and "
                               f"[{', '.join(map(str, a.shape))}] at entry {i}")
    out = _stack.forward(tensors[0]._backend.xp, *arrays, dim=d)
    return recorded(_stack, tensors, out, {"dim": d})


# -- repeat ----------------------------------------------------------------------------------

@declare("repeat", "RepeatBackward0")
def _repeat(xp, a, repeats):
    a = a.reshape((1,) * (len(repeats) - a.ndim) + a.shape)
    return xp.ascontiguousarray(xp.tile(a, repeats))  # torch's result is contiguous


@_repeat.def_backward
def _(ctx, grad):
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
    repeats = tuple(int(r) for r in repeats)
    shape = t._data.shape
    if len(repeats) < len(shape):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    padded = (1,) * (len(repeats) - len(shape)) + shape
    target = [s * r for s, r in zip(padded, repeats)]
    for n in target:
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                               f"[{', '.join(map(str, target))}]")
    out = _repeat.forward(t._backend.xp, t._data, repeats)
    return recorded(_repeat, [t], out, {"repeats": repeats})


# -- flip ------------------------------------------------------------------------------------

@declare("flip", "FlipBackward0")
def _flip(xp, a, dims):
    if not a.size:  # nothing to move (and NumPy would give the copy zero strides)
        return a.copy(order="K")
    return xp.flip(a, axis=dims).copy(order="K")


@_flip.def_backward
def _(ctx, grad):
    return (grad.flip(ctx.dims),)


def flip(t, dims):
    """A copy of ``t`` with the order of elements reversed along ``dims``, laid out like ``t``."""
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    ndim = t._data.ndim
    wrapped = tuple(wrap_dim(d, max(ndim, 1)) for d in dims)
    for d in set(wrapped):
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    out = preserve_layout(_flip.forward(t._backend.xp, t._data, wrapped if ndim else ()), t)
    return recorded(_flip, [t], out, {"dims": wrapped})


# -- roll ------------------------------------------------------------------------------------

@declare("roll", "RollBackward0")
def _roll(xp, a, shifts, dims):
    if not a.size:
        return a.copy()
    if not dims:  # the flattened tensor rolls, then takes its shape back
        return xp.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    return xp.roll(a, shifts, axis=dims).copy(order="C")


@_roll.def_backward
def _(ctx, grad):
    return (grad.roll(tuple(-s for s in ctx.shifts), ctx.dims or None),)


def roll(t, shifts, dims=None):
    """Elements shifted along ``dims`` (of the flattened tensor when None), wrapping round."""
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = () if dims is None else (dims,) if isinstance(dims, int) else tuple(dims)
    if dims and len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")
    if t._data.size:  # torch returns an empty tensor's copy before looking at dims
        dims = tuple(wrap_dim(d, max(t._data.ndim, 1)) for d in dims) if t._data.ndim else ()
    out = _roll.forward(t._backend.xp, t._data, shifts, dims)
    return recorded(_roll, [t], out, {"shifts": shifts, "dims": dims})


@declare("constant_pad_nd", "ConstantPadNdBackward0")
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


_constant_pad.unsaved = frozenset({"value"})  # torch's node keeps the pad only


@_constant_pad.def_backward
def _(ctx, grad):
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
    pad = tuple(pad)
    return recorded(_constant_pad, (t,), _constant_pad.forward(
        t._backend.xp, t._data, pad, value), {"pad": pad, "value": value})
