"""A module's backward hooks (register_full_backward_hook, register_full_backward_pre_hook and
the deprecated register_backward_hook), compared with torch 2.13: what the hooks receive, what
their results change, the nodes they add, torch's errors and warnings (Grad-CAM and gradient
inspection code use them)."""

import warnings

import pytest
from _oracle import same_outcome


def _linear(T, n_in=3, n_out=2):
    T.manual_seed(0)
    return T.nn.Linear(n_in, n_out)


def _full_hook_sees(T, log):
    m = _linear(T)
    m.register_full_backward_hook(lambda mod, gi, go: log.append((type(mod).__name__, gi, go)))
    x = T.ones(1, 3, requires_grad=True)
    y = m(x)
    y.sum().backward()
    return y, x.grad, m.weight.grad


def _hook_replaces_grad_input(T, log):
    m = _linear(T)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 10,))
    x = T.ones(1, 3, requires_grad=True)
    (m(x) * 2).sum().backward()
    return x.grad


def _pre_hook_replaces_grad_output(T, log):
    m = _linear(T)
    m.register_full_backward_pre_hook(lambda mod, go: log.append(go) or (go[0] * 3,))
    x = T.ones(1, 3, requires_grad=True)
    m(x).sum().backward()
    return x.grad, m.bias.grad


def _no_input_requires_grad(T, log):
    m = _linear(T)
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    m(T.ones(1, 3)).sum().backward()
    return m.weight.grad


def _no_input_requires_grad_returns(T, log):
    m = _linear(T)
    m.register_full_backward_hook(lambda mod, gi, go: (T.ones(1, 3),))
    m(T.ones(1, 3)).sum().backward()


def _wrong_number_returned(T, log):
    m = _linear(T)
    m.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
    m(T.ones(1, 3, requires_grad=True)).sum().backward()


def _every_layer_of_a_sequential(T, log):
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.ReLU(), T.nn.Linear(4, 2))
    for i, m in enumerate(net):
        m.register_full_backward_hook(lambda mod, gi, go, i=i: log.append((i, gi, go)))
    x = T.ones(2, 3, requires_grad=True)
    net(x).sum().backward()
    return x.grad


def _in_place_relu(T, log):
    m = T.nn.ReLU(inplace=True)
    m.register_full_backward_hook(lambda *a: None)
    return m(T.ones(2, requires_grad=True) * 1)


def _removed(T, log):
    m = _linear(T)
    m.register_full_backward_hook(lambda *a: log.append("called")).remove()
    y = m(T.ones(1, 3, requires_grad=True))
    y.sum().backward()
    return y


def _full_then_old(T, log):
    m = _linear(T)
    m.register_full_backward_hook(lambda *a: None)
    m.register_backward_hook(lambda *a: None)


def _old_then_full(T, log):
    m = _linear(T)
    m.register_backward_hook(lambda *a: None)
    m.register_full_backward_hook(lambda *a: None)


def _old_hook_on_linear(T, log):
    m = _linear(T)
    m.register_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    x = T.ones(1, 3, requires_grad=True)
    y = m(x)
    y.sum().backward()
    return x.grad, y


def _old_hook_on_relu(T, log):
    m = T.nn.ReLU()
    m.register_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    y = m(T.tensor([1., -1.], requires_grad=True) * 1)
    y.sum().backward()
    return y


def _arguments_that_are_no_tensors(T, log):
    class Affine(T.nn.Module):
        def forward(self, a, k, b):
            return a * k + b
    m = Affine()
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    a = T.ones(2, requires_grad=True)
    y = m(a, 3, T.ones(2))
    y.sum().backward()
    return a.grad, y


def _two_outputs(T, log):
    class Two(T.nn.Module):
        def forward(self, x):
            return x * 2, x * 3
    m = Two()
    m.register_full_backward_hook(lambda mod, gi, go: log.append((gi, go)))
    x = T.ones(2, requires_grad=True)
    p, q = m(x)
    (p.sum() + q.sum()).backward()
    return x.grad, p, q


def _grad_cam(T, log):
    T.manual_seed(0)
    net = T.nn.Sequential(T.nn.Conv2d(1, 2, 3), T.nn.ReLU(), T.nn.Flatten(), T.nn.Linear(8, 2))
    acts, grads = [], []
    net[0].register_forward_hook(lambda m, i, o: acts.append(o))
    net[0].register_full_backward_hook(lambda m, gi, go: grads.append(go[0]))
    net(T.arange(16.).reshape(1, 1, 4, 4) / 16)[0, 1].backward()
    weights = grads[0].mean(dim=(2, 3), keepdim=True)
    return (weights * acts[0]).sum(1).relu()


SCENARIOS = [_full_hook_sees, _hook_replaces_grad_input, _pre_hook_replaces_grad_output,
             _no_input_requires_grad, _no_input_requires_grad_returns, _wrong_number_returned,
             _every_layer_of_a_sequential, _in_place_relu, _removed, _full_then_old,
             _old_then_full, _old_hook_on_linear, _old_hook_on_relu,
             _arguments_that_are_no_tensors, _two_outputs, _grad_cam]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__[1:])
def test_module_backward_hooks(scenario):
    def run(T):
        log = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = scenario(T, log)
            except RuntimeError as e:
                result = str(e)
        return result, log, [(w.category.__name__, str(w.message)) for w in caught]
    same_outcome(run)
