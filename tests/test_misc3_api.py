"""misc3 against torch 2.13: fractional max pooling's own draws and its module, ``nn.Buffer``,
``set_default_device`` / ``get_default_device``, ``affine_grid``'s warnings.

Each case is ``fn(T)`` run under torch and doctensor (``_oracle.same_outcome``): values,
dtypes, shapes, strides, or the exception's type and message word for word.  The op table
(tests/op_rows_fractional.py) holds the ops' rows with explicit ``_random_samples``.
"""

import copy
import warnings

import numpy as np
import pytest
import torch
from _oracle import same_outcome

import doctensor


def values(T, shape, dtype="float32", seed=0):
    """A tensor of ``shape`` with distinct values (no ties), in ``dtype``."""
    rng = np.random.default_rng(seed)
    return T.tensor(rng.permutation(int(np.prod(shape))).reshape(shape) / 7.0,
                    dtype=getattr(T, dtype))


# -- fractional max pooling: torch's own draws ----------------------------------------------

def drawn(dims, shape, dtype, seed, **kw):
    """The pool with ``_random_samples`` drawn by torch's default generator after
    ``manual_seed(seed)`` (and the draws after it, so the stream is compared too)."""
    kernel = kw.pop("kernel", 2)

    def fn(T):
        x = values(T, shape, dtype)
        T.manual_seed(seed)
        pool = getattr(T.nn.functional, f"fractional_max_pool{dims}d")
        out = pool(x, kernel, return_indices=True, **kw)
        return out, T.rand(3, dtype=getattr(T, dtype))
    return fn


DRAWS = {
    "2d float32": drawn(2, (2, 3, 9, 11), "float32", 0, output_size=(4, 5)),
    "2d float64 ratio": drawn(2, (3, 2, 10, 13), "float64", 1, output_ratio=(0.5, 0.6)),
    "2d unbatched": drawn(2, (3, 8, 9), "float32", 2, output_size=3),
    "2d float16 steps": drawn(2, (1, 2, 60, 71), "float16", 3, output_size=(23, 29)),
    "2d bfloat16 steps": drawn(2, (1, 2, 60, 71), "bfloat16", 4, output_size=(23, 29)),
    "2d kernel (3, 2)": drawn(2, (2, 2, 12, 12), "float32", 5, kernel=(3, 2), output_size=5),
    "3d float32": drawn(3, (2, 2, 6, 7, 8), "float32", 6, output_size=(3, 4, 5)),
    "3d ratio scalar": drawn(3, (1, 2, 8, 8, 9), "float64", 7, output_ratio=0.5),
    "3d unbatched": drawn(3, (2, 5, 6, 7), "float32", 8, output_size=2),
    "3d bfloat16 steps": drawn(3, (1, 1, 40, 9, 50), "bfloat16", 9, kernel=(2, 1, 3),
                               output_size=(17, 4, 21)),
}


@pytest.mark.parametrize("name", DRAWS)
def test_fractional_max_pool_draws_as_torch(name):
    same_outcome(DRAWS[name], rtol=0.0, atol=0.0)


def nan_ties(T):
    """NaN wins (the last of several), ties go to the first, an all -inf window to its first
    element."""
    inf, nan = float("inf"), float("nan")
    x = T.tensor([[[[nan, 1.0, nan, 2.0, 2.0, 0.0, -inf, -inf, -inf]]]])
    samples = T.zeros(1, 1, 2)
    return [T.nn.functional.fractional_max_pool2d(x, (1, k), output_size=(1, n),
                                                  return_indices=True, _random_samples=samples)
            for k, n in ((3, 3), (2, 8), (3, 4))]


def empty_windows(T):
    """A kernel of 0 (or below) gives empty windows: -inf at each window's origin."""
    x = T.arange(56.0).view(1, 1, 7, 8)
    samples = T.full((1, 1, 2), 0.5)
    return [T.nn.functional.fractional_max_pool2d(x, k, output_size=3, return_indices=True,
                                                  _random_samples=samples) for k in (0, -1)]


