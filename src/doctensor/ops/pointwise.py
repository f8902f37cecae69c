"""Pointwise ops: arithmetic, comparisons and elementwise functions, with torch's promotion.

``binary``/``unary`` run an op out of place; ``inplace`` runs the same record in place
(``mul_``, ``__imul__``), bumping the version and rebasing history (Note [in-place]).
"""

import contextvars
import math
import threading

import numpy as np

from .._dtypes import _BY_NP, can_cast, check_fits, get_default_dtype, result_type
from .._strides import broadcast_shapes, iter_output_strides
from .._tensor_base import INFERENCE, TensorBase, empty_strides
from ..autograd.grad_mode import GradMode
from ..autograd.graph import move_retains_grad
from ..backends import numpy_cpu
from . import _registry as R
from ._registry import declare, needs_grad, record, wrap_result

# -- dtype and device handling ---------------------------------------------------------


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


def to_array(value, dt, like):
    """``value`` (tensor or Python scalar) as an array/scalar of dtype ``dt`` on ``like``'s
    backend."""
    if isinstance(value, R.Tensor):
        data = value._data
        if value._device is not like._device and value._data.ndim == 0:
            data = like._backend.xp.asarray(value._backend.to_host(data))
        return data if data.dtype == dt.np else data.astype(dt.np)
    if dt.category == 1 and not isinstance(value, bool):
        return np.array(int(value)).astype(dt.np)[()]  # wraps around like a C cast
    return dt.np.type(value)


def promote(args):
    """The dtype torch computes ``args`` (tensors and Python scalars) in."""
    tensors = [a for a in args if isinstance(a, R.Tensor)]
    if len(tensors) == len(args) and len(tensors) == 2:
        a, b = tensors
        if a._data.dtype == b._data.dtype:
            return _BY_NP[a._data.dtype]
    scalars = [a for a in args if not isinstance(a, R.Tensor)]
    return result_type(tensors, scalars)


def torch_layout(out, tensors):
    """``out`` laid out in memory as torch lays out a pointwise result (Note [output layout])."""
    strides = iter_output_strides(out.shape, [(t._data.shape, t.stride()) for t in tensors])
    return layout_as(out, strides, tensors[0]._backend)


def layout_as(out, strides, backend, copy=False):
    """``out``'s values in an array with element ``strides`` (``out`` itself when it has them
    and no ``copy`` is asked for)."""
    item = out.itemsize
    if out.strides == tuple(s * item for s in strides):
        return backend.xp.array(out, copy=True) if copy else out
    return copy_as(out, strides, backend)


def strided_zeros(shape, strides, np_dtype, backend):
    """A zero array of ``shape`` with element ``strides``, over a fresh buffer of exactly the
    elements those strides reach (torch's storage size for empty_strided)."""
    span = 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    buf = backend.xp.zeros(span, dtype=np_dtype)
    return backend.as_strided(buf, tuple(shape), tuple(strides), 0)


def copy_as(data, strides, backend):
    """A copy of the array ``data`` with element ``strides``."""
    out = strided_zeros(data.shape, strides, data.dtype, backend)
    out[...] = data
    return out


def _as_array(out, xp):
    return xp.asarray(out) if isinstance(out, np.generic) else out


# -- running ops -------------------------------------------------------------------------

# Note [floating-point errors]
# torch computes inf and nan silently; NumPy warns (overflow, invalid, divide by zero) unless
# its error state says "ignore".  That state is one context variable; ``np.errstate`` sets it
# and costs about 1.5 us in NumPy 2.4, three times a small add, and even a bare ``set`` /
# ``reset`` of the variable costs half an add (each ``set`` copies the context's mapping).
# So each thread keeps one ``contextvars.Context`` in which the variable says "ignore", and
# ops run their NumPy calls inside it: ``QUIET.run(np.add, x, y)`` costs one C call more than
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


def run(op, args, attrs=None, floating=False, out_dtype=None, scalars=()):
    """Run ``op`` out of place on tensors/scalars ``args`` and record its node if needed.

    ``scalars`` are attribute values that take part in type promotion (pow's exponent).
    """
    if op.check is not None:
        op.check(args)
    first = next(a for a in args if isinstance(a, R.Tensor))
    tensors = [a for a in args if isinstance(a, R.Tensor)]
    if len(tensors) > 1:
        check_same_device(tensors)
        if len(tensors) > 2 or tensors[0]._data.shape != tensors[1]._data.shape:
            check_broadcast(tensors)
    dt = promote(args + tuple(scalars)) if scalars else promote(args)
    if floating and not dt.is_floating_point:
        dt = get_default_dtype()
    xp = first._backend.xp
    arrays = [to_array(a, dt, first) for a in args]
    out = _as_array(QUIET.run(op.forward, xp, *arrays, **(attrs or {})), xp)  # Note [f...]
    if out_dtype is not None and out.dtype != out_dtype.np:
        out = out.astype(out_dtype.np)
    if out.ndim > 1 and not op.contiguous_out:
        for t in tensors:  # Note [output layout]: only non-contiguous inputs can matter
            if not t._data.flags.c_contiguous:
                if out.size:
                    out = torch_layout(out, tensors)
                break
    result = wrap_result(out, first)
    if op.backward is not None and needs_grad(args):
        record(op, args, (result,), attrs)
    return result


