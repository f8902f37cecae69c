"""Differential tests of ``doctensor._tensor_str`` against torch 2.13's ``repr``.

Every comparison builds the torch tensor from the same NumPy values, applies the same
print-option calls to both libraries and asserts that the strings are identical.
"""

import math
import time

import numpy as np
import pytest
import torch

from doctensor import _dtypes
from doctensor import _tensor_str as ts

FLOATS = ("float16", "float32", "float64")
INTS = ("int8", "int16", "int32", "int64", "uint8")
SHAPES = [(), (1,), (5,), (7,), (25,), (100,), (1001,), (3000,), (1, 1), (2, 3), (4, 7),
          (40, 40), (10, 300), (3, 1, 4), (2, 3, 4), (12, 13, 14), (2, 2, 2, 2), (5, 6, 7, 8)]
THRESHOLD_VALUES = [1e-4, 1.0001e-4, 9.999e-5, 1e-3, 0.1, 1.0, 999.9, 1000.0, 1000.1, 1e8,
                    1.0001e8, 99999999.0, 0.5, -1000.0, 12345.678, 0.00015, 9.99995, 0.99995,
                    0.125, 0.375, 2.5, -3.5, 1e12, -1e-10]
# Exactly at the int_mode / sci_mode boundaries (B.5: all three comparisons are strict).
BOUNDARY_LISTS = [[1000.0, 1.0], [1e8], [1.0001e8], [1e-4], [1e-4, 0.1], [0.5, 500.0],
                  [-1000.0, 1.0], [1e8, 1e6], [99999999.0], [0.125, 0.375], [12345.678],
                  [0.00015], [1.0, np.nan], [[1.0, np.nan], [-0.0, 2.5]], [1e-3, 1.0],
                  [2.0, 2000.0, 2000.5], [-1e8, -1.0]]


@pytest.fixture(autouse=True)
def _restore_global_state():
    """Reset print options and the default dtype of both libraries after each test."""
    yield
    torch.set_printoptions(profile="default")
    ts.set_printoptions(profile="default")
    torch.set_default_dtype(torch.float32)
    _dtypes.set_default_dtype(_dtypes.float32)


def _float_values(rng, kind, n):
    """``n`` float64 values of one kind (they are rounded to the tensor dtype later)."""
    if kind == "normal":
        return rng.randn(n)
    if kind == "uniform":
        return rng.rand(n)
    if kind == "scaled":
        return rng.randn(n) * 10.0 ** rng.randint(-10, 13)
    if kind == "mixed":
        return rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-10, 12, n)
    if kind == "integral":
        return np.round(rng.randn(n) * 10.0 ** rng.randint(0, 10))
    if kind == "ties":
        return rng.randint(-800, 800, n) / rng.choice([8.0, 16.0, 32.0])
    if kind == "thresholds":
        return rng.choice(THRESHOLD_VALUES, n)
    if kind == "special":
        values = rng.randn(n) * 10.0 ** rng.randint(-5, 6)
        specials = [np.nan, np.inf, -np.inf, -0.0, 0.0]
        mask = rng.rand(n) < 0.3
        values[mask] = rng.choice(specials, mask.sum())
        return values
    if kind == "nonfinite":
        return rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], n)
    return np.zeros(n)  # "zeros"


FLOAT_KINDS = ("normal", "uniform", "scaled", "mixed", "integral", "ties", "thresholds",
               "special", "nonfinite", "zeros")


def _int_values(rng, name, n, kind):
    info = np.iinfo(name)
    if kind == "full":
        lo, hi = info.min, info.max
    elif kind == "small":
        lo, hi = max(info.min, -9), 9
    else:  # "positive"
        lo, hi = 0, min(info.max, 10**6)
    return rng.randint(lo, hi, n, dtype=np.int64 if name != "uint8" else np.uint8)


