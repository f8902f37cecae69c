"""torch's CPU random number generator, bit for bit, producing NumPy arrays.

A ``Generator`` is a 32-bit Mersenne Twister (MT19937) plus the one cached normal value of
torch's scalar Box-Muller sampler.  Each distribution method returns a flat array of ``n``
values in memory order and moves the stream on exactly as many words as torch does, so after
``manual_seed(s)`` the tensors built from these arrays equal torch's::

    >>> from doctensor import _dtypes
    >>> Generator().manual_seed(0).uniform(3, _dtypes.float32)  # torch.rand(3)
    array([0.4962566 , 0.7682218 , 0.08847743], dtype=float32)

Every rule here is written down, with the experiments that confirmed it, in
``TORCH_EXACTNESS.md`` Part A; section numbers (A.2 ...) refer to it.
"""

import contextlib
import math
import os

import numpy as np

from doctensor import _dtypes as dt
from doctensor._exact.avx_mathfun import box_muller_f32, libm_cos, libm_log, libm_log1p, libm_sin
from doctensor._exact.fma import fma32, fma64

__all__ = ["Generator", "default_generator", "fork_rng", "get_rng_state", "initial_seed",
           "manual_seed", "seed", "set_rng_state"]

_N = 624  # words in the Mersenne Twister state
_DEFAULT_SEED = 67280421310721
_STATE_BYTES = 5056
_DIGITS = {dt.float16: 11, dt.float32: 24, dt.float64: 53}  # std::numeric_limits<T>::digits
# random_() draws v mod (max + 1): max is the largest value the dtype holds exactly (A.6)
_RANDOM_MAX = {dt.bool_: 1, dt.uint8: 255, dt.int8: 127, dt.int16: 2**15 - 1,
               dt.int32: 2**31 - 1, dt.int64: 2**63 - 1, dt.float16: 2**11,
               dt.float32: 2**24, dt.float64: 2**53}

# Note [get_rng_state layout]
# torch.get_rng_state() is the raw bytes of CPUGeneratorImplState, little-endian.  `left` and
# `next` are the engine's counters: a draw first does `--left`, regenerates the 624 words
# when it reaches 0 (then next = 0, left = 624), and returns word `next++`.  So normally
# left + next == 625, except right after seeding (left = 1, next = 0).  The normal cache is
# stored in normal_y with a flag; normal_x, normal_rho and the float cache are unused on CPU.
_STATE_DTYPE = np.dtype([
    ("seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("state", "<u8", (_N,)), ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"),
    ("normal_is_valid", "<i4"), ("pad", "V4"), ("float_normal", "<f4"),
    ("float_normal_is_valid", "u1"), ("pad2", "V3"),
])
assert _STATE_DTYPE.itemsize == _STATE_BYTES


def _init_genrand(seed32):
    """The 624 state words of MT19937's classic ``init_genrand(seed32)``."""
    mt = [seed32]
    for i in range(1, _N):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(mt, np.uint32)


def _temper(words):
    y = words.astype(np.uint64)
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


