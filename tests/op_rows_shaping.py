"""Op table rows (see op_table.py): shapes, joining and splitting beyond the first issues
(stacks, ``atleast_*d``, splits, flips and rotations, ``repeat_interleave``, ``take`` /
``put``, ``unfold``, block and product constructions) and the scatter families
(``scatter_reduce``, ``index_reduce``, ``index_put``, ``masked_scatter``, the
``*_scatter`` ops).

Functions that torch composes of other ops (``hstack`` is a ``cat``, ``ravel`` a ``view``)
have rows under the record they reach, so the table checks the composition gives torch's
grad_fn, strides and sharing.  Index tensors are made on the input's device (``_ix``).
"""

from _oracle import FLOATS
from op_table import ALL, UNARY, OpInfo

__all__ = ["ROWS"]

F_I = FLOATS + ("int64",)
MATS = [(3, 4), ((3, 4), "T"), ((3, 4), "step")]
G1 = [[0, 3, 3], [1, 1, 0], [2, 0, 3]]  # along dim 1 of (3, 4): repeats


def _ix(T, x, values, dtype="int64"):
    """An index tensor on ``x``'s device."""
    return T.tensor(values, dtype=getattr(T, dtype), device=x.device)


def _mask(T, x, values):
    return T.tensor(values, dtype=T.bool, device=x.device)


def _with(*rest, **kwargs):
    """The variants spec of an op called on its first input and ``rest`` / ``kwargs``."""
    return lambda T, x, *_: ((x, *rest), kwargs)


def _grad2(T, f, x):
    """The gradient of ``f(x) * f(x)`` (summed), taken with ``create_graph=True``: its grad_fn
    is the node of ``f``'s backward formula, whose own backward the table then runs."""
    y = f(x)
    return T.autograd.grad((y * y).sum(), x, create_graph=True)[0]


STACKS = [
    OpInfo("ViewBackward0", "atleast_1d", lambda T, x: T.atleast_1d(x), [(), (3,), (2, 3)]),
    OpInfo("UnsqueezeBackward0", "atleast_2d", lambda T, x: T.atleast_2d(x),
           [(4,), ((4,), "step")]),
    OpInfo("UnsqueezeBackward0", "atleast_3d", lambda T, x: T.atleast_3d(x),
           [(4,), (3, 4), ((3, 4), "T")]),
    OpInfo("ViewBackward0", "atleast_3d_many",
           lambda T, x, y: (T.atleast_3d(x, y), T.atleast_2d([y]), T.atleast_1d()),
           [((), (3,))], dtypes=FLOATS),
    OpInfo("ViewBackward0", "atleast_bad", lambda T, x: T.atleast_2d(3), [()],
           dtypes=("float32",)),
    OpInfo("CatBackward0", "hstack", lambda T, x, y: T.hstack([x, y]),
           [((3, 4), (3, 2)), ((4,), (2,)), (((3, 4), "T"), (3, 1)), ((), ())], dtypes=F_I),
    OpInfo("CatBackward0", "vstack", lambda T, x, y: (T.vstack((x, y)), T.row_stack([y, y])),
           [((3, 4), (4,)), ((2, 4), ((1, 4), "step")), ((), ())], dtypes=F_I),
    OpInfo("CatBackward0", "dstack", lambda T, x, y: T.dstack([x, y]),
           [((3, 4), (3, 4)), ((4,), (4,)), ((2, 3, 1), ((2, 3), "T"))]),
    OpInfo("CatBackward0", "column_stack", lambda T, x, y: T.column_stack([x, y]),
           [((3,), (3, 2)), ((3,), (3,)), ((), ())], dtypes=F_I),
    OpInfo("CatBackward0", "concatenate",
           lambda T, x, y: (T.concatenate([x, y], axis=1), T.concatenate((x, y), dim=0)),
           [((3, 4), (3, 4))]),
    OpInfo("CatBackward0", "stack_errors",
           lambda T, x, y: T.hstack([x, y]), [((3, 4), (4,)), ((3, 4), (2, 4))]),
    OpInfo("CatBackward0", "stack_empty_errors",
           lambda T, x: [T.vstack, T.hstack, T.dstack, T.column_stack][int(x.numel()) % 4]([]),
           [(1,), (2,), (3,), (4,)], dtypes=("float32",)),
    OpInfo("CatBackward0", "vstack_mismatch", lambda T, x, y: T.vstack([x, y]),
           [((3, 4), (3,))]),
]

