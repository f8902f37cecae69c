"""Views against torch 2.13: storage sharing, geometry, ``_base``, and writes through views.

For each view (or copy) the facts compared are: shape, stride, ``storage_offset()``,
``is_contiguous()``, the byte distance ``v.data_ptr() - base.data_ptr()``, whether the
untyped storages are the same (``data_ptr`` equality), ``_base is root``, ``_is_view()``,
the values; then an in-place edit through the view and the root's values and ``_version``.
A hypothesis test does the same for random chains of views.
"""

import numpy as np
import pytest
import torch  # noqa: F401
from _oracle import HYPOTHESIS_EXAMPLES, assert_same, both, same_outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def facts(root, v):
    """What a view shows about its memory, relative to ``root``."""
    shares = v.untyped_storage().data_ptr() == root.untyped_storage().data_ptr()
    return {
        "shape": tuple(v.shape), "stride": v.stride(), "offset": v.storage_offset(),
        "contiguous": v.is_contiguous(),
        "delta": v.data_ptr() - root.data_ptr() if v.numel() and shares else None,
        "shares": shares,
        "base_is_root": v._base is root, "base_none": v._base is None, "is_view": v._is_view(),
        "values": v.tolist(), "version": v._version,
    }


def edit_through(root, v):
    """Write through ``v`` and report what the root and the view see."""
    if v.numel():
        v.mul_(2)
    return {"root": root.tolist(), "root_version": root._version, "view_version": v._version}


def root_of(T, layout):
    x = T.arange(24.0).reshape(2, 3, 4)
    if layout == "T":
        x = T.arange(24.0).reshape(4, 3, 2).permute(2, 1, 0)
    elif layout == "step":
        x = T.arange(48.0).reshape(2, 3, 8)[..., ::2]
    return x


VIEWS = {
    "view": lambda T, x: x.view(6, 4),
    "view_flat": lambda T, x: x.view(-1),
    "view_as": lambda T, x: x.view_as(T.zeros(4, 6)),
    "reshape": lambda T, x: x.reshape(3, 8),
    "reshape_same": lambda T, x: x.reshape(2, 3, 4),
    "reshape_flat": lambda T, x: x.reshape(-1),
    "transpose": lambda T, x: x.transpose(0, 2),
    "swapaxes": lambda T, x: x.swapaxes(1, 2),
    "t": lambda T, x: x[0].t(),
    "T": lambda T, x: x[0].T,
    "mT": lambda T, x: x.mT,
    "permute": lambda T, x: x.permute(1, 2, 0),
    "expand": lambda T, x: x[:, :1].expand(2, 5, 4),
    "expand_new": lambda T, x: x[0, 0].expand(3, 4),
    "expand_as": lambda T, x: x[0, :, :1].expand_as(T.zeros(3, 4)),
    "squeeze": lambda T, x: x[:, :1].squeeze(),
    "squeeze_dim": lambda T, x: x[:, :1].squeeze(1),
    "squeeze_noop": lambda T, x: x.squeeze(0),
    "unsqueeze": lambda T, x: x.unsqueeze(1),
    "unsqueeze_end": lambda T, x: x.unsqueeze(-1),
    "flatten": lambda T, x: x.flatten(),
    "flatten_part": lambda T, x: x.flatten(1),
    "flatten_noop": lambda T, x: x.flatten(1, 1),
    "unflatten": lambda T, x: x.unflatten(2, (2, 2)),
    "narrow": lambda T, x: x.narrow(2, 1, 2),
    "narrow_neg": lambda T, x: x.narrow(-2, -2, 2),
    "select": lambda T, x: x.select(1, 2),
    "select_neg": lambda T, x: x.select(-1, -1),
    "diagonal": lambda T, x: x.diagonal(0, 1, 2),
    "diagonal_off": lambda T, x: x[0].diagonal(1),
    "diagonal_neg": lambda T, x: x[1].diagonal(-1),
    "int": lambda T, x: x[1],
    "int_int": lambda T, x: x[1, 2],
    "scalar": lambda T, x: x[1, 2, 3],
    "slice": lambda T, x: x[:, 1:],
    "slice_step": lambda T, x: x[:, ::2, 1::3],
    "slice_full": lambda T, x: x[:],
    "slice_empty": lambda T, x: x[:, 3:],
    "slice_past_end": lambda T, x: x[:, 1:10],
    "none": lambda T, x: x[None],
    "none_mid": lambda T, x: x[:, None, 1],
    "ellipsis": lambda T, x: x[..., 1],
    "ellipsis_only": lambda T, x: x[...],
    "mixed": lambda T, x: x[1, ..., None, ::3],
    "as_strided": lambda T, x: x.as_strided((2, 2), (1, 2)),
    # copies
    "reshape_copy": lambda T, x: x.transpose(0, 1).reshape(-1),
    "adv_list": lambda T, x: x[[0, 1]],
    "adv_tensor": lambda T, x: x[:, T.tensor([2, 0])],
    "adv_bool": lambda T, x: x[x > 10],
    "adv_bool_dim": lambda T, x: x[T.tensor([True, False])],
    "contiguous": lambda T, x: x.transpose(0, 1).contiguous(),
    "clone": lambda T, x: x.clone(),
}

