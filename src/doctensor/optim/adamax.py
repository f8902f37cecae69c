"""Adamax."""

import doctensor as torch

from .optimizer import Optimizer, check_adam_args, hyper, scalar

__all__ = ["Adamax"]


class Adamax(Optimizer):
    r"""Adamax, Adam with the infinity norm (Kingma and Ba, 2014), torch's single-tensor CPU
    algorithm::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            if weight_decay != 0:  g = g + weight_decay * p
            m = lerp(m, g, 1 - beta1)
            u = max(beta2 * u, |g| + eps)                  (exp_inf.mul_(beta2), then max)
            p = p - (lr / (1 - beta1 ** step)) * m / u     (p.addcdiv_(m, u, value=-clr))

    State per parameter: ``step``, ``exp_avg`` (m) and ``exp_inf`` (u).
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One Adamax update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps, wd = hyper(group["lr"]), group["eps"], group["weight_decay"]
            for p in self._with_grad(group):
                state = self._state_of(p, "exp_avg", "exp_inf")
                exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
                grad = -p.grad if group["maximize"] else p.grad
                state["step"] += 1
                if wd != 0:
                    grad = grad.add(p, alpha=wd)
                exp_avg.lerp_(grad, 1 - beta1)
                if group["differentiable"]:
                    both = torch.cat([exp_inf.mul_(beta2).unsqueeze(0),
                                      grad.abs().add_(eps).unsqueeze(0)], 0)
                    exp_inf.copy_(torch.amax(both, 0))
                else:
                    exp_inf.copy_(torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
                clr = lr / (1 - beta1 ** state["step"].item())
                p.addcdiv_(exp_avg, exp_inf, value=scalar(-clr))
        return loss
