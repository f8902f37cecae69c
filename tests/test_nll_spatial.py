"""nll_loss and cross_entropy over inputs with more dims than (N, C) (segmentation maps,
sequences): torch's nll_loss_nd (nll_loss2d for (N, C, H, W); other shapes viewed as
(N, C, 1, -1)), its cascade sum in the element's flat order, its backward, checks and errors.
Compared with torch 2.13 bit for bit."""

import numpy as np
import pytest
from _oracle import same_outcome

SHAPES = [(2, 3, 4, 5), (2, 3, 7), (2, 3, 2, 2, 3), (4, 5, 16, 20), (1, 2, 300)]


def _case(T, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = T.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
    t = T.tensor(rng.integers(0, shape[1], (shape[0], *shape[2:])))
    return x, t


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss_of_maps(shape, reduction, weighted):
    def scenario(T):
        x, t = _case(T, shape)
        t[0].view(-1)[::3] = -100  # ignored elements
        w = T.linspace(0.2, 1.7, shape[1]) if weighted else None
        loss = T.nn.functional.nll_loss(x, t, weight=w, reduction=reduction)
        loss.backward(T.ones_like(loss) / 3)
        return loss, x.grad
    same_outcome(scenario, rtol=0, atol=0)


@pytest.mark.parametrize("shape", SHAPES[:3], ids=str)
def test_cross_entropy_of_maps(shape):
    def scenario(T):
        x, t = _case(T, shape, seed=1)
        loss = T.nn.functional.cross_entropy(x, t)
        loss.backward()
        return loss, x.grad
    same_outcome(scenario, rtol=0, atol=0)


def test_the_loss_values_are_torchs_bits():
    def scenario(T):
        x, t = _case(T, (4, 5, 16, 20), seed=2)
        return [T.nn.functional.cross_entropy(x, t, reduction=r) for r in ("mean", "sum")]
    same_outcome(scenario, rtol=0, atol=0)


ERRORS = {
    "target_dims": lambda T: T.nn.functional.nll_loss(T.ones(2, 3, 4, 5), T.zeros(2, 20).long()),
    "size_mismatch": lambda T: T.nn.functional.nll_loss(T.ones(2, 3, 4, 5),
                                                        T.zeros(2, 4, 4).long()),
    "target_size_3d": lambda T: T.nn.functional.nll_loss(T.ones(2, 3, 7), T.zeros(2, 6).long()),
    "batch": lambda T: T.nn.functional.nll_loss(T.ones(2, 3, 7), T.zeros(3, 7).long()),
    "weight_size": lambda T: T.nn.functional.nll_loss(T.ones(2, 3, 4, 5),
                                                      T.zeros(2, 4, 5).long(), T.ones(4)),
    "out_of_bounds": lambda T: T.nn.functional.nll_loss(T.ones(2, 3, 4, 5),
                                                        T.full((2, 4, 5), 3)),
    "int32_target": lambda T: T.nn.functional.nll_loss(T.ones(2, 3, 4, 5),
                                                       T.zeros(2, 4, 5, dtype=T.int32)),
    "0d": lambda T: T.nn.functional.nll_loss(T.tensor(1.), T.tensor(0)),
    "empty_mean": lambda T: T.nn.functional.nll_loss(T.ones(0, 3, 7), T.zeros(0, 7).long()),
    "empty_none": lambda T: T.nn.functional.nll_loss(T.ones(0, 3, 7), T.zeros(0, 7).long(),
                                                     reduction="none"),
    "all_ignored": lambda T: T.nn.functional.nll_loss(T.ones(1, 3, 2), T.full((1, 2), -100)),
    "weight_dtype_4d": lambda T: T.nn.functional.nll_loss(
        T.ones(2, 3, 2, 2, dtype=T.float64), T.full((2, 2, 2), 5), T.ones(3)),
    "weight_dtype_2d": lambda T: T.nn.functional.nll_loss(
        T.ones(2, 3, dtype=T.float64), T.tensor([0, 5]), T.ones(3)),
    "weight_size_2d": lambda T: T.nn.functional.nll_loss(T.ones(2, 3), T.tensor([0, 1]),
                                                         T.ones(4)),
    "ignored_row_is_plus_zero": lambda T: T.nn.functional.nll_loss(
        T.tensor([[1., 2.], [3., 4.]]), T.tensor([0, -100]), reduction="none"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_checks_and_edges(name):
    same_outcome(ERRORS[name], rtol=0, atol=0)
