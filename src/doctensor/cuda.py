"""``torch.cuda``: what the ``cuda`` device runs on (CuPy on a GPU, else the emulator)."""

from . import backends
from .amp import cuda_amp as amp
from .ops import random_ops

__all__ = ["amp", "is_available", "device_count", "current_device", "set_device", "synchronize",
           "get_device_name", "manual_seed", "manual_seed_all", "memory_allocated",
           "memory_reserved", "empty_cache"]


def is_available():
    """True only when a real GPU is visible through CuPy (the emulator does not count)."""
    return backends.cuda_mode() == "cupy"


def device_count():
    return 1 if backends.cuda_mode() != "off" else 0


def current_device():
    backends.cuda_backend()
    return 0


def set_device(device):
    index = getattr(device, "index", device)
    if index not in (0, None):
        raise RuntimeError("CUDA error: invalid device ordinal")


def synchronize(device=None):
    backends.cuda_backend().synchronize()


def get_device_name(device=None):
    return backends.cuda_backend().device_name()


def manual_seed(seed):
    random_ops.cuda_generator().manual_seed(int(seed))


manual_seed_all = manual_seed


def memory_allocated(device=None):
    backend = backends.cuda_backend()
    if backend.is_real_gpu:
        return backend.xp.get_default_memory_pool().used_bytes()
    return 0


def memory_reserved(device=None):
    """Bytes the device's memory pool holds (CuPy's pool; 0 on the emulator)."""
    if backends.cuda_mode() == "cupy":
        return backends.cuda_backend().xp.get_default_memory_pool().total_bytes()
    return 0


def empty_cache():
    """Give the unused blocks of the memory pool back to the device (nothing to give on the
    emulator, or before CUDA is used: torch's is then a no-op too)."""
    if backends.cuda_mode() == "cupy":
        backends.cuda_backend().xp.get_default_memory_pool().free_all_blocks()
