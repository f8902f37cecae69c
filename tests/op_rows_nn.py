"""The op table's rows for the ops of ``torch.nn.functional`` (activations, softmax, losses,
embedding, normalisation, convolution, pooling, resizing) and the fused pointwise ops the
optimizers use (addcmul, addcdiv, lerp): one ``OpInfo`` per row (``op_table.py``).

The nn functions are reached through ``T.nn.functional`` (``F(T)`` below).  Tensors a row
makes inside its ``fn`` (targets, indices, running stats) are made on the input's device.
The double-backward records (``...BackwardBackward0``, ``...BackwardDataBackward0``) are the
``grad_fn`` of a first gradient made with ``create_graph=True`` (``grad_of``): torch's node
name and values are compared, and the row's own gradients then run the double backward.

Kinks: ``near(T, x, v)`` moves the elements of ``x`` close to ``v`` exactly onto ``v``
(``x - x.detach()`` is an exact zero whose slope is one), so values and gradients are
compared where the piecewise ops switch branch.

Tolerances: ``_oracle.tol``.  Where a float32 sum runs in another order than torch's kernel
(normalisation statistics, convolution windows, bilinear taps) the float32 row is looser
(``f32_loose``: its own row, so that float64 keeps the default tolerance) or leaves the
printed repr out (``reprs=False``: values within tolerance, the 4th printed decimal may
round the other way); each such row says why.

Rows with ``xfail`` are known differences from torch 2.13, each with what differs; the
other rows of the record leave that case out (a dtype, a layout, a 0-d or empty sample).
Exact comparisons (``EXACT``: rtol = atol = 0) show last-bit differences on every device,
and ``1 / result`` shows a signed zero as an infinity.
"""

from dataclasses import replace

from _oracle import FLOATS
from op_table import BINARY, DEVICES, NUM, UNARY, OpInfo, b

import doctensor

__all__ = ["ROWS"]

FLOAT_KINDS = FLOATS + ("float16",)
INTS = ("int64", "int32", "uint8", "bool")
EXACT = {"rtol": 0.0, "atol": 0.0}

TERNARY = [((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), (3, 1)), (((3, 4), "T"), (3, 4), ()),
           ((), (), ()), ((2, 3, 4), (3, 4), (2, 1, 4)), ((0, 3), (3,), (0, 1)),
           ((5,), ((5,), "step"), (5,))]
# in place: self has the broadcast shape
SAME3 = [((3, 4), (3, 4), (3, 4)), ((2, 3, 4), (3, 4), (2, 1, 4)), (((3, 4), "T"), (3, 4), ()),
         ((), (), ())]
SAME2 = [((3, 4), (3, 4)), ((3, 4), (4,)), (((3, 4), "T"), (3, 4)), ((), ()),
         ((2, 3, 4), ())]
PAIRS = [((3, 4), (3, 4)), ((5,), (5,)), ((), ()), (((3, 4), "T"), (3, 4)),
         ((2, 3, 4), ((2, 3, 4), "T")), ((0, 3), (0, 3))]
TRANSPOSED = ((3, 4), "T")
NOT_T = [s for s in UNARY if s != TRANSPOSED]  # UNARY without its transposed sample
NOT_0D = [s for s in UNARY if s != ()]
# softmax: no 0-d (softmax_0d), empty (softmax_empty) or transposed (softmax_transposed) input
SOFTMAX_SAMPLES = [s for s in NOT_T if s not in ((), (0,))]
NOT_0D_PAIRS = PAIRS[:2] + PAIRS[3:]
# gelu's double backward: no 0-d (gelu_0d) or transposed output gradient (..._transposed_grad)
GELU_PAIRS = [PAIRS[0], PAIRS[1], PAIRS[3], PAIRS[5]]


def un(record, name, fn, samples=UNARY, **kw):
    """A row of a unary op (UNARY samples unless given)."""
    return OpInfo(record, name, fn, samples, **kw)


def F(T):
    return T.nn.functional


def near(T, x, v, width=0.5):
    """``x`` with its elements within ``width`` of ``v`` moved exactly onto ``v`` (a kink),
    the gradient still reaching every element of ``x``."""
    return T.where((x - v).abs() < width, x - x.detach() + v, x)


def f32_loose(record, name, fn, samples, rtol, atol=None, **kw):
    """Two rows: float32 with a looser tolerance (its sums run in another order than
    torch's: the values differ in the last bits, and the repr may too), float64 with the
    default one."""
    return [OpInfo(record, name, fn, samples, dtypes=("float32",), rtol=rtol,
                   atol=rtol if atol is None else atol, reprs=False, **kw),
            OpInfo(record, name + "_f64", fn, samples, dtypes=("float64",), **kw)]


def grad_of(T, out, inputs, g):
    """The first gradient of ``out`` for ``g``, with its graph (the double-backward node)."""
    return T.autograd.grad(out, inputs, g, create_graph=True)


def _grad_for(T, out, x, g):
    """The gradient of ``out`` for ``x`` and the output gradient ``g`` (no graph)."""
    return T.autograd.grad(out, x, T.full(out.shape, g, dtype=out.dtype, device=x.device))[0]


# -- the optimizers' fused pointwise ops ---------------------------------------------------

_ADDCDIV_ROUNDING = (
    "addcdiv's gradients round differently: doctensor computes grad * value / tensor2 and "
    "-grad * value * tensor1 / (tensor2 * tensor2), torch grad * (value / tensor2) and "
    "-grad * (value * tensor1 / (tensor2 * tensor2)) (1 ulp in float32)")

FUSED = [
    OpInfo("AddcmulBackward0", "addcmul", lambda T, x, y, z: T.addcmul(x, y, z), TERNARY,
           dtypes=NUM, variants=lambda T, x, y, z: ((x, y, z), {"value": 0.5})),
    OpInfo("AddcmulBackward0", "addcmul_value", lambda T, x, y, z: x.addcmul(y, z, value=-2),
           TERNARY, dtypes=NUM[:-1]),
    OpInfo("AddcmulBackward0", "addcmul_value_float",
           lambda T, x, y, z: x.addcmul(y, z, value=0.5), TERNARY, dtypes=NUM),
    OpInfo("AddcmulBackward0", "addcmul_", lambda T, x, y, z: x.clone().addcmul_(y, z, value=3),
           SAME3, dtypes=NUM),
    OpInfo("AddcmulBackward0", "addcmul_broadcast_self",
           lambda T, x, y, z: x.clone().addcmul_(y, z), [((4,), (3, 4), (3, 4))],
           dtypes=FLOATS),
    OpInfo("AddcmulBackward0", "addcmul_bool", lambda T, x, y, z: T.addcmul(x, y, z),
           TERNARY[:2], dtypes=("bool",)),
    OpInfo("AddcmulBackward0", "addcmul_uint8_negative_value",
           lambda T, x, y, z: T.addcmul(x, y, z, value=-2), TERNARY[:1], dtypes=("uint8",),
           xfail="a negative value with uint8 tensors: torch wraps around, doctensor raises "
                 "OverflowError: Python integer -2 out of bounds for uint8"),
    OpInfo("AddcmulBackward0", "addcmul_float16",
           lambda T, x, y, z: T.addcmul(x, y, z, value=0.5), TERNARY[:2], dtypes=("float16",),
           **EXACT,
           xfail="float16: torch computes self + value * t1 * t2 in float32 and rounds once, "
                 "doctensor rounds the product to half first (1 ulp)"),
    # addcdiv: the float32 gradients' 4th printed decimal may differ (addcdiv_grad_rounding)
    OpInfo("AddcdivBackward0", "addcdiv", lambda T, x, y, z: T.addcdiv(x, y, z), TERNARY,
           nonzero=(2,), dtypes=FLOATS, reprs=False,
           variants=lambda T, x, y, z: ((x, y, z), {"value": 0.5})),
    OpInfo("AddcdivBackward0", "addcdiv_value",
           lambda T, x, y, z: x.addcdiv(y, z, value=-0.25), TERNARY, nonzero=(2,),
           dtypes=FLOATS),
    OpInfo("AddcdivBackward0", "addcdiv_",
           lambda T, x, y, z: x.clone().addcdiv_(y, z, value=2), SAME3, nonzero=(2,),
           dtypes=FLOATS),
    # Adam's step: param.addcdiv_(exp_avg, exp_avg_sq.sqrt() + eps, value=-lr)
    OpInfo("AddcdivBackward0", "addcdiv_adam",
           lambda T, x, y, z: x.detach().clone().addcdiv_(y, z.abs().sqrt() + 1e-8, value=-0.1),
           SAME3[:2], dtypes=FLOATS),
    OpInfo("AddcdivBackward0", "addcdiv_integer", lambda T, x, y, z: T.addcdiv(x, y, z),
           TERNARY[:1], nonzero=(2,), dtypes=INTS),
    OpInfo("AddcdivBackward0", "addcdiv_float16", lambda T, x, y, z: T.addcdiv(x, y, z),
           TERNARY[:2], nonzero=(2,), dtypes=("float16",), **EXACT,
           xfail="float16: torch computes in float32 and rounds once, doctensor rounds each "
                 "step to half"),
    OpInfo("AddcdivBackward0", "addcdiv_grad_rounding",
           lambda T, x, y, z: T.addcdiv(x, y, z, value=0.5), TERNARY[:1], nonzero=(2,),
           dtypes=("float32",), **EXACT, xfail=_ADDCDIV_ROUNDING),
    b("LerpBackward0", "lerp", lambda T, x, y: T.lerp(x, y, 0.3), dtypes=FLOATS,
      variants=lambda T, x, y: ((x, y, 0.25), {})),
    b("LerpBackward0", "lerp_high_weight", lambda T, x, y: x.lerp(y, 0.75), dtypes=FLOATS),
    b("LerpBackward0", "lerp_weight_half", lambda T, x, y: x.lerp(y, 0.5), dtypes=FLOATS),
    b("LerpBackward0", "lerp_weight_out_of_range", lambda T, x, y: T.lerp(x, y, -1.5),
      dtypes=FLOATS),
    OpInfo("LerpBackward0", "lerp_", lambda T, x, y: x.clone().lerp_(y, 0.9), SAME2,
           dtypes=FLOATS),
    # an EMA update: ema.lerp_(param, 1 - decay)
    OpInfo("LerpBackward0", "lerp_ema", lambda T, x, y: x.detach().clone().lerp_(y, 0.001),
           SAME2[:2], dtypes=FLOATS),
    # refusals: integer and bool inputs, an end of another dtype
    OpInfo("LerpBackward0", "lerp_integer", lambda T, x, y: T.lerp(x, y, 0.5), BINARY[:2],
           dtypes=INTS),
    OpInfo("LerpBackward0", "lerp_mixed_dtypes", lambda T, x, y: T.lerp(x, y.double(), 0.5),
           PAIRS[:2], dtypes=("float32",)),
    OpInfo("LerpBackward0", "lerp_inplace_mixed_dtypes",
           lambda T, x, y: x.clone().lerp_(y.double(), 0.5), PAIRS[:1], dtypes=("float32",)),
    OpInfo("LerpBackward1", "lerp_tensor_weight",
           lambda T, x, y, w: (T.lerp(x, y, w), x.lerp(y, w * 4 - 1.5)), TERNARY, dtypes=FLOATS,
           variants=lambda T, x, y, w: ((x, y, w), {})),
    OpInfo("LerpBackward1", "lerp_tensor_weight_errors",
           lambda T, x, y, w: (x.lerp(y, w.double()) if x.dtype != T.float64 else
                               x.long().lerp(y.long(), w.long())), TERNARY[:1]),
    b("LerpBackward0", "lerp_float16", lambda T, x, y: T.lerp(x, y, 0.3), dtypes=("float16",),
      **EXACT,
      xfail="float16: torch computes in float32 and rounds once, doctensor rounds each step "
            "to half"),
]

