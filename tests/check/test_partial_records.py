"""A record with an error is still a record: counted, and checked for everything else.

Fixing one error must not reveal others that were there all along, and the summary
counts must not drop the record that holds the error.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import located, make_records

ROUTES = "records/demo/routes.yaml"

# A route with a bad status value AND a blank labelled field: both are reported in
# one run (the blank field used to appear only after the status was fixed).
BAD_STATUS_AND_BLANK_FIELD = """routes:
  - id: RTE-3
    label: Prompt to answer
    owner: CMP-1
    statuses:
      implementation conclusion status: wird
    fields:
      immediate_return: The answer returns.
      later_read_back: " "
      delegated_visibility: inapplicable — none.
      selection_predicate: Every prompt.
      invalidation_or_expiry: uninspected — not traced.
      activation_or_effect: The answer is printed.
      evidence_limits: Static reading only.
"""


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen, changes: dict) -> tuple[set, dict]:
    make_records(tmp_path, changes)
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1
    return located(result), result.json()["systems"][0]["counts"]


def test_hide_a_blank_route_field_behind_a_bad_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    found, counts = _check(tmp_path, monkeypatch, kbgen, {"routes.yaml": BAD_STATUS_AND_BLANK_FIELD})
    assert ("KB104", ROUTES, 6, 41) in found
    assert ("KB107", ROUTES, 9, 24) in found
    assert counts["routes"] == 3  # the two of the demo system and this one


def test_hide_a_dangling_reference_behind_an_unknown_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    text = "routes:\n  - id: RTE-3\n    label: Loop\n    colour: red\n    owner: CMP-1 hands to CMP-8.\n"
    found, counts = _check(tmp_path, monkeypatch, kbgen, {"routes.yaml": text})
    assert ("KB103", ROUTES, 4, 5) in found
    assert ("KB202", ROUTES, 5, 27) in found
    assert counts["routes"] == 3


def test_hide_a_record_from_the_counts_with_a_broken_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    text = "routes:\n  - id: RTE-one\n    label: Loop\n  - id: RTE-3\n    label: Fine\n"
    found, counts = _check(tmp_path, monkeypatch, kbgen, {"routes.yaml": text})
    assert ("KB105", ROUTES, 2, 9) in found
    assert counts["routes"] == 4


def test_hide_a_record_from_the_counts_with_a_missing_required_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    # (A claim may state no conclusion status; a source must state its identity.)
    text = "claims:\n  - id: CLM-1\n    claim: It remembers CLM-9.\n    conclusion_status: claimed\n"
    text += "sources:\n  - id: SRC-9\n    source_kind: Git\n    body: It cites CLM-1.\n"
    found, counts = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert ("KB102", "records/demo/claims.yaml", 6, 5) in found
    assert counts["claims"] == 1


def test_report_a_dropped_field_once_not_again_as_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    """A labelled field of the wrong type is one error (KB101), not also a KB304."""
    text = BAD_STATUS_AND_BLANK_FIELD.replace("wird", "wired").replace('" "', "42")
    found, _ = _check(tmp_path, monkeypatch, kbgen, {"routes.yaml": text})
    assert {code for code, *_ in found} == {"KB101"}


# ---------------------------------------------------------------- partial routes

PARTIAL_ROUTE = """routes:
  - id: RTE-3
    label: Partly stated
    owner: CMP-1
    statuses:
      implementation conclusion status: uninspected
    fields:
      immediate_return: The answer returns.
      later_read_back: {later}
      delegated_visibility:
        status: inapplicable
        reason: no delegation on this route.
      selection_predicate: Every prompt.
      invalidation_or_expiry: uninspected — not traced.
      activation_or_effect: The answer is printed.
      evidence_limits: Static reading only.
"""


def test_state_an_uncertain_field_as_a_mapping_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    make_records(tmp_path, {"routes.yaml": PARTIAL_ROUTE.format(later="uninspected — not read.")})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert located(result) == set()


@pytest.mark.parametrize("later", ["uninspected", "inapplicable —", "Uninspected -"])
def test_leave_out_the_reason_of_an_uncertain_field(
    later: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    found, _ = _check(tmp_path, monkeypatch, kbgen, {"routes.yaml": PARTIAL_ROUTE.format(later=later)})
    assert found == {("KB304", ROUTES, 9, 24)}


def test_name_a_claim_as_an_alternative_route(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = "routes:\n  - id: RTE-3\n    label: Branch\n    alternative_to: [RTE-1, CLM-9, RTE-3]\n"
    found, _ = _check(tmp_path, monkeypatch, kbgen, {"routes.yaml": text})
    assert found == {("KB201", ROUTES, 4, 29), ("KB210", ROUTES, 4, 36)}


def test_hide_a_dangling_id_in_a_guarantee_contract(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    text = (
        "routes:\n  - id: RTE-3\n    label: Guarded\n    guarantee:\n      - strength: protocol\n"
        "        owner: CMP-1\n        status: claimed\n        contract: Callers hold CMP-8.\n"
    )
    found, _ = _check(tmp_path, monkeypatch, kbgen, {"routes.yaml": text})
    assert found == {("KB202", ROUTES, 8, 32)}
