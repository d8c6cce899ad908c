"""Records followed across several runs (``run_lineage``): each run paired with the run
after it by what records are, the chain of pairs gives each record's lineage; its status
fields are read across the runs, a renamed field staying one field; the profile is read
per axis. On napkin's three real runs, the records an analyst follows from run to run
are followed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from renumbered_run import copy_run, permutation, renumber
from run_diff_support import REPO_ROOT, checked

from generator.graph.run_lineage import run_lineage
from generator.model import kinds
from generator.model.ids import sort_key
from generator.model.system import SystemRecords
from generator.pipeline import check_system

OH_MY_PI = REPO_ROOT / "records" / "oh-my-pi"
NAPKIN = REPO_ROOT / "records" / "napkin"
NAPKIN_RUNS = ("AAS-2026-09-27-napkin-01", "AAS-2026-09-27-napkin-04")


def _set_status(folder: Path, record_id: str, label: str, value: str | None) -> None:
    path = folder / "routes.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    record = next(entry for entry in data["routes"] if entry["id"] == record_id)
    if value is None:
        record["statuses"].pop(label)
    else:
        record["statuses"][label] = value
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _rename_status(folder: Path, record_id: str, old: str, new: str) -> None:
    path = folder / "routes.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    record = next(entry for entry in data["routes"] if entry["id"] == record_id)
    record["statuses"] = {new if label == old else label: v for label, v in record["statuses"].items()}
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


Runs = tuple[list[SystemRecords], list[dict[str, str]]]


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """oh-my-pi's own run three times, the second and third each renumbered anew (maps from
    the first run's IDs); RTE-1's operation status moves in the second run and again in the
    third; RTE-2's implementation status field is renamed in the third, its value kept."""
    tmp_path = tmp_path_factory.mktemp("runs")
    first = copy_run(OH_MY_PI, tmp_path / "one")
    second = copy_run(OH_MY_PI, tmp_path / "two")
    third = copy_run(OH_MY_PI, tmp_path / "three")
    ids = [record.id for record in checked(first).records]
    _set_status(second, "RTE-1", "operation conclusion status", "wired")
    _set_status(third, "RTE-1", "operation conclusion status", "claimed")
    _rename_status(third, "RTE-2", "implementation conclusion status", "implementation status")
    maps = [permutation(ids, 11), permutation(ids, 12)]
    renumber(second, maps[0])
    renumber(third, maps[1])
    return [checked(first), checked(second), checked(third)], maps


def test_each_record_is_followed_across_three_renumbered_runs(three_runs: Runs) -> None:
    runs, (to_second, to_third) = three_runs
    history = run_lineage(runs)
    chains = {
        tuple(record.id if record else None for record in lineage.records) for lineage in history.lineages
    }
    assert chains == {(old, to_second[old], to_third[old]) for old in to_second}
    assert all(confidence is None for lineage in history.lineages for confidence in lineage.confidences[:1])
    assert all(c is not None for lineage in history.lineages for c in lineage.confidences[1:])


def test_a_status_that_moves_twice_is_one_field_with_a_value_per_run(three_runs: Runs) -> None:
    runs, _ = three_runs
    history = run_lineage(runs)
    by_first = {lineage.records[0].id: lineage for lineage in history.lineages if lineage.records[0]}
    moved = by_first["RTE-1"].moved
    assert [(field.title, [v[1] if v else None for v in field.values]) for field in moved] == [
        ("operation conclusion status", ["uninspected", "wired", "claimed"])
    ]
    # Renamed with its value kept: one field, not moved, each run's label as written.
    (implementation,) = [f for f in by_first["RTE-2"].fields if "implementation" in f.title]
    assert implementation.title == "implementation status" and not implementation.moved
    assert [v[0] for v in implementation.values if v] == [
        "implementation conclusion status",
        "implementation conclusion status",
        "implementation status",
    ]
    # Only RTE-1 moved.
    assert [lineage.records[0].id for lineage in history.moved if lineage.records[0]] == ["RTE-1"]


def test_lineages_are_in_kind_order_then_the_newest_run_s_id_order(three_runs: Runs) -> None:
    runs, _ = three_runs
    history = run_lineage(runs)
    codes = kinds.kind_codes()
    keys = [(codes.index(lineage.kind), sort_key(lineage.latest.id)) for lineage in history.lineages]
    assert keys == sorted(keys)


def _napkin() -> list[SystemRecords]:
    runs = []
    for run_id in NAPKIN_RUNS:
        checked_run = check_system(NAPKIN / "runs" / run_id, REPO_ROOT, run_of="napkin")
        runs.append(checked_run.records)
    runs.append(check_system(NAPKIN, REPO_ROOT).records)
    return runs


# Records an analyst follows through napkin's three runs (read from the three documents):
# the same thing under each run's own number.
NAPKIN_LINEAGES = [
    ("OBJ-6", "OBJ-1", "OBJ-1"),  # Markdown notes in the vault
    ("OBJ-8", "OBJ-3", "OBJ-3"),  # derived search and overview access structures
    ("OBJ-1", "OBJ-5", "OBJ-5"),  # benchmark judgment and metrics
    ("OBJ-9", "OBJ-9", "OBJ-10"),  # JSON Canvas content
    ("RTE-7", "RTE-1", "RTE-1"),  # requested overview, search and read
    ("RTE-6", "RTE-2", "RTE-2"),  # caller-directed mutation
    ("RTE-8", "RTE-3", "RTE-3"),  # skill-directed distillation
    ("RTE-9", "RTE-4", "RTE-4"),  # skill-directed tending
    ("RTE-3", "RTE-6", "RTE-5"),  # package update admission
    ("RTE-2", "RTE-7", "RTE-7"),  # reference-answer scoring
    ("CLM-2", "CLM-1", "CLM-1"),  # the progressive-disclosure memory claim
    ("CLM-1", "CLM-2", "CLM-2"),  # the reported benchmark performance
]


def test_napkin_s_records_are_followed_as_an_analyst_follows_them() -> None:
    if not NAPKIN.is_dir():
        pytest.skip("records/napkin is not shipped")
    history = run_lineage(_napkin())
    chains = {tuple(r.id if r else None for r in lineage.records) for lineage in history.lineages}
    assert [chain for chain in NAPKIN_LINEAGES if chain not in chains] == []
    assert history.run_ids == (*NAPKIN_RUNS, "AAS-2026-09-27-napkin-05")
    # Every record of every run is in exactly one lineage.
    for at, run in enumerate(_napkin()):
        assert sorted(r.id for lineage in history.lineages if (r := lineage.records[at])) == sorted(
            record.id for record in run.records
        )


def test_napkin_s_profile_is_read_per_axis_across_the_runs() -> None:
    history = run_lineage(_napkin())
    axes = {axis.axis: axis for axis in history.axes}
    direction = axes["read_back_direction"]
    assert [state.values if state else None for state in direction.states] == [
        ("pull", "push"),
        ("pull",),
        ("pull", "push"),
    ]
    assert [state.assessment if state else None for state in axes["read_back_signal"].states] == [
        "partial",
        "inapplicable",
        "known",
    ]
    assert history.profiled == (True, True, True)
