"""``torch.autograd.forward_ad`` against torch 2.13: levels, dual tensors and their errors, word
for word; tangents through views and in-place ops; and the tangents of the op table's rows
(float64, every sample), which doctensor computes from each op's backward formula (Note
[forward AD]) and torch from its forward formulas.
"""

import zlib

import numpy as np
import pytest
import torch
from _oracle import Raised, assert_same, both, make_input, same_outcome
from op_table import ROW_MODULES, normalize, sample_inputs

import doctensor


def fw(T):
    return T.autograd.forward_ad


def f64(T, values):
    return T.tensor(values, dtype=T.float64)


# -- levels and dual tensors ---------------------------------------------------------------------

def test_namespace():
    ours, theirs = doctensor.autograd.forward_ad, torch.autograd.forward_ad
    assert sorted(ours.__all__) == sorted(theirs.__all__)
    assert "forward_ad" in dir(doctensor.autograd)


def _errors(T):
    F = fw(T)
    p, t = T.tensor([1.0, 2.0, 3.0]), T.tensor([0.5, 0.5, 0.5])
    out = [_raised(lambda: F.make_dual(p, t)), _raised(F.exit_dual_level),
           F.unpack_dual(p).tangent]
    with F.dual_level() as level:
        d = F.make_dual(p, t)
        out += [level, _raised(F.enter_dual_level),
                _raised(lambda: F.make_dual(p, T.ones(2))),
                _raised(lambda: F.make_dual(p.long(), T.ones(3))),
                _raised(lambda: F.make_dual(p, T.ones(3).long())),
                _raised(lambda: F.make_dual(p, t, level=3)),
                _raised(lambda: F.make_dual(d, t)),
                _raised(lambda: F.unpack_dual(d, level=2)),
                _raised(lambda: F.unpack_dual(3)),
                _raised(lambda: F.exit_dual_level(level=1))]
    out += [_raised(F.exit_dual_level), F.unpack_dual(d)]
    return out