_FLOAT_DTYPES = frozenset(map(np.dtype, ("float16", "float32", "float64")))


def binary(op, floating=False):
    """``f(self, other)``: ``run(op, (self, other))`` for a tensor ``self`` and a tensor or
    Python number ``other``, with a fast path for the common case; what ``Tensor.__add__`` & co.
    are.

    Note [fast path]: when ``self`` is a floating CPU tensor and ``other`` is a Python int/float
    or a CPU tensor of the same dtype and shape, ``run``'s work reduces to one ufunc call: the
    dtype is ``self``'s (no promotion, no cast: NumPy converts a Python number to the array's
    dtype, as torch does), nothing broadcasts (no shape check), and NumPy lays the result out
    as torch does (1-d or C-contiguous inputs: no layout fix-up).  ``op.check`` only refuses
    bool operands, which never get here.  Grad mode, inference mode and history are handled as
    in ``run`` (``wrap_result``, ``record``).
    """
    ufunc = op.ufunc
    new_tensor = object.__new__
    ndarray = np.ndarray

    def apply(self, other):
        x = self._data
        if x.dtype in _FLOAT_DTYPES and self._backend is numpy_cpu and (
                x.ndim < 2 or x.flags.c_contiguous):
            cls = other.__class__
            if cls is float or cls is int:
                out = QUIET.run(ufunc, x, other)  # Note [floating-point errors]
                grad = self._requires_grad and GradMode.enabled
            elif isinstance(other, TensorBase) and other._backend is numpy_cpu and (
                    (y := other._data).dtype is x.dtype and y.shape == x.shape
                    and (x.ndim < 2 or y.flags.c_contiguous)):
                out = QUIET.run(ufunc, x, y)
                grad = (self._requires_grad or other._requires_grad) and GradMode.enabled
            else:
                return run(op, (self, other), floating=floating)
            if out.__class__ is not ndarray:  # NumPy gives 0-d results as scalars
                out = np.asarray(out)
            elif not out.size:
                out = empty_strides(out, force=True)
            result = new_tensor(R.Tensor)  # wrap_result(out, self), inlined
            result._data = out
            result._device = self._device
            result._backend = numpy_cpu
            if INFERENCE.on:
                result._inference = True  # Note [inference mode]
            if grad:
                record(op, (self, other), (result,))
            return result
        return run(op, (self, other), floating=floating)

    apply.__name__ = apply.__qualname__ = op.name
    return apply


def inplace(op, self, args, attrs=None, floating=False, scalars=()):
    """Run ``op`` in place on ``self`` (``args`` are the other operands).

    Note [in-place]: checks come first, so a refused op changes nothing.  Then the op writes
    into ``self``'s memory, bumps the shared version counter once, and, when history is
    recorded, ``self`` takes the op's node as its grad_fn; for a view, the base's history
    is rebased through CopySlices (autograd/views.py).
    """
    full = (self,) + tuple(args)
    if op.check is not None:
        op.check(full)
    if self._inference:
        check_inference_inplace(self)  # Note [inference mode]
    grad = op.backward is not None and needs_grad(full)
    if grad:
        check_inplace(self)  # autograd's check runs before the kernel's, as in torch
    tensors = [a for a in full if isinstance(a, R.Tensor)]
    if len(tensors) > 1:
        check_same_device(tensors)
    check_no_internal_overlap(self)
    shape = self._data.shape
    for t in tensors[1:]:
        if t._data.shape != shape:
            b = broadcast_shapes(shape, t._data.shape)
            if b != shape:
                raise RuntimeError(f"output with shape [{', '.join(map(str, shape))}] doesn't "
                                   f"match the broadcast shape [{', '.join(map(str, b))}]")
    dt = promote(full + tuple(scalars)) if scalars else promote(full)
    if floating and not dt.is_floating_point:
        dt = get_default_dtype()
    own = _BY_NP[self._data.dtype]
    if not can_cast(dt, own):
        raise RuntimeError(f"result type {dt.scalar_name} can't be cast to the desired output "
                           f"type {own.scalar_name}")
    xp = self._backend.xp
    originals = None
    if grad and "self" in op.saves and any(
            isinstance(full[i], R.Tensor) and full[i]._requires_grad for i in op.saves["self"]):
        originals = {"self": self.clone()}
    arrays = [to_array(a, dt, self) for a in full]
    kwargs = attrs or {}
    if op in _WRITES_INTO and dt == own and attrs:  # a scaled add: into self's memory, when
        kwargs = {**attrs, "out": self._data}  # fma32 finds it safe (no temporary, no copy)
    out = QUIET.run(op.forward, xp, *arrays, **kwargs)  # Note [floating-point errors]
    vc = self._version_counter()
    before = vc.value
    if out is not self._data:
        self._data[...] = out
    vc.value += 1
    if grad:
        node = rebase_history(self, op, full, attrs, originals)
        for saved in node.saved.values():  # an input that aliases self was saved before
            if getattr(saved, "is_output", True) is False and saved.value._vc is vc:  # the write
                saved.version = before
    return self


