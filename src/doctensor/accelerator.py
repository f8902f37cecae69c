"""``torch.accelerator``: the device-neutral view of the machine's accelerator.

doctensor's accelerator is its CUDA device when that device is a real GPU (CuPy): then these
functions answer for it.  The emulated CUDA device (NumPy memory behind a ``cuda`` identity,
see ``backends``) is not an accelerator, just as ``torch.cuda.is_available()`` is False for
it, so with the emulator (or ``DOCTENSOR_CUDA=off``) doctensor answers as torch's CPU build
does on a machine without a GPU: ``is_available()`` is False, ``current_accelerator()`` is
None, ``device_count()`` is 0, and the functions that need a device raise torch's error.

    >>> import doctensor as torch
    >>> torch.accelerator.is_available() == torch.cuda.is_available()
    True
"""

import warnings

from . import backends, cuda
from .device import device as _device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index",
           "current_device_idx", "set_device_index", "set_device_idx", "synchronize",
           "device_index", "memory_allocated", "empty_cache"]

_NONE = "Cannot access accelerator device when none is available."


def is_available():
    """True when a real GPU backs the ``cuda`` device (CuPy)."""
    return backends.cuda_mode() == "cupy"


def _require():
    if not is_available():
        raise RuntimeError(_NONE)


def _index(device):
    """The device index of ``device`` (an index, a device or its string); None: current."""
    if device is None:
        return current_device_index()
    if isinstance(device, int):
        return device
    return _device(device).index or 0


def current_accelerator(check_available=False):
    """``device(type='cuda')`` with a real GPU, else None."""
    return _device("cuda") if is_available() else None


def device_count():
    return cuda.device_count() if is_available() else 0


def current_device_index():
    _require()
    return cuda.current_device()


def set_device_index(device, /):
    _require()
    cuda.set_device(_index(device))


def current_device_idx():
    """Deprecated spelling of ``current_device_index`` (warns as torch does)."""
    warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def set_device_idx(device, /):
    """Deprecated spelling of ``set_device_index`` (warns as torch does)."""
    warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


def synchronize(device=None, /):
    """Wait for the GPU's queued work (CuPy's device synchronize)."""
    _require()
    cuda.synchronize(device)


def memory_allocated(device_index=None, /):
    _require()
    return cuda.memory_allocated(device_index)


def empty_cache():
    """Release CuPy's cached, unused GPU memory."""
    _require()
    backends.cuda_backend().xp.get_default_memory_pool().free_all_blocks()


class device_index:
    """Context manager: make ``device`` the current accelerator device inside the block
    (None: do nothing)."""

    def __init__(self, device, /):
        self.index = device
        self.previous = None

    def __enter__(self):
        if self.index is not None:
            self.previous = current_device_index()
            set_device_index(self.index)

    def __exit__(self, *exc):
        if self.previous is not None:
            set_device_index(self.previous)
