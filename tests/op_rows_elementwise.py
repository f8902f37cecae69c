"""The op table's rows for ``ops/elementwise.py`` and ``ops/special_functions.py``
(trigonometric, hyperbolic, logarithms and powers of two, the gamma family and special
functions, binary float functions, integer functions, logic, classification, in-place
comparisons) and for the aliases and in-place forms of ``ops/pointwise.py``'s records that
this family added.

Tolerances: ``_oracle.tol`` unless a row says otherwise, with its reason.  float32 and float16
compute wide (Note [float32 transcendentals]); the special functions follow torch's
algorithms in float64 (Note [special functions]), so float32 results can be a few ulps from
torch's float32 steps.
"""

from _oracle import FLOATS
from op_table import BINARY, UNARY, OpInfo, b, u

__all__ = ["ROWS"]

F = FLOATS
F16 = FLOATS + ("float16",)
FI = FLOATS + ("int64", "bool")
INTEGERS = ("int64", "int32", "uint8")
BINARY_NONEMPTY = [s for s in BINARY if s not in (((0, 3), (3,)),)]
# torch's composites (deg2rad is a multiplication, ldexp one by a power of two) and frexp's
# outputs (empty_like) keep the zero strides T.tensor() gives an empty array; doctensor's
# records give empty results contiguous strides (as op_rows_core's EMPTY rows): these rows
# leave empty samples out
UNARY_NONEMPTY = [s for s in UNARY if s not in ((0,),)]
# a few ulps of float32 (torch's special functions compute in float32 steps), 1e-6 else; the
# printed 4th decimal can then differ too
SPECIAL_TOL = {"rtol": 2e-5, "atol": 1e-5, "reprs": False}


def _self(T, x):
    return (x,), {}


def _pair(T, x, y):
    return (x, y), {}


def _unary(key, name, domain=(-3.0, 3.0), dtypes=F16 + ("int64", "bool"), method=None,
           inplace_key=None, samples=UNARY, **kw):
    """Rows of a float unary function: the torch.* function (variants on its input), the
    in-place method (of record ``inplace_key`` if it has its own) and, if given, a
    ``method`` alias."""
    rows = [u(key, name, lambda T, x: getattr(T, name)(x), domain=domain, dtypes=dtypes,
              variants=_self, **kw),
            u(inplace_key or key, name + "_", lambda T, x: getattr(x.clone(), name + "_")(),
              domain=domain, dtypes=F, variants=_self if inplace_key else None, **kw)]
    if method:
        rows.append(u(key, method, lambda T, x: getattr(x, method)(), domain=domain, dtypes=F,
                      **kw))
    for row in rows:
        row.samples = samples
    return rows


TRIG = [
    *_unary("TanBackward0", "tan", (-1.2, 1.2)),
    *_unary("AsinBackward0", "asin", (-0.95, 0.95), method="arcsin"),
    *_unary("AcosBackward0", "acos", (-0.95, 0.95), method="arccos"),
    *_unary("AtanBackward0", "atan", method="arctan"),
    *_unary("SinhBackward0", "sinh"),
    # Sleef's coshf is an ulp off in places (cosh(5.) prints 74.2100 in torch): no reprs
    *_unary("CoshBackward0", "cosh", reprs=False),
    # torch has no derivative for asinh_, acosh_, atanh_: their backward raises
    *_unary("AsinhBackward0", "asinh", method="arcsinh", inplace_key="AsinhBackward1"),
    *_unary("AcoshBackward0", "acosh", (1.05, 4.0), method="arccosh",
            inplace_key="AcoshBackward1"),
    *_unary("AtanhBackward0", "atanh", (-0.95, 0.95), method="arctanh",
            inplace_key="AtanhBackward1"),
    u("AsinhBackward1", "arcsinh_function_", lambda T, x: T.arcsinh_(x.clone()), dtypes=F),
    *_unary("Log2Backward0", "log2", (0.1, 4.0)),
    *_unary("Log10Backward0", "log10", (0.1, 4.0)),
    *_unary("Exp2Backward0", "exp2"),
    *_unary("Deg2RadBackward0", "deg2rad", (-200.0, 200.0), samples=UNARY_NONEMPTY),
    *_unary("Rad2DegBackward0", "rad2deg", samples=UNARY_NONEMPTY),
    u("AsinBackward0", "arcsin_function", lambda T, x: T.arcsin_(x.clone()), dtypes=F,
      domain=(-0.9, 0.9)),
    u("AsinBackward0", "asin_int_", lambda T, x: x.long().asin_(), dtypes=F, grad=False),
    u("TanBackward0", "tan_special", lambda T, x: (x / (x > 0.5)).tan(), dtypes=F),
    u("Log2Backward0", "log2_negative", lambda T, x: x.log2(), dtypes=F),
]

