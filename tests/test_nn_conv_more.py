"""Lazy modules, nn.Conv3d, nn.ConvTranspose1d/2d/3d (and the convolutions' padding modes),
nn.DataParallel, the padding, pixel/channel shuffle, fold/unfold, unpooling, adaptive max,
3-d and LP pooling layers, and the upsampling layers against torch 2.13.

Seeded layers draw torch's weights bit for bit (lazy ones on their first call, in call order);
layer outputs are sums of products in another order than torch's kernels (and its matmul):
compared within a tolerance, reprs left out.  Printing, state dict keys, class changes and
errors are torch's, word for word.
"""

import re
import warnings

import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import both, same_outcome

EXACT = {"rtol": 0, "atol": 0}
CLOSE = {"rtol": 2e-5, "atol": 2e-5, "reprs": False}


# -- lazy modules ---------------------------------------------------------------------------


def _lazy_mlp(T):
    T.manual_seed(0)
    return T.nn.Sequential(T.nn.LazyLinear(10), T.nn.ReLU(), T.nn.LazyLinear(2))


def test_lazy_linear_network_draws_torchs_weights_on_first_call():
    def fn(T):
        net = _lazy_mlp(T)
        before = repr(net), list(net.state_dict()), repr(net.state_dict())
        y = net(T.randn(4, 7))
        return (before, repr(net), [type(m).__name__ for m in net], y.grad_fn.name(),
                dict(net.state_dict()), T.rand(2))
    same_outcome(fn, **EXACT)


def test_lazy_linear_network_output():
    def fn(T):
        net = _lazy_mlp(T)
        y = net(T.randn(4, 7))
        y.sum().backward()
        return y, [p.grad for p in net.parameters()]
    same_outcome(fn, **CLOSE)


def test_lazy_modules_warn_nothing_when_made():
    """torch 2.13 no longer warns that lazy modules are new."""
    def fn(T):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            T.nn.LazyLinear(3), T.nn.LazyConv2d(2, 3), T.nn.LazyBatchNorm1d()
            T.nn.LazyLinear(3)(T.randn(2, 4))
        return [str(w.message) for w in caught]
    ours, theirs = both(fn)
    assert ours == theirs == []


