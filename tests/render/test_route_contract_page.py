"""The result page of a run written under an earlier route contract lists what today's
contract would flag in it, in a short labelled note; a run under today's has none."""

from __future__ import annotations

from pathlib import Path

from generator.pipeline import run_pipeline

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "check"
NOTE = '!!! note "Written under an earlier route contract"'


def _pages(name: str) -> dict[str, str]:
    result = run_pipeline(CASES / name / "records", CASES / name)
    assert result.errors == []
    return result.pages


def _result_page(name: str) -> str:
    return _pages(name)["systems/demo/result.md"]


def test_an_earlier_contracts_run_shows_its_findings() -> None:
    page = _result_page("clean-route-contract-earlier")
    assert NOTE in page
    assert "`six-fields-free-wording`" in page and "`seven-fields-exact-labels`" in page
    (line,) = [line for line in page.splitlines() if "states 4 of 7 route fields" in line]
    assert line.startswith("    - [RTE-10](#rte-10")
    assert line.endswith(
        "states 4 of 7 route fields; lacks Delegated visibility, Activation or effect, Evidence limits"
    )


def test_a_run_under_todays_contract_shows_none() -> None:
    assert NOTE not in _result_page("clean-run")


def test_the_system_page_names_an_earlier_contract_and_its_findings() -> None:
    row = "| Route contract | `six-fields-free-wording`, an earlier one: 1 route with what today's would flag"
    assert row in _pages("clean-route-contract-earlier")["systems/demo/index.md"]
    assert "| Route contract |" not in _pages("clean-run")["systems/demo/index.md"]
