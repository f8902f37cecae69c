"""The convolution's column matrices and the max pools' scan (issue 20) against torch 2.13.

Convolutions are products with a matrix of windows built a few images at a time, along the
flattened planes when every stride is 1 (Note [columns] in ops/convolution.py); the cases
cover that path and the strided one, 1-d/2-d/3-d, groups, dilation, padding, batches cut into
several parts, a weight or an input that is not finite, half precision, transposed
convolutions, double backward and torch's weight checks.
Values agree with torch to float32 rounding (its kernels sum in another order).  Max pools
(Note [max scan]) are exact: values, indices (the first of ties, the last NaN, never the
padding), gradients, integer dtypes.
"""

import numpy as np
import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import same_outcome

from doctensor.ops import convolution

TOL = {"rtol": 2e-5, "atol": 2e-5, "reprs": False}
EXACT = {"rtol": 0.0, "atol": 0.0}


@pytest.fixture(params=["one_part", "many_parts"])
def parts(request, monkeypatch):
    """Column matrices built for the whole batch at once, or for one image at a time."""
    if request.param == "many_parts":
        monkeypatch.setattr(convolution, "_PART_SIZE", 1)


def _values(shape, seed, dtype="float32"):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _conv_case(T, fn, xshape, wshape, bias=True, dtype="float32", layout="contig", **kw):
    """Output, grad_fn name and the three gradients of ``fn(x, w, b, **kw)``."""
    x = T.tensor(_values(xshape, 0, dtype), requires_grad=True)
    w = T.tensor(_values(wshape, 1, dtype), requires_grad=True)
    b = T.tensor(_values(wshape[0] if fn != "conv_transpose" else wshape[1] * kw.get(
        "groups", 1), 2, dtype), requires_grad=True) if bias else None
    dims = len(xshape) - 2
    name = f"conv{dims}d" if fn == "conv" else f"conv_transpose{dims}d"
    xin = x.transpose(-1, -2).contiguous().transpose(-1, -2) if layout == "T" else x
    y = getattr(T.nn.functional, name)(xin, w, b, **kw)
    (y * T.arange(y.numel(), dtype=y.dtype).reshape(y.shape).cos()).sum().backward()
    return {"out": (y, y.grad_fn.name()),
            "grads": [x.grad, w.grad, None if b is None else b.grad]}


CONV = {  # (input shape, weight shape, options): flat (every stride 1) and strided paths
    "lenet1": ((4, 1, 28, 28), (6, 1, 5, 5), {"padding": 2}),
    "lenet2": ((4, 6, 14, 14), (16, 6, 5, 5), {}),
    "dilation_padding": ((3, 4, 9, 8), (5, 4, 3, 2), {"dilation": (2, 3), "padding": (2, 1)}),
    "groups": ((2, 4, 7, 6), (6, 2, 3, 3), {"groups": 2, "padding": 1}),
    "depthwise": ((2, 3, 8, 8), (6, 1, 3, 3), {"groups": 3, "dilation": 2}),
    "stride": ((3, 3, 9, 8), (4, 3, 3, 3), {"stride": 2, "padding": 1}),
    "stride_w_only": ((2, 3, 7, 9), (4, 3, 3, 3), {"stride": (1, 2)}),
    "stride_h_only": ((2, 3, 9, 7), (4, 3, 2, 3), {"stride": (3, 1), "padding": (1, 0)}),
    "kernel_1x1": ((2, 5, 4, 3), (3, 5, 1, 1), {}),
    "kernel_is_input": ((2, 2, 3, 4), (3, 2, 3, 4), {}),
    "same": ((2, 3, 6, 7), (4, 3, 4, 3), {"padding": "same"}),
    "conv1d": ((3, 4, 11), (5, 4, 3), {"padding": 1, "dilation": 2}),
    "conv1d_stride": ((3, 4, 11), (6, 2, 3), {"stride": 2, "groups": 2}),
    "conv3d": ((2, 3, 5, 6, 4), (4, 3, 2, 3, 2), {"padding": (1, 0, 1)}),
    "conv3d_stride": ((2, 2, 6, 5, 5), (3, 2, 3, 2, 2), {"stride": (2, 1, 2)}),
    "empty_batch": ((0, 3, 6, 6), (4, 3, 3, 3), {"padding": 1}),
}


