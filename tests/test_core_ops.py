"""The op table: every op run under torch 2.13 and doctensor on the same inputs.

In the spirit of PyTorch's OpInfo, one ``OpInfo`` entry per op gives how to call it and its
sample inputs (shapes with broadcasting, 0-d, empty, transposed and strided layouts) and
the dtypes to try.  For every (op, dtype, sample) the test compares the outputs (values,
dtype, shape, stride, ``requires_grad``, ``is_leaf``, ``grad_fn`` name) or the error (type
and message), then runs ``backward(g)`` with a random ``g`` and compares every input's
gradient.  Adding an op is adding an entry.

Tolerances: ``_oracle.tol`` (rtol = atol = 1e-6 for float32, 1e-12 for float64); entries
that needed looser ones say so in ``rtol``/``atol`` with the reason.
"""

import zlib
from dataclasses import dataclass, field

import numpy as np
import pytest
import torch  # noqa: F401  (the oracle: fail, not skip, without it)
from _oracle import DTYPES, FLOATS, assert_same, both, make_input, same_outcome, sample_values

ALL = DTYPES + ("float16",)
NUM = ("float32", "float64", "int64", "int32", "uint8")
INTEGRAL = ("int64", "int32", "uint8", "bool")

UNARY = [(), (0,), (5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 5), "step")]
BINARY = [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((), (3, 4)), ((2, 3, 4), ()),
          ((0, 3), (3,)), (((3, 4), "T"), (3, 4)), ((5,), ((5,), "step")), ((), ()),
          ((2, 1, 4), (3, 1))]
REDUCE = [(), (5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 6), "step")]
REDUCE_DIM = [(5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 6), "step"), (0, 3)]


@dataclass
class OpInfo:
    """One op: ``fn(T, *inputs)`` and what to feed it."""

    name: str
    fn: object
    samples: list = field(default_factory=lambda: UNARY)
    dtypes: tuple = ALL
    grad: bool = True
    domain: tuple = (-3.0, 3.0)
    nonzero: tuple = ()  # input positions that must hold no zeros
    rtol: float = None
    atol: float = None
    strides: bool = True
    # repr compared too, except where float sums may round differently in the 4th printed
    # decimal (BLAS accumulation order differs from MKL's): values still within tolerance
    reprs: bool = True


def u(name, fn, **kw):
    return OpInfo(name, fn, UNARY, **kw)


def b(name, fn, **kw):
    return OpInfo(name, fn, BINARY, **kw)


