"""Pointwise ops: arithmetic, comparisons and elementwise functions, with torch's promotion.

Each record is run by ``_dispatch.apply`` (out of place) or ``_dispatch.apply_`` (in place):
operands broadcast, promote (``promote="float"``: integers compute in the default float
dtype) and come out laid out as torch lays out a pointwise result.
"""

import math

import ml_dtypes
import numpy as np

from .._argparser import check_keywords
from .._dtypes import _BY_NP, bool_, check_fits, result_type
from .._exact.fma import fma32, fma64
from .._tensor_base import TensorBase
from ._dispatch import _OPERANDS, apply, apply_, as_number, autograd_check_, promote, scalar_as
from ._registry import declare
from .creation import zeros_like

__all__ = ["add", "sub", "rsub", "rsub_tensor", "mul", "div", "div_rounding", "reciprocal",
           "remainder", "remainder_tensor", "floor_divide", "pow_scalar", "pow_tensor", "rpow",
           "neg", "abs_", "sign", "sgn", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
           "rsqrt", "log1p", "expm1", "erf", "erfc", "atan2", "round_", "round_decimals", "floor",
           "ceil", "trunc", "frac", "isnan", "isinf", "isfinite", "relu", "clamp", "clamp_min",
           "clamp_max", "fmod", "fmod_tensor", "fmod_any", "nan_to_num", "isclose", "where", "eq",
           "ne", "lt", "le", "gt",
           "ge", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
           "maximum", "minimum", "threshold_backward", "tanh_backward", "sigmoid_backward", "wide",
           "zero_gradient", "scaled", "div_tensor", "remainder_any", "pow_any",
           "round_tensor", "clamp_tensor", "where_tensor", "add_number", "times_number",
           "over_number"]


def zero_gradient(ctx, grad):
    """The backward of an op whose output does not depend on its input (sign, round, the
    random fills): zeros (``grad * 0`` would turn negative gradients into -0., which prints
    differently)."""
    return (zeros_like(grad),)


def _is_bool(x):
    return isinstance(x, bool) or getattr(getattr(x, "_data", None), "dtype", None) == np.bool_


def _refuse(kernel, kinds):
    """A check refusing operands of NumPy kinds ``kinds`` as torch's kernel ``kernel`` does."""
    def check(a, *rest, **attrs):
        dt = a._data.dtype
        if dt.kind in kinds:
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{_BY_NP[dt].scalar_name}'")
    return check


def _no_complex(kernel):
    """A check refusing complex operands (the dtype they compute in) as torch's kernel
    ``kernel`` does (``NotImplementedError``)."""
    def check(*args, **attrs):
        dt = result_type([a for a in args if isinstance(a, TensorBase)],
                         [a for a in args if isinstance(a, (int, float, complex))])
        if dt.is_complex:
            raise NotImplementedError(f'"{kernel}" not implemented for \'{dt.scalar_name}\'')
    return check


def _check_not_complex(message):
    """A check raising torch's ``NotImplementedError(message)`` for a complex tensor."""
    def check(a, *rest, **attrs):
        if a._data.dtype.kind == "c":
            raise NotImplementedError(message)
    return check


def _conj(x):
    """The complex conjugate of a tensor (itself if real) or a number, for the backward
    formulas (Note [conjugate Wirtinger] in ops/spectral.py)."""
    if isinstance(x, TensorBase):
        return x.conj() if x._data.dtype.kind == "c" else x  # a real tensor is its own
    return x.conjugate()


def _check_int_zero_division(a, b):
    """torch raises for an integer division by zero (NumPy gives 0 and a warning); an empty
    result divides nothing."""
    if getattr(a, "dtype", None) is not None and a.dtype.kind in "iub" and a.size and not (
            b != 0).all():
        raise RuntimeError("ZeroDivisionError")


# -- arithmetic ------------------------------------------------------------------------------

def _add_scaled(xp, a, b, alpha, out=None):
    """``a + alpha * b`` as torch's CPU kernel computes it: one fused multiply-add for floats.

    ``out`` (``a``'s own array, in place) may receive the result: a float32 fma writes there
    when that is safe (Note [bracketed fma32]); the result is returned either way.
    """
    dt = getattr(a, "dtype", None)
    if dt in (np.float32, np.float64) and getattr(b, "dtype", None) == dt:
        if dt == np.float32 and out is not None and a.ndim and a.shape == b.shape:
            return fma32(b, dt.type(alpha), a, out=out)
        fma = fma32 if dt == np.float32 else fma64
        result = fma(np.atleast_1d(b), dt.type(alpha), np.atleast_1d(a))
        return result.reshape(np.broadcast_shapes(np.shape(a), np.shape(b)))
    return xp.add(a, b * scalar_as(alpha, b.dtype))


def _check_sub(a, b, alpha=1):
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(a) or _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


@declare("add", "AddBackward0", ("self", "other"), kind="pointwise", ufunc=np.add,
         method=("add", "__add__", "__radd__"), inplace=("add_", "__iadd__"), function="add")
def add(xp, a, b, alpha=1, out=None):
    return xp.add(a, b, out=out) if alpha == 1 else xp.add(a, b * scalar_as(alpha, b.dtype),
                                                           out=out)


@add.on_cpu
def add_cpu(xp, a, b, alpha=1, out=None):
    """On the CPU a scaled add is torch's fused multiply-add (Note [kernels by device])."""
    return xp.add(a, b, out=out) if alpha == 1 else _add_scaled(np, a, b, alpha, out)


