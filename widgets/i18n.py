"""The widgets' message catalog (``widgets/locale/<lang>/LC_MESSAGES/widgets.po``).

``_("Step {index} of {total}").format(index=..., total=...)``: sentences are
translated whole, with their numbers and formulas put in by name afterwards.
"""

from __future__ import annotations

from pathlib import Path

from kit_i18n import Domain, language, set_language

__all__ = ["_", "ngettext", "set_language", "language", "DOMAIN"]

DOMAIN = Domain("widgets", Path(__file__).parent / "locale")
_ = DOMAIN.gettext
ngettext = DOMAIN.ngettext
