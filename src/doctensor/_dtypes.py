"""dtypes and torch's type promotion rules.

Each dtype knows its NumPy twin, its legacy scalar-type name (``Float``) and its promotion
category. ``result_type`` implements torch's three-tier rule (dimensioned tensors, 0-d
tensors, Python scalars), written once here and used by every op.
"""

import builtins
import math

import ml_dtypes
import numpy as np

__all__ = [
    "dtype", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
    "bool_", "half", "float", "double", "short", "int", "long",
    "complex32", "complex64", "complex128", "chalf", "cfloat", "cdouble", "bfloat16",
    "uint16", "uint32", "uint64",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
    "float4_e2m1fn_x2", "int1", "int2", "int3", "int4", "int5", "int6", "int7", "uint1",
    "uint2", "uint3", "uint4", "uint5", "uint6", "uint7", "bits1x8", "bits2x4", "bits4x2",
    "bits8", "bits16", "bit",
    "get_default_dtype", "set_default_dtype", "promote_types", "result_type",
]


class dtype:
    """A tensor element type, printed as torch prints it (``torch.float32``)."""

    __slots__ = ("name", "np", "itemsize", "is_floating_point", "is_signed", "scalar_name",
                 "c_name", "category", "__weakref__")

    def __init__(self, name, np_dtype, scalar_name, c_name, category, itemsize=None):
        self.name = name
        if np_dtype is not None:  # (complex32: NumPy has none, see _NoArray)
            self.np = np.dtype(np_dtype)
        self.itemsize = itemsize or self.np.itemsize
        self.is_floating_point = category == 2
        self.is_signed = not name.startswith("uint") and name != "bool"
        self.scalar_name = scalar_name  # torch's ScalarType name: Float, Long, ...
        self.c_name = c_name  # the C++ type torch's error texts name: float, long int, ...
        self.category = category  # 0 bool, 1 integral, 2 floating, 3 complex

    @property
    def is_complex(self):
        return self.category == 3

    def to_real(self):
        """The real dtype of a complex dtype's parts (other dtypes: themselves)."""
        return _REAL.get(self, self)

    def to_complex(self):
        """The complex dtype whose parts are this floating dtype (complex dtypes: themselves)."""
        if self.category == 3:
            return self
        if self.category != 2:
            raise RuntimeError(f"Unknown Complex ScalarType for {self.scalar_name}")
        return _COMPLEX_OF[self]

    def __repr__(self):
        return "torch." + self.name



class _NoArray(dtype):
    """A dtype torch has but NumPy cannot hold (complex32): its dtype object, promotion and
    ``to_real``/``to_complex`` work; a tensor of it is refused."""

    __slots__ = ()

    @property
    def np(self):
        raise NotImplementedError(f"doctensor: {self!r} tensors are not supported (NumPy has "
                                  f"no such type)")


float16 = dtype("float16", np.float16, "Half", "c10::Half", 2)
float32 = dtype("float32", np.float32, "Float", "float", 2)
float64 = dtype("float64", np.float64, "Double", "double", 2)
uint8 = dtype("uint8", np.uint8, "Byte", "unsigned char", 1)
int8 = dtype("int8", np.int8, "Char", "signed char", 1)
int16 = dtype("int16", np.int16, "Short", "short int", 1)
int32 = dtype("int32", np.int32, "Int", "int", 1)
int64 = dtype("int64", np.int64, "Long", "long int", 1)
bool_ = dtype("bool", np.bool_, "Bool", "bool", 0)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, "BFloat16", "c10::BFloat16", 2)
# torch 2.13's "barebones" unsigned types: few ops, no promotion with other integers
uint16 = dtype("uint16", np.uint16, "UInt16", "unsigned short", 1)
uint32 = dtype("uint32", np.uint32, "UInt32", "unsigned int", 1)
uint64 = dtype("uint64", np.uint64, "UInt64", "unsigned long", 1)
complex32 = _NoArray("complex32", None, "ComplexHalf", "c10::complex<c10::Half>", 3, itemsize=4)
complex64 = dtype("complex64", np.complex64, "ComplexFloat", "c10::complex<float>", 3)
complex128 = dtype("complex128", np.complex128, "ComplexDouble", "c10::complex<double>", 3)


class _StorageOnly(_NoArray):
    """A dtype torch keeps for storage and casts (float8, float4, sub-byte integers, bits):
    the dtype object is torch's; doctensor refuses tensors of it."""

    __slots__ = ()

    @property
    def np(self):
        raise NotImplementedError(f"doctensor: {self!r} tensors are not supported")


class _Bits(_StorageOnly):
    """torch's raw-bits dtypes (bits8, ...): neither floating nor signed nor unsigned."""

    __slots__ = ()

    @property
    def is_signed(self):
        raise RuntimeError("Bits types are undefined")

    @is_signed.setter
    def is_signed(self, value):
        """(Ignored: the dtype constructor's default; torch's signedness is undefined.)"""


def _float8(name, scalar_name):
    return _StorageOnly(name, None, scalar_name, f"c10::{scalar_name}", 2, itemsize=1)


