"""The examples in the docstrings of minigrad.utils.data and minigrad.random run and print
what they say (learners copy them)."""

import doctest
import importlib

import pytest

MODULES = ["minigrad.utils.data", "minigrad.utils.data.dataset", "minigrad.utils.data.sampler",
           "minigrad.utils.data.collate", "minigrad.random"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
