"""``Tensor``: thin methods over ``ops/``, Python operators, and autograd properties."""

import numbers
import warnings
import weakref

import numpy as np

from . import _tensor_str, autograd, backends
from ._argnames import numpy_names
from ._argparser import check_methods
from ._dtypes import ALL as ALL_DTYPES
from ._dtypes import (
    bfloat16,
    bool_,
    complex32,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from ._dtypes import dtype as dtype_cls
from ._tensor_base import INFERENCE, TensorBase, alias, warn_once
from ._typed_storage import TYPED_STORAGE_DEPRECATED, TypedStorage
from ._typeinfo import strided
from .autograd.grad_mode import GradMode
from .autograd.graph import RemovableHandle
from .autograd.installed import install
from .autograd.views import base_requires_grad_changed, refresh_view_grad_fn
from .ops import (
    complex_numbers,
    creation,
    gathering,
    indexing,
    joining,
    linalg,
    nn_ops,
    random_ops,
    reduction,
    shaping,
    sorting,
    spectral,
    statistics,
)
from .ops import decompositions as _decompositions
from .ops import elementwise as E
from .ops import pointwise as P
from .ops import special_functions as SF
from .ops import views as V
from .ops._dispatch import (
    _OPERANDS,
    apply,
    apply_,
    autograd_check_,
    binary,
    binary_,
    set_tensor_class,
)
from .size import Size

__all__ = ["Tensor"]

# add_, sub_ and div_ without alpha or rounding mode (Note [in-place fast path])
_ADD_, _SUB_, _DIV_ = (binary_(op, operator=False) for op in (P.add, P.sub, P.div))

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered "
    "internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")


_REINFORCE_REMOVED = """reinforce() was removed.
Use torch.distributions instead.
See https://pytorch.org/docs/main/distributions.html

Instead of:

probs = policy_network(state)
action = probs.multinomial()
next_state, reward = env.step(action)
action.reinforce(reward)
action.backward()

Use:

probs = policy_network(state)
# NOTE: categorical is equivalent to what used to be called multinomial
m = torch.distributions.Categorical(probs)
action = m.sample()
next_state, reward = env.step(action)
loss = -m.log_prob(action) * reward
loss.backward()
"""

_NON_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = "
    "var.detach().")


_SCALAR_OF_GRAD_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")


