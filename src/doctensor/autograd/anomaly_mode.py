"""Anomaly mode: ``detect_anomaly`` and ``set_detect_anomaly``.

Note [anomaly mode]: while it is on, every new graph node keeps the Python stack of the
forward call that created it (``node.metadata["traceback_"]``).  When that node's backward
raises, the engine warns with that stack before the error propagates; with ``check_nan``,
a node whose backward returns NaN raises torch's error naming the output::

    forward:  y = a / b          (stack saved on DivBackward0)
    backward: DivBackward0 ──► grad has NaN ──► "Function 'DivBackward0' returned nan values
                                                 in its 1th output."

When it is off, the cost is one class-attribute test per node (``Node.__init__``).
"""

import functools
import os
import traceback
import warnings

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# doctensor's frames: its files, and code it compiles under a "<doctensor..." name (the
# argument parser's wrapper, Note [a frame warnings skip] in _argparser)
_OWN_FRAMES = (_PACKAGE_DIR, "<doctensor.")

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled", "AnomalyMode"]


class AnomalyMode:
    """The process-wide switch read by ``Node.__init__`` and the engine."""

    enabled = False
    check_nan = True

    @staticmethod
    def record(node):
        """Keep the user's stack up to the call into doctensor that created ``node``."""
        frames = traceback.extract_stack()
        while frames and frames[-1].filename.startswith(_OWN_FRAMES):
            frames.pop()
        node.metadata["traceback_"] = traceback.format_list(frames)

    @staticmethod
    def report(node):
        """Warn with the forward stack of ``node`` whose backward failed."""
        stack = node._extra.metadata.get("traceback_") if node._extra is not None else None
        if stack is None:
            warnings.warn(
                "Error detected in " + node.name() + ". No forward pass information available. "
                "Enable detect anomaly during forward pass for more information. (Triggered "
                "internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:"
                "112.)", UserWarning, stacklevel=3)
            return
        warnings.warn(
            "Error detected in " + node.name() + ". Traceback of forward call that caused the "
            "error:\n" + "".join(stack) + " (Triggered internally at /__w/pytorch/pytorch/torch/"
            "csrc/autograd/python_anomaly_mode.cpp:122.)", UserWarning, stacklevel=3)

    @staticmethod
    def check(node, outputs):
        for i, g in enumerate(outputs):
            if g is not None and bool(g._backend.xp.isnan(g._data).any()):
                raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                                   "output.")


def is_anomaly_enabled():
    """True inside ``detect_anomaly`` / after ``set_detect_anomaly(True)``."""
    return AnomalyMode.enabled


def is_anomaly_check_nan_enabled():
    return AnomalyMode.check_nan


class detect_anomaly:
    """Context manager (and decorator) that turns anomaly detection on (Note [anomaly mode]).

    Example::

        >>> with torch.autograd.detect_anomaly():
        ...     torch.is_anomaly_enabled()
        True
    """

    def __init__(self, check_nan=True):
        self.prev = AnomalyMode.enabled
        self.check_nan = check_nan
        self.prev_check_nan = AnomalyMode.check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        AnomalyMode.enabled = True
        AnomalyMode.check_nan = self.check_nan

    def __exit__(self, *exc):
        AnomalyMode.enabled = self.prev
        AnomalyMode.check_nan = self.prev_check_nan

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper


class set_detect_anomaly:
    """Turn anomaly detection on or off now; as a context manager, restore it on exit."""

    def __init__(self, mode, check_nan=True):
        self.prev = AnomalyMode.enabled
        self.prev_check_nan = AnomalyMode.check_nan
        AnomalyMode.enabled = bool(mode)
        AnomalyMode.check_nan = bool(check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        AnomalyMode.enabled = self.prev
        AnomalyMode.check_nan = self.prev_check_nan
