"""``nn.Parameter``: a tensor that a ``Module`` registers as one of its parameters."""

import doctensor as torch

__all__ = ["Parameter"]


class Parameter(torch.Tensor):
    """A tensor that is a module parameter: assigning one to a ``Module`` attribute registers it.

    It shares ``data``'s storage and version counter (no copy) and requires grad by default.
    Arithmetic on a parameter gives plain tensors.

    Example:
        >>> torch.nn.Parameter(torch.zeros(2))
        Parameter containing:
        tensor([0., 0.], requires_grad=True)
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        return torch.Tensor._make_subclass(cls, data, requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()