@add.def_backward
def add_backward(ctx, grad):
    alpha = ctx.attrs.get("alpha", 1)
    return grad, (grad if alpha == 1 else grad * alpha)


@declare("sub", "SubBackward0", ("self", "other"), kind="pointwise", ufunc=np.subtract,
         check=_check_sub, method=("sub", "__sub__", "subtract"),
         inplace=("sub_", "__isub__", "subtract_"), function=("sub", "subtract"))
def sub(xp, a, b, alpha=1, out=None):
    return xp.subtract(a, b, out=out) if alpha == 1 else xp.add(
        a, b * scalar_as(-alpha, b.dtype), out=out)


@sub.on_cpu
def sub_cpu(xp, a, b, alpha=1, out=None):
    return xp.subtract(a, b, out=out) if alpha == 1 else _add_scaled(np, a, b, -alpha, out)


@sub.def_backward
def sub_backward(ctx, grad):
    alpha = ctx.attrs.get("alpha", 1)
    return grad, (-grad if alpha == 1 else grad * -alpha)


def scaled(run, op, self, other, alpha=1):
    """``run(op, self, other, alpha=alpha)`` (``run``: ``apply`` or ``apply_``) for add, sub
    and rsub, with no attrs at all for alpha 1 (the fast path's case).  An alpha other than
    the int 1 is checked against the computation's dtype first, as torch's ``alpha_check``."""
    if alpha.__class__ is not int:
        alpha = as_number(alpha)
        if isinstance(alpha, (bool, float, complex)) and isinstance(other, _OPERANDS):
            _check_alpha(promote((self, other)), alpha)
    return run(op, self, other) if alpha == 1 else run(op, self, other, alpha=alpha)


def _check_alpha(dtype, alpha):
    if isinstance(alpha, bool) and dtype is not bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, complex)) and dtype.category < 2:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(alpha, complex) and dtype.category != 3:
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex "
                           "number.")


def _reversed(forward):
    """``other - alpha * self``: sub's forward with its operands swapped."""
    def rsub_forward(xp, a, b, alpha=1):
        return forward(xp, b, a, alpha)
    return rsub_forward


# rsub(self, other): RsubBackward1 for a number ``other`` (``2 - t``), RsubBackward0 for a tensor
rsub = declare("rsub", "RsubBackward1", ("self", "other"), kind="pointwise", check=_check_sub,
               method="__rsub__", function="rsub")(_reversed(sub.forward))
rsub_tensor = declare("rsub", "RsubBackward0", ("self", "other"), kind="pointwise",
                      check=_check_sub, function="rsub", layout="swapped")(_reversed(sub.forward))
for _op in (rsub, rsub_tensor):
    _op.on_cpu(_reversed(sub.cpu_forward))


@rsub.def_backward
def rsub_backward(ctx, grad):
    alpha = ctx.attrs.get("alpha", 1)
    return (-grad if alpha == 1 else grad * -alpha), None


@rsub_tensor.def_backward
def rsub_tensor_backward(ctx, grad):
    return rsub_backward(ctx, grad)[0], grad


@declare("mul", "MulBackward0", ("self", "other"), kind="pointwise", ufunc=np.multiply,
         saves={"self": "other", "other": "self"},
         method=("mul", "__mul__", "__rmul__", "multiply"),
         inplace=("mul_", "__imul__", "multiply_"), function=("mul", "multiply"))
def mul(xp, a, b, out=None):
    return xp.multiply(a, b, out=out)


@mul.def_backward
def mul_backward(ctx, grad):
    n = ctx.needs_input_grad
    return ((grad * _conj(ctx.other) if n[0] else None),  # Note [conjugate Wirtinger]
            (grad * _conj(ctx.self) if n[1] else None))


@declare("div", "DivBackward0", ("self", "other"), kind="pointwise", promote="float",
         ufunc=np.true_divide, saves={"self": "other", "other": ("self", "other")},
         method=("div", "__truediv__", "divide", "true_divide"),
         inplace=("div_", "__itruediv__", "divide_", "true_divide_"),
         function=("div", "true_divide", "divide"))
def div(xp, a, b, out=None):
    return xp.true_divide(a, b, out=out)


@div.def_backward
def div_backward(ctx, grad):
    n = ctx.needs_input_grad
    other = ctx.other
    ga = grad / _conj(other) if n[0] else None
    gb = -grad * _conj(ctx.self / other / other) if n[1] else None  # torch's order
    return ga, gb


def _check_div_rounding(a, b, rounding_mode):
    _no_complex(f"div_{rounding_mode}_cpu")(a, b)


@declare("div", "DivBackward2", ("self", "other"), kind="pointwise", method="div",
         function="div", check=_check_div_rounding)
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
def div_rounding_backward(ctx, grad):
    zero = zeros_like(grad)  # rounding makes the quotient piecewise constant
    n = ctx.needs_input_grad
    return (zero if n[0] else None), (zero if n[1] else None)


def div_tensor(self, other, rounding_mode=None, in_place=False):
    """``div`` (``div_``): true division, or with ``rounding_mode`` torch's other overload."""
    run = apply_ if in_place else apply
    if rounding_mode is None:
        return run(div, self, other)
    if in_place:
        autograd_check_(self, other)
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or "
                           f"'floor' but found '{rounding_mode}'")
    return run(div_rounding, self, other, rounding_mode=rounding_mode)


@declare("reciprocal", "ReciprocalBackward0", kind="pointwise", promote="float",
         saves={"result": "self"}, method="reciprocal", inplace="reciprocal_",
         function="reciprocal")
