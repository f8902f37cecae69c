"""Random tensors: the generators of ``random.py`` turned into tensor fills and factories.

Values are drawn as one flat array in *memory order* (as torch fills them) and written into
the tensor's storage; each in-place fill bumps the version once, like any in-place op.
"""

import math

import numpy as np

from .. import random as _random
from .._dtypes import get_default_dtype, int64
from .._exact import gamma_grad
from .._strides import as_int
from .._tensor_base import TensorBase
from ..device import CPU
from ._dispatch import apply, apply_, autograd_check_
from ._registry import declare
from .creation import check_requires_grad, full, full_like, new_tensor
from .pointwise import div, zero_gradient
from .reduction import argmax_min, cpu_sum

__all__ = ["Generator", "manual_seed", "uniform_", "normal_", "rand", "randn", "randint",
           "randperm", "bernoulli", "multinomial", "dropout_mask", "exponential_", "geometric_",
           "cauchy_", "log_normal_", "poisson", "binomial", "standard_gamma", "standard_gamma_grad",
           "sample_dirichlet", "dirichlet_grad"]


class Generator(_random.Generator):
    """``torch.Generator``: its state is a uint8 tensor, as in torch."""

    def get_state(self):
        return new_tensor(super().get_state(), CPU)

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
_exponential = declare("exponential_", "ExponentialBackward0", inplace="exponential_")(None)
_geometric = declare("geometric_", "GeometricBackward0", inplace="geometric_")(None)
_cauchy = declare("cauchy_", "CauchyBackward0", inplace="cauchy_")(None)
_log_normal = declare("log_normal_", "LogNormalBackward0", inplace="log_normal_")(None)
for _op in (_uniform, _normal, _random_op, _bernoulli, _exponential, _geometric, _cauchy,
            _log_normal):
    _op.def_backward(zero_gradient)


def _uniform_draw(t, a, b, generator):
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a} "
                           f"> to={b}")
    g = _generator(t, generator)
    if t.dtype.is_complex:  # torch fills view_as_real(t): the parts interleaved
        return lambda: g.uniform(2 * t.numel(), t.dtype.to_real(), a, b).view(t.dtype.np)
    return lambda: g.uniform(t.numel(), t.dtype, a, b)


def _normal_draw(t, mean, std, generator):
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    g = _generator(t, generator)
    contiguous = t.is_contiguous()
    if t.dtype.is_complex:  # torch fills view_as_real(t): parts interleaved, std / sqrt(2)
        real = t.dtype.to_real()
        return lambda: g.normal(2 * t.numel(), real, mean, std / math.sqrt(2),
                                contiguous).view(t.dtype.np)
    return lambda: g.normal(t.numel(), t.dtype, mean, std, contiguous)


def _random_draw(t, from_, to, generator):
    g = _generator(t, generator)
    if from_ is None and to is None:
        return lambda: g.random_(t.numel(), t.dtype)
    if to is None:
        from_, to = 0, from_
    return lambda: g.randint(t.numel(), from_, to, t.dtype)


def uniform_(t, a=0.0, b=1.0, generator=None):
    autograd_check_(t)
    return _fill_random(t, _uniform, _uniform_draw(t, a, b, generator))


def normal_(t, mean=0.0, std=1.0, generator=None):
    autograd_check_(t)
    return _fill_random(t, _normal, _normal_draw(t, mean, std, generator))


def random_(t, from_=None, to=None, generator=None):
    autograd_check_(t)
    return _fill_random(t, _random_op, _random_draw(t, from_, to, generator))


def _g(x):
    """A double as torch's messages print it (C++ ``<<``: six significant digits)."""
    return format(x, "g")


def _continuous_only(t, distribution):
    """torch's refusal of an integer tensor by the exponential and Cauchy kernels."""
    if not t.dtype.is_floating_point:
        name = t.dtype.scalar_name if distribution == "Exponential" else t.dtype.c_name
        raise RuntimeError(f"{distribution} distribution is a continuous probability "
                           f"distribution. dtype must be a floating point but you specified "
                           f"{name}")


