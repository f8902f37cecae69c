"""The nodes of torch's fused CPU kernels against torch 2.13 (Note [fused nodes] in
``ops/fused.py``): the oneDNN LSTM layer (MkldnnRnnLayerBackward0), the CPU flash attention
(ScaledDotProductFlashAttentionForCpuBackward0) and ``_pack_padded_sequence``
(PackPaddedSequenceBackward0): where torch takes them, the graph a user can walk (names,
next_functions, output_nr), the saved attrs, gradients, and the errors after backward.

Values and gradients are compared to ``_oracle.tol`` (torch's kernels sum in other orders).
"""

import numpy as np
import pytest
from _oracle import same_outcome, tol

SEQ, BATCH, IN, HIDDEN = 5, 3, 4, 6


def _close(dtype):
    rtol, atol = tol(dtype)
    return {"rtol": rtol, "atol": atol, "reprs": False}


def _tensor(T, shape, dtype, seed, requires_grad=False):
    values = np.random.default_rng(seed).standard_normal(shape)
    return T.tensor(values, dtype=getattr(T, dtype), requires_grad=requires_grad)


def _graph(fn, depth=3):
    """A node as a user walks it: its name and, ``depth`` levels down, its next_functions
    (each edge: the node's graph or None, and its output_nr)."""
    if fn is None:
        return None
    name = type(fn).__name__
    if depth == 0 or name == "AccumulateGrad":
        return name
    return name, [(_graph(f, depth - 1), nr) for f, nr in fn.next_functions]


def _shown(*tensors, depth=3):
    """What a user sees of results: the graph under each, output_nr, requires_grad."""
    return [(_graph(t.grad_fn, depth), t.output_nr, t.requires_grad, t.is_leaf)
            for t in tensors]


# -- the oneDNN LSTM layer ----------------------------------------------------------------------

LSTM_CASES = {
    "default": ({}, {}),
    "2-layers": ({"num_layers": 2}, {}),
    "no-bias": ({"bias": False}, {}),
    "dropout": ({"num_layers": 3, "dropout": 0.5}, {}),
    "dropout-eval": ({"num_layers": 2, "dropout": 0.5}, {"eval": True}),
    "batch-first": ({"batch_first": True}, {}),
    "bidirectional": ({"num_layers": 2, "bidirectional": True}, {}),
    "unbatched": ({"num_layers": 2}, {"unbatched": True}),
    "x-without-grad": ({}, {"x_grad": False}),
    "h0-given": ({"num_layers": 2}, {"h0": True}),
    "params-frozen": ({}, {"frozen": True}),
    "proj": ({"proj_size": 2}, {}),
    # (no oneDNN: the composed cell, whose gates torch splits with unsafe_chunk, which
    # doctensor has not: compared above the split)
    "float64": ({}, {"dtype": "float64", "depth": 2}),
    "empty-batch": ({}, {"batch": 0, "depth": 2}),
    "gru": ({"num_layers": 2}, {"cls": "GRU"}),
}


def _lstm_run(T, kw, opts, dtype):
    T.manual_seed(0)
    m = getattr(T.nn, opts.get("cls", "LSTM"))(IN, HIDDEN, **kw).to(getattr(T, dtype))
    if opts.get("eval"):
        m.eval()
    if opts.get("frozen"):
        m.requires_grad_(False)
    batch = opts.get("batch", BATCH)
    shape = (SEQ, IN) if opts.get("unbatched") else \
        (batch, SEQ, IN) if kw.get("batch_first") else (SEQ, batch, IN)
    x = _tensor(T, shape, dtype, 1, opts.get("x_grad", True))
    hx = None
    if opts.get("h0"):
        layers = kw.get("num_layers", 1)
        hx = tuple(_tensor(T, (layers, batch, HIDDEN), dtype, s, True) for s in (2, 3))
    out, h = m(x, hx)
    return m, x, hx, out, h if isinstance(h, tuple) else (h,)


