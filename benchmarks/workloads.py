"""The workloads of issues 8, 17 and 20 (targets: issue 20's), each a (setup, step) pair per
library.

doctensor and torch run the *same* code: every tensor function takes ``lib``, the module
(``doctensor`` or ``torch``), and writes ``lib.nn.Linear(...)`` where a user writes
``torch.nn.Linear(...)``. Raw NumPy gets its own pair, with the backward pass written by hand
where the workload has one (what an autograd library is measured against).

``setup(lib)`` builds the inputs (untimed) and returns a state; ``step(state)`` is one timed
iteration and returns its output (the loss, the sum, the random numbers), which the harness
compares between doctensor and torch once, before timing.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Pair:
    setup: Callable[[Any], Any]  # setup(lib) -> state; untimed
    step: Callable[[Any], Any]  # step(state) -> output; the timed iteration


@dataclass(frozen=True)
class Case:
    group: str  # what `python -m benchmarks W1` selects
    name: str
    target: float | None  # the target for the doctensor / torch ratio of medians
    tensor: Pair  # doctensor and torch: one code, parametrised by the module
    numpy: Pair | None  # raw NumPy, "by hand" where there is a backward
    compare: str = "close"  # doctensor's output vs torch's: "exact", "close" or "loose"


@dataclass(frozen=True)
class Sizes:
    small: int = 10  # W1
    mlp_batches: tuple = (64, 1024)  # W2
    big: int = 10_000_000  # W3
    chain: int = 1000  # W4: ops in the chain ...
    chain_width: int = 100  # ... on this many elements
    lenet_batch: int = 64  # W5
    lstm: tuple = (35, 20, 128)  # W6: sequence length, batch, hidden (and input) size
    rng: int = 1_000_000  # the random generator
    mem_batch: int = 1024  # peak memory of W2
    reduce_side: int = 1000  # RED: sum(dim) of a square matrix


FULL = Sizes()
SMOKE = Sizes(small=10, mlp_batches=(2, 4), big=1000, chain=10, chain_width=10, rng=1000,
              mem_batch=4, reduce_side=10, lenet_batch=2, lstm=(3, 2, 8))


def _arrays(*shapes, seed=0):
    """float32 standard-normal inputs, the same for every library (a fixed seed)."""
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape, dtype=np.float32) for shape in shapes]


def _tensors(lib, *shapes, requires_grad=False):
    return [lib.tensor(a, requires_grad=requires_grad) for a in _arrays(*shapes)]


# --- W1: small-op overhead, 10 elements -----------------------------------------------------


def add_setup(lib, n):
    return _tensors(lib, (n,), (n,))


def np_add_setup(np_, n):
    return _arrays((n,), (n,))


def add_step(state):  # the same code for the three libraries
    a, b = state
    return a + b


def add_in_place_step(state):  # the same code for the three libraries
    a, b = state
    a += b
    return a


def grad_setup(lib, n):
    return _tensors(lib, (n,), (n,), requires_grad=True)


def grad_step(state):
    """(a * b + a).sum() forward + backward; .grad starts at None, as after zero_grad()."""
    a, b = state
    a.grad = None
    b.grad = None
    s = (a * b + a).sum()
    s.backward()
    return s


def np_grad_step(state):
    a, b = state
    s = (a * b + a).sum()
    ones = np.broadcast_to(np.ones((), a.dtype), a.shape)  # sum's backward: an expanded 1
    a_grad = ones * b + ones  # through the product and the add
    b_grad = ones * a
    return s, a_grad, b_grad


# --- W2: the article's MLP, one SGD training step ------------------------------------------


def _mnist_like(batch):
    rng = np.random.default_rng(1)
    images = rng.random((batch, 1, 28, 28), dtype=np.float32)
    labels = rng.integers(0, 10, batch, dtype=np.int64)
    return images, labels


def mlp_setup(lib, batch):
    nn = lib.nn
    lib.manual_seed(0)  # the same initial weights in doctensor and torch
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512),
                          nn.ReLU(), nn.Linear(512, 10))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01)
    images, labels = _mnist_like(batch)
    return lib, model, optimizer, lib.tensor(images), lib.tensor(labels)


def mlp_step(state):
    lib, model, optimizer, images, labels = state
    optimizer.zero_grad()
    loss = lib.nn.functional.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
    return loss


def np_mlp_setup(np_, batch):
    """torch's nn.Linear initialisation (uniform in +-1/sqrt(fan_in)), weights (out, in)."""
    rng = np.random.default_rng(0)
    params = []
    for fan_in, fan_out in ((784, 512), (512, 512), (512, 10)):
        bound = 1 / np.sqrt(fan_in)
        params.append(rng.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32))
        params.append(rng.uniform(-bound, bound, fan_out).astype(np.float32))
    images, labels = _mnist_like(batch)
    return params, images, labels