LAZY = {  # layer, input shape
    "conv1d": (lambda T: T.nn.LazyConv1d(4, 3, 1, 0, 1, 2, False), (2, 6, 8)),
    "conv2d": (lambda T: T.nn.LazyConv2d(4, 3, stride=2, padding=1), (2, 3, 8, 8)),
    "conv2d_unbatched": (lambda T: T.nn.LazyConv2d(4, (2, 3)), (3, 5, 5)),
    "conv3d": (lambda T: T.nn.LazyConv3d(2, 2, dilation=(1, 2, 1)), (3, 5, 4, 4)),
    "conv_transpose1d": (lambda T: T.nn.LazyConvTranspose1d(4, 3, groups=2), (2, 6, 5)),
    "conv_transpose2d": (lambda T: T.nn.LazyConvTranspose2d(4, 3, stride=2, output_padding=1),
                         (2, 3, 4, 4)),
    "conv_transpose3d": (lambda T: T.nn.LazyConvTranspose3d(2, 2, bias=False), (1, 3, 2, 3, 2)),
    "batchnorm1d": (lambda T: T.nn.LazyBatchNorm1d(), (4, 3)),
    "batchnorm1d_3d": (lambda T: T.nn.LazyBatchNorm1d(momentum=None), (4, 3, 2)),
    "batchnorm2d_no_affine": (lambda T: T.nn.LazyBatchNorm2d(affine=False), (2, 3, 2, 2)),
    "batchnorm2d_no_stats": (lambda T: T.nn.LazyBatchNorm2d(track_running_stats=False),
                             (2, 3, 2, 2)),
    "batchnorm3d": (lambda T: T.nn.LazyBatchNorm3d(eps=1e-3), (2, 3, 2, 2, 2)),
    "instancenorm1d": (lambda T: T.nn.LazyInstanceNorm1d(), (2, 3, 4)),
    "instancenorm2d_plain": (lambda T: T.nn.LazyInstanceNorm2d(affine=False,
                                                               track_running_stats=False),
                             (2, 3, 4, 4)),
    "instancenorm3d": (lambda T: T.nn.LazyInstanceNorm3d(momentum=0.2), (2, 3, 2, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(LAZY))
def test_lazy_layer_materializes_like_torch(name):
    make, shape = LAZY[name]

    def layer(T):
        T.manual_seed(0)
        m = make(T)
        before = (repr(m), type(m).__name__, repr(m.state_dict()), m.has_uninitialized_params(),
                  [type(p).__name__ for p in m.parameters()])
        x = T.randn(*shape)
        return m, before, x

    def fn(T):  # (running statistics are sums: compared within a tolerance below)
        m, before, x = layer(T)
        m(x)
        return (before, repr(m), type(m).__name__, hasattr(m, "has_uninitialized_params"),
                {k: v for k, v in m.state_dict().items() if not k.startswith("running_")},
                T.rand(2))

    def output(T):
        m, _, x = layer(T)
        return m(x), m(x), dict(m.state_dict())
    same_outcome(fn, **EXACT)
    same_outcome(output, **CLOSE)


def _uninitialized(T):
    return T.nn.LazyLinear(3).weight


UNINITIALIZED = {
    "add": lambda T: _uninitialized(T) + 1,
    "radd": lambda T: 2 + _uninitialized(T),
    "mul": lambda T: _uninitialized(T) * 2,
    "sub": lambda T: _uninitialized(T) - 1,
    "div": lambda T: _uninitialized(T) / 2,
    "matmul": lambda T: _uninitialized(T) @ T.ones(2),
    "neg": lambda T: -_uninitialized(T),
    "getitem": lambda T: _uninitialized(T)[0],
    "sum": lambda T: _uninitialized(T).sum(),
    "t": lambda T: _uninitialized(T).t(),
    "detach": lambda T: _uninitialized(T).detach(),
    "numel": lambda T: _uninitialized(T).numel(),
    "requires_grad_": lambda T: _uninitialized(T).requires_grad_(),
    "shape": lambda T: _uninitialized(T).shape,
    "share_memory_": lambda T: _uninitialized(T).share_memory_(),
    "size": lambda T: _uninitialized(T).size(),
    "allowed": lambda T: (repr(_uninitialized(T)), str(_uninitialized(T)),
                          _uninitialized(T).requires_grad, _uninitialized(T).dtype,
                          _uninitialized(T).is_floating_point(), repr(_uninitialized(T).float()),
                          _uninitialized(T).is_leaf, _uninitialized(T).grad),
    "buffer": lambda T: (repr(T.nn.LazyBatchNorm1d().running_mean),
                         T.nn.LazyBatchNorm1d().running_mean.requires_grad),
    "classes": lambda T: (isinstance(_uninitialized(T), T.nn.Parameter),
                          isinstance(T.nn.UninitializedBuffer(), T.nn.Parameter),
                          T.nn.parameter.is_lazy(_uninitialized(T)),
                          T.nn.parameter.is_lazy(T.nn.Linear(1, 1).weight)),
}


@pytest.mark.parametrize("name", sorted(UNINITIALIZED))
def test_uninitialized_parameter_refuses_use(name):
    same_outcome(UNINITIALIZED[name])


def test_materialize_by_hand():
    def fn(T):
        p = T.nn.UninitializedParameter(requires_grad=False, dtype=T.float64)
        p.materialize((2, 3))
        b = T.nn.UninitializedBuffer()
        b.materialize(4, dtype=T.float64)
        return type(p).__name__, p.shape, p.dtype, p.requires_grad, type(b).__name__, b.shape
    same_outcome(fn)


LAZY_ERRORS = {
    "conv_input_dims": lambda T: T.nn.LazyConv2d(4, 3)(T.randn(3, 4)),
    "conv_groups": lambda T: T.nn.LazyConv2d(4, 3, groups=2)(T.randn(1, 3, 4, 4)),
    "loaded_weight_mismatch": lambda T: _loaded_lazy_linear(T)(T.ones(2, 5)),
    "instancenorm_unbatched": lambda T: T.nn.LazyInstanceNorm2d()(T.randn(3, 4, 4)),
    "load_lazy_into_linear": lambda T: T.nn.Linear(4, 3).load_state_dict(
        T.nn.LazyLinear(3).state_dict()),
}


def _loaded_lazy_linear(T):
    lazy = T.nn.LazyLinear(3)
    lazy.load_state_dict(T.nn.Linear(4, 3).state_dict())
    return lazy


@pytest.mark.parametrize("name", sorted(LAZY_ERRORS))
def test_lazy_errors_like_torch(name):
    same_outcome(LAZY_ERRORS[name])


def test_lazy_state_dict_loading_and_conversion():
    def fn(T):
        T.manual_seed(0)
        lazy, full = T.nn.LazyLinear(3), T.nn.Linear(4, 3)
        keys = lazy.load_state_dict(full.state_dict())
        loaded = type(lazy).__name__, lazy.weight, type(lazy.weight).__name__
        y = lazy(T.ones(2, 4))
        double = T.nn.LazyLinear(2).double()
        double(T.ones(1, 3, dtype=T.float64))
        return repr(keys), loaded, repr(lazy), y, double.weight.dtype, repr(double)
    same_outcome(fn, **CLOSE)


LAZY_USES = {  # what a user does with a lazy module before its first call
    "load_lazy_into_lazy": lambda T: repr(T.nn.LazyLinear(3).load_state_dict(
        T.nn.LazyLinear(3).state_dict())),
    "named_parameters": lambda T: [(n, type(p).__name__) for n, p in T.nn.Sequential(
        T.nn.LazyLinear(3)).named_parameters()],
    "count_parameters": lambda T: sum(p.numel() for p in T.nn.LazyLinear(3).parameters()),
    "optimizer": lambda T: type(T.optim.SGD(T.nn.LazyLinear(3).parameters(), lr=0.1)).__name__,
    "zero_grad": lambda T: T.nn.LazyLinear(3).zero_grad(),
    "requires_grad_": lambda T: T.nn.LazyLinear(3).requires_grad_(False),
    "eval_apply": lambda T: repr(T.nn.LazyLinear(3).eval().apply(lambda m: None)),
    "keep_vars": lambda T: [type(v).__name__ for v in
                            T.nn.LazyLinear(3).state_dict(keep_vars=True).values()],
    "hook_removed": lambda T: (lambda m: (m(T.ones(1, 2)), hasattr(m, "_initialize_hook"),
                                          type(m).__name__)[1:])(T.nn.LazyLinear(3)),
    "second_call_other_size": lambda T: (lambda m: (m(T.ones(1, 2)), m(T.ones(1, 5))))(
        T.nn.LazyLinear(3)),
}


@pytest.mark.parametrize("name", sorted(LAZY_USES))
def test_lazy_module_uses_like_torch(name):
    same_outcome(LAZY_USES[name])


def test_lazy_module_in_an_optimizer_after_dry_run():
    def fn(T):
        net = _lazy_mlp(T)
        x = T.randn(5, 3)
        net(x)
        opt = T.optim.SGD(net.parameters(), lr=0.1)
        loss = net(x).square().mean()
        loss.backward()
        opt.step()
        return [p.detach() for p in net.parameters()]
    same_outcome(fn, **CLOSE)


# -- Conv3d and the transposed convolutions -------------------------------------------------


CONV = {  # class, (in, out, kernel), options, input shape
    "conv3d": ("Conv3d", (2, 4, 3), {"padding": 1}, (2, 2, 4, 5, 3)),
    "conv3d_strided_groups": ("Conv3d", (4, 2, (2, 3, 1)),
                              {"stride": (2, 1, 1), "groups": 2, "bias": False}, (1, 4, 5, 5, 2)),
    "conv3d_same": ("Conv3d", (1, 2, 2), {"padding": "same"}, (1, 1, 3, 3, 3)),
    "conv_transpose1d": ("ConvTranspose1d", (3, 4, 3), {"stride": 2, "output_padding": 1},
                         (2, 3, 5)),
    "conv_transpose2d": ("ConvTranspose2d", (4, 6, 3),
                         {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2,
                          "dilation": 2}, (2, 4, 4, 3)),
    "conv_transpose2d_unbatched": ("ConvTranspose2d", (2, 3, (2, 3)), {"bias": False},
                                   (2, 4, 4)),
    "conv_transpose3d": ("ConvTranspose3d", (2, 3, 2), {"stride": (1, 2, 2)}, (1, 2, 2, 3, 2)),
    "conv2d_reflect": ("Conv2d", (3, 4, 3), {"padding": 1, "padding_mode": "reflect"},
                       (2, 3, 5, 5)),
    "conv1d_circular_same": ("Conv1d", (2, 2, 4), {"padding": "same", "padding_mode": "circular"},
                             (2, 2, 6)),
    "conv2d_replicate_strided": ("Conv2d", (2, 2, (3, 2)),
                                 {"padding": (1, 2), "padding_mode": "replicate", "stride": 2},
                                 (1, 2, 4, 5)),
    "conv3d_reflect": ("Conv3d", (1, 2, 3), {"padding": 1, "padding_mode": "reflect"},
                       (1, 1, 3, 3, 3)),
}


@pytest.mark.parametrize("name", sorted(CONV))
def test_conv_layers_like_torch(name):
    cls, args, kw, shape = CONV[name]

    def init(T):
        T.manual_seed(0)
        m = getattr(T.nn, cls)(*args, **kw)
        return (repr(m), dict(m.state_dict()), m.transposed, m.output_padding, m.padding_mode,
                m._reversed_padding_repeated_twice)

    def run(T):
        T.manual_seed(0)
        m = getattr(T.nn, cls)(*args, **kw)
        x = T.randn(*shape, requires_grad=True)
        y = m(x)
        g, = T.autograd.grad(y.square().sum(), x, create_graph=True)
        g.sum().backward()
        return y, y.grad_fn.name(), g.grad_fn.name(), x.grad, [p.grad for p in m.parameters()]
    same_outcome(init, **EXACT)
    same_outcome(run, **CLOSE)


def test_conv_transpose_output_size():
    def fn(T):
        T.manual_seed(0)
        m = T.nn.ConvTranspose2d(3, 2, 3, stride=3, padding=1)
        x = T.randn(1, 3, 4, 5)
        return (m(x).shape, m(x, output_size=[11, 14]).shape, m(x, (1, 2, 12, 15)).shape,
                m(x[0], output_size=(2, 11, 13)).shape)
    same_outcome(fn)


CONV_ERRORS = {
    "output_size_too_big": lambda T: T.nn.ConvTranspose2d(3, 2, 3, stride=2)(
        T.randn(1, 3, 4, 4), output_size=[11, 11]),
    "output_size_length": lambda T: T.nn.ConvTranspose1d(3, 2, 3)(
        T.randn(1, 3, 4), output_size=[1, 2]),
    "transpose_padding_mode": lambda T: T.nn.ConvTranspose2d(3, 2, 3, padding_mode="reflect"),
    "transpose_groups": lambda T: T.nn.ConvTranspose2d(3, 2, 3, groups=2),
    "transpose_string_padding": lambda T: T.nn.functional.conv_transpose2d(
        T.randn(1, 2, 3, 3), T.randn(2, 2, 2, 2), padding="same"),
    "conv3d_bad_padding_string": lambda T: T.nn.Conv3d(2, 2, 3, padding="full"),
    "conv3d_strided_same": lambda T: T.nn.Conv3d(2, 2, 3, padding="same", stride=2),
    "conv3d_kernel_too_big": lambda T: T.nn.Conv3d(1, 1, 3)(T.randn(1, 1, 2, 4, 4)),
    "conv3d_bad_input": lambda T: T.nn.Conv3d(1, 1, 3)(T.randn(1, 4, 4)),
}


@pytest.mark.parametrize("name", sorted(CONV_ERRORS))
def test_conv_errors_like_torch(name):
    same_outcome(CONV_ERRORS[name])


def test_bad_padding_mode_like_torch():
    """The message names torch's set of modes; its order is each set's (torch's comes from
    a frozenset constant of its compiled file), so the modes are compared as a set."""
    def fn(T):
        try:
            T.nn.Conv2d(2, 2, 3, padding_mode="wrap")
        except ValueError as e:
            head, modes, tail = re.match(r"(.*)\{(.*)\}(.*)", str(e)).groups()
            return head, sorted(modes.split(", ")), tail
    same_outcome(fn)


# -- DataParallel ---------------------------------------------------------------------------


def test_data_parallel_without_gpu_runs_the_module():
    def fn(T):
        T.manual_seed(0)
        inner = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 2))
        net = T.nn.DataParallel(inner)
        x = T.randn(5, 3)
        y = net(x)
        y.sum().backward()
        loaded = T.nn.DataParallel(T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(),
                                                   T.nn.Linear(4, 2)))
        keys = loaded.load_state_dict(net.state_dict())
        return (repr(net), list(net.state_dict()), net.module is inner, net.device_ids,
                hasattr(net, "dim"), y, inner[0].weight.grad, repr(keys), loaded(x),
                T.nn.parallel.DataParallel is T.nn.DataParallel)
    same_outcome(fn, **CLOSE)


