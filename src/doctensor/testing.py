"""``torch.testing``: ``assert_close`` and ``make_tensor``, with torch's rules and messages.

``assert_close(actual, expected)`` walks both inputs together (sequences item by item,
mappings key by key), pairs up the leaves (``None``, booleans, numbers, tensor-likes) and
compares each pair; the first mismatch raises, with torch's message word for word::

    >>> torch.testing.assert_close(torch.tensor([1., 2., 3.]), torch.tensor([1., 4., 3.]))
    Traceback (most recent call last):
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 3 (33.3%)
    Greatest absolute difference: 2.0 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.5 at index (1,) (up to 1.3e-06 allowed)
"""

import cmath
import collections.abc
import contextlib
import math
import warnings

import numpy as np

from . import _dtypes as D
from . import functions as F
from ._typeinfo import finfo, iinfo
from .tensor import Tensor

__all__ = ["assert_close", "make_tensor", "assert_allclose"]

# the default (rtol, atol) of each dtype; other dtypes compare exactly
_TOLERANCES = {
    D.float16: (0.001, 1e-5),
    D.bfloat16: (0.016, 1e-5),
    D.float32: (1.3e-6, 1e-5),
    D.float64: (1e-7, 1e-7),
    D.complex32: (0.001, 1e-5),
    D.complex64: (1.3e-6, 1e-5),
    D.complex128: (1e-7, 1e-7),
}
# the dtype a Python number is compared as (for its default tolerances)
_NUMBER_DTYPES = {int: D.int64, float: D.float64, complex: D.complex128}


class _Failure(Exception):
    """A mismatch found while walking the inputs: the error to raise, and where it occurred."""

    def __init__(self, type, msg, id=()):  # noqa: A002 (the exception type)
        super().__init__(msg)
        self.type, self.msg, self.id = type, msg, id

    def to_error(self, msg=None):
        """The user-facing exception; ``msg`` (a string or a callable on the generated text)
        replaces or rewrites the message."""
        if isinstance(msg, str):
            return self.type(msg)
        text = self.msg
        if self.id:
            text += "\n\nThe failure occurred for item " + "".join(str([i]) for i in self.id)
        return self.type(msg(text) if callable(msg) else text)


def _tolerances(dtypes, rtol, atol, id):
    """The (rtol, atol) for a comparison: the given pair, or the loosest defaults of ``dtypes``."""
    if (rtol is None) != (atol is None):
        raise _Failure(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, "
                       f"but got no {'rtol' if rtol is None else 'atol'}.", id)
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*(_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes))
    return max(rtols), max(atols)


# -- messages ------------------------------------------------------------------------------

def _diff_line(kind, diff, idx, tol, equality):
    line = (f"{kind.title()} difference: {diff}" if idx is None
            else f"Greatest {kind} difference: {diff} at index {idx}")
    return line + ("" if equality else f" (up to {tol} allowed)") + "\n"


def _mismatch_msg(identifier, extra, abs_diff, rel_diff, rtol, atol, abs_idx=None,
                  rel_idx=None):
    equality = rtol == 0 and atol == 0
    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += _diff_line("absolute", abs_diff, abs_idx, atol, equality)
    msg += _diff_line("relative", rel_diff, rel_idx, rtol, equality)
    return msg.strip()


def _scalar_msg(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", f"Expected {expected} but got {actual}.", abs_diff,
                         rel_diff, rtol, atol)


def _unravel(flat, shape):
    index = []
    for size in reversed(shape):
        flat, rest = divmod(flat, size)
        index.append(rest)
    return tuple(reversed(index))


def _tensor_msg(actual, expected, matches, rtol, atol):
    """Mismatch count, then the greatest absolute and relative differences among mismatches
    (the first such element wins ties), computed as torch computes them."""
    total = matches.numel()
    bad = total - int(F.sum(matches))
    extra = f"Mismatched elements: {bad} / {total} ({bad / total:.1%})"
    if actual.dtype.is_floating_point and actual.dtype.itemsize == 1:
        first = tuple(F.nonzero(~matches)[0].tolist())
        return (f"Tensor-likes are not 'equal'!\n\n{extra}\n"
                f"The first mismatched element is at index {first}.")
    a, e, m = actual.flatten(), expected.flatten(), matches.flatten()
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        a, e = a.to(D.int64), e.to(D.int64)
    abs_diff = F.abs(a - e)
    abs_diff[m] = 0
    max_abs, abs_at = F.max(abs_diff, 0)
    rel_diff = abs_diff / F.abs(e)
    rel_diff[m] = 0
    max_rel, rel_at = F.max(rel_diff, 0)
    return _mismatch_msg("Tensor-likes", extra, max_abs.item(), max_rel.item(), rtol, atol,
                         _unravel(int(abs_at), matches.shape),
                         _unravel(int(rel_at), matches.shape))


# -- pairs of leaves -------------------------------------------------------------------------

class _Unsupported(Exception):
    """This kind of pair cannot hold these inputs: try the next kind."""


