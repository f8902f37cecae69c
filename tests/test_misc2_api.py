"""The rest of torch's namespaces, against torch 2.13: testing (assert_close, make_tensor).

Each case is ``fn(T)`` run under torch and doctensor (``_oracle.same_outcome``): values,
dtypes, shapes, strides, or the exception's type and message word for word.
"""

import warnings

import numpy as np
import pytest
import torch
from _oracle import Raised, assert_same, both, same_outcome

import doctensor

# -- torch.testing.assert_close --------------------------------------------------------------

def close(actual, expected, **kw):
    return lambda T: T.testing.assert_close(actual(T), expected(T), **kw)


def t(*values, dtype=None):
    """A tensor of ``values`` (``dtype`` a name resolved against the module under test)."""
    return lambda T: T.tensor(list(values), dtype=dtype and getattr(T, dtype))


ASSERT_CLOSE = {
    "equal": close(t(1.0, 2.0), t(1.0, 2.0)),
    "within default float32 tolerance": close(t(1.0, 2.0), t(1.0, 2.000001)),
    "one mismatch": close(t(1.0, 2.0, 3.0), t(1.0, 4.0, 3.0)),
    "two mismatches float64": close(t(1.0, 2.5, 3.0, dtype="float64"),
                                    t(1.5, 2.0, 3.0, dtype="float64")),
    "2-d index": close(lambda T: T.arange(6.0).reshape(2, 3),
                       lambda T: T.arange(6.0).reshape(2, 3) * 1.5),
    "expected zero: infinite relative": close(t(1.0, 0.5), t(0.0, 0.5)),
    "integers: equality message": close(t(1, 2, 3), t(1, 5, 3)),
    "bool tensors": close(t(True, False), t(True, True)),
    "uint8 wraps to int64 first": close(t(0, 200, dtype="uint8"), t(255, 200, dtype="uint8")),
    "0-d: scalar message": close(lambda T: T.tensor(1.0), lambda T: T.tensor(1.5)),
    "nan unequal by default": close(t(float("nan")), t(float("nan"))),
    "equal_nan": close(t(float("nan"), 1.0), t(float("nan"), 1.0), equal_nan=True),
    "inf against inf": close(t(float("inf")), t(float("inf"))),
    "explicit tolerances": close(t(1.0, 2.0), t(1.1, 2.0), rtol=0.2, atol=0.0),
    "only rtol": close(t(1.0), t(1.0), rtol=0.1),
    "only atol": close(t(1.0), t(1.0), atol=0.1),
    "shape": close(t(1.0, 2.0), t(1.0, 2.0, 3.0)),
    "dtype": close(t(1.0, 2.0), t(1.0, 2.0, dtype="float64")),
    "dtype unchecked: promoted": close(t(1.0, 2.0), t(1.0, 2.0, dtype="float64"),
                                       check_dtype=False),
    "dtype unchecked: loosest tolerance": close(t(1.0, 2.0), t(1.0, 2.00001, dtype="float64"),
                                                check_dtype=False),
    "dtype unchecked: mismatch": close(t(1, 2), t(1.0, 2.5), check_dtype=False),
    "stride unchecked": close(lambda T: T.ones(2, 3).t(), lambda T: T.ones(3, 2)),
    "stride checked": close(lambda T: T.ones(2, 3).t(), lambda T: T.ones(3, 2),
                            check_stride=True),
    "msg string": close(t(1.0), t(2.0), msg="custom"),
    "msg callable": close(t(1.0, 2.0), t(1.0, 3.0), msg=lambda m: f"Header\n\n{m}\n\nFooter"),
    "numbers": lambda T: T.testing.assert_close(1.0, 1.0 + 1e-9),
    "numbers mismatch": lambda T: T.testing.assert_close(1.0, 1.5),
    "ints mismatch": lambda T: T.testing.assert_close(3, 4),
    "int against float": lambda T: T.testing.assert_close(1, 1.0),
    "int against float unchecked": lambda T: T.testing.assert_close(1, 1.0, check_dtype=False),
    "complex numbers": lambda T: T.testing.assert_close(1 + 2j, 1 + 3j),
    "numpy scalars": lambda T: T.testing.assert_close(np.float32(1.0), np.float32(2.0)),
    "booleans": lambda T: T.testing.assert_close(True, False),
    "bool against int": lambda T: T.testing.assert_close(True, 1),
    "nested bool against int": lambda T: T.testing.assert_close([0, {"k": 1}], [0, {"k": True}]),
    "numpy bool": lambda T: T.testing.assert_close(np.bool_(True), True),
    "numpy int": lambda T: T.testing.assert_close(np.int32(3), 3),
    "bytes": lambda T: T.testing.assert_close(b"xy", b"xz"),
    "objects": lambda T: T.testing.assert_close(object, object),
    "None": lambda T: T.testing.assert_close(None, None),
    "None mismatch": lambda T: T.testing.assert_close(None, 1),
    "sequences": lambda T: T.testing.assert_close([T.ones(2), 1.0], (T.ones(2), 1.0)),
    "sequence item mismatch": lambda T: T.testing.assert_close([1.0, [T.ones(2), 2.0]],
                                                               [1.0, [T.zeros(2), 2.0]]),
    "sequence lengths": lambda T: T.testing.assert_close([1.0, 2.0], [1.0]),
    "mappings": lambda T: T.testing.assert_close({"a": T.ones(1), "b": 2},
                                                 {"b": 2, "a": T.ones(1)}),
    "mapping item mismatch": lambda T: T.testing.assert_close({"a": {"w": T.ones(2)}},
                                                              {"a": {"w": T.zeros(2)}}),
    "mapping keys": lambda T: T.testing.assert_close({"a": 1, "b": 2}, {"a": 1, "c": 2}),
    "msg callable with an id": lambda T: T.testing.assert_close(
        [T.ones(1)], [T.zeros(1)], msg=lambda m: m.upper()),
    "tensor against number": lambda T: T.testing.assert_close(T.ones(()), 1.0),
    "tensor against ndarray": lambda T: T.testing.assert_close(T.ones(1), np.ones(1)),
    "two ndarrays": lambda T: T.testing.assert_close(np.ones(2), np.array([1.0, 2.0])),
    "strings": lambda T: T.testing.assert_close("a", "a"),
    "Size": lambda T: T.testing.assert_close(T.Size([2, 3]), T.Size([2, 4])),
    "parameter against tensor": lambda T: T.testing.assert_close(
        T.nn.Parameter(T.ones(2)), T.ones(2)),
    "parameter against tensor, no subclasses": lambda T: T.testing.assert_close(
        T.nn.Parameter(T.ones(2)), T.ones(2), allow_subclasses=False),
    "requires_grad is fine": close(lambda T: T.ones(2, requires_grad=True), lambda T: T.ones(2)),
    "complex tensors": close(lambda T: T.tensor([1 + 1j, 2j]), lambda T: T.tensor([1 + 1j, 3j])),
    "float16": close(lambda T: T.tensor([1.0, 2.0], dtype=T.float16),
                     lambda T: T.tensor([1.0, 2.01], dtype=T.float16)),
    "bfloat16": close(lambda T: T.tensor([1.0, 2.0], dtype=T.bfloat16),
                      lambda T: T.tensor([1.0, 2.5], dtype=T.bfloat16)),
    "empty": close(lambda T: T.ones(0), lambda T: T.ones(0)),
}


