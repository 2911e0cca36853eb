"""The grader's message catalog (``grader/locale/<lang>/LC_MESSAGES/grader.po``): the
hints of ``check()``, the feedback reports and the messages students read.

The kit's assignments translate their own texts in the domain ``assignments``
(``notebooks/assignments/locale/``): ``ASSIGNMENTS``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from kit_i18n import Domain, language, set_language

__all__ = ["_", "ngettext", "N_", "set_language", "language", "DOMAIN", "ASSIGNMENTS"]

DOMAIN = Domain("grader", Path(__file__).parent / "locale")


def _assignments_locale() -> Path:
    """The kit's notebooks are the package data minigrad_kit_notebooks (see kit.py); found
    only when a translation is needed (a grading kernel's sandbox does not show them)."""
    return Path(str(resources.files("minigrad_kit_notebooks") / "assignments" / "locale"))


ASSIGNMENTS = Domain("assignments", _assignments_locale)
_ = DOMAIN.gettext
ngettext = DOMAIN.ngettext


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it yet (a title stored in a
    question module, translated when it is shown)."""
    return message
