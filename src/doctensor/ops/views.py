"""View ops: new sizes/strides/offset over the same storage and version counter.

Each view op is a ``geometry(shape, strides, offset, **attrs)`` function declared with its
grad_fn name; ``make_view`` turns the geometry into a tensor that shares storage, version
counter and ``_base`` with its input.  Backward formulas are themselves views/reshapes or
``embed`` (the view's gradient written into zeros of the input's shape).
"""

import gc
import math
import numbers
import weakref

from .. import _strides as S
from .._tensor_base import INFERENCE, TensorBase, alias
from ..autograd import graph
from ..autograd.grad_mode import GradMode
from . import _registry as R
from ._registry import Op, needs_grad, record

__all__ = ["view_op", "make_view", "copy_slices"]


class ViewOp(Op):
    """A view op: ``geometry`` replaces the array forward of ordinary ops."""

    def __init__(self, name, grad_fn, geometry, num_outputs=1):
        super().__init__(name, grad_fn, None, ("self",), None, num_outputs)
        self.geometry = geometry


def view_op(name, grad_fn):
    def wrap(geometry):
        return ViewOp(name, grad_fn, geometry)
    return wrap


def geometry_of(t):
    return t._data.shape, t.stride(), t.storage_offset()


def make_view(t, op, attrs, record_grad=True):
    """Apply view ``op`` to ``t``: same storage and version counter, ``_base`` set."""
    if t._creation_meta is not None and GradMode.enabled and t._requires_grad:
        graph.gradient_edge(t)  # autograd reads the input's history first, as torch does
    shape, strides, offset = op.geometry(*geometry_of(t), **attrs)
    return _view_from_geometry(t, shape, strides, offset, op, attrs, record_grad)


def _view_from_geometry(t, shape, strides, offset, op, attrs, record_grad=True):
    buf = t.untyped_storage().buffer
    if 0 in shape and offset > buf.size:
        offset = 0  # an empty view reads nothing; NumPy refuses an offset past the buffer
    data = t._backend.as_strided(buf, tuple(shape), tuple(strides), offset)
    out = alias(R.Tensor, t, data)
    if buf.size:
        out._offset = (data, offset)
    if op is unsafe_view:  # torch's _unsafe_view: shares memory, but is no view to autograd
        if record_grad and needs_grad((t,)):
            record(op, (t,), (out,), attrs)
        return out
    out._base = t._base if t._base is not None else t
    if record_grad:
        # Note [view + in-place errors]: every view remembers the version it was made at,
        # so that an in-place change of its base regenerates (or refuses) its history.
        out._view_version = out._vc.value
        if GradMode.enabled:
            if t._requires_grad:
                record(op, (t,), (out,), attrs)
            elif not t._inference:
                _watch_base(out)
            if t._creation_meta is not None:
                out._creation_meta = t._creation_meta  # a view of a view inherits it
        else:
            if out._base._requires_grad:  # a differentiable view, made in no_grad mode: it
                out._requires_grad = out._requires_grad_of_base = True  # has no edge itself
                if out._base._grad_fn is None:
                    _watch_base(out)  # Note [views of a base without history]
            elif not t._inference:
                _watch_base(out)
            _mark_no_grad_view(out, t)
    return out


def _mark_no_grad_view(out, t):
    if not t._inference:
        out._creation_meta = INFERENCE_MODE if INFERENCE.on else NO_GRAD_MODE


# Note [views of a base without history]
# torch's view reads ``requires_grad`` from its base, so a view made while its base had no
# history requires grad once an in-place op gives the base history, and its grad_fn is then
# regenerated on use (Note [view + in-place errors])::
#
#     y = torch.zeros(3);  v = y[1:];  y.add_(w)    ->  v.requires_grad is True
#
# Asking the base on every use would cost each op a lookup.  Instead, such a view is put in
# a list of weak references on its base (``_plain_views``, made only on this path; dead ones
# are dropped whenever the list has doubled), and the in-place op that gives the base history
# marks the views still alive (``mark_plain_views``); their stale ``_view_version`` then
# regenerates their grad_fn when they are next used.
#
# ``base.requires_grad_(flag)`` on such a base (or on the base of a view made in no_grad
# mode) sets the watched views' ``requires_grad`` to follow (``base_requires_grad_changed``),
# yet leaves them leaves with no grad_fn and, unless they asked for it themselves, no
# AccumulateGrad (``_requires_grad_of_base``): an op on one records no edge into it, so its
# gradient reaches neither it nor the base, as in torch::
#
#     y = torch.zeros(3);  v = y[1:];  y.requires_grad_()
#     v.requires_grad, v.grad_fn    ->  True, None;   (v * 2).sum().backward() -> no grads
#     y.requires_grad_(False)       ->  v.requires_grad is False again

