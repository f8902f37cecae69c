"""The op table's rows for the ops of the first issues (arithmetic, elementwise functions,
comparisons, reductions, products, shapes and views, indexing): one ``OpInfo`` per row, named
after the registry record it exercises (``op_table.py``).

Tolerances: ``_oracle.tol`` (rtol = atol = 1e-6 for float32, 1e-12 for float64); rows that
needed looser ones say so in ``rtol``/``atol`` with the reason.

Special values: ``x / (x > 0.5)`` holds inf, -inf (``x / 0``) and, where ``x`` is 0, NaN.
Double backward: the ``*BackwardBackward0`` records are the nodes of a first gradient taken
with ``create_graph=True`` (``_grad2``); its ``grad_outputs`` depend on the input, so the
gradient of that gradient reaches every input of the record.
"""

from _oracle import DTYPES, FLOATS
from op_table import ALL, BINARY, NUM, REDUCE, REDUCE_DIM, UNARY, OpInfo, b, u

__all__ = ["ROWS"]

NO_F16 = tuple(d for d in ALL if d != "float16")
NO_BOOL = tuple(d for d in ALL if d != "bool")
INTEGERS = ("int64", "int32", "uint8")
MATRICES = [(3, 4), (4, 3), ((3, 4), "T"), ((2, 5), "step"), (0, 3)]
# T.tensor() of an empty array has zero strides, as in torch; doctensor refuses an in-place
# write into it (copy_empty) and gives a shape op's empty result contiguous strides where
# torch keeps them (roll_empty, nan_to_num_empty): these rows leave such samples out
EMPTY = ((0,), (0, 3), ((0, 3), (3,)))
UNARY_NONEMPTY = [s for s in UNARY if s not in EMPTY]
BINARY_NONEMPTY = [s for s in BINARY if s not in EMPTY]


def _self(T, x):
    """The variants spec of a unary op called with no other argument."""
    return (x,), {}


def _pair(T, x, y):
    """The variants spec of a binary op on its two tensors."""
    return (x, y), {}


def _with(*rest, **kwargs):
    """The variants spec of an op called on its first input and ``rest`` / ``kwargs``."""
    return lambda T, x, *_: ((x, *rest), kwargs)


def _special(x):
    """``x`` with inf, -inf and NaN: ``x / 0`` where ``x <= 0.5``."""
    return x / (x > 0.5)


def _grad_at(T, x, f, values, grad=None):
    """The gradient of ``f`` at a tensor of fixed ``values`` (in ``x``'s dtype, on its device)
    for the output gradient ``grad`` (ones by default): the rows of known differences."""
    t = T.tensor(values, dtype=x.dtype, device=x.device, requires_grad=True)
    out = f(t)
    g = T.ones_like(out) if grad is None else T.tensor(grad, dtype=x.dtype, device=x.device)
    return T.autograd.grad(out, t, g)[0]


def _expanded(x):
    """A (3, 4) tensor whose elements all share ``x``'s first one in memory."""
    return x.detach().reshape(-1)[:1].expand(3, 4)


def _grad2(T, f, x):
    """The gradient of ``f(x) ** 2`` (summed) taken with ``create_graph=True``: its grad_fn is
    the node of ``f``'s backward formula, whose own backward the table then runs."""
    return T.autograd.grad((f(x) ** 2).sum(), x, create_graph=True)[0]


