"""F.scaled_dot_product_attention, nn.MultiheadAttention and the nn.Transformer family
against torch 2.13.

Tolerance: torch's CPU kernels multiply with BLAS and, for 4-d attention without dropout,
run a fused (flash) kernel that sums in blocks with an online softmax; doctensor composes
torch's math path (Note [attention composition] in nn/functional.py). Values and gradients
therefore agree to rounding, compared to ``CLOSE`` (float32: rtol 1e-5, atol 1e-5; float64:
rtol 1e-10, atol 1e-10), not bit for bit. Seeded initialisation, dropout masks, shapes,
strides, dtypes, grad_fn names, reprs, warnings and error messages are compared exactly.
"""

import warnings

import numpy as np
import pytest
from _oracle import same_outcome

EXACT = {"rtol": 0, "atol": 0}


def close(dtype):
    """(printed values may differ in the last digit: reprs are not compared)"""
    tight = dtype == "float64"
    return {"rtol": 1e-10 if tight else 1e-5, "atol": 1e-10 if tight else 1e-5, "reprs": False}


def _tensor(T, shape, dtype, seed, requires_grad=False):
    values = np.random.default_rng(seed).standard_normal(shape)
    return T.tensor(values, dtype=getattr(T, dtype), requires_grad=requires_grad)


def _bool(T, shape, seed, p=0.7):
    return T.tensor(np.random.default_rng(seed).random(shape) < p)


def _grad_fn(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__


# -- scaled_dot_product_attention ---------------------------------------------------------------

SDPA_CASES = {
    "4d": ((2, 3, 4, 8), (2, 3, 5, 8), {}),
    "4d-bool-mask": ((2, 3, 4, 8), (2, 3, 5, 8), {"mask": ("bool", (4, 5))}),
    "4d-float-mask": ((2, 3, 4, 8), (2, 3, 5, 8), {"mask": ("float", (2, 1, 4, 5))}),
    "4d-causal": ((2, 3, 5, 8), (2, 3, 5, 8), {"is_causal": True}),
    "4d-causal-L<S": ((1, 2, 3, 4), (1, 2, 6, 4), {"is_causal": True}),
    "4d-causal-L>S": ((1, 2, 6, 4), (1, 2, 3, 4), {"is_causal": True}),
    "4d-scale": ((2, 3, 4, 8), (2, 3, 5, 8), {"scale": 0.3}),
    "4d-negative-scale": ((2, 3, 4, 8), (2, 3, 5, 8), {"scale": -0.7}),
    "4d-gqa": ((2, 4, 4, 8), (2, 2, 5, 8), {"enable_gqa": True}),
    "3d": ((3, 4, 6), (3, 5, 6), {}),
    "3d-bool-mask": ((3, 4, 6), (3, 5, 6), {"mask": ("bool", (3, 4, 5))}),
    "3d-causal": ((3, 4, 6), (3, 4, 6), {"is_causal": True}),
    "3d-gqa": ((4, 4, 6), (2, 5, 6), {"enable_gqa": True}),
    "2d-float-mask": ((4, 6), (5, 6), {"mask": ("float", (4, 5))}),
}


def _sdpa_inputs(T, q_shape, kv_shape, dtype, spec):
    q = _tensor(T, q_shape, dtype, 1, True)
    k = _tensor(T, kv_shape, dtype, 2, True)
    v = _tensor(T, kv_shape, dtype, 3, True)
    kw = {key: spec[key] for key in ("is_causal", "scale", "enable_gqa") if key in spec}
    if "mask" in spec:
        kind, shape = spec["mask"]
        kw["attn_mask"] = _bool(T, shape, 4) if kind == "bool" else _tensor(T, shape, dtype, 4)
    return q, k, v, kw


def _sdpa_scenario(case, dtype, dropout_p=0.0):
    q_shape, kv_shape, spec = SDPA_CASES[case]

    def fn(T):
        q, k, v, kw = _sdpa_inputs(T, q_shape, kv_shape, dtype, spec)
        T.manual_seed(0)
        out = T.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p, **kw)
        (out * _tensor(T, out.shape, dtype, 5)).sum().backward()
        return out.detach(), q.grad, k.grad, v.grad
    return fn


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", list(SDPA_CASES))
def test_sdpa_values_and_gradients(case, dtype):
    same_outcome(_sdpa_scenario(case, dtype), **close(dtype))


