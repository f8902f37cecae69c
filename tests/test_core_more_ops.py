"""round, rsqrt, log1p, expm1, sort, topk, repeat, norm, masked_fill and ``Tensor.type`` beyond
the op table (tests/test_core_ops.py): named tuples, ties and NaN in sorting, half-to-even,
gradients at a zero norm; and Note [float32 transcendentals]: how often float32 exp & co. give
torch's bits.
"""

import numpy as np
import pytest
import torch
from _oracle import same_outcome

import doctensor

# -- Note [float32 transcendentals] --------------------------------------------------------------

# (op, low, high, most elements allowed to differ from torch's).  NumPy's float32 loops differed
# in exp 39%, tanh 33%, sigmoid 28%, cos 19%, sin 16%, expm1 12%, log1p 8%, log 4.7%; through
# float64 it is exp 1.0%, tanh 0.2%, sigmoid 4.0%, cos 5.0%, sin 4.9%, expm1 0.15%, log1p 0.4%,
# log 3.3% (python -m benchmarks.ulps).  The bounds leave room for another CPU's torch kernels.
RATES = [("exp", -10, 10, 0.05), ("tanh", -5, 5, 0.05), ("sigmoid", -10, 10, 0.10),
         ("cos", -10, 10, 0.10), ("sin", -10, 10, 0.10), ("expm1", -3, 3, 0.03),
         ("log1p", 0, 10, 0.03), ("log", 1e-3, 100, 0.04)]


@pytest.mark.parametrize("name,low,high,bound", RATES, ids=[r[0] for r in RATES])
def test_float32_transcendentals_mostly_match_torch_bits(name, low, high, bound):
    x = np.random.default_rng(1234).uniform(low, high, 20_000).astype(np.float32)
    ours = getattr(doctensor, name)(doctensor.from_numpy(x)).numpy()
    theirs = getattr(torch, name)(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=3e-7, atol=0)  # within an ulp or two
    rate = float(np.mean(ours != theirs))
    assert rate <= bound, f"{name}: {rate:.2%} of elements differ from torch's (bound {bound:.0%})"


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_transcendentals_print_like_torch(dtype):
    def scenario(T):
        dt = getattr(T, dtype)
        x = T.tensor([1.0, 2.0, 3.0], dtype=dt)
        return [repr(x.exp()), repr(T.tensor([-90.0, -20.0, 0.0, 20.0], dtype=dt).sigmoid()),
                repr(x.tanh().exp()), repr(T.tensor([0.5, 1.5], dtype=dt).expm1().log1p()),
                repr(T.tensor([-3.0, -2.0, 0.5, 2.0, 3.0], dtype=dt).exp().log())]

    same_outcome(scenario)


@pytest.mark.parametrize("dtype", [
    "float16", "float64",
    pytest.param("float32", marks=pytest.mark.xfail(strict=True, reason=(
        "exp(1.) is torch's bits now, but torch's (MKL's) float32 log(2.7182817) is 1.0 where "
        "the correctly rounded value, which doctensor gives, is 0.99999994")))])
def test_exp_log_of_one_two_prints_like_torch(dtype):
    def scenario(T):
        return repr(T.tensor([1.0, 2.0], dtype=getattr(T, dtype)).exp().log())

    same_outcome(scenario)


# -- the new ops ---------------------------------------------------------------------------------

def test_named_tuples_print_and_unpack_like_torch():
    def scenario(T):
        x = T.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], requires_grad=True)
        s, k = x.sort(), T.topk(x, 2)
        values, indices = s
        return [repr(s), repr(k), type(s).__name__, type(k).__module__, s.values is values,
                s[1] is indices, repr(T.sort(T.tensor(3.0)))]

    same_outcome(scenario)


def test_sort_is_stable_and_puts_nan_on_top():
    def scenario(T):
        x = T.tensor([1.0, float("nan"), 3.0, 2.0, 3.0, 1.0, -0.0, 0.0])
        ints = T.tensor([[1, 3, 3, 2, 3, 1], [0, 0, 1, 1, 0, 0]])
        return [x.sort(), x.sort(descending=True), T.argsort(x), ints.sort(), ints.sort(-1, True),
                ints.sort(dim=0, descending=True, stable=True), x.topk(1),
                T.tensor([True, False, True]).sort()]

    same_outcome(scenario)


def test_round_half_to_even_and_decimals():
    def scenario(T):
        x = T.tensor([0.5, 1.5, 2.5, -0.5, -2.5, 1.25, 1.35, 2.675, -12.5, 1e10 + 0.5],
                     dtype=T.float64)
        return [x.round(), x.round(decimals=1), x.round(decimals=2), T.round(x, decimals=-1),
                x.float().round(decimals=1), x.half().round(), T.tensor([7, -3]).round()]

    same_outcome(scenario)