def check_broadcast(tensors):
    """torch's message when operand shapes do not broadcast (NumPy's would differ)."""
    shape = tensors[0]._data.shape
    for t in tensors[1:]:
        if t._data.shape != shape:
            shape = broadcast_shapes(shape, t._data.shape)


def check_no_internal_overlap(t):
    """torch's refusal to write into a tensor whose elements share memory (an expand)."""
    for size, stride in zip(t._data.shape, t._data.strides):
        if stride == 0 and size > 1:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation.")


def check_inference_inplace(t):
    """torch's refusal to edit an inference tensor outside inference mode."""
    from .._tensor_base import INFERENCE, INFERENCE_INPLACE_ERROR
    if not INFERENCE.on:
        raise RuntimeError(INFERENCE_INPLACE_ERROR)


def check_inplace(t):
    """torch's refusal of in-place ops on leaves (and views of leaves) that require grad."""
    if t._creation_meta is not None:
        from .views import handle_view_on_rebase
        handle_view_on_rebase(t)  # Note [view + in-place errors]
    if t._requires_grad:
        base = t._base  # torch asks a differentiable view first whether its base is a leaf
        if base is not None and base._grad_fn is None and t._view_version is not None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in "
                               "an in-place operation.")
        if t._grad_fn is None:  # a view whose grad_fn is not regenerated yet is one too (torch)
            raise RuntimeError("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")


def rebase_history(self, op, inputs, attrs, originals=None):
    """Make ``self`` the output of the in-place ``op`` (through CopySlices for a view)."""
    old = self._grad_fn if self._retains_grad else None
    if self._base is not None:
        from .views import copy_slices
        node = copy_slices(self, op, inputs, attrs, originals)
    else:
        node = record(op, inputs, (self,), attrs, originals)
        if "_plain_views" in self.__dict__:  # Note [views of a base without history]
            from .views import mark_plain_views
            mark_plain_views(self)
    if old is not None:
        move_retains_grad(self, old)
    return node


# -- arithmetic ----------------------------------------------------------------------------


def _add_scaled(xp, a, b, alpha, out=None):
    """``a + alpha * b`` as torch's CPU kernel computes it: one fused multiply-add for floats.

    ``out`` (``a``'s own array, from ``inplace``) may receive the result: a float32 fma
    writes there when that is safe (Note [bracketed fma32]); the result is returned either way.
    """
    dt = getattr(a, "dtype", None)
    if xp is np and dt in (np.float32, np.float64) and getattr(b, "dtype", None) == dt:
        from .._random_math import fma32, fma64
        if dt == np.float32 and out is not None and a.ndim and a.shape == b.shape:
            return fma32(b, dt.type(alpha), a, out=out)
        fma = fma32 if dt == np.float32 else fma64
        result = fma(np.atleast_1d(b), dt.type(alpha), np.atleast_1d(a))
        return result.reshape(np.broadcast_shapes(np.shape(a), np.shape(b)))
    return xp.add(a, b * scalar_as(alpha, b.dtype))


def scalar_as(value, dtype):
    """A Python number as a NumPy scalar of an integer ``dtype``, wrapping like a C cast (torch
    casts ``alpha``, ``min``, ``max`` to the computation type); other dtypes: unchanged."""
    if dtype.kind in "iu" and isinstance(value, int):
        return np.array(value).astype(dtype)[()]
    return value


@declare("add", "AddBackward0", ("self", "other"))
def add(xp, a, b, alpha=1, out=None):
    return xp.add(a, b) if alpha == 1 else _add_scaled(xp, a, b, alpha, out)


@add.def_backward
def _(ctx, grad):
    alpha = ctx.attrs.get("alpha", 1)
    return grad, (grad if alpha == 1 else grad * alpha)


@declare("sub", "SubBackward0", ("self", "other"))
def sub(xp, a, b, alpha=1, out=None):
    return xp.subtract(a, b) if alpha == 1 else _add_scaled(xp, a, b, -alpha, out)


_WRITES_INTO = (add, sub)  # forwards that take ``out`` (inplace)


@sub.def_backward
def _(ctx, grad):
    alpha = ctx.attrs.get("alpha", 1)
    return grad, (-grad if alpha == 1 else grad * -alpha)


@declare("rsub", "RsubBackward1", ("self", "other"))
def rsub(xp, a, b):
    return xp.subtract(b, a)


@rsub.def_backward
def _(ctx, grad):
    return -grad, None


@declare("mul", "MulBackward0", ("self", "other"), saves={"self": (1,), "other": (0,)})
def mul(xp, a, b):
    return xp.multiply(a, b)


