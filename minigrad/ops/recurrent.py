"""One layer of a float32 LSTM in one direction as one node, as PyTorch's CPU runs it
(through oneDNN's ``mkldnn_rnn_layer``): ``MkldnnRnnLayerBackward0``, the grad_fn a
printed LSTM output names, with the layer's input, weights, biases and initial state as
its inputs and (output, h_T, c_T) as its outputs.

The math is the cell's (``nn/rnn.py``'s ``_lstm_cell``), step after step:

    gates = x_t W_ih^T + b_ih + h W_hh^T + b_hh,  split into i, f, g, o
    i, f, o = sigmoid(.),  g = tanh(.),  c' = f c + i g,  h' = o tanh(c')

computed with the same kernels in the same order, so the values are the native path's.
Backward runs the steps again (on arrays; on Tensors with ``create_graph=True``, so that
the gradient is itself recorded, as PyTorch's differentiable backward of this node) and
goes back through them (backpropagation through time).
"""

from __future__ import annotations

from ..autograd.formula import Formula
from ..autograd.node import Input
from . import fn
from .linalg_module import _Factorization


class MkldnnRnnLayerBackward0(_Factorization):
    formula = Formula("(output, h_T, c_T)", "an LSTM layer run over the sequence, step by step",
                      grad={"input, weights, h_0, c_0": "back through the steps"})
    saves = {"input": Input(0), "weight0": Input(1), "weight1": Input(2), "weight2": Input(3),
             "weight3": Input(4), "hx_": Input(5), "cx_": Input(6)}

    def forward(self, x, w_ih, w_hh, b_ih, b_hh, h, c, reverse):
        self.save(reverse=reverse)
        steps = lstm_steps(x, w_ih, w_hh, b_ih, b_hh, h, c, reverse)
        outputs = [step[-1] for step in steps]
        return fn.stack(outputs[::-1] if reverse else outputs, 0), steps[-1][-1], steps[-1][6]

    def backward(self, saved, *grads):
        steps = lstm_steps(saved.input, saved.weight0, saved.weight1, saved.weight2,
                           saved.weight3, saved.hx_, saved.cx_, saved.reverse)
        return lstm_backward(steps, saved, *self.present(grads, 3))


def lstm_steps(x, w_ih, w_hh, b_ih, b_hh, h, c, reverse) -> list:
    """Each step, in the order run: (h, c before it, i, f, g, o, c', tanh c', h')."""
    seq, batch = x.shape[0], x.shape[1]
    rows = fn.reshape(x, (seq * batch, x.shape[2]))
    input_gates = fn.reshape(fn.matmul(rows, fn.t(w_ih)) + b_ih, (seq, batch, -1))
    size, steps = w_hh.shape[1], []
    for t in (reversed(range(seq)) if reverse else range(seq)):
        gates = fn.matmul(h, fn.t(w_hh)) + b_hh + fn.select(input_gates, 0, t)
        i, f, g, o = (fn.narrow(gates, 1, k * size, size) for k in range(4))
        i, f, g, o = fn.sigmoid(i), fn.sigmoid(f), fn.tanh(g), fn.sigmoid(o)
        c_new = f * c + i * g
        tanh_c = fn.tanh(c_new)
        steps.append((h, c, i, f, g, o, c_new, tanh_c, o * tanh_c))
        h, c = steps[-1][-1], c_new
    return steps


def lstm_backward(steps, saved, grad_output, grad_hy, grad_cy) -> tuple:
    """The gradients of the layer's seven inputs from those of its three outputs: back
    through the steps, each gate's derivative as the cell's ops give it."""
    x, w_ih, w_hh = saved.input, saved.weight0, saved.weight1
    like = steps[0][-1]
    grad_h = fn.zeros(like.shape, like) if grad_hy is None else grad_hy
    grad_c = fn.zeros(like.shape, like) if grad_cy is None else grad_cy
    order = range(len(steps) - 1, -1, -1) if saved.reverse else range(len(steps))
    grad_gates, grad_w_hh = [None] * len(steps), None
    for (h, c, i, f, g, o, _, tanh_c, _), t in reversed(list(zip(steps, order))):
        if grad_output is not None:
            grad_h = grad_h + fn.select(grad_output, 0, t)
        grad_c = grad_c + fn.tanh_backward(grad_h * o, tanh_c)
        gates = fn.cat([fn.sigmoid_backward(grad_c * g, i), fn.sigmoid_backward(grad_c * c, f),
                        fn.tanh_backward(grad_c * i, g),
                        fn.sigmoid_backward(grad_h * tanh_c, o)], 1)
        grad_gates[t] = gates
        step_w_hh = fn.matmul(fn.t(gates), h)
        grad_w_hh = step_w_hh if grad_w_hh is None else grad_w_hh + step_w_hh
        grad_h, grad_c = fn.matmul(gates, w_hh), grad_c * f
    grad_gates = fn.stack(grad_gates, 0)
    rows = fn.reshape(grad_gates, (-1, grad_gates.shape[2]))
    grad_x = fn.reshape(fn.matmul(rows, w_ih), x.shape)
    grad_w_ih = fn.matmul(fn.t(rows), fn.reshape(x, (-1, x.shape[2])))
    return grad_x, grad_w_ih, grad_w_hh, fn.sum(rows, 0), fn.sum(rows, 0), grad_h, grad_c


def mkldnn_rnn_layer(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse: bool) -> tuple:
    """(output, h_T, c_T) of one float32 LSTM layer in one direction: one node."""
    return MkldnnRnnLayerBackward0.apply(input, w_ih, w_hh, b_ih, b_hh, hx, cx,
                                         reverse=bool(reverse))
