"""``torch.distributions.categorical``."""

import math

import doctensor

from . import constraints
from .distribution import Distribution
from .utils import _one_of, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Categorical"]


class Categorical(Distribution):
    """A distribution over ``{0, ..., K-1}`` given by the last dim of ``probs`` (normalized
    to sum to 1) or of ``logits`` (normalized to log-sum-exp 0).

    Example::

        >>> torch.distributions.Categorical(torch.tensor([0.25, 0.25, 0.5]))
        Categorical(probs: torch.Size([3]))
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else doctensor.Size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        def param_shape(batch):
            return batch + doctensor.Size((self._num_events,))
        new = self._expanded(Categorical, batch_shape, _instance, ("probs", "logits"),
                             param_shape)
        new._num_events = self._num_events
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    @property
    def param_shape(self):
        return self._param.size()

    def _nans(self):
        return doctensor.full(self._extended_shape(), math.nan, dtype=self.probs.dtype,
                              device=self.probs.device)

    @property
    def mean(self):
        return self._nans()

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return self._nans()

    def sample(self, sample_shape=()):
        """Draws with ``torch.multinomial`` (with replacement) from each row of ``probs``."""
        if not isinstance(sample_shape, doctensor.Size):
            sample_shape = doctensor.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = doctensor.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = doctensor.broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        logits = doctensor.clamp(self.logits, min=doctensor.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = doctensor.arange(self._num_events, dtype=doctensor.long,
                                  device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + self._batch_shape) if expand else values
