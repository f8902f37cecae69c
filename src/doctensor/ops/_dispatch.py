"""The one dispatch: ``apply`` runs an op record out of place, ``apply_`` in place.

They are the only code that wraps results, records backward nodes, bumps versions and
rebases history, in torch's order::

    apply(op, *args, **attrs)                 apply_(op, self, *args, write=None, **attrs)
      op.check                                  op.check, autograd's check_inplace
      devices, broadcasting, promotion          devices, overlap, broadcasting, casting
      op's forward on the device's xp           the node (edges, saved inputs) ... before
      the result's layout, wrapped              the write, the version bump (raises for an
      the node, when an input requires grad     inference tensor: Note [inference mode])
                                                history rebased (CopySlices for a view)

A view op (``kind="view"``) makes its result from a geometry over the same storage, tracked
by ``autograd/views.py``; in place (``transpose_``) it changes the tensor's own geometry.
"""

import contextvars
import numbers
import threading
import warnings
import weakref

import numpy as np

from .._argparser import type_name
from .._dtypes import _BY_NP, can_cast, get_default_dtype, result_type
from .._strides import broadcast_shapes, is_non_overlapping_and_dense
from .._tensor_base import INFERENCE, TensorBase, empty_strides
from ..autograd.forward_ad import LEVEL as DUAL
from ..autograd.forward_ad import dual_apply, dual_apply_, has_tangent
from ..autograd.grad_mode import GradMode
from ..autograd.graph import NO_EDGE, SavedTensor
from ..autograd.views import (
    alias_view,
    check_inplace,
    gradient_edge,
    new_view,
    rebase_history,
    track_views,
)
from ..backends import for_device, numpy_cpu
from . import _registry
from ._layout import contiguous, pointwise_layout
from ._registry import NO_ATTRS

__all__ = ["apply", "apply_", "as_number", "binary", "set_tensor_class", "needs_grad",
           "autograd_check_", "read_histories", "promote", "scalar_as", "check_same_device",
           "check_broadcast", "check_overlap", "check_partial_overlap", "QUIET"]

Tensor = None  # the Tensor class (tensor.py installs it: set_tensor_class)


def set_tensor_class(cls):
    """Install the Tensor class that results are made of (layer 6 defines it)."""
    global Tensor
    Tensor = _registry.Tensor = cls


# Note [floating-point errors]
# torch computes inf and nan silently; NumPy warns (overflow, invalid, divide by zero) unless
# its error state says "ignore".  That state is one context variable; ``np.errstate`` sets it
# and costs about 1.5 us in NumPy 2.4, three times a small add, and even a bare ``set`` /
# ``reset`` of the variable costs half an add (each ``set`` copies the context's mapping).
# So each thread keeps one ``contextvars.Context`` in which the variable says "ignore", and
# forwards run inside it: ``QUIET.run(np.add, x, y)`` costs one C call more than
# ``np.add(x, y)``.  Nothing but NumPy's state differs in that context, and it is never
# entered twice at once: forwards are pure array functions that read no other context
# variable and call no doctensor op.
try:
    from numpy._core._ufunc_config import _extobj_contextvar as FP_STATE
    with np.errstate(all="ignore"):
        FP_IGNORE = FP_STATE.get()
except ImportError:  # a NumPy without that variable: np.seterr sets the same state, slower
    class FP_STATE:
        set = staticmethod(lambda _: np.seterr(all="ignore"))
        reset = staticmethod(lambda old: np.seterr(**old))
    FP_IGNORE = None


class _Quiet(threading.local):
    """Per thread: ``run(fn, *args)`` calls ``fn`` with NumPy's floating-point errors ignored."""

    def __init__(self):
        if FP_IGNORE is None:
            self.run = _run_ignoring
        else:
            context = contextvars.Context()
            context.run(FP_STATE.set, FP_IGNORE)
            self.run = context.run


def _run_ignoring(fn, *args, **kwargs):
    token = FP_STATE.set(FP_IGNORE)
    try:
        return fn(*args, **kwargs)
    finally:
        FP_STATE.reset(token)


QUIET = _Quiet()


# -- operands: devices, broadcasting, promotion --------------------------------------------------

def check_same_device(tensors):
    """torch's error when tensors on different devices meet (0-d CPU tensors may join)."""
    dev = tensors[0]._device
    for t in tensors[1:]:
        if t._device != dev:
            if t._device.type == "cpu" and t._data.ndim == 0:
                continue
            if dev.type == "cpu" and tensors[0]._data.ndim == 0:
                dev = t._device
                continue
            raise RuntimeError("Expected all tensors to be on the same device, but found at "
                               f"least two devices, {dev} and {t._device}!")
    return dev


def check_broadcast(tensors):
    """torch's message when operand shapes do not broadcast (NumPy's would differ)."""
    shape = tensors[0]._data.shape
    for t in tensors[1:]:
        if t._data.shape != shape:
            shape = broadcast_shapes(shape, t._data.shape)


