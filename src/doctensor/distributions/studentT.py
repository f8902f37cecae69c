"""``torch.distributions.studentT``."""

import math

import doctensor

from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all

__all__ = ["StudentT"]


class StudentT(Distribution):
    """Student's t-distribution with ``df`` degrees of freedom, location ``loc`` and scale
    ``scale``.

    ``rsample`` draws a chi-squared variable through ``Gamma`` (see its note on sampling).

    Example::

        >>> torch.distributions.StudentT(2.0)
        StudentT(df: 2.0, loc: 0.0, scale: 1.0)
    """

    arg_constraints = {"df": constraints.positive, "loc": constraints.real,
                       "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._expanded(StudentT, batch_shape, _instance, ("df", "loc", "scale"))
        new._chi2 = self._chi2.expand(batch_shape)
        return new

    @property
    def mean(self):
        m = self.loc.clone(memory_format=doctensor.contiguous_format)
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        df = self.df
        m = df.clone(memory_format=doctensor.contiguous_format)
        m[df > 2] = self.scale[df > 2].pow(2) * df[df > 2] / (df[df > 2] - 2)
        m[(df <= 2) & (df > 1)] = math.inf
        m[df <= 1] = math.nan
        return m

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        x = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * doctensor.rsqrt(z / self.df))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
             + doctensor.lgamma(0.5 * self.df) - doctensor.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * doctensor.log1p(y ** 2.0 / self.df) - z

    def entropy(self):
        lbeta = (doctensor.lgamma(0.5 * self.df) + math.lgamma(0.5)
                 - doctensor.lgamma(0.5 * (self.df + 1)))
        return (self.scale.log()
                + 0.5 * (self.df + 1) * (doctensor.digamma(0.5 * (self.df + 1))
                                         - doctensor.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
