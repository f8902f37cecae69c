"""nn.Module and the layers against torch 2.13: seeded initialisation (bit for bit), printing,
registration, state dicts and their errors, modes, conversions and hooks."""

import math

import numpy as np
import pytest
from _oracle import both, same_outcome

EXACT = {"rtol": 0, "atol": 0}


# -- initialisation: bit for bit after manual_seed (TORCH_EXACTNESS A.10) -------------------

@pytest.mark.parametrize("shape", [(3, 1), (3, 2), (2, 1), (64, 32), (784, 512), (1, 7)])
def test_linear_init_is_exact(shape):
    def fn(T):
        T.manual_seed(0)
        m = T.nn.Linear(*shape)
        after = T.rand(3)  # where the stream stands afterwards
        return m.weight, m.bias, after
    same_outcome(fn, **EXACT)


def test_init_functions_are_exact():
    def fn(T):
        T.manual_seed(3)
        init = T.nn.init
        out = []
        for f in (lambda w: init.kaiming_uniform_(w, a=math.sqrt(5)),
                  lambda w: init.kaiming_uniform_(w, nonlinearity="relu", mode="fan_out"),
                  lambda w: init.kaiming_normal_(w), lambda w: init.xavier_uniform_(w, 2.0),
                  lambda w: init.xavier_normal_(w), lambda w: init.uniform_(w, -2, 3),
                  lambda w: init.normal_(w, 1.0, 0.5), init.zeros_, init.ones_,
                  lambda w: init.constant_(w, 0.25)):
            w = T.empty(6, 5, requires_grad=True)
            out.append((f(w), w._version))
        return out, [init.calculate_gain(n) for n in ("linear", "tanh", "relu", "selu")], \
            init.calculate_gain("leaky_relu", 0.2)
    same_outcome(fn, **EXACT)


def test_embedding_layernorm_batchnorm_bilinear_init():
    def fn(T):
        T.manual_seed(1)
        e = T.nn.Embedding(5, 3, padding_idx=1)
        b = T.nn.Bilinear(2, 3, 4)
        return e.weight, b.weight, b.bias, T.nn.LayerNorm(3).weight, T.nn.BatchNorm1d(2).bias
    same_outcome(fn, **EXACT)


# -- the article ----------------------------------------------------------------------------

def test_article_sgd_step_seen_through_detach():
    """seeds/003 example 4: ``w = f.weight.detach()`` sees the SGD step."""
    def fn(T):
        T.manual_seed(0)
        x = T.tensor([1., 2., 3.], requires_grad=True)
        f = T.nn.Linear(3, 1)
        w = f.weight.detach()
        before = repr(f.weight), repr(w)
        y = f(x)
        y.backward()
        T.optim.SGD(f.parameters(), 0.1).step()
        return before, repr(f.weight), repr(w), w._version, x.grad, y
    ours, _ = same_outcome(fn)
    assert ours[1] == ("Parameter containing:\n"
                       "tensor([[-0.1043,  0.1097, -0.7752]], requires_grad=True)")
    assert ours[2] == "tensor([[-0.1043,  0.1097, -0.7752]])"


def test_sequential_rejects_a_bare_tuple():
    def fn(T):
        return T.nn.Sequential((28 * 28, 512), T.nn.ReLU())
    ours, _ = same_outcome(fn)
    assert ours.message == "tuple is not a Module subclass"


# -- printing ---------------------------------------------------------------------------------

def _zoo(T):
    nn = T.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.stack = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Dropout(0.1),
                                       nn.Linear(32, 10, bias=False), nn.LogSoftmax(dim=1))
            self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)] + [nn.Tanh()])
            self.heads = nn.ModuleDict({"a": nn.GELU(), "b": nn.LeakyReLU(0.2),
                                        "c": nn.Softmax(dim=-1)})
            self.norms = nn.Sequential(nn.LayerNorm(4), nn.BatchNorm1d(4), nn.Identity(),
                                       nn.Unflatten(1, (2, 2)), nn.Embedding(10, 3, 0),
                                       nn.Bilinear(2, 3, 4), nn.Sigmoid(), nn.GELU("tanh"),
                                       nn.ReLU(inplace=True), nn.CrossEntropyLoss(),
                                       nn.MSELoss(), nn.BCEWithLogitsLoss())
            self.register_buffer("steps", T.zeros(1))
            self.register_buffer("scratch", T.zeros(1), persistent=False)

        def forward(self, x):
            return self.stack(self.flatten(x))
    return Net()


def test_print_model_and_names():
    def fn(T):
        T.manual_seed(0)
        m = _zoo(T)
        return (repr(m), list(m.state_dict().keys()), [n for n, _ in m.named_parameters()],
                [n for n, _ in m.named_buffers()], [n for n, _ in m.named_modules()],
                [n for n, _ in m.named_children()], len(list(m.parameters())),
                len(list(m.modules())), repr(m.stack[1:3]), repr(m.blocks[:2]))
    same_outcome(fn)


