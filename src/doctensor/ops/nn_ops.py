"""The ops behind ``torch.nn.functional`` that torch shows as their own grad_fn, and the fused
pointwise ops the optimizers use (``addcmul_``, ``addcdiv_``, ``lerp_``).

Each is declared once, as in ``_registry``: an array forward, a backward in doctensor ops,
its grad_fn name and what it saves.  Float32 arithmetic follows torch's CPU kernels where
the order is known (``addcmul`` and ``lerp`` are one fused multiply-add, ``addcdiv`` is
``self + (value * t1) / t2``; softmax follows Note [softmax kernel] in ``_softmax_kernel``);
other reductions (loss means) may differ from torch in the last bit, because NumPy sums in
a different order.
"""

import math

import numpy as np

from .._dtypes import int64
from .._strides import broadcast_shapes
from ._registry import declare, needs_grad, record, wrap_result
from ._softmax_kernel import softmax_cpu, sum_left_to_right
from .pointwise import QUIET, check_same_device, exp, inplace, where_tensor
from .reduction import sum_dim

__all__ = ["softmax", "gelu", "leaky_relu", "nll_loss", "mse_loss", "smooth_l1_loss",
           "huber_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "embedding",
           "layer_norm", "group_norm", "batch_norm", "addcmul", "addcdiv", "lerp", "one_hot"]


def _apply(op, inputs, attrs=None):
    """Run ``op`` on the arrays of ``inputs`` (tensors or None) and record its node."""
    first = next(t for t in inputs if t is not None)
    tensors = [t for t in inputs if t is not None]
    if len(tensors) > 1:
        check_same_device(tensors)
    xp = first._backend.xp
    arrays = [None if t is None else t._data for t in inputs]
    out = xp.asarray(QUIET.run(op.forward, xp, *arrays, **(attrs or {})))  # Note [floating-...]
    result = wrap_result(out, first)
    if op.backward is not None and needs_grad([t for t in inputs if t is not None]):
        record(op, tuple(inputs), (result,), attrs)
    return result


def _constant(array, like):
    """A tensor (no history) holding ``array``, on ``like``'s device."""
    return wrap_result(like._backend.xp.asarray(array), like)


def _f(x, dtype):
    """A Python scalar converted to the working dtype, as ATen converts ``Scalar`` args."""
    return np.asarray(x, dtype=dtype)[()]


# -- fused pointwise ops (the optimizers' arithmetic) ------------------------------------------


def _fma(xp, a, b, c):
    """``a * b + c`` rounded once for float32 (torch's AVX2 kernels use ``fmadd``)."""
    if xp is np and np.result_type(a, b, c) == np.float32:
        from .._random_math import fma32
        shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
        return fma32(np.atleast_1d(a), np.atleast_1d(b), np.atleast_1d(c)).reshape(shape)
    return a * b + c


@declare("addcmul", "AddcmulBackward0", ("self", "tensor1", "tensor2"),
         saves={"tensor1": (2,), "tensor2": (1,)})
def addcmul_op(xp, a, t1, t2, value=1):
    return _fma(xp, _f(value, a.dtype) * t1, t2, a)


@addcmul_op.def_backward
def _(ctx, grad):
    n, v = ctx.needs_input_grad, ctx.attrs.get("value", 1)
    return (grad if n[0] else None, grad * ctx.tensor2 * v if n[1] else None,
            grad * ctx.tensor1 * v if n[2] else None)


@declare("addcdiv", "AddcdivBackward0", ("self", "tensor1", "tensor2"),
         saves={"tensor1": (2,), "tensor2": (1, 2)})
def addcdiv_op(xp, a, t1, t2, value=1):
    return a + (_f(value, a.dtype) * t1) / t2


@addcdiv_op.def_backward
def _(ctx, grad):
    n, v = ctx.needs_input_grad, ctx.attrs.get("value", 1)
    t1, t2 = ctx.tensor1, ctx.tensor2
    return (grad if n[0] else None, grad * v / t2 if n[1] else None,
            -grad * v * t1 / (t2 * t2) if n[2] else None)