PARALLEL_ERRORS = {
    "data_parallel_function": lambda T: T.nn.parallel.data_parallel(T.nn.Linear(2, 3),
                                                                    T.randn(1, 2)),
    "distributed": lambda T: T.nn.parallel.DistributedDataParallel(T.nn.Linear(2, 3)),
    "module_error": lambda T: T.nn.DataParallel(T.nn.Linear(2, 3))(T.randn(4, 5)),
}


@pytest.mark.parametrize("name", sorted(PARALLEL_ERRORS))
def test_parallel_errors_like_torch(name):
    same_outcome(PARALLEL_ERRORS[name])


# -- padding and pixel shuffle layers -------------------------------------------------------


PAD_LAYERS = {  # layer, input shape
    "zero1d": (lambda T: T.nn.ZeroPad1d((1, 2)), (2, 3, 4)),
    "zero2d": (lambda T: T.nn.ZeroPad2d(2), (1, 2, 3, 3)),
    "zero3d": (lambda T: T.nn.ZeroPad3d([1, 0, 0, 1, 1, 1]), (1, 1, 2, 2, 2)),
    "constant1d": (lambda T: T.nn.ConstantPad1d(2, 3.5), (2, 3)),
    "constant2d": (lambda T: T.nn.ConstantPad2d((1, 0, 2, 1), -1.0), (2, 3, 3)),
    "constant3d": (lambda T: T.nn.ConstantPad3d(1, 0.5), (1, 2, 2, 2)),
    "reflection1d": (lambda T: T.nn.ReflectionPad1d(2), (2, 3, 4)),
    "reflection2d": (lambda T: T.nn.ReflectionPad2d((1, 2, 3, 0)), (1, 2, 4, 4)),
    "reflection3d": (lambda T: T.nn.ReflectionPad3d(1), (1, 2, 2, 3, 3)),
    "replication1d": (lambda T: T.nn.ReplicationPad1d((3, 0)), (3, 4)),
    "replication2d": (lambda T: T.nn.ReplicationPad2d(2), (1, 2, 3, 3)),
    "replication3d": (lambda T: T.nn.ReplicationPad3d((1, 1, 0, 0, 2, 1)), (2, 2, 2, 2)),
    "circular1d": (lambda T: T.nn.CircularPad1d(2), (2, 3, 4)),
    "circular2d": (lambda T: T.nn.CircularPad2d((1, 0, 2, 1)), (1, 2, 3, 3)),
    "circular3d": (lambda T: T.nn.CircularPad3d(1), (2, 3, 3, 3)),
    "circular2d_bad_dims": (lambda T: T.nn.CircularPad2d(1), (3, 3)),
    "pixel_shuffle": (lambda T: T.nn.PixelShuffle(3), (2, 18, 2, 3)),
    "pixel_unshuffle": (lambda T: T.nn.PixelUnshuffle(2), (2, 3, 4, 6)),
}