MULTI = {
    "unbind": lambda T, x: x.unbind(1),
    "split": lambda T, x: x.split(2, -1),
    "split_uneven": lambda T, x: x.split(2, 1),
    "split_sizes": lambda T, x: x.split([1, 2], 1),
    "chunk": lambda T, x: x.chunk(2, 2),
    "chunk_uneven": lambda T, x: T.chunk(x, 2, 1),
}


@pytest.mark.parametrize("layout", ["contig", "T", "step"])
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view(name, layout):
    fn = VIEWS[name]

    def scenario(T):
        root = root_of(T, layout)
        root = root if layout == "contig" else root.contiguous() if name == "none" else root
        v = fn(T, root)
        before = facts(root, v)
        return before, edit_through(root, v)

    same_outcome(scenario)


@pytest.mark.parametrize("layout", ["contig", "T"])
@pytest.mark.parametrize("name", sorted(MULTI))
def test_multi_view(name, layout):
    def scenario(T):
        root = root_of(T, layout)
        pieces = MULTI[name](T, root)
        out = [facts(root, p) for p in pieces]
        out.append(edit_through(root, pieces[-1]))
        return out

    same_outcome(scenario)


def test_view_of_view_base_is_root():
    def scenario(T):
        x = T.arange(6.0)
        v = x.view(2, 3)
        w = v.t()
        d = x.detach()
        return [w._base is x, v._base is x, d._base is None, d._is_view(), x.data._is_view(),
                x.data._base is None, w.data_ptr() == x.data_ptr()]
    same_outcome(scenario)


def test_view_errors():
    cases = [
        lambda T: T.zeros(2, 3).t().view(-1),
        lambda T: T.zeros(2, 3).view(4, 2),
        lambda T: T.zeros(2, 3).view(-1, -1),
        lambda T: T.zeros(2, 3).view(-2, 3),
        lambda T: T.zeros(2, 3).reshape(5),
        lambda T: T.zeros(2, 3).transpose(0, 2),
        lambda T: T.zeros(2, 3, 4).t(),
        lambda T: T.zeros(2, 3).permute(0),
        lambda T: T.zeros(2, 3).permute(0, 0),
        lambda T: T.zeros(2, 3).expand(3, 3),
        lambda T: T.zeros(2, 3).expand(3),
        lambda T: T.zeros(2, 3).squeeze(2),
        lambda T: T.zeros(2, 3).unsqueeze(3),
        lambda T: T.zeros(2, 3).narrow(1, 2, 2),
        lambda T: T.zeros(2, 3).select(0, 2),
        lambda T: T.zeros(2, 3).select(2, 0),
        lambda T: T.zeros(2, 3)[2],
        lambda T: T.zeros(2, 3)[0, 0, 0],
        lambda T: T.zeros(2, 3)[..., ...],
        lambda T: T.zeros(2, 3)[::-1],
        lambda T: T.zeros(2, 3)[[0, 5]],
        lambda T: T.zeros(())[0],
        lambda T: T.zeros(2, 3).diagonal(0, 1, 1),
        lambda T: T.zeros(2, 3).split([1, 1]),
        lambda T: T.zeros(2, 3).chunk(0),
        lambda T: T.zeros(2, 3).flatten(1, 0),
        lambda T: T.zeros(2, 3).mT.mT[0].mT,
        lambda T: T.zeros(()).unbind(),
    ]
    for i, fn in enumerate(cases):
        ours, theirs = both(fn)
        assert_same(ours, theirs, path=f"case {i}")


# -- hypothesis: random chains of views ----------------------------------------------------------

def _ops_for(shape):
    """(name, args) view steps that are legal on ``shape``."""
    n = len(shape)
    ops = [("unsqueeze", (0,)), ("view_flat", ()), ("reshape", (-1,)), ("flatten", ())]
    if n:
        ops.append(("unsqueeze", (n,)))
    if n >= 2:
        ops += [("transpose", (0, n - 1)), ("transpose", (n - 2, n - 1)), ("permute_rev", ()),
                ("diagonal", ()), ("mT", ())]
    for d, size in enumerate(shape):
        if size == 1:
            ops.append(("squeeze", (d,)))
            ops.append(("expand_dim", (d, 3)))
        if size >= 2:
            ops += [("narrow", (d, 1, size - 1)), ("select", (d, size - 1)),
                    ("step", (d, 2)), ("split", (d,))]
        if size == 4:
            ops.append(("unflatten", (d, (2, 2))))
    return ops


