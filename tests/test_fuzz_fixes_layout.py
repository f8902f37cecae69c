"""Differential tests of what the program fuzzer (test_fuzz_programs.py) found in layouts and
versions: the strides TensorIterator gives a pointwise result (its fast setup, size-1 dims),
the ``_version`` of gradients the engine adds in place (torch's InputBuffer) and of
as_strided's backward, compared with torch 2.13."""

import pytest
from _oracle import HYPOTHESIS_EXAMPLES, same_outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# -- pointwise result layouts -------------------------------------------------------------------


@st.composite
def layouts(draw, shape, broadcast=True):
    """(storage size, strides) laying ``shape`` out: a random order of dims, gaps, odd strides
    for dims of size 1, now and then (``broadcast``) a broadcast (stride 0) dim."""
    n = len(shape)
    order = draw(st.permutations(range(n)))
    strides = [0] * n
    acc = 1
    for d in reversed(order):
        if shape[d] == 1 and draw(st.booleans()):
            strides[d] = draw(st.integers(1, 30))
            continue
        strides[d] = acc
        acc *= shape[d] * draw(st.sampled_from([1, 1, 1, 2]))
    if broadcast and n and draw(st.integers(0, 9)) == 0:
        strides[draw(st.integers(0, n - 1))] = 0
    if 0 in shape:
        return 1, tuple(strides)
    return 1 + sum((k - 1) * s for k, s in zip(shape, strides)), tuple(strides)


@st.composite
def operands(draw):
    """Three (shape, layout) pairs broadcasting together: one result shape (now and then
    empty), the others its suffixes with some dims 1, or the same shape."""
    sizes = st.sampled_from([0, 1, 1, 2, 2, 3, 3])
    shape = tuple(draw(st.lists(sizes, min_size=1, max_size=5)))
    shapes = [shape]
    for _ in range(2):
        if draw(st.booleans()):
            k = draw(st.integers(0, len(shape)))
            shapes.append(tuple(1 if draw(st.booleans()) else n for n in shape[len(shape) - k:]))
        else:
            shapes.append(shape)
    shapes = draw(st.permutations(shapes))
    return [(s, draw(layouts(s))) for s in shapes]


POINTWISE = {
    "add": lambda T, a, b, c: a + b,
    "mul": lambda T, a, b, c: b * a,
    "sub_alpha": lambda T, a, b, c: a.sub(b, alpha=2),
    "maximum": lambda T, a, b, c: T.maximum(a, b),
    "lt": lambda T, a, b, c: a < b,
    "where": lambda T, a, b, c: T.where(c > 3, a, b),
    "where_number": lambda T, a, b, c: T.where(c > 3, a, 2.0),
    "neg": lambda T, a, b, c: -a,
    "exp": lambda T, a, b, c: a.exp(),
    "times_number": lambda T, a, b, c: a * 2,
    "number_minus": lambda T, a, b, c: 2 - a,
    "div_number": lambda T, a, b, c: a / 4,
    "pow_number": lambda T, a, b, c: a.pow(2),
    "clamp": lambda T, a, b, c: a.clamp(1, 3),
}


def _strided(T, shape, layout):
    size, strides = layout
    return T.arange(float(size)).as_strided(shape, strides)


