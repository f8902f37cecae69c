"""The op table, generated from the registry: every op record (``ops/_registry.REGISTRY``)
has rows (``op_rows_*.py``), and every row runs under torch 2.13 and doctensor on the same
inputs, on every device doctensor has (the CPU; CUDA through CuPy, or the emulated device).

For every (row, dtype, device, sample) the test compares the outputs (values, dtype, shape,
stride, ``requires_grad``, ``is_leaf``, ``grad_fn`` name; the printed repr on the CPU) or the
error (type and message), then runs ``backward(g)`` with a random ``g`` and compares every
input's gradient; and it checks that the row reached its record through the dispatch.  The
variant tests call each record through every method, function and in-place name it declares:
each exists, reaches the record, and, refused in place, leaves the tensor as torch leaves it.
"""

from collections import defaultdict

import numpy as np
import pytest
import torch  # noqa: F401  (the oracle: fail, not skip, without it)
from _oracle import assert_same, both, grad_fn_name, make_input, same_outcome
from op_table import ROW_MODULES, normalize, reached, run_case, sample_inputs

import doctensor
from doctensor.ops._registry import REGISTRY

ROWS = [row for module in ROW_MODULES for row in module.ROWS]
BY_RECORD = defaultdict(list)
for _row in ROWS:
    BY_RECORD[_row.record].append(_row)


def _case(key, row, dtype, device):
    marks = [pytest.mark.xfail(strict=True, reason=row.xfail)] if row.xfail else []
    return pytest.param(key, row, dtype, device, marks=marks,
                        id=f"{key or 'no-record'}-{row.name}-{dtype}-{device}")


def _cases():
    """For every record of the registry, its rows (a record without one is a failing case);
    then the rows of functions that are no op record (detach, type)."""
    for key in sorted(REGISTRY):
        if not BY_RECORD.get(key):
            yield pytest.param(key, None, None, None, id=f"{key}-NO-ROW")
        for row in BY_RECORD.get(key, ()):
            for dtype in row.dtypes:
                for device in row.devices:
                    yield _case(key, row, dtype, device)
    for row in BY_RECORD.get(None, ()):
        for dtype in row.dtypes:
            yield _case(None, row, dtype, "cpu")


@pytest.mark.parametrize("key,row,dtype,device", list(_cases()))
def test_op(key, row, dtype, device):
    assert row is not None, f"the op record {key} has no row in the op table"
    assert key is None or key in REGISTRY, f"{row.name}: no record {key} in the registry"
    with reached() as keys:
        ran = [run_case(row, dtype, index, sample, device)
               for index, sample in enumerate(row.samples)]
    if key is not None and any(ran) and dtype == _checked_dtype(row) and device == "cpu":
        assert key in keys, f"{row.name} never reached {key} through the dispatch ({keys})"


def _checked_dtype(row):
    """The dtype a row is checked to reach its record with (errors may refuse the others)."""
    return "float32" if "float32" in row.dtypes else row.dtypes[0]


# -- the variants a record declares --------------------------------------------------------

def _variant_rows():
    for key in sorted(REGISTRY):
        op = REGISTRY[key]
        if op.method or op.function or op.inplace:
            yield pytest.param(key, id=key)


def _call_spec(key):
    """The first row of ``key`` that says how to call it in function form, and its inputs
    (float32 on the CPU, its first sample) made by ``T``."""
    row = next((r for r in BY_RECORD.get(key, ()) if r.variants is not None), None)
    assert row is not None, f"{key} declares variants but no row of it has variants=..."
    dtype = _checked_dtype(row)
    values = sample_inputs(row, dtype, 0, row.samples[0])
    specs = normalize(row.samples[0])

    def make(T):
        inputs = [make_input(T, v, layout)[1] for v, (_, layout) in zip(values, specs)]
        return row.variants(T, *inputs)
    return make


def _calls(op, args, kwargs, T):
    """(kind, name, thunk) for every variant ``op`` declares, called on ``args``."""
    first, rest = args[0], args[1:]
    for name in op.function:
        yield "function", name, lambda n=name: getattr(T, n)(*args, **kwargs)
    for name in op.method:
        yield "method", name, lambda n=name: getattr(first, n)(*rest, **kwargs)
    for name in op.inplace:
        yield "inplace", name, lambda n=name: getattr(first.detach().clone(), n)(*rest, **kwargs)


