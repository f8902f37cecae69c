"""Custom autograd functions: ``torch.autograd.Function``.

Note [custom Function]: ``MyFn.apply(*args)`` runs ``forward`` without recording history,
then wires one graph node of class ``MyFnBackward`` to the outputs.  That node *is* the
``ctx`` the user's ``forward`` / ``setup_context`` wrote to, as in torch::

    x ──► MyFn.apply ──► y            y.grad_fn is ctx  (type MyFnBackward)
                                      ctx.next_functions == (x's edge, ...)
    backward: MyFnBackward.apply(grads) ──► MyFn.backward(ctx, *grads) ──► checked grads

Outputs named in ``ctx.mark_non_differentiable`` do not require grad; an input named in
``ctx.mark_dirty`` was modified in place and takes the node as its new history (through
``CopySlices`` for a view, Note [CopySlices]); an input returned as-is (and not dirty) comes
back as a new alias of it carrying the node.  ``ctx.save_for_backward`` stores
``SavedTensor`` s, checked against in-place edits when ``ctx.saved_tensors`` unpacks them.
"""

import functools

from .._tensor_base import TensorBase, alias, wrap
from ..backends import for_device
from . import installed
from .grad_mode import GradMode
from .graph import Node, SavedTensor
from .views import IN_CUSTOM_FUNCTION, MULTI_OUTPUT_NODE, check_dirty, copy_slices, gradient_edge

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable"]


class FunctionCtx:
    """What ``forward`` / ``setup_context`` / ``backward`` receive as ``ctx``."""

    __slots__ = ()

    def save_for_backward(self, *tensors):
        """Keep ``tensors`` (or None) for backward; read them back with ``saved_tensors``."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, TensorBase):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} "
                                f"is of type {type(t).__name__}")
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        """Declare that ``forward`` modified these inputs in place (and returns them)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        """Declare outputs that do not require grad (integer indices, masks)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        """With False, ``backward`` receives None (not zeros) for unused outputs."""
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The graph node of a custom Function; it is also the ``ctx`` (Note [custom Function])."""

    _forward_cls = None

    def __init__(self):
        Node.__init__(self)
        self.to_save = None
        self.dirty_tensors = ()
        self.non_differentiable = ()
        self.materialize_grads = True
        self.needs_input_grad = ()
        self._saved = None
        self._input_info = ()
        self._output_info = ()

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    @property
    def saved_tensors(self):
        if self._saved is None:
            return ()
        return tuple(None if s is None else s.unpack(self) for s in self._saved)

    saved_variables = saved_tensors

    @property
    def _raw_saved_tensors(self):
        """The ``SavedTensor`` objects themselves (Note [saved tensor hooks])."""
        if self._saved is None:
            return ()
        return tuple(SavedTensor(None) if s is None else s for s in self._saved)

    def release(self):
        if self._saved:
            for s in self._saved:
                if s is not None:
                    s.release()

    def apply(self, grads):
        cls = self._forward_cls
        grads = list(grads)
        if self.materialize_grads:
            for i, g in enumerate(grads):
                if g is None and i < len(self._output_info) and self._output_info[i]:
                    shape, dtype, device = self._output_info[i]
                    backend = for_device(device)
                    grads[i] = wrap(installed.Tensor, backend.xp.zeros(shape, dtype.np), device,
                                    backend)
        res = cls.backward(self, *grads)
        if not isinstance(res, tuple):
            res = (res,)
        return self._check_grads(res)

    def _check_grads(self, res):
        name = self.name()
        n = len(self._input_info)
        if len(res) != n:
            if len(res) > n and all(g is None for g in res[n:]):
                res = res[:n]
            else:
                raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                                   f"(expected {n}, got {len(res)})")
        out = []
        for i, (g, info) in enumerate(zip(res, self._input_info)):
            if info is None:
                if g is not None:
                    raise RuntimeError(f"function {name} returned a gradient different than None "
                                       f"at position {i + 1}, but the corresponding forward "
                                       "input was not a Variable")
                out.append(None)
                continue
            if g is None or self.next_functions[i][0] is None:
                out.append(g)  # (torch checks no gradient of an input without an edge, and
                continue  # node hooks see it; the engine then drops it)
            shape, dtype = info
            if tuple(g.shape) != shape:
                if _expandable(shape, tuple(g.shape)):
                    g = g.sum_to_size(shape)
                else:
                    raise RuntimeError(
                        f"Function {name} returned an invalid gradient at index {i} - got "
                        f"[{', '.join(map(str, g.shape))}] but expected shape compatible with "
                        f"[{', '.join(map(str, shape))}]")
            if g.dtype is not dtype:
                g = g.to(dtype)
            out.append(g)
        return tuple(out)


def _expandable(shape, grad_shape):
    """True when ``shape`` broadcasts to ``grad_shape`` (the grad can be summed back)."""
    if len(shape) > len(grad_shape):
        return False
    for a, b in zip(reversed(shape), reversed(grad_shape)):
        if a != b and a != 1:
            return False
    return True