@settings(max_examples=HYPOTHESIS_EXAMPLES * 5, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(ops=operands(), name=st.sampled_from(sorted(POINTWISE)))
def test_pointwise_result_strides_are_torchs(ops, name):
    """Any shapes and strides (odd strides of size-1 dims, gaps, broadcasts, numbers): the
    result of a pointwise op has torch's strides, size-1 dims included."""
    same_outcome(lambda T: POINTWISE[name](T, *(_strided(T, s, lay) for s, lay in ops)))


@pytest.mark.parametrize("case", [
    # a transposed (1, 3): contiguous to torch, yet a number or a broadcast keeps its order
    lambda T: T.arange(3.).reshape(1, 3).t() / T.tensor(2.),
    lambda T: T.arange(3.).reshape(1, 3).t() * 2,
    lambda T: -T.arange(3.).reshape(1, 3).t(),
    lambda T: T.arange(3.).reshape(1, 3).t() + T.ones(1),
    # the same shape: the fast setup (contiguous, channels-last, the inputs' own strides)
    lambda T: T.arange(6.).as_strided((3, 1, 2), (2, 7, 1)) + T.ones(3, 1, 2),
    lambda T: T.arange(6.).as_strided((2, 1, 3), (1, 5, 2)).exp(),
    lambda T: T.arange(6.).as_strided((2, 1, 3), (1, 5, 2)) * T.arange(6.).as_strided(
        (2, 1, 3), (1, 5, 2)),
    lambda T: _channels_last(T) * 3,
    lambda T: _channels_last(T).sigmoid(),
    lambda T: _channels_last(T) + _channels_last(T).permute(0, 1, 2, 3),
    lambda T: _channels_last(T) + T.ones(4),
    # the fuzzer's: an expanded operand says nothing about the order of its dims
    lambda T: T.where(T.arange(3.).reshape(1, 3, 1) > 1, T.arange(3.).reshape(1, 3, 1),
                      T.arange(3.).expand(2, 3)[:1].reshape(1, 3, 1)),
])
def test_pointwise_examples(case):
    same_outcome(case)


def _channels_last(T):
    """A (2, 3, 1, 4) tensor in channels-last order: strides (12, 1, 12, 3)."""
    return T.arange(24.).reshape(2, 1, 4, 3).permute(0, 3, 1, 2)


# -- gradients added in place -------------------------------------------------------------------

def _grad_versions(T, expr, create_graph=False):
    x = T.arange(1., 5.).requires_grad_()
    y = expr(T, x)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=create_graph)
    return g, g._version


@pytest.mark.parametrize("expr", [
    lambda T, x: x * x,                          # two gradients of one node: in place
    lambda T, x: x * 2 + x * 3 + x.exp(),        # three: two in-place adds
    lambda T, x: x + x,                          # the same tensor twice: out of place
    lambda T, x: x * x * x,
    lambda T, x: x.sum() * x,                    # an expanded gradient: out of place
    lambda T, x: (x + 1) + x.sin(),              # a gradient passed through
    lambda T, x: x.view(2, 2).t().reshape(-1) * x,
], ids=["mul", "three", "same-twice", "cube", "expanded", "passed-through", "views"])
def test_autograd_grad_version(expr):
    same_outcome(lambda T: _grad_versions(T, expr))


def test_no_in_place_add_with_create_graph():
    same_outcome(lambda T: _grad_versions(T, lambda T, x: x * x + x.exp(), create_graph=True))


def test_a_users_gradient_is_never_written():
    def scenario(T):
        x = T.arange(1., 4.).requires_grad_()
        y = x * 2
        g = T.ones(3)
        (gx,) = T.autograd.grad([y, y], x, [g, g])
        return g, g._version, gx, gx._version
    same_outcome(scenario)


def test_leaf_grad_versions_after_backward():
    """The accumulated gradient becomes .grad (torch steals it): its versions show."""
    def scenario(T):
        out = []
        for expr in (lambda x: x * x, lambda x: x * x + x * 2, lambda x: x.exp() + x.sin()
                     + x.cos(), lambda x: x + x):
            x = T.arange(1., 4.).requires_grad_()
            expr(x).sum().backward()
            out += [x.grad, x.grad._version]
        return out
    same_outcome(scenario)


def test_a_gradient_still_held_is_not_written():
    """retain_grad keeps the gradient of a non-leaf: the engine adds out of place after it."""
    def scenario(T):
        x = T.arange(1., 4.).requires_grad_()
        h = x * 1
        h.retain_grad()
        (h * h + h.exp()).sum().backward()
        return h.grad, h.grad._version, x.grad, x.grad._version
    same_outcome(scenario)


# -- as_strided's backward ----------------------------------------------------------------------

