"""Adafactor."""

import doctensor as torch

from .optimizer import Optimizer, hyper, scalar

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    r"""Adafactor (Shazeer and Stern, 2018), torch's single-tensor algorithm: the second
    moment of a matrix-shaped gradient is kept factored, as its row and column means::

        for each parameter p with gradient g (g = -g when maximize):
            step += 1;  beta2_hat = step ** beta2_decay   (the weight of the new moment)
            rho = min(lr, 1 / sqrt(step));  alpha = max(eps2, RMS(p)) * rho
            if weight_decay != 0:  p = p * (1 - lr * weight_decay)
            if g has 2 or more dims:
                R = lerp(R, mean(g * g, dim=-1), beta2_hat)   (as norm(g, dim=-1)**2 / n)
                C = lerp(C, mean(g * g, dim=-2), beta2_hat)
                V = (R @ C) / max(mean(R, dim=-2), eps1)
            else:
                V = lerp(V, g * g, beta2_hat)
            u = g / sqrt(max(V, eps1 ** 2))
            p = p - alpha / max(1, RMS(u) / d) * u

    ``eps1`` (None) becomes the machine epsilon of the first parameter's dtype.  State per
    parameter: ``step`` and ``row_var``/``col_var`` (R, C) or ``variance`` (V).
    """

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d,
                        weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def _state(self, p):
        if p.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        state = self.state[p]
        if len(state) == 0:
            state["step"] = torch.tensor(0.0, dtype=self._scalar_dtype())
            if p.grad.dim() > 1:
                shape = list(p.grad.shape)
                state["row_var"] = p.grad.new_zeros(shape[:-1] + [1])
                state["col_var"] = p.grad.new_zeros(shape[:-2] + [1] + shape[-1:])
            else:
                state["variance"] = torch.zeros_like(p.grad)
        return state

    @staticmethod
    def _factored_variance(state, grad, weight, eps1):
        """(R @ C) / max(mean(R), eps1), after moving R and C towards the row and column
        means of ``grad ** 2``."""
        row_var, col_var = state["row_var"], state["col_var"]
        row_mean = torch.norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1))
        row_var.lerp_(row_mean, weight)
        col_mean = torch.norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2))
        col_var.lerp_(col_mean, weight)
        estimate = row_var @ col_var
        return estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))

    def step(self, closure=None):
        """One Adafactor update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, eps1, eps2 = hyper(group["lr"]), group["eps"][0], group["eps"][1]
            wd, d = group["weight_decay"], group["d"]
            params = self._with_grad(group)
            states = [self._state(p) for p in params]
            for p, state in zip(params, states):
                grad = -p.grad if group["maximize"] else p.grad
                if eps1 is None:
                    eps1 = torch.finfo(p.dtype).eps
                state["step"] += 1
                step = state["step"].item()
                weight = step ** group["beta2_decay"]
                rho = min(lr, 1 / (step**0.5))
                alpha = max(eps2, p.norm(2).item() / (p.numel() ** 0.5)) * rho
                if wd != 0:
                    p.mul_(1 - lr * wd)
                if grad.dim() > 1:
                    estimate = self._factored_variance(state, grad, weight, eps1)
                else:
                    state["variance"].lerp_(grad * grad, weight)
                    estimate = state["variance"].clone()
                update = estimate.clamp_(min=eps1 * eps1).rsqrt_()
                update.mul_(grad)
                denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
                p.add_(update, alpha=scalar(-alpha / denom))
        return loss
