"""The op table's rows for the records the differential fuzzer's fixes added
(tests/test_fuzz_fixes_ops.py has the rest of their tests)."""

from op_table import FLOATS, OpInfo


def _index_gradient(T, x):
    """The gradient of an advanced index, taken with a graph: torch's index backward writes
    it with _index_put_impl_ (IndexPutImplBackward0)."""
    picked = x[[0, 1, 0]]
    return T.autograd.grad(picked, x, T.ones_like(picked, requires_grad=True),
                           create_graph=True)[0]


ROWS = [
    OpInfo("IndexPutImplBackward0", "index_backward_graph", _index_gradient, [(3, 4), (2,)],
           dtypes=FLOATS, grad=False),
]