@pytest.mark.parametrize("geometry", [((2,), (1,), 1), ((1, 2), (0, 0), 2), ((0, 1), (2, 1), 1)])
def test_as_strided_backward_version(geometry):
    same_outcome(lambda T: _grad_versions(T, lambda T, x: x.as_strided(*geometry)))


def test_regenerated_as_strided_backward_version():
    """A view whose base changed in place through a detached alias: AsStridedBackward0."""
    def scenario(T):
        x = T.arange(1., 5.).requires_grad_()
        v = x.t()
        x.detach()[1] = 5.0
        (g,) = T.autograd.grad(v.sum(), x)
        return type(v.grad_fn).__name__, g, g._version
    same_outcome(scenario)


@st.composite
def leaves(draw):
    """(shape, layout) of a leaf (no broadcast dim) and of a broadcasting partner."""
    shape = tuple(draw(st.lists(st.sampled_from([1, 1, 2, 3]), min_size=1, max_size=4)))
    lay = draw(layouts(shape, broadcast=False))
    k = draw(st.integers(0, len(shape)))
    other = tuple(1 if draw(st.booleans()) else n for n in shape[len(shape) - k:])
    return (shape, lay), (other, draw(layouts(other)))


BACKWARD = {
    "sum": lambda x, y: x.sum(),
    "mul": lambda x, y: (x * x).sum(),
    "broadcast": lambda x, y: (x * y).sum(),
    "expand": lambda x, y: x.expand(2, *x.shape).sum(),
    "two_paths": lambda x, y: (x.exp() + x.sin()).sum(),
    "reshape": lambda x, y: x.reshape(-1).sum(),
}


