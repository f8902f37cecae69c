"""Creation, dtypes and type promotion, conversions, comparisons, iteration: against torch."""

# ruff: noqa: B023  (the lambdas in loops here are called at once, inside their iteration)

import itertools

import numpy as np
import pytest
import torch  # noqa: F401
from _oracle import DTYPES, assert_same, both, outcome, same_outcome

import doctensor

ALL_DTYPES = ("float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64",
              "bool")


@pytest.fixture(autouse=True)
def _default_dtype():
    yield
    torch.set_default_dtype(torch.float32)
    doctensor.set_default_dtype(doctensor.float32)


TENSOR_DATA = [
    1, 2.5, True, [1, 2, 3], [1.0, 2, 3], [True, False], [1, 2.5], [True, 2], [True, 2.0],
    [[1, 2], [3, 4]], [[[1.0]], [[2.0]]], [], [[], []], [[1], [2]], 10**10, -3,
    np.float64(1.5), np.int32(3), np.bool_(True),
    np.arange(6, dtype=np.int32).reshape(2, 3), np.ones(3, dtype=np.float64),
    np.array([True, False]), np.zeros((2, 0)), np.arange(4.0, dtype=np.float32)[::2],
    np.ones((3, 2), dtype=np.uint8).T, np.array(5.0),
]


@pytest.mark.parametrize("i", range(len(TENSOR_DATA)))
def test_tensor_inference(i):
    data = TENSOR_DATA[i]
    same_outcome(lambda T: T.tensor(data))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tensor_with_dtype(dtype):
    same_outcome(lambda T: (T.tensor([1.7, -2.2, 0.0], dtype=getattr(T, dtype)),
                            T.tensor([[1, 0]], dtype=getattr(T, dtype)),
                            T.tensor(True, dtype=getattr(T, dtype))))


def test_tensor_bad_inputs():
    for data in ([[1, 2], [3]], [[1, 2], 3], ["a"], [1, "a"], {1: 2}, [[1], [[2]]],
                 [[1.0], [[2]]], [True, [1]], None, [None], 10**19, [1, 10**19],
                 np.array(["x"])):
        ours, theirs = both(lambda T: T.tensor(data))
        assert_same(ours, theirs, path=repr(data))
    for value, dtype in ((-1, "uint8"), (-2.2, "uint8"), (255.9, "uint8"), (256, "uint8"),
                         (-255, "uint8"), (-256, "uint8"), (128, "int8"), (1e20, "int64"),
                         (float("nan"), "int32"), (1e40, "float32"), (2, "bool")):
        for fn in (lambda T: T.tensor([value], dtype=getattr(T, dtype)),
                   lambda T: T.full((1,), value, dtype=getattr(T, dtype)),
                   lambda T: T.zeros(1, dtype=getattr(T, dtype)).fill_(value)):
            assert_same(*both(fn), path=f"{value} {dtype}")


def test_uint16_from_numpy():
    same_outcome(lambda T: T.from_numpy(np.array([1], dtype=np.uint16)))


