"""An in-place op on a leaf that requires grad (a common mistake in teaching code), or on a
view whose history may not be rebased, gets autograd's error before any of the op's own
checks, whatever else is wrong with the call: torch's autograd layer runs before its kernels.
Compared with torch 2.13."""

import pytest
from _oracle import same_outcome


def _leaf(T, *shape):
    return T.ones(*shape or (3,), requires_grad=True)


def _no_grad_int_view(T):
    x = T.arange(4)
    with T.no_grad():
        return x[:2]


def _int_chunk(T):
    return T.arange(4).chunk(2)[0]


WRONG_CALLS = {
    # pointwise ops: dtype, shape and argument errors of the kernel
    "lerp_dtype": lambda T: _leaf(T).lerp_(T.ones(3, dtype=T.float64), 0.5),
    "lerp_shape": lambda T: _leaf(T).lerp_(T.ones(4), 0.5),
    "addcmul_shape": lambda T: _leaf(T).addcmul_(T.ones(4), T.ones(4)),
    "mul_shape": lambda T: _leaf(T).mul_(T.ones(4)),
    "clamp_no_bounds": lambda T: _leaf(T).clamp_(),
    "lt_shape": lambda T: _leaf(T).lt_(T.ones(4)),
    "div_rounding_mode": lambda T: _leaf(T).div_(T.ones(3), rounding_mode="bad"),
    "divide_rounding_mode": lambda T: T.ones(3).divide_(2, rounding_mode="bad"),
    "div_floor": lambda T: T.tensor([5., -5.]).div_(2, rounding_mode="floor"),
    "div_trunc_int": lambda T: T.tensor([5, -5]).div_(T.tensor(2), rounding_mode="trunc"),
    "div_bad_mode_out_of_place": lambda T: T.div(T.ones(2), 2, rounding_mode="bad"),
    # fills and random fills
    "fill_1d_value": lambda T: _leaf(T).fill_(T.ones(2)),
    "uniform_bounds": lambda T: _leaf(T).uniform_(1, 0),
    "normal_std": lambda T: _leaf(T).normal_(0, -1),
    "random_bounds": lambda T: _leaf(T).random_(5, 1),
    "bernoulli_p": lambda T: _leaf(T).bernoulli_(2.0),
    "exponential_lambda": lambda T: _leaf(T).exponential_(-1.0),
    "geometric_p": lambda T: _leaf(T).geometric_(2.0),
    "log_normal_std": lambda T: _leaf(T).log_normal_(0, -1),
    # indexing
    "index_put_dtype": lambda T: _leaf(T).index_put_((T.tensor([0]),),
                                                     T.tensor(1., dtype=T.float64)),
    "index_put_float_index": lambda T: _leaf(T).index_put_((T.tensor([0.]),), T.tensor(1.)),
    "setitem_dtype": lambda T: _leaf(T).__setitem__(T.tensor([0]), T.tensor(1., dtype=T.float64)),
    "masked_scatter_mask": lambda T: _leaf(T).masked_scatter_(T.tensor([1, 0, 1]), T.ones(3)),
    "masked_fill_mask": lambda T: _leaf(T).masked_fill_(T.tensor([1, 0, 1]), 0.),
    "index_add_dtype": lambda T: _leaf(T).index_add_(0, T.tensor([0]), T.ones(1, dtype=T.float64)),
    "index_copy_dtype": lambda T: _leaf(T).index_copy_(0, T.tensor([0]),
                                                       T.ones(1, dtype=T.float64)),
    "index_fill_index": lambda T: _leaf(T).index_fill_(0, T.tensor([0.]), 1.),
    "scatter_dtype": lambda T: _leaf(T).scatter_(0, T.tensor([0]), T.ones(1, dtype=T.float64)),
    "put_dtype": lambda T: _leaf(T).put_(T.tensor([0]), T.ones(1, dtype=T.float64)),
    # products
    "baddbmm_sizes": lambda T: _leaf(T, 2, 2, 2).baddbmm_(T.ones(2, 2, 3), T.ones(2, 2, 3)),
    "addmm_sizes": lambda T: _leaf(T, 2, 2).addmm_(T.ones(2, 3), T.ones(2, 3)),
    "addmv_sizes": lambda T: _leaf(T, 2).addmv_(T.ones(2, 3), T.ones(2)),
    "addr_sizes": lambda T: _leaf(T, 2, 2).addr_(T.ones(3), T.ones(2)),
    "copy_shape": lambda T: _leaf(T).copy_(T.ones(4)),
    "t_of_3d": lambda T: _leaf(T, 2, 3, 4).t_(),
    "squeeze_dim": lambda T: _leaf(T).squeeze_(5),
    # integer views that may not be rebased: autograd's refusal before the dtype's
    "int_chunk_mul_": lambda T: _int_chunk(T).mul_(_leaf(T, 2)),
    "int_chunk_fill_": lambda T: _int_chunk(T).fill_(T.tensor(1., requires_grad=True)),
    "int_no_grad_view_mul_": lambda T: _no_grad_int_view(T).mul_(_leaf(T, 2)),
    "int_no_grad_view_clamp_": lambda T: _no_grad_int_view(T).clamp_(
        min=T.tensor(1., requires_grad=True)),
    "int_no_grad_view_scatter_": lambda T: _no_grad_int_view(T).scatter_(
        0, T.tensor([0]), _leaf(T, 2)),
    "int_no_grad_view_index_put_": lambda T: _no_grad_int_view(T).index_put_(
        (T.tensor([0]),), T.tensor(1., requires_grad=True)),
    "int_no_grad_view_lerp_": lambda T: T.ones(4, dtype=T.int64)[:2].lerp_(_leaf(T, 2), 0.5),
    # copy_ asks for the dtype first: an integer view takes the copy
    "int_chunk_copy_": lambda T: _int_chunk(T).copy_(_leaf(T, 2)),
    # set_ compares the dtypes first; map_ and map2_ refuse any operand that requires grad
    "set_leaf": lambda T: _leaf(T).set_(T.ones(2)),
    "set_dtype": lambda T: _leaf(T).set_(T.ones(2, dtype=T.float64)),
    "set_view_of_leaf": lambda T: _leaf(T)[:2].set_(T.ones(2)),
    "set_no_grad": lambda T: (lambda x: [T.set_grad_enabled(False), x.set_(T.ones(2)),
                                         T.set_grad_enabled(True)][1])(_leaf(T)),
    "map_": lambda T: _leaf(T).map_(T.ones(3), lambda a, b: a),
    "map_other": lambda T: T.ones(3).map_(_leaf(T), lambda a, b: a),
    "map2_": lambda T: _leaf(T).map2_(T.ones(3), T.ones(3), lambda a, b, c: a),
    "apply_": lambda T: _leaf(T).apply_(lambda a: a),
    # the logical ops and resize_ make no such check (resize_ has its own)
    "logical_not_": lambda T: _leaf(T).logical_not_(),
    "resize_": lambda T: _leaf(T).resize_(2),
}