def _raised(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return type(e).__name__, str(e)


def test_level_and_make_dual_errors():
    same_outcome(_errors)


def test_dual_tensor():
    def fn(T):
        F = fw(T)
        a = T.tensor([1.0, 2.0], requires_grad=True)
        t = T.tensor([0.5, -1.0])
        with F.dual_level():
            d = F.make_dual(a, t)
            primal, tangent = u = F.unpack_dual(d)
            shared = (d._base is a, primal._base is a, tangent is t,
                      d.data_ptr() == a.data_ptr(), primal.data_ptr() == a.data_ptr())
            plain = F.unpack_dual(T.ones(2))
            inside = (repr(d), repr(u), type(u).__name__, primal.grad_fn.name(),
                      [type(n).__name__ for n, _ in primal.grad_fn.next_functions], d, primal,
                      plain.tangent, plain.primal._base is not None)
            t.mul_(2)  # the tangent is used as it is
            inside += (repr(d),)
        return shared, inside, repr(d), F.unpack_dual(d).tangent
    same_outcome(fn)


def test_make_dual_copies_a_tangent_laid_out_otherwise():
    def fn(T):
        F = fw(T)
        with F.dual_level():
            t = T.ones(3, 2)
            d = F.make_dual(T.zeros(2, 3).t(), t)
            kept = F.make_dual(T.zeros(3, 2), t)
            return (F.unpack_dual(d).tangent, F.unpack_dual(d).tangent is t,
                    F.unpack_dual(kept).tangent is t, repr(d))
    same_outcome(fn)


def test_repr_of_a_0d_tangent_and_of_results():
    def fn(T):
        F = fw(T)
        with F.dual_level():
            z = F.make_dual(T.ones(2, 3), T.ones(2, 3))
            x = F.make_dual(T.tensor([1.0, 2.0], requires_grad=True), T.ones(2))
            return [repr(r) for r in (z.sum(), z @ T.ones(3, 2), (x * x).sum(), z * 2, z.sin(),
                                      z[1:], T.stack([z[0], T.zeros(3)]), z.argmax(), z > 1)]
    same_outcome(fn)


def test_decorator_and_exit_forgets_tangents():
    def fn(T):
        F = fw(T)

        @F.dual_level()
        def inner():
            d = F.make_dual(T.ones(2), T.ones(2))
            return d, F.unpack_dual(d * 3).tangent
        d, tangent = inner()
        return tangent, F.unpack_dual(d).tangent, repr(d)
    same_outcome(fn)


def test_backward_through_dual_tensors():
    def fn(T):
        F = fw(T)
        a = T.tensor([1.0, 2.0], requires_grad=True)
        with F.dual_level():
            d = F.make_dual(a, T.ones(2))
            y = (d * d).sum()
            y.backward()
            tangent = F.unpack_dual(y).tangent
            # (the tangent's history has other nodes than torch's formula: Note [tangents with
            # history]; its values and requires_grad are compared)
            return y, tangent.requires_grad, tangent.detach(), a.grad
    same_outcome(fn)


def test_forward_over_reverse():
    def fn(T):
        F = fw(T)
        x = f64(T, [0.5, -1.0, 2.0]).requires_grad_()
        w = f64(T, [1.5, 2.0, -0.5]).requires_grad_()
        v = f64(T, [1.0, 0.25, -2.0])
        with F.dual_level():
            d = F.make_dual(x, v)
            jvp = F.unpack_dual((d.sin() * w).sum() + (d * d).exp().mean()).tangent
            out = [jvp.requires_grad, jvp.detach(), T.autograd.grad(jvp, (x, w))]
            z = x.detach().clone().requires_grad_()
            zz = z * 1
            zz.mul_(F.make_dual(T.ones(3, dtype=T.float64), v))  # in place, with history
            tz = F.unpack_dual(zz).tangent
            out += [tz.requires_grad, tz.detach(), T.autograd.grad(tz.sum(), z)]
            with T.no_grad():
                out.append(F.unpack_dual(d * 2).tangent.requires_grad)
            out.append(F.unpack_dual(F.make_dual(T.ones(3), T.ones(3)) * 2).tangent)
        return out
    same_outcome(fn)


# -- views and in-place ops ----------------------------------------------------------------------

def _inplace(T):
    F = fw(T)
    with F.dual_level():
        d = F.make_dual(T.tensor([1.0, 2.0, 3.0]), T.tensor([0.5, 0.5, 0.5]))
        d.mul_(2)
        x = T.ones(3)
        x.add_(d)  # a tensor without a tangent gets one
        b = T.zeros(2, 3)
        b[0].copy_(d)  # a view: its base gets a tangent
        b2 = T.zeros(2, 3)
        b2[1] = d
        d2 = F.make_dual(T.ones(2, 3), T.zeros(2, 3))
        v = d2[0]
        v.mul_(T.tensor(3.0))
        v.add_(d)  # through a view into its base's tangent
        d3 = F.make_dual(T.ones(3), T.ones(3))
        w = d3[:2]
        F.unpack_dual(w).tangent.mul_(5)  # a view's tangent is a view of its base's
        y = T.ones(3)
        later = y[:2]
        y.copy_(F.make_dual(T.ones(3), T.ones(3) * 4))  # a view made before its base's tangent
        z = T.ones(3)
        z[1:] *= F.make_dual(T.ones(2), T.ones(2) * 4)
        e = F.make_dual(T.ones(2, 3), T.ones(2, 3))
        e.t_()
        e.fill_(2.0)
        return [repr(r) for r in (d, x, b, b2, d2, d3, w, y, later, z, e)] + [e.stride()]


def test_inplace_and_views():
    same_outcome(_inplace)


def _ramp(T, F, shape, offset=1.0):
    """A float64 dual tensor of ``shape``: values 0, 1, ...; tangent offset + 0.1 * value."""
    values = T.arange(float(np.prod(shape))).reshape(shape).double()
    return F.make_dual(values, values * 0.1 + offset)


def _inplace_ops(T):
    F = fw(T)
    out = []
    with F.dual_level():
        def d(shape=(2, 3), offset=1.0):
            return _ramp(T, F, shape, offset)
        cases = [
            lambda x: x.fill_(F.make_dual(T.tensor(2.0).double(), T.tensor(5.0).double())),
            lambda x: x.zero_(),
            lambda x: x.masked_fill_(T.tensor([[True, False, True], [False, False, True]]), 7.0),
            lambda x: x.index_put_((T.tensor([0, 1]),), d((2, 3), 3.0), accumulate=True),
            lambda x: x.scatter_(1, T.tensor([[0, 1], [2, 0]]), d((2, 2), 2.0)),
            lambda x: x.clamp_(1.0, 4.0),
            lambda x: x.addcmul_(d(), d((2, 3), 2.0), value=0.5),
            lambda x: x.__setitem__((slice(None), 1), 0),
            lambda x: x.copy_(T.ones(3).double()),
            lambda x: x.copy_(d((3,), 4.0)),
            lambda x: x.sigmoid_(),
            lambda x: x.view(3, 2).mul_(2),
            lambda x: x.t_().add_(1),
            lambda x: x.unsqueeze_(0).squeeze_(),
        ]
        for case in cases:
            x = d()
            case(x)
            out.append((repr(x), x.stride()))
        x = d()
        x.uniform_()  # (a random fill: a zero tangent)
        out.append(F.unpack_dual(x).tangent)
        x = T.zeros(2, 3).double()
        x.index_add_(0, T.tensor([1]), d((1, 3)))
        out.append(repr(x))
    return out


def test_inplace_ops_update_tangents():
    same_outcome(_inplace_ops)


def test_view_tangents_share_memory():
    def fn(T):
        F = fw(T)
        with F.dual_level():
            d = F.make_dual(T.arange(6.0).reshape(2, 3), T.ones(2, 3))
            tangent = F.unpack_dual(d).tangent
            views = (d.t(), d[1], d.view(3, 2), d.unbind(0)[1], d.expand(4, 2, 3), d.diagonal(),
                     d.reshape(6), d.contiguous(), d.to(T.float32), d.t().contiguous())
            return [(F.unpack_dual(v).tangent,
                     F.unpack_dual(v).tangent.untyped_storage().data_ptr() ==
                     tangent.untyped_storage().data_ptr()) for v in views]
    same_outcome(fn)


def test_multi_output_and_non_differentiable_outputs():
    def fn(T):
        F = fw(T)
        with F.dual_level():
            d = F.make_dual(f64(T, [[1.0, 5.0], [3.0, 2.0]]), f64(T, [[1.0, 2.0], [3.0, 4.0]]))
            m = T.max(d, dim=1)
            P, L, U = T.linalg.lu(d)
            return (repr(m), F.unpack_dual(m.indices).tangent, F.unpack_dual(P).tangent,
                    F.unpack_dual(L).tangent, F.unpack_dual(U).tangent,
                    F.unpack_dual(T.linalg.svdvals(d)).tangent, F.unpack_dual(d.detach()).tangent)
    same_outcome(fn)


def test_complex_tangents():
    def fn(T):
        F = fw(T)
        with F.dual_level():
            x = F.make_dual(T.tensor([1 + 2j, 3 - 1j]), T.tensor([0.5 - 1j, 2 + 1j]))
            return [F.unpack_dual(r).tangent for r in (x * x, x.abs(), x.conj() * 1, x.exp(),
                                                         x.real, x.angle())]
    same_outcome(fn, rtol=1e-6, atol=1e-6)


def test_no_grad_keeps_tangents():
    def fn(T):
        F = fw(T)
        with F.dual_level():
            d = F.make_dual(T.ones(2), T.ones(2))
            with T.no_grad():
                return repr(d.exp() * 2)
    same_outcome(fn)


# -- the op table: tangents of every float64 row --------------------------------------------------

# Rows whose tangents differ from torch's, and why.  doctensor's tangent is the transpose of
# the op's backward formula; torch's comes from a forward formula of its own, and the two
# disagree at some points and for some conventions.  Where the reason says so, doctensor's
# tangent was checked equal to torch's own transposed backward (the same double vjp run in
# torch).
_SINGULAR = ("at a singular point torch's forward formula gives nan or inf where its backward "
             "formula gives a finite gradient (a mask, or 0 for an empty reduction)")
_CONVENTION = ("torch's forward and backward formulas disagree here (an op reading one "
               "triangle, or writing one place twice); doctensor's tangent equals torch's own "
               "transposed backward")
_BACKWARD_ERROR = "the backward formula refuses these inputs (as torch's backward does)"
_NOT_DIFFERENTIABLE = ("torch gives no tangent to an output it does not differentiate; "
                       "doctensor gives zeros")
_COMPLEX_LINALG = ("doctensor's double backward through complex linear algebra differs from "
                   "torch's (the transposed backward run in torch gives torch's tangent)")
KNOWN = {
    **dict.fromkeys(("atan2_origin", "fmin_nan", "nan_to_num", "nan_to_num_",
                     "nan_to_num_values", "nan_to_num_neginf_only", "logit_outside",
                     "sinc_zero", "logcumsumexp", "logcumsumexp_last", "logcumsumexp_special",
                     "nanmedian", "nanmedian_all_nan", "median", "median_nan", "aminmax_nan",
                     "mean_dim", "mean_dims", "mean_complex", "var_mean_dim",
                     "var_mean_dims_keep",
                     "logsumexp", "logsumexp_dims_keep", "norm_p1_5_dims",
                     "binary_cross_entropy_saturated_f64", "prelu", "hardsigmoid_float64_grad"),
                    _SINGULAR),
    **dict.fromkeys(("cholesky_triangle", "cholesky_inverse", "eigh_upper", "triangular_solve",
                     "eig", "cholesky_inverse_complex", "setitem_value_0d",
                     "as_strided_scatter"), _CONVENTION),
    **dict.fromkeys(("cumprod_zeros", "cumprod_one_zero", "scatter_src_larger_grad",
                     "scatter_add_src_larger_grad", "scatter_src_0d_index_1d_src", "dist_p0"),
                    _BACKWARD_ERROR),
    **dict.fromkeys(("scatter_reduce", "scatter_reduce_exclude_self",
                     "scatter_reduce_ties_and_zeros", "lstsq"), _NOT_DIFFERENTIABLE),
    **dict.fromkeys(("cholesky_complex", "solve_triangular_complex", "qr_complex", "svd_complex",
                     "pinv_complex", "lu_factor_complex", "lu_complex", "lu_solve_complex",
                     "cholesky_solve_complex", "solve_complex"), _COMPLEX_LINALG),
    **dict.fromkeys(("embedding", "embedding_1d_0d_indices", "embedding_padding_idx",
                     "embedding_negative_padding_idx", "embedding_int32_indices"),
                    "EmbeddingBackward0's formula is written on arrays (no double backward): "
                    "doctensor refuses forward AD through it"),
    "select_scatter": "torch's tangent is a strided view its formula makes; doctensor's is laid "
                      "out like the primal",
    "scatter_reduce_max_min": "torch refuses reduce='max' except under forward AD",
}

ROWS = [row for module in ROW_MODULES for row in module.ROWS
        if row.grad and "float64" in row.dtypes and "cpu" in row.devices and not row.xfail]


def _tensors(out):
    if hasattr(out, "grad_fn"):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _tensors(o)]
    return []


