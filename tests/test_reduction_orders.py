"""torch's CPU sum order, layout by layout (Note [torch's CPU sum], issue 17): every kernel
(contiguous rows, contiguous columns, strided) and the iteration around it, at the sizes where
its cascades, groups and lanes change, in float32, float64, float16 and bfloat16, on one and
on two threads (torch's thread split), bit for bit against torch 2.13."""

import itertools

import numpy as np
import pytest

from tests._oracle import doctensor, threads, torch  # noqa: F401 - threads: a fixture

DTYPES = ("float32", "float64", "float16", "bfloat16")
SIZES = list(range(1, 301)) + [383, 511, 512, 513, 1000, 1023, 1024, 1025, 4095, 4096, 4097,
                                8191, 8193, 32767, 32768, 32769, 65535, 65537, 262143, 262145,
                                1 << 20]
ROWS = (1, 2, 3, 5, 17, 100)
COLS = list(range(1, 35)) + [63, 64, 65, 127, 128, 129, 255, 256, 257, 1000]



def _values(rng, shape):
    """Normal values spread over a few binades (so that a changed order changes the bits)."""
    return (rng.standard_normal(shape) * 2.0 ** rng.integers(-6, 6, shape)).astype(np.float32)


def _pair(values, dtype):
    t = torch.from_numpy(values).to(getattr(torch, dtype))
    return t, doctensor.tensor(values).to(getattr(doctensor, dtype))


def _same(ours, theirs, what):
    assert str(ours.dtype) == str(theirs.dtype), what
    assert tuple(ours.shape) == tuple(theirs.shape), what
    got = ours.detach().float().contiguous().numpy()
    want = theirs.detach().float().contiguous().numpy()
    assert got.tobytes() == want.tobytes(), (what, got, want)


def _check(d, t, dims, what):
    for keepdim in (False, True) if dims is not None else (False,):
        if dims is None:
            _same(d.sum(), t.sum(), (what, "sum()"))
            _same(d.mean(), t.mean(), (what, "mean()"))
        else:
            _same(d.sum(dims, keepdim), t.sum(dims, keepdim), (what, dims, keepdim))
        if str(t.dtype) in ("torch.float32", "torch.float64"):  # (nansum: NaN read as 0)
            _same(doctensor.nansum(d, dims, keepdim), torch.nansum(t, dims, keepdim),
                  (what, dims, keepdim, "nansum"))


LAYOUTS = {  # 2-d views of a (2r, 2c) base, each (rows, cols) in shape
    "contiguous": lambda b, r, c: b[:r, :c].contiguous(),
    "transposed": lambda b, r, c: b[:c, :r].contiguous().t(),
    "sliced": lambda b, r, c: b[1:1 + r, 1:1 + c],
    "stepped": lambda b, r, c: b[:2 * r:2, :c],
    "stepped columns": lambda b, r, c: b[:r, :2 * c:2],
    "expanded rows": lambda b, r, c: b[:1, :c].expand(r, c),
    "expanded columns": lambda b, r, c: b[:r, :1].expand(r, c),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.usefixtures("threads")
def test_full_sum_of_every_size(dtype):
    rng = np.random.default_rng(1)
    for n in SIZES:
        t, d = _pair(_values(rng, n), dtype)
        _check(d, t, None, n)
        if n % 7 == 0 or n > 300:  # (a stepped vector: the strided kernel)
            t2, d2 = _pair(_values(rng, 2 * n), dtype)
            _check(d2[::2], t2[::2], None, (n, "stepped"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.usefixtures("threads")
def test_rows_and_columns(dtype):
    rng = np.random.default_rng(2)
    for rows, cols in itertools.product(ROWS, COLS):
        t, d = _pair(_values(rng, (2 * max(rows, cols), 2 * max(rows, cols))), dtype)
        for name, view in LAYOUTS.items():
            dv, tv = view(d, rows, cols), view(t, rows, cols)
            for dims in (None, 0, 1, (0, 1)):
                _check(dv, tv, dims, (rows, cols, name))


LARGE = [(1000, 1000), (256, 1031), (1031, 256), (129, 2049), (4097, 9), (9, 4097)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.usefixtures("threads")
def test_large_matrices(dtype):
    """Past GRAIN_SIZE: torch splits the work among its threads."""
    rng = np.random.default_rng(3)
    for rows, cols in LARGE:
        t, d = _pair(_values(rng, (rows + 3, cols + 3)), dtype)
        for name, view in LAYOUTS.items():
            if name.startswith(("stepped", "expanded")):
                continue
            dv, tv = view(d, rows, cols), view(t, rows, cols)
            for dims in (None, 0, 1):
                _check(dv, tv, dims, (rows, cols, name))
    t, d = _pair(_values(rng, (1000, 1000)), dtype)
    _check(d[::3, ::2], t[::3, ::2], 0, "stepped")
    _check(d[::3, ::2], t[::3, ::2], 1, "stepped")


THREE_D = [(3, 5, 17), (4, 8, 8), (17, 9, 64), (2, 33, 100), (40, 30, 100), (64, 64, 33)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.usefixtures("threads")
def test_three_dims(dtype):
    rng = np.random.default_rng(4)
    for shape in THREE_D:
        t, d = _pair(_values(rng, shape), dtype)
        for perm in ((0, 1, 2), (2, 1, 0), (1, 0, 2)):
            dv, tv = d.permute(*perm), t.permute(*perm)
            for dims in ((0, 1), (1, 2), (0, 2), 0, 1, 2, None):
                _check(dv, tv, dims, (shape, perm))
        _check(d[:, 1:, ::2], t[:, 1:, ::2], (0, 1), (shape, "sliced"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_signed_zeros(dtype):
    """Sums of -0 are +0 where torch's accumulators start from 0 (and -0 where they do not)."""
    for shape in [(1,), (5,), (8,), (16,), (33,), (300,), (5000,), (17, 40), (40, 17), (3, 1000)]:
        t, d = _pair(np.full(shape, -0.0, np.float32), dtype)
        _check(d, t, None, shape)
        for dims in range(len(shape)):
            _check(d, t, dims, shape)
            _check(d.t() if d.ndim == 2 else d, t.t() if t.ndim == 2 else t, dims, shape)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_short_sums_with_zeros_and_cancellations(dtype):
    """Kernel A's short path starts its lanes from their first term (Note in _short_total):
    lanes that sum to -0 or cancel exactly, around tails of every length."""
    rng = np.random.default_rng(7)
    for n in range(4, 256, 3):
        values = rng.choice(np.array([-0.0, 0.0, 1.5, -1.5, 2.0**-30, -(2.0**-30)]), n)
        t, d = _pair(values.astype(np.float32), dtype)
        _check(d, t, None, n)
