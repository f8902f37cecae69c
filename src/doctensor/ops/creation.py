"""Creating and copying tensors: factories, ``clone``, ``to``, ``copy_``, ``fill_``, ``zero_``."""

import copy
import math
import numbers
import warnings

import numpy as np

from .. import _dtypes
from .._argparser import type_name
from .._dtypes import _BY_NP, from_numpy_dtype, get_default_dtype, int64
from .._exact.fma import fma32, fma64
from .._strides import (
    broadcast_shapes,
    contiguous_format,
    contiguous_strides,
    preserve_format,
    preserve_strides,
)
from .._tensor_base import TensorBase, _wrap, wrap
from ..backends import for_device
from ..device import CPU, as_device
from ..device import device as _device
from . import _registry as R
from ._dispatch import apply, apply_, autograd_check_, check_partial_overlap
from ._layout import copy_as, preserve_layout, strided_zeros
from ._registry import declare

__all__ = ["new_tensor", "tensor", "full", "full_like", "zeros_like", "from_array", "empty",
           "arange", "linspace", "logspace", "eye", "from_numpy", "as_tensor", "clone", "to",
           "convert", "copy_", "fill_", "zero_", "empty_strided", "dtype_arg", "allocation_error"]

# Note [default device]: the device of ``torch.set_default_device`` (None: none set), which
# the factories take when given no device: new_tensor (tensor, arange, linspace, logspace, eye),
# full (zeros, ones, empty, the random factories) and empty_strided; as_tensor moves a tensor
# there only when one is set.  Tensors made inside ops name their device (torch's C++ ignores
# the default; the factories named from Python, as torch's Python code names them, follow it).
DEFAULT_DEVICE = [None]

# the Python types torch takes for a dtype argument
_NUMBERS = (int, float, bool, complex)
_PY_DTYPES = {float: _dtypes.float64, int: int64, bool: _dtypes.bool_,
              complex: _dtypes.complex128}


def dtype_arg(fname, dtype):
    """A factory's ``dtype`` argument: a dtype, None, or a Python type (``float`` is float64,
    as in torch); anything else gets torch's TypeError naming ``fname``."""
    if dtype is None or isinstance(dtype, _dtypes.dtype):
        return dtype
    if isinstance(dtype, type) and dtype in _PY_DTYPES:
        return _PY_DTYPES[dtype]
    raise TypeError(f"{fname}(): argument 'dtype' must be torch.dtype, not "
                    f"{type(dtype).__name__}")


def allocation_error(size, dtype):
    """torch's error when the CPU allocator cannot give ``size`` elements of ``dtype`` (NumPy's
    MemoryError must not reach a user)."""
    nbytes = math.prod(size) * dtype.itemsize
    return RuntimeError(f"[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
                        f"can't allocate memory: you tried to allocate {nbytes} bytes. Error "
                        f"code 12 (Cannot allocate memory)")


def check_requires_grad(dtype, requires_grad):
    """A factory's ``requires_grad``: a bool (torch's parser takes no other type: the
    wrapper of ``_argparser.checked`` words the error), for a floating or complex dtype."""
    if requires_grad.__class__ is not bool:
        raise TypeError(f"argument 'requires_grad' must be bool, not {type_name(requires_grad)}")
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")


def new_tensor(host_array, device=None, requires_grad=False, keep_strides=False):
    """A leaf tensor holding ``host_array`` (a NumPy array, taken without copying on CPU).

    ``keep_strides``: keep even the strides NumPy gives empty arrays (torch.tensor(ndarray)
    and from_numpy take the array's strides as they are).
    """
    device = as_device(device) or DEFAULT_DEVICE[0] or CPU  # Note [default device]
    backend = for_device(device)
    data = host_array if device.type == "cpu" else backend.from_host(host_array)
    dtype = _BY_NP[data.dtype]
    check_requires_grad(dtype, requires_grad)
    if keep_strides:
        return _wrap(R.Tensor, data, device, backend, requires_grad)
    return wrap(R.Tensor, data, device, backend, requires_grad)


