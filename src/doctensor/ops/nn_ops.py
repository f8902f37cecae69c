"""The ops behind ``torch.nn.functional`` that torch shows as their own grad_fn, and the fused
pointwise ops the optimizers use (``addcmul_``, ``addcdiv_``, ``lerp_``).

Each is declared once, as in ``_registry``: an array forward, a backward in doctensor ops,
its grad_fn name and what it saves.  On the CPU, float32 arithmetic follows torch's kernels
where the order is known (Note [kernels by device]): ``addcmul`` and ``lerp`` are one fused
multiply-add, softmax is Note [softmax kernel], nll_loss's sum Note [nll_loss cascade sum];
``addcdiv`` is ``self + (value * t1) / t2``.  Other reductions (loss means) may differ from
torch in the last bit, because NumPy sums in a different order.  Results keep the layout
NumPy gives them (``layout="forward"``), which follows the inputs as torch's do.
"""

import math

import numpy as np

from .._dtypes import _BY_NP, bool_, int64
from .._exact.fma import fma32
from .._exact.softmax import softmax_backward_cpu, softmax_cpu
from .._exact.summation import cascade_sum
from .._strides import broadcast_shapes, wrap_dim
from .._tensor_base import TensorBase
from ..autograd.grad_mode import is_grad_enabled
from ..backends import numpy_cpu
from ..random import _check_floating
from ._dispatch import apply, apply_, promote
from ._registry import declare
from .creation import from_array
from .joining import cat
from .pointwise import exp, where_tensor
from .reduction import cpu_mean, cpu_sum, sum_dim

__all__ = ["softmax", "gelu", "leaky_relu", "nll_loss", "mse_loss", "smooth_l1_loss",
           "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "embedding",
           "embedding_bag", "layer_norm", "group_norm", "batch_norm", "addcmul", "addcdiv", "lerp",
           "one_hot", "soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss", "glu",
           "rrelu_with_noise", "weight_norm_interface", "pdist", "ctc_loss"]


def _f(x, dtype):
    """A Python scalar converted to the working dtype, as ATen converts ``Scalar`` args."""
    return np.asarray(x, dtype=dtype)[()]


def _floating(kernel):
    """A record's check: torch's CPU kernel ``kernel`` refuses tensors that are not floating
    (the dtype its operands are computed in)."""
    def check(*args, **attrs):
        _check_floating(kernel, promote(args))
    return check


def _nn_op(name, grad_fn, inputs=("self",), layout="forward", **fields):
    """``declare`` for these ops: the result keeps the layout NumPy gives it, unless told."""
    return declare(name, grad_fn, inputs, layout=layout, **fields)


# -- fused pointwise ops (the optimizers' arithmetic) ------------------------------------------

def _fma(a, b, c):
    """``a * b + c`` rounded once for float32, as torch's AVX2 kernels' ``fmadd`` (a CPU
    forward's arithmetic: Note [kernels by device])."""
    if np.result_type(a, b, c) == np.float32:
        shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
        return fma32(np.atleast_1d(a), np.atleast_1d(b), np.atleast_1d(c)).reshape(shape)
    return a * b + c


def _mul_add(a, b, c):
    """``a * b + c`` as a device without torch's CPU kernels computes it."""
    return a * b + c


def _addcmul(mul_add):
    return lambda xp, a, t1, t2, value=1: mul_add(_f(value, a.dtype) * t1, t2, a)


def _check_addcmul(self, t1, t2, value=1):
    if _BY_NP[self._data.dtype] is bool_:
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")


def _check_addcdiv(self, t1, t2, value=1):
    if not (t1.dtype.is_floating_point or t2.dtype.is_floating_point):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))."
            "to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")


addcmul_op = declare("addcmul", "AddcmulBackward0", ("self", "tensor1", "tensor2"),
                     kind="pointwise", saves={"tensor1": "tensor2", "tensor2": "tensor1"},
                     check=_check_addcmul, method="addcmul", inplace="addcmul_",
                     function="addcmul")(
    _addcmul(_mul_add))
addcmul_op.on_cpu(_addcmul(_fma))


@addcmul_op.def_backward
def addcmul_backward(ctx, grad):
    n, v = ctx.needs_input_grad, ctx.attrs.get("value", 1)
    return (grad if n[0] else None, grad * ctx.tensor2 * v if n[1] else None,
            grad * ctx.tensor1 * v if n[2] else None)


@declare("addcdiv", "AddcdivBackward0", ("self", "tensor1", "tensor2"), kind="pointwise",
         promote="float", saves={"tensor1": "tensor2", "tensor2": ("tensor1", "tensor2")},
         check=_check_addcdiv, method="addcdiv", inplace="addcdiv_", function="addcdiv")
def addcdiv_op(xp, a, t1, t2, value=1):
    return a + (_f(value, a.dtype) * t1) / t2


@addcdiv_op.def_backward
def addcdiv_backward(ctx, grad):
    n, v = ctx.needs_input_grad, ctx.attrs.get("value", 1)
    return (grad if n[0] else None, grad * v / ctx.tensor2 if n[1] else None,
            -grad * v * ctx.tensor1 / (ctx.tensor2 * ctx.tensor2) if n[2] else None)


def _lerp(mul_add):
    def forward(xp, a, end, weight=0.5):
        w = _f(weight, a.dtype)
        if abs(weight) < 0.5:
            return mul_add(w, end - a, a)
        return mul_add(-(end - a), _f(1 - weight, a.dtype), end)
    return forward


def _check_lerp(self, end, weight=0.5):
    """torch's lerp takes ``end`` (and a tensor ``weight``) in ``self``'s dtype only, and
    floating tensors only."""
    want = _BY_NP[self._data.dtype]
    for name, other in (("end", end), ("weight", weight)):
        if isinstance(other, TensorBase) and _BY_NP[other._data.dtype] is not want:
            raise RuntimeError(f"expected dtype {want.c_name} for `{name}` but got dtype "
                               f"{_BY_NP[other._data.dtype].c_name}")
    if not want.is_floating_point:
        kind = "tensor" if isinstance(weight, TensorBase) else "scalar"
        raise NotImplementedError(f'"lerp_kernel_{kind}" not implemented for '
                                  f"'{want.scalar_name}'")


lerp_op = declare("lerp", "LerpBackward0", ("self", "end"), kind="pointwise", method="lerp",
                  inplace="lerp_", function="lerp", check=_check_lerp)(_lerp(_mul_add))
lerp_op.on_cpu(_lerp(_fma))


@lerp_op.def_backward
def lerp_backward(ctx, grad):
    w = ctx.attrs["weight"]
    n = ctx.needs_input_grad
    return (grad * (1 - w) if n[0] else None, grad * w if n[1] else None)


def _lerp_tensor(mul_add):
    """torch's vectorised lerp with a weight per element: one multiply-add either way."""
    def forward(xp, a, end, w):
        near = xp.abs(w) < 0.5
        return mul_add(xp.where(near, w, w - w.dtype.type(1)), end - a, xp.where(near, a, end))
    return forward


lerp_tensor_op = declare("lerp", "LerpBackward1", ("self", "end", "weight"), kind="pointwise",
                         saves={"weight": ("self", "end"), "self": "weight", "end": "weight"},
                         method="lerp", inplace="lerp_", function="lerp",
                         check=_check_lerp)(_lerp_tensor(_mul_add))
lerp_tensor_op.on_cpu(_lerp_tensor(_fma))


@lerp_tensor_op.def_backward
def lerp_tensor_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad * (1 - ctx.weight) if n[0] else None, grad * ctx.weight if n[1] else None,
            grad * (ctx.end - ctx.self) if n[2] else None)


def addcmul(t, t1, t2, value=1, in_place=False):
    return (apply_ if in_place else apply)(addcmul_op, t, t1, t2, value=value)


def addcdiv(t, t1, t2, value=1, in_place=False):
    return (apply_ if in_place else apply)(addcdiv_op, t, t1, t2, value=value)


def lerp(t, end, weight, in_place=False):
    run = apply_ if in_place else apply
    if isinstance(weight, TensorBase):
        return run(lerp_tensor_op, t, end, weight)
    return run(lerp_op, t, end, weight=weight)


# -- softmax ---------------------------------------------------------------------------------

_CPU_SOFTMAX = (np.dtype(np.float32), np.dtype(np.float64))


