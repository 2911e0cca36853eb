"""``tools/translate_notebooks.py`` (a script, not a package) loaded as a module,
for the tests that read its catalogs or drive its pipeline."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_tool():
    """A fresh copy of the module each call (a test may patch its paths)."""
    spec = importlib.util.spec_from_file_location("translate_notebooks",
                                                  ROOT / "tools" / "translate_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