RESHAPES = [
    OpInfo("ViewBackward0", "ravel", lambda T, x: (x.ravel(), T.ravel(x)), UNARY, dtypes=F_I),
    OpInfo("ExpandBackward0", "broadcast_to",
           lambda T, x: (x.broadcast_to((2, 3, 4)), T.broadcast_to(x, [3, 4])),
           [(4,), (3, 1), ((3, 4), "T"), ()], dtypes=F_I),
    OpInfo("ExpandBackward0", "broadcast_to_errors",
           lambda T, x: x.broadcast_to((3, 5)), [(4,), (2, 3, 4)], dtypes=F_I,
           devices=("cpu",)),  # (the message names torch.cuda.FloatTensor on CUDA)
    OpInfo("ViewBackward0", "unflatten",
           lambda T, x: (T.unflatten(x, 1, (2, 2)), T.unflatten(x, -1, (-1, 1))), [(3, 4)]),
    OpInfo("ViewBackward0", "unflatten_errors",
           lambda T, x: T.unflatten(x, 1, (3, 2)), [(3, 4)]),
]

SPLITS = [
    OpInfo("SliceBackward0", "tensor_split_sections",
           lambda T, x: (x.tensor_split(3, dim=1), T.tensor_split(x, 2)),
           [(3, 4), ((3, 4), "T"), ((3, 4), "step"), (5, 0)], dtypes=F_I),
    OpInfo("SliceBackward0", "tensor_split_indices",
           lambda T, x: (x.tensor_split([1, 3], dim=1), x.tensor_split((3, 1, -1, 9), 1),
                         x.tensor_split(_ix(T, x, [2]), 1), x.tensor_split(_ix(T, x, 2))),
           [(3, 4), ((3, 4), "T")]),
    OpInfo("SliceBackward0", "tensor_split_errors",
           lambda T, x: x.tensor_split(0), [(3, 4), ()]),
    OpInfo("SliceBackward0", "tensor_split_tensor_errors",
           lambda T, x: x.tensor_split(_ix(T, x, [[1]]), 1), [(3, 4)]),
    OpInfo("SliceBackward0", "tensor_split_float_errors",
           lambda T, x: x.tensor_split(_ix(T, x, [1.0], "float32"), 1), [(3, 4)],
           dtypes=("float32",)),
    OpInfo("SliceBackward0", "hsplit_vsplit_dsplit",
           lambda T, x: (x.hsplit(2), T.hsplit(x, [1]), x.vsplit(1), T.vsplit(x, [1, 1]),
                         x.dsplit([2]), T.dsplit(x, 2)),
           [(2, 2, 4), ((2, 2, 4), "T")]),
    OpInfo("SliceBackward0", "hsplit_vector", lambda T, x: x.hsplit(2), [(4,)]),
    OpInfo("SliceBackward0", "hvdsplit_errors",
           lambda T, x: x.hsplit(3), [(3, 4), (3,), ()]),
    OpInfo("SliceBackward0", "vsplit_errors", lambda T, x: x.vsplit(2), [(4,), (3, 4)]),
    OpInfo("SliceBackward0", "dsplit_errors", lambda T, x: x.dsplit(2), [(3, 4), (2, 2, 3)]),
    OpInfo("SplitWithSizesBackward0", "split_with_sizes",
           lambda T, x: (x.split_with_sizes([1, 3], dim=1), T.split_with_sizes(x, [3, 0])),
           [(3, 4), ((3, 4), "T")]),
    OpInfo("SplitWithSizesBackward0", "split_with_sizes_errors",
           lambda T, x: x.split_with_sizes([5, -1], 1), [(3, 4)]),
]

