"""The rest of the torch.* and Tensor surface, against torch 2.13: samplers, constants, dtype
info, predicates, legacy spellings, compile, accelerator, autocast, GradScaler, windows.

Each case is ``fn(T)`` run under torch and doctensor (``_oracle.same_outcome``): values,
dtypes, shapes, strides, grad_fn names, or the exception's type and message.
"""

import math
import warnings

import numpy as np
import pytest
import torch
from _oracle import raised, same_outcome

import doctensor


def seeded(fn):
    def run(T):
        T.manual_seed(7)
        return fn(T)
    return run


# -- multinomial through torch's exponential trick -------------------------------------------

MULTINOMIAL = {
    "one sample 1-d": lambda T: [T.multinomial(T.tensor([0.1, 0.2, 0.3, 0.4]), 1), T.rand(2)],
    "one sample 2-d": lambda T: T.multinomial(T.softmax(T.randn(4, 65), -1), 1),
    "one sample, replacement": lambda T: T.multinomial(T.tensor([1.0, 3.0]), 1, True),
    "no replacement": lambda T: [T.multinomial(T.rand(3, 50), 10), T.rand(2)],
    "no replacement float64": lambda T: T.multinomial(T.rand(100, dtype=T.float64), 30),
    "all categories": lambda T: T.tensor([0.5, 0.25, 0.25]).multinomial(3),
    "transposed probabilities": lambda T: T.multinomial(T.rand(3, 4).t(), 2),
    "float16": lambda T: T.multinomial(T.rand(20).half(), 5),
    "generator": lambda T: T.multinomial(T.ones(30), 4,
                                         generator=T.Generator().manual_seed(3)),
    "language-model sampling": lambda T: [
        T.multinomial(T.softmax(T.randn(1, 100) / 0.8, dim=-1), num_samples=1)
        for _ in range(5)],
    "nan": lambda T: T.multinomial(T.tensor([1.0, float("nan")]), 1),
    "negative": lambda T: T.multinomial(T.tensor([1.0, -1.0]), 2),
    "inf": lambda T: T.multinomial(T.tensor([1.0, float("inf")]), 1),
    "zero row": lambda T: T.multinomial(T.tensor([[1.0, 1.0], [0.0, 0.0]]), 1),
    "all zero": lambda T: T.multinomial(T.zeros(3), 1),
    "zero rows": lambda T: [T.multinomial(T.ones(0, 3), 1), T.multinomial(T.ones(0, 3), 2)],
    "zero categories": lambda T: T.multinomial(T.ones(2, 0), 1, True),
    "float num_samples": lambda T: T.multinomial(T.ones(3), 2.0),
}


@pytest.mark.parametrize("name", sorted(MULTINOMIAL))
def test_multinomial_exponential_path(name):
    same_outcome(seeded(MULTINOMIAL[name]))


@pytest.mark.xfail(strict=True, reason="categories of probability 0 tie at q = 0: torch's "
                   "partial sort orders them its own way, doctensor's topk by index")
def test_multinomial_zero_probability_ties():
    same_outcome(seeded(lambda T: T.multinomial(T.tensor([0.0, 1.0, 0.0, 0.0, 1.0, 0.0]), 6)))


# -- samplers: generator consumption and the scalar cache --------------------------------------

SAMPLERS = {
    "exponential then rand": lambda T: [T.empty(20).exponential_(3.0), T.rand(3)],
    "exponential float16": lambda T: T.empty(9, dtype=T.float16).exponential_(),
    "exponential inf": lambda T: [T.empty(3).exponential_(float("inf")), T.rand(1)],
    "cauchy float64": lambda T: [T.empty(20, dtype=T.float64).cauchy_(1, 2), T.rand(1)],
    "cauchy float16": lambda T: T.empty(50, dtype=T.float16).cauchy_(-2.0, 7.1),
    "geometric ints": lambda T: [T.empty(20, dtype=d).geometric_(0.1)
                                 for d in (T.int32, T.int64, T.float32, T.float16)],
    "geometric small p wraps uint8": lambda T: T.empty(40, dtype=T.uint8).geometric_(0.01),
    "geometric tiny p": lambda T: T.empty(40, dtype=T.float64).geometric_(1e-10),
    "log_normal shares the normal cache": lambda T: [
        T.randn(1), T.empty(3).log_normal_(), T.randn(1), T.empty(2).log_normal_(0.5, 0.1)],
    "log_normal float64": lambda T: T.empty(21, dtype=T.float64).log_normal_(-1.0, 0.5),
    "keywords": lambda T: [T.empty(2).exponential_(lambd=2.0),
                           T.empty(2).cauchy_(median=1, sigma=2),
                           T.empty(2).log_normal_(mean=1, std=2),
                           T.empty(2).geometric_(p=0.5)],
    "generators": lambda T: [T.empty(4).exponential_(generator=T.Generator().manual_seed(1)),
                             T.empty(4).cauchy_(generator=T.Generator().manual_seed(1)),
                             T.rand(1)],
    "bfloat16 through float": lambda T: [
        T.empty(300, dtype=T.bfloat16).exponential_(), T.empty(300, dtype=T.bfloat16).cauchy_(),
        T.empty(300, dtype=T.bfloat16).log_normal_(), T.randn(5, dtype=T.bfloat16)],
    "exponential empty int": lambda T: T.empty(0, dtype=T.int64).exponential_(),
    "state after exponential": lambda T: [T.empty(5, dtype=T.float64).exponential_(),
                                          T.get_rng_state()[:24]],
}


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_samplers(name):
    same_outcome(seeded(SAMPLERS[name]))