# -- activations ---------------------------------------------------------------------------

# float32 last bits: gelu's erf/tanh and the softmax backwards are computed in float64 and
# rounded once (Note [activation arithmetic]), torch's vectorised float32 kernels are within
# an ulp of that: values within tolerance, the repr's 4th decimal may differ
ACTIVATIONS = [
    # (0-d inputs: gelu_0d)
    un("GeluBackward0", "gelu", lambda T, x: F(T).gelu(x), NOT_0D, dtypes=FLOAT_KINDS,
       reprs=False),
    un("GeluBackward0", "gelu_tanh", lambda T, x: F(T).gelu(x, approximate="tanh"), NOT_0D,
       dtypes=FLOAT_KINDS, reprs=False),
    OpInfo("GeluBackward0", "gelu_0d", lambda T, x: F(T).gelu(x), [()],
           dtypes=FLOATS),
    un("GeluBackward0", "gelu_bad_approximate", lambda T, x: F(T).gelu(x, approximate="erf"),
       dtypes=FLOATS),
    un("GeluBackward0", "gelu_integer", lambda T, x: F(T).gelu(x), NOT_T[3:5], dtypes=INTS),
    OpInfo("GeluBackwardBackward0", "gelu_double",
           lambda T, x, g: grad_of(T, F(T).gelu(x), x, g), GELU_PAIRS, dtypes=FLOATS,
           reprs=False),
    OpInfo("GeluBackwardBackward0", "gelu_tanh_double",
           lambda T, x, g: grad_of(T, F(T).gelu(x, approximate="tanh"), x, g),
           GELU_PAIRS, dtypes=FLOATS, reprs=False),
    OpInfo("GeluBackwardBackward0", "gelu_double_sum",
           lambda T, x: grad_of(T, F(T).gelu(x).sum(), x, None), NOT_0D, dtypes=FLOATS,
           reprs=False),
    OpInfo("GeluBackwardBackward0", "gelu_double_transposed_grad",
           lambda T, x, g: grad_of(T, F(T).gelu(x), x, g), [((2, 3, 4), ((2, 3, 4), "T"))],
           dtypes=FLOATS),
    un("LeakyReluBackward0", "leaky_relu", lambda T, x: F(T).leaky_relu(near(T, x, 0)),
       dtypes=FLOATS),
    un("LeakyReluBackward0", "leaky_relu_slope", lambda T, x: F(T).leaky_relu(x, 0.2),
       dtypes=FLOATS),
    un("LeakyReluBackward0", "leaky_relu_negative_slope",
       lambda T, x: F(T).leaky_relu(near(T, x, 0), -0.5), dtypes=FLOATS),
    un("LeakyReluBackward0", "leaky_relu_integer", lambda T, x: F(T).leaky_relu(x),
       NOT_T[3:5], dtypes=INTS),
    un("LeakyReluBackward0", "leaky_relu_float16", lambda T, x: F(T).leaky_relu(x),
       dtypes=("float16",), **EXACT,
       xfail="float16: torch multiplies by the slope in float32 and rounds once, doctensor "
             "rounds the slope to half first (1 ulp)"),
    un("LeakyReluBackward1", "leaky_relu_", lambda T, x: F(T).leaky_relu(near(T, x, 0),
                                                                       inplace=True),
       dtypes=FLOATS),
    un("LeakyReluBackward1", "leaky_relu_slope_",
       lambda T, x: F(T).leaky_relu(x * 1, 0.3, inplace=True), dtypes=FLOATS),
    un("LeakyReluBackward1", "leaky_relu_inplace_leaf",
       lambda T, x: F(T).leaky_relu(x, inplace=True), [(3, 4)], dtypes=FLOATS),
    # in place with a negative slope: the backward refuses (the result's sign is lost)
    un("LeakyReluBackward1", "leaky_relu_negative_slope_",
       lambda T, x: F(T).leaky_relu(x * 1, -0.1, inplace=True), dtypes=FLOATS),
    un("EluBackward0", "elu", lambda T, x: F(T).elu(near(T, x, 0)), dtypes=FLOAT_KINDS),
    un("EluBackward0", "elu_alpha", lambda T, x: F(T).elu(x, alpha=0.5), dtypes=FLOAT_KINDS),
    un("EluBackward0", "selu", lambda T, x: F(T).selu(near(T, x, 0)), dtypes=FLOATS),
    OpInfo("EluBackward0", "elu_0d_negative", lambda T, x: F(T).elu(x), [()], dtypes=FLOATS,
           domain=(-3.0, 0.0)),
    un("EluBackward0", "elu_integer", lambda T, x: F(T).elu(x), NOT_T[3:4], dtypes=INTS),
    un("EluBackward0", "selu_float16", lambda T, x: F(T).selu(x), dtypes=("float16",), **EXACT,
       xfail="float16: torch computes scale * alpha * expm1(x) in float32 and rounds once, "
             "doctensor rounds expm1 to half first (1 ulp)"),
    un("EluBackward1", "elu_", lambda T, x: F(T).elu(near(T, x, 0), inplace=True),
       dtypes=FLOAT_KINDS),
    # in place on a leaf that requires grad: refused
    un("EluBackward1", "elu_inplace_leaf", lambda T, x: F(T).elu(x, inplace=True), [(3, 4)],
       dtypes=FLOATS),
    un("EluBackward1", "elu_alpha_", lambda T, x: F(T).elu(x * 1, alpha=2.0, inplace=True),
       dtypes=FLOAT_KINDS),
    un("EluBackward1", "selu_", lambda T, x: F(T).selu(x * 1, inplace=True), dtypes=FLOATS),
    un("CeluBackward0", "celu", lambda T, x: F(T).celu(near(T, x, 0)), dtypes=FLOAT_KINDS),
    un("CeluBackward0", "celu_alpha", lambda T, x: F(T).celu(x, alpha=0.5), dtypes=FLOATS),
    un("CeluBackward0", "celu_integer", lambda T, x: F(T).celu(x), NOT_T[3:4], dtypes=INTS),
    un("CeluBackward1", "celu_", lambda T, x: F(T).celu(near(T, x, 0), inplace=True),
       dtypes=FLOAT_KINDS),
    un("CeluBackward1", "celu_alpha_", lambda T, x: F(T).celu(x * 1, alpha=3.0, inplace=True),
       dtypes=FLOATS),
    un("CeluBackward1", "celu_alpha_float16",
       lambda T, x: F(T).celu(x * 1, alpha=3.0, inplace=True), dtypes=("float16",), **EXACT,
       xfail="float16: torch computes alpha * expm1(x / alpha) in float32 and rounds once, "
             "doctensor rounds x / alpha and expm1 to half first (1 ulp)"),
    un("SiluBackward0", "silu", lambda T, x: F(T).silu(x), domain=(-8.0, 8.0),
       dtypes=FLOAT_KINDS),
    un("SiluBackward0", "silu_inplace", lambda T, x: F(T).silu(x * 1, inplace=True),
       dtypes=FLOAT_KINDS),
    un("SiluBackward0", "silu_integer", lambda T, x: F(T).silu(x), NOT_T[3:4], dtypes=INTS),
    un("MishBackward0", "mish", lambda T, x: F(T).mish(x), domain=(-8.0, 8.0),
       dtypes=FLOAT_KINDS),
    un("MishBackward0", "mish_inplace", lambda T, x: F(T).mish(x * 1, inplace=True),
       dtypes=FLOAT_KINDS),
    un("MishBackward0", "mish_integer", lambda T, x: F(T).mish(x), NOT_T[3:4], dtypes=INTS),
    un("SoftplusBackward0", "softplus", lambda T, x: F(T).softplus(x), domain=(-30.0, 30.0),
       dtypes=FLOAT_KINDS),
    un("SoftplusBackward0", "softplus_beta_threshold",
       lambda T, x: F(T).softplus(near(T, x, 1.5, 0.3), beta=2, threshold=3),
       dtypes=FLOAT_KINDS),
    un("SoftplusBackward0", "softplus_integer", lambda T, x: F(T).softplus(x), NOT_T[3:4],
       dtypes=INTS),
    un("LogSigmoidBackward0", "logsigmoid", lambda T, x: F(T).logsigmoid(x), NOT_T,
       domain=(-40.0, 40.0), dtypes=FLOAT_KINDS),
    un("LogSigmoidBackward0", "logsigmoid_small", lambda T, x: F(T).logsigmoid(x), NOT_T,
       dtypes=FLOAT_KINDS),
    un("LogSigmoidBackward0", "logsigmoid_integer", lambda T, x: F(T).logsigmoid(x),
       NOT_T[3:4], dtypes=INTS),
    OpInfo("LogSigmoidBackward0", "logsigmoid_transposed", lambda T, x: F(T).logsigmoid(x),
           [TRANSPOSED], dtypes=FLOATS),
    un("HardtanhBackward0", "hardtanh",
       lambda T, x: F(T).hardtanh(near(T, near(T, x, -1, 0.3), 1, 0.3)), dtypes=FLOAT_KINDS),
    # the empty sample left out: torch's result keeps an empty input's strides, doctensor's
    # empty results are contiguous (the known gap of the pointwise ops)
    un("HardtanhBackward0", "hardtanh_range", lambda T, x: F(T).hardtanh(x, -0.5, 2.0),
       [s for s in UNARY if s != (0,)], dtypes=FLOAT_KINDS + ("int64", "int32")),
    un("HardtanhBackward0", "hardtanh_bad_range", lambda T, x: F(T).hardtanh(x, 2.0, 1.0),
       dtypes=FLOATS),
    un("HardtanhBackward0", "relu6",
       lambda T, x: F(T).relu6(near(T, near(T, x, 0, 0.3), 6, 0.5)), domain=(-3.0, 8.0),
       dtypes=FLOAT_KINDS),
    un("HardtanhBackward0", "hardtanh_", lambda T, x: F(T).hardtanh(near(T, x, 1), inplace=True),
       dtypes=FLOAT_KINDS + ("int64", "int32")),
    un("HardtanhBackward0", "relu6_", lambda T, x: F(T).relu6(x * 1, inplace=True),
       domain=(-3.0, 8.0), dtypes=FLOAT_KINDS),
    un("HardtanhBackward0", "hardtanh_uint8", lambda T, x: F(T).hardtanh(x), NOT_T[3:4],
       dtypes=("uint8",)),
    un("HardtanhBackward0", "hardtanh_bool", lambda T, x: F(T).hardtanh(x, 0.0, 1.0), NOT_T[3:4],
       dtypes=("bool",)),
    un("HardsigmoidBackward0", "hardsigmoid",
       lambda T, x: F(T).hardsigmoid(near(T, near(T, x, -3), 3)), domain=(-5.0, 5.0),
       dtypes=("float32", "int64", "bool")),
    un("HardsigmoidBackward0", "hardsigmoid_",
       lambda T, x: F(T).hardsigmoid(near(T, x, 3), inplace=True), domain=(-5.0, 5.0),
       dtypes=("float32",)),
    un("HardsigmoidBackward0", "hardsigmoid_float64_grad",
       lambda T, x: F(T).hardsigmoid(x), NOT_T[2:4], domain=(-2.5, 2.5), dtypes=("float64",),
       xfail="float64 gradient: torch multiplies by 1/6 rounded to float32 (its constant is "
             "1.0f / 6.0f), doctensor divides by 6 (relative 3e-8)"),
    un("HardsigmoidBackward0", "hardsigmoid_float16", lambda T, x: F(T).hardsigmoid(x),
       domain=(-5.0, 5.0), dtypes=("float16",), **EXACT,
       xfail="float16: torch computes (x + 3) / 6 in float32 and rounds once, doctensor rounds "
             "x + 3 to half first (1 ulp)"),
    un("HardswishBackward0", "hardswish",
       lambda T, x: F(T).hardswish(near(T, near(T, x, -3), 3)), domain=(-5.0, 5.0),
       dtypes=FLOATS + ("int64",)),
    un("HardswishBackward0", "hardswish_",
       lambda T, x: F(T).hardswish(near(T, x, -3), inplace=True), domain=(-5.0, 5.0),
       dtypes=FLOATS),
    un("HardswishBackward0", "hardswish_float16", lambda T, x: F(T).hardswish(x),
       domain=(-5.0, 5.0), dtypes=("float16",), **EXACT,
       xfail="float16: torch computes x * (x + 3) / 6 in float32 and rounds once, doctensor "
             "rounds each step to half (1 ulp)"),
    un("HardshrinkBackward0", "hardshrink",
       lambda T, x: F(T).hardshrink(near(T, near(T, x, -0.5, 0.2), 0.5, 0.2)),
       dtypes=FLOAT_KINDS + ("int64",)),
    un("HardshrinkBackward0", "hardshrink_lambd",
       lambda T, x: F(T).hardshrink(near(T, x, 1, 0.3), lambd=1.0), dtypes=FLOAT_KINDS),
    # softshrink: the zeros' sign in the repr differs (softshrink_signed_zero)
    un("SoftshrinkBackward0", "softshrink",
       lambda T, x: F(T).softshrink(near(T, near(T, x, -0.5, 0.2), 0.5, 0.2)),
       dtypes=FLOAT_KINDS + ("int64",), reprs=False),
    un("SoftshrinkBackward0", "softshrink_lambd",
       lambda T, x: F(T).softshrink(near(T, x, 1, 0.3), 1.0), dtypes=FLOAT_KINDS, reprs=False),
    un("SoftshrinkBackward0", "softshrink_negative_lambd",
       lambda T, x: F(T).softshrink(x, -1.0), NOT_T[3:4], dtypes=("float32",)),
    un("SoftshrinkBackward0", "softshrink_negative_lambd_double",
       lambda T, x: F(T).softshrink(x, -1.0), NOT_T[3:4], dtypes=("float64", "float16"),
       xfail="the refusal names float32's range for every dtype: doctensor says [0, "
             "3.40282e+38] for Double and Half, torch [0, 1.79769e+308] and [0, 65504]"),
    OpInfo("SoftshrinkBackward0", "softshrink_signed_zero",
           lambda T, x: 1 / F(T).softshrink(x.detach()), [(40,)], domain=(-0.4, 0.4),
           dtypes=FLOATS,
           xfail="the sign of zero: torch's vectorised kernel gives +0. inside [-lambd, lambd] "
                 "(its scalar tail -0. for negative x), doctensor -0. for every negative x"),
    un("ThresholdBackward0", "threshold",
       lambda T, x: F(T).threshold(near(T, x, 0.5, 0.3), 0.5, -1.0),
       dtypes=FLOAT_KINDS + ("int64", "int32")),
    un("ThresholdBackward0", "threshold_zero", lambda T, x: F(T).threshold(x, 0, 0),
       dtypes=FLOAT_KINDS + ("int64", "uint8")),
    un("ThresholdBackward0", "threshold_bool", lambda T, x: F(T).threshold(x, 0, 0), NOT_T[3:4],
       dtypes=("bool",)),
    un("ThresholdBackward1", "threshold_",
       lambda T, x: F(T).threshold(near(T, x, 0.5, 0.3), 0.5, 2.0, inplace=True),
       dtypes=FLOAT_KINDS),
    un("ThresholdBackward1", "threshold_relu_", lambda T, x: F(T).threshold(x * 1, 0.0, 0.0,
                                                                          inplace=True),
       dtypes=FLOATS),
    OpInfo("PreluKernelBackward0", "prelu",
           lambda T, x, w: F(T).prelu(near(T, x, 0, 0.3), w),
           [((2, 3), (3,)), ((2, 3, 4), (3,)), ((2, 3, 2, 2), (1,)), ((3,), (3,)),
            ((), (1,)), (((3, 4), "T"), (4,)), ((2, 3), (2,))], dtypes=FLOATS),
    OpInfo("PreluKernelBackward0", "prelu_scalar_weight",
           lambda T, x, w: F(T).prelu(x, w), [((2, 3), ()), ((4,), ())], dtypes=FLOATS),
    OpInfo("PreluKernelBackward0", "prelu_integer", lambda T, x, w: F(T).prelu(x, w),
           [((2, 3), (3,))], dtypes=("int64",)),
]