FACTORIES = {
    "zeros": lambda T: T.zeros(2, 3),
    "zeros_tuple": lambda T: T.zeros((2, 3), dtype=T.int32),
    "zeros_empty": lambda T: T.zeros(0, 3),
    "zeros_scalar": lambda T: T.zeros(()),
    "ones": lambda T: T.ones(4, dtype=T.float64),
    "ones_list": lambda T: T.ones([2, 2], dtype=T.bool),
    "empty_shape": lambda T: T.empty(2, 3).shape,
    "full_int": lambda T: T.full((2,), 7),
    "full_float": lambda T: T.full((2, 2), 1.5),
    "full_bool": lambda T: T.full((1,), False),
    "full_dtype": lambda T: T.full((2,), 3, dtype=T.float32),
    "arange": lambda T: T.arange(5),
    "arange_float": lambda T: T.arange(0, 1, 0.1),
    "arange_neg": lambda T: T.arange(5, 0, -2),
    "arange_dtype": lambda T: T.arange(3, dtype=T.float64),
    "arange_float_start": lambda T: T.arange(1.0, 4),
    "arange_empty": lambda T: T.arange(0),
    "arange_bad": lambda T: T.arange(0, 5, -1),
    "arange_zero_step": lambda T: T.arange(0, 5, 0),
    "linspace": lambda T: T.linspace(0, 1, 5),
    "linspace_7": lambda T: T.linspace(-3, 11, 7),
    "linspace_1": lambda T: T.linspace(2, 3, 1),
    "linspace_0": lambda T: T.linspace(2, 3, 0),
    "linspace_f64": lambda T: T.linspace(0, 1, 11, dtype=T.float64),
    "eye": lambda T: T.eye(3),
    "eye_rect": lambda T: T.eye(2, 4, dtype=T.int64),
    "zeros_like": lambda T: T.zeros_like(T.ones(2, 3, dtype=T.int32)),
    "ones_like": lambda T: T.ones_like(T.ones(2), dtype=T.float64),
    "empty_like": lambda T: T.empty_like(T.ones(2, 2)).shape,
    "full_like": lambda T: T.full_like(T.ones(3), 4.5),
    "full_like_int": lambda T: T.full_like(T.ones(3, dtype=T.int64), 4.5),
    "zeros_like_t": lambda T: T.zeros_like(T.ones(3, 2).t()),
    "requires_grad": lambda T: T.zeros(2, requires_grad=True),
    "negative": lambda T: T.zeros(2, -1),
    "new_zeros": lambda T: T.ones(2, dtype=T.int32).new_zeros(3),
    "new_ones": lambda T: T.ones(2, dtype=T.float64).new_ones((2, 2)),
    "new_full": lambda T: T.ones(2).new_full((2,), 3),
    "new_tensor": lambda T: T.ones(2, dtype=T.float64).new_tensor([1, 2]),
    # empty_strided: its memory is garbage in torch, so only the layout is compared
    "empty_strided": lambda T: _layout(T.empty_strided((2, 3), (1, 2))),
    "empty_strided_f64": lambda T: _layout(T.empty_strided([2, 3], [4, 1], dtype=T.float64,
                                                           requires_grad=True)),
    "empty_strided_zero_strides": lambda T: _layout(T.empty_strided((2, 3), (0, 0))),
    "empty_strided_empty": lambda T: _layout(T.empty_strided((0, 3), (5, 5))),
    "empty_strided_0d": lambda T: _layout(T.empty_strided((), ())),
    "empty_strided_clone": lambda T: T.empty_strided((2, 3), (1, 2)).clone().stride(),
    "empty_strided_dims": lambda T: T.empty_strided((2, 3), (1,)),
    "empty_strided_negative": lambda T: T.empty_strided((2, -1), (1, 1)),
    "empty_strided_negative_stride": lambda T: T.empty_strided((2, 3), (-1, 1)),
    "empty_strided_float_stride": lambda T: T.empty_strided((2, 3), (1.5, 1)),
    "empty_strided_int_grad": lambda T: T.empty_strided((2,), (1,), dtype=T.int64,
                                                        requires_grad=True),
    "new_empty_strided": lambda T: _layout(
        T.ones(2, dtype=T.int32).new_empty_strided((2, 2), (1, 2))),
}


def _layout(t):
    return (tuple(t.shape), t.stride(), t.dtype, t.requires_grad, t.is_leaf,
            t.untyped_storage().nbytes(), t.storage_offset())


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_factories(name):
    same_outcome(FACTORIES[name])


def test_default_dtype():
    def scenario(T):
        before = T.get_default_dtype()
        T.set_default_dtype(T.float64)
        made = [T.tensor([1.5]), T.zeros(1), T.arange(0.0, 1.0), T.tensor(2), T.ones(1) + 0.5,
                T.tensor([1]) / 2, T.linspace(0, 1, 2), T.full((1,), 1.5)]
        now = T.get_default_dtype()
        T.set_default_dtype(T.float32)
        err = outcome(lambda _: T.set_default_dtype(T.int64), T)
        return before, made, now, T.get_default_dtype(), err
    same_outcome(scenario)


def test_from_numpy_shares_both_ways():
    def scenario(T):
        arr = np.arange(6.0).reshape(2, 3)
        t = T.from_numpy(arr)
        arr[0, 0] = 100
        t[1, 2] = -1
        back = t.numpy()
        shares = back is arr or np.shares_memory(back, arr)
        v = t.t()
        i32 = T.from_numpy(np.arange(3, dtype=np.int32))
        return t, arr.tolist(), shares, t._version, v.stride(), i32, \
            t.data_ptr() == arr.__array_interface__["data"][0]
    same_outcome(scenario)


def test_from_numpy_errors():
    for fn in (lambda T: T.from_numpy([1, 2]), lambda T: T.from_numpy(np.arange(4)[::-1]),
               lambda T: T.from_numpy(np.array([1], dtype=np.complex64)[:0].real.astype(
                   np.float16))):
        assert_same(*both(fn))


def test_as_tensor_sharing():
    def scenario(T):
        arr = np.arange(3.0)
        a = T.as_tensor(arr)
        b = T.as_tensor(arr, dtype=T.float32)
        arr[0] = 9
        t = T.ones(2)
        same = T.as_tensor(t) is t
        c = T.as_tensor([1, 2])
        d = T.as_tensor(t, dtype=T.float64)
        return a, b, same, c, d
    same_outcome(scenario)


