"""Shapes, joining and splitting beyond ``views`` and ``joining``: stacks, splits, rotations,
``repeat_interleave``, ``take`` / ``put``, ``unfold``, block and product constructions, and
the scatter-into (``*_scatter``) family.

Where torch composes a function of other ops (``hstack`` is a ``cat`` of ``atleast_1d``
views, ``fliplr`` a ``flip``, ``ravel`` a ``view`` of a contiguous tensor), this module
composes the same ops in the same order, so results carry the same grad_fn (``CatBackward0``,
``FlipBackward0``, ...) and the same memory sharing.  Records are declared only for what
torch declares as an op of its own (``Rot90Backward0``, ``TakeBackward0``, ...).
"""

import itertools
import math
from collections.abc import Sequence

import numpy as np

from .. import _strides as S
from .._dtypes import _BY_NP, int64
from .._tensor_base import TensorBase
from ..autograd.function import Function
from . import creation
from ._dispatch import apply, apply_, autograd_check_, check_same_device
from ._layout import element_strides
from ._registry import declare, view_op
from .joining import _flip, cat, split, stack
from .views import (
    as_strided,
    as_strided_attrs,
    check_as_strided,
    diagonal,
    expand_to,
    narrow_start,
    reshape,
    select,
    slice_,
    slice_backward,
    unsqueeze,
    view,
)

__all__ = ["atleast", "hstack", "vstack", "dstack", "column_stack", "tensor_split", "hvd_split",
           "split_with_sizes", "fliplr", "flipud", "rot90", "repeat_interleave", "take", "put",
           "take_along_dim", "unfold", "block_diag", "cartesian_prod", "combinations",
           "diagflat", "unravel_index", "ravel", "select_scatter", "slice_scatter",
           "diagonal_scatter", "as_strided_scatter", "narrow_copy", "masked_scatter",
           "fill_diagonal_", "as_strided_", "tri_indices", "Resize"]


def _listed(tensors):
    """``f(a, b)`` or ``f([a, b])``: the tensors as a list."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0])
    return list(tensors)


def _shape(shape):
    return f"[{', '.join(map(str, shape))}]"


# -- at least n dims, and the stacks built on them -------------------------------------------

def _at_least(t, n):
    """``t`` itself when it has ``n`` dims or more, else a view with dims of size 1 added as
    torch adds them: a 0-d tensor is reshaped, a vector becomes a row (and then a (1, n, 1)
    block), a matrix gets a trailing dim."""
    ndim = t._data.ndim
    if ndim >= n:
        return t
    if ndim == 0:
        return reshape(t, *(1,) * n)
    if ndim == 1:
        row = apply(unsqueeze, t, dim=0)
        return row if n == 2 else apply(unsqueeze, row, dim=-1)
    return apply(unsqueeze, t, dim=-1)


def atleast(n, tensors):
    """``torch.atleast_<n>d(*tensors)``: one tensor for one tensor, else a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], TensorBase):
        return _at_least(tensors[0], n)
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        kind = type(tensors[0]).__name__
        raise TypeError(f"atleast_{n}d() received an invalid combination of arguments - got "
                        f"({kind}), but expected one of:\n * (Tensor input)\n      didn't match "
                        f"because some of the arguments have invalid types: (!{kind}!)\n"
                        f" * (tuple of Tensors tensors)\n      didn't match because some of "
                        f"the arguments have invalid types: (!{kind}!)\n")
    return tuple(_at_least(t, n) for t in _listed(tensors))


def _nonempty(name, tensors):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors):
    """``cat`` of the ``atleast_1d`` views: along dim 0 for vectors, else dim 1."""
    tensors = [_at_least(t, 1) for t in _nonempty("hstack", tensors)]
    return cat(tensors, 0 if tensors[0]._data.ndim == 1 else 1)


def vstack(tensors):
    """``cat`` of the ``atleast_2d`` views along dim 0 (``row_stack`` too)."""
    return cat([_at_least(t, 2) for t in _nonempty("vstack", tensors)], 0)


def dstack(tensors):
    """``cat`` of the ``atleast_3d`` views along dim 2."""
    return cat([_at_least(t, 3) for t in _nonempty("dstack", tensors)], 2)


