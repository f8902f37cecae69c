"""nn.functional against torch 2.13: values, gradients and grad_fn names, losses with every
reduction, and the errors for bad input.

Tolerances: elementwise float32 ops whose arithmetic order is torch's (relu, leaky_relu,
one_hot, embedding, dropout, mse per element) are compared at 1e-6; reductions (softmax
sums, loss means, norms) sum in NumPy's order and agree within float32 round-off (2e-6).
"""

import pytest
from _oracle import same_outcome

TOL = {"rtol": 2e-6, "atol": 2e-6, "reprs": False}  # (round-off can show in repr)


def _x(T, shape=(4, 5), scale=2.0):
    T.manual_seed(0)
    return (T.randn(*shape) * scale).requires_grad_()


def _run(T, f, *inputs):
    y = f(*inputs)
    w = T.linspace(-1, 1, y.numel()).reshape(y.shape) if y.dim() else T.tensor(1.5)
    (y * w).sum().backward()
    return y, [t.grad for t in inputs if t.requires_grad]


@pytest.mark.parametrize("name", ["relu", "leaky_relu", "sigmoid", "tanh", "gelu", "gelu_tanh",
                                  "softmax0", "softmax1", "log_softmax", "log_softmax_neg",
                                  "softmax_1d", "softmax_dtype", "dropout_eval", "dropout0"])
def test_activations(name):
    def fn(T):
        F = T.nn.functional
        x = _x(T)
        f = {"relu": F.relu, "leaky_relu": lambda a: F.leaky_relu(a, 0.2),
             "sigmoid": F.sigmoid, "tanh": F.tanh, "gelu": F.gelu,
             "gelu_tanh": lambda a: F.gelu(a, approximate="tanh"),
             "softmax0": lambda a: F.softmax(a, 0), "softmax1": lambda a: F.softmax(a, dim=1),
             "log_softmax": lambda a: F.log_softmax(a, 1),
             "log_softmax_neg": lambda a: T.log_softmax(a, -1),
             "softmax_1d": lambda a: a[0].softmax(0),
             "softmax_dtype": lambda a: F.softmax(a, 1, dtype=T.float64),
             "dropout_eval": lambda a: F.dropout(a, 0.5, training=False),
             "dropout0": lambda a: F.dropout(a, 0.0)}[name]
        return _run(T, f, x)
    same_outcome(fn, **TOL)


def test_softmax_implicit_dim_warns():
    def fn(T):
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y = T.nn.functional.softmax(T.ones(2, 3))
        return y, [str(m.message) for m in w]
    same_outcome(fn)


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 1.0])
def test_dropout_matches_torchs_noise(p):
    def fn(T):
        x = _x(T, (7, 9))
        y = T.nn.functional.dropout(x, p)
        y.sum().backward()
        return y, x.grad, T.rand(2)
    same_outcome(fn, rtol=0, atol=0)


@pytest.mark.parametrize("call", ["transposed", "error"])
def test_dropout_of_a_transposed_input_and_a_bad_p(call):
    """The mask is drawn in the input's memory order and laid out like it; torch.dropout's
    bad p is a RuntimeError (F.dropout's a ValueError)."""
    def fn(T):
        T.manual_seed(0)
        x = T.ones(5, 7).t()
        if call == "error":
            return T.dropout(x, 1.5, True)
        y = T.nn.functional.dropout(x, 0.5)
        return y, y.stride()
    same_outcome(fn, rtol=0, atol=0)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("loss", ["mse", "l1", "bce", "bce_w", "bcel", "bcel_pw", "nll",
                                  "nll_w", "ce", "ce_w", "ce_ignore", "ce_ls", "ce_ls_w",
                                  "ce_prob", "ce_prob_ls", "ce_1d"])
