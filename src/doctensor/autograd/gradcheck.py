"""``gradcheck`` and ``gradgradcheck``: autograd's Jacobian against finite differences.

For every input ``x`` that requires grad and every element ``x[i]``, the numerical Jacobian
column is ``(f(x + eps e_i) - f(x - eps e_i)) / (2 eps)``; the analytical Jacobian row for
every output element comes from ``autograd.grad``.  They must agree to
``|a - n| <= atol + rtol * |n|`` (use float64).  ``gradgradcheck`` runs ``gradcheck`` on the
function that returns the (differentiable) gradients of ``func``.
"""

import warnings

import numpy as np

from .._dtypes import float64
from .._tensor_base import TensorBase, wrap
from ..backends import numpy_cpu
from ..device import CPU
from . import installed
from .api import grad as autograd_grad
from .grad_mode import GradMode

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the Jacobians disagree."""


def _tensor(values, dtype):
    """A CPU tensor of ``values`` (a NumPy array or nested lists) in ``dtype``."""
    return wrap(installed.Tensor, np.array(values, dtype.np), CPU, numpy_cpu)


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _outputs(func, inputs):
    return tuple(o for o in _as_tuple(func(*inputs)) if isinstance(o, TensorBase))


def _numerical(func, inputs, diff_idx, outputs, eps):
    """``jac[k][i]``: array (input k numel, output i numel)."""
    jac = []
    for k in diff_idx:
        x = inputs[k]
        data = x._data
        cols = [np.zeros((data.size, o.numel())) for o in outputs]
        for flat in range(data.size):
            idx = np.unravel_index(flat, data.shape)
            orig = data[idx].copy()
            data[idx] = orig + eps
            with _enable_grad():
                plus = [np.asarray(o._data, dtype=np.float64).reshape(-1).copy()
                        for o in _outputs(func, inputs)]
            data[idx] = orig - eps
            with _enable_grad():
                minus = [np.asarray(o._data, dtype=np.float64).reshape(-1).copy()
                         for o in _outputs(func, inputs)]
            data[idx] = orig
            for i in range(len(outputs)):
                cols[i][flat] = (plus[i] - minus[i]) / (2 * eps)
        jac.append(cols)
    return jac


def _analytical(inputs, diff_idx, outputs):
    jac = [[np.zeros((inputs[k].numel(), o.numel())) for o in outputs] for k in diff_idx]
    diff = [inputs[k] for k in diff_idx]
    for i, o in enumerate(outputs):
        if not o.requires_grad:
            continue
        flat = o.reshape(-1)
        for j in range(flat.numel()):
            grads = autograd_grad(flat[j], diff, retain_graph=True, allow_unused=True)
            for n, g in enumerate(grads):
                if g is not None:
                    jac[n][i][:, j] = np.asarray(g._data, dtype=np.float64).reshape(-1)
    return jac


class _no_grad:
    def __enter__(self):
        self.prev = GradMode.enabled
        GradMode.enabled = False

    def __exit__(self, *exc):
        GradMode.enabled = self.prev


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """True when ``func``'s analytical Jacobian matches finite differences at ``inputs``.

    Example::

        >>> x = torch.rand(3, dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradcheck(torch.sin, (x,))
        True
    """
    T = TensorBase
    inputs = _as_tuple(inputs)
    diff_idx = [k for k, x in enumerate(inputs) if isinstance(x, T) and x.requires_grad]
    if not diff_idx:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of the them have requires_grad=True.")
    for k in diff_idx:
        if inputs[k].dtype.name != "float64":
            warnings.warn(
                f"Input #{k} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ", stacklevel=2)
    with _enable_grad():
        outputs = _outputs(func, inputs)
        analytical = _analytical(inputs, diff_idx, outputs)
    numerical = _numerical(func, inputs, diff_idx, outputs, eps)
    for n, k in enumerate(diff_idx):
        for i in range(len(outputs)):
            a, num = analytical[n][i], numerical[n][i]
            if not np.allclose(a, num, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {i} with respect to input {k},\n"
                    f"numerical:{_fmt(num)}\nanalytical:{_fmt(a)}\n")
    return True


def _fmt(a):
    return repr(_tensor(a.tolist(), float64))


class _enable_grad(_no_grad):
    def __enter__(self):
        self.prev = GradMode.enabled
        GradMode.enabled = True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True,
                  fast_mode=False, masked=False):
    """``gradcheck`` of the gradients of ``func`` (second derivatives)."""
    T = TensorBase
    inputs = _as_tuple(inputs)
    with _enable_grad():
        outputs = _outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            _random_like(o, rng) for o in outputs if o.requires_grad)
    grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)

    def new_func(*args):
        inp = args[:n_in]
        gos = args[n_in:]
        outs = [o for o in _outputs(func, inp) if o.requires_grad]
        diff = [x for x in inp if isinstance(x, T) and x.requires_grad]
        grads = autograd_grad(outs, diff, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def _random_like(o, rng):
    t = _tensor(rng.uniform(-1, 1, tuple(o.shape)).tolist(), o.dtype)
    return t.requires_grad_(True)
