"""Adagrad."""

import doctensor as torch

from .optimizer import Optimizer, check_lr, check_nonnegative, hyper, scalar

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    r"""Adagrad (Duchi et al., 2011), torch's single-tensor CPU algorithm::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            if weight_decay != 0:  g = g + weight_decay * p
            clr = lr / (1 + (step - 1) * lr_decay)
            sum = sum + g * g                              (sum.addcmul_(g, g, value=1))
            p = p - clr * g / (sqrt(sum) + eps)            (p.addcdiv_(g, std, value=-clr))

    Unlike the other optimizers, the state (``step`` and ``sum``, filled with
    ``initial_accumulator_value``) is created at construction for every parameter.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
                 differentiable=False, fused=None):
        check_lr(lr)
        check_nonnegative("lr_decay", lr_decay)
        check_nonnegative("weight_decay", weight_decay)
        check_nonnegative("initial_accumulator_value", initial_accumulator_value)
        check_nonnegative("epsilon", eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, initial_accumulator_value)

    def _init_state(self, p, initial_value):
        state = self.state[p]
        if len(state) == 0:
            state["step"] = torch.tensor(0.0, dtype=self._scalar_dtype())
            state["sum"] = torch.full_like(p, initial_value)
        return state

    def step(self, closure=None):
        """One Adagrad update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, lr_decay, eps, wd = group["lr"], group["lr_decay"], group["eps"], \
                group["weight_decay"]
            for p in self._with_grad(group):
                state = self._init_state(p, self.defaults["initial_accumulator_value"])
                state["step"] += 1
                step = state["step"].item()
                grad = -p.grad if group["maximize"] else p.grad
                if wd != 0:
                    grad = grad.add(p, alpha=wd)
                clr = hyper(lr) / (1 + (step - 1) * lr_decay)
                state["sum"].addcmul_(grad, grad, value=1)
                std = state["sum"].sqrt()
                std = std + eps if group["differentiable"] else std.add_(eps)
                p.addcdiv_(grad, std, value=scalar(-clr))
        return loss
