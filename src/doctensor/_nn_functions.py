"""The nn functions torch also names in its own namespace: ``torch.conv2d`` is ``F.conv2d``.

Where torch's own function has another signature than ``F``'s (the losses' ``reduction`` as
torch's enum 0/1/2, dropout's positional ``train``, ``adaptive_max_pool1d``'s indices,
``instance_norm``'s argument order), a one-line adapter gives torch's.
"""

from .nn import functional as F

__all__ = ["adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu", "conv1d", "conv2d",
           "cosine_similarity", "hardshrink", "max_pool1d", "max_pool2d", "max_pool3d", "prelu",
           "selu", "threshold", "channel_shuffle",
           "pairwise_distance", "rms_norm", "rrelu", "rrelu_", "celu_", "selu_", "threshold_",
           "alpha_dropout", "feature_alpha_dropout", "dropout_", "adaptive_max_pool1d",
           "hinge_embedding_loss", "margin_ranking_loss", "cosine_embedding_loss",
           "triplet_margin_loss", "poisson_nll_loss", "instance_norm"]

# torch's Reduction enum: None, Mean, Sum (these bindings default to None: unreduced)
_REDUCTIONS = ("none", "mean", "sum")

adaptive_avg_pool1d = F.adaptive_avg_pool1d
avg_pool1d = F.avg_pool1d
bilinear = F.bilinear
celu = F.celu
conv1d = F.conv1d
conv2d = F.conv2d
cosine_similarity = F.cosine_similarity
hardshrink = F.hardshrink
max_pool1d = F.max_pool1d
max_pool2d = F.max_pool2d
max_pool3d = F.max_pool3d
prelu = F.prelu
selu = F.selu
threshold = F.threshold
channel_shuffle = F.channel_shuffle
pairwise_distance = F.pairwise_distance
rms_norm = F.rms_norm
rrelu = F.rrelu
rrelu_ = F.rrelu_
celu_ = F.celu_
selu_ = F.selu_
threshold_ = F.threshold_


def alpha_dropout(input, p, train):
    return F.alpha_dropout(input, p, train)


def feature_alpha_dropout(input, p, train):
    return F.feature_alpha_dropout(input, p, train)


def dropout_(input, p, train):
    return F.dropout(input, p, train, inplace=True)


def adaptive_max_pool1d(input, output_size):
    """(values, indices), as torch's own function always returns them."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin, reduction=_REDUCTIONS[reduction])


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_REDUCTIONS[reduction])


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_REDUCTIONS[reduction])


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        reduction=0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_REDUCTIONS[reduction])


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_REDUCTIONS[reduction])


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)
