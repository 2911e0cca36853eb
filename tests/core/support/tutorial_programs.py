"""Programs in the style of PyTorch's "Learning PyTorch with Examples", written for this
kit (not copied from the tutorials): fitting a polynomial with plain tensors, with
autograd, with a custom autograd.Function, with nn, with optim and a custom Module; a
network whose depth is random on every step; two-layer networks, also in the pre-0.4
style with ``Variable`` and ``size_average=False``.

Each program takes the library as ``torch`` (PyTorch or ``import minigrad as torch``),
prints its progress as the tutorials do, and returns nothing. ``test_tutorial_programs``
runs each under both libraries and compares what they print.
"""

from __future__ import annotations

import random

class _Weights:
    """Initial weights for nn.Linear layers drawn from ``torch.randn`` after seeding (so
    that both libraries start from the same numbers), copied in under no_grad."""

    @staticmethod
    def fill(torch, model):
        torch.manual_seed(1)
        with torch.no_grad():
            for param in model.parameters():
                param.copy_(torch.randn(*param.shape) * 0.1)


def _loss(prediction, loss):
    return (loss.item(),)


def _fit(steps, forward, update, report=_loss):
    """The tutorials' training loop: ``forward()`` gives (prediction, loss), every 20th
    step prints the step and ``report(prediction, loss)``, then ``update(loss)`` runs
    backward and changes the weights."""
    for step in range(steps):
        prediction, loss = forward()
        if step % 20 == 19:
            print(step, *report(prediction, loss))
        update(loss)


def _predicted(model, x, loss_fn, target):
    """``forward`` for _fit: (model(x), loss_fn(model(x), target))."""
    prediction = model(x)
    return prediction, loss_fn(prediction, target)


def _optimiser_step(optimizer):
    """``update`` for _fit: zero the gradients, backward, one step of ``optimizer``."""
    def update(loss):
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return update


# ---- fitting a polynomial: y = log(1 + x^2) on [-2, 2] by a + b x + c x^2 + d x^3 -----------

STEPS = 150


def _curve(torch, device, dtype):
    x = torch.linspace(-2, 2, 1000, device=device, dtype=dtype)
    return x, torch.log(1 + x * x)


def polynomial_with_tensors(torch):
    """Forward pass and hand-written gradients: no autograd at all."""
    dtype = torch.float
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x, y = _curve(torch, device, dtype)
    a, b, c, d = (torch.randn((), device=device, dtype=dtype) for _ in range(4))
    learning_rate = 2e-5
    for step in range(STEPS):
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum().item()
        if step % 20 == 19:
            print(step, loss)
        grad_y_pred = 2.0 * (y_pred - y)
        a -= learning_rate * grad_y_pred.sum()
        b -= learning_rate * (grad_y_pred * x).sum()
        c -= learning_rate * (grad_y_pred * x ** 2).sum()
        d -= learning_rate * (grad_y_pred * x ** 3).sum()
    print(f"y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")


def polynomial_with_autograd(torch):
    """The same fit; backward() computes the gradients, updates run under no_grad."""
    dtype = torch.float
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.set_default_device(device)
    try:
        x, y = _curve(torch, None, dtype)
        weights = [torch.randn((), dtype=dtype, requires_grad=True) for _ in range(4)]
        a, b, c, d = weights

        def forward():
            y_pred = a + b * x + c * x ** 2 + d * x ** 3
            return y_pred, (y_pred - y).pow(2).sum()

        def update(loss):
            loss.backward()
            with torch.no_grad():
                for w in weights:
                    w -= 2e-5 * w.grad
                    w.grad = None

        _fit(STEPS, forward, update)
        print(f"y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")
    finally:
        torch.set_default_device(None)


