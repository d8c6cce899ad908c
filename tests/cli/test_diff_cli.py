"""``kbgen diff``: two run folders, or one system folder at two git revisions; the JSON and
human forms, the schema, and bad input (exit 2 with located errors, never a traceback)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import git
import jsonschema
import pytest
from run_diff_support import REPO_ROOT, edit, record, rename_id, run_copy

from generator.load.readfs import MAX_FILE_BYTES

SCHEMA = json.loads((REPO_ROOT / "schemas" / "diff.schema.json").read_text(encoding="utf-8"))


def _changed(folder: Path) -> None:
    """The changes of the 'new' run: a renumbered route, a status move, a relabelled component."""
    rename_id(folder, "RTE-2", "RTE-7")
    edit(
        folder,
        "routes.yaml",
        lambda d: record(d, "routes", "RTE-1")["statuses"].update(
            {"operation conclusion status": "observed"}
        ),
    )
    edit(folder, "components.yaml", lambda d: d["components"][0].update(label="Sandbox policy engine"))


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    _changed(new)
    return old, new


def test_two_run_folders_in_json(runs, kbgen) -> None:
    old, new = runs
    result = kbgen("diff", str(old), str(new), "--format", "json")
    assert result.code == 0, result.err
    document = result.json()
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert document["version"] == 4
    assert document["counts"] == {
        "added": 0,
        "removed": 0,
        "changed": 2,
        "renumbered": 1,
        "unchanged": 10,
        "possible_different_referents": 0,
        "conclusions_moved": 1,
        "conclusions_newly_stated": 0,
        "conclusions_no_longer_stated": 0,
        "status_fields_renamed": 0,
        "verdicts_moved": 0,
    }
    # Conclusions first, then the profile, the records found and gone, the renumbering.
    assert list(document)[6:14] == [
        "conclusions",
        "verdicts",
        "statements",
        "profile",
        "added",
        "removed",
        "renumbered",
        "changed",
    ]
    (move,) = document["conclusions"]
    assert move["change"] == "moved"
    assert (move["field"], move["old"], move["new"]) == (
        "operation conclusion status",
        "uninspected",
        "observed",
    )
    assert move["new_evidence"] == ["SRC-1 src/agent/loop.py:10-20", "SRC-2 docs/loop.md:3"]
    (renumbered,) = document["renumbered"]
    assert (renumbered["old"]["id"], renumbered["new"]["id"]) == ("RTE-2", "RTE-7")
    assert renumbered["confidence"] == 1.0 and "label 100% similar" in renumbered["why"]
    # CMP-1 is relabelled on the same files and text: one record, surely, not flagged.
    (component,) = [c for c in document["changed"] if c["new"]["id"] == "CMP-1"]
    assert not component["possible_different_referent"] and component["basis"]["same_id"]


def test_two_run_folders_for_people(runs, kbgen) -> None:
    old, new = runs
    result = kbgen("diff", str(old), str(new))
    assert result.code == 0, result.err
    lines = result.out.split("\n")
    assert lines[0] == "alpha: AAS-2024-05-01-alpha-01 → AAS-2024-05-01-alpha-01"
    counts = (
        "0 added, 0 removed, 2 changed, 1 renumbered, 10 unchanged; 1 conclusion moved, 0 verdicts moved; "
        "statuses: 0 newly stated, 0 no longer stated, 0 fields renamed"
    )
    assert lines[1] == f"records: {counts}"
    assert lines[3:5] == ["Conclusions that moved", "  ~ RTE-1 (route) Prompt → answer"]
    assert any(line.startswith("  RTE-2 → RTE-7 (route) Tool approval — confidence 1.00: ") for line in lines)
    assert "      operation conclusion status: uninspected → observed" in lines
    assert "      Label: [-Agent loop-] {+Sandbox policy engine+}" in lines


def test_an_unchanged_run_exits_zero_with_no_changes(tmp_path: Path, kbgen) -> None:
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    result = kbgen("diff", str(old), str(new))
    assert result.code == 0
    assert "No changes." in result.out


def test_the_output_file_and_the_schema(runs, tmp_path: Path, monkeypatch, kbgen) -> None:
    old, new = runs
    target = tmp_path / "diff.json"
    assert kbgen("diff", str(old), str(new), "--format", "json", "--out", str(target)).code == 0
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(target.read_text(encoding="utf-8")))
    schema = kbgen("diff", "--schema")
    assert schema.code == 0 and json.loads(schema.out) == SCHEMA
    assert kbgen("diff", "--schema", str(old)).code == 2


def test_a_folder_with_errors_exits_2_with_located_errors(runs, kbgen) -> None:
    old, new = runs
    (new / "broken.yaml").write_text("routes:\n  - id: RTE-9\n    label: [unclosed\n", encoding="utf-8")
    result = kbgen("diff", str(old), str(new))
    assert result.code == 2
    assert result.out == ""
    assert f"{new.as_posix()}/broken.yaml:" in result.err and ": error KB001 yaml-syntax:" in result.err
    assert "nothing compared" in result.err and "Traceback" not in result.err


@pytest.mark.parametrize(
    "argv",
    [
        ("diff",),
        ("diff", "one"),
        ("diff", "a", "b", "c"),
        ("diff", "--git", "HEAD"),
        ("diff", "--git", "HEAD~1", "HEAD"),
    ],
)
def test_wrong_arguments_exit_2(argv, kbgen) -> None:
    result = kbgen(*argv)
    assert result.code == 2 and "Traceback" not in result.err


def test_missing_and_multi_system_folders_exit_2(runs, tmp_path: Path, kbgen) -> None:
    old, _ = runs
    missing = kbgen("diff", str(old), str(tmp_path / "nowhere"))
    assert missing.code == 2 and "no such run folder" in missing.err
    several = kbgen("diff", str(old), str(REPO_ROOT / "tests" / "fixtures" / "profile" / "records"))
    assert several.code == 2 and "found 3 system folders" in several.err


# ---------------------------------------------------------------- two git revisions


def _repository(root: Path, old: Path, new: Path) -> git.Repo:
    """A repository whose two commits hold ``old`` and then ``new`` at records/alpha."""
    repo = git.Repo.init(root / "repo")
    with repo.config_writer() as config:
        config.set_value("user", "name", "Test").set_value("user", "email", "test@example.org")
    target = root / "repo" / "records" / "alpha"
    for folder, message in ((old, "old run"), (new, "new run")):
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(folder, target, symlinks=True)
        repo.git.add("-A")
        repo.index.commit(message)
    return repo


def test_two_revisions_give_the_diff_of_two_folders(runs, tmp_path: Path, kbgen) -> None:
    old, new = runs
    repo = _repository(tmp_path, old, new)
    folders = kbgen("diff", str(old), str(new), "--format", "json")
    revisions = kbgen(
        "diff", "--git", "HEAD~1", "HEAD", "alpha", "--repo", repo.working_dir, "--format", "json"
    )
    assert revisions.code == 0, revisions.err
    assert revisions.out == folders.out
    # SYSTEM may name the records folder too; the work tree is never written.
    again = kbgen(
        "diff", "--git", "HEAD~1", "HEAD", "records/alpha", "--repo", repo.working_dir, "--format", "json"
    )
    assert again.out == folders.out
    assert not repo.is_dirty(untracked_files=True)


def test_a_revision_with_errors_names_its_files_at_the_revision(runs, tmp_path: Path, kbgen) -> None:
    old, new = runs
    (new / "broken.yaml").write_text("routes: [\n", encoding="utf-8")
    repo = _repository(tmp_path, old, new)
    result = kbgen("diff", "--git", "HEAD~1", "HEAD", "alpha", "--repo", repo.working_dir)
    assert result.code == 2
    assert "HEAD:records/alpha/broken.yaml:" in result.err and "error KB001" in result.err


def test_a_symlink_and_an_oversized_file_in_a_revision_are_refused_unread(
    runs, tmp_path: Path, kbgen
) -> None:
    old, new = runs
    os.symlink("/etc/passwd", new / "linked.yaml")
    (new / "huge.md").write_text("x" * (MAX_FILE_BYTES + 1), encoding="utf-8")
    repo = _repository(tmp_path, old, new)
    result = kbgen("diff", "--git", "HEAD~1", "HEAD", "alpha", "--repo", repo.working_dir)
    assert result.code == 2
    assert "HEAD:records/alpha/linked.yaml:1:1: error KB008 not-a-regular-file" in result.err
    assert "HEAD:records/alpha/huge.md:1:1: error KB005 file-too-large" in result.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--git", "nope", "HEAD", "alpha"), "nope: not a revision of the repository"),
        (("--git", "HEAD~1", "HEAD", "beta"), "HEAD~1: no folder records/beta"),
        (("--git", "HEAD~1", "HEAD", "../alpha"), "paths inside the repository"),
    ],
)
def test_bad_revisions_and_folders_exit_2(runs, tmp_path: Path, kbgen, argv, message) -> None:
    old, new = runs
    repo = _repository(tmp_path, old, new)
    result = kbgen("diff", *argv, "--repo", repo.working_dir)
    assert result.code == 2 and message in result.err and "Traceback" not in result.err


def test_not_a_repository_exits_2(tmp_path: Path, kbgen) -> None:
    result = kbgen("diff", "--git", "HEAD~1", "HEAD", "alpha", "--repo", str(tmp_path))
    assert result.code == 2 and "not a git repository" in result.err
