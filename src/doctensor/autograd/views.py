"""Autograd's view machinery: a view's history, in-place edits through views (CopySlices),
the errors torch gives when rebasing a view's history would be wrong, and the views that
follow a base without history.

It works on ``TensorBase``: the view ops themselves (their geometry) are records in
``ops/views.py``, which the dispatch tracks here (``track_view``) when it makes a view.
"""

import math
import weakref

from .._strides import contiguous_format
from .._tensor_base import INFERENCE
from . import installed
from .grad_mode import GradMode
from .graph import FREED, NO_EDGE, AccumulateGrad, Node, move_retains_grad, short_name

__all__ = ["gradient_edge", "new_view", "alias_view", "track_views", "check_inplace",
           "rebase_history", "copy_slices", "refresh_view_grad_fn", "base_requires_grad_changed",
           "handle_view_on_rebase", "check_dirty", "MULTI_OUTPUT_NODE", "NO_GRAD_MODE",
           "IN_CUSTOM_FUNCTION"]


def gradient_edge(tensor):
    """The edge ``(node, output_nr)`` through which gradient flows into ``tensor``; a view
    whose base changed in place gets its grad_fn regenerated first (Note [CopySlices])."""
    version = tensor._view_version
    if version is not None and version != tensor._vc.value:
        refresh_view_grad_fn(tensor)
    fn = tensor._grad_fn
    if fn is not None:
        return (fn, tensor._output_nr)
    if not tensor._requires_grad:
        return NO_EDGE
    acc = tensor._grad_acc() if tensor._grad_acc is not None else None
    if acc is None:
        if tensor._requires_grad_of_base:  # Note [views of a base without history]
            return NO_EDGE
        acc = AccumulateGrad(tensor)
        tensor._grad_acc = weakref.ref(acc)
    return (acc, 0)


# -- making a view ------------------------------------------------------------------------------

def new_view(t, shape, strides, offset, dtype=None):
    """A view of ``t`` with this geometry: a tensor over its storage and version counter
    (``alias_view``) whose base is ``t``'s base.  The dispatch makes every view op's result
    here, then records the op's node (when ``t`` requires grad in grad mode)."""
    out = alias_view(t, shape, strides, offset, dtype)
    base = t._base
    if base is None:
        base = t
    out._base = base
    # Note [view + in-place errors]: every view remembers the version it was made at, so
    # that an in-place change of its base regenerates (or refuses) its history.
    out._view_version = out._vc.value
    meta = t._creation_meta
    if GradMode.enabled:
        if not t._requires_grad and not t._inference:
            _watch_base(base, out)
        if meta is not None:
            out._creation_meta = meta  # a view of a view inherits it
        return out
    if base._requires_grad:  # a differentiable view, made in no_grad mode: it
        out._requires_grad = out._requires_grad_of_base = True  # has no edge itself
        _watch_base(base, out)  # Note [views of a base without history]
    elif not t._inference:
        _watch_base(base, out)
    if not t._inference:
        out._creation_meta = INFERENCE_MODE if INFERENCE.on else NO_GRAD_MODE
    return out


