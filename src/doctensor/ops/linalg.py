"""Products, norms and distances.

Records: mm, mv, dot, bmm, vdot, linalg_cross, the add* family (addmm, addmv, addr, baddbmm,
addbmm: ``beta * self + alpha * product``), dist, cdist (row by row, or by one matrix product
as ``_euclidean_dist``), renorm and at::norm (frobenius_norm).  Composed from other ops as
torch composes them, so that their grad_fn is the last op's node: matmul, outer, inner,
tensordot, kron, einsum, multi_dot, vecdot, vander and the linalg norms (over the vector norm
record of reduction.py, and the singular values for the 2-norms and 'nuc').
"""

import itertools
import math
from types import SimpleNamespace

from .. import _strides as S
from .._dtypes import _BY_NP, int64, promote_types
from .._strides import broadcast_shapes
from .._tensor_base import TensorBase, warn_once
from ._dispatch import apply, apply_, autograd_check_, needs_grad, scalar_as
from ._registry import declare
from .creation import zeros_like
from .joining import cat
from .pointwise import where_tensor
from .reduction import cumprod, norm, normalize_dims, vector_norm, vector_norm_backward
from .views import squeeze_inplace_dim, unsafe_view

__all__ = ["mm", "mm_op", "mv_op", "dot_op", "bmm_op", "addmm", "addmm_op", "matmul",
           "vdot_op", "cross_op", "linalg_cross", "cross", "addmv", "addmv_op", "addr",
           "addr_op", "baddbmm", "baddbmm_op", "addbmm", "addbmm_op", "outer", "inner",
           "tensordot", "kron", "einsum", "multi_dot", "chain_matmul", "linalg_vector_norm",
           "matrix_norm", "linalg_norm", "dist", "dist_op", "cdist", "cdist_op",
           "euclidean_dist_op", "renorm", "renorm_op", "vecdot", "vander", "linalg_vander",
           "frobenius_norm", "frobenius_op", "nuclear_norm"]


def _same_dtype(a, b, what="m1 and m2"):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected {what} to have the same dtype, but got: "
                           f"{_BY_NP[a._data.dtype].c_name} != {_BY_NP[b._data.dtype].c_name}")


def _check_mm(a, b, **attrs):
    if a._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    _same_dtype(a, b)


@declare("mm", "MmBackward0", ("self", "mat2"), saves={"self": "mat2", "mat2": "self"},
         check=_check_mm, method="mm", function="mm")
def mm_op(xp, a, b, **sym):
    return xp.matmul(a, b).astype(a.dtype, copy=False)  # (NumPy gives bfloat16's in float32)


@mm_op.def_backward
def mm_backward(ctx, grad):
    n, a = ctx.needs_input_grad, ctx.attrs
    return (_mm_mat1_backward(grad, ctx.mat2, a.get("self_sym_sizes"), a.get("self_sym_strides"))
            if n[0] else None,
            _mm_mat2_backward(grad, ctx.self, a.get("mat2_sym_sizes"), a.get("mat2_sym_strides"))
            if n[1] else None)


def mm(a, b):
    if needs_grad((a, b)):  # what torch saves (_saved_self_sym_sizes ...)
        return apply(mm_op, a, b, self_sym_sizes=a._data.shape, self_sym_strides=a.stride(),
                     mat2_sym_sizes=b._data.shape, mat2_sym_strides=b.stride())
    return apply(mm_op, a, b)


def _check_mv(a, v):
    if a._data.ndim == 0:  # (torch sizes its result by ``self.size(0)`` first)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if a._data.ndim != 2 or v._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.dim()}, {v.dim()}")
    if a._data.shape[1] != v._data.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x"
                           f"{a.shape[1]}), vec ({v.shape[0]})")
    if a._data.dtype != v._data.dtype:
        names = [_BY_NP[x._data.dtype].scalar_name for x in (v, a, v)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {names[0]}, "
                           f"{names[1]}, and {names[2]}")


@declare("mv", "MvBackward0", ("self", "vec"), saves={"self": "vec", "vec": "self"},
         check=_check_mv, method="mv", function="mv")
def mv_op(xp, a, v):
    return xp.matmul(a, v).astype(a.dtype, copy=False)


@mv_op.def_backward
def mv_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad.reshape(grad.shape[0], 1) * ctx.vec.conj() if n[0] else None,  # torch's ger
            ctx.self.t().conj().mv(grad) if n[1] else None)


def _check_dot(a, b):
    """torch's dot checks, in its order: both 1-D, their dtypes, their sizes."""
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.dim()}D and {b.dim()}D tensors")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_BY_NP[a._data.dtype].scalar_name} and "
                           f"{_BY_NP[b._data.dtype].scalar_name}")
    if a._data.shape[0] != b._data.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements, but got "
                           f"{a.shape[0]} and {b.shape[0]} elements respectively")


@declare("dot", "DotBackward0", ("self", "tensor"), saves={"self": "tensor", "tensor": "self"},
         check=_check_dot, method="dot", function="dot")
def dot_op(xp, a, b):
    return xp.dot(a, b)


@dot_op.def_backward
def dot_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad * ctx.tensor.conj() if n[0] else None,
            grad * ctx.self.conj() if n[1] else None)


def _check_bmm_sizes(a, b):
    if a._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b._data.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a._data.shape[0] != b._data.shape[0] or a._data.shape[2] != b._data.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")


def _check_bmm(a, b):
    _check_bmm_sizes(a, b)
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected scalar type {_BY_NP[a._data.dtype].scalar_name} but found "
                           f"{_BY_NP[b._data.dtype].scalar_name}")


@declare("bmm", "BmmBackward0", ("self", "mat2"), saves={"self": "mat2", "mat2": "self"},
         check=_check_bmm, method="bmm", function="bmm")
def bmm_op(xp, a, b):
    return xp.matmul(a, b).astype(a.dtype, copy=False)


@bmm_op.def_backward
def bmm_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad.bmm(ctx.mat2.transpose(1, 2).conj()) if n[0] else None,
            ctx.self.transpose(1, 2).conj().bmm(grad) if n[1] else None)


def _check_addmm_args(c, a, b):
    """torch's addmm checks, in its order: dtypes (self, then mat1, against mat2), that both
    are matrices, their sizes."""
    for x, what in ((c, "self"), (a, "mat1")):
        if x._data.dtype != b._data.dtype:
            raise RuntimeError(f"{what} and mat2 must have the same dtype, but got "
                               f"{_BY_NP[x._data.dtype].scalar_name} and "
                               f"{_BY_NP[b._data.dtype].scalar_name}")
    for x, what in ((a, "mat1"), (b, "mat2")):
        if x._data.ndim != 2:
            raise RuntimeError(f"{what} must be a matrix, got {x._data.ndim}-D tensor")
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")


def _check_addmm(c, a, b, **attrs):
    _check_addmm_args(c, a, b)
    S.expand_strides(c._data.shape, c.stride(), (a.shape[0], b.shape[1]))  # self broadcasts


def _combine(c, prod, beta, alpha):
    """``beta * c + alpha * prod`` as torch's BLAS calls take it: ``beta == 0`` ignores ``c``
    (NaN and inf too); integer results take ``alpha`` and ``beta`` truncated, as C casts;
    bfloat16 (whose products NumPy gives in float32) in float32, rounded once at the end."""
    if prod.dtype != c.dtype:
        return _combine(c.astype(prod.dtype), prod, beta, alpha).astype(c.dtype)
    if prod.dtype.kind in "iu":
        beta, alpha = (scalar_as(int(v), prod.dtype) for v in (beta, alpha))
    if alpha != 1:
        prod = prod * prod.dtype.type(alpha)
    if beta == 0:
        return prod
    return prod + (c if beta == 1 else c * c.dtype.type(beta))