def promote(args):
    """The dtype torch computes ``args`` (tensors and Python numbers) in."""
    if len(args) == 2:
        a, b = args
        if isinstance(a, TensorBase) and isinstance(b, TensorBase) and \
                a._data.dtype == b._data.dtype:
            return _BY_NP[a._data.dtype]
    tensors = [a for a in args if isinstance(a, TensorBase)]
    return result_type(tensors, [a for a in args if not isinstance(a, TensorBase)])


def scalar_as(value, dtype):
    """A Python number as a NumPy scalar of an integer ``dtype``, wrapping like a C cast (torch
    casts ``alpha``, ``min``, ``max`` to the computation type); other dtypes: unchanged."""
    if dtype.kind in "iu" and isinstance(value, int):
        return np.array(value).astype(dtype)[()]
    return value


def _to_array(value, dt, like):
    """``value`` (tensor or Python number) as an array or scalar of dtype ``dt`` on ``like``'s
    backend (a 0-d tensor of another device comes along, as torch lets it)."""
    if isinstance(value, TensorBase):
        data = value._data
        if value._device is not like._device and data.ndim == 0:
            data = like._backend.xp.asarray(value._backend.to_host(data))
        return data if data.dtype == dt.np else data.astype(dt.np)
    if dt.category == 1 and not isinstance(value, bool):
        return np.array(int(value)).astype(dt.np)[()]  # wraps around like a C cast
    return dt.np.type(value)


# what a promoting op takes besides tensors: numbers, NumPy's scalars among them.  A NumPy
# array is refused, as torch's parser refuses it (Note [NumPy operands] in tensor.py)
_OPERANDS = (TensorBase, numbers.Number, np.generic)


def _check_operands(op, args, attrs, fname=None):
    """torch's TypeError for an operand that is neither a tensor nor a number (a string, a
    list; None for ``other``, where optional inputs such as ``weight`` may be None), before
    NumPy would read it (``fname``: the name called, ``op.name``'s)."""
    fname = fname or op.name
    for i, (a, name) in enumerate(zip(args, op.inputs)):
        if not isinstance(a, _OPERANDS) and (a is not None or name == "other"):
            raise TypeError(f"{fname}(): argument '{name}' (position {i}) must be Tensor, "
                            f"not {type_name(a)}")
    if op.tensor_only:  # a number where torch's parser takes a tensor only (Op.tensor_only)
        for i, (a, name) in enumerate(zip(args, op.inputs)):
            if name in op.tensor_only and a is not None and not isinstance(a, TensorBase):
                raise TypeError(f"{fname}(): argument '{name}' (position {i}) must be Tensor, "
                                f"not {type(a).__name__}")
    for name in op.scalars:
        value = attrs.get(name)
        if value is not None and not isinstance(value, _OPERANDS):
            raise TypeError(f"{fname}(): argument '{name}' must be Number, not "
                            f"{type(value).__name__}")


def as_number(value):
    """A NumPy scalar as the Python number torch's parser reads it as (``np.bool_``: a float,
    as torch's Scalar takes it); anything else unchanged."""
    if isinstance(value, np.generic):
        return float(value) if isinstance(value, np.bool_) else value.item()
    return value


def _operands(op, args, attrs):
    """(the dtype computed in, the forward's arguments) for ``op``'s promotion rule; NumPy
    scalars among ``args`` and ``op.scalars`` are read as Python numbers (``attrs`` is
    updated)."""
    _check_operands(op, args, attrs)
    for a in args:
        if isinstance(a, np.generic):
            args = [as_number(a) for a in args]
            break
    for name in op.scalars:
        if isinstance(attrs.get(name), np.generic):
            attrs[name] = as_number(attrs[name])
    if op.promote is None:
        return None, [a._data if isinstance(a, TensorBase) else a for a in args]
    kept = op.unpromoted
    promoted = args if not kept else [a for a, n in zip(args, op.inputs) if n not in kept]
    promoted = [a for a in promoted if a is not None]  # (an optional input not given)
    if op.scalars:
        promoted = tuple(promoted) + tuple(attrs[k] for k in op.scalars
                                           if attrs.get(k) is not None)
    dt = promote(promoted)
    if op.promote == "float" and dt.category < 2:  # (complex stays complex)
        dt = get_default_dtype()
    first = next(a for a in args if isinstance(a, TensorBase))
    if not kept:
        return dt, [None if a is None else _to_array(a, dt, first) for a in args]
    return dt, [a._data if n in kept else None if a is None else _to_array(a, dt, first)
                for a, n in zip(args, op.inputs)]


