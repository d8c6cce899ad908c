"""Hostile documents against the import's findings file: what a document says of itself
reaches ``import-findings.yaml`` as data (capped, one line, never YAML structure), the
machine's folders never reach it, and a flood of losses writes a bounded file in time
linear in the document."""

from __future__ import annotations

from pathlib import Path

import yaml

from generator.importer.findings import MAX_ENTRIES
from generator.model.import_findings import TEXT_CAP

HEAD = (
    "---\ntype: kb/types/agentic-system-analysis-result.md\nrun-id: AAS-2026-01-01-x-01\nsystem: X\n"
    "run-date: '2026-01-01'\n---\n\n# X agentic-system analysis\n\n## Shared records\n\n### Components\n\n"
)


def _lost_status(value_text: str) -> str:
    """A component whose second status the import does not keep, followed by ``value_text``."""
    return (
        f"CMP-1 — Loop. Interface conclusion status: wired. Model identity resolution conclusion status: "
        f"wired: {value_text}\n"
    )


def _run(tmp_path: Path, body: str, kbgen, document: Path | None = None):
    document = document or tmp_path / "doc.md"
    document.parent.mkdir(parents=True, exist_ok=True)
    document.write_text(HEAD + body, encoding="utf-8")
    result = kbgen("import", str(document), "--system", "x", "--records", str(tmp_path / "records"))
    assert "Traceback" not in result.out + result.err
    return result, tmp_path / "records" / "x" / "import-findings.yaml"


def _entries(findings: Path) -> list[dict]:
    return yaml.safe_load(findings.read_text(encoding="utf-8"))["import_findings"]


def _register(label: str) -> str:
    """A document whose register paragraph ``SRC-1 — <label>`` the import loses whole."""
    return HEAD.replace("## Shared records", f"## Source register\n\nSRC-1 — {label}\n\n## Shared records")


def test_yaml_and_markup_in_lost_text_stay_text(tmp_path: Path, kbgen) -> None:
    hostile = "x' - rule KB000 &a *a !!python/object {{ x }} <script>alert(1)</script> # not a comment"
    document = tmp_path / "doc.md"
    document.write_text(
        _register(hostile) + "CMP-1 — Loop. Evidence: SRC-1 `src/loop.py:1-9`.\n", encoding="utf-8"
    )
    kbgen("import", str(document), "--system", "x", "--records", str(tmp_path / "records"))
    entries = _entries(tmp_path / "records" / "x" / "import-findings.yaml")
    (lost,) = [e for e in entries if e["kind"] == "record"]
    assert lost["text"] == f"SRC-1 — {hostile}"
    assert lost["resolution"] == "open" and lost["rule"] == "KB614"
    # The folder it wrote, findings file included, loads as records do: no YAML error, no tag.
    checked = kbgen("check", str(tmp_path / "records"), "--format", "json")
    assert not {d["code"] for d in checked.json()["diagnostics"]} & {
        "KB001",
        "KB003",
        "KB004",
        "KB101",
        "KB103",
    }


def test_a_huge_lost_record_label_is_capped(tmp_path: Path, kbgen) -> None:
    document = tmp_path / "doc.md"
    document.write_text(_register("word " * 20_000) + "CMP-1 — Loop.\n", encoding="utf-8")
    kbgen("import", str(document), "--system", "x", "--records", str(tmp_path / "records"))
    entries = _entries(tmp_path / "records" / "x" / "import-findings.yaml")
    assert [e["record"] for e in entries if e["kind"] == "record"] == ["SRC-1"]
    for entry in entries:
        assert len(entry["text"]) <= TEXT_CAP
        assert "\n" not in entry["text"]


def test_the_machines_folders_never_reach_the_file(tmp_path: Path, kbgen) -> None:
    secret = tmp_path / "home" / "analyst" / "private-notes"
    _, findings = _run(tmp_path, _lost_status("a provider identifier."), kbgen, secret / "doc.md")
    text = findings.read_text(encoding="utf-8")
    assert "private-notes" not in text and str(tmp_path) not in text
    assert {e["document"] for e in _entries(findings)} == {"doc.md"}


def test_a_flood_of_losses_writes_a_bounded_file_in_linear_time(tmp_path: Path, kbgen) -> None:
    def body(n: int) -> str:
        return "".join(_lost_status(f"item {i}.").replace("CMP-1", f"CMP-{i + 1}") + "\n" for i in range(n))

    # (Its time, 10 KB against 1 MB, is a benchmark's to print: benchmarks/bench_import.py.)
    result, findings = _run(tmp_path / "large", body(3000), kbgen)
    assert len(_entries(findings)) == MAX_ENTRIES
    assert f"the first {MAX_ENTRIES:,} listed in" in result.err
