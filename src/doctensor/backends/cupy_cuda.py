"""The CUDA backend on a real GPU through CuPy (imported lazily; an optional extra)."""

import importlib.util

name = "cupy"
is_real_gpu = True


def gpu_visible():
    """True when CuPy is installed and sees at least one GPU."""
    if importlib.util.find_spec("cupy") is None:
        return False
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # CuPy present but no driver / no device
        return False


def _load():
    """Import CuPy on first use and bind it as this module's ``xp``."""
    global xp
    import cupy
    xp = cupy
    return cupy


def data_ptr(array):
    """The device pointer of the array's first element."""
    return array.data.ptr


def as_strided(buffer, shape, strides, offset):
    item = buffer.itemsize
    return _load().ndarray(shape, buffer.dtype, buffer.data + offset * item,
                           tuple(s * item for s in strides))


def from_host(array):
    return _load().asarray(array)


def to_host(array):
    return array.get()


def flat_buffer(array):
    """The 1-D buffer spanning ``array``'s memory (from its first element, strides >= 0)."""
    if array.flags.c_contiguous:
        return array.reshape(-1)
    span = 1 + sum((n - 1) * s for n, s in zip(array.shape, array.strides)) // array.itemsize
    return _load().lib.stride_tricks.as_strided(array, (span if array.size else 0,),
                                                (array.itemsize,))


def synchronize():
    _load().cuda.Device().synchronize()


def device_name():
    cp = _load()
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
    return props["name"].decode()


def __getattr__(attr):
    if attr == "xp":
        return _load()
    raise AttributeError(attr)