# Note [kernels a dtype lacks]
# torch 2.13's uint16, uint32 and uint64 ("barebones" unsigned types) have CPU kernels for
# copies, views, fills, casts, equality, the bitwise and/or/xor, sums, sorting and a few more;
# the other ops refuse them, naming their kernel.  Complex tensors are refused by the ops of
# order (max, sort, clamp, ...) and the real-only functions.  Those refusals, by record key
# (only the records doctensor has), for the dtype an op computes in: a kernel's name for
# torch's NotImplementedError('"<kernel>" not implemented for ...'), or torch's own error.
_BAREBONES = frozenset(np.dtype(n) for n in ("uint16", "uint32", "uint64"))
_BAREBONES_KERNELS = {
    **dict.fromkeys(("AddBackward0", "SubBackward0", "RsubBackward0", "RsubBackward1"),
                    "add_stub"),
    "NegBackward0": "neg_cpu", "AbsBackward0": "abs_cpu", "SignBackward0": "sign_cpu",
    **{key: f"{name}_cpu" for name in ("lt", "le", "gt", "ge")
       for key in (name, f"{name.capitalize()}Backward0", f"{name.capitalize()}Backward1")},
    "MaxBackward1": "max_all", "MaxBackward0": "max_cpu", "MinBackward1": "min_all",
    "MinBackward0": "min_cpu", "argmax": "argmax_cpu", "argmin": "argmin_cpu",
    "MedianBackward0": "median_cpu", "MedianBackward1": "median_cpu",
    "bitwise_not": "bitwise_not_cpu", "ClampBackward1": "clamp_scalar_cpu",
    "ClampMinBackward0": "clamp_min_scalar_cpu", "ReluBackward0": "clamp_min_scalar_cpu",
    "ClampMaxBackward0": "clamp_max_scalar_cpu", "MaximumBackward0": "maximum_cpu",
    "MinimumBackward0": "minimum_cpu", "floor_divide": "div_floor_cpu",
    "RemainderBackward0": "remainder_cpu", "RemainderBackward1": "remainder_cpu",
    **dict.fromkeys(("PowBackward0", "PowBackward1", "PowBackward2"), "pow"),
    "IndexSelectBackward0": "index_select", "FlipBackward0": "flip_cpu",
    "MaskedFillBackward0": "masked_fill", "MaskedFillBackward1": "masked_fill",
    "nonzero": "nonzero_count_cpu", "MmBackward0": "addmm_impl_cpu_",
    "MvBackward0": "addmv_impl_cpu", "BmmBackward0": "bmm", "DotBackward0": "dot",
    "GatherBackward0": "scatter_gather_tensor_cpu", "TrilBackward0": "tril",
    "TriuBackward0": "triu", "TopkBackward0": "topk_cpu",
}
_COMPLEX_KERNELS = {
    "MaxBackward1": "max_all", "MinBackward1": "min_all",
    "MaxBackward0": RuntimeError("max(): does not support complex input"),
    "MinBackward0": RuntimeError("min(): does not support complex input"),
    "argmax": RuntimeError("argmax(): does not support complex input"),
    "argmin": RuntimeError("argmin(): does not support complex input"),
    "AmaxBackward0": "max_values_cpu", "AminBackward0": "min_values_cpu",
    "MedianBackward0": "median_cpu", "MedianBackward1": "median_out",
    "KthvalueBackward0": "kthvalue_cpu", "CummaxBackward0": "cummax_cpu",
    "CumminBackward0": "cummin_cpu",
    **dict.fromkeys(("SortBackward0", "SortBackward1"),
                    RuntimeError(" Sort does not support complex dtypes on CPU")),
    "TopkBackward0": RuntimeError(" topk does not support complex dtypes on CPU"),
    "MaximumBackward0": RuntimeError("maximum not implemented for complex tensors."),
    "MinimumBackward0": RuntimeError("minimum not implemented for complex tensors."),
    "floor_divide": "div_floor_cpu", "RemainderBackward0": "remainder_cpu",
    "RemainderBackward1": "remainder_cpu", "FmodBackward0": "fmod_cpu",
    "FmodBackward1": "fmod_cpu", "Atan2Backward0": "atan2_cpu", "ErfBackward0": "erf_vml_cpu",
    "ErfcBackward0": "erfc_vml_cpu",
}


# the kernels of integers and bools only, refused for a floating dtype computed in (after the
# promotion, and in place after its cast check, as torch's kernels are)
_INTEGER_KERNELS = {name: f"{name}_cpu" for name in ("bitwise_and", "bitwise_or", "bitwise_xor")}


def _check_kernel(op, np_dtype):
    """torch's refusal of an op computed in a dtype its kernel lacks (Note [kernels a dtype
    lacks])."""
    if np_dtype.kind == "c":
        refusal = _COMPLEX_KERNELS.get(op.key)
    elif np_dtype in _BAREBONES:
        refusal = _BAREBONES_KERNELS.get(op.key)
    elif np_dtype.kind in "fV":  # (V: bfloat16)
        refusal = _INTEGER_KERNELS.get(op.key)
    else:
        return
    if isinstance(refusal, str):
        raise NotImplementedError(f'"{refusal}" not implemented for '
                                  f"'{_BY_NP[np_dtype].scalar_name}'")
    if refusal is not None:
        raise type(refusal)(*refusal.args)


def needs_grad(inputs):
    """True when grad mode is on and some tensor input requires grad (or, in a dual level,
    has a tangent: forward AD needs the differentiable path too, Note [forward AD])."""
    if DUAL.on and has_tangent(inputs):
        return True
    if not GradMode.enabled:
        return False
    for t in inputs:
        if t.__class__ is not float and t.__class__ is not int and getattr(
                t, "_requires_grad", False):
            return True
    return False


