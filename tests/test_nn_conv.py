"""nn.Conv2d, the 2-d pooling layers, nn.BatchNorm2d and their functional forms against torch
2.13.

Seeded layers draw torch's weights bit for bit; convolution values and gradients agree to
float32 rounding (torch's kernels sum in another order: compared with a tolerance, reprs
left out); max pooling is exact.  Shapes, strides, grad_fn names and errors are torch's.
"""

import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import raised, same_outcome


def _conv_case(T, kw, shape=(2, 3, 7, 6), channels=(3, 4), kernel=3):
    T.manual_seed(0)
    layer = T.nn.Conv2d(*channels, kernel, **kw)
    x = T.randn(*shape, requires_grad=True)
    y = layer(x)
    (y * y).sum().backward()
    return (layer.weight.detach().clone(), y, y.grad_fn.name(),
            [None if n is None else n.name() for n, _ in y.grad_fn.next_functions],
            x.grad, layer.weight.grad, None if layer.bias is None else layer.bias.grad)


CONV = {
    "plain": {},
    "stride": {"stride": 2},
    "padding": {"padding": 1},
    "dilation_padding": {"dilation": 2, "padding": (2, 1)},
    "no_bias": {"bias": False, "stride": (2, 1)},
}


@pytest.mark.parametrize("name", sorted(CONV))
def test_conv2d_values_gradients_and_names(name):
    same_outcome(lambda T: _conv_case(T, CONV[name]), rtol=2e-5, atol=2e-5, reprs=False)


GROUPED = {  # (layer options, input shape, (in, out) channels)
    "two_groups": ({"groups": 2, "padding": 1}, (2, 4, 7, 6), (4, 6)),
    "depthwise": ({"groups": 4, "stride": 2}, (1, 4, 8, 8), (4, 4)),
    "depthwise_multiplier": ({"groups": 3, "dilation": 2, "bias": False}, (2, 3, 9, 9), (3, 6)),
    "unbatched": ({"groups": 2}, (4, 6, 5), (4, 2)),
}


@pytest.mark.parametrize("name", sorted(GROUPED))
def test_grouped_conv2d_like_torch(name):
    kw, shape, channels = GROUPED[name]

    def fn(T):
        return _conv_case(T, kw, shape, channels) + (repr(T.nn.Conv2d(*channels, 3, **kw)),)
    same_outcome(fn, rtol=2e-5, atol=2e-5, reprs=False)


@pytest.mark.parametrize("which", ["weight", "bias", "input"])
def test_conv2d_gradient_of_one_argument_like_torch(which):
    def fn(T):
        T.manual_seed(0)
        x, w, b = T.randn(2, 4, 6, 6), T.randn(6, 2, 3, 3), T.randn(6)
        {"weight": w, "bias": b, "input": x}[which].requires_grad_()
        y = T.nn.functional.conv2d(x, w, b, padding=1, groups=2)
        (y * y).sum().backward()
        return [t.grad for t in (x, w, b)]
    same_outcome(fn, rtol=2e-5, atol=2e-5, reprs=False)


def test_one_channel_layouts():
    """Size-1 channel dims get torch's strides (NumPy leaves odd ones on size-1 dims)."""
    same_outcome(lambda T: _conv_case(T, {"padding": 1}, shape=(2, 1, 5, 4), channels=(1, 1)),
                 rtol=2e-5, atol=2e-5, reprs=False)


def test_unbatched_input_and_functional_form():
    def scenario(T):
        w = T.arange(24.0).view(2, 1, 3, 4) / 10
        x = T.arange(70.0).view(1, 7, 10)
        return T.nn.functional.conv2d(x, w), T.nn.functional.conv2d(x[None], w, T.ones(2),
                                                                     stride=(2, 1))
    same_outcome(scenario, rtol=1e-6, atol=1e-4, reprs=False)


POOL = {
    "k2": {"kernel_size": 2},
    "k3_s2_p1": {"kernel_size": 3, "stride": 2, "padding": 1},
    "ceil": {"kernel_size": 2, "ceil_mode": True},
    "dilation": {"kernel_size": 2, "dilation": 2},
    "rect": {"kernel_size": (2, 3), "stride": (1, 2)},
}


@pytest.mark.parametrize("name", sorted(POOL))
def test_max_pool2d_exact(name):
    def scenario(T):
        T.manual_seed(1)
        x = T.randn(2, 3, 7, 5, requires_grad=True)
        y = T.nn.functional.max_pool2d(x, **POOL[name])
        y.backward(T.arange(float(y.numel())).view(y.shape))
        return y, y.grad_fn.name(), x.grad, T.nn.MaxPool2d(**POOL[name])(x.detach())
    same_outcome(scenario)


