"""Differential tests of what the program fuzzer (test_fuzz_programs.py) found once its
vocabulary grew (joining, scatters, sorting, masks, hooks, retain_grad, no_grad views,
autograd.grad), compared with torch 2.13: the order of the scatters' and masked fills'
checks, tensor hooks' checks, layouts of sort and of gradients, and edge cases of 0-d and
empty tensors."""

import pytest
from _oracle import same_outcome

# -- scatter_ and scatter_add_: torch's checks in its order ------------------------------------

SCATTERS = {
    # autograd's check comes before the kernel's (dtype, bounds)
    "leaf_first": lambda T: T.ones(2, 3, requires_grad=True).scatter_(
        0, T.tensor([[0, 5]]), T.ones(2, 3, dtype=T.float64)),
    "view_of_leaf_first": lambda T: T.ones(2, 3, requires_grad=True)[0].scatter_add_(
        0, T.tensor([7]), T.ones(3, dtype=T.float64)),
    # in place, the overlap of src (or index) with self comes before the bounds
    "src_is_self": lambda T: (lambda x: x.scatter_(0, T.tensor([[0, 5]]), x))(T.ones(2, 3)),
    "add_src_is_self": lambda T: (lambda x: x.scatter_add_(0, T.tensor([[0, 1]]), x))(
        T.ones(2, 3)),
    "expanded_self": lambda T: T.ones(3).expand(2, 3).scatter_(0, T.tensor([[0, 1]]), 1.0),
    # the dim is wrapped before the dtypes are compared
    "dim_before_dtype": lambda T: T.ones(2, 3).scatter_(-3, T.tensor([[0]]),
                                                       T.ones(2, 3, dtype=T.float64)),
    # src's sizes are read at self's dims: a src with fewer dims is torch's IndexError
    "src_fewer_dims": lambda T: T.ones(2, 3).scatter_(1, T.tensor([[0]]), T.ones(3)),
    "src_more_dims": lambda T: T.ones(2, 3).scatter_(0, T.tensor([[0, 1]]), T.ones(2, 3, 1)),
    "src_0d_index_2d": lambda T: T.ones(3, 1).scatter_add_(1, T.tensor([[0], [0]]),
                                                          T.tensor(2.)),
    "too_large": lambda T: T.ones(2, 3).scatter_add_(0, T.tensor([[0, 1, 1, 0]]),
                                                    T.ones(1, 2)),
    # a 0-d self and index read src's first element; a 0-d self, the last one indexed
    "self_0d_src_1d": lambda T: T.tensor(1.).scatter(0, T.tensor(0), T.tensor([5., 6.])),
    "self_0d_index_1d": lambda T: T.tensor(1.).scatter(0, T.tensor([0, 0]),
                                                       T.tensor([5., 6., 7.])),
    "add_self_0d_src_2d": lambda T: T.tensor(1.).scatter_add(0, T.tensor(0),
                                                             T.ones(2, 2)),
}


@pytest.mark.parametrize("name", SCATTERS)
def test_scatter_checks(name):
    same_outcome(SCATTERS[name])


def test_scatter_gradients_of_0d_and_short_index():
    def scenario(T):
        out = []
        for shape, index, src_shape in [((), (), (3,)), ((), (1,), (3,)), ((3,), (1,), ())]:
            x = T.arange(1., 1 + T.zeros(shape).numel()).reshape(shape).requires_grad_()
            src = T.arange(5., 5 + T.zeros(src_shape).numel()).reshape(src_shape)
            src.requires_grad_()
            try:
                y = x.clone().scatter_(0, T.zeros(index, dtype=T.int64), src)
                y.sum().backward()
                out.append((y, x.grad, src.grad))
            except RuntimeError as e:
                out.append(str(e))
        return out
    same_outcome(scenario)


def test_invalid_gradient_counts_no_index_edge():
    """The index of the input in 'returned an invalid gradient at index N' counts the
    differentiable inputs only (a scatter's index has no edge)."""
    def scenario(T):
        x = T.zeros(4, requires_grad=True)
        src = T.ones(2, requires_grad=True)
        y = x.scatter_add(0, T.tensor([0, 1, 1, 2]), src)  # index longer than src
        y.sum().backward()
    same_outcome(scenario)


# -- cat, split, topk, sort --------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda T: T.cat([T.ones(()), T.ones(2)]),
    lambda T: T.cat([T.ones(2, 3), T.ones(0), T.ones(())]),
    lambda T: T.cat([T.ones(2, 2), T.ones(())], 5),  # before the dim is wrapped
    lambda T: T.cat([T.ones(0), T.ones(0)], 1),  # every tensor skipped: any dim
    lambda T: T.cat([T.ones(0, requires_grad=True) * 2, T.ones(0)], -3),
    lambda T: T.ones(3, 2).split([1, 0], -1),  # the dim as given in the message
])
def test_cat_and_split_edges(make):
    same_outcome(make)


