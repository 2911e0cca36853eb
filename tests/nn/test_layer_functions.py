"""torch.conv2d, torch.layer_norm, torch.dropout, torch.kl_div, ...: the layer functions
under their top-level (ATen) names and argument orders, against PyTorch."""

import numpy as np
import pytest
import torch

import minigrad as mg

from nn_twins import rand


def outcome(program, lib):
    """``("result", what program(lib) returns)`` or ``("error", type name, message)``."""
    try:
        return ("result", program(lib))
    except Exception as error:  # noqa: BLE001 - we compare whatever was raised
        return ("error", type(error).__name__, str(error))

CALLS = {
    "conv1d": "torch.conv1d(x3, w3, b, 1, 1)",
    "conv2d": "torch.conv2d(x4, w4, b, padding=1)",
    "conv_transpose1d": "torch.conv_transpose1d(x3, w3.transpose(0, 1), None, 2)",
    "conv_transpose2d": "torch.conv_transpose2d(x4, w4.transpose(0, 1))",
    "conv3d": "torch.conv3d(x4.unsqueeze(2), w4.unsqueeze(2), b, padding=(0, 1, 1))",
    "conv_transpose3d": "torch.conv_transpose3d(x4.unsqueeze(2), w4.transpose(0, 1).unsqueeze(2))",
    "max_pool3d": "torch.max_pool3d(x4.unsqueeze(0), 2)",
    "channel_shuffle": "torch.channel_shuffle(x4.repeat(1, 2, 1, 1), 2)",
    "bilinear": "torch.bilinear(x2, x2, w3, b)",
    "pixel_shuffle": "torch.pixel_shuffle(x4.repeat(1, 2, 1, 1), 2)",
    "pixel_unshuffle": "torch.pixel_unshuffle(x4, 2)",
    "pairwise_distance": "torch.pairwise_distance(x2, x2.flip(0))",
    "cosine_similarity": "torch.cosine_similarity(x2, x2.flip(0), 1, 1e-8)",
    "avg_pool1d": "torch.avg_pool1d(x3, 2)",
    "adaptive_avg_pool1d": "torch.adaptive_avg_pool1d(x3, 3)",
    "adaptive_max_pool1d": "torch.adaptive_max_pool1d(x3, 3)",
    "max_pool1d": "torch.max_pool1d(x3, 2)",
    "max_pool1d stride": "torch.max_pool1d(x3, 3, 1, 1)",
    "max_pool1d_with_indices": "torch.max_pool1d_with_indices(x3, 2)",
    "max_pool2d": "torch.max_pool2d(x4, 2)",
    "max_pool2d ceil": "torch.max_pool2d(x4, 3, 2, 1, 1, True)",
    "prelu": "torch.prelu(x3, torch.tensor([0.25]))",
    "selu": "torch.selu(x2)", "celu": "torch.celu(x2, 0.5)",
    "threshold": "torch.threshold(x2, 0.1, 20.0)",
    "selu_": "torch.selu_(x2.clone())", "celu_": "torch.celu_(x2.clone(), 2.0)",
    "threshold_": "torch.threshold_(x2.clone(), 0.0, -1.0)",
    "dropout eval": "torch.dropout(x2, 0.5, False)",
    "dropout p=0": "torch.dropout(x2, 0.0, True)",
    "dropout train seeded": "(torch.manual_seed(0), torch.dropout(x2, 0.5, True))[1]",
    "dropout_ seeded": "(torch.manual_seed(1), torch.dropout_(x2.clone(), 0.3, True))[1]",
    "feature_dropout seeded": "(torch.manual_seed(2), torch.feature_dropout(x4, 0.5, True))[1]",
    "layer_norm": "torch.layer_norm(x3, (5,), None, None, 1e-5, True)",
    "layer_norm affine": "torch.layer_norm(x3, [5], torch.ones(5) * 2, torch.zeros(5) + 0.5)",
    "group_norm": "torch.group_norm(x4, 1)",
    "rms_norm": "torch.rms_norm(x3, [5])",
    "embedding": "torch.embedding(w2, torch.tensor([[0, 2], [1, 1]]))",
    "embedding padding_idx": "torch.embedding(w2, torch.tensor([0, 2, 0]), 0)",
    "embedding negative padding_idx": "torch.embedding(w2, torch.tensor([0, 2, 0]), -2)",
    "batch_norm": "torch.batch_norm(x3, None, None, torch.zeros(2), torch.ones(2), True, 0.1, 1e-5, False)",
    "instance_norm": "torch.instance_norm(x3, None, None, None, None, True, 0.1, 1e-5, False)",
    "constant_pad_nd": "torch.constant_pad_nd(x2, [1, 2], 3.5)",
    "kl_div": "torch.kl_div(x2.log_softmax(1), x2.flip(0).softmax(1))",
    "kl_div sum": "torch.kl_div(x2.log_softmax(1), x2.flip(0).softmax(1), 2)",
    "kl_div none log_target": "torch.kl_div(x2, x2.flip(0), 0, log_target=True)",
    "margin_ranking_loss": "torch.margin_ranking_loss(x2[0], x2[1], torch.tensor([1., -1., 1., 1., -1.]))",
    "hinge_embedding_loss": "torch.hinge_embedding_loss(x2, torch.ones(2, 5), 1.0, 0)",
    "triplet_margin_loss": "torch.triplet_margin_loss(x2, x2.flip(0), x2 * 2)",
    "cosine_embedding_loss": "torch.cosine_embedding_loss(x2, x2.flip(0), torch.tensor([1., -1.]))",
    "poisson_nll_loss": "torch.poisson_nll_loss(x2, x2.abs(), True, False, 1e-8, 1)",
    "binary_cross_entropy_with_logits": "torch.binary_cross_entropy_with_logits(x2, (x2 > 0).float())",
    "bce pos_weight sum": "torch.binary_cross_entropy_with_logits(x2, x2.sigmoid(), None, torch.ones(5) * 2, 2)",
    # errors
    "kl_div a string reduction": "torch.kl_div(x2, x2, 'mean')",
    "kl_div an unknown reduction": "torch.kl_div(x2, x2, 5)",
    "bce a float reduction": "torch.binary_cross_entropy_with_logits(x2, x2, None, None, 1.5)",
    "threshold_ its node": "torch.nn.functional.threshold(x2 * 1, 0.0, 1.0, inplace=True)",
    "exp_ of a number": "torch.exp_(3)",
    "relu_ of a list": "torch.relu_([1.0])",
}