@mul.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    return (grad * ctx.other if n[0] else None), (grad * ctx.self if n[1] else None)


@declare("div", "DivBackward0", ("self", "other"), saves={"self": (1,), "other": (0, 1)})
def div(xp, a, b):
    return xp.true_divide(a, b)


@div.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    other = ctx.other
    ga = grad / other if n[0] else None
    gb = -grad * ctx.self / (other * other) if n[1] else None
    return ga, gb


@declare("reciprocal", "ReciprocalBackward0", saves={"result": (0,)})
def reciprocal(xp, a):
    return xp.reciprocal(a)


@reciprocal.def_backward
def _(ctx, grad):
    r = ctx.result
    return (-grad * (r * r),)


@declare("remainder", "RemainderBackward0", ("self", "other"))
def remainder(xp, a, b):
    """The sign of the divisor, as torch's kernel: fmod, plus ``b`` where the signs differ
    (so -2. % 2. is -0., where NumPy's remainder gives 0.)."""
    _check_int_zero_division(a, b)
    m = xp.fmod(a, b)
    if m.dtype.kind != "f":
        return xp.remainder(a, b)
    return xp.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


def _check_int_zero_division(a, b):
    """torch raises for an integer division by zero (NumPy gives 0 and a warning)."""
    if getattr(a, "dtype", None) is not None and a.dtype.kind in "iub" and not (
            b != 0).all():
        raise RuntimeError("ZeroDivisionError")


@remainder.def_backward
def _(ctx, grad):
    return grad, None


@declare("remainder", "RemainderBackward1", ("self", "other"),
         saves={"self": (1,), "other": (1,)})
def remainder_tensor(xp, a, b):
    return remainder.forward(xp, a, b)


@remainder_tensor.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    return (grad if n[0] else None,
            -grad * ctx.self.div(ctx.other, rounding_mode="floor") if n[1] else None)


@declare("floor_divide", "NotImplemented", ("self", "other"))
def floor_divide(xp, a, b):
    _check_int_zero_division(a, b)
    return xp.floor_divide(a, b)


@floor_divide.def_backward
def _(ctx, grad):
    raise RuntimeError("derivative for aten::floor_divide is not implemented")


@declare("div", "DivBackward2", ("self", "other"))
def div_rounding(xp, a, b, rounding_mode):
    """``div(..., rounding_mode='trunc'|'floor')``: integer results stay integers."""
    if a.dtype.kind in "iub":
        _check_int_zero_division(a, b)
        q = xp.floor_divide(a, b)
        if rounding_mode == "trunc":
            q = q + ((xp.remainder(a, b) != 0) & ((a < 0) != (b < 0)))
        return q.astype(xp.result_type(a, b), copy=False)
    if rounding_mode == "trunc":
        return xp.trunc(xp.true_divide(a, b))
    return xp.floor_divide(a, b)


@div_rounding.def_backward
def _(ctx, grad):
    zero = R.zeros_like(grad)  # rounding makes the quotient piecewise constant
    n = ctx.needs_input_grad
    return (zero if n[0] else None), (zero if n[1] else None)


@declare("pow", "PowBackward0", saves={"self": (0,)})
def pow_scalar(xp, a, exponent):
    if a.dtype.kind in "iub" and not isinstance(exponent, float) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return xp.power(a, exponent)


@pow_scalar.def_backward
def _(ctx, grad):
    e = ctx.attrs["exponent"]
    if e == 0:
        return (R.zeros_like(grad),)
    return (grad * (e * ctx.self ** (e - 1)),)


@declare("pow", "PowBackward1", ("self", "exponent"),
         saves={"self": (0, 1), "exponent": (0,), "result": (1,)})
def pow_tensor(xp, a, e):
    if a.dtype == bool:
        raise NotImplementedError('"pow" not implemented for \'Bool\'')
    return int_pow(xp, a, e)


def int_pow(xp, a, e):
    """``a ** e``; for integers torch's rule for negative exponents: 1 ** -n = 1,
    (-1) ** -n = +-1, anything else ** -n = 0 (NumPy refuses them)."""
    a_arr, e_arr = xp.asarray(a), xp.asarray(e)
    if e_arr.dtype.kind in "iu" and a_arr.dtype.kind in "iu" and (e_arr < 0).any():
        neg = e_arr < 0
        odd = (e_arr % 2) == 1
        small = xp.where(a_arr == 1, 1, xp.where(a_arr == -1, xp.where(odd, -1, 1), 0))
        dt = xp.result_type(a_arr, e_arr)
        return xp.where(neg, small, xp.power(a_arr, xp.where(neg, 0, e_arr))).astype(dt)
    return xp.power(a, e)


@pow_tensor.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    e = ctx.exponent
    # torch: where(exponent == 0, 0, grad * exponent * self ** (exponent - 1)): +0. there
    ga = where_tensor(e == 0, 0, grad * (e * ctx.self ** (e - 1))) if n[0] else None
    gb = grad * (ctx.result * ctx.self.log()) if n[1] else None
    return ga, gb


