"""``torch.distributions.lkj_cholesky``."""

import math

import doctensor

from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution over lower Cholesky factors of ``dim x dim`` correlation
    matrices, with ``concentration`` (1 is uniform over correlation matrices).

    ``sample`` uses the onion method: ``Beta`` draws (see its note on sampling) and
    ``torch.randn`` directions on the hypersphere.

    Example::

        >>> torch.distributions.LKJCholesky(3, 0.5)
        LKJCholesky(concentration: 0.5)
    """

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError("Expected dim to be an integer greater than or equal to 2. "
                             f"Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        # the onion method's Beta marginals, one per row
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = doctensor.arange(self.dim - 1, dtype=self.concentration.dtype,
                                  device=self.concentration.device)
        offset = doctensor.cat([offset.new_zeros((1,)), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(self.concentration.size(), doctensor.Size((dim, dim)), validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._expanded(LKJCholesky, batch_shape, _instance, ("concentration",))
        new.dim = self.dim
        new._beta = self._beta.expand(new.batch_shape + (self.dim,))
        return new

    def sample(self, sample_shape=()):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u_normal = doctensor.randn(self._extended_shape(sample_shape), dtype=y.dtype,
                                   device=y.device).tril(-1)
        u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
        u_hypersphere[..., 0, :].fill_(0.0)  # the first row is e_1
        w = doctensor.sqrt(y) * u_hypersphere
        tiny = doctensor.finfo(w.dtype).tiny
        diag_elems = doctensor.clamp(1 - doctensor.sum(w ** 2, dim=-1), min=tiny).sqrt()
        w += doctensor.diag_embed(diag_elems)
        return w

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = doctensor.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = doctensor.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = doctensor.lgamma(alpha) * dm1
        numerator = doctensor.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        return unnormalized_log_pdf - (pi_constant + numerator - denominator)
