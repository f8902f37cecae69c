"""The fast random paths (issue 20) against real torch 2.13: every bit of every value.

``randn`` (and ``normal_``, ``torch.normal``, ``rand``, ``uniform_``) through doctensor's public
API, with generator objects and the default generator, over the sizes that pick each path:
the scalar sampler (< 16), the block transform with and without a ragged end, its blocks of
4096 windows, a million; float32, float64, float16 and bfloat16.  Comparisons are of the raw
bytes, and of the generator states afterwards (so the words drawn are the same too).
"""

import numpy as np
import pytest
import torch

import doctensor as dt
from doctensor._exact import avx_mathfun
from doctensor._exact.fma import fma32

SEEDS = [0, 2024, 2**32 - 1]
SIZES = list(range(1, 41)) + [100, 1000, 4097, 10007]
DTYPES = ["float32", "float64", "float16", "bfloat16"]
# (mean, std): std 1 takes the float32 add, the others the fused multiply-add
MOMENTS = [(0.0, 1.0), (2.0, 1.0), (0.3, 2.7), (-1.5, 0.25), (0.0, 1e-3)]


def raw(t):
    """A tensor's values as bytes (bfloat16 through its int16 view)."""
    if isinstance(t, torch.Tensor):
        if t.dtype == torch.bfloat16:
            t = t.view(torch.int16)
        return t.contiguous().numpy().tobytes()
    if t.dtype == dt.bfloat16:
        t = t.view(dt.int16)
    return t.contiguous().numpy().tobytes()


def assert_bits(ours, theirs):
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    a, b = raw(ours), raw(theirs)
    if a != b:
        width = theirs.element_size()
        x = np.frombuffer(a, f"u{width}")
        y = np.frombuffer(b, f"u{width}")
        wrong = np.flatnonzero(x != y)
        pytest.fail(f"{len(wrong)} of {len(x)} differ, first at {wrong[0]}")


def generators(seed):
    return dt.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)


def assert_same_state(g, tg):
    assert raw(g.get_state()) == raw(tg.get_state())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_randn_sizes(n, dtype):
    for seed in SEEDS[:2]:
        g, tg = generators(seed)
        for _ in range(2):  # a second call continues the stream (and the normal cache)
            assert_bits(dt.randn(n, generator=g, dtype=getattr(dt, dtype)),
                        torch.randn(n, generator=tg, dtype=getattr(torch, dtype)))
        assert_same_state(g, tg)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", SEEDS)
def test_randn_million(seed, dtype):
    n = 10**6 if dtype != "float64" else 10**5 + 7  # float64 calls glibc per element: slow
    g, tg = generators(seed)
    assert_bits(dt.randn(n, generator=g, dtype=getattr(dt, dtype)),
                torch.randn(n, generator=tg, dtype=getattr(torch, dtype)))
    assert_bits(dt.randn(1000, 3, generator=g, dtype=getattr(dt, dtype)),
                torch.randn(1000, 3, generator=tg, dtype=getattr(torch, dtype)))
    assert_same_state(g, tg)


@pytest.mark.parametrize("mean,std", MOMENTS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [7, 16, 33, 4097, 10007, 10**6])
def test_normal_mean_std(n, dtype, mean, std):
    if dtype == "float64" and n == 10**6:
        n = 10**5 + 3
    g, tg = generators(SEEDS[n % 3])
    ours = dt.empty(n, dtype=getattr(dt, dtype)).normal_(mean, std, generator=g)
    theirs = torch.empty(n, dtype=getattr(torch, dtype)).normal_(mean, std, generator=tg)
    assert_bits(ours, theirs)
    if dtype == "float32":  # (doctensor's torch.normal has no dtype argument yet)
        assert_bits(dt.normal(mean, std, (n,), generator=g),
                    torch.normal(mean, std, (n,), generator=tg))
    assert_same_state(g, tg)


def test_default_generator():
    dt.manual_seed(7)
    torch.manual_seed(7)
    for n in (5, 16, 21, 10**6 + 5):
        assert_bits(dt.randn(n), torch.randn(n))
    assert raw(dt.get_rng_state()) == raw(torch.get_rng_state())