def polynomial_with_a_function(torch):
    """A custom autograd.Function: the cubic Hermite smoothstep h(t) = 3t^2 - 2t^3,
    with its derivative h'(t) = 6t(1 - t) written by hand; y ~ a + b h(c + d x)."""

    class SmoothStep(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return 3 * t ** 2 - 2 * t ** 3

        @staticmethod
        def backward(ctx, grad_output):
            (t,) = ctx.saved_tensors
            return grad_output * 6 * t * (1 - t)

    x, y = _curve(torch, "cpu", torch.float32)
    a = torch.full((), 0.1, requires_grad=True)
    b = torch.full((), 1.5, requires_grad=True)
    c = torch.full((), 0.5, requires_grad=True)
    d = torch.full((), 0.2, requires_grad=True)
    smoothstep = SmoothStep.apply

    def forward():
        y_pred = a + b * smoothstep(c + d * x)
        return y_pred, (y_pred - y).pow(2).sum()

    def update(loss):
        loss.backward()
        with torch.no_grad():
            for w in (a, b, c, d):
                w -= 5e-5 * w.grad
                w.grad.zero_()

    _fit(STEPS, forward, update,
         report=lambda y_pred, loss: (loss.item(), y_pred.grad_fn.name()))
    print(f"y = {a.item()} + {b.item()} * smoothstep({c.item()} + {d.item()} x)")


def _linear_on_features(torch):
    """The features (x, x^2, x^3) of the curve and its y, a seeded
    nn.Sequential(Linear, Flatten) and the summed squared error."""
    x, y = _curve(torch, "cpu", torch.float32)
    xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))  # (1000, 3): x, x^2, x^3
    model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
    _Weights.fill(torch, model)
    return xx, y, model, torch.nn.MSELoss(reduction="sum")


def polynomial_with_nn(torch):
    """nn.Sequential(Linear, Flatten) on the features (x, x^2, x^3); a manual step."""
    xx, y, model, loss_fn = _linear_on_features(torch)

    def update(loss):
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param -= 2e-5 * param.grad

    _fit(STEPS, lambda: _predicted(model, xx, loss_fn, y), update)
    linear = model[0]
    print(f"y = {linear.bias.item()} + {linear.weight[:, 0].item()} x + "
          f"{linear.weight[:, 1].item()} x^2 + {linear.weight[:, 2].item()} x^3")


def polynomial_with_optim(torch):
    """The same model trained by an optimiser (RMSprop, as the tutorials use)."""
    xx, y, model, loss_fn = _linear_on_features(torch)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    _fit(STEPS, lambda: _predicted(model, xx, loss_fn, y), _optimiser_step(optimizer))
    print("weight", model[0].weight.tolist(), "bias", model[0].bias.tolist())


def polynomial_module(torch):
    """A custom nn.Module holding four Parameters, trained with SGD and momentum."""

    class Cubic(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b, self.c, self.d = (torch.nn.Parameter(torch.randn(()))
                                              for _ in range(4))

        def forward(self, x):
            return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

        def string(self):
            return (f"y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + "
                    f"{self.d.item()} x^3")

    x, y = _curve(torch, "cpu", torch.float32)
    model = Cubic()
    criterion = torch.nn.MSELoss(reduction="sum")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-5, momentum=0.9)
    _fit(STEPS, lambda: _predicted(model, x, criterion, y), _optimiser_step(optimizer))
    print(model.string())
    print([name for name, _ in model.named_parameters()])


def dynamic_depth(torch):
    """Each forward pass adds the terms x^4, x^5 (0, 1 or 2 of them, at random) with one
    shared weight e: the graph is rebuilt, with a different depth, on every step."""

    class Dynamic(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b, self.c, self.d, self.e = (torch.nn.Parameter(torch.randn(()) * 0.1)
                                                      for _ in range(5))

        def forward(self, x):
            y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
            for exp in range(4, random.randint(4, 6)):
                y = y + self.e * x ** exp
            return y

    random.seed(7)
    x, y = _curve(torch, "cpu", torch.float32)
    model = Dynamic()
    criterion = torch.nn.MSELoss(reduction="sum")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-6, momentum=0.9)
    _fit(STEPS, lambda: _predicted(model, x, criterion, y), _optimiser_step(optimizer))
    print([round(p.item(), 6) for p in model.parameters()])


# ---- two-layer networks: 32 samples, 100 -> 50 -> 10, ReLU -------------------------------------

N, D_IN, H, D_OUT = 32, 100, 50, 10
NET_STEPS = 100


def two_layer_tensors(torch):
    """Forward and backward by hand (matrix products and a ReLU)."""
    device = torch.device("cpu")
    x = torch.randn(N, D_IN, device=device)
    y = torch.randn(N, D_OUT, device=device)
    w1 = torch.randn(D_IN, H, device=device) * 0.1
    w2 = torch.randn(H, D_OUT, device=device) * 0.1
    for step in range(NET_STEPS):
        h = x.mm(w1)
        h_relu = h.clamp(min=0)
        y_pred = h_relu.mm(w2)
        loss = (y_pred - y).pow(2).sum().item()
        if step % 20 == 19:
            print(step, loss)
        grad_y_pred = 2.0 * (y_pred - y)
        grad_w2 = h_relu.t().mm(grad_y_pred)
        grad_h = grad_y_pred.mm(w2.t()).clone()
        grad_h[h < 0] = 0
        grad_w1 = x.t().mm(grad_h)
        w1 -= 1e-4 * grad_w1
        w2 -= 1e-4 * grad_w2


