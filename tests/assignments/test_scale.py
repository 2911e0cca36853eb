"""Grading at scale: --jobs up to the machine's cores, and --shard i/n + merge, which give the
same files, byte for byte, as one unsharded run."""

import os

import nbformat
import pytest
from assignment_files import BY_ASSIGNMENT
from samples import SAMPLES, build

from grader import notebook as nbg
from grader.cli import main
from grader.grade import QuestionResult, Result
from grader.report import write_report
from grader.timing import read_timing

SOURCE = BY_ASSIGNMENT["derive_it_by_hand"]
STUDENTS = ("correct", "partial", "wrong", "empty")


def _files(folder):
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def submitted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submitted")
    released = nbg.student_version(nbformat.read(SOURCE, as_version=4))
    for name in STUDENTS:
        nbformat.write(build(released, SAMPLES[name]), folder / f"{name}.ipynb")
    return folder


def _grade(submitted, out, *options):
    return main(["grade", str(submitted), "--source", str(SOURCE), "--out", str(out),
                 "--timeout", "10", "--variants", "none", "--salt", "one for all parts",
                 *options])


def test_sharded_and_merged_is_identical_to_one_run(submitted, tmp_path, capsys):
    cores = str(os.cpu_count())
    assert _grade(submitted, tmp_path / "all", "--jobs", cores) == 0
    for part in (1, 2, 3):
        assert _grade(submitted, tmp_path / f"part{part}", "--shard", f"{part}/3",
                      "--jobs", "1") == 0
    shards = [sorted(p.stem for p in (tmp_path / f"part{i}").glob("results/*/*.json"))
              for i in (1, 2, 3)]
    assert shards == [["correct", "wrong"], ["empty"], ["partial"]]  # every third, by path
    assert main(["merge", *(str(tmp_path / f"part{i}") for i in (1, 2, 3)),
                 "--out", str(tmp_path / "merged")]) == 0
    whole, merged = _files(tmp_path / "all"), _files(tmp_path / "merged")
    # timing.csv: the seconds each took, measured anew in every run, so apart; merged from all
    timed = {key for key in read_timing(tmp_path / "all")}
    assert {key for key in read_timing(tmp_path / "merged")} == timed == {
        ("derive_it_by_hand", student) for student in STUDENTS}
    del whole["timing.csv"], merged["timing.csv"]
    assert len(whole) == 2 * len(STUDENTS) + 3  # results, feedback, gradebook, flags, manifest
    assert merged == whole
    gradebook = whole["gradebook.csv"].decode()
    assert "correct,derive_it_by_hand,q4,3,3" in gradebook
    assert "partial,derive_it_by_hand,q2,0,2" in gradebook


def test_merge_refuses_two_different_results_for_one_student(tmp_path, capsys):
    for part, points in (("one", 1.0), ("two", 0.0)):
        result = Result("ada", "derive_it_by_hand", "ada.ipynb", title="Derive it by hand",
                        questions=[QuestionResult("q1", "df", points, 1.0)])
        write_report([result], tmp_path / part)
    assert main(["merge", str(tmp_path / "one"), str(tmp_path / "two"),
                 "--out", str(tmp_path / "merged")]) == 1
    where = "results/derive_it_by_hand/ada.json"
    assert (f"{tmp_path / 'one' / where} and {tmp_path / 'two' / where} differ (the same "
            "student graded in two parts); nothing was written") in capsys.readouterr().err
    assert not (tmp_path / "merged").exists()


def test_merge_refuses_a_folder_the_grader_did_not_write(tmp_path, capsys):
    (tmp_path / "results" / "derive_it_by_hand").mkdir(parents=True)
    assert main(["merge", str(tmp_path), "--out", str(tmp_path / "merged")]) == 1
    assert (f"{tmp_path} has no manifest.json: it is not a folder that `minigrad-kit grade` "
            "wrote") in capsys.readouterr().err


@pytest.mark.parametrize("shard", ["0/3", "4/3", "1", "a/b"])
def test_a_bad_shard_is_explained(shard, capsys):
    with pytest.raises(SystemExit):
        main(["grade", "x.ipynb", "--out", "grades", "--shard", shard])
    assert "is not I/N with 1 <= I <= N, e.g. 2/8 for the second of eight parts" in (
        capsys.readouterr().err)