def _none_pair(actual, expected, id, **_):
    if actual is not None and expected is not None:
        raise _Unsupported

    def compare():
        if not (actual is None and expected is None):
            raise _Failure(AssertionError, f"None mismatch: {actual} is not {expected}", id)
    return compare


def _bool_pair(actual, expected, id, **_):
    if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
        raise _Unsupported
    actual, expected = bool(actual), bool(expected)

    def compare():
        if actual is not expected:
            raise _Failure(AssertionError, f"Booleans mismatch: {actual} is not {expected}", id)
    return compare


def _number_pair(actual, expected, id, rtol, atol, equal_nan, check_dtype, **_):
    if not all(isinstance(x, (int, float, complex, np.number)) for x in (actual, expected)):
        raise _Unsupported
    actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], rtol, atol,
                             id)

    def compare():
        if check_dtype and type(actual) is not type(expected):
            raise _Failure(AssertionError, f"The (d)types do not match: {type(actual)} != "
                           f"{type(expected)}.", id)
        if actual == expected or (equal_nan and cmath.isnan(actual) and cmath.isnan(expected)):
            return
        diff = abs(actual - expected)
        if cmath.isfinite(diff) and diff <= atol + rtol * abs(expected):
            return
        raise _Failure(AssertionError, _scalar_msg(actual, expected, rtol, atol), id)
    return compare


def _tensor_pair(actual, expected, id, allow_subclasses, rtol, atol, equal_nan, check_device,
                 check_dtype, check_layout, check_stride):
    related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
    if not related or (not allow_subclasses and type(actual) is not type(expected)):
        raise _Unsupported
    try:
        actual, expected = (x if isinstance(x, Tensor) else F.as_tensor(x)
                            for x in (actual, expected))
    except Exception as error:  # noqa: BLE001 - any failure means "not a tensor-like"
        raise _Unsupported from error
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol, id)

    def fail(attribute, a, e):
        raise _Failure(AssertionError, f"The values for attribute '{attribute}' do not match: "
                       f"{a} != {e}.", id)

    def compare():
        a, e = actual, expected
        if a.shape != e.shape:
            fail("shape", a.shape, e.shape)
        if a.layout != e.layout and check_layout:
            fail("layout", a.layout, e.layout)
        if check_stride and a.stride() != e.stride():
            fail("stride()", a.stride(), e.stride())
        if check_device and a.device != e.device:
            fail("device", a.device, e.device)
        if check_dtype and a.dtype != e.dtype:
            fail("dtype", a.dtype, e.dtype)
        a, e = _equalize(a, e)
        if a.dtype.is_floating_point and a.dtype.itemsize == 1 and (rtol != 0 or atol != 0):
            raise _Failure(AssertionError, f"Rtol={rtol} and atol={atol} are not supported for "
                           "bitwise comparison of low dimensional floats. Please use rtol=0.0 "
                           "and atol=0.0.")
        matches = F.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
        if F.all(matches):
            return
        msg = (_scalar_msg(a.item(), e.item(), rtol, atol) if a.dim() == 0
               else _tensor_msg(a, e, matches, rtol, atol))
        raise _Failure(AssertionError, msg, id)
    return compare


def _equalize(a, e):
    """Move both to the CPU if their devices differ, and promote them to a common dtype
    (unsigned 16 to 64 bits count as int64 there)."""
    if a.device != e.device:
        a, e = a.cpu(), e.cpu()
    if a.dtype != e.dtype:
        wide = (D.uint16, D.uint32, D.uint64)
        common = D.promote_types(D.int64 if a.dtype in wide else a.dtype,
                                 D.int64 if e.dtype in wide else e.dtype)
        a, e = a.to(common), e.to(common)
    return a, e


_PAIRS = (_none_pair, _bool_pair, _number_pair, _tensor_pair)


def _is_sequence(x):
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def _originate(actual, expected, id, options):
    """The comparisons (one callable per leaf pair) of two possibly nested inputs."""
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, "The length of the sequences mismatch: "
                           f"{len(actual)} != {len(expected)}", id)
        return [c for i in range(len(actual))
                for c in _originate(actual[i], expected[i], (*id, i), options)]
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        keys, other = set(actual.keys()), set(expected.keys())
        if keys != other:
            raise _Failure(AssertionError, "The keys of the mappings do not match:\n"
                           f"Missing keys in the actual mapping: {sorted(other - keys)}\n"
                           f"Additional keys in the actual mapping: {sorted(keys - other)}", id)
        with contextlib.suppress(Exception):
            keys = sorted(keys)
        return [c for k in keys for c in _originate(actual[k], expected[k], (*id, k), options)]
    for pair in _PAIRS:
        try:
            return [pair(actual, expected, id, **options)]
        except _Unsupported:
            continue
        except _Failure:
            raise
        except Exception as error:  # (a bool against an int: torch's "unexpected" error)
            raise RuntimeError(_unexpected(pair, id, actual, expected)) from error
    raise _Failure(TypeError, "No comparison pair was able to handle inputs of type "
                   f"{type(actual)} and {type(expected)}.", id)