@declare("pow", "PowBackward2", saves={"result": (0,)})
def rpow(xp, a, base):
    return xp.ascontiguousarray(int_pow(xp, scalar_as(base, a.dtype), a))


rpow.contiguous_out = True  # torch.pow(scalar, tensor) allocates its result contiguously


@rpow.def_backward
def _(ctx, grad):
    return (grad * (ctx.result * math.log(ctx.attrs["base"])),)


@declare("neg", "NegBackward0")
def neg(xp, a):
    return xp.negative(a)


@neg.def_backward
def _(ctx, grad):
    return (-grad,)


# -- elementwise functions ------------------------------------------------------------------


@declare("abs", "AbsBackward0", saves={"self": (0,)})
def abs_(xp, a):
    return xp.abs(a)


@abs_.def_backward
def _(ctx, grad):
    return (grad * run(sgn, (ctx.self,)),)


def _sign(xp, a):
    """torch's ``(0 < a) - (a < 0)``: NaN and -0. give +0. (NumPy's sign keeps them)."""
    if a.dtype.kind != "f":
        return a.copy() if a.dtype == bool else xp.sign(a)
    out = (a > 0).astype(a.dtype)
    out -= a < 0
    return out


sign = declare("sign", "SignBackward0")(_sign)
sgn = declare("sgn", "SgnBackward0")(_sign)  # sign for real numbers; abs's backward uses it
sign.def_backward(R.zero_gradient)
sgn.def_backward(R.zero_gradient)


# Note [float32 transcendentals]
# torch's float32 exp, log, sin, ... (MKL VML and SLEEF kernels) are nearly always correctly
# rounded; NumPy's float32 SIMD loops are an ulp off in many elements, and it shows when
# printing: ``tensor([1., 2.]).exp().log()`` is ``tensor([1., 2.])`` in torch but
# ``tensor([1.0000, 2.0000])`` through NumPy's float32 loops.  Computing in float64 and
# rounding once agrees with torch far more often (100k uniform inputs, ``python -m
# benchmarks.ulps``; elements that differ from torch's):
#
#     op        exp    tanh  sigmoid  log1p  expm1   sin    cos    log
#     float32   39%    33%    28%      8%    12%    16%    19%    4.7%
#     float64   1.0%   0.2%   4.0%    0.4%   0.15%  4.9%   5.0%   3.3%
#
# What remains is torch's own rounding error (MKL's log(2.7182817f) is 1.0; correctly rounded
# it is 0.99999994, so ``tensor([1., 2.]).exp().log()`` still prints ``1.0000``).  float16
# goes the same way and then to float16, as torch's half kernels compute in float32 and round
# that result.  float64 inputs use NumPy's float64 loops as they are.

_NARROW = (np.dtype(np.float32), np.dtype(np.float16))


def wide(fn, a, *more):
    """``fn(a, *more)`` computed in float64 for float32/float16 arrays (all of ``a``'s dtype),
    rounded to float32 and then to ``a``'s dtype (Note [float32 transcendentals])."""
    if a.dtype in _NARROW:
        args = (x.astype(np.float64) for x in (a, *more))
        return fn(*args).astype(np.float32).astype(a.dtype, copy=False)
    return fn(a, *more)


@declare("exp", "ExpBackward0", saves={"result": (0,)})
def exp(xp, a):
    return wide(xp.exp, a)


@exp.def_backward
def _(ctx, grad):
    return (grad * ctx.result,)


@declare("log", "LogBackward0", saves={"self": (0,)})
def log(xp, a):
    return wide(xp.log, a)


@log.def_backward
def _(ctx, grad):
    return (grad / ctx.self,)


@declare("sqrt", "SqrtBackward0", saves={"result": (0,)})
def sqrt(xp, a):
    return xp.sqrt(a)


@sqrt.def_backward
def _(ctx, grad):
    return (grad / (2 * ctx.result),)


@declare("sin", "SinBackward0", saves={"self": (0,)})
def sin(xp, a):
    return wide(xp.sin, a)


@sin.def_backward
def _(ctx, grad):
    return (grad * ctx.self.cos(),)


@declare("cos", "CosBackward0", saves={"self": (0,)})
def cos(xp, a):
    return wide(xp.cos, a)


@cos.def_backward
def _(ctx, grad):
    return (grad * -ctx.self.sin(),)


@declare("tanh", "TanhBackward0", saves={"result": (0,)})
def tanh(xp, a):
    return wide(xp.tanh, a)


@tanh.def_backward
def _(ctx, grad):
    return (run(tanh_backward, (grad, ctx.result)),)


@declare("tanh_backward", "TanhBackwardBackward0", ("grad_output", "output"),
         saves={"grad_output": (1,), "output": (0, 1)})
def tanh_backward(xp, g, y):
    return g * (1 - y * y)


@tanh_backward.def_backward
def _(ctx, grad):
    n, y = ctx.needs_input_grad, ctx.output
    return (run(tanh_backward, (grad, y)) if n[0] else None,
            grad * (-2 * y * ctx.grad_output) if n[1] else None)


