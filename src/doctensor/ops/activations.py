"""The elementwise activations of ``nn.functional`` that torch declares as ops of their own
(ELU, SiLU, Softplus, Hardtanh ...), out of place and in place, with torch's grad_fn names.

Note [activation arithmetic]: each forward takes torch's steps in the tensor's dtype
(coefficients converted to it first, as ATen converts its ``Scalar`` arguments), and the
transcendental step (exp, expm1, log1p, tanh) in float64, rounded once: within an ulp of
torch's vectorised float32 kernels.  Backwards are written in doctensor ops, so a second
derivative follows (under ``create_graph`` its nodes are ours, not torch's
``EluBackwardBackward0`` & co.).
"""

import numpy as np

from .._dtypes import bool_, uint8
from .._exact.capability import in_vector_loop
from ..random import _check_floating
from ._dispatch import apply, apply_
from .nn_ops import _f, _floating
from .nn_ops import _nn_op as declare
from .pointwise import where_tensor, wide

__all__ = ["elu", "celu", "silu", "mish", "softplus", "hardtanh", "hardsigmoid", "hardswish",
           "log_sigmoid", "softshrink", "hardshrink", "threshold", "prelu"]


def _run(op, t, attrs, in_place, out_op=None):
    """``op`` on ``t``; in place, ``out_op`` (torch's in-place node, when it differs)."""
    if in_place:
        return apply_(out_op or op, t, **(attrs or {}))
    return apply(op, t, **(attrs or {}))


def _nan_inputs(x, grad, avx512):
    """The NaN elements of ``x`` that torch's CPU kernel computes in vectors and those in its
    scalar tail, as bool tensors, or None without NaN (Note [NaN in vector loops])."""
    if x.device.type != "cpu":
        return None
    nan = np.isnan(x._data)
    if not nan.any():
        return None
    vec = in_vector_loop(x._data, [grad._data], avx512)
    return x.new_tensor(nan & vec), x.new_tensor(nan & ~vec)


def _nan_in_vectors(x, grad, out, avx512=True):
    """``out`` (the scalar loop's result) with NaN where torch's vector loop reads a NaN
    input as NaN (elu's and hardswish's backward)."""
    nan = _nan_inputs(x, grad, avx512)
    return out if nan is None else where_tensor(nan[0], float("nan"), out)


def _grad_in_tail(x, grad, out):
    """``out`` (the vector loop's result) with the gradient passed where torch's scalar tail
    reads a NaN input as inside the interval (hardtanh's and the shrinks' backward)."""
    nan = _nan_inputs(x, grad, False)
    return out if nan is None else where_tensor(nan[1], grad, out)


# -- ELU family: elu, selu (elu with fixed coefficients) and celu -------------------------------

def _elu_forward(xp, a, alpha, scale, input_scale):
    negative = _f(alpha, a.dtype) * _f(scale, a.dtype)
    small = a * _f(input_scale, a.dtype)
    return xp.where(a <= 0, wide(xp.expm1, small) * negative, a * _f(scale, a.dtype))


def _elu_slope(x, alpha, scale, input_scale, from_result=False):
    """d elu / dx, from the input or (in place) from the result (where x <= 0, the result is
    negative * (exp(x * input_scale) - 1)).  At 0 the slope is a constant, so that the second
    derivative is 0 there, as torch's is."""
    negative = alpha * scale
    at_zero = negative * input_scale
    below = (x + negative) * input_scale if from_result else (x * input_scale).exp() * at_zero
    return where_tensor(x <= 0, where_tensor(x < 0, below, at_zero), scale)


@declare("elu", "EluBackward0", check=_floating("elu_cpu"), saves={"self": "self"})
def elu_op(xp, a, alpha=1.0, scale=1.0, input_scale=1.0):
    return _elu_forward(xp, a, alpha, scale, input_scale)


@elu_op.def_backward
def elu_backward(ctx, grad):
    x = ctx.self
    return (_nan_in_vectors(x, grad, grad * _elu_slope(x, ctx.alpha, ctx.scale,
                                                       ctx.input_scale)),)


@declare("elu_", "EluBackward1", check=_floating("elu_cpu"), saves={"result": "self"})
def elu_inplace_op(xp, a, alpha=1.0, scale=1.0, input_scale=1.0):
    return _elu_forward(xp, a, alpha, scale, input_scale)


@elu_inplace_op.def_backward
def elu_inplace_backward(ctx, grad):
    y = ctx.result
    return (_nan_in_vectors(y, grad, grad * _elu_slope(y, ctx.alpha, ctx.scale,
                                                       ctx.input_scale, True)),)


