"""A build links each system folder as soon as it is checked (``pipeline._build``): what the
check hands over as it goes, and what the build does when that is not what the whole
records folder says."""

from __future__ import annotations

from pathlib import Path

import pytest

import generator.pipeline
from generator.check import CheckedSystem, check_system_folders, folder_check
from generator.model.runs import RunHistory
from generator.pipeline import reserved_names, run_pipeline

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "records"


def test_the_check_hands_over_each_folder_with_how_many_are_left() -> None:
    handed: list[tuple[list[str], int]] = []
    systems = check_system_folders(
        RECORDS,
        ROOT,
        folder_check(reserved_names()),
        lambda checked, left: handed.append(([system.source.slug for system in checked], left)),
    )
    folders = sorted(path.name for path in RECORDS.iterdir() if path.is_dir())
    assert [slugs[0] for slugs, _ in handed] == folders
    assert [left for _, left in handed] == list(range(len(folders) - 1, -1, -1))
    # Every run of a system comes with its folder, and nothing else is handed over.
    assert sorted(slug for slugs, _ in handed for slug in slugs) == sorted(s.source.slug for s in systems)
    assert any(len(slugs) > 1 for slugs, _ in handed)  # a system of several runs


def test_a_system_linked_under_another_run_history_is_linked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = run_pipeline(RECORDS, base=ROOT)
    histories = generator.pipeline.histories
    total = len(expected.systems)

    def none_while_checking(systems: list[CheckedSystem]) -> dict[int, RunHistory]:
        # Folder by folder no system has a history; the whole folder's check gives them.
        return histories(systems) if len(systems) == total else {}

    monkeypatch.setattr(generator.pipeline, "histories", none_while_checking)
    found = run_pipeline(RECORDS, base=ROOT)
    assert any(graph.history is not None for graph in expected.earlier_runs)
    assert [graph.history for graph in found.graphs + found.earlier_runs] == [
        graph.history for graph in expected.graphs + expected.earlier_runs
    ]
    assert found.pages == expected.pages