def alias_view(t, shape, strides, offset, dtype=None):
    """A tensor over ``t``'s storage (and version counter) with this geometry, no view yet
    (``_unsafe_view``'s result; ``new_view`` makes it one).  The geometry counts elements of
    ``dtype`` (a NumPy dtype: view_as_real's), else of ``t``'s dtype, which may differ from
    the storage's (a view of ``x.real`` or of ``x.view(dtype)``)."""
    storage = t._storage
    if storage is None:
        storage = t.untyped_storage()
    buf = storage.buffer
    want = t._data.dtype if dtype is None else dtype
    if buf.dtype != want:  # the same bytes, counted in elements of the view's dtype
        buf = buf[:buf.nbytes // want.itemsize * want.itemsize // buf.itemsize].view(want)
    # an empty view reads nothing: NumPy, which refuses an offset past the buffer, gets 0,
    # while the view keeps torch's offset (``storage_offset()`` reads it)
    data = t._backend.as_strided(buf, shape, strides,
                                 0 if 0 in shape and offset > buf.size else offset)
    out = object.__new__(installed.Tensor)  # _tensor_base.alias, written out: every view
    out._data = data  # pays for it
    out._device = t._device
    out._backend = t._backend
    if t._inference:
        out._inference = True  # a view takes its base's kind (Note [inference mode])
    out._storage = storage
    vc = t._vc
    out._vc = vc if vc is not None else t._version_counter()
    out._offset = (data, offset)
    return out


def track_views(outs, t):
    """``track_view`` for the views of one multi-output op (unbind, split): in grad mode
    they share one node, which refuses in-place edits (MULTI_OUTPUT_NODE)."""
    for o in outs:
        o._base = t._base if t._base is not None else t
        o._view_version = o._vc.value
        if GradMode.enabled:
            o._creation_meta = MULTI_OUTPUT_NODE  # Note [view + in-place errors]
            if not t._requires_grad and not t._inference:
                _watch_base(o._base, o)
            continue
        o._requires_grad = o._requires_grad_of_base = t._requires_grad
        if not t._inference:
            o._creation_meta = INFERENCE_MODE if INFERENCE.on else NO_GRAD_MODE
        if t._requires_grad or not t._inference:
            _watch_base(o._base, o)  # Note [views of a base without history]


# Note [views of a base without history]
# torch's view reads ``requires_grad`` from its base, so a view made while its base had no
# history requires grad once an in-place op gives the base history, and its grad_fn is then
# regenerated on use (Note [view + in-place errors])::
#
#     y = torch.zeros(3);  v = y[1:];  y.add_(w)    ->  v.requires_grad is True
#
# Asking the base on every use would cost each op a lookup.  Instead, such a view is put in
# a list of weak references on its base (``_plain_views``, made only on this path; dead ones
# are dropped whenever the list has doubled), and an in-place op that gives the base history
# marks the views still alive (``mark_plain_views``), which stay watched; their stale
# ``_view_version`` then regenerates their grad_fn when they are next used.
#
# ``base.requires_grad_(flag)`` and ``base.detach_()`` on such a base (or on the base, leaf or
# not, of a view made in no_grad mode) set the watched views' ``requires_grad`` to follow
# (``base_requires_grad_changed``),
# yet leaves them leaves with no grad_fn and, unless they asked for it themselves, no
# AccumulateGrad (``_requires_grad_of_base``): an op on one records no edge into it, so its
# gradient reaches neither it nor the base, as in torch::
#
#     y = torch.zeros(3);  v = y[1:];  y.requires_grad_()
#     v.requires_grad, v.grad_fn    ->  True, None;   (v * 2).sum().backward() -> no grads
#     y.requires_grad_(False)       ->  v.requires_grad is False again (y.detach_() too)

def _watch_base(base, view):
    watched = base._plain_views  # attribute reads, never __dict__: a tensor's attributes stay
    if watched is None:  # inline (CPython 3.11), which keeps reading them fast
        base._plain_views = [weakref.ref(view)]
        return
    watched.append(weakref.ref(view))
    n = len(watched)
    if n >= 16 and not n & (n - 1):  # a power of two: drop the views that died
        watched[:] = [r for r in watched if r() is not None]


def _mark_plain_views(base):
    """``base`` gained history in place: its views made without history now require grad
    through it, and stay watched (a later ``detach_()`` of the base reaches them too)."""
    watched = base._plain_views
    if watched is not None:
        for ref in watched:
            v = ref()
            if v is not None and v._grad_fn is None:
                v._requires_grad = v._requires_grad_of_base = True


def base_requires_grad_changed(base):
    """``base.requires_grad_()`` on a leaf, or ``base.detach_()``: its watched views without
    history follow it."""
    watched = base._plain_views
    if watched is None:
        return
    value = base._requires_grad
    for ref in watched:
        v = ref()
        if v is None or v._grad_fn is not None:
            continue
        if value and not v._requires_grad:
            v._requires_grad = v._requires_grad_of_base = True
        elif not value and v._requires_grad_of_base:
            v._requires_grad = v._requires_grad_of_base = False


# -- in-place through a view: the errors --------------------------------------------------------

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
    name = short_name(fn) if fn is not None else None
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


def check_inplace(t):
    """torch's refusal of in-place ops on leaves (and views of leaves) that require grad, and
    of views whose history may not be rebased; autograd checks before the kernel does."""
    if t._creation_meta is not None:
        handle_view_on_rebase(t)  # Note [view + in-place errors]
    if t._requires_grad:
        base = t._base  # torch asks a differentiable view first whether its base is a leaf
        if base is not None and base._grad_fn is None and t._view_version is not None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                               "an in-place operation.")
        if t._grad_fn is None:  # a view whose grad_fn is not regenerated yet is one too (torch)
            raise RuntimeError("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
    check_same_dtype_view(t)


_OTHER_DTYPE = ("doctensor: autograd through an in-place change of a view of another dtype "
                "(x.real, x.imag, view_as_real, view_as_complex) and its base is not supported")


def check_same_dtype_view(t):
    """doctensor's refusal (before any write) of the history rebasing that CopySlices' flat
    indices cannot express: a view whose dtype is not its base's."""
    base = t._base
    if base is not None and base._data.dtype != t._data.dtype:
        raise NotImplementedError(_OTHER_DTYPE)


def check_dirty(t):
    """A custom Function's ``mark_dirty`` on ``t`` (torch's errors), before rebasing it."""
    handle_view_on_rebase(t)
    if t._requires_grad and t._grad_fn is None and t._base is None:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                           "operation.")
    if t._base is None:
        _mark_plain_views(t)  # Note [views of a base without history]


