"""More elementwise functions: trigonometric and hyperbolic functions, logarithms and powers
of two, the binary functions torch has beyond arithmetic (hypot, copysign, logaddexp, gcd, ...)
and the logic and bit functions, declared like ``pointwise``'s records (the special functions
are in ``special_functions``).

Float functions compute float32 and float16 in float64 and round once (Note [float32
transcendentals], ``wide``).
"""

import collections
import math

import numpy as np

from .._dtypes import _BY_NP, result_type
from .._tensor_base import TensorBase
from ._dispatch import apply, apply_
from ._registry import declare
from .creation import zeros_like
from .pointwise import pow_any, rpow, where_tensor, wide

__all__ = ["binary_function", "no_half", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
           "acosh", "atanh", "log2", "log10", "exp2", "deg2rad", "rad2deg", "hypot", "copysign",
           "copysign_scalar", "logaddexp", "logaddexp2", "fmax", "fmin", "heaviside", "nextafter",
           "ldexp", "frexp", "gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift", "logical",
           "signbit", "isposinf", "isneginf", "check_bitwise_not", "compare_", "copysign_any",
           "float_power", "positive", "asinh_", "acosh_", "atanh_", "frexp_any", "ldexp_"]


def _kernel_error(kernel, dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{dtype.scalar_name}\'')


def _dtype_of(args):
    return result_type([a for a in args if isinstance(a, TensorBase)],
                       [a for a in args if not isinstance(a, TensorBase)])


def _floats_only(kernel):
    """A check refusing operands whose common dtype is no float, with the message of torch's
    kernel ``kernel``."""
    def check(*args, **attrs):
        dt = _dtype_of(args)
        if not dt.is_floating_point:
            raise _kernel_error(kernel, dt)
    return check


def no_half(kernel):
    """A check refusing float16 (torch has no half kernel for ``kernel``)."""
    def check(*args, **attrs):
        dt = _dtype_of(args)
        if dt.scalar_name == "Half":
            raise _kernel_error(kernel, dt)
    return check


# -- trigonometric, hyperbolic, logarithms and powers of two -------------------------------------

def _float_unary(name, grad_fn, saves, fn, aliases=(), inplace=True):
    """A float unary function of NumPy's ``fn`` computed wide, with its method, in-place
    method (unless ``inplace`` is False: a record of its own) and torch.* functions under its
    name and ``aliases``."""
    names = (name, *aliases)
    inplace = tuple(n + "_" for n in names) if inplace else ()
    return declare(name, grad_fn, kind="pointwise", promote="float", saves=saves, method=names,
                   inplace=inplace, function=names + inplace)(
        lambda xp, a: wide(getattr(xp, fn), a))


def _inplace_without_derivative(op, aliases):
    """The in-place form of ``op`` where torch has no derivative for it (asinh_, acosh_,
    atanh_): its own node (``<Name>Backward1``), whose backward raises torch's error."""
    names = tuple(n + "_" for n in (op.name, *aliases))
    inplace = declare(op.name, op.grad_fn[:-1] + "1", kind="pointwise", promote="float",
                      inplace=names, function=names)(op.forward)

    @inplace.def_backward
    def not_implemented(ctx, grad):
        raise NotImplementedError(f"the derivative for 'inplace version of {op.name}' is not "
                                  f"implemented.")
    return inplace


tan = _float_unary("tan", "TanBackward0", {"result": "self"}, "tan")
asin = _float_unary("asin", "AsinBackward0", {"self": "self"}, "arcsin", ("arcsin",))
acos = _float_unary("acos", "AcosBackward0", {"self": "self"}, "arccos", ("arccos",))
atan = _float_unary("atan", "AtanBackward0", {"self": "self"}, "arctan", ("arctan",))
sinh = _float_unary("sinh", "SinhBackward0", {"self": "self"}, "sinh")
cosh = _float_unary("cosh", "CoshBackward0", {"self": "self"}, "cosh")
asinh = _float_unary("asinh", "AsinhBackward0", {"self": "self"}, "arcsinh", ("arcsinh",),
                     inplace=False)
acosh = _float_unary("acosh", "AcoshBackward0", {"self": "self"}, "arccosh", ("arccosh",),
                     inplace=False)
