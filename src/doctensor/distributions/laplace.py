"""``torch.distributions.laplace``."""

import doctensor

from . import constraints
from .distribution import Distribution
from .utils import _batch_shape, broadcast_all

__all__ = ["Laplace"]


class Laplace(Distribution):
    """The Laplace distribution with location ``loc`` and scale ``scale``.

    Example::

        >>> torch.distributions.Laplace(0.0, 1.0)
        Laplace(loc: 0.0, scale: 1.0)
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(_batch_shape((loc, scale), self.loc), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Laplace, batch_shape, _instance, ("loc", "scale"))

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2 ** 0.5) * self.scale

    def rsample(self, sample_shape=()):
        """The inverse CDF at ``u`` drawn with ``uniform_(eps - 1, 1)``."""
        shape = self._extended_shape(sample_shape)
        u = doctensor.empty(shape, dtype=self.loc.dtype, device=self.loc.device)
        u = u.uniform_(doctensor.finfo(self.loc.dtype).eps - 1, 1)
        return self.loc - self.scale * u.sign() * doctensor.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -doctensor.log(2 * self.scale) - doctensor.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        shifted = value - self.loc
        return 0.5 - 0.5 * shifted.sign() * doctensor.expm1(-shifted.abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * doctensor.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + doctensor.log(2 * self.scale)
