"""The kit's own notebooks, shipped in the package: copy them out, find them for grading.

The lessons and the five assignments are the package data ``minigrad_kit_notebooks``
(``notebooks/`` in the repository), found through ``importlib.resources`` only:

    copy_lessons(folder)      the lessons (in folder/zh/ and folder/ko/ in Chinese and
                              Korean, each with its assignments/), and the student
                              versions of the assignments
                              (each with its question module) in folder/assignments/;
                              a lesson cell tagged ``repository-only`` is left out
    copy_assignments(folder)  the instructor notebooks and their question modules, for a
                              teacher's course folder (with locale/: their catalogs)
    kit_sources()             the instructor notebooks, as files ``grade`` can read

Existing files are never overwritten unless ``force``; nothing is written then.
"""

from __future__ import annotations

import contextlib
import tempfile
from importlib import resources
from pathlib import Path

import nbformat

from . import notebook as nbg
from .languages import translated
from .report import write_atomic

__all__ = ["copy_lessons", "copy_assignments", "kit_sources", "trust_lessons", "Exists"]

PACKAGE = "minigrad_kit_notebooks"
REPOSITORY_ONLY = "repository-only"  # the tag of a lesson cell that copies leave out


class Exists(FileExistsError):
    """Files that a copy would overwrite (the message lists them)."""


def _root():
    return resources.files(PACKAGE)


def _files(folder, suffixes: tuple) -> list:
    return sorted((p for p in folder.iterdir() if p.is_file() and p.name.endswith(suffixes)
                   and not p.name.startswith(("_", "."))), key=lambda p: p.name)


def _copied_lesson(text: str) -> str:
    """A lesson as a copy has it: without its cells tagged ``repository-only`` (lesson 0's
    note that, opened in the kit's repository, its links reach the instructor notebooks)."""
    notebook = nbformat.reads(text, 4)
    kept = [c for c in notebook.cells if REPOSITORY_ONLY not in c.metadata.get("tags", [])]
    if len(kept) == len(notebook.cells):
        return text
    notebook.cells = kept
    return nbformat.writes(notebook) + "\n"


def lessons_plan() -> dict:
    """relative path -> text, for ``copy_lessons``."""
    plan = {p.name: _copied_lesson(p.read_text(encoding="utf-8"))
            for p in _files(_root(), (".ipynb",))}
    for lang in ("zh", "ko"):  # the lessons in Chinese and Korean
        if (_root() / lang).is_dir():
            plan.update({f"{lang}/{p.name}": _copied_lesson(p.read_text(encoding="utf-8"))
                         for p in _files(_root() / lang, (".ipynb",))})
    assignments = _root() / "assignments"
    for path in _files(assignments, (".ipynb",)):
        released = nbg.student_version(nbformat.reads(path.read_text(encoding="utf-8"), 4))
        plan[f"assignments/{path.name}"] = nbformat.writes(released) + "\n"
    for path in _files(assignments, (".py",)):
        plan[f"assignments/{path.name}"] = path.read_text(encoding="utf-8")
    for lang in ("zh", "ko"):  # the assignments in the language of the lessons that link them
        for path in _files(assignments, (".ipynb",)):
            notebook = translated(nbformat.reads(path.read_text(encoding="utf-8"), 4),
                                  Path(str(path)), lang)
            plan[f"{lang}/assignments/{path.name}"] = \
                nbformat.writes(nbg.student_version(notebook)) + "\n"
        for path in _files(assignments, (".py",)):
            plan[f"{lang}/assignments/{path.name}"] = path.read_text(encoding="utf-8")
    return plan


def assignments_plan() -> dict:
    """relative path -> text, for ``copy_assignments``."""
    folder = _root() / "assignments"
    plan = {p.name: p.read_text(encoding="utf-8") for p in _files(folder, (".ipynb", ".py", ".md"))}
    for lang in ("zh", "ko"):  # the catalogs `release --lang` translates the notebooks with
        messages = folder / "locale" / lang / "LC_MESSAGES"
        if messages.is_dir():
            plan.update({f"locale/{lang}/LC_MESSAGES/{p.name}": p.read_text(encoding="utf-8")
                         for p in _files(messages, (".po",))})
    return plan


def _write(plan: dict, folder, force: bool) -> list[Path]:
    folder = Path(folder)
    clashes = [folder / name for name in plan if (folder / name).exists()]
    if clashes and not force:
        names = "\n  ".join(str(p) for p in clashes)
        raise Exists(f"{len(clashes)} file(s) already exist and were left alone (nothing was "
                     f"written):\n  {names}\nchoose a new folder, or add --force to replace "
                     "them with the kit's versions")
    written = []
    for name, text in plan.items():
        write_atomic(folder / name, text)
        written.append(folder / name)
    return written


def copy_lessons(folder, force: bool = False) -> list[Path]:
    return _write(lessons_plan(), folder, force)


def trust_lessons(paths) -> int:
    """Mark the copied lessons trusted, as ``jupyter trust`` does (the kit's own
    notebooks): their stored graphs, steppers and plots then show on first open,
    before anything runs. The student assignments are left as they are. Returns
    how many were signed."""
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary()
    lessons = [Path(p) for p in paths if Path(p).suffix == ".ipynb"
               and Path(p).parent.name != "assignments"]
    for path in lessons:
        notary.sign(nbformat.read(path, as_version=4))
    return len(lessons)


def copy_assignments(folder, force: bool = False) -> list[Path]:
    return _write(assignments_plan(), folder, force)


@contextlib.contextmanager
def kit_sources():
    """The kit's instructor notebooks as paths (their question modules beside them)."""
    folder = _root() / "assignments"
    if isinstance(folder, Path):  # installed as files (a wheel, or editable)
        yield [str(p) for p in _files(folder, (".ipynb",))]
        return
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-") as temporary:  # e.g. a zip
        _write(assignments_plan(), temporary, force=False)
        yield [str(p) for p in sorted(Path(temporary).glob("*.ipynb"))]
