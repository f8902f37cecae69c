"""ASGD."""

import doctensor as torch

from .optimizer import Optimizer, check_lr, check_nonnegative, hyper

__all__ = ["ASGD"]


class ASGD(Optimizer):
    r"""Averaged stochastic gradient descent (Polyak and Juditsky, 1992), torch's
    single-tensor CPU algorithm::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            if weight_decay != 0:  g = g + weight_decay * p
            p = p * (1 - lambd * eta);  p = p - eta * g
            ax = ax + mu * (p - ax)        (ax = p while mu == 1)
            eta = lr / (1 + lambd * lr * step) ** alpha
            mu = 1 / max(1, step - t0)

    State per parameter: ``step``, ``eta``, ``mu`` (0-d tensors) and ``ax``, the average of
    the parameter over the steps after ``t0``.
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        check_lr(lr)
        check_nonnegative("weight_decay", weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One ASGD update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, lambd, alpha, t0 = hyper(group["lr"]), group["lambd"], group["alpha"], \
                group["t0"]
            wd = group["weight_decay"]
            for p in self._with_grad(group):
                state = self.state[p]
                if len(state) == 0:
                    dtype = self._scalar_dtype()
                    state["step"] = torch.zeros((), dtype=dtype)
                    state["eta"] = torch.as_tensor(lr, dtype=dtype).clone().detach()
                    state["mu"] = torch.ones((), dtype=dtype)
                    state["ax"] = torch.zeros_like(p)
                eta, mu, ax = state["eta"], state["mu"], state["ax"]
                grad = -p.grad if group["maximize"] else p.grad
                state["step"] += 1
                if wd != 0:
                    grad = grad.add(p, alpha=wd)
                eta_value = eta.item()
                p.mul_(1 - lambd * eta_value)
                p.add_(grad, alpha=-eta_value)
                if mu.item() != 1:
                    ax.add_(p.sub(ax).mul_(mu))
                else:
                    ax.copy_(p)
                step = state["step"].item()
                eta.copy_(torch.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
                mu.copy_(torch.as_tensor(1 / max(1, step - t0)))
        return loss