# the classes a message names: the same classes, in doctensor's modules
CLASS_NAMES = {"'torch.Tensor'": "'doctensor.tensor.Tensor'",
               "'torch.nn.parameter.": "'doctensor.nn.parameter."}


@pytest.mark.parametrize("case", ASSERT_CLOSE)
def test_assert_close(case):
    ours, theirs = both(ASSERT_CLOSE[case])
    if isinstance(theirs, Raised):
        for name, our_name in CLASS_NAMES.items():
            theirs.message = theirs.message.replace(name, our_name)
    assert_same(ours, theirs)


FUZZ_DTYPES = ["float32", "float64", "int64", "int32", "uint8", "bool", "float16", "complex64",
               "bfloat16"]


@pytest.mark.parametrize("seed", range(4))
def test_assert_close_random_pairs(seed):
    """Random pairs (dtypes, shapes, nans, near and far values, options): the same outcome
    and message as torch's."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        da, de = rng.choice(FUZZ_DTYPES), rng.choice(FUZZ_DTYPES)
        shape = tuple(int(n) for n in rng.integers(0, 4, rng.integers(0, 4)))
        a = rng.normal(size=shape) * 3
        scale = rng.choice([0, 1e-7, 1e-5, 1e-3, 1])
        e = a + rng.normal(size=shape) * scale * (rng.random(shape) < 0.5)
        if rng.random() < 0.2 and a.size:
            a.flat[0] = np.nan
        kw = {}
        if rng.random() < 0.3:
            kw["check_dtype"] = False
        if rng.random() < 0.2:
            kw["equal_nan"] = True
        if rng.random() < 0.2:
            kw.update(rtol=float(rng.choice([0, 1e-3])), atol=float(rng.choice([0, 1e-3])))
        same_outcome(_random_pair(a, da, e, de, kw))


def _random_pair(a, da, e, de, kw):
    def make(T, values, name):
        if name == "bool":
            return T.tensor(values > 0)
        if name in ("int64", "int32", "uint8"):
            return T.tensor(np.nan_to_num(values)).to(getattr(T, name))
        return T.tensor(values).to(getattr(T, name))
    return lambda T: T.testing.assert_close(make(T, a, da), make(T, e, de), **kw)


def test_assert_close_devices():
    """torch 2.13 CPU has no CUDA: its message for a device mismatch (cpu against meta) names
    the devices the way doctensor's emulated CUDA must (cpu against cuda:0)."""
    def message(fn):
        try:
            fn()
        except AssertionError as e:
            return str(e)
    theirs = message(lambda: torch.testing.assert_close(torch.ones(2),
                                                        torch.ones(2, device="meta")))
    ours = message(lambda: doctensor.testing.assert_close(doctensor.ones(2),
                                                          doctensor.ones(2, device="cuda")))
    assert ours == theirs.replace("meta", str(torch.device("cuda", 0)))
    doctensor.testing.assert_close(doctensor.ones(2), doctensor.ones(2, device="cuda"),
                                   check_device=False)
    torch_msg = message(lambda: torch.testing.assert_close(torch.ones(2), torch.zeros(2)))
    ours = message(lambda: doctensor.testing.assert_close(
        doctensor.ones(2), doctensor.zeros(2, device="cuda"), check_device=False))
    assert ours == torch_msg


