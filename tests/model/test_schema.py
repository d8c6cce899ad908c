"""The committed JSON Schema is generated from the models and must not drift from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import Field

import generator.outputs.schema
from generator.model.files import RecordFile
from generator.outputs.schema import SCHEMA_PATH, schema_text

REPO_ROOT = Path(__file__).resolve().parents[2]
COMMITTED = REPO_ROOT / SCHEMA_PATH


def _committed() -> str:
    return COMMITTED.read_text(encoding="utf-8")


def test_committed_schema_matches_the_models() -> None:
    assert _committed() == schema_text(), "schema drifted: run 'kbgen schema' and commit the result"


def test_schema_text_is_stable_and_well_formed() -> None:
    text = schema_text()
    assert text == schema_text()
    assert text.endswith("}\n") and not text.endswith("\n\n") and "\r" not in text
    schema = json.loads(text)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "records.schema.json"
    assert set(schema["properties"]) == set(RecordFile.model_fields)
    assert schema["additionalProperties"] is False


def test_a_changed_text_is_detected() -> None:
    """The drift comparison is not vacuous: one changed description makes it fail."""
    schema = json.loads(_committed())
    schema["description"] += " (edited by hand)"
    edited = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    assert edited != schema_text()


def test_a_model_change_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    """Adding a field to the record file model changes the generated schema."""

    class ChangedRecordFile(RecordFile):
        new_top_level_key: list[str] = Field(default_factory=list)

    monkeypatch.setattr(generator.outputs.schema, "record_file_model", lambda: ChangedRecordFile)
    changed = schema_text()
    assert changed != _committed()
    assert "new_top_level_key" in json.loads(changed)["properties"]


def test_schema_check_passes_on_an_exact_copy(kbgen, tmp_path: Path) -> None:
    copy = tmp_path / "records.schema.json"
    copy.write_text(_committed(), encoding="utf-8", newline="\n")
    result = kbgen("schema", "--check", "--output", str(copy))
    assert result.code == 0
    assert "matches the models" in result.out


def test_schema_check_fails_on_a_changed_copy(kbgen, tmp_path: Path) -> None:
    copy = tmp_path / "records.schema.json"
    copy.write_text(_committed().replace('"Analysis record file"', '"Edited title"', 1), encoding="utf-8")
    assert copy.read_text(encoding="utf-8") != _committed()
    result = kbgen("schema", "--check", "--output", str(copy))
    assert result.code == 1
    assert "differs from the models" in result.err
    assert "Edited title" in copy.read_text(encoding="utf-8"), "--check must not rewrite the file"


def test_schema_check_fails_when_the_file_is_missing(kbgen, tmp_path: Path) -> None:
    result = kbgen("schema", "--check", "--output", str(tmp_path / "absent.json"))
    assert result.code == 1
    assert not (tmp_path / "absent.json").exists()


def test_schema_writes_the_generated_text(kbgen, tmp_path: Path) -> None:
    target = tmp_path / "out" / "records.schema.json"
    result = kbgen("schema", "--output", str(target))
    assert result.code == 0
    assert target.read_bytes() == schema_text().encode("utf-8")