def _np_cross_entropy(z, labels):
    """The mean log-softmax cross-entropy of the logits ``z`` and its gradient, by hand."""
    n = len(z)
    rows = np.arange(n)
    shifted = z - z.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    grad = np.exp(log_probs)
    grad[rows, labels] -= 1
    grad /= n
    return -log_probs[rows, labels].mean(), grad


def np_mlp_step(state, lr=0.01):
    params, images, labels = state
    w1, b1, w2, b2, w3, b3 = params
    n = images.shape[0]
    # forward: Flatten, Linear, ReLU, Linear, ReLU, Linear, then log-softmax cross-entropy
    x = images.reshape(n, -1)
    z1 = x @ w1.T + b1
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w2.T + b2
    h2 = np.maximum(z2, 0)
    z3 = h2 @ w3.T + b3
    loss, g3 = _np_cross_entropy(z3, labels)  # (and its gradient: backward by hand from here)
    g2 = g3 @ w3
    g2[z2 <= 0] = 0
    g1 = g2 @ w2
    g1[z1 <= 0] = 0
    grads = (g1.T @ x, g1.sum(0), g2.T @ h1, g2.sum(0), g3.T @ h2, g3.sum(0))
    # SGD, in place
    for p, g in zip(params, grads, strict=True):
        p -= lr * g
    return loss


# --- W2's exact parts alone: the SGD update and the loss (what the step's floor is made of) --


def sgd_setup(lib, batch):
    """The W2 optimizer after one step, its gradients in place: ``step()`` alone updates all
    669,706 parameters (with an exact fused multiply-add in doctensor, as torch's kernel)."""
    state = mlp_setup(lib, batch)
    mlp_step(state)
    return state[2]


def sgd_step(optimizer):
    optimizer.step()
    return optimizer.param_groups[0]["params"][-1]  # the last bias


def np_sgd_setup(np_, batch):
    params = np_mlp_setup(np_, batch)[0]
    return params, _arrays(*(p.shape for p in params))


def np_sgd_step(state, lr=0.01):
    params, grads = state
    for p, g in zip(params, grads, strict=True):
        p -= lr * g
    return params[-1]


def ce_setup(lib, batch):
    """Logits (batch x 10) that require grad, and labels: cross-entropy forward + backward."""
    (logits,), labels = _tensors(lib, (batch, 10), requires_grad=True), _mnist_like(batch)[1]
    return lib, logits, lib.tensor(labels)


def ce_step(state):
    lib, logits, labels = state
    logits.grad = None
    loss = lib.nn.functional.cross_entropy(logits, labels)
    loss.backward()
    return loss


def np_ce_setup(np_, batch):
    return _arrays((batch, 10))[0], _mnist_like(batch)[1]


def np_ce_step(state):
    logits, labels = state
    return _np_cross_entropy(logits, labels)


# --- W3: 10 million elements ---------------------------------------------------------------


def big_setup(lib, n, requires_grad=False):
    return _tensors(lib, (n,), (n,), (n,), requires_grad=requires_grad)


def np_big_setup(np_, n):
    return _arrays((n,), (n,), (n,))


def big_forward_step(state):  # the same code for the three libraries
    a, b, c = state
    return (a * b + c).sum()


def big_grad_step(state):
    a, b, c = state
    a.grad = b.grad = c.grad = None
    s = (a * b + c).sum()
    s.backward()
    return s


def np_big_grad_step(state):
    a, b, c = state
    s = (a * b + c).sum()
    ones = np.broadcast_to(np.ones((), a.dtype), a.shape)  # sum's backward: an expanded 1
    grads = (ones * b, ones * a, ones.copy())  # c's .grad is a real tensor, as in torch
    return s, grads


# --- W4: a chain of small ops ---------------------------------------------------------------


def chain_setup(lib, width, length):
    (x,) = _tensors(lib, (width,), requires_grad=True)
    return x, length


def chain_step(state):
    x0, length = state
    x0.grad = None
    x = x0
    for _ in range(length):
        x = x * 1.0001 + 0.001
    s = x.sum()
    s.backward()
    return s


def np_chain_setup(np_, width, length):
    return _arrays((width,))[0], length