@pytest.mark.parametrize("case", ["4d", "4d-bool-mask", "3d", "3d-causal", "2d-float-mask"])
def test_sdpa_dropout(case):
    """dropout_p > 0 runs torch's math path on the CPU: the same seed drops the same
    weights."""
    same_outcome(_sdpa_scenario(case, "float64", dropout_p=0.4), **close("float64"))


SDPA_NAME_CASES = [pytest.param(case, p, id=f"{case}-p{p}")
                   for case in ("4d", "4d-causal", "3d", "3d-bool-mask", "2d-float-mask")
                   for p in (0, 0.3)]


@pytest.mark.parametrize(("case", "dropout_p"), SDPA_NAME_CASES)
def test_sdpa_grad_fn_name(case, dropout_p):
    q_shape, kv_shape, spec = SDPA_CASES[case]

    def fn(T):
        q, k, v, kw = _sdpa_inputs(T, q_shape, kv_shape, "float32", spec)
        out = T.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p, **kw)
        return _grad_fn(out), out.shape, out.stride()
    same_outcome(fn)


def test_sdpa_fully_masked_rows_give_zeros():
    def fn(T):
        q, k, v = (_tensor(T, (1, 2, 3, 4), "float32", s, True) for s in (1, 2, 3))
        mask = T.ones(3, 5 - 2, dtype=T.bool)
        mask[1] = False
        out = T.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out.sum().backward()
        return out.detach(), q.grad, k.grad, v.grad
    same_outcome(fn, **close("float32"))


def test_sdpa_no_grad():
    def fn(T):
        q, k, v = (_tensor(T, (2, 2, 3, 4), "float64", s) for s in (1, 2, 3))
        return T.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    same_outcome(fn, **close("float64"))


SDPA_ERRORS = {
    "dtypes": lambda T, q, k, v: (q, k.double(), v, {}),
    "mask-dtype": lambda T, q, k, v: (q, k, v, {"attn_mask": T.ones(4, 5, dtype=T.long)}),
    "mask-double": lambda T, q, k, v: (q, k, v, {"attn_mask": T.ones(4, 5).double()}),
    "1-d": lambda T, q, k, v: (q[0, 0, 0], k[0, 0, 0], v[0, 0, 0], {}),
    "dropout-p": lambda T, q, k, v: (q, k, v, {"dropout_p": 1.5}),
    "gqa-heads": lambda T, q, k, v: (q[:, :3], k[:, :2], v[:, :2], {"enable_gqa": True}),
    "causal-and-mask-3d": lambda T, q, k, v: (q[0], k[0], v[0], {
        "is_causal": True, "attn_mask": T.ones(4, 5, dtype=T.bool)}),
    "mask-shape": lambda T, q, k, v: (q[0], k[0], v[0], {"attn_mask": T.ones(3, 5)}),
}


@pytest.mark.parametrize("case", SDPA_ERRORS)
def test_sdpa_errors(case):
    def fn(T):
        q, k, v = _tensor(T, (2, 4, 4, 8), "float32", 1), *(
            _tensor(T, (2, 4, 5, 8), "float32", s) for s in (2, 3))
        q, k, v, kw = SDPA_ERRORS[case](T, q, k, v)
        return T.nn.functional.scaled_dot_product_attention(q, k, v, **kw)
    same_outcome(fn)


# -- MultiheadAttention -------------------------------------------------------------------------

E, HEADS, L, S, N = 8, 2, 4, 5, 3

