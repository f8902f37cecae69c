"""One op, declared once: ``Op`` records and the single ``apply`` that runs them.

An op record holds its name, its grad_fn name as torch 2.13 prints it, a pure array
``forward(xp, *arrays, **attrs)``, a ``backward(ctx, grad)`` written in doctensor ops (so
double backward works), and ``saves``: which inputs/results its backward reads, keyed by
the inputs whose gradient needs them (torch saves ``other`` for ``mul`` only when ``self``
requires grad).  Eager mode, autograd and in-place variants all go through ``record()``.
"""

from types import MappingProxyType

import numpy as np

from .._dtypes import _BY_NP
from .._tensor_base import INFERENCE, empty_strides
from ..autograd.grad_mode import GradMode
from ..autograd.graph import NO_EDGE, Node, SavedTensor, gradient_edge, release_saved, unpack_saved

__all__ = ["zeros_like", "zero_gradient", "Op", "declare", "OpNode", "record", "recorded",
           "wrap_result", "Tensor"]

# The Tensor class (layer 6) registers itself here so that ops can wrap their results.
Tensor = None


def set_tensor_class(cls):
    global Tensor
    Tensor = cls


class OpNode(Node):
    """The backward node of an op; ``ctx`` for its backward formula.

    What the op saved and its attrs read as attributes (``ctx.self``, ``ctx.dim``), and as
    torch's ``grad_fn._saved_self``, ``grad_fn._saved_dim``: properties of the op's node class
    (``Op.expose``).  Properties, not a ``__getattr__``: a class with ``__getattr__`` makes
    every attribute read of its instances slow (the engine reads nodes all the time).
    """

    __slots__ = ("saved", "attrs", "input_meta")
    op = None
    num_outputs = 1
    multi = False

    @property
    def needs_input_grad(self):
        """Per input, whether it requires grad: whether its edge leads to a node."""
        return tuple([fn is not None for fn, _ in self.next_functions])

    def __dir__(self):
        # torch lists what a node saved as _saved_<name> (introspection only, off the hot path)
        names = (set(self.op.saves) | set(object.__getattribute__(self, "attrs") or ())) - \
            self.op.unsaved
        return sorted(set(super().__dir__()) | {f"_saved_{n}" for n in names})

    def _read_saved(self, name):
        """torch's ``grad_fn._saved_<name>``: None when the formula's users need no grad; a
        Python number saved as an input reads as the 0-d tensor torch wrapped it in."""
        saved = object.__getattribute__(self, "saved")
        if name in saved:
            value = unpack_saved(saved[name], self)
            if isinstance(value, (bool, int, float)):
                from .._dtypes import bool_, float64, int64
                from .creation import tensor
                dtype = bool_ if isinstance(value, bool) else \
                    int64 if isinstance(value, int) else float64
                return tensor(value, dtype=dtype)
            return value
        if name in self.op.saves:
            return None
        try:
            return object.__getattribute__(self, "attrs")[name]
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 f"'_saved_{name}'") from None

    def apply(self, grads):
        grad = grads if self.multi else grads[0]
        if grad is None or (self.multi and all(g is None for g in grads)):
            return (None,) * len(self.next_functions)
        outs = self.op.backward(self, grad)
        fitted = None
        for i, meta in enumerate(self.input_meta):
            if meta is not None and (g := outs[i]) is not None and (
                    g._data.shape != meta[0] or g._data.dtype.char != meta[1]):
                if fitted is None:
                    fitted = list(outs)
                fitted[i] = _fit(g, meta)
        return outs if fitted is None else fitted

    def release(self):
        release_saved(self.saved)


def _fit(grad, meta):
    """Un-broadcast a gradient to its input's shape and cast it to the input's dtype."""
    shape, code = meta
    if grad._data.shape != shape:
        grad = grad.sum_to_size(shape)
    if grad._data.dtype != np.dtype(code):
        grad = grad.to(_BY_NP[np.dtype(code)])
    return grad


_NOT_SAVED = object()


def _value_property(name):
    """``ctx.<name>``: the saved value (checked against its version: Note [saved tensors]), or
    else the attr of that name."""
    def get(node):
        saved = node.saved.get(name, _NOT_SAVED)
        if saved is not _NOT_SAVED:
            return unpack_saved(saved, node)
        try:
            return node.attrs[name]
        except KeyError:
            raise AttributeError(f"'{type(node).__name__}' object has no attribute "
                                 f"'{name}'") from None
    return property(get)


def _saved_attribute_property(name):
    """torch's ``grad_fn._saved_<name>`` (``OpNode._read_saved``)."""
    return property(lambda node: node._read_saved(name))


_NO_ATTRS = MappingProxyType({})  # the attrs of a node whose op takes none (read-only)


