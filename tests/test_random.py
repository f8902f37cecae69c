"""doctensor.random against real torch 2.13: every value and every state byte must be equal.

Comparisons are bitwise (``tobytes``), never approximate.  torch is the oracle, imported at the
top: the module fails, rather than skips, when torch is missing.
"""

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from _oracle import raised, same_outcome

from doctensor import _dtypes as dt
from doctensor import random as dr
from doctensor._exact.avx_mathfun import box_muller_f32, log_f32, sincos_f32
from doctensor._exact.fma import fma32, fma64

# -(2**64 - 5) is not here: torch raises for it (only -2**63 <= seed < 2**64 is accepted).
SEEDS = [0, 1, 42, 123456789, 2**31 - 1, 2**32 + 5, -1, -(2**63) + 5, 5489]
SIZES = [1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 1000, 4096, 4097, 10007]
FLOATS = [dt.float16, dt.float32, dt.float64]
INTS = [dt.uint8, dt.int8, dt.int16, dt.int32, dt.int64]
TORCH = {d: getattr(torch, d.name) for d in dt.ALL}
KAIMING_BOUND_IN3 = math.sqrt(3.0) * (math.sqrt(2 / (1 + math.sqrt(5) ** 2)) / math.sqrt(3))


def pair(seed):
    """A doctensor Generator and a torch Generator, both seeded with ``seed``."""
    return dr.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)


def assert_same(ours, theirs):
    """Equal dtype, shape and bytes (torch tensors are flattened in memory order)."""
    if isinstance(theirs, torch.Tensor):
        theirs = theirs.numpy().reshape(-1)
    assert ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
    assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
    if ours.tobytes() != theirs.tobytes():
        wrong = np.flatnonzero(ours.view(np.uint8).reshape(len(ours), -1)
                               != theirs.view(np.uint8).reshape(len(ours), -1)) // ours.itemsize
        i = int(wrong[0])
        pytest.fail(f"{len(set(wrong.tolist()))} of {len(ours)} differ; first at {i}: "
                    f"{ours[i]!r} != {theirs[i]!r}")


def assert_same_state(g, tg):
    assert_same(g.get_state(), tg.get_state())


def _torch_error(call):
    """The type and message of the exception that ``call()`` raises."""
    with pytest.raises(Exception) as info:
        call()
    return info.type, str(info.value)


# -- uniform ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("n", [0, *SIZES])
@pytest.mark.parametrize("seed", SEEDS)
def test_rand(seed, n, dtype):
    g, tg = pair(seed)
    assert_same(g.uniform(n, dtype), torch.rand(n, dtype=TORCH[dtype], generator=tg))
    assert_same_state(g, tg)


BOUNDS = [(-0.57735, 0.57735), (-KAIMING_BOUND_IN3, KAIMING_BOUND_IN3), (-3.0**-0.5, 3.0**-0.5),
          (2.5, 7.25), (-1e-3, 6e4), (-100.3, -99.7), (1.0, 1.0000001192092896),
          (1.0, 1.0009765625)]


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("n", [1, 3, 17, 1000, 10007])
@pytest.mark.parametrize("bounds", BOUNDS, ids=repr)
@pytest.mark.parametrize("seed", [0, 42, 2**32 + 5])
def test_uniform_bounds(seed, bounds, n, dtype):
    g, tg = pair(seed)
    t = torch.empty(n, dtype=TORCH[dtype]).uniform_(*bounds, generator=tg)
    assert_same(g.uniform(n, dtype, *bounds), t)
    assert_same_state(g, tg)


def test_uniform_clamps_to_low():
    g = dr.Generator().manual_seed(0)
    assert (g.uniform(1000, dt.float32, 1.0, 1.0000001192092896) == 1.0).all()


@pytest.mark.parametrize("dtype", [dt.int64, dt.uint8, dt.bool_], ids=str)
def test_float_distributions_reject_other_dtypes(dtype):
    empty = torch.empty(3, dtype=TORCH[dtype])
    for ours, theirs in [(lambda: dr.Generator().uniform(3, dtype), empty.uniform_),
                         (lambda: dr.Generator().normal(3, dtype), empty.normal_)]:
        assert _torch_error(ours) == _torch_error(theirs)