def _apply(T, x, step):
    name, args = step
    if name == "view_flat":
        return x.view(-1) if x.is_contiguous() else x.reshape(-1)
    if name == "reshape":
        return x.reshape(*args)
    if name == "permute_rev":
        return x.permute(*range(x.dim() - 1, -1, -1))
    if name == "mT":
        return x.mT
    if name == "expand_dim":
        d, k = args
        size = list(x.shape)
        size[d] = k
        return x.expand(*size)
    if name == "step":
        d, k = args
        return x[(slice(None),) * d + (slice(None, None, k),)]
    if name == "split":
        return x.split(1, args[0])[-1]
    return getattr(x, name)(*args)


@st.composite
def view_chains(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
    layout = draw(st.sampled_from(["contig", "T"]))
    chain = []
    x = torch.arange(float(np.prod(shape))).reshape(shape)
    if layout == "T":
        x = x.mT if x.dim() >= 2 else x
    for _ in range(draw(st.integers(1, 5))):
        step = draw(st.sampled_from(_ops_for(tuple(x.shape))))
        chain.append(step)
        x = _apply(torch, x, step)
    edit = draw(st.sampled_from(["add_", "setitem", "zero_", "fill_"]))
    return shape, layout, chain, edit


@settings(max_examples=HYPOTHESIS_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(view_chains())
def test_random_view_chains(case):
    shape, layout, chain, edit = case

    def scenario(T):
        root = T.arange(float(np.prod(shape))).reshape(shape)
        x = root.mT if layout == "T" and root.dim() >= 2 else root
        views = [x]
        for step in chain:
            views.append(_apply(T, views[-1], step))
        v = views[-1]
        before = [facts(root, w) for w in views]
        if edit == "add_":
            v.add_(1)
        elif edit == "setitem":
            v[...] = 7
        elif edit == "zero_":
            v.zero_()
        else:
            v.fill_(T.tensor(3.0))
        return before, root.tolist(), [w._version for w in views], root._version

    same_outcome(scenario)


# -- copies keep the layout (Note [preserve_format]) ------------------------------------------

LAYOUTS = {
    "contiguous": lambda T: T.arange(24.).view(2, 3, 4),
    "transpose": lambda T: T.arange(24.).view(2, 3, 4).transpose(0, 2),
    "step": lambda T: T.arange(24.).view(2, 3, 4)[:, ::2],
    "step_permuted": lambda T: T.arange(24.).view(2, 3, 4)[:, :, ::2].permute(2, 0, 1),
    "expand_t": lambda T: T.arange(3.).view(3, 1).expand(3, 4).t(),
    "expand_new_dim": lambda T: T.tensor([1., 2.])[None].expand(3, 2),
    "expand_permuted": lambda T: T.arange(6.).view(2, 1, 3).expand(2, 4, 3).permute(2, 1, 0),
    "size1_odd_stride": lambda T: T.arange(3.).view(3, 1).t(),
    "size1_permuted": lambda T: T.arange(6.).view(2, 3, 1).permute(2, 0, 1),
    "unsqueeze_t": lambda T: T.arange(6.).view(2, 3).t().unsqueeze(1),
    "select_t": lambda T: T.arange(24.).view(2, 3, 4).transpose(0, 2)[:, 1],
    "diagonal": lambda T: T.arange(9.).view(3, 3).diagonal(),
    "overlapping": lambda T: T.arange(24.).as_strided((3, 3), (1, 1)),
    "equal_strides": lambda T: T.arange(24.).as_strided((2, 3), (2, 2)),
    "sparse_t": lambda T: T.arange(24.).as_strided((3, 3), (2, 6)),
    "empty_t": lambda T: T.zeros(0, 3).t(),
    "empty_permuted": lambda T: T.zeros(2, 0, 3).permute(2, 0, 1),
    "many_size1": lambda T: T.zeros(4, 1, 1, 5).permute(3, 1, 2, 0),
}

COPIES = {
    "clone": lambda T, x: x.clone(),
    "torch.clone": lambda T, x: T.clone(x),
    "clone_contiguous": lambda T, x: x.clone(memory_format=T.contiguous_format),
    "clone_preserve": lambda T, x: x.clone(memory_format=T.preserve_format),
    "empty_like": lambda T, x: T.empty_like(x),
    "zeros_like": lambda T, x: T.zeros_like(x),
    "ones_like": lambda T, x: T.ones_like(x, dtype=T.float64),
    "full_like": lambda T, x: T.full_like(x, 7),
    "zeros_like_contiguous": lambda T, x: T.zeros_like(x, memory_format=T.contiguous_format),
    "rand_like": lambda T, x: T.rand_like(x),
    "randn_like": lambda T, x: T.randn_like(x),
    "randint_like": lambda T, x: T.randint_like(x, 9),
    "to_int": lambda T, x: x.to(T.int64),
    "double": lambda T, x: x.double(),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("copy", sorted(COPIES))
def test_copy_layout_matches_torch(copy, layout):
    def scenario(T):
        T.manual_seed(0)
        x = LAYOUTS[layout](T)
        out = COPIES[copy](T, x)
        values = None if copy == "empty_like" else out  # torch's empty memory is garbage
        return out.stride(), out.is_contiguous(), out.untyped_storage().nbytes(), values

    same_outcome(scenario)


def test_memory_format_objects():
    same_outcome(lambda T: (repr(T.contiguous_format), repr(T.preserve_format),
                            type(T.channels_last).__name__))


# -- resize_ (Note [resize_ grows the storage]) -------------------------------------------------

RESIZES = {
    "grow_moves_views": """
        a = torch.zeros(2); v = a.view(2); d = a.detach(); s = a[1:]; m = a.view(1, 2)
        a.resize_(4); a.fill_(1)
        out = ([t.data_ptr() - a.data_ptr() for t in (v, d, s, m)], v, d, s, m, a,
               v.untyped_storage().nbytes(), s.storage_offset(), v._version)""",
    "grow_through_view": """
        x = torch.zeros(3); y = x.view(3); z = y.view(3); y.resize_(6); y[3:] = 2
        out = x.data_ptr() == y.data_ptr(), z.untyped_storage().nbytes(), x, y""",
    "grow_view_with_offset": """
        a = torch.arange(6.); v = a[2:4]; v.resize_(3); n = a.untyped_storage().nbytes()
        v.resize_(5); v[4] = 9
        out = n, a.untyped_storage().nbytes(), v.data_ptr() - a.data_ptr(), a, v.shape""",
    "shrink_keeps_storage": """
        a = torch.arange(6.); v = a[2:]; a.resize_(2)
        out = a, v, v.untyped_storage().nbytes(), a._version""",
    "same_size_is_a_no_op": """
        x = torch.zeros(2, 3).t(); x.resize_(3, 2); s = x.stride(), x._version
        x.resize_(6); out = s, x.stride(), x._version""",
    "expanded_same_size": """
        x = torch.zeros(2).expand(3, 2); x.resize_(3, 2); out = x.stride()""",
    "non_contiguous": """
        x = torch.zeros(2, 3)[:, :2]; out = x.resize_(2, 2).stride(), x.resize_(4).stride()""",
    "versions": """
        a = torch.zeros(2); vs = [a._version]
        for size in [(2,), (5,), (3,), (1, 3), (1, 3)]:
            a.resize_(size); vs.append(a._version)
        out = vs, a.resize_(torch.Size([3])).shape, a.resize_([1, 1]).shape""",
    "empty": """
        x = torch.zeros(2); x.resize_(0); out = x, x.untyped_storage().nbytes(), x.stride()""",
    "resize_as_": """
        x = torch.zeros(2, 3); out = x.resize_as_(torch.zeros(3, 4).t()).stride()""",
    "requires_grad": """torch.zeros(2, requires_grad=True).resize_(2)""",
    "requires_grad_no_grad": """
        with torch.no_grad():
            torch.zeros(2, requires_grad=True).resize_(3)""",
    "non_leaf": """(torch.zeros(2, requires_grad=True) * 1).resize_(3)""",
    "negative": """torch.zeros(2).resize_(2, -1)""",
    "float_size": """torch.zeros(2).resize_(2.0)""",
    "float_in_sizes": """torch.zeros(2).resize_(2, 2.0)""",
    "from_numpy_cannot_grow": """
        import numpy as np
        t = torch.from_numpy(np.zeros(4)); t.resize_(2); out = t.shape; t.resize_(5)""",
    "numpy_shares_memory": """
        t = torch.zeros(3); n = t.numpy(); t.resize_(2); out = t.shape; t.resize_(4)""",
}


@pytest.mark.parametrize("name", sorted(RESIZES))
def test_resize_matches_torch(name):
    import textwrap

    def scenario(T):
        env = {"torch": T}
        exec(textwrap.dedent(RESIZES[name]), env)
        return env.get("out")

    same_outcome(scenario)