FLIPS = [
    OpInfo("FlipBackward0", "fliplr_flipud",
           lambda T, x: (x.fliplr(), T.flipud(x)), MATS + [(2, 3, 4)], dtypes=F_I),
    OpInfo("FlipBackward0", "flipud_vector", lambda T, x: T.flipud(x), [(5,)]),
    OpInfo("FlipBackward0", "fliplr_errors", lambda T, x: x.fliplr(), [(5,)]),
    OpInfo("FlipBackward0", "flipud_errors", lambda T, x: x.flipud(), [()]),
    OpInfo("Rot90Backward0", "rot90",
           lambda T, x: (x.rot90(), T.rot90(x, 2), x.rot90(-1), x.rot90(0), x.rot90(5, [1, 0])),
           MATS, dtypes=F_I, variants=_with(1, [0, 1])),
    OpInfo("Rot90Backward0", "rot90_3d", lambda T, x: (x.rot90(1, [2, 0]), x.rot90(3, (-1, 1))),
           [(2, 3, 4), ((2, 3, 4), "T")]),
    OpInfo("Rot90Backward0", "rot90_errors",
           lambda T, x: x.rot90(1, [0]), [(3, 4), (4,)]),
    OpInfo("Rot90Backward0", "rot90_errors_dims", lambda T, x: x.rot90(1, [0, -2]), [(3, 4)]),
    OpInfo("Rot90Backward0", "rot90_errors_same", lambda T, x: x.rot90(1, [1, -1]), [(3, 4)]),
    OpInfo("Rot90Backward0", "rot90_errors_out", lambda T, x: x.rot90(1, [0, 2]), [(3, 4)]),
    OpInfo("Rot90Backward0", "rot90_grad2", lambda T, x: _grad2(T, lambda t: t.rot90(), x),
           [(3, 4)], dtypes=FLOATS),
]

REPEATS = [
    OpInfo("ViewBackward0", "repeat_interleave_int",
           lambda T, x: (x.repeat_interleave(2), T.repeat_interleave(x, 3, 0)),
           UNARY[:5] + MATS[1:], dtypes=F_I),
    OpInfo("ViewBackward0", "repeat_interleave_int_dim",
           lambda T, x: (x.repeat_interleave(2, dim=1), x.repeat_interleave(0, -1),
                         x.repeat_interleave(2, dim=0, output_size=6)), MATS),
    OpInfo("ViewBackward0", "repeat_interleave_int_errors",
           lambda T, x: x.repeat_interleave(-1), [(3, 4)]),
    OpInfo("ViewBackward0", "repeat_interleave_output_size_errors",
           lambda T, x: x.repeat_interleave(2, dim=0, output_size=5), [(3, 4)]),
    OpInfo("ViewBackward0", "repeat_interleave_dim_errors",
           lambda T, x: x.repeat_interleave(2, dim=2), [(3, 4), ()]),
    OpInfo("IndexSelectBackward0", "repeat_interleave_tensor",
           lambda T, x: (x.repeat_interleave(_ix(T, x, [1, 0, 2]), dim=0),
                         T.repeat_interleave(x, _ix(T, x, [2], "int32"), dim=1),
                         x.repeat_interleave(_ix(T, x, 2)),
                         x.repeat_interleave(_ix(T, x, [3, 1, 0]), 0, output_size=4)),
           MATS, dtypes=F_I),
    OpInfo("IndexSelectBackward0", "repeat_interleave_tensor_errors",
           lambda T, x: x.repeat_interleave(_ix(T, x, [1, 1]), dim=0), [(3, 4)]),
    OpInfo("IndexSelectBackward0", "repeat_interleave_tensor_2d_errors",
           lambda T, x: x.repeat_interleave(_ix(T, x, [[1, 1, 1]]), dim=0), [(3, 4)]),
    OpInfo("repeat_interleave", "repeat_interleave_indices",
           lambda T, x: (T.repeat_interleave(_ix(T, x, [1, 0, 3])),
                         T.repeat_interleave(_ix(T, x, [2, 2], "int32")),
                         T.repeat_interleave(_ix(T, x, [], "int64"))),
           [(1,)], dtypes=("int64",), variants=lambda T, x: ((_ix(T, x, [1, 0, 3]),), {})),
    OpInfo("repeat_interleave", "repeat_interleave_indices_errors",
           lambda T, x: T.repeat_interleave(_ix(T, x, [1, -2])), [(1,)], dtypes=("int64",)),
    OpInfo("repeat_interleave", "repeat_interleave_indices_float_errors",
           lambda T, x: T.repeat_interleave(_ix(T, x, [1.0], "float32")), [(1,)],
           dtypes=("int64",)),
    OpInfo("repeat_interleave", "repeat_interleave_indices_2d_errors",
           lambda T, x: T.repeat_interleave(_ix(T, x, [[1]])), [(1,)], dtypes=("int64",)),
    OpInfo("repeat_interleave", "repeat_interleave_indices_size_errors",
           lambda T, x: T.repeat_interleave(_ix(T, x, [1, 2]), output_size=2), [(1,)],
           dtypes=("int64",)),
]

