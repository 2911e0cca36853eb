"""The kit as a pip user gets it: the wheel is built, installed into a fresh virtual
environment outside the repository, and used there from a folder of its own: the lessons
copied out (and refused a second time), the kit's assignments copied to a course folder, one
released and a sample submission graded, and one lesson run with nbclient. Nothing may come
from the source tree: every import is checked to come from the new environment.

To stay fast (seconds, not the minutes of installing JupyterLab again), the new environment
gets the test environment's third-party packages through a path file, and the wheel itself
is installed with --no-deps; `pip check` then proves that the wheel's declared dependencies
are met. The test environment's own kit (an editable install) is not visible there: editable
installs work through .pth files, which a path file does not run.
"""

import csv
import json
import os
import re
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _run(*argv, cwd, ok=True):
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items()
                               if k not in ("PYTHONPATH", "VIRTUAL_ENV")})
    if ok:
        assert done.returncode == 0, f"{argv}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def user(tmp_path_factory):
    """A user's folder (outside the repository) with a fresh environment holding the wheel."""
    home = tmp_path_factory.mktemp("pip-user")
    source = home / "source"  # the tracked files only, as a fresh clone has them
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    built = _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                 "--no-build-isolation", "-w", home / "dist", source, cwd=home)
    # the package data is configured so that setuptools has nothing to warn about (issue 32:
    # ten "Package would be ignored" blocks, for folders that hold only data)
    said = built.stdout + built.stderr
    for warning in ("BuildBackendWarning", "SetuptoolsDeprecationWarning", "would be ignored"):
        assert warning not in said, said
    wheel, = (home / "dist").glob("minigrad_kit-*.whl")
    venv.create(home / "env", with_pip=False)
    python = home / "env" / "bin" / "python"
    packages = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                    cwd=home).stdout.strip()
    (Path(packages) / "test-environment.pth").write_text("\n".join(site.getsitepackages()))
    _run(python, "-m", "pip", "install", "--quiet", "--no-deps", wheel, cwd=home)
    _run(python, "-m", "pip", "check", cwd=home)
    return home, python, Path(packages)


def test_everything_imports_from_the_new_environment(user):
    home, python, packages = user
    where = _run(python, "-c", "import grader, minigrad, widgets, grader.kernel\n"
                 "from importlib import resources\n"
                 "print(grader.__file__, minigrad.__file__, widgets.__file__)\n"
                 "print(resources.files('minigrad_kit_notebooks'))\n"
                 "print(grader.kernel.kernel_environment()['PYTHONPATH'])", cwd=home).stdout
    paths, data, pythonpath = where.splitlines()
    assert all(Path(p).is_relative_to(packages) for p in paths.split()), paths
    assert Path(data) == packages / "minigrad_kit_notebooks"
    assert str(packages) not in pythonpath and str(ROOT) not in pythonpath  # (issue 13)
    assert (packages.parent.parent.parent / "bin" / "minigrad-kit").is_file()
    licence = list(packages.glob("minigrad_kit-*.dist-info/licenses/LICENSE"))
    assert licence and "MIT License" in licence[0].read_text()
    assert "# Reading minigrad" in (packages / "minigrad" / "README.md").read_text()


def test_lessons_copy_out_and_one_runs(user):
    home, python, packages = user
    kit = python.parent / "minigrad-kit"
    _run(kit, "lessons", "my-lessons", cwd=home)
    again = _run(kit, "lessons", "my-lessons", cwd=home, ok=False)
    assert again.returncode == 1 and "add --force to replace them" in again.stderr
    lesson = home / "my-lessons" / "02_tensors_that_track_history.ipynb"
    probe = ("import nbformat, nbclient, sys\n"
             f"nb = nbformat.read({str(lesson)!r}, 4)\n"
             "nb.cells.append(nbformat.v4.new_code_cell("
             "'import minigrad, widgets; print(minigrad.__file__, widgets.__file__)'))\n"
             "nbclient.NotebookClient(nb, timeout=120, kernel_name='python3', "
             f"resources={{'metadata': {{'path': {str(lesson.parent)!r}}}}}).execute()\n"
             "print(nb.cells[-1].outputs[0]['text'])")
    imported = _run(python, "-c", probe, cwd=home).stdout.split()
    assert imported and all(Path(p).is_relative_to(packages) for p in imported), imported


UNBROADCAST = """def unbroadcast(grad, shape):
    while grad.dim() > len(shape):
        grad = grad.sum(dim=0)
    for dim, size in enumerate(shape):
        if size == 1 and grad.shape[dim] != 1:
            grad = grad.sum(dim=dim, keepdim=True)
    return grad"""


