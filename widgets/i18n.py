"""The widgets' message catalog (``widgets/locale/<lang>/LC_MESSAGES/widgets.po``).

``_("Step {index} of {total}").format(index=..., total=...)``: sentences are
translated whole, with their numbers and formulas put in by name afterwards.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

from kit_i18n import Domain, language, set_language

__all__ = ["_", "ngettext", "set_language", "language", "DOMAIN", "in_words", "tidy", "tidied"]

DOMAIN = Domain("widgets", Path(__file__).parent / "locale")
_ = DOMAIN.gettext
ngettext = DOMAIN.ngettext
_in_words: dict = {}


def in_words(formula):
    """``formula`` (from minigrad's table) with its words in the language in use
    ("mean of all n elements of x"); its symbols and math stay. The catalog holds
    the table's texts that have words (``make translations`` extracts them)."""
    if formula is None or language() == "en":
        return formula
    catalog = DOMAIN.translations()
    kept = _in_words.get(id(formula))  # (the table's formulas live as long as the program)
    if kept is None or kept[0] is not catalog:
        kept = _in_words[id(formula)] = (catalog, dataclasses.replace(
            formula, expression=_(formula.expression),
            d={name: _(text) for name, text in formula.d.items()},
            grad={name: _(text) for name, text in formula.grad.items()}))
    return kept[1]


# Chinese is written without spaces between words; a space stays only beside Latin
# letters and digits ("把 0.25 传给"), as in Chinese technical writing.
_HAN = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_BETWEEN_HAN = re.compile(f"(?<=[{_HAN}]) +(?=[{_HAN}])")


def tidy(text: str) -> str:
    """A sentence put together from translated pieces, spaced as the language is
    written: in Chinese, no space between two Chinese characters (a phrase put in
    where the sentence had a space for a number, "把 全为 0.25 的张量 传给")."""
    if language() == "zh":
        return _BETWEEN_HAN.sub("", text)
    return text


def tidied(function):
    """``function``'s sentence, put through ``tidy``."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return tidy(function(*args, **kwargs))
    return wrapper