def _watch_base(view):
    base = view._base
    watched = base.__dict__.get("_plain_views")
    if watched is None:
        base._plain_views = [weakref.ref(view)]
        return
    watched.append(weakref.ref(view))
    n = len(watched)
    if n >= 16 and not n & (n - 1):  # a power of two: drop the views that died
        watched[:] = [r for r in watched if r() is not None]


def mark_plain_views(base):
    """``base`` gained history in place: its views made without history now require grad."""
    watched = base.__dict__.pop("_plain_views", None)
    if watched is not None:
        for ref in watched:
            v = ref()
            if v is not None:
                v._requires_grad = True


def base_requires_grad_changed(base):
    """``base.requires_grad_()`` on a leaf: its watched views without history follow it."""
    value = base._requires_grad
    for ref in base.__dict__["_plain_views"]:
        v = ref()
        if v is None or v._grad_fn is not None:
            continue
        if value and not v._requires_grad:
            v._requires_grad = v._requires_grad_of_base = True
        elif not value and v._requires_grad_of_base:
            v._requires_grad = v._requires_grad_of_base = False


def expand_gradient(grad, size):
    """``grad.expand(size)`` of a 0-dim gradient in a backward without ``create_graph`` (sum's
    and mean's backward): the same view as ``make_view`` makes, without its general checks.
    The gradient is the engine's temporary, so no in-place op can give it history later
    (Note [views of a base without history])."""
    if (GradMode.enabled or grad._data.ndim or grad._requires_grad or grad._inference
            or INFERENCE.on or grad._creation_meta is not None):
        return grad.expand(size)
    size = tuple(size)
    offset = 0 if grad._storage is None else grad.storage_offset()  # 0: a fresh gradient
    data = grad._backend.as_strided(grad.untyped_storage().buffer, size, (0,) * len(size),
                                    offset)
    out = alias(R.Tensor, grad, data)
    out._base = grad._base if grad._base is not None else grad
    out._view_version = out._vc.value
    out._creation_meta = NO_GRAD_MODE
    return out


# -- the view ops ------------------------------------------------------------------------------


@view_op("view", "ViewBackward0")
def view(shape, strides, offset, size):
    new = S.infer_size(size, math.prod(shape))
    st = S.view_strides(shape, strides, new)
    if st is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")
    return new, st, offset


@view.def_backward
def _(ctx, grad):
    return (grad.reshape(ctx.input_meta[0][0]),)


@view_op("_reshape_alias", "ReshapeAliasBackward0")
def reshape_alias(shape, strides, offset, size):
    return view.geometry(shape, strides, offset, size)


reshape_alias.def_backward(view.backward)


@view_op("_unsafe_view", "UnsafeViewBackward0")
def unsafe_view(shape, strides, offset, size):
    return view.geometry(shape, strides, offset, size)


unsafe_view.def_backward(view.backward)


@view_op("transpose", "TransposeBackward0")
def transpose(shape, strides, offset, dim0, dim1):
    n = len(shape)
    d0, d1 = S.wrap_dim(dim0, n), S.wrap_dim(dim1, n)
    shape, strides = list(shape), list(strides)
    if n:
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
    return shape, strides, offset


@transpose.def_backward
def _(ctx, grad):
    return (grad.transpose(ctx.dim0, ctx.dim1),)


# transpose_ changes a tensor's own geometry in place (a metadata-only in-place op)
transpose_inplace = view_op("transpose_", "TransposeBackward1")(transpose.geometry)
transpose_inplace.def_backward(transpose.backward)


