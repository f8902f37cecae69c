"""Records for torch's fused CPU kernels whose results doctensor composes of public ops.

Note [fused nodes]: torch runs some functions as one kernel with one backward node, where
doctensor computes the same values with a composition of ordinary ops (the Notes [RNN
composition] and [attention composition] say which and why).  A user inspecting the graph
sees torch's node, so each such kernel is a record here, with torch's name and inputs::

    inputs ──► detached leaves ──► compose, grad on ──► values + inner graph (on the node)
        └────► apply(record, *inputs, values=...) ──► outputs, grad_fn = the record's node

    backward:  autograd.grad(inner outputs, leaves, grads) ──► the inputs' gradients

(A record may instead come with a hand-written NumPy forward and backward that compute the
same values, and gradients equal to rounding, without an inner graph: Note [LSTM by hand].)

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

from functools import partial

import numpy as np

from ..autograd.api import grad as autograd_grad
from ..autograd.forward_ad import LEVEL as DUAL
from ..autograd.grad_mode import GradMode, enable_grad
from ._dispatch import QUIET, apply, needs_grad
from ._registry import declare
from .creation import from_array

__all__ = ["run_fused", "lstm_layer_op", "lstm_layer_by_hand", "sdpa_flash_op",
           "pack_padded_op"]


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
    """The inputs' gradients: ``ctx.inner``'s (through the kept inner graph, or by hand), or
    by re-running the composition when the gradients need a graph (Note [fused nodes])."""
    grads = grad if ctx.multi else (grad,)
    inputs = [getattr(ctx, name) for name in ctx.op.inputs]
    for name, _, _ in ctx.op.save_outputs:
        getattr(ctx, name)  # an output edited in place since: torch's error
    wanted = [i for i, need in enumerate(ctx.needs_input_grad) if need]
    if not GradMode.enabled:
        return ctx.inner(grads, wanted)
    with enable_grad():  # create_graph
        leaves = list(inputs)
        for i in wanted:
            leaves[i] = inputs[i].view_as(inputs[i])
        outs = ctx.compose(*leaves)
    return _through(outs if isinstance(outs, tuple) else (outs,), leaves, grads, wanted, True)


def _through(outs, leaves, grads, wanted, create_graph=False):
    """The gradients of the ``wanted`` leaves through a composition's graph."""
    pairs = [(o, g) for o, g in zip(outs, grads) if g is not None and o.requires_grad]
    result = [None] * len(leaves)
    if pairs:
        found = autograd_grad([o for o, _ in pairs], [leaves[i] for i in wanted],
                              [g for _, g in pairs], retain_graph=True,
                              create_graph=create_graph, allow_unused=True)
        for i, g in zip(wanted, found):
            result[i] = g
    return tuple(result)


def run_fused(op, compose, inputs, by_hand=None, **attrs):
    """``compose(*inputs)`` (a tensor or a tuple) with ``op``'s node as the outputs' grad_fn
    when an input requires grad in grad mode (Note [fused nodes]); ``attrs``: what the node
    shows as ``_saved_<name>``.  ``by_hand(*arrays)``, where given, computes the same values
    from the inputs' arrays and returns them with a function of (output gradients, wanted
    positions) giving the inputs' gradients (arrays, None where not wanted): it replaces the
    inner graph (Note [LSTM by hand])."""
    if DUAL.on or not needs_grad(inputs):
        return compose(*inputs)  # (forward AD follows the composition's own ops)
    if by_hand is not None:
        values, backward = QUIET.run(by_hand, *(getattr(t, "_data", None) for t in inputs))
        inner = partial(_by_hand, backward, inputs[0])
    else:
        leaves = [t.detach().requires_grad_() if getattr(t, "requires_grad", False) else t
                  for t in inputs]
        outs = compose(*leaves)
        outs = outs if isinstance(outs, tuple) else (outs,)
        values = tuple(t._data for t in outs)
        inner = partial(_through, outs, leaves)
    return apply(op, *inputs, values=values, compose=compose, inner=inner, **attrs)


def _by_hand(backward, like, grads, wanted):
    """A hand-written backward's arrays as gradient tensors."""
    found = QUIET.run(backward, [None if g is None else g._data for g in grads], wanted)
    return tuple(None if g is None else from_array(g, like) for g in found)


