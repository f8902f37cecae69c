"""Python's own protocols on tensors, as teaching code uses them, give what torch gives.

Each idiom is evaluated under torch and doctensor; the outcome compared is the result's type
name and ``repr`` (or the error's type and first words), and the categories of the warnings.
Builtins (``sum``, ``max``, ``sorted``, ``round``, ``divmod``, ``hash``, ``range``), ``math``,
string formatting, NumPy functions and scalars given tensors, and NumPy scalars where torch
takes numbers or sizes.
"""

import math
import warnings

import numpy as np
import pytest
from _oracle import both

IDIOMS = [
    "sum(x)", "max(x)", "sorted(x)", "min(xi)", "list(x)", "np.array([s, s])",
    "np.array(list(x))", "math.sqrt(s)", "round(s)", "round(s, 1)", "abs(x)", "-x", "+x",
    "~xi", "divmod(x, 2)", "pow(x, 2)", "pow(2, x)", "int(s)", "float(xi[0])", "complex(s)",
    "bool(s)", "f'{s:.2f}'", "f'{x}'", "str(s)", "type(hash(x)).__name__", "len({x, x})",
    "list(range(xi[0]))", "[1, 2, 3][xi[1]]", "np.zeros(3)[xi[1]]", "'ab' * xi[1]",
    "round(x)", "math.floor(s)", "math.isclose(s, 2.5)", "np.float32(s)", "np.float64(x[0])",
    "np.int64(xi[0])", "np.isnan(x)", "np.allclose(x, x)", "np.linalg.norm(x)",
    "np.stack([x, x])", "np.where(x > 1)", "np.sort(x)", "np.max(x)", "np.round(x)",
    "x > np.float64(1)", "np.float64(1) < x", "np.float64(2) * x", "np.int64(2) - x",
    "np.float32(2) / x", "x[np.int64(1)]", "x[np.array([0, 2])]",
    "x[np.array([True, False, True])]", "x.view(np.int64(3))", "T.zeros(np.int64(2))",
    "x.reshape(np.int32(3), 1)", "T.full((2,), np.float32(1.5))", "T.tensor(np.float32(1.5))",
    "T.tensor([np.float64(1), 2])", "T.arange(np.int64(3))", "x.clamp(np.float64(1.5))",
    "x.clone().fill_(np.float64(0.5))", "x.add(1, alpha=np.float64(2))",
    "x.clone().mul_(np.float32(2))",
]


@pytest.mark.parametrize("idiom", IDIOMS)
def test_idiom_matches_torch(idiom):
    def scenario(T):
        scope = {"T": T, "np": np, "math": math, "x": T.tensor([3.0, 1.0, 2.0]),
                 "xi": T.tensor([3, 1, 2]), "s": T.tensor(2.5)}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                r = eval(idiom, scope)  # noqa: S307 - the idioms are the test's own
                got = type(r).__name__, repr(r)
            except Exception as e:  # noqa: BLE001 - the error is the outcome compared
                got = type(e).__name__, str(e)
        return got, [w.category.__name__ for w in caught]

    ours, theirs = both(scenario)
    assert ours == theirs
