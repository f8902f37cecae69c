"""The backward engine: a topological walk of the graph from the roots to the leaves."""

import heapq

from .grad_mode import GradMode
from .graph import AccumulateGrad, gradient_edge

__all__ = ["run_backward"]


def _dependencies(roots):
    """How many edges point at each node reachable from ``roots``."""
    deps = {}
    seen = set(roots)
    stack = list(roots)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return deps


def _accumulate(buffers, node, nr, grad):
    buf = buffers.get(node)
    if buf is None:
        buf = buffers[node] = [None] * max(getattr(node, "num_outputs", 1), nr + 1)
    buf[nr] = grad if buf[nr] is None else buf[nr] + grad


def run_backward(tensors, grads, retain_graph, create_graph, inputs=None):
    """Propagate ``grads`` from ``tensors`` back through the graph.

    With ``inputs`` (``autograd.grad``), gradients are captured at those tensors' edges and
    returned instead of being accumulated into ``.grad``.
    """
    roots = []
    buffers = {}
    for t, g in zip(tensors, grads):
        node, nr = gradient_edge(t)
        if node is None:
            raise RuntimeError(f"element {len(roots)} of tensors does not require grad and does "
                               "not have a grad_fn")
        g._version_counter()  # Note [stealing gradients]: never steal a user's tensor
        roots.append(node)
        _accumulate(buffers, node, nr, g)
    captured = None
    targets = None
    if inputs is not None:
        captured = [None] * len(inputs)
        targets = {}
        for i, t in enumerate(inputs):
            targets.setdefault(gradient_edge(t), []).append(i)
    deps = _dependencies(roots)
    heap = []
    for node in dict.fromkeys(roots):
        if deps.get(node, 0) == 0:
            heapq.heappush(heap, (-node._seq, id(node), node))
    prev = GradMode.enabled
    GradMode.enabled = create_graph
    try:
        while heap:
            node = heapq.heappop(heap)[2]
            grads_in = buffers.pop(node)
            if targets is not None:
                for nr, g in enumerate(grads_in):
                    for i in targets.get((node, nr), ()):
                        captured[i] = g
                if isinstance(node, AccumulateGrad):
                    continue
            outs = node(grads_in)
            if not retain_graph:
                node.release()
            for (nxt, nr), g in zip(node.next_functions, outs):
                if nxt is None:
                    continue
                if g is not None:
                    _accumulate(buffers, nxt, nr, g)
                elif nxt not in buffers:
                    buffers[nxt] = [None] * getattr(nxt, "num_outputs", 1)
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(heap, (-nxt._seq, id(nxt), nxt))
    finally:
        GradMode.enabled = prev
    return captured
