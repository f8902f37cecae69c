"""The emulated CUDA device: a CUDA device identity over separate NumPy memory.

Used where no GPU is visible so that tests and the docs exercise torch's CUDA semantics:
``device='cuda:0'`` in reprs, real copies on ``.cuda()`` / ``.cpu()``, mixed-device errors.
Its memory is ordinary host memory, so ``data_ptr()`` values are host addresses.
"""

import numpy as xp

from .numpy_cpu import as_strided, data_ptr, flat_buffer, from_host, synchronize  # noqa: F401

name = "emulated"
is_real_gpu = False


def to_host(array):
    """A copy: leaving the (emulated) device always copies, as a real transfer would."""
    return xp.array(array, copy=True)


def device_name():
    return "doctensor emulated CUDA device (NumPy)"
