"""torch's CPU ``linalg.vector_norm`` for p = 1 and p = 2 (Note [vector norms])."""

import numpy as np

from .cascade_sum import GRAIN_SIZE, num_threads, reduced_runs

__all__ = ["vector_norm"]

# Note [vector norms]
# norm_kernel_tensor_iterator_impl reduces with binary_kernel_reduce: each output adds its
# terms (|x| for p = 1, x * x rounded for p = 2) one by one, left to right, in the order the
# reduction walks its reduced elements, in float (half precision: float, rounded at the end),
# then takes the square root.  A whole-tensor reduction of 32768 or more elements is cut into
# get_num_threads() equal chunks whose sums are added in order (0 + chunk 0 + chunk 1 ...).
# Not reproduced: p = 2 over one contiguous innermost dim of float32/float64/bfloat16 (a
# vectorised kernel whose order is not yet known): ``vector_norm`` returns None there.


def vector_norm(a, ord, dims):
    """The p-norm (``ord`` 1 or 2) of the float array ``a`` over ``dims`` (all when None) in
    torch's order, with the reduced dims dropped; None where it is not reproduced."""
    dims = tuple(range(a.ndim)) if dims is None else dims
    runs, last_dim = reduced_runs(a, dims)
    if ord == 2 and last_dim and a.dtype != np.float16:
        return None
    wide = np.dtype(np.float32) if a.dtype.itemsize < 4 else a.dtype
    x = runs.astype(wide)
    terms = np.abs(x) if ord == 1 else x * x
    n = terms.shape[-1]
    if runs.ndim == 1 and n >= GRAIN_SIZE and num_threads() > 1:
        parts = min(num_threads(), -(-n // GRAIN_SIZE))
        chunk = -(-n // parts)
        total = wide.type(0)
        for t in range(parts):
            total = total + _sequential(terms[t * chunk:(t + 1) * chunk])
    else:
        total = _sequential(terms)
    out = np.sqrt(total) if ord == 2 else total
    return np.asarray(out).astype(a.dtype).reshape([n for d, n in enumerate(a.shape)
                                                    if d not in dims])


def _sequential(terms):
    """0 + t[0] + t[1] + ... along the last axis."""
    if not terms.shape[-1]:
        return np.zeros(terms.shape[:-1], terms.dtype)
    return np.add.accumulate(terms, axis=-1)[..., -1] + terms.dtype.type(0)