def column_stack(tensors):
    """``hstack`` of the tensors, each of at most one dim made a column first."""
    tensors = _nonempty("column_stack", tensors)
    return hstack([reshape(t, t._data.size, 1) if t._data.ndim <= 1 else t for t in tensors])


def ravel(t):
    """The elements as one dim: a view of ``t.contiguous()`` (so a copy when it is not)."""
    return apply(view, t.contiguous(), size=(-1,))


# -- splitting into views ---------------------------------------------------------------------

def _slices(t, d, bounds):
    """The slice views of ``t`` along dim ``d`` between consecutive ``bounds``."""
    return tuple(apply(slice_, t, dim=d, start=a, end=b, step=1)
                 for a, b in zip(bounds, bounds[1:]))


def tensor_split(t, indices_or_sections, dim=0):
    """Slice views along ``dim``: ``n`` sections of (nearly) equal length, the first ones one
    longer, or the pieces between the given ``indices``."""
    if t._data.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    d = S.wrap_dim(dim, t._data.ndim)
    size = t._data.shape[d]
    split_by = indices_or_sections
    if isinstance(split_by, TensorBase):
        if split_by._data.dtype != np.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {_BY_NP[split_by._data.dtype].scalar_name}")
        if split_by._data.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {split_by._data.ndim} dims")
        split_by = split_by.item() if split_by._data.ndim == 0 else split_by.tolist()
    if isinstance(split_by, int):
        if split_by <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {split_by}")
        least, extra = divmod(size, split_by)
        lengths = [least + (i < extra) for i in range(split_by)]
        return _slices(t, d, list(itertools.accumulate(lengths, initial=0)))
    return _slices(t, d, [0, *split_by, size])


def hvd_split(name, t, indices_or_sections):
    """``hsplit`` / ``vsplit`` / ``dsplit``: ``tensor_split`` along dim 1 (0 for a vector),
    0 or 2, where a number of sections must divide the dim."""
    least = {"hsplit": 1, "vsplit": 2, "dsplit": 3}[name]
    ndim = t._data.ndim
    if ndim < least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, "
                           f"but got a tensor with {ndim} dimensions!")
    d = {"hsplit": 0 if ndim == 1 else 1, "vsplit": 0, "dsplit": 2}[name]
    if isinstance(indices_or_sections, int):
        n, size = indices_or_sections, t._data.shape[d]
        if n == 0 or size % n:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the "
                               f"size of the dimension {size} is not divisible by the "
                               f"split_size {n}!")
    return tensor_split(t, indices_or_sections, d)


def split_with_sizes(t, split_sizes, dim=0):
    """Views of the given lengths along ``dim`` (one SplitWithSizesBackward0)."""
    sizes = list(split_sizes)
    if any(n < 0 for n in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes={_shape(sizes)}")
    return split(t, sizes, dim)


# -- flips and rotations ----------------------------------------------------------------------

def fliplr(t):
    """``flip`` of dim 1 (left to right)."""
    if t._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return t.flip(1)


def flipud(t):
    """``flip`` of dim 0 (up to down)."""
    if t._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return t.flip(0)


def _check_rot90(self, k, dims):
    ndim = self._data.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    for d in dims:
        S.wrap_dim(d, ndim)
    d0, d1 = dims
    if d0 == d1 or abs(d0 - d1) == ndim:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and "
                           f"dim1 = {d1}")


@declare("rot90", "Rot90Backward0", check=_check_rot90, layout="forward", method="rot90",
         function="rot90")
def _rot90(xp, a, k, dims):
    """Rotated by ``k`` quarter turns from ``dims[0]`` towards ``dims[1]``: flips and a
    transpose, laid out as torch's flips leave them (k = 0: a contiguous copy)."""
    d0, d1 = (d % a.ndim for d in dims)
    k %= 4
    if k == 0:
        return xp.ascontiguousarray(a).copy()
    if k == 2:
        return _flip.forward(xp, a, dims=(d0, d1))
    return xp.swapaxes(_flip.forward(xp, a, dims=(d1 if k == 1 else d0,)), d0, d1)


@_rot90.def_backward
def rot90_backward(ctx, grad):
    return (apply(_rot90, grad, k=-ctx.k, dims=ctx.dims),)


