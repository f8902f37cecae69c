"""Custom ``torch.autograd.Function`` against torch 2.13 (Note [custom Function]).

Scenarios run under both libraries (``torch`` names the library inside); outputs, gradients,
``grad_fn`` names and error messages must agree.
"""

import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import assert_same
from test_autograd_graph import run

import doctensor

EXP = """
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
"""

EXP_SETUP = """
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
"""

DIRTY = """
class Double_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2
"""

IDENTITY = """
class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3
"""


def simple(backward, forward="return x * 1", args="ctx, x"):
    return f"""
class G(torch.autograd.Function):
    @staticmethod
    def forward({args}):
        {forward}

    @staticmethod
    def backward(ctx, g):
        {backward}
"""


SCENARIOS = {
    "exp": EXP + """
x = torch.zeros(3, requires_grad=True); y = Exp.apply(x); y.sum().backward()
out = (y, x.grad, y.grad_fn.name(), type(y.grad_fn).__name__,
       y.grad_fn.next_functions[0][0].variable is x, y.grad_fn.needs_input_grad,
       y.grad_fn is y.grad_fn, len(y.grad_fn.saved_tensors))""",
    "exp_saved_modified": EXP + """
x = torch.zeros(3, requires_grad=True); y = Exp.apply(x); y.mul_(2); y.sum().backward()""",
    "exp_saved_freed": EXP + """
x = torch.zeros(3, requires_grad=True); y = Exp.apply(x); y.sum().backward()
y.grad_fn.saved_tensors""",
    "exp_no_grad_input": EXP + """
y = Exp.apply(torch.zeros(3)); out = y, y.grad_fn, y.requires_grad""",
    "exp_under_no_grad": EXP + """
x = torch.zeros(3, requires_grad=True)
with torch.no_grad():
    y = Exp.apply(x)
out = y, y.requires_grad""",
    "setup_context_double_backward": EXP_SETUP + """
x = torch.zeros(3, requires_grad=True); y = Exp.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
out = y, g, torch.autograd.grad(g.sum(), x)""",
    "non_tensor_args_and_outputs": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k, (x > 0), k
    @staticmethod
    def backward(ctx, g, gm, gk):
        return g * ctx.k, None
x = torch.tensor([-1., 2.], requires_grad=True); y, m, k = F.apply(x, 3)
y.sum().backward(); out = y, m, m.requires_grad, k, x.grad""",
    "mark_non_differentiable": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        a = x * 2; b = x * 3; ctx.mark_non_differentiable(b); return a, b
    @staticmethod
    def backward(ctx, ga, gb):
        return ga * 2 + gb
x = torch.tensor([-1., 2.], requires_grad=True); a, b = F.apply(x); a.sum().backward()
out = a, b, b.requires_grad, x.grad""",
    "materialized_zero_grads": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, ga, gb):
        return ga + gb
x = torch.tensor([-1., 2.], requires_grad=True); a, b = F.apply(x); a.sum().backward()
out = x.grad""",
    "set_materialize_grads_false": """
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False); return x * 2, x * 3
    @staticmethod
    def backward(ctx, ga, gb):
        return ga if gb is None else ga + gb
x = torch.tensor([-1., 2.], requires_grad=True); a, b = F.apply(x); a.sum().backward()
out = x.grad""",
    "mark_dirty_leaf": DIRTY + """
x = torch.ones(3, requires_grad=True); Double_.apply(x)""",
    "mark_dirty_view": DIRTY + """
x = torch.ones(3, requires_grad=True); y = x.clone(); v = y[:2]; o = Double_.apply(v)
y.sum().backward(); out = o, y, o is v, x.grad, o.grad_fn.name(), y.grad_fn.name()""",
    "mark_dirty_nonleaf": DIRTY + """
x = torch.ones(3, requires_grad=True); y = x * 1; o = Double_.apply(y); o.sum().backward()
out = o, o is y, x.grad, o.grad_fn.name(), y._version""",
    "input_returned_as_is": IDENTITY + """
x = torch.ones(3, requires_grad=True); o = Same.apply(x); (o * 1).sum().backward()
out = o, o is x, o._base is x, x.grad""",
    "input_returned_as_is_inplace": IDENTITY + """
x = torch.ones(3, requires_grad=True); o = Same.apply(x); o.mul_(2)""",
    "too_many_grads": simple("return g, g") + """
x = torch.ones(3, requires_grad=True); G.apply(x).sum().backward()""",
    "extra_none_grads_ok": simple("return g, None, None") + """
x = torch.ones(3, requires_grad=True); G.apply(x).sum().backward(); out = x.grad""",
    "grad_for_non_tensor": simple("return g, g", "return x * n", "ctx, x, n") + """
x = torch.ones(3, requires_grad=True); G.apply(x, 2).sum().backward()""",
    "grad_wrong_shape": simple("return torch.ones(2)") + """