def _check_softmax(name):
    def check(self, dim):
        if not self.dtype.is_floating_point and self._data.size:  # empty: an empty result
            kernel = "lastdim_kernel_impl" if dim >= self.dim() - 1 else "kernel_impl"
            raise NotImplementedError(f'"{name}_{kernel}" not implemented for '
                                      f"'{self.dtype.scalar_name}'")
    return check


def _softmax_kernel(forward):
    """A softmax kernel as torch runs it on any shape: a 0-d tensor as one element, an empty
    one to an empty result."""
    def kernel(xp, *arrays, dim):
        first = arrays[0]
        if not first.size:
            return xp.empty(first.shape, first.dtype)
        if first.ndim:
            return forward(xp, *arrays, dim=dim)
        return forward(xp, *(a.reshape(1) for a in arrays), dim=0).reshape(())
    return kernel


@_nn_op("softmax", "SoftmaxBackward0", check=_check_softmax("softmax"), layout="contiguous",
        saves={"result": "self"}, method="softmax", function="softmax")
@_softmax_kernel
def softmax_op(xp, a, dim):
    e = xp.exp(a - a.max(axis=dim, keepdims=True))
    return e * (a.dtype.type(1) / e.sum(axis=dim, keepdims=True))


@softmax_op.on_cpu
@_softmax_kernel
def softmax_cpu_op(xp, a, dim):
    if a.dtype in _CPU_SOFTMAX:
        return softmax_cpu(a, dim, log=False)  # torch's bits: Note [softmax kernel]
    return softmax_op.forward(xp, a, dim=dim)


@softmax_op.def_backward
def softmax_backward(ctx, grad):
    return (apply(softmax_backward_data, grad, ctx.result, dim=ctx.dim),)


def _sum_kept(xp, a, dim):
    return sum_dim.forward(xp, a, dims=(dim,), keepdim=True, dtype=a.dtype)


@_nn_op("_softmax_backward_data", "SoftmaxBackwardDataBackward0", ("grad_output", "output"),
        saves={"grad_output": "output", "output": ("grad_output", "output")})
@_softmax_kernel
def softmax_backward_data(xp, g, y, dim):
    return (g - _sum_kept(xp, g * y, dim)) * y


def _exact_backward(op, log):
    """Give ``op`` (softmax's or log_softmax's backward) torch's bits on the CPU for float32
    and float64 (Note [softmax backward])."""
    @op.on_cpu
    @_softmax_kernel
    def kernel(xp, g, y, dim):
        if y.dtype in _CPU_SOFTMAX and g.dtype == y.dtype:
            return softmax_backward_cpu(g, y, dim, log)
        return op.forward(xp, g, y, dim=dim)


_exact_backward(softmax_backward_data, log=False)


@softmax_backward_data.def_backward
def softmax_backward_data_backward(ctx, grad):
    n, y, dim = ctx.needs_input_grad, ctx.output, ctx.dim
    if not n[1]:
        return (apply(softmax_backward_data, grad, y, dim=dim), None)
    g = ctx.grad_output  # torch's softmax_double_backward for the output
    dy = g * grad - (y * g).sum(dim, keepdim=True) * grad - g * (y * grad).sum(dim, keepdim=True)
    return (apply(softmax_backward_data, grad, y, dim=dim) if n[0] else None, dy)


@_nn_op("log_softmax", "LogSoftmaxBackward0", check=_check_softmax("log_softmax"),
        layout="contiguous", saves={"result": "self"}, method="log_softmax",
        function="log_softmax")
@_softmax_kernel
def log_softmax_op(xp, a, dim):
    shifted = a - a.max(axis=dim, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=dim, keepdims=True))


@log_softmax_op.on_cpu
@_softmax_kernel
def log_softmax_cpu_op(xp, a, dim):
    if a.dtype in _CPU_SOFTMAX:
        return softmax_cpu(a, dim, log=True)
    return log_softmax_op.forward(xp, a, dim=dim)


@log_softmax_op.def_backward
def log_softmax_backward(ctx, grad):
    return (apply(log_softmax_backward_data, grad, ctx.result, dim=ctx.dim),)


@_nn_op("_log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0",
        ("grad_output", "output"),
        saves={"grad_output": "output", "output": ("grad_output", "output")})
@_softmax_kernel
def log_softmax_backward_data(xp, g, y, dim):
    return g - exp.forward(xp, y) * _sum_kept(xp, g, dim)


_exact_backward(log_softmax_backward_data, log=True)


@log_softmax_backward_data.def_backward
def log_softmax_backward_data_backward(ctx, grad):
    n, e, dim = ctx.needs_input_grad, ctx.output.exp(), ctx.dim
    return (grad - (grad * e).sum(dim, keepdim=True) if n[0] else None,
            -ctx.grad_output.sum(dim, keepdim=True) * e * grad if n[1] else None)


def softmax(t, dim, log=False):
    """softmax (or log_softmax when ``log``) along ``dim``; a 0-d tensor as one element."""
    op = log_softmax_op if log else softmax_op
    return apply(op, t, dim=wrap_dim(dim, max(t.dim(), 1)))


# -- gelu and leaky_relu --------------------------------------------------------------------

_erf = np.frompyfunc(math.erf, 1, 1)


