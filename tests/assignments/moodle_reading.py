"""How Moodle reads a number a teacher uploads, for the tests to read the export's files as
Moodle will: ``unformat_float`` (lib/moodlelib.php), which the grading worksheet's upload
(mod/assign/feedback/offline/locallib.php, ``process_import_grades``) and, with
``strict``, the gradebook's CSV import (grade/import/csv/classes/load_data.php,
``update_grade_item``, after its own ``''`` or ``'-'``: no grade) call, and PHP's reading
of a string as a float, which ``unformat_float`` ends with.

``unformat_float($text, $strict)``: trim; an empty text is null (no grade); every space
removed (a thousands separator of some languages); the decimal sign of the language of
whoever uploads (langconfig's ``decsep``) replaced by a point; with ``$strict``, false
unless PHP's ``is_numeric`` holds; then ``(float)``, which reads the number at the start
of the text and ignores the rest (``(float) "7,5"`` is 7.0, ``(float) "-"`` 0.0). No
thousands separator but the space is removed: ``1.000,5`` is read as 1.0 by an uploader
whose sign is the comma."""

from __future__ import annotations

import re

PHP_TRIM = " \t\n\r\0\x0b"  # what PHP's trim() removes
PHP_SPACE = " \t\n\r\x0b\x0c"  # the whitespace PHP's numeric strings may have around them
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
LEADING = re.compile(f"[{PHP_SPACE}]*{_NUMBER}")  # (float) reads this much, else 0.0
NUMERIC = re.compile(f"[{PHP_SPACE}]*{_NUMBER}[{PHP_SPACE}]*")  # is_numeric (PHP 8)
# decimal signs a language's langconfig may have: the point (English), the comma (German,
# French, Spanish, ...), the Arabic decimal separator
DECIMAL_SIGNS = (".", ",", "\u066b")


def php_float(text: str) -> float:
    """PHP's ``(float) $text``."""
    match = LEADING.match(text)
    return float(match.group(0)) if match else 0.0


def unformat_float(text: str, decsep: str, strict: bool = False):
    """Moodle's ``unformat_float`` for an uploader whose decimal sign is ``decsep``: a
    float, None (empty: no grade) or, with ``strict``, False (not a number)."""
    text = text.strip(PHP_TRIM)
    if text == "":
        return None
    text = text.replace(" ", "").replace(decsep, ".")
    if strict and not NUMERIC.fullmatch(text):
        return False
    return php_float(text)