@pytest.mark.parametrize("k", [0, 1])
def test_topk_of_0d(k):
    def scenario(T):
        x = T.tensor(3., requires_grad=True)
        values, indices = (x * 2).topk(k, largest=bool(k))
        values.backward()
        return values, indices, x.grad
    same_outcome(scenario)


VIEWS = {
    "transposed": lambda x: x.transpose(0, 2),
    "stepped": lambda x: x[:, ::2],
    "odd_size1_stride": lambda x: x[..., :1].mT,
    "expanded": lambda x: x[0].expand(2, 3, 5),
    "column": lambda x: x[0, :1, 0],
    "permuted": lambda x: x.permute(1, 2, 0),
    "overlapping": lambda x: x.unfold(2, 2, 1),
    "empty": lambda x: x[1:1],
}


@pytest.mark.parametrize("dim", [0, -1])
@pytest.mark.parametrize("name", VIEWS)
def test_sort_keeps_a_dense_layout(name, dim):
    """sort's outputs take self's strides when self is dense (odd strides of size-1 dims
    too), else dense ones in its order."""
    def scenario(T):
        x = VIEWS[name](T.arange(60.).reshape(4, 3, 5).sin())
        s = x.sort(dim, descending=True)
        return s.values, s.indices, x.argsort(dim)
    same_outcome(scenario)


# -- masked_fill: checks in torch's order ------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda T: T.ones(3, 4).masked_fill(T.ones(2, 4) > 0, 1.0),  # a: the mask
    lambda T: T.ones(3, 4).masked_fill(T.ones(2, 4), 1.0),
    lambda T: T.ones(3, 4).masked_fill(T.ones(3, 4), T.ones(2)),  # value, then mask dtype
    lambda T: T.ones(3, 4).masked_fill(T.ones(2, 3, 4) > 0, T.tensor(2.)),
    lambda T: T.ones(3, 4).masked_fill_(T.ones(2, 4) > 0, 1.0),  # a: self
    lambda T: T.ones(3, 4).masked_fill_(T.ones(2, 4) > 0, T.ones(2)),
    lambda T: T.ones(3, 4).masked_fill_(T.ones(2, 4), 2),
    lambda T: T.ones(3, 4).masked_fill_(T.ones(2, 3, 4), 1.0),
    lambda T: T.ones(3, 4, requires_grad=True).masked_fill_(T.ones(2, 4), T.ones(2)),
    lambda T: T.ones(3, 1, requires_grad=True).masked_fill_(T.ones(2, 3, 1) > 0, 2.0),
])
def test_masked_fill_checks(make):
    same_outcome(make)


# -- tensor hooks --------------------------------------------------------------------------------

HOOKS = {
    "size": lambda g: g.sum(),
    "more_dims": lambda g: g[None],
    "dtype": lambda g: g.double(),
    "integer": lambda g: g.long(),
    "number": lambda g: 3,
    "fine": lambda g: g * 2,
}


@pytest.mark.parametrize("where", ["leaf", "result"])
@pytest.mark.parametrize("name", HOOKS)
def test_hook_result_is_checked(name, where):
    def scenario(T):
        x = T.ones(3, requires_grad=True)
        y = x if where == "leaf" else x * 2
        y.register_hook(HOOKS[name])
        (y * 3).sum().backward()
        return x.grad
    same_outcome(scenario)


def test_hook_of_the_root_runs_for_an_unused_input():
    """torch starts at the one root's node and calls its tensor hooks, needed or not; the
    tensor hooks of other nodes off the path do not run."""
    def scenario(T):
        x = T.ones(3, requires_grad=True)
        w = T.ones(2, requires_grad=True)
        calls = []
        y = x * 2
        y.register_hook(lambda g: calls.append("y"))
        y.retain_grad()
        z = y * 3
        z.register_hook(lambda g: calls.append("z"))
        g = T.autograd.grad(z, w, T.ones_like(z), allow_unused=True)
        x.register_hook(lambda g: g.sum())
        try:
            T.autograd.grad(x, w, T.ones_like(x))
        except RuntimeError as e:
            calls.append(str(e))
        return g, calls, y.grad
    same_outcome(scenario)


# -- retain_grad ---------------------------------------------------------------------------------