def _infer_dtype(data):
    """torch.tensor's dtype for Python data: bool, int64, or the default float dtype."""
    kinds = set()

    def walk(x):
        if isinstance(x, R.Tensor):
            kinds.add(x.dtype)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif isinstance(x, (bool, np.bool_)):
            kinds.add(_dtypes.bool_)
        elif isinstance(x, np.generic):
            kinds.add(from_numpy_dtype(x.dtype))  # a NumPy scalar keeps its dtype
        elif isinstance(x, int) and not -2**63 <= x < 2**63:
            raise ValueError("Overflow when unpacking long long")
        elif isinstance(x, numbers.Integral):
            kinds.add(int64)
        elif isinstance(x, numbers.Real):
            kinds.add(get_default_dtype())
        elif isinstance(x, numbers.Complex):
            kinds.add(_dtypes.get_default_complex_dtype())
        elif isinstance(x, str):
            raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type_name(x)}")
    first = data
    while isinstance(first, (list, tuple)) and first:
        first = first[0]
    if isinstance(first, str):  # torch reads a string as a sequence of strings, forever
        raise ValueError("too many dimensions 'str'")
    walk(data)
    if not kinds:
        return get_default_dtype()
    out = None
    for k in kinds:
        out = k if out is None else _dtypes.promote_types(out, k)
    return out


def _check_ragged(data, dtype):
    """torch's errors for nested data that is not a rectangle: the shape comes from the first
    items, and every part must match it."""
    shape = []
    x = data
    while isinstance(x, (list, tuple)):
        shape.append(len(x))
        if not x:
            break
        x = x[0]

    def check(x, dim):
        if dim == len(shape):
            if isinstance(x, (list, tuple)):
                if dtype.is_floating_point:
                    raise TypeError(f"must be real number, not {type(x).__name__}")
                raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an "
                                "integer")
            return
        if isinstance(x, R.Tensor):
            return
        if not isinstance(x, (list, tuple)):
            raise TypeError("not a sequence")
        if len(x) != shape[dim]:
            raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got "
                             f"{len(x)})")
        for item in x:
            check(item, dim + 1)
    check(data, 0)


def _host(data):
    if isinstance(data, R.Tensor):
        return data._backend.to_host(data._data)
    if isinstance(data, (list, tuple)):
        return [_host(d) for d in data]
    return data


def tensor(data, dtype=None, device=None, requires_grad=False):
    """torch.tensor: always copies ``data`` into a new leaf tensor."""
    dtype = dtype_arg("tensor", dtype)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if isinstance(data, R.Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
                      "requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=3)
        dtype = dtype or data.dtype
        arr = np.array(data._backend.to_host(data._data), dtype=dtype.np)
    elif isinstance(data, np.ndarray):
        dtype = dtype or from_numpy_dtype(data.dtype)
        arr = np.array(data, dtype=dtype.np)
        return new_tensor(arr, device, requires_grad, keep_strides=True)
    else:
        inferred = _infer_dtype(data)
        _check_ragged(data, dtype or inferred)
        if dtype is None or dtype is inferred:
            arr = np.array(_host(data), dtype=(dtype or inferred).np)
        else:  # Python numbers are doubles and int64s until converted (and checked)
            wide = np.complex128 if inferred.is_complex else \
                np.float64 if inferred.is_floating_point else inferred.np
            arr = _checked_array(np.array(_host(data), dtype=wide), dtype)
    return new_tensor(arr, device, requires_grad)


def _checked_array(arr, dtype):
    """``arr`` converted to ``dtype`` with torch.tensor's overflow check (C-style casts)."""
    if dtype.category == 1 and arr.size and arr.dtype != np.bool_:
        info = np.iinfo(dtype.np)
        if arr.dtype.kind == "f":
            bad = np.isnan(arr) | (arr > info.max) | (arr < info.min)
        else:
            bad = (arr > info.max) | (arr < (-info.max if info.min == 0 else info.min))
        if bad.any():
            _dtypes.check_fits(arr[bad].reshape(-1)[0].item(), dtype, c_name=False)
    return arr.astype(dtype.np)


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, numbers.Integral):
            raise TypeError(f"empty(): argument 'size' (position 1) must be tuple of ints, but "
                            f"found element of type {type(s).__name__} at pos 0")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(map(str, size))}]")
    return tuple(int(s) for s in size)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    """torch.full: ``size`` filled with ``fill_value`` (dtype inferred from it)."""
    if fill_value.__class__ not in _NUMBERS and isinstance(fill_value, TensorBase) and \
            fill_value._data.ndim:  # (torch's parser takes a 0-d tensor only: it words this)
        raise TypeError(f"argument 'fill_value' must be Number, not {type_name(fill_value)}")
    dtype = dtype or _dtypes.scalar_dtype(fill_value)
    check_requires_grad(dtype, requires_grad)
    device = as_device(device) or DEFAULT_DEVICE[0] or CPU  # Note [default device]
    xp = for_device(device).xp
    size = _size(size)
    _dtypes.check_fits(fill_value, dtype)
    try:
        if fill_value.__class__ in (int, bool) and not fill_value:  # (fresh zeroed pages:
            arr = xp.zeros(size, dtype=dtype.np)  # nothing written until they are used)
        else:
            arr = xp.full(size, _dtypes.cast_scalar(fill_value, dtype), dtype=dtype.np)
    except MemoryError:
        raise allocation_error(size, dtype) from None
    return wrap(R.Tensor, arr, device, for_device(device), requires_grad)