def read_histories(args):
    """Autograd reads the history of each view among ``args`` (regenerating it, or refusing a
    view whose base was edited in place: a multi-output or no_grad view raises here) before
    the kernel checks its arguments, as torch does; ops that check their arguments before
    ``apply`` call this first."""
    if GradMode.enabled:
        for a in args:
            if isinstance(a, TensorBase) and a._creation_meta is not None and a._requires_grad:
                gradient_edge(a)


def autograd_check_(self, *operands):
    """Autograd's refusal of an in-place op on ``self`` (a leaf that requires grad, a view
    whose history may not be rebased: ``check_inplace``), made whenever an operand requires
    grad in grad mode, whatever ``self``'s dtype: torch's autograd layer runs before its
    kernel, so this error comes before any of the op's own (``apply_`` makes it; ops that
    check their arguments before ``apply_`` call this first)."""
    if needs_grad((self, *operands)):
        check_inplace(self)


# -- results and their nodes ---------------------------------------------------------------------

def _wrap(data, like):
    """A fresh tensor owning the array ``data``, on ``like``'s device."""
    t = object.__new__(Tensor)
    t._data = data
    t._device = like._device
    t._backend = like._backend
    if INFERENCE.on:
        t._inference = True  # Note [inference mode]
    return t


def _node(op, inputs, attrs, originals=None, num_outputs=None):
    """``op``'s backward node for ``inputs``: its edges (read before any write) and the inputs
    its formulas read, at their current versions (Note [saved tensors]).  ``originals`` maps
    a saved input's name to what to save instead (an in-place op saves a clone of ``self``
    from before it wrote)."""
    edges = []
    meta = []
    for t in inputs:
        if isinstance(t, TensorBase) and t._requires_grad:
            fn = t._grad_fn  # gradient_edge's common case inline: a result, no view
            edges.append((fn, t._output_nr) if fn is not None and t._view_version is None
                         else gradient_edge(t))
            meta.append((t._data.shape, t._data.dtype.char))  # untracked by the collector
        else:
            edges.append(NO_EDGE)
            meta.append(None)
    cls = op.node_cls if num_outputs is None else op.node_class(num_outputs)
    node = cls(tuple(edges))
    node.input_meta = tuple(meta)  # a tuple: the garbage collector stops tracking it
    if attrs:
        node.attrs = attrs
        if not op.exposed.issuperset(attrs):
            op.expose(attrs)
    else:
        node.attrs = NO_ATTRS
    saved = {}
    for name, users, index in op.save_inputs:
        for i in users:
            if edges[i] is not NO_EDGE:
                value = originals[name] if originals and name in originals else inputs[index]
                saved[name] = SavedTensor(value) if isinstance(value, TensorBase) else value
                break
    node.saved = saved
    return node


# the NumPy kinds of differentiable dtypes: floating, complex, and "V" for ml_dtypes' bfloat16
DIFFERENTIABLE = "fcV"


def _give_history(node, outputs):
    """The floating and complex outputs of ``node``'s op take it as their grad_fn."""
    for i, out in enumerate(outputs):
        if out is not None and out._data.dtype.kind in DIFFERENTIABLE:
            out._grad_fn = node
            out._requires_grad = True
            out._output_nr = i


def _save_outputs(node, op, outputs, view_fn=None):
    """The outputs the formulas read, saved once the outputs are final (Note [saved
    tensors]): a differentiable one without its grad_fn, re-attached when unpacked.
    ``view_fn``: the grad_fn of a view written in place, which errors name (Note
    [CopySlices])."""
    for name, users, index in op.save_outputs:
        for i in users:
            if node.next_functions[i][0] is not None:
                out = outputs[-1 - index]
                saved = node.saved[name] = SavedTensor(out, is_output=out._grad_fn is not None)
                if view_fn is not None:
                    saved.view_fn = weakref.ref(view_fn)
                break


def _record(op, inputs, outputs, attrs):
    node = _node(op, inputs, attrs, num_outputs=len(outputs))
    _give_history(node, outputs)
    if op.save_outputs:
        _save_outputs(node, op, outputs)


# -- apply ---------------------------------------------------------------------------------------

_FLOAT_DTYPES = frozenset(map(np.dtype, ("float16", "float32", "float64")))
_ndarray = np.ndarray


def apply(op, *args, **attrs):
    """Run ``op`` out of place on ``args`` (tensors, Python numbers, None) and record its node
    when an input requires grad in grad mode; returns the result (a tuple for several)."""
    if DUAL.on:  # a dual level is open: tangents follow (Note [forward AD])
        return dual_apply(apply, _record, op, args, attrs)
    if op.kind == "view":
        return _view(op, args[0], attrs)
    return _apply(op, args, attrs)


