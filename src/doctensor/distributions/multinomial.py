"""``torch.distributions.multinomial``."""

import math

import doctensor

from . import constraints
from .binomial import Binomial
from .categorical import Categorical
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Multinomial"]


class Multinomial(Distribution):
    """Counts of ``total_count`` categorical draws over the last dim of ``probs`` (or
    ``logits``).

    Example::

        >>> torch.distributions.Multinomial(4, torch.tensor([0.5, 0.5]))
        Multinomial()
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._expanded(Multinomial, batch_shape, _instance, ())
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        """``total_count`` categorical draws per sample, counted with ``scatter_add_``."""
        sample_shape = doctensor.Size(sample_shape)
        samples = self._categorical.sample(doctensor.Size((self.total_count,)) + sample_shape)
        order = list(range(samples.dim()))
        order.append(order.pop(0))
        samples = samples.permute(*order)
        counts = doctensor.zeros(self._extended_shape(sample_shape), dtype=samples.dtype,
                                 device=samples.device)
        counts.scatter_add_(-1, samples, doctensor.ones_like(samples))
        return counts.type_as(self.probs)

    def entropy(self):
        n = doctensor.tensor(self.total_count)
        term1 = n * self._categorical.entropy() - doctensor.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = doctensor.exp(self._binomial.log_prob(support))
        weights = doctensor.lgamma(support + 1)
        return term1 + (binomial_probs * weights).sum([0, -1])

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone(memory_format=doctensor.contiguous_format)
        log_factorial_n = doctensor.lgamma(value.sum(-1) + 1)
        log_factorial_xs = doctensor.lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)