SPECIAL = [
    *_unary("LgammaBackward0", "lgamma", (0.1, 4.0), **SPECIAL_TOL),
    u("LgammaBackward0", "lgamma_negative", lambda T, x: x.lgamma(), domain=(-2.9, -0.1),
      dtypes=F, rtol=1e-4, atol=1e-4, reprs=False),  # torch's float32 lgammaf by the poles
    *_unary("DigammaBackward0", "digamma", (0.1, 4.0), **SPECIAL_TOL),
    u("DigammaBackward0", "digamma_negative", lambda T, x: T.digamma(x), domain=(-2.9, -0.1),
      dtypes=F, rtol=1e-4, atol=1e-4, reprs=False),
    u("PolygammaBackward0", "polygamma", lambda T, x: T.polygamma(2, x), domain=(0.2, 4.0),
      dtypes=F16 + ("int64",), **SPECIAL_TOL),
    u("PolygammaBackward0", "polygamma_1", lambda T, x: x.polygamma(1), domain=(-2.9, 4.0),
      dtypes=F, rtol=1e-4, atol=1e-4, reprs=False),
    u("PolygammaBackward1", "polygamma_", lambda T, x: x.clone().polygamma_(3),
      domain=(0.2, 4.0), dtypes=F, **SPECIAL_TOL),
    u("PolygammaBackward0", "polygamma_negative_n", lambda T, x: T.polygamma(-1, x), dtypes=F),
    *_unary("ErfinvBackward0", "erfinv", (-0.99, 0.99), **SPECIAL_TOL),
    *_unary("I0Backward0", "i0", (-10.0, 10.0), **SPECIAL_TOL),
    *_unary("SincBackward0", "sinc", **SPECIAL_TOL),
    u("SincBackward0", "sinc_zero", lambda T, x: (x * (x > 0)).sinc(), dtypes=F),
    *_unary("LogitBackward0", "logit", (0.01, 0.99)),
    u("LogitBackward0", "logit_eps", lambda T, x: T.logit(x, eps=0.2), domain=(-0.5, 1.5),
      dtypes=F16, variants=lambda T, x: ((x,), {"eps": 0.2})),
    u("LogitBackward0", "logit_outside", lambda T, x: x.logit(), domain=(-0.5, 1.5), dtypes=F),
    u("MvlgammaBackward0", "mvlgamma", lambda T, x: T.mvlgamma(x, 3), domain=(1.1, 4.0),
      dtypes=F + ("int64",), variants=lambda T, x: ((x,), {"p": 3}), **SPECIAL_TOL),
    u("MvlgammaBackward0", "mvlgamma_", lambda T, x: x.clone().mvlgamma_(p=1),
      domain=(0.1, 4.0), dtypes=F, **SPECIAL_TOL),
    u("MvlgammaBackward0", "mvlgamma_p0", lambda T, x: x.mvlgamma(0), dtypes=F),
    u("SpecialEntrBackward0", "entr", lambda T, x: T.special.entr(x), dtypes=F + ("int64",)),
    u("SpecialEntrBackward0", "entr_zero", lambda T, x: T.special.entr(x * (x > 0)),
      dtypes=F),
    u("SpecialI0EBackward0", "i0e", lambda T, x: T.special.i0e(x), domain=(-10.0, 10.0),
      dtypes=F, **SPECIAL_TOL),
    # torch's half kernel computes its vectorized part in float32, the rest (the elements after
    # the last full vector: all of a small tensor) in half-precision steps, a few half ulps
    # apart: values within float16's tolerance, reprs not compared
    u("SpecialI0EBackward0", "i0e_half", lambda T, x: T.special.i0e(x), domain=(-10.0, 10.0),
      dtypes=("float16",), reprs=False),
    u("SpecialI1Backward0", "i1", lambda T, x: T.special.i1(x), domain=(-10.0, 10.0),
      dtypes=F16, **SPECIAL_TOL),
    u("SpecialI1EBackward0", "i1e", lambda T, x: T.special.i1e(x), domain=(-10.0, 10.0),
      dtypes=F16, **SPECIAL_TOL),
]