def full_like(t, fill_value, dtype=None, device=None, requires_grad=False, memory_format=None):
    """The ``*_like`` factories: laid out like ``t`` (Note [preserve_format]) or contiguous."""
    out = full(tuple(t._data.shape), fill_value, dtype or _BY_NP[t._data.dtype],
               device or t._device, requires_grad)
    strides = t.stride()
    if out._data.ndim and out.stride() != strides and memory_format in (None, preserve_format):
        out._data = copy_as(out._backend.xp, out._data, preserve_strides(t._data.shape, strides))
    return out


def from_array(array, like):
    """A tensor without history holding the backend array ``array`` (not copied), on
    ``like``'s device: a constant a backward formula computed with array arithmetic."""
    return wrap(R.Tensor, like._backend.xp.asarray(array), like._device, like._backend)


def zeros_like(t):
    """Zeros laid out like ``t``: what torch's formulas give for a constant's gradient."""
    return full_like(t, 0)


def empty_strided(size, stride, dtype=None, device=None, requires_grad=False):
    """torch.empty_strided: ``size`` with element strides ``stride`` over a storage just big
    enough for them (here zero-filled, as ``empty``)."""
    size = _size(size)
    for i, s in enumerate(stride):
        if not isinstance(s, numbers.Integral):
            raise TypeError(f"empty_strided(): argument 'stride' (position 2) must be tuple of "
                            f"ints, but found element of type {type(s).__name__} at pos {i}")
    stride = tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of "
                           f"strides ({len(stride)})")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes="
                           f"[{', '.join(map(str, size))}] and strides="
                           f"[{', '.join(map(str, stride))}]")
    dtype = dtype or get_default_dtype()
    check_requires_grad(dtype, requires_grad)
    device = as_device(device) or DEFAULT_DEVICE[0] or CPU  # Note [default device]
    backend = for_device(device)
    data = strided_zeros(backend.xp, size, stride, dtype.np)
    return _wrap(R.Tensor, data, device, backend, requires_grad)


def empty(size, dtype=None, device=None, requires_grad=False):
    """torch.empty: uninitialised memory (here: zeros, so runs are reproducible)."""
    return full(size, 0, dtype or get_default_dtype(), device, requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    """torch.arange: ``[start, end)`` in steps of ``step``."""
    dtype = dtype_arg("arange", dtype)
    if end is None:
        start, end = 0, start
    values = [start, end, step]
    if dtype is None:
        dtype = get_default_dtype() if any(
            isinstance(v, float) or (isinstance(v, R.Tensor) and v.is_floating_point())
            for v in values) else int64
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype.scalar_name}'")
    start, end, step = (float(v) if dtype.is_floating_point else v for v in values)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    n = math.ceil((end - start) / step)
    if n < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    acc = np.float64 if dtype.is_floating_point else np.int64
    arr = (np.arange(n, dtype=acc) * acc(step) + acc(start)).astype(dtype.np)
    return new_tensor(arr, device, requires_grad) if requires_grad else new_tensor(arr, device)


def _range_args(name, start, end, steps):
    """``linspace`` / ``logspace``'s ends as numbers (0-d tensors read), with torch's errors
    for other ends and steps."""
    ends = []
    for which, value in (("start", start), ("end", end)):
        if isinstance(value, TensorBase):
            if value._data.ndim:
                raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, "
                                   f"but got {which} with {value._data.ndim} dimension(s).")
            value = value.item()
        if not isinstance(value, numbers.Number):
            raise TypeError(f"{name}(): argument '{which}' must be Number, not "
                            f"{type(value).__name__}")
        ends.append(value)
    if not isinstance(steps, numbers.Integral):
        raise TypeError(f"{name}(): argument 'steps' must be int, not {type(steps).__name__}")
    return ends


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    """torch.linspace, computed as ATen does (from both ends towards the middle)."""
    start, end = _range_args("linspace", start, end, steps)
    dtype = dtype_arg("linspace", dtype) or get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    t = dtype.np.type if dtype.is_floating_point else np.float64
    if not (dtype.is_floating_point or dtype.is_complex):  # ends truncated to integers first
        start, end = int(start), int(end)
    if steps == 1:
        arr = np.array([start], dtype=t)
    else:
        arr = _linspace(t, start, end, steps)
    return new_tensor(arr.astype(dtype.np), device, requires_grad)