TAKE_PUT = [
    OpInfo("TakeBackward0", "take",
           lambda T, x: (x.take(_ix(T, x, [[0, 5], [11, -1]])), T.take(x, _ix(T, x, [3, 3]))),
           MATS, dtypes=F_I, variants=lambda T, x: ((x, _ix(T, x, [0, 5])), {})),
    OpInfo("TakeBackward0", "take_0d", lambda T, x: (x.take(_ix(T, x, 0)),
                                                     x.take(_ix(T, x, [], "int64"))), [()]),
    OpInfo("TakeBackward0", "take_errors", lambda T, x: x.take(_ix(T, x, [12])), [(3, 4)]),
    OpInfo("TakeBackward0", "take_neg_errors", lambda T, x: x.take(_ix(T, x, [-13])), [(3, 4)]),
    OpInfo("TakeBackward0", "take_dtype_errors",
           lambda T, x: x.take(_ix(T, x, [1], "int32")), [(3, 4)], dtypes=("float32",)),
    OpInfo("TakeBackward0", "take_empty_errors", lambda T, x: x.take(_ix(T, x, [0])), [(0,)],
           dtypes=("float32",)),
    OpInfo("PutBackward0", "take_grad2",
           lambda T, x: _grad2(T, lambda t: t.take(_ix(T, x, [0, 5, 5])), x), [(3, 4)],
           dtypes=FLOATS),
    OpInfo("PutBackward0", "put",
           lambda T, x, s: (x.put(_ix(T, x, [1, 7, -1]), s), T.put(x, _ix(T, x, [[2, 2, 0]]), s,
                                                                    accumulate=True)),
           [((3, 4), (3,)), (((3, 4), "T"), (3,)), (((3, 4), "step"), (3,))], dtypes=F_I,
           variants=lambda T, x, s: ((x, _ix(T, x, [1, 7, -1]), s), {})),
    OpInfo("PutBackward0", "put_",
           lambda T, x, s: (x.clone().put_(_ix(T, x, [1, 7, 2]), s),
                            x.clone().put_(_ix(T, x, [2, 2, 0]), s, accumulate=True)),
           [((3, 4), (3,)), (((3, 4), "T"), (1, 3))], dtypes=F_I),
    OpInfo("PutBackward0", "put_errors",
           lambda T, x, s: x.put(_ix(T, x, [12, 0, 0]), s), [((3, 4), (3,)), ((3, 4), (2,))]),
    OpInfo("PutBackward0", "put_dtype_errors",
           lambda T, x, s: x.put(_ix(T, x, [1], "int32"), s),
           [((3, 4), (1,))], dtypes=("float32",)),
    OpInfo("PutBackward0", "put_source_dtype_errors",
           lambda T, x, s: x.put(_ix(T, x, [1]), s.double()), [((3, 4), (1,))],
           dtypes=("float32",)),
    OpInfo("GatherBackward0", "take_along_dim",
           lambda T, x: (x.take_along_dim(_ix(T, x, [[0], [3], [2]]), dim=1),
                         T.take_along_dim(x, _ix(T, x, [[2, 1, 0, 1]]), 0),
                         x.take_along_dim(_ix(T, x, [[1, 0]]), dim=-1)),
           MATS, dtypes=F_I),
    OpInfo("GatherBackward0", "take_along_dim_flat",
           lambda T, x: T.take_along_dim(x, _ix(T, x, [[0, 5], [11, 0]])), [(3, 4), (12,)]),
    OpInfo("GatherBackward0", "take_along_dim_errors",
           lambda T, x: x.take_along_dim(_ix(T, x, [0]), dim=1), [(3, 4), ((3, 4), "T")]),
    OpInfo("GatherBackward0", "take_along_dim_dtype_errors",
           lambda T, x: x.take_along_dim(_ix(T, x, [[0]], "int32"), dim=1), [(3, 4)],
           dtypes=("float32",)),
    OpInfo("GatherBackward0", "take_along_dim_broadcast_errors",
           lambda T, x: x.take_along_dim(_ix(T, x, [[0], [1]]), dim=1), [(3, 4)]),
]