@declare("sigmoid", "SigmoidBackward0", saves={"result": (0,)})
def sigmoid(xp, a):
    # torch's kernel: 1 / (1 + exp(-a)) in float32 for float32 and float16 (so exp(90.) is inf
    # and sigmoid(-90.) is 0., not 8e-40), its exp as in Note [float32 transcendentals]
    if a.dtype in _NARROW:
        e = wide(xp.exp, -a.astype(np.float32))
        return (1 / (1 + e)).astype(a.dtype, copy=False)
    return 1 / (1 + xp.exp(-a))


@sigmoid.def_backward
def _(ctx, grad):
    return (run(sigmoid_backward, (grad, ctx.result)),)


@declare("sigmoid_backward", "SigmoidBackwardBackward0", ("grad_output", "output"),
         saves={"grad_output": (1,), "output": (0, 1)})
def sigmoid_backward(xp, g, y):
    return g * (1 - y) * y


@sigmoid_backward.def_backward
def _(ctx, grad):
    n, y = ctx.needs_input_grad, ctx.output
    return (run(sigmoid_backward, (grad, y)) if n[0] else None,
            grad * ctx.grad_output * (-2 * y + 1) if n[1] else None)


@declare("rsqrt", "RsqrtBackward0", saves={"result": (0,)})
def rsqrt(xp, a):
    x = a.astype(np.float32) if a.dtype == np.float16 else a  # half: in float32, rounded once
    return (1 / xp.sqrt(x)).astype(a.dtype, copy=False)


@rsqrt.def_backward
def _(ctx, grad):
    return (-0.5 * grad * ctx.result ** 3,)


@declare("log1p", "Log1PBackward0", saves={"self": (0,)})
def log1p(xp, a):
    return wide(xp.log1p, a)


@log1p.def_backward
def _(ctx, grad):
    return (grad / (ctx.self + 1),)


@declare("expm1", "Expm1Backward0", saves={"result": (0,)})
def expm1(xp, a):
    return wide(xp.expm1, a)


@expm1.def_backward
def _(ctx, grad):
    return (grad * (ctx.result + 1),)


_ERF = np.frompyfunc(math.erf, 1, 1)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _libm(fn):
    """A float64 libm function (Python's math) applied elementwise (NumPy has no erf)."""
    return lambda a: fn(a).astype(np.float64) if a.ndim else np.float64(fn(a))


def _erf_op(name, fn, sign):
    """erf (``sign`` 1) or erfc (-1, its complement): libm's values; derivative
    ``sign * 2 / sqrt(pi) * exp(-x^2)``."""
    op = declare(name, name.capitalize() + "Backward0", saves={"self": (0,)})(
        lambda xp, a: xp.asarray(wide(_libm(fn), a)))

    @op.def_backward
    def _(ctx, grad):
        x = ctx.self
        return (grad * (sign * 2 / math.sqrt(math.pi)) * (-(x * x)).exp(),)
    return op


erf = _erf_op("erf", _ERF, 1)
erfc = _erf_op("erfc", _ERFC, -1)


@declare("atan2", "Atan2Backward0", ("self", "other"), saves={"self": (0, 1), "other": (0, 1)})
def atan2(xp, a, b):
    return wide(xp.arctan2, a, b)


@atan2.def_backward
def _(ctx, grad):
    y, x, n = ctx.self, ctx.other, ctx.needs_input_grad
    square = y * y + x * x
    recip = where_tensor(square == 0, 0.0, square.reciprocal())  # 0 at the origin, as torch
    return (grad * x * recip if n[0] else None, grad * -y * recip if n[1] else None)


@declare("round", "RoundBackward0")
def round_(xp, a):
    return a.copy() if a.dtype.kind in "iu" else xp.rint(a)  # rint: half to even, as torch


@declare("round", "RoundBackward1")
def round_decimals(xp, a, decimals):
    x = a.astype(np.float32) if a.dtype == np.float16 else a  # torch's kernel: in float32
    ten = x.dtype.type(10.0 ** abs(decimals))
    out = xp.rint(x / ten) * ten if decimals < 0 else xp.rint(x * ten) / ten
    return out.astype(a.dtype, copy=False)


round_.def_backward(R.zero_gradient)
round_decimals.def_backward(R.zero_gradient)


def round_tensor(t, decimals=None, in_place=False):
    """``round()``/``round_()``: half to even; ``decimals=`` (even 0) is torch's other overload
    (RoundBackward1), which integer tensors refuse."""
    kind = t._data.dtype.kind
    if kind == "b" or (kind in "iu" and decimals is not None):
        kernel = "round_cpu" if decimals else "round_vml_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.scalar_name}\'')
    op, attrs = (round_, None) if decimals is None else (round_decimals, {"decimals": decimals})
    return inplace(op, t, (), attrs) if in_place else run(op, (t,), attrs)