def restride_(t, op, attrs):
    """Give ``t`` itself the geometry of ``op`` (``transpose_``); one version bump.

    Only ``t``'s history changes, also for a view: its base's values are untouched, so the
    view's new node follows its old one (torch's ``TBackward1`` after ``AliasBackward0``),
    with no CopySlices on the base."""
    from .pointwise import check_inplace, rebase_history
    grad = needs_grad((t,))
    if grad:
        check_inplace(t)
    shape, strides, offset = op.geometry(*geometry_of(t), **attrs)
    if grad:
        if t._base is None:
            rebase_history(t, op, (t,), attrs)
        else:
            record(op, (t,), (t,), attrs)
    t._data = t._backend.as_strided(t.untyped_storage().buffer, tuple(shape), tuple(strides),
                                    offset)
    t._bump_version()
    if grad and t._base is not None:
        t._view_version = t._vc.value  # the node just made is the view's current history
    return t


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

def resize_(t, size):
    """``resize_``: a contiguous geometry over the same storage, grown if it must be
    (``Note [resize_ grows the storage]``); the same size changes nothing, not even the strides."""
    if t._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    size = tuple(size)
    for i, n in enumerate(size):
        if not isinstance(n, numbers.Integral):
            kind = type(n).__name__
            if len(size) == 1:
                raise TypeError(f"resize_(): argument 'size' (position 1) must be tuple of "
                                f"ints, not {kind}")
            raise TypeError(f"resize_(): argument 'size' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got {kind}\"")
    if any(n < 0 for n in size):
        raise RuntimeError("numel: integer multiplication overflow")
    if size == t._data.shape:
        return t
    offset = t.storage_offset()
    storage = t.untyped_storage()
    if offset + math.prod(size) > storage.buffer.size:
        _grow(storage, offset + math.prod(size))
    t._data = _window(storage.buffer, t, size, S.contiguous_strides(size), offset)
    t._bump_version()
    return t


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


@view_op("t", "TBackward0")
def t(shape, strides, offset):
    if len(shape) > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{len(shape)}D")
    return shape[::-1], strides[::-1], offset


@t.def_backward
def _(ctx, grad):
    return (grad.t(),)


@view_op("t_", "TBackward1")
def t_inplace(shape, strides, offset):
    if len(shape) > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{len(shape)}D")
    return t.geometry(shape, strides, offset)


t_inplace.def_backward(t.backward)


@view_op("permute", "PermuteBackward0")
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
def _(ctx, grad):
    dims = [S.wrap_dim(d, grad.dim()) for d in ctx.dims]
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return (grad.permute(*inverse),)


@view_op("expand", "ExpandBackward0")
def expand(shape, strides, offset, size):
    shape, strides = S.expand_strides(shape, strides, size)
    return shape, strides, offset


@expand.def_backward
def _(ctx, grad):
    return (grad.sum_to_size(ctx.input_meta[0][0]),)


def _squeeze_geometry(shape, strides, offset, dims):
    keep = [i for i in range(len(shape)) if not (i in dims and shape[i] == 1)]
    return [shape[i] for i in keep], [strides[i] for i in keep], offset


@view_op("squeeze", "SqueezeBackward0")
def squeeze_all(shape, strides, offset):
    return _squeeze_geometry(shape, strides, offset, range(len(shape)))


@view_op("squeeze", "SqueezeBackward1")
def squeeze_dim(shape, strides, offset, dim):
    return _squeeze_geometry(shape, strides, offset, (S.wrap_dim(dim, len(shape)),))


@view_op("squeeze", "SqueezeBackward2")
def squeeze_dims(shape, strides, offset, dims):
    return _squeeze_geometry(shape, strides, offset, {S.wrap_dim(d, len(shape)) for d in dims})


# the in-place squeeze_ (restride_) of each overload, with torch's node names; matmul uses
# squeeze_(0) on a 1-D @ 2-D product
squeeze_inplace_all = view_op("squeeze_", "SqueezeBackward3")(squeeze_all.geometry)
squeeze_inplace_dim = view_op("squeeze_", "SqueezeBackward4")(squeeze_dim.geometry)
squeeze_inplace_dims = view_op("squeeze_", "SqueezeBackward5")(squeeze_dims.geometry)