# -- softmax -------------------------------------------------------------------------------

_SOFTMAX_0D = ("a 0-d input: torch's result has grad_fn {}, doctensor's ViewBackward0 (it "
               "runs the op on a 1-element view)")
_SOFTMAX_EMPTY = ("an empty input on the CUDA device (and in float16 on the CPU): doctensor "
                  "raises ValueError: zero-size array to reduction operation maximum which "
                  "has no identity")
_SOFTMAX_LAYOUT = ("layout: torch's {} of a transposed input is contiguous (4, 1), "
                   "doctensor's keeps the input's strides (1, 3)")

SOFTMAX = [
    OpInfo("SoftmaxBackward0", "softmax", lambda T, x: F(T).softmax(x, dim=-1), SOFTMAX_SAMPLES,
           dtypes=FLOATS, variants=lambda T, x: ((x, -1), {})),
    OpInfo("SoftmaxBackward0", "softmax_dim0", lambda T, x: x.softmax(0), SOFTMAX_SAMPLES,
           dtypes=FLOATS),
    OpInfo("SoftmaxBackward0", "softmax_dtype", lambda T, x: T.softmax(x, 0, dtype=T.float64),
           SOFTMAX_SAMPLES, dtypes=FLOATS + ("int64", "bool")),
    OpInfo("SoftmaxBackward0", "softmax_implicit_dim", lambda T, x: F(T).softmax(x),
           [(3, 4), (2, 3, 4), (5,)], dtypes=FLOATS),
    OpInfo("SoftmaxBackward0", "softmax_large", lambda T, x: F(T).softmax(x, 1),
           [(3, 4), (2, 5, 3)], domain=(-80.0, 80.0), dtypes=FLOATS),
    OpInfo("SoftmaxBackward0", "softmax_0d", lambda T, x: x.softmax(0), [()],
           dtypes=FLOATS),
    OpInfo("SoftmaxBackward0", "softmax_integer", lambda T, x: x.softmax(0), [(3, 4)],
           dtypes=("int64", "bool")),
    OpInfo("SoftmaxBackward0", "softmax_transposed", lambda T, x: x.softmax(-1), [TRANSPOSED],
           dtypes=FLOATS),
    OpInfo("SoftmaxBackward0", "softmax_empty", lambda T, x: x.softmax(-1), [(0,), (3, 0)],
           dtypes=FLOAT_KINDS, devices=("cuda",)),
    OpInfo("SoftmaxBackward0", "softmax_float16_empty", lambda T, x: x.softmax(-1),
           [(0,), (3, 0)], dtypes=("float16",), devices=("cpu",)),
    OpInfo("SoftmaxBackward0", "softmax_float16", lambda T, x: x.softmax(1), [(3, 4), (2, 3, 4)],
           dtypes=("float16",), **EXACT,
           xfail="float16: torch computes in float32 and rounds once, doctensor in half"),
    OpInfo("LogSoftmaxBackward0", "log_softmax", lambda T, x: F(T).log_softmax(x, dim=-1),
           SOFTMAX_SAMPLES, dtypes=FLOATS, variants=lambda T, x: ((x, -1), {})),
    OpInfo("LogSoftmaxBackward0", "log_softmax_dim0", lambda T, x: x.log_softmax(0),
           SOFTMAX_SAMPLES, dtypes=FLOATS),
    OpInfo("LogSoftmaxBackward0", "log_softmax_dtype",
           lambda T, x: T.log_softmax(x, -1, dtype=T.float64), SOFTMAX_SAMPLES,
           dtypes=FLOATS + ("int64", "bool")),
    OpInfo("LogSoftmaxBackward0", "log_softmax_large", lambda T, x: F(T).log_softmax(x, 1),
           [(3, 4), (2, 5, 3)], domain=(-80.0, 80.0), dtypes=FLOATS),
    OpInfo("LogSoftmaxBackward0", "log_softmax_0d", lambda T, x: x.log_softmax(-1), [()],
           dtypes=FLOATS),
    OpInfo("LogSoftmaxBackward0", "log_softmax_integer", lambda T, x: x.log_softmax(-1),
           [(3, 4)], dtypes=("int64", "bool")),
    OpInfo("LogSoftmaxBackward0", "log_softmax_transposed", lambda T, x: x.log_softmax(0),
           [TRANSPOSED], dtypes=FLOATS),
    OpInfo("LogSoftmaxBackward0", "log_softmax_empty", lambda T, x: x.log_softmax(0),
           [(0,), (0, 3)], dtypes=FLOAT_KINDS, devices=("cuda",)),
    OpInfo("LogSoftmaxBackward0", "log_softmax_float16_empty", lambda T, x: x.log_softmax(-1),
           [(0,), (3, 0)], dtypes=("float16",), devices=("cpu",)),
    OpInfo("SoftmaxBackwardDataBackward0", "softmax_double",
           lambda T, x, g: grad_of(T, x.softmax(-1), x, g), NOT_0D_PAIRS, dtypes=FLOATS),
    OpInfo("SoftmaxBackwardDataBackward0", "softmax_double_dim0",
           lambda T, x, g: grad_of(T, x.softmax(0), x, g), PAIRS[:2], dtypes=FLOATS),
    OpInfo("SoftmaxBackwardDataBackward0", "softmax_double_sum_weighted",
           lambda T, x, w: grad_of(T, (x.softmax(1) * w).sum(), x, None),
           [((3, 4), (3, 4)), ((2, 3, 2), (3, 1))], dtypes=FLOATS),
    OpInfo("LogSoftmaxBackwardDataBackward0", "log_softmax_double",
           lambda T, x, g: grad_of(T, x.log_softmax(-1), x, g), NOT_0D_PAIRS, dtypes=FLOATS,
           reprs=False),
    OpInfo("SoftmaxBackwardDataBackward0", "softmax_double_0d",
           lambda T, x, g: grad_of(T, x.softmax(-1), x, g), [((), ())], dtypes=FLOATS),
    OpInfo("LogSoftmaxBackwardDataBackward0", "log_softmax_double_0d",
           lambda T, x, g: grad_of(T, x.log_softmax(-1), x, g), [((), ())], dtypes=FLOATS),
    OpInfo("LogSoftmaxBackwardDataBackward0", "log_softmax_double_dim0",
           lambda T, x, g: grad_of(T, x.log_softmax(0), x, g), PAIRS[:2], dtypes=FLOATS),
]