atanh = _float_unary("atanh", "AtanhBackward0", {"self": "self"}, "arctanh", ("arctanh",),
                     inplace=False)
asinh_, acosh_, atanh_ = (_inplace_without_derivative(op, ("arc" + op.name[1:],))
                          for op in (asinh, acosh, atanh))
log2 = _float_unary("log2", "Log2Backward0", {"self": "self"}, "log2")
log10 = _float_unary("log10", "Log10Backward0", {"self": "self"}, "log10")
exp2 = _float_unary("exp2", "Exp2Backward0", {"result": "self"}, "exp2")


@tan.def_backward
def tan_backward(ctx, grad):
    return (grad * (1 + ctx.result ** 2),)


@asin.def_backward
def asin_backward(ctx, grad):
    x = ctx.self
    return (grad * (-x * x + 1).rsqrt(),)


@acos.def_backward
def acos_backward(ctx, grad):
    x = ctx.self
    return (grad * -((-x * x + 1).rsqrt()),)


@atan.def_backward
def atan_backward(ctx, grad):
    x = ctx.self
    return (grad / (x * x + 1),)


@sinh.def_backward
def sinh_backward(ctx, grad):
    return (grad * apply(cosh, ctx.self),)


@cosh.def_backward
def cosh_backward(ctx, grad):
    return (grad * apply(sinh, ctx.self),)


@asinh.def_backward
def asinh_backward(ctx, grad):
    return (grad * (ctx.self ** 2 + 1).rsqrt(),)


@acosh.def_backward
def acosh_backward(ctx, grad):
    x = ctx.self
    return (grad * (x * x - 1).rsqrt(),)


@atanh.def_backward
def atanh_backward(ctx, grad):
    return (grad * 1 / (1 - ctx.self ** 2),)


@log2.def_backward
def log2_backward(ctx, grad):
    return (grad / (ctx.self * 0.6931471805599453),)


@log10.def_backward
def log10_backward(ctx, grad):
    return (grad / (ctx.self * 2.3025850929940456),)


@exp2.def_backward
def exp2_backward(ctx, grad):
    return (grad * ctx.result * math.log(2),)


def _scaled_by(factor):
    """``a * factor`` as torch's multiplication by a number: in float32 for float16."""
    def forward(xp, a):
        x = a.astype(np.float32) if a.dtype == np.float16 else a
        return (x * x.dtype.type(factor)).astype(a.dtype, copy=False)
    return forward


_PI_180 = math.pi / 180
_180_PI = 180 / math.pi
deg2rad = declare("deg2rad", "Deg2RadBackward0", kind="pointwise", promote="float",
                  method="deg2rad", inplace="deg2rad_", function=("deg2rad", "deg2rad_"))(
    _scaled_by(_PI_180))
rad2deg = declare("rad2deg", "Rad2DegBackward0", kind="pointwise", promote="float",
                  method="rad2deg", inplace="rad2deg_", function=("rad2deg", "rad2deg_"))(
    _scaled_by(_180_PI))


@deg2rad.def_backward
def deg2rad_backward(ctx, grad):
    return (grad * _PI_180,)


@rad2deg.def_backward
def rad2deg_backward(ctx, grad):
    return (grad * _180_PI,)


# -- binary float functions ----------------------------------------------------------------------

def binary_function(name, grad_fn, saves, check=True, promote="common", inplace=True):
    """A binary record of torch's name with method, in-place method and function."""
    return declare(name, grad_fn, ("self", "other"), kind="pointwise", promote=promote,
                   saves=saves, check=_floats_only(name + "_cpu") if check else None,
                   method=name, inplace=name + "_" if inplace else None, function=name)


@binary_function("hypot", "HypotBackward0", {"self": "self", "other": "other", "result": (
    "self", "other")})
def hypot(xp, a, b):
    return wide(xp.hypot, a, b)


@hypot.def_backward
def hypot_backward(ctx, grad):
    n, r = ctx.needs_input_grad, ctx.result
    return (grad * ctx.self / r if n[0] else None, grad * ctx.other / r if n[1] else None)


def _copysign(xp, a, b):
    return xp.copysign(a, b)


copysign = binary_function("copysign", "CopysignBackward0", {"self": "self", "result": "self"},
                   check=False, promote="float")(_copysign)