def test_assert_allclose():
    def run(T):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            T.testing.assert_allclose([1.0, 2.0], T.tensor([1.0, 2.0001]))
            out = [str(x.message) for x in w] + [x.category.__name__ for x in w]
        try:
            T.testing.assert_allclose(T.tensor([1.0, 2.0]), [1.0, 2.1])
        except AssertionError as e:
            out.append(str(e))
        return out
    same_outcome(run)


# -- make_tensor ---------------------------------------------------------------------------

def make(*shape, dtype, **kw):
    def run(T):
        T.manual_seed(11)
        return T.testing.make_tensor(*shape, dtype=getattr(T, dtype), device="cpu", **kw)
    return run


MAKE_TENSOR = {
    "float32": make(3, 4, dtype="float32"),
    "float64 low high": make((5,), dtype="float64", low=-1, high=1),
    "int64": make(2, 5, dtype="int64"),
    "uint8": make(7, dtype="uint8"),
    "int8 clamped high": make(9, dtype="int8", low=100, high=1000),
    "bool": make(10, dtype="bool"),
    "complex64": make(3, dtype="complex64"),
    "noncontiguous": make(3, 4, dtype="float32", noncontiguous=True),
    "exclude_zero int": make(20, dtype="int64", low=-1, high=2, exclude_zero=True),
    "requires_grad": make(2, dtype="float32", requires_grad=True),
    "requires_grad int": make(2, dtype="int32", requires_grad=True),
    "low >= high": make(2, dtype="float32", low=3, high=1),
    "nan low": make(2, dtype="float32", low=float("nan")),
    "outside range": make(2, dtype="uint8", low=-10, high=-1),
    "huge float range": make(4, dtype="float32", low=-1e38, high=3e38),
    "exclude_zero float": make(50, dtype="float32", low=-1, high=1, exclude_zero=True),
    "float16": make(3, dtype="float16"),
    "bfloat16": make(3, dtype="bfloat16"),
    "uint16": make(3, dtype="uint16"),
    "uint64": make(3, dtype="uint64"),
    "int64 huge range": make(3, dtype="int64", low=-2 ** 70, high=2 ** 70),
    "complex128 noncontiguous": make(2, 3, dtype="complex128", noncontiguous=True),
    "low == high float": make(2, dtype="float32", low=1, high=1),
    "shape list": make([2, 3], dtype="int8"),
    "empty": make(0, 3, dtype="float32"),
    "noncontiguous one element": make(1, dtype="float32", noncontiguous=True),
    "noncontiguous and memory_format": lambda T: T.testing.make_tensor(
        2, 3, dtype=T.float32, device="cpu", noncontiguous=True,
        memory_format=T.channels_last),
    "channels_last": pytest.param(
        lambda T: T.testing.make_tensor(2, 3, 2, 2, dtype=T.float32, device="cpu",
                                        memory_format=T.channels_last),
        marks=pytest.mark.xfail(strict=True, reason="doctensor's clone ignores memory_format "
                                "(no channels_last layouts)")),
}