# -- losses --------------------------------------------------------------------------------


def _target(T, x, values):
    """A tensor of ``values`` (class indices) on ``x``'s device."""
    return T.tensor(values, device=x.device)


NLL = [((4, 3),), ((3,),), ((1, 5),)]
_NLL_TARGETS = {(4, 3): [2, 0, 1, 2], (3,): 1, (1, 5): [4]}


def _nll_target(T, x, ignore=None):
    """nll_loss's target for ``x`` (every other class replaced by ``ignore``)."""
    t = _NLL_TARGETS[tuple(x.shape)]
    if ignore is not None and isinstance(t, list):
        t = [ignore if i % 2 else v for i, v in enumerate(t)]
    return _target(T, x, t)


_ELEMENTWISE_LAYOUT = ("layout: torch's {} with reduction='none' follows a transposed input "
                       "(strides (1, 3)), doctensor's result is contiguous (4, 1)")
_LOSS_INTEGER = ("integer inputs: torch refuses (\"{}_cpu\" not implemented for 'Long'), "
                 "doctensor computes (bool: a NumPy TypeError)")
NOT_T_PAIRS = PAIRS[:3] + PAIRS[4:]  # the first input not transposed

# nll_loss's gradients: their zeros' sign differs (nll_loss_grad_signed_zero), seen in reprs
LOSSES = [
    OpInfo("MseLossBackward0", "mse_loss", lambda T, x, y: F(T).mse_loss(x, y), PAIRS,
           dtypes=FLOATS),
    OpInfo("MseLossBackward0", "mse_loss_none",
           lambda T, x, y: F(T).mse_loss(x, y, reduction="none"), NOT_T_PAIRS + BINARY[:4],
           dtypes=FLOAT_KINDS),
    OpInfo("MseLossBackward0", "mse_loss_sum",
           lambda T, x, y: F(T).mse_loss(x, y, reduction="sum"), PAIRS, dtypes=FLOATS),
    OpInfo("MseLossBackward0", "mse_loss_broadcast", lambda T, x, y: F(T).mse_loss(x, y),
           [((3, 4), (4,)), ((3, 1), (1, 4))], dtypes=FLOATS),
    OpInfo("MseLossBackward0", "mse_loss_detached_target",
           lambda T, x, y: F(T).mse_loss(x, y.detach()), PAIRS[:3], dtypes=FLOATS),
    OpInfo("MseLossBackward0", "mse_loss_bad_reduction",
           lambda T, x, y: F(T).mse_loss(x, y, reduction="avg"), PAIRS[:1], dtypes=FLOATS),
    OpInfo("MseLossBackward0", "mse_loss_transposed",
           lambda T, x, y: F(T).mse_loss(x, y, reduction="none"), PAIRS[3:4], dtypes=FLOATS),
    OpInfo("MseLossBackward0", "mse_loss_integer",
           lambda T, x, y: F(T).mse_loss(x, y, reduction="none"), PAIRS[:1], dtypes=INTS),
    OpInfo("HuberLossBackward0", "huber_loss", lambda T, x, y: F(T).huber_loss(x, y), PAIRS,
           dtypes=FLOATS),
    OpInfo("HuberLossBackward0", "huber_loss_none_delta",
           lambda T, x, y: F(T).huber_loss(x, y, reduction="none", delta=0.5), NOT_T_PAIRS[:-1],
           dtypes=FLOAT_KINDS),
    OpInfo("HuberLossBackward0", "huber_loss_sum_delta",
           lambda T, x, y: F(T).huber_loss(x, y, "sum", delta=2.0), PAIRS, dtypes=FLOATS),
    OpInfo("HuberLossBackward0", "huber_loss_bad_delta",
           lambda T, x, y: F(T).huber_loss(x, y, delta=0.0), PAIRS[:1], dtypes=FLOATS),
    # a difference of exactly delta (beta below): the kink between the two branches
    OpInfo("HuberLossBackward0", "huber_loss_at_delta",
           lambda T, x: F(T).huber_loss(near(T, x, -1.0, 0.3), x.detach() * 0,
                                        reduction="none"), NOT_T[:5], dtypes=FLOATS),
    OpInfo("HuberLossBackward0", "huber_loss_transposed",
           lambda T, x, y: F(T).huber_loss(x, y, reduction="none"), PAIRS[3:4], dtypes=FLOATS),
    OpInfo("HuberLossBackward0", "huber_loss_integer",
           lambda T, x, y: F(T).huber_loss(x, y, reduction="none"), PAIRS[:1], dtypes=INTS),
    OpInfo("SmoothL1LossBackward0", "smooth_l1_loss",
           lambda T, x, y: F(T).smooth_l1_loss(x, y), PAIRS, dtypes=FLOATS),
    OpInfo("SmoothL1LossBackward0", "smooth_l1_loss_none_beta",
           lambda T, x, y: F(T).smooth_l1_loss(x, y, reduction="none", beta=0.5), NOT_T_PAIRS,
           dtypes=FLOAT_KINDS),
    OpInfo("SmoothL1LossBackward0", "smooth_l1_loss_sum_beta",
           lambda T, x, y: F(T).smooth_l1_loss(x, y, reduction="sum", beta=2.0), PAIRS,
           dtypes=FLOATS),
    OpInfo("SmoothL1LossBackward0", "smooth_l1_loss_at_beta",
           lambda T, x: F(T).smooth_l1_loss(near(T, x, 1.0, 0.3), x.detach() * 0,
                                            reduction="none"), NOT_T[:5], dtypes=FLOATS),
    OpInfo("SmoothL1LossBackward0", "smooth_l1_loss_negative_beta",
           lambda T, x, y: F(T).smooth_l1_loss(x, y, beta=-1.0), PAIRS[:1], dtypes=FLOATS),
    OpInfo("SmoothL1LossBackward0", "smooth_l1_loss_transposed",
           lambda T, x, y: F(T).smooth_l1_loss(x, y, reduction="none"), PAIRS[3:4],
           dtypes=FLOATS),
    OpInfo("SmoothL1LossBackward0", "smooth_l1_loss_integer",
           lambda T, x, y: F(T).smooth_l1_loss(x, y, reduction="none"), PAIRS[:1],
           dtypes=INTS),
    # binary cross entropy: probabilities in (0, 1), targets detached (see ..._target_grad)
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy",
           lambda T, x, y: F(T).binary_cross_entropy(x, y.detach()), PAIRS,
           domain=(0.02, 0.98), dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy_none_weight",
           lambda T, x, y, w: F(T).binary_cross_entropy(x, y.detach(), w.detach(),
                                                        reduction="none"),
           [((3, 4), (3, 4), (3, 4)), ((3, 4), (3, 4), (4,)), ((), (), ())],
           domain=(0.02, 0.98), dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy_sum",
           lambda T, x, y: F(T).binary_cross_entropy(x, (y > 0.5).to(x.dtype), reduction="sum"),
           PAIRS, domain=(0.02, 0.98), dtypes=FLOATS),
    # probabilities of exactly 0 and 1: the logs clamped at -100
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy_saturated",
           lambda T, x, y: F(T).binary_cross_entropy(
               near(T, near(T, x, 0.0, 0.2), 1.0, 0.2), y.detach(), reduction="none"),
           PAIRS[:3], domain=(0.0, 1.0), dtypes=("float32",)),
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy_out_of_range",
           lambda T, x, y: F(T).binary_cross_entropy(x, y.detach()), PAIRS[:1], dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy_bad_shape",
           lambda T, x, y: F(T).binary_cross_entropy(x, y.detach()), [((3, 4), (4,))],
           domain=(0.02, 0.98), dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy_target_grad",
           lambda T, x, y: F(T).binary_cross_entropy(x, y, reduction="none"), PAIRS[:3],
           domain=(0.02, 0.98), dtypes=FLOATS,
           xfail="a target that requires grad: torch differentiates it (grad * (log(1 - x) - "
                 "log(x))), doctensor gives it no gradient (None)"),
    OpInfo("BinaryCrossEntropyBackward0", "binary_cross_entropy_saturated_f64",
           lambda T, x, y: F(T).binary_cross_entropy(
               near(T, near(T, x, 0.0, 0.2), 1.0, 0.2), y.detach(), reduction="none"),
           PAIRS[:2], domain=(0.0, 1.0), dtypes=("float64",),
           xfail="float64 gradient at x = 0 or 1: torch divides by max((1 - x) * x, EPSILON) "
                 "with EPSILON the float 1e-12 (9.9999999600e-13), doctensor by 1e-12 "
                 "(relative 4e-9)"),
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "binary_cross_entropy_with_logits",
           lambda T, x, y: F(T).binary_cross_entropy_with_logits(x, y.sigmoid().detach()),
           PAIRS, dtypes=FLOATS, variants=lambda T, x, y: ((x, y.sigmoid()), {})),
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "bce_with_logits_target_grad",
           lambda T, x, y: F(T).binary_cross_entropy_with_logits(x, y, reduction="none"),
           PAIRS[:3], dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "bce_with_logits_weights",
           lambda T, x, y, w: F(T).binary_cross_entropy_with_logits(
               x, (y > 0).to(x.dtype), weight=w.detach().abs(),
               pos_weight=w[0].detach().abs() + 1, reduction="none"),
           [((3, 4), (3, 4), (4,)), ((2, 4), (2, 4), (2, 4))], dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "bce_with_logits_pos_weight",
           lambda T, x, y, w: F(T).binary_cross_entropy_with_logits(
               x, y.sigmoid().detach(), pos_weight=w.detach().abs(), reduction="sum"),
           [((3, 4), (3, 4), (4,)), ((5,), (5,), (5,))], dtypes=FLOATS),
    # large logits on the wrong side of their targets (large losses); on the right side the
    # loss cancels to 0. in torch (bce_with_logits_cancellation)
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "bce_with_logits_large",
           lambda T, x, y: F(T).binary_cross_entropy_with_logits(x, (x < 0).to(x.dtype),
                                                                 reduction="none"),
           PAIRS[:3], domain=(-60.0, 60.0), dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "bce_with_logits_bad_shape",
           lambda T, x, y: F(T).binary_cross_entropy_with_logits(x, y),
           [((3, 4), (4,))], dtypes=FLOATS),
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "bce_with_logits_pos_weight_target_grad",
           lambda T, x, y, w: F(T).binary_cross_entropy_with_logits(
               x, y.sigmoid(), pos_weight=w.detach().abs(), reduction="none"),
           [((3, 4), (3, 4), (4,))], dtypes=FLOATS,
           xfail="the target's gradient with pos_weight: torch's is grad * (log_sigmoid(-x) - "
                 "pos_weight * log_sigmoid(x)), doctensor's -grad * x (pos_weight ignored)"),
    OpInfo("BinaryCrossEntropyWithLogitsBackward0", "bce_with_logits_cancellation",
           lambda T, x: F(T).binary_cross_entropy_with_logits(x, x.detach() * 0,
                                                              reduction="none"),
           [(4,)], domain=(-60.0, -30.0), dtypes=FLOATS, **EXACT,
           xfail="very negative logits, target 0: torch computes (1 - t) * x - log_sigmoid(x) "
                 "= 0., doctensor (1 - t) * x + max(-x, 0) + log1p(exp(-|x|)) = exp(x) "
                 "(4.2e-18 at x = -40)"),
    # nll_loss and cross_entropy (class-index targets made on the input's device)
    OpInfo("NllLossBackward0", "nll_loss", lambda T, x: F(T).nll_loss(x, _nll_target(T, x)),
           NLL, dtypes=FLOATS, reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_none",
           lambda T, x: F(T).nll_loss(x, _nll_target(T, x), reduction="none"), NLL,
           dtypes=FLOATS, reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_sum",
           lambda T, x: F(T).nll_loss(x, _nll_target(T, x), reduction="sum"), NLL,
           dtypes=FLOATS, reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_weight",
           lambda T, x, w: F(T).nll_loss(x, _nll_target(T, x), weight=w.detach().abs()),
           [((4, 3), (3,)), ((3,), (3,))], dtypes=FLOATS),
    OpInfo("NllLossBackward0", "nll_loss_weight_none",
           lambda T, x, w: F(T).nll_loss(x, _nll_target(T, x), weight=w.detach(),
                                         reduction="none"), [((4, 3), (3,))], dtypes=FLOATS,
           reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_ignore_index",
           lambda T, x: F(T).nll_loss(x, _nll_target(T, x, -100)), NLL[:1], dtypes=FLOATS,
           reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_ignore_index_weight",
           lambda T, x, w: F(T).nll_loss(x, _nll_target(T, x, 1), w.detach().abs(),
                                         ignore_index=1, reduction="none"),
           [((4, 3), (3,))], dtypes=FLOATS, reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_ignore_index_sum",
           lambda T, x: F(T).nll_loss(x, _nll_target(T, x, 0), ignore_index=0,
                                      reduction="sum"), NLL[:1], dtypes=FLOATS, reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_target_out_of_bounds",
           lambda T, x: F(T).nll_loss(x, _target(T, x, [0, 3])), [(2, 3)], dtypes=FLOATS),
    OpInfo("NllLossBackward0", "nll_loss_batch_mismatch",
           lambda T, x: F(T).nll_loss(x, _target(T, x, [0, 1, 2])), [(2, 3)], dtypes=FLOATS),
    OpInfo("NllLossBackward0", "nll_loss_int_target",
           lambda T, x: F(T).nll_loss(x, _target(T, x, [0, 1]).int()), [(2, 3)],
           dtypes=FLOATS),
    OpInfo("NllLossBackward0", "cross_entropy",
           lambda T, x: F(T).cross_entropy(x, _nll_target(T, x)), NLL, dtypes=FLOATS),
    OpInfo("NllLossBackward0", "cross_entropy_weight_ignore",
           lambda T, x, w: F(T).cross_entropy(x, _nll_target(T, x, 2), w.detach().abs(),
                                              ignore_index=2), [((4, 3), (3,))],
           dtypes=FLOATS, reprs=False),
    OpInfo("NllLossBackward0", "nll_loss_grad_signed_zero",
           lambda T, x: 1 / _grad_for(T, F(T).nll_loss(x, _nll_target(T, x), reduction="sum"),
                                      x, -1.0), NLL[:2], dtypes=FLOATS,
           xfail="the sign of the gradient's zeros: for a negative output gradient torch's are "
                 "0., doctensor's -0. (it multiplies the gradient by a one-hot)"),
    # every target ignored: the mean is 0 / 0 (NaN in both), its gradient differs
    OpInfo("NllLossBackward0", "nll_loss_all_ignored",
           lambda T, x: F(T).nll_loss(x, _target(T, x, [-100] * x.shape[0])), [(2, 3)],
           dtypes=FLOATS,
           xfail="every target ignored, reduction='mean': torch's gradient is all 0., "
                 "doctensor's has NaN in column 0 (0 / 0 weights)"),
    # a spatial target: (N, C, d) input, (N, d) target (torch's NllLoss2DBackward0)
    OpInfo("NllLoss2DBackward0", "nll_loss_spatial",
           lambda T, x: F(T).nll_loss(x, _target(T, x, [[0, 2], [1, 1]])), [(2, 3, 2)],
           dtypes=FLOATS, **EXACT),
    OpInfo("NllLoss2DBackward0", "nll_loss2d_weight_sum",
           lambda T, x: F(T).nll_loss(x, _target(T, x, [[[0, 2], [1, -100]]]),
                                      T.tensor([0.5, 2.0, 1.5], dtype=x.dtype,
                                               device=x.device),
                                      reduction="sum"), [(1, 3, 2, 2)], dtypes=FLOATS),
    OpInfo("NllLoss2DBackward0", "nll_loss2d_none",
           lambda T, x: F(T).nll_loss(x, _target(T, x, [[[0, 2, 1]], [[1, 1, 0]]]),
                                      reduction="none"), [(2, 3, 1, 3)], dtypes=FLOATS,
           **EXACT),
]