# -- normal ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("n", [0, *SIZES])
@pytest.mark.parametrize("seed", SEEDS)
def test_randn(seed, n, dtype):
    g, tg = pair(seed)
    assert_same(g.normal(n, dtype), torch.randn(n, dtype=TORCH[dtype], generator=tg))
    assert_same_state(g, tg)


MEAN_STD = [(0.3, 2.7), (-1.25, 0.02), (1e3, 1e-3), (0.1, 0.3), (0.0, 0.4714045207910317)]


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("n", [1, 2, 5, 15, 16, 33, 1000, 4097])
@pytest.mark.parametrize("mean_std", MEAN_STD, ids=repr)
@pytest.mark.parametrize("seed", [0, 123456789])
def test_normal_mean_std(seed, mean_std, n, dtype):
    g, tg = pair(seed)
    t = torch.empty(n, dtype=TORCH[dtype]).normal_(*mean_std, generator=tg)
    assert_same(g.normal(n, dtype, *mean_std), t)
    assert_same_state(g, tg)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("shape", [(4, 5), (17, 3), (8, 8), (2, 1), (33, 2)])
@pytest.mark.parametrize("mean_std", [(0.0, 1.0), (0.3, 2.7)], ids=repr)
@pytest.mark.parametrize("warm_cache", [False, True])
def test_normal_non_contiguous_takes_scalar_path(warm_cache, mean_std, shape, dtype):
    g, tg = pair(7)
    if warm_cache:  # leave a cached value behind, which the transposed fill must use first
        assert_same(g.normal(1, dt.float64), torch.randn(1, dtype=torch.float64, generator=tg))
    base = torch.empty(shape, dtype=TORCH[dtype])
    base.t().normal_(*mean_std, generator=tg)
    n = shape[0] * shape[1]
    assert_same(g.normal(n, dtype, *mean_std, contiguous=False), base)
    assert_same_state(g, tg)


def test_randn_million_float32():
    g, tg = pair(2024)
    assert_same(g.normal(10**6 + 7, dt.float32), torch.randn(10**6 + 7, generator=tg))
    assert_same(g.normal(10**6, dt.float32, -0.5, 0.25),
                torch.empty(10**6).normal_(-0.5, 0.25, generator=tg))


# Sizes around the block path's edges: 16, ragged ends, box_muller_f32's blocks of 4096 windows
# and its split among threads (from 2 blocks), and a million (+ ragged ends).
BIG_SIZES = [16, 17, 4096 * 16 - 1, 4096 * 16, 2 * 4096 * 16 + 5, 10**6, 10**6 + 3, 1_234_567]