OPS = [
    # -- arithmetic, with operators and reflected forms -----------------------------------
    b("add", lambda T, x, y: x + y),
    b("add_alpha", lambda T, x, y: T.add(x, y, alpha=2), dtypes=NUM),
    b("sub", lambda T, x, y: x - y),
    b("sub_alpha", lambda T, x, y: x.sub(y, alpha=3), dtypes=NUM),
    b("mul", lambda T, x, y: x * y),
    b("div", lambda T, x, y: x / y, nonzero=(1,)),
    b("div_floor", lambda T, x, y: x.div(y, rounding_mode="floor"), nonzero=(1,), dtypes=NUM),
    b("div_trunc", lambda T, x, y: T.div(x, y, rounding_mode="trunc"), nonzero=(1,),
      dtypes=NUM),
    b("floordiv", lambda T, x, y: x // y, nonzero=(1,), dtypes=NUM),
    b("mod", lambda T, x, y: x % y, nonzero=(1,), dtypes=NUM),
    b("pow", lambda T, x, y: x ** y, domain=(0.5, 2.0)),
    b("maximum", lambda T, x, y: T.maximum(x, y)),
    b("minimum", lambda T, x, y: T.minimum(x, y)),
    b("where", lambda T, x, y: T.where(x > 1, x, y)),
    # mixed dtypes and partly detached operands (promotion and needs_input_grad paths)
    b("add_long", lambda T, x, y: x + y.long()),
    b("mul_double", lambda T, x, y: x * y.double()),
    b("div_long", lambda T, x, y: x / y.long(), domain=(1.0, 3.0)),
    b("sub_bool", lambda T, x, y: x - (y > 0), dtypes=NUM),
    b("pow_long_exp", lambda T, x, y: x ** y.long(), domain=(0.5, 2.5)),
    b("where_double", lambda T, x, y: T.where(x > 0, x, y.double())),
    b("maximum_double", lambda T, x, y: T.maximum(x, y.double())),
    b("mul_detached", lambda T, x, y: x * y.detach()),
    b("div_detached_self", lambda T, x, y: x.detach() / y, nonzero=(1,)),
    OpInfo("cat_double", lambda T, x, y: T.cat([x, y.double()]), [((2, 3), (1, 3))]),
    OpInfo("stack_int", lambda T, x, y: T.stack([x, y.long()]), [((2, 3), (2, 3))]),
    u("add_int", lambda T, x: x + 2),
    u("add_float", lambda T, x: x + 2.5),
    u("add_bool", lambda T, x: x + True),
    u("radd", lambda T, x: 2 + x),
    u("rsub", lambda T, x: 3 - x),
    u("rsub_float", lambda T, x: 1.5 - x),
    u("sub_scalar", lambda T, x: x - 1),
    u("mul_float", lambda T, x: x * 2.5),
    u("rmul", lambda T, x: 3 * x),
    u("div_scalar", lambda T, x: x / 2),
    u("rdiv", lambda T, x: 2 / x, nonzero=(0,)),
    u("floordiv_scalar", lambda T, x: x // 2, dtypes=NUM),
    u("rfloordiv", lambda T, x: 7 // x, nonzero=(0,), dtypes=NUM),
    u("mod_scalar", lambda T, x: x % 3, dtypes=NUM),
    u("pow2", lambda T, x: x ** 2),
    u("pow3", lambda T, x: x.pow(3)),
    u("pow0", lambda T, x: x ** 0),
    u("pow_half", lambda T, x: x ** 0.5, domain=(0.5, 3.0)),
    u("pow_neg", lambda T, x: x ** -1, nonzero=(0,)),
    u("rpow", lambda T, x: 2 ** x),
    u("neg", lambda T, x: -x),
    u("abs", lambda T, x: abs(x)),
    u("torch_abs", lambda T, x: T.abs(x)),
    # -- elementwise functions -------------------------------------------------------------
    u("exp", lambda T, x: x.exp()),
    u("log", lambda T, x: T.log(x), domain=(0.1, 4.0)),
    u("sqrt", lambda T, x: x.sqrt(), domain=(0.1, 4.0)),
    u("sin", lambda T, x: T.sin(x)),
    u("cos", lambda T, x: x.cos()),
    u("tanh", lambda T, x: x.tanh()),
    u("sigmoid", lambda T, x: T.sigmoid(x)),
    u("relu", lambda T, x: x.relu()),
    u("sign", lambda T, x: x.sign()),
    u("sgn", lambda T, x: T.sgn(x), grad=False),  # torch's gradient: a ZeroTensor (no numpy())
    u("floor", lambda T, x: T.floor(x * 2.5) if x.is_floating_point() else x.floor()),
    u("ceil", lambda T, x: (x * 2.5).ceil() if x.is_floating_point() else T.ceil(x)),
    u("trunc", lambda T, x: T.trunc(x * -2.5) if x.is_floating_point() else x.trunc()),
    u("frac", lambda T, x: T.frac(x * 2.5) if x.is_floating_point() else x.frac()),
    u("isnan", lambda T, x: T.isnan(x / x) if x.is_floating_point() else x.isnan(), grad=False),
    u("isinf", lambda T, x: (1 / x).isinf(), grad=False),
    u("isfinite", lambda T, x: T.isfinite(1 / x), grad=False),
    u("reciprocal", lambda T, x: x.reciprocal(), nonzero=(0,)),
    u("square", lambda T, x: T.square(x)),
    u("clamp", lambda T, x: x.clamp(-1, 1)),
    u("clamp_min", lambda T, x: T.clamp(x, min=0)),
    u("clamp_max_float", lambda T, x: x.clamp(max=0.5)),
    u("clip", lambda T, x: x.clip(0, 2)),
    # float16 rsqrt: torch rounds sqrt to half first for the elements after the last whole
    # 32-wide vector (all of a small tensor), not reproduced
    u("rsqrt", lambda T, x: x.rsqrt(), domain=(0.1, 4.0), dtypes=DTYPES),
    u("rsqrt_", lambda T, x: x.clone().rsqrt_(), domain=(0.1, 4.0), dtypes=DTYPES),
    u("log1p", lambda T, x: T.log1p(x), domain=(-0.9, 4.0)),
    u("log1p_", lambda T, x: x.clone().log1p_(), domain=(-0.9, 4.0)),
    u("expm1", lambda T, x: x.expm1()),
    u("expm1_", lambda T, x: x.clone().expm1_()),
    u("round", lambda T, x: T.round(x * 2)),  # x * 2: some halves, rounded to even
    u("round_", lambda T, x: x.clone().round_()),
    u("round_decimals", lambda T, x: x.round(decimals=2)),
    u("round_decimals0", lambda T, x: T.round(x, decimals=0)),
    u("round_decimals_neg", lambda T, x: x.round(decimals=-1), domain=(-40.0, 40.0)),
    u("round_decimals_", lambda T, x: x.clone().round_(decimals=1)),
    # -- masked_fill (float values into integer tensors truncate; bool masks only) ------------
    b("masked_fill", lambda T, x, y: x.masked_fill(y > 0, 0.5)),
    b("masked_fill_tensor", lambda T, x, y: T.masked_fill(x, y > 1, y.sum())),
    u("masked_fill_", lambda T, x: x.clone().masked_fill_(x > 0, -1)),
    u("masked_fill_long_mask", lambda T, x: x.masked_fill(x.long(), 1)),
    u("masked_fill_value_1d", lambda T, x: x.masked_fill(x > 0, x.reshape(-1)[:1].detach())),
    OpInfo("masked_fill_bad_broadcast", lambda T, x, y: x.masked_fill_(y > 0, 1),
           [((3,), (2, 3)), ((2, 3), (3,))], grad=False),
    # -- comparisons and logic -------------------------------------------------------------
    b("eq", lambda T, x, y: x == y),
    b("ne", lambda T, x, y: T.ne(x, y)),
    b("lt", lambda T, x, y: x < y),
    b("le", lambda T, x, y: x <= y),
    b("gt", lambda T, x, y: T.gt(x, y)),
    b("ge", lambda T, x, y: x >= y),
    u("gt_scalar", lambda T, x: x > 0.5),
    u("eq_scalar", lambda T, x: x == 1),
    b("and", lambda T, x, y: x & y),
    b("or", lambda T, x, y: x | y),
    b("xor", lambda T, x, y: x ^ y),
    u("invert", lambda T, x: ~x),
    u("logical_not", lambda T, x: x.logical_not()),
    # -- copies and conversions ------------------------------------------------------------
    u("clone", lambda T, x: x.clone()),
    u("contiguous", lambda T, x: x.contiguous()),
    u("to_float64", lambda T, x: x.to(T.float64)),
    u("double", lambda T, x: x.double()),
    u("float", lambda T, x: x.float()),
    u("long", lambda T, x: x.long()),
    u("bool", lambda T, x: x.bool()),
    u("detach", lambda T, x: x.detach()),
    # -- reductions ------------------------------------------------------------------------
    OpInfo("sum", lambda T, x: x.sum(), REDUCE),
    OpInfo("sum_dim", lambda T, x: x.sum(0), REDUCE_DIM),
    OpInfo("sum_dim_keep", lambda T, x: T.sum(x, -1, keepdim=True), REDUCE_DIM),
    OpInfo("sum_dims", lambda T, x: x.sum((0, -1)), REDUCE_DIM),
    OpInfo("sum_dtype", lambda T, x: x.sum(dtype=T.float64), REDUCE),
    OpInfo("mean", lambda T, x: x.mean(), REDUCE),
    OpInfo("mean_dim", lambda T, x: T.mean(x, 0, keepdim=True), REDUCE_DIM),
    OpInfo("mean_dims", lambda T, x: x.mean((0, -1)), REDUCE_DIM),
    # float16 prod rounds differently from torch's (its accumulation order is not reproduced)
    OpInfo("prod", lambda T, x: x.prod(), REDUCE, domain=(0.5, 1.5),
           dtypes=tuple(d for d in ALL if d != "float16")),
    OpInfo("prod_dim", lambda T, x: x.prod(0), REDUCE_DIM, domain=(0.5, 1.5),
           dtypes=tuple(d for d in ALL if d != "float16")),
    OpInfo("prod_dim_keep", lambda T, x: T.prod(x, -1, keepdim=True), REDUCE_DIM[:-1],
           domain=(0.5, 1.5), dtypes=tuple(d for d in ALL if d != "float16")),
    OpInfo("max", lambda T, x: x.max(), REDUCE),
    OpInfo("min", lambda T, x: T.min(x), REDUCE),
    OpInfo("max_dim", lambda T, x: x.max(0), REDUCE_DIM[:-1]),
    OpInfo("min_dim_keep", lambda T, x: x.min(-1, keepdim=True), REDUCE_DIM[:-1]),
    OpInfo("argmax", lambda T, x: x.argmax(), REDUCE),
    OpInfo("argmin_dim", lambda T, x: T.argmin(x, dim=-1), REDUCE_DIM[:-1]),
    OpInfo("argmax_keep", lambda T, x: x.argmax(0, keepdim=True), REDUCE_DIM[:-1]),
    OpInfo("std", lambda T, x: x.std(), REDUCE),
    OpInfo("var", lambda T, x: T.var(x), REDUCE),
    OpInfo("var_dim", lambda T, x: x.var(0), REDUCE_DIM),
    OpInfo("std_dim_keep", lambda T, x: x.std(-1, keepdim=True), REDUCE_DIM),
    OpInfo("var_unbiased_false", lambda T, x: x.var(unbiased=False), REDUCE),
    OpInfo("std_correction0", lambda T, x: x.std(0, correction=0), REDUCE_DIM),
    OpInfo("norm", lambda T, x: x.norm(), REDUCE),
    OpInfo("norm_dim", lambda T, x: T.norm(x, dim=0), REDUCE_DIM),
    OpInfo("norm_p1_keep", lambda T, x: x.norm(p=1, dim=-1, keepdim=True), REDUCE_DIM),
    OpInfo("norm_p3", lambda T, x: x.norm(3), REDUCE),
    OpInfo("norm_p1_5_dims", lambda T, x: x.norm(1.5, (0, -1)), REDUCE_DIM),
    OpInfo("norm_p0_5", lambda T, x: T.norm(x, 0.5, -1), REDUCE_DIM),
    OpInfo("norm_inf", lambda T, x: x.norm(float("inf"), dim=0), REDUCE_DIM),
    OpInfo("norm_fro_dtype", lambda T, x: x.norm("fro", dtype=T.float64), REDUCE),
    OpInfo("all", lambda T, x: x.all(), REDUCE),
    OpInfo("any_dim", lambda T, x: x.any(0), REDUCE_DIM),
    # -- matrix products -------------------------------------------------------------------
    OpInfo("mm", lambda T, x, y: x.mm(y), [((3, 4), (4, 5)), (((3, 4), "T"), (4, 2)),
                                            ((3, 0), (0, 2)), ((2, 3), (2, 3))], dtypes=NUM,
           reprs=False),
    OpInfo("mv", lambda T, x, y: T.mv(x, y), [((3, 4), (4,)), (((3, 4), "T"), (4,)),
                                               ((3, 4), (3,))], dtypes=NUM, reprs=False),
    OpInfo("dot", lambda T, x, y: x.dot(y), [((4,), (4,)), ((4,), ((4,), "step")),
                                              ((3,), (4,))], dtypes=NUM, reprs=False),
    OpInfo("bmm", lambda T, x, y: T.bmm(x, y), [((2, 3, 4), (2, 4, 5)),
                                                 (((2, 3, 4), "T"), (2, 4, 2)),
                                                 ((2, 3, 4), (3, 4, 5))], dtypes=NUM,
           reprs=False),
    OpInfo("matmul", lambda T, x, y: x @ y,
           [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 3)), ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)),
            ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((2, 1, 3, 4), (5, 4, 2)),
            (((2, 3, 4), "T"), (4, 2)), ((3, 4), (5, 4)), ((), (4,)), ((2, 3, 4), (2, 5, 3))],
           dtypes=("float32", "float64", "int64"), reprs=False),
    OpInfo("addmm", lambda T, c, x, y: T.addmm(c, x, y), [((3, 5), (3, 4), (4, 5)),
                                                          ((5,), (3, 4), (4, 5))],
           dtypes=FLOATS, reprs=False),
    # -- joining ---------------------------------------------------------------------------
    OpInfo("cat", lambda T, x, y: T.cat([x, y]), [((2, 3), (4, 3)), ((0,), (3,)),
                                                   (((3, 3), "T"), (1, 3)), ((2, 3), (2, 4))]),
    OpInfo("cat_dim1", lambda T, x, y: T.cat((x, y), dim=1), [((2, 3), (2, 1)),
                                                              ((2, 3), (3, 3)), ((2,), (2,))]),
    OpInfo("stack", lambda T, x, y: T.stack([x, y]), [((2, 3), (2, 3)), ((), ()),
                                                       ((2, 3), (3, 2))]),
    OpInfo("stack_dim", lambda T, x, y: T.stack([x, y], -1), [((2, 3), ((2, 3), "T"))]),
    OpInfo("repeat", lambda T, x: x.repeat(2, 1, 3), UNARY),
    OpInfo("repeat_tuple", lambda T, x: x.repeat((1, 2)), [(3, 4), (4,), ((3, 4), "T"),
                                                            (2, 3, 4)]),
    OpInfo("repeat_zero", lambda T, x: x.repeat(0, 2), [(3, 4), (4,), (0,)]),
    # flip: empty samples left out: torch's result keeps an empty input's strides, doctensor's
    # empty results are contiguous (a known gap, shared with the pointwise ops)
    OpInfo("flip", lambda T, x: x.flip(0), [s for s in UNARY if s != (0,)]),
    OpInfo("flip_dims", lambda T, x: T.flip(x, (0, -1)), [s for s in REDUCE_DIM if s != (0, 3)]),
    OpInfo("cumsum", lambda T, x: x.cumsum(0), UNARY),
    OpInfo("cumsum_last", lambda T, x: T.cumsum(x, -1), REDUCE_DIM),
    OpInfo("cumsum_dtype", lambda T, x: x.cumsum(0, dtype=T.float64), REDUCE_DIM),
    # -- sorting (torch's CPU sort is stable: integer ties keep their order) ----------------
    OpInfo("sort", lambda T, x: x.sort(), UNARY),
    OpInfo("sort_desc_dim0", lambda T, x: T.sort(x, 0, descending=True), UNARY),
    OpInfo("sort_stable", lambda T, x: x.sort(dim=-1, stable=True), UNARY),
    OpInfo("argsort", lambda T, x: x.argsort(descending=True), UNARY),
    # topk: floats only, whose samples have no ties (torch's partial sort orders ties its own
    # way, not reproduced)
    OpInfo("topk", lambda T, x: x.topk(2), [(5,), (3, 4), ((3, 4), "T"), ((2, 5), "step"),
                                            (2, 3, 4), (), (1,)], dtypes=FLOATS),
    OpInfo("topk_smallest", lambda T, x: T.topk(x, 3, 0, largest=False), [(5,), (4, 3),
                                                                          ((3, 4), "T")],
           dtypes=FLOATS),
    # -- Tensor.type ---------------------------------------------------------------------------
    u("type_name", lambda T, x: x.type()),
    u("type_dtype", lambda T, x: x.type(T.float64)),
    u("type_str", lambda T, x: x.type("torch.IntTensor")),
    u("type_same", lambda T, x: x.type(x.type()) is x),
    u("type_bad", lambda T, x: x.type("FloatTensor")),
    # -- views and indexing (values and gradients; sharing is in test_core_views) ----------
    u("view", lambda T, x: x.view(-1)),
    u("reshape", lambda T, x: x.reshape(-1, 1)),
    OpInfo("transpose", lambda T, x: x.transpose(0, -1), UNARY[2:]),
    OpInfo("t", lambda T, x: x.t(), UNARY[:4]),
    OpInfo("permute", lambda T, x: x.permute(2, 0, 1), [(2, 3, 4), ((2, 3, 4), "T")]),
    OpInfo("expand", lambda T, x: x.expand(2, 3, 4), [(4,), (3, 1), (), ((3, 4), "T")]),
    OpInfo("squeeze", lambda T, x: x.squeeze(), [(1, 3, 1), (), (3,), (1,)]),
    OpInfo("squeeze_dim", lambda T, x: x.squeeze(0), [(1, 3, 1), (3, 1), ()]),
    OpInfo("squeeze_dims", lambda T, x: x.squeeze((0, 2)), [(1, 3, 1), (1, 3, 4)]),
    OpInfo("unsqueeze", lambda T, x: x.unsqueeze(1), UNARY[2:]),
    OpInfo("flatten", lambda T, x: x.flatten(), UNARY),
    OpInfo("narrow", lambda T, x: x.narrow(-1, 1, 2), UNARY[3:]),
    OpInfo("select", lambda T, x: x.select(0, -1), UNARY[2:]),
    OpInfo("unbind", lambda T, x: x.unbind(1), UNARY[3:]),
    OpInfo("split", lambda T, x: x.split(2, -1), UNARY[2:]),
    OpInfo("split_sizes", lambda T, x: T.split(x, [1, 3], 1), [(3, 4), ((3, 4), "T")]),
    OpInfo("chunk", lambda T, x: x.chunk(3, 0), UNARY[2:]),
    OpInfo("diagonal", lambda T, x: x.diagonal(), [(3, 4), ((3, 4), "T"), (2, 3, 4)]),
    OpInfo("diagonal_offset", lambda T, x: T.diagonal(x, -1), [(3, 4), (4, 3)]),
    OpInfo("getitem_basic", lambda T, x: x[1:, None, ..., ::2], [(3, 4), (2, 3, 4)]),
    OpInfo("getitem_int", lambda T, x: x[-1, 1:3], [(3, 4), ((3, 4), "T")]),
    OpInfo("getitem_list", lambda T, x: x[[0, 2, 0]], [(3, 4), (3,)]),
    OpInfo("getitem_tensor", lambda T, x: x[:, T.tensor([1, 0, 1])], [(3, 4), ((3, 4), "T")]),
    OpInfo("getitem_bool", lambda T, x: x[x > 1], [(3, 4), (5,)]),
    OpInfo("getitem_0d_index", lambda T, x: x[T.tensor(1)], [(3, 4), (5,), ((3, 4), "T")]),
    OpInfo("getitem_int_and_list", lambda T, x: x[1, :, [0, 2, 2]], [(2, 3, 4)]),
    OpInfo("getitem_split_lists", lambda T, x: x[[0, 1], :, [1, 3]], [(2, 3, 4),
                                                                       ((2, 3, 4), "T")]),
    OpInfo("getitem_mask_row", lambda T, x: x[T.tensor([True, False, True])],
           [(3, 4), ((3, 4), "T")]),
]

