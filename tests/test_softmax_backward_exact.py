"""softmax's and log_softmax's gradients are torch's bits (Note [softmax backward]): the last
dim (rows, reduce_all's lanes) and other dims (columns, chunked, Sleef's exp in vectors and
glibc's in the scalar columns), from random and from expanded gradients (``loss.sum()``),
through cross_entropy; float64 within NumPy's exp."""

import numpy as np
import pytest
from _oracle import same_outcome

CASES = [((64, 10), 1), ((3, 1), 1), ((5, 7), 1), ((2, 130), -1), ((8, 1000), 1),
         ((5, 40), 0), ((2, 3, 4, 5), 1), ((2, 3, 7), 1), ((3, 4, 5), 2), ((2, 3, 1), 1),
         ((2, 5, 33), 1), ((1, 1000, 40), 1), ((4, 3, 2, 9), 2), ((7,), 0), ((), 0)]


def _inputs(T, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = T.tensor((rng.standard_normal(shape) * 3).astype(dtype), requires_grad=True)
    g = T.tensor(rng.standard_normal(shape).astype(dtype))
    return x, g


@pytest.mark.parametrize("shape,dim", CASES, ids=str)
@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_float32_gradient_is_torchs(shape, dim, fn):
    def scenario(T):
        x, g = _inputs(T, shape, "float32", seed=len(shape) + dim)
        y = getattr(T, fn)(x, dim)
        y.backward(g)
        first = x.grad.clone()
        x.grad = None
        getattr(T, fn)(x, dim).sum().backward()  # an expanded gradient
        return y, first, x.grad
    same_outcome(scenario, rtol=0, atol=0)


@pytest.mark.parametrize("shape,dim", CASES[:8], ids=str)
@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_float64_gradient(shape, dim, fn):
    def scenario(T):
        x, g = _inputs(T, shape, "float64", seed=3)
        getattr(T, fn)(x, dim).backward(g)
        return x.grad
    same_outcome(scenario, rtol=1e-15, atol=1e-15)


def test_cross_entropy_gradient_is_torchs():
    def scenario(T):
        rng = np.random.default_rng(5)
        x = T.tensor(rng.standard_normal((64, 10)).astype("float32"), requires_grad=True)
        target = T.tensor(rng.integers(0, 10, 64))
        loss = T.nn.functional.cross_entropy(x, target)
        loss.backward()
        maps = T.tensor(rng.standard_normal((2, 3, 4, 5)).astype("float32"),
                        requires_grad=True)
        T.nn.functional.cross_entropy(maps, T.tensor(rng.integers(0, 3, (2, 4, 5)))).backward()
        return loss, x.grad, maps.grad
    same_outcome(scenario, rtol=0, atol=0)