AVG = {
    "k2": lambda T, x: T.nn.functional.avg_pool2d(x, 2),
    "k3_s2_p1": lambda T, x: T.nn.AvgPool2d(3, 2, 1)(x),
    "ceil": lambda T, x: T.nn.AvgPool2d(3, 2, 1, ceil_mode=True)(x),
    "ceil_no_pad_count": lambda T, x: T.nn.AvgPool2d(3, 2, 1, ceil_mode=True,
                                                     count_include_pad=False)(x),
    "divisor": lambda T, x: T.nn.functional.avg_pool2d(x, (2, 3), (1, 2), (1, 1),
                                                       divisor_override=4),
    "adaptive_1": lambda T, x: T.nn.functional.adaptive_avg_pool2d(x, 1),
    "adaptive_2x4": lambda T, x: T.nn.functional.adaptive_avg_pool2d(x, (2, 4)),
    "adaptive_none": lambda T, x: T.nn.AdaptiveAvgPool2d((3, None))(x),
    "adaptive_larger": lambda T, x: T.nn.AdaptiveAvgPool2d((4, 7))(x),
    "unbatched_avg": lambda T, x: T.nn.functional.avg_pool2d(x[0], 2),
    "unbatched_max": lambda T, x: T.nn.functional.max_pool2d(x[1], 2, 1),
    "unbatched_adaptive": lambda T, x: T.nn.AdaptiveAvgPool2d(2)(x[0]),
    "unbatched_adaptive_1": lambda T, x: T.nn.AdaptiveAvgPool2d(1)(x[0]),
}


@pytest.mark.parametrize("name", sorted(AVG))
def test_average_pooling(name):
    def scenario(T):
        T.manual_seed(0)
        x = T.randn(2, 3, 5, 6, requires_grad=True)
        y = AVG[name](T, x)
        y.backward(T.linspace(-1, 1, y.numel()).view(y.shape))
        return y, y.grad_fn.name(), x.grad
    same_outcome(scenario, rtol=1e-5, atol=1e-6, reprs=False)


def test_max_pool2d_ties_and_nan():
    def scenario(T):
        out = []
        for values in ([1.0, float("nan"), 3.0, 2.0], [1.0, 3.0, 3.0, 2.0]):
            m = T.tensor(values).view(1, 1, 2, 2).requires_grad_()
            r = T.nn.functional.max_pool2d(m, 2)
            r.backward(T.ones_like(r))
            out += [r, m.grad]
        return out
    same_outcome(scenario)


