"""The route contract an import reads a document under, inferred from its frontmatter."""

from __future__ import annotations

import datetime

from generator.importer.run import contract_from_frontmatter
from generator.model.contracts import TODAY, ContractName


def test_a_result_of_the_earlier_contracts_dates_is_read_under_it() -> None:
    front = {"type": "types/agentic-system-analysis-result.md", "run-date": "2026-09-27"}
    assert contract_from_frontmatter(front, True).name is ContractName.SIX_FIELDS_FREE_WORDING
    # A YAML date, and the run ID's date when the frontmatter has no run date.
    assert not contract_from_frontmatter({"run-date": datetime.date(2026, 9, 26)}, True).is_today
    assert not contract_from_frontmatter({"run-id": "AAS-2026-09-27-napkin-05"}, True).is_today


def test_any_other_document_is_read_under_todays() -> None:
    assert contract_from_frontmatter({"run-date": "2026-09-27"}, False) is TODAY  # not a single result
    assert contract_from_frontmatter({}, True) is TODAY  # no frontmatter: a plain-text seed
    assert contract_from_frontmatter({"run-date": "2026-10-03"}, True) is TODAY
    assert contract_from_frontmatter({"run-date": "2026-09-05"}, True) is TODAY  # no document shows it
    assert contract_from_frontmatter({"run-date": "not a date"}, True) is TODAY


def test_the_contract_an_import_writes_may_be_claimed_by_the_run_it_writes() -> None:
    # The run date written is the frontmatter's run date (else the run ID's), the date the
    # contract is read by: a genuine document never trips KB310.
    start = datetime.date(2026, 9, 1)
    for offset in range(60):
        date = start + datetime.timedelta(days=offset)
        for front in ({"run-date": date.isoformat()}, {"run-id": f"AAS-{date.isoformat()}-napkin-01"}):
            assert contract_from_frontmatter(front, True).may_be_claimed_on(date), front
