"""Errors against torch 2.13: exception type and message word for word, and bad input never
corrupts state: after every raised error each tensor involved keeps its values, version and
history (``grad_fn`` name, ``requires_grad``)."""

# ruff: noqa: B023  (the lambdas in loops here are called at once, inside their iteration)

import pytest
import torch  # noqa: F401
from _oracle import assert_same, assert_unchanged, both, outcome, snapshot

import doctensor

# Each case: a function (T, a, b, c) -> anything, run on fresh tensors
#   a: float (2, 3) leaf requiring grad, used through a non-leaf ``h = a * 1``
#   b: int64 (3,), c: float (4, 5)
CASES = {
    # broadcasting / shapes
    "add_shapes": lambda T, h, b, c: h + c,
    "mul_shapes": lambda T, h, b, c: c * T.ones(3),
    "inplace_broadcast_out": lambda T, h, b, c: h.add_(T.ones(4, 2, 3)),
    "inplace_shape": lambda T, h, b, c: c.mul_(T.ones(5, 4)),
    "copy_shape": lambda T, h, b, c: c.copy_(T.ones(3)),
    "setitem_shape": lambda T, h, b, c: c.__setitem__(0, T.ones(4)),
    "setitem_adv_shape": lambda T, h, b, c: c.__setitem__([0, 1], T.ones(3)),
    "where_shape": lambda T, h, b, c: T.where(c > 0, c, T.ones(3)),
    "matmul": lambda T, h, b, c: h @ c,
    "matmul_0d": lambda T, h, b, c: T.tensor(1.0) @ c,
    "matmul_batch": lambda T, h, b, c: T.ones(2, 3, 4) @ T.ones(3, 5, 6),
    "mm": lambda T, h, b, c: T.mm(c, c),
    "mm_1d": lambda T, h, b, c: T.mm(c, T.ones(5)),
    "mv": lambda T, h, b, c: c.mv(T.ones(4)),
    "dot": lambda T, h, b, c: T.dot(T.ones(3), T.ones(4)),
    "dot_2d": lambda T, h, b, c: T.dot(c, c),
    "dot_dtype": lambda T, h, b, c: T.dot(T.ones(3), b),
    "mm_dtype": lambda T, h, b, c: T.mm(c.t(), T.ones(4, 2, dtype=T.float64)),
    "bmm_2d": lambda T, h, b, c: T.bmm(c, c),
    "bmm_shape": lambda T, h, b, c: T.bmm(T.ones(2, 3, 4), T.ones(2, 5, 4)),
    "view": lambda T, h, b, c: c.view(3, 7),
    "view_t": lambda T, h, b, c: c.t().view(-1),
    "reshape": lambda T, h, b, c: c.reshape(-1, 3),
    "expand": lambda T, h, b, c: c.expand(4, 4),
    "cat_shapes": lambda T, h, b, c: T.cat([h, c]),
    "cat_dims": lambda T, h, b, c: T.cat([c, b]),
    "cat_empty": lambda T, h, b, c: T.cat([]),
    "cat_dim": lambda T, h, b, c: T.cat([c, c], dim=2),
    "stack_shapes": lambda T, h, b, c: T.stack([h, c]),
    "stack_empty": lambda T, h, b, c: T.stack([]),
    "stack_dim": lambda T, h, b, c: T.stack([c, c], dim=3),
    # dims and indices
    "sum_dim": lambda T, h, b, c: c.sum(2),
    "sum_dim_neg": lambda T, h, b, c: c.sum(-3),
    "sum_dup": lambda T, h, b, c: c.sum((0, 0)),
    "mean_int": lambda T, h, b, c: b.mean(),
    "max_dim": lambda T, h, b, c: c.max(5),
    "max_empty": lambda T, h, b, c: T.ones(0).max(),
    "argmax_dim": lambda T, h, b, c: c.argmax(2),
    "softmax_like": lambda T, h, b, c: c.transpose(0, 2),
    "squeeze_dim": lambda T, h, b, c: c.squeeze(3),
    "unsqueeze_dim": lambda T, h, b, c: c.unsqueeze(-4),
    "select_index": lambda T, h, b, c: c.select(1, 5),
    "getitem_int": lambda T, h, b, c: c[4],
    "getitem_neg": lambda T, h, b, c: c[-5],
    "getitem_second": lambda T, h, b, c: c[0, 5],
    "getitem_too_many": lambda T, h, b, c: c[0, 0, 0],
    "getitem_list": lambda T, h, b, c: c[[0, 4]],
    "getitem_tensor": lambda T, h, b, c: c[T.tensor([1, 7])],
    "getitem_float_tensor": lambda T, h, b, c: c[T.tensor([1.0])],
    "getitem_bool_shape": lambda T, h, b, c: c[T.tensor([True, False])],
    "getitem_0d": lambda T, h, b, c: T.tensor(1.0)[0],
    "setitem_index": lambda T, h, b, c: c.__setitem__(4, 1.0),
    "setitem_adv_index": lambda T, h, b, c: c.__setitem__([0, 9], 1.0),
    "narrow": lambda T, h, b, c: c.narrow(0, 3, 2),
    "split_sizes": lambda T, h, b, c: c.split([1, 2]),
    "permute": lambda T, h, b, c: c.permute(0, 1, 2),
    "transpose_dim": lambda T, h, b, c: c.transpose(0, 2),
    "flatten": lambda T, h, b, c: c.flatten(1, 0),
    "unflatten": lambda T, h, b, c: c.unflatten(1, (2, 2)),
    # dtypes
    "int_inplace_div": lambda T, h, b, c: b.div_(2),
    "int_inplace_mul_float": lambda T, h, b, c: b.mul_(1.5),
    "int_inplace_float_tensor": lambda T, h, b, c: b.add_(T.ones(3)),
    "int_inplace_exp": lambda T, h, b, c: b.exp_(),
    "bool_inplace": lambda T, h, b, c: (b > 0).add_(1),
    "int_requires_grad": lambda T, h, b, c: b.requires_grad_(),
    "int_pow_neg": lambda T, h, b, c: b ** -1,
    "bool_sub": lambda T, h, b, c: (b > 0) - (b > 1),
    "bool_neg": lambda T, h, b, c: -(b > 0),
    "item_many": lambda T, h, b, c: c.item(),
    "bool_many": lambda T, h, b, c: bool(c),
    "var_int": lambda T, h, b, c: b.var(),
    "clamp_none": lambda T, h, b, c: c.clamp(),
    "int_zero_div": lambda T, h, b, c: b // T.zeros(3, dtype=T.int64),
    "int_zero_mod": lambda T, h, b, c: b % 0,
    # autograd
    "leaf_inplace": lambda T, h, b, c: h.grad_fn.next_functions[0][0].variable.add_(1),
    "view_of_leaf": lambda T, h, b, c: h.grad_fn.next_functions[0][0].variable[0].mul_(2),
    "backward_non_scalar": lambda T, h, b, c: h.backward(),
    "backward_no_grad": lambda T, h, b, c: c.sum().backward(),
    "backward_shape": lambda T, h, b, c: h.backward(T.ones(3, 2)),
    "numpy_requires_grad": lambda T, h, b, c: h.numpy(),
    "requires_grad_non_leaf": lambda T, h, b, c: setattr(h, "requires_grad", False),
    "detach_view_": lambda T, h, b, c: h[0].detach_(),
    "retain_grad_no_grad": lambda T, h, b, c: c.retain_grad(),
    "register_hook_no_grad": lambda T, h, b, c: c.register_hook(lambda g: g),
    "expand_inplace": lambda T, h, b, c: c[:1].expand(4, 5).add_(1),
    "len_0d": lambda T, h, b, c: len(T.tensor(1.0)),
    "grad_assign_shape": lambda T, h, b, c: setattr(c, "grad", T.ones(3)),
    "grad_assign_dtype": lambda T, h, b, c: setattr(c, "grad", T.ones(4, 5, dtype=T.float64)),
    "grad_assign_type": lambda T, h, b, c: setattr(c, "grad", 3),
    "to_bad": lambda T, h, b, c: c.to("tpu"),
    "device_bad": lambda T, h, b, c: T.device("cuda:x"),
    "arange_step": lambda T, h, b, c: T.arange(0, 3, 0),
    "chunk_zero": lambda T, h, b, c: c.chunk(0),
    # matmul's dispatch: each path's own message
    "mm_dtype_direct": lambda T, h, b, c: T.mm(T.ones(2, 2), T.ones(2, 2, dtype=T.float64)),
    "addmm_dtype": lambda T, h, b, c: T.addmm(T.ones(2, 2), T.ones(2, 2),
                                              T.ones(2, 2, dtype=T.float64)),
    "bmm_dtype": lambda T, h, b, c: T.ones(1, 2, 2) @ T.ones(1, 2, 2, dtype=T.float64),
    "mv_dtype": lambda T, h, b, c: T.ones(2, 2) @ T.ones(2, dtype=T.float64),
    "vm_dtype": lambda T, h, b, c: T.ones(2, dtype=T.float64) @ T.ones(2, 2),
    "dot_size": lambda T, h, b, c: T.ones(3) @ T.ones(4),
    "mv_size": lambda T, h, b, c: T.ones(2, 3) @ T.ones(4),
    "vm_size": lambda T, h, b, c: T.ones(3) @ T.ones(4, 2),
    "folded_mv": lambda T, h, b, c: T.ones(2, 3, 4) @ T.ones(5),
    "folded_mm": lambda T, h, b, c: T.ones(2, 3, 4) @ T.ones(5, 2),
    "batched": lambda T, h, b, c: T.ones(2, 3, 4) @ T.ones(2, 5, 2),
    "batched_1d": lambda T, h, b, c: T.ones(4) @ T.ones(2, 5, 2),
    "batched_bcast": lambda T, h, b, c: T.ones(2, 3, 4) @ T.ones(3, 4, 2),
    "folded_dtype": lambda T, h, b, c: T.ones(2, 3, 4) @ T.ones(4, 2, dtype=T.float64),
    "dot_int_float": lambda T, h, b, c: T.ones(4, dtype=T.int64) @ T.ones(4),
    # messages that name the dtype
    "expand_int": lambda T, h, b, c: b.expand(2),
    "expand_double": lambda T, h, b, c: c.double().expand(3),
    "view_int": lambda T, h, b, c: b.view(2, 2),
    "mean_int_dtype": lambda T, h, b, c: b.mean(dtype=T.int32),
    "matmul_int": lambda T, h, b, c: b @ T.ones(3, 2),
    "inplace_bool_result": lambda T, h, b, c: b.__iadd__(0.5),
    "sum_bad_dim_int": lambda T, h, b, c: b.sum(1),
    "index_float": lambda T, h, b, c: c[1.5],
    "index_str": lambda T, h, b, c: c["a"],
}


