"""``torch.nn.utils``: gradient clipping, flat parameter vectors, and ``rnn.pad_sequence``."""

import math

import doctensor as torch

from . import rnn

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector",
           "vector_to_parameters", "rnn"]


def reset_grads(parameters, set_to_none=True):
    """What ``Module.zero_grad`` and ``Optimizer.zero_grad`` do to each parameter's ``.grad``:
    drop it (the default), or detach it and zero it in place."""
    for p in parameters:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()


def _vector_norm(t, norm_type):
    if norm_type == math.inf:
        return t.abs().max()
    if norm_type == -math.inf:
        return t.abs().min()
    if norm_type == 2:
        return (t * t).sum().sqrt()
    if norm_type == 1:
        return t.abs().sum()
    return t.abs().pow(norm_type).sum().pow(1.0 / norm_type)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                    foreach=None):
    """Scale the gradients in place so that their total ``norm_type`` norm is at most
    ``max_norm``; return the total norm (before clipping).

    ``total = norm([norm(g) for g in grads])``, ``coef = min(max_norm / (total + 1e-6), 1)``,
    then ``g.mul_(coef)`` for every gradient (even when ``coef`` is 1, as torch does).
    """
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not grads:
        return torch.tensor(0.0)
    with torch.no_grad():
        norms = torch.stack([_vector_norm(g, norm_type) for g in grads])
        total_norm = _vector_norm(norms, norm_type)
        if error_if_nonfinite and not math.isfinite(total_norm.item()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is "
                "non-finite, so it cannot be clipped. To disable this error and scale the "
                "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
        clip_coef = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(clip_coef)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient into ``[-clip_value, clip_value]`` in place."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    with torch.no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters):
    """All parameters flattened and concatenated into one 1-D tensor."""
    return torch.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Copy slices of the 1-D ``vec`` into the parameters (as ``param.data``)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
