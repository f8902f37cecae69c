"""The CPU backend: NumPy arrays in host memory."""

import numpy as xp

name = "cpu"
is_real_gpu = False


def data_ptr(array):
    """Address of the array's first element."""
    return array.__array_interface__["data"][0]


def as_strided(buffer, shape, strides, offset):
    """A view of the flat ``buffer`` with element ``strides`` starting at element ``offset``."""
    item = buffer.itemsize
    return xp.ndarray(shape, buffer.dtype, buffer, offset * item, [s * item for s in strides])


def from_host(array):
    """Copy a host NumPy array into this backend's memory."""
    return xp.array(array, copy=True)


def to_host(array):
    """This backend's array as a host NumPy array (no copy on the CPU)."""
    return array


def flat_buffer(array):
    """The 1-D buffer spanning ``array``'s memory (from its first element, strides >= 0)."""
    if array.flags.c_contiguous:
        return array.reshape(-1)
    span = 1 + sum((n - 1) * s for n, s in zip(array.shape, array.strides)) // array.itemsize
    return xp.lib.stride_tricks.as_strided(array, (span if array.size else 0,),
                                           (array.itemsize,))


def synchronize():
    """Nothing to wait for on the CPU."""