F_CASES = {
    "nan and ties": nan_ties,
    "empty windows": empty_windows,
    "one window row": lambda T: T.nn.functional.fractional_max_pool2d(
        values(T, (1, 2, 5, 6)), 2, output_size=(1, 3), _random_samples=T.full((1, 2, 2), 0.3)),
    "zero output": lambda T: T.nn.functional.fractional_max_pool2d(
        values(T, (1, 2, 5, 6)), 2, output_size=(0, 2), return_indices=True,
        _random_samples=T.full((1, 2, 2), 0.3)),
    "more samples than batch": lambda T: T.nn.functional.fractional_max_pool3d(
        values(T, (1, 2, 5, 5, 5)), 2, output_size=3, _random_samples=T.rand(4, 2, 3)),
    "samples with grad, no grad mode": lambda T: _no_grad_pool(T),
    "neither size nor ratio": lambda T: T.nn.functional.fractional_max_pool2d(
        values(T, (1, 2, 5, 6)), 2),
    "3d neither size nor ratio": lambda T: T.nn.functional.fractional_max_pool3d(
        values(T, (1, 2, 5, 6, 5)), 2),
    "2d ratio scalar": lambda T: T.nn.functional.fractional_max_pool2d(
        values(T, (1, 2, 5, 6)), 2, output_ratio=0.5),
    "2d ratio of three": lambda T: T.nn.functional.fractional_max_pool2d(
        values(T, (1, 2, 5, 6)), 2, output_ratio=(0.5, 0.5, 0.5)),
    "2d ratio of one": lambda T: T.nn.functional.fractional_max_pool2d(
        values(T, (1, 2, 5, 6)), 2, output_ratio=[0.5]),
    "2d input without draws": lambda T: T.nn.functional.fractional_max_pool2d(
        values(T, (5, 6)), 2, output_size=2),
    "int input draws": lambda T: T.nn.functional.fractional_max_pool2d(
        T.ones(1, 4, 4, dtype=T.int64), 2, output_size=2),
    "with_indices ignores the flag": lambda T: T.nn.functional.fractional_max_pool2d_with_indices(
        values(T, (1, 2, 5, 6)), 2, output_size=2, _random_samples=T.full((1, 2, 2), 0.5)),
    "torch._C._nn form": lambda T: (T._C._nn if T is torch else T._nn).fractional_max_pool2d(
        values(T, (1, 2, 5, 6)), 2, (2, 3), T.full((1, 2, 2), 0.5)),
}


def _no_grad_pool(T):
    with T.no_grad():
        return T.nn.functional.fractional_max_pool3d(
            values(T, (1, 2, 5, 5, 5)), 2, output_size=3,
            _random_samples=T.full((1, 2, 3), 0.5, requires_grad=True))


@pytest.mark.parametrize("name", F_CASES)
def test_fractional_max_pool_functional(name):
    same_outcome(F_CASES[name], rtol=0.0, atol=0.0)


def module_case(cls, *args, x_shape=None, **kw):
    def fn(T):
        m = getattr(T.nn, cls)(*args, **kw)
        out = (repr(m), m.kernel_size, m.output_size, m.output_ratio, m.return_indices,
               list(m.state_dict()), list(dict(m.named_buffers())))
        if x_shape is not None:
            T.manual_seed(0)
            out += (m(values(T, x_shape)),)
        return out
    return fn


MODULES = {
    "2d ratio": module_case("FractionalMaxPool2d", 3, output_ratio=0.5, return_indices=True,
                            x_shape=(2, 3, 10, 9)),
    "2d size tuple": module_case("FractionalMaxPool2d", (2, 3), output_size=(3, 4),
                                 x_shape=(3, 7, 9)),
    "2d samples buffer": lambda T: module_case(
        "FractionalMaxPool2d", 2, output_size=3, x_shape=(1, 2, 6, 6),
        _random_samples=T.full((1, 2, 2), 0.25))(T),
    "3d ratio": module_case("FractionalMaxPool3d", 2, output_ratio=(0.5, 0.4, 0.6),
                            x_shape=(1, 2, 6, 7, 8)),
    "3d size": module_case("FractionalMaxPool3d", (1, 2, 2), output_size=2,
                           return_indices=True, x_shape=(2, 5, 6, 7)),
    "2d neither": module_case("FractionalMaxPool2d", 2),
    "3d neither": module_case("FractionalMaxPool3d", 2),
    "2d both": module_case("FractionalMaxPool2d", 2, output_size=3, output_ratio=0.5),
    "2d ratio out of range": module_case("FractionalMaxPool2d", 2, output_ratio=1.5),
    "3d ratio zero": module_case("FractionalMaxPool3d", 2, output_ratio=(0.5, 0, 0.5)),
    "3d kernel zero": module_case("FractionalMaxPool3d", 0, output_size=2),
    "3d kernel tuple zero": module_case("FractionalMaxPool3d", (2, 0, 1), output_size=2),
    "2d kernel zero accepted": module_case("FractionalMaxPool2d", 0, output_size=2),
}