def binary(op, operator=True):
    """``Tensor.__add__`` & co.: ``apply(op, self, other)`` for an op with a NumPy ufunc, with
    a fast path.  An ``operator`` gives Python NotImplemented for an operand that is neither
    a tensor nor a number (Python's TypeError follows, as torch's operators do); a method
    (``operator=False``) raises torch's TypeError.

    Note [fast path]: on a floating CPU tensor and a Python number or a CPU tensor of the same
    dtype and shape, the op is one ufunc call: the dtype is the tensor's (no promotion: NumPy
    converts a Python number to the array's dtype, as torch does), nothing broadcasts (no
    shape check) and NumPy lays the result out as torch does (1-d or C-contiguous inputs;
    with a number, no dim of size 1: Note [output layout]).
    The checks of such ops only refuse bool operands, which never get here.  Grad mode,
    inference mode and history are handled as in ``_apply``.
    """
    ufunc = op.ufunc

    def method(self, other):
        if DUAL.on and isinstance(other, _OPERANDS):  # Note [forward AD]
            return dual_apply(apply, _record, op, (self, other), NO_ATTRS)
        x = self._data
        if x.dtype in _FLOAT_DTYPES and self._backend is numpy_cpu and (
                (flat := x.ndim < 2) or x.flags.c_contiguous):
            cls = other.__class__
            if (cls is float or cls is int) and (flat or 1 not in x.shape):
                out = QUIET.run(ufunc, x, other)  # Note [floating-point errors]
                grad = self._requires_grad and GradMode.enabled
            elif isinstance(other, TensorBase) and other._backend is numpy_cpu and (
                    (y := other._data).dtype is x.dtype and y.shape == x.shape
                    and (flat or y.flags.c_contiguous)):
                out = QUIET.run(ufunc, x, y)
                grad = (self._requires_grad or other._requires_grad) and GradMode.enabled
            elif operator and not isinstance(other, _OPERANDS):
                return NotImplemented
            else:
                return _apply(op, (self, other), NO_ATTRS)
            if out.__class__ is not _ndarray:  # NumPy gives 0-d results as scalars
                out = np.asarray(out)
            elif not out.size:  # with a number: Note [output layout], in x's order
                out = empty_strides(out, force=True) if flat or isinstance(
                    other, TensorBase) else pointwise_layout(np, out, [x], True)
            result = object.__new__(Tensor)  # _wrap(out, self), inlined
            result._data = out
            result._device = self._device
            result._backend = numpy_cpu
            if INFERENCE.on:
                result._inference = True  # Note [inference mode]
            if grad:
                result._grad_fn = _node(op, (self, other), None)
                result._requires_grad = True
            return result
        if operator and not isinstance(other, _OPERANDS):
            return NotImplemented
        return _apply(op, (self, other), NO_ATTRS)

    method.__name__ = method.__qualname__ = op.name
    return method


def binary_(op, operator=True):
    """``Tensor.__iadd__`` & co. (``operator``: Python NotImplemented for an operand that is
    neither a tensor nor a number, as torch's) and ``add_`` & co. without alpha (a method:
    torch's TypeError): ``apply_(op, self, other)`` with a fast path.

    Note [in-place fast path]: where ``apply_`` would record no history (grad mode off, or
    no operand requires grad) and could refuse nothing, the op is one ufunc call into
    ``self``'s array and a version bump: a floating CPU tensor with no memory shared among
    its elements (C-contiguous), and a Python number or a CPU tensor of its dtype and shape
    that is ``self`` or lies in other memory (no partial overlap to refuse).  NumPy computes
    in ``self``'s dtype, as torch does (Note [fast path]).  An inference tensor outside
    inference mode is written, then refused, as in ``apply_``.
    """
    ufunc = op.ufunc

    def method(self, other):
        x = self._data
        if x.dtype in _FLOAT_DTYPES and self._backend is numpy_cpu and x.flags.c_contiguous \
                and not DUAL.on:
            cls = other.__class__
            if cls is float or cls is int:
                y, grad = other, self._requires_grad
            elif isinstance(other, TensorBase) and other._backend is numpy_cpu and (
                    (y := other._data).dtype is x.dtype and y.shape == x.shape) and (
                    other is self or self._storage is None
                    or other._storage is not self._storage):
                grad = self._requires_grad or other._requires_grad
            else:
                y = None
            if y is not None and not (grad and GradMode.enabled):
                QUIET.run(ufunc, x, y, out=x)  # Note [floating-point errors]
                self._bump_version()
                return self
        if operator and not isinstance(other, _OPERANDS):
            return NotImplemented
        return apply_(op, self, other)

    method.__name__ = method.__qualname__ = op.name + "_"
    return method


