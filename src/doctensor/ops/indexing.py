"""Indexing: ``t[idx]`` (basic indexing makes views, advanced indexing copies),
``t[idx] = value`` (a view's ``copy_``/``fill_``, or ``index_put_``), and ``masked_fill``."""

import re

import numpy as np

from .. import _dtypes
from .._strides import broadcast_shapes, contiguous_strides, iter_output_strides
from .._tensor_base import TensorBase, empty_strides, warn_at_user
from ..device import CPU
from ._dispatch import (
    apply,
    apply_,
    as_number,
    autograd_check_,
    check_partial_overlap,
    check_same_device,
)
from ._layout import element_strides, layout_as, preserve_layout
from ._registry import declare
from .creation import full
from .pointwise import where_tensor
from .views import alias_view, select, slice_, unsqueeze

__all__ = ["getitem", "setitem", "index_put", "index_put_tensors", "masked_fill", "take_flat",
           "put_flat"]


def _is_advanced(i):
    if isinstance(i, TensorBase):  # a 0-d integer tensor indexes like an int (a select view)
        return i._data.ndim != 0 or i._data.dtype.kind not in "iu" or i._data.dtype == np.uint8
    return isinstance(i, (list, np.ndarray, bool)) or (
        isinstance(i, tuple))


def _array(i):
    """An index item's array: a tensor's data, or an array doctensor's backwards pass."""
    return i._data if isinstance(i, TensorBase) else i


def _is_mask(i):
    return isinstance(i, (TensorBase, np.ndarray)) and _array(i).dtype in (np.bool_, np.uint8)


def _specified_dims(idx):
    """How many dims of the tensor ``idx`` names (torch's count_specified_dimensions): every
    item but None, '...' and True/False; a boolean (or uint8) mask names as many as it has."""
    return sum(_array(i).ndim if _is_mask(i) else 1 for i in idx
               if not (i is None or i is Ellipsis or isinstance(i, bool)))


def basic_view(t, idx, single=False, alias=True, advanced=None):
    """Apply ints, slices, None and Ellipsis one by one, as torch's applySlicing does.

    A dim pointer moves past each slice and each new dim of a None, stays at an int (a
    select), and moves ``ndim - (dims idx names)`` at every '...' (a second one too, as
    torch's).  An index tensor is left for the advanced step: ``(dim, index)`` appended to
    the list ``advanced``, the pointer moved past the dims it covers.  In a tuple index a
    slice spanning its whole dim is skipped; a lone slice (``t[:]``) always makes a
    ``SliceBackward0`` view.  An int out of range is named by its position in ``idx``.
    """
    ndim = t._data.ndim
    specified = _specified_dims(idx)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result = t
    dim = 0
    for position, i in enumerate(idx):
        if i is Ellipsis:
            dim += ndim - specified
        elif i is None:
            result = apply(unsqueeze, result, dim=dim)
            dim += 1
        elif isinstance(i, slice):
            start, stop, step = i.start, i.stop, 1 if i.step is None else i.step
            if step <= 0:
                raise ValueError("step must be greater than zero")
            size = result._data.shape[dim] if dim < result._data.ndim else 0  # (as an int's)
            whole = start in (None, 0) and step == 1 and (stop is None or stop >= size)
            if single or not whole:
                result = apply(slice_, result, dim=dim, start=start, end=stop, step=step)
            dim += 1
        elif isinstance(i, bool) or _is_mask(i) and _array(i).ndim == 0:
            result = apply(unsqueeze, result, dim=dim)  # a new dim, indexed by [0] or by []
            truth = bool(_array(i))
            advanced.append((dim, np.zeros(1 if truth else 0, dtype=np.int64)))
            dim += 1
        elif _is_advanced(i):
            advanced.append((dim, i))
            dim += _array(i).ndim if _is_mask(i) else 1
        else:
            index = _as_int_index(i)
            # (past the last dim, after a second '...', torch reads the size as 0)
            size = result._data.shape[dim] if dim < result._data.ndim else 0
            if not -size <= index < size:
                raise IndexError(f"index {index} is out of bounds for dimension {position} "
                                 f"with size {size}")
            result = apply(select, result, dim=dim, index=index)
    if result is t and alias:
        result = apply(alias_view, t)
    return result