@pytest.mark.parametrize("name", sorted(CONV))
def test_convolution_like_torch(name, parts):
    xshape, wshape, kw = CONV[name]
    same_outcome(lambda T: _conv_case(T, "conv", xshape, wshape, **kw), **TOL)


@pytest.mark.parametrize("name", ["lenet2", "stride", "conv3d"])
def test_convolution_float64_like_torch(name, parts):
    xshape, wshape, kw = CONV[name]
    same_outcome(lambda T: _conv_case(T, "conv", xshape, wshape, dtype="float64", **kw),
                 rtol=1e-10, atol=1e-10, reprs=False)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_convolution_half_precision_like_torch(dtype):
    """Products of half-precision columns (NumPy's matmul gives float32 for bfloat16): the
    results keep the input's dtype, rounded once as torch's kernels round."""
    def fn(T):
        x = T.tensor(_values((2, 3, 7, 6), 0)).to(getattr(T, dtype)).requires_grad_()
        w = T.tensor(_values((4, 3, 3, 3), 1)).to(getattr(T, dtype)).requires_grad_()
        b = T.tensor(_values(4, 2)).to(getattr(T, dtype)).requires_grad_()
        y = T.nn.functional.conv2d(x, w, b, padding=1)
        y.sum().backward()
        return {"out": y, "grads": [x.grad, w.grad, b.grad]}
    same_outcome(fn, rtol=2e-2, atol=5e-2, reprs=False)


def test_convolution_of_a_strided_input_like_torch(parts):
    same_outcome(lambda T: _conv_case(T, "conv", (2, 3, 7, 8), (4, 3, 3, 3), layout="T",
                                      padding=1), **TOL)


@pytest.mark.parametrize("value", [float("inf"), float("nan")])
def test_input_gradient_with_a_weight_not_finite_like_torch(value):
    """Along the flattened planes the left-over columns are zeros, which a weight with an
    infinity or a NaN would spoil: that weight takes the strided path.  (No padding: torch
    skips the padding where doctensor multiplies its zeros, NaN by an infinite weight.)"""
    def fn(T):
        x = T.tensor(_values((2, 2, 6, 7), 0), requires_grad=True)
        w = _values((3, 2, 3, 2), 1)
        w[1, 0, 1, 1] = value
        y = T.nn.functional.conv2d(x, T.tensor(w), dilation=(1, 2))
        y.sum().backward()
        return y, x.grad
    same_outcome(fn, **TOL)


@pytest.mark.parametrize("value", [float("inf"), float("nan")])
def test_weight_gradient_with_an_input_not_finite_like_torch(value):
    """The same for the weight's gradient and an input with an infinity or a NaN (in its last
    column, which left-over columns read)."""
    def fn(T):
        x = _values((2, 2, 5, 6), 0)
        x[1, 1, 2, -1] = value
        w = T.tensor(_values((3, 2, 2, 3), 1), requires_grad=True)
        y = T.nn.functional.conv2d(T.tensor(x), w)
        y.sum().backward()
        return y, w.grad
    same_outcome(fn, **TOL)


@pytest.mark.parametrize("wshape, groups", [((0, 3, 3, 3), 1), ((2, 1, 3, 3), 3),
                                            ((4, 1, 3, 3), 3), ((0, 2, 3), 1)])
def test_convolution_weight_checks_like_torch(wshape, groups):
    """Fewer output channels than groups (none at all included): torch's error."""
    dims = len(wshape) - 2
    same_outcome(lambda T: getattr(T.nn.functional, f"conv{dims}d")(
        T.ones(2, 3, *(5,) * dims), T.ones(*wshape), groups=groups))


