"""The backward engine: a topological walk of the graph from the roots to the leaves.

Note [engine]: a node runs once every edge pointing at it has delivered its gradient; among
the ready nodes the most recently created runs first (torch's sequence-number order), and
``AccumulateGrad`` runs as soon as it is ready::

    loss ─► SumBackward0 ─► MulBackward0 ─┬─► AccumulateGrad(w)      deps: Mul 1, Acc(w) 1,
                                          └─► ExpBackward0 ─► Acc(x)       Exp 1, Acc(x) 1

With ``inputs`` (``autograd.grad``, ``backward(inputs=...)``) only the nodes on a path to
an input run; an input's gradient is captured at its edge (Note [hook order] in graph.py).
"""

import sys
from heapq import heappop, heappush

from .._strides import dense_order
from .anomaly_mode import AnomalyMode
from .grad_mode import GradMode
from .views import gradient_edge

__all__ = ["run_backward"]


def _dependencies(roots):
    """How many edges point at each node reachable from ``roots`` (the roots start at 0, so
    a node is walked once: when it first enters ``deps``)."""
    deps = dict.fromkeys(roots, 0)  # a node that is the root of several outputs counts once
    stack = list(deps)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                stack.append(nxt)
    return deps


def _needed(roots, run_targets, captures):
    """Nodes that must run: those in ``run_targets`` and those from which a run target or a
    captured node can be reached (torch's exec_info), found without recursion."""
    needed = set()
    done = set()
    stack = [(r, False) for r in dict.fromkeys(roots)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            if node in run_targets or any(n in needed or n in captures
                                          for n, _ in node.next_functions):
                needed.add(node)
            continue
        if node in done:
            continue
        done.add(node)
        stack.append((node, True))
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in done:
                stack.append((nxt, False))
    return needed


def _accumulate(buffers, node, nr, grad, outs=()):
    """Add ``grad`` into the input buffer of ``node``'s output ``nr`` (None: no gradient);
    ``outs``: the gradients of the node that gave ``grad``, Note [accumulating in place]."""
    buf = buffers.get(node)
    if buf is None:
        buf = buffers[node] = [None] * max(node.num_outputs, nr + 1)
    if grad is not None:
        if buf[nr] is None:
            buf[nr] = grad
        elif _reusable(buf, nr, grad, outs):
            buf[nr].add_(grad)
        else:
            buf[nr] = buf[nr] + grad


# Note [accumulating in place]
# A second gradient for the same input is added in place into the one the buffer holds when
# torch's InputBuffer would: not in grad mode (create_graph), and the buffer holds the last
# reference to a dense tensor and to its storage (no alias: views hold their base, aliases
# share the Storage object).  That in-place add shows as the gradient's ``_version``.  Python's
# reference counts stand in for torch's use counts: beside the buffer's list, ``_reusable``'s
# local and getrefcount's argument, the tuple of gradients of the node that gave it may hold
# it (torch moves each gradient out of that list into the buffer; the same tensor given twice
# is shared, and is added out of place).

def _reusable(buf, nr, grad, outs):
    """Whether ``grad`` may be added in place into ``buf[nr]`` (Note [accumulating in place])."""
    old = buf[nr]
    if GradMode.enabled or grad is old:
        return False
    data = old._data
    storage = old._storage
    refs = 3 + any(o is old for o in outs)
    return (sys.getrefcount(old) == refs and old._base is None
            and data.shape == grad._data.shape
            and (storage is None or sys.getrefcount(storage) == 2)
            and (data.flags.c_contiguous or data.flags.f_contiguous
                 or dense_order(data.shape, old.stride()) is not None))


def run_backward(tensors, grads, retain_graph, create_graph, inputs=None, accumulate=True):
    """Propagate ``grads`` from ``tensors`` back through the graph.

    With ``inputs``, gradients are captured at those tensors' edges and returned; leaves'
    ``.grad`` is only written (``accumulate``) for leaves among ``inputs``.
    """
    roots = []
    held = []
    buffers = {}
    for t, g in zip(tensors, grads):
        node, nr = gradient_edge(t)
        if node is None:
            raise RuntimeError(f"element {len(roots)} of tensors does not require grad and does "
                               "not have a grad_fn")
        held.append(g._version_counter())  # Note [stealing gradients]: never steal a user's
        if g._base is not None:
            held.append(g._base)  # tensor, nor the memory of a view the user has
        roots.append(node)
        _accumulate(buffers, node, nr, g)
    captured = needed = None
    targets = {}
    if inputs is not None:
        edges = [gradient_edge(t) for t in inputs]
        if accumulate:
            needed = _needed(roots, {e[0] for e in edges}, targets)
        else:
            captured = [None] * len(inputs)
            for i, (node, nr) in enumerate(edges):
                targets.setdefault(node, []).append((nr, i))
            needed = _needed(roots, (), targets)
    deps = _dependencies(roots)
    heap = []
    for node in dict.fromkeys(roots):
        if not deps[node]:
            heappush(heap, (-node._seq, id(node), node))
    prev = GradMode.enabled
    GradMode.enabled = create_graph
    node = None
    try:
        while node is not None or heap:
            if node is None:
                node = heappop(heap)[2]
            grads_in = buffers.pop(node)
            if needed is not None:
                if node not in needed:
                    # torch still calls the tensor hooks of a capture point and of the one
                    # root it starts from (no GraphRoot then); Note [hook order]: captured after
                    if node in targets or len(roots) == 1 and node is roots[0]:
                        grads_in = node._pre(grads_in)
                    for nr, i in targets.get(node, ()):
                        captured[i] = grads_in[nr]
                    node = None
                    continue
                for nr, i in targets.get(node, ()):
                    captured[i] = grads_in[nr]
            outs = _call_anomaly(node, grads_in) if AnomalyMode.enabled else node(grads_in)
            grads_in = None  # Note [accumulating in place]: torch's inputs die with the call
            if not retain_graph:
                node.release()
            ready = None
            for (nxt, nr), g in zip(node.next_functions, outs):
                if nxt is None:
                    continue
                if g is not None and nxt.num_outputs == 1 and nxt not in buffers:
                    buffers[nxt] = [g]  # the common case: a single-output node's first input
                else:
                    _accumulate(buffers, nxt, nr, g, outs)
                left = deps[nxt] - 1
                deps[nxt] = left
                if not left:
                    if ready is not None:
                        heappush(heap, (-ready._seq, id(ready), ready))
                    ready = nxt
            # the one node made ready runs next without the heap when no other waits (a chain)
            node = None
            if ready is not None:
                if heap:
                    heappush(heap, (-ready._seq, id(ready), ready))
                else:
                    node = ready
    finally:
        GradMode.enabled = prev
    return captured


def _call_anomaly(node, grads):
    """Note [anomaly mode]: warn with the node's forward stack if it fails; check NaNs."""
    try:
        outs = node(grads)
        if AnomalyMode.check_nan:
            AnomalyMode.check(node, outs)
    except Exception:
        AnomalyMode.report(node)
        raise
    return outs
