"""``python -m benchmarks.ulps``: how often doctensor's float32/float16 transcendentals differ
from torch 2.13's (Note [float32 transcendentals] in ``ops/pointwise.py``).

For each op, 100,000 uniform inputs over the op's usual range; prints the fraction of
elements whose result differs from torch's in any bit, and the largest difference in ulps.
"""

import numpy as np
import torch

import doctensor

# (op, low, high): ranges where the results are finite and not all 0 or 1
RANGES = [("exp", -10, 10), ("log", 1e-3, 100), ("sin", -10, 10), ("cos", -10, 10),
          ("tanh", -5, 5), ("sigmoid", -10, 10), ("log1p", 0, 10), ("expm1", -3, 3),
          ("sqrt", 0, 100), ("rsqrt", 1e-3, 100)]


def ulps(a, b):
    """Largest distance in units in the last place between same-dtype arrays ``a`` and ``b``."""
    bits = {2: np.int16, 4: np.int32}[a.itemsize]
    ia, ib = a.view(bits).astype(np.int64), b.view(bits).astype(np.int64)
    return int(np.abs(ia - ib).max()) if a.size else 0


def measure(n=100_000, seed=0, dtypes=("float32", "float16")):
    """{(op, dtype): (mismatch fraction, max ulps)}; ops doctensor lacks are left out."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, lo, hi in RANGES:
        x64 = rng.uniform(lo, hi, n)
        for dtype in dtypes:
            x = x64.astype(dtype)
            if not hasattr(doctensor, name):
                continue
            ours = getattr(doctensor, name)(doctensor.from_numpy(x)).numpy()
            theirs = getattr(torch, name)(torch.from_numpy(x)).numpy()
            out[name, dtype] = (float(np.mean(ours != theirs)), ulps(ours, theirs))
    return out


def main():
    print(f"{'op':<8} {'dtype':<8} {'mismatch':>9} {'max ulps':>9}")
    for (name, dtype), (rate, worst) in measure().items():
        print(f"{name:<8} {dtype:<8} {rate:>9.2%} {worst:>9}")


if __name__ == "__main__":
    main()