BINARY_FLOAT = [
    b("HypotBackward0", "hypot", lambda T, x, y: T.hypot(x, y), dtypes=F16, variants=_pair),
    OpInfo("HypotBackward0", "hypot_", lambda T, x, y: x.clone().hypot_(y), BINARY_NONEMPTY,
           dtypes=F),
    b("HypotBackward0", "hypot_long", lambda T, x, y: x.hypot(y.long()), dtypes=F + ("int64",)),
    b("CopysignBackward0", "copysign", lambda T, x, y: T.copysign(x, y), dtypes=FI + (
        "float16",), variants=_pair),
    OpInfo("CopysignBackward0", "copysign_", lambda T, x, y: x.clone().copysign_(y),
           BINARY_NONEMPTY, dtypes=F),
    u("CopysignBackward1", "copysign_scalar", lambda T, x: x.copysign(-1.5), dtypes=FI,
      variants=lambda T, x: ((x, -1.5), {})),
    u("CopysignBackward1", "copysign_scalar_zero", lambda T, x: (x * (x > 0)).copysign(-2),
      dtypes=F),
    b("LogaddexpBackward0", "logaddexp", lambda T, x, y: T.logaddexp(x, y), dtypes=F16,
      variants=_pair),
    b("LogaddexpBackward0", "logaddexp_inf", lambda T, x, y: (x / (x > 0.5)).logaddexp(
        y / (y > 0.5)), dtypes=F),
    b("Logaddexp2Backward0", "logaddexp2", lambda T, x, y: T.logaddexp2(x, y), dtypes=F16,
      variants=_pair),
    b("FmaxBackward0", "fmax", lambda T, x, y: T.fmax(x, y), dtypes=FI, variants=_pair),
    b("FmaxBackward0", "fmax_nan", lambda T, x, y: (x / x.round()).fmax(y / y.round()),
      dtypes=F),
    b("FminBackward0", "fmin", lambda T, x, y: x.fmin(y), dtypes=FI, variants=_pair),
    b("FminBackward0", "fmin_nan", lambda T, x, y: T.fmin(x / x.round(), y / y.round()),
      dtypes=F),
    b("FminBackward0", "fmin_ties", lambda T, x, y: T.fmin(x, x.detach() * (y > 0)),
      dtypes=F),
    b("heaviside", "heaviside", lambda T, x, y: T.heaviside(x.round(), y), dtypes=F16 + (
        "int64", "bool"), grad=False, variants=_pair),
    b("heaviside", "heaviside_nan", lambda T, x, y: (x / x.round()).heaviside(y), dtypes=F,
      grad=False),
    b("heaviside", "heaviside_grad_fn", lambda T, x, y: T.heaviside(x, y).grad_fn is not None,
      dtypes=F),
    b("heaviside", "heaviside_mixed", lambda T, x, y: T.heaviside(x, y.double()), dtypes=F),
    b("NextafterBackward0", "nextafter", lambda T, x, y: T.nextafter(x, y), dtypes=F,
      variants=_pair),
    b("NextafterBackward0", "nextafter_long", lambda T, x, y: x.nextafter(y.long()),
      dtypes=("int64", "float32")),
    b("LdexpBackward0", "ldexp", lambda T, x, y: T.ldexp(x, y.round()), dtypes=FI,
      variants=_pair),
    OpInfo("LdexpBackward0", "ldexp_long", lambda T, x, y: x.ldexp(y.long()),
           BINARY_NONEMPTY, dtypes=F),
    OpInfo("LdexpBackward0", "ldexp_", lambda T, x, y: x.clone().ldexp_(y), BINARY_NONEMPTY,
           dtypes=F),
    OpInfo("FrexpBackward0", "frexp", lambda T, x: T.frexp(x), UNARY_NONEMPTY,
           dtypes=F16 + ("int64",), variants=_self),
    u("FrexpBackward0", "frexp_special", lambda T, x: (x / (x > 0.5)).frexp(), dtypes=F),
    b("XlogyBackward0", "xlogy", lambda T, x, y: T.xlogy(x * (x > 0), y), domain=(0.0, 3.0),
      dtypes=FI),
    b("XlogyBackward0", "xlogy_signs", lambda T, x, y: x.round().xlogy(y.round()), dtypes=F),
    OpInfo("XlogyBackward0", "xlogy_", lambda T, x, y: x.clone().xlogy_(y), BINARY_NONEMPTY,
           dtypes=F, domain=(0.1, 3.0)),
    u("XlogyBackward1", "xlogy_number_self", lambda T, x: T.xlogy(2.0, x), domain=(0.1, 3.0),
      dtypes=FI),
    u("XlogyBackward2", "xlogy_number_other", lambda T, x: T.xlogy(x.round(), 0.0),
      dtypes=F),
    u("XlogyBackward2", "xlogy_number_other_positive", lambda T, x: x.xlogy(2), dtypes=FI),
    b("SpecialXlog1PyBackward0", "xlog1py", lambda T, x, y: T.special.xlog1py(x, y),
      domain=(-0.9, 3.0), dtypes=FI),
    b("SpecialXlog1PyBackward0", "xlog1py_signs",
      lambda T, x, y: T.special.xlog1py(x.round(), y.round() - 1), dtypes=F),
    u("SpecialXlog1PyBackward1", "xlog1py_number_self",
      lambda T, x: T.special.xlog1py(2, x), dtypes=F),
    u("SpecialXlog1PyBackward2", "xlog1py_number_other",
      lambda T, x: T.special.xlog1py(x.round(), -1), dtypes=F),
    # float_power: torch's composite, a float64 copy raised by pow
    b("PowBackward1", "float_power", lambda T, x, y: T.float_power(x, y), domain=(0.5, 2.0),
      dtypes=F + ("int64",)),
    u("PowBackward0", "float_power_scalar", lambda T, x: x.float_power(2), dtypes=F),
    u("PowBackward2", "float_power_base", lambda T, x: T.float_power(2, x), dtypes=F),
    u("PowBackward0", "float_power_", lambda T, x: x.clone().float_power_(3),
      dtypes=("float64", "float32")),
]

