"""Random tensors: the generators of ``random.py`` turned into tensor fills and factories.

Values are drawn as one flat array in *memory order* (as torch fills them) and written into
the tensor's storage; each in-place fill bumps the version once, like any in-place op.
"""

import numpy as np

from .. import random as _random
from .._dtypes import _BY_NP, get_default_dtype, int64
from .._tensor_base import TensorBase
from ._dispatch import apply_
from ._registry import declare
from .creation import check_requires_grad, full, full_like, new_tensor
from .pointwise import zero_gradient

__all__ = ["Generator", "manual_seed", "uniform_", "normal_", "rand", "randn", "randint",
           "randperm", "bernoulli", "multinomial", "dropout_mask"]


class Generator(_random.Generator):
    """``torch.Generator``: its state is a uint8 tensor, as in torch."""

    def get_state(self):
        return new_tensor(super().get_state())

    def set_state(self, new_state):
        state = new_state.numpy() if isinstance(new_state, TensorBase) else new_state
        return super().set_state(state)


# The CPU default generator is random.py's (so doctensor.random's functions act on it).
default_generator = _random.default_generator
_cuda_generators = []


def cuda_generator():
    """The CUDA device's own generator (seeded by ``manual_seed`` too)."""
    if not _cuda_generators:
        g = Generator("cuda")
        g.manual_seed(default_generator.initial_seed())
        _cuda_generators.append(g)
    return _cuda_generators[0]


def manual_seed(seed):
    """Seed the CPU generator (and the CUDA one) with ``int(seed)``; return the CPU one."""
    seed = int(seed)
    default_generator.manual_seed(seed)
    if _cuda_generators:
        _cuda_generators[0].manual_seed(seed)
    return default_generator


def _generator(t, generator):
    if generator is not None:
        return generator
    return default_generator if t._device.type == "cpu" else cuda_generator()


def write_in_memory_order(t, flat):
    """Write ``flat`` (host values) into ``t`` element by element in storage order."""
    data = t._data
    if data.flags.c_contiguous:
        values = flat.reshape(data.shape)
    else:
        offsets = np.zeros(data.shape, dtype=np.int64)
        for d, stride in enumerate(t.stride()):
            shape = [1] * data.ndim
            shape[d] = data.shape[d]
            offsets = offsets + np.arange(data.shape[d]).reshape(shape) * stride
        order = np.argsort(offsets.reshape(-1), kind="stable")
        values = np.empty(data.size, dtype=flat.dtype)
        values[order] = flat
        values = values.reshape(data.shape)
    data[...] = values if t._device.type == "cpu" else t._backend.xp.asarray(values)


def _fill_random(t, op, draw):
    """Fill ``t`` in place with ``draw()`` (host values, drawn after torch's checks)."""
    return apply_(op, t, write=lambda: write_in_memory_order(t, draw()))


# the random fills: each writes its own way (``_fill_random``); the result does not depend
# on the old values, so the gradient is zero
_uniform = declare("uniform_", "UniformBackward0", inplace="uniform_")(None)
_normal = declare("normal_", "NormalBackward0", inplace="normal_")(None)
_random_op = declare("random_", "RandomBackward0", inplace="random_")(None)
_bernoulli = declare("bernoulli_", "BernoulliBackward1", inplace="bernoulli_")(None)
for _op in (_uniform, _normal, _random_op, _bernoulli):
    _op.def_backward(zero_gradient)


def _uniform_draw(t, a, b, generator):
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a} "
                           f"> to={b}")
    g = _generator(t, generator)
    return lambda: g.uniform(t.numel(), t.dtype, a, b)


def _normal_draw(t, mean, std, generator):
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    g = _generator(t, generator)
    contiguous = t.is_contiguous()
    return lambda: g.normal(t.numel(), t.dtype, mean, std, contiguous)


def _random_draw(t, from_, to, generator):
    g = _generator(t, generator)
    if from_ is None and to is None:
        return lambda: g.random_(t.numel(), t.dtype)
    if to is None:
        from_, to = 0, from_
    return lambda: g.randint(t.numel(), from_, to, t.dtype)


def uniform_(t, a=0.0, b=1.0, generator=None):
    return _fill_random(t, _uniform, _uniform_draw(t, a, b, generator))


def normal_(t, mean=0.0, std=1.0, generator=None):
    return _fill_random(t, _normal, _normal_draw(t, mean, std, generator))