class _MT19937:
    """torch's ``at::mt19937``: NumPy's MT19937 makes the words, this class keeps torch's counters.

    NumPy's engine holds the 624 words and a position ``pos`` (the next word to temper; 624
    means "regenerate first"), which is torch's ``next`` with ``left = 625 - next``.  Other
    counters, left + next != 625 (right after seeding, or from ``set_state``), are kept in
    ``_pending``: torch then hands out the words next ... next + left - 2 of the current
    state before it regenerates (Note [get_rng_state layout]).
    """

    def __init__(self):
        self._bits = np.random.MT19937()
        self._uint32 = np.random.Generator(self._bits)  # shares the engine: see words32
        self._pending = None

    def load(self, words, left, next_):
        consistent = left + next_ == _N + 1
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": words, "pos": next_ if consistent else _N}}
        self._pending = None if consistent else (left, next_)

    def dump(self):
        """(words, left, next) as torch stores them."""
        state = self._bits.state["state"]
        if self._pending is not None:
            return state["key"], *self._pending
        return state["key"], _N + 1 - state["pos"], state["pos"]

    def words(self, k):
        """The next ``k`` 32-bit outputs, as a uint64 array."""
        head = np.empty(0, np.uint64)
        if self._pending is not None:
            left, next_ = self._pending
            m = min(k, left - 1)
            head = _temper(self._bits.state["state"]["key"][next_:next_ + m])
            self._pending = (left - m, next_ + m)
            if k == m:
                return head
            self._pending = None
        raw = self._bits.random_raw(k - len(head))
        return np.concatenate([head, raw]) if len(head) else raw

    def words32(self, k):
        """The next ``k`` 32-bit outputs, as a uint32 array (half the memory of ``words``)."""
        if self._pending is not None:
            return self.words(k).astype(np.uint32)
        # Over the full uint32 range NumPy returns each raw word unchanged, one word per value
        return self._uint32.integers(0, 2**32, k, dtype=np.uint32)