CASES = [pytest.param(op, dt, id=f"{op.name}-{dt}") for op in OPS for dt in op.dtypes]


def _sample(spec):
    if len(spec) == 2 and isinstance(spec[1], str):
        return spec
    return spec, "contig"


def _normalize(sample):
    """A sample is one shape (unary) or a tuple of shapes; each may carry a layout."""
    if sample == () or (isinstance(sample, tuple) and all(isinstance(s, int) for s in sample)):
        return [(sample, "contig")]
    if len(sample) == 2 and isinstance(sample[1], str):
        return [sample]
    return [_sample(s) for s in sample]


def _tensors(out):
    if hasattr(out, "grad_fn"):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _tensors(o)]
    return []


def run_case(op, dtype, index, sample):
    specs = _normalize(sample)
    rng = np.random.default_rng(zlib.crc32(f"{op.name}/{dtype}/{index}".encode()))
    values = [sample_values(rng, shape, dtype, op.domain, i in op.nonzero)
              for i, (shape, _) in enumerate(specs)]
    # float16 gradients are not compared: torch's backward kernels compute in float32 and
    # round once, doctensor's formulas (composed ops) round after each step (a few ulps off)
    grad = op.grad and dtype in FLOATS
    seed = zlib.crc32(f"g/{op.name}/{dtype}/{index}".encode())

    def scenario(T):
        leaves, inputs = [], []
        for v, (_, layout) in zip(values, specs):
            leaf, x = make_input(T, v, layout, requires_grad=grad)
            leaves.append(leaf)
            inputs.append(x)
        out = op.fn(T, *inputs)
        result = {"out": out}
        if grad:
            outs = [t for t in _tensors(out) if t.requires_grad]
            if outs:
                g_rng = np.random.default_rng(seed)
                gs = [T.tensor(g_rng.uniform(-1, 1, tuple(o.shape)).astype(str(o.dtype)[6:]))
                      for o in outs]
                T.autograd.backward(outs, gs)
                result["grads"] = [leaf.grad for leaf in leaves]
        return result

    ours, theirs = both(scenario)
    assert_same(ours, theirs, op.rtol, op.atol, f"{op.name}[{index}]", op.strides, op.reprs)