INTEGER = [
    # (integer dtypes first: the variants run on them; the float rows check the refusal)
    b("gcd", "gcd", lambda T, x, y: T.gcd(x, y), dtypes=INTEGERS + ("bool", "float64"),
      variants=_pair),
    b("lcm", "lcm", lambda T, x, y: x.lcm(y), dtypes=INTEGERS + ("float64",), variants=_pair),
    OpInfo("gcd", "gcd_", lambda T, x, y: x.clone().gcd_(y), BINARY_NONEMPTY, dtypes=INTEGERS),
    b("bitwise_left_shift", "lshift", lambda T, x, y: x << y.abs(),
      dtypes=INTEGERS + ("float64",), variants=_pair),
    b("bitwise_left_shift", "lshift_wide", lambda T, x, y: T.bitwise_left_shift(x, y * 20),
      dtypes=("int64", "int32")),
    b("bitwise_right_shift", "rshift", lambda T, x, y: x >> y.abs(),
      dtypes=INTEGERS + ("float64",), variants=_pair),
    b("bitwise_right_shift", "rshift_wide", lambda T, x, y: x.bitwise_right_shift(y * 20),
      dtypes=("int64", "int32")),
    u("bitwise_left_shift", "lshift_scalar", lambda T, x: x << 2, dtypes=INTEGERS),
]