def _unsqueeze_to(ctx, grad):
    return (grad.reshape(ctx.input_meta[0][0]),)


for _op in (squeeze_all, squeeze_dim, squeeze_dims, squeeze_inplace_all, squeeze_inplace_dim,
            squeeze_inplace_dims):
    _op.def_backward(_unsqueeze_to)


@view_op("unsqueeze", "UnsqueezeBackward0")
def unsqueeze(shape, strides, offset, dim):
    n = len(shape)
    d = S.wrap_dim(dim, n + 1)
    new_stride = shape[d] * strides[d] if d < n else 1
    return (list(shape[:d]) + [1] + list(shape[d:]),
            list(strides[:d]) + [new_stride] + list(strides[d:]), offset)


@unsqueeze.def_backward
def _(ctx, grad):
    return (grad.squeeze(ctx.dim),)


unsqueeze_inplace = view_op("unsqueeze_", "UnsqueezeBackward1")(unsqueeze.geometry)
unsqueeze_inplace.def_backward(unsqueeze.backward)


@view_op("select", "SelectBackward0")
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


@view_op("slice", "SliceBackward0")
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


@view_op("diagonal", "DiagonalBackward0")
def diagonal(shape, strides, offset, offset_=0, dim1=0, dim2=1):
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


@view_op("as_strided", "AsStridedBackward0")
def as_strided(shape, strides, offset, size, stride, storage_offset=None):
    return list(size), list(stride), offset if storage_offset is None else storage_offset


@view_op("alias", "AliasBackward0")
def alias_view(shape, strides, offset):
    return shape, strides, offset


@alias_view.def_backward
def _(ctx, grad):
    return (grad,)


# -- embedding a view's gradient back into its input's shape ------------------------------------

def _embed_backward(ctx, grad):
    return (None, _replay(grad, ctx.view_op, ctx.view_attrs))


def _replay(t, op, attrs):
    shape, strides, offset = op.geometry(*geometry_of(t), **attrs)
    return _view_from_geometry(t, shape, strides, offset, op, attrs)


_EMBED = {}


def embed(grad, input_shape, op, attrs):
    """Zeros of ``input_shape`` with ``op``'s view of them set to ``grad``.

    The backward of select/slice/diagonal/as_strided; itself differentiable (its backward
    takes the same view of the incoming gradient), named as torch names it.
    """
    name = op.grad_fn[:-1] + "Backward0"  # SelectBackward0 -> SelectBackwardBackward0
    rec = _EMBED.get(name)
    if rec is None:
        rec = _EMBED[name] = Op(name, name, None, ("zeros", "grad"), None)
        rec.def_backward(_embed_backward)
    xp = grad._backend.xp
    base = R.wrap_result(xp.zeros(input_shape, dtype=grad._data.dtype), grad)
    shape, strides, offset = op.geometry(*geometry_of(base), **attrs)
    if grad._data.size:
        buf = base.untyped_storage().buffer
        window = base._backend.as_strided(buf, tuple(shape), tuple(strides), offset)
        window[...] = grad._data
    if needs_grad((grad,)):
        record(rec, (None, grad), (base,), {"view_op": op, "view_attrs": attrs})
    return base


def _embed_into_input(ctx, grad):
    attrs = dict(ctx.attrs)
    return (embed(grad, ctx.input_meta[0][0], ctx.op, attrs),)


for _op in (select, slice_, diagonal, as_strided):
    _op.def_backward(_embed_into_input)


# -- multi-output views: unbind, split --------------------------------------------------------

unbind_op = Op("unbind", "UnbindBackward0", None, ("self",), None, num_outputs=0)
split_op = Op("split", "SplitBackward0", None, ("self",), None, num_outputs=0)
split_sizes_op = Op("split_with_sizes", "SplitWithSizesBackward0", None, ("self",), None,
                    num_outputs=0)