UNFOLDS = [
    OpInfo("UnfoldBackward0", "unfold",
           lambda T, x: (x.unfold(1, 2, 1), x.unfold(-1, 2, 2), x.unfold(0, 3, 5),
                         x.unfold(1, 0, 1)),
           MATS + [(3, 5)], dtypes=F_I, variants=lambda T, x: ((x, 1, 2, 1), {})),
    OpInfo("UnfoldBackward0", "unfold_vector_0d",
           lambda T, x: x.unfold(0, min(x.numel(), 3), 2), [(), (7,), ((7,), "step")]),
    OpInfo("UnfoldBackward0", "unfold_errors",
           lambda T, x: x.unfold(1, 5, 0), [(3, 4)]),
    OpInfo("UnfoldBackward0", "unfold_size_errors", lambda T, x: x.unfold(1, -1, 0), [(3, 4)]),
    OpInfo("UnfoldBackward0", "unfold_step_errors", lambda T, x: x.unfold(1, 2, 0), [(3, 4)]),
    OpInfo("UnfoldBackwardBackward0", "unfold_grad2",
           lambda T, x: _grad2(T, lambda t: t.unfold(-1, 3, 1), x), [(3, 5), (4,)],
           dtypes=FLOATS),
]

CONSTRUCTIONS = [
    OpInfo("DiagEmbedBackward0", "diag_embed",
           lambda T, x: (x.diag_embed(), T.diag_embed(x, 1, 0, 2), x.diag_embed(-2, -1, 0)),
           MATS + [(4,), (2, 2, 3)], dtypes=F_I),
    OpInfo("DiagEmbedBackward0", "diag_embed_errors",
           lambda T, x: x.diag_embed(0, 1, -2), [(3, 4), ()]),
    OpInfo("DiagEmbedBackward0", "diagflat",
           lambda T, x: (x.diagflat(), T.diagflat(x, -1), x.diagflat(2)),
           [(), (4,), (3, 2), ((3, 2), "T")], dtypes=F_I),
    OpInfo("DiagEmbedBackward0", "diag_embed_grad2",
           lambda T, x: _grad2(T, lambda t: t.diag_embed(1), x), [(2, 3)], dtypes=FLOATS),
    OpInfo("BlockDiagBackward0", "block_diag",
           lambda T, x, y, z: T.block_diag(x, y, z),
           [((2, 3), (4,), ()), (((2, 3), "T"), (0, 2), (2, 2)), ((3,), (3,), (3,))],
           dtypes=F_I, variants=lambda T, x, y, z: ((x, y, z), {})),
    OpInfo("BlockDiagBackward0", "block_diag_promotes",
           lambda T, x, y: (T.block_diag(x, y.long(), y > 0), T.block_diag()),
           [((2, 3), (2,))]),
    OpInfo("BlockDiagBackward0", "block_diag_errors",
           lambda T, x, y: T.block_diag(x, y), [((2, 3), (1, 1, 1))]),
    OpInfo("StackBackward0", "cartesian_prod",
           lambda T, x, y: (T.cartesian_prod(x, y), T.cartesian_prod(x, y, x), T.cartesian_prod(y)),
           [((3,), (2,)), (((3,), "step"), (0,))], dtypes=F_I),
    OpInfo("StackBackward0", "cartesian_prod_errors",
           lambda T, x, y: (T.cartesian_prod(x, y), T.cartesian_prod(x, y.long()))[0],
           [((3, 1), (2,)), ((3,), (2,))], dtypes=("float32",)),
    OpInfo("StackBackward0", "combinations",
           lambda T, x: (T.combinations(x), T.combinations(x, 3, with_replacement=True),
                         T.combinations(x, 1), T.combinations(x, 5), T.combinations(x, 0)),
           [(4,), ((4,), "step"), (1,)], dtypes=F_I),
    OpInfo("StackBackward0", "combinations_errors",
           lambda T, x: (T.combinations(x), T.combinations(x.reshape(-1), -1)), [(2, 2), (4,)],
           dtypes=("float32",)),
]

_IDX = [[0, 1], [1, 1], [2, 3]]

