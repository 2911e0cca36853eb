"""What the wheel holds is declared by hand in pyproject.toml (the notebooks are mapped in
as package data): every Python package of the repository must be listed there."""

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = find_packages(str(ROOT), include=["minigrad*", "widgets*", "grader*", "kit_i18n*"])
    assert sorted(config["packages"]) == sorted(found + ["minigrad_kit_notebooks"])
    assert config["package-dir"] == {"minigrad_kit_notebooks": "notebooks"}