def test_losses(loss, reduction):
    def fn(T):
        F = T.nn.functional
        x = _x(T, (6, 4))
        T.manual_seed(1)
        t_float = T.rand(6, 4)
        idx = T.tensor([0, 3, 1, 1, 2, 0])
        w = T.tensor([0.5, 2.0, 1.0, 0.25])
        r = reduction
        f = {"mse": lambda a: F.mse_loss(a, t_float, reduction=r),
             "l1": lambda a: F.l1_loss(a, t_float, reduction=r),
             "bce": lambda a: F.binary_cross_entropy(a.sigmoid(), t_float, reduction=r),
             "bce_w": lambda a: F.binary_cross_entropy(a.sigmoid(), t_float, w, reduction=r),
             "bcel": lambda a: F.binary_cross_entropy_with_logits(a, t_float, reduction=r),
             "bcel_pw": lambda a: F.binary_cross_entropy_with_logits(
                 a, t_float, w, reduction=r, pos_weight=w * 2),
             "nll": lambda a: F.nll_loss(a.log_softmax(1), idx, reduction=r),
             "nll_w": lambda a: F.nll_loss(a, idx, w, reduction=r),
             "ce": lambda a: F.cross_entropy(a, idx, reduction=r),
             "ce_w": lambda a: F.cross_entropy(a, idx, w, reduction=r),
             "ce_ignore": lambda a: F.cross_entropy(a, idx, ignore_index=1, reduction=r),
             "ce_ls": lambda a: F.cross_entropy(a, idx, reduction=r, label_smoothing=0.1),
             "ce_ls_w": lambda a: F.cross_entropy(a, idx, w, ignore_index=0, reduction=r,
                                                  label_smoothing=0.2),
             "ce_prob": lambda a: F.cross_entropy(a, t_float.softmax(1), reduction=r),
             "ce_prob_ls": lambda a: F.cross_entropy(a, t_float, w, reduction=r,
                                                     label_smoothing=0.3),
             "ce_1d": lambda a: F.cross_entropy(a[0], idx[1], reduction=r)}[loss]
        y, grads = _run(T, f, x)
        # label smoothing and the probabilities' mean: torch shows MulBackward1 /
        # DivBackward1 (a Python-scalar operand) and MaskedFillBackward0 where doctensor's
        # core shows MulBackward0 / DivBackward0 / WhereBackward0 -- compare values and
        # gradients only there
        scalar_nodes = "ls" in loss or (loss == "ce_prob" and reduction == "mean")
        return (y.detach() if scalar_nodes else y), grads
    same_outcome(fn, **TOL)


def test_loss_modules():
    def fn(T):
        nn = T.nn
        x = _x(T, (6, 4))
        idx = T.tensor([0, 3, 1, 1, 2, 0])
        t = T.ones(6, 4) * 0.25
        out = [nn.CrossEntropyLoss()(x, idx), nn.CrossEntropyLoss(reduction="sum")(x, idx),
               nn.NLLLoss(ignore_index=0)(x, idx), nn.MSELoss()(x, t), nn.L1Loss()(x, t),
               nn.BCELoss()(x.sigmoid(), t), nn.BCEWithLogitsLoss(pos_weight=T.ones(4))(x, t)]
        return out, [repr(m) for m in (nn.CrossEntropyLoss(), nn.NLLLoss(), nn.BCELoss())]
    same_outcome(fn, **TOL)


@pytest.mark.parametrize("case", ["float_target", "int_target", "out_of_bounds", "batch",
                                  "negative", "prob_long", "bce_range", "bce_size", "bcel_size",
                                  "mse_broadcast", "bad_reduction", "one_hot_float",
                                  "one_hot_small", "embedding_range", "embedding_float"])
def test_errors(case):
    def fn(T):
        F = T.nn.functional
        x = T.zeros(4, 3)
        idx = T.tensor([0, 2, 1, 0])
        if case == "float_target":
            return F.cross_entropy(x, idx.float())
        if case == "int_target":
            return F.cross_entropy(x, idx.int())
        if case == "out_of_bounds":
            return F.cross_entropy(x, T.tensor([0, 5, 1, 0]))
        if case == "batch":
            return F.cross_entropy(x, T.tensor([0, 1]))
        if case == "negative":
            return F.nll_loss(x, T.tensor([0, -2, 1, 0]))
        if case == "prob_long":
            return F.cross_entropy(x.long(), idx.view(4, 1).expand(4, 3).contiguous())
        if case == "bce_range":
            return F.binary_cross_entropy(x + 2, x)
        if case == "bce_size":
            return F.binary_cross_entropy(x, T.zeros(4, 2))
        if case == "bcel_size":
            return F.binary_cross_entropy_with_logits(x, T.zeros(4, 2))
        if case == "mse_broadcast":
            return F.mse_loss(x, T.zeros(3, 3))
        if case == "bad_reduction":
            return F.mse_loss(x, x, reduction="avg")
        if case == "one_hot_float":
            return F.one_hot(T.tensor([1.0]))
        if case == "one_hot_small":
            return F.one_hot(T.tensor([3]), 2)
        if case == "embedding_range":
            return F.embedding(T.tensor([3]), T.zeros(3, 2))
        if case == "embedding_float":
            return F.embedding(T.tensor([1.0]), T.zeros(3, 2))
    same_outcome(fn)