POISSON_BINOMIAL = {
    "poisson small and large rates": lambda T: [
        T.poisson(T.tensor([0.0, 0.5, 3.0, 9.99, 10.0, 25.0, 1000.0, 1e6])), T.rand(2)],
    "poisson float64 random rates": lambda T: T.poisson(T.rand(300, dtype=T.float64) * 40),
    "poisson transposed": lambda T: T.poisson(T.tensor([[1.0, 20.0], [30.0, 4.0]]).t()),
    "poisson grad": lambda T: _zero_grad(T, T.poisson),
    "poisson generator": lambda T: T.poisson(T.ones(5) * 12,
                                             generator=T.Generator().manual_seed(5)),
    "poisson negative": lambda T: T.poisson(T.tensor([1.0, -1.0])),
    "poisson nan": lambda T: T.poisson(T.tensor([float("nan")])),
    "poisson integer": lambda T: T.poisson(T.tensor([1, 2])),
    "binomial float32": lambda T: [
        T.binomial(c, T.full_like(c, p)) for c in [T.tensor([0., 1, 5, 10, 20, 50, 100, 1000])]
        for p in (0.01, 0.2, 0.5, 0.7, 0.95, 0.999, 1.0, 0.0)],
    "binomial float64 random": lambda T: T.binomial(
        (T.rand(300, dtype=T.float64) * 200).floor(), T.rand(300, dtype=T.float64)),
    "binomial broadcast prob": lambda T: T.binomial(T.tensor([5.0, 3.0]), T.tensor([0.5])),
    "binomial grad_fn": lambda T: T.binomial(T.tensor([5.0, 10.0], requires_grad=True),
                                             T.tensor([0.5, 0.2])),
    "binomial backward": lambda T: T.binomial(T.tensor([5.0], requires_grad=True),
                                              T.tensor([0.5])).sum().backward(),
    "binomial dtypes differ": lambda T: T.binomial(T.tensor([5.0]),
                                                   T.tensor([0.5], dtype=T.float64)),
    "binomial integer": lambda T: T.binomial(T.tensor([5]), T.tensor([1])),
    "binomial half": lambda T: T.binomial(T.tensor([5.0]).half(), T.tensor([0.5]).half()),
}


def _zero_grad(T, fn):
    x = T.tensor([1.0, 20.0], requires_grad=True)
    y = fn(x)
    y.sum().backward()
    return y, x.grad


@pytest.mark.parametrize("name", sorted(POISSON_BINOMIAL))
def test_poisson_binomial(name):
    same_outcome(seeded(POISSON_BINOMIAL[name]))


# -- constants, dtype info, predicates ------------------------------------------------------

def test_constants():
    for name in ("e", "pi", "inf", "nan", "newaxis"):
        ours, theirs = getattr(doctensor, name), getattr(torch, name)
        assert ours is theirs or ours == theirs or (math.isnan(ours) and math.isnan(theirs))
    assert repr(doctensor.legacy_contiguous_format) == repr(torch.legacy_contiguous_format)
    assert repr(doctensor.strided) == repr(torch.strided) == "torch.strided"
    assert isinstance(doctensor.strided, doctensor.layout)
    assert doctensor.ones(2).layout is doctensor.strided