TRANSPOSED = {
    "plain": ((2, 4, 5, 6), (4, 3, 3, 3), {}),
    "stride_output_padding": ((2, 4, 5, 4), (4, 3, 3, 2), {"stride": 2, "output_padding": 1}),
    "groups_dilation": ((2, 4, 5, 5), (4, 2, 3, 3), {"groups": 2, "dilation": 2,
                                                     "padding": 1}),
    "conv_transpose1d": ((2, 3, 7), (3, 2, 4), {"padding": 1}),
    "conv_transpose3d": ((1, 2, 3, 4, 3), (2, 3, 2, 2, 3), {"stride": (1, 2, 1)}),
}


@pytest.mark.parametrize("name", sorted(TRANSPOSED))
def test_transposed_convolution_like_torch(name, parts):
    xshape, wshape, kw = TRANSPOSED[name]
    same_outcome(lambda T: _conv_case(T, "conv_transpose", xshape, wshape, **kw), **TOL)


@pytest.mark.parametrize("stride", [1, 2])
def test_convolution_double_backward_like_torch(stride):
    def fn(T):
        x = T.tensor(_values((2, 3, 6, 5), 0, "float64"), requires_grad=True)
        w = T.tensor(_values((4, 3, 3, 2), 1, "float64"), requires_grad=True)
        y = T.nn.functional.conv2d(x, w, stride=stride, padding=1)
        gx, gw = T.autograd.grad((y * y).sum(), (x, w), create_graph=True)
        (gx.sin().sum() + gw.cos().sum()).backward()
        return gx, gw, gx.grad_fn.name(), x.grad, w.grad
    same_outcome(fn, rtol=1e-10, atol=1e-10, reprs=False)


# -- max pools: exact -------------------------------------------------------------------------


def _pool_case(T, values, pool="max_pool2d", grad=True, **kw):
    """Maxima (with the sign of zeros), indices, names and the input's gradient."""
    x = T.tensor(values, requires_grad=grad)
    y, index = getattr(T.nn.functional, pool)(x, return_indices=True, **kw)
    out = [y, index, T.signbit(y), None if y.grad_fn is None else y.grad_fn.name()]
    if grad:
        (y * T.arange(1, y.numel() + 1, dtype=y.dtype).reshape(y.shape)).sum().backward()
        out.append(x.grad)
    return out


def _ties(shape, seed):
    """Values with many ties, signed zeros, NaNs and infinities."""
    rng = np.random.default_rng(seed)
    pool = np.array([0.0, -0.0, 1.0, 1.0, 2.0, -np.inf, np.inf, np.nan, -1.0, 0.5])
    return rng.choice(pool, shape, p=[.2, .2, .1, .1, .1, .1, .05, .05, .05, .05]).astype(
        np.float32)


POOL = {  # (input shape, options)
    "lenet": ((2, 6, 28, 28), {"kernel_size": 2}),
    "odd_size": ((2, 3, 7, 9), {"kernel_size": 2}),
    "ceil_mode": ((2, 3, 7, 9), {"kernel_size": 2, "ceil_mode": True}),
    "overlapping": ((2, 3, 8, 7), {"kernel_size": 3, "stride": 1}),
    "overlapping_stride": ((2, 3, 9, 8), {"kernel_size": 3, "stride": 2, "padding": 1}),
    "padding_dilation": ((2, 2, 9, 10), {"kernel_size": (3, 2), "stride": (2, 1),
                                         "padding": (1, 1), "dilation": (2, 3)}),
    "ceil_padding": ((1, 2, 8, 8), {"kernel_size": 3, "stride": 2, "padding": 1,
                                    "ceil_mode": True}),
    "gaps": ((1, 2, 9, 9), {"kernel_size": 2, "stride": 3}),
    "unbatched": ((3, 6, 5), {"kernel_size": (2, 3), "stride": (2, 1)}),
    "kernel_1": ((2, 2, 3, 4), {"kernel_size": 1}),
}


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", sorted(POOL))
def test_max_pool2d_exact_like_torch(name, seed):
    shape, kw = POOL[name]
    same_outcome(lambda T: _pool_case(T, _ties(shape, seed), **kw), **EXACT)