MHA_CONFIGS = {
    "default": ({}, {}),
    "no-bias": ({"bias": False}, {}),
    "bias-kv": ({"add_bias_kv": True}, {}),
    "zero-attn": ({"add_zero_attn": True}, {}),
    "bias-kv-zero-attn-masks": ({"add_bias_kv": True, "add_zero_attn": True},
                                {"attn_mask": "bool2", "key_padding_mask": "bool"}),
    "kdim-vdim": ({"kdim": 6, "vdim": 7}, {}),
    "kdim-vdim-no-bias": ({"kdim": 6, "vdim": 7, "bias": False}, {}),
    "batch-first": ({"batch_first": True}, {}),
    "bool-mask-2d": ({}, {"attn_mask": "bool2"}),
    "float-mask-2d": ({}, {"attn_mask": "float2"}),
    "float-mask-3d": ({}, {"attn_mask": "float3"}),
    "padding-mask": ({}, {"key_padding_mask": "bool"}),
    "float-padding-mask": ({}, {"key_padding_mask": "float", "attn_mask": "float2"}),
    "per-head-weights": ({}, {"average_attn_weights": False}),
    "one-head": ({"num_heads": 1}, {}),
}


def _mask(T, kind, dtype):
    if kind == "bool2":
        mask = _bool(T, (L, S), 7)
        mask[:, 0] = False  # (True: masked out) keep one key visible to every query
        return mask
    if kind == "bool":
        mask = _bool(T, (N, S), 8, p=0.3)
        mask[:, 0] = False
        return mask
    shapes = {"float2": (L, S), "float3": (N * HEADS, L, S), "float": (N, S)}
    return _tensor(T, shapes[kind], dtype, 9)


def _mha_inputs(T, kw, dtype, same=True, batched=True):
    """query, key, value ((L, N, E) / (S, N, kdim) ...; batch_first: (N, L, E)); ``same``:
    self-attention on one tensor (kdim/vdim configs always take three)."""
    def shape(length, dim):
        if not batched:
            return (length, dim)
        return (N, length, dim) if kw.get("batch_first") else (length, N, dim)
    query = _tensor(T, shape(L, E), dtype, 1, True)
    if "kdim" in kw:
        return (query, _tensor(T, shape(S, kw["kdim"]), dtype, 2, True),
                _tensor(T, shape(S, kw["vdim"]), dtype, 3, True))
    if same:
        return query, query, query
    key = _tensor(T, shape(S, E), dtype, 2, True)
    return query, key, key


def _mha(T, kw, dtype, seed=0):
    T.manual_seed(seed)
    return T.nn.MultiheadAttention(E, kw.get("num_heads", HEADS),
                                   **{k: v for k, v in kw.items() if k != "num_heads"},
                                   dtype=getattr(T, dtype))


