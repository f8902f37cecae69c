"""``torch.backends.cudnn``: cuDNN's switches, kept as torch keeps them (doctensor runs no
cuDNN, so ``is_available()`` is False, as in torch's CPU build; the switches change nothing)."""

import contextlib
import sys
import types

__all__ = ["is_available", "version", "is_acceptable", "flags", "set_flags"]

# each switch: its value and the name torch's bool check gives in its error
_SWITCHES = {"enabled": [True, "set_enabled_cudnn"], "benchmark": [False, "set_benchmark_cudnn"],
             "deterministic": [False, "set_deterministic_cudnn"],
             "allow_tf32": [True, "set_allow_tf32_cublas"]}  # (torch's own message)

benchmark_limit = None  # (torch's CPU build: not set, and not checked)


def is_available():
    return False


def version():
    return None


def is_acceptable(tensor):
    return False


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None,
              _allow_tf32=None):
    """Set the given switches; return them all as they were (``flags`` restores them)."""
    old = tuple(_SWITCHES[k][0] for k in ("enabled", "benchmark", "deterministic",
                                          "allow_tf32"))
    given = {"enabled": _enabled, "benchmark": _benchmark, "deterministic": _deterministic,
             "allow_tf32": _allow_tf32}
    for name, value in given.items():
        if value is not None:
            setattr(sys.modules[__name__], name, value)
    return old


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False,
          allow_tf32=True):
    """The switches set for a ``with`` block, then restored."""
    old = set_flags(enabled, benchmark, None, deterministic, allow_tf32)
    try:
        yield
    finally:
        set_flags(*old[:2], None, *old[2:])


class _CudnnModule(types.ModuleType):
    """The module, its switches checked as torch checks them (bools only)."""

    def __getattr__(self, name):
        if name in _SWITCHES:
            return _SWITCHES[name][0]
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")

    def __setattr__(self, name, value):
        if name in _SWITCHES:
            if value.__class__ is not bool:
                raise RuntimeError(f"{_SWITCHES[name][1]} expects a bool, but got "
                                   f"{type(value).__name__}")
            _SWITCHES[name][0] = value
        else:
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _CudnnModule
