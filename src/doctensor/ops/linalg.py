"""Matrix products: mm, mv, dot, bmm, addmm, and matmul composed from them as torch does."""

import numpy as np

from .._dtypes import _BY_NP
from ._registry import declare, needs_grad, record, wrap_result
from .pointwise import check_same_device

__all__ = ["mm", "mv", "dot", "bmm", "addmm", "matmul"]

def _same_dtype(a, b, what="m1 and m2"):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected {what} to have the same dtype, but got: "
                           f"{_BY_NP[a._data.dtype].c_name} != {_BY_NP[b._data.dtype].c_name}")


def _binary(op, a, b, attrs=None):
    check_same_device((a, b))
    out = op.forward(a._backend.xp, a._data, b._data)
    if isinstance(out, np.generic):  # NumPy returns scalars from 1-D dot products
        out = a._backend.xp.asarray(out)
    result = wrap_result(out, a)
    if needs_grad((a, b)):
        record(op, (a, b), (result,), attrs)
    return result


@declare("mm", "MmBackward0", ("self", "mat2"), saves={"self": (1,), "mat2": (0,)})
def _mm(xp, a, b):
    return xp.matmul(a, b)


@_mm.def_backward
def _(ctx, grad):
    n, a = ctx.needs_input_grad, ctx.attrs
    return (_mm_mat1_backward(grad, ctx.mat2, a.get("self_sym_sizes"), a.get("self_sym_strides"))
            if n[0] else None,
            _mm_mat2_backward(grad, ctx.self, a.get("mat2_sym_sizes"), a.get("mat2_sym_strides"))
            if n[1] else None)


def mm(a, b):
    if a._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    _same_dtype(a, b)
    attrs = None
    if needs_grad((a, b)):  # what torch saves (_saved_self_sym_sizes ...)
        attrs = {"self_sym_sizes": a._data.shape, "self_sym_strides": a.stride(),
                 "mat2_sym_sizes": b._data.shape, "mat2_sym_strides": b.stride()}
    return _binary(_mm, a, b, attrs)


@declare("mv", "MvBackward0", ("self", "vec"), saves={"self": (1,), "vec": (0,)})
def _mv(xp, a, v):
    return xp.matmul(a, v)


@_mv.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    return (grad.unsqueeze(1) * ctx.vec.unsqueeze(0) if n[0] else None,
            ctx.self.t().mv(grad) if n[1] else None)


def mv(a, v):
    if a._data.ndim != 2 or v._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.dim()}, {v.dim()}")
    if a._data.shape[1] != v._data.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x"
                           f"{a.shape[1]}), vec ({v.shape[0]})")
    if a._data.dtype != v._data.dtype:
        names = [_BY_NP[x._data.dtype].scalar_name for x in (v, a, v)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {names[0]}, "
                           f"{names[1]}, and {names[2]}")
    return _binary(_mv, a, v)


@declare("dot", "DotBackward0", ("self", "tensor"), saves={"self": (1,), "tensor": (0,)})
def _dot(xp, a, b):
    return xp.dot(a, b)


@_dot.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    return (grad * ctx.tensor if n[0] else None, grad * ctx.self if n[1] else None)


def dot(a, b):
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
    return _binary(_dot, a, b)


@declare("bmm", "BmmBackward0", ("self", "mat2"), saves={"self": (1,), "mat2": (0,)})
def _bmm(xp, a, b):
    return xp.matmul(a, b)


@_bmm.def_backward
def _(ctx, grad):
    n = ctx.needs_input_grad
    return (grad.bmm(ctx.mat2.transpose(1, 2)) if n[0] else None,
            ctx.self.transpose(1, 2).bmm(grad) if n[1] else None)


def bmm(a, b):
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
    return _binary(_bmm, a, b)


@declare("addmm", "AddmmBackward0", ("self", "mat1", "mat2"),
         saves={"mat1": (2,), "mat2": (1,)})