def _mha_scenario(config, dtype, need_weights, train=False, dropout=0.0, is_causal=False):
    kw, call = MHA_CONFIGS[config]

    def fn(T):
        m = _mha(T, dict(kw, dropout=dropout), dtype)
        m.train(train)
        masks = {name: _mask(T, kind, dtype) for name, kind in call.items()
                 if name != "average_attn_weights"}
        same = "kdim" not in kw and "attn_mask" not in masks and "key_padding_mask" not in masks
        q, k, v = _mha_inputs(T, kw, dtype, same=same)
        if is_causal:
            masks["attn_mask"] = T.nn.Transformer.generate_square_subsequent_mask(
                L, dtype=getattr(T, dtype))[:, :S]
        extra = {"average_attn_weights": call["average_attn_weights"]} \
            if "average_attn_weights" in call else {}
        out, weights = m(q, k, v, need_weights=need_weights, is_causal=is_causal, **masks,
                         **extra)
        loss = (out * _tensor(T, out.shape, dtype, 10)).sum()
        loss.backward()
        leaves = {q, k, v}
        return (out, weights if weights is None else weights.detach(),
                [t.grad for t in (q, k, v) if t in leaves],
                [(n, p.grad) for n, p in m.named_parameters()])
    return fn


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "sdpa"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", list(MHA_CONFIGS))
def test_mha_forward_backward(config, dtype, need_weights):
    same_outcome(_mha_scenario(config, dtype, need_weights), **close(dtype))


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "sdpa"])
@pytest.mark.parametrize("config", ["default", "padding-mask", "kdim-vdim"])
def test_mha_dropout_in_training(config, need_weights):
    same_outcome(_mha_scenario(config, "float64", need_weights, train=True, dropout=0.3),
                 **close("float64"))


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "sdpa"])
def test_mha_is_causal_hint(need_weights):
    same_outcome(_mha_scenario("default", "float64", need_weights, is_causal=True),
                 **close("float64"))


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "sdpa"])
@pytest.mark.parametrize("config", ["default", "batch-first", "kdim-vdim"])
def test_mha_unbatched(config, need_weights):
    kw, _ = MHA_CONFIGS[config]

    def fn(T):
        m = _mha(T, kw, "float64")
        q, k, v = _mha_inputs(T, kw, "float64", same=False, batched=False)
        padding = T.tensor([False, True, False, False, True])
        out, weights = m(q, k, v, key_padding_mask=padding, need_weights=need_weights)
        out.sum().backward()
        return out, weights, q.grad, k.grad
    same_outcome(fn, **close("float64"))


@pytest.mark.parametrize("config", ["default", "no-bias", "bias-kv", "kdim-vdim",
                                    "batch-first"])
def test_mha_parameters_repr_state_dict(config):
    kw, _ = MHA_CONFIGS[config]

    def fn(T):
        m = _mha(T, kw, "float32", seed=3)
        return (repr(m), [(n, p.detach()) for n, p in m.named_parameters()],
                list(m.state_dict()), m.head_dim, m._qkv_same_embed_dim, m.batch_first,
                m.bias_k is None)
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("need_weights", [True, False], ids=["weights", "sdpa"])
@pytest.mark.parametrize("masks", [None, "bool", "bool2"])
@pytest.mark.parametrize("batch_first", [True, False], ids=["batch-first", "seq-first"])
def test_mha_eval_without_grad(batch_first, masks, need_weights):
    """torch's inference fast path (native MHA, batch_first only) agrees to rounding and
    returns a contiguous output."""
    def fn(T):
        m = _mha(T, {"batch_first": batch_first}, "float32").eval()
        x = _tensor(T, (N, L, E) if batch_first else (L, N, E), "float32", 1)
        kw = {}
        if masks == "bool":
            kw["key_padding_mask"] = _mask(T, "bool", "float32")[:, :L]
        elif masks == "bool2":
            kw["attn_mask"] = _mask(T, "bool2", "float32")[:, :L]
        with T.no_grad():
            return m(x, x, x, need_weights=need_weights, **kw)
    same_outcome(fn, **close("float32"))