def _as_int_index(i):
    """An int index, or torch's error for what cannot index."""
    if isinstance(i, (int, np.integer, TensorBase)):
        return int(i)
    if isinstance(i, str):
        raise TypeError("new(): invalid data type 'str'")
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     f"Variables are valid indices (got {type(i).__name__})")


_UINT8_INDEX = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                "torch.bool instead. (Triggered internally at /__w/pytorch/pytorch/aten/src/"
                "ATen/native/IndexingUtils.h:37.)")


def _to_numpy_index(i, t):
    if isinstance(i, TensorBase):
        if i._data.dtype == np.bool_:
            return i._data
        if i._data.dtype == np.uint8:  # a mask, as torch's bytes were before bool
            warn_at_user(_UINT8_INDEX)  # (every time, as torch)
            return i._data.astype(bool)
        if not np.issubdtype(i._data.dtype, np.integer):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return i._data
    if isinstance(i, list):
        return t._backend.xp.asarray(i)
    return i


def _np_index(t, idx):
    return tuple(_to_numpy_index(i, t) for i in idx)


@declare("index", "IndexBackward0", layout="forward", method="__getitem__")
def _index(xp, a, indices):
    try:
        out = a[indices]
    except IndexError as e:
        raise IndexError(_torch_index_error(e)) from None
    return _index_layout(xp, out, a, indices)


@_index.def_backward
def index_backward(ctx, grad):  # (in place, as torch's: the gradient is at version 1)
    zeros = grad.new_zeros(ctx.input_meta[0][0])
    return (apply_(_index_put_impl, zeros, grad, indices=ctx.indices, accumulate=True),)


def getitem(t, idx):
    single = isinstance(idx, slice)
    if t._data.ndim == 0 and isinstance(idx, (int, np.integer)) and not isinstance(idx, bool):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if not isinstance(idx, tuple):
        idx = (idx,)  # (as torch's, which counts the dims a tuple names first)
    if any(_is_advanced(i) for i in idx):
        t, idx = split_advanced(t, idx)
        check_masks(t, idx)
        out = apply(_index, t, indices=in_bounds_index(t, _np_index(t, idx)))
        node = out._grad_fn
        if node is not None:  # (torch saves the index tensors: a backward frees them)
            node.saved["indices"] = node.attrs["indices"]
        return out
    return basic_view(t, idx, single)


# Note [advanced indexing]
# torch applies an index in two steps (applySlicing, then index): ints, slices, None and
# Ellipsis first make a view, and only then do the tensor indices pick elements from it.  So
# ``x[0, :, [1, 2]]`` has shape (3, 2) in torch, where NumPy, which treats the int as one
# more advanced index, gives (2, 3).  ``split_advanced`` does step one; NumPy's own rules
# for an index made of arrays and full slices only are torch's for step two.

def split_advanced(t, idx, before_count_error=None):
    """(the view left by the basic items of ``idx``, the index tensors at the dims of that
    view torch records them at, ``:`` between them).  ``before_count_error(view)``: the
    checks torch makes before it counts the index tensors (those of ``index_put_``)."""
    advanced = []
    view = basic_view(t, idx, alias=False, advanced=advanced)
    got = advanced[-1][0] + 1  # (the length of torch's list of index tensors)
    if got > view._data.ndim:
        if before_count_error is not None:
            before_count_error(view)
        raise IndexError(f"too many indices for tensor of dimension {view._data.ndim} (got "
                         f"{got})")
    rest, dim = [], 0
    for d, i in advanced:
        rest.extend([slice(None)] * (d - dim))
        rest.append(i)
        dim = d + (_array(i).ndim if _is_mask(i) else 1)
    return view, tuple(rest)


def check_masks(t, idx):
    """torch's error for a boolean mask whose shape differs from the dims it covers."""
    d = 0
    for i in idx:
        if isinstance(i, TensorBase) and i._data.dtype in (np.bool_, np.uint8):
            for k, size in enumerate(i._data.shape):
                if d + k < t._data.ndim and size != t._data.shape[d + k]:
                    raise IndexError(
                        f"The shape of the mask [{', '.join(map(str, i._data.shape))}] at index "
                        f"{k} does not match the shape of the indexed tensor "
                        f"[{', '.join(map(str, t._data.shape))}] at index {d + k}")
            d += i._data.ndim
        elif i is not None:
            d += 1


