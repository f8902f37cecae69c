"""``torch.distributions.binomial``."""

import doctensor

from . import constraints
from .distribution import Distribution
from .utils import _one_of, broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Binomial"]


def _clamp_by_zero(x):
    """``max(x, 0)`` with gradient 1/2 at 0."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class _CountAndProbs(Distribution):
    """The parameters ``total_count`` and ``probs`` or ``logits`` shared by the binomial and
    negative binomial distributions."""

    def __init__(self, total_count, probs, logits, validate_args):
        _one_of(probs, logits)
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self._param = self.probs
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self._param = self.logits
        self.total_count = self.total_count.type_as(self._param)
        super().__init__(self._param.size(), validate_args=validate_args)

    def _expand_counts(self, cls, batch_shape, _instance):
        return self._expanded(cls, batch_shape, _instance, ("total_count", "probs", "logits"))

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()


class Binomial(_CountAndProbs):
    """The number of successes in ``total_count`` Bernoulli trials with success probability
    ``probs`` (or ``sigmoid(logits)``).

    ``sample`` draws with ``torch.binomial``, whose CPU sampler doctensor reproduces draw for
    draw.

    Example::

        >>> torch.distributions.Binomial(10, torch.tensor([0.5]))
        Binomial(total_count: tensor([10.]), probs: tensor([0.5000]))
    """

    arg_constraints = {"total_count": constraints.nonnegative_integer,
                       "probs": constraints.unit_interval, "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        super().__init__(total_count, probs, logits, validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_counts(Binomial, batch_shape, _instance)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with doctensor.no_grad():
            return doctensor.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        log_factorial_n = doctensor.lgamma(n + 1)
        log_factorial_k = doctensor.lgamma(value + 1)
        log_factorial_nmk = doctensor.lgamma(n - value + 1)
        normalize_term = (n * _clamp_by_zero(logits)
                          + n * doctensor.log1p(doctensor.exp(-doctensor.abs(logits)))
                          - log_factorial_n)
        return value * logits - log_factorial_k - log_factorial_nmk - normalize_term

    def _homogeneous_count(self, what):
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total_count

    def entropy(self):
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(doctensor.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total_count = self._homogeneous_count("enumerate_support")
        values = doctensor.arange(1 + total_count, dtype=self._param.dtype,
                                  device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
