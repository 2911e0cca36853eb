"""The examples in the docstrings of minigrad's top-floor modules (nn, optim, utils.data,
random, serialization) run and print what they say (learners copy them)."""

import doctest
import importlib

import pytest

MODULES = ["minigrad.nn.module", "minigrad.nn.parameter", "minigrad.nn.linear",
           "minigrad.nn.conv", "minigrad.nn.pooling", "minigrad.nn.batchnorm", "minigrad.nn.lazy",
           "minigrad.nn.container", "minigrad.nn.sparse", "minigrad.nn.normalization",
           "minigrad.optim.sgd", "minigrad.utils.data",
           "minigrad.utils.data.dataset", "minigrad.utils.data.sampler",
           "minigrad.utils.data.collate", "minigrad.random", "minigrad.serialization"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
