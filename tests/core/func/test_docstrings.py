"""The examples in the docstrings of forward mode and torch.func run, and print the same
text, in minigrad and in PyTorch."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["minigrad.autograd.forward_ad", "minigrad.func.transforms",
                                    "minigrad.func.vmap"])
@pytest.mark.parametrize("lib", ["minigrad", "torch"])
def test_docstring_examples_print_what_they_say(module, lib):
    found = doctest.DocTestFinder().find(importlib.import_module(module))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for test in found:
        for example in test.examples:
            if lib == "torch":
                example.source = example.source.replace("import minigrad as torch", "import torch")
        examples += len(test.examples)
        runner.run(test)
    assert examples and runner.summarize(verbose=False).failed == 0
