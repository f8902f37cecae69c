"""``Tensor``: thin methods over ``ops/``, Python operators, and autograd properties."""

import warnings
import weakref

from . import _tensor_str, autograd
from ._dtypes import ALL as ALL_DTYPES
from ._dtypes import (
    bool_,
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
from .autograd.grad_mode import GradMode
from .autograd.graph import RemovableHandle
from .autograd.installed import install
from .autograd.views import base_requires_grad_changed, refresh_view_grad_fn
from .ops import (
    creation,
    gathering,
    indexing,
    joining,
    linalg,
    nn_ops,
    random_ops,
    reduction,
    sorting,
)
from .ops import pointwise as P
from .ops import views as V
from .ops._dispatch import apply, apply_, binary, set_tensor_class
from .size import Size

__all__ = ["Tensor"]

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered "
    "internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")


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
        if value and not self.dtype.is_floating_point:
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
        if requires_grad and not self.dtype.is_floating_point:
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
                t._grad = grad.detach().clone() if t._grad is None else t._grad + grad.detach()
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
        return self

    @property
    def data(self):
        """Same storage, a **new** version counter, no history (Note [version counter])."""
        return alias(Tensor, self, self._data, share_version=False)

    @data.setter
    def data(self, value):
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

    def clone(self, memory_format=None):
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
        self.untyped_storage().resizable = False  # Note [resize_ grows the storage]
        return self._data

    def __array__(self, dtype=None, copy=None):
        host = self._backend.to_host(self._data)
        return host if dtype is None else host.astype(dtype)

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

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self):
        return id(self)

    def __repr__(self, *, tensor_contents=None):
        with GradModeOff():
            values = self._backend.to_host(self._data)
        grad_fn = self.grad_fn
        return _tensor_str.tensor_repr(
            values, self.dtype, device=None if self._device.type == "cpu" else str(self._device),
            grad_fn=None if grad_fn is None else type(grad_fn).__name__,
            requires_grad=self._requires_grad)

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
        if len(size) == 1 and isinstance(size[0], dtype_cls):
            return _dtype_view(self, size[0])
        return apply(V.view, self, size=_size_args(size))

    def view_as(self, other):
        return apply(V.view, self, size=tuple(other.shape))

    def reshape(self, *shape):
        return V.reshape(self, *shape)

    def reshape_as(self, other):
        return V.reshape(self, tuple(other.shape))

    def transpose(self, dim0, dim1):
        return apply(V.transpose, self, dim0=dim0, dim1=dim1)

    swapaxes = swapdims = transpose

    def transpose_(self, dim0, dim1):
        return apply_(V.transpose_inplace, self, dim0=dim0, dim1=dim1)

    swapaxes_ = swapdims_ = transpose_

    def resize_(self, *size):
        return V.resize_(self, _size_args(size))

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
        return V.expand_to(self, _size_args(sizes))

    def expand_as(self, other):
        return V.expand_to(self, tuple(other.shape))

    def squeeze(self, dim=None):
        return V.squeeze(self, dim)

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
        return apply(V.as_strided, self, size=tuple(size), stride=tuple(stride),
                     storage_offset=storage_offset)

    def __getitem__(self, idx):
        return indexing.getitem(self, idx)

    def __setitem__(self, idx, value):
        indexing.setitem(self, idx, value)

    # -- copies, fills and random fills (ops/creation.py, ops/random_ops.py) ----------------------
    def copy_(self, src, non_blocking=False):
        return creation.copy_(self, src)

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

    def add(self, other, alpha=1):
        return P.scaled(apply, P.add, self, other, alpha)

    def add_(self, other, alpha=1):
        return P.scaled(apply_, P.add, self, other, alpha)

    def __iadd__(self, other):
        return apply_(P.add, self, other)

    __sub__ = binary(P.sub)

    def sub(self, other, alpha=1):
        return P.scaled(apply, P.sub, self, other, alpha)

    def sub_(self, other, alpha=1):
        return P.scaled(apply_, P.sub, self, other, alpha)

    def __isub__(self, other):
        return apply_(P.sub, self, other)

    def __rsub__(self, other):
        return apply(P.rsub, self, other)

    __mul__ = __rmul__ = mul = binary(P.mul)

    def mul_(self, other):
        return apply_(P.mul, self, other)

    __imul__ = mul_

    __truediv__ = binary(P.div)

    def div(self, other, rounding_mode=None):
        return P.div_tensor(self, other, rounding_mode)

    def div_(self, other):
        return apply_(P.div, self, other)

    __itruediv__ = div_

    def __rtruediv__(self, other):
        return apply(P.reciprocal, self) * other

    def __floordiv__(self, other):
        return apply(P.floor_divide, self, other)

    floor_divide = __floordiv__

    def __rfloordiv__(self, other):
        return apply(P.floor_divide, other, self)

    def __mod__(self, other):
        return P.remainder_any(self, other)

    remainder = __mod__

    def pow(self, exponent):
        return P.pow_any(self, exponent)

    __pow__ = pow

    def pow_(self, exponent):
        return P.pow_any(self, exponent, in_place=True)

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
        return apply(P.clamp_min, self, min=min)

    def clamp_min_(self, min):
        return apply_(P.clamp_min, self, min=min)

    def clamp_max(self, max):
        return apply(P.clamp_max, self, max=max)

    def clamp_max_(self, max):
        return apply_(P.clamp_max, self, max=max)

    def fmod(self, other):
        return apply(P.fmod, self, other)

    def fmod_(self, other):
        return apply_(P.fmod, self, other)

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
    def __eq__(self, other):
        return apply(P.eq, self, other) if other is not None else False

    def __ne__(self, other):
        return apply(P.ne, self, other) if other is not None else True

    def __lt__(self, other):
        return apply(P.lt, self, other)

    def __le__(self, other):
        return apply(P.le, self, other)

    def __gt__(self, other):
        return apply(P.gt, self, other)

    def __ge__(self, other):
        return apply(P.ge, self, other)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def __and__(self, other):
        return apply(P.bitwise_and, self, other)

    def __or__(self, other):
        return apply(P.bitwise_or, self, other)

    def __xor__(self, other):
        return apply(P.bitwise_xor, self, other)

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

    def softmax(self, dim, dtype=None):
        return nn_ops.softmax(self if dtype is None else self.to(dtype), dim)

    def log_softmax(self, dim, dtype=None):
        return nn_ops.softmax(self if dtype is None else self.to(dtype), dim, log=True)

    # -- matrix products (ops/linalg.py) ----------------------------------------------------------
    def __matmul__(self, other):
        return linalg.matmul(self, other)

    matmul = __matmul__

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
    def sum(self, dim=None, keepdim=False, dtype=None):
        return reduction.sum(self, dim, keepdim, dtype)

    def mean(self, dim=None, keepdim=False, dtype=None):
        return reduction.mean(self, dim, keepdim, dtype)

    def sum_to_size(self, *size):
        return reduction.sum_to_size(self, _size_args(size))

    def prod(self, dim=None, keepdim=False, dtype=None):
        return reduction.prod(self, dim, keepdim, dtype)

    def max(self, dim=None, keepdim=False):
        return reduction.max_min("max", self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return reduction.max_min("min", self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return reduction.argmax_min("argmax", self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return reduction.argmax_min("argmin", self, dim, keepdim)

    def var(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return reduction.var_std(reduction.var, self, dim, unbiased, keepdim, correction)

    def std(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return reduction.var_std(reduction.std, self, dim, unbiased, keepdim, correction)

    def all(self, dim=None, keepdim=False):
        return reduction.all_any("all", self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        return reduction.all_any("any", self, dim, keepdim)

    def median(self, dim=None, keepdim=False):
        return reduction.median(self, dim, keepdim)

    def amax(self, dim=(), keepdim=False):
        return reduction.amax_amin("amax", self, dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return reduction.amax_amin("amin", self, dim, keepdim)

    def logsumexp(self, dim, keepdim=False):
        return reduction.logsumexp(self, dim, keepdim)

    def trace(self):
        return apply(reduction.trace_op, self)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return reduction.norm(self, p, dim, keepdim, dtype)

    def cumsum(self, dim, dtype=None):
        return reduction.cumsum(self, dim, dtype)

    def cumprod(self, dim, dtype=None):
        return reduction.cumprod(self, dim, dtype)

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
        return joining.tile(self, _size_args(dims))

    def flip(self, *dims):
        return joining.flip(self, _size_args(dims))

    def roll(self, shifts, dims=None):
        return joining.roll(self, shifts, dims)

    # -- picking and putting by index or mask (ops/gathering.py, ops/indexing.py) -----------------
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
        return gathering.unique(self, return_inverse, return_counts, dim)

    def bincount(self, weights=None, minlength=0):
        return apply(gathering.bincount_op, self, weights, minlength=minlength)

    def diag(self, diagonal=0):
        return gathering.diag(self, diagonal)

    def tril(self, diagonal=0):
        return apply(gathering.tril_op, self, diagonal=diagonal)

    def triu(self, diagonal=0):
        return apply(gathering.triu_op, self, diagonal=diagonal)

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
        return creation.full(size, fill_value, dtype or self.dtype, device or self._device,
                             requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_size_args(size), 0, dtype, device, requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_size_args(size), 1, dtype, device, requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
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

    # -- statistics, scans and searching (statistics) --

    # -- shapes, joining, splitting and the scatter/index families (shaping) --

    # -- linear algebra (linalg) --

    # -- complex numbers and the spectral ops (complex) --

    # -- constants, dtype info, legacy spellings, samplers, device helpers (misc) --


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


def legacy_new(dtype, args, device=None):
    """``torch.Tensor(...)`` / ``torch.FloatTensor(...)`` & co.: no arguments give an empty
    tensor, sizes (ints or a ``torch.Size``) a new tensor of that shape (zero-filled, like
    every doctensor ``empty``), a sequence its values converted to ``dtype``, and a tensor
    of that dtype an alias of it (same storage and version counter)."""
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
