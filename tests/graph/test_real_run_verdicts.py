"""On real histories, the verdicts an analyst reads as moved in both runs' written
conclusions are listed, and those kept are not. instinctual-memory's 2026-09-25 result
says "Reflection is wired narrowly for consolidation …" in its bounded synthesis; its
2026-10-01 set's overview says "Reflection, autonomous theory building, and
self-improvement are likewise not established": one verdict moved, from a result's
section to a set overview's of the same role. dynamic-cheatsheet's 2026-09-27 result
reasons about theory building in its synthesis; the shipped 2026-10-03 set's memory
report restates none of those verdicts, and the ones it shares ("the memory write is not
evaluation-gated") it keeps: nothing is listed. Skipped when ``../shared/reference`` is
absent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from run_diff_support import REPO_ROOT

from generator.graph.run_diff import RunDiff, diff_runs
from generator.pipeline import check_records, check_system

REFERENCE = REPO_ROOT.parent / "shared" / "reference"
INSTINCTUAL = REFERENCE / "AAS-2026-09-25-instinctual-memory-01" / "result.md"
INSTINCTUAL_SET = REFERENCE / "AAS-2026-10-01-instinctual-memory-01"
CHEATSHEET = REFERENCE / "AAS-2026-09-27-dynamic-cheatsheet-03" / "result.md"

pytestmark = pytest.mark.skipif(not INSTINCTUAL_SET.is_dir(), reason="the reference analyses are absent")


def _import(document: Path, system: str, records: Path, *extra: str) -> None:
    command = [sys.executable, "-m", "generator.cli.main", "import", str(document)]
    command += ["--system", system, "--records", str(records), *extra]
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    # What the import could not keep is listed beside the run (exit 1), the run is written.
    assert f"kbgen import: wrote {records}" in done.stderr, done.stderr


def _own_run(folder: Path):
    (system,) = [s for s in check_records(folder) if not s.source.run_folder]
    return system


@pytest.fixture(scope="module")
def instinctual_memory(tmp_path_factory: pytest.TempPathFactory) -> RunDiff:
    records = tmp_path_factory.mktemp("records")
    _import(INSTINCTUAL, "instinctual-memory", records)
    _import(INSTINCTUAL_SET, "instinctual-memory", records, "--as-run")
    folder = records / "instinctual-memory"
    new = check_system(folder / "runs" / INSTINCTUAL_SET.name, None, None, "instinctual-memory")
    return diff_runs(_own_run(folder).records, new.records)


def test_reflection_moved_from_wired_to_not_established(instinctual_memory: RunDiff) -> None:
    (move,) = instinctual_memory.verdicts
    assert move.role == "synthesis" and move.change == "reversed"
    assert move.old.text.startswith("Reflection is wired narrowly for consolidation progress")
    assert move.new.text.startswith("Reflection, autonomous theory building, and self-improvement")
    assert move.new.text.endswith("are likewise not established by the inspected routes.")
    assert (move.old.document, move.old.section) == ("result", "bounded_synthesis")
    assert (move.new.document, move.new.section) == ("overview", "bounded_synthesis")
    assert (move.old.verdict, move.new.verdict) == ("wired", "not established")


def test_kept_verdicts_are_not_listed(instinctual_memory: RunDiff) -> None:
    listed = " ".join(m.old.text for m in instinctual_memory.verdicts)
    # Both runs find trace-fed retention wired and no observed improvement: not a move.
    assert "The strongest supported contribution is wired retention" not in listed
    assert "No observed runs" not in listed


def test_a_memory_report_that_restates_no_verdict_lists_none(tmp_path: Path) -> None:
    records = tmp_path / "records"
    _import(CHEATSHEET, "dynamic-cheatsheet", records)
    old = _own_run(records / "dynamic-cheatsheet")
    new = _own_run(REPO_ROOT / "records" / "dynamic-cheatsheet")
    diff = diff_runs(old.records, new.records)
    assert diff.verdicts == () and diff.counts.verdicts_moved == 0
    # No value against silence: the set's statuses the result did not state are not moves.
    assert diff.conclusions == ()
    assert {m.change for m in diff.statements} <= {"newly stated", "no longer stated", "renamed"}
