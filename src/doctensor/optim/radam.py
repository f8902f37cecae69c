"""RAdam."""

from .optimizer import Optimizer, check_adam_args, hyper

__all__ = ["RAdam"]


class RAdam(Optimizer):
    r"""RAdam, Adam with a rectified adaptive learning rate (Liu et al., 2019), torch's
    single-tensor CPU algorithm::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            if weight_decay != 0:
                decoupled:  p = p * (1 - lr * weight_decay)
                else:       g = g + weight_decay * p
            m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
            rho_inf = 2 / (1 - beta2) - 1
            rho = rho_inf - 2 * step * beta2 ** step / (1 - beta2 ** step)
            m_hat = m / (1 - beta1 ** step)
            if rho > 5:
                r = sqrt((rho - 4) (rho - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2) rho))
                p = p - m_hat * lr * (sqrt(1 - beta2 ** step) / (sqrt(v) + eps)) * r
            else:
                p = p - m_hat * lr

    State per parameter: ``step``, ``exp_avg`` (m), ``exp_avg_sq`` (v).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
        check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One RAdam update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps, wd = hyper(group["lr"]), group["eps"], group["weight_decay"]
            for p in self._with_grad(group):
                state = self._state_of(p, "exp_avg", "exp_avg_sq")
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                grad = -p.grad if group["maximize"] else p.grad
                state["step"] += 1
                step = state["step"].item()
                if wd != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * wd)
                    else:
                        grad = grad.add(p, alpha=wd)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                exp_avg_hat = exp_avg / bias_correction1
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
                if rho_t > 5.0:
                    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                            / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    root = exp_avg_sq.sqrt()
                    root = root.add(eps) if group["differentiable"] else root.add_(eps)
                    adaptive_lr = (bias_correction2**0.5) / root
                    p.add_(exp_avg_hat * lr * adaptive_lr * rect, alpha=-1.0)
                else:
                    p.add_(exp_avg_hat * lr, alpha=-1.0)
        return loss