ARITHMETIC = [
    # -- arithmetic, with operators and reflected forms -----------------------------------
    b("AddBackward0", "add", lambda T, x, y: x + y, variants=_pair),
    b("AddBackward0", "add_alpha", lambda T, x, y: T.add(x, y, alpha=2), dtypes=NUM),
    b("SubBackward0", "sub", lambda T, x, y: x - y, variants=_pair),
    b("SubBackward0", "sub_alpha", lambda T, x, y: x.sub(y, alpha=3), dtypes=NUM),
    b("MulBackward0", "mul", lambda T, x, y: x * y, variants=_pair),
    b("DivBackward0", "div", lambda T, x, y: x / y, nonzero=(1,), variants=_pair),
    b("DivBackward2", "div_floor",
      lambda T, x, y: x.div(y, rounding_mode="floor"), nonzero=(1,), dtypes=NUM,
      variants=lambda T, x, y: ((x, y), {"rounding_mode": "floor"})),
    b("DivBackward2", "div_trunc", lambda T, x, y: T.div(x, y, rounding_mode="trunc"),
      nonzero=(1,), dtypes=NUM),
    b("floor_divide", "floordiv", lambda T, x, y: x // y, nonzero=(1,), dtypes=NUM,
      variants=_pair),
    b("RemainderBackward1", "mod", lambda T, x, y: x % y, nonzero=(1,), dtypes=NUM,
      variants=_pair),
    b("PowBackward1", "pow", lambda T, x, y: x ** y, domain=(0.5, 2.0), variants=_pair),
    b("MaximumBackward0", "maximum", lambda T, x, y: T.maximum(x, y), variants=_pair),
    b("MinimumBackward0", "minimum", lambda T, x, y: T.minimum(x, y), variants=_pair),
    # the function form where(condition, self, other) and the method condition.where(...)
    # both need a bool condition first: two of them
    b("WhereBackward0", "where", lambda T, x, y: T.where(x > 1, x, y),
      variants=lambda T, x, y: ((x > 1, y > 0, x), {})),
    # ties: equal operands share the gradient
    b("MaximumBackward0", "maximum_ties", lambda T, x, y: T.maximum(x, x.detach() * (y > 0)),
      dtypes=FLOATS),
    b("MinimumBackward0", "minimum_ties", lambda T, x, y: x.minimum(x.detach() * (y > 0)),
      dtypes=FLOATS),
    # mixed dtypes and partly detached operands (promotion and needs_input_grad paths)
    b("AddBackward0", "add_long", lambda T, x, y: x + y.long()),
    b("MulBackward0", "mul_double", lambda T, x, y: x * y.double()),
    b("DivBackward0", "div_long", lambda T, x, y: x / y.long(), domain=(1.0, 3.0)),
    b("SubBackward0", "sub_bool", lambda T, x, y: x - (y > 0), dtypes=NUM),
    b("PowBackward1", "pow_long_exp", lambda T, x, y: x ** y.long(), domain=(0.5, 2.5)),
    b("WhereBackward0", "where_double", lambda T, x, y: T.where(x > 0, x, y.double())),
    b("MaximumBackward0", "maximum_double", lambda T, x, y: T.maximum(x, y.double())),
    b("MulBackward0", "mul_detached", lambda T, x, y: x * y.detach()),
    b("DivBackward0", "div_detached_self", lambda T, x, y: x.detach() / y, nonzero=(1,)),
    OpInfo("CatBackward0", "cat_double",
           lambda T, x, y: T.cat([x, y.double()]), [((2, 3), (1, 3))]),
    OpInfo("StackBackward0", "stack_int",
           lambda T, x, y: T.stack([x, y.long()]), [((2, 3), (2, 3))]),
    u("AddBackward0", "add_int", lambda T, x: x + 2),
    u("AddBackward0", "add_float", lambda T, x: x + 2.5),
    u("AddBackward0", "add_bool", lambda T, x: x + True),
    u("AddBackward0", "radd", lambda T, x: 2 + x),
    u("RsubBackward1", "rsub", lambda T, x: 3 - x, variants=_with(3)),
    u("RsubBackward1", "rsub_float", lambda T, x: 1.5 - x),
    u("RsubBackward1", "rsub_function", lambda T, x: T.rsub(x, 2, alpha=3), dtypes=NUM),
    b("RsubBackward0", "rsub_tensor", lambda T, x, y: (T.rsub(x, y), T.rsub(x, y, alpha=2)),
      variants=lambda T, x, y: ((x, y), {"alpha": 3})),
    u("SubBackward0", "sub_scalar", lambda T, x: x - 1),
    u("MulBackward0", "mul_float", lambda T, x: x * 2.5),
    u("MulBackward0", "rmul", lambda T, x: 3 * x),
    u("DivBackward0", "div_scalar", lambda T, x: x / 2),
    u("ReciprocalBackward0", "rdiv", lambda T, x: 2 / x, nonzero=(0,)),
    u("floor_divide", "floordiv_scalar", lambda T, x: x // 2, dtypes=NUM),
    u("floor_divide", "rfloordiv", lambda T, x: 7 // x, nonzero=(0,), dtypes=NUM),
    u("RemainderBackward0", "mod_scalar", lambda T, x: x % 3, dtypes=NUM, variants=_with(3)),
    u("RemainderBackward0", "remainder_neg", lambda T, x: T.remainder(x, -1.5), dtypes=NUM),
    u("PowBackward0", "pow2", lambda T, x: x ** 2, variants=_with(2)),
    u("PowBackward0", "pow3", lambda T, x: x.pow(3)),
    u("PowBackward0", "pow0", lambda T, x: x ** 0),
    u("PowBackward0", "pow_half", lambda T, x: x ** 0.5, domain=(0.5, 3.0)),
    u("PowBackward0", "pow_neg", lambda T, x: x ** -1, nonzero=(0,)),
    u("PowBackward0", "pow_", lambda T, x: x.clone().pow_(2), dtypes=NUM),
    u("PowBackward2", "rpow", lambda T, x: 2 ** x, variants=_with(2)),
    u("NegBackward0", "neg", lambda T, x: -x, variants=_self),
    u("NegBackward0", "negative_", lambda T, x: x.clone().neg_(), dtypes=NUM),
    u("AbsBackward0", "abs", lambda T, x: abs(x), variants=_self),
    u("AbsBackward0", "torch_abs", lambda T, x: T.abs(x)),
    u("AbsBackward0", "abs_", lambda T, x: x.clone().abs_(), dtypes=NUM),
    # atan2: at the origin (zeros of both) the gradient is 0, as torch's
    b("Atan2Backward0", "atan2", lambda T, x, y: T.atan2(x, y), variants=_pair),
    b("Atan2Backward0", "arctan2", lambda T, x, y: x.arctan2(y)),
    b("Atan2Backward0", "atan2_origin",
      lambda T, x, y: T.atan2(x * (x > 0), y * (x > 0)), dtypes=FLOATS),
    OpInfo("Atan2Backward0", "atan2_", lambda T, x, y: x.clone().atan2_(y), BINARY_NONEMPTY),
    OpInfo("FmodBackward1", "fmod_", lambda T, x, y: x.clone().fmod_(y), BINARY_NONEMPTY,
           nonzero=(1,), dtypes=NUM, grad=False),
    u("FmodBackward0", "fmod_scalar", lambda T, x: x.fmod(2.5), variants=_with(2.5)),
    u("FmodBackward0", "fmod_negative", lambda T, x: T.fmod(x, -1.5)),
    u("FmodBackward0", "fmod_int", lambda T, x: T.fmod(x, 2), dtypes=NUM),
    OpInfo("FmodBackward0", "fmod_zero", lambda T, x: x.fmod(0), UNARY_NONEMPTY,
           dtypes=NUM),  # integers: an error
    OpInfo("FmodBackward0", "fmod_zero_empty", lambda T, x: x.fmod(0), [(0,), (0, 3)],
           dtypes=INTEGERS + ("bool",)),
    u("FmodBackward0", "fmod_scalar_", lambda T, x: x.clone().fmod_(1.5), dtypes=FLOATS),
    b("FmodBackward1", "fmod_tensor", lambda T, x, y: T.fmod(x, y), nonzero=(1,),
      dtypes=FLOATS, variants=_pair),
    b("FmodBackward1", "fmod_tensor_int", lambda T, x, y: x.fmod(y), nonzero=(1,), dtypes=NUM),
]

ELEMENTWISE = [
    # -- elementwise functions -------------------------------------------------------------
    u("ExpBackward0", "exp", lambda T, x: x.exp(), variants=_self),
    u("LogBackward0", "log", lambda T, x: T.log(x), domain=(0.1, 4.0), variants=_self),
    u("SqrtBackward0", "sqrt", lambda T, x: x.sqrt(), domain=(0.1, 4.0), variants=_self),
    u("SinBackward0", "sin", lambda T, x: T.sin(x), variants=_self),
    u("CosBackward0", "cos", lambda T, x: x.cos(), variants=_self),
    u("TanhBackward0", "tanh", lambda T, x: x.tanh(), variants=_self),
    u("SigmoidBackward0", "sigmoid", lambda T, x: T.sigmoid(x), variants=_self),
    u("ReluBackward0", "relu", lambda T, x: x.relu(), variants=_self),
    u("SignBackward0", "sign", lambda T, x: x.sign(), variants=_self),
    u("SgnBackward0", "sgn",
      lambda T, x: T.sgn(x), grad=False,  # torch's gradient: a ZeroTensor (no numpy())
      variants=_self),
    u("FloorBackward0", "floor",
      lambda T, x: T.floor(x * 2.5) if x.is_floating_point() else x.floor(), variants=_self),
    u("CeilBackward0", "ceil",
      lambda T, x: (x * 2.5).ceil() if x.is_floating_point() else T.ceil(x), variants=_self),
    u("TruncBackward0", "trunc",
      lambda T, x: T.trunc(x * -2.5) if x.is_floating_point() else x.trunc(), variants=_self),
    u("FracBackward0", "frac", lambda T, x: T.frac(x * 2.5) if x.is_floating_point() else
      x.frac(), variants=_self),
    u("isnan", "isnan",
      lambda T, x: T.isnan(x / x) if x.is_floating_point() else x.isnan(), grad=False,
      variants=_self),
    u("isinf", "isinf", lambda T, x: (1 / x).isinf(), grad=False, variants=_self),
    u("isfinite", "isfinite", lambda T, x: T.isfinite(1 / x), grad=False, variants=_self),
    u("isnan", "isnan_special", lambda T, x: _special(x).isnan(), grad=False),
    u("isinf", "isinf_special", lambda T, x: T.isinf(_special(x)), grad=False),
    u("isfinite", "isfinite_special", lambda T, x: _special(x).isfinite(), grad=False),
    u("ReciprocalBackward0", "reciprocal", lambda T, x: x.reciprocal(), nonzero=(0,),
      variants=_self),
    u("PowBackward0", "square", lambda T, x: T.square(x)),
    u("ClampBackward1", "clamp", lambda T, x: x.clamp(-1, 1),
      variants=_with(min=-1, max=1)),
    u("ClampBackward1", "clamp_min", lambda T, x: T.clamp(x, min=0)),
    u("ClampBackward1", "clamp_max_float", lambda T, x: x.clamp(max=0.5)),
    u("ClampBackward1", "clip", lambda T, x: x.clip(0, 2)),
    u("ClampBackward1", "clamp_", lambda T, x: x.clone().clamp_(-1, 2), dtypes=NUM),
    # clamp_min / clamp_max: a Python number bound (ties: the gradient passes at the bound);
    # the variants with an integer bound (a float one in place into an integer tensor:
    # clamp_min_float_into_long_)
    u("ClampMinBackward0", "clamp_min_scalar", lambda T, x: x.clamp_min(0.5),
      variants=_with(1)),
    u("ClampMinBackward0", "clamp_min_int", lambda T, x: T.clamp_min(x, 1)),
    u("ClampMinBackward0", "clamp_min_", lambda T, x: x.clone().clamp_min_(-1), dtypes=NUM),
    OpInfo("ClampMinBackward0", "clamp_min_tie",
           lambda T, x: x.clamp_min(x.reshape(-1)[2].item()), [(5,), (3, 4), ((3, 4), "T")],
           dtypes=NUM),
    u("ClampMaxBackward0", "clamp_max_scalar", lambda T, x: x.clamp_max(0.5),
      variants=_with(1)),
    u("ClampMaxBackward0", "clamp_max_int", lambda T, x: T.clamp_max(x, 1)),
    u("ClampMaxBackward0", "clamp_max_", lambda T, x: x.clone().clamp_max_(2), dtypes=NUM),
    # a float bound into an integer tensor in place: refused, torch's scalar clamps naming
    # the type as C does ("long int"; add_ and the others say "Long")
    u("ClampMinBackward0", "clamp_min_float_into_long_",
      lambda T, x: x.detach().long().clamp_min_(0.5), dtypes=("int64",), grad=False,
      xfail="torch: \"result type Float can't be cast to the desired output type long int\", "
            "doctensor: \"... output type Long\""),
    u("ClampMaxBackward0", "clamp_max_float_into_long_",
      lambda T, x: x.detach().long().clamp_max_(0.5), dtypes=("int64",), grad=False,
      xfail="torch: \"result type Float can't be cast to the desired output type long int\", "
            "doctensor: \"... output type Long\""),
    u("ClampBackward1", "clamp_float_into_long_",
      lambda T, x: x.detach().long().clamp_(0.5, 1), dtypes=("int64",), grad=False,
      xfail="torch: \"result type Float can't be cast to the desired output type long int\", "
            "doctensor: \"... output type Long\""),
    OpInfo("ClampMaxBackward0", "clamp_max_tie",
           lambda T, x: T.clamp_max(x, x.reshape(-1)[2].item()), [(5,), (3, 4), ((3, 4), "T")],
           dtypes=NUM),
    # tensor bounds: the Tensor overloads (ClampBackward0, ClampMin/MaxBackward1), whose
    # bounds get gradients (where min > max the result is max, and only max's gradient)
    OpInfo("ClampBackward0", "clamp_tensor_bounds", lambda T, x, lo, hi: x.clamp(lo, hi),
           [((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), (3, 1)), ((), (), ()),
            (((3, 4), "T"), (3, 4), ()), ((2, 3, 4), (3, 4), (4,)), ((0, 3), (3,), (3,)),
            ((3, 4), (5,), (4,))], dtypes=NUM),
    b("ClampBackward0", "clamp_tensor_min", lambda T, x, lo: T.clamp(x, min=lo), dtypes=NUM),
    b("ClampBackward0", "clamp_tensor_max_", lambda T, x, hi: x.clone().clamp_(max=hi),
      dtypes=FLOATS),
    b("ClampMinBackward1", "clamp_min_tensor", lambda T, x, lo: x.clamp_min(lo), dtypes=NUM),
    b("ClampMaxBackward1", "clamp_max_tensor", lambda T, x, hi: T.clamp_max(x, hi), dtypes=NUM),
    b("ClampMinBackward1", "clamp_min_tensor_", lambda T, x, lo: x.clone().clamp_min_(lo),
      dtypes=FLOATS),
    # float16 rsqrt: torch rounds sqrt to half first for the elements after the last whole
    # 32-wide vector (all of a small tensor), not reproduced
    u("RsqrtBackward0", "rsqrt", lambda T, x: x.rsqrt(), domain=(0.1, 4.0), dtypes=DTYPES,
      variants=_self),
    u("RsqrtBackward0", "rsqrt_",
      lambda T, x: x.clone().rsqrt_(), domain=(0.1, 4.0), dtypes=DTYPES),
    u("Log1PBackward0", "log1p", lambda T, x: T.log1p(x), domain=(-0.9, 4.0), variants=_self),
    u("Log1PBackward0", "log1p_", lambda T, x: x.clone().log1p_(), domain=(-0.9, 4.0)),
    u("Expm1Backward0", "expm1", lambda T, x: x.expm1(), variants=_self),
    u("Expm1Backward0", "expm1_", lambda T, x: x.clone().expm1_()),
    # reprs: the float32 gradient may differ by 1 ulp, which can show (erf_grad_ulp)
    u("ErfBackward0", "erf", lambda T, x: T.erf(x), variants=_self, reprs=False),
    u("ErfBackward0", "erf_method", lambda T, x: (x * 3).erf()),  # saturates at +-1
    u("ErfBackward0", "erf_", lambda T, x: x.clone().erf_()),
    u("ErfcBackward0", "erfc", lambda T, x: x.erfc(), variants=_self),
    u("ErfcBackward0", "erfc_function", lambda T, x: T.erfc(x * 3)),
    u("ErfcBackward0", "erfc_", lambda T, x: x.clone().erfc_()),
    # the gradient's bits: torch computes (2 / sqrt(pi) * exp(-x^2)) * grad, doctensor
    # (grad * 2 / sqrt(pi)) * exp(-x^2)
    OpInfo("ErfBackward0", "erf_grad_ulp",
           lambda T, x: _grad_at(T, x, T.erf, [-2.5302136], [0.8973327]).view(T.int32), [()],
           dtypes=("float32",), grad=False,
           xfail="erf's float32 gradient at x=-2.5302136, grad 0.8973327: torch "
                 "0.0016790499 (bits 987501457), doctensor 0.0016790500 (1 ulp more)"),
    OpInfo("ErfcBackward0", "erfc_grad_ulp",
           lambda T, x: _grad_at(T, x, T.erfc, [-2.5302136], [0.8973327]).view(T.int32), [()],
           dtypes=("float32",), grad=False,
           xfail="erfc's float32 gradient at x=-2.5302136, grad 0.8973327: torch bits "
                 "-1159982191, doctensor 1 ulp less in magnitude (-1159982190)"),
    u("RoundBackward0", "round",
      lambda T, x: T.round(x * 2), variants=_self),  # x * 2: some halves, rounded to even
    u("RoundBackward0", "round_", lambda T, x: x.clone().round_()),
    u("RoundBackward1", "round_decimals", lambda T, x: x.round(decimals=2),
      variants=_with(decimals=1)),
    u("RoundBackward1", "round_decimals0", lambda T, x: T.round(x, decimals=0)),
    u("RoundBackward1", "round_decimals_neg",
      lambda T, x: x.round(decimals=-1), domain=(-40.0, 40.0)),
    u("RoundBackward1", "round_decimals_", lambda T, x: x.clone().round_(decimals=1)),
    # nan_to_num: its gradient is zero where the input is not finite
    u("NanToNumBackward0", "nan_to_num", lambda T, x: T.nan_to_num(_special(x)),
      variants=_self),
    u("NanToNumBackward0", "nan_to_num_values",
      lambda T, x: _special(x).nan_to_num(nan=1.5, posinf=9.0, neginf=-9.0)),
    u("NanToNumBackward0", "nan_to_num_neginf_only",
      lambda T, x: T.nan_to_num(_special(x), neginf=-2)),
    OpInfo("NanToNumBackward0", "nan_to_num_plain", lambda T, x: x.nan_to_num(nan=2),
           UNARY_NONEMPTY),
    OpInfo("NanToNumBackward0", "nan_to_num_empty", lambda T, x: x.nan_to_num(),
           [(0,), (0, 3)],
           xfail="nan_to_num of an empty tensor with zero strides: torch keeps the strides "
                 "(0,), doctensor's result is contiguous (1,)"),
    u("NanToNumBackward0", "nan_to_num_", lambda T, x: _special(x).nan_to_num_(posinf=7.0)),
    u("NanToNumBackward0", "nan_to_num_int_", lambda T, x: x.clone().nan_to_num_(),
      dtypes=NUM),
    # isclose (no gradient): values near, equal, NaN and inf; mixed dtypes are refused
    b("isclose", "isclose", lambda T, x, y: T.isclose(x, y), variants=_pair),
    u("isclose", "isclose_near", lambda T, x: x.isclose(x + x.detach() * 1e-6), dtypes=FLOATS),
    u("isclose", "isclose_tolerances",
      lambda T, x: T.isclose(x, x + 0.01, rtol=0, atol=0.02), dtypes=FLOATS),
    u("isclose", "isclose_far", lambda T, x: x.isclose(x * 1.5 + 0.01), dtypes=FLOATS),
    u("isclose", "isclose_special", lambda T, x: T.isclose(_special(x), _special(x))),
    u("isclose", "isclose_equal_nan",
      lambda T, x: _special(x).isclose(_special(x), equal_nan=True)),
    u("isclose", "isclose_same", lambda T, x: T.isclose(x, x)),
    u("isclose", "isclose_mixed_dtypes", lambda T, x: T.isclose(x, x.double()),
      dtypes=("float32", "int64")),
]

MASKS_AND_LOGIC = [
    # -- masked_fill (float values into integer tensors truncate; bool masks only) ------------
    b("MaskedFillBackward0", "masked_fill", lambda T, x, y: x.masked_fill(y > 0, 0.5),
      variants=lambda T, x, y: ((x, y > 0, 0.5), {})),
    b("MaskedFillBackward1", "masked_fill_tensor",
      lambda T, x, y: T.masked_fill(x, y > 1, y.sum()),
      variants=lambda T, x, y: ((x, y > 1, y.sum()), {})),
    u("MaskedFillBackward0", "masked_fill_", lambda T, x: x.clone().masked_fill_(x > 0, -1)),
    u("MaskedFillBackward0", "masked_fill_long_mask", lambda T, x: x.masked_fill(x.long(), 1)),
    u("MaskedFillBackward0", "masked_fill_value_1d",
      lambda T, x: x.masked_fill(x > 0, x.reshape(-1)[:1].detach())),
    OpInfo("MaskedFillBackward0", "masked_fill_bad_broadcast",
           lambda T, x, y: x.masked_fill_(y > 0, 1),
           [((3,), (2, 3)), ((2, 3), (3,))], grad=False),
    # on an expanded tensor torch only warns (deprecated) and fills
    OpInfo("MaskedFillBackward0", "masked_fill_expanded_",
           lambda T, x: _expanded(x).masked_fill_(x > 0, 1), [(3, 4)], grad=False),
    OpInfo("MaskedFillBackward1", "masked_fill_tensor_expanded_",
           lambda T, x: _expanded(x).masked_fill_(x > 0, x.sum()), [(3, 4)], grad=False),
    # -- comparisons and logic -------------------------------------------------------------
    b("eq", "eq", lambda T, x, y: x == y, variants=_pair),
    b("ne", "ne", lambda T, x, y: T.ne(x, y), variants=_pair),
    b("lt", "lt", lambda T, x, y: x < y, variants=_pair),
    b("le", "le", lambda T, x, y: x <= y, variants=_pair),
    b("gt", "gt", lambda T, x, y: T.gt(x, y), variants=_pair),
    b("ge", "ge", lambda T, x, y: x >= y, variants=_pair),
    u("gt", "gt_scalar", lambda T, x: x > 0.5),
    u("eq", "eq_scalar", lambda T, x: x == 1),
    # bitwise: the variants on bool operands (floats are refused)
    b("bitwise_and", "and", lambda T, x, y: x & y,
      variants=lambda T, x, y: ((x > 0, y > 0), {})),
    b("bitwise_or", "or", lambda T, x, y: x | y,
      variants=lambda T, x, y: ((x > 0, y > 0), {})),
    b("bitwise_xor", "xor", lambda T, x, y: x ^ y,
      variants=lambda T, x, y: ((x > 0, y > 0), {})),
    u("bitwise_not", "invert", lambda T, x: ~x, variants=lambda T, x: ((x > 0,), {})),
    u("logical_not", "logical_not", lambda T, x: x.logical_not(), variants=_self),
]

COPIES = [
    # -- copies and conversions ------------------------------------------------------------
    u("CloneBackward0", "clone", lambda T, x: x.clone(), variants=_self),
    u("CloneBackward0", "contiguous", lambda T, x: x.contiguous()),
    u("ToCopyBackward0", "to_float64", lambda T, x: x.to(T.float64),
      variants=lambda T, x: ((x, T.float64), {})),
    u("ToCopyBackward0", "double", lambda T, x: x.double()),
    u("CloneBackward0", "float", lambda T, x: x.float()),
    u("ToCopyBackward0", "long", lambda T, x: x.long()),
    u("ToCopyBackward0", "bool", lambda T, x: x.bool()),
    u(None, "detach", lambda T, x: x.detach()),
    # -- copy_, fill_, zero_ (in place, on a clone) ------------------------------------------
    OpInfo("CopyBackwards", "copy_", lambda T, x, y: x.clone().copy_(y), BINARY_NONEMPTY,
           variants=_pair),
    OpInfo("CopyBackwards", "copy_empty", lambda T, x, y: x.clone().copy_(y),
           [((0, 3), (3,)), ((0,), ())]),
    OpInfo("CopyBackwards", "copy_other_dtype",
           lambda T, x, y: x.clone().copy_(y.double()), BINARY[:3]),
    OpInfo("CopyBackwards", "copy_into_long",
           lambda T, x, y: x.detach().long().copy_(y), BINARY[:3], dtypes=FLOATS),
    u("FillBackward2", "fill_", lambda T, x: x.clone().fill_(2.5), variants=_with(2.5)),
    u("FillBackward2", "fill_int", lambda T, x: x.clone().fill_(-1)),  # uint8: an overflow
    u("FillBackward2", "fill_bool", lambda T, x: x.clone().fill_(True)),
    # (``v.reshape(())``: the value tensor must be 0-d)
    OpInfo("FillBackward3", "fill_tensor", lambda T, x, v: x.clone().fill_(v.reshape(())),
           [((3, 4), ()), ((), ()), ((0,), ()), (((3, 4), "T"), ()), (((2, 5), "step"), ())],
           variants=lambda T, x, v: ((x, v.reshape(())), {})),
    OpInfo("FillBackward3", "fill_tensor_other_dtype",
           lambda T, x, v: x.clone().fill_(v.reshape(()).double()), [((3, 4), ()), ((5,), ())]),
    OpInfo("FillBackward3", "fill_tensor_not_0d", lambda T, x, v: x.clone().fill_(v),
           [((3, 4), (2,)), ((3, 4), (1, 1))]),
    u("ZeroBackward0", "zero_", lambda T, x: x.clone().zero_(), variants=_self),
    u("ZeroBackward0", "zero_view", lambda T, x: x.clone().reshape(-1)[1:].zero_()),
]

REDUCTIONS = [
    # -- reductions ------------------------------------------------------------------------
    OpInfo("SumBackward0", "sum", lambda T, x: x.sum(), REDUCE, variants=_self),
    OpInfo("SumBackward1", "sum_dim", lambda T, x: x.sum(0), REDUCE_DIM),
    OpInfo("SumBackward1", "sum_dim_keep", lambda T, x: T.sum(x, -1, keepdim=True), REDUCE_DIM),
    OpInfo("SumBackward1", "sum_dims", lambda T, x: x.sum((0, -1)), REDUCE_DIM),
    # sum(x, 1) and x.sum_to_size(1) both reduce through SumBackward1
    OpInfo("SumBackward1", "sum_to_size", lambda T, x: x.sum_to_size(1, 4),
           [(3, 4), (2, 3, 4), ((3, 4), "T"), (1, 4)], dtypes=FLOATS + ("float16", "int64"),
           variants=_with(1)),
    OpInfo("SumBackward1", "sum_to_size_small_ints", lambda T, x: x.sum_to_size(1, 4),
           [(3, 4), (2, 3, 4)], dtypes=("int32", "uint8", "bool")),
    OpInfo("SumBackward1", "sum_to_size_error", lambda T, x: x.sum_to_size(1, 4), [(4,)]),
    OpInfo("SumBackward0", "sum_dtype", lambda T, x: x.sum(dtype=T.float64), REDUCE),
    OpInfo("MeanBackward0", "mean", lambda T, x: x.mean(), REDUCE, variants=_self),
    OpInfo("MeanBackward1", "mean_dim", lambda T, x: T.mean(x, 0, keepdim=True), REDUCE_DIM,
           variants=_with(0)),
    OpInfo("MeanBackward1", "mean_dims", lambda T, x: x.mean((0, -1)), REDUCE_DIM),
    # float16 prod rounds differently from torch's (its accumulation order is not reproduced)
    OpInfo("ProdBackward0", "prod", lambda T, x: x.prod(), REDUCE, domain=(0.5, 1.5),
           dtypes=NO_F16, variants=_self),
    OpInfo("ProdBackward1", "prod_dim", lambda T, x: x.prod(0), REDUCE_DIM, domain=(0.5, 1.5),
           dtypes=NO_F16, variants=_with(0)),
    OpInfo("ProdBackward1", "prod_dim_keep",
           lambda T, x: T.prod(x, -1, keepdim=True), REDUCE_DIM[:-1],
           domain=(0.5, 1.5), dtypes=NO_F16),
    # prod's backward with zeros in the input: the product of the others (no division);
    # reprs: some zero gradients are -0. where torch's are 0. (prod_zeros_sign)
    OpInfo("_prod_others", "prod_one_zero",
           lambda T, x: (x - x.reshape(-1)[:1].detach()).prod(), REDUCE, dtypes=FLOATS,
           reprs=False),
    OpInfo("_prod_others", "prod_zeros", lambda T, x: x.relu().prod(), REDUCE, dtypes=FLOATS,
           reprs=False),
    OpInfo("_prod_others", "prod_dim_one_zero",
           lambda T, x: (x - x[:1].detach()).prod(0), REDUCE_DIM[:-1], dtypes=FLOATS,
           reprs=False),
    OpInfo("_prod_others", "prod_dim_zeros",
           lambda T, x: T.prod(x.relu(), -1, keepdim=True), REDUCE_DIM, dtypes=FLOATS,
           reprs=False),
    # 1 / gradient: the sign of a zero gradient shows as +-inf
    OpInfo("_prod_others", "prod_zeros_sign",
           lambda T, x: 1 / _grad_at(T, x, lambda t: t.prod(), [0.0, -2.0, 0.0]), [()],
           dtypes=FLOATS, grad=False,
           xfail="prod's gradient with two zeros: torch's is all +0. "
                 "(x = [0., -2., 0.]: tensor([0., 0., 0.])), doctensor's "
                 "tensor([-0., 0., -0.])"),
    OpInfo("MaxBackward1", "max", lambda T, x: x.max(), REDUCE, variants=_self),
    OpInfo("MinBackward1", "min", lambda T, x: T.min(x), REDUCE, variants=_self),
    OpInfo("MaxBackward0", "max_dim", lambda T, x: x.max(0), REDUCE_DIM[:-1],
           variants=_with(0)),
    OpInfo("MinBackward0", "min_dim_keep", lambda T, x: x.min(-1, keepdim=True), REDUCE_DIM[:-1],
           variants=_with(-1, keepdim=True)),
    OpInfo("argmax", "argmax", lambda T, x: x.argmax(), REDUCE, variants=_self),
    OpInfo("argmin", "argmin_dim", lambda T, x: T.argmin(x, dim=-1), REDUCE_DIM[:-1],
           variants=_with(dim=-1)),
    OpInfo("argmax", "argmax_keep", lambda T, x: x.argmax(0, keepdim=True), REDUCE_DIM[:-1]),
    OpInfo("StdBackward0", "std", lambda T, x: x.std(), REDUCE, variants=_self),
    OpInfo("VarBackward0", "var", lambda T, x: T.var(x), REDUCE, variants=_self),
    OpInfo("VarBackward0", "var_dim", lambda T, x: x.var(0), REDUCE_DIM),
    OpInfo("StdBackward0", "std_dim_keep", lambda T, x: x.std(-1, keepdim=True), REDUCE_DIM),
    OpInfo("VarBackward0", "var_unbiased_false", lambda T, x: x.var(unbiased=False), REDUCE),
    OpInfo("StdBackward0", "std_correction0", lambda T, x: x.std(0, correction=0), REDUCE_DIM),
    OpInfo("LinalgVectorNormBackward0", "norm", lambda T, x: x.norm(), REDUCE, variants=_self),
    OpInfo("LinalgVectorNormBackward0", "norm_dim", lambda T, x: T.norm(x, dim=0), REDUCE_DIM),
    OpInfo("LinalgVectorNormBackward0", "norm_p1_keep",
           lambda T, x: x.norm(p=1, dim=-1, keepdim=True), REDUCE_DIM),
    OpInfo("LinalgVectorNormBackward0", "norm_p3", lambda T, x: x.norm(3), REDUCE),
    OpInfo("LinalgVectorNormBackward0", "norm_p1_5_dims",
           lambda T, x: x.norm(1.5, (0, -1)), REDUCE_DIM),
    OpInfo("LinalgVectorNormBackward0", "norm_p0_5", lambda T, x: T.norm(x, 0.5, -1), REDUCE_DIM),
    OpInfo("LinalgVectorNormBackward0", "norm_inf",
           lambda T, x: x.norm(float("inf"), dim=0), REDUCE_DIM),
    OpInfo("LinalgVectorNormBackward0", "norm_fro_dtype",
           lambda T, x: x.norm("fro", dtype=T.float64), REDUCE),
    OpInfo("all", "all", lambda T, x: x.all(), REDUCE, variants=_self),
    OpInfo("any", "any_dim", lambda T, x: x.any(0), REDUCE_DIM, variants=_with(0)),
    # amax / amin: values only; ties share the gradient evenly (cat([x, x]) ties every value)
    OpInfo("AmaxBackward0", "amax", lambda T, x: x.amax(0), REDUCE_DIM, variants=_with(0)),
    OpInfo("AmaxBackward0", "amax_all", lambda T, x: T.amax(x), REDUCE + [(0,)]),
    OpInfo("AmaxBackward0", "amax_dims_keep",
           lambda T, x: x.amax((0, -1), keepdim=True), REDUCE_DIM),
    OpInfo("AmaxBackward0", "amax_ties",
           lambda T, x: T.cat([x, x.flip(-1)], -1).amax(-1), [(5,), (3, 4), ((3, 4), "T")]),
    OpInfo("AmaxBackward0", "amax_ties_all",
           lambda T, x: T.stack([x, x]).amax(), [(), (5,), (3, 4)]),
    OpInfo("AminBackward0", "amin", lambda T, x: T.amin(x, -1), REDUCE_DIM,
           variants=_with(-1)),
    OpInfo("AminBackward0", "amin_all_keep", lambda T, x: x.amin(keepdim=True), REDUCE),
    OpInfo("AminBackward0", "amin_ties",
           lambda T, x: T.cat([x, x]).amin((0,)), [(5,), (3, 4), ((2, 5), "step")]),
    OpInfo("AminBackward0", "amin_empty_dim", lambda T, x: x.amin(1), [(0, 3), (3, 0)]),
    # logsumexp: integers compute in float; an all -inf row gives -inf (and a NaN gradient)
    OpInfo("LogsumexpBackward0", "logsumexp", lambda T, x: x.logsumexp(0), UNARY,
           variants=_with(0)),
    OpInfo("LogsumexpBackward0", "logsumexp_dims_keep",
           lambda T, x: T.logsumexp(x, (0, -1), keepdim=True), REDUCE_DIM),
    OpInfo("LogsumexpBackward0", "logsumexp_special",
           lambda T, x: T.logsumexp(_special(x), -1), [(5,), (3, 4), ((3, 4), "T")],
           dtypes=FLOATS),
    OpInfo("LogsumexpBackward0", "logsumexp_neg_inf",
           lambda T, x: x.masked_fill(x < 0.5, float("-inf")).logsumexp(1), [(3, 4), (2, 3, 4)],
           dtypes=FLOATS),
    # median: the lower median; ties (integers, cat([x, x])) and NaN (which wins)
    OpInfo("MedianBackward0", "median", lambda T, x: x.median(), UNARY, dtypes=NO_BOOL,
           variants=_self),
    OpInfo("MedianBackward0", "median_ties", lambda T, x: T.median(T.cat([x, x])),
           [(5,), (3, 4), ((3, 4), "T")], dtypes=NO_BOOL),
    OpInfo("MedianBackward0", "median_nan", lambda T, x: _special(x).median(),
           [(5,), (3, 4)], dtypes=FLOATS),
    OpInfo("MedianBackward1", "median_dim", lambda T, x: x.median(0), REDUCE_DIM[:-1],
           dtypes=NO_BOOL, variants=_with(0)),
    OpInfo("MedianBackward1", "median_dim_keep",
           lambda T, x: T.median(x, -1, keepdim=True), REDUCE_DIM[:-1] + [()], dtypes=NO_BOOL),
    OpInfo("MedianBackward1", "median_dim_ties",
           lambda T, x: T.cat([x, x], -1).median(-1), [(5,), (3, 4), ((3, 4), "T")],
           dtypes=NO_BOOL),
    OpInfo("MedianBackward1", "median_dim_nan",
           lambda T, x: _special(x).median(1), [(3, 4)], dtypes=FLOATS),
    OpInfo("MedianBackward1", "median_empty_dim", lambda T, x: x.median(0), [(0, 3)],
           dtypes=NO_BOOL),
    OpInfo("MedianBackward0", "median_bool", lambda T, x: x.median(), [(5,), (3, 4)],
           dtypes=("bool",)),
    OpInfo("MedianBackward1", "median_dim_bool", lambda T, x: x.median(0), [(5,), (3, 4)],
           dtypes=("bool",)),
    OpInfo("TraceBackward0", "trace", lambda T, x: x.trace(), MATRICES + [(3, 0)],
           dtypes=NO_BOOL, variants=_self),
    OpInfo("TraceBackward0", "trace_errors", lambda T, x: T.trace(x), [(5,), (2, 3, 4), ()],
           dtypes=NO_BOOL),
    OpInfo("TraceBackward0", "trace_bool", lambda T, x: x.trace(), [(3, 4), (5,)],
           dtypes=("bool",)),
    # -- scans -------------------------------------------------------------------------------
    OpInfo("CumsumBackward0", "cumsum", lambda T, x: x.cumsum(0), UNARY, variants=_with(0)),
    OpInfo("CumsumBackward0", "cumsum_last", lambda T, x: T.cumsum(x, -1), REDUCE_DIM),
    OpInfo("CumsumBackward0", "cumsum_dtype",
           lambda T, x: x.cumsum(0, dtype=T.float64), REDUCE_DIM),
    OpInfo("CumprodBackward0", "cumprod", lambda T, x: x.cumprod(0), UNARY, domain=(0.5, 1.5),
           variants=_with(0)),
    OpInfo("CumprodBackward0", "cumprod_last", lambda T, x: T.cumprod(x, -1), REDUCE_DIM),
    OpInfo("CumprodBackward0", "cumprod_dtype",
           lambda T, x: x.cumprod(0, dtype=T.float64), REDUCE_DIM, domain=(0.5, 1.5)),
    # cumprod's backward with zeros in the input (no division by them); reprs: some zero
    # gradients are -0. where torch's are 0. (cumprod_zeros_sign)
    OpInfo("_cumprod_grad_with_zeros", "cumprod_zeros",
           lambda T, x: x.relu().cumprod(-1), REDUCE_DIM, dtypes=FLOATS, reprs=False),
    OpInfo("_cumprod_grad_with_zeros", "cumprod_one_zero",
           lambda T, x: T.cumprod(x - x[:1].detach(), 0), REDUCE_DIM[:-1], dtypes=FLOATS,
           reprs=False),
    OpInfo("_cumprod_grad_with_zeros", "cumprod_zeros_sign",
           lambda T, x: 1 / _grad_at(T, x, lambda t: t.cumprod(0), [-2.0, 0.0, 3.0, 0.0]),
           [()], dtypes=FLOATS, grad=False,
           xfail="cumprod's gradient after a zero: x = [-2., 0., 3., 0.], grad ones: torch "
                 "tensor([1., -8., 0., 0.]), doctensor tensor([1., -8., -0., -0.])"),
]

PRODUCTS = [
    # -- matrix products -------------------------------------------------------------------
    OpInfo("MmBackward0", "mm", lambda T, x, y: x.mm(y),
           [((3, 4), (4, 5)), (((3, 4), "T"), (4, 2)), ((3, 0), (0, 2)), ((2, 3), (2, 3))],
           dtypes=NUM, reprs=False, variants=_pair),
    OpInfo("MvBackward0", "mv", lambda T, x, y: T.mv(x, y),
           [((3, 4), (4,)), (((3, 4), "T"), (4,)), ((3, 4), (3,))], dtypes=NUM, reprs=False,
           variants=_pair),
    OpInfo("DotBackward0", "dot", lambda T, x, y: x.dot(y),
           [((4,), (4,)), ((4,), ((4,), "step")), ((3,), (4,))], dtypes=NUM, reprs=False,
           variants=_pair),
    OpInfo("BmmBackward0", "bmm", lambda T, x, y: T.bmm(x, y),
           [((2, 3, 4), (2, 4, 5)), (((2, 3, 4), "T"), (2, 4, 2)), ((2, 3, 4), (3, 4, 5))],
           dtypes=NUM, reprs=False, variants=_pair),
    OpInfo("SqueezeBackward4", "matmul", lambda T, x, y: x @ y,
           [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 3)), ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)),
            ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((2, 1, 3, 4), (5, 4, 2)),
            (((2, 3, 4), "T"), (4, 2)), ((3, 4), (5, 4)), ((), (4,)), ((2, 3, 4), (2, 5, 3))],
           dtypes=("float32", "float64", "int64"), reprs=False),
    OpInfo("AddmmBackward0", "addmm",
           lambda T, c, x, y: T.addmm(c, x, y), [((3, 5), (3, 4), (4, 5)),
                                                 ((5,), (3, 4), (4, 5))],
           dtypes=FLOATS, reprs=False, variants=lambda T, c, x, y: ((c, x, y), {})),
]

