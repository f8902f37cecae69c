"""Engine switches that change nothing doctensor computes, and ``is_tensor_like``.

doctensor's engine always runs backward on the calling thread and always replays a view
with its own view function (never ``as_strided``), so ``set_multithreading_enabled`` only
records the setting that ``is_multithreading_enabled`` reports, and view replay is off, as
it is by default in torch.
"""

import functools

from .. import _tensor_base

__all__ = ["set_multithreading_enabled", "is_multithreading_enabled", "is_view_replay_enabled",
           "is_tensor_like"]

_multithreading = [True]


def is_multithreading_enabled():
    """True unless ``set_multithreading_enabled(False)`` is in force."""
    return _multithreading[0]


def is_view_replay_enabled():
    """False: doctensor never regenerates views with ``as_strided`` (torch's default)."""
    return False


class set_multithreading_enabled:
    """Turn multithreaded backward on or off: now, and until the ``with`` block it opens
    ends (or the function it decorates returns)."""

    def __init__(self, mode):
        self.prev = _multithreading[0]
        self.mode = mode
        _multithreading[0] = mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _multithreading[0] = self.prev

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__(self.mode)


def is_tensor_like(inp):
    """True for a tensor (or the tensor class, or a subclass) and for anything implementing
    ``__torch_function__`` (doctensor's tensors stand for torch's, which implement it)."""
    kind = inp if isinstance(inp, type) else type(inp)
    base = _tensor_base.TensorBase
    return (issubclass(kind, base) and kind is not base) or hasattr(inp, "__torch_function__")
