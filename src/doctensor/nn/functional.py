"""``torch.nn.functional``: layers as functions, written with doctensor's public API.

The kernels torch keeps in ``torch._C._nn`` come from ``doctensor._nn`` (declared with their
grad_fn names in ``ops/nn_ops.py``); the rest is composed from tensor ops exactly as torch
composes it, so the autograd graph shows the same nodes (``linear`` on a 2-D input is one
``AddmmBackward0``; ``l1_loss`` is ``MeanBackward0 <- AbsBackward0 <- SubBackward0``).
"""

import math
import warnings
from collections.abc import Iterable

import doctensor as torch
from doctensor import _nn

__all__ = ["linear", "bilinear", "conv2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d",
           "relu", "leaky_relu", "sigmoid", "tanh",
           "gelu", "softmax",
           "log_softmax", "dropout", "mse_loss", "l1_loss", "cross_entropy", "nll_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "one_hot", "embedding",
           "layer_norm", "batch_norm"]


# -- layers ---------------------------------------------------------------------------------


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: ``addmm`` on 2-D inputs, folded to 2-D otherwise."""
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return torch.addmm(bias, input, weight.t())
    out = torch.addmm(bias, input.reshape(-1, input.shape[-1]), weight.t())
    return out.view(*input.shape[:-1], weight.shape[0])


def bilinear(input1, input2, weight, bias=None):
    """``out[n, k] = input1[n] @ weight[k] @ input2[n] (+ bias[k])``."""
    out = (input1[:, None, None, :].matmul(weight)[:, :, 0, :] * input2.unsqueeze(1)).sum(-1)
    return out if bias is None else out + bias


def pad(input, pad, mode="constant", value=None):
    """``input`` padded by ``pad``: (before, after) pairs for its last dims, the last dim's
    first (negative amounts cut), with ``value`` or by the mode 'reflect', 'replicate' or
    'circular'."""
    if mode != "constant":
        return _nn.pad(input, pad, mode, value)
    return torch.constant_pad_nd(input, pad, 0 if value is None else value)


_INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")
_MODES = ("nearest", *_INTERPOLATING[:2], "bicubic", "trilinear", "lanczos", "area",
          "nearest-exact")


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize (N, C, H, W) inputs to ``size`` or by ``scale_factor``: 'nearest' or
    'bilinear' (torch's sample positions: Note [resampling arithmetic])."""
    if align_corners is not None and mode not in _INTERPOLATING:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if mode not in _MODES:
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {input.dim()}D) for the modes: {' | '.join(_MODES)} "
                                  f"(got {mode})")
    if mode == "bilinear" and input.dim() != 4:
        raise NotImplementedError(f"Got {input.dim()}D input, but bilinear mode needs 4D input")
    if mode not in ("nearest", "bilinear") or input.dim() != 4 or antialias:
        return _interpolate(input, size, scale_factor, mode, align_corners,
                            recompute_scale_factor, antialias)
    if size is not None:
        size, scales = ((size, size) if isinstance(size, int) else tuple(size)), (None, None)
    else:
        factors = (scale_factor,) * 2 if isinstance(scale_factor, (int, float)) \
            else tuple(scale_factor)
        size = tuple(math.floor(float(input.shape[2 + i]) * factors[i]) for i in range(2))
        scales = (None, None) if recompute_scale_factor else tuple(map(float, factors))
    return _nn.upsample(input, size, scales, mode, align_corners)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Cross-correlation of (N, C, L) inputs with (out, C / groups, k) weights."""
    return _nn.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 2-d convolution (cross-correlation) of (N, C, H, W) or (C, H, W) inputs."""
    return _nn.conv2d(input, weight, bias, stride, padding, dilation, groups)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest value of each kernel_size window (``stride`` defaults to kernel_size);
    ``return_indices``: and its flat position in its (H, W) plane."""
    if return_indices:
        return _nn.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return _nn.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each kernel_size window (``stride`` defaults to kernel_size)."""
    return _nn.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                          divisor_override)


def adaptive_avg_pool2d(input, output_size):
    """Means over windows that cut the last two dims into ``output_size``."""
    return _nn.adaptive_avg_pool2d(input, output_size)


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _nn.leaky_relu(input, negative_slope, in_place=inplace)


def sigmoid(input):
    return input.sigmoid()


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim, dtype=dtype)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``)."""
    return input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``: each divided by its
    norm (at least ``eps``) first, then their product summed, as torch computes it."""
    if x1.shape != x2.shape:
        shape = torch.broadcast_shapes(x1.shape, x2.shape)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1, n2 = x1.norm(2, dim, keepdim=True).clone(), x2.norm(2, dim, keepdim=True).clone()
    with torch.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """max_pool2d over a height of 1, as torch does it (SqueezeBackward1 on top)."""
    out = max_pool2d(input.unsqueeze(-2), (1, kernel_size), (1, stride or kernel_size),
                     (0, padding), (1, dilation), ceil_mode, return_indices)
    return tuple(t.squeeze(-2) for t in out) if return_indices else out.squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """avg_pool2d over a height of 1, as torch does it."""
    return avg_pool2d(input.unsqueeze(-2), (1, kernel_size), (1, stride or kernel_size),
                      (0, padding), ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool1d(input, output_size):
    """adaptive_avg_pool2d over a height of 1, as torch does it."""
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, output_size)).squeeze(-2)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def elu(input, alpha=1.0, inplace=False):
    return _nn.elu(input, alpha, in_place=inplace)


def selu(input, inplace=False):
    """ELU with the self-normalising alpha and scale (torch's EluBackward nodes)."""
    return _nn.elu(input, _SELU_ALPHA, _SELU_SCALE, in_place=inplace)


def celu(input, alpha=1.0, inplace=False):
    return _nn.celu(input, alpha, in_place=inplace)


def silu(input, inplace=False):
    return _nn.silu(input, in_place=inplace)