INFO_DTYPES = ["float16", "bfloat16", "float32", "float64", "complex64", "uint8", "int8",
               "int16", "int32", "int64", "bool"]


@pytest.mark.parametrize("name", INFO_DTYPES)
def test_finfo_iinfo(name):
    def run(kind):
        def fn(T):
            info = getattr(T, kind)(getattr(T, name))
            return [repr(info), {k: getattr(info, k) for k in
                                 ("bits", "min", "max", "dtype") + (
                                     ("eps", "tiny", "smallest_normal", "resolution")
                                     if kind == "finfo" else ())}]
        return fn
    same_outcome(run("finfo"), rtol=0, atol=0)
    same_outcome(run("iinfo"), rtol=0, atol=0)


def test_finfo_default_and_equality():
    same_outcome(lambda T: [repr(T.finfo()), T.finfo(T.float32) == T.finfo(T.float32),
                            T.finfo(T.float32) == T.finfo(T.float64)])


PREDICATES = {
    "is_floating_point": lambda T: [T.is_floating_point(T.ones(1)),
                                    T.is_floating_point(T.ones(1, dtype=T.int64))],
    "is_floating_point of a number": lambda T: T.is_floating_point(3),
    "is_signed": lambda T: [T.is_signed(T.ones(1, dtype=d)) for d in
                            (T.uint8, T.int8, T.float32, T.bool)] + [T.ones(1).is_signed()],
    "is_signed of a number": lambda T: T.is_signed(3),
    "is_nonzero": lambda T: [T.is_nonzero(T.tensor([0.0])), T.is_nonzero(T.tensor(3)),
                             T.is_nonzero(T.tensor([[2.0]])), T.tensor([1]).is_nonzero()],
    "is_nonzero empty": lambda T: T.is_nonzero(T.tensor([])),
    "is_nonzero several": lambda T: T.is_nonzero(T.tensor([1, 2])),
    "is_same_size": lambda T: [T.is_same_size(T.ones(2, 3), T.zeros(2, 3)),
                               T.ones(2).is_same_size(T.ones(3))],
    "is_inference": lambda T: [T.is_inference(T.ones(1)), _inference_tensor(T).is_inference()],
    "get_device": lambda T: [T.get_device(T.ones(1)), T.ones(1).get_device()],
    "is_storage": lambda T: [T.is_storage(T.ones(2).untyped_storage()),
                             T.is_storage(T.ones(2))],
    "typename": lambda T: [T.typename(T.ones(1)), T.typename(T.ones(1, dtype=T.int64)),
                           T.typename(3), T.typename(T.ones(1, dtype=T.float16))],
    "scalar_tensor": lambda T: [T.scalar_tensor(3), T.scalar_tensor(3, dtype=T.int64),
                                T.scalar_tensor(True), T.scalar_tensor(1.5, dtype=T.float64),
                                T.scalar_tensor(2.0, requires_grad=True)],
}


def _inference_tensor(T):
    with T.inference_mode():
        return T.ones(1)


@pytest.mark.parametrize("name", sorted(PREDICATES))
def test_predicates(name):
    same_outcome(PREDICATES[name])


# -- small torch.* functions ---------------------------------------------------------------

FUNCTIONS = {
    "range": lambda T: [T.range(1, 4), T.range(0, 1, 0.25), T.range(1, 4, dtype=T.int64),
                        T.range(3, 0, -1), T.range(0, 0.3, 0.1, dtype=T.float64)],
    "range zero step": lambda T: T.range(0, 1, 0),
    "range wrong sign": lambda T: T.range(0, 1, -1),
    "fill": lambda T: [T.fill(T.ones(2), 3), T.fill_(T.ones(2), 3), T.zero_(T.ones(2))],
    "detach_": lambda T: _detach_in_place(T),
    "asarray list": lambda T: [T.asarray([1, 2]), T.asarray([1.0, 2.0]), T.asarray(3.5),
                               T.asarray([[1, 2]], dtype=T.float64)],
    "asarray shares a tensor": lambda T: _asarray_sharing(T),
    "asarray shares numpy": lambda T: _asarray_numpy(T),
    "asarray copy": lambda T: _asarray_copy(T),
    "frombuffer": lambda T: _frombuffer(T),
    "empty_permuted": lambda T: [T.empty_permuted((2, 3, 4), (0, 2, 1)).stride(),
                                 T.empty_permuted((2, 3, 4), (2, 1, 0)).stride(),
                                 T.empty_permuted((2, 3), (0, 1), dtype=T.int64).dtype],
    "num threads": lambda T: _threads(T),
    "num threads errors": lambda T: [raised(lambda: T.set_num_threads(0)),
                                     raised(lambda: T.set_num_threads(1.5))],
    "matmul precision": lambda T: _matmul_precision(T),
    "default device": lambda T: str(T.get_default_device()),
    "compiled_with_cxx11_abi": lambda T: T.compiled_with_cxx11_abi(),
    "set_anomaly_enabled": lambda T: _anomaly(T),
    "set_default_tensor_type": lambda T: _default_tensor_type(T),
}


