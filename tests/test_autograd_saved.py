"""Saved tensors (``grad_fn._raw_saved_<name>``, ``SavedTensor.register_hooks``) and
``torch.autograd.enforce_grad_layout_policy``, against torch 2.13."""

import threading

import torch  # noqa: F401  (the oracle: fail, not skip, without it)
from _oracle import same_outcome

import doctensor


def _raised(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return type(e).__name__, str(e).split("\n")[0]  # (pybind's text names addresses)


# -- SavedTensor ---------------------------------------------------------------------------------

def test_raw_saved_tensors():
    def fn(T):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x * x.exp()
        g = y.grad_fn
        s = g._raw_saved_self
        return (type(s).__name__, type(s) is T.autograd.SavedTensor, g._raw_saved_self is s,
                _raised(T.autograd.SavedTensor),
                type(y.exp().grad_fn._raw_saved_result).__name__,
                _raised(lambda: x.pow(2).grad_fn._raw_saved_exponent),
                _raised(lambda: x.sum().grad_fn._raw_saved_self),
                sorted(n for n in dir(g) if n.startswith(("_raw_saved", "_saved"))),
                s.data, s.unpack(), s.unpack_hook)
    same_outcome(fn)


def test_register_hooks_errors():
    def fn(T):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x * x.exp()
        s = y.grad_fn._raw_saved_self
        out = [_raised(lambda: s.register_hooks(lambda t: t)),
               _raised(lambda: s.register_hooks(1, 2)),
               _raised(lambda: s.register_hooks(lambda t: t, lambda t: t)),
               _raised(lambda: s.register_hooks(lambda t: t, lambda t: t)),
               _raised(lambda: (x * x.detach()).grad_fn._raw_saved_self.register_hooks(
                   lambda t: t, lambda t: t))]
        y.sum().backward()
        return out + [type(y.grad_fn._raw_saved_self).__name__,
                      _raised(lambda: y.grad_fn._raw_saved_other.register_hooks(
                          lambda t: t, lambda t: t)),
                      _raised(lambda: y.grad_fn._saved_self)]
    same_outcome(fn)


def test_register_hooks_pack_and_unpack():
    def fn(T):
        log = []

        def pack(t):
            log.append(("pack", t))
            return t * 0 + 10

        def unpack(p):
            log.append(("unpack", p))
            return p
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x.pow(2)
        y.grad_fn._raw_saved_self.register_hooks(pack, unpack)
        saved = y.grad_fn._saved_self
        with T.no_grad():
            x.mul_(3)  # no version check once packed
        y.sum().backward()
        e = x.detach().requires_grad_().exp()
        e.grad_fn._raw_saved_result.register_hooks(lambda t: t.clone(), lambda p: p)
        return saved, x.grad, log, e.grad_fn._saved_result
    same_outcome(fn)


def test_unpack_hook_must_give_a_tensor():
    def fn(T):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x.pow(2)
        y.grad_fn._raw_saved_self.register_hooks(lambda t: 5, lambda p: p + 1)
        return _raised(lambda: y.grad_fn._saved_self), _raised(lambda: y.sum().backward())
    same_outcome(fn)


def test_custom_function_raw_saved_tensors():
    def fn(T):
        class Double(T.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_backward(a)
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        x = T.tensor([1.0, 2.0], requires_grad=True)
        z = Double.apply(x)
        raw = z.grad_fn._raw_saved_tensors
        raw[0].register_hooks(lambda t: t * 0 + 3, lambda p: p)
        return [type(r).__name__ for r in raw], z.grad_fn.saved_tensors
    same_outcome(fn)


# -- enforce_grad_layout_policy ------------------------------------------------------------------

def _policy(T, enable, make_grad):
    p = T.zeros(2, 3, 4).permute(2, 0, 1).requires_grad_()
    with T.autograd.enforce_grad_layout_policy(enable):
        make_grad(T, p)
    return p.stride(), p.grad.stride(), p.grad


def test_layout_policy_docstring_example():
    for enable in (True, False):
        same_outcome(lambda T, e=enable: _policy(T, e, lambda T, p: (p * 2).sum().backward()))


def test_layout_policy_copies_what_it_cannot_steal():
    for enable in (True, False):
        same_outcome(lambda T, e=enable: _policy(
            T, e, lambda T, p: p.backward(T.ones(4, 2, 3) * 3)))
        same_outcome(lambda T, e=enable: _policy(
            T, e, lambda T, p: (p.contiguous() * 2).sum().backward()))


def test_layout_policy_as_function_decorator_and_thread_local():
    def fn(T):
        seen = []

        @T.autograd.enforce_grad_layout_policy(False)
        def relaxed():
            return _policy(T, False, lambda T, p: (p * 2).sum().backward())[1]
        out = [relaxed(), _policy(T, True, lambda T, p: (p * 2).sum().backward())[1]]
        T.autograd.enforce_grad_layout_policy(False)  # a plain call sets it
        other = threading.Thread(target=lambda: seen.append(_grad_strides(T)))
        other.start()
        other.join()
        out += [_grad_strides(T), seen]
        T.autograd.enforce_grad_layout_policy(True)
        ctx = T.autograd.enforce_grad_layout_policy(False)
        clone = ctx.clone()
        out += [type(clone).__name__, _grad_strides(T)]
        with clone:
            pass
        out.append(_grad_strides(T))
        T.autograd.enforce_grad_layout_policy(True)  # (the default again, for other tests)
        return out
    same_outcome(fn)


def _grad_strides(T):
    p = T.zeros(2, 3, 4).permute(2, 0, 1).requires_grad_()
    (p * 2).sum().backward()
    return p.grad.stride()


def test_layout_policy_is_exported():
    assert "enforce_grad_layout_policy" in doctensor.autograd.__all__
    assert "SavedTensor" in doctensor.autograd.__all__