def _seeded_run(T, make, shape):
    """A seeded layer ``make(T)`` on a seeded input of ``shape``, the sum of squares of its
    output (the first of a tuple) backpropagated: (layer, input, output)."""
    T.manual_seed(0)
    m = make(T)
    x = T.randn(*shape, requires_grad=True)
    out = m(x)
    (out[0] if isinstance(out, tuple) else out).square().sum().backward()
    return m, x, out


@pytest.mark.parametrize("name", sorted(PAD_LAYERS))
def test_padding_and_shuffle_layers_like_torch(name):
    make, shape = PAD_LAYERS[name]

    def fn(T):
        m, x, y = _seeded_run(T, make, shape)
        return repr(m), getattr(m, "padding", None), y, x.grad
    same_outcome(fn, **EXACT)


# -- pooling with indices, unpooling, fold and unfold layers --------------------------------


POOL_LAYERS = {  # layer, input shape
    "max_pool2d_indices": (lambda T: T.nn.MaxPool2d(2, return_indices=True), (2, 3, 4, 5)),
    "max_pool1d_indices": (lambda T: T.nn.MaxPool1d(3, 2, return_indices=True), (2, 3, 7)),
    "adaptive_max_pool2d": (lambda T: T.nn.AdaptiveMaxPool2d((2, 3), return_indices=True),
                            (2, 3, 5, 7)),
    "adaptive_max_pool2d_values": (lambda T: T.nn.AdaptiveMaxPool2d(3), (3, 5, 5)),
    "adaptive_max_pool1d": (lambda T: T.nn.AdaptiveMaxPool1d(4), (2, 3, 9)),
    "unfold": (lambda T: T.nn.Unfold((2, 3), padding=1, stride=2), (2, 3, 5, 6)),
    "fold": (lambda T: T.nn.Fold((4, 5), 2), (2, 8, 12)),
    "max_pool3d": (lambda T: T.nn.MaxPool3d(2, return_indices=True), (2, 3, 4, 4, 5)),
    "adaptive_max_pool3d": (lambda T: T.nn.AdaptiveMaxPool3d((2, 1, 3), return_indices=True),
                            (2, 3, 4, 4, 5)),
    "max_pool3d_strided": (lambda T: T.nn.MaxPool3d((1, 2, 2), stride=1, ceil_mode=True),
                           (3, 2, 4, 3)),
}