def mish(input, inplace=False):
    return _nn.mish(input, in_place=inplace)


def softplus(input, beta=1.0, threshold=20.0):
    return _nn.softplus(input, beta, threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _nn.hardtanh(input, min_val, max_val, in_place=inplace)


def relu6(input, inplace=False):
    return _nn.hardtanh(input, 0.0, 6.0, in_place=inplace)


def hardsigmoid(input, inplace=False):
    return _nn.hardsigmoid(input, in_place=inplace)


def hardswish(input, inplace=False):
    return _nn.hardswish(input, in_place=inplace)


def logsigmoid(input):
    return _nn.log_sigmoid(input)


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    return _nn.softshrink(input, lambd)


def hardshrink(input, lambd=0.5):
    return _nn.hardshrink(input, lambd)


def threshold(input, threshold, value, inplace=False):
    return _nn.threshold(input, threshold, value, in_place=inplace)


def prelu(input, weight):
    return _nn.prelu(input, weight)


def tanh(input):
    return input.tanh()


def gelu(input, approximate="none"):
    return _nn.gelu(input, approximate)


def _softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero elements with probability ``p`` and scale the rest by ``1/(1-p)`` (training only).

    The noise is torch's: the same seed drops the same elements (TORCH_EXACTNESS A.8).
    """
    _check_p(p)
    if inplace:
        if training and p > 0:
            input.mul_(torch.dropout(torch.ones_like(input), p, True))
        return input
    return torch.dropout(input, p, training)


def _feature_dropout(input, p, training, inplace):
    """Zero whole channels (dim 1 slices) with probability ``p``, scale the rest by
    ``1/(1-p)``: torch's noise is ``bernoulli_(1 - p)`` drawn on an (N, C, 1, ...) tensor."""
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = torch.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    noise = input.new_empty(tuple(input.shape[:2]) + (1,) * (input.dim() - 2))
    noise.bernoulli_(1 - p)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of (N, C, L) or unbatched (C, L) inputs."""
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note "
            "that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    if input.dim() == 3:
        return _feature_dropout(input, p, training, inplace)
    batched = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _feature_dropout(batched, p, training, inplace)
    return out.squeeze_(0) if inplace else out.squeeze(0)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of (N, C, H, W) inputs (3-d inputs are taken as (N, C, L), with
    torch's warning)."""
    _check_p(p)
    if input.dim() not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout2d exists to provide "
            "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if input.dim() == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None and padding_idx < 0:
        padding_idx = weight.size(0) + padding_idx
    if max_norm is not None:  # the looked-up rows renormalised in place first, as torch does
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return torch.embedding(weight, input, -1 if padding_idx is None else padding_idx)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return torch.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    return torch.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
                            eps)


def one_hot(tensor, num_classes=-1):
    return _nn.one_hot(tensor, num_classes)


# -- losses ---------------------------------------------------------------------------------


