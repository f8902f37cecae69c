"""Rows of the fused-kernel records (``ops/fused.py``, Note [fused nodes]): the oneDNN LSTM
layer, the CPU flash attention and ``_pack_padded_sequence``, each reached through the
function a user calls.  The LSTM and attention kernels are torch's CPU ones: their rows run
on the CPU only (doctensor's emulated CUDA composes them, as torch's CUDA has other kernels).
Their values are compared to 1e-5: torch's fused kernels sum in other orders."""

from _oracle import FLOATS
from op_table import OpInfo


def _lstm(T, x, num_layers=1):
    T.manual_seed(0)
    m = T.nn.LSTM(x.shape[-1], 3, num_layers=num_layers)
    out, (h, c) = m(x)
    return out, h, c


def _sdpa(T, q, k, v, **kw):
    return T.nn.functional.scaled_dot_product_attention(q, k, v, **kw)


def _pack(lengths, **kw):
    return lambda T, x: T.nn.utils.rnn.pack_padded_sequence(x, lengths, **kw).data


_QKV = ((2, 3, 4, 8), (2, 3, 5, 8), (2, 3, 5, 8))
_CLOSE = {"rtol": 1e-5, "atol": 1e-5, "reprs": False}

ROWS = [
    OpInfo("MkldnnRnnLayerBackward0", "lstm_onednn_layer", _lstm,
           [(5, 2, 4), ((5, 2, 4), "T")], dtypes=("float32",), devices=("cpu",), **_CLOSE),
    OpInfo("MkldnnRnnLayerBackward0", "lstm_onednn_two_layers",
           lambda T, x: _lstm(T, x, num_layers=2), [(4, 3, 2)], dtypes=("float32",),
           devices=("cpu",), **_CLOSE),
    OpInfo("MkldnnRnnLayerBackward0", "lstm_onednn_empty_sequence", _lstm, [(0, 2, 4)],
           dtypes=("float32",), devices=("cpu",)),
    OpInfo("ScaledDotProductFlashAttentionForCpuBackward0", "sdpa_flash", _sdpa, [_QKV],
           dtypes=FLOATS, devices=("cpu",), **_CLOSE),
    OpInfo("ScaledDotProductFlashAttentionForCpuBackward0", "sdpa_flash_causal",
           lambda T, q, k, v: _sdpa(T, q, k, v, is_causal=True),
           [((1, 2, 6, 4), (1, 2, 3, 4), (1, 2, 3, 4))], dtypes=FLOATS, devices=("cpu",),
           **_CLOSE),
    OpInfo("ScaledDotProductFlashAttentionForCpuBackward0", "sdpa_flash_mixed_dtypes",
           lambda T, q, k, v: _sdpa(T, q, k.double(), v), [_QKV], dtypes=("float32",),
           devices=("cpu",)),
    OpInfo("PackPaddedSequenceBackward0", "pack_padded_sequence", _pack([3, 2, 2]),
           [(3, 3, 2), ((3, 3), "T")], dtypes=FLOATS),
    OpInfo("PackPaddedSequenceBackward0", "pack_padded_sequence_batch_first",
           _pack([4, 1], batch_first=True), [(2, 4, 3)], dtypes=FLOATS),
    OpInfo("PackPaddedSequenceBackward0", "pack_padded_sequence_unsorted_lengths",
           _pack([1, 3, 2]), [(3, 3, 2)], dtypes=("float32",)),
]