def exponential_(t, lambd=1.0, generator=None):
    """Fill ``t`` with Exp(``lambd``) samples, torch's bits (Note [scalar samplers])."""
    autograd_check_(t)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_g(lambd)}")
    if t.numel():
        _continuous_only(t, "Exponential")
    g = _generator(t, generator)
    return _fill_random(t, _exponential, lambda: g.exponential(t.numel(), t.dtype, lambd))


def geometric_(t, p, generator=None):
    """Fill ``t`` with the trial of the first success (``P(success) = p``), torch's bits."""
    autograd_check_(t)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_g(p)}")
    if t.dtype.category == 0 and t.numel():
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    g = _generator(t, generator)
    return _fill_random(t, _geometric, lambda: g.geometric(t.numel(), t.dtype, p))


def cauchy_(t, median=0.0, sigma=1.0, generator=None):
    """Fill ``t`` with Cauchy(``median``, ``sigma``) samples, torch's bits."""
    autograd_check_(t)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_g(sigma)}")
    _continuous_only(t, "Cauchy")
    g = _generator(t, generator)
    return _fill_random(t, _cauchy, lambda: g.cauchy(t.numel(), t.dtype, median, sigma))


def log_normal_(t, mean=1.0, std=2.0, generator=None):
    """Fill ``t`` with ``exp`` of N(``mean``, ``std``) samples, torch's bits."""
    autograd_check_(t)
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_g(std)}")
    if t.numel() and not t.dtype.is_floating_point:
        raise NotImplementedError(f"\"log_normal_cpu\" not implemented for "
                                  f"'{t.dtype.scalar_name}'")
    g = _generator(t, generator)
    return _fill_random(t, _log_normal, lambda: g.log_normal(t.numel(), t.dtype, mean, std))


def bernoulli_(t, p=0.5, generator=None):
    autograd_check_(t, p)
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
    """``num_samples`` category indices per row of ``probs`` (1-d or 2-d), drawn as torch
    draws them: with ``replacement`` (and more than one sample) by torch's cumulative-sum
    kernel, otherwise by its exponential trick (``_multinomial_by_exponential``)."""
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError(f"multinomial(): argument 'num_samples' (position 2) must be int, not "
                        f"{type(num_samples).__name__}")
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
        return _multinomial_by_exponential(probs, num_samples, generator)
    rows = probs._backend.to_host(probs._data).reshape(-1, categories)
    drawn = _generator(probs, generator).multinomial_with_replacement(rows, num_samples)
    out = full(probs.shape[:-1] + (num_samples,), 0, int64, probs.device)
    write_in_memory_order(out, drawn.reshape(-1))
    return out