def multi_view(t, op, pieces, attrs):
    """Views ``pieces`` (geometries) of ``t`` that share one multi-output backward node."""
    outs = []
    for shape, strides, offset in pieces:
        outs.append(_view_from_geometry(t, shape, strides, offset, None, None, False))
    if GradMode.enabled:
        if t._requires_grad:
            record(op, (t,), outs, attrs)
        for o in outs:
            o._view_version = o._vc.value
            o._creation_meta = MULTI_OUTPUT_NODE  # Note [view + in-place errors]
    else:
        for o in outs:
            o._view_version = o._vc.value
            o._requires_grad = o._requires_grad_of_base = t._requires_grad
            _mark_no_grad_view(o, t)
            if t._requires_grad and o._base._grad_fn is None:
                _watch_base(o)  # Note [views of a base without history]
    if not t._requires_grad and not t._inference:
        for o in outs:
            _watch_base(o)  # Note [views of a base without history]
    return tuple(outs)


def _multi_backward(ctx, grads):
    dim = ctx.attrs["dim"]
    pieces = []
    for g, meta in zip(grads, ctx.attrs["meta"]):
        if g is None:
            like = next(x for x in grads if x is not None)
            g = R.wrap_result(like._backend.xp.zeros(meta, dtype=like._data.dtype), like)
        pieces.append(g)
    from .joining import cat, stack
    if ctx.op is unbind_op:
        return (stack(pieces, dim),)
    return (cat(pieces, dim),)


for _op in (unbind_op, split_op, split_sizes_op):
    _op.def_backward(_multi_backward)


def unbind(t, dim=0):
    n = t._data.ndim
    if n == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = S.wrap_dim(dim, n)
    shape, strides, offset = geometry_of(t)
    pieces = [select.geometry(shape, strides, offset, d, i) for i in range(shape[d])]
    return _multi(t, unbind_op, pieces, d)


def split(t, split_size, dim=0):
    n = t._data.ndim
    d = S.wrap_dim(dim, n)
    shape, strides, offset = geometry_of(t)
    size = shape[d]
    if isinstance(split_size, int):
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size="
                               f"{split_size}")
        sizes = [split_size] * (size // split_size) if split_size else [0]
        if split_size and size % split_size:
            sizes.append(size % split_size)
        if size == 0:
            sizes = [0]
        op = split_op
    else:
        sizes = list(split_size)
        if sum(sizes) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                               f"(input tensor's size at dimension {d}), but got split_sizes="
                               f"[{', '.join(map(str, sizes))}]")
        op = split_sizes_op
    pieces = []
    start = 0
    for s in sizes:
        pieces.append(slice_.geometry(shape, strides, offset, d, start, start + s, 1))
        start += s
    return _multi(t, op, pieces, d)


def _multi(t, op, pieces, d):
    outs = multi_view(t, op, pieces, {"dim": d})
    if outs and outs[0]._grad_fn is not None:
        node = outs[0]._grad_fn
        node.attrs["meta"] = [o._data.shape for o in outs]
        node.__class__ = _multi_node_class(op, len(outs))
    return outs


_MULTI_CLASSES = {}


def _multi_node_class(op, n):
    key = (op.grad_fn, n)
    cls = _MULTI_CLASSES.get(key)
    if cls is None:
        cls = _MULTI_CLASSES[key] = type(op.grad_fn, (op.node_cls,),
                                         {"__slots__": (), "num_outputs": n})
    return cls


# -- in-place through a view: CopySlices ----------------------------------------------------------

# Note [view + in-place errors]
# A differentiable view remembers how it was made (``_creation_meta``; None is torch's
# DEFAULT).  An in-place op on it, or reading its grad_fn after its base changed in place,
# is refused when rebasing its history would be wrong, with torch's words:
#
#     a, b = y.unbind()       MULTI_OUTPUT_NODE    one node owns several views
#     with no_grad: v = y[0]  NO_GRAD_MODE         the view has no history to rebase
#     Fn.apply(x) -> x alias  IN_CUSTOM_FUNCTION   rebasing would bypass Fn.backward
#
# Views of such views inherit the mark.

MULTI_OUTPUT_NODE = "multi_output_node"
NO_GRAD_MODE = "no_grad_mode"
INFERENCE_MODE = "inference_mode"
IN_CUSTOM_FUNCTION = "in_custom_function"