@declare("lerp", "LerpBackward0", ("self", "end"))
def lerp_op(xp, a, end, weight=0.5):
    w = _f(weight, a.dtype)
    if abs(weight) < 0.5:
        return _fma(xp, w, end - a, a)
    return _fma(xp, -(end - a), _f(1 - weight, a.dtype), end)


@lerp_op.def_backward
def _(ctx, grad):
    w = ctx.attrs["weight"]
    n = ctx.needs_input_grad
    return (grad * (1 - w) if n[0] else None, grad * w if n[1] else None)


# -- activations -----------------------------------------------------------------------------

_CPU_SOFTMAX = (np.dtype(np.float32), np.dtype(np.float64))


@declare("softmax", "SoftmaxBackward0", saves={"result": (0,)})
def softmax_op(xp, a, dim):
    if xp is np and a.dtype in _CPU_SOFTMAX:
        return softmax_cpu(a, dim, log=False)  # torch's bits: Note [softmax kernel]
    e = xp.exp(a - a.max(axis=dim, keepdims=True))
    return e * (a.dtype.type(1) / e.sum(axis=dim, keepdims=True))


@softmax_op.def_backward
def _(ctx, grad):
    return (_apply(softmax_backward_data, (grad, ctx.result), {"dim": ctx.dim}),)


def _sum_kept(xp, a, dim):
    return sum_dim.forward(xp, a, dims=(dim,), keepdim=True, dtype=a.dtype)


@declare("_softmax_backward_data", "SoftmaxBackwardDataBackward0", ("grad_output", "output"),
         saves={"grad_output": (1,), "output": (0, 1)})
def softmax_backward_data(xp, g, y, dim):
    return (g - _sum_kept(xp, g * y, dim)) * y


@softmax_backward_data.def_backward
def _(ctx, grad):
    n, y, dim = ctx.needs_input_grad, ctx.output, ctx.dim
    if not n[1]:
        return (_apply(softmax_backward_data, (grad, y), {"dim": dim}), None)
    g = ctx.grad_output  # torch's softmax_double_backward for the output
    dy = g * grad - (y * g).sum(dim, keepdim=True) * grad - g * (y * grad).sum(dim, keepdim=True)
    return (_apply(softmax_backward_data, (grad, y), {"dim": dim}) if n[0] else None, dy)


@declare("log_softmax", "LogSoftmaxBackward0", saves={"result": (0,)})
def log_softmax_op(xp, a, dim):
    if xp is np and a.dtype in _CPU_SOFTMAX:
        return softmax_cpu(a, dim, log=True)
    shifted = a - a.max(axis=dim, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=dim, keepdims=True))


@log_softmax_op.def_backward
def _(ctx, grad):
    return (_apply(log_softmax_backward_data, (grad, ctx.result), {"dim": ctx.dim}),)


@declare("_log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0",
         ("grad_output", "output"), saves={"grad_output": (1,), "output": (0, 1)})
def log_softmax_backward_data(xp, g, y, dim):
    return g - exp.forward(xp, y) * _sum_kept(xp, g, dim)


@log_softmax_backward_data.def_backward
def _(ctx, grad):
    n, e, dim = ctx.needs_input_grad, ctx.output.exp(), ctx.dim
    return (grad - (grad * e).sum(dim, keepdim=True) if n[0] else None,
            -ctx.grad_output.sum(dim, keepdim=True) * e * grad if n[1] else None)


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
    cdf = 0.5 * (1 + _erf(x * math.sqrt(0.5)).astype(np.float64))
    return cdf, x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


@declare("gelu", "GeluBackward0", saves={"self": (0,)})
def gelu_op(xp, a, approximate="none"):
    cdf, _ = _gelu_parts(np.asarray(a), approximate)
    return xp.asarray((a.astype(np.float64) * cdf).astype(a.dtype))


@gelu_op.def_backward
def _(ctx, grad):
    return (gelu_backward(grad, ctx.self, ctx.approximate),)


@declare("gelu_backward", "GeluBackwardBackward0", ("grad_output", "self"),
         saves={"grad_output": (1,), "self": (0, 1)})
