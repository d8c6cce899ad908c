"""The result page of a run written under an earlier route contract lists what today's
contract would flag in it, in a short labelled note; a run under today's has none."""

from __future__ import annotations

from pathlib import Path

from generator.pipeline import run_pipeline

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "check"
NOTE = '<p class="admonition-title">Written under an earlier route contract</p>'


def _pages(name: str) -> dict[str, str]:
    result = run_pipeline(CASES / name / "records", CASES / name)
    assert result.errors == []
    return result.pages


def _result_page(name: str) -> str:
    return _pages(name)["systems/demo/result.md"]


def test_an_earlier_contracts_run_shows_its_findings() -> None:
    page = _result_page("clean-route-contract-earlier")
    assert NOTE in page
    assert "<code>six-fields-free-wording</code>" in page and "<code>seven-fields-exact-labels</code>" in page
    (line,) = [line for line in page.splitlines() if "states 4 of 7 route fields" in line]
    assert line.startswith('<li><a href="#rte-10">RTE-10</a>')
    assert line.endswith(
        "states 4 of 7 route fields; lacks Delegated visibility, Activation or effect, Evidence limits</li>"
    )


def test_a_run_under_todays_contract_shows_none() -> None:
    assert NOTE not in _result_page("clean-run")


def test_the_system_page_names_an_earlier_contract_and_its_findings() -> None:
    row = "| Route contract | `six-fields-free-wording`, an earlier one: 1 finding of what today's would flag"
    assert row in _pages("clean-route-contract-earlier")["systems/demo/index.md"]
    assert "| Route contract |" not in _pages("clean-run")["systems/demo/index.md"]


def _with_lookalike(tmp_path: Path, earlier: bool) -> Path:
    """The earlier-contract fixture (or it under today's contract) with a component whose
    text is written like an evidence anchor but names no file."""
    import shutil

    shutil.copytree(CASES / "clean-route-contract-earlier", tmp_path / "case")
    demo = tmp_path / "case" / "records" / "demo"
    records = (demo / "records.yaml").read_text(encoding="utf-8")
    records = records.replace(
        "    form: Symbolic code.\n",
        "    form: Symbolic code; it waits as SRC-1 waitForDiagnostics/getDiagnosticsForFile do.\n",
    )
    (demo / "records.yaml").write_text(records, encoding="utf-8")
    if not earlier:
        run = (demo / "run.yaml").read_text(encoding="utf-8")
        (demo / "run.yaml").write_text(
            run.replace("  contract: six-fields-free-wording\n", ""), encoding="utf-8"
        )
    return tmp_path / "case"


def test_a_lookalike_anchor_of_an_earlier_run_is_a_finding_on_its_page(tmp_path: Path) -> None:
    """Published text is kept as written: today's KB409 warning is, in a run under an
    earlier contract, a finding its result page lists (and no warning)."""
    case = _with_lookalike(tmp_path, earlier=True)
    result = run_pipeline(case / "records", case)
    assert [d.code for d in result.diagnostics] == []
    page = result.pages["systems/demo/result.md"]
    (line,) = [line for line in page.splitlines() if "written like an evidence anchor" in line]
    assert line.startswith('<li><a href="#cmp-1">CMP-1</a>')
    assert '<a href="#src-1">SRC-1</a> waitForDiagnostics/getDiagnosticsForFile is written like' in line
    assert line.endswith("names no file (shown as text)</li>")
    assert "2 findings of what today's would flag" in result.pages["systems/demo/index.md"]


def test_a_lookalike_anchor_under_todays_contract_is_a_warning(tmp_path: Path) -> None:
    case = _with_lookalike(tmp_path, earlier=False)
    result = run_pipeline(case / "records", case)
    # Today's contract holds the run to KB304 too (the route states 4 of 7 fields).
    assert {d.code for d in result.diagnostics} == {"KB409", "KB304"}


def _row(page: str, field: str) -> str:
    """The value cell of a row of the result page's run table."""
    lines = page.splitlines()
    at = lines.index(f"<td>{field}</td>")
    return lines[at + 1]


def test_the_result_page_states_the_contract_and_its_dates_in_force() -> None:
    earlier = _row(_result_page("clean-route-contract-earlier"), "Route contract")
    assert earlier == (
        "<td><code>six-fields-free-wording</code>, in force from 2026-09-26 to 2026-09-27; the run is "
        "checked as that contract had it. Today's contract, <code>seven-fields-exact-labels</code>, "
        "would flag 1 finding in it, listed below.</td>"
    )
    today = _row(_result_page("clean-run"), "Route contract")
    assert today == "<td><code>seven-fields-exact-labels</code> (today's), in force since 2026-10-02.</td>"


def test_the_review_states_the_contract_and_where_todays_findings_are() -> None:
    line = (
        "<p><strong>Route contract:</strong> <code>six-fields-free-wording</code>, in force from "
        "2026-09-26 to 2026-09-27; the run is checked as that contract had it. Today's contract, "
        "<code>seven-fields-exact-labels</code>, would flag 1 finding in it, listed on the "
        '<a href="../result/#run-identity">full result</a>.</p>'
    )
    assert line in _pages("clean-route-contract-earlier")["systems/demo/review.md"].splitlines()
    today = (
        "<p><strong>Route contract:</strong> <code>seven-fields-exact-labels</code> (today's), in force "
        "since 2026-10-02.</p>"
    )
    assert today in _pages("clean-run")["systems/demo/review.md"].splitlines()


def test_an_earlier_contract_without_findings_says_today_s_flags_nothing(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(CASES / "clean-route-contract-earlier", tmp_path / "case")
    records = tmp_path / "case" / "records" / "demo" / "records.yaml"
    text = records.read_text(encoding="utf-8")
    start = text.index("  - id: RTE-10\n")
    records.write_text(text[:start], encoding="utf-8")
    result = run_pipeline(tmp_path / "case" / "records", tmp_path / "case")
    assert result.errors == []
    assert NOTE not in result.pages["systems/demo/result.md"]
    assert _row(result.pages["systems/demo/result.md"], "Route contract").endswith(
        "Today's contract, <code>seven-fields-exact-labels</code>, would flag nothing in it.</td>"
    )
