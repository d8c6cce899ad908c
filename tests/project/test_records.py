"""The shipped records check without errors (warnings are allowed)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_shipped_records_have_no_errors(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    result = kbgen("check", "records", "--format", "json")
    payload = result.json()
    errors = [d for d in payload["diagnostics"] if d["severity"] == "error"]
    assert errors == []
    assert result.code == 0
    assert payload["systems"], "no system folders under records/"
    assert all(system["errors"] == 0 for system in payload["systems"])
    assert all(d["file"].startswith("records/") for d in payload["diagnostics"])


def test_shipped_records_human_summary(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    result = kbgen("check", "records")
    assert result.code == 0
    slugs = sorted(p.name for p in (REPO_ROOT / "records").iterdir() if p.is_dir())
    summaries = [line for line in result.out.splitlines() if line.split(":")[0] in slugs]
    assert [line.split(":")[0] for line in summaries] == slugs
    assert all(": ok — " in line and " 0 errors, " in line for line in summaries)
