"""How far doctensor's float32 matrix products are from torch 2.13's (BLAS: OpenBLAS vs MKL).

Both libraries compute ``x @ W.T + b`` exactly rounded per operation, but each sums the inner
dimension in its own blocked order, so the last bits differ.  ``measure`` runs ``F.linear`` on
the same float32 inputs under both, for the ``nn.Linear`` shapes of the site and the bench,
and reports per shape: the share of output elements that differ at all, the median and the
largest distance in ulps, and the largest difference divided by the error scale
``eps * (|x| @ |W|.T + |b|)`` (eps = 2**-24, the float32 unit roundoff): the figure the tests
bound (``SCALE_BOUND``) and the "How exact is doctensor" page shows.
"""

import numpy as np

# (batch, in_features, out_features): the site's Linear(2, 1) and Linear(3, 1), the digits
# MLP (64 -> 512 -> 512 -> 10), the bench's W2 MLP (784 -> 512 -> 512 -> 10, batch 64 and
# 1024) and W5's LeNet head (400 -> 120 -> 84 -> 10)
SHAPES = [(4, 2, 1), (4, 3, 1), (1437, 64, 512), (64, 784, 512), (64, 512, 512),
          (64, 512, 10), (1024, 784, 512), (64, 400, 120), (64, 120, 84), (64, 84, 10)]
EPS = 2.0 ** -24
# |doctensor - torch| <= SCALE_BOUND * eps * (|x| @ |W|.T + |b|): measured at most 4.3 over
# seeds 0-5 (the rigorous bound for two summation orders is about 2 * in_features)
SCALE_BOUND = 8.0


def _ulps(a, b):
    ia, ib = a.view(np.int32).astype(np.int64), b.view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)  # sign-magnitude to a monotone line
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


def measure(shapes=SHAPES, seed=0):
    """[{shape, differ, median_ulp, max_ulp, max_scaled}] for each (batch, in, out) shape."""
    import torch

    import doctensor

    rng = np.random.default_rng(seed)
    out = []
    for batch, n_in, n_out in shapes:
        bound = 1 / np.sqrt(n_in)  # nn.Linear's initialisation range
        x = rng.standard_normal((batch, n_in)).astype(np.float32)
        w = rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32)
        b = rng.uniform(-bound, bound, n_out).astype(np.float32)
        ours = doctensor.nn.functional.linear(
            *(doctensor.from_numpy(a) for a in (x, w, b))).numpy()
        theirs = torch.nn.functional.linear(*(torch.from_numpy(a) for a in (x, w, b))).numpy()
        scale = EPS * (np.abs(x).astype(np.float64) @ np.abs(w).T.astype(np.float64) + np.abs(b))
        ulps = _ulps(ours, theirs)
        out.append({"shape": [batch, n_in, n_out], "differ": float(np.mean(ulps > 0)),
                    "median_ulp": float(np.median(ulps)), "max_ulp": int(ulps.max()),
                    "max_scaled": float(np.max(np.abs(ours.astype(np.float64) - theirs)
                                               / scale))})
    return out