def _linspace(t, start, end, steps):
    """ATen's linspace kernel in type ``t``: ``start + step * i`` up to the middle, ``end -
    step * (steps - 1 - i)`` after it, each a fused multiply-add in float32 and float64 (the
    compiler contracts them); half precision rounds after each operation."""
    step = (t(end) - t(start)) / t(steps - 1)
    i = np.arange(steps)
    first = i < steps // 2
    k = np.where(first, i, steps - 1 - i).astype(t)
    scale = np.where(first, step, -step).astype(t)
    base = np.where(first, t(start), t(end)).astype(t)
    fma = {np.float32: fma32, np.float64: fma64}.get(t)
    return fma(scale, k, base) if fma else base + scale * k


def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False):
    """torch.logspace, as ATen computes it: the ends in the dtype, their difference over
    ``steps - 1`` in float64, each exponent stepped in float64 from the nearer end (unfused,
    unlike ``linspace``), C's ``pow`` in float64, rounded once to the dtype."""
    start, end = _range_args("logspace", start, end, steps)
    dtype = dtype_arg("logspace", dtype) or get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps == 1:
        arr = _pow(float(base), np.array([float(start)]))
    else:
        t = dtype.np.type if dtype.is_floating_point else np.int64
        first, last = t(start if dtype.is_floating_point else int(start)), \
            t(end if dtype.is_floating_point else int(end))
        step = np.float64(last - first) / np.float64(max(steps - 1, 1))
        i = np.arange(steps)
        near = i < steps // 2
        exponents = np.where(near, np.float64(first) + step * i,
                             np.float64(last) - step * (steps - 1 - i))
        arr = _pow(float(base), exponents)
    if dtype.is_floating_point and dtype.itemsize == 2:  # c10's half types convert via float
        arr = arr.astype(np.float32)
    return new_tensor(arr.astype(dtype.np), device, requires_grad)


def _pow(base, exponents):
    """C's ``pow(base, x)`` for each float64 ``x`` (NumPy's vectorised power differs from it
    in the last bit for some exponents); NaN where it has no real value."""
    def one(x):
        try:
            return math.pow(base, x)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf
    return np.array([one(x) for x in exponents.tolist()], np.float64)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    dtype = dtype_arg("eye", dtype) or get_default_dtype()
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return new_tensor(np.eye(n, n if m is None else m, dtype=dtype.np), device, requires_grad)


_WARNED_READONLY = []


def from_numpy(array):
    """A CPU tensor sharing ``array``'s memory."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")
    from_numpy_dtype(array.dtype)
    if not array.flags.writeable and not _WARNED_READONLY:
        _WARNED_READONLY.append(True)  # torch warns once per process (TORCH_WARN_ONCE)
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support "
                      "non-writable tensors. This means writing to this tensor will result in "
                      "undefined behavior. You may want to copy the array to protect its data "
                      "or make it writable before converting it to a tensor. This type of "
                      "warning will be suppressed for the rest of this program. (Triggered "
                      "internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:213.)",
                      UserWarning, stacklevel=2)
    t = new_tensor(array.view(), CPU, keep_strides=True)
    t.untyped_storage().resizable = False  # NumPy owns it: Note [resize_ grows the storage]
    return t


def as_tensor(data, *, dtype=None, device=None):
    """Share memory with ``data`` when its dtype and device already fit; copy otherwise."""
    device = as_device(device) or DEFAULT_DEVICE[0]  # Note [default device]
    if isinstance(data, R.Tensor):
        out = data
        if dtype is not None or device is not None:
            out = data.to(device=device or data.device, dtype=dtype or data.dtype)
        return out
    if isinstance(data, np.ndarray) and (device is None or device.type == "cpu"):
        t = from_numpy(data)
        return t if dtype is None or dtype is t.dtype else t.to(dtype)
    return tensor(data, dtype=dtype, device=device)


# -- copies ---------------------------------------------------------------------------------------


@declare("clone", "CloneBackward0", layout="strided", unsaved=("memory_format",),
         method="clone", function="clone")
def _clone(xp, a, memory_format=None):
    """A copy laid out like ``a`` (Note [preserve_format]) or contiguous."""
    data = xp.array(a, copy=True)
    if memory_format in ("contiguous", contiguous_format):
        strides = contiguous_strides(a.shape)
        if data.strides != tuple(s * data.itemsize for s in strides):
            data = copy_as(xp, data, strides)
        return data
    return preserve_layout(xp, data, a)  # keeps even an empty copy's strides


@_clone.def_backward
def clone_backward(ctx, grad):
    return (grad,)


def clone(t, memory_format=None):
    """A copy with its own storage; history ``CloneBackward0``."""
    if memory_format is None:
        return apply(_clone, t)
    return apply(_clone, t, memory_format=memory_format)


@declare("_to_copy", "ToCopyBackward0", layout="strided", device_attr="device",
         unsaved=("dtype", "device", "src_device"), method="to")
def _to_copy(xp, a, dtype, device, src_device):
    """A copy in ``dtype``, laid out like ``a``; the dispatch moves it to ``device``.  A
    complex tensor cast to a real dtype keeps its real parts, with torch's warning."""
    if a.dtype.kind == "c" and dtype.category in (1, 2):  # (bool: nonzero, no warning)
        warnings.warn("Casting complex values to real discards the imaginary part (Triggered "
                      "internally at /__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)",
                      UserWarning, stacklevel=5)
        return preserve_layout(xp, a.real.astype(dtype.np, copy=True), a)
    return preserve_layout(xp, a.astype(dtype.np, copy=True), a)