@declare("addmm", "AddmmBackward0", ("self", "mat1", "mat2"),
         saves={"mat1": "mat2", "mat2": "mat1"}, check=_check_addmm, method="addmm",
         function="addmm", inplace="addmm_")
def addmm_op(xp, c, a, b, beta=1, alpha=1, **sym):
    return _combine(c, xp.matmul(a, b), beta, alpha)


@addmm_op.def_backward
def addmm_backward(ctx, grad):
    n, a = ctx.needs_input_grad, ctx.attrs
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    return ((grad if beta == 1 else grad * beta) if n[0] else None,
            _mm_mat1_backward(grad, ctx.mat2, a.get("mat1_sym_sizes"),
                              a.get("mat1_sym_strides"), alpha) if n[1] else None,
            _mm_mat2_backward(grad, ctx.mat1, a.get("mat2_sym_sizes"),
                              a.get("mat2_sym_strides"), alpha) if n[2] else None)


def addmm(c, a, b, beta=1, alpha=1, in_place=False):
    """``beta * c + alpha * (a @ b)``; with torch's saved sizes and strides under grad."""
    if in_place:
        autograd_check_(c, a, b)
        _check_addmm_args(c, a, b)  # (before the in-place size check, as torch's)
        _check_inplace_size(c, (a.shape[0], b.shape[-1]))
    run = apply_ if in_place else apply
    if needs_grad((c, a, b)):  # with what torch saves (_saved_mat1_sym_sizes)
        return run(addmm_op, c, a, b, beta=beta, alpha=alpha, mat1_sym_sizes=a._data.shape,
                   mat1_sym_strides=a.stride(), mat2_sym_sizes=b._data.shape,
                   mat2_sym_strides=b.stride())
    return run(addmm_op, c, a, b, beta=beta, alpha=alpha)


def _check_inplace_size(c, size):
    """torch's refusal of an in-place add* whose ``self`` only broadcasts to the result."""
    if size is not None and tuple(c._data.shape) != tuple(size):
        raise RuntimeError(f"Bad in-place call: input tensor size {_dims(c._data.shape)} and "
                           f"output tensor size {_dims(size)} should match")


def _dims(shape):
    return f"[{', '.join(map(str, shape))}]"


# Note [gradient layouts of mm]: torch's mm_mat1_backward / mm_mat2_backward (the formulas of
# both mm and addmm) give a column-major (transposed) operand a column-major gradient, the
# transpose of a product.  For nn.Linear's ``weight.t()`` that makes the weight's gradient
# contiguous after TBackward0, so AccumulateGrad keeps it as ``.grad`` without a copy (Note
# [stealing gradients]).  ``alpha`` scales the product afterwards (torch's maybe_multiply).

def _column_major(sizes, strides):
    return strides is not None and strides[0] == 1 and strides[1] == sizes[0]


def _mm_mat1_backward(grad, mat2, sizes, strides, alpha=1):
    if _column_major(sizes, strides):
        out = _mm_transposed(mat2, grad, False, True).t()  # (mat2 @ grad.T).T
    else:
        out = _mm_transposed(grad, mat2, False, True)  # grad @ mat2.T
    return out if alpha == 1 else out * alpha


def _mm_mat2_backward(grad, mat1, sizes, strides, alpha=1):
    if _column_major(sizes, strides):
        out = _mm_transposed(grad, mat1, True, False).t()  # (grad.T @ mat1).T
    else:
        out = _mm_transposed(mat1, grad, True, False)  # mat1.T @ grad
    return out if alpha == 1 else out * alpha


def _mm_transposed(x, y, x_t, y_t):
    """``x.mm(y)``, ``x`` or ``y`` transposed first (conjugated too: a complex product's
    gradient takes the adjoint, Note [conjugate Wirtinger] in ops/spectral.py)."""
    return apply(mm_op, x.t().conj() if x_t else x, y.t().conj() if y_t else y)


def matmul(a, b):
    """torch.matmul's dispatch (its ``_matmul_impl``): dot, mv, mm, the batch of the larger
    operand folded into one mm or mv (``_should_fold``), or a broadcast bmm."""
    if not (isinstance(a, TensorBase) and isinstance(b, TensorBase)):
        raise TypeError("matmul takes tensors")  # (the parser words torch's error)
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{da}D and {db}D")
    if da == 1 and db == 1:
        return apply(dot_op, a, b)
    if da == 2 and db == 1:
        return apply(mv_op, a, b)
    if da == 1 and db == 2:
        return apply_(squeeze_inplace_dim, mm(a.unsqueeze(0), b), dim=0)
    if da == 2 and db == 2:
        return mm(a, b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    return _batched_matmul(a, b)


def _should_fold(a, b):
    """Whether torch folds the batch of the larger operand (``t1``, ``b.mT`` if ``b`` has more
    dims) into the rows of one mm or mv: when the other operand (1-D or 2-D) requires grad
    (its gradient is then one product, not a batch summed), or when the fold is a view."""
    a_larger = a._data.ndim >= b._data.ndim
    small = b if a_larger else a
    if max(a._data.ndim, b._data.ndim) < 3 or small._data.ndim > 2:
        return False
    if small.requires_grad:
        return True
    if a._data.ndim == 2:  # (a 2-D @ N-D fold would copy its transposed result)
        return False
    sizes, strides = list(a.shape if a_larger else b.shape), list(a.stride() if a_larger
                                                                  else b.stride())
    if not a_larger:  # (the sizes and strides of b.mT)
        sizes[-2:], strides[-2:] = sizes[:-3:-1], strides[:-3:-1]
    if math.prod(sizes) == 0:
        return True
    return all(strides[i] == strides[i + 1] * sizes[i + 1] for i in range(len(sizes) - 2))


def _folded_matmul(a, b):
    transpose = b._data.ndim > a._data.ndim
    t1 = b.mT if transpose else a
    t2 = (a.t() if a._data.ndim == 2 else a) if transpose else b
    lead = tuple(t1.shape[:-1])
    folded = t1.reshape(math.prod(lead), t1.shape[-1])
    if t2._data.ndim == 1:
        return apply(unsafe_view, apply(mv_op, folded, t2), size=lead)
    out = apply(unsafe_view, mm(folded, t2), size=lead + (t2.shape[1],))
    return out.mT.contiguous() if transpose else out  # (a copy: torch's CloneBackward0)


def _batched_matmul(a, b):
    da, db = a._data.ndim, b._data.ndim
    n, m1 = (a.shape[-2] if da > 1 else 1), a.shape[-1]
    m2, p = (b.shape[-2], b.shape[-1]) if db > 1 else (b.shape[0], 1)
    batch_a, batch_b = tuple(a.shape[:max(da - 2, 0)]), tuple(b.shape[:max(db - 2, 0)])
    if da == 3 and db == 3 and batch_a[0] != batch_b[0]:  # a broadcast batch of one: folded
        if batch_a[0] == 1 and a.requires_grad:
            return matmul(a.squeeze(0), b)
        if batch_b[0] == 1 and b.requires_grad:
            return matmul(a, b.squeeze(0))
    batch = tuple(broadcast_shapes(batch_a, batch_b))
    size = math.prod(batch)
    a3 = a.expand(*batch, n, m1).reshape(size, n, m1)
    out_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    if db == 1:
        b3 = b.expand(*batch, m2).reshape(size, m2).unsqueeze(2)
        return apply(unsafe_view, apply(bmm_op, a3, b3).squeeze(-1), size=out_shape)
    b3 = b.expand(*batch, m2, p).reshape(size, m2, p)
    return apply(unsafe_view, apply(bmm_op, a3, b3), size=out_shape)


# -- vdot and cross ------------------------------------------------------------------------------

@declare("vdot", "VdotBackward0", ("self", "other"), saves={"self": "other", "other": "self"},
         check=_check_dot, method="vdot", function="vdot")
def vdot_op(xp, a, b):
    return xp.dot(a, b)  # real tensors: no conjugate


@vdot_op.def_backward
def vdot_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad * ctx.other if n[0] else None, grad * ctx.self if n[1] else None)