def _gelu_parts(x, approximate):
    """(cdf, its derivative times x) of GELU, computed in float64."""
    x = x.astype(np.float64)
    if approximate == "tanh":
        k = math.sqrt(2 / math.pi)
        inner = k * (x + 0.044715 * x ** 3)
        t = np.tanh(inner)
        cdf = 0.5 * (1 + t)
        return cdf, x * 0.5 * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x)
    cdf = 0.5 * (1 + np.asarray(_erf(x * math.sqrt(0.5)), np.float64))
    return cdf, x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _check_gelu(self, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _check_floating("GeluKernelImpl", self.dtype)


@_nn_op("gelu", "GeluBackward0", check=_check_gelu, saves={"self": "self"})
def gelu_op(xp, a, approximate="none"):
    cdf, _ = _gelu_parts(np.asarray(a), approximate)
    return xp.asarray((a.astype(np.float64) * cdf).astype(a.dtype))


@gelu_op.def_backward
def gelu_grad(ctx, grad):
    return (gelu_backward(grad, ctx.self, ctx.approximate),)


@_nn_op("gelu_backward", "GeluBackwardBackward0", ("grad_output", "self"), layout="pointwise",
        saves={"grad_output": "self", "self": ("grad_output", "self")})
def gelu_backward_op(xp, g, a, approximate="none"):
    cdf, xpdf = _gelu_parts(np.asarray(a), approximate)
    return g * xp.asarray((cdf + xpdf).astype(a.dtype))


@gelu_backward_op.def_backward
def gelu_backward_backward(ctx, grad):
    x, n = ctx.self, ctx.needs_input_grad
    return (gelu_backward(grad, x, ctx.approximate) if n[0] else None,
            grad * ctx.grad_output * _gelu_curvature(x, ctx.approximate) if n[1] else None)


def _gelu_curvature(x, approximate):
    """GELU's second derivative, in doctensor ops (so it can be differentiated again)."""
    if approximate == "tanh":
        k, c = math.sqrt(2 / math.pi), 0.044715
        t = ((x + c * x ** 3) * k).tanh()
        du = (1 + 3 * c * x * x) * k  # d/dx of tanh's argument
        return (1 - t * t) * (du - x * t * du * du + 3 * c * k * x * x)
    return (x * x * -0.5).exp() * (2 - x * x) / math.sqrt(2 * math.pi)


def gelu_backward(grad, x, approximate="none"):
    """``grad`` times GELU's slope at ``x`` (torch's gelu_backward, GeluBackwardBackward0)."""
    return apply(gelu_backward_op, grad, x, approximate=approximate)


def gelu(t, approximate="none"):
    return apply(gelu_op, t, approximate=approximate)


def _leaky(xp, a, negative_slope=0.01):
    return xp.where(a > 0, a, a * _f(negative_slope, a.dtype))


def _leaky_slope(x, negative_slope):
    """1 where ``x`` > 0, else the slope, as a constant of ``x``'s dtype."""
    data = x._data
    return from_array(x._backend.xp.where(data > 0, 1, negative_slope).astype(data.dtype), x)


leaky_relu_op = _nn_op("leaky_relu", "LeakyReluBackward0", check=_floating("leaky_relu_cpu"),
                       saves={"self": "self"})(_leaky)
leaky_relu_inplace_op = _nn_op("leaky_relu_", "LeakyReluBackward1",
                               check=_floating("leaky_relu_cpu"), saves={"result": "self"})(_leaky)


@leaky_relu_op.def_backward
def leaky_relu_backward(ctx, grad):
    return (grad * _leaky_slope(ctx.self, ctx.negative_slope),)


@leaky_relu_inplace_op.def_backward
def leaky_relu_inplace_backward(ctx, grad):
    if ctx.negative_slope < 0:  # the result's sign no longer tells the input's
        raise RuntimeError(
            "In-place leakyReLu backward calculation is triggered with a negative slope which "
            "is not supported. This is caused by calling in-place forward function with a "
            "negative slope, please call out-of-place version instead. File an issue at "
            "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
            "backward calculation with negative slope")
    return (grad * _leaky_slope(ctx.result, ctx.negative_slope),)


def leaky_relu(t, negative_slope=0.01, in_place=False):
    if in_place:
        return apply_(leaky_relu_inplace_op, t, negative_slope=negative_slope)
    return apply(leaky_relu_op, t, negative_slope=negative_slope)


# -- losses ------------------------------------------------------------------------------------

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce(xp, loss, reduction):
    """A loss's 'mean' or 'sum': a floating loss in torch's CPU order (``loss.mean()`` /
    ``loss.sum()`` of the contiguous elementwise losses, Note [torch's CPU sum])."""
    if reduction == "none":
        return loss
    if _BY_NP[loss.dtype].is_floating_point:
        dims = tuple(range(loss.ndim))
        if reduction == "mean":
            return cpu_mean(loss, dims, False)
        return cpu_sum(loss, dims, False, loss.dtype)
    if reduction == "mean":
        return xp.mean(loss, dtype=loss.dtype)
    return xp.sum(loss, dtype=loss.dtype)


def _grad_scale(grad, reduction, n):
    """The incoming gradient spread over the elements of an elementwise loss."""
    return grad / n if reduction == "mean" else grad


def _broadcast_pair(x, t):
    """An elementwise loss's input and target expanded to their common shape."""
    if x.shape != t.shape:
        shape = broadcast_shapes(tuple(x.shape), tuple(t.shape))
        x, t = x.expand(shape), t.expand(shape)
    return x, t


@_nn_op("mse_loss", "MseLossBackward0", ("self", "target"), layout="pointwise", promote="common",
        check=_floating("mse_cpu"),
        saves={"self": ("self", "target"), "target": ("self", "target")})
def mse_loss_op(xp, a, t, reduction="mean"):
    d = a - t
    return _reduce(xp, d * d, reduction)


@mse_loss_op.def_backward
def mse_loss_backward(ctx, grad):
    d = ctx.self - ctx.target
    g = _grad_scale(grad, ctx.reduction, d.numel()) * 2 * d
    n = ctx.needs_input_grad
    return (g if n[0] else None, -g if n[1] else None)


def mse_loss(x, t, reduction="mean"):
    _check_reduction(reduction)
    x, t = _broadcast_pair(x, t)
    return apply(mse_loss_op, x, t, reduction=reduction)


def _huber_family(name, grad_fn, parameter, scaled):
    """smooth_l1_loss (``scaled``: the quadratic part divided by beta) and huber_loss (times
    delta on the linear part): one op each, with torch's node and saved fields."""
    op = _nn_op(name, grad_fn, ("self", "target"), layout="pointwise", promote="common",
                check=_floating(f"{name[:-5]}_cpu"),
                saves={"self": ("self", "target"), "target": ("self", "target")})(
        lambda xp, a, t, reduction="mean", **kw: _reduce(xp, _huber(xp, a - t, kw[parameter],
                                                                    scaled), reduction))

    @op.def_backward
    def huber_backward(ctx, grad):
        d, k = ctx.self - ctx.target, getattr(ctx, parameter)
        slope = where_tensor(d.abs() < k, d / k if scaled else d, d.sign() * (1 if scaled else k))
        g = _grad_scale(grad, ctx.reduction, d.numel()) * slope
        n = ctx.needs_input_grad
        return (g if n[0] else None, -g if n[1] else None)
    return op


def _huber(xp, d, k, scaled):
    """Elementwise: 0.5 d^2 (/ k) inside |d| < k, |d| - k / 2 (times k) outside."""
    z = xp.abs(d)
    half = _f(0.5, d.dtype)
    k = _f(k, d.dtype)
    if scaled:
        return xp.where(z < k, half * d * d / k, z - half * k)
    return xp.where(z < k, half * d * d, k * (z - half * k))


smooth_l1_loss_op = _huber_family("smooth_l1_loss", "SmoothL1LossBackward0", "beta", True)
huber_loss_op = _huber_family("huber_loss", "HuberLossBackward0", "delta", False)


def smooth_l1_loss(x, t, reduction="mean", beta=1.0):
    _check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    x, t = _broadcast_pair(x, t)
    return apply(smooth_l1_loss_op, x, t, reduction=reduction, beta=beta)


def huber_loss(x, t, reduction="mean", delta=1.0):
    _check_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    x, t = _broadcast_pair(x, t)
    return apply(huber_loss_op, x, t, reduction=reduction, delta=delta)


_EPSILON = 1e-12


@_nn_op("binary_cross_entropy", "BinaryCrossEntropyBackward0", ("self", "target", "weight"),
        saves={"self": "self", "target": "self", "weight": "self"})
def binary_cross_entropy_op(xp, x, t, w, reduction="mean"):
    one = x.dtype.type(1)
    loss = (t - one) * xp.maximum(xp.log(one - x), -100) - t * xp.maximum(xp.log(x), -100)
    if w is not None:
        loss = loss * w
    return _reduce(xp, loss.astype(x.dtype, copy=False), reduction)


@binary_cross_entropy_op.def_backward
def binary_cross_entropy_backward(ctx, grad):
    x, t, w = ctx.self, ctx.target, ctx.weight
    g = _grad_scale(grad, ctx.reduction, x.numel()) * (x - t) / ((1 - x) * x).clamp(min=_EPSILON)
    return (g if w is None else g * w, None, None)


def binary_cross_entropy(x, t, weight=None, reduction="mean"):
    _check_reduction(reduction)
    if bool(((x._data < 0) | (x._data > 1)).any()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if weight is not None and weight.shape != x.shape:
        weight = weight.expand(x.shape)
    return apply(binary_cross_entropy_op, x, t, weight, reduction=reduction)


@_nn_op("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
        ("self", "target", "weight", "pos_weight"),
        saves={name: ("self", "target") for name in ("self", "target", "weight", "pos_weight")},
        function="binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits_op(xp, x, t, w, pw, reduction="mean"):
    one = x.dtype.type(1)
    if pw is not None:
        log_w = (pw - one) * t + one
        loss = (one - t) * x + log_w * (xp.log1p(xp.exp(-xp.abs(x))) + xp.maximum(-x, 0))
    else:
        loss = (one - t) * x + xp.maximum(-x, 0) + xp.log1p(xp.exp(-xp.abs(x)))
    if w is not None:
        loss = loss * w
    return _reduce(xp, loss.astype(x.dtype, copy=False), reduction)


@binary_cross_entropy_with_logits_op.def_backward
def binary_cross_entropy_with_logits_backward(ctx, grad):
    x, t, w, pw = ctx.self, ctx.target, ctx.weight, ctx.pos_weight
    s = x.sigmoid()
    if pw is None:
        d = s - t
    else:
        d = (pw * t + 1 - t) * s - pw * t
    g = _grad_scale(grad, ctx.reduction, x.numel()) * d
    if w is not None:
        g = g * w
    n = ctx.needs_input_grad
    gt = None
    if n[1]:
        gt = -_grad_scale(grad, ctx.reduction, x.numel()) * x
        if w is not None:
            gt = gt * w
    return (g if n[0] else None, gt, None, None)


def binary_cross_entropy_with_logits(x, t, weight=None, pos_weight=None, reduction="mean"):
    _check_reduction(reduction)
    if weight is not None and weight.shape != x.shape:
        weight = weight.expand(x.shape)
    if pos_weight is not None and pos_weight.shape != x.shape:
        pos_weight = pos_weight.expand(x.shape)
    return apply(binary_cross_entropy_with_logits_op, x, t, weight, pos_weight,
                 reduction=reduction)


def _nll_picked(xp, x, t, w, ignore_index):
    """The picked losses of nll_loss ((C,) or (N, C) input) and nll_loss2d ((N, C, H, W)),
    their weights, and which elements count (an ignored element's loss is +0)."""
    if x.ndim == 1:
        x, t = x.reshape(1, -1), t.reshape(1)
    keep = t != ignore_index
    safe = xp.where(keep, t, 0)
    picked = xp.take_along_axis(x, safe[:, None], axis=1)[:, 0]
    coef = keep.astype(x.dtype) if w is None else xp.where(keep, w[safe], 0).astype(x.dtype)
    return xp.where(keep, -picked if w is None else -picked * coef, 0).astype(x.dtype), coef, keep


def _nll(total):
    """nll_loss's and nll_loss2d's forward, with ``total(loss, coef, keep, weighted)`` summing
    the picked losses in order (Note [nll_loss cascade sum]: the element's flat index counts
    as its row)."""
    def forward(xp, x, t, w, reduction="mean", ignore_index=-100):
        loss, coef, keep = _nll_picked(xp, x, t, w, ignore_index)
        if reduction == "none":
            return loss.reshape(t.shape)
        if not loss.size:  # (torch's quiet NaN for the mean of nothing, sign bit clear)
            return xp.asarray(0 if reduction == "sum" else np.nan, x.dtype)
        s, count = total(loss.reshape(-1), coef.reshape(-1), keep.reshape(-1), w is not None)
        return s if reduction == "sum" else s / count
    return forward


def _plain_sums(loss, coef, keep, weighted):
    return loss.sum(dtype=loss.dtype), coef.sum(dtype=loss.dtype)


def _cascade_sums(loss, coef, keep, weighted):
    """torch's CPU order: Note [nll_loss cascade sum]."""
    rows = np.flatnonzero(keep)
    return cascade_sum(loss[rows], rows), _total_weight(coef, keep, weighted)


def _total_weight(coef, keep, weighted):
    """torch's CPU total weight of a batch: how many elements count, or their weights'
    cascade sum."""
    rows = np.flatnonzero(keep)
    return cascade_sum(coef[rows], rows) if weighted else coef.dtype.type(len(rows))


nll_loss_op = _nn_op("nll_loss", "NllLossBackward0", ("self", "target", "weight"),
                     saves={"target": "self", "weight": "self"})(_nll(_plain_sums))
nll_loss_op.on_cpu(_nll(_cascade_sums))


@nll_loss_op.def_backward
def nll_loss_backward(ctx, grad):
    t, w = ctx.target, ctx.weight
    shape = ctx.input_meta[0][0]
    xp = grad._backend.xp
    t1 = t._data.reshape(-1)
    keep = t1 != ctx.ignore_index
    safe = xp.where(keep, t1, 0)
    coef = xp.where(keep, 1, 0) if w is None else xp.where(keep, w._data[safe], 0)
    coef = coef.astype(grad._data.dtype)
    if ctx.reduction == "mean":
        coef = coef / coef.sum(dtype=coef.dtype)
    rows = 1 if len(shape) == 1 else shape[0]
    onehot = xp.zeros((rows, shape[-1]), dtype=grad._data.dtype)
    onehot[xp.arange(rows), safe] = -coef
    if ctx.reduction == "none" and len(shape) == 2:
        grad = grad.unsqueeze(1)
    return (grad * from_array(onehot.reshape(shape), grad), None, None)


nll_loss2d_op = _nn_op("nll_loss2d", "NllLoss2DBackward0", ("self", "target", "weight"),
                       saves={"target": "self", "weight": "self"})(_nll(_plain_sums))
nll_loss2d_op.on_cpu(_nll(_cascade_sums))


@nll_loss2d_op.def_backward
def nll_loss2d_backward(ctx, grad):
    """torch's nll_loss2d backward: ``-weight * grad`` at each target ('none'); else
    ``weight * -(grad / total_weight)`` ('mean'; ``-grad`` for 'sum'), weight 1 unweighted."""
    t = ctx.target._data
    w = None if ctx.weight is None else ctx.weight._data
    xp = grad._backend.xp
    keep = t != ctx.ignore_index
    safe = xp.where(keep, t, 0)
    dtype = grad._data.dtype
    coef = keep.astype(dtype) if w is None else xp.where(keep, w[safe], 0).astype(dtype)
    shape = ctx.input_meta[0][0]
    at = xp.zeros(shape, bool)  # the targets' places; the rest of the gradient is +0
    xp.put_along_axis(at, safe[:, None], keep[:, None], axis=1)
    at = from_array(at, grad)
    if ctx.reduction == "none":
        onehot = xp.zeros(shape, dtype)
        xp.put_along_axis(onehot, safe[:, None], -coef[:, None], axis=1)
        return (where_tensor(at, grad.unsqueeze(1) * from_array(onehot, grad), 0), None, None)
    if ctx.reduction == "mean":
        total = _total_weight(coef.reshape(-1), keep.reshape(-1), w is not None) \
            if grad._backend is numpy_cpu else coef.sum(dtype=dtype)
        grad = grad / from_array(xp.asarray(total, dtype), grad)
    onehot = xp.zeros(shape, dtype)
    xp.put_along_axis(onehot, safe[:, None], coef[:, None], axis=1)
    return (where_tensor(at, from_array(onehot, grad) * -grad, 0), None, None)


def nll_loss(x, t, weight=None, reduction="mean", ignore_index=-100):
    """torch's nll_loss_nd: (C,) and (N, C) inputs by nll_loss, (N, C, H, W) by nll_loss2d,
    and other (N, C, d1, ...) inputs viewed as (N, C, 1, d1 * ...) for nll_loss2d."""
    _check_reduction(reduction)
    if t.dtype.scalar_name not in ("Long", "Byte"):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           + t.dtype.scalar_name)
    if x.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.dim()})")
    if x.dim() != 1 and x.shape[0] != t.shape[0]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
                         f"({t.shape[0]}).")
    if x.dim() == 4:
        return _nll_loss2d(x, t, weight, reduction, ignore_index)
    if x.dim() > 2:
        n, c = x.shape[:2]
        out = [n, *x.shape[2:]]
        if list(t.shape[1:]) != out[1:]:
            raise RuntimeError(f"Expected target size {out}, got {list(t.shape)}")
        x = x.contiguous().view(n, c, 1, -1) if x.numel() else x.contiguous().view(n, c, 0, 0)
        t = t.contiguous().view(n, 1, -1) if t.numel() else t.contiguous().view(n, 0, 0)
        loss = _nll_loss2d(x, t, weight, reduction, ignore_index)
        return loss.view(out) if reduction == "none" else loss
    classes = x.shape[-1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or "
                           f"no classes but got weight tensor of shape: {list(weight.shape)}")
    _check_targets(x, t, weight, ignore_index)
    t = t.long() if t.dtype is not int64 else t
    return apply(nll_loss_op, x, t, weight, reduction=reduction, ignore_index=ignore_index)