# torch's mkldnn_rnn_layer: one LSTM layer and direction (output, h_T, c_T); torch's fourth
# output, oneDNN's workspace, has no counterpart here
lstm_layer_op = _fused("mkldnn_rnn_layer", "MkldnnRnnLayerBackward0",
                       ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"),
                       outputs=("result0", "result1", "result2"),
                       saved_outputs=("result0", "result1", "result2"))

# Note [LSTM by hand]: in float32 the layer's values and gradients are computed on NumPy
# arrays, not through an inner graph of ~10 doctensor ops per time step (whose Python
# overhead was the cost).  The forward is the composition's arithmetic (``_run_full`` over
# ``_lstm_step`` in nn/modules/rnn.py) op for op, in its order, so its values are the
# composition's bit for bit::
#
#     xw    = x @ W_ih^T + b_ih                        (all steps in one GEMM)
#     gates = (h @ W_hh^T + b_hh) + xw[t]              (step by step, reversed for reverse)
#     i, f, o = 1 / (1 + exp(-gate)),  g = tanh(gate)  (exp, tanh in float64, rounded once:
#     c = f * c + i * g,  h = o * tanh(c)               Note [float32 transcendentals])
#
# keeping the activations (in the buffer of xw) and every h, c and tanh(c).  The backward
# is the LSTM's backward through time, the steps in reverse order; dh, dc: what reaches h
# and c from later steps and from the outputs' gradients::
#
#     dc += dh * o * (1 - tanh(c)^2)
#     D[t] = [dc * g * i(1-i),  dc * c_prev * f(1-f),  dc * i * (1-g^2),  dh * tanh(c) * o(1-o)]
#     dh = D[t] @ W_hh,  dc = dc * f                    (to the step before)
#
# then one GEMM over all steps per weight: dW_ih = D^T X, dW_hh = D^T H_prev, db = the
# column sums of D, dx = D W_ih.  D[t] overwrites step t's activations (no second buffer of
# that size): a later backward through the same node (retain_graph) runs the forward again.
# It sums in other orders than the composition's graph (and than torch's oneDNN kernel):
# the gradients agree to rounding.  Under create_graph the node still recomposes (Note
# [fused nodes]).

def lstm_layer_by_hand(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse=False):
    """One LSTM layer and direction on float32 arrays, ``steps > 0`` (Note [LSTM by hand]):
    ((output, h_T, c_T), the backward for ``run_fused``)."""
    inputs = (x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse)
    kept, (h, c) = _lstm_forward(*inputs)
    return (kept[1], h.copy(), c.copy()), partial(_lstm_backward, inputs, [kept])


def _lstm_forward(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse):
    """The steps: ((activations, output, c0 and every c, every tanh(c)), (h_T, c_T))."""
    steps, batch = x.shape[:2]
    size = w_hh.shape[1]
    acts = np.matmul(x.reshape(steps * batch, x.shape[2]), w_ih.T)
    if b_ih is not None:
        acts += b_ih
    acts = acts.reshape(steps, batch, 4 * size)  # xw, each step's replaced by its activations
    out = np.empty((steps, batch, size), np.float32)  # every h
    cs = np.empty((steps + 1, batch, size), np.float32)  # the c before step t: cs[t + reverse]
    tanh_c = np.empty_like(out)
    cs[steps if reverse else 0] = c0
    h, c = h0, cs[steps if reverse else 0]
    for t in range(steps - 1, -1, -1) if reverse else range(steps):
        after = t if reverse else t + 1
        _lstm_step(h, c, w_hh, b_hh, acts[t], out[t], cs[after], tanh_c[t])
        h, c = out[t], cs[after]
    return (acts, out, cs, tanh_c), (h, c)