def _to_integral(name):
    """floor / ceil / trunc: integers come back as a copy (torch's identity); zero gradient."""
    def forward(xp, a):
        return a.copy() if a.dtype.kind in "iu" else getattr(xp, name)(a)
    op = declare(name, name.capitalize() + "Backward0")(forward)
    op.def_backward(R.zero_gradient)
    return op


floor, ceil, trunc = (_to_integral(n) for n in ("floor", "ceil", "trunc"))


@declare("frac", "FracBackward0")
def frac(xp, a):
    return a - xp.trunc(a)  # exact: a and its integer part share their leading bits


@frac.def_backward
def _(ctx, grad):
    return (grad,)


def _classify(name):
    """isnan / isinf / isfinite: a bool tensor, no history."""
    return declare(name, None)(lambda xp, a: getattr(xp, name)(a))


isnan, isinf, isfinite = (_classify(n) for n in ("isnan", "isinf", "isfinite"))


@declare("relu", "ReluBackward0", saves={"result": (0,)})
def relu(xp, a):
    return xp.maximum(a, 0) if a.dtype != bool else a


@relu.def_backward
def _(ctx, grad):
    return (run(threshold_backward, (grad, ctx.result), {"threshold": 0}),)


@declare("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"),
         saves={"self": (0,)})
def threshold_backward(xp, grad, x, threshold):
    """+0. where ``x <= threshold``, else ``grad`` (relu's backward: NaN lets it through)."""
    return _masked(xp, grad, xp.logical_not(xp.less_equal(x, threshold)))


@threshold_backward.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    return (run(threshold_backward, (grad, ctx.self), dict(ctx.attrs)) if n[0] else None,
            R.zeros_like(grad) if n[1] else None)


@declare("clamp", "ClampBackward1", saves={"self": (0,)})
def clamp(xp, a, min=None, max=None):
    if min is not None:
        a = xp.maximum(a, scalar_as(min, a.dtype))
    if max is not None:
        a = xp.minimum(a, scalar_as(max, a.dtype))
    return a


@clamp.def_backward
def _(ctx, grad):
    x = ctx.self
    lo, hi = ctx.attrs.get("min"), ctx.attrs.get("max")
    mask = None
    if lo is not None:
        mask = x >= lo
    if hi is not None:
        mask = (x <= hi) if mask is None else mask & (x <= hi)
    return (grad if mask is None else where_tensor(mask, grad, 0),)


@declare("clamp_min", "ClampMinBackward0", saves={"self": (0,)})
def clamp_min(xp, a, min):
    return xp.maximum(a, scalar_as(min, a.dtype))


@declare("clamp_max", "ClampMaxBackward0", saves={"self": (0,)})
def clamp_max(xp, a, max):
    return xp.minimum(a, scalar_as(max, a.dtype))


@clamp_min.def_backward
def _(ctx, grad):
    return (where_tensor(ctx.self >= ctx.min, grad, 0),)


@clamp_max.def_backward
def _(ctx, grad):
    return (where_tensor(ctx.self <= ctx.max, grad, 0),)


@declare("fmod", "FmodBackward0", ("self", "other"))
def fmod(xp, a, b):
    _check_int_zero_division(a, b)
    return xp.fmod(a, b)  # C's remainder: the sign of the dividend


@fmod.def_backward
def _(ctx, grad):
    return grad, None


@declare("nan_to_num", "NanToNumBackward0", saves={"self": (0,)})
def nan_to_num(xp, a, nan=0.0, posinf=None, neginf=None):
    if a.dtype.kind != "f":
        return a.copy()
    return xp.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)


@nan_to_num.def_backward
def _(ctx, grad):
    return (where_tensor(ctx.self.isfinite(), grad, 0),)