@pytest.mark.parametrize("p", [2, 1, 3, 1.5, 0.5, 0, float("inf"), "fro"])
def test_norm_gradient_at_zero_and_double_backward(p):
    def scenario(T):
        z = T.zeros(3, requires_grad=True)
        z.norm(p).backward()
        x = T.tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]], dtype=T.float64, requires_grad=True)
        n = x.norm(p, dim=1)
        (g,) = T.autograd.grad(n.sum(), x, create_graph=True)
        out = [z.grad, n, g]
        if p in (2, 3, 1.5, "fro"):  # (elsewhere torch's second derivative is a ZeroTensor)
            (gg,) = T.autograd.grad(g.pow(2).sum(), x)
            out.append(gg)
        return out

    same_outcome(scenario, rtol=1e-12, atol=1e-12)


def test_norm_refusals():
    def scenario(T):
        out = []
        for fn in (lambda: T.tensor([1, 2]).norm(), lambda: T.zeros(0).norm(float("inf")),
                   lambda: T.zeros(2, 0).norm(float("inf"), dim=1),
                   lambda: T.zeros(2, 0).norm(float("inf"), dim=0),
                   lambda: T.ones(2).norm(p="foo"), lambda: T.ones(2, 2).norm(dim=(0, 0))):
            try:
                out.append(fn())
            except (RuntimeError, IndexError) as e:
                out.append(f"{type(e).__name__}: {e}")
        return out

    same_outcome(scenario)


def test_masked_fill_history_and_saved_mask():
    def scenario(T):
        x = T.tensor([1.0, -2.0, 3.0], requires_grad=True)
        v = T.tensor(0.25, requires_grad=True)
        mask = x > 0
        y = x.masked_fill(mask, v) * 2
        y.sum().backward()
        y2 = x.masked_fill(mask, 0.0)
        saved = y2.grad_fn._saved_mask
        try:
            x.masked_fill_(mask, 1.0)
        except RuntimeError as e:
            err = str(e)
        z = x * 1
        z.masked_fill_(~mask, -1.0)
        z.backward(T.ones(3))
        return [x.grad, v.grad, saved, saved._version, err, repr(y), repr(z), x.grad]

    same_outcome(scenario)


def test_repeat_backward_sums_the_copies():
    def scenario(T):
        x = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        y = x.repeat(2, 2, 1)
        y.backward(T.arange(24.0).reshape(2, 2, 3))
        return [y, x.grad, T.tensor(5.0).repeat(2, 3), x.detach().repeat(0, 1)]

    same_outcome(scenario)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int16", "int32",
                                   "int64", "uint8", "bool"])
def test_type_names_and_conversions(dtype):
    def scenario(T):
        x = T.ones(2, dtype=getattr(T, dtype))
        name = x.type()
        return [name, x.type(name) is x, x.type("torch.DoubleTensor"), x.type(T.int32)]

    same_outcome(scenario)


# -- clamp_min/max, fmod, remainder, floor_divide, nan_to_num, isclose, count_nonzero, outer --

EXTRAS = {
    "clamp_min_max": lambda T, x, v: [x.clamp_min(0), x.clamp_max(0), T.clamp_min(x, 1),
                                      T.clamp_max(x, 1), T.tensor([1, 2]).clamp_min(1.5)],
    "fmod_remainder": lambda T, x, v: [T.fmod(x, 2.0), T.fmod(T.tensor([-5, 5]), 3),
                                       T.remainder(x, 2.0), x % -1.5, T.remainder(x, -2.0),
                                       T.floor_divide(T.tensor([5, -5]), 2)],
    "nan_to_num": lambda T, x, v: [T.nan_to_num(x), x.nan_to_num(1.0, 2.0, -2.0),
                                   T.nan_to_num(T.tensor([1, 2]))],
    "isclose": lambda T, x, v: [T.isclose(x, x), T.isclose(x, x, equal_nan=True),
                                T.isclose(T.tensor([1.0, 1.00001]), T.tensor([1.0, 1.0])),
                                x.isclose(x + 1e-9, rtol=0, atol=0)],
    "count_nonzero": lambda T, x, v: [T.count_nonzero(x), T.count_nonzero(x, 1),
                                      x.count_nonzero(dim=0)],
    "where_one_argument": lambda T, x, v: T.where(T.tensor([[True, False], [False, True]])),
    "outer": lambda T, x, v: [T.outer(v, v), T.outer(v, T.arange(3.0))],
    "in_place": lambda T, x, v: [(y := x.detach().clone()).clamp_min_(0), y._version,
                                 y.clamp_max_(2), y.fmod_(1.5), y.nan_to_num_(7.0), y._version],
}


