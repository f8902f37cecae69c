"""``torch.autograd.forward_ad``: dual tensors and forward-mode automatic differentiation.

Inside a ``dual_level()``, ``make_dual(x, v)`` gives a tensor that carries a tangent ``v``;
every op maps its inputs' tangents to its outputs' tangents, and ``unpack_dual(y)`` reads
``(y, J v)`` back::

    >>> with dual_level():
    ...     y = make_dual(torch.tensor([0.0, 1.0]), torch.ones(2)).sin()
    ...     unpack_dual(y).tangent
    tensor([1.0000, 0.5403])
"""

# Note [forward AD]
# doctensor declares no forward formula (no JVP per op).  Each op's record has a backward
# formula, the vector-Jacobian product  u -> J^T u,  written in doctensor ops: differentiable,
# and linear in u.  Transposing it once more gives the Jacobian-vector product:
#
#     s(u) = <J^T u, t> = <u, J t>      so      ds/du = J t
#
# (for complex tensors the real inner product Re<a, b>, which autograd's convention makes the
# gradient of a real s with respect to a complex u).  So for an op that meets a tangent,
# ``dual_apply`` runs the op as usual, then records the op's node once more, on aliases of its
# inputs and outputs with no history of their own (the dispatch's ``record``: the same node,
# the same saved values, no second forward), and asks autograd twice:
#
#     u (zeros, requires grad) ──► backward formula ──► g_i = J_i^T u
#     s = sum_i <g_i, t_i>     ──► autograd.grad(s, u) = sum_i J_i t_i
#
# Views are simpler: a view's tangent is the same view of its input's tangent (so the two keep
# sharing memory, as in torch).  An in-place op saves its ``self`` from before the write
# (a clone) for the node and writes the new tangent into the old one (``copy_``), so views of
# the same tangent see it; a view that had no tangent gets one from its base's, which is made
# (zeros laid out like the base's storage) when the base has none.  Tangents are laid out like
# their primal, as torch lays out the tangents make_dual and its formulas give.
#
# The dispatch asks ``LEVEL.on`` once per op: nothing else runs while no level is open.  The
# op's own computation runs with the level off (``_suspended``), so the ops autograd runs for
# the tangent do not propagate tangents themselves.  ``needs_grad`` also answers True for an
# input with a tangent, so that functions that pick a cheaper path when nothing needs a
# gradient (svdvals without the vectors) take the differentiable one.
#
# Where this differs from torch: a tangent is the transposed backward, so at the points where
# torch's forward formula and its backward formula disagree (a nan where the backward masks, a
# triangle read where the backward returns a full gradient) doctensor follows the backward;
# a tangent with history (Note [tangents with history]) has the double backward's nodes, not
# those of torch's formula, and requires grad only where it depends on an input that does
# (torch's, wherever its formula reads such an input); a tangent of another dtype than its
# primal is computed in the primal's dtype; and an op whose backward formula is not written
# in doctensor ops (no double backward) is refused, not given zeros.

import functools
import weakref
from typing import NamedTuple

from .._strides import is_non_overlapping_and_dense
from .._tensor_base import TensorBase
from .api import grad as autograd_grad
from .grad_mode import GradMode, enable_grad, no_grad, set_grad_enabled
from .graph import NO_EDGE, Node
from .views import gradient_edge, new_view

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]


class _Level:
    """The open dual level (-1: none) and the tensors given a tangent at it."""

    on = False  # the dispatch's one check: a level is open and not suspended
    current = -1
    duals = weakref.WeakValueDictionary()  # id -> each live tensor holding a tangent


LEVEL = _Level


class _suspended:
    """Run ops without propagating tangents (the op itself, and autograd's work for it)."""

    def __enter__(self):
        self.prev = LEVEL.on
        LEVEL.on = False

    def __exit__(self, *exc):
        LEVEL.on = self.prev


# -- levels --------------------------------------------------------------------------------------

def enter_dual_level():
    """Open a forward-AD level and return it (0: doctensor, like torch, supports one)."""
    if LEVEL.current >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    LEVEL.current = 0
    LEVEL.on = True
    return 0


def exit_dual_level(*, level=None):
    """Close the level: every tangent made at it is forgotten."""
    if level is None:
        level = LEVEL.current
    if level != LEVEL.current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    for t in list(LEVEL.duals.values()):
        t.__dict__.pop("_fw_tangent", None)
    LEVEL.duals.clear()
    LEVEL.current = level - 1
    LEVEL.on = False


