"""The forms of ``document-forms.md``, as the fixtures under ``tests/fixtures/import/forms-*``
write them, become the records the form says (the golden files hold the whole output;
these tests name what each form must give, so a golden cannot drift silently)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.importer import import_document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "import"


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _import(tmp_path_factory.mktemp("forms"), "forms-result")


def _import(tmp: Path, case: str) -> dict[str, Any]:
    outcome = import_document(FIXTURES / case / "document.md", "tiny", tmp / "records")
    assert outcome.folder is not None
    files = {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in outcome.folder.glob("*.yaml")}
    records = {
        entry["id"]: entry
        for mapping in files.values()
        for value in mapping.values()
        if isinstance(value, list)
        for entry in value
        if isinstance(entry, dict) and "id" in entry
    }
    return {"files": files, "records": records, "outcome": outcome}


def test_the_declared_type_wins_over_a_title_naming_memory(result: dict[str, Any]) -> None:
    assert "result.yaml" in result["files"] and "report.yaml" not in result["files"]


def test_frontmatter_run_keys_are_the_run_not_prose(result: dict[str, Any]) -> None:
    run = result["files"]["run.yaml"]["run"]
    assert run["system"] == "Tiny"
    assert (run["disposition"], run["boundary_kind"], run["evidence_tier"]) == (
        "complete",
        "whole-system",
        "code-grounded",
    )
    assert str(run["analysis_cutoff"]) == "2026-01-02"
    blocks = result["files"]["result.yaml"]["result"]["run_identity"]["blocks"]
    assert not any("result-disposition" in str(block) for block in blocks)


def test_the_fourteen_axis_profile_keeps_its_basis_per_axis(result: dict[str, Any]) -> None:
    axes = result["files"]["profile.yaml"]["memory_comparison"]["axes"]
    assert len(axes) == 14
    assert axes["faithfulness_tested"] == {
        "assessment": "known",
        "basis": "afforded",
        "values": ["no"],
        "records": ["ABS-1"],
        "note": "No test found.",
    }
    assert all("evidence" not in axis for axis in axes.values())


def test_every_declaration_form_declares_its_record(result: dict[str, Any]) -> None:
    records = result["records"]
    assert records["CMP-1"]["label"] == "Agent loop"  # heading
    assert records["CMP-2"]["label"] == "Note writer"  # 'ID — Label. Body'
    assert (records["CMP-3"]["label"], records["CMP-3"]["body"][:12]) == (
        "Model",
        "a configured",
    )  # 'Label: Body'
    assert records["CMP-4"]["label"] == "Tool registry"  # '**ID — Label.** Body'
    assert records["CMP-5"]["label"] == "Summarizer"  # 'ID —**Label; status.** Body'
    assert records["CMP-5"]["statuses"] == {"conclusion status": "wired"}
    assert "label" not in records["CMP-6"]  # '**ID.** Body': no label, a stand-in on the pages
    assert records["OBJ-1"]["label"] == "Note files under notes/, one per run"  # a table row


def test_statuses_keep_their_qualifier(result: dict[str, Any]) -> None:
    records = result["records"]
    assert records["CMP-1"]["statuses"] == {
        "implementation conclusion status": "wired, conditional on installation"
    }
    assert records["CMP-2"]["statuses"] == {
        "conclusion status": "wired storage, external inspection afforded"
    }
    assert records["RTE-1"]["statuses"]["implementation conclusion status"] == "wired"  # written in bold


def test_labelled_sentences_in_one_paragraph_are_fields(result: dict[str, Any]) -> None:
    claim = result["records"]["CLM-1"]
    assert claim["claim"] == "the README says notes make later runs better."
    assert claim["conclusion_status"] == "claimed"
    assert claim["statuses"] == {"activation conclusion status": "uninspected, no run was observed"}
    assert result["records"]["RTE-1"]["progression"] == "OBJ-1 → CMP-1 → model context."


def test_each_evidence_path_belongs_to_the_source_named_last_before_it(result: dict[str, Any]) -> None:
    assert result["records"]["CMP-2"]["evidence"] == ["SRC-1 src/notes.py", "SRC-2 docs/notes.md"]
    assert result["records"]["OBJ-1"]["evidence"] == ["SRC-1 src/notes.py:10-20", "SRC-1 src/paths.py"]


def test_quotations_follow_their_record_and_keep_their_pin(result: dict[str, Any]) -> None:
    records = result["records"]
    # '--- path @ commit', two sources at that commit: the one the record cites.
    assert records["CMP-1"]["quotes"][0]["source"] == "SRC-1"
    assert "pin" not in records["CMP-1"]["quotes"][0]  # the source's revision holds it
    # '— SRC-1 path:lines'
    assert records["CMP-5"]["quotes"] == [
        {"text": "summarize(run)", "path": "src/summary.py", "source": "SRC-1", "lines": [[4, 4]]}
    ]
    # a capture pinned by its digest
    assert records["OBJ-2"]["quotes"][0]["pin"] == "sha256:" + "a" * 64


def test_a_narrative_absence_is_an_absence(result: dict[str, Any]) -> None:
    assert result["records"]["ABS-1"]["label"] == "No faithfulness test of the notes; absent"


def test_the_whole_document_is_kept(result: dict[str, Any]) -> None:
    coverage = result["outcome"].coverage
    assert coverage is not None and coverage.kept == coverage.units
    assert not [d for d in result["outcome"].diagnostics if d.code == "KB612"]


def test_json_frontmatter_is_read_like_yaml(tmp_path: Path) -> None:
    imported = _import(tmp_path, "forms-memory-json")
    assert "report.yaml" in imported["files"]
    axis = imported["files"]["profile.yaml"]["memory_comparison"]["axes"]["storage_substrate"]
    assert axis["evidence"]["files"]["basis"] == "wired"
    assert imported["files"]["run.yaml"]["supplied"][0]["location"] == "https://github.com/example/tiny"


def test_doc_grounded_sources_cite_by_locator_and_pin_by_digest(tmp_path: Path) -> None:
    imported = _import(tmp_path, "forms-doc-grounded")
    records = imported["records"]
    assert records["CMP-1"]["evidence"] == ["SRC-1 §2.1", "SRC-1 Table 2"]
    assert records["CMP-1"]["statuses"] == {"wiring": "claimed"}  # a label worded otherwise
    assert records["CMP-2"]["evidence"] == ["SRC-1 p. 7"]  # after an ID written as code
    digest = "sha256:" + "b" * 64
    assert imported["files"]["run.yaml"]["run"]["reviewed_boundary"]["revision"] == digest
    assert records["RTE-1"]["quotes"][0]["pin"] == digest
    assert records["RTE-1"]["quotes"][0]["lines"] == [[81, 82]]
    blocks = imported["files"]["result.yaml"]["result"]["shared_records"]["claims"]["blocks"]
    assert blocks == ["None declared in this member."]


def test_a_rendered_page_s_source_revision_is_the_reviewed_boundary() -> None:
    from generator.importer import render_measured

    revision = "0123456789abcdef0123456789abcdef01234567"
    text = (
        f"---\ntype: kb/types/agentic-system-analysis-result.md\nrun-id: AAS-2026-01-01-tiny-01\n"
        f"source-revision: {revision}\n---\n\n# tiny agentic-system analysis\n\n## Source register\n\n"
        "| Source ID | Kind | Identity/location |\n|---|---|---|\n"
        "| SRC-1 | Git | `https://github.com/e/t` |\n"
    )
    measured = render_measured(text, "doc.md", "tiny")
    files, diagnostics, coverage = measured.files, measured.diagnostics, measured.coverage
    run = yaml.safe_load(files["run.yaml"])["run"]
    assert run["reviewed_boundary"] == {"source": "SRC-1", "revision": revision}
    assert "source-revision" not in files["result.yaml"]  # not kept as prose too
    assert coverage.kept == coverage.units
    assert not [d for d in diagnostics if d.code in ("KB601", "KB612")]


def test_a_source_declared_by_a_paragraph_is_a_source_with_its_layers(tmp_path: Path) -> None:
    imported = _import(tmp_path, "forms-source-paragraphs")
    records = imported["records"]
    first = records["SRC-1"]
    commit = "0123456789abcdef0123456789abcdef01234567"
    assert (first["source_kind"], first["location"], first["revision"]) == (
        "Git",
        "https://github.com/e/tiny",
        commit,
    )
    assert first["identity"] == f"https://github.com/e/tiny at {commit}; access root /srv/tiny"  # as written
    assert [layer["layer"] for layer in first["layers"]] == [
        "implementation",
        "doctrine/design",
        "reported operation",
    ]
    assert first["layers"][1]["note"] == "`README.md` and `docs/`."
    assert first["access_gaps"] == [{"gap": "no deployed run was observed."}]
    second = records["SRC-2"]
    assert (second["source_kind"], second["revision"]) == ("Web capture", "sha256:" + "b" * 64)
    assert records["CMP-1"]["evidence"] == ["SRC-1 src/loop.ts:1-9"]
    # A paragraph naming no location is no source paragraph: kept as the register's prose,
    # and reported as a record the import did not keep.
    assert records["SRC-3"]["declared_in"].endswith("(cited, not declared)")  # a supplied stand-in
    findings = imported["files"]["import-findings.yaml"]["import_findings"]
    assert [(f["record"], f["kind"], f["line"]) for f in findings] == [("SRC-3", "record", 22)]
    outcome = imported["outcome"]
    assert [(d.code, d.line) for d in outcome.diagnostics if d.code == "KB614"] == [("KB614", 22)]
    assert "A colleague's unpublished notes" in str(imported["files"]["result.yaml"])


def test_a_paper_capture_register_gives_sources_pinned_by_their_digest(tmp_path: Path) -> None:
    imported = _import(tmp_path, "forms-paper-capture")
    records = imported["records"]
    digest = "sha256:" + "c" * 64
    first, second, third = records["SRC-1"], records["SRC-2"], records["SRC-3"]
    assert (first["source_kind"], first["location"], first["revision"]) == (
        "Paper capture",
        "https://example.org/abs/0001",
        digest,
    )
    assert first["body"] == f"Revision or capture: SHA-256 {'c' * 64}; 4096 bytes"  # the cell as written
    assert first["layers"] == [{"layer": "doctrine/design", "scope": "§§1–2, Appendix A"}]
    assert (second["revision"], second["location"]) == (digest, "https://example.org/abs/0001")
    assert second["body"] == "Revision or capture: Same capture and digest as SRC-1"
    # A phrase naming no source is the revision as written; a cell naming two layers, two layers.
    assert third["revision"] == "Same capture as the appendix"
    assert [layer["layer"] for layer in third["layers"]] == ["implementation", "doctrine/design"]
    assert third["body"] == "No run observed."
    outcome = imported["outcome"]
    assert outcome.coverage.kept == outcome.coverage.units
    assert not [d for d in outcome.diagnostics if d.severity.value == "error"]


def test_an_authority_path_s_clauses_are_its_four_fields(tmp_path: Path) -> None:
    records = _import(tmp_path, "forms-authority-clauses")["records"]
    first = records["BAP-1"]
    assert (first["consumer"], first["channel"], first["force"], first["horizon"]) == (
        "tool dispatch",
        "resolved policy",
        "enforcement of allow and deny",
        "one call.",
    )
    assert first["evidence"] == ["SRC-1 src/policy.ts:4-20"]  # the closing 'Source: …'
    assert records["BAP-2"]["horizon"] == "the current loop."
    # Fields without their labels' colons are no form the import reads: the record's prose.
    unlabelled = records["BAP-3"]
    assert "consumer" not in unlabelled and unlabelled["body"].startswith("Consumer benchmark loop, channel")
