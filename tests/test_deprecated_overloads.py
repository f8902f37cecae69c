"""The deprecated overloads torch 2.13 still takes (deprecated.yaml: the numbers first, as old
code wrote ``p.data.add_(-lr, grad)``), compared with torch: the same results, the same
errors when something else is wrong, and the one warning per process (Note [deprecated
overloads])."""

import subprocess
import sys
import textwrap

import pytest
from _oracle import same_outcome


def _m(T, *shape):
    return T.arange(1., 1 + T.zeros(shape).numel()).reshape(shape) / 7


CALLS = {
    "add_": lambda T: _m(T, 3).add_(-0.5, _m(T, 3)),
    "add": lambda T: _m(T, 3).add(2, _m(T, 3)),
    "sub_": lambda T: _m(T, 3).sub_(0.25, _m(T, 3)),
    "sub": lambda T: _m(T, 3).sub(3, _m(T, 3)),
    "torch_add": lambda T: T.add(_m(T, 3), -0.5, _m(T, 3)),
    "torch_sub": lambda T: T.sub(_m(T, 3), 2, _m(T, 3)),
    "torch_add_out": lambda T: (lambda o: (T.add(_m(T, 3), 2, _m(T, 3), out=o), o))(T.empty(3)),
    "addcmul_": lambda T: _m(T, 3).addcmul_(0.5, _m(T, 3), _m(T, 3)),
    "addcmul": lambda T: _m(T, 3).addcmul(0.5, _m(T, 3), _m(T, 3)),
    "addcdiv_": lambda T: _m(T, 3).addcdiv_(0.5, _m(T, 3), _m(T, 3)),
    "torch_addcmul": lambda T: T.addcmul(_m(T, 3), 0.5, _m(T, 3), _m(T, 3)),
    "torch_addcdiv": lambda T: T.addcdiv(_m(T, 3), 2, _m(T, 3), _m(T, 3)),
    "addmm_beta_alpha": lambda T: _m(T, 2, 2).addmm_(0.5, 2, _m(T, 2, 3), _m(T, 3, 2)),
    "addmm_beta": lambda T: _m(T, 2, 2).addmm(0.5, _m(T, 2, 3), _m(T, 3, 2)),
    "torch_addmm": lambda T: T.addmm(0.5, _m(T, 2, 2), 2, _m(T, 2, 3), _m(T, 3, 2)),
    "torch_addmm_beta": lambda T: T.addmm(0.5, _m(T, 2, 2), _m(T, 2, 3), _m(T, 3, 2)),
    "addmv_": lambda T: _m(T, 2).addmv_(0.5, 2, _m(T, 2, 3), _m(T, 3)),
    "torch_addmv": lambda T: T.addmv(0.5, _m(T, 2), _m(T, 2, 3), _m(T, 3)),
    "addr_": lambda T: _m(T, 2, 3).addr_(0.5, 2, _m(T, 2), _m(T, 3)),
    "torch_addr": lambda T: T.addr(0.5, _m(T, 2, 3), 2, _m(T, 2), _m(T, 3)),
    "baddbmm_": lambda T: _m(T, 2, 2, 2).baddbmm_(0.5, _m(T, 2, 2, 3), _m(T, 2, 3, 2)),
    "torch_baddbmm": lambda T: T.baddbmm(0.5, _m(T, 2, 2, 2), 2, _m(T, 2, 2, 3),
                                         _m(T, 2, 3, 2)),
    "addbmm_": lambda T: _m(T, 2, 2).addbmm_(0.5, 2, _m(T, 2, 2, 3), _m(T, 2, 3, 2)),
    "torch_addbmm": lambda T: T.addbmm(0.5, _m(T, 2, 2), _m(T, 2, 2, 3), _m(T, 2, 3, 2)),
    # with autograd: the same graph as the current overload's
    "grad": lambda T: (lambda w: (w.mul(1).add(-0.5, w * w).sum().backward(), w.grad))(
        T.ones(3, requires_grad=True)),
    # what else is wrong is still torch's error
    "leaf_in_place": lambda T: T.ones(3, requires_grad=True).add_(-0.5, _m(T, 3)),
    "shapes": lambda T: _m(T, 3).addcmul_(0.5, _m(T, 4), _m(T, 4)),
    "no_overload": lambda T: _m(T, 3).add_("a", _m(T, 3)),
    "two_numbers": lambda T: _m(T, 3).add_(1, 2),
}