def _multinomial_by_exponential(probs, num_samples, generator):
    """torch's path for one sample or no replacement (the Gumbel-max trick): ``q = probs /
    Exp(1)`` with the noise drawn by ``exponential_`` (so the bits are torch's), then the
    argmax of each row, or its ``topk`` indices.  Categories of probability 0 tie at q = 0:
    torch's partial sort orders such ties its own way, doctensor's ``topk`` by index."""
    host = probs._backend.to_host(probs._data)
    if not host.size:
        if not host.shape[-1]:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                               "operation has no identity.")
        return full(probs.shape[:-1] + (num_samples,), 0, int64, probs.device)
    if not (host.max() < np.inf and host.min() >= 0):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (host.reshape(-1, host.shape[-1]).sum(1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    noise = exponential_(full_like(probs, 0, probs.dtype, probs.device), 1.0, generator)
    q = apply(div, probs.detach(), noise)
    if num_samples == 1:
        return argmax_min("argmax", q, -1, keepdim=True)
    return q.topk(num_samples)[1]  # a Tensor method: ops/sorting.py is not below this module


@declare("poisson", "PoissonBackward0", function="poisson")
def _poisson(xp, rates, samples):
    return xp.asarray(samples.reshape(rates.shape).astype(rates.dtype))


_poisson.def_backward(zero_gradient)


def poisson(rates, generator=None):
    """One Poisson sample per element of ``rates``, torch's bits (``Generator.poisson``),
    drawn element by element in row-major order; gradient zero, as torch's."""
    if not rates.dtype.is_floating_point:
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for "
                                  f"'{rates.dtype.scalar_name}'")
    host = np.ascontiguousarray(rates._backend.to_host(rates._data), np.float64).reshape(-1)
    samples = _generator(rates, generator).poisson(host)
    return apply(_poisson, rates, samples=_random._c_cast(samples, rates.dtype))


@declare("binomial", "NotImplemented", ("count", "prob"), function="binomial")
def _binomial(xp, count, prob, samples):
    return xp.asarray(samples.reshape(count.shape))


@_binomial.def_backward
def binomial_backward(ctx, grad):
    raise RuntimeError("derivative for aten::binomial is not implemented")



def binomial(count, prob, generator=None):
    """A Binomial(``count``, ``prob``) sample per element, torch's bits
    (Note [binomial sampler]); ``prob`` broadcasts to ``count``'s shape."""
    if not count.dtype.is_floating_point:
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{count.dtype.scalar_name}")
    if prob.dtype is not count.dtype:
        raise RuntimeError(f"Found dtype {prob.dtype.scalar_name} but expected "
                           f"{count.dtype.scalar_name}")
    if count.dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f"\"binomial_cpu\" not implemented for "
                                  f"'{count.dtype.scalar_name}'")
    counts = np.ascontiguousarray(count._backend.to_host(count._data)).reshape(-1)
    probs = np.broadcast_to(prob._backend.to_host(prob._data), count._data.shape).reshape(-1)
    samples = _generator(count, generator).binomial(counts, probs, count.dtype)
    return apply(_binomial, count, prob, samples=samples)


# -- the gamma family (Note [gamma sampler], Note [gamma gradients]) --------------------------

def _host_flat(t):
    """``t``'s values as a flat host array in row-major order (torch's serial kernels)."""
    return np.ascontiguousarray(t._backend.to_host(t._data)).reshape(-1)


def _float_kernel(kernel, t):
    """torch's refusal of a dtype other than float32/float64 by its kernel ``kernel``."""
    if t.dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{t.dtype.scalar_name}'")


def _same_dtype(t, *others):
    for other in others:
        if other.dtype is not t.dtype:
            raise RuntimeError(f"Found dtype {other.dtype.scalar_name} but expected "
                               f"{t.dtype.scalar_name}")


def _sampled(xp, t, *others, samples):
    """The values computed on the host before the dispatch, shaped like the first input."""
    return xp.asarray(samples.reshape(t.shape))


_standard_gamma = declare("_standard_gamma", "StandardGammaBackward0",
                          saves={"self": "self", "result": "self"},
                          function="_standard_gamma")(_sampled)
_gamma_grad = declare("_standard_gamma_grad", "StandardGammaGradBackward0", ("self", "output"),
                      function="_standard_gamma_grad")(_sampled)
_dirichlet = declare("_sample_dirichlet", "NotImplemented",
                     function="_sample_dirichlet")(_sampled)
_dirichlet_grad = declare("_dirichlet_grad", "NotImplemented", ("x", "alpha", "total"),
                          function="_dirichlet_grad")(_sampled)


@_standard_gamma.def_backward
def standard_gamma_backward(ctx, grad):
    return (grad * standard_gamma_grad(ctx.self, ctx.result),)


@_gamma_grad.def_backward
def standard_gamma_grad_backward(ctx, grad):
    raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")


@_dirichlet.def_backward
def sample_dirichlet_backward(ctx, grad):
    raise RuntimeError("derivative for aten::_sample_dirichlet is not implemented")