@pytest.mark.parametrize("name", sorted(POOL))
def test_max_pool2d_float64_random_like_torch(name):
    shape, kw = POOL[name]
    same_outcome(lambda T: _pool_case(T, _values(shape, 3, "float64"), **kw), **EXACT)


def test_max_pool_windows_of_lowest_values_pick_their_first_element_inside():
    """torch never points into the padding, even where every value is -inf."""
    values = np.full((1, 2, 5, 6), -np.inf, np.float32)
    values[0, 1, 2, 3] = np.nan
    same_outcome(lambda T: _pool_case(T, values, kernel_size=3, stride=2, padding=1),
                 **EXACT)
    same_outcome(lambda T: _pool_case(T, values, kernel_size=(3, 2), padding=1,
                                      dilation=(2, 1), ceil_mode=True), **EXACT)


@pytest.mark.parametrize("dtype", ["int64", "uint8", "int8", "int32"])
@pytest.mark.parametrize("padding", [0, 1])
def test_max_pool2d_integers_like_torch(dtype, padding):
    info = np.iinfo(dtype)
    values = np.random.default_rng(0).choice([info.min, info.min + 1, 0, 3, info.max],
                                             (2, 2, 6, 5)).astype(dtype)
    values[0, 0] = info.min  # a plane of lowest values: indices at the windows' first inside
    same_outcome(lambda T: _pool_case(T, values, grad=False, kernel_size=3, stride=2,
                                      padding=padding))


def test_max_pool2d_of_bool_raises_like_torch():
    same_outcome(lambda T: T.nn.functional.max_pool2d(T.ones(1, 2, 4, 4, dtype=T.bool), 2))


@pytest.mark.parametrize("name", ["overlapping_stride", "lenet"])
def test_max_pool2d_double_backward_like_torch(name):
    shape, kw = POOL[name]

    def fn(T):
        x = T.tensor(_values(shape, 4, "float64"), requires_grad=True)
        y = T.nn.functional.max_pool2d(x, **kw)
        (gx,) = T.autograd.grad((y * y).sum(), x, create_graph=True)
        gx.pow(3).sum().backward()
        return gx, gx.grad_fn.name(), x.grad
    same_outcome(fn, **EXACT)


POOL3D = {
    "cube": ((1, 2, 4, 6, 6), {"kernel_size": 2}),
    "padding_ceil": ((2, 1, 5, 6, 5), {"kernel_size": 3, "stride": 2, "padding": 1,
                                       "ceil_mode": True}),
    "dilation": ((1, 2, 6, 5, 7), {"kernel_size": (2, 2, 3), "dilation": (2, 1, 2)}),
    "unbatched": ((2, 4, 4, 5), {"kernel_size": (2, 2, 3), "stride": 1}),
}


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", sorted(POOL3D))
def test_max_pool3d_exact_like_torch(name, seed):
    shape, kw = POOL3D[name]
    same_outcome(lambda T: _pool_case(T, _ties(shape, seed), pool="max_pool3d", **kw),
                 **EXACT)


def test_max_pool1d_like_torch():
    same_outcome(lambda T: _pool_case(T, _ties((2, 3, 11), 5), pool="max_pool1d",
                                      kernel_size=3, stride=2, padding=1), **EXACT)


def test_lenet_step_like_torch():
    """The benchmark's training step (W5) on a small batch: the loss and every gradient."""
    def fn(T):
        nn = T.nn
        T.manual_seed(0)
        model = nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 10))
        images = T.tensor(np.random.default_rng(1).random((8, 1, 28, 28), dtype=np.float32))
        loss = nn.functional.cross_entropy(model(images), T.arange(8) % 10)
        loss.backward()
        return loss, [p.grad for p in model.parameters()]
    same_outcome(fn, rtol=1e-4, atol=1e-5, reprs=False)