# torch itself writes part of the values before it finds the bad index; doctensor checks
# first (issue 2: bad input never corrupts state), so only doctensor's state is asserted here.
TORCH_CORRUPTS = {"setitem_adv_index"}


def _fresh(T):
    a = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    h = a * 1
    b = T.tensor([1, 2, 3])
    c = T.arange(20.0).reshape(4, 5)
    return a, h, b, c


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_matches_and_state_survives(name):
    fn = CASES[name]

    def scenario(T):
        a, h, b, c = _fresh(T)
        before = [snapshot(t) for t in (a, h, b, c)]
        result = outcome(lambda _: fn(T, h, b, c), T)
        if T is doctensor or name not in TORCH_CORRUPTS:
            for t, snap, what in zip((a, h, b, c), before, "ahbc"):
                assert_unchanged(snap, t, f"{T.__name__}: {what} after {name}")
        # the graph still works afterwards
        h.sum().backward()
        return result, a.grad

    ours, theirs = both(scenario)
    assert_same(ours, theirs, path=name)


@pytest.mark.filterwarnings("ignore:Using a non-tuple sequence")  # torch, on c["a"]
def test_errors_include_only_the_expected_ones():
    """Every case above raises in torch (a typo in a case would make it test nothing)."""
    quiet = {"softmax_like", "transpose_dim", "permute", "getitem_neg"}
    for name, fn in CASES.items():
        if name in quiet:
            continue
        a, h, b, c = _fresh(torch)
        r = outcome(lambda _, fn=fn: fn(torch, h, b, c), torch)
        assert type(r).__name__ == "Raised", f"{name} does not raise in torch: {r!r}"
