"""``torch.finfo``, ``torch.iinfo`` and ``torch.layout``: facts about dtypes and layouts.

    >>> import doctensor as torch
    >>> torch.finfo(torch.float32).eps
    1.1920928955078125e-07
"""

import ml_dtypes
import numpy as np

from ._dtypes import get_default_dtype

__all__ = ["finfo", "iinfo", "layout", "strided"]


class layout:
    """``torch.layout``: how a tensor's elements are stored; doctensor has ``torch.strided``
    only (no sparse or jagged tensors)."""

    __module__ = "torch"

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


strided = layout("strided")


def _info_eq(a, b):
    return type(a) is type(b) and a.dtype == b.dtype


class finfo:
    """Machine limits of a floating dtype (the default dtype when none is given): ``bits``,
    ``eps``, ``max``, ``min``, ``tiny`` (= ``smallest_normal``), ``resolution`` (Python
    numbers) and ``dtype`` (its name)."""

    __module__ = "torch"

    def __init__(self, type=None):  # noqa: A002 (torch's argument name)
        type = get_default_dtype() if type is None else type
        if type.category < 2:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        type = type.to_real()  # a complex dtype: the limits of its parts
        info = ml_dtypes.finfo(type.np)  # NumPy's finfo, and bfloat16's
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision
        self.dtype = type.name

    __eq__ = _info_eq
    __hash__ = None

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype: ``bits``, ``min``, ``max`` (ints) and ``dtype``."""

    __module__ = "torch"

    def __init__(self, type):  # noqa: A002 (torch's argument name)
        if type.category == 0:
            raise TypeError(f"{type} is not supported by torch.iinfo")
        if type.category >= 2:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), \
            type.name

    __eq__ = _info_eq
    __hash__ = None

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
