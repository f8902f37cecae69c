"""``CrossMapLRN2d``: the legacy cross-channel local response norm as an autograd Function
(its node prints as ``CrossMapLRN2dBackward``), computed in torch's order: running sums of
squares over a window of channels."""

import doctensor as torch
from doctensor.autograd import Function

__all__ = ["CrossMapLRN2d", "BackwardHookFunction"]


class CrossMapLRN2d(Function):
    """``input * (k + alpha / size * sum of input**2 over size channels) ** -beta``."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D "
                             "instead.")
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        channels = input.size(1)
        square = input.pow(2)
        pre_pad = int((size - 1) / 2 + 1)
        scale = torch.empty_like(input)
        scale[:, 0] = 0
        for c in range(min(pre_pad, channels)):
            scale[:, 0] += square[:, c]
        for c in range(1, channels):
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += square[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= square[:, c - pre_pad]
        ctx.scale = scale.mul_(alpha / size).add_(k)
        output = scale.pow(-beta).mul_(input)
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        size, channels = ctx.size, input.size(1)
        cache_ratio = 2 * ctx.alpha * ctx.beta / size
        offset = int(size - (size - 1) / 2)
        grad_input = ctx.scale.pow(-ctx.beta).mul_(grad_output)
        padded = input.new_zeros((channels + size - 1,) + tuple(input.shape[2:]))
        for n in range(input.size(0)):
            padded[offset:offset + channels] = grad_output[n] * output[n] / ctx.scale[n]
            accum = padded[:size - 1].sum(0)
            for c in range(channels):
                accum += padded[c + size - 1]
                grad_input[n][c].addcmul_(input[n][c], accum, value=-cache_ratio)
                accum -= padded[c]
        return grad_input, None, None, None, None


class BackwardHookFunction(Function):
    """The identity on a module's input or output tensors, whose node (printed
    ``BackwardHookFunctionBackward``) is where a module's full backward hooks catch the
    gradients (``_backward_hook.BackwardHook``)."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads
