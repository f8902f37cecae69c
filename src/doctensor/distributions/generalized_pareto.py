"""``torch.distributions.generalized_pareto``."""

import math

import doctensor

from . import constraints
from .distribution import Distribution
from .utils import _batch_shape, broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """The generalized Pareto distribution with location ``loc``, scale ``scale`` and shape
    ``concentration`` (exponential at ``concentration == 0``).

    Example::

        >>> torch.distributions.GeneralizedPareto(0.0, 1.0, 0.5)
        GeneralizedPareto(loc: 0.0, scale: 1.0, concentration: 0.5)
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        super().__init__(_batch_shape((loc, scale, concentration), self.loc),
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(GeneralizedPareto, batch_shape, _instance,
                              ("loc", "scale", "concentration"))

    def rsample(self, sample_shape=()):
        """The inverse CDF at ``torch.rand`` draws."""
        shape = self._extended_shape(sample_shape)
        u = doctensor.rand(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def _safe_concentration(self, eq_zero):
        return doctensor.where(eq_zero, doctensor.ones_like(self.concentration),
                               self.concentration)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = doctensor.isclose(self.concentration, doctensor.tensor(0.0))
        safe_conc = self._safe_concentration(eq_zero)
        y = 1 / safe_conc + doctensor.ones_like(z)
        where_nonzero = doctensor.where(y == 0, y, y * doctensor.log1p(safe_conc * z))
        return -self.scale.log() - doctensor.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        """``log(1 - cdf(value))``."""
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = doctensor.isclose(self.concentration, doctensor.tensor(0.0))
        safe_conc = self._safe_concentration(eq_zero)
        where_nonzero = -doctensor.log1p(safe_conc * z) / safe_conc
        return doctensor.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value):
        """``log(cdf(value))``."""
        return doctensor.log1p(-doctensor.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return doctensor.exp(self.log_cdf(value))

    def icdf(self, value):
        eq_zero = doctensor.isclose(self.concentration, doctensor.zeros_like(self.concentration))
        safe_conc = self._safe_concentration(eq_zero)
        logu = doctensor.log1p(-value)
        where_nonzero = self.loc + self.scale / safe_conc * doctensor.expm1(-safe_conc * logu)
        where_zero = self.loc - self.scale * logu
        return doctensor.where(eq_zero, where_zero, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        valid = self.concentration < 1
        safe_conc = doctensor.where(valid, self.concentration, 0.5)
        return doctensor.where(valid, self.loc + self.scale / (1 - safe_conc), math.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe_conc = doctensor.where(valid, self.concentration, 0.25)
        result = self.scale ** 2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return doctensor.where(valid, result, math.nan)

    def entropy(self):
        return doctensor.broadcast_to(doctensor.log(self.scale) + self.concentration + 1,
                                      self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        lower = self.loc
        upper = doctensor.where(self.concentration < 0, lower - self.scale / self.concentration,
                                math.inf)
        return constraints.interval(lower, upper)
