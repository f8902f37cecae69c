"""The ``torch.*`` functions: each one calls the op or the Tensor method it names."""


import builtins
import ctypes
import math
import numbers
import os
import warnings

import numpy as np

from . import _dtypes
from ._argnames import numpy_names, with_out
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
from ._typed_storage import TypedStorage
from ._typeinfo import finfo, iinfo, layout, strided
from .autograd import no_grad
from .autograd.anomaly_mode import AnomalyMode
from .device import device as device_cls
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
    views,
)
from .ops import elementwise as E
from .ops import pointwise as P
from .ops import special_functions as SF
from .ops._dispatch import apply
from .size import Size
from .storage import Storage
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


def _size(size, keyword=None, fname=None):
    """A factory's sizes: ``f(2, 3)``, ``f((2, 3))``, or the keyword ``f(size=(2, 3))``; with
    ``fname`` (the factory's name), torch's argument-parser errors for anything else."""
    if keyword is not None:
        if fname and not (isinstance(keyword, (tuple, list))
                          and builtins.all(map(_is_int, keyword))):
            raise TypeError(f"{fname}(): argument 'size' must be tuple of ints, not "
                            f"{type(keyword).__name__}")
        return tuple(keyword)
    if fname:
        _check_size_args(fname, size)
        items = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        return tuple(int(s) for s in items)
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def _is_int(s):
    """An int for a size: a Python or NumPy integer, or a 0-d integer tensor."""
    if isinstance(s, Tensor):
        return s.dim() == 0 and not (s.is_floating_point() or s.is_complex())
    return isinstance(s, numbers.Integral)


def _check_size_args(fname, size):
    """torch's argument parser on a factory's sizes, given as ``f(2, 3)`` or ``f((2, 3))``."""
    if not size:
        raise TypeError(f'{fname}() missing 1 required positional arguments: "size"')
    if len(size) == 1 and not isinstance(size[0], (tuple, list)):
        if not _is_int(size[0]) or isinstance(size[0], bool):  # (a lone bool is no size)
            raise TypeError(f"{fname}(): argument 'size' (position 1) must be tuple of ints, "
                            f"not {type(size[0]).__name__}")
        return
    items = size[0] if len(size) == 1 else size
    # (the parser tells a tuple of ints by its first element, which is no bool)
    if items and (not _is_int(items[0]) or isinstance(items[0], bool)):
        raise TypeError(f"{fname}(): argument 'size' (position 1) must be tuple of ints, but "
                        f"found element of type {type(items[0]).__name__} at pos 0")
    for i, s in enumerate(items):
        if not _is_int(s):
            raise TypeError(f"{fname}(): argument 'size' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got "
                            f"{type(s).__name__}\"")


# -- creation -------------------------------------------------------------------------------------

tensor = creation.tensor
as_tensor = creation.as_tensor
from_numpy = creation.from_numpy
arange = creation.arange
linspace = creation.linspace
logspace = creation.logspace
eye = creation.eye


def zeros(*sizes, size=None, dtype=None, device=None, requires_grad=False):
    dtype = creation.dtype_arg("zeros", dtype)
    size = _size(sizes, size, "zeros")
    for d in size:
        if isinstance(d, int) and d < 0:
            raise RuntimeError("zeros: Dimension size must be non-negative.")
    return creation.full(size, 0, dtype or get_default_dtype(), device, requires_grad)


def ones(*sizes, size=None, dtype=None, device=None, requires_grad=False):
    dtype = creation.dtype_arg("ones", dtype)
    return creation.full(_size(sizes, size, "ones"), 1, dtype or get_default_dtype(), device,
                         requires_grad)


def empty(*sizes, size=None, dtype=None, device=None, requires_grad=False):
    dtype = creation.dtype_arg("empty", dtype)
    return creation.empty(_size(sizes, size, "empty"), dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    dtype = creation.dtype_arg("full", dtype)
    return creation.full(size, fill_value, dtype, device, requires_grad)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    dtype = creation.dtype_arg("zeros_like", dtype)
    return creation.full_like(input, 0, dtype, device, requires_grad, memory_format)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    dtype = creation.dtype_arg("ones_like", dtype)
    return creation.full_like(input, 1, dtype, device, requires_grad, memory_format)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    dtype = creation.dtype_arg("empty_like", dtype)
    return creation.full_like(input, 0, dtype, device, requires_grad, memory_format)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False,
              memory_format=None):
    dtype = creation.dtype_arg("full_like", dtype)
    return creation.full_like(input, fill_value, dtype, device, requires_grad, memory_format)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False):
    return creation.empty_strided(size, stride, dtype, device, requires_grad)