@settings(max_examples=HYPOTHESIS_EXAMPLES * 3, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(pair=leaves(), name=st.sampled_from(sorted(BACKWARD)))
def test_grad_strides_and_versions_are_torchs(pair, name):
    """A leaf laid out any way (odd strides of size-1 dims): its .grad (AccumulateGrad's layout
    contract, expand's and sum_to_size's strides) and version are torch's."""
    def scenario(T):
        x, y = (_strided(T, s, lay).detach().requires_grad_() for s, lay in pair)
        BACKWARD[name](x, y).backward()
        return [(g, g._version) for g in (x.grad, y.grad) if g is not None]
    same_outcome(scenario)


# -- writing onto expanded memory ---------------------------------------------------------------

def test_copy_of_an_expanded_tensor_onto_itself():
    """torch's copy_ returns before its overlap check when the source is the same memory."""
    def scenario(T):
        x = T.arange(3.).expand(2, 3)
        x.copy_(x)
        x.copy_(x.view(2, 3))
        y = T.arange(3.).requires_grad_() * 1
        e = y.expand(2, 3)
        e.copy_(e)
        return x, x._version, type(e.grad_fn).__name__, y.grad_fn.name(), e._version
    same_outcome(scenario)


def test_copy_of_another_tensor_into_an_expanded_one_is_refused():
    same_outcome(lambda T: T.arange(3.).expand(2, 3).copy_(T.ones(2, 3)))


def test_backward_through_a_write_into_an_expand():
    """A zero_ through an expanded view of a tensor requiring grad: torch's CopySlices copies
    the gradient into the expanded view of the base's gradient and refuses."""
    def scenario(T):
        x = T.arange(1., 4.).requires_grad_()
        y = x * 1
        y.expand(2, 3).zero_()
        (y * y).sum().backward()
        return x.grad
    same_outcome(scenario)


@pytest.mark.parametrize("select", [
    lambda x: x.sort(-1).values,
    lambda x: x.sort(0, descending=True).values,
    lambda x: x.topk(2, 1).values,
    lambda x: x.msort(),
], ids=["sort", "sort-descending", "topk", "msort"])
def test_value_selecting_backward_version_and_graph(select):
    """torch's sort/topk backward zeroes an empty tensor, then scatters in place: version 2,
    ScatterBackward0 under create_graph."""
    def scenario(T):
        x = T.tensor([[3., 1., 2.], [0., 5., 4.]]).requires_grad_()
        y = select(x)
        (g,) = T.autograd.grad((y * y).sum(), x, create_graph=True)
        (h,) = T.autograd.grad(g.sum(), x)
        (k,) = T.autograd.grad(select(x).sum(), x)
        return g, g._version, h, h._version, k, k._version
    same_outcome(scenario)


def test_masked_fill_through_an_expand_then_backward():
    """The base's CopySlices refuses only when the base's own gradient is wanted."""
    def scenario(T, base_requires_grad):
        x = T.zeros(3, requires_grad=base_requires_grad) * 1
        w = T.tensor(2., requires_grad=True)
        x.expand(2, 3).masked_fill_(T.tensor([True, False, False]), w)
        x.sum().backward()
        return w.grad
    same_outcome(lambda T: scenario(T, False))  # (both silences the deprecation warnings)
    same_outcome(lambda T: scenario(T, True))


# -- the strides of a squeezed tensor's gradient ------------------------------------------------

@pytest.mark.parametrize("squeeze", [
    lambda x: x.squeeze(),
    lambda x: x.squeeze(0),
    lambda x: x.squeeze(-1),
    lambda x: x.squeeze((0, 2)),
    lambda x: (x * 1).squeeze_(),
    lambda x: (x * 1).squeeze_(3),
], ids=["all", "dim0", "dim-1", "dims", "in-place", "in-place-dim"])
def test_squeeze_backward_unsqueezes(squeeze):
    """torch's squeeze backward unsqueezes the expanded gradient dim by dim (unsqueeze's
    strides, not reshape's), and records UnsqueezeBackward0 under create_graph."""
    def scenario(T):
        x = T.arange(3.).reshape(1, 3, 1, 1).requires_grad_()
        (g,) = T.autograd.grad(squeeze(x).sum(), x)
        (h,) = T.autograd.grad((squeeze(x) ** 2).sum(), x, create_graph=True)
        return g, h
    same_outcome(scenario)


# -- in-place writes into views that overlap themselves -----------------------------------------

@pytest.mark.parametrize("code", [
    "x.unfold(0, 2, 1).add_(1.5)", "x.unfold(0, 2, 1).mul_(0.5)", "x.unfold(0, 3, 1).exp_()",
    "x.unfold(0, 3, 2).sub_(0.25, alpha=3)", "x.unfold(0, 2, 1).clamp_(0.2, 3)",
    "x.unfold(0, 2, 1).add_(T.arange(10.).reshape(5, 2))",
    "x.unfold(0, 2, 1).mul_(T.tensor([2., 3.]))", "y.unfold(1, 2, 1).add_(1)",
    "y.unfold(0, 2, 1).mul_(1.5)", "y.t().unfold(0, 2, 1).add_(1)", "x.unfold(0, 2, 1).neg_()",
    "x.unfold(0, 2, 1).div_(T.tensor(2.0))", "x.unfold(0, 2, 1).pow_(2)",
    "x.unfold(0, 2, 1).add_(T.ones(5, 2, dtype=T.float64))", "i.unfold(0, 2, 1).add_(3)",
    "x.unfold(0, 2, 1).t().add_(1)", "x.unfold(0, 2, 1).fill_(3.)", "x.unfold(0, 4, 3).add_(1)",
])
def test_writes_into_self_overlapping_views(code):
    """A location an unfolded view shows twice is updated twice, the second time from the first
    result (Note [writing into overlapping memory]); an operand of another dtype goes through
    a temporary (once)."""
    def fn(T):
        x, i = T.arange(6.) * 0.7 + 0.3, T.arange(6)
        y = T.arange(12.).reshape(3, 4) * 0.3 + 0.1
        out = eval(code, {"T": T, "x": x, "y": y, "i": i})  # noqa: S307 - fixed test code
        return x, y, i, out._version
    same_outcome(fn)
