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
from .ops import creation, gathering, joining, linalg, nn_ops, random_ops
from .ops import pointwise as P
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
    "is_tensor", "numel", "add", "sub", "mul", "div", "true_divide", "pow", "neg", "abs", "exp",
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
            from ._strides import broadcast_shapes
            shape = broadcast_shapes(tuple(mean.shape), tuple(std.shape))
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
    return input.add(other, alpha=alpha) if isinstance(input, Tensor) else other.add(input)


def sub(input, other, *, alpha=1):
    return input.sub(other, alpha=alpha)


def mul(input, other):
    return input.mul(other) if isinstance(input, Tensor) else other.mul(input)


def div(input, other, *, rounding_mode=None):
    return input.div(other, rounding_mode=rounding_mode)


true_divide = div


def pow(input, exponent):
    return input.pow(exponent) if isinstance(input, Tensor) else exponent.__rpow__(input)


def neg(input):
    return -input


def abs(input):
    return input.abs()


def exp(input):
    return input.exp()


def log(input):
    return input.log()


def sqrt(input):
    return input.sqrt()


def square(input):
    return input.pow(2)


def sin(input):
    return input.sin()


def cos(input):
    return input.cos()


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def relu(input):
    return input.relu()


def sign(input):
    return input.sign()


def sgn(input):
    return input.sgn()


def clamp_min(input, min):
    return input.clamp_min(min)


def clamp_max(input, max):
    return input.clamp_max(max)


def fmod(input, other):
    return input.fmod(other)


def remainder(input, other):
    return input.remainder(other)


def floor_divide(input, other):
    return input.floor_divide(other)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return input.nan_to_num(nan, posinf, neginf)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.isclose(other, rtol, atol, equal_nan)


def count_nonzero(input, dim=None):
    return input.count_nonzero(dim)


def outer(input, vec2):
    """torch's composite: ``input.reshape(-1, 1) * vec2`` (MulBackward0 after ViewBackward0)."""
    return input.reshape(-1, 1) * vec2


def index_select(input, dim, index):
    return input.index_select(dim, index)


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
    return input.gather(dim, index)


def nonzero(input, *, as_tuple=False):
    return input.nonzero(as_tuple=as_tuple)


def argwhere(input):
    return input.argwhere()


def masked_select(input, mask):
    return input.masked_select(mask)


def diag(input, diagonal=0):
    return input.diag(diagonal)


def cumprod(input, dim, *, dtype=None):
    return input.cumprod(dim, dtype)


def median(input, dim=None, keepdim=False):
    return input.median(dim, keepdim)


def roll(input, shifts, dims=None):
    return input.roll(shifts, dims)


def amax(input, dim=(), keepdim=False):
    return input.amax(dim, keepdim)


def amin(input, dim=(), keepdim=False):
    return input.amin(dim, keepdim)


def logsumexp(input, dim, keepdim=False):
    return input.logsumexp(dim, keepdim)


def trace(input):
    return input.trace()


def tril(input, diagonal=0):
    return input.tril(diagonal)


def triu(input, diagonal=0):
    return input.triu(diagonal)


def floor(input):
    return input.floor()


def ceil(input):
    return input.ceil()


def trunc(input):
    return input.trunc()


def frac(input):
    return input.frac()


def isnan(input):
    return input.isnan()


def isinf(input):
    return input.isinf()


def isfinite(input):
    return input.isfinite()


def reciprocal(input):
    return input.reciprocal()


def clamp(input, min=None, max=None):
    return input.clamp(min, max)


clip = clamp