def _plain(T, tangent):
    """torch's zero tensors (a tangent it knows is zero) as ordinary zeros."""
    if T is torch and tangent is not None and tangent._is_zerotensor():
        return torch.zeros(tangent.shape, dtype=tangent.dtype)
    return tangent


def _row_case(row, index, sample):
    specs = normalize(sample)
    values = sample_inputs(row, "float64", index, sample)
    rng = np.random.default_rng(zlib.crc32(f"tangent/{row.name}/{index}".encode()))
    tangents = [rng.uniform(-1, 1, np.shape(v)) for v in values]

    def scenario(T):
        F = fw(T)
        with F.dual_level():
            inputs = [F.make_dual(make_input(T, v, layout)[1], T.tensor(t))
                      for v, t, (_, layout) in zip(values, tangents, specs)]
            out = row.fn(T, *inputs)
            return out, [_plain(T, F.unpack_dual(o).tangent) for o in _tensors(out)]
    return both(scenario)


def _compare(row, index, ours, theirs):
    where = f"{row.name}[{index}]"
    if isinstance(ours, Raised) or isinstance(theirs, Raised):
        assert_same(ours, theirs, path=where)
        return
    assert_same(ours[0], theirs[0], row.rtol, row.atol, where, row.strides, reprs=False)
    assert len(ours[1]) == len(theirs[1]), f"{where}: {len(ours[1])} tangents"
    for i, (a, b) in enumerate(zip(ours[1], theirs[1])):
        # (-0. and 0. differ between the two formulas: values compared, not reprs)
        assert_same(a, b, row.rtol, row.atol, f"{where} tangent {i}", False, reprs=False)
        if b is not None and row.strides:
            assert _strides(a) == _strides(b), f"{where} tangent {i}: strides"


def _strides(t):
    """The strides that matter: of the dims longer than 1 (none for an empty tensor)."""
    if not t.numel():
        return ()
    return tuple(s for s, n in zip(t.stride(), t.shape) if n > 1)


def _forward_ad_missing(theirs):
    return isinstance(theirs, Raised) and "forward AD" in theirs.message


@pytest.mark.parametrize("row", [
    pytest.param(row, id=row.name, marks=[pytest.mark.xfail(strict=True, reason=KNOWN[row.name])]
                 if row.name in KNOWN else []) for row in ROWS])
def test_row_tangents(row):
    for index, sample in enumerate(row.samples):
        ours, theirs = _row_case(row, index, sample)
        if not _forward_ad_missing(theirs):  # (torch has no forward formula for a few ops)
            _compare(row, index, ours, theirs)
