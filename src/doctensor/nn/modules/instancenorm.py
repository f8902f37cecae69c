"""``InstanceNorm1d``/``2d``/``3d``: normalise each sample's channels over their own
spatial dims."""

import warnings

from .. import functional as F
from .normalization import _NormBase

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class _InstanceNorm(_NormBase):
    """Instance norm: no affine parameters and no running statistics unless asked for; with
    ``track_running_stats``, eval mode uses the running statistics."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        self._check_input_dim(input)
        no_batch_dim = self._dims[0]
        feature_dim = input.dim() - no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          "can silence this warning by not passing in num_features, which is "
                          "not used because affine=False", stacklevel=2)
        if input.dim() == no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance norm of (N, C, L) or unbatched (C, L) inputs."""

    _dims, _dims_text = (2, 3), "2D or 3D"


class InstanceNorm2d(_InstanceNorm):
    """Instance norm of (N, C, H, W) or unbatched (C, H, W) inputs."""

    _dims, _dims_text = (3, 4), "3D or 4D"


class InstanceNorm3d(_InstanceNorm):
    """Instance norm of (N, C, D, H, W) or unbatched (C, D, H, W) inputs."""

    _dims, _dims_text = (4, 5), "4D or 5D"
