"""``RNN``, ``LSTM``, ``GRU`` and their cells ``RNNCell``, ``LSTMCell``, ``GRUCell``.

Note [RNN composition]: the recurrence is written with ordinary ops, in the order of
torch's CPU kernels (aten/src/ATen/native/RNN.cpp), so that values, gradients, the random
draws of inter-layer dropout and the ``grad_fn`` a user sees match torch's::

    x_1 .. x_T ──► linear_ih (all steps at once) ──► unbind(0) ──► xw_1 .. xw_T
    h_0 ──► step(xw_1, h_0) ──► h_1 ──► step(xw_2, h_1) ──► ... ──► h_T (final state)
            step(xw, h) = cell(linear_hh(h) + xw)
    output = stack([h_1, .., h_T], 0)   (reverse direction: xw_T first, outputs re-reversed)
    bidirectional: cat([forward, reverse], -1);  between layers (training): dropout
    h_n = stack(final states of every (layer, direction), 0)
    batch_first: transpose(0, 1) in; out: LSTM transpose(0, 1), RNN and GRU in place

A ``PackedSequence`` is run step by step on the rows of ``data``: as a sequence ends, its
final state is sliced off the hidden state (torch's PackedLayer); the outputs are
concatenated (``cat``).

torch's CPU LSTM in float32 (no projections, not packed) runs one fused oneDNN kernel per
layer and direction instead: the values agree to rounding; the same composition then runs
under one node per layer and direction, ``MkldnnRnnLayerBackward0`` (outputs: output, h_T,
c_T), as torch shows it (Note [fused nodes] in ``ops/fused.py``); in float32 that node
computes the same arithmetic on NumPy arrays, with a backward written by hand (Note [LSTM by
hand] there).
"""

import functools
import math
import numbers
import warnings

import doctensor as torch

from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# -- one time step (``xw`` is the input already multiplied by weight_ih) ------------------------

def _simple_step(activation):
    def step(xw, h, p):
        return activation(F.linear(h, p[1], p[3]) + xw)
    return step