def _legacy_reduction(size_average, reduce, reduction):
    """The old ``size_average``/``reduce`` flags as a ``reduction`` string (with torch's
    warning)."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else ("sum" if reduce else "none")
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{ret}' instead.", stacklevel=3)
    return ret


def _warn_size(input, target):
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input "
                      f"size ({input.size()}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", stacklevel=3)


def _reduced(loss, reduction):
    """An elementwise loss reduced as torch composes it: mean, sum or none."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """``((input - target) ** 2)`` reduced; grad_fn ``MseLossBackward0``."""
    _warn_size(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if weight is not None:
        return _reduced((input - target) ** 2 * weight, reduction)
    return _nn.mse_loss(input, target, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """``|input - target|`` reduced (torch composes it: Sub, Abs, Mean)."""
    _warn_size(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    loss = (input - target).abs()
    return _reduced(loss if weight is None else loss * weight, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - beta / 2`` (d = input - target),
    reduced; with ``beta`` 0, ``l1_loss``."""
    _warn_size(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return _nn.smooth_l1_loss(input, target, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta * (|d| - delta / 2)``, reduced."""
    _warn_size(input, target)
    if weight is not None:
        raise NotImplementedError("doctensor's huber_loss takes no weight")
    return _nn.huber_loss(input, target, reduction, delta)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL divergence of ``target`` from ``input`` (log-probabilities), elementwise
    ``target * (log target - input)``, reduced as torch composes it ('batchmean' divides
    the sum by the batch size)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", stacklevel=2)
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = torch.where(target == 0, 0.0, target * target.log()) - target * input
    if reduction == "batchmean":
        return loss.sum() / input.size(0) if input.dim() else loss.sum()
    return _reduced(loss, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """``-input[n, target[n]] * weight[target[n]]`` reduced; ``input`` holds log-probabilities.

    ``mean`` divides by the summed weights of the targets that are not ``ignore_index``.
    """
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return _nn.nll_loss(input, target, weight, reduction, ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """Cross entropy of logits ``input`` (N, C) or (C,) against class indices or class
    probabilities (a floating ``target`` of ``input``'s shape), as torch composes it."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    class_dim = 0 if input.dim() == 1 else 1
    n_classes = input.shape[class_dim]
    if input.shape == target.shape and not target.is_floating_point():
        raise RuntimeError("Expected floating point type for target with class probabilities, "
                           f"got {target.dtype.scalar_name}")
    logp = input.log_softmax(class_dim)
    if input.shape == target.shape:
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        prod = logp * target
        if weight is not None:
            shape = [1] * input.dim()
            shape[class_dim] = n_classes
            prod = prod * weight.view(shape)
        if reduction == "mean":
            return -prod.sum() / (input.numel() // n_classes)
        if reduction == "sum":
            return -prod.sum()
        return -prod.sum(class_dim)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    if weight is not None:
        shape = [1] * input.dim()
        shape[class_dim] = n_classes
        smooth = -(logp * weight.view(shape)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    ignore = target == ignore_index
    smooth = torch.where(ignore, 0.0, smooth)
    if reduction == "mean":
        if weight is not None:
            ret = smooth.sum() / weight[target[ignore.logical_not()]].sum()
        else:
            ret = smooth.sum() / ignore.logical_not().sum()
    elif reduction == "sum":
        ret = smooth.sum()
    else:
        ret = smooth
    return (1 - label_smoothing) * nll + ret * (label_smoothing / n_classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """``-(t * log(x) + (1 - t) * log(1 - x))`` (each log clamped at -100), reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input "
                         f"size ({input.size()}) is deprecated. Please ensure they have the "
                         "same size.")
    return _nn.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
                                     reduce=None, reduction="mean", pos_weight=None):
    """BCE of ``sigmoid(input)``, computed stably from the logits."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


# -- convolution family (J) --

__all__ += ["conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "pixel_shuffle",
            "pixel_unshuffle", "max_unpool1d", "max_unpool2d", "unfold", "fold",
            "adaptive_max_pool1d", "adaptive_max_pool2d", "max_pool3d", "avg_pool3d",
            "adaptive_avg_pool3d", "channel_shuffle", "lp_pool1d", "lp_pool2d", "lp_pool3d",
            "max_unpool3d", "adaptive_max_pool3d", "upsample", "upsample_nearest",
            "upsample_bilinear"]


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 3-d convolution (cross-correlation) of (N, C, D, H, W) or (C, D, H, W) inputs."""
    return _nn.conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transposed 1-d convolution: conv1d's gradient in its input, for a weight
    (in, out / groups, k)."""
    return _nn.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transposed 2-d convolution: conv2d's gradient in its input, for a weight
    (in, out / groups, kH, kW)."""
    return _nn.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transposed 3-d convolution: conv3d's gradient in its input, for a weight
    (in, out / groups, kD, kH, kW)."""
    return _nn.conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups,
                                dilation)


# -- attention (K) --
# Note [attention composition]: torch's CPU ``scaled_dot_product_attention`` runs, for 4-d
# inputs without dropout, a fused kernel (``_scaled_dot_product_flash_attention_for_cpu``,
# node ``ScaledDotProductFlashAttentionForCpuBackward0``) and otherwise its math path, which
# is composed here for every case:
#     q * sqrt(scale) @ (k.mT * sqrt(scale)) (+ mask) -> safe softmax -> dropout -> @ v
# The fused kernel blocks its sums differently: the values agree to rounding; where torch
# runs it, the composition runs under one node of its name (Note [fused nodes]).
# ``_safe_softmax`` (torch's node SafeSoftmaxBackward0) is composed of softmax and ``where``:
# a row masked out throughout (-inf) gives zeros and zero gradients.

__all__ += ["scaled_dot_product_attention", "multi_head_attention_forward"]


def _safe_softmax(input, dim):
    """softmax along ``dim``, with rows that are -inf throughout giving zeros (not NaN) and
    passing back zero gradients (such rows are zeroed before the softmax too)."""
    masked_rows = (input == -math.inf).all(dim, keepdim=True)
    return torch.where(masked_rows, 0.0, torch.where(masked_rows, 0.0, input).softmax(dim))


def _check_sdpa_inputs(query, key, value, attn_mask):
    """torch's ``validate_sdpa_input`` checks, in its order and words."""
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{query.dtype.c_name} key.dtype: {key.dtype.c_name} and value.dtype: "
            f"{value.dtype.c_name} instead.")
    if attn_mask is not None and attn_mask.dtype not in (torch.bool, query.dtype):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {attn_mask.dtype.c_name} and  query.dtype: "
            f"{query.dtype.c_name} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} "
            "instead.")


def _bool_mask_as_float(mask, dtype):
    """A boolean mask (True: attend) as an additive one: 0 where True, -inf where False."""
    return torch.zeros(mask.shape, dtype=dtype, device=mask.device).masked_fill_(
        mask.logical_not(), -math.inf)


def _grouped_key_value(query, key, value):
    """``enable_gqa``: every key/value head repeated for its group of query heads."""
    q_heads, k_heads, v_heads = query.size(-3), key.size(-3), value.size(-3)
    if q_heads % k_heads or q_heads % v_heads:
        raise RuntimeError("Number of heads in key and value must divide the number of heads "
                           "in ")
    return (key.repeat_interleave(q_heads // k_heads, -3),
            value.repeat_interleave(q_heads // v_heads, -3))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """``softmax(query @ key.mT * scale + mask) @ value`` (Note [attention composition]).

    ``attn_mask``: boolean (True takes part) or additive, broadcast to (..., L, S);
    ``is_causal``: query i sees keys 0..i; ``scale`` defaults to ``1 / sqrt(E)``; with
    ``dropout_p`` > 0 the weights are dropped as ``torch.dropout`` draws them.
    """
    _check_sdpa_inputs(query, key, value, attn_mask)
    if _flash_for_cpu(query, key, value, attn_mask, dropout_p, enable_gqa):
        def compose(q, k, v):  # (the kernel lays its output out like the query)
            out = _sdpa_math(q, k, v, attn_mask, 0.0, is_causal, scale, enable_gqa)
            like = torch.empty_like(q)
            return out if out.stride() == like.stride() else like.copy_(out)
        return _nn.run_fused(_nn.sdpa_flash_op, compose, (query, key, value),
                             dropout_p=0.0, is_causal=is_causal, scale=scale,
                             attn_mask=attn_mask if attn_mask is None or attn_mask.dtype !=
                             torch.bool else _bool_mask_as_float(attn_mask, query.dtype))
    return _sdpa_math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


def _flash_for_cpu(query, key, value, attn_mask, dropout_p, enable_gqa):
    """Whether torch's CPU runs its fused kernel (its ``use_flash_attention_cpp`` checks):
    4-d, not empty, no dropout, one head size, unit last strides, equal batches, heads equal
    (or grouped, with ``enable_gqa``), and a 2-d or 4-d mask that requires no grad."""
    qkv = (query, key, value)
    if query.device.type != "cpu" or dropout_p != 0.0 or any(t.dim() != 4 for t in qkv):
        return False
    if attn_mask is not None and (attn_mask.requires_grad or attn_mask.dim() not in (2, 4)):
        return False
    if any(t.numel() == 0 or t.stride(-1) != 1 or t.size(-1) != query.size(-1)
           or t.size(0) != query.size(0) for t in qkv):
        return False
    heads, kv_heads = query.size(1), key.size(1)
    return value.size(1) == kv_heads and (
        heads == kv_heads or enable_gqa and heads % kv_heads == 0)


def _sdpa_math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """torch's math path (Note [attention composition])."""
    scale = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    factor = math.sqrt(abs(scale))
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not "
                               "be set when is_causal=True")
        attn_mask = torch.ones((query.size(-2), key.size(-2)), dtype=torch.bool,
                               device=query.device).tril()
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        attn_mask = _bool_mask_as_float(attn_mask, query.dtype)
    if enable_gqa:
        key, value = _grouped_key_value(query, key, value)
    scores = torch.matmul(query * (-factor if scale < 0 else factor),
                          key.transpose(-2, -1) * factor)
    if attn_mask is not None:
        scores.add_(attn_mask)
    weights = _safe_softmax(scores, -1)
    if dropout_p > 0.0:
        weights = torch.dropout(weights, dropout_p, True)
    return torch.matmul(weights, value)


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the input is batched (3-d query), with torch's errors for other shapes."""
    if query.dim() not in (2, 3):
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    batched = query.dim() == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be "
                             f"{query.dim()}-D but found {key.dim()}-D and {value.dim()}-D "
                             "tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` "
                             f"or {query.dim() - 1}-D but found {key_padding_mask.dim()}-D "
                             "tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D "
                                 f"or 3-D but found {attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.dim() == 3 and attn_mask.shape != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return batched


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A boolean mask (True: masked out) as an additive float one; float masks unchanged."""
    if mask is None:
        return None
    if mask.dtype != torch.bool and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use "
                      "same type for both instead.", stacklevel=2)
    if mask.is_floating_point():
        return mask
    return torch.zeros_like(mask, dtype=target_type).masked_fill_(mask, -math.inf)


def _none_or_dtype(input):
    return None if input is None else input.dtype


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v projected by the packed (3E, E) weight, as torch shares the work: one linear
    when q, k and v are one tensor, two when k is v."""
    E = q.size(-1)
    if k is v and q is k:
        proj = linear(q, w, b).unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2)
        proj = proj.squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]
    if k is v:
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2)
        kv = kv.squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None,) * 3 if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v each projected by its own weight (kdim/vdim differ from embed_dim)."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)),
                           ("value", w_v, (Eq, Ev))):
        if w.shape != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got "
                                 f"{w.shape}")
    for name, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and b.shape != (Eq,):
            raise AssertionError(f"expecting {name} bias shape of {(Eq,)}, but got {b.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _mha_masks(key_padding_mask, attn_mask, need_weights, is_causal, dtype):
    """(key_padding_mask, attn_mask, is_causal) canonicalised as torch's forward does."""
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       _none_or_dtype(attn_mask), "attn_mask", dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        return key_padding_mask, None, is_causal
    attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", dtype, check_other=False)
    return key_padding_mask, attn_mask, is_causal and key_padding_mask is None


def _check_attn_mask_shape(attn_mask, tgt_len, src_len, heads):
    """A 2-d (L, S) mask unsqueezed to (1, L, S); a 3-d one must be (N * heads, L, S)."""
    if attn_mask.dim() == 2:
        if attn_mask.shape != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                               f"should be {(tgt_len, src_len)}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if attn_mask.shape != (heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but "
                               f"should be {(heads, tgt_len, src_len)}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def _project(query, key, value, embed_dim, num_heads, in_proj_weight, in_proj_bias,
             use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight):
    """The in-projection with torch's checks: (head_dim, q, k, v)."""
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight "
                                     "is None")
        biases = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3)
        return (head_dim, *_in_projection(query, key, value, q_proj_weight, k_proj_weight,
                                          v_proj_weight, *biases))
    if key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
    if in_proj_weight is None:
        raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
    return (head_dim, *_in_projection_packed(query, key, value, in_proj_weight, in_proj_bias))


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """Multi-head attention of (L, N, E) queries over (S, N, E) keys/values (2-d: unbatched),
    composed as torch's (Note [attention composition]): (output, weights or None).

    With ``need_weights`` the weights are computed explicitly (``baddbmm``/``bmm``, softmax)
    and returned, averaged over heads if ``average_attn_weights``; otherwise
    ``scaled_dot_product_attention`` computes the output.
    """
    if static_k is not None or static_v is not None:
        raise NotImplementedError("doctensor's multi_head_attention_forward takes no "
                                  "static_k/static_v")
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask, attn_mask, is_causal = _mha_masks(key_padding_mask, attn_mask,
                                                        need_weights, is_causal, query.dtype)
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim, q, k, v = _project(query, key, value, embed_dim, num_heads, in_proj_weight,
                                 in_proj_bias, use_separate_proj_weight, q_proj_weight,
                                 k_proj_weight, v_proj_weight)
    if attn_mask is not None:
        attn_mask = _check_attn_mask_shape(attn_mask, tgt_len, src_len, bsz * num_heads)
    if (bias_k is None) != (bias_v is None):
        raise AssertionError("bias_k is set but bias_v is None" if bias_v is None
                             else "bias_v is set but bias_k is None")
    if bias_k is not None:
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    heads = bsz * num_heads
    q = q.view(tgt_len, heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], heads, head_dim).transpose(0, 1)
    if add_zero_attn:
        zeros = (heads, 1, head_dim)
        k = torch.cat([k, torch.zeros(zeros, dtype=k.dtype, device=k.device)], dim=1)
        v = torch.cat([v, torch.zeros(zeros, dtype=v.dtype, device=v.device)], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(
            -1, num_heads, -1, -1).reshape(heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    dropout_p = dropout_p if training else 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[2]))
        if attn_mask is not None:
            weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = torch.bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = torch.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, embed_dim)
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            return out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, embed_dim)
    return (out if batched else out.squeeze(1)), None