def gelu_backward_op(xp, g, a, approximate="none"):
    cdf, xpdf = _gelu_parts(np.asarray(a), approximate)
    return g * xp.asarray((cdf + xpdf).astype(a.dtype))


@gelu_backward_op.def_backward
def _(ctx, grad):
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
    return _apply(gelu_backward_op, (grad, x), {"approximate": approximate})


@declare("leaky_relu", "LeakyReluBackward0", saves={"self": (0,)})
def leaky_relu_op(xp, a, negative_slope=0.01):
    return xp.where(a > 0, a, a * _f(negative_slope, a.dtype))


@leaky_relu_op.def_backward
def _(ctx, grad):
    x = ctx.self
    slope = _constant(np.where(x._data > 0, 1, ctx.negative_slope).astype(x._data.dtype), x)
    return (grad * slope,)


@declare("leaky_relu_", "LeakyReluBackward1", saves={"result": (0,)})
def leaky_relu_inplace_op(xp, a, negative_slope=0.01):
    return leaky_relu_op.forward(xp, a, negative_slope)


@leaky_relu_inplace_op.def_backward
def _(ctx, grad):
    if ctx.negative_slope < 0:  # the result's sign no longer tells the input's
        raise RuntimeError(
            "In-place leakyReLu backward calculation is triggered with a negative slope which "
            "is not supported. This is caused by calling in-place forward function with a "
            "negative slope, please call out-of-place version instead. File an issue at "
            "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
            "backward calculation with negative slope")
    y = ctx.result
    slope = _constant(np.where(y._data > 0, 1, ctx.negative_slope).astype(y._data.dtype), y)
    return (grad * slope,)


# -- losses ------------------------------------------------------------------------------------

_REDUCTIONS = ("none", "mean", "sum")


def _reduce(xp, loss, reduction):
    if reduction == "mean":
        return xp.mean(loss, dtype=loss.dtype)
    if reduction == "sum":
        return xp.sum(loss, dtype=loss.dtype)
    return loss


def _grad_scale(grad, reduction, n):
    """The incoming gradient spread over the elements of an elementwise loss."""
    return grad / n if reduction == "mean" else grad


@declare("mse_loss", "MseLossBackward0", ("self", "target"),
         saves={"self": (0, 1), "target": (0, 1)})
def mse_loss_op(xp, a, t, reduction="mean"):
    d = a - t
    return _reduce(xp, d * d, reduction)


@mse_loss_op.def_backward
def _(ctx, grad):
    d = ctx.self - ctx.target
    g = _grad_scale(grad, ctx.reduction, d.numel()) * 2 * d
    n = ctx.needs_input_grad
    return (g if n[0] else None, -g if n[1] else None)


def _huber_family(name, grad_fn, parameter, scaled):
    """smooth_l1_loss (``scaled``: the quadratic part divided by beta) and huber_loss (times
    delta on the linear part): one op each, with torch's node and saved fields."""
    op = declare(name, grad_fn, ("self", "target"), saves={"self": (0, 1), "target": (0, 1)})(
        lambda xp, a, t, reduction="mean", **kw: _reduce(xp, _huber(xp, a - t, kw[parameter],
                                                                    scaled), reduction))

    @op.def_backward
    def _(ctx, grad):
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
    return _apply(smooth_l1_loss_op, (x, t), {"reduction": reduction, "beta": beta})


def huber_loss(x, t, reduction="mean", delta=1.0):
    _check_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    x, t = _broadcast_pair(x, t)
    return _apply(huber_loss_op, (x, t), {"reduction": reduction, "delta": delta})


_EPSILON = 1e-12


@declare("binary_cross_entropy", "BinaryCrossEntropyBackward0", ("self", "target", "weight"),
         saves={"self": (0,), "target": (0,), "weight": (0,)})
def binary_cross_entropy_op(xp, x, t, w, reduction="mean"):
    one = x.dtype.type(1)
    loss = (t - one) * xp.maximum(xp.log(one - x), -100) - t * xp.maximum(xp.log(x), -100)
    if w is not None:
        loss = loss * w
    return _reduce(xp, loss.astype(x.dtype, copy=False), reduction)