MHA_ERRORS = {
    "embed-dim-0": lambda T: T.nn.MultiheadAttention(0, 2),
    "not-divisible": lambda T: T.nn.MultiheadAttention(7, 2),
    "query-4d": lambda T: _call(T, (1, L, N, E), (S, N, E), (S, N, E)),
    "key-2d": lambda T: _call(T, (L, N, E), (S, E), (S, E)),
    "unbatched-key-3d": lambda T: _call(T, (L, E), (S, N, E), (S, N, E)),
    "embed-dim": lambda T: _call(T, (L, N, 6), (S, N, 6), (S, N, 6)),
    "kdim": lambda T: _call(T, (L, N, E), (S, N, 5), (S, N, 7), kdim=6, vdim=7),
    "vdim": lambda T: _call(T, (L, N, E), (S, N, 6), (S, N, 6), kdim=6, vdim=7),
    "kdim-lengths": lambda T: _call(T, (L, N, E), (S, N, 6), (S + 1, N, 7), kdim=6, vdim=7),
    "key-value-shapes": lambda T: _call(T, (L, N, E), (S, N, E), (S + 1, N, E)),
    "mask-2d-shape": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                                     attn_mask=T.zeros(L, S + 1)),
    "mask-3d-shape": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                                     attn_mask=T.zeros(N, L, S)),
    "mask-4d": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                               attn_mask=T.zeros(1, 1, L, S)),
    "mask-int": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                                attn_mask=T.zeros(L, S, dtype=T.long)),
    "padding-mask-3d": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                                       key_padding_mask=T.zeros(N, 1, S, dtype=T.bool)),
    "padding-mask-shape": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                                          key_padding_mask=T.zeros(N, S + 1, dtype=T.bool)),
    "padding-mask-batch": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                                          key_padding_mask=T.zeros(N + 1, S, dtype=T.bool)),
    "causal-without-mask": lambda T: _call(T, (L, N, E), (S, N, E), (S, N, E),
                                           is_causal=True),
    "unbatched-mask-3d": lambda T: _call(T, (L, E), (S, E), (S, E),
                                         attn_mask=T.zeros(HEADS, L, S + 1)),
}


def _call(T, q_shape, k_shape, v_shape, kdim=None, vdim=None, **kw):
    m = _mha(T, {"kdim": kdim, "vdim": vdim}, "float32")
    q, k, v = (_tensor(T, s, "float32", i) for i, s in enumerate((q_shape, k_shape, v_shape)))
    return m(q, k, v, **kw)


@pytest.mark.parametrize("case", list(MHA_ERRORS))
def test_mha_errors(case):
    same_outcome(MHA_ERRORS[case])