def rot90(t, k=1, dims=(0, 1)):
    if k.__class__ is not int:
        k = S.as_int(k, "k")
    return apply(_rot90, t, k=k, dims=tuple(dims))


# -- repeat_interleave ------------------------------------------------------------------------

def _check_repeats(repeats, output_size=None):
    a = repeats._data
    if a.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if a.dtype not in (np.int64, np.int32):
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for "
                                  f"'{_BY_NP[a.dtype].scalar_name}'")
    if output_size is None and (a < 0).any():
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and output_size != int(a.sum()):
        raise RuntimeError("allocated size does not match required size")


@declare("repeat_interleave", None, check=_check_repeats, function="repeat_interleave")
def _repeat_index(xp, repeats, output_size=None):
    """``i`` repeated ``repeats[i]`` times, for every ``i`` (in the repeats' dtype)."""
    return xp.repeat(xp.arange(repeats.size, dtype=repeats.dtype), repeats)


def repeat_interleave(t, repeats=None, dim=None, output_size=None):
    """Each element (or slice along ``dim``) repeated: ``repeats`` times for a number, as
    ``unsqueeze``/``expand``/``clone``/``flatten``; ``repeats[i]`` times for a tensor, as an
    ``index_select``.  ``repeat_interleave(repeats)``: the indices that repeat."""
    if repeats is None:
        return _repeat_indices(t, output_size)
    flat = t if dim is not None else t.flatten()
    d = S.wrap_dim(0 if dim is None else dim, t._data.ndim)
    if isinstance(repeats, TensorBase):
        n = flat._data.shape[d] if flat._data.ndim else 1
        if repeats._data.ndim == 0 or repeats._data.shape == (1,):
            repeats = repeats.reshape(1).expand(n)
        elif repeats._data.ndim == 1:
            if repeats._data.shape[0] != n:
                raise RuntimeError(f"repeats must have the same size as input along dim, but "
                                   f"got repeats.size(0) = {repeats._data.shape[0]} and "
                                   f"input.size({d}) = {n}")
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return flat.index_select(d, _repeat_indices(repeats, output_size))
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    sizes = list(flat._data.shape)
    if output_size is not None and output_size != sizes[d] * repeats:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected "
                           f"{sizes[d] * repeats} but got {output_size}")
    sizes.insert(d + 1, repeats)
    grown = expand_to(apply(unsqueeze, flat, dim=d + 1), tuple(sizes))
    return grown.clone(memory_format="contiguous").flatten(d, d + 1)


def _repeat_indices(repeats, output_size):
    if output_size is None:
        return apply(_repeat_index, repeats)
    return apply(_repeat_index, repeats, output_size=output_size)


# -- take and put: the flattened tensor indexed -----------------------------------------------

def _check_flat_index(name, t, index):
    if index._data.dtype != np.int64:
        raise RuntimeError(f"{name}(): Expected a long tensor for index, but got "
                           f"{_BY_NP[index._data.dtype].scalar_name}")


def _flat_positions(index, numel):
    """``index`` wrapped into ``[0, numel)``, or torch's error for the first outside it."""
    flat = index.reshape(-1)
    bad = (flat < -numel) | (flat >= numel)
    if bad.any():
        raise IndexError(f"out of range: tried to access index {int(flat[bad.argmax()])} on a "
                         f"tensor of {numel} elements.")
    return flat % numel if numel else flat


def _check_take(self, index):
    _check_flat_index("take", self, index)
    if not self._data.size and index._data.size:
        raise IndexError("take(): tried to take from an empty tensor")
    _flat_positions(index._data, self._data.size)


@declare("take", "TakeBackward0", ("self", "index"), saves={"index": "self", "self": "self"},
         check=_check_take, method="take", function="take")
def _take(xp, a, index):
    """The elements of ``a`` read in row-major order at ``index``, in ``index``'s shape."""
    positions = _flat_positions(index, a.size)
    return a.reshape(-1)[positions].reshape(index.shape)


@_take.def_backward
def take_backward(ctx, grad):
    zeros = grad.new_zeros(ctx.self.shape)
    return (apply_(_put, zeros, ctx.index, grad, accumulate=True), None)