def _index_layout(xp, out, src, np_idx):
    """A fresh copy of ``out`` (NumPy's gather from the array ``src``) laid out as torch lays
    out ``index``'s result.

    torch iterates the source restrided (indexed dims: stride 0) together with the index
    tensors (their own dims only); Note [output layout] orders the result's dims by those.
    """
    arrays = [k for k, a in enumerate(np_idx) if not isinstance(a, slice)]
    if isinstance(out, np.generic):  # a 0-d index gives a NumPy scalar
        return xp.asarray(out)
    copy = not out.flags.owndata  # NumPy may hand back a view (x[True]) or a transposed copy
    if out.ndim < 2 or not out.size:
        out = xp.array(out, copy=True) if copy else out
        return out if out.size else empty_strides(out, force=True)
    dims = []  # source dims that each index item covers
    d = 0
    for a in np_idx:
        k = a.ndim if not isinstance(a, slice) and a.dtype == np.bool_ else 1
        dims.append(list(range(d, d + k)))
        d += k
    free = [d for k, a in enumerate(np_idx) if isinstance(a, slice) for d in dims[k]]
    free += list(range(d, src.ndim))
    nb = out.ndim - len(free)
    adjacent = arrays == list(range(arrays[0], arrays[-1] + 1))
    start = dims[arrays[0]][0] if adjacent else 0
    src_strides = element_strides(src)
    self_st = [src_strides[f] for f in free]
    self_st[start:start] = [0] * nb
    block = list(contiguous_strides(out.shape[start:start + nb]))
    idx_st = [0] * start + block + [0] * (out.ndim - start - nb)
    strides = iter_output_strides(out.shape, [(out.shape, tuple(self_st)),
                                              (out.shape, tuple(idx_st))])
    return layout_as(xp, out, strides, copy=copy)


def check_index_bounds(shape, np_idx):
    """torch's error for an index out of range: its kernel names the dim by the index's place
    among the index tensors (a boolean mask counts as one per dim it covers)."""
    if any(isinstance(a, bool) or a is None or a is Ellipsis for a in np_idx):
        return  # True/False (a new dim, NumPy's rules): NumPy checks the rest
    d = k = 0
    for a in np_idx:
        if isinstance(a, slice):
            d += 1
        elif a.dtype == np.bool_:
            d += a.ndim
            k += a.ndim
        else:
            if d >= len(shape):
                raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
            size = shape[d]
            if size == 0 and a.size:
                raise IndexError("index is out of bounds for dimension with size 0")
            bad = (a >= size) | (a < -size)
            if bad.any():
                raise IndexError(f"index {int(a[bad].reshape(-1)[0])} is out of bounds for "
                                 f"dimension {k} with size {size}")
            d += 1
            k += 1


def _zeroed(np_idx, xp=np):
    """``np_idx`` with its index arrays replaced by zeros of the shapes they pick."""
    safe = []
    for a in np_idx:
        if isinstance(a, slice):
            safe.append(a)
        elif a.dtype == np.bool_:
            safe.extend([xp.zeros(int(a.sum()), np.int64)] * a.ndim)
        else:
            safe.append(xp.zeros(a.shape, np.int64))
    return tuple(safe)


def _put_target_shape(shape, np_idx):
    """The shape of ``t[np_idx]`` (NumPy's rules are torch's here), whatever the indices'
    values (None: not known)."""
    if any(isinstance(a, bool) or a is None or a is Ellipsis for a in np_idx):
        return None
    try:
        return np.broadcast_to(np.zeros((), np.int8), shape)[_zeroed(np_idx)].shape
    except IndexError:  # an empty dim indexed: the bounds check names it
        return None


def in_bounds_index(t, np_idx):
    """``np_idx`` after torch's bounds check, which its kernel makes only when it picks
    elements: an index that picks none is not checked (its arrays are zeroed for NumPy)."""
    target = _put_target_shape(t._data.shape, np_idx)
    if target is not None and 0 in target:
        return _zeroed(np_idx, t._backend.xp)
    check_index_bounds(t._data.shape, np_idx)
    return np_idx


def _as_masked_fill(np_idx, value):
    """Whether torch writes ``value`` as a ``masked_fill_`` (one boolean mask, the rest full
    slices, a number or one-element CPU tensor: cast, with no index_put_ checks)."""
    arrays = [a for a in np_idx if not isinstance(a, slice)]
    if isinstance(value, TensorBase) and (value._data.size != 1 or value._device.type != "cpu"):
        return False
    return len(arrays) == 1 and getattr(arrays[0], "dtype", None) == np.bool_


