"""``MultiheadAttention``.

The forward is ``F.multi_head_attention_forward`` (Note [attention composition] in
``nn/functional.py``). Where torch takes its inference fast path
(``_native_multi_head_attention``: eval mode, no grad, batch_first self-attention, ...
``_fast_path_taken``), the values are the same to rounding and doctensor returns the output
laid out as that kernel does (contiguous (N, L, E)).
"""

import doctensor as torch

from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import Linear
from .module import Module

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` under the name torch gives ``MultiheadAttention.out_proj`` (its repr)."""


class MultiheadAttention(Module):
    """Attention of queries over keys and values, in ``num_heads`` heads of
    ``embed_dim // num_heads`` features each.

    Parameters are torch's, in its order and with its initialisation: ``in_proj_weight``
    (3E, E) (or ``q_proj_weight``, ``k_proj_weight``, ``v_proj_weight`` when ``kdim`` or
    ``vdim`` differ from ``embed_dim``) by ``xavier_uniform_``, ``in_proj_bias`` and
    ``out_proj.bias`` zero, ``bias_k``/``bias_v`` by ``xavier_normal_``; ``out_proj`` draws
    its weight as a ``Linear`` first.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        **factory)
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        """(attention output, weights or None); ``batch_first`` inputs are (N, L, E)."""
        batched = query.dim() == 3
        fast = self._fast_path_taken(query, key, value, attn_mask, key_padding_mask)
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask",
                                             F._none_or_dtype(attn_mask), "attn_mask",
                                             query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                      check_other=False)
        if self.batch_first and batched:
            query, key, value = _batch_second(query, key, value)
        separate = {}
        if not self._qkv_same_embed_dim:
            separate = {"use_separate_proj_weight": True, "q_proj_weight": self.q_proj_weight,
                        "k_proj_weight": self.k_proj_weight, "v_proj_weight": self.v_proj_weight}
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and batched:
            out = out.transpose(1, 0)
            return (out.contiguous() if fast else out), weights
        return out, weights

    def _fast_path_taken(self, query, key, value, attn_mask, key_padding_mask):
        """Whether torch would run its fused inference kernel on these arguments."""
        if any(m is not None and m.is_floating_point() for m in (attn_mask, key_padding_mask)):
            return False
        params = (self.in_proj_weight, self.in_proj_bias, self.out_proj.weight,
                  self.out_proj.bias)
        if query.dim() != 3 or query is not key or key is not value or self.training:
            return False
        if any(p is None or p.dtype != query.dtype for p in params[:2]):
            return False
        if (self.num_heads % 2 or not self.batch_first or self.bias_k is not None
                or self.add_zero_attn or torch.is_autocast_enabled()):
            return False
        return not (torch.is_grad_enabled() and any(
            t is not None and t.requires_grad for t in (query, *params)))


def _batch_second(query, key, value):
    """(N, L, E) inputs as (L, N, E), keeping which of them are one tensor (the projection
    shares work between identical inputs)."""
    if key is value:
        if query is key:
            query = key = value = query.transpose(1, 0)
            return query, key, value
        query, key = query.transpose(1, 0), key.transpose(1, 0)
        return query, key, key
    return query.transpose(1, 0), key.transpose(1, 0), value.transpose(1, 0)