def reciprocal(xp, a):
    return xp.reciprocal(a)


@reciprocal.def_backward
def reciprocal_backward(ctx, grad):
    r = ctx.result
    return (-grad * (r * r).conj(),)


@declare("remainder", "RemainderBackward0", ("self", "other"), kind="pointwise",
         method=("remainder", "__mod__"), function="remainder")
def remainder(xp, a, b):
    """The sign of the divisor, as torch's kernel: fmod, plus ``b`` where the signs differ
    (so -2. % 2. is -0., where NumPy's remainder gives 0.)."""
    _check_int_zero_division(a, b)
    m = xp.fmod(a, b)
    if m.dtype.kind != "f":
        return xp.remainder(a, b)
    return xp.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


@remainder.def_backward
def remainder_backward(ctx, grad):
    return grad, None


@declare("remainder", "RemainderBackward1", ("self", "other"), kind="pointwise",
         saves={"self": "other", "other": "other"},
         method=("remainder", "__mod__"), function="remainder")
def remainder_tensor(xp, a, b):
    return remainder.forward(xp, a, b)


@remainder_tensor.def_backward
def remainder_tensor_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad if n[0] else None,
            -grad * ctx.self.div(ctx.other, rounding_mode="floor") if n[1] else None)


def remainder_any(self, other):
    """``%`` / ``remainder``: a tensor divisor, or a number (torch's two overloads)."""
    return apply(remainder_tensor if isinstance(other, TensorBase) else remainder, self, other)


@declare("floor_divide", "NotImplemented", ("self", "other"), kind="pointwise",
         method=("floor_divide", "__floordiv__", "__rfloordiv__"), inplace="floor_divide_",
         function="floor_divide")
def floor_divide(xp, a, b):
    _check_int_zero_division(a, b)
    return xp.floor_divide(a, b)


@floor_divide.def_backward
def floor_divide_backward(ctx, grad):
    raise RuntimeError("derivative for aten::floor_divide is not implemented")


def _check_int_pow(a, exponent):
    if a._data.dtype.kind in "iub" and not isinstance(exponent, float) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")


@declare("pow", "PowBackward0", kind="pointwise", scalars=("exponent",), check=_check_int_pow,
         saves={"self": "self"}, method=("pow", "__pow__"), inplace="pow_", function="pow")
def pow_scalar(xp, a, exponent):
    return xp.power(a, exponent)


@pow_scalar.def_backward
def pow_scalar_backward(ctx, grad):
    e = ctx.attrs["exponent"]
    if e == 0:
        return (zeros_like(grad),)
    return (grad * (e * ctx.self ** (e - 1)).conj(),)


@declare("pow", "PowBackward1", ("self", "exponent"), kind="pointwise",
         saves={"self": ("self", "exponent"),
                                           "exponent": "self", "result": "exponent"},
         method=("pow", "__pow__"), inplace="pow_", function="pow")
def pow_tensor(xp, a, e):
    if a.dtype == bool:  # after promotion: a bool tensor to an int power computes in int64
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
def pow_tensor_backward(ctx, grad):
    n, ga = ctx.needs_input_grad, None
    if n[0]:  # torch: where(exponent == 0, 0, grad * exponent * self ** (exponent - 1))
        e = ctx.exponent
        ga = where_tensor(e == 0, 0, grad * (e * ctx.self ** (e - 1)))
    gb = grad * (ctx.result * ctx.self.log()) if n[1] else None
    return ga, gb


@declare("pow", "PowBackward2", kind="pointwise", scalars=("base",), layout="contiguous",
         saves={"result": "self"}, method="__rpow__")
def rpow(xp, a, base):
    """``base ** tensor``: torch.pow(scalar, tensor) allocates its result contiguously."""
    return int_pow(xp, scalar_as(base, a.dtype), a)


@rpow.def_backward
def rpow_backward(ctx, grad):
    return (grad * (ctx.result * math.log(ctx.attrs["base"])),)


def pow_any(self, exponent, in_place=False):
    """``pow`` / ``pow_``: a tensor exponent, or a number (torch's two overloads)."""
    run = apply_ if in_place else apply
    if isinstance(exponent, TensorBase):
        return run(pow_tensor, self, exponent)
    return run(pow_scalar, self, exponent=exponent)


def _check_neg(a):
    if _is_bool(a):
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


@declare("neg", "NegBackward0", kind="pointwise", check=_check_neg,
         method=("neg", "negative", "__neg__"), inplace=("neg_", "negative_"),
         function=("neg", "negative"))
def neg(xp, a):
    return xp.negative(a)


@neg.def_backward
def neg_backward(ctx, grad):
    return (-grad,)


# -- elementwise functions ------------------------------------------------------------------

@declare("abs", "AbsBackward0", kind="pointwise", check=_refuse("abs_cpu", "b"),
         saves={"self": "self"}, method=("abs", "__abs__", "absolute"),
         inplace=("abs_", "absolute_"), function=("abs", "absolute"))
def abs_(xp, a):
    return xp.abs(a)


@abs_.def_backward
def abs_backward(ctx, grad):
    return (grad * apply(sgn, ctx.self),)


def _sign(xp, a):
    """torch's ``(0 < a) - (a < 0)``: NaN and -0. give +0. (NumPy's sign keeps them)."""
    if a.dtype.kind != "f":
        return a.copy() if a.dtype == bool else xp.sign(a)
    out = (a > 0).astype(a.dtype)
    out -= a < 0
    return out


