"""The activations of nn.functional and nn against torch 2.13: values, gradients, grad_fn
names, in-place forms (their nodes and versions), special values, second derivatives, module
reprs and the errors for bad input.

Transcendental float32 activations are within an ulp of torch's vectorised kernels (Note
[activation arithmetic]): compared at 2e-6; piecewise linear ones are exact.
"""

import pytest
from _oracle import raised, same_outcome

TOL = {"rtol": 2e-6, "atol": 2e-6, "reprs": False}
SPECIAL = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 3.0, -3.0, 6.0, 20.0, 25.0,
           -25.0, 0.5, -0.5, 1.0, -1.0, 1e-8, -1e-8, 88.0, -104.0]

ACTIVATIONS = {
    "elu": lambda F, a: F.elu(a),
    "elu_alpha": lambda F, a: F.elu(a, 0.3),
    "selu": lambda F, a: F.selu(a),
    "celu": lambda F, a: F.celu(a, 2.0),
    "silu": lambda F, a: F.silu(a),
    "mish": lambda F, a: F.mish(a),
    "softplus": lambda F, a: F.softplus(a),
    "softplus_beta": lambda F, a: F.softplus(a, 2.0, 5.0),
    "hardtanh": lambda F, a: F.hardtanh(a, -2.0, 0.5),
    "relu6": lambda F, a: F.relu6(a),
    "hardsigmoid": lambda F, a: F.hardsigmoid(a),
    "hardswish": lambda F, a: F.hardswish(a),
    "logsigmoid": lambda F, a: F.logsigmoid(a),
    "softsign": lambda F, a: F.softsign(a),
    "tanhshrink": lambda F, a: F.tanhshrink(a),
    "softshrink": lambda F, a: F.softshrink(a, 0.5),
    "hardshrink": lambda F, a: F.hardshrink(a, 0.5),
    "threshold": lambda F, a: F.threshold(a, 0.5, -7.0),
    "gelu": lambda F, a: F.gelu(a),
    "gelu_tanh": lambda F, a: F.gelu(a, approximate="tanh"),
}
IN_PLACE = ["elu", "selu", "celu", "silu", "mish", "hardtanh", "relu6", "hardsigmoid",
            "hardswish", "threshold", "leaky_relu"]


def _x(T, dtype):
    T.manual_seed(0)
    x = T.cat([T.randn(40) * 4, T.tensor([0.0, -0.0, 3.0, -3.0, 6.0, 0.5, -0.5, 2.0, -2.0])])
    return x.to(getattr(T, dtype)).requires_grad_()


def _weights(T, y):
    return T.linspace(-1, 1, y.numel(), dtype=y.dtype).reshape(y.shape)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_like_torch(name, dtype):
    def fn(T):
        x = _x(T, dtype)
        y = ACTIVATIONS[name](T.nn.functional, x)
        (y * _weights(T, y)).sum().backward()
        return y, x.grad
    same_outcome(fn, **TOL)


# GELU is left out: torch's float32 erf is a vectorised approximation (gelu(-3.) is
# -0.004050225 there, -0.004049694 exactly, which doctensor gives) and gelu(inf) is nan.
@pytest.mark.parametrize("name", sorted(set(ACTIVATIONS) - {"gelu", "gelu_tanh"}))
def test_activation_special_values_like_torch(name):
    def fn(T):
        x = T.tensor(SPECIAL, requires_grad=True)
        y = ACTIVATIONS[name](T.nn.functional, x)
        y.backward(T.ones_like(y))
        return y, x.grad
    same_outcome(fn, **TOL)


@pytest.mark.parametrize("name", IN_PLACE)
def test_activation_in_place_like_torch(name):
    def fn(T):
        x = _x(T, "float32")
        y = x * 1  # a non-leaf to write into
        F = T.nn.functional
        out = {"elu": lambda: F.elu(y, 0.7, inplace=True),
               "selu": lambda: F.selu(y, inplace=True),
               "celu": lambda: F.celu(y, 1.5, inplace=True),
               "silu": lambda: F.silu(y, inplace=True),
               "mish": lambda: F.mish(y, inplace=True),
               "hardtanh": lambda: F.hardtanh(y, -1.5, 2.0, inplace=True),
               "relu6": lambda: F.relu6(y, inplace=True),
               "hardsigmoid": lambda: F.hardsigmoid(y, inplace=True),
               "hardswish": lambda: F.hardswish(y, inplace=True),
               "threshold": lambda: F.threshold(y, 0.5, 9.0, inplace=True),
               "leaky_relu": lambda: F.leaky_relu(y, 0.2, inplace=True)}[name]()
        (out * _weights(T, out)).sum().backward()
        return out is y, y._version, y, x.grad, sorted(
            k for k in dir(out.grad_fn) if k.startswith("_saved_") and k != "_saved_buffer")
    same_outcome(fn, **TOL)


@pytest.mark.parametrize("name", ["elu", "selu", "celu", "silu", "mish", "softplus",
                                  "logsigmoid", "hardswish", "softsign", "tanhshrink", "gelu",
                                  "gelu_tanh"])
