"""``torch.autograd.backward`` and ``torch.autograd.grad``: the engine's two entry points."""

from .._tensor_base import wrap
from . import installed
from .engine import run_backward

__all__ = ["backward", "grad"]


def _as_tuple(x):
    if x is None:
        return ()
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _make_grads(outputs, grad_outputs):
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients")
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:
            if out._requires_grad:
                if out._data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out.dtype.is_floating_point:
                    raise RuntimeError("grad can be implicitly created only for real scalar "
                                       f"outputs but got {out.dtype}")
            # torch's ones_like(output): built directly (new_ones' argument checks cost more
            # than the rest of a small backward's setup; np.ones costs 4x np.array)
            xp, shape = out._backend.xp, out._data.shape
            ones = xp.ones(shape, out._data.dtype) if shape else xp.array(1, out._data.dtype)
            g = wrap(installed.Tensor, ones, out._device, out._backend)
            g._implicit = True  # Note [stealing gradients]: no user holds it
        elif tuple(g.shape) != tuple(out.shape):
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{g.shape} and output[{i}] has a shape of {out.shape}.")
        grads.append(g)
    return grads


def _check_outputs(tensors):
    for i, t in enumerate(tensors):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have "
                               "a grad_fn")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the graph's leaves.

    With ``inputs``, only those tensors' ``.grad`` is written (a non-leaf input retains its
    gradient, as torch does).
    """
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) or (None,) * len(tensors)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _make_grads(tensors, grads)
    _check_outputs(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        for t in inputs:
            if t._grad_fn is not None:
                t.retain_grad()
    run_backward(tensors, grads, retain_graph, create_graph, inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned (not accumulated).

    Example::

        >>> x = torch.tensor([1., 2.], requires_grad=True)
        >>> torch.autograd.grad((x * x).sum(), x)
        (tensor([2., 4.]),)
    """
    if is_grads_batched:
        raise NotImplementedError("doctensor: autograd.grad(is_grads_batched=True) needs vmap, "
                                  "which doctensor does not implement")
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads="
                         "True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _make_grads(outputs, _as_tuple(grad_outputs) or (None,) * len(outputs))
    if retain_graph is None:
        retain_graph = create_graph
    _check_outputs(outputs)
    for t in inputs:
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    captured = run_backward(outputs, grads, retain_graph, create_graph, inputs,
                            accumulate=False)
    result = []
    for i, (t, g) in enumerate(zip(inputs, captured)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                g = t.new_zeros(t.shape)
        result.append(g)
    return tuple(result)
