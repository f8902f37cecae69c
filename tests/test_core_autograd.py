"""Autograd basics against torch 2.13: gradients, accumulation, retained graphs, errors,
warnings, leaves, detach/data/clone, grad modes, and the article examples (shared/seeds)."""

# ruff: noqa: B023  (the lambdas in loops here are called at once, inside their iteration)

import warnings

import pytest
import torch  # noqa: F401
from _oracle import assert_same, both, outcome, same_outcome

import doctensor


def test_broadcast_gradients_are_unbroadcast():
    def scenario(T):
        a = T.ones(3, 1, requires_grad=True)
        b = T.arange(4.0, requires_grad=True)
        c = T.tensor(2.0, requires_grad=True)
        d = T.ones(2, 3, 4, requires_grad=True)
        out = (a * b + c) * d
        out.backward(T.ones(2, 3, 4) * 0.5)
        return a.grad, b.grad, c.grad, d.grad
    same_outcome(scenario)


def test_accumulation_and_retain_graph():
    def scenario(T):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        y.backward(retain_graph=True)
        g1 = x.grad.clone()
        y.backward()
        return g1, x.grad
    same_outcome(scenario)


@pytest.mark.parametrize("expr", ["x * 2", "x + 2", "x - x", "x.exp()", "x.sigmoid()",
                                  "x.view(2, 1)", "x.t()", "x[0]", "x.clone()", "x.sum()",
                                  "x.mean()", "x.tanh()", "x ** 2", "x.relu()", "x / 3",
                                  "-x", "x.to(torch.float64)", "x.expand(3, 2)", "x.abs()",
                                  "x @ x"])
def test_second_backward_only_fails_when_something_was_saved(expr):
    def scenario(T):
        x = T.tensor([1.0, -2.0], requires_grad=True)
        y = eval(expr, {"x": x, "torch": T}).sum()
        y.backward()
        second = outcome(lambda _: y.backward(), T)
        return second, x.grad
    same_outcome(scenario)


def test_backward_errors():
    cases = [
        lambda T: T.ones(3, requires_grad=True).mul(2).backward(),
        lambda T: T.ones(3).sum().backward(),
        lambda T: T.ones(3).backward(T.ones(3)),
        lambda T: (T.ones(3, requires_grad=True) * 2).backward(T.ones(2)),
        lambda T: (T.ones(3, requires_grad=True) * 2).backward(T.ones(1, 3)),
        lambda T: T.autograd.grad((T.ones(2, requires_grad=True) * 2).sum(), T.ones(2)),
        lambda T: T.autograd.grad((T.ones(2, requires_grad=True) * 2).sum(),
                                  T.ones(2, requires_grad=True)),
    ]
    for i, fn in enumerate(cases):
        ours, theirs = both(fn)
        assert_same(ours, theirs, path=f"case {i}")


def _warnings_of(fn, T):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(T)
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def test_non_leaf_grad_warning_text():
    def fn(T):
        x = T.ones(2, requires_grad=True)
        y = x * 2
        y.sum().backward()
        z = x * 3
        z.retain_grad()
        z.sum().backward()
        return y.grad, x.grad, z.grad
    ours = _warnings_of(fn, doctensor)
    theirs = _warnings_of(fn, torch)
    assert_same(ours[0], theirs[0])
    assert len(theirs[1]) == 1
    assert ours[1] == theirs[1]


def test_requires_grad_errors_three_wordings():
    cases = [
        lambda T: T.ones(2, dtype=T.int64, requires_grad=True),
        lambda T: T.tensor([1, 2], requires_grad=True),
        lambda T: T.zeros(2, dtype=T.int32).requires_grad_(),
        lambda T: setattr(T.zeros(2, dtype=T.uint8), "requires_grad", True),
        lambda T: T.arange(3, requires_grad=True),
        lambda T: T.full((2,), True, requires_grad=True),
        lambda T: setattr(T.ones(2, requires_grad=True) * 2, "requires_grad", False),
        lambda T: (T.ones(2, requires_grad=True) * 2).requires_grad_(False),
    ]
    for i, fn in enumerate(cases):
        ours, theirs = both(fn)
        assert_same(ours, theirs, path=f"case {i}")