@declare("isclose", None, ("self", "other"))
def isclose(xp, a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return xp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


@declare("where", "WhereBackward0", ("condition", "self", "other"), saves={"condition": (1, 2)})
def where(xp, c, a, b):
    return xp.where(c, a, b)


@where.def_backward
def _(ctx, grad):
    c = ctx.condition
    n = ctx.needs_input_grad
    return (None, where_tensor(c, grad, 0) if n[1] else None,
            where_tensor(c, 0, grad) if n[2] else None)


_UINT_OF_SIZE = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _is_plus_zero(value):
    return value.__class__ in (int, float) and value == 0 and math.copysign(1.0, value) > 0


def _masked(xp, x, cond):
    """where(cond, x, +0.) for a floating array ``x``: x's bits times cond (1 or 0) are the
    same bits, and branch-free; NumPy's where is ~15x slower on an unpredictable mask."""
    if x.dtype.kind != "f":
        return _as_array(xp.where(cond, x, x.dtype.type(0)), xp)
    bits = _UINT_OF_SIZE[x.itemsize]
    return _as_array(xp.multiply(x.view(bits), cond, dtype=bits), xp).view(x.dtype)


def where_tensor(condition, a, b):
    """torch.where(condition, a, b) with a and b tensors or scalars."""
    args = (condition, a, b)
    tensors = [x for x in args if isinstance(x, R.Tensor)]
    check_same_device(tensors)
    check_broadcast(tensors)
    dt = promote((a, b)) if any(isinstance(x, R.Tensor) for x in (a, b)) else \
        result_type([], (a, b))
    first = tensors[0]
    xp = first._backend.xp
    for x in (a, b):
        if not isinstance(x, R.Tensor):
            check_fits(x, dt)  # torch converts a scalar operand with an overflow check
    cond = condition._data.astype(bool, copy=False)
    x = to_array(a, dt, first)
    if dt.is_floating_point and isinstance(a, R.Tensor) and _is_plus_zero(b):
        out = _masked(xp, x, cond)
    else:
        out = _as_array(xp.where(cond, x, to_array(b, dt, first)), xp)
    if out.ndim > 1 and out.size and not all(
            t._data.flags.c_contiguous for t in tensors):
        out = torch_layout(out, tensors)
    result = wrap_result(out, first)
    if needs_grad((a, b)):
        record(where, args, (result,))
    return result


# -- comparisons and logic (no gradient) -----------------------------------------------------

def _compare(ufunc_name):
    def forward(xp, a, b):
        return getattr(xp, ufunc_name)(a, b)
    return declare(ufunc_name, None, ("self", "other"))(forward)


eq, ne, lt, le, gt, ge = (_compare(n) for n in ("equal", "not_equal", "less", "less_equal",
                                                 "greater", "greater_equal"))
logical_and, logical_or, logical_xor = (_compare(n) for n in ("logical_and", "logical_or",
                                                               "logical_xor"))
bitwise_and, bitwise_or, bitwise_xor = (_compare(n) for n in ("bitwise_and", "bitwise_or",
                                                               "bitwise_xor"))


@declare("logical_not", None)
def logical_not(xp, a):
    return xp.logical_not(a)


@declare("bitwise_not", None)
def bitwise_not(xp, a):
    return xp.invert(a)


@declare("maximum", "MaximumBackward0", ("self", "other"), saves={"self": (0, 1), "other": (0, 1)})
def maximum(xp, a, b):
    return xp.maximum(a, b)


@maximum.def_backward
def _(ctx, grad):
    a, b = ctx.self, ctx.other
    n = ctx.needs_input_grad
    half = grad * 0.5
    return (where_tensor(a > b, grad, where_tensor(a == b, half, 0)) if n[0] else None,
            where_tensor(b > a, grad, where_tensor(a == b, half, 0)) if n[1] else None)


@declare("minimum", "MinimumBackward0", ("self", "other"), saves={"self": (0, 1), "other": (0, 1)})
def minimum(xp, a, b):
    return xp.minimum(a, b)


@minimum.def_backward
def _(ctx, grad):
    a, b = ctx.self, ctx.other
    n = ctx.needs_input_grad
    half = grad * 0.5
    return (where_tensor(a < b, grad, where_tensor(a == b, half, 0)) if n[0] else None,
            where_tensor(b < a, grad, where_tensor(a == b, half, 0)) if n[1] else None)



# -- argument checks that torch makes before computing (Op.check) ------------------------------

def _is_bool(x):
    return isinstance(x, bool) or (isinstance(x, R.Tensor) and x._data.dtype == np.bool_)


def _check_sub(args):
    if _is_bool(args[0]) and _is_bool(args[1]):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(args[0]) or _is_bool(args[1]):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def _check_neg(args):
    if _is_bool(args[0]):
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def _check_abs(args):
    if _is_bool(args[0]):
        raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')


def _refuse(kernel, kinds):
    """A check refusing operands of NumPy kinds ``kinds`` as torch's kernel ``kernel`` does."""
    def check(args):
        dt = args[0]._data.dtype
        if dt.kind in kinds:
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{_BY_NP[dt].scalar_name}'")
    return check


def _check_relu(args):
    if _is_bool(args[0]):
        raise RuntimeError("Boolean inputs not supported for relu")


def _check_bitwise(name):
    def check(args):
        dt = promote(args)
        if dt.is_floating_point:
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{dt.scalar_name}\'')
    return check


def _check_invert(args):
    if args[0]._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")


add.ufunc, sub.ufunc, mul.ufunc, div.ufunc = np.add, np.subtract, np.multiply, np.true_divide
# Tensor's +, -, *, / (and add, sub, mul, div without alpha or rounding_mode)
add_method, sub_method = binary(add), binary(sub)
mul_method, div_method = binary(mul), binary(div, floating=True)
bitwise_and.check = _check_bitwise("bitwise_and")
bitwise_or.check = _check_bitwise("bitwise_or")
bitwise_xor.check = _check_bitwise("bitwise_xor")
bitwise_not.check = _check_invert
sub.check = rsub.check = _check_sub
neg.check = _check_neg
abs_.check = _check_abs
relu.check = _check_relu
frac.check = _refuse("frac_cpu", "biu")
for _op in (floor, ceil, trunc):
    _op.check = _refuse(_op.name + "_vml_cpu", "b")