def _apply(op, args, attrs):
    """``apply`` beyond its fast path, for an op that is no view."""
    if op.backward is not None:
        read_histories(args)
    if op.check is not None:
        op.check(*args, **attrs)
    first = args[0]
    dt = None
    if len(args) == 1 and (op.promote is None or op.promote == "common" and not op.scalars):
        tensors = args  # one tensor, computed in its own dtype: the common case
        arrays = (first._data,)
        grad = first._requires_grad and GradMode.enabled
    else:
        tensors = [a for a in args if isinstance(a, TensorBase)]
        first = tensors[0]
        if len(tensors) > 1:
            check_same_device(tensors)
            if op.kind == "pointwise" and (len(tensors) > 2 or
                                           tensors[0]._data.shape != tensors[1]._data.shape):
                check_broadcast(tensors)
        if op.scalars and op.kind == "pointwise":  # a tensor given for a scalar (clamp's min)
            bounds = [attrs[k] for k in op.scalars if isinstance(attrs.get(k), TensorBase)]
            if bounds:
                check_broadcast(tensors + bounds)
        dt, arrays = _operands(op, args, attrs)
        grad = needs_grad(args)
    # (after promotion, whose error comes first; the dtype computed in decides)
    _check_kernel(op, first._data.dtype if dt is None else dt.np)
    backend = first._backend
    xp = backend.xp
    forward = op.cpu_forward if backend is numpy_cpu else op.forward  # Note [kernels by device]
    out = QUIET.run(forward, xp, *arrays, **attrs)  # Note [floating-point errors]
    if op.device_attr is not None and attrs[op.device_attr] != first._device:
        return _moved(op, args, attrs, _laid_out(op, xp, out, tensors, args), first)
    grad = grad and op.backward is not None
    if len(op.outputs) == 1:
        result = _wrap(_laid_out(op, xp, out, tensors, args), first)
        if grad and out.dtype.kind in DIFFERENTIABLE:  # _record, inlined for one output
            node = result._grad_fn = _node(op, args, attrs)
            result._requires_grad = True
            if op.save_outputs:
                _save_outputs(node, op, (result,))
        return result
    results = tuple(None if o is None else _wrap(_laid_out(op, xp, o, tensors, args), first)
                    for o in out)
    if grad:
        _record(op, args, results, attrs)
    return results


def _laid_out(op, xp, out, tensors, args):
    """A forward's result as torch lays it out: Note [output layout] for pointwise ops (only
    non-contiguous inputs or dims of size 1 can matter; ``"swapped"``: of the operands in
    reverse order; a number among ``args`` is an operand), contiguous for the others, or the
    forward's own (``"forward"``; ``"strided"``: even an empty result's strides are the
    forward's)."""
    if out.__class__ is not _ndarray:
        out = xp.asarray(out)
    layout = op.layout
    if layout == "strided" or not out.ndim:  # a 0-d result has but one layout
        return out
    if not out.size:
        if layout in ("pointwise", "swapped") and out.ndim > 1 and len(args) > 1:
            return _pointwise(xp, out, tensors[::-1] if layout == "swapped" else tensors, args)
        return empty_strides(out, force=True)  # NumPy gives empty arrays zero strides
    if layout == "forward":
        return out
    if layout == "contiguous":
        return contiguous(xp, out)
    if out.ndim > 1:
        if layout == "swapped":  # rsub: torch's sub with the operands swapped
            tensors = tensors[::-1]
        for t in tensors:
            if not t._data.flags.c_contiguous:
                return _pointwise(xp, out, tensors, args)
        if len(args) > 1 and 1 in out.shape:  # a dim of size 1 keeps an input's stride
            return _pointwise(xp, out, tensors, args)
    return out


def _pointwise(xp, out, tensors, args):
    """``out`` laid out by Note [output layout] (a Python number in ``args``: an operand)."""
    number = any(a is not None and not isinstance(a, TensorBase) for a in args)
    return pointwise_layout(xp, out, [t._data for t in tensors], number)


def _moved(op, args, attrs, out, first):
    """The result of an op whose ``device_attr`` names another device than its input's
    (``_to_copy``): the array copied there."""
    device = attrs[op.device_attr]
    backend = for_device(device)
    data = backend.from_host(first._backend.to_host(out)) if device.type != "cpu" else \
        first._backend.to_host(out)
    result = _wrap(data, first)
    result._device, result._backend = device, backend
    if op.backward is not None and needs_grad(args):
        _record(op, args, (result,), attrs)
    return result


def apply_(op, self, *args, write=None, **attrs):
    """Run ``op`` in place on ``self`` (``args``: its other operands); returns ``self``.

    Note [in-place]: torch's checks come first, so a refused op changes nothing; the node is
    made (edges, saved inputs) before the write; then the write, one version bump (an
    inference tensor outside inference mode is written, then refused: Note [inference mode]),
    and, when history is recorded, ``self`` takes the node as its grad_fn (for a view, its
    base's history is rebased through CopySlices).  ``write``: a callable that writes
    ``self`` itself, for ops that write in their own way (fills, scatters, setitem); without
    it the forward's result is written.
    """
    if DUAL.on:  # a dual level is open: tangents follow (Note [forward AD])
        return dual_apply_(apply_, _record, op, self, args, write, attrs)
    inputs = (self, *args)
    grad = op.backward is not None and needs_grad(inputs)
    if grad:  # autograd_check_, but copy_ asks for a differentiable dtype first (as torch's)
        differentiable = self._data.dtype.kind in DIFFERENTIABLE
        if differentiable or op.name != "copy_":
            check_inplace(self)
        grad = differentiable
    if op.check is not None:
        op.check(*inputs, **attrs)
    if op.kind == "view":
        return _restride(op, self, attrs, grad)
    check_overlap(op, self)
    if write is None:  # (a write callback checks its other operands itself, first thing)
        tensors = [a for a in inputs if isinstance(a, TensorBase)]
        if op.kind == "pointwise":
            check_partial_overlap(self, tensors[1:] + [v for v in attrs.values()
                                                       if isinstance(v, TensorBase)])
        if len(tensors) > 1:
            check_same_device(tensors)
        arrays, out_param = _inplace_operands(op, self, inputs, tensors, attrs)
    _check_kernel(op, self._data.dtype)
    originals = None
    if grad and op.saves_self_for(inputs):
        originals = {"self": self.clone()}
    node = _node(op, inputs, attrs, originals) if grad else None
    if write is None:
        data = self._data
        forward = op.cpu_forward if self._backend is numpy_cpu else op.forward
        if op.kind == "pointwise" and self._backend.xp is np and _overlapping_itself(data) \
                and getattr(arrays[0], "dtype", None) == data.dtype:
            QUIET.run(_write_in_turn, forward, self._backend.xp, data, arrays, attrs)
        else:
            kwargs = {**attrs, "out": data} if out_param else attrs
            out = QUIET.run(forward, self._backend.xp, *arrays, **kwargs)
            if out is not data:
                data[...] = out
    else:
        write()
    self._bump_version()  # Note [inference mode]: raises after the write, as torch does
    if grad:
        rebase_history(self, node)
        if op.save_outputs:  # (a view now has a regenerated grad_fn: Note [CopySlices])
            fn = self._grad_fn
            _save_outputs(node, op, (self,), None if fn is node else fn)
    return self