def rand(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    dtype = creation.dtype_arg("rand", dtype)
    return random_ops.rand(_size(sizes, size, "rand"), generator, dtype, device, requires_grad)


def randn(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    dtype = creation.dtype_arg("randn", dtype)
    return random_ops.randn(_size(sizes, size, "randn"), generator, dtype, device, requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    dtype = creation.dtype_arg("randint", dtype)
    if size is None:
        low, high, size = 0, low, high
    if not isinstance(size, (tuple, list)):  # (the wrapper of _argparser.checked words it)
        raise TypeError(f"randint(): argument 'size' must be tuple of ints, not "
                        f"{type(size).__name__}")
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


def normal(mean, std=1.0, size=None, generator=None, *, dtype=None, device=None,
           requires_grad=False):
    """torch.normal: float mean/std with ``size`` (and a factory's ``dtype``, ``device``,
    ``requires_grad``), or tensor mean/std (A.4.6)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        like = mean if isinstance(mean, Tensor) else std
        shape = like.shape
        if isinstance(mean, Tensor) and isinstance(std, Tensor):
            shape = _broadcast_two(tuple(mean.shape), tuple(std.shape))
        out = creation.full(tuple(shape), 0, like.dtype, like.device)
        out.normal_(0.0, 1.0, generator)
        return out * std + mean
    out = creation.full(tuple(size), 0, dtype or get_default_dtype(),
                        device_cls("cpu" if device is None else device))  # (as torch's: on
    out.normal_(mean, std, generator)  # the CPU whatever the default device)
    return out.requires_grad_() if requires_grad else out


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


# -- math -----------------------------------------------------------------------------------------

@with_out
def add(input, other, *, alpha=1):
    return P.scaled(apply, P.add, input, other, alpha) if isinstance(input, Tensor) else \
        apply(P.add, other, input)


@with_out
def sub(input, other, *, alpha=1):
    return P.scaled(apply, P.sub, input, other, alpha)


def rsub(input, other, *, alpha=1):
    """``other - alpha * input``."""
    op = P.rsub_tensor if isinstance(other, Tensor) else P.rsub
    return P.scaled(apply, op, input, other, alpha)


def as_strided(input, size, stride, storage_offset=None):
    return input.as_strided(size, stride, storage_offset)


@with_out
def mul(input, other):
    return apply(P.mul, input, other) if isinstance(input, Tensor) else \
        apply(P.mul, other, input)


@with_out
def div(input, other, *, rounding_mode=None):
    return P.div_tensor(input, other, rounding_mode)


true_divide = div


@with_out
def pow(input, exponent):
    return P.pow_any(input, exponent) if isinstance(input, Tensor) else \
        apply(P.rpow, exponent, base=input)


@with_out
def neg(input):
    return apply(P.neg, input)


@with_out
def abs(input):
    return apply(P.abs_, input)


@with_out
def exp(input):
    return apply(P.exp, input)


@with_out
def log(input):
    return apply(P.log, input)


@with_out
def sqrt(input):
    return apply(P.sqrt, input)


def square(input):
    return P.pow_any(input, 2)


@with_out
def sin(input):
    return apply(P.sin, input)


@with_out
def cos(input):
    return apply(P.cos, input)


@with_out
def tanh(input):
    return apply(P.tanh, input)


@with_out
def sigmoid(input):
    return apply(P.sigmoid, input)


def relu(input):
    return apply(P.relu, input)


def sign(input):
    return apply(P.sign, input)


def sgn(input):
    return apply(P.sgn, input)


def clamp_min(input, min):
    return P.clamp_one_bound(input, "min", min)


def clamp_max(input, max):
    return P.clamp_one_bound(input, "max", max)


def fmod(input, other):
    return P.fmod_any(input, other)


def remainder(input, other):
    return P.remainder_any(input, other)


def floor_divide(input, other):
    return apply(P.floor_divide, input, other)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return apply(P.nan_to_num, input, nan=nan, posinf=posinf, neginf=neginf)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return apply(P.isclose, input, other, rtol=rtol, atol=atol, equal_nan=equal_nan)


@numpy_names
def count_nonzero(input, dim=None):
    return reduction.count_nonzero(input, dim)


def outer(input, vec2):
    return linalg.outer(input, vec2)


@numpy_names
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


@numpy_names
def cumprod(input, dim, *, dtype=None):
    return reduction.cumprod(input, dim, dtype)


@numpy_names
def median(input, dim=None, keepdim=False):
    return reduction.median(input, dim, keepdim)


def roll(input, shifts, dims=None):
    return joining.roll(input, shifts, dims)


@numpy_names
def amax(input, dim=(), keepdim=False):
    return reduction.amax_amin("amax", input, dim, keepdim)


@numpy_names
def amin(input, dim=(), keepdim=False):
    return reduction.amax_amin("amin", input, dim, keepdim)


@numpy_names
def logsumexp(input, dim, keepdim=False):
    return reduction.logsumexp(input, dim, keepdim)


def trace(input):
    return apply(reduction.trace_op, input)


def tril(input, diagonal=0):
    return gathering.triangle("tril", input, diagonal)


def triu(input, diagonal=0):
    return gathering.triangle("triu", input, diagonal)


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


@with_out
def clamp(input, min=None, max=None):
    return P.clamp_tensor(input, min, max)


clip = clamp


def where(condition, input=None, other=None):
    """``where(condition, input, other)``; ``where(condition)`` is ``nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return gathering.nonzero(condition, as_tuple=True)
    return apply(P.where, condition, input, other)


@with_out
def maximum(input, other):
    return apply(P.maximum, input, other)


@with_out
def minimum(input, other):
    return apply(P.minimum, input, other)


@numpy_names
@with_out
def sum(input, dim=None, keepdim=False, *, dtype=None):
    return reduction.sum(input, dim, keepdim, dtype)


@numpy_names
@with_out
def mean(input, dim=None, keepdim=False, *, dtype=None):
    return reduction.mean(input, dim, keepdim, dtype)


@numpy_names
@with_out
def prod(input, dim=None, keepdim=False, *, dtype=None):
    return reduction.prod(input, dim, keepdim, dtype)


@numpy_names
def max(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return apply(P.maximum, input, dim)
    return reduction.max_min("max", input, dim, keepdim)


@numpy_names
def min(input, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return apply(P.minimum, input, dim)
    return reduction.max_min("min", input, dim, keepdim)


@numpy_names
def argmax(input, dim=None, keepdim=False):
    return reduction.argmax_min("argmax", input, dim, keepdim)


@numpy_names
def argmin(input, dim=None, keepdim=False):
    return reduction.argmax_min("argmin", input, dim, keepdim)


@numpy_names
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return reduction.var_std(reduction.std, input, dim, unbiased, keepdim, correction)


@numpy_names
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return reduction.var_std(reduction.var, input, dim, unbiased, keepdim, correction)


@numpy_names
def all(input, dim=None, keepdim=False):
    return reduction.all_any("all", input, dim, keepdim)


@numpy_names
def any(input, dim=None, keepdim=False):
    return reduction.all_any("any", input, dim, keepdim)


matmul = with_out(linalg.matmul)
mm = with_out(linalg.mm)


def mv(input, vec):
    return apply(linalg.mv_op, input, vec)


def dot(input, other):
    return apply(linalg.dot_op, input, other)


@with_out
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


@numpy_names
@with_out
def cat(tensors, dim=0):
    return joining.cat(tensors, dim)


concat = cat


def constant_pad_nd(input, pad, value=0):
    return joining.constant_pad(input, pad, value)


@numpy_names
@with_out
def stack(tensors, dim=0):
    return joining.stack(tensors, dim)


def flip(input, dims):
    return joining.flip(input, dims)


@numpy_names
@with_out
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


@numpy_names
def squeeze(input, dim=None):
    return views.squeeze(input, dim)


@numpy_names
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


@numpy_names
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

@numpy_names
def softmax(input, dim, dtype=None):
    return nn_ops.softmax(input if dtype is None else input.to(dtype), dim)


@numpy_names
def log_softmax(input, dim, dtype=None):
    return nn_ops.softmax(input if dtype is None else input.to(dtype), dim, log=True)


def dropout(input, p, train):
    """``input * noise`` (MulBackward0), the noise drawn as torch's CPU kernel does (A.8)."""
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
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
    return gathering.unique(input, return_inverse, return_counts, dim, sorted)


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

def abs_(input):
    return input.abs_()


def absolute(input):
    return input.absolute()


def acos(input):
    return input.acos()


def acos_(input):
    return input.acos_()


def acosh(input):
    return input.acosh()


def acosh_(input):
    return input.acosh_()


def arccos(input):
    return input.arccos()


def arccos_(input):
    return input.arccos_()


def arccosh(input):
    return input.arccosh()


def arccosh_(input):
    return input.arccosh_()


def arcsin(input):
    return input.arcsin()


def arcsin_(input):
    return input.arcsin_()


def arcsinh(input):
    return input.arcsinh()


def arcsinh_(input):
    return input.arcsinh_()


def arctan(input):
    return input.arctan()


def arctan_(input):
    return input.arctan_()


def arctanh(input):
    return input.arctanh()


def arctanh_(input):
    return input.arctanh_()


def asin(input):
    return input.asin()


def asin_(input):
    return input.asin_()


def asinh(input):
    return input.asinh()


def asinh_(input):
    return input.asinh_()


def atan(input):
    return input.atan()


def atan_(input):
    return input.atan_()


def atanh(input):
    return input.atanh()


def atanh_(input):
    return input.atanh_()


def bitwise_not(input):
    return input.bitwise_not()


def ceil_(input):
    return input.ceil_()


def cos_(input):
    return input.cos_()


def cosh(input):
    return input.cosh()


def cosh_(input):
    return input.cosh_()


def deg2rad(input):
    return input.deg2rad()


def deg2rad_(input):
    return input.deg2rad_()


def digamma(input):
    return input.digamma()


def erf_(input):
    return input.erf_()


def erfc_(input):
    return input.erfc_()


def erfinv(input):
    return input.erfinv()


def exp2(input):
    return input.exp2()


def exp2_(input):
    return input.exp2_()


def exp_(input):
    return input.exp_()


def expm1_(input):
    return input.expm1_()


def fix(input):
    return input.fix()


def fix_(input):
    return input.fix_()


def floor_(input):
    return input.floor_()


def frac_(input):
    return input.frac_()


def frexp(input):
    return input.frexp()


def i0(input):
    return input.i0()


def i0_(input):
    return input.i0_()


def isneginf(input):
    return input.isneginf()


def isposinf(input):
    return input.isposinf()


def isreal(input):
    return input.isreal()


def lgamma(input):
    return input.lgamma()


def log10(input):
    return input.log10()


def log10_(input):
    return input.log10_()


def log1p_(input):
    return input.log1p_()


def log2(input):
    return input.log2()


def log2_(input):
    return input.log2_()


def log_(input):
    return input.log_()


def logical_not(input):
    return input.logical_not()


def neg_(input):
    return input.neg_()


def negative(input):
    return input.negative()


def negative_(input):
    return input.negative_()


def positive(input):
    return input.positive()


def rad2deg(input):
    return input.rad2deg()


def rad2deg_(input):
    return input.rad2deg_()


def reciprocal_(input):
    return input.reciprocal_()


def relu_(input):
    return input.relu_()


def rsqrt_(input):
    return input.rsqrt_()


def sigmoid_(input):
    return input.sigmoid_()


def signbit(input):
    return input.signbit()


def sin_(input):
    return input.sin_()


def sinc(input):
    return input.sinc()


def sinc_(input):
    return input.sinc_()


def sinh(input):
    return input.sinh()


def sinh_(input):
    return input.sinh_()


def sqrt_(input):
    return input.sqrt_()


def square_(input):
    return input.square_()


def tan(input):
    return input.tan()


def tan_(input):
    return input.tan_()


def tanh_(input):
    return input.tanh_()


def trunc_(input):
    return input.trunc_()


def bitwise_and(input, other):
    return input.bitwise_and(other)


def bitwise_left_shift(input, other):
    return input.bitwise_left_shift(other)


def bitwise_or(input, other):
    return input.bitwise_or(other)


def bitwise_right_shift(input, other):
    return input.bitwise_right_shift(other)


def bitwise_xor(input, other):
    return input.bitwise_xor(other)


def copysign(input, other):
    return input.copysign(other)


def fmax(input, other):
    return input.fmax(other)


def fmin(input, other):
    return input.fmin(other)


def gcd(input, other):
    return input.gcd(other)


def gcd_(input, other):
    return input.gcd_(other)


def greater(input, other):
    return input.greater(other)


def greater_equal(input, other):
    return input.greater_equal(other)


def hypot(input, other):
    return input.hypot(other)


def lcm(input, other):
    return input.lcm(other)


def lcm_(input, other):
    return input.lcm_(other)


def ldexp(input, other):
    return input.ldexp(other)


def ldexp_(input, other):
    return input.ldexp_(other)


def less(input, other):
    return input.less(other)


def less_equal(input, other):
    return input.less_equal(other)


def logaddexp(input, other):
    return input.logaddexp(other)


def logaddexp2(input, other):
    return input.logaddexp2(other)


def multiply(input, other):
    return input.multiply(other)


def nextafter(input, other):
    return input.nextafter(other)


def not_equal(input, other):
    return input.not_equal(other)


def xlogy_(input, other):
    return input.xlogy_(other)


def heaviside(input, values):
    return input.heaviside(values)


def igamma(input, other):
    return input.igamma(other)


def igammac(input, other):
    return input.igammac(other)


def logit(input, eps=None):
    return input.logit(eps)


def logit_(input, eps=None):
    return input.logit_(eps)


def mvlgamma(input, p):
    return input.mvlgamma(p)


def polygamma(n, input):
    return SF.polygamma_any(n, input)


def xlogy(input, other):
    return SF.xlogy_any(input, other)


def float_power(input, exponent):
    return E.float_power(input, exponent)


def divide(input, other, *, rounding_mode=None):
    return P.div_tensor(input, other, rounding_mode)


def subtract(input, other, *, alpha=1):
    return input.subtract(other, alpha=alpha)


def clip_(input, min=None, max=None):
    return input.clip_(min, max)


def clamp_(input, min=None, max=None):
    return input.clamp_(min, max)


def nan_to_num_(input, nan=0.0, posinf=None, neginf=None):
    return input.nan_to_num_(nan, posinf, neginf)


def round_(input, *, decimals=None):
    return input.round_(decimals=decimals)


def logical_and(input, other):
    return E.logical("logical_and", input, other, 2)


def logical_or(input, other):
    return E.logical("logical_or", input, other, 2)


def logical_xor(input, other):
    return E.logical("logical_xor", input, other, 2)



__all__ += ["abs_", "absolute", "acos", "acos_", "acosh", "acosh_", "arccos", "arccos_",
    "arccosh", "arccosh_", "arcsin", "arcsin_", "arcsinh", "arcsinh_", "arctan", "arctan_",
    "arctanh", "arctanh_", "asin", "asin_", "asinh", "asinh_", "atan", "atan_", "atanh",
    "atanh_", "bitwise_not", "ceil_", "cos_", "cosh", "cosh_", "deg2rad", "deg2rad_", "digamma",
    "erf_", "erfc_", "erfinv", "exp2", "exp2_", "exp_", "expm1_", "fix", "fix_", "floor_",
    "frac_", "frexp", "i0", "i0_", "isneginf", "isposinf", "isreal", "lgamma", "log10", "log10_",
    "log1p_", "log2", "log2_", "log_", "logical_not", "neg_", "negative", "negative_",
    "positive", "rad2deg", "rad2deg_", "reciprocal_", "relu_", "rsqrt_", "sigmoid_", "signbit",
    "sin_", "sinc", "sinc_", "sinh", "sinh_", "sqrt_", "square_", "tan", "tan_", "tanh_",
    "trunc_", "bitwise_and", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift",
    "bitwise_xor", "copysign", "fmax", "fmin", "gcd", "gcd_", "greater", "greater_equal",
    "hypot", "lcm", "lcm_", "ldexp", "ldexp_", "less", "less_equal", "logaddexp", "logaddexp2",
    "multiply", "nextafter", "not_equal", "xlogy_", "heaviside", "logit", "logit_", "mvlgamma",
    "polygamma", "xlogy", "float_power", "divide", "subtract", "clip_", "clamp_", "nan_to_num_",
    "round_", "logical_and", "logical_or", "logical_xor", "igamma", "igammac"]


# -- statistics, scans and searching (statistics) ---------------------------------------

__all__ += ["nansum", "nanmean", "var_mean", "std_mean", "aminmax", "nanmedian", "mode",
            "kthvalue", "cummax", "cummin", "logcumsumexp", "msort", "searchsorted", "bucketize",
            "isin", "unique_consecutive", "diff", "histc", "histogram", "quantile",
            "nanquantile", "trapezoid", "trapz", "cumulative_trapezoid", "cov", "corrcoef",
            "gradient", "histogramdd"]


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    return statistics.nansum(input, dim, keepdim, dtype)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    return statistics.nanmean(input, dim, keepdim, dtype)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return statistics.var_mean(input, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return statistics.std_mean(input, dim, unbiased, keepdim, correction)


def aminmax(input, *, dim=None, keepdim=False):
    return statistics.aminmax(input, dim, keepdim)


def nanmedian(input, dim=None, keepdim=False):
    return statistics.nanmedian(input, dim, keepdim)


def mode(input, dim=-1, keepdim=False):
    return statistics.mode(input, dim, keepdim)


def kthvalue(input, k, dim=-1, keepdim=False):
    return statistics.kthvalue(input, k, dim, keepdim)


def cummax(input, dim):
    return statistics.cummax(input, dim)


def cummin(input, dim):
    return statistics.cummin(input, dim)


def logcumsumexp(input, dim):
    return statistics.logcumsumexp(input, dim)


def msort(input):
    return input.sort(0).values


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 sorter=None):
    return statistics.searchsorted(sorted_sequence, input, out_int32, right, side, sorter)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    return statistics.bucketize(input, boundaries, out_int32, right)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    return statistics.isin(elements, test_elements, assume_unique, invert)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    return statistics.unique_consecutive(input, return_inverse, return_counts, dim)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    return statistics.diff(input, n, dim, prepend, append)


def histc(input, bins=100, min=0, max=0):  # noqa: A002  (torch's names)
    return statistics.histc(input, bins, min, max)


def histogram(input, bins=100, *, range=None, weight=None, density=False):  # noqa: A002
    return statistics.histogram(input, bins, range, weight, density)


def histogramdd(input, bins, *, range=None, weight=None, density=False):  # noqa: A002
    return statistics.histogramdd(input, bins, range, weight, density)


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return statistics.quantile(input, q, dim, keepdim, interpolation)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return statistics.quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    return statistics.trapezoid(y, x, dx, dim)


def trapz(y, x=None, *, dx=None, dim=-1):
    return statistics.trapezoid(y, x, dx, dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    return statistics.cumulative_trapezoid(y, x, dx, dim)


def cov(input, *, correction=1, fweights=None, aweights=None):
    return statistics.cov(input, correction, fweights, aweights)


def corrcoef(input):
    return statistics.corrcoef(input)


def gradient(input, *, spacing=None, dim=None, edge_order=1):
    return statistics.gradient(input, spacing, dim, edge_order)


# -- shapes, joining, splitting and the scatter/index families (shaping) ----------------

__all__ += [
    "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack", "dstack",
    "column_stack", "concatenate", "ravel", "broadcast_to", "fliplr", "flipud", "rot90",
    "repeat_interleave", "unflatten", "tensor_split", "hsplit", "vsplit", "dsplit",
    "split_with_sizes", "take", "take_along_dim", "put", "diag_embed", "diagflat",
    "block_diag", "cartesian_prod", "combinations", "unravel_index", "select_scatter",
    "slice_scatter", "diagonal_scatter", "as_strided_scatter", "narrow_copy",
    "masked_scatter", "scatter_reduce", "index_reduce", "index_put", "index_put_", "as_strided_",
    "resize_as_", "tril_indices", "triu_indices",
]


def atleast_1d(*tensors):
    return shaping.atleast(1, tensors)


def atleast_2d(*tensors):
    return shaping.atleast(2, tensors)


def atleast_3d(*tensors):
    return shaping.atleast(3, tensors)


def hstack(tensors):
    return shaping.hstack(tensors)


def vstack(tensors):
    return shaping.vstack(tensors)


row_stack = vstack


def dstack(tensors):
    return shaping.dstack(tensors)


def column_stack(tensors):
    return shaping.column_stack(tensors)


def concatenate(tensors, axis=0, *, dim=None):
    return joining.cat(tensors, axis if dim is None else dim)


def ravel(input):
    return shaping.ravel(input)


def broadcast_to(input, size):
    return views.expand_to(input, tuple(size))


def fliplr(input):
    return shaping.fliplr(input)


def flipud(input):
    return shaping.flipud(input)


def rot90(input, k=1, dims=(0, 1)):
    return shaping.rot90(input, k, dims)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    return shaping.repeat_interleave(input, repeats, dim, output_size)


def unflatten(input, dim, sizes):
    return views.unflatten(input, dim, sizes)


def tensor_split(input, indices_or_sections, dim=0):
    return shaping.tensor_split(input, indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    return shaping.hvd_split("hsplit", input, indices_or_sections)


def vsplit(input, indices_or_sections):
    return shaping.hvd_split("vsplit", input, indices_or_sections)


def dsplit(input, indices_or_sections):
    return shaping.hvd_split("dsplit", input, indices_or_sections)


def split_with_sizes(input, split_sizes, dim=0):
    return shaping.split_with_sizes(input, split_sizes, dim)


def take(input, index):
    return shaping.take(input, index)


def take_along_dim(input, indices, dim=None):
    return shaping.take_along_dim(input, indices, dim)


def put(input, index, source, accumulate=False):
    return shaping.put(input, index, source, accumulate)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    return gathering.diag_embed(input, offset, dim1, dim2)


def diagflat(input, offset=0):
    return shaping.diagflat(input, offset)


def block_diag(*tensors):
    return shaping.block_diag(tensors)


def cartesian_prod(*tensors):
    return shaping.cartesian_prod(tensors)


def combinations(input, r=2, with_replacement=False):
    return shaping.combinations(input, r, with_replacement)


def unravel_index(indices, shape):
    return shaping.unravel_index(indices, shape)


def select_scatter(input, src, dim, index):
    return shaping.select_scatter(input, src, dim, index)


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    return shaping.slice_scatter(input, src, dim, start, end, step)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    return shaping.diagonal_scatter(input, src, offset, dim1, dim2)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    return shaping.as_strided_scatter(input, src, size, stride, storage_offset)


def narrow_copy(input, dim, start, length):
    return shaping.narrow_copy(input, dim, start, length)


def masked_scatter(input, mask, source):
    return shaping.masked_scatter(input, mask, source)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    return gathering.scatter_reduce(input, dim, index, src, reduce, include_self)


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    return gathering.index_reduce(input, dim, index, source, reduce, include_self)


def index_put(input, indices, values, accumulate=False):
    return indexing.index_put_tensors("index_put", input, indices, values, accumulate,
                                      function=True)


def index_put_(input, indices, values, accumulate=False):
    return indexing.index_put_tensors("index_put_", input, indices, values, accumulate, True,
                                      function=True)


def as_strided_(input, size, stride, storage_offset=None):
    return shaping.as_strided_(input, size, stride, storage_offset)


def resize_as_(input, the_template):
    return input.resize_as_(the_template)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return shaping.tri_indices("tril_indices", row, col, offset, dtype, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    return shaping.tri_indices("triu_indices", row, col, offset, dtype, device)


# -- linear algebra (linalg) ------------------------------------------------------------

# decompositions (D2)
from .ops import decompositions as _decompositions  # noqa: E402

__all__ += ["det", "logdet", "slogdet", "inverse", "cholesky", "cholesky_inverse", "qr", "svd",
            "lu", "lu_solve", "lu_unpack", "matrix_power", "matrix_exp", "pinverse",
            "triangular_solve", "eig", "lstsq", "matrix_rank", "solve", "symeig", "cholesky_solve",
            "geqrf", "orgqr", "ormqr", "svd_lowrank", "pca_lowrank"]
det = _decompositions.det
logdet = _decompositions.logdet
inverse = _decompositions.inv
matrix_exp = _decompositions.matrix_exp
matrix_power = _decompositions.matrix_power
pinverse = _decompositions.pinverse
cholesky = _decompositions.cholesky_legacy
cholesky_inverse = _decompositions.cholesky_inverse
cholesky_solve = _decompositions.cholesky_solve
geqrf = _decompositions.geqrf
orgqr = _decompositions.householder_product
ormqr = _decompositions.ormqr
svd_lowrank = _decompositions.svd_lowrank
pca_lowrank = _decompositions.pca_lowrank
qr = _decompositions.qr_legacy
svd = _decompositions.svd_legacy
lu = _decompositions.lu_legacy
lu_solve = _decompositions.lu_solve_legacy
lu_unpack = _decompositions.lu_unpack
triangular_solve = _decompositions.triangular_solve
eig = _decompositions.removed("eig")
lstsq = _decompositions.removed("lstsq")
matrix_rank = _decompositions.removed("matrix_rank")
solve = _decompositions.removed("solve")
symeig = _decompositions.removed("symeig")


def slogdet(input):
    return _decompositions.slogdet(input, legacy=True)


# products and norms (D1)
__all__ += ["addmv", "addmv_", "addr", "baddbmm", "addbmm", "vdot", "ger", "inner", "kron",
            "tensordot", "einsum", "cross", "chain_matmul", "dist", "cdist", "renorm", "vander",
            "frobenius_norm", "nuclear_norm"]


def addmv(input, mat, vec, *, beta=1, alpha=1):
    return linalg.addmv(input, mat, vec, beta, alpha)


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    return linalg.addmv(input, mat, vec, beta, alpha, in_place=True)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    return linalg.addr(input, vec1, vec2, beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return linalg.baddbmm(input, batch1, batch2, beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return linalg.addbmm(input, batch1, batch2, beta, alpha)


def vdot(input, other):
    return apply(linalg.vdot_op, input, other)


def ger(input, vec2):
    return linalg.outer(input, vec2)


def inner(input, other):
    return linalg.inner(input, other)


def kron(input, other):
    return linalg.kron(input, other)


def tensordot(a, b, dims=2):
    return linalg.tensordot(a, b, dims)


def einsum(*args):
    return linalg.einsum(*args)


def cross(input, other, dim=None):
    return linalg.cross(input, other, dim)


def chain_matmul(*matrices):
    return linalg.chain_matmul(matrices)


def dist(input, other, p=2):
    return linalg.dist(input, other, p)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    return linalg.cdist(x1, x2, p, compute_mode)


def renorm(input, p, dim, maxnorm):
    return linalg.renorm(input, p, dim, maxnorm)


def vander(x, N=None, increasing=False):
    return linalg.vander(x, N, increasing)


def frobenius_norm(input, dim, keepdim=False):
    return linalg.frobenius_norm(input, dim, keepdim)


def nuclear_norm(input, dim=None, keepdim=False):
    return linalg.nuclear_norm(input, dim, keepdim, _decompositions.svdvals)



# -- complex numbers and the spectral ops (complex) -------------------------------------

__all__ += ["is_complex", "is_conj", "is_neg", "conj", "conj_physical", "conj_physical_",
            "resolve_conj", "resolve_neg", "real", "imag", "view_as_real", "view_as_complex",
            "angle", "complex", "polar", "adjoint", "stft", "istft"]


def is_complex(input):
    return input.is_complex()


def is_conj(input):
    return input.is_conj()


def is_neg(input):
    return input.is_neg()


def conj(input):
    return complex_numbers.conj(input)


def conj_physical(input):
    return complex_numbers.conj_physical(input)


def conj_physical_(input):
    return complex_numbers.conj_physical_(input)


def resolve_conj(input):
    return complex_numbers.resolve_conj(input)


def resolve_neg(input):
    return complex_numbers.resolve_neg(input)


def real(input):
    return complex_numbers.real(input)


def imag(input):
    return complex_numbers.imag(input)


def view_as_real(input):
    return complex_numbers.view_as_real(input)


def view_as_complex(input):
    return complex_numbers.view_as_complex(input)


def angle(input):
    return apply(complex_numbers.angle, input)


def complex(real, imag):
    return apply(complex_numbers.complex_, real, imag)


def polar(abs, angle):
    return apply(complex_numbers.polar, abs, angle)


def adjoint(input):
    return complex_numbers.adjoint(input)


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None):
    return spectral.stft(input, n_fft, hop_length, win_length, window, center, pad_mode,
                         normalized, onesided, return_complex)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    return spectral.istft(input, n_fft, hop_length, win_length, window, center, normalized,
                          onesided, length, return_complex)


# -- constants, dtype info, legacy spellings, samplers, device helpers (misc) -----------

e, pi, inf, nan = math.e, math.pi, math.inf, math.nan
newaxis = None  # x[:, torch.newaxis] is x[:, None]
legacy_contiguous_format = contiguous_format  # torch's alias (it prints as contiguous_format)


def poisson(input, generator=None):
    """A Poisson sample per rate in ``input``, torch's bits (``random.Generator.poisson``)."""
    return random_ops.poisson(input, generator)


def binomial(count, prob, generator=None):
    """A Binomial(count, prob) sample per element, torch's bits (Note [binomial sampler])."""
    return random_ops.binomial(count, prob, generator)


def _tensor_arg(name, input):
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")


def is_floating_point(input):
    _tensor_arg("is_floating_point", input)
    return input.is_floating_point()


def is_signed(input):
    _tensor_arg("is_signed", input)
    return input.is_signed()


def is_nonzero(input):
    _tensor_arg("is_nonzero", input)
    return input.is_nonzero()


def is_same_size(input, other):
    return input.is_same_size(other)


def is_inference(input):
    _tensor_arg("is_inference", input)
    return input.is_inference()


def get_device(input):
    """``input.get_device()``: -1 on the CPU, else the CUDA device's index."""
    return input.get_device()


def is_storage(obj):
    """True for a storage (``Tensor.untyped_storage()`` or the deprecated ``storage()``)."""
    return isinstance(obj, (Storage, TypedStorage))


# doctensor's storage class under torch's name (made by tensors: ``t.untyped_storage()``)
UntypedStorage = Storage


def typename(obj):
    """A tensor's legacy type name (``'torch.FloatTensor'``); else the object's dotted name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module, qualname = obj.__class__.__module__ or "", obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False):
    """A 0-d tensor holding ``s``, of the default dtype unless ``dtype`` is given."""
    return creation.full((), s, dtype or get_default_dtype(), device, requires_grad)


_RANGE_WARNING = ("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).")


def _range(start, end, step=1, *, dtype=None, device=None, requires_grad=False):
    """``torch.range`` (deprecated): ``start, start + step, ...`` up to ``end`` *included*,
    each value ``start + i * step`` computed in double and rounded to ``dtype`` (the default
    dtype even for integers).  Exported as ``doctensor.range`` by the package."""
    warnings.warn(_RANGE_WARNING, UserWarning, stacklevel=2)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int((end - start) / step) + 1
    values = [float(start) + i * float(step) for i in builtins.range(n)]
    return creation.tensor(values, dtype or get_default_dtype(), device, requires_grad)


def fill(input, value):
    """A new tensor like ``input`` filled with ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.dim()} dimensions.")
        return apply(creation.fill_tensor_out_of_place, input, value)
    return apply(creation.fill_out_of_place, input, value=value)


def fill_(input, value):
    return input.fill_(value)


def zero_(input):
    return input.zero_()


def detach_(input):
    return input.detach_()


def compile(model=None, *, fullgraph=False, dynamic=None, backend=None, mode=None,  # noqa: A001
            options=None, name=None, disable=False, recompile_limit=None,
            isolate_recompiles=False, shapes_spec=None):
    """``torch.compile`` with torch's signature, as a no-op: doctensor has no compiler, so the
    module or function comes back unchanged (eager doctensor is what runs).  Works as
    ``compile(f)``, ``@compile`` and ``@compile(mode=...)``."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if model is None:
        return lambda fn: fn
    return model


_threads = [len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1]


def get_num_threads():
    """The intra-op thread count torch would use (the CPUs this process may run on); doctensor
    itself runs NumPy, which keeps its own threads."""
    return _threads[0]


def set_num_threads(int):  # noqa: A002 (torch's argument name)
    if isinstance(int, bool) or not isinstance(int, builtins.int):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(int).__name__}")
    if int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _threads[0] = int
    from ._exact.cascade_sum import set_num_threads as split_sums  # torch's sums follow it
    split_sums(int)


# torch.use_deterministic_algorithms' state: (debug mode 0 off, 1 warn only, 2 on).  Recorded
# only: every doctensor op is deterministic, so no op ever warns or raises for it.
_DETERMINISTIC = [0]


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Record torch's deterministic-algorithms switch (doctensor's ops are all
    deterministic: nothing changes)."""
    for name, value in (("mode", mode), ("warn_only", warn_only)):
        if value.__class__ is not bool:
            position = " (position 1)" if name == "mode" else ""
            raise TypeError(f"_set_deterministic_algorithms(): argument '{name}'{position} "
                            f"must be bool, not {type(value).__name__}")
    _DETERMINISTIC[0] = (1 if warn_only else 2) if mode else 0


def are_deterministic_algorithms_enabled():
    return _DETERMINISTIC[0] > 0


def is_deterministic_algorithms_warn_only_enabled():
    return _DETERMINISTIC[0] == 1


def set_deterministic_debug_mode(debug_mode):
    """``'default'`` (0), ``'warn'`` (1) or ``'error'`` (2), as torch takes them."""
    names = ("default", "warn", "error")
    if isinstance(debug_mode, str):
        if debug_mode not in names:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = names.index(debug_mode)
    elif not isinstance(debug_mode, builtins.int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    _DETERMINISTIC[0] = builtins.int(debug_mode)


def get_deterministic_debug_mode():
    return _DETERMINISTIC[0]


_MATMUL_PRECISION = ["highest"]


def get_float32_matmul_precision():
    return _MATMUL_PRECISION[0]


def set_float32_matmul_precision(precision):
    """Recorded only: doctensor's float32 matmul is always computed at ``'highest'``
    precision (no TF32 or bfloat16 passes)."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect. (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:458.)", UserWarning,
                      stacklevel=2)
        return
    _MATMUL_PRECISION[0] = precision


def set_anomaly_enabled(enabled, check_nan=True):
    """Switch anomaly detection on or off (what ``autograd.set_detect_anomaly`` does)."""
    AnomalyMode.enabled, AnomalyMode.check_nan = bool(enabled), bool(check_nan)


def compiled_with_cxx11_abi():
    """True, as for torch's own wheels (doctensor has no C++ part)."""
    return True


def get_default_device():
    """The device factories use when given none: ``set_default_device``'s (one without an
    index: the device a tensor made there gets), else ``device(type='cpu')``."""
    chosen = _DEFAULT_DEVICE_SET[0]  # (misc3)
    if chosen is None:
        return device_cls("cpu")
    return chosen if chosen.index is not None else creation.tensor([]).device


def set_default_tensor_type(t):
    """Deprecated (warns as torch does): ``torch.DoubleTensor`` or ``'torch.DoubleTensor'``
    sets the default dtype; CPU floating types only."""
    warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                  "torch.set_default_dtype() and torch.set_default_device() as alternatives. "
                  "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/tensor/"
                  "python_tensor.cpp:434.)",
                  UserWarning, stacklevel=2)
    name = t if isinstance(t, str) else f"torch.{t.__name__}"
    legacy = _LEGACY_TYPES.get(name)
    if legacy is None:
        raise TypeError(f"invalid type: '{name}'")
    if not legacy.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtypes.set_default_dtype(legacy.dtype)


_LEGACY_TYPES = {f"torch.{c.__name__}": c for c in (
    FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor,
    ByteTensor, BoolTensor)}


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """``obj`` as a tensor, sharing memory when it can (a tensor of the asked dtype and device
    comes back as itself, a NumPy array is wrapped); ``copy=True`` always copies."""
    if isinstance(obj, np.ndarray) and obj.dtype in _dtypes._BY_NP:
        obj = creation.from_numpy(obj)
    if isinstance(obj, Tensor):
        out = obj.to(device=device or creation.DEFAULT_DEVICE[0] or obj.device,
                     dtype=dtype or obj.dtype)  # (misc3: Note [default device])
        if copy and out is obj:
            out = creation.clone(obj)
        elif copy is False and out is not obj:
            if out.dtype is not obj.dtype:
                raise ValueError(f"can't alias tensor with dtype '{obj.dtype.scalar_name}' into "
                                 f"dtype '{out.dtype.scalar_name}'.")
            raise ValueError(f"can't alias tensor from device '{obj.device}' to "
                             f"'{out.device}'.")
    else:
        out = creation.tensor(obj, dtype, device)
    return out.requires_grad_() if requires_grad else out


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-d tensor over the memory of a Python buffer (shared, as torch's)."""
    array = np.frombuffer(buffer, dtype=dtype.np, count=count, offset=offset)
    if not array.flags.writeable:
        warnings.warn(_NOT_WRITABLE, UserWarning, stacklevel=2)
        array = array.copy()  # NumPy refuses to write a read-only buffer: a copy instead
    out = creation.from_numpy(array)
    return out.requires_grad_() if requires_grad else out


_NOT_WRITABLE = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. "
    "This means you can write to the underlying (supposedly non-writable) buffer using the "
    "tensor. You may want to copy the buffer to protect its data or make it writable before "
    "converting it to a tensor. This type of warning will be suppressed for the rest of this "
    "program. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/"
    "tensor_new.cpp:1583.)")


def empty_permuted(size, physical_layout, *, dtype=None, device=None, requires_grad=False):
    """An uninitialised tensor of ``size`` whose dimensions lie in memory in the order
    ``physical_layout`` (outermost first)."""
    size = tuple(size)
    stride, step = [0] * len(size), 1
    for d in reversed(tuple(physical_layout)):
        stride[d] = step
        step *= size[d]
    return creation.empty_strided(size, tuple(stride), dtype, device, requires_grad)


# -- window functions: torch's compositions (so float32 values share doctensor's cos) --

def _window(name, window_length, dtype, device, requires_grad, make):
    dtype = dtype or get_default_dtype()
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                           f"{dtype.c_name}, device=cpu, layout=Strided (default), "
                           "requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    with no_grad():
        if window_length <= 1:
            w = creation.full((window_length,), 1, dtype)
        else:
            w = make(dtype)
        w = creation.clone(w).to(device or w.device)  # (made on the default device)
    return w.requires_grad_() if requires_grad else w


def _periodic(make, window_length, periodic):
    """torch's windows lengthen a periodic window by one and cut the last value off."""
    length = window_length + 1 if periodic else window_length
    return lambda dtype: make(creation.arange(0, length, 1, dtype), length)[:window_length]


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
                   layout=strided, device=None, requires_grad=False):
    """``alpha - beta * cos(2 pi n / (N - 1))``."""
    def make(n, length):
        return n.mul_(math.pi * 2.0 / (length - 1)).cos_().mul_(-beta).add_(alpha)
    return _window("hamming_window", window_length, dtype, device, requires_grad,
                   _periodic(make, window_length, periodic))


def hann_window(window_length, periodic=True, *, dtype=None, layout=strided, device=None,
                requires_grad=False):
    """The Hamming window with ``alpha = beta = 0.5`` (torch computes it so)."""
    if (dtype or get_default_dtype()).is_floating_point and window_length >= 0:
        return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, device=device,
                              requires_grad=requires_grad)
    return _window("hann_window", window_length, dtype, device, requires_grad, None)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=strided, device=None,
                    requires_grad=False):
    """The triangle ``2n / (N - 1)``, mirrored as ``2 - 2n / (N - 1)`` past the middle."""
    def make(n, length):
        w = n.mul_(2.0 / (length - 1))
        half = ((length - 1) >> 1) + 1
        w[half:].mul_(-1).add_(2)
        return w
    return _window("bartlett_window", window_length, dtype, device, requires_grad,
                   _periodic(make, window_length, periodic))


def blackman_window(window_length, periodic=True, *, dtype=None, layout=strided, device=None,
                    requires_grad=False):
    """``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``, in torch's order."""
    def make(n, length):
        w = n.mul_(math.pi / (length - 1))
        return w.mul(4).cos_().mul_(0.08) - w.mul(2).cos_().mul_(0.5) + 0.42
    return _window("blackman_window", window_length, dtype, device, requires_grad,
                   _periodic(make, window_length, periodic))


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=strided,
                  device=None, requires_grad=False):
    """``I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta)`` with ``a = (N - 1) / 2``, computed in
    float64 (NumPy's ``i0``) and rounded: float32 values may differ from torch's float
    kernel in the last bit."""
    def make(n, length):
        a = (length - 1) / 2.0
        x = np.arange(length, dtype=np.float64)
        w = np.i0(beta * np.sqrt(np.abs(1 - ((x - a) / a) ** 2))) / np.i0(beta)
        return creation.tensor(w, n.dtype)
    return _window("kaiser_window", window_length, dtype, device, requires_grad,
                   _periodic(make, window_length, periodic))


__all__ += ["e", "pi", "inf", "nan", "newaxis", "legacy_contiguous_format", "finfo", "iinfo",
            "layout", "strided", "poisson", "binomial", "is_floating_point", "is_signed",
            "is_nonzero", "get_device", "UntypedStorage", "TypedStorage",
            "is_same_size", "is_inference", "is_storage", "typename", "scalar_tensor", "fill",
            "fill_", "zero_", "detach_", "compile", "get_num_threads", "set_num_threads",
            "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
            "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
            "get_deterministic_debug_mode",
            "get_float32_matmul_precision", "set_float32_matmul_precision",
            "set_anomaly_enabled", "compiled_with_cxx11_abi", "get_default_device",
            "set_default_tensor_type", "asarray",
            "frombuffer", "empty_permuted", "hamming_window", "hann_window", "bartlett_window",
            "blackman_window", "kaiser_window"]


# -- rest of torch.*: nonzero_static, DLPack (misc2) -----------------------------------------

def nonzero_static(input, *, size, fill_value=-1):
    """``nonzero(input)`` cut or padded with ``fill_value`` rows to exactly ``size`` rows."""
    return input.nonzero_static(size=size, fill_value=fill_value)


class _Capsule:
    """A legacy DLPack capsule (``to_dlpack``'s) presented as a ``__dlpack__`` producer."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **_):
        return self.capsule

    def __dlpack_device__(self):
        return 1, 0  # (NumPy reads CPU capsules only)


def _writable(array):
    """A writable alias of ``array``: NumPy marks the arrays it reads from legacy capsules
    read-only, though the producer's memory is writable and shared (the alias keeps
    ``array``, and through it the producer's memory, alive)."""
    if array.flags.writeable or array.size == 0:
        return array
    span = builtins.sum((n - 1) * s for n, s in zip(array.shape, array.strides)) + array.itemsize
    memory = (ctypes.c_char * span).from_address(array.__array_interface__["data"][0])
    memory.owner = array
    return np.ndarray(array.shape, array.dtype, buffer=memory, strides=array.strides)


_DL_CUDA = 2  # DLPack's kDLCUDA


def from_dlpack(ext_tensor, *, device=None, copy=None):
    """A tensor sharing the memory of a DLPack producer (a NumPy array, a torch tensor, a
    capsule from ``to_dlpack``; a CuPy array or CUDA torch tensor on a GPU, through CuPy):
    writes through either side show in the other."""
    if hasattr(ext_tensor, "__dlpack_device__") and \
            ext_tensor.__dlpack_device__()[0] == _DL_CUDA:
        return _from_cuda_dlpack(ext_tensor, device, copy)
    if not hasattr(ext_tensor, "__dlpack__"):
        if type(ext_tensor).__name__ != "PyCapsule":
            raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor "
                               "capsules can be consumed only once, so you might have already "
                               "constructed a tensor from it once.")
        ext_tensor = _Capsule(ext_tensor)
    out = creation.from_numpy(_writable(np.from_dlpack(ext_tensor, copy=copy)))
    return out if device is None else out.to(device)


def _from_cuda_dlpack(ext_tensor, device, copy):
    """A CUDA producer's memory as a ``cuda`` tensor: CuPy reads it (written for the GPU
    draw, never run on one yet)."""
    from ._tensor_base import wrap
    from .backends import cuda_backend

    backend = cuda_backend()
    if not backend.is_real_gpu:
        raise RuntimeError("doctensor: a CUDA DLPack tensor needs CuPy and a GPU; the "
                           "emulated CUDA device holds no device memory")
    array = backend.xp.from_dlpack(ext_tensor) if copy is None else \
        backend.xp.from_dlpack(ext_tensor, copy=copy)
    out = wrap(Tensor, array, device_cls("cuda", ext_tensor.__dlpack_device__()[1]), backend)
    return out if device is None else out.to(device)


def to_dlpack(tensor):
    """A DLPack capsule of ``tensor``'s memory (for ``from_dlpack`` in another library)."""
    return tensor._data.__dlpack__()


def norm_except_dim(v, pow=2, dim=0):  # noqa: A002 (torch's argument name)
    """The ``pow``-norm over every dimension but ``dim``, shaped to broadcast against ``v``
    (weight normalisation's ``||v||``); ``dim=-1``: the norm of all of ``v``."""
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        shape = (v.shape[0],) + (1,) * (v.dim() - 1)
        return _at_norm(v.contiguous().view(v.shape[0], -1), pow, 1).view(shape)
    if dim == v.dim() - 1:
        shape = (1,) * (v.dim() - 1) + (v.shape[-1],)
        return _at_norm(v.contiguous().view(-1, v.shape[-1]), pow, 0).view(shape)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _at_norm(x, p, dim):
    """at::norm(x, p, dim): the vector norm under torch's C++ node (NormBackward1)."""
    return apply(linalg.frobenius_op, x, ord=builtins.float(p), dims=(dim,), keepdim=False)


__all__ += ["nonzero_static", "from_dlpack", "to_dlpack", "norm_except_dim"]


# -- convolutions and pixel shuffles also named torch.* (J) ---------------------------------
from .ops import convolution as _convolution  # noqa: E402
from .ops import resampling as _resampling  # noqa: E402

__all__ += ["conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
            "pixel_shuffle", "pixel_unshuffle"]


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution.conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _convolution.conv_transpose1d(input, weight, bias, stride, padding, output_padding,
                                         groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _convolution.conv_transpose2d(input, weight, bias, stride, padding, output_padding,
                                         groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return _convolution.conv_transpose3d(input, weight, bias, stride, padding, output_padding,
                                         groups, dilation)


def pixel_shuffle(input, upscale_factor):
    return _resampling.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    return _resampling.pixel_unshuffle(input, downscale_factor)


# -- gamma samplers (U) --
# torch's private samplers of the gamma family (torch.distributions' Gamma and Dirichlet call
# them): attributes of the doctensor module, as of torch, but outside ``__all__``.

def _standard_gamma(input, generator=None):
    """A Gamma(input, 1) sample per element, torch's bits (Note [gamma sampler])."""
    return random_ops.standard_gamma(input, generator)


def _standard_gamma_grad(input, output):
    """The reparameterization gradient of ``_standard_gamma``'s ``output`` in ``input``."""
    return random_ops.standard_gamma_grad(input, output)


def _sample_dirichlet(input, generator=None):
    """A Dirichlet(input) sample over the last dim, torch's bits (Note [gamma sampler])."""
    return random_ops.sample_dirichlet(input, generator)


def _dirichlet_grad(x, alpha, total):
    """The reparameterization gradient of a Dirichlet sample ``x`` in ``alpha``."""
    return random_ops.dirichlet_grad(x, alpha, total)


# -- set_default_device, segment_reduce (misc3) ---------------------------------------------
from . import device as _device_module  # noqa: E402
from .device import as_device  # noqa: E402

__all__ += ["set_default_device", "segment_reduce"]

_DEFAULT_DEVICE_SET = [None]  # the device as set_default_device was given it (None: none)


def set_default_device(device):
    """Make the factories (``tensor``, ``zeros``, ``rand``, ``arange`` ...; not the ``*_like``
    ones, ``from_numpy`` or tensor methods) create tensors on ``device`` when given none;
    None: back to the CPU (Note [default device]).  One default for all threads (torch keeps
    one per thread)."""
    chosen = None if device is None else device_cls(device)
    creation.DEFAULT_DEVICE[0] = None if chosen is None else as_device(chosen)
    _DEFAULT_DEVICE_SET[0] = chosen


_device_module.DEFAULT_DEVICE_HOOKS.update(get=lambda: _DEFAULT_DEVICE_SET[0],
                                           set=set_default_device)


__all__ += ["affine_grid_generator"]


def affine_grid_generator(theta, size, align_corners):
    """The sampling grid of the affine maps ``theta`` over an output of ``size``
    (``F.affine_grid`` without its checks)."""
    return _resampling.affine_grid_generator(theta, size, align_corners)


__all__ += ["grid_sampler", "grid_sampler_2d", "grid_sampler_3d"]


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """``F.grid_sample`` with torch's mode numbers (4-d or 5-d inputs)."""
    sampler = _resampling.grid_sampler_3d if input.dim() == 5 else _resampling.grid_sampler_2d
    return sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    """``grid_sampler`` of (N, C, H, W) inputs."""
    return _resampling.grid_sampler_2d(input, grid, interpolation_mode, padding_mode,
                                       align_corners)


def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0,
                   unsafe=False, initial=None):
    """``reduce`` ('sum', 'mean', 'max', 'min', 'prod') over segments of ``data`` along
    ``axis``, given by ``lengths`` or ``offsets``, from ``initial``."""
    return reduction.segment_reduce(data, reduce, lengths, indices, offsets, axis, unsafe,
                                    initial)


def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    """``grid_sampler`` of (N, C, D, H, W) inputs."""
    return _resampling.grid_sampler_3d(input, grid, interpolation_mode, padding_mode,
                                       align_corners)