def _check_targets(x, t, weight, ignore_index):
    """The kernels' checks: the weight's dtype, then each target's class (the first bad one
    in order is named)."""
    if weight is not None and weight.dtype is not x.dtype:
        raise RuntimeError(f"expected scalar type {x.dtype.scalar_name} but found "
                           f"{weight.dtype.scalar_name}")
    classes = x.shape[1] if x.dim() > 1 else x.shape[0]
    tv = t._data.reshape(-1)
    bad = (tv != ignore_index) & ((tv < 0) | (tv >= classes))
    if bool(bad.any()):
        raise IndexError(f"Target {int(tv[bad.argmax()])} is out of bounds.")


def _nll_loss2d(x, t, weight, reduction, ignore_index):
    """nll_loss2d with torch's checks (check_inputs_nll_loss2d, then the targets')."""
    if t.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {t.dim()}")
    if weight is not None and weight.numel() != x.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if (x.shape[0], *x.shape[2:]) != tuple(t.shape):
        raise RuntimeError(f"size mismatch (got input: {list(x.shape)} , target: "
                           f"{list(t.shape)}")
    _check_targets(x, t, weight, ignore_index)
    t = t.long() if t.dtype is not int64 else t
    return apply(nll_loss2d_op, x, t, weight, reduction=reduction, ignore_index=ignore_index)


# -- embedding and normalisation ------------------------------------------------------------