def test_numpy_item_tolist():
    def scenario(T):
        t = T.tensor([[1.5, 2.0], [3.0, 4.0]])
        n = t.numpy()
        n[0, 0] = 7
        one = T.tensor([3])
        return (t, t.tolist(), T.tensor(2.5).item(), one.item(), T.tensor(True).item(),
                T.tensor(1, dtype=T.uint8).item(), T.tensor(3).tolist(),
                outcome(lambda _: t.item(), T),
                outcome(lambda _: T.ones(2, requires_grad=True).numpy(), T),
                T.ones(2, requires_grad=True).detach().numpy().tolist(),
                float(T.tensor([2.5])), int(T.tensor(3.9)), bool(T.tensor([0])),
                outcome(lambda _: bool(T.ones(2)), T), outcome(lambda _: bool(T.ones(0)), T))
    same_outcome(scenario)


def test_equal_allclose_len_iter():
    def scenario(T):
        a = T.tensor([1.0, 2.0, 3.0])
        b = T.tensor([1.0, 2.0, 3.0 + 1e-7])
        m = T.arange(6).reshape(2, 3)
        rows = list(m)
        return (T.equal(a, a.clone()), a.equal(b), T.equal(a, T.ones(2)), T.allclose(a, b),
                a.allclose(b + 1e-3), T.allclose(a, b, rtol=0, atol=0), len(m), rows,
                [r._base is m for r in rows], outcome(lambda _: len(T.tensor(1.0)), T),
                outcome(lambda _: list(T.tensor(1.0)), T), [x.item() for x in a])
    same_outcome(scenario)


# -- promotion -------------------------------------------------------------------------------------

def _t(T, name, ndim):
    value = [1, 0] if name == "bool" else [3, 2]
    t = T.tensor(value, dtype=getattr(T, name))
    return t if ndim else t[0]


@pytest.mark.parametrize("a,b", list(itertools.product(ALL_DTYPES, repeat=2)))
def test_promotion_tensor_tensor(a, b):
    def scenario(T):
        out = []
        for da, db in ((1, 1), (1, 0), (0, 1), (0, 0)):
            x, y = _t(T, a, da), _t(T, b, db)
            out.append([str((x * y).dtype), str(T.promote_types(getattr(T, a), getattr(T, b))),
                        outcome(lambda _: str((x + y).dtype), T),
                        outcome(lambda _: str((x / y).dtype), T),
                        outcome(lambda _: (x == y).dtype, T)])
        return out
    same_outcome(scenario)


SCALARS = [2, -1, 2.5, True, 300, 1e10, False]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_promotion_tensor_scalar(dtype):
    def scenario(T):
        out = []
        for s in SCALARS:
            for ndim in (0, 1):
                x = _t(T, dtype, ndim)
                for fn in (lambda: x * s, lambda: s * x, lambda: x + s, lambda: x / s,
                           lambda: x > s, lambda: T.where(x > 0, x, s)):
                    r = outcome(lambda _: fn(), T)
                    out.append(r if not hasattr(r, "dtype") else (str(r.dtype), r.tolist()))
        return out
    same_outcome(scenario)


@pytest.mark.parametrize("dtype", DTYPES)
def test_inplace_promotion(dtype):
    def scenario(T):
        out = []
        for other in (2, 2.5, True, T.tensor(1.5), T.tensor([1, 2]), T.tensor(True),
                      T.tensor([1.5, 2.5], dtype=T.float64)):
            x = T.tensor([1, 0], dtype=getattr(T, dtype))
            for name in ("add_", "mul_", "div_"):
                r = outcome(lambda _: getattr(x.clone(), name)(other), T)
                out.append(r)
        return out
    same_outcome(scenario)


@pytest.mark.parametrize("src", ALL_DTYPES)
def test_to_dtype_and_conversions(src):
    def scenario(T):
        x = T.tensor([-1.5, 0.0, 2.7, 300.0]).to(getattr(T, src))
        out = [x.to(getattr(T, d)) for d in ALL_DTYPES]
        out += [x.float(), x.double(), x.long(), x.int(), x.bool(), x.half(), x.byte(),
                x.to(x.dtype) is x, x.type_as(T.ones(1, dtype=T.int16))]
        return out
    same_outcome(scenario)


