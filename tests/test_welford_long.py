"""float64 var / std / var_mean / std_mean over long reductions (Note [Welford's variance]):
torch's Welford steps bit for bit past 4,096 elements an output, its chunks per thread for a
single long output, compared with torch 2.13 at one and at two threads."""

import numpy as np
import pytest
import torch
from _oracle import threads  # noqa: F401 - a fixture

import doctensor

CASES = [((2, 5000), 1), ((3, 20000), 1), ((40000, 2), 0), ((70000,), 0), ((40000,), None),
         ((300, 50, 3), (0, 2)), ((2, 9000), 1)]



def _bits(t):
    return t.detach().numpy().view(np.uint64).tolist()


@pytest.mark.usefixtures("threads")
@pytest.mark.parametrize("name", ["var_mean", "std_mean", "var", "std"])
@pytest.mark.parametrize("shape, dim", CASES)
def test_long_welford_is_torchs(name, shape, dim):
    x = np.random.default_rng(len(shape) + shape[0]).standard_normal(shape) * 3 + 1
    kwargs = {} if dim is None else {"dim": dim}
    if name in ("var", "std") and dim is None:
        kwargs["dim"] = tuple(range(len(shape)))  # (along every dim: still one output)
    ours = getattr(doctensor, name)(doctensor.tensor(x), correction=0, keepdim=True, **kwargs)
    theirs = getattr(torch, name)(torch.tensor(x), correction=0, keepdim=True, **kwargs)
    ours, theirs = (r if isinstance(r, tuple) else (r,) for r in (ours, theirs))
    for a, b in zip(ours, theirs, strict=True):
        assert tuple(a.shape) == tuple(b.shape)
        assert _bits(a) == _bits(b)
