"""More of torch.nn against torch 2.13 (helper L): nn.init, normalisation layers, dropout
variants, EmbeddingBag, losses and nn.utils: values, gradients, grad_fn names, seeded
initialisation bit for bit, repr, state_dict keys and torch's errors."""

import warnings

import pytest
from _oracle import both, raised, same_outcome

EXACT = {"rtol": 0, "atol": 0}


def warned(fn):
    """``fn()``'s result and the (category name, message) of the warnings it raised."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn()
    return out, [(x.category.__name__, str(x.message)) for x in w]


# -- nn.init --------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(), (0.5, 2.0), (0.0, 1.0, -0.5, 0.5), (0.0, 1.0, 2.0, 3.0),
                                  (1.0, 0.1, -1.0, 3.0), (0.0, 3.0, -0.1, 0.1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trunc_normal_is_exact(args, dtype):
    def fn(T):
        T.manual_seed(7)
        w = T.empty(40, 30, dtype=getattr(T, dtype), requires_grad=True)
        out = T.nn.init.trunc_normal_(w, *args)
        return out is w, w, T.rand(2)
    same_outcome(fn, **EXACT)


def test_trunc_normal_warns_far_mean_and_takes_a_generator():
    def fn(T):
        g = T.Generator().manual_seed(3)
        w = T.empty(5, 4)
        return warned(lambda: T.nn.init.trunc_normal_(w, 5.0, 1.0, generator=g)), w
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4), (3, 2, 2), (6, 2, 3, 1)])
def test_orthogonal(shape):
    def fn(T):
        T.manual_seed(2)
        w = T.empty(*shape)
        T.nn.init.orthogonal_(w, gain=1.5)
        return w, w._version, T.rand(2)
    same_outcome(fn, rtol=1e-5, atol=1e-6, reprs=False)  # QR: LAPACK vs numpy rounding


@pytest.mark.parametrize("call", [
    lambda T: T.nn.init.eye_(T.empty(3, 5)),
    lambda T: T.nn.init.eye_(T.empty(4, 2, dtype=T.float64)),
    lambda T: T.nn.init.eye_(T.empty(3)),
    lambda T: T.nn.init.dirac_(T.empty(4, 3, 3)),
    lambda T: T.nn.init.dirac_(T.empty(6, 2, 3, 2), groups=2),
    lambda T: T.nn.init.dirac_(T.empty(2, 3, 3, 3, 3)),
    lambda T: T.nn.init.dirac_(T.empty(3, 3)),
    lambda T: T.nn.init.dirac_(T.empty(3, 3, 3), groups=2),
    lambda T: T.nn.init.orthogonal_(T.empty(3)),
    lambda T: T.nn.init.orthogonal_(T.empty(0, 3)),
    lambda T: T.nn.init.sparse_(T.empty(3, 2, 1), 0.5),
])
def test_deterministic_inits_and_errors(call):
    same_outcome(call, **EXACT)


def test_sparse_is_exact():
    def fn(T):
        T.manual_seed(4)
        w = T.empty(7, 5)
        T.nn.init.sparse_(w, 0.3, std=0.5)
        return w, w._version, T.rand(2)
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("name,args", [("uniform", (-1, 2)), ("normal", (0.0, 2.0)),
                                       ("constant", (0.5,)), ("eye", ()), ("xavier_uniform", ()),
                                       ("xavier_normal", ()), ("kaiming_uniform", ()),
                                       ("kaiming_normal", ()), ("orthogonal", ()),
                                       ("sparse", (0.5,))])
def test_deprecated_names_warn(name, args):
    def fn(T):
        T.manual_seed(0)
        w = T.empty(4, 3)
        out, w_ = warned(lambda: getattr(T.nn.init, name)(w, *args))
        return out, w_, getattr(T.nn.init, name).__name__
    same_outcome(fn, rtol=1e-6, atol=1e-7)


def test_deprecated_dirac():
    def fn(T):
        return warned(lambda: T.nn.init.dirac(T.empty(2, 2, 3)))
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("args", [("linear",), ("conv_transpose3d",), ("sigmoid",), ("tanh",),
                                  ("relu",), ("leaky_relu",), ("leaky_relu", 0.3),
                                  ("leaky_relu", 2), ("leaky_relu", True), ("selu",),
                                  ("gelu",)])
def test_calculate_gain(args):
    same_outcome(lambda T: T.nn.init.calculate_gain(*args), **EXACT)


# -- normalisation --------------------------------------------------------------------------

def _fwd_bwd(T, m, x):
    """A module's output on ``x`` and the gradients of ``(out * w).sum()``, w fixed."""
    out = m(x)
    (out * T.linspace(-1, 2, out.numel(), dtype=out.dtype).view(out.shape)).sum().backward()
    grads = [p.grad for p in m.parameters()]
    return out, x.grad, grads


def _x(T, *shape, dtype="float64"):
    T.manual_seed(11)
    return (T.randn(*shape, dtype=getattr(T, dtype)) * 2 + 0.5).requires_grad_()


