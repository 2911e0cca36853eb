"""The examples in minigrad.serialization's docstrings run and print what they say."""

import doctest

import minigrad.serialization


def test_docstring_examples():
    result = doctest.testmod(minigrad.serialization, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