# -- in-place through a view: CopySlices ----------------------------------------------------------

def rebase_history(t, node, output_nr=0):
    """Make ``t``, just written in place, the output ``output_nr`` of ``node``: directly, or
    for a view through CopySlices on its base (Note [CopySlices])."""
    old = t._grad_fn if t._retains_grad else None
    if t._base is not None and t._view_version is not None:
        copy_slices(t, node)
    else:
        t._grad_fn = node
        t._requires_grad = True
        t._output_nr = output_nr
        if t._plain_views is not None:  # Note [views of a base without history]
            _mark_plain_views(t)
    if old is not None:
        move_retains_grad(t, old)


class CopySlices(Node):
    """Note [CopySlices]: an in-place op on a view rewrites the *base's* history.

    ::

        y = x.clone();  v = y[1:];  v.mul_(w)

        before:  y ── CloneBackward0 ── x          v ── SliceBackward0 ── y
        after:   y ── CopySlices ──┬── CloneBackward0 ── x     (y's old history)
                                   └── w's edge                (MulBackward0's other input)
                 v ── AsStridedBackward0 ── y   (regenerated from the base, once per edit)

    Backward: the base's gradient passes through unchanged except for the region ``v``
    covers, which is replaced by what the in-place op's backward (``fn``, here
    MulBackward0) gives for its ``self``; the op's other inputs get their gradients as
    usual.  The region is kept as the base's flat (row-major) indices of ``v``'s elements,
    so the formula is written in differentiable ops (double backward works) whatever the
    base's strides: ``installed.take`` and ``installed.put`` gather and scatter by them.
    With ``create_graph`` the gradients are made by torch's own steps instead
    (``_apply_as_torch``), so that their history is torch's.
    """

    __slots__ = ("index", "base_shape", "base_strides", "view_geometry", "fn", "expanded")

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grads):
        grad = grads[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        if self.fn is None:
            raise RuntimeError(FREED)
        if GradMode.enabled:
            return self._apply_as_torch(grad)
        flat = grad.reshape(-1)
        res = self.fn([installed.take(flat, self.index)])
        outs = [None] * len(self.next_functions)
        for i, r in enumerate(res):
            if r is None:
                continue
            if i == 0 and self.expanded and self.next_functions[0][0] is not None:
                raise RuntimeError(OVERLAP)  # torch copies r into its view of the gradient
            outs[i] = self._into_base(flat, r) if i == 0 else r
        return tuple(outs)

    def _apply_as_torch(self, grad):
        """``apply`` with ``create_graph``: torch's own steps, in differentiable ops, so the
        gradients' history is torch's: the gradient copied into a tensor laid out as the base
        (CopyBackwards), ``fn`` given a contiguous clone of its view of it (CloneBackward0 of
        AsStridedBackward0), the base's part written back into that view (CopySlices)."""
        result = grad.new_empty_strided(self.base_shape, self.base_strides).copy_(grad)
        grad_slice = result.as_strided(*self.view_geometry)
        res = self.fn([grad_slice.clone(memory_format=contiguous_format)])
        outs = [None] * len(self.next_functions)
        for i, r in enumerate(res):
            if r is None:
                continue
            if i == 0:
                if self.expanded and self.next_functions[0][0] is not None:
                    raise RuntimeError(OVERLAP)
                grad_slice.copy_(r)
                r = result
            outs[i] = r
        return tuple(outs)

    def _into_base(self, flat, r):
        """The base's gradient with the view's region set to ``r``: torch copies the
        gradient into a new tensor laid out as the base, then ``r`` into its view of it (two
        version bumps)."""
        out = installed.put(flat, self.index, r, False).reshape(self.base_shape)
        if out.stride() != self.base_strides:
            out = out.new_empty_strided(self.base_shape, self.base_strides).copy_(out)
        else:
            out._bump_version()
        out._bump_version()
        return out

    def release(self):
        """As torch's: the in-place op's node goes (its saved values, and its edges, which may
        hold a view's earlier grad_fn); backward through it again is refused."""
        if self.fn is not None:
            self.fn.release()
            self.fn = None


# torch's assert_no_internal_overlap (a dim of stride 0 and size > 1), as CopySlices meets it
OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a "
           "single memory location. Please clone() the tensor before performing the operation.")


