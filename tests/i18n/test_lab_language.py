"""`make lab LANG=zh|ko`: the translated index, in a JupyterLab in that language."""

import json
import os
import re
import subprocess
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from kit_i18n import normalise

REPO = Path(__file__).resolve().parents[2]


def planned(tmp_path, *assignments) -> str:
    """The commands `make lab` would run (make -n), with the environment's LANG unset."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LANGUAGE", "LC_ALL")}
    run = subprocess.run(["make", "-s", "-n", "-C", str(REPO), "lab", f"COURSE={tmp_path}",
                          *assignments], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize("lang, locale", [("zh", "zh_CN"), ("ko", "ko_KR"),
                                          ("zh_CN.UTF-8", "zh_CN"), ("ko_KR.UTF-8", "ko_KR")])
def test_make_lab_lang_opens_the_translated_index_in_a_translated_lab(tmp_path, lang, locale):
    commands = planned(tmp_path, f"LANG={lang}")
    folder = locale[:2]
    # minigrad-kit lab opens FOLDER/<lang>/00_start_here.ipynb in the locale's language
    # (tests/packaging/test_lab.py runs it in Chinese)
    assert re.search(rf"^LANG={locale}\.UTF-8 \S*minigrad-kit lab {tmp_path} --log ", commands,
                     re.M), commands
    assert normalise(f"{locale}.UTF-8") == folder
    settings = json.loads(re.search(r"printf '%s\\n' '(\{.*\})' >", commands).group(1))
    assert settings["@jupyterlab/translation-extension:plugin"] == {"locale": locale}


@pytest.mark.parametrize("lang", [None, "C.UTF-8", "en_US.UTF-8", "fr_FR.UTF-8"])
def test_make_lab_is_english_otherwise(tmp_path, lang):
    commands = planned(tmp_path, *([f"LANG={lang}"] if lang else []))
    assert re.search(rf"^\S*minigrad-kit lab {tmp_path} --log ", commands, re.M), commands
    settings = json.loads(re.search(r"printf '%s\\n' '(\{.*\})' >", commands).group(1))
    assert settings["@jupyterlab/translation-extension:plugin"] == {"locale": "en"}


def test_jupyterlabs_language_packs_are_installed():
    packs = {e.name for e in entry_points(group="jupyterlab.languagepack")}
    assert {"zh_CN", "ko_KR"} <= packs