def _warnings(fn, T):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(T)
    return [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("case", ["T_3d", "tensor_of_tensor", "T_2d"])
def test_warnings_match(case):
    fns = {
        "T_3d": lambda T: T.ones(2, 3, 4).T,
        "T_2d": lambda T: T.ones(2, 3).T,
        "tensor_of_tensor": lambda T: T.tensor(T.ones(2)),
    }
    assert _warnings(fns[case], doctensor) == _warnings(fns[case], torch)


def test_readonly_numpy_warns_once_per_process():
    """A fresh interpreter per library: the warning is a once-per-process one."""
    import subprocess
    import sys
    code = ("import warnings, numpy as np, {lib} as T\n"
            "warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    for _ in range(3):\n"
            "        T.from_numpy(np.frombuffer(b'\\x00' * 8, dtype=np.float32))\n"
            "print([(w.category.__name__, str(w.message)) for w in caught])\n")
    out = [subprocess.run([sys.executable, "-c", code.format(lib=lib)], capture_output=True,
                          text=True, timeout=60).stdout for lib in ("doctensor", "torch")]
    assert out[0] == out[1] and out[1].count("UserWarning") == 1


def test_where_with_scalars_and_mixed_operands():
    def scenario(T):
        c = T.tensor([True, False, True])
        i = T.tensor([1, 2, 3])
        f = T.tensor([0.5, 1.5, 2.5], dtype=T.float64)
        return [T.where(c, 1.0, 0), T.where(c, 1, 0), T.where(c, True, False), T.where(c, i, 2.5),
                T.where(c, i, f), T.where(c, f, 7), T.where(c, T.tensor(1.0), i),
                T.where(c > 0, i[:1], f)]
    same_outcome(scenario)


def test_tensor_from_tensors_and_stack_0d():
    def scenario(T):
        parts = [T.tensor(1.5), T.tensor(2.5)]
        return [T.tensor([T.tensor(1), T.tensor(2)]), T.stack(parts), T.stack(parts, -1),
                T.cat([T.ones(0), T.ones(2)]), T.cat([T.ones(2, 0), T.ones(2, 3)], 1),
                T.tensor([[T.tensor(1.0)]])]
    same_outcome(scenario)


LEGACY = {
    "tensor_data": lambda T: [T.Tensor([1, 2]), T.Tensor([[1, 2], [3, 4]]), T.Tensor((2, 3)),
                              T.FloatTensor(np.ones(2))],
    "tensor_sizes": lambda T: [T.Tensor(2, 3).shape, T.Tensor().shape, T.Tensor(2, 0).shape,
                               T.Tensor(T.Size([2])).shape, T.DoubleTensor(2).dtype],
    "typed": lambda T: [T.FloatTensor([1]), T.LongTensor([1.7, -2.5]), T.BoolTensor([1, 0]),
                        T.IntTensor([1]), T.ByteTensor([1]), T.HalfTensor([1]),
                        T.ShortTensor([1]), T.CharTensor([-1])],
    "alias": lambda T: [(t := T.ones(2)), (u := T.Tensor(t)).add_(1), t._version, u._version,
                        u.data_ptr() == t.data_ptr()],
    "isinstance": lambda T: [isinstance(T.ones(1), T.FloatTensor),
                             isinstance(T.ones(1), T.LongTensor),
                             isinstance(T.ones(1, dtype=T.long), T.LongTensor),
                             T.FloatTensor.__name__, T.LongTensor.__name__],
    "error_scalar": lambda T: T.Tensor(3.5),
    "error_bool": lambda T: T.Tensor(True),
    "error_negative": lambda T: T.Tensor(-1),
    "error_other_dtype": lambda T: T.LongTensor(T.ones(2)),
}


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_legacy_constructors(name):
    """torch.Tensor(...) and torch.FloatTensor(...) & co. as in older tutorials (empty memory
    is zero-filled in doctensor, so sizes alone are compared there)."""
    same_outcome(LEGACY[name])


def _spaced_cases(n, seed):
    """Seeded (start, end, steps, dtype) cases: random and integral ends, up to 3000 steps."""
    rng = np.random.default_rng(seed)
    for k in range(n):
        start, end = rng.uniform(-10, 10, 2)
        if k % 3 == 0:
            start, end = rng.integers(-5, 6, 2).astype(float)
        yield (float(start), float(end), int(rng.integers(0, 3000)),
               ("float32", "float64", "float16", "int64", "int32")[k % 5])


@pytest.mark.parametrize("fn", ["linspace", "logspace"])
def test_linspace_and_logspace_are_bit_exact(fn):
    """ATen's kernels: linspace fuses its multiply-adds from both ends, logspace steps its
    exponents unfused and takes C's pow (each exact only that way)."""
    for start, end, steps, dtype in _spaced_cases(400, 7 if fn == "linspace" else 8):
        extra = {"base": (10.0, 2.0, 0.5, -2.0)[steps % 4]} if fn == "logspace" else {}
        if fn == "logspace":
            start, end = start / 4, end / 4  # powers that fit every dtype
        same_outcome(lambda T: getattr(T, fn)(start, end, steps, dtype=getattr(T, dtype),
                                              **extra), rtol=0, atol=0)
