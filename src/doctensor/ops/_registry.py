"""One op, declared once: the ``Op`` record and the class of its backward nodes.

A record is the whole op (DESIGN.md): its name and grad_fn name as torch 2.13 prints them,
a pure array ``forward(xp, *arrays, **attrs)``, a named ``backward(ctx, grad)`` written in
doctensor ops (so double backward works), what the backward reads (``saves``), how
arguments are promoted and checked, its NumPy ufunc, and the variants torch declares for it
(method, function, in-place).  ``ops/_dispatch.py`` runs records; every record is in
``REGISTRY``, which the tests turn into the op table.

``saves={"other": "self"}`` reads: save ``other`` when ``self`` requires grad (torch's
``derivatives.yaml``: the formula for ``self`` uses ``other``).  A saved name is an input's
or an output's (``result``); the users are one input name or a tuple of them.
"""

from types import MappingProxyType

import numpy as np

from .._argparser import NUMBERS_AS_TENSORS
from .._dtypes import _BY_NP, bool_, float64, int64
from .._signatures import FUNCTIONS, METHODS
from .._tensor_base import wrap
from ..autograd.graph import Node, SavedTensor, release_saved, unpack_saved
from ..backends import numpy_cpu
from ..device import CPU

__all__ = ["Op", "ViewOp", "declare", "view_op", "OpNode", "REGISTRY", "NO_ATTRS"]

REGISTRY = {}  # key (the grad_fn name, or the name of an op without one) -> Op
NO_ATTRS = MappingProxyType({})  # the attrs of a node whose op takes none (read-only)
_NOT_SAVED = object()
Tensor = None  # the Tensor class, installed by _dispatch.set_tensor_class


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
        raw = {f"_raw_saved_{n}" for n in self.op.saves}
        return sorted(set(super().__dir__()) | {f"_saved_{n}" for n in names} | raw)

    def _read_saved(self, name):
        """torch's ``grad_fn._saved_<name>``: None when the formula's users need no grad; a
        Python number saved as an input reads as the 0-d tensor torch wrapped it in."""
        saved = object.__getattribute__(self, "saved")
        if name in saved:
            value = unpack_saved(saved[name], self)
            if isinstance(value, (bool, int, float)):
                dtype = bool_ if isinstance(value, bool) else \
                    int64 if isinstance(value, int) else float64
                return wrap(Tensor, np.asarray(value, dtype.np), CPU, numpy_cpu)
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
        if grad is None or (self.multi and all(g is None for g in grads)) or all(
                fn is None for fn, _ in self.next_functions):  # (no edge: nothing to compute)
            return (None,) * len(self.next_functions)
        outs = self.op.backward(self, grad)
        fitted = None
        for i, meta in enumerate(self.input_meta):
            if meta is not None and (g := outs[i]) is not None and (
                    g._data.shape != meta[0] or g._data.dtype.char != meta[1]):
                if fitted is None:
                    fitted = list(outs)
                fitted[i] = _fit(self, i, g, meta)
        return outs if fitted is None else fitted

    def release(self):
        release_saved(self.saved)


_NO_EDGE = frozenset({"index", "indices", "mask", "pivots", "condition"})  # (no derivative)


def _fit(node, index, grad, meta):
    """Un-broadcast a gradient to its input's shape and cast it to the input's dtype: the
    one place gradients are un-broadcast; one that cannot be is torch's error (``index``:
    the input's position; torch's nodes have no edges for index and mask inputs, so its
    index counts the others only)."""
    shape, code = meta
    got = grad._data.shape
    if got != shape:
        lead = len(got) - len(shape)
        if lead < 0 or any(s not in (1, n) for s, n in zip(shape, got[lead:])):
            edge = sum(name not in _NO_EDGE for name in node.op.inputs[:index])
            raise RuntimeError(f"Function {type(node).__name__} returned an invalid gradient at "
                               f"index {edge} - got [{', '.join(map(str, got))}] but expected "
                               f"shape compatible with [{', '.join(map(str, shape))}]")
        grad = grad.sum_to_size(shape)
    if grad._data.dtype.kind == "c" and np.dtype(code).kind != "c":
        grad = grad.real  # a real input takes the real part (Note [conjugate Wirtinger])
    if grad._data.dtype != np.dtype(code):
        grad = grad.to(_BY_NP[np.dtype(code)])
    return grad


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