def where(condition, input=None, other=None):
    """``where(condition, input, other)``; ``where(condition)`` is ``nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    return P.where_tensor(condition, input, other)


def maximum(input, other):
    return input.maximum(other)


def minimum(input, other):
    return input.minimum(other)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    return input.sum(dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    return input.mean(dim, keepdim, dtype=dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    return input.prod(dim, keepdim, dtype=dtype)


def max(input, dim=None, keepdim=False):
    return input.max(dim, keepdim)


def min(input, dim=None, keepdim=False):
    return input.min(dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return input.argmax(dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return input.argmin(dim, keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.std(dim, unbiased, keepdim, correction=correction)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.var(dim, unbiased, keepdim, correction=correction)


def all(input, dim=None, keepdim=False):
    return input.all(dim, keepdim)


def any(input, dim=None, keepdim=False):
    return input.any(dim, keepdim)


matmul = linalg.matmul
mm = linalg.mm
mv = linalg.mv
dot = linalg.dot
bmm = linalg.bmm


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
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)


def cat(tensors, dim=0):
    return joining.cat(tensors, dim)


concat = cat


def constant_pad_nd(input, pad, value=0):
    return joining.constant_pad(input, pad, value)


def stack(tensors, dim=0):
    return joining.stack(tensors, dim)


def flip(input, dims):
    return input.flip(dims)


def cumsum(input, dim, *, dtype=None):
    return input.cumsum(dim, dtype=dtype)


def equal(input, other):
    return input.equal(other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.allclose(other, rtol, atol, equal_nan)


def eq(input, other):
    return input == other


def ne(input, other):
    return input != other


def lt(input, other):
    return input < other


def le(input, other):
    return input <= other


def gt(input, other):
    return input > other


def ge(input, other):
    return input >= other


def rsqrt(input):
    return input.rsqrt()


def log1p(input):
    return input.log1p()


def expm1(input):
    return input.expm1()


def erf(input):
    return input.erf()


def erfc(input):
    return input.erfc()


def atan2(input, other):
    return input.atan2(other)


arctan2 = atan2


def round(input, *, decimals=None):  # noqa: A001  (torch.round)
    return input.round(decimals=decimals)


def sort(input, dim=-1, descending=False, stable=None):
    return input.sort(dim, descending, stable=stable)


def argsort(input, dim=-1, descending=False, stable=False):
    return input.argsort(dim, descending, stable=stable)


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    return input.topk(k, dim, largest, sorted)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    return input.norm(p, dim, keepdim, dtype)


def masked_fill(input, mask, value):
    return input.masked_fill(mask, value)


# -- shapes ---------------------------------------------------------------------------------------

def reshape(input, shape):
    return input.reshape(shape)


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


def squeeze(input, dim=None):
    return input.squeeze(dim)


def unsqueeze(input, dim):
    return input.unsqueeze(dim)


def transpose(input, dim0, dim1):
    return input.transpose(dim0, dim1)


def t(input):
    return input.t()


def permute(input, dims):
    return input.permute(*dims)


def movedim(input, source, destination):
    return input.movedim(source, destination)


moveaxis = movedim


def swapaxes(input, axis0, axis1):
    return input.transpose(axis0, axis1)


def swapdims(input, dim0, dim1):
    return input.transpose(dim0, dim1)


def tile(input, dims):
    return input.tile(dims)


def narrow(input, dim, start, length):
    return input.narrow(dim, start, length)


def select(input, dim, index):
    return input.select(dim, index)


def unbind(input, dim=0):
    return input.unbind(dim)


def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def diagonal(input, offset=0, dim1=0, dim2=1):
    return input.diagonal(offset, dim1, dim2)


def clone(input, *, memory_format=None):
    return input.clone(memory_format=memory_format)


def detach(input):
    return input.detach()


# -- nn ops exposed as torch.* (the rest of torch.nn.functional's kernels are in doctensor._nn) --

def softmax(input, dim, dtype=None):
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim, dtype=None):
    return input.log_softmax(dim, dtype=dtype)


def dropout(input, p, train):
    """``input * noise`` (MulBackward0), the noise drawn as torch's CPU kernel does (A.8)."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not train or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        return input * 0
    return input * random_ops.dropout_mask(input, p)


def addcmul(input, tensor1, tensor2, *, value=1):
    return input.addcmul(tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    return input.addcdiv(tensor1, tensor2, value=value)


def lerp(input, end, weight):
    return input.lerp(end, weight)


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
    return gathering.bincount(input, weights, minlength)


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
