"""The autograd graph against torch 2.13: CopySlices, view rules, hooks, grad/backward, errors.

Each scenario is a small program run under torch and under doctensor (``torch`` names the
library inside it); what it leaves in ``out``, or the error it raises, must be the same:
values, dtypes, strides, ``requires_grad``, ``is_leaf``, ``grad_fn`` names, and error
messages word for word.
"""

import textwrap
import warnings

import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import Raised, assert_same

import doctensor


def run(src, T, **extra):
    """Run scenario ``src`` with ``torch`` bound to ``T``; its ``out`` or its exception."""
    env = {"torch": T, "names": names, **extra}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(textwrap.dedent(src), env)
        except Exception as e:  # noqa: BLE001 - the error is the outcome under test
            return Raised(e)
    return env.get("out")


def names(fns):
    """grad_fn / next_functions as names (objects differ between libraries)."""
    return [None if f is None else type(f).__name__ for f, _ in fns]


SCENARIOS = {
    # -- in-place restrides: t_ and transpose_ ----------------------------------------------------
    "t_inplace": """
        x = torch.ones(2, 3, requires_grad=True); y = x.clone(); y.t_()
        (y * torch.arange(2.)).sum().backward()
        b = torch.arange(3.); b.t_(); c = torch.arange(6.).view(2, 3); c.t_()
        out = y, y.grad_fn.name(), y.stride(), y._version, x.grad, b._version, c, c.stride()""",
    "prod_dim_with_zeros": """
        x = torch.tensor([[1., 2., 0.], [3., 0., 0.], [2., 2., 2.]], requires_grad=True)
        y = x.prod(1); z = x.prod(0, keepdim=True); (y.sum() + (z * 2).sum()).backward()
        out = y, z, y.grad_fn.name(), x.grad, torch.arange(12).view(3, 4).prod(1)""",
    "t_inplace_errors": """
        x = torch.ones(2, 2, 2); x.t_()""",
    "transpose_inplace": """
        x = torch.ones(2, 3, requires_grad=True); y = x.clone(); y.transpose_(0, 1)
        out = y.grad_fn.name(), y.stride(), y._version""",
    "squeeze_unsqueeze_inplace": """
        b = torch.ones(1, 3, 1, requires_grad=True)
        out = []
        for f in (lambda x: x.squeeze_(), lambda x: x.squeeze_(0), lambda x: x.squeeze_((0, 2)),
                  lambda x: x.squeeze_(-1), lambda x: x.unsqueeze_(1), lambda x: x.unsqueeze_(-1),
                  lambda x: x.swapdims_(0, 1), lambda x: x.swapaxes_(2, 0)):
            x = b * torch.arange(3.).view(1, 3, 1)
            r = f(x)
            (x * x).sum().backward()
            out.append((r is x, x.shape, x.stride(), x.grad_fn.name(), x._version, b.grad))
            b.grad = None
        c = torch.arange(6.).view(2, 1, 3); v = c[1]; v.unsqueeze_(0); c.squeeze_(1)
        out.append((c, c.stride(), c._version, v, v.stride(), v.storage_offset()))""",
    "restride_a_view_with_history": """
        out = []
        for f in (lambda v: v.t_(), lambda v: v.transpose_(0, 1), lambda v: v.squeeze_(),
                  lambda v: v.unsqueeze_(0), lambda v: v.unsqueeze_(0).squeeze_()):
            leaf = torch.arange(12.0).reshape(3, 4).requires_grad_()
            z = leaf * 2
            v = z[:, :]
            f(v)
            out.append((z.grad_fn.name(), v.grad_fn.name(), names(v.grad_fn.next_functions),
                        v._version, z._version, v.shape, v._base is z))
            (v * torch.arange(12.).view(v.shape)).sum().backward()
            out.append(leaf.grad)""",
    "restride_a_view_then_its_base": """
        leaf = torch.arange(12.0).reshape(3, 4).requires_grad_()
        z = leaf * 2; v = z[1:, :]; v.t_(); z.mul_(2)
        out = [v.grad_fn.name(), v._version, v.stride()]
        (v * torch.arange(8.).view(v.shape)).sum().backward(); out.append(leaf.grad)
        leaf.grad = None
        z = leaf * 2; v = z[:, 1:]; v.unsqueeze_(0); w = v * 3; v.squeeze_(0)
        (w.sum() + v.sum()).backward(); out += [v.grad_fn.name(), leaf.grad]""",
    "squeeze_unsqueeze_inplace_errors_dim": """
        torch.ones(2, 3).squeeze_(5)""",
    "squeeze_unsqueeze_inplace_errors_unsqueeze_dim": """
        torch.ones(2, 3).unsqueeze_(-4)""",
    "squeeze_unsqueeze_inplace_errors_leaf": """
        torch.ones(1, 3, requires_grad=True).squeeze_()""",
    "squeeze_unsqueeze_inplace_errors_view_of_leaf": """
        torch.ones(1, 3, requires_grad=True).view(3, 1).unsqueeze_(0)""",
    # -- CopySlices: in-place through views of tensors with history -----------------------------
    "setitem_copyslices": """
        x = torch.ones(3, requires_grad=True); y = x.clone(); y[0] = 5
        out = y, names(y.grad_fn.next_functions), y.grad_fn.name()""",
    "view_mul_": """
        x = torch.ones(3, requires_grad=True); w = torch.full((2,), 3., requires_grad=True)
        y = x.clone(); v = y[1:]; v.mul_(w); y.sum().backward()
        out = y, v, v.grad_fn.name(), x.grad, w.grad, y._version, v._version""",
    "view_of_view": """
        x = torch.arange(6., requires_grad=True); y = x * 2; v = y.view(2, 3)[1]; w = v[1:]
        w.mul_(w.detach() + 1); (y * y).sum().backward()
        out = y, v, w, x.grad, y._version, names(y.grad_fn.next_functions)""",
    "view_then_base_inplace": """
        x = torch.arange(4., requires_grad=True); y = x * 1; v = y[1:3]; y.mul_(2)
        out = v, v.grad_fn.name(); v.sum().backward(); out = out + (x.grad,)""",
    "copyslices_create_graph": """
        x = torch.arange(4., requires_grad=True); y = torch.zeros(4).add_(x); y[1:3].mul_(x[:2])
        g = torch.autograd.grad((y * y).sum(), x, create_graph=True)[0]
        out = g, g.grad_fn.name(), names(g.grad_fn.next_functions), g._version
        out += (torch.autograd.grad((g * g).sum(), x)[0],)""",
    "copyslices_create_graph_strided_base": """
        x = torch.arange(6., requires_grad=True).view(2, 3)
        y = torch.zeros(3, 2).t().add_(x); y[:, 1].mul_(3)
        g = torch.autograd.grad((y * y).sum(), x, create_graph=True)[0]
        out = g, g.stride(), g.grad_fn.name(), g._version, torch.autograd.grad(g.sum(), x)[0]""",
    "setitem_tensor_value": """
        x = torch.ones(3, requires_grad=True); w = torch.tensor(4., requires_grad=True)
        y = x * 2; y[1] = w * w; (y * y).sum().backward(); out = y, x.grad, w.grad""",
    "setitem_into_no_grad_base": """
        w = torch.tensor([2., 3.], requires_grad=True); y = torch.zeros(4); y[1:3] = w * 2
        y.sum().backward(); out = y, y.grad_fn.name(), w.grad""",
    "transposed_base": """
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True); y = x.t().clone().t()
        y[0].mul_(3); y[:, 1].add_(x[0])
        out = y, torch.autograd.grad((y * y).sum(), x)""",
    "copyslices_double_backward": """
        x = torch.tensor([1., 2., 3.], requires_grad=True); y = x.clone(); y[1:].mul_(x[1:])
        g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        out = g, torch.autograd.grad(g.sum(), x)""",
    "detach_of_view": """
        x = torch.ones(3, requires_grad=True); y = x * 2; d = y[1:].detach(); d.mul_(5)
        out = y, d, d.requires_grad, d._version, y._version""",
    "inplace_on_view_of_leaf": """
        x = torch.ones(4, requires_grad=True); v = x[:2]; v.mul_(2)""",
    "inplace_on_leaf": """
        x = torch.ones(4, requires_grad=True); x.add_(1)""",
    "inplace_on_leaf_no_grad": """
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            x[0].mul_(2); x.mul_(2)
        out = x, x.is_leaf, x._version""",
    "saved_tensor_modified": """
        x = torch.arange(4., requires_grad=True); y = x * 1; z = y * y; y.add_(1)
        z.sum().backward()""",
    "saved_result_modified": """
        x = torch.ones(4, requires_grad=True); y = x.exp(); y.mul_(2); y.sum().backward()""",
    "saved_through_view_modified": """
        x = torch.arange(4., requires_grad=True); y = x * 1; w = y[1:] * y[1:]; y.add_(1)
        w.sum().backward()""",
    "sigmoid_saves_result_only": """
        x = torch.arange(4., requires_grad=True); y = x * 1; z = y.sigmoid(); y.add_(1)
        z.sum().backward(); out = x.grad""",
    # -- multi-output views ------------------------------------------------------------------
    "unbind_inplace": """
        x = torch.ones(3, requires_grad=True); a, b, c = x.clone().unbind(); a.mul_(2)""",
    "split_inplace": """
        x = torch.ones(4, requires_grad=True); a, b = x.clone().split(2); a.mul_(2)""",
    "split_sizes_inplace": """
        x = torch.ones(4, requires_grad=True); a, b = x.clone().split([1, 3]); b.add_(1)""",
    "chunk_inplace": """
        x = torch.ones(4, requires_grad=True); a, b = (x * 1).chunk(2); b[0] = 3""",
    "unbind_view_of_output_inplace": """
        x = torch.ones(3, requires_grad=True); y = x.clone(); a = y.unbind()[0]; b = a[...]
        b.mul_(2)""",
    "unbind_base_modified_then_grad_fn": """
        x = torch.ones(3, requires_grad=True); y = x.clone(); a = y.unbind()[0]; y.mul_(2)
        out = a.grad_fn""",
    "unbind_base_modified_then_use": """
        x = torch.ones(3, requires_grad=True); y = x.clone(); a = y.unbind()[0]; y.mul_(2)
        a.sum().backward()""",
    "unbind_no_requires_grad_ok": """
        x = torch.ones(3); a = x.unbind()[0]; a.mul_(2); out = x""",
    "unbind_of_leaf_copy_into": """
        x = torch.ones(3, requires_grad=True); y = x.clone(); a = x.unbind()[0]
        y.unbind()[1].copy_(a)""",
    "unbind_detach_ok": """
        x = torch.ones(3, requires_grad=True); a = x.unbind()[0]; out = a.detach().mul_(2), x""",
    "unbind_backward": """
        x = torch.arange(6., requires_grad=True); a, b = x.view(2, 3).unbind()
        (a * b).sum().backward(); out = x.grad, a.grad_fn.name(), a.output_nr, b.output_nr""",
    "split_backward_unused_piece": """
        x = torch.arange(5., requires_grad=True); a, b, c = x.split(2)
        (b * 3).sum().backward(); out = x.grad""",
    # -- views made in no_grad mode ------------------------------------------------------------
    "no_grad_view_flags": """
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            a = x[0]
        out = a.requires_grad, a._base is x, a.grad_fn, a.is_leaf""",
    "no_grad_view_inplace": """
        x = torch.ones(3, requires_grad=True); y = x.clone()
        with torch.no_grad():
            a = y[0]
        a.mul_(2)""",
    "no_grad_view_of_view_inplace": """
        x = torch.ones(3, requires_grad=True); y = x * 1
        with torch.no_grad():
            a = y[0]
        b = a[...]; b.mul_(2)""",
    "no_grad_view_inplace_in_no_grad": """
        x = torch.ones(3, requires_grad=True); y = x.clone()
        with torch.no_grad():
            a = y[0]; a.mul_(2)
        out = y, a._version""",
    # -- hooks --------------------------------------------------------------------------------
    "leaf_hook": """
        x = torch.ones(3, requires_grad=True); h = x.register_hook(lambda g: g * 2)
        (x * 3).sum().backward(); out = x.grad""",
    "leaf_hook_removed": """
        x = torch.ones(3, requires_grad=True); h = x.register_hook(lambda g: g * 2); h.remove()
        (x * 3).sum().backward(); out = x.grad""",
    "leaf_hooks_chain": """
        x = torch.ones(3, requires_grad=True); seen = []
        x.register_hook(lambda g: g + 1); x.register_hook(lambda g: seen.append(g.clone()))
        (x * 3).sum().backward(); out = x.grad, seen""",
    "nonleaf_hook": """
        x = torch.ones(3, requires_grad=True); y = x * 2; y.register_hook(lambda g: g * 10)
        (y * y).sum().backward(); out = x.grad""",
    "nonleaf_hook_remove_context": """
        x = torch.ones(3, requires_grad=True); y = x * 2
        with y.register_hook(lambda g: g * 10):
            pass
        y.sum().backward(); out = x.grad""",
    "hook_on_no_grad_tensor": """
        torch.ones(3).register_hook(lambda g: g)""",
    "retain_grad": """
        x = torch.ones(3, requires_grad=True); y = x * 2; y.retain_grad(); z = y * y
        z.sum().backward(); out = y.grad, y.retains_grad, x.retains_grad, z.retains_grad""",
    "retain_grad_after_hook": """
        x = torch.ones(4, requires_grad=True); y = x * 1; y.retain_grad()
        y.register_hook(lambda g: g * 10); (y * x).sum().backward(); out = y.grad, x.grad""",
    "retain_grad_leaf_noop": """
        x = torch.ones(4, requires_grad=True); x.retain_grad(); x.register_hook(lambda g: g * 10)
        (x * 2).sum().backward(); out = x.grad, x.retains_grad""",
    "retain_grad_twice_backward": """
        x = torch.ones(2, requires_grad=True); y = x * 2; y.retain_grad(); z = (y * y).sum()
        z.backward(retain_graph=True); z.backward(); out = y.grad, x.grad""",
    "nonleaf_grad_warning_value": """
        x = torch.ones(2, requires_grad=True); y = x * 2; y.sum().backward(); out = y.grad""",
    "node_hooks": """
        x = torch.ones(3, requires_grad=True); y = x * 2; seen = []
        y.grad_fn.register_hook(lambda gi, go: seen.append((gi, go)))
        y.sum().backward(); out = seen""",
    "node_prehook": """
        x = torch.ones(3, requires_grad=True); y = x * 2
        y.grad_fn.register_prehook(lambda go: (go[0] * 5,)); y.sum().backward(); out = x.grad""",
    "node_hook_replaces": """
        x = torch.ones(3, requires_grad=True); y = x * x
        y.grad_fn.register_hook(lambda gi, go: (gi[0] * 7, gi[1])); y.sum().backward()
        out = x.grad""",
    "node_hook_wrong_count": """
        x = torch.ones(3, requires_grad=True); y = x * 2
        y.grad_fn.register_hook(lambda gi, go: (gi[0] * 7,)); y.sum().backward()""",
    "post_accumulate_hook": """
        x = torch.ones(3, requires_grad=True); seen = []
        x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
        (x * 3).sum().backward(); (x * 3).sum().backward(); out = seen""",
    # -- the graph's structure ----------------------------------------------------------------
    "next_functions": """
        x = torch.ones(2, 2, requires_grad=True); y = (x * 1).exp().sum(0)
        n = y.grad_fn
        out = (n.name(), names(n.next_functions), names(n.next_functions[0][0].next_functions),
               n.next_functions[0][0].next_functions[0][0].next_functions[0][0].variable is x)""",
    "saved_attributes": """
        x = torch.ones(2, requires_grad=True); w = torch.full((2,), 3., requires_grad=True)
        y = x * w; e = x.exp()
        out = y.grad_fn._saved_self, y.grad_fn._saved_other, e.grad_fn._saved_result""",
    "saved_attributes_scalars_and_unsaved": """
        x = torch.ones(2, requires_grad=True)
        out = ((x * 2).grad_fn._saved_other, (x * 2.5).grad_fn._saved_other,
               (x * x.detach()).grad_fn._saved_self, x.pow(2).grad_fn._saved_exponent,
               (x / 4).grad_fn._saved_other)""",
    "saved_attribute_after_backward": """
        x = torch.ones(2, requires_grad=True); e = x.exp(); e.sum().backward()
        out = e.grad_fn._saved_result""",
    # -- torch.autograd.grad / backward --------------------------------------------------------
    "grad_basic": """
        x = torch.tensor([1., 2.], requires_grad=True)
        out = torch.autograd.grad((x * x).sum(), x)""",
    "grad_capture_before_hook_when_needed": """
        x = torch.ones(4, requires_grad=True); y = x * 1; y.register_hook(lambda g: g * 10)
        out = torch.autograd.grad((y * x).sum(), [y, x])""",
    "grad_leaf_hook_applied": """
        x = torch.ones(4, requires_grad=True); x.register_hook(lambda g: g * 10)
        out = torch.autograd.grad((x * 2).sum(), x)""",
    "grad_does_not_touch_grad": """
        x = torch.ones(4, requires_grad=True); y = x * 1; y.retain_grad()
        out = torch.autograd.grad((y * x).sum(), [x]), y.grad, x.grad""",
    "grad_unused": """
        x = torch.ones(4, requires_grad=True); y = torch.ones(4, requires_grad=True)
        out = torch.autograd.grad((x * 2).sum(), [x, y])""",
    "grad_allow_unused": """
        x = torch.ones(4, requires_grad=True); y = torch.ones(4, requires_grad=True)
        out = torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=True)""",
    "grad_materialize": """
        x = torch.ones(4, requires_grad=True); y = torch.ones(4, requires_grad=True)
        out = torch.autograd.grad((x * 2).sum(), [x, y], materialize_grads=True)""",
    "grad_materialize_not_unused": """
        x = torch.ones(4, requires_grad=True)
        torch.autograd.grad((x * 2).sum(), [x], allow_unused=False, materialize_grads=True)""",
    "grad_input_no_grad": """
        x = torch.ones(4, requires_grad=True); y = torch.ones(4)
        torch.autograd.grad((x * 2).sum(), [x, y])""",
    "grad_output_no_grad": """
        x = torch.ones(4, requires_grad=True); torch.autograd.grad(torch.ones(4).sum(), [x])""",
    "grad_empty_inputs": """
        x = torch.ones(4, requires_grad=True); torch.autograd.grad((x * 2).sum(), [])""",
    "grad_non_scalar": """
        x = torch.ones(4, requires_grad=True); torch.autograd.grad(x * 2, x)""",
    "grad_outputs": """
        x = torch.ones(3, requires_grad=True)
        out = torch.autograd.grad([x.sum(), (x * 2).sum()], x, [None, torch.tensor(3.)])""",
    "grad_outputs_shape": """
        x = torch.ones(4, requires_grad=True); (x * 2).backward(torch.ones(3))""",
    "grad_outputs_count": """
        x = torch.ones(3, requires_grad=True)
        torch.autograd.backward([x.sum(), x.sum()], [torch.tensor(1.)])""",
    "grad_of_nonleaf": """
        x = torch.ones(3, requires_grad=True); y = x * 2
        out = torch.autograd.grad((y * y).sum(), y)""",
    "grad_retain_graph": """
        x = torch.ones(3, requires_grad=True); y = (x.exp() * x).sum()
        a = torch.autograd.grad(y, x, retain_graph=True); b = torch.autograd.grad(y, x)
        out = a, b""",
    "grad_twice_error": """
        x = torch.ones(3, requires_grad=True); y = (x.exp()).sum()
        torch.autograd.grad(y, x); torch.autograd.grad(y, x)""",
    "backward_twice_error": """
        x = torch.ones(4, requires_grad=True); y = x.exp().sum(); y.backward(); y.backward()""",
    "backward_no_saved_twice_ok": """
        x = torch.ones(4, requires_grad=True); y = (x * 2).sum(); y.backward(); y.backward()
        out = x.grad""",
    "backward_non_scalar": """
        x = torch.ones(4, requires_grad=True); (x * 2).backward()""",
    "backward_no_grad_fn": """
        torch.ones(2).sum().backward()""",
    "backward_int_output": """
        x = torch.ones(2, requires_grad=True); (x * 2).sum().long().backward()""",
    "backward_inputs_nonleaf": """
        x = torch.ones(3, requires_grad=True); y = x * 2; (y * y).sum().backward(inputs=[y])
        out = y.grad, x.grad, y.retains_grad""",
    "backward_inputs_leaf": """
        x = torch.ones(3, requires_grad=True); w = torch.ones(3, requires_grad=True)
        (w * x).sum().backward(inputs=[x]); out = w.grad, x.grad""",
    "backward_inputs_empty": """
        x = torch.ones(4, requires_grad=True); torch.autograd.backward((x * 2).sum(), inputs=[])""",
    "backward_accumulates": """
        x = torch.ones(2, requires_grad=True); (x * 2).sum().backward(); (x * x).sum().backward()
        out = x.grad""",
    "backward_create_graph_grad": """
        x = torch.tensor([1., 2.], requires_grad=True); (x ** 3).sum().backward(create_graph=True)
        g = x.grad; out = g, g.requires_grad""",
    "grad_create_graph_double": """
        x = torch.tensor([1., 2.], requires_grad=True)
        g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
        h, = torch.autograd.grad(g.sum(), x, create_graph=True)
        out = g, h, torch.autograd.grad(h.sum(), x)""",
    "grad_set_and_errors": """
        x = torch.ones(2, requires_grad=True); x.grad = torch.ones(3)""",
    "requires_grad_nonleaf": """
        x = torch.ones(2, requires_grad=True); y = x * 2; y.requires_grad = False""",
    "requires_grad_true_on_nonleaf": """
        x = torch.ones(3, requires_grad=True); y = x * 2; y.requires_grad = True""",
    "requires_grad_method_on_nonleaf": """
        x = torch.ones(3, requires_grad=True); y = x * 2
        out = y.requires_grad_(True) is y, y.requires_grad""",
    "retain_grad_follows_inplace": """
        x = torch.ones(2, requires_grad=True); y = x * 2; y.retain_grad(); y.mul_(3)
        (y * 1).sum().backward(); out = y.grad, x.grad, y.retains_grad""",
    "retain_grad_of_view_follows_inplace": """
        x = torch.ones(3, requires_grad=True); y = x * 2; v = y[:2]; v.retain_grad(); v.mul_(2)
        y.sum().backward(); out = x.grad, v.grad""",
    "hook_stays_on_old_grad_fn": """
        x = torch.ones(2, requires_grad=True); y = x * 2; y.register_hook(lambda g: g * 100)
        y.mul_(3); (y * 1).sum().backward(); out = x.grad""",
    "hook_after_inplace": """
        x = torch.ones(2, requires_grad=True); y = x * 2; y.mul_(3)
        y.register_hook(lambda g: g * 100); (y * 1).sum().backward(); out = x.grad""",
    "hook_on_view": """
        x = torch.ones(3, requires_grad=True); y = x * 2; v = y[:2]
        v.register_hook(lambda g: g * 100); y.sum().backward(); out = x.grad""",
    "data_edit_not_seen": """
        x = torch.ones(3, requires_grad=True); y = x * 2; d = y.data; d.mul_(5)
        y.sum().backward(); out = y, x.grad, y._version, d._version""",
    "detach_nonleaf_inplace": """
        x = torch.ones(3, requires_grad=True); y = x * 2; z = y.detach_()
        out = z is y, y.requires_grad, y.grad_fn, y.is_leaf""",
    "detach_view_inplace": """
        x = torch.ones(3, requires_grad=True); y = x[1:]; y.detach_()""",
    "detach_view_of_plain_inplace": """
        x = torch.ones(3); y = x[1:]; y.detach_()""",
    "exp_result_saved_through_view": """
        x = torch.ones(3, requires_grad=True); y = x.exp(); z = y[0]; z.mul_(2)
        y.sum().backward()""",
    "setitem_on_saved_result": """
        x = torch.ones(3, requires_grad=True); y = x.sigmoid(); y[0] = 2; y.sum().backward()""",
    "copy_into_nonleaf": """
        x = torch.ones(3, requires_grad=True); w = torch.ones(3, requires_grad=True); y = x * 1
        y.copy_(w * 2); y.sum().backward(); out = x.grad, w.grad, y.grad_fn.name()""",
    "chained_setitems": """
        x = torch.ones(2, 2, requires_grad=True); y = x * 1; y[0][1] = 5; y[:, 0] *= 3
        y.sum().backward(); out = y, x.grad""",
    "index_put_on_view": """
        x = torch.ones(4, requires_grad=True); y = x * 1; v = y[1:]; v[torch.tensor([0, 2])] = 7
        y.sum().backward(); out = y, x.grad, v.grad_fn.name()""",
    "diagonal_add_": """
        x = torch.ones(2, 2, requires_grad=True); w = torch.tensor([1., 2.], requires_grad=True)
        y = x * 1; y.diagonal().add_(w); y.sum().backward(); out = y, x.grad, w.grad""",
    "grad_of_intermediate_and_leaf": """
        x = torch.ones(3, requires_grad=True); y = x * 2; z = y * 3
        out = (torch.autograd.grad(z.sum(), [x, y]),
               torch.autograd.grad((y * y).sum(), y, create_graph=True))""",
    "backward_inputs_after_retain": """
        x = torch.ones(3, requires_grad=True); y = (x * 2).sum(); y.backward(retain_graph=True)
        y.backward(inputs=[x]); out = x.grad""",
    "is_graph_node": """
        x = torch.ones(3, requires_grad=True)
        out = isinstance((x * 2).grad_fn, torch.autograd.graph.Node)""",
    "requires_grad_int": """
        torch.ones(2, dtype=torch.long).requires_grad_()""",
    # -- node introspection ----------------------------------------------------------------------
    "accumulate_grad_name": """
        x = torch.ones(2, requires_grad=True)
        acc = (x * 2).sum().grad_fn.next_functions[0][0].next_functions[0][0]
        out = acc.name(), type(acc).__name__""",
    "saved_names_in_dir": """
        x = torch.ones(2, 3, requires_grad=True); y = torch.ones(2, 3, requires_grad=True)
        nodes = [(x * y).grad_fn, (x * 2).grad_fn, x.exp().grad_fn, (x ** 2).grad_fn,
                 x.transpose(0, 1).grad_fn, x.unsqueeze(0).grad_fn, x.log().grad_fn,
                 x.permute(1, 0).grad_fn, torch.where(x > 0, x, y).grad_fn, x.neg().grad_fn,
                 x.clone().grad_fn]
        out = [[a for a in dir(g) if a.startswith("_saved")] for g in nodes]""",
    # -- AccumulateGrad: steal or copy, and .grad._version (Note [stealing gradients]) ----------
    "grad_version_first_and_second": """
        out = []
        for f in [lambda w, x: (x + w).sum(), lambda w, x: (x * w).sum(), lambda w, x: w.sum(),
                  lambda w, x: (w * 2).sum(), lambda w, x: w.clone().sum(),
                  lambda w, x: w.view(3).sum(), lambda w, x: w.expand(2, 3).sum(),
                  lambda w, x: w.mean(), lambda w, x: w.double().sum()]:
            w = torch.ones(3, requires_grad=True); x = torch.arange(3.)
            f(w, x).backward(); g = w.grad; first = g._version, g.stride()
            f(w, x).backward()
            out.append((first, w.grad._version, w.grad is g, w.grad.data_ptr() == g.data_ptr()))""",
    "grad_version_user_gradient": """
        out = []
        # (not w.view(3): torch steals the view that ViewBackward makes of a user's gradient,
        # so w.grad aliases it; doctensor copies it: Note [stealing gradients])
        for f in [lambda w: w, lambda w: w + 1, lambda w: w * 1, lambda w: w[:],
                  lambda w: w.expand(3)]:
            w = torch.ones(3, requires_grad=True); g = torch.ones(3)
            f(w).backward(g); out.append((w.grad._version, w.grad is g))""",
    "grad_version_zero_dim": """
        out = []
        for f in [lambda w: w, lambda w: w.sum(), lambda w: w.view(()), lambda w: w.sum().sum(),
                  lambda w: w.expand(()), lambda w: w + 0, lambda w: w.sum() * 1]:
            w = torch.tensor(1.5, requires_grad=True); f(w).backward(); g = w.grad
            first = g._version, g._is_view(), g._base is None
            f(w).backward()
            out.append((first, w.grad._version, w.grad is g, w.grad))
        w = torch.tensor(1.5, requires_grad=True); w.register_hook(lambda g: None)
        w.sum().backward(); out.append(w.grad._version)
        w = torch.tensor(1.5, requires_grad=True); w.sum().backward(create_graph=True)
        out.append((w.grad._version, w.grad.grad_fn))""",
    "grad_version_layouts": """
        out = []
        w = torch.ones(3, 2).t().requires_grad_(); (w + 1).sum().backward()
        out.append((w.grad._version, w.grad.stride()))
        w = torch.ones(3, 2).t().requires_grad_(); (w * 2).sum().backward()
        out.append((w.grad._version, w.grad.stride()))
        w = torch.empty_strided((2, 3), (0, 1)).fill_(1.).requires_grad_()
        (w + 1).sum().backward(); out.append((w.grad._version, w.grad.stride()))
        w = torch.ones(3, requires_grad=True); y = torch.ones(3, requires_grad=True)
        (w + y).sum().backward(); out.append((w.grad._version, y.grad._version))
        w = torch.ones(3, requires_grad=True); w.register_hook(lambda g: g * 1)
        (w + 1).sum().backward(); out.append(w.grad._version)
        w = torch.ones(3, requires_grad=True)
        out.append(torch.autograd.grad((w + 1).sum(), w)[0]._version)""",
    "grad_version_create_graph": """
        out = []
        for w, f in [(torch.ones(3, requires_grad=True), lambda w: (w * 2).sum()),
                     (torch.ones(3, requires_grad=True), lambda w: (w * w).sum()),
                     (torch.ones(3, 2).t().requires_grad_(), lambda w: (w * w).sum()),
                     (torch.empty_strided((2, 3), (0, 1)).fill_(1.).requires_grad_(),
                      lambda w: (w * w).sum())]:
            f(w).backward(create_graph=True); g = w.grad
            out.append((g._version, g.stride(), g.grad_fn and g.grad_fn.name()))
            f(w).backward(create_graph=True); out.append((w.grad._version, w.grad is g))""",
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_torch(name):
    assert_same(run(SCENARIOS[name], doctensor), run(SCENARIOS[name], torch))


# Note [views of a base without history]: such views require grad once the base gains it.
BASE_GAINS_HISTORY = {
    "view": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; y.add_(w)
        z = v * 3; z.sum().backward(); out = v.requires_grad, z.grad_fn.name(), w.grad""",
    "view_fields": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; y.add_(w)
        out = v.requires_grad, v.is_leaf, v.grad_fn.name(), v._version, v.retains_grad""",
    "view_of_view": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(2, 3); v = y[1]; u = v[1:]
        y.add_(w); out = v.requires_grad, u.requires_grad, u.grad_fn.name(), v.grad_fn.name()
        (u * 3).sum().backward(); out += (w.grad, u._base is y)""",
    "view_after_gain": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; y.add_(w)
        u = v[1:]; out = u.requires_grad, u.grad_fn.name(), v.grad_fn.name()""",
    "sibling_view_inplace": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); a = y[:2]; b = y[1:]
        a.add_(w); out = y.requires_grad, b.requires_grad, b.grad_fn.name(), y.grad_fn.name()
        (b * 1).sum().backward(); out += (w.grad,)""",
    "two_inplace_ops": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; y.add_(w)
        y.mul_(w); out = v.requires_grad, v.grad_fn.name(); (v * 1).sum().backward()
        out += (w.grad,)""",
    "transpose_and_unsqueeze": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(2, 3); v = y.t()
        e = y.unsqueeze(0); y.mul_(w); out = v.requires_grad, v.grad_fn.name(), e.grad_fn.name()""",
    "no_grad_view_flag": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3)
        with torch.no_grad(): v = y[1:]
        y.add_(w); out = v.requires_grad""",
    "no_grad_view_used": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3)
        with torch.no_grad(): v = y[1:]
        y.add_(w); v * 3""",
    "inference_mode_view_flag": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3)
        with torch.inference_mode(): v = y[1:]
        y.add_(w); out = v.requires_grad""",
    "unbind_views": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(2, 3); a, b = y.unbind()
        y.add_(w); out = a.requires_grad; a.grad_fn""",
    "detach_of_view": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; d = v.detach()
        y.add_(w); out = v.requires_grad, d.requires_grad, d.grad_fn, (d * 2).requires_grad""",
    "view_inplace_before_regeneration": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; y.add_(w)
        v.mul_(2)""",
    "view_inplace_after_is_leaf": """
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; y.add_(w)
        v.is_leaf; v.mul_(2); out = v.grad_fn.name(), y.grad_fn.name(); y.sum().backward()
        out += (w.grad,)""",
    "copy_into_base": """
        w = torch.ones(3, requires_grad=True); y = torch.zeros(3); v = y[:2]; y.copy_(w * 2)
        out = v.requires_grad, v.grad_fn.name(); (v * v).sum().backward(); out += (w.grad,)""",
    "setitem_into_base": """
        w = torch.ones(2, requires_grad=True); y = torch.zeros(4); v = y[1:]; y[:2] = w
        out = v.requires_grad, v.grad_fn.name(); v.sum().backward(); out += (w.grad,)""",
    "custom_function_dirty": """
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, w):
                ctx.mark_dirty(x); return x.add_(w)
            @staticmethod
            def backward(ctx, g):
                return g, g.sum()
        w = torch.tensor(2., requires_grad=True); y = torch.zeros(3); v = y[1:]; F.apply(y, w)
        out = v.requires_grad, v.grad_fn.name(); v.sum().backward(); out += (w.grad,)""",
    # -- base.requires_grad_(): its views require grad through it, with no grad_fn and no
    # AccumulateGrad of their own (an op on one records no edge into it) ------------------------
    "requires_grad_view": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_()
        out = v.requires_grad, v.grad_fn, v.is_leaf, v.retains_grad; z = v * 2
        out += (z.requires_grad, z.grad_fn.name(), names(z.grad_fn.next_functions))
        z.sum().backward(); out += (y.grad, v.grad)""",
    "requires_grad_slice": """
        y = torch.zeros(3); v = y[1:]; y.requires_grad_(); out = v.requires_grad, v.grad_fn
        v.sum().backward(); out += (y.grad, v.grad)""",
    "requires_grad_attribute": """
        y = torch.zeros(3); v = y[1:]; y.requires_grad = True; out = v.requires_grad, v.is_leaf
        y.requires_grad = False; out += (v.requires_grad,)""",
    "requires_grad_views_of_views": """
        y = torch.zeros(4); v = y[1:]; u = v[1:]; t = y[1:][::2].unsqueeze(0); y.requires_grad_()
        out = v.requires_grad, u.requires_grad, t.requires_grad, u.grad_fn, t.is_leaf
        (u * t).sum().backward(); out += (y.grad, u.grad, t.grad)""",
    "requires_grad_view_op_of_view": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_(); u = v[1:]
        out = u.requires_grad, u.grad_fn.name(), names(u.grad_fn.next_functions)
        u.sum().backward(); out += (y.grad, v.grad)""",
    "requires_grad_no_grad_views": """
        y = torch.zeros(3)
        with torch.no_grad(): v = y[1:]; a, b = y.split(2)
        y.requires_grad_(); out = v.requires_grad, a.requires_grad, v.grad_fn, b.grad_fn
        (v * b).sum().backward(); out += (y.grad,); y.requires_grad_(False)
        out += (v.requires_grad, b.requires_grad)""",
    "requires_grad_false_again": """
        y = torch.zeros(3); v = y[1:]; y.requires_grad_(); out = v.requires_grad
        y.requires_grad_(False); out = out, v.requires_grad, v * 2; y.requires_grad_()
        out += (v.requires_grad, (v * 2).requires_grad)""",
    "requires_grad_false_unread": """
        y = torch.zeros(3); v = y[1:]; y.requires_grad_(); y.requires_grad_(False)
        out = v.requires_grad, (v * 2).requires_grad""",
    "requires_grad_view_own_flag": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_(); v.requires_grad_()
        out = v.requires_grad, v.is_leaf; (v * 2).sum().backward(); out += (y.grad, v.grad)
        y.requires_grad_(False); out += (v.requires_grad,)""",
    "requires_grad_view_own_flag_dropped": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_(); v.requires_grad_()
        (v * 2).sum().backward(); v.requires_grad_(False); out = v.requires_grad, v.grad
        (v * 3).sum().backward(); out += (v.grad, y.grad); y.requires_grad_(False)
        out += (v.requires_grad,)""",
    "requires_grad_view_flag_false": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_(); v.requires_grad_(False)
        out = v.requires_grad; v.requires_grad = False; out = (out, v.requires_grad)""",
    "own_flag_view_of_plain_base": """
        y = torch.zeros(3); v = y.view(3); v.requires_grad_(); out = v.requires_grad
        out = out, y.requires_grad; (v * 2).sum().backward(); out += (y.grad, v.grad)""",
    "own_flag_view_inplace": """
        y = torch.zeros(3); v = y.view(3); v.requires_grad_(); v.mul_(2)""",
    "requires_grad_view_inplace": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_(); v.mul_(2)""",
    "requires_grad_split_inplace": """
        y = torch.zeros(3); a, b = y.split(2); y.requires_grad_(); out = a.requires_grad
        a.mul_(2)""",
    "requires_grad_base_inplace_in_no_grad": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_()
        with torch.no_grad(): y.add_(1)
        out = v.requires_grad, v.grad_fn.name(); (v * 2).sum().backward(); out += (y.grad,)""",
    "requires_grad_view_inplace_in_no_grad": """
        y = torch.zeros(3); v = y.view(3); y.requires_grad_()
        with torch.no_grad(): v.mul_(2)
        out = v.requires_grad, v.grad_fn.name(), y.grad_fn; v.sum().backward(); out += (y.grad,)""",
    "requires_grad_int_base": """
        y = torch.zeros(3, dtype=torch.int64); v = y.view(3)
        try: y.requires_grad_()
        except RuntimeError: pass
        out = v.requires_grad""",
    "requires_grad_view_detach_deepcopy": """
        import copy
        y = torch.zeros(3); v = y.view(3); y.requires_grad_()
        out = v.detach().requires_grad, copy.deepcopy(v).requires_grad""",
    "no_grad_view_of_leaf": """
        x = torch.zeros(3, requires_grad=True)
        with torch.no_grad(): v = x[1:]; a, b, c = x.unbind()
        out = v.requires_grad, v.grad_fn, a.requires_grad; (v * 2 + a).sum().backward()
        out += (x.grad, v.grad, a.grad); x.requires_grad_(False)
        out += (v.requires_grad, a.requires_grad)""",
    "no_grad_view_of_non_leaf": """
        x = torch.ones(3, requires_grad=True); y = x * 1
        with torch.no_grad(): v = y[1:]
        out = v.requires_grad, v.grad_fn; (v * 2).sum().backward(); out += (x.grad, v.grad)""",
}


@pytest.mark.parametrize("name", sorted(BASE_GAINS_HISTORY))
def test_views_see_base_gain_history(name):
    src = BASE_GAINS_HISTORY[name]
    assert_same(run(src, doctensor), run(src, torch))
