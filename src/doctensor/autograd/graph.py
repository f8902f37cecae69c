"""The autograd graph: ``Node``, ``AccumulateGrad`` and ``SavedTensor``.

Each op that records history creates one ``Node``; its ``next_functions`` are the edges
``(node, output_nr)`` to the nodes that produced its inputs, with an ``AccumulateGrad`` at
every leaf that requires grad::

    x (leaf) ── AccumulateGrad ◄── MulBackward0 ◄── SumBackward0 ◄── loss.backward()
"""

import itertools
import re
import sys

from .. import _tensor_base
from .._strides import contiguous_format, dense_order
from . import installed
from .anomaly_mode import AnomalyMode
from .grad_mode import GRAD_LAYOUT, GradMode

__all__ = ["Node", "AccumulateGrad", "SavedTensor", "unpack_saved", "release_saved",
           "RemovableHandle", "NO_EDGE", "FREED", "move_retains_grad", "short_name",
           "type_string"]

_seq = itertools.count()
NO_EDGE = (None, 0)  # the edge of an input that does not require grad


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` takes the hook out again."""

    _ids = itertools.count()

    def __init__(self, hooks):
        self._hooks = hooks
        self.id = next(self._ids)

    def remove(self):
        self._hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class Node:
    """A backward function of the graph (torch's ``torch.autograd.graph.Node``).

    Note [hook order]: the engine calls a node as torch does::

        grads ─► tensor hooks (register_hook, in order) ─► retain_grad ─► Node prehooks
              ─► apply ─► Node hooks (grad_inputs, grad_outputs) ─► next_functions

    ``autograd.grad`` captures an input's gradient *before* the tensor hooks when the node
    must still run for another input, and after them when it does not (torch's engine).
    """

    __slots__ = ("next_functions", "_seq", "_extra", "__weakref__")
    num_outputs = 1  # how many gradients apply() receives

    def __init__(self, next_functions=()):
        self.next_functions = next_functions
        self._seq = next(_seq)
        self._extra = None  # hooks and metadata, rarely any: _NodeExtra, made on first use
        if AnomalyMode.enabled:
            AnomalyMode.record(self)

    def _ext(self):
        extra = self._extra
        if extra is None:
            extra = self._extra = _NodeExtra()
        return extra

    @property
    def metadata(self):
        return self._ext().metadata

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    def apply(self, grads):
        """Gradients for ``next_functions`` from the gradients of this node's outputs."""
        raise NotImplementedError

    def release(self):
        """Free saved tensors after a backward without ``retain_graph``."""

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may replace grad_inputs."""
        hooks = self._ext().hooks
        handle = RemovableHandle(hooks)
        hooks[handle.id] = fn
        return handle

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may replace grad_outputs."""
        hooks = self._ext().prehooks
        handle = RemovableHandle(hooks)
        hooks[handle.id] = fn
        return handle

    def _register_tensor_prehook(self, output_nr, fn):
        hooks = self._ext().tensor_prehooks.setdefault(output_nr, {})
        handle = RemovableHandle(hooks)
        hooks[handle.id] = fn
        return handle

    def _tensor_hooks(self):
        """``{output_nr: {id: fn}}`` of the tensor hooks that run before this node."""
        return self._extra.tensor_prehooks if self._extra is not None else None

    def _retains_grad(self):
        """``{output_nr: keep}``: the ``retain_grad`` of this node's outputs."""
        return self._ext().retains

    def _pre(self, grads):
        """Tensor hooks, then retain_grad (Note [hook order])."""
        hooks = self._tensor_hooks()
        if hooks:
            grads = list(grads)
            for nr, fns in hooks.items():
                for fn in list(fns.values()):
                    new = fn(grads[nr])
                    if new is not None:
                        grads[nr] = _hook_result(fn, grads[nr], new)
        extra = self._extra
        if extra is not None and extra.retains:
            for nr, fn in extra.retains.items():
                fn(grads[nr])
        return grads

    def __call__(self, grads):
        """Run the hooks and ``apply``: what the engine calls (Note [hook order])."""
        extra = self._extra
        if extra is None:  # the common case: no hooks
            return self.apply(grads)
        if extra.tensor_prehooks or extra.retains:
            grads = self._pre(grads)
        if extra.prehooks:
            for fn in list(extra.prehooks.values()):
                new = fn(tuple(grads))
                if new is not None:
                    grads = list(new)
        out = self.apply(grads)
        if extra.hooks:
            for fn in list(extra.hooks.values()):
                new = fn(tuple(out), tuple(grads))
                if new is not None:
                    new = tuple(new)
                    if len(new) != len(out):
                        raise RuntimeError(
                            f"hook '{getattr(fn, '__name__', fn)}' has returned an incorrect "
                            f"number of values (got {len(new)}, but expected {len(out)})")
                    out = new
        return out


def _hook_result(fn, old, new):
    """A tensor hook's new gradient, checked as torch checks it (the same type and size)."""
    if old is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(new, _tensor_base.TensorBase):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    name = getattr(fn, "__name__", "<unknown>")
    if type_string(new) != type_string(old):
        raise RuntimeError(f"hook '{name}' has changed the type of value (was "
                           f"{type_string(old)} got {type_string(new)})")
    if new.shape != old.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return new


class _NodeExtra:
    """A node's hooks (each ``{handle id: fn}``; tensor hooks per output) and metadata."""

    __slots__ = ("hooks", "prehooks", "tensor_prehooks", "retains", "metadata")

    def __init__(self):
        self.hooks, self.prehooks, self.tensor_prehooks = {}, {}, {}
        self.retains, self.metadata = {}, {}


class AccumulateGrad(Node):
    """The sink at a leaf: adds incoming gradients into ``variable.grad``.

    A leaf's own ``register_hook`` hooks live on the tensor (``variable._hooks``) and run as
    this node's tensor hooks; ``register_post_accumulate_grad_hook`` hooks run after.
    """

    __slots__ = ("variable",)

    def __init__(self, variable):
        super().__init__(())
        self._seq = float("inf")  # run as soon as ready, as torch does
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def _tensor_hooks(self):
        hooks = self.variable._hooks
        return {0: hooks} if hooks else None

    def __call__(self, grads):
        if self.variable._hooks:
            grads = self._pre(grads)
        return Node.__call__(self, grads)

    def apply(self, grads):
        new = grads[0]
        var = self.variable
        if new is not None and var._grad_fn is not None:  # (written in place since: no leaf)
            raise RuntimeError("leaf variable has been moved into the graph interior")
        if new is None or not var._requires_grad:  # (a leaf since told not to: torch skips it)
            return ()
        if var._grad is None:
            if GradMode.enabled:  # create_graph: a differentiable copy (CopyBackwards)
                var._grad = _clone_obey_contract(new, var)
            elif _is_fresh(new) and (not GRAD_LAYOUT.enforced or  # Note [gradient layout
                                     _obeys_layout_contract(new, var)):  # policy]
                # a fresh temporary without history is kept as it is; detach() would only
                # make an alias of it (torch's shallow detach)
                plain = new._base is None and new._grad_fn is None and not new._requires_grad
                var._grad = new if plain else new.detach()
            else:
                var._grad = _clone_obey_contract(new.detach(), var)
        elif GradMode.enabled:
            var._grad = var._grad + new
        else:
            var._grad.add_(new)  # torch's ``variable_grad += new_grad``, one version bump
        post = var._post_accumulate_hooks
        if post:
            for fn in list(post.values()):
                fn(var)
        return ()



# Note [gradient layout contract]
# torch stores a leaf's .grad with the leaf's own strides when the leaf is dense (non-overlapping
# and dense), else contiguous; an incoming gradient that is laid out otherwise is copied.

def _obeys_layout_contract(grad, var):
    g, v = grad._data, var._data
    if (v.flags.c_contiguous and g.strides == v.strides and g.itemsize == v.itemsize
            and 0 not in g.strides and v.size):
        return True  # the common case: both contiguous, in the same strides
    gst, vst = grad.stride(), var.stride()
    shape = grad._data.shape
    if dense_order(shape, vst) is not None:
        return all(g == v if n != 1 else g != 0 for n, g, v in zip(shape, gst, vst))
    return grad.is_contiguous()


def _clone_obey_contract(grad, var):
    """torch's ``clone_obey_contract``: for a dense ``var``,
    ``grad.new_empty_strided(var.sizes(), var.strides()).copy_(grad)``, whose ``copy_`` leaves
    the new ``.grad`` at version 1; otherwise ``grad.clone(contiguous_format)``, at version 0.
    In grad mode (``create_graph``) the copy is differentiable, as torch's is."""
    v = var._data
    if not GradMode.enabled and v.flags.c_contiguous and v.size:
        # the common case (a C-contiguous leaf): one fresh C-ordered copy, which has var's
        # strides unless a dim of size 1 gives var another stride there
        data = grad._backend.xp.array(grad._data, order="C")
        if data.strides == v.strides:
            new = _tensor_base._wrap(installed.Tensor, data, grad._device, grad._backend)
            new._bump_version()  # copy_'s
            return new
    if dense_order(v.shape, var.stride()) is None:
        return grad.clone(memory_format=contiguous_format)
    return grad.new_empty_strided(v.shape, var.stride()).copy_(grad)


def move_retains_grad(tensor, old):
    """After an in-place op, ``retain_grad`` follows the tensor to its new grad_fn (torch)."""
    keep = old._extra.retains.pop(tensor._output_nr, None) if old._extra is not None else None
    if keep is not None:
        tensor.grad_fn._retains_grad()[tensor._output_nr] = keep


def _is_fresh(t):
    # Note [stealing gradients]: torch keeps the incoming gradient as .grad when nothing else
    # references it.  Every alias (view, detach) shares the source's version counter, so a
    # tensor without one, or the only holder of its own, has no alias alive; the engine holds
    # the counters of user-given gradients.
    # A view that backward made of a temporary (sum_to_size's view of a bias gradient, the
    # transposed mm of a weight gradient) is fresh when nothing but the view holds its base:
    # torch's use_count test, with Python's reference count (the view's _base and the call's
    # argument); the engine holds the bases of user-given views.  A view of the 1 that
    # backward() made for a scalar output is fresh too: torch keeps sum's view of it as .grad,
    # as it keeps views of a user's gradient, which doctensor copies (the user holds them).
    if t._base is None:
        return t._vc is None or sys.getrefcount(t._vc) == 2
    return t._base._implicit or sys.getrefcount(t._base) == 2


# Note [saved tensors]
# A node saves what its backward formula reads, at the version the tensor had then.  When
# backward unpacks it, a different version means an in-place op overwrote the value the
# formula needs, and the error names the tensor exactly as torch does.  An op's own output
# is saved *without* its grad_fn (that would be a reference cycle node -> output -> node);
# unpacking re-attaches this node as its grad_fn.  After a backward without retain_graph the
# saved values are released, and unpacking them again is torch's "backward a second time".

_RELEASED = object()
_BACKWARD_SUFFIX = re.compile(r"Backward(\d*)$")


def short_name(node):
    """``MulBackward0`` -> ``Mul``, ``PowBackward1`` -> ``Pow1``: how torch's messages name a
    node ("Backward" goes, and so does a version number of 0)."""
    return _BACKWARD_SUFFIX.sub(lambda m: m.group(1).lstrip("0"), node.name())


FREED = ("Trying to backward through the graph a second time (or directly access saved "
          "tensors after they have already been freed). Saved intermediate values of the "
          "graph are freed when you call .backward() or autograd.grad(). Specify "
          "retain_graph=True if you need to backward through the graph a second time or "
          "if you need to access saved tensors after calling backward.")


def unpack_saved(saved, node):
    """A value a node saved, as its formula reads it: a ``SavedTensor`` checks its version; a
    Python number (or None) is saved as itself, a plain value the garbage collector need not
    track, until the graph is freed."""
    if saved.__class__ is SavedTensor:
        return saved.unpack(node)
    if saved is _RELEASED:
        raise RuntimeError(FREED)
    return saved


def release_saved(saved):
    """Free the values of a node's ``saved`` dict (a backward without retain_graph)."""
    for name, value in saved.items():
        if value.__class__ is SavedTensor:
            value.release()
        else:
            saved[name] = _RELEASED


# Note [unpack order]
# torch's generated backward functions unpack every saved input in the order of the inputs'
# names, then the saved outputs: when several were modified in place, its error names the
# first in that order (``other`` before ``self`` for maximum, ``mat2`` before ``self`` for
# mm).  doctensor's formulas read saved values lazily, in their own order; the first stale
# one found re-checks the node's others in torch's order, on the error path only.

def _unpack_before(node, stale):
    """Unpack (so check) ``node``'s saved tensors that torch unpacks before ``stale``."""
    saved = getattr(node, "saved", None)
    if not isinstance(saved, dict):
        return
    order = sorted((s.is_output, name) for name, s in saved.items()
                   if s.__class__ is SavedTensor and s.value is not None
                   and s.value is not _RELEASED and s.hooks is None)
    for _, name in order:
        if saved[name] is stale:
            return
        saved[name].unpack(node)


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved (torch's
    ``torch._C._autograd.SavedTensor``: what ``grad_fn._raw_saved_<name>`` shows).

    ``register_hooks(pack, unpack)`` (Note [saved tensor hooks]) replaces the saved tensor by
    ``pack(tensor)`` at once; each unpacking then gives ``unpack(packed)``.
    """

    __slots__ = ("value", "version", "is_output", "output_nr", "view_fn", "had_history",
                 "hooks")

    def __init__(self, value=_RELEASED, is_output=False):
        if value is _RELEASED:
            raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")
        self.hooks = None
        if value is None:  # what a node shows for an input it did not save
            self.value = None
            return
        if value._inference and not _tensor_base.INFERENCE.on:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work "
                "around this, you can make a clone to get a normal tensor and use it in "
                "autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
        self.is_output = is_output
        self.view_fn = None  # the output of an in-place op on a view: its new grad_fn (weak)
        self.version = value._version_counter().value
        self.output_nr = value._output_nr
        # an input saved with history must still have it when unpacked (not detach_()ed)
        self.had_history = not is_output and value._grad_fn is not None
        self.value = value._alias_for_saving() if is_output else value

    def unpack(self, node=None):
        """The saved tensor, checked against its version (``node``: the node that saved it,
        re-attached to a saved output as its grad_fn)."""
        value = self.value
        if value is _RELEASED:
            raise RuntimeError(FREED)
        if self.hooks is not None:
            return self._unpack_hooked(node)
        if self.had_history and value.grad_fn is None:
            raise RuntimeError("Trying to use a saved tensor that has been detached in-place, "
                               "i.e. with .detach_().This is not supported, please use "
                               "out-of-place `.detach()` instead")
        current = value._vc.value
        if current != self.version:
            if node is not None:
                _unpack_before(node, self)  # Note [unpack order]
            grad_fn = node if self.is_output else value.grad_fn
            if self.view_fn is not None and self.view_fn() is not None:
                grad_fn = self.view_fn()  # torch names the view's regenerated node
            where = ""
            if grad_fn is not None:
                where = f", which is output {self.output_nr} of {short_name(grad_fn)},"
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [{type_string(value)} [{', '.join(map(str, value.shape))}]]"
                f"{where} is at version {current}; expected version {self.version} instead. "
                "Hint: enable anomaly detection to find the operation that failed to compute "
                "its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
        if self.is_output and node is not None:
            return value._with_grad_fn(node, self.output_nr)
        return value

    @property
    def data(self):
        """The saved tensor (None for a tensor the node did not save)."""
        return None if self.value is None else self.unpack()

    @property
    def unpack_hook(self):
        return None if self.hooks is None else self.hooks[1]

    def release(self):
        self.value = _RELEASED
        self.hooks = None

    def register_hooks(self, *hooks):
        """``register_hooks(pack_hook, unpack_hook)``: pack the saved tensor now
        (``pack_hook(tensor)``); unpacking gives ``unpack_hook(packed)`` (Note [saved tensor
        hooks])."""
        if len(hooks) != 2 or not all(callable(h) for h in hooks):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked "
                f"with: {', '.join(map(repr, (self, *hooks)))}")
        pack_hook, unpack_hook = hooks
        if self.value is _RELEASED:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward.")
        if self.hooks is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have "
                               "already been set. Hint: only one pair of hooks is allowed at a "
                               "time.")
        if self.value is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        prev, GradMode.enabled = GradMode.enabled, False  # packing records no history
        try:
            packed = pack_hook(self.value.detach())
        finally:
            GradMode.enabled = prev
        self.hooks = (packed, unpack_hook)

    def _unpack_hooked(self, node):
        """``unpack_hook(packed)`` as a tensor with the saved tensor's history (no version
        check: the packed value is the hooks' own)."""
        packed, unpack_hook = self.hooks
        data = unpack_hook(packed)
        if not isinstance(data, _tensor_base.TensorBase):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but "
                            f"got result of type {type(data).__name__}")
        out = data.detach()
        if self.is_output and node is not None:
            return out._with_grad_fn(node, self.output_nr)
        value = self.value
        if value._grad_fn is not None:
            return out._with_grad_fn(value._grad_fn, value._output_nr)
        if value._requires_grad:
            out._requires_grad = True
            out._grad_acc = value._grad_acc  # the leaf's own AccumulateGrad
        return out


# Note [saved tensor hooks]
# torch lets a user replace a saved tensor by something packed (moved to disk, compressed):
# ``grad_fn._raw_saved_self.register_hooks(pack, unpack)`` calls ``pack`` on the tensor
# (detached, in no-grad mode) at once and keeps only its result; backward then reads
# ``unpack(packed)``, given the saved tensor's history (its grad_fn, or the leaf's
# AccumulateGrad), and checks no version: an in-place edit after packing no longer matters.
# One pair per saved tensor; a freed graph refuses them.


def type_string(t):
    """torch's legacy type name of a tensor: ``torch.FloatTensor``, ``torch.cuda.LongTensor``."""
    where = "torch.cuda." if t.is_cuda else "torch."
    return f"{where}{t.dtype.scalar_name}Tensor"