float8_e4m3fn = _float8("float8_e4m3fn", "Float8_e4m3fn")
float8_e5m2 = _float8("float8_e5m2", "Float8_e5m2")
float8_e4m3fnuz = _float8("float8_e4m3fnuz", "Float8_e4m3fnuz")
float8_e5m2fnuz = _float8("float8_e5m2fnuz", "Float8_e5m2fnuz")
float8_e8m0fnu = _float8("float8_e8m0fnu", "Float8_e8m0fnu")
float8_e8m0fnu.is_signed = False  # (a power of two: exponent bits only)
float4_e2m1fn_x2 = _float8("float4_e2m1fn_x2", "Float4_e2m1fn_x2")  # (two per byte)
int1, int2, int3, int4, int5, int6, int7 = (
    _StorageOnly(f"int{n}", None, f"Int{n}", f"c10::Int{n}", 1, itemsize=1) for n in range(1, 8))
uint1, uint2, uint3, uint4, uint5, uint6, uint7 = (
    _StorageOnly(f"uint{n}", None, f"UInt{n}", f"c10::UInt{n}", 1, itemsize=1)
    for n in range(1, 8))
bit = uint1  # (torch's alias)
bits1x8, bits2x4, bits4x2, bits8, bits16 = (
    _Bits(name, None, name.capitalize(), f"c10::{name}", 1, itemsize=size)
    for name, size in (("bits1x8", 1), ("bits2x4", 1), ("bits4x2", 1), ("bits8", 1),
                       ("bits16", 2)))
FLOAT8 = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e8m0fnu)
_SUB_BYTE_UINTS = (uint1, uint2, uint3, uint4, uint5, uint6, uint7)
STORAGE_ONLY = (*FLOAT8, float4_e2m1fn_x2, int1, int2, int3, int4, int5, int6, int7,
                *_SUB_BYTE_UINTS, bits1x8, bits2x4, bits4x2, bits8, bits16)

half, float, double = float16, float32, float64  # noqa: A001 (torch's aliases)
short, int, long = int16, int32, int64  # noqa: A001
chalf, cfloat, cdouble = complex32, complex64, complex128

ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool_, bfloat16,
       complex64, complex128, uint16, uint32, uint64)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in (*ALL, complex32)}
_REAL = {complex32: float16, complex64: float32, complex128: float64}
_COMPLEX_OF = {float16: complex32, bfloat16: complex64, float32: complex64,
               float64: complex128}
BAREBONES_UINTS = (uint16, uint32, uint64)


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

# Complex with floating: the complex dtype of the wider precision (complex64 + float64 ->
# complex128; bfloat16 counts as between half and float).  float16 with bfloat16 gives
# float32.  uint16/32/64 promote only with themselves and floating types (torch's error).

_RANK = {uint8: 1, int8: 0, int16: 2, int32: 3, int64: 4, float16: 0, bfloat16: 0.5,
         float32: 1, float64: 2, complex32: 0, complex64: 1, complex128: 2}
_COMPLEX_BY_RANK = (complex32, complex64, complex128)


def promote_types(a, b):
    """torch.promote_types: the smallest dtype both ``a`` and ``b`` convert to."""
    if a is b:
        return a
    if isinstance(a, _Bits) or isinstance(b, _Bits):
        raise RuntimeError(f"Promotion from {a.scalar_name} and {b.scalar_name} is unsupported.")
    if a in FLOAT8 or b in FLOAT8:
        raise RuntimeError("Promotion for Float8 Types is not supported, attempted to promote "
                           f"{a.scalar_name} and {b.scalar_name}")
    if {a, b} & {*BAREBONES_UINTS, *_SUB_BYTE_UINTS}:
        if a.category == 2 or b.category == 2:
            return a if a.category == 2 else b
        raise RuntimeError(f"Promotion for uint16, uint32, uint64 types is not supported, "
                           f"attempted to promote {a.scalar_name} and {b.scalar_name}")
    if a.category != b.category:
        high, low = (a, b) if a.category > b.category else (b, a)
        if high.category == 3 and low.category == 2:
            return _COMPLEX_BY_RANK[math.ceil(max(_RANK[high], _RANK[low]))]
        return high
    if a is bool_:
        return a
    if {a, b} in ({uint8, int8}, {float16, bfloat16}):
        return int16 if a.category == 1 else float32
    return a if _RANK[a] > _RANK[b] else b


def _combine(higher, lower):
    if higher is None:
        return lower
    if higher.category == 3:
        return higher
    if lower is not None and lower.category == 3:  # a floating type keeps its precision
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if lower is not None and (higher is bool_ or lower.is_floating_point):
        return promote_types(higher, lower)
    return higher


def get_default_complex_dtype():
    """The complex dtype of the default floating dtype (complex64 for float32)."""
    return _COMPLEX_OF[_default[0]]


def scalar_dtype(value):
    """The dtype a Python scalar takes when it is wrapped (bool, int64, the default float
    dtype or its complex dtype; a NumPy bool is a float to torch's Scalar)."""
    if isinstance(value, builtins.bool):
        return bool_
    if isinstance(value, (builtins.int, np.integer)):
        return int64
    if isinstance(value, (builtins.complex, np.complexfloating)):
        return get_default_complex_dtype()
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
        big = builtins.float(ml_dtypes.finfo(dtype.np).max)
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