def np_chain_step(state):
    x0, length = state
    x = x0
    for _ in range(length):
        x = x * 1.0001 + 0.001
    s = x.sum()
    grad = np.ones_like(x)
    for _ in range(length):  # each add passes the gradient on, each multiply scales it
        grad = grad * 1.0001
    return s, grad


# --- W5: a LeNet-style CNN, one SGD training step --------------------------------------------


def lenet_setup(lib, batch):
    """LeNet-5 on 28x28 inputs: conv 5x5 (padded) + pool, conv 5x5 + pool, three linears."""
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                          nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                          nn.Linear(84, 10))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01)
    images, labels = _mnist_like(batch)
    return lib, model, optimizer, lib.tensor(images), lib.tensor(labels)


def np_lenet_setup(np_, batch):
    """The same shapes, torch's uniform(+-1/sqrt(fan_in)) initialisation."""
    rng = np.random.default_rng(0)
    params = []
    for shape in ((6, 1, 5, 5), (16, 6, 5, 5), (120, 400), (84, 120), (10, 84)):
        bound = 1 / np.sqrt(np.prod(shape[1:]))
        params.append(rng.uniform(-bound, bound, shape).astype(np.float32))
        params.append(rng.uniform(-bound, bound, shape[0]).astype(np.float32))
    images, labels = _mnist_like(batch)
    return params, images, labels


def _conv(x, w, b):
    """A valid convolution (square kernel) by im2col: the output and the column matrix."""
    n, c, h, wd = x.shape
    k = w.shape[-1]
    cols = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(2, 3))
    oh, ow = h - k + 1, wd - k + 1
    cols = cols.transpose(0, 2, 3, 1, 4, 5).reshape(n * oh * ow, c * k * k)
    out = cols @ w.reshape(len(w), -1).T + b
    return out.reshape(n, oh, ow, -1).transpose(0, 3, 1, 2), cols


def _conv_input_grad(g, w, shape):
    """The gradient of a valid convolution's input (col2im: each kernel tap adds a slice)."""
    n, oc, oh, ow = g.shape
    k = w.shape[-1]
    taps = (g.transpose(0, 2, 3, 1).reshape(-1, oc) @ w.reshape(oc, -1)).reshape(
        n, oh, ow, shape[1], k, k)
    grad = np.zeros(shape, np.float32)
    for i in range(k):
        for j in range(k):
            grad[:, :, i:i + oh, j:j + ow] += taps[..., i, j].transpose(0, 3, 1, 2)
    return grad


