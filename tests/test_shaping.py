"""Differential tests of the shaping functions beyond the op table (``op_rows_shaping.py``):
memory sharing (which results are views of their input), in-place versions, warnings,
functions that make new tensors from numbers (``tril_indices``) and ``unravel_index``."""

import warnings

import numpy as np
import pytest
from _oracle import doctensor, same_outcome, torch

from doctensor._tensor_base import WARNED_ONCE


def _sharing(out, base):
    """What a user sees of ``out``'s memory: a view of ``base`` (and of which tensor), the
    same first element, the same storage."""
    return (out._is_view(), out._base is base, out._base is None,
            out.data_ptr() == base.data_ptr(),
            out.untyped_storage().data_ptr() == base.untyped_storage().data_ptr())


@pytest.mark.parametrize("name,fn", [
    ("ravel", lambda T, x: x.ravel()),
    ("ravel_of_transpose", lambda T, x: x.t().ravel()),
    ("broadcast_to", lambda T, x: x.broadcast_to((2, 3, 4))),
    ("unflatten", lambda T, x: T.unflatten(x, 1, (2, 2))),
    ("unfold", lambda T, x: x.unfold(1, 2, 1)),
    ("atleast_3d", lambda T, x: T.atleast_3d(x)),
    ("atleast_2d_same", lambda T, x: T.atleast_2d(x)),
    ("tensor_split", lambda T, x: x.tensor_split(3, dim=1)[1]),
    ("hsplit", lambda T, x: T.hsplit(x, [1])[1]),
    ("split_with_sizes", lambda T, x: x.split_with_sizes([3, 1], 1)[0]),
    ("repeat_interleave", lambda T, x: x.repeat_interleave(2)),
    ("repeat_interleave_zero", lambda T, x: x.repeat_interleave(1, dim=0)),
    ("fliplr", lambda T, x: x.fliplr()),
    ("rot90", lambda T, x: x.rot90()),
    ("take_along_dim", lambda T, x: x.take_along_dim(T.tensor([[0], [1], [2]]), 1)),
    ("hstack", lambda T, x: T.hstack([x, x])),
    ("narrow_copy", lambda T, x: x.narrow_copy(1, 0, 2)),
    ("diagflat", lambda T, x: x.diagflat()),
    ("cartesian_prod_one", lambda T, x: T.cartesian_prod(x[0])),
])
def test_views_and_copies_share_as_torchs(name, fn):
    def scenario(T):
        x = T.arange(12.0).reshape(3, 4)
        out = fn(T, x)
        base = out._base
        return _sharing(out, x), None if base is None else (tuple(base.shape), base.stride()), \
            out is x
    same_outcome(scenario)


def test_results_that_are_their_input():
    """atleast_*d and cartesian_prod of one vector give the tensor itself."""
    def scenario(T):
        x, v = T.ones(2, 3, 4), T.ones(3)
        return (T.atleast_1d(v) is v, T.atleast_3d(x) is x, T.cartesian_prod(v) is v,
                T.atleast_1d(v, x)[1] is x)
    same_outcome(scenario)


def _inplace(T, name):
    x = T.zeros(3, 4)
    src = T.ones(3, 4)
    index = T.tensor([[0, 1], [1, 1], [2, 3]])
    calls = {
        "put_": lambda: x.put_(T.tensor([0, 5]), T.tensor([1.0, 2.0]), accumulate=True),
        "index_put_": lambda: x.index_put_((T.tensor([0, 0]),), T.ones(4), accumulate=True),
        "masked_scatter_": lambda: x.masked_scatter_(src > 0, T.arange(12.0)),
        "scatter_reduce_": lambda: x.scatter_reduce_(1, index, src[:, :2], "amax"),
        "index_reduce_": lambda: x.index_reduce_(0, T.tensor([0, 0]), src[:2], "mean"),
        "fill_diagonal_": lambda: x.fill_diagonal_(5.0),
        "as_strided_": lambda: x.as_strided_((2, 2), (1, 4), 1),
    }
    out = calls[name]()
    return out is x, x._version, x, x.shape, x.stride(), x.storage_offset()


@pytest.mark.parametrize("name", ["put_", "index_put_", "masked_scatter_", "scatter_reduce_",
                                  "index_reduce_", "fill_diagonal_", "as_strided_"])