def test_retained_grad_is_contiguous():
    """retain_grad keeps a contiguous clone (not the expanded gradient sum gives)."""
    def scenario(T):
        x = T.ones(1, 3, requires_grad=True)
        y = (x * 2).t()
        y.retain_grad()
        s = y.sum()
        s.backward(retain_graph=True)
        first = (y.grad.stride(), y.grad._version)
        s.backward()
        return first, y.grad, y.grad.stride()
    same_outcome(scenario)


def test_retain_grad_follows_a_regenerated_view():
    def scenario(T):
        x = T.ones(4, requires_grad=True)
        y = x * 1
        v = y[1:3]
        v.retain_grad()
        y.mul_(2)  # v's grad_fn is regenerated (AsStridedBackward0)
        v.sum().backward()
        z = T.ones((), requires_grad=True)
        w = z.view(1)
        z.detach_()
        w.retain_grad()
        z.squeeze_()
        w.sum().backward()
        return v.grad, x.grad, type(v.grad_fn).__name__, w.grad
    same_outcome(scenario)


# -- no_grad views, masked_select, norm ----------------------------------------------------------

def test_backward_through_a_no_grad_view():
    """A view made in no_grad mode requires grad but has no edge: backward passes it by."""
    def scenario(T):
        x = T.ones(3, dtype=T.float64, requires_grad=True)
        with T.no_grad():
            v = x[0]
        y = v.relu()
        (y * y).sum().backward()
        return v.requires_grad, v.is_leaf, x.grad, v.grad
    same_outcome(scenario)


@pytest.mark.parametrize("make", [
    lambda T: T.tensor([1., -2., 3.]),
    lambda T: T.tensor(-1.),
    lambda T: T.tensor(2.),
])
def test_masked_select_backward_is_a_masked_scatter(make):
    def scenario(T):
        x = make(T).requires_grad_()
        y = x.masked_select(x > 0)
        (g,) = T.autograd.grad((y * y).sum(), x, create_graph=True)
        (h,) = T.autograd.grad((y * y).sum(), x, retain_graph=True)
        (g2,) = T.autograd.grad(g.sum(), x, allow_unused=True)
        return g, g._version, h, h._version, g2
    same_outcome(scenario)


def test_masked_select_backward_broadcast():
    def scenario(T):
        x = T.tensor([1., -2., 3.], requires_grad=True)
        y = x.masked_select(T.tensor([[True, False, True], [False, False, True]]))
        (g,) = T.autograd.grad((y * y).sum(), x, create_graph=True)
        return g, g._version
    same_outcome(scenario)


@pytest.mark.parametrize("p", [2, 0.5, 1, 3])
def test_norm_gradient_keeps_the_input_layout(p):
    def scenario(T):
        x = T.arange(-11., 13.).reshape(2, 3, 4).requires_grad_()
        (g,) = T.autograd.grad(x.transpose(-1, 0).norm(p=p), x)
        return g, g.stride()
    same_outcome(scenario, rtol=1e-5, atol=1e-6)


def test_masked_scatter_0d():
    same_outcome(lambda T: T.zeros(()).masked_scatter_(T.tensor(False), T.zeros(0)))


# -- a refused view in ops without a derivative --------------------------------------------------

@pytest.mark.parametrize("use", [
    lambda T, v: v.argmax(), lambda T, v: v.argmax(0), lambda T, v: (v > 0).sum(),
    lambda T, v: v.isnan(), lambda T, v: v == v, lambda T, v: v.sign(),
    lambda T, v: v.argsort(),
])
def test_refused_view_in_ops_without_derivative(use):
    """torch reads a refused view's history only for an op that records one."""
    def scenario(T):
        base = T.ones(3, 4)
        view = base.split(1, 0)[-1]
        base.copy_(T.ones(3, 4, requires_grad=True))
        return use(T, view)
    same_outcome(scenario)


# -- the gradient formulas' own nodes and versions -----------------------------------------------

def test_mean_backward_divides_by_a_number():
    """torch's mean_backward divides by the count as a Scalar (DivBackward1)."""
    def scenario(T):
        x = T.arange(1., 17.).reshape(4, 4).requires_grad_()
        out = []
        for m in (x.mean(), x.mean(0), x.double().mean(1, keepdim=True)):
            (g,) = T.autograd.grad((m * m).sum(), x, create_graph=True)
            (h,) = T.autograd.grad(g.sum(), x)
            out.append((g, type(g.grad_fn).__name__, h))
        return out
    same_outcome(scenario)


@pytest.mark.parametrize("size", [3, 1])
def test_cumsum_backward_casts_first(size):
    """cumsum(dtype=...)'s gradient is cast to the input's dtype before it is summed back."""
    def scenario(T):
        x = T.arange(1., 1. + size).requires_grad_()
        c = x.cumsum(0, dtype=T.float64)
        (g,) = T.autograd.grad((c * c).sum(), x, create_graph=True)
        return g, type(g.grad_fn).__name__, [type(n).__name__
                                             for n, _ in g.grad_fn.next_functions]
    same_outcome(scenario)