def test_one_hot_and_embedding():
    def fn(T):
        F = T.nn.functional
        w = _x(T, (5, 3))
        idx = T.tensor([[0, 4], [4, 2]])
        e = F.embedding(idx, w, padding_idx=4)
        e.sum().backward()
        return F.one_hot(T.tensor([0, 2, 1])), F.one_hot(T.tensor([1]), 4), e, w.grad
    same_outcome(fn, **TOL)


@pytest.mark.parametrize("shape", [(3,), (5, 3), (2, 4, 3)])
def test_linear_functional(shape):
    def fn(T):
        T.manual_seed(0)
        x = T.randn(*shape, requires_grad=True)
        w = T.randn(2, 3, requires_grad=True)
        b = T.randn(2, requires_grad=True)
        y = T.nn.functional.linear(x, w, b)
        z = T.nn.functional.linear(x, w)
        (y.sum() + z.sum()).backward()
        return y, z, x.grad, w.grad, b.grad, type(y.grad_fn.next_functions[0][0]).__name__
    same_outcome(fn, **TOL)


LOSSES_AND_MORE = {
    "normalize": lambda T, F, x, y: F.normalize(x),
    "normalize_p1_dim0": lambda T, F, x, y: F.normalize(x, 1.0, 0),
    "normalize_tiny": lambda T, F, x, y: F.normalize(x * 1e-14, eps=1e-12),
    "cosine_similarity": lambda T, F, x, y: F.cosine_similarity(x, y),
    "cosine_similarity_broadcast": lambda T, F, x, y: F.cosine_similarity(x, y[:1], dim=0),
    "cosine_similarity_zero": lambda T, F, x, y: F.cosine_similarity(x, T.zeros(4, 5)),
    "smooth_l1": lambda T, F, x, y: F.smooth_l1_loss(x, y),
    "smooth_l1_beta_none": lambda T, F, x, y: F.smooth_l1_loss(x, y, reduction="none",
                                                               beta=0.5),
    "smooth_l1_beta0": lambda T, F, x, y: F.smooth_l1_loss(x, y, beta=0.0, reduction="sum"),
    "huber": lambda T, F, x, y: F.huber_loss(x, y, delta=0.7),
    "huber_sum": lambda T, F, x, y: F.huber_loss(x, y, reduction="sum", delta=2.0),
    "kl_batchmean": lambda T, F, x, y: F.kl_div(x.log_softmax(1), y.softmax(1),
                                                 reduction="batchmean"),
    "kl_none": lambda T, F, x, y: F.kl_div(x.log_softmax(1), y.softmax(1), reduction="none"),
    "kl_log_target": lambda T, F, x, y: F.kl_div(x, y.log_softmax(1), reduction="sum",
                                                  log_target=True),
    "softmin": lambda T, F, x, y: F.softmin(x, 1),
    "max_pool1d": lambda T, F, x, y: F.max_pool1d(x.view(2, 2, 5), 2),
    "max_pool1d_options": lambda T, F, x, y: F.max_pool1d(x.view(1, 4, 5), 3, 1, 1, 2, True),
    "avg_pool1d": lambda T, F, x, y: F.avg_pool1d(x.view(2, 2, 5), 3, 2, 1),
    "adaptive_avg_pool1d": lambda T, F, x, y: F.adaptive_avg_pool1d(x.view(2, 2, 5), 3),
    "adaptive_avg_pool1d_one": lambda T, F, x, y: F.adaptive_avg_pool1d(x.view(2, 2, 5), 1),
}


@pytest.mark.parametrize("name", sorted(LOSSES_AND_MORE))
def test_losses_norms_and_1d_pools_like_torch(name):
    def fn(T):
        x = _x(T)
        y = T.randn(4, 5)
        out = LOSSES_AND_MORE[name](T, T.nn.functional, x, y)
        return _run(T, lambda a: out, x) + ([f and f.name() for f, _ in
                                             out.grad_fn.next_functions],)
    same_outcome(fn, **TOL)