def test_extra_repr_of_a_custom_module():
    def fn(T):
        class Scale(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.s = T.nn.Parameter(T.ones(1))

            def extra_repr(self):
                return "factor=1\nsecond line"
        return repr(T.nn.Sequential(Scale(), T.nn.Sequential(Scale()))), repr(Scale())
    same_outcome(fn)


def test_parameter_repr_and_type():
    def fn(T):
        p = T.nn.Parameter(T.tensor([1.0, 2.0]))
        q = T.nn.Parameter(T.zeros(2), requires_grad=False)
        return (repr(p), repr(q), repr(T.nn.Parameter()), type(p * 2).__name__,
                isinstance(p, T.Tensor), p.is_leaf, (p * 2).grad_fn is not None)
    same_outcome(fn)


# -- containers ---------------------------------------------------------------------------------

def test_sequential_indexing_slicing_append():
    def fn(T):
        nn = T.nn
        s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
        out = [len(s), repr(s[-1]), repr(s[0:2]), type(s[1:]).__name__]
        s.append(nn.Identity())
        out += [len(s), repr(s)]
        del s[1]
        out += [repr(s), list(s._modules.keys())]
        s[0] = nn.GELU()
        out.append(repr(s))
        try:
            s[7]
        except IndexError as e:
            out.append(str(e))
        lst = nn.ModuleList([nn.ReLU()])
        lst.append(nn.Tanh()).extend([nn.ReLU(), nn.ReLU()])
        out += [len(lst), repr(lst), repr(lst[-1])]
        d = nn.ModuleDict({"x": nn.ReLU()})
        d["y"] = nn.Tanh()
        out += [list(d.keys()), "x" in d, len(d), repr(d)]
        return out
    same_outcome(fn)


# -- registration and attribute errors ----------------------------------------------------------

@pytest.mark.parametrize("case", ["param_tensor", "assign_tensor_to_param", "module_attr",
                                  "dotted", "empty", "missing", "buffer_type", "add_module"])
def test_registration_errors(case):
    def fn(T):
        m = T.nn.Linear(2, 2)
        if case == "param_tensor":
            m.register_parameter("x", T.zeros(2))
        elif case == "assign_tensor_to_param":
            m.weight = T.zeros(2, 2)
        elif case == "module_attr":
            m.add_module("weight", T.nn.ReLU())
        elif case == "dotted":
            m.register_buffer("a.b", T.zeros(1))
        elif case == "empty":
            m.register_parameter("", None)
        elif case == "missing":
            return m.nothing
        elif case == "buffer_type":
            m.register_buffer("b", 3)
        elif case == "add_module":
            m.add_module("c", 3)
        return sorted(m.state_dict())
    same_outcome(fn)


def test_attribute_routing():
    def fn(T):
        m = T.nn.Linear(2, 2)
        m.extra = T.nn.Parameter(T.ones(1))
        m.sub = T.nn.ReLU()
        m.register_buffer("buf", T.zeros(1))
        m.buf = T.ones(1)
        m.plain = 3
        names = [n for n, _ in m.named_parameters()], list(m._modules), list(m._buffers)
        del m.extra
        m.bias = None
        return names, [n for n, _ in m.named_parameters()], m.bias, m.buf, m.plain
    same_outcome(fn)


# -- state dicts ---------------------------------------------------------------------------

def _mlp(T):
    T.manual_seed(0)
    return T.nn.Sequential(T.nn.Linear(2, 3), T.nn.ReLU(), T.nn.Linear(3, 1))


@pytest.mark.parametrize("case", ["ok", "missing_unexpected", "size", "not_tensor", "non_strict",
                                  "not_mapping"])
def test_load_state_dict(case):
    def fn(T):
        m = _mlp(T)
        sd = m.state_dict()
        src = _mlp(T)
        with T.no_grad():
            for p in src.parameters():
                p.mul_(2)
        sd = src.state_dict()
        strict = True
        if case == "missing_unexpected":
            del sd["0.bias"]
            del sd["2.weight"]
            sd["extra"] = T.zeros(1)
            sd["0.extra"] = T.zeros(1)
        elif case == "size":
            sd["0.weight"] = T.zeros(5, 5)
            del sd["2.bias"]
        elif case == "not_tensor":
            sd["0.bias"] = [1.0, 2.0, 3.0]
        elif case == "non_strict":
            del sd["0.bias"]
            sd["zzz"] = T.zeros(1)
            strict = False
        elif case == "not_mapping":
            sd = list(sd.items())
        result = m.load_state_dict(sd, strict=strict)
        return repr(result), list(result), m[0].weight, m[0].weight._version
    same_outcome(fn, rtol=0, atol=0)


def test_state_dict_detaches_and_shares():
    def fn(T):
        m = _mlp(T)
        sd = m.state_dict()
        kv = m.state_dict(keep_vars=True)
        w = sd["0.weight"]
        return (w.requires_grad, w.data_ptr() == m[0].weight.data_ptr(), type(sd).__name__,
                type(kv["0.weight"]).__name__, kv["0.weight"].requires_grad)
    same_outcome(fn)


# -- modes, gradients, conversion, hooks -----------------------------------------------------

def test_train_eval_zero_grad_requires_grad():
    def fn(T):
        m = _mlp(T)
        m.add_module("drop", T.nn.Dropout())
        flags = [m.training, m.drop.training]
        m.eval()
        flags += [m.training, m.drop.training]
        m.train()
        flags += [m.training]
        m(T.ones(4, 2)).sum().backward()
        g = m[0].weight.grad.clone()
        m.zero_grad(set_to_none=False)
        zeroed = m[0].weight.grad
        m.zero_grad()
        m.requires_grad_(False)
        try:
            m.train("yes")
        except ValueError as e:
            flags.append(str(e))
        return flags, g, zeroed, m[0].weight.grad, m[0].weight.requires_grad
    same_outcome(fn)


def test_to_double_float_apply():
    def fn(T):
        m = _mlp(T)
        m.add_module("bn", T.nn.BatchNorm1d(1))
        p = m[0].weight
        m.double()
        same_object = m[0].weight is p
        dt = [str(t.dtype) for t in m.state_dict().values()]
        m.to(T.float32)
        names = []
        m.apply(lambda mod: names.append(type(mod).__name__))
        try:
            m.to(T.int64)
        except TypeError as e:
            names.append(str(e))
        return same_object, dt, str(p.dtype), names, m.cpu() is m, m[0].weight
    same_outcome(fn, **EXACT)


def test_forward_hooks():
    def fn(T):
        m = _mlp(T)
        seen = []
        h1 = m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
        h2 = m.register_forward_hook(lambda mod, args, out: out + 1)
        m[0].register_forward_hook(lambda mod, args, out: seen.append(tuple(out.shape)))
        x = T.ones(2, 2)
        a = m(x)
        h1.remove()
        h2.remove()
        return a, m(x), seen
    same_outcome(fn)


# -- layers forward/backward ----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(3,), (4, 3), (2, 2, 3), (0, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_ranks_and_grad_fns(shape, bias):
    def fn(T):
        T.manual_seed(0)
        m = T.nn.Linear(3, 2, bias=bias)
        x = T.linspace(-1, 1, int(np.prod(shape))).reshape(shape).requires_grad_()
        y = m(x)
        y.sum().backward()
        return y, x.grad, m.weight.grad, None if m.bias is None else m.bias.grad
    same_outcome(fn)


@pytest.mark.parametrize("shape", [(5,), (4, 5), (2, 2, 5)])
def test_linear_shape_mismatch(shape):
    def fn(T):
        return T.nn.Linear(3, 2)(T.ones(shape))
    same_outcome(fn)


@pytest.mark.parametrize("layer", ["relu", "leaky", "sigmoid", "tanh", "gelu", "gelu_tanh",
                                   "softmax", "logsoftmax", "flatten", "unflatten", "identity",
                                   "layernorm", "batchnorm", "batchnorm_eval", "embedding",
                                   "bilinear", "dropout_eval"])
def test_layer_forward_backward(layer):
    def fn(T):
        nn = T.nn
        T.manual_seed(0)
        x = (T.randn(4, 6) * 2).requires_grad_()
        mod = {"relu": nn.ReLU(), "leaky": nn.LeakyReLU(0.1), "sigmoid": nn.Sigmoid(),
               "tanh": nn.Tanh(), "gelu": nn.GELU(), "gelu_tanh": nn.GELU("tanh"),
               "softmax": nn.Softmax(1), "logsoftmax": nn.LogSoftmax(dim=1),
               "flatten": nn.Flatten(0), "unflatten": nn.Unflatten(1, (2, 3)),
               "identity": nn.Identity(), "layernorm": nn.LayerNorm(6),
               "batchnorm": nn.BatchNorm1d(6), "batchnorm_eval": nn.BatchNorm1d(6).eval(),
               "dropout_eval": nn.Dropout().eval()}.get(layer)
        if layer == "embedding":
            mod = nn.Embedding(6, 3, padding_idx=2)
            y = mod(T.tensor([[0, 2, 5], [5, 1, 2]]))
        elif layer == "bilinear":
            mod = nn.Bilinear(6, 2, 3)
            y = mod(x, T.ones(4, 2))
        else:
            y = mod(x)
        (y * T.linspace(-1, 1, y.numel()).reshape(y.shape)).sum().backward()
        grads = [p.grad for p in mod.parameters()]
        bufs = [b for b in mod.buffers()]
        return y, x.grad, grads, bufs
    same_outcome(fn, reprs=False, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("norm", ["batchnorm", "layernorm", "groupnorm"])
def test_norm_as_first_layer(norm):
    """An input that does not require grad: the norm's parameters still get gradients, and
    its node saves what torch's saves (the weight, whatever requires grad)."""
    def fn(T):
        T.manual_seed(0)
        mod = {"batchnorm": T.nn.BatchNorm1d(3), "layernorm": T.nn.LayerNorm(3),
               "groupnorm": T.nn.GroupNorm(1, 3)}[norm]
        y = mod(T.randn(4, 3))
        saved = (y.grad_fn._saved_weight is None, y.grad_fn._saved_input is None)
        (y * T.linspace(-1, 1, 12).reshape(4, 3)).sum().backward()
        return saved, mod.weight.grad, mod.bias.grad
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-6)


def test_batchnorm_running_stats_over_steps():
    def fn(T):
        T.manual_seed(0)
        bn = T.nn.BatchNorm1d(3, momentum=None)
        for _ in range(3):
            bn(T.randn(5, 3))
        bn.eval()
        return bn.running_mean, bn.running_var, bn.num_batches_tracked, bn(T.ones(2, 3))
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-6)


