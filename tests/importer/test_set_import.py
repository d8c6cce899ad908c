"""``kbgen import DIR``: an analysis set folder (manifest and members) becomes one system.

The manifest's digests are checked against the input files before anything is written;
each refusal is a hostile case asserting code, file, line and column.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from generator.importer import import_document
from generator.pipeline import check_records

SET_FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "import-set" / "demo-set"


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "demo-set"
    shutil.copytree(SET_FOLDER, folder)
    return folder


def test_set_folder_imports_as_one_clean_system(tmp_path: Path) -> None:
    outcome = import_document(SET_FOLDER, "demo", tmp_path / "records")
    assert outcome.folder == tmp_path / "records" / "demo"
    assert [d for d in outcome.diagnostics if d.severity.value == "error"] == []
    [checked] = check_records(outcome.folder, tmp_path)
    assert checked.errors == []
    system = checked.records
    assert system.analysis_set is not None
    # The demo set's own members, in set order (what this fixture holds, written out).
    assert [m.member.value for m in system.analysis_set.members] == [
        "overview",
        "runtime",
        "memory",
        "epistemic",
        "reconciliation",
    ]
    assert system.supplied == []  # every cited record is declared by a member of the set
    assert {r.id for r in system.records} >= {
        "SRC-1",
        "CMP-1",
        "OBJ-1",
        "RTE-1",
        "RTE-2",
        "MEM-RTE-1",
        "EPI-OBJ-1",
    }


def test_members_in_the_reference_forms_import_as_typed_fields(tmp_path: Path) -> None:
    """A route with only some labelled fields stays narrative (its text kept as written), a
    claim's 'Conclusion status:' sentence is its status, the spec's limitation header maps."""
    outcome = import_document(SET_FOLDER, "demo", tmp_path / "records")
    assert outcome.folder is not None
    [checked] = check_records(outcome.folder, tmp_path)
    assert checked.errors == []
    records = {record.id: record for record in checked.records.records}
    route = records["RTE-2"]
    assert route.fields is None
    assert "Immediate return: every note." in (route.body or "")  # kept in place, as written
    claim = records["EPI-CLM-1"]
    assert claim.conclusion_status.value == "claimed"
    assert claim.claim.startswith("notes are checked before they are kept.")
    [limitation] = checked.records.limitations
    assert limitation.affected == "RTE-1, RTE-2"
    assert limitation.resolving_evidence == "A recorded run"


def test_the_set_manifest_digests_are_those_of_the_input_files() -> None:
    text = (SET_FOLDER / "ARTIFACT.yaml").read_text(encoding="utf-8")
    for name in ("overview.md", "runtime.md", "memory.md", "epistemic.md", "reconciliation.md"):
        assert hashlib.sha256((SET_FOLDER / name).read_bytes()).hexdigest() in text


def _refused(folder: Path, tmp_path: Path) -> set[tuple[str, str, int, int]]:
    records = tmp_path / "records"
    outcome = import_document(folder, "demo", records)
    assert outcome.folder is None
    assert not (records / "demo").exists()
    return {(d.code, d.file, d.line, d.col) for d in outcome.diagnostics}


def test_member_edited_after_its_digest_was_pinned(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    runtime = folder / "runtime.md"
    runtime.write_text(runtime.read_text(encoding="utf-8").replace("Write a note", "Write a vetted note"))
    assert _refused(folder, tmp_path) == {("KB611", f"{folder.as_posix()}/runtime.md", 1, 1)}


def test_member_file_smuggled_in_beside_the_pinned_ones(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "notes.md").write_text("# Notes\n", encoding="utf-8")
    assert _refused(folder, tmp_path) == {("KB611", folder.as_posix(), 1, 1)}


def test_manifest_pins_a_file_that_is_not_a_member(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    manifest = folder / "ARTIFACT.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "  notes.md:\n    sha256: " + "ab" * 32 + "\n",
        encoding="utf-8",
    )
    assert _refused(folder, tmp_path) == {("KB611", folder.as_posix(), 1, 1)}


def test_pinned_member_deleted(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "epistemic.md").unlink()
    assert _refused(folder, tmp_path) == {("KB611", folder.as_posix(), 1, 1)}


@pytest.mark.parametrize("text", ["members: [overview.md]\n", "members: {overview.md: {sha256: 12}}\n"])
def test_manifest_that_is_not_a_set_manifest(text: str, tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "ARTIFACT.yaml").write_text(text, encoding="utf-8")
    assert _refused(folder, tmp_path) == {("KB611", f"{folder.as_posix()}/ARTIFACT.yaml", 1, 1)}
