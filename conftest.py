"""Notebooks under nbval are told their own path, as JupyterLab tells a kernel.

JupyterLab starts a notebook's kernel with ``JPY_SESSION_NAME`` set to the
notebook's path; the widgets and ``check()`` read the notebook's language from
it (``kit_i18n``). nbval starts its kernel while setting up the notebook's
first cell, so the variable is set around that setup only.
"""

import os

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    path = getattr(item, "path", None)
    if path is None or path.suffix != ".ipynb":
        yield
        return
    before = os.environ.get("JPY_SESSION_NAME")
    os.environ["JPY_SESSION_NAME"] = str(path)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("JPY_SESSION_NAME", None)
        else:
            os.environ["JPY_SESSION_NAME"] = before
