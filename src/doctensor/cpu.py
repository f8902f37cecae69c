"""``torch.cpu``: the CPU as a device module, mirroring ``torch.cuda``'s functions.

    >>> import doctensor as torch
    >>> torch.cpu.is_available(), torch.cpu.device_count(), torch.cpu.current_device()
    (True, 1, 'cpu')
"""

from .amp import cpu_amp as amp

__all__ = ["amp", "is_available", "is_initialized", "device_count", "current_device",
           "set_device", "synchronize"]


def is_available():
    return True


def is_initialized():
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def set_device(device):
    """Nothing to select: there is one CPU device."""


def synchronize(device=None):
    """Nothing to wait for: CPU work is done when a call returns."""