def _flat_index(base, view):
    """The row-major positions in ``base`` of ``view``'s elements (Note [CopySlices])."""
    xp = base._backend.xp
    shape, strides, offset = view._data.shape, view.stride(), view.storage_offset()
    bshape, bstrides, boffset = base._data.shape, base.stride(), base.storage_offset()
    span = max(boffset + sum((n - 1) * s for n, s in zip(bshape, bstrides) if n) + 1,
               offset + sum((n - 1) * s for n, s in zip(shape, strides) if n) + 1)
    pos = xp.zeros(span, dtype=xp.int64)
    item = pos.itemsize
    window = xp.lib.stride_tricks.as_strided
    window(pos[boffset:], bshape, tuple(s * item for s in bstrides))[...] = \
        xp.arange(base._data.size, dtype=xp.int64).reshape(bshape)
    return xp.array(window(pos[offset:], shape, tuple(s * item for s in strides)))


def copy_slices(view, fn):
    """Rebase ``view``'s base history after ``fn`` (an op's node or a custom Function's)
    wrote through ``view`` (Note [CopySlices])."""
    base = view._base
    view._grad_fn = fn  # the node that owns what fn saved of its output
    view._requires_grad = True
    view._output_nr = 0
    node = CopySlices((gradient_edge(base),) + tuple(fn.next_functions[1:]))
    node.index = _flat_index(base, view)
    node.base_shape = base._data.shape
    node.base_strides = base.stride()
    node.view_geometry = (view._data.shape, view.stride(),
                          view.storage_offset() - base.storage_offset())
    node.fn = fn
    node.expanded = any(s == 0 and n > 1 for n, s in zip(view._data.shape, view.stride()))
    base._grad_fn = node
    base._requires_grad = True
    base._output_nr = 0
    _mark_plain_views(base)
    _regenerate(view)
    saved = fn.saved.values() if hasattr(fn, "saved") else (fn._saved or ())
    for s in saved:
        if getattr(s, "is_output", False):  # torch names the view's regenerated node
            s.view_fn = weakref.ref(view._grad_fn)


class AsStridedBackward0(Node):
    """The grad_fn of a view whose base changed in place, regenerated from the base: its
    gradient is scattered into the base's flat (row-major) positions of the view's elements
    (Note [CopySlices]), so any base strides work and double backward works."""

    __slots__ = ("index", "base_shape", "_saved_size", "_saved_stride",
                 "_saved_storage_offset")

    def apply(self, grads):
        grad = grads[0]
        if grad is None:
            return (None,)
        flat = grad.new_zeros(math.prod(self.base_shape))
        out = installed.put(flat, self.index, grad, True).reshape(self.base_shape)
        out._bump_version()  # torch's as_strided_backward writes into its zeros in place
        return (out,)


def _regenerate(view):
    """Give ``view`` a fresh AsStridedBackward0 from its base (once per in-place edit)."""
    check_same_dtype_view(view)
    base = view._base
    node = AsStridedBackward0((gradient_edge(base),))
    node.index = _flat_index(base, view)
    node.base_shape = base._data.shape
    node._saved_size = tuple(view._data.shape)
    node._saved_stride = view.stride()
    node._saved_storage_offset = view.storage_offset()
    old, nr = view._grad_fn, view._output_nr
    view._grad_fn = node
    view._requires_grad = True
    view._output_nr = 0
    view._view_version = view._vc.value
    keep = old._extra.retains.pop(nr, None) if old is not None and old._extra else None
    if keep is not None:  # (retain_grad follows the view to its new grad_fn)
        node._retains_grad()[0] = keep


def refresh_view_grad_fn(t):
    """Regenerate a differentiable view's grad_fn if an in-place op changed it since (as
    torch: also when its base no longer requires grad, e.g. after ``detach_()``, if the view
    has a grad_fn)."""
    if t._view_version != t._vc.value and (t._grad_fn is not None or t._base._requires_grad):
        if t._creation_meta is not None:
            handle_view_on_rebase(t, indirect=True)
        _regenerate(t)