@_to_copy.def_backward
def to_copy_backward(ctx, grad):
    return (grad.to(device=ctx.src_device, dtype=_BY_NP[np.dtype(ctx.input_meta[0][1])]),)


def to(t, device=None, dtype=None, copy=False, non_blocking=False):
    """``Tensor.to``: the tensor itself when nothing changes, else a copy (ToCopyBackward0)."""
    device = as_device(device) or t._device
    dtype = dtype or _BY_NP[t._data.dtype]
    if device == t._device and dtype.np == t._data.dtype and not copy:
        return t
    return apply(_to_copy, t, dtype=dtype, device=device, src_device=t._device)


def _is_dtype(value):
    return isinstance(value, _dtypes.dtype) or isinstance(value, type) and value in _PY_DTYPES


def convert(t, *args, device=None, dtype=None, copy=False, non_blocking=False,
            memory_format=None):
    """``Tensor.to``'s forms: ``to(dtype)``, ``to(device)``, ``to(device, dtype)``,
    ``to(other)``, each followed by the flags ``non_blocking`` and ``copy``; the tensor itself
    when nothing changes.  Arguments of no form raise a TypeError that the wrapper of
    ``_argparser.checked`` words as torch's parser does (``to(True, torch.float32)``)."""
    if args:
        first, flags = args[0], args[1:]
        if isinstance(first, _dtypes.dtype):
            dtype = first
        elif isinstance(first, TensorBase):
            device, dtype = first._device, first.dtype
        elif first.__class__ is str or first is None or isinstance(
                first, (_device, int, np.integer)) and first.__class__ is not bool:
            device = first
            if flags and first.__class__ is int and flags[0].__class__ is bool:
                device, dtype = CPU, int64  # to(1, True): the number as a tensor (torch's)
            elif flags:
                if not (flags[0] is None or _is_dtype(flags[0])):
                    raise TypeError("to() received an invalid combination of arguments")
                dtype, flags = flags[0], flags[1:]
        elif first.__class__ in _NUMBERS:  # a number as torch wraps it: to(1.5), to(True)
            dtype = _PY_DTYPES[first.__class__]
        elif isinstance(first, type) and first in _PY_DTYPES:  # to(float)
            dtype = first
        else:
            raise TypeError("to() received an invalid combination of arguments")
        if flags:
            if len(flags) > 2 or any(f.__class__ is not bool for f in flags):
                raise TypeError("to() received an invalid combination of arguments")
            copy = flags[-1] if len(flags) == 2 else copy
    if isinstance(dtype, type) and dtype in _PY_DTYPES:  # to(float): float64, as torch's
        dtype = _PY_DTYPES[dtype]
    return to(t, device, dtype, copy)


def _check_copy(t, src, non_blocking=False):
    if not isinstance(src, TensorBase):
        raise TypeError(f"copy_(): argument 'src' (position 1) must be Tensor, not "
                        f"{type(src).__name__}")


@declare("copy_", "CopyBackwards", ("self", "src"), check=_check_copy, inplace="copy_")
def _copy(xp, a, src):
    return src


