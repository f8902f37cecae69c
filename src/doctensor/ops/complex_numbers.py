"""Complex numbers: conjugation, real and imaginary views, angle, complex and polar.

Complex tensors hold NumPy complex64/complex128 arrays; their gradients follow torch's
convention (Note [conjugate Wirtinger]).  ``real``/``imag``/``view_as_real``/``view_as_complex``
are views over the same storage; ``conj`` is torch's lazily conjugated view only as far as its
flags go (Note [conj bit]).
"""

import math

import numpy as np

from .._dtypes import _BY_NP
from ._dispatch import apply, apply_
from ._layout import preserve_layout
from ._registry import declare, view_op
from .creation import zeros_like
from .pointwise import where_tensor, wide
from .views import select

__all__ = ["conj", "conj_physical", "conj_physical_", "resolve_conj", "resolve_neg", "real",
           "imag", "view_as_real", "view_as_complex", "angle", "complex_", "polar", "adjoint",
           "hermitian", "is_conj", "is_neg", "as_real", "complex_of"]

# Note [conjugate Wirtinger]
# torch's gradient of a real loss L with respect to a complex z = x + iy is the conjugate
# Wirtinger derivative (times two): dL/dx + i dL/dy, so that ``z - lr * z.grad`` descends.
# By the chain rule a formula for a holomorphic f then reads ``grad * f'(z).conj()`` (mul:
# ``grad * other.conj()``, mm: ``grad @ other.mH``), and a real input that met a complex one
# takes the real part of its gradient (``_fit`` in ops/_registry.py).  On a real tensor
# ``conj()`` returns the tensor itself, so the formulas stay those of real calculus there.

# Note [conj bit]
# torch's ``conj()`` of a complex tensor is a view with a "conjugate" bit: no copy, the same
# storage, and ``is_conj()`` True until ``resolve_conj()`` makes a conjugated copy.  doctensor
# keeps the bit (``is_conj``, ``resolve_conj``, ``numpy()``'s refusal, ``view_as_real``'s)
# but computes the conjugate at once, into new memory laid out like its input: ``x.conj()``
# does not share ``x``'s storage, so a later write into one does not show in the other, and a
# view of ``x.conj()`` does not keep the bit.  ``imag`` of such a tensor has torch's
# "negative" bit (``is_neg``, ``resolve_neg``).


def is_conj(t):
    return getattr(t, "_is_conj", False)


def is_neg(t):
    return getattr(t, "_is_neg", False)


def _flagged(t, **flags):
    for name, value in flags.items():
        setattr(t, name, value)
    return t


# -- conjugation ------------------------------------------------------------------------------

@declare("conj", "ConjBackward0", layout="strided", method="conj", function="conj")
def _conj(xp, a):
    return preserve_layout(xp, xp.conj(a), a)  # (torch's view keeps the input's strides)


@_conj.def_backward
def conj_backward(ctx, grad):
    return (grad.conj(),)


def conj(t):
    """``conj()``: the complex conjugate with the conj bit set; a real tensor itself."""
    if not t.dtype.is_complex:
        return t
    return _flagged(apply(_conj, t), _is_conj=not is_conj(t))


@declare("conj_physical", "ConjPhysicalBackward0", kind="pointwise",
         method="conj_physical", function="conj_physical")
def _conj_physical(xp, a):
    return xp.conj(a)


_conj_physical_ = declare("conj_physical_", "ConjPhysicalBackward1", kind="pointwise",
                          inplace="conj_physical_", function="conj_physical_")(
    _conj_physical.forward)


@_conj_physical.def_backward
@_conj_physical_.def_backward
def conj_physical_backward(ctx, grad):
    return (grad.conj_physical(),)


def conj_physical(t):
    """The conjugate in new memory (no conj bit); a real tensor itself."""
    return apply(_conj_physical, t) if t.dtype.is_complex else t


def conj_physical_(t):
    """In place (also on a real tensor: torch records it and bumps the version)."""
    return apply_(_conj_physical_, t)


def resolve_conj(t):
    """A copy of a tensor with the conj bit set, without it; any other tensor itself."""
    return _flagged(t.clone(), _is_conj=False) if is_conj(t) else t


def resolve_neg(t):
    """A copy of a tensor with the negative bit set, without it; any other tensor itself."""
    return _flagged(t.clone(), _is_neg=False) if is_neg(t) else t


def adjoint(t):
    """The conjugate transpose of the last two dims (``mH``)."""
    if t.ndim < 2:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                           f"Got {t.ndim}-D tensor.")
    return t.transpose(-2, -1).conj()


def hermitian(t):
    """``Tensor.H``: the conjugate transpose of a matrix."""
    if t.ndim != 2 and t.ndim != 0:
        hint = " For batches of matrices, consider using tensor.mH" if t.ndim > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{t.ndim}-D tensor.{hint}")
    return t.transpose(0, 1).conj() if t.ndim else t.conj()


# -- real views ----------------------------------------------------------------------------------