LOGIC = [
    b("logical_and", "logical_and", lambda T, x, y: T.logical_and(x, y),
      dtypes=FI, variants=_pair),
    b("logical_or", "logical_or", lambda T, x, y: x.logical_or(y), dtypes=FI, variants=_pair),
    b("logical_xor", "logical_xor", lambda T, x, y: T.logical_xor(x, y), dtypes=FI,
      variants=_pair),
    OpInfo("logical_and", "logical_and_", lambda T, x, y: x.clone().logical_and_(y),
           BINARY_NONEMPTY, dtypes=FI),
    u("logical_and", "logical_and_number", lambda T, x: x.logical_and(1.0), dtypes=F),
    u("logical_or", "logical_or_number", lambda T, x: T.logical_or(x, 1), dtypes=F),
    u("logical_not", "logical_not_", lambda T, x: x.clone().logical_not_(), dtypes=FI),
    u("logical_not", "logical_not_function", lambda T, x: T.logical_not(x), dtypes=FI),
    u("signbit", "signbit", lambda T, x: T.signbit(x * (x > 0) * -1), dtypes=FI + ("float16",),
      variants=_self),
    u("isposinf", "isposinf", lambda T, x: T.isposinf(x / (x > 0.5)), dtypes=FI,
      variants=_self),
    u("isneginf", "isneginf", lambda T, x: (x / (x > 0.5)).isneginf(), dtypes=FI,
      variants=_self),
    u(None, "isreal", lambda T, x: T.isreal(x), dtypes=FI),
    u(None, "positive", lambda T, x: T.positive(x), dtypes=FI),
    # aliases and in-place forms of pointwise's records
    b("bitwise_and", "bitwise_and", lambda T, x, y: T.bitwise_and(x > 0, y > 0)),
    b("bitwise_or", "bitwise_or_", lambda T, x, y: (x > 0).bitwise_or_(y > 0)),
    b("bitwise_xor", "bitwise_xor_int", lambda T, x, y: x.long().bitwise_xor(y.long())),
    b("bitwise_and", "iand", lambda T, x, y: _iand(x.long(), y.long())),
    b("bitwise_and", "bitwise_and_float", lambda T, x, y: x.bitwise_and(y), dtypes=F),
    u("bitwise_not", "bitwise_not", lambda T, x: T.bitwise_not(x), dtypes=FI + INTEGERS),
    u("bitwise_not", "bitwise_not_", lambda T, x: x.clone().bitwise_not_(), dtypes=FI),
    u("bitwise_not", "invert_float", lambda T, x: ~x, dtypes=F),
    b("gt", "greater", lambda T, x, y: T.greater(x, y)),
    b("ge", "greater_equal", lambda T, x, y: x.greater_equal(y)),
    b("lt", "less", lambda T, x, y: T.less(x, y)),
    b("le", "less_equal", lambda T, x, y: x.less_equal(y)),
    b("ne", "not_equal", lambda T, x, y: T.not_equal(x, y)),
]


def _iand(x, y):
    x &= y
    return x


def _compare_rows(name, alias):
    number, tensor = f"{name.capitalize()}Backward0", f"{name.capitalize()}Backward1"
    rows = [u(number, f"{name}_", lambda T, x: getattr(x.clone(), name + "_")(0.5), dtypes=FI,
              variants=lambda T, x: ((x, 0.5), {})),
            b(tensor, f"{name}_tensor_", lambda T, x, y: getattr(x.clone(), name + "_")(y),
              dtypes=FI, variants=_pair)]
    rows[1].samples = BINARY_NONEMPTY
    if alias:
        rows.append(u(number, f"{alias}_", lambda T, x: getattr(x.clone(), alias + "_")(1),
                      dtypes=F))
    return rows


COMPARE_ = [row for name, alias in (("eq", None), ("ne", "not_equal"), ("lt", "less"),
                                    ("le", "less_equal"), ("gt", "greater"),
                                    ("ge", "greater_equal"))
            for row in _compare_rows(name, alias)] + [
    u("GtBackward0", "gt_int_by_float", lambda T, x: x.long().gt_(0.5), dtypes=F),
]