@pytest.mark.parametrize("case", list(LSTM_CASES))
def test_lstm_graph(case):
    kw, opts = LSTM_CASES[case]
    dtype = opts.get("dtype", "float32")

    def fn(T):
        _, _, _, out, states = _lstm_run(T, kw, opts, dtype)
        return _shown(out, *states, depth=opts.get("depth", 3))
    same_outcome(fn)


@pytest.mark.parametrize("case", ["default", "2-layers", "no-bias", "dropout", "batch-first",
                                  "bidirectional", "unbatched", "h0-given", "x-without-grad"])
def test_lstm_values_and_gradients(case):
    """The seeded dropout draws, values and every gradient, through the fused nodes."""
    kw, opts = LSTM_CASES[case]

    def fn(T):
        m, x, hx, out, states = _lstm_run(T, kw, opts, "float32")
        loss = (out * _tensor(T, out.shape, "float32", 4)).sum()
        for k, t in enumerate(states):
            loss = loss + (t * _tensor(T, t.shape, "float32", 5 + k)).sum()
        loss.backward()
        return (out.detach(), [t.detach() for t in states], x.grad,
                [t.grad for t in hx or ()], [(n, p.grad) for n, p in m.named_parameters()])
    same_outcome(fn, **_close("float32"))


def _after_backward(out, node, name):
    """The errors of a second backward through ``out`` and of reading ``node``'s saved
    ``name`` after a first one (torch's "Trying to backward through the graph a second
    time")."""
    out.sum().backward()
    errors = []
    for action in (lambda: out.sum().backward(), lambda: getattr(node, f"_saved_{name}")):
        try:
            action()
        except RuntimeError as e:
            errors.append(str(e))
    return errors


def test_lstm_saved_attrs_and_second_backward():
    def fn(T):
        _, x, _, out, _ = _lstm_run(T, {"num_layers": 2, "batch_first": True}, {}, "float32")
        node = out.grad_fn.next_functions[0][0]
        attrs = [getattr(node, f"_saved_{name}") for name in (
            "reverse", "hidden_size", "num_layers", "train", "has_biases", "bidirectional",
            "batch_first", "mode", "batch_sizes")]
        saved = [node._saved_input, node._saved_weight0, node._saved_hx_, node._saved_result0,
                 node._saved_result2]
        return attrs, saved, _after_backward(out, node, "input")
    same_outcome(fn, **_close("float32"))


def test_lstm_double_backward():
    def fn(T):
        _, x, _, out, _ = _lstm_run(T, {"num_layers": 2}, {}, "float32")
        (gx,) = T.autograd.grad((out * out).sum(), x, create_graph=True)
        gx.pow(2).sum().backward()
        return gx.detach(), x.grad
    same_outcome(fn, rtol=1e-5, atol=1e-5, reprs=False)


def test_lstm_input_modified_in_place():
    def fn(T):
        T.manual_seed(0)
        m = T.nn.LSTM(IN, HIDDEN)
        x = _tensor(T, (SEQ, BATCH, IN), "float32", 1, True) * 1
        out, _ = m(x)
        x.add_(1)
        out.sum().backward()
    same_outcome(fn)


# -- scaled_dot_product_attention's CPU flash kernel --------------------------------------------

SDPA_CASES = {
    "4d": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {}),
    "bool-mask": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {"mask": ("bool", (4, 5))}),
    "float-mask-4d": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8),
                      {"mask": ("float", (2, 1, 4, 5))}),
    "float-mask-3d": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {"mask": ("float", (3, 4, 5))}),
    "mask-requires-grad": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8),
                           {"mask": ("float", (4, 5)), "mask_grad": True}),
    "causal": ((1, 2, 6, 4), (1, 2, 3, 4), (1, 2, 3, 4), {"is_causal": True}),
    "scale": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {"scale": -0.3}),
    "gqa": ((2, 4, 4, 8), (2, 2, 5, 8), (2, 2, 5, 8), {"enable_gqa": True}),
    "gqa-uneven-kv": ((2, 4, 4, 8), (2, 2, 5, 8), (2, 1, 5, 8), {"enable_gqa": True}),
    "float64": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {"dtype": "float64"}),
    "key-only-grad": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {"grad": (False, True, False)}),
    "no-grad": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {"grad": (False, False, False)}),
    "transposed": ((2, 4, 3, 8), (2, 5, 3, 8), (2, 5, 3, 8), {"transpose": (1, 2)}),
    "last-dim-strided": ((2, 3, 8, 4), (2, 3, 8, 5), (2, 3, 5, 8), {"transpose": (-1, -2)}),
    "value-head-size": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 6), {}),
    "batch-broadcast": ((2, 3, 4, 8), (1, 3, 5, 8), (1, 3, 5, 8), {}),
    "dropout": ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8), {"dropout_p": 0.3}),
    "5d": ((2, 2, 3, 4, 8), (2, 2, 3, 5, 8), (2, 2, 3, 5, 8), {}),
    "3d": ((3, 4, 6), (3, 5, 6), (3, 5, 6), {}),
}