@binary_cross_entropy_op.def_backward
def _(ctx, grad):
    x, t, w = ctx.self, ctx.target, ctx.weight
    g = _grad_scale(grad, ctx.reduction, x.numel()) * (x - t) / ((1 - x) * x).clamp(min=_EPSILON)
    return (g if w is None else g * w, None, None)


@declare("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
         ("self", "target", "weight", "pos_weight"),
         saves={"self": (0, 1), "target": (0, 1), "weight": (0, 1), "pos_weight": (0, 1)})
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
def _(ctx, grad):
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


@declare("nll_loss", "NllLossBackward0", ("self", "target", "weight"),
         saves={"target": (0,), "weight": (0,)})
def nll_loss_op(xp, x, t, w, reduction="mean", ignore_index=-100):
    x2 = x.reshape(1, -1) if x.ndim == 1 else x
    t1 = t.reshape(-1)
    keep = t1 != ignore_index
    safe = xp.where(keep, t1, 0)
    coef = xp.where(keep, 1, 0).astype(x.dtype) if w is None else \
        xp.where(keep, w[safe], 0).astype(x.dtype)
    picked = x2[xp.arange(x2.shape[0]), safe]
    loss = -(picked * coef)
    if reduction == "none":
        return loss.reshape(t.shape)
    if xp is np:  # torch's order: Note [nll_loss cascade sum]
        rows = np.flatnonzero(keep)
        total = _cascade_sum(loss[rows], rows)
        count = _cascade_sum(coef[rows], rows) if w is not None else x.dtype.type(len(rows))
    else:
        total, count = loss.sum(dtype=x.dtype), coef.sum(dtype=x.dtype)
    return total if reduction == "sum" else total / count


# Note [nll_loss cascade sum]
# torch's CPU nll_loss (LossNLL.cpp, nll_loss_out_frame) sums the picked losses of a batch
# into 8 partial sums: row b goes into level 0, and after row b, while the next 4 bits of b
# are zero (b % 16 == 0, then b % 256 == 0, ...), level j is added into level j+1 and
# cleared.  Ignored rows are skipped, flush included.  The result is
# 0 + level0 + level1 + ... + level7, left to right.  Each level, from level 0 up, receives a
# sequence of (b, value) and hands the next level the sums of its runs.

def _cascade_sum(values, rows):
    """Sum of ``values`` (the batch rows ``rows``) as Note [nll_loss cascade sum] does it."""
    levels = []
    for j in range(7):
        if len(values) <= 1:  # a lone value sums to itself wherever it sits among zeros
            break
        flush = rows % (16 ** (j + 1)) == 0
        run = np.cumsum(flush) - flush  # the run each value belongs to
        closed = int(flush.sum())
        width = int(np.bincount(run).max()) if len(run) else 0
        table = np.zeros((closed + 1, width), values.dtype)
        table[run, np.arange(len(run)) - np.searchsorted(run, run)] = values
        sums = _sum_columns(table)
        levels.append(sums[closed])  # the open run stays at this level
        values, rows = sums[:closed], rows[flush]
    levels.append(_sum_columns(values[None])[0])
    return _sum_columns(np.array([levels], values.dtype))[0]


def _sum_columns(table):
    """Row sums of a 2-d array, each ``0 + t[0] + t[1] + ...`` left to right, then ``+ 0``
    (the leading 0 only matters to a row of zeros: it makes -0. +0.)."""
    if not table.shape[1]:
        return np.zeros(len(table), table.dtype)
    return sum_left_to_right(table, 1) + table.dtype.type(0)


@nll_loss_op.def_backward
def _(ctx, grad):
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
    onehot = _constant(onehot.reshape(shape), grad)
    if ctx.reduction == "none" and len(shape) == 2:
        grad = grad.unsqueeze(1)
    return (grad * onehot, None, None)


# -- embedding and normalisation ------------------------------------------------------------


@declare("embedding", "EmbeddingBackward0", ("weight", "indices"), saves={"indices": (0,)})
def embedding_op(xp, w, idx, padding_idx=None):
    return w[idx]