def _raw_saved_property(name):
    """torch's ``grad_fn._raw_saved_<name>``: the ``SavedTensor`` itself (Note [saved tensor
    hooks]); one holding None for a tensor the node did not save."""
    def get(node):
        saved = node.saved.get(name)
        return saved if saved.__class__ is SavedTensor else SavedTensor(None)
    return property(get)


def _names(value):
    """A variant or user list as a tuple of names (None: none)."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


# operands that doctensor never fills with a number itself (index_put's values it does)
_OPERAND_NAMES = frozenset(("other", "end", "tensor1", "tensor2"))


def _tensor_only(name, inputs):
    """The operands of ``name`` (``_OPERAND_NAMES``) that torch's parser takes as tensors only
    (``Tensor other`` in every signature that has it, no ``Scalar other``), so that a Python
    number there is refused (``igamma(2)``, ``lcm(0)``: ``_dispatch._check_operands`` raises,
    ``_argparser`` words the error)."""
    if name in NUMBERS_AS_TENSORS:
        return frozenset()
    kinds = {}
    for text in METHODS.get(name, ()) + FUNCTIONS.get(name, ()):
        for part in text.partition("(")[2].rpartition(")")[0].split(", "):
            kind, _, param = part.partition(" ")
            kinds.setdefault(param.partition("=")[0], set()).add(kind)
    return frozenset(n for n in inputs[1:] if n in _OPERAND_NAMES and kinds.get(n) == {"Tensor"})


class Op:
    """A declared op (see the module docstring).

    ``kind``: ``"pointwise"`` (operands broadcast, torch's TensorIterator layout),
    ``"view"`` (``forward`` is a geometry: ``ViewOp``) or None (a contiguous result, as torch
    allocates one).  ``promote``: None (arrays as they come), ``"common"`` (torch's
    result_type of the tensor and number operands) or ``"float"`` (that, with integers
    computed in the default float dtype); ``scalars`` names attrs that take part in it (pow's
    exponent).  ``layout``: ``"pointwise"`` (``"swapped"``: of the operands in reverse
    order), ``"contiguous"``, or the forward's own layout (``"forward"``; ``"strided"`` keeps
    even an empty result's strides).  A record with a
    ``ufunc`` has a forward that takes ``out=`` (the in-place fast write).  ``overlap``: what
    its in-place variant does to an expanded tensor (Note [writing into an expand]).
    """

    def __init__(self, name, grad_fn, forward, inputs=("self",), saves=None, *, outputs=None,
                 kind=None, promote=None, scalars=(), unpromoted=(), check=None, ufunc=None,
                 layout=None, device_attr=None, method=None, function=None, inplace=None,
                 unsaved=(), overlap="refuse"):
        self.name = name
        self.grad_fn = grad_fn
        self.forward = forward
        self.cpu_forward = forward  # Note [kernels by device]: on_cpu replaces it
        self.backward = None
        self.inputs = tuple(inputs)
        self.outputs = ("result",) if outputs is None else tuple(outputs)
        self.kind = kind
        self.promote = "common" if promote is None and kind == "pointwise" else promote
        self.scalars = tuple(scalars)
        self.unpromoted = tuple(unpromoted)  # inputs passed as they are (where's condition)
        self.tensor_only = _tensor_only(name, self.inputs)
        self.check = check  # check(*args, **attrs): torch's refusals, before anything else
        self.ufunc = ufunc  # the NumPy ufunc of the forward without attrs (the fast path)
        self.layout = layout or ("pointwise" if kind == "pointwise" else "contiguous")
        self.device_attr = device_attr  # the attr naming the result's device (_to_copy)
        self.method, self.function, self.inplace = (_names(v) for v in (method, function,
                                                                          inplace))
        self.unsaved = frozenset(unsaved)  # attrs torch's node does not keep: no _saved_<name>
        self.overlap = overlap  # in place on an expanded tensor: Note [writing into an expand]
        self.saves = {}
        plan = []  # (saved name, indices of its users, input index or -1 - output index)
        for saved, users in (saves or {}).items():
            self.saves[saved] = _names(users)
            where = self.inputs.index(saved) if saved in self.inputs else \
                -1 - self.outputs.index(saved)
            plan.append((saved, tuple(self.inputs.index(u) for u in _names(users)), where))
        self.save_inputs = tuple(p for p in plan if p[2] >= 0)
        self.save_outputs = tuple(p for p in plan if p[2] < 0)
        self._self_users = next((p[1] for p in plan if p[0] == "self"), ())
        n = len(self.outputs)
        self.node_cls = type(grad_fn or name, (OpNode,), {
            "__slots__": (), "op": self, "num_outputs": n, "multi": n != 1})
        if grad_fn == "NotImplemented":  # (torch's C++ node, named with its namespace)
            self.node_cls.name = lambda node: "torch::autograd::NotImplemented"
        self._node_classes = {n: self.node_cls}
        self.exposed = set()
        self.expose(self.saves)
        # keyed by grad_fn name; ops whose node torch names NotImplemented (no derivative) by
        # their own name
        key = name if grad_fn in (None, "NotImplemented") else grad_fn
        if key in REGISTRY:
            raise ValueError(f"op {key} is declared twice")
        REGISTRY[key] = self
        self.key = key

    def expose(self, names):
        """Give this op's nodes the attributes ``<name>`` and ``_saved_<name>`` (the dispatch
        calls it with the names of the attrs it sees)."""
        for name in names:
            if name not in self.exposed:
                self.exposed.add(name)
                if not hasattr(OpNode, name):
                    setattr(self.node_cls, name, _value_property(name))
                if name not in self.unsaved:
                    setattr(self.node_cls, f"_saved_{name}", _saved_attribute_property(name))
                if name in self.saves:
                    setattr(self.node_cls, f"_raw_saved_{name}", _raw_saved_property(name))

    def node_class(self, n):
        """The class of this op's nodes for ``n`` outputs (an op of several views makes as
        many as it is asked for), named as torch names them."""
        cls = self._node_classes.get(n)
        if cls is None:
            cls = self._node_classes[n] = type(self.node_cls.__name__, (self.node_cls,), {
                "__slots__": (), "num_outputs": n, "multi": n != 1 or not self.outputs})
        return cls

    def saves_self_for(self, inputs):
        """Whether this op saves its ``self`` for these inputs (a user requires grad): in
        place, that is a copy of ``self`` from before the write."""
        return any(getattr(inputs[i], "_requires_grad", False) for i in self._self_users)

    def def_backward(self, fn):
        """Decorator: attach the backward formula ``fn(ctx, grad) -> grads per input``."""
        self.backward = fn
        return fn

    def on_cpu(self, fn):
        """Decorator: the forward CPU tensors run instead of ``forward``, where torch's CPU
        kernel computes in an order of its own (Note [kernels by device])."""
        self.cpu_forward = fn
        return fn

    def __repr__(self):
        return f"<op {self.name} -> {self.grad_fn}>"


class ViewOp(Op):
    """A view op: ``forward(shape, strides, offset, **attrs)`` gives the new geometry (for an
    op of several views, ``outputs=()`` and a list of geometries).  ``tracks_base=False``:
    torch's ``_unsafe_view``, which shares memory but is no view to autograd."""

    def __init__(self, name, grad_fn, geometry, tracks_base=True, **kw):
        super().__init__(name, grad_fn, geometry, kind="view", **kw)
        self.tracks_base = tracks_base


def declare(name, grad_fn, inputs=("self",), **fields):
    """Decorator turning ``forward(xp, *arrays, **attrs)`` into an ``Op`` (fields: ``Op``)."""
    return lambda forward: Op(name, grad_fn, forward, inputs, **fields)


def view_op(name, grad_fn, **fields):
    """Decorator turning ``geometry(shape, strides, offset, **attrs)`` into a ``ViewOp``."""
    return lambda geometry: ViewOp(name, grad_fn, geometry, **fields)
