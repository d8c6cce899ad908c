"""Hostile findings files: ``import-findings.yaml`` arrives in a pull request like any
record file, so what it holds is validated (located schema errors), shown as text on the
system page, and never read as prose that cites records."""

from __future__ import annotations

import shutil
from pathlib import Path

from hostile_support import located, make_records

from generator.pipeline import run_pipeline

FILE = "records/demo/import-findings.yaml"
GOOD = (
    "  - rule: KB614\n    document: result.md\n    document_sha256: '{digest}'\n    line: 3\n    col: 1\n"
    "    kind: status\n    text: {text}\n    resolution: open\n"
)
DIGEST = "0" * 64


def _check(tmp_path: Path, monkeypatch, kbgen, text: str):
    make_records(tmp_path, {"import-findings.yaml": text})
    monkeypatch.chdir(tmp_path)
    return kbgen("check", "records", "--format", "json")


def test_malformed_entries_get_located_schema_errors(tmp_path: Path, monkeypatch, kbgen) -> None:
    text = (
        "import_findings:\n"
        "  - rule: KB9999\n"  # 2
        "    document: result.md\n"
        "    document_sha256: NOT-A-DIGEST\n"  # 4
        "    line: 0\n"  # 5
        "    col: 1\n"
        "    kind: status\n"
        f"    text: {'x' * 400}\n"  # 8: over the cap
        "    resolution: ignored\n"  # 9
        "    run: elsewhere\n"  # 10: unknown key
    )
    result = _check(tmp_path, monkeypatch, kbgen, text)
    assert result.code == 1
    assert located(result) == {
        ("KB101", FILE, 2, 11),
        ("KB101", FILE, 4, 22),
        ("KB101", FILE, 5, 11),
        ("KB101", FILE, 8, 11),
        ("KB104", FILE, 9, 17),
        ("KB103", FILE, 10, 5),
    }


def test_a_findings_list_that_is_no_list_is_located(tmp_path: Path, monkeypatch, kbgen) -> None:
    for text, expected in (
        ("import_findings: everything is fine\n", ("KB101", FILE, 1, 18)),
        ("import_findings:\n  - just a string\n", ("KB101", FILE, 2, 5)),
        ("import_findings:\n  - {}\n", ("KB102", FILE, 2, 5)),
    ):
        (tmp_path / "case").mkdir(exist_ok=True)
        result = _check(tmp_path / "case", monkeypatch, kbgen, text)
        assert result.code == 1
        assert expected in located(result), (text, located(result))
        monkeypatch.chdir(tmp_path)
        shutil.rmtree(tmp_path / "case")


def test_ids_and_anchors_in_a_finding_cite_nothing(tmp_path: Path, monkeypatch, kbgen) -> None:
    text = "import_findings:\n" + GOOD.format(digest=DIGEST, text="'SRC-99 src/x.py:1-9 and RTE-404 — CMP-7'")
    result = _check(tmp_path, monkeypatch, kbgen, text)
    assert located(result) == {("KB616", FILE, 2, 5)}  # no KB202, KB401: a finding is not prose


def test_markup_in_a_finding_is_text_on_the_system_page(tmp_path: Path) -> None:
    script = "'<script>alert(1)</script> **bold** [x](javascript:alert(1)) {{ config }} `tick'"
    text = "import_findings:\n" + GOOD.format(digest=DIGEST, text=script).replace(
        "kind: status", "kind: '<img src=x onerror=alert(1)>'"
    )
    page = run_pipeline(make_records(tmp_path, {"import-findings.yaml": text})).pages["systems/demo/index.md"]
    listed = page.split("## Open import findings", 1)[1].split("\n## ", 1)[0]
    assert "<script>" not in listed and "<img" not in listed
    assert "[x](javascript:" not in listed  # escaped: no link is made
    assert "{{" not in listed  # no macro opens