@view_op("view_as_real", "ViewAsRealBackward0", unsaved=("real",), function="view_as_real")
def _view_as_real(shape, strides, offset, real):
    """A complex geometry seen as pairs of its real dtype: one more dim of size 2."""
    return ((*shape, 2), tuple(2 * s for s in strides) + (1,), 2 * offset, real)


@_view_as_real.def_backward
def view_as_real_backward(ctx, grad):
    return (view_as_complex(grad.contiguous()),)


def _check_as_real(t):
    if not t.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")


def view_as_real(t):
    """The complex tensor as a real one of shape ``(*shape, 2)`` over the same storage."""
    _check_as_real(t)
    if is_conj(t):
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To "
                           "resolve the conjugate tensor so you can view it as real, use "
                           "self.resolve_conj(); however, be warned that the resulting tensor "
                           "will NOT alias the original.")
    return as_real(t)


def as_real(t):
    return apply(_view_as_real, t, real=t.dtype.to_real().np)


def _check_as_complex(t):
    if t.dtype.name not in ("float16", "float32", "float64"):
        raise RuntimeError(f"view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {t.dtype.scalar_name}")
    if t.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if t.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    strides = t.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if t.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")


@view_op("view_as_complex", "ViewAsComplexBackward0", unsaved=("complex_",),
         function="view_as_complex")
def _view_as_complex(shape, strides, offset, complex_):
    return shape[:-1], tuple(s // 2 for s in strides[:-1]), offset // 2, complex_


@_view_as_complex.def_backward
def view_as_complex_backward(ctx, grad):
    return (view_as_real(grad.contiguous()),)


def complex_of(np_dtype):
    """The NumPy complex dtype whose parts are ``np_dtype`` (float16's, complex32, has none:
    reading it raises)."""
    return _BY_NP[np_dtype].to_complex().np


def view_as_complex(t):
    """A real tensor of shape ``(*shape, 2)`` as a complex one over the same storage."""
    _check_as_complex(t)
    return apply(_view_as_complex, t, complex_=complex_of(t._data.dtype))


def real(t):
    """The real parts: a view (``SelectBackward0``, as torch composes it); a real tensor
    itself."""
    if not t.dtype.is_complex:
        return t
    return apply(select, as_real(t), dim=-1, index=0)


def imag(t):
    """The imaginary parts, a view; of a tensor with the conj bit, with the negative bit."""
    if not t.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    out = apply(select, as_real(t), dim=-1, index=1)
    return _flagged(out, _is_neg=True) if is_conj(t) else out


# -- complex functions -------------------------------------------------------------------------

@declare("angle", "AngleBackward0", kind="pointwise", promote="float", saves={"self": "self"},
         layout="forward", method="angle", function="angle")
def angle(xp, a):
    """The argument of a complex number (atan2 of its parts, computed wide: Note [float32
    transcendentals]; a contiguous result, as torch's kernel gives); for a real one pi for
    negatives, 0 else, NaN kept (laid out like the input)."""
    if a.dtype.kind == "c":
        return xp.array(wide(xp.arctan2, a.imag, a.real), order="C")
    return xp.where(a < 0, a.dtype.type(math.pi), xp.where(xp.isnan(a), a, 0)).astype(a.dtype)


@angle.def_backward
def angle_backward(ctx, grad):
    x = ctx.self
    if not x.dtype.is_complex:
        return (zeros_like(x),)
    return (where_tensor(x == 0, 0, grad * x / x.abs().pow(2) * 1j),)


def _check_parts(a, b):
    """complex/polar's check: two real tensors of one floating dtype."""
    if a.dtype is not b.dtype:
        raise RuntimeError(f"Expected object of scalar type {a.dtype.scalar_name} but got "
                           f"scalar type {b.dtype.scalar_name} for second argument")
    if a.dtype.name not in ("float16", "float32", "float64"):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but "
                           f"got {a.dtype.scalar_name} and {b.dtype.scalar_name}")


@declare("complex", "ComplexBackward0", ("real", "imag"), kind="pointwise",
         check=_check_parts, function="complex")
def complex_(xp, re, im):
    out = xp.empty(np.broadcast_shapes(re.shape, im.shape), complex_of(re.dtype))
    out.real, out.imag = re, im
    return out


@complex_.def_backward
def complex_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (real(grad) if n[0] else None), (imag(grad) if n[1] else None)


@declare("polar", "PolarBackward0", ("abs", "angle"), kind="pointwise",
         check=_check_parts, saves={"result": ("abs", "angle")}, function="polar")
def polar(xp, r, theta):
    """``abs * cos(angle) + i abs * sin(angle)``, each part rounded as torch's kernel."""
    return complex_.forward(xp, r * wide(xp.cos, theta), r * wide(xp.sin, theta))


@polar.def_backward
def polar_backward(ctx, grad):
    result, n = ctx.result, ctx.needs_input_grad
    g = grad.conj()
    return (real(g * result.sgn()) if n[0] else None,
            real(g * (result * 1j)) if n[1] else None)
