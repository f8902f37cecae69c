"""index_select, gather, masked_select, nonzero / argwhere, roll, diag, tril / triu, amax /
amin, logsumexp and trace against torch 2.13: values, dtypes,
strides, gradients and their grad_fn names (first and second order), torch's errors."""

import warnings

import numpy as np
import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import same_outcome

import doctensor  # noqa: F401
import doctensor.functions as functions
from doctensor import _tensor_base


def _grad_names(t):
    fn = t.grad_fn
    return None if fn is None else (fn.name(), [n.name() for n, _ in fn.next_functions if n])


SCENARIOS = {
    "index_select": lambda T: [
        T.arange(12.).view(3, 4).index_select(0, T.tensor([2, 0, 2])),
        T.index_select(T.arange(12.).view(3, 4).t(), 1, T.tensor([1], dtype=T.int32)),
        T.arange(24).view(2, 3, 4).index_select(-1, T.tensor([3, 0])),
        T.arange(6.).index_select(0, T.tensor([], dtype=T.int64)),
    ],
    "gather": lambda T: [
        T.arange(12.).view(3, 4).gather(1, T.tensor([[0, 1], [2, 3], [1, 1]])),
        T.gather(T.arange(12.).view(3, 4), 0, T.tensor([[0, 2, 1, 0]])),
        T.arange(12.).view(3, 4).t().gather(0, T.tensor([[0, 1]], dtype=T.int32)),
        T.arange(24).view(2, 3, 4).gather(-2, T.tensor([[[2], [0]]])),
        T.arange(12.).view(3, 4).gather(1, T.tensor([[0, 1, 2, 3, 0]])),
    ],
    "zero_dim": lambda T: [T.tensor(5.).gather(0, T.tensor(0)),
                           T.tensor(5.).index_select(0, T.tensor([0])),
                           T.tensor(3.).roll(1), T.tensor(3.).amax()],
    "roll": lambda T: [T.arange(6.).view(2, 3).roll(1), T.arange(6.).view(2, 3).roll(1, 0),
                       T.roll(T.arange(6).view(2, 3), (1, 2), (0, 1)),
                       T.arange(6.).view(2, 3).t().roll(-1, 1)],
    "diag": lambda T: [T.diag(T.arange(3.)), T.diag(T.arange(3.), 1),
                       T.arange(6.).view(2, 3).diag(-1), T.diag(T.arange(6.).view(2, 3)),
                       T.diag(T.arange(6).view(3, 2), 1)],
    "masked_select": lambda T: [(m := T.arange(6.).view(2, 3)).masked_select(m > 2),
                                T.masked_select(m, T.tensor([True, False, True]))],
    "amax_logsumexp_trace": lambda T: [
        (x := T.tensor([[1., 3., 3.], [-4., 2., -4.]])).amax(1), x.amax(), x.amin((0, 1)),
        x.amax(0, keepdim=True), T.amin(x, -1), x.logsumexp(1), T.logsumexp(x, (0, 1)),
        x.logsumexp(0, keepdim=True), T.logsumexp(T.tensor([1, 2]), 0),
        T.logsumexp(T.tensor([float("inf"), 1.]), 0),
        T.logsumexp(T.tensor([-float("inf"), -float("inf")]), 0),
        x[:, :2].trace(), T.trace(T.arange(6).view(2, 3))],
    "nonzero": lambda T: [
        T.tensor([[0, 1], [2, 0]]).nonzero(), T.nonzero(T.tensor([0., 3., 0., -1.])),
        T.nonzero(T.tensor([[0, 1], [2, 0]]), as_tuple=True), T.tensor(5.).nonzero(),
        T.tensor(0.).nonzero(), T.nonzero(T.tensor(5.), as_tuple=True),
        T.argwhere(T.tensor([[True, False], [True, True]])), T.zeros(2, 0).nonzero(),
    ],
    "tril_triu": lambda T: [
        T.arange(12.).view(3, 4).tril(), T.arange(12.).view(3, 4).triu(1),
        T.tril(T.arange(12.).view(3, 4), -1), T.triu(T.arange(12).view(4, 3).t(), -1),
        T.ones(2, 3, 3).triu(-1), T.arange(9.).view(3, 3).tril(5),
    ],
    "tril_triu_inplace": lambda T: [
        (x := T.arange(9.).view(3, 3)).tril_(), x._version,
        (y := T.arange(9.).view(3, 3).t()).triu_(1), y.stride(), y._version,
    ],
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_values_dtypes_and_layouts(name):
    same_outcome(SCENARIOS[name])


GRADIENTS = {
    "index_select": lambda T, w: w.index_select(0, T.tensor([0, 0, 2])),
    "index_select_dim1": lambda T, w: w.t().index_select(0, T.tensor([3, 1, 3])),
    "gather": lambda T, w: w.gather(1, T.tensor([[0, 1], [2, 3], [1, 1]])),
    "gather_dim0": lambda T, w: w.gather(0, T.tensor([[2, 2, 0, 1]])),
    "gather_scalar_index": lambda T, w: w[1].gather(0, T.tensor(2)),
    "gather_from_scalar": lambda T, w: w[1, 2].gather(0, T.tensor([0, 0, 0])),
    "roll": lambda T, w: w.roll((1, 2), (0, 1)),
    "diag_of_matrix": lambda T, w: w.diag(1),
    "diag_of_vector": lambda T, w: T.diag(w[0], -1),
    "masked_select": lambda T, w: w.masked_select(T.tensor([True, False, True, True])),
    "amax": lambda T, w: (w - w.round()).amax(1),
    "amin_all": lambda T, w: (w - 5).abs().amin(),
    "logsumexp": lambda T, w: (w / 50).logsumexp(1),
    "trace": lambda T, w: w[:, :3].trace(),
    "tril": lambda T, w: w.tril(),
    "triu": lambda T, w: w.triu(1),
}


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_first_and_second_derivatives(name):
    def scenario(T):
        a = T.tensor(np.arange(1.0, 13.0).reshape(3, 4), requires_grad=True)
        w = a * a
        out = GRADIENTS[name](T, w)
        v = T.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)),
                     requires_grad=True)
        ga, gv = T.autograd.grad(out, (a, v), v, create_graph=True, allow_unused=True)
        s = (ga * ga).sum()
        second = T.autograd.grad(s, (a, v), allow_unused=True)
        return out, out.grad_fn.name(), ga, _grad_names(ga), second
    same_outcome(scenario)


