"""Muon."""

import math

import doctensor as torch

from .optimizer import Optimizer, hyper, scalar

__all__ = ["Muon"]

EPS = 1e-07
DEFAULT_A = 3.4445
DEFAULT_B = -4.775
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _orthogonalize(grad, ns_coefficients, ns_steps, eps):
    """The Newton-Schulz iteration (in bfloat16, as torch) that pushes the singular values of
    ``grad / ||grad||`` towards 1: ``X = a X + (b G + c G G) X`` with ``G = X X^T``, on the
    wide orientation of the matrix."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    tall = grad.size(0) > grad.size(1)
    x = grad.bfloat16()
    if tall:
        x = x.T
    x.div_(x.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram = x @ x.T
        poly = torch.addmm(gram, gram, gram, beta=b, alpha=c)
        x = torch.addmm(x, poly, x, beta=a)
    return x.T if tall else x


def _adjusted_lr(lr, adjust_lr_fn, shape):
    """``lr`` scaled for the matrix's shape (A, B): by sqrt(max(1, A / B)) ("original",
    the default) or 0.2 sqrt(max(A, B)) ("match_rms_adamw")."""
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        ratio = 1.0
    return lr * ratio


class Muon(Optimizer):
    r"""Muon, momentum orthogonalized by Newton-Schulz (Jordan et al., 2024), for 2-D
    parameters; torch's algorithm::

        for each parameter p with gradient g:
            buf = lerp(buf, g, 1 - momentum)
            u = lerp(g, buf, momentum) if nesterov else buf
            O = Newton-Schulz orthogonalisation of u (bfloat16, ns_steps iterations)
            p = p * (1 - lr * weight_decay)
            p = p - adjusted_lr * O

    State per parameter: ``momentum_buffer``.
    """

    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(DEFAULT_A, DEFAULT_B, DEFAULT_C), eps=EPS,
                 ns_steps=DEFAULT_NS_STEPS, adjust_lr_fn=None):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = dict(lr=lr, weight_decay=weight_decay, momentum=momentum, nesterov=nesterov,
                        ns_coefficients=ns_coefficients, eps=eps, ns_steps=ns_steps,
                        adjust_lr_fn=adjust_lr_fn)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError("Muon only supports 2D parameters whereas we found a "
                                     f"parameter with size: {p.size()}")

    def step(self, closure=None):
        """One Muon update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            params = self._with_grad(group)
            for p in params:
                if p.is_complex():
                    raise RuntimeError("Muon does not support complex parameters")
                self.state[p].setdefault("momentum_buffer", torch.zeros_like(p.grad))
            lr, momentum = hyper(group["lr"]), group["momentum"]
            for p in params:
                grad = p.grad
                if grad.ndim != 2:
                    raise ValueError("Param gradient must be a 2D matrix")
                buf = self.state[p]["momentum_buffer"]
                buf.lerp_(grad, 1 - momentum)
                update = grad.lerp(buf, momentum) if group["nesterov"] else buf
                update = _orthogonalize(update, group["ns_coefficients"], group["ns_steps"],
                                        group["eps"])
                adjusted = _adjusted_lr(lr, group["adjust_lr_fn"], p.shape)
                p.mul_(1 - lr * group["weight_decay"])
                p.add_(update, alpha=scalar(-adjusted))
        return loss
