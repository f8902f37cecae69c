"""``torch.distributions.exp_family``: the exponential family base class."""

import doctensor

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    r"""Distributions of the exponential family, with densities
    :math:`p(x; \theta) = \exp(\langle t(x), \theta\rangle - F(\theta) + k(x))`.

    Subclasses give the natural parameters :math:`\theta` (``_natural_params``), the log
    normalizer :math:`F` (``_log_normalizer``) and the expected carrier measure
    (``_mean_carrier_measure``); ``entropy`` follows from them by the Bregman divergence,
    :math:`F(\theta) - \langle\theta, \nabla F(\theta)\rangle - E[k(x)]`.
    """

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """The entropy, from the gradient of the log normalizer."""
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*params)
        grads = doctensor.autograd.grad(log_normalizer.sum(), params, create_graph=True)
        result = -self._mean_carrier_measure + log_normalizer
        for param, grad in zip(params, grads):
            result -= (param * grad).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