@pytest.mark.parametrize("make,shape", [
    (lambda T: T.nn.InstanceNorm1d(3), (2, 3, 5)),
    (lambda T: T.nn.InstanceNorm1d(3, affine=True), (3, 5)),
    (lambda T: T.nn.InstanceNorm2d(3, affine=True, track_running_stats=True), (2, 3, 4, 2)),
    (lambda T: T.nn.InstanceNorm2d(3, momentum=None, track_running_stats=True), (3, 4, 2)),
    (lambda T: T.nn.InstanceNorm3d(2, affine=True, bias=False), (2, 2, 3, 2, 2)),
    (lambda T: T.nn.BatchNorm3d(2), (3, 2, 2, 2, 2)),
    (lambda T: T.nn.RMSNorm(4), (2, 3, 4)),
    (lambda T: T.nn.RMSNorm([3, 4], eps=1e-3), (2, 3, 4)),
    (lambda T: T.nn.RMSNorm(4, elementwise_affine=False), (4,)),
    (lambda T: T.nn.LocalResponseNorm(2), (2, 5, 3)),
    (lambda T: T.nn.LocalResponseNorm(3, alpha=0.1, beta=0.5, k=2.0), (2, 5, 3, 2)),
    (lambda T: T.nn.LocalResponseNorm(4, alpha=0.5), (1, 6, 2, 2, 2)),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_norm_layers(make, shape, dtype):
    def fn(T):
        m = make(T).to(getattr(T, dtype))
        out = _fwd_bwd(T, m, _x(T, *shape, dtype=dtype))
        m.eval()
        evaluated = m(_x(T, *shape, dtype=dtype))
        return (out, evaluated, repr(m), list(m.state_dict()), dict(m.named_buffers()))
    same_outcome(fn, rtol=2e-6 if dtype == "float32" else 1e-12, atol=1e-6, reprs=False)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.InstanceNorm1d(3)(T.randn(2, 3, 1)),
    lambda T: T.nn.InstanceNorm1d(3)(T.randn(2, 3, 4, 4)),
    lambda T: T.nn.InstanceNorm2d(3, affine=True)(T.randn(2, 4, 3, 3)),
    lambda T: warned(lambda: T.nn.InstanceNorm2d(3)(T.ones(2, 4, 3, 3)))[1],
    lambda T: T.nn.BatchNorm3d(2)(T.randn(2, 2, 3)),
    lambda T: T.nn.functional.rms_norm(T.randn(2, 3), [4]),
    lambda T: T.nn.functional.rms_norm(T.randn(2, 3), [3], T.ones(2)),
    lambda T: T.nn.functional.rms_norm(T.randn(2, 3), [4], T.ones(2)),
    lambda T: T.nn.functional.rms_norm(T.randn(2, 3), []),
    lambda T: T.nn.functional.rms_norm(T.randn(2, 3), [3, 4]),
    lambda T: T.nn.functional.local_response_norm(T.randn(2, 3), 2),
    lambda T: T.nn.functional.local_response_norm(T.randn(0, 3, 2), 2),
    lambda T: T.nn.functional.instance_norm(T.randn(2, 3, 1, 1)),
    lambda T: T.nn.Softmax2d()(T.randn(2, 3)),
])
def test_norm_errors(call):
    same_outcome(call)


def test_functional_instance_norm_running_stats():
    def fn(T):
        x = _x(T, 2, 3, 4)
        rm, rv = T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64)
        out = T.nn.functional.instance_norm(x, rm, rv, momentum=0.3)
        ev = T.nn.functional.instance_norm(x, rm, rv, use_input_stats=False)
        return out, ev, rm, rv, rm._version
    same_outcome(fn)


# -- dropout variants and Softmax2d ----------------------------------------------------------

@pytest.mark.parametrize("make,shape", [
    (lambda T: T.nn.Dropout3d(0.4), (2, 3, 2, 2, 2)),
    (lambda T: T.nn.Dropout3d(), (3, 2, 2, 2)),
    (lambda T: T.nn.AlphaDropout(0.3), (4, 5)),
    (lambda T: T.nn.FeatureAlphaDropout(0.6), (3, 4, 2)),
    (lambda T: T.nn.AlphaDropout(1.0), (4, 5)),
    (lambda T: T.nn.Softmax2d(), (2, 3, 2, 2)),
])
def test_dropout_variants_are_seeded_like_torch(make, shape):
    def fn(T):
        m = make(T)
        T.manual_seed(5)
        out = _fwd_bwd(T, m, _x(T, *shape, dtype="float32"))
        m.eval()
        return out, m(T.ones(shape)), repr(m), T.rand(2)
    same_outcome(fn, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.functional.alpha_dropout(T.ones(3, 4), 0.5, True, inplace=True),
    lambda T: T.nn.functional.feature_alpha_dropout(T.ones(3, 4, 2), 0.5, True, inplace=True),
    lambda T: T.nn.functional.feature_alpha_dropout(T.ones(3), 0.5, True),
    lambda T: T.nn.functional.alpha_dropout(T.ones(3), 1.5, True),
    lambda T: T.nn.functional.alpha_dropout(T.ones(3), 0.5),
    lambda T: warned(lambda: T.nn.functional.dropout3d(T.ones(2, 3, 4), 0.5))[1],
    lambda T: T.nn.functional.dropout3d(T.ones(2, 3, 2, 2, 2), 0.5, inplace=True),
])
def test_dropout_functions(call):
    def fn(T):
        T.manual_seed(9)
        return call(T)
    same_outcome(fn, **EXACT)


# -- EmbeddingBag ---------------------------------------------------------------------------

def _bag_case(T, mode, dtype="float32", **kw):
    T.manual_seed(3)
    m = T.nn.EmbeddingBag(6, 3, mode=mode, dtype=getattr(T, dtype), **kw)
    return m


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("kw", [{}, {"padding_idx": 2}, {"padding_idx": -1},
                                {"include_last_offset": True}])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_embedding_bag_1d_offsets(mode, kw, dtype):
    def fn(T):
        m = _bag_case(T, mode, dtype, **kw)
        idx = T.tensor([0, 2, 1, 5, 5, 2, 3])
        offsets = T.tensor([0, 2, 2, 5] + ([7] if kw.get("include_last_offset") else []))
        return _fwd_bwd(T, lambda x: m(idx, offsets), None)[0::2], repr(m), \
            list(m.state_dict()), m.weight.grad
    same_outcome(fn, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_2d_input(mode):
    def fn(T):
        m = _bag_case(T, mode, "float64")
        out = m(T.tensor([[0, 2, 4], [5, 5, 1]], dtype=T.int32))
        out.sum().backward()
        return out, m.weight.grad
    same_outcome(fn)


def test_embedding_bag_per_sample_weights():
    def fn(T):
        m = _bag_case(T, "sum", "float64", padding_idx=1)
        psw = T.linspace(0.5, 2, 6, dtype=T.float64, requires_grad=True)
        out = m(T.tensor([0, 1, 4, 4, 3, 1]), T.tensor([0, 3]), per_sample_weights=psw)
        (out * T.arange(6.0, dtype=T.float64).view(2, 3)).sum().backward()
        return out, m.weight.grad, psw.grad
    same_outcome(fn)


def test_embedding_bag_max_norm_and_pretrained():
    def fn(T):
        T.manual_seed(0)
        w = T.randn(5, 2) * 3
        m = T.nn.EmbeddingBag.from_pretrained(w, max_norm=1.0, mode="sum")
        return m(T.tensor([[1, 3], [3, 4]])), m.weight, m.weight.requires_grad, repr(m)
    same_outcome(fn, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("call", [
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2, 1, 5]), w, T.tensor([1, 2])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2, 1, 5]), w, T.tensor([0, 7])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2, 1, 9]), w, T.tensor([0, 2])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2, 1, 1]), w, T.tensor([0, 3, 2])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0.0, 2.0]), w, T.tensor([0])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w, T.tensor([0]),
                                               padding_idx=7),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([[0, 2]]), w, T.tensor([0])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w, T.tensor([[0]])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([[[0, 2]]]), w),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w[0], T.tensor([0])),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w, T.tensor([0]), mode="x"),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w, T.tensor([0]), mode="max",
                                               scale_grad_by_freq=True),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w, T.tensor([0]),
                                               per_sample_weights=T.ones(2)),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([0, 2]), w, T.tensor([0]),
                                               per_sample_weights=T.ones(3)),
    lambda T, w: T.nn.functional.embedding_bag(T.tensor([], dtype=T.long), w,
                                               T.tensor([0, 0])),
    lambda T, w: T.nn.EmbeddingBag(3, 2, padding_idx=3),
    lambda T, w: T.nn.EmbeddingBag(3, 2, _weight=w),
])
def test_embedding_bag_errors(call):
    same_outcome(lambda T: call(T, T.ones(6, 3)))