ALIASES = [
    u("AbsBackward0", "absolute", lambda T, x: T.absolute(x), dtypes=F + ("int64",)),
    u("AbsBackward0", "absolute_", lambda T, x: x.clone().absolute_(), dtypes=F),
    u("AbsBackward0", "abs_function_", lambda T, x: T.abs_(x.clone()), dtypes=F),
    u("NegBackward0", "negative_function", lambda T, x: T.negative(x), dtypes=F),
    u("NegBackward0", "negative_inplace", lambda T, x: T.negative_(x.clone()), dtypes=F),
    u("TruncBackward0", "fix", lambda T, x: T.fix(x), dtypes=F),
    u("TruncBackward0", "fix_", lambda T, x: x.clone().fix_(), dtypes=F),
    b("MulBackward0", "multiply", lambda T, x, y: T.multiply(x, y), dtypes=F),
    OpInfo("MulBackward0", "multiply_", lambda T, x, y: x.clone().multiply_(y),
           BINARY_NONEMPTY, dtypes=F),
    b("SubBackward0", "subtract", lambda T, x, y: T.subtract(x, y, alpha=2), dtypes=F),
    OpInfo("SubBackward0", "subtract_", lambda T, x, y: x.clone().subtract_(y),
           BINARY_NONEMPTY, dtypes=F),
    b("DivBackward0", "divide", lambda T, x, y: T.divide(x, y), dtypes=F, nonzero=(1,)),
    b("DivBackward2", "divide_floor", lambda T, x, y: x.divide(y, rounding_mode="floor"),
      dtypes=F, nonzero=(1,)),
    OpInfo("DivBackward0", "divide_", lambda T, x, y: x.clone().divide_(y), BINARY_NONEMPTY,
           dtypes=F, nonzero=(1,)),
    OpInfo("DivBackward0", "true_divide_", lambda T, x, y: x.clone().true_divide_(y),
           BINARY_NONEMPTY, dtypes=F, nonzero=(1,)),
    b("DivBackward0", "true_divide_method", lambda T, x, y: x.true_divide(y), dtypes=F,
      nonzero=(1,)),
    OpInfo("floor_divide", "floor_divide_", lambda T, x, y: x.clone().floor_divide_(y),
           BINARY_NONEMPTY, dtypes=("float32", "int64"), nonzero=(1,), grad=False),
    OpInfo("RemainderBackward1", "remainder_", lambda T, x, y: x.clone().remainder_(y),
           BINARY_NONEMPTY, dtypes=("float32", "int64"), nonzero=(1,)),
    u("RemainderBackward0", "remainder_scalar_", lambda T, x: x.clone().remainder_(1.5),
      dtypes=F),
    OpInfo("Atan2Backward0", "arctan2_", lambda T, x, y: x.clone().arctan2_(y),
           BINARY_NONEMPTY, dtypes=F),
    u("ClampBackward1", "clip_function_", lambda T, x: T.clip_(x.clone(), -1, 1), dtypes=F),
    u("ExpBackward0", "exp_function_", lambda T, x: T.exp_(x.clone()), dtypes=F),
    u("SigmoidBackward0", "sigmoid_function_", lambda T, x: T.sigmoid_(x.clone()), dtypes=F),
    u("RoundBackward1", "special_round", lambda T, x: T.special.round(x), dtypes=F),
    u("SigmoidBackward0", "special_expit", lambda T, x: T.special.expit(x), dtypes=F),
    u("DigammaBackward0", "special_psi", lambda T, x: T.special.psi(x), dtypes=F,
      domain=(0.5, 3.0), **SPECIAL_TOL),
    u("LgammaBackward0", "special_gammaln", lambda T, x: T.special.gammaln(x), dtypes=F,
      domain=(0.5, 3.0), **SPECIAL_TOL),
    u("MvlgammaBackward0", "special_multigammaln", lambda T, x: T.special.multigammaln(x, 2),
      dtypes=F, domain=(1.0, 3.0), **SPECIAL_TOL),
]

POLYNOMIAL_NAMES = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                    "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
                    "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
                    "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                    "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p")
# float32: the trigonometric forms of large degree go through glibc's acosf/cosf in torch,
# through float64 rounded once here: a few ulps, more relative to values near a zero
POLYNOMIAL_F32_TOL = {"rtol": 1e-3, "atol": 1e-4, "reprs": False}