class Op:
    """A declared op (see the module docstring)."""

    def __init__(self, name, grad_fn, forward, inputs, saves, num_outputs=1):
        self.name = name
        self.grad_fn = grad_fn
        self.forward = forward
        self.inputs = inputs
        self.saves = saves or {}
        self.backward = None
        self.check = None  # optional check(args) run before anything else (torch's refusals)
        self.contiguous_out = False  # True: the result is contiguous, whatever the inputs
        self.ufunc = None  # the NumPy ufunc forward is without attrs (pointwise.binary's fast path)
        self.unsaved = frozenset()  # attrs torch's node does not keep: no _saved_<name>
        # per saved name: the inputs whose gradient reads it, and what to save (an input's
        # index, or None for the result)
        self.save_plan = tuple((saved, tuple(users), None if saved == "result" else
                                inputs.index(saved)) for saved, users in self.saves.items())
        self.node_cls = type(grad_fn or name, (OpNode,), {
            "__slots__": (), "op": self, "num_outputs": num_outputs,
            "multi": num_outputs != 1})
        self.exposed = set()
        self.expose(self.saves)

    def expose(self, names):
        """Give this op's nodes the attributes ``<name>`` and ``_saved_<name>`` (``record``
        calls it with the names of the attrs it sees)."""
        for name in names:
            if name not in self.exposed:
                self.exposed.add(name)
                if not hasattr(OpNode, name):
                    setattr(self.node_cls, name, _value_property(name))
                if name not in self.unsaved:
                    setattr(self.node_cls, f"_saved_{name}", _saved_attribute_property(name))

    def def_backward(self, fn):
        """Decorator: attach the backward formula ``fn(ctx, grad) -> grads per input``."""
        self.backward = fn
        return fn

    def __repr__(self):
        return f"<op {self.name} -> {self.grad_fn}>"


def declare(name, grad_fn, inputs=("self",), saves=None, num_outputs=1):
    """Decorator turning ``forward(xp, *arrays, **attrs)`` into an ``Op``.

    ``saves`` maps a saved name (an input name or ``"result"``) to the indices of the
    inputs whose gradient formula reads it.
    """
    def wrap(forward):
        return Op(name, grad_fn, forward, inputs, saves, num_outputs)
    return wrap


def wrap_result(data, like):
    """A fresh tensor owning ``data``, on ``like``'s device."""
    if not data.size:
        data = empty_strides(data, force=True)
    t = object.__new__(Tensor)
    t._data = data
    t._device = like._device
    t._backend = like._backend
    if INFERENCE.on:
        t._inference = True  # Note [inference mode]
    return t


def recorded(op, inputs, out, attrs=None):
    """``out`` as the fresh result of ``op`` on ``inputs`` (on the device of the first, a
    tensor), with the op's node when one of them requires grad."""
    result = wrap_result(out, inputs[0])
    if needs_grad(inputs):
        record(op, inputs, (result,), attrs)
    return result


def zeros_like(t):
    """Fresh zeros shaped like ``t``: what torch's formulas give for a constant's gradient
    (``grad * 0`` would turn negative gradients into -0., which prints differently)."""
    return wrap_result(t._backend.xp.zeros_like(t._data), t)


def zero_gradient(ctx, grad):
    """The backward of an op whose output does not depend on its input (sign, round, the
    random fills): zeros."""
    return (zeros_like(grad),)


def needs_grad(inputs):
    """True when grad mode is on and some tensor input requires grad."""
    if not GradMode.enabled:
        return False
    for t in inputs:
        if t.__class__ is not float and t.__class__ is not int and getattr(
                t, "_requires_grad", False):
            return True
    return False


def record(op, inputs, outputs, attrs=None, originals=None):
    """Attach ``op``'s backward node to ``outputs`` (call only when ``needs_grad``).

    ``originals`` maps saved input names to values to save instead of the live input (an
    in-place op saves a clone of ``self`` from before it wrote).
    """
    edges = []
    meta = []
    for t in inputs:
        if isinstance(t, Tensor) and t._requires_grad:
            fn = t._grad_fn  # gradient_edge's common case inline: a result, no view
            edges.append((fn, t._output_nr) if fn is not None and t._view_version is None
                         else gradient_edge(t))
            meta.append((t._data.shape, t._data.dtype.char))  # untracked by the collector
        else:
            edges.append(NO_EDGE)
            meta.append(None)
    node = op.node_cls(tuple(edges))
    node.input_meta = tuple(meta)  # a tuple: the garbage collector stops tracking it
    if attrs is None:
        node.attrs = _NO_ATTRS
    else:
        node.attrs = attrs
        if not op.exposed.issuperset(attrs):
            op.expose(attrs)
    saved = {}
    for name, users, index in op.save_plan:
        for i in users:
            if edges[i] is not NO_EDGE:
                break
        else:
            continue  # no input whose gradient formula reads it requires grad
        if index is None:
            saved[name] = SavedTensor(outputs[0], is_output=True)
        elif originals and name in originals:
            saved[name] = SavedTensor(originals[name])
        else:
            value = inputs[index]
            saved[name] = SavedTensor(value) if isinstance(value, Tensor) else value
    node.saved = saved
    for i, out in enumerate(outputs):
        if out is not None:
            out._grad_fn = node
            out._requires_grad = True
            out._output_nr = i
    return node