def test_saved_index_is_checked_against_in_place_changes():
    def scenario(T):
        w = T.ones(3, 4, requires_grad=True)
        i = T.tensor([[0, 1], [2, 3], [1, 1]])
        y = (w * 2).gather(1, i)
        i.add_(0)
        y.sum().backward()
    same_outcome(scenario)


ERRORS = {
    "index_select_out_of_range": lambda T: T.ones(3, 4).index_select(0, T.tensor([3])),
    "index_select_negative": lambda T: T.ones(3, 4).index_select(0, T.tensor([-1])),
    "index_select_matrix": lambda T: T.ones(3, 4).index_select(0, T.tensor([[0]])),
    "index_select_float": lambda T: T.ones(3, 4).index_select(0, T.tensor([0.])),
    "index_select_dim": lambda T: T.ones(3, 4).index_select(2, T.tensor([0])),
    "gather_out_of_range": lambda T: T.ones(3, 4).gather(1, T.tensor([[4]])),
    "gather_negative": lambda T: T.ones(3, 4).gather(1, T.tensor([[-1]])),
    "gather_ndim": lambda T: T.ones(3, 4).gather(1, T.tensor([0])),
    "gather_float": lambda T: T.ones(3, 4).gather(1, T.tensor([[0.]])),
    "gather_too_large": lambda T: T.ones(3, 4).gather(1, T.tensor([[0]] * 5)),
    "gather_first_bad_index": lambda T: T.ones(3, 3).gather(0, T.tensor([[3, -1], [0, 1]])),
    "amax_empty_all": lambda T: T.ones(0).amax(),
    "amax_empty_dim": lambda T: T.ones(2, 0).amax(-1),
    "amin_empty_dims": lambda T: T.ones(2, 0).amin((0, 1)),
    "amax_empty_dims_in_given_order": lambda T: T.ones(0, 0).amax((1, 0)),
    "index_select_scalar_many": lambda T: T.tensor(5.).index_select(0, T.tensor([0, 0])),
    "index_select_scalar_out_of_range": lambda T: T.tensor(5.).index_select(0, T.tensor([1])),
    "index_select_empty_dim": lambda T: T.ones(0, 3).index_select(0, T.tensor([0])),
    "index_select_empty_vector": lambda T: T.ones(0).index_select(0, T.tensor([0])),
    "roll_misaligned": lambda T: T.ones(2, 3).roll((1, 2), (0,)),
    "roll_dim": lambda T: T.ones(2, 3).roll(1, 5),
    "diag_3d": lambda T: T.diag(T.ones(2, 2, 2)),
    "masked_select_int_mask": lambda T: T.masked_select(T.arange(3), T.tensor([1, 0, 1])),
    "trace_vector": lambda T: T.trace(T.ones(3)),
    "tril_1d": lambda T: T.ones(3).tril(),
    "triu_0d": lambda T: T.tensor(1.).triu(),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_are_torchs(name):
    same_outcome(ERRORS[name])


COUNTING = {
    "unique": lambda T: [T.unique(T.tensor([3, 1, 2, 1])),
                         T.unique(T.tensor([3.0, 1.0, 3.0]), return_counts=True),
                         T.unique(T.tensor([[1, 2], [1, 2], [0, 5]]), dim=0),
                         T.unique(T.tensor([3, 1, 2, 1]), return_inverse=True),
                         T.tensor([2, 2]).unique(sorted=False),
                         T.unique(T.tensor([[3, 1], [1, 0]]), return_inverse=True,
                                  return_counts=True),
                         T.tensor([1.0, 2.0], requires_grad=True).unique().requires_grad],
    "unique_backward": lambda T: T.tensor([1.0, 2.0], requires_grad=True).unique().sum()
    .backward(),
    "bincount": lambda T: [T.bincount(T.tensor([1, 1, 3])),
                           T.bincount(T.tensor([1, 1]), minlength=4),
                           T.bincount(T.tensor([0, 1]), weights=T.tensor([0.5, 2.0])),
                           T.tensor([0, 1]).bincount(T.tensor([0.5, 2.0], dtype=T.float64)),
                           T.bincount(T.tensor([], dtype=T.long))],
    "bincount_negative": lambda T: T.bincount(T.tensor([-1])),
    "bincount_2d": lambda T: T.bincount(T.tensor([[1]])),
    "bincount_float": lambda T: T.bincount(T.tensor([1.0])),
    "gather_edges": lambda T: [T.ones(4, 4).gather(-2, T.zeros(0, 0, 0, dtype=T.int64)),
                               T.ones(3, 1).gather(1, T.zeros(4, 0, dtype=T.int64)),
                               T.tensor([1., 2.]).gather(0, T.tensor(1)),
                               T.tensor(5.).gather(0, T.zeros(3, dtype=T.int64))],
    "empty_edges": lambda T: [T.ones(2, 0).amax(0), T.ones(3, 0).logsumexp(1),
                              T.ones(0, 4).roll(2, -3), T.tensor([], dtype=T.int64).median(),
                              T.ones(0, 2, dtype=T.int32).median(), T.tensor([]).median()],
    "logspace": lambda T: [T.logspace(0, 1, 3), T.logspace(0, 2, 5, base=2),
                           T.logspace(-1, 1, 4), T.logspace(0, 3, 4, dtype=T.float64),
                           T.logspace(0, 2, 3, dtype=T.int64)],
    "meshgrid": lambda T: [
        [(g, g.stride()) for g in T.meshgrid(T.arange(2.0), T.arange(3.0), indexing="xy")],
        [(g, g.stride()) for g in T.meshgrid(T.arange(2), T.arange(3), indexing="ij")],
        [g.shape for g in T.meshgrid([T.arange(2), T.arange(3), T.arange(4)], indexing="xy")]],
}


@pytest.mark.parametrize("name", sorted(COUNTING))
def test_unique_bincount_logspace_meshgrid(name):
    same_outcome(COUNTING[name])


def test_meshgrid_without_indexing_warns_once_like_torch():
    _tensor_base.WARNED_ONCE.discard(functions._MESHGRID_WARNING)
    seen = []
    for lib in (doctensor, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.meshgrid(lib.arange(2), lib.arange(3))
            lib.meshgrid(lib.arange(2), lib.arange(3))
        seen.append([(w.category, str(w.message)) for w in caught])
    assert len(seen[0]) == 1  # once, as torch's TORCH_WARN_ONCE (it may have warned earlier)
    assert seen[1] in ([], seen[0])


def test_logsumexp_of_integers_uses_the_default_dtype():
    def scenario(T):
        before = T.get_default_dtype()
        T.set_default_dtype(T.float64)
        try:
            return T.logsumexp(T.tensor([1, 2]), 0)
        finally:
            T.set_default_dtype(before)
    same_outcome(scenario)


SCATTER = {
    "src": lambda T, x, s: x.scatter(1, T.tensor([[0, 1], [2, 3]]), s[:, :2]),
    "value": lambda T, x, s: x.scatter(0, T.tensor([[1, 0, 1, 0]]), 7.5),
    "value_keyword": lambda T, x, s: T.scatter(x, 1, T.tensor([[3], [0]]), value=-1.0),
    "larger_src": lambda T, x, s: x.scatter(1, T.tensor([[0, 1, 2]]), s.detach()),
    "repeated_last_wins": lambda T, x, s: x.scatter(1, T.tensor([[1, 1, 1]]), s[:1, :3]),
    "int32_index": lambda T, x, s: x.scatter(1, T.tensor([[2]], dtype=T.int32), s[:1, :1]),
    "empty_index": lambda T, x, s: x.scatter(1, T.zeros(0, 0, dtype=T.int64), 1.0),
    "add": lambda T, x, s: x.scatter_add(1, T.tensor([[0, 0, 3], [1, 1, 1]]), s[:, :3]),
    "add_dim0": lambda T, x, s: T.scatter_add(x, 0, T.tensor([[1, 1, 0, 0]]), s[:1]),
    "one_hot_in_place": lambda T, x, s: T.zeros(3, 5).scatter_(
        1, T.tensor([[1], [4], [0]]), 1),
    "in_place_history": lambda T, x, s: (x * 1).scatter_(1, T.tensor([[2, 0]]), s[:1, :2]),
    "add_in_place_history": lambda T, x, s: (x * 1).scatter_add_(0, T.tensor([[1, 0]]),
                                                                 s[:1, :2]),
}


@pytest.mark.parametrize("name", sorted(SCATTER))
def test_scatter_like_torch(name):
    def fn(T):
        x = T.arange(8.0).view(2, 4).requires_grad_()
        s = (T.arange(8.0).view(2, 4) * 10 + 1).requires_grad_()
        y = SCATTER[name](T, x, s)
        if y.requires_grad:
            (y * T.arange(float(y.numel())).view(y.shape)).sum().backward()
        return y, y._version, x.grad, s.grad
    same_outcome(fn)


SCATTER_ERRORS = {
    "float_index": lambda T: T.zeros(2, 4).scatter(1, T.tensor([[0.0]]), 1.0),
    "src_dtype": lambda T: T.zeros(2, 4).scatter(1, T.tensor([[0]]), T.ones(1, 1, dtype=T.int64)),
    "index_dims": lambda T: T.zeros(2, 4).scatter(1, T.tensor([0, 1]), 1.0),
    "index_larger_than_src": lambda T: T.zeros(2, 4).scatter(1, T.tensor([[0, 1]]), T.ones(1, 1)),
    "index_larger_than_self": lambda T: T.zeros(2, 4).scatter(0, T.zeros(3, 1, dtype=T.int64),
                                                             1.0),
    "out_of_bounds": lambda T: T.zeros(2, 4).scatter(1, T.tensor([[0, 5]]), 1.0),
    "negative": lambda T: T.zeros(2, 4).scatter_add(1, T.tensor([[-1]]), T.ones(1, 1)),
    "add_larger_than_src": lambda T: T.zeros(2, 4).scatter_add(1, T.tensor([[0, 0]]),
                                                               T.ones(1, 1)),
    "leaf_in_place": lambda T: T.zeros(2, 4, requires_grad=True).scatter_(
        1, T.tensor([[0]]), 1.0),
}


@pytest.mark.parametrize("name", sorted(SCATTER_ERRORS))
def test_scatter_errors_like_torch(name):
    same_outcome(SCATTER_ERRORS[name])


REARRANGE = {
    "movedim": lambda T, x: x.movedim(0, -1),
    "movedim_many": lambda T, x: T.movedim(x, (0, 1), (2, 0)),
    "moveaxis": lambda T, x: T.moveaxis(x, -1, 0),
    "swapaxes": lambda T, x: T.swapaxes(x, 0, 2),
    "swapdims": lambda T, x: x.swapdims(1, 2),
    "tile_fewer": lambda T, x: T.tile(x, (2,)),
    "tile_more": lambda T, x: x.tile(2, 1, 1, 2),
    "movedim_lengths": lambda T, x: x.movedim((0, 1), (2,)),
    "movedim_range": lambda T, x: x.movedim(0, 5),
    "movedim_repeat_source": lambda T, x: x.movedim((0, 0), (1, 2)),
    "movedim_repeat_destination": lambda T, x: x.movedim((0, 1), (1, 1)),
}


@pytest.mark.parametrize("name", sorted(REARRANGE))
def test_movedim_swapaxes_tile_like_torch(name):
    def fn(T):
        x = T.arange(24.0).view(2, 3, 4).requires_grad_()
        y = REARRANGE[name](T, x)
        (y * T.arange(float(y.numel())).view(y.shape)).sum().backward()
        return y, y._base is x, x.grad
    same_outcome(fn)


INDEX_WRITES = {
    "add": lambda T, x, s: x.index_add(0, T.tensor([2, 0]), s),
    "add_alpha_repeats": lambda T, x, s: T.index_add(x, 0, T.tensor([1, 1]), s, alpha=-1.5),
    "add_dim1_int32": lambda T, x, s: x.index_add(1, T.tensor([3, 0], dtype=T.int32),
                                                  s[:, :2].repeat(2, 1)[:3]),
    "add_in_place": lambda T, x, s: (x * 1).index_add_(0, T.tensor([0, 2]), s),
    "fill": lambda T, x, s: x.index_fill(1, T.tensor([1, -1]), -2.0),
    "fill_scalar_index": lambda T, x, s: T.index_fill(x, 1, T.tensor(2), 5.0),
    "fill_in_place": lambda T, x, s: (x * 1).index_fill_(0, T.tensor([1]), 0.5),
    "copy": lambda T, x, s: x.index_copy(0, T.tensor([2, 0]), s),
    "copy_in_place": lambda T, x, s: (x * 1).index_copy_(0, T.tensor([1, 2]), s),
    "add_bounds": lambda T, x, s: x.index_add(0, T.tensor([0, 3]), s),
    "add_negative": lambda T, x, s: x.index_add(0, T.tensor([-1, 0]), s),
    "add_count": lambda T, x, s: x.index_add(1, T.tensor([0, 1]), s),
    "add_shape": lambda T, x, s: x.index_add(0, T.tensor([0, 1]), s[:, :3]),
    "add_float_index": lambda T, x, s: x.index_add(0, T.tensor([0.0, 1.0]), s),
    "add_matrix_index": lambda T, x, s: x.index_add(0, T.tensor([[0, 1]]), s),
    "fill_bounds": lambda T, x, s: x.index_fill(1, T.tensor([4]), 1.0),
    "fill_int32_index": lambda T, x, s: x.index_fill(1, T.tensor([1], dtype=T.int32), 1.0),
    "fill_matrix_index": lambda T, x, s: x.index_fill(1, T.tensor([[1]]), 1.0),
    "fill_tensor_value": lambda T, x, s: x.index_fill(1, T.tensor([1]), T.tensor([1.0, 2.0])),
    "copy_bounds": lambda T, x, s: x.index_copy(0, T.tensor([0, 5]), s),
    "copy_negative": lambda T, x, s: x.index_copy(0, T.tensor([-1, 0]), s),
    "copy_count": lambda T, x, s: x.index_copy(0, T.tensor([0, 1, 2]), s),
    "copy_float_index": lambda T, x, s: x.index_copy(0, T.tensor([0.0, 1.0]), s),
}


@pytest.mark.parametrize("name", sorted(INDEX_WRITES))
def test_index_add_fill_copy_like_torch(name):
    def fn(T):
        x = T.arange(12.0).view(3, 4).requires_grad_()
        s = (T.arange(8.0).view(2, 4) * 10 + 1).requires_grad_()
        y = INDEX_WRITES[name](T, x, s)
        (y * T.arange(float(y.numel())).view(y.shape)).sum().backward()
        return y, y._version, x.grad, s.grad
    same_outcome(fn)