def _polynomial_rows(name):
    key = "special_" + name
    shifted = name.startswith("shifted")

    def degrees(y):  # degrees from -1 to 12, some of them as floats (truncated)
        return (y * 2.2 + 5.5).long() if y.is_floating_point() else y + 3

    def fn(T, x, y):
        return getattr(T.special, name)(x * 0.5 + 0.5 if shifted else x, degrees(y))
    return [
        b(key, name, fn, domain=(-1.5, 1.5), dtypes=("float64", "int64", "float16"),
          grad=False),
        b(key, name + "_float32", fn, domain=(-1.5, 1.5), dtypes=("float32",), grad=False,
          **POLYNOMIAL_F32_TOL),
        u(key, name + "_number_degree", lambda T, x: getattr(T.special, name)(x, 3.7),
          domain=(-1.5, 1.5), dtypes=("float64",), grad=False),
        u(key, name + "_number_input", lambda T, x: getattr(T.special, name)(
            0.25, (x * 3).long()), dtypes=("float64",), grad=False),
    ]


POLYNOMIALS = [row for name in POLYNOMIAL_NAMES for row in _polynomial_rows(name)]

BESSEL_NAMES = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "spherical_bessel_j0",
                "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
                "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
                "airy_ai")


def _bessel_rows(name):
    """float64 bit-exact; float32 within a few ulps (glibc's float sin, cos, log in torch)."""
    key = "special_" + name

    def fn(T, x):
        return getattr(T.special, name)(x)
    return [u(key, name, fn, domain=(-12.0, 12.0), dtypes=("float64", "int64", "float16"),
              grad=False),
            u(key, name + "_float32", fn, domain=(-12.0, 12.0), dtypes=("float32",),
              grad=False, rtol=1e-5, atol=1e-6, reprs=False),
            u(key, name + "_special", lambda T, x: fn(T, x / (x > 0.5)), dtypes=("float64",),
              grad=False)]


BESSEL = [row for name in BESSEL_NAMES for row in _bessel_rows(name)]