# -- losses ---------------------------------------------------------------------------------

def _t(T, values):
    return T.tensor(values, dtype=T.float64)


_SIGNS = [1.0, -1.0, 1.0, -1.0]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("make,args", [
    (lambda T, r: T.nn.MarginRankingLoss(0.5, reduction=r), lambda T: ((4,), (4,), _SIGNS)),
    (lambda T, r: T.nn.HingeEmbeddingLoss(1.5, reduction=r), lambda T: ((4, 3), [_SIGNS[:3]])),
    (lambda T, r: T.nn.CosineEmbeddingLoss(0.1, reduction=r), lambda T: ((4, 3), (4, 3), _SIGNS)),
    (lambda T, r: T.nn.CosineEmbeddingLoss(reduction=r), lambda T: ((3,), (3,), -1.0)),
    (lambda T, r: T.nn.TripletMarginLoss(reduction=r), lambda T: ((4, 3), (4, 3), (4, 3))),
    (lambda T, r: T.nn.TripletMarginLoss(2.0, p=1, swap=True, reduction=r),
     lambda T: ((4, 3), (4, 3), (4, 3))),
    (lambda T, r: T.nn.TripletMarginWithDistanceLoss(reduction=r, swap=True),
     lambda T: ((4, 3), (4, 3), (4, 3))),
    (lambda T, r: T.nn.TripletMarginWithDistanceLoss(
        distance_function=lambda a, b: 1 - T.nn.functional.cosine_similarity(a, b), margin=0.5,
        reduction=r), lambda T: ((4, 3), (4, 3), (4, 3))),
    (lambda T, r: T.nn.PoissonNLLLoss(reduction=r), lambda T: ((4, 3), [[0.0, 1.0, 3.0]] * 4)),
    (lambda T, r: T.nn.PoissonNLLLoss(log_input=False, full=True, reduction=r),
     lambda T: ("pos", [[0.0, 1.0, 3.0]] * 4)),
    (lambda T, r: T.nn.GaussianNLLLoss(reduction=r), lambda T: ((4, 3), (4, 3), "var")),
    (lambda T, r: T.nn.GaussianNLLLoss(full=True, reduction=r),
     lambda T: ((4, 3), (4, 3), "var1")),
    (lambda T, r: T.nn.MultiLabelSoftMarginLoss(reduction=r),
     lambda T: ((4, 3), [[0.0, 1.0, 1.0]] * 4)),
    (lambda T, r: T.nn.MultiLabelSoftMarginLoss(weight=T.tensor([0.5, 1.0, 2.0],
                                                                dtype=T.float64), reduction=r),
     lambda T: ((4, 3), [[1.0, 0.0, 1.0]] * 4)),
])
def test_losses(make, args, reduction):
    def fn(T):
        T.manual_seed(1)
        inputs = []
        for a in args(T):
            if isinstance(a, tuple):
                inputs.append(T.randn(*a, dtype=T.float64, requires_grad=True))
            elif a == "pos":
                inputs.append((T.rand(4, 3, dtype=T.float64) + 0.1).requires_grad_())
            elif a == "var":
                inputs.append((T.rand(4, 3, dtype=T.float64) + 0.1).requires_grad_())
            elif a == "var1":
                inputs.append((T.rand(4, 1, dtype=T.float64) + 0.1).requires_grad_())
            else:
                inputs.append(_t(T, a))
        m = make(T, reduction)
        out = m(*inputs)
        out.sum().backward()
        return out, [x.grad for x in inputs], repr(m), list(m.state_dict())
    same_outcome(fn)


