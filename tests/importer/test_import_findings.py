"""What an import could not keep is written with the run (``import-findings.yaml``), and
the import's own messages agree with each other and with ``kbgen check``."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import yaml

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
STATUS_LOST = FIXTURES / "import-findings" / "status-lost.md"  # a status after a status's value
RECORD_LOST = FIXTURES / "import" / "KB614-record-lost" / "document.md"  # SRC-1 becomes supplied
TEXT_LOST = FIXTURES / "import" / "KB612-text-lost" / "document.md"
CLEAN = FIXTURES / "import" / "forms-result" / "document.md"


def _import(tmp_path: Path, monkeypatch, kbgen, document: Path, *more: str):
    shutil.copy(document, tmp_path / "doc.md")
    monkeypatch.chdir(tmp_path)
    return kbgen("import", "doc.md", "--system", "tiny", *more)


def _entries(tmp_path: Path) -> list[dict]:
    text = (tmp_path / "records" / "tiny" / "import-findings.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)["import_findings"]


def test_a_lost_status_is_written_with_the_run(tmp_path: Path, monkeypatch, kbgen) -> None:
    result = _import(tmp_path, monkeypatch, kbgen, STATUS_LOST)
    assert result.code == 1
    digest = hashlib.sha256(STATUS_LOST.read_bytes()).hexdigest()
    assert _entries(tmp_path) == [
        {
            "rule": "KB614",
            "document": "doc.md",
            "document_sha256": digest,
            "line": 28,
            "col": 37,
            "kind": "status",
            "text": "model identity resolution conclusion status: wired",
            "record": "CMP-2",
            "resolution": "open",
        }
    ]


def test_the_summary_names_the_loss_and_the_file(tmp_path: Path, monkeypatch, kbgen) -> None:
    result = _import(tmp_path, monkeypatch, kbgen, STATUS_LOST)
    summary = result.err.strip().splitlines()[-1]
    assert "does not check clean" not in summary
    assert summary.endswith(
        "1 error: the import could not keep 1 construct (listed in records/tiny/import-findings.yaml); "
        "otherwise the folder checks clean"
    )
    # The check's KB616 of the same loss is not listed twice: KB614 names it at the document's line.
    assert "KB616" not in result.out
    assert "doc.md:28:37: error KB614" in result.out


def test_the_check_then_reports_it_located_in_the_findings_file(tmp_path: Path, monkeypatch, kbgen) -> None:
    _import(tmp_path, monkeypatch, kbgen, STATUS_LOST)
    checked = kbgen("check", "records", "--format", "json")
    assert checked.code == 0
    assert [(d["code"], d["file"], d["line"], d["col"]) for d in checked.json()["diagnostics"]] == [
        ("KB616", "records/tiny/import-findings.yaml", 3, 3)
    ]
    assert kbgen("check", "records", "--strict").code == 1


def test_accepting_the_finding_with_a_reason_clears_the_strict_check(
    tmp_path: Path, monkeypatch, kbgen
) -> None:
    _import(tmp_path, monkeypatch, kbgen, STATUS_LOST)
    findings = tmp_path / "records" / "tiny" / "import-findings.yaml"
    text = findings.read_text(encoding="utf-8")
    findings.write_text(text.replace("resolution: open", "resolution: accepted"), encoding="utf-8")
    assert kbgen("check", "records", "--format", "json").json()["diagnostics"][0]["code"] == "KB617"
    findings.write_text(
        text.replace("resolution: open", "resolution: accepted\n  reason: The provider identifier is prose."),
        encoding="utf-8",
    )
    assert kbgen("check", "records", "--strict").code == 0


def test_a_declared_id_that_became_supplied_is_one_finding(tmp_path: Path, monkeypatch, kbgen) -> None:
    result = _import(tmp_path, monkeypatch, kbgen, RECORD_LOST, "--format", "json")
    at_18 = [d for d in result.json()["diagnostics"] if d["file"] == "doc.md" and d["line"] == 18]
    assert [(d["code"], d["message"]) for d in at_18] == [
        ("KB614", "SRC-1 is declared here but became a supplied record, not a record of its kind")
    ]
    (entry,) = _entries(tmp_path)
    assert (entry["kind"], entry["record"], entry["text"]) == (
        "record",
        "SRC-1",
        "SRC-1 — Described elsewhere",
    )


def test_lost_text_is_a_finding_too(tmp_path: Path, monkeypatch, kbgen) -> None:
    _import(tmp_path, monkeypatch, kbgen, TEXT_LOST)
    entries = _entries(tmp_path)
    assert [(e["rule"], e["line"], e["kind"]) for e in entries] == [
        ("KB612", 2, "frontmatter"),
        ("KB612", 3, "frontmatter"),
    ]
    assert all("record" not in e and e["resolution"] == "open" for e in entries)


def test_an_import_that_keeps_everything_writes_no_findings_file(tmp_path: Path, monkeypatch, kbgen) -> None:
    result = _import(tmp_path, monkeypatch, kbgen, CLEAN)
    assert result.code == 0
    assert not (tmp_path / "records" / "tiny" / "import-findings.yaml").exists()
    assert result.err.strip().endswith("it checks clean")


def test_the_summary_prints_every_figure_every_time(tmp_path: Path, monkeypatch, kbgen) -> None:
    result = _import(tmp_path, monkeypatch, kbgen, TEXT_LOST)
    summary = result.err.strip().splitlines()[-1]
    assert (
        "records 0 of 0, labels 0 of 0, statuses 0 of 0, anchors 0 of 0, quotations 0 of 0, revisions 0 of 0;"
        in summary
    )
    (tmp_path / "again").mkdir()
    lost = _import(tmp_path / "again", monkeypatch, kbgen, STATUS_LOST)
    assert "statuses 2 of 3, anchors 2 of 2, quotations 0 of 0, revisions 1 of 1;" in lost.err


def test_a_further_run_keeps_its_findings_in_its_own_folder(tmp_path: Path, monkeypatch, kbgen) -> None:
    _import(tmp_path, monkeypatch, kbgen, CLEAN)
    later = STATUS_LOST.read_text(encoding="utf-8").replace(
        "AAS-2026-01-01-tiny-01", "AAS-2026-01-01-tiny-02"
    )
    (tmp_path / "later.md").write_text(later, encoding="utf-8")
    result = kbgen("import", "later.md", "--system", "tiny", "--as-run")
    run = tmp_path / "records" / "tiny" / "runs" / "AAS-2026-01-01-tiny-02"
    assert (run / "import-findings.yaml").is_file()
    assert not (tmp_path / "records" / "tiny" / "import-findings.yaml").exists()
    assert "listed in records/tiny/runs/AAS-2026-01-01-tiny-02/import-findings.yaml" in result.err