def take(t, index):
    check_same_device((t, index))
    return apply(_take, t, index)


def _check_put(self, index, source, accumulate=False):
    _check_flat_index("put_", self, index)
    if self._data.dtype != source._data.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_BY_NP[self._data.dtype].scalar_name} and "
                           f"source.dtype = {_BY_NP[source._data.dtype].scalar_name}")
    if index._data.size != source._data.size:
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source._data.size}, "
                         f"index.numel() = {index._data.size}")
    if not self._data.size and index._data.size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    _flat_positions(index._data, self._data.size)


@declare("put", "PutBackward0", ("self", "index", "source"),
         saves={"index": ("self", "source"), "source": "source"}, check=_check_put,
         layout="forward", method="put", inplace="put_", function="put")
def _put(xp, a, index, source, accumulate=False):
    """``a`` (laid out as ``a``) with ``source``'s elements written, or added, at the
    row-major positions ``index``."""
    out = a.copy(order="K")
    positions = _flat_positions(index, a.size)
    _put_into(xp, out, positions, source.reshape(-1), accumulate)
    return out


def _put_into(xp, out, positions, values, accumulate):
    """Write (or add) ``values`` at row-major ``positions`` of the array ``out``."""
    if not out.ndim:
        out = out.reshape(1)  # (a view: a 0-d array is contiguous)
    where = xp.unravel_index(positions, out.shape)
    if accumulate:
        xp.add.at(out, where, values)
    else:
        out[where] = values


@_put.def_backward
def put_backward(ctx, grad):
    n = ctx.needs_input_grad
    grad_self = None
    if n[0]:
        grad_self = grad if ctx.accumulate else apply(
            _put, grad, ctx.index, grad.new_zeros(ctx.index.shape), accumulate=False)
    grad_source = take(grad, ctx.index).reshape(ctx.source.shape) if n[2] else None
    return grad_self, None, grad_source


def put(t, index, source, accumulate=False, in_place=False):
    """``t`` with ``source`` written (or, with ``accumulate``, added) at the row-major
    positions ``index``; in place, only those elements are written."""
    if in_place:
        autograd_check_(t, source)
    check_same_device((t, index, source))
    if not in_place:
        return apply(_put, t, index, source, accumulate=accumulate)

    def write():
        positions = _flat_positions(index._data, t._data.size)
        _put_into(t._backend.xp, t._data, positions, source._data.reshape(-1), accumulate)
    return apply_(_put, t, index, source, write=write, accumulate=accumulate)


def take_along_dim(t, indices, dim=None):
    """``gather`` along ``dim`` of ``t`` and ``indices`` broadcast against each other (all
    dims but ``dim``); without ``dim``, of both flattened (``view(-1)``)."""
    check_same_device((t, indices))
    if dim is None:
        return apply(view, t, size=(-1,)).gather(0, apply(view, indices, size=(-1,)))
    if t._data.ndim != indices._data.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {t._data.ndim} dimensions for input, "
                           f"and {indices._data.ndim} dimensions for indices")
    if indices._data.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_BY_NP[indices._data.dtype].scalar_name}")
    d = S.wrap_dim(dim, t._data.ndim)
    mine, theirs = list(t._data.shape), list(indices._data.shape)
    wanted = S.broadcast_shapes(tuple(mine[:d] + theirs[d:d + 1] + mine[d + 1:]), tuple(theirs))
    indices = expand_to(indices, wanted)
    wanted = S.broadcast_shapes(tuple(theirs[:d] + mine[d:d + 1] + theirs[d + 1:]), tuple(mine))
    return expand_to(t, wanted).gather(d, indices)


# -- unfold: sliding windows as a view ----------------------------------------------------------

def _check_unfold(self, dimension, size, step):
    ndim = self._data.ndim
    d = S.wrap_dim(dimension, ndim)
    length = self._data.shape[d] if ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is "
                           f"{size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")


