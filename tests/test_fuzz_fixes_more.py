"""Differential tests of the program fuzzer's (test_fuzz_programs.py) later finds, compared
with torch 2.13: as_strided's backward over any input layout, gradient versions after
CopySlices and scans, empty and 0-d edge cases (softmax, roll, flatten, repeat_interleave)
and the storage offset of an empty view's aliases."""

import pytest
import test_fuzz_programs
from _oracle import same_outcome

# -- as_strided's backward: torch's storage-based formula ---------------------------------------

INPUTS = {
    "contiguous": lambda x: x,
    "transposed": lambda x: x.t(),
    "row": lambda x: x[3],
    "column": lambda x: x[:, 1],
    "expanded": lambda x: x.expand(2, 4, 4),
    "stepped": lambda x: x[::2, 1:],
}

GEOMETRIES = [((2, 2), (1, 2), 1), ((2, 2), (2, 1), 2), ((2, 1), (0, 0), 2), ((3,), (1,), 0),
              ((3, 3), (1, 1), 0), ((2,), (3,), 0), ((0, 2), (1, 2), 1), ((2, 2), (0, 1), 3),
              ((1, 2), (5, 1), None)]


def _strided_grads(T, make_input, geometry):
    """as_strided's gradient, first and second order, with its layout and version."""
    x = T.arange(1., 17.).reshape(4, 4).requires_grad_()
    xx = make_input(x)
    y = xx.as_strided(*geometry)
    (g,) = T.autograd.grad((y * y).sum(), xx, create_graph=True)
    g2 = T.autograd.grad(g.sum(), x)[0] if g.requires_grad else None  # (a 0-size view's: no)
    (h,) = T.autograd.grad((y * y).sum(), xx)
    return (g, g.storage_offset(), g._version, g2, h, h.stride(), h.storage_offset(),
            h._version)


@pytest.mark.parametrize("geometry", GEOMETRIES)
@pytest.mark.parametrize("name", INPUTS)
def test_as_strided_backward(name, geometry):
    same_outcome(lambda T: _strided_grads(T, INPUTS[name], geometry))


def test_as_strided_in_place_backward():
    def scenario(T):
        x = T.arange(1., 7.).requires_grad_()
        y = x.t()[1:].clone()
        v = y.as_strided_((2, 2), (1, 1), 1)
        (g,) = T.autograd.grad((v * v).sum(), x)
        return type(v.grad_fn).__name__, g, g.stride(), g._version
    same_outcome(scenario)


def test_as_strided_leaf_grad():
    """A leaf's .grad from as_strided over its transpose (fuzzer seed 1713)."""
    def scenario(T):
        x = T.arange(1., 7.).reshape(2, 3).requires_grad_()
        x.t().as_strided((2, 2), (2, 1), 1).var().backward()
        return x.grad, x.grad.stride()
    same_outcome(scenario)


# -- gradient versions ----------------------------------------------------------------------------

@pytest.mark.parametrize("edit", [
    lambda v: v.clamp_(-1, 1),
    lambda v: v.zero_(),
    lambda v: v.mul_(2),
    lambda v: v.sigmoid_(),
])
def test_copy_slices_gradient_version(edit):
    """CopySlices copies the gradient into a new tensor, then its region into that: 2."""
    def scenario(T):
        x = T.arange(1., 7.).reshape(2, 3).requires_grad_()
        y = x * 1
        v = y[1:]
        edit(v)
        (g,) = T.autograd.grad(y.sum(), x)
        (h,) = T.autograd.grad(y.sum(), x, create_graph=True)
        return g, g._version, h._version
    same_outcome(scenario)


@pytest.mark.parametrize("create_graph", [False, True])
def test_copy_slices_gradient_layout(create_graph):
    """CopySlices lays the base's gradient out as the base (here transposed)."""
    def scenario(T):
        x = T.arange(1., 7.).reshape(2, 3).requires_grad_()
        b = (x.t() * 1).t().contiguous()
        b[1:].mul_(2)
        (g,) = T.autograd.grad(b.sum(), x, create_graph=create_graph)
        return g, g.stride(), g._version
    same_outcome(scenario)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape, dim", [((3, 1), 1), ((3, 1), -1), ((1,), 0), ((), 0),
                                        ((2, 3), 1), ((0, 1), 1)])
def test_scan_backward_identity(op, shape, dim):
    """Along a dim of size 1 (or one element) torch's scans pass the gradient itself on."""
    def scenario(T):
        x = T.zeros(shape, requires_grad=True)
        g = T.ones(shape).add_(1)
        (r,) = T.autograd.grad(getattr(x, op)(dim), x, g)
        return r, r._version, r is g
    same_outcome(scenario)


# -- empty and 0-d edge cases ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
@pytest.mark.parametrize("shape", [(0, 3), (2, 0), (0,)])
def test_softmax_of_empty_integers(shape, dtype):
    """An empty integer tensor: an empty result of its dtype (a non-empty one: torch's
    'not implemented')."""
    def scenario(T):
        x = T.zeros(shape, dtype=getattr(T, dtype))
        return [x.softmax(0), x.log_softmax(-1), T.softmax(x, 0), x.softmax(0, dtype=T.float64)]
    same_outcome(scenario)
    same_outcome(lambda T: T.zeros(2, dtype=getattr(T, dtype)).softmax(0))


@pytest.mark.parametrize("args", [(1,), (0,), (1, 0), (1, -1), (1, 2), ((1,), (0,)),
                                  ((1, 2), (0, 1)), ((1, 2), 0)])
def test_roll_of_0d(args):
    same_outcome(lambda T: T.tensor(3.).roll(*args))


@pytest.mark.parametrize("expr", [
    lambda T: T.zeros(0, 3, 2).flatten(1, 2),
    lambda T: T.zeros(2, 0, 3).flatten(),
    lambda T: T.zeros(2, 0, 2).flatten(0, 1),
    lambda T: T.zeros(0, 3).repeat_interleave(2, 1),
    lambda T: T.zeros(2, 0).repeat_interleave(3, 0),
    lambda T: T.zeros(0, 3).repeat_interleave(2),
])
def test_flatten_of_empty(expr):
    same_outcome(lambda T: (lambda r: (r, r._is_view()))(expr(T)))


@pytest.mark.parametrize("alias", [lambda v: v.data, lambda v: v.detach()])
def test_alias_of_empty_view_past_its_storage(alias):
    def scenario(T):
        v = T.zeros(3).as_strided((0, 1), (1, 0), 7)
        a = alias(v)
        return a, a.storage_offset(), v.storage_offset()
    same_outcome(scenario)


# -- the fuzzer's programs ------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [20702, 28457, 1713, 15032, 15256, 18706, 6748, 9206, 16148,
                                  20736, 24180, 2022, 3524])
def test_fuzzer_program(seed):
    verdict, listing, why, _ = test_fuzz_programs.run_program(seed)
    assert verdict != "behaviour", why + "\n" + "\n".join(listing)