SCATTERS = [
    OpInfo("SelectScatterBackward0", "select_scatter",
           lambda T, x, s: (x.select_scatter(s, 0, 1), T.select_scatter(x, s[:3], 1, -1)),
           [((3, 4), (4,)), (((3, 4), "T"), (4,)), (((3, 4), "step"), ((4,), "step"))],
           dtypes=F_I, variants=lambda T, x, s: ((x, s, 0, 1), {})),
    OpInfo("SelectScatterBackward0", "select_scatter_dtypes",
           lambda T, x, s: x.select_scatter(s.double(), 0, 0), [((3, 4), (4,))]),
    OpInfo("SelectScatterBackward0", "select_scatter_errors",
           lambda T, x, s: x.select_scatter(s, 0, 5), [((3, 4), (4,))]),
    OpInfo("SelectScatterBackward0", "select_scatter_shape_errors",
           lambda T, x, s: x.select_scatter(s, 0, 0), [((3, 4), (3,))]),
    OpInfo("SelectScatterBackward0", "select_scatter_grad2",
           lambda T, x, s: _grad2(T, lambda t: t.select_scatter(s.detach(), 0, 0), x),
           [((3, 4), (4,))], dtypes=FLOATS),
    OpInfo("SliceScatterBackward0", "slice_scatter",
           lambda T, x, s: (x.slice_scatter(s, 0, 0, 2), T.slice_scatter(x, s, start=1)),
           [((3, 4), (2, 4)), (((3, 4), "T"), ((2, 4), "T"))], dtypes=F_I,
           variants=lambda T, x, s: ((x, s, 0, 1), {})),
    OpInfo("SliceScatterBackward0", "slice_scatter_step",
           lambda T, x, s: x.slice_scatter(s, 1, None, None, 2), [((3, 4), (3, 2))]),
    OpInfo("SliceScatterBackward0", "slice_scatter_errors",
           lambda T, x, s: x.slice_scatter(s, 0, 0, 2), [((3, 4), (3, 4))]),
    OpInfo("DiagonalScatterBackward0", "diagonal_scatter",
           lambda T, x, s: (x.diagonal_scatter(s[:3]), T.diagonal_scatter(x, s[:3], 1),
                            x.diagonal_scatter(s[:2], -1, 1, 0)),
           [((3, 4), (4,)), (((3, 4), "T"), (4,))], dtypes=F_I,
           variants=lambda T, x, s: ((x, s[:3]), {})),
    OpInfo("DiagonalScatterBackward0", "diagonal_scatter_errors",
           lambda T, x, s: x.diagonal_scatter(s), [((3, 4), (4,))]),
    OpInfo("AsStridedScatterBackward0", "as_strided_scatter",
           lambda T, x, s: (x.as_strided_scatter(s, (2, 2), (1, 2)),
                            T.as_strided_scatter(x, s, (2, 2), (4, 1), 1)),
           [((3, 4), (2, 2))], dtypes=F_I, variants=lambda T, x, s: ((x, s, (2, 2), (1, 2)), {})),
    OpInfo("AsStridedScatterBackward0", "as_strided_scatter_errors",
           lambda T, x, s: x.as_strided_scatter(s, (3,), (1,)), [((3, 4), (2, 2))]),
    OpInfo("NarrowCopyBackward0", "narrow_copy",
           lambda T, x: (x.narrow_copy(1, 1, 2), T.narrow_copy(x, 0, 1, 2)),
           MATS, dtypes=F_I, variants=_with(1, 1, 2)),
    # torch's backward slices the gradient at the start as given: for a negative start or an
    # empty result it raises a size mismatch (values only here)
    OpInfo("NarrowCopyBackward0", "narrow_copy_negative_or_empty",
           lambda T, x: (x.narrow_copy(1, 4, 0), T.narrow_copy(x, 0, -2, 2)), MATS, grad=False),
    OpInfo("NarrowCopyBackward0", "narrow_copy_errors",
           lambda T, x: x.narrow_copy(1, 3, 2), [(3, 4)]),
    OpInfo("NarrowCopyBackward0", "narrow_copy_start_errors",
           lambda T, x: x.narrow_copy(1, -5, 1), [(3, 4)]),
    OpInfo("MaskedScatterBackward0", "masked_scatter",
           lambda T, x, s: (x.masked_scatter(x > 0, s),
                            T.masked_scatter(x, _mask(T, x, [True, False, True, True]), s)),
           [((3, 4), (12,)), (((3, 4), "T"), (3, 5)), ((4,), (2, 3))], dtypes=F_I,
           variants=lambda T, x, s: ((x, x > 0, s), {})),
    OpInfo("MaskedScatterBackward0", "masked_scatter_broadcast",
           lambda T, x, s: x.masked_scatter(_mask(T, x, [[True], [False], [True]]), s),
           [((4,), (3, 4))]),
    OpInfo("MaskedScatterBackward0", "masked_scatter_",
           lambda T, x, s: x.clone().masked_scatter_(_mask(T, x, [[True], [False], [True]]), s),
           [((3, 4), (12,)), (((3, 4), "T"), (8,))], dtypes=F_I),
    OpInfo("MaskedScatterBackward0", "masked_scatter_inplace_broadcast_errors",
           lambda T, x, s: x.clone().masked_scatter_(_mask(T, x, [[True], [False], [True]]), s),
           [((4,), (12,)), ((2, 4), (12,))], dtypes=("float32",)),
    OpInfo("MaskedScatterBackward0", "masked_scatter_errors",
           lambda T, x, s: x.masked_scatter(x > -10, s), [((3, 4), (4,))]),
    OpInfo("MaskedScatterBackward0", "masked_scatter_dtype_errors",
           lambda T, x, s: x.masked_scatter((x > 0).byte(), s),
           [((3, 4), (12,))], dtypes=("float32",)),
    OpInfo("MaskedScatterBackward0", "masked_scatter_source_dtype_errors",
           lambda T, x, s: x.masked_scatter(x > 0, s.double()), [((3, 4), (12,))],
           dtypes=("float32",)),
]