def test_loss_and_pool_modules_like_torch():
    def fn(T):
        nn = T.nn
        x, y = _x(T, (2, 3, 6)), T.randn(2, 3, 6)
        layers = [nn.SmoothL1Loss(beta=0.3), nn.HuberLoss(delta=0.5, reduction="sum"),
                  nn.KLDivLoss(reduction="batchmean", log_target=True)]
        pools = [nn.MaxPool1d(2), nn.MaxPool1d(3, 1, 1, 2, ceil_mode=True), nn.AvgPool1d(3),
                 nn.AvgPool1d(3, 2, 1), nn.AdaptiveAvgPool1d(4), nn.Softmin(1),
                 nn.CosineSimilarity(2)]
        return ([repr(m) for m in layers + pools], [m(x, y) for m in layers],
                [m(x) for m in pools[:-1]], pools[-1](x, y))
    same_outcome(fn, **TOL)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.functional.smooth_l1_loss(T.ones(3), T.zeros(3), beta=-1.0),
    lambda T: T.nn.functional.huber_loss(T.ones(3), T.zeros(3), delta=0.0),
    lambda T: T.nn.functional.huber_loss(T.ones(3), T.zeros(3), reduction="avg"),
    lambda T: T.nn.functional.kl_div(T.ones(3), T.zeros(3), reduction="avg"),
    lambda T: T.broadcast_shapes((3,), (4,)),
    lambda T: T.broadcast_tensors(T.ones(3), T.ones(4)),
], ids=["beta", "delta", "huber_reduction", "kl_reduction", "shapes", "tensors"])
def test_loss_and_broadcast_errors_like_torch(call):
    same_outcome(call)


def test_broadcast_helpers_like_torch():
    def fn(T):
        x = T.randn(3, 1, requires_grad=True)
        a, b = T.broadcast_tensors(x, T.ones(1, 4))
        return (T.broadcast_shapes((3, 1), (1, 4), 4, [2, 1, 1]), a, b,
                T.broadcast_tensors(x, x)[0] is x)
    same_outcome(fn)


GROUP_NORM = {
    "module": lambda T, x: T.nn.GroupNorm(3, 6)(x),
    "functional_affine": lambda T, x: T.nn.functional.group_norm(
        x, 2, T.linspace(0.5, 2, 6).requires_grad_(), T.linspace(-1, 1, 6).requires_grad_()),
    "one_group": lambda T, x: T.nn.functional.group_norm(x, 1),
    "instance_like": lambda T, x: T.nn.GroupNorm(6, 6, affine=False)(x),
    "no_bias": lambda T, x: T.nn.GroupNorm(2, 6, bias=False)(x),
    "three_dims": lambda T, x: T.nn.functional.group_norm(x.flatten(2), 3, eps=1e-3),
}


@pytest.mark.parametrize("name", sorted(GROUP_NORM))
def test_group_norm_like_torch(name):
    def fn(T):
        T.manual_seed(0)
        x = (T.randn(2, 6, 4, 3) * 3 + 1).requires_grad_()
        y = GROUP_NORM[name](T, x)
        (y * y * T.linspace(-1, 1, y.numel()).view(y.shape)).sum().backward()
        return y, y.grad_fn.name(), x.grad
    same_outcome(fn, rtol=2e-5, atol=2e-5, reprs=False)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.functional.group_norm(T.ones(2, 6, 4), 4),
    lambda T: T.nn.functional.group_norm(T.ones(2, 6, 4), 3, T.ones(3)),
    lambda T: T.nn.GroupNorm(4, 6),
    lambda T: [repr(T.nn.GroupNorm(3, 6)), repr(T.nn.GroupNorm(3, 6, affine=False)),
               [n for n, _ in T.nn.GroupNorm(2, 4, bias=False).named_parameters()]],
], ids=["channels", "weight", "module_channels", "reprs"])
def test_group_norm_errors_and_reprs_like_torch(call):
    same_outcome(call)


FEATURE_DROPOUT = {
    "2d": lambda T, F, x: F.dropout2d(x, 0.3),
    "2d_module_eval": lambda T, F, x: [T.nn.Dropout2d(0.3).eval()(x) is x,
                                       repr(T.nn.Dropout2d(0.3))],
    "2d_all": lambda T, F, x: F.dropout2d(x, 1.0),
    "2d_none": lambda T, F, x: F.dropout2d(x, 0.0) is x,
    "2d_3d_input": lambda T, F, x: F.dropout2d(x[0], 0.5),
    "2d_2d_input": lambda T, F, x: F.dropout2d(x[0, 0], 0.5),
    "2d_in_place": lambda T, F, x: F.dropout2d(x * 1, 0.6, inplace=True),
    "1d": lambda T, F, x: F.dropout1d(x.flatten(2), 0.5),
    "1d_unbatched": lambda T, F, x: T.nn.Dropout1d(0.5)(x[0].flatten(1)),
    "1d_4d_input": lambda T, F, x: F.dropout1d(x, 0.5),
    "p_out_of_range": lambda T, F, x: F.dropout2d(x, 1.5),
}