@pytest.mark.parametrize("name", MODULES)
def test_fractional_max_pool_modules(name):
    same_outcome(MODULES[name], rtol=0.0, atol=0.0)


def test_fractional_max_pool_module_constants():
    for name in ("FractionalMaxPool2d", "FractionalMaxPool3d"):
        assert getattr(doctensor.nn, name).__constants__ == getattr(torch.nn, name).__constants__


# -- nn.Buffer ------------------------------------------------------------------------------

def buffer_basics(T):
    b = T.nn.Buffer(T.ones(2))
    p = T.ones(2, requires_grad=True)
    q = T.nn.Buffer(p * 2, persistent=False)
    return (type(b) is T.Tensor, isinstance(b, T.nn.Buffer), isinstance(T.ones(2), T.nn.Buffer),
            isinstance(T.nn.Parameter(T.ones(1)), T.nn.Buffer), b.persistent, repr(b),
            repr(T.nn.Buffer()), q.persistent, q.requires_grad, q.is_leaf, q.grad_fn,
            isinstance(b.detach(), T.nn.Buffer), isinstance(b + 1, T.nn.Buffer),
            issubclass(T.nn.Buffer, T.Tensor), T.nn.Buffer(p).data_ptr() == p.data_ptr())


def buffer_module(T):
    m = T.nn.Module()
    m.a = T.nn.Buffer(T.zeros(3))
    m.b = T.nn.Buffer(T.ones(1), persistent=False)
    seen = [list(m.state_dict()), list(dict(m.named_buffers())),
            sorted(m._non_persistent_buffers_set)]
    m.b = T.nn.Buffer(T.ones(1))  # persistent again
    seen.append(list(m.state_dict()))
    m.b = T.zeros(2)  # a plain tensor keeps the buffer's persistence
    m.a = T.nn.Buffer(T.zeros(3), persistent=False)
    m.a = T.zeros(1)
    seen += [list(m.state_dict()), m.b, m.a]
    m.register_buffer("q", None)
    m.q = T.nn.Buffer(T.ones(1), persistent=False)
    seen.append(list(m.state_dict()))
    del m.a
    seen += [list(dict(m.named_buffers())), sorted(m._non_persistent_buffers_set), repr(m)]
    return seen


def buffer_refusals(T):
    m = T.nn.Module()
    m.c = 5
    m.p = T.nn.Parameter(T.ones(1))
    m.sub = T.nn.Linear(1, 1)
    m.a = T.nn.Buffer(T.ones(1))
    out = []
    for name, value in (("c", T.nn.Buffer(T.ones(1))), ("p", T.nn.Buffer(T.ones(1))),
                        ("sub", T.nn.Buffer(T.ones(1))), ("a", 3),
                        ("a.b", T.nn.Buffer(T.ones(1))), ("", T.nn.Buffer(T.ones(1)))):
        try:
            setattr(m, name, value)
            out.append(None)
        except Exception as e:  # noqa: BLE001 - the error is the outcome compared
            out.append((type(e).__name__, str(e)))
    return out


class _Early:
    """A module class that assigns a buffer before Module.__init__."""

    def __init__(self, T):
        self.cls = type("M", (T.nn.Module,), {"__init__": lambda s: setattr(
            s, "x", T.nn.Buffer(T.ones(1)))})


BUFFERS = {
    "basics": buffer_basics,
    "module": buffer_module,
    "refusals": buffer_refusals,
    "before __init__": lambda T: _Early(T).cls(),
    "not a tensor": lambda T: T.nn.Buffer([1, 2]),
    "persistent is keyword-only": lambda T: T.nn.Buffer(T.ones(1), True),
    "deep copy of a module": lambda T: _copied(T),
}


def _copied(T):
    m = T.nn.Module()
    m.a = T.nn.Buffer(T.ones(2), persistent=False)
    m.b = T.nn.Buffer(T.zeros(1))
    c = copy.deepcopy(m)
    return list(c.state_dict()), list(dict(c.named_buffers())), c.a