@_nn_op("embedding", "EmbeddingBackward0", ("weight", "indices"), saves={"indices": "weight"},
        function="embedding")
def embedding_op(xp, w, idx, padding_idx=None):
    return w[idx]


@embedding_op.def_backward
def embedding_backward(ctx, grad):
    idx = ctx.indices._data.reshape(-1)
    shape = ctx.input_meta[0][0]
    xp = grad._backend.xp
    g = grad._data.reshape(-1, shape[1])
    if ctx.padding_idx is not None:
        g = g * (idx != ctx.padding_idx)[:, None]
    out = xp.zeros(shape, dtype=grad._data.dtype)
    xp.add.at(out, idx, g)
    return (from_array(out, grad), None)


def embedding(indices, weight, padding_idx=None):
    if indices.dtype.is_floating_point:
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                           "following scalar types: Long, Int; but got torch."
                           f"{indices.dtype.scalar_name}Tensor instead (while checking arguments "
                           "for embedding)")
    iv = indices._data
    if iv.size and (int(iv.max()) >= weight.shape[0] or int(iv.min()) < 0):
        raise IndexError("index out of range in self")
    return apply(embedding_op, weight, indices, padding_idx=padding_idx)


def _bags(xp, idx, offsets, include_last_offset, padding_idx):
    """Per bag, the positions in ``idx`` it holds (padding entries left out)."""
    n_bags = len(offsets) - 1 if include_last_offset else len(offsets)
    ends = list(offsets[1:n_bags]) + [offsets[n_bags] if include_last_offset else len(idx)]
    return [[j for j in range(int(start), int(end)) if idx[j] != padding_idx]
            for start, end in zip(offsets[:n_bags], ends)]


@_nn_op("embedding_bag", "EmbeddingBagBackward0",
        ("weight", "indices", "offsets", "per_sample_weights"),
        saves={"weight": ("weight", "per_sample_weights"),
               "indices": ("weight", "per_sample_weights"),
               "offsets": ("weight", "per_sample_weights"), "per_sample_weights": "weight"})
def embedding_bag_op(xp, w, idx, offsets, psw, mode="mean", include_last_offset=False,
                     padding_idx=-1):
    """Each bag's rows of ``w`` reduced: summed (each times its per-sample weight), averaged,
    or their elementwise max; an empty bag gives zeros.  Rows are added one after the other,
    in the bag's order."""
    bags = _bags(xp, idx, offsets, include_last_offset, padding_idx)
    out = xp.zeros((len(bags), w.shape[1]), dtype=w.dtype)
    for b, rows in enumerate(bags):
        if not rows:
            continue
        if mode == "max":
            out[b] = w[idx[rows]].max(axis=0)
            continue
        acc = xp.zeros(w.shape[1], dtype=w.dtype)
        for j in rows:
            acc = acc + (w[idx[j]] if psw is None else w[idx[j]] * psw[j])
        out[b] = acc / w.dtype.type(len(rows)) if mode == "mean" else acc
    return out


@embedding_bag_op.def_backward
def embedding_bag_backward(ctx, grad):
    xp = grad._backend.xp
    n = ctx.needs_input_grad
    w, idx, g = ctx.weight._data, ctx.indices._data, grad._data
    psw = ctx.per_sample_weights if n[0] else None  # (saved only for the weight's gradient)
    bags = _bags(xp, idx, ctx.offsets._data, ctx.include_last_offset, ctx.padding_idx)
    gw = xp.zeros(ctx.input_meta[0][0], dtype=g.dtype) if n[0] else None
    gp = xp.zeros(len(idx), dtype=g.dtype) if n[3] else None
    for b, rows in enumerate(bags):
        if n[0] and rows and ctx.mode == "max":
            picked = idx[rows][w[idx[rows]].argmax(axis=0)]
            gw[picked, xp.arange(w.shape[1])] += g[b]
        for j in rows if ctx.mode != "max" else ():
            if n[0]:
                scale = 1 / len(rows) if ctx.mode == "mean" else (1 if psw is None
                                                                  else psw._data[j])
                gw[idx[j]] += g[b] * g.dtype.type(scale)
            if n[3]:
                gp[j] = (g[b] * w[idx[j]]).sum(dtype=g.dtype)
    return (from_array(gw, grad) if n[0] else None, None, None,
            from_array(gp, grad) if n[3] else None)


def embedding_bag(weight, indices, offsets, mode="mean", per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """``F.embedding_bag``'s kernel (1-d ``indices``, bags starting at ``offsets``), with
    torch's checks."""
    for t in (indices, offsets):
        if t.dtype.is_floating_point or t.dtype is bool_:
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                               "following scalar types: Long, Int; but got torch."
                               f"{t.dtype.scalar_name}Tensor instead (while checking arguments "
                               "for embedding_bag)")
    rows = weight.shape[0]
    if padding_idx is None:
        padding_idx = -1
    elif not -rows <= padding_idx < rows:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} "
                           f"through {rows - 1}, but got {padding_idx}")
    elif padding_idx < 0:
        padding_idx += rows
    ov, iv = offsets._data, indices._data
    if len(ov) and ov[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {int(ov[0])}\n"
                           f"[ torch.{offsets.dtype.scalar_name}Tensor{{}} ]")
    if len(ov) and ov[-1] > len(iv):
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {len(iv)} but "
                           f"got offsets[-1] of {int(ov[-1])}")
    if (iv.size and (int(iv.max()) >= rows or int(iv.min()) < 0)) or \
            (len(ov) > 1 and bool((ov[1:] < ov[:-1]).any())):
        raise RuntimeError("Expected i < index_size to be true, but got false.  (Could this "
                           "error message be improved?  If so, please report an enhancement "
                           "request to PyTorch.)")
    return apply(embedding_bag_op, weight, indices, offsets, per_sample_weights, mode=mode,
                 include_last_offset=include_last_offset, padding_idx=padding_idx)


def _norm_stats(xp, x, axes, eps):
    mean = x.mean(axis=axes, keepdims=True, dtype=x.dtype)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True, dtype=x.dtype)
    return mean, x.dtype.type(1) / xp.sqrt(var + x.dtype.type(eps)), var


# the norms' nodes save their input and weight (layer norm: and bias) whenever any of the
# three requires grad, as torch's do (an affine first layer takes its weight's gradient)
_NORM_INPUTS = ("input", "weight", "bias")


@_nn_op("native_layer_norm", "NativeLayerNormBackward0", ("input", "weight", "bias"),
        layout="contiguous", saves=dict.fromkeys(("input", "weight", "bias"), _NORM_INPUTS),
        function="layer_norm")
def native_layer_norm_op(xp, x, w, b, ndims=1, eps=1e-5):
    axes = tuple(range(x.ndim - ndims, x.ndim))
    mean, rstd, _ = _norm_stats(xp, x, axes, eps)
    out = (x - mean) * rstd
    if w is not None:
        out = out * w
    if b is not None:
        out = out + b
    return out


def _normalized(x, axes, eps):
    """(x - mean) * rstd over ``axes``, and rstd, as tensors without history."""
    mean, rstd, _ = _norm_stats(x._backend.xp, x._data, axes, eps)
    return from_array((x._data - mean) * rstd, x), from_array(rstd, x)


@native_layer_norm_op.def_backward
def native_layer_norm_backward(ctx, grad):
    x, w = ctx.input, ctx.weight
    axes = tuple(range(x.dim() - ctx.ndims, x.dim()))
    batch = tuple(range(x.dim() - ctx.ndims))
    xhat, rstd = _normalized(x, axes, ctx.eps)
    n = ctx.needs_input_grad
    gx = gw = gb = None
    if n[0]:
        d = grad if w is None else grad * w
        gx = rstd * (d - d.mean(axes, keepdim=True) - xhat * (d * xhat).mean(axes, keepdim=True))
    if n[1]:
        gw = (grad * xhat).sum(batch) if batch else grad * xhat
    if n[2]:
        gb = grad.sum(batch) if batch else grad
    return gx, gw, gb


def _channel_shape(x):
    """The shape that puts a per-channel vector on dim 1 of ``x``."""
    return (1, x.shape[1]) + (1,) * (len(x.shape) - 2)


@_nn_op("native_group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"),
        layout="contiguous", saves=dict.fromkeys(("input", "weight"), _NORM_INPUTS),
        function="group_norm")