@view_op("unfold", "UnfoldBackward0", check=_check_unfold, method="unfold")
def _unfold(shape, strides, offset, dimension, size, step):
    """Windows of ``size`` elements every ``step`` along ``dimension``: that dim counts the
    windows, a new last dim runs through one."""
    if not shape:
        return [size], [1], offset
    d = S.wrap_dim(dimension, len(shape))
    shape, strides = list(shape), list(strides)
    windows = (shape[d] - size) // step + 1
    inner = strides[d]
    shape[d], strides[d] = windows, inner * step
    return shape + [size], strides + [inner], offset


@declare("unfold_backward", "UnfoldBackwardBackward0", ("grad_in",), unsaved=("input_sizes",))
def _unfold_backward(xp, g, input_sizes, dimension, size, step):
    """The windows' gradients added back into zeros of the input's shape."""
    out = xp.zeros(input_sizes, dtype=g.dtype)
    if not input_sizes:
        return out + g.sum(dtype=g.dtype)
    d = S.wrap_dim(dimension, len(input_sizes))
    for i in range(g.shape[d]):
        window = [slice(None)] * len(input_sizes)
        window[d] = slice(i * step, i * step + size)
        out[tuple(window)] += xp.moveaxis(xp.take(g, i, axis=d), -1, d)
    return out


@_unfold.def_backward
def unfold_backward(ctx, grad):
    return (apply(_unfold_backward, grad, input_sizes=ctx.input_meta[0][0],
                  dimension=ctx.dimension, size=ctx.size, step=ctx.step),)


@_unfold_backward.def_backward
def unfold_backward_backward(ctx, grad):
    return (apply(_unfold, grad, dimension=ctx.dimension, size=ctx.size, step=ctx.step),)


def unfold(t, dimension, size, step):
    return apply(_unfold, t, dimension=dimension, size=size, step=step)


# -- block and product constructions ------------------------------------------------------------

@declare("block_diag", "BlockDiagBackward0", (), promote="common", unsaved=("shapes",),
         function="block_diag")
def _block_diag(xp, *arrays, shapes):
    """The matrices (a vector as a row, a number as 1x1) along the diagonal of zeros
    (``shapes``: the inputs' shapes, which the backward reads)."""
    blocks = [a.reshape((1,) * (2 - len(shape)) + shape) for a, shape in zip(arrays, shapes)]
    rows, cols = sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)
    out = xp.zeros((rows, cols), dtype=blocks[0].dtype)
    r = c = 0
    for b in blocks:
        out[r:r + b.shape[0], c:c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    return out


@_block_diag.def_backward
def block_diag_backward(ctx, grad):
    out, r, c = [], 0, 0
    for shape, need in zip(ctx.shapes, ctx.needs_input_grad):
        h, w = (1,) * (2 - len(shape)) + tuple(shape)
        block = grad.narrow(0, r, h).narrow(1, c, w)
        out.append((block if len(shape) == 2 else block.reshape(shape)) if need else None)
        r, c = r + h, c + w
    return tuple(out)


def block_diag(tensors):
    for i, t in enumerate(tensors):
        if t._data.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {t._data.ndim} dimensions")
    if not tensors:
        return creation.empty((1, 0))
    return apply(_block_diag, *tensors, shapes=[t._data.shape for t in tensors])



def _grids(tensors):
    """``meshgrid(..., indexing='ij')``: each vector viewed along its own dim, expanded."""
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if any(t._data.dtype != tensors[0]._data.dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    shape = tuple(t._data.size for t in tensors)
    n = len(tensors)
    return [expand_to(apply(view, t, size=tuple(-1 if i == k else 1 for i in range(n))), shape)
            for k, t in enumerate(tensors)]


def _check_vectors(tensors):
    for t in tensors:
        if t._data.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {_shape(t._data.shape)}")


def cartesian_prod(tensors):
    """Every combination of one element from each vector, as rows: the ``meshgrid`` grids
    flattened and stacked (one vector: itself)."""
    _check_vectors(tensors)
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.flatten() for g in _grids(list(tensors))], 1)


def combinations(t, r=2, with_replacement=False):
    """The ``r``-element combinations of a vector's elements, as rows, picked from its
    ``meshgrid`` by the mask of increasing (non-decreasing) index tuples."""
    _check_vectors([t])
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return creation.empty((0,), _BY_NP[t._data.dtype], t._device)
    n = t._data.size
    positions = np.meshgrid(*[np.arange(n)] * r, indexing="ij")
    keep = np.ones((n,) * r, dtype=bool)
    for a, b in zip(positions, positions[1:]):
        keep &= (a <= b) if with_replacement else (a < b)
    mask = creation.tensor(keep, device=t._device)
    return stack([g.masked_select(mask) for g in _grids([t] * r)], 1)


