"""Adam and AdamW."""

import doctensor as torch

from .optimizer import Optimizer, check_adam_args

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    r"""Adam (Kingma and Ba, 2014), torch's single-tensor CPU algorithm::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1                                   (a float32 0-d tensor in state)
            if weight_decay != 0:
                decoupled (AdamW):  p = p * (1 - lr * weight_decay)            (in place)
                else:               g = g + weight_decay * p
            m = lerp(m, g, 1 - beta1)                   (m + (1 - beta1) * (g - m), fused)
            v = beta2 * v + (1 - beta2) * g * g         (v.mul_(beta2).addcmul_(g, g, ...))
            if amsgrad:  v_max = max(v_max, v); use v_max for v below
            denom = sqrt(v) / sqrt(1 - beta2 ** step) + eps
            p = p - (lr / (1 - beta1 ** step)) * m / denom      (p.addcdiv_(m, denom, ...))

    State per parameter: ``step``, ``exp_avg`` (m), ``exp_avg_sq`` (v) and, with amsgrad,
    ``max_exp_avg_sq``.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One Adam update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps, wd, amsgrad = group["lr"], group["eps"], group["weight_decay"], \
                group["amsgrad"]
            buffers = ("exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if amsgrad else ())
            for p in self._with_grad(group):
                state = self._state_of(p, *buffers)
                grad = -p.grad if group["maximize"] else p.grad
                exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], \
                    state["step"]
                step_t += 1
                if wd != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * wd)
                    else:
                        grad = grad.add(p, alpha=wd)
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                step = step_t.item()
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                step_size = lr / bias_correction1
                bias_correction2_sqrt = bias_correction2**0.5
                if amsgrad:
                    v_max = state["max_exp_avg_sq"]
                    v_max.copy_(torch.maximum(v_max, exp_avg_sq))
                    denom = (v_max.sqrt() / bias_correction2_sqrt).add_(eps)
                else:
                    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                p.addcdiv_(exp_avg, denom, value=-step_size)
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter): ``p *= 1 - lr * wd`` before
    the Adam update, instead of adding ``wd * p`` to the gradient.  Default ``wd = 0.01``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
