"""Matrix products: mm, mv, dot, bmm, addmm, and matmul composed from them as torch does."""

from .._dtypes import _BY_NP
from .._strides import broadcast_shapes
from ._dispatch import apply, apply_, needs_grad
from ._registry import declare
from .views import squeeze_inplace_dim, unsafe_view

__all__ = ["mm", "mm_op", "mv_op", "dot_op", "bmm_op", "addmm", "addmm_op", "matmul"]


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
    return xp.matmul(a, b)


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
    return xp.matmul(a, v)


@mv_op.def_backward
def mv_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad.unsqueeze(1) * ctx.vec.unsqueeze(0) if n[0] else None,
            ctx.self.t().mv(grad) if n[1] else None)


def _check_dot(a, b):
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.dim()}D and {b.dim()}D tensors")
    if a._data.shape[0] != b._data.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements, but got "
                           f"{a.shape[0]} and {b.shape[0]} elements respectively")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_BY_NP[a._data.dtype].scalar_name} and "
                           f"{_BY_NP[b._data.dtype].scalar_name}")


@declare("dot", "DotBackward0", ("self", "tensor"), saves={"self": "tensor", "tensor": "self"},
         check=_check_dot, method="dot", function="dot")
def dot_op(xp, a, b):
    return xp.dot(a, b)


@dot_op.def_backward
def dot_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad * ctx.tensor if n[0] else None, grad * ctx.self if n[1] else None)


def _check_bmm(a, b):
    if a._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b._data.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a._data.shape[0] != b._data.shape[0] or a._data.shape[2] != b._data.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected scalar type {_BY_NP[a._data.dtype].scalar_name} but found "
                           f"{_BY_NP[b._data.dtype].scalar_name}")


@declare("bmm", "BmmBackward0", ("self", "mat2"), saves={"self": "mat2", "mat2": "self"},
         check=_check_bmm, method="bmm", function="bmm")
def bmm_op(xp, a, b):
    return xp.matmul(a, b)


@bmm_op.def_backward
def bmm_backward(ctx, grad):
    n = ctx.needs_input_grad
    return (grad.bmm(ctx.mat2.transpose(1, 2)) if n[0] else None,
            ctx.self.transpose(1, 2).bmm(grad) if n[1] else None)


def _check_addmm(c, a, b, **attrs):
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    if c._data.dtype != b._data.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_BY_NP[c._data.dtype].scalar_name} and "
                           f"{_BY_NP[b._data.dtype].scalar_name}")
    _same_dtype(a, b)


@declare("addmm", "AddmmBackward0", ("self", "mat1", "mat2"),
         saves={"mat1": "mat2", "mat2": "mat1"}, check=_check_addmm, function="addmm")
def addmm_op(xp, c, a, b, beta=1, alpha=1, **sym):
    out = xp.matmul(a, b)
    if alpha != 1:
        out *= alpha
    if beta == 0:
        return out
    out += c if beta == 1 else beta * c
    return out


@addmm_op.def_backward
def addmm_backward(ctx, grad):
    n, a = ctx.needs_input_grad, ctx.attrs
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    return ((grad if beta == 1 else grad * beta) if n[0] else None,
            _mm_mat1_backward(grad, ctx.mat2, a.get("mat1_sym_sizes"),
                              a.get("mat1_sym_strides"), alpha) if n[1] else None,
            _mm_mat2_backward(grad, ctx.mat1, a.get("mat2_sym_sizes"),
                              a.get("mat2_sym_strides"), alpha) if n[2] else None)


def addmm(c, a, b, beta=1, alpha=1):
    """``beta * c + alpha * (a @ b)``; with torch's saved sizes and strides under grad."""
    if needs_grad((c, a, b)):  # with what torch saves (_saved_mat1_sym_sizes)
        return apply(addmm_op, c, a, b, beta=beta, alpha=alpha, mat1_sym_sizes=a._data.shape,
                     mat1_sym_strides=a.stride(), mat2_sym_sizes=b._data.shape,
                     mat2_sym_strides=b.stride())
    return apply(addmm_op, c, a, b, beta=beta, alpha=alpha)


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
    """``x.mm(y)``, ``x`` or ``y`` transposed first."""
    return apply(mm_op, x.t() if x_t else x, y.t() if y_t else y)


def matmul(a, b):
    """torch.matmul's dispatch: dot, mv, mm, a folded mm, or a broadcast bmm."""
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
    if da >= 3 and db in (1, 2):
        lead = a.shape[:-1]
        folded = a.reshape(-1, a.shape[-1])
        if db == 1:
            return apply(unsafe_view, apply(mv_op, folded, b), size=tuple(lead))
        return apply(unsafe_view, mm(folded, b), size=tuple(lead) + (b.shape[-1],))
    return _batched_matmul(a, b)


def _batched_matmul(a, b):
    a2 = a.unsqueeze(0) if a.dim() == 1 else a
    b2 = b.unsqueeze(-1) if b.dim() == 1 else b
    n, m1 = a2.shape[-2], a2.shape[-1]
    m2, p = b2.shape[-2], b2.shape[-1]
    batch = broadcast_shapes(tuple(a2.shape[:-2]), tuple(b2.shape[:-2]))
    size = 1
    for s in batch:
        size *= s
    a3 = a2.expand(*batch, n, m1).reshape(size, n, m1)
    b3 = b2.expand(*batch, m2, p).reshape(size, m2, p)
    out_shape = list(batch)
    if a.dim() > 1:
        out_shape.append(n)
    if b.dim() > 1:
        out_shape.append(p)
    return apply(unsafe_view, apply(bmm_op, a3, b3), size=tuple(out_shape))