def _lstm_step(h, c, w_hh, b_hh, act, h_out, c_out, tanh_c):
    """One step of the composition (``F.linear``, ``chunk``, ``sigmoid``, ``tanh``): ``act``
    holds the input's share of the gates and takes their activations; into ``h_out``,
    ``c_out`` and ``tanh_c`` (float64 results cast as they are written)."""
    gates = np.matmul(h, w_hh.T)
    if b_hh is not None:
        gates += b_hh
    gates += act
    size = h_out.shape[1]
    np.exp(np.negative(gates, dtype=np.float64), out=act)  # sigmoid: 1 / (1 + exp(-x))
    act += 1
    np.divide(1, act, out=act)
    g = slice(2 * size, 3 * size)
    np.tanh(gates[:, g], out=act[:, g], dtype=np.float64)
    np.multiply(act[:, size:g.start], c, out=c_out)
    c_out += act[:, :size] * act[:, g]
    np.tanh(c_out, out=tanh_c, dtype=np.float64)
    np.multiply(act[:, g.stop:], tanh_c, out=h_out)


def _lstm_backward(inputs, kept, grads, wanted):
    """The gradients of (input, W_ih, W_hh, b_ih, b_hh, h0, c0), None where not ``wanted``,
    from those of (output, h_T, c_T) (Note [LSTM by hand])."""
    x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse = inputs
    acts, out, cs, tanh_c = kept.pop() if kept else _lstm_forward(*inputs)[0]
    steps, batch, size = out.shape
    g_out, g_h, g_c = grads
    d = acts.reshape(steps, batch, 4, size)  # step by step, the gates' gradients replace them
    c_prev = cs[1:] if reverse else cs[:-1]
    dh = np.zeros((batch, size), np.float32) if g_h is None else g_h
    dc = np.zeros((batch, size), np.float32) if g_c is None else g_c
    times = range(steps) if reverse else range(steps - 1, -1, -1)
    for t in times:
        i, f, g, o = d[t, :, 0], d[t, :, 1], d[t, :, 2], d[t, :, 3]
        tc = tanh_c[t]
        if g_out is not None:
            dh = dh + g_out[t]
        dc = dc + dh * o * (1 - tc * tc)
        by = np.empty((batch, 4, size), np.float32)  # [dc g, dc c_prev, dc i, dh tanh(c)]
        np.multiply(dc, g, out=by[:, 0])
        np.multiply(dc, c_prev[t], out=by[:, 1])
        np.multiply(dc, i, out=by[:, 2])
        np.multiply(dh, tc, out=by[:, 3])
        slope = np.subtract(1, d[t])  # sigmoid': s (1 - s); tanh': 1 - g^2
        slope *= d[t]
        slope[:, 2] = 1 - g * g
        dc = dc * f
        np.multiply(slope, by, out=d[t])
        if t != times[-1] or 5 in wanted:  # (after the first step: h0's gradient)
            dh = np.matmul(d[t].reshape(batch, 4 * size), w_hh)
    d = d.reshape(steps * batch, 4 * size)
    db = d.sum(0) if 3 in wanted or 4 in wanted else None
    grads = {0: lambda: np.matmul(d, w_ih).reshape(x.shape),
             1: lambda: np.matmul(d.T, x.reshape(steps * batch, x.shape[2])),
             2: lambda: _dw_hh(d.reshape(steps, batch, 4 * size), out, h0, reverse),
             3: lambda: db, 4: lambda: db.copy(), 5: lambda: dh, 6: lambda: dc}
    return [grads[k]() if k in wanted else None for k in range(7)]


def _dw_hh(d, out, h0, reverse):
    """W_hh's gradient: the sum over the steps of ``d[t]^T h``, with h the state each step
    read: h0 for the first step, for the others the output of the step before."""
    first, later, before = (-1, slice(None, -1), slice(1, None)) if reverse else \
        (0, slice(1, None), slice(None, -1))
    grad = np.matmul(d[later].reshape(-1, d.shape[2]).T, out[before].reshape(-1, h0.shape[1]))
    grad += np.matmul(d[first].T, h0)
    return grad


# torch's _scaled_dot_product_flash_attention_for_cpu (its logsumexp output is not kept)
sdpa_flash_op = _fused("_scaled_dot_product_flash_attention_for_cpu",
                       "ScaledDotProductFlashAttentionForCpuBackward0",
                       ("query", "key", "value"), outputs=("output",),
                       saved_outputs=("output",))

# torch's _pack_padded_sequence (its batch_sizes output is computed apart, on the CPU)
pack_padded_op = _fused("_pack_padded_sequence", "PackPaddedSequenceBackward0", ("input",))
