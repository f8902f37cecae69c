"""softmax, log_softmax and cross_entropy bit for bit against torch 2.13's CPU kernels
(Note [softmax kernel] in _exact/softmax.py, Note [nll_loss cascade sum] in
ops/nn_ops.py), and the printed ``softmax(x).sum(1)`` that shows the last bit.

float32 is exact everywhere (rows of 1..2000, dim last or not, -inf, inf, NaN, large values);
float64 uses NumPy's exp and log for Sleef's, so some elements differ in the last bit.
"""

import numpy as np
import pytest
import torch

import doctensor
import doctensor.nn.functional as DF

SHAPES = [((3000, 1), -1), ((2000, 2), -1), ((1000, 5), -1), ((500, 10), -1), ((400, 15), -1),
          ((300, 16), -1), ((300, 17), -1), ((200, 33), -1), ((60, 100), -1), ((20, 1000), -1),
          ((10, 2000), -1), ((7,), 0), ((3, 5), 0), ((10, 20), 0), ((64, 10), 0), ((300, 7), 0),
          ((4, 10, 3), 1), ((8, 40, 17), 1), ((2, 33, 48), 1), ((1, 10, 100), 1),
          ((5, 3, 100), 0), ((2, 7, 5, 9), 2), ((3, 700, 40), 1)]


def _input(shape, seed, dtype=np.float32):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * rng.choice([0.1, 1.0, 3.0, 30.0, 1000.0])
    flat = a.reshape(-1)
    if seed % 3 == 0 and a.size > 4:
        flat[rng.integers(0, a.size, max(1, a.size // 50))] = -np.inf
    if seed % 7 == 0:
        flat[rng.integers(0, a.size)] = rng.choice([np.inf, np.nan, 1e38])
    return a.astype(dtype)


def _mismatches(a, dim, log):
    ours = getattr(doctensor.tensor(a), "log_softmax" if log else "softmax")(dim).numpy()
    theirs = getattr(torch.from_numpy(a), "log_softmax" if log else "softmax")(dim).numpy()
    same = (ours.view(np.uint8) == theirs.view(np.uint8)).reshape(a.shape + (-1,)).all(-1)
    return int((~(same | (np.isnan(ours) & np.isnan(theirs)))).sum())


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("shape,dim", SHAPES, ids=[f"{s}-{d}" for s, d in SHAPES])
def test_float32_bits(shape, dim, log):
    for seed in range(3):
        assert _mismatches(_input(shape, seed + sum(shape)), dim, log) == 0


@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
def test_float64_close_to_bits(log):
    bad = total = 0
    for i, (shape, dim) in enumerate(SHAPES):
        a = _input(shape, i, np.float64)
        bad, total = bad + _mismatches(a, dim, log), total + a.size
    # NumPy's exp and log for Sleef's: 6.6% / 0.23% differ (the old code: 27% / 1.6%)
    assert bad <= (0.005 if log else 0.10) * total


def test_printed_sum_of_softmax():
    for seed in range(30):
        torch.manual_seed(seed)
        doctensor.manual_seed(seed)
        theirs = torch.nn.functional.softmax(torch.randn(2, 3), dim=-1).sum(dim=1)
        ours = DF.softmax(doctensor.randn(2, 3), dim=-1).sum(dim=1)
        assert repr(ours) == repr(theirs), seed


@pytest.mark.parametrize("batch,classes", [(1, 5), (64, 10), (1024, 10), (300, 3), (5000, 7)])
def test_cross_entropy_bits(batch, classes):
    rng = np.random.default_rng(batch)
    for k in range(4):
        x = (rng.standard_normal((batch, classes)) * 3).astype(np.float32)
        y = rng.integers(0, classes, batch)
        y[rng.random(batch) < 0.1 * (k % 2)] = -100
        w = rng.random(classes).astype(np.float32) if k >= 2 else None
        for reduction in ("mean", "sum", "none"):
            theirs = torch.nn.functional.cross_entropy(
                torch.from_numpy(x), torch.from_numpy(y),
                weight=None if w is None else torch.from_numpy(w), reduction=reduction)
            ours = DF.cross_entropy(doctensor.tensor(x), doctensor.tensor(y),
                                    weight=None if w is None else doctensor.tensor(w),
                                    reduction=reduction)
            np.testing.assert_array_equal(ours.detach().numpy(), theirs.numpy())


@pytest.mark.parametrize("size", [1, 70_000])  # all steps joined, and step by step
def test_deferred_fma_check_refuses_what_double_rounding_may_have_missed(size):
    """Note [deferred fma check] in _exact/sleef.py: a double result that lies halfway between
    two floats and is not exact, or that lies in float32's subnormal range, makes the
    unchecked run count as wrong (and Sleef's steps run again with exact fmas)."""
    from doctensor._exact.sleef import _UncheckedFma

    def checked(a, b, c):
        fma = _UncheckedFma()
        fma(np.full(size, 0.5, np.float32), np.float32(3), np.float32(1))  # exact: 2.5
        array = np.full(size, 0.5, np.float32)
        array[-1] = a
        fma(array, np.float32(b), np.float32(c))
        return fma.exact()

    assert checked(0.5, 3, 1)  # every double exact
    assert checked(2.0**-24, 1, 1)  # 1 + 2**-24: halfway, but exact
    # (1 + 2**-23) * 2**-24 * (1 - 2**-23) = 2**-24 - 2**-70: 1 + that rounds to the halfway
    # double 1 + 2**-24, which is not the exact sum
    assert not checked((1 + 2.0**-23) * 2.0**-24, 1 - 2.0**-23, 1)
    assert not checked(2.0**-65, 2.0**-65, 0)  # 2**-130: below float32's normal range
    assert checked(0.0, 2.0**-65, 0)  # an exact 0 is no subnormal
