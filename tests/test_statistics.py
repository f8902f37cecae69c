"""Statistics, scans and searching beyond the op table (tests/op_rows_statistics.py): the named
tuples torch returns, the warnings of var_mean / std_mean / cov, the nodes of ops torch does
not differentiate, ties in large rows (Note [the order of ties]), bit-exact values where the
kernels' order is reproduced, and the names the API offers.
"""

import warnings

import numpy as np
import pytest
import torch
from _oracle import assert_same, both, same_outcome

import doctensor

TORCH_NAMES = ["aminmax", "cummax", "cummin", "cumulative_trapezoid", "trapezoid", "trapz",
               "corrcoef", "cov", "diff", "gradient", "histc", "histogram", "isin", "kthvalue",
               "logcumsumexp", "mode", "msort", "nanmean", "nanmedian", "nansum", "std_mean",
               "var_mean", "searchsorted", "bucketize", "unique_consecutive", "quantile",
               "nanquantile", "histogramdd"]
TENSOR_NAMES = ["aminmax", "corrcoef", "cov", "cummax", "cummin", "cumprod_", "cumsum_", "diff",
                "histc", "histogram", "kthvalue", "logcumsumexp", "mode", "msort", "nanmean",
                "nanmedian", "nansum", "unique_consecutive", "quantile", "nanquantile"]


@pytest.mark.parametrize("name", TORCH_NAMES)
def test_torch_function_exists(name):
    assert hasattr(torch, name)
    assert callable(getattr(doctensor, name))


@pytest.mark.parametrize("name", TENSOR_NAMES)
def test_tensor_method_exists(name):
    assert hasattr(torch.Tensor, name)
    assert callable(getattr(doctensor.Tensor, name))


def _described(r):
    """What a returned named tuple shows: its class's name and module, repr, fields read by
    name."""
    fields = [f for f in ("min", "max", "values", "indices", "hist", "bin_edges")
              if hasattr(r, f)]
    return (type(r).__name__, type(r).__module__, isinstance(r, tuple), len(r), repr(r),
            [getattr(r, f) for f in fields])


def test_named_tuples_print_and_read_like_torchs():
    def scenario(T):
        x = T.tensor([[3.0, 1.0, 3.0], [2.0, 2.0, 5.0]])
        return [_described(r) for r in (
            T.aminmax(x), x.aminmax(dim=1, keepdim=True), T.nanmedian(x, 0), x.mode(1),
            T.kthvalue(x, 2), T.cummax(x, 1), x.cummin(0), T.histogram(x, 3))]
    same_outcome(scenario)