@pytest.mark.parametrize("case", [pytest.param(v, id=k) if callable(v) else
                                  pytest.param(*v.values, marks=v.marks, id=k)
                                  for k, v in MAKE_TENSOR.items()])
def test_make_tensor(case):
    same_outcome(case)


# -- torch.signal.windows --------------------------------------------------------------------

WINDOWS = {
    "bartlett": {}, "blackman": {}, "cosine": {}, "exponential": {}, "gaussian": {"std": 1.7},
    "general_cosine": {"a": [0.46, 0.23, 0.31]}, "general_hamming": {"alpha": 0.6},
    "hamming": {}, "hann": {}, "kaiser": {"beta": 8.5}, "nuttall": {},
}


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("M", [0, 1, 2, 7, 64])
@pytest.mark.parametrize("sym", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_windows(name, M, sym, dtype):
    def run(T):
        return getattr(T.signal.windows, name)(M, sym=sym, dtype=getattr(T, dtype),
                                               **WINDOWS[name])
    # (the windows are torch's compositions of ops, linspace bit for bit; sin, cos, exp and i0
    # of doctensor may differ from torch's vectorized CPU kernels by one unit in the last
    # place (i0 a few), and the cosine sums cancel: a few units of the peak, 1.0; so the
    # printed last digit may differ too)
    same_outcome(run, rtol=0, atol=1e-6 if dtype == "float32" else 1e-15, reprs=False)


WINDOW_CASES = {
    "exponential center": lambda T: T.signal.windows.exponential(9, center=2.5, tau=3.0,
                                                                 sym=False),
    "exponential center with sym": lambda T: T.signal.windows.exponential(9, center=2.0),
    "exponential tau": lambda T: T.signal.windows.exponential(9, tau=0),
    "gaussian std": lambda T: T.signal.windows.gaussian(9, std=-1.0),
    "kaiser beta": lambda T: T.signal.windows.kaiser(9, beta=-1.0),
    "negative length": lambda T: T.signal.windows.hann(-1),
    "int dtype": lambda T: T.signal.windows.cosine(3, dtype=T.int64),
    "float16 dtype": lambda T: T.signal.windows.blackman(3, dtype=T.float16),
    "coefficients not iterable": lambda T: T.signal.windows.general_cosine(3, a=0.5),
    "coefficients empty": lambda T: T.signal.windows.general_cosine(3, a=[]),
    "default dtype float64": lambda T: _with_default(T, T.float64,
                                                     lambda: T.signal.windows.hann(5)),
    "requires_grad": lambda T: T.signal.windows.gaussian(5, requires_grad=True),
    "requires_grad cosine sum": lambda T: T.signal.windows.hamming(5, requires_grad=True),
    "requires_grad kaiser": lambda T: T.signal.windows.kaiser(5, requires_grad=True),
}


def _with_default(T, dtype, fn):
    before = T.get_default_dtype()
    T.set_default_dtype(dtype)
    try:
        return fn()
    finally:
        T.set_default_dtype(before)


@pytest.mark.parametrize("case", WINDOW_CASES)
def test_window_cases(case):
    same_outcome(WINDOW_CASES[case], rtol=0, atol=1e-6, reprs=False)


# -- torch.return_types ----------------------------------------------------------------------

def test_return_types_names():
    ours = set(doctensor.return_types.__all__)
    theirs = {n for n in torch.return_types.__all__ if not n.endswith("_out")}
    assert ours == theirs - {"pytree_register_structseq", "all_return_types"}


RETURN_TYPES = {
    "max": lambda T: T.max(T.tensor([1.0, 3.0]), 0),
    "min": lambda T: T.tensor([[1, 3], [0, 2]]).min(1),
    "sort": lambda T: T.sort(T.tensor([2.0, 1.0])),
    "topk": lambda T: T.topk(T.tensor([2.0, 1.0, 5.0]), 2),
    "aminmax": lambda T: T.aminmax(T.tensor([2.0, 1.0])),
    "frexp": lambda T: T.frexp(T.tensor([2.0, 1.0])),
    "linalg_slogdet": lambda T: T.linalg.slogdet(T.eye(2)),
    "cummax": lambda T: T.cummax(T.tensor([2.0, 1.0]), 0),
    "kthvalue": lambda T: T.kthvalue(T.tensor([2.0, 1.0]), 1),
}


@pytest.mark.parametrize("name", RETURN_TYPES)
def test_return_types_classes(name):
    def run(T):
        result = RETURN_TYPES[name](T)
        cls = getattr(T.return_types, name)
        return [isinstance(result, cls), cls.__name__, cls.__module__, repr(result)]
    same_outcome(run)


# -- torch.functional, torch.types -----------------------------------------------------------

def test_windows_alias():
    assert doctensor.windows is doctensor.signal.windows
    assert torch.windows is torch.signal.windows


def test_functional_module():
    assert sorted(doctensor.functional.__all__) == sorted(torch.functional.__all__)
    for name in torch.functional.__all__:
        assert getattr(doctensor.functional, name) is getattr(doctensor, name)
    same_outcome(lambda T: T.functional.einsum("ij,j->i", T.ones(2, 3), T.arange(3.0)))


def test_types_module():
    assert doctensor.types.__all__ == torch.types.__all__
    assert isinstance(doctensor.device("cpu"), doctensor.types.Device)
    assert isinstance(2.5, doctensor.types.Number)


# -- Tensor methods, nonzero_static ------------------------------------------------------------

METHODS = {
    "hardshrink": lambda T: T.tensor([-1.0, 0.2, 0.7]).hardshrink(),
    "hardshrink lambd": lambda T: T.tensor([-1.0, 0.2, 0.7], requires_grad=True).hardshrink(0.1),
    "prelu": lambda T: T.tensor([[-1.0, 2.0], [3.0, -4.0]]).prelu(T.tensor([0.25, 0.5])),
    "prelu grad": lambda T: T.tensor([-1.0, 2.0], requires_grad=True).prelu(T.tensor([0.25])),
    "prelu int": lambda T: T.tensor([-1, 2]).prelu(T.tensor([1])),
    "nonzero_static pad": lambda T: T.nonzero_static(T.tensor([[0.0, 1], [2, 0]]), size=4),
    "nonzero_static fill": lambda T: T.tensor([[0, 1], [2, 0]]).nonzero_static(size=3,
                                                                               fill_value=7),
    "nonzero_static cut": lambda T: T.nonzero_static(T.tensor([1, 1, 0, 1]), size=2),
    "nonzero_static zero": lambda T: T.nonzero_static(T.tensor([[1, 1]]), size=0),
    "nonzero_static 0-d": lambda T: T.nonzero_static(T.tensor(0.0), size=2),
    "nonzero_static bool": lambda T: T.tensor([True, False, True]).nonzero_static(size=1),
    "nonzero_static requires_grad": lambda T: T.ones(2, requires_grad=True).nonzero_static(
        size=3),
    "nonzero_static negative": lambda T: T.nonzero_static(T.ones(2), size=-1),
    "name": lambda T: [T.ones(2).name, T.ones(2, requires_grad=True).exp().name],
    "name is read-only": lambda T: setattr(T.ones(2), "name", "w"),
}


@pytest.mark.parametrize("case", METHODS)
def test_methods(case):
    same_outcome(METHODS[case])


# -- DLPack: zero-copy with NumPy and torch ----------------------------------------------------

def test_dlpack_numpy_shares_memory():
    x = doctensor.arange(6.0).reshape(2, 3).t()
    a = np.from_dlpack(x)
    assert a.strides == (4, 12) and a.dtype == np.float32
    a[0, 1] = 50.0
    assert x[0, 1].item() == 50.0
    back = doctensor.from_dlpack(a)
    back[2, 0] = -3.0
    assert a[2, 0] == -3.0 and x[2, 0].item() == -3.0
    array = np.arange(4)
    t = doctensor.from_dlpack(array)
    t[1] = 9
    assert array[1] == 9 and t.dtype is doctensor.int64


def test_dlpack_torch_shares_memory():
    ours = doctensor.arange(6.0).reshape(2, 3)[:, 1:]
    theirs = torch.from_dlpack(ours)
    assert theirs.stride() == ours.stride() and theirs.shape == ours.shape
    theirs[1, 0] = 77.0
    assert ours[1, 0].item() == 77.0
    t = torch.arange(4.0)
    mine = doctensor.from_dlpack(t)
    mine[0] = 9.0
    assert t[0].item() == 9.0
    via_capsule = doctensor.from_dlpack(torch.to_dlpack(t))
    via_capsule[1] = 8.0
    assert t[1].item() == 8.0
    theirs = torch.from_dlpack(doctensor.to_dlpack(ours))
    theirs[0, 0] = -1.0
    assert ours[0, 0].item() == -1.0


@pytest.mark.skipif(doctensor.backends.cuda_mode() != "cupy",
                    reason="needs CuPy and a GPU (checked on the GPU draw)")
def test_dlpack_cupy_shares_memory():
    import cupy

    x = doctensor.arange(6.0, device="cuda").reshape(2, 3)
    c = cupy.from_dlpack(x)
    c[1, 2] = 50.0
    assert x[1, 2].item() == 50.0
    back = doctensor.from_dlpack(c)
    assert back.device.type == "cuda" and back.stride() == x.stride()
    back[0, 0] = -3.0
    assert float(c[0, 0]) == -3.0 and x[0, 0].item() == -3.0
    if torch.cuda.is_available():
        theirs = torch.from_dlpack(x)
        theirs[0, 1] = 7.0
        assert x[0, 1].item() == 7.0
        t = torch.arange(3.0, device="cuda")
        doctensor.from_dlpack(t)[2] = 9.0
        assert t[2].item() == 9.0


class _CudaProducer:
    """A DLPack producer that says its memory is on CUDA device 0."""

    def __dlpack__(self, **_):
        raise AssertionError("not to be read without a GPU")

    def __dlpack_device__(self):
        return 2, 0


@pytest.mark.skipif(doctensor.backends.cuda_mode() != "emulate",
                    reason="the emulated CUDA device only")
def test_dlpack_cuda_producer_without_gpu():
    """CUDA memory cannot become an emulated CUDA tensor (nor can one be exported)."""
    with pytest.raises(RuntimeError, match="needs CuPy and a GPU"):
        doctensor.from_dlpack(_CudaProducer())
    with pytest.raises(BufferError, match="only CPU tensors"):
        doctensor.ones(2, device="cuda").__dlpack__()


DLPACK_ERRORS = {
    "requires grad": lambda T: T.ones(2, requires_grad=True).__dlpack__(),
    "conjugate bit": lambda T: T.ones(2, dtype=T.complex64).conj().__dlpack__(),
    "stream on cpu": lambda T: T.ones(2).__dlpack__(stream=5),
    "not a producer": lambda T: T.from_dlpack(3),
    "device": lambda T: [int(v) for v in T.ones(2).__dlpack_device__()],  # (torch: an enum)
}


@pytest.mark.parametrize("case", DLPACK_ERRORS)
def test_dlpack_errors(case):
    same_outcome(DLPACK_ERRORS[case])


# -- storage-only dtypes: float8, float4, sub-byte integers, bits ------------------------------

STORAGE_ONLY = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                "float8_e8m0fnu", "float4_e2m1fn_x2", *(f"int{n}" for n in range(1, 8)),
                *(f"uint{n}" for n in range(1, 8)), "bits1x8", "bits2x4", "bits4x2", "bits8",
                "bits16", "bit"]