REDUCING = [
    OpInfo("ScatterReduceBackward0", "scatter_reduce",
           lambda T, x, s: tuple(x.scatter_reduce(1, _ix(T, x, _IDX), s, r)
                                 for r in ("sum", "prod", "mean", "amax", "amin")),
           [((3, 4), (3, 2)), (((3, 4), "T"), ((3, 2), "T"))], dtypes=F_I,
           variants=lambda T, x, s: ((x, 1, _ix(T, x, _IDX), s, "sum"), {})),
    OpInfo("ScatterReduceBackward0", "scatter_reduce_exclude_self",
           lambda T, x, s: tuple(T.scatter_reduce(x, 0, _ix(T, x, [[2, 0, 2, 2]]), s, r,
                                                  include_self=False)
                                 for r in ("sum", "prod", "mean", "amax", "amin")),
           [((3, 4), (1, 4)), (((3, 4), "step"), (1, 4))], dtypes=F_I),
    OpInfo("ScatterReduceBackward0", "scatter_reduce_ties_and_zeros",
           lambda T, x, s: tuple(x.relu().round().scatter_reduce(1, _ix(T, x, _IDX),
                                                                 s.relu().round(), r)
                                 for r in ("prod", "amax", "amin")),
           [((3, 4), (3, 2))]),
    OpInfo("ScatterReduceBackward0", "scatter_reduce_max_min",
           lambda T, x, s: (x.scatter_reduce(1, _ix(T, x, _IDX), s, "max"),
                            x.scatter_reduce(1, _ix(T, x, _IDX), s, "min")),
           [((3, 4), (3, 2))], dtypes=F_I),
    OpInfo("ScatterReduceBackward0", "scatter_reduce_",
           lambda T, x, s: x.clone().scatter_reduce_(1, _ix(T, x, _IDX), s, "amax"),
           [((3, 4), (3, 2))], dtypes=F_I),
    OpInfo("ScatterReduceBackward0", "scatter_reduce_errors",
           lambda T, x, s: x.scatter_reduce(1, _ix(T, x, _IDX), s, "add"),
           [((3, 4), (3, 2)), ((3, 4), (1, 1))]),
    OpInfo("ScatterReduceBackward0", "scatter_reduce_dtype_errors",
           lambda T, x, s: x.scatter_reduce(1, _ix(T, x, _IDX), s.double(), "foo"),
           [((3, 4), (3, 2))], dtypes=("float32",)),
    OpInfo("IndexReduceBackward0", "index_reduce",
           lambda T, x, s: tuple(x.index_reduce(0, _ix(T, x, [0, 2, 0]), s, r)
                                 for r in ("prod", "mean", "amax", "amin")),
           [((3, 4), (3, 4)), (((3, 4), "T"), ((3, 4), "step"))], dtypes=F_I,
           variants=lambda T, x, s: ((x, 0, _ix(T, x, [0, 2, 0]), s, "prod"), {})),
    OpInfo("IndexReduceBackward0", "index_reduce_exclude_self",
           lambda T, x, s: tuple(T.index_reduce(x, 1, _ix(T, x, [3, 3], "int32"), s, r,
                                                include_self=False)
                                 for r in ("prod", "mean", "amax", "amin")),
           [((3, 4), (3, 2))], dtypes=F_I),
    OpInfo("IndexReduceBackward0", "index_reduce_",
           lambda T, x, s: x.clone().index_reduce_(0, _ix(T, x, [1, 1, 0]), s, "mean"),
           [((3, 4), (3, 4))], dtypes=F_I),
    OpInfo("IndexReduceBackward0", "index_reduce_errors",
           lambda T, x, s: x.index_reduce(0, _ix(T, x, [0, 3, 0]), s, "prod"),
           [((3, 4), (3, 4)), ((3, 4), (2, 4))]),
    OpInfo("IndexReduceBackward0", "index_reduce_reduce_errors",
           lambda T, x, s: x.index_reduce(0, _ix(T, x, [0, 1, 0]), s, "sum"), [((3, 4), (3, 4))]),
    OpInfo("IndexPutBackward0", "index_put",
           lambda T, x, s: (x.index_put((_ix(T, x, [0, 2]),), s),
                            T.index_put(x, [_ix(T, x, [0, 0]), _ix(T, x, [1, 1])], s[0, :1],
                                        accumulate=True),
                            x.index_put((x > 0,), s[0, 0])),
           [((3, 4), (2, 4)), (((3, 4), "T"), (1, 4))], dtypes=F_I,
           variants=lambda T, x, s: ((x, (_ix(T, x, [0, 2]),), s), {})),
    OpInfo("IndexPutBackward0", "index_put_",
           lambda T, x, s: (x.clone().index_put_((_ix(T, x, [0, 0]),), s, accumulate=True),
                            T.index_put_(x.clone(), (_ix(T, x, [2]), _ix(T, x, [1])), s[0, 0])),
           [((3, 4), (1, 4))], dtypes=F_I),
    OpInfo("IndexPutBackward0", "index_put_errors",
           lambda T, x, s: x.index_put((_ix(T, x, [0, 3]),), s), [((3, 4), (2, 4)),
                                                                 ((3, 4), (3,))]),
    OpInfo("IndexPutBackward0", "index_put_dtype_errors",
           lambda T, x, s: x.index_put((_ix(T, x, [0]),), s.double()), [((3, 4), (4,))],
           dtypes=("float32",)),
    OpInfo("IndexPutBackward0", "index_put_argument_errors",
           lambda T, x, s: x.index_put((_ix(T, x, [0]),) * 3, s), [((3, 4), (4,))],
           dtypes=("float32",)),
    OpInfo("AsStridedBackward1", "as_strided_",
           lambda T, x: x.clone().as_strided_((2, 2), (1, 2), 1), [(3, 4)],
           variants=_with((2, 2), (1, 2))),
]