def test_mha_mismatched_mask_types_warn():
    def fn(T):
        m = _mha(T, {}, "float32")
        x = _tensor(T, (L, N, E), "float32", 1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out, _ = m(x, x, x, attn_mask=T.zeros(L, L), key_padding_mask=T.zeros(
                N, L, dtype=T.bool))
        return out, [(w.category.__name__, str(w.message)) for w in caught]
    same_outcome(fn, **close("float32"))


# -- the transformer family ---------------------------------------------------------------------

D, NHEAD, FF = 8, 2, 16

LAYER_CONFIGS = {
    "default": {},
    "gelu": {"activation": "gelu"},
    "callable": {"activation": "module-gelu"},
    "function": {"activation": "function-silu"},
    "norm-first": {"norm_first": True},
    "batch-first": {"batch_first": True},
    "no-bias": {"bias": False},
    "eps": {"layer_norm_eps": 1e-3},
}


def _layer_kw(T, config):
    kw = dict(LAYER_CONFIGS[config])
    if kw.get("activation") == "module-gelu":
        kw["activation"] = T.nn.GELU()
    if kw.get("activation") == "function-silu":
        kw["activation"] = T.nn.functional.silu
    return kw


def _src(T, kw, length, dtype, seed):
    shape = (N, length, D) if kw.get("batch_first") else (length, N, D)
    return _tensor(T, shape, dtype, seed, True)


def _stack_scenario(kind, config, dtype, train, masks=()):
    """A 2-layer encoder / decoder / Transformer: forward, backward, every gradient."""
    def fn(T):
        kw = _layer_kw(T, config)
        T.manual_seed(0)
        common = {"dim_feedforward": FF, "dropout": 0.2, "dtype": getattr(T, dtype), **kw}
        if kind == "encoder":
            model = T.nn.TransformerEncoder(T.nn.TransformerEncoderLayer(D, NHEAD, **common), 2,
                                            norm=T.nn.LayerNorm(D, dtype=getattr(T, dtype)),
                                            enable_nested_tensor=False)
        elif kind == "decoder":
            model = T.nn.TransformerDecoder(T.nn.TransformerDecoderLayer(D, NHEAD, **common), 2)
        else:
            model = T.nn.Transformer(D, NHEAD, 2, 2, **common)
        model.train(train)
        src, tgt = _src(T, kw, S, dtype, 1), _src(T, kw, L, dtype, 2)
        causal = T.nn.Transformer.generate_square_subsequent_mask(L, dtype=getattr(T, dtype))
        pad = _bool(T, (N, S), 3, p=0.3)
        pad[:, 0] = False
        args = {}
        if kind == "encoder":
            args = {"mask": causal[:1].expand(S, S).clone() if "mask" in masks else None,
                    "src_key_padding_mask": pad if "padding" in masks else None}
            out = model(src, **args)
        elif kind == "decoder":
            args = {"tgt_mask": causal if "mask" in masks else None,
                    "memory_key_padding_mask": pad if "padding" in masks else None}
            out = model(tgt, src, **args)
        else:
            args = {"tgt_mask": causal if "mask" in masks else None,
                    "src_key_padding_mask": pad if "padding" in masks else None,
                    "memory_key_padding_mask": pad if "padding" in masks else None}
            out = model(src, tgt, **args)
        (out * _tensor(T, out.shape, dtype, 4)).sum().backward()
        return out, src.grad, tgt.grad, [(n, p.grad) for n, p in model.named_parameters()]
    return fn


STACK_CASES = [(kind, config) for kind in ("encoder", "decoder", "transformer")
               for config in LAYER_CONFIGS]


STACK_PARAMS = [pytest.param(kind, config, train, id=f"{kind}-{config}-{name}")
                for kind, config in STACK_CASES for train, name in ((False, "eval"),
                                                                    (True, "train"))]


@pytest.mark.parametrize(("kind", "config", "train"), STACK_PARAMS)
def test_stack_forward_backward(kind, config, train):
    same_outcome(_stack_scenario(kind, config, "float64", train), **close("float64"))


@pytest.mark.parametrize("masks", [("mask",), ("padding",), ("mask", "padding")],
                         ids=["mask", "padding", "both"])
@pytest.mark.parametrize("kind", ["encoder", "decoder", "transformer"])
def test_stack_masks(kind, masks):
    same_outcome(_stack_scenario(kind, "default", "float64", True, masks), **close("float64"))


@pytest.mark.parametrize("kind", ["encoder", "transformer"])
def test_stack_float32(kind):
    same_outcome(_stack_scenario(kind, "default", "float32", True, ("mask",)),
                 **close("float32"))


@pytest.mark.parametrize("config", list(LAYER_CONFIGS))
def test_layers_repr_and_initialisation(config):
    def fn(T):
        kw = _layer_kw(T, config)
        T.manual_seed(5)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = T.nn.Transformer(D, NHEAD, 2, 1, FF, **kw)
            encoder = T.nn.TransformerEncoder(T.nn.TransformerEncoderLayer(D, NHEAD, FF, **kw),
                                              3)
        return (repr(model), [(n, p.detach()) for n, p in model.named_parameters()],
                list(model.state_dict()), [(n, p.detach()) for n, p in encoder.named_parameters()],
                [(w.category.__name__, str(w.message)) for w in caught],
                encoder.use_nested_tensor, encoder.layers[0].activation_relu_or_gelu)
    same_outcome(fn, **EXACT)


def test_encoder_nested_tensor_warnings():
    def fn(T):
        reasons = []
        for kw in ({"batch_first": True}, {"batch_first": True, "norm_first": True},
                   {"batch_first": True, "bias": False}, {"batch_first": True,
                                                          "activation": T.sigmoid}):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                enc = T.nn.TransformerEncoder(T.nn.TransformerEncoderLayer(D, NHEAD, FF, **kw),
                                              1)
            reasons.append(([str(w.message) for w in caught], enc.use_nested_tensor))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            T.nn.TransformerEncoder(T.nn.TransformerEncoderLayer(D, 1, FF, batch_first=True), 1)
        return reasons, [str(w.message) for w in caught]
    same_outcome(fn)


INFERENCE_CASES = {
    "nested": ({"batch_first": True}, "left", True),
    "nested-not-left-aligned": ({"batch_first": True}, "holes", True),
    "nested-with-grad": ({"batch_first": True}, "left", False),
    "seq-first": ({}, "left", True),
    "no-padding": ({"batch_first": True}, None, True),
    "bool-mask": ({"batch_first": True}, "mask", True),
}


@pytest.mark.parametrize("case", list(INFERENCE_CASES))
def test_encoder_inference(case):
    """torch's inference paths (fused layer, nested tensors: zeros at padded positions)."""
    kw, masks, no_grad = INFERENCE_CASES[case]

    def fn(T):
        T.manual_seed(0)
        layer = T.nn.TransformerEncoderLayer(D, NHEAD, FF, **kw)
        model = T.nn.TransformerEncoder(layer, 2, norm=T.nn.LayerNorm(D)).eval()
        x = _src(T, kw, S, "float32", 1).detach()
        pad = T.tensor([[False] * S, [False] * 3 + [True] * 2, [False] * 4 + [True]])
        if masks == "holes":
            pad[0, 2] = True
        args = {"src_key_padding_mask": pad} if masks in ("left", "holes") else {}
        if masks == "mask":
            args = {"mask": _bool(T, (S, S), 2, p=0.3).fill_diagonal_(False)}
        with T.set_grad_enabled(not no_grad):
            out = model(x, **args)
        return out
    same_outcome(fn, **close("float32"))


def test_unbatched_encoder_and_transformer():
    def fn(T):
        T.manual_seed(0)
        model = T.nn.Transformer(D, NHEAD, 1, 1, FF, dropout=0.0, dtype=T.float64)
        src, tgt = _tensor(T, (S, D), "float64", 1, True), _tensor(T, (L, D), "float64", 2)
        out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(L))
        out.sum().backward()
        return out, src.grad
    same_outcome(fn, **close("float64"))