copysign_scalar = declare("copysign", "CopysignBackward1", ("self", "other"), kind="pointwise",
                          promote="float", saves={"self": "self", "result": "self"})(_copysign)


def _copysign_self_backward(ctx, grad):
    x = ctx.self
    ratio = ctx.result / x
    return grad * where_tensor(x == 0, 0.0, ratio)


@copysign.def_backward
def copysign_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (_copysign_self_backward(ctx, grad) if n[0] else None,
            zeros_like(grad) if n[1] else None)


@copysign_scalar.def_backward
def copysign_scalar_backward(ctx, grad):
    return _copysign_self_backward(ctx, grad), None


def copysign_any(self, other, in_place=False):
    """``copysign``: a tensor ``other`` (CopysignBackward0) or a number (...Backward1)."""
    op = copysign if isinstance(other, TensorBase) else copysign_scalar
    return (apply_ if in_place else apply)(op, self, other)


def _logaddexp(xp, a, b, base2):
    """torch's max(a, b) + log1p(exp(-|a - b|)) (base 2: exp2, and the logarithm over
    log(2)), ``a`` where both are the same infinity; in a's float (float32 for float16), the
    transcendentals wide."""
    x = a.astype(np.float32) if a.dtype == np.float16 else a
    y = b.astype(x.dtype)
    power = wide(xp.exp2 if base2 else xp.exp, -xp.abs(x - y))
    tail = wide(xp.log1p, power)
    if base2:
        tail = tail * x.dtype.type(1 / math.log(2))
    out = xp.where(xp.isinf(x) & (x == y), x, xp.maximum(x, y) + tail)
    return out.astype(a.dtype, copy=False)


@binary_function("logaddexp", "LogaddexpBackward0", {"self": ("self", "other"),
                                             "other": ("self", "other")}, inplace=False)
def logaddexp(xp, a, b):
    return _logaddexp(xp, a, b, False)


@binary_function("logaddexp2", "Logaddexp2Backward0", {"self": ("self", "other"),
                                               "other": ("self", "other")}, inplace=False)
def logaddexp2(xp, a, b):
    return _logaddexp(xp, a, b, True)


@logaddexp.def_backward
def logaddexp_backward(ctx, grad):
    a, b, n = ctx.self, ctx.other, ctx.needs_input_grad
    return (grad / (1 + (b - a).exp()) if n[0] else None,
            grad / (1 + (a - b).exp()) if n[1] else None)


@logaddexp2.def_backward
def logaddexp2_backward(ctx, grad):
    a, b, n = ctx.self, ctx.other, ctx.needs_input_grad
    return (grad / (1 + 2 ** (b - a)) if n[0] else None,
            grad / (1 + 2 ** (a - b)) if n[1] else None)


def _fextreme(name, grad_fn, ufunc, keeps):
    """fmax / fmin: NaN loses; the gradient goes wholly to ``self`` where it wins or ties."""
    op = declare(name, grad_fn, ("self", "other"), kind="pointwise",
                 saves={"self": ("self", "other"), "other": ("self", "other")},
                 method=name, function=name)(lambda xp, a, b: getattr(xp, ufunc)(a, b))

    @op.def_backward
    def fextreme_backward(ctx, grad):
        a, b, n = ctx.self, ctx.other, ctx.needs_input_grad
        to_self = keeps(a, b) | b.isnan()
        return (where_tensor(to_self, grad, 0.0) if n[0] else None,
                where_tensor(to_self, 0.0, grad) if n[1] else None)
    return op


fmax = _fextreme("fmax", "FmaxBackward0", "fmax", lambda a, b: a >= b)
fmin = _fextreme("fmin", "FminBackward0", "fmin", lambda a, b: a <= b)


def _check_heaviside(a, values):
    if a.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


@declare("heaviside", "NotImplemented", ("self", "values"), kind="pointwise",
         check=_check_heaviside, method="heaviside", inplace="heaviside_", function="heaviside")
def heaviside(xp, a, values):
    """``values`` where a == 0, else (a > 0) (so NaN gives 0)."""
    return xp.where(a == 0, values, a > 0).astype(a.dtype)


@heaviside.def_backward
def heaviside_backward(ctx, grad):
    raise RuntimeError("derivative for aten::heaviside is not implemented")