def diagflat(t, offset=0):
    """The flattened tensor on the ``offset`` diagonal of a square matrix of zeros."""
    return apply(view, t.contiguous(), size=(-1,)).diag(offset)


def unravel_index(indices, shape):
    """The coordinates, in a tensor of ``shape``, of the flat ``indices``: one view per dim
    of ``indices.unsqueeze(-1) // coefficients % shape``."""
    if indices._data.dtype.kind not in "iu":
        raise TypeError(f"expected 'indices' to be integer dtype, but got "
                        f"{_BY_NP[indices._data.dtype]}")
    if isinstance(shape, int):
        shape = (shape,)
    elif not isinstance(shape, Sequence):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    for n in shape:
        if not isinstance(n, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got "
                            f"{type(n)}")
    shape = tuple(shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    coefs = list(itertools.accumulate(reversed(shape[1:] + (1,)), lambda a, b: a * b))[::-1]
    device = indices._device
    coords = apply(unsqueeze, indices, dim=-1).floor_divide(creation.tensor(
        coefs, _BY_NP[np.dtype(np.int64)], device)) % creation.tensor(
        list(shape), _BY_NP[np.dtype(np.int64)], device)
    return coords.unbind(-1)


# -- writing a view's worth of values into a copy: the *_scatter ops and narrow_copy -----------

def _scatter_into(view_op_, grad_fn, name, self_backward=None, renamed=None):
    """``<view>_scatter``: a copy of ``self`` (with ``self``'s strides, as torch's
    ``clone_preserve_strides``) with ``src`` written into its ``view_op_`` view.  The
    gradient of ``src`` is that view of the incoming one; ``self``'s is the incoming one with
    zeros there, or ``self_backward(grad, attrs)``.  ``renamed``: the op's attrs that the
    view op names otherwise (diagonal's ``offset_``)."""
    renamed = renamed or {}

    def of_view(attrs):
        return {renamed.get(k, k): v for k, v in attrs.items()}

    @declare(name, grad_fn, ("self", "src"), layout="forward", method=name, function=name)
    def op(xp, a, src, **attrs):
        view_attrs = of_view(attrs)
        strides = element_strides(a)
        item = a.itemsize
        span = 1 + sum((n - 1) * s for n, s in zip(a.shape, strides)) if a.size else 0
        buf = xp.zeros(span, dtype=a.dtype)
        out = xp.lib.stride_tricks.as_strided(buf, a.shape, a.strides)
        out[...] = a
        shape, view_strides, offset = view_op_.forward(a.shape, strides, 0, **view_attrs)
        window = xp.lib.stride_tricks.as_strided(buf[offset:], tuple(shape),
                                                 tuple(s * item for s in view_strides))
        window[...] = src
        return out

    @op.def_backward
    def scatter_into_backward(ctx, grad):
        n = ctx.needs_input_grad
        grad_self = grad_src = None
        if n[0] and self_backward is not None:
            grad_self = self_backward(grad, ctx.attrs)
        elif n[0]:
            shape = grad.shape
            view_shape = view_op_.forward(shape, S.contiguous_strides(shape), 0,
                                          **of_view(ctx.attrs))[0]
            grad_self = apply(op, grad, grad.new_zeros(view_shape), **ctx.attrs)
        if n[1]:
            grad_src = apply(view_op_, grad, **of_view(ctx.attrs))
        return grad_self, grad_src
    return op


def _as_strided_scatter_self(grad, attrs):
    """torch's ``as_strided_scatter_backward`` for ``self``: zeros, with the view of the
    (contiguous) incoming gradient copied into the same view (Note [as_strided_scatter
    backward support] in torch's sources)."""
    size, stride, offset = attrs["size"], attrs["stride"], attrs["storage_offset"]
    zeros = grad.new_zeros(grad.shape)
    zeros.as_strided(size, stride, offset).copy_(grad.contiguous().as_strided(size, stride,
                                                                              offset))
    return zeros


_select_scatter = _scatter_into(select, "SelectScatterBackward0", "select_scatter")
_slice_scatter = _scatter_into(slice_, "SliceScatterBackward0", "slice_scatter")
_diagonal_scatter = _scatter_into(diagonal, "DiagonalScatterBackward0", "diagonal_scatter",
                                  renamed={"offset": "offset_"})
_as_strided_scatter = _scatter_into(as_strided, "AsStridedScatterBackward0",
                                    "as_strided_scatter", _as_strided_scatter_self)


def _check_embedding(t, src, op, attrs):
    """torch's error when ``src`` is not of the shape of ``t``'s view (its dtype may differ:
    its values are converted)."""
    data = t._data
    shape, _, _ = op.forward(data.shape, S.contiguous_strides(data.shape), 0, **attrs)
    if tuple(shape) != src._data.shape:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size "
                           f"= {_shape(src._data.shape)}, slice size = {_shape(shape)}")
    check_same_device((t, src))


