"""Adadelta."""

from .optimizer import Optimizer, check_lr, check_nonnegative, hyper, scalar

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    r"""Adadelta (Zeiler, 2012), torch's single-tensor CPU algorithm::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            if weight_decay != 0:  g = g + weight_decay * p
            v = rho * v + (1 - rho) * g * g               (square_avg.mul_(rho).addcmul_(...))
            delta = sqrt(u + eps) / sqrt(v + eps) * g     (in place on sqrt(u + eps))
            u = rho * u + (1 - rho) * delta * delta       (acc_delta.mul_(rho).addcmul_(...))
            p = p - lr * delta                            (p.add_(delta, alpha=-lr))

    State per parameter: ``step``, ``square_avg`` (v) and ``acc_delta`` (u).
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_nonnegative("epsilon", eps)
        check_nonnegative("weight_decay", weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One Adadelta update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, rho, eps, wd = hyper(group["lr"]), group["rho"], group["eps"], \
                group["weight_decay"]
            for p in self._with_grad(group):
                state = self._state_of(p, "square_avg", "acc_delta")
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                state["step"] += 1
                grad = -p.grad if group["maximize"] else p.grad
                if wd != 0:
                    grad = grad.add(p, alpha=wd)
                square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_()
                if group["differentiable"]:
                    delta = delta.clone()
                delta.div_(std).mul_(grad)
                acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                p.add_(delta, alpha=scalar(-lr))
        return loss