def _warned(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("call", ["var_mean", "std_mean", "cov", "corrcoef"])
def test_degrees_of_freedom_warnings(call):
    def scenario(T):
        x = T.tensor([[1.5]])
        if call in ("var_mean", "std_mean"):
            return _warned(lambda: getattr(T, call)(x, 1))
        return _warned(lambda: getattr(T, call)(x))
    (ours, our_warnings), (theirs, their_warnings) = scenario(doctensor), scenario(torch)
    assert our_warnings == their_warnings
    assert_same(ours, theirs)


def test_histogram_nodes_are_not_implemented():
    """torch's histogram records a NotImplemented node on both outputs (its backward refuses);
    histc records none; unique_consecutive's node refuses in backward."""
    def scenario(T):
        x = T.tensor([1.0, 2.0, 2.5, 4.0], requires_grad=True)
        hist, edges = T.histogram(x, 3)
        out = [type(hist.grad_fn).__name__, type(edges.grad_fn).__name__,
               T.histc(x, 3).grad_fn, T.histc(x, 3).requires_grad]
        for fn in (lambda: hist.sum().backward(),
                   lambda: T.unique_consecutive(x).sum().backward()):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - the error is the outcome compared
                out.append((type(e).__name__, str(e)))
        return out
    same_outcome(scenario)


@pytest.mark.parametrize("seed", range(4))
def test_ties_in_long_rows(seed):
    """mode's and kthvalue's indices among many ties, in rows long enough for std::sort's
    quicksort partitions and for the quickselect's recursion (Note [the order of ties])."""
    values = np.random.default_rng(seed).integers(0, 6, (3, 300))

    def scenario(T):
        x = T.tensor(values)
        return [x.mode(-1), T.mode(x.double(), 0), x.kthvalue(150), T.kthvalue(x.float(), 7, 0),
                T.kthvalue(x, 299, keepdim=True)]
    same_outcome(scenario)


def test_mode_heapsort_path():
    """A row that drives std::sort's quicksort to its depth limit (a median-of-three killer
    sequence degrades it to the heapsort), with pairs of equal values."""
    n = 256
    row = np.zeros(n, np.int64)
    k = n // 2
    for i in range(1, k + 1):  # Musser's median-of-3 killer, then halved: pairs of ties
        if i % 2:
            row[i - 1], row[i] = i, k + i
        row[k + i - 1] = 2 * i
    row = row // 4

    def scenario(T):
        return T.tensor(row).mode()
    same_outcome(scenario)


def test_cumulative_values_are_bit_exact():
    """cummax/cummin pick elements (signed zeros stay), logcumsumexp scans in double for
    float32 and searchsorted's binary search puts NaN last: torch's bits."""
    values = np.random.default_rng(7).standard_normal((4, 50)).astype(np.float32)
    values[0, ::7] = -0.0
    values[1, ::5] = 0.0
    values[2, 3] = np.nan

    def scenario(T):
        x = T.tensor(values)
        s = T.tensor(np.sort(values[3]))
        return [t.numpy().tobytes() for t in (
            x.cummax(1).values, x.cummin(0).values, x.logcumsumexp(1), x.double().logcumsumexp(0),
            T.searchsorted(s, x), T.bucketize(x, s, right=True))]
    ours, theirs = both(scenario)
    assert ours == theirs


def test_quantile_gradients_through_the_composite():
    def scenario(T):
        x = T.tensor([[1.0, 5.0, 3.0, 3.0], [4.0, 2.0, 6.0, 0.5]], requires_grad=True)
        q = T.tensor([0.1, 0.5, 0.9])
        out = T.quantile(x, q, dim=1, keepdim=True)
        out2 = x.nanquantile(0.3, interpolation="midpoint")
        grads = T.autograd.grad((out * out).sum() + out2, x)
        return out, out2, grads, out.grad_fn.next_functions[0][0].__class__.__name__
    same_outcome(scenario)


def test_refused_inplace_scan_leaves_tensor_unchanged():
    def scenario(T):
        x = T.tensor([True, False, True])
        y = T.tensor([1, 2, 3])
        out = []
        for fn in (lambda: x.cumsum_(0), lambda: y.cumprod_(0, dtype=T.float32)):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - the error is the outcome compared
                out.append((type(e).__name__, str(e)))
        return out, x, y, x._version, y._version
    same_outcome(scenario)


def test_existing_statistics_take_their_usual_arguments():
    """median, var/std with correction=, count_nonzero: the argument forms torch takes."""
    values = np.random.default_rng(3).standard_normal((3, 4, 5)).astype(np.float32)

    def scenario(T):
        x = T.tensor(values)
        return [x.median(), T.median(x, 1), x.median(-1, keepdim=True),
                T.var(x, (0, 2), correction=2), x.var(1, True, True), x.var(unbiased=False),
                T.std(x, dim=None, correction=0), x.std(-1, keepdim=True, correction=3),
                T.std(x, [0, 1]), T.count_nonzero(x.round()), T.count_nonzero(x.round(), (0, 2)),
                x.round().count_nonzero(dim=-1), T.count_nonzero(x.round(), dim=[1])]
    same_outcome(scenario)


def test_bfloat16_nan_handling():
    """bfloat16 (ml_dtypes' "V" kind) has NaN like the NumPy floats: the NaN-ignoring ops
    and the running extrema treat it as torch does."""
    vals = [[1.5, float("nan"), 3.0, 3.0], [4.0, 2.0, -1.0, 2.0]]

    def scenario(T):
        x = T.tensor(vals, dtype=T.bfloat16)
        return [x.nansum(), x.nanmean(1), x.nanmedian(), x.nanmedian(1), x.cummax(1),
                x.cummin(0), x.mode(1), x.kthvalue(2), T.aminmax(x, dim=0), x.logcumsumexp(1)]
    same_outcome(scenario)


def test_histc_prints_nan_bounds_as_torch():
    """A NaN range torch's min/max kernels computed prints as -nan (not for one element,
    nor for bfloat16)."""
    def scenario(T):
        out = []
        for dtype in (T.float16, T.bfloat16, T.float32, T.float64):
            for values in ([1.0, float("nan")], [float("nan")]):
                try:
                    T.histc(T.tensor(values, dtype=dtype), 4)
                except RuntimeError as e:
                    out.append(str(e))
        return out
    same_outcome(scenario)


def test_complex_inputs_are_refused_as_torch_refuses_them():
    def scenario(T):
        x = T.tensor([1 + 2j, 3j, 1 + 2j])
        out = []
        for fn in (lambda: T.nansum(x), lambda: T.nanmean(x), lambda: T.cummax(x, 0),
                   lambda: T.cummin(x, 0), lambda: T.aminmax(x), lambda: T.nanmedian(x),
                   lambda: T.nanmedian(x, 0), lambda: T.mode(x), lambda: T.kthvalue(x, 1),
                   lambda: T.searchsorted(x, x), lambda: T.isin(x, x), lambda: T.histc(x),
                   lambda: T.unique_consecutive(x), lambda: T.quantile(x, 0.5)):
            try:
                out.append(fn())
            except Exception as e:  # noqa: BLE001 - the error is the outcome compared
                out.append((type(e).__name__, str(e)))
        return out + [T.diff(x), T.cov(T.stack([x, x.flip(0)]))]
    same_outcome(scenario)
