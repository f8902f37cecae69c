"""Differences the differential fuzzer (tests/test_fuzz_programs.py) found in matrix products,
reductions of empty tensors and indexing, each checked against torch 2.13 (tests/_oracle.py):
errors word for word in torch's order of checks, results with their strides, grad_fn nodes
and gradients."""

import numpy as np
import pytest
from _oracle import outcome, same_outcome


def _graph(t):
    """The names of ``t``'s backward nodes, depth first (torch's paths show in its graph)."""
    names, todo = [], [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None:
            names.append(type(fn).__name__)
            todo.extend(f for f, _ in reversed(fn.next_functions))
    return names


def _leaf(T, shape, dtype="float32", grad=False, seed=0):
    values = np.random.default_rng(seed).uniform(-2, 2, shape).astype(dtype)
    return T.tensor(values, requires_grad=grad and dtype.startswith("float"))


# -- mv and dot: torch's order of checks --------------------------------------------------------

@pytest.mark.parametrize("code", [
    "T.zeros(()).mv(T.zeros(3))", "T.zeros(()).mv(T.zeros(()))",
    "T.zeros((), requires_grad=True).mv(T.zeros(4, dtype=T.float64))",
    "T.zeros(3).mv(T.zeros(()))", "T.zeros(2, 3).mv(T.zeros(4, dtype=T.float64))",
    "T.zeros(3).dot(T.zeros(2, dtype=T.int64))", "T.zeros(3).vdot(T.zeros(2, dtype=T.int64))",
    "T.zeros(()).dot(T.zeros(2, dtype=T.int64))", "T.zeros(3).dot(T.zeros(2))",
])
def test_mv_dot_check_order(code):
    same_outcome(lambda T: eval(code, {"T": T}))  # noqa: S307 - fixed test code


# -- matmul: every path (dot, mv, mm, folded mm / mv, broadcast bmm) ----------------------------

# (shape of a, shape of b, how a is laid out: "" as made, "t01" transposed in dims 0 and 1,
# "t12" in dims 1 and 2, "x" expanded to a leading batch of 3)
PRODUCTS = [
    ((3,), (2, 3, 5), ""), ((4,), (2, 4, 5), ""), ((2, 4, 5), (5,), ""), ((2, 4, 5), (3,), ""),
    ((2, 4, 5), (5,), "t01"), ((2, 4, 5), (3,), "t01"), ((2, 4, 5), (4,), "t12"),
    ((2, 4, 5), (5, 6), ""), ((2, 4, 5), (3, 6), ""), ((2, 4, 5), (5, 6), "t01"),
    ((2, 4, 5), (3, 6), "t01"), ((2, 4, 5), (5, 6), "x"), ((6, 4), (2, 4, 5), ""),
    ((6, 3), (2, 4, 5), ""), ((2, 4, 5), (2, 5, 6), ""), ((2, 4, 5), (2, 3, 6), ""),
    ((1, 4, 5), (2, 5, 6), ""), ((2, 4, 5), (1, 5, 6), ""), ((1, 4, 5), (2, 3, 6), ""),
    ((3, 1, 4, 5), (2, 5, 6), ""), ((2, 3, 4, 5), (3, 5, 6), ""), ((2, 3, 4, 5), (5,), "t01"),
    ((2, 4, 0), (0, 6), ""), ((0, 2, 4), (4,), ""), ((5,), (3, 2, 5, 4), "t01"),
    ((2, 4, 5), (3, 5, 6), ""), ((4,), (2, 4, 5), "t01"),
]


def _layout(t, how):
    return {"": t, "t01": t.transpose(0, 1) if t.dim() > 2 else t,
            "t12": t.transpose(1, 2) if t.dim() > 2 else t,
            "x": t.expand(3, *t.shape)}[how]


@pytest.mark.parametrize("grads", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("sa, sb, how", PRODUCTS)
def test_matmul_paths(sa, sb, how, grads):
    """Result (strides, grad_fn, its graph) or error, and gradients, of every matmul path."""
    def fn(T):
        a, b = _leaf(T, sa, grad=grads[0]), _leaf(T, sb, grad=grads[1], seed=1)
        out = T.matmul(_layout(a, how), b)
        graph = _graph(out)
        if out.requires_grad:
            out.backward(T.ones_like(out))
        return out, graph, {"grads": (a.grad, b.grad)}  # (empty ones: strides not compared)
    same_outcome(fn, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("sa, sb, how", PRODUCTS[::2])
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"),
                                    ("int64", "float32"), ("float32", "int64")])
def test_matmul_dtype_mismatch(sa, sb, how, dtypes):
    """The message of each path's dtype check (mv's, mm's, bmm's), in its order."""
    for grads in ((False, False), (True, False), (False, True)):
        same_outcome(lambda T, g=grads: T.matmul(
            _layout(_leaf(T, sa, dtypes[0], g[0]), how), _leaf(T, sb, dtypes[1], g[1])))


# -- reductions of empty and 0-d tensors: torch's errors, no NumPy's ----------------------------

@pytest.mark.parametrize("code", [
    "T.zeros(0).max(0)", "T.zeros(0).min(-1)", "T.zeros(2, 0).max(1, keepdim=True)",
    "T.zeros(2, 0).max(0)", "T.zeros(0, 3).min(1)", "T.zeros(2, 0, dtype=T.int64).max(1)",
    "T.zeros(2, 0, dtype=T.bool).max(1)", "T.zeros(0).argmax()", "T.zeros(2, 0).argmin()",
    "T.zeros(2, 0).argmax(keepdim=True)", "T.zeros(0).argmax(0)", "T.zeros(2, 0).argmin(1)",
    "T.zeros(2, 0).argmax(0)", "T.zeros(0, dtype=T.bool).argmax()", "T.zeros(2, 0).amax(-1)",
    "T.zeros(2, 0).aminmax(dim=1)", "T.max(T.zeros(2, 0), dim=1)", "T.zeros(()).max(0)",
    "T.zeros(()).argmax(0)", "T.zeros(()).all(0)", "T.zeros(()).any(-1)", "T.ones(()).all(1)",
    "T.zeros(()).norm(dim=1)", "T.zeros(()).norm(dim=0)", "T.zeros(()).norm(dim=-2)",
    "T.zeros(()).cummax(1)", "T.zeros(()).cummin(-2)", "T.zeros((), dtype=T.bool).cummax(3)",
    "T.zeros(()).cummax(-1)", "T.zeros(2, 0).cummax(5)", "T.zeros(0).cummin(-3)",
    "T.zeros(2, 3).cummax(2)",
])
def test_empty_and_0d_reductions(code):
    same_outcome(lambda T: eval(code, {"T": T}))  # noqa: S307 - fixed test code


@pytest.mark.parametrize("call", ["x.prod(0)", "x.prod(-1, keepdim=True)", "x.prod()"])
@pytest.mark.parametrize("value", [1.5, 0.0])
def test_prod_backward_of_0d(call, value):
    """torch passes a 0-d input's gradient through: the gradient of that gradient is then
    refused (it does not depend on the input)."""
    def fn(T):
        x = T.tensor(value, requires_grad=True)
        g, = T.autograd.grad(eval(call, {"x": x}), x, create_graph=True)  # noqa: S307
        second = outcome(lambda T: T.autograd.grad(g, x), T)
        return g, second
    same_outcome(fn)


# -- indexing: torch's dim pointer (each '...'), booleans, its messages -------------------------

@pytest.mark.parametrize("index", [
    "..., ..., [0, 1]", "..., [0, 1], ...", "0, ..., [0], ...", "..., 0, [0], ...",
    "..., None, [0], ...", "..., None, ..., [0, 1]", "..., [0], ..., [1]", "..., ..., ..., [0]",
    "..., ..., 0", "..., ..., T.ones(3, 4, dtype=T.bool)",
    "..., ..., ..., T.ones(3, 4, dtype=T.bool)",
    "True", "False", "True, 0", "0, True", "..., True", "None, True", "True, [0, 1]",
    "[0, 1], True, [1, 2]", "[0, 1], False, [1, 2]", "True, 1:, [1, 2]", "True, True",
    "T.tensor(True), 0", "T.tensor(False), 0", "0, T.tensor(True), [0]", "[3], True",
    "[0, 1], [0, 1, 2]", "..., ..., 0:", "..., ..., 1:", "..., ..., ::2", "..., 0, ..., 1:",
])
@pytest.mark.parametrize("shape", [(2, 3, 4), (3, 4)])
def test_index_dims(index, shape):
    """Get and set through an index, with the result's graph: torch's applySlicing moves its
    dim pointer by ``ndim - (dims named)`` at every '...', a boolean adds a dim."""
    def get(T):
        x = _leaf(T, shape, grad=True)
        out = eval(f"x[{index}]", {"T": T, "x": x})  # noqa: S307 - fixed test code
        return out, _graph(out)

    def put(T):
        x = _leaf(T, shape, grad=True).clone()
        exec(f"x[{index}] = 0.5", {"T": T, "x": x})  # noqa: S102 - fixed test code
        return x, _graph(x)
    same_outcome(get)
    same_outcome(put)


@pytest.mark.parametrize("code", [
    "T.zeros(()).__getitem__((0,))", "T.zeros(()).__getitem__((..., 0))",
    "T.zeros(()).__getitem__(0)", "T.zeros(()).__getitem__(T.tensor(0))",
    "T.zeros(()).__getitem__([0, 2])", "T.zeros(()).__getitem__(True)",
    "T.zeros(()).__getitem__((..., False))", "T.zeros(()).__getitem__(T.tensor(1, dtype=T.uint8))",
    "T.zeros(3, 4).index_put_((T.tensor([0, 1]), T.tensor([0, 1, 2])), T.tensor(1.0))",
    "T.zeros(3, 4).index_put_((T.tensor([True, False, True]), T.tensor([0, 1])), T.tensor(1.))",
    "T.zeros(3, 4).index_put_((T.tensor([0]), T.tensor([0]), T.tensor([0])), T.tensor(1.0))",
    "T.zeros(3, 4).__setitem__((..., ..., [0, 1]), T.ones(2, dtype=T.float64))",
    # autograd's checks come before index_put_ counts the index tensors
    "T.zeros(3, 4, requires_grad=True).__setitem__((..., ..., [0, 2]), 0.5)",
    "T.zeros(3, 4, requires_grad=True)[1:].__setitem__((..., ..., [0, 2]), 0.5)",
    "T.zeros(3, 4).__setitem__((..., ..., [0, 2]), T.ones((), requires_grad=True))",
    "T.zeros(3, 4, dtype=T.int64).__setitem__((..., ..., [0, 2]), T.ones((), requires_grad=True))",
    "T.zeros(3, 4).expand(2, 3, 4).__setitem__((..., ..., ..., [0, 2]), 0.5)",
])
def test_index_errors(code):
    same_outcome(lambda T: eval(code, {"T": T}))  # noqa: S307 - fixed test code


@pytest.mark.parametrize("code", [
    "T.tensor([1, 2]).bincount(minlength=-1)", "T.tensor([[1, 2]]).bincount(minlength=-1)",
    "T.tensor([1, 2]).bincount(T.ones(3))", "T.tensor([1, 2]).bincount(T.ones(2, 1))",
    "T.tensor([1, -2]).bincount(T.ones(3))", "T.tensor([], dtype=T.int64).bincount(T.ones(3))",
    "T.tensor([], dtype=T.int64).bincount(T.ones(0, dtype=T.float64), minlength=2)",
    "T.tensor([True, False]).bincount()", "T.tensor([1., 2.]).bincount(minlength=-1)",
])
def test_bincount_checks(code):
    """torch's checks in its order, none of NumPy's messages; an empty input counts in int64."""
    same_outcome(lambda T: eval(code, {"T": T}))  # noqa: S307 - fixed test code


# -- the gradients of picking ops: torch's formulas write in place ------------------------------

PICKS = {
    "max_dim": "x.max(1).values", "max_dim_keepdim": "x.max(1, keepdim=True).values",
    "min_dim": "x.min(0)[0]", "max": "x.max()", "min": "x.min()", "median": "x.median()",
    "median_dim": "x.median(1).values", "kthvalue": "x.kthvalue(1, 1).values",
    "mode": "x.mode(1).values", "nanmedian_dim": "x.nanmedian(1).values",
    "cummax": "x.cummax(1).values", "cummin_0d": "x[0, 0].cummin(0).values",
    "gather": "x.gather(1, x.argmax(1, keepdim=True))", "index_select": "x.index_select(1, "
    "x.argmax(1))", "index": "x[[0, 1]]", "max_0d": "x[0, 0].max(0).values",
}


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("name", sorted(PICKS))
def test_pick_gradients(name, create_graph):
    """The gradient's ``_version`` (torch's at::zeros then ``scatter_``: 2; ``new_zeros`` then
    ``masked_fill_``, ``scatter_add_`` or ``index_put_``: 1) and, with a graph, its nodes."""
    def fn(T):
        x = _leaf(T, (3, 4), grad=True)
        y = eval(PICKS[name], {"x": x})  # noqa: S307 - fixed test code
        g, = T.autograd.grad(y, x, T.ones_like(y, requires_grad=create_graph),
                             create_graph=create_graph)
        return g, g._version, _graph(g)
    same_outcome(fn)


@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_cummax_gradient_of_empty(shape):
    """torch's cummax / cummin formula returns an empty input itself as its gradient."""
    def fn(T):
        x = T.zeros(shape, requires_grad=True)
        x.cummax(0).values.sum().backward()
        y = T.zeros(shape, requires_grad=True) + 0
        g, = T.autograd.grad(y.cummin(-1)[0].sum(), y)
        return x.grad, x.grad is x, g is y, sorted(
            a for a in dir(y.cummin(0).values.grad_fn) if a.startswith("_saved"))
    same_outcome(fn)


@pytest.mark.parametrize("code", ["T.maximum(x, x)", "T.minimum(x, y)", "T.maximum(x, y[0])",
                                  "T.minimum(x[:, :1], y)"])
@pytest.mark.parametrize("create_graph", [False, True])
def test_maximum_minimum_gradients(code, create_graph):
    """torch's formula: ``where(a == b, grad / 2, grad).masked_fill_(loses, 0)`` (version 1;
    two contributions to one input then add in place: version 2)."""
    def fn(T):
        x, y = _leaf(T, (3, 4), grad=True), _leaf(T, (3, 4), grad=True, seed=1)
        y = y.detach().masked_fill_(y > 0, 0.5).requires_grad_()  # (ties with x's 0.5s)
        x = x.detach().masked_fill_(x > 0, 0.5).requires_grad_()
        out = eval(code, {"T": T, "x": x, "y": y})  # noqa: S307 - fixed test code
        grads = T.autograd.grad(out, (x, y), T.ones_like(out, requires_grad=create_graph),
                                create_graph=create_graph, allow_unused=True)
        return [(g, g._version, _graph(g)) if g is not None else None for g in grads]
    same_outcome(fn)


@pytest.mark.parametrize("code", [
    "x.std(1)", "x.std()", "x.std(0, keepdim=True)", "x[0].std(0, correction=4)",
    "x.std((0, 1))", "x[0, 0].std(0, correction=0)", "x[:, :1].std(1)", "x.var(1)", "x.var()",
    "x.var(1, correction=4)", "x[0].var(correction=4)", "x[0].var(0)",
    "x.std((0, 1), keepdim=True)", "x.var_mean(1)[0]", "x.std_mean()[0]",
])
@pytest.mark.parametrize("constant", [False, True])
def test_var_std_gradients(code, constant):
    """torch's var_backward and std_backward, values (a constant row's std: 0, not NaN; no
    degree of freedom left: inf, NaN at the mean) and graph."""
    def fn(T):
        x = _leaf(T, (3, 4), "float64", grad=True)
        if constant:
            x = T.ones(3, 4, dtype=T.float64, requires_grad=True)
        y = eval(code, {"x": x})  # noqa: S307 - fixed test code
        g, = T.autograd.grad(y, x, T.ones_like(y, requires_grad=True), create_graph=True)
        return g, _graph(g)
    same_outcome(fn)


@pytest.mark.parametrize("index, shape", [
    ("slice(None), [0, 2]", (1, 1, 3, 2)), ("slice(None), [0, 2]", (1, 3, 1)),
    ("slice(None), [0, 2]", (1, 4)), ("[0, 2]", (1, 1, 4)), ("[0, 2]", (1, 1, 3)),
    ("T.tensor([True, False, True])", (1, 1, 4)), ("T.tensor([True, False, True])", (1, 5)),
    ("None, [0, 2]", (1, 4)), ("[0, 2]", (1, 1, 1)),
])
def test_setitem_value_leading_ones(index, shape):
    """torch's set_item views the value without its leading 1-dims first (its shape in the
    'shape mismatch' message too), as its copy_to does for a basic index."""
    def fn(T):
        x = _leaf(T, (3, 4), grad=True).clone()
        v = _leaf(T, shape, grad=True, seed=1)
        exec(f"x[{index}] = v", {"T": T, "x": x, "v": v})  # noqa: S102 - fixed test code
        return x, _graph(x)
    same_outcome(fn)


@pytest.mark.parametrize("code", ["x.prod(0)", "x.prod()", "x.cummax(0).values"])
@pytest.mark.parametrize("shape", [(), (0,), (3,)])
def test_saved_tensors_checked_first(code, shape):
    """A formula that returns early (a 0-d or empty input) still unpacks what its node saved
    first, so an in-place edit of it is refused as torch refuses it."""
    def fn(T):
        x = T.ones(shape, dtype=T.float64, requires_grad=True) * 1
        y = eval(code, {"x": x})  # noqa: S307 - fixed test code
        x.mul_(2)
        y.sum().backward()
        return y
    same_outcome(fn)


@pytest.mark.xfail(strict=True, reason="torch's index_put_ kernel writes the elements before an "
                   "index out of range, then raises; doctensor checks first and writes nothing "
                   "(an error leaves every tensor unchanged)")
def test_setitem_out_of_range_writes_nothing():
    def fn(T):
        x = T.zeros(3, 1)
        error = outcome(lambda T: x.__setitem__((slice(1, None), [0, 2]), 0.5), T)
        return error, x
    same_outcome(fn)


@pytest.mark.parametrize("code", ["x.std(-1)", "x.prod(1)", "x.max()", "x.cummax(1).values"])
def test_saved_tensors_unpacked_in_torchs_order(code):
    """With both the input and the result edited in place, torch's error names the input
    (unpacked first)."""
    def fn(T):
        x = _leaf(T, (1, 3), grad=True)
        y = eval(code, {"x": x})  # noqa: S307 - fixed test code
        y.clamp_(-1, 1)
        x.detach().exp_()
        y.sum().backward()
    same_outcome(fn)


@pytest.mark.parametrize("index", ["None, 1:1, [2, 1]", "1:1, [5]", "T.zeros(3, dtype=T.bool), 0"])
def test_setitem_picking_nothing_backward(index):
    """An index that picks no element is never checked (torch's kernel iterates nothing), in
    the backward of the write either."""
    def fn(T):
        x = _leaf(T, (3, 1), grad=True).sum(-1, keepdim=True)
        exec(f"x[{index}] = 0.5", {"T": T, "x": x})  # noqa: S102 - fixed test code
        x.sum().backward()
        return x
    same_outcome(fn)


@pytest.mark.parametrize("code, shapes", [
    ("T.maximum(a, b)", [(2, 2), (3, 1, 2)]), ("T.minimum(a, b)", [(2, 2), (3, 1, 2)]),
    ("T.fmax(a, b)", [(2, 2), (3, 1, 2)]), ("T.atan2(a, b)", [(2, 2), (3, 1, 2)]),
    ("T.hypot(a, b)", [(2, 2), (3, 1, 2)]), ("T.xlogy(a, b)", [(2, 2), (3, 1, 2)]),
    ("T.remainder(a, b)", [(2, 2), (3, 1, 2)]), ("T.fmod(a, b)", [(2, 2), (3, 1, 2)]),
    ("T.logaddexp(a, b)", [(2, 2), (3, 1, 2)]), ("a ** b", [(2, 2), (3, 1, 2)]),
    ("T.dist(a, b)", [(2, 2), (3, 1, 2)]), ("a * b", [(2, 2), (3, 1, 2)]),
    ("T.mm(a, b)", [(2, 3), (3, 4)]), ("T.mv(a, b)", [(3, 3), (3,)]),
    ("T.bmm(a, b)", [(2, 2, 3), (2, 3, 4)]), ("T.cdist(a, b)", [(2, 3), (4, 3)]),
    ("T.lerp(a, b, c)", [(2,), (3, 1), (4, 1, 1)]),
    ("T.addcmul(a, b, c)", [(2,), (3, 1), (4, 1, 1)]),
    ("T.clamp(a, b, c)", [(2,), (3, 1), (4, 1, 1)]),
])
def test_saved_inputs_unpacked_by_name(code, shapes):
    """With every saved input edited in place, torch's error names the first of them in the
    order of their names (its generated backward unpacks them so): ``other`` before
    ``self``, ``mat2`` before ``self``, ``end`` before ``self``."""
    def fn(T):
        names = "abc"[:len(shapes)]
        env = {n: _leaf(T, s, grad=True, seed=i) for i, (n, s) in enumerate(zip(names, shapes))}
        y = eval(code, {"T": T, **env})  # noqa: S307 - fixed test code
        with T.no_grad():
            for t in env.values():
                t.add_(1)
        y.sum().backward()
    same_outcome(fn)