def native_group_norm_op(xp, x, w, b, groups=1, eps=1e-5):
    g = x.reshape(x.shape[0], groups, -1)
    mean, rstd, _ = _norm_stats(xp, g, (2,), eps)
    out = ((g - mean) * rstd).reshape(x.shape)
    if w is not None:
        out = out * w.reshape(_channel_shape(x))
    if b is not None:
        out = out + b.reshape(_channel_shape(x))
    return out


@native_group_norm_op.def_backward
def native_group_norm_backward(ctx, grad):
    x, w, groups = ctx.input, ctx.weight, ctx.groups
    xhat, rstd = _normalized(x.reshape(x.shape[0], groups, -1), (2,), ctx.eps)
    others = (0,) + tuple(range(2, x.dim()))
    n = ctx.needs_input_grad
    gx = gw = gb = None
    if n[0]:
        d = (grad if w is None else grad * w.reshape(_channel_shape(x))).reshape(xhat.shape)
        gx = (rstd * (d - d.mean(2, keepdim=True) - xhat * (d * xhat).mean(2, keepdim=True))
              ).reshape(x.shape)
    if n[1]:
        gw = (grad * xhat.reshape(x.shape)).sum(others)
    if n[2]:
        gb = grad.sum(others)
    return gx, gw, gb


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise each sample over groups of its channels (and every other dim)."""
    channels = x.shape[1] if x.dim() > 1 else 1
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(x.shape)} and "
                           f"num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != channels):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {list(t.shape)} "
                               f"and input of shape {list(x.shape)}")
    return apply(native_group_norm_op, x, weight, bias, groups=num_groups, eps=eps)


@_nn_op("native_batch_norm", "NativeBatchNormBackward0", ("input", "weight", "bias"),
        layout="contiguous", saves=dict.fromkeys(("input", "weight"), _NORM_INPUTS),
        unsaved=("mean", "rstd"), function="batch_norm")
def native_batch_norm_op(xp, x, w, b, mean=None, rstd=None, training=True):
    shape = [1] * x.ndim
    shape[1] = x.shape[1]
    out = (x - mean.reshape(shape)) * rstd.reshape(shape)
    if w is not None:
        out = out * w.reshape(shape)
    if b is not None:
        out = out + b.reshape(shape)
    return out


@native_batch_norm_op.def_backward
def native_batch_norm_backward(ctx, grad):
    x, w = ctx.input, ctx.weight
    axes = tuple(d for d in range(x.dim()) if d != 1)
    shape = [1] * x.dim()
    shape[1] = x.shape[1]
    rstd = from_array(ctx.rstd.reshape(shape), x)
    xhat = from_array((x._data - ctx.mean.reshape(shape)) * ctx.rstd.reshape(shape), x)
    n = ctx.needs_input_grad
    gx = gw = gb = None
    if n[0]:
        d = grad if w is None else grad * w.view(shape)
        if ctx.training:
            d = d - d.mean(axes, keepdim=True) - xhat * (d * xhat).mean(axes, keepdim=True)
        gx = rstd * d
    if n[1]:
        gw = (grad * xhat).sum(axes)
    if n[2]:
        gb = grad.sum(axes)
    return gx, gw, gb


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    shape = tuple(normalized_shape)
    if tuple(x.shape[x.dim() - len(shape):]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape [*, "
            f"{', '.join(map(str, shape))}], but got input of size{list(x.shape)}")
    return apply(native_layer_norm_op, x, weight, bias, ndims=len(shape), eps=eps)


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalise over every dim but 1; in training, update the running stats in place: as
    torch's kernel writes them, through their memory, with no version bump."""
    xp = x._backend.xp
    axes = tuple(d for d in range(x.dim()) if d != 1)
    channels = x.shape[1] if x.dim() > 1 else 1
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    if training:
        n = x.numel() // x.shape[1]
        if n <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input "
                             f"size {x.shape}")
        mean, rstd, var = _norm_stats(xp, x._data, axes, eps)
        mean, rstd, var = mean.reshape(-1), rstd.reshape(-1), var.reshape(-1)
        if running_mean is not None:
            m = _f(momentum, x._data.dtype)
            unbiased = var * x._data.dtype.type(n / (n - 1))
            for stat, batch in ((running_mean, mean), (running_var, unbiased)):
                stat._data[...] = (1 - m) * stat._data + m * batch
    else:
        mean = running_mean._data
        rstd = x._data.dtype.type(1) / xp.sqrt(running_var._data + x._data.dtype.type(eps))
    return apply(native_batch_norm_op, x, weight, bias, mean=mean, rstd=rstd, training=training)


def _check_one_hot(t, num_classes=-1):
    if t.dtype is not int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    v = t._data
    if num_classes == -1 and v.size == 0:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    if v.size and int(v.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if v.size and num_classes != -1 and int(v.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")


@declare("one_hot", None, check=_check_one_hot)
def _one_hot(xp, v, num_classes=-1):
    if num_classes == -1:
        num_classes = int(v.max()) + 1
    return (v[..., None] == xp.arange(num_classes)).astype(np.int64)


def one_hot(t, num_classes=-1):
    return apply(_one_hot, t, num_classes=num_classes)


# -- margin losses (helper L) ------------------------------------------------------------------

def _reduce_kernel(xp, per_sample, reduction, shape):
    """A margin-loss kernel's reduction of its per-sample losses (``shape``: the 'none'
    result's)."""
    if reduction == "none":
        return per_sample.reshape(shape)
    return _reduce(xp, per_sample, reduction)


def _per_sample_grad(grad, reduction, n):
    """The incoming gradient per sample of a margin loss, as an (N, 1) array."""
    g = grad._data.reshape(-1, 1) if reduction == "none" else grad._data.reshape(1, 1)
    return g / g.dtype.type(n) if reduction == "mean" else g


@_nn_op("soft_margin_loss", "SoftMarginLossBackward0", ("self", "target"),
        saves={"self": "self", "target": "self"}, check=_floating("soft_margin_loss"))
def soft_margin_loss_op(xp, x, t, reduction="mean"):
    return _reduce(xp, xp.log1p(xp.exp(-t * x)), reduction)


@soft_margin_loss_op.def_backward
def soft_margin_loss_backward(ctx, grad):
    x, t = ctx.self, ctx.target
    z = (-t * x).exp()
    return (-t * z / (1 + z) * _grad_scale(grad, ctx.reduction, x.numel()), None)


def soft_margin_loss(x, t, reduction="mean"):
    """``log(1 + exp(-target * input))``, reduced."""
    _check_reduction(reduction)
    if t.requires_grad and is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.")
    x, t = _broadcast_pair(x, t)
    return apply(soft_margin_loss_op, x, t, reduction=reduction)


def _check_margin_input(x, t):
    """torch's checks of a margin loss's input (a non-empty vector or matrix) and target."""
    if x.dim() > 2 or x.numel() == 0:
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, "
                           f"but got: {list(x.shape)}")
    if t.dtype is not int64:
        raise RuntimeError(f"expected scalar type Long but found {t.dtype.scalar_name}")


def _multi_margin_terms(xp, x, t, margin):
    """Per (sample, class): the hinge term and whether it counts (class not the target,
    ``margin - x[target] + x[class] > 0``)."""
    x2 = x.reshape(-1, x.shape[-1])
    t1 = t.reshape(-1)
    rows = xp.arange(x2.shape[0])
    z = x2.dtype.type(margin) - x2[rows, t1][:, None] + x2
    counts = (z > 0) & (xp.arange(x2.shape[1])[None, :] != t1[:, None])
    return x2, t1, z, counts


@_nn_op("multi_margin_loss", "MultiMarginLossBackward0", ("self", "target", "weight"),
        saves={"self": "self", "target": "self", "weight": "self"})
def multi_margin_loss_op(xp, x, t, w, p=1, margin=1.0, reduction="mean"):
    x2, t1, z, counts = _multi_margin_terms(xp, x, t, margin)
    h = z if p == 1 else z * z
    if w is not None:
        h = h * w[t1][:, None]
    per = xp.where(counts, h, 0).sum(axis=1, dtype=x.dtype) / x.dtype.type(x2.shape[1])
    return _reduce_kernel(xp, per, reduction, t.shape)


@multi_margin_loss_op.def_backward
def multi_margin_loss_backward(ctx, grad):
    xp = grad._backend.xp
    x, w = ctx.self, ctx.weight
    x2, t1, z, counts = _multi_margin_terms(xp, x._data, ctx.target._data, ctx.margin)
    g = xp.ones_like(z) if ctx.p == 1 else 2 * z
    if w is not None:
        g = g * w._data[t1][:, None]
    g = xp.where(counts, g / g.dtype.type(x2.shape[1]), 0)
    g[xp.arange(x2.shape[0]), t1] -= g.sum(axis=1, dtype=g.dtype)
    g = g * _per_sample_grad(grad, ctx.reduction, x2.shape[0] if x.dim() == 2 else 1)
    return (from_array(g.reshape(x.shape), grad), None, None)


def multi_margin_loss(x, t, p=1, margin=1.0, weight=None, reduction="mean"):
    """Per sample, the mean over the other classes of ``max(0, margin - x[y] + x[j]) ** p``
    (times ``weight[y]``), reduced."""
    _check_reduction(reduction)
    _check_margin_input(x, t)
    n, c = (1, x.shape[0]) if x.dim() < 2 else tuple(x.shape)
    if t.numel() != n or (x.dim() == 2 and t.dim() != 1):
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to "
                           f"the number of input samples (batch size). Expected target size "
                           f"[{n}], but got {list(t.shape)}. Input has shape {list(x.shape)}.")
    if weight is not None and weight.numel() != c:
        raise RuntimeError(f"inconsistent weight size, expected {c} but got "
                           f"{list(weight.shape)}")
    tv = t._data
    if bool(((tv < 0) | (tv >= c)).any()):
        raise RuntimeError("target out of range")
    return apply(multi_margin_loss_op, x, t, weight, p=p, margin=margin, reduction=reduction)