def elu(t, alpha=1.0, scale=1.0, input_scale=1.0, in_place=False):
    attrs = {"alpha": alpha, "scale": scale, "input_scale": input_scale}
    return _run(elu_op, t, attrs, in_place, elu_inplace_op)


@declare("celu", "CeluBackward0", check=_floating("elu_cpu"), saves={"self": "self"})
def celu_op(xp, a, alpha=1.0):
    return _elu_forward(xp, a, alpha, 1.0, 1.0 / alpha)


@celu_op.def_backward
def celu_backward(ctx, grad):
    x = ctx.self
    return (_nan_in_vectors(x, grad, grad * _elu_slope(x, ctx.alpha, 1.0, 1.0 / ctx.alpha)),)


@declare("celu_", "CeluBackward1", check=_floating("elu_cpu"), saves={"result": "self"})
def celu_inplace_op(xp, a, alpha=1.0):
    return _elu_forward(xp, a, alpha, 1.0, 1.0 / alpha)


@celu_inplace_op.def_backward
def celu_inplace_backward(ctx, grad):
    y = ctx.result
    return (_nan_in_vectors(y, grad, grad * _elu_slope(y, ctx.alpha, 1.0, 1.0 / ctx.alpha,
                                                       True)),)


def celu(t, alpha=1.0, in_place=False):
    return _run(celu_op, t, {"alpha": alpha}, in_place, celu_inplace_op)


# -- smooth gates: silu, mish, softplus, log_sigmoid --------------------------------------------

@declare("silu", "SiluBackward0", check=_floating("silu_cpu"), saves={"self": "self"})
def silu_op(xp, a):
    return wide(lambda x: x / (1 + np.exp(-x)), a)


@silu_op.def_backward
def silu_backward(ctx, grad):
    x = ctx.self
    s = x.sigmoid()
    return (grad * s * (1 + x * (1 - s)),)


def silu(t, in_place=False):
    return _run(silu_op, t, None, in_place)


@declare("mish", "MishBackward0", check=_floating("mish_cpu"), saves={"self": "self"})
def mish_op(xp, a):
    return wide(lambda x: x * np.tanh(np.log1p(np.exp(x))), a)


@mish_op.def_backward
def mish_backward(ctx, grad):
    x = ctx.self
    t = softplus(x).tanh()
    return (grad * (t + x * x.sigmoid() * (1 - t * t)),)


def mish(t, in_place=False):
    return _run(mish_op, t, None, in_place)


@declare("softplus", "SoftplusBackward0", check=_floating("softplus_cpu"), saves={"self": "self"})
def softplus_op(xp, a, beta=1.0, threshold=20.0):
    b = _f(beta, a.dtype)
    scaled = a * b
    soft = wide(lambda x: np.log1p(np.exp(x)), scaled) / b
    return xp.where(scaled > _f(threshold, a.dtype), a, soft)


@softplus_op.def_backward
def softplus_backward(ctx, grad):
    scaled = ctx.self * ctx.beta
    z = scaled.exp()
    return (where_tensor(scaled > ctx.threshold, grad, grad * z / (z + 1)),)


def softplus(t, beta=1.0, threshold=20.0):
    return _run(softplus_op, t, {"beta": beta, "threshold": threshold}, False)


@declare("log_sigmoid", "LogSigmoidBackward0", check=_floating("log_sigmoid_cpu"),
         layout="contiguous", saves={"self": "self"})
def log_sigmoid_op(xp, a):
    return wide(lambda x: np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))), a)


@log_sigmoid_op.def_backward
def log_sigmoid_backward(ctx, grad):
    return (grad * (-ctx.self).sigmoid(),)


def log_sigmoid(t):
    return _run(log_sigmoid_op, t, None, False)


# -- piecewise linear: hardtanh (relu6), hardsigmoid, hardswish, shrinks, threshold ---------------

@declare("hardtanh", "HardtanhBackward0", saves={"self": "self"})
def hardtanh_op(xp, a, min_val=-1.0, max_val=1.0):
    return xp.minimum(xp.maximum(a, _f(min_val, a.dtype)), _f(max_val, a.dtype))


@hardtanh_op.def_backward
def hardtanh_backward(ctx, grad):
    x = ctx.self
    return (_grad_in_tail(x, grad, where_tensor((x > ctx.min_val) & (x < ctx.max_val), grad,
                                                0)),)


