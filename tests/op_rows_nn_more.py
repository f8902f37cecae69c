"""Rows of the nn records helper L added (embedding_bag and the margin losses), each run
against torch 2.13 on every device (tests/test_core_ops.py); module-level behaviour is in
tests/test_nn_more.py."""

import importlib

from _oracle import FLOATS
from op_table import OpInfo


def F(T):
    return T.nn.functional


def _on(T, x, values):
    """An index tensor of ``values`` on ``x``'s device."""
    return T.tensor(values, device=x.device)


_IDX = [0, 2, 1, 5, 5, 2, 3]
_OFFSETS = [0, 2, 2, 5]


def _bag(mode, **kw):
    return lambda T, w: F(T).embedding_bag(_on(T, w, _IDX), w, _on(T, w, _OFFSETS), mode=mode,
                                           **kw)


ROWS = [
    OpInfo("EmbeddingBagBackward0", "embedding_bag_mean", _bag("mean"),
           [(6, 3), ((6, 3), "T")], dtypes=FLOATS, rtol=1e-6, atol=1e-6, reprs=False),
    OpInfo("EmbeddingBagBackward0", "embedding_bag_sum_padding", _bag("sum", padding_idx=5),
           [(6, 3)], dtypes=FLOATS, rtol=1e-6, atol=1e-6, reprs=False),
    OpInfo("EmbeddingBagBackward0", "embedding_bag_max",
           lambda T, w: F(T).embedding_bag(_on(T, w, _IDX), w, _on(T, w, _OFFSETS + [7]),
                                           mode="max", include_last_offset=True),
           [(6, 3)], dtypes=FLOATS),
    OpInfo("EmbeddingBagBackward0", "embedding_bag_last_offset_short",
           _bag("max", include_last_offset=True), [(6, 3)], dtypes=("float64",),
           xfail="include_last_offset with a last offset short of the indices' end: torch's "
                 "max (and mean's count) still run to the end of the indices, its sum stops "
                 "at the last offset; doctensor stops every mode at the last offset"),
    OpInfo("EmbeddingBagBackward0", "embedding_bag_per_sample_weights",
           lambda T, w, p: F(T).embedding_bag(_on(T, w, _IDX), w, _on(T, w, _OFFSETS),
                                              mode="sum", per_sample_weights=p),
           [((6, 3), (7,))], dtypes=FLOATS, rtol=1e-6, atol=1e-6, reprs=False),
    OpInfo("EmbeddingBagBackward0", "embedding_bag_bad_offsets",
           lambda T, w: F(T).embedding_bag(_on(T, w, _IDX), w, _on(T, w, [0, 9])), [(6, 3)],
           dtypes=("float64",)),
]

_MULTI_TARGET = {(3, 4): [1, 0, 3], (4,): 2}
_MULTILABEL_TARGET = {(3, 4): [[0, 1, -1, 2], [3, -1, 0, 0], [1, 2, 3, 0]], (4,): [3, 1, -1, 0]}


def _margin(reduction, **kw):
    return lambda T, x: F(T).multi_margin_loss(x, _on(T, x, _MULTI_TARGET[tuple(x.shape)]),
                                               reduction=reduction, **kw)


def _multilabel(reduction):
    return lambda T, x: F(T).multilabel_margin_loss(
        x, _on(T, x, _MULTILABEL_TARGET[tuple(x.shape)]), reduction=reduction)


def _signs(T, x):
    return (x.detach() > 0).to(x.dtype) * 2 - 1


