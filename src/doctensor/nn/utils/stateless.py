"""``functional_call``: run a module with some of its parameters and buffers replaced."""

import warnings
from contextlib import contextmanager

__all__ = ["functional_call"]


def _owner(module, name):
    """The submodule holding the dotted ``name``, and the name's last part."""
    *path, leaf = name.split(".")
    for part in path:
        module = getattr(module, part)
    return module, leaf


@contextmanager
def _reparametrize_module(module, parameters_and_buffers, strict=False):
    if strict:
        known = {n for n, _ in module.named_parameters()} | \
            {n for n, _ in module.named_buffers()}
        given = set(parameters_and_buffers)
        errors = []
        if given - known:
            errors.append(f"Unexpected key(s): {', '.join(map(repr, sorted(given - known)))}.")
        if known - given:
            errors.append(f"Missing key(s): {', '.join(map(repr, sorted(known - given)))}.")
        if errors:
            raise RuntimeError(f"Error(s) in reparametrizing for {module._get_name()}:\n\t"
                               + "\n\t".join(errors))
    saved = []
    try:
        for name, value in parameters_and_buffers.items():
            owner, leaf = _owner(module, name)
            for table in (owner._parameters, owner._buffers):
                if leaf in table:
                    saved.append((table, leaf, table[leaf]))
                    table[leaf] = value
                    break
            else:
                saved.append((owner.__dict__, leaf, owner.__dict__.get(leaf, _MISSING)))
                owner.__dict__[leaf] = value
        yield
    finally:
        for table, leaf, old in reversed(saved):
            if old is _MISSING:
                del table[leaf]
            else:
                table[leaf] = old


_MISSING = object()


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with the named parameters and buffers replaced by the
    given tensors for the call (deprecated in torch in favour of
    ``torch.func.functional_call``).  Tied weights are not tracked: pass each name."""
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                  "and will be removed in a future version of PyTorch. Please use "
                  "`torch.func.functional_call` instead which is a drop-in replacement.",
                  FutureWarning, stacklevel=2)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize_module(module, parameters_and_buffers, strict):
        return module(*args, **(kwargs or {}))
