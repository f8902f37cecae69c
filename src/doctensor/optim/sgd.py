"""Stochastic gradient descent, with momentum, dampening, Nesterov and weight decay."""

import doctensor as torch

from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    r"""Stochastic gradient descent (torch's single-tensor CPU algorithm)::

        for each parameter p with gradient g (g = -g when maximize):
            if weight_decay != 0:  g = g + weight_decay * p          (g.add(p, alpha=wd))
            if momentum != 0:
                if first step:     buf = clone(g)
                else:              buf = momentum * buf + (1 - dampening) * g   (in place)
                g = g + momentum * buf if nesterov else buf
            p = p - lr * g                                           (p.add_(g, alpha=-lr))

    Each line is one op, so ``p`` is bumped once per step (its ``_version`` goes up by 1)
    and a ``detach()``ed alias of ``p`` sees the new values.

    Example (the article's step on ``Linear(3, 1)`` after ``y = f(x); y.backward()``)::

        >>> torch.optim.SGD(f.parameters(), 0.1).step()
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, momentum = group["lr"], group["momentum"]
            dampening, wd = group["dampening"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                if wd != 0:
                    grad = grad.add(p, alpha=wd)
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = torch.clone(grad).detach()
                    else:
                        buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                    state["momentum_buffer"] = buf
                    grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
                p.add_(grad, alpha=-lr)
        return loss