ROWS += [
    OpInfo("SoftMarginLossBackward0", "soft_margin_loss",
           lambda T, x: F(T).soft_margin_loss(x, _signs(T, x).flip(-1)),
           [(3, 4), ((3, 4), "T"), (5,)], dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("SoftMarginLossBackward0", "soft_margin_loss_none_sum",
           lambda T, x: (F(T).soft_margin_loss(x, _signs(T, x), reduction="none"),
                         F(T).soft_margin_loss(x, -_signs(T, x), reduction="sum")),
           [(3, 4)], dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("SoftMarginLossBackward0", "soft_margin_loss_target",
           lambda T, x, y: F(T).soft_margin_loss(x, y), [((3, 4), (3, 4))], dtypes=("float64",)),
    OpInfo("MultiMarginLossBackward0", "multi_margin_loss", _margin("mean"), [(3, 4), (4,)],
           dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("MultiMarginLossBackward0", "multi_margin_loss_p2_weight",
           lambda T, x, w: F(T).multi_margin_loss(x, _on(T, x, [1, 0, 3]), p=2, margin=1.5,
                                                  weight=w.detach().abs(), reduction="none"),
           [((3, 4), (4,))], dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("MultiMarginLossBackward0", "multi_margin_loss_sum", _margin("sum", margin=0.5),
           [(3, 4), ((3, 4), "T")], dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("MultiMarginLossBackward0", "multi_margin_loss_bad_target",
           lambda T, x: F(T).multi_margin_loss(x, _on(T, x, [1, 0, 4])), [(3, 4)],
           dtypes=("float64",)),
    OpInfo("MultilabelMarginLossBackward0", "multilabel_margin_loss", _multilabel("mean"),
           [(3, 4), (4,)], dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("MultilabelMarginLossBackward0", "multilabel_margin_loss_none", _multilabel("none"),
           [(3, 4), ((3, 4), "T"), (4,)], dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("MultilabelMarginLossBackward0", "multilabel_margin_loss_sum", _multilabel("sum"),
           [(3, 4)], dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("MultilabelMarginLossBackward0", "multilabel_margin_loss_bad_target",
           lambda T, x: F(T).multilabel_margin_loss(x, _on(T, x, [[0, 1, 4, 2]] * 3)), [(3, 4)],
           dtypes=("float64",)),
]


def _rrelu_train(T, x):
    T.manual_seed(0)  # the slopes drawn are torch's (float32: bit for bit)
    return F(T).rrelu(x, 0.1, 0.3, training=True)


ROWS += [
    OpInfo("GluBackward0", "glu", lambda T, x: F(T).glu(x), [(3, 4), ((4, 2), "T"), (2, 6)],
           dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("GluBackward0", "glu_dim0", lambda T, x: F(T).glu(x, 0), [(4, 3), (0, 3)],
           dtypes=FLOATS, rtol=1e-6, atol=1e-7, reprs=False),
    OpInfo("GluBackward0", "glu_odd", lambda T, x: F(T).glu(x, 1), [(4, 3)],
           dtypes=("float64",)),
    OpInfo("GluBackward0", "glu_integer", lambda T, x: F(T).glu(x), [(4,)], dtypes=("int64",),
           grad=False),
    OpInfo("RreluWithNoiseBackward0", "rrelu_eval", lambda T, x: F(T).rrelu(x),
           [(3, 4), ((3, 4), "T"), ()], dtypes=FLOATS),
    OpInfo("RreluWithNoiseBackward0", "rrelu_train", _rrelu_train, [(3, 4), ((3, 4), "T")],
           dtypes=("float32",)),
    OpInfo("RreluWithNoiseBackward0", "rrelu_train_float64", _rrelu_train, [(3, 4)],
           dtypes=("float64",), rtol=1e-15, atol=0, reprs=False),
    OpInfo("RreluWithNoiseBackward0", "rrelu_integer", lambda T, x: F(T).rrelu(x), [(4,)],
           dtypes=("int64",), grad=False),
]


def _wn(T):
    """``torch._weight_norm``; doctensor keeps it in nn/utils/weight_norm.py."""
    if hasattr(T, "_weight_norm"):
        return T._weight_norm
    return importlib.import_module(T.__name__ + ".nn.utils.weight_norm")._weight_norm


ROWS += [
    OpInfo("WeightNormInterfaceBackward0", "weight_norm_dim0",
           lambda T, v, g: _wn(T)(v, g.reshape(-1, 1), 0), [((3, 4), (3,))],
           dtypes=FLOATS, rtol=1e-5, atol=1e-6, reprs=False),
    OpInfo("WeightNormInterfaceBackward0", "weight_norm_last",
           lambda T, v, g: _wn(T)(v, g.reshape(1, 1, -1), 2), [((2, 3, 4), (4,))],
           dtypes=FLOATS, rtol=1e-5, atol=1e-6, reprs=False),
]

ROWS += [
    OpInfo("PdistBackward0", "pdist", lambda T, x: F(T).pdist(x),
           [(4, 3), ((3, 4), "T"), (1, 3), (3, 0)], dtypes=FLOATS, rtol=1e-6,
           atol=1e-6, reprs=False),
    # no rows: torch's backward crashes (a segfault in torch 2.13), so no gradient here
    OpInfo("PdistBackward0", "pdist_empty", lambda T, x: F(T).pdist(x), [(0, 3)],
           dtypes=FLOATS, grad=False),
    OpInfo("PdistBackward0", "pdist_p", lambda T, x: (F(T).pdist(x, 1), F(T).pdist(x, 3),
                                                      F(T).pdist(x, 0.5),
                                                      F(T).pdist(x, float("inf")),
                                                      F(T).pdist(x, 0)),
           [(4, 3)], dtypes=FLOATS, rtol=1e-5, atol=1e-6, reprs=False),
    OpInfo("PdistBackward0", "pdist_bad", lambda T, x: (F(T).pdist(x.view(2, 2, 3))), [(4, 3)],
           dtypes=("float64", "int64"), grad=False),
    OpInfo("PdistBackward0", "pdist_negative_p", lambda T, x: F(T).pdist(x, -1.0), [(4, 3)],
           dtypes=("float64",)),
    OpInfo("PdistBackward0", "pdist_integer", lambda T, x: F(T).pdist(x), [(4, 3)],
           dtypes=("int64",), grad=False),
]


def _ctc(reduction="none", zero_infinity=False, flat=False, lengths=(6, 5)):
    def fn(T, x):
        lp = x.log_softmax(-1)
        if flat:
            targets = _on(T, x, [1, 2, 2, 3, 1])
        else:
            targets = _on(T, x, [[1, 2, 2], [3, 1, 0]])
        return F(T).ctc_loss(lp, targets, _on(T, x, list(lengths)), _on(T, x, [3, 2]),
                             reduction=reduction, zero_infinity=zero_infinity)
    return fn


ROWS += [
    OpInfo("CtcLossBackward0", "ctc_loss", _ctc(), [(6, 2, 4)], dtypes=FLOATS, rtol=1e-5,
           atol=1e-6, reprs=False),
    OpInfo("CtcLossBackward0", "ctc_loss_mean", _ctc("mean"), [(6, 2, 4)], dtypes=FLOATS,
           rtol=1e-5, atol=1e-6, reprs=False),
    OpInfo("CtcLossBackward0", "ctc_loss_sum_flat_targets", _ctc("sum", flat=True),
           [(6, 2, 4)], dtypes=("float64",)),
    # a 2-step input cannot emit a 3-label target: an infinite loss, zeroed on request
    OpInfo("CtcLossBackward0", "ctc_loss_impossible", _ctc(lengths=(2, 5)), [(6, 2, 4)],
           dtypes=("float64",), grad=False),
    OpInfo("CtcLossBackward0", "ctc_loss_zero_infinity", _ctc(zero_infinity=True,
                                                              lengths=(2, 5)),
           [(6, 2, 4)], dtypes=("float64",)),
    OpInfo("CtcLossBackward0", "ctc_loss_bad_lengths", _ctc(lengths=(7, 5)), [(6, 2, 4)],
           dtypes=("float64",)),
]