@pytest.mark.parametrize("name", STORAGE_ONLY)
def test_storage_only_dtype_objects(name):
    def run(T):
        d = getattr(T, name)
        signed = raised_or(lambda: d.is_signed)
        return [repr(d), str(d), d.itemsize, d.is_floating_point, d.is_complex, signed,
                d == getattr(T, name), d != T.float32]
    same_outcome(run)


@pytest.mark.parametrize("other", ["float32", "int8", "uint8", "float8_e5m2", "bits8", "uint3"])
@pytest.mark.parametrize("name", ["float8_e4m3fn", "float8_e8m0fnu", "bits16", "uint4", "int4"])
def test_storage_only_promotion(name, other):
    if "int4" in (name, other) and other != name and other not in ("float8_e5m2", "bits8"):
        pytest.skip("torch fails an internal assert (no message to match)")
    same_outcome(lambda T: T.promote_types(getattr(T, name), getattr(T, other)))


def raised_or(fn):
    try:
        return fn()
    except RuntimeError as e:
        return f"RuntimeError: {e}"


@pytest.mark.xfail(strict=True, reason="doctensor refuses tensors of storage-only dtypes "
                   "(NotImplementedError); torch creates and casts them")
def test_storage_only_tensors():
    same_outcome(lambda T: T.zeros(2, dtype=T.float8_e4m3fn).float())