def two_layer_autograd(torch):
    """The same network; autograd computes the gradients."""
    x, y = torch.randn(N, D_IN), torch.randn(N, D_OUT)
    w1 = (torch.randn(D_IN, H) * 0.1).requires_grad_()
    w2 = (torch.randn(H, D_OUT) * 0.1).requires_grad_()

    def forward():
        y_pred = x.mm(w1).clamp(min=0).mm(w2)
        return y_pred, (y_pred - y).pow(2).sum()

    def update(loss):
        loss.backward()
        with torch.no_grad():
            for w in (w1, w2):
                w -= 1e-4 * w.grad
                w.grad.zero_()

    _fit(NET_STEPS, forward, update)


def two_layer_variables(torch):
    """The pre-0.4 style: Variables, .data updates and a loss with size_average=False."""
    Variable = torch.autograd.Variable

    x = Variable(torch.randn(N, D_IN), requires_grad=False)
    y = Variable(torch.randn(N, D_OUT), requires_grad=False)
    w1 = Variable(torch.randn(D_IN, H) * 0.1, requires_grad=True)
    w2 = Variable(torch.randn(H, D_OUT) * 0.1, requires_grad=True)
    loss_fn = torch.nn.MSELoss(size_average=False)

    def forward():
        y_pred = x.mm(w1).clamp(min=0).mm(w2)
        return y_pred, loss_fn(y_pred, y)

    def update(loss):
        loss.backward()
        w1.data -= 1e-4 * w1.grad.data
        w2.data -= 1e-4 * w2.grad.data
        w1.grad.data.zero_()
        w2.grad.data.zero_()

    _fit(NET_STEPS, forward, update)


def two_layer_nn_adam(torch):
    """nn.Sequential(Linear, ReLU, Linear), mean squared error, Adam."""
    x, y = torch.randn(N, D_IN), torch.randn(N, D_OUT)
    model = torch.nn.Sequential(torch.nn.Linear(D_IN, H), torch.nn.ReLU(),
                                torch.nn.Linear(H, D_OUT))
    _Weights.fill(torch, model)
    loss_fn = torch.nn.MSELoss(reduction="sum")
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    _fit(NET_STEPS, lambda: _predicted(model, x, loss_fn, y), _optimiser_step(optimizer))
    print(model)


def two_layer_module_adamw(torch):
    """A custom Module (two Linear layers), AdamW and a classification loss."""

    class TwoLayerNet(torch.nn.Module):
        def __init__(self, d_in, h, d_out):
            super().__init__()
            self.linear1 = torch.nn.Linear(d_in, h)
            self.linear2 = torch.nn.Linear(h, d_out)

        def forward(self, x):
            return self.linear2(self.linear1(x).clamp(min=0))

    x = torch.randn(N, D_IN)
    labels = torch.randint(0, D_OUT, (N,))
    model = TwoLayerNet(D_IN, H, D_OUT)
    _Weights.fill(torch, model)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.05)

    def report(scores, loss):
        accuracy = (scores.argmax(dim=1) == labels).float().mean()
        return loss.item(), accuracy.item()

    _fit(NET_STEPS, lambda: _predicted(model, x, criterion, labels), _optimiser_step(optimizer),
         report)


def two_layer_adagrad_on_default_device(torch):
    """Written for "the accelerator if there is one": every tensor and the model are
    put on that device (the CPU here), trained with Adagrad."""
    device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() \
        else torch.device("cpu")
    x, y = torch.randn(N, D_IN).to(device), torch.randn(N, D_OUT).to(device)
    model = torch.nn.Sequential(torch.nn.Linear(D_IN, H), torch.nn.Tanh(),
                                torch.nn.Linear(H, D_OUT)).to(device)
    _Weights.fill(torch, model)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=1e-2)
    _fit(NET_STEPS, lambda: _predicted(model, x, torch.nn.functional.mse_loss, y),
         _optimiser_step(optimizer), report=lambda y_pred, loss: (loss.item(), loss.device))


PROGRAMS = [polynomial_with_tensors, polynomial_with_autograd, polynomial_with_a_function,
            polynomial_with_nn, polynomial_with_optim, polynomial_module, dynamic_depth,
            two_layer_tensors, two_layer_autograd, two_layer_variables, two_layer_nn_adam,
            two_layer_module_adamw, two_layer_adagrad_on_default_device]