def _sdpa_run(T, case):
    q_shape, k_shape, v_shape, spec = SDPA_CASES[case]
    dtype = spec.get("dtype", "float32")
    grads = spec.get("grad", (True, True, True))
    leaves = [_tensor(T, s, dtype, seed, g) for s, seed, g in zip(
        (q_shape, k_shape, v_shape), (1, 2, 3), grads)]
    q, k, v = leaves
    if "transpose" in spec:
        dims = spec["transpose"]
        q, k = q.transpose(*dims), k.transpose(*dims)
        v = v if case == "last-dim-strided" else v.transpose(*dims)
    kw = {key: spec[key] for key in ("is_causal", "scale", "enable_gqa", "dropout_p")
          if key in spec}
    if "mask" in spec:
        kind, shape = spec["mask"]
        kw["attn_mask"] = _tensor(T, shape, dtype, 4) > 0 if kind == "bool" else \
            _tensor(T, shape, dtype, 4, spec.get("mask_grad", False))
    T.manual_seed(0)
    return leaves, T.nn.functional.scaled_dot_product_attention(q, k, v, **kw)


@pytest.mark.parametrize("case", list(SDPA_CASES))
def test_sdpa_graph(case):
    def fn(T):
        _, out = _sdpa_run(T, case)
        return _shown(out), out.stride()
    same_outcome(fn)


@pytest.mark.parametrize("case", ["4d", "bool-mask", "float-mask-4d", "causal", "scale", "gqa",
                                  "float64", "key-only-grad", "transposed"])
def test_sdpa_values_and_gradients(case):
    dtype = SDPA_CASES[case][3].get("dtype", "float32")

    def fn(T):
        leaves, out = _sdpa_run(T, case)
        (out * _tensor(T, out.shape, dtype, 5)).sum().backward()
        return out.detach(), [t.grad for t in leaves]
    same_outcome(fn, **_close(dtype))


def test_sdpa_one_tensor_three_times():
    """Self-attention on one tensor: its gradient is the sum of the three positions'."""
    def fn(T):
        x = _tensor(T, (2, 3, 4, 8), "float32", 1, True)
        out = T.nn.functional.scaled_dot_product_attention(x, x, x)
        (out * _tensor(T, out.shape, "float32", 5)).sum().backward()
        return _shown(out), x.grad
    same_outcome(fn, **_close("float32"))


def test_sdpa_saved_attrs_and_second_backward():
    def fn(T):
        _, out = _sdpa_run(T, "causal")
        node = out.grad_fn
        attrs = [node._saved_dropout_p, node._saved_is_causal, node._saved_scale]
        saved = [node._saved_query, node._saved_key, node._saved_value, node._saved_output]
        return attrs, saved, _after_backward(out, node, "query")
    same_outcome(fn, **_close("float32"))


def test_sdpa_input_modified_in_place():
    def fn(T):
        q = _tensor(T, (2, 3, 4, 8), "float32", 1, True) * 1
        k, v = (_tensor(T, (2, 3, 5, 8), "float32", s, True) for s in (2, 3))
        out = T.nn.functional.scaled_dot_product_attention(q, k, v)
        q.mul_(2)
        out.sum().backward()
    same_outcome(fn)


@pytest.mark.xfail(strict=True, reason="torch's flash attention backward has no derivative "
                   "(a second backward raises); doctensor's node recomputes its composition "
                   "and differentiates it twice (Note [fused nodes])")
