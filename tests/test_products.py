"""Differential tests of the products, norms and distances beyond the op table: deprecation
warnings, what backward nodes save, writing into an expanded tensor, the torch.linalg names.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
from _oracle import same_outcome

import doctensor

_WARNINGS_SCRIPT = textwrap.dedent("""
    import sys, warnings
    import {module} as T
    warnings.simplefilter("always")
    a, b = T.ones(4, 3), T.ones(4, 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        T.cross(a, b)
        T.cross(a, b)
        T.cross(a, b, dim=1)
        T.chain_matmul(T.ones(2, 3), T.ones(3, 2))
        T.chain_matmul(T.ones(2, 3))
        T.frobenius_norm(a, (0, 1))
        T.nuclear_norm(T.ones(3, 3))
        T.nuclear_norm(T.ones(3, 3), (0, 1))
    for w in caught:
        print(w.category.__name__, repr(str(w.message)))
""")


def _warnings(module):
    run = subprocess.run([sys.executable, "-c", _WARNINGS_SCRIPT.format(module=module)],
                         capture_output=True, text=True, check=True)
    return run.stdout


def test_deprecation_warnings_once_per_process_as_torchs():
    """torch.cross without dim, chain_matmul, frobenius_norm and nuclear_norm warn once per
    process (TORCH_WARN_ONCE), with torch's text."""
    ours = _warnings("doctensor")
    assert ours == _warnings("torch")
    assert ours.count("UserWarning") == 4


def _saved(fn, names):
    return {n: getattr(fn, f"_saved_{n}") for n in names}


@pytest.mark.parametrize("case", ["addmv", "addr", "baddbmm", "addbmm", "dist", "renorm",
                                  "cross", "cdist"])
def test_nodes_save_what_torchs_save(case):
    """The attributes torch's backward nodes show: alpha and beta as given, p, dim, maxnorm,
    the saved inputs and result."""
    def scenario(T):
        rng = np.random.default_rng(0)

        def t(*shape):
            return T.tensor(rng.uniform(-2, 2, shape), requires_grad=True)
        if case == "addmv":
            out = T.addmv(t(3), t(3, 4), t(4), beta=0.5, alpha=2)
            return out, _saved(out.grad_fn, ["alpha", "beta", "mat", "vec"])
        if case == "addr":
            out = t(3, 4).addr(t(3), t(4), alpha=3)
            return out, _saved(out.grad_fn, ["alpha", "beta", "vec1", "vec2"])
        if case == "baddbmm":
            out = T.baddbmm(t(2, 3, 5), t(2, 3, 4), t(2, 4, 5), beta=0)
            return out, _saved(out.grad_fn, ["alpha", "beta", "batch1", "batch2"])
        if case == "addbmm":
            out = T.addbmm(t(3, 5), t(2, 3, 4), t(2, 4, 5), alpha=-1)
            return out, _saved(out.grad_fn, ["alpha", "beta", "batch1", "batch2"])
        if case == "dist":
            out = T.dist(t(3, 4), t(4), 3)
            return out, _saved(out.grad_fn, ["p", "self", "other", "result"])
        if case == "renorm":
            out = t(3, 4).renorm(2, 1, 0.5)
            return out, _saved(out.grad_fn, ["p", "dim", "maxnorm", "self"])
        if case == "cross":
            out = T.linalg.cross(t(4, 3), t(4, 3), dim=1)  # (torch shows -1 as 2**64 - 1)
            return out, _saved(out.grad_fn, ["dim", "self", "other"])
        out = T.cdist(t(3, 4), t(5, 4), 1.5)
        return out, _saved(out.grad_fn, ["p", "x1", "x2", "result"])
    same_outcome(scenario)


@pytest.mark.parametrize("layout", ["rows", "columns"])
@pytest.mark.parametrize("beta", [1, 2.0, 0])
def test_addmv_into_an_expanded_tensor(layout, beta):
    """Note [add* into an expand]: torch's gemv updates the shared element once per row (a
    column-major matrix: scaled by beta once per row first, then column after column)."""
    def scenario(T):
        c = T.tensor([1.5]).expand(3)
        mat = T.arange(12.0).reshape(3, 4) / 7
        if layout == "columns":
            mat = mat.t().contiguous().t()
        out = c.addmv_(mat, T.arange(4.0) / 3, beta=beta, alpha=0.5)
        return out, out._version, c._base
    same_outcome(scenario)


def test_baddbmm_into_an_expanded_tensor():
    def scenario(T):
        c = T.tensor([[[1.5]]]).expand(2, 3, 5)
        out = c.baddbmm_(T.ones(2, 3, 4) / 3, T.ones(2, 4, 5) / 7, beta=0.5, alpha=2)
        return out, out._version
    same_outcome(scenario)


def test_einsum_gradients_of_three_operands_and_repeated_labels():
    """A left-to-right fold (no opt_einsum) with a diagonal and a broadcast operand: values,
    the result's node and every gradient."""
    def scenario(T):
        rng = np.random.default_rng(1)
        x = T.tensor(rng.uniform(-1, 1, (3, 3, 4)), requires_grad=True)
        y = T.tensor(rng.uniform(-1, 1, (4, 1)), requires_grad=True)
        z = T.tensor(rng.uniform(-1, 1, (2, 5)), requires_grad=True)
        out = T.einsum("iij,jk,kl->il", x, y, z[:1].expand(1, 5).reshape(1, 5))
        out.sum().backward()
        return out, x.grad, y.grad, z.grad
    same_outcome(scenario, rtol=1e-12, atol=1e-12)


def test_in_place_add_family_refuses_without_writing():
    """A refused in-place add* leaves self as it was (values and version)."""
    def scenario(T):
        c = T.ones(5)
        out = []
        for call in (lambda: c.addmm_(T.ones(3, 4), T.ones(4, 5)),
                     lambda: c.baddbmm_(T.ones(2, 3, 4), T.ones(2, 4, 5)),
                     lambda: c.addmv_(T.ones(3, 4), T.ones(4)),
                     lambda: c.addr_(T.ones(3), T.ones(5))):
            try:
                call()
            except RuntimeError as e:
                out.append(str(e))
        return out, c, c._version
    same_outcome(scenario)


_LINALG_NAMES = ["matmul", "multi_dot", "cross", "vecdot", "diagonal", "vander", "vector_norm",
                 "matrix_norm", "norm"]
_TORCH_NAMES = ["addmv", "addmv_", "addr", "baddbmm", "addbmm", "vdot", "ger", "inner", "kron",
                "tensordot", "einsum", "cross", "chain_matmul", "dist", "cdist", "renorm",
                "vander", "outer", "frobenius_norm", "nuclear_norm"]
_METHODS = ["addbmm", "addbmm_", "addmm", "addmm_", "addmv", "addmv_", "addr", "addr_",
            "baddbmm", "baddbmm_", "cross", "dist", "ger", "inner", "kron", "outer", "renorm",
            "renorm_", "vdot"]


def test_names_exist():
    for name in _LINALG_NAMES:
        assert callable(getattr(doctensor.linalg, name)), f"torch.linalg.{name}"
    for name in _TORCH_NAMES:
        assert callable(getattr(doctensor, name)), f"torch.{name}"
    for name in _METHODS:
        assert callable(getattr(doctensor.Tensor, name)), f"Tensor.{name}"


# the operands' shapes for a size n: (self, first, second)
ADD_PRODUCT_SHAPES = {"addmm": lambda n: ((n, n), (n, n), (n, n)),
                      "addmv": lambda n: ((n,), (n, n), (n,)),
                      "baddbmm": lambda n: ((2, n, n), (2, n, n), (2, n, n)),
                      "addbmm": lambda n: ((n, n), (3, n, n), (3, n, n))}


@pytest.mark.parametrize("op", ADD_PRODUCT_SHAPES)
def test_bfloat16_add_products(op):
    """The add* products of bfloat16 tensors stay bfloat16 and round once, as torch's
    (float32 products and sums, then bfloat16): bit for bit over small sizes."""
    def fn(T):
        g = np.random.default_rng(3)
        out = []
        for n in (2, 3, 8):
            args = [T.tensor(g.standard_normal(shape).astype(np.float32)).to(T.bfloat16)
                    for shape in ADD_PRODUCT_SHAPES[op](n)]
            for beta, alpha in ((1, 1), (0.5, 2)):
                out.append(getattr(T, op)(*args, beta=beta, alpha=alpha))
        return out
    same_outcome(fn, rtol=0, atol=0)