_PAIR_NAMES = {_none_pair: "NonePair", _bool_pair: "BooleanPair", _number_pair: "NumberPair",
               _tensor_pair: "TensorLikePair"}


def _unexpected(pair, id, actual, expected):
    return (f"Originating a {_PAIR_NAMES[pair]}() at item {''.join(str([i]) for i in id)} with"
            f"\n\n{type(actual).__name__}(): {actual}\n\nand\n\n{type(expected).__name__}(): "
            f"{expected}\n\nresulted in the unexpected exception above. If you are a user and "
            "see this message during normal operation please file an issue at "
            "https://github.com/pytorch/pytorch/issues. If you are a developer and working on "
            "the comparison functions, please except the previous error and raise an expressive "
            "`ErrorMeta` instead.")


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Assert that ``actual`` and ``expected`` are close: ``|actual - expected| <= atol + rtol *
    |expected|`` elementwise, after checking shape, device, dtype (and stride if asked).

    Default tolerances follow the dtype (float32: rtol 1.3e-6, atol 1e-5; float64: 1e-7 both;
    integers and bool: exact). Sequences and mappings are compared item by item. ``msg``
    replaces the message (a string) or rewrites it (a callable).
    """
    __tracebackhide__ = True
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol,
               "equal_nan": equal_nan, "check_device": check_device,
               "check_dtype": check_dtype, "check_layout": check_layout,
               "check_stride": check_stride}
    try:
        comparisons = _originate(actual, expected, (), options)
    except _Failure as failure:
        raise failure.to_error() from None
    for compare in comparisons:
        try:
            compare()
        except _Failure as failure:
            raise failure.to_error(msg) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated since torch 1.12: ``assert_close`` with looser default tolerances, numbers
    taken as tensors and dtypes not checked."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be "
                  "removed in a future release. Please use `torch.testing.assert_close()` "
                  "instead. You can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    if not isinstance(actual, Tensor):
        actual = F.tensor(actual)
    if not isinstance(expected, Tensor):
        expected = F.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        loose = {D.float16: (1e-3, 1e-3), D.float32: (1e-4, 1e-5), D.float64: (1e-5, 1e-8)}
        rtol = max(loose.get(t.dtype, (0.0, 0.0))[0] for t in (actual, expected))
        atol = max(loose.get(t.dtype, (0.0, 0.0))[1] for t in (actual, expected))
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg or None)


# -- make_tensor ---------------------------------------------------------------------------

_INTEGRAL = (D.uint8, D.int8, D.int16, D.int32, D.int64, D.uint16, D.uint32, D.uint64)
_FLOATING = (D.float16, D.bfloat16, D.float32, D.float64)
_COMPLEX = (D.complex32, D.complex64, D.complex128)


def _low_high(low, high, dtype, lowest, highest, default_low, default_high):
    """``low`` and ``high`` checked and clamped into the dtype's range, as torch does."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low!r} and "
                         f"high={high!r}")
    if low == high and dtype in _FLOATING + _COMPLEX:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                      "complex types is deprecated since 2.1 and will be removed in 2.3. "
                      "Use `torch.full(...)` instead.", FutureWarning, stacklevel=4)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), "
                         f"but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if dtype is D.bool_ or dtype in _INTEGRAL:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` with values drawn uniformly from ``[low, high)`` by the default
    generator, exactly as torch draws them (``randint`` for bool and integers, ``uniform_``
    for floating and complex dtypes; defaults -9 to 9 or 10)."""
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError("The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got noncontiguous={noncontiguous!r} and "
                         f"memory_format={memory_format!r}")
    if requires_grad and (dtype is D.bool_ or dtype in _INTEGRAL):
        raise ValueError("`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype!r}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype is D.bool_:
        low, high = _low_high(low, high, dtype, 0, 2, 0, 2)
        result = F.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _INTEGRAL:
        info = iinfo(dtype)
        low, high = _low_high(low, high, dtype, info.min,
                              info.max + (dtype is not D.int64), -9, 10)
        result = F.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _FLOATING + _COMPLEX:
        info = finfo(dtype)
        low, high = _low_high(low, high, dtype, info.min, info.max, -9, 9)
        result = F.empty(shape, device=device, dtype=dtype)
        target = F.view_as_real(result) if dtype in _COMPLEX else result
        if high - low >= finfo(target.dtype).max:  # (uniform_ needs high - low <= max)
            target.uniform_(low / 2, high / 2).mul_(2)
        else:
            target.uniform_(low, high)
    else:
        raise TypeError(f"The requested dtype '{dtype}' is not supported by "
                        "torch.testing.make_tensor(). To request support, file an issue at: "
                        "https://github.com/pytorch/pytorch/issues")
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = (1 if dtype is D.bool_ or dtype in _INTEGRAL
                               else finfo(dtype).tiny)
    if dtype in _FLOATING + _COMPLEX:
        result.requires_grad = requires_grad
    return result
