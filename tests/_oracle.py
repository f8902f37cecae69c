"""Shared helpers of the differential core tests: run the same code under torch and doctensor.

A test writes its scenario once as ``fn(T)`` where ``T`` is the module (``torch`` or
``doctensor``); ``both(fn)`` runs it under each and ``assert_same`` compares what came back,
recursively: values, dtype, shape, stride, ``requires_grad``, ``is_leaf``, the ``grad_fn``
name, or the exception's type and message word for word.
"""

import math
import os
import warnings

import numpy as np
import pytest
import torch

import doctensor

__all__ = ["HYPOTHESIS_EXAMPLES", "both", "assert_same", "assert_unchanged", "outcome",
           "same_outcome", "tol", "make_input", "sample_values", "snapshot", "DTYPES", "FLOATS",
           "INTS", "torch", "doctensor", "threads"]

# hypothesis examples per property test; raise it to hunt for bugs (CI keeps the suite fast)
HYPOTHESIS_EXAMPLES = int(os.environ.get("DOCTENSOR_HYPOTHESIS_EXAMPLES", "60"))

DTYPES = ("float32", "float64", "int64", "int32", "uint8", "bool")
FLOATS = ("float32", "float64")
INTS = ("int64", "int32", "uint8")


def tol(dtype_name):
    """(rtol, atol) for comparing values of a dtype: exact for integers and bool."""
    if dtype_name == "float32":
        return 1e-6, 1e-6
    if dtype_name == "float64":
        return 1e-12, 1e-12
    if dtype_name == "float16":
        return 1e-3, 1e-3
    return 0, 0


class Raised:
    """An exception captured from a scenario (compared by type name and message)."""

    def __init__(self, exc):
        self.type = type(exc).__name__
        self.message = str(exc)

    def __repr__(self):
        return f"{self.type}: {self.message}"


def outcome(fn, T):
    """``fn(T)``, or the ``Raised`` exception it threw."""
    try:
        return fn(T)
    except Exception as e:  # noqa: BLE001 - the exception *is* the result under test
        return Raised(e)


def raised(fn):
    """The type name and message of what ``fn()`` raises (None if nothing): for an error
    compared inside a scenario that goes on after it."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return type(e).__name__, str(e)
    return None


def both(fn):
    """(doctensor's outcome, torch's outcome) of ``fn``, with warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = outcome(fn, doctensor)
        theirs = outcome(fn, torch)
    return ours, theirs


def same_outcome(fn, **kw):
    """Run ``fn`` under both libraries and assert the outcomes agree."""
    ours, theirs = both(fn)
    assert_same(ours, theirs, **kw)
    return ours, theirs


def _np(t):
    if not hasattr(t, "detach"):
        return np.asarray(t)
    # (torch refuses numpy() of a tensor with the conjugate or negative bit: resolved first,
    # and of a bfloat16 tensor: compared in float32, which holds its values exactly)
    t = t.detach().cpu().resolve_conj().resolve_neg()
    return (t.float() if str(t.dtype) == "torch.bfloat16" else t).numpy()


def grad_fn_name(t):
    fn = t.grad_fn
    return None if fn is None else type(fn).__name__


def assert_same(ours, theirs, rtol=None, atol=None, path="result", strides=True, reprs=True):
    """Compare outcomes recursively (see the module docstring).

    ``reprs``: also compare ``repr`` of tensors (printing is observable; -0. vs 0. shows).
    """
    if isinstance(theirs, Raised) or isinstance(ours, Raised):
        assert isinstance(ours, Raised) and isinstance(theirs, Raised), \
            f"{path}: doctensor gave {ours!r}, torch gave {theirs!r}"
        assert (ours.type, ours.message) == (theirs.type, theirs.message), \
            f"{path}: doctensor raised {ours!r}\n torch raised {theirs!r}"
        return
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, doctensor.Tensor), f"{path}: got {type(ours)}"
        assert_tensor(ours, theirs, rtol, atol, path, strides, reprs)
        return
    if isinstance(theirs, torch.dtype):
        assert str(ours) == str(theirs), f"{path}: {ours} != {theirs}"
        return
    if isinstance(theirs, torch.Size):
        assert type(ours).__name__ == "Size" and tuple(ours) == tuple(theirs), \
            f"{path}: {ours!r} != {theirs!r}"
        return
    if isinstance(theirs, (tuple, list)):
        assert type(ours).__name__ == type(theirs).__name__, \
            f"{path}: {type(ours).__name__} != {type(theirs).__name__}"
        assert len(ours) == len(theirs), f"{path}: length {len(ours)} != {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, rtol, atol, f"{path}[{i}]", strides, reprs)
        return
    if isinstance(theirs, dict):
        assert ours.keys() == theirs.keys(), f"{path}: keys {ours.keys()} != {theirs.keys()}"
        for k in theirs:
            assert_same(ours[k], theirs[k], rtol, atol, f"{path}[{k!r}]", strides, reprs)
        return
    if isinstance(theirs, float) and isinstance(ours, float):
        if math.isnan(theirs):
            assert math.isnan(ours), f"{path}: {ours} != nan"
        else:
            r = rtol if rtol is not None else 1e-6
            a = atol if atol is not None else 1e-6
            assert math.isclose(ours, theirs, rel_tol=r, abs_tol=a), f"{path}: {ours} != {theirs}"
        return
    assert type(ours) is type(theirs), f"{path}: {type(ours)} != {type(theirs)} ({ours!r})"
    assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"


