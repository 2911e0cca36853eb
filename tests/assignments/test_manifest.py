"""The manifest of result files: only what the grader wrote is read back."""

import json
import os

from grader.manifest import (MANIFEST, Manifest, foreign_files, load_manifest,
                                          read_listed)


def _identity(data):
    return data["assignment"], data["student"]


def _store(out, manifest, assignment, student, payload=None):
    text = json.dumps(payload or {"assignment": assignment, "student": student, "points": 1})
    path = out / "results" / assignment / f"{student}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    manifest.add(f"results/{assignment}/{student}.json", text, assignment, student)
    return path


def _saved(out, manifest):
    (out / MANIFEST).write_text(manifest.to_text(), encoding="utf-8")
    return load_manifest(out)


def test_listed_files_that_match_are_read_back(tmp_path):
    manifest = Manifest()
    _store(tmp_path, manifest, "a1", "alice")
    _store(tmp_path, manifest, "a1", "bob")
    loaded, problems = _saved(tmp_path, manifest)
    assert problems == []
    kept, problems = read_listed(tmp_path, loaded, json.loads, _identity)
    assert [r["student"] for r in kept] == ["alice", "bob"] and problems == []
    assert foreign_files(tmp_path, loaded) == []


def test_planted_changed_moved_and_linked_files_are_reported_and_ignored(tmp_path):
    manifest = Manifest()
    alice = _store(tmp_path, manifest, "a1", "alice")
    bob = _store(tmp_path, manifest, "a1", "bob")
    carol = _store(tmp_path, manifest, "a1", "carol")
    loaded, _ = _saved(tmp_path, manifest)
    # forged full marks for alice, a phantom student, a file about someone else, a link
    alice.write_text(json.dumps({"assignment": "a1", "student": "alice", "points": 99}))
    (tmp_path / "results" / "a1" / "phantom.json").write_text(
        json.dumps({"assignment": "a1", "student": "phantom", "points": 99}))
    (tmp_path / "results" / "a2").mkdir()
    (tmp_path / "results" / "a2" / "alice.json").write_text("{ not json")
    bob.unlink()
    os.symlink("/etc/passwd", bob)
    carol.unlink()
    kept, problems = read_listed(tmp_path, loaded, json.loads, _identity)
    assert kept == []
    assert problems == [
        "results/a1/alice.json was ignored: ValueError: its content changed after the grader "
        "wrote it",
        "results/a1/bob.json was ignored: OSError: [Errno 40] Too many levels of symbolic "
        f"links: '{bob}'",
        "results/a1/carol.json is listed in manifest.json but missing; that submission is not "
        "in the gradebook (grade it again)"]
    assert foreign_files(tmp_path, loaded) == ["results/a1/phantom.json", "results/a2/alice.json"]


def test_content_must_name_the_listed_assignment_and_student(tmp_path):
    manifest = Manifest()
    _store(tmp_path, manifest, "a1", "alice", {"assignment": "a1", "student": "bob"})
    kept, problems = read_listed(tmp_path, _saved(tmp_path, manifest)[0], json.loads, _identity)
    assert kept == [] and problems == [
        "results/a1/alice.json was ignored: ValueError: its content is about 'bob' in 'a1'"]


def test_an_unreadable_manifest_is_reported_and_read_as_empty(tmp_path):
    for text in ["{ broken", "[]", json.dumps({"minigrad_kit_manifest": 1, "results": {
            "results/a1/x.json": {"sha256": 1}}}), "\xff"]:
        (tmp_path / MANIFEST).write_text(text, encoding="latin-1")
        manifest, problems = load_manifest(tmp_path)
        assert manifest.entries == {}
        assert len(problems) == 1 and problems[0].startswith("manifest.json could not be read (")
        assert problems[0].endswith("earlier results were ignored (grade those submissions "
                                    "again)")
    (tmp_path / MANIFEST).unlink()
    (tmp_path / MANIFEST).mkdir()
    manifest, problems = load_manifest(tmp_path)
    assert manifest.entries == {} and "ValueError: not a regular file" in problems[0]
    assert load_manifest(tmp_path / "new") == (Manifest(), [])


def test_a_fifo_in_place_of_a_result_does_not_block(tmp_path):
    manifest = Manifest()
    path = _store(tmp_path, manifest, "a1", "alice")
    path.unlink()
    os.mkfifo(path)
    kept, problems = read_listed(tmp_path, manifest, json.loads, _identity)
    assert kept == [] and problems == [
        "results/a1/alice.json was ignored: ValueError: not a regular file"]