def test_randn_threads():
    """The windows go to threads by set_num_threads: the values never depend on it."""
    before = dt.get_num_threads()
    try:
        for threads in (1, 2, 3):
            dt.set_num_threads(threads)
            g, tg = generators(11)
            assert_bits(dt.randn(3 * 4096 * 16 + 9, generator=g),
                        torch.randn(3 * 4096 * 16 + 9, generator=tg))
    finally:
        dt.set_num_threads(before)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 15, 16, 17, 1000, 10**6])
def test_rand(n, dtype):
    g, tg = generators(SEEDS[n % 3])
    assert_bits(dt.rand(n, generator=g, dtype=getattr(dt, dtype)),
                torch.rand(n, generator=tg, dtype=getattr(torch, dtype)))
    assert_same_state(g, tg)


@pytest.mark.parametrize("low,high", [(-1.0, 1.0), (0.5, 0.75), (-3.0, 10.0), (0.0, 1.0)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_uniform(dtype, low, high):
    g, tg = generators(5)
    for n in (33, 10**6):
        assert_bits(dt.empty(n, dtype=getattr(dt, dtype)).uniform_(low, high, generator=g),
                    torch.empty(n, dtype=getattr(torch, dtype)).uniform_(low, high,
                                                                         generator=tg))
    assert_same_state(g, tg)


def test_magic_constants_exact():
    """Note [_MAGIC]: each coefficient plus its magic number is exact (else the fused step
    would round twice)."""
    am = avx_mathfun
    pairs = [(am._LOG_P8_MAGIC, am._LOG_MAGIC, am._LOG_P[8])]
    pairs += [(am._POLY_MAGIC[i][r, 0], am._MAGIC_COS_SIN[i][r, 0], am._POLY[i + 1][r, 0])
              for i in range(2) for r in range(2)]
    for combined, magic, coefficient in pairs:
        assert float(combined) - float(magic) == float(coefficient)


@pytest.mark.parametrize("b,c", [(2.0, -1.0), (2.7, 0.3), (1e-3, 0.5), (-0.37, 100.0)])
def test_fma32_without_bracket(b, c):
    """fma32(..., bracket=False), which the random fills use, gives fma32's bits."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal(1 << 16).astype(np.float32)
    for cc in (np.float32(c), (rng.standard_normal(1 << 16) * c).astype(np.float32)):
        want = fma32(a, np.float32(b), cc)
        assert fma32(a, np.float32(b), cc, bracket=False).tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_libm_users(dtype):
    """The element-wise glibc functions (libm_*) also serve exponential_ and the scalar
    sampler of non-contiguous tensors."""
    g, tg = generators(3)
    ours = dt.empty(300, 7, dtype=getattr(dt, dtype))
    theirs = torch.empty(300, 7, dtype=getattr(torch, dtype))
    assert_bits(ours.t().normal_(0.5, 2.0, generator=g), theirs.t().normal_(0.5, 2.0, generator=tg))
    assert_bits(ours.exponential_(1.5, generator=g), theirs.exponential_(1.5, generator=tg))
    assert_same_state(g, tg)


@pytest.mark.parametrize("dtype", DTYPES + ["int64"])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_normal_factory_keywords(dtype, requires_grad):
    """``torch.normal(mean, std, size, dtype=..., device=..., requires_grad=...)``: the same
    bits, flag and error as torch's factory form."""
    results = []
    for lib in (torch, dt):
        lib.manual_seed(7)
        try:
            t = lib.normal(0.5, 2.0, (20,), dtype=getattr(lib, dtype), device="cpu",
                           requires_grad=requires_grad and dtype != "int64")
            results.append((raw(t.detach()), t.dtype.is_floating_point, t.requires_grad))
        except Exception as e:  # noqa: BLE001 - the error is the outcome compared
            results.append((type(e).__name__, str(e)))
    assert results[0] == results[1]
