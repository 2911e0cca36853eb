"""The nineteenth red team's attacks, made as a teacher meets them (``minigrad-kit grade`` on a
class, the CSV files it writes). What succeeded before, and the construction that closed it:

* **a name that a spreadsheet reads as a formula, left unquoted because Python reads it as a
  number**: ``report.inert`` quoted a field starting with ``=``, ``+``, ``-``, ``@`` unless
  ``float()`` read it, and ``float()`` reads much that no spreadsheet does: digits grouped
  by underscores (``float("-2_3") == -23.0``), ``-inf`` and ``-nan``, digits of other
  scripts (``-٣``), a trailing Unicode space. A student's folder ``-2+3`` (``safe_name``
  makes it ``-2_3``) reached gradebook.csv and flags.csv starting with a minus, unquoted
  (measured). (``report.NUMBER``: only what a spreadsheet reads as a number, ASCII digits
  with a sign, a point and an exponent, is left as it is.)
"""

import csv

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build

from grader.cli import main
from grader.report import inert

D = "derive_it_by_hand"


def _as_spreadsheet_number(field: str) -> bool:
    """Whether a spreadsheet reads ``field`` as a number (ASCII only, no underscores)."""
    text = field.lstrip("+-")
    mantissa, _e, exponent = text.lower().partition("e")
    whole, _point, fraction = mantissa.partition(".")
    return bool(whole + fraction) and (whole + fraction).isascii() and \
        (whole + fraction).isdigit() and (not _e or exponent.lstrip("+-").isascii()
                                          and exponent.lstrip("+-").isdigit())


@pytest.mark.parametrize("field", ["-2_3", "+1_000", "-inf", "-Infinity", "-nan", "-٣",
                                   "-1\u2003", "\t1", "-1\n"])
def test_what_python_reads_as_a_number_and_a_spreadsheet_does_not_is_quoted(field):
    assert inert(field) == "'" + field


@pytest.mark.parametrize("field", ["-1.5", "-3", "+2", "-0.5e-3", "-1E+06", "-.5", "-2."])
def test_numbers_stay_numbers(field):
    assert inert(field) == field and _as_spreadsheet_number(field)


def test_a_folder_named_like_a_number_reaches_no_csv_starting_with_a_minus(tmp_path):
    """A student's folder ``-2+3`` (``-2_3`` once made safe) hands in a notebook: every field
    of every CSV that starts like a formula and is not a spreadsheet's number is quoted."""
    submitted, out = tmp_path / "submitted", tmp_path / "grades"
    folder = submitted / "-2+3" / D
    folder.mkdir(parents=True)
    nbformat.write(build(D, "-2+3", WRONG[D]), folder / BY_ASSIGNMENT[D].name)
    assert main(["grade", str(submitted), "--out", str(out), "--jobs", "1",
                 "--sandbox", "required"]) == 0
    fields = []
    for path in out.rglob("*.csv"):
        with open(path, newline="", encoding="utf-8") as file:
            fields += [field for row in csv.reader(file) for field in row]
    assert "'-2_3" in fields
    assert [f for f in fields if f[:1] in ("=", "+", "-", "@", "\t", "\r")
            and not _as_spreadsheet_number(f)] == []