def _check_cross(a, b, dim):
    if a._data.ndim != b._data.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    n = a._data.ndim
    d = S.wrap_dim(dim, n)
    if a._data.shape[d] != 3 or b._data.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{a._data.shape[d]} and {b._data.shape[d]}")
    broadcast_shapes(a._data.shape, b._data.shape)
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected scalar type {_BY_NP[a._data.dtype].scalar_name} but found "
                           f"{_BY_NP[b._data.dtype].scalar_name}")
    if a._data.dtype.kind == "b":
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")


@declare("linalg_cross", "LinalgCrossBackward0", ("self", "other"),
         saves={"self": "other", "other": "self"}, check=_check_cross)
def cross_op(xp, a, b, dim):
    a, b = xp.broadcast_arrays(a, b)
    a, b = xp.moveaxis(a, dim, -1), xp.moveaxis(b, dim, -1)
    out = xp.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                    a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                    a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)
    return xp.moveaxis(out, -1, dim)


@cross_op.def_backward
def cross_backward(ctx, grad):
    n, dim = ctx.needs_input_grad, ctx.dim
    return (linalg_cross(ctx.other, grad, dim) if n[0] else None,
            linalg_cross(grad, ctx.self, dim) if n[1] else None)


def linalg_cross(a, b, dim=-1):
    """``torch.linalg.cross``: the cross product of 3-vectors along ``dim`` (broadcast)."""
    return apply(cross_op, a, b, dim=dim)


_CROSS_WARNING = (
    "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
    "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
    "agree with that of linalg.cross in a future release. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)")


def cross(a, b, dim=None):
    """``torch.cross``: ``linalg.cross`` along ``dim``; without it (deprecated: torch's
    warning, once) along the first dim of size 3."""
    if dim is None:
        warn_once(_CROSS_WARNING, stacklevel=4)
        dim = next((i for i, s in enumerate(a._data.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(a, b, dim)


# -- the add* family: beta * self + alpha * product ------------------------------------------
# torch's formulas scale a gradient by alpha or beta only when it is not 1 (maybe_multiply).

def _times(t, scale):
    return t if scale == 1 else t * scale


def _into(op, c, a, b, beta, alpha):
    """``op`` (addmv, baddbmm) in place into ``c``.

    Note [add* into an expand]: torch's kernels for addmv and small baddbmm update the result
    element after element (``r = beta * r + alpha * product``), so where the elements of an
    expanded ``c`` share memory each update reads what the one before wrote; doctensor does
    the same, in the result's order.  For a column-major matrix, addmv's gemv first scales
    every element by beta, then adds ``alpha * vec[j] * mat[i, j]`` column after column.
    """
    data = c._data
    if not any(s == 0 and n > 1 for n, s in zip(data.shape, data.strides)):
        return apply_(op, c, a, b, beta=beta, alpha=alpha)
    scale, times = data.dtype.type(beta), data.dtype.type(alpha)
    rows, cols = a.shape[-2], a.shape[-1]
    by_columns = op is addmv_op and a.stride(0) == 1 and (cols == 1 or a.stride(1) >= rows)

    def write():
        if by_columns:
            for i in range(rows):
                data[i] = data[i] * scale if beta != 0 else 0
            for j in range(cols):
                for i in range(rows):
                    data[i] = data[i] + times * b._data[j] * a._data[i, j]
            return
        product = c._backend.xp.matmul(a._data, b._data)
        for index in itertools.product(*map(range, product.shape)):
            kept = data[index] * scale if beta != 0 else 0
            data[index] = kept + times * product[index]
    return apply_(op, c, a, b, beta=beta, alpha=alpha, write=write)


def _check_addmv(c, a, v, **attrs):
    if a._data.ndim != 2 or v._data.ndim != 1 or c._data.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {c.dim()}, {a.dim()}, "
                           f"{v.dim()}")
    if a._data.shape[1] != v._data.shape[0] or c._data.size not in (a._data.shape[0], 1):
        raise RuntimeError(f"size mismatch, got input ({c.shape[0] if c.dim() else 1}), mat "
                           f"({a.shape[0]}x{a.shape[1]}), vec ({v.shape[0]})")
    if not c._data.dtype == a._data.dtype == v._data.dtype:
        names = [_BY_NP[x._data.dtype].scalar_name for x in (c, a, v)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {names[0]}, "
                           f"{names[1]}, and {names[2]}")


@declare("addmv", "AddmvBackward0", ("self", "mat", "vec"), saves={"mat": "vec", "vec": "mat"},
         check=_check_addmv, method="addmv", function="addmv", inplace="addmv_",
         overlap="write")
def addmv_op(xp, c, a, v, beta=1, alpha=1):
    return _combine(c, xp.matmul(a, v), beta, alpha)


@addmv_op.def_backward
def addmv_backward(ctx, grad):
    n, alpha = ctx.needs_input_grad, ctx.alpha
    return (_times(grad, ctx.beta) if n[0] else None,
            _times(grad.unsqueeze(1) * ctx.vec.unsqueeze(0), alpha) if n[1] else None,
            _times(ctx.mat.t().mv(grad), alpha) if n[2] else None)


def addmv(c, a, v, beta=1, alpha=1, in_place=False):
    """``beta * c + alpha * (a @ v)`` (``in_place``: into ``c``, which must have the result's
    size)."""
    if in_place:
        autograd_check_(c, a, v)
        _check_addmv(c, a, v)
        _check_inplace_size(c, (a.shape[0],))
        return _into(addmv_op, c, a, v, beta, alpha)
    return apply(addmv_op, c, a, v, beta=beta, alpha=alpha)


def _check_addr(c, u, v, beta=1, alpha=1):
    for name, x in (("vec1", u), ("vec2", v)):
        if x._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {x.dim()}-D")
    S.expand_strides(c._data.shape, c.stride(), (u._data.shape[0], v._data.shape[0]))
    kind = {c._data.dtype.kind, u._data.dtype.kind, v._data.dtype.kind}
    if kind <= {"b", "i", "u"}:
        for name, value in (("beta", beta), ("alpha", alpha)):
            if isinstance(value, float):
                raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                                   "floating point number.")
    if kind != {"b"}:
        for name, value in (("beta", beta), ("alpha", alpha)):
            if isinstance(value, bool):
                raise RuntimeError(f"Boolean {name} only supported for Boolean results.")


@declare("addr", "AddrBackward0", ("self", "vec1", "vec2"),
         saves={"vec1": "vec2", "vec2": "vec1"}, check=_check_addr, promote="common",
         method="addr", function="addr", inplace="addr_")
def addr_op(xp, c, u, v, beta=1, alpha=1):
    if c.dtype.kind == "b":  # torch's bool addr: (beta and self) or (alpha and vec1 and vec2)
        outer = xp.logical_and.outer(u, v) if alpha else xp.zeros((u.size, v.size), bool)
        return outer | c if beta else outer
    # TensorIterator's kernel, element by element: beta * self + alpha * vec1 * vec2
    product = u[:, None] * scalar_as(alpha, u.dtype) * v[None, :] if alpha != 1 else \
        u[:, None] * v[None, :]
    if beta == 0:
        return product
    return (c if beta == 1 else c * scalar_as(beta, c.dtype)) + product


@addr_op.def_backward
def addr_backward(ctx, grad):
    n, alpha = ctx.needs_input_grad, ctx.alpha
    return (_times(grad, ctx.beta) if n[0] else None,
            _times(grad.mv(ctx.vec2), alpha) if n[1] else None,
            _times(grad.t().mv(ctx.vec1), alpha) if n[2] else None)


def addr(c, u, v, beta=1, alpha=1, in_place=False):
    """``beta * c + alpha * outer(u, v)`` (``in_place``: into ``c``, a matrix of the
    result's size)."""
    if not in_place:
        return apply(addr_op, c, u, v, beta=beta, alpha=alpha)
    autograd_check_(c, u, v)
    for name, x in (("vec1", u), ("vec2", v)):
        if x._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {x.dim()}-D")
    if c._data.ndim != 2:
        raise RuntimeError(f"2D tensor expected, got {c.dim()}D tensor for input")
    if c._data.shape != (u._data.shape[0], v._data.shape[0]):
        raise RuntimeError(f"size mismatch, input: {_dims(c.shape)}, v1: {_dims(u.shape)}, v2: "
                           f"{_dims(v.shape)}")
    return apply_(addr_op, c, u, v, beta=beta, alpha=alpha)


def _check_baddbmm_self(c, a, b):
    # torch expands self to the result's size before it looks at the batches' dims, and
    # compares self's dtype with batch1's before their sizes
    if a._data.ndim >= 2 and b._data.ndim >= 3:
        S.expand_strides(c._data.shape, c.stride(), (a.shape[0], a.shape[1], b.shape[2]))
    if c._data.dtype != a._data.dtype:
        names = [_BY_NP[x._data.dtype].c_name for x in (c, a, b)]
        raise RuntimeError(f"Input dtypes must be the same, got: input {names[0]}, batch1: "
                           f"{names[1]}, batch2: {names[2]}")


def _check_baddbmm(c, a, b, **attrs):
    _check_baddbmm_self(c, a, b)
    _check_bmm(a, b)


def _check_baddbmm_in_place(c, a, b):
    """In place, torch checks its result's dtype (batch2's) against self's before it compares
    the batches' dtypes."""
    _check_baddbmm_self(c, a, b)
    _check_bmm_sizes(a, b)
    if b._data.dtype != c._data.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_BY_NP[c._data.dtype].c_name}"
                           f" and output tensor dtype {_BY_NP[b._data.dtype].c_name} should match")