def random_(t, from_=None, to=None, generator=None):
    return _fill_random(t, _random_op, _random_draw(t, from_, to, generator))


def bernoulli_(t, p=0.5, generator=None):
    g = _generator(t, generator)
    if isinstance(p, TensorBase):
        probs = np.broadcast_to(p._backend.to_host(p._data), t._data.shape).reshape(-1)
        return _fill_random(t, _bernoulli, lambda: g.bernoulli_tensor(probs, t.dtype))
    return _fill_random(t, _bernoulli, lambda: g.bernoulli_scalar(t.numel(), p, t.dtype))


def bernoulli(probs, generator=None):
    """A 0/1 tensor with ``P(1) = probs`` elementwise (no gradient)."""
    g = _generator(probs, generator)
    out = full(probs.shape, 0, probs.dtype, probs.device)
    host = probs._backend.to_host(probs._data).reshape(-1)
    write_in_memory_order(out, g.bernoulli_tensor(host, probs.dtype))
    return out


def multinomial(probs, num_samples, replacement=False, generator=None):
    """``num_samples`` category indices per row of ``probs`` (1-d or 2-d), drawn with
    ``replacement`` by torch's kernel.  torch draws one sample, or samples without
    replacement, through ``exponential_``, which its CPU build takes from MKL's own stream
    for 16 elements or more: doctensor does not reproduce that path and refuses it."""
    if not 0 < probs.dim() <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not probs.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{probs.dtype.scalar_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = probs.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if categories > 2**24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    if not replacement or num_samples == 1:
        raise NotImplementedError("doctensor: torch.multinomial draws one sample, or samples "
                                  "without replacement, from torch's exponential_ (MKL's "
                                  "stream on the CPU), which doctensor does not reproduce")
    rows = probs._backend.to_host(probs._data).reshape(-1, categories)
    drawn = _generator(probs, generator).multinomial_with_replacement(rows, num_samples)
    out = full(probs.shape[:-1] + (num_samples,), 0, int64, probs.device)
    write_in_memory_order(out, drawn.reshape(-1))
    return out


def _factory(size, dtype, device, requires_grad, draw):
    """A fresh tensor of random values from ``draw(t)``, written before anyone sees it (no
    in-place op, so it starts at version 0); ``size`` may be a tensor to lay the result out
    like (the ``*_like`` factories: Note [preserve_format], values written in memory order)."""
    dtype = dtype or get_default_dtype()
    check_requires_grad(dtype, requires_grad)
    if isinstance(size, TensorBase):
        t = full_like(size, 0, dtype, device)
    else:
        t = full(size, 0, dtype, device)
    write_in_memory_order(t, draw(t)())
    t._requires_grad = requires_grad
    return t


def rand(size, generator=None, dtype=None, device=None, requires_grad=False):
    _floating_only("rand", dtype)
    return _factory(size, dtype, device, requires_grad,
                    lambda t: _uniform_draw(t, 0.0, 1.0, generator))


def randn(size, generator=None, dtype=None, device=None, requires_grad=False):
    _floating_only("randn", dtype)
    return _factory(size, dtype, device, requires_grad,
                    lambda t: _normal_draw(t, 0.0, 1.0, generator))


def _floating_only(name, dtype):
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(f"\"{'check_uniform_bounds' if name == 'rand' else 'normal_kernel_cpu'}"
                           f"\" not implemented for '{dtype.scalar_name}'")


def randint(low, high, size, generator=None, dtype=None, device=None, requires_grad=False):
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    return _factory(size, dtype or int64, device, requires_grad,
                    lambda t: _random_draw(t, low, high, generator))


def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
    dtype = dtype or int64
    t = full((n,), 0, dtype, device)
    g = generator or (default_generator if t._device.type == "cpu" else cuda_generator())
    write_in_memory_order(t, g.randperm(n, dtype))
    t._requires_grad = requires_grad
    return t


def dropout_mask(t, p, generator=None):
    """Dropout's ``keep / (1 - p)`` noise for ``t`` (torch's CPU kernel, A.8)."""
    g = _generator(t, generator)
    noise = full(t.shape, 0, _BY_NP[t._data.dtype], t.device)
    write_in_memory_order(noise, g.dropout_mask(t.numel(), p, t.dtype))
    return noise
