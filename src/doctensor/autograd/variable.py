"""``torch.autograd.Variable``: the wrapper of PyTorch before 0.4, kept as torch keeps it.

Since 0.4 every tensor is a Variable: ``Variable(t, requires_grad=True)`` returns a plain
tensor, ``t.detach()`` with ``requires_grad`` set (same storage and version counter), and
``isinstance(t, Variable)`` is True for every tensor.
"""

import warnings

from .._tensor_base import TensorBase

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, TensorBase)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: ``data.detach()``, requiring grad if asked
    (``volatile=True`` only warns, as in torch; ``Variable()`` without data is not offered)."""

    def __new__(cls, data, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with "
                          "torch.no_grad():` instead.", UserWarning, stacklevel=2)
        if not isinstance(data, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