def _detach_in_place(T):
    y = T.ones(2, requires_grad=True) * 2
    z = T.detach_(y)
    return z is y, y.requires_grad, y.grad_fn is None


def _asarray_sharing(T):
    t = T.ones(3)
    a = T.asarray(t)
    b = T.asarray(t, dtype=T.float64)
    return a is t, b.dtype, b.data_ptr() == t.data_ptr(), raised(
        lambda: T.asarray(t, dtype=T.float64, copy=False))


def _asarray_numpy(T):
    arr = np.arange(4.0)
    t = T.asarray(arr)
    arr[0] = 9
    return t, T.asarray(arr, requires_grad=True)


def _asarray_copy(T):
    t = T.ones(2)
    c = T.asarray(t, copy=True)
    c[0] = 5
    return t, c, c.data_ptr() != t.data_ptr()


def _frombuffer(T):
    buf = bytearray(np.arange(6, dtype=np.float32).tobytes())
    t = T.frombuffer(buf, dtype=T.float32)
    t[0] = 7
    return t, np.frombuffer(bytes(buf), np.float32).tolist(), \
        T.frombuffer(buf, dtype=T.int32, count=2, offset=4)


def _threads(T):
    n = T.get_num_threads()
    T.set_num_threads(1)
    one = T.get_num_threads()
    T.set_num_threads(n)
    return one, T.get_num_threads() == n


def _matmul_precision(T):
    first = T.get_float32_matmul_precision()
    T.set_float32_matmul_precision("high")
    high = T.get_float32_matmul_precision()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        T.set_float32_matmul_precision("bad")
    T.set_float32_matmul_precision("highest")
    return first, high, T.get_float32_matmul_precision(), [str(w.message) for w in caught]


def _anomaly(T):
    T.set_anomaly_enabled(True)
    on = T.is_anomaly_enabled(), T.is_anomaly_check_nan_enabled()
    T.set_anomaly_enabled(False)
    return on, T.is_anomaly_enabled()


def _default_tensor_type(T):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        T.set_default_tensor_type(T.DoubleTensor)
    try:
        made = T.tensor([1.5]).dtype, T.ones(1).dtype
    finally:
        T.set_default_dtype(T.float32)
    return made, [str(w.message) for w in caught]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_functions(name):
    same_outcome(FUNCTIONS[name])


def test_range_warns_as_torch():
    for T in (torch, doctensor):
        with pytest.warns(UserWarning, match="torch.range is deprecated"):
            T.range(0, 2)


# -- window functions ------------------------------------------------------------------------

WINDOWS = ["hann_window", "hamming_window", "bartlett_window", "blackman_window",
           "kaiser_window"]


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("length", [0, 1, 2, 5, 16, 101])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows(name, length, periodic):
    # float32 values share doctensor's cos (Note [float32 transcendentals]); kaiser's I0 is
    # computed in float64: a few float32 values are an ulp off torch's
    same_outcome(lambda T: [getattr(T, name)(length, periodic),
                            getattr(T, name)(length, periodic, dtype=T.float64),
                            getattr(T, name)(length, requires_grad=True)],
                 rtol=1e-6, atol=1e-7, reprs=False)


@pytest.mark.parametrize("name", WINDOWS)
def test_window_errors(name):
    same_outcome(lambda T: getattr(T, name)(3, dtype=T.int64))
    same_outcome(lambda T: getattr(T, name)(-1))


def test_window_arguments():
    same_outcome(lambda T: [T.hamming_window(8, False, 0.5, 0.3),
                            T.kaiser_window(8, True, 5.0), T.hann_window(4, periodic=False)],
                 rtol=1e-6, atol=1e-7)


# -- compile -------------------------------------------------------------------------------