@pytest.mark.parametrize("call", [
    lambda T, x: T.nn.functional.margin_ranking_loss(x, x, x[0]),
    lambda T, x: T.nn.functional.margin_ranking_loss(x, x, x, reduction="avg"),
    lambda T, x: T.nn.functional.hinge_embedding_loss(x, x, reduction="x"),
    lambda T, x: T.nn.functional.cosine_embedding_loss(x, x, x),
    lambda T, x: T.nn.functional.cosine_embedding_loss(x, x, x[0, 0]),
    lambda T, x: T.nn.functional.cosine_embedding_loss(x[0], x[0], x[0]),
    lambda T, x: T.nn.functional.triplet_margin_loss(x, x, x, margin=0),
    lambda T, x: T.nn.functional.triplet_margin_loss(x, x, x[0]),
    lambda T, x: T.nn.functional.triplet_margin_with_distance_loss(x, x[0], x),
    lambda T, x: T.nn.functional.triplet_margin_with_distance_loss(x, x, x, margin=-1.0),
    lambda T, x: T.nn.functional.triplet_margin_with_distance_loss(x, x, x, reduction="x"),
    lambda T, x: T.nn.functional.poisson_nll_loss(x, x, reduction="x"),
    lambda T, x: T.nn.functional.gaussian_nll_loss(x, x, -1.0),
    lambda T, x: T.nn.functional.gaussian_nll_loss(x, x, x - 10),
    lambda T, x: T.nn.functional.gaussian_nll_loss(x, x, x[:, :2].abs()),
    lambda T, x: T.nn.functional.gaussian_nll_loss(x, x, x.abs(), reduction="x"),
    lambda T, x: T.nn.functional.gaussian_nll_loss(x, x, 0.5),
    lambda T, x: T.nn.functional.gaussian_nll_loss(x, x, x[:, 0].abs()),
    lambda T, x: T.nn.functional.multilabel_soft_margin_loss(x, x, reduction="x"),
    lambda T, x: T.nn.TripletMarginLoss(margin=0),
    lambda T, x: T.nn.TripletMarginWithDistanceLoss(margin=-1),
    lambda T, x: T.nn.functional.pairwise_distance(x, x * 2, p=1, keepdim=True),
    lambda T, x: T.nn.functional.pairwise_distance(x, x[0] + 1, p=float("inf")),
    lambda T, x: T.nn.PairwiseDistance(p=3.0)(x, x.flip(0)),
    lambda T, x: warned(lambda: T.nn.MarginRankingLoss(size_average=False))[1],
])
def test_loss_errors_and_edges(call):
    def fn(T):
        T.manual_seed(0)
        return call(T, T.randn(4, 3))
    same_outcome(fn)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("make,target", [
    (lambda T, r: T.nn.SoftMarginLoss(reduction=r),
     lambda T: T.tensor([[1.0, -1.0, 1.0, 1.0]] * 3, dtype=T.float64)),
    (lambda T, r: T.nn.MultiLabelMarginLoss(reduction=r),
     lambda T: T.tensor([[0, 1, -1, 2], [3, -1, 0, 0], [1, 2, 3, 0]])),
    (lambda T, r: T.nn.MultiMarginLoss(reduction=r), lambda T: T.tensor([1, 0, 3])),
    (lambda T, r: T.nn.MultiMarginLoss(p=2, margin=0.5, reduction=r,
                                       weight=T.tensor([1.0, 2.0, 0.5, 1.0], dtype=T.float64)),
     lambda T: T.tensor([1, 0, 3])),
])
def test_margin_loss_modules(make, target, reduction):
    def fn(T):
        T.manual_seed(1)
        x = T.randn(3, 4, dtype=T.float64, requires_grad=True)
        m = make(T, reduction)
        out = m(x, target(T))
        out.sum().backward()
        return out, x.grad, repr(m), list(m.state_dict())
    same_outcome(fn)


@pytest.mark.parametrize("call", [
    lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([1, 0])),
    lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([1.0, 0, 1])),
    lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([1, 0, 1]), p=3),
    lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([1, 0, 1]), weight=T.ones(3)),
    lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([1, 0, 1]), weight=T.ones(2, 2)),
    lambda T, x: T.nn.functional.multi_margin_loss(x, T.tensor([1, 0, 1]), reduction="x"),
    lambda T, x: T.nn.functional.multi_margin_loss(T.randn(2, 3, 4), T.tensor([1, 0])),
    lambda T, x: T.nn.functional.multi_margin_loss(x[0], T.tensor(1), reduction="none"),
    lambda T, x: T.nn.functional.multilabel_margin_loss(x, T.tensor([[0, 1, -1]] * 3)),
    lambda T, x: T.nn.functional.multilabel_margin_loss(x, T.tensor([[0, 1, -1, 2.0]] * 3)),
    lambda T, x: T.nn.functional.multilabel_margin_loss(x[0], T.tensor([2, -1, 0, 1])),
    lambda T, x: T.nn.functional.soft_margin_loss(x, T.ones(3)),
    lambda T, x: T.nn.functional.soft_margin_loss(x, T.ones(3, 4, requires_grad=True)),
    lambda T, x: T.nn.MultiMarginLoss(p=3),
    lambda T, x: T.nn.MultiMarginLoss(weight=T.ones(2, 2)),
])
def test_margin_loss_errors(call):
    def fn(T):
        T.manual_seed(0)
        return call(T, T.randn(3, 4))
    same_outcome(fn)


# -- GLU and RReLU --------------------------------------------------------------------------

@pytest.mark.parametrize("make,shape", [
    (lambda T: T.nn.GLU(), (3, 4)),
    (lambda T: T.nn.GLU(0), (4, 3)),
    (lambda T: T.nn.RReLU(), (4, 5)),
    (lambda T: T.nn.RReLU(0.1, 0.3), (3, 2, 4)),
    (lambda T: T.nn.RReLU(0.2, 0.2), (4, 5)),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_glu_rrelu(make, shape, dtype):
    def fn(T):
        m = make(T)
        T.manual_seed(5)
        out = _fwd_bwd(T, m, _x(T, *shape, dtype=dtype))
        m.eval()
        return out, m(_x(T, *shape, dtype=dtype)), repr(m), T.rand(2)
    # float64 training slopes: torch rounds a few draws to a neighbouring double (1 ulp)
    same_outcome(fn, rtol=1e-6 if dtype == "float32" else 1e-15, atol=1e-7, reprs=False)


def test_rrelu_float32_noise_is_exact():
    def fn(T):
        T.manual_seed(2)
        x = T.randn(50, 7)
        T.manual_seed(3)
        return T.nn.functional.rrelu(x, 0.1, 0.3, training=True), T.rand(2)
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.functional.glu(T.tensor(1.0)),
    lambda T: T.nn.functional.glu(T.randn(3, 5), 1),
    lambda T: T.nn.functional.glu(T.randn(2), 3),
    lambda T: T.nn.functional.glu(T.tensor([1, 2])),
    lambda T: T.nn.functional.rrelu(T.tensor([1.0, 2.0]), 0.5, 0.1, training=True),
    lambda T: T.nn.functional.rrelu_(T.tensor([-1.0, 2.0]), training=True),
    lambda T: repr(T.nn.RReLU(0.1, 0.2, inplace=True)),
])
def test_glu_rrelu_errors(call):
    def fn(T):
        T.manual_seed(0)
        return call(T)
    same_outcome(fn)