# -- losses, norms and the rest (L) --

__all__ += ["instance_norm", "local_response_norm", "rms_norm", "dropout3d", "alpha_dropout",
            "feature_alpha_dropout"]


def _verify_spatial_size(size):
    if math.prod(tuple(size)[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                         f"{size}")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalise each (sample, channel) over its spatial dims, as torch composes it: the
    input viewed as (1, N*C, ...) through ``batch_norm``, with weight, bias and running
    stats repeated N times; in training, the running stats are then the mean of the N
    copies."""
    if use_input_stats:
        _verify_spatial_size(input.size())
    b, c = input.shape[:2]

    def repeated(t):
        return None if t is None else t.repeat(b)

    mean_, var_ = repeated(running_mean), repeated(running_var)
    flat = input.contiguous().view((1, b * c) + tuple(input.shape[2:]))
    out = torch.batch_norm(flat, repeated(weight), repeated(bias), mean_, var_, use_input_stats,
                           momentum, eps)
    with torch.no_grad():
        for stat, copies in ((running_mean, mean_), (running_var, var_)):
            if stat is not None and use_input_stats:
                stat.copy_(copies.view(b, c).mean(0))
    return out.view(input.shape)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """``input / (k + alpha * mean of input**2 over size neighbouring channels) ** beta``."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sizes = input.size()
    # (N, 1, C, rest): the channel window as a (size, 1) average pool (torch pools 4-d and
    # larger inputs in 3-d with a (size, 1, 1) window: the same sums)
    div = input.mul(input).reshape(sizes[0], 1, sizes[1], -1)
    div = pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(div, (size, 1), stride=1).squeeze(1).view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``input * rsqrt(mean(input**2 over the last dims) + eps)`` (times ``weight``), as
    torch's composite computes it; ``eps`` defaults to the dtype's machine epsilon."""
    shape = tuple(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {list(weight.shape)} and normalized_shape = "
                           f"{list(shape)}")
    if len(shape) > input.dim() or tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size"
                           f"{list(input.shape)}")
    low = input.dtype in (torch.float16, torch.bfloat16)
    x = input.float() if low else input
    if eps is None:
        eps = torch.finfo(x.dtype).eps
    dims = tuple(range(input.dim() - 1, input.dim() - 1 - len(shape), -1))
    rstd = _nn.add_number(x.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    out = x.mul(rstd)
    out = out.type_as(input) if low else out
    return out if weight is None else out.mul(weight)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Channel dropout of (N, C, D, H, W) or unbatched (C, D, H, W) inputs."""
    _check_p(p)
    if input.dim() not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {input.dim()}-D input to dropout3d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    if input.dim() == 5:
        return _feature_dropout(input, p, training, inplace)
    batched = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _feature_dropout(batched, p, training, inplace)
    return out.squeeze_(0) if inplace else out.squeeze(0)


_ALPHA_DROPPED = 1.7580993408473766  # SELU's -scale * alpha: a dropped unit's value


def _alpha_dropout(input, p, training, inplace, feature):
    """Dropped units set to SELU's saturation value, then an affine map ``a * x + b`` that
    keeps mean and variance (torch's noise: ``bernoulli_(1 - p)``, per element or per
    channel)."""
    _check_p(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = torch.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2) if feature else input.shape
    noise = input.new_empty(shape).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_ALPHA_DROPPED * _ALPHA_DROPPED * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_ALPHA_DROPPED * a).add_(_ALPHA_DROPPED * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input * noise).add_(b)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: keeps the input's mean and variance."""
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels."""
    return _alpha_dropout(input, p, training, inplace, feature=True)


__all__ += ["embedding_bag"]


def _embedding_renorm_(weight, indices, max_norm, norm_type):
    """Rescale, in place, each row of ``weight`` that ``indices`` names whose ``norm_type``
    norm exceeds ``max_norm`` to norm ``max_norm`` (torch's ``embedding_renorm_``)."""
    with torch.no_grad():
        for i in indices.reshape(-1).unique().tolist():
            norm = weight[i].norm(norm_type).item()
            if norm > max_norm:
                weight[i] *= max_norm / (norm + 1e-7)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """Sums, means or maxima of bags of embeddings: ``input`` is 2-d (one bag per row) or
    1-d with ``offsets`` (where each bag starts)."""
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         "not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            kind = "<class 'torch.Tensor'>" if isinstance(offsets, torch.Tensor) else \
                str(type(offsets))
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found offsets "
                             f"of type {kind}")
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype,
                               device=input.device)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("doctensor's embedding_bag takes no scale_grad_by_freq or "
                                  "sparse")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub.")
    return _nn.embedding_bag(weight, input, offsets, mode, per_sample_weights,
                             include_last_offset, padding_idx)


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r): each r x r block of pixels from r^2 channels."""
    return _nn.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W): the inverse of ``pixel_shuffle``."""
    return _nn.pixel_unshuffle(input, downscale_factor)


