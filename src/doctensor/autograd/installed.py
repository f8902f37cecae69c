"""What autograd takes from the layers above it, handed down by one explicit call.

autograd sits below ``ops/`` and ``tensor.py`` (DESIGN.md), yet CopySlices gathers and
scatters by flat index with differentiable ops, and the tools of ``autograd.functional`` and
``gradcheck`` make tensors.  ``tensor.py`` calls ``install`` once, when the Tensor class and
the ops exist; nothing else writes these names.
"""

__all__ = ["install", "Tensor", "stack", "take", "put"]

Tensor = None  # the Tensor class
stack = None  # torch.stack(tensors, dim)
take = None  # take(flat, index): the elements of a 1-d tensor at an int64 index array
put = None  # put(flat, index, values, accumulate): index_put of a 1-d tensor, out of place


def install(tensor_class, stack_fn, take_fn, put_fn):
    """Hand autograd the Tensor class and the three ops it runs (see the module docstring)."""
    global Tensor, stack, take, put
    Tensor, stack, take, put = tensor_class, stack_fn, take_fn, put_fn