# -- embedding, one_hot ----------------------------------------------------------------------

EMBED = [
    OpInfo("EmbeddingBackward0", "embedding",
           lambda T, w: F(T).embedding(_target(T, w, [[0, 2, 0], [3, 1, 0]]), w),
           [(4, 3), ((4, 3), "T")], dtypes=FLOATS,
           variants=lambda T, w: ((w, _target(T, w, [1, 0, 1])), {})),
    OpInfo("EmbeddingBackward0", "embedding_1d_0d_indices",
           lambda T, w: (F(T).embedding(_target(T, w, [2, 2]), w),
                         F(T).embedding(_target(T, w, 1), w)), [(4, 3)], dtypes=FLOATS),
    OpInfo("EmbeddingBackward0", "embedding_empty_indices",
           lambda T, w: F(T).embedding(_target(T, w, [[]]).long(), w), [(4, 3)],
           dtypes=FLOATS),
    OpInfo("EmbeddingBackward0", "embedding_padding_idx",
           lambda T, w: F(T).embedding(_target(T, w, [[0, 2], [1, 2]]), w, padding_idx=2),
           [(4, 3)], dtypes=FLOATS),
    OpInfo("EmbeddingBackward0", "embedding_negative_padding_idx",
           lambda T, w: F(T).embedding(_target(T, w, [3, 0, 3]), w, padding_idx=-1),
           [(4, 3)], dtypes=FLOATS),
    OpInfo("EmbeddingBackward0", "embedding_int32_indices",
           lambda T, w: T.embedding(w, _target(T, w, [0, 3]).int()), [(4, 3)], dtypes=FLOATS),
    OpInfo("EmbeddingBackward0", "embedding_out_of_range",
           lambda T, w: F(T).embedding(_target(T, w, [0, 4]), w), [(4, 3)], dtypes=FLOATS),
    OpInfo("EmbeddingBackward0", "embedding_float_indices",
           lambda T, w: F(T).embedding(_target(T, w, [0.0, 1.0]), w), [(4, 3)], dtypes=FLOATS),
    OpInfo("EmbeddingBackward0", "embedding_scale_grad_by_freq",
           lambda T, w: F(T).embedding(_target(T, w, [0, 2, 0, 0]), w, scale_grad_by_freq=True),
           [(4, 3)], dtypes=FLOATS,
           xfail="scale_grad_by_freq=True is ignored: torch divides each row's gradient by "
                 "its index's count in the batch, doctensor does not"),
    OpInfo("EmbeddingBackward0", "embedding_max_norm",
           lambda T, w: (lambda v: (F(T).embedding(_target(T, w, [0, 1]), v, max_norm=1.0), v))(
               w.detach() * 3), [(4, 3)], dtypes=FLOATS),
    OpInfo("one_hot", "one_hot", lambda T, x: F(T).one_hot(x.abs()), UNARY, dtypes=("int64",),
           grad=False, domain=(0.0, 4.0)),
    OpInfo("one_hot", "one_hot_num_classes", lambda T, x: F(T).one_hot(x.abs(), 7), UNARY,
           dtypes=("int64",), grad=False, domain=(0.0, 4.0)),
    OpInfo("one_hot", "one_hot_too_few_classes", lambda T, x: F(T).one_hot(x.abs(), 2),
           [(5,)], dtypes=("int64",), grad=False, domain=(0.0, 4.0)),
    OpInfo("one_hot", "one_hot_negative", lambda T, x: F(T).one_hot(x - 5), [(5,)],
           dtypes=("int64",), grad=False),
    OpInfo("one_hot", "one_hot_dtype", lambda T, x: F(T).one_hot(x), [(5,)],
           dtypes=("int32", "uint8", "float32"), grad=False, domain=(0.0, 3.0)),
]