sign = declare("sign", "SignBackward0", kind="pointwise", method="sign", inplace="sign_",
               function="sign", check=_check_not_complex(
                   "Unlike NumPy, torch.sign is not intended to support complex numbers. Please "
                   "use torch.sgn instead."))(_sign)
sgn = declare("sgn", "SgnBackward0", kind="pointwise", method="sgn", inplace="sgn_",
              function="sgn")(_sign)  # sign for real numbers; abs's backward uses it
sign.def_backward(zero_gradient)
sgn.def_backward(zero_gradient)


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
# it is 0.99999994, so ``tensor([1., 2.]).exp().log()`` still prints ``1.0000``).  sqrt too
# goes through MKL (vsSqrt), which on this machine is not correctly rounded: 17% of float32
# roots (1.3% of float64 ones) are one ulp from NumPy's correctly rounded ``sqrt``.  float16
# goes the same way and then to float16, as torch's half kernels compute in float32 and round
# that result.  float64 inputs use NumPy's float64 loops as they are.

_NARROW = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def wide(fn, a, *more):
    """``fn(a, *more)`` computed in float64 for float32/float16 arrays (all of ``a``'s dtype),
    rounded to float32 and then to ``a``'s dtype (Note [float32 transcendentals])."""
    if a.dtype in _NARROW:
        args = (x.astype(np.float64) for x in (a, *more))
        return fn(*args).astype(np.float32).astype(a.dtype, copy=False)
    return fn(a, *more)


def _unary(name, grad_fn, saves, fn):
    """A float unary function computed wide (Note [float32 transcendentals]), with its
    method, in-place method and torch.* function of the same name."""
    return declare(name, grad_fn, kind="pointwise", promote="float", saves=saves,
                   method=name, inplace=name + "_", function=name)(
        lambda xp, a: wide(getattr(xp, fn), a))


exp = _unary("exp", "ExpBackward0", {"result": "self"}, "exp")
log = _unary("log", "LogBackward0", {"self": "self"}, "log")
sin = _unary("sin", "SinBackward0", {"self": "self"}, "sin")
cos = _unary("cos", "CosBackward0", {"self": "self"}, "cos")
tanh = _unary("tanh", "TanhBackward0", {"result": "self"}, "tanh")
log1p = _unary("log1p", "Log1PBackward0", {"self": "self"}, "log1p")
expm1 = _unary("expm1", "Expm1Backward0", {"result": "self"}, "expm1")


@exp.def_backward
def exp_backward(ctx, grad):
    return (grad * ctx.result.conj(),)


@log.def_backward
def log_backward(ctx, grad):
    return (grad / ctx.self.conj(),)


@sin.def_backward
def sin_backward(ctx, grad):
    return (grad * ctx.self.cos().conj(),)


@cos.def_backward
def cos_backward(ctx, grad):
    return (grad * -ctx.self.sin().conj(),)


@tanh.def_backward
def tanh_grad(ctx, grad):
    return (apply(tanh_backward, grad, ctx.result),)


@log1p.def_backward
def log1p_backward(ctx, grad):
    return (grad / (ctx.self + 1),)


@expm1.def_backward
def expm1_backward(ctx, grad):
    return (grad * (ctx.result + 1),)


@declare("sqrt", "SqrtBackward0", kind="pointwise", promote="float", saves={"result": "self"},
         method="sqrt", inplace="sqrt_", function="sqrt")
def sqrt(xp, a):
    return xp.sqrt(a)


@sqrt.def_backward
def sqrt_backward(ctx, grad):
    return (grad / (2 * ctx.result.conj()),)


@declare("tanh_backward", "TanhBackwardBackward0", ("grad_output", "output"), kind="pointwise",
         saves={"grad_output": "output", "output": ("grad_output", "output")})
def tanh_backward(xp, g, y):
    return g * (1 - y * y)


@tanh_backward.def_backward
def tanh_backward_backward(ctx, grad):
    n, y = ctx.needs_input_grad, ctx.output
    return (apply(tanh_backward, grad, y) if n[0] else None,
            grad * (-2 * y * ctx.grad_output) if n[1] else None)


@declare("sigmoid", "SigmoidBackward0", kind="pointwise", promote="float",
         saves={"result": "self"}, method="sigmoid", inplace="sigmoid_", function="sigmoid")
def sigmoid(xp, a):
    # torch's kernel: 1 / (1 + exp(-a)) in float32 for float32 and float16 (so exp(90.) is inf
    # and sigmoid(-90.) is 0., not 8e-40), its exp as in Note [float32 transcendentals]
    if a.dtype in _NARROW:
        e = wide(xp.exp, -a.astype(np.float32))
        return (1 / (1 + e)).astype(a.dtype, copy=False)
    return 1 / (1 + xp.exp(-a))


@sigmoid.def_backward
def sigmoid_grad(ctx, grad):
    return (apply(sigmoid_backward, grad, ctx.result),)


@declare("sigmoid_backward", "SigmoidBackwardBackward0", ("grad_output", "output"),
         kind="pointwise", saves={"grad_output": "output", "output": ("grad_output", "output")})
def sigmoid_backward(xp, g, y):
    return g * (1 - y) * y


@sigmoid_backward.def_backward
def sigmoid_backward_backward(ctx, grad):
    n, y = ctx.needs_input_grad, ctx.output
    return (apply(sigmoid_backward, grad, y) if n[0] else None,
            grad * ctx.grad_output * (-2 * y + 1) if n[1] else None)