def _check_put(t, np_idx, value):
    """``t[np_idx] = value``'s checks (index_put_'s), in torch's order: overlap, the value's
    shape, its dtype, the indices' bounds."""
    check_partial_overlap(t, (value,), full=True)
    target = _put_target_shape(t._data.shape, np_idx)
    if target is not None:
        try:
            fits = np.broadcast_shapes(value._data.shape, target) == target
        except ValueError:
            fits = False
        if not fits:
            raise RuntimeError(f"shape mismatch: value tensor of shape "
                               f"[{', '.join(map(str, value._data.shape))}] cannot be broadcast "
                               f"to indexing result of shape [{', '.join(map(str, target))}]")
    mine, theirs = t._data.dtype, value._data.dtype
    if mine != theirs:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_dtypes._BY_NP[mine].scalar_name} for the destination and "
                           f"{_dtypes._BY_NP[theirs].scalar_name} for the source.")


def _torch_index_error(e):
    msg = str(e)
    if "out of bounds" in msg:
        m = re.search(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", msg)
        if m:
            return f"index {m.group(1)} is out of bounds for dimension {m.group(2)} with size " \
                   f"{m.group(3)}"
    m = re.match(r"too many indices for array: array is (\d+)-dimensional", msg)
    if m:
        return f"too many indices for tensor of dimension {m.group(1)}"
    m = re.match(r"shape mismatch: indexing arrays could not be broadcast together with shapes "
                 r"(.*)", msg)
    if m:  # NumPy's shapes "(2,) (0,)" as torch's "[2], [0]"
        shapes = (", ".join(n.strip() for n in s.split(",") if n.strip())
                  for s in re.findall(r"\(([^)]*)\)", m.group(1)))
        return ("shape mismatch: indexing tensors could not be broadcast together with shapes "
                + ", ".join(f"[{s}]" for s in shapes))
    return msg


@declare("index_put", "IndexPutBackward0", ("self", "values"), layout="forward",
         overlap="deprecated", method="index_put", inplace="index_put_", function="index_put")
def _index_put(xp, a, values, indices, accumulate):
    out = preserve_layout(xp, a.copy(order="K"), a)
    if accumulate:
        xp.add.at(out, indices, values)
    else:
        out[indices] = values
    return out


@_index_put.def_backward
def index_put_backward(ctx, grad):
    n = ctx.needs_input_grad
    gs = None
    if n[0]:
        gs = grad if ctx.accumulate else index_put(grad, ctx.indices, 0.0)
    gv = getitem(grad, tuple(ctx.indices)) if n[1] else None
    return gs, gv


# torch's index backward writes through _index_put_impl_: index_put_'s write under its own
# node, IndexPutImplBackward0
_index_put_impl = declare("_index_put_impl_", "IndexPutImplBackward0", ("self", "values"),
                          layout="forward", overlap="deprecated")(_index_put.forward)
_index_put_impl.def_backward(index_put_backward)


def index_put(t, indices, values, accumulate=False):
    """Out of place ``index_put`` (the backward of advanced indexing uses it)."""
    return apply(_index_put, t, values, indices=indices, accumulate=accumulate)


def index_put_tensors(name, t, indices, values, accumulate=False, in_place=False,
                      function=False):
    """``index_put`` / ``index_put_``: ``values`` written (or, with ``accumulate``, added) at
    the elements that the tuple of index tensors ``indices`` picks (as ``t[indices]``);
    ``function``: called as ``torch.<name>`` (its argument positions are one more)."""
    first = 2 if function else 1
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{name}(): argument 'indices' (position {first}) must be tuple of "
                        f"Tensors, not {type(indices).__name__}")
    if not isinstance(values, TensorBase):
        raise TypeError(f"{name}(): argument 'values' (position {first + 1}) must be Tensor, "
                        f"not {type(values).__name__}")
    for i, index in enumerate(indices):
        if not isinstance(index, TensorBase):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(index).__name__}")
    if in_place:
        autograd_check_(t, values)
    np_idx = _np_index(t, tuple(indices))
    covered = sum(a.ndim if a.dtype == np.bool_ else 1 for a in np_idx)
    if covered > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim} (got "
                         f"{covered})")
    check_masks(t, tuple(indices))
    mine, theirs = t._data.dtype, values._data.dtype
    if mine != theirs:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_dtypes._BY_NP[mine].scalar_name} for the destination and "
                           f"{_dtypes._BY_NP[theirs].scalar_name} for the source.")
    check_same_device([t, values, *indices])
    picked = [s for a in np_idx for s in ([(int(a.sum()),)] * a.ndim if a.dtype == np.bool_
                                          else [a.shape])]  # (a mask: its nonzero() columns)
    try:
        target = np.broadcast_shapes(*picked) + t._data.shape[covered:]
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with "
                         f"shapes {', '.join(_dims(s) for s in picked)}") from None
    try:
        fits = np.broadcast_shapes(values._data.shape, target) == target
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape "
                           f"[{', '.join(map(str, values._data.shape))}] cannot be broadcast to "
                           f"indexing result of shape [{', '.join(map(str, target))}]")
    try:
        t._data[np_idx]
    except IndexError as e:
        raise IndexError(_torch_index_error(e)) from None
    if not in_place:
        return apply(_index_put, t, values, indices=np_idx, accumulate=accumulate)

    def write():
        check_partial_overlap(t, (values,), full=True)
        if accumulate:
            t._backend.xp.add.at(t._data, np_idx, values._data)
        else:
            t._data[np_idx] = values._data
    return apply_(_index_put, t, values, write=write, indices=np_idx, accumulate=accumulate)


