"""``torch.distributions.utils``: helpers the distributions share."""

import numbers
from functools import update_wrapper

import doctensor

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits",
           "lazy_property", "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060  # the Euler-Mascheroni constant

def broadcast_all(*values):
    """Broadcast tensors and numbers together; numbers become tensors of the first tensor's
    dtype and device (the default dtype if there is no tensor)."""
    if not all(isinstance(v, (doctensor.Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    tensors = [v for v in values if isinstance(v, doctensor.Tensor)]
    options = (dict(dtype=tensors[0].dtype, device=tensors[0].device) if tensors
               else dict(dtype=doctensor.get_default_dtype()))
    return doctensor.broadcast_tensors(*[
        v if isinstance(v, doctensor.Tensor) else doctensor.tensor(v, **options)
        for v in values])


def _batch_shape(params, broadcast):
    """A distribution's batch shape: scalar if every parameter was given as a Python number,
    else the shape of the ``broadcast`` parameters."""
    if all(isinstance(p, numbers.Number) for p in params):
        return doctensor.Size()
    return broadcast.size()


def _one_of(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def _probs_or_logits(d, probs, logits):
    """Set ``d.probs`` or ``d.logits``, whichever of the two is given (exactly one), as a
    tensor; return it and the batch shape it gives (torch's setup of the binary families)."""
    _one_of(probs, logits)
    name, given = ("probs", probs) if probs is not None else ("logits", logits)
    (param,) = broadcast_all(given)
    setattr(d, name, param)
    return param, _batch_shape((given,), param)


def _standard_normal(shape, dtype, device):
    """Standard normal draws as torch's distributions draw them (``empty(...).normal_()``)."""
    return doctensor.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """Sum out the ``dim`` rightmost dims of ``value``."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from logits: sigmoid if binary, else softmax over the last dim."""
    if is_binary:
        return doctensor.sigmoid(logits)
    return doctensor.nn.functional.softmax(logits, dim=-1)


def clamp_probs(probs):
    """``probs`` clamped into [eps, 1 - eps] of its dtype."""
    eps = doctensor.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """Logits from probabilities (clamped first): log-odds if binary, else log."""
    clamped = clamp_probs(probs)
    if is_binary:
        return doctensor.log(clamped) - doctensor.log1p(-clamped)
    return doctensor.log(clamped)


class lazy_property:
    """A property computed once, on first access (with grad enabled), then stored on the
    instance as a plain attribute."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with doctensor.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    """What a lazy_property is when read from the class: both kinds of property."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def _tril_mask(n, diag, device):
    arange = doctensor.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The lower triangle (below diagonal ``diag``) of ``mat``, row by row, as a vector."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of ``tril_matrix_to_vec``: a square matrix with zeros above the triangle."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1]
                            + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > doctensor.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         "expressed as the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + doctensor.Size((n, n)))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat
