"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` over whole sequences, and the one-step
cells ``RNNCell``, ``LSTMCell``, ``GRUCell``, as PyTorch's CPU kernels compute them.

Each step is a cell (the math is in the ``_*_cell`` functions below, in PyTorch's gate
order: i, f, g, o for the LSTM; r, z, n for the GRU). A layer first projects the whole
sequence at once (x W_ih^T + b_ih, one ``linear``), then runs the cell step by step over
it; a reverse direction runs over the steps backwards; layers are stacked, with dropout
between them in training. PyTorch's CPU path (``aten/src/ATen/native/RNN.cpp``) does the
same, so the graph ends in the same nodes (``StackBackward0``, ``CatBackward0``, ...).
A ``PackedSequence`` (``nn.utils.rnn``) runs step by step with the batch shrinking as
sequences end, as PyTorch's packed layers do.
"""

from __future__ import annotations

import math
import numbers
import warnings

import minigrad

from .. import devices, errors
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
# PyTorch's float32 LSTM goes to oneDNN, which has no projections: it says so, once.
_ONEDNN_PROJECTIONS = ("LSTM with projections is not supported with oneDNN. Using default "
                       "implementation. (Triggered internally at /__w/pytorch/pytorch/aten/src/"
                       "ATen/native/RNN.cpp:1512.)")


# ---- one step of each cell: the math ---------------------------------------
# ``input_gates`` is x W_ih^T + b_ih, already computed; in-place ops where PyTorch's
# kernel has them (so the same graph nodes).

def _simple_cell(input_gates: Tensor, hx: Tensor, w_hh, b_hh, relu: bool) -> Tensor:
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""
    pre = F.linear(hx, w_hh, b_hh).add_(input_gates)
    return pre.relu() if relu else pre.tanh()


def _lstm_cell(input_gates: Tensor, hx: Tensor, cx: Tensor, w_hh, b_hh, w_hr):
    """i, f, o = sigmoid(...), g = tanh(...); c' = f c + i g; h' = o tanh(c') (times W_hr^T
    with a projection)."""
    gates = F.linear(hx, w_hh, b_hh).add_(input_gates)
    i, f, g, o = gates.unsafe_chunk(4, 1)
    i, f, g, o = i.sigmoid_(), f.sigmoid_(), g.tanh_(), o.sigmoid_()
    cy = (f * cx).add_(i * g)
    hy = o * cy.tanh()
    return (hy if w_hr is None else hy.matmul(w_hr.t())), cy


def _gru_cell(input_gates: Tensor, hx: Tensor, w_hh, b_hh) -> Tensor:
    """r, z = sigmoid(...); n = tanh(x W_in^T + b_in + r (h W_hn^T + b_hn));
    h' = (1 - z) n + z h, computed as PyTorch does: (h - n) z + n."""
    i_r, i_z, i_n = input_gates.unsafe_chunk(3, 1)
    h_r, h_z, h_n = F.linear(hx, w_hh, b_hh).unsafe_chunk(3, 1)
    r = h_r.add_(i_r).sigmoid_()
    z = h_z.add_(i_z).sigmoid_()
    n = i_n.add(h_n.mul_(r)).tanh_()
    return (hx - n).mul_(z).add_(n)


def _step(mode: str, input_gates: Tensor, hidden, weights):
    """One step of ``mode``'s cell; ``hidden`` is h (or (h, c) for the LSTM)."""
    w_hh, b_hh, w_hr = weights[1], weights[3], weights[4]
    if mode == "LSTM":
        return _lstm_cell(input_gates, hidden[0], hidden[1], w_hh, b_hh, w_hr)
    if mode == "GRU":
        return _gru_cell(input_gates, hidden, w_hh, b_hh)
    return _simple_cell(input_gates, hidden, w_hh, b_hh, mode == "RNN_RELU")


def _run_direction(mode: str, input: Tensor, hidden, weights, reverse: bool):
    """One layer in one direction over a (seq, batch, features) input: the outputs
    stacked in time order, and the last hidden state."""
    steps = F.linear(input, weights[0], weights[2]).unbind(0)
    outputs = []
    for input_gates in (reversed(steps) if reverse else steps):
        hidden = _step(mode, input_gates, hidden, weights)
        outputs.append(hidden[0] if mode == "LSTM" else hidden)
    if reverse:
        outputs.reverse()
    return minigrad.stack(outputs, 0), hidden


def _slice(hidden, start: int, end: int):
    """Rows start..end of a state (both parts of an LSTM's)."""
    if isinstance(hidden, tuple):
        return tuple(part.narrow(0, start, end - start) for part in hidden)
    return hidden.narrow(0, start, end - start)


def _concat(hiddens: list):
    if isinstance(hiddens[0], tuple):
        return tuple(minigrad.cat(parts, 0) for parts in zip(*hiddens))
    return minigrad.cat(hiddens, 0)


def _run_packed_direction(mode: str, data: Tensor, hidden, weights, reverse: bool,
                          batch_sizes: list):
    """One layer in one direction over packed data: at step t only the first
    batch_sizes[t] sequences run; a sequence's last state is kept when it ends (going
    backwards, the states of sequences that start later join in)."""
    gates = F.linear(data, weights[0], weights[2])
    outputs = []
    if not reverse:
        finished, offset, last = [], 0, batch_sizes[0]
        for size in batch_sizes:
            if size < last:
                finished.append(_slice(hidden, size, last))
                hidden = _slice(hidden, 0, size)
            hidden = _step(mode, gates.narrow(0, offset, size), hidden, weights)
            outputs.append(hidden[0] if mode == "LSTM" else hidden)
            offset, last = offset + size, size
        finished.append(hidden)
        return minigrad.cat(outputs, 0), _concat(finished[::-1])
    initial, offset, last = hidden, data.size(0), batch_sizes[-1]
    hidden = _slice(initial, 0, last)
    for size in reversed(batch_sizes):
        if size > last:
            hidden = _concat([hidden, _slice(initial, last, size)])
        hidden = _step(mode, gates.narrow(0, offset - size, size), hidden, weights)
        outputs.append(hidden[0] if mode == "LSTM" else hidden)
        offset, last = offset - size, size
    return minigrad.cat(outputs[::-1], 0), hidden


# ---- the sequence layers -----------------------------------------------------

class RNNBase(Module):
    """The shared machinery of ``RNN``, ``LSTM`` and ``GRU``: parameters named
    ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (and
    ``weight_hr_l{k}`` with ``proj_size``; ``_reverse`` for the backward direction),
    all drawn uniform on [-1/sqrt(hidden_size), 1/sqrt(hidden_size)] in that order."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         proj_size)
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, proj_size
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names, self._all_weights = [], []
        for layer in range(num_layers):
            for direction in range(2 if bidirectional else 1):
                layer_input_size = input_size if layer == 0 else real_hidden_size * (
                    2 if bidirectional else 1)
                suffix = f"l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = {f"weight_ih_{suffix}": (gate_size, layer_input_size),
                          f"weight_hh_{suffix}": (gate_size, real_hidden_size)}
                if bias:
                    shapes[f"bias_ih_{suffix}"] = (gate_size,)
                    shapes[f"bias_hh_{suffix}"] = (gate_size,)
                if proj_size > 0:
                    shapes[f"weight_hr_{suffix}"] = (proj_size, hidden_size)
                for name, shape in shapes.items():
                    self.register_parameter(name, Parameter(minigrad.empty(shape, dtype=dtype,
                                                                           device=device)))
                self._flat_weights_names.extend(shapes)
                self._all_weights.append(list(shapes))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias uniform on [-1/sqrt(hidden_size), 1/sqrt(hidden_size)]."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self) -> None:
        """Nothing to do on the CPU (PyTorch packs weights for cuDNN here)."""

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        """The parameters of each layer and direction, as lists."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _layer_weights(self, layer: int, direction: int) -> tuple:
        """(w_ih, w_hh, b_ih, b_hh, w_hr) of one layer and direction (None where absent)."""
        suffix = f"l{layer}" + ("_reverse" if direction == 1 else "")
        return tuple(self._parameters.get(f"{kind}_{suffix}")
                     for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"))

    def _run(self, input: Tensor, hiddens: list, batch_sizes=None) -> tuple[Tensor, list]:
        """All layers over a (seq, batch, features) input (or packed data with its
        ``batch_sizes``) from the initial states ``hiddens`` (one per layer and direction);
        returns the output and the last states."""
        directions = 2 if self.bidirectional else 1
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            if batch_sizes is None and self._runs_onednn(input):
                input = input.contiguous()  # (oneDNN reads each layer's input contiguous)
            for direction in range(directions):
                state = hiddens[layer * directions + direction]
                weights = self._layer_weights(layer, direction)
                if batch_sizes is None and self._runs_onednn(input):
                    output, *final = minigrad.mkldnn_rnn_layer(
                        input, *weights[:4], *state, direction == 1, [], 2, self.hidden_size,
                        1, True, False, False, self.training)[:3]
                    final = tuple(final)
                elif batch_sizes is None:
                    output, final = _run_direction(self.mode, input, state, weights,
                                                   reverse=direction == 1)
                else:
                    output, final = _run_packed_direction(self.mode, input, state, weights,
                                                          direction == 1, batch_sizes)
                outputs.append(output)
                finals.append(final)
            input = outputs[0] if directions == 1 else minigrad.cat(outputs, outputs[0].dim() - 1)
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                input = F.dropout(input, self.dropout, True)
        return input, finals

    def _runs_onednn(self, input: Tensor) -> bool:
        """PyTorch's CPU runs a float32 LSTM with biases and no projections through
        oneDNN: one MkldnnRnnLayerBackward0 node per layer and direction."""
        return (self.mode == "LSTM" and input.dtype == minigrad.float32 and self.bias
                and self.proj_size == 0)

    def check_input(self, input: Tensor, batch_sizes=None) -> None:
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                f"Convert input: input.to({weight.dtype}), or convert model: "
                f"model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got "
                               f"{input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input: Tensor, batch_sizes=None) -> tuple[int, int, int]:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * directions, mini_batch, size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size,
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes=None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def _batched(self, input: Tensor, name: str):
        """Check the input's dims; an unbatched (seq, features) input gets a batch dim."""
        if input.dim() not in (2, 3):
            tensor = " tensor" if name == "RNN" else ""
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D"
                             f"{tensor} instead")
        is_batched = input.dim() == 3
        if not is_batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        return input, is_batched

    def _forward_packed(self, packed: PackedSequence, hx):
        """The forward over a PackedSequence: the batch in its sorted order (``hx`` too),
        the output packed alike, the last states back in the caller's order."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        lstm = self.mode == "LSTM"
        if hx is None:
            h = minigrad.zeros(self.get_expected_hidden_size(data, batch_sizes),
                               dtype=data.dtype, device=data.device)
            hx = (h, minigrad.zeros(self.get_expected_cell_size(data, batch_sizes),
                                    dtype=data.dtype, device=data.device)) if lstm else h
        elif sorted_indices is not None:
            hx = (tuple(part.index_select(1, sorted_indices) for part in hx) if lstm
                  else hx.index_select(1, sorted_indices))
        self.check_forward_args(data, hx, batch_sizes)
        states = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if lstm else list(hx.unbind(0))
        output, finals = self._run(data, states, [int(n) for n in batch_sizes.tolist()])
        if lstm:
            hidden = (minigrad.stack([h for h, _ in finals], 0),
                      minigrad.stack([c for _, c in finals], 0))
        else:
            hidden = minigrad.stack(finals, 0)
        if unsorted_indices is not None:
            hidden = (tuple(part.index_select(1, unsorted_indices) for part in hidden) if lstm
                      else hidden.index_select(1, unsorted_indices))
        return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), hidden

    def _forward_one_state(self, input: Tensor, hx: Tensor | None, name: str):
        """RNN's and GRU's forward: one state tensor h (layers * directions, batch, hidden)."""
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        input, is_batched = self._batched(input, name)
        if hx is not None:
            _check_hx_dims(hx, is_batched)
            hx = hx if is_batched else hx.unsqueeze(1)
        else:
            hx = minigrad.zeros(self.get_expected_hidden_size(input), dtype=input.dtype,
                                device=input.device)
        self.check_forward_args(input, hx, None)
        output, finals = self._run(self._sequence_first(input), list(hx.unbind(0)))
        output, hidden = self._batch_first_output(output), minigrad.stack(finals, 0)
        if not is_batched:
            output, hidden = output.squeeze(0 if self.batch_first else 1), hidden.squeeze(1)
        return output, hidden

    def _sequence_first(self, input: Tensor) -> Tensor:
        return input.transpose(0, 1) if self.batch_first else input

    def _batch_first_output(self, output: Tensor) -> Tensor:
        return output.transpose_(0, 1) if self.batch_first else output

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


def _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                     proj_size) -> None:
    """PyTorch's checks of an RNN's arguments, with its texts."""
    if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1
            or isinstance(dropout, bool)):
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                      "non-zero dropout expects num_layers greater than 1, but got "
                      f"dropout={dropout} and num_layers={num_layers}", stacklevel=3)
    if not isinstance(bias, bool):
        raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
    if not isinstance(batch_first, bool):
        raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
    if not isinstance(input_size, int):
        raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


def _check_hx_dims(hx: Tensor, is_batched: bool) -> None:
    if is_batched and hx.dim() != 3:
        raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got "
                           f"{hx.dim()}-D tensor")
    if not is_batched and hx.dim() != 2:
        raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got "
                           f"{hx.dim()}-D tensor")


class RNN(RNNBase):
    """An Elman network: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu,
    ``nonlinearity='relu'``), for each layer. ``rnn(x, h0)`` returns (output, h_n): the
    last layer's h_t for every t, and every layer's last h.

    >>> rnn = RNN(10, 20, 2)
    >>> output, hn = rnn(minigrad.randn(5, 3, 10), minigrad.randn(2, 3, 20))
    >>> output.shape, hn.shape
    (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs) -> None:
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

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        return self._forward_one_state(input, hx, "RNN")