@declare("baddbmm", "BaddbmmBackward0", ("self", "batch1", "batch2"),
         saves={"batch1": "batch2", "batch2": "batch1"}, check=_check_baddbmm,
         method="baddbmm", function="baddbmm", inplace="baddbmm_", overlap="write")
def baddbmm_op(xp, c, a, b, beta=1, alpha=1):
    return _combine(c, xp.matmul(a, b), beta, alpha)


@baddbmm_op.def_backward
def baddbmm_backward(ctx, grad):
    n, alpha = ctx.needs_input_grad, ctx.alpha
    return (_times(grad, ctx.beta) if n[0] else None,
            _times(grad.bmm(ctx.batch2.transpose(1, 2)), alpha) if n[1] else None,
            _times(ctx.batch1.transpose(1, 2).bmm(grad), alpha) if n[2] else None)


def baddbmm(c, a, b, beta=1, alpha=1, in_place=False):
    """``beta * c + alpha * (a @ b)`` batch by batch (``in_place``: into ``c``)."""
    if in_place:
        autograd_check_(c, a, b)
        _check_baddbmm_in_place(c, a, b)
        _check_inplace_size(c, (a.shape[0], a.shape[1], b.shape[2]))
        return _into(baddbmm_op, c, a, b, beta, alpha)
    return apply(baddbmm_op, c, a, b, beta=beta, alpha=alpha)


def _check_addbmm(c, a, b, **attrs):
    if a._data.ndim >= 2 and b._data.ndim >= 3:  # (as baddbmm)
        S.expand_strides(c._data.shape, c.stride(), (a.shape[1], b.shape[2]))
    if a._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b._data.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a._data.shape[0] != b._data.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{a.shape[0]} and {b.shape[0]}")
    if a._data.shape[2] != b._data.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({a.shape[1]}x{a.shape[2]} and "
                           f"{b.shape[1]}x{b.shape[2]})")
    for x, what in ((c, "self"), (a, "mat1")):  # (torch's order, as addmm's)
        if x._data.dtype != b._data.dtype:
            raise RuntimeError(f"{what} and mat2 must have the same dtype, but got "
                               f"{_BY_NP[x._data.dtype].scalar_name} and "
                               f"{_BY_NP[b._data.dtype].scalar_name}")


@declare("addbmm", "AddbmmBackward0", ("self", "batch1", "batch2"),
         saves={"batch1": "batch2", "batch2": "batch1"}, check=_check_addbmm,
         method="addbmm", function="addbmm", inplace="addbmm_")
def addbmm_op(xp, c, a, b, beta=1, alpha=1):
    # torch adds the batches' products one after the other: addmm_ per batch, into a result
    # that starts as ``c`` (beta applied by the first batch's addmm_ only)
    if a.shape[0] == 0:
        return _combine(c, xp.zeros((a.shape[1], b.shape[2]), c.dtype), beta, alpha)
    total = c
    for k in range(a.shape[0]):
        total = _combine(total, xp.matmul(a[k], b[k]), beta if k == 0 else 1, alpha)
    return total


@addbmm_op.def_backward
def addbmm_backward(ctx, grad):
    n, alpha = ctx.needs_input_grad, ctx.alpha
    if n[1] or n[2]:  # every batch's product has the gradient of the sum
        spread = grad.unsqueeze(0).expand((ctx.batch2 if n[1] else ctx.batch1).shape[0],
                                          *grad.shape)
    return (_times(grad, ctx.beta) if n[0] else None,
            _times(spread.bmm(ctx.batch2.transpose(1, 2)), alpha) if n[1] else None,
            _times(ctx.batch1.transpose(1, 2).bmm(spread), alpha) if n[2] else None)


def addbmm(c, a, b, beta=1, alpha=1, in_place=False):
    """``beta * c + alpha * sum_k a[k] @ b[k]`` (``in_place``: into ``c``)."""
    if in_place:
        autograd_check_(c, a, b)
        _check_addbmm(c, a, b)
        _check_inplace_size(c, (a.shape[1], b.shape[2]))
        return apply_(addbmm_op, c, a, b, beta=beta, alpha=alpha)
    return apply(addbmm_op, c, a, b, beta=beta, alpha=alpha)


# -- products composed of others, as torch composes them -------------------------------------