def _addmm(xp, c, a, b, beta=1, alpha=1):
    out = xp.matmul(a, b)
    if alpha != 1:
        out *= alpha
    if beta == 0:
        return out
    out += c if beta == 1 else beta * c
    return out


@_addmm.def_backward
def _(ctx, grad):
    n, a = ctx.needs_input_grad, ctx.attrs
    alpha, beta = a.get("alpha", 1), a.get("beta", 1)
    return ((grad if beta == 1 else grad * beta) if n[0] else None,
            _mm_mat1_backward(grad, ctx.mat2, a.get("mat1_sym_sizes"),
                              a.get("mat1_sym_strides"), alpha) if n[1] else None,
            _mm_mat2_backward(grad, ctx.mat1, a.get("mat2_sym_sizes"),
                              a.get("mat2_sym_strides"), alpha) if n[2] else None)


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
    """``x.mm(y)``, ``x`` or ``y`` transposed first.  Backward without create_graph records no
    history, so the operands' transposes stay arrays: the same product, without the view and
    op records."""
    if needs_grad((x, y)) or x._data.dtype != y._data.dtype:
        return (x.t() if x_t else x).mm(y.t() if y_t else y)
    check_same_device((x, y))
    a, b = x._data, y._data
    return wrap_result(x._backend.xp.matmul(a.T if x_t else a, b.T if y_t else b), x)


def addmm(c, a, b, beta=1, alpha=1):
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                           f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    if c._data.dtype != b._data.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_BY_NP[c._data.dtype].scalar_name} and "
                           f"{_BY_NP[b._data.dtype].scalar_name}")
    _same_dtype(a, b)
    check_same_device((c, a, b))
    out = _addmm.forward(a._backend.xp, c._data, a._data, b._data, beta, alpha)
    result = wrap_result(out, a)
    if needs_grad((c, a, b)):
        attrs = {"beta": beta, "alpha": alpha,  # with what torch saves (_saved_mat1_sym_sizes)
                 "mat1_sym_sizes": a._data.shape, "mat1_sym_strides": a.stride(),
                 "mat2_sym_sizes": b._data.shape, "mat2_sym_strides": b.stride()}
        record(_addmm, (c, a, b), (result,), attrs)
    return result


def matmul(a, b):
    """torch.matmul's dispatch: dot, mv, mm, a folded mm, or a broadcast bmm."""
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{da}D and {db}D")
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        from .views import make_view, squeeze_inplace_dim
        return make_view(mm(a.unsqueeze(0), b), squeeze_inplace_dim, {"dim": 0})
    if da == 2 and db == 2:
        return mm(a, b)
    if da >= 3 and db in (1, 2):
        from .views import make_view, unsafe_view
        lead = a.shape[:-1]
        folded = a.reshape(-1, a.shape[-1])
        if db == 1:
            return make_view(folded.mv(b), unsafe_view, {"size": tuple(lead)})
        out = folded.mm(b)
        return make_view(out, unsafe_view, {"size": tuple(lead) + (b.shape[-1],)})
    return _batched_matmul(a, b)


def _batched_matmul(a, b):
    from .._strides import broadcast_shapes
    from .views import make_view, unsafe_view
    a2 = a.unsqueeze(0) if a.dim() == 1 else a
    b2 = b.unsqueeze(-1) if b.dim() == 1 else b
    n, m1 = a2.shape[-2], a2.shape[-1]
    m2, p = b2.shape[-2], b2.shape[-1]
    batch = broadcast_shapes(tuple(a2.shape[:-2]), tuple(b2.shape[:-2]))
    size = _prod(batch)
    a3 = a2.expand(*batch, n, m1).reshape(size, n, m1)
    b3 = b2.expand(*batch, m2, p).reshape(size, m2, p)
    out_shape = list(batch)
    if a.dim() > 1:
        out_shape.append(n)
    if b.dim() > 1:
        out_shape.append(p)
    return make_view(a3.bmm(b3), unsafe_view, {"size": tuple(out_shape)})


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n
