"""``Tensor``: thin methods over ``ops/``, Python operators, and autograd properties."""

import math
import warnings
import weakref

from . import _strides as S
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
from ._tensor_base import TensorBase, alias, warn_once
from .autograd.grad_mode import GradMode
from .ops import (
    _registry,
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
            if "_plain_views" in self.__dict__:  # Note [views of a base without history]
                V.base_requires_grad_changed(self)
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
            V.refresh_view_grad_fn(self)
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
        fn = self.grad_fn
        if fn._retains_grad_hooks is None:
            fn._retains_grad_hooks = {}
        fn._retains_grad_hooks[self._output_nr] = keep

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a
        replacement.  Returns a handle with ``remove()`` (Note [hook order])."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        fn = self.grad_fn
        if fn is not None:
            return fn._register_tensor_prehook(self._output_nr, hook)
        from .autograd.graph import RemovableHandle
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
        from .autograd.graph import RemovableHandle
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
        device = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        copy = kwargs.pop("copy", False)
        kwargs.pop("non_blocking", None)
        for a in args:
            if isinstance(a, Tensor):
                device, dtype = a._device, a.dtype
            elif isinstance(a, dtype_cls):
                dtype = a
            elif not isinstance(a, bool) and a is not None:
                device = a
        return creation.to(self, device, dtype, copy)

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

    # -- views ------------------------------------------------------------------------------------
    def view(self, *size):
        if len(size) == 1 and isinstance(size[0], dtype_cls):
            return _dtype_view(self, size[0])
        return V.make_view(self, V.view, {"size": _size_args(size)})

    def view_as(self, other):
        return self.view(other.shape)

    def reshape(self, *shape):
        """A view when strides allow (Note [view strides]), else a copy."""
        shape = S.infer_size(_size_args(shape), self._data.size)
        if self.is_contiguous():
            return V.make_view(self, V.view, {"size": shape})
        if S.view_strides(self._data.shape, self.stride(), shape) is not None:
            return V.make_view(self, V.reshape_alias, {"size": shape})
        return V.make_view(creation.clone(self, "contiguous"), V.unsafe_view, {"size": shape})

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def transpose(self, dim0, dim1):
        return V.make_view(self, V.transpose, {"dim0": dim0, "dim1": dim1})

    swapaxes = swapdims = transpose

    def transpose_(self, dim0, dim1):
        return V.restride_(self, V.transpose_inplace, {"dim0": dim0, "dim1": dim1})

    swapaxes_ = swapdims_ = transpose_

    def resize_(self, *size):
        return V.resize_(self, _size_args(size))

    def resize_as_(self, other):
        return V.resize_(self, tuple(other.shape))

    def t(self):
        return V.make_view(self, V.t, {})

    def t_(self):
        return V.restride_(self, V.t_inplace, {})

    def flip(self, *dims):
        return joining.flip(self, _size_args(dims))

    def cumsum(self, dim, dtype=None):
        return reduction.cumsum(self, dim, dtype)

    def cumprod(self, dim, dtype=None):
        return reduction.cumprod(self, dim, dtype)

    @property
    def T(self):
        n = self._data.ndim
        if n != 2 and n != 0:
            warnings.warn(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` "
                "to reverse the dimensions of a tensor. (Triggered internally at "
                "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)",
                UserWarning, stacklevel=2)
        return self.permute(*range(n - 1, -1, -1))

    @property
    def mT(self):
        if self._data.ndim < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                               f"Got {self._data.ndim}-D tensor.")
        return self.transpose(-2, -1)

    def permute(self, *dims):
        return V.make_view(self, V.permute, {"dims": _size_args(dims)})

    def movedim(self, source, destination):
        """The dims ``source`` moved to the places ``destination`` (the others keep their
        order): a permute, as in torch."""
        source = [source] if isinstance(source, int) else list(source)
        destination = [destination] if isinstance(destination, int) else list(destination)
        if len(source) != len(destination):
            raise RuntimeError(f"movedim: Invalid source or destination dims: source ({source} "
                               f"dims) should contain the same number of dims as destination "
                               f"({destination} dims)")
        n = max(self.dim(), 1)
        src = [S.wrap_dim(d, n) for d in source]
        dst = [S.wrap_dim(d, n) for d in destination]
        for name, dims, given in (("source", src, source), ("destination", dst, destination)):
            if len(set(dims)) != len(dims):
                raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
        order, rest = [None] * self.dim(), iter(d for d in range(self.dim()) if d not in src)
        for s, d in zip(src, dst):
            order[d] = s
        return self.permute([d if d is not None else next(rest) for d in order])

    moveaxis = movedim

    def tile(self, *dims):
        """``repeat`` with ``dims`` padded with leading 1s to the tensor's dims."""
        dims = _size_args(dims)
        return self.repeat((1,) * (self.dim() - len(dims)) + tuple(dims))

    def expand(self, *sizes):
        sizes = _size_args(sizes)
        if len(sizes) < self._data.ndim:
            from .autograd.graph import type_string
            raise RuntimeError(
                f"expand({type_string(self)}{{[{', '.join(map(str, self._data.shape))}]}}, "
                f"size=[{', '.join(map(str, sizes))}]): the number of sizes provided "
                f"({len(sizes)}) must be greater or equal to the number of dimensions in the "
                f"tensor ({self._data.ndim})")
        return V.make_view(self, V.expand, {"size": sizes})

    def expand_as(self, other):
        return self.expand(other.shape)

    def squeeze(self, dim=None):
        if dim is None:
            return V.make_view(self, V.squeeze_all, {})
        if isinstance(dim, (tuple, list)):
            return V.make_view(self, V.squeeze_dims, {"dims": tuple(dim)})
        return V.make_view(self, V.squeeze_dim, {"dim": dim})

    def unsqueeze(self, dim):
        return V.make_view(self, V.unsqueeze, {"dim": dim})

    def squeeze_(self, dim=None):
        if dim is None:
            return V.restride_(self, V.squeeze_inplace_all, {})
        if isinstance(dim, (tuple, list)):
            return V.restride_(self, V.squeeze_inplace_dims, {"dims": tuple(dim)})
        return V.restride_(self, V.squeeze_inplace_dim, {"dim": dim})

    def unsqueeze_(self, dim):
        return V.restride_(self, V.unsqueeze_inplace, {"dim": dim})

    def flatten(self, start_dim=0, end_dim=-1):
        n = self._data.ndim
        if n == 0:
            return self.reshape(1)
        s, e = S.wrap_dim(start_dim, n), S.wrap_dim(end_dim, n)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = self.shape
        return self.reshape(*shape[:s], -1, *shape[e + 1:])

    def unflatten(self, dim, sizes):
        d = S.wrap_dim(dim, self._data.ndim)
        shape = list(self.shape)
        if -1 not in sizes and math.prod(sizes) != shape[d]:
            raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't "
                               f"multiply up to the size of dim {dim} ({shape[d]}) in the input "
                               "tensor")
        sizes = list(S.infer_size(sizes, shape[d]))
        return self.view(*(shape[:d] + sizes + shape[d + 1:]))

    def narrow(self, dim, start, length):
        size = self.size(dim)
        if start < 0:
            start += size
        if not 0 <= start <= size or start + length > size or length < 0:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                               f"({size}).")
        return V.make_view(self, V.slice_, {"dim": dim, "start": start, "end": start + length,
                                             "step": 1})

    def select(self, dim, index):
        return V.make_view(self, V.select, {"dim": dim, "index": index})

    def unbind(self, dim=0):
        return V.unbind(self, dim)

    def split(self, split_size, dim=0):
        return V.split(self, split_size, dim)

    def chunk(self, chunks, dim=0):
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        size = self.size(dim)
        return V.split(self, max(-(-size // chunks), 1) if size else 1, dim)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        return V.make_view(self, V.diagonal, {"offset_": offset, "dim1": dim1, "dim2": dim2})

    def as_strided(self, size, stride, storage_offset=None):
        return V.make_view(self, V.as_strided, {"size": tuple(size), "stride": tuple(stride),
                                                "storage_offset": storage_offset})

    def __getitem__(self, idx):
        return indexing.getitem(self, idx)

    def __setitem__(self, idx, value):
        indexing.setitem(self, idx, value)

    # -- in-place ----------------------------------------------------------------------------------
    def copy_(self, src, non_blocking=False):
        return creation.copy_(self, src)

    def fill_(self, value):
        return creation.fill_(self, value)

    def zero_(self):
        return creation.zero_(self)

    def add_(self, other, alpha=1):
        return P.inplace(P.add, self, (other,), {"alpha": alpha} if alpha != 1 else None)

    def sub_(self, other, alpha=1):
        return P.inplace(P.sub, self, (other,), {"alpha": alpha} if alpha != 1 else None)

    def mul_(self, other):
        return P.inplace(P.mul, self, (other,))

    def div_(self, other):
        return P.inplace(P.div, self, (other,), floating=True)

    def pow_(self, exponent):
        if isinstance(exponent, Tensor):
            return P.inplace(P.pow_tensor, self, (exponent,))
        return P.inplace(P.pow_scalar, self, (), {"exponent": exponent}, scalars=(exponent,))

    def square_(self):
        return self.pow_(2)

    def clamp_(self, min=None, max=None):
        return P.inplace(P.clamp, self, (), {"min": min, "max": max},
                         scalars=tuple(v for v in (min, max) if v is not None))

    clip_ = clamp_

    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)

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

    # -- math -------------------------------------------------------------------------------------
    def add(self, other, alpha=1):
        if alpha == 1:
            return P.add_method(self, other)
        return P.run(P.add, (self, other), {"alpha": alpha})

    def sub(self, other, alpha=1):
        if alpha == 1:
            return P.sub_method(self, other)
        return P.run(P.sub, (self, other), {"alpha": alpha})

    mul = P.mul_method

    def div(self, other, rounding_mode=None):
        if rounding_mode is not None:
            if rounding_mode not in ("trunc", "floor"):
                raise ValueError("div expected rounding_mode to be one of None, 'trunc', or "
                                 f"'floor' but found '{rounding_mode}'")
            return P.run(P.div_rounding, (self, other), {"rounding_mode": rounding_mode})
        return P.div_method(self, other)

    def pow(self, exponent):
        if isinstance(exponent, Tensor):
            return P.run(P.pow_tensor, (self, exponent))
        return P.run(P.pow_scalar, (self,), {"exponent": exponent}, scalars=(exponent,))

    def square(self):
        return self.pow(2)

    __add__ = __radd__ = P.add_method  # Note [fast path] (ops/pointwise.py)
    __sub__ = P.sub_method
    __mul__ = __rmul__ = mul
    __truediv__ = P.div_method
    __pow__ = pow

    def __rsub__(self, other):
        return P.run(P.rsub, (self, other))

    def __rtruediv__(self, other):
        return self.reciprocal() * other

    def __rpow__(self, base):
        return P.run(P.rpow, (self,), {"base": base}, scalars=(base,))

    def __floordiv__(self, other):
        return P.run(P.floor_divide, (self, other))

    def __rfloordiv__(self, other):
        return P.run(P.floor_divide, (other, self))

    def __mod__(self, other):
        if isinstance(other, Tensor):
            return P.run(P.remainder_tensor, (self, other))
        return P.run(P.remainder, (self, other))

    remainder = __mod__

    def __neg__(self):
        return P.run(P.neg, (self,))

    neg = negative = __neg__

    def __pos__(self):
        return self

    def __abs__(self):
        return P.run(P.abs_, (self,))

    abs = __abs__

    def __matmul__(self, other):
        return linalg.matmul(self, other)

    def __rmatmul__(self, other):
        return linalg.matmul(other, self)

    matmul = __matmul__

    def mm(self, other):
        return linalg.mm(self, other)

    def mv(self, vec):
        return linalg.mv(self, vec)

    def dot(self, other):
        return linalg.dot(self, other)

    def bmm(self, other):
        return linalg.bmm(self, other)

    def exp(self):
        return P.run(P.exp, (self,), floating=True)

    def log(self):
        return P.run(P.log, (self,), floating=True)

    def sqrt(self):
        return P.run(P.sqrt, (self,), floating=True)

    def sin(self):
        return P.run(P.sin, (self,), floating=True)

    def cos(self):
        return P.run(P.cos, (self,), floating=True)

    def tanh(self):
        return P.run(P.tanh, (self,), floating=True)

    def sigmoid(self):
        return P.run(P.sigmoid, (self,), floating=True)

    def reciprocal(self):
        return P.run(P.reciprocal, (self,), floating=True)

    def relu(self):
        return P.run(P.relu, (self,))

    def sign(self):
        return P.run(P.sign, (self,))

    def sgn(self):
        return P.run(P.sgn, (self,))

    def floor(self):
        return P.run(P.floor, (self,))

    def ceil(self):
        return P.run(P.ceil, (self,))

    def trunc(self):
        return P.run(P.trunc, (self,))

    def frac(self):
        return P.run(P.frac, (self,))

    def floor_(self):
        return P.inplace(P.floor, self, ())

    def ceil_(self):
        return P.inplace(P.ceil, self, ())

    def trunc_(self):
        return P.inplace(P.trunc, self, ())

    def frac_(self):
        return P.inplace(P.frac, self, ())

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

    def nonzero(self, *, as_tuple=False):
        return gathering.nonzero(self, as_tuple)

    def argwhere(self):
        return gathering.nonzero(self)

    def tril(self, diagonal=0):
        return gathering.triangle("tril", self, diagonal)

    def triu(self, diagonal=0):
        return gathering.triangle("triu", self, diagonal)

    def tril_(self, diagonal=0):
        return gathering.triangle("tril", self, diagonal, in_place=True)

    def triu_(self, diagonal=0):
        return gathering.triangle("triu", self, diagonal, in_place=True)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return gathering.unique(self, return_inverse, return_counts, dim)

    def bincount(self, weights=None, minlength=0):
        return gathering.bincount(self, weights, minlength)

    def median(self, dim=None, keepdim=False):
        return reduction.median(self, dim, keepdim)

    def masked_select(self, mask):
        return gathering.masked_select(self, mask)

    def diag(self, diagonal=0):
        return gathering.diag(self, diagonal)

    def roll(self, shifts, dims=None):
        return joining.roll(self, shifts, dims)

    def amax(self, dim=(), keepdim=False):
        return reduction.amax_amin("amax", self, dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return reduction.amax_amin("amin", self, dim, keepdim)

    def logsumexp(self, dim, keepdim=False):
        return reduction.logsumexp(self, dim, keepdim)

    def trace(self):
        return reduction.trace(self)

    def isnan(self):
        return P.run(P.isnan, (self,))

    def isinf(self):
        return P.run(P.isinf, (self,))

    def isfinite(self):
        return P.run(P.isfinite, (self,))

    def clamp(self, min=None, max=None):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        return P.run(P.clamp, (self,), {"min": min, "max": max},
                     scalars=tuple(v for v in (min, max) if v is not None))

    clip = clamp

    def clamp_min(self, min):
        return P.run(P.clamp_min, (self,), {"min": min}, scalars=(min,))

    def clamp_max(self, max):
        return P.run(P.clamp_max, (self,), {"max": max}, scalars=(max,))

    def clamp_min_(self, min):
        return P.inplace(P.clamp_min, self, (), {"min": min}, scalars=(min,))

    def clamp_max_(self, max):
        return P.inplace(P.clamp_max, self, (), {"max": max}, scalars=(max,))

    def fmod(self, other):
        return P.run(P.fmod, (self, other))

    def fmod_(self, other):
        return P.inplace(P.fmod, self, (other,))

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return P.run(P.nan_to_num, (self,), {"nan": nan, "posinf": posinf, "neginf": neginf})

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return P.inplace(P.nan_to_num, self, (), {"nan": nan, "posinf": posinf,
                                                 "neginf": neginf})

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return P.run(P.isclose, (self, other),
                     {"rtol": rtol, "atol": atol, "equal_nan": equal_nan}, out_dtype=bool_)

    def floor_divide(self, other):
        return self // other

    def count_nonzero(self, dim=None):
        return (self != 0).sum(dim)

    def maximum(self, other):
        return P.run(P.maximum, (self, other))

    def minimum(self, other):
        return P.run(P.minimum, (self, other))

    # fused pointwise ops and softmax (ops/nn_ops.py)
    def addcmul(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcmul(self, tensor1, tensor2, value, inplace=False)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcmul(self, tensor1, tensor2, value)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcdiv(self, tensor1, tensor2, value, inplace=False)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return nn_ops.addcdiv(self, tensor1, tensor2, value)

    def lerp(self, end, weight):
        return nn_ops.lerp(self, end, weight, inplace=False)

    def lerp_(self, end, weight):
        return nn_ops.lerp(self, end, weight)

    def softmax(self, dim, dtype=None):
        return nn_ops.softmax(self if dtype is None else self.to(dtype), dim)

    def log_softmax(self, dim, dtype=None):
        return nn_ops.softmax(self if dtype is None else self.to(dtype), dim, log=True)

    @staticmethod
    def _make_subclass(cls, data, require_grad=False):
        """A ``cls`` instance sharing ``data``'s storage and version counter, with no history
        (how ``nn.Parameter`` is made, as in torch)."""
        out = alias(cls, data, data._data)
        out._base = data._base
        out._requires_grad = bool(require_grad)
        return out

    def exp_(self):
        return P.inplace(P.exp, self, (), floating=True)

    def sigmoid_(self):
        return P.inplace(P.sigmoid, self, (), floating=True)

    def relu_(self):
        return P.inplace(P.relu, self, ())

    def tanh_(self):
        return P.inplace(P.tanh, self, (), floating=True)

    def sqrt_(self):
        return P.inplace(P.sqrt, self, (), floating=True)

    def log_(self):
        return P.inplace(P.log, self, (), floating=True)

    def sin_(self):
        return P.inplace(P.sin, self, (), floating=True)

    def cos_(self):
        return P.inplace(P.cos, self, (), floating=True)

    def reciprocal_(self):
        return P.inplace(P.reciprocal, self, (), floating=True)

    def sign_(self):
        return P.inplace(P.sign, self, ())

    def sgn_(self):
        return P.inplace(P.sgn, self, ())

    def neg_(self):
        return P.inplace(P.neg, self, ())

    def abs_(self):
        return P.inplace(P.abs_, self, ())

    # comparisons and logic
    def _compare(self, op, other):
        if other is None:
            return op is P.ne
        return P.run(op, (self, other), out_dtype=bool_)

    def __eq__(self, other):
        return self._compare(P.eq, other)

    def __ne__(self, other):
        return self._compare(P.ne, other)

    def __lt__(self, other):
        return self._compare(P.lt, other)

    def __le__(self, other):
        return self._compare(P.le, other)

    def __gt__(self, other):
        return self._compare(P.gt, other)

    def __ge__(self, other):
        return self._compare(P.ge, other)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def __and__(self, other):
        return P.run(P.bitwise_and, (self, other))

    def __or__(self, other):
        return P.run(P.bitwise_or, (self, other))

    def __xor__(self, other):
        return P.run(P.bitwise_xor, (self, other))

    def __invert__(self):
        return P.run(P.bitwise_not, (self,))

    def logical_not(self):
        return P.run(P.logical_not, (self,), out_dtype=bool_)

    def equal(self, other):
        """True when both have the same shape and elements."""
        return self._data.shape == other._data.shape and bool(
            (self._data == other._data).all())

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return bool(self._backend.xp.allclose(self._data, other._data, rtol, atol, equal_nan))

    # -- reductions -------------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, dtype=None):
        return reduction.reduce("sum", self, dim, keepdim, dtype)

    def mean(self, dim=None, keepdim=False, dtype=None):
        return reduction.reduce("mean", self, dim, keepdim, dtype)

    def sum_to_size(self, *size):
        return reduction.sum_to_size(self, _size_args(size))

    def prod(self, dim=None, keepdim=False, dtype=None):
        return reduction.prod(self, dim, keepdim, dtype)

    def max(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            return self.maximum(dim)
        return reduction.max_min("max", self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            return self.minimum(dim)
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

    # -- rounding, sorting, norms, repeat, masked_fill, type --------------------------------------
    def rsqrt(self):
        return P.run(P.rsqrt, (self,), floating=True)

    def rsqrt_(self):
        return P.inplace(P.rsqrt, self, (), floating=True)

    def log1p(self):
        return P.run(P.log1p, (self,), floating=True)

    def log1p_(self):
        return P.inplace(P.log1p, self, (), floating=True)

    def expm1(self):
        return P.run(P.expm1, (self,), floating=True)

    def erf(self):
        return P.run(P.erf, (self,), floating=True)

    def erf_(self):
        return P.inplace(P.erf, self, (), floating=True)

    def erfc(self):
        return P.run(P.erfc, (self,), floating=True)

    def erfc_(self):
        return P.inplace(P.erfc, self, (), floating=True)

    def atan2(self, other):
        return P.run(P.atan2, (self, other), floating=True)

    arctan2 = atan2

    def atan2_(self, other):
        return P.inplace(P.atan2, self, (other,), floating=True)

    def expm1_(self):
        return P.inplace(P.expm1, self, (), floating=True)

    def round(self, *, decimals=None):
        return P.round_tensor(self, decimals)

    def round_(self, *, decimals=None):
        return P.round_tensor(self, decimals, in_place=True)

    def sort(self, dim=-1, descending=False, *, stable=None):
        return sorting.sort(self, dim, descending, stable)

    def argsort(self, dim=-1, descending=False, *, stable=False):
        return sorting.argsort(self, dim, descending, stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):
        return sorting.topk(self, k, dim, largest, sorted)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return reduction.norm(self, p, dim, keepdim, dtype)

    def repeat(self, *repeats):
        if not repeats:
            raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
        return joining.repeat(self, _size_args(repeats))

    def masked_fill(self, mask, value):
        return indexing.masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        return indexing.masked_fill(self, mask, value, in_place=True)

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


# the legacy tensor type names that ``Tensor.type()`` gives and takes: torch.FloatTensor, ...
_DTYPES_BY_LEGACY_NAME = {f"{d.scalar_name}Tensor": d for d in ALL_DTYPES}


def _inference_mode_on():
    from ._tensor_base import INFERENCE
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
    """``view(dtype)``: reinterpret the bytes (same itemsize only)."""
    if dtype.itemsize != t.element_size():
        raise RuntimeError("self.element_size() must equal dtype.element_size() for a view "
                           "with a different dtype")
    out = alias(Tensor, t, t._data.view(dtype.np))
    out._base = t._base if t._base is not None else t
    return out


_registry.set_tensor_class(Tensor)


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
