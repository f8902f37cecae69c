"""RMSprop."""

from .optimizer import Optimizer, check_nonnegative

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    r"""RMSprop (Hinton), torch's single-tensor CPU algorithm.

    ::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1
            if weight_decay != 0:  g = g + weight_decay * p
            v = alpha * v + (1 - alpha) * g * g            (v.mul_(alpha).addcmul_(g, g, ...))
            if centered:
                g_avg = lerp(g_avg, g, 1 - alpha)
                avg = sqrt(v - g_avg * g_avg) + eps
            else:
                avg = sqrt(v) + eps
            if momentum > 0:
                buf = momentum * buf + g / avg;  p = p - lr * buf
            else:
                p = p - lr * g / avg                        (p.addcdiv_(g, avg, value=-lr))
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        check_nonnegative("epsilon", eps)
        check_nonnegative("momentum", momentum)
        check_nonnegative("weight_decay", weight_decay)
        check_nonnegative("alpha", alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One RMSprop update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
            wd, momentum, centered = group["weight_decay"], group["momentum"], group["centered"]
            buffers = ("square_avg",) + (("momentum_buffer",) if momentum > 0 else ()) \
                + (("grad_avg",) if centered else ())
            for p in self._with_grad(group):
                state = self._state_of(p, *buffers)
                grad = -p.grad if group["maximize"] else p.grad
                square_avg = state["square_avg"]
                state["step"] += 1
                if wd != 0:
                    grad = grad.add(p, alpha=wd)
                square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                if centered:
                    grad_avg = state["grad_avg"]
                    grad_avg.lerp_(grad, 1 - alpha)
                    avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                else:
                    avg = square_avg.sqrt()
                avg = avg.add_(eps)
                if momentum > 0:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).addcdiv_(grad, avg)
                    p.add_(buf, alpha=-lr)
                else:
                    p.addcdiv_(grad, avg, value=-lr)
        return loss