def outer(a, b):
    """``a ⊗ b`` of 1-d tensors: ``a`` as a column times ``b`` (MulBackward0, promoting)."""
    for name, x in (("self", a), ("vec2", b)):
        if x._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {x.dim()}-D")
    return a.reshape(a.shape[0], 1) * b


def inner(a, b):
    """Sum of products over the last dims (a product when either is 0-d)."""
    if a._data.ndim == 0 or b._data.ndim == 0:
        return a * b
    if a._data.shape[-1] != b._data.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got "
                           f"shapes {_dims(a.shape)} and {_dims(b.shape)}")
    return _tensordot(a, b, [-1], [-1])


def tensordot(a, b, dims=2):
    """``torch.tensordot``: ``dims`` an int (the last ``dims`` of ``a`` with the first of
    ``b``), two lists of dims, or a tensor of either."""
    if isinstance(dims, TensorBase):
        if dims.numel() > 1:
            if dims.shape[0] != 2:
                raise AssertionError(f"dims tensor must have size 2 in first dimension, got "
                                     f"{dims.shape[0]}")
            return _tensordot(a, b, dims[0].tolist(), dims[1].tolist())
        count = int(dims.item())
        if count < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        return _tensordot(a, b, list(range(-count, 0)), list(range(count)))
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
        return _tensordot(a, b, list(dims_a), list(dims_b))
    if not isinstance(dims, int):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    if dims < 0:
        raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
    if dims > min(a.dim(), b.dim()):
        raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
    return _tensordot(a, b, list(range(-dims, 0)), list(range(dims)))


def _tensordot(a, b, dims_a, dims_b):
    """torch's tensordot kernel: the contracted dims moved last in ``a`` and first in ``b``,
    both flattened to matrices, one mm, reshaped (a broadcast dim of size 1 is summed first)."""
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    na, nb = a._data.ndim, b._data.ndim
    t1, t2, csize = a, b, 1
    for d1, d2 in zip(dims_a, dims_b):
        s1, s2 = a.shape[S.wrap_dim(d1, na)], b.shape[S.wrap_dim(d2, nb)]
        if s2 == 1:
            t1 = t1.sum(d1, True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = t2.sum(d2, True, dtype=t2.dtype)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in "
                               f"dim {d1} and second has size {s2} in dim {d2}")
        else:
            csize *= s1
    cdims_a = _dim_set(dims_a, na)
    cdims_b = _dim_set(dims_b, nb)
    keep_a = [i for i in range(na) if i not in cdims_a]
    keep_b = [i for i in range(nb) if i not in cdims_b]
    sizes = [t1.shape[i] for i in keep_a] + [t2.shape[i] for i in keep_b]
    t1 = t1.permute(keep_a + list(dims_a)).reshape(math.prod(sizes[:len(keep_a)]), csize)
    t2 = t2.permute(list(dims_b) + keep_b).reshape(csize, math.prod(sizes[len(keep_a):]))
    return mm(t1, t2).reshape(sizes)


def _dim_set(dims, ndim):
    """``dims`` wrapped, as a set; torch's error for a dim given twice."""
    out = set()
    for d in dims:
        w = S.wrap_dim(d, ndim)
        if w in out:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        out.add(w)
    return out


def kron(a, b):
    """The Kronecker product: ``a`` and ``b`` viewed with interleaved size-1 dims, multiplied
    (broadcasting), and the product read with each pair of dims as one (UnsafeViewBackward0)."""
    n = max(a._data.ndim, b._data.ndim)
    sa = (1,) * (n - a._data.ndim) + tuple(a._data.shape)
    sb = (1,) * (n - b._data.ndim) + tuple(b._data.shape)
    product = a.view([s for x in sa for s in (x, 1)]) * b.view([s for x in sb for s in (1, x)])
    size = tuple(x * y for x, y in zip(sa, sb))
    if not product.is_contiguous():
        return product.view(size)  # (torch reads it with _unsafe_view: only the node differs)
    return apply(unsafe_view, product, size=size)


def multi_dot(tensors):
    """``torch.linalg.multi_dot``: the chain of products in the cheapest order (1-d ends as a
    row and a column vector)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    out_shape = []
    if first.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got "
                           f"{first.dim()}D")
    if first.dim() == 2:
        out_shape.append(first.shape[0])
    if last.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.dim()}D")
    if last.dim() == 2:
        out_shape.append(last.shape[1])
    mats = [first.unsqueeze(0) if first.dim() == 1 else first, *tensors[1:-1],
            last.unsqueeze(-1) if last.dim() == 1 else last]
    for i in range(1, n - 1):
        if mats[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {mats[i].dim()}D")
    for i in range(1, n):
        if mats[i].dtype != mats[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor "
                               f"0 is {mats[0].dtype.c_name} and tensor {i} "
                               f"{mats[i].dtype.c_name}")
        if mats[i - 1].shape[-1] != mats[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes "
                               f"{_dims(tensors[i - 1].shape)} and {_dims(tensors[i].shape)} "
                               "cannot be multiplied")
    if n == 3:
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if a * c * (b + d) > b * d * (a + c):
            return mm(mats[0], mm(mats[1], mats[2])).view(out_shape)
        return mm(mm(mats[0], mats[1]), mats[2]).view(out_shape)
    return _chain(mats, _chain_order(mats), 0, n - 1).view(out_shape)


def _chain_order(mats):
    """The split points of the cheapest order of a chain of products (Cormen et al., 15.2)."""
    n = len(mats)
    p = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for span in range(1, n):
        for i in range(n - span):
            j = i + span
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(mats, split, i, j):
    if i == j:
        return mats[i]
    k = split[i][j]
    return mm(_chain(mats, split, i, k), _chain(mats, split, k + 1, j))


_CHAIN_MATMUL_WARNING = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "LinearAlgebra.cpp:1102.)")


def chain_matmul(matrices):
    """The deprecated ``torch.chain_matmul``: 2-d matrices only; one is cloned."""
    warn_once(_CHAIN_MATMUL_WARNING, stacklevel=4)
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(matrices)


# -- einsum ------------------------------------------------------------------------------------
# Note [einsum as torch computes it]: torch parses the equation into labels per operand,
# aligns every operand to one dim order (the output's labels first, then the contracted ones;
# a repeated label of one operand becomes a diagonal, a missing one a size-1 dim), and folds
# the operands left to right: a dim is summed as soon as no later operand has it, and each
# pair is multiplied by ``_sumproduct_pair`` (permute, reshape, bmm, view, permute; a plain
# mul when nothing is summed).  The composition decides the result's grad_fn (ViewBackward0,
# MulBackward0, SumBackward1 or PermuteBackward0), so doctensor folds in the same order.

_ELLIPSIS = "..."


def _labels_of(term, index, k):
    """The labels of operand ``k``'s subscripts (``...`` as one entry), with torch's errors;
    ``index``: where the term starts in the equation."""
    labels, i, ellipsis = [], 0, False
    while i < len(term):
        ch = term[i]
        if ch == " ":
            pass
        elif ch == ".":
            if ellipsis:
                raise RuntimeError(f"einsum(): found '.' for operand {k} for which an "
                                   "ellipsis was already found")
            if term[i:i + 3] != _ELLIPSIS:
                raise RuntimeError(f"einsum(): found '.' for operand {k} that is not "
                                   "part of any ellipsis")
            labels.append(_ELLIPSIS)
            ellipsis = True
            i += 2
        elif ch.isascii() and ch.isalpha():
            labels.append(ch)
        else:
            raise RuntimeError(f"einsum(): invalid subscript given at index {index + i} in the "
                               "equation string, subscripts must be in [a-zA-Z]")
        i += 1
    return labels


def _parse_inputs(lhs, count):
    """Per operand, its labels."""
    out, start = [], 0
    for k, term in enumerate(lhs.split(",")):
        if k >= count:
            raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                               "equation")
        out.append(_labels_of(term, start, k))
        start += len(term) + 1
    if len(out) < count:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    return out


def _label_key(label):
    """torch orders labels A-Z before a-z (its subscripts 0..51)."""
    return (label.islower(), label)


def einsum(*args):
    """``torch.einsum(equation, *operands)``, operands also as one list, or the sublist form
    ``einsum(op1, sublist1, op2, sublist2, ..., [output sublist])`` (labels 0-51 and
    ``Ellipsis``)."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], TensorBase):
        equation = ",".join("".join(map(_sublist_label, s)) for s in args[1::2])
        if len(args) % 2:
            equation += "->" + "".join(map(_sublist_label, args[-1]))
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return _einsum(equation, list(operands))