@binary_function("nextafter", "NextafterBackward0", None)
def nextafter(xp, a, b):
    return xp.nextafter(a, b)


@nextafter.def_backward
def nextafter_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad if n[0] else None, zeros_like(grad) if n[1] else None)


@binary_function("ldexp", "LdexpBackward0", {"self": "other", "other": ("self", "other")},
         check=False, promote="float")
def ldexp(xp, a, b):
    return a * wide(xp.exp2, b)


def ldexp_(self, other):
    """``ldexp_``: torch's own message for a result its integer ``self`` cannot hold."""
    if not self.is_floating_point():
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{self.dtype.scalar_name}")
    return apply_(ldexp, self, other)


@ldexp.def_backward
def ldexp_backward(ctx, grad):
    n, power = ctx.needs_input_grad, 2 ** ctx.other
    return (grad * power if n[0] else None,
            grad * ctx.self * power * math.log(2) if n[1] else None)


def _check_frexp(a):
    if a._data.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")


@declare("frexp", "FrexpBackward0", kind="pointwise", check=_check_frexp,
         outputs=("mantissa", "exponent"), saves={"exponent": "self"}, method="frexp",
         function="frexp")
def frexp(xp, a):
    mantissa, exponent = xp.frexp(a)
    return mantissa, exponent.astype(np.int32)


@frexp.def_backward
def frexp_backward(ctx, grads):
    grad = grads[0]
    return (None if grad is None else grad / ctx.exponent.exp2(),)


class FrexpResult(collections.namedtuple("frexp", ["mantissa", "exponent"])):
    """``torch.return_types.frexp``: (mantissa, exponent), printed as torch prints it."""

    __slots__ = ()

    def __repr__(self):
        return (f"torch.return_types.frexp(\nmantissa={self.mantissa!r},\n"
                f"exponent={self.exponent!r})")


FrexpResult.__module__ = "torch.return_types"
FrexpResult.__name__ = FrexpResult.__qualname__ = "frexp"


def frexp_any(t):
    """``frexp``: its two results as torch's named tuple."""
    return FrexpResult(*apply(frexp, t))


# -- integer functions ---------------------------------------------------------------------------

def _integer_kernel(kernel, fn):
    """A forward refusing floats and bool as torch's integer kernel ``kernel`` does: in the
    kernel, so after the in-place checks (overlap, casting)."""
    def forward(xp, a, b):
        dt = xp.result_type(a, b)
        if dt.kind not in "iu":
            raise _kernel_error(kernel, _BY_NP[dt])
        return fn(xp, a, b)
    return forward


gcd = binary_function("gcd", None, None, check=False)(
    _integer_kernel("gcd_cpu", lambda xp, a, b: xp.gcd(a, b)))
lcm = binary_function("lcm", None, None, check=False)(
    _integer_kernel("lcm_cpu", lambda xp, a, b: xp.lcm(a, b)))


def _shift(name, kernel, left):
    """``<<`` / ``>>``: a shift by a negative amount or by the width or more gives 0 (or, right
    shifting a negative number, -1), as torch's kernels."""
    def forward(xp, a, b):
        a, b = xp.asarray(a), xp.asarray(b)
        bits = a.dtype.itemsize * 8
        out_of_range = (b < 0) | (b >= bits)
        amount = xp.where(out_of_range, 0, b).astype(a.dtype)
        if left:
            return xp.where(out_of_range, 0, xp.left_shift(a, amount)).astype(a.dtype)
        full = xp.right_shift(a, a.dtype.type(bits - 1)) if a.dtype.kind == "i" else 0
        return xp.where(out_of_range, full, xp.right_shift(a, amount)).astype(a.dtype)
    dunder = "lshift" if left else "rshift"
    return declare(name, None, ("self", "other"), kind="pointwise",
                   method=(name, f"__{dunder}__"), inplace=(name + "_", f"__i{dunder}__"),
                   function=name)(_integer_kernel(kernel, forward))


bitwise_left_shift = _shift("bitwise_left_shift", "lshift_cpu", True)
bitwise_right_shift = _shift("bitwise_right_shift", "rshift_cpu", False)


# -- logic, classification ---------------------------------------------------------------------