class GRU(RNNBase):
    """Gated recurrent units: r_t = sigmoid(x W_ir^T + b_ir + h W_hr^T + b_hr), z_t likewise,
    n_t = tanh(x W_in^T + b_in + r_t (h W_hn^T + b_hn)), h_t = (1 - z_t) n_t + z_t h_{t-1}
    (the weights stack the r, z, n parts in that order)."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        return self._forward_one_state(input, hx, "GRU")


class LSTM(RNNBase):
    """Long short-term memory: i, f, g, o gates (sigmoid, sigmoid, tanh, sigmoid of
    x W_i*^T + b_i* + h W_h*^T + b_h*), c_t = f c_{t-1} + i g, h_t = o tanh(c_t).
    ``lstm(x, (h0, c0))`` returns (output, (h_n, c_n)); ``proj_size`` > 0 projects h_t
    with ``weight_hr``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes=None) -> tuple[int, int, int]:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        directions = 2 if self.bidirectional else 1
        return (self.num_layers * directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden, batch_sizes=None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def forward(self, input: Tensor, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        input, is_batched = self._batched(input, "LSTM")
        if hx is None:
            h_zeros = minigrad.zeros(self.get_expected_hidden_size(input), dtype=input.dtype,
                                     device=input.device)
            c_zeros = minigrad.zeros(self.get_expected_cell_size(input), dtype=input.dtype,
                                     device=input.device)
            hx = (h_zeros, c_zeros)
        elif is_batched and (hx[0].dim() != 3 or hx[1].dim() != 3):
            raise RuntimeError(f"For batched 3-D input, hx and cx should also be 3-D but got "
                               f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        elif not is_batched:
            if hx[0].dim() != 2 or hx[1].dim() != 2:
                raise RuntimeError(f"For unbatched 2-D input, hx and cx should also be 2-D but "
                                   f"got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        if self.proj_size > 0 and input.dtype == minigrad.float32:
            errors.warn_once(_ONEDNN_PROJECTIONS, stacklevel=2)
        if self._runs_onednn(input):  # (PyTorch's oneDNN path selects each layer's state)
            states = [(hx[0][k], hx[1][k]) for k in range(hx[0].size(0))]
        else:
            states = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
        output, finals = self._run(self._sequence_first(input), states)
        output = output.transpose(0, 1) if self.batch_first else output  # (not in place here)
        h_n = minigrad.stack([h for h, _ in finals], 0)
        c_n = minigrad.stack([c for _, c in finals], 0)
        if not is_batched:
            return output.squeeze(0 if self.batch_first else 1), (h_n.squeeze(1), c_n.squeeze(1))
        return output, (h_n, c_n)


# ---- the cells: one step ------------------------------------------------------

class RNNCellBase(Module):
    """``weight_ih`` (chunks * hidden, input), ``weight_hh`` (chunks * hidden, hidden),
    ``bias_ih``, ``bias_hh``, uniform on [-1/sqrt(hidden_size), 1/sqrt(hidden_size)]."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device=None, dtype=None) -> None:
        super().__init__()
        devices.meta_requested(device)  # (raises for a device minigrad lacks)
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(minigrad.empty(num_chunks * hidden_size, input_size,
                                                  dtype=dtype, device=device))
        self.weight_hh = Parameter(minigrad.empty(num_chunks * hidden_size, hidden_size,
                                                  dtype=dtype, device=device))
        if bias:
            self.bias_ih = Parameter(minigrad.empty(num_chunks * hidden_size, dtype=dtype,
                                                    device=device))
            self.bias_hh = Parameter(minigrad.empty(num_chunks * hidden_size, dtype=dtype,
                                                    device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias uniform on [-1/sqrt(hidden_size), 1/sqrt(hidden_size)]."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input: Tensor, hx: Tensor | None, name: str):
        """PyTorch's dim checks; a 1-D input gets a batch dim, a missing hx is zeros."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = minigrad.zeros(input.size(0), self.hidden_size, dtype=input.dtype,
                                device=input.device)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(RNNCellBase):
    """One step of an Elman network: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._prepare(input, hx, "RNNCell")
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        input_gates = F.linear(input, self.weight_ih, self.bias_ih)
        ret = _simple_cell(input_gates, hx, self.weight_hh, self.bias_hh,
                           self.nonlinearity == "relu")
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: (h', c') from x and (h, c); gates i, f, g, o in that order."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx=None) -> tuple[Tensor, Tensor]:
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got "
                                     f"{value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = minigrad.zeros(input.size(0), self.hidden_size, dtype=input.dtype,
                                   device=input.device)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        input_gates = F.linear(input, self.weight_ih, self.bias_ih)
        hy, cy = _lstm_cell(input_gates, hx[0], hx[1], self.weight_hh, self.bias_hh, None)
        return (hy, cy) if is_batched else (hy.squeeze(0), cy.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: h' from x and h; gates r, z, n in that order."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, is_batched = self._prepare(input, hx, "GRUCell")
        input_gates = F.linear(input, self.weight_ih, self.bias_ih)
        ret = _gru_cell(input_gates, hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
