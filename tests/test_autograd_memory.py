"""Memory: the graph and saved tensors die when torch frees them, with no reference cycles.

With the cyclic garbage collector switched off, only reference counting frees objects; a
weak reference to an intermediate tensor or node must then be dead as soon as the last
user-visible reference is gone, which proves that no cycle holds it (Note [saved tensors]:
an op's own output is saved without its grad_fn for exactly this reason).
"""

import gc
import sys
import time
import weakref

import pytest
import torch  # noqa: F401  (the oracle, imported by every test module)

import doctensor as T


@pytest.fixture
def no_gc():
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Exp(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y


def _pointwise(refs):
    x = T.ones(3, requires_grad=True)
    y = x.exp()
    z = y.sigmoid() * x
    w = z.sum()
    refs += [weakref.ref(o) for o in (y, z, w, y.grad_fn, z.grad_fn, w.grad_fn)]
    w.backward()


def _views_and_copy_slices(refs):
    x = T.ones(4, requires_grad=True)
    y = x.clone()
    v = y[1:]
    v.mul_(2)
    a, b = y.split(2)
    u = y.unbind()
    r = y.view(2, 2).t()
    refs += [weakref.ref(o) for o in (y, v, a, b, r, *u, y.grad_fn, v.grad_fn)]
    (y.exp().sum() + a.sum()).backward()


def _custom_function(refs):
    x = T.ones(3, requires_grad=True)
    y = Exp.apply(x)
    z = y * 2
    refs += [weakref.ref(y), weakref.ref(z), weakref.ref(y.grad_fn)]
    z.sum().backward()


def _no_backward_with_hooks(refs):
    x = T.ones(3, requires_grad=True)
    y = x.exp()
    z = Exp.apply(y)
    z.register_hook(lambda g: g)
    z.retain_grad()
    x.register_hook(lambda g: g)
    refs += [weakref.ref(y), weakref.ref(z), weakref.ref(z.grad_fn)]


def _double_backward(refs):
    x = T.ones(3, requires_grad=True)
    y = (x.exp() * x).sum()
    g, = T.autograd.grad(y, x, create_graph=True)
    refs += [weakref.ref(y), weakref.ref(g), weakref.ref(g.grad_fn)]
    g.sum().backward()


def _retained_graph_dies_with_output(refs):
    x = T.ones(3, requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    refs += [weakref.ref(y), weakref.ref(y.grad_fn)]


def _leaf_grad_create_graph(refs):
    x = T.ones(3, requires_grad=True)
    (x * x).sum().backward(create_graph=True)
    refs += [weakref.ref(x.grad.grad_fn)]
    x.grad = None


@pytest.mark.parametrize("scenario", [_pointwise, _views_and_copy_slices, _custom_function,
                                      _no_backward_with_hooks, _double_backward,
                                      _retained_graph_dies_with_output, _leaf_grad_create_graph],
                         ids=lambda f: f.__name__.strip("_"))
def test_no_reference_cycles(no_gc, scenario):
    refs = []
    scenario(refs)
    assert refs
    alive = [r() for r in refs if r() is not None]
    assert alive == []


def test_saved_tensors_freed_after_backward(no_gc):
    x = T.ones(1000, requires_grad=True)
    h = x * 2
    y = h.exp()  # saves its result (an alias of y's memory)
    z = (h * h).sum()  # saves h twice
    ref = weakref.ref(h)
    node = z.grad_fn.next_functions[0][0]
    del h
    assert ref() is not None  # MulBackward0 still holds h
    z.backward()
    assert ref() is None  # released by backward without retain_graph
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        node._saved_self  # noqa: B018  (the access itself raises)
    del y


def test_training_loop_memory_is_flat():
    """10,000 steps of a tiny model: no growth in live objects or traced memory."""
    gen = T.Generator().manual_seed(0)
    w = T.randn(4, 3, generator=gen).requires_grad_()
    x = T.randn(8, 4, generator=gen)
    target = T.randn(8, 3, generator=gen)

    def step():
        loss = (x @ w - target).tanh().sum()
        loss.backward()
        with T.no_grad():
            w.sub_(w.grad * 0.01)
        w.grad = None

    start = time.perf_counter()
    for _ in range(500):
        step()
    gc.collect()
    objects = len(gc.get_objects())
    blocks = sys.getallocatedblocks()
    for _ in range(9500):
        step()
    gc.collect()
    assert len(gc.get_objects()) - objects < 50
    assert sys.getallocatedblocks() - blocks < 500
    assert time.perf_counter() - start < 60
