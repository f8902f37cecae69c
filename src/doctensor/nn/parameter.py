"""``nn.Parameter``: a tensor that a ``Module`` registers as one of its parameters."""

import sys

import doctensor as torch

__all__ = ["Parameter", "UninitializedParameter", "UninitializedBuffer", "is_lazy"]


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

    def __reduce_ex__(self, protocol):
        """Pickle as torch: the data (which keeps its storage shared), ``requires_grad`` and
        the attributes set on the parameter."""
        attrs = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        return (_rebuild_parameter, (self.data, self.requires_grad, attrs))


def _rebuild_parameter(data, requires_grad, attrs):
    """A ``Parameter`` of ``data`` (undoes ``Parameter.__reduce_ex__``)."""
    out = Parameter(data, requires_grad)
    out.__dict__.update(attrs)
    return out


# -- uninitialized parameters and buffers (lazy modules, J) --


def _uninitialized_error(cls, what):
    return ValueError(
        f"Attempted to use an uninitialized parameter in {what}. This error happens when you "
        f"are using a `LazyModule` or explicitly manipulating `torch.nn.parameter.{cls.__name__}` "
        "objects. When using LazyModules Call `forward` with a dummy batch to initialize the "
        "parameters before calling torch functions")


def _refuse(name, what=None):
    """An operator of an uninitialized tensor: torch's error naming its method."""
    def method(self, *args):
        raise _uninitialized_error(
            type(self), what or f"<method '{name}' of 'torch._C.TensorBase' objects>")
    return method


class UninitializedTensorMixin:
    """A tensor with no shape yet (a lazy module's parameter before its first call): only
    ``size()``, conversions (``to``, ``float`` ...), ``copy_`` and ``materialize`` work;
    any other method raises torch's ValueError, ``shape`` its RuntimeError.

    Note [uninitialized tensors]: torch refuses every torch function called on one (its
    ``__torch_function__``); doctensor refuses the tensor methods called from outside its
    core (calls inside it stand for torch's C++, which never sees the check) and the
    arithmetic operators.
    """

    _allowed = frozenset(("size", "copy_", "is_complex", "is_floating_point", "half", "float",
                          "double", "char", "short", "int", "long", "cuda", "cpu", "to",
                          "get_device", "materialize", "share_memory_"))

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        if (name[0] != "_" and name not in UninitializedTensorMixin._allowed
                and callable(value) and _called_by_user()):
            raise _uninitialized_error(
                type(self), f"<method '{name}' of 'torch._C.TensorBase' objects>")
        return value

    def materialize(self, shape, device=None, dtype=None):
        """Become a ``cls_to_become`` of ``shape`` (uninitialized memory, as ``empty``), on
        this tensor's device and dtype unless given."""
        data = object.__getattribute__(self, "data")
        self.data = torch.empty(shape, device=device or data.device, dtype=dtype or data.dtype)
        self.__class__ = type(self).cls_to_become

    def size(self, dim=None):
        return object.__getattribute__(self, "data").size(dim)

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing their "
            "attributes.")

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call "
                           "`forward` to initialize the parameters before calling "
                           "`module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    def __reduce_ex__(self, protocol):
        return type(self), (self.requires_grad,)

    __str__ = __repr__
    __add__ = __radd__ = _refuse("add")
    __sub__ = _refuse("sub")
    __mul__ = __rmul__ = _refuse("mul")
    __truediv__ = _refuse("div")
    __matmul__ = _refuse("matmul")
    __neg__ = _refuse("neg")
    __getitem__ = _refuse("", "<slot wrapper '__getitem__' of 'torch._C.TensorBase' objects>")


def _called_by_user():
    """Whether the method looked up two frames up is called from outside doctensor's core
    (Note [uninitialized tensors])."""
    caller = sys._getframe(2).f_globals.get("__name__", "")
    return not caller.startswith("doctensor.") or caller.startswith("doctensor.nn.")


def is_lazy(param):
    """Whether ``param`` is an ``UninitializedParameter`` or ``UninitializedBuffer``."""
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape a lazy module learns from its first input
    (``materialize`` makes it a ``Parameter``)."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return torch.Tensor._make_subclass(cls, torch.empty(0, device=device, dtype=dtype),
                                           requires_grad)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, torch.Tensor):
    """A buffer whose shape a lazy module learns from its first input (``materialize``
    makes it a plain tensor)."""

    cls_to_become = torch.Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        out = torch.Tensor._make_subclass(cls, torch.empty(0, device=device, dtype=dtype),
                                          requires_grad)
        out.persistent = persistent
        return out


# -- buffers (misc3) --

__all__ += ["Buffer"]


class _BufferMeta(type(torch.Tensor)):
    """``isinstance(t, Buffer)``: also true of any tensor ``Buffer`` marked (torch's
    ``_is_buffer`` flag), since ``Buffer(...)`` gives a plain tensor."""

    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, torch.Tensor) and \
                getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(torch.Tensor, metaclass=_BufferMeta):
    """A marker for module state that is no parameter: assigned as a ``Module`` attribute, it
    is registered as a buffer (in the ``state_dict`` unless not ``persistent``).

    ``Buffer(data)`` is ``data`` detached (the same storage), a plain tensor flagged as a
    buffer, as in torch.

    Example:
        >>> torch.nn.Buffer(torch.zeros(2))
        tensor([0., 0.])
    """

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = torch.empty(0)
        out = data.detach().requires_grad_(data.requires_grad)
        out.persistent = persistent
        out._is_buffer = True
        return out
