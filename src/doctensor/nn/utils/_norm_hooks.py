"""What the hook-based ``spectral_norm`` and ``weight_norm`` share: one hook per parameter,
found again by its class and parameter name to be removed."""

__all__ = ["check_no_hook", "remove_hook"]


def check_no_hook(module, hook_class, name, what):
    """torch's error for a second ``what`` hook (``spectral_norm``...) on ``name``."""
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, hook_class) and hook.name == name:
            raise RuntimeError(f"Cannot register two {what} hooks on the same parameter {name}")


def remove_hook(module, hook_class, name, what):
    """Undo the ``what`` hook on ``name``: ``name`` becomes a plain Parameter again."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, hook_class) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"{what} of '{name}' not found in {module}")