def _dims(shape):
    return f"[{', '.join(map(str, shape))}]"


def take_flat(flat, index):
    """The elements of the 1-d tensor ``flat`` at the int64 array ``index`` (CopySlices)."""
    return apply(_index, flat, indices=(index,))


def put_flat(flat, index, values, accumulate):
    """``flat`` with ``values`` put (or added) at the int64 array ``index`` (CopySlices)."""
    return index_put(flat, (index,), values, accumulate)


def setitem(t, idx, value):
    """``t[idx] = value``: bumps ``t``'s version once; history goes through CopySlices.

    As torch's ``set_item``: the basic part of the index makes a view (none at all when it
    only holds full slices or ``...``, so ``y[:] = v`` rewrites ``y`` itself), then
    ``copy_to`` writes the value into it.
    """
    if idx is False:
        return  # (torch writes nothing and checks nothing for a lone False)
    if t._data.ndim == 0:
        _check_0d_setitem(idx)
    if not isinstance(idx, tuple):
        idx = (idx,)
    if any(_is_advanced(i) for i in idx):
        return _index_put_inplace(t, idx, value)
    if t._data.ndim == 0 and any(i is not None and i is not Ellipsis for i in idx):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    copy_to(basic_view(t, idx, alias=False), value)


def _check_0d_setitem(idx):
    """torch's errors for writing into a 0-d tensor through an index (before any other
    check): only None, '...' and booleans index it."""
    if isinstance(idx, (int, np.integer)) and not isinstance(idx, bool):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if isinstance(idx, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    for i in idx if isinstance(idx, tuple) else (idx,):
        if not (i is None or i is Ellipsis or isinstance(i, bool) or isinstance(i, TensorBase)
                and i._data.ndim == 0 and i._data.dtype == np.bool_):
            raise IndexError("too many indices for tensor of dimension 0")


def _without_leading_ones(shape):
    k = 0
    while k < len(shape) and shape[k] == 1:
        k += 1
    return shape[k:]


def copy_to(dst, value):
    """torch's ``copy_to``: ``copy_`` for equal shapes, ``fill_`` for a 0-d CPU value (a Python
    number counts as one), else ``copy_`` of the value with its leading 1-dims dropped."""
    if not isinstance(value, TensorBase):
        value = full((), value, device=CPU)  # a wrapped number (Note [default device])
    if value._data.shape == dst._data.shape:
        dst.copy_(value)
    elif value._data.ndim == 0 and value._device.type == "cpu":
        dst.fill_(value)
    else:
        shape = _without_leading_ones(value._data.shape)
        value = value.view(shape) if shape != value._data.shape else value
        dst.copy_(value.expand(dst._data.shape))  # torch's expand_inplace(dst, value)


def _index_put_inplace(t, idx, value):
    def autograd_checks(view):  # (autograd's, before index_put_'s kernel counts the indices)
        autograd_check_(view, value)
    t, idx = split_advanced(t, idx, autograd_checks)  # Note [advanced indexing]
    check_masks(t, idx)
    if isinstance(value, TensorBase) and value._data.ndim and value._data.shape[0] == 1:
        value = value.view(_without_leading_ones(value._data.shape))  # (as torch's set_item)
    np_idx = _np_index(t, idx)
    val = value._data if isinstance(value, TensorBase) else value

    def write():
        index = np_idx
        if not _as_masked_fill(np_idx, value):
            if isinstance(value, TensorBase):
                _check_put(t, np_idx, value)
            index = in_bounds_index(t, np_idx)
        try:
            t._data[index] = val
        except IndexError as e:
            raise IndexError(_torch_index_error(e)) from None
        except ValueError:
            target = t._data[np_idx].shape
            raise RuntimeError(f"shape mismatch: value tensor of shape "
                               f"[{', '.join(map(str, value.shape))}] cannot be broadcast to "
                               f"indexing result of shape [{', '.join(map(str, target))}]"
                               ) from None
    target = _put_target_shape(t._data.shape, np_idx)  # (none picked: never checked, even
    empty = target is not None and 0 in target  # by the backward, which gets safe indices)
    return apply_(_index_put, t, value, write=write, accumulate=False,
                  indices=_zeroed(np_idx, t._backend.xp) if empty else np_idx)


# -- masked_fill -----------------------------------------------------------------------------

@declare("masked_fill", "MaskedFillBackward0", ("self", "mask"), saves={"mask": "self"},
         unsaved=("value",), method="masked_fill", inplace="masked_fill_",
         function="masked_fill", overlap="deprecated")
def _masked_fill(xp, a, mask, value):
    return xp.where(mask, value, a)


@declare("masked_fill", "MaskedFillBackward1", ("self", "mask", "value"),
         saves={"mask": ("self", "value")}, method="masked_fill", inplace="masked_fill_",
         function="masked_fill", overlap="deprecated")
def _masked_fill_tensor(xp, a, mask, value):
    return xp.where(mask, value.astype(a.dtype), a)


@_masked_fill.def_backward
def masked_fill_backward(ctx, grad):
    return (grad.masked_fill(ctx.mask, 0), None)


@_masked_fill_tensor.def_backward
def masked_fill_tensor_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad.masked_fill(ctx.mask, 0) if n[0] else None, None,
            where_tensor(ctx.mask, grad, 0).sum() if n[2] else None)


