"""The workloads of issue 8, each a (setup, step) pair per library.

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
    rng: int = 1_000_000  # the random generator
    mem_batch: int = 1024  # peak memory of W2
    reduce_side: int = 1000  # RED: sum(dim) of a square matrix


FULL = Sizes()
SMOKE = Sizes(small=10, mlp_batches=(2, 4), big=1000, chain=10, chain_width=10, rng=1000,
              mem_batch=4, reduce_side=10)


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


def np_mlp_step(state, lr=0.01):
    params, images, labels = state
    w1, b1, w2, b2, w3, b3 = params
    n = images.shape[0]
    rows = np.arange(n)
    # forward: Flatten, Linear, ReLU, Linear, ReLU, Linear, then log-softmax cross-entropy
    x = images.reshape(n, -1)
    z1 = x @ w1.T + b1
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w2.T + b2
    h2 = np.maximum(z2, 0)
    z3 = h2 @ w3.T + b3
    shifted = z3 - z3.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = -log_probs[rows, labels].mean()
    # backward, by hand
    g3 = np.exp(log_probs)
    g3[rows, labels] -= 1
    g3 /= n
    g2 = g3 @ w3
    g2[z2 <= 0] = 0
    g1 = g2 @ w2
    g1[z1 <= 0] = 0
    grads = (g1.T @ x, g1.sum(0), g2.T @ h1, g2.sum(0), g3.T @ h2, g3.sum(0))
    # SGD, in place
    for p, g in zip(params, grads, strict=True):
        p -= lr * g
    return loss


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
        Case("W1", "W1 add, no grad", 0.6,
             Pair(p(add_setup, n=s.small), add_step), Pair(p(np_add_setup, n=s.small), add_step)),
        Case("W1", "W1 forward + backward", 0.6,
             Pair(p(grad_setup, n=s.small), grad_step),
             Pair(p(np_add_setup, n=s.small), np_grad_step)),
    ]
    for batch, target in zip(s.mlp_batches, (1.10, 1.15), strict=True):
        out.append(Case("W2", f"W2 MLP step, batch {batch}", target,
                        Pair(p(mlp_setup, batch=batch), mlp_step),
                        Pair(p(np_mlp_setup, batch=batch), np_mlp_step), compare="loose"))
    out += [
        Case("W3", f"W3 forward, {s.big:,} el.", 0.8,
             Pair(p(big_setup, n=s.big), big_forward_step),
             Pair(p(np_big_setup, n=s.big), big_forward_step), compare="loose"),
        Case("W3", "W3 forward + backward", 1.0,
             Pair(p(big_setup, n=s.big, requires_grad=True), big_grad_step),
             Pair(p(np_big_setup, n=s.big), np_big_grad_step), compare="loose"),
        Case("W4", f"W4 {s.chain:,}-op chain + backward", 0.5,
             Pair(p(chain_setup, width=s.chain_width, length=s.chain), chain_step),
             Pair(p(np_chain_setup, width=s.chain_width, length=s.chain), np_chain_step)),
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
