"""Op-table rows of the misc area: the in-place samplers (exponential_, geometric_, cauchy_,
log_normal_), torch.poisson and torch.binomial, all drawn with torch's bits (Note [scalar
samplers], Note [binomial sampler] in random.py).  CPU only: doctensor's CUDA generator is
its own stream, not torch's CPU one."""

from _oracle import FLOATS, INTS
from op_table import ALL, UNARY, OpInfo

CPU = ("cpu",)
FILL_SAMPLES = [(1,), (0,), (5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 5), "step"), (40,)]


def _seeded(T, t, name, *args):
    """``t.<name>(*args)`` with the CPU generator seeded first (bits compared with torch's)."""
    T.manual_seed(0)
    return getattr(t, name)(*args)


def _spec(*args):
    def spec(T, x):
        T.manual_seed(0)
        return (x, *args), {}
    return spec


def _strided_fill(T, x, name, *args):
    """Fill every second element of a fresh tensor (drawn in memory order, as torch)."""
    wide = T.zeros(x.shape[:-1] + (2 * x.shape[-1],), dtype=x.dtype, device=x.device)
    _seeded(T, wide[..., ::2], name, *args)
    return wide


def _fills(record, name, args, bad_args, integer_dtypes):
    """The rows of one in-place sampler: values (float and, where torch allows, integer
    dtypes), a strided target, gradients, bad parameters and refused dtypes."""
    rows = [
        OpInfo(record, name, lambda T, x: _seeded(T, x * 1, name, *args), FILL_SAMPLES,
               dtypes=FLOATS + ("float16",), devices=CPU, variants=_spec(*args)),
        OpInfo(record, f"{name}_strided", lambda T, x: _strided_fill(T, x, name, *args),
               [(3, 4), (5,)], dtypes=FLOATS, grad=False, devices=CPU),
        OpInfo(record, f"{name}_bad_parameter",
               lambda T, x: _seeded(T, x.detach().clone(), name, *bad_args), [(3,), (0,)],
               dtypes=FLOATS + INTS, devices=CPU),
    ]
    if integer_dtypes:
        rows.append(OpInfo(record, f"{name}_integers",
                           lambda T, x: _seeded(T, x.detach().clone(), name, *args),
                           FILL_SAMPLES[:5], dtypes=integer_dtypes, grad=False, devices=CPU))
    return rows


def _binomial(T, count, prob):
    T.manual_seed(0)
    return T.binomial(count.detach().abs().floor() * 4, prob.detach().abs() / 3)


ROWS = [
    OpInfo("FillBackward0", "fill", lambda T, x: T.fill(x, 2.5), UNARY, dtypes=ALL,
           variants=lambda T, x: ((x, 1.5), {})),
    OpInfo("FillBackward1", "fill_tensor", lambda T, x, v: T.fill(x, v),
           [((3, 4), ()), ((), ()), (((3, 4), "T"), ()), ((0, 2), ())], dtypes=ALL,
           variants=lambda T, x, v: ((x, v), {})),
    OpInfo("FillBackward1", "fill_tensor_not_0d", lambda T, x, v: T.fill(x, v),
           [((3,), (3,))], dtypes=("float32",)),
    *_fills("ExponentialBackward0", "exponential_", (2.5,), (0.0,), None),
    *_fills("GeometricBackward0", "geometric_", (0.3,), (1.0,), INTS),
    *_fills("CauchyBackward0", "cauchy_", (1.0, 0.5), (0.0, -1.0), None),
    *_fills("LogNormalBackward0", "log_normal_", (0.5, 0.25), (1.0, 0.0), None),
    OpInfo("ExponentialBackward0", "exponential_integer_error",
           lambda T, x: _seeded(T, x.detach().clone(), "exponential_"), [(3,)],
           dtypes=INTS + ("bool",), devices=CPU),
    OpInfo("GeometricBackward0", "geometric_bool_error",
           lambda T, x: _seeded(T, x.detach().clone(), "geometric_", 0.5), [(3,)],
           dtypes=("bool",), devices=CPU),
    OpInfo("CauchyBackward0", "cauchy_integer_error",
           lambda T, x: _seeded(T, x.detach().clone(), "cauchy_"), [(3,), (0,)],
           dtypes=INTS + ("bool",), devices=CPU),
    OpInfo("LogNormalBackward0", "log_normal_integer_error",
           lambda T, x: _seeded(T, x.detach().clone(), "log_normal_"), [(3,)],
           dtypes=INTS + ("bool",), devices=CPU),
    OpInfo("PoissonBackward0", "poisson",
           lambda T, x: _seeded(T, T, "poisson", x.abs() * 8), FILL_SAMPLES,
           dtypes=FLOATS, devices=CPU, variants=lambda T, x: ((x.detach().abs(),), {})),
    OpInfo("PoissonBackward0", "poisson_float16",
           lambda T, x: _seeded(T, T, "poisson", x.abs() * 8), [(5,), (3, 4)],
           dtypes=("float16",), devices=CPU),
    OpInfo("PoissonBackward0", "poisson_errors",
           lambda T, x: _seeded(T, T, "poisson", x), [(3,)], dtypes=FLOATS + INTS,
           domain=(-3.0, -1.0), devices=CPU),
    OpInfo("binomial", "binomial", _binomial,
           [((3, 4), (3, 4)), ((5,), (1,)), ((), ()), ((2, 3), (3,)), (((3, 4), "T"), (3, 4))],
           dtypes=FLOATS, devices=CPU, grad=False,
           variants=lambda T, c, p: ((c.detach().abs().floor(), p.detach().abs() / 3), {})),
]
