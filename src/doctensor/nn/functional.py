"""``torch.nn.functional``: layers as functions, written with doctensor's public API.

The kernels torch keeps in ``torch._C._nn`` come from ``doctensor._nn`` (declared with their
grad_fn names in ``ops/nn_ops.py``); the rest is composed from tensor ops exactly as torch
composes it, so the autograd graph shows the same nodes (``linear`` on a 2-D input is one
``AddmmBackward0``; ``l1_loss`` is ``MeanBackward0 <- AbsBackward0 <- SubBackward0``).
"""

import math
import warnings

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
    first (negative amounts cut).  Only the 'constant' mode."""
    if mode != "constant":
        raise NotImplementedError(f"doctensor's F.pad supports mode='constant' only, not "
                                  f"{mode!r}")
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
        raise NotImplementedError("doctensor's interpolate resizes 4-d inputs by 'nearest' or "
                                  "'bilinear' (no antialias)")
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
    """The largest value of each kernel_size window (``stride`` defaults to kernel_size)."""
    if return_indices:
        raise NotImplementedError("doctensor's max_pool2d does not return indices")
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


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """max_pool2d over a height of 1, as torch does it (SqueezeBackward1 on top)."""
    return max_pool2d(input.unsqueeze(-2), (1, kernel_size), (1, stride or kernel_size),
                      (0, padding), (1, dilation), ceil_mode).squeeze(-2)


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