@embedding_op.def_backward
def _(ctx, grad):
    idx = ctx.indices._data.reshape(-1)
    shape = ctx.input_meta[0][0]
    xp = grad._backend.xp
    g = grad._data.reshape(-1, shape[1])
    if ctx.padding_idx is not None:
        g = g * (idx != ctx.padding_idx)[:, None]
    out = xp.zeros(shape, dtype=grad._data.dtype)
    np.add.at(out, idx, g) if xp is np else xp.add.at(out, idx, g)
    return (_constant(out, grad), None)


def _norm_stats(xp, x, axes, eps):
    mean = x.mean(axis=axes, keepdims=True, dtype=x.dtype)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True, dtype=x.dtype)
    return mean, x.dtype.type(1) / xp.sqrt(var + x.dtype.type(eps)), var


@declare("native_layer_norm", "NativeLayerNormBackward0", ("input", "weight", "bias"),
         saves={"input": (0, 1), "weight": (0,)})
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
    return _constant((x._data - mean) * rstd, x), _constant(rstd, x)


@native_layer_norm_op.def_backward
def _(ctx, grad):
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


@declare("native_group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"),
         saves={"input": (0, 1), "weight": (0,)})
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
def _(ctx, grad):
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
    return _apply(native_group_norm_op, (x, weight, bias), {"groups": num_groups, "eps": eps})


@declare("native_batch_norm", "NativeBatchNormBackward0", ("input", "weight", "bias"),
         saves={"input": (0, 1), "weight": (0,)})
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
def _(ctx, grad):
    x, w = ctx.input, ctx.weight
    axes = tuple(d for d in range(x.dim()) if d != 1)
    shape = [1] * x.dim()
    shape[1] = x.shape[1]
    rstd = _constant(ctx.rstd.reshape(shape), x)
    xhat = _constant((x._data - ctx.mean.reshape(shape)) * ctx.rstd.reshape(shape), x)
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


# -- the wrappers -------------------------------------------------------------------------------


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def addcmul(t, t1, t2, value=1, inplace=True):
    from .pointwise import inplace as run_inplace
    from .pointwise import run
    attrs = {"value": value}
    if inplace:
        return run_inplace(addcmul_op, t, (t1, t2), attrs)
    return run(addcmul_op, (t, t1, t2), attrs)


def addcdiv(t, t1, t2, value=1, inplace=True):
    from .pointwise import inplace as run_inplace
    from .pointwise import run
    attrs = {"value": value}
    if inplace:
        return run_inplace(addcdiv_op, t, (t1, t2), attrs, floating=True)
    return run(addcdiv_op, (t, t1, t2), attrs, floating=True)


def lerp(t, end, weight, inplace=True):
    from .pointwise import inplace as run_inplace
    from .pointwise import run
    attrs = {"weight": weight}
    if inplace:
        return run_inplace(lerp_op, t, (end,), attrs)
    return run(lerp_op, (t, end), attrs)


def softmax(t, dim, log=False):
    """softmax (or log_softmax when ``log``) along ``dim``."""
    from .. import _strides as S
    d = S.wrap_dim(dim, max(t.dim(), 1))
    if not t.dtype.is_floating_point:
        kernel = "log_softmax_lastdim_kernel_impl" if log else "softmax_lastdim_kernel_impl"
        raise RuntimeError(f'"{kernel}" not implemented for \'{t.dtype.scalar_name}\'')
    if t.dim() == 0:
        return _apply(log_softmax_op if log else softmax_op, (t.view(1),), {"dim": 0}).view(())
    return _apply(log_softmax_op if log else softmax_op, (t,), {"dim": d})