def _sublist_label(n):
    if n is Ellipsis:
        return _ELLIPSIS
    if not 0 <= n < 52:
        raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                         "[0, 52)")
    return chr(ord("A") + n) if n < 26 else chr(ord("a") + n - 26)


def _einsum(equation, operands):
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    lhs, arrow, rhs = equation.partition("->")
    op_labels = _parse_inputs(lhs, len(operands))
    counts = {}
    ell_dims = 0
    for i, (t, labels) in enumerate(zip(operands, op_labels)):
        named = [x for x in labels if x != _ELLIPSIS]
        for x in named:
            counts[x] = counts.get(x, 0) + 1
        has_ell = len(named) != len(labels)
        if has_ell:
            ell_dims = max(ell_dims, t.dim() - len(named))
        if (len(named) > t.dim()) if has_ell else (len(named) != t.dim()):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(named)}) "
                + ("is more than the number of dimensions (" if has_ell
                   else "does not match the number of dimensions (")
                + f"{t.dim()}) for operand {i}" + ("" if has_ell else " and no ellipsis was given"))
    position, ell_index, ell_out, perm_index = {}, 0, False, 0
    if not arrow:  # the implicit output: the ellipsis, then the labels seen once, sorted
        perm_index, ell_out = ell_dims, True
        for x in sorted((x for x, c in counts.items() if c == 1), key=_label_key):
            position[x] = perm_index
            perm_index += 1
    else:
        perm_index, ell_index, ell_out = _parse_output(rhs, len(lhs) + 2, counts, position,
                                                       ell_dims)
    out_dims = perm_index
    if not ell_out:
        ell_index, perm_index = perm_index, perm_index + ell_dims
    for x in sorted(counts, key=_label_key):
        if x not in position:
            position[x] = perm_index
            perm_index += 1
    ops, dim_counts = _align(operands, op_labels, position, ell_index, ell_dims, perm_index)
    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_dims, perm_index):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, True)
        if b_sum:
            b = b.sum(b_sum, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if perm_index > out_dims:
        if len(operands) > 1:
            return result.view(result.shape[:out_dims])
        return result.sum(list(range(out_dims, perm_index)))
    return result


def _parse_output(rhs, offset, counts, position, ell_dims):
    """The explicit output's labels placed first; (dims so far, ellipsis index, whether the
    output has the ellipsis)."""
    perm_index, ell_index, ell_out, i = 0, 0, False, 0
    while i < len(rhs):
        ch = rhs[i]
        if ch == ".":
            if ell_out:
                raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                   "already found")
            if rhs[i:i + 3] != _ELLIPSIS:
                raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                   "ellipsis (...)")
            ell_index, ell_out = perm_index, True
            perm_index += ell_dims
            i += 2
        elif ch != " ":
            if not (ch.isascii() and ch.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {offset + i} in "
                                   "the equation string, subscripts must be in [a-zA-Z]")
            if not counts.get(ch) or ch in position:
                raise RuntimeError(f"einsum(): output subscript {ch}" + (
                    " appears more than once in the output" if ch in position else
                    " does not appear in the equation for any input operand"))
            position[ch] = perm_index
            perm_index += 1
        i += 1
    return perm_index, ell_index, ell_out


def _align(operands, op_labels, position, ell_index, ell_dims, perm_index):
    """Every operand with its dims in the common order (diagonals for repeated labels, size-1
    dims for missing ones); per common dim, how many operands have it with a size other than
    1."""
    sizes, ell_sizes = {}, [1] * ell_dims
    dim_counts = [0] * perm_index
    ops = []
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        perm = [-1] * perm_index
        dim = 0
        for x in labels:
            if x == _ELLIPSIS:
                covered = op.dim() - (len(labels) - 1)
                for j in range(ell_dims - covered, ell_dims):
                    if op.shape[dim] != 1:
                        if ell_sizes[j] not in (1, op.shape[dim]):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {i}"
                                f"has size {op.shape[dim]} which does not broadcast with "
                                f"previously seen ellipsis with size {ell_sizes[j]} for the "
                                "respective dimension")
                        ell_sizes[j] = op.shape[dim]
                        dim_counts[ell_index + j] += 1
                    perm[ell_index + j] = dim
                    dim += 1
            elif perm[position[x]] == -1:
                if op.shape[dim] != 1:
                    if sizes.get(x, 1) not in (1, op.shape[dim]):
                        raise RuntimeError(
                            f"einsum(): subscript {x} has size {op.shape[dim]} for operand {i} "
                            f"which does not broadcast with previously seen size {sizes[x]}")
                    sizes[x] = op.shape[dim]
                    dim_counts[position[x]] += 1
                perm[position[x]] = dim
                dim += 1
            else:  # a repeated label: its diagonal
                prev = perm[position[x]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(f"einsum(): subscript {x} is repeated for operand {i} but "
                                       f"the sizes don't match, {op.shape[dim]} != "
                                       f"{op.shape[prev]}")
                op = op.diagonal(0, prev, dim).movedim(-1, prev)
        for k in range(perm_index):
            if perm[k] == -1:
                op = op.unsqueeze(dim)
                perm[k] = dim
                dim += 1
        ops.append(op.permute(perm))
    return ops, dim_counts


def _sumproduct_pair(left, right, sum_dims):
    """``(left * right).sum(sum_dims, keepdim=True)`` by one bmm, as torch's einsum does."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:  # swapped, the bmm writes the result in its dims' order
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = [left.shape[d] for d in lro + lo] + [1] * len(sum_dims) + \
        [right.shape[d] for d in ro]
    order = lro + lo + sum_dims + ro
    back = [0] * len(order)
    for k, d in enumerate(order):
        back[d] = k
    left = left.permute(order).reshape(lro_size, lo_size, sum_size)
    right = right.permute(lro + sum_dims + ro + lo).reshape(lro_size, sum_size, ro_size)
    return apply(bmm_op, left, right).view(out_size).permute(back)


# -- norms -------------------------------------------------------------------------------------
# torch.linalg's norms are compositions over linalg_vector_norm (the record in reduction.py,
# shared with torch.norm): the matrix 1- and inf-norms are a vector 1-norm then amax/amin,
# 'fro' a vector 2-norm, the 2-norms and 'nuc' reductions of the singular values.

def _check_norm_dtype(dtype, src, fn):
    """torch's check of a norm's ``dtype=`` (floating, no narrowing of the input's)."""
    if dtype is None:
        return
    if not dtype.is_floating_point:
        raise RuntimeError(f"{fn}: dtype should be floating point or complex, but got "
                           f"{dtype.scalar_name}")
    if promote_types(src, dtype) is not dtype:
        raise RuntimeError(f"{fn}: the dtype of the input ({src.scalar_name}) should be "
                           f"convertible without narrowing to the specified dtype "
                           f"({dtype.scalar_name})")


def _check_floating(t, fn):
    if not t.dtype.is_floating_point:
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got "
                           f"{t.dtype.scalar_name}")


def linalg_vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    """``torch.linalg.vector_norm``: the ``ord``-norm of the elements over ``dim`` (all
    dims for None or ``()``), computed in ``dtype``."""
    if isinstance(ord, str) or not isinstance(ord, (int, float)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
                        f"{type(ord).__name__}")
    _check_floating(x, "linalg.vector_norm")
    _check_norm_dtype(dtype, x.dtype, "linalg.vector_norm")
    if isinstance(dim, (tuple, list)) and not dim:
        dim = None
    return norm(x, ord, dim, keepdim, dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, dtype=None, svdvals=None):
    """``torch.linalg.matrix_norm`` over the two dims ``dim``; ``svdvals``: the singular
    values function for the 2-norms and 'nuc'."""
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif abs(ord) not in (1, 2, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord:g} not supported.")
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    _check_floating(A, "linalg.matrix_norm")
    dim = [dim] if isinstance(dim, int) else list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(map(str, dim))}")
    dim = [S.wrap_dim(d, A.dim()) for d in dim]
    if dim[0] == dim[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, "
                           f"{dim[1]})")
    _check_norm_dtype(dtype, A.dtype, "linalg.matrix_norm")
    if ord == "fro":
        return norm(A, 2, dim, keepdim, dtype)
    if ord == "nuc" or abs(ord) == 2:
        return _singular_norm(A, ord, dim, keepdim, dtype, svdvals)
    if abs(ord) == math.inf:  # the inf-norm: the 1-norm of the transpose
        dim.reverse()
    if not keepdim and dim[0] < dim[1]:
        dim[1] -= 1
    sums = norm(A, 1, dim[0], keepdim, dtype)
    return sums.amax(dim[1], keepdim) if ord > 0 else sums.amin(dim[1], keepdim)


