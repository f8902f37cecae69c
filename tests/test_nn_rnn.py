"""nn.RNN, nn.LSTM, nn.GRU, their cells and nn.utils.rnn's packing against torch 2.13.

Values and gradients: torch's CPU kernels multiply the gates with BLAS (and run a float32
LSTM through oneDNN), summing in another order than NumPy, so they are compared to
rtol = atol = 1e-6 in float32 and 1e-12 in float64 (``_oracle.tol``), not bit for bit.
The seeded initialisation, the dropout masks, shapes, strides, dtypes, names, reprs and error
messages are compared exactly.
"""

import numpy as np
import pytest
from _oracle import same_outcome

EXACT = {"rtol": 0, "atol": 0}
CLOSE = {"reprs": False}  # printed values may differ in the last digit (see the docstring)

SEQ, BATCH, IN, HIDDEN = 5, 3, 4, 6


def _model(T, cls, kw, dtype="float64", seed=0):
    T.manual_seed(seed)
    if cls == "RNN_relu":
        return T.nn.RNN(IN, HIDDEN, nonlinearity="relu", **kw).to(getattr(T, dtype))
    return getattr(T.nn, cls)(IN, HIDDEN, **kw).to(getattr(T, dtype))


def _tensor(T, shape, dtype, seed, requires_grad=False):
    values = np.random.default_rng(seed).standard_normal(shape)
    return T.tensor(values, dtype=getattr(T, dtype), requires_grad=requires_grad)


def _states(T, cls, kw, batch, dtype):
    """Random (h_0, c_0) / h_0 of the right shape, requiring grad."""
    layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    size = kw.get("proj_size") or HIDDEN
    batch_dims = (batch,) if batch else ()
    h0 = _tensor(T, (layers, *batch_dims, size), dtype, 11, True)
    if cls != "LSTM":
        return h0
    return h0, _tensor(T, (layers, *batch_dims, HIDDEN), dtype, 12, True)


def _leaves(h):
    return list(h) if isinstance(h, tuple) else [h]


def _scenario(cls, kw, dtype, with_state, batched=True):
    """Forward and backward with random upstream gradients: the outputs (detached: their
    grad_fn names are compared in ``test_grad_fn_names``) and every gradient."""
    def fn(T):
        m = _model(T, cls, kw, dtype)
        shape = (SEQ, BATCH, IN) if batched else (SEQ, IN)
        if batched and kw.get("batch_first"):
            shape = (BATCH, SEQ, IN)
        x = _tensor(T, shape, dtype, 1, True)
        hx = _states(T, cls, kw, BATCH if batched else 0, dtype) if with_state else None
        out, h = m(x, hx)
        loss = (out * _tensor(T, out.shape, dtype, 2)).sum()
        for k, t in enumerate(_leaves(h)):
            loss = loss + (t * _tensor(T, t.shape, dtype, 3 + k)).sum()
        loss.backward()
        grads = [x.grad] + ([t.grad for t in _leaves(hx)] if with_state else [])
        return (out.detach(), [t.detach() for t in _leaves(h)], grads,
                [(n, p.grad) for n, p in m.named_parameters()])
    return fn


CONFIGS = [
    ("LSTM", {}), ("LSTM", {"num_layers": 2}), ("LSTM", {"bidirectional": True}),
    ("LSTM", {"batch_first": True}), ("LSTM", {"bias": False}), ("LSTM", {"proj_size": 2}),
    ("LSTM", {"num_layers": 2, "bidirectional": True, "proj_size": 3, "batch_first": True}),
    ("GRU", {}), ("GRU", {"num_layers": 2, "bidirectional": True}),
    ("GRU", {"batch_first": True, "bias": False}),
    ("RNN", {}), ("RNN_relu", {"num_layers": 2}),
    ("RNN", {"bidirectional": True, "batch_first": True, "bias": False}),
]
IDS = [f"{c}-{'-'.join(f'{k}={v}' for k, v in kw.items()) or 'default'}" for c, kw in CONFIGS]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("with_state", [False, True], ids=["zeros", "h0"])
@pytest.mark.parametrize(("cls", "kw"), CONFIGS, ids=IDS)
def test_forward_backward(cls, kw, with_state, dtype):
    same_outcome(_scenario(cls, kw, dtype, with_state), **CLOSE)