JOINING = [
    # -- joining ---------------------------------------------------------------------------
    OpInfo("CatBackward0", "cat", lambda T, x, y: T.cat([x, y]),
           [((2, 3), (4, 3)), ((0,), (3,)), (((3, 3), "T"), (1, 3)), ((2, 3), (2, 4))],
           variants=lambda T, x, y: (([x, y],), {})),
    OpInfo("CatBackward0", "cat_dim1", lambda T, x, y: T.cat((x, y), dim=1),
           [((2, 3), (2, 1)), ((2, 3), (3, 3)), ((2,), (2,))]),
    OpInfo("StackBackward0", "stack", lambda T, x, y: T.stack([x, y]),
           [((2, 3), (2, 3)), ((), ()), ((2, 3), (3, 2))],
           variants=lambda T, x, y: (([x, y],), {})),
    OpInfo("StackBackward0", "stack_dim",
           lambda T, x, y: T.stack([x, y], -1), [((2, 3), ((2, 3), "T"))]),
    OpInfo("RepeatBackward0", "repeat", lambda T, x: x.repeat(2, 1, 3), UNARY,
           variants=_with((2, 1, 3))),
    OpInfo("RepeatBackward0", "repeat_tuple",
           lambda T, x: x.repeat((1, 2)), [(3, 4), (4,), ((3, 4), "T"), (2, 3, 4)]),
    OpInfo("RepeatBackward0", "repeat_zero", lambda T, x: x.repeat(0, 2), [(3, 4), (4,), (0,)]),
    OpInfo("RepeatBackward0", "tile", lambda T, x: T.tile(x, (2,)), UNARY),
    # flip: empty samples left out: torch's result keeps an empty input's strides, doctensor's
    # empty results are contiguous (a known gap, shared with the pointwise ops)
    OpInfo("FlipBackward0", "flip", lambda T, x: x.flip(0), [s for s in UNARY if s != (0,)]),
    OpInfo("FlipBackward0", "flip_dims",
           lambda T, x: T.flip(x, (0, -1)), [s for s in REDUCE_DIM if s != (0, 3)],
           variants=_with((0, -1))),
    # roll: of the flattened tensor without dims; shifts past the size wrap round
    OpInfo("RollBackward0", "roll_dims", lambda T, x: T.roll(x, (1, -2), (0, 1)),
           [(3, 4), ((3, 4), "T"), ((2, 5), "step"), (2, 3, 4)], variants=_with(1, 0)),
    OpInfo("RollBackward0", "roll_flat", lambda T, x: x.roll(1), UNARY_NONEMPTY),
    OpInfo("RollBackward0", "roll_empty", lambda T, x: x.roll(1, 0), [(0,), (0, 3)],
           xfail="roll of an empty tensor with zero strides: torch returns a clone that keeps "
                 "the strides ((0, 0) for (0, 3)), doctensor's is contiguous ((3, 1))"),
    OpInfo("RollBackward0", "roll_dim", lambda T, x: x.roll(-7, -1), UNARY[2:]),
    OpInfo("RollBackward0", "roll_mismatch", lambda T, x: x.roll((1, 2), 0), [(3, 4)]),
    # constant_pad_nd: (before, after) pairs from the last dim; negative amounts cut
    OpInfo("ConstantPadNdBackward0", "constant_pad_nd",
           lambda T, x: T.constant_pad_nd(x, (1, 2)),
           [(3, 4), (5,), (0,), ((3, 4), "T"), ((2, 5), "step"), (2, 3, 4)],
           variants=_with((1, 2))),
    OpInfo("ConstantPadNdBackward0", "constant_pad_nd_value",
           lambda T, x: T.constant_pad_nd(x, (0, 1, 2, 0), 1.5),
           [(3, 4), (2, 3, 4), ((3, 4), "T"), (0, 3)]),
    OpInfo("ConstantPadNdBackward0", "constant_pad_nd_negative",
           lambda T, x: T.constant_pad_nd(x, (-1, 1, 1, -2)), [(3, 4), ((3, 4), "T"), (2, 3, 4)]),
    OpInfo("ConstantPadNdBackward0", "constant_pad_nd_odd",
           lambda T, x: T.constant_pad_nd(x, (1,)), [(3, 4)],
           xfail="torch.constant_pad_nd's message: 'Length of pad must be even but instead it "
                 "equals 1', doctensor's is F.pad's 'Padding length must be divisible by 2'"),
    OpInfo("ConstantPadNdBackward0", "constant_pad_nd_too_long",
           lambda T, x: T.constant_pad_nd(x, (0, 1, 2, 0)), [(5,), ()],
           xfail="torch.constant_pad_nd's message: 'Length of pad should be no more than twice "
                 "the number of dimensions of the input. Pad length is 4while the input has "
                 "1dimensions.' (sic), doctensor's is F.pad's"),
    # -- sorting (torch's CPU sort is stable: integer ties keep their order) ----------------
    OpInfo("SortBackward0", "sort", lambda T, x: x.sort(), UNARY, variants=_self),
    OpInfo("SortBackward0", "sort_desc_dim0", lambda T, x: T.sort(x, 0, descending=True), UNARY),
    OpInfo("SortBackward1", "sort_stable", lambda T, x: x.sort(dim=-1, stable=True), UNARY,
           variants=_with(stable=True)),
    OpInfo("SortBackward1", "argsort", lambda T, x: x.argsort(descending=True), UNARY),
    # topk: floats only, whose samples have no ties (torch's partial sort orders ties its own
    # way, not reproduced)
    OpInfo("TopkBackward0", "topk",
           lambda T, x: x.topk(2),
           [(5,), (3, 4), ((3, 4), "T"), ((2, 5), "step"), (2, 3, 4), (), (1,)],
           dtypes=FLOATS, variants=_with(2)),
    OpInfo("TopkBackward0", "topk_smallest",
           lambda T, x: T.topk(x, 3, 0, largest=False), [(5,), (4, 3), ((3, 4), "T")],
           dtypes=FLOATS),
    # -- Tensor.type ---------------------------------------------------------------------------
    u(None, "type_name", lambda T, x: x.type(), devices=("cpu",)),
    u("ToCopyBackward0", "type_dtype", lambda T, x: x.type(T.float64), devices=("cpu",)),
    u("ToCopyBackward0", "type_str", lambda T, x: x.type("torch.IntTensor"), devices=("cpu",)),
    u(None, "type_same", lambda T, x: x.type(x.type()) is x, devices=("cpu",)),
    u(None, "type_bad", lambda T, x: x.type("FloatTensor"), devices=("cpu",)),
]