def _inplace_operands(op, self, inputs, tensors, attrs):
    """``apply_``'s checks of shapes and dtypes, in torch's order; (the forward's arguments,
    whether it writes into ``self``'s array itself)."""
    _check_operands(op, inputs, attrs, op.name + "_")
    shape = self._data.shape
    if op.kind == "pointwise":
        bounds = [attrs[k] for k in op.scalars if isinstance(attrs.get(k), TensorBase)]
        for t in tensors[1:] + bounds:
            if t._data.shape != shape:
                b = broadcast_shapes(shape, t._data.shape)
                if b != shape:
                    raise RuntimeError(f"output with shape [{', '.join(map(str, shape))}] "
                                       f"doesn't match the broadcast shape "
                                       f"[{', '.join(map(str, b))}]")
    dt, arrays = _operands(op, inputs, attrs)
    if dt is None:
        return arrays, False
    own = _BY_NP[self._data.dtype]
    if not can_cast(dt, own):
        raise RuntimeError(f"result type {dt.scalar_name} can't be cast to the desired output "
                           f"type {own.scalar_name}")
    return arrays, op.ufunc is not None and dt is own  # ufunc forwards take out=


# Note [writing into an expand]
# An expanded tensor has elements that share memory.  Most in-place ops refuse to write into
# it (torch's assert_no_internal_overlap: the TensorIterator ops, copy_, the scatters, the
# random fills); ``fill_``, ``zero_``, ``tril_``/``triu_`` and ``resize_`` write through it
# (``overlap="write"``), and ``index_fill_``, ``masked_fill_`` and ``index_put_`` write
# through with a deprecation warning (``overlap="deprecated"``), each op's own.
_DEPRECATED = {
    "index_fill": ("index_fill_", "mask] = scalar", 1913),
    "masked_fill": ("masked_fill_", "mask] = scalar", 2450),
    "index_put": ("index_put_", "indices] = tensor", 976),
}


def check_overlap(op, t):
    """What ``op`` in place does with ``t`` whose elements share memory (Note [writing into
    an expand]): torch's error, its deprecation warning, or nothing."""
    if op.overlap == "write" or not _overlaps(t):
        return
    if op.overlap == "refuse":
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers "
            "to a single memory location. Please clone() the tensor before performing the "
            "operation.")
    name, example, line = _DEPRECATED[op.name]
    warnings.warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor "
                  f"before performing this operation. This also applies to advanced indexing "
                  f"e.g. tensor[{example} (Triggered internally at /__w/pytorch/pytorch/aten/"
                  f"src/ATen/native/TensorAdvancedIndexing.cpp:{line}.)", UserWarning,
                  stacklevel=4)


# Note [writing into overlapping memory]
# A view whose elements share memory without a zero stride (``unfold`` with a step below its
# size) passes torch's overlap check (too hard to tell), and its TensorIterator then reads and
# writes element after element: a location seen twice is updated twice, the second time from
# the first result (``x.unfold(0, 2, 1).add_(1)`` adds 2 to the inner elements).  NumPy would
# compute every result from the old values.  So such a write goes in rounds: round k updates
# each location for the k-th time it comes in torch's order (dims by falling stride), from
# the values the previous round left; the locations of one round are distinct.  (An operand
# of another dtype makes torch compute into a temporary and copy it back: NumPy's way.
# torch's vectorized inner loops, over 16 or more contiguous elements, read ahead of their
# writes: not reproduced.)

def _overlapping_itself(data):
    """Whether two elements of the array share memory (strides all positive)."""
    if data.flags.c_contiguous or data.flags.f_contiguous or data.size < 2:
        return False
    extent = 0
    for stride, n in sorted((s, n) for s, n in zip(data.strides, data.shape) if n > 1):
        if stride <= extent or stride <= 0:
            return len(np.unique(_offsets(data)[0])) < data.size
        extent += (n - 1) * stride
    return False