@pytest.mark.parametrize("op,dtype", CASES)
def test_op(op, dtype):
    for index, sample in enumerate(op.samples):
        run_case(op, dtype, index, sample)


def test_table_covers_the_issue():
    """Every op that issue 2 lists has an entry (a new op adds one)."""
    names = {op.name for op in OPS}
    wanted = {"add", "sub", "mul", "div", "floordiv", "mod", "pow", "neg", "abs", "exp", "log",
              "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "clamp", "where", "sum", "mean",
              "max", "min", "argmax", "argmin_dim", "prod", "std", "var", "matmul", "mm", "mv",
              "dot", "bmm", "cat", "stack", "eq", "lt", "gt"}
    assert wanted <= names, wanted - names


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_sign_of_nan_and_signed_zeros(dtype):
    """torch's sign is (0 < x) - (x < 0): +0. for NaN and -0. (NumPy keeps them); abs's
    backward multiplies by sgn, so NaN inputs get a zero gradient."""
    def scenario(T):
        x = T.tensor([np.nan, -0.0, 0.0, -np.inf, 2.0], dtype=getattr(T, dtype),
                     requires_grad=True)
        x.abs().backward(T.ones(5, dtype=x.dtype))
        return x.sign(), T.sgn(x), x.grad
    same_outcome(scenario)


def test_rounding_and_classification_of_integers_and_bools():
    """floor/ceil/trunc return integers unchanged and refuse bool; frac refuses both; the
    is* tests answer for every dtype (torch's zeros_like/ones_like keep an empty integer
    input's strides, which doctensor does not: non-empty inputs here)."""
    def scenario(T):
        out = []
        for t in (T.tensor([1, -2]), T.tensor([True, False]), T.tensor([3], dtype=T.uint8)):
            for name in ("floor", "ceil", "trunc", "frac", "isnan", "isinf", "isfinite"):
                try:
                    out.append(getattr(T, name)(t))
                except Exception as e:  # noqa: BLE001 - the error is the outcome compared
                    out.append((type(e).__name__, str(e)))
        x = T.tensor([2.5, -0.5])
        out += [x.floor_(), x._version, x.frac_(), x._version]
        return out
    same_outcome(scenario)