# -- nn.utils -------------------------------------------------------------------------------

def _net(T):
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2))
    net(T.randn(5, 3)).pow(2).sum().backward()
    return net


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.0, float("inf")])
@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_grad_norm(norm_type, max_norm):
    def fn(T):
        net = _net(T)
        total = T.nn.utils.clip_grad_norm_(net.parameters(), max_norm, norm_type, foreach=False)
        return total, [p.grad for p in net.parameters()], [p.grad._version
                                                           for p in net.parameters()]
    same_outcome(fn, rtol=1e-6, atol=1e-7)


def test_get_total_norm_and_clip_grads_with_norm():
    def fn(T):
        net = _net(T)
        grads = [p.grad for p in net.parameters()]
        total = T.nn.utils.get_total_norm(grads, 2.0)
        T.nn.utils.clip_grads_with_norm_(net.parameters(), 0.1, total)
        value = T.nn.utils.clip_grad_value_(net.parameters(), 0.01)
        return total, value, grads, T.nn.utils.get_total_norm([]), \
            T.nn.utils.get_total_norm(grads[0], 1)
    same_outcome(fn, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("call", [
    lambda T, net: T.nn.utils.clip_grad_norm_(net.parameters(), 1.0,
                                              error_if_nonfinite=True) if
    net[0].weight.grad.fill_(float("inf")) is not None else None,
    lambda T, net: warned(lambda: T.nn.utils.clip_grad_norm_((p for p in []), 1.0))[1],
    lambda T, net: warned(lambda: T.nn.utils.clip_grad_norm(net.parameters(), 1.0)),
    lambda T, net: T.nn.utils.vector_to_parameters([1.0], net.parameters()),
    lambda T, net: T.nn.utils.skip_init(T.nn.Tanh),
    lambda T, net: T.nn.utils.skip_init(int),
    lambda T, net: (T.nn.utils.skip_init(T.nn.Linear, 3, 2).weight.shape, T.rand(2)),
])
def test_utils_errors_and_edges(call):
    def fn(T):
        return call(T, _net(T))
    same_outcome(fn, rtol=1e-6, atol=1e-7)


def test_parameters_vector_round_trip():
    def fn(T):
        net = _net(T)
        vec = T.nn.utils.parameters_to_vector(net.parameters())
        T.nn.utils.vector_to_parameters(vec * 2, net.parameters())
        return vec, list(net.parameters())
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("transpose", [False, True])
def test_fuse_conv_bn(transpose):
    def fn(T):
        T.manual_seed(0)
        conv = (T.nn.ConvTranspose2d(2, 3, 2) if transpose else T.nn.Conv2d(2, 3, 2)).eval()
        bn = T.nn.BatchNorm2d(3).eval()
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        fused = T.nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
        x = T.randn(1, 2, 4, 4)
        return fused(x), bn(conv(x)), fused.weight, fused.bias, repr(fused)
    same_outcome(fn, rtol=1e-5, atol=1e-6)


def test_fuse_linear_bn_and_errors():
    def fn(T):
        T.manual_seed(0)
        lin, bn = T.nn.Linear(3, 4).eval(), T.nn.BatchNorm1d(4).eval()
        bn.running_mean.uniform_(-1, 1)
        fused = T.nn.utils.fuse_linear_bn_eval(lin, bn)
        x = T.randn(2, 3)
        errors = []
        for call in (lambda: T.nn.utils.fuse_linear_bn_eval(T.nn.Linear(3, 4), bn),
                     lambda: T.nn.utils.fuse_linear_bn_eval(T.nn.Linear(3, 5).eval(), bn),
                     lambda: T.nn.utils.fuse_conv_bn_eval(
                         T.nn.Conv1d(1, 4, 1).eval(), T.nn.BatchNorm1d(
                             4, track_running_stats=False).eval())):
            try:
                call()
            except AssertionError as e:
                errors.append(str(e))
        return fused(x), bn(lin(x)), fused.weight, errors
    same_outcome(fn, rtol=1e-5, atol=1e-6)


def test_weight_norm_hook():
    def fn(T):
        T.manual_seed(0)
        m, w = warned(lambda: T.nn.utils.weight_norm(T.nn.Linear(3, 2)))
        x = T.randn(4, 3)
        y = m(x)
        y.sum().backward()
        keys = list(m.state_dict())
        again = warned(lambda: T.nn.utils.weight_norm(m))
        T.nn.utils.remove_weight_norm(m)
        return (y, m.weight_g.grad if hasattr(m, "weight_g") else None, w, keys, again,
                list(m.state_dict()), m.weight, type(m.weight).__name__)
    same_outcome(fn, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("dim", [0, 1, None, 2])
def test_weight_norm_dims(dim):
    def fn(T):
        T.manual_seed(0)
        m = T.nn.utils.weight_norm(T.nn.Conv1d(2, 3, 2), dim=dim)
        y = m(T.randn(1, 2, 4))
        y.sum().backward()
        return y, m.weight_g, m.weight_g.grad, m.weight_v.grad, m.weight.grad_fn is not None
    same_outcome(fn, rtol=1e-5, atol=1e-6)


def test_remove_weight_norm_error():
    same_outcome(lambda T: T.nn.utils.remove_weight_norm(T.nn.Linear(2, 2)))


def test_parametrize():
    def fn(T):
        P = T.nn.utils.parametrize

        class Symmetric(T.nn.Module):
            def forward(self, x):
                return x.triu() + x.triu(1).transpose(-1, -2)

            def right_inverse(self, a):
                return a.triu()

        class Double(T.nn.Module):
            def forward(self, x):
                return x * 2

        T.manual_seed(0)
        m = T.nn.Linear(3, 3)
        P.register_parametrization(m, "weight", Symmetric())
        P.register_parametrization(m, "weight", Double())
        out = [type(m).__name__, repr(m), list(m.state_dict()), m.weight,
               P.is_parametrized(m), P.is_parametrized(m, "bias"),
               P.type_before_parametrizations(m).__name__]
        m(T.ones(2, 3)).sum().backward()
        out.append(m.parametrizations.weight.original.grad)
        with P.cached():
            out.append(m.weight is m.weight)
        m.weight = T.eye(3) * 4
        out.append(m.parametrizations.weight.original)
        P.remove_parametrizations(m, "weight")
        out += [type(m).__name__, list(m.state_dict()), m.weight, P.is_parametrized(m)]
        return out
    same_outcome(fn, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("call", [
    lambda T, P, m: P.register_parametrization(m, "foo", T.nn.Identity()),
    lambda T, P, m: P.remove_parametrizations(m, "weight"),
    lambda T, P, m: P.register_parametrization(m, "weight", T.nn.Flatten(0)),
    lambda T, P, m: (P.register_parametrization(m, "weight", T.nn.Identity()),
                     setattr(m, "weight", T.ones(2, 2)))[1],
])
def test_parametrize_errors(call):
    def fn(T):
        T.manual_seed(0)
        return call(T, T.nn.utils.parametrize, T.nn.Linear(2, 2))
    ours, theirs = both(fn)
    assert type(ours).__name__ == type(theirs).__name__
    assert getattr(ours, "message", None) == getattr(theirs, "message", None) or \
        ours.message.replace("doctensor", "torch") == theirs.message


def test_parametrizations_weight_norm():
    def fn(T):
        T.manual_seed(0)
        m = T.nn.utils.parametrizations.weight_norm(T.nn.Linear(3, 2))
        y = m(T.randn(4, 3))
        y.sum().backward()
        p = m.parametrizations.weight
        return (y, list(m.state_dict()), p.original0, p.original0.grad, p.original1.grad,
                repr(m))
    same_outcome(fn, rtol=1e-6, atol=1e-7)


def test_functional_call():
    def fn(T):
        T.manual_seed(0)
        m = T.nn.Sequential(T.nn.Linear(3, 2), T.nn.BatchNorm1d(2)).eval()
        x = T.randn(4, 3)
        w = T.ones(2, 3, requires_grad=True)
        out, warns = warned(lambda: T.nn.utils.stateless.functional_call(
            m, {"0.weight": w, "1.running_mean": T.zeros(2)}, (x,)))
        out.sum().backward()
        strict = raised(lambda: T.nn.utils.stateless.functional_call(
            m, {"0.weight": w, "x": w}, x, strict=True))
        return out, w.grad, warns, m[0].weight, m(x), strict
    same_outcome(fn, rtol=1e-6, atol=1e-7)


def _spectral_run(T, make):
    """A seeded layer ``make(T)`` (a Linear(4, _), Conv2d(2, ...) or ConvTranspose1d(2, ...))
    on a seeded input that fits it, its output's sum backpropagated: (layer, input, output)."""
    T.manual_seed(0)
    m = make(T)
    x = T.randn(2, 4) if isinstance(m, T.nn.Linear) else \
        T.randn(1, 2, 3, 3) if isinstance(m, T.nn.Conv2d) else T.randn(1, 2, 3)
    y = m(x)
    y.sum().backward()
    return m, x, y


@pytest.mark.parametrize("make", [
    lambda T: T.nn.utils.spectral_norm(T.nn.Linear(4, 3)),
    lambda T: T.nn.utils.spectral_norm(T.nn.Conv2d(2, 3, 2), n_power_iterations=3),
    lambda T: T.nn.utils.spectral_norm(T.nn.ConvTranspose1d(2, 3, 2), eps=1e-6),
])
def test_spectral_norm_hook(make):
    def fn(T):
        m, x, y = _spectral_run(T, make)
        state = (list(m.state_dict()), m.weight_u, m.weight_v, m.weight_u._version,
                 m.weight_orig.grad)
        m.eval()
        evaluated = m(x)
        T.nn.utils.remove_spectral_norm(m)
        return y, state, evaluated, list(m.state_dict()), m.weight, T.rand(2)
    same_outcome(fn, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.utils.spectral_norm(T.nn.Linear(2, 2), n_power_iterations=0),
    lambda T: T.nn.utils.spectral_norm(T.nn.utils.spectral_norm(T.nn.Linear(2, 2))),
    lambda T: T.nn.utils.spectral_norm(T.nn.Linear(2, 2, bias=False), name="bias"),
    lambda T: T.nn.utils.remove_spectral_norm(T.nn.Linear(2, 2)),
])
def test_spectral_norm_errors(call):
    same_outcome(call)


# -- ParameterList and ParameterDict --------------------------------------------------------

def test_parameter_list():
    def fn(T):
        T.manual_seed(0)
        pl = T.nn.ParameterList([T.randn(2), T.nn.Parameter(T.ones(3, 2)), "x"])
        pl.append(T.zeros(1))
        pl += [T.ones(2, dtype=T.float64)]
        m = T.nn.Module()
        m.p = pl
        out = [repr(pl), len(pl), [type(p).__name__ for p in pl], list(m.state_dict()),
               pl[-1], repr(pl[1:3]), len(list(m.parameters()))]
        pl[0] = T.zeros(2)
        out += [pl[0], type(pl[0]).__name__, repr(m)]
        for call in (lambda: pl[7], lambda: pl.extend(T.ones(2)), lambda: pl(1)):
            out.append(raised(call))
        return out
    same_outcome(fn, **EXACT)


def test_parameter_dict():
    def fn(T):
        pd = T.nn.ParameterDict({"b": T.ones(2), "a": T.zeros(2, dtype=T.float64)})
        pd["c"] = T.nn.Parameter(T.ones(1))
        pd.update([("d", "text")])
        out = [repr(pd), list(pd.state_dict()), list(pd.keys()), "a" in pd, len(pd),
               pd.get("zz", 3), pd.setdefault("e", T.ones(3)), list(reversed(pd))]
        out += [pd.popitem()[0], pd.pop("a"), list(pd), repr(pd.copy()),
                list(pd | T.nn.ParameterDict({"f": T.ones(1)})),
                list(pd.fromkeys(["x", "y"]))]
        for call in (lambda: pd[1], lambda: pd.update(3), lambda: pd.update([(1, 2, 3)]),
                     lambda: pd.update([3]), lambda: pd(1)):
            out.append(raised(call))
        pd.clear()
        return out, len(pd)
    same_outcome(fn, **EXACT)


def test_sync_batch_norm_single_process():
    def fn(T):
        T.manual_seed(0)
        m = T.nn.SyncBatchNorm(3)
        x = T.randn(2, 3, 4, requires_grad=True)
        out = m(x)
        (out * T.linspace(-1, 2, 24).view(2, 3, 4)).sum().backward()
        m.eval()
        errors = [raised(lambda: m(T.randn(3))),
                  raised(lambda: m(T.randn(2, 0)))]
        return out, x.grad, m.running_mean, m.num_batches_tracked, m(x), repr(m), errors
    same_outcome(fn, rtol=1e-6, atol=1e-6)


def test_deprecated_nllloss2d_and_container():
    def fn(T):
        loss, w1 = warned(lambda: T.nn.NLLLoss2d(reduction="sum"))
        box, w2 = warned(lambda: T.nn.Container(a=T.nn.Linear(1, 1)))
        x = T.log_softmax(T.arange(6.0).view(2, 3), 1)
        return loss(x, T.tensor([0, 2])), w1, w2, repr(box), repr(loss)
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("call", [
    lambda F, x: F.relu_(x), lambda F, x: F.elu_(x, 0.5), lambda F, x: F.celu_(x, 2.0),
    lambda F, x: F.selu_(x), lambda F, x: F.leaky_relu_(x, 0.2),
    lambda F, x: F.hardtanh_(x, -0.5, 0.5), lambda F, x: F.threshold_(x, 0.1, 2.0),
])
def test_inplace_activations(call):
    def fn(T):
        T.manual_seed(0)
        leaf = T.randn(6, dtype=T.float64, requires_grad=True)
        x = leaf * 1
        y = call(T.nn.functional, x)
        (y * T.arange(6.0, dtype=T.float64)).sum().backward()
        return y is x, y, x._version, leaf.grad
    same_outcome(fn)


@pytest.mark.parametrize("kw", [{}, {"tau": 0.5}, {"hard": True}, {"hard": True, "dim": 0},
                                {"eps": 1e-5}])
def test_gumbel_softmax_is_seeded_like_torch(kw):
    def fn(T):
        T.manual_seed(0)
        logits = T.randn(3, 4, requires_grad=True)
        y, w = warned(lambda: T.nn.functional.gumbel_softmax(logits, **kw))
        (y * T.arange(12.0).view(3, 4)).sum().backward()
        return y, logits.grad, w, T.rand(2)
    same_outcome(fn, rtol=1e-6, atol=1e-7)


# -- AdaptiveLogSoftmaxWithLoss -------------------------------------------------------------

@pytest.mark.parametrize("target", [[0, 5, 9, 2, 7], [1, 2, 0, 3, 1], [9, 8, 7, 6, 9], 6])
def test_adaptive_log_softmax(target):
    def fn(T):
        T.manual_seed(0)
        m = T.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 7], div_value=2.0, head_bias=True)
        t = T.tensor(target)
        x = T.randn(*((5, 8) if t.dim() else (8,)), requires_grad=True)
        out = m(x, t)
        out.loss.backward()
        xs = T.randn(6, 8) * 3
        return (type(out).__name__, out.output, out.loss, x.grad, m.head.weight.grad,
                list(m.state_dict()), repr(m), m.log_prob(xs), m.predict(xs))
    # (float32 log-probabilities within an ulp: a printed 4th decimal may round either way)
    same_outcome(fn, rtol=1e-5, atol=1e-6, reprs=False)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, []),
    lambda T: T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [5, 3]),
    lambda T: T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [10]),
    lambda T: T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(T.randn(2, 4), T.tensor([1, 12])),
    lambda T: T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(T.randn(2, 4), T.tensor([1])),
    lambda T: T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(T.randn(2, 4), T.tensor(1)),
    lambda T: T.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(T.randn(2, 4), T.ones(2, 2).long()),
])
def test_adaptive_log_softmax_errors(call):
    def fn(T):
        T.manual_seed(0)
        return call(T)
    same_outcome(fn)


