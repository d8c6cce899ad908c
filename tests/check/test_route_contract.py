"""A run is checked by the route contract it was written under: KB304 holds a run under
today's contract, and what it would flag in an earlier contract's run is a finding."""

from __future__ import annotations

from pathlib import Path

from generator.check.route_contract import contract_findings, run_contract
from generator.model.contracts import TODAY, ContractName
from generator.pipeline import check_records

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "check"


def _checked(name: str):
    (system,) = check_records(CASES / name / "records", CASES / name)
    return system


def test_an_earlier_contracts_run_checks_clean_with_a_finding() -> None:
    system = _checked("clean-route-contract-earlier")
    assert system.diagnostics == []
    assert run_contract(system.records).name is ContractName.SIX_FIELDS_FREE_WORDING
    (finding,) = contract_findings(system.records)
    assert finding.text == (
        "RTE-10 states 4 of 7 route fields; lacks Delegated visibility, Activation or effect, Evidence limits"
    )


def test_todays_contract_stays_strict_and_has_no_findings() -> None:
    system = _checked("KB304-route-fields-today-contract")
    assert run_contract(system.records) is TODAY
    assert [d.rule.code for d in system.diagnostics] == ["KB304"] * 3
    assert contract_findings(system.records) == ()
