"""The examples in the widgets' docstrings run (a learner may copy them)."""

import doctest
import importlib

import pytest

MODULES = ["widgets.draw", "widgets.graph_view", "widgets.stepper", "widgets.derivative",
           "widgets.gradients", "widgets.backward_check", "widgets.compare", "widgets.progress"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