def _size_args(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _required(size, fname, name):
    """``_size_args`` of sizes or dims that torch requires (``flip()`` is refused)."""
    if not size:
        raise TypeError(f'{fname}() missing 1 required positional arguments: "{name}"')
    return _size_args(size)


def _operator(method, read=None):
    """A binary operator from ``method``: Python's NotImplemented for an operand that is
    neither a tensor nor a number, and wherever ``method`` raises a TypeError (torch's
    operators turn their TypeErrors into NotImplemented), so that Python tries the other
    operand's method, then raises its TypeError (or, for ``==`` and ``!=``, compares
    identities): Note [NumPy operands].  ``read``: what ``other`` is taken as first."""
    def operator(self, other):
        if read is not None:
            other = read(other)
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        try:
            return method(self, other)
        except TypeError:
            return NotImplemented
    operator.__name__ = operator.__qualname__ = method.__name__
    return operator


def _numeric_array_as_tensor(other):
    """torch's ``==`` reads a numeric NumPy array as a tensor (Note [NumPy operands])."""
    if isinstance(other, np.ndarray) and other.dtype.kind in "biufc":
        return creation.tensor(other)
    return other


# Note [NumPy operands]
# torch's parser takes NumPy scalars as numbers but refuses NumPy arrays, so its operators
# give NotImplemented for an array (``==`` excepted: it reads a numeric array as a tensor).
# NumPy then computes the reflected operation itself, on the tensor's ``__array__``, and
# hands the result to ``__array_wrap__``, which makes it a tensor again:
#
#     x + np.ones(2)    ->  x.__add__: NotImplemented  ->  ndarray.__radd__: np.add(x, a)
#                       ->  x.__array_wrap__(float64 array)  ->  a float64 tensor
#     np.ones(2) + x    ->  ndarray.__add__ defers to the tensor (__array_priority__)
#                       ->  x.__radd__: NotImplemented  ->  Python's TypeError
#
# ``__array__`` and ``__array_wrap__`` have torch's signatures, so NumPy 2 warns about them
# (DeprecationWarning) exactly where it warns for torch's.


def _check_float(fname, name, value, position=1):
    """torch's TypeError for an optional float argument given something else."""
    if value is not None and not isinstance(value, (int, float)):
        raise TypeError(f"{fname}(): argument '{name}' (position {position}) must be float, "
                        f"not {type(value).__name__}")


def _repeats(repeats):
    if not repeats:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    return _size_args(repeats)


class Tensor(TensorBase):
    """A multi-dimensional array with PyTorch's sharing, versioning and autograd semantics."""

    __array_priority__ = 1000

    def __new__(cls, *args, device=None):
        """The legacy constructor ``torch.Tensor(...)`` (doctensor itself makes tensors with
        ``object.__new__``): see ``legacy_new``."""
        if cls is not Tensor:  # a subclass (Parameter) makes its own
            return super().__new__(cls)
        return legacy_new(get_default_dtype(), args, device)

    # -- autograd properties ------------------------------------------------------------------
    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self._grad_fn is not None:
            if value:  # the attribute (not requires_grad_(True)) refuses even True
                raise RuntimeError("you can only change requires_grad flags of leaf variables.")
            raise RuntimeError(_NON_LEAF_REQUIRES_GRAD)
        self._set_requires_grad(value)

    def _set_requires_grad(self, value):
        if value and not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        if value and self._inference and not _inference_mode_on():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if self._grad_fn is not None:
            return
        if self._base is None or self._view_version is None:
            self._requires_grad = bool(value)
            base_requires_grad_changed(self)  # Note [views of a base without history]
        elif value or not self._base._requires_grad:
            self._requires_grad = bool(value)
            self._requires_grad_of_base = False
        else:  # a view still requires grad through its base: its own flag alone is dropped
            self._requires_grad = self._requires_grad_of_base = True
            self._grad_acc = None

    def is_inference(self):
        """True for a tensor made inside ``torch.inference_mode()`` (Note [inference mode])."""
        return self._inference

    def requires_grad_(self, requires_grad=True):
        """Set ``requires_grad`` in place (leaves only) and return self."""
        if requires_grad and not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(_NON_LEAF_REQUIRES_GRAD)
            return self
        self._set_requires_grad(requires_grad)
        return self

    @property
    def grad_fn(self):
        if self._view_version is not None:
            refresh_view_grad_fn(self)
        return self._grad_fn

    @property
    def is_leaf(self):
        return self.grad_fn is None  # torch's is_leaf reads grad_fn (a view's is regenerated)

    @property
    def grad(self):
        if self._grad_fn is not None and not self._retains_grad:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of "
                                f"type {type(value).__name__}")
            if value.dtype is not self.dtype:
                name = value.dtype.c_name
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{name}'"
                    f" to a tensor with grad_dtype '{self.dtype.scalar_name}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set "
                    "the tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match.")
            if value._device != self._device:
                raise RuntimeError("assigned grad has data located on a different device")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a "
                    f"tensor of size '{list(self._data.shape)}'. Please ensure that the gradient "
                    "and the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Keep the gradient of this non-leaf tensor in ``.grad`` during backward.

        It is filled after the tensor's own hooks have run (Note [hook order]).
        """
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        ref = _weak(self)

        def keep(grad):
            t = ref()
            if t is not None and grad is not None:
                t._grad = creation.clone(grad.detach(), "contiguous") if t._grad is None else \
                    t._grad + grad.detach()  # (torch's clone: contiguous, not preserved)
        self.grad_fn._retains_grad()[self._output_nr] = keep

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a
        replacement.  Returns a handle with ``remove()`` (Note [hook order])."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        fn = self.grad_fn
        if fn is not None:
            return fn._register_tensor_prehook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = {}
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = hook
        return handle

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` after a leaf's ``.grad`` has been accumulated."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = {}
        handle = RemovableHandle(self._post_accumulate_hooks)
        self._post_accumulate_hooks[handle.id] = hook
        return handle

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulate d(self)/d(leaf) into every leaf's ``.grad``."""
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """Same storage and version counter, no history (Note [version counter])."""
        out = alias(Tensor, self, self._data)
        return out

    def detach_(self):
        """Detach in place and return self (refused for views, as in torch)."""
        if self._base is not None and self._view_version is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self._grad_fn = None
        self._requires_grad = False
        base_requires_grad_changed(self)  # its views made in no_grad mode follow it
        return self

    @property
    def data(self):
        """Same storage, a **new** version counter, no history (Note [version counter])."""
        return alias(Tensor, self, self._data, share_version=False)

    @data.setter
    def data(self, value):
        if not isinstance(value, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and not (value.dtype.is_floating_point or value.dtype.is_complex):
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data
        self._storage = value.untyped_storage()
        self._device = value._device
        self._backend = value._backend

    def _alias_for_saving(self):
        out = alias(Tensor, self, self._data)
        out._base = self._base
        return out

    def _with_grad_fn(self, node, output_nr):
        out = alias(Tensor, self, self._data)
        out._base = self._base
        out._grad_fn = node
        out._output_nr = output_nr
        out._requires_grad = True
        return out

    # -- conversion -------------------------------------------------------------------------------
    def to(self, *args, **kwargs):
        """``to(dtype)``, ``to(device)``, ``to(device, dtype)``, ``to(other)``; self if unchanged.
        """
        return creation.convert(self, *args, **kwargs)

    def cpu(self):
        return creation.to(self, "cpu")

    def cuda(self, device=None, non_blocking=False):
        index = device.index if hasattr(device, "index") else device
        return creation.to(self, f"cuda:{index or 0}")

    def double(self):
        return creation.to(self, dtype=float64)

    def float(self):
        return creation.to(self, dtype=float32)

    def half(self):
        return creation.to(self, dtype=float16)

    def long(self):
        return creation.to(self, dtype=int64)

    def int(self):
        return creation.to(self, dtype=int32)

    def short(self):
        return creation.to(self, dtype=int16)

    def char(self):
        return creation.to(self, dtype=int8)

    def byte(self):
        return creation.to(self, dtype=uint8)

    def bool(self):
        return creation.to(self, dtype=bool_)

    def type_as(self, other):
        return creation.to(self, dtype=other.dtype)

    def clone(self, *, memory_format=None):
        return creation.clone(self, memory_format)

    def contiguous(self, memory_format=None):
        return self if self.is_contiguous() else creation.clone(self, "contiguous")

    def numpy(self, force=False):
        """The NumPy array sharing this CPU tensor's memory."""
        if force:
            return self.detach().cpu()._data
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        if self._device.type != "cpu":
            raise TypeError(f"can't convert {self._device} device type tensor to numpy. Use "
                            "Tensor.cpu() to copy the tensor to host memory first.")
        if self._data.dtype == bfloat16.np:
            raise TypeError("Got unsupported ScalarType BFloat16")
        for bit, name, fix in ((self._is_conj, "conjugate", "conj"), (self._is_neg, "negative",
                                                                     "neg")):
            if bit:  # Note [conj bit] in ops/spectral.py
                raise RuntimeError(f"Can't call numpy() on Tensor that has {name} bit set. Use "
                                   f"tensor.resolve_{fix}().numpy() instead.")
        self.untyped_storage().resizable = False  # Note [resize_ grows the storage]
        return self._data

    def __array__(self, dtype=None):  # torch's signature: Note [NumPy operands]
        return self.numpy() if dtype is None else self.numpy().astype(dtype, copy=False)

    def __array_wrap__(self, array):  # torch's signature: Note [NumPy operands]
        """A NumPy result as a tensor over its memory (a bool array as uint8, as torch)."""
        if array.dtype == bool:
            array = array.astype("uint8")
        return creation.from_numpy(array)

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               "to Scalar")
        return self._backend.to_host(self._data).reshape(-1)[0].item()

    def tolist(self):
        return self._backend.to_host(self._data).tolist()

    def __float__(self):
        if self.requires_grad:
            warn_once(_SCALAR_OF_GRAD_WARNING)  # int(), bool(), item() do not warn
        return float(self.item())

    def __complex__(self):
        if self.requires_grad:
            warn_once(_SCALAR_OF_GRAD_WARNING)  # int(), bool(), item() do not warn
        return complex(self.item())

    def __int__(self):
        return int(self.item())

    __long__ = __int__  # (Python 2's names, which torch keeps)

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __bool__(self):
        n = self._data.size
        if n != 1:
            which = "no values" if n == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {which} is ambiguous")
        return bool(self.item())

    __nonzero__ = __bool__

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reversed__(self):
        return self if self._data.ndim == 0 else self.flip(0)

    def __contains__(self, element):
        if isinstance(element, (TensorBase, numbers.Number)):
            return bool((element == self).any().item())
        raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed "
                           f"in a {type(element)}.")

    def __delitem__(self, idx):
        raise TypeError("Tensor does not support deleting items")

    def __hash__(self):
        return id(self)

    def __repr__(self, *, tensor_contents=None):
        with GradModeOff():
            values = self._backend.to_host(self._data)
        grad_fn = self.grad_fn
        tangent = autograd.forward_ad.tangent_of(self)  # a dual tensor's, in a dual level
        return _tensor_str.tensor_repr(
            values, self.dtype, device=None if self._device.type == "cpu" else str(self._device),
            grad_fn=None if grad_fn is None else _tensor_str.node_name(grad_fn),
            requires_grad=self._requires_grad,
            tangent=None if tangent is None else format(tangent, ""))

    def __format__(self, spec):
        if self._data.ndim == 0 and type(self) is Tensor:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __deepcopy__(self, memo):
        out = self.detach().clone()
        out._requires_grad = self._requires_grad
        if self._grad is not None:
            out._grad = self._grad.detach().clone()
        return out

    # -- views (ops/views.py; unbind and split: ops/joining.py) -----------------------------------
    def view(self, *size):
        if not size:
            raise TypeError("view() received an invalid combination of arguments - got (), but "
                            "expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n")
        if len(size) == 1 and isinstance(size[0], dtype_cls):
            return _dtype_view(self, size[0])
        return apply(V.view, self, size=_size_args(size))

    def view_as(self, other):
        return apply(V.view, self, size=tuple(other.shape))

    def reshape(self, *shape):
        return V.reshape(self, _required(shape, "reshape", "shape"))

    def reshape_as(self, other):
        return V.reshape(self, tuple(other.shape))

    def transpose(self, dim0, dim1):
        return apply(V.transpose, self, dim0=dim0, dim1=dim1)

    swapaxes = swapdims = transpose

    def transpose_(self, dim0, dim1):
        return apply_(V.transpose_inplace, self, dim0=dim0, dim1=dim1)

    swapaxes_ = swapdims_ = transpose_

    def resize_(self, *size):
        return V.resize_(self, _required(size, "resize_", "size"))

    def resize_as_(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"resize_as_(): argument 'the_template' (position 1) must be Tensor, "
                            f"not {type(other).__name__}")
        return V.resize_(self, other._data.shape)

    def t(self):
        return apply(V.t, self)

    def t_(self):
        return apply_(V.t_inplace, self)

    @property
    def T(self):
        return V.reverse_dims(self)

    @property
    def mT(self):
        return V.matrix_transpose(self)

    def permute(self, *dims):
        return apply(V.permute, self, dims=_size_args(dims))

    def movedim(self, source, destination):
        return V.movedim(self, source, destination)

    moveaxis = movedim

    def expand(self, *sizes):
        return V.expand_to(self, _required(sizes, "expand", "size"))

    def expand_as(self, other):
        return V.expand_to(self, tuple(other.shape))

    @numpy_names
    def squeeze(self, dim=None):
        return V.squeeze(self, dim)

    @numpy_names
    def unsqueeze(self, dim):
        return apply(V.unsqueeze, self, dim=dim)

    def squeeze_(self, dim=None):
        return V.squeeze(self, dim, in_place=True)

    def unsqueeze_(self, dim):
        return apply_(V.unsqueeze_inplace, self, dim=dim)

    def flatten(self, start_dim=0, end_dim=-1):
        return V.flatten(self, start_dim, end_dim)

    def unflatten(self, dim, sizes):
        return V.unflatten(self, dim, sizes)

    def narrow(self, dim, start, length):
        return V.narrow(self, dim, start, length)

    @numpy_names
    def select(self, dim, index):
        return apply(V.select, self, dim=dim, index=index)

    def unbind(self, dim=0):
        return joining.unbind(self, dim)

    def split(self, split_size, dim=0):
        return joining.split(self, split_size, dim)

    def chunk(self, chunks, dim=0):
        return joining.chunk(self, chunks, dim)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return apply(V.diagonal, self, offset_=offset, dim1=dim1, dim2=dim2)

    def as_strided(self, size, stride, storage_offset=None):
        V.check_as_strided(self, tuple(size), tuple(stride), storage_offset)
        return apply(V.as_strided, self, **V.as_strided_attrs(self, size, stride, storage_offset))

    def __getitem__(self, idx):
        return indexing.getitem(self, idx)

    def __setitem__(self, idx, value):
        indexing.setitem(self, idx, value)

    # -- copies, fills and random fills (ops/creation.py, ops/random_ops.py) ----------------------
    def copy_(self, src, non_blocking=False):
        return creation.copy_(self, src, non_blocking)

    def fill_(self, value):
        return creation.fill_(self, value)

    def zero_(self):
        return creation.zero_(self)

    def uniform_(self, a=0.0, b=1.0, generator=None):
        return random_ops.uniform_(self, a, b, generator)

    def normal_(self, mean=0.0, std=1.0, generator=None):
        return random_ops.normal_(self, mean, std, generator)

    def random_(self, from_=None, to=None, generator=None):
        return random_ops.random_(self, from_, to, generator)

    def bernoulli_(self, p=0.5, generator=None):
        return random_ops.bernoulli_(self, p, generator)

    def bernoulli(self, generator=None):
        return random_ops.bernoulli(self, generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return random_ops.multinomial(self, num_samples, replacement, generator)

    # -- arithmetic (ops/pointwise.py); Note [fast path] in ops/_dispatch.py ----------------------
    __add__ = __radd__ = binary(P.add)

    def add(self, other, *, alpha=1):
        return P.scaled(apply, P.add, self, other, alpha)

    __iadd__ = binary_(P.add)

    def add_(self, other, *, alpha=1):
        if alpha.__class__ is int and alpha == 1:
            return _ADD_(self, other)
        return P.scaled(apply_, P.add, self, other, alpha)

    __sub__ = binary(P.sub)

    def sub(self, other, *, alpha=1):
        return P.scaled(apply, P.sub, self, other, alpha)

    __isub__ = binary_(P.sub)

    def sub_(self, other, *, alpha=1):
        if alpha.__class__ is int and alpha == 1:
            return _SUB_(self, other)
        return P.scaled(apply_, P.sub, self, other, alpha)

    @_operator
    def __rsub__(self, other):
        return apply(P.rsub, self, other)

    __mul__ = __rmul__ = binary(P.mul)
    mul = binary(P.mul, operator=False)

    __imul__ = binary_(P.mul)
    mul_ = binary_(P.mul, operator=False)

    __truediv__ = __div__ = binary(P.div)

    def div(self, other, rounding_mode=None):
        return P.div_tensor(self, other, rounding_mode)

    __itruediv__ = __idiv__ = binary_(P.div)

    def div_(self, other, *, rounding_mode=None):
        if rounding_mode is None:
            return _DIV_(self, other)
        return P.div_tensor(self, other, rounding_mode, in_place=True)

    def __rtruediv__(self, other):
        try:  # torch's: reciprocal() * other, whatever other is (Note [NumPy operands])
            return apply(P.reciprocal, self) * other
        except TypeError:
            return NotImplemented

    __rdiv__ = __rtruediv__

    def floor_divide(self, other):
        return apply(P.floor_divide, self, other)

    __floordiv__ = _operator(floor_divide)

    @_operator
    def __rfloordiv__(self, other):
        return apply(P.floor_divide, other, self)

    def remainder(self, other):
        return P.remainder_any(self, other)

    __mod__ = _operator(remainder)

    @_operator
    def __rmod__(self, other):
        return P.remainder_any(other, self)

    def pow(self, exponent):
        return P.pow_any(self, exponent)

    __pow__ = _operator(pow)

    def pow_(self, exponent):
        return P.pow_any(self, exponent, in_place=True)

    __ipow__ = _operator(pow_)

    @_operator
    def __rpow__(self, base):
        return apply(P.rpow, self, base=base)

    def square(self):
        return P.pow_any(self, 2)

    def square_(self):
        return P.pow_any(self, 2, in_place=True)

    def __neg__(self):
        return apply(P.neg, self)

    neg = negative = __neg__

    def neg_(self):
        return apply_(P.neg, self)

    def __pos__(self):
        return self

    def __abs__(self):
        return apply(P.abs_, self)

    abs = __abs__

    def abs_(self):
        return apply_(P.abs_, self)

    # -- elementwise functions (ops/pointwise.py) -------------------------------------------------
    def exp(self):
        return apply(P.exp, self)

    def exp_(self):
        return apply_(P.exp, self)

    def log(self):
        return apply(P.log, self)

    def log_(self):
        return apply_(P.log, self)

    def sqrt(self):
        return apply(P.sqrt, self)

    def sqrt_(self):
        return apply_(P.sqrt, self)

    def rsqrt(self):
        return apply(P.rsqrt, self)

    def rsqrt_(self):
        return apply_(P.rsqrt, self)

    def sin(self):
        return apply(P.sin, self)

    def sin_(self):
        return apply_(P.sin, self)

    def cos(self):
        return apply(P.cos, self)

    def cos_(self):
        return apply_(P.cos, self)

    def tanh(self):
        return apply(P.tanh, self)

    def tanh_(self):
        return apply_(P.tanh, self)

    def sigmoid(self):
        return apply(P.sigmoid, self)

    def sigmoid_(self):
        return apply_(P.sigmoid, self)

    def log1p(self):
        return apply(P.log1p, self)

    def log1p_(self):
        return apply_(P.log1p, self)

    def expm1(self):
        return apply(P.expm1, self)

    def expm1_(self):
        return apply_(P.expm1, self)

    def erf(self):
        return apply(P.erf, self)

    def erf_(self):
        return apply_(P.erf, self)

    def erfc(self):
        return apply(P.erfc, self)

    def erfc_(self):
        return apply_(P.erfc, self)

    def atan2(self, other):
        return apply(P.atan2, self, other)

    arctan2 = atan2

    def atan2_(self, other):
        return apply_(P.atan2, self, other)

    def reciprocal(self):
        return apply(P.reciprocal, self)

    def reciprocal_(self):
        return apply_(P.reciprocal, self)

    def relu(self):
        return apply(P.relu, self)

    def relu_(self):
        return apply_(P.relu, self)

    def sign(self):
        return apply(P.sign, self)

    def sign_(self):
        return apply_(P.sign, self)

    def sgn(self):
        return apply(P.sgn, self)

    def sgn_(self):
        return apply_(P.sgn, self)

    def floor(self):
        return apply(P.floor, self)

    def floor_(self):
        return apply_(P.floor, self)

    def ceil(self):
        return apply(P.ceil, self)

    def ceil_(self):
        return apply_(P.ceil, self)

    def trunc(self):
        return apply(P.trunc, self)

    def trunc_(self):
        return apply_(P.trunc, self)

    def frac(self):
        return apply(P.frac, self)

    def frac_(self):
        return apply_(P.frac, self)

    def round(self, *, decimals=None):
        return P.round_tensor(self, decimals)

    def round_(self, *, decimals=None):
        return P.round_tensor(self, decimals, in_place=True)

    def isnan(self):
        return apply(P.isnan, self)

    def isinf(self):
        return apply(P.isinf, self)

    def isfinite(self):
        return apply(P.isfinite, self)

    def clamp(self, min=None, max=None):
        return P.clamp_tensor(self, min, max)

    clip = clamp

    def clamp_(self, min=None, max=None):
        return P.clamp_tensor(self, min, max, in_place=True)

    clip_ = clamp_

    def clamp_min(self, min):
        return P.clamp_one_bound(self, "min", min)

    def clamp_min_(self, min):
        return P.clamp_one_bound(self, "min", min, in_place=True)

    def clamp_max(self, max):
        return P.clamp_one_bound(self, "max", max)

    def clamp_max_(self, max):
        return P.clamp_one_bound(self, "max", max, in_place=True)

    def fmod(self, other):
        return P.fmod_any(self, other)

    def fmod_(self, other):
        return apply_(P.fmod_tensor if isinstance(other, TensorBase) else P.fmod, self, other)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return apply(P.nan_to_num, self, nan=nan, posinf=posinf, neginf=neginf)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return apply_(P.nan_to_num, self, nan=nan, posinf=posinf, neginf=neginf)

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return apply(P.isclose, self, other, rtol=rtol, atol=atol, equal_nan=equal_nan)

    def maximum(self, other):
        return apply(P.maximum, self, other)

    def minimum(self, other):
        return apply(P.minimum, self, other)

    def where(self, condition, other):
        return apply(P.where, condition, self, other)

    # -- comparisons and logic (ops/pointwise.py) -------------------------------------------------
    def eq(self, other):
        return apply(P.eq, self, other)

    def ne(self, other):
        return apply(P.ne, self, other)

    def lt(self, other):
        return apply(P.lt, self, other)

    def le(self, other):
        return apply(P.le, self, other)

    def gt(self, other):
        return apply(P.gt, self, other)

    def ge(self, other):
        return apply(P.ge, self, other)

    __ne__, __lt__, __le__, __gt__, __ge__ = map(_operator, (ne, lt, le, gt, ge))
    __eq__ = _operator(eq, read=_numeric_array_as_tensor)

    @_operator
    def __and__(self, other):
        return apply(P.bitwise_and, self, other)

    @_operator
    def __or__(self, other):
        return apply(P.bitwise_or, self, other)

    @_operator
    def __xor__(self, other):
        return apply(P.bitwise_xor, self, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __invert__(self):
        return apply(P.bitwise_not, self)

    def logical_not(self):
        return apply(P.logical_not, self)

    def equal(self, other):
        """True when both have the same shape and elements."""
        return self._data.shape == other._data.shape and bool(
            (self._data == other._data).all())

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return bool(self._backend.xp.allclose(self._data, other._data, rtol, atol, equal_nan))

    # -- fused pointwise ops and nn ops (ops/nn_ops.py) -------------------------------------------
    def addcmul(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcmul(self, tensor1, tensor2, value)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcmul(self, tensor1, tensor2, value, in_place=True)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcdiv(self, tensor1, tensor2, value)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcdiv(self, tensor1, tensor2, value, in_place=True)

    def lerp(self, end, weight):
        return nn_ops.lerp(self, end, weight)

    def lerp_(self, end, weight):
        return nn_ops.lerp(self, end, weight, in_place=True)

    @numpy_names
    def softmax(self, dim, dtype=None):
        return nn_ops.softmax(self if dtype is None else self.to(dtype), dim)

    @numpy_names
    def log_softmax(self, dim, dtype=None):
        return nn_ops.softmax(self if dtype is None else self.to(dtype), dim, log=True)

    # -- matrix products (ops/linalg.py) ----------------------------------------------------------
    def matmul(self, other):
        return linalg.matmul(self, other)

    __matmul__ = _operator(matmul)

    @_operator
    def __rmatmul__(self, other):
        return linalg.matmul(other, self)

    def mm(self, other):
        return linalg.mm(self, other)

    def mv(self, vec):
        return apply(linalg.mv_op, self, vec)

    def dot(self, other):
        return apply(linalg.dot_op, self, other)

    def bmm(self, other):
        return apply(linalg.bmm_op, self, other)

    # -- reductions and scans (ops/reduction.py) --------------------------------------------------
    @numpy_names
    def sum(self, dim=None, keepdim=False, dtype=None):
        return reduction.sum(self, dim, keepdim, dtype)

    @numpy_names
    def mean(self, dim=None, keepdim=False, dtype=None):
        return reduction.mean(self, dim, keepdim, dtype)

    def sum_to_size(self, *size):
        return reduction.sum_to_size(self, _required(size, "sum_to_size", "size"))

    @numpy_names
    def prod(self, dim=None, keepdim=False, dtype=None):
        return reduction.prod(self, dim, keepdim, dtype)

    @numpy_names
    def max(self, dim=None, keepdim=False):
        return reduction.max_min("max", self, dim, keepdim)

    @numpy_names
    def min(self, dim=None, keepdim=False):
        return reduction.max_min("min", self, dim, keepdim)

    @numpy_names
    def argmax(self, dim=None, keepdim=False):
        return reduction.argmax_min("argmax", self, dim, keepdim)

    @numpy_names
    def argmin(self, dim=None, keepdim=False):
        return reduction.argmax_min("argmin", self, dim, keepdim)

    @numpy_names
    def var(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return reduction.var_std(reduction.var, self, dim, unbiased, keepdim, correction)

    @numpy_names
    def std(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return reduction.var_std(reduction.std, self, dim, unbiased, keepdim, correction)

    @numpy_names
    def all(self, dim=None, keepdim=False):
        return reduction.all_any("all", self, dim, keepdim)

    @numpy_names
    def any(self, dim=None, keepdim=False):
        return reduction.all_any("any", self, dim, keepdim)

    @numpy_names
    def median(self, dim=None, keepdim=False):
        return reduction.median(self, dim, keepdim)

    @numpy_names
    def amax(self, dim=(), keepdim=False):
        return reduction.amax_amin("amax", self, dim, keepdim)

    @numpy_names
    def amin(self, dim=(), keepdim=False):
        return reduction.amax_amin("amin", self, dim, keepdim)

    @numpy_names
    def logsumexp(self, dim, keepdim=False):
        return reduction.logsumexp(self, dim, keepdim)

    def trace(self):
        return apply(reduction.trace_op, self)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return reduction.norm(self, p, dim, keepdim, dtype)

    @numpy_names
    def cumsum(self, dim, *, dtype=None):
        return reduction.cumsum(self, dim, dtype)

    @numpy_names
    def cumprod(self, dim, *, dtype=None):
        return reduction.cumprod(self, dim, dtype)

    @numpy_names
    def count_nonzero(self, dim=None):
        return reduction.count_nonzero(self, dim)

    # -- sorting (ops/sorting.py) -----------------------------------------------------------------
    def sort(self, dim=-1, descending=False, *, stable=None):
        return sorting.sort(self, dim, descending, stable)

    def argsort(self, dim=-1, descending=False, *, stable=False):
        return sorting.argsort(self, dim, descending, stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):
        return sorting.topk(self, k, dim, largest, sorted)

    # -- rearranging copies (ops/joining.py) ------------------------------------------------------
    def repeat(self, *repeats):
        return joining.repeat(self, _repeats(repeats))

    def tile(self, *dims):
        return joining.tile(self, _required(dims, "tile", "dims"))

    def flip(self, *dims):
        return joining.flip(self, _required(dims, "flip", "dims"))

    def roll(self, shifts, dims=None):
        return joining.roll(self, shifts, dims)

    # -- picking and putting by index or mask (ops/gathering.py, ops/indexing.py) -----------------
    @numpy_names
    def index_select(self, dim, index):
        return gathering.index_select(self, dim, index)

    def index_add(self, dim, index, source, *, alpha=1):
        return gathering.index_add(self, dim, index, source, alpha)

    def index_add_(self, dim, index, source, *, alpha=1):
        return gathering.index_add(self, dim, index, source, alpha, in_place=True)

    def index_fill(self, dim, index, value):
        return gathering.index_fill(self, dim, index, value)

    def index_fill_(self, dim, index, value):
        return gathering.index_fill(self, dim, index, value, in_place=True)

    def index_copy(self, dim, index, source):
        return gathering.index_copy(self, dim, index, source)

    def index_copy_(self, dim, index, source):
        return gathering.index_copy(self, dim, index, source, in_place=True)

    def scatter(self, dim, index, src=None, value=None, *, reduce=None):
        return gathering.scatter(self, dim, index, src, value, reduce)

    def scatter_(self, dim, index, src=None, value=None, *, reduce=None):
        return gathering.scatter(self, dim, index, src, value, reduce, in_place=True)

    def scatter_add(self, dim, index, src):
        return gathering.scatter_add(self, dim, index, src)

    def scatter_add_(self, dim, index, src):
        return gathering.scatter_add(self, dim, index, src, in_place=True)

    def gather(self, dim, index):
        return gathering.gather(self, dim, index)

    def masked_select(self, mask):
        return apply(gathering.masked_select_op, self, mask)

    def masked_fill(self, mask, value):
        return indexing.masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        return indexing.masked_fill(self, mask, value, in_place=True)

    def nonzero(self, *, as_tuple=False):
        return gathering.nonzero(self, as_tuple)

    def argwhere(self):
        return apply(gathering.nonzero_op, self)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return gathering.unique(self, return_inverse, return_counts, dim, sorted)

    def bincount(self, weights=None, minlength=0):
        return apply(gathering.bincount_op, self, weights, minlength=minlength)

    def diag(self, diagonal=0):
        return gathering.diag(self, diagonal)

    def tril(self, diagonal=0):
        return gathering.triangle("tril", self, diagonal)

    def triu(self, diagonal=0):
        return gathering.triangle("triu", self, diagonal)

    def tril_(self, diagonal=0):
        return gathering.triangle("tril", self, diagonal, in_place=True)

    def triu_(self, diagonal=0):
        return gathering.triangle("triu", self, diagonal, in_place=True)

    @staticmethod
    def _make_subclass(cls, data, require_grad=False):
        """A ``cls`` instance sharing ``data``'s storage and version counter, with no history
        (how ``nn.Parameter`` is made, as in torch)."""
        out = alias(cls, data, data._data)
        out._base = data._base
        out._requires_grad = bool(require_grad)
        return out

    # -- new tensors like this one ----------------------------------------------------------------
    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        return creation.tensor(data, dtype or self.dtype, device or self._device, requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        dtype = creation.dtype_arg("new_full", dtype)
        return creation.full(size, fill_value, dtype or self.dtype, device or self._device,
                             requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        dtype = creation.dtype_arg("new_zeros", dtype)
        return self.new_full(_size_args(size), 0, dtype, device, requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        dtype = creation.dtype_arg("new_ones", dtype)
        return self.new_full(_size_args(size), 1, dtype, device, requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        dtype = creation.dtype_arg("new_empty", dtype)
        return self.new_full(_size_args(size), 0, dtype, device, requires_grad)

    def new_empty_strided(self, size, stride, dtype=None, device=None, requires_grad=False):
        return creation.empty_strided(size, stride, dtype or self.dtype, device or self._device,
                                      requires_grad)

    def type(self, dtype=None, non_blocking=False):
        """No argument: the legacy type name (``'torch.FloatTensor'``); a dtype or such a name:
        ``to`` that dtype (self when unchanged)."""
        cuda = self._device.type == "cuda"
        if dtype is None:
            return f"torch.{'cuda.' if cuda else ''}{self.dtype.scalar_name}Tensor"
        if isinstance(dtype, type):  # a legacy type object, torch.FloatTensor: by its name
            dtype = f"torch.{dtype.__name__}"
        if isinstance(dtype, str):
            name = dtype
            on_cuda = name.startswith("torch.cuda.")
            name = name[len("torch.cuda."):] if on_cuda else name[len("torch."):] \
                if name.startswith("torch.") else None
            if name not in _DTYPES_BY_LEGACY_NAME:
                raise ValueError(f"invalid type: '{dtype}'")
            device = self._device if on_cuda == cuda else ("cuda" if on_cuda else "cpu")
            return creation.to(self, device, _DTYPES_BY_LEGACY_NAME[name])
        if not isinstance(dtype, dtype_cls):
            raise TypeError("dtype must be a type, str, or dtype object")
        return creation.to(self, dtype=dtype)

    # -- more elementwise functions: trig, hyperbolic, special functions, aliases (elementwise) --
    def tan(self):
        return apply(E.tan, self)

    def tan_(self):
        return apply_(E.tan, self)

    def asin(self):
        return apply(E.asin, self)

    def asin_(self):
        return apply_(E.asin, self)

    def acos(self):
        return apply(E.acos, self)

    def acos_(self):
        return apply_(E.acos, self)

    def atan(self):
        return apply(E.atan, self)

    def atan_(self):
        return apply_(E.atan, self)

    def sinh(self):
        return apply(E.sinh, self)

    def sinh_(self):
        return apply_(E.sinh, self)

    def cosh(self):
        return apply(E.cosh, self)

    def cosh_(self):
        return apply_(E.cosh, self)

    def asinh(self):
        return apply(E.asinh, self)

    def asinh_(self):
        return apply_(E.asinh_, self)

    def acosh(self):
        return apply(E.acosh, self)

    def acosh_(self):
        return apply_(E.acosh_, self)

    def atanh(self):
        return apply(E.atanh, self)

    def atanh_(self):
        return apply_(E.atanh_, self)

    arcsin, arcsin_, arccos, arccos_, arctan, arctan_ = asin, asin_, acos, acos_, atan, atan_
    arcsinh, arcsinh_, arccosh, arccosh_ = asinh, asinh_, acosh, acosh_
    arctanh, arctanh_ = atanh, atanh_

    def arctan2_(self, other):
        return apply_(P.atan2, self, other)

    def log2(self):
        return apply(E.log2, self)

    def log2_(self):
        return apply_(E.log2, self)

    def log10(self):
        return apply(E.log10, self)

    def log10_(self):
        return apply_(E.log10, self)

    def exp2(self):
        return apply(E.exp2, self)

    def exp2_(self):
        return apply_(E.exp2, self)

    def deg2rad(self):
        return apply(E.deg2rad, self)

    def deg2rad_(self):
        return apply_(E.deg2rad, self)

    def rad2deg(self):
        return apply(E.rad2deg, self)

    def rad2deg_(self):
        return apply_(E.rad2deg, self)

    def lgamma(self):
        return apply(SF.lgamma, self)

    def lgamma_(self):
        return apply_(SF.lgamma, self)

    def digamma(self):
        return apply(SF.digamma, self)

    def digamma_(self):
        return apply_(SF.digamma, self)

    def polygamma(self, n):
        return SF.polygamma_any(n, self)

    def polygamma_(self, n):
        return SF.polygamma_any(n, self, in_place=True)

    def mvlgamma(self, p):
        return apply(SF.mvlgamma, self, p=p)

    def mvlgamma_(self, p):
        return apply_(SF.mvlgamma, self, p=p)

    def erfinv(self):
        return apply(SF.erfinv, self)

    def erfinv_(self):
        return apply_(SF.erfinv, self)

    def i0(self):
        return apply(SF.i0, self)

    def i0_(self):
        return apply_(SF.i0, self)

    def sinc(self):
        return apply(SF.sinc, self)

    def sinc_(self):
        return apply_(SF.sinc, self)

    def logit(self, eps=None):
        _check_float("logit", "eps", eps)
        return apply(SF.logit, self, eps=eps) if eps is not None else apply(SF.logit, self)

    def logit_(self, eps=None):
        _check_float("logit_", "eps", eps)
        return apply_(SF.logit, self, eps=eps) if eps is not None else apply_(SF.logit, self)

    def xlogy(self, other):
        return SF.xlogy_any(self, other)

    def xlogy_(self, other):
        return SF.xlogy_any(self, other, in_place=True)

    def hypot(self, other):
        return apply(E.hypot, self, other)

    def hypot_(self, other):
        return apply_(E.hypot, self, other)

    def copysign(self, other):
        return E.copysign_any(self, other)

    def copysign_(self, other):
        return E.copysign_any(self, other, in_place=True)

    def logaddexp(self, other):
        return apply(E.logaddexp, self, other)

    def logaddexp2(self, other):
        return apply(E.logaddexp2, self, other)

    def fmax(self, other):
        return apply(E.fmax, self, other)

    def fmin(self, other):
        return apply(E.fmin, self, other)

    def heaviside(self, values):
        return apply(E.heaviside, self, values)

    def heaviside_(self, values):
        return apply_(E.heaviside, self, values)

    def nextafter(self, other):
        return apply(E.nextafter, self, other)

    def nextafter_(self, other):
        return apply_(E.nextafter, self, other)

    def ldexp(self, other):
        return apply(E.ldexp, self, other)

    def ldexp_(self, other):
        return E.ldexp_(self, other)

    def frexp(self):
        return E.frexp_any(self)

    def float_power(self, exponent):
        return E.float_power(self, exponent)

    def float_power_(self, exponent):
        return E.float_power(self, exponent, in_place=True)

    def igamma(self, other):
        return apply(SF.igamma, self, other)

    def igamma_(self, other):
        return apply_(SF.igamma, self, other)

    def igammac(self, other):
        return apply(SF.igammac, self, other)

    def igammac_(self, other):
        return apply_(SF.igammac, self, other)

    def gcd(self, other):
        return apply(E.gcd, self, other)

    def gcd_(self, other):
        return apply_(E.gcd, self, other)

    def lcm(self, other):
        return apply(E.lcm, self, other)

    def lcm_(self, other):
        return apply_(E.lcm, self, other)

    def signbit(self):
        return apply(E.signbit, self)

    def isposinf(self):
        return apply(E.isposinf, self)

    def isneginf(self):
        return apply(E.isneginf, self)

    def isreal(self):
        return creation.full_like(self, True, dtype=bool_)

    def positive(self):
        return E.positive(self)

    def absolute(self):
        return apply(P.abs_, self)

    def absolute_(self):
        return apply_(P.abs_, self)

    def negative_(self):
        return apply_(P.neg, self)

    def fix(self):
        return apply(P.trunc, self)

    def fix_(self):
        return apply_(P.trunc, self)

    multiply, subtract = mul, sub

    def multiply_(self, other):
        return self.mul_(other)

    def subtract_(self, other, *, alpha=1):
        return self.sub_(other, alpha=alpha)

    def divide(self, other, *, rounding_mode=None):
        return P.div_tensor(self, other, rounding_mode)

    def divide_(self, other, *, rounding_mode=None):
        return self.div_(other, rounding_mode=rounding_mode)

    def true_divide(self, other):
        return apply(P.div, self, other)

    def true_divide_(self, other):
        return self.div_(other)

    def floor_divide_(self, other):
        return apply_(P.floor_divide, self, other)

    def remainder_(self, other):
        op = P.remainder_tensor if isinstance(other, TensorBase) else P.remainder
        return apply_(op, self, other)

    __ifloordiv__, __imod__ = _operator(floor_divide_), _operator(remainder_)

    greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne

    def eq_(self, other):
        return E.compare_("eq", self, other)

    def ne_(self, other):
        return E.compare_("ne", self, other)

    def lt_(self, other):
        return E.compare_("lt", self, other)

    def le_(self, other):
        return E.compare_("le", self, other)

    def gt_(self, other):
        return E.compare_("gt", self, other)

    def ge_(self, other):
        return E.compare_("ge", self, other)

    greater_, greater_equal_, less_, less_equal_, not_equal_ = gt_, ge_, lt_, le_, ne_

    def bitwise_and(self, other):
        return apply(P.bitwise_and, self, other)

    def bitwise_and_(self, other):
        return apply_(P.bitwise_and, self, other)

    __iand__ = _operator(bitwise_and_)

    def bitwise_or(self, other):
        return apply(P.bitwise_or, self, other)

    def bitwise_or_(self, other):
        return apply_(P.bitwise_or, self, other)

    __ior__ = _operator(bitwise_or_)

    def bitwise_xor(self, other):
        return apply(P.bitwise_xor, self, other)

    def bitwise_xor_(self, other):
        return apply_(P.bitwise_xor, self, other)

    __ixor__ = _operator(bitwise_xor_)

    def bitwise_not(self):
        E.check_bitwise_not(self)
        return apply(P.bitwise_not, self)

    def bitwise_not_(self):
        E.check_bitwise_not(self)
        return apply_(P.bitwise_not, self)

    def bitwise_left_shift(self, other):
        return apply(E.bitwise_left_shift, self, other)

    def bitwise_left_shift_(self, other):
        return apply_(E.bitwise_left_shift, self, other)

    def bitwise_right_shift(self, other):
        return apply(E.bitwise_right_shift, self, other)

    def bitwise_right_shift_(self, other):
        return apply_(E.bitwise_right_shift, self, other)

    __lshift__, __ilshift__ = map(_operator, (bitwise_left_shift, bitwise_left_shift_))
    __rshift__, __irshift__ = map(_operator, (bitwise_right_shift, bitwise_right_shift_))

    @_operator
    def __rlshift__(self, other):
        return apply(E.bitwise_left_shift, other, self)

    @_operator
    def __rrshift__(self, other):
        return apply(E.bitwise_right_shift, other, self)

    def logical_and(self, other):
        return E.logical("logical_and", self, other, 1)

    def logical_and_(self, other):
        return E.logical("logical_and", self, other, 1, in_place=True)

    def logical_or(self, other):
        return E.logical("logical_or", self, other, 1)

    def logical_or_(self, other):
        return E.logical("logical_or", self, other, 1, in_place=True)

    def logical_xor(self, other):
        return E.logical("logical_xor", self, other, 1)

    def logical_xor_(self, other):
        return E.logical("logical_xor", self, other, 1, in_place=True)

    def logical_not_(self):
        return apply_(P.logical_not, self)

    # -- statistics, scans and searching (statistics) --
    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        return statistics.nansum(self, dim, keepdim, dtype)

    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        return statistics.nanmean(self, dim, keepdim, dtype)

    def aminmax(self, *, dim=None, keepdim=False):
        return statistics.aminmax(self, dim, keepdim)

    def nanmedian(self, dim=None, keepdim=False):
        return statistics.nanmedian(self, dim, keepdim)

    def mode(self, dim=-1, keepdim=False):
        return statistics.mode(self, dim, keepdim)

    def kthvalue(self, k, dim=-1, keepdim=False):
        return statistics.kthvalue(self, k, dim, keepdim)

    def cummax(self, dim):
        return statistics.cummax(self, dim)

    def cummin(self, dim):
        return statistics.cummin(self, dim)

    def logcumsumexp(self, dim):
        return statistics.logcumsumexp(self, dim)

    def cumsum_(self, dim, *, dtype=None):
        return statistics.scan_("cumsum", self, dim, dtype)

    def cumprod_(self, dim, *, dtype=None):
        return statistics.scan_("cumprod", self, dim, dtype)

    def msort(self):
        return self.sort(0).values

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return statistics.unique_consecutive(self, return_inverse, return_counts, dim)

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        return statistics.diff(self, n, dim, prepend, append)

    def histc(self, bins=100, min=0, max=0):  # noqa: A002  (torch's names)
        return statistics.histc(self, bins, min, max)

    def histogram(self, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
        return statistics.histogram(self, bins, range, weight, density)

    def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return statistics.quantile(self, q, dim, keepdim, interpolation)

    def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return statistics.quantile(self, q, dim, keepdim, interpolation, ignore_nan=True)

    def cov(self, *, correction=1, fweights=None, aweights=None):
        return statistics.cov(self, correction, fweights, aweights)

    def corrcoef(self):
        return statistics.corrcoef(self)

    # -- shapes, joining, splitting and the scatter/index families (shaping) --
    def ravel(self):
        return shaping.ravel(self)

    def broadcast_to(self, size):
        return V.expand_to(self, tuple(size))

    def fliplr(self):
        return shaping.fliplr(self)

    def flipud(self):
        return shaping.flipud(self)

    def rot90(self, k=1, dims=(0, 1)):
        return shaping.rot90(self, k, dims)

    def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
        return shaping.repeat_interleave(self, repeats, dim, output_size)

    def tensor_split(self, indices_or_sections, dim=0):
        return shaping.tensor_split(self, indices_or_sections, dim)

    def hsplit(self, indices_or_sections):
        return shaping.hvd_split("hsplit", self, indices_or_sections)

    def vsplit(self, indices_or_sections):
        return shaping.hvd_split("vsplit", self, indices_or_sections)

    def dsplit(self, indices_or_sections):
        return shaping.hvd_split("dsplit", self, indices_or_sections)

    def split_with_sizes(self, split_sizes, dim=0):
        return shaping.split_with_sizes(self, split_sizes, dim)

    def take(self, index):
        return shaping.take(self, index)

    def take_along_dim(self, indices, dim=None):
        return shaping.take_along_dim(self, indices, dim)

    def put(self, index, source, accumulate=False):
        return shaping.put(self, index, source, accumulate)

    def put_(self, index, source, accumulate=False):
        return shaping.put(self, index, source, accumulate, in_place=True)

    def unfold(self, dimension, size, step):
        return shaping.unfold(self, dimension, size, step)

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        return gathering.diag_embed(self, offset, dim1, dim2)

    def diagflat(self, offset=0):
        return shaping.diagflat(self, offset)

    def select_scatter(self, src, dim, index):
        return shaping.select_scatter(self, src, dim, index)

    def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
        return shaping.slice_scatter(self, src, dim, start, end, step)

    def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
        return shaping.diagonal_scatter(self, src, offset, dim1, dim2)

    def as_strided_scatter(self, src, size, stride, storage_offset=None):
        return shaping.as_strided_scatter(self, src, size, stride, storage_offset)

    def narrow_copy(self, dim, start, length):
        return shaping.narrow_copy(self, dim, start, length)

    def masked_scatter(self, mask, source):
        return shaping.masked_scatter(self, mask, source)

    def masked_scatter_(self, mask, source):
        return shaping.masked_scatter(self, mask, source, in_place=True)

    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        return gathering.scatter_reduce(self, dim, index, src, reduce, include_self)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        return gathering.scatter_reduce(self, dim, index, src, reduce, include_self, True)

    def index_reduce(self, dim, index, source, reduce, *, include_self=True):
        return gathering.index_reduce(self, dim, index, source, reduce, include_self)

    def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
        return gathering.index_reduce(self, dim, index, source, reduce, include_self, True)

    def index_put(self, indices, values, accumulate=False):
        return indexing.index_put_tensors("index_put", self, indices, values, accumulate)

    def index_put_(self, indices, values, accumulate=False):
        return indexing.index_put_tensors("index_put_", self, indices, values, accumulate, True)

    def fill_diagonal_(self, fill_value, wrap=False):
        return shaping.fill_diagonal_(self, fill_value, wrap)

    def as_strided_(self, size, stride, storage_offset=None):
        return shaping.as_strided_(self, size, stride, storage_offset)

    def resize(self, *sizes):
        warnings.warn("non-inplace resize is deprecated", stacklevel=2)
        return shaping.Resize.apply(self, sizes)

    def resize_as(self, tensor):
        warnings.warn("non-inplace resize_as is deprecated", stacklevel=2)
        return shaping.Resize.apply(self, tensor.shape)


    # -- linear algebra (linalg) --
    # decompositions (D2)
    def det(self):
        return _decompositions.det(self)

    def logdet(self):
        return _decompositions.logdet(self)

    def slogdet(self):
        return _decompositions.slogdet(self, legacy=True)

    def inverse(self):
        return _decompositions.inv(self)

    def cholesky(self, upper=False):
        return _decompositions.cholesky_legacy(self, upper)

    def cholesky_inverse(self, upper=False):
        return _decompositions.cholesky_inverse(self, upper)

    def cholesky_solve(self, input2, upper=False):
        return _decompositions.cholesky_solve(self, input2, upper)

    def qr(self, some=True):
        return _decompositions.qr_legacy(self, some)

    def geqrf(self):
        return _decompositions.geqrf(self)

    def orgqr(self, input2):
        return _decompositions.householder_product(self, input2)

    def ormqr(self, input2, input3, left=True, transpose=False):
        return _decompositions.ormqr(self, input2, input3, left, transpose)

    def svd(self, some=True, compute_uv=True):
        return _decompositions.svd_legacy(self, some, compute_uv)

    def lu(self, pivot=True, get_infos=False):
        return tuple(_decompositions.lu_legacy(self, pivot, get_infos))

    def lu_solve(self, LU_data, LU_pivots):  # noqa: N803 - torch's names
        return _decompositions.lu_solve_legacy(self, LU_data, LU_pivots)

    def matrix_power(self, n):
        return _decompositions.matrix_power(self, n)

    def matrix_exp(self):
        return _decompositions.matrix_exp(self)

    def pinverse(self, rcond=1e-15):
        return _decompositions.pinverse(self, rcond)

    def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
        return _decompositions.triangular_solve(self, A, upper, transpose, unitriangular)

    eig = _decompositions.removed("eig")
    lstsq = _decompositions.removed("lstsq")
    solve = _decompositions.removed("solve")
    symeig = _decompositions.removed("symeig")

    # products and norms (D1)
    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        return linalg.addmm(self, mat1, mat2, beta, alpha)

    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        return linalg.addmm(self, mat1, mat2, beta, alpha, in_place=True)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        return linalg.addmv(self, mat, vec, beta, alpha)

    def addmv_(self, mat, vec, *, beta=1, alpha=1):
        return linalg.addmv(self, mat, vec, beta, alpha, in_place=True)

    def addr(self, vec1, vec2, *, beta=1, alpha=1):
        return linalg.addr(self, vec1, vec2, beta, alpha)

    def addr_(self, vec1, vec2, *, beta=1, alpha=1):
        return linalg.addr(self, vec1, vec2, beta, alpha, in_place=True)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return linalg.baddbmm(self, batch1, batch2, beta, alpha)

    def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return linalg.baddbmm(self, batch1, batch2, beta, alpha, in_place=True)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return linalg.addbmm(self, batch1, batch2, beta, alpha)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return linalg.addbmm(self, batch1, batch2, beta, alpha, in_place=True)

    def vdot(self, other):
        return apply(linalg.vdot_op, self, other)

    def outer(self, vec2):
        return linalg.outer(self, vec2)

    ger = outer

    def inner(self, other):
        return linalg.inner(self, other)

    def kron(self, other):
        return linalg.kron(self, other)

    def cross(self, other, dim=None):
        return linalg.cross(self, other, dim)

    def dist(self, other, p=2):
        return linalg.dist(self, other, p)

    def renorm(self, p, dim, maxnorm):
        return linalg.renorm(self, p, dim, maxnorm)

    def renorm_(self, p, dim, maxnorm):
        return linalg.renorm(self, p, dim, maxnorm, in_place=True)


    # -- complex numbers and the spectral ops (complex) --
    _is_conj = False  # Note [conj bit] in ops/spectral.py
    _is_neg = False

    def is_complex(self):
        return self.dtype.is_complex

    def is_conj(self):
        return self._is_conj

    def is_neg(self):
        return self._is_neg

    def conj(self):
        return complex_numbers.conj(self)

    def conj_physical(self):
        return complex_numbers.conj_physical(self)

    def conj_physical_(self):
        return complex_numbers.conj_physical_(self)

    def resolve_conj(self):
        return complex_numbers.resolve_conj(self)

    def resolve_neg(self):
        return complex_numbers.resolve_neg(self)

    @property
    def real(self):
        return complex_numbers.real(self)

    @real.setter
    def real(self, value):
        complex_numbers.real(self).copy_(value)

    @property
    def imag(self):
        return complex_numbers.imag(self)

    @imag.setter
    def imag(self, value):
        complex_numbers.imag(self).copy_(value)

    def angle(self):
        return apply(complex_numbers.angle, self)

    def adjoint(self):
        return complex_numbers.adjoint(self)

    mH = property(adjoint)

    @property
    def H(self):
        return complex_numbers.hermitian(self)

    def cfloat(self):
        return creation.to(self, dtype=complex64)

    def cdouble(self):
        return creation.to(self, dtype=complex128)

    def chalf(self):
        return creation.to(self, dtype=complex32)

    def bfloat16(self):
        return creation.to(self, dtype=bfloat16)

    def stft(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
             pad_mode="reflect", normalized=False, onesided=None, return_complex=None):
        return spectral.stft(self, n_fft, hop_length, win_length, window, center, pad_mode,
                             normalized, onesided, return_complex)

    def istft(self, n_fft, hop_length=None, win_length=None, window=None, center=True,
              normalized=False, onesided=None, length=None, return_complex=False):
        return spectral.istft(self, n_fft, hop_length, win_length, window, center, normalized,
                              onesided, length, return_complex)


    # -- constants, dtype info, legacy spellings, samplers, device helpers (misc) --
    def exponential_(self, lambd=1.0, *, generator=None):
        """Fill with Exp(``lambd``) samples: torch's bits (Note [scalar samplers])."""
        return random_ops.exponential_(self, lambd, generator)

    def geometric_(self, p, *, generator=None):
        """Fill with geometric samples (trials up to the first success): torch's bits."""
        return random_ops.geometric_(self, p, generator)

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        """Fill with Cauchy samples: torch's bits."""
        return random_ops.cauchy_(self, median, sigma, generator)

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        """Fill with log-normal samples (``exp`` of N(mean, std)): torch's bits."""
        return random_ops.log_normal_(self, mean, std, generator)

    @property
    def is_cpu(self):
        return self._device.type == "cpu"

    # doctensor's tensors are dense and strided, on the CPU or a CUDA device: never sparse,
    # quantized, nested or meta, nor on another backend (code written for torch asks, as old
    # optimizers' ``if grad.is_sparse: raise ...``)
    is_sparse = is_sparse_csr = is_quantized = is_meta = is_nested = is_mkldnn = False
    is_mps = is_xpu = is_ipu = is_xla = is_vulkan = is_maia = is_mtia = False

    def is_distributed(self):
        return False

    @property
    def volatile(self):
        """Removed with Variable (PyTorch 0.4): always False, with torch's warning."""
        warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value):
        warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` "
                      "instead.", stacklevel=2)

    def reinforce(self, reward):
        """Removed with stochastic functions (PyTorch 0.4): torch's error."""
        raise RuntimeError(_REINFORCE_REMOVED)

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def nbytes(self):
        """The bytes of the elements (``numel() * itemsize``), not of the whole storage."""
        return self._data.size * self._data.itemsize

    @property
    def layout(self):
        return strided

    def ndimension(self):
        return self._data.ndim

    def dense_dim(self):
        return self._data.ndim  # a strided tensor's dimensions are all dense

    def to_dense(self, dtype=None, *, masked_grad=None):
        return self if dtype is None else self.to(dtype)

    def const_data_ptr(self):
        return self.data_ptr()

    def is_signed(self):
        return self.dtype.is_signed

    def is_nonzero(self):
        """The truth of a one-element tensor (what ``bool()`` gives, with its errors)."""
        return bool(self)

    def is_same_size(self, other):
        return self._data.shape == other._data.shape

    def is_set_to(self, tensor):
        """True when both use the same storage, offset, sizes and strides."""
        return (self.untyped_storage() is tensor.untyped_storage()
                and self.storage_offset() == tensor.storage_offset()
                and self._data.shape == tensor._data.shape
                and self.stride() == tensor.stride())

    def share_memory_(self):
        """Mark the storage as shared between processes and return self.  doctensor only
        records it (``is_shared()`` then says True): its storages are process-local NumPy
        memory, which ``torch.multiprocessing`` would move to shared memory; a no-op on CUDA."""
        if self._device.type == "cpu":
            self.untyped_storage().shared = True
        return self

    def is_shared(self):
        """Whether the storage was marked shared (always True on CUDA, as in torch)."""
        return self._device.type == "cuda" or self.untyped_storage().shared

    def is_pinned(self, device=None):
        return False  # doctensor never page-locks host memory

    def pin_memory(self, device=None):
        """A copy in page-locked memory, as torch: only with a real GPU (CuPy) present; else
        torch's error on a machine without an accelerator."""
        if backends.cuda_mode() != "cupy":
            raise RuntimeError("Cannot access accelerator device when none is available.")
        return creation.clone(self)

    def storage(self):
        """The deprecated typed view of ``untyped_storage()`` (warns once, as torch)."""
        warn_once(TYPED_STORAGE_DEPRECATED)
        return TypedStorage(self.untyped_storage(), self.dtype)

    def new(self, *args, device=None):
        """The legacy constructor with this tensor's dtype (``legacy_new``)."""
        return legacy_new(self.dtype, args, device or self._device)

    def as_subclass(self, cls):
        """This tensor's data as an instance of the Tensor subclass ``cls``: an alias
        (AliasBackward0 when it needs grad), sharing storage and version counter."""
        out = apply(V.alias_view, self)
        out.__class__ = cls
        return out

    def set_(self, source=None):
        """Make this tensor use ``source``'s storage, offset, sizes and strides (no argument:
        an empty storage); an in-place op (the version moves)."""
        source = creation.empty((0,), self.dtype, self._device) if source is None else source
        if source.dtype is not self.dtype:
            raise RuntimeError(f"Could not set tensor of type {source.dtype.c_name} to a tensor "
                               f"of type {self.dtype.c_name}")
        autograd_check_(self, source)
        self._data, self._storage, self._offset = source._data, source.untyped_storage(), None
        self._bump_version()
        return self

    def apply_(self, callable):
        """Replace each element ``x`` by ``callable(x)`` (Python numbers; CPU only).  Like
        torch's, it moves no version and records no history."""
        return self._map_elements(callable)

    def map_(self, tensor, callable):
        """``self[i] = callable(self[i], tensor[i])``, ``tensor`` broadcast to this shape."""
        return self._map_elements(callable, tensor)

    def map2_(self, x, y, callable):
        """``self[i] = callable(self[i], x[i], y[i])``."""
        return self._map_elements(callable, x, y)

    def _map_elements(self, fn, *others):
        if self._requires_grad or any(o._requires_grad for o in others):
            name = ("apply_", "map_", "map2_")[len(others)]
            raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                               f"var.detach().{name}() instead.")
        if self._device.type != "cpu":
            raise TypeError(f"{'map' if others else 'apply'}_ is only implemented on CPU tensors")
        for other in others:
            if other.dtype is not self.dtype:
                raise TypeError(f"map_: expected {self.type()} for 'other' (got {other.type()})")
        columns = [self._data.reshape(-1).tolist()] + [
            V.expand_to(o, self._data.shape).contiguous()._data.reshape(-1).tolist()
            for o in others]
        values = [fn(*args) for args in zip(*columns)]
        self._data[...] = np.array(values).astype(self._data.dtype).reshape(self._data.shape)
        return self

    def __reduce_ex__(self, protocol):
        """Pickle through the storage, as torch does: tensors pickled together that share a
        storage (a view and its base) share one again after loading; ``copy.copy`` shares
        it.  Attributes set on the tensor travel too; ``grad`` and history do not."""
        attrs = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        return (Tensor._rebuild, (type(self), self.untyped_storage(), self.dtype.name,
                                  self.storage_offset(), tuple(self._data.shape), self.stride(),
                                  self._requires_grad, attrs))

    @staticmethod
    def _rebuild(cls, storage, dtype_name, offset, size, stride, requires_grad=False,
                 attrs=None):
        """A ``cls`` tensor viewing ``storage`` (undoes ``__reduce_ex__``; doctensor.load uses
        it for torch's ``_rebuild_tensor_v2``).  Bounds are checked, with torch's messages."""
        from ._dtypes import by_name
        from ._tensor_base import _wrap
        dtype = by_name(dtype_name)
        buffer = storage.buffer
        if buffer.dtype != dtype.np:
            buffer = buffer.view(dtype.np)
        if offset < 0:
            raise RuntimeError(f"Tensor: invalid storage offset {offset}")
        if min(stride, default=0) < 0:
            raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} "
                               f"and strides={list(stride)}")
        numel = int(np.prod(size))
        need = 0 if numel == 0 else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
        if need * dtype.itemsize > storage.nbytes():
            raise RuntimeError("Trying to resize storage that is not resizable")
        data = storage.backend.as_strided(buffer, tuple(size), tuple(stride), offset)
        t = _wrap(cls, data, storage.device, storage.backend, bool(requires_grad))
        t._storage, t._offset = storage, (data, offset)
        t.__dict__.update(attrs or {})
        return t

    # -- rest of torch.* as methods: shrinks, nonzero_static, DLPack (misc2) --
    @property
    def name(self):
        """None: torch names tensors only inside its C++ autograd (read-only here too)."""
        return None

    @name.setter
    def name(self, value):
        raise AttributeError("attribute 'name' of 'torch._C.TensorBase' objects is not writable")

    def hardshrink(self, lambd=0.5):
        from .ops import activations  # (tensor.py names no other activation)
        return activations.hardshrink(self, lambd)

    def prelu(self, weight):
        from .ops import activations
        return activations.prelu(self, weight)

    def nonzero_static(self, *, size, fill_value=-1):
        """``nonzero()`` cut or padded (with ``fill_value`` rows) to exactly ``size`` rows."""
        if size < 0:
            raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
        found = gathering.nonzero(self)[:size]
        padding = creation.full((size - found.shape[0], found.shape[1]), fill_value,
                                found.dtype, self._device)
        return joining.cat([found, padding])

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export for DLPack consumers (``numpy.from_dlpack``, ``torch.from_dlpack``,
        ``cupy.from_dlpack``): the same memory, no copy.  A CUDA tensor on CuPy exports its
        CuPy array's (written for the GPU draw, never run on one yet); emulated CUDA memory is
        no device memory and is not exported."""
        if self._requires_grad:
            raise BufferError("Can't export tensors that require gradient, use "
                              "tensor.detach()")
        if self.is_conj():
            raise BufferError("Can't export tensors with the conjugate bit set")
        if self._backend.is_real_gpu:
            return self._data.__dlpack__(stream=stream, max_version=max_version,
                                         dl_device=dl_device, copy=copy)
        if self._device.type != "cpu":
            raise BufferError("doctensor: only CPU tensors can be exported through DLPack")
        if stream is not None and stream != -1:
            raise AssertionError("stream should be None on cpu.")
        return self._data.__dlpack__(max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        """(DLPack device type, index): (1, 0) on the CPU, (2, index) on CUDA."""
        return (1, 0) if self._device.type == "cpu" else (2, self._device.index or 0)


# the legacy tensor type names that ``Tensor.type()`` gives and takes: torch.FloatTensor, ...
_DTYPES_BY_LEGACY_NAME = {f"{d.scalar_name}Tensor": d for d in ALL_DTYPES}


def _inference_mode_on():
    return INFERENCE.on


class GradModeOff:
    """Printing records no history (a tiny no_grad without the decorator machinery)."""

    def __enter__(self):
        self.prev = GradMode.enabled
        GradMode.enabled = False

    def __exit__(self, *exc):
        GradMode.enabled = self.prev


def _weak(t):
    return weakref.ref(t)


def _dtype_view(t, dtype):
    """``view(dtype)``: the same bytes read as ``dtype`` (same itemsize only); like torch's,
    an alias with no history that autograd does not count as a view."""
    if dtype.itemsize != t.element_size():
        raise RuntimeError("self.element_size() must equal dtype.element_size() for a view "
                           "with a different dtype")
    return alias(Tensor, t, t._data.view(dtype.np))


set_tensor_class(Tensor)
install(Tensor, joining.stack, indexing.take_flat, indexing.put_flat)
check_methods(Tensor)  # torch's parser errors for bad calls (_argparser)


def legacy_new(dtype, args, device=None):
    """``torch.Tensor(...)`` / ``torch.FloatTensor(...)`` & co.: no arguments give an empty
    tensor, sizes (ints or a ``torch.Size``) a new tensor of that shape (zero-filled, like
    every doctensor ``empty``), a sequence its values converted to ``dtype``, and a tensor
    of that dtype an alias of it (same storage and version counter)."""
    device = device or "cpu"  # torch's default device does not apply to these (misc3)
    if not args:
        return creation.empty((0,), dtype, device)
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if first.dtype is not dtype:
            raise TypeError(f"expected {_options(dtype, first.device)} (got "
                            f"{_options(first.dtype, first.device)})")
        return first.detach()
    if isinstance(first, Size) or all(type(a) is int for a in args):
        shape = tuple(first) if isinstance(first, Size) else args
        for n in shape:
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: "
                                   f"{list(shape)}")
        return creation.empty(shape, dtype, device)
    if len(args) == 1 and not isinstance(first, (bool, int, float, complex)):
        return creation.tensor(first, dtype=dtype, device=device)
    raise TypeError(f"new(): data must be a sequence (got {type(first).__name__})")


def _options(dtype, device):
    return (f"TensorOptions(dtype={dtype.c_name}, device={device}, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")
