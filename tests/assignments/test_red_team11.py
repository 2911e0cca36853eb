"""The eleventh red team's submissions, graded as a teacher grades them (each notebook the
one ``release --students`` hands its student, then ``minigrad-kit grade``, the sandbox
required, and the exports). What succeeded before, and the construction that closed it:

* **a file name written another way replaced a classmate's grade**: in a flat folder of
  the class's notebooks a student is named by the file (``bob_smith.ipynb``), made safe
  as a file name (what is not a letter, digit, ``.`` or ``-`` becomes ``_``). So
  mallory's ``bob~smith.ipynb`` (or ``bob smith.ipynb``; ``Bob_Smith.ipynb`` for an LMS
  roster and a file system that ignore case) was ``bob_smith`` too, and the last by path,
  hers, replaced bob's grade with the points of her answers; only a warning and the exit
  status said so. (``batch.collisions``: notebooks whose different names become one
  student's are none of them graded, each listed with the others, so no one is graded
  under a name two files claim; the teacher, who can tell whose is whose, renames them.
  Across gradings into one ``--out``, a result stores the name as its path spelled it,
  ``Result.named``, and one of another spelling never replaces it: ``report._graded_kept``.)
* **a markdown cell graded as an answer's code hid it from review**: the first cell with
  an answer's grade id is graded, as the instructor's cell type says; a markdown cell put
  first with q4's id, its ``unbroadcast`` inside an HTML comment, scored q4's 3 points
  unflagged, and JupyterLab showed the teacher ``r = 0 #`` and, after it, the released
  code cell with harmless code. (``grade._hold_rendered``: such a cell is flagged and
  every question that scored is held; ``minigrad-kit review`` prints the answer cells as
  graded, ``Result.graded``, which is what the teacher decides on.)
"""

import csv
from pathlib import Path

import nbformat
from assignment_files import BY_ASSIGNMENT
from keys import WRONG, build, right
from shared_fixture import points_and_review

from grader.cli import main

D = "derive_it_by_hand"
SALT = "kept by the teacher"




def _flat(tmp_path: Path, files: dict) -> Path:
    """``files`` (file stem -> notebook) in one flat folder of the class."""
    folder = tmp_path / "ps1"
    folder.mkdir(parents=True)
    for stem, notebook in files.items():
        nbformat.write(notebook, folder / f"{stem}.ipynb")
    return folder


# --- (1) a file name written another way replaced a classmate's grade ----------------------

def test_a_name_written_another_way_replaces_no_grade(tmp_path, capsys):
    """bob_smith.ipynb (right answers), mallory's bob~smith.ipynb and bob smith.ipynb
    (wrong ones), alice.ipynb: alice graded, none of the three under bob_smith's name, each
    said; the Canvas export fills alice's cell and leaves bob's empty, listed."""
    folder = _flat(tmp_path, {
        "alice": build(D, "alice", right(D, "alice")),
        "bob_smith": build(D, "bob_smith", right(D, "bob_smith")),
        "bob~smith": build(D, "bob_smith", WRONG[D]),
        "bob smith": build(D, "bob_smith", WRONG[D])})
    out = tmp_path / "grades"
    status = main(["grade", str(folder), "--out", str(out), "--sandbox", "required",
                   "--salt", SALT, "--jobs", "1"])
    said = capsys.readouterr()
    assert status == 1
    book = points_and_review(out)
    assert book[("alice", "q1")] == ("2", "")
    assert not [key for key in book if key[0] == "bob_smith" and key[1] != ""]
    for name in ("bob_smith.ipynb", "bob~smith.ipynb", "bob smith.ipynb"):
        assert f"could not grade {name}: its name and the different name of" in said.err
    assert "None of them was graded" in said.err
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      "\"Smith, Bob\",2,1002,bob_smith,S1\n\"Liddell, Alice\",1,1001,alice,S1\n",
                      encoding="utf-8")
    main(["export", str(out), "--to", "canvas", "--roster", str(roster), "--out",
          str(tmp_path / "canvas.csv")])
    assert "empty: bob_smith in ? could not be graded: its name and" in capsys.readouterr().out
    with open(tmp_path / "canvas.csv", newline="", encoding="utf-8") as file:
        rows = {row["SIS Login ID"]: row for row in csv.DictReader(file)}
    column = "Derive it by hand"  # (the assignment's title)
    assert rows["alice"][column] == "9" and rows["bob_smith"][column] == ""


def test_a_name_written_another_way_later_replaces_no_grade(tmp_path, capsys):
    """bob_smith.ipynb graded; then, into the same --out, a folder that holds mallory's
    bob~smith.ipynb alone: bob's result is kept (it was replaced by hers, 0 points,
    unflagged), and flags.csv says why hers was not."""
    first = _flat(tmp_path / "a", {"bob_smith": build(D, "bob_smith", right(D, "bob_smith"))})
    late = tmp_path / "b" / "ps1"  # (collected in a folder of the same name: not held)
    late.mkdir(parents=True)
    nbformat.write(build(D, "bob_smith", WRONG[D]), late / "bob~smith.ipynb")
    out = tmp_path / "grades"
    for folder in (first, late):
        main(["grade", str(folder), "--out", str(out), "--sandbox", "required", "--salt",
              SALT, "--jobs", "1"])
    assert points_and_review(out)[("bob_smith", "q1")] == ("2", "")
    assert ("bob_smith: bob~smith.ipynb was not kept: its name 'bob~smith' and 'bob_smith', "
            "graded before, both become bob_smith") in (out / "flags.csv").read_text("utf-8")