@pytest.mark.parametrize("name", sorted(FEATURE_DROPOUT))
def test_channel_dropout_matches_torchs_noise(name):
    def fn(T):
        import warnings
        T.manual_seed(0)
        x = T.randn(2, 5, 3, 2, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = FEATURE_DROPOUT[name](T, T.nn.functional, x)
        if isinstance(out, T.Tensor) and out.requires_grad:
            out.sum().backward()
        return out, x.grad, T.rand(2), [str(w.message) for w in caught]
    same_outcome(fn)


@pytest.mark.parametrize("call", [
    lambda T, x: T.conv1d(x[:, :, 0], T.ones(2, 3, 2), T.ones(2), 1, 1),
    lambda T, x: T.conv2d(x, T.ones(2, 3, 2, 2) / 4, None, 2),
    lambda T, x: T.max_pool1d(x[:, :, 0], 2),
    lambda T, x: T.max_pool2d(x, 2, 1, 1),
    lambda T, x: T.avg_pool1d(x[:, :, 0], 2),
    lambda T, x: T.adaptive_avg_pool1d(x[:, :, 0], 3),
    lambda T, x: T.celu(x, 0.5),
    lambda T, x: T.selu(x),
    lambda T, x: T.hardshrink(x, 0.3),
    lambda T, x: T.threshold(x, 0.1, 20.0),
    lambda T, x: T.prelu(x, T.tensor([0.25, 0.5, 0.1])),
    lambda T, x: T.cosine_similarity(x, x.flip(0)),
    lambda T, x: T.bilinear(x[:, 0, 0], x[:, 1, 0], T.ones(2, 4, 4), T.zeros(2)),
    lambda T, x: T.max_pool3d(x.unsqueeze(0), 2),
    lambda T, x: T.adaptive_max_pool1d(x[:, :, 0], 3)[0],
    lambda T, x: T.adaptive_max_pool1d(x[:, :, 0], 3)[1],
    lambda T, x: T.channel_shuffle(T.cat([x, x * 2]), 2),
    lambda T, x: T.pairwise_distance(x[0, 0], x[1, 0]),
    lambda T, x: T.rms_norm(x, [4], None, 1e-5),
    lambda T, x: T.rrelu(x, 0.1, 0.3),
    lambda T, x: T.celu_(x * 1, 0.5),
    lambda T, x: T.selu_(x * 1),
    lambda T, x: T.threshold_(x * 1, 0.2, -1.0),
    lambda T, x: T.alpha_dropout(x, 0.3, True),
    lambda T, x: T.feature_alpha_dropout(x, 0.3, True),
    lambda T, x: T.dropout_(x * 1, 0.3, True),
    lambda T, x: T.hinge_embedding_loss(x, T.ones_like(x).neg_(), 0.5, 0),
    lambda T, x: T.margin_ranking_loss(x[0], x[1], T.ones_like(x[0]), 0.1, 2),
    lambda T, x: T.cosine_embedding_loss(x[:, 0, 0], x[:, 1, 0], T.tensor([1.0, -1.0])),
    lambda T, x: T.triplet_margin_loss(x[0, 0], x[1, 0], x[0, 1], 1.0, 2, 1e-6, True, 1),
    lambda T, x: T.poisson_nll_loss(x, x.detach().abs(), True, True, 1e-8, 1),
    lambda T, x: T.instance_norm(x, None, None, None, None, True, 0.1, 1e-5, False),
    lambda T, x: T.hinge_embedding_loss(x, -T.ones_like(x)),
    lambda T, x: T.margin_ranking_loss(x[0], x[1], T.ones_like(x[0])),
    lambda T, x: T.triplet_margin_loss(x[0, 0], x[1, 0], x[0, 1]),
], ids=["conv1d", "conv2d", "max_pool1d", "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d",
        "celu", "selu", "hardshrink", "threshold", "prelu", "cosine_similarity", "bilinear",
        "max_pool3d", "adaptive_max_pool1d", "adaptive_max_pool1d_indices", "channel_shuffle",
        "pairwise_distance", "rms_norm", "rrelu", "celu_", "selu_", "threshold_",
        "alpha_dropout", "feature_alpha_dropout", "dropout_", "hinge_embedding_loss",
        "margin_ranking_loss", "cosine_embedding_loss", "triplet_margin_loss",
        "poisson_nll_loss", "instance_norm", "hinge_default", "margin_ranking_default",
        "triplet_default"])
def test_nn_functions_in_the_torch_namespace(call):
    """The nn functions torch also names as torch.* (torch.conv2d is F.conv2d; the losses take
    torch's reduction enum, 0/1/2)."""
    def fn(T):
        T.manual_seed(0)
        x = T.randn(2, 3, 4, 4, requires_grad=True)
        y = call(T, x)
        if y.requires_grad:
            y.sum().backward()
        return y, x.grad
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-6)