ERRORS = {
    "channels": lambda T: T.nn.Conv2d(1, 2, 3)(T.ones(1, 3, 5, 5)),
    "kernel_too_large": lambda T: T.nn.Conv2d(1, 2, 3)(T.ones(1, 1, 2, 2)),
    "pool_output_too_small": lambda T: T.nn.functional.max_pool2d(T.ones(1, 1, 1, 1), 2),
    "pool_padding": lambda T: T.nn.functional.max_pool2d(T.ones(1, 1, 4, 4), 2, padding=2),
    "pool_padding_effective_w": lambda T: T.nn.functional.max_pool2d(
        T.ones(1, 1, 8, 7), 1, 2, (0, 2), (1, 2)),
    "pool_padding_of_kernel": lambda T: T.nn.functional.max_pool2d(
        T.ones(1, 1, 3, 8), 3, 3, (0, 2), (1, 2)),
    "groups_weight": lambda T: T.nn.functional.conv2d(T.ones(1, 4, 5, 5), T.ones(3, 2, 3, 3),
                                                      groups=2),
    "groups_channels": lambda T: T.nn.functional.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 2, 3, 3),
                                                        groups=2),
    "groups_zero": lambda T: T.nn.functional.conv2d(T.ones(1, 4, 5, 5), T.ones(4, 2, 3, 3),
                                                    groups=0),
    "bias_size": lambda T: T.nn.functional.conv2d(T.ones(1, 4, 5, 5), T.ones(4, 2, 3, 3),
                                                  T.ones(3), groups=2),
    "module_in_channels": lambda T: T.nn.Conv2d(3, 4, 3, groups=2),
    "module_out_channels": lambda T: T.nn.Conv2d(4, 3, 3, groups=2),
    "module_groups": lambda T: T.nn.Conv2d(4, 4, 3, groups=0),
    "conv_2d_input": lambda T: T.nn.functional.conv2d(T.ones(4, 4), T.ones(1, 1, 2, 2)),
    "avg_pool_padding": lambda T: T.nn.functional.avg_pool2d(T.ones(1, 3, 5, 5), 2, padding=2),
    "avg_pool_output_too_small": lambda T: T.nn.functional.avg_pool2d(T.ones(2, 3, 2), (2, 3)),
    "unbatched_pool_output_too_small": lambda T: T.nn.functional.max_pool2d(T.ones(2, 1, 2), 3),
    "batchnorm2d_2d_input": lambda T: T.nn.BatchNorm2d(3)(T.ones(2, 3)),
    "batchnorm1d_4d_input": lambda T: T.nn.BatchNorm1d(3)(T.ones(2, 3, 4, 4)),
    "batchnorm_channels": lambda T: T.nn.BatchNorm2d(4)(T.ones(2, 3, 4, 4)),
    "batch_norm_weight": lambda T: T.nn.functional.batch_norm(T.ones(2, 3), T.zeros(3),
                                                              T.ones(3), T.ones(4)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_are_torchs(name):
    same_outcome(ERRORS[name])


def test_batchnorm2d_trains_and_evaluates_like_torch():
    def scenario(T):
        T.manual_seed(0)
        x = T.randn(2, 3, 4, 4, requires_grad=True)
        m = T.nn.BatchNorm2d(3)
        y = m(x)
        y.pow(2).sum().backward()
        out = [y, y.grad_fn.name(), m.running_mean, m.running_var, m.num_batches_tracked,
               x.grad, m.weight.grad]
        m.eval()
        return out + [m(x), isinstance(m, T.nn.BatchNorm1d)]
    same_outcome(scenario, rtol=1e-4, atol=1e-5, reprs=False)



def test_reprs():
    def scenario(T):
        return [repr(m) for m in (T.nn.MaxPool2d(2), T.nn.Conv2d(3, 6, 5), T.nn.BatchNorm2d(3),
                                  T.nn.AvgPool2d(2), T.nn.AdaptiveAvgPool2d((1, 1)),
                                  T.nn.AdaptiveAvgPool2d(1),
                                  T.nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False),
                                  T.nn.BatchNorm2d(2, affine=False, track_running_stats=False),
                                  T.nn.Conv2d(3, 6, 5, stride=2, padding=1, bias=False),
                                  T.nn.Conv2d(3, 6, (3, 5), dilation=2))]
    same_outcome(scenario)


def test_small_cnn_trains_like_torch():
    """Three SGD steps of conv -> relu -> pool -> linear on a seeded batch."""
    def scenario(T):
        T.manual_seed(0)
        net = T.nn.Sequential(T.nn.Conv2d(1, 4, 3, padding=1), T.nn.ReLU(), T.nn.MaxPool2d(2),
                              T.nn.Flatten(), T.nn.Linear(4 * 4 * 4, 3))
        opt = T.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
        x, labels = T.randn(5, 1, 8, 8), T.tensor([0, 2, 1, 1, 0])
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = T.nn.functional.cross_entropy(net(x), labels)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [p.detach().clone() for p in net.parameters()]
    same_outcome(scenario, rtol=1e-4, atol=1e-5, reprs=False)


SECOND = {
    "conv2d": lambda T, x, w: T.nn.functional.conv2d(x, w, padding=1, stride=(1, 2)),
    "conv2d_groups": lambda T, x, w: T.nn.functional.conv2d(x, w[:, :1], groups=2),
    "conv2d_unbatched": lambda T, x, w: T.nn.functional.conv2d(x, w, dilation=2),
    "max_pool2d": lambda T, x, w: T.nn.functional.max_pool2d(x, 3, 2, padding=1),
    "max_pool2d_unbatched": lambda T, x, w: T.nn.functional.max_pool2d(x, 2, dilation=2),
    "avg_pool2d": lambda T, x, w: T.nn.functional.avg_pool2d(x, 3, 2, 1, ceil_mode=True,
                                                             count_include_pad=False),
    "adaptive_avg_pool2d": lambda T, x, w: T.nn.functional.adaptive_avg_pool2d(x, 3),
}


