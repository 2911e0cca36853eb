"""The language the kit speaks to a learner, and its message catalogs.

Every sentence a learner reads (the stepper's narration, ``check()``'s hints,
the grader's reports) is written in English in the code, wrapped in ``_()``,
and looked up in a gettext catalog (a ``.po`` file, maintained with Babel:
``make catalogs``). Numbers and formulas are formatted into the translated
sentence, never translated.

The language is, in this order:

1. the one chosen with ``set_language("zh")`` (``widgets.set_language`` and
   ``grader.set_language`` are this function);
2. the notebook's language: the ``"lang"`` entry of the notebook's metadata
   (a BCP 47 tag such as ``"zh-CN"`` or ``"ko"``). The kernel learns which
   notebook it runs from ``JPY_SESSION_NAME``, which JupyterLab sets;
3. the locale: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext
   reads them;
4. English.

>>> set_language("zh-CN"); language()
'zh'
>>> set_language(None)  # back to automatic
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import io
import json
import os
from pathlib import Path

__all__ = ["LANGUAGES", "set_language", "language", "speaking", "normalise", "Domain",
           "notebook_language", "locale_language"]

LANGUAGES = ("en", "zh", "ko")
# gettext locale of each language (the catalogs' folder names are the short codes)
LOCALES = {"en": "en", "zh": "zh_CN", "ko": "ko_KR"}

_chosen: str | None = None
_notebook_cache: dict = {}


def normalise(tag: str) -> str | None:
    """``"zh-CN"``, ``"zh_CN.UTF-8"``, ``"zh-Hans"`` -> ``"zh"``; ``"ko_KR"`` -> ``"ko"``;
    ``"en_US"`` -> ``"en"``; a language the kit does not speak -> None."""
    base = tag.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def set_language(tag: str | None) -> None:
    """Speak ``tag`` (``"zh"``, ``"ko"``, ``"en"``, or a locale such as ``"zh_CN"``) from now
    on; ``None`` goes back to choosing automatically (notebook, locale, English)."""
    global _chosen
    if tag is None:
        _chosen = None
        return
    lang = normalise(tag) if isinstance(tag, str) else None
    if lang is None:
        raise ValueError(f"set_language: the kit speaks {', '.join(map(repr, LANGUAGES))} "
                         f"(or a locale such as 'zh_CN'), not {tag!r}")
    _chosen = lang


def language() -> str:
    """The language in use now: ``"en"``, ``"zh"`` or ``"ko"`` (see the module docstring)."""
    return _chosen or notebook_language() or locale_language() or "en"


@contextlib.contextmanager
def speaking(tag: str | None):
    """``with speaking("ko"): ...``: another language for a while (None: no change)."""
    global _chosen
    before = _chosen
    if tag is not None:
        set_language(tag)
    try:
        yield
    finally:
        _chosen = before


def notebook_language() -> str | None:
    """The ``lang`` metadata of the notebook this kernel runs, if it says one.

    ``JPY_SESSION_NAME`` is the notebook's path relative to the server's root,
    and the kernel runs in the notebook's folder, so the file is looked up
    there by its name (and as given, for a path that is absolute)."""
    session = os.environ.get("JPY_SESSION_NAME")
    if not session:
        return None
    key = (session, os.getcwd())
    if key not in _notebook_cache:
        _notebook_cache[key] = _read_lang(session)
    return _notebook_cache[key]


def _read_lang(session: str) -> str | None:
    for path in (Path(session), Path.cwd() / Path(session).name):
        if path.suffix == ".ipynb" and path.is_file():
            try:
                metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
            except (OSError, ValueError):
                return None
            tag = metadata.get("lang")
            return normalise(tag) if isinstance(tag, str) else None
    return None


def locale_language() -> str | None:
    """The first language the environment asks for, as gettext reads it."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            # LANGUAGE may list several ("ko:en"); C and POSIX mean no preference
            for tag in value.split(":"):
                if tag and tag not in ("C", "POSIX") and not tag.startswith("C."):
                    return normalise(tag)
            return None
    return None


class Domain:
    """One package's catalog: ``_ = Domain("widgets", folder).gettext``.

    ``folder`` may be a function that finds it, called only when a catalog is read.

    The catalogs are ``folder/<lang>/LC_MESSAGES/<name>.po``, read with Babel
    the first time a language is needed (fuzzy entries are not used; a
    message with no translation stays English, which the catalog test forbids
    for the kit's own catalogs)."""

    def __init__(self, name: str, folder) -> None:
        self.name, self.folder = name, folder
        self._loaded: dict = {}

    def translations(self, lang: str | None = None) -> _gettext.NullTranslations:
        lang = lang or language()
        if lang not in self._loaded:
            self._loaded[lang] = self._load(lang)
        return self._loaded[lang]

    def path(self, lang: str):
        folder = self.folder() if callable(self.folder) else self.folder
        return folder / lang / "LC_MESSAGES" / f"{self.name}.po"

    def _load(self, lang: str) -> _gettext.NullTranslations:
        if lang == "en":
            return _gettext.NullTranslations()
        path = self.path(lang)
        if not path.is_file():
            return _gettext.NullTranslations()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with path.open("rb") as file:
            catalog = read_po(file, locale=LOCALES[lang], domain=self.name)
        for message in list(catalog):  # untranslated plurals too ('' in each form) stay English
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.id and not all(strings):
                del catalog[message.id]
        compiled = io.BytesIO()
        write_mo(compiled, catalog, use_fuzzy=False)
        compiled.seek(0)
        return _gettext.GNUTranslations(compiled)

    def gettext(self, message: str) -> str:
        return self.translations().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations().ngettext(singular, plural, n)
