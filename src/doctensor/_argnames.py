"""Arguments that torch's argument parser gives every native function.

torch takes ``axis`` for ``dim`` and ``keepdims`` for ``keepdim`` (``x.sum(axis=0,
keepdims=True)``): ``numpy_names`` gives a doctensor function the same two aliases; and its
functions take ``out=``: ``with_out``.

    >>> @numpy_names
    ... def total(values, dim=None, keepdim=False):
    ...     return dim, keepdim
    >>> total([1], axis=0, keepdims=True)
    (0, True)
"""

import functools
import warnings

from ._dtypes import can_cast
from ._tensor_base import TensorBase
from .autograd.grad_mode import GradMode

__all__ = ["numpy_names", "with_out"]

_ALIASES = (("axis", "dim"), ("keepdims", "keepdim"))


def numpy_names(fn):
    """Let ``fn`` take ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if "axis" in kwargs or "keepdims" in kwargs:
            for alias, name in _ALIASES:
                if alias in kwargs:
                    kwargs[name] = kwargs.pop(alias)
        return fn(*args, **kwargs)
    return wrapper


_RESIZED = ("An output with one or more elements was resized since it had shape {}, which does "
            "not match the required output shape {}. This behavior is deprecated, and in a "
            "future PyTorch release outputs will not be resized unless they have zero elements. "
            "You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
            "with t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/"
            "native/Resize.cpp:30.)")


def with_out(fn):
    """Give the torch function ``fn`` torch's ``out=`` keyword: the result is written into
    ``out`` (cast to its dtype when the cast does not lower the kind; resized, with torch's
    warning, when its shape differs) and ``out`` is returned.  As in torch, nothing may
    require grad while grad mode is on."""
    name = fn.__name__

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, TensorBase)]
        inputs += [t for a in args if isinstance(a, (list, tuple)) for t in a
                   if isinstance(t, TensorBase)]
        if GradMode.enabled and any(t._requires_grad for t in (*inputs, out)):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
        result = fn(*args, **kwargs)
        if not can_cast(result.dtype, out.dtype):
            raise RuntimeError(f"result type {result.dtype.scalar_name} can't be cast to the "
                               f"desired output type {out.dtype.scalar_name}")
        if out._data.shape == result._data.shape:
            return out.copy_(result)
        if out._data.size:
            warnings.warn(_RESIZED.format(list(out._data.shape), list(result._data.shape)),
                          UserWarning, stacklevel=2)
        out.resize_(result._data.shape)  # moves the version: the write below does not again
        out._data[...] = result.to(out.device, out.dtype)._data
        return out
    return wrapper
