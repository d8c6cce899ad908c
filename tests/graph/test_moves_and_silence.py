"""A move is a changed value that both runs state. A status one run states and the other
does not, a field renamed between contracts, a profile basis given for the axis in one
run and per value in the other: none of them is a conclusion that moved. The diff, its
text and JSON, the changes page and the history page keep them apart."""

from __future__ import annotations

from pathlib import Path

from run_diff_support import checked, edit, record, run_copy

from generator.graph.run_diff import RunDiff, diff_runs
from generator.graph.run_lineage import run_lineage
from generator.outputs.run_diff_output import as_json, as_text
from generator.render.run_changes import render_run_changes


def _diff(old: Path, new: Path) -> RunDiff:
    return diff_runs(checked(old), checked(new))


def _statuses(folder: Path, record_id: str, statuses: dict[str, str]) -> None:
    edit(folder, "routes.yaml", lambda d: record(d, "routes", record_id).update(statuses=statuses))


def _silent_and_moved(tmp_path: Path) -> RunDiff:
    """RTE-1: implementation wired → observed (a move), operation status no longer stated;
    RTE-2: implementation afforded, kept, and an operation status newly stated."""
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    _statuses(new, "RTE-1", {"implementation conclusion status": "observed"})
    _statuses(
        new,
        "RTE-2",
        {"implementation conclusion status": "afforded", "operation conclusion status": "uninspected"},
    )
    return _diff(old, new)


def test_a_status_one_run_does_not_state_is_not_a_move(tmp_path: Path) -> None:
    diff = _silent_and_moved(tmp_path)
    assert [(m.change, m.new_record.id, m.field, m.old, m.new) for m in diff.conclusions] == [
        ("moved", "RTE-1", "implementation conclusion status", "wired", "observed")
    ]
    assert [(m.change, m.new_record.id, m.field, m.old, m.new) for m in diff.statements] == [
        ("no longer stated", "RTE-1", "operation conclusion status", "uninspected", None),
        ("newly stated", "RTE-2", "operation conclusion status", None, "uninspected"),
    ]
    counts = diff.counts
    stated = (counts.conclusions_moved, counts.conclusions_newly_stated, counts.conclusions_no_longer_stated)
    assert stated == (1, 1, 1)


def test_the_text_and_json_say_which_is_which(tmp_path: Path) -> None:
    diff = _silent_and_moved(tmp_path)
    text = as_text(diff)
    moved = text.split("Conclusions that moved\n", 1)[1].split("\n\n", 1)[0]
    assert "implementation conclusion status: wired → observed" in moved
    assert "(none)" not in moved and "stated" not in moved
    assert "operation conclusion status: no longer stated (was uninspected)" in text
    assert "operation conclusion status: newly stated: uninspected" in text
    assert (
        "1 conclusion moved, 0 verdicts moved; statuses: 1 newly stated, 1 no longer stated, 0 fields renamed"
        in text
    )
    data = as_json(diff)
    assert [m["change"] for m in data["conclusions"]] == ["moved"]
    assert [m["change"] for m in data["statements"]] == ["no longer stated", "newly stated"]


def test_the_changes_page_leads_with_moves_only(tmp_path: Path) -> None:
    diff = _silent_and_moved(tmp_path)
    page = render_run_changes(diff, lambda i: f"old#{i.lower()}", lambda i: f"new#{i.lower()}")
    moved = page.split("## Conclusions that moved", 1)[1].split("\n## ", 1)[0]
    assert "wired" in moved and "observed" in moved and "uninspected" not in moved
    stated = page.split("## Statuses stated in one run only", 1)[1].split("\n## ", 1)[0]
    assert "no longer stated (was" in stated and "newly stated:" in stated
    assert page.index("## Conclusions that moved") < page.index("## Statuses stated in one run only")
    assert "Conclusions moved: 1" in page and "newly stated: 1" in page


