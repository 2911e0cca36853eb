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
whose sign is the comma.

``format_float`` is how Moodle writes a number into the grading worksheet it hands out, and
``Assignment`` a Moodle assignment: the worksheet it writes, and what its upload does with
each row (stores the grade, or skips it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

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


def format_float(value: float, decimals: int, decsep: str) -> str:
    """Moodle's ``format_float($value, $decimals)`` (lib/moodlelib.php), as the grading
    worksheet's download writes its Grade and Maximum grade (mod/assign/gradingtable.php,
    ``display_grade`` and ``col_grademax``, with the grade item's decimals, 0 to 5): PHP's
    ``number_format``, which rounds half away from zero, with the language's decimal sign
    and no thousands separator."""
    rounded = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals),
                                                   rounding=ROUND_HALF_UP)
    return f"{rounded:f}".replace(".", decsep)


@dataclass
class Assignment:
    """A Moodle assignment graded out of ``maximum`` points, a whole number (its column,
    ``assign.grade``, is an integer; its settings form takes only one; the gradebook
    cannot change an activity's maximum), shown with its grade item's ``decimals`` in a
    language whose decimal sign is ``decsep``; ``grades``: participant id -> the grade
    Moodle has (stored with five decimals), ``locked``: the ids whose grade cannot be
    changed."""

    maximum: int
    decimals: int
    decsep: str
    grades: dict = field(default_factory=dict)
    locked: set = field(default_factory=set)

    def worksheet(self, ids: list, header: list, hidden: str, yes: str, no: str,
                  modified: str) -> list:
        """The grading worksheet as Moodle writes it (Identifier, Full name, Email address,
        Status, Grade, Maximum grade, Grade can be changed, Last modified (submission), Last
        modified (grade), Feedback comments)."""
        rows = [header]
        for number in ids:
            grade = self.grades.get(number)
            rows.append([f"{hidden}{number}", f"Student {number}", f"s{number}@uni.edu",
                         "submitted", "" if grade is None else
                         format_float(grade, self.decimals, self.decsep),
                         format_float(self.maximum, self.decimals, self.decsep),
                         no if number in self.locked else yes, modified,
                         modified if grade is not None else "-", ""])
        return rows

    def upload(self, rows: list, hidden: str, grade: int = 4) -> None:
        """The worksheet's upload (mod/assign/feedback/offline/locallib.php,
        ``process_import_grades``, and ``assign::update_grade``), by a teacher whose
        decimal sign is ``decsep``: each Grade read by ``unformat_float``; skipped when it
        equals the grade Moodle has, when it is empty or below zero, when the grade is
        locked, when it is above the assignment's maximum; otherwise stored, to five
        decimals."""
        for row in rows[1:]:
            number = int(row[0][len(hidden):])
            read = unformat_float(row[grade], self.decsep)
            if read is None or read < 0 or number in self.locked or read > self.maximum:
                continue
            if self.grades.get(number) != read:
                self.grades[number] = round(read, 5)