def hardtanh(t, min_val=-1.0, max_val=1.0, in_place=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if t.dtype is bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if t.dtype is uint8 and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    return _run(hardtanh_op, t, {"min_val": min_val, "max_val": max_val}, in_place)


@declare("hardsigmoid", "HardsigmoidBackward0", check=_floating("hardsigmoid_cpu"),
         saves={"self": "self"})
def hardsigmoid_op(xp, a):
    three, six = _f(3, a.dtype), _f(6, a.dtype)
    return xp.minimum(xp.maximum(a + three, _f(0, a.dtype)), six) / six


@hardsigmoid_op.def_backward
def hardsigmoid_backward(ctx, grad):
    x = ctx.self
    return (where_tensor((x > -3) & (x < 3), grad / 6, 0),)


def hardsigmoid(t, in_place=False):
    return _run(hardsigmoid_op, t, None, in_place)


@declare("hardswish", "HardswishBackward0", check=_floating("hardswish_cpu"),
         saves={"self": "self"})
def hardswish_op(xp, a):
    three, six = _f(3, a.dtype), _f(6, a.dtype)
    return a * xp.minimum(xp.maximum(a + three, _f(0, a.dtype)), six) / six


@hardswish_op.def_backward
def hardswish_backward(ctx, grad):
    x = ctx.self
    middle = where_tensor(x < 3, grad * (x / 3 + 0.5), grad)
    return (_nan_in_vectors(x, grad, where_tensor(x <= -3, 0, middle)),)


def hardswish(t, in_place=False):
    return _run(hardswish_op, t, None, in_place)


def _check_lambda(t, lambd):
    if lambd < 0:
        raise RuntimeError(f"lambda must be in range [0, 3.40282e+38] for input dtype "
                           f"{t.dtype.scalar_name}, but found {lambd:g}")


@declare("softshrink", "SoftshrinkBackward0", saves={"self": "self"})
def softshrink_op(xp, a, lambd=0.5):
    lam = _f(lambd, a.dtype)
    return xp.where(a > lam, a - lam, xp.where(a < -lam, a + lam, a * _f(0, a.dtype)))


@declare("hardshrink", "HardshrinkBackward0", check=_floating("hardshrink_cpu"),
         saves={"self": "self"})
def hardshrink_op(xp, a, lambd=0.5):
    lam = _f(lambd, a.dtype)
    return xp.where((a >= -lam) & (a <= lam), _f(0, a.dtype), a)


@softshrink_op.def_backward
@hardshrink_op.def_backward
def shrink_backward(ctx, grad):
    x = ctx.self
    return (_grad_in_tail(x, grad, where_tensor((x > ctx.lambd) | (x < -ctx.lambd), grad, 0)),)


def softshrink(t, lambd=0.5):
    _check_floating("softshrink_check", t.dtype)
    _check_lambda(t, lambd)
    return _run(softshrink_op, t, {"lambd": lambd}, False)


def hardshrink(t, lambd=0.5):
    return _run(hardshrink_op, t, {"lambd": lambd}, False)


def _threshold_forward(xp, a, threshold, value):
    return xp.where(a <= _f(threshold, a.dtype), _f(value, a.dtype), a)


def _threshold_backward(ctx, grad):
    return (where_tensor(ctx.self <= ctx.threshold, 0, grad),)


threshold_op = declare("threshold", "ThresholdBackward0", saves={"self": "self"},
                       unsaved=("value",))(_threshold_forward)  # as torch's nodes
threshold_inplace_op = declare("threshold_", "ThresholdBackward1", saves={"self": "self"},
                               unsaved=("value",))(_threshold_forward)
threshold_op.def_backward(_threshold_backward)
threshold_inplace_op.def_backward(_threshold_backward)


def threshold(t, threshold, value, in_place=False):
    if t.dtype is bool_:
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    attrs = {"threshold": threshold, "value": value}
    return _run(threshold_op, t, attrs, in_place, out_op=threshold_inplace_op)


# -- prelu: a learned slope per channel ---------------------------------------------------------

@declare("_prelu_kernel", "PreluKernelBackward0", ("self", "weight"),
         saves={"self": ("self", "weight"), "weight": "self"})
def prelu_op(xp, a, w):
    return xp.where(a > 0, a, w * a)


@prelu_op.def_backward
def prelu_backward(ctx, grad):
    x, n = ctx.self, ctx.needs_input_grad
    positive = x > 0
    return (where_tensor(positive, grad, ctx.weight * grad) if n[0] else None,
            where_tensor(positive, 0, x * grad) if n[1] else None)


def prelu(t, weight):
    """torch.prelu: ``weight`` (one number, or one per channel: dim 1) as a slope where
    ``t`` is not positive; the weight's gradient is summed back to its shape."""
    _check_floating("prelu_cpu", t.dtype)
    if t.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {t.dtype.scalar_name} "
                           f"and {weight.dtype.scalar_name}")
    if weight.numel() != 1:
        if not t.dim():
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = t.shape[1] if t.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    if t.dim() != weight.dim():  # one slope per channel, broadcast over the other dims
        weight = weight.reshape([weight.numel() if i == 1 else 1 for i in range(t.dim())])
    return apply(prelu_op, t, weight)