def _multilabel_terms(xp, x, t):
    """Per sample, (target class, other class) pairs as an (N, C, C) mask of the hinge terms
    ``1 - (x[target] - x[other]) > 0``, and those terms."""
    x2 = x.reshape(-1, x.shape[-1])
    t2 = t.reshape(-1, x.shape[-1])
    c = x2.shape[1]
    # the targets of a sample: its target row up to the first -1
    valid = xp.cumprod(t2 >= 0, axis=1).astype(bool)
    is_target = xp.zeros(x2.shape, dtype=bool)
    rows = xp.repeat(xp.arange(x2.shape[0]), c)
    picked = valid.reshape(-1)
    is_target[rows[picked], t2.reshape(-1)[picked]] = True
    z = 1 - (x2[:, :, None] - x2[:, None, :])  # [n, target, other]
    counts = is_target[:, :, None] & ~is_target[:, None, :] & (z > 0)
    return x2, z, counts, c


@_nn_op("multilabel_margin_loss", "MultilabelMarginLossBackward0", ("self", "target"),
        saves={"self": "self", "target": "self"})
def multilabel_margin_loss_op(xp, x, t, reduction="mean"):
    x2, z, counts, c = _multilabel_terms(xp, x, t)
    per = xp.where(counts, z, 0).reshape(x2.shape[0], -1).sum(axis=1, dtype=x.dtype)
    per = per / x.dtype.type(c)
    return _reduce_kernel(xp, per, reduction, t.shape[:-1])


@multilabel_margin_loss_op.def_backward
def multilabel_margin_loss_backward(ctx, grad):
    xp = grad._backend.xp
    x = ctx.self
    x2, z, counts, c = _multilabel_terms(xp, x._data, ctx.target._data)
    k = counts.astype(x2.dtype) / x2.dtype.type(c)
    g = k.sum(axis=1, dtype=x2.dtype) - k.sum(axis=2, dtype=x2.dtype)
    g = g * _per_sample_grad(grad, ctx.reduction, x2.shape[0] if x.dim() == 2 else 1)
    return (from_array(g.reshape(x.shape), grad), None)


def multilabel_margin_loss(x, t, reduction="mean"):
    """Per sample, the sum over (target class, other class) pairs of
    ``max(0, 1 - (x[target] - x[other]))`` divided by the number of classes, reduced; a
    sample's targets are its target row up to the first -1."""
    _check_reduction(reduction)
    _check_margin_input(x, t)
    if tuple(t.shape) != tuple(x.shape):
        raise RuntimeError(f"inconsistent target size: {list(t.shape)} for input of size: "
                           f"{list(x.shape)}")
    tv = t._data
    if bool(((tv < -1) | (tv >= x.shape[-1])).any()):
        raise RuntimeError("argument #2 'target' is out of range")
    return apply(multilabel_margin_loss_op, x, t, reduction=reduction)


# -- glu and rrelu (helper L) ----------------------------------------------------------------------

def _halves(x, dim):
    n = x.shape[dim] // 2
    return x.narrow(dim, 0, n), x.narrow(dim, n, n)


@_nn_op("glu", "GluBackward0", saves={"self": "self"}, check=_floating("glu_cpu"))
def glu_op(xp, x, dim=-1):
    a, b = xp.split(x, 2, axis=dim)
    return a * (x.dtype.type(1) / (x.dtype.type(1) + xp.exp(-b)))


@glu_op.def_backward
def glu_backward(ctx, grad):
    a, b = _halves(ctx.self, ctx.dim)
    s = b.sigmoid()
    return (cat((grad * s, grad * a * s * (1 - s)), ctx.dim),)


def glu(x, dim=-1):
    """``a * sigmoid(b)``, ``a`` and ``b`` the two halves of ``x`` along ``dim``."""
    d = wrap_dim(dim, x.dim())
    if x.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size "
                           f"{x.shape[d]}")
    return apply(glu_op, x, dim=d)


def _check_rrelu(x, noise, training=False, **attrs):
    """torch's refusal of integer inputs names the kernel it runs: eval mode is leaky_relu."""
    _check_floating("rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu", x.dtype)


@_nn_op("rrelu_with_noise", "RreluWithNoiseBackward0", ("self", "noise"), layout="contiguous",
        saves={"self": "self", "noise": "self"}, check=_check_rrelu)
def rrelu_with_noise_op(xp, x, noise, lower=0.125, upper=1 / 3, training=False):
    if training:
        return x * noise
    return xp.where(x > 0, x, x * x.dtype.type((lower + upper) / 2))


@rrelu_with_noise_op.def_backward
def rrelu_with_noise_backward(ctx, grad):
    if ctx.training and ctx.upper - ctx.lower > 1e-6:
        return (grad * ctx.noise, None)
    slope = (ctx.lower + ctx.upper) / 2
    return (where_tensor(ctx.self > 0, grad, grad * slope), None)