@declare("rsqrt", "RsqrtBackward0", kind="pointwise", promote="float", saves={"result": "self"},
         method="rsqrt", inplace="rsqrt_", function="rsqrt")
def rsqrt(xp, a):
    x = a.astype(np.float32) if a.dtype == np.float16 else a  # half: in float32, rounded once
    return (1 / xp.sqrt(x)).astype(a.dtype, copy=False)


@rsqrt.def_backward
def rsqrt_backward(ctx, grad):
    return (-0.5 * grad * ctx.result ** 3,)


_ERF = np.frompyfunc(math.erf, 1, 1)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _libm(fn):
    """A float64 libm function (Python's math) applied elementwise (NumPy has no erf)."""
    return lambda a: fn(a).astype(np.float64) if a.ndim else np.float64(fn(a))


def _erf_op(name, fn, sign):
    """erf (``sign`` 1) or erfc (-1, its complement): libm's values; derivative
    ``sign * 2 / sqrt(pi) * exp(-x^2)``."""
    op = declare(name, name.capitalize() + "Backward0", kind="pointwise", promote="float",
                 saves={"self": "self"}, method=name, inplace=name + "_", function=name)(
        lambda xp, a: xp.asarray(wide(_libm(fn), a)))

    @op.def_backward
    def erf_backward(ctx, grad):
        x = ctx.self
        return (grad * (sign * 2 / math.sqrt(math.pi)) * (-(x * x)).exp(),)
    return op


erf = _erf_op("erf", _ERF, 1)
erfc = _erf_op("erfc", _ERFC, -1)


@declare("atan2", "Atan2Backward0", ("self", "other"), kind="pointwise", promote="float",
         saves={"self": ("self", "other"), "other": ("self", "other")},
         method=("atan2", "arctan2"), inplace=("atan2_", "arctan2_"),
         function=("atan2", "arctan2"))
def atan2(xp, a, b):
    return wide(xp.arctan2, a, b)


@atan2.def_backward
def atan2_backward(ctx, grad):
    y, x, n = ctx.self, ctx.other, ctx.needs_input_grad
    square = y * y + x * x
    recip = where_tensor(square == 0, 0.0, square.reciprocal())  # 0 at the origin, as torch
    return (grad * x * recip if n[0] else None, grad * -y * recip if n[1] else None)


# -- rounding and classification ----------------------------------------------------------------

def _check_round(a, decimals=None):
    kind = a._data.dtype.kind
    if kind in "bc" or (kind in "iu" and decimals is not None):
        kernel = "round_cpu" if decimals else "round_vml_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{a.dtype.scalar_name}\'')


@declare("round", "RoundBackward0", kind="pointwise", check=_check_round, method="round",
         inplace="round_", function="round")
def round_(xp, a):
    return a.copy() if a.dtype.kind in "iu" else xp.rint(a)  # rint: half to even, as torch


@declare("round", "RoundBackward1", kind="pointwise", check=_check_round, method="round",
         inplace="round_", function="round")
def round_decimals(xp, a, decimals):
    x = a.astype(np.float32) if a.dtype == np.float16 else a  # torch's kernel: in float32
    ten = x.dtype.type(10.0 ** abs(decimals))
    out = xp.rint(x / ten) * ten if decimals < 0 else xp.rint(x * ten) / ten
    return out.astype(a.dtype, copy=False)


round_.def_backward(zero_gradient)
round_decimals.def_backward(zero_gradient)


def round_tensor(t, decimals=None, in_place=False):
    """``round()``/``round_()``: half to even; ``decimals=`` (even 0) is torch's other overload
    (RoundBackward1), which integer tensors refuse."""
    run = apply_ if in_place else apply
    return run(round_, t) if decimals is None else run(round_decimals, t, decimals=decimals)


def _refuse_integral(name):
    """floor/ceil/trunc refuse bool (their vml kernel) and complex tensors."""
    bools, complexes = _refuse(name + "_vml_cpu", "b"), _check_not_complex(
        f"{name} is not supported for complex inputs")

    def check(a):
        bools(a)
        complexes(a)
    return check


def _to_integral(name):
    """floor / ceil / trunc: integers come back as a copy (torch's identity); zero gradient."""
    def forward(xp, a):
        return a.copy() if a.dtype.kind in "iu" else getattr(xp, name)(a)
    op = declare(name, name.capitalize() + "Backward0", kind="pointwise",
                 check=_refuse_integral(name), method=name, inplace=name + "_",
                 function=name)(forward)
    op.def_backward(zero_gradient)
    return op


floor, ceil, trunc = (_to_integral(n) for n in ("floor", "ceil", "trunc"))


@declare("frac", "FracBackward0", kind="pointwise", check=_refuse("frac_cpu", "biuc"),
         method="frac", inplace="frac_", function="frac")
def frac(xp, a):
    return a - xp.trunc(a)  # exact: a and its integer part share their leading bits


@frac.def_backward
def frac_backward(ctx, grad):
    return (grad,)


def _classify(name):
    """isnan / isinf / isfinite: a bool tensor, no history."""
    return declare(name, None, kind="pointwise", method=name, function=name)(
        lambda xp, a: getattr(xp, name)(a))


isnan, isinf, isfinite = (_classify(n) for n in ("isnan", "isinf", "isfinite"))


# -- relu, clamp and friends ----------------------------------------------------------------------

_NO_COMPLEX_CLAMP = _check_not_complex("clamp is not supported for complex types")