@pytest.mark.parametrize("name", CALLS)
def test_deprecated_overload(name):
    same_outcome(CALLS[name])


_WARNINGS = """
    import warnings
    import {lib} as T
    warnings.simplefilter("always")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = T.ones(3)
        x.addcmul_(0.5, x, x)  # line 8: the user's line
        T.add(x, 2, x)  # no second warning: one per process, for all the overloads
        x.scatter_(0, T.tensor([0]), T.ones(1), reduce="add")  # its own warning, once too
        x.scatter(0, T.tensor([0]), T.ones(1), reduce="multiply")
    for w in caught:
        print(w.category.__name__, w.lineno, w.message)
"""


def test_one_warning_per_process():
    def run(lib):
        return subprocess.run([sys.executable, "-c", textwrap.dedent(_WARNINGS.format(lib=lib))],
                              capture_output=True, text=True, check=True).stdout
    theirs = run("torch")
    assert theirs.startswith("UserWarning 8 This overload of addcmul_ is deprecated")
    assert theirs.count("UserWarning") == 2 and "UserWarning 10 The reduce argument" in theirs
    assert run("doctensor") == theirs


def test_uint8_masks_warn_at_every_use():
    """A uint8 tensor indexes as a mask (the bool of old code), with torch's warning at each
    use, pointing at the user's line."""
    def uses(T):
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x, m = T.tensor([1., 2., 3.]), T.tensor([1, 0, 1], dtype=T.uint8)
            picked = x[m], T.ones(2, 3)[:, m]
            x[m] = T.tensor([7., 8.])
            x.index_put_((m,), T.tensor([5., 6.]), accumulate=True)
        return picked, x, [(w.category.__name__, str(w.message), w.lineno) for w in caught]
    ours, theirs = same_outcome(uses)
    assert len(theirs[2]) == 4


SCATTER_REDUCE = {
    "add_tensor": lambda T: T.ones(3).scatter(0, T.tensor([0, 0]), T.tensor([2., 3.]),
                                              reduce="add"),
    "multiply_in_place": lambda T: T.ones(3).scatter_(0, T.tensor([0, 2]), T.tensor([2., 3.]),
                                                      reduce="multiply"),
    "add_value": lambda T: T.ones(3).scatter(0, T.tensor([0, 0]), 2.0, reduce="add"),
    "multiply_value_2d": lambda T: T.full((2, 3), 2.).scatter_(
        1, T.tensor([[0, 0], [1, 1]]), 2.5, reduce="multiply"),
    "integers": lambda T: T.arange(4).scatter(0, T.tensor([0, 0]), T.tensor([5, 6]),
                                              reduce="add"),
    "along_dim_0": lambda T: T.ones(2, 3).scatter(0, T.tensor([[1, 0, 1], [1, 1, 0]]),
                                                  T.arange(1., 7.).reshape(2, 3),
                                                  reduce="multiply"),
    "function": lambda T: T.scatter(T.ones(3), 0, T.tensor([1]), T.tensor([4.]), reduce="add"),
    "no_derivative": lambda T: (lambda y: (y.grad_fn.name(), y.sum().backward()))(
        T.ones(3, requires_grad=True).scatter(0, T.tensor([0]), 2.0, reduce="add")),
    "bad_reduce_before_bounds": lambda T: T.ones(3).scatter_(0, T.tensor([5]), T.ones(1),
                                                             reduce="bad"),
    "bad_index_dtype_first": lambda T: T.ones(3).scatter_(0, T.tensor([0.]), T.ones(1),
                                                          reduce="bad"),
    "bounds": lambda T: T.ones(3).scatter_(0, T.tensor([5]), T.ones(1), reduce="add"),
}


@pytest.mark.parametrize("name", SCATTER_REDUCE)
def test_scatter_with_reduce(name):
    """scatter's reduce argument (torch's older form of scatter_reduce: its node is
    NotImplemented, and a tensor src warns once)."""
    same_outcome(SCATTER_REDUCE[name])