ZETA = [
    # zeta(x, q): no derivative in x (its backward raises), -x zeta(x + 1, q) in q
    b("SpecialZetaBackward0", "zeta", lambda T, x, y: T.special.zeta(x.abs() + 1.5, y),
      domain=(-2.5, 4.0), dtypes=F + ("int64", "float16")),
    b("SpecialZetaBackward0", "zeta_other_grad", lambda T, x, y: T.special.zeta(
        x.detach().abs() + 1.5, y), domain=(0.2, 4.0), dtypes=F, rtol=1e-5, atol=1e-6),
    u("SpecialZetaBackward1", "zeta_number_self", lambda T, x: T.special.zeta(2.5, x),
      domain=(-2.5, 4.0), dtypes=F + ("int64",)),
    u("SpecialZetaBackward2", "zeta_number_other",
      lambda T, x: T.special.zeta(x.abs() + 1, 0.5), dtypes=F),
    u("SpecialZetaBackward2", "zeta_number_other_no_grad",
      lambda T, x: T.special.zeta(x.detach().abs() + 1, -1.5), dtypes=F),
    u("PolygammaBackward0", "polygamma_5", lambda T, x: T.polygamma(5, x), domain=(0.2, 4.0),
      dtypes=("float32",), rtol=1e-5, atol=1e-6, reprs=False),
    # float64 from n = 4 on: n! where glibc's exp(lgamma(n + 1)) is an ulp off
    u("PolygammaBackward0", "polygamma_5_double", lambda T, x: T.polygamma(5, x),
      domain=(0.2, 4.0), dtypes=("float64",)),
    # ndtr: torch's composite (1 + erf(x / sqrt(2))) * 0.5 through add.Scalar (AddBackward1)
    # and mul.Scalar (MulBackward1, ops/statistics.py's record)
    u("AddBackward1", "ndtr", lambda T, x: T.special.ndtr(x), dtypes=F + ("int64",)),
    # float16: a half-precision ulp apart in places (torch's half erf and its rounding of
    # each step): values within float16's tolerance, reprs not compared
    u("AddBackward1", "ndtr_half", lambda T, x: T.special.ndtr(x), dtypes=("float16",),
      reprs=False),
    u("AddBackward1", "ndtr_grad_fn", lambda T, x: type(
        T.special.ndtr(x).grad_fn.next_functions[0][0]).__name__, dtypes=F),
    # erfcx and log_ndtr (Note [erfcx]): float64 bit-exact, float32 an ulp apart in places
    u("SpecialErfcxBackward0", "erfcx", lambda T, x: T.special.erfcx(x * 20),
      dtypes=("float64", "int64", "float16")),
    # (its gradient 2 x erfcx(x) - 2 / sqrt(pi) cancels for large x: an ulp of erfcx there is
    # a relative 1e-3 of the gradient)
    u("SpecialErfcxBackward0", "erfcx_float32", lambda T, x: T.special.erfcx(x * 20),
      dtypes=("float32",), reprs=False, rtol=1e-3, atol=1e-5),
    u("SpecialErfcxBackward0", "erfcx_special", lambda T, x: T.special.erfcx(x / (x > 0.5)),
      dtypes=("float64",)),
    u("SpecialLogNdtrBackward0", "log_ndtr", lambda T, x: T.special.log_ndtr(x * 10),
      dtypes=("float64", "int64", "float16")),
    u("SpecialLogNdtrBackward0", "log_ndtr_float32", lambda T, x: T.special.log_ndtr(x * 10),
      dtypes=("float32",), reprs=False),
    u("SpecialNdtriBackward0", "ndtri", lambda T, x: T.special.ndtri(x), domain=(0.0, 1.0),
      dtypes=F + ("float16",)),
    u("SpecialNdtriBackward0", "ndtri_ends", lambda T, x: T.special.ndtri(x.round()),
      domain=(-0.2, 1.2), dtypes=F),
    u("SpecialNdtriBackward0", "ndtri_tails", lambda T, x: T.special.ndtri(x * 1e-10),
      domain=(0.0, 1.0), dtypes=("float64",)),
]

INCOMPLETE_GAMMA = [
    # Note [incomplete gamma]; the gradient in a is not implemented (the backward raises);
    # float32: torch's float steps, a few ulps from doctensor's rounded float64 (no reprs)
    b("IgammaBackward0", "igamma", lambda T, x, y: T.igamma(x, y), domain=(0.0, 6.0),
      dtypes=F + ("int64",), variants=_pair, reprs=False),
    b("IgammacBackward0", "igammac", lambda T, x, y: x.igammac(y), domain=(0.0, 6.0),
      dtypes=F + ("int64",), variants=_pair, reprs=False),
    b("IgammaBackward0", "gammainc_x_grad", lambda T, x, y: T.special.gammainc(x.detach(), y),
      domain=(0.1, 6.0), dtypes=F, reprs=False),
    b("IgammacBackward0", "gammaincc_x_grad",
      lambda T, x, y: T.special.gammaincc(x.detach(), y), domain=(0.1, 6.0), dtypes=F,
      reprs=False),
    OpInfo("IgammaBackward0", "igamma_", lambda T, x, y: x.detach().clone().igamma_(y),
           BINARY_NONEMPTY, domain=(0.0, 6.0), dtypes=F, reprs=False),
    b("IgammacBackward0", "igammac_edges", lambda T, x, y: T.igammac(x.round(), y / (y > 1)),
      domain=(-1.0, 3.0), dtypes=F, grad=False),
    # a large, x near a: torch's asymptotic expansion divides by sqrt(2 pi a) with a float32
    # pi (about 4e-10 off); doctensor's series is accurate there
    b("IgammacBackward0", "igammac_large", lambda T, x, y: T.igammac(x * 20 + 60, y * 20 + 60),
      domain=(0.0, 2.0), dtypes=("float64",), grad=False, atol=1e-9, reprs=False),
]

ROWS = (TRIG + SPECIAL + ZETA + INCOMPLETE_GAMMA + BINARY_FLOAT + INTEGER + LOGIC + COMPARE_
        + ALIASES + POLYNOMIALS + BESSEL)