def _check_bound(name):
    """``clamp_min``/``clamp_max``'s check: a bound (torch's argument parser refuses None) of
    a real tensor."""
    def check(a, **attrs):
        if attrs.get(name[-3:]) is None:
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"(NoneType), but expected one of:\n * (Tensor {name[-3:]})\n"
                            "      didn't match because some of the arguments have invalid "
                            "types: (!NoneType!)\n"
                            f" * (Number {name[-3:]})\n      didn't match because some of the "
                            "arguments have invalid types: (!NoneType!)\n")
        _NO_COMPLEX_CLAMP(a)
    return check


def _check_relu(a):
    if _is_bool(a):
        raise RuntimeError("Boolean inputs not supported for relu")
    _NO_COMPLEX_CLAMP(a)


@declare("relu", "ReluBackward0", kind="pointwise", check=_check_relu, saves={"result": "self"},
         method="relu", inplace="relu_", function="relu")
def relu(xp, a):
    return xp.maximum(a, 0) if a.dtype != bool else a


@relu.def_backward
def relu_backward(ctx, grad):
    return (apply(threshold_backward, grad, ctx.result, threshold=0),)


@declare("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"),
         kind="pointwise", saves={"self": "grad_output"})
def threshold_backward(xp, grad, x, threshold):
    """+0. where ``x <= threshold``, else ``grad`` (relu's backward: NaN lets it through)."""
    return _masked(xp, grad, xp.logical_not(xp.less_equal(x, threshold)))


@threshold_backward.def_backward
def threshold_backward_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (apply(threshold_backward, grad, ctx.self, **ctx.attrs) if n[0] else None,
            zeros_like(grad) if n[1] else None)


@declare("clamp", "ClampBackward1", kind="pointwise", scalars=("min", "max"),
         check=_NO_COMPLEX_CLAMP, saves={"self": "self"}, method=("clamp", "clip"),
         inplace=("clamp_", "clip_"), function=("clamp", "clip"))
def clamp(xp, a, min=None, max=None):
    if min is not None:
        a = xp.maximum(a, scalar_as(min, a.dtype))
    if max is not None:
        a = xp.minimum(a, scalar_as(max, a.dtype))
    return a


@clamp.def_backward
def clamp_backward(ctx, grad):
    x = ctx.self
    lo, hi = ctx.attrs.get("min"), ctx.attrs.get("max")
    mask = None
    if lo is not None:
        mask = x >= lo
    if hi is not None:
        mask = (x <= hi) if mask is None else mask & (x <= hi)
    return (grad if mask is None else where_tensor(mask, grad, 0),)


def clamp_tensor(t, min=None, max=None, in_place=False):
    """``clamp`` / ``clamp_`` with at least one bound (torch's refusal otherwise); bounds that
    are tensors take the Tensor overload (its own node; the bounds get gradients)."""
    if in_place:
        autograd_check_(t, min, max)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    run = apply_ if in_place else apply
    if isinstance(min, TensorBase) or isinstance(max, TensorBase):
        if not all(b is None or isinstance(b, TensorBase) for b in (min, max)):
            raise TypeError("clamp() received an invalid combination of arguments: a tensor "
                            "bound and a number bound (torch takes two tensors or two "
                            "numbers)")
        return run(clamp_bounds, t, min, max)
    return run(clamp, t, min=min, max=max)


# -- clamp with tensor bounds (torch's clamp.Tensor overloads) ------------------------------------

def _clamp_both(xp, a, lo, hi):
    """(a bound that is not given is None)"""
    if lo is not None:
        a = xp.maximum(a, lo)
    return a if hi is None else xp.minimum(a, hi)


clamp_bounds = declare("clamp", "ClampBackward0", ("self", "min", "max"), kind="pointwise",
                       check=_NO_COMPLEX_CLAMP,
                       saves=dict.fromkeys(("self", "min", "max"), ("self", "min", "max")))(
    _clamp_both)


@clamp_bounds.def_backward
def clamp_bounds_backward(ctx, grad):
    """torch's clamp_backward_min_max: where min > max the result is max, and only max gets
    the gradient."""
    n, x = ctx.needs_input_grad, ctx.self
    lo, hi = ctx.min, ctx.max
    if lo is not None and hi is not None:
        return (where_tensor((x >= lo).logical_and(x <= hi), grad, 0) if n[0] else None,
                where_tensor((x < lo).logical_and(lo < hi), grad, 0) if n[1] else None,
                where_tensor((x > hi).logical_or(hi < lo), grad, 0) if n[2] else None)
    if lo is not None:
        return (where_tensor(x >= lo, grad, 0) if n[0] else None,
                where_tensor(x < lo, grad, 0) if n[1] else None, None)
    return (where_tensor(x <= hi, grad, 0) if n[0] else None, None,
            where_tensor(x > hi, grad, 0) if n[2] else None)


def _one_bound(bound, grad_fn, ufunc, keep, give):
    """clamp_min's or clamp_max's Tensor overload (``bound``: "min" or "max"); ``self`` gets
    the gradient where ``keep(self, bound)``, the bound where ``give(self, bound)``."""
    op = declare("clamp_" + bound, grad_fn, ("self", bound), kind="pointwise",
                 check=_NO_COMPLEX_CLAMP,
                 saves=dict.fromkeys(("self", bound), ("self", bound)))(
        lambda xp, a, b: getattr(xp, ufunc)(a, b))

    @op.def_backward
    def one_bound_backward(ctx, grad):
        n, x, b = ctx.needs_input_grad, ctx.self, getattr(ctx, bound)
        return (where_tensor(keep(x, b), grad, 0) if n[0] else None,
                where_tensor(give(x, b), grad, 0) if n[1] else None)
    return op