def _pool(x):
    """2x2 max pooling and the mask of each window's maximum."""
    n, c, h, w = x.shape
    win = x.reshape(n, c, h // 2, 2, w // 2, 2)
    out = win.max(axis=(3, 5))
    return out, win == out[:, :, :, None, :, None]


def _unpool(g, mask):
    return (mask * g[:, :, :, None, :, None]).reshape(
        mask.shape[0], mask.shape[1], mask.shape[2] * 2, mask.shape[4] * 2)


def np_lenet_step(state, lr=0.01):
    params, images, labels = state
    cw1, cb1, cw2, cb2, w1, b1, w2, b2, w3, b3 = params
    n = images.shape[0]
    x = np.pad(images, ((0, 0), (0, 0), (2, 2), (2, 2)))
    z1, cols1 = _conv(x, cw1, cb1)
    p1, mask1 = _pool(np.maximum(z1, 0))
    z2, cols2 = _conv(p1, cw2, cb2)
    p2, mask2 = _pool(np.maximum(z2, 0))
    f = p2.reshape(n, -1)
    z3 = f @ w1.T + b1
    h3 = np.maximum(z3, 0)
    z4 = h3 @ w2.T + b2
    h4 = np.maximum(z4, 0)
    z5 = h4 @ w3.T + b3
    loss, g5 = _np_cross_entropy(z5, labels)  # (and its gradient: backward by hand from here)
    g4 = g5 @ w3
    g4[z4 <= 0] = 0
    g3 = g4 @ w2
    g3[z3 <= 0] = 0
    gf = (g3 @ w1).reshape(p2.shape)
    gz2 = _unpool(gf, mask2)
    gz2[z2 <= 0] = 0
    gp1 = _conv_input_grad(gz2, cw2, p1.shape)
    gz1 = _unpool(gp1, mask1)
    gz1[z1 <= 0] = 0
    g2d = gz2.transpose(0, 2, 3, 1).reshape(-1, len(cw2))
    g1d = gz1.transpose(0, 2, 3, 1).reshape(-1, len(cw1))
    grads = ((g1d.T @ cols1).reshape(cw1.shape), g1d.sum(0),
             (g2d.T @ cols2).reshape(cw2.shape), g2d.sum(0),
             g3.T @ f, g3.sum(0), g4.T @ h3, g4.sum(0), g5.T @ h4, g5.sum(0))
    for p, g in zip(params, grads, strict=True):
        p -= lr * g
    return loss


# --- W6: a one-layer LSTM, forward + backward -----------------------------------------------


def lstm_setup(lib, steps, batch, hidden):
    """``nn.LSTM(hidden, hidden)`` on a (steps, batch, hidden) input; the loss is the outputs'
    sum."""
    lib.manual_seed(0)
    model = lib.nn.LSTM(hidden, hidden)
    (x,) = _tensors(lib, (steps, batch, hidden))
    return model, x


def lstm_step(state):
    model, x = state
    model.zero_grad()
    out, _ = model(x)
    loss = out.sum()
    loss.backward()
    return loss


def np_lstm_setup(np_, steps, batch, hidden):
    rng = np.random.default_rng(0)
    bound = 1 / np.sqrt(hidden)
    params = [rng.uniform(-bound, bound, shape).astype(np.float32)
              for shape in ((4 * hidden, hidden), (4 * hidden, hidden), (4 * hidden,),
                            (4 * hidden,))]
    return params, _arrays((steps, batch, hidden))[0]


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_lstm_step(state):
    (w_ih, w_hh, b_ih, b_hh), x = state
    steps, batch, hidden = x.shape
    h = np.zeros((batch, hidden), np.float32)
    c = np.zeros_like(h)
    pre = x @ w_ih.T + (b_ih + b_hh)  # the input's share of every step at once
    saved, outs = [], []
    for t in range(steps):
        gates = pre[t] + h @ w_hh.T
        i, f = _sigmoid(gates[:, :hidden]), _sigmoid(gates[:, hidden:2 * hidden])
        g, o = np.tanh(gates[:, 2 * hidden:3 * hidden]), _sigmoid(gates[:, 3 * hidden:])
        c_prev, h_prev = c, h
        c = f * c + i * g
        tanh_c = np.tanh(c)
        h = o * tanh_c
        saved.append((i, f, g, o, c_prev, h_prev, tanh_c))
        outs.append(h)
    loss = np.stack(outs).sum()
    # backward through time, by hand (the loss's gradient is 1 at every output)
    dh_next = np.zeros_like(h)
    dc_next = np.zeros_like(c)
    d_gates = np.empty((steps, batch, 4 * hidden), np.float32)
    d_w_hh = np.zeros_like(w_hh)
    for t in reversed(range(steps)):
        i, f, g, o, c_prev, h_prev, tanh_c = saved[t]
        dh = 1 + dh_next
        dc = dc_next + dh * o * (1 - tanh_c * tanh_c)
        d = d_gates[t]
        d[:, :hidden] = dc * g * i * (1 - i)
        d[:, hidden:2 * hidden] = dc * c_prev * f * (1 - f)
        d[:, 2 * hidden:3 * hidden] = dc * i * (1 - g * g)
        d[:, 3 * hidden:] = dh * tanh_c * o * (1 - o)
        d_w_hh += d.T @ h_prev
        dh_next = d @ w_hh
        dc_next = dc * f
    flat = d_gates.reshape(-1, 4 * hidden)
    d_w_ih = flat.T @ x.reshape(-1, hidden)
    d_b = flat.sum(0)
    return loss, d_w_ih, d_w_hh, d_b


# --- the random generator ------------------------------------------------------------------


def rng_setup(lib, n):
    lib.manual_seed(0)
    return lib, n


def randn_step(state):
    lib, n = state
    return lib.randn(n)


def rand_step(state):
    lib, n = state
    return lib.rand(n)


def np_rng_setup(np_, n):
    """NumPy's Generator on the same bit generator as torch's CPU one (MT19937)."""
    return np.random.Generator(np.random.MT19937(0)), n


def np_randn_step(state):
    gen, n = state
    return gen.standard_normal(n, dtype=np.float32)


def np_rand_step(state):
    gen, n = state
    return gen.random(n, dtype=np.float32)


# --- reductions in torch's summation order (issue 17) -----------------------------------------


def vector_setup(lib, n):
    return _tensors(lib, (n,))[0]


def np_vector_setup(np_, n):
    return _arrays((n,))[0]


def sum_step(x):  # the same code for the three libraries
    return x.sum()


def mean_step(x):
    return x.mean()


def matrix_setup(lib, n, dim):
    return _tensors(lib, (n, n))[0], dim


def np_matrix_setup(np_, n, dim):
    return _arrays((n, n))[0], dim


def sum_dim_step(state):
    x, dim = state
    return x.sum(dim)


# --- the list ------------------------------------------------------------------------------


def cases(sizes=FULL):
    """Every timed case, in the issue's order; the W2 targets are the issue's two batches."""
    s = sizes
    p = partial
    out = [
        Case("W1", "W1 add, no grad", 0.7,
             Pair(p(add_setup, n=s.small), add_step), Pair(p(np_add_setup, n=s.small), add_step)),
        Case("W1", "W1 add_, in place", None,
             Pair(p(add_setup, n=s.small), add_in_place_step),
             Pair(p(np_add_setup, n=s.small), add_in_place_step)),
        Case("W1", "W1 forward + backward", 0.7,
             Pair(p(grad_setup, n=s.small), grad_step),
             Pair(p(np_add_setup, n=s.small), np_grad_step)),
    ]
    for batch, target in zip(s.mlp_batches, (1.20, 1.05), strict=True):
        out.append(Case("W2", f"W2 MLP step, batch {batch}", target,
                        Pair(p(mlp_setup, batch=batch), mlp_step),
                        Pair(p(np_mlp_setup, batch=batch), np_mlp_step), compare="loose"))
    out.append(Case("W2", "W2 SGD update alone", None,
                    Pair(p(sgd_setup, batch=s.mlp_batches[0]), sgd_step),
                    Pair(p(np_sgd_setup, batch=s.mlp_batches[0]), np_sgd_step), compare="loose"))
    out += [Case("W2", f"W2 cross_entropy f+b, batch {batch}", None,
                 Pair(p(ce_setup, batch=batch), ce_step),
                 Pair(p(np_ce_setup, batch=batch), np_ce_step), compare="exact")
            for batch in s.mlp_batches]
    out += [
        Case("W3", f"W3 forward, {s.big:,} el.", 0.8,
             Pair(p(big_setup, n=s.big), big_forward_step),
             Pair(p(np_big_setup, n=s.big), big_forward_step), compare="loose"),
        Case("W3", "W3 forward + backward", 1.0,
             Pair(p(big_setup, n=s.big, requires_grad=True), big_grad_step),
             Pair(p(np_big_setup, n=s.big), np_big_grad_step), compare="loose"),
        Case("W4", f"W4 {s.chain:,}-op chain + backward", 0.6,
             Pair(p(chain_setup, width=s.chain_width, length=s.chain), chain_step),
             Pair(p(np_chain_setup, width=s.chain_width, length=s.chain), np_chain_step)),
        Case("W5", f"W5 LeNet step, batch {s.lenet_batch}", 2.0,
             Pair(p(lenet_setup, batch=s.lenet_batch), mlp_step),
             Pair(p(np_lenet_setup, batch=s.lenet_batch), np_lenet_step), compare="loose"),
        Case("W6", "W6 LSTM forward + backward", 2.0,
             Pair(p(lstm_setup, steps=s.lstm[0], batch=s.lstm[1], hidden=s.lstm[2]), lstm_step),
             Pair(p(np_lstm_setup, steps=s.lstm[0], batch=s.lstm[1], hidden=s.lstm[2]),
                  np_lstm_step), compare="loose"),
        Case("RNG", f"randn, {s.rng:,} float32", 3.0,
             Pair(p(rng_setup, n=s.rng), randn_step), Pair(p(np_rng_setup, n=s.rng),
                                                           np_randn_step), compare="exact"),
        Case("RNG", f"rand, {s.rng:,} float32", None,
             Pair(p(rng_setup, n=s.rng), rand_step), Pair(p(np_rng_setup, n=s.rng),
                                                          np_rand_step), compare="exact"),
    ]
    out += [
        Case("RED", f"sum, {s.big:,} float32", 1.5,
             Pair(p(vector_setup, n=s.big), sum_step),
             Pair(p(np_vector_setup, n=s.big), sum_step), compare="exact"),
        Case("RED", f"mean, {s.big:,} float32", 1.5,
             Pair(p(vector_setup, n=s.big), mean_step),
             Pair(p(np_vector_setup, n=s.big), mean_step), compare="exact"),
    ]
    out += [Case("RED", f"sum(dim={d}), {s.reduce_side}x{s.reduce_side} float32", 1.5,
                 Pair(p(matrix_setup, n=s.reduce_side, dim=d), sum_dim_step),
                 Pair(p(np_matrix_setup, n=s.reduce_side, dim=d), sum_dim_step),
                 compare="exact")
            for d in (0, 1)]
    return out
