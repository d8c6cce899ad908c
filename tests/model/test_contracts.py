"""The route contract versions: one line each in one table, today's last and the default."""

from __future__ import annotations

import datetime

from rule_catalogue import declared_rules

from generator.model.contracts import CONTRACTS, TODAY, ContractName, contract_at, contract_named
from generator.model.files import Run
from generator.model.ids import run_id_date
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


def test_a_contract_binds_by_the_dates_it_was_in_force() -> None:
    earlier = contract_named(ContractName.SIX_FIELDS_FREE_WORDING)
    day = datetime.timedelta(days=1)
    assert earlier.last_seen is not None and TODAY.last_seen is None
    for date in (earlier.first_seen, earlier.last_seen):
        assert earlier.in_force_on(date) and earlier.may_be_claimed_on(date)
    for date in (earlier.first_seen - day, earlier.last_seen + day, TODAY.first_seen):
        assert not earlier.in_force_on(date) and not earlier.may_be_claimed_on(date)
    # Today's has no last date, and a run of any date may claim it: it lacks no rule.
    assert TODAY.in_force_on(datetime.date(2100, 1, 1)) and not TODAY.in_force_on(earlier.first_seen)
    assert TODAY.may_be_claimed_on(earlier.first_seen - day)


def test_the_contract_read_from_a_date_may_be_claimed_on_it() -> None:
    first = CONTRACTS[0].first_seen - datetime.timedelta(days=40)
    for offset in range(120):
        date = first + datetime.timedelta(days=offset)
        assert contract_at(date).may_be_claimed_on(date), date


def test_a_run_ids_date() -> None:
    assert run_id_date("AAS-2026-09-27-napkin-05") == datetime.date(2026, 9, 27)
    assert run_id_date("AAS-2026-02-30-napkin-05") is None  # no such day
    assert run_id_date("AAS-2026-09-27-napkin-05\n") is None
    assert run_id_date(None) is None
