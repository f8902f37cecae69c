"""The tensor's data structure: storage + offset + sizes + strides + dtype + autograd metadata.

No math lives here (that is ``ops/`` and ``tensor.py``).  A tensor keeps ``_data``, an array
of its backend that *is* the strided window onto its storage, so every op runs straight on
it; sizes, strides and the offset are read back from that window.  The storage and the
version counter are created lazily, the first time something asks for them, so a fresh op
result costs one object.
"""

import sys
import warnings

import numpy as _np

from . import _dtypes
from ._strides import contiguous_strides, is_contiguous, wrap_dim
from .size import Size
from .storage import Storage, VersionCounter

__all__ = ["TensorBase", "wrap", "warn_once"]


class _Switch:
    on = False


# Set by ``autograd.grad_mode.inference_mode`` (Note [inference mode]); read by ``wrap``.
INFERENCE = _Switch()
INFERENCE_INPLACE_ERROR = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")


class TensorBase:
    """Storage-level state of a tensor (see the module docstring).

    Instances keep their state in ``__dict__``; every field but ``_data``, ``_device`` and
    ``_backend`` has a class-level default, so a new tensor costs three assignments.
    """

    _storage = None  # the Storage, made on first use (untyped_storage())
    _vc = None  # the VersionCounter, made on first use (Note [version counter])
    _base = None  # the tensor a view was made from (its root), else None
    _requires_grad = False
    # a view's _requires_grad only read from its base (no flag of its own, no grad_fn): it
    # has no AccumulateGrad (Note [views of a base without history])
    _requires_grad_of_base = False
    _grad_fn = None
    _grad = None
    _output_nr = 0
    _view_version = None  # a differentiable view: the version its grad_fn was made at
    _retains_grad = False
    _hooks = None
    _grad_acc = None  # weak reference to the leaf's AccumulateGrad node
    _post_accumulate_hooks = None
    _inference = False  # Note [inference mode]
    _creation_meta = None  # Note [CopySlices]: how a differentiable view was made
    _plain_views = None  # Note [views of a base without history]: weak refs to such views
    _offset = None  # (_data, its storage offset): known offsets, kept while _data stays
    _implicit = False  # the gradient backward() made for a scalar output (autograd.api)

    # -- storage and layout ---------------------------------------------------------------
    @property
    def dtype(self):
        return _dtypes._BY_NP[self._data.dtype]

    @property
    def device(self):
        return self._device

    @property
    def is_cuda(self):
        return self._device.type == "cuda"

    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        """The shape as ``torch.Size``, or the size of one dim."""
        if dim is None:
            return self.shape
        return self._data.shape[wrap_dim(dim, self._data.ndim)]

    @property
    def ndim(self):
        return self._data.ndim

    def dim(self):
        return self._data.ndim

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    def stride(self, dim=None):
        """Strides in elements, as torch counts them."""
        item = self._data.itemsize
        strides = tuple([s // item for s in self._data.strides])
        if dim is None:
            return strides
        return strides[wrap_dim(dim, self._data.ndim)]

    def untyped_storage(self):
        """The Storage shared by this tensor and its views."""
        if self._storage is None:
            self._storage = Storage(self._data, self._backend, self._device)
        return self._storage

    def storage_offset(self):
        if self._storage is None:  # the storage, made from this tensor, starts at its data
            return 0
        known = self._offset
        if known is not None and known[0] is self._data:
            return known[1]
        storage = self._storage
        if storage.nbytes() == 0:
            return 0
        delta = self._backend.data_ptr(self._data) - storage.data_ptr()
        offset = delta // self._data.itemsize
        self._offset = (self._data, offset)  # reading an address costs ~1 us
        return offset

    def data_ptr(self):
        """Address of the first element (``storage.data_ptr() + offset * itemsize``)."""
        if self._data.size == 0:
            return 0
        return self._backend.data_ptr(self._data)

    def is_contiguous(self, memory_format=None):
        return is_contiguous(self._data.shape, self.stride())

    # -- version counter and views --------------------------------------------------------
    def _version_counter(self):
        if self._vc is None:
            self._vc = VersionCounter()
        return self._vc

    @property
    def _version(self):
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._vc is None else self._vc.value

    def _bump_version(self):
        if self._inference and not INFERENCE.on:  # Note [inference mode]
            raise RuntimeError(INFERENCE_INPLACE_ERROR)
        vc = self._vc
        if vc is None:
            vc = self._vc = VersionCounter()
        vc.value += 1

    def _is_view(self):
        return self._base is not None

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def get_device(self):
        return -1 if self._device.type == "cpu" else self._device.index

    # -- autograd metadata (the graph itself lives in autograd/) ---------------------------
    @property
    def is_leaf(self):
        return self._grad_fn is None

    @property
    def output_nr(self):
        return self._output_nr


WARNED_ONCE = set()  # the messages warn_once has given


def warn_at_user(message, once=False):
    """A UserWarning (torch's TORCH_WARN; ``once``: TORCH_WARN_ONCE) pointing at the first
    line outside doctensor: the user's, however deep in doctensor it is raised (``checked``'s
    wrapper frame, which warnings skip, is not counted)."""
    if once:
        if message in WARNED_ONCE:
            return
        WARNED_ONCE.add(message)
    frame, level = sys._getframe(1), 2
    while frame is not None:
        name = frame.f_code.co_filename
        if not ("importlib" in name and "_bootstrap" in name):
            if not frame.f_globals.get("__name__", "").startswith("doctensor."):
                break
            level += 1
        frame = frame.f_back
    warnings.warn(message, UserWarning, stacklevel=level)


def warn_once(message, stacklevel=3):
    """A UserWarning given once per process, as torch's TORCH_WARN_ONCE (``stacklevel`` 3:
    the code that called the caller)."""
    if message not in WARNED_ONCE:
        WARNED_ONCE.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)


def empty_strides(data, force=False):
    """``data`` itself, or for an empty array NumPy left with zero strides, a view with torch's
    contiguous strides (NumPy gives fresh empty arrays strides of 0)."""
    if data.size or not data.ndim or (data.base is not None and not force):
        return data  # views keep their strides
    want = tuple(s * data.itemsize for s in contiguous_strides(data.shape))
    if data.strides == want:
        return data
    return _np.lib.stride_tricks.as_strided(data, strides=want)


def wrap(cls, data, device, backend, requires_grad=False):
    """A new tensor of class ``cls`` owning the fresh array ``data``."""
    if not data.size:
        data = empty_strides(data)
    return _wrap(cls, data, device, backend, requires_grad)


def _wrap(cls, data, device, backend, requires_grad=False):
    """``wrap`` without the empty-array stride fix (``data`` keeps its strides)."""
    t = object.__new__(cls)  # every other field keeps its class-level default
    t._data = data
    t._device = device
    t._backend = backend
    if requires_grad:
        t._requires_grad = True
    if INFERENCE.on:
        t._inference = True
    return t


def alias(cls, src, data, share_version=True):
    """A tensor over ``src``'s storage (a view, ``detach()`` or ``.data``)."""
    t = _wrap(cls, data, src._device, src._backend)
    if INFERENCE.on and not src._inference:
        del t._inference  # a view takes its base's kind (Note [inference mode])
    elif src._inference:
        t._inference = True
    t._storage = src.untyped_storage()
    t._vc = src._version_counter() if share_version else None
    t._offset = src._offset  # kept while ``data`` is src's (an empty view's past its storage)
    return t