@_dirichlet_grad.def_backward
def dirichlet_grad_backward(ctx, grad):
    raise RuntimeError("derivative for aten::_dirichlet_grad is not implemented")


def standard_gamma(alpha, generator=None):
    """``torch._standard_gamma``: a Gamma(alpha, 1) sample per element, torch's bits."""
    _float_kernel("gamma_cpu", alpha)
    samples = _generator(alpha, generator).standard_gamma(_host_flat(alpha), alpha.dtype)
    return apply(_standard_gamma, alpha, samples=samples)


def standard_gamma_grad(alpha, output):
    """``torch._standard_gamma_grad``: d output / d alpha at fixed quantile (elementwise)."""
    _float_kernel("_standard_gamma_grad_cpu", alpha)
    _same_dtype(alpha, output)
    values = gamma_grad.standard_gamma_grad(_host_flat(alpha), _host_flat(output))
    return apply(_gamma_grad, alpha, output, samples=values)


def sample_dirichlet(alpha, generator=None):
    """``torch._sample_dirichlet``: float64 gamma samples over the last dim, divided by their
    sum (torch's, in double), cast to T and kept inside (0, 1)."""
    _float_kernel("dirichlet", alpha)
    gammas = _generator(alpha, generator).dirichlet_gammas(_host_flat(alpha))
    gammas = gammas.reshape(alpha.shape)
    dims = (gammas.ndim - 1,) if gammas.ndim else ()
    ratios = (gammas / cpu_sum(gammas, dims, True, np.float64)).astype(alpha.dtype.np)
    one_below = np.nextafter(alpha.dtype.np.type(1), alpha.dtype.np.type(0))
    tiny = np.finfo(alpha.dtype.np).tiny
    samples = np.minimum(one_below, np.where(ratios > tiny, ratios, tiny))  # nan: tiny, as C
    return apply(_dirichlet, alpha, samples=samples)


def dirichlet_grad(x, alpha, total):
    """``torch._dirichlet_grad``: the Dirichlet sample's gradient in ``alpha`` (elementwise,
    ``total`` the concentrations' sum)."""
    _float_kernel("_dirichlet_grad_cpu", x)
    _same_dtype(x, alpha, total)
    shape = x._data.shape
    values = gamma_grad.dirichlet_grad(
        _host_flat(x), *(np.broadcast_to(_host_flat(p).reshape(p._data.shape), shape).reshape(-1)
                         for p in (alpha, total)))
    return apply(_dirichlet_grad, x, alpha, total, samples=values)


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
    values, data = draw(t)(), t._data
    if (t._device.type == "cpu" and data.size and data.flags.c_contiguous
            and values.flags.c_contiguous and values.dtype == data.dtype
            and (taken := values.reshape(data.shape)).strides == data.strides):
        t._data = taken  # the drawn array is fresh: taken, not copied (same strides)
    else:
        write_in_memory_order(t, values)
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
    if dtype is not None and not dtype.is_floating_point and not dtype.is_complex:
        raise NotImplementedError(
            f"\"{'check_uniform_bounds' if name == 'rand' else 'normal_kernel_cpu'}"
            f"\" not implemented for '{dtype.scalar_name}'")


def randint(low, high, size, generator=None, dtype=None, device=None, requires_grad=False):
    if not low.__class__ is high.__class__ is int:  # (the wrapper of _argparser.checked words
        low, high = as_int(low, "low"), as_int(high, "high")  # a bound of no int)
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
    """Dropout's ``keep / (1 - p)`` noise for ``t`` (torch's CPU kernel, A.8), laid out like
    ``t`` and drawn in its memory order (torch's ``empty_like`` then ``bernoulli_``)."""
    g = _generator(t, generator)
    noise = full_like(t, 0)
    write_in_memory_order(noise, g.dropout_mask(t.numel(), p, t.dtype))
    return noise