# every dtype through the new records at once (float16 and bool included)
ALL_DTYPES = [
    OpInfo("Rot90Backward0", "all_dtypes_views_and_copies",
           lambda T, x: (x.rot90(), x.take(_ix(T, x, [0, 5])), x.unfold(1, 2, 1),
                         x.diag_embed(), T.block_diag(x, x[0]), x.narrow_copy(1, 1, 2),
                         x.repeat_interleave(2, 0), T.hstack([x, x]), x.ravel()),
           [(3, 4)], dtypes=ALL),
    OpInfo("SelectScatterBackward0", "all_dtypes_scatters",
           lambda T, x, s: (x.select_scatter(s[0], 0, 1), x.slice_scatter(s[:2], 0, 1),
                            x.diagonal_scatter(s[0, :3]), x.put(_ix(T, x, [1, 3]), s[1, :2]),
                            x.masked_scatter(s > s[0, 0], s), x.index_put((_ix(T, x, [1]),), s[2]),
                            x.clone().put_(_ix(T, x, [2, 2]), s[0, :2], accumulate=True)),
           [((3, 4), (3, 4))], dtypes=ALL),
    OpInfo("ScatterReduceBackward0", "all_dtypes_reductions",
           lambda T, x, s: tuple(x.scatter_reduce(1, _ix(T, x, _IDX), s, r)
                                 for r in ("sum", "amax", "amin")),
           [((3, 4), (3, 2))], dtypes=ALL),
]

ROWS = ALL_DTYPES + STACKS + RESHAPES + SPLITS + FLIPS + REPEATS + TAKE_PUT + UNFOLDS + \
    CONSTRUCTIONS + SCATTERS + REDUCING