# -- CTCLoss --------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("case", ["padded", "lists", "unbatched", "blank", "zero_inf"])
def test_ctc_loss_module(reduction, case):
    def fn(T):
        T.manual_seed(0)
        x = T.randn(7, 3, 5, dtype=T.float64, requires_grad=True)
        targets = T.tensor([[1, 2, 2, 4], [3, 1, 0, 0], [4, 4, 4, 1]])
        il, tl = T.tensor([7, 5, 6]), T.tensor([4, 2, 3])
        m = T.nn.CTCLoss(reduction=reduction)
        if case == "lists":
            il, tl = [7, 5, 6], [4, 2, 3]
        elif case == "unbatched":
            x = T.randn(7, 5, dtype=T.float64, requires_grad=True)
            targets, il, tl = T.tensor([1, 3, 3]), T.tensor([7]), T.tensor([3])
        elif case == "blank":
            m = T.nn.CTCLoss(blank=4, reduction=reduction)
            targets = targets % 4
        elif case == "zero_inf":
            m = T.nn.CTCLoss(reduction=reduction, zero_infinity=True)
            il = T.tensor([3, 5, 6])
        out = m(x.log_softmax(-1), targets, il, tl)
        out.sum().backward()
        return out, x.grad, repr(m)
    same_outcome(fn)


