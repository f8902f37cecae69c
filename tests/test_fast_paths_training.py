"""The speed paths of issue 8's training step (W2) keep torch's semantics, bit for bit.

* Note [bracketed fma32] (_exact/fma.py): ``add_(g, alpha=a)`` on large float32 tensors (the
  SGD update) and ``uniform_`` decide most elements in float32 and redo the rest exactly.
* Note [gradient layouts of mm] (ops/linalg.py): mm and addmm give a transposed operand a
  transposed gradient, scale by ``alpha`` after the product, and in backward without
  create_graph multiply the arrays without view records.
* ``sum_to_size`` without history sums arrays and still returns torch's view.
"""

import numpy as np
import pytest
import torch

import doctensor
from doctensor._exact import fma as rm


def _bits(t):
    return np.ascontiguousarray(t.detach().numpy()).view(np.uint8)


# -- bracketed fma32 -------------------------------------------------------------------------

_SIGNIFICANDS = [1.0, 1.5, 1 + 2**-23, 2 - 2**-23, 1.2800000]


def _inputs(kind, rng, n=40_000):
    b = np.float32(rng.choice(_SIGNIFICANDS) * 2.0 ** rng.integers(-12, 12)
                   * rng.choice([-1, 1]))
    if kind == "sgd":  # gradients much smaller than the weights they update
        a = rng.standard_normal(n) * 1e-3
        c = rng.standard_normal(n) * 0.03
    elif kind == "boundary":  # a*b within a hair of half an ulp of c: the hard cases
        c = rng.standard_normal(n).astype(np.float32)
        ulp = np.spacing(np.abs(c)).astype(np.float64)
        a = ulp * (0.5 + rng.integers(-4, 5, n) * 2.0**-20) / float(b)
    elif kind == "ties":  # exact products halfway between two floats
        a = rng.integers(-2**12, 2**12, n).astype(np.float64)
        c = rng.integers(-2**24, 2**24, n) * 2.0 ** rng.integers(-4, 4)
        b = np.float32(rng.integers(1, 2**12) + 0.5)
    elif kind == "cancel":  # c close to -a*b
        a = rng.standard_normal(n)
        c = -(a.astype(np.float32) * np.float64(b)) * (1 + rng.standard_normal(n) * 2.0**-20)
    elif kind == "tiny":  # products that underflow, against tiny and zero c
        a = rng.standard_normal(n) * 2.0**-100
        c = rng.choice([0.0, -0.0, 1.0], n) * rng.standard_normal(n) * 2.0**-120
    else:  # zeros, infinities, NaN, overflow
        values = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 3e38, -3e38, 1e-45]
        a, c = rng.choice(values, n), rng.choice(values, n)
    return a.astype(np.float32), b, c.astype(np.float32)


@pytest.mark.parametrize("kind", ["sgd", "boundary", "ties", "cancel", "tiny", "special"])
def test_bracketed_fma32_is_the_exact_fma(kind):
    rng = np.random.default_rng(list(_SIGNIFICANDS).index(1.5) + len(kind))
    for _ in range(5):
        a, b, c = _inputs(kind, rng)
        assert rm._bracketable(a, b, c, a.shape)
        with np.errstate(all="ignore"):
            want = rm._fma32_exact(a, b, c, a.shape)
            got = rm._fma32_bracketed(a, b, c)  # (fma32 may leave the bracket to the sample)
            assert rm.fma32(a, b, c).tobytes() == want.tobytes()
        assert got.tobytes() == want.tobytes()


def test_bracket_is_tried_on_a_sample_first(monkeypatch):
    """fma32 takes the bracket where it decides nearly every element (c outweighs a * b, an SGD
    step) and the float64 way where it would leave most undecided (c zero: uniform_, an
    add_ with alpha into zeros), with the same bits."""
    calls = []
    bracketed = rm._fma32_bracketed
    monkeypatch.setattr(rm, "_fma32_bracketed", lambda *args: calls.append(1) or bracketed(*args))
    rng = np.random.default_rng(7)
    a, _, c = _inputs("sgd", rng)
    b = np.float32(-0.01)  # a learning rate: a * b is some 1e-5 against c's 0.03
    for cc, bracket in ((c, True), (np.zeros_like(c), False), (np.float32(0), False)):
        calls.clear()
        want = rm._fma32_exact(a, b, cc, a.shape)
        assert rm.fma32(a, b, cc).tobytes() == want.tobytes()
        assert calls == ([1] if bracket else [])


def test_bracketed_fma32_layouts():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((300, 200)).astype(np.float32).T  # Fortran order
    c = rng.standard_normal((200, 300)).astype(np.float32)
    for cc in (c, np.float32(0.25), c[:, ::-1]):
        got = rm.fma32(a, np.float32(-0.37), cc)
        assert got.flags.c_contiguous
        assert got.tobytes() == rm._fma32_exact(a, np.float32(-0.37), cc, a.shape).tobytes()


@pytest.mark.parametrize("threads", [1, 4])
def test_bracketed_fma32_into_c_and_on_threads(threads, monkeypatch):
    monkeypatch.setattr(rm, "THREADS", threads)  # Note [worker threads]: no effect on bits
    rng = np.random.default_rng(threads)
    for kind in ("sgd", "boundary", "special"):
        a, b, c = _inputs(kind, rng, n=300_000)
        a, c = a.reshape(600, 500), c.reshape(600, 500)
        with np.errstate(all="ignore"):
            want = rm._fma32_exact(a, b, c, a.shape).tobytes()
            assert rm._fma32_bracketed(a, b, c).tobytes() == want
            out = c.copy()
            assert rm._fma32_bracketed(a, b, out, out) is out and out.tobytes() == want
            out = c.copy()
            assert rm.fma32(a, b, out, out=out) is out and out.tobytes() == want