x = torch.ones(3, requires_grad=True); G.apply(x).sum().backward()""",
    "grad_broadcast_shape_summed": simple("return torch.ones(2, 3)") + """
x = torch.ones(3, requires_grad=True); G.apply(x).sum().backward(); out = x.grad""",
    "grad_dtype_cast": simple("return g.double()") + """
x = torch.ones(3, requires_grad=True); G.apply(x).sum().backward(); out = x.grad""",
    "save_non_tensor": simple("return g", "ctx.save_for_backward(x, 1); return x * 1") + """
G.apply(torch.ones(3, requires_grad=True))""",
    "no_backward": """
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
x = torch.ones(3, requires_grad=True); G.apply(x).sum().backward()""",
    "no_forward": """
class G(torch.autograd.Function):
    pass
G.apply(torch.ones(3))""",
    "legacy_call": simple("return g") + """
G()(torch.ones(2))""",
    "once_differentiable": """
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x); return x * x
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors; return 2 * g * x
x = torch.ones(3, requires_grad=True); o = G.apply(x)
g, = torch.autograd.grad(o.sum(), x, create_graph=True); out = g, g.requires_grad
g.sum().backward()""",
    "once_differentiable_twice": """
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x); return x * x
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors; return 2 * g * x
x = torch.ones(3, requires_grad=True); v = torch.ones(3, requires_grad=True); o = G.apply(x)
g, = torch.autograd.grad(o, x, v, create_graph=True); out = g, g.requires_grad
g.sum().backward()""",
    "needs_input_grad": simple("return g, g", "ctx.save_for_backward(x); return x * y",
                               "ctx, x, y") + """
x = torch.ones(3, requires_grad=True); o = G.apply(x, torch.ones(3))
out = (o.grad_fn.needs_input_grad, o.requires_grad,
       G.apply(torch.ones(2), torch.ones(2)).requires_grad)""",
    "saved_input_modified": simple("return g", "ctx.save_for_backward(x); return x * 1") + """
x = torch.ones(3, requires_grad=True); y = x * 1; o = G.apply(y); y.add_(1); o.sum().backward()""",
    "views_returned": """
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0], x[1]
    @staticmethod
    def backward(ctx, a, b):
        return torch.stack([a, b])
x = torch.ones(2, 3, requires_grad=True); a, b = G.apply(x * 1); (a * 2 + b).sum().backward()
out = a, x.grad""",
    "two_view_outputs_inplace": """
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0], x[1]
    @staticmethod
    def backward(ctx, a, b):
        return torch.stack([a, b])
x = torch.ones(2, 3, requires_grad=True); a, b = G.apply(x * 1)
a.mul_(2)""",
    "view_output_inplace": """
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        return y[0]
    @staticmethod
    def backward(ctx, a):
        return a.expand(2, 3)
x = torch.ones(2, 3, requires_grad=True); a = G.apply(x); out = a._base is None
a.mul_(2)""",
    "mark_dirty_view_of_plain_base": """
class D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        x.mul_(w); ctx.mark_dirty(x); ctx.save_for_backward(w); return x
    @staticmethod
    def backward(ctx, g):
        w, = ctx.saved_tensors
        return g * w, None
w = torch.tensor(3., requires_grad=True); y = torch.ones(3); v = y[1:]; o = D.apply(v, w)
out = o, y, y.grad_fn.name(), o._version""",
    "hooks_on_custom_node": EXP + """
x = torch.zeros(3, requires_grad=True); y = Exp.apply(x); seen = []
y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
y.grad_fn.register_hook(lambda gi, go: seen.append(len(gi)))
y.sum().backward(); out = x.grad, seen""",
    "custom_attribute_on_ctx": """
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.scale = 4.0; return x * 4
    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale
x = torch.ones(2, requires_grad=True); y = G.apply(x); y.sum().backward()
out = x.grad, y.grad_fn.scale""",
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_custom_function_matches_torch(name):
    assert_same(run(SCENARIOS[name], doctensor), run(SCENARIOS[name], torch))


def test_gradcheck_custom_function():
    T = doctensor
    ns = {"torch": T}
    exec(EXP, ns)
    x = T.tensor([0.5, -1.0, 2.0], dtype=T.float64, requires_grad=True)
    assert T.autograd.gradcheck(ns["Exp"].apply, (x,))
    assert T.autograd.gradgradcheck(ns["Exp"].apply, (x,))


def test_mark_dirty_bumps_version_without_graph():
    src = DIRTY + """
x = torch.ones(3); Double_.apply(x)
y = torch.ones(3, requires_grad=True)
with torch.no_grad():
    z = y * 1; Double_.apply(z)
out = x, x._version, z, z._version"""
    assert_same(run(src, doctensor), run(src, torch))
