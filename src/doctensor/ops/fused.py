"""Records for torch's fused CPU kernels whose results doctensor composes of public ops.

Note [fused nodes]: torch runs some functions as one kernel with one backward node, where
doctensor computes the same values with a composition of ordinary ops (the Notes [RNN
composition] and [attention composition] say which and why).  A user inspecting the graph
sees torch's node, so each such kernel is a record here, with torch's name and inputs::

    inputs ──► detached leaves ──► compose, grad on ──► values + inner graph (on the node)
        └────► apply(record, *inputs, values=...) ──► outputs, grad_fn = the record's node

    backward:  autograd.grad(inner outputs, leaves, grads) ──► the inputs' gradients

The forward cannot run the composition itself (a forward is a pure array function, run
inside the dispatch's floating-point context, which doctensor ops would enter a second
time): ``run_fused`` runs it first and hands the record its arrays.  It runs it on detached
copies of the inputs that require grad (one leaf per position, so that one tensor given
twice, ``sdpa(x, x, x)``, gets each position's share once), with grad on, and keeps that
inner graph on the node: the backward is ``autograd.grad`` through it (retained: the node,
not the inner graph, is what a second backward finds released), so the gradients are
exactly the composition's and nothing runs twice.

With ``create_graph`` (the engine's grad mode) the backward recomputes instead: the
composition again, on views of the saved inputs, so that the graph of the gradients reaches
the inputs themselves and double backward keeps working.  Two differences from torch
remain: torch's flash attention backward has no derivative of its own (a second backward
raises there), and outputs torch's nodes keep for themselves (the LSTM layer's workspace,
the attention's logsumexp, the packed ``batch_sizes``) are not outputs of these records.
"""

from ..autograd.api import grad as autograd_grad
from ..autograd.forward_ad import LEVEL as DUAL
from ..autograd.grad_mode import GradMode, enable_grad
from ._dispatch import apply, needs_grad
from ._registry import declare

__all__ = ["run_fused", "lstm_layer_op", "sdpa_flash_op", "pack_padded_op"]


def _precomputed(xp, *arrays, values, compose, inner, **attrs):
    """A fused record's forward: the arrays ``run_fused`` computed (Note [fused nodes])."""
    return values if len(values) > 1 else values[0]


def _fused(name, grad_fn, inputs, outputs=None, saved_outputs=()):
    """A record for a fused kernel: every input saved (under create_graph the backward
    recomputes from them), and the outputs torch's node saves (checked, as torch's formula
    unpacks them)."""
    op = declare(name, grad_fn, inputs, outputs=outputs,
                 saves=dict.fromkeys(inputs + saved_outputs, inputs), layout="strided",
                 unsaved=("values", "compose", "inner"))(_precomputed)
    op.def_backward(_fused_backward)
    return op


def _fused_backward(ctx, grad):
    """The inputs' gradients through the inner graph, or by re-running the composition when
    the gradients need a graph (Note [fused nodes])."""
    grads = grad if ctx.multi else (grad,)
    inputs = [getattr(ctx, name) for name in ctx.op.inputs]
    for name, _, _ in ctx.op.save_outputs:
        getattr(ctx, name)  # an output edited in place since: torch's error
    wanted = [i for i, need in enumerate(ctx.needs_input_grad) if need]
    create_graph = GradMode.enabled
    if create_graph:
        with enable_grad():
            leaves = list(inputs)
            for i in wanted:
                leaves[i] = inputs[i].view_as(inputs[i])
            outs = ctx.compose(*leaves)
        outs = outs if isinstance(outs, tuple) else (outs,)
    else:
        outs, leaves = ctx.inner
    pairs = [(o, g) for o, g in zip(outs, grads) if g is not None and o.requires_grad]
    result = [None] * len(inputs)
    if pairs:
        found = autograd_grad([o for o, _ in pairs], [leaves[i] for i in wanted],
                              [g for _, g in pairs], retain_graph=True,
                              create_graph=create_graph, allow_unused=True)
        for i, g in zip(wanted, found):
            result[i] = g
    return tuple(result)


def run_fused(op, compose, inputs, **attrs):
    """``compose(*inputs)`` (a tensor or a tuple) with ``op``'s node as the outputs' grad_fn
    when an input requires grad in grad mode (Note [fused nodes]); ``attrs``: what the node
    shows as ``_saved_<name>``."""
    if DUAL.on or not needs_grad(inputs):
        return compose(*inputs)  # (forward AD follows the composition's own ops)
    leaves = [t.detach().requires_grad_() if getattr(t, "requires_grad", False) else t
              for t in inputs]
    outs = compose(*leaves)
    values = outs if isinstance(outs, tuple) else (outs,)
    return apply(op, *inputs, values=tuple(t._data for t in values), compose=compose,
                 inner=(values, leaves), **attrs)


# torch's mkldnn_rnn_layer: one LSTM layer and direction (output, h_T, c_T); torch's fourth
# output, oneDNN's workspace, has no counterpart here
lstm_layer_op = _fused("mkldnn_rnn_layer", "MkldnnRnnLayerBackward0",
                       ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"),
                       outputs=("result0", "result1", "result2"),
                       saved_outputs=("result0", "result1", "result2"))

# torch's _scaled_dot_product_flash_attention_for_cpu (its logsumexp output is not kept)
sdpa_flash_op = _fused("_scaled_dot_product_flash_attention_for_cpu",
                       "ScaledDotProductFlashAttentionForCpuBackward0",
                       ("query", "key", "value"), outputs=("output",),
                       saved_outputs=("output",))

# torch's _pack_padded_sequence (its batch_sizes output is computed apart, on the CPU)
pack_padded_op = _fused("_pack_padded_sequence", "PackPaddedSequenceBackward0", ("input",))
