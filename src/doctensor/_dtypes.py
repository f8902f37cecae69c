"""dtypes and torch's type promotion rules.

Each dtype knows its NumPy twin, its legacy scalar-type name (``Float``) and its promotion
category. ``result_type`` implements torch's three-tier rule (dimensioned tensors, 0-d
tensors, Python scalars), written once here and used by every op.
"""

import builtins

import numpy as np

__all__ = [
    "dtype", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
    "bool_", "half", "float", "double", "short", "int", "long",
    "get_default_dtype", "set_default_dtype", "promote_types", "result_type",
]


class dtype:
    """A tensor element type, printed as torch prints it (``torch.float32``)."""

    __slots__ = ("name", "np", "itemsize", "is_floating_point", "is_signed", "scalar_name",
                 "c_name", "category", "__weakref__")

    def __init__(self, name, np_dtype, scalar_name, c_name, category):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.is_floating_point = category == 2
        self.is_signed = name not in ("uint8", "bool")
        self.scalar_name = scalar_name  # torch's ScalarType name: Float, Long, ...
        self.c_name = c_name  # the C++ type torch's error texts name: float, long int, ...
        self.category = category  # 0 bool, 1 integral, 2 floating

    @property
    def is_complex(self):
        return False

    def __repr__(self):
        return "torch." + self.name



float16 = dtype("float16", np.float16, "Half", "c10::Half", 2)
float32 = dtype("float32", np.float32, "Float", "float", 2)
float64 = dtype("float64", np.float64, "Double", "double", 2)
uint8 = dtype("uint8", np.uint8, "Byte", "unsigned char", 1)
int8 = dtype("int8", np.int8, "Char", "signed char", 1)
int16 = dtype("int16", np.int16, "Short", "short int", 1)
int32 = dtype("int32", np.int32, "Int", "int", 1)
int64 = dtype("int64", np.int64, "Long", "long int", 1)
bool_ = dtype("bool", np.bool_, "Bool", "bool", 0)
half, float, double = float16, float32, float64  # noqa: A001 (torch's aliases)
short, int, long = int16, int32, int64  # noqa: A001

ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool_)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}


def from_numpy_dtype(np_dtype):
    """The doctensor dtype of a NumPy dtype; TypeError for the ones torch lacks."""
    try:
        return _BY_NP[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The "
            "only supported types are: float64, float32, float16, complex64, complex128, int64, "
            "int32, int16, int8, uint64, uint32, uint16, uint8, and bool.") from None


def by_name(name):
    return _BY_NAME[name]


_default = [float32]


def get_default_dtype():
    """The dtype of floating tensors made from Python floats (``torch.float32`` at start)."""
    return _default[0]


def set_default_dtype(d):
    """Set the default floating dtype (float32 or float64, as torch allows)."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError(
            "only floating-point types are supported as the default type")
    _default[0] = d


# Note [type promotion]
# promote_types is the symmetric table of c10/core/ScalarType.cpp: within a category the
# wider type wins; uint8 with int8 gives int16; any integral with a floating type gives the
# floating type; bool loses to everything.  result_type() adds the priority of operands:
# tensors with dims > 0-d tensors > Python scalars, where a lower tier only matters when it
# brings a higher category (int tensor + 2.5 -> float32, uint8 tensor + 1000 -> uint8).

_RANK = {uint8: 1, int8: 0, int16: 2, int32: 3, int64: 4, float16: 0, float32: 1, float64: 2}


def promote_types(a, b):
    """torch.promote_types: the smallest dtype both ``a`` and ``b`` convert to."""
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    if a is bool_:
        return a
    if {a, b} == {uint8, int8}:
        return int16
    return a if _RANK[a] > _RANK[b] else b


def _combine(higher, lower):
    if higher is None:
        return lower
    if higher.is_floating_point:
        return higher
    if lower is not None and (higher is bool_ or lower.is_floating_point):
        return promote_types(higher, lower)
    return higher


def scalar_dtype(value):
    """The dtype a Python scalar takes when it is wrapped (bool, int64 or the default)."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return bool_
    if isinstance(value, (builtins.int, np.integer)):
        return int64
    return get_default_dtype()


def result_type(tensors, scalars=()):
    """Promote tensors (objects with ``dtype`` and ``ndim``) and Python scalars as torch does."""
    dim = zero = wrapped = None
    for t in tensors:
        d = t.dtype
        if t.ndim:
            dim = d if dim is None else promote_types(dim, d)
        else:
            zero = d if zero is None else promote_types(zero, d)
    for s in scalars:
        d = scalar_dtype(s)
        wrapped = d if wrapped is None else promote_types(wrapped, d)
    return _combine(dim, _combine(zero, wrapped))


_C_TYPE = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
           "int64": "int64_t"}


def check_fits(value, dtype, c_name=True):
    """torch's "value cannot be converted to type X without overflow" for a Python number put
    into an integer dtype (negative ints wrap into unsigned types, as in C; floats must fit).
    The message names the C type (``uint8_t``) for fill/full, torch's (``uint8``) for
    ``torch.tensor``."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return
    if dtype.category == 2:  # fill/full also refuse a finite value beyond float32's range
        big = builtins.float(np.finfo(dtype.np).max)
        if c_name and dtype.itemsize == 4 and big < abs(value) < builtins.float("inf"):
            name = "float" if dtype.itemsize == 4 else "c10::Half"
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")
        return
    if dtype.category != 1:
        return
    info = np.iinfo(dtype.np)
    if isinstance(value, (builtins.float, np.floating)):
        bad = value != value or value > info.max or value < info.min
    else:
        v = builtins.int(value)
        bad = v > info.max or (v < -info.max if info.min == 0 else v < info.min)
    if bad:
        name = _C_TYPE[dtype.name] if c_name else dtype.name
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


def cast_scalar(value, dtype):
    """A Python number converted to ``dtype`` as C does (wrapping ints, truncating floats)."""
    if dtype.category == 1 and not isinstance(value, (builtins.bool, np.bool_)):
        return np.array(builtins.int(value)).astype(dtype.np)[()]
    return dtype.np.type(value)


def can_cast(frm, to):
    """torch.can_cast: False only when a cast would lower the category."""
    return frm.category <= to.category
