"""The memory-comparison profile as checked data: hostile cases and the editor schema.

Each rule of the profile (KB701–KB719) has its committed fixture under
``tests/fixtures/check/``; the cases here are attacks and slips that other rules
must catch at the right place (code, file, line, column), plus the schema that
editors complete axes and values from.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from hostile_support import CLEAN_SYSTEM, located, make_records

from generator.model.profile import ALL_AXES, AXES, AXIS_VALUES

REPO_ROOT = Path(__file__).resolve().parents[2]
CLEAN = REPO_ROOT / "tests" / "fixtures" / "check" / "clean-memory-comparison-profile" / "records" / "demo"
PROFILE = "records/demo/profile.yaml"
# The real profile of the reference memory report, beside the repository like the seeds.
REFERENCE = REPO_ROOT.parent / "shared" / "reference" / "AAS-2026-10-03-dynamic-cheatsheet-02" / "memory.md"


def _clean_files() -> dict[str, str | bytes | None]:
    """The clean profile system's files (and no other), to plant a change into."""
    files: dict[str, str | bytes | None] = {path.name: None for path in CLEAN_SYSTEM.iterdir()}
    files.update({path.name: path.read_text(encoding="utf-8") for path in sorted(CLEAN.iterdir())})
    return files


def _profile_with(old: str, new: str) -> str:
    text = (CLEAN / "profile.yaml").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen, changes: dict) -> set:
    make_records(tmp_path, {**_clean_files(), **changes})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1, result.out
    return located(result)


def test_clean_profile_system_checks_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    make_records(tmp_path, _clean_files())
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 0, result.out
    assert result.json()["diagnostics"] == []


def test_unquoted_yes_read_as_a_boolean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    found = _check(
        tmp_path, monkeypatch, kbgen, {"profile.yaml": _profile_with('values: ["yes"]', "values: [yes]")}
    )
    assert ("KB101", PROFILE, 87, 16) in found


def test_profile_declared_in_two_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    second = (CLEAN / "profile.yaml").read_text(encoding="utf-8")
    found = _check(tmp_path, monkeypatch, kbgen, {"profile-copy.yaml": second})
    assert ("KB207", "records/demo/profile.yaml", 2, 1) in found


def test_axis_note_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = _profile_with('      note: "Only prose is retained."\n', "")
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB715", PROFILE, 19, 5)}


def test_value_note_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = _profile_with('          note: "Notes are prose."\n', "")
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB715", PROFILE, 23, 9)}


def test_evidence_value_given_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    twice = '        files:\n          basis: wired\n          records: [OBJ-1]\n          note: "Again."\n'
    text = _profile_with("        in-memory:\n", twice + "        in-memory:\n")
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB002", PROFILE, 13, 9)}


def test_axes_given_as_a_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = 'memory_comparison:\n  scope: "Notes."\n  axes:\n    - storage_substrate\n'
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB101", PROFILE, 4, 5)}


def test_record_id_outside_the_grammar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = _profile_with(
        '      records: [OBJ-1]\n      note: "Only', '      records: [notes.txt]\n      note: "Only'
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB105", PROFILE, 27, 17)}


def test_dangling_id_in_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = _profile_with('note: "Reference only."', 'note: "Reference only, see RTE-404."')
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB202", PROFILE, 48, 34)}


def test_scope_left_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = _profile_with(
        'scope: "Notes retained across runs and the route that reads them back."', 'scope: ""'
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB107", PROFILE, 3, 10)}


def test_unknown_key_beside_the_axes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = _profile_with("  axes:\n", "  summary: extra\n  axes:\n")
    found = _check(tmp_path, monkeypatch, kbgen, {"profile.yaml": text})
    assert found == {("KB103", PROFILE, 4, 3)}


# ---- the editor schema ------------------------------------------------------------------


def _schema() -> dict:
    return json.loads((REPO_ROOT / "schemas" / "records.schema.json").read_text(encoding="utf-8"))


def _reference_profile() -> dict:
    front = REFERENCE.read_text(encoding="utf-8").split("---\n")[1]
    return {"memory_comparison": yaml.safe_load(front)["memory-comparison"]}


def test_schema_accepts_the_clean_profile() -> None:
    data = yaml.safe_load((CLEAN / "profile.yaml").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(_schema()).validate(data)


@pytest.mark.skipif(not REFERENCE.exists(), reason="the reference memory report is not beside the repository")
def test_schema_accepts_the_reference_profile() -> None:
    jsonschema.Draft202012Validator(_schema()).validate(_reference_profile())


def test_schema_completes_every_axis_and_its_values() -> None:
    axes = _schema()["$defs"]["MemoryComparison"]["properties"]["axes"]
    assert list(axes["properties"]) == list(ALL_AXES)
    assert axes["required"] == list(AXES)  # the four extra axes a result may add are optional
    for axis, values in AXIS_VALUES.items():
        assert axes["properties"][axis]["properties"]["values"]["items"]["enum"] == list(values)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("values: [files, in-memory]", "values: [files, in-ram]"),
        ("assessment: partial", "assessment: complete"),
        ("basis: afforded", "basis: documented"),
        ("    write_agency:", "    write_agencies:"),
    ],
)
def test_schema_refuses_what_the_checker_refuses(old: str, new: str) -> None:
    data = yaml.safe_load(_profile_with(old, new))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(_schema()).validate(data)