@_copy.def_backward
def copy_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (zeros_like(grad) if n[0] else None, grad if n[1] else None)


_copy.node_cls.name = lambda self: "torch::autograd::CopyBackwards"


# torch's copy_ of a tensor onto its very memory (an alias of the same geometry and dtype)
# returns before its check of overlap: an expanded tensor copied onto itself is no error; the
# version bump and the history stay.
_copy_onto_itself = copy.copy(_copy)
_copy_onto_itself.overlap = "write"


def _onto_itself(t, src):
    a, b = t._data, src._data
    return (a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
            and t._device == src._device and t._backend.data_ptr(a) == src._backend.data_ptr(b))


def copy_(t, src, non_blocking=False):
    """Copy ``src`` (broadcast, cast, moved across devices) into ``t``; one version bump.  A
    Python number is copied as torch wraps it: a 0-d tensor of its own kind (float64, int64,
    bool, complex128)."""
    if non_blocking.__class__ is not bool:
        raise TypeError(f"copy_(): argument 'non_blocking' (position 2) must be bool, not "
                        f"{type_name(non_blocking)}")
    if isinstance(src, (bool, int, float, complex)):
        src = wrap(R.Tensor, np.asarray(src), CPU, for_device(CPU))
    elif 0 in t._data.strides and isinstance(src, TensorBase) and _onto_itself(t, src):
        return apply_(_copy_onto_itself, t, src, write=lambda: None)
    def write():
        check_partial_overlap(t, (src,))
        shape = t._data.shape
        if src._data.shape != shape:
            b = broadcast_shapes(shape, src._data.shape)
            if b != shape:
                raise RuntimeError(f"output with shape [{', '.join(map(str, shape))}] doesn't "
                                   f"match the broadcast shape [{', '.join(map(str, b))}]")
        data = src._data
        if src._device != t._device:
            host = src._backend.to_host(data)
            data = t._backend.xp.asarray(host) if t._device.type != "cpu" else host
        t._data[...] = data
    return apply_(_copy, t, src, write=write)


@declare("fill_", "FillBackward2", inplace="fill_", overlap="write")
def _fill(xp, a, value):
    return value


@declare("fill_", "FillBackward3", ("self", "value"), inplace="fill_")  # through copy_
def _fill_tensor(xp, a, value):
    return value


@_fill_tensor.def_backward
def fill_tensor_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (zeros_like(grad) if n[0] else None), (grad.sum() if n[1] else None)


def _filled_like(xp, a, value):
    """torch.fill's result: laid out like ``a`` (an empty one has zero strides, as torch's)."""
    if not a.size:
        return xp.broadcast_to(xp.zeros((), a.dtype), a.shape)
    return xp.full_like(a, value)


# torch.fill(t, value): out of place, a tensor laid out like t (FillBackward0 / FillBackward1)
@declare("fill", "FillBackward0", kind="pointwise", layout="strided", function="fill")
def fill_out_of_place(xp, a, value):
    return _filled_like(xp, a, value)


@fill_out_of_place.def_backward
def fill_backward(ctx, grad):
    return (zeros_like(grad),)


@declare("fill", "FillBackward1", ("self", "value"), kind="pointwise", layout="strided",
         function="fill")
def fill_tensor_out_of_place(xp, a, value):
    return _filled_like(xp, a, value)


fill_tensor_out_of_place.def_backward(fill_tensor_backward)


@declare("zero_", "ZeroBackward0", inplace="zero_", overlap="write")
def _zero(xp, a):
    return 0


def _zero_gradient(ctx, grad):
    return (zeros_like(grad),)


_fill.def_backward(_zero_gradient)
_zero.def_backward(_zero_gradient)


def fill_(t, value):
    """Fill ``t`` with a Python number or a 0-d tensor (FillBackward2 / FillBackward3)."""
    autograd_check_(t, value)
    if isinstance(value, TensorBase):
        if value.dim() != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.dim()} dimensions.")
        number = value.item()
        return apply_(_fill_tensor, t, value, write=lambda: _write_fill(t, number))
    return apply_(_fill, t, write=lambda: _write_fill(t, value))


def zero_(t):
    return apply_(_zero, t, write=lambda: _write_fill(t, 0))


def _write_fill(t, value):
    """Write the number ``value`` everywhere in ``t``."""
    dtype = _BY_NP[t._data.dtype]
    _dtypes.check_fits(value, dtype)
    t._data[...] = _dtypes.cast_scalar(value, dtype)