@pytest.mark.parametrize("call", [
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [6, 5], [3, 2], blank=4),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [7, 5], [3, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [6, 5], [4, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [6], [3, 2]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [6, 5], [3]),
    lambda T, lp, tg: T.nn.functional.ctc_loss(lp, tg, [6, 5], [3, 2], reduction="x"),
])
def test_ctc_loss_errors(call):
    def fn(T):
        T.manual_seed(0)
        lp = T.randn(6, 2, 4).log_softmax(2)
        return call(T, lp, T.tensor([[1, 2, 2], [3, 1, 0]]))
    same_outcome(fn)


@pytest.mark.parametrize("make", [
    lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.Linear(4, 3)),
    lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.Conv2d(2, 3, 2),
                                                        n_power_iterations=2),
    lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.ConvTranspose1d(2, 3, 2)),
    lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.Linear(4, 3), name="bias"),
])
def test_parametrizations_spectral_norm(make):
    def fn(T):
        m, x, y = _spectral_run(T, make)
        p = next(iter(m.parametrizations.values()))
        state = list(m.state_dict()), dict(p.named_buffers()), p.original.grad
        m.eval()
        return y, state, m(x), repr(m), T.rand(2)
    same_outcome(fn, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.Linear(2, 2), name="foo"),
    lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.Linear(2, 2), dim=2),
    lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.Linear(2, 2),
                                                        n_power_iterations=0),
])
def test_parametrizations_spectral_norm_errors(call):
    _assert_same_error(call)


