"""``torch.utils.checkpoint``: trade compute for memory by running a block again in backward.

``checkpoint(fn, *args, use_reentrant=True)`` is torch's reentrant variant: ``fn`` runs under
``no_grad`` (its outputs' grad_fn is ``CheckpointFunctionBackward``), and backward runs it
again with grad enabled, from the random-number state the forward began with (so dropout
draws the same mask), then backpropagates through that recomputation.

Note [non-reentrant checkpoint]: torch's ``use_reentrant=False`` keeps the graph of ``fn``
(its outputs' grad_fn are the inner ops' nodes) but drops the tensors that graph saves,
recomputing them (from the forward's random state) when backward first needs one; that
rests on saved-tensor hooks, which doctensor's graph does not have.  doctensor keeps the
saved tensors instead: outputs, grad_fn names, gradients and the generators' states are
torch's, but ``fn`` does not run a second time in backward, so memory is not saved, side
effects of ``fn`` happen once, and with ``preserve_rng_state=False`` a random ``fn``'s
gradient is the forward's (torch's recomputation would draw anew).
"""

import contextlib
import warnings

import doctensor as torch

from ..ops import random_ops

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointFunction", "check_backward_validity",
           "detach_variable", "noop_context_fn"]


def detach_variable(inputs):
    """The tensors of the tuple ``inputs`` detached, each keeping its ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if isinstance(inp, torch.Tensor):
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            inp = x
        out.append(inp)
    return tuple(out)


def check_backward_validity(inputs):
    """torch's warning when no input tensor requires grad (nothing to checkpoint)."""
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, torch.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


def noop_context_fn():
    """The default ``context_fn``: no context around the forward, nor the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def _rng_states(args):
    """The CPU generator's state, and the CUDA generator's when a tensor argument is on the
    ``cuda`` device (torch then saves that device's state too)."""
    cuda = any(isinstance(a, torch.Tensor) and a.is_cuda for a in args)
    return torch.get_rng_state(), random_ops.cuda_generator().get_state() if cuda else None


@contextlib.contextmanager
def _replayed_rng(states):
    """Run the block from the random state ``states``; restore the current one after
    (torch's ``fork_rng`` + ``set_rng_state``).  ``states=None``: the current state, moved."""
    if states is None:
        yield
        return
    now = _rng_states([])[0], random_ops.cuda_generator().get_state()
    torch.set_rng_state(states[0])
    if states[1] is not None:
        random_ops.cuda_generator().set_state(states[1])
    try:
        yield
    finally:
        torch.set_rng_state(now[0])
        if states[1] is not None:
            random_ops.cuda_generator().set_state(now[1])


class CheckpointFunction(torch.autograd.Function):
    """The reentrant checkpoint: forward without a graph, backward by recomputing one."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.rng = _rng_states(args) if preserve_rng_state else None
        ctx.inputs = [None if torch.is_tensor(a) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if torch.is_tensor(a)]
        ctx.save_for_backward(*[a for a in args if torch.is_tensor(a)])
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for i, tensor in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = tensor
        with _replayed_rng(ctx.rng):
            detached = detach_variable(tuple(inputs))
            with torch.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, torch.Tensor):
            outputs = (outputs,)
        pairs = [(out, grad) for out, grad in zip(outputs, grads)
                 if torch.is_tensor(out) and out.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        torch.autograd.backward([out for out, _ in pairs], [grad for _, grad in pairs])
        return (None, None) + tuple(inp.grad if isinstance(inp, torch.Tensor) else None
                                    for inp in detached)


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check="default", debug=False, early_stop=True, **kwargs):
    """``function(*args, **kwargs)``, its activations recomputed in backward (reentrant) or
    kept (non-reentrant, Note [non-reentrant checkpoint]).  ``preserve_rng_state=False``
    (a keyword) recomputes from the random state backward finds."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if debug and context_fn is not noop_context_fn:
        raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in ("default", "none"):
        raise ValueError("determinism_check should be one of ['default', 'none'], but got "
                         f"{determinism_check}")
    forward_context, _ = context_fn()
    with forward_context:
        return function(*args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (an ``nn.Sequential`` or a list) one after another on ``input``,
    in ``segments`` chunks of ``len(functions) // segments``: every chunk but the last is
    checkpointed (the last takes what is left)."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve "
            "the current default behavior, you can pass use_reentrant=True. Refer to docs for "
            "more details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())

    def run(start, end):
        def forward(x):
            for fn in functions[start:end]:
                x = fn(x)
            return x
        return forward

    size = len(functions) // segments
    end = 0
    for start in range(0, size * (segments - 1), size):
        end = start + size
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end, len(functions))(input)
