"""The float32 oneDNN LSTM layer computed by hand (Note [LSTM by hand] in ``ops/fused.py``).

Its forward must be the composition's bit for bit: compared with the same model run under
``no_grad``, where the composition itself runs.  Its gradients are compared with torch
2.13's (oneDNN) on several shapes; they sum in another order than torch's kernel, so they
agree to rounding: rtol = atol = 1e-5 on the small shapes, atol = 1e-4 on the benchmark's
(35 steps, batch 20, hidden 128: sums of 700 products per weight element).
"""

import numpy as np
import pytest
from _oracle import assert_same, both, doctensor, same_outcome

SHAPES = {  # (steps, batch, input size, hidden size)
    "small": (5, 3, 4, 6),
    "one-step": (1, 1, 3, 5),
    "odd": (9, 4, 17, 33),
    "bench": (35, 20, 128, 128),
}
LAYOUTS = {
    "plain": {},
    "2-layers": {"num_layers": 2},
    "bidirectional": {"bidirectional": True},
    "2-layers-bidirectional-batch-first": {"num_layers": 2, "bidirectional": True,
                                           "batch_first": True},
    "no-bias": {"bias": False, "num_layers": 2},
}
FROM = {"output": (True, False, False), "h_n": (False, True, False),
        "c_n": (False, False, True), "all": (True, True, True)}


def _array(shape, seed, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def _run(T, shape, kw, with_state, parts, x_grad=True):
    """An LSTM's outputs and the gradients of a random projection of the ``parts`` asked
    for (output, h_n, c_n) with respect to the input, the parameters and the states."""
    steps, batch, size, hidden = shape
    T.manual_seed(0)
    m = T.nn.LSTM(size, hidden, **kw)
    x_shape = (batch, steps, size) if kw.get("batch_first") else (steps, batch, size)
    x = T.tensor(_array(x_shape, 1), requires_grad=x_grad)
    hx = None
    if with_state:
        layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
        hx = tuple(T.tensor(_array((layers, batch, hidden), seed), requires_grad=True)
                   for seed in (2, 3))
    out, (h, c) = m(x, hx)
    loss = sum((t * T.tensor(_array(t.shape, 4 + k))).sum()
               for k, (t, used) in enumerate(zip((out, h, c), parts)) if used)
    loss.backward()
    return ((out.detach(), h.detach(), c.detach()), x.grad, [t.grad for t in hx or ()],
            [(n, p.grad) for n, p in m.named_parameters()])


def _names(node, depth=3):
    """The names of the nodes ``depth`` levels down from ``node``."""
    if node is None or depth == 0:
        return set()
    below = (_names(fn, depth - 1) for fn, _ in node.next_functions)
    return {type(node).__name__}.union(*below)


def _tolerance(shape):
    return {"rtol": 1e-5, "atol": 1e-4 if shape == "bench" else 1e-5, "reprs": False}


@pytest.mark.parametrize("shape", ["small", "one-step", "odd"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("with_state", [False, True], ids=["zeros", "h0-c0"])
@pytest.mark.parametrize("grads_from", list(FROM))
def test_gradients_match_torch(shape, layout, with_state, grads_from):
    same_outcome(lambda T: _run(T, SHAPES[shape], LAYOUTS[layout], with_state,
                                FROM[grads_from]), **_tolerance(shape))


@pytest.mark.parametrize("layout", ["plain", "2-layers-bidirectional-batch-first"])
@pytest.mark.parametrize("x_grad", [False, True], ids=["weights-only", "with-input"])
def test_benchmark_shape_matches_torch(layout, x_grad):
    same_outcome(lambda T: _run(T, SHAPES["bench"], LAYOUTS[layout], True, FROM["all"],
                                x_grad), **_tolerance("bench"))


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("strides", ["contiguous", "permuted", "expanded"])
def test_forward_is_the_composition_bit_for_bit(shape, layout, strides):
    """With grad the layer runs by hand; under no_grad the composition runs: same bits (also
    for inputs and states of other strides, which reach the products as they are)."""
    T = doctensor
    steps, batch, size, hidden = SHAPES[shape]
    kw = LAYOUTS[layout]
    T.manual_seed(0)
    m = T.nn.LSTM(size, hidden, **kw)
    dims = (batch, steps, size) if kw.get("batch_first") else (steps, batch, size)
    layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    # large inputs saturate gates (exp overflowing to inf in float32 included)
    if strides == "contiguous":
        x = T.tensor(_array(dims, 1, scale=30.0))
        hx = tuple(T.tensor(_array((layers, batch, hidden), s)) for s in (2, 3))
    else:
        x = T.tensor(_array(dims[::-1], 1, scale=30.0)).permute(2, 1, 0)
        hx = tuple(T.tensor(_array((hidden, batch, layers), s)).permute(2, 1, 0)
                   for s in (2, 3))
        if strides == "expanded":
            x = x[:1].expand(dims)
    with T.no_grad():
        expected = m(x, hx)
    got = m(x.detach().requires_grad_(), hx)
    assert "MkldnnRnnLayerBackward0" in _names(got[0].grad_fn)
    for e, g in zip((expected[0], *expected[1]), (got[0], *got[1])):
        np.testing.assert_array_equal(g.detach().numpy(), e.numpy())


@pytest.mark.parametrize("leaves", ["input", "states", "input-and-states"])
def test_frozen_weights(leaves):
    """Only some of the layer's inputs need a gradient (a strided input without bias, too)."""
    def fn(T):
        T.manual_seed(0)
        m = T.nn.LSTM(4, 6, bias=False, num_layers=2, bidirectional=True).requires_grad_(False)
        x = T.tensor(_array((3, 5, 4), 1), requires_grad="input" in leaves)
        hx = tuple(T.tensor(_array((4, 3, 6), s), requires_grad="states" in leaves)
                   for s in (2, 3))
        out, (h, c) = m(x.transpose(0, 1), hx)
        (out * T.tensor(_array(out.shape, 4))).sum().add(c.sum()).backward()
        return out.detach(), x.grad, [t.grad for t in hx]
    same_outcome(fn, **_tolerance("small"))


@pytest.mark.parametrize("bidirectional", [False, True])
def test_retain_graph_and_hooks(bidirectional):
    """A second backward with retain_graph (which runs the forward again) accumulates the
    same gradients; a hook on the output's gradient and one on a layer's node see and change
    what torch's do."""
    def fn(T):
        T.manual_seed(0)
        m = T.nn.LSTM(4, 6, num_layers=2, bidirectional=bidirectional)
        x = T.tensor(_array((5, 3, 4), 1), requires_grad=True)
        out, (h, c) = m(x)
        out.register_hook(lambda g: g * 2)
        node = out.grad_fn.next_functions[0][0] if bidirectional else out.grad_fn
        seen = []
        node.register_hook(lambda grad_inputs, grad_outputs: seen.append(
            (type(node).__name__, [None if g is None else tuple(g.shape) for g in grad_inputs])))
        loss = out.sum() + h.sum()
        loss.backward(retain_graph=True)
        first = [x.grad.clone()] + [p.grad.clone() for p in m.parameters()]
        loss.backward()
        return first, x.grad, [p.grad for p in m.parameters()], seen
    ours, theirs = both(fn)
    assert_same(ours, theirs, **_tolerance("small"))