class Generator:
    """A CPU random number generator: ``torch.Generator()``.

    Args:
        device: kept as given, as ``device`` (``"cpu"``).

    Example:
        >>> Generator().initial_seed()
        67280421310721
    """

    def __init__(self, device="cpu"):
        self.device = device
        self._engine = _MT19937()
        self._set_seed(_DEFAULT_SEED)

    # -- seeding and state -------------------------------------------------------------------

    def _set_seed(self, seed):
        self._seed = seed
        self._engine.load(_init_genrand(seed & 0xFFFFFFFF), left=1, next_=0)
        self._normal_cache = None  # Note [normal cache]
        self._float_normal_cache = None

    def manual_seed(self, seed):
        """Seed with ``seed`` (an int in [-2**63, 2**64)); negative seeds wrap modulo 2**64.

        Only the low 32 bits seed the Mersenne Twister; ``initial_seed()`` keeps all 64.
        """
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -2**63 <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._set_seed(seed % 2**64)
        return self

    def initial_seed(self):
        """The 64-bit seed last given to ``manual_seed`` or ``seed``."""
        return self._seed

    def seed(self):
        """Reseed from the operating system's entropy and return the new 64-bit seed."""
        new = int.from_bytes(os.urandom(8), "little")
        self._set_seed(new)
        return new

    def get_state(self):
        """The state as torch's 5056 uint8 bytes (Note [get_rng_state layout])."""
        state = np.zeros((), _STATE_DTYPE)
        words, left, next_ = self._engine.dump()
        state["seed"], state["left"], state["seeded"], state["next"] = self._seed, left, 1, next_
        state["state"] = words
        if self._normal_cache is not None:
            state["normal_y"], state["normal_is_valid"] = self._normal_cache, 1
        if self._float_normal_cache is not None:
            state["float_normal"], state["float_normal_is_valid"] = self._float_normal_cache, 1
        return np.frombuffer(state.tobytes(), np.uint8).copy()

    def set_state(self, new_state):
        """Restore a state from ``get_state`` (a uint8 array of 5056 bytes); returns self.

        Like torch, any counters with 0 < left <= 624 and next <= 624 are accepted, except
        that next + left - 1 must not pass 624 (torch would read past its state there).
        """
        new_state = np.asarray(new_state)
        if new_state.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if new_state.size != _STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but "
                               f"found the input RNG state size to be {new_state.size}")
        state = np.frombuffer(np.ascontiguousarray(new_state).tobytes(), _STATE_DTYPE)[0]
        left, next_ = int(state["left"]), int(state["next"])
        if state["seeded"] != 1 or not 0 < left <= _N or next_ > _N or next_ + left - 1 > _N:
            raise RuntimeError("Invalid mt19937 state")
        self._seed = int(state["seed"])
        self._engine.load(state["state"].astype(np.uint32), left, next_)
        self._normal_cache = float(state["normal_y"]) if state["normal_is_valid"] else None
        self._float_normal_cache = (np.float32(state["float_normal"])
                                    if state["float_normal_is_valid"] else None)
        return self

    # -- primitive draws -----------------------------------------------------------------------

    def _random(self, n):
        """``n`` draws of ``random()``: one 32-bit word each (uint64 array)."""
        return self._engine.words(n)

    def _random32(self, n):
        """``n`` draws of ``random()`` as a uint32 array."""
        return self._engine.words32(n)

    def _random64(self, n):
        """``n`` draws of ``random64()``: two words each, the first one the high half."""
        w = self._engine.words(2 * n)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    def _uniform_f32(self, n):
        """A.2: float32 uniforms in [0, 1) from the low 24 bits of one word each."""
        words = self._random32(n)  # a fresh array: masked in place
        x = np.bitwise_and(words, 0xFFFFFF, out=words).astype(np.float32)
        x *= np.float32(2.0**-24)
        return x

    def _uniform_f64(self, n):
        """A.2: float64 uniforms in [0, 1) from the low 53 bits of ``random64()``."""
        return (self._random64(n) & np.uint64(2**53 - 1)).astype(np.float64) * 2.0**-53

    # -- distributions ---------------------------------------------------------------------------

    def uniform(self, n, dtype, low=0.0, high=1.0):
        """``Tensor.uniform_(low, high)``: ``fma(x, high - low, low)``, clamped below ``high``.

        float16 computes in float32 and rounds at the end; a value that rounds to ``high``
        becomes ``low`` (A.2).
        """
        _check_floating("check_uniform_bounds", dtype)
        if dtype is dt.float64:
            lo, hi = np.float64(low), np.float64(high)
            x = self._uniform_f64(n)
        else:
            lo, hi = np.float32(low), np.float32(high)
            x = self._uniform_f32(n)
        if lo == 0 and hi == 1 and x.dtype == dtype.np:
            return x  # rand(): x + 0 is x, and x < 1 needs no clamp
        if hi - lo == 1:  # fma(x, 1, lo) rounds x + lo once: one float add
            v = x + lo
        elif dtype is dt.float64:
            v = fma64(x, hi - lo, lo)
        else:  # fma32's bracket would decide few elements here
            v = fma32(x, hi - lo, lo, bracket=False)
        v = v.astype(dtype.np, copy=False)  # v is fresh: clamped in place
        v[v == hi.astype(dtype.np)] = lo.astype(dtype.np)
        return v

    def normal(self, n, dtype, mean=0.0, std=1.0, contiguous=True):
        """``Tensor.normal_(mean, std)`` on ``n`` elements (A.3-A.4).

        Contiguous tensors of 16 or more elements use torch's blockwise Box-Muller; smaller or
        non-contiguous ones (``contiguous=False``) the scalar sampler with its cache.
        """
        _check_floating("normal_kernel_cpu", dtype)
        if n < 16 or not contiguous:
            return _c_cast(self._normal_scalar(n, mean, std), dtype)
        if dtype is dt.float64:
            return self._normal_blocks(n, mean, std, self._uniform_f64, _box_muller_f64)
        out = self._normal_blocks(n, np.float32(mean), np.float32(std), self._random32,
                                  _box_muller_f32, blockwise=dtype in (dt.float16, dt.bfloat16))
        return out.astype(dtype.np, copy=False)

    # Note [normal blocks]
    # The block path draws uniforms d[0..n-1] (for float32 and float16: the raw words they come
    # from, which box_muller_f32 takes), then turns each 16-element window into 16
    # normals: lanes j = 0..7 pair d[j] (radius) with d[j+8] (angle).  When n is not a multiple
    # of 16, 16 more uniforms are drawn for the last window, which overlaps the final whole
    # block and overwrites it:
    #
    #     n = 20:  d0 .. d15 | d16 .. d19        (float32: 20 + 16 words)
    #              [ block 0 ]
    #                   [ tail window: 16 new uniforms -> out[4:20] ]
    #
    # float16 draws the same, but a whole block at a time, so it draws 16 * ceil(n / 16)
    # uniforms and its tail window uses other words than float32's (A.4.3).
    def _normal_blocks(self, n, mean, std, draw, box_muller, blockwise=False):
        whole = 16 * (n // 16)
        z = box_muller(draw(whole if blockwise else n)[:whole].reshape(-1, 16), mean, std)
        if whole == n:
            return z.reshape(-1)
        tail = box_muller(draw(16).reshape(1, 16), mean, std)
        return np.concatenate([z.reshape(-1)[:n - 16], tail.reshape(-1)])

    # Note [normal cache]
    # torch's scalar Box-Muller (at::normal_distribution<double>) makes two normals from two
    # float64 uniforms u1, u2: r = sqrt(-2 log1p(-u2)), theta = 2 pi u1; it returns r cos(theta)
    # and keeps r sin(theta) in the generator.  The next scalar draw of any dtype takes the
    # kept value first.  manual_seed clears it; get_state saves it (bytes 5024 and 5040).
    def _normal_scalar(self, n, mean, std):
        """A.4.5: ``n`` doubles ``fma(z, std, mean)`` from the cached sampler, in order."""
        cached = [] if self._normal_cache is None or n == 0 else [self._normal_cache]
        if cached:
            self._normal_cache = None
        pairs = -(-(n - len(cached)) // 2)
        u = self._uniform_f64(2 * pairs).reshape(-1, 2)
        r = np.sqrt(-2.0 * libm_log1p(-u[:, 1]))
        theta = 2.0 * np.pi * u[:, 0]
        fresh = np.stack([r * libm_cos(theta), r * libm_sin(theta)], axis=1).reshape(-1)
        z = np.concatenate([cached, fresh])
        if len(z) > n:
            self._normal_cache = float(z[n])
        return fma64(z[:n], np.float64(std), np.float64(mean))

    def randint(self, n, low, high, dtype):
        """``torch.randint(low, high)`` / ``Tensor.random_(low, high)`` (A.5)."""
        low, high = int(low), int(high)
        _check_from_to(low, high, "'from'", "'to'")
        if dtype.is_floating_point:
            low, high = _update_from(low, dtype), _update_to(high, dtype)
            _check_from_to(low, high, "'from' casted to dtype", "'to' casted to dtype")
        span = (high - low) % 2**64
        v = self._random64(n) if span >= 2**28 else self._random(n)
        wrapped = (v % np.uint64(span)) + np.uint64(low % 2**64)
        return _c_cast(wrapped.view(np.int64), dtype)

    def random_(self, n, dtype):
        """``Tensor.random_()``: ``v mod (max + 1)``, max the dtype's largest exact int (A.6)."""
        if dtype in (dt.int64, dt.float64):
            v = self._random64(n)
        else:
            v = self._random(n)
        return (v % np.uint64(_RANDOM_MAX[dtype] + 1)).astype(dtype.np)

    def randperm(self, n, dtype):
        """``torch.randperm(n)``: torch's Fisher-Yates shuffles (A.7)."""
        perm = list(range(n))
        if n < 214748364:
            picks = (self._random(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
            for i, z in enumerate(picks):
                perm[i], perm[i + z] = perm[i + z], perm[i]
        else:
            picks = (self._random64(n) % np.arange(1, n + 1, dtype=np.uint64)).tolist()
            for i, z in enumerate(picks):
                perm[i], perm[z] = perm[z], i
        return np.array(perm, np.int64).astype(dtype.np)

    def bernoulli_scalar(self, n, p, dtype):
        """``Tensor.bernoulli_(p)`` for a Python float ``p``: a float64 uniform ``< p`` (A.8)."""
        return (self._uniform_f64(n) < float(p)).astype(dtype.np)

    def multinomial_with_replacement(self, probs, n):
        """``torch.multinomial(P, n, replacement=True)`` for ``n > 1``, on a (rows, k) array.

        Row by row, torch's kernel checks the probabilities, sums them in order in their own
        precision (float32 for float16), divides the sums by the total and sets the last to
        1; each of the row's ``n`` samples is then the first category whose normalised sum is
        not below a float64 uniform (A.2).  A bad row raises after the rows before it have
        drawn their samples, as in torch.
        """
        sums = np.cumsum(probs.astype(np.float64 if probs.dtype == np.float64 else np.float32),
                         axis=1)
        for row, (p, total) in enumerate(zip(probs, sums[:, -1])):
            message = _bad_distribution(p, total)
            if message is not None:
                self._uniform_f64(row * n)
                raise RuntimeError(f"invalid multinomial distribution ({message})")
        sums /= sums[:, -1:]
        sums[:, -1] = 1
        u = self._uniform_f64(len(probs) * n).reshape(len(probs), n)
        return np.stack([np.searchsorted(c.astype(np.float64), v, side="left")
                         for c, v in zip(sums, u)]).astype(np.int64)

    # Note [scalar samplers]
    # exponential_, geometric_, cauchy_ and log_normal_ run torch's serial CPU kernel: one
    # float64 draw per element, in memory order, transformed in double and cast to the dtype
    # (float16 and bfloat16 through float32).  exponential_, geometric_ and cauchy_ take a
    # float64 uniform u (2 words); log_normal_ a normal from the scalar Box-Muller with its
    # cache (A.4.5).  The multiply-adds torch's compiler fuses (cauchy's median + sigma * tan,
    # the normal's z * std + mean) are fused here too.  torch 2.13 has MKL's exponential
    # sampler switched off (pytorch issue 132395), so exponential_, and multinomial through it,
    # follow the generator's own stream.

    def exponential(self, n, dtype, lambd):
        """``Tensor.exponential_(lambd)``: ``-1 / lambd * log1p(-u)``."""
        return _c_cast((-1.0 / lambd) * libm_log1p(-self._uniform_f64(n)), dtype)

    def geometric(self, n, dtype, p):
        """``Tensor.geometric_(p)``: ``ceil(log(u) / log1p(-p))``, cast as C++ casts a double
        (to an integer dtype: through int64, keeping the low bits)."""
        k = np.ceil(_libm_log(self._uniform_f64(n)) / np.float64(math.log1p(-p)))
        if dtype.is_floating_point:
            return _c_cast(k, dtype)
        return k.astype(np.int64).astype(dtype.np)

    def cauchy(self, n, dtype, median, sigma):
        """``Tensor.cauchy_(median, sigma)``: ``median + sigma * tan(pi * (u - 0.5))``."""
        tan = _libm_tan(math.pi * (self._uniform_f64(n) - 0.5))
        return _c_cast(fma64(tan, np.float64(sigma), np.float64(median)), dtype)

    def log_normal(self, n, dtype, mean, std):
        """``Tensor.log_normal_(mean, std)``: ``exp`` of the scalar sampler's normals."""
        return _c_cast(_libm_exp(self._normal_scalar(n, mean, std)), dtype)

    def poisson(self, rates):
        """``torch.poisson``: one sample per rate (a flat float64 array, in order), by torch's
        ``sample_poisson``: Hoermann's transformed rejection for rates of 10 or more, else
        multiplying float64 uniforms until the product falls to ``exp(-rate)``; each rejection
        or factor draws more.  Plain double arithmetic (that file is built without fusion)."""
        out = np.empty(len(rates), np.float64)
        for i, lam in enumerate(rates.tolist()):
            if not lam >= 0:
                raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
            out[i] = self._poisson_rejection(lam) if lam >= 10 else self._poisson_product(lam)
        return out

    def _poisson_product(self, lam):
        if lam == 0:
            return 0
        limit, prod, k = math.exp(-lam), 1.0, 0
        while True:
            prod *= float(self._uniform_f64(1)[0])
            if prod <= limit:
                return k
            k += 1

    def _poisson_rejection(self, lam):
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u, v = self._uniform_f64(2).tolist()
            u -= 0.5
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (_safe_log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1.0)):
                return k

    # Note [binomial sampler]
    # torch.binomial runs torch's sample_binomial per element (counts and probabilities in
    # row-major order): count * p >= 10 takes the BTRS transformed rejection, else the
    # inversion by geometric gaps; p > 0.5 samples count - Binomial(count, 1 - p).  The code
    # mixes the tensor's type T (float32 for float32 tensors) with double exactly as C++
    # promotes (T * T stays T, T * double is double), and it is built without fused
    # multiply-adds, so each step below rounds where torch's does.

    def binomial(self, counts, probs, dtype):
        """``torch.binomial(count, prob)`` on flat arrays of T (Note [binomial sampler])."""
        t = np.float32 if dtype is dt.float32 else np.float64
        return np.array([self._binomial_one(t(n), t(p), t) for n, p in zip(counts, probs)],
                        dtype.np)

    def _binomial_one(self, count, prob, t):
        if count <= 0.0 or prob <= 0.0:
            return 0
        if prob >= 1.0:
            return count
        if prob <= 0.5:
            return self._binomial_part(count, prob, t)
        if prob > 0.5:
            return t(count - self._binomial_part(count, t(1.0 - float(prob)), t))
        return math.nan

    def _binomial_part(self, count, prob, t):
        if count * prob >= 10.0:
            return self._btrs(count, prob, t)
        logprob = float(t(math.log1p(-float(prob))))  # std::log1p of a T
        geom_sum, k = 0.0, t(0)
        while True:
            geom_sum += math.ceil(_safe_log(float(self._uniform_f64(1)[0])) / logprob)
            if geom_sum > count:
                return k
            k = t(k + 1)

    def _btrs(self, count, prob, t):
        stddev = float(np.sqrt(count * prob * (1 - prob)))
        b = 1.15 + 2.53 * stddev
        a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
        c = float(count * prob) + 0.5
        v_r = 0.92 - 4.2 / b
        r = float(prob / (1 - prob))
        alpha = (2.83 + 5.1 / b) * stddev
        m = float(np.floor((count + 1) * prob))
        n = float(count)
        while True:
            u, v = self._uniform_f64(2).tolist()
            u -= 0.5
            us = 0.5 - abs(u)
            k = t(math.floor((2 * a / us + b) * u + c))
            if k < 0 or k > count:
                continue
            if us >= 0.07 and v <= v_r:
                return k
            v = _safe_log(v * alpha / (a / (us * us) + b))
            rest = float(count - k + 1)  # T arithmetic
            upperbound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                          + float(count + 1) * math.log((n - m + 1) / rest)
                          + (float(k) + 0.5) * math.log(r * rest / float(k + 1))
                          + _stirling_tail(m) + _stirling_tail(n - m)
                          - _stirling_tail(float(k)) - _stirling_tail(float(count - k)))
            if v <= upperbound:
                return k

    # Note [gamma sampler]
    # torch._standard_gamma runs torch's sample_gamma per element (row-major order):
    # Marsaglia and Tsang's rejection method, drawing from the scalar Box-Muller sampler with
    # its cache (A.4.5) and float64 uniforms (A.2); alpha < 1 first draws a uniform for the
    # boost scale * (1 - u) ** (1 / alpha) and samples Gamma(alpha + 1).  The sampler works
    # in double, except that alpha's own steps (1 / alpha, alpha + 1, alpha - 1/3) stay in
    # the tensor's type T, and float literals such as 0.0331f enter as their float32 values.
    # The file is built without fused multiply-adds.  The result is cast to T and raised to
    # T's smallest normal number.  torch._sample_dirichlet samples each element in double
    # (alpha cast to double first) and divides by the row's sum (torch's sum, in double).

    def standard_gamma(self, alphas, dtype):
        """``torch._standard_gamma`` on a flat array of T (Note [gamma sampler])."""
        t = dtype.np.type
        tiny = np.finfo(dtype.np).tiny
        return np.array([max(tiny, t(self._gamma_one(t(a), t))) for a in alphas], dtype.np)

    def dirichlet_gammas(self, alphas):
        """The float64 gamma samples of ``torch._sample_dirichlet`` (Note [gamma sampler])."""
        tiny = np.finfo(np.float64).tiny
        return np.array([max(tiny, self._gamma_one(float(a), np.float64)) for a in alphas],
                        np.float64)

    def _gamma_one(self, alpha, t):
        scale = 1.0
        if alpha < 1.0:
            if alpha == 0:
                return 0.0
            scale *= _c_pow(1 - float(self._uniform_f64(1)[0]), float(t(1.0) / alpha))
            alpha = alpha + t(1.0)
        d = float(alpha - t(_THIRD_F32))
        root = math.sqrt(9.0 * d) if d >= 0 else math.nan  # a bad alpha: nan, as in C
        c = 1.0 / root if root else math.inf
        while True:
            x = self._standard_normal()
            y = 1.0 + c * x
            while y <= 0:
                x = self._standard_normal()
                y = 1.0 + c * x
            v = y * y * y
            u = 1 - float(self._uniform_f64(1)[0])
            xx = x * x
            if u < 1.0 - _F32_0331 * xx * xx:
                return scale * d * v
            if _safe_log(u) < 0.5 * xx + d * (1.0 - v + _safe_log(v)):
                return scale * d * v

    def _standard_normal(self):
        """One draw of the scalar Box-Muller sampler (A.4.5), as a Python float."""
        return float(self._normal_scalar(1, 0.0, 1.0)[0])

    def bernoulli_tensor(self, probs, dtype):
        """``torch.bernoulli(P)``: one uniform per element of ``probs`` (in memory order).

        float64 ``probs`` compare with float64 uniforms, float32 and float16 ones with float32
        uniforms (A.8).
        """
        probs = np.asarray(probs).reshape(-1)
        if probs.dtype == np.float64:
            x = self._uniform_f64(probs.size)
        else:
            x = self._uniform_f32(probs.size)
            probs = probs.astype(np.float32)
        return (x < probs).astype(dtype.np)

    def dropout_mask(self, n, p, dtype):
        """The ``noise`` of ``F.dropout``: ``bernoulli_(1 - p)``, then ``div_(1 - p)`` (A.8).

        The division is torch's tensor-by-scalar one: float32 and float64 divide by
        ``T(1 - p)``; float16 computes ``1.0f / float(1 - p)`` in float32 and rounds once.
        The caller returns ``input * noise``; ``p`` must be in (0, 1).
        """
        compute = np.float32 if dtype is dt.float16 else dtype.np.type
        keep = self.bernoulli_scalar(n, 1.0 - p, dt.float64).astype(compute)
        return (keep / compute(1.0 - p)).astype(dtype.np)


def _bad_distribution(p, total):
    """torch's complaint about one row of multinomial probabilities ``p`` (each element is
    checked in turn: its sign, then that it is finite), or None."""
    bad = ~((p >= 0) & np.isfinite(p))
    if bad.any():
        return ("encountering probability entry < 0" if not p[bad.argmax()] >= 0
                else "encountering probability entry = infinity or NaN")
    return None if total > 0 else "sum of probabilities <= 0"


def _libm(fn, edge):
    """glibc's double ``fn`` on each element (Python's math calls it), ``edge(x)`` where
    Python raises instead of returning inf (log(0), exp overflow)."""
    def safe(x):
        try:
            return fn(x)
        except (ValueError, OverflowError):
            return edge(x)
    ufunc = np.frompyfunc(safe, 1, 1)
    return lambda x: ufunc(np.asarray(x, np.float64)).astype(np.float64)


_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287)


def _stirling_tail(k):
    """log(k!) minus its Stirling approximation (a table up to 9, then the series)."""
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


_THIRD_F32 = float(np.float32(1.0) / np.float32(3.0))  # the literal 1.0f / 3.0f
_F32_0331 = float(np.float32(0.0331))  # the literal 0.0331f


def _c_pow(x, y):
    """C's ``pow`` for a positive ``x``: inf where Python's overflows."""
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf


def _safe_log(x):
    return math.log(x) if x > 0 else -math.inf


_libm_log = _libm(math.log, lambda x: -math.inf)
_libm_exp = _libm(math.exp, lambda x: math.inf)
_libm_tan = _libm(math.tan, lambda x: math.nan)


def _box_muller_f32(words, mean, std):
    """A.4.1 on float32 windows of raw MT words, shape (k, 16), with avx_mathfun's log and
    sincos (Note [fast float32 Box-Muller] in _exact/avx_mathfun.py)."""
    if std == 1:  # fma(x, 1, mean) rounds x + mean once: a float32 add (and -0. + 0. is 0.)
        return box_muller_f32(words, mean)
    return fma32(box_muller_f32(words), std, mean, bracket=False)  # (see uniform)


def _box_muller_f64(d, mean, std):
    """A.4.2 on float64 windows of shape (k, 16), with glibc's log, cos and sin."""
    u1, u2 = 1.0 - d[:, :8], d[:, 8:]
    radius = np.sqrt(-2.0 * libm_log(u1))
    theta = 2.0 * np.pi * u2
    z = np.concatenate([radius * libm_cos(theta), radius * libm_sin(theta)], 1)
    if std == 1:  # fma(x, 1, mean) rounds x + mean once: one add (and -0. + 0. is 0.)
        return np.add(z, mean, out=z)
    return fma64(z, std, mean)


def _check_floating(kernel, dtype):
    """torch's refusal of a non-floating ``dtype`` by its kernel ``kernel``."""
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dtype.scalar_name}\'')