_META_TAIL = {
    MULTI_OUTPUT_NODE: " This view is the output of a function that returns multiple views. "
                       "Such functions do not allow the output views to be modified inplace. "
                       "You should replace the inplace operation by an out-of-place one.",
    NO_GRAD_MODE: " Given that this use case is ambiguous and error-prone, it is forbidden. You "
                  "can clarify your code by moving both the view and the inplace either both "
                  "inside the no_grad block (if you don't want the inplace to be tracked) or "
                  "both outside (if you want the inplace to be tracked).",
    INFERENCE_MODE: " Given that this use case is ambiguous and error-prone, it is forbidden. "
                    "You can clarify your code by moving both the view and the inplace either "
                    "both inside the inference_mode block (if you don't want the inplace to be "
                    "tracked) or both outside (if you want the inplace to be tracked).",
    IN_CUSTOM_FUNCTION: " This view was created inside a custom Function (or because an input "
                        "was returned as-is) and the autograd logic to handle view+inplace "
                        "would override the custom backward associated with the custom "
                        "Function, leading to incorrect gradients. This behavior is forbidden. "
                        "You can fix this by cloning the output of the custom Function.",
}


def handle_view_on_rebase(view, indirect=False):
    """Raise torch's error if ``view``'s history may not be rebased (Note [view + in-place
    errors]); ``indirect``: its base (or another view of it) was the one modified."""
    meta = view._creation_meta
    if meta is None:
        return
    what = "its base or another view of its base has been" if indirect else "is being"
    fn = view._grad_fn
    name = graph.short_name(fn) if fn is not None else None
    if meta in (NO_GRAD_MODE, INFERENCE_MODE) or fn is None:
        prefix = (f"Output {view._output_nr} of {name} is a view of a view which was created in"
                  if fn is not None else "A view was created in")
        if meta == INFERENCE_MODE:
            msg = f"{prefix} inference mode and {what} modified inplace in normal mode."
        else:
            msg = f"{prefix} no_grad mode and {what} modified inplace with grad mode enabled."
    else:
        msg = f"Output {view._output_nr} of {name} is a view and {what} modified inplace."
    raise RuntimeError(msg + _META_TAIL[meta])


class CopySlices(graph.Node):
    """Note [CopySlices]: an in-place op on a view rewrites the *base's* history.

    ::

        y = x.clone();  v = y[1:];  v.mul_(w)

        before:  y ── CloneBackward0 ── x          v ── SliceBackward0 ── y
        after:   y ── CopySlices ──┬── CloneBackward0 ── x     (y's old history)
                                   └── w's edge                (MulBackward0's other input)
                 v ── AsStridedBackward0 ── y   (regenerated from the base on next use)

    Backward: the base's gradient passes through unchanged except for the region ``v``
    covers, which is replaced by what the in-place op's backward (``fn``, here
    MulBackward0) gives for its ``self``; the op's other inputs get their gradients as
    usual.  The region is kept as the base's flat (row-major) indices of ``v``'s elements,
    so the formula is written in differentiable ops (double backward works) whatever the
    base's strides.
    """

    __slots__ = ("index", "base_shape", "fn")

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grads):
        grad = grads[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        from .indexing import getitem, index_put
        flat = grad.reshape(-1)
        index = R.wrap_result(self.index, grad)
        res = self.fn([getitem(flat, index)])
        outs = [None] * len(self.next_functions)
        for i, r in enumerate(res):
            if r is None:
                continue
            if i == 0:
                outs[0] = index_put(flat, (self.index,), r).reshape(self.base_shape)
            else:
                outs[i] = r
        return tuple(outs)

    def release(self):
        self.fn.release()


def _flat_index(base, view):
    """The row-major positions in ``base`` of ``view``'s elements (Note [CopySlices])."""
    xp = base._backend.xp
    shape, strides, offset = geometry_of(view)
    bshape, bstrides, boffset = geometry_of(base)
    span = max(boffset + sum((n - 1) * s for n, s in zip(bshape, bstrides) if n) + 1,
               offset + sum((n - 1) * s for n, s in zip(shape, strides) if n) + 1)
    pos = xp.zeros(span, dtype=xp.int64)
    base._backend.as_strided(pos, tuple(bshape), tuple(bstrides), boffset)[...] = \
        xp.arange(base._data.size, dtype=xp.int64).reshape(bshape)
    return xp.array(base._backend.as_strided(pos, tuple(shape), tuple(strides), offset))


def _copy_slices_node(view, fn):
    base = view._base
    node = CopySlices()
    graph.Node.__init__(node, (graph.gradient_edge(base),) + fn.next_functions[1:])
    node.index = _flat_index(base, view)
    node.base_shape = base._data.shape
    node.fn = fn
    base._grad_fn = node
    base._requires_grad = True
    base._output_nr = 0
    mark_plain_views(base)
    regenerate_view_grad_fn(view)
    saved = fn.saved.values() if hasattr(fn, "saved") else (fn._saved or ())
    for s in saved:
        if getattr(s, "is_output", False):  # a SavedTensor of an output
            s.view_fn = weakref.ref(view._grad_fn)
    return fn


def copy_slices(view, op, inputs, attrs, originals=None):
    """Rebase ``view``'s base history after the in-place ``op`` wrote through ``view``."""
    fn = record(op, inputs, (view,), attrs, originals)
    _copy_slices_node(view, fn)
    return fn


def rebase_through_copy_slices(view, fn, output_nr=0):
    """The same for a custom Function node ``fn`` that marked ``view`` dirty."""
    _copy_slices_node(view, fn)


def check_inplace_of_function(t):
    """A custom Function's ``mark_dirty`` on a leaf that requires grad (torch's error)."""
    handle_view_on_rebase(t)
    if t._requires_grad and t._grad_fn is None and t._base is None:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                           "operation.")
    if t._base is None:
        mark_plain_views(t)  # Note [views of a base without history]