def test_in_place_forms_return_self_and_bump_the_version(name):
    same_outcome(lambda T: _inplace(T, name))


@pytest.mark.parametrize("shape,wrap", [((3, 4), False), ((7, 3), True), ((7, 3), False),
                                        ((3, 7), True), ((3, 3, 3), False), ((2, 3, 2), False),
                                        ((4,), False)])
def test_fill_diagonal_(shape, wrap):
    """The diagonal of an as_strided view filled (CopySlices on a tensor with history)."""
    def scenario(T):
        leaf = T.zeros(shape, requires_grad=True)
        x = leaf * 1
        x.fill_diagonal_(2.5, wrap=wrap)
        x.backward(T.ones(shape))
        return x, x._version, leaf.grad
    same_outcome(scenario)


def test_fill_diagonal_of_a_leaf_that_requires_grad():
    same_outcome(lambda T: T.zeros(2, 2, requires_grad=True).fill_diagonal_(1.0))


@pytest.mark.parametrize("indices,shape", [
    ([4, 5, 0], (3, 2)), ([[1], [7]], (2, 4)), (5, (2, 3)), ([1, 5], 4), ([3], ()),
    ([0, 23], (2, 3, 4)), ([1, 2], (4, 0, 3)),
])
def test_unravel_index(indices, shape):
    def scenario(T):
        out = T.unravel_index(T.tensor(indices), shape)
        return out, [(o._is_view(), o.stride()) for o in out]
    same_outcome(scenario)


@pytest.mark.parametrize("indices,shape", [
    ([1.0], (2,)), ([1], (2, -1)), ([1], "ab"), ([1], (2.0,)), ([True], (2,)), ([1], 3.0),
])
def test_unravel_index_errors(indices, shape):
    same_outcome(lambda T: T.unravel_index(T.tensor(indices), shape))


def test_unravel_index_int32():
    same_outcome(lambda T: T.unravel_index(T.tensor([1, 5], dtype=T.int32), (2, 3)))


@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("args", [(3, 4), (3, 4, 1), (4, 3, -1), (3, 3, 5), (3, 3, -5), (1, 1),
                                  (5, 2, 2)])
def test_tri_indices(name, args):
    same_outcome(lambda T: getattr(T, name)(*args))


@pytest.mark.parametrize("name", ["tril_indices", "triu_indices"])
def test_tri_indices_dtypes_and_errors(name):
    def scenario(T):
        f = getattr(T, name)
        out = [f(3, 3, dtype=T.int32), f(0, 0).shape, f(2, 0).shape]
        for bad in ((-1, 3), (3, -1)):
            try:
                f(*bad)
            except RuntimeError as e:
                out.append(str(e))
        try:
            f(3, 3, dtype=T.float64)
        except NotImplementedError as e:
            out.append(str(e))
        return out
    same_outcome(scenario)


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid_indexing(indexing):
    """Grids are expanded views, in both indexings; their gradients sum back."""
    def scenario(T):
        a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = T.tensor([4.0, 5.0], requires_grad=True)
        c = T.tensor([6.0, 7.0, 8.0, 9.0], requires_grad=True)
        grids = T.meshgrid(a, b, c, indexing=indexing)
        sum(g * (i + 1) for i, g in enumerate(grids)).sum().backward()
        return grids, [g._is_view() for g in grids], a.grad, b.grad, c.grad
    same_outcome(scenario)