def gelu(t, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _apply(gelu_op, (t,), {"approximate": approximate})


def leaky_relu(t, negative_slope=0.01, in_place=False):
    if in_place:
        return inplace(leaky_relu_inplace_op, t, (), {"negative_slope": negative_slope})
    return _apply(leaky_relu_op, (t,), {"negative_slope": negative_slope})


def _broadcast_pair(x, t):
    """An elementwise loss's input and target expanded to their common shape."""
    if x.shape != t.shape:
        shape = broadcast_shapes(tuple(x.shape), tuple(t.shape))
        x, t = x.expand(shape), t.expand(shape)
    return x, t


def mse_loss(x, t, reduction="mean"):
    _check_reduction(reduction)
    x, t = _broadcast_pair(x, t)
    return _apply(mse_loss_op, (x, t), {"reduction": reduction})


def binary_cross_entropy(x, t, weight=None, reduction="mean"):
    _check_reduction(reduction)
    if bool(((x._data < 0) | (x._data > 1)).any()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if weight is not None and weight.shape != x.shape:
        weight = weight.expand(x.shape)
    return _apply(binary_cross_entropy_op, (x, t, weight), {"reduction": reduction})


def binary_cross_entropy_with_logits(x, t, weight=None, pos_weight=None, reduction="mean"):
    _check_reduction(reduction)
    if weight is not None and weight.shape != x.shape:
        weight = weight.expand(x.shape)
    if pos_weight is not None and pos_weight.shape != x.shape:
        pos_weight = pos_weight.expand(x.shape)
    return _apply(binary_cross_entropy_with_logits_op, (x, t, weight, pos_weight),
                  {"reduction": reduction})


def nll_loss(x, t, weight=None, reduction="mean", ignore_index=-100):
    _check_reduction(reduction)
    if t.dtype.scalar_name not in ("Long", "Byte"):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           + t.dtype.scalar_name)
    if x.dim() not in (1, 2):
        raise NotImplementedError("doctensor's nll_loss takes (C,) or (N, C) inputs")
    if x.dim() == 2 and x.shape[0] != t.shape[0]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
                         f"({t.shape[0]}).")
    tv = t._data.reshape(-1)
    bad = (tv != ignore_index) & ((tv < 0) | (tv >= x.shape[-1]))
    if bool(bad.any()):
        raise IndexError(f"Target {int(tv[bad.argmax()])} is out of bounds.")
    t = t.long() if t.dtype is not int64 else t
    return _apply(nll_loss_op, (x, t, weight), {"reduction": reduction,
                                              "ignore_index": ignore_index})


def embedding(indices, weight, padding_idx=None):
    if indices.dtype.is_floating_point:
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                           "following scalar types: Long, Int; but got torch."
                           f"{indices.dtype.scalar_name}Tensor instead (while checking arguments "
                           "for embedding)")
    iv = indices._data
    if iv.size and (int(iv.max()) >= weight.shape[0] or int(iv.min()) < 0):
        raise IndexError("index out of range in self")
    return _apply(embedding_op, (weight, indices), {"padding_idx": padding_idx})


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    shape = tuple(normalized_shape)
    if tuple(x.shape[x.dim() - len(shape):]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape [*, "
            f"{', '.join(map(str, shape))}], but got input of size{list(x.shape)}")
    return _apply(native_layer_norm_op, (x, weight, bias), {"ndims": len(shape), "eps": eps})


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
                momentum=0.1, eps=1e-5):
    """Normalise over every dim but 1; in training, update the running stats in place."""
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
                             f"size {list(x.shape)}")
        mean, rstd, var = _norm_stats(xp, x._data, axes, eps)
        mean, rstd, var = mean.reshape(-1), rstd.reshape(-1), var.reshape(-1)
        if running_mean is not None:
            m = _f(momentum, x._data.dtype)
            running_mean._data[...] = (1 - m) * running_mean._data + m * mean
            running_mean._bump_version()
            running_var._data[...] = (1 - m) * running_var._data + m * var * \
                x._data.dtype.type(n / (n - 1))
            running_var._bump_version()
    else:
        mean = running_mean._data
        rstd = x._data.dtype.type(1) / xp.sqrt(running_var._data + x._data.dtype.type(eps))
    return _apply(native_batch_norm_op, (x, weight, bias),
                  {"mean": mean, "rstd": rstd, "training": training})


def one_hot(t, num_classes=-1):
    if t.dtype is not int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    xp = t._backend.xp
    v = t._data
    if num_classes == -1:
        if v.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(v.max()) + 1
    if v.size and int(v.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if v.size and int(v.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = (v[..., None] == xp.arange(num_classes)).astype(np.int64)
    return wrap_result(out, t)

