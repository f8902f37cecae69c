"""The speed paths of issue 8 keep torch's semantics (no timings here: see ``benchmarks/``).

* Note [fast path] (ops/_dispatch.py): ``a + b`` & co. skip ``run``'s promotion, broadcast and
  layout work in the common case; results, dtypes, strides and history stay torch's.
* Note [floating-point errors]: inf and nan come silently (no NumPy RuntimeWarning, even under
  ``-W error``), and the user's own NumPy error state is left as it was.
* relu's backward (``where(c, x, 0)``) as bits times the mask: NaN, inf and -0. as torch.
* Note [stealing gradients]: gradients that backward made are kept as ``.grad`` without a copy
  (nn.Linear's weight, through torch-shaped mm backward), never a tensor the user holds.
"""

import warnings

import numpy as np
import pytest
import torch
from _oracle import same_outcome

import doctensor


def _same(d, t):
    assert d.dtype.name == str(t.dtype).split(".")[-1]
    assert tuple(d.shape) == tuple(t.shape)
    assert d.stride() == t.stride()
    np.testing.assert_array_equal(np.ascontiguousarray(d.detach().numpy()).view(np.uint8),
                                  np.ascontiguousarray(t.detach().numpy()).view(np.uint8))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv", "radd", "rmul", "rsub"])
@pytest.mark.parametrize("other", ["tensor", 3, 2.5, True, "int_tensor", "row", "f64"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "int64", "bool"])
def test_binary_operators_match_torch(op, other, dtype):
    base = np.array([[1.5, -2.0, 0.0], [4.0, 1e30, -0.0]])

    def build(lib):
        a = lib.tensor(base, dtype=getattr(lib, dtype)) if dtype != "bool" else \
            lib.tensor(base > 0)
        if other == "tensor":
            b = lib.tensor(base[::-1].copy()).to(a.dtype)
        elif other == "int_tensor":
            b = lib.tensor([[1, 2, 3], [4, 5, 6]])
        elif other == "row":
            b = lib.tensor([0.5, 2.0, -1.0], dtype=a.dtype)
        elif other == "f64":
            b = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=lib.float64)
        else:
            b = other
        return a, b

    def apply(lib, a, b):
        try:
            return getattr(a, f"__{op}__")(b)
        except Exception as e:  # noqa: BLE001 - the refusal is part of the semantics
            return type(e).__name__, str(e)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        args = build(doctensor)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NumPy RuntimeWarning (overflow of 1e30 * ...)
        got = apply(doctensor, *args)
    want = apply(torch, *build(torch))
    if isinstance(want, tuple):
        assert got == want
    elif got is not NotImplemented and want is not NotImplemented:
        _same(got, want)


def test_transposed_and_zero_dim_operands():
    for lib in (doctensor, torch):
        x = lib.arange(6.0).reshape(2, 3)
        lib.r = (x.t() + x.t(), x.t() * 2.0, lib.tensor(2.0) * lib.tensor(3.0), x[0] - x[1])
    for d, t in zip(doctensor.r, torch.r, strict=True):
        _same(d, t)


def test_history_through_the_fast_path():
    for lib in (doctensor, torch):
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = lib.tensor([4.0, 5.0, 6.0], requires_grad=True)
        out = (a * b + a - 2.0) / b
        lib.r = out.grad_fn.name(), out.grad_fn.next_functions[0][0].name()
        out.sum().backward()
        lib.g = a.grad, b.grad
        with lib.no_grad():
            lib.n = (a * b).requires_grad
    assert doctensor.r == torch.r and doctensor.n == torch.n
    for d, t in zip(doctensor.g, torch.g, strict=True):
        _same(d, t)


def test_saved_operand_modified_in_place_is_caught():
    a = doctensor.tensor([1.0, 2.0], requires_grad=True)
    b = doctensor.tensor([3.0, 4.0])
    c = a * b
    b.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_inf_and_nan_come_silently_and_numpy_state_is_kept():
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = doctensor.tensor([3e38, 0.0, -1.0], dtype=doctensor.float32)
        (x * x, x - x * x * 10, x / 0, x.log(), doctensor.nn.functional.log_softmax(x * 10, 0))
        x.mul_(1e10)
    assert np.geterr() == before
    with pytest.warns(RuntimeWarning):  # the user's own NumPy still warns
        np.array([3e38], np.float32) * np.float32(10)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_relu_backward_bits(dtype):
    values = [np.nan, -0.0, np.inf, -np.inf, -3.0, 0.0, 2.0, -0.0]
    inputs = [1.0, 2.0, -1.0, -2.0, 0.0, 3.0, np.nan, -5.0]  # relu(nan) passes the gradient
    for lib in (doctensor, torch):
        x = lib.tensor(inputs, dtype=getattr(lib, dtype), requires_grad=True)
        lib.relu(x).backward(lib.tensor(values, dtype=getattr(lib, dtype)))
        lib.r = x.grad, lib.where(lib.tensor(inputs) > 0, lib.tensor(values), 0)
    for d, t in zip(doctensor.r, torch.r, strict=True):
        _same(d, t)