def select_scatter(t, src, dim, index):
    _check_embedding(t, src, select, {"dim": dim, "index": index})
    return apply(_select_scatter, t, src, dim=S.wrap_dim(dim, t._data.ndim), index=index)


def slice_scatter(t, src, dim=0, start=None, end=None, step=1):
    attrs = {"dim": S.wrap_dim(dim, t._data.ndim), "start": start, "end": end, "step": step}
    _check_embedding(t, src, slice_, attrs)
    return apply(_slice_scatter, t, src, **attrs)


def diagonal_scatter(t, src, offset=0, dim1=0, dim2=1):
    _check_embedding(t, src, diagonal, {"offset_": offset, "dim1": dim1, "dim2": dim2})
    return apply(_diagonal_scatter, t, src, offset=offset, dim1=dim1, dim2=dim2)


def as_strided_scatter(t, src, size, stride, storage_offset=None):
    attrs = {"size": tuple(size), "stride": tuple(stride), "storage_offset": storage_offset}
    _check_embedding(t, src, as_strided, attrs)
    return apply(_as_strided_scatter, t, src, **attrs)


@declare("narrow_copy", "NarrowCopyBackward0", method="narrow_copy", function="narrow_copy")
def _narrow_copy(xp, a, dim, start, length):
    return xp.ascontiguousarray(xp.take(a, range(start, start + length), axis=dim))


@_narrow_copy.def_backward
def narrow_copy_backward(ctx, grad):
    return (apply(slice_backward, grad, input_shape=ctx.input_meta[0][0], dim=ctx.dim,
                  start=ctx.start, end=ctx.start + ctx.length, step=1),)


def narrow_copy(t, dim, start, length):
    """``narrow``'s elements as a new contiguous tensor."""
    start = narrow_start(t, dim, start, length, copy=True)
    return apply(_narrow_copy, t, dim=S.wrap_dim(dim, t._data.ndim), start=start,
                 length=length)


# -- masked_scatter ------------------------------------------------------------------------------

def _check_masked_scatter(self, mask, source):
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {_BY_NP[mask._data.dtype].scalar_name}")
    if self._data.dtype != source._data.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{_BY_NP[self._data.dtype].scalar_name} and "
                           f"{_BY_NP[source._data.dtype].scalar_name}")


@declare("masked_scatter", "MaskedScatterBackward0", ("self", "mask", "source"),
         saves={"mask": ("self", "source")}, check=_check_masked_scatter,
         method="masked_scatter", inplace="masked_scatter_", function="masked_scatter")
def _masked_scatter(xp, a, mask, source):
    """``a`` (broadcast with ``mask``) with ``source``'s leading elements, in row-major
    order, where ``mask`` is True."""
    a, mask = xp.broadcast_arrays(a, mask)
    out = xp.ascontiguousarray(a).copy()
    count = int(mask.sum())
    if count > source.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    out.reshape(-1)[mask.reshape(-1)] = source.reshape(-1)[:count]  # (flat: 0-d too)
    return out