def _logical_record(name, ufunc):
    return declare(name, None, ("self", "other"), kind="pointwise", method=name,
                   inplace=name + "_", function=name)(lambda xp, a, b: getattr(xp, ufunc)(a, b))


_LOGICAL = {name: _logical_record(name, name) for name in ("logical_and", "logical_or",
                                                            "logical_xor")}
for _op in _LOGICAL.values():
    _op.promote = None  # Note [truth values in place]


def logical(name, self, other, position, in_place=False):
    """``logical_and`` & co.: tensors only (torch's message names ``other``'s ``position``:
    1 for the method, 2 for the function); in place, the truth values in ``self``'s dtype."""
    if not isinstance(other, TensorBase):
        raise TypeError(f"{name}{'_' if in_place else ''}(): argument 'other' (position "
                        f"{position}) must be Tensor, not {type(other).__name__}")
    return (apply_ if in_place else apply)(_LOGICAL[name], self, other)


def check_bitwise_not(t):
    """``bitwise_not`` refuses floats with its kernel's error (``~`` with Python's)."""
    if t._data.dtype.kind == "f":
        raise _kernel_error("bitwise_not_cpu", t.dtype)


def _classify(name, fn):
    return declare(name, None, kind="pointwise", method=name, function=name)(fn)


signbit = _classify("signbit", lambda xp, a: xp.signbit(a) if a.dtype.kind == "f" else a < 0)
isposinf = _classify("isposinf", lambda xp, a: xp.isposinf(a) if a.dtype.kind == "f"
                     else xp.zeros(a.shape, bool))
isneginf = _classify("isneginf", lambda xp, a: xp.isneginf(a) if a.dtype.kind == "f"
                     else xp.zeros(a.shape, bool))


# -- in-place comparisons: their nodes (a zero gradient) -------------------------------------------

# Note [truth values in place]
# ``x.gt_(y)`` and ``x.logical_and_(y)`` write 1 or 0 in x's own dtype, whatever y's: torch
# checks no casting for them (``torch.tensor([1, 2]).gt_(1.5)`` is ``tensor([0, 1])``), so their
# records take the operands as they come (``promote = None``; a pointwise record's default is
# the common dtype, whose cast into self's dtype the in-place dispatch checks).

def _compare_(name, ufunc, number):
    """``gt_`` & co. on a number (``<Name>Backward0``) or a tensor (``<Name>Backward1``): the
    truth values written in self's dtype (Note [truth values in place])."""
    grad_fn = f"{name.capitalize()}Backward{0 if number else 1}"
    alias = {"ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
             "ge": "greater_equal"}.get(name)
    op = declare(name, grad_fn, ("self", "other"), kind="pointwise",
                 inplace=(name + "_",) + ((alias + "_",) if alias else ()))(
        lambda xp, a, b: getattr(xp, ufunc)(a, b))
    op.promote = None

    @op.def_backward
    def compare_backward(ctx, grad):
        return zeros_like(grad), (zeros_like(grad) if ctx.needs_input_grad[1] else None)
    return op


_COMPARISONS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
                "gt": "greater", "ge": "greater_equal"}
_COMPARE_ = {(name, number): _compare_(name, ufunc, number)
             for name, ufunc in _COMPARISONS.items() for number in (True, False)}


def compare_(name, self, other):
    """``self.gt_(other)`` & co."""
    return apply_(_COMPARE_[name, not isinstance(other, TensorBase)], self, other)


# -- composites ----------------------------------------------------------------------------------

def positive(t):
    """``+t``: ``t`` itself (torch refuses bool)."""
    if t._data.dtype == np.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return t


def float_power(self, exponent, in_place=False):
    """``self ** exponent`` in float64: torch's composite (a copy to float64, then pow)."""
    if in_place:
        if self.dtype.scalar_name != "Double":
            raise RuntimeError(f"the base given to float_power_ has dtype "
                               f"{self.dtype.scalar_name} but the operation's result requires "
                               f"dtype Double")
        return pow_any(self, _as_double(exponent), in_place=True)
    if not isinstance(self, TensorBase):
        return apply(rpow, _as_double(exponent), base=float(self))
    return pow_any(_as_double(self), _as_double(exponent))


def _as_double(x):
    if isinstance(x, TensorBase):
        return x if x.dtype.scalar_name == "Double" else x.double()
    return float(x)
