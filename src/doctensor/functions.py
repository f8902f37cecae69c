"""The ``torch.*`` functions: each one calls the op or the Tensor method it names."""


import builtins

from . import _dtypes
from ._dtypes import get_default_dtype
from ._strides import (
    broadcast_shapes as _broadcast_two,
)
from ._strides import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
)
from ._tensor_base import warn_once
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
    views,
)
from .ops import pointwise as P
from .ops._dispatch import apply
from .size import Size
from .tensor import Tensor, legacy_new

__all__ = [
    "FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor",
    "CharTensor", "ByteTensor", "BoolTensor",
    "tensor", "as_tensor", "from_numpy", "zeros", "ones", "empty", "full", "arange", "linspace",
    "eye", "zeros_like", "ones_like", "empty_like", "full_like", "empty_strided", "rand",
    "randn", "randint", "memory_format", "contiguous_format", "preserve_format",
    "channels_last", "channels_last_3d",
    "randperm", "rand_like", "randn_like", "randint_like", "bernoulli", "multinomial", "normal",
    "constant_pad_nd", "broadcast_shapes", "broadcast_tensors", "scatter", "scatter_add",
    "movedim", "moveaxis", "swapaxes", "swapdims", "tile", "erf", "erfc", "atan2", "arctan2",
    "index_add", "index_fill", "index_copy",
    "is_tensor", "numel", "add", "sub", "rsub", "mul", "div", "true_divide", "pow", "neg", "abs",
    "exp", "as_strided",
    "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "clamp", "clip", "where", "maximum",
    "minimum", "sum", "mean", "prod", "max", "min", "argmax", "argmin", "std", "var", "matmul",
    "mm", "mv", "dot", "bmm", "addmm", "cat", "concat", "stack", "equal", "allclose", "eq",
    "ne", "lt", "le", "gt", "ge", "reshape", "flatten", "squeeze", "unsqueeze", "transpose",
    "t", "permute", "narrow", "select", "unbind", "split", "chunk", "diagonal", "clone",
    "detach", "sign", "sgn", "clamp_min", "clamp_max", "fmod", "remainder", "floor_divide",
    "nan_to_num", "isclose", "count_nonzero", "outer", "index_select", "gather", "nonzero",
    "argwhere", "tril", "triu", "logspace", "unique", "bincount", "meshgrid", "masked_select",
    "diag", "roll", "amax", "amin", "logsumexp", "median", "cumprod",
    "trace",
    "floor", "ceil", "trunc", "frac", "isnan", "isinf", "isfinite",
    "reciprocal", "all", "any", "square",
    "rsqrt", "log1p", "expm1", "round", "sort", "argsort", "topk", "norm", "masked_fill",
    "flip", "cumsum",
    # nn ops that torch also exposes as torch.* (ops/nn_ops.py)
    "softmax", "log_softmax", "dropout", "addcmul", "addcdiv", "lerp", "embedding",
    "layer_norm", "group_norm", "batch_norm", "binary_cross_entropy_with_logits",
]