VIEWS = [
    # -- views and indexing (values and gradients; sharing is in test_core_views) ----------
    u("ViewBackward0", "view", lambda T, x: x.view(-1), variants=_with(-1)),
    u("ReshapeAliasBackward0", "reshape", lambda T, x: x.reshape(-1, 1)),
    # reshape of a non-contiguous tensor: a view where strides allow (_reshape_alias), else
    # a copy (_unsafe_view)
    OpInfo("ReshapeAliasBackward0", "reshape_alias", lambda T, x: x.reshape(-1, 1),
           [((2, 5), "step"), ((2, 3, 4), "step")], variants=_with((-1, 1))),
    OpInfo("ReshapeAliasBackward0", "reshape_alias_T",
           lambda T, x: T.reshape(x, (*x.shape, 1)), [((3, 4), "T"), ((2, 3, 4), "T")]),
    OpInfo("UnsafeViewBackward0", "reshape_copy", lambda T, x: x.reshape(-1),
           [((3, 4), "T"), ((2, 3, 4), "T"), ((3, 4), "step")], variants=_with((-1,))),
    OpInfo("TransposeBackward0", "transpose", lambda T, x: x.transpose(0, -1), UNARY[2:],
           variants=_with(0, -1)),
    OpInfo("TBackward0", "t", lambda T, x: x.t(), UNARY[:4], variants=_self),
    OpInfo("PermuteBackward0", "permute",
           lambda T, x: x.permute(2, 0, 1), [(2, 3, 4), ((2, 3, 4), "T")],
           variants=_with((2, 0, 1))),
    OpInfo("ExpandBackward0", "expand",
           lambda T, x: x.expand(2, 3, 4), [(4,), (3, 1), (), ((3, 4), "T")],
           variants=_with(2, 3, 4)),
    OpInfo("SqueezeBackward0", "squeeze", lambda T, x: x.squeeze(), [(1, 3, 1), (), (3,), (1,)],
           variants=_self),
    OpInfo("SqueezeBackward1", "squeeze_dim", lambda T, x: x.squeeze(0), [(1, 3, 1), (3, 1), ()],
           variants=_with(0)),
    OpInfo("SqueezeBackward2", "squeeze_dims",
           lambda T, x: x.squeeze((0, 2)), [(1, 3, 1), (1, 3, 4)], variants=_with((0, 2))),
    OpInfo("UnsqueezeBackward0", "unsqueeze", lambda T, x: x.unsqueeze(1), UNARY[2:],
           variants=_with(1)),
    OpInfo("UnsafeViewBackward0", "flatten", lambda T, x: x.flatten(), UNARY),
    OpInfo("SliceBackward0", "narrow", lambda T, x: x.narrow(-1, 1, 2), UNARY[3:],
           variants=_with(-1, 1, 2)),
    OpInfo("SelectBackward0", "select", lambda T, x: x.select(0, -1), UNARY[2:],
           variants=_with(0, -1)),
    OpInfo("UnbindBackward0", "unbind", lambda T, x: x.unbind(1), UNARY[3:], variants=_with(1)),
    OpInfo("SplitBackward0", "split", lambda T, x: x.split(2, -1), UNARY[2:],
           variants=_with(2)),
    OpInfo("SplitWithSizesBackward0", "split_sizes",
           lambda T, x: T.split(x, [1, 3], 1), [(3, 4), ((3, 4), "T")],
           variants=_with([1, 3], 1)),
    OpInfo("SplitBackward0", "chunk", lambda T, x: x.chunk(3, 0), UNARY[2:]),
    OpInfo("DiagonalBackward0", "diagonal",
           lambda T, x: x.diagonal(), [(3, 4), ((3, 4), "T"), (2, 3, 4)],
           variants=_with(offset=1)),
    OpInfo("DiagonalBackward0", "diagonal_offset",
           lambda T, x: T.diagonal(x, -1), [(3, 4), (4, 3)]),
    OpInfo("SliceBackward0", "getitem_basic",
           lambda T, x: x[1:, None, ..., ::2], [(3, 4), (2, 3, 4)]),
    OpInfo("SelectBackward0", "getitem_int", lambda T, x: x[-1, 1:3], [(3, 4), ((3, 4), "T")]),
    OpInfo("IndexBackward0", "getitem_list", lambda T, x: x[[0, 2, 0]], [(3, 4), (3,)],
           variants=_with([0, 2, 0])),
    OpInfo("IndexBackward0", "getitem_tensor",
           lambda T, x: x[:, T.tensor([1, 0, 1], device=x.device)], [(3, 4), ((3, 4), "T")]),
    OpInfo("IndexBackward0", "getitem_bool", lambda T, x: x[x > 1], [(3, 4), (5,)]),
    OpInfo("SelectBackward0", "getitem_0d_index",
           lambda T, x: x[T.tensor(1, device=x.device)], [(3, 4), (5,), ((3, 4), "T")]),
    OpInfo("IndexBackward0", "getitem_int_and_list", lambda T, x: x[1, :, [0, 2, 2]], [(2, 3, 4)]),
    OpInfo("IndexBackward0", "getitem_split_lists", lambda T, x: x[[0, 1], :, [1, 3]],
           [(2, 3, 4), ((2, 3, 4), "T")]),
    OpInfo("IndexBackward0", "getitem_mask_row",
           lambda T, x: x[T.tensor([True, False, True], device=x.device)],
           [(3, 4), ((3, 4), "T")]),
    # an index that selects everything (``...``, full slices in a tuple, ``()``): an alias
    OpInfo("AliasBackward0", "getitem_ellipsis", lambda T, x: x[...], UNARY),
    OpInfo("AliasBackward0", "getitem_full_slices", lambda T, x: x[:, ...], UNARY[1:]),
    OpInfo("AliasBackward0", "getitem_empty_tuple", lambda T, x: x[()], UNARY[:4]),
    # as_strided: sizes and strides over the input's storage (from its storage offset)
    OpInfo("AsStridedBackward0", "as_strided",
           lambda T, x: x.as_strided((2, 2), (1, 2)), [(3, 4), (2, 3, 4), (5,)],
           variants=_with((2, 2), (1, 2))),
    OpInfo("AsStridedBackward0", "as_strided_offset",
           lambda T, x: x.as_strided((2, 3), (4, 1), 1), [(3, 4), (12,)]),
    OpInfo("AsStridedBackward0", "as_strided_function",
           lambda T, x: T.as_strided(x, (2, 3), (4, 1)), [(3, 4)]),
    OpInfo("AsStridedBackward0", "as_strided_empty",
           lambda T, x: x.as_strided((0, 3), (3, 1)), [(3, 4), ()]),
    OpInfo("AsStridedBackward0", "as_strided_overlap",
           lambda T, x: x.as_strided((3, 3), (1, 1)), [(3, 4)], dtypes=FLOATS),
    OpInfo("AsStridedBackward0", "as_strided_noncontiguous",
           lambda T, x: x.as_strided((2, 2), (1, 3)), [((3, 4), "T"), ((2, 5), "step")],
           dtypes=FLOATS),
    # -- in place, a tensor's own geometry ---------------------------------------------------
    OpInfo("SqueezeBackward3", "squeeze_", lambda T, x: x.clone().squeeze_(),
           [(1, 3, 1), (), (3,), (1,)], variants=_self),
    # the gradient's stride for a size-1 dim: torch unsqueezes it back (stride size * stride),
    # doctensor reshapes it back; l = zeros(3, 1, requires_grad=True);
    # l.t().squeeze().backward(ones(3)): l.grad.stride() is (1, 3) in torch, (1, 1) here
    OpInfo("SqueezeBackward3", "squeeze_T", lambda T, x: x.clone().squeeze_(), [((1, 3), "T")],
           dtypes=FLOATS,
           xfail="the gradient of a squeezed dim has stride 1 where torch's has size * stride "
                 "(l.t().squeeze() of a (3, 1) leaf: l.grad.stride() (1, 1), torch (1, 3))"),
    OpInfo("SqueezeBackward0", "squeeze_T_out_of_place", lambda T, x: x.squeeze(),
           [((1, 3), "T")], dtypes=FLOATS,
           xfail="the gradient of a squeezed dim has stride 1 where torch's has size * stride "
                 "(l.t().squeeze() of a (3, 1) leaf: l.grad.stride() (1, 1), torch (1, 3))"),
    OpInfo("SqueezeBackward4", "squeeze_dim_", lambda T, x: x.clone().squeeze_(0),
           [(1, 3, 1), (3, 1), ()], variants=_with(0)),
    OpInfo("SqueezeBackward5", "squeeze_dims_", lambda T, x: x.clone().squeeze_((0, 2)),
           [(1, 3, 1), (1, 3, 4), (1, 1, 1)], variants=_with((0, 2))),
    OpInfo("TBackward1", "t_", lambda T, x: x.clone().t_(),
           UNARY[:4] + [((3, 4), "T"), (2, 3, 4)], variants=_self),
    OpInfo("TransposeBackward1", "transpose_", lambda T, x: x.clone().transpose_(0, -1),
           UNARY[2:], variants=_with(0, -1)),
    OpInfo("TransposeBackward1", "swapaxes_", lambda T, x: x.clone().swapaxes_(1, 0),
           [(3, 4), (2, 3, 4)]),
    OpInfo("TransposeBackward1", "swapdims_", lambda T, x: x.clone().swapdims_(-1, -2),
           [(3, 4), ((3, 4), "T")]),
    OpInfo("UnsqueezeBackward1", "unsqueeze_", lambda T, x: x.clone().unsqueeze_(1), UNARY[2:],
           variants=_with(1)),
    OpInfo("UnsqueezeBackward1", "unsqueeze_ends",
           lambda T, x: x.clone().unsqueeze_(-1).unsqueeze_(0), UNARY),
]