def test_a_renamed_field_with_its_value_kept_is_no_move(tmp_path: Path) -> None:
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    _statuses(new, "RTE-2", {"implementation status": "afforded"})
    diff = _diff(old, new)
    assert diff.conclusions == ()
    assert [(m.change, m.renamed_from, m.field) for m in diff.statements] == [
        ("renamed", "implementation conclusion status", "implementation status")
    ]
    assert diff.counts.status_fields_renamed == 1


def _axis_basis(folder: Path, axis: str, basis: str | None, per_value: str | None) -> None:
    """Give ``axis`` one basis for the axis (its evidence entries dropped), or each value's."""

    def change(data: dict) -> None:
        entry = data["memory_comparison"]["axes"][axis]
        if basis is not None:
            entry["basis"] = basis
            entry.pop("evidence", None)
        if per_value is not None:
            for evidence in entry["evidence"].values():
                evidence["basis"] = per_value

    edit(folder, "profile.yaml", change)


def test_a_basis_moved_from_the_axis_to_its_values_is_a_reshape(tmp_path: Path) -> None:
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    _axis_basis(old, "storage_substrate", "wired", None)  # the same basis, per axis
    _axis_basis(old, "representational_form", "afforded", None)  # afforded for the axis …
    diff = _diff(old, new)  # … wired per value in the new run
    axes = {axis.axis: axis for axis in diff.profile.axes}
    storage = axes["storage_substrate"]
    assert storage.basis == () and storage.reshaped == "basis per value, no longer for the axis"
    form = axes["representational_form"]
    assert [(m.title, m.old, m.new) for m in form.basis] == [
        ("Representational form: basis of natural-language", "afforded", "wired")
    ]
    text = as_text(diff)
    assert "basis: wired → (none)" not in text and "(none) → wired" not in text
    assert "basis of natural-language: afforded → wired" in text


def test_the_history_marks_moved_only_what_two_stating_runs_differ_on(tmp_path: Path) -> None:
    """Three runs: RTE-1's operation status stated, not stated, stated again alike (no
    move); its implementation status wired, wired, observed (a move); the storage axis
    given per axis, per value, per value with the same basis (no move)."""
    one, two, three = (run_copy(tmp_path, name) for name in ("one", "two", "three"))
    _axis_basis(one, "storage_substrate", "wired", None)
    _statuses(two, "RTE-1", {"implementation conclusion status": "wired"})
    _statuses(
        three,
        "RTE-1",
        {"implementation conclusion status": "observed", "operation conclusion status": "uninspected"},
    )
    history = run_lineage([checked(one), checked(two), checked(three)])
    (route,) = [lineage for lineage in history.moved if lineage.latest.id == "RTE-1"]
    assert [field.title for field in route.moved] == ["implementation conclusion status"]
    assert [axis.axis for axis in history.axes if axis.moved] == []


def test_a_record_a_middle_run_does_not_state_continues_its_lineage(tmp_path: Path) -> None:
    one, two, three = (run_copy(tmp_path, name) for name in ("one", "two", "three"))

    def drop(data: dict) -> None:
        data["routes"] = [r for r in data["routes"] if r["id"] != "RTE-2"]

    edit(two, "routes.yaml", drop)
    for name in ("findings.yaml", "result.yaml"):  # the records that name it, unnamed
        path = two / name
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(" and RTE-2", "").replace(", RTE-2]", "]"), encoding="utf-8")
    _statuses(three, "RTE-2", {"implementation conclusion status": "wired"})
    history = run_lineage([checked(one), checked(two), checked(three)])
    (route,) = [lineage for lineage in history.lineages if lineage.latest.id == "RTE-2"]
    assert [r.id if r else None for r in route.records] == ["RTE-2", None, "RTE-2"]
    assert route.confidences[2] is not None
    assert [(f.title, f.moved) for f in route.fields] == [("implementation conclusion status", True)]
