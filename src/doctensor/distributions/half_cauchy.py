"""``torch.distributions.half_cauchy``."""

import math

import doctensor

from . import constraints
from .cauchy import Cauchy
from .half_normal import _Folded
from .transforms import AbsTransform

__all__ = ["HalfCauchy"]


class HalfCauchy(_Folded):
    """``|X|`` for ``X ~ Cauchy(0, scale)``.

    Example::

        >>> torch.distributions.HalfCauchy(1.0)
        HalfCauchy()
    """

    arg_constraints = {"scale": constraints.positive}

    def __init__(self, scale, validate_args=None):
        base_dist = Cauchy(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(HalfCauchy, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return doctensor.full(self._extended_shape(), math.inf, dtype=self.scale.dtype,
                              device=self.scale.device)

    @property
    def variance(self):
        return self.base_dist.variance

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = doctensor.as_tensor(value, dtype=self.scale.dtype, device=self.scale.device)
        return self._folded_log_prob(value)