@pytest.mark.parametrize("key", list(_variant_rows()))
def test_variants_exist_and_reach_their_record(key):
    """Every declared variant exists on Tensor or the doctensor namespace, and calling it
    reaches the record through the dispatch (nothing computes it on the side)."""
    op = REGISTRY[key]
    for name in op.method + op.inplace:
        assert hasattr(doctensor.Tensor, name), f"{key}: no Tensor.{name}"
    for name in op.function:
        assert hasattr(doctensor, name), f"{key}: no doctensor.{name}"
    make = _call_spec(key)
    args, kwargs = make(doctensor)
    for kind, name, call in _calls(op, args, kwargs, doctensor):
        with reached() as keys:
            try:
                call()
            except Exception:  # noqa: BLE001, S110 - a refusal after the dispatch counts too
                pass
        assert key in keys, f"{kind} {name} did not reach {key} ({keys})"


# -- refused in place: the tensor's state afterwards, as torch's ----------------------------

_REFUSALS = ("leaf", "inference", "expanded", "integer")


def _refusal_cases():
    for key in sorted(REGISTRY):
        op = REGISTRY[key]
        for name in op.inplace:
            for how in _REFUSALS:
                yield pytest.param(key, name, how, id=f"{key}-{name}-{how}")


def _state(x):
    """What a refused in-place op must leave as torch leaves it: values, version (or the
    error reading it), history."""
    try:
        version = x._version
    except RuntimeError as e:
        version = str(e)
    return x.detach().clone(), version, grad_fn_name(x), x.requires_grad


def _target(T, x, how):
    """The tensor an in-place op is tried on: a leaf that requires grad, an inference tensor
    (used outside inference mode), an expanded tensor, an integer copy."""
    x = x.detach().clone()
    if how == "leaf":
        return x.requires_grad_() if x.is_floating_point() else None
    if how == "inference":
        with T.inference_mode():
            return x.clone()
    if how == "expanded":
        return x.reshape(-1)[:1].expand(x.shape) if x.numel() > 1 else None
    return x.long()


@pytest.mark.parametrize("key,name,how", list(_refusal_cases()))
def test_inplace_refusals_leave_torchs_state(key, name, how):
    make = _call_spec(key)

    def scenario(T):
        args, kwargs = make(T)
        x = _target(T, args[0], how)
        if x is None:
            return "not applicable"
        try:
            out = getattr(x, name)(*args[1:], **kwargs)
            result = "returned self" if out is x else out
        except Exception as e:  # noqa: BLE001 - the refusal is the outcome compared
            result = (type(e).__name__, str(e))
        return result, _state(x)
    ours, theirs = both(scenario)
    assert_same(ours, theirs, strides=False)


# -- special values ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_sign_of_nan_and_signed_zeros(dtype):
    """torch's sign is (0 < x) - (x < 0): +0. for NaN and -0. (NumPy keeps them); abs's
    backward multiplies by sgn, so NaN inputs get a zero gradient."""
    def scenario(T):
        x = T.tensor([np.nan, -0.0, 0.0, -np.inf, 2.0], dtype=getattr(T, dtype),
                     requires_grad=True)
        x.abs().backward(T.ones(5, dtype=x.dtype))
        return x.sign(), T.sgn(x), x.grad
    same_outcome(scenario)


def test_rounding_and_classification_of_integers_and_bools():
    """floor/ceil/trunc return integers unchanged and refuse bool; frac refuses both; the
    is* tests answer for every dtype (torch's zeros_like/ones_like keep an empty integer
    input's strides, which doctensor does not: non-empty inputs here)."""
    def scenario(T):
        out = []
        for t in (T.tensor([1, -2]), T.tensor([True, False]), T.tensor([3], dtype=T.uint8)):
            for name in ("floor", "ceil", "trunc", "frac", "isnan", "isinf", "isfinite"):
                try:
                    out.append(getattr(T, name)(t))
                except Exception as e:  # noqa: BLE001 - the error is the outcome compared
                    out.append((type(e).__name__, str(e)))
        x = T.tensor([2.5, -0.5])
        out += [x.floor_(), x._version, x.frac_(), x._version]
        return out
    same_outcome(scenario)