@pytest.mark.parametrize("with_state", [False, True], ids=["zeros", "h0"])
@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_unbatched_input(cls, with_state):
    kw = {"num_layers": 2, "bidirectional": True}
    same_outcome(_scenario(cls, kw, "float64", with_state, batched=False), **CLOSE)
    same_outcome(_scenario(cls, {"batch_first": True}, "float32", with_state, batched=False),
                 **CLOSE)


def _names(cls, kw, dtype, batched=True):
    def fn(T):
        m = _model(T, cls, kw, dtype)
        shape = (SEQ, BATCH, IN) if batched else (SEQ, IN)
        out, h = m(_tensor(T, shape, dtype, 1))
        return [type(t.grad_fn).__name__ for t in [out, *_leaves(h)]], out.stride()
    return fn


NAME_CASES = [pytest.param(cls, kw, dtype, id=f"{i}-{dtype}")
              for (cls, kw), i in zip(CONFIGS, IDS) for dtype in ("float32", "float64")]


@pytest.mark.parametrize(("cls", "kw", "dtype"), NAME_CASES)
def test_grad_fn_names(cls, kw, dtype):
    same_outcome(_names(cls, kw, dtype))


@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_grad_fn_names_unbatched(cls):
    for dtype in ("float32", "float64"):
        same_outcome(_names(cls, {"batch_first": True}, dtype, batched=False))


@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_double_backward(cls):
    """The composed recurrence is differentiable twice, as torch's float64 kernels are."""
    def fn(T):
        m = _model(T, cls, {"num_layers": 2}, "float64")
        x = _tensor(T, (SEQ, BATCH, IN), "float64", 1, True)
        out, _ = m(x)
        (gx,) = T.autograd.grad((out * out).sum(), x, create_graph=True)
        gx.pow(2).sum().backward()
        return gx.detach(), x.grad, [p.grad for p in m.parameters()]
    same_outcome(fn, **CLOSE)


def test_factory_kwargs_and_conversions():
    def fn(T):
        T.manual_seed(0)
        m = T.nn.GRU(IN, HIDDEN, dtype=T.float64)
        cell = T.nn.LSTMCell(IN, HIDDEN, dtype=T.float64)
        lstm = T.nn.LSTM(IN, HIDDEN).double()
        out, _ = lstm(_tensor(T, (SEQ, BATCH, IN), "float64", 1))
        return ([p.dtype for p in m.parameters()], [p.dtype for p in cell.parameters()],
                [w.dtype for w in lstm._flat_weights], out.detach())
    same_outcome(fn, **CLOSE)


def _graph(fn, depth):
    """A node's name and, to ``depth`` levels, its inputs' nodes."""
    if fn is None or depth < 0:
        return None
    return type(fn).__name__, [_graph(f, depth - 1) for f, _ in fn.next_functions]


@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_graph_below_the_outputs(cls):
    """float64 (torch's composed kernel): the nodes under output and h_n, two levels deep."""
    def fn(T):
        m = _model(T, cls, {"num_layers": 2, "bidirectional": True}, "float64")
        out, h = m(_tensor(T, (SEQ, BATCH, IN), "float64", 1))
        return [_graph(t.grad_fn, 2) for t in [out, *_leaves(h)]]
    same_outcome(fn)


# -- parameters ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("cls", "kw"), CONFIGS + [("RNN", {"nonlinearity": "relu"})],
                         ids=IDS + ["RNN-relu"])
def test_init_names_state_dict_and_repr(cls, kw):
    def fn(T):
        T.manual_seed(0)
        name = "RNN" if cls == "RNN_relu" else cls
        m = getattr(T.nn, name)(IN, HIDDEN, **kw)
        after = T.rand(2)
        m.flatten_parameters()
        return (list(m.named_parameters()), after, list(m.state_dict().keys()), repr(m),
                [[p.shape for p in group] for group in m.all_weights],
                repr(T.nn.Sequential(m)))
    same_outcome(fn, **EXACT)