def rrelu_with_noise(x, noise, lower=0.125, upper=1 / 3, training=False):
    """Randomised leaky relu: ``x * noise`` in training (``noise``: the slopes drawn for the
    non-positive elements, 1 elsewhere), the leaky relu of slope ``(lower + upper) / 2``
    otherwise."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    return apply(rrelu_with_noise_op, x, noise, lower=lower, upper=upper, training=training)


# -- weight norm (helper L) ------------------------------------------------------------------------

def _except_axes(ndim, dim):
    return tuple(d for d in range(ndim) if d != dim)


@_nn_op("_weight_norm_interface", "WeightNormInterfaceBackward0", ("v", "g"),
        layout="contiguous", saves={"v": ("v", "g"), "g": ("v", "g")})
def weight_norm_interface_op(xp, v, g, dim=0):
    norm = xp.sqrt((v * v).sum(axis=_except_axes(v.ndim, dim), keepdims=True, dtype=v.dtype))
    return v * (g.reshape(norm.shape) / norm)


@weight_norm_interface_op.def_backward
def weight_norm_interface_backward(ctx, grad):
    v, g, dim = ctx.v, ctx.g, ctx.dim
    axes = _except_axes(v.dim(), dim)
    norm = (v * v).sum(axes, keepdim=True).sqrt()
    gv_dot = (grad * v).sum(axes, keepdim=True)
    n = ctx.needs_input_grad
    g_ = g.reshape(norm.shape)
    grad_v = g_ / norm * (grad - v * (gv_dot / (norm * norm))) if n[0] else None
    grad_g = (gv_dot / norm).reshape(g.shape) if n[1] else None
    return grad_v, grad_g


def weight_norm_interface(v, g, dim=0):
    """torch's fused weight norm ``v * (g / ||v||)``, the norm over every dim but ``dim`` (0
    or the last)."""
    return apply(weight_norm_interface_op, v, g, dim=dim)


# -- pdist (helper L) -----------------------------------------------------------------------------

def _pairs_diff(xp, x):
    """Row pairs ``i < j`` (in torch's order) and ``x[i] - x[j]``."""
    i, j = xp.triu_indices(x.shape[0], 1)
    return i, j, x[i] - x[j]


def _p_norms(xp, d, p):
    a = xp.abs(d)
    if p == 0:
        return (a != 0).sum(axis=1).astype(d.dtype)
    if p == math.inf:
        return a.max(axis=1, initial=0).astype(d.dtype)
    if p == 1:
        return a.sum(axis=1, dtype=d.dtype)
    if p == 2:
        return xp.sqrt((d * d).sum(axis=1, dtype=d.dtype))
    return ((a ** d.dtype.type(p)).sum(axis=1, dtype=d.dtype)) ** d.dtype.type(1 / p)


@_nn_op("_pdist_forward", "PdistBackward0", saves={"self": "self", "result": "self"},
        layout="contiguous")
def pdist_op(xp, x, p=2.0):
    return _p_norms(xp, _pairs_diff(xp, x)[2], p)


@pdist_op.def_backward
def pdist_backward(ctx, grad):
    """Each pair's gradient ``d dist / d x[i]`` added to row ``i``, its negative to row
    ``j`` (0 where the distance is 0, and for p = 0); in doctensor ops, so it can be
    differentiated again."""
    x, dist, p = ctx.self, ctx.result.unsqueeze(1), ctx.p
    rows_i, rows_j = (from_array(r.astype(np.int64), x)
                      for r in np.triu_indices(x.shape[0], 1))
    d = x.index_select(0, rows_i) - x.index_select(0, rows_j)
    if p == 0:
        per = d * 0
    elif p == 1:
        per = d.sign()
    elif p == math.inf:
        per = d.sign() * (d.abs() == dist)
    elif p == 2:
        per = d / dist
    else:
        per = d.sign() * d.abs().pow(p - 1) / dist.pow(p - 1)
    per = where_tensor(dist == 0, per * 0, per * grad.unsqueeze(1))
    return (x.new_zeros(x.shape).index_add(0, rows_i, per).index_add(0, rows_j, -per),)


def pdist(x, p=2.0):
    """The ``p``-norm distance between every pair of rows ``i < j`` of a 2-d ``x``."""
    if x.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {x.dim()}D")
    if not x.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return apply(pdist_op, x, p=float(p))


# -- ctc_loss (helper L) ---------------------------------------------------------------------------
# (the recursions run in NumPy: arrays of another backend are brought to the host)

def _host(xp, a):
    return xp.asnumpy(a) if hasattr(xp, "asnumpy") else a


def _log_add(*terms):
    """``log(sum(exp(terms)))`` as torch's CTC kernel writes it (the max subtracted, a max of
    -inf taken as 0)."""
    top = np.maximum.reduce(terms)
    top = np.where(top == -np.inf, 0, top)
    with np.errstate(divide="ignore"):  # every term -inf: log(0) = -inf, as torch's
        return np.log(sum(np.exp(t - top) for t in terms)) + top


def _ctc_target(targets, tl, b):
    """Sample ``b``'s target: a row of a 2-d target, or its slice of the concatenated 1-d
    targets."""
    if targets.ndim == 2:
        return targets[b, :tl[b]]
    start = int(sum(tl[:b]))
    return targets[start:start + tl[b]]


def _shifted(row, k, fill):
    """``row`` moved ``k`` places right (left for negative ``k``), ``fill`` coming in."""
    out = np.full_like(row, fill)
    if k > 0:
        out[k:] = row[:-k]
    else:
        out[:k] = row[-k:]
    return out


def _ctc_alpha(lp, labels, blank):
    """The forward variables (log-space) of one sample over its extended target (blanks
    around and between the labels), the extended target, and where a label may be reached
    from two places back."""
    s_len = 2 * len(labels) + 1
    ext = np.full(s_len, blank, dtype=np.int64)
    ext[1::2] = labels
    skip = np.zeros(s_len, dtype=bool)
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    alpha = np.full((lp.shape[0], s_len), -np.inf, dtype=lp.dtype)
    alpha[0, :2] = lp[0, ext[:2]]
    for t in range(1, lp.shape[0]):
        prev = alpha[t - 1]
        two = np.where(skip, _shifted(prev, 2, -np.inf), -np.inf).astype(lp.dtype)
        alpha[t] = _log_add(prev, _shifted(prev, 1, -np.inf), two) + lp[t, ext]
    return alpha, ext, skip


def _ctc_beta(lp, ext, skip):
    """The backward variables (log-space), mirror of ``_ctc_alpha``."""
    beta = np.full((lp.shape[0], len(ext)), -np.inf, dtype=lp.dtype)
    beta[-1, -2:] = lp[-1, ext[-2:]]
    skip_next = _shifted(skip, -2, False)
    for t in range(lp.shape[0] - 2, -1, -1):
        nxt = beta[t + 1]
        two = np.where(skip_next, _shifted(nxt, -2, -np.inf), -np.inf).astype(lp.dtype)
        beta[t] = _log_add(nxt, _shifted(nxt, -1, -np.inf), two) + lp[t, ext]
    return beta


@_nn_op("_ctc_loss", "CtcLossBackward0", ("log_probs", "targets"),
        saves={"log_probs": "log_probs", "targets": "log_probs", "result": "log_probs"})
def ctc_loss_op(xp, lp, targets, input_lengths=(), target_lengths=(), blank=0,
                zero_infinity=False):
    lp, targets = _host(xp, lp), _host(xp, targets)
    losses = np.empty(lp.shape[1], dtype=lp.dtype)
    for b in range(lp.shape[1]):
        alpha = _ctc_alpha(lp[:input_lengths[b], b], _ctc_target(targets, target_lengths, b),
                           blank)[0]
        last = alpha[-1, -2:] if alpha.shape[1] > 1 else alpha[-1]
        losses[b] = -_log_add(*last)
    return xp.asarray(losses)


@ctc_loss_op.def_backward
def ctc_loss_backward(ctx, grad):
    """torch's formula: ``exp(lp) - exp(log(sum of alpha * beta over the positions of each
    class) + nll - lp)``, times the incoming gradient; zero past a sample's input length
    (and, with ``zero_infinity``, for an infinite loss)."""
    xp = grad._backend.xp
    lp, targets = _host(xp, ctx.log_probs._data), _host(xp, ctx.targets._data)
    nll, g_out = _host(xp, ctx.result._data), _host(xp, grad._data)
    out = np.zeros_like(lp)
    for b in range(lp.shape[1]):
        if ctx.zero_infinity and nll[b] == np.inf:
            continue
        sample = lp[:ctx.input_lengths[b], b]
        alpha, ext, skip = _ctc_alpha(sample, _ctc_target(targets, ctx.target_lengths, b),
                                      ctx.blank)
        ab = alpha + _ctc_beta(sample, ext, skip)
        lcab = np.full(sample.shape, -np.inf, dtype=lp.dtype)
        for c in np.unique(ext):
            lcab[:, c] = _log_add(*ab[:, ext == c].T)
        out[:len(sample), b] = (np.exp(sample) - np.exp(lcab + nll[b] - sample)) * g_out[b]
    return (from_array(xp.asarray(out), grad), None)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    """Per sample of a (T, N, C) ``log_probs``, the connectionist temporal classification
    loss (minus the log of the summed probability of every alignment of its target)."""
    n_t, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    il, tl = (tuple(int(v) for v in lengths) for lengths in (input_lengths, target_lengths))
    if len(il) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for b in range(batch):
        if targets.dim() == 2 and tl[b] > targets.shape[1]:
            raise RuntimeError(f"Expected tensor to have size at least {tl[b]} at dimension 1, "
                               f"but got size {targets.shape[1]} for argument #2 'targets' "
                               "(while checking arguments for ctc_loss_allocate_outputs)")
    for b in range(batch):
        if il[b] > n_t:
            raise RuntimeError(f"Expected input_lengths to have value at most {n_t}, but got "
                               f"value {il[b]} (while checking arguments for "
                               "ctc_loss_allocate_outputs)")
    return apply(ctc_loss_op, log_probs, targets.long(), input_lengths=il, target_lengths=tl,
                 blank=blank, zero_infinity=zero_infinity)