# -- normalisation ---------------------------------------------------------------------------


def _bn(T, x, w, b, training, momentum=0.1, eps=1e-5, stats=True):
    """F.batch_norm with running stats made on ``x``'s device (or none)."""
    c = x.shape[1]
    rm = T.linspace(-1, 1, c, device=x.device, dtype=x.dtype) if stats else None
    rv = T.linspace(0.5, 2, c, device=x.device, dtype=x.dtype) if stats else None
    return F(T).batch_norm(x, rm, rv, w, b, training=training, momentum=momentum, eps=eps)


def _bn_stats(T, x, momentum=0.1, versions=False):
    """F.batch_norm in training: the running stats it updates in place (or their versions)."""
    c = x.shape[1]
    rm = T.zeros(c, device=x.device, dtype=x.dtype)
    rv = T.ones(c, device=x.device, dtype=x.dtype)
    out = F(T).batch_norm(x, rm, rv, training=True, momentum=momentum)
    return (rm._version, rv._version) if versions else (out, rm, rv)


BN = [((4, 3), (3,), (3,)), ((2, 3, 5), (3,), (3,)), ((2, 3, 2, 2), (3,), (3,)),
      (((2, 3, 4), "T"), (3,), (3,))]
_NORM_LAYOUT = ("layout: torch's {} of a transposed input is contiguous, doctensor's keeps "
                "the input's strides")