def test_compile_is_a_no_op():
    def f(x):
        return x * 2
    assert doctensor.compile(f) is f
    assert doctensor.compile(mode="max-autotune")(f) is f
    module = doctensor.nn.Linear(2, 2)
    assert doctensor.compile(module, fullgraph=True, dynamic=False, backend="eager") is module

    @doctensor.compile
    def g(x):
        return x + 1
    assert g(1) == 2
    same_outcome(lambda T: T.compile(f, mode="default", options={"a": 1}))


# -- accelerator, cpu, version ---------------------------------------------------------------

ACCELERATOR = {
    "is_available": lambda T: T.accelerator.is_available(),
    "current_accelerator": lambda T: [T.accelerator.current_accelerator(),
                                      T.accelerator.current_accelerator(check_available=True)],
    "device_count": lambda T: T.accelerator.device_count(),
    "current_device_index": lambda T: T.accelerator.current_device_index(),
    "set_device_index": lambda T: T.accelerator.set_device_index(0),
    "synchronize": lambda T: T.accelerator.synchronize(),
    "memory_allocated": lambda T: T.accelerator.memory_allocated(),
    "empty_cache": lambda T: T.accelerator.empty_cache(),
    "device_index None": lambda T: T.accelerator.device_index(None).__enter__(),
    "device_index 0": lambda T: T.accelerator.device_index(0).__enter__(),
    "cpu": lambda T: [T.cpu.is_available(), T.cpu.device_count(), T.cpu.current_device(),
                      T.cpu.synchronize(), T.cpu.is_initialized()],
    "version": lambda T: [T.version.cuda, T.version.hip, T.version.debug],
    "pin_memory": lambda T: T.ones(2).pin_memory(),
    "is_pinned": lambda T: T.ones(2).is_pinned(),
}


@pytest.mark.parametrize("name", sorted(ACCELERATOR))
def test_accelerator_without_gpu(name, monkeypatch):
    # the emulated CUDA device is no accelerator: doctensor answers as torch on this machine
    monkeypatch.setenv("DOCTENSOR_CUDA", "emulate")
    same_outcome(ACCELERATOR[name])


# -- autocast and GradScaler -------------------------------------------------------------------

AUTOCAST = {
    "state": lambda T: _autocast_state(T),
    "cuda without a GPU": lambda T: _autocast_warning(T, "cuda"),
    "unsupported cpu dtype": lambda T: _autocast_warning(T, "cpu", dtype=T.float64),
    "device type not a string": lambda T: T.autocast(0),
    "availability": lambda T: [T.amp.is_autocast_available("cpu"),
                               T.amp.is_autocast_available("cuda")],
    "decorator": lambda T: T.autocast("cpu")(lambda: T.is_autocast_enabled("cpu"))(),
}


def _autocast_state(T):
    before = T.is_autocast_enabled("cpu"), T.is_autocast_enabled()
    with T.autocast("cpu"):
        inside = T.is_autocast_enabled("cpu"), T.get_autocast_dtype("cpu")
        with T.autocast("cpu", enabled=False):
            nested = T.is_autocast_enabled("cpu")
        with T.amp.autocast("cpu", dtype=T.float16):
            half = T.get_autocast_dtype("cpu")
        back = T.is_autocast_enabled("cpu"), T.get_autocast_dtype("cpu")
    return before, inside, nested, half, back, T.is_autocast_enabled("cpu")