def test_leaf_inplace_errors_leave_everything_untouched():
    ops = {
        "add_": lambda t: t.add_(1), "mul_": lambda t: t.mul_(2), "zero_": lambda t: t.zero_(),
        "fill_": lambda t: t.fill_(3), "copy_": lambda t: t.copy_(t.detach() * 0),
        "setitem": lambda t: t.__setitem__(0, 5.0), "exp_": lambda t: t.exp_(),
        "clamp_": lambda t: t.clamp_(0, 1), "iadd": lambda t: t.__iadd__(1),
        "uniform_": lambda t: t.uniform_(), "sigmoid_": lambda t: t.sigmoid_(),
        "setitem_adv": lambda t: t.__setitem__([0], 1.0),
    }

    def scenario(T):
        out = {}
        for name, op in ops.items():
            leaf = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
            for target in ("leaf", "view"):
                t = leaf if target == "leaf" else leaf[:2]
                err = outcome(lambda _: op(t), T)
                out[f"{name}/{target}"] = (err, leaf.tolist(), leaf._version, t._version,
                                           t.grad_fn is None, leaf.grad_fn is None)
        with T.no_grad():
            leaf = T.tensor([1.0, 2.0], requires_grad=True)
            leaf.add_(1)
            leaf[0] = 7
            out["no_grad"] = (leaf, leaf._version)
        return out
    same_outcome(scenario)


def test_detach_data_clone_semantics():
    def scenario(T):
        a = T.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        d = b.detach()
        data = b.data
        c = b.clone()
        facts = [d.requires_grad, d.is_leaf, d.grad_fn, d._base is None,
                 d.data_ptr() == b.data_ptr(), data.data_ptr() == b.data_ptr(),
                 c.data_ptr() == b.data_ptr(), type(c.grad_fn).__name__, data.requires_grad,
                 data.is_leaf]
        e = b.detach_()
        facts += [e is b, b.requires_grad, b.is_leaf, b.grad_fn]
        v = (a * 1)[0:1]
        facts.append(outcome(lambda _: v.detach_(), T))
        return facts
    same_outcome(scenario)


def test_grad_modes():
    def scenario(T):
        x = T.ones(2, requires_grad=True)
        with T.no_grad():
            a = x * 2
            with T.enable_grad():
                b = x * 2
            inner = T.is_grad_enabled()
        c = x * 2
        with T.set_grad_enabled(False):
            d = x * 2
        prev = T.is_grad_enabled()
        T.set_grad_enabled(False)
        e = x * 2
        T.set_grad_enabled(True)

        @T.no_grad()
        def f(t):
            return t * 2
        return [(t.requires_grad, t.is_leaf, t.grad_fn is None) for t in (a, b, c, d, e, f(x))] \
            + [inner, prev, T.is_grad_enabled()]
    same_outcome(scenario)


def test_clone_graph_and_requires_grad_flow():
    def scenario(T):
        a = T.tensor(1.0, requires_grad=True)
        a_ = a.clone()
        y = a ** 2
        z = a ** 2 + a_ * 3
        y.backward()
        g1 = a.grad.clone()
        z.backward()
        return g1, a_.grad, a.grad, a_.is_leaf, type(a_.grad_fn).__name__
    same_outcome(scenario)


def test_clone_of_non_grad_then_requires_grad():
    def scenario(T):
        a = T.tensor(1.0)
        a_ = a.clone()
        a_.requires_grad_()
        y = a_ ** 2
        y.backward()
        return a.grad, a_.grad, a_.is_leaf
    same_outcome(scenario)


def test_grad_fn_names_and_next_functions():
    def scenario(T):
        x = T.ones(2, 2, requires_grad=True)
        y = (x.t() @ x).sum(0).squeeze().unsqueeze(0).mean()
        names = []
        fn = y.grad_fn
        while fn is not None and fn.next_functions:
            names.append(type(fn).__name__)
            fn = fn.next_functions[0][0]
        names.append(type(fn).__name__)
        return names
    same_outcome(scenario)