@pytest.mark.parametrize("case", ["alias", "view", "strided"])
def test_add_scaled_in_place_matches_torch(case):
    rng = np.random.default_rng(5)
    w0 = rng.standard_normal((400, 300), np.float32)
    g0 = rng.standard_normal((400, 300), np.float32) * 1e-3

    def run(lib):
        w, g = lib.tensor(w0), lib.tensor(g0)
        if case == "alias":  # the other operand is self
            w.add_(w, alpha=-0.01)
        elif case == "view":  # two halves of one buffer
            w[:200].add_(w[200:], alpha=0.37)
        else:  # a non-contiguous self
            w.t().add_(g.t(), alpha=-0.01)
        return w

    np.testing.assert_array_equal(_bits(run(doctensor)), _bits(run(torch)))


def test_sgd_steps_match_torch_bit_for_bit():
    rng = np.random.default_rng(0)  # the same gradients for both (BLAS results differ a bit)
    w0 = rng.standard_normal((512, 300), np.float32) * 0.05
    grads = [rng.standard_normal((512, 300), np.float32) * 10.0**-k for k in (2, 3, 4)]

    def train(lib):
        w = lib.tensor(w0, requires_grad=True)
        opt = lib.optim.SGD([w], lr=0.01)
        versions = []
        for g in grads:
            opt.zero_grad()
            w.grad = lib.tensor(g)
            opt.step()
            versions.append(w._version)
        return w, versions

    (dw, dv), (tw, tv) = train(doctensor), train(torch)
    np.testing.assert_array_equal(_bits(dw), _bits(tw))
    assert dv == tv


# -- mm / addmm backward ----------------------------------------------------------------------


@pytest.mark.parametrize("op", ["mm", "addmm"])
def test_transposed_operand_gets_transposed_gradient(op):
    rng = np.random.default_rng(1)
    xs, ws = rng.standard_normal((4, 3)), rng.standard_normal((5, 3))

    def run(lib):
        x = lib.tensor(xs, requires_grad=True)
        w = lib.tensor(ws, requires_grad=True)
        wt, xt = w.t(), x.t().t()
        seen = []
        wt.register_hook(lambda g: seen.append((g._is_view(), g.stride())))
        y = xt.mm(wt) if op == "mm" else lib.addmm(lib.ones(5, dtype=lib.float64), xt, wt)
        (y * y).sum().backward()
        return x.grad, w.grad, seen

    for d, t in zip(run(doctensor), run(torch), strict=True):
        if isinstance(t, list):
            assert d == t
        else:  # values within BLAS rounding (MKL and OpenBLAS sum in different orders)
            np.testing.assert_allclose(d.numpy(), t.numpy(), rtol=1e-12)
            assert d.stride() == t.stride()


def test_addmm_alpha_scales_after_the_product():
    """torch's maybe_multiply: (grad @ mat2.T) * alpha, not (grad * alpha) @ mat2.T (the two
    round differently; BLAS differences keep this a test of each library against itself)."""
    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in ((7,), (6, 9), (9, 7), (6, 7))]

    for lib in (doctensor, torch):
        c, a, b = (lib.tensor(v, requires_grad=True) for v in arrays[:3])
        g = lib.tensor(arrays[3])
        lib.addmm(c, a, b, beta=0.7, alpha=0.3).backward(g)
        with lib.no_grad():
            np.testing.assert_array_equal(_bits(a.grad), _bits(g.mm(b.t()) * 0.3))
            np.testing.assert_array_equal(_bits(b.grad), _bits(a.t().mm(g) * 0.3))
            np.testing.assert_allclose(c.grad.numpy(), (g * 0.7).sum(0).numpy(), rtol=1e-6)


def test_linear_double_backward_keeps_its_graph():
    rng = np.random.default_rng(4)
    xs, ws, bs = (rng.standard_normal(s) for s in ((3, 4), (2, 4), (2,)))

    def run(lib):
        x = lib.tensor(xs, requires_grad=True)
        w, b = lib.tensor(ws, requires_grad=True), lib.tensor(bs, requires_grad=True)
        y = lib.nn.functional.linear(x, w, b).tanh().sum()
        gw, gb = lib.autograd.grad(y, (w, b), create_graph=True)
        names = (type(gw.grad_fn).__name__, type(gb.grad_fn).__name__)
        ((gw * gw).sum() + (gb * gb).sum()).backward()
        return names, x.grad

    (dn, dx), (tn, tx) = run(doctensor), run(torch)
    assert dn == tn
    np.testing.assert_allclose(dx.numpy(), tx.numpy(), rtol=1e-12)


def test_broadcast_gradient_is_a_view_as_in_torch():
    def run(lib):
        b = lib.zeros(3, requires_grad=True) * 1
        seen = []
        b.register_hook(lambda g: seen.append((g._is_view(), g.is_contiguous())))
        (lib.ones(4, 3) + b).sum().backward()
        return seen

    assert run(doctensor) == run(torch)


def test_mm_saves_what_torch_saves():
    def saved(lib):
        a, b = lib.ones(2, 3, requires_grad=True), lib.ones(4, 3, requires_grad=True)
        g = a.mm(b.t()).grad_fn
        return (type(g).__name__, g._saved_self_sym_sizes, g._saved_self_sym_strides,
                g._saved_mat2_sym_sizes, g._saved_mat2_sym_strides)

    assert saved(doctensor) == saved(torch)
