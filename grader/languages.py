"""An assignment in the student's language: its notebook through a catalog, its language
told by the notebook.

The instructor notebook is written once, in English. Its prose and code comments are
messages in a catalog beside it, ``locale/<lang>/LC_MESSAGES/<notebook>.po`` (made by
``make translations``; ``kit_i18n.notebooks`` says what a message is), and
``release --lang zh`` writes the student version of the translated notebook. The
code and the nbgrader cells (grade ids, points, locked cells) stay the same, so grading
is one implementation: a submission says its language in its ``lang`` metadata, the
locked cells are compared with the instructor's in that language, and the feedback is
written in it.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from babel.messages.pofile import read_po

from kit_i18n import LANGUAGES, LOCALES, normalise
from kit_i18n.notebooks import translate

__all__ = ["catalog_path", "translated", "notebook_language", "TAGS"]

TAGS = {"zh": "zh-CN", "ko": "ko"}  # the notebooks' "lang" metadata


def catalog_path(notebook_path, lang: str) -> Path:
    path = Path(notebook_path)
    return path.parent / "locale" / lang / "LC_MESSAGES" / f"{path.stem}.po"


def translated(notebook, notebook_path, lang: str):
    """``notebook`` (read from ``notebook_path``) in ``lang``; English is itself.
    Entries not yet translated (or fuzzy) stay English."""
    lang = _checked(lang)
    if lang == "en":
        return notebook
    path = catalog_path(notebook_path, lang)
    if not path.is_file():
        raise FileNotFoundError(f"{notebook_path}: no {lang} catalog for this notebook (looked "
                                f"for {path}); `make translations` makes one for the kit's "
                                "assignments")
    with path.open("rb") as file:
        done = {m.id: m.string for m in read_po(file, locale=LOCALES[lang])
                if m.id and m.string and not m.fuzzy}
    result = nbformat.from_dict(translate(notebook, lambda t: done.get(t, t)))
    result.metadata["lang"] = TAGS[lang]
    return result


def notebook_language(notebook) -> str:
    """The language a notebook says it is in (``lang`` metadata), English by default."""
    tag = notebook.get("metadata", {}).get("lang")
    return (normalise(tag) if isinstance(tag, str) else None) or "en"


def _checked(lang: str) -> str:
    found = normalise(lang) if isinstance(lang, str) else None
    if found is None:
        raise ValueError(f"--lang: the kit's assignments are in {', '.join(LANGUAGES)}, "
                         f"not {lang!r}")
    return found