def _check_from_to(low, high, low_name, high_name):
    if low >= high:
        raise RuntimeError(f"random_ expects {low_name} to be less than {high_name}, but got "
                           f"from={low} >= to={high}")


def _c_cast(values, dtype):
    """Cast as C++ does: to float16 and bfloat16 through float32 (c10::Half and c10::BFloat16
    are built from a float)."""
    if dtype is dt.float16 or dtype is dt.bfloat16:
        values = values.astype(np.float32)
    return values.astype(dtype.np)


def _int_through(value, dtype):
    """The int64 ``value`` cast to the float ``dtype`` and truncated back (C++ casts)."""
    return int(_c_cast(np.array(value, np.int64), dtype))


def _update_from(low, dtype):
    """Move ``low`` up onto dtype's float grid when ``low + 1`` rounds below it (A.5)."""
    rounded = _int_through(low + 1, dtype)
    if rounded < low:
        low = rounded + 2 ** (abs(low + 1).bit_length() - 1 - _DIGITS[dtype] + 1)
    return low


def _update_to(high, dtype):
    """Move ``high`` down onto dtype's float grid when ``high - 1`` rounds above it (A.5)."""
    rounded = _int_through(high - 1, dtype)
    if rounded >= high:
        high = rounded - 2 ** (abs(high - 1).bit_length() - 1 - _DIGITS[dtype] + 1)
    return high


# -- the default generator and torch.random's functions ---------------------------------------

default_generator = Generator()
default_generator.seed()  # torch's default generator starts from a non-deterministic seed


def manual_seed(seed):
    """``torch.manual_seed``: seed the default generator with ``int(seed)`` and return it."""
    return default_generator.manual_seed(int(seed))


def initial_seed():
    """``torch.initial_seed``: the default generator's 64-bit seed."""
    return default_generator.initial_seed()


def seed():
    """``torch.seed``: reseed the default generator non-deterministically; return the seed."""
    return default_generator.seed()


def get_rng_state():
    """``torch.get_rng_state``: the default generator's state as 5056 uint8 bytes."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """``torch.set_rng_state``: restore the default generator from ``get_rng_state()`` bytes."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(enabled=True):
    """``torch.random.fork_rng`` for the CPU: the default generator's state is restored on exit."""
    if not enabled:
        yield
        return
    state = default_generator.get_state()
    try:
        yield
    finally:
        default_generator.set_state(state)