clamp_min_bound = _one_bound("min", "ClampMinBackward1", "maximum", lambda x, b: x >= b,
                             lambda x, b: x < b)
clamp_max_bound = _one_bound("max", "ClampMaxBackward1", "minimum", lambda x, b: x <= b,
                             lambda x, b: x > b)


def clamp_one_bound(t, name, bound, in_place=False):
    """``clamp_min`` or ``clamp_max`` (``name``): the Tensor overload for a tensor bound, else
    the Scalar one."""
    run = apply_ if in_place else apply
    if isinstance(bound, TensorBase):
        return run(clamp_min_bound if name == "min" else clamp_max_bound, t, bound)
    return run(clamp_min if name == "min" else clamp_max, t, **{name: bound})


@declare("clamp_min", "ClampMinBackward0", kind="pointwise", scalars=("min",),
         check=_check_bound("clamp_min"), saves={"self": "self"}, method="clamp_min",
         inplace="clamp_min_", function="clamp_min")
def clamp_min(xp, a, min):
    return xp.maximum(a, scalar_as(min, a.dtype))


@declare("clamp_max", "ClampMaxBackward0", kind="pointwise", scalars=("max",),
         check=_check_bound("clamp_max"), saves={"self": "self"}, method="clamp_max",
         inplace="clamp_max_", function="clamp_max")
def clamp_max(xp, a, max):
    return xp.minimum(a, scalar_as(max, a.dtype))


@clamp_min.def_backward
def clamp_min_backward(ctx, grad):
    return (where_tensor(ctx.self >= ctx.min, grad, 0),)


@clamp_max.def_backward
def clamp_max_backward(ctx, grad):
    return (where_tensor(ctx.self <= ctx.max, grad, 0),)


@declare("fmod", "FmodBackward0", ("self", "other"), kind="pointwise", method="fmod",
         inplace="fmod_", function="fmod")
def fmod(xp, a, b):
    _check_int_zero_division(a, b)
    return xp.fmod(a, b)  # C's remainder: the sign of the dividend


@fmod.def_backward
def fmod_backward(ctx, grad):
    return grad, None


@declare("fmod", "FmodBackward1", ("self", "other"), kind="pointwise",
         saves={"self": "other", "other": "other"}, method="fmod", inplace="fmod_",
         function="fmod")
def fmod_tensor(xp, a, b):
    return fmod.forward(xp, a, b)


@fmod_tensor.def_backward
def fmod_tensor_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad if n[0] else None,
            -grad * ctx.self.div(ctx.other, rounding_mode="trunc") if n[1] else None)


def fmod_any(self, other):
    """``fmod``: a tensor divisor, or a number (torch's two overloads)."""
    return apply(fmod_tensor if isinstance(other, TensorBase) else fmod, self, other)


_NUMBER_OR_NONE = frozenset((float, int, type(None)))


def _check_nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    """torch's parser takes a number (or a 0-d tensor) or None for each replacement
    (``nan_to_num(t)``: the wrapper of ``_argparser.checked`` words the error)."""
    if nan.__class__ not in _NUMBER_OR_NONE or posinf.__class__ not in _NUMBER_OR_NONE or \
            neginf.__class__ not in _NUMBER_OR_NONE:
        check_keywords("nan_to_num", ("double? nan", nan), ("double? posinf", posinf),
                       ("double? neginf", neginf))


@declare("nan_to_num", "NanToNumBackward0", kind="pointwise", saves={"self": "self"},
         check=_check_nan_to_num, method="nan_to_num", inplace="nan_to_num_",
         function="nan_to_num")
def nan_to_num(xp, a, nan=0.0, posinf=None, neginf=None):
    if a.dtype.kind != "f":
        return a.copy()
    return xp.nan_to_num(a, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)


@nan_to_num.def_backward
def nan_to_num_backward(ctx, grad):
    return (where_tensor(ctx.self.isfinite(), grad, 0),)


def _check_isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if a.dtype is not b.dtype:
        raise RuntimeError(f"{a.dtype.scalar_name} did not match {b.dtype.scalar_name}")


@declare("isclose", None, ("self", "other"), kind="pointwise", check=_check_isclose,
         method="isclose", function="isclose")
