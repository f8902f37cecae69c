"""``parameters_to_vector`` and ``vector_to_parameters``: all parameters as one flat vector."""

import doctensor as torch

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param, old_device):
    """The device index of ``param`` (-1 on the CPU), refusing a change of device."""
    device = param.get_device() if param.device.type == "cuda" else -1
    if old_device is not None and device != old_device:
        raise TypeError("Found two parameters on different devices, this is currently not "
                        "supported.")
    return device


def parameters_to_vector(parameters):
    """All parameters flattened and concatenated into one 1-D tensor."""
    device, vec = None, []
    for param in parameters:
        device = _check_param_device(param, device)
        vec.append(param.view(-1))
    return torch.cat(vec)


def vector_to_parameters(vec, parameters):
    """Copy slices of the 1-D ``vec`` into the parameters (as ``param.data``)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}")
    device, pointer = None, 0
    for param in parameters:
        device = _check_param_device(param, device)
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
