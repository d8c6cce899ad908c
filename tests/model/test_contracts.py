"""The route contract versions: one line each in one table, today's last and the default."""

from __future__ import annotations

import datetime

from rule_catalogue import declared_rules

from generator.model.contracts import CONTRACTS, TODAY, ContractName, contract_at, contract_named
from generator.model.files import Run
from generator.model.records import ROUTE_FIELD_LABELS


def test_today_is_the_last_version_and_the_default() -> None:
    assert TODAY is CONTRACTS[-1]
    assert TODAY.is_today and TODAY.exact_labels and TODAY.lacks == frozenset()
    assert TODAY.route_fields == tuple(ROUTE_FIELD_LABELS)
    assert contract_named(None) is TODAY
    assert Run(system="Demo").contract is None


def test_each_version_is_named_once_and_lacks_only_declared_rules() -> None:
    assert [c.name for c in CONTRACTS] == list(ContractName)
    codes = set(declared_rules())
    for contract in CONTRACTS:
        assert contract.lacks <= codes
        assert set(contract.route_fields) <= set(ROUTE_FIELD_LABELS)


def test_the_earlier_contract_is_read_from_its_documents_dates() -> None:
    earlier = contract_named(ContractName.SIX_FIELDS_FREE_WORDING)
    assert not earlier.has_rule("KB304") and TODAY.has_rule("KB304")
    assert "evidence_limits" not in earlier.route_fields
    assert contract_at(datetime.date(2026, 9, 26)) is earlier
    assert contract_at(datetime.date(2026, 9, 27)) is earlier
    # Dates no document shows under the earlier contract are today's: nothing is guessed.
    assert contract_at(datetime.date(2026, 9, 5)) is TODAY
    assert contract_at(datetime.date(2026, 10, 2)) is TODAY
    assert contract_at(None) is TODAY


def test_a_run_names_its_contract() -> None:
    run = Run.model_validate({"system": "Demo", "contract": "six-fields-free-wording"})
    assert run.contract is ContractName.SIX_FIELDS_FREE_WORDING
