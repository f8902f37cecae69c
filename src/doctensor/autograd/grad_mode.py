"""Grad mode: whether ops record history (``no_grad``, ``enable_grad``, ``set_grad_enabled``)."""

import functools
import threading

from .. import _tensor_base

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "GradMode",
           "inference_mode", "is_inference_mode_enabled", "enforce_grad_layout_policy",
           "GRAD_LAYOUT"]


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


# Note [inference mode]
# Inside ``inference_mode()`` no history is recorded (grad mode is off) and every tensor
# created is an *inference tensor*: it has no version counter, and outside the mode it may
# not be saved for backward, edited in place, or made to require grad (torch's errors).
# Views take their base's kind: a view of a normal tensor made inside the mode is normal.
# The switch is ``_tensor_base.INFERENCE`` so that ``wrap()`` (layer 3) can read it::
#
#     with inference_mode():        outside:
#         y = x * 2   ──► y._inference = True ──► (w * y).backward()  ->  RuntimeError
#                                                   y.add_(1)          ->  RuntimeError


def is_inference_mode_enabled():
    """True inside ``torch.inference_mode()``."""
    return _tensor_base.INFERENCE.on


class inference_mode(_GradModeContext):
    """Like ``no_grad``, and the tensors created inside are inference tensors.

    Example::

        >>> with torch.inference_mode():
        ...     y = torch.ones(2) * 2
        >>> y.is_inference()
        True
    """

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __new__(cls, mode_or_fn=True):
        if callable(mode_or_fn) and not isinstance(mode_or_fn, bool):
            return cls()(mode_or_fn)
        return super().__new__(cls)

    def __enter__(self):
        self.prev = GradMode.enabled
        self.prev_inference = _tensor_base.INFERENCE.on
        GradMode.enabled = not self.mode  # inference_mode(False) turns grad mode on, as torch
        _tensor_base.INFERENCE.on = self.mode

    def __exit__(self, *exc):
        GradMode.enabled = self.prev
        _tensor_base.INFERENCE.on = self.prev_inference

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return inference_mode(self.mode)


# Note [gradient layout policy]
# A leaf's accumulated .grad follows the gradient layout contract (Note [gradient layout
# contract] in graph.py): the leaf's strides when it is dense, else contiguous.  A fresh
# incoming gradient laid out otherwise is copied into that layout.  With the policy relaxed,
# ``AccumulateGrad`` keeps ("steals") such a fresh gradient as it is; a gradient it cannot
# keep (the user's own, one still referenced) is copied into the contract's layout as before::
#
#     p = torch.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()     # strides (1, 12, 4)
#     with torch.autograd.enforce_grad_layout_policy(False):
#         (p * 2).sum().backward()                                   # p.grad: (6, 3, 1)

class _LayoutPolicy(threading.local):
    """Per thread: whether accumulated gradients are made to obey the layout contract."""

    enforced = True


GRAD_LAYOUT = _LayoutPolicy()


class enforce_grad_layout_policy:
    """Enforce the gradient layout contract (``enable=True``, the default) or relax it (Note
    [gradient layout policy]); takes effect at once, and as a context manager restores the
    previous setting on exit; also a decorator.  Thread-local."""

    def __init__(self, enable=True):
        self.prev = GRAD_LAYOUT.enforced
        GRAD_LAYOUT.enforced = bool(enable)
        self.mode = enable

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        GRAD_LAYOUT.enforced = self.prev

    def __call__(self, fn):
        GRAD_LAYOUT.enforced = self.prev
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with enforce_grad_layout_policy(mode):
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__(self.mode)