# normalisation: each statistic is a mean over a few elements, summed in another order than
# torch's kernels: float32 values agree within the default tolerance but the repr's 4th
# decimal may differ (reprs=False); group_norm's input gradient over groups of 2 elements
# cancels to ~1e-5 and is an ulp or two of its terms off (f32_loose: 1e-5)
NORMS = [
    OpInfo("NativeBatchNormBackward0", "batch_norm_training",
           lambda T, x, w, b: _bn(T, x, w, b, True), BN[:3], dtypes=FLOATS, reprs=False,
           variants=lambda T, x, w, b: ((x, w, b, None, None, True, 0.1, 1e-5, True), {})),
    OpInfo("NativeBatchNormBackward0", "batch_norm_eval",
           lambda T, x, w, b: _bn(T, x, w, b, False), BN[:3], dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_no_affine",
           lambda T, x: _bn(T, x, None, None, True, stats=False), [(4, 3), (2, 3, 2, 2)],
           dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_eval_no_affine",
           lambda T, x: _bn(T, x, None, None, False, eps=1e-3), [(4, 3), (2, 3, 2, 2)],
           dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_wrong_channels",
           lambda T, x, w: _bn(T, x, w, None, False), [((4, 3), (2,))], dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_transposed",
           lambda T, x, w, b: _bn(T, x, w, b, True), [BN[3], (((4, 3), "T"), (3,), (3,))],
           dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_one_value_per_channel",
           lambda T, x: _bn(T, x, None, None, True), [(1, 3)], dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_running_stats",
           lambda T, x: _bn_stats(T, x), [(4, 3), (2, 3, 5)], dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_running_stats_momentum",
           lambda T, x: _bn_stats(T, x, momentum=0.5), [(2, 3, 2, 2)], dtypes=FLOATS),
    OpInfo("NativeBatchNormBackward0", "batch_norm_running_stats_version",
           lambda T, x: _bn_stats(T, x, versions=True), [(4, 3)], dtypes=FLOATS),
    OpInfo("NativeLayerNormBackward0", "layer_norm",
           lambda T, x, w, b: F(T).layer_norm(x, (4,), w, b),
           [((3, 4), (4,), (4,)), ((2, 3, 4), (4,), (4,)), ((4,), (4,), (4,))], dtypes=FLOATS,
           variants=lambda T, x, w, b: ((x, [4], w, b), {})),
    OpInfo("NativeLayerNormBackward0", "layer_norm_2d_shape",
           lambda T, x, w, b: F(T).layer_norm(x, x.shape[1:], w, b, eps=1e-3),
           [((2, 3, 4), (3, 4), (3, 4))], dtypes=FLOATS),
    OpInfo("NativeLayerNormBackward0", "layer_norm_no_affine",
           lambda T, x: F(T).layer_norm(x, x.shape[-1:]), [(3, 4), (2, 3, 5)], dtypes=FLOATS,
           reprs=False),
    OpInfo("NativeLayerNormBackward0", "layer_norm_weight_only",
           lambda T, x, w: F(T).layer_norm(x, (4,), w), [((3, 4), (4,))], dtypes=FLOATS),
    OpInfo("NativeLayerNormBackward0", "layer_norm_bad_shape",
           lambda T, x: F(T).layer_norm(x, (3,)), [(3, 4)], dtypes=FLOATS),
    OpInfo("NativeLayerNormBackward0", "layer_norm_transposed",
           lambda T, x, w, b: F(T).layer_norm(x, (4,), w, b), [(((3, 4), "T"), (4,), (4,))],
           dtypes=FLOATS, reprs=False),  # the statistics' summation order (see above)
    *f32_loose("NativeGroupNormBackward0", "group_norm",
               lambda T, x, w, b: F(T).group_norm(x, 2, w, b),
               [((2, 4, 3), (4,), (4,)), ((2, 4, 2, 2), (4,), (4,)), ((3, 4), (4,), (4,))],
               1e-5, variants=lambda T, x, w, b: ((x, 2, w, b), {})),
    OpInfo("NativeGroupNormBackward0", "group_norm_no_affine",
           lambda T, x: F(T).group_norm(x, 3), [(2, 6, 2), (1, 3, 4)], dtypes=FLOATS),
    OpInfo("NativeGroupNormBackward0", "group_norm_indivisible",
           lambda T, x: F(T).group_norm(x, 3), [(2, 4, 2)], dtypes=FLOATS),
    OpInfo("NativeGroupNormBackward0", "group_norm_transposed",
           lambda T, x: F(T).group_norm(x, 1), [((3, 4), "T")], dtypes=FLOATS),
]

# -- convolution, pooling, resizing ---------------------------------------------------------


def _conv_grads(T, conv, x, w, bias, g):
    """The gradients of a convolution for the output gradient ``g`` (ConvolutionBackward's
    node under create_graph)."""
    out = conv(x, w, bias)
    inputs = tuple(t for t in (x, w, bias) if t is not None)
    return grad_of(T, out, inputs, g)


CONV2D = [((2, 3, 5, 5), (4, 3, 3, 3), (4,)), ((3, 5, 4), (2, 3, 2, 2), (2,)),
          (((2, 3, 4, 4), "T"), (2, 3, 1, 3), (2,))]

# convolutions: each output sums C * kH * kW products in another order than torch's kernels:
# float32 values within the default tolerance, the repr's 4th decimal may differ
# (reprs=False); an output of padding='same' near 0 is 1.6e-5 off relatively (f32_loose)
CONV = [
    # (float32: oneDNN's AVX2 kernels sum in yet another order: 1.5e-6 relatively)
    *f32_loose("ConvolutionBackward0", "conv2d", lambda T, x, w, b: F(T).conv2d(x, w, b),
               CONV2D, 1e-5),
    OpInfo("ConvolutionBackward0", "conv2d_no_bias",
           lambda T, x, w: F(T).conv2d(x, w, stride=2, padding=1),
           [((2, 3, 5, 5), (4, 3, 3, 3)), ((1, 2, 6, 4), (3, 2, 2, 3))], dtypes=FLOATS,
           reprs=False),
    OpInfo("ConvolutionBackward0", "conv2d_stride_padding_dilation",
           lambda T, x, w, b: F(T).conv2d(x, w, b, stride=(2, 1), padding=(1, 2),
                                          dilation=(1, 2)),
           [((2, 2, 6, 7), (3, 2, 3, 2), (3,))], dtypes=FLOATS, reprs=False),
    *f32_loose("ConvolutionBackward0", "conv2d_groups",
               lambda T, x, w, b: F(T).conv2d(x, w, b, groups=2, padding=1),
               [((2, 4, 4, 4), (6, 2, 3, 3), (6,)), ((4, 3, 3), (4, 2, 2, 2), (4,))], 1e-5),
    OpInfo("ConvolutionBackward0", "conv2d_depthwise",
           lambda T, x, w: F(T).conv2d(x, w, groups=3), [((2, 3, 4, 4), (3, 1, 3, 3))],
           dtypes=FLOATS),
    *f32_loose("ConvolutionBackward0", "conv2d_padding_same",
               lambda T, x, w, b: F(T).conv2d(x, w, b, padding="same"),
               [((2, 3, 5, 5), (2, 3, 3, 3), (2,)), ((1, 2, 4, 5), (2, 2, 2, 2), (2,))], 1e-5),
    OpInfo("ConvolutionBackward0", "conv2d_padding_valid",
           lambda T, x, w: F(T).conv2d(x, w, padding="valid"), [((1, 2, 4, 5), (2, 2, 2, 2))],
           dtypes=FLOATS),
    OpInfo("ConvolutionBackward0", "conv2d_frozen_weight",
           lambda T, x, w, b: F(T).conv2d(x, w.detach(), b, padding=1),
           [((2, 3, 4, 4), (2, 3, 3, 3), (2,))], dtypes=FLOATS, reprs=False),
    OpInfo("ConvolutionBackward0", "conv1d", lambda T, x, w, b: F(T).conv1d(x, w, b, padding=1),
           [((2, 3, 7), (4, 3, 3), (4,)), ((3, 5), (2, 3, 2), (2,)),
            (((2, 3, 6), "T"), (2, 3, 3), (2,))], dtypes=FLOATS),
    OpInfo("ConvolutionBackward0", "conv1d_stride_dilation_groups",
           lambda T, x, w: F(T).conv1d(x, w, stride=2, dilation=2, groups=2),
           [((2, 4, 9), (4, 2, 3))], dtypes=FLOATS),
    OpInfo("ConvolutionBackward0", "conv2d_channel_mismatch",
           lambda T, x, w: F(T).conv2d(x, w), [((1, 3, 4, 4), (2, 2, 3, 3))], dtypes=FLOATS),
    OpInfo("ConvolutionBackward0", "conv2d_bad_dims",
           lambda T, x, w: F(T).conv2d(x, w), [((4, 4), (2, 2, 3, 3))], dtypes=FLOATS),
    OpInfo("ConvolutionBackward0", "conv2d_int",
           lambda T, x, w: F(T).conv2d(x, w), [((1, 2, 4, 4), (2, 2, 3, 3))],
           dtypes=("int64",)),
    OpInfo("ConvolutionBackwardBackward0", "conv2d_double",
           lambda T, x, w, b, g: _conv_grads(T, F(T).conv2d, x, w, b, g),
           [((2, 3, 4, 4), (2, 3, 3, 3), (2,), (2, 2, 2, 2)),
            ((3, 4, 4), (2, 3, 2, 2), (2,), (2, 3, 3))], dtypes=FLOATS, reprs=False),
    OpInfo("ConvolutionBackwardBackward0", "conv2d_double_strided_groups",
           lambda T, x, w, g: _conv_grads(
               T, lambda x, w, b: F(T).conv2d(x, w, b, stride=2, padding=1, groups=2,
                                              dilation=(1, 2)), x, w, None, g),
           [((1, 4, 5, 6), (2, 2, 3, 2), (1, 2, 3, 3))], dtypes=FLOATS),
    OpInfo("ConvolutionBackwardBackward0", "conv1d_double",
           lambda T, x, w, b, g: _conv_grads(
               T, lambda x, w, b: F(T).conv1d(x, w, b, padding=1), x, w, b, g),
           [((2, 3, 5), (2, 3, 3), (2,), (2, 2, 5))], dtypes=FLOATS),
    # a gradient penalty: the input's gradient alone, differentiated again
    OpInfo("ConvolutionBackwardBackward0", "conv2d_double_input_grad",
           lambda T, x, w, g: grad_of(T, F(T).conv2d(x, w), x, g)[0].square().sum(),
           [((1, 2, 4, 4), (3, 2, 2, 2), (1, 3, 3, 3))], dtypes=FLOATS, reprs=False),
    OpInfo("ConvolutionBackwardBackward0", "conv2d_double_frozen_weight",
           lambda T, x, w, g: grad_of(T, F(T).conv2d(x, w.detach()), x, g),
           [((1, 2, 4, 4), (3, 2, 2, 2), (1, 3, 3, 3))], dtypes=FLOATS),
]

