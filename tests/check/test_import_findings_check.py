"""A run's import findings (``import-findings.yaml``) as ``kbgen check``, ``kbgen build``,
the system page and ``kbgen linkcheck`` see them; and a source whose anchors cannot link
(KB412)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import located, make_records
from site_support import make_project

from generator.pipeline import run_pipeline

DIGEST = "4a9d0bc1dbd7479ace7f980b34a827ff0bb5c22c13cd39cc4388999ef546aaaf"


def entry(resolution: str = "open", reason: str | None = None, line: int = 140) -> str:
    text = (
        f"  - rule: KB614\n    document: result.md\n    document_sha256: {DIGEST}\n    line: {line}\n"
        "    col: 1\n    kind: status\n    text: 'implementation conclusion status: observed'\n"
        f"    record: CMP-1\n    resolution: {resolution}\n"
    )
    return text + (f"    reason: {reason}\n" if reason is not None else "")


def findings(*entries: str) -> str:
    return "import_findings:\n" + "".join(entries)


FILE = "records/demo/import-findings.yaml"


def test_an_open_finding_is_a_located_warning(tmp_path: Path, monkeypatch, kbgen) -> None:
    make_records(tmp_path, {"import-findings.yaml": findings(entry())})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 0
    assert located(result) == {("KB616", FILE, 2, 5)}
    (diagnostic,) = result.json()["diagnostics"]
    assert diagnostic["severity"] == "warning"
    assert "KB614 status of CMP-1 at result.md:140:1" in diagnostic["message"]
    assert "implementation conclusion status: observed" in diagnostic["message"]
    assert "resolution: accepted" in diagnostic["hint"]


def test_an_open_finding_fails_the_strict_check(tmp_path: Path, monkeypatch, kbgen) -> None:
    make_records(tmp_path, {"import-findings.yaml": findings(entry())})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--strict")
    assert result.code == 1
    assert f"{FILE}:2:5: warning KB616 import-finding-open" in result.out


def test_an_accepted_finding_with_a_reason_is_silent(tmp_path: Path, monkeypatch, kbgen) -> None:
    accepted = entry("accepted", "The status is observed in a later run, not this one.")
    make_records(tmp_path, {"import-findings.yaml": findings(accepted)})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--strict", "--format", "json")
    assert result.code == 0
    assert result.json()["diagnostics"] == []


@pytest.mark.parametrize("reason", [None, "''", "'   '"], ids=["no-reason", "empty", "blank"])
def test_an_accepted_finding_without_a_reason_is_an_error(
    reason: str | None, tmp_path: Path, monkeypatch, kbgen
) -> None:
    make_records(tmp_path, {"import-findings.yaml": findings(entry("open"), entry("accepted", reason, 150))})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1
    # The open entry warns; the accepted one is located at its 'resolution' key.
    assert located(result) == {("KB616", FILE, 2, 5), ("KB617", FILE, 19, 5)}


def test_a_folder_without_the_file_has_no_findings(tmp_path: Path, monkeypatch, kbgen) -> None:
    make_records(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--strict", "--format", "json")
    assert result.code == 0
    assert result.json()["diagnostics"] == []


def test_the_system_page_lists_what_is_open(tmp_path: Path) -> None:
    accepted = entry("accepted", "Known and accepted.", 150)
    records = make_records(tmp_path, {"import-findings.yaml": findings(entry(), accepted)})
    page = run_pipeline(records).pages["systems/demo/index.md"]
    assert "## Open import findings { #open-import-findings }" in page
    assert "1 construct of the imported document this run's records do not keep" in page
    assert "`result.md:140:1`" in page
    assert "`result.md:150:1`" not in page  # accepted: not listed
    assert "`implementation conclusion status: observed`" in page


def test_no_list_when_nothing_is_open(tmp_path: Path) -> None:
    records = make_records(tmp_path, {"import-findings.yaml": findings(entry("accepted", "Known."))})
    assert "Open import findings" not in run_pipeline(records).pages["systems/demo/index.md"]


NO_LOCATION = (
    "sources:\n  - id: SRC-1\n    source_kind: Git\n    identity: https://github.com/example/demo\n"
    '    revision: "0123456789abcdef"\n    layers:\n      - layer: implementation\n'
    "        scope: The files named by the anchors.\n"
)


def test_a_source_without_a_location_is_unlinkable(tmp_path: Path, monkeypatch, kbgen) -> None:
    make_records(tmp_path, {"sources.yaml": NO_LOCATION})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert located(result) == {("KB412", "records/demo/sources.yaml", 2, 5)}
    (diagnostic,) = result.json()["diagnostics"]
    assert (
        "SRC-1 states no location, so the 1 evidence anchor citing it is shown as plain text"
        in (diagnostic["message"])
    )


def test_an_unlinkable_anchor_is_marked_on_the_page(tmp_path: Path) -> None:
    records = make_records(tmp_path, {"sources.yaml": NO_LOCATION})
    pages = run_pipeline(records).pages
    assert any('<span class="kb-anchor-unlinked">src/agent.py</span>' in page for page in pages.values())
    linked = run_pipeline(make_records(tmp_path / "linked")).pages
    assert not any("kb-anchor-unlinked" in page for page in linked.values())


@pytest.mark.slow
def test_build_and_linkcheck_agree_with_the_check(tmp_path: Path, monkeypatch, kbgen) -> None:
    """An open finding warns in the build and fails 'kbgen build --strict', as it fails
    'kbgen check --strict'; linkcheck counts the anchors a location-less source leaves as text."""
    project = make_project(tmp_path)
    (project / "records" / "demo" / "import-findings.yaml").write_text(findings(entry()), encoding="utf-8")
    (project / "records" / "demo" / "sources.yaml").write_text(NO_LOCATION, encoding="utf-8")
    monkeypatch.chdir(project)
    assert kbgen("check", "records").code == 0
    assert kbgen("check", "records", "--strict").code == 1
    strict = kbgen("build", "--site-dir", "site", "--strict")
    assert strict.code == 1
    assert "KB616" in strict.err and "KB412" in strict.err
    assert not (project / "site").exists()
    built = kbgen("build", "--site-dir", "site")
    assert built.code == 0, built.err
    page = (project / "site" / "systems" / "demo" / "index.html").read_text(encoding="utf-8")
    assert 'id="open-import-findings"' in page
    checked = kbgen("linkcheck", "site")
    assert checked.code == 0
    assert "0 broken links" in checked.err
    assert "1 evidence anchor shown as text that should link" in checked.err