__all__ += ["pairwise_distance", "margin_ranking_loss", "hinge_embedding_loss",
            "cosine_embedding_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss",
            "poisson_nll_loss", "gaussian_nll_loss", "multilabel_soft_margin_loss"]


def _reduction(size_average, reduce, reduction):
    """The reduction a loss runs (legacy flags translated), refused early where unknown."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """``norm(x1 - x2 + eps, p)`` over the last dim (torch's composite, node NormBackward1)."""
    last = max(x1.dim(), x2.dim()) - 1
    return _nn.norm(_nn.add_number(x1 - x2, eps), p, last, keepdim)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``, reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return _reduced(_nn.add_number(-target * (input1 - input2), margin).clamp_min_(0),
                    reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """``input`` where the target is 1, ``max(0, margin - input)`` where it is -1, reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    zeros = torch.zeros_like(input)
    margin_clamp = (margin - input).clamp_min_(0)
    output = torch.where(target != 1, margin_clamp, zeros) + \
        torch.where(target != -1, input, zeros)
    return _reduced(output, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    """``1 - cos(x1, x2)`` where the target is 1, ``max(0, cos(x1, x2) - margin)`` where it
    is -1, reduced (torch's composite, with 1e-12 added to each squared magnitude)."""
    reduction = _reduction(size_average, reduce, reduction)
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if dim == 1 and (input1.dim() != 2 or input2.dim() != 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with "
                           f"sizes {list(input1.shape)} and {list(input2.shape)}.")
    if dim == 0 and (input1.dim() != 1 or input2.dim() != 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with "
                           f"sizes {list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = _nn.add_number((input1 * input1).sum(dim), 1e-12)
    mag_square2 = _nn.add_number((input2 * input2).sum(dim), 1e-12)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = torch.zeros_like(cos)
    pos = 1 - cos
    neg = _nn.add_number(cos, -margin).clamp_min_(0)
    output = torch.where(target == 1, pos, zeros) + torch.where(target == -1, neg, zeros)
    return _reduced(output, reduction)


def _check_triplet_dims(anchor, positive, negative):
    a, p, n = anchor.dim(), positive.dim(), negative.dim()
    if not a == p == n:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {a}D, positive {p}D, and "
                           f"negative {n}D inputs")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with the pairwise
    ``p``-distance, reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet_dims(anchor, positive, negative)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = torch.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return _reduced((_nn.add_number(dist_pos, margin) - dist_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """``triplet_margin_loss`` with any distance (the pairwise 2-distance by default)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet_dims(anchor, positive, negative)
    distance = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = torch.minimum(dist_neg, distance(positive, negative))
    return _reduced(torch.clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """Negative log likelihood of ``target`` under Poisson(``input``) (or Poisson(exp(input))
    where ``log_input``), with Stirling's term for targets above 1 where ``full``."""
    reduction = _reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * _nn.add_number(input, eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss += stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """``0.5 * (log(var) + (input - target)**2 / var)`` (var clamped at ``eps``, without
    gradient), reduced; ``var`` may lack the last dim or have one dim of size 1."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * torch.ones_like(input)
    elif torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif not (input.dim() == var.dim() and sum(
                v for i, v in zip(input.size(), var.size()) if i != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """Per sample, the mean over classes of the binary cross entropy of ``sigmoid(input)``,
    reduced."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduced(loss, reduction)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """The spatial size a max unpool makes: the pool's input size, or ``output_size`` (its
    spatial sizes, or the whole shape) when within a stride of it."""
    dims = len(kernel_size)
    default = [(input.size(-dims + d) - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
               for d in range(dims)]
    if output_size is None:
        size = default
    else:
        if len(output_size) == dims + 2:
            output_size = output_size[2:]
        if len(output_size) != dims:
            raise ValueError(f"output_size should be a sequence containing {dims} or {dims + 2} "
                             f"elements, but it has a length of '{len(output_size)}'")
        for d in range(dims):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < output_size[d] < high:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                                 f'{low} and {high})')
        size = output_size
    for d in range(dims):
        if size[d] < 0:
            raise ValueError(f"max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={size[d]}")
    return size


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d(..., return_indices=True)``: each value back at its
    index, zeros elsewhere."""
    kernel_size = _ntuple(kernel_size, 2)
    stride = kernel_size if stride is None else _ntuple(stride, 2)
    size = _unpool_output_size(input, kernel_size, stride, _ntuple(padding, 2), output_size)
    return _nn.max_unpool2d(input, indices, size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool1d(..., return_indices=True)``: max_unpool2d over a width
    of 1, as torch does it."""
    kernel_size = _ntuple(kernel_size, 1)
    stride = kernel_size if stride is None else _ntuple(stride, 1)
    size = _unpool_output_size(input, kernel_size, stride, _ntuple(padding, 1), output_size)
    return _nn.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1),
                            [*size, 1]).squeeze(-1)


def _ntuple(value, n):
    """torch's ``_pair``/``_single``: an int repeated ``n`` times, a sequence as a tuple."""
    return (value,) * n if isinstance(value, int) else tuple(value)


__all__ += ["soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss"]


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))`` (targets 1 or -1), reduced."""
    return _nn.soft_margin_loss(input, target, _reduction(size_average, reduce, reduction))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """The multi-class hinge loss: per sample, the mean over the other classes ``j`` of
    ``max(0, margin - input[y] + input[j]) ** p``, reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return _nn.multi_margin_loss(input, target, p, margin, weight, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The multi-label hinge loss (a sample's target classes listed first, then -1)."""
    return _nn.multilabel_margin_loss(input, target, _reduction(size_average, reduce,
                                                                reduction))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Each sliding ``kernel_size`` block of (N, C, H, W) as a column: (N, C kH kW, blocks)."""
    return _nn.im2col(input, kernel_size, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The inverse arrangement of ``unfold``: columns of blocks summed into
    ``(N, C, *output_size)`` (where blocks overlap, their values add up)."""
    return _nn.col2im(input, output_size, kernel_size, dilation, padding, stride)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The maxima of windows that cut the last two dims into ``output_size`` (None keeps
    a dim's size); ``return_indices``: and their flat positions in their (H, W) planes."""
    values, indices = _nn.adaptive_max_pool2d(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """The maxima of windows that cut the last three dims into ``output_size`` (None keeps
    a dim's size); ``return_indices``: and their flat positions in their volumes."""
    values, indices = _nn.adaptive_max_pool3d(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """adaptive_max_pool2d over a height of 1, as torch does it (SqueezeBackward1 on
    top)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "adaptive_max_pool1d)")
    size = output_size if isinstance(output_size, int) else output_size[0]
    values, indices = _nn.adaptive_max_pool2d(input.unsqueeze(-2), (1, size))
    values, indices = values.squeeze(-2), indices.squeeze(-2)
    return (values, indices) if return_indices else values


__all__ += ["glu", "rrelu", "rrelu_"]


def glu(input, dim=-1):
    """The gated linear unit: ``a * sigmoid(b)`` of the two halves of ``input`` on ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _nn.glu(input, dim)


def _rrelu_noise(input, lower, upper):
    """torch's training noise: for each non-positive element, in order, a slope drawn as a
    double from U(lower, upper) (the bounds first rounded to the input's dtype) and rounded
    to that dtype; 1 for the others."""
    x = input.detach()
    negative = x <= 0
    lo, hi = (torch.tensor(b, dtype=input.dtype).item() for b in (lower, upper))
    drawn = torch.empty(int(negative.sum()), dtype=torch.float64).uniform_(lo, hi)
    noise = torch.ones_like(x)
    noise[negative] = drawn.to(input.dtype)
    return noise


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomised leaky relu: in training, each non-positive element times a slope drawn
    from U(lower, upper); otherwise the leaky relu of slope ``(lower + upper) / 2``."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if inplace and input.requires_grad:
        raise NotImplementedError("doctensor: rrelu(inplace=True) of a tensor that requires "
                                  "grad")
    if training and input.is_floating_point():
        noise = _rrelu_noise(input, lower, upper)
    else:
        noise = torch.empty_like(input)
    out = _nn.rrelu_with_noise(input, noise, lower, upper, training)
    return input.copy_(out) if inplace else out


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """``rrelu`` in place."""
    return rrelu(input, lower, upper, training, inplace=True)


__all__ += ["relu_", "elu_", "celu_", "selu_", "leaky_relu_", "hardtanh_", "threshold_"]


def relu_(input):
    """``relu`` in place."""
    return relu(input, inplace=True)


def elu_(input, alpha=1.0):
    """``elu`` in place."""
    return elu(input, alpha, inplace=True)


def celu_(input, alpha=1.0):
    """``celu`` in place."""
    return celu(input, alpha, inplace=True)


def selu_(input):
    """``selu`` in place."""
    return selu(input, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    """``leaky_relu`` in place."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """``hardtanh`` in place."""
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    """``threshold`` in place."""
    return globals()["threshold"](input, threshold, value, inplace=True)  # (shadowed by the arg)


__all__ += ["gumbel_softmax"]


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """``softmax((logits + g) / tau)`` with Gumbel(0, 1) noise ``g = -log(Exp(1))`` (torch's
    draws); with ``hard``, the one-hot of its argmax, with the soft sample's gradient."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -torch.empty_like(logits, memory_format=torch.contiguous_format).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = torch.zeros_like(logits, memory_format=torch.contiguous_format).scatter_(
        dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


__all__ += ["pdist"]


def pdist(input, p=2):
    """The ``p``-norm distances between the rows of a 2-d ``input``: the upper triangle of
    ``cdist(input, input)``, row by row."""
    return _nn.pdist(input, p)


__all__ += ["ctc_loss"]


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """The CTC loss of (T, N, C) (or unbatched (T, C)) log-probabilities against padded
    (N, S) or concatenated targets; 'mean' divides each loss by its target length first."""
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    batched = log_probs.dim() == 3
    if not batched:
        log_probs, targets = log_probs.unsqueeze(1), targets.unsqueeze(0)
    res = _nn.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity)
    if zero_infinity:
        res = torch.where(res == math.inf, res.new_zeros(()), res)
    if reduction == "mean":
        lengths = torch.tensor([int(n) for n in target_lengths], dtype=res.dtype,
                               device=res.device)
        return (res / lengths.clamp_min(1)).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The largest value of each (D, H, W) window (``stride`` defaults to kernel_size);
    ``return_indices``: and its flat position in its volume."""
    values, indices = _nn.max_pool3d_with_indices(input, kernel_size, stride, padding,
                                                  dilation, ceil_mode)
    return (values, indices) if return_indices else values


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each (D, H, W) window (``stride`` defaults to kernel_size)."""
    return _nn.avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                          divisor_override)


def adaptive_avg_pool3d(input, output_size):
    """Means over windows that cut the last three dims into ``output_size``."""
    return _nn.adaptive_avg_pool3d(input, output_size)


def channel_shuffle(input, groups):
    """Interleave the channels of ``groups`` groups: (g, C / g) regrouped as (C / g, g)."""
    return _nn.channel_shuffle(input, groups)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, dims):
    """The ``norm_type``-norm of each window, as torch composes it: the mean of
    ``input ** p`` times the window size, to the power 1 / p (inf: the largest magnitude)."""
    pools = {1: (max_pool1d, avg_pool1d), 2: (max_pool2d, avg_pool2d),
             3: (max_pool3d, avg_pool3d)}
    max_pool, avg_pool = pools[dims]
    if norm_type == float("inf"):
        return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    size = math.prod((kernel_size,) * dims if isinstance(kernel_size, int) else kernel_size)
    return (torch.sign(out) * relu(torch.abs(out))).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm of each window along the last dim."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm of each window of the last two dims."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm of each window of the last three dims."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool3d(..., return_indices=True)``: each value back at its
    index, zeros elsewhere."""
    kernel_size = _ntuple(kernel_size, 3)
    stride = kernel_size if stride is None else _ntuple(stride, 3)
    padding = _ntuple(padding, 3)
    size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _nn.max_unpool3d(input, indices, size, stride, padding)


def _interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor,
                 antialias):
    """``interpolate`` beyond 4-d 'nearest' and 'bilinear': 'nearest' and 'nearest-exact'
    of 3-d to 5-d inputs, 'linear' (3-d), 'bicubic' (4-d), 'trilinear' (5-d) and 'area'
    (adaptive average pooling), with torch's checks in its order."""
    dim = input.dim() - 2
    if mode not in ("nearest", "area", "nearest-exact") and align_corners is None:
        align_corners = False
    if size is not None:
        if isinstance(size, (list, tuple)) and len(size) != dim:
            raise ValueError(
                f"Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {list(input.shape[2:])} and output size of "
                f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                "output size in (o1, o2, ...,oK) format.")
        output_size = list(size) if isinstance(size, (list, tuple)) else [size] * dim
        scales = [None] * dim
    else:
        if isinstance(scale_factor, (list, tuple)) and len(scale_factor) != dim:
            raise ValueError(
                f"Input and scale_factor must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {list(input.shape[2:])} and "
                f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, C, "
                "d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
        scales = list(scale_factor) if isinstance(scale_factor, (list, tuple)) \
            else [scale_factor] * dim
        output_size = [math.floor(float(input.size(i + 2)) * scales[i]) for i in range(dim)]
        if recompute_scale_factor or mode == "area":
            scales = [None] * dim
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    if antialias:
        raise NotImplementedError("doctensor's interpolate has no antialias")
    needs = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
    if mode in ("nearest", "nearest-exact") and dim in (1, 2, 3) or needs.get(mode) == dim + 2:
        scales = [None if s is None else float(s) for s in scales]
        return _nn.upsample(input, output_size, scales, mode, align_corners)
    if mode == "area" and dim in (1, 2, 3):
        pool = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d, 3: adaptive_avg_pool3d}[dim]
        return pool(input, output_size if dim > 1 else output_size[0])
    if mode in ("linear", "bilinear", "trilinear") and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                  f"{needs[mode]}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                              f"{input.dim()}D) for the modes: {' | '.join(_MODES)} (got "
                              f"{mode})")


def _deprecated_upsample(name):
    warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=3)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated: ``interpolate``."""
    _deprecated_upsample("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='nearest')``."""
    _deprecated_upsample("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='bilinear', align_corners=True)``."""
    _deprecated_upsample("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# -- fractional max pooling, affine grids (misc3) --

__all__ += ["fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
            "fractional_max_pool3d_with_indices"]


def _repeat(value, n):
    """torch's ``_pair``/``_triple``: an iterable as a tuple, anything else repeated."""
    return tuple(value) if isinstance(value, Iterable) else (value,) * n


def _fractional_max_pool(n, input, kernel_size, output_size, output_ratio, samples):
    """Fractional max pooling of the last ``n`` dims: torch's checks, the output size from
    ``output_ratio``, and the steps drawn as ``torch.rand(N, C, n)`` when not given."""
    name = f"fractional_max_pool{n}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if n == 2 and len(output_ratio) > 2:  # (torch checks this in 2-d only)
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single "
                             "Int or tuple of Ints.")
        ratio = _repeat(output_ratio, n)
        # (a one-element ratio list fails at ratio[1] with torch's IndexError)
        output_size = [int(input.size(d - n) * ratio[d]) for d in range(n)]
    if samples is None:
        n_batch = 1 if input.dim() == n + 1 else input.size(0)
        samples = torch.rand(n_batch, input.size(-n - 1), n, dtype=input.dtype,
                             device=input.device)
    return getattr(_nn, name)(input, kernel_size, output_size, samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """The maxima of ``kernel_size`` windows at random steps (Graham's fractional max
    pooling) that cut the last two dims into ``output_size`` (or ``output_ratio`` of them),
    and their flat positions in their planes.  Without ``_random_samples``, the steps come
    from ``torch.rand(N, C, 2)`` in the input's dtype (the default generator's draws)."""
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio,
                                _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """``fractional_max_pool2d_with_indices``'s maxima (with their indices when
    ``return_indices``)."""
    out = _fractional_max_pool(2, input, kernel_size, output_size, output_ratio,
                               _random_samples)
    return out if return_indices else out[0]


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """Fractional max pooling of the last three dims (``fractional_max_pool2d_with_indices``
    in 3-d; the steps from ``torch.rand(N, C, 3)``)."""
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio,
                                _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """``fractional_max_pool3d_with_indices``'s maxima (with their indices when
    ``return_indices``)."""
    out = _fractional_max_pool(3, input, kernel_size, output_size, output_ratio,
                               _random_samples)
    return out if return_indices else out[0]


__all__ += ["affine_grid"]


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of a batch of affine maps ``theta``
    (N, 2, 3) (or (N, 3, 4)) over an output of ``size``, for ``grid_sample``."""
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to "
                      "align_corners=False since 1.3.0. Please specify align_corners=True if the "
                      "old behavior is desired. See the documentation of grid_sample for "
                      "details.", stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) in (4, 5):
        k = len(size) - 2
        if theta.dim() != 3 or theta.shape[-2] != k or theta.shape[-1] != k + 1:
            raise ValueError(f"Expected a batch of {k}D affine matrices of shape Nx{k}x{k + 1} "
                             f"for size {size}. Got {theta.shape}.")
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                      "grids when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return torch.affine_grid_generator(theta, size, align_corners)


__all__ += ["grid_sample"]


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """``input`` (N, C, H, W) read at the positions of ``grid`` (N, H', W', 2), in [-1, 1]
    from the left-top corner (or (N, C, D, H, W) at (N, D', H', W', 3)): 'bilinear',
    'nearest' or (4-d) 'bicubic', padding 'zeros', 'border' or 'reflection'."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to "
                      "align_corners=False since 1.3.0. Please specify align_corners=True if the "
                      "old behavior is desired. See the documentation of grid_sample for "
                      "details.", stacklevel=2)
        align_corners = False
    return torch.grid_sampler(input, grid, ("bilinear", "nearest", "bicubic").index(mode),
                              ("zeros", "border", "reflection").index(padding_mode),
                              align_corners)