@pytest.mark.parametrize("name", sorted(SECOND))
def test_second_and_third_derivatives_like_torch(name):
    """A gradient penalty: the gradients (under create_graph: torch's ...BackwardBackward0
    nodes, with their inputs) differentiated twice more.  Layouts are left out: torch's
    second derivative of a convolution weight comes out transposed, strides (9, 27, 3, 1)."""
    def scenario(T):
        T.manual_seed(0)
        shape = (2, 7, 6) if name.endswith("unbatched") else (2, 2, 7, 6)
        x = T.randn(*shape, dtype=T.float64, requires_grad=True)
        w = T.randn(3, 2, 3, 3, dtype=T.float64, requires_grad=True)
        y = SECOND[name](T, x, w)
        inputs = [x, w] if name.startswith("conv") else [x]
        grads = T.autograd.grad((y * y).sum(), inputs, create_graph=True)
        node = grads[0].grad_fn
        penalty = sum((g * g).sum() for g in grads)
        seconds = T.autograd.grad(penalty, inputs, create_graph=True)
        thirds = T.autograd.grad(sum(s.sum() for s in seconds), inputs)
        return (node.name(), [f and f.name() for f, _ in node.next_functions],
                [g.detach() for g in grads], [s.detach() for s in seconds], thirds)
    same_outcome(scenario, rtol=1e-10, atol=1e-10, reprs=False, strides=False)


def test_pools_save_their_input_like_torch():
    """torch's pool nodes keep their input: changing it in place breaks the backward."""
    def scenario(T):
        out = []
        for pool in (lambda x: T.nn.functional.max_pool2d(x, 2),
                     lambda x: T.nn.functional.avg_pool2d(x, 2),
                     lambda x: T.nn.functional.adaptive_avg_pool2d(x, 2)):
            x = T.randn(1, 1, 4, 4, requires_grad=True)
            h = x * 1
            y = pool(h)
            h.add_(1)
            out.append(raised(y.sum().backward))
        return out
    same_outcome(scenario)


CONV1D = {  # (layer options, input shape, (in, out) channels, kernel)
    "plain": ({}, (2, 3, 10), (3, 4), 3),
    "strided_padded_dilated": ({"stride": 2, "padding": 1, "dilation": 2}, (2, 4, 11), (4, 6), 3),
    "groups_no_bias": ({"groups": 2, "bias": False}, (1, 4, 9), (4, 2), 2),
    "unbatched": ({}, (3, 8), (3, 5), 4),
    "same_odd": ({"padding": "same"}, (2, 3, 10), (3, 4), 5),
    "same_even": ({"padding": "same", "dilation": 3}, (2, 3, 10), (3, 4), 4),
    "valid": ({"padding": "valid"}, (2, 3, 10), (3, 4), 3),
}


@pytest.mark.parametrize("name", sorted(CONV1D))
def test_conv1d_like_torch(name):
    kw, shape, channels, kernel = CONV1D[name]

    def fn(T):
        T.manual_seed(0)
        layer = T.nn.Conv1d(*channels, kernel, **kw)
        x = T.randn(*shape, requires_grad=True)
        y = layer(x)
        (y * y).sum().backward()
        return (repr(layer), layer.weight.detach().clone(), y, y.grad_fn.name(),
                y.grad_fn._saved_stride, y.grad_fn._saved_padding,
                [f and f.name() for f, _ in y.grad_fn.next_functions], x.grad,
                layer.weight.grad, None if layer.bias is None else layer.bias.grad)
    same_outcome(fn, rtol=2e-5, atol=2e-5, reprs=False)


@pytest.mark.parametrize("kernel, dilation", [(3, 1), (4, 1), (4, 2), (2, 3)])
def test_conv2d_same_padding_like_torch(kernel, dilation):
    def fn(T):
        T.manual_seed(1)
        layer = T.nn.Conv2d(2, 3, (kernel, 3), padding="same", dilation=(dilation, 1))
        x = T.randn(2, 2, 6, 5, requires_grad=True)
        y = layer(x)
        (y * y).sum().backward()
        return repr(layer), y, [f and f.name() for f, _ in y.grad_fn.next_functions], x.grad
    same_outcome(fn, rtol=2e-5, atol=2e-5, reprs=False)


PAD = {
    "grow": lambda T, x: T.nn.functional.pad(x, (1, 2)),
    "grow_and_cut": lambda T, x: T.nn.functional.pad(x, (1, -1, -1, 1), value=9.0),
    "three_dims": lambda T, x: T.nn.functional.pad(x.view(1, 2, 3), [0, 0, 1, 1, 2, 0]),
    "cut": lambda T, x: T.nn.functional.pad(x, (-2, 0)),
    "nothing": lambda T, x: T.nn.functional.pad(x, (0, 0)),
}