def _check_mask_dtype(mask):
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           + _dtypes._BY_NP[mask._data.dtype].c_name)


def _check_fill_value(value):
    if isinstance(value, TensorBase) and value._data.ndim:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._data.ndim} dimension(s).")


def masked_fill(t, mask, value, in_place=False):
    """``t`` with ``value`` (a number or a 0-d tensor) where the bool ``mask`` (broadcast) is
    True; out of place the result has the broadcast shape and is contiguous."""
    if not isinstance(value, (TensorBase, bool, int, float, np.number, np.bool_)):
        raise TypeError(f"masked_fill() received an invalid combination of arguments - got "
                        f"(Tensor, {type(value).__name__})")
    value = as_number(value)
    if in_place:  # (torch's order: autograd's check, the value's, the mask's, the shapes)
        autograd_check_(t, value)
        _check_fill_value(value)
        _check_mask_dtype(mask)
        shape = broadcast_shapes(t._data.shape, mask._data.shape)
        if shape != t._data.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, t._data.shape))}] "
                               f"doesn't match the broadcast shape "
                               f"[{', '.join(map(str, shape))}]")
    else:  # (expand_outplace(mask, self) first)
        broadcast_shapes(mask._data.shape, t._data.shape)
        _check_fill_value(value)
        _check_mask_dtype(mask)
    check_same_device([t, mask])
    dtype = _dtypes._BY_NP[t._data.dtype]
    if isinstance(value, TensorBase):
        op, operands, fill = _masked_fill_tensor, (mask, value), value.item()
        _dtypes.check_fits(fill, dtype)
    else:
        _dtypes.check_fits(value, dtype)
        op, operands, fill = _masked_fill, (mask,), _dtypes.cast_scalar(value, dtype)
    if not in_place:
        return apply(op, t, *operands, value=fill) if op is _masked_fill else \
            apply(op, t, *operands)
    fill = _dtypes.cast_scalar(fill, dtype)

    def write():
        t._backend.xp.copyto(t._data, fill, where=mask._data)
    if op is _masked_fill:
        return apply_(op, t, *operands, write=write, value=fill)
    return apply_(op, t, *operands, write=write)