def _offsets(data):
    """Each element's offset (elements) from the first, in torch's iteration order."""
    order = np.argsort([-s for s in data.strides], kind="stable")
    offsets = np.zeros((), np.int64)
    for d in order:
        offsets = np.add.outer(offsets, np.arange(data.shape[d]) * (data.strides[d] //
                                                                      data.itemsize))
    return offsets.reshape(-1), order


def _write_in_turn(forward, xp, data, arrays, attrs):
    """``data`` (overlapping itself) updated in place by ``forward``, element after element
    in torch's order (Note [writing into overlapping memory])."""
    offsets, order = _offsets(data)
    n = offsets.size
    first = np.empty(n, np.int64)  # the first position of each position's location
    sorter = np.argsort(offsets, kind="stable")
    new = np.r_[True, offsets[sorter][1:] != offsets[sorter][:-1]]
    first[sorter] = np.maximum.accumulate(np.where(new, np.arange(n), 0))
    rank = np.empty(n, np.int64)
    rank[sorter] = np.arange(n) - first[sorter]
    span = int(offsets.max()) + 1
    flat = np.lib.stride_tricks.as_strided(data, (span,), (data.itemsize,))
    others = [a if not isinstance(a, np.ndarray) or not a.ndim else
              np.broadcast_to(a, data.shape).transpose(order).reshape(-1) for a in arrays[1:]]
    for k in range(int(rank.max()) + 1):
        at = np.flatnonzero(rank == k)
        where = offsets[at]
        current = flat[where].astype(arrays[0].dtype, copy=False)
        picked = [o[at] if isinstance(o, np.ndarray) and o.ndim else o for o in others]
        flat[where] = forward(xp, current, *picked, **attrs)


def check_partial_overlap(out, tensors, full=False):
    """torch's assert_no_partial_overlap: an input over the memory an in-place op writes must
    cover exactly that memory with the same strides (torch looks only at dense tensors);
    ``full``: no input may share that memory at all (assert_no_overlap, index_put_'s)."""
    storage = out._storage
    for t in tensors:
        if t is out:
            status = "full"
        elif storage is not None and t._storage is storage:
            status = _overlap(out, t)
        else:
            continue
        if status == "partial" or full and status == "full":
            raise RuntimeError(
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.")


def _overlap(a, b):
    """torch's get_overlap_status of two tensors over one storage: 'full', 'partial' or
    None (none, or too hard to tell: not both dense)."""
    if not a._data.size or not b._data.size:
        return None
    sa, sb = a.stride(), b.stride()
    if not (is_non_overlapping_and_dense(a._data.shape, sa)
            and is_non_overlapping_and_dense(b._data.shape, sb)):
        return None
    a0, b0 = a.storage_offset() * a._data.itemsize, b.storage_offset() * b._data.itemsize
    a1, b1 = a0 + a._data.nbytes, b0 + b._data.nbytes
    if (a0, a1) == (b0, b1):
        return "full" if sa == sb else "partial"
    return "partial" if a0 < b1 and b0 < a1 else None


def _overlaps(t):
    data = t._data
    return data.size > 1 and any(stride == 0 and size > 1
                                 for size, stride in zip(data.shape, data.strides))


# -- views -----------------------------------------------------------------------------------

def _view(op, t, attrs):
    """A view op: same storage and version counter, ``_base`` set, history recorded."""
    if op.check is not None:
        op.check(t, **attrs)
    if t._creation_meta is not None and GradMode.enabled and t._requires_grad:
        gradient_edge(t)  # autograd reads the input's history first, as torch does
    data = t._data
    item = data.itemsize
    geometry = op.forward(data.shape, tuple([s // item for s in data.strides]),
                          0 if t._storage is None else t.storage_offset(), **attrs)
    if not op.outputs:  # several views (unbind, split): one node for them all
        outs = tuple(alias_view(t, *g) for g in geometry)
        track_views(outs, t)
        if GradMode.enabled and t._requires_grad:
            _record(op, (t,), outs, {**attrs, "shapes": [o._data.shape for o in outs]})
        return outs
    if not op.tracks_base:  # _unsafe_view: shares memory, but is no view to autograd
        out = alias_view(t, *geometry)
        if needs_grad((t,)):
            _record(op, (t,), (out,), attrs)
        return out
    out = new_view(t, *geometry)
    if GradMode.enabled and t._requires_grad:
        _record(op, (t,), (out,), attrs)
    return out


def _restride(op, t, attrs, grad):
    """Give ``t`` itself the geometry of view ``op`` (``transpose_``); one version bump.

    Only ``t``'s history changes, also for a view: its base's values are untouched, so the
    view's new node follows its old one (torch's ``TBackward1`` after ``AliasBackward0``),
    with no CopySlices on the base."""
    shape, strides, offset = op.forward(t._data.shape, t.stride(), t.storage_offset(), **attrs)
    node = _node(op, (t,), attrs) if grad else None
    t._data = t._backend.as_strided(t.untyped_storage().buffer, tuple(shape), tuple(strides),
                                    offset)
    t._bump_version()
    if grad:
        if t._base is None:
            rebase_history(t, node)
        else:
            _give_history(node, (t,))
            t._view_version = t._vc.value  # the node just made is the view's current history
    return t