def _singular_norm(A, ord, dim, keepdim, dtype, svdvals):
    """The 2-norms (largest or smallest singular value) and the nuclear norm (their sum):
    the two dims moved last, reduced, and with ``keepdim`` put back."""
    if svdvals is None:
        raise NotImplementedError("doctensor: this matrix norm needs linalg.svdvals")
    A = A if dtype is None else A.to(dtype)
    order = [d for d in range(A.dim()) if d not in dim] + dim
    values = svdvals(A.permute(order))
    if ord == "nuc":
        out = values.sum(-1, keepdim)
    else:
        out = values.amax(-1, keepdim) if ord > 0 else values.amin(-1, keepdim)
    if keepdim:
        back = [0] * len(order)
        for k, d in enumerate(order):
            back[d] = k
        out = out.unsqueeze(-1).permute(back)
    return out


def linalg_norm(A, ord=None, dim=None, keepdim=False, dtype=None, svdvals=None):
    """``torch.linalg.norm``: a matrix norm for a string ``ord``, two dims, or a 2-d input
    with ``ord``; else a vector norm (the 2-norm without ``ord``)."""
    if dim is not None:
        dim = [dim] if isinstance(dim, int) else list(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {_dims(dim)}")
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.dim()}D.")
    if ord is not None and (isinstance(ord, str) or (dim is not None and len(dim) == 2) or (
            dim is None and A.dim() == 2)):
        return matrix_norm(A, ord, dim or (0, 1), keepdim, dtype, svdvals)
    return linalg_vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype)


# at::norm, the kernel of the deprecated torch.frobenius_norm: the vector norm under a node of
# its own (torch.norm itself computes linalg_vector_norm)
frobenius_op = declare("norm", "NormBackward1", saves={"self": "self", "result": "self"})(
    vector_norm.forward)
frobenius_op.def_backward(vector_norm_backward)

_FROBENIUS_WARNING = (
    "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be "
    "removed in a future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` "
    "instead (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "LinearAlgebra.cpp:3175.)")
_NUCLEAR_WARNING = (
    "at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be "
    "removed in a future PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, "
    "keepdim)` instead (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "LinearAlgebra.cpp:3229.)")


def frobenius_norm(x, dim, keepdim=False):
    """The deprecated ``torch.frobenius_norm``: the 2-norm over at most two dims."""
    warn_once(_FROBENIUS_WARNING, stacklevel=4)
    dim = [dim] if isinstance(dim, int) else list(dim)
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           "instead.")
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {x.dtype.scalar_name} instead.")
    dims = normalize_dims(dim, x.dim()) if dim and x.dim() else None
    return apply(frobenius_op, x, ord=2.0, dims=dims, keepdim=keepdim)


def nuclear_norm(x, dim=None, keepdim=False, svdvals=None):
    """The deprecated ``torch.nuclear_norm``: ``linalg.matrix_norm(x, 'nuc', dim)``."""
    warn_once(_NUCLEAR_WARNING, stacklevel=4)
    return matrix_norm(x, "nuc", (-2, -1) if dim is None else dim, keepdim, None, svdvals)


def _norm_grad(grad, x, p, result, dims=None):
    """torch's norm_backward: the gradient of ``x.norm(p, dims, keepdim=True)`` (the vector
    norm's formula; None for p = 0)."""
    ctx = SimpleNamespace(self=x, result=result, ord=p, dims=dims, keepdim=True)
    return vector_norm_backward(ctx, grad)[0]


# -- distances ---------------------------------------------------------------------------------

@declare("dist", "DistBackward0", ("self", "other"),
         saves={"self": ("self", "other"), "other": ("self", "other"),
                "result": ("self", "other")},
         promote="common", method="dist", function="dist")
def dist_op(xp, a, b, p=2):
    return vector_norm.forward(xp, a - b, float(p), None, False)


@dist_op.def_backward
def dist_backward(ctx, grad):
    n = ctx.needs_input_grad
    g = _norm_grad(grad, ctx.self - ctx.other, float(ctx.p), ctx.result)
    if g is None and n[1]:  # p = 0: torch's norm_backward gives no tensor to negate
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in "
                           "C++) for argument #0 'self'")
    return (g if n[0] else None, -g if n[1] else None)


def dist(a, b, p=2):
    """``torch.dist``: the ``p``-norm of ``a - b`` (broadcast)."""
    S.broadcast_shapes(a._data.shape, b._data.shape)
    common = promote_types(a.dtype, b.dtype)
    if not common.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {common.scalar_name} instead.")
    return apply(dist_op, a, b, p=p)


def _check_cdist(x1, x2, p, mode=0):
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{t.dtype.scalar_name}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1._data.dtype != x2._data.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype.scalar_name} but found "
                           f"{x2.dtype.scalar_name}")


def _pairs(xp, a, b):
    """Per batch, the differences of every row of ``a`` with every row of ``b``."""
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = xp.broadcast_to(a, batch + a.shape[-2:])
    b = xp.broadcast_to(b, batch + b.shape[-2:])
    return a[..., :, None, :] - b[..., None, :, :]


