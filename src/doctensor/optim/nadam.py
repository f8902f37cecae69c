"""NAdam."""

from .optimizer import Optimizer, check_adam_args, check_nonnegative, hyper, scalar

__all__ = ["NAdam"]


class NAdam(Optimizer):
    r"""NAdam, Adam with Nesterov momentum (Dozat, 2016), torch's single-tensor CPU
    algorithm::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            if weight_decay != 0:
                decoupled:  p = p * (1 - lr * weight_decay)
                else:       g = g + weight_decay * p
            mu      = beta1 * (1 - 0.5 * 0.96 ** (step * momentum_decay))
            mu_next = beta1 * (1 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
            mu_product = mu_product * mu                   (a float32 0-d tensor in state)
            m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
            denom = sqrt(v / (1 - beta2 ** step)) + eps
            p = p - lr * (1 - mu) / (1 - mu_product) * g / denom
            p = p - lr * mu_next / (1 - mu_product * mu_next) * m / denom

    State per parameter: ``step``, ``mu_product``, ``exp_avg`` (m), ``exp_avg_sq`` (v).
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        check_adam_args(lr, eps, betas, weight_decay)
        check_nonnegative("momentum_decay", momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One NAdam update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps, wd = hyper(group["lr"]), group["eps"], group["weight_decay"]
            momentum_decay = group["momentum_decay"]
            for p in self._with_grad(group):
                state = self._state_of(p, "exp_avg", "exp_avg_sq", mu_product=1.0)
                exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], \
                    state["mu_product"]
                grad = -p.grad if group["maximize"] else p.grad
                state["step"] += 1
                step = state["step"].item()
                bias_correction2 = 1 - beta2**step
                if wd != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * wd)
                    else:
                        grad = grad.add(p, alpha=wd)
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                mu_product *= mu
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt()
                if group["differentiable"]:
                    denom = denom.add(eps)
                    grad_part = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
                    avg_part = exp_avg * (-lr * mu_next / (1.0 - mu_product * mu_next))
                    p.addcdiv_(grad_part, denom)
                    p.addcdiv_(avg_part, denom)
                else:
                    product = mu_product.item()
                    denom.add_(eps)
                    p.addcdiv_(grad, denom, value=scalar(-lr * (1.0 - mu) / (1.0 - product)))
                    p.addcdiv_(exp_avg, denom,
                               value=scalar((-lr * mu_next) / (1.0 - product * mu_next)))
        return loss