def test_dropout_module_draws_torchs_mask():
    def fn(T):
        T.manual_seed(0)
        d = T.nn.Dropout(0.3)
        x = T.arange(1.0, 41.0).reshape(5, 8).requires_grad_()
        y = d(x)
        y.sum().backward()
        return y, x.grad, repr(d)
    same_outcome(fn, **EXACT)


def test_clip_grad_norm_and_vectors():
    def fn(T):
        m = _mlp(T)
        m(T.ones(3, 2) * 4).sum().backward()
        total = T.nn.utils.clip_grad_norm_(m.parameters(), 0.5)
        grads = [p.grad for p in m.parameters()]
        inf = T.nn.utils.clip_grad_norm_(m.parameters(), 10.0, norm_type=math.inf)
        v = T.nn.utils.parameters_to_vector(m.parameters())
        T.nn.utils.vector_to_parameters(v * 0 + 1, m.parameters())
        return total, grads, inf, v, [p for p in m.parameters()]
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-6)


def test_module_errors():
    ours, theirs = both(lambda T: T.nn.Module()(1))
    assert (ours.type, ours.message) == (theirs.type, theirs.message)


def test_deepcopy_inplace_functional_and_clip_errors():
    def fn(T):
        import copy
        m = _mlp(T)
        m2 = copy.deepcopy(m)
        F = T.nn.functional
        x = T.ones(2, 3, requires_grad=True)
        T.manual_seed(0)
        r = F.relu(x.clone() - 2, inplace=True)
        d = F.dropout(x.clone(), 0.5, inplace=True)
        lr = F.leaky_relu(x.clone() - 2, 0.1)
        p = T.nn.Parameter(T.ones(2))
        p.grad = T.tensor([float("inf"), 1.0])
        try:
            T.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
        except RuntimeError as e:
            err = str(e)
        return (type(m2[0].weight).__name__, m2[0].weight.data_ptr() != m[0].weight.data_ptr(),
                m2[0].weight, repr(m2), r, d, lr, err)
    same_outcome(fn)


@pytest.mark.parametrize("kw", [{}, {"batch_first": True}, {"padding_value": -1.0},
                                {"batch_first": True, "padding_side": "left"},
                                {"padding_side": "middle"}])
def test_pad_sequence_like_torch(kw):
    def fn(T):
        a = T.ones(3, 2, requires_grad=True)
        b = T.arange(2.0).view(1, 2).requires_grad_()
        c = T.full((2, 2), 5.0)
        y = T.nn.utils.rnn.pad_sequence([a, b, c], **kw)
        (y * T.arange(float(y.numel())).view(y.shape)).sum().backward()
        return y, y.grad_fn.name(), a.grad, b.grad
    same_outcome(fn)


def test_embedding_from_pretrained_like_torch():
    def fn(T):
        w = T.arange(12.0).view(4, 3)
        frozen = T.nn.Embedding.from_pretrained(w)
        trained = T.nn.Embedding.from_pretrained(w, freeze=False, padding_idx=1)
        y = trained(T.tensor([1, 2, 2]))
        y.sum().backward()
        return (repr(frozen), frozen.weight.requires_grad, frozen(T.tensor([3, 0])),
                repr(trained), trained.weight.grad, frozen.weight.data_ptr() == w.data_ptr())
    same_outcome(fn)