@pytest.mark.parametrize("name", sorted(POOL_LAYERS))
def test_pooling_and_fold_layers_like_torch(name):
    make, shape = POOL_LAYERS[name]

    def fn(T):
        m, x, out = _seeded_run(T, make, shape)
        return repr(m), out, x.grad
    same_outcome(fn, **EXACT)


AVERAGING_LAYERS = {  # layer, input shape: window sums in another order than torch's
    "avg_pool3d": (lambda T: T.nn.AvgPool3d((1, 2, 2), stride=1, count_include_pad=False,
                                            padding=(0, 1, 1)), (2, 3, 3, 4, 4)),
    "adaptive_avg_pool3d": (lambda T: T.nn.AdaptiveAvgPool3d((2, None, 3)), (2, 3, 5, 4, 4)),
    "adaptive_avg_pool3d_one": (lambda T: T.nn.AdaptiveAvgPool3d(1), (3, 2, 2, 2)),
    "lp_pool1d": (lambda T: T.nn.LPPool1d(2, 3, stride=2), (2, 3, 8)),
    "lp_pool2d": (lambda T: T.nn.LPPool2d(3, (2, 3), ceil_mode=True), (2, 3, 5, 7)),
    "lp_pool2d_inf": (lambda T: T.nn.LPPool2d(float("inf"), 2), (2, 3, 4, 4)),
    "lp_pool3d": (lambda T: T.nn.LPPool3d(1.5, 2), (1, 2, 4, 4, 4)),
    "channel_shuffle": (lambda T: T.nn.ChannelShuffle(2), (2, 6, 3, 3)),
    "upsample_nearest_1d": (lambda T: T.nn.Upsample(scale_factor=2), (2, 3, 4)),
    "upsample_linear": (lambda T: T.nn.Upsample(size=7, mode="linear"), (2, 3, 4)),
    "upsample_bicubic": (lambda T: T.nn.Upsample(scale_factor=(2, 1.5), mode="bicubic",
                                                 align_corners=True), (1, 2, 3, 4)),
    "upsample_trilinear": (lambda T: T.nn.Upsample(scale_factor=2, mode="trilinear"),
                           (1, 2, 2, 3, 2)),
    "upsample_nearest_exact_3d": (lambda T: T.nn.Upsample(size=(3, 5, 4), mode="nearest-exact"),
                                  (1, 2, 2, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(AVERAGING_LAYERS))
def test_averaging_3d_layers_like_torch(name):
    make, shape = AVERAGING_LAYERS[name]

    def fn(T):
        m, x, y = _seeded_run(T, make, shape)
        return repr(m), y, y.grad_fn.name(), x.grad
    same_outcome(fn, **CLOSE)


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_max_unpool_layers_like_torch(dims):
    def fn(T):
        T.manual_seed(0)
        pool = getattr(T.nn, f"MaxPool{dims}d")(2, return_indices=True)
        unpool = getattr(T.nn, f"MaxUnpool{dims}d")(2)
        x = T.randn(*(2, 3, 5, 4, 4)[:dims + 2], requires_grad=True)
        values, indices = pool(x)
        y = unpool(values, indices, output_size=x.shape)
        y.square().sum().backward()
        return repr(unpool), y, x.grad, unpool(values, indices).shape
    same_outcome(fn, **EXACT)


UNPOOL_ERRORS = {
    "output_size_length": lambda T: T.nn.functional.max_unpool2d(
        T.ones(1, 1, 2, 2), T.zeros(1, 1, 2, 2, dtype=T.long), 2, output_size=[1, 2, 3]),
    "output_size_range": lambda T: T.nn.functional.max_unpool1d(
        T.ones(1, 1, 2), T.zeros(1, 1, 2, dtype=T.long), 2, output_size=[7]),
    "input_dims": lambda T: T.nn.functional.max_unpool2d(
        T.ones(2, 2), T.zeros(2, 2, dtype=T.long), 2),
    "adaptive_max_pool1d_dims": lambda T: T.nn.functional.adaptive_max_pool1d(
        T.ones(1, 1, 2, 2), 2),
}


@pytest.mark.parametrize("name", sorted(UNPOOL_ERRORS))
def test_unpool_errors_like_torch(name):
    same_outcome(UNPOOL_ERRORS[name])


@pytest.mark.parametrize("name", ["upsample", "upsample_nearest", "upsample_bilinear"])
def test_deprecated_upsample_functions_warn_like_torch(name):
    def fn(T):
        T.manual_seed(0)
        x = T.randn(1, 2, 3, 3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = getattr(T.nn.functional, name)(x, scale_factor=2)
        return y, [(w.category.__name__, str(w.message)) for w in caught]
    same_outcome(fn)


@pytest.mark.parametrize("name", ["UpsamplingNearest2d", "UpsamplingBilinear2d"])
def test_upsampling_layers_like_torch(name):
    def fn(T):
        T.manual_seed(0)
        m = getattr(T.nn, name)(scale_factor=2)
        x = T.randn(1, 2, 3, 3, requires_grad=True)
        y = m(x)
        y.square().sum().backward()
        return repr(m), m.align_corners, y, x.grad, repr(getattr(T.nn, name)(size=5))
    same_outcome(fn)