@pytest.mark.parametrize("name", list(CALLS))
def test_top_level_layer_functions_are_torchs(name):
    def program(lib):
        x2 = lib.tensor(rand((2, 5)), requires_grad=True)
        x3, x4 = lib.tensor(rand((2, 2, 5))), lib.tensor(rand((1, 2, 4, 4)))
        w3, w4, w2 = lib.tensor(rand((3, 2, 2))), lib.tensor(rand((3, 2, 3, 3))), lib.tensor(rand((3, 4)))
        b = lib.tensor(rand((3,)))
        result = eval(CALLS[name], {"torch": lib, "x2": x2, "x3": x3, "x4": x4, "w2": w2, "w3": w3,
                                    "w4": w4, "b": b})
        first = result[0] if isinstance(result, tuple) else result
        return repr(result), type(first.grad_fn).__name__
    ours, theirs = outcome(program, mg), outcome(program, torch)
    assert ours == theirs


def test_dropout_has_no_default_for_train():
    """ATen's dropout(input, p, train): PyTorch's parser words the missing argument its way."""
    for lib in (mg, torch):
        with pytest.raises(TypeError, match="dropout()"):
            lib.dropout(lib.ones(2), 0.5)


INPLACE = ["abs_", "exp_", "sigmoid_", "tanh_", "relu_", "sqrt_", "neg_", "floor_", "clamp_",
           "zero_", "fill_", "log_", "sin_", "square_", "nan_to_num_", "rsqrt_", "frac_"]


@pytest.mark.parametrize("name", INPLACE)
def test_in_place_functions_change_their_input_as_the_method(name):
    def program(lib):
        x = lib.tensor([[0.5, 1.5], [2.5, 3.0]])
        y = x * 1  # (a non-leaf: recorded)
        leaf = lib.tensor([0.5, 2.0], requires_grad=True)
        args = {"clamp_": (0.6, 2.0), "fill_": (7.0,)}.get(name, ())
        result = getattr(lib, name)(y, *args)
        return repr(y), result is y, y._version, repr(getattr(lib, name)(leaf.detach(), *args))
    assert outcome(program, mg) == outcome(program, torch)


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("dim", [-1, 0])
def test_gumbel_softmax_draws_and_differentiates_as_torch(hard, dim):
    """F.gumbel_softmax (missing until the session-14 fuzz): PyTorch's Gumbel noise
    (-log of exponential_ draws), softmax((logits + g) / tau), the straight-through
    one-hot with ``hard``; values, graph, gradient and the generator's state after."""
    import warnings

    results = []
    for lib in (mg, torch):
        lib.manual_seed(11)
        x = lib.tensor((np.arange(20, dtype=np.float32).reshape(4, 5) % 7) / 3, requires_grad=True)
        y = lib.nn.functional.gumbel_softmax(x, tau=0.7, hard=hard, dim=dim)
        (y * lib.arange(5.0)).sum().backward()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.functional.gumbel_softmax(x, eps=1e-3)
        results.append((y.detach().numpy(), x.grad.numpy(), type(y.grad_fn).__name__,
                        [str(w.message) for w in caught], lib.rand(2).numpy()))
    (y, g, name, texts, after), (ty, tg, tname, ttexts, tafter) = results
    np.testing.assert_allclose(y, ty, rtol=2e-6, atol=1e-7)  # (float32 exp and log: an ulp)
    np.testing.assert_allclose(g, tg, rtol=1e-5, atol=1e-6)
    assert (name, texts) == (tname, ttexts) and np.array_equal(after, tafter)
    if hard:
        assert np.array_equal(y, ty)