def _autocast_warning(T, device, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with T.autocast(device, **kw):
            on = T.is_autocast_enabled(device)
    return on, [str(w.message) for w in caught]


@pytest.mark.parametrize("name", sorted(AUTOCAST))
def test_autocast(name, monkeypatch):
    monkeypatch.setenv("DOCTENSOR_CUDA", "emulate")
    same_outcome(AUTOCAST[name])


@pytest.mark.xfail(strict=True, reason="Note [autocast is recorded, not applied]: torch runs "
                   "matmul in bfloat16 inside a CPU autocast region, doctensor in float32")
def test_autocast_recasts_matmul():
    def run(T):
        with T.autocast("cpu"):
            return (T.ones(2, 3) @ T.ones(3, 2)).dtype
    same_outcome(run)


def _training(T, scaler, steps, poison=()):
    T.manual_seed(0)
    model = T.nn.Linear(3, 1)
    opt = T.optim.SGD(model.parameters(), lr=0.1)
    x = T.randn(4, 3)
    trace = []
    for i in range(steps):
        opt.zero_grad()
        loss = model(x).pow(2).mean()
        if i in poison:
            loss = loss * float("inf")
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        trace.append((scaler.get_scale(), model.weight.detach().clone()))
    return trace, scaler.state_dict()


GRAD_SCALER = {
    "cpu": lambda T: _training(T, T.amp.GradScaler("cpu"), 3),
    "cpu, a step with infs": lambda T: _training(T, T.amp.GradScaler("cpu"), 4, poison=(1,)),
    "cpu, growth": lambda T: _training(T, T.amp.GradScaler("cpu", growth_interval=2), 5),
    "disabled": lambda T: _training(T, T.amp.GradScaler("cpu", enabled=False), 2),
    "cuda without a GPU": lambda T: _cuda_scaler(T),
    "scale": lambda T: [T.amp.GradScaler("cpu").scale(T.tensor(2.0, requires_grad=True)),
                        T.amp.GradScaler("cpu").scale([T.tensor(1.0), T.tensor(3.0)]),
                        T.amp.GradScaler("cpu").get_scale()],
    "unscale twice": lambda T: _unscale_twice(T),
    "update with nothing recorded": lambda T: _update_first(T),
    "new scale": lambda T: _new_scale(T),
    "state dict round trip": lambda T: _load_state(T),
}


def _cuda_scaler(T):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scaler = T.amp.GradScaler()
    loss = T.tensor(2.0)
    return (scaler.is_enabled(), scaler.get_scale(), scaler.state_dict(),
            scaler.scale(loss) is loss, [str(w.message) for w in caught])


def _unscale_twice(T):
    p = T.nn.Parameter(T.ones(2))
    p.grad = T.ones(2)
    opt = T.optim.SGD([p], lr=0.1)
    scaler = T.amp.GradScaler("cpu")
    before = raised(lambda: scaler.unscale_(opt))
    scaler.scale(T.tensor(1.0))
    scaler.unscale_(opt)
    return before, p.grad, raised(lambda: scaler.unscale_(opt))


def _update_first(T):
    scaler = T.amp.GradScaler("cpu")
    scaler.scale(T.tensor(1.0))
    return raised(scaler.update)


def _new_scale(T):
    scaler = T.amp.GradScaler("cpu")
    scaler.scale(T.tensor(1.0))
    scaler.update(8.0)
    first = scaler.get_scale()
    scaler.update(T.tensor(4.0))
    return first, scaler.get_scale()


def _load_state(T):
    scaler = T.amp.GradScaler("cpu")
    scaler.load_state_dict({"scale": 32.0, "growth_factor": 3.0, "backoff_factor": 0.25,
                            "growth_interval": 7, "_growth_tracker": 2})
    return scaler.state_dict(), raised(lambda: scaler.load_state_dict({}))


@pytest.mark.parametrize("name", sorted(GRAD_SCALER))
def test_grad_scaler(name, monkeypatch):
    monkeypatch.setenv("DOCTENSOR_CUDA", "emulate")
    same_outcome(GRAD_SCALER[name])


# -- Tensor: properties and legacy methods ---------------------------------------------------

TENSOR = {
    "properties": lambda T: [(t.is_cpu, t.itemsize, t.nbytes, t.ndimension(), t.dense_dim())
                             for t in (T.ones(2, 3), T.ones(4, dtype=T.int16)[::2],
                                       T.tensor(1.0, dtype=T.float64))],
    "to_dense, const_data_ptr": lambda T: [T.ones(2).to_dense(), _same_ptr(T)],
    "new": lambda T: [T.ones(2).new([1, 2]), T.ones(2).new(2, 3).shape, T.ones(2).new().shape,
                      T.ones(2, dtype=T.int64).new(T.Size([2])).dtype],
    "new with another dtype": lambda T: T.ones(2).new(T.ones(2, dtype=T.int64)),
    "apply_": lambda T: _apply(T),
    "apply_ requires grad": lambda T: T.ones(2, requires_grad=True).apply_(lambda v: v),
    "apply_ int": lambda T: T.ones(2, dtype=T.int64).apply_(lambda v: v * 2.5),
    "map_": lambda T: _map(T),
    "map_ dtypes": lambda T: T.ones(2).map_(T.ones(2, dtype=T.int64), lambda a, b: a),
    "map2_": lambda T: T.ones(2, 3).map2_(T.ones(2, 3), T.ones(3) * 2,
                                          lambda a, b, c: a + b * c),
    "is_set_to, set_": lambda T: _set(T),
    "set_ errors": lambda T: [raised(lambda: T.ones(2).set_(T.ones(3, dtype=T.int64))),
                              raised(lambda: T.ones(2, requires_grad=True).set_(T.zeros(3)))],
    "as_subclass": lambda T: _subclass(T),
    "share_memory_": lambda T: _shared(T),
}


def _same_ptr(T):
    t = T.ones(3)
    return t.const_data_ptr() == t.data_ptr()


def _apply(T):
    t = T.arange(6.0).reshape(2, 3)
    out = t.apply_(lambda v: v * v + 1)
    return out is t, t, t._version


def _map(T):
    t = T.arange(6.0).reshape(2, 3)
    t.map_(T.tensor([1.0, 2.0, 3.0]), lambda a, b: a * b)
    return t, t._version


def _set(T):
    t = T.arange(6.0).reshape(2, 3)
    s = T.empty(0)
    s.set_(t)
    s[0, 0] = 9
    empty = T.ones(2).set_()
    return (s, t, s.is_set_to(t), t.is_set_to(t.view(6)), s._version, t._version,
            empty, s.untyped_storage() is t.untyped_storage())


def _shared(T):
    t = T.ones(4)
    before = t.is_shared(), t.storage().is_shared()
    out = t.share_memory_()
    return (before, out is t, t.is_shared(), t[1:].is_shared(), t.storage().is_shared(),
            t.clone().is_shared())


def _subclass(T):
    class Sub(T.Tensor):
        pass
    x = T.ones(2, requires_grad=True)
    m = x.as_subclass(Sub)
    (m * 2).sum().backward()
    plain = T.ones(2)
    alias = plain.as_subclass(Sub)
    plain.add_(1)
    return (type(m).__name__, type(m.grad_fn).__name__, m.is_leaf, x.grad, alias._version,
            alias.data_ptr() == plain.data_ptr())


@pytest.mark.parametrize("name", sorted(TENSOR))
def test_tensor_methods(name):
    same_outcome(TENSOR[name], reprs=False)


# -- legacy spellings and keyword aliases --------------------------------------------------

def _x(T):
    return T.arange(6.0).reshape(2, 3)


LEGACY = {
    "size= keyword": lambda T: [T.zeros(size=(2, 3)), T.ones(size=[2]), T.empty(size=(2,)).shape,
                                seeded(lambda T: T.randn(size=(2, 3)))(T),
                                seeded(lambda T: T.rand(size=(4,)))(T)],
    "axis and keepdims": lambda T: [
        _x(T).sum(axis=0), T.sum(_x(T), axis=1), _x(T).sum(0, keepdims=True),
        _x(T).mean(axis=0, keepdims=True), _x(T).max(axis=0), T.max(_x(T), axis=1),
        _x(T).argmax(axis=1), _x(T).std(axis=0), _x(T).var(axis=1, keepdims=True),
        _x(T).prod(axis=1), _x(T).amax(axis=0), _x(T).logsumexp(axis=1),
        _x(T).cumsum(axis=1), T.cat([_x(T), _x(T)], axis=1), T.stack([_x(T)], axis=2),
        _x(T).softmax(axis=0), T.softmax(_x(T), axis=1), _x(T).unsqueeze(axis=0),
        _x(T)[None].squeeze(axis=0), _x(T).all(axis=0), _x(T).count_nonzero(axis=0),
        _x(T).median(axis=1), _x(T).select(axis=0, index=1)],
    "out= writes and returns out": lambda T: _out_cases(T),
    "out= resized": lambda T: _out_resized(T),
    "out= casts up": lambda T: (lambda o: (T.add(_x(T), 1, out=o), o.dtype))(
        T.empty(2, 3, dtype=T.float64)),
    "out= cannot cast down": lambda T: T.add(_x(T), 1, out=T.empty(2, 3, dtype=T.int64)),
    "out= and requires_grad": lambda T: T.mul(_x(T).requires_grad_(), 2, out=T.empty(2, 3)),
    "out= requires_grad out": lambda T: T.sum(_x(T), 0, out=T.empty(3, requires_grad=True)),
    "out= under no_grad": lambda T: _out_no_grad(T),
    "type with legacy classes": lambda T: [
        T.ones(2, dtype=T.int64).type(T.FloatTensor), _x(T).type(T.DoubleTensor),
        _x(T).type("torch.LongTensor"), _x(T).type(), T.ones(1, dtype=T.uint8).type()],
    "legacy constructors": lambda T: [T.LongTensor([1, 2]), T.FloatTensor(2, 3).shape,
                                      T.DoubleTensor([[1.5]]),
                                      isinstance(_x(T), T.FloatTensor),
                                      isinstance(_x(T), T.LongTensor)],
    "Variable": lambda T: _variable(T),
    "Variable of a list": lambda T: T.autograd.Variable([1.0, 2.0]),
    "Variable volatile": lambda T: _volatile(T),
}


def _out_cases(T):
    x = _x(T)
    outs = [T.empty(2, 3), T.empty(2, 3), T.empty(2, 2), T.empty(4, 3), T.empty(3), T.empty(2),
            T.empty(2, 3), T.empty(2, 3)]
    results = [T.add(x, 1, alpha=2, out=outs[0]), T.mul(x, x, out=outs[1]),
               T.matmul(x, x.t(), out=outs[2]), T.cat([x, x], out=outs[3]),
               T.sum(x, 0, out=outs[4]), T.mean(x, 1, out=outs[5]), T.exp(x, out=outs[6]),
               T.clamp(x, 1, 3, out=outs[7])]
    return [(r is o, o, o._version) for r, o in zip(results, outs)]


def _out_resized(T):
    o = T.empty(5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = T.add(_x(T), 1, out=o)
        T.sum(_x(T), 0, out=T.empty(0))
    return r is o, o, o._version, [str(w.message) for w in caught]


def _out_no_grad(T):
    o = T.empty(2, 3)
    with T.no_grad():
        T.add(_x(T).requires_grad_(), 1, out=o)
    return o, o.requires_grad


def _volatile(T):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        v = T.autograd.Variable(T.ones(2), volatile=True)
    return v, [str(w.message) for w in caught]


def _variable(T):
    t = T.ones(2)
    v = T.autograd.Variable(t, requires_grad=True)
    w = T.autograd.Variable(t)
    t.add_(1)
    return (v, v is t, v.is_leaf, t.requires_grad, w._version, w,
            isinstance(t, T.autograd.Variable), isinstance(3, T.autograd.Variable),
            T.autograd.Variable(T.ones(2, requires_grad=True) * 2))


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_legacy_spellings(name):
    same_outcome(LEGACY[name])


# -- the deprecated typed storage --------------------------------------------------------------

def _typed_storage(T):
    x = T.arange(6.0).reshape(2, 3)
    s = x.storage()
    row = x[1].storage()
    s[0] = 10
    return (type(s).__name__, len(s), s.size(), str(s.dtype), str(s.device), s.element_size(),
            s.nbytes(), s.data_ptr() == x.data_ptr(), s[1], s.tolist(), x,
            row.data_ptr() == s.data_ptr(), len(row), s.type(), s.is_shared(),
            T.is_storage(s), isinstance(s, T.TypedStorage), repr(T.tensor([1, 2]).storage()),
            str(T.tensor([], dtype=T.float64).storage()), s.untyped() is x.untyped_storage(),
            isinstance(x.untyped_storage(), T.UntypedStorage))


def test_typed_storage():
    same_outcome(_typed_storage)


def test_typed_storage_warns_once():
    for T in (torch, doctensor):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            T.ones(1).storage()
            T.ones(1).storage()
        assert len([w for w in caught if "TypedStorage is deprecated" in str(w.message)]) <= 1


def _per_device_amp(T):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scaler = T.cuda.amp.GradScaler()
        with T.cuda.amp.autocast():
            cuda_on = T.is_autocast_enabled("cuda")
        with T.cpu.amp.autocast():
            cpu_state = T.is_autocast_enabled("cpu"), T.get_autocast_dtype("cpu")
        cpu_scaler = T.cpu.amp.GradScaler()
    return (scaler.is_enabled(), cuda_on, cpu_state, cpu_scaler.is_enabled(),
            cpu_scaler.get_scale(), [(w.category.__name__, str(w.message)) for w in caught])


def test_per_device_amp_spellings(monkeypatch):
    monkeypatch.setenv("DOCTENSOR_CUDA", "emulate")
    same_outcome(_per_device_amp)


def test_set_on_a_leaf_that_requires_grad():
    """``set_`` is refused on such a leaf only while grad mode is on (torch's check)."""
    def fn(T):
        w = T.ones(3, requires_grad=True)
        with T.no_grad():
            w.set_(T.zeros(2))
        seen = (w.detach().clone(), w._version, w.requires_grad)
        w.set_(T.zeros(4))
        return seen
    same_outcome(fn)