def _make_cases():
    """About 420 (label, array, dtype) cases, deterministic."""
    rng = np.random.RandomState(20260213)
    cases = []
    for d_index, name in enumerate(FLOATS):
        for k_index, kind in enumerate(FLOAT_KINDS):
            for s in range(8):
                shape = SHAPES[(d_index * 5 + k_index * 3 + s * 7) % len(SHAPES)]
                with np.errstate(over="ignore"):
                    arr = _float_values(rng, kind, math.prod(shape)).astype(name)
                cases.append((f"{name}-{kind}-{shape}", arr.reshape(shape)))
    for values in BOUNDARY_LISTS:
        for name in FLOATS:
            with np.errstate(over="ignore"):
                cases.append((f"{name}-boundary-{values}", np.array(values, dtype=name)))
    for d_index, name in enumerate(INTS):
        for kind in ("full", "small", "positive"):
            for s in range(6):
                shape = SHAPES[(d_index * 4 + s * 5 + len(kind)) % len(SHAPES)]
                arr = _int_values(rng, name, math.prod(shape), kind).astype(name)
                cases.append((f"{name}-{kind}-{shape}", arr.reshape(shape)))
    for s, shape in enumerate(SHAPES[::2]):
        arr = rng.rand(math.prod(shape)) < (0.5 if s % 3 else 1.0)
        cases.append((f"bool-{shape}", arr.reshape(shape)))
    for shape in [(0,), (2, 0), (0, 3, 1)]:
        for name in FLOATS + INTS + ("bool",):
            cases.append((f"empty-{name}-{shape}", np.zeros(shape, dtype=name)))
    base = rng.randn(30, 40).astype(np.float32)
    for key, view in [("T", base.T), ("step", base[::3, ::-2]), ("col", base[:, 5]),
                      ("int-T", (base * 100).astype(np.int32).T[::-1]),
                      ("3d", base.reshape(5, 6, 40).transpose(2, 0, 1)[::4])]:
        cases.append((f"view-{key}", view))
    return [(label, arr, _dtypes.from_numpy_dtype(arr.dtype)) for label, arr in cases]


CASES = _make_cases()

# Each setting is the list of print-option calls made, in order, in both libraries.
SETTINGS = {
    "default": [],
    "precision2": [{"precision": 2}],
    "precision8": [{"precision": 8}],
    "precision0": [{"precision": 0}],
    "threshold5": [{"threshold": 5}],
    "threshold_inf": [{"threshold": math.inf}],
    "threshold0_edge1_sci": [{"threshold": 0, "edgeitems": 1, "sci_mode": True}],
    "edge0_threshold5": [{"threshold": 5, "edgeitems": 0}],
    "edge0": [{"edgeitems": 0}],
    "edge1_threshold5": [{"threshold": 5, "edgeitems": 1}],
    "edge2_threshold20_width40": [{"threshold": 20, "edgeitems": 2, "linewidth": 40}],
    "edge3_threshold100_width120": [{"threshold": 100, "edgeitems": 3, "linewidth": 120}],
    "width40": [{"linewidth": 40}],
    "sci_true": [{"sci_mode": True}],
    "sci_false": [{"sci_mode": False}],
    "sci_reset_by_later_call": [{"sci_mode": True}, {"precision": 3}],
    "short": [{"profile": "short"}],
    "full_then_width120_fixed": [{"profile": "full"}, {"linewidth": 120, "sci_mode": False}],
    "short_overridden": [{"profile": "short", "precision": 8, "sci_mode": True}],
    "unknown_profile_ignored": [{"precision": 2}, {"profile": "nope", "linewidth": 60}],
    "back_to_default": [{"precision": 1, "edgeitems": 0}, {"profile": "default"}],
}


def _apply(calls):
    for kwargs in calls:
        torch.set_printoptions(**kwargs)
        ts.set_printoptions(**kwargs)


def _mismatches(cases, **suffix_args):
    """The cases whose repr differs from torch's, with both texts."""
    bad = []
    for label, arr, dtype in cases:
        expected = repr(torch.from_numpy(arr.copy()))
        got = ts.tensor_repr(arr, dtype, **suffix_args)
        if got != expected:
            bad.append(f"{label}:\n--- torch\n{expected}\n--- doctensor\n{got}")
    return bad


def test_case_count():
    assert len(CASES) >= 400


@pytest.mark.parametrize("group", ["floating", "integral"])
@pytest.mark.parametrize("setting", list(SETTINGS), ids=list(SETTINGS))
def test_repr_matches_torch(setting, group):
    _apply(SETTINGS[setting])
    cases = [c for c in CASES if c[2].is_floating_point == (group == "floating")]
    bad = _mismatches(cases)
    assert not bad, f"{len(bad)} of {len(cases)} differ; first:\n" + "\n".join(bad[:3])


@pytest.mark.parametrize("setting", ["default", "edge0_threshold5", "sci_true"])
def test_default_dtype_float64_swaps_the_suffix(setting):
    torch.set_default_dtype(torch.float64)
    _dtypes.set_default_dtype(_dtypes.float64)
    _apply(SETTINGS[setting])
    bad = _mismatches(CASES[::3])
    assert not bad, "\n".join(bad[:3])


def test_get_printoptions_and_reset_rules_match_torch():
    for calls in SETTINGS.values():
        _apply(calls)
        assert ts.get_printoptions() == torch._tensor_str.get_printoptions()


def test_printoptions_context_restores_everything():
    _apply([{"precision": 6, "sci_mode": True}])
    before = ts.get_printoptions()
    with ts.printoptions(precision=1, threshold=3):
        assert ts.get_printoptions()["precision"] == 1
        assert ts.get_printoptions()["sci_mode"] is None
        assert ts.tensor_repr(np.array([0.25, 0.5]), _dtypes.float64) == (
            "tensor([0.2, 0.5], dtype=torch.float64)")
    assert ts.get_printoptions() == before


