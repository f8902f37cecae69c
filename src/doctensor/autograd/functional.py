"""``torch.autograd.functional``: ``jacobian`` and ``hessian`` built on ``autograd.grad``.

The Jacobian is assembled one row at a time: for each element of each output, one
``autograd.grad`` call (with ``retain_graph``) gives that element's gradient with respect to
every input; rows are stacked and reshaped to ``output.shape + input.shape``.  ``hessian``
is the Jacobian of the Jacobian of a scalar function (``create_graph=True`` inside).
"""

from .._tensor_base import TensorBase
from . import installed
from .api import grad as autograd_grad
from .grad_mode import GradMode

__all__ = ["jacobian", "hessian"]


def _as_tuple(x, what, fn):
    if isinstance(x, tuple):
        items = x
        is_tuple = True
    elif isinstance(x, list):
        items = tuple(x)
        is_tuple = True
    else:
        items = (x,)
        is_tuple = False
    for i, t in enumerate(items):
        if not isinstance(t, TensorBase):
            if is_tuple:
                raise TypeError(f"The {what} given to {fn} must be either a Tensor or a tuple of "
                                f"Tensors but the value at index {i} has type {type(t)}.")
            raise TypeError(f"The {what} given to {fn} must be either a Tensor or a tuple of "
                            f"Tensors but the given {what} has type {type(t)}.")
    return is_tuple, items


def _grad_preprocess(inputs, create_graph):
    if create_graph:
        return tuple(t.view_as(t) if t.requires_grad else t.detach().requires_grad_(True)
                     for t in inputs)
    return tuple(t.detach().requires_grad_(True) for t in inputs)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs`` (a Tensor, a tuple of Tensors, or nested tuples).

    Example::

        >>> torch.autograd.functional.jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    prev = GradMode.enabled
    GradMode.enabled = True
    try:
        inputs = _grad_preprocess(inputs, create_graph)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", "jacobian")
        jac = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(flat.numel()):
                if out.requires_grad:
                    grads = autograd_grad(flat[j], inputs, retain_graph=True,
                                          create_graph=create_graph, allow_unused=True)
                else:
                    grads = (None,) * len(inputs)
                for k, (g, inp) in enumerate(zip(grads, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {k}. This is not allowed in strict mode.")
                        g = inp.new_zeros(inp.shape)
                    rows[k].append(g)
            row = []
            for k, inp in enumerate(inputs):
                if rows[k]:
                    block = installed.stack(rows[k], 0).view(out.shape + inp.shape)
                else:
                    block = inp.new_zeros(tuple(out.shape) + tuple(inp.shape))
                row.append(block if create_graph else block.detach())
            jac.append(tuple(row))
    finally:
        GradMode.enabled = prev
    if is_outputs_tuple:
        if is_inputs_tuple:
            return tuple(jac)
        return tuple(r[0] for r in jac)
    if is_inputs_tuple:
        return jac[0]
    return jac[0][0]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of the scalar function ``func`` at ``inputs``.

    Example::

        >>> torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def single_output(*inp):
        out = func(*inp)
        if isinstance(out, tuple) or not isinstance(out, TensorBase):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        return jacobian(single_output, inp, create_graph=True, strict=strict)

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict)
    return res if is_inputs_tuple else res[0][0]