class dual_level:
    """Context manager (and decorator) that opens a forward-AD level for its block."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)
        return wrapper


# -- tangents ------------------------------------------------------------------------------------

def tangent_of(t):
    """``t``'s tangent at the open level, or None; a view made before its base got a tangent
    takes the same part of the base's (as torch's views read it lazily)."""
    tangent = t.__dict__.get("_fw_tangent")
    if tangent is None and t._base is not None:
        base = t._base.__dict__.get("_fw_tangent")
        if base is not None and _same_meta(base, t._base):
            tangent = _part_like(base, t)
            _set(t, tangent)
    return tangent


def has_tangent(inputs):
    """Whether some tensor among ``inputs`` has a tangent."""
    return any(isinstance(a, TensorBase) and tangent_of(a) is not None for a in inputs)


def _set(t, tangent):
    t.__dict__["_fw_tangent"] = tangent
    LEVEL.duals[id(t)] = t


def _same_meta(a, b):
    """torch's has_same_meta: same sizes, strides, storage offset and storage size."""
    return (a._data.shape == b._data.shape and a.stride() == b.stride()
            and a.storage_offset() == b.storage_offset()
            and a.untyped_storage().nbytes() // a.element_size()
            == b.untyped_storage().nbytes() // b.element_size())


def _zeros_like_storage(t, dtype):
    """torch's _new_zeros_with_same_feature_meta: zeros over a storage as large as ``t``'s,
    with ``t``'s sizes, strides and offset."""
    numel = t.untyped_storage().nbytes() // t.element_size()
    flat = t.new_zeros((numel,), dtype=dtype)
    return flat.as_strided(t.shape, t.stride(), t.storage_offset())


def _part_like(base_tangent, view):
    """The part of a base's tangent (laid out like the base) that ``view`` is of the base."""
    offset = view.storage_offset() - view._base.storage_offset() + \
        base_tangent.storage_offset()
    return base_tangent.as_strided(view.shape, view.stride(), offset)


def _laid_out_like(tangent, primal):
    """The tangent with its primal's strides (a copy where they differ and the primal is
    non-overlapping and dense)."""
    strides = primal.stride()
    if tangent.stride() == strides or not is_non_overlapping_and_dense(primal.shape, strides):
        return tangent
    return tangent.new_empty_strided(primal.shape, strides).copy_(tangent)


# -- dual tensors --------------------------------------------------------------------------------

def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` that carries ``tangent`` (used as it is when laid out like
    ``tensor``, else copied into that layout)."""
    if level is None:
        level = LEVEL.current
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    for name, t in (("primal", tensor), ("tangent", tangent)):
        if not (t.is_floating_point() or t.is_complex()):
            raise ValueError(f"Expected {name} to be floating point or complex, but got: "
                             f"{t.dtype}")
    if level != LEVEL.current:
        raise RuntimeError("Invalid level given to _make_dual")
    if tangent_of(tensor) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"[{', '.join(map(str, tensor.shape))}] while the given forward gradient is of size "
            f"[{', '.join(map(str, tangent.shape))}].")
    with _suspended():
        dual = tensor.view(tensor.shape)
        if not _same_meta(tangent, dual):
            tangent = _zeros_like_storage(dual, tangent.dtype).copy_(tangent)
    _set(dual, tangent)
    return dual


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: the primal (a view) and the tangent (or None)."""

    primal: TensorBase
    tangent: TensorBase | None


class CppFunction(Node):
    """The grad_fn of ``unpack_dual``'s primal, torch's C++ node ``Identity`` (its Python type
    is ``CppFunction``; a tensor's repr shows it by ``name()``): the gradient passes through."""

    __slots__ = ()

    def name(self):
        return "torch::autograd::Identity"

    def apply(self, grads):
        return tuple(grads)


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor``: the primal a view of it without its tangent, the
    tangent as it is (None for a tensor without one, or outside a level)."""
    if level is None:
        level = LEVEL.current
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if not isinstance(tensor, TensorBase):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    if level != LEVEL.current:
        raise RuntimeError("Invalid level given to _fw_primal")
    primal = new_view(tensor, tensor.shape, tensor.stride(), tensor.storage_offset())
    if GradMode.enabled and tensor._requires_grad:
        edge = gradient_edge(tensor)
        if edge is not NO_EDGE:
            primal._grad_fn = CppFunction((edge,))
        primal._requires_grad = True
    return UnpackedDualTensor(primal, tangent_of(tensor))


# -- the dispatch's hooks: Note [forward AD] -------------------------------------------------------

def dual_apply(run, record, op, args, attrs):
    """``run(op, *args, **attrs)`` (the dispatch's ``apply``), its results given the tangents
    that follow from the tangents of ``args``."""
    tangents = [tangent_of(a) if isinstance(a, TensorBase) else None for a in args]
    with _suspended():
        result = run(op, *args, **attrs)
        if all(t is None for t in tangents):
            return result
        outputs = result if isinstance(result, tuple) else (result,)
        if op.kind == "view":
            viewed = run(op, tangents[0], **attrs)
            out_tangents = viewed if isinstance(viewed, tuple) else (viewed,)
        else:
            out_tangents = _jvp(record, op, args, outputs, attrs, tangents)
        for out, tangent in zip(outputs, out_tangents):
            if tangent is not None and not any(out is a for a in args):  # (not an input)
                _set(out, tangent if op.kind == "view" else _laid_out_like(tangent, out))
    return result


def dual_apply_(run, record, op, self, args, write, attrs):
    """``run(op, self, *args, write=write, **attrs)`` (the dispatch's ``apply_``), and
    ``self``'s tangent updated in place (Note [forward AD])."""
    tangents = [tangent_of(a) if isinstance(a, TensorBase) else None for a in (self, *args)]
    with _suspended():
        if all(t is None for t in tangents):
            return run(op, self, *args, write=write, **attrs)
        if op.name == "resize_" and tangents[0] is not None and not self.requires_grad:
            raise RuntimeError("cannot resize variables that has a forward grad")
        if op.kind == "view":  # transpose_ & co.: the tangent takes the same new geometry
            run(op, self, *args, write=write, **attrs)
            run(op, tangents[0], *args, **attrs)
            return self
        before = self.clone()  # (with its history in grad mode: Note [tangents with history])
        run(op, self, *args, write=write, **attrs)
        new = _jvp(record, op, (before, *args), (self,), attrs, tangents)[0]
        if new is None or not (self.is_floating_point() or self.is_complex()):
            return self
        old = tangents[0]
        if old is None:
            old = _new_tangent(self, new.dtype)
        with set_grad_enabled(new.requires_grad):
            old.copy_(new)
    return self


def _new_tangent(t, dtype):
    """A zero tangent for ``t``, which an in-place op is giving one: for a view, the part of
    its base's (the base gets a zero tangent if it has none)."""
    base = t._base
    if base is None:
        tangent = _zeros_like_storage(t, dtype)
    else:
        base_tangent = base.__dict__.get("_fw_tangent")
        if base_tangent is None or not _same_meta(base_tangent, base):
            base_tangent = _zeros_like_storage(base, dtype)
            if base.__dict__.get("_fw_tangent") is not None:
                with no_grad():
                    base_tangent.copy_(base.__dict__["_fw_tangent"])
            _set(base, base_tangent)
        tangent = _part_like(base_tangent, t)
    _set(t, tangent)
    return tangent


def _jvp(record, op, inputs, outputs, attrs, tangents):
    """The tangents of ``outputs`` (None for one that has none) from the ``tangents`` of
    ``inputs``, by the transpose of the op's backward formula (Note [forward AD])."""
    if op.backward is None:
        return (None,) * len(outputs)
    # Note [tangents with history]: in grad mode, a tangent is differentiable with respect to
    # the inputs that require grad (forward-over-reverse): the node is recorded on views of
    # them (one per operand: x * x has two), and the last gradient keeps its graph; other
    # inputs are aliases without history
    history = GradMode.enabled and any(
        isinstance(a, TensorBase) and a.requires_grad for a in (*inputs, *tangents))
    leaves = [a if not isinstance(a, TensorBase) else a.view_as(a) if history and
              a.requires_grad else _leaf(a, t is not None) for a, t in zip(inputs, tangents)]
    outs = tuple(None if o is None else o.detach() for o in outputs)
    with enable_grad():
        record(op, leaves, outs, attrs)
        live = [o for o in outs if o is not None and o._grad_fn is not None]
        if not live:
            return (None,) * len(outputs)
        us = [o.new_zeros(o.shape).requires_grad_() for o in live]
        wrt = [(leaf, t) for leaf, t in zip(leaves, tangents) if t is not None]
        jvps = _transposed(op, live, us, wrt, history)
    found = iter(u.new_zeros(u.shape) if j is None else j for u, j in zip(us, jvps))
    return tuple(None if o is None or o._grad_fn is None else next(found) for o in outs)


def _transposed(op, outputs, us, wrt, history):
    """d/du sum_i <g_i(u), t_i> for the vjps g_i = J_i^T u of ``outputs`` at cotangents ``us``
    with respect to the inputs of ``wrt`` ((input, tangent) pairs): the jvps J t, or None for
    an output whose jvp is zero; ``history``: the jvps keep their graph)."""
    inputs = [leaf for leaf, _ in wrt]
    vjps = autograd_grad(outputs, inputs, us, create_graph=True, allow_unused=True)
    if any(g is not None and not g.requires_grad for g in vjps):
        _check_differentiable(op, outputs, inputs, vjps)
    s = None
    for g, (_, t) in zip(vjps, wrt):
        if g is not None:
            term = (g.conj() * t).real.sum() if g.is_complex() else (g * t).sum()
            s = term if s is None else s + term
    if s is None or not s.requires_grad:
        return [None] * len(us)
    return autograd_grad(s, us, allow_unused=True, create_graph=history)


def _check_differentiable(op, outputs, inputs, vjps):
    """A vjp without history is a formula's constant zero (``zeros_like(grad)``), or a formula
    not written in differentiable ops, whose tangent would silently be zero: those give a
    nonzero vjp for a cotangent of ones, and are refused."""
    ones = [o.new_ones(o.shape) for o in outputs]
    probe = autograd_grad(outputs, inputs, ones, retain_graph=True, allow_unused=True)
    for g, p in zip(vjps, probe):
        if g is not None and not g.requires_grad and p is not None and bool((p != 0).any()):
            raise NotImplementedError(
                f"doctensor: forward AD through {op.name} needs a backward formula written in "
                f"differentiable ops, which {op.key}'s is not")


def _leaf(t, tracked):
    """An alias of ``t`` without history; a leaf that requires grad when ``tracked``."""
    alias = t.detach()
    return alias.requires_grad_() if tracked else alias
