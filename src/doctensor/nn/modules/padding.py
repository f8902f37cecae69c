"""The padding layers: ``F.pad`` of the last 1, 2 or 3 dims by a constant (``ConstantPad``,
``ZeroPad``), by mirror images (``ReflectionPad``), by the edge (``ReplicationPad``) or by
the other side (``CircularPad``).  ``padding``: one int for every side, or a (left, right,
top, bottom, front, back) tuple, the last dim's pair first."""

from .. import functional as F
from ..functional import _ntuple
from .module import Module

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
           "CircularPad2d", "CircularPad3d"]


class _PadNd(Module):
    """A padding of ``dims`` dims in ``mode``."""

    dims, mode = None, None

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self.dims)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    """Pads with ``value``."""

    mode = "constant"

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with ``value``."""

    dims = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last 2 dims with ``value``."""

    dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last 3 dims with ``value``."""

    dims = 3


class ZeroPad1d(ConstantPad1d):
    """Pads the last dim with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    extra_repr = _PadNd.extra_repr


class ZeroPad2d(ConstantPad2d):
    """Pads the last 2 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    extra_repr = _PadNd.extra_repr


class ZeroPad3d(ConstantPad3d):
    """Pads the last 3 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    extra_repr = _PadNd.extra_repr


class ReflectionPad1d(_PadNd):
    """Pads the last dim with its mirror image (the edge not repeated)."""

    dims, mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Pads the last 2 dims with their mirror images (the edges not repeated)."""

    dims, mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Pads the last 3 dims with their mirror images (the edges not repeated)."""

    dims, mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """Pads the last dim by repeating its edge elements."""

    dims, mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """Pads the last 2 dims by repeating their edge elements."""

    dims, mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """Pads the last 3 dims by repeating their edge elements."""

    dims, mode = 3, "replicate"


class _CircularPadNd(_PadNd):
    """Pads with the elements of the other side (a periodic continuation)."""

    mode = "circular"

    def forward(self, input):
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got "
                             f"{input.dim()}D input)")
        return super().forward(input)


class CircularPad1d(_CircularPadNd):
    """Pads the last dim circularly."""

    dims = 1


class CircularPad2d(_CircularPadNd):
    """Pads the last 2 dims circularly."""

    dims = 2


class CircularPad3d(_CircularPadNd):
    """Pads the last 3 dims circularly."""

    dims = 3
