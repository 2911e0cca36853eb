"""LazyLinear, LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d and LazyBatchNorm1d/2d/3d against
torch: shapes from the first input, the same initial values drawn then, reprs before and
after, state_dict keys, training."""

from __future__ import annotations

import numpy as np
import torch

import minigrad as mg


def _lazy(lib):
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2, bias=False))
    out += [repr(net), repr(net[0].weight), type(net[0].weight).__name__,
            list(net.state_dict()), repr(list(net.parameters()))]
    try:
        net[0].weight.shape  # noqa: B018
    except RuntimeError as error:
        out.append(str(error))
    y = net(lib.ones(3, 5))  # (the first input sets the shapes and draws the weights)
    out += [repr(net), type(net[0]).__name__, type(net[0].weight).__name__,
            repr(net[0].weight), repr(y), len(net[0]._forward_pre_hooks)]
    optimizer = lib.optim.SGD(net.parameters(), lr=0.1)
    y.sum().backward()
    optimizer.step()
    out.append(repr(net[2].weight))
    return out


def test_lazy_linear_matches_torch():
    assert _lazy(mg) == _lazy(torch)


def _lazy_batchnorm(lib):
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    bn = nn.LazyBatchNorm1d()
    out += [repr(bn), repr(bn.running_mean), list(bn.state_dict()), repr(bn.num_batches_tracked),
            repr(bn.weight)]
    y = bn(lib.randn(4, 3))
    out += [repr(bn), repr(bn.running_mean), type(bn.running_mean).__name__,
            type(bn.weight).__name__, repr(y)]
    plain = nn.LazyBatchNorm2d(affine=False, track_running_stats=False)
    out.append(repr(plain))
    plain(lib.randn(2, 3, 4, 4))
    out += [repr(plain), list(plain.state_dict())]
    net = nn.Sequential(nn.LazyLinear(6), nn.LazyBatchNorm1d(), nn.ReLU(), nn.LazyLinear(1))
    out.append(repr(net))
    x = lib.randn(8, 5)
    net(x)
    optimizer = lib.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(3):
        optimizer.zero_grad()
        loss = net(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        out.append(f"{loss.item():.6f}")
    return out + [repr(net), repr(net[1].running_var), repr(net[1].num_batches_tracked)]


def test_lazy_batchnorm_matches_torch():
    assert _lazy_batchnorm(mg) == _lazy_batchnorm(torch)


def _load_into_lazy(lib):
    """d2l's read-write section: a lazy MLP's state_dict saved, then loaded into a fresh
    lazy MLP (its parameters take the saved shapes), printed before its first forward
    (still LazyLinear, in_features=0, as PyTorch prints it), then run: the same output;
    and a lazy BatchNorm's running statistics loaded the same way."""
    nn = lib.nn
    lib.manual_seed(0)
    net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(3))
    x = lib.randn(2, 5)
    y = net(x)
    clone = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(3))
    result = clone.load_state_dict(net.state_dict())
    out = [repr(result), repr(clone.eval()), type(clone[0].weight).__name__,
           tuple(clone[0].weight.shape), bool((clone(x) == y).all()), repr(clone),
           len(clone[0]._forward_pre_hooks)]
    norm = nn.LazyBatchNorm1d()
    norm(lib.randn(4, 3))
    fresh = nn.LazyBatchNorm1d()
    fresh.load_state_dict(norm.state_dict())
    out += [repr(fresh.running_mean), repr(fresh.num_batches_tracked), repr(fresh)]
    try:
        nn.LazyLinear(2).load_state_dict({"weight": lib.ones(2, 3)})
    except RuntimeError as error:
        out.append(str(error))
    return out


def test_loading_a_state_dict_into_a_lazy_model_matches_torch():
    assert _load_into_lazy(mg) == _load_into_lazy(torch)


def _lazy_conv(lib):
    """d2l's convolutions: LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d (and LazyBatchNorm3d)
    printed before and after the first input, the
    weights PyTorch draws then, a small LazyConv2d LeNet trained a few steps, the errors."""
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    conv = nn.LazyConv2d(6, kernel_size=5, padding=2)
    out += [repr(conv), type(conv.weight).__name__, list(conv.state_dict())]
    y = conv(lib.rand(2, 3, 8, 8))
    out += [repr(conv), type(conv).__name__, repr(conv.weight[0, 0, 0]), repr(conv.bias),
            repr(y[0, 0, :2]), len(conv._forward_pre_hooks)]
    for layer, x in ((nn.LazyConv1d(4, 3, stride=2, bias=False), lib.rand(3, 7)),
                     (nn.LazyConv3d(2, (1, 2, 2), groups=2, padding_mode="circular"),
                      lib.rand(1, 4, 2, 3, 3)),
                     (nn.LazyConv2d(2, 3, dilation=2, padding="same"), lib.rand(2, 6, 6)),
                     (nn.LazyConvTranspose1d(3, 2, stride=2), lib.rand(2, 4, 5)),
                     (nn.LazyConvTranspose2d(4, 3, stride=2, output_padding=1, groups=2,
                                             dilation=1), lib.rand(1, 2, 3, 3)),
                     (nn.LazyConvTranspose3d(2, 2, bias=False), lib.rand(3, 2, 2, 2)),
                     (nn.LazyBatchNorm3d(momentum=0.5), lib.rand(2, 3, 2, 2, 2))):
        out += [repr(layer), repr(layer(x).sum()), repr(layer), repr(layer.weight.shape)]
    for layer, x in ((nn.LazyConv2d(4, 3), lib.ones(5)), (nn.LazyConv2d(4, 3, groups=2),
                                                          lib.ones(1, 3, 5, 5))):
        try:
            layer(x)
        except (RuntimeError, ValueError) as error:
            out.append(f"{type(error).__name__}: {error}")
    net = nn.Sequential(nn.LazyConv2d(3, kernel_size=3, padding=1), nn.Sigmoid(),
                        nn.AvgPool2d(2), nn.Flatten(), nn.LazyLinear(2))
    x = lib.rand(4, 1, 6, 6)
    net(x)
    optimizer = lib.optim.SGD(net.parameters(), lr=0.5)
    for _ in range(3):
        optimizer.zero_grad()
        loss = net(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        out.append(np.float32(loss.item()))  # (a convolution rounds as NumPy's BLAS: close)
    out += [repr(net), net[0].weight.grad[0, 0].numpy()]
    return out


def test_lazy_conv_matches_torch():
    mine, theirs = _lazy_conv(mg), _lazy_conv(torch)
    assert len(mine) == len(theirs) > 20
    for a, b in zip(mine, theirs):
        if isinstance(b, (np.ndarray, np.float32)):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
        else:
            assert a == b