def test_sdpa_double_backward():
    def fn(T):
        q, k, v = (_tensor(T, (1, 1, 3, 4), "float64", s, True) for s in (1, 2, 3))
        out = T.nn.functional.scaled_dot_product_attention(q, k, v)
        (gq,) = T.autograd.grad(out.sum(), q, create_graph=True)
        gq.sum().backward()
        return q.grad
    same_outcome(fn, **_close("float64"))


# -- _pack_padded_sequence ----------------------------------------------------------------------

PACK_CASES = {
    "sorted": ((5, 3, 2), [5, 3, 2], {}),
    "equal-lengths": ((4, 2, 1), [4, 4], {}),
    "unsorted": ((5, 3, 2), [2, 5, 3], {"enforce_sorted": False}),
    "batch-first": ((3, 5, 2), [5, 3, 1], {"batch_first": True}),
    "float64-1d-features": ((4, 3), [4, 2, 1], {"dtype": "float64"}),
}


def _pack_run(T, case, requires_grad=True):
    shape, lengths, kw = PACK_CASES[case]
    kw = dict(kw)
    x = _tensor(T, shape, kw.pop("dtype", "float32"), 1, requires_grad)
    return x, T.nn.utils.rnn.pack_padded_sequence(x, lengths, **kw)


@pytest.mark.parametrize("case", list(PACK_CASES))
def test_pack_graph_and_gradient(case):
    def fn(T):
        x, packed = _pack_run(T, case)
        # (depth 1: doctensor's IndexSelectBackward0 has an edge for the index, torch's none)
        shown = _shown(packed.data, depth=1)
        node = packed.data.grad_fn
        saved = node._saved_batch_first, node._saved_input_sym_sizes
        (packed.data * _tensor(T, packed.data.shape, str(x.dtype)[6:], 2)).sum().backward()
        return shown, saved, packed.data.detach(), packed.batch_sizes, x.grad
    same_outcome(fn)


def test_pack_without_grad_and_second_backward():
    def fn(T):
        _, plain = _pack_run(T, "sorted", requires_grad=False)
        _, packed = _pack_run(T, "sorted")
        packed.data.sum().backward()
        try:
            packed.data.sum().backward()
        except RuntimeError as e:
            return _shown(plain.data), str(e)
    same_outcome(fn)


def test_pack_double_backward():
    def fn(T):
        x, packed = _pack_run(T, "unsorted")
        (gx,) = T.autograd.grad(packed.data.pow(2).sum(), x, create_graph=True)
        gx.pow(2).sum().backward()
        return gx.detach(), x.grad
    same_outcome(fn)


@pytest.mark.parametrize("which", ["output", "h_n", "c_n", "sdpa"])
def test_saved_output_modified_in_place(which):
    """torch's fused nodes save their outputs: editing one in place breaks backward (the
    states h_n and c_n are stacked copies, free to edit)."""
    def fn(T):
        if which == "sdpa":
            q = _tensor(T, (2, 3, 4, 8), "float32", 1, True)
            out = T.nn.functional.scaled_dot_product_attention(q, q, q)
            loss = out.add_(1).sum()
        else:
            T.manual_seed(0)
            out, (h, c) = T.nn.LSTM(IN, HIDDEN)(_tensor(T, (SEQ, BATCH, IN), "float32", 1, True))
            {"output": out, "h_n": h, "c_n": c}[which].add_(1)
            loss = out.sum() + h.sum() + c.sum()
        loss.backward()
        return loss
    same_outcome(fn, **_close("float32"))


def test_sdpa_saved_masks():
    def fn(T):
        q, k, v = (_tensor(T, (2, 3, 4, 8), "float32", s, True) for s in (1, 2, 3))
        masks = [_tensor(T, (4, 4), "float32", 4) > 0, _tensor(T, (2, 1, 4, 4), "float32", 5)]
        nodes = [T.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m).grad_fn
                 for m in masks]
        causal = T.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return [n._saved_attn_mask for n in nodes], causal.grad_fn._saved_attn_mask
    same_outcome(fn)
