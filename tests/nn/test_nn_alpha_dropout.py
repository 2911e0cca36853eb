"""``F.alpha_dropout``, ``F.feature_alpha_dropout``, ``F.dropout3d`` and the modules
``AlphaDropout``, ``FeatureAlphaDropout``, ``Dropout3d`` against PyTorch 2.13: the same
outputs after the same seed (PyTorch's bernoulli noise, its a and b in the input's dtype),
the same graph (MulBackward0, then AddBackward0), gradients, eval mode, p = 0 and 1,
in place, reprs, warnings and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import minigrad

CALLS = {
    "alpha": lambda lib, x: lib.nn.functional.alpha_dropout(x, 0.3, True),
    "alpha float64": lambda lib, x: lib.nn.functional.alpha_dropout(x.double(), 0.6, True),
    "alpha p=1": lambda lib, x: lib.nn.functional.alpha_dropout(x, 1.0, True),
    "alpha eval": lambda lib, x: lib.nn.functional.alpha_dropout(x, 0.3, False) * 2,
    "alpha in place": lambda lib, x: lib.nn.functional.alpha_dropout(x * 1, 0.3, True, True),
    "feature alpha": lambda lib, x: lib.nn.functional.feature_alpha_dropout(x, 0.4, True),
    "module": lambda lib, x: lib.nn.AlphaDropout(0.25)(x),
    "feature module": lambda lib, x: lib.nn.FeatureAlphaDropout(0.25)(x),
    "dropout3d": lambda lib, x: lib.nn.functional.dropout3d(x.reshape(2, 3, 2, 2, 1), 0.5),
    "dropout3d unbatched": lambda lib, x: lib.nn.Dropout3d(0.5)(x.reshape(3, 2, 2, 2)),
}


@pytest.mark.parametrize("name", CALLS)
def test_as_pytorch_after_the_same_seed(name):
    data = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    found = {}
    for lib in (minigrad, torch):
        lib.manual_seed(3)
        x = lib.tensor(data, requires_grad=True)
        y = CALLS[name](lib, x)
        y.sum().backward()
        found[lib] = (y.detach().numpy(), x.grad.numpy(), type(y.grad_fn).__name__,
                      [type(n).__name__ for n, _ in y.grad_fn.next_functions if n is not None]
                      if y.grad_fn else None, lib.rand(1).item())
    ours, theirs = found[minigrad], found[torch]
    assert ours[2:] == theirs[2:]  # (graph, and the generator left in the same state)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])


def test_reprs_warnings_and_errors_as_pytorch():
    found = {}
    for lib in (minigrad, torch):
        got = [repr(lib.nn.AlphaDropout(0.2)), repr(lib.nn.FeatureAlphaDropout(0.2, True)),
               repr(lib.nn.Dropout3d())]
        for call in (lambda: lib.nn.functional.alpha_dropout(lib.ones(2), 1.5),
                     lambda: lib.nn.functional.feature_alpha_dropout(lib.ones(3), 0.5, True),
                     lambda: lib.nn.AlphaDropout(-0.1)):
            with pytest.raises(Exception) as error:
                call()
            got.append((type(error.value).__name__, str(error.value)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.functional.dropout3d(lib.ones(2, 3), 0.5)
        got.append([str(w.message) for w in caught])
        found[lib] = got
    assert found[minigrad] == found[torch]
