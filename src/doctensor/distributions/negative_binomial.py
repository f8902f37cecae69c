"""``torch.distributions.negative_binomial``."""

import doctensor

from . import constraints
from .binomial import _CountAndProbs
from .gamma import Gamma
from .utils import lazy_property

__all__ = ["NegativeBinomial"]


class NegativeBinomial(_CountAndProbs):
    """The number of successes before ``total_count`` failures of Bernoulli trials with
    success probability ``probs`` (or ``sigmoid(logits)``).

    ``sample`` draws a gamma-Poisson mixture (``Gamma.sample`` then ``torch.poisson``): see
    Gamma's note on sampling.

    Example::

        >>> torch.distributions.NegativeBinomial(3.0, torch.tensor([0.5]))
        NegativeBinomial(total_count: tensor([3.]), probs: tensor([0.5000]))
    """

    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        super().__init__(total_count, probs, logits, validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_counts(NegativeBinomial, batch_shape, _instance)

    @property
    def mean(self):
        return self.total_count * doctensor.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / doctensor.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=doctensor.exp(-self.logits),
                     validate_args=False)

    def sample(self, sample_shape=()):
        with doctensor.no_grad():
            return doctensor.poisson(self._gamma.sample(sample_shape=sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logsigmoid = doctensor.nn.functional.logsigmoid
        log_unnormalized_prob = (self.total_count * logsigmoid(-self.logits)
                                 + value * logsigmoid(self.logits))
        log_normalization = (-doctensor.lgamma(self.total_count + value)
                             + doctensor.lgamma(1.0 + value)
                             + doctensor.lgamma(self.total_count))
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized_prob - log_normalization