def test_matmul_1d_2d_names():
    def scenario(T):
        x = T.ones(3, requires_grad=True)
        w = T.ones(3, 2, requires_grad=True)
        z = T.matmul(x, w)
        b = T.ones(2, 3, 4, requires_grad=True) @ T.ones(4, requires_grad=True)
        return type(z.grad_fn).__name__, type(b.grad_fn).__name__, z, b
    same_outcome(scenario)


# -- the article examples (shared/seeds/) -------------------------------------------------------

def test_article_clone_detach_data_scalar():
    def scenario(T):
        a = T.tensor(1.0, requires_grad=True)
        b = a.clone()
        c = a.detach()
        a.data *= 3
        b += 1
        return a, b, c, a._version, c._version
    same_outcome(scenario)


def test_article_view_shares_and_clone_does_not():
    def scenario(T):
        T.manual_seed(0)
        x = T.rand(2, 2)
        y = x.view(4)
        x += 1
        z = x.clone().view(4)
        x += 1
        return x, y, z
    same_outcome(scenario)


def test_article_data_edit_is_invisible_to_autograd():
    def scenario(T):
        a = T.tensor([1, 2, 3.0], requires_grad=True)
        out = a.sigmoid()
        c = out.data
        c.zero_()
        out.sum().backward()
        t = T.tensor([0.0, 1.0], requires_grad=True)
        return a.grad, out, t.detach().requires_grad, t.data.requires_grad
    same_outcome(scenario)


def test_article_scalar_sigmoid_error():
    def scenario(T):
        x = T.tensor(0.0, requires_grad=True)
        y = x.sigmoid()
        y.detach().zero_()
        return y, outcome(lambda _: y.backward(), T)
    same_outcome(scenario)


def test_article_matmul_view_error():
    def scenario(T):
        x = T.tensor([1, 1, 1], dtype=T.float, requires_grad=True)
        y = T.tensor([2, 4, 6], dtype=T.float, requires_grad=True).view(-1, 1)
        z = T.matmul(x, y)
        tmp = y.detach()
        tmp.mul_(2)
        return tmp, y.requires_grad, outcome(lambda _: z.backward(), T), x.grad
    same_outcome(scenario)


def test_article_add_saves_nothing():
    def scenario(T):
        x = T.tensor([1, 1, 1], dtype=T.float, requires_grad=True)
        y = T.tensor([2, 4, 6], dtype=T.float, requires_grad=True)
        z = T.add(x, y)
        tmp = y.detach()
        tmp.mul_(2)
        z.sum().backward()
        return x.grad, y.grad, y
    same_outcome(scenario)


def test_article_detach_then_setitem():
    def scenario(T):
        x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        z = y.detach()
        z[0] = 100.0
        y.sum().backward()
        return y, z, x.grad, y._version
    same_outcome(scenario)


def test_article_setitem_on_leaf_after_backward():
    def scenario(T):
        x = T.ones(2, 3)
        y = T.ones(2, 3, requires_grad=True)
        loss = (x + y).sum()
        loss.backward()
        err = outcome(lambda _: y.__setitem__((0, 0), 0.5), T)
        y = y.detach()
        y[0, 0] = 0.5
        return err, y, loss
    same_outcome(scenario)


SCALAR_OF_GRAD = """
import warnings, math
import {lib} as torch
r = torch.ones(2, requires_grad=True)
seen = []
for convert in (int, bool, lambda t: t.item(), float, float, complex, math.exp):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        convert(r[0])
    seen.append([(w.category.__name__, str(w.message)) for w in caught])
print(seen)
"""


def test_float_of_tensor_requiring_grad_warns_once_per_process():
    """float()/complex() warn once per process (torch's TORCH_WARN_ONCE); a fresh interpreter
    per library, since the "once" is process state."""
    import subprocess
    import sys

    def run(lib):
        return subprocess.run([sys.executable, "-c", SCALAR_OF_GRAD.format(lib=lib)],
                              capture_output=True, text=True, check=True).stdout

    ours, theirs = run("doctensor"), run("torch")
    assert ours == theirs
    assert "Converting a tensor with requires_grad=True" in theirs
