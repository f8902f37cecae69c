"""NumPy arrays and scalars meeting tensors behave as in torch (Note [NumPy operands]).

torch's parser reads a NumPy scalar as a Python number (``np.bool_`` as a float) and refuses
a NumPy array; its operators then give NotImplemented, NumPy computes the reflected operation
on ``__array__`` and ``__array_wrap__`` makes the result a tensor again, with NumPy 2's
DeprecationWarning about torch's ``__array_wrap__`` signature.  Every operator, both ways and
in place, is run here on three tensor dtypes against arrays and scalars of NumPy, comparing
results, errors and the warnings' categories with torch's.
"""

import operator
import warnings

import numpy as np
import pytest
from _oracle import assert_same, both, same_outcome

_OPS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_",
        "xor", "lshift", "rshift", "eq", "ne", "lt", "le", "gt", "ge"]
_IN_PLACE = ["iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior",
             "ixor"]
_OPERANDS = {"f64": lambda: np.array([1.5, 2.0]), "f32": lambda: np.array([1.5, 2.0], np.float32),
             "i64": lambda: np.array([1, 2]), "bool": lambda: np.array([True, False]),
             "0d": lambda: np.array(2.0), "np_f64": lambda: np.float64(2.0),
             "np_i64": lambda: np.int64(2), "np_f32": lambda: np.float32(2.0),
             "np_bool": lambda: np.bool_(True)}
_TENSORS = {"f32": lambda T: T.tensor([1.0, 3.0]), "i64": lambda T: T.tensor([1, 3]),
            "bool": lambda T: T.tensor([True, True])}


def _comparable(r):
    """A result as the oracle compares it (a NumPy array by dtype and values)."""
    if isinstance(r, np.ndarray):
        return "ndarray", str(r.dtype), r.tolist()
    if isinstance(r, np.generic):
        return type(r).__name__, r.item()
    return r


def _caught(fn):
    """(what ``fn()`` gave, the categories of the warnings it raised)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [w.category.__name__ for w in caught]


@pytest.mark.parametrize("operand", sorted(_OPERANDS))
@pytest.mark.parametrize("case", [f"{op} {side}" for op in _OPS for side in ("l", "r")]
                         + _IN_PLACE)
def test_operators_with_numpy_operands_match_torch(case, operand):
    op, *side = case.split()

    def run(x, other):
        f = getattr(operator, op)
        if not side:  # in place: what it returns, and whether x itself changed
            r = f(x, other)
            return r is x, _comparable(r), x
        return _comparable(f(x, other) if side == ["l"] else f(other, x))

    def scenario(T):
        out = []
        for make in _TENSORS.values():
            x, other = make(T), _OPERANDS[operand]()
            try:
                out.append(_caught(lambda: run(x, other)))  # noqa: B023 - called at once
            except Exception as e:  # noqa: BLE001 - the error is the outcome compared
                out.append((type(e).__name__, str(e)))
        return out

    same_outcome(scenario, rtol=0, atol=0)


NUMPY_CALLS = {
    "ufunc": "np.exp(x)", "ufunc_int": "np.sqrt(T.tensor([1, 3]))",
    "comparison": "np.equal(x, 1)", "reduction_index": "np.argmax(x)",
    "binary_ufunc": "np.maximum(x, 2)", "clip": "np.clip(x, 0, 2)", "dot": "np.dot(x, x)",
    "asarray": "np.asarray(x)", "array_dtype": "np.asarray(x, dtype=np.float64)",
    "requires_grad": "np.exp(T.ones(2, requires_grad=True))",
    "numpy_sum": "np.sum(x)", "concatenate": "np.concatenate([x, x])",
    "eq_longer_array": "x == np.ones(3)", "eq_string_array": "x == np.array(['a', 'b'])",
    "eq_list": "x == [1.0, 3.0]", "ne_list": "x != [1.0, 3.0]",
    "method_array": "x.mul(np.ones(2))", "function_array": "T.mul(x, np.ones(2))",
    "where_array": "T.where(x > 1, x, np.zeros(2))", "maximum_array": "T.maximum(x, np.ones(2))",
    "matmul_number": "x @ 2", "matmul_method_number": "x.matmul(2)",
    "matmul_function_number": "T.matmul(2, x)",
    "full_np_bool": "T.full((2,), np.bool_(True))",
    "clamp_np_bool": "T.tensor([1, 2]).clamp(min=np.bool_(True))",
    "masked_fill_np_bool": "T.tensor([1, 2]).masked_fill(T.tensor([True, False]), np.bool_(1))",
    "masked_fill_np_float": "x.masked_fill(T.tensor([True, False]), np.float64(0.5))",
    "pow_method_np": "x.pow(np.float64(2))", "pow_function_np": "T.pow(x, np.int64(2))",
    "alpha_np_bool": "T.tensor([1, 2]).add(1, alpha=np.bool_(True))",
}


@pytest.mark.parametrize("name", sorted(NUMPY_CALLS))
def test_numpy_functions_on_tensors_match_torch(name):
    def scenario(T):
        x = T.tensor([1.0, 3.0])
        return _caught(lambda: _comparable(eval(NUMPY_CALLS[name], {"np": np, "T": T, "x": x})))

    same_outcome(scenario, rtol=0, atol=0)


PROTOCOL = {
    "floordiv_in_place": "y = x; y //= 2; out = y is x, x, x._version",
    "mod_in_place": "y = x; y %= 2; out = y is x, x, x._version",
    "pow_in_place": "y = x; y **= 2; out = y is x, x, x._version",
    "pow_in_place_int_negative": "y = T.tensor([1, 2]); y **= -1",
    "in_place_leaf_refused": "w = T.ones(2, requires_grad=True); w //= 2",
    "in_place_string": "y = x; y **= 'a'",
    "rmod": "out = 5 % x, 2.5 % T.tensor([2, 3])",
    "rand_ror_rxor": "b = T.tensor([1, 6]); out = 3 & b, 3 | b, 3 ^ b",
    "rdiv_string": "out = 'a' / x",
    "contains": "out = 3.0 in x, 2 in x, T.tensor(1.0) in x, np.float64(3) in x",
    "contains_array": "out = np.ones(1) in x",
    "contains_string": "out = 'a' in x",
    "reversed": "out = reversed(x), reversed(T.tensor(2.0)), reversed(T.ones(2, 3)).shape",
    "delitem": "del x[0]",
    "py2_names": "out = x[0].__long__(), x[0].__nonzero__(), x.__div__(2), x.__rdiv__(2)",
    "idiv": "y = x.__idiv__(2); out = y is x, x",
}


@pytest.mark.parametrize("name", sorted(PROTOCOL))
def test_python_protocol_of_tensors_matches_torch(name):
    def scenario(T):
        scope = {"np": np, "T": T, "x": T.tensor([1.0, 3.0]), "out": None}
        exec(PROTOCOL[name], scope)
        return scope["out"]

    ours, theirs = both(scenario)
    assert_same(ours, theirs, rtol=0, atol=0)