DOUBLE_BACKWARD = [
    # -- double backward: the nodes of a first gradient made with create_graph=True ----------
    u("SigmoidBackwardBackward0", "sigmoid_grad2", lambda T, x: _grad2(T, T.sigmoid, x),
      dtypes=FLOATS),
    u("TanhBackwardBackward0", "tanh_grad2", lambda T, x: _grad2(T, T.tanh, x), dtypes=FLOATS),
    u("ThresholdBackwardBackward0", "relu_grad2",
      lambda T, x: _grad2(T, lambda t: t.relu(), x), dtypes=FLOATS),
    OpInfo("DiagonalBackwardBackward0", "diagonal_grad2",
           lambda T, x: _grad2(T, lambda t: t.diagonal(1), x),
           [(3, 4), (4, 3), ((3, 4), "T"), (2, 3, 4)], dtypes=FLOATS),
    OpInfo("SelectBackwardBackward0", "select_grad2",
           lambda T, x: _grad2(T, lambda t: t.select(-1, 1), x),
           [(3, 4), ((3, 4), "T"), (2, 3, 4), (5,)], dtypes=FLOATS),
    OpInfo("SliceBackwardBackward0", "slice_grad2",
           lambda T, x: _grad2(T, lambda t: t[1:, ::2], x),
           [(3, 4), ((3, 4), "T"), (2, 3, 4)], dtypes=FLOATS),
    OpInfo("SliceBackwardBackward0", "narrow_grad2",
           lambda T, x: _grad2(T, lambda t: t.narrow(0, 1, 1), x), [(5,), (3, 4)],
           dtypes=FLOATS),
    OpInfo("AsStridedBackward0", "as_strided_grad2",
           lambda T, x: _grad2(T, lambda t: t.as_strided((2, 2), (1, 2)), x), [(3, 4)],
           dtypes=FLOATS),
]

ROWS = (ARITHMETIC + ELEMENTWISE + MASKS_AND_LOGIC + COPIES + REDUCTIONS + PRODUCTS + JOINING
       + VIEWS + DOUBLE_BACKWARD)