def _lstm_step(xw, hidden, p):
    h, c = hidden
    gates = F.linear(h, p[1], p[3]) + xw
    i, f, g, o = gates.chunk(4, 1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    if p[4] is not None:
        h = h.matmul(p[4].t())
    return h, c


def _gru_step(xw, h, p):
    ir, iz, in_ = xw.chunk(3, 1)
    hr, hz, hn = F.linear(h, p[1], p[3]).chunk(3, 1)
    r = (hr + ir).sigmoid()
    z = (hz + iz).sigmoid()
    n = (in_ + hn * r).tanh()
    return (h - n) * z + n


_STEPS = {"LSTM": _lstm_step, "GRU": _gru_step, "RNN_TANH": _simple_step(torch.tanh),
          "RNN_RELU": _simple_step(torch.relu)}


def _output_of(hidden):
    """What a step emits: h (an LSTM's hidden state is the pair (h, c))."""
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _slice(hidden, start, end):
    if isinstance(hidden, tuple):
        return tuple(_slice(t, start, end) for t in hidden)
    return hidden.narrow(0, start, end - start)


def _concat(hiddens):
    if isinstance(hiddens[0], tuple):
        return tuple(torch.cat(parts, 0) for parts in zip(*hiddens))
    return torch.cat(hiddens, 0)


# -- one layer, one direction -------------------------------------------------------------------

def _run_full(step, input, hidden, p, reverse):
    """A padded ``(T, B, *)`` input: (stacked outputs, final hidden)."""
    xws = F.linear(input, p[0], p[2]).unbind(0)
    outputs = []
    for xw in (reversed(xws) if reverse else xws):
        hidden = step(xw, hidden, p)
        outputs.append(_output_of(hidden))
    if not outputs:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    if reverse:
        outputs.reverse()
    return torch.stack(outputs, 0), hidden


def _run_packed(step, data, batch_sizes, hidden, p, reverse):
    """Packed rows: (concatenated outputs, final hidden of every sequence, longest first)."""
    xw = F.linear(data, p[0], p[2])
    starts = [sum(batch_sizes[:t]) for t in range(len(batch_sizes))]
    outputs = []
    if not reverse:
        finished, last = [], batch_sizes[0]
        for start, size in zip(starts, batch_sizes):
            if size < last:
                finished.append(_slice(hidden, size, last))
                hidden = _slice(hidden, 0, size)
            last = size
            hidden = step(xw.narrow(0, start, size), hidden, p)
            outputs.append(_output_of(hidden))
        return torch.cat(outputs, 0), _concat([hidden] + finished[::-1])
    initial, last = hidden, batch_sizes[-1]
    hidden = _slice(initial, 0, last)
    for start, size in zip(reversed(starts), reversed(batch_sizes)):
        if size > last:
            hidden = _concat([hidden, _slice(initial, last, size)])
        last = size
        hidden = step(xw.narrow(0, start, size), hidden, p)
        outputs.append(_output_of(hidden))
    return torch.cat(outputs[::-1], 0), hidden


# -- the layer stack ----------------------------------------------------------------------------

def _fused_lstm_layer(input, hidden, p, reverse, attrs):
    """One LSTM layer and direction as torch's oneDNN kernel: the same composition, under
    one node ``MkldnnRnnLayerBackward0`` (Note [fused nodes]); in float32 computed by hand
    (Note [LSTM by hand] in ``ops/fused.py``)."""
    def compose(x, w_ih, w_hh, b_ih, b_hh, h, c):
        out, (h, c) = _run_full(_lstm_step, x, (h, c), (w_ih, w_hh, b_ih, b_hh, None), reverse)
        return out, h, c
    inputs = (input, *p[:4], *hidden)
    by_hand = None
    if input.size(0) and all(t is None or t.dtype == torch.float32 for t in inputs):
        by_hand = functools.partial(torch._nn.lstm_layer_by_hand, reverse=reverse)
    out, h, c = torch._nn.run_fused(torch._nn.lstm_layer_op, compose, inputs, by_hand=by_hand,
                                    reverse=reverse, **attrs)
    return out, (h, c)


def _onednn(mode, input, batch_sizes, params):
    """Whether torch's CPU runs this LSTM with oneDNN, one fused layer at a time: float32 or
    bfloat16, not packed, no projections, a batch that is not empty."""
    return (mode == "LSTM" and batch_sizes is None and input.device.type == "cpu"
            and input.dtype in (torch.float32, torch.bfloat16) and params[0][4] is None
            and input.size(1) > 0)


def _run_layers(mode, input, batch_sizes, hiddens, params, num_layers, dropout, train,
                bidirectional, fused=None):
    """All layers over ``input`` (padded ``(T, B, *)``, or packed rows with ``batch_sizes``):
    (output, final hiddens in (layer, direction) order).  Note [RNN composition].
    ``fused``: the attrs of torch's oneDNN layer nodes, when it runs them."""
    step = _STEPS[mode]
    directions = 2 if bidirectional else 1
    finals = []
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            k = layer * directions + d
            if fused is not None:
                out, last = _fused_lstm_layer(input, hiddens[k], params[k], d == 1, fused)
            elif batch_sizes is None:
                out, last = _run_full(step, input, hiddens[k], params[k], d == 1)
            else:
                out, last = _run_packed(step, input, batch_sizes, hiddens[k], params[k], d == 1)
            outputs.append(out)
            finals.append(last)
        input = outputs[0] if directions == 1 else torch.cat(outputs, outputs[0].dim() - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            input = torch.dropout(input, dropout, True)
    return input, finals


def _check_devices(input, hx, flat_weights):
    for name, tensors in (("hidden", hx), ("parameter", flat_weights)):
        for t in tensors:
            if t.device != input.device:
                raise RuntimeError(
                    f"Input and {name} tensors are not at the same device, found input tensor "
                    f"at {input.device} and {name} tensor at {t.device}")


def _rnn(mode, input, batch_sizes, hx, flat_weights, params, num_layers, dropout, train,
         bidirectional, batch_first):
    """torch's ``_VF.rnn_tanh / rnn_relu / gru / lstm``: (output, h_n) or (output, h_n, c_n);
    ``hx`` is a tuple (h_0,) or (h_0, c_0)."""
    _check_devices(input, hx, flat_weights)
    if batch_first and batch_sizes is None:
        input = input.transpose(0, 1)
    fused = None
    if _onednn(mode, input, batch_sizes, params):
        # torch's oneDNN path: a contiguous input, states selected layer by layer; the
        # attrs its nodes show (mode 2: LSTM)
        fused = {"mode": 2, "batch_sizes": (), "hidden_size": hx[1].size(-1),
                 "num_layers": num_layers, "has_biases": params[0][2] is not None,
                 "bidirectional": bidirectional, "batch_first": batch_first, "train": train}
        input = input.contiguous() if batch_first else input
        hiddens = [(hx[0].select(0, k), hx[1].select(0, k)) for k in range(hx[0].size(0))]
    elif mode == "LSTM":
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    else:
        hiddens = hx[0].unbind(0)
    output, finals = _run_layers(mode, input, batch_sizes, hiddens, params, num_layers,
                                 dropout, train, bidirectional, fused)
    if batch_first and batch_sizes is None:
        # (torch's lstm transposes its result out of place, the others in place)
        output = output.transpose(0, 1) if mode == "LSTM" else output.transpose_(0, 1)
    if mode == "LSTM":
        h_n, c_n = zip(*finals)
        return output, torch.stack(h_n, 0), torch.stack(c_n, 0)
    return output, torch.stack(finals, 0)


# -- the modules --------------------------------------------------------------------------------

class RNNBase(Module):
    """What ``RNN``, ``LSTM`` and ``GRU`` share: the parameters, their checks and printing.

    For each layer ``l`` and direction (``_reverse`` for the second), in this order:
    ``weight_ih_l{l}`` (``gates*hidden x input``), ``weight_hh_l{l}``, ``bias_ih_l{l}``,
    ``bias_hh_l{l}`` (with ``bias``), ``weight_hr_l{l}`` (LSTM with ``proj_size``); every one
    drawn from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`` in that order, as torch does.
    """

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0, device=None,
                 dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        self._check_arguments(dropout)
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else real_hidden_size * directions
                shapes = [("weight_ih", (gate_size, layer_input)),
                          ("weight_hh", (gate_size, real_hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                suffix = "_reverse" if direction == 1 else ""
                names = []
                for stem, shape in shapes:
                    name = f"{stem}_l{layer}{suffix}"
                    setattr(self, name, Parameter(torch.empty(shape, device=device,
                                                              dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def _check_arguments(self, dropout):
        """torch's argument checks, in its order."""
        if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1
                or isinstance(dropout, bool)):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and self.num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={self.num_layers}", stacklevel=3)
        for name in ("bias", "batch_first"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} should be of type bool, got: "
                                f"{type(getattr(self, name)).__name__}")
        for name in ("input_size", "hidden_size"):
            value = getattr(self, name)
            if not isinstance(value, int):
                raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"{name} must be greater than zero")
        if self.num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if self.proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if self.proj_size >= self.hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")

    @property
    def _flat_weights(self):
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters grouped by (layer, direction)."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _layer_params(self):
        """Per (layer, direction): (w_ih, w_hh, b_ih, b_hh, w_hr), None where absent."""
        out = []
        for names in self._all_weights:
            stems = {name.split("_l")[0]: getattr(self, name) for name in names}
            out.append(tuple(stems.get(s) for s in ("weight_ih", "weight_hh", "bias_ih",
                                                    "bias_hh", "weight_hr")))
        return out

    def flatten_parameters(self):
        """A no-op, as torch's is off cuDNN (the weights are never packed into one buffer)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    # -- checks (torch's messages) --------------------------------------------------------------
    def check_input(self, input, batch_sizes):
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                f"Convert input: input.to({weight_dtype}), or convert model: "
                f"model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got "
                               f"{input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError("input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def _mini_batch(self, input, batch_sizes):
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.size(0) if self.batch_first else input.size(1)

    def get_expected_hidden_size(self, input, batch_sizes):
        directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * directions, self._mini_batch(input, batch_sizes), size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # -- forward --------------------------------------------------------------------------------
    def _zeros(self, input, batch, size):
        directions = 2 if self.bidirectional else 1
        return torch.zeros(self.num_layers * directions, batch, size, dtype=input.dtype,
                           device=input.device)

    def _run(self, input, batch_sizes, hx):
        """``_VF``'s call: hx is a tuple of state tensors (h_0,) or (h_0, c_0)."""
        if batch_sizes is not None:
            batch_sizes = batch_sizes.tolist()
        return _rnn(self.mode, input, batch_sizes, hx, self._flat_weights, self._layer_params(),
                    self.num_layers, self.dropout, self.training, self.bidirectional,
                    self.batch_first)

    def _forward_one_state(self, input, hx):
        """RNN and GRU: one state tensor (torch's order of checks and permutations)."""
        name = "RNN" if self.mode.startswith("RNN") else self.mode
        tail = " tensor instead" if name == "RNN" else " instead"
        packed = isinstance(input, PackedSequence)
        if packed:
            input, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                hx = self._zeros(input, int(batch_sizes[0]), self.hidden_size)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.dim() not in (2, 3):
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D"
                                 + tail)
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, hx should also be 2-D but "
                                           f"got {hx.dim()}-D tensor")
                    hx = hx.unsqueeze(1)
            elif hx is not None and hx.dim() != 3:
                raise RuntimeError("For batched 3-D input, hx should also be 3-D but got "
                                   f"{hx.dim()}-D tensor")
            if hx is None:
                hx = self._zeros(input, self._mini_batch(input, None), self.hidden_size)
        self.check_forward_args(input, hx, batch_sizes)
        output, hidden = self._run(input, batch_sizes, (hx,))
        if packed:
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        if not is_batched:
            output, hidden = output.squeeze(batch_dim), hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """An Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or ReLU).

    ``RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0.0, bidirectional=False)``; ``rnn(input, h_0=None)`` returns
    ``(output, h_n)``.
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' "
                             "or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_one_state(input, hx)


class GRU(RNNBase):
    """A gated recurrent unit RNN (gates r, z, n in that order in the weights).

    ``r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)``, ``z`` alike,
    ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``, ``h' = (1 - z) * n + z * h``
    (computed as ``(h - n) * z + n``, as torch does).
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_one_state(input, hx)


class LSTM(RNNBase):
    """A long short-term memory RNN (gates i, f, g, o in that order in the weights).

    ``c' = sigmoid(f) * c + sigmoid(i) * tanh(g)``, ``h' = sigmoid(o) * tanh(c')``, then
    ``h' = h' @ weight_hr^T`` with ``proj_size``.  ``lstm(input, (h_0, c_0)=None)`` returns
    ``(output, (h_n, c_n))``:

        >>> lstm = torch.nn.LSTM(10, 20, num_layers=2)
        >>> out, (h, c) = lstm(torch.randn(5, 3, 10))
        >>> out.shape, h.shape, c.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        directions = 2 if self.bidirectional else 1
        return (self.num_layers * directions, self._mini_batch(input, batch_sizes),
                self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        packed = isinstance(input, PackedSequence)
        if packed:
            input, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                batch = int(batch_sizes[0])
                hx = (self._zeros(input, batch, real_hidden_size),
                      self._zeros(input, batch, self.hidden_size))
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.dim() not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D "
                                 "instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            if hx is None:
                batch = self._mini_batch(input, None)
                hx = (self._zeros(input, batch, real_hidden_size),
                      self._zeros(input, batch, self.hidden_size))
            else:
                dims = (hx[0].dim(), hx[1].dim())
                want = 3 if is_batched else 2
                if dims != (want, want):
                    kind = "batched 3-D" if is_batched else "unbatched 2-D"
                    raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D "
                                       f"but got ({dims[0]}-D, {dims[1]}-D) tensors")
                if not is_batched:
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            self.check_forward_args(input, hx, batch_sizes)
        output, h_n, c_n = self._run(input, batch_sizes, tuple(hx))
        if packed:
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden((h_n, c_n), unsorted_indices))
        if not is_batched:
            output, h_n, c_n = output.squeeze(batch_dim), h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


# -- cells --------------------------------------------------------------------------------------

class RNNCellBase(Module):
    """The parameters of a cell: ``weight_ih`` (``gates*hidden x input``), ``weight_hh``,
    ``bias_ih``, ``bias_hh``, each drawn from ``U(-1/sqrt(hidden), 1/sqrt(hidden))``."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        kw = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), **kw))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), **kw))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **kw))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **kw))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, hx, count):
        """Check ranks (torch's messages), make 1-D input and states 2-D, fill in zeros:
        (is_batched, input, states)."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        states = hx if count == 2 else (hx,)
        if hx is not None:
            for idx, value in enumerate(states):
                if value.dim() not in (1, 2):
                    what = f"hx[{idx}]" if count == 2 else "hidden"
                    raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got "
                                     f"{value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype,
                                device=input.device)
            states = (zeros,) * count
        elif not is_batched:
            states = tuple(s.unsqueeze(0) for s in states)
        return is_batched, input, states

    def _step(self, step, input, states):
        """torch's ``_VF.*_cell``: the size checks, then one step."""
        if input.size(1) != self.weight_ih.size(1):
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} "
                               f"expected {self.weight_ih.size(1)}")
        for k, h in enumerate(states):
            if input.size(0) != h.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{k} "
                                   f"batch size {h.size(0)}")
            if h.size(1) != self.weight_hh.size(1):
                raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got {h.size(1)}, "
                                   f"expected {self.weight_hh.size(1)}")
        p = (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh, None)
        xw = F.linear(input, self.weight_ih, self.bias_ih)
        return step(xw, states if len(states) == 2 else states[0], p)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or ReLU)."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        is_batched, input, states = self._batched(input, hx, 1)
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = self._step(_STEPS["RNN_" + self.nonlinearity.upper()], input, states)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h', c') = cell(x, (h, c))`` (gates i, f, g, o)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        is_batched, input, states = self._batched(input, hx, 2)
        h, c = self._step(_lstm_step, input, states)
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step (gates r, z, n)."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        is_batched, input, states = self._batched(input, hx, 1)
        ret = self._step(_gru_step, input, states)
        return ret if is_batched else ret.squeeze(0)
