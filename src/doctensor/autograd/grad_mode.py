"""Grad mode: whether ops record history (``no_grad``, ``enable_grad``, ``set_grad_enabled``)."""

import functools

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "GradMode"]


class GradMode:
    """The process-wide switch that ``apply()`` reads before recording a node."""

    enabled = True


def is_grad_enabled():
    """True when operations record autograd history."""
    return GradMode.enabled


class _GradModeContext:
    """A context manager that is also a decorator, like torch's."""

    mode = None

    def __enter__(self):
        self.prev = GradMode.enabled
        GradMode.enabled = self.mode

    def __exit__(self, *exc):
        GradMode.enabled = self.prev

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_GradModeContext):
    """Disable history recording inside the block (results have ``requires_grad=False``)."""

    mode = False


class enable_grad(_GradModeContext):
    """Enable history recording inside the block, even within ``no_grad``."""

    mode = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode to ``mode`` now; restore the previous mode when used as a context."""

    def __init__(self, mode):
        self.prev = GradMode.enabled
        self.mode = bool(mode)
        GradMode.enabled = self.mode

    def __enter__(self):
        pass

    def __call__(self, fn):
        GradMode.enabled = self.prev
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return set_grad_enabled(self.mode)
