"""``torch.distributions.continuous_bernoulli``."""

import math

import doctensor

from . import constraints
from .exp_family import ExponentialFamily
from .utils import (
    _probs_or_logits,
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli distribution on [0, 1], with density proportional to
    ``probs ** x * (1 - probs) ** (1 - x)``.

    Near ``probs = 1/2`` (inside ``lims``) the normalizer and moments are computed from their
    Taylor expansions, as torch does.

    Example::

        >>> torch.distributions.ContinuousBernoulli(torch.tensor([0.3]))
        ContinuousBernoulli(probs: tensor([0.3000]))
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        self._param, batch_shape = _probs_or_logits(self, probs, logits)
        if probs is not None:
            if validate_args is not None and \
                    not self.arg_constraints["probs"].check(self.probs).all():
                raise ValueError("The parameter probs has invalid values")
            self.probs = self._param = clamp_probs(self.probs)
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._expanded(ContinuousBernoulli, batch_shape, _instance, ("probs", "logits"))
        new._lims = self._lims
        return new

    def _outside_unstable_region(self):
        return doctensor.max(doctensor.le(self.probs, self._lims[0]),
                             doctensor.gt(self.probs, self._lims[1]))

    def _cut_probs(self):
        return doctensor.where(self._outside_unstable_region(), self.probs,
                               self._lims[0] * doctensor.ones_like(self.probs))

    def _cont_bern_log_norm(self):
        """The log normalizing constant."""
        cut_probs = self._cut_probs()
        below_half = doctensor.where(doctensor.le(cut_probs, 0.5), cut_probs,
                                     doctensor.zeros_like(cut_probs))
        above_half = doctensor.where(doctensor.ge(cut_probs, 0.5), cut_probs,
                                     doctensor.ones_like(cut_probs))
        log_norm = doctensor.log(doctensor.abs(doctensor.log1p(-cut_probs)
                                               - doctensor.log(cut_probs))) - doctensor.where(
            doctensor.le(cut_probs, 0.5), doctensor.log1p(-2.0 * below_half),
            doctensor.log(2.0 * above_half - 1.0))
        x = doctensor.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return doctensor.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut_probs = self._cut_probs()
        mus = cut_probs / (2.0 * cut_probs - 1.0) + 1.0 / (
            doctensor.log1p(-cut_probs) - doctensor.log(cut_probs))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * doctensor.pow(x, 2)) * x
        return doctensor.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return doctensor.sqrt(self.variance)

    @property
    def variance(self):
        cut_probs = self._cut_probs()
        variances = cut_probs * (cut_probs - 1.0) / doctensor.pow(1.0 - 2.0 * cut_probs, 2) \
            + 1.0 / doctensor.pow(doctensor.log1p(-cut_probs) - doctensor.log(cut_probs), 2)
        x = doctensor.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return doctensor.where(self._outside_unstable_region(), variances, taylor)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=()):
        """The inverse CDF at ``torch.rand`` draws, without history."""
        shape = self._extended_shape(sample_shape)
        u = doctensor.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        with doctensor.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=()):
        """The inverse CDF at ``torch.rand`` draws."""
        shape = self._extended_shape(sample_shape)
        u = doctensor.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = doctensor.nn.functional.binary_cross_entropy_with_logits
        return -bce(logits, value, reduction="none") + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = (doctensor.pow(cut_probs, value) * doctensor.pow(1.0 - cut_probs, 1.0 - value)
                + cut_probs - 1.0) / (2.0 * cut_probs - 1.0)
        unbounded = doctensor.where(self._outside_unstable_region(), cdfs, value)
        return doctensor.where(doctensor.le(value, 0.0), doctensor.zeros_like(value),
                               doctensor.where(doctensor.ge(value, 1.0),
                                               doctensor.ones_like(value), unbounded))

    def icdf(self, value):
        cut_probs = self._cut_probs()
        inverse = (doctensor.log1p(-cut_probs + value * (2.0 * cut_probs - 1.0))
                   - doctensor.log1p(-cut_probs)) / (doctensor.log(cut_probs)
                                                     - doctensor.log1p(-cut_probs))
        return doctensor.where(self._outside_unstable_region(), inverse, value)

    def entropy(self):
        log_probs0 = doctensor.log1p(-self.probs)
        log_probs1 = doctensor.log(self.probs)
        return (self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm()
                - log_probs0)

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        outside = doctensor.max(doctensor.le(x, self._lims[0] - 0.5),
                                doctensor.gt(x, self._lims[1] - 0.5))
        cut = doctensor.where(outside, x, (self._lims[0] - 0.5) * doctensor.ones_like(x))
        log_norm = (doctensor.log(doctensor.abs(doctensor.special.expm1(cut)))
                    - doctensor.log(doctensor.abs(cut)))
        taylor = 0.5 * x + doctensor.pow(x, 2) / 24.0 - doctensor.pow(x, 4) / 2880.0
        return doctensor.where(outside, log_norm, taylor)