def test_linear_gradients_are_kept_without_a_copy():
    doctensor.manual_seed(0)
    layer = doctensor.nn.Linear(4, 3)
    x = doctensor.randn(5, 4)
    layer(x).sum().backward()
    w, b = layer.weight.grad, layer.bias.grad
    assert w.is_contiguous() and w.stride() == layer.weight.stride()
    # the stolen gradients are accumulated in place by the next backward
    ptrs = w.data_ptr(), b.data_ptr()
    layer(x).sum().backward()
    assert (layer.weight.grad.data_ptr(), layer.bias.grad.data_ptr()) == ptrs
    torch.manual_seed(0)
    t_layer = torch.nn.Linear(4, 3)
    tx = torch.tensor(x.numpy())
    t_layer(tx).sum().backward()
    t_layer(tx).sum().backward()
    np.testing.assert_allclose(layer.weight.grad.numpy(), t_layer.weight.grad.numpy(),
                               rtol=1e-6)
    assert layer(x).grad_fn._saved_mat2_sym_strides == t_layer(tx).grad_fn._saved_mat2_sym_strides


def test_a_users_gradient_is_never_kept():
    for make in (lambda: doctensor.ones(4, 3).t(), lambda: doctensor.ones(3, 4),
                 lambda: doctensor.zeros(2, 3, 4)[1]):
        x = doctensor.zeros(3, 4, requires_grad=True)
        g = make()
        x.backward(g)
        assert x.grad.data_ptr() != g.data_ptr()
        x.backward(g)
        assert g.sum().item() == 12 * g.flatten()[0].item()  # the user's tensor untouched


@pytest.mark.parametrize("leaf", ["vector", "matrix", "one_element", "scalar", "column_odd_stride",
                                  "transposed", "float64", "parameter"])
@pytest.mark.parametrize("mode", ["backward", "create_graph", "twice"])
def test_expanded_gradients_are_copied_into_the_leafs_layout(leaf, mode):
    """A gradient that is no fresh dense tensor (sum's expanded 1) is copied into a new .grad
    with the leaf's strides, at version 1 (torch's clone_obey_contract); a 0-d leaf keeps
    sum's view of the 1 that backward made, at version 0 (Note [stealing gradients])."""
    def scenario(T):
        x = {"vector": lambda: T.arange(4.0),
             "matrix": lambda: T.ones(2, 3),
             "one_element": lambda: T.tensor([2.5]),
             "scalar": lambda: T.tensor(2.5),
             "column_odd_stride": lambda: T.empty_strided((3, 1), (1, 7)).fill_(1.5),
             "transposed": lambda: T.ones(3, 2).t(),
             "float64": lambda: T.ones(2, 2, dtype=T.float64),
             "parameter": lambda: T.nn.Parameter(T.ones(2, 3))}[leaf]()
        x.requires_grad_()
        (x.sum() * 2 if mode == "create_graph" else x.sum()).backward(
            create_graph=mode == "create_graph")
        if mode == "twice":
            x.sum().backward()
        g = x.grad
        return g.detach(), g.stride(), g._version, g.requires_grad, g.grad_fn, type(g).__name__

    same_outcome(scenario, rtol=0, atol=0)


def test_zero_dim_where_and_relu_give_real_tensors():
    for lib in (doctensor, torch):
        r = lib.where(lib.tensor(True), lib.tensor(2.0), 0)
        r.add_(1)
        x = lib.tensor(-1.0, requires_grad=True)
        lib.relu(x).backward()
        lib.r = r.view(1), x.grad.view(1), lib.tensor(3.0) * lib.tensor(2.0) + 1.0
    for d, t in zip(doctensor.r, torch.r, strict=True):
        _same(d, t)


def test_floating_point_errors_are_ignored_in_every_thread():
    """Note [floating-point errors]: each thread has its own quiet context."""
    import threading
    errors = []

    def work():
        try:
            x = doctensor.full((10_000,), 3e38)
            for _ in range(50):
                assert np.isinf((x * x + x).numpy()).all()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []


def test_storage_offset_follows_in_place_changes():
    """A view knows its offset from when it was made (reading an address costs ~1 us); the
    known offset belongs to the array it was read from, so t_, .data = and resize_ move it."""
    def scenario(T):
        b = T.arange(10.0)
        x, z, w, v = b[2:], b[4:], b[1:], b[2:5]
        seen = [t.storage_offset() for t in (x, z, w, v)]
        seen.append(x.as_strided((2,), (1,), 5).storage_offset())
        z.t_()
        w.data = b[6:]
        v.resize_(20)
        seen += [t.storage_offset() for t in (x, z, w, v)] + [w, v.shape]
        return seen
    same_outcome(scenario)


# -- Note [in-place fast path] ---------------------------------------------------------------

_INPLACE = {"add_": lambda a, b: a.add_(b), "sub_": lambda a, b: a.sub_(b),
            "mul_": lambda a, b: a.mul_(b), "div_": lambda a, b: a.div_(b),
            "iadd": lambda a, b: a.__iadd__(b), "isub": lambda a, b: a.__isub__(b),
            "imul": lambda a, b: a.__imul__(b), "itruediv": lambda a, b: a.__itruediv__(b),
            "subtract_": lambda a, b: a.subtract_(b), "multiply_": lambda a, b: a.multiply_(b),
            "divide_": lambda a, b: a.divide_(b), "true_divide_": lambda a, b: a.true_divide_(b)}


@pytest.mark.parametrize("op", sorted(_INPLACE))
@pytest.mark.parametrize("case", ["number", "int", "tensor", "itself", "view_of_itself",
                                  "shifted_view", "expanded_self", "transposed_other",
                                  "leaf_in_grad_mode", "leaf_in_no_grad", "other_requires_grad",
                                  "inference", "float16", "overflow", "int_self"])
def test_in_place_binary_ops_match_torch(op, case):
    """What an in-place op writes, its version bumps, and what it refuses, on the fast path's
    cases and the ones it hands to ``apply_``."""
    fn = _INPLACE[op]

    def scenario(T):
        base = T.tensor([[1.5, -2.0, 0.25], [4.0, 3e38, -0.5]])
        x, other = base.clone(), 3.0
        if case == "int":
            other = 2
        elif case == "tensor":
            other = base.flip(0).clone()
        elif case == "itself":
            other = x
        elif case == "view_of_itself":
            other = x.view(3, 2).view(2, 3)
        elif case == "shifted_view":
            flat = x.view(-1)
            x, other = flat[1:], flat[:-1]
        elif case == "expanded_self":
            x = T.tensor([1.0, 2.0]).expand(3, 2)
        elif case == "transposed_other":
            x, other = T.ones(3, 3), T.arange(9.0).view(3, 3).t()
        elif case in ("leaf_in_grad_mode", "leaf_in_no_grad"):
            x.requires_grad_()
        elif case == "other_requires_grad":
            other = base.flip(0).clone().requires_grad_()
        elif case == "inference":
            with T.inference_mode():
                x = base.clone()
        elif case == "float16":
            x = x.half()
        elif case == "overflow":
            other = 3e38
        elif case == "int_self":
            x = T.tensor([[1, 2, 3], [4, 5, 6]])
        version = x._version if case != "inference" else None
        if case == "leaf_in_no_grad":
            with T.no_grad():
                out = fn(x, other)
        else:
            out = fn(x, other)
        return out is x, x, None if version is None else x._version - version

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no NumPy RuntimeWarning on overflow)
        same_outcome(scenario, rtol=0, atol=0)


@pytest.mark.parametrize("other", ["a", None, [1.0, 2.0, 3.0], True, "np_float"])
@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/="])
def test_in_place_operators_with_other_operands_match_torch(op, other):
    """An in-place operator gives Python NotImplemented for what is neither a tensor nor a
    number (Python then words the TypeError); a NumPy number is a number, as in torch.  (torch
    hands a NumPy array on to NumPy, which computes in float64: doctensor does not yet.)"""
    def scenario(T):
        x = T.ones(3)
        y = np.float64(2.5) if other == "np_float" else other
        namespace = {"x": x, "y": y}
        exec(f"x {op} y", namespace)  # noqa: S102 (the statement under test)
        return namespace["x"], x._version

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_outcome(scenario, rtol=0, atol=0)