NORM_EXCEPT_DIM = {
    "dim 0": lambda T: T.norm_except_dim(T.arange(6.0).reshape(2, 3), 2, 0),
    "last dim": lambda T: T.norm_except_dim(T.arange(6.0).reshape(2, 3), 2, 1),
    "middle dim": lambda T: T.norm_except_dim(T.arange(24.0).reshape(2, 3, 4), 2, 1),
    "all": lambda T: T.norm_except_dim(T.arange(6.0).reshape(2, 3), 2, -1),
    "pow 3": lambda T: T.norm_except_dim(T.arange(6.0).reshape(3, 2), 3, 0),
    "1-d": lambda T: T.norm_except_dim(T.arange(4.0), 2, 0),
    "transposed input": lambda T: T.norm_except_dim(T.arange(6.0).reshape(2, 3).t(), 2, 0),
    "grad dim 0": lambda T: _grad(T, lambda v: T.norm_except_dim(v, 2, 0)),
    "grad middle": lambda T: _grad(T, lambda v: T.norm_except_dim(v.reshape(2, 3, 4), 2, 1)),
    "grad all": pytest.param(
        lambda T: _grad(T, lambda v: T.norm_except_dim(v, 2, -1)),
        marks=pytest.mark.xfail(strict=True, reason="torch's node is at::norm(v, p)'s "
                                "NormBackward0, which doctensor has no record for (doctensor: "
                                "LinalgVectorNormBackward0; same values)")),
    "inner node": lambda T: type(T.norm_except_dim(T.ones(2, 3, requires_grad=True), 2, 0)
                                 .grad_fn.next_functions[0][0]).__name__,
}