def test_generate_square_subsequent_mask():
    def fn(T):
        return (T.nn.Transformer.generate_square_subsequent_mask(4),
                T.nn.Transformer.generate_square_subsequent_mask(3, dtype=T.float64))
    same_outcome(fn, **EXACT)


TRANSFORMER_ERRORS = {
    "batch": lambda T, m: m(T.zeros(S, N, D), T.zeros(L, N + 1, D)),
    "features": lambda T, m: m(T.zeros(S, N, D), T.zeros(L, N, D + 1)),
    "activation": lambda T, m: T.nn.TransformerEncoderLayer(D, NHEAD, activation="tanh"),
}


@pytest.mark.parametrize("case", list(TRANSFORMER_ERRORS))
def test_transformer_errors(case):
    def fn(T):
        return TRANSFORMER_ERRORS[case](T, T.nn.Transformer(D, NHEAD, 1, 1, FF))
    same_outcome(fn)


def test_tiny_encoder_end_to_end():
    """A 2-layer TransformerEncoder (d_model 32, nhead 4) with a causal mask: forward,
    backward, one SGD step, compared with torch (float32, ``close``)."""
    def fn(T):
        T.manual_seed(0)
        layer = T.nn.TransformerEncoderLayer(32, 4, dim_feedforward=64)
        model = T.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        opt = T.optim.SGD(model.parameters(), lr=0.1)
        x = _tensor(T, (6, 2, 32), "float32", 1)
        mask = T.nn.Transformer.generate_square_subsequent_mask(6)
        out = model(x, mask=mask, is_causal=True)
        loss = (out * _tensor(T, out.shape, "float32", 2)).mean()
        loss.backward()
        opt.step()
        return loss, out, [(n, p.detach()) for n, p in model.named_parameters()]
    same_outcome(fn, **close("float32"))
