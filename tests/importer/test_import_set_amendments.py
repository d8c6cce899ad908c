"""A set's reconciliation member: its ``Amendment:`` paragraphs import as typed amendments
(the records they amend, the amendment, its evidence and affected findings, each as
written), and the set's quotations outside records as quote blocks.

The shipped ``records/instinctual-memory`` is the importer's output for the reference set,
byte for byte; what the importer cannot type stays prose with a KB601 note, located.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from set_support import REFERENCE, SET_FOLDER, SHIPPED

from generator.importer import import_document
from generator.importer.recognisers.amendments import amendment_text, leading_ids
from generator.pipeline import check_records

RECONCILIATION_HEAD = "## Reconciliation\n\nThe members share SRC-1; MEM-RTE-1 retains what RTE-1 writes.\n"
# The line of the paragraph added after the reconciliation's first paragraph.
ADDED_LINE = 14


def _reference() -> Path:
    if not REFERENCE.is_dir():
        pytest.skip(f"reference set not found at {REFERENCE}")
    return REFERENCE


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = tmp_path_factory.mktemp("reference") / "records"
    outcome = import_document(_reference(), "instinctual-memory", records)
    assert outcome.folder is not None
    return outcome.folder


def _report(folder: Path) -> dict[str, Any]:
    text = (folder / "reconciliation-report.yaml").read_text(encoding="utf-8")
    report: dict[str, Any] = yaml.safe_load(text)["reconciliation_report"]
    return report


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("RTE-4's description", ["RTE-4"]),
        ("RTE-2 and RTE-3's statements", ["RTE-2", "RTE-3"]),
        ("RTE-2, RTE-3 and RTE-5 now read", ["RTE-2", "RTE-3", "RTE-5"]),
        ("CMP-1 is extended", ["CMP-1"]),
        ("The RTE-4 route", []),
    ],
)
def test_leading_ids_are_the_amended_records(text: str, ids: list[str]) -> None:
    assert leading_ids(text)[0] == ids


def test_amendment_parts_are_cut_at_their_labels_and_kept_as_written() -> None:
    parsed = amendment_text(
        "Amendment: RTE-2 and RTE-3's reads are narrowed. Evidence: SRC-1 `src/a.rs`; the ledger. "
        "Affected findings: OBJ-1 metadata. No decay follows."
    )
    assert parsed is not None
    assert parsed.targets == ["RTE-2", "RTE-3"]
    assert parsed.body == "RTE-2 and RTE-3's reads are narrowed."
    assert parsed.evidence == "SRC-1 `src/a.rs`; the ledger."
    assert parsed.affected == "OBJ-1 metadata. No decay follows."


def test_reference_amendments_import_as_typed_amendments(imported: Path) -> None:
    amendments = _report(imported)["amendments"]
    assert [a["targets"] for a in amendments] == [
        ["RTE-4"],
        ["CMP-1"],
        ["RTE-8"],
        ["RTE-2", "RTE-3"],
        ["RTE-5"],
        ["RTE-10"],
    ]
    first = amendments[0]
    assert first["body"].startswith("RTE-4's description of duplicate/session-only diagnosis")
    assert first["evidence_text"] == (
        "SRC-1 `src/tidy.rs`; the epistemic ledger's retained model-judgment passage and EPI-OBJ-2."
    )
    assert first["affected_findings"] == (
        "RTE-4 diagnosis roles and theory guidance; RTE-3 remains the separate extraction route."
    )
    # The quotation after the RTE-5 amendment is its "following generated passage".
    [quote] = amendments[4]["quotes"]
    assert quote["path"] == "src/ops.rs" and quote["lines"] == [[270, 275]]
    assert quote["text"].startswith("let facts: Vec<Value> = found")


def test_reference_amendments_are_shown_where_they_were_written(imported: Path) -> None:
    sections = _report(imported)["reconciliation"]["sections"]
    placed = [s["title"] for s in sections if {"amendments": "here"} in s.get("blocks", [])]
    assert placed == ["Amendments and integration dispositions"]


def test_reference_prose_has_no_amendment_paragraph_left(imported: Path) -> None:
    text = (imported / "reconciliation-report.yaml").read_text(encoding="utf-8")
    assert "- 'Amendment: " not in text and "- Amendment: " not in text


def test_quotation_after_a_ledger_entry_is_its_quote_with_its_source(imported: Path) -> None:
    report = yaml.safe_load((imported / "epistemic-report.yaml").read_text(encoding="utf-8"))
    ledger = report["epistemic_report"]["authority_route_ledger"]
    quotes = ledger["entries"][-1]["quotes"]
    assert quotes[0]["path"] == "src/consolidate.rs"
    assert quotes[0]["lines"] == [[914, 927]]
    assert quotes[0]["source"] == "SRC-1"
    assert not any(isinstance(block, str) and "— `src/" in block for block in ledger["blocks"])


def test_quote_of_the_doctrine_file_cites_the_source_its_record_names(imported: Path) -> None:
    claims = yaml.safe_load((imported / "epistemic-claims.yaml").read_text(encoding="utf-8"))["claims"]
    assert {quote["source"] for claim in claims for quote in claim["quotes"]} == {"SRC-2"}


def test_memory_member_report_status_is_its_field(imported: Path) -> None:
    text = (imported / "memory-report.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text)["memory_report"]["report_status"] == "complete"
    assert "report-status" not in text


def test_overview_frontmatter_held_by_the_run_is_not_repeated_as_prose(imported: Path) -> None:
    text = (imported / "overview-report.yaml").read_text(encoding="utf-8")
    assert "result-disposition" not in text and "inputs-commit" not in text
    run = yaml.safe_load((imported / "set.yaml").read_text(encoding="utf-8"))["run"]
    assert (run["disposition"], run["evidence_tier"]) == ("complete", "code-grounded")


def test_source_location_ends_before_the_closing_backtick(imported: Path) -> None:
    sources = yaml.safe_load((imported / "overview-sources.yaml").read_text(encoding="utf-8"))["sources"]
    assert {source["location"] for source in sources} == {"https://github.com/jasonkneen/instinctual-memory"}


def test_shipped_set_is_what_the_importer_writes(imported: Path) -> None:
    """records/instinctual-memory is the importer's output (its manifest is kbgen set-manifest's)."""
    written = {path.name: path.read_text(encoding="utf-8") for path in imported.glob("*.yaml")}
    shipped = {
        path.name: path.read_text(encoding="utf-8")
        for path in SHIPPED.glob("*.yaml")
        if path.name != "ARTIFACT.yaml"
    }
    assert shipped == written


# ---------------------------------------------------------------- hostile and odd input


def _set_with(tmp_path: Path, paragraph: str) -> Path:
    """The demo set with ``paragraph`` added to its reconciliation, the manifest re-pinned."""
    folder = tmp_path / "demo-set"
    shutil.copytree(SET_FOLDER, folder)
    member = folder / "reconciliation.md"
    text = member.read_text(encoding="utf-8")
    assert RECONCILIATION_HEAD in text
    member.write_text(
        text.replace(RECONCILIATION_HEAD, RECONCILIATION_HEAD + "\n" + paragraph), encoding="utf-8"
    )
    manifest = folder / "ARTIFACT.yaml"
    pinned = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    pinned["members"]["reconciliation.md"]["sha256"] = hashlib.sha256(member.read_bytes()).hexdigest()
    manifest.write_text(yaml.safe_dump(pinned, sort_keys=False), encoding="utf-8")
    return folder


def _located(outcome: Any) -> set[tuple[str, str, int, int]]:
    return {(d.code, d.file, d.line, d.col) for d in outcome.diagnostics}


@pytest.mark.parametrize(
    "paragraph",
    [
        "Amendment: the runtime account of RTE-2 is narrowed.\n",  # no leading ID
        "Amendment: RTE-2/RTE-1 read paths are narrowed.\n",  # IDs not a list of amended records
        "Amendment:\n",  # nothing after the label
    ],
)
def test_amendment_that_does_not_name_what_it_amends(paragraph: str, tmp_path: Path) -> None:
    folder = _set_with(tmp_path, paragraph)
    outcome = import_document(folder, "demo", tmp_path / "records")
    assert outcome.folder is not None
    assert ("KB601", f"{folder.as_posix()}/reconciliation.md", ADDED_LINE, 1) in _located(outcome)
    report = _report(outcome.folder)
    assert "amendments" not in report
    assert paragraph.strip() in report["reconciliation"]["blocks"]


def test_unresolved_conflict_without_labelled_parts(tmp_path: Path) -> None:
    folder = _set_with(tmp_path, "Unresolved conflict: RTE-1 and RTE-2 disagree on what is read.\n")
    outcome = import_document(folder, "demo", tmp_path / "records")
    assert outcome.folder is not None
    assert ("KB601", f"{folder.as_posix()}/reconciliation.md", ADDED_LINE, 1) in _located(outcome)
    assert "unresolved_conflicts" not in _report(outcome.folder)


def test_amendment_of_a_record_no_member_declares(tmp_path: Path) -> None:
    """The importer types it; the check then names the amended ID that nobody declares."""
    folder = _set_with(tmp_path, "Amendment: RTE-9's reads are narrowed. Evidence: SRC-1 `src/a.py`.\n")
    outcome = import_document(folder, "demo", tmp_path / "records")
    assert outcome.folder is not None
    assert _report(outcome.folder)["amendments"][0]["targets"] == ["RTE-9"]
    [checked] = check_records(outcome.folder, tmp_path)
    assert {(d.code, Path(d.file).name) for d in checked.errors} >= {("KB805", "set.yaml")}


def test_amendment_with_markup_in_its_parts_stays_literal(tmp_path: Path) -> None:
    folder = _set_with(
        tmp_path,
        "Amendment: RTE-2's reads <script>alert(1)</script> are narrowed. "
        "Evidence: [link](javascript:alert(1)). Affected findings: RTE-1 {{ macro }}.\n",
    )
    outcome = import_document(folder, "demo", tmp_path / "records")
    assert outcome.folder is not None
    [amendment] = _report(outcome.folder)["amendments"]
    assert amendment["body"] == "RTE-2's reads <script>alert(1)</script> are narrowed."
    assert amendment["evidence_text"] == "[link](javascript:alert(1))."
    assert amendment["affected_findings"] == "RTE-1 {{ macro }}."
