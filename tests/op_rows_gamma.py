"""Op-table rows of the gamma family's private samplers: torch._standard_gamma,
torch._sample_dirichlet (torch's bits: Note [gamma sampler] in random.py) and their
reparameterization gradients torch._standard_gamma_grad and torch._dirichlet_grad (bit for
bit: Note [gamma gradients] in _exact/gamma_grad.py).  CPU only: doctensor's CUDA generator
is its own stream, not torch's CPU one.

The domain (0.05, 12) reaches every branch of the kernels: the boost of alpha < 1 and, in
the gradients, the series of small samples, the saddle points of large parameters and the
rational fits in between.
"""

from _oracle import FLOATS, INTS
from op_table import OpInfo

CPU = ("cpu",)
DOMAIN = (0.05, 12.0)
SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 5), "step"), (40,)]
LAST_DIM = [(5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 5), "step"), (0, 3), (8, 6)]
PAIRS = [((3, 4), (3, 4)), ((), ()), ((0,), (0,)), (((3, 4), "T"), (3, 4)), ((40,), (40,))]
REFUSED = INTS + ("float16",)


def _seeded(T, fn, *args):
    T.manual_seed(0)
    return fn(T)(*args)


def _gamma(T, alpha):
    return _seeded(T, lambda T: T._standard_gamma, alpha)


def _dirichlet(T, alpha):
    return _seeded(T, lambda T: T._sample_dirichlet, alpha)


def _dirichlet_grad(T, alpha):
    """The gradient of a seeded Dirichlet sample, as Dirichlet.rsample's backward asks it."""
    x = _dirichlet(T, alpha.detach())
    return T._dirichlet_grad(x, alpha, alpha.sum(-1, True).expand_as(alpha))


def _detached(T, *inputs):
    T.manual_seed(0)
    return tuple(t.detach() for t in inputs), {}


ROWS = [
    OpInfo("StandardGammaBackward0", "_standard_gamma", _gamma, SHAPES, dtypes=FLOATS,
           domain=DOMAIN, devices=CPU, variants=_detached),
    OpInfo("StandardGammaBackward0", "_standard_gamma_negative_alpha",  # C's nan: tiny
           lambda T, a: _gamma(T, a - 3), [(40,)], dtypes=FLOATS, grad=False, devices=CPU),
    OpInfo("StandardGammaBackward0", "_standard_gamma_refused", _gamma, [(3,)],
           dtypes=REFUSED, domain=DOMAIN, devices=CPU),
    OpInfo("StandardGammaGradBackward0", "_standard_gamma_grad",
           lambda T, a, x: T._standard_gamma_grad(a, x), PAIRS, dtypes=FLOATS, domain=DOMAIN,
           devices=CPU, variants=_detached),
    OpInfo("StandardGammaGradBackward0", "_standard_gamma_grad_of_samples",
           lambda T, a: T._standard_gamma_grad(a, _gamma(T, a.detach())), SHAPES,
           dtypes=FLOATS, domain=DOMAIN, devices=CPU),
    OpInfo("StandardGammaGradBackward0", "_standard_gamma_grad_refused",
           lambda T, a, x: T._standard_gamma_grad(a, x), [((3,), (3,))], dtypes=INTS,
           domain=DOMAIN, devices=CPU),
    OpInfo("StandardGammaGradBackward0", "_standard_gamma_grad_mixed_dtypes",
           lambda T, a, x: T._standard_gamma_grad(a, x.double()), [((3,), (3,))],
           dtypes=("float32",), domain=DOMAIN, devices=CPU),
    OpInfo("_sample_dirichlet", "_sample_dirichlet", _dirichlet, LAST_DIM + [()],
           dtypes=FLOATS, domain=DOMAIN, devices=CPU, variants=_detached),
    OpInfo("_sample_dirichlet", "_sample_dirichlet_refused", _dirichlet, [(3,)],
           dtypes=REFUSED, domain=DOMAIN, devices=CPU),
    OpInfo("_dirichlet_grad", "_dirichlet_grad", _dirichlet_grad, LAST_DIM, dtypes=FLOATS,
           domain=DOMAIN, devices=CPU,
           variants=lambda T, a: ((_dirichlet(T, a.detach()), a.detach(),
                                   a.detach().sum(-1, True).expand_as(a)), {})),
    OpInfo("_dirichlet_grad", "_dirichlet_grad_refused",
           lambda T, x, a, s: T._dirichlet_grad(x, a, s), [((3,), (3,), (3,))], dtypes=INTS,
           domain=DOMAIN, devices=CPU),
    OpInfo("_dirichlet_grad", "_dirichlet_grad_mixed_dtypes",
           lambda T, x, a, s: T._dirichlet_grad(x, a.double(), s), [((3,), (3,), (3,))],
           dtypes=("float32",), domain=DOMAIN, devices=CPU),
]
