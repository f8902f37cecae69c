"""``torch.nn.parallel``: ``DataParallel`` and ``data_parallel``.

doctensor has at most one GPU, so there is nothing to split a batch across: on a machine
without one (``torch.cuda.is_available()`` False, as on the CPU and the emulated CUDA device)
``DataParallel`` just runs its module, as torch does there; with one GPU it moves the inputs
to it, as torch does for a single device.
"""

import itertools

import doctensor as torch

from ..modules.module import Module

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]


def _device_type():
    """torch's ``_get_available_device_type``: the accelerator present, or None."""
    return "cuda" if torch.cuda.is_available() else None


def _device_index(device):
    return device.index if isinstance(device, torch.device) else device


def _devices(device_ids, output_device):
    """The device indices to use (every GPU by default) and the output device's."""
    if device_ids is None:
        device_ids = list(range(torch.cuda.device_count()))
    device_ids = [_device_index(d) for d in device_ids]
    if len(device_ids) > 1:
        raise NotImplementedError("doctensor's DataParallel runs on one device only")
    return device_ids, _device_index(device_ids[0] if output_device is None else output_device)


def _check_devices(module, device):
    for t in itertools.chain(module.parameters(), module.buffers()):
        if t.device != device:
            raise RuntimeError("module must have its parameters and buffers on device "
                               f"{device} (device_ids[0]) but found one of them on device: "
                               f"{t.device}")


def _to(value, device):
    """``value`` with every tensor in it (in tuples, lists, dicts) moved to ``device``."""
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, (tuple, list)):
        return type(value)(_to(v, device) for v in value)
    if isinstance(value, dict):
        return {k: _to(v, device) for k, v in value.items()}
    return value


class DataParallel(Module):
    """Runs ``module`` on the batch split across GPUs: here on the one device there is
    (``module`` itself when there is no GPU).  Its state dict keys start with
    ``module.``."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if _device_type() is None:
            self.module = module
            self.device_ids = []
            return
        self.dim = dim
        self.module = module
        self.device_ids, self.output_device = _devices(device_ids, output_device)
        self.src_device_obj = torch.device("cuda", self.device_ids[0])
        self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        _check_devices(self.module, self.src_device_obj)
        return self.module(*_to(inputs, self.src_device_obj), **_to(kwargs, self.src_device_obj))


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0,
                  module_kwargs=None):
    """The function form of ``DataParallel``: ``module(*inputs)`` on the GPU (torch refuses
    to run without one)."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    if _device_type() is None:
        raise RuntimeError("device type could not be determined")
    device_ids, _ = _devices(device_ids, output_device)
    device = torch.device("cuda", device_ids[0])
    _check_devices(module, device)
    return module(*_to(inputs, device), **_to(module_kwargs or {}, device))


class DistributedDataParallel(Module):
    """Data parallelism across processes: it needs a process group, which doctensor has
    none of (torch's error without ``init_process_group``)."""

    def __init__(self, module, *args, **kwargs):
        raise ValueError("Default process group has not been initialized, please make sure to "
                         "call init_process_group.")