# The grad_fn a view gets after an in-place change of its base: named AsStridedBackward0 as in
# torch; its backward scatters into the base's flat (row-major) positions of the view's
# elements (Note [CopySlices]), so any base strides work and double backward works.
_regenerated = ViewOp("as_strided", "AsStridedBackward0", as_strided.geometry)


@_regenerated.def_backward
def _(ctx, grad):
    from .indexing import index_put
    shape = ctx.input_meta[0][0]
    flat = R.wrap_result(grad._backend.xp.zeros(math.prod(shape), dtype=grad._data.dtype), grad)
    return (index_put(flat, (ctx.attrs["index"],), grad, accumulate=True).reshape(shape),)


def regenerate_view_grad_fn(view):
    """A view whose base changed in place gets a fresh ``AsStridedBackward0`` from the base."""
    base = view._base
    shape, strides, offset = geometry_of(view)
    attrs = {"size": tuple(shape), "stride": tuple(strides), "storage_offset": offset,
             "index": _flat_index(base, view)}
    prev = GradMode.enabled
    GradMode.enabled = True
    try:
        record(_regenerated, (base,), (view,), attrs)
    finally:
        GradMode.enabled = prev
    view._view_version = view._vc.value


def refresh_view_grad_fn(t):
    """Regenerate a differentiable view's grad_fn if an in-place op changed it since."""
    if t._view_version != t._vc.value and t._base._requires_grad:
        if t._creation_meta is not None:
            handle_view_on_rebase(t, indirect=True)
        regenerate_view_grad_fn(t)


def _stack(tensors, dim=0):
    from .joining import stack
    return stack(tensors, dim)


def _tensor(data, dtype):
    from .creation import tensor
    return tensor(data, dtype=dtype)


def _zeros(shape, dtype, device):
    from .creation import full
    return full(shape, 0, dtype, device)


# Note [layers] in autograd/graph.py
graph.ABOVE.tensor_class = lambda: R.Tensor
graph.ABOVE.tensor = _tensor
graph.ABOVE.zeros = _zeros
graph.ABOVE.stack = _stack
graph.ABOVE.view_edge = refresh_view_grad_fn
graph.ABOVE.rebase_view = rebase_through_copy_slices
graph.ABOVE.check_dirty = check_inplace_of_function
graph.ABOVE.creation_meta = {"multi_output_node": MULTI_OUTPUT_NODE,
                              "in_custom_function": IN_CUSTOM_FUNCTION}