class FunctionMeta(type):
    """Gives each Function subclass its node class, named ``<ClassName>Backward``."""

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": "torch.autograd.function"})
        super().__init__(name, bases, attrs)


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base class of custom autograd operations (Note [custom Function]).

    Example::

        >>> class Exp(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         y = x.exp()
        ...         ctx.save_for_backward(y)
        ...         return y
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         y, = ctx.saved_tensors
        ...         return g * y
        >>> Exp.apply(torch.zeros(1, requires_grad=True))
        tensor([1.], grad_fn=<ExpBackward>)
    """

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` and record one ``<ClassName>Backward`` node for the outputs."""
        T = TensorBase
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, T) and a._requires_grad for a in args)
        record = GradMode.enabled and any(ctx.needs_input_grad)
        edges = tuple(gradient_edge(a) if n else (None, 0)
                      for a, n in zip(args, ctx.needs_input_grad)) if record else ()
        prev = GradMode.enabled
        GradMode.enabled = False
        try:
            if cls.setup_context is not Function.setup_context:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        finally:
            GradMode.enabled = prev
        for t in ctx.dirty_tensors:  # torch counts mark_dirty as one more modification
            t._bump_version()
        if not record:
            if ctx.to_save is not None:
                ctx._saved = [None if t is None else SavedTensor(t) for t in ctx.to_save]
            return output
        ctx.next_functions = edges
        ctx._input_info = tuple((a._data.shape, a.dtype) if isinstance(a, T) else None
                                for a in args)
        is_tuple = isinstance(output, tuple)
        outs = _wire_outputs(ctx, args, output if is_tuple else (output,), T)
        if ctx.to_save is not None:
            ctx._saved = [None if t is None else SavedTensor(t, is_output=any(t is o for o in outs))
                          for t in ctx.to_save]
            ctx.to_save = None  # the outputs are saved without their grad_fn: no cycle
        return outs if is_tuple else outs[0]


def _wire_outputs(ctx, args, outs, T):
    """Attach ``ctx`` as the grad_fn of each differentiable output (Note [custom Function])."""
    non_diff = ctx.non_differentiable
    dirty = ctx.dirty_tensors

    def differentiable(o):
        return isinstance(o, T) and o.dtype.is_floating_point and \
            not any(o is d for d in non_diff)

    # a view among several differentiable outputs may not be modified in place later
    view_meta = MULTI_OUTPUT_NODE if sum(map(differentiable, outs)) > 1 else IN_CUSTOM_FUNCTION
    result = []
    info = []
    for i, o in enumerate(outs):
        if not isinstance(o, T):
            result.append(o)
            info.append(None)
            continue
        is_input = any(o is a for a in args)
        if not differentiable(o):
            if not is_input:
                o._requires_grad = False
        elif is_input and any(o is d for d in dirty):
            check_dirty(o)
            if o._base is not None:
                copy_slices(o, ctx)
            else:
                o._grad_fn = ctx
                o._output_nr = i
                o._requires_grad = True
        else:
            if is_input:
                o = _alias(o)
            o._grad_fn = ctx
            o._output_nr = i
            o._requires_grad = True
            if o._base is not None:  # Note [view + in-place errors]
                o._view_version = o._vc.value
                o._creation_meta = view_meta
        result.append(o)
        info.append((o.shape, o.dtype, o.device))  # no reference to o: no cycle through ctx
    ctx._output_info = tuple(info)
    ctx.num_outputs = len(outs)
    return tuple(result)


def _alias(t):
    """``t.view_as(t)`` without history: an input returned as-is comes back as a view."""
    out = alias(type(t), t, t._data)
    out._base = t if t._base is None else t._base
    return out


class DelayedError(Node):
    """The node behind ``once_differentiable`` results: differentiating them again fails."""

    __slots__ = ("msg",)

    def apply(self, grads):
        raise RuntimeError(self.msg)


def once_differentiable(fn):
    """Run a custom ``backward`` without recording history; a second differentiation raises."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        prev = GradMode.enabled
        GradMode.enabled = False
        try:
            outputs = fn(ctx, *args)
        finally:
            GradMode.enabled = prev
        if not GradMode.enabled:
            return outputs
        T = TensorBase
        inputs = [a for a in args if isinstance(a, T) and a._requires_grad]
        if not inputs:
            return outputs
        err = DelayedError(tuple(gradient_edge(a) for a in inputs))
        err.msg = ("trying to differentiate twice a function that was marked with "
                   "@once_differentiable")
        single = not isinstance(outputs, tuple)
        wrapped = []
        for o in ((outputs,) if single else outputs):
            if isinstance(o, T):
                o = o.detach()
                o._grad_fn = err
                o._requires_grad = True
            wrapped.append(o)
        return wrapped[0] if single else tuple(wrapped)
    return wrapper