@pytest.mark.parametrize("name", BUFFERS)
def test_buffer(name):
    same_outcome(BUFFERS[name])


# -- set_default_device / get_default_device ------------------------------------------------
# torch's oracle has no CUDA: its 'meta' device stands for doctensor's (emulated) 'cuda' where
# the question is only which factories follow the default.

FACTORIES = {
    "tensor": lambda T: T.tensor([1.0]),
    "as_tensor array": lambda T: T.as_tensor(np.ones(2)),
    "as_tensor tensor": lambda T: T.as_tensor(T.ones(2, device="cpu")),
    "asarray tensor": lambda T: T.asarray(T.ones(2, device="cpu")),
    "asarray list": lambda T: T.asarray([1, 2]),
    "zeros": lambda T: T.zeros(2),
    "ones": lambda T: T.ones(2, 3),
    "empty": lambda T: T.empty(2),
    "full": lambda T: T.full((2,), 1.0),
    "empty_strided": lambda T: T.empty_strided((2,), (1,)),
    "empty_permuted": lambda T: T.empty_permuted((2, 3), (1, 0)),
    "arange": lambda T: T.arange(3),
    "linspace": lambda T: T.linspace(0, 1, 3),
    "logspace": lambda T: T.logspace(0, 1, 3),
    "eye": lambda T: T.eye(2),
    "rand": lambda T: T.rand(2),
    "randn": lambda T: T.randn(2),
    "randint": lambda T: T.randint(3, (2,)),
    "randperm": lambda T: T.randperm(3),
    "scalar_tensor": lambda T: T.scalar_tensor(1),
    "tril_indices": lambda T: T.tril_indices(3, 3),
    "hann_window": lambda T: T.hann_window(4),
    "kaiser_window": lambda T: T.kaiser_window(4),
    "fftfreq": lambda T: T.fft.fftfreq(4),
    "Linear weight": lambda T: T.nn.Linear(2, 2).weight,
    "from_numpy": lambda T: T.from_numpy(np.ones(2)),
    "zeros_like": lambda T: T.zeros_like(T.ones(2, device="cpu")),
    "randn_like": lambda T: T.randn_like(T.ones(2, device="cpu")),
    "new_zeros": lambda T: T.ones(2, device="cpu").new_zeros(2),
    "legacy Tensor": lambda T: T.Tensor([1.0]),
    "legacy FloatTensor size": lambda T: T.FloatTensor(2, 3),
    "normal with size": lambda T: T.normal(0.0, 1.0, size=(2,)),
    "one_hot": lambda T: T.nn.functional.one_hot(T.arange(3, device="cpu")),
    "rng state": lambda T: T.get_rng_state(),
}


@pytest.mark.parametrize("name", FACTORIES)
def test_factories_follow_the_default_device(name):
    """Whether a factory's result is on the default device, as in torch."""
    on = {}
    for T, where in ((torch, "meta"), (doctensor, "cuda")):
        T.set_default_device(where)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                on[T] = FACTORIES[name](T).device.type == where
        finally:
            T.set_default_device(None)
    assert on[doctensor] == on[torch]


def device_blocks(T, where):
    """What ``with T.device(where)`` (nested with a CPU block) makes factories do."""
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with T.device(where) as entered:
            seen.append((entered == T.device(where), T.zeros(1).device.type == where))
            with T.device("cpu"):
                seen.append((str(T.get_default_device()), T.zeros(1).device.type))
            seen.append(T.rand(2).device.type == where)
    seen.append((str(T.get_default_device()), T.zeros(1).device.type))
    return seen


def test_device_as_a_context_manager():
    """``with torch.device(...)`` sets the factories' default inside the block, nests, and
    puts the previous default back on exit (torch's meta device standing for cuda)."""
    assert device_blocks(doctensor, "cuda") == device_blocks(torch, "meta")


def default_devices(T):
    seen = []
    for d in ("cpu", "cpu:0", T.device("cpu", 0), None):
        T.set_default_device(d)
        seen.append((str(T.get_default_device()), T.zeros(1).device.type))
    return seen


def bad_default_device(T):
    try:
        T.set_default_device("foo")
    finally:
        T.set_default_device(None)


def test_default_device():
    same_outcome(default_devices)
    same_outcome(bad_default_device)
    assert str(doctensor.get_default_device()) == "cpu"


