"""A module's backward hooks (``Module.register_full_backward_hook`` and its pre-hook), as
torch runs them: the tensors among the module's inputs and among its outputs each pass through
one ``BackwardHookFunction`` node; the output node's hook receives ``grad_output`` (and runs the
pre-hooks, which may replace it), the input node's hook receives ``grad_input`` and calls the
user's hooks with both (they may replace ``grad_input``)::

    inputs ─► BackwardHookFunctionBackward ─► forward ─► BackwardHookFunctionBackward ─► ...
              (hook(module, grad_input,          (grad_output caught here,
               grad_output) here)                 pre-hooks run)

Arguments that are not tensors show as None in ``grad_input`` / ``grad_output``.  When no input
requires grad, the hooks run from the output node with ``grad_input`` all None (torch's warning).
"""

import warnings

import doctensor as torch

from ._functions import BackwardHookFunction

__all__ = ["BackwardHook", "call_non_full_hook"]

_NO_INPUT_GRAD = ("Full backward hook is firing when gradients are computed with respect to "
                  "module outputs since no inputs require gradients. See https://docs.pytorch.org/"
                  "docs/main/generated/torch.nn.Module.html#torch.nn.Module."
                  "register_full_backward_hook for more details.")


def _spread(where, values, size):
    """A tuple of ``size`` with ``values`` at the positions ``where``, None elsewhere."""
    out = [None] * size
    for i, v in zip(where, values):
        out[i] = v
    return tuple(out)


def _through_identity(args, on_node):
    """``args`` with its tensors passed through one BackwardHookFunction (``on_node`` gets its
    node), and the tensors' positions; ``args`` unchanged (positions None) when none requires
    grad or grad mode is off."""
    where = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
    if not (torch.is_grad_enabled() and any(args[i].requires_grad for i in where)):
        return args, None
    passed = BackwardHookFunction.apply(*[args[i] for i in where])
    on_node(next(t.grad_fn for t in passed if t.grad_fn is not None))
    out = list(args)
    for i, t in zip(where, passed):
        out[i] = t
    return tuple(out), where


class BackwardHook:
    """One call's full backward hooks and pre-hooks of ``module``."""

    def __init__(self, module, hooks, pre_hooks):
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs = None
        self.n_inputs = self.n_outputs = 0
        self.inputs_at = self.outputs_at = None

    def setup_input_hook(self, args):
        args, self.inputs_at = _through_identity(args, self._catch_inputs)
        self.n_inputs = len(args)
        return args

    def setup_output_hook(self, result):
        single = not isinstance(result, tuple)
        outs, self.outputs_at = _through_identity((result,) if single else result,
                                                  self._catch_outputs)
        self.n_outputs = len(outs)
        return outs[0] if single else outs

    def _catch_inputs(self, node):
        def hook(grad_inputs, _):
            if self.grad_outputs is None:  # (a gradient that reached the inputs another way)
                return None
            grads = _spread(self.inputs_at, grad_inputs, self.n_inputs)
            for user_hook in self.hooks:
                new = user_hook(self.module, grads, self.grad_outputs)
                if new is None:
                    continue
                if len(new) != len(grads):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                       f"got {len(new)}, but expected {len(grads)}")
                grads = new
            self.grad_outputs = None
            return tuple(grads[i] for i in self.inputs_at)
        node.register_hook(hook)

    def _catch_outputs(self, node):
        def hook(_, grad_outputs):
            self.grad_outputs = _spread(self.outputs_at, grad_outputs, self.n_outputs)
            for pre_hook in self.pre_hooks:
                new = pre_hook(self.module, self.grad_outputs)
                if new is None:
                    continue
                if len(new) != len(self.grad_outputs):
                    raise RuntimeError(f"Backward pre hook returned an invalid number of "
                                       f"grad_output, got {len(new)}, but expected "
                                       f"{len(self.grad_outputs)}")
                self.grad_outputs = new
            grads = self.grad_outputs
            if self.inputs_at is None:  # no input requires grad: the hooks run now
                warnings.warn(_NO_INPUT_GRAD, stacklevel=2)
                nothing = (None,) * self.n_inputs
                for user_hook in self.hooks:
                    new = user_hook(self.module, nothing, grads)
                    if new is not None and not (isinstance(new, tuple)
                                                and all(g is None for g in new)):
                        raise RuntimeError("Backward hook for Modules where no input requires "
                                           "gradient should always return None or None for "
                                           "all gradients.")
                self.grad_outputs = None
            return tuple(grads[i] for i in self.outputs_at)
        node.register_hook(hook)


def call_non_full_hook(module, hooks, args, result):
    """The deprecated ``register_backward_hook``: each hook on the node that made the (first)
    output, called as ``hook(module, its grad_inputs, its grad_outputs)``, with torch's
    FutureWarning where that node is not the module's whole forward."""
    first = result
    while not isinstance(first, torch.Tensor):
        first = next(v for v in first.values() if isinstance(v, torch.Tensor)) \
            if isinstance(first, dict) else first[0]
    node = first.grad_fn
    if node is None:
        return
    for hook in hooks:
        node.register_hook(lambda grad_inputs, grad_outputs, hook=hook:
                           hook(module, grad_inputs, grad_outputs))
    message = _non_full_warning(args, result, node)
    if message:
        warnings.warn(message, FutureWarning, stacklevel=3)


_NON_FULL = "Using a non-full backward hook "
_LATER = " is deprecated and will be removed in future versions. This hook will be missing some "
_USE_FULL = " Please use register_full_backward_hook to get the documented behavior."


def _non_full_warning(args, result, node):
    """torch's FutureWarning for a non-full backward hook that will miss gradients (None)."""
    def tensors(x):
        return (x,) if isinstance(x, torch.Tensor) else x if isinstance(x, tuple) and all(
            isinstance(t, torch.Tensor) for t in x) else None
    outs, ins = tensors(result), tensors(args)
    if outs is None:
        return ("Using non-full backward hooks on a Module that does not return a single Tensor "
                "or a tuple of Tensors" + _LATER + "of the grad_output." + _USE_FULL)
    if ins is None:
        return ("Using non-full backward hooks on a Module that does not take as input a single "
                "Tensor or a tuple of Tensors" + _LATER + "of the grad_input." + _USE_FULL)
    out_nodes = {t.grad_fn for t in outs if t.grad_fn is not None}
    if not out_nodes or len(out_nodes) == 1 and node not in out_nodes:
        return (_NON_FULL + "when outputs are nested in python data structure" + _LATER
                + "grad_output.")
    if len(out_nodes) > 1:
        return (_NON_FULL + "when outputs are generated by different autograd Nodes" + _LATER
                + "grad_output." + _USE_FULL)
    if {t.grad_fn for t in ins if t.grad_fn is not None} != {n for n, _ in node.next_functions}:
        return (_NON_FULL + "when the forward contains multiple autograd Nodes" + _LATER
                + "grad_input." + _USE_FULL)
    return None