@declare("_cdist_forward", "CdistBackward0", ("x1", "x2"),
         saves={"x1": ("x1", "x2"), "x2": ("x1", "x2"), "result": ("x1", "x2")},
         check=_check_cdist, unsaved=("mode",))
def cdist_op(xp, a, b, p, mode=0):
    diff = _pairs(xp, a, b)
    if diff.size == 0:
        return xp.zeros(diff.shape[:-1], a.dtype)
    return vector_norm.forward(xp, diff, float(p), (diff.ndim - 1,), False)


@cdist_op.def_backward
def cdist_backward(ctx, grad):
    # torch's _cdist_backward, per pair of rows: the p-norm's gradient of their difference
    n, p = ctx.needs_input_grad, float(ctx.p)
    diff = ctx.x1.unsqueeze(-2) - ctx.x2.unsqueeze(-3)
    d = ctx.result.unsqueeze(-1)
    g = grad.unsqueeze(-1)
    if p == 0:
        pair = zeros_like(diff)
    elif p == 1:
        pair = diff.sign() * g
    elif p == math.inf:
        pair = diff.sign() * (diff.abs() == d) * g
    elif p < 2:
        keep = (d != 0) if p >= 1 else (d != 0) & (diff != 0)
        pair = where_tensor(keep, diff.sign() * diff.abs() ** (p - 1) * g / d ** (p - 1), 0)
    elif p == 2:
        pair = where_tensor(d != 0, g * diff / d, 0)
    else:
        pair = where_tensor(d != 0, diff * diff.abs() ** (p - 2) * g / d ** (p - 1), 0)
    return (pair.sum(-2) if n[0] else None, (-pair).sum(-3) if n[1] else None)


@declare("_euclidean_dist", "EuclideanDistBackward0", ("x1", "x2"),
         saves={"x1": ("x1", "x2"), "x2": ("x1", "x2"), "result": ("x1", "x2")})
def euclidean_dist_op(xp, a, b):
    # torch's matrix-multiplication form: |a|^2 - 2 a.b + |b|^2 from one matmul of padded rows
    a2 = (a * a).sum(-1, keepdims=True)
    b2 = (b * b).sum(-1, keepdims=True)
    left = xp.concatenate([a * a.dtype.type(-2), a2, xp.ones_like(a2)], -1)
    right = xp.concatenate([b, xp.ones_like(b2), b2], -1)
    out = xp.matmul(left, xp.swapaxes(right, -1, -2))
    return xp.sqrt(xp.maximum(out, a.dtype.type(1e-30)))


@euclidean_dist_op.def_backward
def euclidean_dist_backward(ctx, grad):
    n, x1, x2, res = ctx.needs_input_grad, ctx.x1, ctx.x2, ctx.result
    ratio = (grad / res).masked_fill(res == 0, 0)
    return (x1 * ratio.sum(-1, True) - ratio.matmul(x2) if n[0] else None,
            x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1) if n[1] else None)


_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """``torch.cdist``: the ``p``-norm distance of every row of ``x1`` to every row of ``x2``
    (batches broadcast); for p = 2 with many rows (or as ``compute_mode`` says) by one matrix
    product (EuclideanDistBackward0 under a view), else row by row (CdistBackward0)."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _CDIST_MODES[compute_mode]
    for name, t in (("X1", x1), ("X2", x2)):
        if t.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{t.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    r1, r2 = x1.shape[-2], x2.shape[-2]
    if x1.numel() and x2.numel() and p == 2 and (mode == 1 or mode == 0 and (r1 > 25 or
                                                                           r2 > 25)):
        _check_cdist(x1, x2, p)
        batch = broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
        if math.prod(batch) != 1:
            x1 = x1.expand(*batch, *x1.shape[-2:])
            x2 = x2.expand(*batch, *x2.shape[-2:])
        return apply(euclidean_dist_op, x1, x2).view(*batch, r1, r2)
    return apply(cdist_op, x1, x2, p=p, mode=mode)


# -- renorm --------------------------------------------------------------------------------------

def _check_renorm(t, p, dim, maxnorm):
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if t._data.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {t.dim()} "
                           "dimensions")
    S.wrap_dim(dim, t._data.ndim)
    _check_floating(t, "linalg.vector_norm")


@declare("renorm", "RenormBackward0", saves={"self": "self"}, check=_check_renorm,
         method="renorm", function="renorm", inplace="renorm_")
def renorm_op(xp, a, p, dim, maxnorm):
    # each slice along dim whose p-norm exceeds maxnorm is scaled to maxnorm (+1e-7 in the
    # norm); the norm and the factor in float32 for float16 (torch's accumulate type)
    dim = dim % a.ndim
    acc = a.astype(xp.float32) if a.dtype == xp.float16 else a
    dims = tuple(d for d in range(a.ndim) if d != dim)
    n = vector_norm.forward(xp, acc, float(p), dims, True)
    scale = acc.dtype.type(maxnorm)
    factor = xp.where(n > scale, scale / (n + acc.dtype.type(1e-7)), acc.dtype.type(1))
    return (a * factor).astype(a.dtype, copy=False)


@renorm_op.def_backward
def renorm_backward(ctx, grad):
    x, p, maxnorm = ctx.self, float(ctx.p), ctx.maxnorm
    dims = [d for d in range(x.dim()) if d != ctx.dim % x.dim()]
    n = norm(x, p, dims, True)
    nb = _norm_grad((x * grad).sum(dims, True), x, p, n, tuple(dims))
    inverse = (n + 1e-7).reciprocal()
    return (where_tensor(n > maxnorm, inverse * maxnorm * (grad - inverse * nb), grad),)


def renorm(t, p, dim, maxnorm, in_place=False):
    """Each slice along ``dim`` with a ``p``-norm above ``maxnorm`` scaled down to it."""
    return (apply_ if in_place else apply)(renorm_op, t, p=p, dim=dim, maxnorm=maxnorm)


# -- vecdot, vander ------------------------------------------------------------------------------

def vecdot(x, y, dim=-1):
    """``torch.linalg.vecdot``: ``(x * y).sum(dim)`` (broadcast; the conjugate of ``x`` for
    complex tensors)."""
    _check_floating(x, "linalg.vecdot")
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {x.dtype.scalar_name} and y of type "
                           f"{y.dtype.scalar_name} instead")
    if x.dim() == 1 == y.dim():
        return apply(vdot_op, x, y)
    return (x.conj() * y).sum(dim)


def vander(x, N=None, increasing=False):
    """``torch.vander``: columns of powers of ``x`` (decreasing unless ``increasing``),
    written as torch writes them: a column of ones, ``x``, then its cumulative product."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    result = x.new_zeros((x.shape[0], n), dtype=promote_types(x.dtype, int64))
    if n > 0:
        result.select(1, 0).fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(cumprod(result[:, 1:], 1))
    return result if increasing else result.flip(1)


def linalg_vander(x, N=None):
    """``torch.linalg.vander``: increasing powers ``x ** 0`` to ``x ** (N - 1)`` along a new last
    dim (a column of ones and a cumulative product)."""
    if x.dtype.category < 1 or x.dtype.itemsize < 4 and x.dtype.is_floating_point:
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer "
                           f"tensors, but got {x.dtype.scalar_name}")
    x = x.unsqueeze(-1) if x.dim() == 0 else x
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = cumprod(x.unsqueeze(-1).expand(*x.shape, n - 1), -1)
    return cat([powers.new_ones((*x.shape, 1)), powers], -1)