@_masked_scatter.def_backward
def masked_scatter_backward(ctx, grad):
    n = ctx.needs_input_grad
    mask = ctx.mask
    grad_self = grad.masked_fill(mask, 0) if n[0] else None
    grad_source = None
    if n[2]:
        picked = grad.masked_select(mask)
        size = math.prod(ctx.input_meta[2][0])
        grad_source = _padded(picked, size).reshape(ctx.input_meta[2][0])
    return grad_self, None, grad_source


def _padded(values, size):
    """``values`` (a vector) followed by zeros up to ``size`` elements."""
    short = size - values._data.size
    return cat([values, values.new_zeros(short)]) if short else values


def masked_scatter(t, mask, source, in_place=False):
    """``t`` with ``source``'s leading elements written, in row-major order, where ``mask``
    (broadcast) is True; in place, the mask must expand to ``t``'s shape."""
    if in_place:
        autograd_check_(t, source)
    check_same_device((t, mask, source))
    if not in_place:
        return apply(_masked_scatter, t, mask, source)
    shape, mask_shape = t._data.shape, mask._data.shape
    if len(mask_shape) > len(shape):
        raise RuntimeError(f"expand(CPUBoolType{{{_shape(mask_shape)}}}, size={_shape(shape)}): "
                           f"the number of sizes provided ({len(shape)}) must be greater or "
                           f"equal to the number of dimensions in the tensor "
                           f"({len(mask_shape)})")
    S.expand_strides(mask_shape, mask.stride(), shape)
    return apply_(_masked_scatter, t, mask, source)


# -- a tensor's own diagonal and geometry, in place ----------------------------------------------

def fill_diagonal_(t, fill_value, wrap=False):
    """``fill_`` of the main diagonal's ``as_strided`` view (all dims equal beyond 2-d); with
    ``wrap``, a tall matrix's diagonal starts again every ``width + 1`` rows."""
    ndim = t._data.ndim
    if ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = t._data.shape
    if ndim > 2 and any(n != shape[0] for n in shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    height, width = shape[:2]
    stride, offset = sum(t.stride()), t.storage_offset()
    t.as_strided((min(height, width),), (stride,), offset).fill_(fill_value)
    if wrap and ndim == 2 and height > width + 1:
        step = width + 1
        rest = (t._data.size + step - 1) // step - min(height, width)
        t.as_strided((rest,), (stride,), offset + t.stride(0) * step).fill_(fill_value)
    return t


_as_strided_inplace = view_op("as_strided_", "AsStridedBackward1", inplace="as_strided_",
                              unsaved=("self_geometry",))(as_strided.forward)
_as_strided_inplace.def_backward(as_strided.backward)


def as_strided_(t, size, stride, storage_offset=None):
    check_as_strided(t, tuple(size), tuple(stride), storage_offset)
    return apply_(_as_strided_inplace, t, **as_strided_attrs(t, size, stride, storage_offset))


def tri_indices(name, row, col, offset=0, dtype=None, device=None):
    """``tril_indices`` / ``triu_indices``: the coordinates (a 2 x N tensor, in row-major
    order) of the lower / upper triangle, from the ``offset`` diagonal, of a row x col
    matrix."""
    if not row.__class__ is col.__class__ is offset.__class__ is int:
        row, col, offset = S.as_int(row, "row"), S.as_int(col, "col"), S.as_int(offset, "offset")
    dtype = dtype or int64
    if dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}\" not implemented for '{dtype.scalar_name}'")
    for what, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{what} must be non-negative, got{n}")
    pick = np.tril_indices if name == "tril_indices" else np.triu_indices
    rows, cols = pick(row, offset, col)
    return creation.new_tensor(np.stack([rows, cols]).astype(dtype.np), device)


class Resize(Function):
    """torch's deprecated out-of-place ``resize`` / ``resize_as``: a custom Function (its node
    is ``ResizeBackward``) giving a view of the (contiguous) tensor in another shape of as
    many elements."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        numel = math.prod(sizes)
        if tensor.numel() != numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({numel} elements in total), "
                f"but the given tensor has a size of {'x'.join(map(str, tensor.shape))} "
                f"({tensor.numel()} elements). autograd's resize can only change the shape of "
                f"a given tensor, while preserving the number of elements. ")
        ctx.input_sizes = tensor.shape
        return tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.contiguous().view(ctx.input_sizes), None
