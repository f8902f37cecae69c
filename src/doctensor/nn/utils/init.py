"""``skip_init``: build a module without running its initialisation."""

import inspect

import doctensor as torch

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """``module_cls(*args, **kwargs)`` with uninitialised parameters and buffers.

    torch builds the module on the meta device (drawing nothing) and then allocates empty
    storage; doctensor builds it normally, puts the random generator back where it was, and
    gives every parameter and buffer new empty storage.
    """
    if not issubclass(module_cls, torch.nn.Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    state = torch.get_rng_state()
    module = module_cls(*args, **kwargs)
    torch.set_rng_state(state)
    with torch.no_grad():
        for t in list(module.parameters()) + list(module.buffers()):
            t.data = torch.empty_like(t.data)
    return module