def assert_tensor(ours, theirs, rtol=None, atol=None, path="result", strides=True, reprs=True):
    """One tensor against torch's: dtype, shape, stride, values, autograd flags."""
    assert str(ours.dtype) == str(theirs.dtype), f"{path}: dtype {ours.dtype} != {theirs.dtype}"
    assert tuple(ours.shape) == tuple(theirs.shape), \
        f"{path}: shape {tuple(ours.shape)} != {tuple(theirs.shape)}"
    if strides and (theirs.numel() or "grads" not in path):
        # (torch gives some empty gradients zero strides: unobservable, not compared)
        assert ours.stride() == theirs.stride(), \
            f"{path}: stride {ours.stride()} != {theirs.stride()} (shape {tuple(theirs.shape)})"
    assert ours.requires_grad == theirs.requires_grad, \
        f"{path}: requires_grad {ours.requires_grad} != {theirs.requires_grad}"
    assert ours.is_leaf == theirs.is_leaf, f"{path}: is_leaf {ours.is_leaf} != {theirs.is_leaf}"
    assert grad_fn_name(ours) == grad_fn_name(theirs), \
        f"{path}: grad_fn {grad_fn_name(ours)} != {grad_fn_name(theirs)}"
    if reprs:
        assert repr(ours) == repr(theirs), f"{path}: repr\n{ours!r}\n{theirs!r}"
    r0, a0 = tol(str(theirs.dtype)[6:])
    a, b = _np(ours), _np(theirs)
    if r0 == 0 and rtol is None:
        np.testing.assert_array_equal(a, b, err_msg=path)
    else:
        np.testing.assert_allclose(a, b, rtol=r0 if rtol is None else rtol,
                                   atol=a0 if atol is None else atol, equal_nan=True,
                                   err_msg=path)


# -- inputs -------------------------------------------------------------------------------------

def sample_values(rng, shape, dtype, domain=(-3.0, 3.0), nonzero=False):
    """A NumPy array of ``shape`` holding values drawn for ``dtype`` (names as torch's)."""
    lo, hi = domain
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool) | bool(nonzero)
    if dtype in FLOATS or dtype == "float16":
        out = rng.uniform(lo, hi, shape)
        if nonzero:
            out[np.abs(out) < 0.1] = 0.5
        return out.astype(dtype)
    ilo, ihi = (0, 10) if dtype == "uint8" else (max(int(lo) - 2, -6), int(hi) + 3)
    if dtype == "uint8":
        ilo = max(int(lo), 0)
    out = rng.integers(ilo, ihi, shape)
    if nonzero:
        out[out == 0] = 1
    return out.astype(dtype)


def make_input(T, values, layout="contig", requires_grad=False, device=None):
    """(leaf, input): a tensor of ``values`` with the given memory layout (on ``device``).

    ``layout``: ``contig``; ``T`` (stored transposed, read through ``mT``/``t``);
    ``step`` (every second element of a twice-as-wide tensor).  With ``requires_grad``
    the leaf requires grad and ``input`` is a view of it (not a leaf) for non-contiguous
    layouts.
    """
    arr = np.array(values, order="C")  # (ascontiguousarray makes a 0-d array 1-d)
    if layout == "T" and arr.ndim >= 2:
        stored = np.ascontiguousarray(np.swapaxes(arr, -1, -2))
        leaf = T.tensor(stored, requires_grad=requires_grad, device=device)
        return leaf, leaf.transpose(-1, -2)
    if layout == "step" and arr.ndim >= 1:
        wide = np.repeat(arr, 2, axis=-1)
        leaf = T.tensor(wide, requires_grad=requires_grad, device=device)
        return leaf, leaf[..., ::2]
    leaf = T.tensor(arr, requires_grad=requires_grad, device=device)
    return leaf, leaf


def snapshot(t):
    """What an error must not change: values, version, history."""
    return (t.detach().cpu().numpy().copy(), t._version, grad_fn_name(t), t.requires_grad)


def assert_unchanged(before, t, what="tensor"):
    values, version, fn, rg = before
    now = snapshot(t)
    np.testing.assert_array_equal(now[0], values, err_msg=f"{what} values changed")
    assert now[1:] == (version, fn, rg), f"{what}: (version, grad_fn, requires_grad) " \
                                         f"{now[1:]} != {(version, fn, rg)}"


@pytest.fixture(params=[1, 2], ids=["1-thread", "2-threads"])
def threads(request):
    """Both libraries on ``request.param`` threads (a test of what torch splits among its
    threads); restored afterwards."""
    before = torch.get_num_threads(), doctensor.get_num_threads()
    torch.set_num_threads(request.param)
    doctensor.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before[0])
    doctensor.set_num_threads(before[1])
