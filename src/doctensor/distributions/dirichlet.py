"""``torch.distributions.dirichlet``."""

import doctensor
from doctensor.autograd import Function, once_differentiable

from . import constraints
from .exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


def _Dirichlet_backward(x, concentration, grad_output):  # noqa: N802  (torch's name)
    total = concentration.sum(-1, True).expand_as(concentration)
    grad = doctensor._dirichlet_grad(x, concentration, total)
    return grad * (grad_output - (x * grad_output).sum(-1, True))


class _Dirichlet(Function):
    """The Dirichlet sample with its reparameterization gradient (``_DirichletBackward``)."""

    @staticmethod
    def forward(ctx, concentration):
        x = doctensor._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        return _Dirichlet_backward(x, concentration, grad_output)


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution over the simplex of the last dim of ``concentration``.

    ``rsample`` draws with ``torch._sample_dirichlet`` (torch's CPU gamma sampler, bit for
    bit: Note [gamma sampler]) and differentiates with ``torch._dirichlet_grad``; Beta and
    LKJCholesky sample through it.

    Example::

        >>> torch.distributions.Dirichlet(torch.tensor([0.5, 0.5]))
        Dirichlet(concentration: torch.Size([2]))
    """

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(Dirichlet, batch_shape, _instance, ("concentration",),
                              lambda batch: batch + self.event_shape)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return _Dirichlet.apply(self.concentration.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (doctensor.xlogy(self.concentration - 1.0, value).sum(-1)
                + doctensor.lgamma(self.concentration.sum(-1))
                - doctensor.lgamma(self.concentration).sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = doctensor.nn.functional.one_hot(mode[mask].argmax(dim=-1),
                                                     concentrationm1.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (doctensor.lgamma(self.concentration).sum(-1) - doctensor.lgamma(a0)
                - (k - a0) * doctensor.digamma(a0)
                - ((self.concentration - 1.0) * doctensor.digamma(self.concentration)).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - doctensor.lgamma(x.sum(-1))
