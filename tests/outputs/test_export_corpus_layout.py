"""``kbgen export --format csv --layout corpus``: the comparison in the corpus's own layout.

Every result-derived column of the corpus's comparison: the run's identity and boundary,
the profile's scope, then per axis its values (a JSON array, sorted), assessment, basis and
records (joined by ``;``). The shipped dynamic-cheatsheet row is held to its document's
front matter (``AAS-2026-10-03-dynamic-cheatsheet-02/memory.md``), read by hand."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from generator.outputs.export import csv_header, export_csv
from generator.pipeline import PipelineResult, run_pipeline

TESTS = Path(__file__).resolve().parents[1]
REPO_ROOT = TESTS.parent
PROFILE_FIXTURE = TESTS / "fixtures" / "profile"

AXES = [
    "storage_substrate",
    "representational_form",
    "lineage",
    "behavioral_authority",
    "write_agency",
    "curation_operations",
    "read_back_direction",
    "read_back_signal",
    "trace_learning",
    "trace_source",
    "learning_scope",
    "learning_timing",
    "distilled_form",
    "faithfulness_tested",
]
HEADER = [
    "system_name",
    "analysis_run",
    "source_identity",
    "reviewed_revision",
    "analysis_cutoff",
    "source_tier",
    "boundary_kind",
    "comparison_scope",
    *(column for axis in AXES for column in (axis, f"{axis}_assessment", f"{axis}_basis", f"{axis}_records")),
]


@pytest.fixture(scope="module")
def shipped() -> PipelineResult:
    return run_pipeline(REPO_ROOT / "records", REPO_ROOT)


def _rows(text: str) -> list[dict[str, str]]:
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header == HEADER
    return [dict(zip(header, row, strict=True)) for row in rows]


def _row(result: PipelineResult, name: str) -> dict[str, str]:
    [row] = [row for row in _rows(export_csv(result, layout="corpus")) if row["system_name"] == name]
    return row


def test_the_header_is_the_corpus_s_columns(shipped: PipelineResult) -> None:
    header = next(csv.reader(io.StringIO(export_csv(shipped, layout="corpus"))))
    assert header == HEADER
    assert len(header) == 8 + 14 * 4


def test_the_dynamic_cheatsheet_row_is_its_document_s_front_matter(shipped: PipelineResult) -> None:
    row = _row(shipped, "Dynamic Cheatsheet")
    # run-id, source-identity and reviewed-boundary, as the front matter states them.
    assert row["analysis_run"] == "AAS-2026-10-03-dynamic-cheatsheet-02"
    assert row["source_identity"] == "https://github.com/suzgunmirac/dynamic-cheatsheet"
    assert row["reviewed_revision"] == "5cfe3c37e8e52b1d858d0f3df46e7f17c50991b9"
    # A memory report states no cutoff, evidence tier or boundary kind: empty, not made up.
    assert (row["analysis_cutoff"], row["source_tier"], row["boundary_kind"]) == ("", "", "")
    assert row["comparison_scope"].startswith("Retained benchmark-run cheatsheet text and prior input/output")
    assert row["comparison_scope"].endswith(
        "transient messages not retained in result rows, and provider internals."
    )
    assert row["storage_substrate"] == '["files", "in-memory"]'
    assert row["storage_substrate_assessment"] == "known"
    assert row["storage_substrate_basis"] == "files=wired;in-memory=wired"
    assert (
        row["storage_substrate_records"]
        == "MEM-OBJ-1;MEM-OBJ-2;MEM-OBJ-3;MEM-RTE-1;MEM-RTE-2;MEM-RTE-3;MEM-RTE-4"
    )
    assert row["lineage"] == '["imported", "trace-extracted"]'
    assert row["lineage_assessment"] == "partial"
    assert row["write_agency_basis"] == "automatic=wired;manual=afforded"
    assert row["write_agency_records"] == "MEM-OBJ-1;MEM-RTE-1;MEM-RTE-2;MEM-RTE-4"
    assert row["trace_learning"] == '["yes"]'
    assert row["trace_source"] == '["session-logs", "tool-traces"]'
    assert row["trace_source_records"] == "MEM-RTE-1;MEM-RTE-4;MEM-OBJ-2"  # in the order written
    # A memory report carries the ten axes: the four extra ones are empty cells.
    for axis in AXES[10:]:
        assert [row[axis], row[f"{axis}_assessment"], row[f"{axis}_basis"], row[f"{axis}_records"]] == [
            ""
        ] * 4


def test_values_are_a_json_array_in_sorted_order(shipped: PipelineResult) -> None:
    row = _row(shipped, "Dynamic Cheatsheet")
    # The front matter lists them knowledge, ranking, routing, learning.
    assert json.loads(row["behavioral_authority"]) == ["knowledge", "learning", "ranking", "routing"]
    assert row["behavioral_authority"] == '["knowledge", "learning", "ranking", "routing"]'
    # The per-value basis follows the values' order.
    assert row["behavioral_authority_basis"] == "knowledge=wired;learning=wired;ranking=wired;routing=wired"
    for name in ("Dynamic Cheatsheet", "Napkin", "oh-my-pi", "instinctual-memory"):
        values = _row(shipped, name)
        for axis in AXES:
            if values[axis]:
                assert json.loads(values[axis]) == sorted(json.loads(values[axis]))


def test_a_basis_stated_once_for_the_axis_is_that_basis(shipped: PipelineResult) -> None:
    row = _row(shipped, "oh-my-pi")  # an older result: the basis per axis
    assert row["storage_substrate_basis"] == "afforded"
    assert row["representational_form"] == "[]"  # not determinable: no values
    assert row["representational_form_assessment"] == "not-determinable"
    assert row["representational_form_basis"] == ""


def test_records_are_joined_by_semicolons(shipped: PipelineResult) -> None:
    row = _row(shipped, "Napkin")
    assert row["storage_substrate_records"] == "OBJ-1;OBJ-2;OBJ-3;OBJ-10;OBJ-11;OBJ-12;OBJ-13;RTE-12"
    for record in row["storage_substrate_records"].split(";"):
        assert record.strip() == record and record


def test_a_system_without_a_profile_has_no_row(monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    monkeypatch.chdir(PROFILE_FIXTURE)
    result = kbgen("export", "--format", "csv", "--layout", "corpus")
    assert result.code == 0, result.err
    rows = _rows(result.out)
    # alpha and beta carry a profile; gamma, a result without one, is not compared.
    assert [row["analysis_run"] for row in rows] == ["AAS-2024-05-01-alpha-01", "AAS-2024-05-01-beta-01"]
    only = kbgen("export", "--format", "csv", "--layout", "corpus", "--system", "gamma")
    assert only.code == 0
    assert only.out == ",".join(HEADER) + "\n"


def test_the_default_layout_is_unchanged(monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    monkeypatch.chdir(PROFILE_FIXTURE)
    default = kbgen("export", "--format", "csv")
    named = kbgen("export", "--format", "csv", "--layout", "default")
    assert default.code == named.code == 0
    assert default.out == named.out
    header = next(csv.reader(io.StringIO(default.out)))
    assert header == csv_header()
    assert header[:6] == [
        "system",
        "name",
        "run_id",
        "evidence_tier",
        "scope",
        "storage_substrate.assessment",
    ]


@pytest.mark.parametrize("argv", [("--format", "json"), ("--schema",), ("--format", "csv", "--schema")])
def test_the_corpus_layout_is_a_layout_of_the_csv_only(
    argv: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    monkeypatch.chdir(PROFILE_FIXTURE)
    result = kbgen("export", *argv, "--layout", "corpus")
    assert result.code == 2
    assert result.out == ""
    assert result.err.strip() == "kbgen export: --layout corpus is a layout of the CSV (--format csv)"