def _assert_same_error(call):
    """``call(T)`` raises torch's error: its type and message (doctensor named as torch)."""
    ours, theirs = both(call)
    assert (ours.type, ours.message.replace("doctensor", "torch")) == \
        (theirs.type, theirs.message)


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 5)])
@pytest.mark.parametrize("kw", [{}, {"orthogonal_map": "cayley"},
                                {"orthogonal_map": "householder"},
                                {"orthogonal_map": "householder", "use_trivialization": False},
                                {"orthogonal_map": "matrix_exp"}])
def test_parametrizations_orthogonal(shape, kw):
    def fn(T):
        T.manual_seed(0)
        m = T.nn.utils.parametrizations.orthogonal(T.nn.Linear(shape[1], shape[0]), **kw)
        w = m.weight
        gram = w @ w.mT if shape[0] <= shape[1] else w.mT @ w
        y = m(T.randn(2, shape[1]))
        y.sum().backward()
        return (w, gram, list(m.state_dict()), m.parametrizations.weight.original.grad,
                repr(m), T.rand(2))
    same_outcome(fn, rtol=1e-4, atol=1e-5, reprs=False)


@pytest.mark.parametrize("call", [
    lambda T: T.nn.utils.parametrizations.orthogonal(T.nn.Linear(2, 2), name="foo"),
    lambda T: T.nn.utils.parametrizations.orthogonal(T.nn.Linear(2, 2), name="bias"),
    lambda T: T.nn.utils.parametrizations.orthogonal(T.nn.Linear(2, 2), "weight", "qr"),
    lambda T: setattr(T.nn.utils.parametrizations.orthogonal(
        T.nn.Linear(2, 2), use_trivialization=False), "weight", T.eye(2)),
])
def test_parametrizations_orthogonal_errors(call):
    _assert_same_error(call)


@pytest.mark.parametrize("args,shape", [((3,), (2, 5, 2, 3)), ((2, 0.1, 0.5, 2.0), (1, 4, 3, 2)),
                                        ((5, 1e-2), (2, 3, 2, 2)), ((4,), (1, 6, 1, 2))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cross_map_lrn2d(args, shape, dtype):
    def fn(T):
        m = T.nn.CrossMapLRN2d(*args)
        out = _fwd_bwd(T, m, _x(T, *shape, dtype=dtype))
        return out, repr(m)
    same_outcome(fn, rtol=1e-6 if dtype == "float32" else 1e-12, atol=1e-7, reprs=False)


def test_cross_map_lrn2d_error():
    same_outcome(lambda T: T.nn.CrossMapLRN2d(3)(T.randn(2, 3, 4)))


def test_transfer_parametrizations_and_params():
    def fn(T):
        P = T.nn.utils.parametrize

        class Double(T.nn.Module):
            def forward(self, x):
                return x * 2

        T.manual_seed(0)
        a, b = T.nn.Linear(3, 2), T.nn.Linear(3, 2)
        P.register_parametrization(a, "weight", Double())
        P.transfer_parametrizations_and_params(a, b)
        shared = b.parametrizations.weight.original is a.parametrizations.weight.original
        T.nn.utils.parametrizations.weight_norm(a, "bias", dim=0)
        c = T.nn.Linear(3, 2)
        P.transfer_parametrizations_and_params(a, c, "bias")
        return (shared, b.weight, repr(b), list(c.state_dict()), c.bias,
                P.transfer_parametrizations_and_params(T.nn.Linear(1, 1), b) is b)
    same_outcome(fn, rtol=1e-6, atol=1e-7)


def test_parametrized_module_deepcopy_and_pickle():
    def fn(T):
        T.manual_seed(0)
        m = T.nn.utils.parametrizations.weight_norm(T.nn.Linear(3, 2))
        c = __import__("copy").deepcopy(m)
        refused = raised(lambda: __import__("pickle").dumps(m))
        return type(c).__name__, c.weight, list(c.state_dict()), refused
    same_outcome(fn, rtol=1e-6, atol=1e-7)


def _two_layers(T):
    T.manual_seed(0)
    return T.nn.Sequential(T.nn.Linear(2, 3), T.nn.BatchNorm1d(3))


MODULE_API = {
    "get_parameter": lambda T: _two_layers(T).get_parameter("0.weight"),
    "get_parameter_missing": lambda T: _two_layers(T).get_parameter("0.foo"),
    "get_parameter_of_a_buffer": lambda T: _two_layers(T).get_parameter("1.running_mean"),
    "get_parameter_bad_path": lambda T: _two_layers(T).get_parameter("5.weight"),
    "get_buffer": lambda T: _two_layers(T).get_buffer("1.running_mean"),
    "get_buffer_of_a_parameter": lambda T: _two_layers(T).get_buffer("0.weight"),
    "bfloat16": lambda T: list(_two_layers(T).bfloat16().state_dict().values()),
    "type_dtype": lambda T: list(_two_layers(T).type(T.float64).parameters()),
    "type_name": lambda T: list(_two_layers(T).type("torch.DoubleTensor").parameters()),
    "type_integer": lambda T: _two_layers(T).type(T.int64),
    "share_memory": lambda T: [p.is_shared() for p in _two_layers(T).share_memory().parameters()],
    "data_of_another_kind": lambda T: setattr(T.ones(2, requires_grad=True), "data",
                                              T.ones(2, dtype=T.int64)),
    "data_not_a_tensor": lambda T: setattr(T.ones(2), "data", [1, 2]),
}


@pytest.mark.parametrize("name", MODULE_API)
def test_module_api(name):
    """Module.get_parameter/get_buffer/bfloat16/type/share_memory, and the checks of
    Tensor.data's setter they meet (an integer conversion of parameters is refused)."""
    same_outcome(MODULE_API[name])