def test_sum_to_size_of_0d_is_a_sum():
    def scenario(T):
        x = T.ones(2, 3, requires_grad=True)
        w = T.tensor(2., dtype=T.float64, requires_grad=True)
        y = T.where(x > 0, x, w)
        (g,) = T.autograd.grad((y * y).sum(), w, create_graph=True)
        return (x.sum_to_size(()), T.tensor(1., requires_grad=True).sum_to_size(()), g,
                type(g.grad_fn.next_functions[0][0]).__name__)
    same_outcome(scenario)


@pytest.mark.parametrize("pick", [
    lambda x: x.topk(0).values, lambda x: x.topk(1).values, lambda x: x.sort().values,
    lambda x: x.sort(stable=True).values,
])
def test_value_selecting_backward_of_0d(pick):
    """A 0-d input's gradient is scattered into zeros too: version 2."""
    def scenario(T):
        x = T.tensor(2., requires_grad=True)
        (g,) = T.autograd.grad(pick(x), x)
        (h,) = T.autograd.grad(pick(x * x), x, create_graph=True)
        return g, g._version, h
    same_outcome(scenario)


def test_leaf_moved_into_the_graph_interior():
    def scenario(T):
        x = T.ones(3, requires_grad=True)
        t = x.tanh()
        x.detach_()
        x.mul_(t)  # the former leaf now has history
        t.sum().backward()
    same_outcome(scenario)


def test_scatter_overlap_with_an_empty_index():
    """The overlap checks run for an empty index too (only the shape checks are skipped)."""
    def scenario(T):
        x = T.ones(1, 0)
        return x.scatter_(0, T.zeros(1, 0, dtype=T.int64), x)
    same_outcome(scenario)


# -- detach_() of a base: its views made in no_grad mode read requires_grad from it -------------

def _no_grad_view(T, base, pick):
    with T.no_grad():
        return pick(base)


DETACHED_BASES = {
    "leaf": lambda T: T.ones(3, requires_grad=True),
    "result": lambda T: T.ones(3, requires_grad=True) * 2,
    "base_of_split_views": lambda T: T.ones(4),  # requires grad only later, below
}
PICKS = {
    "select": lambda x: x[0],
    "slice_of_select": lambda x: x[1:][0],
    "split": lambda x: x.split(2)[0],
}


@pytest.mark.parametrize("base", DETACHED_BASES)
@pytest.mark.parametrize("pick", PICKS)
def test_detach_in_place_of_a_base(base, pick):
    """torch's view made in no_grad mode requires grad through its base; once the base is
    detached in place it no longer does (and a later requires_grad_() brings it back), while
    a view made in grad mode keeps its grad_fn."""
    def scenario(T):
        b = DETACHED_BASES[base](T)
        plain = _no_grad_view(T, b, PICKS[pick])
        if base == "base_of_split_views":
            b.requires_grad_()
        tracked = PICKS[pick](b)
        before = (plain.requires_grad, tracked.requires_grad)
        b.detach_()
        after = (plain.requires_grad, plain.is_leaf, tracked.requires_grad,
                 type(tracked.grad_fn).__name__)
        used = plain * 2
        b.requires_grad_()
        return before, after, used, plain.requires_grad, plain.grad_fn is None
    same_outcome(scenario)


@pytest.mark.parametrize("view", ["no_grad_view", "view_of_a_plain_base",
                                  "used_view_of_a_plain_base"])
def test_detach_in_place_after_in_place_ops_on_the_base(view):
    """A view that requires grad only through its base still follows it after in-place ops
    gave the base (new) history: ``detach_()`` of the base then reaches it (fuzzer seed
    8774: ``v1.exp_()`` then ``v1.detach_()`` left a no_grad view of v1 requiring grad)."""
    def scenario(T):
        w = T.ones(3, requires_grad=True)
        if view == "no_grad_view":
            b = w * 2
            v = _no_grad_view(T, b, PICKS["select"])
        else:
            b = T.zeros(3)
            v = b[1:]
        seen = [v.requires_grad]
        b.add_(w)
        seen.append(v.requires_grad)
        if view == "used_view_of_a_plain_base":
            seen.append(type(v.grad_fn).__name__)
        b.mul_(w)
        seen.append(v.requires_grad)
        b.detach_()
        return seen, v.requires_grad, v.is_leaf, v.grad_fn is None
    same_outcome(scenario)