def test_names_that_differ_in_case_only_are_not_one_student(tmp_path, capsys):
    """Bob.ipynb and bob.ipynb (one file on a file system that ignores case, one roster
    row): neither graded, both said."""
    folder = _flat(tmp_path, {"bob": build(D, "bob", right(D, "bob")),
                              "Bob": build(D, "Bob", WRONG[D])})
    out = tmp_path / "grades"
    assert main(["grade", str(folder), "--out", str(out), "--sandbox", "required",
                 "--salt", SALT, "--jobs", "1"]) == 1
    said = capsys.readouterr().err
    assert "could not grade bob.ipynb" in said and "could not grade Bob.ipynb" in said
    assert not [key for key in points_and_review(out) if key[1] != ""]


def test_names_that_differ_in_case_only_are_in_one_shard(tmp_path, capsys):
    """Graded in two parts (--shard 1/2, 2/2), Bob.ipynb and bob.ipynb are in one part,
    where neither is graded: sorted by their case, a part each, each was graded alone."""
    folder = _flat(tmp_path, {"Bob": build(D, "Bob", WRONG[D]),
                              "Carol": build(D, "Carol", WRONG[D]),
                              "Dave": build(D, "Dave", WRONG[D]),
                              "bob": build(D, "bob", right(D, "bob"))})
    said = []
    for part in ("1/2", "2/2"):
        main(["grade", str(folder), "--out", str(tmp_path / part.replace("/", "of")),
              "--sandbox", "required", "--salt", SALT, "--jobs", "1", "--shard", part])
        said.append(capsys.readouterr().err)
    assert ["could not grade bob.ipynb" in text and "could not grade Bob.ipynb" in text
            for text in said] in ([True, False], [False, True])


def test_one_students_notebooks_of_one_name_are_not_a_collision(tmp_path, capsys):
    """ps1/bob.ipynb given twice over (two folders, one name): one student's, graded as
    before (the last kept, said, and held as handed in in a folder of its own)."""
    import nbformat

    first = _flat(tmp_path, {"bob": build(D, "bob", WRONG[D])})
    late = tmp_path / "late"
    late.mkdir()
    nbformat.write(build(D, "bob", right(D, "bob")), late / "bob.ipynb")
    out = tmp_path / "grades"
    main(["grade", str(first), str(late), "--out", str(out), "--sandbox", "required",
          "--salt", SALT, "--jobs", "1"])
    said = capsys.readouterr().err
    assert "could not grade" not in said and "two submissions for bob" in said
    assert points_and_review(out)[("bob", "q1")][1]  # (late/'s, held: collection.py)


# --- (2) a markdown cell graded as an answer's code hid it from review -----------------------

B = "broadcasting_and_reductions"
HIDDEN = "r = 0  # <!--\n{code}\n# -->"


def _hiding(student: str):
    """q4's right ``unbroadcast`` in a markdown cell put first with q4's grade id (its code
    inside an HTML comment: JupyterLab renders ``r = 0 #``), then the released code cell
    with a harmless wrong answer, the one a teacher who opens the notebook reads."""
    good = right(B, student)
    notebook = build(B, student, {**good, "q4_answer": WRONG[B]["q4_answer"]})
    at = next(i for i, c in enumerate(notebook.cells)
              if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "q4_answer")
    cell = nbformat.v4.new_markdown_cell(HIDDEN.format(code=good["q4_answer"]))
    cell.metadata = dict(notebook.cells[at].metadata)
    notebook.cells.insert(at, cell)
    return notebook


def test_a_markdown_cell_graded_as_code_is_held_and_reviewed_as_graded(tmp_path, capsys):
    """The markdown cell is graded (its code, q4's 3 points), flagged, and every question
    that scored is held; ``minigrad-kit review`` shows q4's code as graded, the hidden
    ``unbroadcast`` the notebook does not show."""
    root = tmp_path / "submitted" / "bob" / "ps1"
    root.mkdir(parents=True)
    nbformat.write(_hiding("bob"), root / BY_ASSIGNMENT[B].name)
    out = tmp_path / "grades"
    main(["grade", str(tmp_path / "submitted"), "--out", str(out), "--sandbox", "required",
          "--salt", SALT, "--jobs", "1"])
    book = points_and_review(out)
    assert book[("bob", "q4")] == ("", "yes") and book[("bob", "q1")] == ("", "yes")
    flags = (out / "flags.csv").read_text(encoding="utf-8")
    assert "graded as code, but not a code cell in the notebook" in flags
    capsys.readouterr()
    assert main(["review", str(out)]) == 0
    listed = capsys.readouterr().out
    assert f"bob/{B}/q4: held back (3 of 3 points as judged)" in listed
    shown = listed.split("[q4_answer]\n", 1)[1]
    assert shown.startswith("      r = 0  # <!--\n      def unbroadcast(grad, shape):\n")
    assert main(["review", str(out), "--accept", f"bob/{B}"]) == 0
    assert points_and_review(out)[("bob", "q4")] == ("3", "")
