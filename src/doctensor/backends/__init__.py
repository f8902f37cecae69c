"""Backends: one tiny module per device kind, each exposing ``xp`` (its array module); and
torch's ``torch.backends`` switches (``cudnn``, ``cuda``, ``mps``, ``cpu``).

Dispatch is on a tensor's **device**, never on its array's type: the emulated CUDA device
holds NumPy arrays too.  ``DOCTENSOR_CUDA=cupy|emulate|off`` chooses what ``cuda`` means;
the default is CuPy when a GPU is visible, else the emulator (with a one-time warning).
"""

import os
import warnings

from . import emulated_cuda, numpy_cpu

__all__ = ["for_device", "cuda_backend", "cuda_mode", "cpu", "cuda", "cudnn", "mps"]

_cuda = []  # the chosen CUDA backend module, resolved on first use


def cuda_mode():
    """``cupy``, ``emulate`` or ``off``: what the ``cuda`` device runs on in this process."""
    mode = os.environ.get("DOCTENSOR_CUDA", "").strip().lower()
    if mode in ("cupy", "emulate", "off"):
        return mode
    from . import cupy_cuda
    return "cupy" if cupy_cuda.gpu_visible() else "emulate"


def cuda_backend():
    """The CUDA backend module, or torch's AssertionError when CUDA is switched off."""
    if not _cuda:
        mode = cuda_mode()
        if mode == "off":
            raise AssertionError("Torch not compiled with CUDA enabled")
        if mode == "cupy":
            from . import cupy_cuda
            _cuda.append(cupy_cuda)
        elif os.environ.get("DOCTENSOR_CUDA", "").strip().lower() == "emulate":
            _cuda.append(emulated_cuda)  # asked for explicitly: nothing to warn about
        else:
            warnings.warn("doctensor: no GPU visible; 'cuda' tensors run on the emulated CUDA "
                          "device (separate NumPy memory). Set DOCTENSOR_CUDA=off for torch's "
                          "'no CUDA' error.", stacklevel=3)
            _cuda.append(emulated_cuda)
    return _cuda[0]


def for_device(device):
    """The backend module of a device (``cpu`` or ``cuda``)."""
    if device.type == "cpu":
        return numpy_cpu
    return cuda_backend()


from . import cpu, cuda, cudnn, mps  # noqa: E402  (torch.backends' modules)