@pytest.mark.parametrize("name", sorted(EXTRAS))
def test_more_pointwise_functions(name):
    def scenario(T):
        x = T.tensor([[1.0, -2.0, 3.0], [-4.0, float("nan"), -float("inf")]], requires_grad=True)
        v = T.tensor([1.0, 2.0], requires_grad=True)
        out = EXTRAS[name](T, x, v)
        outs = out if isinstance(out, (list, tuple)) else [out]
        graded = [o for o in outs if isinstance(o, T.Tensor) and o.grad_fn is not None]
        if graded:
            T.autograd.backward(graded, [T.ones_like(o) for o in graded])
        return out, [o.grad_fn.name() for o in graded], x.grad, v.grad
    same_outcome(scenario)


@pytest.mark.parametrize("values", [[1.0, float("nan"), 3.0], [2.0, 5.0, 5.0],
                                    [3.0, 1.0, 2.0, 4.0]])
def test_max_min_median_of_all_share_the_gradient_like_torch(values):
    """Ties share it evenly; a NaN result sends it to the NaN inputs (it was lost)."""
    def scenario(T):
        out = []
        for op in ("max", "min", "median"):
            x = T.tensor(values, requires_grad=True)
            y = getattr(x, op)()
            y.backward()
            out += [y, x.grad, y.grad_fn.name()]
        return out
    same_outcome(scenario)


def test_median_along_a_dim():
    def scenario(T):
        x = T.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
        v, i = x.median(1)
        v.sum().backward()
        return [v, i, x.grad, v.grad_fn.name(), x.detach().median(dim=0, keepdim=True),
                T.median(T.tensor([3, 1, 2])), T.tensor([]).median(),
                T.tensor([[1.0, float("nan"), 3.0]]).median(1), T.tensor(4.0).median(0)]
    same_outcome(scenario)


def test_cumprod_values_gradients_and_second_derivatives():
    def scenario(T):
        x = T.tensor([[1.0, 2.0, 0.0, 4.0], [0.5, -1.0, 3.0, 0.0]], requires_grad=True)
        y = x.cumprod(1)
        y.backward(T.tensor([[1.0, 2.0, 3.0, 4.0], [1.0, -1.0, 2.0, 5.0]]))  # through zeros
        x4 = T.tensor([1.1, 0.7, 1.3, 0.9], requires_grad=True)
        g, = T.autograd.grad(x4.cumprod(0).sum(), x4, create_graph=True)
        h, = T.autograd.grad(g.sum(), x4)
        return [y, y.grad_fn.name(), x.grad, g, g.grad_fn.name(), h,
                T.tensor([1, 2, 3]).cumprod(0), T.tensor([True, True]).cumprod(0),
                T.cumprod(T.tensor([2.0, 3.0]), 0, dtype=T.float64), T.tensor(3.0).cumprod(0)]
    same_outcome(scenario)


def test_cumprod_double_backward_through_zeros_is_refused():
    x = doctensor.tensor([2.0, 0.0, 3.0], requires_grad=True)
    with pytest.raises(NotImplementedError, match="cumprod through zeros"):
        doctensor.autograd.grad(x.cumprod(0).sum(), x, create_graph=True)


@pytest.mark.parametrize("name", ["erf", "erfc", "atan2", "atan2_in_place", "erf_int"])
def test_erf_erfc_atan2_like_torch(name):
    """Values within float32 round-off (torch's vectorised erf/erfc are not correctly
    rounded; doctensor's are), gradients, grad_fn names, the origin and infinities."""
    def fn(T):
        x = T.tensor([-3.0, -0.5, 0.0, 0.3, 2.0, float("inf"), -float("inf"), float("nan"),
                      -0.0, 1e-20], requires_grad=True)
        y = T.tensor([1.0, -2.0, 0.0, -0.0, 3.0, 1.0, float("inf"), 1.0, -0.0, 0.0],
                     requires_grad=True)
        out = {"erf": lambda: x.erf(), "erfc": lambda: T.erfc(x),
               "atan2": lambda: T.atan2(x, y),
               "atan2_in_place": lambda: (x * 1).atan2_(y),
               "erf_int": lambda: T.erf(T.tensor([1, 2]))}[name]()
        if out.requires_grad:
            out.backward(T.ones_like(out))
        return out, x.grad, y.grad
    same_outcome(fn, rtol=2e-7, atol=1e-7, reprs=False)
