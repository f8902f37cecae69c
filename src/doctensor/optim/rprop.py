"""Rprop."""

import doctensor as torch

from .optimizer import Optimizer, check_lr, scalar

__all__ = ["Rprop"]


class Rprop(Optimizer):
    r"""Resilient backpropagation (Riedmiller and Braun, 1993), torch's single-tensor CPU
    algorithm: each element has its own step size, which grows by ``etaplus`` while the
    gradient keeps its sign and shrinks by ``etaminus`` when the sign flips::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            s = sign(g * prev), then s = etaplus where s > 0, etaminus where s < 0, 1 where 0
            step_size = clamp(step_size * s, step_size_min, step_size_max)
            g = 0 where the sign flipped (s == etaminus)
            p = p - sign(g) * step_size               (p.addcmul_(g.sign(), step_size, ...))
            prev = g

    State per parameter: ``step``, ``prev`` and ``step_size`` (starting at ``lr``).
    """

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                        maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One Rprop update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            for p in self._with_grad(group):
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.zeros((), dtype=self._scalar_dtype())
                    state["prev"] = torch.zeros_like(p)
                    state["step_size"] = torch.full_like(p.grad, scalar(group["lr"]))
                prev, step_size = state["prev"], state["step_size"]
                grad = -p.grad if group["maximize"] else p.grad
                state["step"] += 1
                sign = grad.mul(prev.clone() if group["differentiable"] else prev).sign()
                sign[sign.gt(0)] = etaplus
                sign[sign.lt(0)] = etaminus
                sign[sign.eq(0)] = 1
                step_size.mul_(sign).clamp_(step_size_min, step_size_max)
                grad = grad.clone()
                grad[sign.eq(etaminus)] = 0
                p.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
        return loss