def test_default_cuda_device():
    """doctensor's 'cuda' (a GPU, or the emulated device): factories make tensors there, and
    get_default_device names the index a tensor made there gets."""
    doctensor.set_default_device("cuda")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert repr(doctensor.get_default_device()) == "device(type='cuda', index=0)"
            x = doctensor.ones(2, requires_grad=True)
            assert str(x.device) == "cuda:0"
            (x * 2).sum().backward()
            assert str(x.grad.device) == "cuda:0"
            y = doctensor.zeros(3, device="cpu")
            y[0] = 5  # a Python number stays a CPU value
            assert y.tolist() == [5.0, 0.0, 0.0]
    finally:
        doctensor.set_default_device(None)


# -- affine_grid's warnings -----------------------------------------------------------------

def warned(fn):
    def run(T):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fn(T)
        return out, [(w.category.__name__, str(w.message), w.filename == __file__)
                     for w in caught]
    return run


AFFINE = {
    "align_corners unset": warned(lambda T: T.nn.functional.affine_grid(
        T.eye(2, 3).expand(2, 2, 3), (2, 1, 3, 4))),
    "unit size with align_corners": warned(lambda T: T.nn.functional.affine_grid(
        T.eye(3, 4)[None], (1, 1, 2, 1, 3), align_corners=True)),
    "no warning": warned(lambda T: T.nn.functional.affine_grid(
        T.eye(2, 3, dtype=T.float64)[None], (1, 1, 1, 3), align_corners=False)),
    "grad_fn attributes": lambda T: (lambda g: (g.grad_fn._saved_size,
                                                g.grad_fn._saved_align_corners))(
        T.nn.functional.affine_grid(T.eye(2, 3, requires_grad=True)[None], [1, 1, 2, 2],
                                    align_corners=True)),
    "gradient's graph": lambda T: _grid_double(T),
    "grid_sample align_corners unset": warned(lambda T: T.nn.functional.grid_sample(
        T.arange(6.0).view(1, 1, 2, 3), T.zeros(1, 1, 1, 2))),
}


def _grid_double(T):
    theta = T.eye(2, 3, dtype=T.float64)[None].requires_grad_()
    v = T.arange(12.0, dtype=T.float64).view(1, 2, 3, 2).requires_grad_()
    g, = T.autograd.grad(T.nn.functional.affine_grid(theta, (1, 1, 2, 3), False), theta, v,
                         create_graph=True)
    return g, type(g.grad_fn.next_functions[0][0]).__name__


@pytest.mark.parametrize("name", AFFINE)
def test_affine_grid(name):
    same_outcome(AFFINE[name])


# -- segment_reduce: ties, NaNs, zeros under prod, initial values ---------------------------

SEGMENT_DATA = [1.0, 2.0, 2.0, -4.0, 5.0, 6.0, 0.0, 3.0, float("nan"), 2.0]


def segment_case(reduce, initial, by):
    """The reduction and its gradient (max/min share among ties, prod around zeros)."""
    def fn(T):
        x = T.tensor(SEGMENT_DATA, dtype=T.float64, requires_grad=True)
        index = {"lengths": T.tensor([3, 0, 2, 1, 2, 2]),
                 "offsets": T.tensor([0, 3, 3, 5, 6, 8, 10])}[by]
        y = T.segment_reduce(x, reduce, initial=initial, **{by: index})
        g = T.linspace(-2.0, 3.0, y.numel(), dtype=T.float64)
        return y, T.autograd.grad(y, x, g)[0]
    return fn


SEGMENTS = {f"{reduce} initial={initial} {by}": segment_case(reduce, initial, by)
            for reduce in ("sum", "mean", "max", "min", "prod", "amax", "amin")
            for initial in (None, 2, -1.5) for by in ("lengths", "offsets")}


@pytest.mark.parametrize("name", SEGMENTS)
def test_segment_reduce(name):
    same_outcome(SEGMENTS[name], rtol=0.0, atol=0.0)


def to_python_types(T):
    x, y = T.ones(2), T.ones(2, dtype=T.float64)
    return [x.to(float), x.to(int), x.to(bool), x.to(complex), x.to(dtype=float),
            x.to("cpu", float), y.to(float) is y]


def test_to_takes_python_types():
    """``Tensor.to(float)`` and kin: Python types name dtypes, as in torch."""
    same_outcome(to_python_types)