def _grad(T, fn):
    v = T.linspace(-2.0, 3.0, 24, dtype=T.float64).reshape(4, 6).requires_grad_()
    out = fn(v)
    out.sum().backward()
    return [out, v.grad]


@pytest.mark.parametrize("case", [pytest.param(v, id=k) if callable(v) else
                                  pytest.param(*v.values, marks=v.marks, id=k)
                                  for k, v in NORM_EXCEPT_DIM.items()])
def test_norm_except_dim(case):
    same_outcome(case)


# -- torch.multiprocessing -------------------------------------------------------------------

def test_multiprocessing_names():
    import multiprocessing
    assert sorted(doctensor.multiprocessing.__all__) == sorted(torch.multiprocessing.__all__)
    for name in multiprocessing.__all__:
        assert getattr(doctensor.multiprocessing, name) is getattr(multiprocessing, name)


def test_sharing_strategy():
    def run(T):
        mp = T.multiprocessing
        out = [mp.get_sharing_strategy(), sorted(mp.get_all_sharing_strategies())]
        mp.set_sharing_strategy("file_system")
        out.append(mp.get_sharing_strategy())
        mp.set_sharing_strategy("file_descriptor")
        try:
            mp.set_sharing_strategy("shm")
        except AssertionError as e:
            out.append(str(e).replace("'file_system', 'file_descriptor'", "..")
                       .replace("'file_descriptor', 'file_system'", ".."))  # (a set's order)
        return out
    same_outcome(run)