GRAD_OPS = {
    "MulBackward0": lambda x: x * 2,
    "SumBackward0": lambda x: x.sum(),
    "SliceBackward0": lambda x: x[1:],
    "CloneBackward0": lambda x: x.clone(),
    "ToCopyBackward0": lambda x: x.to(torch.float32 if x.dtype == torch.float64 else torch.float64),
    "ViewBackward0": lambda x: x.view(1, -1),
    "SelectBackward0": lambda x: x[0],
}


@pytest.mark.parametrize("linewidth", [40, 80, 97])
@pytest.mark.parametrize("edgeitems", [0, 3])
def test_grad_fn_and_requires_grad_suffixes(linewidth, edgeitems):
    """Body lengths 2..30 elements put the last line at every distance from linewidth."""
    _apply([{"linewidth": linewidth, "edgeitems": edgeitems, "threshold": 20}])
    rng = np.random.RandomState(linewidth + edgeitems)
    bad = []
    for n in range(2, 31):
        for name in ("float32", "float64", "float16"):
            arr = (rng.randn(n) * 10.0 ** rng.randint(-1, 3)).astype(name)
            x = torch.from_numpy(arr.copy()).requires_grad_()
            results = [(None, x)] + [(op, fn(x)) for op, fn in GRAD_OPS.items()]
            for grad_fn, y in results:
                dtype = _dtypes.by_name(str(y.dtype).removeprefix("torch."))
                if grad_fn is not None:
                    assert type(y.grad_fn).__name__ == grad_fn
                got = ts.tensor_repr(y.detach().numpy(), dtype, grad_fn=grad_fn,
                                     requires_grad=y.requires_grad)
                if got != repr(y):
                    bad.append(f"{name} n={n} {grad_fn}:\n{repr(y)}\n{got}")
    assert not bad, "\n".join(bad[:3])


def test_parameter_repr_matches_torch():
    arr = np.array([-0.0114, 0.4578], dtype=np.float32)
    for requires_grad in (True, False):
        param = torch.nn.Parameter(torch.from_numpy(arr.copy()), requires_grad=requires_grad)
        got = ts.parameter_repr(arr, _dtypes.float32, requires_grad=requires_grad)
        assert got == repr(param)
    assert ts.parameter_repr(arr, _dtypes.float32) == (
        "Parameter containing:\ntensor([-0.0114,  0.4578], requires_grad=True)")


def test_device_suffix_by_hand():
    """torch on CPU cannot make cuda tensors, so these texts are built by hand from B.3:
    device comes first, and each suffix wraps when ``L + len + 2 > linewidth`` with
    ``L`` = length of the last line + 2 (17 for ``tensor([1., 2.]``)."""
    f32, f64 = np.array([1.0, 2.0], np.float32), np.array([1.0, 2.0])
    assert ts.tensor_repr(f32, _dtypes.float32, device="cuda:0") == (
        "tensor([1., 2.], device='cuda:0')")
    # L: 17 -> 34 (device) -> 55 (dtype) -> 79 (grad_fn, 22 chars): no wrap at 80.
    assert ts.tensor_repr(f64, _dtypes.float64, device="cuda:0", grad_fn="MulBackward0") == (
        "tensor([1., 2.], device='cuda:0', dtype=torch.float64, grad_fn=<MulBackward0>)")
    # At 40 columns: 34 fits; 34 + 19 + 2 > 40 wraps (L = 26); 26 + 18 + 2 > 40 wraps.
    ts.set_printoptions(linewidth=40)
    assert ts.tensor_repr(f64, _dtypes.float64, device="cuda:0", requires_grad=True) == (
        "tensor([1., 2.], device='cuda:0',\n"
        "       dtype=torch.float64,\n"
        "       requires_grad=True)")
    ts.set_printoptions(linewidth=80)
    empty = np.zeros((2, 0), np.int64)
    assert ts.tensor_repr(empty, _dtypes.int64, device="cuda:1") == (
        "tensor([], device='cuda:1', size=(2, 0), dtype=torch.int64)")


def test_summarised_millions_print_fast():
    rng = np.random.RandomState(0)
    big = rng.randn(4_000_000).astype(np.float32)
    for shape in [(4_000_000,), (2000, 2000), (40, 100, 1000)]:
        start = time.perf_counter()
        got = ts.tensor_repr(big.reshape(shape), _dtypes.float32)
        assert time.perf_counter() - start < 0.5
        assert got == repr(torch.from_numpy(big.reshape(shape)))
    _apply([{"edgeitems": 0}])  # the 1-D quirk: the formatter sees every element
    start = time.perf_counter()
    got = ts.tensor_repr(big, _dtypes.float32)
    assert time.perf_counter() - start < 1.0
    assert got == "tensor([...], size=(4000000,))"
