"""Hostile corpus, fourth round: a run's route contract is bound to its date.

One line, ``contract: six-fields-free-wording``, used to take any run out of KB304 and
KB409. Now an earlier contract may be claimed only by a run whose every stated date (its
run date, the date its run ID carries) falls within the dates that contract was in force
(26–27 September 2026); otherwise KB310 at the ``contract:`` value, and the run is checked
under the contract in force at its date, so KB304 reports its route fields again. Each case
starts from a run under the earlier contract that checks clean (RTE-10 states four of the
seven route fields) and names its rule code, file, line and column.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hostile_support import Located, located

CASE = Path(__file__).resolve().parents[1] / "fixtures" / "check" / "clean-route-contract-earlier"
RUN = "records/demo/run.yaml"
ROUTES = "records/demo/records.yaml"
# RTE-10's 'fields:' mapping, where KB304 reports the three fields it lacks.
ROUTE_FIELDS_LACKING = ("KB304", ROUTES, 22, 7)
# The claim's value on run.yaml's last line: '  contract: six-fields-free-wording'.
CONTRACT_LINE, CONTRACT_COL = 14, 13


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(CASE / "records", tmp_path / "records")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "records" / "demo"


def _dated(demo: Path, run_id: str | None, run_date: str | None) -> None:
    """The run with its run ID and run date replaced (None: the line removed)."""
    lines = (demo / "run.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    out = []
    for line in lines:
        if line.startswith("  run_id:"):
            if run_id is None:
                continue
            line = f"  run_id: {run_id}\n"
        elif line.startswith("  run_date:"):
            if run_date is None:
                continue
            line = f"  run_date: {run_date}\n"
        out.append(line)
    (demo / "run.yaml").write_text("".join(out), encoding="utf-8")


def _check(kbgen: Any) -> tuple[int, set[Located], list[dict[str, Any]]]:
    result = kbgen("check", "records", "--format", "json")
    return result.code, located(result), result.json()["diagnostics"]


def _kb310(diagnostics: list[dict[str, Any]]) -> dict[str, Any]:
    (found,) = [d for d in diagnostics if d["code"] == "KB310"]
    return found


def test_the_earlier_contract_within_its_dates_checks_clean(demo: Path, kbgen) -> None:
    for day in ("2026-09-26", "2026-09-27"):
        _dated(demo, f"AAS-{day}-demo-01", day)
        assert _check(kbgen)[:2] == (0, set())


def test_a_run_dated_under_todays_contract_may_not_claim_the_old_one(demo: Path, kbgen) -> None:
    _dated(demo, "AAS-2026-10-05-demo-01", "2026-10-05")
    code, where, diagnostics = _check(kbgen)
    assert code == 1
    assert where == {("KB310", RUN, CONTRACT_LINE, CONTRACT_COL), ROUTE_FIELDS_LACKING}
    found = _kb310(diagnostics)
    assert found["severity"] == "error"
    assert found["message"] == (
        "the run claims route contract six-fields-free-wording, but its run date 2026-10-05 is after "
        "its last date, 2026-09-27"
    )
    assert found["hint"].startswith(
        "six-fields-free-wording was in force from 2026-09-26 to 2026-09-27; on 2026-10-05 the contract "
        "in force is seven-fields-exact-labels (today's)."
    )


def test_one_day_after_the_contracts_last_date_is_refused(demo: Path, kbgen) -> None:
    _dated(demo, "AAS-2026-09-28-demo-01", "2026-09-28")
    code, where, diagnostics = _check(kbgen)
    assert code == 1
    assert where == {("KB310", RUN, CONTRACT_LINE, CONTRACT_COL), ROUTE_FIELDS_LACKING}
    assert "run date 2026-09-28 is after its last date, 2026-09-27" in _kb310(diagnostics)["message"]


def test_one_day_before_the_contracts_first_date_is_refused(demo: Path, kbgen) -> None:
    _dated(demo, "AAS-2026-09-25-demo-01", "2026-09-25")
    code, where, diagnostics = _check(kbgen)
    assert code == 1
    assert where == {("KB310", RUN, CONTRACT_LINE, CONTRACT_COL), ROUTE_FIELDS_LACKING}
    assert "run date 2026-09-25 is before its first date, 2026-09-26" in _kb310(diagnostics)["message"]


def test_without_a_run_date_the_run_ids_date_binds_the_claim(demo: Path, kbgen) -> None:
    # The run date absent, the run ID's date is the run's date: a date under today's contract.
    _dated(demo, "AAS-2026-10-05-demo-01", None)
    code, where, diagnostics = _check(kbgen)
    assert code == 1
    assert ("KB310", RUN, CONTRACT_LINE - 1, CONTRACT_COL) in where
    assert ROUTE_FIELDS_LACKING in where
    assert "its run ID's date 2026-10-05 is after its last date" in _kb310(diagnostics)["message"]
    # The run ID's date within the contract's dates: the claim holds.
    _dated(demo, "AAS-2026-09-27-demo-01", None)
    assert not {w for w in _check(kbgen)[1] if w[0] in ("KB310", "KB304")}


@pytest.mark.parametrize(
    ("run_id", "run_date", "outside"),
    [
        # The run ID within the contract's dates, the run date after them.
        ("AAS-2026-09-27-demo-01", "2026-10-05", "run date 2026-10-05"),
        # The run date within them, the run ID's date after them.
        ("AAS-2026-10-05-demo-01", "2026-09-27", "run ID's date 2026-10-05"),
    ],
)
def test_a_run_id_and_run_date_that_disagree_cannot_pick_the_date_that_suits(
    demo: Path, kbgen, run_id: str, run_date: str, outside: str
) -> None:
    _dated(demo, run_id, run_date)
    code, where, diagnostics = _check(kbgen)
    assert code == 1
    assert where == {
        ("KB302", RUN, 3, 11),
        ("KB310", RUN, CONTRACT_LINE, CONTRACT_COL),
        ROUTE_FIELDS_LACKING,
    }
    assert f"its {outside} is after its last date" in _kb310(diagnostics)["message"]


def test_a_run_stating_no_date_may_not_claim_an_earlier_contract(demo: Path, kbgen) -> None:
    _dated(demo, None, None)
    code, where, diagnostics = _check(kbgen)
    assert code == 1
    assert ("KB310", RUN, CONTRACT_LINE - 2, CONTRACT_COL) in where
    assert ROUTE_FIELDS_LACKING in where
    assert _kb310(diagnostics)["message"] == (
        "the run claims route contract six-fields-free-wording but states no run date to bind it to"
    )


def test_todays_contract_may_be_claimed_at_any_date(demo: Path, kbgen) -> None:
    # Today's contract has no last date and lacks no rule: claiming it hides nothing.
    _dated(demo, "AAS-2024-05-01-demo-01", "2024-05-01")
    text = (demo / "run.yaml").read_text(encoding="utf-8")
    (demo / "run.yaml").write_text(
        text.replace("six-fields-free-wording", "seven-fields-exact-labels"), encoding="utf-8"
    )
    code, where, _ = _check(kbgen)
    assert code == 1
    assert where == {ROUTE_FIELDS_LACKING}