def test_activation_second_derivative_like_torch(name):
    def fn(T):
        x = _x(T, "float64")
        y = ACTIVATIONS[name](T.nn.functional, x)
        (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g * _weights(T, g)).sum(), x)
        return g.detach(), gg
    same_outcome(fn, rtol=1e-12, atol=1e-12, reprs=False)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_third_derivative_and_node_like_torch(approximate):
    def fn(T):
        x = _x(T, "float64")
        y = T.nn.functional.gelu(x, approximate=approximate)
        (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g * _weights(T, g)).sum(), x, create_graph=True)
        (ggg,) = T.autograd.grad(gg.sum(), x)
        return type(g.grad_fn).__name__, g.detach(), gg.detach(), ggg
    same_outcome(fn, rtol=1e-12, atol=1e-12, reprs=False)


PRELU = {
    "one_slope": lambda T: (T.randn(2, 3, 4), T.tensor([0.25])),
    "per_channel": lambda T: (T.randn(2, 3, 4, 5), T.tensor([0.1, -0.2, 0.3])),
    "vector": lambda T: (T.randn(6), T.tensor([0.3])),
    "matrix": lambda T: (T.randn(4, 2), T.tensor([0.5, 2.0])),
    "scalar_input": lambda T: (T.tensor(-2.0), T.tensor([0.5])),
    "zero_dim_weight": lambda T: (T.randn(3, 2), T.tensor(0.5)),
}


@pytest.mark.parametrize("case", sorted(PRELU))
def test_prelu_like_torch(case):
    def fn(T):
        T.manual_seed(1)
        x, w = (t.requires_grad_() for t in PRELU[case](T))
        y = T.nn.functional.prelu(x, w)
        (y * _weights(T, y)).sum().backward()
        return y, x.grad, w.grad
    same_outcome(fn, **TOL)


def test_prelu_module_trains_like_torch():
    def fn(T):
        T.manual_seed(2)
        m = T.nn.PReLU(3, init=0.1)
        opt = T.optim.SGD(m.parameters(), lr=0.5)
        x = T.randn(4, 3, 2)
        for _ in range(3):
            opt.zero_grad()
            m(x).pow(2).sum().backward()
            opt.step()
        return m.weight, repr(m), [n for n, _ in m.named_parameters()]
    same_outcome(fn, **TOL)


ERRORS = {
    "elu_int": lambda T, F: F.elu(T.arange(3)),
    "silu_int": lambda T, F: F.silu(T.arange(3)),
    "softplus_int": lambda T, F: F.softplus(T.arange(3)),
    "logsigmoid_int": lambda T, F: F.logsigmoid(T.arange(3)),
    "hardswish_int": lambda T, F: F.hardswish(T.arange(3)),
    "hardshrink_int": lambda T, F: F.hardshrink(T.arange(3)),
    "softshrink_int": lambda T, F: F.softshrink(T.arange(3)),
    "softshrink_negative": lambda T, F: F.softshrink(T.ones(3), -1),
    "hardtanh_bounds": lambda T, F: F.hardtanh(T.ones(3), 2.0, 1.0),
    "hardtanh_int": lambda T, F: F.hardtanh(T.arange(-3, 3), -1, 1),
    "threshold_int": lambda T, F: F.threshold(T.arange(-3, 3), 0, 9),
    "prelu_mismatch": lambda T, F: F.prelu(T.ones(2, 4), T.ones(3)),
    "prelu_2d_weight": lambda T, F: F.prelu(T.ones(2, 4), T.ones(2, 2)),
    "prelu_dtypes": lambda T, F: F.prelu(T.ones(2, 4), T.ones(1, dtype=T.float64)),
    "prelu_int": lambda T, F: F.prelu(T.ones(2, dtype=T.int64), T.ones(1, dtype=T.int64)),
    "prelu_zero_dim": lambda T, F: F.prelu(T.tensor(1.0), T.ones(2)),
    "leaf_in_place": lambda T, F: F.elu(T.ones(2, requires_grad=True), inplace=True),
    "leaky_in_place_negative_slope": lambda T, F: F.leaky_relu(
        T.ones(2, requires_grad=True) * 1, -0.2, inplace=True).sum().backward(),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_activation_errors_like_torch(name):
    same_outcome(lambda T: ERRORS[name](T, T.nn.functional))


def test_activation_modules_like_torch():
    def fn(T):
        nn = T.nn
        layers = [nn.ELU(), nn.ELU(0.5, True), nn.SELU(), nn.SELU(True), nn.CELU(), nn.CELU(2.0),
                  nn.SiLU(), nn.SiLU(True), nn.Mish(), nn.Softplus(), nn.Softplus(2, 10),
                  nn.Hardtanh(), nn.Hardtanh(-2, 2, True), nn.ReLU6(), nn.ReLU6(True),
                  nn.Hardsigmoid(), nn.Hardswish(True), nn.LogSigmoid(), nn.Softsign(),
                  nn.Tanhshrink(), nn.Softshrink(), nn.Hardshrink(0.3), nn.Threshold(0.1, 20),
                  nn.Threshold(0.1, 20, True), nn.PReLU(), nn.PReLU(3, 0.1)]
        T.manual_seed(0)
        x = T.randn(2, 3) * 4
        return [repr(m) for m in layers], [m(x.clone()) for m in layers], raised(
            lambda: nn.Hardtanh(1.0, 1.0))
    same_outcome(fn, **TOL)