@pytest.mark.parametrize("name", sorted(PAD))
def test_pad_like_torch(name):  # (torch's _saved_pad shows -1 as 2**64 - 1: not compared)
    def fn(T):
        x = T.arange(6.0).view(2, 3).requires_grad_()
        y = PAD[name](T, x)
        (y * T.arange(float(y.numel())).view(y.shape)).sum().backward()
        return y, x.grad, y._version
    same_outcome(fn)


PAD_ERRORS = {
    "odd_length": lambda T: T.nn.functional.pad(T.ones(2, 3), (1,)),
    "too_long": lambda T: T.nn.functional.pad(T.ones(2, 3), (1, 1, 1, 1, 1, 1)),
    "negative_size": lambda T: T.nn.functional.pad(T.ones(2, 3), (-2, -2)),
    "float_amount": lambda T: T.nn.functional.pad(T.ones(2, 3), (1.5, 1)),
    "integer_value": lambda T: T.nn.functional.pad(T.arange(3), (1, 1), value=2.5),
    "conv_same_strided": lambda T: T.nn.functional.conv2d(
        T.ones(1, 1, 4, 4), T.ones(1, 1, 3, 3), padding="same", stride=2),
    "conv_padding_string": lambda T: T.nn.functional.conv1d(
        T.ones(1, 1, 4), T.ones(1, 1, 3), padding="full"),
    "module_padding_string": lambda T: T.nn.Conv2d(1, 1, 3, padding="full"),
    "module_same_strided": lambda T: T.nn.Conv1d(1, 1, 3, padding="same", stride=2),
    "conv1d_4d_input": lambda T: T.nn.functional.conv1d(T.ones(1, 1, 4, 4), T.ones(1, 1, 3)),
    "conv1d_2d_stride": lambda T: T.nn.functional.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 3),
                                                         stride=(1, 1)),
    "conv1d_kernel_too_long": lambda T: T.nn.functional.conv1d(T.ones(1, 3, 2), T.ones(4, 3, 3)),
    "conv2d_3d_weight": lambda T: T.nn.functional.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3)),
}


@pytest.mark.parametrize("name", sorted(PAD_ERRORS))
def test_pad_and_conv_errors_like_torch(name):
    same_outcome(PAD_ERRORS[name])


RESIZE = {
    "nearest_double": {"scale_factor": 2},
    "nearest_size": {"size": (7, 5)},
    "nearest_fraction": {"scale_factor": 1.7},
    "nearest_shrink": {"scale_factor": 0.4},
    "nearest_two_factors": {"scale_factor": (2, 3)},
    "nearest_recompute": {"scale_factor": 1.7, "recompute_scale_factor": True},
    "bilinear": {"scale_factor": 2, "mode": "bilinear"},
    "bilinear_corners": {"size": (9, 4), "mode": "bilinear", "align_corners": True},
    "bilinear_fraction": {"scale_factor": 1.3, "mode": "bilinear"},
    "bilinear_shrink": {"scale_factor": 0.5, "mode": "bilinear"},
    "bilinear_one_row": {"size": (1, 6), "mode": "bilinear", "align_corners": True},
}


@pytest.mark.parametrize("name", sorted(RESIZE))
def test_interpolate_like_torch(name):
    def fn(T):
        T.manual_seed(0)
        x = T.randn(2, 3, 5, 6, requires_grad=True)
        y = T.nn.functional.interpolate(x, **RESIZE[name])
        (g,) = T.autograd.grad((y * y).sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g * g).sum(), x)
        return y, y.grad_fn.name(), g, gg
    same_outcome(fn, rtol=1e-5, atol=1e-5, reprs=False)  # sums of many float32 terms in gg


@pytest.mark.parametrize("call", [
    lambda T, x: T.nn.functional.interpolate(x),
    lambda T, x: T.nn.functional.interpolate(x, size=2, scale_factor=2),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, mode="foo"),
    lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, align_corners=True),
    lambda T, x: T.nn.functional.interpolate(x[0], scale_factor=2, mode="bilinear"),
    lambda T, x: [repr(T.nn.Upsample(scale_factor=2)), repr(T.nn.Upsample(
        size=(4, 4), mode="bilinear", align_corners=False)), T.nn.Upsample(scale_factor=2)(x)],
], ids=["no_size", "both", "mode", "corners", "bilinear_3d", "module"])
def test_interpolate_errors_and_module_like_torch(call):
    same_outcome(lambda T: call(T, T.arange(12.0).view(1, 1, 3, 4)))