@pytest.mark.parametrize("cls", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cell_init_and_repr(cls):
    def fn(T):
        T.manual_seed(0)
        cells = [getattr(T.nn, cls)(IN, HIDDEN), getattr(T.nn, cls)(IN, HIDDEN, bias=False)]
        if cls == "RNNCell":
            cells.append(T.nn.RNNCell(IN, HIDDEN, nonlinearity="relu"))
        return [(list(c.named_parameters()), repr(c)) for c in cells], T.rand(2)
    same_outcome(fn, **EXACT)


def test_constructor_errors_and_warning():
    cases = [
        lambda T: T.nn.LSTM(3, 4, dropout=1.5), lambda T: T.nn.LSTM(3, 4, dropout=True),
        lambda T: T.nn.GRU(3, 4, bias=1), lambda T: T.nn.GRU(3, 4, batch_first=None),
        lambda T: T.nn.LSTM(3.0, 4), lambda T: T.nn.LSTM(0, 4), lambda T: T.nn.RNN(3, 0),
        lambda T: T.nn.RNN(3, "4"), lambda T: T.nn.LSTM(3, 4, num_layers=0),
        lambda T: T.nn.LSTM(3, 4, proj_size=-1), lambda T: T.nn.LSTM(3, 4, proj_size=4),
        lambda T: T.nn.GRU(3, 4, proj_size=2), lambda T: T.nn.RNN(3, 4, proj_size=2),
        lambda T: T.nn.RNN(3, 4, nonlinearity="gelu"), lambda T: T.nn.RNN(3, 4, 1, "sigmoid"),
    ]
    for case in cases:
        same_outcome(case)

    def warned(T):
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            m = T.nn.LSTM(3, 4, dropout=0.5)
        return [str(x.message) for x in w], [x.category.__name__ for x in w], repr(m)
    same_outcome(warned)


# -- inter-layer dropout ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_dropout_between_layers_draws_torchs_masks(cls, dtype):
    def fn(T):
        m = _model(T, cls, {"num_layers": 3, "dropout": 0.5, "bidirectional": True}, dtype)
        x = _tensor(T, (SEQ, BATCH, IN), dtype, 1, True)
        T.manual_seed(5)
        out, h = m(x)
        out.sum().backward()
        after = T.rand(2)
        m.eval()
        evaluated, _ = m(x)
        return out.detach(), _leaves(h)[0].detach(), x.grad, after, evaluated.detach()
    same_outcome(fn, **CLOSE)


# -- bad input ----------------------------------------------------------------------------------

def test_forward_errors():
    def lstm(T):
        return _model(T, "LSTM", {}, "float32")

    def gru(T):
        return _model(T, "GRU", {}, "float32")

    def rnn(T):
        return _model(T, "RNN", {}, "float32")

    def z(T, *shape, dtype="float32"):
        return T.zeros(*shape, dtype=getattr(T, dtype))

    cases = [
        lambda T: lstm(T)(z(T, 2, 3, 4, 5)), lambda T: gru(T)(z(T, 4)),
        lambda T: rnn(T)(z(T, 1, 2, 3, 4)),
        lambda T: lstm(T)(z(T, SEQ, BATCH, 5)), lambda T: gru(T)(z(T, SEQ, 5)),
        lambda T: rnn(T)(z(T, SEQ, BATCH, IN, dtype="float64")),
        lambda T: gru(T)(z(T, SEQ, BATCH, IN), z(T, 2, BATCH, HIDDEN)),
        lambda T: rnn(T)(z(T, SEQ, BATCH, IN), z(T, 1, 2, HIDDEN)),
        lambda T: gru(T)(z(T, SEQ, BATCH, IN), z(T, BATCH, HIDDEN)),
        lambda T: rnn(T)(z(T, SEQ, IN), z(T, 1, 1, HIDDEN)),
        lambda T: lstm(T)(z(T, SEQ, BATCH, IN), (z(T, 2, BATCH, HIDDEN), z(T, 1, BATCH, HIDDEN))),
        lambda T: lstm(T)(z(T, SEQ, BATCH, IN), (z(T, 1, BATCH, HIDDEN), z(T, 1, BATCH, 2))),
        lambda T: lstm(T)(z(T, SEQ, BATCH, IN), (z(T, BATCH, HIDDEN), z(T, 1, BATCH, HIDDEN))),
        lambda T: lstm(T)(z(T, SEQ, IN), (z(T, 1, HIDDEN), z(T, 1, 1, HIDDEN))),
        lambda T: _model(T, "LSTM", {"proj_size": 2}, "float32")(
            z(T, SEQ, BATCH, IN), (z(T, 1, BATCH, HIDDEN), z(T, 1, BATCH, HIDDEN))),
        lambda T: lstm(T)(z(T, 0, BATCH, IN)), lambda T: gru(T)(z(T, 0, BATCH, IN)),
    ]
    for case in cases:
        same_outcome(case)


@pytest.mark.parametrize("cls", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cell_errors(cls):
    def cell(T):
        T.manual_seed(0)
        return getattr(T.nn, cls)(3, 4)

    def state(T, *shape):
        h = T.zeros(*shape)
        return (h, T.zeros(*shape)) if cls == "LSTMCell" else h

    cases = [
        lambda T: cell(T)(T.zeros(2, 5)), lambda T: cell(T)(T.zeros(1, 2, 3)),
        lambda T: cell(T)(T.zeros(2, 3), state(T, 3, 4)),
        lambda T: cell(T)(T.zeros(2, 3), state(T, 2, 5)),
        lambda T: cell(T)(T.zeros(2, 3), state(T, 1, 2, 4)),
    ]
    if cls == "LSTMCell":
        cases.append(lambda T: cell(T)(T.zeros(2, 3), (T.zeros(2, 4), T.zeros(2, 5))))
    for case in cases:
        same_outcome(case)


def test_cell_dtype_mismatch():
    def fn(T):
        T.manual_seed(0)
        return T.nn.GRUCell(3, 4)(T.zeros(2, 3, dtype=T.float64))
    same_outcome(fn)


# -- cells --------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("cls", ["RNNCell", "RNNCell-relu", "LSTMCell", "GRUCell"])
def test_cells(cls, dtype):
    def fn(T):
        T.manual_seed(0)
        kw = {"nonlinearity": "relu"} if cls.endswith("relu") else {}
        cell = getattr(T.nn, cls.split("-")[0])(IN, HIDDEN, **kw).to(getattr(T, dtype))
        x = _tensor(T, (SEQ, BATCH, IN), dtype, 1, True)
        hx = None
        outs = []
        for t in range(SEQ):
            hx = cell(x[t], hx)
            outs.append(_leaves(hx)[0])
        y = T.stack(outs)
        (y * _tensor(T, y.shape, dtype, 2)).sum().backward()
        single = cell(_tensor(T, (IN,), dtype, 3), None)
        return y, _leaves(hx), x.grad, [p.grad for p in cell.parameters()], _leaves(single)
    same_outcome(fn, **CLOSE)


# -- packing ------------------------------------------------------------------------------------

LENGTHS = [[5, 3, 3, 1], [2, 5, 1, 3]]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("lengths", LENGTHS, ids=["sorted", "unsorted"])
def test_pack_pad_round_trip(lengths, batch_first):
    def fn(T):
        rnn = T.nn.utils.rnn
        shape = (4, 5, 2) if batch_first else (5, 4, 2)
        x = _tensor(T, shape, "float64", 1, True)
        sorted_ = lengths == sorted(lengths, reverse=True)
        packed = rnn.pack_padded_sequence(x, T.tensor(lengths), batch_first,
                                          enforce_sorted=sorted_)
        packed_list = rnn.pack_padded_sequence(x, lengths, batch_first, enforce_sorted=False)
        pad, lens = rnn.pad_packed_sequence(packed, batch_first, padding_value=-1.0,
                                            total_length=7)
        pad.sum().backward()
        return (packed.data.detach(), packed.batch_sizes, packed.sorted_indices,
                packed.unsorted_indices, packed_list.sorted_indices, pad, lens, x.grad,
                type(packed).__name__, packed._fields)
    same_outcome(fn)


def test_pack_grad_fn_name():
    def fn(T):
        x = T.zeros(3, 2, 1, requires_grad=True)
        return type(T.nn.utils.rnn.pack_padded_sequence(x, [3, 1]).data.grad_fn).__name__
    same_outcome(fn)


def test_pack_sequence_unpack_and_repr():
    def fn(T):
        rnn = T.nn.utils.rnn
        seqs = [T.tensor([1, 2, 3]), T.tensor([4, 5]), T.tensor([6])]
        packed = rnn.pack_sequence(seqs)
        unsorted = rnn.pack_sequence([seqs[1], seqs[0], seqs[2]], enforce_sorted=False)
        padded = rnn.pad_sequence(seqs)
        return (repr(packed), repr(unsorted), rnn.unpack_sequence(unsorted),
                rnn.unpad_sequence(padded, T.tensor([3, 2, 1])), padded.stride(),
                repr(packed.to(T.float64)), packed.to(T.int64) is packed,
                repr(unsorted.double()), rnn.invert_permutation(T.tensor([2, 0, 1])),
                sorted(rnn.__all__))
    same_outcome(fn)


def test_packed_sequence_built_by_hand():
    def fn(T):
        PS = T.nn.utils.rnn.PackedSequence
        data, sizes = T.arange(6.0).view(6, 1), T.tensor([3, 2, 1])
        by_args = PS(data, sizes, T.tensor([2, 0, 1]))
        by_pair = PS((data, sizes))
        data2, sizes2, sorted_indices, unsorted_indices = by_args
        T.manual_seed(0)
        out, h = T.nn.GRU(1, 2).double()(by_args.double())
        return (by_args, by_pair, unsorted_indices, data2 is data, out.data.detach(),
                h.detach(), out.unsorted_indices, T.nn.utils.rnn.unpack_sequence(by_args))
    same_outcome(fn, **CLOSE)


def test_packing_errors():
    def x(T):
        return T.zeros(4, 3, 2)
    cases = [
        lambda T: T.nn.utils.rnn.pack_padded_sequence(x(T), [2, 4, 1]),
        lambda T: T.nn.utils.rnn.pack_padded_sequence(x(T), [4, 2, 0]),
        lambda T: T.nn.utils.rnn.pack_padded_sequence(x(T), [4, 2]),
        lambda T: T.nn.utils.rnn.pack_padded_sequence(T.zeros(0, 3), []),
        lambda T: T.nn.utils.rnn.pack_padded_sequence(x(T), T.tensor([[4, 2, 1]])),
        lambda T: T.nn.utils.rnn.pad_packed_sequence(
            T.nn.utils.rnn.pack_padded_sequence(x(T), [4, 2, 1]), total_length=2),
    ]
    for case in cases:
        same_outcome(case)


PACKED_CONFIGS = [("LSTM", {}), ("LSTM", {"num_layers": 2, "bidirectional": True}),
                  ("LSTM", {"proj_size": 2, "bidirectional": True}),
                  ("GRU", {"bidirectional": True}), ("RNN", {"num_layers": 2}),
                  ("GRU", {"num_layers": 3, "dropout": 0.4})]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("with_state", [False, True], ids=["zeros", "h0"])
@pytest.mark.parametrize(("cls", "kw"), PACKED_CONFIGS,
                         ids=[f"{c}-{i}" for i, (c, _) in enumerate(PACKED_CONFIGS)])
def test_packed_input(cls, kw, with_state, dtype):
    def fn(T):
        m = _model(T, cls, kw, dtype)
        lengths = [2, 5, 1, 3]
        x = _tensor(T, (SEQ, 4, IN), dtype, 1, True)
        packed = T.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
        hx = _states(T, cls, kw, 4, dtype) if with_state else None
        out, h = m(packed, hx)
        pad, lens = T.nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        loss = (pad * _tensor(T, pad.shape, dtype, 2)).sum()
        for k, t in enumerate(_leaves(h)):
            loss = loss + (t * _tensor(T, t.shape, dtype, 3 + k)).sum()
        loss.backward()
        names = [type(t.grad_fn).__name__ for t in [out.data, pad, *_leaves(h)]]
        grads = [x.grad] + ([t.grad for t in _leaves(hx)] if with_state else [])
        return (type(out).__name__, out.data.detach(), out.batch_sizes, out.sorted_indices,
                names, lens, [t.detach() for t in _leaves(h)], grads,
                [p.grad for p in m.parameters()])
    same_outcome(fn, **CLOSE)


# -- end to end ---------------------------------------------------------------------------------

def test_lstm_training_step():
    """A one-layer LSTM (hidden 16, sequence 10, batch 4) with a linear head: forward,
    backward and one SGD step, all compared with torch's."""
    def fn(T):
        T.manual_seed(0)
        lstm, head = T.nn.LSTM(8, 16), T.nn.Linear(16, 1)
        opt = T.optim.SGD([*lstm.parameters(), *head.parameters()], lr=0.1)
        x = T.randn(10, 4, 8)
        target = T.randn(4, 1)
        out, (h, c) = lstm(x)
        loss = T.nn.functional.mse_loss(head(out[-1]), target)
        loss.backward()
        grads = [p.grad.clone() for p in lstm.parameters()]
        opt.step()
        out2, _ = lstm(x)
        loss2 = T.nn.functional.mse_loss(head(out2[-1]), target)
        return (loss.detach(), h.detach(), c.detach(), grads, list(lstm.parameters()),
                loss2.detach())
    same_outcome(fn, **CLOSE)