def test_a_course_is_released_per_student_and_graded(user):
    """Released with ada's own numbers, answered for them (q1 of assignment 1, a formula;
    q4 of assignment 2, code run in the sandbox from the installed packages), graded."""
    home, python, packages = user
    kit = python.parent / "minigrad-kit"
    _run(kit, "assignments", "course", cwd=home)
    _run(kit, "release", "course/01_derive_it_by_hand.ipynb",
         "course/02_broadcasting_and_reductions.ipynb", "--out", "release", "--students",
         "ada", "--no-verify", cwd=home)
    numbers = json.loads(_run(python, "-c", "import json; from grader.questions import "
                              "find_assignment as f; print(json.dumps(f('derive_it_by_hand')"
                              ".variant_for('ada')))", cwd=home).stdout)
    answers = {"01_derive_it_by_hand": ("q1_answer", f'df = "{3 * numbers["a"]}*x**2 + '
                                                     f'{numbers["b"]} + {numbers["c"]}*cos('
                                                     f'{numbers["c"]}*x)"'),
               "02_broadcasting_and_reductions": ("q4_answer", UNBROADCAST)}
    for name, (gid, answer) in answers.items():
        released = json.loads((home / "release" / "ada" / f"{name}.ipynb").read_text())
        assert released["metadata"]["minigrad_kit"]["student"] == "ada"
        for cell in released["cells"]:  # a student who answered one question
            if cell["metadata"].get("nbgrader", {}).get("grade_id") == gid:
                cell["source"] = answer
        (home / "submitted" / "ada" / name.split("_", 1)[1]).mkdir(parents=True)
        (home / "submitted" / "ada" / name.split("_", 1)[1] / f"{name}.ipynb").write_text(
            json.dumps(released))
    _run(kit, "grade", "submitted", "--source", "course", "--out", "grades", cwd=home)
    with open(home / "grades" / "gradebook.csv", newline="") as file:
        points = {(row["assignment"], row["question"]): row["points"]
                  for row in csv.DictReader(file) if row["student"] == "ada"}
    assert [points["derive_it_by_hand", q] for q in ("q1", "q2", "q3", "q4")] == \
        ["2", "0", "0", "0"]
    assert [points["broadcasting_and_reductions", q] for q in ("q1", "q2", "q3", "q4")] == \
        ["0", "0", "0", "3"]
    flags = (home / "grades" / "flags.csv").read_text()
    assert "graded without a sandbox" not in flags
    # without --source: the kit's own assignments, from the package (issue 13: it used to
    # look for notebooks/ beside site-packages and fail)
    _run(kit, "grade", "submitted", "--out", "grades-kit", cwd=home)
    assert (home / "grades-kit" / "gradebook.csv").read_text() == (
        home / "grades" / "gradebook.csv").read_text()


def test_a_platform_zip_carries_the_wheel_pip_installed(user):
    """A teacher who installed the kit from its wheel (no source tree) makes a Gradescope
    autograder: the wheel inside is the one pip installed, made again from its RECORD."""
    import zipfile

    home, python, packages = user
    kit = python.parent / "minigrad-kit"
    _run(kit, "assignments", "course-gs", cwd=home)
    _run(kit, "gradescope", "course-gs/01_derive_it_by_hand.ipynb", "--out", "ag.zip", cwd=home)
    original, = (home / "dist").glob("minigrad_kit-*.whl")
    with zipfile.ZipFile(home / "ag.zip") as archive:
        inner = archive.read(original.name)
    (home / "inner.whl").write_bytes(inner)

    def contents(path):
        with zipfile.ZipFile(path) as wheel:
            return {name: wheel.read(name) for name in wheel.namelist()
                    if not name.endswith(".dist-info/RECORD")}

    assert contents(home / "inner.whl") == contents(original)
    # and a changed installation is refused, not handed on (then put back: the tests after
    # this one use the same installation)
    installed = packages / "grader" / "wheel.py"
    original_text = installed.read_text()
    installed.write_text(original_text + "\n# changed\n")
    try:
        refused = _run(kit, "gradescope", "course-gs/01_derive_it_by_hand.ipynb", "--out",
                       "again.zip", cwd=home, ok=False)
    finally:
        installed.write_text(original_text)
    assert refused.returncode == 1 and "is not the file pip installed" in refused.stderr


def test_prairielearn_names_the_folders_it_wrote(user):
    """README's command, `--out pl/` with its slash, run from the installed wheel: the
    folders it tells the teacher to build and copy are the ones it wrote (it said
    "pl//minigrad-kit-grader" and "pl//questions/")."""
    home, python, packages = user
    kit = python.parent / "minigrad-kit"
    _run(kit, "assignments", "course-pl", cwd=home)
    said = _run(kit, "prairielearn", "course-pl/01_derive_it_by_hand.ipynb", "--out", "pl/",
                "--image", "you/minigrad-kit-grader", cwd=home).stdout
    assert "//" not in said, said
    image = said.split("docker build -t you/minigrad-kit-grader ")[1].split(")")[0]
    questions = said.split("then copy ")[1].split(" into your course")[0]
    assert (image, questions) == ("pl/minigrad-kit-grader", "pl/questions/"), said
    assert (home / image / "Dockerfile").is_file() and (home / questions).is_dir()


def test_every_md_file_the_installed_code_names_is_installed(user):
    """A module's docstring that sends its reader to a file must find it in the wheel:
    minigrad/autograd/forward_ad.py says "NOTES.md says why", and NOTES.md was left out
    (only README.md was package data)."""
    home, python, packages = user
    named = re.compile(r"([\w./-]*[\w-]+\.md)\b")
    metadata, = packages.glob("minigrad_kit-*.dist-info/METADATA")
    readme = "# minigrad teaching kit" in metadata.read_text()  # the kit's README, as pip keeps it
    missing = []
    for package in ("minigrad", "widgets", "grader", "kit_i18n"):
        for module in (packages / package).rglob("*.py"):
            for name in set(named.findall(module.read_text(encoding="utf-8"))):
                relative = name.removeprefix("notebooks/")
                places = [module.parent / name, packages / package / name,
                          packages / "minigrad_kit_notebooks" / relative]
                if not any(place.is_file() for place in places) and not (
                        readme and name == "README.md"):
                    missing.append(f"{module.relative_to(packages)}: {name}")
    assert not missing, missing