def _size(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


# -- creation -------------------------------------------------------------------------------------

tensor = creation.tensor
as_tensor = creation.as_tensor
from_numpy = creation.from_numpy
arange = creation.arange
linspace = creation.linspace
logspace = creation.logspace
eye = creation.eye


def zeros(*size, dtype=None, device=None, requires_grad=False):
    for d in _size(size):
        if isinstance(d, int) and d < 0:
            raise RuntimeError("zeros: Dimension size must be non-negative.")
    return creation.full(_size(size), 0, dtype or get_default_dtype(), device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return creation.full(_size(size), 1, dtype or get_default_dtype(), device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return creation.empty(_size(size), dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    return creation.full(size, fill_value, dtype, device, requires_grad)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return creation.full_like(input, 0, dtype, device, requires_grad, memory_format)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return creation.full_like(input, 1, dtype, device, requires_grad, memory_format)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return creation.full_like(input, 0, dtype, device, requires_grad, memory_format)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False,
              memory_format=None):
    return creation.full_like(input, fill_value, dtype, device, requires_grad, memory_format)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False):
    return creation.empty_strided(size, stride, dtype, device, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    return random_ops.rand(_size(size), generator, dtype, device, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    return random_ops.randn(_size(size), generator, dtype, device, requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    if size is None:
        low, high, size = 0, low, high
    return random_ops.randint(low, high, tuple(size), generator, dtype, device, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    return random_ops.randperm(n, generator, dtype, device, requires_grad)


def rand_like(input, *, dtype=None, device=None, requires_grad=False):
    return random_ops.rand(input, None, dtype or input.dtype, device, requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad=False):
    return random_ops.randn(input, None, dtype or input.dtype, device, requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False):
    if high is None:
        low, high = 0, low
    return random_ops.randint(low, high, input, None, dtype or input.dtype, device,
                              requires_grad)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    return random_ops.multinomial(input, num_samples, replacement, generator)


def bernoulli(input, p=None, generator=None):
    if p is not None:
        return input.new_zeros(input.shape).bernoulli_(p, generator)
    return random_ops.bernoulli(input, generator)


def normal(mean, std=1.0, size=None, generator=None):
    """torch.normal: float mean/std with ``size``, or tensor mean/std (A.4.6)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        like = mean if isinstance(mean, Tensor) else std
        shape = like.shape
        if isinstance(mean, Tensor) and isinstance(std, Tensor):
            shape = _broadcast_two(tuple(mean.shape), tuple(std.shape))
        out = creation.full(tuple(shape), 0, like.dtype, like.device)
        out.normal_(0.0, 1.0, generator)
        return out * std + mean
    return creation.full(tuple(size), 0, get_default_dtype()).normal_(mean, std, generator)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


# -- math -----------------------------------------------------------------------------------------

def add(input, other, *, alpha=1):
    return P.scaled(apply, P.add, input, other, alpha) if isinstance(input, Tensor) else \
        apply(P.add, other, input)


def sub(input, other, *, alpha=1):
    return P.scaled(apply, P.sub, input, other, alpha)


def rsub(input, other, *, alpha=1):
    """``other - alpha * input``."""
    op = P.rsub_tensor if isinstance(other, Tensor) else P.rsub
    return P.scaled(apply, op, input, other, alpha)


def as_strided(input, size, stride, storage_offset=None):
    return input.as_strided(size, stride, storage_offset)


def mul(input, other):
    return apply(P.mul, input, other) if isinstance(input, Tensor) else \
        apply(P.mul, other, input)


def div(input, other, *, rounding_mode=None):
    return P.div_tensor(input, other, rounding_mode)


true_divide = div


def pow(input, exponent):
    return P.pow_any(input, exponent) if isinstance(input, Tensor) else \
        apply(P.rpow, exponent, base=input)


def neg(input):
    return apply(P.neg, input)


def abs(input):
    return apply(P.abs_, input)


def exp(input):
    return apply(P.exp, input)


def log(input):
    return apply(P.log, input)


def sqrt(input):
    return apply(P.sqrt, input)


def square(input):
    return P.pow_any(input, 2)


def sin(input):
    return apply(P.sin, input)


def cos(input):
    return apply(P.cos, input)


def tanh(input):
    return apply(P.tanh, input)


def sigmoid(input):
    return apply(P.sigmoid, input)


def relu(input):
    return apply(P.relu, input)


def sign(input):
    return apply(P.sign, input)


def sgn(input):
    return apply(P.sgn, input)


def clamp_min(input, min):
    return apply(P.clamp_min, input, min=min)


def clamp_max(input, max):
    return apply(P.clamp_max, input, max=max)


def fmod(input, other):
    return apply(P.fmod, input, other)


def remainder(input, other):
    return P.remainder_any(input, other)


def floor_divide(input, other):
    return apply(P.floor_divide, input, other)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return apply(P.nan_to_num, input, nan=nan, posinf=posinf, neginf=neginf)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return apply(P.isclose, input, other, rtol=rtol, atol=atol, equal_nan=equal_nan)


def count_nonzero(input, dim=None):
    return reduction.count_nonzero(input, dim)


def outer(input, vec2):
    """torch's composite: ``input.reshape(-1, 1) * vec2`` (MulBackward0 after ViewBackward0)."""
    return apply(P.mul, views.reshape(input, -1, 1), vec2)


def index_select(input, dim, index):
    return gathering.index_select(input, dim, index)


def index_add(input, dim, index, source, *, alpha=1):
    return gathering.index_add(input, dim, index, source, alpha)


def index_fill(input, dim, index, value):
    return gathering.index_fill(input, dim, index, value)


def index_copy(input, dim, index, source):
    return gathering.index_copy(input, dim, index, source)


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    return gathering.scatter(input, dim, index, src, value, reduce)


def scatter_add(input, dim, index, src):
    return gathering.scatter_add(input, dim, index, src)


def gather(input, dim, index):
    return gathering.gather(input, dim, index)


def nonzero(input, *, as_tuple=False):
    return gathering.nonzero(input, as_tuple)


def argwhere(input):
    return apply(gathering.nonzero_op, input)


def masked_select(input, mask):
    return apply(gathering.masked_select_op, input, mask)


def diag(input, diagonal=0):
    return gathering.diag(input, diagonal)


def cumprod(input, dim, *, dtype=None):
    return reduction.cumprod(input, dim, dtype)


def median(input, dim=None, keepdim=False):
    return reduction.median(input, dim, keepdim)


def roll(input, shifts, dims=None):
    return joining.roll(input, shifts, dims)


def amax(input, dim=(), keepdim=False):
    return reduction.amax_amin("amax", input, dim, keepdim)


def amin(input, dim=(), keepdim=False):
    return reduction.amax_amin("amin", input, dim, keepdim)


def logsumexp(input, dim, keepdim=False):
    return reduction.logsumexp(input, dim, keepdim)


def trace(input):
    return apply(reduction.trace_op, input)


def tril(input, diagonal=0):
    return apply(gathering.tril_op, input, diagonal=diagonal)


def triu(input, diagonal=0):
    return apply(gathering.triu_op, input, diagonal=diagonal)


def floor(input):
    return apply(P.floor, input)


def ceil(input):
    return apply(P.ceil, input)


def trunc(input):
    return apply(P.trunc, input)


def frac(input):
    return apply(P.frac, input)


def isnan(input):
    return apply(P.isnan, input)


def isinf(input):
    return apply(P.isinf, input)


def isfinite(input):
    return apply(P.isfinite, input)


def reciprocal(input):
    return apply(P.reciprocal, input)


def clamp(input, min=None, max=None):
    return P.clamp_tensor(input, min, max)


clip = clamp


def where(condition, input=None, other=None):
    """``where(condition, input, other)``; ``where(condition)`` is ``nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return gathering.nonzero(condition, as_tuple=True)
    return apply(P.where, condition, input, other)


def maximum(input, other):
    return apply(P.maximum, input, other)


def minimum(input, other):
    return apply(P.minimum, input, other)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    return reduction.sum(input, dim, keepdim, dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    return reduction.mean(input, dim, keepdim, dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    return reduction.prod(input, dim, keepdim, dtype)


def max(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return apply(P.maximum, input, dim)
    return reduction.max_min("max", input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return apply(P.minimum, input, dim)
    return reduction.max_min("min", input, dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return reduction.argmax_min("argmax", input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return reduction.argmax_min("argmin", input, dim, keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return reduction.var_std(reduction.std, input, dim, unbiased, keepdim, correction)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return reduction.var_std(reduction.var, input, dim, unbiased, keepdim, correction)


def all(input, dim=None, keepdim=False):
    return reduction.all_any("all", input, dim, keepdim)


def any(input, dim=None, keepdim=False):
    return reduction.all_any("any", input, dim, keepdim)


matmul = linalg.matmul
mm = linalg.mm


def mv(input, vec):
    return apply(linalg.mv_op, input, vec)


def dot(input, other):
    return apply(linalg.dot_op, input, other)


def bmm(input, mat2):
    return apply(linalg.bmm_op, input, mat2)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return linalg.addmm(input, mat1, mat2, beta, alpha)


def broadcast_shapes(*shapes):
    """The shape that all ``shapes`` (ints or sequences) broadcast to, as a ``Size``."""
    shapes = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    result = [1] * builtins.max(map(len, shapes), default=0)
    for i, shape in enumerate(shapes):
        for j in range(-1, -1 - len(shape), -1):
            if shape[j] == 1 or shape[j] == result[j]:
                continue
            if result[j] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[j]} at "
                                   f"{j}! Mismatching argument at index {i} had {shape}; but "
                                   f"expected shape should be broadcastable to {result}")
            result[j] = shape[j]
    return Size(result)


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (one that has it already is returned)."""
    shape = ()
    for t in tensors:
        shape = _broadcast_two(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else views.expand_to(t, shape)
                 for t in tensors)


def cat(tensors, dim=0):
    return joining.cat(tensors, dim)


concat = cat


def constant_pad_nd(input, pad, value=0):
    return joining.constant_pad(input, pad, value)


def stack(tensors, dim=0):
    return joining.stack(tensors, dim)


def flip(input, dims):
    return joining.flip(input, dims)


def cumsum(input, dim, *, dtype=None):
    return reduction.cumsum(input, dim, dtype)


def equal(input, other):
    return input.equal(other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.allclose(other, rtol, atol, equal_nan)


def eq(input, other):
    return apply(P.eq, input, other)


def ne(input, other):
    return apply(P.ne, input, other)


def lt(input, other):
    return apply(P.lt, input, other)


def le(input, other):
    return apply(P.le, input, other)


def gt(input, other):
    return apply(P.gt, input, other)


def ge(input, other):
    return apply(P.ge, input, other)


def rsqrt(input):
    return apply(P.rsqrt, input)


def log1p(input):
    return apply(P.log1p, input)


def expm1(input):
    return apply(P.expm1, input)


def erf(input):
    return apply(P.erf, input)


def erfc(input):
    return apply(P.erfc, input)


def atan2(input, other):
    return apply(P.atan2, input, other)


arctan2 = atan2


def round(input, *, decimals=None):  # noqa: A001  (torch.round)
    return P.round_tensor(input, decimals)


def sort(input, dim=-1, descending=False, stable=None):
    return sorting.sort(input, dim, descending, stable)


def argsort(input, dim=-1, descending=False, stable=False):
    return sorting.argsort(input, dim, descending, stable)


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    return sorting.topk(input, k, dim, largest, sorted)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    return reduction.norm(input, p, dim, keepdim, dtype)


def masked_fill(input, mask, value):
    return indexing.masked_fill(input, mask, value)


# -- shapes ---------------------------------------------------------------------------------------

def reshape(input, shape):
    return views.reshape(input, shape)


def flatten(input, start_dim=0, end_dim=-1):
    return views.flatten(input, start_dim, end_dim)


def squeeze(input, dim=None):
    return views.squeeze(input, dim)


def unsqueeze(input, dim):
    return apply(views.unsqueeze, input, dim=dim)


def transpose(input, dim0, dim1):
    return apply(views.transpose, input, dim0=dim0, dim1=dim1)


swapaxes = swapdims = transpose


def t(input):
    return apply(views.t, input)


def permute(input, dims):
    return apply(views.permute, input, dims=tuple(dims))


def movedim(input, source, destination):
    return views.movedim(input, source, destination)


moveaxis = movedim


def tile(input, dims):
    return joining.tile(input, tuple(dims))


def narrow(input, dim, start, length):
    return views.narrow(input, dim, start, length)


def select(input, dim, index):
    return apply(views.select, input, dim=dim, index=index)


def unbind(input, dim=0):
    return joining.unbind(input, dim)


def split(tensor, split_size_or_sections, dim=0):
    return joining.split(tensor, split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    return joining.chunk(input, chunks, dim)


def diagonal(input, offset=0, dim1=0, dim2=1):
    return apply(views.diagonal, input, offset_=offset, dim1=dim1, dim2=dim2)


def clone(input, *, memory_format=None):
    return creation.clone(input, memory_format)


def detach(input):
    return input.detach()


# -- nn ops exposed as torch.* (the rest of torch.nn.functional's kernels are in doctensor._nn) --

def softmax(input, dim, dtype=None):
    return nn_ops.softmax(input if dtype is None else input.to(dtype), dim)


def log_softmax(input, dim, dtype=None):
    return nn_ops.softmax(input if dtype is None else input.to(dtype), dim, log=True)


def dropout(input, p, train):
    """``input * noise`` (MulBackward0), the noise drawn as torch's CPU kernel does (A.8)."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not train or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        return apply(P.mul, input, 0)
    return apply(P.mul, input, random_ops.dropout_mask(input, p))


def addcmul(input, tensor1, tensor2, *, value=1):
    return nn_ops.addcmul(input, tensor1, tensor2, value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    return nn_ops.addcdiv(input, tensor1, tensor2, value)


def lerp(input, end, weight):
    return nn_ops.lerp(input, end, weight)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return nn_ops.embedding(indices, weight, None if padding_idx < 0 else padding_idx)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return nn_ops.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return nn_ops.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled=True):
    return nn_ops.batch_norm(input, running_mean, running_var, weight, bias, training,
                             momentum, eps)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    names = {0: "none", 1: "mean", 2: "sum"}
    return nn_ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                   names.get(reduction, reduction))


# -- legacy tensor types: torch.FloatTensor([1., 2.]), isinstance(t, torch.LongTensor) ----------


class _LegacyType(type):
    """``torch.FloatTensor`` & co.: calling one makes a tensor of its dtype (``legacy_new``);
    a CPU tensor of that dtype is an instance of it."""

    def __call__(cls, *args, device=None):
        return legacy_new(cls.dtype, args, device)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and not obj.is_cuda


def _legacy_type(dt):
    return _LegacyType(dt.scalar_name + "Tensor", (), {"dtype": dt, "__module__": "torch"})


(FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor,
 ByteTensor, BoolTensor) = (_legacy_type(d) for d in (
    _dtypes.float32, _dtypes.float64, _dtypes.float16, _dtypes.int64, _dtypes.int32,
    _dtypes.int16, _dtypes.int8, _dtypes.uint8, _dtypes.bool_))


# -- unique, bincount, meshgrid -----------------------------------------------------------------


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted; rows or slices along ``dim``), with the inverse indices
    and the counts when asked.  Not differentiable (torch's Unique2Backward0 refuses too)."""
    return gathering.unique(input, return_inverse, return_counts, dim)


def bincount(input, weights=None, minlength=0):
    """How often each non-negative integer occurs in the 1-d ``input`` (or the sum of its
    ``weights``)."""
    return apply(gathering.bincount_op, input, weights, minlength=minlength)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 1-d tensors, as expanded views: ``indexing='ij'`` (torch's
    default, warned about once per process as torch does) or ``'xy'`` (the first two inputs
    swapped, and their grids swapped back)."""
    if len(tensors) == 1 and isinstance(tensors[0], list | tuple):
        tensors = tuple(tensors[0])
    if indexing is None:
        warn_once(_MESHGRID_WARNING)
        indexing = "ij"
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = (tensors[1], tensors[0], *tensors[2:])
    shape = [t.numel() for t in tensors]
    grids = [t.reshape([-1 if i == k else 1 for i in range(len(tensors))]).expand(shape)
             for k, t in enumerate(tensors)]
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


_MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                     "indexing argument. (Triggered internally at /__w/pytorch/pytorch/aten/src/"
                     "ATen/native/TensorShape.cpp:4215.)")


# -- more elementwise functions: trig, hyperbolic, special functions, aliases (elementwise)

__all__ += []


# -- statistics, scans and searching (statistics) ---------------------------------------

__all__ += []


# -- shapes, joining, splitting and the scatter/index families (shaping) ----------------

__all__ += []


# -- linear algebra (linalg) ------------------------------------------------------------

__all__ += []


# -- complex numbers and the spectral ops (complex) -------------------------------------

__all__ += []


# -- constants, dtype info, legacy spellings, samplers, device helpers (misc) -----------

__all__ += []
