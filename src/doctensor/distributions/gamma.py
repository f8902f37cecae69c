"""``torch.distributions.gamma``."""

import doctensor

from . import constraints
from .exp_family import ExponentialFamily
from .utils import _batch_shape, broadcast_all

__all__ = ["Gamma"]


class Gamma(ExponentialFamily):
    """The gamma distribution with shape ``concentration`` and inverse scale ``rate``.

    ``rsample`` draws with ``torch._standard_gamma`` (torch's CPU rejection kernel, bit for
    bit: Note [gamma sampler]), whose gradient is the implicit reparameterization one
    (``torch._standard_gamma_grad``); Chi2, StudentT, FisherSnedecor, InverseGamma,
    NegativeBinomial and Wishart sample through it.

    Example::

        >>> torch.distributions.Gamma(torch.tensor([1.0, 2.0]), 3.0)
        Gamma(concentration: torch.Size([2]), rate: torch.Size([2]))
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        super().__init__(_batch_shape((concentration, rate), self.rate),
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Gamma, batch_shape, _instance, ("concentration", "rate"))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        value = (doctensor._standard_gamma(self.concentration.expand(shape))
                 / self.rate.expand(shape))
        value.detach().clamp_(min=doctensor.finfo(value.dtype).tiny)  # outside the graph
        return value

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def log_prob(self, value):
        value = doctensor.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (doctensor.xlogy(self.concentration, self.rate)
                + doctensor.xlogy(self.concentration - 1, value)
                - self.rate * value - doctensor.lgamma(self.concentration))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return doctensor.special.gammainc(self.concentration, self.rate * value)

    def entropy(self):
        return (self.concentration - doctensor.log(self.rate)
                + doctensor.lgamma(self.concentration)
                + (1.0 - self.concentration) * doctensor.digamma(self.concentration))

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return doctensor.lgamma(x + 1) + (x + 1) * doctensor.log(-y.reciprocal())