@pytest.mark.parametrize("n", BIG_SIZES)
@pytest.mark.parametrize("seed", [0, 7, 2024, 2**32 - 1])
def test_randn_large_float32(seed, n):
    g, tg = pair(seed)
    assert_same(g.normal(n, dt.float32), torch.randn(n, generator=tg))
    assert_same(g.normal(n, dt.float32, 0.3, 2.7), torch.empty(n).normal_(0.3, 2.7, generator=tg))
    assert_same(g.normal(n // 3 + 16, dt.float16),
                torch.randn(n // 3 + 16, dtype=torch.float16, generator=tg))
    assert_same_state(g, tg)


@pytest.mark.parametrize("n", [16, 33, 100_003])
def test_randn_large_float64(n):
    g, tg = pair(99)
    assert_same(g.normal(n, dt.float64), torch.randn(n, dtype=torch.float64, generator=tg))
    assert_same_state(g, tg)


# Note [fast float32 Box-Muller] in _exact/avx_mathfun.py: box_muller_f32 must equal log_f32 and
# sincos_f32 on every possible input.  A radius lane sees one of 2**24 words (low 24 bits), an
# angle lane too, so all of them are tried.  Angle word 0 gives cos = 1, sin = 0, which isolates
# the radius; radius word 6601320 gives radius = 1.0 exactly, which isolates sin and cos.
def test_box_muller_f32_on_every_input():
    one = np.float32(1.0)
    assert sincos_f32(np.zeros(1, np.float32)) == (0, 1)
    assert np.sqrt(np.float32(-2) * log_f32(one - np.float32(6601320 * 2.0**-24))) == 1
    rng = np.random.default_rng(0)
    chunk = 1 << 21
    for start in range(0, 1 << 24, chunk):
        k = np.arange(start, start + chunk, dtype=np.uint32)
        d = k.astype(np.float32) * np.float32(2.0**-24)
        words = (k | rng.integers(0, 256, chunk, dtype=np.uint32) << 24).reshape(-1, 8)
        zeros, ones = np.zeros_like(words), np.full_like(words, 6601320)
        radius = np.sqrt(np.float32(-2) * log_f32(one - d))
        got = box_muller_f32(np.concatenate([words, zeros], 1))
        assert_same(got[:, :8].reshape(-1), radius)
        assert_same(got[:, 8:].reshape(-1), radius * np.float32(0))  # radius(1.0) is -0.
        sin, cos = sincos_f32(np.float32(2 * np.pi) * d)
        got = box_muller_f32(np.concatenate([ones, words], 1))
        assert_same(got[:, :8].reshape(-1), cos)
        assert_same(got[:, 8:].reshape(-1), sin)


# Each op is (name, n, dtype); the doctensor and torch versions run side by side, then the values
# and the state bytes are compared after every step (so the normal cache is checked too).
def _run(op, n, dtype, g, tg):
    td = TORCH[dtype]
    if op == "rand":
        return g.uniform(n, dtype), torch.rand(n, dtype=td, generator=tg)
    if op == "randn":
        return g.normal(n, dtype), torch.randn(n, dtype=td, generator=tg)
    if op == "randint":
        return g.randint(n, -7, 1000, dtype), torch.randint(-7, 1000, (n,), dtype=td, generator=tg)
    if op == "randperm":
        return g.randperm(n, dtype), torch.randperm(n, dtype=td, generator=tg)
    if op == "bernoulli":
        return (g.bernoulli_scalar(n, 0.3, dtype),
                torch.empty(n, dtype=td).bernoulli_(0.3, generator=tg))
    raise ValueError(op)


SEQUENCES = {
    "cache across calls": [("rand", 3, dt.float32), ("randn", 3, dt.float32),
                           ("randint", 4, dt.int64), ("randn", 1, dt.float32),
                           ("randn", 1, dt.float32), ("randn", 1, dt.float32)],
    "cache across dtypes": [("randn", 1, dt.float32), ("randn", 1, dt.float64),
                            ("randn", 1, dt.float16), ("randn", 2, dt.float64),
                            ("randn", 1, dt.float32)],
    "blocks leave the cache": [("randn", 5, dt.float64), ("randn", 17, dt.float32),
                               ("randn", 16, dt.float64), ("randn", 33, dt.float16),
                               ("randn", 1, dt.float32), ("randn", 1, dt.float32)],
    "other draws leave the cache": [("randn", 1, dt.float32), ("rand", 100, dt.float64),
                                    ("randperm", 10, dt.int64), ("bernoulli", 9, dt.float32),
                                    ("randn", 3, dt.float64)],
    "across regeneration": [("rand", 620, dt.float32), ("randn", 7, dt.float32),
                            ("rand", 3, dt.float64), ("randn", 1000, dt.float32),
                            ("randint", 700, dt.int32), ("randn", 15, dt.float16)],
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", SEQUENCES)
def test_interleaved_calls(name, seed):
    g, tg = pair(seed)
    for op, n, dtype in SEQUENCES[name]:
        assert_same(*_run(op, n, dtype, g, tg))
        assert_same_state(g, tg)


# -- integers -------------------------------------------------------------------------------------

RANGES = [(0, 10), (-7, 3), (0, 2**8), (-100, 100), (0, 2**15), (-2**15, 2**15 - 1),
          (0, 2**28 - 1), (0, 2**28), (-2**27, 2**27 + 1), (5, 2**31 - 1), (-2**31, 2**31 - 1),
          (0, 2**32), (-2**40, 3), (-2**62, 2**62), (-2**63, 2**63 - 1)]


def _fits(dtype, low, high):
    if dtype.is_floating_point:
        return max(abs(low), abs(high)) <= 2 ** {"float16": 11}.get(dtype.name, 62)
    info = np.iinfo(dtype.np)
    return info.min <= low and high - 1 <= info.max


RANDINT_CASES = [(r, d) for r, d in itertools.product(RANGES, [*INTS, *FLOATS]) if _fits(d, *r)]


@pytest.mark.parametrize("n", [1, 17, 1000])
@pytest.mark.parametrize("bounds,dtype", RANDINT_CASES,
                         ids=[f"{r}-{d.name}" for r, d in RANDINT_CASES])
@pytest.mark.parametrize("seed", [0, 5489])
def test_randint(seed, bounds, dtype, n):
    g, tg = pair(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about float bounds beyond 2**digits
        t = torch.randint(*bounds, (n,), dtype=TORCH[dtype], generator=tg)
    assert_same(g.randint(n, *bounds, dtype), t)
    assert_same_state(g, tg)


# Bounds that are not on the float grid move inward (A.5).
OFF_GRID = [(dt.float32, 2**25 + 1, 2**25 + 10), (dt.float32, -(2**25) - 9, -(2**25) + 3),
            (dt.float32, 2**24 - 2, 2**24 + 7), (dt.float64, 2**54 + 1, 2**54 + 40),
            (dt.float64, -(2**60) - 1000, -(2**60) + 999), (dt.float16, 2**12 + 1, 2**12 + 30),
            (dt.float16, -(2**12) - 30, -(2**12) + 3)]


@pytest.mark.parametrize("dtype,low,high", OFF_GRID, ids=repr)
@pytest.mark.parametrize("n", [5, 1000])
def test_randint_float_bounds_off_grid(dtype, low, high, n):
    g, tg = pair(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = torch.randint(low, high, (n,), dtype=TORCH[dtype], generator=tg)
    assert_same(g.randint(n, low, high, dtype), t)
    assert_same_state(g, tg)


def test_randint_rejects_empty_range():
    with pytest.raises(RuntimeError) as ours:
        dr.Generator().randint(3, 5, 5, dt.int64)
    with pytest.raises(RuntimeError) as theirs:
        torch.randint(5, 5, (3,))
    assert str(ours.value) == str(theirs.value).splitlines()[0]


@pytest.mark.parametrize("dtype", [*INTS, *FLOATS, dt.bool_], ids=str)
@pytest.mark.parametrize("n", [1, 2, 17, 1000, 4097])
@pytest.mark.parametrize("seed", [0, 42, 2**31 - 1])
def test_random_(seed, n, dtype):
    g, tg = pair(seed)
    assert_same(g.random_(n, dtype), torch.empty(n, dtype=TORCH[dtype]).random_(generator=tg))
    assert_same_state(g, tg)


PERM_CASES = [(n, d) for n, d in itertools.product(
    [0, 1, 2, 3, 10, 100, 128, 1000, 2048, 30000, 100003],
    [dt.int64, dt.int32, dt.int16, dt.uint8, dt.float16, dt.float32, dt.float64])
    if n <= {"uint8": 256, "int16": 2**15, "float16": 2049}.get(d.name, n)]


@pytest.mark.parametrize("n,dtype", PERM_CASES, ids=[f"{n}-{d.name}" for n, d in PERM_CASES])
@pytest.mark.parametrize("seed", [0, 123456789])
def test_randperm(seed, n, dtype):
    g, tg = pair(seed)
    assert_same(g.randperm(n, dtype), torch.randperm(n, dtype=TORCH[dtype], generator=tg))
    assert_same_state(g, tg)


# -- bernoulli and dropout ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [dt.bool_, dt.uint8, dt.int64, *FLOATS], ids=str)
@pytest.mark.parametrize("p", [0.0, 0.3, 0.5, 0.9999, 1.0])
@pytest.mark.parametrize("n", [1, 17, 1000])
@pytest.mark.parametrize("seed", [0, 42])
def test_bernoulli_scalar(seed, n, p, dtype):
    g, tg = pair(seed)
    t = torch.empty(n, dtype=TORCH[dtype]).bernoulli_(p, generator=tg)
    assert_same(g.bernoulli_scalar(n, p, dtype), t)
    assert_same_state(g, tg)


@pytest.mark.parametrize("out_dtype", [None, dt.bool_, dt.int64, dt.float64], ids=str)
@pytest.mark.parametrize("p_dtype", FLOATS, ids=str)
@pytest.mark.parametrize("n", [1, 17, 1000])
@pytest.mark.parametrize("seed", [0, 42])
def test_bernoulli_tensor(seed, n, p_dtype, out_dtype):
    g, tg = pair(seed)
    probs = np.random.default_rng(n).random(n).astype(p_dtype.np)
    probs[::7] = np.array([0.0, 1.0, 0.5])[np.arange(len(probs[::7])) % 3]
    p_t = torch.from_numpy(probs)
    if out_dtype is None:
        out_dtype, t = p_dtype, torch.bernoulli(p_t, generator=tg)
    else:
        t = torch.empty(n, dtype=TORCH[out_dtype]).bernoulli_(p_t, generator=tg)
    assert_same(g.bernoulli_tensor(probs, out_dtype), t)
    assert_same_state(g, tg)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("p", [0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1 / 3, 0.123456789, 0.999, 1e-4])
@pytest.mark.parametrize("n", [1, 16, 1000])
@pytest.mark.parametrize("seed", [0, 5489])
def test_dropout_mask(seed, n, p, dtype):
    torch.manual_seed(seed)
    t = F.dropout(torch.ones(n, dtype=TORCH[dtype]), p, training=True)
    g = dr.Generator().manual_seed(seed)
    assert_same(g.dropout_mask(n, p, dtype), t)
    assert_same(g.get_state(), torch.get_rng_state())


def test_dropout_float16_divides_in_float32():
    """float16 noise is half(1.0f / float(1 - p)); 1 / half(1 - p) is off for 1 p in 4."""
    for p in np.random.default_rng(0).random(300).tolist():
        torch.manual_seed(1)
        t = F.dropout(torch.ones(64, dtype=torch.float16), p, training=True)
        assert_same(dr.Generator().manual_seed(1).dropout_mask(64, p, dt.float16), t)


# -- seeding and state ----------------------------------------------------------------------------

def test_fresh_generator():
    g, tg = dr.Generator(), torch.Generator()
    assert g.initial_seed() == tg.initial_seed() == 67280421310721
    assert g.device == "cpu"
    assert_same_state(g, tg)
    assert_same(g.normal(5, dt.float32), torch.randn(5, generator=tg))


@pytest.mark.parametrize("seed", SEEDS + [2**64 - 1, -(2**63), 2**63])
def test_manual_seed_initial_seed(seed):
    g, tg = pair(seed)
    assert g.initial_seed() == tg.initial_seed() == seed % 2**64
    assert_same_state(g, tg)


def test_same_low_32_bits_same_stream():
    a, b, c = (dr.Generator().manual_seed(s) for s in (5, 2**32 + 5, -(2**63) + 5))
    assert a.uniform(10, dt.float64).tobytes() == b.uniform(10, dt.float64).tobytes()
    assert a.uniform(10, dt.float64).tobytes() == c.uniform(20, dt.float64)[10:].tobytes()


@pytest.mark.parametrize("seed", [2**64, -(2**63) - 1, -(2**64 - 5)])
def test_manual_seed_overflow(seed):
    with pytest.raises(ValueError) as theirs:
        torch.manual_seed(seed)
    with pytest.raises(ValueError) as ours:
        dr.Generator().manual_seed(seed)
    assert str(ours.value) == str(theirs.value) == "Overflow when unpacking long long"


@pytest.mark.parametrize("seed", [1.5, "3", True])
def test_generator_manual_seed_wants_an_int(seed):
    with pytest.raises(RuntimeError) as theirs:
        torch.Generator().manual_seed(seed)
    with pytest.raises(RuntimeError) as ours:
        dr.Generator().manual_seed(seed)
    assert str(ours.value) == str(theirs.value)


def test_module_functions_follow_torch():
    with dr.fork_rng():
        assert dr.manual_seed(1.5) is dr.default_generator
        torch.manual_seed(1.5)
        assert dr.initial_seed() == torch.initial_seed() == 1
        assert_same(dr.get_rng_state(), torch.get_rng_state())
        assert_same(dr.default_generator.normal(3, dt.float32), torch.randn(3))
        dr.set_rng_state(torch.get_rng_state().numpy())
        assert_same(dr.default_generator.uniform(5, dt.float32), torch.rand(5))


def test_seed_is_random_and_reported():
    with dr.fork_rng():
        seeds = {dr.seed() for _ in range(4)}
        assert len(seeds) == 4 and dr.initial_seed() in seeds
        s = dr.default_generator.seed()
        assert 0 <= s < 2**64 and dr.initial_seed() == s


def test_fork_rng_restores_state():
    before = dr.get_rng_state()
    with dr.fork_rng():
        dr.manual_seed(3)
        dr.default_generator.normal(1, dt.float32)
    assert_same(dr.get_rng_state(), before)


# Word counts around the 624-word regeneration; `cache` leaves a cached normal behind.
@pytest.mark.parametrize("words", [0, 1, 2, 623, 624, 625, 1247, 1248, 1249, 5000])
@pytest.mark.parametrize("cache", [False, True])
@pytest.mark.parametrize("seed", [0, 2**32 + 5, -1])
def test_get_state_bytes(seed, words, cache):
    g, tg = pair(seed)
    assert_same(g.uniform(words, dt.float32), torch.rand(words, generator=tg))
    if cache:
        assert_same(g.normal(1, dt.float64), torch.randn(1, dtype=torch.float64, generator=tg))
    assert_same_state(g, tg)
    state = tg.get_state().numpy()
    h = dr.Generator()
    h.set_state(state)
    assert_same(h.get_state(), state)
    assert_same(h.normal(3, dt.float32), torch.randn(3, generator=tg))
    assert_same(h.uniform(700, dt.float32), torch.rand(700, generator=tg))
    assert_same_state(h, tg)


def test_manual_seed_clears_cache():
    g, tg = pair(0)
    g.normal(1, dt.float32), torch.randn(1, generator=tg)
    g.manual_seed(0), tg.manual_seed(0)
    assert_same_state(g, tg)
    assert_same(g.normal(1, dt.float32), torch.randn(1, generator=tg))


@pytest.mark.parametrize("left,next_", [(10, 5), (1, 37), (300, 0), (624, 1), (2, 623),
                                        (625 - 400, 400)])
def test_set_state_with_any_valid_counters(left, next_):
    """torch accepts (left, next) pairs that never occur in its own states; so do we."""
    tg = torch.Generator().manual_seed(11)
    torch.rand(1000, generator=tg)
    state = tg.get_state().numpy().copy()
    state[8:12] = np.frombuffer(np.int32(left).tobytes(), np.uint8)
    state[16:24] = np.frombuffer(np.uint64(next_).tobytes(), np.uint8)
    tg.set_state(torch.from_numpy(state))
    g = dr.Generator()
    g.set_state(state)
    assert_same_state(g, tg)
    for n in (1, left - 2, 3, 700):
        assert_same(g.uniform(max(n, 0), dt.float32), torch.rand(max(n, 0), generator=tg))
        assert_same_state(g, tg)


@pytest.mark.parametrize("make", [
    lambda s: s[:10], lambda s: np.concatenate([s, s[:1]]), lambda s: s.astype(np.float32),
    lambda s: np.where(np.arange(s.size) == 12, 0, s).astype(np.uint8),  # seeded = 0
    lambda s: np.where(np.arange(s.size) == 8, 0, s).astype(np.uint8),  # left = 0
], ids=["short", "long", "float", "unseeded", "left0"])
def test_set_state_errors(make):
    bad = make(torch.Generator().get_state().numpy())
    expected = _torch_error(lambda: torch.Generator().set_state(torch.from_numpy(bad)))
    assert _torch_error(lambda: dr.Generator().set_state(bad)) == expected


# -- exact fused multiply-add ---------------------------------------------------------------------

def _exact(a, b, c):
    """a*b + c as a Fraction, or as a float when it is an exact zero (to keep IEEE's sign)."""
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    return float(a) * float(b) + float(c) if exact == 0 else exact


def _round_f32(q):
    """The float32 nearest to the Fraction ``q`` (ties to even)."""
    f = np.float32(q)
    if f == 0:
        return f
    down, up = np.nextafter(f, np.float32(-np.inf)), np.nextafter(f, np.float32(np.inf))
    return min((down, f, up), key=lambda v: (abs(Fraction(float(v)) - q),
                                             int(np.array(v).view(np.uint32)) & 1))


def _fma_inputs(kind, rng, bits, n=3000):
    if kind == "random":
        return rng.standard_normal((3, n))
    if kind == "ties":  # a*b is halfway between two floats of `bits` bits; c nudges it a hair
        a = rng.integers(2 ** (bits - 2), 2 ** (bits - 1), n) * 2.0 + 1
        return np.stack([a, np.full(n, 3.0), rng.choice([-(2.0**-40), 2.0**-40, 0.0], n)])
    if kind == "zeros":
        return rng.choice([0.0, -0.0, 1.0, -1.0, 2.0], (3, n))
    return np.stack([rng.standard_normal(n) * 2.0**-80, rng.standard_normal(n) * 2.0**-80,
                     rng.standard_normal(n) * 2.0**-161])  # deep underflow of a*b


@pytest.mark.parametrize("kind", ["random", "ties", "zeros", "tiny"])
def test_fma32_is_correctly_rounded(kind):
    a, b, c = _fma_inputs(kind, np.random.default_rng(0), 24).astype(np.float32)
    got = fma32(a, b, c)
    want = np.array([_round_f32(_exact(*abc)) for abc in zip(a, b, c, strict=True)], np.float32)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("kind", ["random", "ties", "zeros", "tiny"])
def test_fma64_is_correctly_rounded(kind):
    a, b, c = _fma_inputs(kind, np.random.default_rng(1), 53)
    got = fma64(a, b, c)
    want = np.array([float(_exact(*abc)) for abc in zip(a, b, c, strict=True)])
    assert got.tobytes() == want.tobytes()


# -- multinomial with replacement -----------------------------------------------------------------

def _weights(rows, k, dtype, seed):
    w = np.random.default_rng(seed).random((rows, k)) ** 4  # skewed, with small entries
    w[:, ::5] = 0.0  # categories that can never come up
    return w.astype(dtype.np)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("rows, k, n", [(1, 2, 2), (1, 7, 50), (3, 10, 33), (2, 1000, 17),
                                        (1, 3, 1000)])
@pytest.mark.parametrize("seed", [0, 42, 2**32 + 5])
def test_multinomial_with_replacement(seed, rows, k, n, dtype):
    g, tg = pair(seed)
    w = _weights(rows, k, dtype, seed % 1000)
    t = torch.multinomial(torch.from_numpy(w), n, replacement=True, generator=tg)
    assert_same(g.multinomial_with_replacement(w, n).reshape(-1), t)
    assert_same_state(g, tg)


MULTINOMIAL_CASES = {
    "1-d": lambda T: [T.multinomial(T.tensor([0.1, 0.0, 0.6, 0.3]), 9, True), T.rand(1)],
    "method, 2-d": lambda T: [T.tensor([[1.0, 2.0], [3.0, 0.0]]).multinomial(4, True),
                              T.rand(1)],
    "unnormalised float64": lambda T: [
        T.multinomial(T.tensor([5.0, 1e-300, 2.0], dtype=T.float64), 20, True), T.rand(1)],
    "negative": lambda T: T.multinomial(T.tensor([0.5, -0.1]), 3, True),
    "inf before negative": lambda T: T.multinomial(T.tensor([float("inf"), -1.0]), 3, True),
    "nan": lambda T: T.multinomial(T.tensor([0.5, float("nan")]), 3, True),
    "all zero": lambda T: T.multinomial(T.zeros(3), 2, True),
    "second row bad, first row drew": lambda T: [
        raised(lambda: T.multinomial(T.tensor([[1.0, 1.0], [0.0, 0.0]]), 6, True)),
        T.rand(1)],
    "zero samples": lambda T: T.multinomial(T.ones(3), 0, True),
    "too many without replacement": lambda T: T.multinomial(T.ones(3), 4),
    "integer input": lambda T: T.multinomial(T.ones(3, dtype=T.int64), 2, True),
    "3-d": lambda T: T.multinomial(T.ones(1, 1, 3), 2, True),
}


@pytest.mark.parametrize("name", sorted(MULTINOMIAL_CASES))
def test_multinomial_like_torch(name):
    def run(T):
        T.manual_seed(3)
        return MULTINOMIAL_CASES[name](T)
    same_outcome(run)