@pytest.mark.parametrize("name", WRONG_CALLS)
def test_autograd_refuses_first(name):
    same_outcome(WRONG_CALLS[name])


def _refused_split_view(T):
    """A view of a multi-output op whose base was then edited in place."""
    x = T.ones(3, 4, requires_grad=True).clone()
    piece = x.split(2, dim=1)[1]
    x.mul_(2)
    return piece


REFUSED_VIEWS = {
    "cat_sizes": lambda T: T.cat([T.ones(3, 3), _refused_split_view(T)]),
    "cat_0d": lambda T: T.cat([_refused_split_view(T), T.tensor(1.)]),
    "cat_fine": lambda T: T.cat([_refused_split_view(T), T.ones(3, 2)], 1),
    "stack_sizes": lambda T: T.stack([T.ones(3, 3), _refused_split_view(T)]),
    "add_shapes": lambda T: _refused_split_view(T) + T.ones(5),
    "set_": lambda T: _refused_split_view(T).set_(T.ones(2)),
    "masked_scatter_": lambda T: _refused_split_view(T).masked_scatter_(T.ones(3, 1) > 0,
                                                                        T.ones(5)),
}


@pytest.mark.parametrize("name", REFUSED_VIEWS)
def test_refused_view_history_before_the_kernel(name):
    """torch reads a refused view's history (and raises) before the kernel's checks."""
    same_outcome(REFUSED_VIEWS[name])