POOL4 = [(2, 3, 6, 6), (3, 5, 7), ((2, 2, 4, 6), "T"), ((1, 2, 5, 6), "step")]

POOLS = [
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool2d", lambda T, x: F(T).max_pool2d(x, 2),
           POOL4, dtypes=FLOAT_KINDS),
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool2d_stride_padding",
           lambda T, x: F(T).max_pool2d(x, 3, stride=2, padding=1), POOL4, dtypes=FLOATS),
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool2d_dilation_ceil",
           lambda T, x: F(T).max_pool2d(x, (2, 3), stride=(2, 1), dilation=(2, 1),
                                        ceil_mode=True), POOL4[:2], dtypes=FLOATS),
    # overlapping windows over ties (clamped values): the first maximum wins
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool2d_ties",
           lambda T, x: F(T).max_pool2d(x.clamp(min=0.5), 2, stride=1), POOL4[:2],
           dtypes=FLOATS),
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool1d",
           lambda T, x: F(T).max_pool1d(x, 2), [(2, 3, 7), (3, 6)], dtypes=FLOATS),
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool2d_too_small",
           lambda T, x: F(T).max_pool2d(x, 3), [(1, 2, 2, 2)], dtypes=FLOATS),
    OpInfo("MaxPool2DWithIndicesBackward0", "max_pool2d_bad_padding",
           lambda T, x: F(T).max_pool2d(x, 2, padding=2), [(1, 2, 4, 4)], dtypes=FLOATS),
    OpInfo("MaxPool2DWithIndicesBackwardBackward0", "max_pool2d_double",
           lambda T, x, g: grad_of(T, F(T).max_pool2d(x, 2), x, g),
           [((2, 3, 4, 6), (2, 3, 2, 3)), ((3, 5, 5), (3, 2, 2))], dtypes=FLOATS),
    OpInfo("MaxPool2DWithIndicesBackwardBackward0", "max_pool2d_double_overlapping",
           lambda T, x, g: grad_of(T, F(T).max_pool2d(x, 3, 2, 1), x, g),
           [((1, 2, 5, 5), (1, 2, 3, 3))], dtypes=FLOATS),
    OpInfo("AvgPool2DBackward0", "avg_pool2d", lambda T, x: F(T).avg_pool2d(x, 2), POOL4,
           dtypes=FLOATS),
    OpInfo("AvgPool2DBackward0", "avg_pool2d_stride_padding",
           lambda T, x: F(T).avg_pool2d(x, 3, stride=2, padding=1), POOL4, dtypes=FLOATS),
    OpInfo("AvgPool2DBackward0", "avg_pool2d_exclude_pad_ceil",
           lambda T, x: F(T).avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
           POOL4[:2], dtypes=FLOATS),
    OpInfo("AvgPool2DBackward0", "avg_pool2d_divisor_override",
           lambda T, x: F(T).avg_pool2d(x, (2, 3), divisor_override=4), POOL4[:2],
           dtypes=FLOATS),
    OpInfo("AvgPool2DBackward0", "avg_pool2d_too_small",
           lambda T, x: F(T).avg_pool2d(x, 3), [(1, 2, 2, 2)], dtypes=FLOATS),
    OpInfo("AvgPool2DBackwardBackward0", "avg_pool2d_double",
           lambda T, x, g: grad_of(T, F(T).avg_pool2d(x, 2), x, g),
           [((2, 3, 4, 6), (2, 3, 2, 3)), ((3, 5, 5), (3, 2, 2))], dtypes=FLOATS),
    OpInfo("AvgPool2DBackwardBackward0", "avg_pool2d_double_padding",
           lambda T, x, g: grad_of(T, F(T).avg_pool2d(x, 3, 2, 1, count_include_pad=False),
                                   x, g),
           [((1, 2, 5, 5), (1, 2, 3, 3))], dtypes=FLOATS),
    # the gradient of a sum: the output gradient needs no grad, so neither does the result
    OpInfo("AvgPool2DBackwardBackward0", "avg_pool2d_double_sum",
           lambda T, x: grad_of(T, F(T).avg_pool2d(x, 2).sum(), x, None), [(1, 2, 4, 4)],
           dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool2DBackward0", "adaptive_avg_pool2d",
           lambda T, x: F(T).adaptive_avg_pool2d(x, (2, 3)), POOL4, dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool2DBackward0", "adaptive_avg_pool2d_uneven",
           lambda T, x: F(T).adaptive_avg_pool2d(x, 4), POOL4[:3], dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool2DBackward0", "adaptive_avg_pool2d_none",
           lambda T, x: F(T).adaptive_avg_pool2d(x, (None, 2)), POOL4[:2], dtypes=FLOATS),
    OpInfo("AdaptiveAvgPool2DBackwardBackward0", "adaptive_avg_pool2d_double",
           lambda T, x, g: grad_of(T, F(T).adaptive_avg_pool2d(x, (2, 3)), x, g),
           [((2, 3, 4, 6), (2, 3, 2, 3)), ((3, 5, 5), (3, 2, 3))], dtypes=FLOATS),
    OpInfo("UpsampleNearest2DBackward0", "interpolate_nearest",
           lambda T, x: F(T).interpolate(x, scale_factor=2), POOL4[:1] + POOL4[2:],
           dtypes=FLOAT_KINDS),
    OpInfo("UpsampleNearest2DBackward0", "interpolate_nearest_size",
           lambda T, x: F(T).interpolate(x, size=(5, 3)), [(2, 3, 4, 4), (1, 1, 3, 7)],
           dtypes=FLOATS),
    OpInfo("UpsampleNearest2DBackward0", "interpolate_nearest_scale",
           lambda T, x: F(T).interpolate(x, scale_factor=(1.5, 0.5)),
           [(2, 3, 4, 4), (1, 1, 3, 7)], dtypes=FLOATS),
    OpInfo("UpsampleNearest2DBackwardBackward0", "interpolate_nearest_double",
           lambda T, x, g: grad_of(T, F(T).interpolate(x, size=(5, 3)), x, g),
           [((2, 3, 4, 4), (2, 3, 5, 3))], dtypes=FLOATS),
    OpInfo("UpsampleNearest2DBackwardBackward0", "interpolate_nearest_double_scale",
           lambda T, x, g: grad_of(T, F(T).interpolate(x, scale_factor=2), x, g),
           [((1, 2, 2, 3), (1, 2, 4, 6))], dtypes=FLOATS),
    # bilinear float32: each output mixes four taps in another order than torch's kernel
    # (values within tolerance, about half of them an ulp off: reprs=False)
    OpInfo("UpsampleBilinear2DBackward0", "interpolate_bilinear",
           lambda T, x: F(T).interpolate(x, scale_factor=2, mode="bilinear"),
           POOL4[:1] + POOL4[2:], dtypes=FLOATS, reprs=False),
    OpInfo("UpsampleBilinear2DBackward0", "interpolate_bilinear_align_corners",
           lambda T, x: F(T).interpolate(x, size=(5, 7), mode="bilinear", align_corners=True),
           [(2, 3, 4, 4), (1, 1, 3, 2)], dtypes=("float32",)),
    OpInfo("UpsampleBilinear2DBackward0", "interpolate_bilinear_down",
           lambda T, x: F(T).interpolate(x, scale_factor=0.6, mode="bilinear"),
           [(2, 3, 5, 5), (1, 1, 4, 7)], dtypes=("float32",)),
    OpInfo("UpsampleBilinear2DBackward0", "interpolate_bilinear_float64_weights",
           lambda T, x: F(T).interpolate(x, size=(5, 7), mode="bilinear", align_corners=True),
           [(1, 1, 3, 2)], dtypes=("float64",)),
    OpInfo("UpsampleBilinear2DBackwardBackward0", "interpolate_bilinear_double",
           lambda T, x, g: grad_of(T, F(T).interpolate(x, scale_factor=2, mode="bilinear"),
                                   x, g),
           [((2, 3, 2, 3), (2, 3, 4, 6))], dtypes=FLOATS),
    OpInfo("UpsampleBilinear2DBackwardBackward0", "interpolate_bilinear_double_align_corners",
           lambda T, x, g: grad_of(T, F(T).interpolate(x, size=(3, 5), mode="bilinear",
                                                       align_corners=True), x, g),
           [((1, 2, 2, 3), (1, 2, 3, 5))], dtypes=FLOATS),
]

# convolution and pooling run on NumPy arrays (the CPU and the emulated CUDA device): on a
# real GPU (CuPy) doctensor refuses them, so there their rows run on the CPU only
NUMPY_DEVICES = ("cpu",) if doctensor.backends.cuda_mode() == "cupy" else DEVICES
POOLS = [r if r.record.startswith("Upsample") else replace(r, devices=NUMPY_DEVICES)
         for r in POOLS]
CONV = [replace(r, devices=NUMPY_DEVICES) for r in CONV]

ROWS = FUSED + ACTIVATIONS + SOFTMAX + LOSSES + EMBED + NORMS + CONV + POOLS