def test_index_reduce_warns_once_in_beta():
    """torch warns once per process that index_reduce is in beta."""
    WARNED_ONCE.discard(
        "index_reduce() is in beta and the API may change at any time. (Triggered internally "
        "at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:1523.)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = doctensor.zeros(2, 2)
        x.index_reduce(0, doctensor.tensor([0]), doctensor.ones(1, 2), "prod")
        x.index_reduce(0, doctensor.tensor([0]), doctensor.ones(1, 2), "prod")
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and "index_reduce() is in beta" in messages[0]
    assert caught[0].filename == __file__


def test_index_put_with_accumulate_adds_repeats():
    def scenario(T):
        x = T.zeros(5, dtype=T.float64)
        i = T.tensor([0, 0, 4, 0])
        return (x.index_put((i,), T.tensor([1.0, 2.0, 3.0, 4.0], dtype=T.float64),
                            accumulate=True), T.index_put_(x, [i], T.tensor(1.0, dtype=T.float64),
                                                           True), x._version)
    same_outcome(scenario)


def test_resize_as_():
    def scenario(T):
        x = T.arange(6.0)
        y = T.resize_as_(x, T.zeros(2, 2))
        return y is x, x, x._version
    same_outcome(scenario)


def test_repeat_interleave_counts_like_numpy_repeat():
    """A larger example against NumPy as well: the same layout of repeats."""
    repeats = np.array([3, 0, 2, 1])

    def scenario(T):
        x = T.arange(8.0).reshape(4, 2)
        return x.repeat_interleave(T.tensor(repeats), dim=0)
    ours, _ = same_outcome(scenario)
    np.testing.assert_array_equal(ours.numpy(), np.repeat(np.arange(8.0).reshape(4, 2),
                                                          repeats, axis=0))


def test_put_on_a_view_writes_through():
    """``put_`` on a non-contiguous view writes its base's storage, in the view's order."""
    def scenario(T):
        base = T.zeros(3, 4)
        view = base.t()
        view.put_(T.tensor([1, 4]), T.tensor([7.0, 8.0]))
        return base, view._version, base._version
    same_outcome(scenario)


def test_torch_is_the_oracle():
    assert torch.__version__.startswith("2.13")


@pytest.mark.parametrize("make", [
    lambda T, x: x.resize(2, 6), lambda T, x: x.t().resize(12), lambda T, x: x.resize_as(
        T.zeros(6, 2)), lambda T, x: x.detach().resize(4, 3), lambda T, x: x.resize(5)])
def test_resize_out_of_place(make):
    """The deprecated Tensor.resize / resize_as: a view through a custom Function
    (ResizeBackward), with torch's warning."""
    def scenario(T):
        x = T.arange(12.0).reshape(3, 4).requires_grad_()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = make(T, x)
        y.backward(T.arange(12.0).reshape(y.shape)) if y.requires_grad else None
        return (y, _sharing(y, x), y._base is None or y._base.shape, x.grad,
                [str(w.message) for w in caught])
    same_outcome(scenario)


@pytest.mark.parametrize("call", [
    lambda T, x: x.index_put(T.tensor([0]), T.tensor(1.0)),
    lambda T, x: T.index_put_(x, T.tensor([0]), T.tensor(1.0)),
    lambda T, x: T.index_put(x, (T.tensor([0]),), 1.0),
    lambda T, x: x.index_put_((T.tensor([0]),), 1.0),
    lambda T, x: x.index_put([[0]], T.tensor(1.0)),
])
def test_index_put_argument_errors(call):
    """torch's argument parser: the positions differ between the method and the function."""
    def scenario(T):
        x = T.zeros(3, 4)
        try:
            call(T, x)
        except TypeError as e:
            return str(e), x._version
    same_outcome(scenario)


def test_take_saves_self_and_put_saves_source():
    """What their nodes keep (torch's derivatives.yaml): an in-place edit of ``self`` after
    ``take`` (or of ``source`` after ``put``) makes backward refuse."""
    def scenario(T):
        x = T.ones(3, 4, requires_grad=True)
        a = x * 2
        y = a.take(T.tensor([0, 5]))
        a.mul_(3)
        s = T.ones(2, requires_grad=True) * 1
        z = T.zeros(3, 4).put(T.tensor([1, 2]), s)
        s.add_(1)
        names = sorted(n for n in dir(y.grad_fn) if n.startswith("_saved")), \
            sorted(n for n in dir(z.grad_fn) if n.startswith("_saved"))
        errors = []
        for out in (y, z):
            try:
                out.sum().backward()
            except RuntimeError as e:
                errors.append(str(e))
        return names, errors
    same_outcome(scenario)


@pytest.mark.parametrize("call", [
    lambda T: T.tensor(2.0).narrow_copy(0, 0, 1),
    lambda T: T.ones(3).narrow_copy(0, 0, -1),
    lambda T: T.ones(3).narrow(0, 0, -1),
    lambda T: T.ones(3).narrow_copy(0, -4, 1),
], ids=["0-d", "negative_length", "narrow_negative_length", "start_out_of_range"])
def test_narrow_copy_checks_as_narrow(call):
    """narrow_copy shares narrow's checks; a negative length is an overrun for it."""
    same_outcome(call)