@pytest.mark.xfail(strict=True, reason="doctensor registers no shared-memory pickling: a "
                   "tensor sent through a Queue arrives as a copy")
def test_queue_shares_memory():
    def run(T):
        q = T.multiprocessing.Queue()
        t = T.zeros(3)
        q.put(t)
        received = q.get(timeout=10)
        received[0] = 5.0
        return t
    same_outcome(run)


# -- torch.futures ---------------------------------------------------------------------------

def _fut_then(T):
    fut = T.futures.Future()
    doubled = fut.then(lambda f: f.wait() * 2)
    tenfold = doubled.then(lambda f: f.value() * 10)
    out = [fut.done(), doubled.done()]
    fut.set_result(T.tensor([1.0, 2.0]))
    return out + [fut.done(), doubled.wait(), tenfold.wait()]


def _fut_error(T):
    fut = T.futures.Future()
    fut.set_exception(ValueError("bad"))
    return [fut.done(), raised_any(fut.wait), raised_any(fut.value)]


def _fut_callback_error(T):
    fut = T.futures.Future()
    child = fut.then(lambda f: 1 / 0)
    fut.set_result(3)
    kind, message = raised_any(child.wait).split(": ", 1)
    return [kind, message.split("\n\nAt:")[0]]  # (the frames name each library's files)


def _fut_callbacks(T):
    calls = []
    fut = T.futures.Future()
    fut.add_done_callback(lambda f: calls.append(f.value()))
    fut.set_result(9)
    fut.add_done_callback(lambda f: calls.append("late"))
    return calls


def _fut_collect(T):
    a, b, c = T.futures.Future(), T.futures.Future(), T.futures.Future()
    both_done = T.futures.collect_all([a, b])
    a.set_result(1)
    out = [both_done.done()]
    b.set_result(2)
    c.set_exception(RuntimeError("z"))
    return out + [both_done.done(), [f.wait() for f in both_done.wait()],
                  T.futures.wait_all([a, b]), raised_any(lambda: T.futures.wait_all([a, c])),
                  raised_any(lambda: T.futures.collect_all([a, c]).wait()),
                  T.futures.wait_all([])]


FUTURES = {
    "then": _fut_then,
    "error": _fut_error,
    "callback error": _fut_callback_error,
    "done callbacks": _fut_callbacks,
    "collect_all, wait_all": _fut_collect,
    "set twice": lambda T: [_set_twice(T, "set_result"), _set_twice(T, "set_exception")],
    "not an exception": lambda T: T.futures.Future().set_exception(3),
}


def _set_twice(T, how):
    fut = T.futures.Future()
    fut.set_result(1)
    return raised_any(lambda: getattr(fut, how)(ValueError("again")))


def raised_any(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("case", FUTURES)
def test_futures(case):
    same_outcome(FUTURES[case])


def test_futures_wait_across_threads():
    import threading
    fut = doctensor.futures.Future()
    threading.Timer(0.05, lambda: fut.set_result("ready")).start()
    assert fut.wait() == "ready"