def isclose(xp, a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return xp.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


# -- where ---------------------------------------------------------------------------------------

def _check_where(condition, a, b):
    if isinstance(a, (bool, int, float)) or isinstance(b, (bool, int, float)):
        dt = result_type([x for x in (a, b) if hasattr(x, "_data")],
                         [x for x in (a, b) if isinstance(x, (bool, int, float))])
        for x in (a, b):
            if isinstance(x, (bool, int, float)):
                check_fits(x, dt)  # torch converts a scalar operand with an overflow check


@declare("where", "WhereBackward0", ("condition", "self", "other"), kind="pointwise",
         unpromoted=("condition",), check=_check_where,
         saves={"condition": ("self", "other")}, method="where", function="where")
def where(xp, c, a, b):
    c = c.astype(bool, copy=False)
    if a.dtype.kind == "f" and np.ndim(b) == 0 and b == 0 and not np.signbit(b):
        return _masked(xp, a, c)
    return xp.where(c, a, b)


@where.def_backward
def where_backward(ctx, grad):
    c = ctx.condition
    n = ctx.needs_input_grad
    return (None, where_tensor(c, grad, 0) if n[1] else None,
            where_tensor(c, 0, grad) if n[2] else None)


def where_tensor(condition, a, b):
    """torch.where(condition, a, b) with a and b tensors or numbers."""
    return apply(where, condition, a, b)


_UINT_OF_SIZE = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _masked(xp, x, cond):
    """where(cond, x, +0.) for a floating array ``x``: x's bits times cond (1 or 0) are the
    same bits, and branch-free; NumPy's where is ~15x slower on an unpredictable mask."""
    if x.dtype.kind != "f":
        return xp.asarray(xp.where(cond, x, x.dtype.type(0)))
    bits = _UINT_OF_SIZE[x.itemsize]
    return xp.asarray(xp.multiply(x.view(bits), cond, dtype=bits)).view(x.dtype)


# -- comparisons and logic (no gradient) -----------------------------------------------------

def _check_invert(a):
    if a._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")


def _compare(name, ufunc, method, function=None, check=None, inplace=None, promote=None):
    return declare(name, None, ("self", "other"), kind="pointwise", check=check,
                   method=method, function=function, inplace=inplace, promote=promote)(
        lambda xp, a, b: getattr(xp, ufunc)(a, b))


eq = _compare("eq", "equal", ("eq", "__eq__"), "eq")
ne = _compare("ne", "not_equal", ("ne", "__ne__", "not_equal"), ("ne", "not_equal"))
lt = _compare("lt", "less", ("lt", "__lt__", "less"), ("lt", "less"), _no_complex("lt_cpu"))
le = _compare("le", "less_equal", ("le", "__le__", "less_equal"), ("le", "less_equal"),
              _no_complex("le_cpu"))
gt = _compare("gt", "greater", ("gt", "__gt__", "greater"), ("gt", "greater"),
              _no_complex("gt_cpu"))
ge = _compare("ge", "greater_equal", ("ge", "__ge__", "greater_equal"), ("ge", "greater_equal"),
              _no_complex("ge_cpu"))
bitwise_and = _compare("bitwise_and", "bitwise_and", ("__and__", "bitwise_and"), "bitwise_and",
                       None, ("bitwise_and_", "__iand__"), "common")
bitwise_or = _compare("bitwise_or", "bitwise_or", ("__or__", "bitwise_or"), "bitwise_or",
                      None, ("bitwise_or_", "__ior__"), "common")
bitwise_xor = _compare("bitwise_xor", "bitwise_xor", ("__xor__", "bitwise_xor"), "bitwise_xor",
                       None, ("bitwise_xor_", "__ixor__"), "common")


@declare("logical_not", None, kind="pointwise", method="logical_not", inplace="logical_not_",
         function="logical_not")
def logical_not(xp, a):
    return xp.logical_not(a)


@declare("bitwise_not", None, kind="pointwise", check=_check_invert,
         method=("__invert__", "bitwise_not"), inplace="bitwise_not_", function="bitwise_not")
def bitwise_not(xp, a):
    return xp.invert(a)


def _extreme(name, ufunc, grad_fn, wins):
    """maximum / minimum: the gradient goes to the winner, half to each of a tie."""
    op = declare(name, grad_fn, ("self", "other"), kind="pointwise",
                 saves={"self": ("self", "other"), "other": ("self", "other")},
                 method=name, function=name)(lambda xp, a, b: getattr(xp, ufunc)(a, b))

    @op.def_backward
    def extreme_backward(ctx, grad):  # torch's formulas (masked_fill_: at version 1)
        a, b = ctx.self, ctx.other
        n = ctx.needs_input_grad
        return (where_tensor(a == b, over_number(grad, 2), grad).masked_fill_(wins(b, a), 0)
                if n[0] else None,
                where_tensor(a == b, over_number(grad, 2), grad).masked_fill_(wins(a, b), 0)
                if n[1] else None)
    return op


maximum = _extreme("maximum", "maximum", "MaximumBackward0", lambda a, b: a > b)
minimum = _extreme("minimum", "minimum", "MinimumBackward0", lambda a, b: a < b)


# -- a tensor and a number, as torch's C++ composites write them ----------------------------------
# ``y * 0.5`` in C++ is torch's mul.Scalar (node MulBackward1), ``y / 2.`` its div.Scalar
# (DivBackward1), ``t + 1`` its add.Scalar (AddBackward1); Python's ``y * 0.5`` wraps the number
# into a tensor (MulBackward0).  Composites that torch writes in C++ (trapezoid, special.ndtr)
# end in these nodes.

@declare("add", "AddBackward1", kind="pointwise", scalars=("other",))
def add_scalar(xp, a, other):
    return a + other


@add_scalar.def_backward
def add_scalar_backward(ctx, grad):
    return (grad,)


@declare("mul_scalar", "MulBackward1", kind="pointwise", scalars=("other",))
def mul_scalar(xp, a, other):
    return a * other


@mul_scalar.def_backward
def mul_scalar_backward(ctx, grad):
    return (grad * ctx.other,)


@declare("div_scalar", "DivBackward1", kind="pointwise", promote="float", scalars=("other",))
def div_scalar(xp, a, other):
    return a / other


@div_scalar.def_backward
def div_scalar_backward(ctx, grad):
    return (grad / ctx.other,)


def add_number(t, number):
    """``t + number`` as a C++ composite writes it (AddBackward1)."""
    return apply(add_scalar, t, other=number)


def times_number(t, number):
    """``t * number`` as a C++ composite writes it (MulBackward1)."""
    return apply(mul_scalar, t, other=number)


def over_number(t, number):
    """``t / number`` as a C++ composite writes it (DivBackward1)."""
    return apply(div_scalar, t, other=number)
